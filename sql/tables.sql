--
-- DynamoDB tables and global secondary indexes: hroe.create_table,
-- hroe.create_index, hroe.describe_table, hroe.delete_index, hroe.delete_table
--
\set VERBOSITY terse

-- A table with a composite key of strings: a PostgreSQL table whose key
-- columns are generated from the item
SELECT hroe.create_table('hrdata', 'PK', 'S', 'SK', 'S');
\d hrdata
-- (the tables of the models the extension installs, hroe_multi..., are left out)
SELECT table_name, relid, partition_key, partition_key_type, sort_key, sort_key_type FROM hroe.tables
WHERE relid::text NOT LIKE 'hroe\_%';
-- N and B keys are numeric and bytea; a simple key has no sort key column
CREATE SCHEMA dyn;
SELECT hroe.create_table('counters', 'id', 'N', p_schema => 'dyn');
SELECT hroe.create_table('blobs', 'h', 'B', 'r', 'N', p_schema => 'dyn');
\d dyn.counters
\d dyn.blobs
-- the table lives in the caller's current schema by default, whatever the search_path
SET search_path = dyn, public;
SELECT hroe.create_table('in_dyn', 'k');
RESET search_path;

-- CreateTable errors, with DynamoDB's texts (SQLSTATE class HR)
\set VERBOSITY default
\set SHOW_CONTEXT never
SELECT hroe.create_table('hrdata', 'PK');
\set VERBOSITY terse
SELECT hroe.create_table('ab', 'PK');
SELECT hroe.create_table('bad name!', 'PK');
SELECT hroe.create_table(repeat('t', 256), 'PK');
SELECT hroe.create_table('t_bool', 'PK', 'BOOL');
SELECT hroe.create_table('t_same', 'PK', 'S', 'PK', 'S');
SELECT hroe.create_table('t_empty', '');
-- a name over PostgreSQL's 63 bytes: the relation takes a prefix and a hash
SELECT hroe.create_table(repeat('t', 64), 'PK');
SELECT hroe.delete_table(repeat('t', 64));

-- A GSI: generated key columns, a partial (sparse) btree index on
-- (index keys..., table keys), so ties are ordered by the table key
SELECT hroe.create_index('hrdata', 'GSI1', '{SK}', '{data}', '{"data": "S"}');
-- a multi-attribute key: 2 HASH + 2 RANGE attributes of mixed types, KEYS_ONLY
SELECT hroe.create_index('hrdata', 'byRegion', '{status, region}', '{date, seq}',
	'{"status": "S", "region": "S", "date": "S", "seq": "N"}', 'KEYS_ONLY');
-- INCLUDE projection
SELECT hroe.create_index('hrdata', 'byManager', '{manager}', '{}', '{"manager": "S"}', 'INCLUDE', '{name, email}');
\d hrdata
SELECT table_name, index_name, index_relname, partition_key, partition_key_types, partition_key_columns,
       sort_key, sort_key_types, sort_key_columns, projection, non_key_attributes
FROM hroe.indexes WHERE table_name = 'hrdata' ORDER BY index_name;
SELECT indexrelid::regclass, pg_get_indexdef(indexrelid) FROM pg_index
WHERE indrelid = 'hrdata'::regclass ORDER BY 1;

