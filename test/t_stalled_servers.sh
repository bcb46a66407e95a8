#!/usr/bin/env bash
# test/t_stalled_servers.sh: a read replica or a partition server that stops
# answering (SIGSTOP: it accepts connections and never replies, as a hung or
# overloaded server does) must not hold signed requests, gateway pool slots
# or coordinator backends for ever (issue 29, "Not yet attacked";
# doc/security.md "Threat model").
#
# Replica: a primary, an asynchronous hot standby and hroe-gateway with
# --replica (--statement-timeout 1000, a lag bound of 60 s so that the
# standby stays "fresh" while stopped), the standby stopped after it served
# reads:
#   - a key without grants is refused on the standby as on the primary;
#   - every eventually consistent GetItem is answered 200 (a read on the
#     silent standby is given up after statement_timeout + 2 s and sent to
#     the primary; gateway/pool.c);
#   - a few seconds later they are answered at once: the lag monitor's
#     queries are bounded too (gateway/replica.c), so the silent standby is
#     no longer fresh.
# Partition server: a coordinator and two partition servers
# (test/lib_partition.sh), a gateway in front of the coordinator, one
# partition server stopped after the gateway's backends connected to it:
#   - a partition server without connect_timeout is refused by CreateTable;
#   - a login role creates nothing on the partition servers without a user
#     mapping, nor with one to their superuser without a password;
#   - with connect_timeout taken off that server (as one registered before
#     hroe required it), a GetItem of a key on the stopped server is still
#     answered (an error) within 15 s, by the gateway's bound, and a GetItem
#     of a key on the other server 200;
#   - the in-server workers (one backend for all their connections) answer a
#     key of the stopped server (an error) within 15 s and the other
#     server's 200 (HROE_STALL_WORKERS=0 skips it);
#   - a new SQL session's GetItem on the stopped server fails within 20 s
#     (postgres_fdw's connection bounded by connect_timeout) instead of
#     hanging where no statement_timeout reaches.
# Clusters: sockets HROE_CLUSTER_PORT.. (default 5653-5657); gateways on
# HROE_GW_PORTS.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/lib_partition.sh
. test/gateway/lib.sh
gw_clusters
STOPPED=()
resume() { local p; for p in "${STOPPED[@]}"; do kill -CONT "$p" 2>/dev/null; done; STOPPED=(); }
trap 'resume; GW_DB=; gw_cleanup; cluster_cleanup' EXIT
base=${HROE_CLUSTER_PORT:-5653}
db=hroe_stall

# stop NAME: SIGSTOP the cluster's postmaster and every backend of it
stop_cluster() {
	local pm p
	pm=$(head -1 "$(cluster_dir "$1")/data/postmaster.pid")
	for p in "$pm" $(pgrep -P "$pm"); do
		kill -STOP "$p" && STOPPED+=("$p")
	done
}
# probe URL KEY COUNT: dos_probe.py's line (answered, unanswered, non-200...)
probe() {
	python3 test/gateway/dos_probe.py "$1" "$2" "$3" --count "$4" --interval 0.2 --timeout 15 \
		--key "${5:-$GW_KEY}" --secret "${6:-$GW_SECRET}"
}
# fields of the probe's line: 2 sent 3 answered 4 unanswered 5 non-200 6 p50 7 p99 8 max
field() { cut -f"$1" <<<"$2"; }
# wait_log TEXT [TENTHS]: TEXT in the gateway's log within TENTHS / 10 s
# (default 10 s)
wait_log() {
	for _ in $(seq 1 "${2:-100}"); do grep -q "$1" "$GW_WORK/gateway.log" && return 0; sleep 0.1; done
	return 1
}

echo "-- a read replica that stops answering"
cluster_init primary "$base" || exit 1
cluster_start primary || exit 1
export PGHOST=$CLUSTER_WORK/primary PGPORT=$base PGUSER=postgres
gw_setup "$db" || exit 1
psql -XAtq -d "$db" -v ON_ERROR_STOP=1 >/dev/null <<-'SQL' || exit 1
	SET ROLE gw_app;
	SET search_path = gw_app;
	SELECT hroe.create_table('stall', 'PK', 'S');
	SELECT hroe.put_item('stall', '{"PK":{"S":"probe"},"v":{"S":"hello"}}');
