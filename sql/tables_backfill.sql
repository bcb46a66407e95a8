--
-- hroe.create_index on a table that already holds items: as DynamoDB's
-- backfill, items whose value for a new index key attribute violates the key
-- schema (wrong type, empty S/B, over 2048/1024 bytes) are left out of the
-- index instead of failing the creation; every later write that would store
-- a violation is rejected with DynamoDB's error (the index's NOT VALID CHECK
-- constraint); hroe.index_key_violations lists the items left out
--
\set VERBOSITY terse

SELECT hroe.create_table('backfill', 'PK', 'S', 'SK', 'N');
INSERT INTO backfill (item)
SELECT i::hroe.item FROM (VALUES
	('{"PK": {"S": "a"}, "SK": {"N": "1"}, "x": {"S": "red"}, "g": {"S": "G"}, "h": {"N": "1"}, "r": {"S": "r1"}}'::jsonb),
	('{"PK": {"S": "a"}, "SK": {"N": "2"}, "x": {"S": "red"}, "g": {"S": "G"}, "h": {"S": "1"}, "r": {"S": "r2"}}'),
	('{"PK": {"S": "a"}, "SK": {"N": "3"}, "x": {"N": "1"}, "g": {"S": ""}, "h": {"N": "2"}, "r": {"S": "r3"}}'),
	('{"PK": {"S": "a"}, "SK": {"N": "4"}, "x": {"S": ""}, "g": {"S": "G"}, "h": {"N": "4"}}'),
	(jsonb_build_object('PK', '{"S": "b"}'::jsonb, 'SK', '{"N": "1"}'::jsonb, 'x', jsonb_build_object('S', repeat('x', 2049)),
						'g', '{"S": "G"}'::jsonb, 'h', '{"N": "3"}'::jsonb, 'r', jsonb_build_object('S', repeat('r', 1025)))),
	('{"PK": {"S": "b"}, "SK": {"N": "2"}, "g": {"S": "G"}, "h": {"N": "5"}, "r": {"S": "r5"}}'),
	('{"PK": {"S": "b"}, "SK": {"N": "3"}, "x": {"S": "blue"}, "g": {"N": "5"}}')) v(i);

-- the indexes are created: a single-attribute one, and a multi-attribute one
-- (1 HASH + 2 RANGE) where one violating component leaves the item out
SELECT hroe.create_index('backfill', 'byX', '{x}', '{}', '{"x": "S"}');
SELECT hroe.create_index('backfill', 'byGH', '{g}', '{h, r}', '{"g": "S", "h": "N", "r": "S"}', 'KEYS_ONLY');
SELECT conname, convalidated, pg_get_constraintdef(oid) FROM pg_constraint
WHERE conrelid = 'backfill'::regclass AND contype = 'c' ORDER BY conname;
SELECT index_name, key_check FROM hroe.indexes WHERE table_name = 'backfill' ORDER BY index_name;

-- the violating items are in the table, not in the indexes
SELECT pk, sk, "byX_pk1", "byGH_pk1", "byGH_sk1", "byGH_sk2" IS NOT NULL AS "byGH_sk2" FROM backfill ORDER BY pk, sk;
SELECT * FROM hroe.index_key_violations('backfill', 'byX');
SELECT * FROM hroe.index_key_violations('backfill', 'byGH');
SELECT x->>'IndexName' AS index_name, x->'ItemCount' AS item_count
FROM jsonb_array_elements(hroe.describe_table('backfill')->'Table'->'GlobalSecondaryIndexes') x;
SELECT pk, sk, hroe.index_entry_size(item, 'backfill', 'byX') AS "byX", hroe.index_entry_size(item, 'backfill', 'byGH') AS "byGH"
FROM backfill ORDER BY pk, sk;

