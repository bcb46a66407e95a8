--
-- hroe_normalized: the 5 write patterns, their effects seen through the read
-- patterns, and their errors.
--
SELECT count(*) AS tables_loaded FROM hroe.load(1, 42);

-- place_order: lines as JSON; the unit price defaults to the list price;
-- the total is the sum of the lines; the id is the next after the load.
SELECT list_price AS p1_price FROM hroe_normalized.product_information WHERE product_id = 1 \gset
SELECT hroe_normalized.place_order(7, '2026-01-15',
         '[{"product_id": 1, "quantity": 2}, {"product_id": 5, "quantity": 1, "unit_price": 9.99}]',
         101) AS order_id;
SELECT * FROM hroe_normalized.customer_orders(7, '2026-01-01', '2026-12-31');
SELECT order_total = 2 * :p1_price + 9.99 AS total_is_sum_of_lines
FROM hroe_normalized.orders WHERE order_id = 1001;
SELECT kind, order_id, line_item_id, order_date, customer_id, quantity, unit_price
FROM hroe_normalized.product_order_items(5) WHERE order_id = 1001;
SELECT order_id, order_date FROM hroe_normalized.open_orders('2026-01-15', '2026-01-15');
SELECT order_id FROM hroe_normalized.rep_orders(101, '2026-01-01', '2026-01-31', 'OPEN');
-- without a sales rep the order is online; another status; an imposed id
SELECT hroe_normalized.place_order(8, '2026-01-16', '[{"product_id": 3, "quantity": 1}]',
                                   p_status => 'SHIPPED') AS order_id;
SELECT hroe_normalized.place_order(8, '2026-01-17', '[{"product_id": 3, "quantity": 4}]',
                                   p_order_id => 5000) AS order_id;
SELECT order_id, order_mode, order_status, sales_rep_id
FROM hroe_normalized.customer_orders(8, '2026-01-01', '2026-12-31');
-- rep_ranking counts the new direct order in its quarter
SELECT * FROM hroe_normalized.rep_ranking('2026-Q1');

-- place_order errors; a rejected order consumes no id
SELECT hroe_normalized.place_order(99999, '2026-01-15', '[{"product_id": 1, "quantity": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}]', 1);
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 99999, "quantity": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '{"product_id": 1, "quantity": 1}');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[1]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": "1", "quantity": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1.5, "quantity": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 0}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1e20}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1, "unit_price": 1.005}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1, "unit_price": -1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1, "discount": 5}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}, {"product_id": 1, "quantity": 2}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1000, "unit_price": 999999.99}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1}]', p_status => 'open');
SELECT hroe_normalized.place_order(7, 'infinity', '[{"product_id": 1, "quantity": 1}]');
SELECT hroe_normalized.place_order(7, NULL, '[{"product_id": 1, "quantity": 1}]');
SELECT hroe_normalized.place_order(7, '2026-01-15', (SELECT jsonb_agg(jsonb_build_object('product_id', i, 'quantity', 1))
                                                      FROM generate_series(1, 1000) i));
SELECT hroe_normalized.place_order(8, '2026-01-17', '[{"product_id": 3, "quantity": 4}]', p_order_id => 5000);
SELECT nextval('hroe_normalized.order_id_seq') AS next_id_unchanged_by_errors;

-- change_order_status: OPEN -> SHIPPED -> CLOSED, OPEN -> CANCELED
SELECT hroe_normalized.change_order_status(1001, 'SHIPPED');
SELECT count(*) AS still_open FROM hroe_normalized.open_orders('2026-01-15', '2026-01-15');
SELECT hroe_normalized.change_order_status(1001, 'CLOSED');
SELECT order_id, order_status FROM hroe_normalized.customer_orders(7, '2026-01-01', '2026-12-31');
SELECT min(order_id) AS open_order FROM hroe_normalized.orders WHERE order_status = 'OPEN' \gset
SELECT o.sales_rep_id AS open_rep, hroe.quarter_start(extract(year FROM o.order_date) || '-Q' || extract(quarter FROM o.order_date)) AS q_start,
       extract(year FROM o.order_date) || '-Q' || extract(quarter FROM o.order_date) AS open_quarter
FROM hroe_normalized.orders o WHERE o.order_id = :open_order \gset
SELECT total AS total_before FROM hroe_normalized.rep_ranking(:'open_quarter') WHERE employee_id = :open_rep \gset
SELECT hroe_normalized.change_order_status(:open_order, 'CANCELED');
-- a canceled order no longer counts towards its rep's quarter
SELECT :total_before - total = (SELECT order_total FROM hroe_normalized.orders WHERE order_id = :open_order) AS ranking_dropped_it
FROM hroe_normalized.rep_ranking(:'open_quarter') WHERE employee_id = :open_rep;
SELECT hroe_normalized.change_order_status(1001, 'OPEN');
SELECT hroe_normalized.change_order_status(:open_order, 'SHIPPED');
SELECT hroe_normalized.change_order_status(1001, 'CLOSED');
SELECT hroe_normalized.change_order_status(1001, 'closed');
SELECT hroe_normalized.change_order_status(1001, NULL);
SELECT hroe_normalized.change_order_status(999999, 'SHIPPED');

