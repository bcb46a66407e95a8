#!/usr/bin/env bash
# test/bench/api.sh: hroe.dynamodb against dynalite 4.0.0 on the same requests.
#
#   HROE_PGPORT=5510 bash test/bench/run.sh api
#
# Data: CUSTOMERS x 10 orders (about 120 bytes each) in a table (pk, sk
# strings), loaded into both.  Three requests, one client each, one request
# at a time, REPS runs of SECS seconds, alternating hroe and dynalite:
#   GetItem  one item by its full key (random customer and order)
#   Query    pk = :p on one customer: its 10 items
#   PutItem  overwrite one item with the same attributes (random key)
# hroe: pgbench, one client, prepared statement SELECT hroe.dynamodb(op,
# request), the request body built in SQL from the random key.  dynalite: a
# separate node process; its client (test/conformance/bench_dynalite.js) is
# another node process sending raw HTTP over one keep-alive connection.  The
# clients differ (pgbench's C client over libpq against node's HTTP client
# and dynalite's HTTP server); each is the ordinary way to talk to that
# server, and both figures include a client round trip.
# Each request runs in two scheduling modes (shared cores, and everything on
# one core; see below).
# Prints a Markdown table of median requests per second and the ratio; raw
# figures go to test/bench/out/api.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
REPS=${HROE_BENCH_REPS:-3}
SECS=${HROE_BENCH_SECS:-5}
DB=hroe_bench_api
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
OUT=test/bench/out/api.csv
WORK=$(mktemp -d)
CONF=test/conformance

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
[ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error)

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node $CONF/node_modules/dynalite/cli.js --port "$port" --host 127.0.0.1 --createTableMs 0 >"$WORK/dynalite.log" 2>&1 &
DYNALITE=$!
trap 'kill $DYNALITE 2>/dev/null; rm -rf "$WORK"' EXIT
for _ in $(seq 50); do
	(echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
	sleep 0.1
done

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}') ? 'TableDescription' AS created;
INSERT INTO bench (item)
SELECT jsonb_build_object(
	'pk', jsonb_build_object('S', 'CUST#' || c),
	'sk', jsonb_build_object('S', 'ORDER#' || lpad(o::text, 4, '0')),
	'status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (c + o) % 3]),
	'total', jsonb_build_object('N', (((c * 31 + o * 17) % 100000) / 100.0)::text),
	'note', jsonb_build_object('S', repeat('x', 60)))::hroe.item
FROM generate_series(1, :customers) c, generate_series(1, 10) o;
VACUUM ANALYZE bench;
SELECT hroe.dynamodb('Query', '{"TableName": "bench", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "CUST#1"}}}') -> 'Count' AS query_check;
SQL
node $CONF/bench_dynalite.js "$port" load "$CUSTOMERS"

cat >"$WORK/get.sql" <<PGB
\set c random(1, $CUSTOMERS)
\set o random(1, 10)
SELECT hroe.dynamodb('GetItem', format('{"TableName": "bench", "Key": {"pk": {"S": "CUST#%s"}, "sk": {"S": "ORDER#%s"}}}', :c::int, lpad(:o::text, 4, '0'))::jsonb);
PGB
# (pgbench takes every :name for a variable: the placeholder's colon is chr(58))
cat >"$WORK/query.sql" <<PGB
\set c random(1, $CUSTOMERS)
SELECT hroe.dynamodb('Query', format('{"TableName": "bench", "KeyConditionExpression": "pk = %1\$sp", "ExpressionAttributeValues": {"%1\$sp": {"S": "CUST#%2\$s"}}}', chr(58), :c::int)::jsonb);
PGB
cat >"$WORK/put.sql" <<PGB
\set c random(1, $CUSTOMERS)
\set o random(1, 10)
SELECT hroe.dynamodb('PutItem', format('{"TableName": "bench", "Item": {"pk": {"S": "CUST#%s"}, "sk": {"S": "ORDER#%s"}, "status": {"S": "%s"}, "total": {"N": "%s"}, "note": {"S": "%s"}}}', :c::int, lpad(:o::text, 4, '0'), (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (:c::int + :o::int) % 3], ((:c::int * 31 + :o::int * 17) % 100000) / 100.0, repeat('x', 60))::jsonb);
PGB

# the floor under a PutItem: the same row replaced by a plain SQL UPDATE on
# its key (no request parsing, no old item, no capacity), synchronous commit
cat >"$WORK/update.sql" <<PGB
\set c random(1, $CUSTOMERS)
\set o random(1, 10)
UPDATE bench SET item = format('{"pk": {"S": "CUST#%s"}, "sk": {"S": "ORDER#%s"}, "status": {"S": "%s"}, "total": {"N": "%s"}, "note": {"S": "%s"}}', :c::int, lpad(:o::text, 4, '0'), (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (:c::int + :o::int) % 3], ((:c::int * 31 + :o::int * 17) % 100000) / 100.0, repeat('x', 60))::hroe.item WHERE pk OPERATOR(hroe.=) ('CUST#' || :c::int)::hroe.key AND sk OPERATOR(hroe.=) ('ORDER#' || lpad(:o::text, 4, '0'))::hroe.key;
PGB

