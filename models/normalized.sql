
-- hroe_normalized: Oracle's HR and OE sample schemas in PostgreSQL, the
-- relational side of the comparison.  Adaptations (doc/models.md, README):
-- orders.order_status is text (OPEN, SHIPPED, CLOSED, CANCELED);
-- employees and customers both hold a list of up to 5 phone numbers;
-- orders.order_date is a date; employees.job_start_date records when the
-- current job began; one warehouse per location; no geometry or XML.

CREATE SCHEMA hroe_normalized;
COMMENT ON SCHEMA hroe_normalized IS
'hroe: Oracle HR and OE sample schemas in PostgreSQL (the normalized model), with the 17 read patterns and 5 write patterns';

CREATE TABLE hroe_normalized.regions (
	region_id integer PRIMARY KEY,
	region_name varchar(25) NOT NULL
);
COMMENT ON TABLE hroe_normalized.regions IS 'HR regions (Oracle hr.regions)';

CREATE TABLE hroe_normalized.countries (
	country_id char(2) PRIMARY KEY,
	country_name varchar(60) NOT NULL,
	region_id integer NOT NULL REFERENCES hroe_normalized.regions
);
COMMENT ON TABLE hroe_normalized.countries IS 'HR countries (Oracle hr.countries)';

CREATE TABLE hroe_normalized.locations (
	location_id integer PRIMARY KEY,
	street_address varchar(40),
	postal_code varchar(12),
	city varchar(30) NOT NULL,
	state_province varchar(25),
	country_id char(2) NOT NULL REFERENCES hroe_normalized.countries
);
COMMENT ON TABLE hroe_normalized.locations IS 'HR locations (Oracle hr.locations): addresses of departments and warehouses';

CREATE TABLE hroe_normalized.jobs (
	job_id varchar(10) PRIMARY KEY,
	job_title varchar(35) NOT NULL UNIQUE,
	min_salary integer,
	max_salary integer,
	CHECK (min_salary <= max_salary)
);
COMMENT ON TABLE hroe_normalized.jobs IS 'HR jobs (Oracle hr.jobs); titles are unique';

CREATE TABLE hroe_normalized.departments (
	department_id integer PRIMARY KEY,
	department_name varchar(30) NOT NULL,
	manager_id integer,
	location_id integer REFERENCES hroe_normalized.locations
);
COMMENT ON TABLE hroe_normalized.departments IS 'HR departments (Oracle hr.departments); employees reach a warehouse through their department''s location';

CREATE TABLE hroe_normalized.employees (
	employee_id integer PRIMARY KEY CHECK (employee_id > 0),
	first_name varchar(20),
	last_name varchar(25) NOT NULL,
	email varchar(25) NOT NULL UNIQUE,
	phone_numbers varchar(25)[] NOT NULL DEFAULT '{}'
		CHECK (cardinality(phone_numbers) <= 5
			   AND (cardinality(phone_numbers) = 0
					OR (array_ndims(phone_numbers) = 1 AND array_lower(phone_numbers, 1) = 1))
			   AND array_position(phone_numbers, NULL) IS NULL),
	hire_date date NOT NULL,
	job_id varchar(10) NOT NULL REFERENCES hroe_normalized.jobs,
	job_start_date date NOT NULL,
	salary numeric(8,2) CHECK (salary > 0),
	commission_pct numeric(2,2) CHECK (commission_pct >= 0),
	manager_id integer REFERENCES hroe_normalized.employees,
	-- deferred: departments and employees reference each other, and pg_dump
	-- cannot order the data of such a cycle (restore with --single-transaction)
	department_id integer REFERENCES hroe_normalized.departments DEFERRABLE INITIALLY DEFERRED,
	CHECK (job_start_date >= hire_date)
);
COMMENT ON TABLE hroe_normalized.employees IS
'HR employees (Oracle hr.employees); phone_numbers is a list of up to 5 (Oracle: one phone_number), job_start_date is when the current job began';

ALTER TABLE hroe_normalized.departments
	ADD FOREIGN KEY (manager_id) REFERENCES hroe_normalized.employees DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE hroe_normalized.job_history (
	employee_id integer NOT NULL REFERENCES hroe_normalized.employees,
	start_date date NOT NULL,
	end_date date NOT NULL,
	job_id varchar(10) NOT NULL REFERENCES hroe_normalized.jobs,
	department_id integer REFERENCES hroe_normalized.departments,
	PRIMARY KEY (employee_id, start_date),
	CHECK (end_date >= start_date)
);
COMMENT ON TABLE hroe_normalized.job_history IS
'HR past jobs (Oracle hr.job_history): end_date is the last day of the job, inclusive (a one-day job is allowed)';

CREATE TABLE hroe_normalized.customers (
	customer_id integer PRIMARY KEY CHECK (customer_id > 0),
	cust_first_name varchar(20) NOT NULL,
	cust_last_name varchar(20) NOT NULL,
	street_address varchar(40),
	postal_code varchar(10),
	city varchar(30),
	state_province varchar(10),
	country_id char(2) REFERENCES hroe_normalized.countries,
	phone_numbers varchar(25)[] NOT NULL DEFAULT '{}'
		CHECK (cardinality(phone_numbers) <= 5
			   AND (cardinality(phone_numbers) = 0
					OR (array_ndims(phone_numbers) = 1 AND array_lower(phone_numbers, 1) = 1))
			   AND array_position(phone_numbers, NULL) IS NULL),
	nls_language varchar(3),
	nls_territory varchar(30),
	credit_limit numeric(9,2) CHECK (credit_limit <= 5000),
	cust_email varchar(40),
	account_mgr_id integer REFERENCES hroe_normalized.employees ON DELETE SET NULL,
	date_of_birth date,
	marital_status varchar(20),
	gender varchar(1) CHECK (gender IN ('M', 'F')),
	income_level varchar(20)
);
COMMENT ON TABLE hroe_normalized.customers IS
'OE customers (Oracle oe.customers): cust_address flattened into five columns, phone_numbers a list of up to 5, no geometry';

