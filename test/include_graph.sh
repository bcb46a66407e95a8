#!/usr/bin/env bash
# test/include_graph.sh [-q]: prints the include graph of hroe's C code and
# fails on an include that goes up or across the layers.
#
# A file's layer is its folder's (doc/architecture.md):
#
#   protocol/      DynamoDB's HTTP protocol, a library of its own (no PostgreSQL)
#   src/base       0   errors, DynamoDB's limits, catalog OIDs, background workers
#   src/types      1   hroe.key, hroe.item, hroe.item_collection
#   src/expr       2   expressions: parse, check, evaluate, update, project
#   src/tables     3   tables, indexes, key columns, capacity, direct writes
#   src/ops        4   the operations' C API, transactions
#   src/api        5   hroe.dynamodb: the JSON API
#   src/partiql    6   PartiQL: lexer, parser, translation, its operations
#   src/streams    6   Streams and Time to Live
#   src/shard      6   write sharding, sharded queries
#   src/transfer   6   exports and imports (S3 a directory of the server)
#   src/http       7   access keys, the in-server HTTP workers
#   src/           8   the module (hroe.c: _PG_init)
#   gateway/       hroe-gateway, a program of its own
#
# Every include of a project header counts, with or without a path ("x.h",
# "../gateway/x.h", "types/x.h" alike: headers have unique basenames).  A
# file may include headers of its own folder and of lower layers; src/ files
# may include protocol/ headers, never gateway/ ones; gateway/ files may
# include protocol/ headers, never src/ ones; protocol/ includes only itself.
# Folders of one layer never include each other, so no circle can form.
# -q prints only the verdict.
set -uo pipefail
cd "$(dirname "$0")/.."

declare -A LAYER=(
	[src/base]=0 [src/types]=1 [src/expr]=2 [src/tables]=3 [src/ops]=4 [src/api]=5
	[src/partiql]=6 [src/streams]=6 [src/shard]=6 [src/transfer]=6 [src/http]=7 [src]=8
	[src/legacy]=8
)

quiet=false
[ "${1:-}" = -q ] && quiet=true

shopt -s nullglob
files=(src/*.[ch] src/*/*.[ch] protocol/*.[ch] gateway/*.[ch])

# every project header by basename; a basename twice is itself a failure
declare -A where
failures=0
for f in "${files[@]}"; do
	case $f in *.h) ;; *) continue ;; esac
	b=$(basename "$f")
	if [ -n "${where[$b]:-}" ]; then
		echo "FAIL two headers named $b: ${where[$b]} and $f"
		failures=$((failures + 1))
	fi
	where[$b]=$(dirname "$f")
done

# a folder's layer, or a word for the libraries outside the extension
layer_of() {
	case $1 in
	protocol) echo protocol ;;
	gateway) echo gateway ;;
	*) echo "${LAYER[$1]:-?}" ;;
	esac
}

edges=0
$quiet || echo "## files (folder layer: project headers included)"
for f in "${files[@]}"; do
	dir=$(dirname "$f")
	l=$(layer_of "$dir")
	if [ "$l" = "?" ]; then
		echo "FAIL $f: its folder $dir has no layer (test/include_graph.sh, LAYER)"
		failures=$((failures + 1))
		continue
	fi
	incs=()
	while read -r inc; do
		[ -n "$inc" ] || continue
		hb=$(basename "$inc")
		hdir=${where[$hb]:-}
		[ -n "$hdir" ] || continue # a system or PostgreSQL header
		incs+=("$hdir/$hb")
		[ "$hdir" = "$dir" ] && continue
		edges=$((edges + 1))
		hl=$(layer_of "$hdir")
		bad=
		case $l/$hl in
		protocol/*) bad="protocol/ includes only its own headers" ;;
		gateway/protocol) ;;
		gateway/*) bad="hroe-gateway reaches into the extension" ;;
		*/gateway) bad="the extension reaches into hroe-gateway" ;;
		*/protocol) ;;
		*)
			if [ "$hl" -gt "$l" ]; then
				bad="an upward include (layer $l includes layer $hl)"
			elif [ "$hl" -eq "$l" ]; then
				bad="an include across folders of one layer ($l)"
			fi
			;;
		esac
		if [ -n "$bad" ]; then
			echo "FAIL $f includes $hdir/$hb: $bad"
			failures=$((failures + 1))
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	$quiet || printf '%-36s %-8s: %s\n' "$f" "$l" "${incs[*]:-}"
done

if [ "$failures" -gt 0 ]; then
	echo "include graph: $failures problem(s)"
	exit 1
fi
echo "include graph: no upward or cross-layer include (${#files[@]} files, $edges includes across folders)"
