-- PutItem's direct overwrite (src/tables/direct_write.c): an unconditional PutItem
-- of an existing item replaces the row without SPI or the executor, where the
-- table allows it, and runs the SQL upsert otherwise.  DEBUG1 names the path
-- taken; every write is checked against the same write with
-- hroe.direct_access = off, and the indexes against the heap (amcheck).
CREATE EXTENSION amcheck;
CREATE FUNCTION dw_item(pk text, sk int, attrs jsonb DEFAULT '{}') RETURNS hroe.item
LANGUAGE sql RETURN (jsonb_build_object('PK', jsonb_build_object('S', pk),
	'SK', jsonb_build_object('N', sk::text)) || attrs)::hroe.item;
-- the rows of a table, every column (generated ones included) as text
CREATE FUNCTION dw_rows(t regclass) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT x::text FROM %s x ORDER BY x::text', t);
END $$;
-- the same table twice: written with direct_access on and off
SELECT hroe.create_table(t, 'PK', 'S', 'SK', 'N') FROM (VALUES ('dw_on'), ('dw_off')) v(t);
-- a GSI on a string (sparse) and a multi-attribute GSI with a number
SELECT hroe.create_index(t, 'byStatus', '{status}', '{date}', '{"status": "S", "date": "S"}')
FROM (VALUES ('dw_on'), ('dw_off')) v(t);
SELECT hroe.create_index(t, 'byRegion', '{region, tier}', '{}', '{"region": "S", "tier": "N"}', 'KEYS_ONLY')
FROM (VALUES ('dw_on'), ('dw_off')) v(t);
\d dw_on
SHOW hroe.direct_access;
-- dw_on's rows, and how many dw_off has too
CREATE FUNCTION dw_compare(OUT rows bigint, OUT identical bigint) LANGUAGE sql AS $$
SELECT count(*), count(*) FILTER (WHERE r IN (SELECT dw_rows('dw_off'))) FROM dw_rows('dw_on') r
$$;
-- every index of tables t checked against the heap (amcheck raises an error
-- on an entry missing or extra)
CREATE FUNCTION dw_check_indexes(VARIADIC t regclass[])
RETURNS TABLE (index regclass, heap_all_indexed boolean) LANGUAGE sql AS $$
SELECT indexrelid::regclass, (SELECT true FROM bt_index_check(indexrelid, true))
FROM pg_index WHERE indrelid = ANY (t) ORDER BY indexrelid::regclass::text COLLATE "C"
$$;
-- function f's answers on dw_on (direct access on), then on dw_off (off)
CREATE FUNCTION dw_on_off(f regproc) RETURNS TABLE (direct_access text, answer jsonb)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT ''on'', a FROM %s(''dw_on'') a', f);
	PERFORM set_config('hroe.direct_access', 'off', true);
	RETURN QUERY EXECUTE format('SELECT ''off'', a FROM %s(''dw_off'') a', f);
	PERFORM set_config('hroe.direct_access', 'on', true);
END $$;

-- one script of puts, run on both tables
CREATE PROCEDURE dw_script(t text) LANGUAGE plpgsql AS $$
BEGIN
	-- new items (absent: always the SQL upsert)
	PERFORM hroe.put_item(t, dw_item('a', g, jsonb_build_object(
		'status', jsonb_build_object('S', 'OPEN'), 'date', jsonb_build_object('S', '2026-0' || (g % 9 + 1)),
		'region', jsonb_build_object('S', 'EU'), 'tier', jsonb_build_object('N', g::text))))
	FROM generate_series(1, 20) g;
	-- overwrite: the same GSI keys (HOT where the page has room)
	PERFORM hroe.put_item(t, dw_item('a', g, jsonb_build_object(
		'status', jsonb_build_object('S', 'OPEN'), 'date', jsonb_build_object('S', '2026-0' || (g % 9 + 1)),
		'region', jsonb_build_object('S', 'EU'), 'tier', jsonb_build_object('N', g::text),
		'note', jsonb_build_object('S', 'second'))))
	FROM generate_series(1, 5) g;
	-- overwrite: GSI keys changed (new index entries)
	PERFORM hroe.put_item(t, dw_item('a', g, jsonb_build_object(
		'status', jsonb_build_object('S', 'SHIPPED'), 'date', jsonb_build_object('S', '2026-12'),
		'region', jsonb_build_object('S', 'US'), 'tier', jsonb_build_object('N', (g * 10)::text))))
	FROM generate_series(6, 10) g;
	-- overwrite: the item leaves both GSIs (sparse)
	PERFORM hroe.put_item(t, dw_item('a', g, '{"v": {"BOOL": true}}')) FROM generate_series(11, 15) g;
	-- the same key three times in one statement: the last wins
	PERFORM hroe.put_item(t, dw_item('a', 16, jsonb_build_object('n', jsonb_build_object('N', g::text))))
	FROM generate_series(1, 3) g;
	-- through the JSON API
	PERFORM hroe.dynamodb('PutItem', jsonb_build_object('TableName', t, 'Item',
		dw_item('a', 17, '{"status": {"S": "OPEN"}, "date": {"S": "2027-01"}, "via": {"S": "api"}}')::jsonb));
	-- a large item (TOAST) replacing a small one, and back
	PERFORM hroe.put_item(t, dw_item('a', 18, jsonb_build_object('big', jsonb_build_object('S', repeat('x', 300000)))));
	PERFORM hroe.put_item(t, dw_item('a', 19, jsonb_build_object('big', jsonb_build_object('S', repeat('y', 300000)))));
	PERFORM hroe.put_item(t, dw_item('a', 19, '{"small": {"S": "again"}}'));
