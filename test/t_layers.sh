#!/usr/bin/env bash
# test/t_layers.sh: the C code's include graph has no circle and no include
# up the layers (values -> tables -> operations -> {JSON API, sharding} ->
# models); test/include_graph.sh declares the layers and prints the graph.
# DynamoDB's error type names (an error body's "__type") are written once,
# in protocol/ddb_types.h, for both front ends and the extension.
set -uo pipefail
cd "$(dirname "$0")/.."
rc=0
bash test/include_graph.sh -q || rc=1
if grep -rn --include='*.c' --include='*.h' '"com\.amazon' src protocol gateway models |
	grep -v '^protocol/ddb_types\.h:'; then
	echo "FAIL DynamoDB's error type names written outside protocol/ddb_types.h (above)"
	rc=1
else
	echo "ok   DynamoDB's error type names only in protocol/ddb_types.h"
fi
exit $rc
