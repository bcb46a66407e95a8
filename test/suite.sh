#!/usr/bin/env bash
# test/suite.sh: runs every test against the cluster in PG* variables and
# prints "N passed, N failed". Called by test/check.sh inside pg_virtualenv.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test/out
passed=0
failed=0

# pg_regress, then pg_isolation_regress, through PGXS: two runs, so that a
# failure in the first does not keep the second from running
for suite in "ISOLATION=" "REGRESS="; do
	make -s installcheck ASSERTS=1 "$suite" >test/out/installcheck.log 2>&1
	rc=$?
	cat test/out/installcheck.log
	ok=$(grep -cE '\.\.\. ok' test/out/installcheck.log)
	bad=$(grep -cE '\.\.\. FAILED' test/out/installcheck.log)
	passed=$((passed + ok))
	failed=$((failed + bad))
	if [ $rc -ne 0 ]; then
		[ -f regression.diffs ] && cat regression.diffs
		[ -f output_iso/regression.diffs ] && cat output_iso/regression.diffs
		# a harness failure that no test line reports still counts
		[ "$bad" -eq 0 ] && failed=$((failed + 1))
	fi
done

# shell tests: each prints what it checks and exits non-zero on failure
for t in test/t_*.sh; do
	[ -e "$t" ] || continue
	start=$SECONDS
	if bash "$t" >"test/out/$(basename "$t").log" 2>&1; then
		echo "shell test $(basename "$t") ... ok ($((SECONDS - start)) s)"
		passed=$((passed + 1))
	else
		echo "shell test $(basename "$t") ... FAILED ($((SECONDS - start)) s)"
		sed 's/^/    /' "test/out/$(basename "$t").log" | tail -40
		failed=$((failed + 1))
	fi
done

echo "$passed passed, $failed failed" | tee test/out/summary
[ "$failed" -eq 0 ]
