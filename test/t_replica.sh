#!/usr/bin/env bash
# test/t_replica.sh: hroe-gateway's read replicas (doc/replicas.md).  A
# primary and a hot standby (test/lib_cluster.sh), a gateway with the
# standby as --replica:
# - the repository's conformance corpus through the gateway, its eventually
#   consistent reads answered by the standby (synchronous_commit
#   remote_apply: the standby has applied every acknowledged write), with
#   the answers the corpus expects, and no read sent back to the primary;
# - a read routed to the standby is served there (its statement log), a
#   strongly consistent one and a write are not;
# - a standby whose replay is paused falls past the lag bound and is
#   skipped (its reads go to the primary and see the new writes), and comes
#   back once it catches up; a strongly consistent read after a write
#   always sees it;
# - a standby killed under a read load: no request fails.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
base=${HROE_CLUSTER_PORT:-5810}
db=hroe_replica
# wait_log PATTERN: until the gateway's log has a line matching it (30 s)
wait_log() {
	for _ in $(seq 1 300); do
		grep -qE -- "$1" "$GW_WORK/gateway.log" && return 0
		sleep 0.1
	done
	echo "timed out waiting for the gateway to log: $1"
	cat "$GW_WORK/gateway.log"
	return 1
}
# wait_state serves|skipped: until the standby's last change logged is that
wait_state() {
	for _ in $(seq 1 300); do
		grep -E "replica 1 (serves|is skipped)" "$GW_WORK/gateway.log" | tail -1 | grep -q "$1" &&
			return 0
		sleep 0.1
	done
	echo "timed out waiting for the standby's state: $1"
	cat "$GW_WORK/gateway.log"
	return 1
}
# served_on_standby MARKER: the standby ran a call whose body holds MARKER
served_on_standby() { grep -c "$1" "$(cluster_dir standby)/server.log" || true; }

cluster_init primary "$base" || exit 1
cluster_start primary -c synchronous_standby_names=standby || exit 1
cluster_standby standby $((base + 1)) primary standby || exit 1
# the standby logs every statement: the proof of where a read ran
echo "log_statement = 'all'" >>"$(cluster_dir standby)/data/postgresql.auto.conf"
cluster_psql standby -c "SELECT pg_reload_conf()" >/dev/null
export PGHOST=$CLUSTER_WORK/primary PGPORT=$base PGUSER=postgres PGDATABASE=$db
gw_setup "$db" || exit 1
gw_env
psql -XAtq -c "ALTER DATABASE $db SET synchronous_commit = remote_apply" >/dev/null
replica="host=$CLUSTER_WORK/standby port=$((base + 1)) dbname=$db user=$GW_LOGIN password=$GW_LOGIN_PASSWORD"
gw_start "$db" --replica "$replica" --replica-max-lag 500 --replica-check-interval 50 || exit 1
check "the standby serves eventually consistent reads" wait_log "replica 1 serves eventually consistent reads"

# the conformance corpus, eventually consistent reads on the standby
(cd test/conformance && { [ -f node_modules/dynalite/package.json ] ||
	npm ci --no-audit --no-fund --loglevel=error >/dev/null; })
before=$(grep -c "execute hroe_call" "$(cluster_dir standby)/server.log")
check "conformance corpus through the gateway, reads on the standby" has ' 0 failed$' \
	env HROE_GATEWAY_URL="$GW_URL" node test/conformance/run.js test/conformance/corpus.jsonl
after=$(grep -c "execute hroe_call" "$(cluster_dir standby)/server.log")
echo "     (the standby answered $((after - before)) of the corpus's requests)"
check "the standby answered the corpus's eventually consistent reads" test $((after - before)) -ge 50
check "no read was sent back to the primary" bash -c "! grep -E 'failed a read|is skipped' $GW_WORK/gateway.log"

# where each request runs
raw CreateTable '{"TableName": "rtab", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
for i in 0 1 2 3 4 5 6 7 8 9; do
	raw PutItem "{\"TableName\": \"rtab\", \"Item\": {\"pk\": {\"S\": \"r$i\"}}}" >/dev/null
done
check "PutItem: 200" has '^200 ' raw PutItem '{"TableName": "rtab", "Item": {"pk": {"S": "marker-put"}}}'
check "GetItem: 200 with the item just written" has '^200 .*marker-put' \
	raw GetItem '{"TableName": "rtab", "Key": {"pk": {"S": "marker-put"}}, "ProjectionExpression": "pk, #m", "ExpressionAttributeNames": {"#m": "marker-ec"}}'
check "eventually consistent GetItem ran on the standby" has '^[1-9]' served_on_standby marker-ec
check "eventually consistent Query ran on the standby" bash -c "
	/usr/bin/python3 test/gateway/raw.py $GW_URL send Query '{\"TableName\": \"rtab\", \"KeyConditionExpression\": \"pk = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"marker-query\"}}}' | grep -q '^200 ' &&
	grep -q marker-query $(cluster_dir standby)/server.log"
check "eventually consistent Scan and BatchGetItem ran on the standby" bash -c "
	/usr/bin/python3 test/gateway/raw.py $GW_URL send Scan '{\"TableName\": \"rtab\", \"FilterExpression\": \"pk = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"marker-scan\"}}}' | grep -q '^200 ' &&
	/usr/bin/python3 test/gateway/raw.py $GW_URL send BatchGetItem '{\"RequestItems\": {\"rtab\": {\"Keys\": [{\"pk\": {\"S\": \"marker-batch\"}}], \"ConsistentRead\": false}}}' | grep -q '^200 ' &&
	grep -q marker-scan $(cluster_dir standby)/server.log && grep -q marker-batch $(cluster_dir standby)/server.log"
