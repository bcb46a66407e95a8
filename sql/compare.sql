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
