--
-- hroe_normalized: the 17 read patterns on generated data (scale 1, seed 42).
--
SELECT count(*) AS tables_loaded FROM hroe.load(1, 42);

-- The arguments the checks below use, found in the data.
SELECT sales_rep_id AS busiest_rep FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT product_id AS busiest_product FROM hroe_normalized.order_items
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT customer_id AS busiest_customer FROM hroe_normalized.orders
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT first_name || ' ' || last_name AS duplicate_name FROM hroe_normalized.employees
GROUP BY first_name, last_name ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT min(product_id) AS unstocked_product FROM hroe_normalized.product_information p
WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id) \gset
SELECT min(employee_id) AS changed_job_employee FROM hroe_normalized.employees
WHERE job_start_date > hire_date \gset
SELECT min(customer_id) AS phoneless_customer FROM hroe_normalized.customers
WHERE cardinality(phone_numbers) = 0 \gset
SELECT :busiest_rep, :busiest_product, :busiest_customer, :'duplicate_name', :unstocked_product,
       :changed_job_employee, :phoneless_customer;

-- 1. employee_by_id
SELECT * FROM hroe_normalized.employee_by_id(100);
SELECT * FROM hroe_normalized.employee_by_id(:busiest_rep);
SELECT count(*) AS unknown FROM hroe_normalized.employee_by_id(99);
SELECT count(*) AS null_id FROM hroe_normalized.employee_by_id(NULL);

-- 2. employee_by_name: names are not unique; exact and case-sensitive
SELECT employee_id, first_name, last_name, job_title, department_name
FROM hroe_normalized.employee_by_name(:'duplicate_name');
SELECT count(*) AS lower_case FROM hroe_normalized.employee_by_name(lower(:'duplicate_name'));
SELECT count(*) AS nobody FROM hroe_normalized.employee_by_name('Nobody Here');
SELECT count(*) AS null_name FROM hroe_normalized.employee_by_name(NULL);
-- every employee is found by their name, with the same details as by id
SELECT count(*) AS employees,
       count(*) FILTER (WHERE (SELECT count(*) FROM hroe_normalized.employee_by_name(e.first_name || ' ' || e.last_name) n
                               WHERE n = (SELECT b FROM hroe_normalized.employee_by_id(e.employee_id) b)) = 1) AS found
FROM hroe_normalized.employees e;

-- 3. employee_current_job: the current job only, not job_history
SELECT * FROM hroe_normalized.employee_current_job(:changed_job_employee);
SELECT employee_id, start_date, end_date, job_id FROM hroe_normalized.job_history
WHERE employee_id = :changed_job_employee;
SELECT count(*) AS unknown FROM hroe_normalized.employee_current_job(1);

-- 4. customer_orders: date range inclusive at both ends, optional status
SELECT * FROM hroe_normalized.customer_orders(:busiest_customer, '2024-01-01', '2024-12-31');
SELECT count(*) AS all_statuses, count(*) FILTER (WHERE order_status = 'CLOSED') AS closed,
       (SELECT count(*) FROM hroe_normalized.customer_orders(:busiest_customer, '2020-01-01', '2025-12-31', 'CLOSED')) AS closed_by_filter
FROM hroe_normalized.customer_orders(:busiest_customer, '2020-01-01', '2025-12-31');
SELECT order_date AS boundary FROM hroe_normalized.orders WHERE customer_id = :busiest_customer
ORDER BY order_date LIMIT 1 OFFSET 3 \gset
SELECT order_id, order_date FROM hroe_normalized.customer_orders(:busiest_customer, :'boundary', :'boundary');
SELECT count(*) AS day_before FROM hroe_normalized.customer_orders(:busiest_customer, :'boundary'::date - 1, :'boundary'::date - 1);
SELECT count(*) AS reversed_range FROM hroe_normalized.customer_orders(:busiest_customer, '2025-12-31', '2020-01-01');
SELECT count(*) AS unknown_customer FROM hroe_normalized.customer_orders(0, '2020-01-01', '2025-12-31');
SELECT count(*) AS unknown_status FROM hroe_normalized.customer_orders(:busiest_customer, '2020-01-01', '2025-12-31', 'open');
SELECT count(*) AS null_from FROM hroe_normalized.customer_orders(:busiest_customer, NULL, '2025-12-31');

