#!/usr/bin/env bash
# test/t_gateway_js.sh: the AWS SDK for JavaScript v3
# (@aws-sdk/client-dynamodb, pinned in test/gateway/package-lock.json and
# installed with npm ci) against hroe-gateway: the scenario in
# test/gateway/sdk_v3.mjs (CreateTable with a GSI, the waiter,
# Put/Get/Update/Delete, paginateQuery/paginateScan, BatchWrite/BatchGet,
# TransactionCanceledException with reasons, ConditionalCheckFailedException,
# DescribeTable, ListTables, DeleteTable).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
if [ ! -d test/gateway/node_modules/@aws-sdk/client-dynamodb ] ||
	[ test/gateway/package-lock.json -nt test/gateway/node_modules/.package-lock.json ]; then
	(cd test/gateway && npm ci --no-audit --no-fund --loglevel=error) || { echo "FAIL npm ci"; exit 1; }
fi
gw_scenario hroe_gw_js node test/gateway/sdk_v3.mjs
