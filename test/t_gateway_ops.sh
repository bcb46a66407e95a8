#!/usr/bin/env bash
# test/t_gateway_ops.sh: hroe-gateway in production conditions: a full pool
# answers ThrottlingException at once, a request past statement_timeout
# answers a retryable 500, connections killed by PostgreSQL are replaced
# without a failed request, SIGTERM lets a running request finish, TLS with
# a given certificate, plain HTTP refused beyond loopback, the config file.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
gw_setup hroe_gw_ops || exit 1
gw_env
KEY_A='{"TableName": "ops_t", "Key": {"pk": {"S": "a"}}}'
ITEM_A='{"TableName": "ops_t", "Item": {"pk": {"S": "a"}, "v": {"N": "1"}}}'
# wait_until SQL: until the query answers t (at most 30 s); no fixed sleeps,
# which a loaded machine outruns
wait_until() {
	for _ in $(seq 1 300); do
		[ "$(psql -XAtq -d hroe_gw_ops -c "$1")" = t ] && return 0
		sleep 0.1
	done
	echo "timed out waiting for: $1"
	return 1
}
# lock_rows SECONDS: hold every row of ops_t locked for that long (in the
# background, LOCK_PID; never a bare wait: the gateway is a child too)
lock_rows() {
	psql -XAtq -d hroe_gw_ops -c "BEGIN" -c "SELECT pk FROM gw_app.ops_t FOR UPDATE" \
		-c "SELECT pg_sleep($1)" -c "COMMIT" >/dev/null &
	LOCK_PID=$!
	wait_until "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE query = 'SELECT pg_sleep($1)' AND state = 'active')"
}

# one connection, no queue, 1.5 s per statement
gw_start hroe_gw_ops --pool-size 1 --queue-size 0 --statement-timeout 1500 || exit 1
check "CreateTable, PutItem" has '^200 ' bash -c "
	/usr/bin/python3 test/gateway/raw.py $GW_URL send CreateTable '{\"TableName\": \"ops_t\", \"BillingMode\": \"PAY_PER_REQUEST\", \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}]}' &&
	/usr/bin/python3 test/gateway/raw.py $GW_URL send PutItem '$ITEM_A'"
lock_rows 3
raw PutItem "$ITEM_A" >"$GW_WORK/blocked.out" 2>&1 &
blocked=$!
wait_until "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE application_name = 'hroe-gateway' AND wait_event_type = 'Lock')"
check "pool busy, queue 0: ThrottlingException at once" has \
	'^400 crc32-ok \{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."\}$' \
	raw GetItem "$KEY_A"
wait $blocked
check "a request past statement_timeout: 500 InternalServerError (retryable)" has \
	'^500 crc32-ok \{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"Internal server error"\}$' \
	cat "$GW_WORK/blocked.out"
wait $LOCK_PID
check "the pool serves again" has '^200 ' raw GetItem "$KEY_A"

# PostgreSQL ends the gateway's connections (as a restart does)
check "connections terminated by PostgreSQL" has '^t' psql -XAtq -d postgres -c \
	"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'hroe-gateway'"
sleep 0.3
check "next request: 200 on a new connection (the dead one was never used)" has '^200 .*"Item"' raw GetItem "$KEY_A"
check "access log: the only 500 is the timed-out request" has '^1$' bash -c "grep -c ' 500 ' $GW_WORK/access.log"

# a real restart of the cluster: requests during the outage get a retryable
# 500 at once; after it, the pool reconnects without a failed request
check "PostgreSQL stopped" pg_ctlcluster "$PGVERSION" regress stop -m fast
check "a request while PostgreSQL is down: 500 InternalServerError at once" has \
	'^500 crc32-ok \{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError"' raw GetItem "$KEY_A"
check "PostgreSQL started again" pg_ctlcluster "$PGVERSION" regress start
check "after the restart: 200" has '^200 .*"Item"' raw GetItem "$KEY_A"

# SIGTERM while a request waits for a lock: it finishes, then the exit
# (a gateway without the short statement timeout: the lock is held until
# after the signal, however slowly a loaded machine gets there)
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))
gw_start hroe_gw_ops --pool-size 1 --statement-timeout 60000 || exit 1
lock_rows 60
raw PutItem "$ITEM_A" --print-connection >"$GW_WORK/inflight.out" 2>&1 &
inflight=$!
# the PutItem is in flight once the gateway's backend waits for the lock
wait_until "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE application_name = 'hroe-gateway' AND wait_event_type = 'Lock')"
kill -TERM "$GW_PID"
sleep 0.5
# the lock released: the locker's sleep cancelled, its transaction ends
psql -XAtq -d hroe_gw_ops -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)'" >/dev/null
wait $inflight
check "SIGTERM during a request: the request completes (200)" has '^200 ' cat "$GW_WORK/inflight.out"
check "a response during shutdown says Connection: close (the client takes its next request elsewhere)" \
	has '^connection: close$' cat "$GW_WORK/inflight.out"
wait "$GW_PID"
rc=$?
GW_PID=
check "... and the gateway exits 0" test $rc -eq 0
wait $LOCK_PID

# TLS with a given certificate and key
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$GW_WORK/key.pem" -out "$GW_WORK/cert.pem" \
	-days 1 -subj /CN=localhost >/dev/null 2>&1
gw_start hroe_gw_ops --tls-cert "$GW_WORK/cert.pem" --tls-key "$GW_WORK/key.pem" || exit 1
check "TLS: GET / over https" has 'healthy: dynamodb' curl -sk "$GW_URL/"
check "TLS: a signed request over https" has '^200 .*"Item"' raw GetItem "$KEY_A"
check "TLS: plain HTTP on the TLS port is not answered" bash -c "! curl -s --max-time 3 ${GW_URL/https/http}/"
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# plain HTTP beyond loopback needs --allow-plain-http
check "plain HTTP on 0.0.0.0 refused without --allow-plain-http" expect_error 'refusing plain HTTP' \
	timeout 5 "$GW_BIN" --listen 0.0.0.0 --port 8009 --dbname "dbname=hroe_gw_ops"

# the config file; the command line wins
cat >"$GW_WORK/gateway.conf" <<-CONF
	# hroe-gateway settings
	pool-size = 2
	region = eu-west-3
	queue-timeout = 500
CONF
gw_start hroe_gw_ops --config "$GW_WORK/gateway.conf" || exit 1
check "config file: region from the file" has 'dynamodb.eu-west-3.amazonaws.com' curl -s "$GW_URL/"
check "config file: a request" has '^200 ' raw GetItem "$KEY_A"
mv "$GW_WORK/access.log" "$GW_WORK/access.log.1"
kill -HUP "$GW_PID"
sleep 0.2
raw GetItem "$KEY_A" >/dev/null
check "SIGHUP reopens the access log (logrotate)" has ' GetItem 200 ' cat "$GW_WORK/access.log"
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))
check "bad setting: a clear error" expect_error 'unknown option "--pool-sise"' "$GW_BIN" --pool-sise 3
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
