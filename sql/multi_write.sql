--
-- hroe_multi: the 5 write patterns, applied alike to hroe_normalized and
-- hroe_multi: same results, same errors; then random writes, after which the
-- 17 read patterns still agree and verify() finds nothing.
--
SELECT count(*) AS tables_loaded FROM hroe.load(1, 42);

-- try(sql): the result of a statement, or its error as "ERROR sqlstate: message (detail)"
CREATE FUNCTION pg_temp.try(p_sql text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	v_result text;
	v_state text;
	v_message text;
	v_detail text;
BEGIN
	EXECUTE p_sql INTO v_result;
	RETURN COALESCE(v_result, 'ok');
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_detail = PG_EXCEPTION_DETAIL;
	RETURN 'ERROR ' || v_state || ': ' || v_message || COALESCE(' (' || NULLIF(v_detail, '') || ')', '');
END
$$;
-- both(call): the call (%1$s = the model's schema, %2$s = the id the
-- normalized call returned, for place_order and hire_employee) run on
-- hroe_normalized, then on hroe_multi; a taken id is a primary-key violation
-- in both, whose message names each model's own constraint
CREATE FUNCTION pg_temp.both(p_call text, OUT normalized text, OUT same boolean) LANGUAGE plpgsql AS $$
DECLARE
	v_multi text;
BEGIN
	normalized := pg_temp.try(format(p_call, 'hroe_normalized', 'NULL'));
	v_multi := pg_temp.try(format(p_call, 'hroe_multi',
								  CASE WHEN normalized ~ '^[0-9]+$' THEN normalized ELSE 'NULL' END));
	same := v_multi = normalized OR (v_multi LIKE 'ERROR 23505: duplicate key%' AND normalized LIKE 'ERROR 23505: duplicate key%');
	IF NOT same THEN
		RAISE NOTICE 'hroe_multi: %', v_multi;
	END IF;
END
$$;

-- place_order: lines as JSON, the list price by default, the total the sum of the lines
SELECT v.c AS call, b.normalized, b.same FROM (VALUES
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 2}, {"product_id": 5, "quantity": 1, "unit_price": 9.99}]', 101, p_order_id => %2$s)$$),
  ($$SELECT %1$s.place_order(8, '2026-01-16', '[{"product_id": 3, "quantity": 1}]', p_status => 'SHIPPED', p_order_id => %2$s)$$),
  ($$SELECT %1$s.place_order(8, '2026-01-17', '[{"product_id": 3, "quantity": 4}]', p_order_id => 5000)$$),
  ($$SELECT %1$s.place_order(9, '2026-02-17', '[{"product_id": 4, "quantity": 4}]', 101, 'CANCELED', p_order_id => %2$s)$$),
  ($$SELECT %1$s.place_order(99999, '2026-01-15', '[{"product_id": 1, "quantity": 1}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}]', 1)$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 99999, "quantity": 1}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1.5, "quantity": 1}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1, "unit_price": 1.005}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1, "discount": 5}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}, {"product_id": 1, "quantity": 2}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1000, "unit_price": 999999.99}]')$$),
  ($$SELECT %1$s.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}]', p_status => 'open')$$),
  ($$SELECT %1$s.place_order(7, 'infinity', '[{"product_id": 1, "quantity": 1}]')$$),
  ($$SELECT %1$s.place_order(7, NULL, '[{"product_id": 1, "quantity": 1}]')$$),
  ($$SELECT %1$s.place_order(8, '2026-01-17', '[{"product_id": 3, "quantity": 4}]', p_order_id => 5000)$$),
  ($$SELECT %1$s.place_order(8, '2026-01-17', '[{"product_id": 3, "quantity": 4}]', p_order_id => 0)$$)
) v (c), LATERAL pg_temp.both(v.c) b;
-- the new orders through the read patterns, and the rep's quarter total
SELECT * FROM hroe_multi.customer_orders(7, '2026-01-01', '2026-12-31');
SELECT * FROM hroe_multi.customer_orders(8, '2026-01-01', '2026-12-31');
SELECT order_id, order_date FROM hroe_multi.open_orders('2026-01-15', '2026-01-15');
SELECT * FROM hroe_multi.rep_ranking('2026-Q1');
SELECT * FROM hroe_normalized.rep_ranking('2026-Q1');
SELECT kind, order_id, line_item_id, order_date, customer_id, quantity, unit_price
FROM hroe_multi.product_order_items(5) WHERE order_id = 1001;
SELECT item FROM hroe_multi."Order" WHERE pk OPERATOR(hroe.=) hroe_multi.order_key(1001) ORDER BY sk;

