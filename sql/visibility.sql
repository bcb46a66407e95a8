--
-- Each operation sees every write made before it, in the same statement
-- too, as sequential DynamoDB requests do (issue #17): a read makes the
-- statement's earlier writes visible and runs under a snapshot with the
-- current command id, a new one per operation in READ COMMITTED.
--
\set VERBOSITY terse
SELECT hroe.dynamodb('CreateTable', '{"TableName": "vis", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}') ? 'TableDescription' AS created;

-- The reads are VOLATILE: a STABLE function would promise not to see them
SELECT p.oid::regprocedure, p.provolatile
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'hroe' AND p.proname IN ('get_item', 'get_item_result', 'query', 'query_page',
	'scan', 'scan_page', 'batch_get_item', 'transact_get_items', 'dynamodb')
ORDER BY p.proname;

-- The JSON API, one request per row of an ordered VALUES list (a script)
SELECT n, op, hroe.dynamodb(op, req::jsonb) AS response
FROM (VALUES
	(1, 'PutItem', '{"TableName": "vis", "Item": {"pk": {"S": "a"}, "sk": {"S": "1"}, "v": {"N": "1"}, "g": {"S": "G"}}}'),
	(2, 'GetItem', '{"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}, "ConsistentRead": true}'),
	(3, 'UpdateItem', '{"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}, "UpdateExpression": "SET v = v + :one",
		"ExpressionAttributeValues": {":one": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}'),
	(4, 'GetItem', '{"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}, "ProjectionExpression": "v"}'),
	(5, 'PutItem', '{"TableName": "vis", "Item": {"pk": {"S": "a"}, "sk": {"S": "2"}, "v": {"N": "5"}, "g": {"S": "G"}}}'),
	(6, 'Query', '{"TableName": "vis", "KeyConditionExpression": "pk = :p", "ProjectionExpression": "sk, v",
		"ExpressionAttributeValues": {":p": {"S": "a"}}, "ConsistentRead": true}'),
	(7, 'Query', '{"TableName": "vis", "IndexName": "byG", "KeyConditionExpression": "g = :g", "Select": "COUNT",
		"ExpressionAttributeValues": {":g": {"S": "G"}}}'),
	(8, 'Scan', '{"TableName": "vis", "ProjectionExpression": "sk, v"}'),
	(9, 'Query', '{"TableName": "vis", "KeyConditionExpression": "pk = :p", "Limit": 1, "ExclusiveStartKey": {"pk": {"S": "a"}, "sk": {"S": "1"}},
		"ProjectionExpression": "sk", "ExpressionAttributeValues": {":p": {"S": "a"}}}'),
	(10, 'BatchGetItem', '{"RequestItems": {"vis": {"Keys": [{"pk": {"S": "a"}, "sk": {"S": "2"}}], "ProjectionExpression": "v"}}}'),
	(11, 'TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "2"}}, "ProjectionExpression": "v"}}]}'),
	(12, 'BatchWriteItem', '{"RequestItems": {"vis": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"S": "3"}}}}]}}'),
	(13, 'TransactWriteItems', '{"TransactItems": [{"Delete": {"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}}}}]}'),
	(14, 'Query', '{"TableName": "vis", "KeyConditionExpression": "pk = :p", "Select": "COUNT", "ExpressionAttributeValues": {":p": {"S": "a"}}}'),
	(15, 'DeleteItem', '{"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "2"}}}'),
	(16, 'GetItem', '{"TableName": "vis", "Key": {"pk": {"S": "a"}, "sk": {"S": "2"}}, "ConsistentRead": true}'),
	(17, 'Scan', '{"TableName": "vis", "Select": "COUNT"}')
) r(n, op, req);

-- Write then read in one row: the SELECT list is evaluated left to right
SELECT i, hroe.dynamodb('UpdateItem', '{"TableName": "vis", "Key": {"pk": {"S": "b"}, "sk": {"S": "1"}},
		"UpdateExpression": "ADD v :one", "ExpressionAttributeValues": {":one": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}') AS updated,
	hroe.dynamodb('GetItem', '{"TableName": "vis", "Key": {"pk": {"S": "b"}, "sk": {"S": "1"}}}') AS got
FROM (VALUES (1), (2), (3)) v(i);

-- x once w is computed: an argument that orders a read after a write
-- (PL/pgSQL, so that it is not inlined away)
CREATE FUNCTION after(w anyelement, x jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$BEGIN RETURN x; END$$;

-- The SQL functions, each read nested in its write
SELECT hroe.get_item('vis', after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "1"}, "v": {"N": "1"}}'),
	'{"pk": {"S": "c"}, "sk": {"S": "1"}}'), true) AS strong;
SELECT hroe.get_item('vis', after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "1"}, "v": {"N": "2"}}'),
	'{"pk": {"S": "c"}, "sk": {"S": "1"}}')) AS eventual;
