# test/fuzz/common.sh: the build and run steps run.sh and run-expression.sh
# share (sourced, not run).
#
# fuzz NAME SECONDS DICT MAXLEN SEEDS SOURCE...
#   builds NAME-fuzzer from SOURCE... (paths relative to test/fuzz) with
#   libFuzzer, AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer,
#   then fuzzes for SECONDS from SEEDS.  Everything it writes (the binary,
#   new corpus entries in corpus-NAME/, crash-*/leak-*/timeout-* artifacts)
#   goes to $HROE_FUZZ_DIR (default test/fuzz, where it is all git-ignored).
#   Returns non-zero on a build failure, a crash, a leak, a sanitizer report
#   or a failed oracle.  Needs clang-14 and libclang-rt-14-dev (Debian 12).

# The item and collection core (no fmgr, numeric or jsonb: the shim stands in
# for the backend), as the fuzzers compile it
HROE_ITEM_CORE="../../src/types/item_node.c ../../src/types/item_number.c ../../src/types/item_json_read.c
	../../src/types/item_json_tree.c ../../src/types/item_json_write.c ../../src/types/item_binary.c
	../../src/types/collection_io.c"

fuzz() {
	local name=$1 secs=$2 dict=$3 maxlen=$4 seeds=$5
	shift 5
	local here out inc libdir
	here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
	out=${HROE_FUZZ_DIR:-$here}
	mkdir -p "$out/corpus-$name" || return 1
	out=$(cd "$out" && pwd)
	inc=$(pg_config --includedir-server) && libdir=$(pg_config --pkglibdir) || return 1
	(cd "$here" && clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-DUSE_ASSERT_CHECKING -Wall -Wno-ignored-attributes -Wno-unused-command-line-argument \
		-I../../src $(for d in ../../src/*/; do printf -- "-I%s " "${d%/}"; done)-I"$inc" "$@" \
		-L"$libdir" -lpgcommon -lpgport -o "$out/$name-fuzzer") || return 1
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$out/$name-fuzzer" -max_total_time="$secs" -max_len="$maxlen" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/" \
		-dict="$here/$dict" "$out/corpus-$name" "$here/$seeds"
}
