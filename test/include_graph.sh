#!/usr/bin/env bash
# test/include_graph.sh [-q]: prints the include graph of hroe's C code
# (src/*.c, src/*.h: each file's includes of hroe's own headers, and the
# graph of modules they make) and fails on an include that goes up the
# layers, on a circle between modules, or on a file no layer declares.
#
# The layers, lowest first (doc/architecture.md: values -> tables -> operations ->
# {JSON API, sharding} -> models); a file may include its own module's
# headers and those of any lower layer, never a higher one, and the modules
# (a header with the files that implement it) must form no circle.  -q
# prints only the verdict.
set -uo pipefail
cd "$(dirname "$0")/.."

# layer module files... (basenames without .c/.h; a trailing * matches a prefix)
LAYERS='
0 base        catalog errors dynamodb_limits
1 key         key key_support
2 item        item item_node item_number item_json_read item_json_tree item_json_write item_binary
3 collection  collection collection_io
4 expression  expression expression_*
4 partiql     partiql partiql_*
5 tables      tables tables_keys tables_arn tables_collection tables_partition direct_write capacity
6 operations  operations operations_* transactions streams ttl
7 api         api api_* gateway_call
7 shard       shard shard_*
8 models      generate
8 http        http_server
9 module      hroe hroe_legacy
'

quiet=false
[ "${1:-}" = -q ] && quiet=true

declare -A layer module
while read -r l m files; do
	[ -n "$l" ] || continue
	for f in $files; do
		layer[$f]=$l
		module[$f]=$m
	done
done <<<"$LAYERS"

# the module and layer of a file's basename (exact names before prefixes)
classify() {
	local b=$1 k
	if [ -n "${module[$b]:-}" ]; then
		echo "${module[$b]} ${layer[$b]}"
		return
	fi
	for k in "${!module[@]}"; do
		case $k in
		*'*') [[ $b == ${k%\*}* ]] && { echo "${module[$k]} ${layer[$k]}"; return; } ;;
		esac
	done
	echo "? ?"
}

failures=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
$quiet || echo "## files (layer module: hroe headers included)"
for f in src/*.c src/*.h; do
	b=$(basename "$f")
	b=${b%.*}
	read -r m l < <(classify "$b")
	if [ "$m" = "?" ]; then
		echo "FAIL $f: in no declared layer (test/include_graph.sh, LAYERS)"
		failures=$((failures + 1))
		continue
	fi
	incs=$(sed -n 's/^#include "\([a-z_]*\)\.h".*/\1/p' "$f" | while read -r h; do
		[ -f "src/$h.h" ] && [ "$h" != "$b" ] && echo "$h"
	done)
	$quiet || printf '%-34s %s %-11s: %s\n' "$f" "$l" "$m" "$(echo $incs)"
	for h in $incs; do
		read -r hm hl < <(classify "$h")
		if [ "$hm" = "?" ]; then
			echo "FAIL $f includes $h.h, in no declared layer"
			failures=$((failures + 1))
		elif [ "$hl" -gt "$l" ]; then
			echo "FAIL $f ($m, layer $l) includes $h.h ($hm, layer $hl): an upward include"
			failures=$((failures + 1))
		fi
		[ "$hm" != "$m" ] && [ "$hm" != "?" ] && echo "$m $hm" >>"$edges"
	done
done

$quiet || { echo; echo "## modules (module -> modules it includes)"; }
$quiet || sort -u "$edges" | awk '{d[$1] = d[$1] " " $2} END {for (m in d) print m " ->" d[m]}' | sort
# a circle between modules: tsort reports a loop
if ! sort -u "$edges" | tsort >/dev/null 2>"$edges.err"; then
	echo "FAIL a circle between modules:"
	sed 's/^/    /' "$edges.err"
	failures=$((failures + 1))
fi
rm -f "$edges.err"

if [ "$failures" -gt 0 ]; then
	echo "include graph: $failures problem(s)"
	exit 1
fi
echo "include graph: no circle, no upward include ($(ls src/*.c src/*.h | wc -l) files)"