-- change_employee_job: the current job moves to job_history
SELECT * FROM hroe_normalized.employee_current_job(129);
SELECT hroe_normalized.change_employee_job(129, 'IT_PROG', 210, '2026-02-01');
SELECT hroe_normalized.change_employee_job(129, 'SA_REP', 80, '2026-06-01');
SELECT * FROM hroe_normalized.employee_current_job(129);
SELECT employee_id, start_date, end_date, job_id, department_id
FROM hroe_normalized.job_history WHERE employee_id = 129 ORDER BY start_date;
SELECT employee_id FROM hroe_normalized.employees_by_title('Sales Representative') WHERE employee_id = 129;
SELECT count(*) AS programmers_left FROM hroe_normalized.employees_by_title('Programmer') WHERE employee_id = 129;
-- errors
SELECT hroe_normalized.change_employee_job(129, 'SA_REP', 80, '2026-07-01');
SELECT hroe_normalized.change_employee_job(129, 'SA_MAN', 80, '2026-06-01');
SELECT hroe_normalized.change_employee_job(129, 'NOPE', 80, '2026-07-01');
SELECT hroe_normalized.change_employee_job(129, 'SA_MAN', 999, '2026-07-01');
SELECT hroe_normalized.change_employee_job(1, 'SA_MAN', 80, '2026-07-01');
SELECT hroe_normalized.change_employee_job(129, NULL, 80, '2026-07-01');

-- adjust_inventory: add, remove, create a row for a new warehouse
SELECT * FROM hroe_normalized.product_inventories(1);
SELECT hroe_normalized.adjust_inventory(1, 1, 16) AS on_hand;
SELECT hroe_normalized.adjust_inventory(1, 1, -300) AS on_hand;
SELECT hroe_normalized.adjust_inventory(1, 3, 50) AS on_hand;
SELECT hroe_normalized.adjust_inventory(1, 3, 0) AS on_hand;
SELECT * FROM hroe_normalized.product_inventory_at(1, 3);
SELECT * FROM hroe_normalized.product_total_inventory(1);
-- errors: stock never goes negative
SELECT hroe_normalized.adjust_inventory(1, 3, -51);
SELECT hroe_normalized.adjust_inventory(1, 4, -1);
SELECT hroe_normalized.adjust_inventory(99999, 1, 1);
SELECT hroe_normalized.adjust_inventory(1, 10, 1);
SELECT hroe_normalized.adjust_inventory(1, 3, 2147483647);
SELECT hroe_normalized.adjust_inventory(1, NULL, 1);
SELECT * FROM hroe_normalized.product_inventories(1);

-- hire_employee: the id is the next after the load
SELECT hroe_normalized.hire_employee('Ada', 'Lovelace', 'ALOVELACE', '2026-03-01', 'IT_PROG', 60,
                                     ARRAY['515.555.0101', '515.555.0102'], 100, 9000, NULL) AS employee_id;
SELECT employee_id, first_name, last_name, email, phone_numbers, hire_date, job_title, department_name, manager_id
FROM hroe_normalized.employee_by_id(200);
SELECT employee_id FROM hroe_normalized.employee_by_name('Ada Lovelace');
SELECT employee_id, hire_date FROM hroe_normalized.employees_hired_since('2026-01-01');
SELECT * FROM hroe_normalized.employee_phones(200);
SELECT employee_id FROM hroe_normalized.warehouse_employees(1) WHERE employee_id = 200;
SELECT * FROM hroe_normalized.employee_current_job(200);
SELECT hroe_normalized.hire_employee(NULL, 'Cher', 'CHER', '2026-03-02', 'MK_REP', 20, p_employee_id => 9000);
SELECT employee_id, first_name, last_name FROM hroe_normalized.employee_by_name('Cher');
-- errors
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ALOVELACE', '2026-03-01', 'IT_PROG', 60);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'NOPE', 60);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 999);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_manager_id => 1);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_salary => 100.001);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_commission_pct => 1.5);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60,
                                     ARRAY['1', '2', '3', '4', '5', '6']);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60,
                                     ARRAY['+1 555 0101 0101 0101 0101 0101']);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, ARRAY[NULL]::text[]);
SELECT hroe_normalized.hire_employee('Augusta Ada King, Countess', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', NULL, '2026-03-01', 'IT_PROG', 60);
SELECT hroe_normalized.hire_employee('Ada', 'Byron', 'ABYRON', '2026-03-01', 'IT_PROG', 60, p_employee_id => 100);
SELECT nextval('hroe_normalized.employee_id_seq') AS next_employee_id;

-- place_order looks its products up before walking the lines
-- (hroe.order_line_product_ids never fails on a malformed line), and the
-- lines are then checked in order: the first bad line's error wins, the
-- same in every model
SELECT hroe.order_line_product_ids('[{"product_id": 2}, {"product_id": 1.5}, {"product_id": -3}, {"product_id": "7"}, 5,
	{"product_id": 1e20}, {"product_id": 2}, {"product_id": 1}]') AS ids,
	   hroe.order_line_product_ids('"not lines"') AS from_a_string, hroe.order_line_product_ids('{"product_id": 3}') AS from_an_object;
\set VERBOSITY terse
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 99999, "quantity": 1}, "not a line"]');
SELECT hroe_single.place_order(7, '2026-01-15', '[{"product_id": 99999, "quantity": 1}, "not a line"]');
SELECT hroe_multi.place_order(7, '2026-01-15', '[{"product_id": 99999, "quantity": 1}, "not a line"]');
SELECT hroe_normalized.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1.5}, {"product_id": 99999, "quantity": 1}]');
SELECT hroe_single.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1.5}, {"product_id": 99999, "quantity": 1}]');
SELECT hroe_multi.place_order(7, '2026-01-15', '[{"product_id": 1, "quantity": 1.5}, {"product_id": 99999, "quantity": 1}]');
\set VERBOSITY default
