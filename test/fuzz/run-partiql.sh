#!/usr/bin/env bash
# test/fuzz/run-partiql.sh [SECONDS]: builds the libFuzzer harness for the
# PartiQL front end (src/partiql/partiql_lex.c, src/partiql/partiql_parse.c, over
# test/fuzz/shim.c) with AddressSanitizer, UndefinedBehaviorSanitizer and
# LeakSanitizer, and fuzzes for SECONDS (default 600) from
# test/fuzz/seeds-partiql.  New corpus entries go to corpus-partiql/ and a
# crash is saved as crash-* (failing the script), both in $HROE_FUZZ_DIR
# (default test/fuzz, git-ignored there).  `make fuzz` runs it with run.sh
# and run-expression.sh; test/t_fuzz.sh runs all three briefly in the suite.
# Needs clang-14 and libclang-rt-14-dev (Debian 12).
set -euo pipefail
. "$(dirname "$0")/common.sh"
fuzz partiql "${1:-600}" partiql.dict 8192 seeds-partiql \
	../../src/partiql/partiql_lex.c ../../src/partiql/partiql_parse.c shim.c partiql_fuzzer.c
