#!/usr/bin/env bash
# test/bench/dos.sh: a signed GetItem's latency through each HTTP front end
# (hroe-gateway, the in-server workers) while 8 idle-connection attacks run
# at once (issue 29's "Must show"; doc/security.md "Threat model").
#
#   make bench BENCH=dos         (test/bench/run.sh dos)
#   HROE_DOS_SECS=60 HROE_GW_PORTS=8300-8399 HROE_CLUSTER_PORT=5651 \
#       bash test/bench/run.sh dos
#
# One cluster of test/lib_cluster.sh (socket HROE_CLUSTER_PORT, default
# 5651) serving the in-server workers (hroe.http_workers=2) and a gateway
# (pool of 4) in front of the same database, both on loopback ports of
# HROE_GW_PORTS (default 8300-8399).  A table "dos" holds the probe's item
# and 40 items of 350 KB (unread's BatchGetItem answers 14 MB).  For each
# front end in turn:
#   1. idle: the probe (test/gateway/dos_probe.py: each GetItem on a new
#      connection, signed, timed from connect to the answer's last byte,
#      unanswered after 5 s) for HROE_DOS_IDLE_SECS seconds (default 5);
#   2. attacked: two of each attack of test/gateway/attack.py at once
#      (HROE_DOS_ATTACK: another client with its options; attackers from
#      127.0.0.2-127.0.0.31, the probe from 127.0.0.1) for HROE_DOS_SECS
#      seconds (default 30):
#        slowloris  2 x 2,500 connections, 1 byte every 10 s
#        churn      2 x 200 connections a second, each a partial request
#        unread     2 x 50 connections, 4 pipelined 14 MB BatchGetItems each,
#                   never read
#        bodies     2 x 8 unsigned 16 MiB bodies, all but the last byte
#      and, after HROE_DOS_WARMUP seconds (default 5, the attack's
#      connections opened), the probe until the attacks end.
# The attack clients run under nice (HROE_DOS_ATTACK_NICE, default 10): on a
# small machine they would otherwise take the server's cores.
# With HROE_DOS_EACH=1, also each attack alone (two of it) after the eight;
# with HROE_DOS_ANON=1, the six anonymous ones at once (slowloris, churn,
# bodies: no key) instead of the eight (test/t_dos_combined.sh).
# Prints a Markdown table: front end, attack, probes, answered, unanswered,
# non-200, p50/p99/max ms; with HROE_DOS_OUT=file also writes its rows there
# as tab-separated values (test/t_dos_combined.sh reads them).  A benchmark:
# it asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib_cluster.sh
. test/gateway/lib.sh
SECS=${HROE_DOS_SECS:-30}
IDLE=${HROE_DOS_IDLE_SECS:-5}
WARMUP=${HROE_DOS_WARMUP:-5}
ATTACK=${HROE_DOS_ATTACK:-test/gateway/attack.py}
OUT=${HROE_DOS_OUT:-}
# the attack clients run at a lower priority than the servers and the probe
# (HROE_DOS_ATTACK_NICE, default 10 more): on this small machine they would
# otherwise take the cores the server needs, which measures the machine,
# not the front end; an attacker elsewhere does not share the server's CPU
NICE="nice -n ${HROE_DOS_ATTACK_NICE:-10}"
port=${HROE_CLUSTER_PORT:-5651}
db=hroe_dos
PIDS=()
gw_clusters
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; GW_DB=; gw_cleanup; cluster_cleanup' EXIT
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

[ -x gateway/hroe-gateway ] || make -s gateway/hroe-gateway >&2
cluster_init dos "$port" >&2
cluster_start dos -c max_connections=100 >&2
export PGHOST=$CLUSTER_WORK/dos PGPORT=$port PGUSER=postgres
gw_setup "$db" >&2
psql -XAtq -d "$db" -v ON_ERROR_STOP=1 >/dev/null <<-'SQL'
	SET ROLE gw_app;
	SET search_path = gw_app;
	SELECT hroe.create_table('dos', 'PK', 'S');
	SELECT hroe.put_item('dos', '{"PK":{"S":"probe"},"v":{"S":"hello"}}');
	SELECT hroe.put_item('dos', format('{"PK":{"S":"k%s"},"d":{"S":"%s"}}', i, repeat('x', 350000))::hroe.item)
	FROM generate_series(0, 39) i;
