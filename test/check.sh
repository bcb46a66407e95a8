#!/usr/bin/env bash
# test/check.sh: the README's test command.
#
# On a fresh Debian 12 machine as root: installs what is missing, builds hroe
# with assertions, stages it, starts a throwaway cluster and runs every test:
# pg_regress (sql/), isolation (test/specs/) and shell tests (test/t_*.sh).
# Ends with one line "N passed, N failed" and exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

if ! ensure_packages || ! build_stage ASSERTS=1; then
	echo "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
in_cluster test/suite.sh
