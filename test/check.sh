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

# the gateway tests' clients (test/t_gateway*.sh): the AWS CLI, boto3, curl,
# openssl (a TLS certificate), and npm for the JavaScript SDK (Debian's npm
# only where no npm is on PATH: a nodejs from elsewhere brings its own and
# conflicts with Debian's)
HROE_EXTRA_PACKAGES="awscli python3-boto3 curl openssl ${HROE_EXTRA_PACKAGES:-}"
command -v npm >/dev/null 2>&1 || HROE_EXTRA_PACKAGES="$HROE_EXTRA_PACKAGES npm"
if ! ensure_packages || ! build_stage ASSERTS=1; then
	echo "build failed"
	echo "0 passed, 1 failed"
	exit 1
fi
rm -f test/out/summary
in_cluster test/suite.sh
rc=$?
# pg_virtualenv prints after the suite; the summary must be the last line
if [ -s test/out/summary ]; then
	summary=$(cat test/out/summary)
else
	summary="0 passed, 1 failed"
	rc=1
fi
echo "$summary"
case "$summary" in *" 0 failed") ;; *) rc=1 ;; esac
exit $rc
