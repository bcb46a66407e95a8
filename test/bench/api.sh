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
# The two clients do the same work: each is a small program over one
# connection that draws the random key, builds the request's JSON body
# itself, sends it, waits for the response and checks it (no "__type";
# Query: Count 10; GetItem: an Item), and prints requests per second.
#   hroe      test/bench/api_client.c (C, libpq, compiled here): a statement
#             prepared once, SELECT hroe.dynamodb($1::text, $2::jsonb), text
#             parameters and results over the extended protocol
#   dynalite  test/conformance/bench_dynalite.js (node): raw HTTP over one
#             keep-alive connection (no SDK, no signing) to dynalite's own
#             node process
# Both send byte for byte the same bodies (JSON.stringify's compact form; the
# item's total as JavaScript prints it, 12.3 not 12.30).  The transports
# differ (libpq against HTTP), each being the ordinary way to reach that
# server; both figures include a client round trip.
# More hroe rows, no dynalite counterpart: the floor under a PutItem (the
# same item written by a plain SQL UPDATE of its row, through api_client),
# the ceiling of any request (a prepared SELECT 1 through api_client: the
# client, the protocol and the scheduling, with no work in the server),
# and GetItem and PutItem through the benchmark's earlier client, pgbench
# with the request body built in SQL by format() on the server (about 6 us
# of server CPU a PutItem), for comparison with the earlier figures.
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
# (postgresql-server-dev-15 brings libpq-dev; installed here if it is not)
if ! dpkg-query -W -f='${Status}' libpq-dev 2>/dev/null | grep -q "install ok installed"; then
	apt-get update -qq && apt-get install -y -qq libpq-dev >/dev/null