SELECT (hroe.get_item_result('vis', after(hroe.update_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "1"}}', 'SET v = :v',
	p_expression_attribute_values => '{":v": {"N": "3"}}'), '{"pk": {"S": "c"}, "sk": {"S": "1"}}'), true, 'TOTAL')).*;
SELECT hroe.get_item('vis', after(hroe.delete_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "1"}}'),
	'{"pk": {"S": "c"}, "sk": {"S": "1"}}'), true) IS NULL AS deleted;
SELECT q FROM hroe.query('vis', 'pk = :p', after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "2"}}'),
	'{":p": {"S": "c"}}')) q;
SELECT count(*) FROM hroe.scan('vis', p_filter_expression => 'pk = :p',
	p_expression_attribute_values => after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "3"}}'), '{":p": {"S": "c"}}'));
SELECT items, count FROM hroe.query_page('vis', 'pk = :p', after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "4"}}'),
	'{":p": {"S": "c"}}'), p_exclusive_start_key => '{"pk": {"S": "c"}, "sk": {"S": "2"}}');
SELECT count, scanned_count FROM hroe.scan_page('vis', p_filter_expression => 'pk = :p',
	p_expression_attribute_values => after(hroe.delete_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "2"}}'), '{":p": {"S": "c"}}'));
SELECT count FROM hroe.query_page('vis', 'g = :g', after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "5"}, "g": {"S": "H"}}'),
	'{":g": {"S": "H"}}'), p_index_name => 'byG');
SELECT hroe.batch_get_item(after(hroe.put_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "6"}, "v": {"N": "6"}}'),
	'{"vis": {"Keys": [{"pk": {"S": "c"}, "sk": {"S": "6"}}], "ConsistentRead": true}}'));
SELECT hroe.transact_get_items(after(hroe.update_item('vis', '{"pk": {"S": "c"}, "sk": {"S": "6"}}', 'SET v = :v',
	p_expression_attribute_values => '{":v": {"N": "7"}}'), '[{"Get": {"TableName": "vis", "Key": {"pk": {"S": "c"}, "sk": {"S": "6"}}}}]'));
-- the JSON API's read after a SQL function's write, and the reverse
SELECT hroe.dynamodb('GetItem', after(hroe.batch_write_item('{"vis": [{"PutRequest": {"Item": {"pk": {"S": "c"}, "sk": {"S": "7"}}}}]}'),
	'{"TableName": "vis", "Key": {"pk": {"S": "c"}, "sk": {"S": "7"}}}'));
SELECT hroe.get_item('vis', after(hroe.dynamodb('PutItem', '{"TableName": "vis", "Item": {"pk": {"S": "c"}, "sk": {"S": "8"}}}'),
	'{"pk": {"S": "c"}, "sk": {"S": "8"}}'));

-- A set-returning read per row of a write, in one statement
SELECT i, (SELECT count(*) FROM hroe.query('vis', 'pk = :p', after(w, '{":p": {"S": "d"}}'))) AS items
FROM (VALUES (1), (2), (3)) v(i),
	LATERAL hroe.put_item('vis', format('{"pk": {"S": "d"}, "sk": {"S": "%s"}}', i)::hroe.item) w;