CREATE TABLE hroe_normalized.warehouses (
	warehouse_id integer PRIMARY KEY,
	warehouse_name varchar(35),
	location_id integer NOT NULL UNIQUE REFERENCES hroe_normalized.locations
);
COMMENT ON TABLE hroe_normalized.warehouses IS
'OE warehouses (Oracle oe.warehouses, without warehouse_spec and geometry); at most one warehouse per location, so an employee works at no more than one';

CREATE TABLE hroe_normalized.promotions (
	promo_id integer PRIMARY KEY,
	promo_name varchar(20)
);
COMMENT ON TABLE hroe_normalized.promotions IS 'OE promotions (Oracle oe.promotions)';

CREATE TABLE hroe_normalized.product_information (
	product_id integer PRIMARY KEY CHECK (product_id > 0),
	product_name varchar(50),
	product_description varchar(2000),
	category_id smallint,
	weight_class smallint,
	warranty_period interval,
	supplier_id integer,
	product_status varchar(20)
		CHECK (product_status IN ('orderable', 'planned', 'under development', 'obsolete')),
	list_price numeric(8,2) CHECK (list_price >= 0),
	min_price numeric(8,2) CHECK (min_price >= 0),
	catalog_url varchar(50)
);
COMMENT ON TABLE hroe_normalized.product_information IS 'OE products (Oracle oe.product_information)';

CREATE TABLE hroe_normalized.product_descriptions (
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	language_id varchar(3) NOT NULL,
	translated_name varchar(50) NOT NULL,
	translated_description varchar(2000) NOT NULL,
	PRIMARY KEY (product_id, language_id)
);
COMMENT ON TABLE hroe_normalized.product_descriptions IS 'OE product names and descriptions per language (Oracle oe.product_descriptions)';

CREATE TABLE hroe_normalized.orders (
	order_id bigint PRIMARY KEY CHECK (order_id > 0),
	order_date date NOT NULL,
	order_mode varchar(8) CHECK (order_mode IN ('direct', 'online')),
	customer_id integer NOT NULL REFERENCES hroe_normalized.customers,
	order_status text NOT NULL DEFAULT 'OPEN'
		CHECK (order_status IN ('OPEN', 'SHIPPED', 'CLOSED', 'CANCELED')),
	order_total numeric(8,2) NOT NULL CHECK (order_total >= 0),
	sales_rep_id integer REFERENCES hroe_normalized.employees ON DELETE SET NULL,
	promotion_id integer REFERENCES hroe_normalized.promotions
);
COMMENT ON TABLE hroe_normalized.orders IS
'OE orders (Oracle oe.orders): order_date is a date, order_status is OPEN, SHIPPED, CLOSED or CANCELED, order_total is the sum of the lines';

CREATE TABLE hroe_normalized.order_items (
	order_id bigint NOT NULL REFERENCES hroe_normalized.orders ON DELETE CASCADE,
	line_item_id smallint NOT NULL CHECK (line_item_id > 0),
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	unit_price numeric(8,2) NOT NULL CHECK (unit_price >= 0),
	quantity integer NOT NULL CHECK (quantity > 0),
	PRIMARY KEY (order_id, line_item_id),
	UNIQUE (order_id, product_id)
);
COMMENT ON TABLE hroe_normalized.order_items IS 'OE order lines (Oracle oe.order_items); a product appears at most once per order';

CREATE TABLE hroe_normalized.inventories (
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	warehouse_id integer NOT NULL REFERENCES hroe_normalized.warehouses,
	quantity_on_hand integer NOT NULL CHECK (quantity_on_hand >= 0),
	PRIMARY KEY (product_id, warehouse_id)
);
COMMENT ON TABLE hroe_normalized.inventories IS 'OE stock per product and warehouse (Oracle oe.inventories); never negative';

-- Ids handed out by place_order and hire_employee (CACHE 1, so no session
-- skips numbers; hroe.load sets them just past the generated ids).
CREATE SEQUENCE hroe_normalized.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_normalized.order_id_seq IS
'next order id for place_order (CACHE 1; hroe.load sets it to the number of generated orders)';
CREATE SEQUENCE hroe_normalized.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_normalized.employee_id_seq IS
'next employee id for hire_employee (CACHE 1; hroe.load sets it past the generated employees)';

-- Indexes for the foreign keys and the access patterns (hroe.load drops
-- the secondary ones before a bulk load and recreates them afterwards).
CREATE INDEX countries_region_id_idx ON hroe_normalized.countries (region_id);
CREATE INDEX locations_country_id_idx ON hroe_normalized.locations (country_id);
CREATE INDEX departments_location_id_idx ON hroe_normalized.departments (location_id);
CREATE INDEX departments_manager_id_idx ON hroe_normalized.departments (manager_id);
-- pattern 2: the full name as employee_by_name spells it, ties by id
CREATE INDEX employees_full_name_idx ON hroe_normalized.employees
	((COALESCE(first_name::text || ' ', '') || last_name::text), employee_id);