END $$;
SET client_min_messages = debug1;
CALL dw_script('dw_on');
SET hroe.direct_access = off;
CALL dw_script('dw_off');
RESET hroe.direct_access;
RESET client_min_messages;
-- the same rows, generated columns included, and every index entry matches the heap
SELECT * FROM dw_compare();
SELECT (SELECT count(*) FROM dw_rows('dw_off')) AS rows_off;
SELECT * FROM dw_check_indexes('dw_on', 'dw_off');
SELECT md5(r) AS big_item FROM dw_rows('dw_on') r WHERE r LIKE '%xxxxxxxxxx%';

-- each GSI holds exactly the items a scan of the table finds: through the
-- index (hroe.query, direct and as SQL) and without it (a filter on every row)
SELECT i FROM hroe.query('dw_on', '#s = :s', '{":s": {"S": "SHIPPED"}}', p_index_name => 'byStatus',
	p_expression_attribute_names => '{"#s": "status"}') i;
SET hroe.direct_access = off;
SELECT count(*) AS shipped_through_sql FROM hroe.query('dw_on', '#s = :s', '{":s": {"S": "SHIPPED"}}',
	p_index_name => 'byStatus', p_expression_attribute_names => '{"#s": "status"}');
RESET hroe.direct_access;
EXPLAIN (COSTS OFF) SELECT count(*) FROM dw_on WHERE item::jsonb -> 'status' ->> 'S' = 'SHIPPED';
SELECT count(*) AS shipped_by_scan FROM dw_on WHERE item::jsonb -> 'status' ->> 'S' = 'SHIPPED';
SELECT i FROM hroe.query('dw_on', '#r = :r AND tier = :t', '{":r": {"S": "US"}, ":t": {"N": "70"}}',
	p_index_name => 'byRegion', p_expression_attribute_names => '{"#r": "region"}') i;
SELECT count(*) AS open_through_index FROM hroe.query('dw_on', '#s = :s', '{":s": {"S": "OPEN"}}',
	p_index_name => 'byStatus', p_expression_attribute_names => '{"#s": "status"}');
SELECT count(*) AS open_by_scan FROM dw_on WHERE item::jsonb -> 'status' ->> 'S' = 'OPEN';
SELECT count(*) AS in_region_index FROM hroe.scan('dw_on', p_index_name => 'byRegion');
SELECT count(*) AS with_region_by_scan FROM dw_on WHERE item::jsonb ? 'region';

-- a column the user added keeps its value, as with the SQL upsert
ALTER TABLE dw_on ADD COLUMN tag text;
ALTER TABLE dw_off ADD COLUMN tag text;
UPDATE dw_on SET tag = 'kept' WHERE pk OPERATOR(hroe.=) 'a'::hroe.key AND sk = 1;
UPDATE dw_off SET tag = 'kept' WHERE pk OPERATOR(hroe.=) 'a'::hroe.key AND sk = 1;
SET client_min_messages = debug1;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 1, '{"v": {"N": "1"}}'));
SET hroe.direct_access = off;
SELECT * FROM hroe.put_item('dw_off', dw_item('a', 1, '{"v": {"N": "1"}}'));
RESET hroe.direct_access;
RESET client_min_messages;
SELECT 'dw_on' AS t, tag, item FROM dw_on WHERE sk = 1
UNION ALL SELECT 'dw_off', tag, item FROM dw_off WHERE sk = 1;

