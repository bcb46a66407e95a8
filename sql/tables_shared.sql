--
-- hroe.create_index with p_share_key_columns: an index key attribute that the
-- table key or an earlier index already extracts, with the same type, reuses
-- that generated column when its values are exactly this index's keys
-- (hroe.key_column_for); a new column is named after its attribute.  A
-- column goes with the last index using it; pk and sk always stay.
--
\set VERBOSITY terse

SELECT hroe.create_table('shr', 'PK', 'S', 'SK', 'S');
-- stored before the indexes: a 1500-byte G (a valid HASH key, too long for
-- a RANGE key), a G of the wrong type, an item without G
INSERT INTO shr (item)
SELECT i::hroe.item FROM (VALUES
	('{"PK": {"S": "p1"}, "SK": {"S": "A"}, "G": {"S": "g1"}, "H": {"N": "1"}, "it''s": {"S": "q1"}}'::jsonb),
	('{"PK": {"S": "p2"}, "SK": {"S": "A"}, "G": {"S": "g2"}, "H": {"N": "2"}, "it''s": {"S": "q2"}}'),
	('{"PK": {"S": "p3"}, "SK": {"S": "B"}, "G": {"S": "g3"}, "H": {"N": "1"}}'),
	(jsonb_build_object('PK', '{"S": "p4"}'::jsonb, 'SK', '{"S": "B"}'::jsonb,
						'G', jsonb_build_object('S', repeat('g', 1500)), 'H', '{"N": "2"}'::jsonb)),
	('{"PK": {"S": "p5"}, "SK": {"S": "A"}, "G": {"N": "5"}, "H": {"N": "1"}}'),
	('{"PK": {"S": "p6"}, "SK": {"S": "B"}, "H": {"N": "3"}}')) v(i);

-- byG: HASH G, a new column named after the attribute
SELECT hroe.create_index('shr', 'byG', '{G}', '{}', '{"G": "S"}', p_share_key_columns => true);
-- bySkG: HASH SK reuses the table's sk; RANGE G cannot reuse byG's column
-- (it holds the 1500-byte G, which must stay out of bySkG): a column of its own
SELECT hroe.create_index('shr', 'bySkG', '{SK}', '{G}', '{"G": "S"}', p_share_key_columns => true);
-- byHG: RANGE G shares bySkG's RANGE column; HASH H a new column
SELECT hroe.create_index('shr', 'byHG', '{H}', '{G}', '{"G": "S", "H": "N"}', p_share_key_columns => true);
-- bySkPk: the inverted table key: HASH SK reuses sk; RANGE PK never reuses
-- pk, which holds partition keys in their index form (a key over 192 bytes
-- as a prefix and its SHA-256), out of the keys' order: a column of its own
SELECT hroe.create_index('shr', 'bySkPk', '{SK}', '{PK}', p_share_key_columns => true);
-- an attribute name with a quote: a new column, then shared
SELECT hroe.create_index('shr', 'byQ1', '{SK}', '{it''s}', '{"it''s": "S"}', p_share_key_columns => true);
SELECT hroe.create_index('shr', 'byQ2', '{H}', '{it''s}', '{"it''s": "S", "H": "N"}', p_share_key_columns => true);
-- the same attribute as a HASH key: the RANGE column cannot serve it (once
-- the RANGE indexes were deleted, longer keys would be accepted but left out)
SELECT hroe.create_index('shr', 'byQ3', '{it''s}', '{}', '{"it''s": "S"}', p_share_key_columns => true);
-- without p_share_key_columns (the default): columns of its own, as before
SELECT hroe.create_index('shr', 'byH', '{H}', '{}', '{"H": "N"}');

SELECT index_name, partition_key, partition_key_columns, sort_key, sort_key_columns, index_relname
FROM hroe.indexes WHERE table_name = 'shr' ORDER BY index_name;
SELECT a.attname, pg_get_expr(d.adbin, d.adrelid) AS generated
FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = 'shr'::regclass ORDER BY a.attnum;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index
WHERE indrelid = 'shr'::regclass ORDER BY 1;