-- 5. open_orders: across customers, in date order
SELECT * FROM hroe_normalized.open_orders('2025-12-01', '2025-12-31');
SELECT count(*) AS all_open FROM hroe_normalized.open_orders('2020-01-01', '2025-12-31');
SELECT count(*) AS first_day FROM hroe_normalized.open_orders('2020-01-01', '2020-01-01');
SELECT count(*) AS before_the_data FROM hroe_normalized.open_orders('2019-01-01', '2019-12-31');

-- 6. employees_hired_since: on or after the date
SELECT * FROM hroe_normalized.employees_hired_since('2025-01-01');
SELECT max(hire_date) AS last_hire FROM hroe_normalized.employees \gset
SELECT employee_id, hire_date FROM hroe_normalized.employees_hired_since(:'last_hire');
SELECT count(*) AS after_last FROM hroe_normalized.employees_hired_since(:'last_hire'::date + 1);
SELECT count(*) AS everyone FROM hroe_normalized.employees_hired_since('-infinity');

-- 7. warehouse_employees: through the department's location
SELECT w.warehouse_id, w.warehouse_name, l.city,
       (SELECT count(*) FROM hroe_normalized.warehouse_employees(w.warehouse_id)) AS employees
FROM hroe_normalized.warehouses w JOIN hroe_normalized.locations l USING (location_id)
ORDER BY 1;
SELECT * FROM hroe_normalized.warehouse_employees(5);
SELECT count(*) AS unknown FROM hroe_normalized.warehouse_employees(10);

-- 8. product_order_items: inventory rows first, then order lines
SELECT kind, count(*), sum(quantity_on_hand) AS on_hand, sum(quantity) AS ordered,
       count(DISTINCT order_id) AS orders
FROM hroe_normalized.product_order_items(:busiest_product) GROUP BY 1 ORDER BY 1;
SELECT * FROM hroe_normalized.product_order_items(:busiest_product) LIMIT 12;
SELECT kind, count(*) FROM hroe_normalized.product_order_items(:unstocked_product) GROUP BY 1 ORDER BY 1;
SELECT count(*) AS unknown FROM hroe_normalized.product_order_items(0);

-- 9. rep_customers
SELECT count(*) AS busiest_rep_customers FROM hroe_normalized.rep_customers(:busiest_rep);
SELECT * FROM hroe_normalized.rep_customers(:busiest_rep) LIMIT 5;
SELECT count(*) AS president FROM hroe_normalized.rep_customers(100);

-- 10. rep_orders: the busiest rep
SELECT * FROM hroe_normalized.rep_orders(:busiest_rep, '2025-07-01', '2025-09-30');
SELECT count(*) AS open_in_2025 FROM hroe_normalized.rep_orders(:busiest_rep, '2025-01-01', '2025-12-31', 'OPEN');
SELECT count(*) AS all_time,
       (SELECT count(*) FROM hroe_normalized.orders WHERE sales_rep_id = :busiest_rep) AS expected
FROM hroe_normalized.rep_orders(:busiest_rep, '2020-01-01', '2025-12-31');
SELECT count(*) AS not_a_rep FROM hroe_normalized.rep_orders(100, '2020-01-01', '2025-12-31');

-- 11. employees_by_title: the current job's title
SELECT * FROM hroe_normalized.employees_by_title('Programmer');
SELECT count(*) AS president FROM hroe_normalized.employees_by_title('President');
SELECT count(*) AS lower_case FROM hroe_normalized.employees_by_title('programmer');
SELECT job_title, (SELECT count(*) FROM hroe_normalized.employees_by_title(j.job_title)) AS employees
FROM hroe_normalized.jobs j ORDER BY 2 DESC, 1;

-- 12. product_inventory_at; 13. product_total_inventory; 17. product_inventories
SELECT * FROM hroe_normalized.product_inventories(:busiest_product);
SELECT * FROM hroe_normalized.product_total_inventory(:busiest_product);
SELECT warehouse_id, (SELECT quantity_on_hand FROM hroe_normalized.product_inventory_at(:busiest_product, warehouse_id)) AS on_hand
FROM hroe_normalized.warehouses ORDER BY 1;
SELECT count(*) AS unstocked_inventories FROM hroe_normalized.product_inventories(:unstocked_product);
SELECT * FROM hroe_normalized.product_total_inventory(:unstocked_product);
SELECT count(*) AS unknown_product_total FROM hroe_normalized.product_total_inventory(0);
SELECT count(*) AS unknown_warehouse FROM hroe_normalized.product_inventory_at(:busiest_product, 10);

