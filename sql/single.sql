--
-- hroe_single: the 17 read patterns against hroe_normalized (scale 1, seed 42).
--
-- JIT would compile every generated comparison query: seconds each, for nothing
SET jit = off;
SELECT count(*) AS tables_loaded FROM hroe.load(1, 42);
SELECT hroe.item_get_text(item, 'type') AS item_type, count(*) AS items
FROM hroe_single.items GROUP BY 1 ORDER BY 1;
SELECT hroe_single.shard_count() AS gsi2_shards;

-- The busiest rep, product and customer, a repeated name, a changed job.
SELECT sales_rep_id AS busiest_rep FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT product_id AS busiest_product FROM hroe_normalized.order_items
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT customer_id AS busiest_customer FROM hroe_normalized.orders
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT first_name || ' ' || last_name AS duplicate_name FROM hroe_normalized.employees
GROUP BY first_name, last_name ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT min(employee_id) AS changed_job_employee FROM hroe_normalized.employees
WHERE job_start_date > hire_date \gset

-- Every pattern over many generated arguments: per call, the two result
-- lists compared in order (rows as text), and the rows each has that the
-- other lacks (EXCEPT ALL both ways), so that no difference can hide.
CREATE TEMP TABLE args_emp AS
SELECT employee_id AS id FROM hroe_normalized.employees
UNION SELECT unnest(ARRAY[0, -1, 99, 2147483647, NULL]);
CREATE TEMP TABLE args_cust AS
SELECT customer_id AS id FROM hroe_normalized.customers WHERE customer_id <= 80 OR customer_id = :busiest_customer
UNION SELECT unnest(ARRAY[0, -7, NULL]);
CREATE TEMP TABLE args_prod AS
SELECT product_id AS id FROM hroe_normalized.product_information UNION SELECT unnest(ARRAY[0, 100000, NULL]);
CREATE TEMP TABLE args_wh AS SELECT generate_series(0, 10) AS id UNION SELECT NULL;
-- date ranges: all, a year, one day, a boundary pair, reversed, unbounded,
-- before the data, NULL ends
CREATE TEMP TABLE args_range AS
SELECT * FROM (VALUES ('2020-01-01'::date, '2025-12-31'::date), ('2024-01-01', '2024-12-31'),
					  ('2023-03-15', '2023-03-15'), ('2022-02-28', '2022-03-01'), ('2025-12-31', '2020-01-01'),
					  ('-infinity', 'infinity'), ('0001-01-01', '9999-12-31'), ('2019-01-01', '2019-12-31'),
					  (NULL, '2025-01-01'), ('2021-01-01', NULL)) v (f, t);
CREATE TEMP TABLE args_status AS
SELECT * FROM (VALUES (NULL::text), ('OPEN'), ('SHIPPED'), ('CLOSED'), ('CANCELED'), ('open'),
					  ('CUSTOMER'), ('')) v (s);
CREATE TEMP TABLE args_name AS
SELECT DISTINCT COALESCE(first_name || ' ', '') || last_name AS n FROM hroe_normalized.employees
UNION SELECT unnest(ARRAY['Nobody Here', '', lower(:'duplicate_name'), NULL]);
CREATE TEMP TABLE args_since AS
SELECT DISTINCT hire_date AS d FROM hroe_normalized.employees
UNION SELECT unnest(ARRAY['-infinity', 'infinity', '1999-01-01', NULL]::date[]);
CREATE TEMP TABLE args_title AS
SELECT job_title AS t FROM hroe_normalized.jobs
UNION SELECT unnest(ARRAY['President ', 'sales representative', '', NULL]);
CREATE TEMP TABLE args_quarter AS
SELECT y || '-Q' || q AS q FROM generate_series(2019, 2026) y, generate_series(1, 4) q UNION SELECT NULL;
-- open_orders: the ranges above, and a day, two days and a month every 97 days
CREATE TEMP TABLE args_open AS
SELECT f, t FROM args_range
UNION ALL SELECT d::date, d::date + k FROM generate_series(date '2020-01-01', '2025-12-31', '97 days') d,
										   unnest(ARRAY[0, 1, 30]) k;
CREATE TEMP TABLE results (pattern text, calls bigint, nonempty bigint, rows bigint,
						   only_normalized bigint, only_single bigint, order_differs bigint);
