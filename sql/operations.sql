--
-- GetItem, PutItem, DeleteItem, BatchGetItem, BatchWriteItem: DynamoDB's
-- semantics, errors and consumed capacity (doc/dynamodb-rules.md, Keys and item size, Paging, Writes)
--
\set VERBOSITY terse
SELECT hroe.create_table('shop', 'PK', 'S', 'SK', 'S');
SELECT hroe.create_index('shop', 'GSI1', '{GSI1PK}', '{GSI1SK}', '{"GSI1PK": "S", "GSI1SK": "S"}', 'INCLUDE', '{note}');
SELECT hroe.create_table('counters', 'id', 'N');

-- an item of exactly n bytes (DynamoDB size): PK, SK and a padding string
CREATE FUNCTION sized(pk text, sk text, n int, extra jsonb DEFAULT '{}') RETURNS hroe.item
LANGUAGE sql AS $$
	SELECT (jsonb_build_object('PK', jsonb_build_object('S', pk), 'SK', jsonb_build_object('S', sk),
		'pad', jsonb_build_object('S', repeat('x', n - 2 - length(pk) - 2 - length(sk) - 3
			- coalesce(hroe.item_size(extra::hroe.item), 0)))) || extra)::hroe.item
$$;
SELECT hroe.item_size(sized('a', 'b', 1024)), hroe.item_size(sized('a', 'b', 1025, '{"note": {"S": "n"}}'));

-- PutItem: 1 KB write units of max(old, new); ReturnValues ALL_OLD
SELECT * FROM hroe.put_item('shop', sized('a', '1024', 1024), 'ALL_OLD', 'TOTAL');
SELECT * FROM hroe.put_item('shop', sized('a', '1025', 1025), 'NONE', 'TOTAL');
SELECT * FROM hroe.put_item('shop', sized('a', '3k', 3072), 'NONE', 'TOTAL');
-- 3 KB rewritten to 10 B still costs 3; the old item comes back with ALL_OLD
SELECT hroe.item_size(attributes), consumed_capacity
FROM hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "3k"}}', 'ALL_OLD', 'TOTAL');
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "3k"}}');

-- GetItem: 4 KB read units, at least 1, half when eventually consistent
SELECT * FROM hroe.put_item('shop', sized('g', '4096', 4096));
SELECT * FROM hroe.put_item('shop', sized('g', '4097', 4097));
SELECT k, (hroe.get_item_result('shop', jsonb_build_object('PK', '{"S": "g"}'::jsonb, 'SK', jsonb_build_object('S', k)), true)).consumed_capacity AS strong,
          (hroe.get_item_result('shop', jsonb_build_object('PK', '{"S": "g"}'::jsonb, 'SK', jsonb_build_object('S', k)))).consumed_capacity AS eventual
FROM unnest(ARRAY['4096', '4097', 'missing']) k;
SELECT (hroe.get_item_result('shop', '{"PK": {"S": "g"}, "SK": {"S": "4096"}}', p_return_consumed_capacity => 'NONE')).consumed_capacity IS NULL;
SELECT hroe.get_item('shop', '{"PK": {"S": "g"}, "SK": {"S": "missing"}}') IS NULL;

-- DeleteItem: the deleted size, 1 for a missing item
SELECT * FROM hroe.delete_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1025"}}', 'ALL_OLD', 'TOTAL') d
	CROSS JOIN LATERAL (SELECT hroe.item_size(d.attributes)) s;
SELECT * FROM hroe.delete_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1025"}}', 'ALL_OLD', 'TOTAL');

-- Index writes, sized on the index entry (keys + projected attributes):
-- enter 1, key change 2, projected change 1, non-projected change 0, leave 1
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}}', p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}, "GSI1PK": {"S": "G"}, "GSI1SK": {"S": "1"}}', p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}, "GSI1PK": {"S": "G"}, "GSI1SK": {"S": "2"}}', p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}, "GSI1PK": {"S": "G"}, "GSI1SK": {"S": "2"}, "note": {"S": "hi"}}', p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}, "GSI1PK": {"S": "G"}, "GSI1SK": {"S": "2"}, "note": {"S": "hi"}, "other": {"N": "1"}}', p_return_consumed_capacity => 'INDEXES');
-- an index entry of 1,500 bytes costs 2 units to enter
SELECT hroe.index_entry_size(sized('i', '2', 3000, jsonb_build_object('GSI1PK', '{"S": "G"}'::jsonb, 'GSI1SK', '{"S": "3"}'::jsonb, 'note', jsonb_build_object('S', repeat('n', 1470)))), 'shop', 'GSI1');
SELECT consumed_capacity FROM hroe.put_item('shop', sized('i', '2', 3000, jsonb_build_object('GSI1PK', '{"S": "G"}'::jsonb, 'GSI1SK', '{"S": "3"}'::jsonb, 'note', jsonb_build_object('S', repeat('n', 1470)))), p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.put_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "1"}}', p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.delete_item('shop', '{"PK": {"S": "i"}, "SK": {"S": "2"}}', p_return_consumed_capacity => 'INDEXES');

