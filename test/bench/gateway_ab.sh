#!/usr/bin/env bash
# test/bench/gateway_ab.sh: two hroe-gateway binaries side by side against
# one database, cells interleaved, and the CPU time each spends per request.
#
#   HROE_AB_A=/tmp/old/hroe-gateway HROE_PGPORT=5661 bash test/bench/run.sh gateway_ab
#
# A is HROE_AB_A (default: this tree's gateway/hroe-gateway, then the
# run compares the binary with itself, which shows the noise), B is
# HROE_AB_B (default: this tree's).  Both run with the same options
# (HROE_AB_OPTS, words; default the benchmark's: --pool-size 8 --access-log "") on
# HROE_BENCH_PORT_BASE and the next port (default free ones), against the
# data of test/bench/gateway.sh (HROE_BENCH_CUSTOMERS x 10 orders).
# For each request (HROE_AB_OPS, default GetItem Query PutItem UpdateItem),
# each number of connections (HROE_AB_CONNS, default 1 8 32) and each of
# HROE_AB_ROUNDS rounds (default 2), wrk replays the pre-signed requests of
# gateway.sh for HROE_BENCH_SECS seconds (default 5; after a 1-second
# warm-up) against A and B, their order alternating from round to round, so
# that the load of a shared machine falls on both alike.  HROE_AB_LOADGEN=
# http_load replays them with test/bench/http_load.c instead of wrk (exact
# latencies, no Lua).  Per cell: req/s,
# p50 and p99 (ms), and the gateway's CPU time (user + system, from
# /proc/PID/stat) per request served in microseconds, which depends much
# less on the machine's load than req/s does; and the load generator's own
# CPU time per request (is it the bottleneck?).  Prints a Markdown table
# with the medians over the rounds and the ratio B / A of req/s and of CPU
# per request.
set -euo pipefail
cd "$(dirname "$0")/../.."
CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
SECS=${HROE_BENCH_SECS:-5}
ROUNDS=${HROE_AB_ROUNDS:-2}
OPS=${HROE_AB_OPS:-GetItem Query PutItem UpdateItem}
CONNS=${HROE_AB_CONNS:-1 8 32}
BIN_A=${HROE_AB_A:-gateway/hroe-gateway}
BIN_B=${HROE_AB_B:-gateway/hroe-gateway}
LOADGEN=${HROE_AB_LOADGEN:-wrk}
OPTS=(--pool-size 8 --access-log "")
[ -z "${HROE_AB_OPTS:-}" ] || read -r -a OPTS <<<"$HROE_AB_OPTS"
DB=hroe_bench_gateway_ab
WORK=$(mktemp -d)
TICK=$(getconf CLK_TCK)
command -v wrk >/dev/null || apt-get install -y -qq wrk >/dev/null
PIDS=
trap 'kill $PIDS 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
gcc -O2 -Wall -Wextra -Werror -o "$WORK/http_load" test/bench/http_load.c

