#!/usr/bin/env bash
# test/t_dos_combined.sh: issue 29's combined denial-of-service check, bounded
# for the suite: test/bench/dos.sh with 20 seconds of attack per front end
# (hroe-gateway, then the in-server workers): the 6 anonymous attacks at once
# (two each of slowloris, churn and unfinished bodies, no key) while a signed
# GetItem is sent again and again, each on a new connection.  The promise
# checked: an anonymous client never slows a signed request.  Fails if a
# probe goes unanswered (no whole answer within 5 s), if fewer than 20 probes
# were sent in an attack (the probe itself stalled), or if the probe's p99
# exceeds 2 s (a sanity bound: the machine is shared; the figure to read is
# the benchmark's, doc/security.md); the idle rows need every probe answered
# and the same p99 (a count is no bound for their 2 s on a loaded machine).
# Answers other than 200 are counted and shown, not failed.
#
# The benchmark's eight at once add two "unread" attacks, which are signed:
# 50 connections each pipelining 14 MB BatchGetItems of a key allowed to
# read.  Those are real work, shared fairly with the probe (the gateway's
# pool serves client addresses in turn, a worker its connections' requests
# one after another), so the probe waits for a few of them, which on a loaded
# 2-core machine take seconds each: with them, under a load average of 9 to
# 18, a probe (1 of 108 to 200, up to 3 of a run) waited past 5 s, always
# queued in the gateway's pool or in its worker behind them, and never with
# only the anonymous attacks running (0 of over 1,000 probes,
# doc/security.md).  No bound holds for that wait on a shared machine, so
# this test leaves the signed attack out: test/t_dos_unread.sh checks it
# alone, and `make bench BENCH=dos` measures the eight together.
# Ports: the cluster's socket HROE_CLUSTER_PORT (default 5652), the front
# ends' HROE_GW_PORTS (default 8000-8099).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
HROE_DOS_SECS=${HROE_DOS_SECS:-20} HROE_DOS_IDLE_SECS=2 HROE_DOS_ANON=1 HROE_DOS_OUT=$out \
	HROE_CLUSTER_PORT=${HROE_CLUSTER_PORT:-5652} bash test/bench/dos.sh >/dev/null 2>"$out.log"
rc=$?
grep -h "answers other than 200\|unanswered probe" "$out.log" | sed 's/^/     /'
failures=0
if [ $rc -ne 0 ] || [ "$(wc -l <"$out")" -ne 4 ]; then
	echo "FAIL test/bench/dos.sh did not complete (exit $rc)"
	tail -20 "$out.log" | sed 's/^/    /'
	rm -f "$out.log"
	exit 1
fi
rm -f "$out.log"
# front attack probes answered unanswered non200 p50 p99 max
while IFS=$'\t' read -r front attack probes answered unanswered non200 p50 p99 max; do
	label="$front, $attack: $probes probes, $unanswered unanswered, $non200 non-200, p50 $p50 ms, p99 $p99 ms, max $max ms"
	min=20
	[ "$attack" = "none (idle)" ] && min=1
	if [ "$unanswered" -eq 0 ] && [ "$probes" -ge $min ] &&
		awk -v p="$p99" 'BEGIN { exit !(p != "-" && p + 0 < 2000) }'; then
		echo "ok   $label"
	else
		echo "FAIL $label"
		failures=$((failures + 1))
	fi
done <"$out"
exit $((failures > 0))
