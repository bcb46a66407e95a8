-- test/bench/compare_floor.sql: the floor of the compare benchmark. The
-- single-table items as plain SQL: text COLLATE "C" keys and a jsonb
-- document, the same four indexes as hroe_single, and each read pattern's
-- lookup written by hand against it (same key conditions, same columns),
-- in floor_calls (pattern, args_set, sql): one per read argument set of
-- bench_args (test/bench/compare_sweep_args.sql). Sourced by
-- test/bench/compare.sh when hroe_single exists.
DROP TABLE IF EXISTS floor_items;
CREATE TABLE floor_items (
	pk text COLLATE "C" NOT NULL, sk text COLLATE "C" NOT NULL, gsi1_sk text COLLATE "C",
	gsi2_pk integer, gsi4_sk text COLLATE "C", d jsonb NOT NULL, PRIMARY KEY (pk, sk));
INSERT INTO floor_items
SELECT pk::text, sk::text, gsi1_sk::text, gsi2_pk, gsi4_sk::text, hroe.item_to_document(item) FROM hroe_single.items;
CREATE INDEX ON floor_items (sk, gsi1_sk, pk) WHERE gsi1_sk IS NOT NULL;
CREATE INDEX ON floor_items (gsi2_pk, gsi1_sk, pk, sk) WHERE gsi2_pk IS NOT NULL;
CREATE INDEX ON floor_items (gsi1_sk, pk, sk) WHERE gsi1_sk IS NOT NULL;
CREATE INDEX ON floor_items (sk, gsi4_sk, pk) WHERE gsi4_sk IS NOT NULL;
VACUUM ANALYZE floor_items;

