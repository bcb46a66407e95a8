#!/usr/bin/env bash
# test/cluster.sh: hroe beyond one machine, all of it on this one
# (doc/replicas.md).
#
# On a fresh Debian 12 machine as root: installs what is missing, builds hroe
# and hroe-gateway (as the README's commands do), then starts, each a
# throwaway cluster of its own (test/lib_cluster.sh, Unix sockets only):
#   primary   the coordinator: hroe's tables, writes, strong reads
#   standby   its synchronous hot standby (synchronous_commit remote_apply:
#             a write is acknowledged once the standby has applied it)
#   part1, part2  partition servers, when test/lib_partition.sh is there
#             (partition_setup: hroe's tables hash-partitioned over them)
# and hroe-gateway on 127.0.0.1:$HROE_GATEWAY_PORT with --dbname listing the
# primary then the standby (target_session_attrs=read-write: after a
# promotion the gateway writes to the standby) and the standby as --replica
# (eventually consistent reads).  It loads CUSTOMERS x 10 items, runs the
# repository's conformance corpus through the gateway and a short wrk
# benchmark (GetItem and Query eventually consistent, PutItem), prints the
# layout and the results, and removes everything.
#
#   bash test/cluster.sh
#   HROE_GATEWAY_PORT (default 8000), HROE_CLUSTER_PORT (the first cluster's
#   socket number, default 5440; the others follow), HROE_BENCH_SECS
#   (default 5), HROE_BENCH_CUSTOMERS (default 2000)
#
# The gateway logs in as the superuser and its key acts as the superuser:
# a demonstration, not a deployment (doc/gateway.md has the roles).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
PORT=${HROE_GATEWAY_PORT:-8000}
base=${HROE_CLUSTER_PORT:-5440}
SECS=${HROE_BENCH_SECS:-5}
CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
DB=hroe
HROE_EXTRA_PACKAGES="${HROE_EXTRA_PACKAGES:-} wrk nodejs"
command -v npm >/dev/null || HROE_EXTRA_PACKAGES="$HROE_EXTRA_PACKAGES npm"
if ! ensure_packages || ! build_stage; then
	echo "hroe: build failed" >&2
	exit 1
fi
export HROE_STAGE
. test/lib_cluster.sh
cluster_setup
WORK=$(mktemp -d)
GW_PID=
trap '[ -n "$GW_PID" ] && kill $GW_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK" "$HROE_STAGE"; cluster_cleanup' EXIT
fail() { echo "cluster.sh: $*" >&2; exit 1; }

echo "== starting the clusters"
cluster_init primary "$base" || fail "initdb"
cluster_start primary -c synchronous_standby_names=standby -c synchronous_commit=remote_apply ||
	fail "primary did not start"
cluster_standby standby $((base + 1)) primary standby || fail "standby did not start"
cluster_init part1 $((base + 2)) && cluster_start part1 || fail "part1 did not start"
cluster_init part2 $((base + 3)) && cluster_start part2 || fail "part2 did not start"
partitioned=no
if [ -f test/lib_partition.sh ]; then
	. test/lib_partition.sh
	partition_setup primary "$DB" part1 part2 >/dev/null || fail "partition_setup failed"
	partitioned=yes
else
	cluster_psql primary -d postgres -c "CREATE DATABASE $DB" || fail "createdb"
	cluster_psql primary -d "$DB" -c "CREATE EXTENSION hroe" || fail "CREATE EXTENSION"
fi
cluster_psql primary -d "$DB" -c "SELECT hroe.create_access_key('postgres', 'clusterkey', 'clustersecret')" >/dev/null

host() { echo "$CLUSTER_WORK/$1"; }
dbname="host=$(host primary),$(host standby) port=$base,$((base + 1)) dbname=$DB user=postgres target_session_attrs=read-write"
replica="host=$(host standby) port=$((base + 1)) dbname=$DB user=postgres"
"$HROE_STAGE$(pg_config --bindir)/hroe-gateway" --port "$PORT" --pool-size 8 --access-log "" \
	--dbname "$dbname" --replica "$replica" 2>"$WORK/gateway.log" &
