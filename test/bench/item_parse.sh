#!/usr/bin/env bash
# test/bench/item_parse.sh [TREE ...]: hroe.item's text input outside the
# server, on one ~90 KB item of 300 S attributes parsed N times (ITEM_PARSE_N,
# default 2000), plain strings (the reader's fast path) and strings with
# escapes.  Builds test/bench/item_parse.c with each source TREE's item core
# (default: this one; give an older checkout too to compare, e.g. a
# `git worktree add /tmp/old main`) and test/fuzz/shim.c, at -O2 as the
# server's build.  Prints a Markdown table: the throughput (wall clock, noisy
# on a shared machine) and, with valgrind installed, the instructions one
# run of 100 parses executes (callgrind; exact, the figure to compare).
# Needs no cluster; `bash test/bench/run.sh item_parse` runs it like the rest.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=("$here/../..")
n=${ITEM_PARSE_N:-2000}
inc=$(pg_config --includedir-server)
libdir=$(pg_config --pkglibdir)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| tree | strings | MB/s | instructions (100 parses) |"
echo "|---|---|---:|---:|"
i=0
for tree in "${trees[@]}"; do
	tree=$(cd "$tree" && pwd)
	bin=$work/item_parse.$i
	i=$((i + 1))
	core=()
	for f in item_node.c item_number.c item_json_read.c item_json_tree.c item_json_write.c item_binary.c collection_io.c; do
		core+=("$tree/src/types/$f")
	done
	gcc -O2 -w -I"$tree/src" $(for d in "$tree"/src/*/; do printf -- "-I%s " "${d%/}"; done) \
		-I"$tree/test/fuzz" -I"$inc" "${core[@]}" "$tree/test/fuzz/shim.c" "$here/item_parse.c" \
		-L"$libdir" -lpgcommon -lpgport -lm -o "$bin"
	for esc in 0 1; do
		rate=$("$bin" "$n" "$esc" | sed 's/.*: \([0-9.]*\) MB\/s/\1/')
		ir=-
		if command -v valgrind >/dev/null 2>&1; then
			ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" 100 "$esc" 2>&1 |
				sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
		fi
		echo "| $tree | $([ "$esc" = 1 ] && echo "with escapes" || echo plain) | $rate | $ir |"
	done
done