-- change_order_status: leaving OPEN takes the order out of OpenOrdersByDate;
-- CANCELED takes its total out of the rep's quarter
SELECT min(order_id) AS open_order FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL \gset
SELECT v.c AS call, b.normalized, b.same FROM (VALUES
  ($$SELECT %1$s.change_order_status(1001, 'SHIPPED')$$),
  ($$SELECT %1$s.change_order_status(1001, 'CLOSED')$$),
  (replace($$SELECT %1$s.change_order_status(OPEN_ORDER, 'CANCELED')$$, 'OPEN_ORDER', :'open_order')),
  ($$SELECT %1$s.change_order_status(1001, 'OPEN')$$),
  (replace($$SELECT %1$s.change_order_status(OPEN_ORDER, 'SHIPPED')$$, 'OPEN_ORDER', :'open_order')),
  ($$SELECT %1$s.change_order_status(1001, 'closed')$$),
  ($$SELECT %1$s.change_order_status(1001, NULL)$$),
  ($$SELECT %1$s.change_order_status(999999, 'SHIPPED')$$)
) v (c), LATERAL pg_temp.both(v.c) b;
SELECT item FROM hroe_multi."Order"
WHERE pk OPERATOR(hroe.=) hroe_multi.order_key(1001) AND sk OPERATOR(hroe.=) hroe_multi.order_key(1001);
SELECT count(*) AS in_open_orders FROM hroe_multi.open_orders('2026-01-15', '2026-01-15');

-- change_employee_job: the Employee item moves between job-title and warehouse partitions
SELECT v.c AS call, b.normalized, b.same FROM (VALUES
  ($$SELECT %1$s.change_employee_job(129, 'IT_PROG', 210, '2026-02-01')$$),
  ($$SELECT %1$s.change_employee_job(129, 'SA_REP', 80, '2026-06-01')$$),
  ($$SELECT %1$s.change_employee_job(129, 'SA_REP', 80, '2026-07-01')$$),
  ($$SELECT %1$s.change_employee_job(129, 'SA_MAN', 80, '2026-06-01')$$),
  ($$SELECT %1$s.change_employee_job(129, 'NOPE', 80, '2026-07-01')$$),
  ($$SELECT %1$s.change_employee_job(129, 'SA_MAN', 999, '2026-07-01')$$),
  ($$SELECT %1$s.change_employee_job(1, 'SA_MAN', 80, '2026-07-01')$$),
  ($$SELECT %1$s.change_employee_job(129, NULL, 80, '2026-07-01')$$),
  ($$SELECT %1$s.change_employee_job(130, 'ST_CLERK', NULL, '2026-07-01')$$)
) v (c), LATERAL pg_temp.both(v.c) b;
SELECT * FROM hroe_multi.employee_current_job(129);
SELECT * FROM hroe_multi.employee_current_job(130);
SELECT employee_id FROM hroe_multi.employees_by_title('Sales Representative') WHERE employee_id = 129;
SELECT count(*) AS programmers_left FROM hroe_multi.employees_by_title('Programmer') WHERE employee_id = 129;

-- adjust_inventory: the inventory item and the product's total together
SELECT v.c AS call, b.normalized, b.same FROM (VALUES
  ($$SELECT %1$s.adjust_inventory(1, 1, 16)$$),
  ($$SELECT %1$s.adjust_inventory(1, 1, -300)$$),
  ($$SELECT %1$s.adjust_inventory(1, 3, 50)$$),
  ($$SELECT %1$s.adjust_inventory(1, 3, 0)$$),
  ($$SELECT %1$s.adjust_inventory(1, 3, -51)$$),
  ($$SELECT %1$s.adjust_inventory(1, 4, -1)$$),
  ($$SELECT %1$s.adjust_inventory(99999, 1, 1)$$),
  ($$SELECT %1$s.adjust_inventory(1, 10, 1)$$),
  ($$SELECT %1$s.adjust_inventory(1, 3, 2147483647)$$),
  ($$SELECT %1$s.adjust_inventory(1, NULL, 1)$$)
) v (c), LATERAL pg_temp.both(v.c) b;
SELECT * FROM hroe_multi.product_inventories(1);
SELECT * FROM hroe_multi.product_total_inventory(1);