-- pattern 6
CREATE INDEX employees_hire_date_idx ON hroe_normalized.employees (hire_date, employee_id);
-- pattern 7
CREATE INDEX employees_department_id_idx ON hroe_normalized.employees (department_id, employee_id);
-- pattern 11
CREATE INDEX employees_job_id_idx ON hroe_normalized.employees (job_id, employee_id);
CREATE INDEX employees_manager_id_idx ON hroe_normalized.employees (manager_id);
CREATE INDEX job_history_job_id_idx ON hroe_normalized.job_history (job_id);
CREATE INDEX job_history_department_id_idx ON hroe_normalized.job_history (department_id);
-- pattern 9
CREATE INDEX customers_account_mgr_id_idx ON hroe_normalized.customers (account_mgr_id, customer_id);
-- pattern 4
CREATE INDEX orders_customer_id_idx ON hroe_normalized.orders (customer_id, order_date, order_id);
-- pattern 10
CREATE INDEX orders_sales_rep_id_idx ON hroe_normalized.orders (sales_rep_id, order_date, order_id);
-- pattern 5: sparse, like the OPEN-orders GSIs of the DynamoDB designs
CREATE INDEX orders_open_idx ON hroe_normalized.orders (order_date, order_id)
	WHERE order_status = 'OPEN';
-- pattern 14: the orders that count towards a rep's quarter, covering.
-- sales_rep_id is a key column, not an INCLUDE one: when rep_orders with a
-- status picks this index, the rep is then checked in the index, not in
-- the heap row by row.
CREATE INDEX orders_rep_sales_idx ON hroe_normalized.orders (order_date, sales_rep_id)
	INCLUDE (order_total)
	WHERE sales_rep_id IS NOT NULL AND order_status <> 'CANCELED';
-- pattern 8
CREATE INDEX order_items_product_id_idx ON hroe_normalized.order_items (product_id, order_id);
CREATE INDEX inventories_warehouse_id_idx ON hroe_normalized.inventories (warehouse_id);

-- pg_dump keeps the generated data (one call per statement: each updates pg_extension)
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.regions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.countries', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.locations', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.jobs', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.departments', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.employees', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.job_history', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.customers', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.warehouses', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.promotions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.product_information', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.product_descriptions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.orders', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.order_items', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.inventories', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.employee_id_seq', '');

-- Quarters for rep_ranking, shared by every model: '2025-Q3'.  The two
-- bounds are inlinable SQL expressions: folded to constants for a constant
-- quarter, cheap per row otherwise.  (Every OPERATOR() has the same
-- precedence, left to right: hence the parentheses.)
CREATE FUNCTION hroe.invalid_quarter(p_quarter text)
RETURNS date
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_quarter IS NULL THEN
		RETURN NULL;
	END IF;
	RAISE EXCEPTION 'invalid quarter "%"', p_quarter
		USING ERRCODE = 'invalid_parameter_value',
			  HINT = 'A quarter is written YYYY-Qn, for example 2025-Q3.';
END
$$;
COMMENT ON FUNCTION hroe.invalid_quarter(text) IS
'internal: raises the error for a quarter not written YYYY-Qn (NULL for NULL); used by hroe.quarter_start and hroe.quarter_end';

CREATE FUNCTION hroe.quarter_start(p_quarter text)
RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_quarter OPERATOR(pg_catalog.~) '^[0-9]{4}-Q[1-4]$'
			THEN pg_catalog.make_date(pg_catalog.substr(p_quarter, 1, 4)::pg_catalog.int4,
									  3 OPERATOR(pg_catalog.*) pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4
										OPERATOR(pg_catalog.-) 2,
									  1)
			ELSE hroe.invalid_quarter(p_quarter) END
$$;
COMMENT ON FUNCTION hroe.quarter_start(text) IS
'internal: first day of a quarter written YYYY-Qn (''2025-Q3'' gives 2025-07-01); an error for any other text, NULL for NULL';

CREATE FUNCTION hroe.quarter_end(p_quarter text)
RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_quarter OPERATOR(pg_catalog.~) '^[0-9]{4}-Q[1-4]$'
			THEN pg_catalog.make_date(pg_catalog.substr(p_quarter, 1, 4)::pg_catalog.int4
										OPERATOR(pg_catalog.+) (pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4
																OPERATOR(pg_catalog./) 4),
									  (3 OPERATOR(pg_catalog.*) pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4)
										OPERATOR(pg_catalog.%) 12 OPERATOR(pg_catalog.+) 1,
									  1)
			ELSE hroe.invalid_quarter(p_quarter) END
$$;
COMMENT ON FUNCTION hroe.quarter_end(text) IS
'internal: first day after a quarter written YYYY-Qn (''2025-Q3'' gives 2025-10-01), the exclusive end of the range; an error for any other text, NULL for NULL';

------------------------------------------------------------------------------
-- Row shapes: the joins and columns several read patterns share.  SQL
-- set-returning functions of one SELECT, STABLE, not STRICT, without SET:
-- a pattern selects from one and filters it; PostgreSQL inlines the
-- function and pulls its joins up into the pattern's query, so the plan is
-- the one of the query written out (the filters reach the index scans).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_normalized.employee_details()
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.first_name::pg_catalog.text, e.last_name::pg_catalog.text,
	   e.email::pg_catalog.text, e.phone_numbers::pg_catalog.text[], e.hire_date,
	   e.job_id::pg_catalog.text, j.job_title::pg_catalog.text, e.job_start_date,
	   e.salary, e.commission_pct, e.manager_id, e.department_id,
	   d.department_name::pg_catalog.text, l.location_id, l.city::pg_catalog.text,
	   c.country_name::pg_catalog.text, r.region_name::pg_catalog.text
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) e.department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id OPERATOR(pg_catalog.=) d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id OPERATOR(pg_catalog.=) l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id OPERATOR(pg_catalog.=) c.region_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_details() IS
'internal: row shape of patterns 1 and 2: every employee with its job title, department, location, country and region names, as employee_by_id returns them; inlined into the patterns';

