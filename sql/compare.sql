-- hroe.compare on a small load: every pattern on every model present, the
-- answers identical, the capacity figures consistent with hroe.item_size.
SET client_min_messages = warning;
SELECT count(*) > 0 AS loaded FROM hroe.load(0.2, 42);
SELECT count(*) AS orders_before, sum(order_total) AS total_before FROM hroe_normalized.orders;

CREATE TEMP TABLE c AS SELECT * FROM hroe.compare(p_runs => 1);

-- the models compared are exactly the model schemas present, normalized first
SELECT (SELECT array_agg(DISTINCT model ORDER BY model) FROM c)
	= (SELECT array_agg(nspname::text ORDER BY nspname) FROM pg_namespace
	   WHERE nspname IN ('hroe_normalized', 'hroe_single', 'hroe_multi')) AS every_model_compared,
	'hroe_normalized' IN (SELECT model FROM c) AS normalized_present;
-- the models compared: all three
SELECT array_agg(DISTINCT model ORDER BY model) AS models, count(DISTINCT model) = 3 AS all_three FROM c;
-- every pattern (17 reads, 5 writes) on every model
SELECT kind, count(DISTINCT pattern) AS patterns,
	   count(DISTINCT (pattern, model)) = count(DISTINCT pattern) * (SELECT count(DISTINCT model) FROM c) AS on_every_model
FROM c GROUP BY kind ORDER BY kind;
-- every answer identical; the cases and their row counts (the same in every model)
SELECT bool_and(identical) AS all_identical, count(*) FILTER (WHERE NOT identical) AS differing FROM c;
SELECT DISTINCT pattern_no, pattern, case_label, result_rows FROM c ORDER BY pattern_no, case_label;
-- The answers compared independently of hroe.compare: each call rebuilt
-- here from the catalogue's arguments, its rows (with their position) as
-- text; for a write the rows of its check reads after the write, rolled
-- back.  The models agree where the three arrays are equal, and compare's
-- identical flag must say the same.
CREATE FUNCTION pg_temp.answers(p_model text, p_pattern text, p_args text[])
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
	v_call text;
	v_kind text;
	v_check text;
	v_rows text[];
BEGIN
	SELECT a.kind, a.check_sql INTO v_kind, v_check FROM hroe.access_patterns a WHERE a.pattern = p_pattern;
	SELECT format('%I.%I(%s)', p_model, p_pattern,
				  string_agg(quote_nullable(p_args[u.k]) || '::' || format_type(u.t, NULL), ', ' ORDER BY u.k))
	INTO v_call
	FROM pg_proc p, unnest(p.proargtypes::oid[]) WITH ORDINALITY AS u (t, k)
	WHERE p.pronamespace = 'hroe_normalized'::regnamespace AND p.proname = p_pattern AND u.k <= cardinality(p_args);
	IF v_kind = 'read' THEN
		EXECUTE format('SELECT array_agg(x::text ORDER BY x.ordinality) FROM ROWS FROM (%s) WITH ORDINALITY AS x', v_call)
		INTO v_rows;
		RETURN COALESCE(v_rows, '{}');
	END IF;
	BEGIN
		EXECUTE 'SELECT ' || v_call;
		EXECUTE format('SELECT array_agg(x::text ORDER BY x::text) FROM (%s) x',
					   format(v_check, VARIADIC ARRAY[p_model] || p_args))
		INTO v_rows;
		RAISE EXCEPTION USING ERRCODE = 'HR0T9';
	EXCEPTION WHEN SQLSTATE 'HR0T9' THEN
		NULL;
	END;
	RETURN COALESCE(v_rows, '{}');
END
$$;
CREATE TEMP TABLE answers AS
SELECT p.pattern_no, p.pattern, a.case_label, m.model, pg_temp.answers(m.model, p.pattern, a.args) AS rows
FROM hroe.access_patterns p, hroe.compare_args(p.pattern) a, hroe.compare_models() m (model);
-- every pattern and case, on every model; the rows compared
SELECT count(DISTINCT (pattern, case_label)) AS cases, count(DISTINCT model) AS models,
	   sum(cardinality(rows)) FILTER (WHERE model = 'hroe_normalized') AS normalized_rows
