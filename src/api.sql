
--
-- DynamoDB's JSON API (src/api.c)
--

CREATE FUNCTION hroe.dynamodb(operation text, request jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_dynamodb'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb(text, jsonb) IS
'One DynamoDB API call: operation (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, CreateTable, DescribeTable, DeleteTable) and the JSON request body; returns the response body DynamoDB returns, errors as {"__type", "message"}; a failed request leaves nothing written';
