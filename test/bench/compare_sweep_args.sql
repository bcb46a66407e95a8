-- test/bench/compare_sweep_args.sql: the argument sets of the compare
-- benchmark (test/bench/compare.sh), drawn deterministically from the loaded
-- hroe_normalized into the table bench_args (pattern, args_set, label, args):
--  - 'busiest' (reads): the first argument set of hroe.access_patterns, the
--    busiest rep, customer, product...: the comparison's worst case, whose
--    answer grows with the data;
--  - 'constant' (reads): for the scale sweep, arguments whose answer stays as
--    close to a fixed size as the data allows, so that latency growth from
--    scale to scale is that of the data size, not of the answer size: a fixed
--    target per pattern (about its scale-1 answer) and the entity or range
--    whose answer is closest to it; key lookups on ids that exist at every
--    scale. Where the answer must grow (employees of a warehouse, the ranking
--    of a quarter...), the narrowest argument the pattern allows; the script
--    records rows per call and reports latency per row beside it;
--  - 'write': the first argument set of each write pattern.
-- Sourced by test/bench/compare.sh at every scale, after the load.
DROP TABLE IF EXISTS bench_args;
CREATE TABLE bench_args (
	pattern_no integer NOT NULL, pattern text NOT NULL, kind text NOT NULL,
	args_set text NOT NULL, label text NOT NULL, args text[] NOT NULL,
	PRIMARY KEY (pattern, args_set));

INSERT INTO bench_args
SELECT p.pattern_no, p.pattern, p.kind, CASE p.kind WHEN 'read' THEN 'busiest' ELSE 'write' END, a.case_label, a.args
FROM hroe.access_patterns p
CROSS JOIN LATERAL (SELECT x.case_label, x.args FROM hroe.compare_args(p.pattern) x LIMIT 1) a;