fi
[ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error)

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
node $CONF/node_modules/dynalite/cli.js --port "$port" --host 127.0.0.1 --createTableMs 0 >"$WORK/dynalite.log" 2>&1 &
DYNALITE=$!
trap 'kill $DYNALITE 2>/dev/null; rm -rf "$WORK"' EXIT
CLIENT=$WORK/api_client
gcc -O2 -Wall -Wextra -Werror -I"$(pg_config --includedir)" -o "$CLIENT" test/bench/api_client.c -L"$(pg_config --libdir)" -lpq
for _ in $(seq 50); do
	(echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null && break
	sleep 0.1
done

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" -f test/bench/api_data.sql
node $CONF/bench_dynalite.js "$port" load "$CUSTOMERS"

# the earlier client, for comparison: pgbench, the request body built in SQL
cat >"$WORK/get.sql" <<PGB
\set c random(1, $CUSTOMERS)
\set o random(1, 10)
SELECT hroe.dynamodb('GetItem', format('{"TableName": "bench", "Key": {"pk": {"S": "CUST#%s"}, "sk": {"S": "ORDER#%s"}}}', :c::int, lpad(:o::text, 4, '0'))::jsonb);
PGB
cat >"$WORK/put.sql" <<PGB
\set c random(1, $CUSTOMERS)
\set o random(1, 10)
SELECT hroe.dynamodb('PutItem', format('{"TableName": "bench", "Item": {"pk": {"S": "CUST#%s"}, "sk": {"S": "ORDER#%s"}, "status": {"S": "%s"}, "total": {"N": "%s"}, "note": {"S": "%s"}}}', :c::int, lpad(:o::text, 4, '0'), (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (:c::int + :o::int) % 3], ((:c::int * 31 + :o::int * 17) % 100000) / 100.0, repeat('x', 60))::jsonb);
PGB

# each request must succeed on hroe before anything is timed (an error body
# would be a fast, wrong answer)
psql -X -At -d "$DB" -c "SELECT hroe.dynamodb('GetItem', '{\"TableName\": \"bench\", \"Key\": {\"pk\": {\"S\": \"CUST#7\"}, \"sk\": {\"S\": \"ORDER#0003\"}}}') ? 'Item'" | grep -qx t
psql -X -At -d "$DB" -c "SELECT hroe.dynamodb('Query', '{\"TableName\": \"bench\", \"KeyConditionExpression\": \"pk = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"CUST#7\"}}}') -> 'Count'" | grep -qx 10
# api_client checks every response (and the floor's UPDATE 1) and exits
# non-zero on the first wrong one
for op in get query put update ping; do
	"$CLIENT" "dbname=$DB" "$op" "$CUSTOMERS" 0.2 >/dev/null
done
for op in get put; do
	"$PGBENCH" -n -c 1 -t 20 -M prepared -f "$WORK/$op.sql" "$DB" >/dev/null
	# same statement once more, checked: no __type in the response
	psql -X -At -d "$DB" -v c=7 -v o=3 -f <(sed -e '/^\\set/d' "$WORK/$op.sql" | sed 's/;$/ ? '"'"'__type'"'"';/') | grep -qx f
done

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
	for op in get query put put_async update ping pgbench_get pgbench_put; do
		for rep in $(seq "$REPS"); do
			opts=""
			[ "$op" = put_async ] && opts="-c synchronous_commit=off"
			case $op in
			pgbench_*)
				h=$(taskset -c "$cpus" "$PGBENCH" -n -c 1 -T "$SECS" -M prepared -f "$WORK/${op#pgbench_}.sql" "$DB" 2>/dev/null |
					sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
				;;
			*)
				h=$(PGOPTIONS="$opts" taskset -c "$cpus" "$CLIENT" "dbname=$DB" "${op%_async}" "$CUSTOMERS" "$SECS")
				;;
			esac
			[ -n "$h" ] || { echo "api.sh: no figure for $mode $op" >&2; exit 1; }
			echo "$mode,$op,$rep,hroe,$h" >>"$OUT"
			# (the SQL UPDATE floor, SELECT 1 and the pgbench rows have no
			# dynalite counterpart)
			case $op in update | ping | pgbench_*) continue ;; esac
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
         "update": "floor: plain SQL UPDATE of that row, synchronous_commit on",
         "ping": "ceiling: SELECT 1 through the same client (ratio to dynalite's GetItem)",
         "pgbench_get": "earlier client: GetItem through pgbench, body built in SQL (ratio to dynalite's GetItem)",
         "pgbench_put": "earlier client: PutItem through pgbench, body built in SQL (ratio to dynalite's PutItem)"}
modes = [m for m in ("shared", "onecore") if any(r["mode"] == m for r in rows)]
def med(mode, op, system):
    v = [float(r["rps"]) for r in rows if (r["mode"], r["operation"], r["system"]) == (mode, op, system)]
    return statistics.median(v) if v else None
print(f"\n{int(sys.argv[2]) * 10} items; one client each; median of {sys.argv[3]} runs of {sys.argv[4]} s; req/s\n")
head = "| request |" + "".join(f" hroe ({m}) | dynalite ({m}) | ratio ({m}) |" for m in modes)
print(head)
print("|---|" + "---:|---:|---:|" * len(modes))
for op in ["get", "query", "put", "put_async", "update", "ping", "pgbench_get", "pgbench_put"]:
    cells = []
    for m in modes:
        h, d = med(m, op, "hroe"), med(m, op, "dynalite")
        if op.startswith("pgbench_") or op == "ping":
            d0 = med(m, "get" if op == "ping" else op[len("pgbench_"):], "dynalite")
            cells += [f"{h:,.0f}", "", f"{h / d0:.1f}x"]
            continue
        cells += [f"{h:,.0f}", f"{d:,.0f}" if d else "", f"{h / d:.1f}x" if d else ""]
    print(f"| {names[op]} | " + " | ".join(cells) + " |")
PY
psql -X -q -d postgres -c "DROP DATABASE $DB"
echo
echo "load average (1, 5, 15 min) before the timed runs: $load_before; after: $load_after ($(nproc) cores)"