SQL
cluster_standby standby $((base + 1)) primary || exit 1
# the standby logs every statement: the proof that it served the reads
echo "log_statement = 'all'" >>"$(cluster_dir standby)/data/postgresql.auto.conf"
cluster_psql standby -c "SELECT pg_reload_conf()" >/dev/null
replica="host=$CLUSTER_WORK/standby port=$((base + 1)) dbname=$db user=$GW_LOGIN password=$GW_LOGIN_PASSWORD"
gw_start "$db" --replica "$replica" --replica-max-lag 60000 --replica-check-interval 50 \
	--statement-timeout 1000 --pool-size 2 --threads 1 || exit 1
gw_env
# the reads go to the standby once the lag monitor has found it fresh: wait
# for that (a loaded machine may take more than a few seconds) rather than a
# fixed pause, else the reads below go to the primary
check "the standby serves eventually consistent reads" wait_log "replica 1 serves eventually consistent reads" 600
out=$(probe "$GW_URL" stall probe 5)
check "before the stop: 5 GetItems answered 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 5:0
check "the standby answered them" grep -q "execute hroe_call" "$(cluster_dir standby)/server.log"
calls() { grep -c "execute hroe_call" "$(cluster_dir standby)/server.log"; }
before=$(calls)
check "a key without grants: AccessDeniedException on the standby too" \
	has '^400 .*AccessDeniedException' raw GetItem '{"TableName": "stall", "Key": {"PK": {"S": "probe"}}}' --key "$GW_NOGRANT_KEY"
check "(that read ran on the standby)" test "$(calls)" -gt "$before"
stop_cluster standby
out=$(probe "$GW_URL" stall probe 4)
check "standby stopped: every GetItem answered 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 4:0
sleep 5
out=$(probe "$GW_URL" stall probe 10)
check "standby stopped, 5 s later: answered 200 at once, max < 1 s ($out)" \
	awk -v a="$(field 3 "$out")" -v n="$(field 5 "$out")" -v m="$(field 8 "$out")" \
	'BEGIN { exit !(a == 10 && n == 0 && m != "-" && m + 0 < 1000) }'
check "the gateway gave up the silent standby's connection" grep -q "sent nothing for" "$GW_WORK/gateway.log"
resume
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

echo "-- a partition server that stops answering"
pdb=hroe_stall_part
http_port=$(gw_free_port) || exit 1
WORKERS_URL=http://127.0.0.1:$http_port
cluster_init coord $((base + 2)) || exit 1
# the coordinator serves the in-server HTTP workers too (they connect once
# the database exists)
cluster_start coord -c hroe.http_port="$http_port" -c hroe.http_role=postgres -c hroe.http_database="$pdb" \
	-c hroe.http_workers=1 -c hroe.http_statement_timeout=1s || exit 1
cluster_init part1 $((base + 3)) || exit 1
cluster_start part1 || exit 1
cluster_init part2 $((base + 4)) || exit 1
cluster_start part2 || exit 1
partition_setup coord "$pdb" part1 part2 || exit 1
C() { cluster_psql coord -d "$pdb" "$@"; }
C -c "ALTER SERVER part1 OPTIONS (DROP connect_timeout)"
check "CreateTable refuses a partition server without connect_timeout" \
	expect_error 'foreign server "part1" must set connect_timeout' C -c "SELECT hroe.create_table('refused', 'PK', 'S')"
C -c "ALTER SERVER part1 OPTIONS (ADD connect_timeout '3')"
# a login role with its own schema, the metadata grants a gateway role has,
# USAGE on the servers (to create its own user mapping) and a mapping to the
# partition servers' superuser without a password: refused there
C -c "CREATE ROLE mallory LOGIN" -c "GRANT USAGE ON SCHEMA hroe TO mallory" \
	-c "CREATE SCHEMA mallory AUTHORIZATION mallory" \
	-c "GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes TO mallory" >/dev/null
check "a role without a user mapping creates no distributed table" \
	expect_error 'user mapping not found' C -c "SET ROLE mallory" -c "SELECT hroe.create_table('mtab', 'PK', 'S')"
C -c "GRANT USAGE ON FOREIGN SERVER part1, part2 TO mallory" >/dev/null
C -c "SET ROLE mallory" -c "CREATE USER MAPPING FOR mallory SERVER part1 OPTIONS (user 'postgres')" \
	-c "CREATE USER MAPPING FOR mallory SERVER part2 OPTIONS (user 'postgres')" >/dev/null
check "a role mapped to the partition servers' superuser without a password creates nothing there" \
	expect_error 'password is required' C -c "SET ROLE mallory" -c "SELECT hroe.create_table('mtab', 'PK', 'S')"
