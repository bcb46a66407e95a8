#!/usr/bin/env bash
# test/sanitize.sh: the whole test suite with hroe built under UBSan + ASan.
#
# Builds hroe with -fsanitize=address,undefined (UB is fatal) and assertions,
# stages it, starts a throwaway cluster, proves that a backend loading hroe
# maps both runtimes and that a deliberate UBSan report reaches the server
# log, runs test/suite.sh, then scans the server log (the backends' stderr)
# for sanitizer reports and dead backends. Ends with "N passed, N failed";
# any report or death counts as one more failure.
#
# What it can and cannot see (the packaged server is not instrumented):
# - The ASan runtime cannot be preloaded into the packaged postmaster: its
#   first malloc happens inside a library constructor that holds glibc's
#   gettext/locale lock (libgpg-error, p11-kit), and ASan's initialisation
#   there deadlocks every PostgreSQL binary (postgres -V hangs). So the
#   runtime is loaded late, with hroe.so (verify_asan_link_order=0): no
#   malloc/longjmp interceptors, hence no heap checks and no stack redzones
#   (asan-stack=0: stale stack poison after elog's longjmp trips ASan's own
#   CHECK). ASan checks hroe's global variables only.
# - UBSan is complete for hroe's code (shifts, division, alignment, bounds of
#   fixed arrays, null, bool/enum loads, pointer overflow...), except signed
#   overflow, which PostgreSQL compiles as defined (-fwrapv).
# - palloc'd memory lives inside memory-context blocks, so neither ASan nor
#   valgrind (the server lacks USE_VALGRIND) sees overruns within a context;
#   leaks of palloc'd memory per row are not leaks to LSan (it is off).
#
# - hroe.so is in shared_preload_libraries, as in test/lib.sh's clusters (its
#   shared memory, workers and settings: without it, a session's first call
#   of hroe.create_table fails on an unrecognized hroe.partition_servers, and
#   contributor insights count nothing). Loaded by the postmaster with
#   dlopen, late, the ASan runtime starts as it does in a backend.
#
# HROE_PGPORT picks the cluster's port; HROE_SANITIZE_LOGS keeps the logs in
# that directory (default: a temporary one, removed unless something failed).
# HROE_SANITIZE_TESTS="vectors s3_api t_s3_api.sh ..." runs only those tests
# instead of test/suite.sh: names ending in .sh are shell tests (test/NAME,
# one after the other, their output in test/out/NAME.log), the others
# pg_regress files (sql/NAME.sql), run in one pg_regress call first.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

HROE_EXTRA_PACKAGES="libasan8 libubsan1 $HROE_SUITE_PACKAGES"
SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined --param asan-stack=0"

fail() {
	echo "$1"
	echo "0 passed, 1 failed"
	exit 1
}

ensure_packages || fail "missing packages"

logs=${HROE_SANITIZE_LOGS:-$(mktemp -d /tmp/hroe-sanitize.XXXXXX)}
mkdir -p "$logs"
logs=$(realpath "$logs")
rm -rf "$logs"/server.log "$logs"/suite.log "$logs"/probe-lines "$logs"/clusters
chmod 1777 "$logs"
# the server logs of the clusters the shell tests start themselves
# (test/lib_cluster.sh copies them here when it removes them)
export HROE_CLUSTER_LOGS=$logs/clusters
mkdir -p "$HROE_CLUSTER_LOGS"
chmod 1777 "$HROE_CLUSTER_LOGS"

# PROFILE goes into both CFLAGS and LDFLAGS in PGXS (Makefile.global)
build_stage ASSERTS=1 SANITIZE=1 PROFILE="$SAN_FLAGS" || fail "build failed"
grep -q __asan_init < <(nm -D hroe.so 2>/dev/null) ||
	fail "hroe.so is not instrumented (no __asan_init)"