CREATE FUNCTION pg_temp.compare(p_pattern text, p_call text, p_args text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		INSERT INTO results
		SELECT %1$L, count(*), count(*) FILTER (WHERE x.n > 0), sum(x.n), sum(x.only_n), sum(x.only_s),
			   count(*) FILTER (WHERE x.l_n IS DISTINCT FROM x.l_s)
		FROM (SELECT (SELECT count(*) FROM hroe_normalized.%2$s z) AS n,
					 (SELECT count(*) FROM (SELECT * FROM hroe_normalized.%2$s
											EXCEPT ALL SELECT * FROM hroe_single.%2$s) z) AS only_n,
					 (SELECT count(*) FROM (SELECT * FROM hroe_single.%2$s
											EXCEPT ALL SELECT * FROM hroe_normalized.%2$s) z) AS only_s,
					 (SELECT array_agg(z::text) FROM hroe_normalized.%2$s z) AS l_n,
					 (SELECT array_agg(z::text) FROM hroe_single.%2$s z) AS l_s
			  FROM %3$s) x$q$, p_pattern, p_call, p_args);
END
$$;
CREATE FUNCTION pg_temp.compare_all() RETURNS SETOF results
LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE results;
	PERFORM pg_temp.compare('employee_by_id', 'employee_by_id(a.id)', 'args_emp a');
	PERFORM pg_temp.compare('employee_by_name', 'employee_by_name(a.n)', 'args_name a');
	PERFORM pg_temp.compare('employee_current_job', 'employee_current_job(a.id)', 'args_emp a');
	PERFORM pg_temp.compare('customer_orders', 'customer_orders(a.id, r.f, r.t, s.s)', 'args_cust a, args_range r, args_status s');
	PERFORM pg_temp.compare('open_orders', 'open_orders(r.f, r.t)', 'args_open r');
	PERFORM pg_temp.compare('employees_hired_since', 'employees_hired_since(a.d)', 'args_since a');
	PERFORM pg_temp.compare('warehouse_employees', 'warehouse_employees(a.id)', 'args_wh a');
	PERFORM pg_temp.compare('product_order_items', 'product_order_items(a.id)', 'args_prod a');
	PERFORM pg_temp.compare('rep_customers', 'rep_customers(a.id)', 'args_emp a');
	PERFORM pg_temp.compare('rep_orders', 'rep_orders(a.id, r.f, r.t, s.s)',
		$a$(SELECT id FROM args_emp WHERE id IS NULL OR id < 100
			OR id IN (SELECT employee_id FROM hroe_normalized.employees WHERE job_id = 'SA_REP')) a,
		   args_range r, args_status s$a$);
	PERFORM pg_temp.compare('employees_by_title', 'employees_by_title(a.t)', 'args_title a');
	PERFORM pg_temp.compare('product_inventory_at', 'product_inventory_at(a.id, w.id)', 'args_prod a, args_wh w');
	PERFORM pg_temp.compare('product_total_inventory', 'product_total_inventory(a.id)', 'args_prod a');
	PERFORM pg_temp.compare('rep_ranking', 'rep_ranking(a.q)', 'args_quarter a');
	PERFORM pg_temp.compare('employee_phones', 'employee_phones(a.id)', 'args_emp a');
	PERFORM pg_temp.compare('customer_phones', 'customer_phones(a.id)', 'args_cust a');
	PERFORM pg_temp.compare('product_inventories', 'product_inventories(a.id)', 'args_prod a');
	RETURN QUERY SELECT * FROM results;
END
$$;
SELECT * FROM pg_temp.compare_all();

-- The same comparison without any index: the answers do not depend on the plan.
-- (On a few arguments: every call is a scan of the whole table.)
BEGIN;
DELETE FROM args_emp WHERE id IS DISTINCT FROM :busiest_rep AND id IS DISTINCT FROM 100;
DELETE FROM args_cust WHERE id IS DISTINCT FROM :busiest_customer;
DELETE FROM args_prod WHERE id IS DISTINCT FROM :busiest_product;
DELETE FROM args_wh WHERE id IS DISTINCT FROM 4;
DELETE FROM args_range WHERE f IS DISTINCT FROM '2024-01-01';
DELETE FROM args_status WHERE s IS NOT NULL AND s <> 'OPEN';
DELETE FROM args_name WHERE n IS DISTINCT FROM :'duplicate_name';
DELETE FROM args_since WHERE d IS DISTINCT FROM '2025-01-01' AND d IS DISTINCT FROM '-infinity';
DELETE FROM args_title WHERE t IS DISTINCT FROM 'Sales Representative';
DELETE FROM args_quarter WHERE q IS DISTINCT FROM '2025-Q3';
DELETE FROM args_open WHERE f IS DISTINCT FROM '2024-01-01';
SET LOCAL enable_indexscan = off;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_indexonlyscan = off;
SELECT pattern, calls, rows, only_normalized, only_single, order_differs FROM pg_temp.compare_all();
ROLLBACK;

