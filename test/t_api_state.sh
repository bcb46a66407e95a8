#!/usr/bin/env bash
# test/t_api_state.sh: no state passes between the layers of a request
# through global variables.  The JSON API (src/api), the operations
# (src/ops) and PartiQL (src/partiql) hand each other a request's state as
# arguments (ApiCall, ApiRequest, HroeCall: src/api/api_internal.h,
# src/ops/operations.h), so their objects define no global variable: nm
# shows none of type B, C, D, G or S (a file's own static variables, b or d,
# are its business).  Run after the build (build_stage), which leaves the
# objects in the tree.
set -uo pipefail
cd "$(dirname "$0")/.."

shopt -s nullglob
objs=(src/api/*.o src/ops/*.o src/partiql/*.o)
if [ ${#objs[@]} -eq 0 ]; then
	echo "FAIL no objects in src/api, src/ops, src/partiql: build first (make)"
	exit 1
fi
globals=$(for o in "${objs[@]}"; do
	nm "$o" | awk -v o="$o" '$2 ~ /^[BCDGS]$/ { print o ": " $3 }'
done)
if [ -n "$globals" ]; then
	echo "FAIL global variables in the request's layers:"
	echo "$globals"
	exit 1
fi
echo "ok: no global variable in src/api, src/ops, src/partiql (${#objs[@]} objects)"