CREATE FUNCTION hroe_normalized.order_rows()
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT o.order_id, o.customer_id, o.order_date, o.order_status,
	   o.order_mode::pg_catalog.text, o.sales_rep_id, o.order_total
FROM hroe_normalized.orders o
$$;
COMMENT ON FUNCTION hroe_normalized.order_rows() IS
'internal: row shape of patterns 4, 5 and 10: every order with the columns customer_orders returns; inlined into the patterns';

CREATE FUNCTION hroe_normalized.employee_summary()
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.first_name::pg_catalog.text, e.last_name::pg_catalog.text,
	   e.hire_date, e.job_id::pg_catalog.text, j.job_title::pg_catalog.text, e.department_id
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_summary() IS
'internal: row shape of patterns 6, 7 and 11: every employee with its job title, as employees_hired_since returns them; inlined into the patterns';

------------------------------------------------------------------------------
-- The 17 read patterns.  Each is a STABLE SQL function whose body is one
-- SELECT, not STRICT and without SET, so PostgreSQL inlines it into the
-- calling query and EXPLAIN shows the index scans.  Every name is schema-
-- qualified (tables, functions, operators, types) for search_path safety.
-- Strings are returned as text, ids as integer/bigint, money as numeric
-- with two decimals, dates as date.  Set results are ordered as each
-- COMMENT says; a NULL argument gives an empty result unless it says
-- otherwise.
------------------------------------------------------------------------------

-- 1
CREATE FUNCTION hroe_normalized.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_details() AS x
WHERE x.employee_id OPERATOR(pg_catalog.=) p_employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_by_id(integer) IS
'pattern 1: the employee''s details (name, email, phones, hire date, job, salary, manager, department, location); zero or one row';

-- 2
CREATE FUNCTION hroe_normalized.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_details() AS x
WHERE (COALESCE(x.first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) x.last_name) OPERATOR(pg_catalog.=) p_full_name
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_by_name(text) IS
'pattern 2: every employee whose full name (first_name, a space, last_name; case-sensitive) is the argument, with the columns of employee_by_id; ordered by employee_id';

-- 3
CREATE FUNCTION hroe_normalized.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.job_id::pg_catalog.text, j.job_title::pg_catalog.text,
	   e.department_id, d.department_name::pg_catalog.text, e.job_start_date
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) e.department_id
WHERE e.employee_id OPERATOR(pg_catalog.=) p_employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_current_job(integer) IS
'pattern 3: the employee''s current job only (job, title, department, start date; past jobs are in job_history); zero or one row';

-- 4
CREATE FUNCTION hroe_normalized.customer_orders(p_customer_id integer, p_from date, p_to date,
												p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.customer_id OPERATOR(pg_catalog.=) p_customer_id
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
  AND (p_status IS NULL OR x.order_status OPERATOR(pg_catalog.=) p_status)
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.customer_orders(integer, date, date, text) IS
'pattern 4: the customer''s orders dated from p_from to p_to inclusive, of status p_status (NULL: any status); ordered by order_date, order_id';

-- 5
CREATE FUNCTION hroe_normalized.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.order_status OPERATOR(pg_catalog.=) 'OPEN'
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.open_orders(date, date) IS
'pattern 5: every OPEN order dated from p_from to p_to inclusive, across all customers; ordered by order_date, order_id';

-- 6
CREATE FUNCTION hroe_normalized.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_summary() AS x
WHERE x.hire_date OPERATOR(pg_catalog.>=) p_since
ORDER BY x.hire_date, x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employees_hired_since(date) IS
'pattern 6: employees hired on or after p_since; ordered by hire_date, employee_id';

-- 7
CREATE FUNCTION hroe_normalized.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.warehouses w
JOIN hroe_normalized.departments d ON d.location_id OPERATOR(pg_catalog.=) w.location_id
JOIN hroe_normalized.employee_summary() AS x ON x.department_id OPERATOR(pg_catalog.=) d.department_id
WHERE w.warehouse_id OPERATOR(pg_catalog.=) p_warehouse_id
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.warehouse_employees(integer) IS
'pattern 7: employees whose department is at the warehouse''s location; ordered by employee_id';

-- 8
CREATE FUNCTION hroe_normalized.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'inventory'::pg_catalog.text AS kind, i.product_id, i.warehouse_id, i.quantity_on_hand,
	   NULL::pg_catalog.int8 AS order_id, NULL::pg_catalog.int4 AS line_item_id,
	   NULL::pg_catalog.date AS order_date, NULL::pg_catalog.int4 AS customer_id,
	   NULL::pg_catalog.int4 AS quantity, NULL::pg_catalog.numeric AS unit_price
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
UNION ALL
SELECT 'order_line'::pg_catalog.text, oi.product_id, NULL, NULL,
	   oi.order_id, oi.line_item_id::pg_catalog.int4, o.order_date, o.customer_id,
	   oi.quantity, oi.unit_price
FROM hroe_normalized.order_items oi
JOIN hroe_normalized.orders o ON o.order_id OPERATOR(pg_catalog.=) oi.order_id
WHERE oi.product_id OPERATOR(pg_catalog.=) p_product_id
ORDER BY kind, warehouse_id, order_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_order_items(integer) IS
'pattern 8: the product''s inventory rows (kind ''inventory'': warehouse_id, quantity_on_hand) then its order lines (kind ''order_line'': order_id, line_item_id, order_date, customer_id, quantity, unit_price); the other kind''s columns are NULL; ordered by kind, warehouse_id, order_id';

-- 9
CREATE FUNCTION hroe_normalized.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT c.customer_id, c.cust_first_name::pg_catalog.text, c.cust_last_name::pg_catalog.text,
	   c.cust_email::pg_catalog.text
FROM hroe_normalized.customers c
WHERE c.account_mgr_id OPERATOR(pg_catalog.=) p_employee_id
ORDER BY c.customer_id
$$;
COMMENT ON FUNCTION hroe_normalized.rep_customers(integer) IS
'pattern 9: customers whose account manager is the employee; ordered by customer_id';

-- 10
CREATE FUNCTION hroe_normalized.rep_orders(p_employee_id integer, p_from date, p_to date,
										   p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.sales_rep_id OPERATOR(pg_catalog.=) p_employee_id
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
  AND (p_status IS NULL OR x.order_status OPERATOR(pg_catalog.=) p_status)
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.rep_orders(integer, date, date, text) IS
'pattern 10: orders whose sales rep is the employee, dated from p_from to p_to inclusive, of status p_status (NULL: any status); ordered by order_date, order_id';

-- 11
CREATE FUNCTION hroe_normalized.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_summary() AS x
WHERE x.job_title OPERATOR(pg_catalog.=) p_job_title
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employees_by_title(text) IS
'pattern 11: employees whose current job has that title (case-sensitive); ordered by employee_id';

-- 12
CREATE FUNCTION hroe_normalized.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT i.product_id, i.warehouse_id, i.quantity_on_hand
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
  AND i.warehouse_id OPERATOR(pg_catalog.=) p_warehouse_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_inventory_at(integer, integer) IS
'pattern 12: quantity on hand of the product at the warehouse; no row when the warehouse does not stock the product';

-- 13
CREATE FUNCTION hroe_normalized.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.product_id,
	   COALESCE((SELECT pg_catalog.sum(i.quantity_on_hand)
				 FROM hroe_normalized.inventories i
				 WHERE i.product_id OPERATOR(pg_catalog.=) p.product_id), 0)::pg_catalog.int8
FROM hroe_normalized.product_information p
WHERE p.product_id OPERATOR(pg_catalog.=) p_product_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_total_inventory(integer) IS
'pattern 13: total quantity on hand of the product across warehouses (0 when stocked nowhere); no row for an unknown product';

-- 14
CREATE FUNCTION hroe_normalized.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY pg_catalog.sum(o.order_total) DESC,
										 o.sales_rep_id))::pg_catalog.int4,
	   o.sales_rep_id, pg_catalog.sum(o.order_total)
