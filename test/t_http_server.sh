#!/usr/bin/env bash
# test/t_http_server.sh: hroe's in-server HTTP endpoint (src/http/http_server.c,
# doc/gateway.md "In-server HTTP workers"), on a cluster of its own
# (test/lib_cluster.sh) started with hroe.http_port set:
# - the clients hroe-gateway's tests run, unchanged, against the workers:
#   boto3's scenario, the JavaScript SDK v3's, the malformed HTTP and bodies
#   (test/gateway/http_checks.py) and every authentication and authorization
#   check (test/gateway/auth_checks.sh);
# - the requests ran in the workers' backends (pg_stat_activity), the access
#   log lines are in the server log and no secret is;
# - hroe.http_statement_timeout bounds a request blocked on a row lock: a retryable 500,
#   and the worker answers the next one;
# - a fast shutdown under 4 signed writers: no acknowledged write lost, every
#   counter in range, every failure retryable, and the endpoint serves again
#   after the restart;
# - HTTPS with hroe.http_tls_cert/key; plain HTTP refused on an address that
#   is not loopback;
# - kill -9 of a worker: PostgreSQL restarts its backends (the cost of a
#   server inside the server) and the endpoint serves again;
# - a second server configured with the same port does not start workers
#   there (SO_REUSEPORT would otherwise split the connections between them).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
port=${HROE_CLUSTER_PORT:-5830}
db=hroe_http
cluster_init http "$port" || exit 1
cluster_start http || exit 1
export PGHOST=$CLUSTER_WORK/http PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
http_port=$(gw_free_port) || exit 1
GW_URL=http://127.0.0.1:$http_port
log=$CLUSTER_WORK/http/server.log

# http_start [OPT...]: restart the cluster with the endpoint (and OPTs), wait
# until GET / answers at $GW_URL
http_start() {
	cluster_stop http
	cluster_start http -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
		-c hroe.http_database="$db" -c hroe.http_workers=2 -c hroe.http_log_requests=on \
		-c hroe.http_statement_timeout=3s "$@" || return 1
	for _ in $(seq 1 150); do
		curl -sk -o /dev/null "$GW_URL/" && return 0
		sleep 0.1
	done
	echo "the HTTP workers did not start:"
	tail -20 "$log" | sed 's/^/    /'
	return 1
}

http_start || exit 1
gw_env
check "GET /: DynamoDB's health text" has '^healthy: dynamodb.us-east-1.amazonaws.com $' curl -s "$GW_URL/"
check "boto3 scenario (test/gateway/boto3_scenario.py)" /usr/bin/python3 test/gateway/boto3_scenario.py "$GW_URL"
if [ ! -d test/gateway/node_modules/@aws-sdk/client-dynamodb ] ||
	[ test/gateway/package-lock.json -nt test/gateway/node_modules/.package-lock.json ]; then
	(cd test/gateway && npm ci --no-audit --no-fund --loglevel=error) || { echo "FAIL npm ci"; exit 1; }
fi
check "JavaScript SDK v3 scenario (test/gateway/sdk_v3.mjs)" node test/gateway/sdk_v3.mjs "$GW_URL"
check "malformed HTTP and bodies (test/gateway/http_checks.py)" /usr/bin/python3 test/gateway/http_checks.py "$GW_URL"
check "the requests ran in the workers' backends, as the login role" has '^2\|hroe_gw_login$' \
	psql -XAtq -d "$db" -c "SELECT count(*) || '|' || min(usename) FROM pg_stat_activity WHERE backend_type = 'hroe http'"
grep 'hroe http: ' "$log" | head -3
check "the access log is in the server log" grep -qE 'hroe http: 127\.0\.0\.1 gwtestkey PutItem 200 - [0-9.]+ms' "$log"

# hroe.http_statement_timeout (3 s here) ends a request waiting on a lock
raw CreateTable '{"TableName": "locked", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
raw PutItem '{"TableName": "locked", "Item": {"pk": {"S": "k"}, "n": {"N": "1"}}}' >/dev/null
# the workers report their writes to the statistics (pg_stat_user_tables; autovacuum reads them)
raw CreateTable '{"TableName": "statst", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
for i in 1 2 3 4 5; do raw PutItem "{\"TableName\": \"statst\", \"Item\": {\"pk\": {\"S\": \"k$i\"}}}" >/dev/null; done
reported=
for _ in $(seq 1 150); do
	n=$(psql -XAtq -d "$db" -c "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relid = (SELECT relid FROM hroe.tables WHERE table_name = 'statst')")
	[ "${n:-0}" -ge 5 ] && { reported=1; break; }
	sleep 0.1
