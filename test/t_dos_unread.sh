#!/usr/bin/env bash
# test/t_dos_unread.sh: answers never read (issue 29, item 7).  A key allowed
# to read sends BatchGetItem requests with 8 MB answers on 20 connections,
# pipelined, and never reads them.  Each front end keeps at most one answer
# per connection (libmicrohttpd takes a connection's next request only once
# its answer is sent), closes a connection whose answer waits past the send
# timeout, and the oldest unread ones while the unsent answers of the whole
# process pass max-unsent (32 MiB here): the process's memory stays within
# that bound during the attack, goes back down after it (large buffers come
# from mmap: M_MMAP_THRESHOLD), and a signed GetItem is answered meanwhile.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
dos_setup
dos_workers -c hroe.http_max_unsent_mb=32 -c hroe.http_send_timeout=5s
dos_gateway --max-unsent-mb 32 --send-timeout 5
GW_URL=$DOS_WORKERS_URL
raw CreateTable '{"TableName": "big", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
# 20 items of 390 KB (an argument of that size is over the kernel's limit: Python writes them)
/usr/bin/python3 - "$GW_URL" <<'PY' || exit 1
import json, sys
sys.path.insert(0, "test/gateway")
import raw
for i in range(1, 21):
    st, _, body = raw.send(sys.argv[1], "PutItem", json.dumps(
        {"TableName": "big", "Item": {"pk": {"S": "k%d" % i}, "d": {"S": "x" * 390000}}}))
    assert st == 200, (st, body)
PY
batch="{\"RequestItems\": {\"big\": {\"Keys\": [$(seq -f '{"pk": {"S": "k%g"}}' 1 20 | paste -sd,)]}}}"
check "BatchGetItem answers about 8 MB" has '^200 crc32-ok' raw BatchGetItem "$batch"

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
# sample PID's RSS every 0.2 s into FILE until the file STOP exists
sample() {
	local pid=$1 out=$2 max=0 r
	while [ ! -e "$out.stop" ]; do
		r=$(rss_kb "$pid")
		[ "$r" -gt "$max" ] && max=$r
		sleep 0.2
	done
	echo "$max" >"$out"
}
worker_pid=$(cluster_psql dos -d "$DOS_DB" -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'hroe http'")
for fe in workers gateway; do
	url=$DOS_WORKERS_URL pid=$worker_pid
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL pid=$GW_PID
	"${ATTACK[@]}" "$url" probe --count 3 >/dev/null
	base=$(rss_kb "$pid")
	rm -f "$GW_WORK/rss" "$GW_WORK/rss.stop"
	sample "$pid" "$GW_WORK/rss" &
	spid=$!
	# the memory is sampled during the whole attack
	DOS_ATTACK_FULL=1 dos_attack "$fe: 20 connections, 8 MB answers pipelined and never read" "$url" \
		unread --conns 20 --seconds 15 --pipeline 2 --op BatchGetItem --body "$batch"
	touch "$GW_WORK/rss.stop"
	wait $spid
	peak=$(cat "$GW_WORK/rss")
	sleep 1
	after=$(rss_kb "$pid")
	echo "     $fe RSS: idle $((base / 1024)) MB, peak during the attack $((peak / 1024)) MB, after it $((after / 1024)) MB"
	# the unsent answers' 32 MiB, plus the answers being made: the worker's
	# one (the items read, its text, the copy sent: 4 x 8 MB), the gateway's
	# pool's (4 connections, each with its libpq buffer, its result and the
	# response's copy: 12 x 8 MB), and slack for the allocator; the 20 unread
	# answers alone would hold 160 MB (the code before the bound peaked at
	# about 180 MB over idle in both front ends)
	bound=$((32 + 4 * 8 + 8))
	[ $fe = gateway ] && bound=$((32 + 12 * 8 + 16))
	check "$fe: memory during the attack within max-unsent and the answers being made (< $bound MB more)" \
		test $((peak - base)) -lt $((bound * 1024))
	check "$fe: memory given back after the attack (within 48 MB of idle)" test $((after - base)) -lt $((48 * 1024))
done
dos_finish
