-- DynamoDB's limits on sizes that no single item shows: the 4 MB of a
-- transaction, the 16 MB of a BatchGetItem response, the 64 KB of an
-- attribute name (doc/dynamodb-rules.md, Keys and item size, Limits).  The large inputs
-- are built here with repeat().
CREATE SCHEMA test_limits;
SET search_path = test_limits, public;
SELECT hroe.create_table('lim', 'pk');
-- an item of about 400,000 bytes (TOASTed small: repeat compresses)
CREATE FUNCTION big_item(k text, fill text DEFAULT 'x') RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('pk', jsonb_build_object('S', k), 'd', jsonb_build_object('S', repeat(fill, 399990)));
CREATE FUNCTION key_of(k text) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('pk', jsonb_build_object('S', k));
-- a response without its large members: the error, or what it returned
CREATE FUNCTION outline(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	CASE WHEN r ? '__type' THEN r ELSE jsonb_build_object(
		'responses', (SELECT jsonb_object_agg(t, jsonb_array_length(v)) FROM jsonb_each(r -> 'Responses') e(t, v)),
		'unprocessed', (SELECT jsonb_object_agg(t, jsonb_array_length(v -> 'Keys')) FROM jsonb_each(r -> 'UnprocessedKeys') e(t, v)))
	END;

-- TransactWriteItems: at most 4 MB (4,194,304 bytes).  Ten puts of 400,000
-- bytes are accepted, eleven refused before anything is written
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Put', jsonb_build_object('TableName', 'lim', 'Item', big_item('t' || i))))
	 FROM generate_series(1, 10) i)));
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Put', jsonb_build_object('TableName', 'lim', 'Item', big_item('u' || i))))
	 FROM generate_series(1, 11) i)));
SELECT count(*) AS written FROM lim WHERE (item::jsonb -> 'pk' ->> 'S') LIKE 'u%';
-- the expression values of updates count too: twelve of 350,000 bytes
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Update', jsonb_build_object('TableName', 'lim', 'Key', key_of('w' || i),
		'UpdateExpression', 'SET e = :e', 'ExpressionAttributeValues',
		jsonb_build_object(':e', jsonb_build_object('S', repeat('y', 350000))))))
	 FROM generate_series(1, 12) i)));
SELECT count(*) AS written FROM lim WHERE (item::jsonb -> 'pk' ->> 'S') LIKE 'w%';
-- through the SQL function as well
SELECT hroe.transact_write_items(
	(SELECT jsonb_agg(jsonb_build_object('Put', jsonb_build_object('TableName', 'lim', 'Item', big_item('v' || i))))
	 FROM generate_series(1, 11) i));

-- TransactGetItems: the items read at most 4 MB; ten items of 400,000
-- bytes are returned, eleven cancel the transaction (ValidationError at the
-- item that passes 4 MB, in the request's order: t11)
SELECT jsonb_array_length(hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Get', jsonb_build_object('TableName', 'lim', 'Key', key_of('t' || i))))
	 FROM generate_series(1, 10) i))) -> 'Responses') AS items;
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lim', 'Item', big_item('t11')));
SELECT hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Get', jsonb_build_object('TableName', 'lim', 'Key', key_of('t' || i))) ORDER BY i)
	 FROM generate_series(1, 11) i)));
-- absent items weigh nothing
SELECT jsonb_array_length(hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems',
	(SELECT jsonb_agg(jsonb_build_object('Get', jsonb_build_object('TableName', 'lim', 'Key', key_of('t' || i))))
	 FROM generate_series(1, 10) i) || jsonb_build_array(jsonb_build_object('Get', jsonb_build_object('TableName', 'lim', 'Key', key_of('absent')))))) -> 'Responses') AS items;

-- BatchGetItem: the response never passes 16 MB (16,777,216 bytes); 43
-- items of 400,000 bytes: 41 returned, the other 2 keys unprocessed
INSERT INTO lim (item) SELECT big_item('b' || i)::hroe.item FROM generate_series(1, 43) i;
SELECT outline(r), (SELECT sum(hroe.item_size(hroe.item_from_jsonb(i))) FROM jsonb_array_elements(r -> 'Responses' -> 'lim') i) <= 16777216 AS within_16mb
FROM (SELECT hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems', jsonb_build_object('lim', jsonb_build_object('Keys',
	(SELECT jsonb_agg(key_of('b' || i)) FROM generate_series(1, 43) i)))))) AS b(r);
