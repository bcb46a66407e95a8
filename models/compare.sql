
-- hroe.compare: every access pattern on every model present, side by side
-- (README "The comparison").  The catalogue hroe.access_patterns names the
-- patterns and draws their arguments from hroe_normalized; the catalogue
-- hroe.model_requests spells, for each DynamoDB model, the request a call
-- amounts to and the items it reads (for capacity units); hroe.compare runs
-- the calls and hroe.compare_report prints them for a terminal.

CREATE TABLE hroe.access_patterns (
	pattern_no integer PRIMARY KEY,
	pattern text NOT NULL UNIQUE,
	kind text NOT NULL CHECK (kind IN ('read', 'write')),
	arguments_sql text NOT NULL,
	check_sql text
);
COMMENT ON TABLE hroe.access_patterns IS
'hroe.compare''s catalogue of access patterns: number (1-17 reads, 21-25 writes), function name (the same in every model), kind, arguments_sql (a query over hroe_normalized returning (case_label text, args text[]): deterministic argument sets, each cast to the function''s parameter types) and, for writes, check_sql (a format() template of reads run after the write, %1$I the model schema, args as %2$L, %3$L...)';

INSERT INTO hroe.access_patterns VALUES
(1, 'employee_by_id', 'read', $q$
SELECT 'busiest rep', ARRAY[(SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown id', ARRAY['0']$q$, NULL),
(2, 'employee_by_name', 'read', $q$
SELECT 'most repeated name', ARRAY[(SELECT concat_ws(' ', first_name, last_name) FROM hroe_normalized.employees
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)]
UNION ALL SELECT 'unknown name', ARRAY['Nobody Here']$q$, NULL),
(3, 'employee_current_job', 'read', $q$
SELECT 'changed job', ARRAY[(SELECT min(employee_id) FROM hroe_normalized.job_history)::text]
UNION ALL SELECT 'unknown id', ARRAY['0']$q$, NULL),
(4, 'customer_orders', 'read', $q$
SELECT 'busiest customer, all dates', ARRAY[c::text, '2020-01-01', '2025-12-31', NULL]
FROM (SELECT customer_id FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(c)
UNION ALL SELECT 'busiest customer, CLOSED in 2024', ARRAY[c::text, '2024-01-01', '2024-12-31', 'CLOSED']
FROM (SELECT customer_id FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(c)
UNION ALL SELECT 'no orders in range', ARRAY['1', '2019-01-01', '2019-12-31', NULL]$q$, NULL),
(5, 'open_orders', 'read', $q$
SELECT 'December 2025', ARRAY['2025-12-01', '2025-12-31']
UNION ALL SELECT 'one day (boundary)', ARRAY[(SELECT max(order_date) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text,
	(SELECT max(order_date) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text]
UNION ALL SELECT 'empty range', ARRAY['2019-01-01', '2019-12-31']$q$, NULL),
(6, 'employees_hired_since', 'read', $q$
SELECT 'since 2020', ARRAY['2020-01-01']
UNION ALL SELECT 'none since', ARRAY['2030-01-01']$q$, NULL),
(7, 'warehouse_employees', 'read', $q$
SELECT 'busiest warehouse', ARRAY[(SELECT w.warehouse_id FROM hroe_normalized.warehouses w
	JOIN hroe_normalized.departments d ON d.location_id = w.location_id
	JOIN hroe_normalized.employees e ON e.department_id = d.department_id
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown warehouse', ARRAY['0']$q$, NULL),
(8, 'product_order_items', 'read', $q$
SELECT 'busiest product', ARRAY[(SELECT product_id FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(9, 'rep_customers', 'read', $q$
SELECT 'busiest account manager', ARRAY[(SELECT account_mgr_id FROM hroe_normalized.customers WHERE account_mgr_id IS NOT NULL
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown employee', ARRAY['0']$q$, NULL),
(10, 'rep_orders', 'read', $q$
SELECT 'busiest rep, 2025', ARRAY[r::text, '2025-01-01', '2025-12-31', NULL]
FROM (SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(r)
UNION ALL SELECT 'busiest rep, OPEN, all dates', ARRAY[r::text, '2020-01-01', '2025-12-31', 'OPEN']
FROM (SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(r)$q$, NULL),
(11, 'employees_by_title', 'read', $q$
SELECT 'most common title', ARRAY[(SELECT j.job_title FROM hroe_normalized.employees e JOIN hroe_normalized.jobs j USING (job_id)
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)]
UNION ALL SELECT 'unknown title', ARRAY['No Such Title']$q$, NULL),
(12, 'product_inventory_at', 'read', $q$
SELECT 'stocked', (SELECT ARRAY[product_id::text, warehouse_id::text] FROM hroe_normalized.inventories ORDER BY product_id, warehouse_id LIMIT 1)
UNION ALL SELECT 'not stocked there', (SELECT ARRAY[p.product_id::text, w.warehouse_id::text]
	FROM hroe_normalized.product_information p CROSS JOIN hroe_normalized.warehouses w
	WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id AND i.warehouse_id = w.warehouse_id)
	ORDER BY p.product_id, w.warehouse_id LIMIT 1)$q$, NULL),
(13, 'product_total_inventory', 'read', $q$
SELECT 'busiest product', ARRAY[(SELECT product_id FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(14, 'rep_ranking', 'read', $q$
SELECT 'quarter 2025-Q3', ARRAY['2025-Q3']
UNION ALL SELECT 'quarter without orders', ARRAY['2019-Q1']$q$, NULL),
(15, 'employee_phones', 'read', $q$
SELECT 'most phones', ARRAY[(SELECT employee_id FROM hroe_normalized.employees
	ORDER BY cardinality(phone_numbers) DESC, 1 LIMIT 1)::text]$q$, NULL),
(16, 'customer_phones', 'read', $q$
SELECT 'most phones', ARRAY[(SELECT customer_id FROM hroe_normalized.customers
	ORDER BY cardinality(phone_numbers) DESC, 1 LIMIT 1)::text]$q$, NULL),
(17, 'product_inventories', 'read', $q$
SELECT 'most stocked product', ARRAY[(SELECT product_id FROM hroe_normalized.inventories GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(21, 'place_order', 'write', $q$
SELECT 'two lines, with a rep', ARRAY[c::text, '2025-12-30',
	jsonb_build_array(jsonb_build_object('product_id', p1, 'quantity', 2), jsonb_build_object('product_id', p2, 'quantity', 1))::text,
	r::text, 'OPEN', (SELECT max(order_id) + 1 FROM hroe_normalized.orders)::text]
FROM (SELECT min(customer_id) FROM hroe_normalized.customers) a(c),
	 (SELECT min(product_id), max(product_id) FROM hroe_normalized.product_information WHERE product_status = 'orderable') b(p1, p2),
	 (SELECT min(sales_rep_id) FROM hroe_normalized.orders) d(r)$q$,
 $q$SELECT * FROM %1$I.customer_orders(%2$L, %3$L, %3$L) UNION ALL SELECT * FROM %1$I.open_orders(%3$L, %3$L)$q$),
(22, 'change_order_status', 'write', $q$
SELECT 'OPEN to SHIPPED', ARRAY[(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text, 'SHIPPED']
UNION ALL SELECT 'OPEN to CANCELED', ARRAY[(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL)::text, 'CANCELED']$q$,
 $q$SELECT o.* FROM hroe_normalized.orders n, %1$I.customer_orders(n.customer_id, n.order_date, n.order_date) o WHERE n.order_id = %2$L::bigint
	UNION ALL SELECT o.* FROM hroe_normalized.orders n, %1$I.open_orders(n.order_date, n.order_date) o WHERE n.order_id = %2$L::bigint$q$),
(23, 'change_employee_job', 'write', $q$
SELECT 'new job in another department', ARRAY[e.employee_id::text, j.job_id, d.department_id::text, '2026-01-05']
FROM (SELECT employee_id, job_id, department_id FROM hroe_normalized.employees ORDER BY employee_id LIMIT 1 OFFSET 10) e,
	 LATERAL (SELECT job_id FROM hroe_normalized.jobs WHERE job_id <> e.job_id ORDER BY job_id LIMIT 1) j,
	 LATERAL (SELECT department_id FROM hroe_normalized.departments WHERE department_id IS DISTINCT FROM e.department_id ORDER BY 1 LIMIT 1) d$q$,
 $q$SELECT to_jsonb(c) FROM %1$I.employee_current_job(%2$L) c UNION ALL SELECT to_jsonb(t) FROM %1$I.employees_by_title((SELECT job_title FROM hroe_normalized.jobs WHERE job_id = %3$L)) t$q$),
(24, 'adjust_inventory', 'write', $q$
SELECT 'add stock', (SELECT ARRAY[product_id::text, warehouse_id::text, '5'] FROM hroe_normalized.inventories ORDER BY product_id, warehouse_id LIMIT 1)
UNION ALL SELECT 'stock a new warehouse', (SELECT ARRAY[p.product_id::text, w.warehouse_id::text, '3']
	FROM hroe_normalized.product_information p CROSS JOIN hroe_normalized.warehouses w
	WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id AND i.warehouse_id = w.warehouse_id)
	ORDER BY p.product_id, w.warehouse_id LIMIT 1)$q$,
 $q$SELECT to_jsonb(i) FROM %1$I.product_inventories(%2$L) i UNION ALL SELECT to_jsonb(t) FROM %1$I.product_total_inventory(%2$L) t$q$),
(25, 'hire_employee', 'write', $q$
SELECT 'a clerk with two phones', ARRAY['Ada', 'Lovelace', 'ALOVELAC', '2026-01-05', 'ST_CLERK',
	(SELECT min(department_id) FROM hroe_normalized.departments)::text, '{515.123.4567,515.123.4568}',
	(SELECT min(employee_id) FROM hroe_normalized.employees)::text, '2500.00', NULL,
	(SELECT max(employee_id) + 1 FROM hroe_normalized.employees)::text]$q$,
 $q$SELECT to_jsonb(e) FROM %1$I.employee_by_id(%12$L) e UNION ALL SELECT to_jsonb(p) FROM %1$I.employee_phones(%12$L) p$q$);

CREATE TABLE hroe.model_requests (
	model text NOT NULL,
	pattern text NOT NULL REFERENCES hroe.access_patterns (pattern),
	request_sql text NOT NULL,
	items_sql text NOT NULL,
	PRIMARY KEY (model, pattern)
);
COMMENT ON TABLE hroe.model_requests IS
'hroe.compare''s catalogue of DynamoDB requests, per model and read pattern: request_sql, an expression of $1 (the call''s arguments as text[]) spelling the request as DynamoDB spells it; items_sql, a query of $1 returning (request integer, operation text, item_size integer) with one row per item the request evaluates (item_size NULL for a request that finds nothing), its hroe.item_size, or for a Query on a GSI its entry''s hroe.index_entry_size, as the operations size what they read; from which the read capacity is computed (section 6 of the DynamoDB semantics). Rows exist only for the models installed';

-- The rows for hroe_single and hroe_multi go in only when those schemas
-- exist (the models are optional parts of the comparison).
INSERT INTO hroe.model_requests
SELECT v.* FROM (VALUES
-- hroe_single: one table, GSI1 (SK, GSI1_SK), GSI2 (shard, GSI1_SK), GSI3 (GSI1_SK), GSI4 (SK, GSI4_SK)
('hroe_single', 'employee_by_id',
 $q$format('GetItem: PK = HR-EMPLOYEE#%1$s AND SK = EMPLOYEE#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'employee_by_name',
 $q$format('Query GSI3: GSI1_SK = EMPLOYEE-NAME#%s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI3') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i."GSI3_pk1" OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE-NAME#', $1[1])$q$),
('hroe_single', 'employee_current_job',
 $q$format('Query: PK = HR-EMPLOYEE#%s AND begins_with(SK, v0#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key$q$),
('hroe_single', 'customer_orders',
 $q$CASE WHEN $1[4] IS NULL
	THEN format('Query GSI4: SK = CUSTOMER#%s AND GSI4_SK BETWEEN %s AND %s$', lpad($1[1], 10, '0'), $1[2], $1[3])
	ELSE format('Query GSI1: SK = CUSTOMER#%s AND GSI1_SK BETWEEN %s#%s AND %s#%s$', lpad($1[1], 10, '0'), $1[4], $1[2], $1[4], $1[3]) END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', CASE WHEN $1[4] IS NULL THEN 'GSI4' ELSE 'GSI1' END) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10($1[1]::int))
	AND CASE WHEN $1[4] IS NULL
		THEN i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day($1[2]::date)::hroe.key
		 AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day($1[3]::date) || '$')::hroe.key
		ELSE i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key($1[4], $1[2]::date)::hroe.key
		 AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key($1[4], $1[3]::date) || '$')::hroe.key END$q$),
('hroe_single', 'open_orders',
 $q$format('%s x Query GSI2: GSI2_PK = 0..%s AND GSI1_SK BETWEEN OPEN#%s AND OPEN#%s$ (merged)', hroe_single.shard_count(), hroe_single.shard_count() - 1, $1[1], $1[2])$q$,
 $q$SELECT s + 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI2') FROM generate_series(0, hroe_single.shard_count() - 1) s LEFT JOIN hroe_single.items i
	ON i.gsi2_pk = s AND $1[1]::date <= $1[2]::date
	AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key('OPEN', $1[1]::date)::hroe.key
	AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key('OPEN', $1[2]::date) || '$')::hroe.key$q$),
('hroe_single', 'employees_hired_since',
 $q$format('Query GSI1: SK = HR-CONFIDENTIAL AND GSI1_SK >= %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.day($1[1]::date)::hroe.key$q$),
('hroe_single', 'warehouse_employees',
 $q$format('Query GSI1: SK = WAREHOUSE#%s AND begins_with(GSI1_SK, EMPLOYEE#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'EMPLOYEE#'::hroe.key$q$),
('hroe_single', 'product_order_items',
 $q$format('Query GSI1: SK = PRODUCT#%s AND GSI1_SK BETWEEN INVENTORY# AND ORDER-LINE$', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))
	AND i.gsi1_sk OPERATOR(hroe.>=) 'INVENTORY#'::hroe.key AND i.gsi1_sk OPERATOR(hroe.<=) 'ORDER-LINE$'::hroe.key$q$),
('hroe_single', 'rep_customers',
 $q$format('Query GSI1: SK = EMPLOYEE#%s AND begins_with(GSI1_SK, CUSTOMER#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key$q$),
('hroe_single', 'rep_orders',
 $q$CASE WHEN $1[4] IS NULL
	THEN format('Query GSI4: SK = EMPLOYEE#%s AND GSI4_SK BETWEEN %s AND %s$', lpad($1[1], 10, '0'), $1[2], $1[3])
	ELSE format('Query GSI1: SK = EMPLOYEE#%s AND GSI1_SK BETWEEN %s#%s AND %s#%s$', lpad($1[1], 10, '0'), $1[4], $1[2], $1[4], $1[3]) END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', CASE WHEN $1[4] IS NULL THEN 'GSI4' ELSE 'GSI1' END) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND CASE WHEN $1[4] IS NULL
		THEN i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day($1[2]::date)::hroe.key
		 AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day($1[3]::date) || '$')::hroe.key
		ELSE i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key($1[4], $1[2]::date)::hroe.key
		 AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key($1[4], $1[3]::date) || '$')::hroe.key END$q$),
('hroe_single', 'employees_by_title',
 $q$format('Query GSI1: SK = v0#%s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('v0#', $1[1]) AND i.gsi1_sk IS NOT NULL$q$),
('hroe_single', 'product_inventory_at',
 $q$format('GetItem: PK = OE-WAREHOUSE#%s AND SK = PRODUCT#%s', lpad($1[2], 10, '0'), lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10($1[2]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'product_total_inventory',
 $q$format('GetItem: PK = OE-PRODUCT#%1$s AND SK = PRODUCT#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'rep_ranking',
 $q$format('Query GSI1: SK = SALES#%s, ScanIndexForward = false', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) ('SALES#' || $1[1])::hroe.key AND i.gsi1_sk IS NOT NULL$q$),
('hroe_single', 'employee_phones',
 $q$format('GetItem: PK = HR-EMPLOYEE#%1$s AND SK = EMPLOYEE#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'customer_phones',
 $q$format('GetItem: PK = OE-CUSTOMER#%1$s AND SK = CUSTOMER#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'product_inventories',
 $q$format('Query GSI1: SK = PRODUCT#%s AND begins_with(GSI1_SK, INVENTORY#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'INVENTORY#'::hroe.key$q$),
-- hroe_multi: AWS's 2025 tables Employee, Customer, Order, Product, RepQuarterTotal and their GSIs
('hroe_multi', 'employee_by_id',
 $q$format('GetItem Employee: employee_id = %s', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'employee_by_name',
 $q$format('Query Employee.EmployeeByName: name = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByName') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByName_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND e."EmployeeByName_sk1" IS NOT NULL$q$),
('hroe_multi', 'employee_current_job',
 $q$format('GetItem Employee: employee_id = %s, ProjectionExpression job_id, job_title, department_id, department_name, job_start_date', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'customer_orders',
 $q$format('Query Order.OrderByCustomerDate: customer_id = %s AND order_date BETWEEN %s AND %s', hroe_multi.customer_key($1[1]::int), $1[2], $1[3])
	|| CASE WHEN $1[4] IS NOT NULL THEN format(', FilterExpression status = %s', $1[4]) ELSE '' END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OrderByCustomerDate') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."OrderByCustomerDate_pk1" OPERATOR(hroe.=) hroe_multi.customer_key($1[1]::int)
	AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[2]::date)
	AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[3]::date)$q$),
('hroe_multi', 'open_orders',
 $q$format('5 x Query Order.OpenOrdersByDate: (status, shard) = (OPEN, 0..4) AND order_date BETWEEN %s AND %s (merged)', $1[1], $1[2])$q$,
 $q$SELECT s + 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OpenOrdersByDate') FROM generate_series(0, 4) s LEFT JOIN hroe_multi."Order" o
	ON o."OpenOrdersByDate_pk1" OPERATOR(hroe.=) 'OPEN'::hroe.key AND o."OpenOrdersByDate_pk2" = s AND $1[1]::date <= $1[2]::date
	AND o."OpenOrdersByDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[1]::date)
	AND o."OpenOrdersByDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[2]::date)$q$),
('hroe_multi', 'employees_hired_since',
 $q$format('Query Employee.EmployeeByHireDate: entity_type = EMPLOYEE AND hire_date >= %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByHireDate') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByHireDate_pk1" OPERATOR(hroe.=) 'EMPLOYEE'::hroe.key
	AND e."EmployeeByHireDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[1]::date)$q$),
('hroe_multi', 'warehouse_employees',
 $q$format('Query Employee.EmployeeByWarehouse: warehouse_id = %s', hroe_multi.warehouse_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByWarehouse') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByWarehouse_pk1" OPERATOR(hroe.=) hroe_multi.warehouse_key($1[1]::int) AND e."EmployeeByWarehouse_sk1" IS NOT NULL$q$),
('hroe_multi', 'product_order_items',
 $q$format('Query Product: product_id = %1$s AND begins_with(SK, wh_); Query Order.ProductInOrders: product_id = %1$s', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
	UNION ALL
	SELECT 2, 'Query', hroe.index_entry_size(o.item, 'Order', 'ProductInOrders') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."ProductInOrders_pk1" OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND o."ProductInOrders_sk1" IS NOT NULL$q$),
('hroe_multi', 'rep_customers',
 $q$format('Query Customer.CustomerByAccountRep: account_rep_id = %s', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(c.item, 'Customer', 'CustomerByAccountRep') FROM (SELECT) r LEFT JOIN hroe_multi."Customer" c
	ON c."CustomerByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int) AND c."CustomerByAccountRep_sk1" IS NOT NULL$q$),
('hroe_multi', 'rep_orders',
 $q$format('Query Order.OrderByAccountRep: account_rep_id = %s AND order_date BETWEEN %s AND %s', hroe_multi.employee_key($1[1]::int), $1[2], $1[3])
	|| CASE WHEN $1[4] IS NOT NULL THEN format(', FilterExpression status = %s', $1[4]) ELSE '' END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OrderByAccountRep') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."OrderByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)
	AND o."OrderByAccountRep_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[2]::date)
	AND o."OrderByAccountRep_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[3]::date)$q$),
('hroe_multi', 'employees_by_title',
 $q$format('Query Employee.EmployeeByJobTitle: job_title = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByJobTitle') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByJobTitle_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND e."EmployeeByJobTitle_sk1" IS NOT NULL$q$),
('hroe_multi', 'product_inventory_at',
 $q$format('GetItem Product: product_id = %s AND SK = %s', hroe_multi.product_key($1[1]::int), hroe_multi.warehouse_key($1[2]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key($1[2]::int)$q$),
('hroe_multi', 'product_total_inventory',
 $q$format('GetItem Product: product_id = %1$s AND SK = %1$s, ProjectionExpression total_inventory', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int)$q$),
('hroe_multi', 'rep_ranking',
 $q$format('Query RepQuarterTotal.RepQuarterRanking: quarter = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(q.item, 'RepQuarterTotal', 'RepQuarterRanking') FROM (SELECT) r LEFT JOIN hroe_multi."RepQuarterTotal" q
	ON q."RepQuarterRanking_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND q."RepQuarterRanking_sk1" IS NOT NULL$q$),
('hroe_multi', 'employee_phones',
 $q$format('GetItem Employee: employee_id = %s, ProjectionExpression phone_numbers', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'customer_phones',
 $q$format('GetItem Customer: customer_id = %s, ProjectionExpression phone_numbers', hroe_multi.customer_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(c.item) FROM (SELECT) r LEFT JOIN hroe_multi."Customer" c
	ON c.pk OPERATOR(hroe.=) hroe_multi.customer_key($1[1]::int)$q$),
('hroe_multi', 'product_inventories',
 $q$format('Query Product: product_id = %s AND begins_with(SK, wh_)', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key$q$)
) v (model, pattern, request_sql, items_sql)
WHERE EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) v.model);

GRANT SELECT ON hroe.access_patterns, hroe.model_requests TO PUBLIC;

CREATE FUNCTION hroe.compare_args(p_pattern text)
RETURNS TABLE (case_label text, args text[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT x.label::text, x.args::text[] FROM (%s) x (label, args)',
		(SELECT a.arguments_sql FROM hroe.access_patterns a WHERE a.pattern = p_pattern));
END
$$;
COMMENT ON FUNCTION hroe.compare_args(text) IS
'internal: the argument sets hroe.compare uses for a pattern, drawn from hroe_normalized: (case label, arguments as text[])';

CREATE FUNCTION hroe.compare_models()
RETURNS SETOF text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT m FROM unnest('{hroe_normalized,hroe_single,hroe_multi}'::text[]) WITH ORDINALITY AS u (m, o)
WHERE EXISTS (SELECT FROM pg_namespace n WHERE n.nspname = u.m)
ORDER BY o
$$;
COMMENT ON FUNCTION hroe.compare_models() IS
'internal: the models present, in comparison order: hroe_normalized, then hroe_single and hroe_multi when installed';

-- A call's text: model.pattern(literal::type, ...), the arguments cast to
-- the parameter types of hroe_normalized's function (the contract).
CREATE FUNCTION hroe.compare_call(p_model text, p_pattern text, p_args text[])
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format('%I.%I(%s)', p_model, p_pattern,
	(SELECT string_agg(quote_nullable(p_args[k]) || '::' || format_type(t, NULL), ', ' ORDER BY k)
	 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a (t, k)
	 WHERE k <= cardinality(p_args)))
FROM pg_proc p
WHERE p.pronamespace = 'hroe_normalized'::regnamespace AND p.proname = p_pattern
$$;
COMMENT ON FUNCTION hroe.compare_call(text, text, text[]) IS
'internal: the SQL call of a pattern in a model with literal arguments, cast to the parameter types of the hroe_normalized function of that name';

-- Plan facts from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output.
CREATE FUNCTION hroe.compare_plan_shape(p_plan jsonb)
RETURNS TABLE (shape text, seq_scans integer, index_scans integer, joins integer, sorts integer,
			   shared_hit bigint, shared_read bigint, execution_ms numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
WITH nodes AS (
	SELECT n #>> '{}' AS node
	FROM jsonb_path_query(p_plan, 'strict $[0].Plan.**."Node Type"') AS n
)
SELECT (SELECT string_agg(CASE WHEN c > 1 THEN node || ' x' || c ELSE node END, ', ' ORDER BY node)
		FROM (SELECT node, count(*) AS c FROM nodes WHERE node NOT IN ('Result', 'Limit', 'Subquery Scan') GROUP BY node) g),
	   (SELECT count(*) FROM nodes WHERE node = 'Seq Scan')::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Index Scan', 'Index Only Scan', 'Bitmap Index Scan'))::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Nested Loop', 'Hash Join', 'Merge Join'))::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Sort', 'Incremental Sort'))::int,
	   (p_plan #>> '{0,Plan,Shared Hit Blocks}')::bigint,
	   (p_plan #>> '{0,Plan,Shared Read Blocks}')::bigint,
	   (p_plan #>> '{0,Execution Time}')::numeric
$$;
COMMENT ON FUNCTION hroe.compare_plan_shape(jsonb) IS
'internal: the shape of a plan from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): node types with counts (Result, Limit and Subquery Scan left out), sequential scans, index scans, joins, sorts, shared buffers hit and read (the top node''s, including the functions it calls), execution time in ms';

-- Read capacity of a call of a DynamoDB model (section 6): per request the
-- bytes of the items it evaluates, priced by hroe.read_capacity_units (the
-- operations' rule), eventually consistent.
CREATE FUNCTION hroe.compare_read_capacity(p_model text, p_pattern text, p_args text[],
										   OUT request text, OUT requests integer, OUT items bigint,
										   OUT item_bytes bigint, OUT rcu numeric)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r hroe.model_requests;
BEGIN
	SELECT * INTO r FROM hroe.model_requests m WHERE m.model = p_model AND m.pattern = p_pattern;
	IF NOT FOUND THEN
		RETURN;
	END IF;
	EXECUTE 'SELECT ' || r.request_sql INTO request USING p_args;
	EXECUTE format('SELECT count(*)::int, COALESCE(sum(q.n), 0), COALESCE(sum(q.bytes), 0)::bigint,
			COALESCE(sum(hroe.read_capacity_units(q.bytes, false)), 0)::numeric
		FROM (SELECT x.req, count(x.size) AS n, COALESCE(sum(x.size), 0)::bigint AS bytes
			  FROM (%s) x (req, op, size) GROUP BY x.req) q', r.items_sql)
	INTO requests, items, item_bytes, rcu USING p_args;
END
$$;
COMMENT ON FUNCTION hroe.compare_read_capacity(text, text, text[]) IS
'internal: the DynamoDB request a read pattern call amounts to in a model (hroe.model_requests), how many requests, the items they evaluate and their hroe.item_size bytes, and the eventually consistent read capacity: the sum over requests of hroe.read_capacity_units(request bytes, false), the rule GetItem and Query report; no row for hroe_normalized';

-- The DynamoDB tables of a model: the hroe.tables registered in its schema.
CREATE FUNCTION hroe.compare_item_tables(p_model text)
RETURNS SETOF regclass
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT t.relid FROM hroe.tables t JOIN pg_class c ON c.oid = t.relid
WHERE c.relnamespace = p_model::regnamespace
ORDER BY c.oid
$$;
COMMENT ON FUNCTION hroe.compare_item_tables(text) IS
'internal: the DynamoDB tables of a model: the tables of hroe.tables whose PostgreSQL table is in the model''s schema';

-- Records what a write changes in a model's DynamoDB tables (section 6):
-- the trigger of hroe.compare_capture, on each table for the duration of
-- the measured call, copies the statement's old rows (flag true) and new
-- rows (flag false, their keys only used) into the table's capture table,
-- pg_temp.hroe_cmp_<oid>, in the order the statements ran. Without the
-- capture table (another session, or after it was dropped) it does nothing.
CREATE FUNCTION hroe.compare_capture_changes()
RETURNS trigger
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF TG_NARGS <> 1 OR TG_LEVEL <> 'STATEMENT' OR TG_WHEN <> 'AFTER' THEN
		RAISE EXCEPTION 'hroe.compare_capture_changes must be an AFTER ... FOR EACH STATEMENT trigger with one argument'
			USING ERRCODE = '39P01';
	END IF;
	IF pg_catalog.to_regclass(format('pg_temp.%I', TG_ARGV[0])) IS NULL THEN
		RETURN NULL;
	END IF;
	IF TG_OP IN ('UPDATE', 'DELETE') THEN
		EXECUTE format('INSERT INTO pg_temp.%I SELECT true, o.* FROM hroe_cmp_old o', TG_ARGV[0]);
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') THEN
		EXECUTE format('INSERT INTO pg_temp.%I SELECT false, n.* FROM hroe_cmp_new n', TG_ARGV[0]);
	END IF;
	RETURN NULL;
END
$$;
COMMENT ON FUNCTION hroe.compare_capture_changes() IS
'internal: the statement trigger hroe.compare_capture puts on a model''s DynamoDB tables: copies the statement''s old rows and the keys of its new rows (transition tables) into the table''s capture table pg_temp.hroe_cmp_<oid>, for hroe.compare_write_capacity; does nothing where that table does not exist';

-- Refuses the commit of a transaction in which hroe.compare_capture's
-- triggers are in place (section 6): the deferred trigger of the guard
-- table hroe.compare_capture fills, which fires at commit only (a rolled
-- back subtransaction takes its event with it), so the triggers can never
-- outlive the measurement.
CREATE FUNCTION hroe.compare_capture_guard()
RETURNS trigger
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RAISE EXCEPTION 'a transaction that called hroe.compare_capture cannot commit'
		USING ERRCODE = '55000',
			  DETAIL = format('The capture triggers on the DynamoDB tables of model %s would stay in place.', NEW.model),
			  HINT = 'Call hroe.compare_capture in a subtransaction or transaction that is rolled back after hroe.compare_write_capacity.';
END
$$;
COMMENT ON FUNCTION hroe.compare_capture_guard() IS
'internal: the deferred constraint trigger of hroe.compare_capture''s guard table pg_temp.hroe_cmp_guard: fires at the commit of a transaction in which a capture is still in place, and refuses it (the capture''s triggers never outlive the rolled-back measurement)';

-- Starts recording what a write changes in a model's DynamoDB tables, for
-- hroe.compare_write_capacity: per table a capture table and three
-- statement triggers (INSERT, UPDATE, DELETE: transition tables take one
-- event each). Call it in a subtransaction that is rolled back after the
-- write is measured: the triggers and the capture tables go with it. A
-- transaction that would commit with them in place is refused at its
-- commit (hroe.compare_capture_guard), so no trigger is ever left behind.
-- Needs the TRIGGER privilege on the tables (their owner has it).
CREATE FUNCTION hroe.compare_capture(p_model text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t regclass;
	v_cap text;
BEGIN
	-- the guard: its deferred trigger refuses a commit with the capture in place
	IF pg_catalog.to_regclass('pg_temp.hroe_cmp_guard') IS NULL THEN
		CREATE TEMP TABLE hroe_cmp_guard (model text) ON COMMIT DROP;
		CREATE CONSTRAINT TRIGGER hroe_cmp_guard AFTER INSERT ON pg_temp.hroe_cmp_guard
			DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION hroe.compare_capture_guard();
	END IF;
	INSERT INTO pg_temp.hroe_cmp_guard VALUES (p_model);
	FOR t IN SELECT hroe.compare_item_tables(p_model) LOOP
		v_cap := 'hroe_cmp_' || t::oid;
		IF pg_catalog.to_regclass(format('pg_temp.%I', v_cap)) IS NOT NULL THEN
			-- already recording in this (sub)transaction: start afresh
			EXECUTE format('TRUNCATE pg_temp.%I', v_cap);
			CONTINUE;
		END IF;
		EXECUTE format('CREATE TEMP TABLE %I ON COMMIT DROP AS SELECT true AS hroe_cmp_old, x.* FROM %s x WITH NO DATA', v_cap, t);
		EXECUTE format('ALTER TABLE pg_temp.%I ADD COLUMN hroe_cmp_seq bigint GENERATED ALWAYS AS IDENTITY', v_cap);
		EXECUTE format('CREATE TRIGGER hroe_compare_capture_insert AFTER INSERT ON %s REFERENCING NEW TABLE AS hroe_cmp_new
			FOR EACH STATEMENT EXECUTE FUNCTION hroe.compare_capture_changes(%L)', t, v_cap);
		EXECUTE format('CREATE TRIGGER hroe_compare_capture_update AFTER UPDATE ON %s REFERENCING OLD TABLE AS hroe_cmp_old NEW TABLE AS hroe_cmp_new
			FOR EACH STATEMENT EXECUTE FUNCTION hroe.compare_capture_changes(%L)', t, v_cap);
		EXECUTE format('CREATE TRIGGER hroe_compare_capture_delete AFTER DELETE ON %s REFERENCING OLD TABLE AS hroe_cmp_old
			FOR EACH STATEMENT EXECUTE FUNCTION hroe.compare_capture_changes(%L)', t, v_cap);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_capture(text) IS
'internal: starts recording what a write changes in a model''s DynamoDB tables (per table a capture table pg_temp.hroe_cmp_<oid> and AFTER INSERT, UPDATE and DELETE statement triggers running hroe.compare_capture_changes), for hroe.compare_write_capacity; for a subtransaction rolled back after the measured write, which takes the triggers with it: a transaction that would commit with the capture in place is refused at its commit (hroe.compare_capture_guard); needs the TRIGGER privilege on the tables';

-- Write capacity of what changed since hroe.compare_capture (section 6):
-- every item the write touched, its version before the write (the first
-- row recorded for its key: an old row, or absent when the key's first
-- change inserted it) paired with the table's current item of that key
-- (one probe of the primary key), priced by hroe.write_consumed_capacity,
-- the rule PutItem and DeleteItem report (table units, and per GSI the
-- entry-sized writes); unchanged items (written back as they were, or
-- added and removed again) do not count. The work follows the items
-- written, not the tables' size.
CREATE FUNCTION hroe.compare_write_capacity(p_model text, OUT items_written bigint, OUT table_wcu numeric,
											OUT index_wcu numeric)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t record;
	v_cap text;
	v_keys text;
	v_match text;
	v_n bigint;
	v_t numeric;
	v_all numeric;
BEGIN
	items_written := 0;
	table_wcu := 0;
	index_wcu := 0;
	FOR t IN SELECT h.relid, h.table_name FROM hroe.compare_item_tables(p_model) r (relid)
			 JOIN hroe.tables h ON h.relid = r.relid LOOP
		v_cap := 'hroe_cmp_' || t.relid::oid;
		IF pg_catalog.to_regclass(format('pg_temp.%I', v_cap)) IS NULL THEN
			RAISE EXCEPTION 'no changes are being recorded for model %', p_model USING ERRCODE = '55000',
				HINT = 'Call hroe.compare_capture(model) before the write, in the same transaction.';
		END IF;
		-- the primary key's columns, each compared by its index's equality
		-- operator (schema-qualified), so that each lookup is a probe
		SELECT string_agg(format('b.%I', a.attname), ', ' ORDER BY k.o),
			   string_agg(format('x.%I OPERATOR(%I.%s) b.%I', a.attname, n.nspname, op.oprname, a.attname), ' AND ' ORDER BY k.o)
		INTO v_keys, v_match
		FROM pg_index i
			 CROSS JOIN LATERAL unnest(i.indkey::int2[], i.indclass::oid[]) WITH ORDINALITY AS k (n, opc, o)
			 JOIN pg_attribute a ON a.attrelid = t.relid AND a.attnum = k.n
			 JOIN pg_opclass c ON c.oid = k.opc
			 JOIN pg_amop ao ON ao.amopfamily = c.opcfamily AND ao.amoplefttype = a.atttypid
							AND ao.amoprighttype = a.atttypid AND ao.amopstrategy = 3 AND ao.amopmethod = c.opcmethod
			 JOIN pg_operator op ON op.oid = ao.amopopr
			 JOIN pg_namespace n ON n.oid = op.oprnamespace
		WHERE i.indrelid = t.relid AND i.indisprimary;
		EXECUTE format($f$
			SELECT count(*), COALESCE(sum((c.cc #>> '{Table,CapacityUnits}')::numeric), 0),
				   COALESCE(sum((c.cc ->> 'CapacityUnits')::numeric), 0)
			FROM (SELECT hroe.write_consumed_capacity(%1$L, CASE WHEN b.hroe_cmp_old THEN b.item END, a.item) AS cc
				  FROM (SELECT DISTINCT ON (%2$s) b.* FROM pg_temp.%3$I b ORDER BY %2$s, b.hroe_cmp_seq) b
				  LEFT JOIN LATERAL (SELECT x.item FROM %4$s x WHERE %5$s OFFSET 0) a ON true
				  WHERE CASE WHEN b.hroe_cmp_old THEN a.item IS NULL OR a.item OPERATOR(hroe.<>) b.item
							 ELSE a.item IS NOT NULL END) c$f$,
			t.table_name, v_keys, v_cap, t.relid, v_match)
		INTO v_n, v_t, v_all;
		items_written := items_written + v_n;
		table_wcu := table_wcu + v_t;
		index_wcu := index_wcu + v_all - v_t;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_write_capacity(text) IS
'internal: the items a write changed in a model''s DynamoDB tables since hroe.compare_capture (its recorded old rows and keys, each paired with the table''s current item by one primary key probe) and their write capacity, each change priced by hroe.write_consumed_capacity (the rule PutItem and DeleteItem report): table WCU max(1, ceil(max(old, new) / 1 KB)) per item, index WCU the GSI writes (entering, leaving or changing a projected attribute 1 entry-sized write, a changed index key 2)';

CREATE FUNCTION hroe.compare(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
RETURNS TABLE (pattern_no integer, pattern text, kind text, case_label text, model text, call text,
			   identical boolean, fingerprint text, result_rows bigint, plan_shape text,
			   seq_scans integer, index_scans integer, joins integer, sorts integer,
			   shared_hit bigint, shared_read bigint, request text, requests integer,
			   items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p hroe.access_patterns;
	c record;
	m text;
	v_call text;
	v_plan jsonb;
	v_times numeric[];
	v_shape record;
	v_cap record;
	v_wn bigint;
	v_wt numeric;
	v_wi numeric;
	v_fp text;
	v_rows bigint;
	i integer;
	v_started timestamptz := clock_timestamp();
	v_verbose boolean;
BEGIN
	IF p_runs IS NULL OR p_runs < 1 OR p_runs > 1000 THEN
		RAISE EXCEPTION 'p_runs must be between 1 and 1000' USING ERRCODE = '22023';
	END IF;
	IF NOT EXISTS (SELECT FROM hroe_normalized.orders) THEN
		RAISE EXCEPTION 'hroe_normalized is empty' USING ERRCODE = '55000', HINT = 'Load data first: SELECT * FROM hroe.load(1);';
	END IF;
	-- one scratch table per session, created on first use (checked rather
	-- than IF NOT EXISTS, whose NOTICE would reach the caller every call)
	IF pg_catalog.to_regclass('pg_temp.hroe_compare_out') IS NULL THEN
		CREATE TEMP TABLE hroe_compare_out (
			pattern_no integer, pattern text, kind text, case_no bigint, case_label text, model_no integer, model text,
			call text, fingerprint text, result_rows bigint, plan_shape text, seq_scans integer, index_scans integer,
			joins integer, sorts integer, shared_hit bigint, shared_read bigint, request text, requests integer,
			items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric);
	END IF;
	TRUNCATE pg_temp.hroe_compare_out;
	-- progress at large scales (10,000 orders and more): a NOTICE per pattern
	v_verbose := (SELECT pc.reltuples >= 10000 FROM pg_class pc WHERE pc.oid = 'hroe_normalized.orders'::regclass);
	FOR p IN SELECT * FROM hroe.access_patterns a
			 WHERE p_patterns IS NULL OR a.pattern = ANY (p_patterns) OR a.pattern_no::text = ANY (p_patterns)
			 ORDER BY a.pattern_no LOOP
		FOR c IN EXECUTE format('SELECT row_number() OVER () AS n, x.label::text AS label, x.args::text[] AS args FROM (%s) x (label, args)', p.arguments_sql) LOOP
			FOR m IN SELECT u.m FROM hroe.compare_models() u (m) WHERE p_models IS NULL OR u.m = ANY (p_models) LOOP
				v_call := hroe.compare_call(m, p.pattern, c.args);
				IF NOT EXISTS (SELECT FROM pg_proc f WHERE f.pronamespace = m::regnamespace AND f.proname = p.pattern) THEN
					RAISE EXCEPTION 'model % has no pattern %', m, p.pattern USING ERRCODE = '42883';
				END IF;
				v_times := '{}';
				IF p.kind = 'read' THEN
					EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
						FROM (SELECT r, row_number() OVER () AS n FROM %s r) s', v_call) INTO v_fp, v_rows;
					FOR i IN 1 .. p_runs LOOP
						EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM %s', v_call) INTO v_plan;
						v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
					END LOOP;
					SELECT * INTO v_shape FROM hroe.compare_plan_shape(v_plan);
					SELECT * INTO v_cap FROM hroe.compare_read_capacity(m, p.pattern, c.args);
					INSERT INTO pg_temp.hroe_compare_out VALUES (p.pattern_no, p.pattern, p.kind, c.n, c.label,
						array_position('{hroe_normalized,hroe_single,hroe_multi}'::text[], m), m, v_call, v_fp, v_rows,
						v_shape.shape, v_shape.seq_scans, v_shape.index_scans, v_shape.joins, v_shape.sorts,
						v_shape.shared_hit, v_shape.shared_read, v_cap.request, v_cap.requests, v_cap.items,
						v_cap.item_bytes, v_cap.rcu, CASE WHEN v_cap.request IS NOT NULL THEN 'RCU' END,
						(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(v_times) t)::numeric(12, 3));
				ELSE
					-- each run in a subtransaction rolled back: the data is left
					-- unchanged, and every run starts from the same state; on a
					-- DynamoDB model an untimed first run (0) records what the
					-- write changes (hroe.compare_capture, whose triggers go
					-- with the rollback) and prices it
					v_wn := NULL; v_wt := NULL; v_wi := NULL;
					FOR i IN CASE WHEN m <> 'hroe_normalized' THEN 0 ELSE 1 END .. p_runs LOOP
						BEGIN
							IF i = 0 THEN
								PERFORM hroe.compare_capture(m);
								EXECUTE format('SELECT %s', v_call);
								SELECT * INTO v_wn, v_wt, v_wi FROM hroe.compare_write_capacity(m);
								RAISE EXCEPTION USING ERRCODE = 'HR0CR';
							END IF;
							EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT %s', v_call) INTO v_plan;
							v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
							EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
								FROM (SELECT r, row_number() OVER () AS n FROM (%s) r) s',
								format(p.check_sql, VARIADIC (ARRAY[m] || c.args))) INTO v_fp, v_rows;
							RAISE EXCEPTION USING ERRCODE = 'HR0CR';
						EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
							NULL;
						END;
					END LOOP;
					SELECT * INTO v_shape FROM hroe.compare_plan_shape(v_plan);
					INSERT INTO pg_temp.hroe_compare_out VALUES (p.pattern_no, p.pattern, p.kind, c.n, c.label,
						array_position('{hroe_normalized,hroe_single,hroe_multi}'::text[], m), m, v_call, v_fp, v_rows,
						NULL, NULL, NULL, NULL, NULL, v_shape.shared_hit, v_shape.shared_read,
						CASE WHEN v_wn IS NOT NULL THEN format('%s items written, %s WCU table + %s WCU indexes', v_wn, v_wt, v_wi) END,
						NULL, v_wn, NULL, v_wt + v_wi,
						CASE WHEN m <> 'hroe_normalized' THEN 'WCU' END,
						(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(v_times) t)::numeric(12, 3));
				END IF;
			END LOOP;
		END LOOP;
		IF v_verbose THEN
			RAISE NOTICE 'hroe.compare: pattern % %, % calls so far (% s)', p.pattern_no, p.pattern,
				(SELECT count(*) FROM pg_temp.hroe_compare_out),
				round(extract(epoch FROM clock_timestamp() - v_started)::numeric, 1);
		END IF;
	END LOOP;
	RETURN QUERY
	SELECT o.pattern_no, o.pattern, o.kind, o.case_label, o.model, o.call,
		   (SELECT count(DISTINCT o2.fingerprint) FROM pg_temp.hroe_compare_out o2
			WHERE o2.pattern_no = o.pattern_no AND o2.case_no = o.case_no) = 1,
		   o.fingerprint, o.result_rows, o.plan_shape, o.seq_scans, o.index_scans, o.joins, o.sorts,
		   o.shared_hit, o.shared_read, o.request, o.requests, o.items, o.item_bytes, o.capacity,
		   o.capacity_unit, o.median_ms
	FROM pg_temp.hroe_compare_out o
	ORDER BY o.pattern_no, o.case_no, o.model_no;
END
$$;
COMMENT ON FUNCTION hroe.compare(text[], text[], integer) IS
'runs every access pattern (or those named or numbered in p_patterns) on every model present (or those in p_models) with arguments drawn from hroe_normalized: per call the answer''s md5 fingerprint and whether it is identical across models, rows, plan shape, shared buffers, the DynamoDB request and its capacity (RCU for reads, WCU with index writes for writes), and the median execution time of p_runs runs; writes run in rolled-back subtransactions and are checked by reads after the write';

-- The text report of one run's rows (hroe.compare_report; test/main.sh
-- renders the same run's rows as text and as HTML).
CREATE FUNCTION hroe.compare_report_lines(p_results jsonb)
RETURNS SETOF text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r record;
	v_last text := '';
BEGIN
	FOR r IN SELECT x.* FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e (j, n),
			 jsonb_to_record(e.j) AS x (pattern_no integer, pattern text, kind text, case_label text, model text,
									   identical boolean, result_rows bigint, plan_shape text, shared_hit bigint,
									   shared_read bigint, request text, capacity numeric, capacity_unit text,
									   median_ms numeric, error_class text, error text)
			 ORDER BY e.n LOOP
		IF r.pattern_no || r.case_label <> v_last THEN
			RETURN NEXT '';
			RETURN NEXT format('%s %s %s [%s]: %s', CASE WHEN r.kind = 'read' THEN 'read' ELSE 'write' END,
				r.pattern_no, r.pattern, r.case_label,
				CASE WHEN r.identical THEN 'identical answers' ELSE 'ANSWERS DIFFER' END);
			v_last := r.pattern_no || r.case_label;
		END IF;
		IF r.error_class IS NOT NULL THEN
			-- a call hroe.design_run recorded as failed
			RETURN NEXT format('  %-16s FAILED %s: %s', r.model, r.error_class, r.error);
			CONTINUE;
		END IF;
		RETURN NEXT format('  %-16s %5s rows %8s ms  buffers %4s hit %3s read  %s', r.model, r.result_rows, r.median_ms,
			r.shared_hit, r.shared_read, COALESCE(r.plan_shape, ''));
		IF r.request IS NOT NULL THEN
			RETURN NEXT format('  %-16s %s -> %s %s', '', r.request, r.capacity, r.capacity_unit);
		END IF;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_report_lines(jsonb) IS
'internal: the rows of one hroe.compare() or hroe.design_run() run (their jsonb array, in order) as hroe.compare_report''s text lines: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity, or a failed call''s SQLSTATE and message';

CREATE FUNCTION hroe.compare_report(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN NEXT format('hroe.compare: models %s, %s run(s) per call', (SELECT string_agg(m, ', ') FROM hroe.compare_models() m
		WHERE p_models IS NULL OR m = ANY (p_models)), p_runs);
	RETURN QUERY SELECT hroe.compare_report_lines(COALESCE(jsonb_agg(to_jsonb(c) - 'ordinality' ORDER BY c.ordinality), '[]'))
		FROM hroe.compare(p_patterns, p_models, p_runs) WITH ORDINALITY AS c;
END
$$;
COMMENT ON FUNCTION hroe.compare_report(text[], text[], integer) IS
'hroe.compare''s result as text lines for a terminal: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity';