-- Key errors: E1-E6 (PutItem reads the key from the item, Get/Delete from the key)
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}}');
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"N": "1"}}');
SELECT hroe.put_item('shop', '{"PK": {"S": ""}, "SK": {"S": "1"}}');
SELECT hroe.put_item('shop', jsonb_build_object('PK', jsonb_build_object('S', repeat('k', 2049)), 'SK', '{"S": "1"}'::jsonb)::hroe.item);
SELECT hroe.put_item('shop', jsonb_build_object('PK', '{"S": "a"}'::jsonb, 'SK', jsonb_build_object('S', repeat('k', 1025)))::hroe.item);
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1"}, "GSI1PK": {"N": "1"}}');
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}}');
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "b"}, "x": {"S": "c"}}');
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "XK": {"S": "b"}}');
SELECT hroe.get_item('shop', '{"PK": {"N": "1"}, "SK": {"S": "b"}}');
SELECT hroe.get_item('shop', '{"PK": {"S": ""}, "SK": {"S": "b"}}');
SELECT hroe.get_item('shop', jsonb_build_object('PK', jsonb_build_object('S', repeat('k', 2049)), 'SK', '{"S": "1"}'::jsonb));
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "b"}}'::jsonb - 'SK' || '{"SK": {"N": "x"}}');
SELECT hroe.delete_item('shop', '{"PK": {"S": "a"}}');
SELECT hroe.get_item('nope', '{"PK": {"S": "a"}, "SK": {"S": "b"}}');
-- ReturnValues (E17), ReturnConsumedCapacity
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1"}}', 'ALL_NEW');
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1"}}', 'SOME');
SELECT hroe.delete_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1"}}', 'UPDATED_OLD');
SELECT hroe.put_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "1"}}', 'NONE', 'ALL');
-- N and B keys: equal numbers are the same key
SELECT * FROM hroe.put_item('counters', '{"id": {"N": "1e2"}, "v": {"S": "first"}}');
SELECT * FROM hroe.put_item('counters', '{"id": {"N": "100.000"}, "v": {"S": "second"}}');
SELECT hroe.get_item('counters', '{"id": {"N": "100"}}'), (SELECT count(*) FROM counters);

-- BatchGetItem: rounded per item, then summed: 1.5 KB + 6.5 KB -> 4 KB + 8 KB = 3 units
SELECT * FROM hroe.put_item('shop', sized('b', '1.5k', 1536));
SELECT * FROM hroe.put_item('shop', sized('b', '6.5k', 6656));
SELECT r -> 'ConsumedCapacity' AS capacity, jsonb_array_length(r -> 'Responses' -> 'shop') AS items
FROM hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}, {"PK": {"S": "b"}, "SK": {"S": "6.5k"}}], "ConsistentRead": true}}', 'TOTAL') r;
SELECT r -> 'ConsumedCapacity' AS capacity
FROM hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}, {"PK": {"S": "b"}, "SK": {"S": "6.5k"}}]}}', 'TOTAL') r;
-- several tables; missing keys are left out of Responses
SELECT jsonb_pretty(hroe.batch_get_item('{"counters": {"Keys": [{"id": {"N": "100"}}, {"id": {"N": "5"}}]}, "shop": {"Keys": [{"PK": {"S": "a"}, "SK": {"S": "3k"}}]}}', 'INDEXES'));
-- a table's ProjectionExpression (with its ExpressionAttributeNames): the
-- attributes named, the capacity of the whole item (1.5 KB: 0.5 unit)
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}], "ProjectionExpression": "#s, PK", "ExpressionAttributeNames": {"#s": "SK"}}}', 'TOTAL');
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}], "ExpressionAttributeNames": {"#s": "SK"}}}');
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}], "ProjectionExpression": "PK", "ExpressionAttributeNames": {"#s": "SK"}}}');
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "1.5k"}}], "ProjectionExpression": "PK,"}}');
-- errors: duplicates (E29), more than 100 keys, unknown table, bad keys
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "x"}}, {"SK": {"S": "x"}, "PK": {"S": "b"}}]}}');
SELECT hroe.batch_get_item(jsonb_build_object('shop', jsonb_build_object('Keys',
	(SELECT jsonb_agg(jsonb_build_object('PK', '{"S": "p"}'::jsonb, 'SK', jsonb_build_object('S', i::text))) FROM generate_series(1, 101) i))));
SELECT hroe.batch_get_item('{"nope": {"Keys": [{"PK": {"S": "b"}, "SK": {"S": "x"}}]}}');
SELECT hroe.batch_get_item('{"shop": {"Keys": [{"PK": {"S": "b"}}]}}');
SELECT hroe.batch_get_item('{}');
SELECT hroe.batch_get_item('{"shop": {"Keys": []}}');
-- 100 keys is fine
SELECT jsonb_array_length(hroe.batch_get_item(jsonb_build_object('shop', jsonb_build_object('Keys',
	(SELECT jsonb_agg(jsonb_build_object('PK', '{"S": "p"}'::jsonb, 'SK', jsonb_build_object('S', i::text))) FROM generate_series(1, 100) i)))) -> 'Responses' -> 'shop');