-- hire_employee: the Employee item and the email's uniqueness item
SELECT v.c AS call, b.normalized, b.same FROM (VALUES
  ($$SELECT %1$s.hire_employee('Ada', 'Lovelace', 'ALOVELACE', '2026-03-01', 'IT_PROG', 60, ARRAY['515.555.0101', '515.555.0102'], 100, 9000, NULL, %2$s)$$),
  ($$SELECT %1$s.hire_employee(NULL, 'Cher', 'CHER', '2026-03-02', 'MK_REP', 20, p_employee_id => 9000)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ALOVELACE', '2026-03-01', 'IT_PROG', 60)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'NOPE', 60)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 999)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_manager_id => 1)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_salary => 100.001)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, ARRAY['1', '2', '3', '4', '5', '6'])$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, ARRAY[NULL]::text[])$$),
  ($$SELECT %1$s.hire_employee('Augusta Ada King, Countess', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', NULL, '2026-03-01', 'IT_PROG', 60)$$),
  ($$SELECT %1$s.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_employee_id => 100)$$)
) v (c), LATERAL pg_temp.both(v.c) b;
SELECT employee_id, first_name, last_name, email, phone_numbers, hire_date, job_title, department_name, manager_id
FROM hroe_multi.employee_by_id(200);
SELECT employee_id, first_name, last_name FROM hroe_multi.employee_by_name('Cher');
SELECT count(*) AS problems FROM hroe_multi.verify();

-- Random writes (hroe.prng, deterministic): 600 calls of the 5 patterns with
-- valid and invalid arguments, each applied to both models.
CREATE TEMP TABLE writes (n int, kind text, normalized text, same boolean);
DO $$
DECLARE
	v_kind text;
	v_call text;
	v_lines text;
	u float8;
BEGIN
	FOR i IN 1 .. 600 LOOP
		u := hroe.prng(11, 1, i);
		IF u < 0.35 THEN
			v_kind := 'place_order';
			SELECT '[' || string_agg(format('{"product_id": %s, "quantity": %s%s}',
											1 + (hroe.prng(11, 10 + k, i) * 303)::int, 1 + (hroe.prng(11, 20 + k, i) * 4)::int,
											CASE WHEN hroe.prng(11, 30 + k, i) < 0.3
												 THEN ', "unit_price": ' || round((hroe.prng(11, 40 + k, i) * 500)::numeric, 2) ELSE '' END), ', ')
				   || ']'
			INTO v_lines FROM generate_series(1, 1 + (hroe.prng(11, 2, i) * 3)::int) k;
			v_call := format('SELECT %%1$s.place_order(%s, %L, %L, %s, %L, p_order_id => %%2$s)',
							 1 + (hroe.prng(11, 3, i) * 302)::int,
							 date '2024-06-01' + (hroe.prng(11, 4, i) * 900)::int, v_lines,
							 CASE WHEN hroe.prng(11, 5, i) < 0.3 THEN 'NULL'
								  ELSE COALESCE((SELECT e.employee_id::text FROM hroe_normalized.employees e WHERE e.job_id = 'SA_REP'
												 ORDER BY e.employee_id OFFSET (hroe.prng(11, 6, i) * 20)::int LIMIT 1), '1') END,
							 (ARRAY['OPEN', 'OPEN', 'OPEN', 'SHIPPED', 'CLOSED', 'CANCELED'])[1 + floor(hroe.prng(11, 7, i) * 6)::int]);
		ELSIF u < 0.6 THEN
			v_kind := 'change_order_status';
			v_call := format('SELECT %%1$s.change_order_status(%s, %L)',
							 CASE WHEN hroe.prng(11, 8, i) < 0.6
								  THEN (SELECT o.order_id FROM hroe_normalized.orders o ORDER BY o.order_id DESC
										OFFSET (hroe.prng(11, 9, i) * 100)::int LIMIT 1)
								  ELSE 1 + (hroe.prng(11, 9, i) * 1250)::bigint END,
							 (ARRAY['SHIPPED', 'CANCELED', 'CLOSED', 'OPEN'])[1 + floor(hroe.prng(11, 10, i) * 4)::int]);
		ELSIF u < 0.8 THEN
			v_kind := 'adjust_inventory';
			v_call := format('SELECT %%1$s.adjust_inventory(%s, %s, %s)',
							 1 + (hroe.prng(11, 11, i) * 302)::int, 1 + (hroe.prng(11, 12, i) * 9)::int,
							 (hroe.prng(11, 13, i) * 600)::int - 300);
		ELSIF u < 0.92 THEN
			v_kind := 'change_employee_job';
			v_call := format('SELECT %%1$s.change_employee_job(%s, %L, %s, %L)',
							 100 + (hroe.prng(11, 14, i) * 105)::int,
							 (SELECT j.job_id FROM hroe_normalized.jobs j ORDER BY j.job_id
							  OFFSET (hroe.prng(11, 15, i) * 18)::int LIMIT 1),
							 CASE WHEN hroe.prng(11, 16, i) < 0.1 THEN 'NULL'
								  ELSE (10 * (1 + (hroe.prng(11, 17, i) * 27)::int))::text END,
							 date '2025-01-01' + (hroe.prng(11, 18, i) * 1000)::int);
		ELSE
			v_kind := 'hire_employee';
			v_call := format('SELECT %%1$s.hire_employee(%L, %L, %L, %L, %L, %s, %L, %s, %s, NULL, %%2$s)',
							 (ARRAY['Grace', 'Alan', NULL, 'Zoë'])[1 + floor(hroe.prng(11, 19, i) * 4)::int],
							 (ARRAY['Hopper', 'Turing', 'Müller', 'King'])[1 + floor(hroe.prng(11, 20, i) * 4)::int],
							 'NEW' || (hroe.prng(11, 21, i) * 40)::int,
							 date '2026-01-01' + (hroe.prng(11, 22, i) * 300)::int,
							 (SELECT j.job_id FROM hroe_normalized.jobs j ORDER BY j.job_id
							  OFFSET (hroe.prng(11, 23, i) * 18)::int LIMIT 1),
							 (10 * (1 + (hroe.prng(11, 24, i) * 27)::int)),
							 ARRAY['+1 ' || i, '+44 ' || i],
							 CASE WHEN hroe.prng(11, 25, i) < 0.9 THEN 100 + (hroe.prng(11, 26, i) * 100)::int ELSE 5 END,
							 CASE WHEN hroe.prng(11, 27, i) < 0.5 THEN 'NULL' ELSE (3000 + (hroe.prng(11, 28, i) * 5000)::int)::text END);
		END IF;
		INSERT INTO writes SELECT i, v_kind, b.normalized, b.same FROM pg_temp.both(v_call) b;
	END LOOP;
END
$$;
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE normalized NOT LIKE 'ERROR%') AS succeeded,
       count(*) FILTER (WHERE normalized LIKE 'ERROR%') AS failed,
       count(*) FILTER (WHERE NOT same) AS different_outcome
FROM writes GROUP BY kind ORDER BY kind;
SELECT regexp_replace(normalized, '[0-9]+', 'N', 'g') AS error, count(*)
FROM writes WHERE normalized LIKE 'ERROR%' GROUP BY 1 ORDER BY 1;

-- After the writes: hroe_multi is still exactly the mapping of the
-- normalized data, and every read pattern answers alike (the calls and
-- compare() of sql/multi.sql, over the new data)
SELECT count(*) AS problems FROM hroe_multi.verify();
CREATE TEMP TABLE calls (pattern text, i serial, a1 text, a2 text, a3 text, a4 text);
INSERT INTO calls (pattern, a1)
SELECT p, e.employee_id::text
FROM unnest(ARRAY['employee_by_id', 'employee_current_job', 'employee_phones', 'rep_customers']) p,
     (SELECT employee_id FROM hroe_normalized.employees) e;
INSERT INTO calls (pattern, a1)
SELECT DISTINCT 'employee_by_name', COALESCE(first_name || ' ', '') || last_name FROM hroe_normalized.employees;
INSERT INTO calls (pattern, a1, a2, a3, a4)
SELECT 'customer_orders', c.customer_id::text, '2024-01-01', '2027-12-31', s
FROM hroe_normalized.customers c, (VALUES (NULL), ('OPEN'), ('CANCELED')) s (s);
INSERT INTO calls (pattern, a1, a2)
SELECT 'open_orders', (date '2024-01-01' + 30 * m)::text, (date '2024-01-01' + 30 * m + 45)::text FROM generate_series(0, 40) m;
INSERT INTO calls (pattern, a1)
SELECT 'employees_hired_since', (date '2010-01-01' + 200 * m)::text FROM generate_series(0, 90) m;
INSERT INTO calls (pattern, a1) SELECT 'warehouse_employees', w::text FROM generate_series(1, 9) w;
INSERT INTO calls (pattern, a1)
SELECT p, pr.product_id::text
FROM unnest(ARRAY['product_order_items', 'product_total_inventory', 'product_inventories']) p,
     hroe_normalized.product_information pr;
INSERT INTO calls (pattern, a1, a2)
SELECT 'product_inventory_at', p::text, w::text FROM generate_series(1, 300) p, generate_series(1, 9) w;
INSERT INTO calls (pattern, a1, a2, a3, a4)
SELECT 'rep_orders', e.employee_id::text, '2024-01-01', '2027-12-31', s
FROM hroe_normalized.employees e, (VALUES (NULL), ('OPEN'), ('SHIPPED')) s (s);
INSERT INTO calls (pattern, a1) SELECT 'employees_by_title', job_title FROM hroe_normalized.jobs;
INSERT INTO calls (pattern, a1) SELECT 'rep_ranking', y || '-Q' || q FROM generate_series(2020, 2026) y, generate_series(1, 4) q;
INSERT INTO calls (pattern, a1) SELECT 'customer_phones', customer_id::text FROM hroe_normalized.customers;

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