-- CreateIndex errors (multi-attribute rules of section 7)
SELECT hroe.create_index('nope', 'GSI1', '{a}');
SELECT hroe.create_index('hrdata', 'GSI1', '{a}', '{}', '{"a": "S"}');
SELECT hroe.create_index('hrdata', 'Gfive', '{a,b,c,d,e}', '{}', '{"a":"S","b":"S","c":"S","d":"S","e":"S"}');
SELECT hroe.create_index('hrdata', 'G5r', '{a}', '{b,c,d,e,f}', '{"a":"S","b":"S","c":"S","d":"S","e":"S","f":"S"}');
SELECT hroe.create_index('hrdata', 'Gdup', '{a}', '{a}', '{"a": "S"}');
SELECT hroe.create_index('hrdata', 'Gdup2', '{a, b, a}', '{}', '{"a": "S", "b": "S"}');
SELECT hroe.create_index('hrdata', 'Gnone', '{}', '{a}', '{"a": "S"}');
SELECT hroe.create_index('hrdata', 'Gundef', '{a}', '{b}', '{"a": "S"}');
SELECT hroe.create_index('hrdata', 'Gextra', '{a}', '{}', '{"a": "S", "z": "N"}');
SELECT hroe.create_index('hrdata', 'Gtype', '{a}', '{}', '{"a": "SS"}');
SELECT hroe.create_index('hrdata', 'Gtable', '{PK}', '{}', '{"PK": "N"}');
SELECT hroe.create_index('hrdata', 'Gproj', '{a}', '{}', '{"a": "S"}', 'SOME');
SELECT hroe.create_index('hrdata', 'Gproj', '{a}', '{}', '{"a": "S"}', 'ALL', '{x}');
SELECT hroe.create_index('hrdata', 'Gproj', '{a}', '{}', '{"a": "S"}', 'INCLUDE');
SELECT hroe.create_index('hrdata', 'Gproj', '{a}', '{}', '{"a": "S"}', 'INCLUDE', '{x, x}');
SELECT hroe.create_index('hrdata', 'x', '{a}', '{}', '{"a": "S"}');
-- at most 100 projected non-key attributes across all indexes of a table
SELECT hroe.create_index('hrdata', 'Gmany', '{a}', '{}', '{"a": "S"}', 'INCLUDE',
	(SELECT array_agg('attr' || i) FROM generate_series(1, 99) i));
-- (name and email are already projected by byManager: 99 + 2 = 101)
-- at most 20 GSIs per table
SELECT count(hroe.create_index('counters', 'g' || lpad(i::text, 2, '0'), ARRAY['a' || i],
	'{}', jsonb_build_object('a' || i, 'S'))) FROM generate_series(1, 20) i;
SELECT hroe.create_index('counters', 'g21', '{a21}', '{}', '{"a21": "S"}');
-- a failed create_index leaves nothing behind
SELECT count(*) FROM hroe.indexes WHERE table_name = 'hrdata';
SELECT count(*) FROM pg_attribute WHERE attrelid = 'hrdata'::regclass AND attnum > 0 AND NOT attisdropped;

-- Plain SQL writes go through the same generated columns: an item enters
-- each index whose key attributes it has all of (sparse), with checked types
INSERT INTO hrdata (item) VALUES
	('{"PK": {"S": "EMP#1"}, "SK": {"S": "EMP#1"}, "data": {"S": "Ann"}, "manager": {"S": "EMP#9"}, "name": {"S": "Ann"}}'),
	('{"PK": {"S": "EMP#2"}, "SK": {"S": "EMP#2"}, "data": {"S": "Bob"}, "status": {"S": "OPEN"}, "region": {"S": "EU"}, "date": {"S": "2025-01-02"}, "seq": {"N": "7"}}'),
	('{"PK": {"S": "EMP#2"}, "SK": {"S": "JOB#1"}, "status": {"S": "OPEN"}, "region": {"S": "EU"}, "date": {"S": "2025-01-03"}}');
SELECT pk, sk, "GSI1_pk1", "GSI1_sk1", "byRegion_pk1", "byRegion_pk2", "byRegion_sk1", "byRegion_sk2", "byManager_pk1"
FROM hrdata ORDER BY pk, sk;
INSERT INTO hrdata (item) VALUES ('{"PK": {"S": "EMP#3"}, "SK": {"S": "EMP#3"}, "seq": {"S": "7"}}');
INSERT INTO hrdata (item) VALUES ('{"PK": {"S": "EMP#3"}, "SK": {"S": "EMP#3"}, "manager": {"S": ""}}');
INSERT INTO hrdata (item) VALUES ('{"PK": {"S": "EMP#3"}}');

