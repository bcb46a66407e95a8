#!/usr/bin/env bash
# test/t_failover.sh: automatic failover by pg_auto_failover under load,
# hroe-gateway and hroe's in-server HTTP workers in front (doc/failover.md).
#
# A pg_auto_failover formation (test/lib_autofailover.sh): a monitor, a
# primary and a synchronous secondary (pg_autoctl's synchronous_standby_names,
# synchronous_commit on), health checks shortened for the test.  A gateway
# whose --dbname lists both nodes with target_session_attrs=read-write, four
# clients writing through it (PutItem of new keys, UpdateItem ADD on ten
# counters, signed, never retried, every outcome logged).  Two unplanned
# faults, nothing promoted by hand:
#
# 1. the primary's machine crashes: kill -9 of its postmaster and of its
#    pg_autoctl (the keeper, which would otherwise restart Postgres in place:
#    no failover needed, and none tested);
# 2. the new primary is cut off: SIGSTOP of its postmaster, every backend
#    and walsender, and its keeper (no packet answered, connections left
#    open, as a partition does) past the monitor's timeouts, then SIGCONT
#    (the partition heals; the old primary comes back writable until its
#    keeper learns it was demoted).
#
# After each: the monitor promoted the secondary, the gateway serves writes
# again within 30 s (the outage printed), every acknowledged PutItem is
# there, every counter is between its acknowledged ADDs and those plus the
# failed ones (none applied twice), every failure was retryable.  Between
# the two, the crashed node's pg_autoctl is started again and rejoins as the
# secondary.  The in-server workers (hroe.http_port, the same on both nodes)
# run only on the primary: none on the secondary, and after the crash the
# port answers from the promoted node.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/lib_autofailover.sh
. test/gateway/lib.sh
gw_clusters
trap 'GW_DB=; gw_cleanup; af_cleanup' EXIT
base=${HROE_AF_PORT:-19090}
db=hroe_failover
http_port=$(gw_free_port) || exit 1

af_monitor "$base" || exit 1
af_timeouts || exit 1
af_node node1 $((base + 1)) hroe.http_port="$http_port" hroe.http_listen=127.0.0.1 \
	hroe.http_database="$db" hroe.http_role="$GW_LOGIN" hroe.http_workers=1 || exit 1
af_wait_state node1 single 60 || exit 1
af_node node2 $((base + 2)) || exit 1
check "pg_auto_failover: node1 primary, node2 its secondary" af_wait_state node2 secondary 120
af_wait_state node1 primary 60 || exit 1
export PGHOST=$CLUSTER_WORK/sock PGPORT=$((base + 1)) PGUSER=postgres PGDATABASE=$db
af_psql() {
	"$CLUSTER_BIN/psql" -X -q -At -h "$CLUSTER_WORK/sock" -p "${AF_PORTS[$1]}" -U postgres -d postgres "${@:2}"
}
sync_state() {
	for _ in $(seq 1 300); do
		[ "$(af_psql "$1" -c "SELECT sync_state FROM pg_stat_replication")" = quorum ] && return 0
		sleep 0.1
	done
	af_psql "$1" -c "SHOW synchronous_standby_names" -c "SELECT application_name, state, sync_state FROM pg_stat_replication"
	return 1
}
check "the secondary is synchronous (pg_autoctl's ANY 1)" sync_state node1
gw_setup "$db" || exit 1
gw_env
conninfo="$(af_conninfo "$db") user=$GW_LOGIN password=$GW_LOGIN_PASSWORD connect_timeout=2"
gw_start "$db" --dbname "$conninfo" --statement-timeout 3000 || exit 1
create_table() {
	raw CreateTable "{\"TableName\": \"$1\", "'"BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}'
}
# one table per fault: its counters count that fault's ADDs only
check "CreateTable ftab" has '^200 ' create_table ftab
check "CreateTable ftab2" has '^200 ' create_table ftab2

