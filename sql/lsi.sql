--
-- Local secondary indexes: CreateTable's LocalSecondaryIndexes (JSON API)
-- and hroe.create_local_index (SQL), DynamoDB's validation errors, sparse
-- items, key type violations, Query and Scan on an LSI (consistent reads,
-- paging both ways, projections, Select ALL_ATTRIBUTES fetching from the
-- table, capacity), DescribeTable, UpdateTable, EXPLAIN.
--
\set VERBOSITY terse
CREATE FUNCTION lsi_err(p_op text, p_req jsonb) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN hroe.dynamodb(p_op, p_req)::text;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;
CREATE FUNCTION lsi_req(p_extra jsonb, p_keys jsonb DEFAULT '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]')
RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_build_object('TableName', 'lsi_bad', 'BillingMode', 'PAY_PER_REQUEST', 'KeySchema', p_keys,
		'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "a", "AttributeType": "N"}]'::jsonb) || p_extra
$$;

-- validation errors
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": []}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}',
	'[{"AttributeName": "pk", "KeyType": "HASH"}]'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "a", "KeyType": "RANGE"}, {"AttributeName": "pk", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "sk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}]}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL", "NonKeyAttributes": ["x"]}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}},
	{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req(jsonb_build_object('LocalSecondaryIndexes',
	(SELECT jsonb_agg(jsonb_build_object('IndexName', 'lsi' || i, 'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}]'::jsonb, 'Projection', '{"ProjectionType": "ALL"}'::jsonb))
	 FROM generate_series(1, 6) i))));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}],
	"GlobalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}'));
SELECT lsi_err('CreateTable', lsi_req('{"LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "INCLUDE"}}]}'));
SELECT lsi_err('CreateTable', lsi_req(jsonb_build_object('LocalSecondaryIndexes', jsonb_build_array(jsonb_build_object('IndexName', 'byA',
	'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}]'::jsonb,
	'Projection', jsonb_build_object('ProjectionType', 'INCLUDE', 'NonKeyAttributes', (SELECT jsonb_agg('n' || i) FROM generate_series(1, 101) i)))))));
SELECT count(*) AS no_table_left FROM hroe.tables WHERE table_name = 'lsi_bad';

-- a table with three LSIs (N, S sort keys; ALL, KEYS_ONLY, INCLUDE) and a GSI
SELECT (hroe.dynamodb('CreateTable', '{"TableName": "lsi_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                           {"AttributeName": "n", "AttributeType": "N"}, {"AttributeName": "t", "AttributeType": "S"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "LocalSecondaryIndexes": [
    {"IndexName": "byN", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "n", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "byT", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "t", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "byN2", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "n", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["x"]}}],
  "GlobalSecondaryIndexes": [
    {"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}]}')
  #> '{TableDescription}') - 'CreationDateTime' - 'TableId' #- '{BillingModeSummary, LastUpdateToPayPerRequestDateTime}';
SELECT index_name, local, partition_key_columns, sort_key_columns, projection FROM hroe.indexes WHERE table_name = 'lsi_t' ORDER BY 1;
\d lsi_t

-- writes: items with and without the LSI keys (sparse), key type violations
SELECT count(hroe.put_item('lsi_t', format('{"pk": {"S": "p%s"}, "sk": {"S": "s%s"}, "x": {"S": "x%s"}, "y": {"S": "y%s"}%s%s}',
	i % 2, lpad(i::text, 2, '0'), i, i,
	CASE WHEN i % 5 <> 0 THEN format(', "n": {"N": "%s"}', 20 - i) ELSE '' END,
	CASE WHEN i % 3 = 0 THEN format(', "t": {"S": "t%s"}', i) ELSE '' END)::hroe.item))
FROM generate_series(1, 20) i;
SELECT lsi_err('PutItem', '{"TableName": "lsi_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "z"}, "n": {"S": "one"}}}');
SELECT lsi_err('PutItem', '{"TableName": "lsi_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "z"}, "t": {"S": ""}}}');
SELECT lsi_err('UpdateItem', '{"TableName": "lsi_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s01"}}, "UpdateExpression": "SET t = :v", "ExpressionAttributeValues": {":v": {"N": "1"}}}');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "lsi_t"}') #> '{Table, LocalSecondaryIndexes}';
SELECT (hroe.dynamodb('DescribeTable', '{"TableName": "lsi_t"}') -> 'Table') - 'CreationDateTime' - 'TableId' - 'LocalSecondaryIndexes' - 'GlobalSecondaryIndexes' #- '{BillingModeSummary, LastUpdateToPayPerRequestDateTime}';

-- Query on an LSI: key conditions on its sort key, consistent reads, order
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byN", "KeyConditionExpression": "pk = :p AND n BETWEEN :a AND :b",
  "ExpressionAttributeValues": {":p": {"S": "p1"}, ":a": {"N": "4"}, ":b": {"N": "12"}}, "ConsistentRead": true,
  "ProjectionExpression": "sk, n", "ReturnConsumedCapacity": "INDEXES"}');
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byN", "KeyConditionExpression": "pk = :p AND n < :b",
  "ExpressionAttributeValues": {":p": {"S": "p0"}, ":b": {"N": "10"}}, "ScanIndexForward": false, "Select": "COUNT", "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byT", "KeyConditionExpression": "pk = :p AND begins_with(t, :t)",
  "ExpressionAttributeValues": {":p": {"S": "p1"}, ":t": {"S": "t1"}}}');
