-- An item hroe 0.1 or 0.2 stored with a value at level 33 (a string in 32
-- maps), which those releases accepted and 0.3's input refuses: it stays
-- readable (GetItem, projections, an index's INCLUDE projection, Query), its
-- other attributes can be updated, and a write into that attribute must
-- bring it within 32 levels (CHANGELOG 0.3, doc/dynamodb-rules.md#types).
-- The old item is made by splicing bytes, through binary-coercible casts of
-- this test's own: the root map of {"n": <31 maps around a string>} becomes
-- the value of d in {"G": .., "PK": .., "d": {"M": {}}} (d's value is the
-- payload's last bytes), its size field copied from an item of that size.
CREATE SCHEMA test_item_deep_stored;
SET search_path = test_item_deep_stored, public;
\set VERBOSITY terse
CREATE CAST (bytea AS hroe.item) WITHOUT FUNCTION;
CREATE CAST (hroe.item AS bytea) WITHOUT FUNCTION;
CREATE FUNCTION deep_json() RETURNS jsonb LANGUAGE sql IMMUTABLE
RETURN ('{"G": {"S": "g"}, "PK": {"S": "k"}, "d": ' || repeat('{"M": {"n": ', 32) || '{"S": "leaf"}' || repeat('}}', 32) || '}')::jsonb;
CREATE FUNCTION deep_item() RETURNS hroe.item LANGUAGE sql IMMUTABLE
RETURN (SELECT (substr(b, 1, 4) || substr(d, 5, 4) || substr(b, 9, length(b) - 12) || substr(a, 9))::hroe.item
	FROM (SELECT ('{"n": ' || repeat('{"M": {"n": ', 31) || '{"S": "leaf"}' || repeat('}}', 31) || '}')::hroe.item::bytea AS a,
	             '{"G": {"S": "g"}, "PK": {"S": "k"}, "d": {"M": {}}}'::hroe.item::bytea AS b) x,
	LATERAL (SELECT jsonb_build_object('d', jsonb_build_object('S', repeat('x',
		hroe.item_size(x.a::hroe.item) + hroe.item_size(x.b::hroe.item))))::text::hroe.item::bytea AS d) y);
-- the spliced item is the one 0.2 stored: its text, its size
SELECT deep_item()::text::jsonb = deep_json() AS same_text, hroe.item_size(deep_item()) AS size;
-- 0.3's input refuses it
SELECT deep_json()::text::hroe.item;

SELECT hroe.create_table('deep', 'PK');
SELECT hroe.create_index('deep', 'ByG', '{G}', '{}', '{"G": "S"}', 'INCLUDE', '{d}') IS NOT NULL AS by_g;
SELECT count(hroe.put_item('deep', deep_item())) AS put;
-- reads: the item, a projection, a document path, the index
SELECT hroe.get_item('deep', '{"PK": {"S": "k"}}', true)::text::jsonb = deep_json() AS get_item;
SELECT hroe.project(hroe.get_item('deep', '{"PK": {"S": "k"}}', true), 'd')::text::jsonb = deep_json() - 'G' - 'PK' AS projected;
SELECT jsonb_path_query_first(hroe.dynamodb('GetItem', '{"TableName": "deep", "Key": {"PK": {"S": "k"}},
	"ProjectionExpression": "d.n.n.n"}'), 'strict $.Item.d.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n.M.n') AS path_leaf;
SELECT r - 'ConsumedCapacity' AS index_query FROM hroe.dynamodb('Query', '{"TableName": "deep", "IndexName": "ByG",
	"KeyConditionExpression": "G = :g", "ExpressionAttributeValues": {":g": {"S": "g"}}, "Select": "COUNT"}') r;
SELECT jsonb_path_query_first(hroe.dynamodb('Query', '{"TableName": "deep", "IndexName": "ByG",
	"KeyConditionExpression": "G = :g", "ExpressionAttributeValues": {":g": {"S": "g"}}}'), '$.Items[0]') = deep_json() AS index_item;
-- an update of another attribute
SELECT count(hroe.update_item('deep', '{"PK": {"S": "k"}}', 'SET v = :v',
	p_expression_attribute_values => '{":v": {"N": "1"}}')) AS update_v;
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "deep", "Key": {"PK": {"S": "k"}}, "UpdateExpression": "SET v = :v",
	"ExpressionAttributeValues": {":v": {"N": "2"}}, "ReturnValues": "ALL_NEW"}') -> 'Attributes' = deep_json() || '{"v": {"N": "2"}}' AS all_new;
-- a write into d keeping the value at level 33, then one bringing d within 32
SELECT hroe.update_item('deep', '{"PK": {"S": "k"}}', 'SET d.x = :v', p_expression_attribute_values => '{":v": {"N": "1"}}');
SELECT count(hroe.update_item('deep', '{"PK": {"S": "k"}}', 'REMOVE d' || repeat('.n', 31))) AS remove_deep_part;
SELECT hroe.get_item('deep', '{"PK": {"S": "k"}}', true)::text::jsonb =
	('{"G": {"S": "g"}, "PK": {"S": "k"}, "v": {"N": "2"}, "d": ' || repeat('{"M": {"n": ', 30) || '{"M": {}}' || repeat('}}', 30) || '}')::jsonb AS within_32;

SELECT hroe.delete_table('deep') IS NOT NULL AS deleted;
DROP CAST (bytea AS hroe.item);
DROP CAST (hroe.item AS bytea);
DROP SCHEMA test_item_deep_stored CASCADE;
