#!/usr/bin/env bash
# test/t_gateway_boto3.sh: boto3 (Debian's python3-boto3) against
# hroe-gateway: the scenario in test/gateway/boto3_scenario.py (CreateTable
# with a GSI, waiters, Put/Get/Update/Delete, Query and Scan paginators,
# BatchWrite/BatchGet, TransactionCanceledException with reasons,
# ConditionalCheckFailedException, DescribeTable, ListTables, DeleteTable).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
gw_scenario hroe_gw_boto3 /usr/bin/python3 test/gateway/boto3_scenario.py