-- 14. rep_ranking: highest total first, CANCELED orders excluded
SELECT * FROM hroe_normalized.rep_ranking('2025-Q3');
SELECT r.employee_id, r.total,
       (SELECT sum(order_total) FROM hroe_normalized.rep_orders(r.employee_id, '2025-07-01', '2025-09-30')
        WHERE order_status <> 'CANCELED') AS from_rep_orders
FROM hroe_normalized.rep_ranking('2025-Q3') r WHERE r.rank <= 3;
SELECT q, (SELECT count(*) FROM hroe_normalized.rep_ranking(q)) AS reps
FROM unnest(ARRAY['2019-Q4', '2020-Q1', '2022-Q2', '2025-Q4', '2026-Q1']) q;
SELECT * FROM hroe_normalized.rep_ranking('2025-Q5');
SELECT * FROM hroe_normalized.rep_ranking('Q3 2025');
SELECT count(*) AS null_quarter FROM hroe_normalized.rep_ranking(NULL);
SELECT hroe.quarter_start('2024-Q1'), hroe.quarter_end('2024-Q1'), hroe.quarter_end('2025-Q4');

-- 15. employee_phones; 16. customer_phones: in list order
SELECT * FROM hroe_normalized.employee_phones((SELECT min(employee_id) FROM hroe_normalized.employees
                                               WHERE cardinality(phone_numbers) = 3));
SELECT * FROM hroe_normalized.customer_phones((SELECT min(customer_id) FROM hroe_normalized.customers
                                               WHERE cardinality(phone_numbers) = 3));
SELECT count(*) AS phoneless FROM hroe_normalized.customer_phones(:phoneless_customer);
SELECT count(*) AS unknown FROM hroe_normalized.employee_phones(1);

--
-- Every pattern over many generated arguments.  pg_temp.run_patterns(schema)
-- calls each pattern of a model for the same arguments and returns, per
-- pattern, the number of calls, of empty results, of rows, and an md5 of
-- every result in the order returned: two models (or two plans) answer the
-- same exactly when the digests are equal.
--
CREATE TEMP TABLE args AS
SELECT i,
       date '2020-01-01' + hroe.prng_int(1, 1, i, -30, 2220)::integer AS d1,
       hroe.prng_int(1, 2, i, 0, 400)::integer AS span,
       (ARRAY[NULL, 'OPEN', 'SHIPPED', 'CLOSED', 'CANCELED'])[hroe.prng_int(1, 3, i, 1, 5)] AS status,
       hroe.prng_int(1, 4, i, 0, 310)::integer AS customer_id,
       hroe.prng_int(1, 5, i, 95, 205)::integer AS employee_id,
       hroe.prng_int(1, 6, i, 0, 305)::integer AS product_id,
       hroe.prng_int(1, 7, i, 0, 10)::integer AS warehouse_id,
       hroe.prng_int(1, 8, i, 2019, 2026) || '-Q' || hroe.prng_int(1, 9, i, 1, 4) AS quarter
FROM generate_series(1, 200) i
UNION ALL  -- edge cases: the busiest rep and customer over everything, single days, empty ranges
SELECT 1000 + k, date '2020-01-01' + k, CASE WHEN k < 3 THEN 2191 WHEN k < 6 THEN 0 ELSE -1 END,
       NULL, :busiest_customer, :busiest_rep, :busiest_product, 4, '2025-Q3'
FROM generate_series(0, 8) k;
-- names and titles as plain arguments (some unknown)
ALTER TABLE args ADD full_name text, ADD job_title text;
UPDATE args a SET full_name = (SELECT first_name || ' ' || last_name FROM hroe_normalized.employees e
                               WHERE e.employee_id = a.employee_id),
                  job_title = COALESCE((SELECT job_title FROM hroe_normalized.jobs ORDER BY job_id OFFSET a.i % 20 LIMIT 1),
                                       'Astronaut');