FROM answers;
-- the models agree on every case, and compare's flag says so case by case
SELECT count(*) FILTER (WHERE s.same) AS cases_same, count(*) FILTER (WHERE NOT s.same) AS cases_differ,
	   count(*) FILTER (WHERE s.same IS DISTINCT FROM s.flag) AS flag_disagrees
FROM (SELECT a.pattern, a.case_label, count(DISTINCT a.rows) = 1 AS same,
			 (SELECT bool_and(c.identical) FROM c WHERE c.pattern = a.pattern AND c.case_label = a.case_label) AS flag
	  FROM answers a GROUP BY 1, 2) s;
-- a difference is found by both: one hroe_single employee's salary damaged
BEGIN;
UPDATE hroe_single.items SET item = item OPERATOR(hroe.||) '{"salary": {"N": "1"}}'::hroe.item
WHERE pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(
	(SELECT args[1]::int FROM hroe.compare_args('employee_by_id') WHERE case_label = 'busiest rep')))
  AND sk OPERATOR(hroe.^@) 'EMPLOYEE#'::hroe.key;
SELECT a.case_label,
	   pg_temp.answers('hroe_normalized', 'employee_by_id', a.args) = pg_temp.answers('hroe_single', 'employee_by_id', a.args)
		   AS normalized_equals_single,
	   (SELECT bool_and(identical) FROM hroe.compare('{employee_by_id}', NULL, 1) x WHERE x.case_label = a.case_label)
		   AS compare_identical
FROM hroe.compare_args('employee_by_id') a ORDER BY 1;
ROLLBACK;
-- capacity: reads of DynamoDB models in RCU, writes in WCU; normalized none
SELECT model = 'hroe_normalized' AS normalized, kind, capacity_unit, count(*),
	   bool_and(request IS NOT NULL) AS described
FROM c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
-- a single request's RCU is its items' hroe.item_size bytes, rounded up to 4 KB, halved, at least 0.5
SELECT bool_and(capacity = 0.5 * greatest(1, ceil(item_bytes / 4096.0))) AS rcu_from_item_bytes
FROM c WHERE capacity_unit = 'RCU' AND requests = 1;
SELECT bool_and(capacity >= 0.5 * requests) AS at_least_half_a_unit_per_request FROM c WHERE capacity_unit = 'RCU';
-- a GetItem reads the one item it returns (or none): its bytes are that item's hroe.item_size
SELECT bool_and(items = result_rows AND (items = 0) = (item_bytes = 0)) AS get_item_reads_its_row
FROM c WHERE request LIKE 'GetItem%' AND pattern IN ('employee_by_id', 'product_inventory_at', 'product_total_inventory');
-- Queries evaluate at least the items they return (one item per row)
SELECT bool_and(items >= result_rows) AS query_reads_its_rows
FROM c WHERE capacity_unit = 'RCU' AND pattern NOT IN ('employee_phones', 'customer_phones');
SELECT bool_and(capacity >= items) AS wcu_at_least_one_per_item FROM c WHERE capacity_unit = 'WCU';
-- compare's capacity is what the operations report.  Reads: the same
-- requests run through hroe.get_item_result / hroe.query_page report the
-- RCU compare gives (a GetItem, a Query on an INCLUDE GSI, a Query on GSI4)
SELECT c.capacity AS compare_rcu,
	   ((hroe.get_item_result('Employee', jsonb_build_object('employee_id', jsonb_build_object('S',
			hroe_multi.employee_key(c.call_arg::int)::text)), false, 'TOTAL')).consumed_capacity ->> 'CapacityUnits')::numeric
		   AS get_item_rcu
FROM (SELECT capacity, substring(call FROM '\(''(\d+)''') AS call_arg FROM c
	  WHERE model = 'hroe_multi' AND pattern = 'employee_by_id' AND case_label = 'busiest rep') c;
SELECT c.case_label, c.capacity AS compare_rcu,
	   ((hroe.query_page('Employee', 'warehouse_id = :w', jsonb_build_object(':w', jsonb_build_object('S',
			hroe_multi.warehouse_key(a.args[1]::int)::text)), NULL, 'EmployeeByWarehouse',
			p_return_consumed_capacity => 'TOTAL')).consumed_capacity ->> 'CapacityUnits')::numeric AS query_rcu
