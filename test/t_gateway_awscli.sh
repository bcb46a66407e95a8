#!/usr/bin/env bash
# test/t_gateway_awscli.sh: the AWS CLI (Debian's awscli) against
# hroe-gateway, unchanged but for --endpoint-url: CreateTable with a GSI, the
# table-exists waiter, Put/Get/Update/Delete, Query and Scan paginated by the
# CLI, BatchWrite/BatchGet, a TransactWrite whose condition fails
# (TransactionCanceledException with its reasons), a
# ConditionalCheckFailedException, DescribeTable, ListTables, DeleteTable.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
AWS=$(command -v /usr/bin/aws || command -v aws)
gw_setup hroe_gw_awscli || exit 1
gw_start hroe_gw_awscli || exit 1
gw_env
ddb() { "$AWS" --endpoint-url "$GW_URL" --output json dynamodb "$@"; }
T=cli_orders

check "CreateTable with a GSI" ddb create-table --table-name $T \
	--attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=N AttributeName=status,AttributeType=S \
	--key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
	--global-secondary-indexes 'IndexName=by_status,KeySchema=[{AttributeName=status,KeyType=HASH},{AttributeName=sk,KeyType=RANGE}],Projection={ProjectionType=ALL}' \
	--billing-mode PAY_PER_REQUEST
check "waiter table-exists" ddb wait table-exists --table-name $T
check "PutItem" ddb put-item --table-name $T --item '{"pk": {"S": "c1"}, "sk": {"N": "1"}, "status": {"S": "OPEN"}, "n": {"N": "10"}}'
check "GetItem" has '"10"' ddb get-item --table-name $T --key '{"pk": {"S": "c1"}, "sk": {"N": "1"}}'
check "UpdateItem ADD, ReturnValues" has '"15"' ddb update-item --table-name $T --key '{"pk": {"S": "c1"}, "sk": {"N": "1"}}' --update-expression 'ADD n :d' --expression-attribute-values '{":d": {"N": "5"}}' --return-values UPDATED_NEW
check "ConditionalCheckFailedException" expect_error ConditionalCheckFailedException \
	ddb put-item --table-name $T --item '{"pk": {"S": "c1"}, "sk": {"N": "1"}}' --condition-expression 'attribute_not_exists(pk)'

# 25 items in one BatchWriteItem, then read back 3 of them
items=$(for i in $(seq 2 26); do printf '%s{"PutRequest": {"Item": {"pk": {"S": "c1"}, "sk": {"N": "%d"}, "status": {"S": "%s"}}}}' \
	"$([ "$i" -gt 2 ] && echo ,)" "$i" "$([ $((i % 2)) -eq 0 ] && echo OPEN || echo CLOSED)"; done)
check "BatchWriteItem (25 puts)" ddb batch-write-item --request-items "{\"$T\": [$items]}"
check "BatchGetItem (3 keys)" has '^3$' ddb batch-get-item --query "length(Responses.$T)" --output text --request-items "{\"$T\": {\"Keys\": [{\"pk\": {\"S\": \"c1\"}, \"sk\": {\"N\": \"2\"}}, {\"pk\": {\"S\": \"c1\"}, \"sk\": {\"N\": \"3\"}}, {\"pk\": {\"S\": \"c1\"}, \"sk\": {\"N\": \"4\"}}]}}"

# the CLI follows LastEvaluatedKey itself: pages of 4 give all 26 items
check "Query paginated (page size 4): 26 items" has '"Count": 26' ddb query --table-name $T --key-condition-expression 'pk = :p' --expression-attribute-values '{":p": {"S": "c1"}}' --page-size 4
check "Scan paginated (page size 7): 26 items" has '"Count": 26' ddb scan --table-name $T --page-size 7

check "TransactWriteItems with a failing condition: TransactionCanceledException [None, ConditionalCheckFailed]" expect_error \
	'TransactionCanceledException.*\[None, ConditionalCheckFailed\]' ddb transact-write-items --transact-items "[
	{\"Put\": {\"TableName\": \"$T\", \"Item\": {\"pk\": {\"S\": \"c2\"}, \"sk\": {\"N\": \"1\"}}}},
	{\"ConditionCheck\": {\"TableName\": \"$T\", \"Key\": {\"pk\": {\"S\": \"c1\"}, \"sk\": {\"N\": \"1\"}},
	  \"ConditionExpression\": \"n > :n\", \"ExpressionAttributeValues\": {\":n\": {\"N\": \"100\"}}}}]"
check "the cancelled transaction wrote nothing" has '^None$' ddb get-item --query Item --output text --table-name $T --key '{"pk": {"S": "c2"}, "sk": {"N": "1"}}'
check "DeleteItem" ddb delete-item --table-name $T --key '{"pk": {"S": "c1"}, "sk": {"N": "1"}}'
check "DescribeTable names the GSI" has by_status ddb describe-table --table-name $T
check "ListTables" has "\"$T\"" ddb list-tables
check "DeleteTable" ddb delete-table --table-name $T
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))
check "access log: one line per request, no secret" bash -c "grep -q ' gwtestkey CreateTable 200 ' $GW_WORK/access.log && test -s $GW_WORK/gateway.log && ! grep -q '$GW_SECRET' $GW_WORK/access.log $GW_WORK/gateway.log"
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