FROM hroe_normalized.orders o
WHERE o.order_date OPERATOR(pg_catalog.>=) hroe.quarter_start(p_quarter)
  AND o.order_date OPERATOR(pg_catalog.<) hroe.quarter_end(p_quarter)
  AND o.sales_rep_id IS NOT NULL
  AND o.order_status OPERATOR(pg_catalog.<>) 'CANCELED'
GROUP BY o.sales_rep_id
ORDER BY 1
$$;
COMMENT ON FUNCTION hroe_normalized.rep_ranking(text) IS
'pattern 14: sales reps ranked by the total of their orders dated in the quarter (''2025-Q3''), CANCELED orders excluded, highest first; rank is 1, 2, 3... with ties broken by employee_id; ordered by rank';

-- 15
CREATE FUNCTION hroe_normalized.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.ordinal::pg_catalog.int4, p.phone_number::pg_catalog.text
FROM hroe_normalized.employees e
CROSS JOIN LATERAL pg_catalog.unnest(e.phone_numbers) WITH ORDINALITY AS p (phone_number, ordinal)
WHERE e.employee_id OPERATOR(pg_catalog.=) p_employee_id
ORDER BY p.ordinal
$$;
COMMENT ON FUNCTION hroe_normalized.employee_phones(integer) IS
'pattern 15: the employee''s phone numbers with their position in the list (1..5); ordered by ordinal';

-- 16
CREATE FUNCTION hroe_normalized.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.ordinal::pg_catalog.int4, p.phone_number::pg_catalog.text
FROM hroe_normalized.customers c
CROSS JOIN LATERAL pg_catalog.unnest(c.phone_numbers) WITH ORDINALITY AS p (phone_number, ordinal)
WHERE c.customer_id OPERATOR(pg_catalog.=) p_customer_id
ORDER BY p.ordinal
$$;
COMMENT ON FUNCTION hroe_normalized.customer_phones(integer) IS
'pattern 16: the customer''s phone numbers with their position in the list (1..5); ordered by ordinal';

-- 17
CREATE FUNCTION hroe_normalized.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT i.product_id, i.warehouse_id, i.quantity_on_hand
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
ORDER BY i.warehouse_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_inventories(integer) IS
'pattern 17: the product''s inventory at every warehouse that stocks it; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The 5 write patterns.  PL/pgSQL with a fixed search_path; each validates
-- its arguments with a clear error before writing, and takes row locks so
-- that concurrent callers never lose an update (test/specs/normalized.spec).
------------------------------------------------------------------------------

-- The checks of place_order's lines that do not look at data, shared by every
-- model's place_order so that the three raise the same errors (each model
-- then looks its products up in its own design).
CREATE FUNCTION hroe.check_order_lines(p_lines jsonb)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF jsonb_typeof(p_lines) <> 'array' OR jsonb_array_length(p_lines) = 0 THEN
		RAISE EXCEPTION 'order lines must be a non-empty JSON array'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Example: [{"product_id": 1, "quantity": 2}, {"product_id": 7, "quantity": 1, "unit_price": 9.99}]';
	END IF;
	IF jsonb_array_length(p_lines) > 999 THEN
		RAISE EXCEPTION 'an order has at most 999 lines, not %', jsonb_array_length(p_lines)
			USING ERRCODE = 'program_limit_exceeded';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_lines(jsonb) IS
'internal: the check of place_order''s p_lines shared by hroe_normalized, hroe_single and hroe_multi: a JSON array of 1 to 999 lines; raises the error, or returns';

