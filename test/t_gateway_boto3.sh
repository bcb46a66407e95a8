#!/usr/bin/env bash
# test/t_gateway_boto3.sh: boto3 (Debian's python3-boto3) against
# hroe-gateway: the scenario in test/gateway/boto3_scenario.py (CreateTable
# with a GSI, waiters, Put/Get/Update/Delete, Query and Scan paginators,
# BatchWrite/BatchGet, TransactionCanceledException with reasons,
# ConditionalCheckFailedException, DescribeTable, ListTables, DeleteTable).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
gw_setup hroe_gw_boto3 || exit 1
gw_start hroe_gw_boto3 || exit 1
gw_env
/usr/bin/python3 test/gateway/boto3_scenario.py "$GW_URL"
rc=$?
gw_stop || rc=1
exit $rc