-- a put that returns the replaced item or its capacity (ReturnValues ALL_OLD,
-- ReturnConsumedCapacity, every BatchWriteItem put) replaces it directly too,
-- with the same answer: the item moves from one GSI entry to another
CREATE FUNCTION dw_returning_puts(t text) RETURNS SETOF jsonb LANGUAGE sql AS $$
SELECT jsonb_build_object('attributes', p.attributes::jsonb, 'consumed_capacity', p.consumed_capacity)
FROM hroe.put_item(t, dw_item('a', 6, '{"status": {"S": "OPEN"}, "date": {"S": "2028"}}'),
	'ALL_OLD', 'INDEXES') p
UNION ALL
SELECT hroe.dynamodb('BatchWriteItem', jsonb_build_object('ReturnConsumedCapacity', 'INDEXES',
	'RequestItems', jsonb_build_object(t, jsonb_build_array(
		jsonb_build_object('PutRequest', jsonb_build_object('Item', dw_item('a', 7)::jsonb)),
		jsonb_build_object('PutRequest', jsonb_build_object('Item', dw_item('b', 1)::jsonb))))))
$$;
SET client_min_messages = debug1;
SELECT * FROM dw_on_off('dw_returning_puts');
RESET client_min_messages;
SELECT * FROM dw_compare();

-- the locked writes (UpdateItem, a conditional PutItem, a transaction's
-- Update and Put) lock the row FOR UPDATE, then replace it directly by its TID
CREATE FUNCTION dw_locked_writes(t text) RETURNS SETOF jsonb LANGUAGE sql AS $$
SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', t, 'Key', dw_item('a', 8)::jsonb,
	'UpdateExpression', 'SET #s = :s, tier = tier + :one REMOVE note',
	'ExpressionAttributeNames', jsonb_build_object('#s', 'status'),
	'ExpressionAttributeValues', '{":s": {"S": "CLOSED"}, ":one": {"N": "1"}}'::jsonb,
	'ReturnValues', 'ALL_NEW'))
UNION ALL
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', t,
	'Item', dw_item('a', 9, '{"status": {"S": "OPEN"}, "date": {"S": "2030"}, "region": {"S": "AP"}, "tier": {"N": "9"}}')::jsonb,
	'ConditionExpression', 'attribute_exists(PK)', 'ReturnValues', 'ALL_OLD'))
UNION ALL
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Update', jsonb_build_object('TableName', t, 'Key', dw_item('a', 10)::jsonb,
		'UpdateExpression', 'SET #r = :r', 'ExpressionAttributeNames', '{"#r": "region"}'::jsonb,
		'ExpressionAttributeValues', '{":r": {"S": "SA"}}'::jsonb)),
	jsonb_build_object('Put', jsonb_build_object('TableName', t,
		'Item', dw_item('a', 11, '{"v": {"S": "transaction"}}')::jsonb,
		'ConditionExpression', 'attribute_exists(PK)')))))
$$;
SET client_min_messages = debug1;
SELECT * FROM dw_on_off('dw_locked_writes');
RESET client_min_messages;
SELECT * FROM dw_compare();
SELECT * FROM dw_check_indexes('dw_on', 'dw_off');

-- in a transaction: read your own write, and a rollback restores the old item
BEGIN;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 2, '{"v": {"S": "in tx"}}'));
SELECT hroe.get_item('dw_on', '{"PK": {"S": "a"}, "SK": {"N": "2"}}');
SELECT i FROM hroe.query('dw_on', 'PK = :p AND SK = :s', '{":p": {"S": "a"}, ":s": {"N": "2"}}') i;
ROLLBACK;
SELECT hroe.get_item('dw_on', '{"PK": {"S": "a"}, "SK": {"N": "2"}}');