-- DescribeTable
SELECT jsonb_pretty(hroe.describe_table('hrdata') #- '{Table,CreationDateTime}' #- '{Table,TableId}' #- '{Table,BillingModeSummary,LastUpdateToPayPerRequestDateTime}');
SELECT hroe.describe_table('nope');
-- the counts and sizes of the table and of its three indexes come from one
-- pass over the table (hroe.table_sizes), and match a count per index
-- (this backend's scans of hrdata not yet flushed to the statistics, which
-- no flush empties inside a transaction block)
BEGIN;
SELECT pg_stat_get_xact_numscans('hrdata'::regclass) AS scans_before \gset
SELECT hroe.describe_table('hrdata') IS NOT NULL AS described;
SELECT pg_stat_get_xact_numscans('hrdata'::regclass) - :scans_before AS scans_of_hrdata;
COMMIT;
SELECT index_name, item_count, size_bytes FROM hroe.table_sizes('hrdata') ORDER BY index_name NULLS FIRST;
SELECT (SELECT count(*) FROM hrdata) AS items, (SELECT sum(hroe.item_size(item)) FROM hrdata) AS bytes,
	   (SELECT count(*) FROM hrdata WHERE "GSI1_pk1" IS NOT NULL AND "GSI1_sk1" IS NOT NULL) AS in_gsi1,
	   (SELECT sum(hroe.index_entry_size(item, 'hrdata', 'GSI1')) FROM hrdata) AS gsi1_bytes;
SELECT hroe.table_sizes('nope');

-- DeleteIndex drops the index and its columns; DeleteTable everything
SELECT hroe.delete_index('hrdata', 'byManager');
SELECT hroe.delete_index('hrdata', 'byManager');
SELECT hroe.delete_index('nope', 'byManager');
SELECT attname FROM pg_attribute WHERE attrelid = 'hrdata'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum;
SELECT hroe.delete_table('counters');
SELECT hroe.delete_table('counters');
SELECT to_regclass('dyn.counters'), (SELECT count(*) FROM hroe.indexes WHERE table_name = 'counters');

-- the metadata tables are dumped by pg_dump with the extension
SELECT c.relname FROM pg_extension e, unnest(e.extconfig) cfg JOIN pg_class c ON c.oid = cfg
WHERE e.extname = 'hroe' AND c.relnamespace = 'hroe'::regnamespace ORDER BY 1;

-- the generated key columns: hroe.item_key_s/n/b
SELECT hroe.item_key_s('{"a": {"S": "x"}}', 'a', false);
SELECT hroe.item_key_n('{"a": {"N": "1.50"}}', 'a', true);
SELECT hroe.item_key_b('{"a": {"B": "AAE="}}', 'a', false);
SELECT hroe.item_key_s('{"b": {"S": "x"}}', 'a', false, 'GSI1') IS NULL AS sparse;
SELECT hroe.item_key_s('{"b": {"S": "x"}}', 'a', false);
SELECT hroe.item_key_s('{"a": {"N": "1"}}', 'a', true);
SELECT hroe.item_key_s('{"a": {"S": ""}}', 'a', false);
SELECT hroe.item_key_b('{"a": {"B": ""}}', 'a', false);
-- an index key violating the key schema is NULL (out of the index) ...
SELECT hroe.item_key_s('{"a": {"N": "1"}}', 'a', true, 'GSI1') IS NULL AS mistyped,
       hroe.item_key_s('{"a": {"S": ""}}', 'a', false, 'GSI1') IS NULL AS empty,
       hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 1025)))::hroe.item, 'a', true, 'GSI1') IS NULL AS oversized,
       hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 1025)))::hroe.item, 'a', false, 'GSI1') IS NOT NULL AS hash_fits;
-- ... and the index's CHECK constraint rejects it with DynamoDB's error
SELECT hroe.check_index_key('{"a": {"S": "x"}}', 'a', 'S', false, 'GSI1'),
       hroe.check_index_key('{"b": {"N": "1"}}', 'a', 'S', false, 'GSI1') AS absent;
