#!/usr/bin/env bash
# test/main.sh: the README's main command.
#
# On a fresh Debian 12 machine as root: installs what is missing, builds and
# stages hroe, starts a throwaway cluster and runs the main job, then drops
# the cluster. Until hroe.compare() exists, the main job is the README's
# getting-started SQL (test/main.sql).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

ensure_packages
build_stage
in_cluster psql -X -v ON_ERROR_STOP=1 -f test/main.sql
