#!/usr/bin/env bash
# test/t_fuzz.sh: a smoke run of the libFuzzer harnesses, so that they keep
# building and keep passing: test/fuzz/run.sh (the hroe.item and
# hroe.item_collection input functions), test/fuzz/run-expression.sh (the
# expression parser, evaluator and update code) and test/fuzz/run-partiql.sh
# (the PartiQL lexer and parser), each built with ASan, UBSan
# and LeakSanitizer and run for HROE_FUZZ_SECS (default 20) seconds from its
# seed corpus.  A link failure, crash, leak, sanitizer report or failed
# oracle fails the test.  The binaries and new corpus entries go to a
# temporary directory.  Long runs: `make fuzz` (600 s each).
set -uo pipefail
cd "$(dirname "$0")/fuzz"
secs=${HROE_FUZZ_SECS:-20}
export HROE_FUZZ_DIR
HROE_FUZZ_DIR=$(mktemp -d /tmp/hroe-fuzz.XXXXXX)
trap 'rm -rf "$HROE_FUZZ_DIR"' EXIT
failures=0
for f in run.sh run-expression.sh run-partiql.sh; do
	log=$HROE_FUZZ_DIR/$f.log
	if bash "$f" "$secs" >"$log" 2>&1; then
		echo "ok   $f $secs s: $(grep -h '^stat::number_of_executed_units' "$log" | awk '{print $2}') inputs," \
			"$(grep -h '^stat::new_units_added' "$log" | awk '{print $2}') new corpus entries, no crash, leak or sanitizer report"
	else
		echo "FAIL $f $secs s:"
		grep -v -E '^#[0-9]+' "$log" | tail -40
		# the failing input, to add to the seeds once fixed
		for a in "$HROE_FUZZ_DIR"/crash-* "$HROE_FUZZ_DIR"/leak-* "$HROE_FUZZ_DIR"/timeout-* "$HROE_FUZZ_DIR"/oom-*; do
			[ -e "$a" ] && echo "    $(basename "$a") (base64): $(base64 -w0 "$a")"
		done
		failures=$((failures + 1))
	fi
done
[ "$failures" -eq 0 ]
