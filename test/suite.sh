#!/usr/bin/env bash
# test/suite.sh: runs every test against the cluster in PG* variables and
# prints "N passed, N failed". Called by test/check.sh inside pg_virtualenv.
#
# The shell tests run side by side in HROE_SUITE_JOBS slots (default 3; 1
# runs them one after the other).  Slot 0 uses the suite's cluster (and runs
# pg_regress and the isolation specs first); every other slot runs in a
# throwaway cluster of its own (test/lib.sh in_cluster, the same options, its
# port from PGPORT + slot upwards), so that no test sees another's roles,
# databases or settings.  Each slot gets its own share of HROE_GW_PORTS for
# the front ends its tests start (the clusters the tests start themselves
# listen on their own socket directories only, test/lib_cluster.sh).  The
# tests in SERIAL run afterwards, one at a time and alone: the denial-of-
# service probes and test/t_expression_cancel.sh (their latency bounds mean
# something only on a machine the suite does not load) and test/t_packages.sh
# (it checks that the checkout, ignored files included, is as it was).  Every test's output is in
# test/out/NAME.log; each result line gives the test's time.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
OUT=$PWD/test/out
SERIAL="t_dos_bodies.sh t_dos_churn.sh t_dos_combined.sh t_dos_fds.sh t_dos_slowloris.sh t_dos_unread.sh t_expression_cancel.sh t_packages.sh"
# the longest tests start first (the rest follow in name order)
FIRST="t_stalled_servers.sh t_fuzz.sh t_pitr.sh t_failover.sh t_streams.sh t_http_server.sh t_partition.sh t_crash_recovery.sh t_direct_write_stress.sh t_upgrade.sh t_http_cancel.sh t_main_browser.sh"
JOBS=${HROE_SUITE_JOBS:-3}
GW_RANGE=${HROE_GW_PORTS:-8000-8099}

# result NAME STATUS SECONDS LOG: one result line (and a failure's log tail),
# printed whole, and counted in $OUT/results
result() {
	{
		flock 9
		echo "shell test $1 ... $2 ($3 s)"
		[ "$2" = ok ] || sed 's/^/    /' "$4" | tail -40
		echo "$2" >>"$OUT/results"
	} 9>>"$OUT/print.lock"
}

# run_test NAME: one shell test, its output in $OUT/NAME.log
run_test() {
	local start=$SECONDS
	if bash "test/$1" >"$OUT/$1.log" 2>&1; then
		result "$1" ok $((SECONDS - start)) "$OUT/$1.log"
	else
		result "$1" FAILED $((SECONDS - start)) "$OUT/$1.log"
	fi
}

# next_test: takes the first name off $OUT/queue (empty when none is left)
next_test() {
	{
		flock 9
		head -1 "$OUT/queue"
		sed -i 1d "$OUT/queue"
	} 9>>"$OUT/queue.lock"
}

# slot K: slot K's ports, then the queue's tests until it is empty
slot() {
	local k=$1 lo=${GW_RANGE%-*} hi=${GW_RANGE#*-} size t
	size=$(((hi - lo + 1) / JOBS))
	export HROE_GW_PORTS=$((lo + k * size))-$((lo + (k + 1) * size - 1))
	while t=$(next_test) && [ -n "$t" ]; do
		run_test "$t"
	done
}

if [ "${1:-}" = --slot ]; then
	# the suite's output is on descriptor 8 (pg_virtualenv's on 1)
	exec >&8 8>&-
	slot "$2"
	exit 0
fi

mkdir -p "$OUT"
rm -f "$OUT/results" "$OUT/queue" "$OUT/queue.lock" "$OUT/print.lock"
passed=0
failed=0

# the queue: every shell test but the serial ones, the longest first
{
	for t in $FIRST; do [ -e "test/$t" ] && echo "$t"; done
	for t in test/t_*.sh; do
		[ -e "$t" ] || continue
		t=$(basename "$t")
		case " $SERIAL $FIRST " in *" $t "*) continue ;; esac
		echo "$t"
	done
} >"$OUT/queue"

# slots 1..JOBS-1, each in a cluster of its own, loading hroe from the stage
# the suite's cluster loads it from
HROE_STAGE=$(psql -XAtq -d postgres -c "SHOW extension_destdir")
pids=()
for k in $(seq 1 $((JOBS - 1))); do
	HROE_PGPORT=$(free_port $((PGPORT + k))) in_cluster bash test/suite.sh --slot "$k" \
		8>&1 >"$OUT/slot$k.log" 2>&1 &
	pids+=($!)
done

# slot 0: pg_regress, then pg_isolation_regress, through PGXS (two runs, so
# that a failure in the first does not keep the second from running), then
# shell tests
for suite in "ISOLATION=" "REGRESS="; do
	make -s installcheck ASSERTS=1 "$suite" >"$OUT/installcheck.log" 2>&1
	rc=$?
	{
		flock 9
		cat "$OUT/installcheck.log"
		if [ $rc -ne 0 ]; then
			[ -f regression.diffs ] && cat regression.diffs
			[ -f output_iso/regression.diffs ] && cat output_iso/regression.diffs
		fi
	} 9>>"$OUT/print.lock"
	ok=$(grep -cE '\.\.\. ok' "$OUT/installcheck.log")
	bad=$(grep -cE '\.\.\. FAILED' "$OUT/installcheck.log")
	passed=$((passed + ok))
	failed=$((failed + bad))
	# a harness failure that no test line reports still counts
	[ $rc -ne 0 ] && [ "$bad" -eq 0 ] && failed=$((failed + 1))
done
(slot 0)
k=0
for p in "${pids[@]}"; do
	k=$((k + 1))
	wait "$p" && continue
	# a slot whose cluster did not start ran nothing: its tests are still
	# queued and run in slot 0 below; its log says why
	echo "slot $k's cluster failed:"
	sed 's/^/    /' "$OUT/slot$k.log" | tail -10
done
(slot 0)

# the serial tests, alone, with the whole port range
for t in $SERIAL; do
	[ -e "test/$t" ] && run_test "$t"
done

passed=$((passed + $(grep -cx ok "$OUT/results")))
failed=$((failed + $(grep -cx FAILED "$OUT/results")))
echo "$passed passed, $failed failed" | tee "$OUT/summary"
[ "$failed" -eq 0 ]
