--
-- DROP EXTENSION hroe; CREATE EXTENSION hroe in one session: every type,
-- schema and function hroe looks up by OID (hroe.key, hroe.item, the hroe
-- schema, the API's functions) is looked up again, not taken from a cache
-- of the dropped extension.
--
-- (in a database of its own: dropping the extension drops every table of
-- the other tests that uses its types)
SELECT current_database() AS regress_db \gset
CREATE DATABASE hroe_reinstall TEMPLATE template0 ENCODING 'UTF8';
\c hroe_reinstall
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS hroe CASCADE;
RESET client_min_messages;
CREATE EXTENSION hroe;

-- Everything below runs twice: before and after the reinstall.
CREATE FUNCTION exercise() RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	r record;
BEGIN
	-- casts and operators of hroe.key, hroe.item
	RETURN NEXT format('key cast/ops: %s %s %s', 'A#B'::hroe.key::text,
					   'A#B'::hroe.key OPERATOR(hroe.^@) 'A'::hroe.key,
					   'A#B'::hroe.key OPERATOR(hroe.<) 'A#C'::hroe.key);
	RETURN NEXT format('item cast: %s', '{"a": {"N": "1"}}'::jsonb::hroe.item::jsonb);
	-- the JSON API: table management, writes (plain, conditional,
	-- transactional), reads
	RETURN NEXT hroe.dynamodb('CreateTable', '{"TableName": "ri_t", "BillingMode": "PAY_PER_REQUEST",
	  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
							   {"AttributeName": "g", "AttributeType": "S"}],
	  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
								  "Projection": {"ProjectionType": "KEYS_ONLY"}}]}')
		#> '{TableDescription, TableStatus}';
	FOR i IN 1 .. 3 LOOP
		PERFORM hroe.dynamodb('PutItem', format('{"TableName": "ri_t", "Item": {"pk": {"S": "p"}, "sk": {"S": "s%s"}, "g": {"S": "x"}}}', i)::jsonb);
	END LOOP;
	RETURN NEXT hroe.dynamodb('PutItem', '{"TableName": "ri_t", "Item": {"pk": {"S": "p"}, "sk": {"S": "s1"}, "n": {"N": "1"}},
	  "ConditionExpression": "attribute_exists(pk)", "ReturnValues": "ALL_OLD"}');
	RETURN NEXT hroe.dynamodb('UpdateItem', '{"TableName": "ri_t", "Key": {"pk": {"S": "p"}, "sk": {"S": "s2"}},
	  "UpdateExpression": "SET n = :n", "ExpressionAttributeValues": {":n": {"N": "2"}}, "ReturnValues": "ALL_NEW"}');
	RETURN NEXT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
	  {"Put": {"TableName": "ri_t", "Item": {"pk": {"S": "q"}, "sk": {"S": "s1"}}}},
	  {"Delete": {"TableName": "ri_t", "Key": {"pk": {"S": "p"}, "sk": {"S": "s3"}}}}]}');
	RETURN NEXT hroe.dynamodb('Query', '{"TableName": "ri_t", "KeyConditionExpression": "pk = :p AND begins_with(sk, :s)",
	  "ExpressionAttributeValues": {":p": {"S": "p"}, ":s": {"S": "s"}}}');
	RETURN NEXT hroe.dynamodb('Query', '{"TableName": "ri_t", "IndexName": "byG", "KeyConditionExpression": "g = :g",
	  "ExpressionAttributeValues": {":g": {"S": "x"}}, "Select": "COUNT"}');
	RETURN NEXT hroe.dynamodb('Scan', '{"TableName": "ri_t", "ProjectionExpression": "pk, sk"}');
	RETURN NEXT hroe.dynamodb('TransactGetItems', '{"TransactItems": [
	  {"Get": {"TableName": "ri_t", "Key": {"pk": {"S": "q"}, "sk": {"S": "s1"}}}}]}');
	RETURN NEXT hroe.dynamodb('DescribeTable', '{"TableName": "ri_t"}')
		#> '{Table, GlobalSecondaryIndexes, 0, ItemCount}';
	-- the SQL layer: an index sharing a key column, a key-typed table query
	PERFORM hroe.create_index('ri_t', 'byG2', '{g}', '{sk}', '{"g": "S"}', p_share_key_columns => true);
	RETURN NEXT format('byG2 columns: %s', (SELECT partition_key_columns || sort_key_columns
											FROM hroe.indexes WHERE index_name = 'byG2'));
	FOR r IN SELECT hroe.item_to_jsonb(q) AS j FROM hroe.query('ri_t', 'pk = :p',
			 '{":p": {"S": "q"}}') q LOOP
		RETURN NEXT format('query: %s', r.j);
	END LOOP;
	-- sharded_query on an hroe.key sort key
	CREATE TABLE sq (id int, shard int, sk hroe.key);
	INSERT INTO sq SELECT g, g % 3, hroe.key('O', lpad(g::text, 2, '0')) FROM generate_series(1, 9) g;
	CREATE INDEX sq_i ON sq (shard, sk);
	FOR r IN SELECT id, sk FROM hroe.sharded_query(NULL::sq, 'sq_i', 3, 'begins_with', 'O#0'::hroe.key,
													 p_limit => 4) LOOP
		RETURN NEXT format('sharded: %s %s', r.id, r.sk);
	END LOOP;
	DROP TABLE sq;
	RETURN NEXT hroe.dynamodb('DeleteTable', '{"TableName": "ri_t"}') #> '{TableDescription, TableName}';
END
$$;

SELECT * FROM exercise();
DROP EXTENSION hroe;
CREATE EXTENSION hroe;
SELECT * FROM exercise();
-- a second reinstall: what the first one made hroe look up again is
-- forgotten in turn
DROP EXTENSION hroe;
CREATE EXTENSION hroe;
SELECT count(*) FROM exercise();

\c :regress_db
DROP DATABASE hroe_reinstall;