# Inside the cluster: the two proofs, the suite, a copy of the server log.
inner="$logs/inner.sh"
cat >"$inner" <<'INNER'
#!/usr/bin/env bash
logs=$1
serverlog=$(ls "${PG_CLUSTER_CONF_ROOT%/postgresql}"/log/*.log)
keep_log() { cp "$serverlog" "$logs/server.log"; }
abort() {
	echo "sanitize: $1"
	echo "0 passed, 1 failed" >test/out/summary
	keep_log
	exit 1
}
mkdir -p test/out
psql -XAtq -c "CREATE EXTENSION hroe" -c "SELECT 'probe'::hroe.key" \
	-c "SELECT DISTINCT substring(l FROM '/\\S*lib(?:a|ub)san\\S*') FROM regexp_split_to_table(pg_read_file('/proc/self/maps'), E'\\n') l WHERE l ~ 'lib(a|ub)san'" \
	-c "DROP EXTENSION hroe" >test/out/sanitize-probe.log 2>&1
grep -q libasan test/out/sanitize-probe.log && grep -q libubsan test/out/sanitize-probe.log ||
	abort "a backend that loaded hroe has no sanitizer runtime mapped: $(cat test/out/sanitize-probe.log)"
echo "sanitize: a backend that loaded hroe maps $(grep san test/out/sanitize-probe.log | tr '\n' ' ')"
# a deliberate shift past the width (signed overflow is defined: -fwrapv)
psql -XAtq -c "CREATE FUNCTION pg_temp.probe(int) RETURNS int AS '\$libdir/hroe', 'hroe_sanitize_probe' LANGUAGE C STRICT" \
	-c "SELECT pg_temp.probe(40)" >/dev/null 2>&1
for i in $(seq 30); do psql -XAtqc "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
grep -q 'runtime error: shift exponent 40' "$serverlog" ||
	abort "the deliberate UBSan report did not reach the server log"
echo "sanitize: the deliberate UBSan report reached the server log: $(grep -m1 'runtime error' "$serverlog")"
# the suite's findings are what the log gains from here on
wc -l <"$serverlog" >"$logs/probe-lines"
if [ -n "${HROE_SANITIZE_TESTS:-}" ]; then
	regress=() shell=() passed=0 failed=0
	for t in $HROE_SANITIZE_TESTS; do
		case $t in
		*.sh) [ -e "test/$t" ] || abort "no test/$t"; shell+=("$t") ;;
		*) [ -e "sql/$t.sql" ] || abort "no sql/$t.sql"; regress+=("$t") ;;
		esac
	done
	if [ ${#regress[@]} -gt 0 ]; then
		make -s installcheck ASSERTS=1 REGRESS="${regress[*]}" ISOLATION= >test/out/installcheck.log 2>&1
		rc=$?
		cat test/out/installcheck.log
		[ $rc -ne 0 ] && [ -f regression.diffs ] && cat regression.diffs
		ok=$(grep -cE '\.\.\. ok' test/out/installcheck.log)
		bad=$(grep -cE '\.\.\. FAILED' test/out/installcheck.log)
		[ $rc -ne 0 ] && [ "$bad" -eq 0 ] && bad=1
		passed=$((passed + ok)) failed=$((failed + bad))
	fi
	for t in "${shell[@]}"; do
		start=$SECONDS
		if bash "test/$t" >"test/out/$t.log" 2>&1; then
			echo "shell test $t ... ok ($((SECONDS - start)) s)"
			passed=$((passed + 1))
		else
			echo "shell test $t ... FAILED ($((SECONDS - start)) s)"
			tail -40 "test/out/$t.log" | sed 's/^/    /'
			failed=$((failed + 1))
		fi
	done
	echo "$passed passed, $failed failed" | tee test/out/summary
	[ "$failed" -eq 0 ]
else
	test/suite.sh
fi
rc=$?
keep_log
exit $rc
INNER
chmod 755 "$inner"

port=${HROE_PGPORT:-$(free_port 5432)}
rm -f test/out/summary
pg_virtualenv -t -v 15 -c "-p $port" \
	-i "--encoding=UTF8 --locale=C.UTF-8" \
	-o "extension_destdir=$HROE_STAGE" \
	-o "shared_preload_libraries=$HROE_STAGE$(pg_config --pkglibdir)/hroe.so" \
	-o "track_commit_timestamp=on" \
	"$inner" "$logs"
if [ -s test/out/summary ]; then
	summary=$(cat test/out/summary)
else
	summary="0 passed, 1 failed"
fi
passed=${summary%% passed*}
failed=${summary#*passed, }
failed=${failed%% failed*}

# Scan what the server log gained after the probe.
pattern='runtime error:|ERROR: AddressSanitizer|AddressSanitizer: CHECK failed|^==[0-9]+==ERROR'
echo
echo "sanitize: scanning the server log ($logs/server.log)"
skip=$(cat "$logs/probe-lines" 2>/dev/null || echo 0)
tail -n +$((skip + 1)) "$logs/server.log" >"$logs/suite.log" 2>/dev/null
reports=$(grep -cE "$pattern" "$logs/suite.log")
hroe_lines=0
if [ "$reports" -gt 0 ]; then
	echo "=== sanitizer reports (with 40 lines of context) ==="
	grep -E -A40 "$pattern" "$logs/suite.log"
	hroe_lines=$(grep -cE '(src|models)/[a-z_]+\.[ch]:[0-9]+|hroe(_hr)?\.so' "$logs/suite.log")
fi
# the tests' own clusters: sanitizer reports only (some of those tests kill
# servers and backends on purpose)
nclusters=$(find "$HROE_CLUSTER_LOGS" -name '*.log' | wc -l)
creports=$(cat "$HROE_CLUSTER_LOGS"/*.log 2>/dev/null | grep -cE "$pattern")
echo "sanitize: $creports sanitizer report(s) in the server logs of the $nclusters cluster(s) the tests started"
if [ "$creports" -gt 0 ]; then
	echo "=== sanitizer reports in the tests' clusters (with 40 lines of context) ==="
	grep -E -A40 "$pattern" "$HROE_CLUSTER_LOGS"/*.log
	reports=$((reports + creports))
fi
# (a parallel worker that raises an ERROR exits with code 1 by design, its
# error reported to the caller: shard_parallel's worker-side error does so;
# the logical replication launcher exits with code 1 whenever the server
# shuts down: at the end of the suite, or a test's restart of the cluster)
died=$(grep -avE 'background worker "(parallel worker|logical replication launcher)" \(PID [0-9]+\) exited with exit code 1$' "$logs/suite.log" |
	grep -aE -A1 'terminated by signal|exited with exit code [1-9]|was terminated by exception' || true)
[ -s "$logs/server.log" ] || echo "sanitize: no server log was saved"
if [ -n "$died" ]; then
	echo "=== backends that died (server log) ==="
	echo "$died"
fi
echo "sanitize: $reports sanitizer report(s) ($hroe_lines line(s) naming hroe code);" \
	"$(printf '%s' "$died" | grep -cE 'terminated by|exited with') backend death(s)"

if [ "$reports" -gt 0 ] || [ -n "$died" ] || [ ! -s "$logs/server.log" ]; then
	failed=$((failed + 1))
	echo "sanitize: logs kept in $logs"
elif [ -z "${HROE_SANITIZE_LOGS:-}" ] && [ "$failed" -eq 0 ]; then
	rm -rf "$logs"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
