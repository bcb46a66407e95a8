
--
-- DynamoDB's JSON API (src/api.c)
--

CREATE FUNCTION hroe.dynamodb(operation text, request jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_dynamodb'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb(text, jsonb) IS
'One DynamoDB API call: operation (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, CreateTable, DescribeTable, DeleteTable, UpdateTable creating or deleting one GSI, ListTables) and the JSON request body; returns the response body DynamoDB returns, errors as {"__type", "message"}; a failed request leaves nothing written';

CREATE FUNCTION hroe.update_item(p_table_name text, p_key jsonb, p_update_expression text,
	p_condition_expression text DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL, p_return_values text DEFAULT 'NONE',
	p_return_consumed_capacity text DEFAULT 'NONE',
	p_return_values_on_condition_check_failure text DEFAULT NULL)
RETURNS hroe.write_result AS 'MODULE_PATHNAME', 'hroe_update_item'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.update_item(text, jsonb, text, text, jsonb, jsonb, text, text, text) IS
'UpdateItem: applies the UpdateExpression (NULL: none) to the item, or to the key alone when it does not exist (upsert), after checking the ConditionExpression on the row locked FOR UPDATE (HR002 ConditionalCheckFailed, the old item in DETAIL with ReturnValuesOnConditionCheckFailure ALL_OLD); ReturnValues NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW; capacity as a put';

CREATE FUNCTION hroe.transact_write_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_write_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_write_items(jsonb) IS
'TransactWriteItems: TransactItems ([{"Put"|"Update"|"Delete"|"ConditionCheck": {...}}], at most 100, no two on one item); locks every item in canonical order, checks every condition, then applies all; a failed condition raises HR005 TransactionCanceledException with the CancellationReasons in DETAIL';

CREATE FUNCTION hroe.transact_get_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_get_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_get_items(jsonb) IS
'TransactGetItems: TransactItems ([{"Get": {"TableName", "Key", "ProjectionExpression"?}}], at most 100); every item read under a share lock; returns the Responses array ({"Item": ...} or {} per Get, in request order)';

-- TransactWriteItems ClientRequestToken: a replay within 10 minutes succeeds without writing
CREATE TABLE hroe.transaction_tokens (
	token			text PRIMARY KEY,
	request_hash	bigint NOT NULL,
	finished_at		timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE hroe.transaction_tokens IS 'ClientRequestTokens of committed TransactWriteItems calls (hroe.dynamodb): the hash of their TransactItems and when they finished; a token is idempotent for 10 minutes';
GRANT SELECT, INSERT, UPDATE ON hroe.transaction_tokens TO PUBLIC;
