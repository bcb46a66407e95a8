--
-- Item collections of tables with local secondary indexes: their sizes kept
-- by the trigger hroe.item_collection_size, ItemCollectionMetrics of every
-- write (PutItem, UpdateItem, DeleteItem, BatchWriteItem,
-- TransactWriteItems), the 10 GB limit (lowered by the superuser's
-- hroe.item_collection_size_limit) as ItemCollectionSizeLimitExceededException
--
\set VERBOSITY terse
CREATE FUNCTION ic_err(p_op text, p_req jsonb) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN hroe.dynamodb(p_op, p_req)::text;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ' ' || SQLERRM;
END $$;
SELECT (hroe.dynamodb('CreateTable', '{"TableName": "ic_t", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
		{"AttributeName": "a", "AttributeType": "N"}, {"AttributeName": "b", "AttributeType": "S"}],
	"LocalSecondaryIndexes": [
		{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}},
		{"IndexName": "byB", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}]}')
	->'TableDescription'->>'TableName');
SELECT (hroe.dynamodb('CreateTable', '{"TableName": "ic_plain", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}')
	->'TableDescription'->>'TableName');

-- the sizes kept, as DynamoDB measures a collection (items and LSI entries)
-- (of table ic_t)
CREATE FUNCTION ic_sizes(p_table text) RETURNS TABLE (pk text, kept bigint, measured bigint)
LANGUAGE sql AS $$
	SELECT m.pk, s.size_bytes, m.bytes
	FROM (SELECT i.pk::text AS pk,
				 sum(hroe.item_size(i.item) + coalesce(hroe.index_entry_size(i.item, p_table, 'byA'), 0)
					 + coalesce(hroe.index_entry_size(i.item, p_table, 'byB'), 0)) AS bytes
		  FROM ic_t i GROUP BY 1) m
	FULL JOIN hroe.item_collection_sizes s
		ON s.table_name = p_table AND s.collection = sha256(convert_to(format('{"S": %s}', to_json(m.pk)), 'UTF8'))
	ORDER BY 1
$$;

-- the single-item writes
SELECT hroe.dynamodb('PutItem', '{"TableName": "ic_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "s1"}, "a": {"N": "1"}, "b": {"S": "x"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "ic_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s2"}}, "UpdateExpression": "SET a = :a", "ExpressionAttributeValues": {":a": {"N": "2"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT * FROM ic_sizes('ic_t');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "ic_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "s2"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT * FROM ic_sizes('ic_t');

-- BatchWriteItem: per table with LSIs, each collection written once, in the
-- order of its first write; none for a table without LSIs, nor without SIZE
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {
	"ic_t": [{"PutRequest": {"Item": {"pk": {"S": "p2"}, "sk": {"S": "s1"}, "a": {"N": "5"}}}},
			 {"PutRequest": {"Item": {"pk": {"S": "p1"}, "sk": {"S": "s3"}, "b": {"S": "yy"}}}},
			 {"DeleteRequest": {"Key": {"pk": {"S": "p1"}, "sk": {"S": "s1"}}}},
			 {"PutRequest": {"Item": {"pk": {"S": "p2"}, "sk": {"S": "s2"}}}}],
	"ic_plain": [{"PutRequest": {"Item": {"pk": {"S": "q"}, "sk": {"S": "s"}}}}]},
	"ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {
	"ic_plain": [{"PutRequest": {"Item": {"pk": {"S": "q"}, "sk": {"S": "s"}}}}]},
	"ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {
	"ic_t": [{"PutRequest": {"Item": {"pk": {"S": "p3"}, "sk": {"S": "s1"}}}}]}, "ReturnItemCollectionMetrics": "NONE"}');
SELECT * FROM ic_sizes('ic_t');

-- TransactWriteItems: the collections its Put, Update and Delete wrote (not
-- a ConditionCheck's)
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
	{"Put": {"TableName": "ic_t", "Item": {"pk": {"S": "p4"}, "sk": {"S": "s1"}, "a": {"N": "4"}}}},
	{"Update": {"TableName": "ic_t", "Key": {"pk": {"S": "p2"}, "sk": {"S": "s1"}}, "UpdateExpression": "REMOVE a"}},
	{"ConditionCheck": {"TableName": "ic_t", "Key": {"pk": {"S": "p3"}, "sk": {"S": "s1"}}, "ConditionExpression": "attribute_exists(pk)"}},
	{"Delete": {"TableName": "ic_plain", "Key": {"pk": {"S": "q"}, "sk": {"S": "s"}}}},
	{"Delete": {"TableName": "ic_t", "Key": {"pk": {"S": "p4"}, "sk": {"S": "s9"}}}}],
	"ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
	{"Put": {"TableName": "ic_plain", "Item": {"pk": {"S": "q"}, "sk": {"S": "s"}}}}], "ReturnItemCollectionMetrics": "SIZE"}');
