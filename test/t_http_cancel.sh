#!/usr/bin/env bash
# test/t_http_cancel.sh: an in-server HTTP worker drops a cancel that arrives
# between requests (issue 29, item 4), as PostgreSQL's main loop drops one
# that arrives while it reads the next command.  A statement timeout that
# fires after a request's last interrupt check, or pg_cancel_backend() on an
# idle worker, left QueryCancelPending set, and the next, unrelated request
# failed with 500 "canceling statement due to user request".  Also: the
# malformed-HTTP checks the gateway's tests run (conflicting Content-Length
# among them), and libmicrohttpd's messages rate-limited in the server log.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
dos_setup
dos_workers
GW_URL=$DOS_WORKERS_URL
get='{"TableName": "probe", "Key": {"pk": {"S": "probe"}}}'
check "a request before the cancel: 200" has '^200 ' raw GetItem "$get"
for round in 1 2 3; do
	cluster_psql dos -d "$DOS_DB" -c "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE backend_type = 'hroe http'" >/dev/null
	sleep 0.3
	# ListTables runs a query (GetItem may pass no interrupt check, and the
	# cancel then waited for the next request that does)
	check "pg_cancel_backend on the idle worker ($round), then ListTables: 200, not 500" \
		has '^200 ' raw ListTables '{}'
	check "... and GetItem: 200" has '^200 ' raw GetItem "$get"
done
check "malformed HTTP and bodies (test/gateway/http_checks.py)" \
	/usr/bin/python3 test/gateway/http_checks.py "$DOS_WORKERS_URL"
# 2 s of connections abandoned mid-request (thousands): libmicrohttpd logs
# each; a few lines get through, then one line counts the others
before=$(grep -c 'hroe http: ' "$CLUSTER_WORK/dos/server.log")
/usr/bin/python3 test/gateway/attack.py "$DOS_WORKERS_URL" churn --conns 20 --seconds 2 >"$GW_WORK/churn.out"
sleep 1
after=$(grep -c 'hroe http: ' "$CLUSTER_WORK/dos/server.log")
cat "$GW_WORK/churn.out"
check "abandoned connections: libmicrohttpd's messages rate-limited ($((after - before)) lines)" \
	test $((after - before)) -le 20
# within the next interval (10 s), one line counts those left out
for _ in $(seq 1 24); do
	grep -q 'more messages of the HTTP server in the last' "$CLUSTER_WORK/dos/server.log" && break
	sleep 0.5
done
check "... and one line counts the messages left out" \
	grep -q 'more messages of the HTTP server in the last' "$CLUSTER_WORK/dos/server.log"
dos_finish
