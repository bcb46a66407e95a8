#!/usr/bin/env bash
# test/t_failover.sh: a primary lost under load and its synchronous standby
# promoted, hroe-gateway in front (doc/replicas.md, "Failover").
#
# A primary and a synchronous standby (synchronous_standby_names,
# synchronous_commit on: a commit is acknowledged once the standby has it
# on disk), a gateway whose --dbname lists both hosts with
# target_session_attrs=read-write, clients writing through it (PutItem of
# new keys, UpdateItem ADD on ten counters, signed, never retried, every
# outcome logged); kill -9 of the primary mid-load, pg_ctl promote of the
# standby, the gateway serving again on it.  Then: every acknowledged
# PutItem is there, every counter is between its acknowledged ADDs and
# those plus the failed ones (none applied twice), and every failed request
# got a retryable answer (500 InternalServerError, or throttling); the
# failures are printed by HTTP status and DynamoDB error.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
base=${HROE_CLUSTER_PORT:-5812}
db=hroe_failover

cluster_init primary "$base" || exit 1
cluster_start primary -c synchronous_standby_names=standby -c synchronous_commit=on || exit 1
cluster_standby standby $((base + 1)) primary standby || exit 1
export PGHOST=$CLUSTER_WORK/primary PGPORT=$base PGUSER=postgres PGDATABASE=$db
# sync_state is async until the standby has caught up: wait for sync (up
# to 2 minutes: a loaded machine's catch-up can be slow)
sync_state() {
	for _ in $(seq 1 1200); do
		[ "$(cluster_psql primary -d postgres -c "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'")" = sync ] &&
			return 0
		sleep 0.1
	done
	cluster_psql primary -d postgres -c "SELECT application_name, state, sync_state FROM pg_stat_replication"
	return 1
}
check "the standby is synchronous" sync_state
gw_setup "$db" || exit 1
gw_env
# both servers, the writable one wins: after the promotion, the standby
conninfo="host=$CLUSTER_WORK/primary,$CLUSTER_WORK/standby port=$base,$((base + 1)) dbname=$db"
conninfo="$conninfo user=$GW_LOGIN password=$GW_LOGIN_PASSWORD target_session_attrs=read-write"
# gw_start's --dbname is the suite's: this one comes last and wins; the
# standby also serves the eventually consistent reads until it is promoted
replica="host=$CLUSTER_WORK/standby port=$((base + 1)) dbname=$db user=$GW_LOGIN password=$GW_LOGIN_PASSWORD"
gw_start "$db" --dbname "$conninfo" --replica "$replica" || exit 1
check "CreateTable" has '^200 ' raw CreateTable '{"TableName": "ftab", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}'

client writes ftab "$GW_WORK/writes.log" 4 "$GW_WORK/stop" &
writers=$!
sleep 3
acked_before=$(grep -c ' ok ' "$GW_WORK/writes.log")
echo "     $acked_before acknowledged writes before the kill"
killed_at=$(date +%s.%N)
cluster_kill primary
sleep 1
cluster_promote standby || { echo "FAIL promote"; exit 1; }
promoted_at=$(date +%s.%N)
serving=
for _ in $(seq 1 300); do
	if raw GetItem '{"TableName": "ftab", "Key": {"pk": {"S": "c0"}}, "ConsistentRead": true}' | grep -q '^200 '; then
		serving=$(date +%s.%N)
		break
	fi
	sleep 0.1
done
check "the gateway serves again after the promotion" test -n "$serving"
[ -n "$serving" ] && awk -v k="$killed_at" -v p="$promoted_at" -v s="$serving" 'BEGIN {
	printf "     kill -9 to serving again: %.1f s (the promotion done %.1f s after the kill)\n", s - k, p - k }'
sleep 3
touch "$GW_WORK/stop"
wait $writers
acked_after=$(grep -c ' ok ' "$GW_WORK/writes.log")
check "writes acknowledged after the failover" test "$acked_after" -gt $((acked_before + 20))
check "some requests failed during the outage" grep -q ' fail ' "$GW_WORK/writes.log"
check "no acknowledged write lost, counters in range, failures retryable" \
	client verify ftab "$GW_WORK/writes.log"
sed 's/^/     /' "$GW_WORK/check.out" | grep -v '^     counter'
check "the promoted standby no longer serves as a replica" bash -c "
	grep 'replica 1 ' $GW_WORK/gateway.log | tail -1 | grep -q 'is skipped'"
check "an eventually consistent read after the failover sees an acknowledged write" has '^200 .*"Item"' \
	raw GetItem "{\"TableName\": \"ftab\", \"Key\": {\"pk\": {\"S\": \"$(grep -m1 '^put .* ok ' "$GW_WORK/writes.log" | cut -d' ' -f2)\"}}}"
check "the gateway logged the lost connections and the reconnection" \
	grep -q "connection to PostgreSQL lost\|could not connect to PostgreSQL" "$GW_WORK/gateway.log"
gw_stop
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