GW_PID=$!
URL=http://127.0.0.1:$PORT
for _ in $(seq 100); do grep -qs "replica 1 serves" "$WORK/gateway.log" && break; sleep 0.1; done
grep -q "replica 1 serves" "$WORK/gateway.log" || { cat "$WORK/gateway.log"; fail "the gateway or its replica did not start"; }

cat <<-EOT

	== layout (this machine, $(nproc) cores)
	| cluster | role | socket directory, port |
	|---|---|---|
	| primary | coordinator: writes, strongly consistent reads | $(host primary), $base |
	| standby | synchronous hot standby (remote_apply), eventually consistent reads | $(host standby), $((base + 1)) |
	| part1 | partition server$([ $partitioned = yes ] || echo " (idle: partitioning not available)") | $(host part1), $((base + 2)) |
	| part2 | partition server$([ $partitioned = yes ] || echo " (idle: partitioning not available)") | $(host part2), $((base + 3)) |
	hroe-gateway: $URL, --dbname "$dbname", --replica "$replica"
EOT
[ $partitioned = yes ] || echo "   (test/lib_partition.sh is not in this tree: tables are not partitioned)"

export AWS_ACCESS_KEY_ID=clusterkey AWS_SECRET_ACCESS_KEY=clustersecret
echo
echo "== loading $CUSTOMERS x 10 items"
/usr/bin/python3 test/gateway/raw.py "$URL" send CreateTable '{"TableName": "bench", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}' |
	grep -q '^200 ' || fail "CreateTable bench"
sed -n '/^INSERT INTO bench/,/^FROM generate_series/p' test/bench/api_data.sql |
	cluster_psql primary -d "$DB" -v customers="$CUSTOMERS" -f - >/dev/null || fail "loading"
cluster_psql primary -d "$DB" -c "ANALYZE" >/dev/null
echo "   $(cluster_psql primary -d "$DB" -c "SELECT count(*) FROM bench") items"

echo
echo "== test: the conformance corpus through the gateway"
(cd test/conformance && { [ -f node_modules/dynalite/package.json ] ||
	npm ci --no-audit --no-fund --loglevel=error >/dev/null; })
PGHOST=$(host primary) PGPORT=$base PGUSER=postgres PGDATABASE=$DB HROE_GATEWAY_URL=$URL \
	node test/conformance/run.js test/conformance/corpus.jsonl >"$WORK/conformance.out" 2>&1
conformance=$(tail -1 "$WORK/conformance.out")
grep '^FAILED' "$WORK/conformance.out" | head -20
echo "   $conformance"

echo
echo "== benchmark: wrk, $SECS s a cell, pre-signed requests"
python3 test/bench/gateway_requests.py "127.0.0.1:$PORT" clusterkey clustersecret "$CUSTOMERS" "$WORK"
echo "| request | connections | req/s | p50 ms | p99 ms | non-200 |"
echo "|---|---|---|---|---|---|"
for op in GetItem Query PutItem; do
	for c in 8 32; do
		read -r rps p50 p99 errs _ <<<"$(REQUESTS=$WORK/$op.tsv HOSTPORT=127.0.0.1:$PORT wrk -t 2 -c "$c" \
			-d "${SECS}s" -s test/bench/gateway.lua "$URL/" | grep '^RESULT' | cut -d' ' -f2-)"
		echo "| $op | $c | $rps | $p50 | $p99 | $errs |"
	done
done
echo "(GetItem and Query are eventually consistent: the standby answers them while it is fresh;"
echo " every cluster, the gateway and wrk share this machine's $(nproc) cores)"
grep -E "replica 1|monitor" "$WORK/gateway.log" | tail -3 | sed 's/^/   gateway: /'

echo
echo "== cleaning up"
kill -TERM $GW_PID && wait $GW_PID
GW_PID=
case "$conformance" in *" 0 failed") exit 0 ;; *) exit 1 ;; esac