INSERT INTO bench_args
SELECT p.pattern_no, p.pattern, p.kind, 'constant', c.label, c.args
FROM (
-- GetItem-shaped lookups: the lowest ids, present at every scale
SELECT 'employee_by_id', 'lowest employee id', ARRAY[(SELECT min(employee_id) FROM hroe_normalized.employees)::text]
UNION ALL
SELECT 'employee_current_job', 'lowest employee id', ARRAY[(SELECT min(employee_id) FROM hroe_normalized.employees)::text]
UNION ALL
SELECT 'product_inventory_at', 'lowest stocked product, its lowest warehouse',
	(SELECT ARRAY[product_id::text, warehouse_id::text] FROM hroe_normalized.inventories ORDER BY product_id, warehouse_id LIMIT 1)
UNION ALL
SELECT 'product_total_inventory', 'lowest product id', ARRAY[(SELECT min(product_id) FROM hroe_normalized.product_information)::text]
UNION ALL
SELECT 'employee_phones', 'lowest employee id', ARRAY[(SELECT min(employee_id) FROM hroe_normalized.employees)::text]
UNION ALL
SELECT 'customer_phones', 'lowest customer id', ARRAY[(SELECT min(customer_id) FROM hroe_normalized.customers)::text]
UNION ALL
-- a name shared by (closest to) 2 employees
SELECT 'employee_by_name', 'name of ~2 employees', ARRAY[(SELECT s.name FROM (
	SELECT concat_ws(' ', first_name, last_name) AS name, count(*) AS n FROM hroe_normalized.employees GROUP BY 1) s
	ORDER BY abs(s.n - 2), s.name LIMIT 1)]
UNION ALL
-- the customer whose order count is closest to 30 (the busiest customer of scale 1), all dates
SELECT 'customer_orders', 'customer with ~30 orders, all dates', ARRAY[(SELECT s.customer_id FROM (
	SELECT customer_id, count(*) AS n FROM hroe_normalized.orders GROUP BY 1) s
	ORDER BY abs(s.n - 30), s.customer_id LIMIT 1)::text, '2020-01-01', '2025-12-31', NULL]
UNION ALL
-- one day (the narrowest range): the day with the fewest OPEN orders, the latest of those
SELECT 'open_orders', 'one day, the fewest open orders', (SELECT ARRAY[d::text, d::text] FROM (
	SELECT order_date AS d FROM hroe_normalized.orders WHERE order_status = 'OPEN'
	GROUP BY 1 ORDER BY count(*), 1 DESC LIMIT 1) s)
UNION ALL
-- since the hire date of the 5th most recent hire
SELECT 'employees_hired_since', 'the ~5 latest hires', ARRAY[(SELECT hire_date FROM hroe_normalized.employees
	ORDER BY hire_date DESC, employee_id DESC LIMIT 1 OFFSET 4)::text]
UNION ALL
-- the warehouse whose employee count is closest to 4 (at least 1)
SELECT 'warehouse_employees', 'warehouse with ~4 employees', ARRAY[(SELECT s.warehouse_id FROM (
	SELECT w.warehouse_id, count(*) AS n FROM hroe_normalized.warehouses w
	JOIN hroe_normalized.departments d ON d.location_id = w.location_id
	JOIN hroe_normalized.employees e ON e.department_id = d.department_id
	GROUP BY 1) s ORDER BY abs(s.n - 4), s.warehouse_id LIMIT 1)::text]
UNION ALL
-- the product whose inventory rows + order lines are closest to 20
SELECT 'product_order_items', 'product with ~20 rows', ARRAY[(SELECT s.product_id FROM (
	SELECT p.product_id, COALESCE(i.n, 0) + COALESCE(l.n, 0) AS n
	FROM hroe_normalized.product_information p
	LEFT JOIN (SELECT product_id, count(*) AS n FROM hroe_normalized.inventories GROUP BY 1) i USING (product_id)
	LEFT JOIN (SELECT product_id, count(*) AS n FROM hroe_normalized.order_items GROUP BY 1) l USING (product_id)) s
	ORDER BY abs(s.n - 20), s.product_id LIMIT 1)::text]
UNION ALL
-- the account manager whose customer count is closest to 10
SELECT 'rep_customers', 'account manager of ~10 customers', ARRAY[(SELECT s.account_mgr_id FROM (
	SELECT account_mgr_id, count(*) AS n FROM hroe_normalized.customers WHERE account_mgr_id IS NOT NULL GROUP BY 1) s
	ORDER BY abs(s.n - 10), s.account_mgr_id LIMIT 1)::text]
UNION ALL
-- the least busy rep with at least 10 orders, from its 10th latest order's date on
SELECT 'rep_orders', 'a rep''s ~10 latest orders', (SELECT ARRAY[r.rep::text, (
	SELECT o.order_date FROM hroe_normalized.orders o WHERE o.sales_rep_id = r.rep
	ORDER BY o.order_date DESC, o.order_id DESC LIMIT 1 OFFSET 9)::text, '2025-12-31', NULL]
	FROM (SELECT sales_rep_id AS rep FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
		  GROUP BY 1 HAVING count(*) >= 10 ORDER BY count(*), 1 LIMIT 1) r)
UNION ALL
-- the title of the fewest employees (at least 1)
SELECT 'employees_by_title', 'title of the fewest employees', ARRAY[(SELECT s.job_title FROM (
	SELECT j.job_title, count(*) AS n FROM hroe_normalized.employees e JOIN hroe_normalized.jobs j USING (job_id) GROUP BY 1) s
	ORDER BY s.n, s.job_title LIMIT 1)]
UNION ALL
-- the quarter ranking the fewest reps, the latest of those
SELECT 'rep_ranking', 'quarter of the fewest reps', ARRAY[(SELECT s.q FROM (
	SELECT to_char(order_date, 'YYYY-"Q"Q') AS q, count(DISTINCT sales_rep_id) AS n FROM hroe_normalized.orders
	WHERE sales_rep_id IS NOT NULL AND order_status <> 'CANCELED' GROUP BY 1) s
	ORDER BY s.n, s.q DESC LIMIT 1)]
UNION ALL
-- the product stocked in (closest to) 3 warehouses
SELECT 'product_inventories', 'product stocked in ~3 warehouses', ARRAY[(SELECT s.product_id FROM (
	SELECT product_id, count(*) AS n FROM hroe_normalized.inventories GROUP BY 1) s
	ORDER BY abs(s.n - 3), s.product_id LIMIT 1)::text]
) c (pattern, label, args)
JOIN hroe.access_patterns p USING (pattern);