DROP TABLE IF EXISTS floor_calls;
CREATE TABLE floor_calls AS
WITH t (pattern, cols, cond) AS (VALUES
 ('employee_by_id', 'emp', $$pk = 'HR-EMPLOYEE#' || lpad(%1$L, 10, '0') AND sk = 'EMPLOYEE#' || lpad(%1$L, 10, '0')$$),
 ('employee_by_name', 'emp', $$gsi1_sk = 'EMPLOYEE-NAME#' || %1$L ORDER BY gsi1_sk, pk$$),
 ('employee_current_job', 'job', $$pk = 'HR-EMPLOYEE#' || lpad(%1$L, 10, '0') AND sk >= 'v0#' AND sk < 'v0$'$$),
 ('customer_orders', 'ord', $$sk = 'CUSTOMER#' || lpad(%1$L, 10, '0') AND gsi4_sk BETWEEN %2$L AND %3$L || '$' ORDER BY gsi4_sk$$),
 ('open_orders', 'ord', $$gsi2_pk BETWEEN 0 AND 14 AND gsi1_sk BETWEEN 'OPEN#' || %1$L AND 'OPEN#' || %2$L || '$' ORDER BY gsi1_sk, pk$$),
 ('employees_hired_since', 'emp7', $$sk = 'HR-CONFIDENTIAL' AND gsi1_sk >= %1$L ORDER BY gsi1_sk, pk$$),
 ('warehouse_employees', 'emp7', $$sk = 'WAREHOUSE#' || lpad(%1$L, 10, '0') AND gsi1_sk >= 'EMPLOYEE#' AND gsi1_sk < 'EMPLOYEE$' ORDER BY gsi1_sk$$),
 ('product_order_items', 'poi', $$sk = 'PRODUCT#' || lpad(%1$L, 10, '0') AND gsi1_sk BETWEEN 'INVENTORY#' AND 'ORDER-LINE$' ORDER BY gsi1_sk$$),
 ('rep_customers', 'cust', $$sk = 'EMPLOYEE#' || lpad(%1$L, 10, '0') AND gsi1_sk >= 'CUSTOMER#' AND gsi1_sk < 'CUSTOMER$' ORDER BY gsi1_sk$$),
 ('rep_orders', 'ord', $$sk = 'EMPLOYEE#' || lpad(%1$L, 10, '0') AND gsi4_sk BETWEEN %2$L AND %3$L || '$' ORDER BY gsi4_sk$$),
 ('employees_by_title', 'emp7', $$sk = 'v0#' || %1$L AND gsi1_sk IS NOT NULL ORDER BY gsi1_sk$$),
 ('product_inventory_at', 'inv', $$pk = 'OE-WAREHOUSE#' || lpad(%2$L, 10, '0') AND sk = 'PRODUCT#' || lpad(%1$L, 10, '0')$$),
 ('product_total_inventory', 'tot', $$pk = 'OE-PRODUCT#' || lpad(%1$L, 10, '0') AND sk = 'PRODUCT#' || lpad(%1$L, 10, '0')$$),
 ('rep_ranking', 'rank', $$sk = 'SALES#' || %1$L AND gsi1_sk IS NOT NULL ORDER BY gsi1_sk DESC$$),
 ('employee_phones', 'phones', $$pk = 'HR-EMPLOYEE#' || lpad(%1$L, 10, '0') AND sk = 'EMPLOYEE#' || lpad(%1$L, 10, '0')$$),
 ('customer_phones', 'phones', $$pk = 'OE-CUSTOMER#' || lpad(%1$L, 10, '0') AND sk = 'CUSTOMER#' || lpad(%1$L, 10, '0')$$),
 ('product_inventories', 'inv', $$sk = 'PRODUCT#' || lpad(%1$L, 10, '0') AND gsi1_sk >= 'INVENTORY#' AND gsi1_sk < 'INVENTORY$' ORDER BY gsi1_sk$$)
), c (cols, sel) AS (VALUES
 ('emp', $$(d->>'employee_id')::int, d->>'first_name', d->>'last_name', d->>'email', ARRAY(SELECT jsonb_array_elements_text(d->'phone_numbers')), (d->>'hire_date')::date, d->>'job_id', d->>'job_title', (d->>'job_start_date')::date, round((d->>'salary')::numeric, 2), round((d->>'commission_pct')::numeric, 2), (d->>'manager_id')::int, (d->>'department_id')::int, d->>'department_name', (d->>'location_id')::int, d->>'city', d->>'country_name', d->>'region_name'$$),
 ('emp7', $$(d->>'employee_id')::int, d->>'first_name', d->>'last_name', (d->>'hire_date')::date, d->>'job_id', d->>'job_title', (d->>'department_id')::int$$),
 ('job', $$(d->>'employee_id')::int, d->>'job_id', d->>'job_title', (d->>'department_id')::int, d->>'department_name', (d->>'start_date')::date$$),
 ('ord', $$(d->>'order_id')::bigint, (d->>'customer_id')::int, (d->>'order_date')::date, d->>'order_status', d->>'order_mode', (d->>'sales_rep_id')::int, round((d->>'order_total')::numeric, 2)$$),
 ('poi', $$d->>'type', (d->>'product_id')::int, (d->>'warehouse_id')::int, (d->>'quantity_on_hand')::int, (d->>'order_id')::bigint, (d->>'line_item_id')::int, (d->>'order_date')::date, (d->>'customer_id')::int, (d->>'quantity')::int, round((d->>'unit_price')::numeric, 2)$$),
 ('cust', $$(d->>'customer_id')::int, d->>'cust_first_name', d->>'cust_last_name', d->>'cust_email'$$),
 ('inv', $$(d->>'product_id')::int, (d->>'warehouse_id')::int, (d->>'quantity_on_hand')::int$$),
 ('tot', $$(d->>'product_id')::int, (d->>'total_on_hand')::bigint$$),
 ('rank', $$row_number() OVER (ORDER BY gsi1_sk DESC)::int, (d->>'employee_id')::int, round((d->>'total')::numeric, 2)$$),
 ('phones', $$p.ordinal::int, p.phone$$)
)
SELECT t.pattern, a.args_set,
	   CASE WHEN t.cols = 'phones'
			THEN format('SELECT %s FROM floor_items, jsonb_array_elements_text(d->''phone_numbers'') WITH ORDINALITY p (phone, ordinal) WHERE ', c.sel)
			ELSE format('SELECT %s FROM floor_items WHERE ', c.sel) END
	   || format(t.cond, VARIADIC a.args) AS sql
FROM t JOIN c USING (cols)
JOIN bench_args a ON a.pattern = t.pattern AND a.kind = 'read';