-- a response holds at most 16 MB of items: 43 items of 400 KB give 40 (15.6 MB;
-- the 41st would pass 16 MB) and 3 UnprocessedKeys, not charged
SELECT count(*) FROM generate_series(1, 43) i, hroe.put_item('shop', sized('big', lpad(i::text, 2, '0'), 409600));
SELECT jsonb_array_length(r -> 'Responses' -> 'shop') AS items, r -> 'UnprocessedKeys' AS unprocessed, r -> 'ConsumedCapacity' AS capacity
FROM hroe.batch_get_item(jsonb_build_object('shop', jsonb_build_object('Keys',
	(SELECT jsonb_agg(jsonb_build_object('PK', '{"S": "big"}'::jsonb, 'SK', jsonb_build_object('S', lpad(i::text, 2, '0')))) FROM generate_series(1, 43) i))), 'TOTAL') r;

-- BatchWriteItem: per request, then summed; index writes included
SELECT jsonb_pretty(hroe.batch_write_item(jsonb_build_object('shop', jsonb_build_array(
	jsonb_build_object('PutRequest', jsonb_build_object('Item', sized('w', '1', 2000)::jsonb)),
	jsonb_build_object('PutRequest', jsonb_build_object('Item', '{"PK": {"S": "w"}, "SK": {"S": "2"}, "GSI1PK": {"S": "G"}, "GSI1SK": {"S": "w"}}'::jsonb)),
	jsonb_build_object('DeleteRequest', jsonb_build_object('Key', '{"PK": {"S": "b"}, "SK": {"S": "6.5k"}}'::jsonb)))), 'INDEXES'));
-- (hroe.key's operators live in schema hroe)
SELECT pk, sk, hroe.item_size(item) FROM shop WHERE pk OPERATOR(hroe.=) ANY (ARRAY['w', 'b']::hroe.key[]) ORDER BY 1, 2;
SELECT hroe.batch_write_item('{"shop": [{"PutRequest": {"Item": {"PK": {"S": "w"}, "SK": {"S": "3"}}}}]}');
-- errors: duplicates (E29) also between a put and a delete, over 25, invalid items;
-- nothing is written when the batch is invalid
SELECT hroe.batch_write_item('{"shop": [{"PutRequest": {"Item": {"PK": {"S": "d"}, "SK": {"S": "1"}}}}, {"DeleteRequest": {"Key": {"PK": {"S": "d"}, "SK": {"S": "1"}}}}]}');
SELECT hroe.batch_write_item(jsonb_build_object('shop', (SELECT jsonb_agg(jsonb_build_object('PutRequest', jsonb_build_object('Item',
	jsonb_build_object('PK', '{"S": "d"}'::jsonb, 'SK', jsonb_build_object('S', i::text))))) FROM generate_series(1, 26) i)));
SELECT hroe.batch_write_item('{"shop": [{"PutRequest": {"Item": {"PK": {"S": "d"}, "SK": {"S": "2"}}}}, {"PutRequest": {"Item": {"PK": {"S": "d"}}}}]}');
SELECT hroe.batch_write_item('{"shop": [{"PutRequest": {"Item": {"PK": {"S": "d"}, "SK": {"S": "2"}, "n": {"N": "x"}}}}]}');
SELECT count(*) FROM shop WHERE pk OPERATOR(hroe.=) 'd';

-- Privileges: GetItem probes the primary key directly, so it checks SELECT
-- privilege itself, and leaves tables with row-level security to the SQL path
CREATE ROLE regress_hroe_reader;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_reader;
SET ROLE regress_hroe_reader;
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "3k"}}');
SELECT hroe.query('shop', 'PK = :p', '{":p": {"S": "a"}}');
RESET ROLE;
GRANT SELECT ON shop TO regress_hroe_reader;
ALTER TABLE shop ENABLE ROW LEVEL SECURITY;
CREATE POLICY only_w ON shop FOR SELECT TO regress_hroe_reader USING (pk OPERATOR(hroe.=) 'w');
SET ROLE regress_hroe_reader;
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "3k"}}') IS NULL AS hidden_by_policy;
SELECT hroe.get_item('shop', '{"PK": {"S": "w"}, "SK": {"S": "1"}}') IS NOT NULL AS visible;
RESET ROLE;
SELECT hroe.get_item('shop', '{"PK": {"S": "a"}, "SK": {"S": "3k"}}') IS NOT NULL AS owner_sees_it;
DROP POLICY only_w ON shop;
ALTER TABLE shop DISABLE ROW LEVEL SECURITY;
REVOKE SELECT ON shop FROM regress_hroe_reader;
REVOKE USAGE ON SCHEMA hroe FROM regress_hroe_reader;
DROP ROLE regress_hroe_reader;

SELECT hroe.delete_table('shop');
SELECT hroe.delete_table('counters');
DROP FUNCTION sized;