-- the SQL upsert takes over whenever the table or the session asks for the executor
CREATE TABLE dw_log (what text);
SET client_min_messages = debug1;
-- REPEATABLE READ
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "rr"}}'));
COMMIT;
-- a read-only transaction: the SQL path refuses the write, as PostgreSQL does
BEGIN READ ONLY;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "read only"}}'));
ROLLBACK;
-- a trigger, which fires
CREATE FUNCTION dw_log_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO public.dw_log VALUES (TG_OP || ' ' || (NEW.item::jsonb -> 'v' ->> 'S')); RETURN NEW; END $$;
CREATE TRIGGER dw_log_write BEFORE UPDATE ON dw_on FOR EACH ROW EXECUTE FUNCTION dw_log_write();
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "trigger"}}'));
DROP TRIGGER dw_log_write ON dw_on;
SELECT * FROM dw_log;
-- hroe's own CHECK constraints (a GSI key's type) are evaluated directly:
-- a wrong type is the same ValidationException either way (as SQL, from the
-- INSERT's CHECK)
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"status": {"N": "1"}, "date": {"S": "d"}}'));
SET hroe.direct_access = off;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"status": {"N": "1"}, "date": {"S": "d"}}'));
RESET hroe.direct_access;
-- a CHECK constraint of another form: the executor enforces it
ALTER TABLE dw_on ADD CONSTRAINT dw_allowed CHECK (item::jsonb -> 'v' ->> 'S' IS DISTINCT FROM 'forbidden');
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "forbidden"}}'));
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "checked"}}'));
ALTER TABLE dw_on DROP CONSTRAINT dw_allowed;
-- a CHECK calling an immutable polymorphic function is evaluated directly,
-- the function seeing its argument's type as in the executor
CREATE FUNCTION dw_is_text(v anyelement) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN RETURN pg_typeof(v) = 'text'::regtype AND v <> 'forbidden'; END $$;
UPDATE dw_on SET tag = 'forbidden' WHERE sk = 3;
ALTER TABLE dw_on ADD CONSTRAINT dw_text CHECK (dw_is_text(tag)) NOT VALID;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "polymorphic"}}'));
UPDATE dw_on SET tag = NULL WHERE sk = 3;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "polymorphic"}}'));
-- the function made STABLE: the executor runs it (the change is seen at once)
ALTER FUNCTION dw_is_text(anyelement) STABLE;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "stable"}}'));
ALTER TABLE dw_on DROP CONSTRAINT dw_text;
DROP FUNCTION dw_is_text(anyelement);
-- a dropped column: the overwrite writes it as null, as UPDATE does
ALTER TABLE dw_on ADD COLUMN dw_gone text;
UPDATE dw_on SET dw_gone = repeat('g', 100) WHERE sk = 3;
ALTER TABLE dw_on DROP COLUMN dw_gone;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "dropped column"}}'));
-- a rule
CREATE RULE dw_rule AS ON UPDATE TO dw_on DO ALSO INSERT INTO public.dw_log VALUES ('rule');
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "rule"}}'));
DROP RULE dw_rule ON dw_on;
-- row-level security, and a user with column privileges only
CREATE ROLE regress_dw_user;
GRANT USAGE ON SCHEMA hroe TO regress_dw_user;
GRANT SELECT ON hroe.tables, hroe.indexes TO regress_dw_user;
GRANT SELECT, INSERT, UPDATE ON dw_on TO regress_dw_user;
ALTER TABLE dw_on ENABLE ROW LEVEL SECURITY;
CREATE POLICY dw_odd ON dw_on USING (true) WITH CHECK ((item::jsonb -> 'SK' ->> 'N')::int % 2 = 1);
SET ROLE regress_dw_user;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "rls"}}'));
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 4, '{"v": {"S": "rls"}}'));
RESET ROLE;
ALTER TABLE dw_on DISABLE ROW LEVEL SECURITY;
REVOKE UPDATE ON dw_on FROM regress_dw_user;
GRANT UPDATE (item) ON dw_on TO regress_dw_user;
SET ROLE regress_dw_user;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 5, '{"v": {"S": "column privilege"}}'));
RESET ROLE;
REVOKE UPDATE ON dw_on FROM regress_dw_user;
SET ROLE regress_dw_user;
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 5, '{"v": {"S": "no update"}}'));
RESET ROLE;
-- and with nothing in the way again, the direct overwrite
SELECT * FROM hroe.put_item('dw_on', dw_item('a', 3, '{"v": {"S": "direct again"}}'));
RESET client_min_messages;
SELECT item::jsonb -> 'SK' ->> 'N' AS sk, item::jsonb -> 'v' ->> 'S' AS v FROM dw_on
WHERE item::jsonb -> 'SK' ->> 'N' IN ('3', '4', '5') ORDER BY 1;
SELECT * FROM dw_check_indexes('dw_on');

DROP POLICY dw_odd ON dw_on;
REVOKE ALL ON dw_on FROM regress_dw_user;
REVOKE ALL ON hroe.tables, hroe.indexes FROM regress_dw_user;
REVOKE USAGE ON SCHEMA hroe FROM regress_dw_user;
DROP ROLE regress_dw_user;
DROP TABLE dw_log;
DROP FUNCTION dw_log_write;
SELECT hroe.delete_table(t) FROM (VALUES ('dw_on'), ('dw_off')) v(t);
DROP PROCEDURE dw_script;
DROP FUNCTION dw_compare, dw_check_indexes, dw_on_off, dw_returning_puts, dw_locked_writes, dw_rows, dw_item;
DROP EXTENSION amcheck;
