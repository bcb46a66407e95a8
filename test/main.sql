-- The README's getting-started SQL, run by test/main.sh
CREATE EXTENSION hroe;
SELECT extname, extversion FROM pg_extension WHERE extname = 'hroe';

-- Generate the HR/OE data at scale 1 (1,000 orders) and ask the normalized
-- model a few of the 17 access patterns (until hroe.compare() runs them all
-- on every model).
SELECT * FROM hroe.load(1, 42);
SELECT * FROM hroe_normalized.employee_by_id(101);
SELECT employee_id, first_name, last_name, job_title
FROM hroe_normalized.employee_by_name('Bruce De Haan');
SELECT * FROM hroe_normalized.open_orders('2025-12-01', '2025-12-31');
SELECT * FROM hroe_normalized.rep_ranking('2025-Q3') LIMIT 5;
SELECT kind, count(*) FROM hroe_normalized.product_order_items(1) GROUP BY kind ORDER BY kind;
SELECT * FROM hroe_normalized.product_inventories(1);
EXPLAIN (COSTS OFF) SELECT * FROM hroe_normalized.open_orders('2025-12-01', '2025-12-31');
