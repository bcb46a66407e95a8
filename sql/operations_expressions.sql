--
-- Conditions on hroe.put_item / hroe.delete_item, filters and projections on
-- hroe.query / hroe.scan (and their _page forms), ReturnValuesOnConditionCheckFailure,
-- and the JSON API's ListTables and UpdateTable
--
SELECT hroe.create_table('opx_t', 'pk', 'S', 'sk', 'N') IS NOT NULL AS created;
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "5"}, "x": {"S": "hello"}}');
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "2"}, "n": {"N": "7"}, "x": {"S": "world"}, "m": {"M": {"y": {"L": [{"N": "1"}, {"N": "2"}]}}}}');

-- a conditional put that holds: ReturnValues ALL_OLD as without a condition
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "6"}}',
	p_return_values => 'ALL_OLD', p_return_consumed_capacity => 'TOTAL',
	p_condition_expression => 'n = :v', p_expression_attribute_values => '{":v": {"N": "5"}}');
-- one that fails: HR002 with DynamoDB's message; nothing written
\set VERBOSITY default
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "0"}}',
	p_condition_expression => 'n = :v', p_expression_attribute_values => '{":v": {"N": "5"}}');
-- ReturnValuesOnConditionCheckFailure ALL_OLD: the old item in DETAIL
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "0"}}',
	p_condition_expression => 'attribute_not_exists(pk)',
	p_return_values_on_condition_check_failure => 'ALL_OLD');
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}',
	p_return_values_on_condition_check_failure => 'ALL_NEW');
-- placeholders without an expression, an unused one, a syntax error
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}',
	p_expression_attribute_values => '{":v": {"N": "5"}}');
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}',
	p_condition_expression => 'attribute_exists(pk)', p_expression_attribute_names => '{"#u": "u"}');
SELECT * FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}',
	p_condition_expression => 'n = = 1');
SELECT * FROM hroe.put_item(NULL, '{"pk": {"S": "a"}, "sk": {"N": "1"}}');
SELECT hroe.get_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}');

-- conditional deletes: a failing one (with the old item), then one that holds
SELECT * FROM hroe.delete_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}',
	p_condition_expression => 'attribute_not_exists(#n)', p_expression_attribute_names => '{"#n": "n"}',
	p_return_values_on_condition_check_failure => 'ALL_OLD');
SELECT * FROM hroe.delete_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "9"}}',
	p_condition_expression => 'attribute_exists(pk)', p_return_values_on_condition_check_failure => 'ALL_OLD');
SELECT * FROM hroe.delete_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}', 'ALL_OLD',
	p_condition_expression => 'n < :v', p_expression_attribute_values => '{":v": {"N": "10"}}');
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "5"}, "x": {"S": "hello"}}');
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "b"}, "sk": {"N": "1"}, "n": {"N": "9"}}');

-- a put returns the version it replaced, under READ COMMITTED and REPEATABLE READ
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "b"}, "sk": {"N": "1"}, "n": {"N": "8"}}', 'ALL_OLD');
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "b"}, "sk": {"N": "1"}, "n": {"N": "9"}}', 'ALL_OLD');
COMMIT;
BEGIN;
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "b"}, "sk": {"N": "1"}, "n": {"N": "8"}}', 'ALL_OLD');
SELECT attributes FROM hroe.put_item('opx_t', '{"pk": {"S": "b"}, "sk": {"N": "1"}, "n": {"N": "9"}}', 'ALL_OLD');
COMMIT;

-- update_item: the same failure, with the old item
SELECT * FROM hroe.update_item('opx_t', '{"pk": {"S": "a"}, "sk": {"N": "1"}}', 'SET n = :z',
	'n = :z', NULL, '{":z": {"N": "0"}}', p_return_values_on_condition_check_failure => 'ALL_OLD');