raw PutItem '{"TableName": "rtab", "Item": {"pk": {"S": "marker-write"}}}' >/dev/null
raw GetItem '{"TableName": "rtab", "Key": {"pk": {"S": "marker-strong"}}, "ConsistentRead": true}' >/dev/null
raw BatchGetItem '{"RequestItems": {"rtab": {"Keys": [{"pk": {"S": "marker-sbatch"}}], "ConsistentRead": true}}}' >/dev/null
raw Query '{"TableName": "rtab", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "marker-squery"}}, "ConsistentRead": true}' >/dev/null
raw TransactGetItems '{"TransactItems": [{"Get": {"TableName": "rtab", "Key": {"pk": {"S": "marker-tget"}}}}]}' >/dev/null
raw GetItem '{"TableName": "rtab", "Key": {"pk": {"S": "marker-escaped"}}, "Consistent\u0052ead": true}' >/dev/null
check "strongly consistent reads, TransactGetItems and writes stay on the primary" has '^0$' \
	bash -c "grep -cE 'marker-(strong|sbatch|squery|tget|escaped|write)' $(cluster_dir standby)/server.log || true"

# a read the standby refuses for the request's own fault (a U+0000 in an
# expression, which hroe cannot keep) is answered from there, and the
# standby is not taken for failed
check "a read with U+0000: 400 ValidationException from the standby" has '^400 .*ValidationException' \
	raw GetItem '{"TableName": "rtab", "Key": {"pk": {"S": "marker-nul"}}, "ProjectionExpression": "a\u0000"}'
check "... it ran on the standby" has '^[1-9]' served_on_standby marker-nul
check "... which is not taken for failed" bash -c "! grep -q 'failed a read' $GW_WORK/gateway.log"

# hroe's read operations on the hot standby itself (the SQL-level recipe):
# none of them writes; a write raises PostgreSQL's read-only error
on_standby() { cluster_psql standby -d "$db" -c "SET ROLE gw_app" -c "SELECT hroe.dynamodb('$1', '$2')"; }
# standby_read OP BODY: answered there, and not with an error body
standby_read() {
	local out
	out=$(on_standby "$1" "$2") || return 1
	echo "$out"
	case "$out" in '{'*) ;; *) return 1 ;; esac
	! grep -q '"__type"' <<<"$out"
}
key='{"pk": {"S": "r1"}}'
for call in "DescribeTable|{\"TableName\": \"rtab\"}" "ListTables|{}" "ListStreams|{}" \
	"GetItem|{\"TableName\": \"rtab\", \"Key\": $key, \"ConsistentRead\": true}" \
	"Query|{\"TableName\": \"rtab\", \"KeyConditionExpression\": \"pk = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"r1\"}}}" \
	"Scan|{\"TableName\": \"rtab\", \"Limit\": 3}" \
	"BatchGetItem|{\"RequestItems\": {\"rtab\": {\"Keys\": [$key]}}}" \
	"TransactGetItems|{\"TransactItems\": [{\"Get\": {\"TableName\": \"rtab\", \"Key\": $key}}]}"; do
	check "${call%%|*} runs on the hot standby" standby_read "${call%%|*}" "${call#*|}"
done
check "PutItem on the hot standby: PostgreSQL's read-only error" expect_error 'read-only transaction' \
	on_standby PutItem '{"TableName": "rtab", "Item": {"pk": {"S": "nope"}}}'

# a standby paused past the lag bound is skipped; it comes back
gw_stop >/dev/null
psql -XAtq -c "ALTER DATABASE $db SET synchronous_commit = local" >/dev/null
: >"$GW_WORK/gateway.log"
gw_start "$db" --replica "$replica" --replica-max-lag 500 --replica-check-interval 50 || exit 1
wait_log "replica 1 serves eventually consistent reads" >/dev/null
cluster_psql standby -c "SELECT pg_wal_replay_pause()" >/dev/null
check "a write while the standby is paused" has '^200 ' raw PutItem '{"TableName": "rtab", "Item": {"pk": {"S": "after-pause"}}}'
check "a paused standby is skipped past the lag bound" wait_state skipped
check "an eventually consistent read then sees the write (the primary answers)" has '^200 .*after-pause' \
	raw GetItem '{"TableName": "rtab", "Key": {"pk": {"S": "after-pause"}}, "ProjectionExpression": "pk, #m", "ExpressionAttributeNames": {"#m": "marker-paused"}}'
check "... and it did not run on the standby" has '^0$' served_on_standby marker-paused
check "strongly consistent read after each write, standby paused (200 rounds)" has '^200 ok, 0 stale$' \
	client strong rtab 200
cluster_psql standby -c "SELECT pg_wal_replay_resume()" >/dev/null
check "the standby serves again once it caught up" wait_state serves
check "strongly consistent read after each write (200 rounds)" has '^200 ok, 0 stale$' client strong rtab 200

# a standby killed under a read load: no request fails
client reads rtab 300 4 >"$GW_WORK/reads.out" 2>&1 &
load=$!
sleep 1
cluster_kill standby
wait $load
check "standby killed under load: every read answered" has '^2400 ok, 0 failed$' cat "$GW_WORK/reads.out"
check "the killed standby is skipped" wait_log "replica 1 (failed a read|is skipped)"
check "reads after the standby's death are answered by the primary" has '^200 ok, 0 failed$' client reads rtab 50 2
cat "$GW_WORK/gateway.log" | grep -E "replica|monitor" | sed 's/^/     gateway: /' | tail -8
gw_stop
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
