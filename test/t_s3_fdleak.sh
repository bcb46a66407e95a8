#!/usr/bin/env bash
# test/t_s3_fdleak.sh: S3 requests that fail (a key whose directory is a
# file or a symbolic link, a listing deeper than 64 directories) or are
# cancelled by a timeout while an object's MD5 is streamed leave no file
# descriptor open (src/transfer/transfer_files.c, "Resources released on
# error"): many of them in ONE backend through the hroe.s3_* functions, then
# in ONE in-server HTTP worker through S3's API, its open descriptors
# (/proc/PID/fd, read by the server itself with pg_ls_dir) counted before
# and after.  Before the fix each failed request left one to 66 open.
# On a cluster of its own; FDLEAK_ROUNDS (default 100) requests of each kind.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
port=${HROE_CLUSTER_PORT:-5951}
db=hroe_fdleak
rounds=${FDLEAK_ROUNDS:-100}
deep_rounds=$((rounds / 10 > 0 ? rounds / 10 : 1))
slack=3
cluster_init fd "$port" || exit 1
owner=$(stat -c %U "$CLUSTER_WORK/fd/data")
s3=$GW_WORK/s3
# the bucket: a file and a symbolic link where a key wants a directory, a
# 1 GiB object (sparse: its MD5 takes seconds, no disk), 66 nested directories
mkdir -p "$s3/fdleak/big" "$GW_WORK/elsewhere"
echo x >"$s3/fdleak/blocker"
ln -s "$GW_WORK/elsewhere" "$s3/fdleak/link"
truncate -s 1G "$s3/fdleak/big/obj"
mkdir -p "$s3/fdleak/deep$(printf '/d%.0s' $(seq 1 66))"
chown -R "$owner" "$s3"
cluster_start fd -c hroe.s3_root="$s3" || exit 1
export PGHOST=$CLUSTER_WORK/fd PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
gw_grant_transfer_roles || exit 1

# sql_rounds N M: N rounds of the failing statements (each PutObject, a
# listing cut by statement_timeout), M listings too deep
sql_rounds() {
	local i
	for i in $(seq 1 "$1"); do
		echo "SELECT hroe.s3_put_object('fdleak', 'blocker/k$i', 'x');"
		echo "SELECT hroe.s3_put_object('fdleak', 'link/k$i', 'x');"
		echo "SET statement_timeout = '20ms';"
		echo "SELECT count(*) FROM hroe.s3_list_objects('fdleak', 'big/');"
		echo "RESET statement_timeout;"
	done
	for i in $(seq 1 "$2"); do
		echo "SELECT count(*) FROM hroe.s3_list_objects('fdleak', 'deep/');"
	done
}
{
	# (one round first: what the session opens once, its catalogs' files, is open before the count)
	sql_rounds 1 1
	echo "SELECT count(*) AS before FROM pg_catalog.pg_ls_dir('/proc/self/fd') \\gset"
	sql_rounds "$rounds" "$deep_rounds"
	echo "SELECT count(*) - :before FROM pg_catalog.pg_ls_dir('/proc/self/fd');"
} >"$GW_WORK/rounds.sql"
growth=$(psql -XAtq -d "$db" -f "$GW_WORK/rounds.sql" 2>"$GW_WORK/sql.err" | tail -n 1)
errs() { grep -c "$1" "$GW_WORK/sql.err"; }
echo "# one backend: $((rounds + 1)) x 2 PutObject under a file or a link ($(errs 'leaves its bucket') errors)," \
	"$((rounds + 1)) listings cancelled ($(errs 'statement timeout')), $((deep_rounds + 1)) too deep ($(errs 'deeper than 64')):" \
	"$growth more descriptors open"
check "SQL functions: each PutObject under a file or a symbolic link failed" test "$(errs 'leaves its bucket')" -eq $((2 * (rounds + 1)))
check "SQL functions: each listing deeper than 64 directories failed" test "$(errs 'deeper than 64')" -eq $((deep_rounds + 1))
check "SQL functions: listings cancelled by statement_timeout" test "$(errs 'statement timeout')" -gt 0
check "SQL functions: one backend's open descriptors did not grow (by $growth)" test "${growth:-999}" -le $slack

# the in-server worker (one, so every request is its), a 20 ms timeout per request
http_port=$(gw_free_port) || exit 1
GW_URL=http://127.0.0.1:$http_port
cluster_stop fd
cluster_start fd -c hroe.s3_root="$s3" -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_workers=1 -c hroe.http_statement_timeout=20ms || exit 1
for _ in $(seq 1 150); do
	curl -sk -o /dev/null "$GW_URL/" && break
	sleep 0.1
done
gw_env
worker_fds() {
	psql -XAtq -d postgres -c "SELECT count(*) FROM pg_catalog.pg_ls_dir('/proc/' || (SELECT pid FROM pg_catalog.pg_stat_activity
		WHERE backend_type = 'hroe http') || '/fd')"
}
http_rounds() { # rounds deep_rounds: the S3 error codes answered, counted
	/usr/bin/python3 - "$GW_URL" "$1" "$2" <<-'PY'
		import collections, sys
		import boto3, botocore
		from botocore.config import Config
		url, rounds, deep = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
		s3 = boto3.client("s3", endpoint_url=url,
		                  config=Config(s3={"addressing_style": "path"}, retries={"total_max_attempts": 1}))
		codes = collections.Counter()
		def call(kind, f, **kw):
		    try:
		        f(**kw)
		        codes[kind + ":ok"] += 1
		    except botocore.exceptions.ClientError as e:
		        codes[kind + ":" + e.response["Error"]["Code"]] += 1
		for i in range(rounds):
		    call("put", s3.put_object, Bucket="fdleak", Key="blocker/k%d" % i, Body=b"x")
		    call("put", s3.put_object, Bucket="fdleak", Key="link/k%d" % i, Body=b"x")
		    call("list", s3.list_objects_v2, Bucket="fdleak", Prefix="big/")
		for i in range(deep):
		    call("deep", s3.list_objects_v2, Bucket="fdleak", Prefix="deep/")
		print(" ".join("%s=%d" % kv for kv in sorted(codes.items())))
	PY
}
http_rounds 1 1 >/dev/null
before=$(worker_fds)
answers=$(http_rounds "$rounds" "$deep_rounds")
# (the client's connection closed by the worker once the client is gone)
for _ in $(seq 1 20); do
	after=$(worker_fds)
	[ $((after - before)) -le $slack ] && break
	sleep 0.1
done
echo "# in-server worker: $answers; descriptors $before before, $after after"
check "HTTP worker: each PutObject under a file or a symbolic link answered AccessDenied" \
	grep -q "put:AccessDenied=$((2 * rounds))" <<<"$answers"
check "HTTP worker: each listing deeper than 64 directories answered InternalError" \
	grep -q "deep:InternalError=$deep_rounds" <<<"$answers"
check "HTTP worker: listings cut by hroe.http_statement_timeout (SlowDown)" grep -q "list:SlowDown=" <<<"$answers"
check "HTTP worker: its open descriptors did not grow ($before, then $after)" test $((after - before)) -le $slack
[ "$GW_FAILURES" -eq 0 ] || { echo "$GW_FAILURES check(s) failed"; exit 1; }