-- A few answers in full.
SELECT employee_id, first_name, last_name, phone_numbers, job_title, department_name, city
FROM hroe_single.employee_by_name(:'duplicate_name');
SELECT * FROM hroe_single.employee_current_job(:changed_job_employee);
SELECT * FROM hroe_single.rep_ranking('2025-Q3') LIMIT 5;
SELECT * FROM hroe_single.open_orders('2025-12-20', '2025-12-31');
SELECT * FROM hroe_single.product_order_items(:busiest_product) LIMIT 12;
SELECT * FROM hroe_single.customer_phones(1);
SELECT * FROM hroe_single.product_total_inventory(:busiest_product);
SELECT count(*) AS rep_orders_busiest FROM hroe_single.rep_orders(:busiest_rep, '2020-01-01', '2025-12-31');

-- The table is the DynamoDB table hroe_single (hroe.create_table, GSI1-GSI4
-- by hroe.create_index sharing key columns), so the DynamoDB operations read
-- it, with the patterns' key conditions.
SELECT table_name, relid, partition_key, sort_key FROM hroe.tables WHERE table_name = 'hroe_single';
SELECT index_name, index_relname, partition_key, partition_key_columns, sort_key, sort_key_columns
FROM hroe.indexes WHERE table_name = 'hroe_single' ORDER BY 1;
SELECT hroe.get_item('hroe_single', '{"PK": {"S": "OE-PRODUCT#0000000001"}, "SK": {"S": "PRODUCT#0000000001"}}')
	OPERATOR(hroe.->) 'total_on_hand' AS total_on_hand,
	(SELECT total_on_hand FROM hroe_single.product_total_inventory(1)) AS pattern_13;
SELECT (SELECT count(*) FROM hroe.query('hroe_single', 'SK = :s AND begins_with(GSI1_SK, :p)',
		jsonb_build_object(':s', jsonb_build_object('S', 'PRODUCT#' || lpad(:busiest_product::text, 10, '0')),
						   ':p', '{"S": "INVENTORY#"}'::jsonb), NULL, 'GSI1')) AS query_gsi1,
	   (SELECT count(*) FROM hroe_single.product_inventories(:busiest_product)) AS pattern_17;
SELECT (SELECT count(*) FROM hroe.query('hroe_single', 'GSI1_SK = :n',
		jsonb_build_object(':n', jsonb_build_object('S', 'EMPLOYEE-NAME#' || :'duplicate_name')), NULL, 'GSI3')) AS query_gsi3,
	   (SELECT count(*) FROM hroe_single.employee_by_name(:'duplicate_name')) AS pattern_2;
SELECT sum((SELECT count(*) FROM hroe.query('hroe_single', 'GSI2_PK = :b AND GSI1_SK BETWEEN :a AND :z',
		jsonb_build_object(':b', jsonb_build_object('N', b::text), ':a', '{"S": "OPEN#2025-12-01"}'::jsonb,
						   ':z', '{"S": "OPEN#2025-12-31$"}'::jsonb), NULL, 'GSI2'))) AS query_gsi2_all_shards,
	   (SELECT count(*) FROM hroe_single.open_orders('2025-12-01', '2025-12-31')) AS pattern_5
FROM generate_series(0, hroe_single.shard_count() - 1) b;
SELECT array_agg(hroe.item_get_number(i, 'employee_id')) AS query_gsi1_backward,
	   (SELECT array_agg(employee_id) FROM hroe_single.rep_ranking('2025-Q3')) AS pattern_14
FROM hroe.query('hroe_single', 'SK = :q', '{":q": {"S": "SALES#2025-Q3"}}', NULL, 'GSI1', false) i;

-- Errors and NULLs behave as in hroe_normalized.
SELECT * FROM hroe_single.rep_ranking('2025-Q5');
SELECT * FROM hroe_single.rep_ranking('Q3-2025');
SELECT count(*) AS long_name FROM hroe_single.employee_by_name(repeat('x', 3000));
SELECT count(*) AS long_title FROM hroe_single.employees_by_title(repeat('x', 3000));

