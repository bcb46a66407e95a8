#!/usr/bin/env bash
# test/t_dos_combined.sh: issue 29's combined denial-of-service check, bounded
# for the suite: test/bench/dos.sh with 20 seconds of attack per front end
# (hroe-gateway, then the in-server workers): 8 idle-connection attacks at
# once (two each of slowloris, churn, unread answers, unfinished bodies),
# while a signed GetItem is sent again and again, each on a new connection.
# Fails if a probe goes unanswered (no whole answer within 5 s), if fewer
# than 20 probes were sent (the probe itself stalled), or if the probe's p99
# under attack exceeds 2 s (a sanity bound: the machine is shared; the figure
# to read is the benchmark's, doc/security.md).  Answers other than 200 are
# counted and shown, not failed: the unread attack's BatchGetItems are real
# work of a key allowed to read, which may keep the pool busy long enough for
# a probe to be throttled (ThrottlingException, which the SDKs retry).  Ports: the cluster's socket HROE_CLUSTER_PORT (default
# 5652), the front ends' HROE_GW_PORTS (default 8000-8099).
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
HROE_DOS_SECS=${HROE_DOS_SECS:-20} HROE_DOS_IDLE_SECS=2 HROE_DOS_OUT=$out \
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
	if [ "$unanswered" -eq 0 ] && [ "$probes" -ge 20 ] &&
		awk -v p="$p99" 'BEGIN { exit !(p != "-" && p + 0 < 2000) }'; then
		echo "ok   $label"
	else
		echo "FAIL $label"
		failures=$((failures + 1))
	fi
done <"$out"
exit $((failures > 0))