-- Query and Scan on the indexes (index scans) ...
SELECT * FROM hroe.query('backfill', 'x = :x', '{":x": {"S": "red"}}', p_index_name => 'byX');
SELECT * FROM hroe.query('backfill', 'g = :g', '{":g": {"S": "G"}}', p_index_name => 'byGH');
SELECT * FROM hroe.scan('backfill', 'byX');
SELECT * FROM hroe.explain_query('backfill', 'x = :x', '{":x": {"S": "red"}}', p_index_name => 'byX');
-- ... and the same rows read by SQL, with and without the index
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
EXPLAIN (COSTS OFF) SELECT pk, sk FROM backfill WHERE "byGH_pk1" OPERATOR(hroe.=) 'G' AND "byGH_pk1" IS NOT NULL AND "byGH_sk1" IS NOT NULL AND "byGH_sk2" IS NOT NULL ORDER BY "byGH_pk1", "byGH_sk1", "byGH_sk2";
SELECT pk, sk FROM backfill WHERE "byGH_pk1" OPERATOR(hroe.=) 'G' AND "byGH_pk1" IS NOT NULL AND "byGH_sk1" IS NOT NULL AND "byGH_sk2" IS NOT NULL ORDER BY "byGH_pk1", "byGH_sk1", "byGH_sk2";
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
EXPLAIN (COSTS OFF) SELECT pk, sk FROM backfill WHERE "byGH_pk1" OPERATOR(hroe.=) 'G' AND "byGH_pk1" IS NOT NULL AND "byGH_sk1" IS NOT NULL AND "byGH_sk2" IS NOT NULL ORDER BY "byGH_pk1", "byGH_sk1", "byGH_sk2";
SELECT pk, sk FROM backfill WHERE "byGH_pk1" OPERATOR(hroe.=) 'G' AND "byGH_pk1" IS NOT NULL AND "byGH_sk1" IS NOT NULL AND "byGH_sk2" IS NOT NULL ORDER BY "byGH_pk1", "byGH_sk1", "byGH_sk2";
RESET enable_indexscan;
RESET enable_bitmapscan;

-- New writes that would violate an index key are rejected with DynamoDB's
-- errors: E11, the empty index key message, E5, E6 (and plain SQL too)
SELECT * FROM hroe.put_item('backfill', '{"PK": {"S": "c"}, "SK": {"N": "1"}, "x": {"N": "2"}}');
SELECT * FROM hroe.put_item('backfill', '{"PK": {"S": "c"}, "SK": {"N": "1"}, "x": {"S": ""}}');
SELECT * FROM hroe.put_item('backfill', jsonb_build_object('PK', '{"S": "c"}'::jsonb, 'SK', '{"N": "1"}'::jsonb, 'x', jsonb_build_object('S', repeat('x', 2049)))::hroe.item);
SELECT * FROM hroe.put_item('backfill', jsonb_build_object('PK', '{"S": "c"}'::jsonb, 'SK', '{"N": "1"}'::jsonb, 'g', '{"S": "G"}'::jsonb, 'r', jsonb_build_object('S', repeat('r', 1025)))::hroe.item);
SELECT * FROM hroe.put_item('backfill', '{"PK": {"S": "c"}, "SK": {"N": "1"}, "g": {"S": "G"}, "h": {"B": "AA=="}}');
INSERT INTO backfill (item) VALUES ('{"PK": {"S": "c"}, "SK": {"N": "1"}, "x": {"B": "AA=="}}');
SELECT hroe.batch_write_item('{"backfill": [{"PutRequest": {"Item": {"PK": {"S": "c"}, "SK": {"N": "1"}, "x": {"BOOL": true}}}}]}');
SELECT count(*) FROM backfill WHERE pk OPERATOR(hroe.=) 'c';

-- a violating item accepts no write that keeps the violation ...
SELECT * FROM hroe.put_item('backfill', '{"PK": {"S": "a"}, "SK": {"N": "3"}, "x": {"N": "1"}, "y": {"S": "new"}}');
UPDATE backfill SET item = item OPERATOR(hroe.||) '{"y": {"S": "new"}}'::hroe.item WHERE pk OPERATOR(hroe.=) 'a' AND sk = 4;
-- ... but deleting it costs no index write: it is in neither index
SELECT consumed_capacity FROM hroe.delete_item('backfill', '{"PK": {"S": "a"}, "SK": {"N": "4"}}',
	p_return_consumed_capacity => 'INDEXES');
