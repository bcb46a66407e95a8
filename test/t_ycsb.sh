#!/usr/bin/env bash
# test/t_ycsb.sh: the YCSB benchmark's harness (test/bench/ycsb.sh and its
# load generator test/bench/ycsb.c) works, run tiny: 1,000 records, cells of
# half a second, hroe-gateway and dynalite, closed loops at 1 and 8
# connections and the open loop, every workload A-F.  Checked:
# - every answer of every workload is HTTP 200, no read finds a loaded or
#   acknowledged record missing, every update and insert is visible to the
#   re-read that follows it (1-connection cells), and each table holds the
#   records loaded and inserted (ycsb.sh exits non-zero otherwise);
# - both tables are printed whole: a row per workload and concurrency, every
#   figure a number, the ratios present; workloads D and E inserted records;
# - the counters can fail: reading records that were never loaded counts
#   read misses, and a wrong secret makes hroe answer something other than
#   200, counted as such.
# Asserts nothing about speed.  Ports from HROE_GW_PORTS (default 8000-8099).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
work=$(mktemp -d)
pids=
trap 'kill $pids 2>/dev/null; rm -rf "$work"; dropdb --if-exists hroe_t_ycsb 2>/dev/null' EXIT
failures=0
ok() { echo "ok   $1"; }
fail() {
	echo "FAIL $1"
	[ -n "${2:-}" ] && sed 's/^/    /' "$2" | tail -30
	failures=$((failures + 1))
}