-- a KEYS_ONLY LSI: ALL_ATTRIBUTES fetches the items (an extra read each)
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byT", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "p1"}}, "Select": "ALL_ATTRIBUTES", "ReturnConsumedCapacity": "INDEXES"}');
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byN2", "KeyConditionExpression": "pk = :p AND n > :n",
  "ExpressionAttributeValues": {":p": {"S": "p0"}, ":n": {"N": "13"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lsi_t", "IndexName": "byN2", "KeyConditionExpression": "pk = :p AND n > :n",
  "ExpressionAttributeValues": {":p": {"S": "p0"}, ":n": {"N": "13"}}, "ProjectionExpression": "y"}');
-- errors: a GSI still refuses consistent reads; key type; a GSI's Select
SELECT lsi_err('Query', '{"TableName": "lsi_t", "IndexName": "byG", "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "a"}}, "ConsistentRead": true}');
SELECT lsi_err('Query', '{"TableName": "lsi_t", "IndexName": "byN", "KeyConditionExpression": "pk = :p AND n = :n", "ExpressionAttributeValues": {":p": {"S": "p1"}, ":n": {"S": "a"}}}');
SELECT lsi_err('Query', '{"TableName": "lsi_t", "IndexName": "byN", "KeyConditionExpression": "n = :n", "ExpressionAttributeValues": {":n": {"N": "1"}}}');

-- paging on an LSI, both directions: LastEvaluatedKey has the table's keys and the LSI's
CREATE FUNCTION lsi_pages(p_forward boolean) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	r jsonb;
	esk jsonb := NULL;
BEGIN
	LOOP
		r := hroe.dynamodb('Query', jsonb_build_object('TableName', 'lsi_t', 'IndexName', 'byN',
			'KeyConditionExpression', 'pk = :p', 'ExpressionAttributeValues', '{":p": {"S": "p0"}}'::jsonb,
			'Limit', 3, 'ScanIndexForward', p_forward, 'ProjectionExpression', 'n')
			|| CASE WHEN esk IS NULL THEN '{}' ELSE jsonb_build_object('ExclusiveStartKey', esk) END);
		RETURN NEXT format('%s LEK %s', (SELECT string_agg(i #>> '{n,N}', ' ') FROM jsonb_array_elements(r -> 'Items') i), r -> 'LastEvaluatedKey');
		esk := r -> 'LastEvaluatedKey';
		EXIT WHEN esk IS NULL;
	END LOOP;
END $$;
SELECT * FROM lsi_pages(true);
SELECT * FROM lsi_pages(false);
SELECT lsi_err('Query', '{"TableName": "lsi_t", "IndexName": "byN", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p0"}},
  "ExclusiveStartKey": {"pk": {"S": "p0"}, "sk": {"S": "s02"}}}');

-- Scan on an LSI: only the items that have its sort key
SELECT hroe.dynamodb('Scan', '{"TableName": "lsi_t", "IndexName": "byT", "ConsistentRead": true, "ReturnConsumedCapacity": "INDEXES"}') - 'Items';
SELECT count(*) FROM hroe.scan('lsi_t', 'byN');

-- EXPLAIN: an index scan on the LSI's index
SELECT * FROM hroe.explain_query('lsi_t', 'pk = :p AND begins_with(t, :t)', '{":p": {"S": "p0"}, ":t": {"S": "t1"}}', p_index_name => 'byT', p_scan_index_forward => false);

-- writes report LSI capacity; UpdateTable cannot delete an LSI
SELECT hroe.dynamodb('PutItem', '{"TableName": "lsi_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "s01"}, "n": {"N": "100"}, "x": {"S": "x"}}, "ReturnConsumedCapacity": "INDEXES"}');
SELECT lsi_err('UpdateTable', '{"TableName": "lsi_t", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byN"}}]}');

-- ItemCollectionMetrics (ReturnItemCollectionMetrics SIZE) on a table with LSIs
SELECT hroe.dynamodb('PutItem', '{"TableName": "lsi_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "s99"}, "n": {"N": "1"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lsi_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s99"}}, "UpdateExpression": "SET t = :t", "ExpressionAttributeValues": {":t": {"S": "u"}}, "ReturnItemCollectionMetrics": "SIZE", "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lsi_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s99"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lsi_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "s99"}}, "ReturnItemCollectionMetrics": "NONE"}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lsi_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s99"}}}');

-- SQL: hroe.create_local_index, on an empty table only
SELECT hroe.create_table('lsi_s', 'pk', 'S', 'sk', 'N');
SELECT hroe.create_local_index('lsi_s', 'byV', 'v', 'N');
SELECT hroe.create_local_index('lsi_s', 'byW', 'w', 'B', 'INCLUDE', '{a, b}');
SELECT hroe.create_local_index('lsi_s', 'byV', 'v2', 'N');
SELECT hroe.create_local_index('lsi_s', 'byPk', 'pk', 'S');
SELECT hroe.put_item('lsi_s', '{"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"N": "5"}}');
SELECT hroe.create_local_index('lsi_s', 'byX', 'x', 'S');
SELECT i::text FROM hroe.query('lsi_s', 'pk = :p AND v >= :v', '{":p": {"S": "a"}, ":v": {"N": "5"}}', p_index_name => 'byV', p_consistent_read => true) i;
SELECT hroe.create_table('lsi_h', 'pk');
SELECT hroe.create_local_index('lsi_h', 'byV', 'v', 'N');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "lsi_s"}') #> '{Table, LocalSecondaryIndexes}';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "lsi_s"}') #>> '{TableDescription, TableStatus}';
SELECT hroe.delete_table('lsi_h');
SELECT hroe.delete_table('lsi_t');
DROP FUNCTION lsi_err(text, jsonb), lsi_req(jsonb, jsonb), lsi_pages(boolean);
