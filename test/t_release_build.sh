#!/usr/bin/env bash
# test/t_release_build.sh: hroe builds as the README's main command and a
# user's "make install" build it, without assertions, warnings still errors.
# The suite itself runs an assertion build (ASSERTS=1), where code used only
# by an Assert compiles differently; this builds a copy of the sources
# without it, so the tree being tested is left alone.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the sources as checked out (git's files, or every file outside a checkout)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work" 2>/dev/null
else
	cp -r . "$work"
fi
if ! make -s -C "$work" -j2 >"$work/build.log" 2>&1; then
	echo "the build without assertions failed:"
	cat "$work/build.log"
	exit 1
fi
if [ ! -f "$work/hroe.so" ]; then
	echo "the build without assertions made no hroe.so"
	exit 1
fi
if nm -D "$work/hroe.so" | grep -q ExceptionalCondition; then
	echo "hroe.so was built with assertions"
	exit 1
fi
# hroe.so exports only what PostgreSQL looks up, under hroe's prefix or
# PostgreSQL's (hroe_, pg_, _PG_, Pg_magic_func); other exported names
# could clash with another library's in the server.  (The C names of the
# earlier releases' install scripts are in a library built with
# make HROE_LEGACY=1 only, src/legacy/; test/t_upgrade.sh uses it.)
others=$(nm -D --defined-only "$work/hroe.so" | awk 'NF == 3 {print $3}' |
	grep -v -e '^hroe_' -e '^pg_' -e '^_PG_' -e '^Pg_magic_func$' | sort -u)
if [ -n "$others" ]; then
	echo "hroe.so exports $(echo "$others" | wc -l) symbol(s) without hroe's prefix:"
	echo "$others" | sed 's/^/    /'
	exit 1
fi
echo "hroe builds without assertions (-Wall -Wextra -Werror); hroe.so exports $(nm -D --defined-only "$work/hroe.so" | awk 'NF == 3' | wc -l) symbols, all hroe_/pg_/_PG_"
