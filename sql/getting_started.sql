--
-- The README's "Getting started", step by step (kept runnable by this test).
--
-- 1. The HR/OE data three ways: normalized, single-table, multi-table.
SELECT table_name, row_count FROM hroe.load(1, 42)
WHERE table_name IN ('hroe_normalized.orders', 'hroe_single.items', 'hroe_multi.Order')
ORDER BY 1;

-- 2. One access pattern, three designs, the same answer.
SELECT * FROM hroe_normalized.open_orders('2025-12-01', '2025-12-03');
SELECT * FROM hroe_single.open_orders('2025-12-01', '2025-12-03');
SELECT * FROM hroe_multi.open_orders('2025-12-01', '2025-12-03');

-- 3. What it amounts to in DynamoDB, and what it costs.
SELECT model, request, capacity, capacity_unit
FROM hroe.compare('{rep_ranking}', '{hroe_single,hroe_multi}', p_runs => 1)
WHERE case_label = (SELECT min(case_label) FROM hroe.compare('{rep_ranking}', '{hroe_single}', 1))
ORDER BY model;

-- 4. Every pattern on every model agrees, and every derived item is right.
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE identical) AS identical,
	   count(DISTINCT model) AS models
FROM hroe.compare(p_runs => 1) GROUP BY kind ORDER BY kind;
SELECT count(*) AS problems FROM hroe.verify();

-- 5. DynamoDB on your own data: a table, an item, a Query.
SELECT hroe.create_table('gs_orders', 'PK', 'S', 'SK', 'S');
SELECT consumed_capacity FROM hroe.put_item('gs_orders',
	'{"PK": {"S": "CUSTOMER#1"}, "SK": {"S": "ORDER#2025-12-20"}, "Total": {"N": "42.50"}}',
	p_return_consumed_capacity => 'TOTAL');
SELECT hroe.query('gs_orders', 'PK = :c AND begins_with(SK, :o)',
				  '{":c": {"S": "CUSTOMER#1"}, ":o": {"S": "ORDER#2025"}}');
SELECT hroe.delete_table('gs_orders');