SQL

http_port=$(gw_free_port)
cluster_stop dos >&2
cluster_start dos -c max_connections=100 -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_workers=2 >&2
workers_url=http://127.0.0.1:$http_port
for _ in $(seq 1 150); do curl -s -o /dev/null "$workers_url/" && break; sleep 0.1; done
GW_POOL=4 gw_start "$db" >&2
gw_env

# row FRONT ATTACK LINE: one result (the probe's tab-separated line)
rows=()
row() {
	local line
	line=$(printf '%s\t%s\t%s' "$1" "$2" "$(cut -f2- <<<"$3")")
	rows+=("$line")
	[ -n "$OUT" ] && echo "$line" >>"$OUT"
	echo "$line" | awk -F'\t' '{printf "   %s, %s: %s probes, %s unanswered, %s non-200, p50 %s ms, p99 %s ms, max %s ms\n", $1, $2, $3, $5, $6, $7, $8, $9}' >&2
}

# the BatchGetItem unread sends: 40 items of 350 KB, a 14 MB answer
batch='{"RequestItems":{"dos":{"Keys":['
for i in $(seq 0 39); do batch+="{\"PK\":{\"S\":\"k$i\"}}"; if [ "$i" -lt 39 ]; then batch+=','; fi; done
batch+=']}}}'

# attack URL MODE...: two of each attack named (default all four) at once
attack_all() {
	local url=$1 m mode modes
	shift
	modes=${*:-slowloris churn unread bodies}
	PIDS=()
	for m in 1 2; do
		for mode in $modes; do
			case $mode in
			slowloris) $NICE python3 "$ATTACK" "$url" slowloris --seconds "$SECS" --conns 2500 --interval 10 >&2 & ;;
			churn) $NICE python3 "$ATTACK" "$url" churn --seconds "$SECS" --conns 4 >&2 & ;;
			unread) $NICE python3 "$ATTACK" "$url" unread --seconds "$SECS" --conns 50 --pipeline 4 --op BatchGetItem --body "$batch" >&2 & ;;
			bodies) $NICE python3 "$ATTACK" "$url" bodies --seconds "$SECS" --conns 8 --size 16 --interval 10 >&2 & ;;
			esac
			PIDS+=($!)
		done
	done
}

# measure FRONT URL LABEL [MODE...]: the probe under the attacks named
measure() {
	local front=$1 url=$2 label=$3 p
	shift 3
	attack_all "$url" "$@"
	sleep "$WARMUP"
	row "$front" "$label" "$(python3 test/gateway/dos_probe.py "$url" dos probe --label "$front" \
		--duration $((SECS - WARMUP - 1)) --interval 0.02)"
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	PIDS=()
	# let the server drop what the attackers left before the next one
	sleep 2
}

for front in gateway workers; do
	if [ $front = gateway ]; then url=$GW_URL; else url=$workers_url; fi
	echo "== $front ($url)" >&2
	row "$front" "none (idle)" "$(python3 test/gateway/dos_probe.py "$url" dos probe --label "$front" --duration "$IDLE" --interval 0.02)"
	if [ "${HROE_DOS_ANON:-0}" = 1 ]; then
		measure "$front" "$url" "6 anonymous at once" slowloris churn bodies
	else
		measure "$front" "$url" "8 at once"
	fi
	if [ "${HROE_DOS_EACH:-0}" = 1 ]; then
		for mode in slowloris churn unread bodies; do
			measure "$front" "$url" "$mode x 2" "$mode"
		done
	fi
done

echo "| front end | attack | probes | answered | unanswered | non-200 | p50 ms | p99 ms | max ms |"
echo "|---|---|---|---|---|---|---|---|---|"
for r in "${rows[@]}"; do
	echo "| ${r//$'\t'/ | } |"
done