SELECT * FROM ic_sizes('ic_t');

-- every path keeps the sizes: PartiQL, plain SQL on the table
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "INSERT INTO \"ic_t\" VALUE {''pk'': ''p5'', ''sk'': ''s1'', ''a'': 7}"}');
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "UPDATE \"ic_t\" SET b = ''zzz'' WHERE pk = ''p5'' AND sk = ''s1''"}');
DELETE FROM ic_t WHERE pk::text = 'p2';
SELECT * FROM ic_sizes('ic_t');

-- the limit: lowered by a superuser only, never raised past DynamoDB's
SHOW hroe.item_collection_size_limit;
SET hroe.item_collection_size_limit = '11GB';
SET hroe.item_collection_size_limit = '1kB';
CREATE ROLE ic_user;
SET ROLE ic_user;
SET hroe.item_collection_size_limit = '2kB';
RESET ROLE;
DROP ROLE ic_user;
SELECT * FROM ic_sizes('ic_t');
-- p1 holds 22 bytes: a 900-byte item passes, a second one does not,
-- nor does its batch or transaction (whole), nor an update that grows it;
-- writes that shrink the collection, or to another one, go on
SELECT ic_err('PutItem', jsonb_build_object('TableName', 'ic_t', 'Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big1"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 900)))));
SELECT ic_err('PutItem', jsonb_build_object('TableName', 'ic_t', 'Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big2"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 900)))));
SELECT ic_err('UpdateItem', jsonb_build_object('TableName', 'ic_t', 'Key', '{"pk": {"S": "p1"}, "sk": {"S": "big1"}}'::jsonb, 'UpdateExpression', 'SET w = :w', 'ExpressionAttributeValues', jsonb_build_object(':w', jsonb_build_object('S', repeat('y', 200)))));
SELECT ic_err('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('ic_t', jsonb_build_array(
	jsonb_build_object('PutRequest', jsonb_build_object('Item', '{"pk": {"S": "p6"}, "sk": {"S": "s1"}}'::jsonb)),
	jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big3"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 900)))))))));
SELECT ic_err('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Put', jsonb_build_object('TableName', 'ic_t', 'Item', '{"pk": {"S": "p6"}, "sk": {"S": "s1"}}'::jsonb)),
	jsonb_build_object('Put', jsonb_build_object('TableName', 'ic_t', 'Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big3"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 900))))))));
SELECT hroe.dynamodb('GetItem', '{"TableName": "ic_t", "Key": {"pk": {"S": "p6"}, "sk": {"S": "s1"}}}');
SELECT ic_err('UpdateItem', '{"TableName": "ic_t", "Key": {"pk": {"S": "p1"}, "sk": {"S": "big1"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "short"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT ic_err('PutItem', '{"TableName": "ic_t", "Item": {"pk": {"S": "p7"}, "sk": {"S": "s1"}}}');
-- a table without LSIs has no limit
SELECT ic_err('PutItem', jsonb_build_object('TableName', 'ic_plain', 'Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 5000)))));
-- through the JSON API's error body
SELECT hroe.dynamodb_text('PutItem', jsonb_build_object('TableName', 'ic_t', 'Item', jsonb_build_object('pk', '{"S": "p1"}'::jsonb, 'sk', '{"S": "big2"}'::jsonb, 'v', jsonb_build_object('S', repeat('x', 2000))))::text);
RESET hroe.item_collection_size_limit;
SELECT * FROM ic_sizes('ic_t');

-- TRUNCATE forgets the table's sizes; writes count again from there
SELECT count(*) FROM hroe.item_collection_sizes WHERE table_name = 'ic_t';
TRUNCATE ic_t;
SELECT count(*) FROM hroe.item_collection_sizes WHERE table_name = 'ic_t';
SELECT hroe.dynamodb('PutItem', '{"TableName": "ic_t", "Item": {"pk": {"S": "p1"}, "sk": {"S": "s1"}}}');
SELECT * FROM ic_sizes('ic_t');

-- the trigger serves only its own table, and only as a trigger
CREATE TABLE ic_other (pk text, item hroe.item);
CREATE TRIGGER t AFTER INSERT ON ic_other FOR EACH ROW EXECUTE FUNCTION hroe.item_collection_size('ic_t');
INSERT INTO ic_other VALUES ('p1', '{"pk": {"S": "p1"}, "sk": {"S": "s"}}');
DROP TABLE ic_other;
SELECT count(*) FROM hroe.item_collection_sizes WHERE table_name = 'ic_t';

-- DeleteTable drops its sizes
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "ic_t"}')->'TableDescription'->>'TableName';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "ic_plain"}')->'TableDescription'->>'TableName';
SELECT count(*) FROM hroe.item_collection_sizes;
