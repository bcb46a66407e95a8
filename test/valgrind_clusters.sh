#!/usr/bin/env bash
# test/valgrind_clusters.sh TEST.sh...: shell tests whose servers are
# test/lib_cluster.sh's clusters (t_partition_remote.sh: hroe's own remote
# read path on a coordinator and its partition servers; t_s3_api.sh,
# t_vectors_http.sh...) with every server of theirs under valgrind memcheck
# (leak checking of malloc'ed memory: libpq's results, OpenSSL, zlib...).
# Builds hroe with assertions into a private stage, puts a directory of the
# server's programs first as CLUSTER_BIN (pg_ctl copied, so that it starts
# the postgres beside it: a wrapper that runs the real one under valgrind;
# backends and workers are forks, which valgrind follows), runs the tests,
# then prints valgrind's errors and definite leaks over all processes.
# Exits non-zero if a test failed or valgrind reported anything.  Everything
# runs under valgrind: minutes, and a test's own time bounds may not hold.
# A developer command, not part of the suite.  HROE_VALGRIND_KEEP keeps the
# logs; HROE_VALGRIND_TIMEOUT bounds each test (seconds, default 1200).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
[ $# -gt 0 ] || { echo "usage: $0 TEST.sh..." >&2; exit 2; }
build_stage ASSERTS=1 || exit 1
export HROE_STAGE
work=$(mktemp -d /tmp/hroe-valgrind-clusters.XXXXXX)
trap '[ -n "${HROE_VALGRIND_KEEP:-}" ] || rm -rf "$work"; rm -rf "$HROE_STAGE"' EXIT
chmod 755 "$work"
mkdir "$work/bin" "$work/logs"
chmod 1777 "$work/logs"
real=$(pg_config --bindir)
for f in "$real"/*; do ln -s "$f" "$work/bin/"; done
rm "$work/bin/postgres" "$work/bin/pg_ctl"
cp "$real/pg_ctl" "$work/bin/pg_ctl"
cat >"$work/bin/postgres" <<EOF
#!/bin/sh
case "\$1" in -V|--version|-C|--describe-config) exec "$real/postgres" "\$@" ;; esac
exec valgrind --quiet --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite \\
	--track-origins=yes --suppressions="$PWD/test/valgrind.supp" --log-file="$work/logs/valgrind.%p.log" \\
	"$real/postgres" "\$@"
EOF
chmod 755 "$work/bin/postgres"
export CLUSTER_BIN=$work/bin
failed=0
for t in "$@"; do
	start=$SECONDS
	if timeout "${HROE_VALGRIND_TIMEOUT:-1200}" bash "test/$t" >"$work/$t.log" 2>&1; then
		echo "shell test $t under valgrind ... ok ($((SECONDS - start)) s)"
	else
		echo "shell test $t under valgrind ... FAILED ($((SECONDS - start)) s)"
		tail -20 "$work/$t.log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
procs=$(find "$work/logs" -name 'valgrind.*.log' | wc -l)
reports=$(cat "$work"/logs/valgrind.*.log 2>/dev/null |
	grep -cE 'definitely lost|Invalid (read|write|free)|uninitialised|Conditional jump|Mismatched|overlap')
for f in $(grep -lE 'definitely lost|Invalid|uninitialised|Conditional jump|Mismatched|overlap' "$work"/logs/valgrind.*.log 2>/dev/null); do
	echo "=== $f"
	head -60 "$f"
done
echo "valgrind: $reports error(s) and definite leak(s) in $procs server process(es) ($work)"
[ "$failed" -eq 0 ] && [ "$reports" -eq 0 ]
