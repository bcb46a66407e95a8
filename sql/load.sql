--
-- hroe.load(scale, seed): the deterministic generator of the HR/OE data.
--
-- The indexes and constraints of hroe_normalized, to check that a load
-- (which drops and rebuilds them) leaves them exactly as installed.
CREATE TEMP TABLE ddl_before AS
SELECT pg_get_indexdef(i.indexrelid) AS ddl
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE c.relnamespace = 'hroe_normalized'::regnamespace
UNION ALL
SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = 'hroe_normalized'::regnamespace;

-- Row counts at scale 1: 1,000 orders, about 3,000 lines, 300 customers,
-- 100 employees, 300 products, 9 warehouses.
SELECT * FROM hroe.load(1, 42);

SELECT count(*) AS ddl_count, (SELECT count(*) FROM ddl_before) AS before FROM (
  SELECT pg_get_indexdef(i.indexrelid) AS ddl
  FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
  WHERE c.relnamespace = 'hroe_normalized'::regnamespace
  UNION ALL
  SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
  FROM pg_constraint WHERE connamespace = 'hroe_normalized'::regnamespace) s;
SELECT ddl AS missing_after_load FROM ddl_before
EXCEPT
SELECT pg_get_indexdef(i.indexrelid)
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE c.relnamespace = 'hroe_normalized'::regnamespace
EXCEPT
SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
FROM pg_constraint WHERE connamespace = 'hroe_normalized'::regnamespace;

-- A fingerprint of every table: row count and md5 of its sorted rows.
CREATE FUNCTION pg_temp.fingerprint() RETURNS TABLE (tab text, row_count bigint, digest text)
LANGUAGE plpgsql AS $$
BEGIN
	FOR tab IN SELECT c.relname::text FROM pg_class c
			   WHERE c.relnamespace = 'hroe_normalized'::regnamespace AND c.relkind = 'r'
			   ORDER BY 1 LOOP
		EXECUTE format('SELECT count(*), md5(string_agg(t::text, ''|'' ORDER BY t::text)) FROM hroe_normalized.%I t', tab)
			INTO row_count, digest;
		RETURN NEXT;
	END LOOP;
END $$;
CREATE TEMP TABLE first_load AS SELECT * FROM pg_temp.fingerprint();

-- Determinism: the same scale and seed give identical tables ...
SELECT count(*) AS rows FROM hroe.load(1, 42);
SELECT f.tab, f.row_count, f.digest = s.digest AS identical
FROM first_load f JOIN pg_temp.fingerprint() s USING (tab) ORDER BY 1;
-- ... and another seed different generated data on the same reference data.
SELECT count(*) AS rows FROM hroe.load(1, 43);
SELECT f.tab, f.row_count AS seed42_rows, s.row_count AS seed43_rows, f.digest = s.digest AS identical
FROM first_load f JOIN pg_temp.fingerprint() s USING (tab) ORDER BY 1;

-- Back to seed 42 for the checks below.
SELECT count(*) AS rows FROM hroe.load(1, 42);

-- Exactly 20% of the orders are OPEN (one in every five consecutive ids);
-- the others are SHIPPED, CLOSED or CANCELED.
SELECT order_status, count(*) FROM hroe_normalized.orders GROUP BY 1 ORDER BY 1;
SELECT count(*) AS runs_without_exactly_one_open
FROM (SELECT (order_id - 1) / 5 AS run, count(*) FILTER (WHERE order_status = 'OPEN') AS n
      FROM hroe_normalized.orders GROUP BY 1) s WHERE n <> 1;

-- Dates spread over 2020-2025 in id order, every year present.
SELECT extract(year FROM order_date) AS year, count(*) FROM hroe_normalized.orders GROUP BY 1 ORDER BY 1;
SELECT count(*) AS out_of_order
FROM (SELECT order_date < lag(order_date) OVER (ORDER BY order_id) AS back FROM hroe_normalized.orders) s
WHERE back;
SELECT min(hire_date), max(hire_date) FROM hroe_normalized.employees;
SELECT count(*) AS reps_hired_after_first_order FROM hroe_normalized.employees
WHERE job_id IN ('SA_REP', 'SA_MAN') AND hire_date >= date '2020-01-01';

-- Skew: the busiest sales rep and product are far busier than the median.
SELECT count(DISTINCT sales_rep_id) AS reps,
       max(n) AS busiest_rep_orders,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS median_rep_orders
FROM (SELECT sales_rep_id, count(*) n FROM hroe_normalized.orders
      WHERE sales_rep_id IS NOT NULL GROUP BY 1) s;