# the in-server endpoint: a signed PutItem on hroe.http_port
http_put() {
	GW_URL=http://127.0.0.1:$http_port raw PutItem "{\"TableName\": \"ftab\", \"Item\": {\"pk\": {\"S\": \"$1\"}}}"
}
http_serves() {
	for _ in $(seq 1 "$(($1 * 10))"); do
		http_put "$2" 2>/dev/null | grep -q '^200 ' && return 0
		sleep 0.1
	done
	http_put "$2"
	return 1
}
http_workers() { af_psql "$1" -c "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'hroe http'"; }
check "in-server HTTP: a write answered by the primary's worker" http_serves 30 http1
check "in-server HTTP: no worker on the secondary" test "$(http_workers node2)" = 0

# fault LABEL OLD NEW TABLE CMD...: writers through the gateway, CMD (the fault on
# OLD) after 3 s, then the checks; NEW is the node the monitor must promote
fault() {
	local label=$1 old=$2 new=$3 table=$4 log="$GW_WORK/writes_$2.log"
	shift 4
	rm -f "$GW_WORK/stop"
	client writes "$table" "$log" 4 "$GW_WORK/stop" &
	local writers=$! acked_before faulted_at serving= promoted=
	sleep 3
	acked_before=$(grep -c ' ok ' "$log")
	echo "     $label: $acked_before acknowledged writes before the fault"
	faulted_at=$(date +%s.%N)
	"$@"
	for _ in $(seq 1 600); do
		if raw PutItem '{"TableName": "ftab", "Item": {"pk": {"S": "probe"}}}' 2>/dev/null | grep -q '^200 '; then
			serving=$(date +%s.%N)
			break
		fi
		sleep 0.1
	done
	[ -n "$serving" ] && promoted=$(af_primary)
	check "$label: the gateway serves writes again" test -n "$serving"
	check "$label: the monitor promoted $new" test "$promoted" = "$new"
	[ -n "$serving" ] && awk -v f="$faulted_at" -v s="$serving" -v l="$label" 'BEGIN {
		printf "     %s: fault to serving writes again: %.1f s\n", l, s - f }'
	[ -n "$serving" ] && check "$label: service back within 30 s" \
		awk -v f="$faulted_at" -v s="$serving" 'BEGIN { exit !(s - f <= 30) }'
	eval "${FAULT_HOOK:-:}"
	sleep 3
	touch "$GW_WORK/stop"
	wait $writers
	check "$label: writes acknowledged after the failover" test "$(grep -c ' ok ' "$log")" -gt $((acked_before + 20))
	check "$label: no acknowledged write lost, counters in range, failures retryable" \
		client verify "$table" "$log"
	sed 's/^/     /' "$GW_WORK/check.out" | grep -v '^     counter'
}

# 1. the primary's machine crashes
crash() { kill -KILL $(af_pids node1 | sort -u) 2>/dev/null; unset 'AF_PIDS[node1]'; }
fault "kill -9" node1 node2 ftab crash
check "in-server HTTP: the promoted node's worker answers on the same port" http_serves 30 http2

# the crashed node comes back: its pg_autoctl rejoins it as the secondary
rm -f "$CLUSTER_WORK/node1/data/postmaster.pid"
af_run node1
check "node1 rejoins as the secondary" af_wait_state node1 secondary 90
check "node1 is synchronous again" sync_state node2

# 2. the primary (node2 now) cut off, then the partition heals
stopped=()
partition() {
	stopped=($(af_pids node2 | sort -u))
	kill -STOP "${stopped[@]}"
}
heal() {
	kill -CONT "${stopped[@]}"
	stopped=()
}
FAULT_HOOK=heal fault "partition" node2 node1 ftab2 partition
check "the old primary, healed, is demoted and follows node1" af_wait_state node2 secondary 90
check "in-server HTTP: no worker on the demoted node" test "$(http_workers node2)" = 0
af_show | sed 's/^/     /'
check "the gateway logged the lost connections" \
	grep -q "connection to PostgreSQL lost\|could not connect to PostgreSQL" "$GW_WORK/gateway.log"
gw_stop
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