CREATE FUNCTION pg_temp.run_patterns(model text)
RETURNS TABLE (pattern text, calls bigint, empty bigint, result_rows bigint, digest text)
LANGUAGE plpgsql AS $$
DECLARE
	v_calls text[] := ARRAY[
		'employee_by_id(a.employee_id)',
		'employee_by_name(a.full_name)',
		'employee_current_job(a.employee_id)',
		'customer_orders(a.customer_id, a.d1, a.d1 + a.span, a.status)',
		'open_orders(a.d1, a.d1 + a.span)',
		'employees_hired_since(a.d1 - 3650)',
		'warehouse_employees(a.warehouse_id)',
		'product_order_items(a.product_id)',
		'rep_customers(a.employee_id)',
		'rep_orders(a.employee_id, a.d1, a.d1 + 4 * a.span, a.status)',
		'employees_by_title(a.job_title)',
		'product_inventory_at(a.product_id, a.warehouse_id)',
		'product_total_inventory(a.product_id)',
		'rep_ranking(a.quarter)',
		'employee_phones(a.employee_id)',
		'customer_phones(a.customer_id)',
		'product_inventories(a.product_id)'];
	c text;
BEGIN
	FOREACH c IN ARRAY v_calls LOOP
		pattern := split_part(c, '(', 1);
		EXECUTE format($q$
			SELECT count(*), count(*) FILTER (WHERE n = 0), sum(n), md5(string_agg(h, '|' ORDER BY i))
			FROM (SELECT a.i, (SELECT count(*) FROM %1$I.%2$s r) AS n,
						 (SELECT md5(string_agg(r::text, ',')) FROM %1$I.%2$s r) AS h
				  FROM args a) s$q$, model, c)
			INTO calls, empty, result_rows, digest;
		RETURN NEXT;
	END LOOP;
END $$;

CREATE TEMP TABLE with_indexes AS SELECT * FROM pg_temp.run_patterns('hroe_normalized');
SELECT pattern, calls, empty, result_rows FROM with_indexes;
-- The same answers, in the same order, without any index (sequential
-- scans, other join orders and sorts).
SET enable_indexscan = off; SET enable_bitmapscan = off; SET enable_indexonlyscan = off;
SELECT w.pattern, w.digest = s.digest AS same_without_indexes
FROM with_indexes w JOIN pg_temp.run_patterns('hroe_normalized') s USING (pattern);
RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan;

--
-- The patterns are inlined: EXPLAIN shows the tables and their indexes,
-- never a Function Scan.  (At scale 1 some tables are a page or two, so
-- sequential scans are disabled to show which index each pattern uses;
-- index-only scans too, as their cost depends on when autovacuum last
-- visited the table.)
--
SET enable_seqscan = off; SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employee_by_id(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employee_by_name('Steven King');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employee_current_job(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.customer_orders(5, '2021-01-01', '2022-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.customer_orders(5, '2021-01-01', '2022-12-31', 'OPEN');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.open_orders('2021-01-01', '2021-01-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employees_hired_since('2025-06-01');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.warehouse_employees(2);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.product_order_items(17);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.rep_customers(120);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.rep_orders(120, '2021-01-01', '2021-12-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employees_by_title('Programmer');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.product_inventory_at(5, 3);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.product_total_inventory(5);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.rep_ranking('2025-Q3');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.employee_phones(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.customer_phones(150);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.product_inventories(5);
RESET enable_seqscan; RESET enable_indexonlyscan;
-- Without sequential scans disabled the planner still picks the indexes
-- where the data is large enough.
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.open_orders('2021-01-01', '2021-01-31');
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.rep_orders(120, '2021-01-01', '2021-12-31');

-- Safe under a hostile search_path: a look-alike table, function and
-- operator in a schema searched first change nothing.
CREATE SCHEMA evil;
CREATE TABLE evil.orders (LIKE hroe_normalized.orders);
CREATE FUNCTION evil.sum(numeric) RETURNS numeric LANGUAGE sql AS 'SELECT 0::numeric';
CREATE FUNCTION evil.texteq_always(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.texteq_always);
SET search_path = evil, pg_catalog, public;
SELECT count(*) AS open_in_2025 FROM hroe_normalized.open_orders('2025-01-01', '2025-12-31');
SELECT rank, employee_id, total FROM hroe_normalized.rep_ranking('2025-Q3') LIMIT 3;
SELECT count(*) AS nobody FROM hroe_normalized.employee_by_name('Nobody Here');
RESET search_path;
DROP SCHEMA evil CASCADE;
