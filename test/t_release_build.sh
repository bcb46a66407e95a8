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
echo "hroe builds without assertions (-Wall -Wextra -Werror)"