-- A CTE's write, then a read of each row it returns
WITH w AS (SELECT i, hroe.put_item('vis', format('{"pk": {"S": "e"}, "sk": {"S": "%s"}}', i)::hroe.item) FROM generate_series(1, 3) i)
SELECT i, hroe.dynamodb('Query', '{"TableName": "vis", "KeyConditionExpression": "pk = :p", "Select": "COUNT",
	"ExpressionAttributeValues": {":p": {"S": "e"}}}') -> 'Count' AS count
FROM w;

-- A SQL-language function: one statement, then several
CREATE FUNCTION put_get(sk text, v int) RETURNS hroe.item LANGUAGE sql AS $$
	SELECT hroe.get_item('vis', after(hroe.put_item('vis', jsonb_build_object('pk', '{"S": "f"}'::jsonb,
		'sk', jsonb_build_object('S', sk), 'v', jsonb_build_object('N', v::text))::hroe.item),
		jsonb_build_object('pk', '{"S": "f"}'::jsonb, 'sk', jsonb_build_object('S', sk))), true)
$$;
SELECT i, put_get('1', i) FROM (VALUES (1), (2)) v(i);
CREATE FUNCTION put_then_count(sk text) RETURNS bigint LANGUAGE sql AS $$
	SELECT hroe.put_item('vis', jsonb_build_object('pk', '{"S": "f"}'::jsonb, 'sk', jsonb_build_object('S', sk))::hroe.item);
	SELECT hroe.delete_item('vis', '{"pk": {"S": "f"}, "sk": {"S": "1"}}');
	SELECT count(*) FROM hroe.query('vis', 'pk = :p', '{":p": {"S": "f"}}');
$$;
SELECT put_then_count('2'), put_then_count('3');

-- REPEATABLE READ: the transaction's snapshot, with the statement's writes
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT hroe.dynamodb('PutItem', '{"TableName": "vis", "Item": {"pk": {"S": "g"}, "sk": {"S": "1"}}}') AS put,
	hroe.dynamodb('GetItem', '{"TableName": "vis", "Key": {"pk": {"S": "g"}, "sk": {"S": "1"}}, "ConsistentRead": true}') AS got,
	hroe.dynamodb('Scan', '{"TableName": "vis", "Select": "COUNT", "FilterExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "g"}}}') AS scanned;
COMMIT;
BEGIN ISOLATION LEVEL SERIALIZABLE;
SELECT hroe.get_item('vis', after(hroe.put_item('vis', '{"pk": {"S": "g"}, "sk": {"S": "2"}}'), '{"pk": {"S": "g"}, "sk": {"S": "2"}}'), true);
COMMIT;

-- A read in a parallel query (the leader in parallel mode, where no snapshot
-- may be taken and nothing was written): the statement's snapshot
SET force_parallel_mode = on;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CREATE TABLE numbers AS SELECT generate_series(1, 10) i;
EXPLAIN (COSTS OFF) SELECT hroe.get_item('vis', jsonb_build_object('pk', '{"S": "c"}'::jsonb, 'sk', jsonb_build_object('S', c::text)))
FROM (SELECT count(*) - 4 FROM numbers) n(c);
SELECT hroe.get_item('vis', jsonb_build_object('pk', '{"S": "c"}'::jsonb, 'sk', jsonb_build_object('S', c::text))),
	(SELECT count(*) FROM hroe.query('vis', 'pk = :p', '{":p": {"S": "c"}}')) AS query
FROM (SELECT count(*) - 4 FROM numbers) n(c);
RESET force_parallel_mode;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- With the direct reads off (SQL statements under the same snapshot)
SET hroe.direct_access = off;
SELECT hroe.get_item('vis', after(hroe.put_item('vis', '{"pk": {"S": "h"}, "sk": {"S": "1"}}'), '{"pk": {"S": "h"}, "sk": {"S": "1"}}'), true),
	(SELECT count(*) FROM hroe.query('vis', 'pk = :p', after(hroe.put_item('vis', '{"pk": {"S": "h"}, "sk": {"S": "2"}}'), '{":p": {"S": "h"}}'))) AS query;
RESET hroe.direct_access;
