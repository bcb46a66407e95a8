#!/usr/bin/env bash
# test/valgrind_http.sh: hroe's in-server HTTP workers under valgrind
# (memcheck, with leak checking of what the protocol's code allocates with
# malloc).  Builds hroe with assertions into a private stage, starts a
# PostgreSQL 15 server under valgrind (its backends and workers are forks of
# the postmaster, so valgrind follows them) with one HTTP worker, sets up the
# gateway tests' roles and keys, drives the worker with the malformed-HTTP
# checks (test/gateway/http_checks.py), the boto3 scenario, the
# authentication checks and S3's API (test/s3_api_client.py, under
# hroe.s3_root in the work directory), stops the server, and prints the
# worker's error summary and the number of requests it served.
# HROE_VALGRIND_REGRESS="vectors transfer ..." first runs those pg_regress
# files against the same server (their background workers, such as a vector
# index build or an export, under valgrind too; compare results loosely:
# what counts is valgrind's report).  Exits non-zero if valgrind reports an error or a definite leak
# in any process.  A developer command (minutes: everything runs under
# valgrind), not part of the suite.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
build_stage ASSERTS=1 || exit 1
work=$(mktemp -d /tmp/hroe-valgrind-http.XXXXXX)
chmod 755 "$work"
trap '[ -n "${HROE_VALGRIND_KEEP:-}" ] || rm -rf "$work"; rm -rf "$HROE_STAGE"' EXIT
bindir=$(pg_config --bindir)
if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); chown postgres "$work"; else run=(); fi
port=${HROE_PGPORT:-5899}
http_port=${HROE_HTTP_PORT:-8899}
"${run[@]}" "$bindir/initdb" -D "$work/data" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
mkdir "$work/s3"
[ "$(id -u)" -eq 0 ] && chown postgres "$work/s3"
"${run[@]}" valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \
	--track-origins=yes --suppressions="$PWD/test/valgrind.supp" --log-file="$work/valgrind.%p.log" \
	"$bindir/postgres" -D "$work/data" -p "$port" -c listen_addresses='' -c unix_socket_directories="$work" \
	-c extension_destdir="$HROE_STAGE" -c hroe.s3_root="$work/s3" -c track_commit_timestamp=on \
	-c shared_preload_libraries="$HROE_STAGE$(pg_config --pkglibdir)/hroe.so" \
	-c hroe.http_port="$http_port" -c hroe.http_workers=1 -c hroe.http_database=hroe_gw_vg \
	-c hroe.http_role=hroe_gw_login -c hroe.http_log_requests=on >"$work/server.log" 2>&1 &
export PGHOST=$work PGPORT=$port PGUSER=postgres
for _ in $(seq 1 600); do psql -XAtq -d postgres -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done
. test/gateway/lib.sh
# the postmaster (runuser does not pass signals on): SIGINT, a fast shutdown
stop_server() {
	local pm
	pm=$(head -1 "$work/data/postmaster.pid" 2>/dev/null) || return 0
	kill -INT "$pm" 2>/dev/null
	while kill -0 "$pm" 2>/dev/null; do sleep 0.5; done
}
trap 'GW_DB=; gw_cleanup; stop_server; [ -n "${HROE_VALGRIND_KEEP:-}" ] || rm -rf "$work"; rm -rf "$HROE_STAGE"' EXIT
if [ -n "${HROE_VALGRIND_REGRESS:-}" ]; then
	make -s installcheck ASSERTS=1 REGRESS="$HROE_VALGRIND_REGRESS" ISOLATION= >"$work/regress.log" 2>&1
	grep -E '^(ok|not ok| *[a-z_]+ +\.\.\.)|\.\.\. (ok|FAILED)' "$work/regress.log"
	echo "pg_regress statements: $(for t in $HROE_VALGRIND_REGRESS; do grep -c ';[[:space:]]*$' "sql/$t.sql"; done | paste -sd+ | bc)"
fi
gw_setup hroe_gw_vg || exit 1
GW_URL=http://127.0.0.1:$http_port
for _ in $(seq 1 600); do curl -s -o /dev/null "$GW_URL/" && break; sleep 0.2; done
gw_env
check "malformed HTTP and bodies" /usr/bin/python3 test/gateway/http_checks.py "$GW_URL"
check "boto3 scenario" /usr/bin/python3 test/gateway/boto3_scenario.py "$GW_URL"
# (before the authentication checks, which revoke the key)
gw_grant_transfer_roles
check "S3's API (test/s3_api_client.py)" /usr/bin/python3 test/s3_api_client.py "$GW_URL"
. test/gateway/auth_checks.sh
worker=$(psql -XAtq -d postgres -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'hroe http'")
stop_server
echo "the worker (pid $worker), valgrind's report:"
cat "$work/valgrind.$worker.log" 2>/dev/null
reports=$(cat "$work"/valgrind.*.log |
	grep -cE 'definitely lost|Invalid (read|write|free)|uninitialised|Conditional jump|Mismatched|overlap')
echo "valgrind's errors and definite leaks in all processes: $reports ($work)"
echo "requests the worker served: $(grep -c 'hroe http: ' "$work/server.log")"
echo "$GW_FAILURES check failures"
[ "$reports" -eq 0 ] && [ "$GW_FAILURES" -eq 0 ]
