#!/usr/bin/env bash
# test/fuzz/run-expression.sh [SECONDS]: builds the libFuzzer harness for the
# DynamoDB expression modules (src/expression.c, src/expression_eval.c,
# src/expression_update.c, over the item module and test/fuzz/shim.c) with
# AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer, and fuzzes
# for SECONDS (default 600) from test/fuzz/seeds-expression.  New corpus
# entries go to test/fuzz/corpus-expression/ (not committed); a crash is
# saved as crash-* and fails the script.
# Needs clang-14 and libclang-rt-14-dev (Debian 12).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
inc=$(pg_config --includedir-server)
libdir=$(pg_config --pkglibdir)
clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-DUSE_ASSERT_CHECKING -Wall -Wno-ignored-attributes -Wno-unused-command-line-argument \
	-I../../src -I"$inc" \
	../../src/expression.c ../../src/expression_eval.c ../../src/expression_update.c \
	../../src/item_io.c ../../src/collection_io.c shim.c expression_stubs.c expression_fuzzer.c \
	-L"$libdir" -lpgcommon -lpgport -o expression-fuzzer
mkdir -p corpus-expression
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
./expression-fuzzer -max_total_time="$secs" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -dict=expression.dict corpus-expression seeds-expression