free() {
	if [ -n "${HROE_BENCH_PORT_BASE:-}" ]; then echo $((HROE_BENCH_PORT_BASE + $1)); return; fi
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" -f test/bench/api_data.sql >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -c "SELECT hroe.create_access_key(current_user::regrole, 'benchkey', 'benchsecret')" >/dev/null

declare -A PORT PID
for side in A B; do
	bin_var=BIN_$side
	PORT[$side]=$(free $([ $side = A ] && echo 0 || echo 1))
	"${!bin_var}" --port "${PORT[$side]}" "${OPTS[@]}" \
		--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=$DB" 2>"$WORK/gateway_$side.log" &
	PID[$side]=$!
	PIDS="$PIDS $!"
	for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:${PORT[$side]}/" && break; sleep 0.1; done
	mkdir -p "$WORK/$side"
	python3 test/bench/gateway_requests.py "127.0.0.1:${PORT[$side]}" benchkey benchsecret "$CUSTOMERS" "$WORK/$side"
done

# CPU ticks (user + system) of a process so far
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# cell SIDE OP CONNECTIONS: "req/s p50 p99 gateway-us/request loadgen-us/request"
cell() {
	local before after out wrk_cpu
	wrk_load() {
		REQUESTS=$WORK/$1/$2.tsv HOSTPORT=127.0.0.1:${PORT[$1]} \
			/usr/bin/time -f 'TIME %U %S' wrk -t "$([ "$3" -lt 2 ] && echo 1 || echo 2)" \
			-c "$3" -d "$4s" -s test/bench/gateway.lua "http://127.0.0.1:${PORT[$1]}/" 2>&1
	}
	http_load() {
		/usr/bin/time -f 'TIME %U %S' "$WORK/http_load" 127.0.0.1 "${PORT[$1]}" "$3" 0 "$4" "$WORK/$1/$2.tsv" 2>&1
	}
	load=wrk_load
	[ "$LOADGEN" = wrk ] || load=http_load
	$load "$1" "$2" "$3" 1 >/dev/null
	# the warm-up's last requests, abandoned in the pool's queue, still run:
	# let them drain, or they crowd the cell's first ones out (throttled)
	sleep 0.5
	before=$(ticks "${PID[$1]}")
	out=$($load "$1" "$2" "$3" "$SECS")
	after=$(ticks "${PID[$1]}")
	echo "$out" | grep -q '^RESULT [0-9.]* [0-9.]* [0-9.]* 0 ' ||
		{ echo "$1 $2: not every answer was 200: $out; the gateway's log:" >&2; tail -20 "$WORK/gateway_$1.log" >&2; exit 1; }
	wrk_cpu=$(echo "$out" | awk '/^TIME/ {print $2 + $3}')
	# a closed loop: the mean latency must be about connections / req/s
	# (Little's law); wrk 4.1 sometimes records latencies far above what
	# the run allows, which then shows in its p99
	echo "$out" | awk -v c="$3" -v who="$1 $2 $3" '/^RESULT/ && $6 > 1.5 * c / $2 * 1000 {
		printf "%s: mean latency %.2f ms, connections / req/s %.2f ms\n", who, $6, c / $2 * 1000 > "/dev/stderr"}'
	echo "$out" | awk -v cpu=$((after - before)) -v tick="$TICK" -v wrk="$wrk_cpu" -v secs="$SECS" '
		/^RESULT/ {n = $2 * secs; printf "%s %s %s %.1f %.1f\n", $2, $3, $4, cpu / tick / n * 1e6, wrk / n * 1e6}'
}

median() { tr ' ' '\n' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "A: $BIN_A; B: $BIN_B; options: ${OPTS[*]}; $ROUNDS rounds of ${SECS} s, medians"
echo
echo "| request | conn. | A req/s | B req/s | B / A | A p50 | B p50 | A p99 | B p99 | A CPU µs/req | B CPU µs/req | B / A | load generator µs/req (A, B) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for op in $OPS; do
	for c in $CONNS; do
		declare -A R=()
		for round in $(seq "$ROUNDS"); do
			order="A B"
			[ $((round % 2)) = 0 ] && order="B A"
			for side in $order; do
				out=$(cell $side "$op" "$c") || exit 1
				read -r rps p50 p99 cpu wcpu <<<"$out"
				R[$side.rps]="${R[$side.rps]:-} $rps"
				R[$side.p50]="${R[$side.p50]:-} $p50"
				R[$side.p99]="${R[$side.p99]:-} $p99"
				R[$side.cpu]="${R[$side.cpu]:-} $cpu"
				R[$side.wrk]="${R[$side.wrk]:-} $wcpu"
			done
		done
		declare -A M=()
		for k in "${!R[@]}"; do M[$k]=$(echo ${R[$k]} | median); done
		printf '| %s | %s | %.0f | %.0f | %.2f | %s | %s | %s | %s | %.1f | %.1f | %.2f | %.1f, %.1f |\n' \
			"$op" "$c" "${M[A.rps]}" "${M[B.rps]}" "$(echo "${M[B.rps]} / ${M[A.rps]}" | bc -l)" \
			"${M[A.p50]}" "${M[B.p50]}" "${M[A.p99]}" "${M[B.p99]}" "${M[A.cpu]}" "${M[B.cpu]}" \
			"$(echo "${M[B.cpu]} / ${M[A.cpu]}" | bc -l)" "${M[A.wrk]}" "${M[B.wrk]}"
		unset R M
	done
done
