-- DynamoDB's item rules as each write surface applies them (issue #31):
-- UpdateItem's own 400 KB measure (what it writes plus a cost per action,
-- the key and untouched attributes not counted) against the flat measure
-- of PartiQL's UPDATE and of a transaction's Update; numbers with a
-- leading +; the 32 levels of nesting; size() of a string
-- (doc/dynamodb-rules.md, Keys and item size, Types, Numbers)
CREATE SCHEMA test_item_surfaces;
SET search_path = test_item_surfaces, public;
\set VERBOSITY terse
SELECT hroe.create_table('surf', 'pk');
SELECT hroe.create_table('surf_n', 'pk', 'S', 'sk', 'N');
-- UpdateItem on surf, setting b to a string of n bytes
-- (the finished item's size, or the error's message)
CREATE FUNCTION upd(k text, n int, expr text DEFAULT 'SET b = :pad', vals jsonb DEFAULT '{}') RETURNS text
LANGUAGE sql RETURN (SELECT coalesce(hroe.item_size((r -> 'Attributes')::text::hroe.item)::text, r ->> 'message')
	FROM hroe.dynamodb('UpdateItem', jsonb_build_object(
	'TableName', 'surf', 'Key', jsonb_build_object('pk', jsonb_build_object('S', k)),
	'UpdateExpression', expr, 'ReturnValues', 'ALL_NEW',
	'ExpressionAttributeValues', vals || jsonb_build_object(':pad', jsonb_build_object('S', repeat('x', n))))) r);

-- one SET at a one-byte key: 3 + 19 bytes of cost against 3 of key, so the
-- finished item may be 409,581 bytes (pk K b + 409,577), not 409,600
SELECT upd('K', 409577) AS one_set_at_ceiling;
SELECT upd('L', 409578);
-- a flat PutItem of that item is accepted, and of 409,600 bytes too
SELECT count(*) AS put_flat FROM hroe.put_item('surf', jsonb_build_object('pk', '{"S": "L"}'::jsonb,
	'b', jsonb_build_object('S', repeat('x', 409596)))::text::hroe.item);
-- at a long key the finished item binds: 409,600 exactly
SELECT upd(repeat('k', 100), 409600 - 103) AS long_key_at_cap;
SELECT upd(repeat('l', 100), 409600 - 103 + 1);
-- an attribute the update leaves alone is not counted either (u: 11 bytes)
SELECT count(*) AS seeded FROM hroe.put_item('surf', '{"pk": {"S": "M"}, "u": {"S": "yyyyyyyyyy"}}');
SELECT upd('M', 409577) AS untouched_not_counted;
SELECT count(*) AS seeded FROM hroe.put_item('surf', '{"pk": {"S": "N"}, "u": {"S": "yyyyyyyyyy"}}');
SELECT upd('N', 409577 + 1);
-- each further SET or ADD costs 19, a REMOVE or DELETE 2, whatever it writes
SELECT upd('P', 409577 - 19 - 2, 'SET b = :pad, c = :c', '{":c": {"S": "y"}}') AS two_sets;
SELECT upd('Q', 409577 - 19 - 2 + 1, 'SET b = :pad, c = :c', '{":c": {"S": "y"}}');
SELECT upd('R', 409577 - 19 - 501, 'SET b = :pad, c = :c', jsonb_build_object(':c', jsonb_build_object('S', repeat('y', 500)))) AS big_second_set;
SELECT upd('S', 409577 - 2, 'SET b = :pad REMOVE r') AS set_and_remove;
SELECT upd('T', 409577 - 2 + 1, 'SET b = :pad REMOVE r');
-- a SET of a list element costs one byte more: d = [pad] written whole
-- (d 1 + L 3 + 1 + pad) against d[0] = pad
SELECT count(*) AS seeded FROM hroe.put_item('surf', '{"pk": {"S": "U"}, "d": {"L": [{"S": "x"}]}}');
SELECT count(*) AS seeded FROM hroe.put_item('surf', '{"pk": {"S": "V"}, "d": {"L": [{"S": "x"}]}}');
SELECT upd('U', 409577 - 5, 'SET d[0] = :pad') AS list_element;
SELECT upd('V', 409577 - 5 + 1, 'SET d[0] = :pad');
-- the same through the SQL function hroe.update_item
SELECT hroe.update_item('surf', '{"pk": {"S": "W"}}', 'SET b = :pad', NULL, NULL,
	jsonb_build_object(':pad', jsonb_build_object('S', repeat('x', 409578))));

-- PartiQL's UPDATE and a transaction's Update measure the finished item
-- only: 409,600 bytes at a one-byte key, which UpdateItem refuses
SELECT count(*) AS seeded FROM hroe.put_item('surf', '{"pk": {"S": "X"}}');
SELECT upd('X', 409596);
SELECT hroe.dynamodb('ExecuteStatement', jsonb_build_object('Statement', 'UPDATE "surf" SET p = ? WHERE pk = ?',
	'Parameters', jsonb_build_array(jsonb_build_object('S', repeat('x', 409596)), '{"S": "X"}'::jsonb)));
SELECT hroe.item_size(hroe.get_item('surf', '{"pk": {"S": "X"}}')) AS partiql_update;
SELECT hroe.dynamodb('ExecuteStatement', jsonb_build_object('Statement', 'UPDATE "surf" SET p = ? WHERE pk = ?',
	'Parameters', jsonb_build_array(jsonb_build_object('S', repeat('x', 409597)), '{"S": "X"}'::jsonb)));