-- what is in each index: exactly the items whose keys are valid for it
-- (byG's column g holds the 1500-byte G in its 256-byte index form)
SELECT pk, sk, left(g::text, 4) AS g, octet_length(g::text) AS g_bytes, "bySkG_sk1", h FROM shr ORDER BY pk, sk;
SELECT x->>'IndexName' AS index_name, x->'ItemCount' AS item_count
FROM jsonb_array_elements(hroe.describe_table('shr')->'Table'->'GlobalSecondaryIndexes') x;
SELECT * FROM hroe.index_key_violations('shr', 'byG');
SELECT * FROM hroe.index_key_violations('shr', 'bySkG');
SELECT * FROM hroe.index_key_violations('shr', 'byHG');

-- Queries on the shared indexes: the direct btree path, and the SQL path
-- (ExclusiveStartKey) planned on the index
SELECT hroe.item_get_text(i, 'PK') AS pk FROM hroe.query('shr', 'SK = :s AND begins_with(G, :g)',
	'{":s": {"S": "A"}, ":g": {"S": "g"}}', p_index_name => 'bySkG') i;
SELECT hroe.item_get_text(i, 'PK') AS pk FROM hroe.query('shr', 'H = :h', '{":h": {"N": "1"}}',
	p_index_name => 'byHG', p_scan_index_forward => false) i;
SELECT hroe.item_get_text(i, 'PK') AS pk FROM hroe.query('shr', 'SK = :s', '{":s": {"S": "B"}}',
	p_index_name => 'bySkPk') i;
SELECT hroe.item_get_text(i, 'PK') AS pk FROM hroe.query('shr', 'G = :g', '{":g": {"S": "g2"}}',
	p_index_name => 'byG') i;
SELECT count, last_evaluated_key FROM hroe.query_page('shr', 'H = :h', '{":h": {"N": "1"}}',
	p_index_name => 'byHG', p_limit => 1);
SELECT count, items[1] OPERATOR(hroe.->) 'PK' AS pk, last_evaluated_key FROM hroe.query_page('shr', 'H = :h', '{":h": {"N": "1"}}',
	p_index_name => 'byHG', p_limit => 1,
	p_exclusive_start_key => '{"PK": {"S": "p1"}, "SK": {"S": "A"}, "H": {"N": "1"}, "G": {"S": "g1"}}');
SELECT * FROM hroe.explain_query('shr', 'H = :h', '{":h": {"N": "1"}}', p_index_name => 'byHG',
	p_exclusive_start_key => '{"PK": {"S": "p1"}, "SK": {"S": "A"}, "H": {"N": "1"}, "G": {"S": "g1"}}');
SELECT * FROM hroe.explain_query('shr', 'SK = :s', '{":s": {"S": "B"}}', p_index_name => 'bySkPk',
	p_exclusive_start_key => '{"PK": {"S": "p3"}, "SK": {"S": "B"}}');

-- The same reads in SQL, with the index and without it
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT pk FROM shr WHERE sk OPERATOR(hroe.=) 'A' AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1", pk;
SELECT pk FROM shr WHERE sk OPERATOR(hroe.=) 'A' AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1", pk;
EXPLAIN (COSTS OFF) SELECT pk FROM shr WHERE h = 1 AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1" DESC, pk DESC, sk DESC;
SELECT pk FROM shr WHERE h = 1 AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1" DESC, pk DESC, sk DESC;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT pk FROM shr WHERE sk OPERATOR(hroe.=) 'A' AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1", pk;
SELECT pk FROM shr WHERE sk OPERATOR(hroe.=) 'A' AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1", pk;
EXPLAIN (COSTS OFF) SELECT pk FROM shr WHERE h = 1 AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1" DESC, pk DESC, sk DESC;
SELECT pk FROM shr WHERE h = 1 AND "bySkG_sk1" IS NOT NULL ORDER BY "bySkG_sk1" DESC, pk DESC, sk DESC;
RESET enable_indexscan;
RESET enable_bitmapscan;

-- Writes: a RANGE index on a shared column still refuses a 1500-byte G
SELECT hroe.put_item('shr', jsonb_build_object('PK', '{"S": "p7"}'::jsonb, 'SK', '{"S": "A"}'::jsonb,
	'G', jsonb_build_object('S', repeat('g', 1500)))::hroe.item);
SELECT consumed_capacity FROM hroe.put_item('shr', '{"PK": {"S": "p7"}, "SK": {"S": "A"}, "G": {"S": "g7"}, "H": {"N": "1"}}',
	p_return_consumed_capacity => 'INDEXES');
SELECT pk, g, "bySkG_sk1", h FROM shr WHERE pk OPERATOR(hroe.=) 'p7';

-- Deleting indexes: a shared column stays while an index uses it; the
-- table's pk and sk always stay
SELECT hroe.delete_index('shr', 'bySkG');
SELECT hroe.delete_index('shr', 'bySkPk');
SELECT hroe.delete_index('shr', 'byQ1');
SELECT attname FROM pg_attribute WHERE attrelid = 'shr'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
SELECT hroe.item_get_text(i, 'PK') AS pk FROM hroe.query('shr', 'H = :h', '{":h": {"N": "1"}}',
	p_index_name => 'byHG') i;
SELECT hroe.delete_index('shr', 'byHG');
SELECT hroe.delete_index('shr', 'byQ2');
SELECT attname FROM pg_attribute WHERE attrelid = 'shr'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
SELECT index_name, partition_key_columns, sort_key_columns FROM hroe.indexes WHERE table_name = 'shr' ORDER BY 1;

-- RANGE on the partition key: never pk (index forms), a column of its own
-- that leaves a PK over 1024 bytes out; pk holds it in its index form
SELECT hroe.create_table('shr_pk', 'PK', 'S');
INSERT INTO shr_pk (item) VALUES ('{"PK": {"S": "a"}, "T": {"S": "t"}}');
SELECT hroe.create_index('shr_pk', 'byT', '{T}', '{PK}', '{"T": "S"}', p_share_key_columns => true);
INSERT INTO shr_pk (item) SELECT jsonb_build_object('PK', jsonb_build_object('S', repeat('p', 1500)), 'T', '{"S": "t"}'::jsonb)::hroe.item;
SELECT hroe.delete_index('shr_pk', 'byT');
INSERT INTO shr_pk (item) SELECT jsonb_build_object('PK', jsonb_build_object('S', repeat('p', 1500)), 'T', '{"S": "t"}'::jsonb)::hroe.item;
SELECT hroe.create_index('shr_pk', 'byT', '{T}', '{PK}', '{"T": "S"}', p_share_key_columns => true);
SELECT index_name, partition_key_columns, sort_key_columns FROM hroe.indexes WHERE table_name = 'shr_pk';
SELECT octet_length(pk::text), t, "byT_sk1" IS NOT NULL AS in_byT FROM shr_pk ORDER BY 1;
SELECT attribute_name, key_type, violation FROM hroe.index_key_violations('shr_pk', 'byT');

-- hroe.indexes names the index (index_relname); DescribeTable shows it
SELECT x->>'IndexName' AS index_name, x->>'PostgresIndex' AS postgres_index
FROM jsonb_array_elements(hroe.describe_table('shr')->'Table'->'GlobalSecondaryIndexes') x;
-- an index dropped behind hroe's back: operations on the table fail, naming it;
-- hroe.delete_index still removes the GSI (and its unused columns)
DROP INDEX "shr.byH";
SELECT hroe.get_item('shr', '{"PK": {"S": "p1"}, "SK": {"S": "A"}}') IS NOT NULL AS found;
SELECT hroe.delete_index('shr', 'byH');
SELECT hroe.get_item('shr', '{"PK": {"S": "p1"}, "SK": {"S": "A"}}') IS NOT NULL AS found;
SELECT attname FROM pg_attribute WHERE attrelid = 'shr'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;

-- Sharing reads hroe.indexes, not the columns' expressions: an attribute
-- name with a backslash shares like any other; a generated column the user
-- added with hroe's very expression is never taken (nor dropped with an index)
SELECT hroe.create_table('shr_own', 'PK', 'S');
INSERT INTO shr_own (item) VALUES ('{"PK": {"S": "a"}, "b\\s": {"S": "x"}, "U": {"S": "u"}}');
SELECT hroe.create_index('shr_own', 'byBs1', ARRAY['b\s'], '{}', '{"b\\s": "S"}', p_share_key_columns => true);
SELECT hroe.create_index('shr_own', 'byBs2', ARRAY['b\s'], '{PK}', '{"b\\s": "S"}', p_share_key_columns => true);
ALTER TABLE shr_own ADD COLUMN mine hroe.key GENERATED ALWAYS AS (hroe.item_key_s(item, 'U', false, 'x')) STORED;
SELECT hroe.create_index('shr_own', 'byU', '{U}', '{}', '{"U": "S"}', p_share_key_columns => true);
SELECT index_name, partition_key_columns, sort_key_columns FROM hroe.indexes WHERE table_name = 'shr_own' ORDER BY 1;
SELECT hroe.delete_index('shr_own', 'byU');
SELECT attname FROM pg_attribute WHERE attrelid = 'shr_own'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
SELECT hroe.query('shr_own', '#b = :b', '{":b": {"S": "x"}}', '{"#b": "b\\s"}', 'byBs2')::jsonb;

SELECT hroe.delete_table('shr'), hroe.delete_table('shr_pk'), hroe.delete_table('shr_own');