-- Every pattern is one GetItem or one Query on one index: EXPLAIN shows
-- index scans only -- no join, no Seq Scan, no Sort.  (random_page_cost
-- 1.1, for an SSD or a cached database: with the default 4 the planner
-- prefers a Bitmap Heap Scan and a Sort for patterns 4 and 10 once a few
-- rows are expected -- the answers are the same, and in memory it is not
-- faster: README "Access patterns", test/bench/single_plans.sh.)
SET random_page_cost = 1.1;
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employee_by_id(100);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employee_by_name('Steven King');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employee_current_job(100);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.customer_orders(7, '2020-01-01', '2025-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.customer_orders(7, '2020-01-01', '2025-12-31', 'OPEN');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.open_orders('2025-12-01', '2025-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employees_hired_since('2025-01-01');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.warehouse_employees(4);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.product_order_items(1);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.rep_customers(101);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.rep_orders(101, '2024-01-01', '2024-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.rep_orders(101, '2024-01-01', '2024-12-31', 'CLOSED');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employees_by_title('Sales Representative');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.product_inventory_at(1, 4);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.product_total_inventory(1);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.rep_ranking('2025-Q3');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.employee_phones(100);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.customer_phones(1);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_single.product_inventories(1);
RESET random_page_cost;

-- open_orders reads the N shards of GSI2, each in date order, and merges
-- them: N + L - 1 index entries for the first L rows.
SELECT count(DISTINCT gsi2_pk) AS shards_used, count(*) AS open_orders,
	   (SELECT count(*) FROM hroe_normalized.orders WHERE order_status = 'OPEN') AS normalized_open
FROM hroe_single.items WHERE gsi2_pk IS NOT NULL;

-- verify() is clean after a load; a damaged item is reported.
SELECT * FROM hroe.verify();
BEGIN;
UPDATE hroe_single.items SET item = item OPERATOR(hroe.||) '{"total_on_hand": {"N": "1"}}'::hroe.item
WHERE pk OPERATOR(hroe.=) 'OE-PRODUCT#0000000001' AND sk OPERATOR(hroe.=) 'PRODUCT#0000000001';
DELETE FROM hroe_single.items WHERE pk OPERATOR(hroe.=) 'HR-EMPLOYEE#0000000100' AND sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL';
INSERT INTO hroe_single.items (item) VALUES ('{"PK": {"S": "X"}, "SK": {"S": "Y"}}');
SELECT * FROM hroe.verify();
ROLLBACK;

-- Phone lists are read whole, however long: an employee and a customer
-- written directly with 7 phone numbers (more than the normalized schema's
-- 5) come back with all 7, in list order; a non-string element is an error.
BEGIN;
UPDATE hroe_single.items SET item = item OPERATOR(hroe.||) hroe.item_from_document(
	'{"phone_numbers": ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]}')
WHERE (pk OPERATOR(hroe.=) 'HR-EMPLOYEE#0000000100' AND sk OPERATOR(hroe.=) 'EMPLOYEE#0000000100')
   OR (pk OPERATOR(hroe.=) 'OE-CUSTOMER#0000000001' AND sk OPERATOR(hroe.=) 'CUSTOMER#0000000001');
SELECT employee_id, phone_numbers, cardinality(phone_numbers) AS phones FROM hroe_single.employee_by_id(100);
SELECT employee_id, cardinality(phone_numbers) AS phones
FROM hroe_single.employee_by_name((SELECT first_name || ' ' || last_name FROM hroe_single.employee_by_id(100)))
WHERE employee_id = 100;
SELECT * FROM hroe_single.employee_phones(100);
SELECT * FROM hroe_single.customer_phones(1);
UPDATE hroe_single.items SET item = item OPERATOR(hroe.||) '{"phone_numbers": {"L": [{"S": "p1"}, {"N": "2"}]}}'::hroe.item
WHERE pk OPERATOR(hroe.=) 'HR-EMPLOYEE#0000000100' AND sk OPERATOR(hroe.=) 'EMPLOYEE#0000000100';
SELECT * FROM hroe_single.employee_phones(100);
ROLLBACK;

-- Leave hroe.tables as the other tests expect it: unregister the DynamoDB
-- table hroe_single (hroe.load registers it again).
DELETE FROM hroe.tables WHERE table_name = 'hroe_single';