CREATE FUNCTION hroe.parse_order_line(p_line jsonb, p_n bigint,
									  OUT product_id integer, OUT quantity integer, OUT unit_price numeric)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_key text;
	v_num numeric;
BEGIN
	IF jsonb_typeof(p_line) <> 'object' THEN
		RAISE EXCEPTION 'order line % is not a JSON object', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR v_key IN SELECT jsonb_object_keys(p_line) LOOP
		IF v_key NOT IN ('product_id', 'quantity', 'unit_price') THEN
			RAISE EXCEPTION 'order line % has an unknown attribute "%"', p_n, v_key
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'An order line has product_id, quantity and optionally unit_price.';
		END IF;
	END LOOP;
	IF jsonb_typeof(p_line -> 'product_id') IS DISTINCT FROM 'number' THEN
		RAISE EXCEPTION 'order line % needs a numeric product_id', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_num := (p_line ->> 'product_id')::numeric;
	IF v_num <> trunc(v_num) OR v_num < 1 OR v_num > 2147483647 THEN
		RAISE EXCEPTION 'order line %: invalid product_id %', p_n, v_num USING ERRCODE = 'invalid_parameter_value';
	END IF;
	product_id := v_num::integer;
	IF jsonb_typeof(p_line -> 'quantity') IS DISTINCT FROM 'number' THEN
		RAISE EXCEPTION 'order line % needs a numeric quantity', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_num := (p_line ->> 'quantity')::numeric;
	IF v_num <> trunc(v_num) OR v_num < 1 OR v_num > 2147483647 THEN
		RAISE EXCEPTION 'order line %: quantity must be a positive integer, not %', p_n, v_num
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	quantity := v_num::integer;
	unit_price := NULL;
	IF p_line ? 'unit_price' THEN
		IF jsonb_typeof(p_line -> 'unit_price') <> 'number' THEN
			RAISE EXCEPTION 'order line %: unit_price must be a number', p_n USING ERRCODE = 'invalid_parameter_value';
		END IF;
		unit_price := (p_line ->> 'unit_price')::numeric;
		IF unit_price < 0 OR unit_price > 999999.99 OR unit_price <> round(unit_price, 2) THEN
			RAISE EXCEPTION 'order line %: unit_price must be between 0 and 999999.99 with at most two decimals, not %', p_n, unit_price
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.parse_order_line(jsonb, bigint) IS
'internal: one line of place_order''s p_lines (the p_n-th), checked and parsed as every model''s place_order does: an object of product_id and quantity (positive integers) and an optional unit_price (0 to 999999.99, two decimals; NULL when absent); raises the error naming the line, or returns the values';

CREATE FUNCTION hroe.price_order_line(p_product_id integer, p_found boolean, p_list_price numeric,
									  p_unit_price numeric, p_products integer[])
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF NOT p_found THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_product_id = ANY (p_products) THEN
		RAISE EXCEPTION 'product % appears twice in the order', p_product_id
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give each product once, with the total quantity.';
	END IF;
	IF COALESCE(p_unit_price, p_list_price) IS NULL THEN
		RAISE EXCEPTION 'product % has no list price', p_product_id
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Give the line a unit_price.';
	END IF;
	RETURN COALESCE(p_unit_price, p_list_price);
END
$$;
COMMENT ON FUNCTION hroe.price_order_line(integer, boolean, numeric, numeric, integer[]) IS
'internal: the checks of a parsed place_order line against the product the model looked up, shared by the three models: p_found whether the product exists, p_list_price its list price, p_unit_price the line''s own price (NULL: none), p_products the products of the earlier lines; raises the error (unknown product, product twice, no price), or returns the line''s unit price';

