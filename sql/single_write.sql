--
-- The write patterns of all three models: a random sequence of writes applied
-- to hroe_normalized, hroe_single and hroe_multi with the same arguments
-- (scale 1, seed 7), then every read pattern compared again across the three
-- and hroe.verify() run (it checks both DynamoDB models).
--
-- JIT would compile every generated comparison query: seconds each, for nothing
SET jit = off;
SELECT count(*) AS tables_loaded FROM hroe.load(1, 7);
SELECT count(*) AS problems_after_load FROM hroe.verify();

CREATE TEMP TABLE write_log (n integer, op text, normalized text, single text, multi text);

-- Each write runs on hroe_normalized, then on hroe_single and hroe_multi with
-- the id the normalized model chose; all must succeed with the same result or
-- fail with the same SQLSTATE and message.
CREATE FUNCTION pg_temp.both(p_n integer, p_op text, p_call text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v_n text;
	v_s text;
	v_m text;
	v_call text;
BEGIN
	BEGIN
		EXECUTE format('SELECT hroe_normalized.%s::text', replace(p_call, '$ID', 'NULL')) INTO v_n;
		v_n := 'ok ' || COALESCE(v_n, '');
	EXCEPTION WHEN OTHERS THEN
		v_n := 'error ' || SQLSTATE || ': ' || SQLERRM;
	END;
	v_call := replace(p_call, '$ID', CASE WHEN v_n LIKE 'ok _%' THEN substr(v_n, 4) ELSE 'NULL' END);
	BEGIN
		EXECUTE format('SELECT hroe_single.%s::text', v_call) INTO v_s;
		v_s := 'ok ' || COALESCE(v_s, '');
	EXCEPTION WHEN OTHERS THEN
		v_s := 'error ' || SQLSTATE || ': ' || SQLERRM;
	END;
	BEGIN
		EXECUTE format('SELECT hroe_multi.%s::text', v_call) INTO v_m;
		v_m := 'ok ' || COALESCE(v_m, '');
	EXCEPTION WHEN OTHERS THEN
		v_m := 'error ' || SQLSTATE || ': ' || SQLERRM;
	END;
	INSERT INTO write_log VALUES (p_n, p_op, v_n, v_s, v_m);
END
$$;

SELECT setseed(0.42);
DO $$
DECLARE
	v_reps integer[] := ARRAY(SELECT employee_id FROM hroe_normalized.employees WHERE job_id = 'SA_REP' ORDER BY 1);
	v_jobs text[] := ARRAY(SELECT job_id FROM hroe_normalized.jobs ORDER BY 1);
	v_depts integer[] := ARRAY(SELECT department_id FROM hroe_normalized.departments ORDER BY 1);
	v_lines jsonb;
	v_k integer;
	v_op integer;
	v_date date;
BEGIN
	FOR v_n IN 1 .. 400 LOOP
		v_op := 1 + floor(random() * 10)::integer;
		v_date := date '2019-12-01' + floor(random() * 2300)::integer;
		IF v_op <= 3 THEN
			v_lines := '[]';
			FOR v_k IN 1 .. 1 + floor(random() * 4)::integer LOOP
				v_lines := v_lines || (jsonb_build_object('product_id', 1 + floor(random() * 305)::integer,
														  'quantity', 1 + floor(random() * 9)::integer)
									   || CASE WHEN random() < 0.3
											   THEN jsonb_build_object('unit_price', round((random() * 200)::numeric, 2))
											   ELSE '{}' END);
			END LOOP;
			PERFORM pg_temp.both(v_n, 'place_order', format('place_order(%s, %L, %L, %s, %L, p_order_id => $ID)',
				1 + floor(random() * 305)::integer, v_date, v_lines,
				CASE WHEN random() < 0.7 THEN v_reps[1 + floor(random() * cardinality(v_reps))::integer]::text
					 WHEN random() < 0.1 THEN '99999' ELSE 'NULL' END,
				(ARRAY['OPEN', 'OPEN', 'OPEN', 'SHIPPED', 'CLOSED', 'CANCELED', 'open'])[1 + floor(random() * 7)::integer]));
		ELSIF v_op <= 5 THEN
			PERFORM pg_temp.both(v_n, 'change_order_status', format('change_order_status(%s, %L)',
				CASE WHEN random() < 0.7
					 THEN (SELECT o.order_id FROM hroe_normalized.orders o
						   WHERE o.order_status IN ('OPEN', 'SHIPPED') ORDER BY o.order_id
						   OFFSET floor(random() * 150) LIMIT 1)
					 ELSE 1 + floor(random() * 1010)::integer END,
				(ARRAY['SHIPPED', 'CANCELED', 'CLOSED', 'CLOSED', 'OPEN', 'LOST'])[1 + floor(random() * 6)::integer]));
		ELSIF v_op <= 7 THEN
			PERFORM pg_temp.both(v_n, 'adjust_inventory', format('adjust_inventory(%s, %s, %s)',
				1 + floor(random() * 305)::integer, 1 + floor(random() * 10)::integer,
				floor(random() * 600)::integer - 300));
		ELSIF v_op <= 9 THEN
			PERFORM pg_temp.both(v_n, 'change_employee_job', format('change_employee_job(%s, %L, %s, %L)',
				100 + floor(random() * 110)::integer, v_jobs[1 + floor(random() * cardinality(v_jobs))::integer],
				CASE WHEN random() < 0.9 THEN v_depts[1 + floor(random() * cardinality(v_depts))::integer]::text
					 ELSE 'NULL' END,
				date '2019-01-01' + floor(random() * 3000)::integer));
		ELSE
			PERFORM pg_temp.both(v_n, 'hire_employee', format('hire_employee(%L, %L, %L, %L, %L, %s, %L, %s, %s, p_employee_id => $ID)',
				(ARRAY['Grace', 'Alan', 'Edsger', NULL])[1 + floor(random() * 4)::integer],
				(ARRAY['Hopper', 'Turing', 'Dijkstra', 'King'])[1 + floor(random() * 4)::integer],
				'NEW' || floor(random() * 30)::integer, v_date,
				v_jobs[1 + floor(random() * cardinality(v_jobs))::integer],
				CASE WHEN random() < 0.9 THEN v_depts[1 + floor(random() * cardinality(v_depts))::integer]::text
					 ELSE 'NULL' END,
				(ARRAY['{}', '{+1 555 0100}', '{+1 555 0100,+1 555 0101}'])[1 + floor(random() * 3)::integer],
				CASE WHEN random() < 0.5 THEN '100' ELSE 'NULL' END,
				CASE WHEN random() < 0.5 THEN '5000.5' ELSE 'NULL' END));
		END IF;
	END LOOP;
END
$$;

-- The three models agreed on every write: as many successes as failures of each kind.
SELECT op, count(*) AS calls,
	   count(*) FILTER (WHERE normalized LIKE 'ok%') AS succeeded,
	   count(*) FILTER (WHERE normalized LIKE 'error%') AS failed,
	   count(*) FILTER (WHERE normalized IS DISTINCT FROM single OR normalized IS DISTINCT FROM multi) AS disagreements
FROM write_log GROUP BY op ORDER BY op;
SELECT * FROM write_log WHERE normalized IS DISTINCT FROM single OR normalized IS DISTINCT FROM multi ORDER BY n;
-- the failures seen, by message (each raised identically by all three)
SELECT op, regexp_replace(normalized, '[0-9]+', 'N', 'g') AS error, count(*) AS calls
FROM write_log WHERE normalized LIKE 'error%' GROUP BY 1, 2 ORDER BY 1, 2;

-- Every derived item is still right ...
SELECT * FROM hroe.verify();

-- ... and every read pattern still agrees, over the changed data.
CREATE TEMP TABLE results (pattern text, calls bigint, rows bigint, differ bigint);
CREATE FUNCTION pg_temp.compare(p_pattern text, p_call text, p_args text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		INSERT INTO results
		SELECT %1$L, count(*), sum(x.n), count(*) FILTER (WHERE x.l_n IS DISTINCT FROM x.l_s OR x.l_n IS DISTINCT FROM x.l_m)
		FROM (SELECT (SELECT count(*) FROM hroe_normalized.%2$s z) AS n,
					 (SELECT array_agg(z::text) FROM hroe_normalized.%2$s z) AS l_n,
					 (SELECT array_agg(z::text) FROM hroe_single.%2$s z) AS l_s,
					 (SELECT array_agg(z::text) FROM hroe_multi.%2$s z) AS l_m
			  FROM %3$s) x$q$, p_pattern, p_call, p_args);
END
$$;
CREATE TEMP TABLE args_emp AS SELECT employee_id AS id FROM hroe_normalized.employees;
CREATE TEMP TABLE args_range AS
SELECT * FROM (VALUES ('2019-01-01'::date, '2026-12-31'::date), ('2025-06-01', '2025-06-30'),
					  ('2020-01-01', '2020-01-01')) v (f, t);
CREATE TEMP TABLE args_status AS SELECT * FROM (VALUES (NULL::text), ('OPEN'), ('CANCELED'), ('CLOSED')) v (s);
SELECT count(*) AS patterns FROM (
SELECT pg_temp.compare('employee_by_id', 'employee_by_id(a.id)', 'args_emp a')
UNION ALL SELECT pg_temp.compare('employee_by_name', 'employee_by_name(a.n)',
	'(SELECT DISTINCT COALESCE(first_name || '' '', '''') || last_name AS n FROM hroe_normalized.employees) a')
UNION ALL SELECT pg_temp.compare('employee_current_job', 'employee_current_job(a.id)', 'args_emp a')
UNION ALL SELECT pg_temp.compare('customer_orders', 'customer_orders(a.id, r.f, r.t, s.s)',
	'generate_series(1, 300, 3) a (id), args_range r, args_status s')
UNION ALL SELECT pg_temp.compare('open_orders', 'open_orders(r.f, r.t)', 'args_range r')
UNION ALL SELECT pg_temp.compare('employees_hired_since', 'employees_hired_since(a.d)',
	'(SELECT DISTINCT hire_date AS d FROM hroe_normalized.employees) a')
UNION ALL SELECT pg_temp.compare('warehouse_employees', 'warehouse_employees(a.id)', 'generate_series(1, 9) a (id)')
UNION ALL SELECT pg_temp.compare('product_order_items', 'product_order_items(a.id)', 'generate_series(1, 305) a (id)')
UNION ALL SELECT pg_temp.compare('rep_customers', 'rep_customers(a.id)', 'args_emp a')
UNION ALL SELECT pg_temp.compare('rep_orders', 'rep_orders(a.id, r.f, r.t, s.s)', 'args_emp a, args_range r, args_status s')
UNION ALL SELECT pg_temp.compare('employees_by_title', 'employees_by_title(a.t)', '(SELECT job_title AS t FROM hroe_normalized.jobs) a')
UNION ALL SELECT pg_temp.compare('product_inventory_at', 'product_inventory_at(a.id, w.id)',
	'generate_series(1, 305) a (id), generate_series(1, 10) w (id)')
UNION ALL SELECT pg_temp.compare('product_total_inventory', 'product_total_inventory(a.id)', 'generate_series(1, 305) a (id)')
UNION ALL SELECT pg_temp.compare('rep_ranking', 'rep_ranking(a.q)',
	'(SELECT y || ''-Q'' || q AS q FROM generate_series(2019, 2026) y, generate_series(1, 4) q) a')
UNION ALL SELECT pg_temp.compare('employee_phones', 'employee_phones(a.id)', 'args_emp a')
UNION ALL SELECT pg_temp.compare('customer_phones', 'customer_phones(a.id)', 'generate_series(1, 300) a (id)')
UNION ALL SELECT pg_temp.compare('product_inventories', 'product_inventories(a.id)', 'generate_series(1, 305) a (id)')
) c;
SELECT * FROM results ORDER BY pattern;

-- Errors of the single-table writes that hroe_normalized does not have:
-- dates its keys cannot hold, and a second order of an existing id.
SELECT hroe_single.place_order(1, '10000-01-01', '[{"product_id": 1, "quantity": 1}]');
SELECT hroe_single.hire_employee('A', 'B', 'AB@X', '0044-03-15 BC', 'IT_PROG', 60);
SELECT hroe_single.place_order(2, '2025-01-01', '[{"product_id": 1, "quantity": 1}]', p_order_id => 1);
SELECT * FROM hroe.verify();

-- Leave hroe.tables as the other tests expect it: unregister the DynamoDB
-- table hroe_single (hroe.load registers it again).
DELETE FROM hroe.tables WHERE table_name = 'hroe_single';