check "(no table mtab on part1 or the coordinator)" test "$(cluster_psql part1 -d "$pdb" -c "SELECT count(*) FROM pg_class WHERE relname = 'mtab'"):$(C -c "SELECT count(*) FROM pg_class WHERE relname = 'mtab'")" = 0:0
C -c "SELECT hroe.create_table('stt', 'PK', 'S')" >/dev/null || exit 1
C -c "SELECT hroe.put_item('stt', format('{\"PK\":{\"S\":\"k%s\"}}', i)::hroe.item) FROM generate_series(0, 19) i" >/dev/null
C -c "SELECT hroe.create_access_key('postgres', 'stallkey', 'stallsecret')" >/dev/null
key1=$(C -c 'SELECT item::text FROM "stt#0" LIMIT 1' | grep -o '"k[0-9]*"' | tr -d '"')
key2=$(C -c 'SELECT item::text FROM "stt#1" LIMIT 1' | grep -o '"k[0-9]*"' | tr -d '"')
[ -n "$key1" ] && [ -n "$key2" ] || { echo "FAIL no key on each server"; exit 1; }
port=$(gw_free_port) || exit 1
"$GW_BIN" --port "$port" --pool-size 2 --threads 1 --statement-timeout 1000 \
	--dbname "$(cluster_conninfo coord "$pdb")" 2>>"$GW_WORK/gateway.log" &
GW_PID=$!
GW_URL=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -s -o /dev/null "$GW_URL/" && break; sleep 0.1; done
# the gateway's backends connect to both servers (postgres_fdw keeps them)
out=$(probe "$GW_URL" stt "$key1" 4 stallkey stallsecret)
check "before the stop: a key of part1 answered 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 4:0
probe "$GW_URL" stt "$key2" 4 stallkey stallsecret >/dev/null
for _ in $(seq 1 100); do curl -s -o /dev/null "$WORKERS_URL/" && break; sleep 0.1; done
out=$(probe "$WORKERS_URL" stt "$key1" 4 stallkey stallsecret)
check "before the stop: the workers answer a key of part1 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 4:0
probe "$WORKERS_URL" stt "$key2" 4 stallkey stallsecret >/dev/null
# as a server registered before hroe required connect_timeout: nothing
# bounds postgres_fdw's connection but the gateway's own bound
C -c "ALTER SERVER part1 OPTIONS (DROP connect_timeout)"
stop_cluster part1
out=$(probe "$GW_URL" stt "$key1" 3 stallkey stallsecret)
check "part1 stopped: its key's GetItems answered (an error) within 15 s ($out)" test "$(field 4 "$out")" = 0
out=$(probe "$GW_URL" stt "$key2" 5 stallkey stallsecret)
check "part1 stopped: part2's key answered 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 5:0
C -c "ALTER SERVER part1 OPTIONS (ADD connect_timeout '3')"
# the in-server workers (one backend serving every connection): with
# connect_timeout, a key of the stopped server costs a request, not the
# worker: the worker's error path holds interrupts and drops the pending
# cancel of the statement timeout (which fired during postgres_fdw's blocking
# connect) before it aborts the request's transaction, as PostgresMain does;
# before, the worker exited and served nothing more for minutes
if [ "${HROE_STALL_WORKERS:-1}" = 1 ]; then
	out=$(probe "$WORKERS_URL" stt "$key1" 3 stallkey stallsecret)
	check "part1 stopped: the workers answer its key's GetItems (an error) within 15 s ($out)" test "$(field 4 "$out")" = 0
	out=$(probe "$WORKERS_URL" stt "$key2" 5 stallkey stallsecret)
	check "part1 stopped: the workers answer part2's key 200 ($out)" test "$(field 3 "$out"):$(field 5 "$out")" = 5:0
fi
check "part1 stopped: a new session's GetItem there fails within 20 s (connect_timeout, or hroe's own read path's statement_timeout)" \
	expect_error 'could not connect|timeout expired|canceling statement due to statement timeout' \
	timeout 20 "$CLUSTER_BIN/psql" -X -At -v ON_ERROR_STOP=1 -h "$CLUSTER_WORK/coord" -p $((base + 2)) -U postgres -d "$pdb" \
	-c "SET statement_timeout = '3s'" -c "SELECT hroe.get_item('stt', '{\"PK\":{\"S\":\"$key1\"}}')"
resume
exit $((GW_FAILURES > 0))