-- in a transaction, the old item goes into the failed action's cancellation reason
SELECT hroe.transact_write_items('[{"ConditionCheck": {"TableName": "opx_t", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
	"ConditionExpression": "n = :z", "ExpressionAttributeValues": {":z": {"N": "0"}},
	"ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]');

-- Query with a FilterExpression and a ProjectionExpression sharing the placeholders
SELECT * FROM hroe.query('opx_t', 'pk = :p', '{":p": {"S": "a"}, ":m": {"N": "6"}}',
	p_filter_expression => 'n > :m', p_projection_expression => 'sk, x, m.y[1]');
SELECT * FROM hroe.query('opx_t', 'pk = :p', '{":p": {"S": "a"}}', '{"#x": "x"}',
	p_projection_expression => '#x', p_scan_index_forward => false);
-- Count after the filter, ScannedCount before; Limit counts items read
SELECT count, scanned_count, last_evaluated_key FROM hroe.query_page('opx_t', 'pk = :p',
	'{":p": {"S": "a"}, ":m": {"N": "6"}}', p_filter_expression => 'n > :m', p_select => 'COUNT');
SELECT items, count, scanned_count, last_evaluated_key FROM hroe.query_page('opx_t', 'pk = :p',
	'{":p": {"S": "a"}, ":m": {"N": "6"}}', p_filter_expression => 'n > :m', p_limit => 1);
SELECT items FROM hroe.query_page('opx_t', 'pk = :p', '{":p": {"S": "a"}}',
	p_projection_expression => 'n', p_select => 'SPECIFIC_ATTRIBUTES');
-- E14: the filter may not use the key; the placeholders must all be used
SELECT * FROM hroe.query('opx_t', 'pk = :p', '{":p": {"S": "a"}}', p_filter_expression => 'sk > :p');
SELECT * FROM hroe.query('opx_t', 'pk = :p', '{":p": {"S": "a"}, ":m": {"N": "6"}}');
SELECT * FROM hroe.query_page('opx_t', 'pk = :p', '{":p": {"S": "a"}}', p_projection_expression => 'n',
	p_select => 'COUNT');
SELECT * FROM hroe.query_page('opx_t', 'pk = :p', '{":p": {"S": "a"}}', p_select => 'SPECIFIC_ATTRIBUTES');

-- Scan with a filter and a projection
SELECT * FROM hroe.scan('opx_t', p_filter_expression => 'begins_with(x, :h) OR n > :n',
	p_expression_attribute_values => '{":h": {"S": "wo"}, ":n": {"N": "8"}}',
	p_projection_expression => 'pk, sk');
SELECT items, count, scanned_count FROM hroe.scan_page('opx_t', p_projection_expression => '#x',
	p_expression_attribute_names => '{"#x": "x"}', p_limit => 2);
SELECT * FROM hroe.scan('opx_t', p_expression_attribute_values => '{":h": {"S": "wo"}}');
SELECT * FROM hroe.scan('opx_t', p_expression_attribute_names => '{"#h": "h"}');
SELECT * FROM hroe.scan('opx_t', p_filter_expression => 'size(x) > :n');

-- the JSON API: the old item in the exception body
SELECT hroe.dynamodb('PutItem', '{"TableName": "opx_t", "Item": {"pk": {"S": "a"}, "sk": {"N": "2"}},
	"ConditionExpression": "attribute_not_exists(pk)", "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}');

-- ListTables (byte order, paged) and UpdateTable creating and deleting a GSI
SELECT hroe.create_table('opx_u', 'pk', 'S') IS NOT NULL AS created;
-- (other tests' tables may follow: only the first page is shown whole)
SELECT hroe.dynamodb('ListTables', '{"ExclusiveStartTableName": "opx_", "Limit": 1}');
SELECT hroe.dynamodb('ListTables', '{"ExclusiveStartTableName": "opx_t", "Limit": 1}') -> 'TableNames' AS next_page;
SELECT hroe.dynamodb('ListTables', '{"Limit": 101}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t", "AttributeDefinitions": [{"AttributeName": "n", "AttributeType": "N"}],
	"GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byN", "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}],
	"Projection": {"ProjectionType": "KEYS_ONLY"}}}]}') #> '{TableDescription,GlobalSecondaryIndexes,0,IndexName}' AS created_index;
SELECT hroe.dynamodb('Query', '{"TableName": "opx_t", "IndexName": "byN", "KeyConditionExpression": "n = :n",
	"ExpressionAttributeValues": {":n": {"N": "9"}}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byN"}}]}')
	#> '{TableDescription,GlobalSecondaryIndexes}' AS indexes_left;
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byN"}}]}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t"}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "opx_t", "GlobalSecondaryIndexUpdates": [{"Create": 1}]}');
SELECT hroe.delete_table('opx_t');
SELECT hroe.delete_table('opx_u');