SELECT max(n) AS busiest_product_lines,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS median_product_lines
FROM (SELECT product_id, count(*) n FROM hroe_normalized.order_items GROUP BY 1) s;
SELECT max(n) AS busiest_customer_orders, percentile_disc(0.5) WITHIN GROUP (ORDER BY n) AS median
FROM (SELECT customer_id, count(*) n FROM hroe_normalized.orders GROUP BY 1) s;
-- Full names repeat (employee_by_name returns several rows for them).
SELECT count(*) AS repeated_full_names
FROM (SELECT first_name, last_name FROM hroe_normalized.employees
      GROUP BY 1, 2 HAVING count(*) > 1) s;

-- Invariants: totals are the sums of the lines, lines are numbered 1..n
-- without a product twice, direct orders have a sales rep and online ones
-- none, reps and account managers are sales representatives.
SELECT count(*) AS wrong_totals
FROM hroe_normalized.orders o
WHERE o.order_total <> (SELECT sum(i.quantity * i.unit_price) FROM hroe_normalized.order_items i
                        WHERE i.order_id = o.order_id);
SELECT count(*) AS orders_without_lines FROM hroe_normalized.orders o
WHERE NOT EXISTS (SELECT FROM hroe_normalized.order_items i WHERE i.order_id = o.order_id);
SELECT count(*) AS badly_numbered_orders
FROM (SELECT order_id, max(line_item_id) m, count(*) n FROM hroe_normalized.order_items GROUP BY 1) s
WHERE m <> n;
SELECT order_mode, count(*), count(sales_rep_id) AS with_rep FROM hroe_normalized.orders GROUP BY 1 ORDER BY 1;
SELECT DISTINCT e.job_id AS rep_jobs FROM hroe_normalized.orders o
JOIN hroe_normalized.employees e ON e.employee_id = o.sales_rep_id;
SELECT DISTINCT e.job_id AS account_manager_jobs FROM hroe_normalized.customers c
JOIN hroe_normalized.employees e ON e.employee_id = c.account_mgr_id;
SELECT count(*) FILTER (WHERE account_mgr_id IS NULL) AS unmanaged_customers,
       count(*) FILTER (WHERE cardinality(phone_numbers) = 0) AS customers_without_phone,
       max(cardinality(phone_numbers)) AS most_customer_phones
FROM hroe_normalized.customers;
SELECT min(cardinality(phone_numbers)) AS fewest_employee_phones,
       max(cardinality(phone_numbers)) AS most_employee_phones
FROM hroe_normalized.employees;
-- job_history holds the job before the current one, ending the day before.
SELECT count(*) AS history_rows,
       count(*) FILTER (WHERE h.end_date = e.job_start_date - 1 AND h.start_date = e.hire_date) AS contiguous
FROM hroe_normalized.job_history h JOIN hroe_normalized.employees e USING (employee_id);
SELECT count(*) AS managers_missing FROM hroe_normalized.employees WHERE manager_id IS NULL;
SELECT d.department_id, d.department_name, d.manager_id, count(e.*) AS employees
FROM hroe_normalized.departments d
LEFT JOIN hroe_normalized.employees e ON e.department_id = d.department_id
GROUP BY 1, 2, 3 HAVING count(e.*) > 0 ORDER BY 1;
SELECT w.warehouse_id, count(i.*) AS products_stocked, sum(i.quantity_on_hand) AS on_hand
FROM hroe_normalized.warehouses w
LEFT JOIN hroe_normalized.inventories i ON i.warehouse_id = w.warehouse_id
GROUP BY 1 ORDER BY 1;
SELECT count(*) AS products_stocked_nowhere FROM hroe_normalized.product_information p
WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id);

-- The id sequences continue after the generated ids.
SELECT nextval('hroe_normalized.order_id_seq') AS next_order,
       nextval('hroe_normalized.employee_id_seq') AS next_employee;

-- Other scales: counts grow linearly (employees and products ten times
-- slower); fractional scales work.
SELECT * FROM hroe.load(0.05, 42)
WHERE table_name IN ('hroe_normalized.orders', 'hroe_normalized.customers',
                     'hroe_normalized.employees', 'hroe_normalized.product_information');
SELECT * FROM hroe.load(2, 42)
WHERE table_name IN ('hroe_normalized.orders', 'hroe_normalized.customers',
                     'hroe_normalized.employees', 'hroe_normalized.product_information');
SELECT order_status, count(*) FROM hroe_normalized.orders GROUP BY 1 ORDER BY 1;

-- Errors leave the data untouched.
SELECT * FROM hroe.load(0, 42);
SELECT * FROM hroe.load(100001);
SELECT * FROM hroe.load(NULL);
SELECT * FROM hroe.load(1, NULL);
SELECT count(*) AS orders_still_there FROM hroe_normalized.orders;