done
check "the workers' writes reach pg_stat_user_tables (5 inserts seen)" test -n "$reported"
[ -n "$reported" ] || echo "     n_tup_ins seen: ${n:-none}"
psql -XAtq -d "$db" -c "BEGIN; LOCK TABLE gw_app.locked IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT" >/dev/null &
locker=$!
sleep 0.5
check "a request blocked past hroe.http_statement_timeout: 500 InternalServerError (retryable)" has \
	'^500 crc32-ok \{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"\}$' \
	raw UpdateItem '{"TableName": "locked", "Key": {"pk": {"S": "k"}}, "UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}'
wait $locker
check "... nothing applied, and the worker answers the next request" has '^200 .*"n": \{"N": "1"\}' \
	raw GetItem '{"TableName": "locked", "Key": {"pk": {"S": "k"}}, "ConsistentRead": true}'
check "... the timeout is in the server log" grep -q 'canceling statement due to statement timeout' "$log"

# a fast shutdown under signed writers
raw CreateTable '{"TableName": "wtab", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
client writes wtab "$GW_WORK/writes.log" 4 "$GW_WORK/stop" &
writers=$!
sleep 2
check "fast shutdown under 4 writers" cluster_stop http fast
sleep 1
http_start || exit 1
sleep 2
touch "$GW_WORK/stop"
wait $writers
check "writes acknowledged before and after the restart" test "$(grep -c ' ok ' "$GW_WORK/writes.log")" -gt 40
check "no acknowledged write lost, counters in range, failures retryable" \
	client verify wtab "$GW_WORK/writes.log"
sed 's/^/     /' "$GW_WORK/check.out" | grep -v '^     counter'

# HTTPS
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$GW_WORK/key.pem" -out "$GW_WORK/cert.pem" \
	-days 1 -subj /CN=127.0.0.1 >/dev/null 2>&1
chmod 644 "$GW_WORK/key.pem" "$GW_WORK/cert.pem"
GW_URL=https://127.0.0.1:$http_port
http_start -c hroe.http_tls_cert="$GW_WORK/cert.pem" -c hroe.http_tls_key="$GW_WORK/key.pem" || exit 1
check "HTTPS: a signed ListTables" has '^200 crc32-ok \{"TableNames":\[' raw ListTables '{}'
check "HTTPS: plain HTTP on the port gets no answer" bash -c "! curl -s -m 2 http://127.0.0.1:$http_port/ | grep -q healthy"
GW_URL=http://127.0.0.1:$http_port

# plain HTTP off loopback is refused
cluster_stop http
cluster_start http -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_listen=0.0.0.0 || exit 1
for _ in $(seq 1 50); do grep -q 'refusing plain HTTP on 0.0.0.0' "$log" && break; sleep 0.1; done
check "plain HTTP on 0.0.0.0: the workers refuse to listen" grep -q 'refusing plain HTTP on 0.0.0.0, which is not a loopback address' "$log"
check "... and nothing answers" bash -c "! curl -s -m 2 http://127.0.0.1:$http_port/"

# kill -9 of a worker
http_start || exit 1
# only this cluster's worker: the postmaster's own child, not another cluster's on the machine
postmaster=$(head -1 "$CLUSTER_WORK/http/data/postmaster.pid")
check "kill -9 of a worker" pkill -9 -P "$postmaster" -f "hroe http worker 1"
served=
for _ in $(seq 1 200); do
	raw ListTables '{}' 2>/dev/null | grep -q '^200 ' && { served=1; break; }
	sleep 0.1
done
check "... PostgreSQL restarts its backends and the endpoint serves again" test -n "$served"
check "... the restart is in the server log" grep -q 'terminated by signal 9: Killed' "$log"

# a second server configured with the same port does not share it (its
# workers would answer a share of the connections from another database)
cluster_init other $((port + 1)) || exit 1
cluster_start other -c hroe.http_port="$http_port" -c hroe.http_role=postgres || exit 1
for _ in $(seq 1 50); do grep -q 'not starting the HTTP workers' "$CLUSTER_WORK/other/server.log" && break; sleep 0.1; done
check "a second server on the same port: its workers are not started" \
	grep -q "hroe http: not starting the HTTP workers: could not bind 127.0.0.1 port $http_port" "$CLUSTER_WORK/other/server.log"
check "... and every request still reaches the first server's database" bash -c "
	for i in 1 2 3 4 5 6 7 8; do /usr/bin/python3 test/gateway/raw.py '$GW_URL' send ListTables '{}' | grep -q '\"wtab\"' || exit 1; done"
cluster_stop other

# authentication and authorization (last: revokes the test's key)
. test/gateway/auth_checks.sh
check "no secret in the server log" bash -c "! grep -q -e '$GW_SECRET' -e oldsecret -e newsecret '$log'"
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
