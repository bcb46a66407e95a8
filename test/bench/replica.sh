#!/usr/bin/env bash
# test/bench/replica.sh: read throughput through hroe-gateway with and
# without a hot standby answering the eventually consistent reads
# (doc/replicas.md).
#
#   HROE_PGPORT=5661 bash test/bench/run.sh replica
#   (HROE_BENCH_SECS seconds a cell, default 5; HROE_BENCH_CUSTOMERS, default
#   2000; HROE_BENCH_PORT_BASE: the two gateways on that port and the next,
#   default free ones; HROE_CLUSTER_PORT: the clusters' socket numbers,
#   default 5814 and 5815)
#
# A primary and a streaming hot standby on this machine (test/lib_cluster.sh,
# 256 MB shared_buffers each, jit off), the data of test/bench/api_data.sql
# (CUSTOMERS x 10 orders in a table "bench") loaded into the primary.  Two
# gateways, both with a pool of 8 and the access log off: one with the
# primary alone, one with the standby as --replica.  wrk replays pre-signed
# eventually consistent GetItem (one item by its key) and Query (a
# customer's 10 items) requests (test/bench/gateway_requests.py,
# test/bench/gateway.lua) over keep-alive connections for SECS seconds at 8,
# 32 and 64 connections, after a 1-second unmeasured warm-up, each gateway
# in turn.  The standby's share of the calls is counted from its
# pg_stat_database (transactions committed during the cell, less the
# monitor's ten a second; 11-second pauses let the statistics arrive).  Prints a Markdown table.  On a machine with few cores, the
# standby competes with the primary and the gateway for the same ones.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib_cluster.sh
CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
SECS=${HROE_BENCH_SECS:-5}
base=${HROE_CLUSTER_PORT:-5814}
DB=hroe_bench_replica
WORK=$(mktemp -d)
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
cluster_setup
PIDS=
trap 'kill $PIDS 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"; cluster_cleanup' EXIT

free() {
	if [ -n "${HROE_BENCH_PORT_BASE:-}" ]; then echo $((HROE_BENCH_PORT_BASE + $1)); return; fi
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

opts=(-c shared_buffers=256MB -c jit=off)
cluster_init primary "$base"
cluster_start primary "${opts[@]}"
# the standby first (a base backup of an empty cluster is quick), the data
# reaches it by streaming
cluster_standby standby $((base + 1)) primary
cluster_stop standby
cluster_start standby "${opts[@]}"
cluster_psql primary -d postgres -c "CREATE DATABASE $DB"
cluster_psql primary -d "$DB" -v customers="$CUSTOMERS" -f test/bench/api_data.sql >/dev/null
cluster_psql primary -d "$DB" -c "SELECT hroe.create_access_key(current_user::regrole, 'benchkey', 'benchsecret')" >/dev/null
primary_ci="$(cluster_conninfo primary "$DB")"
standby_ci="$(cluster_conninfo standby "$DB")"

port_alone=$(free 0)
gateway/hroe-gateway --port "$port_alone" --pool-size 8 --access-log "" --dbname "$primary_ci" \
	2>"$WORK/alone.log" &
PIDS="$PIDS $!"
port_replica=$(free 1)
gateway/hroe-gateway --port "$port_replica" --pool-size 8 --access-log "" --dbname "$primary_ci" \
	--replica "$standby_ci" 2>"$WORK/replica.log" &
PIDS="$PIDS $!"
for port in "$port_alone" "$port_replica"; do
	for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
done
for _ in $(seq 100); do grep -q "replica 1 serves" "$WORK/replica.log" && break; sleep 0.1; done
grep -q "replica 1 serves" "$WORK/replica.log" || { echo "the standby never became fresh" >&2; cat "$WORK/replica.log" >&2; exit 1; }
for g in alone replica; do
	port_var=port_$g
	mkdir -p "$WORK/$g"
	python3 test/bench/gateway_requests.py "127.0.0.1:${!port_var}" benchkey benchsecret "$CUSTOMERS" "$WORK/$g"
done

# wrk CONNECTIONS SECONDS GATEWAY OP: "req/s p50 p99 non-200-answers"
load() {
	local port_var=port_$3
	REQUESTS=$WORK/$3/$4.tsv HOSTPORT=127.0.0.1:${!port_var} wrk -t "$([ "$1" -lt 2 ] && echo 1 || echo 2)" \
		-c "$1" -d "$2s" -s test/bench/gateway.lua "http://127.0.0.1:${!port_var}/" | grep '^RESULT' | cut -d' ' -f2-
}
commits() { cluster_psql standby -d "$DB" -c "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"; }

echo "| request | connections | primary alone req/s | p50 ms | p99 ms | non-200 | with the standby req/s | p50 ms | p99 ms | non-200 | ratio | standby's share |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for op in GetItem Query; do
	for c in 8 32 64; do
		row="| $op | $c |"
		for g in alone replica; do
			load "$c" 1 "$g" "$op" >/dev/null
			if [ $g = replica ]; then
				# an idle backend's statistics reach pg_stat_database within 10 s
				sleep 11
				before=$(commits)
				t0=$(date +%s.%N)
			fi
			read -r rps p50 p99 errs _ <<<"$(load "$c" "$SECS" "$g" "$op")"
			# non-200 answers (ThrottlingException when the queue waits past 1 s
			# on a loaded machine) are counted, not hidden
			row="$row $rps | $p50 | $p99 | $errs |"
			[ $g = alone ] && mine=$rps
		done
		sleep 11
		after=$(commits)
		t1=$(date +%s.%N)
		# less the monitor's own transactions (10 a second)
		share=$(python3 -c "print('%.0f%%' % min(100, 100 * max(0, $after - $before - ($t1 - $t0) * 10) / ($rps * $SECS)))")
		echo "$row $(python3 -c "print('%.2f' % ($rps / $mine))") | $share |"
	done
done
echo
echo "($(nproc) cores; primary, standby, both gateways and wrk on this machine)"
grep -hv "listening on\|serves eventually" "$WORK/alone.log" "$WORK/replica.log" | cut -d" " -f2- | sort | uniq -c | sort -rn | head -5
