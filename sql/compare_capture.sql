-- hroe.compare_capture and hroe.compare_write_capacity: the write capacity of
-- a write pattern from the items the write changed alone (statement
-- triggers recording old rows and keys, for the measured call only), the
-- same figures as the former method, which copied every table of the
-- model before the write and compared the whole copy with the tables after
-- it (kept here, as pg_temp.full_*, as the reference).
SET client_min_messages = warning;
SELECT count(*) > 0 AS loaded FROM hroe.load(0.2, 42);

-- the reference: a full copy of each DynamoDB table of the model, then a
-- full join of the copy with the table, every pair of items that differs
-- priced by hroe.write_consumed_capacity
CREATE FUNCTION pg_temp.full_snapshot(p_model text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	t regclass;
BEGIN
	FOR t IN SELECT hroe.compare_item_tables(p_model) LOOP
		EXECUTE format('CREATE TEMP TABLE %I AS SELECT * FROM %s', 'full_' || t::oid, t);
	END LOOP;
END
$$;
CREATE FUNCTION pg_temp.full_write_capacity(p_model text, OUT items_written bigint, OUT table_wcu numeric,
											OUT index_wcu numeric) LANGUAGE plpgsql AS $$
DECLARE
	t record;
	v_key text;
	v_n bigint;
	v_t numeric;
	v_all numeric;
BEGIN
	items_written := 0; table_wcu := 0; index_wcu := 0;
	FOR t IN SELECT h.relid, h.table_name FROM hroe.compare_item_tables(p_model) r (relid)
			 JOIN hroe.tables h ON h.relid = r.relid LOOP
		SELECT string_agg(format('x.%I', a.attname), ', ' ORDER BY k.o) INTO v_key
		FROM pg_index i, unnest(i.indkey::int2[]) WITH ORDINALITY AS k (n, o), pg_attribute a
		WHERE i.indrelid = t.relid AND i.indisprimary AND a.attrelid = t.relid AND a.attnum = k.n;
		EXECUTE format($f$
			SELECT count(*), COALESCE(sum((c.cc #>> '{Table,CapacityUnits}')::numeric), 0),
				   COALESCE(sum((c.cc ->> 'CapacityUnits')::numeric), 0)
			FROM (SELECT hroe.write_consumed_capacity(%1$L, b.item, a.item) AS cc
				  FROM (SELECT ROW(%2$s) AS k, x.item FROM pg_temp.%3$I x) b
				  FULL JOIN (SELECT ROW(%2$s) AS k, x.item FROM %4$s x) a ON a.k = b.k
				  WHERE a.item OPERATOR(hroe.<>) b.item OR a.item IS NULL OR b.item IS NULL) c$f$,
			t.table_name, v_key, 'full_' || t.relid::oid, t.relid)
		INTO v_n, v_t, v_all;
		items_written := items_written + v_n;
		table_wcu := table_wcu + v_t;
		index_wcu := index_wcu + v_all - v_t;
	END LOOP;
END
$$;

-- Every write pattern of hroe.compare's catalogue, every argument set, on
-- both DynamoDB models: the write once, in a subtransaction rolled back,
-- measured both ways; and how many rows the capture tables held (the
-- rows the write touched, not the tables' size)
CREATE TEMP TABLE both_ways (pattern_no integer, pattern text, case_label text, model text,
	new_items bigint, new_table numeric, new_index numeric,
	full_items bigint, full_table numeric, full_index numeric, captured bigint, table_items bigint);
DO $$
DECLARE
	p record;
	c record;
	m text;
	n record;
	f record;
	v_captured bigint;
	v_items bigint;
	t regclass;
	k bigint;
BEGIN
	FOR p IN SELECT * FROM hroe.access_patterns WHERE kind = 'write' ORDER BY pattern_no LOOP
		FOR c IN EXECUTE format('SELECT x.label::text AS label, x.args::text[] AS args FROM (%s) x (label, args)', p.arguments_sql) LOOP
			FOREACH m IN ARRAY ARRAY['hroe_single', 'hroe_multi'] LOOP
				BEGIN
					PERFORM pg_temp.full_snapshot(m);
					PERFORM hroe.compare_capture(m);
					EXECUTE format('SELECT %s', hroe.compare_call(m, p.pattern, c.args));
					SELECT * INTO n FROM hroe.compare_write_capacity(m);
					SELECT * INTO f FROM pg_temp.full_write_capacity(m);
					v_captured := 0; v_items := 0;
					FOR t IN SELECT hroe.compare_item_tables(m) LOOP
						EXECUTE format('SELECT count(*) FROM pg_temp.%I', 'hroe_cmp_' || t::oid) INTO k;
						v_captured := v_captured + k;
						EXECUTE format('SELECT count(*) FROM %s', t) INTO k;
						v_items := v_items + k;
					END LOOP;
					RAISE EXCEPTION USING ERRCODE = 'HR0CR';
				EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
					NULL;
				END;
				-- the figures, kept in variables, outlive the rollback
				INSERT INTO both_ways VALUES (p.pattern_no, p.pattern, c.label, m, n.items_written, n.table_wcu,
					n.index_wcu, f.items_written, f.table_wcu, f.index_wcu, v_captured, v_items);
			END LOOP;
		END LOOP;
	END LOOP;
END
$$;
SELECT pattern_no, pattern, case_label, model, new_items, new_table, new_index,
	   (new_items, new_table, new_index) = (full_items, full_table, full_index) AS same_as_full,
	   captured AS rows_captured, captured * 100 < table_items AS not_the_table
FROM both_ways ORDER BY pattern_no, case_label, model;
-- nothing of the measurement is left: the triggers and the capture tables
-- went with the rolled-back subtransaction
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgname LIKE 'hroe\_compare\_capture\_%';
SELECT count(*) AS capture_tables_left FROM pg_class WHERE relname LIKE 'hroe\_cmp\_%';

-- Corner cases, both ways in one transaction each, rolled back: an item
-- written back unchanged (no write), an item added and deleted again (no
-- write), an item changed twice (one write, priced old against last)
CREATE FUNCTION pg_temp.both(p_model text) RETURNS TABLE (way text, items_written bigint, table_wcu numeric, index_wcu numeric)
LANGUAGE sql AS $$
SELECT 'capture', * FROM hroe.compare_write_capacity(p_model)
UNION ALL SELECT 'full copy', * FROM pg_temp.full_write_capacity(p_model)
$$;
BEGIN;
SELECT pg_temp.full_snapshot('hroe_multi'), hroe.compare_capture('hroe_multi');
SELECT (hroe.put_item('Employee', e.item)).consumed_capacity IS NULL AS rewritten
FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(102);
SELECT (hroe.put_item('Customer', hroe.item_from_document('{"customer_id": "cust_0000999999", "first_name": "New"}'))).consumed_capacity IS NULL AS added,
	   (hroe.delete_item('Customer', '{"customer_id": {"S": "cust_0000999999"}}')).consumed_capacity IS NULL AS deleted;
SELECT * FROM pg_temp.both('hroe_multi');
SELECT (hroe.put_item('Employee', e.item OPERATOR(hroe.||) hroe.item_from_document('{"job_title": "Chief Tester"}'))).consumed_capacity IS NULL AS first
FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(101);
SELECT (hroe.put_item('Employee', e.item OPERATOR(hroe.||) hroe.item_from_document(jsonb_build_object('salary', 1, 'notes', repeat('x', 3000))))).consumed_capacity IS NULL AS second
FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(101);
SELECT * FROM pg_temp.both('hroe_multi');
ROLLBACK;

-- without hroe.compare_capture there is nothing to measure
SELECT * FROM hroe.compare_write_capacity('hroe_single');

-- hroe.compare's and hroe.design_run's write figures come from the capture
-- and leave nothing behind, even when a call fails
SELECT pattern, model, capacity, request FROM hroe.compare('{21,24}', '{hroe_single,hroe_multi}', 1) ORDER BY pattern_no, case_label, model;
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgname LIKE 'hroe\_compare\_capture\_%';
SELECT count(*) AS capture_tables_left FROM pg_class WHERE relname LIKE 'hroe\_cmp\_%' AND relpersistence = 't'
	AND relnamespace = pg_my_temp_schema();

-- a capture is never committed, so its triggers never stay on the tables:
-- the commit of a transaction with a capture in place is refused (which
-- rolls it back), a single statement's as an explicit transaction's
SELECT hroe.compare_capture('hroe_single');
BEGIN;
SELECT hroe.compare_capture('hroe_multi');
SELECT count(*) > 0 AS triggers_during_capture FROM pg_trigger WHERE tgname LIKE 'hroe\_compare\_capture\_%';
COMMIT;
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgname LIKE 'hroe\_compare\_capture\_%';
-- a capture in a subtransaction rolled back: the transaction commits
BEGIN;
SAVEPOINT measured;
SELECT hroe.compare_capture('hroe_multi');
ROLLBACK TO SAVEPOINT measured;
COMMIT;
SELECT count(*) AS triggers_left FROM pg_trigger WHERE tgname LIKE 'hroe\_compare\_capture\_%';
SELECT count(*) AS capture_tables_left FROM pg_class WHERE relname LIKE 'hroe\_cmp\_%' AND relpersistence = 't'
	AND relnamespace = pg_my_temp_schema();

-- the capture needs the TRIGGER privilege on the tables, as the write needs
-- INSERT, UPDATE, DELETE; a role without it is told so
CREATE ROLE cap_other;
GRANT USAGE ON SCHEMA hroe, hroe_single TO cap_other;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA hroe_single TO cap_other;
SET ROLE cap_other;
\set VERBOSITY terse
BEGIN;
SELECT hroe.compare_capture('hroe_single');
ROLLBACK;
\set VERBOSITY default
RESET ROLE;
REVOKE ALL ON ALL TABLES IN SCHEMA hroe_single FROM cap_other;
REVOKE ALL ON SCHEMA hroe, hroe_single FROM cap_other;
DROP ROLE cap_other;