-- The ids of the products place_order's lines name, without checking the
-- lines (parse_order_line does, line by line): what a model looks up, in
-- one request, before hroe.price_order_lines walks the lines.
CREATE FUNCTION hroe.order_line_product_ids(p_lines jsonb)
RETURNS integer[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT ARRAY(
	SELECT DISTINCT v::numeric::integer AS id
	FROM jsonb_path_query(p_lines,
		'lax $[*].product_id ? (@.type() == "number" && @ == @.floor() && @ >= 1 && @ <= 2147483647)') v
	ORDER BY id)
$$;
COMMENT ON FUNCTION hroe.order_line_product_ids(jsonb) IS
'internal: the distinct product ids place_order''s lines name, ascending (valid integer ids only; malformed lines are left to hroe.parse_order_line), for a model to look its products up before hroe.price_order_lines';

-- place_order's lines walked once for every model: each line parsed and
-- checked in array order against the products the model found, so the
-- three raise the same error for the same bad line.
CREATE FUNCTION hroe.price_order_lines(p_lines jsonb, p_list_prices jsonb,
									   OUT products integer[], OUT quantities integer[],
									   OUT prices numeric[], OUT total numeric)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_line jsonb;
	v_n bigint;
	v_product integer;
	v_quantity integer;
	v_price numeric;
	v_found jsonb := COALESCE(p_list_prices, '{}');
BEGIN
	products := '{}';
	quantities := '{}';
	prices := '{}';
	total := 0;
	FOR v_line, v_n IN SELECT l.value, l.ordinality FROM jsonb_array_elements(p_lines) WITH ORDINALITY l LOOP
		SELECT l.product_id, l.quantity, l.unit_price INTO v_product, v_quantity, v_price
		FROM hroe.parse_order_line(v_line, v_n) l;
		v_price := hroe.price_order_line(v_product, v_found ? v_product::text,
										 (v_found ->> v_product::text)::numeric, v_price, products);
		products := products || v_product;
		quantities := quantities || v_quantity;
		prices := prices || v_price;
		total := total + v_price * v_quantity;
	END LOOP;
	PERFORM hroe.check_order_total(total);
END
$$;
COMMENT ON FUNCTION hroe.price_order_lines(jsonb, jsonb) IS
'internal: place_order''s lines (already checked by hroe.check_order_lines) parsed and priced in array order, shared by the three models: p_list_prices maps each product the model found (hroe.order_line_product_ids) to its list price (JSON null: none); raises the first line''s error (hroe.parse_order_line, hroe.price_order_line) or a total above 999999.99, or returns the products, quantities and unit prices in line order and the total';

CREATE FUNCTION hroe.check_order_total(p_total numeric)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_total > 999999.99 THEN
		RAISE EXCEPTION 'order total % exceeds 999999.99', p_total USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_total(numeric) IS
'internal: place_order''s check of an order''s total, shared by the three models: at most 999999.99 (numeric(8,2) in hroe_normalized); raises the error, or returns';

CREATE FUNCTION hroe.check_order_status(p_status text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_status IS NULL OR p_status NOT IN ('OPEN', 'SHIPPED', 'CLOSED', 'CANCELED') THEN
		RAISE EXCEPTION 'invalid order status "%"', p_status
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'An order status is OPEN, SHIPPED, CLOSED or CANCELED.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_status(text) IS
'internal: the order status check of place_order and change_order_status, shared by the three models: OPEN, SHIPPED, CLOSED or CANCELED; raises the error, or returns';

CREATE FUNCTION hroe.check_order_id(p_order_id bigint)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_order_id IS NOT NULL AND p_order_id <= 0 THEN
		RAISE EXCEPTION 'order id must be positive, not %', p_order_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_id(bigint) IS
'internal: place_order''s check of a given order id, shared by the three models: positive (NULL: the model''s sequence picks one); raises the error, or returns';

CREATE FUNCTION hroe.check_status_change(p_order_id bigint, p_old text, p_new text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF (p_old, p_new) NOT IN (('OPEN', 'SHIPPED'), ('OPEN', 'CANCELED'), ('SHIPPED', 'CLOSED')) THEN
		RAISE EXCEPTION 'order % cannot change from % to %', p_order_id, p_old, p_new
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'An OPEN order becomes SHIPPED or CANCELED, a SHIPPED order becomes CLOSED.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_status_change(bigint, text, text) IS
'internal: change_order_status''s transition check, shared by the three models: OPEN to SHIPPED or CANCELED, SHIPPED to CLOSED; raises the error, or returns';

CREATE FUNCTION hroe_normalized.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
											p_sales_rep_id integer DEFAULT NULL,
											p_status text DEFAULT 'OPEN',
											p_order_id bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_order_id bigint;
	v_products integer[];
	v_quantities integer[];
	v_prices numeric[];
	v_total numeric;
BEGIN
	IF p_customer_id IS NULL OR p_order_date IS NULL OR p_lines IS NULL OR p_status IS NULL THEN
		RAISE EXCEPTION 'customer, order date, lines and status must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_order_date) THEN
		RAISE EXCEPTION 'order date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe.check_order_status(p_status);
	PERFORM hroe.check_order_id(p_order_id);
	PERFORM FROM hroe_normalized.customers WHERE customer_id = p_customer_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.employees WHERE employee_id = p_sales_rep_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(p.product_id, p.list_price)
		 FROM hroe_normalized.product_information p
		 WHERE p.product_id = ANY (hroe.order_line_product_ids(p_lines)))) l;

	-- The id is taken only once everything is valid, so a rejected order
	-- does not consume one; the caller may impose it (the comparison passes
	-- the normalized model's id to the other models).
	v_order_id := COALESCE(p_order_id, nextval('hroe_normalized.order_id_seq'));
	INSERT INTO hroe_normalized.orders
		(order_id, order_date, order_mode, customer_id, order_status, order_total, sales_rep_id)
	VALUES (v_order_id, p_order_date,
			CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END,
			p_customer_id, p_status, v_total, p_sales_rep_id);
	INSERT INTO hroe_normalized.order_items (order_id, line_item_id, product_id, unit_price, quantity)
	SELECT v_order_id, l.n, l.product_id, l.unit_price, l.quantity
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order with its lines (a JSON array of {"product_id", "quantity", optional "unit_price" defaulting to the list price}); order_mode is direct with a sales rep, online without; order_total is the sum of the lines; returns the order id, the next value of order_id_seq unless p_order_id is given';

CREATE FUNCTION hroe_normalized.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_old text;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	SELECT order_status INTO v_old FROM hroe_normalized.orders WHERE order_id = p_order_id FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	UPDATE hroe_normalized.orders SET order_status = p_status WHERE order_id = p_order_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED; any other change is an error';

CREATE FUNCTION hroe_normalized.change_employee_job(p_employee_id integer, p_job_id text,
													p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_emp hroe_normalized.employees;
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT * INTO v_emp FROM hroe_normalized.employees WHERE employee_id = p_employee_id FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'employee % does not exist', p_employee_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_job_id = v_emp.job_id AND p_department_id IS NOT DISTINCT FROM v_emp.department_id THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_start_date <= v_emp.job_start_date THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_emp.job_start_date
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	INSERT INTO hroe_normalized.job_history (employee_id, start_date, end_date, job_id, department_id)
	VALUES (p_employee_id, v_emp.job_start_date, p_start_date - 1, v_emp.job_id, v_emp.department_id);
	UPDATE hroe_normalized.employees
	SET job_id = p_job_id, department_id = p_department_id, job_start_date = p_start_date
	WHERE employee_id = p_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date; the current job goes to job_history, ending the day before';

CREATE FUNCTION hroe_normalized.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_on_hand integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM FROM hroe_normalized.product_information WHERE product_id = p_product_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.warehouses WHERE warehouse_id = p_warehouse_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_delta >= 0 THEN
		-- atomic under concurrency: the conflict path updates the locked row
		INSERT INTO hroe_normalized.inventories AS i (product_id, warehouse_id, quantity_on_hand)
		VALUES (p_product_id, p_warehouse_id, p_delta)
		ON CONFLICT (product_id, warehouse_id)
		DO UPDATE SET quantity_on_hand = i.quantity_on_hand + excluded.quantity_on_hand
		RETURNING i.quantity_on_hand INTO v_on_hand;
	ELSE
		-- the condition is rechecked on the latest row version after a lock wait
		UPDATE hroe_normalized.inventories i
		SET quantity_on_hand = i.quantity_on_hand + p_delta
		WHERE i.product_id = p_product_id AND i.warehouse_id = p_warehouse_id
		  AND i.quantity_on_hand + p_delta >= 0
		RETURNING i.quantity_on_hand INTO v_on_hand;
		IF NOT FOUND THEN
			SELECT i.quantity_on_hand INTO v_on_hand FROM hroe_normalized.inventories i
			WHERE i.product_id = p_product_id AND i.warehouse_id = p_warehouse_id;
			RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
				USING ERRCODE = 'check_violation',
					  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
		END IF;
	END IF;
	RETURN v_on_hand;
END
$$;
COMMENT ON FUNCTION hroe_normalized.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the stock of a product at a warehouse and returns the new quantity on hand; stock never goes below zero (an error instead)';

-- The argument checks every model's hire_employee makes before it looks at
-- its data (each model then checks job, department, manager and email in its
-- own design): one definition, so the three raise the same errors.
CREATE FUNCTION hroe.check_hire_arguments(p_first_name text, p_last_name text, p_email text,
										  p_hire_date date, p_job_id text, p_phone_numbers text[],
										  p_salary numeric, p_commission_pct numeric, p_employee_id integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_last_name IS NULL OR p_email IS NULL OR p_hire_date IS NULL OR p_job_id IS NULL
	   OR p_phone_numbers IS NULL THEN
		RAISE EXCEPTION 'last name, email, hire date, job and phone numbers must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_hire_date) THEN
		RAISE EXCEPTION 'hire date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_employee_id IS NOT NULL AND p_employee_id <= 0 THEN
		RAISE EXCEPTION 'employee id must be positive, not %', p_employee_id USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_salary IS NOT NULL AND (p_salary <= 0 OR p_salary > 999999.99 OR p_salary <> round(p_salary, 2)) THEN
		RAISE EXCEPTION 'salary must be positive, at most 999999.99, with at most two decimals, not %', p_salary
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_commission_pct IS NOT NULL
	   AND (p_commission_pct < 0 OR p_commission_pct > 0.99 OR p_commission_pct <> round(p_commission_pct, 2)) THEN
		RAISE EXCEPTION 'commission must be between 0 and 0.99 with at most two decimals, not %', p_commission_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the column limits, checked here so that a rejected hire consumes no id
	IF length(p_first_name) > 20 OR length(p_last_name) > 25 OR length(p_email) > 25 THEN
		RAISE EXCEPTION 'first name, last name or email too long'
			USING ERRCODE = 'string_data_right_truncation',
				  DETAIL = 'A first name has at most 20 characters, a last name and an email at most 25.';
	END IF;
	IF cardinality(p_phone_numbers) > 5 THEN
		RAISE EXCEPTION 'an employee has at most 5 phone numbers, not %', cardinality(p_phone_numbers)
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF cardinality(p_phone_numbers) > 0
	   AND (array_ndims(p_phone_numbers) <> 1 OR array_position(p_phone_numbers, NULL) IS NOT NULL
			OR EXISTS (SELECT FROM unnest(p_phone_numbers) p WHERE length(p) > 25)) THEN
		RAISE EXCEPTION 'phone numbers must be a list of non-NULL texts of at most 25 characters'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_hire_arguments(text, text, text, date, text, text[], numeric, numeric, integer) IS
'internal: the argument checks of hire_employee shared by hroe_normalized, hroe_single and hroe_multi (NULLs, a finite hire date, a positive id, salary, commission, name and email lengths, at most 5 phone numbers); raises the error, or returns';

CREATE FUNCTION hroe_normalized.hire_employee(p_first_name text, p_last_name text, p_email text,
											  p_hire_date date, p_job_id text, p_department_id integer,
											  p_phone_numbers text[] DEFAULT '{}',
											  p_manager_id integer DEFAULT NULL,
											  p_salary numeric DEFAULT NULL,
											  p_commission_pct numeric DEFAULT NULL,
											  p_employee_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_employee_id integer;
	v_other integer;
BEGIN
	PERFORM hroe.check_hire_arguments(p_first_name, p_last_name, p_email, p_hire_date, p_job_id,
									  p_phone_numbers, p_salary, p_commission_pct, p_employee_id);
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_manager_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.employees WHERE employee_id = p_manager_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	SELECT employee_id INTO v_other FROM hroe_normalized.employees WHERE email = p_email;
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_normalized.employee_id_seq')::integer);
	INSERT INTO hroe_normalized.employees
		(employee_id, first_name, last_name, email, phone_numbers, hire_date, job_id,
		 job_start_date, salary, commission_pct, manager_id, department_id)
	VALUES (v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers, p_hire_date, p_job_id,
			p_hire_date, p_salary, p_commission_pct, p_manager_id, p_department_id);
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an employee whose current job starts on the hire date and returns the id, the next value of employee_id_seq unless p_employee_id is given';