CREATE FUNCTION tx_update(k text, n int) RETURNS jsonb LANGUAGE sql RETURN
	hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
		jsonb_build_object('Update', jsonb_build_object('TableName', 'surf',
			'Key', jsonb_build_object('pk', jsonb_build_object('S', k)), 'UpdateExpression', 'SET p = :p',
			'ExpressionAttributeValues', jsonb_build_object(':p', jsonb_build_object('S', repeat('x', n))))))));
SELECT tx_update('Y', 409596);
SELECT hroe.item_size(hroe.get_item('surf', '{"pk": {"S": "Y"}}')) AS transacted_update;
-- one byte over cancels the transaction (ValidationError, UpdateItem's
-- text), for a fresh key as for an existing item; a Put stays a
-- ValidationException
\set VERBOSITY default
SELECT tx_update('Y', 409597);
SELECT tx_update('Z', 409597);
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Put', jsonb_build_object('TableName', 'surf',
		'Item', jsonb_build_object('pk', '{"S": "Z"}'::jsonb, 'p', jsonb_build_object('S', repeat('x', 409597))))))));
\set VERBOSITY terse

-- numbers: a leading + is accepted and dropped, in attributes, sets and keys
SELECT '{"a": {"N": "+5"}, "b": {"N": "+.5"}, "c": {"N": "+1e-2"}, "d": {"N": "+0.0"}, "e": {"N": "+1e2"}}'::hroe.item;
SELECT '{"s": {"NS": ["+1", "1"]}}'::hroe.item;
SELECT '{"a": {"N": "++5"}}'::hroe.item;
SELECT '{"a": {"N": "+-5"}}'::hroe.item;
SELECT '{"a": {"N": "+"}}'::hroe.item;
SELECT '{"a": {"N": "+e2"}}'::hroe.item;
SELECT count(*) AS put FROM hroe.put_item('surf_n', '{"pk": {"S": "n"}, "sk": {"N": "+5"}, "v": {"S": "plus"}}');
SELECT hroe.get_item('surf_n', '{"pk": {"S": "n"}, "sk": {"N": "5"}}');

-- nesting: an attribute's value is level 1; a value at level 33 is refused,
-- in an item as in an expression value (31 maps around a string: level 32)
SELECT hroe.item_size(('{"a": ' || repeat('{"M": {"n": ', 31) || '{"S": "leaf"}' || repeat('}}', 31) || '}')::hroe.item) AS leaf_at_32;
SELECT ('{"a": ' || repeat('{"M": {"n": ', 32) || '{"S": "leaf"}' || repeat('}}', 32) || '}')::hroe.item;
SELECT hroe.condition_matches('{}', 'd = :deep', NULL,
	('{":deep": ' || repeat('{"M": {"n": ', 31) || '{"S": "leaf"}' || repeat('}}', 31) || '}')::jsonb) AS eav_leaf_at_32;
SELECT hroe.condition_matches('{}', 'd = :deep', NULL,
	('{":deep": ' || repeat('{"M": {"n": ', 32) || '{"S": "leaf"}' || repeat('}}', 32) || '}')::jsonb);
SELECT hroe.item_size(('{"a": ' || repeat('{"L": [', 31) || '{"S": "leaf"}' || repeat(']}', 31) || '}')::hroe.item) AS list_leaf_at_32;
SELECT ('{"a": ' || repeat('{"L": [', 32) || '{"S": "leaf"}' || repeat(']}', 32) || '}')::hroe.item;
-- an update may not nest a value deeper either
SELECT hroe.apply_update(('{"a": ' || repeat('{"M": {"n": ', 30) || '{"S": "x"}' || repeat('}}', 30) || '}')::hroe.item,
	'SET a' || repeat('.n', 30) || ' = :v', NULL, '{":v": {"M": {"n": {"M": {"n": {"S": "leaf"}}}}}}');
-- it checks the attributes it writes, in their finished form: an empty M
-- at level 32 is fine, and an update elsewhere leaves them alone
SELECT hroe.apply_update(('{"a": ' || repeat('{"M": {"n": ', 30) || '{"S": "x"}' || repeat('}}', 30) || '}')::hroe.item,
	'SET a' || repeat('.n', 30) || ' = :v, b = :b', NULL, '{":v": {"M": {}}, ":b": {"N": "1"}}') IS NOT NULL AS empty_m_at_32;
-- embedding a collection moves its items' values two levels down
SELECT hroe.item_embed_collection('{}', 'c', hroe.item_collection_agg('k',
	('{"a": ' || repeat('{"M": {"n": ', 29) || '{"S": "leaf"}' || repeat('}}', 29) || '}')::hroe.item)) IS NOT NULL AS embedded_leaf_at_32;
SELECT hroe.item_embed_collection('{}', 'c', hroe.item_collection_agg('k',
	('{"a": ' || repeat('{"M": {"n": ', 30) || '{"S": "leaf"}' || repeat('}}', 30) || '}')::hroe.item));

-- size() of a string counts UTF-16 code units: "é𝄞" is 3 (6 UTF-8 bytes)
SELECT hroe.condition_matches('{"s": {"S": "é𝄞"}}', 'size(s) = :n', NULL, '{":n": {"N": "3"}}') AS three,
       hroe.condition_matches('{"s": {"S": "é𝄞"}}', 'size(s) = :n', NULL, '{":n": {"N": "6"}}') AS six,
       hroe.condition_matches('{"b": {"B": "w6nwnYSe"}}', 'size(b) = :n', NULL, '{":n": {"N": "6"}}') AS binary_bytes;

SELECT hroe.delete_table('surf');
SELECT hroe.delete_table('surf_n');
DROP SCHEMA test_item_surfaces CASCADE;