-- the unprocessed keys, read again, complete it
SELECT outline(hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems',
	(SELECT r -> 'UnprocessedKeys' FROM (SELECT hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems', jsonb_build_object('lim', jsonb_build_object('Keys',
		(SELECT jsonb_agg(key_of('b' || i)) FROM generate_series(1, 43) i)))))) AS b(r)))));

-- Attribute names: at most 65,535 bytes, at the top level, in a nested
-- map, in ExpressionAttributeNames; 65,535 is accepted
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lim', 'Item',
	key_of('n1') || jsonb_build_object(repeat('a', 65535), jsonb_build_object('S', 'v'))));
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lim', 'Item',
	key_of('n2') || jsonb_build_object(repeat('a', 65536), jsonb_build_object('S', 'v'))));
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lim', 'Item',
	key_of('n3') || jsonb_build_object('m', jsonb_build_object('M', jsonb_build_object(repeat('a', 65536), jsonb_build_object('S', 'v'))))));
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'lim', 'Item',
	key_of('n4') || jsonb_build_object('l', jsonb_build_object('L', jsonb_build_array(jsonb_build_object('M',
		jsonb_build_object(repeat('é', 32768), jsonb_build_object('S', 'v'))))))));
SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'lim', 'Key', key_of('n5'),
	'UpdateExpression', 'SET #n = :v', 'ExpressionAttributeNames', jsonb_build_object('#n', repeat('a', 65536)),
	'ExpressionAttributeValues', jsonb_build_object(':v', jsonb_build_object('S', 'v'))));
SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'lim', 'Key', key_of('n6'),
	'UpdateExpression', 'SET m = :v',
	'ExpressionAttributeValues', jsonb_build_object(':v', jsonb_build_object('M', jsonb_build_object(repeat('a', 65536), jsonb_build_object('S', 'v'))))));
SELECT pk FROM (SELECT item::jsonb -> 'pk' ->> 'S' AS pk FROM lim) x WHERE pk LIKE 'n%' ORDER BY pk;
-- the hroe.item type itself, text and binary input
SELECT hroe.item_size(jsonb_build_object(repeat('a', 65536), jsonb_build_object('S', 'v'))::text::hroe.item);
-- binary: the item with a name of 65,535 bytes, forged one byte longer (an
-- 'a' inserted at the start of the name, byte 20; the offset of the first
-- value, bytes 16-19, and the item size, bytes 4-7, little-endian, one more)
SELECT '/tmp/hroe_limits_' || pg_backend_pid() || '.bin' AS binfile \gset
CREATE TABLE forged (b bytea);
CREATE TABLE forged_item (it hroe.item);
INSERT INTO forged
SELECT set_byte(set_byte(f, 16, get_byte(f, 16) + 1), 4, get_byte(f, 4) + 1)
FROM (SELECT substr(s, 1, 20) || '\x61'::bytea || substr(s, 21) AS f
	  FROM (SELECT hroe.item_send(jsonb_build_object(repeat('a', 65535), jsonb_build_object('S', 'v'))::text::hroe.item) AS s) x) y;
COPY forged TO :'binfile' WITH (FORMAT binary);
COPY forged_item FROM :'binfile' WITH (FORMAT binary);
SELECT hroe.item_size(it) AS accepted FROM forged_item;
-- the same bytes unmodified are accepted
UPDATE forged SET b = hroe.item_send(jsonb_build_object(repeat('a', 65535), jsonb_build_object('S', 'v'))::text::hroe.item);
COPY forged TO :'binfile' WITH (FORMAT binary);
COPY forged_item FROM :'binfile' WITH (FORMAT binary);
SELECT hroe.item_size(it) FROM forged_item;
SELECT hroe.delete_table('lim');
DROP SCHEMA test_limits CASCADE;
