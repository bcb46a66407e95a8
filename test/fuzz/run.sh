#!/usr/bin/env bash
# test/fuzz/run.sh [SECONDS]: builds the libFuzzer harness for the hroe.item
# and hroe.item_collection input functions (src/item_io.c,
# src/collection_io.c) with AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, and fuzzes for SECONDS (default 600) from the seeds in
# test/fuzz/seeds.  New corpus entries go to test/fuzz/corpus-item/ (not
# committed); a crash is saved as crash-* and fails the script.
# Needs clang-14 and libclang-rt-14-dev (Debian 12).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
inc=$(pg_config --includedir-server)
libdir=$(pg_config --pkglibdir)
clang-14 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-DUSE_ASSERT_CHECKING -Wall -Wno-ignored-attributes -Wno-unused-command-line-argument \
	-I../../src -I"$inc" \
	../../src/item_io.c ../../src/collection_io.c shim.c fuzz_item.c \
	-L"$libdir" -lpgport -o item-fuzzer
mkdir -p corpus-item
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
./item-fuzzer -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -dict=item.dict corpus-item seeds