SELECT consumed_capacity FROM hroe.delete_item('backfill', '{"PK": {"S": "b"}, "SK": {"N": "1"}}',
	p_return_consumed_capacity => 'INDEXES');
-- b/2 is in byGH, not in byX: deleting it costs a byGH write only
SELECT consumed_capacity FROM hroe.delete_item('backfill', '{"PK": {"S": "b"}, "SK": {"N": "2"}}',
	p_return_consumed_capacity => 'INDEXES');

-- fixing the attribute brings the item into the index: one index write
-- (it enters the index), and Query returns it
SELECT consumed_capacity FROM hroe.put_item('backfill',
	'{"PK": {"S": "a"}, "SK": {"N": "3"}, "x": {"S": "red"}, "g": {"S": "G"}, "h": {"N": "2"}, "r": {"S": "r3"}}',
	p_return_consumed_capacity => 'INDEXES');
SELECT * FROM hroe.query('backfill', 'x = :x', '{":x": {"S": "red"}}', p_index_name => 'byX');
SELECT * FROM hroe.query('backfill', 'g = :g AND h = :h', '{":g": {"S": "G"}, ":h": {"N": "2"}}', p_index_name => 'byGH');
-- a plain SQL update fixing one component of the multi-attribute key (a/2: h)
UPDATE backfill SET item = hroe.item_set(item, 'h', '{"N": "6"}') WHERE pk OPERATOR(hroe.=) 'a' AND sk = 2;
SELECT * FROM hroe.query('backfill', 'g = :g AND h > :h', '{":g": {"S": "G"}, ":h": {"N": "5"}}', p_index_name => 'byGH');
-- removing the violating attribute is allowed too (b/3 loses g: out of
-- byGH as before; its byX entry changes: one byX write)
SELECT consumed_capacity FROM hroe.put_item('backfill', '{"PK": {"S": "b"}, "SK": {"N": "3"}, "x": {"S": "blue"}}',
	p_return_consumed_capacity => 'INDEXES');
SELECT * FROM hroe.index_key_violations('backfill', 'byX');
SELECT * FROM hroe.index_key_violations('backfill', 'byGH');
SET enable_seqscan = off;
SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT pk, sk FROM backfill WHERE "byX_pk1" OPERATOR(hroe.=) 'red' AND "byX_pk1" IS NOT NULL ORDER BY "byX_pk1", pk, sk;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- errors of hroe.index_key_violations
SELECT * FROM hroe.index_key_violations('nope', 'byX');
SELECT * FROM hroe.index_key_violations('backfill', 'nope');

-- a simple-key table: the violations name the partition key only
SELECT hroe.create_table('backfill_simple', 'id', 'N');
INSERT INTO backfill_simple (item) VALUES ('{"id": {"N": "1"}, "b": {"B": ""}}'), ('{"id": {"N": "2"}, "b": {"B": "AQ=="}}');
SELECT hroe.create_index('backfill_simple', 'byB', '{b}', '{}', '{"b": "B"}');
SELECT * FROM hroe.index_key_violations('backfill_simple', 'byB');
SELECT * FROM hroe.scan('backfill_simple', 'byB');
SELECT hroe.delete_table('backfill_simple');

-- DeleteIndex drops the constraint with the columns: the writes it rejected
-- are accepted again
SELECT hroe.delete_index('backfill', 'byX');
SELECT conname FROM pg_constraint WHERE conrelid = 'backfill'::regclass AND contype = 'c' ORDER BY conname;
SELECT * FROM hroe.put_item('backfill', '{"PK": {"S": "c"}, "SK": {"N": "1"}, "x": {"N": "2"}}');
SELECT hroe.delete_table('backfill');