# three free ports in a row within HROE_GW_PORTS
range=${HROE_GW_PORTS:-8000-8099}
lo=${range%-*} hi=${range#*-}
base=
for _ in $(seq 50); do
	p=$((lo + RANDOM % (hi - lo - 1)))
	busy=
	for q in $p $((p + 1)) $((p + 2)); do
		ss -Hltn "sport = :$q" 2>/dev/null | grep -q . && busy=1
	done
	[ -z "$busy" ] && { base=$p; break; }
done
[ -n "$base" ] || { echo "FAIL no three free ports in $range"; exit 1; }

if HROE_BENCH_RECORDS=1000 HROE_BENCH_SECS=0.5 HROE_BENCH_WARMUP=0.2 HROE_BENCH_SERVERS="gateway dynalite" \
	HROE_BENCH_CONNECTIONS="1 8" HROE_BENCH_OPEN_CONNECTIONS=8 HROE_BENCH_VERIFY=1 \
	HROE_BENCH_PORT_BASE=$base HROE_BENCH_CSV=$work/ycsb.csv bash test/bench/ycsb.sh >"$work/out" 2>&1; then
	ok "ycsb.sh: every answer 200, no read miss, no stale re-read, tables hold what was loaded and inserted"
else
	fail "ycsb.sh failed" "$work/out"
fi
[ -f "$work/ycsb.csv" ] || : >"$work/ycsb.csv"

num='[0-9]+(\.[0-9]+)?'
closed=$(grep -cE "^\| [A-F] \| (1|8) \|( $num \|){6} $num""x \|$" "$work/out")
[ "$closed" = 12 ] && ok "closed-loop table: 6 workloads x 2 concurrencies, every cell a figure" ||
	fail "closed-loop table: $closed complete rows, not 12" "$work/out"
open=$(grep -cE "^\| [A-F] \| [0-9]+ \|( $num( \(overloaded\))? \|){6} $num \(dynalite\) \|$" "$work/out")
[ "$open" = 6 ] && ok "open-loop table: 6 workloads, p50/p99/p99.9 for both servers" ||
	fail "open-loop table: $open complete rows, not 6" "$work/out"
loads=$(grep -cE "^\| (hroe \(through hroe-gateway\)|dynalite) \| $num \| $num \|$" "$work/out")
[ "$loads" = 2 ] && ok "load table: both servers' load rates" || fail "load table: $loads rows, not 2" "$work/out"
grep -q "^hroe-gateway: [0-9]* items, as loaded and inserted" "$work/out" &&
	grep -q "^dynalite: [0-9]* items, as loaded and inserted" "$work/out" &&
	ok "both tables counted after the run" || fail "the tables were not counted" "$work/out"
# phase,workload,connections,server,ops,p50,p99,p999,max,not200,misses,stale,inserted,...
bad=$(awk -F, '$1 != "phase" && $1 != "load" && ($10 != 0 || $11 != 0 || $12 != 0)' "$work/ycsb.csv" | wc -l)
cells=$(awk -F, '$1 == "closed" || $1 == "open"' "$work/ycsb.csv" | wc -l)
[ "$cells" = 36 ] && [ "$bad" = 0 ] && ok "36 cells recorded, none with an error, a miss or a stale read" ||
	fail "$cells cells recorded (not 36), $bad with errors, misses or stale reads" "$work/ycsb.csv"
# (per workload and server over all its cells: one half-second cell of E,
# 5 % inserts among a few dozen scans on a loaded machine, may insert none)
ins=$(awk -F, '($2 == "D" || $2 == "E") && ($1 == "closed" || $1 == "open") { n[$2 "," $4] += $13 }
	END { for (k in n) if (n[k] > 0) c++; print c + 0 }' "$work/ycsb.csv")
[ "$ins" = 4 ] && ok "workloads D and E inserted records on both servers" ||
	fail "only $ins of D's and E's 4 workload-server pairs inserted" "$work/ycsb.csv"

# the counters can fail: misses and non-200 answers are seen
gcc -O2 -Wall -Wextra -Werror -o "$work/ycsb" test/bench/ycsb.c -lcrypto -lm
createdb hroe_t_ycsb
psql -X -q -v ON_ERROR_STOP=1 -d hroe_t_ycsb -c "SET client_min_messages = warning" -c "CREATE EXTENSION hroe CASCADE" \
	-c "SELECT hroe.create_access_key(current_user::regrole, 'ycsbkey', 'ycsbsecret')" >/dev/null
gateway/hroe-gateway --port "$base" --pool-size 2 --access-log "" \
	--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=hroe_t_ycsb" 2>"$work/gateway.log" &
pids=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$base/" && break; sleep 0.1; done
y() { "$work/ycsb" "$1" 127.0.0.1 "$base" ycsbkey "$2" "${@:3}"; }
if y create ycsbsecret >"$work/neg" 2>&1 && y load ycsbsecret 100 2 >>"$work/neg" 2>&1; then
	# uniform reads (c) over 1,000 records of which 100 exist: misses
	read -r _ _ _ _ _ _ not200 misses _ <<<"$(y run ycsbsecret 1000 c 2 0 0.3 0 2>>"$work/neg")"
	[ "$not200" = 0 ] && [ "${misses:-0}" -gt 0 ] && ok "reads of records never loaded are counted as misses ($misses)" ||
		fail "reads of missing records: $not200 not 200, ${misses:-?} misses" "$work/neg"
	read -r _ _ _ _ _ _ not200 misses _ <<<"$(y run ycsbsecret 100 c 2 0 0.3 0 2>>"$work/neg")"
	[ "$not200" = 0 ] && [ "$misses" = 0 ] && ok "the same reads of the 100 loaded records: no miss" ||
		fail "reads of the loaded records: $not200 not 200, $misses misses" "$work/neg"
	read -r _ _ _ _ _ _ not200 _ <<<"$(y run wrongsecret 100 A 1 0 0.3 0 2>"$work/wrong")"
	[ "${not200:-0}" -gt 0 ] && grep -qE "answered 4[0-9][0-9]: .*(Signature|Unrecognized)" "$work/wrong" &&
		ok "a wrong secret: hroe refuses the signature, counted ($not200 answers not 200)" ||
		fail "a wrong secret was not counted (${not200:-?} not 200)" "$work/wrong"
else
	fail "creating and loading the table through hroe-gateway" "$work/neg"
fi
[ "$failures" -eq 0 ]
