--
-- hroe_multi: AWS's 2025 multi-table design, loaded from the normalized data
-- (scale 1, seed 42); its 17 read patterns against hroe_normalized's.
--
SELECT * FROM hroe.load(1, 42) WHERE table_name LIKE 'hroe_multi.%';

-- The items of one employee, one order, one product and one rep quarter
SELECT pk, item FROM hroe_multi."Employee"
WHERE pk OPERATOR(hroe.=) hroe_multi.employee_key(101)
   OR pk OPERATOR(hroe.=) ('EMAIL#' || (SELECT email FROM hroe_normalized.employees WHERE employee_id = 101))::hroe.key;
SELECT pk, sk, item FROM hroe_multi."Order" WHERE pk OPERATOR(hroe.=) hroe_multi.order_key(5) ORDER BY sk;
SELECT pk, sk, item FROM hroe_multi."Product" WHERE pk OPERATOR(hroe.=) hroe_multi.product_key(1) ORDER BY sk;
SELECT pk, sk, item FROM hroe_multi."RepQuarterTotal"
WHERE pk OPERATOR(hroe.=) '2025-Q3'::hroe.key ORDER BY "RepQuarterRanking_sk1" LIMIT 2;

-- Every GSI holds exactly the items its key attributes select (sparse):
-- each entry is an index tuple of the partial index, counted by a forced
-- index-only scan, against the normalized rows it stands for.
SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT 'EmployeeByName' AS gsi,
       (SELECT count(*) FROM hroe_multi."Employee" WHERE "EmployeeByName_pk1" IS NOT NULL AND "EmployeeByName_sk1" IS NOT NULL) AS entries,
       (SELECT count(*) FROM hroe_normalized.employees) AS expected
UNION ALL
SELECT 'EmployeeByWarehouse',
       (SELECT count(*) FROM hroe_multi."Employee" WHERE "EmployeeByWarehouse_pk1" IS NOT NULL AND "EmployeeByWarehouse_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.employees e JOIN hroe_normalized.departments d USING (department_id)
                                                         JOIN hroe_normalized.warehouses w USING (location_id))
