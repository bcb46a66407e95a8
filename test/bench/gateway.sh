#!/usr/bin/env bash
# test/bench/gateway.sh: hroe-gateway against dynalite 4.0.0 over HTTP, and
# the gateway's cost over libpq.
#
#   HROE_PGPORT=5661 make bench BENCH=gateway
#
# Data: test/bench/api_data.sql, as test/bench/api.sh (CUSTOMERS x 10 orders
# in a table "bench", loaded into hroe and into dynalite).  wrk replays pre-signed requests
# (test/bench/gateway_requests.py, test/bench/gateway.lua) over keep-alive
# connections for SECS seconds at 1, 8 and 32 connections:
#   GetItem     one item by its full key
#   Query       pk = :p: the customer's 10 items
#   PutItem     overwrite one item
#   UpdateItem  ADD hits :one
# Both servers get byte-identical requests (dynalite does not check
# signatures; the gateway verifies every one).  The gateway runs with a pool
# of 8 connections.  "libpq" is the same GetItem body through
# test/bench/api_client.c (one connection, prepared hroe.dynamodb call), the
# floor under the gateway's single-connection figure.
# Prints a Markdown table: requests per second, p50 and p99 latency (ms).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out
CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
SECS=${HROE_BENCH_SECS:-5}
DB=hroe_bench_gateway
CONF=test/conformance
WORK=$(mktemp -d)
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
[ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error)

free() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
dport=$(free)
node $CONF/node_modules/dynalite/cli.js --port "$dport" --host 127.0.0.1 --createTableMs 0 >"$WORK/dynalite.log" 2>&1 &
DYNALITE=$!
GATEWAY=
trap 'kill $DYNALITE $GATEWAY 2>/dev/null; rm -rf "$WORK"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" -f test/bench/api_data.sql
# the benchmark's key: the superuser's role (the role switch is still made)
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -c "SELECT hroe.create_access_key(current_user::regrole, 'benchkey', 'benchsecret')"
for _ in $(seq 50); do (echo >/dev/tcp/127.0.0.1/$dport) 2>/dev/null && break; sleep 0.1; done
node $CONF/bench_dynalite.js "$dport" load "$CUSTOMERS" >/dev/null

gport=$(free)
gateway/hroe-gateway --port "$gport" --pool-size 8 --access-log "" \
	--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=$DB" 2>"$WORK/gateway.log" &
GATEWAY=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$gport/" && break; sleep 0.1; done

echo "| request | connections | hroe-gateway req/s | p50 ms | p99 ms | dynalite req/s | p50 ms | p99 ms |"
echo "|---|---|---|---|---|---|---|---|"
for op in GetItem Query PutItem UpdateItem; do
	for server in gateway dynalite; do
		port=$([ $server = gateway ] && echo "$gport" || echo "$dport")
		mkdir -p "$WORK/$server"
		python3 test/bench/gateway_requests.py "127.0.0.1:$port" benchkey benchsecret "$CUSTOMERS" "$WORK/$server"
	done
	for c in 1 8 32; do
		row="| $op | $c |"
		for server in gateway dynalite; do
			port=$([ $server = gateway ] && echo "$gport" || echo "$dport")
			r=$(REQUESTS=$WORK/$server/$op.tsv HOSTPORT=127.0.0.1:$port wrk -t "$([ $c -lt 2 ] && echo 1 || echo 2)" \
				-c "$c" -d "${SECS}s" -s test/bench/gateway.lua "http://127.0.0.1:$port/" | grep '^RESULT')
			read -r _ rps p50 p99 errs <<<"$r"
			# a figure of error answers is no figure (the pre-signed requests expire
			# after 15 minutes, for one)
			[ "$errs" = 0 ] || { echo "$server $op: $errs responses were not 200" >&2; exit 1; }
			row="$row $rps | $p50 | $p99 |"
		done
		echo "$row"
	done
done

# the same GetItem without HTTP: libpq, one connection (api_client.c)
gcc -O2 -Wall -Wextra -Werror -I"$(pg_config --includedir)" -o "$WORK/api_client" test/bench/api_client.c \
	-L"$(pg_config --libdir)" -lpq
echo
echo "GetItem over libpq (test/bench/api_client.c, 1 connection): $("$WORK/api_client" "dbname=$DB" get "$CUSTOMERS" "$SECS" 2>/dev/null || echo n/a) req/s"
