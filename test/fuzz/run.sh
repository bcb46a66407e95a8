#!/usr/bin/env bash
# test/fuzz/run.sh [SECONDS]: builds the libFuzzer harness for the hroe.item
# and hroe.item_collection input functions (the item core,
# src/item_*.c, and src/types/collection_io.c) with AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, and fuzzes for SECONDS (default 600) from the seeds in
# test/fuzz/seeds.  New corpus entries go to corpus-item/ and a crash is
# saved as crash-* (failing the script), both in $HROE_FUZZ_DIR (default
# test/fuzz, git-ignored there).  `make fuzz` runs this and
# run-expression.sh; test/t_fuzz.sh runs both briefly in the suite.
# Needs clang-14 and libclang-rt-14-dev (Debian 12).
set -euo pipefail
. "$(dirname "$0")/common.sh"
fuzz item "${1:-600}" item.dict 65536 seeds \
	$HROE_ITEM_CORE shim.c fuzz_item.c
