#!/usr/bin/env bash
# test/main.sh: the README's main command.
#
# On a fresh Debian 12 machine as root: installs what is missing, builds and
# stages hroe, starts a throwaway cluster and runs the main job, then drops
# the cluster. The main job (test/main.sql): hroe.load at scale HROE_SCALE
# (default 1), then hroe.compare_report over every pattern and model, with
# HROE_RUNS runs per call (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh

ensure_packages
build_stage
in_cluster psql -X -v ON_ERROR_STOP=1 -v scale="${HROE_SCALE:-1}" -v runs="${HROE_RUNS:-5}" -f test/main.sql