SELECT hroe.check_index_key('{"a": {"N": "1"}}', 'a', 'S', true, 'GSI1');
SELECT hroe.check_index_key('{"a": {"S": ""}}', 'a', 'S', false, 'GSI1');
SELECT hroe.check_index_key('{"a": {"B": ""}}', 'a', 'B', false, 'GSI1');
SELECT hroe.check_index_key(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 2049)))::hroe.item, 'a', 'S', false, 'GSI1');
SELECT hroe.check_index_key(jsonb_build_object('a', jsonb_build_object('B', translate(encode(repeat('x', 1025)::bytea, 'base64'), E'\n', '')))::hroe.item, 'a', 'B', true, 'GSI1');
SELECT hroe.check_index_key('{"a": {"S": "x"}}', 'a', 'SS', false, 'GSI1');
-- hroe.index_key_violation describes it (NULL when absent or valid)
SELECT hroe.index_key_violation('{"a": {"N": "1"}}', 'a', 'S', false),
       hroe.index_key_violation('{"a": {"S": ""}}', 'a', 'S', false),
       hroe.index_key_violation('{"a": {"B": ""}}', 'a', 'B', true),
       hroe.index_key_violation(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 1025)))::hroe.item, 'a', 'S', true),
       hroe.index_key_violation('{"a": {"S": "x"}}', 'a', 'S', true) IS NULL AS valid,
       hroe.index_key_violation('{"b": {"S": "x"}}', 'a', 'S', true) IS NULL AS absent;
SELECT hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 2048)))::hroe.item, 'a', false) IS NOT NULL;
SELECT hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 2049)))::hroe.item, 'a', false);
SELECT hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('x', 1024)))::hroe.item, 'a', true) IS NOT NULL;
SELECT hroe.item_key_s(jsonb_build_object('a', jsonb_build_object('S', repeat('é', 513)))::hroe.item, 'a', true);

-- DynamoDB names may hold dots and dashes; they are quoted everywhere
SELECT hroe.create_table('my-table.v1', 'P-K', 'S', 'S.K', 'N');
SELECT hroe.create_index('my-table.v1', 'by-x.1', '{x.y}', '{}', '{"x.y": "S"}');
SELECT * FROM hroe.put_item('my-table.v1', '{"P-K": {"S": "a"}, "S.K": {"N": "1"}, "x.y": {"S": "z"}}');
SELECT hroe.get_item('my-table.v1', '{"P-K": {"S": "a"}, "S.K": {"N": "1.0"}}');
SELECT * FROM hroe.query('my-table.v1', '#p = :p AND #s > :s', '{":p": {"S": "a"}, ":s": {"N": "0"}}', '{"#p": "P-K", "#s": "S.K"}');
SELECT * FROM hroe.query('my-table.v1', '#x = :x', '{":x": {"S": "z"}}', '{"#x": "x.y"}', 'by-x.1');
SELECT hroe.delete_table('my-table.v1');

-- indexes created or deleted after a session has used the table are seen at once
SELECT hroe.create_table('live', 'PK');
SELECT * FROM hroe.put_item('live', '{"PK": {"S": "a"}, "g": {"S": "x"}}');
SELECT hroe.get_item('live', '{"PK": {"S": "a"}}');
SELECT hroe.create_index('live', 'byG', '{g}');
SELECT hroe.create_index('live', 'byG2', '{g}', '{}', '{"g": "S"}');
SELECT * FROM hroe.put_item('live', '{"PK": {"S": "b"}, "g": {"S": "x"}}', p_return_consumed_capacity => 'INDEXES');
SELECT * FROM hroe.query('live', 'g = :g', '{":g": {"S": "x"}}', p_index_name => 'byG2');
SELECT hroe.delete_index('live', 'byG2');
SELECT * FROM hroe.query('live', 'g = :g', '{":g": {"S": "x"}}', p_index_name => 'byG2');
SELECT * FROM hroe.put_item('live', '{"PK": {"S": "c"}, "g": {"N": "1"}}', p_return_consumed_capacity => 'INDEXES');
SELECT hroe.delete_table('live');

-- a table dropped with plain DROP TABLE is gone for the operations too;
-- hroe.delete_table removes what is left of it
SELECT hroe.create_table('dropped', 'PK');
DROP TABLE dropped;
SELECT hroe.get_item('dropped', '{"PK": {"S": "a"}}');
SELECT hroe.delete_table('dropped');
SELECT hroe.create_table('dropped', 'PK');
SELECT hroe.delete_table('dropped');

SELECT hroe.delete_table('hrdata');
SELECT hroe.delete_table('blobs');
SELECT hroe.delete_table('in_dyn');
SELECT count(*) FROM hroe.tables WHERE relid::text NOT LIKE 'hroe\_%';
DROP SCHEMA dyn;
