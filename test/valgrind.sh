#!/usr/bin/env bash
# test/valgrind.sh [TEST...]: runs pg_regress test files (default: the
# expression tests) through a single-user backend under valgrind (memcheck),
# with hroe built with assertions and staged privately.  Prints valgrind's
# error summary; exits non-zero if valgrind reports any error.  psql
# meta-commands are dropped and every statement ends with ";" and an empty
# line, outside $$ bodies (single-user mode with -j reads plain SQL that way), so compare
# results with expected/ only loosely; the point is memory errors.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(expression_condition expression_update expression_projection expression_dynalite)
build_stage ASSERTS=1
work=$(mktemp -d /tmp/hroe-valgrind.XXXXXX)
chmod 755 "$work"
trap '[ -n "${HROE_VALGRIND_KEEP:-}" ] || rm -rf "$work"; rm -rf "$HROE_STAGE"' EXIT
bindir=$(pg_config --bindir)
if [ "$(id -u)" -eq 0 ]; then run=(runuser -u postgres --); chown postgres "$work"; else run=(); fi
"${run[@]}" "$bindir/initdb" -D "$work/data" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
{
	echo "CREATE EXTENSION hroe_hr CASCADE;"
	# a statement ends at a ";" at the end of a line outside dollar quotes
	# (a function body's ";" does not end it)
	for t in "${tests[@]}"; do
		grep -v '^\\' "sql/$t.sql" | awk '{ n = gsub(/\$\$/, "&"); if (n % 2) q = !q; print; if (!q && /;[ \t]*$/) print "" }'
	done
} >"$work/input.sql"
chmod 644 "$work/input.sql"
rc=0
"${run[@]}" valgrind --quiet --error-exitcode=99 --leak-check=no --track-origins=yes \
	--suppressions="$PWD/test/valgrind.supp" \
	--log-file="$work/valgrind.log" \
	"$bindir/postgres" --single -j -D "$work/data" -c extension_destdir="$HROE_STAGE" -c track_commit_timestamp=on \
	postgres <"$work/input.sql" >"$work/output.txt" 2>&1 || rc=$?
echo "statements: $(grep -c ';$' "$work/input.sql"), errors reported by the backend: $(grep -c 'ERROR:' "$work/output.txt") (output: $work/output.txt)"
echo "valgrind log:"
cat "$work/valgrind.log"
if [ "$rc" -eq 99 ] || [ -s "$work/valgrind.log" ]; then
	echo "valgrind found errors"
	exit 1
fi
echo "valgrind: no errors (backend exit code $rc)"
