#!/usr/bin/env bash
# test/t_bigtable.sh: the larger-than-memory benchmark's harness
# (test/bench/bigtable.sh, its bulk path "ycsb items" in test/bench/ycsb.c)
# works, run tiny: 20,000 records through hroe-gateway, cells of half a
# second, dynalite as the peer.  Checked:
# - the bulk path's items and keys are byte for byte those PutItem stores for
#   the same records, GetItem answers the same from both, and DescribeTable
#   counts every record (HROE_BIGTABLE_VERIFY=1: bigtable.sh exits non-zero
#   otherwise); every read of every cell finds its record (the bulk path
#   names the keys as ycsb.c does) and every answer is HTTP 200;
# - the comparison can fail: one bulk item altered before it is caught;
# - every table is printed whole: both load rates, the size row, a row per
#   working set, workload and concurrency, the peer table, every figure a
#   number (a buffer hit ratio may be n/a: a backend's statistics reach
#   pg_statio_user_tables up to a second late, so a half-second cell may
#   see none).
# Asserts nothing about speed.  Ports from HROE_GW_PORTS (default 8000-8099).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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

tiny() {
	env -u HROE_BENCH_HTTP_PORT HROE_BIGTABLE_RECORDS=20000 HROE_BIGTABLE_SETS="0.005 all" HROE_BIGTABLE_HOT=0.002 \
		HROE_BIGTABLE_BWI_RECORDS=1000 HROE_BIGTABLE_PEERS=dynalite HROE_BIGTABLE_PEER_RECORDS=1000 \
		HROE_BENCH_SECS=0.5 HROE_BENCH_WARMUP=0.2 HROE_BENCH_PORT_BASE=$base "$@" bash test/bench/bigtable.sh
}
if tiny HROE_BIGTABLE_VERIFY=1 HROE_BENCH_CSV=$work/bigtable.csv >"$work/out" 2>&1; then
	ok "bigtable.sh: every answer 200, no read miss"
else
	fail "bigtable.sh failed" "$work/out"
fi
grep -q "^verified: the 20000 bulk-loaded items and keys are byte for byte those PutItem stores" "$work/out" &&
	ok "bulk items byte for byte as PutItem stores them, GetItem answers equal" ||
	fail "the bulk path was not verified against PutItem" "$work/out"

if tiny HROE_BIGTABLE_VERIFY=corrupt HROE_BIGTABLE_SETS=all HROE_BIGTABLE_PEERS= HROE_BENCH_CSV=$work/corrupt.csv \
	>"$work/corrupt" 2>&1; then
	fail "an altered bulk item went unnoticed" "$work/corrupt"
else
	grep -q "1 of 20000 items differ from what PutItem stores, 1 GetItem answers differ" "$work/corrupt" &&
		ok "the comparison can fail: one altered item is caught" ||
		fail "the altered item was not reported as such" "$work/corrupt"
fi

num='[0-9]+(\.[0-9]+)?'
loads=$(grep -cE "^\| (BatchWriteItem over HTTP|bulk: COPY).* \| $num \| $num \| $num \| $num \|( $num MB)? \|$" "$work/out")
[ "$loads" = 2 ] && ok "load table: BatchWriteItem's and the bulk path's rates" || fail "load table: $loads rows, not 2" "$work/out"
grep -qE "^\| 20000 \|( $num \|){8}$" "$work/out" && ok "size table: on disk against DynamoDB's billed size" ||
	fail "size table incomplete" "$work/out"
curve=$(grep -cE "^\| (hot \(zipfian\) 0.002 GB|uniform 0.005 GB|uniform whole table) \| [0-9]+ \| $num \| [BC] \| (8|32) \|( $num \|){3} ($num|n/a) \| $num \|$" "$work/out")
[ "$curve" = 12 ] && ok "latency curve: 3 working sets x 2 workloads x 2 concurrencies, every cell a figure" ||
	fail "latency curve: $curve complete rows, not 12" "$work/out"
peers=$(grep -cE "^\| [BCbc] \| (8|32) \|( $num \|){6}$" "$work/out")
[ "$peers" = 8 ] && ok "peer table: hroe and dynalite at 1,000 records, 8 cells" ||
	fail "peer table: $peers complete rows, not 8" "$work/out"
# phase,workload,connections,server,records,ops,p50,p99,p999,max,not200,misses,...
cells=$(awk -F, '$1 != "phase" && $1 != "load" && $11 == 0 && $12 == 0 && $6 > 0' "$work/bigtable.csv" | wc -l)
[ "$cells" = 28 ] && ok "28 cells recorded, each with operations, none with an error or a miss" ||
	fail "$cells good cells recorded, not 28" "$work/bigtable.csv"
psql -X -At -d postgres -c "SELECT count(*) FROM pg_database WHERE datname = 'hroe_bench_bigtable'" | grep -qx 0 &&
	ok "the benchmark's database is dropped at the end" || fail "hroe_bench_bigtable is left behind"
[ "$failures" -eq 0 ]