FROM c JOIN hroe.compare_args('warehouse_employees') a USING (case_label)
WHERE c.model = 'hroe_multi' AND c.pattern = 'warehouse_employees' ORDER BY 1;
SELECT c.case_label, c.capacity AS compare_rcu,
	   ((hroe.query_page('hroe_single', 'SK = :sk', jsonb_build_object(':sk', jsonb_build_object('S', 'v0#' || a.args[1])),
			NULL, 'GSI1', p_return_consumed_capacity => 'TOTAL')).consumed_capacity ->> 'CapacityUnits')::numeric
		   AS query_rcu
FROM c JOIN hroe.compare_args('employees_by_title') a USING (case_label)
WHERE c.model = 'hroe_single' AND c.pattern = 'employees_by_title' ORDER BY 1;
SELECT c.case_label, c.capacity AS compare_rcu,
	   ((hroe.query_page('hroe_single', 'SK = :sk AND GSI4_SK BETWEEN :a AND :b',
			jsonb_build_object(':sk', jsonb_build_object('S', 'CUSTOMER#' || lpad(a.args[1], 10, '0')),
							   ':a', jsonb_build_object('S', a.args[2]), ':b', jsonb_build_object('S', a.args[3] || '$')),
			NULL, 'GSI4', p_return_consumed_capacity => 'TOTAL')).consumed_capacity ->> 'CapacityUnits')::numeric
		   AS query_rcu
FROM c JOIN hroe.compare_args('customer_orders') a USING (case_label)
WHERE c.model = 'hroe_single' AND c.pattern = 'customer_orders' AND c.case_label = 'busiest customer, all dates';
-- Writes: a few writes done through hroe.put_item / hroe.delete_item with
-- ReturnConsumedCapacity INDEXES; the units they report, summed, are what
-- hroe.compare_write_capacity finds from the changes hroe.compare_capture recorded
BEGIN;
SELECT hroe.compare_capture('hroe_multi'), hroe.compare_capture('hroe_single');
CREATE TEMP TABLE reported (model text, cc jsonb);
-- hroe_multi: a job title changes (an index key), a salary changes (projected
-- by EmployeeByName only: the other GSIs are not written), a customer is
-- added, an order line deleted
INSERT INTO reported
SELECT 'hroe_multi', (hroe.put_item('Employee', e.item OPERATOR(hroe.||) hroe.item_from_document('{"salary": 12345}'),
					  'NONE', 'INDEXES')).consumed_capacity
FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(102);
INSERT INTO reported
SELECT 'hroe_multi', (hroe.put_item('Employee', e.item OPERATOR(hroe.||) hroe.item_from_document('{"job_title": "Chief Tester"}'),
					  'NONE', 'INDEXES')).consumed_capacity
FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(101);
INSERT INTO reported
SELECT 'hroe_multi', (hroe.put_item('Customer', hroe.item_from_document(
	'{"customer_id": "cust_0000999999", "first_name": "New", "last_name": "Customer", "email": "new@example.com",
	  "phone_numbers": ["1", "2"], "account_rep_id": "emp_0000000101"}'), 'NONE', 'INDEXES')).consumed_capacity;
INSERT INTO reported
SELECT 'hroe_multi', (hroe.delete_item('Order', jsonb_build_object('order_id', jsonb_build_object('S', o.pk::text),
					  'SK', jsonb_build_object('S', o.sk::text)), 'NONE', 'INDEXES')).consumed_capacity
FROM (SELECT o.pk, o.sk FROM hroe_multi."Order" o WHERE o.sk::text LIKE 'prod_%' ORDER BY o.pk, o.sk LIMIT 1) o;
-- hroe_single: an OPEN order shipped (GSI1_SK changes, it leaves GSI2), an inventory item deleted
INSERT INTO reported
SELECT 'hroe_single', (hroe.put_item('hroe_single', i.item OPERATOR(hroe.||) hroe.item_from_document(jsonb_build_object(
		'order_status', 'SHIPPED', 'GSI1_SK', replace(hroe.item_get_text(i.item, 'GSI1_SK'), 'OPEN#', 'SHIPPED#')))
		OPERATOR(hroe.-) 'GSI2_PK', 'NONE', 'INDEXES')).consumed_capacity
FROM (SELECT i.item FROM hroe_single.items i WHERE i.gsi2_pk IS NOT NULL ORDER BY i.pk LIMIT 1) i;
INSERT INTO reported
SELECT 'hroe_single', (hroe.delete_item('hroe_single', jsonb_build_object('PK', jsonb_build_object('S', i.pk::text),
					   'SK', jsonb_build_object('S', i.sk::text)), 'NONE', 'INDEXES')).consumed_capacity
FROM (SELECT i.pk, i.sk FROM hroe_single.items i WHERE i.gsi1_sk::text LIKE 'INVENTORY#%' ORDER BY i.pk, i.sk LIMIT 1) i;
SELECT r.model, count(*) AS writes, w.items_written,
	   sum((r.cc #>> '{Table,CapacityUnits}')::numeric) AS reported_table_wcu, w.table_wcu,
	   sum((r.cc ->> 'CapacityUnits')::numeric - (r.cc #>> '{Table,CapacityUnits}')::numeric) AS reported_index_wcu,
	   w.index_wcu,
	   sum((r.cc ->> 'CapacityUnits')::numeric) = w.table_wcu + w.index_wcu AS same_total
FROM reported r, LATERAL hroe.compare_write_capacity(r.model) w
GROUP BY r.model, w.items_written, w.table_wcu, w.index_wcu ORDER BY 1;
ROLLBACK;
-- the writes were rolled back: the data is unchanged
SELECT count(*) AS orders_after, sum(order_total) AS total_after FROM hroe_normalized.orders;
-- filters by pattern (name or number) and model
SELECT pattern, model, identical FROM hroe.compare('{open_orders,16}', '{hroe_normalized}', 1) ORDER BY 1, 2;
-- the report
SELECT count(*) > 0 AS report_lines, bool_or(line LIKE '%ANSWERS DIFFER%') AS any_difference
FROM hroe.compare_report('{1}', NULL, 1) AS line;
-- errors
SELECT * FROM hroe.compare(NULL, NULL, 0);
SELECT * FROM hroe.compare('{employee_by_id}', '{hroe_normalized}', NULL);
-- the text report of given rows: the lines hroe.compare_report prints
SELECT hroe.compare_report_lines((SELECT jsonb_agg(to_jsonb(x) - 'ordinality' ORDER BY x.ordinality)
	FROM hroe.compare('{product_inventory_at}', '{hroe_normalized}', 1) WITH ORDINALITY x)) ~ '^(|  hroe_normalized +[01] rows .*|read 12 product_inventory_at \[.*\]: identical answers)$' AS line;
-- hroe.write_consumed_capacity prices one item's change; the old and new
-- versions must be of one key
SELECT hroe.write_consumed_capacity('Customer', NULL, NULL) AS delete_of_absent_item;
SELECT hroe.write_consumed_capacity('Customer', c.item, NULL) ->> 'CapacityUnits' AS delete_units
FROM hroe_multi."Customer" c WHERE c.pk OPERATOR(hroe.=) hroe_multi.customer_key(1);
SELECT hroe.write_consumed_capacity('Customer', a.item, b.item)
FROM hroe_multi."Customer" a, hroe_multi."Customer" b
WHERE a.pk OPERATOR(hroe.=) hroe_multi.customer_key(1) AND b.pk OPERATOR(hroe.=) hroe_multi.customer_key(2);
SELECT hroe.write_consumed_capacity(NULL, NULL, NULL);
SELECT hroe.write_consumed_capacity('NoSuchTable', NULL, NULL);
-- The row shapes the patterns share (hroe_normalized.employee_details,
-- order_rows, employee_summary; hroe_single.employee_profile, order_row,
-- employee_summary, inventory_row; hroe_multi.employee_profile) are inlined:
-- no read pattern's plan scans a function of a model schema; the only
-- Function Scans are hroe.sharded_query's merges and the phone lists' unnest
CREATE FUNCTION pg_temp.plan_lines(p_call text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM ' || p_call LOOP
		RETURN NEXT l;
	END LOOP;
END
$$;
SELECT m.model, count(DISTINCT (p.pattern, a.case_label)) AS calls,
	   count(*) FILTER (WHERE l ~ 'Function Scan on hroe_(normalized|single|multi)\.') AS model_function_scans,
	   string_agg(DISTINCT substring(l FROM 'Function Scan on (\S+)'), ', ') AS function_scans
FROM hroe.access_patterns p, hroe.compare_args(p.pattern) a, hroe.compare_models() m (model),
	 pg_temp.plan_lines(hroe.compare_call(m.model, p.pattern, a.args)) l
WHERE p.kind = 'read'
GROUP BY 1 ORDER BY 1;