# each request must succeed on hroe before anything is timed (an error body
# would be a fast, wrong answer)
psql -X -At -d "$DB" -c "SELECT hroe.dynamodb('GetItem', '{\"TableName\": \"bench\", \"Key\": {\"pk\": {\"S\": \"CUST#7\"}, \"sk\": {\"S\": \"ORDER#0003\"}}}') ? 'Item'" | grep -qx t
psql -X -At -d "$DB" -c "SELECT hroe.dynamodb('Query', '{\"TableName\": \"bench\", \"KeyConditionExpression\": \"pk = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"CUST#7\"}}}') -> 'Count'" | grep -qx 10
for op in get query put; do
	"$PGBENCH" -n -c 1 -t 20 -M prepared -f "$WORK/$op.sql" "$DB" >/dev/null
	# same statement once more, checked: no __type in the response
	psql -X -At -d "$DB" -v c=7 -v o=3 -f <(sed -e '/^\\set/d' "$WORK/$op.sql" | sed 's/;$/ ? '"'"'__type'"'"';/') | grep -qx f
done

# the floor updates exactly one row
psql -X -d "$DB" -v c=7 -v o=3 -f <(sed -e '/^\\set/d' "$WORK/update.sql") | grep -qx 'UPDATE 1'

# put_async: PutItem again, with synchronous_commit off on the hroe side.
# Neither side waits for a disk here: dynalite keeps its data in memory, and
# the throwaway cluster runs with fsync = off (pg_virtualenv's default), so a
# synchronous commit waits for the WAL write() only, not for an fsync (which
# takes about 3 ms on this VM's disk: pg_test_fsync).
#
# Two scheduling modes, each system treated alike:
#   shared   the kernel places server and client on any core
#   onecore  server (postmaster and every child, or dynalite's node process
#            and its threads) and client pinned together on one core
# With one client, a request is a ping-pong between two processes; on this
# virtual machine a core that sleeps between requests wakes slowly (tens of
# microseconds per wakeup: SELECT 1 through pgbench takes about 3x longer
# with an idle second core than when both processes share one), and that
# wakeup, not either server's work, then dominates a fast request.  onecore
# gives each system, client included, one core and no cross-core wakeups.
ALL_CPUS=0-$(($(nproc) - 1))
PIN_CPU=$(($(nproc) - 1))
PGDATA_DIR=$(psql -X -At -d postgres -c "SHOW data_directory")
POSTMASTER=$(head -1 "$PGDATA_DIR/postmaster.pid")
# pin PROCESS-AND-CHILDREN CPUS: a process, its threads and its children
pin() {
	local p
	for p in "$1" $(pgrep -P "$1" || true); do
		taskset -a -p -c "$2" "$p" >/dev/null 2>&1 || true
	done
}
modes="shared onecore"
[ "$(nproc)" -gt 1 ] || modes="shared"
echo "mode,operation,rep,system,rps" >"$OUT"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for mode in $modes; do
	if [ "$mode" = onecore ]; then
		cpus=$PIN_CPU
	else
		cpus=$ALL_CPUS
	fi
	pin "$POSTMASTER" "$cpus"
	pin "$DYNALITE" "$cpus"
	for op in get query put put_async update; do
		for rep in $(seq "$REPS"); do
			opts=""
			[ "$op" = put_async ] && opts="-c synchronous_commit=off"
			h=$(PGOPTIONS="$opts" taskset -c "$cpus" "$PGBENCH" -n -c 1 -T "$SECS" -M prepared -f "$WORK/${op%_async}.sql" "$DB" 2>/dev/null |
				sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
			echo "$mode,$op,$rep,hroe,$h" >>"$OUT"
			# (the SQL UPDATE floor has no dynalite counterpart)
			[ "$op" = update ] && continue
			d=$(taskset -c "$cpus" node $CONF/bench_dynalite.js "$port" "${op%_async}" "$CUSTOMERS" "$SECS")
			echo "$mode,$op,$rep,dynalite,$d" >>"$OUT"
		done
	done
done
pin "$POSTMASTER" "$ALL_CPUS"

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$OUT" "$CUSTOMERS" "$REPS" "$SECS" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
names = {"get": "GetItem (one item)", "query": "Query (10 items)", "put": "PutItem (overwrite), synchronous_commit on",
         "put_async": "PutItem (overwrite), synchronous_commit off",
         "update": "floor: plain SQL UPDATE of that row, synchronous_commit on"}
modes = [m for m in ("shared", "onecore") if any(r["mode"] == m for r in rows)]
def med(mode, op, system):
    v = [float(r["rps"]) for r in rows if (r["mode"], r["operation"], r["system"]) == (mode, op, system)]
    return statistics.median(v) if v else None
print(f"\n{int(sys.argv[2]) * 10} items; one client each; median of {sys.argv[3]} runs of {sys.argv[4]} s; req/s\n")
head = "| request |" + "".join(f" hroe ({m}) | dynalite ({m}) | ratio ({m}) |" for m in modes)
print(head)
print("|---|" + "---:|---:|---:|" * len(modes))
for op in ["get", "query", "put", "put_async", "update"]:
    cells = []
    for m in modes:
        h, d = med(m, op, "hroe"), med(m, op, "dynalite")
        cells += [f"{h:,.0f}", f"{d:,.0f}" if d else "", f"{h / d:.1f}x" if d else ""]
    print(f"| {names[op]} | " + " | ".join(cells) + " |")
PY
psql -X -q -d postgres -c "DROP DATABASE $DB"
echo
echo "load average (1, 5, 15 min) before the timed runs: $load_before; after: $load_after ($(nproc) cores)"
