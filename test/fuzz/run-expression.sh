#!/usr/bin/env bash
# test/fuzz/run-expression.sh [SECONDS]: builds the libFuzzer harness for the
# DynamoDB expression modules (src/expr/expression_*.c but expression_api.c,
# over the item core and test/fuzz/shim.c) with
# AddressSanitizer, UndefinedBehaviorSanitizer and LeakSanitizer, and fuzzes
# for SECONDS (default 600) from test/fuzz/seeds-expression.  New corpus
# entries go to corpus-expression/ and a crash is saved as crash-* (failing
# the script), both in $HROE_FUZZ_DIR (default test/fuzz, git-ignored
# there).  `make fuzz` runs this and run.sh; test/t_fuzz.sh runs both
# briefly in the suite.
# Needs clang-14 and libclang-rt-14-dev (Debian 12).
set -euo pipefail
. "$(dirname "$0")/common.sh"
fuzz expression "${1:-600}" expression.dict 8192 seeds-expression \
	../../src/expr/expression_parse.c ../../src/expr/expression_values.c ../../src/expr/expression_check.c \
	../../src/expr/expression_key.c ../../src/expr/expression_update_parse.c \
	../../src/expr/expression_eval.c ../../src/expr/expression_update.c \
	../../src/expr/expression_project.c ../../src/expr/expression_tree.c \
	$HROE_ITEM_CORE shim.c expression_stubs.c expression_fuzzer.c