UNION ALL
SELECT 'EmployeeByJobTitle',
       (SELECT count(*) FROM hroe_multi."Employee" WHERE "EmployeeByJobTitle_pk1" IS NOT NULL AND "EmployeeByJobTitle_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.employees)
UNION ALL
SELECT 'EmployeeByHireDate',
       (SELECT count(*) FROM hroe_multi."Employee" WHERE "EmployeeByHireDate_pk1" IS NOT NULL AND "EmployeeByHireDate_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.employees)
UNION ALL
SELECT 'CustomerByAccountRep',
       (SELECT count(*) FROM hroe_multi."Customer" WHERE "CustomerByAccountRep_pk1" IS NOT NULL AND "CustomerByAccountRep_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.customers WHERE account_mgr_id IS NOT NULL)
UNION ALL
SELECT 'OrderByCustomerDate',
       (SELECT count(*) FROM hroe_multi."Order" WHERE "OrderByCustomerDate_pk1" IS NOT NULL AND "OrderByCustomerDate_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.orders)
UNION ALL
SELECT 'OpenOrdersByDate',
       (SELECT count(*) FROM hroe_multi."Order" WHERE "OpenOrdersByDate_pk1" IS NOT NULL AND "OpenOrdersByDate_pk2" IS NOT NULL
                                                  AND "OpenOrdersByDate_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.orders WHERE order_status = 'OPEN')
UNION ALL
SELECT 'OrderByAccountRep',
       (SELECT count(*) FROM hroe_multi."Order" WHERE "OrderByAccountRep_pk1" IS NOT NULL AND "OrderByAccountRep_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL)
UNION ALL
SELECT 'ProductInOrders',
       (SELECT count(*) FROM hroe_multi."Order" WHERE "ProductInOrders_pk1" IS NOT NULL AND "ProductInOrders_sk1" IS NOT NULL),
       (SELECT count(*) FROM hroe_normalized.order_items)
UNION ALL
SELECT 'RepQuarterRanking',
       (SELECT count(*) FROM hroe_multi."RepQuarterTotal" WHERE "RepQuarterRanking_pk1" IS NOT NULL AND "RepQuarterRanking_sk1" IS NOT NULL),
       (SELECT count(DISTINCT (sales_rep_id, hroe_multi.quarter_of(order_date))) FROM hroe_normalized.orders
        WHERE sales_rep_id IS NOT NULL AND order_status <> 'CANCELED');
-- the OPEN orders spread over the 5 shards of OpenOrdersByDate
SELECT "OpenOrdersByDate_pk2" AS shard, count(*) AS open_orders,
       bool_and("OpenOrdersByDate_pk2" = hroe.shard_of(hroe_multi.key_number(pk::text), 5)) AS shard_of_order_id
FROM hroe_multi."Order" WHERE "OpenOrdersByDate_pk1" OPERATOR(hroe.=) 'OPEN'::hroe.key
GROUP BY 1 ORDER BY 1;
RESET enable_seqscan; RESET enable_bitmapscan;
-- dates that OPEN orders in different shards share: open_orders' ties,
-- which the merge orders by order id (the key column after order_date)
SELECT count(*) AS dates_shared_across_shards
FROM (SELECT "OpenOrdersByDate_sk1" FROM hroe_multi."Order" WHERE "OpenOrdersByDate_pk1" OPERATOR(hroe.=) 'OPEN'::hroe.key
      GROUP BY 1 HAVING count(DISTINCT "OpenOrdersByDate_pk2") > 1) d;

-- Projections, as DynamoDB enforces them.  Every GSI is INCLUDE, with the
-- seed's attributes (mapped to hroe's: a customer's name is first_name and
-- last_name, a line's customer_id and order_date are in order_context) plus
-- those the contract's columns need:
SELECT x.table_name, x.index_name, x.partition_key, x.sort_key, x.projection, x.non_key_attributes
FROM hroe.indexes x JOIN hroe.tables t USING (table_name)
WHERE t.relid::text LIKE 'hroe_multi.%' ORDER BY 1, 2;
-- the seed's projected attributes are all projected (or keys)
SELECT s.gsi, a.attribute AS seed_attribute_not_projected
FROM (VALUES ('EmployeeByWarehouse', '{name, job_title, hire_date}'::text[]),
             ('EmployeeByJobTitle', '{name, warehouse_id, hire_date}'),
             ('EmployeeByHireDate', '{employee_id, name, warehouse_id}'),
             ('CustomerByAccountRep', '{first_name, last_name, email}'),
             ('OrderByCustomerDate', '{order_id, status, total_amount, order_items, shard}'),
             ('OpenOrdersByDate', '{order_id, customer_id, account_rep_id, order_items, total_amount}'),
             ('OrderByAccountRep', '{order_id, customer_id, status, total_amount}'),
             ('ProductInOrders', '{order_context, quantity}')) s (gsi, attributes),
     unnest(s.attributes) a (attribute), hroe.indexes i, hroe.tables t
WHERE i.index_name = s.gsi AND t.table_name = i.table_name
  AND a.attribute <> ALL (i.non_key_attributes || i.partition_key || i.sort_key || t.partition_key
                          || COALESCE(t.sort_key, t.partition_key))
ORDER BY 1, 2;
-- EmployeeByName projects "all employee attributes": every attribute of
-- every employee item is projected or a key
SELECT DISTINCT a.name AS employee_attribute_not_in_EmployeeByName
FROM hroe_multi."Employee" e, unnest(hroe.item_attributes(e.item)) a (name), hroe.indexes i
WHERE e."EmployeeByName_pk1" IS NOT NULL AND i.index_name = 'EmployeeByName'
  AND a.name <> ALL (i.non_key_attributes || i.partition_key || i.sort_key || '{employee_id}'::text[]);
-- every attribute a read pattern takes from an item it found through a GSI
-- (alias.item, 'attribute' with alias the row whose GSI key columns it
-- uses) is one the GSI projects, or a key; a pattern reading through the
-- base table (GetItem, Query on the table key) may read any attribute
CREATE FUNCTION pg_temp.unprojected_reads(p_source text)
RETURNS TABLE (index_name text, attribute text)
LANGUAGE sql AS $$
WITH gsi AS (
	SELECT DISTINCT m[1] AS alias, i.index_name,
		   i.non_key_attributes || i.partition_key || i.sort_key || t.partition_key
		   || COALESCE(t.sort_key, t.partition_key) AS projected
	FROM regexp_matches(p_source, '(\w+)\."(\w+)"', 'g') m
	JOIN hroe.indexes i ON m[2]::name = ANY (i.partition_key_columns || i.sort_key_columns)
	JOIN hroe.tables t ON t.table_name = i.table_name
	WHERE t.relid::text LIKE 'hroe_multi.%'
), reads AS (
	SELECT m[1] AS alias, substring(m[2] FROM '^[^.\[]+') AS attribute
	FROM regexp_matches(p_source, '(\w+)\.item, ''([^'']+)''', 'g') m
)
SELECT DISTINCT g.index_name, r.attribute FROM gsi g JOIN reads r USING (alias)
WHERE r.attribute <> ALL (g.projected)
$$;
-- a pattern's source with the row shape it calls (employee_profile) written
-- in place: the shape's reads are the pattern's, on the pattern's alias
CREATE FUNCTION pg_temp.pattern_source(p_proc oid)
RETURNS text
LANGUAGE sql AS $$
SELECT regexp_replace(p.prosrc, 'hroe_multi\.employee_profile\((\w+)\.pk, \w+\.item\)',
	   replace(replace(s.prosrc, 'p_item', '\1.item'), 'p_pk', '\1.pk'), 'g')
FROM pg_proc p, pg_proc s
WHERE p.oid = p_proc AND s.oid = 'hroe_multi.employee_profile(hroe.key, hroe.item)'::regprocedure
$$;
SELECT count(*) AS patterns, count(*) FILTER (WHERE gsi) AS through_a_gsi,
       sum(reads) FILTER (WHERE gsi) AS attribute_reads_checked,
       string_agg(p.proname || ': ' || u.index_name || '.' || u.attribute, ', ') AS unprojected
FROM pg_proc p
CROSS JOIN LATERAL (SELECT pg_temp.pattern_source(p.oid) ~ '\w+\."\w+_(pk|sk)\d"' AS gsi,
                           (SELECT count(*) FROM regexp_matches(pg_temp.pattern_source(p.oid), '\w+\.item, ''', 'g')) AS reads) x
LEFT JOIN LATERAL pg_temp.unprojected_reads(pg_temp.pattern_source(p.oid)) u ON true
WHERE p.pronamespace = 'hroe_multi'::regnamespace
  AND p.proname IN ('employee_by_id', 'employee_by_name', 'employee_current_job', 'customer_orders', 'open_orders',
                    'employees_hired_since', 'warehouse_employees', 'product_order_items', 'rep_customers',
                    'rep_orders', 'employees_by_title', 'product_inventory_at', 'product_total_inventory',
                    'rep_ranking', 'employee_phones', 'customer_phones', 'product_inventories');
-- the check finds a read outside the projection (rep_customers reading the
-- customer's phones, which CustomerByAccountRep does not project)
SELECT * FROM pg_temp.unprojected_reads(
	replace((SELECT prosrc FROM pg_proc WHERE oid = 'hroe_multi.rep_customers(integer)'::regprocedure),
			'''email''', '''phone_numbers'''));

-- The model is exactly the mapping of the normalized data
SELECT count(*) AS problems FROM hroe_multi.verify();

-- The calls of the equality test, generated from the data with hroe.prng
-- (deterministic): every employee, customer, product, rep, title, quarter
-- and warehouse, with random date ranges and statuses, and edge cases
-- (unknown ids, NULL, empty strings, reversed and open-ended ranges).
CREATE TEMP TABLE calls (pattern text, i serial, a1 text, a2 text, a3 text, a4 text);
CREATE TEMP VIEW rnd AS
SELECT g AS i, date '2019-12-01' + (hroe.prng(7, 1, g) * 2250)::int AS d1,
       (hroe.prng(7, 2, g) * 400)::int AS len,
       (ARRAY[NULL, NULL, 'OPEN', 'SHIPPED', 'CLOSED', 'CANCELED', 'open'])[1 + (hroe.prng(7, 3, g) * 7)::int % 7] AS status
FROM generate_series(1, 5000) g;
INSERT INTO calls (pattern, a1)
SELECT p, e.employee_id::text
FROM unnest(ARRAY['employee_by_id', 'employee_current_job', 'employee_phones', 'rep_customers']) p,
     (SELECT employee_id FROM hroe_normalized.employees UNION ALL VALUES (0), (-1), (99), (99999), (NULL)) e;
INSERT INTO calls (pattern, a1)
SELECT 'employee_by_name', n
FROM (SELECT DISTINCT COALESCE(first_name || ' ', '') || last_name FROM hroe_normalized.employees
      UNION ALL SELECT DISTINCT lower(first_name || ' ' || last_name) FROM hroe_normalized.employees
      UNION ALL VALUES ('Nobody Here'), (''), (NULL), (repeat('x', 3000))) n (n);
INSERT INTO calls (pattern, a1, a2, a3, a4)
SELECT 'customer_orders', c.customer_id::text, r.d1::text, (r.d1 + 4 * r.len)::text, r.status
FROM (SELECT customer_id FROM hroe_normalized.customers UNION ALL VALUES (0), (NULL)) c
JOIN rnd r ON r.i = COALESCE(c.customer_id, 1000);
INSERT INTO calls (pattern, a1, a2, a3, a4) VALUES
  ('customer_orders', '5', '2020-01-01', '2025-12-31', NULL), ('customer_orders', '5', '2025-12-31', '2020-01-01', NULL),
  ('customer_orders', '5', '-infinity', 'infinity', NULL), ('customer_orders', '5', NULL, '2025-01-01', NULL),
  ('customer_orders', '5', '2020-01-01', '2025-12-31', 'CLOSED');
INSERT INTO calls (pattern, a1, a2)
SELECT 'open_orders', r.d1::text, (r.d1 + r.len / 4)::text FROM rnd r WHERE r.i <= 60
UNION ALL VALUES ('open_orders', '2020-01-01', '2025-12-31'), ('open_orders', '2025-12-31', '2020-01-01'),
  ('open_orders', '-infinity', 'infinity'), ('open_orders', NULL, '2025-01-01'), ('open_orders', '2024-02-29', '2024-02-29');
INSERT INTO calls (pattern, a1)
SELECT 'employees_hired_since', (date '2009-06-01' + (hroe.prng(7, 4, g) * 6000)::int)::text FROM generate_series(1, 40) g
UNION ALL VALUES ('employees_hired_since', '-infinity'), ('employees_hired_since', 'infinity'), ('employees_hired_since', NULL);
INSERT INTO calls (pattern, a1)
SELECT 'warehouse_employees', w::text FROM generate_series(0, 10) w UNION ALL VALUES ('warehouse_employees', NULL);
INSERT INTO calls (pattern, a1)
SELECT p, pr.product_id::text
FROM unnest(ARRAY['product_order_items', 'product_total_inventory', 'product_inventories']) p,
     (SELECT product_id FROM hroe_normalized.product_information UNION ALL VALUES (0), (99999), (NULL)) pr;
INSERT INTO calls (pattern, a1, a2)
SELECT 'product_inventory_at', pr.product_id::text, (1 + (hroe.prng(7, 5, pr.product_id) * 10)::int)::text
FROM hroe_normalized.product_information pr
UNION ALL SELECT 'product_inventory_at', i.product_id::text, i.warehouse_id::text FROM hroe_normalized.inventories i
UNION ALL VALUES ('product_inventory_at', '1', NULL), ('product_inventory_at', NULL, '1');
INSERT INTO calls (pattern, a1, a2, a3, a4)
SELECT 'rep_orders', e.employee_id::text, r.d1::text, (r.d1 + r.len * 2)::text, r.status
FROM (SELECT employee_id FROM hroe_normalized.employees UNION ALL VALUES (0), (NULL)) e
JOIN rnd r ON r.i = 2000 + COALESCE(e.employee_id, 0)
UNION ALL VALUES ('rep_orders', '101', '2020-01-01', '2025-12-31', NULL), ('rep_orders', '101', '-infinity', 'infinity', 'OPEN');
INSERT INTO calls (pattern, a1)
SELECT 'employees_by_title', t
FROM (SELECT job_title FROM hroe_normalized.jobs UNION ALL SELECT upper(job_title) FROM hroe_normalized.jobs
      UNION ALL VALUES ('Nobody'), (''), (NULL)) t (t);
INSERT INTO calls (pattern, a1)
SELECT 'rep_ranking', y || '-Q' || q FROM generate_series(2019, 2026) y, generate_series(1, 4) q
UNION ALL VALUES ('rep_ranking', NULL);
INSERT INTO calls (pattern, a1)
SELECT 'customer_phones', c.customer_id::text
FROM (SELECT customer_id FROM hroe_normalized.customers UNION ALL VALUES (0), (99999), (NULL)) c;

-- compare(model): per pattern, the calls, the rows hroe_normalized returns
-- (position included: WITH ORDINALITY, so an order difference is a
-- difference), and the rows of each side missing from the other (EXCEPT ALL
-- both ways).  hroe_single is one more column: compare('hroe_single').
CREATE FUNCTION pg_temp.compare(p_model text)
RETURNS TABLE (pattern text, calls bigint, normalized_rows bigint, missing bigint, extra bigint)
LANGUAGE plpgsql AS $$
DECLARE
	v_args text;
	v_n text;
	v_m text;
BEGIN
	FOR pattern, v_args IN VALUES
		('employee_by_id', 'c.a1::int'), ('employee_by_name', 'c.a1'), ('employee_current_job', 'c.a1::int'),
		('customer_orders', 'c.a1::int, c.a2::date, c.a3::date, c.a4'), ('open_orders', 'c.a1::date, c.a2::date'),
		('employees_hired_since', 'c.a1::date'), ('warehouse_employees', 'c.a1::int'),
		('product_order_items', 'c.a1::int'), ('rep_customers', 'c.a1::int'),
		('rep_orders', 'c.a1::int, c.a2::date, c.a3::date, c.a4'), ('employees_by_title', 'c.a1'),
		('product_inventory_at', 'c.a1::int, c.a2::int'), ('product_total_inventory', 'c.a1::int'),
		('rep_ranking', 'c.a1'), ('employee_phones', 'c.a1::int'), ('customer_phones', 'c.a1::int'),
		('product_inventories', 'c.a1::int')
	LOOP
		v_n := format('SELECT c.i, r FROM calls c, hroe_normalized.%I(%s) WITH ORDINALITY r WHERE c.pattern = %L',
					  pattern, v_args, pattern);
		v_m := format('SELECT c.i, r FROM calls c, %I.%I(%s) WITH ORDINALITY r WHERE c.pattern = %L',
					  p_model, pattern, v_args, pattern);
		SELECT count(*) INTO calls FROM calls c WHERE c.pattern = compare.pattern;
		EXECUTE format('SELECT count(*) FROM (%s) n', v_n) INTO normalized_rows;
		EXECUTE format('SELECT count(*) FROM (%s EXCEPT ALL %s) d', v_n, v_m) INTO missing;
		EXECUTE format('SELECT count(*) FROM (%s EXCEPT ALL %s) d', v_m, v_n) INTO extra;
		RETURN NEXT;
	END LOOP;
END
$$;

SELECT pattern, calls, normalized_rows, m.missing || ' missing, ' || m.extra || ' extra' AS hroe_multi
FROM pg_temp.compare('hroe_multi') m;

-- The same answers without the indexes (sequential scans), on every 8th call
DELETE FROM calls WHERE i % 8 <> 0;
SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;
SELECT sum(calls) AS calls, sum(normalized_rows) AS rows, sum(missing) AS missing, sum(extra) AS extra
FROM pg_temp.compare('hroe_multi');
RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan;
-- and with an empty search_path: every name in the patterns is qualified
SET search_path = '';
SELECT sum(calls) AS calls, sum(missing) AS missing, sum(extra) AS extra FROM pg_temp.compare('hroe_multi');
RESET search_path;

-- Errors and edge cases the contract fixes
SELECT * FROM hroe_multi.rep_ranking('2025-Q5');
SELECT * FROM hroe_normalized.rep_ranking('2025-Q5');
SELECT count(*) AS reversed_range FROM hroe_multi.open_orders('2025-12-31', '2025-01-01');

-- The same requests through hroe's DynamoDB API (the tables and GSIs are
-- registered by hroe.create_table/create_index): each pattern's Query or
-- GetItem returns the items the pattern reads, in the pattern's order
-- (keys compared), and its capacity is the request's.
SELECT 'customer_orders' AS pattern,
       ARRAY(SELECT hroe.item_get_text(i, 'order_id') FROM hroe.query('Order',
             'customer_id = :c AND order_date BETWEEN :a AND :b',
             '{":c": {"S": "cust_0000000005"}, ":a": {"S": "2020-01-01"}, ":b": {"S": "2025-12-31"}}',
             p_index_name => 'OrderByCustomerDate') i)
       = ARRAY(SELECT hroe_multi.order_key(order_id)::text FROM hroe_multi.customer_orders(5, '2020-01-01', '2025-12-31')) AS same
UNION ALL
SELECT 'open_orders',
       ARRAY(SELECT hroe.item_get_text(i, 'order_id') FROM generate_series(0, 4) s,
             hroe.query('Order', '#s = :s AND #n = :n AND order_date BETWEEN :a AND :b',
                        jsonb_build_object(':s', '{"S": "OPEN"}'::jsonb, ':n', jsonb_build_object('N', s::text),
                                           ':a', '{"S": "2025-01-01"}'::jsonb, ':b', '{"S": "2025-06-30"}'::jsonb),
                        '{"#s": "status", "#n": "shard"}', 'OpenOrdersByDate') i
             ORDER BY hroe.item_get_text(i, 'order_date'), 1)
       = ARRAY(SELECT hroe_multi.order_key(order_id)::text FROM hroe_multi.open_orders('2025-01-01', '2025-06-30'))
UNION ALL
SELECT 'rep_ranking',
       ARRAY(SELECT hroe.item_get_text(i, 'employee_id') FROM hroe.query('RepQuarterTotal', 'quarter = :q',
             '{":q": {"S": "2025-Q3"}}', p_index_name => 'RepQuarterRanking') i)
       = ARRAY(SELECT hroe_multi.employee_key(employee_id)::text FROM hroe_multi.rep_ranking('2025-Q3'))
UNION ALL
SELECT 'product_order_items',
       ARRAY(SELECT hroe.item_get_text(i, 'SK') FROM hroe.query('Product', 'product_id = :p AND begins_with(SK, :w)',
             '{":p": {"S": "prod_0000000005"}, ":w": {"S": "wh_"}}') i)
       || ARRAY(SELECT hroe.item_get_text(i, 'order_id') FROM hroe.query('Order', 'product_id = :p',
                '{":p": {"S": "prod_0000000005"}}', p_index_name => 'ProductInOrders') i)
       = ARRAY(SELECT COALESCE(hroe_multi.warehouse_key(warehouse_id), hroe_multi.order_key(order_id))::text
               FROM hroe_multi.product_order_items(5))
UNION ALL
SELECT 'product_total_inventory',
       hroe.item_get_number(hroe.get_item('Product', '{"product_id": {"S": "prod_0000000005"}, "SK": {"S": "prod_0000000005"}}'),
                            'total_inventory')
       = (SELECT total_on_hand FROM hroe_multi.product_total_inventory(5));
-- a GSI returns only its projection: OrderByAccountRep has no order_items
SELECT hroe.item_attributes(i) FROM hroe.query('Order', 'account_rep_id = :r AND order_date BETWEEN :a AND :b',
       '{":r": {"S": "emp_0000000101"}, ":a": {"S": "2025-07-01"}, ":b": {"S": "2025-07-31"}}',
       p_index_name => 'OrderByAccountRep') i LIMIT 1;
SELECT count, consumed_capacity
FROM hroe.query_page('Order', 'product_id = :p', '{":p": {"S": "prod_0000000005"}}', p_index_name => 'ProductInOrders',
                     p_return_consumed_capacity => 'INDEXES');

-- The patterns are inlined: EXPLAIN shows one table or index per pattern
-- (GetItem: the primary key; Query: a GSI or the primary key), with the
-- plain index scans that DynamoDB's requests are (sequential and bitmap
-- scans off: the planner may prefer them, by its random_page_cost, though
-- they are not faster here; the README's "Plans at default settings" times
-- both).  open_orders is the sharded query, a function that runs the 5
-- index scans itself; product_order_items' Sort orders its two Queries.
SET enable_seqscan = off; SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employee_by_id(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employee_by_name('Steven King');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employee_current_job(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.customer_orders(5, '2021-01-01', '2022-12-31', 'OPEN');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.open_orders('2021-01-01', '2021-01-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employees_hired_since('2024-01-01');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.warehouse_employees(4);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.product_order_items(5);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.rep_customers(101);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.rep_orders(101, '2021-01-01', '2022-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employees_by_title('Stock Clerk');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.product_inventory_at(5, 1);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.product_total_inventory(5);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.rep_ranking('2025-Q3');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.employee_phones(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.customer_phones(5);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.product_inventories(5);
RESET enable_seqscan; RESET enable_bitmapscan;
-- at default settings too, open_orders is the sharded query alone (its
-- merge order is the contract's: no sort) and a phone list is read in list
-- order (no sort)
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.open_orders('2021-01-01', '2021-01-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.customer_phones(5);

-- verify() finds a damaged derived attribute, a missing and a stray item
BEGIN;
UPDATE hroe_multi."Product" SET item = item OPERATOR(hroe.||) '{"total_inventory": {"N": "1"}}'::hroe.item
WHERE pk OPERATOR(hroe.=) hroe_multi.product_key(1) AND sk OPERATOR(hroe.=) hroe_multi.product_key(1);
UPDATE hroe_multi."Order" SET item = item OPERATOR(hroe.-) 'shard'
WHERE pk OPERATOR(hroe.=) hroe_multi.order_key(5) AND sk OPERATOR(hroe.=) hroe_multi.order_key(5);
DELETE FROM hroe_multi."Customer" WHERE pk OPERATOR(hroe.=) hroe_multi.customer_key(7);
INSERT INTO hroe_multi."RepQuarterTotal" (item) VALUES (hroe_multi.rep_quarter_item('1999-Q1', 101, 5, 1));
SELECT * FROM hroe_multi.verify();
ROLLBACK;
SELECT count(*) AS problems FROM hroe_multi.verify();

-- Phone lists are read whole (hroe.item_get_string_list, shared with
-- hroe_single): 7 numbers written directly come back, in list order
BEGIN;
UPDATE hroe_multi."Customer" SET item = item OPERATOR(hroe.||) hroe.item_from_document(
	'{"phone_numbers": ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]}')
WHERE pk OPERATOR(hroe.=) hroe_multi.customer_key(5);
SELECT * FROM hroe_multi.customer_phones(5);
ROLLBACK;
