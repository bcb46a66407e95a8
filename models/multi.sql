
-- hroe_multi: AWS's 2025 multi-table design of the HR/OE example (seed 002)
-- on hroe's tables: Employee, Customer, Order (header and line items in one
-- partition), Product (metadata and per-warehouse inventory in one
-- partition), plus RepQuarterTotal for the ranking the seed dropped.
--
-- The tables and GSIs are made by hroe.create_table and hroe.create_index:
-- generated key columns pk [, sk] extracted from the item, the item, a
-- primary key on (pk [, sk]); each GSI adds one STORED generated column per
-- key attribute ("<Index>_pk1", "<Index>_sk1"..., NULL when the attribute is
-- absent) and a partial btree index "<Table>.<Index>" on (GSI keys...,
-- table keys) WHERE every GSI key column IS NOT NULL: a sparse GSI.  The
-- read patterns are SQL over them; each reads only attributes its index
-- projects.  Key formats (README): emp_/cust_/prod_/wh_ + 10 digits,
-- ord_ + 19 digits (zero-padded, so byte order is numeric order), dates
-- YYYY-MM-DD.

CREATE SCHEMA hroe_multi;
COMMENT ON SCHEMA hroe_multi IS
'hroe: AWS''s 2025 multi-table design of HR/OE (tables Employee, Customer, Order, Product, RepQuarterTotal and their GSIs), with the 17 read patterns and 5 write patterns';

------------------------------------------------------------------------------
-- Keys
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.employee_key(p_employee_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('emp_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_employee_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.employee_key(integer) IS
'internal: The key of employee n: emp_ and n in 10 digits (emp_0000000100); NULL for NULL (not STRICT, so that it is inlined); a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.customer_key(p_customer_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('cust_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_customer_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.customer_key(integer) IS
'internal: The key of customer n: cust_ and n in 10 digits (cust_0000000007); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.product_key(p_product_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('prod_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_product_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.product_key(integer) IS
'internal: The key of product n: prod_ and n in 10 digits (prod_0000000001); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.warehouse_key(p_warehouse_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('wh_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_warehouse_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.warehouse_key(integer) IS
'internal: The key of warehouse n: wh_ and n in 10 digits (wh_0000000004); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.order_key(p_order_id bigint)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('ord_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_order_id::pg_catalog.text, 19, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.order_key(bigint) IS
'internal: The key of order n: ord_ and n in 19 digits, enough for any bigint (ord_0000000000000000042); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.key_number(p_key text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr(p_key, pg_catalog.strpos(p_key, '_') OPERATOR(pg_catalog.+) 1)::pg_catalog.int8
$$;
COMMENT ON FUNCTION hroe_multi.key_number(text) IS
'internal: The id in an entity key: the digits after the first underscore (emp_0000000100 gives 100)';

CREATE FUNCTION hroe_multi.date_key(p_date date)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text(CASE
	WHEN p_date OPERATOR(pg_catalog.=) '-infinity'::pg_catalog.date THEN '-'
	WHEN p_date OPERATOR(pg_catalog.=) 'infinity'::pg_catalog.date THEN '~'
	ELSE pg_catalog.lpad(pg_catalog.date_part('year', p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
		 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
		 pg_catalog.lpad(pg_catalog.date_part('month', p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
		 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
		 pg_catalog.lpad(pg_catalog.date_part('day', p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
	END)
$$;
COMMENT ON FUNCTION hroe_multi.date_key(date) IS
'internal: A date as a sort key, ISO YYYY-MM-DD (byte order is date order for years 1 to 9999); -infinity gives ''-'' and infinity ''~'', below and above every date, for open-ended ranges; NULL for NULL (not STRICT, so that it is inlined)';

CREATE FUNCTION hroe_multi.quarter_of(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.date_part('year', p_date)::pg_catalog.int4::pg_catalog.text OPERATOR(pg_catalog.||) '-Q'
	   OPERATOR(pg_catalog.||) pg_catalog.date_part('quarter', p_date)::pg_catalog.int4::pg_catalog.text
$$;
COMMENT ON FUNCTION hroe_multi.quarter_of(date) IS
'internal: The quarter of a date as rep_ranking names it (2025-08-15 gives ''2025-Q3'')';

CREATE FUNCTION hroe_multi.search_key(p_value text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.octet_length(p_value) OPERATOR(pg_catalog.>=) 1
			 AND pg_catalog.octet_length(p_value) OPERATOR(pg_catalog.<=) 2048
			THEN hroe.key_from_text(p_value) END
$$;
COMMENT ON FUNCTION hroe_multi.search_key(text) IS
'internal: A read pattern''s text argument as a key value: NULL (no item matches) for NULL, the empty string or more than 2048 bytes, which no key can be (not STRICT, so that it is inlined)';

-- The table key of an item (verify() pairs expected and actual items by it)
CREATE FUNCTION hroe_multi.key_s(p_item hroe.item, p_attribute text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT hroe.key_from_text(hroe.item_get_text(p_item, p_attribute))
$$;
COMMENT ON FUNCTION hroe_multi.key_s(hroe.item, text) IS
'internal: An S attribute of an item as hroe.key: NULL when absent, an error when of another type or empty';

------------------------------------------------------------------------------
-- Tables and GSIs, made by hroe.create_table and hroe.create_index: each
-- table is hroe_multi."<Table>" (pk [, sk] generated from the item, item,
-- primary key), each GSI adds the generated columns "<Index>_pk1"...
-- "<Index>_sk1"... and the partial btree "<Table>.<Index>".  They are
-- registered in hroe.tables / hroe.indexes, so hroe.get_item, hroe.query
-- and the capacity accounting work on them too.
------------------------------------------------------------------------------

-- Employee: partition key employee_id (S), no sort key.  Besides one item
-- per employee it holds one uniqueness item per email (employee_id
-- EMAIL#<email>), DynamoDB's pattern for a unique attribute; those items
-- have no GSI key attribute, so no GSI holds them.
SELECT hroe.create_table('Employee', 'employee_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Employee', 'EmployeeByName', '{name}', '{employee_id}', '{"name": "S"}', 'INCLUDE',
	'{entity_type, first_name, last_name, email, phone_numbers, hire_date, salary, commission_pct, manager_id, job_id, job_title, job_start_date, department_id, department_name, location_id, city, country_name, region_name, warehouse_id}');
SELECT hroe.create_index('Employee', 'EmployeeByWarehouse', '{warehouse_id}', '{employee_id}', '{"warehouse_id": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, job_title, hire_date, department_id}');
SELECT hroe.create_index('Employee', 'EmployeeByJobTitle', '{job_title}', '{employee_id}', '{"job_title": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, warehouse_id, hire_date, department_id}');
SELECT hroe.create_index('Employee', 'EmployeeByHireDate', '{entity_type}', '{hire_date}',
	'{"entity_type": "S", "hire_date": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, job_title, warehouse_id, department_id}');
COMMENT ON TABLE hroe_multi."Employee" IS
'DynamoDB table Employee (hroe_multi): partition key employee_id S; one item per employee (profile, phones, current job, department, location, warehouse) and one uniqueness item per email';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByName" IS
'GSI EmployeeByName of Employee: partition key name, sort key employee_id; INCLUDE every employee attribute';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByWarehouse" IS
'GSI EmployeeByWarehouse of Employee: partition key warehouse_id, sort key employee_id; INCLUDE name, first_name, last_name, job_id, job_title, hire_date, department_id';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByJobTitle" IS
'GSI EmployeeByJobTitle of Employee: partition key job_title, sort key employee_id; INCLUDE name, first_name, last_name, job_id, warehouse_id, hire_date, department_id';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByHireDate" IS
'GSI EmployeeByHireDate of Employee: partition key entity_type (always EMPLOYEE), sort key hire_date; INCLUDE name, first_name, last_name, job_id, job_title, warehouse_id, department_id';

-- Customer: partition key customer_id (S)
SELECT hroe.create_table('Customer', 'customer_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Customer', 'CustomerByAccountRep', '{account_rep_id}', '{customer_id}',
	'{"account_rep_id": "S"}', 'INCLUDE', '{first_name, last_name, email}');
COMMENT ON TABLE hroe_multi."Customer" IS
'DynamoDB table Customer (hroe_multi): partition key customer_id S; one item per customer with its phone list and account_rep_id';
COMMENT ON INDEX hroe_multi."Customer.CustomerByAccountRep" IS
'GSI CustomerByAccountRep of Customer: partition key account_rep_id, sort key customer_id; INCLUDE first_name, last_name, email (sparse: customers without an account manager are not in it)';

-- Order: partition key order_id, sort key SK (the order's own key for the
-- header, the product key for a line item)
SELECT hroe.create_table('Order', 'order_id', 'S', 'SK', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Order', 'OrderByCustomerDate', '{customer_id}', '{order_date}',
	'{"customer_id": "S", "order_date": "S"}',
	'INCLUDE', '{status, order_mode, account_rep_id, total_amount, order_items, shard}');
SELECT hroe.create_index('Order', 'OpenOrdersByDate', '{status, shard}', '{order_date}',
	'{"status": "S", "shard": "N", "order_date": "S"}',
	'INCLUDE', '{customer_id, account_rep_id, order_mode, order_items, total_amount}');
SELECT hroe.create_index('Order', 'OrderByAccountRep', '{account_rep_id}', '{order_date}',
	'{"account_rep_id": "S", "order_date": "S"}',
	'INCLUDE', '{customer_id, status, order_mode, total_amount}');
SELECT hroe.create_index('Order', 'ProductInOrders', '{product_id}', '{order_id}', '{"product_id": "S"}',
	'INCLUDE', '{line_item_id, quantity, unit_price, order_context}');
COMMENT ON TABLE hroe_multi."Order" IS
'DynamoDB table Order (hroe_multi): partition key order_id S, sort key SK S; per order a header item (SK = the order key) and one item per line (SK = the product key), in one partition';
COMMENT ON INDEX hroe_multi."Order.OrderByCustomerDate" IS
'GSI OrderByCustomerDate of Order: partition key customer_id, sort key order_date; INCLUDE status, order_mode, account_rep_id, total_amount, order_items, shard (headers only)';
COMMENT ON INDEX hroe_multi."Order.OpenOrdersByDate" IS
'GSI OpenOrdersByDate of Order: multi-attribute partition key (status, shard), sort key order_date; INCLUDE customer_id, account_rep_id, order_mode, order_items, total_amount; sparse: only OPEN headers carry shard (hroe.shard_of(order id, 5))';
COMMENT ON INDEX hroe_multi."Order.OrderByAccountRep" IS
'GSI OrderByAccountRep of Order: partition key account_rep_id, sort key order_date; INCLUDE customer_id, status, order_mode, total_amount (headers of orders with a sales rep)';
COMMENT ON INDEX hroe_multi."Order.ProductInOrders" IS
'GSI ProductInOrders of Order: partition key product_id, sort key order_id; INCLUDE line_item_id, quantity, unit_price, order_context (line items only)';

-- Product: partition key product_id, sort key SK (the product's own key for
-- the metadata item, the warehouse key for an inventory item)
SELECT hroe.create_table('Product', 'product_id', 'S', 'SK', 'S', p_schema => 'hroe_multi');
COMMENT ON TABLE hroe_multi."Product" IS
'DynamoDB table Product (hroe_multi): partition key product_id S, sort key SK S; per product a metadata item with the maintained total_inventory (SK = the product key) and one inventory item per warehouse stocking it (SK = the warehouse key)';

-- RepQuarterTotal: partition key quarter, sort key employee_id; one item
-- per sales rep and quarter with orders, its total maintained by the writes
SELECT hroe.create_table('RepQuarterTotal', 'quarter', 'S', 'employee_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('RepQuarterTotal', 'RepQuarterRanking', '{quarter}', '{rank_key}', '{"rank_key": "S"}',
	'INCLUDE', '{total}');
COMMENT ON TABLE hroe_multi."RepQuarterTotal" IS
'DynamoDB table RepQuarterTotal (hroe_multi, not in the seed): partition key quarter S, sort key employee_id S; per sales rep and quarter the maintained total and count of its orders (CANCELED excluded) and a rank_key ordering by amount';
COMMENT ON INDEX hroe_multi."RepQuarterTotal.RepQuarterRanking" IS
'GSI RepQuarterRanking of RepQuarterTotal: partition key quarter, sort key rank_key (15-digit 999999999999999 - total in cents, #, employee key: ascending = total descending, ties by employee); INCLUDE total';

-- Ids for place_order and hire_employee when the caller gives none
CREATE SEQUENCE hroe_multi.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_multi.order_id_seq IS
'next order id for hroe_multi.place_order (CACHE 1; load_from_normalized sets it to the normalized model''s)';
CREATE SEQUENCE hroe_multi.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_multi.employee_id_seq IS
'next employee id for hroe_multi.hire_employee (CACHE 1; load_from_normalized sets it to the normalized model''s)';

SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Employee"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Customer"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Order"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Product"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."RepQuarterTotal"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi.employee_id_seq', '');

------------------------------------------------------------------------------
-- Item builders: the one definition of every item, used by the load, the
-- write patterns and verify(), so that all three produce the same items.
-- NULL arguments leave the attribute out (DynamoDB has no NULL columns).
------------------------------------------------------------------------------

-- DynamoDB JSON of an S or N value, NULL for NULL: the builders below write
-- the items as DynamoDB JSON text (several times faster than jsonb_build_object)
-- and leave out the attributes whose value is NULL (concat_ws skips NULLs).
CREATE FUNCTION hroe_multi.json_s(p_value text)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT '{"S":' OPERATOR(pg_catalog.||) pg_catalog.to_json(p_value)::pg_catalog.text OPERATOR(pg_catalog.||) '}'
$$;
COMMENT ON FUNCTION hroe_multi.json_s(text) IS
'internal: The DynamoDB JSON of a string value ({"S": "..."}, JSON-escaped); NULL for NULL';

CREATE FUNCTION hroe_multi.json_n(p_value numeric)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT '{"N":"' OPERATOR(pg_catalog.||) p_value::pg_catalog.text OPERATOR(pg_catalog.||) '"}'
$$;
COMMENT ON FUNCTION hroe_multi.json_n(numeric) IS
'internal: The DynamoDB JSON of a number value ({"N": "..."}); NULL for NULL';

-- The current job of an employee, with its department, location and
-- warehouse, from the HR reference data (jobs, departments, locations,
-- countries, regions, warehouses: no write pattern changes them, and the
-- seed models no table for them).  NULL when the job does not exist.
CREATE FUNCTION hroe_multi.job_attributes(p_job_id text, p_department_id integer, p_start_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'job_id', j.job_id::pg_catalog.text,
	'job_title', j.job_title::pg_catalog.text,
	'job_start_date', hroe_multi.date_key(p_start_date)::pg_catalog.text,
	'department_id', d.department_id,
	'department_name', d.department_name::pg_catalog.text,
	'location_id', l.location_id,
	'city', l.city::pg_catalog.text,
	'country_name', c.country_name::pg_catalog.text,
	'region_name', r.region_name::pg_catalog.text,
	'warehouse_id', hroe_multi.warehouse_key(w.warehouse_id)::pg_catalog.text)))
FROM hroe_normalized.jobs j
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) p_department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id OPERATOR(pg_catalog.=) d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id OPERATOR(pg_catalog.=) l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id OPERATOR(pg_catalog.=) c.region_id
LEFT JOIN hroe_normalized.warehouses w ON w.location_id OPERATOR(pg_catalog.=) l.location_id
WHERE j.job_id OPERATOR(pg_catalog.=) p_job_id
$$;
COMMENT ON FUNCTION hroe_multi.job_attributes(text, integer, date) IS
'internal: The current-job attributes of an Employee item (job_id, job_title, job_start_date, department_id, department_name, location_id, city, country_name, region_name, warehouse_id), looked up in the HR reference data; NULL for an unknown job';

CREATE FUNCTION hroe_multi.employee_item(p_employee_id integer, p_first_name text, p_last_name text,
										 p_email text, p_phone_numbers text[], p_hire_date date,
										 p_salary numeric, p_commission_pct numeric, p_manager_id integer,
										 p_job_id text, p_department_id integer, p_job_start_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'employee_id', hroe_multi.employee_key(p_employee_id)::pg_catalog.text,
	'entity_type', 'EMPLOYEE',
	'name', COALESCE(p_first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) p_last_name,
	'first_name', p_first_name,
	'last_name', p_last_name,
	'email', p_email,
	'phone_numbers', pg_catalog.to_jsonb(COALESCE(p_phone_numbers, '{}'::pg_catalog.text[])),
	'hire_date', hroe_multi.date_key(p_hire_date)::pg_catalog.text,
	'salary', p_salary,
	'commission_pct', p_commission_pct,
	'manager_id', p_manager_id)))
	   OPERATOR(hroe.||) hroe_multi.job_attributes(p_job_id, p_department_id, p_job_start_date)
$$;
COMMENT ON FUNCTION hroe_multi.employee_item(integer, text, text, text, text[], date, numeric, numeric, integer, text, integer, date) IS
'internal: The Employee item of an employee: key, entity_type EMPLOYEE, name (first name, a space, last name), profile, phone list, hire date, and the current job attributes of job_attributes()';

CREATE FUNCTION hroe_multi.email_item(p_email text, p_employee_id integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_build_object(
	'employee_id', 'EMAIL#' OPERATOR(pg_catalog.||) p_email,
	'email_owner', hroe_multi.employee_key(p_employee_id)::pg_catalog.text))
$$;
COMMENT ON FUNCTION hroe_multi.email_item(text, integer) IS
'internal: The uniqueness item of an email in the Employee table: employee_id EMAIL#<email>, email_owner the employee''s key';

CREATE FUNCTION hroe_multi.customer_item(p_customer_id integer, p_first_name text, p_last_name text,
										 p_email text, p_phone_numbers text[], p_account_mgr_id integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'customer_id', hroe_multi.customer_key(p_customer_id)::pg_catalog.text,
	'first_name', p_first_name,
	'last_name', p_last_name,
	'email', p_email,
	'phone_numbers', pg_catalog.to_jsonb(COALESCE(p_phone_numbers, '{}'::pg_catalog.text[])),
	'account_rep_id', hroe_multi.employee_key(p_account_mgr_id)::pg_catalog.text)))
$$;
COMMENT ON FUNCTION hroe_multi.customer_item(integer, text, text, text, text[], integer) IS
'internal: The Customer item: key, first_name, last_name, email, phone list, account_rep_id (the account manager''s key; absent without one)';

CREATE FUNCTION hroe_multi.order_header_item(p_order_id bigint, p_customer_id integer, p_order_date date,
											 p_status text, p_order_mode text, p_sales_rep_id integer,
											 p_order_total numeric, p_promotion_id integer,
											 p_order_items text[])
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"order_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"customer_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.customer_key(p_customer_id)::pg_catalog.text),
	'"order_date":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.date_key(p_order_date)::pg_catalog.text),
	'"status":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_status),
	'"order_mode":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_order_mode),
	'"account_rep_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.employee_key(p_sales_rep_id)::pg_catalog.text),
	'"total_amount":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_order_total),
	'"promotion_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_promotion_id),
	'"order_items":{"L":[' OPERATOR(pg_catalog.||) pg_catalog.array_to_string(COALESCE(p_order_items, '{}'), ',')
		OPERATOR(pg_catalog.||) ']}',
	'"shard":' OPERATOR(pg_catalog.||)
		hroe_multi.json_n(CASE WHEN p_status OPERATOR(pg_catalog.=) 'OPEN' THEN hroe.shard_of(p_order_id, 5) END))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.order_header_item(bigint, integer, date, text, text, integer, numeric, integer, text[]) IS
'internal: The header item of an order (SK = the order key): customer_id, order_date, status, order_mode, account_rep_id (the order''s sales rep), total_amount, promotion_id, order_items (the list of order_items_entry() of the lines, in line order), and shard = hroe.shard_of(order id, 5) only while OPEN';

CREATE FUNCTION hroe_multi.order_items_entry(p_product_id integer, p_quantity integer)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT '{"M":{"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text)
	   OPERATOR(pg_catalog.||) ',"qty":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity) OPERATOR(pg_catalog.||) '}}'
$$;
COMMENT ON FUNCTION hroe_multi.order_items_entry(integer, integer) IS
'internal: One entry of an order header''s order_items list, as in the seed, in DynamoDB JSON: a map of product_id (the product key) and qty';

CREATE FUNCTION hroe_multi.order_line_item(p_order_id bigint, p_line_item_id integer, p_product_id integer,
										   p_quantity integer, p_unit_price numeric,
										   p_customer_id integer, p_order_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"order_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"line_item_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_line_item_id),
	'"quantity":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity),
	'"unit_price":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_unit_price),
	'"order_context":{"M":{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
		'"customer_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.customer_key(p_customer_id)::pg_catalog.text),
		'"order_date":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.date_key(p_order_date)::pg_catalog.text))
		OPERATOR(pg_catalog.||) '}}')
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.order_line_item(bigint, integer, integer, integer, numeric, integer, date) IS
'internal: A line item of an order (SK = the product key): product_id, line_item_id, quantity, unit_price, and the order''s customer and date in the map order_context (top-level customer_id/order_date would put the line into OrderByCustomerDate)';

CREATE FUNCTION hroe_multi.product_item(p_product_id integer, p_product_name text, p_category_id integer,
										p_list_price numeric, p_product_status text, p_total_inventory bigint)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"product_name":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_product_name),
	'"category_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_category_id),
	'"unit_price":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_list_price),
	'"product_status":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_product_status),
	'"total_inventory":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_total_inventory))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.product_item(integer, text, integer, numeric, text, bigint) IS
'internal: The metadata item of a product (SK = the product key): product_name, category_id, unit_price (the list price), product_status, total_inventory (maintained: the sum of its inventory items)';

CREATE FUNCTION hroe_multi.inventory_item(p_product_id integer, p_warehouse_id integer, p_quantity integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.warehouse_key(p_warehouse_id)::pg_catalog.text),
	'"inventory_quantity":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.inventory_item(integer, integer, integer) IS
'internal: The inventory item of a product at a warehouse (SK = the warehouse key): inventory_quantity';

CREATE FUNCTION hroe_multi.rank_key(p_total numeric, p_employee_id integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_cents numeric := round(p_total * 100);
BEGIN
	IF v_cents < 0 OR v_cents > 999999999999999 THEN
		RAISE EXCEPTION 'a quarter total of % is out of the ranking''s range', p_total
			USING ERRCODE = 'numeric_value_out_of_range',
				  DETAIL = 'Totals from 0 to 9999999999999.99 are ranked.';
	END IF;
	RETURN lpad((999999999999999 - v_cents)::text, 15, '0') || '#' || hroe_multi.employee_key(p_employee_id)::text;
END
$$;
COMMENT ON FUNCTION hroe_multi.rank_key(numeric, integer) IS
'internal: The ranking sort key of a rep''s quarter total: 999999999999999 minus the total in cents in 15 digits, #, the employee key; ascending order is total descending, ties by employee';

CREATE FUNCTION hroe_multi.rep_quarter_item(p_quarter text, p_employee_id integer, p_total numeric,
											p_order_count bigint)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"quarter":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_quarter),
	'"employee_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.employee_key(p_employee_id)::pg_catalog.text),
	'"total":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_total),
	'"order_count":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_order_count),
	'"rank_key":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.rank_key(p_total, p_employee_id)))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.rep_quarter_item(text, integer, numeric, bigint) IS
'internal: The RepQuarterTotal item of a sales rep and quarter: total and count of the rep''s orders dated in it (CANCELED excluded), rank_key';

------------------------------------------------------------------------------
-- The mapping from hroe_normalized: every item the model must hold
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.normalized_items()
RETURNS TABLE (table_name text, item hroe.item)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'Employee'::pg_catalog.text,
	   hroe_multi.employee_item(e.employee_id, e.first_name, e.last_name, e.email, e.phone_numbers::pg_catalog.text[],
								e.hire_date, e.salary, e.commission_pct, e.manager_id, e.job_id,
								e.department_id, e.job_start_date)
FROM hroe_normalized.employees e
UNION ALL
SELECT 'Employee', hroe_multi.email_item(e.email, e.employee_id)
FROM hroe_normalized.employees e
UNION ALL
SELECT 'Customer',
	   hroe_multi.customer_item(c.customer_id, c.cust_first_name, c.cust_last_name, c.cust_email,
								c.phone_numbers::pg_catalog.text[], c.account_mgr_id)
FROM hroe_normalized.customers c
UNION ALL
SELECT 'Order',
	   hroe_multi.order_header_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
									o.sales_rep_id, o.order_total, o.promotion_id, l.order_items)
FROM hroe_normalized.orders o
LEFT JOIN (SELECT i.order_id,
				  pg_catalog.array_agg(hroe_multi.order_items_entry(i.product_id, i.quantity)
									   ORDER BY i.line_item_id) AS order_items
		   FROM hroe_normalized.order_items i GROUP BY i.order_id) l
	ON l.order_id OPERATOR(pg_catalog.=) o.order_id
UNION ALL
SELECT 'Order',
	   hroe_multi.order_line_item(i.order_id, i.line_item_id, i.product_id, i.quantity, i.unit_price,
								  o.customer_id, o.order_date)
FROM hroe_normalized.order_items i
JOIN hroe_normalized.orders o ON o.order_id OPERATOR(pg_catalog.=) i.order_id
UNION ALL
SELECT 'Product',
	   hroe_multi.product_item(p.product_id, p.product_name, p.category_id, p.list_price, p.product_status,
							   COALESCE(t.total, 0))
FROM hroe_normalized.product_information p
LEFT JOIN (SELECT i.product_id, pg_catalog.sum(i.quantity_on_hand)::pg_catalog.int8 AS total
		   FROM hroe_normalized.inventories i GROUP BY i.product_id) t
	ON t.product_id OPERATOR(pg_catalog.=) p.product_id
UNION ALL
SELECT 'Product', hroe_multi.inventory_item(i.product_id, i.warehouse_id, i.quantity_on_hand)
FROM hroe_normalized.inventories i
UNION ALL
SELECT 'RepQuarterTotal', hroe_multi.rep_quarter_item(q.quarter, q.sales_rep_id, q.total, q.order_count)
FROM (SELECT hroe_multi.quarter_of(o.order_date) AS quarter, o.sales_rep_id,
			 pg_catalog.sum(o.order_total) AS total, pg_catalog.count(*) AS order_count
	  FROM hroe_normalized.orders o
	  WHERE o.sales_rep_id IS NOT NULL AND o.order_status OPERATOR(pg_catalog.<>) 'CANCELED'
	  GROUP BY 1, 2) q
$$;
COMMENT ON FUNCTION hroe_multi.normalized_items()
IS 'internal: Every item hroe_multi holds for the data in hroe_normalized, with its table name: what load_from_normalized() inserts and verify() compares against';

CREATE FUNCTION hroe_multi.load_from_normalized()
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text;
	v_rows bigint;
	v_ddl text[];
BEGIN
	TRUNCATE hroe_multi."Employee", hroe_multi."Customer", hroe_multi."Order", hroe_multi."Product",
		hroe_multi."RepQuarterTotal";
	FOREACH v_table IN ARRAY ARRAY['Employee', 'Customer', 'Order', 'Product', 'RepQuarterTotal'] LOOP
		-- the GSIs are built once the items are in (twice as fast as
		-- maintaining them item by item), with their names and comments
		-- (hroe.indexes names them, so its rows stay valid)
		v_ddl := hroe.drop_secondary_indexes(ARRAY[format('hroe_multi.%I', v_table)::regclass]);
		EXECUTE format('INSERT INTO hroe_multi.%I (item) SELECT n.item FROM hroe_multi.normalized_items() n WHERE n.table_name = %L',
					   v_table, v_table);
		GET DIAGNOSTICS v_rows = ROW_COUNT;
		PERFORM hroe.execute_ddl(v_ddl);
		EXECUTE format('ANALYZE hroe_multi.%I', v_table);
		table_name := 'hroe_multi.' || v_table; row_count := v_rows; RETURN NEXT;
	END LOOP;
	PERFORM setval('hroe_multi.order_id_seq', last_value, is_called) FROM hroe_normalized.order_id_seq;
	PERFORM setval('hroe_multi.employee_id_seq', last_value, is_called) FROM hroe_normalized.employee_id_seq;
END
$$;
COMMENT ON FUNCTION hroe_multi.load_from_normalized() IS
'Replaces hroe_multi''s content with the mapping of hroe_normalized (normalized_items()) and sets its id sequences to the normalized ones; called by hroe.load; returns the items per table';

CREATE FUNCTION hroe_multi.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
-- sk is the table key's second part, or '-' for a table without a sort key
WITH actual AS (
	SELECT 'Employee'::text AS t, e.pk, '-'::hroe.key AS sk, e.item FROM hroe_multi."Employee" e
	UNION ALL SELECT 'Customer', c.pk, '-'::hroe.key, c.item FROM hroe_multi."Customer" c
	UNION ALL SELECT 'Order', o.pk, o.sk, o.item FROM hroe_multi."Order" o
	UNION ALL SELECT 'Product', p.pk, p.sk, p.item FROM hroe_multi."Product" p
	UNION ALL SELECT 'RepQuarterTotal', r.pk, r.sk, r.item FROM hroe_multi."RepQuarterTotal" r
), expected AS (
	SELECT n.table_name AS t,
		   hroe_multi.key_s(n.item, CASE n.table_name WHEN 'Employee' THEN 'employee_id' WHEN 'Customer' THEN 'customer_id'
											   WHEN 'Order' THEN 'order_id' WHEN 'Product' THEN 'product_id'
											   ELSE 'quarter' END) AS pk,
		   COALESCE(hroe_multi.key_s(n.item, CASE n.table_name WHEN 'Order' THEN 'SK' WHEN 'Product' THEN 'SK'
														WHEN 'RepQuarterTotal' THEN 'employee_id' END),
					'-'::hroe.key) AS sk,
		   n.item
	FROM hroe_multi.normalized_items() n
), pairs AS (
	SELECT COALESCE(e.t, a.t) AS t, COALESCE(e.pk, a.pk) AS pk, COALESCE(e.sk, a.sk) AS sk,
		   e.item AS expected_item, a.item AS actual_item
	FROM expected e
	FULL JOIN actual a ON a.t = e.t AND a.pk OPERATOR(hroe.=) e.pk AND a.sk OPERATOR(hroe.=) e.sk
	WHERE a.item IS NULL OR e.item IS NULL OR a.item OPERATOR(hroe.<>) e.item
)
SELECT 'hroe_multi'::text,
	   p.t || ' ' || p.pk::text || CASE WHEN p.t IN ('Order', 'Product', 'RepQuarterTotal')
										THEN ' ' || p.sk::text ELSE '' END,
	   CASE WHEN p.actual_item IS NULL THEN 'missing item'
			WHEN p.expected_item IS NULL THEN 'unexpected item'
			ELSE format('attribute %s is %s, expected %s', d.name,
						COALESCE(hroe.item_get_attribute(p.actual_item, d.name)::text, 'absent'),
						COALESCE(hroe.item_get_attribute(p.expected_item, d.name)::text, 'absent'))
	   END
FROM pairs p
LEFT JOIN LATERAL (
	SELECT a.name
	FROM (SELECT unnest(hroe.item_attributes(p.expected_item))
		  UNION SELECT unnest(hroe.item_attributes(p.actual_item))) AS a (name)
	WHERE hroe.item_get_attribute(p.expected_item, a.name) IS DISTINCT FROM hroe.item_get_attribute(p.actual_item, a.name)
) d ON p.actual_item IS NOT NULL AND p.expected_item IS NOT NULL
ORDER BY 2, 3
$$;
COMMENT ON FUNCTION hroe_multi.verify() IS
'Recomputes every item of hroe_multi from hroe_normalized (normalized_items(): the maintained totals, the denormalized rep, customer and date, the OPEN shard, the embedded job and location...) and reports each missing, unexpected or differing item, one row per differing attribute; empty when the model is exact';

------------------------------------------------------------------------------
-- Row shape: the columns of patterns 1 and 2 (the Employee item whole),
-- an SQL set-returning function of one SELECT without FROM, not STRICT,
-- without SET: called LATERAL, PostgreSQL inlines it and pulls it up, so
-- the plan is the one of the expressions written in place.  The other
-- patterns that return the same columns (4, 5 and 10; 6, 7 and 11) keep
-- their own lists on purpose: each reads what its index stores (a key
-- column of that GSI, or a projected attribute), so no two lists are alike.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.employee_profile(p_pk hroe.key, p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p_pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'email'), hroe.item_get_string_list(p_item, 'phone_numbers'),
	   hroe.item_get_text(p_item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'job_id'), hroe.item_get_text(p_item, 'job_title'),
	   hroe.item_get_text(p_item, 'job_start_date')::pg_catalog.date,
	   pg_catalog.round(hroe.item_get_number(p_item, 'salary'), 2),
	   pg_catalog.round(hroe.item_get_number(p_item, 'commission_pct'), 2),
	   hroe.item_get_number(p_item, 'manager_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'department_name'),
	   hroe.item_get_number(p_item, 'location_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'city'), hroe.item_get_text(p_item, 'country_name'),
	   hroe.item_get_text(p_item, 'region_name')
$$;
COMMENT ON FUNCTION hroe_multi.employee_profile(hroe.key, hroe.item) IS
'internal: row shape of patterns 1 and 2: an Employee item (its key and attributes) as hroe_normalized.employee_by_id''s columns; inlined where it is called LATERAL';

------------------------------------------------------------------------------
-- The 17 read patterns, each one GetItem or one Query (product_order_items:
-- two Queries; open_orders: the sharded Query over the 5 shards of
-- OpenOrdersByDate).  STABLE SQL, one SELECT, not STRICT, no SET: inlined,
-- so EXPLAIN shows the index scans.  Every name is schema-qualified.  Each
-- reads only the attributes its index projects (the README's tables).
------------------------------------------------------------------------------

-- 1: GetItem Employee
CREATE FUNCTION hroe_multi.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_multi."Employee" e,
	 LATERAL hroe_multi.employee_profile(e.pk, e.item) AS x
WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
$$;
COMMENT ON FUNCTION hroe_multi.employee_by_id(integer) IS
'pattern 1: GetItem Employee employee_id = emp_<id>; the columns of hroe_normalized.employee_by_id; zero or one row';

-- 2: Query EmployeeByName (INCLUDE every attribute)
CREATE FUNCTION hroe_multi.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_multi."Employee" e,
	 LATERAL hroe_multi.employee_profile(e.pk, e.item) AS x
WHERE e."EmployeeByName_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_full_name)
  AND e."EmployeeByName_sk1" IS NOT NULL
ORDER BY e."EmployeeByName_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.employee_by_name(text) IS
'pattern 2: Query EmployeeByName name = the full name; the columns of employee_by_id; ordered by employee_id (the GSI sort key)';

-- 3: GetItem Employee, projection of the current-job attributes
CREATE FUNCTION hroe_multi.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'department_name'),
	   hroe.item_get_text(e.item, 'job_start_date')::pg_catalog.date
FROM hroe_multi."Employee" e
WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
$$;
COMMENT ON FUNCTION hroe_multi.employee_current_job(integer) IS
'pattern 3: GetItem Employee employee_id = emp_<id>, ProjectionExpression job_id, job_title, department_id, department_name, job_start_date (the current job lives on the Employee item); zero or one row';

-- 4: Query OrderByCustomerDate, FilterExpression on status
CREATE FUNCTION hroe_multi.customer_orders(p_customer_id integer, p_from date, p_to date,
										   p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(o."OrderByCustomerDate_pk1"::pg_catalog.text)::pg_catalog.int4,
	   o."OrderByCustomerDate_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(o.item, 'status'), hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'account_rep_id'))::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe_multi."Order" o
WHERE o."OrderByCustomerDate_pk1" OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id)
  AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_from)
  AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key(p_to)
  AND (p_status IS NULL OR hroe.item_get_text(o.item, 'status') OPERATOR(pg_catalog.=) p_status)
ORDER BY o."OrderByCustomerDate_sk1", o.pk
$$;
COMMENT ON FUNCTION hroe_multi.customer_orders(integer, date, date, text) IS
'pattern 4: Query OrderByCustomerDate customer_id = cust_<id> AND order_date BETWEEN from AND to, FilterExpression status = p_status (NULL: any); ordered by order_date, order_id';

-- 5: the sharded Query of OpenOrdersByDate: status = OPEN and shard = 0..4,
-- order_date BETWEEN from AND to, merged (hroe.sharded_query).  No ORDER BY:
-- the merge's order is the contract's.  It orders by the sort key, then by
-- the index's key columns after it, and hroe.create_index puts the table
-- key there (the index is (status, shard, order_date, order_id, SK)), so
-- equal dates come in order_id order; the sharded query is the only node.
CREATE FUNCTION hroe_multi.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'customer_id'))::pg_catalog.int4,
	   o."OpenOrdersByDate_sk1"::pg_catalog.text::pg_catalog.date,
	   o."OpenOrdersByDate_pk1"::pg_catalog.text, hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'account_rep_id'))::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe.sharded_query(NULL::hroe_multi."Order", 'hroe_multi."Order.OpenOrdersByDate"'::pg_catalog.regclass, 5,
						'between', hroe_multi.date_key(p_from), hroe_multi.date_key(p_to),
						p_prefix => '{OPEN}'::pg_catalog.text[]) o
WHERE p_from OPERATOR(pg_catalog.<=) p_to
$$;
COMMENT ON FUNCTION hroe_multi.open_orders(date, date) IS
'pattern 5: Query OpenOrdersByDate (status, shard) = (OPEN, 0..4) AND order_date BETWEEN from AND to, the 5 shards merged by hroe.sharded_query; ordered by order_date, order_id (the merge''s order: sort key, then the table key the index carries after it)';

-- 6: Query EmployeeByHireDate, static partition key EMPLOYEE
CREATE FUNCTION hroe_multi.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   e."EmployeeByHireDate_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByHireDate_pk1" OPERATOR(hroe.=) 'EMPLOYEE'::hroe.key
  AND e."EmployeeByHireDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_since)
ORDER BY e."EmployeeByHireDate_sk1", e.pk
$$;
COMMENT ON FUNCTION hroe_multi.employees_hired_since(date) IS
'pattern 6: Query EmployeeByHireDate entity_type = EMPLOYEE AND hire_date >= since; ordered by hire_date, employee_id';

-- 7: Query EmployeeByWarehouse
CREATE FUNCTION hroe_multi.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   hroe.item_get_text(e.item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByWarehouse_pk1" OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
  AND e."EmployeeByWarehouse_sk1" IS NOT NULL
ORDER BY e."EmployeeByWarehouse_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.warehouse_employees(integer) IS
'pattern 7: Query EmployeeByWarehouse warehouse_id = wh_<id>; ordered by employee_id';

-- 8: two Queries: Product product_id = p AND begins_with(SK, wh_), and
-- ProductInOrders product_id = p
CREATE FUNCTION hroe_multi.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'inventory'::pg_catalog.text AS kind, hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4 AS warehouse_id,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4,
	   NULL::pg_catalog.int8 AS order_id, NULL::pg_catalog.int4, NULL::pg_catalog.date,
	   NULL::pg_catalog.int4, NULL::pg_catalog.int4, NULL::pg_catalog.numeric
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
UNION ALL
SELECT 'order_line'::pg_catalog.text, hroe_multi.key_number(o."ProductInOrders_pk1"::pg_catalog.text)::pg_catalog.int4,
	   NULL, NULL, hroe_multi.key_number(o."ProductInOrders_sk1"::pg_catalog.text),
	   hroe.item_get_number(o.item, 'line_item_id')::pg_catalog.int4,
	   hroe.item_get_text(o.item, 'order_context.order_date')::pg_catalog.date,
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'order_context.customer_id'))::pg_catalog.int4,
	   hroe.item_get_number(o.item, 'quantity')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'unit_price'), 2)
FROM hroe_multi."Order" o
WHERE o."ProductInOrders_pk1" OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND o."ProductInOrders_sk1" IS NOT NULL
ORDER BY kind, warehouse_id, order_id
$$;
COMMENT ON FUNCTION hroe_multi.product_order_items(integer) IS
'pattern 8, two Queries: Product product_id = prod_<id> AND begins_with(SK, wh_) (kind inventory), then ProductInOrders product_id = prod_<id> (kind order_line); ordered by kind, warehouse_id, order_id';

-- 9: Query CustomerByAccountRep
CREATE FUNCTION hroe_multi.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(c.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(c.item, 'first_name'), hroe.item_get_text(c.item, 'last_name'),
	   hroe.item_get_text(c.item, 'email')
FROM hroe_multi."Customer" c
WHERE c."CustomerByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
  AND c."CustomerByAccountRep_sk1" IS NOT NULL
ORDER BY c."CustomerByAccountRep_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.rep_customers(integer) IS
'pattern 9: Query CustomerByAccountRep account_rep_id = emp_<id>; ordered by customer_id';

-- 10: Query OrderByAccountRep, FilterExpression on status
CREATE FUNCTION hroe_multi.rep_orders(p_employee_id integer, p_from date, p_to date,
									  p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'customer_id'))::pg_catalog.int4,
	   o."OrderByAccountRep_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(o.item, 'status'), hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(o."OrderByAccountRep_pk1"::pg_catalog.text)::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe_multi."Order" o
WHERE o."OrderByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
  AND o."OrderByAccountRep_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_from)
  AND o."OrderByAccountRep_sk1" OPERATOR(hroe.<=) hroe_multi.date_key(p_to)
  AND (p_status IS NULL OR hroe.item_get_text(o.item, 'status') OPERATOR(pg_catalog.=) p_status)
ORDER BY o."OrderByAccountRep_sk1", o.pk
$$;
COMMENT ON FUNCTION hroe_multi.rep_orders(integer, date, date, text) IS
'pattern 10: Query OrderByAccountRep account_rep_id = emp_<id> AND order_date BETWEEN from AND to, FilterExpression status = p_status (NULL: any); ordered by order_date, order_id';

-- 11: Query EmployeeByJobTitle
CREATE FUNCTION hroe_multi.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   hroe.item_get_text(e.item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), e."EmployeeByJobTitle_pk1"::pg_catalog.text,
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByJobTitle_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_job_title)
  AND e."EmployeeByJobTitle_sk1" IS NOT NULL
ORDER BY e."EmployeeByJobTitle_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.employees_by_title(text) IS
'pattern 11: Query EmployeeByJobTitle job_title = the title (the current job''s); ordered by employee_id';

-- 12: GetItem Product (product, warehouse)
CREATE FUNCTION hroe_multi.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
$$;
COMMENT ON FUNCTION hroe_multi.product_inventory_at(integer, integer) IS
'pattern 12: GetItem Product product_id = prod_<id>, SK = wh_<id>; no row when the warehouse does not stock the product';

-- 13: GetItem Product metadata, projection total_inventory
CREATE FUNCTION hroe_multi.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'total_inventory')::pg_catalog.int8
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
$$;
COMMENT ON FUNCTION hroe_multi.product_total_inventory(integer) IS
'pattern 13: GetItem Product product_id = SK = prod_<id>, ProjectionExpression total_inventory (maintained by adjust_inventory); no row for an unknown product';

-- 14: Query RepQuarterRanking (forward: total descending, ties by employee)
CREATE FUNCTION hroe_multi.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY r."RepQuarterRanking_sk1"))::pg_catalog.int4,
	   hroe_multi.key_number(r.sk::pg_catalog.text)::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(r.item, 'total'), 2)
FROM hroe_multi."RepQuarterTotal" r
WHERE r."RepQuarterRanking_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_quarter)
  AND r."RepQuarterRanking_sk1" IS NOT NULL
  AND hroe.quarter_start(p_quarter) IS NOT NULL
ORDER BY r."RepQuarterRanking_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.rep_ranking(text) IS
'pattern 14: Query RepQuarterRanking quarter = p_quarter (''2025-Q3'', checked by hroe.quarter_start), in sort-key order: the maintained totals, highest first, ties by employee_id; rank 1, 2, 3...';

-- (Patterns 15 and 16 repeat their two-column shape instead of sharing a
-- row-shape function: the shape is set-returning in its select list
-- (generate_subscripts and unnest in step), and PostgreSQL does not pull up
-- a subquery with set-returning functions in its target list: called
-- LATERAL, a shared function turns the plan's one ProjectSet over the index
-- scan into a Nested Loop over a ProjectSet and a Result per item.)
-- 15: GetItem Employee, projection phone_numbers
CREATE FUNCTION hroe_multi.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(e.item, 'phone_numbers') AS phones
	  FROM hroe_multi."Employee" e
	  WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)) p
$$;
COMMENT ON FUNCTION hroe_multi.employee_phones(integer) IS
'pattern 15: GetItem Employee employee_id = emp_<id>, ProjectionExpression phone_numbers (a list); one row per phone with its position (1, 2, ...), in list order (the two set-returning functions run in step: no sort)';

-- 16: GetItem Customer, projection phone_numbers
CREATE FUNCTION hroe_multi.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(c.item, 'phone_numbers') AS phones
	  FROM hroe_multi."Customer" c
	  WHERE c.pk OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id)) p
$$;
COMMENT ON FUNCTION hroe_multi.customer_phones(integer) IS
'pattern 16: GetItem Customer customer_id = cust_<id>, ProjectionExpression phone_numbers (a list); one row per phone with its position (1, 2, ...), in list order (no sort)';

-- 17: Query Product product_id = p AND begins_with(SK, wh_)
CREATE FUNCTION hroe_multi.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
ORDER BY p.sk
$$;
COMMENT ON FUNCTION hroe_multi.product_inventories(integer) IS
'pattern 17: Query Product product_id = prod_<id> AND begins_with(SK, wh_): the inventory items, not the metadata item; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The 5 write patterns, with the names, arguments, checks, errors and
-- results of hroe_normalized's.  PL/pgSQL with a fixed search_path.  Every
-- derived item changes in the same transaction as its source, and row locks
-- are taken in one canonical order (Order header, then RepQuarterTotal;
-- Product metadata, then inventory item), so concurrent callers neither lose
-- an update nor deadlock (test/specs/multi.spec).  The HR reference data
-- (jobs, departments, locations, warehouses) is read from hroe_normalized,
-- which the seed's four tables do not model and no write pattern changes.
------------------------------------------------------------------------------

-- Adds an order's total to (p_sign 1) or removes it from (p_sign -1) its
-- rep's quarter item, creating or deleting the item; atomic under concurrency.
CREATE FUNCTION hroe_multi.count_rep_quarter(p_sales_rep_id integer, p_order_date date, p_total numeric,
											 p_sign integer)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_quarter text := hroe_multi.quarter_of(p_order_date);
	v_item hroe.item;
	v_count numeric;
BEGIN
	IF p_sign = 1 THEN
		-- the conflict path updates the locked, latest version of the item
		INSERT INTO hroe_multi."RepQuarterTotal" AS r (item)
		VALUES (hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id, p_total, 1))
		ON CONFLICT (pk, sk) DO UPDATE
		SET item = hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id,
											   hroe.item_get_number(r.item, 'total') + p_total,
											   hroe.item_get_number(r.item, 'order_count')::bigint + 1);
	ELSE
		SELECT r.item INTO v_item FROM hroe_multi."RepQuarterTotal" r
		WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
		  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id)
		FOR UPDATE;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'hroe_multi: no RepQuarterTotal item for employee % in %', p_sales_rep_id, v_quarter
				USING ERRCODE = 'data_corrupted', HINT = 'SELECT * FROM hroe_multi.verify() lists the model''s inconsistencies.';
		END IF;
		v_count := hroe.item_get_number(v_item, 'order_count') - 1;
		IF v_count = 0 THEN
			DELETE FROM hroe_multi."RepQuarterTotal" r
			WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
			  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		ELSE
			UPDATE hroe_multi."RepQuarterTotal" r
			SET item = hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id,
												   hroe.item_get_number(v_item, 'total') - p_total, v_count::bigint)
			WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
			  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_multi.count_rep_quarter(integer, date, numeric, integer) IS
'internal: write helper: adds an order total to (p_sign 1) or removes it from (p_sign -1) the RepQuarterTotal item of its sales rep and quarter, creating the item or deleting it with its last order';

CREATE FUNCTION hroe_multi.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
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
	v_customer hroe.item;
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
	-- GetItem Customer
	PERFORM FROM hroe_multi."Customer" c WHERE c.pk OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		-- GetItem Employee
		PERFORM FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	-- GetItem Product metadata, projection unit_price (the list price), for
	-- each product (BatchGetItem)
	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(id, hroe.item_get_number(p.item, 'unit_price'))
		 FROM unnest(hroe.order_line_product_ids(p_lines)) AS id
		 JOIN hroe_multi."Product" p
		   ON p.pk OPERATOR(hroe.=) hroe_multi.product_key(id)
		  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(id))) l;

	-- One transaction writes the header, the lines and the rep's quarter
	-- total (TransactWriteItems in DynamoDB, with attribute_not_exists on
	-- the header: a taken order id is a unique violation here).
	v_order_id := COALESCE(p_order_id, nextval('hroe_multi.order_id_seq'));
	INSERT INTO hroe_multi."Order" (item)
	SELECT hroe_multi.order_header_item(v_order_id, p_customer_id, p_order_date, p_status,
										CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END,
										p_sales_rep_id, v_total, NULL,
										ARRAY(SELECT hroe_multi.order_items_entry(l.product_id, l.quantity)
											  FROM unnest(v_products, v_quantities) WITH ORDINALITY AS l (product_id, quantity, n)
											  ORDER BY l.n))
	UNION ALL
	SELECT hroe_multi.order_line_item(v_order_id, l.n::integer, l.product_id, l.quantity, l.unit_price,
									  p_customer_id, p_order_date)
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	IF p_sales_rep_id IS NOT NULL AND p_status <> 'CANCELED' THEN
		PERFORM hroe_multi.count_rep_quarter(p_sales_rep_id, p_order_date, v_total, 1);
	END IF;
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_multi.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order (as hroe_normalized.place_order: same lines, checks, errors and id rules): the header item with its total, order_items and OPEN shard, one item per line, and the sales rep''s RepQuarterTotal, in one transaction; returns the order id';

CREATE FUNCTION hroe_multi.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_old text;
	v_new hroe.item;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	SELECT o.item INTO v_item FROM hroe_multi."Order" o
	WHERE o.pk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	  AND o.sk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	v_old := hroe.item_get_text(v_item, 'status');
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	-- UpdateItem SET status REMOVE shard: leaving OPEN takes the header out
	-- of the sparse OpenOrdersByDate
	v_new := hroe.item_remove_attribute(v_item, 'shard')
			 OPERATOR(hroe.||) ('{"status":' || hroe_multi.json_s(p_status) || '}')::hroe.item;
	UPDATE hroe_multi."Order" o SET item = v_new
	WHERE o.pk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	  AND o.sk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id);
	IF p_status = 'CANCELED' AND hroe.item_exists(v_item, 'account_rep_id') THEN
		PERFORM hroe_multi.count_rep_quarter(hroe_multi.key_number(hroe.item_get_text(v_item, 'account_rep_id'))::integer,
											 hroe.item_get_text(v_item, 'order_date')::date,
											 hroe.item_get_number(v_item, 'total_amount'), -1);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_multi.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED (any other change is an error); leaving OPEN removes the shard attribute, so the header leaves OpenOrdersByDate; CANCELED removes the total from the rep''s RepQuarterTotal';

CREATE FUNCTION hroe_multi.change_employee_job(p_employee_id integer, p_job_id text,
											   p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_start date;
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT e.item INTO v_item FROM hroe_multi."Employee" e
	WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
	FOR UPDATE;
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
	IF p_job_id = hroe.item_get_text(v_item, 'job_id')
	   AND p_department_id IS NOT DISTINCT FROM hroe.item_get_number(v_item, 'department_id')::integer THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_start := hroe.item_get_text(v_item, 'job_start_date')::date;
	IF p_start_date <= v_start THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_start
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- UpdateItem: the current-job attributes are replaced (the seed keeps no
	-- job history; hroe_normalized.job_history has it)
	UPDATE hroe_multi."Employee" e
	SET item = hroe.item_remove(v_item, 'job_id', 'job_title', 'job_start_date', 'department_id', 'department_name',
								'location_id', 'city', 'country_name', 'region_name', 'warehouse_id')
			   OPERATOR(hroe.||) hroe_multi.job_attributes(p_job_id, p_department_id, p_start_date)
	WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id);
END
$$;
COMMENT ON FUNCTION hroe_multi.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date (checks and errors of hroe_normalized.change_employee_job): the Employee item''s job, title, start date, department, location and warehouse are replaced, moving it between EmployeeByJobTitle and EmployeeByWarehouse partitions';

CREATE FUNCTION hroe_multi.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_meta hroe.item;
	v_on_hand integer;
	v_new integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the metadata item first: its lock serializes every change of the
	-- product's stock, so the inventory item and the total move together
	SELECT p.item INTO v_meta FROM hroe_multi."Product" p
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.warehouses WHERE warehouse_id = p_warehouse_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	SELECT hroe.item_get_number(p.item, 'inventory_quantity')::integer INTO v_on_hand
	FROM hroe_multi."Product" p
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
	FOR UPDATE;
	IF COALESCE(v_on_hand, 0) + p_delta::bigint < 0 THEN
		RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
			USING ERRCODE = 'check_violation',
				  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
	END IF;
	v_new := COALESCE(v_on_hand, 0) + p_delta;
	IF v_on_hand IS NULL THEN
		INSERT INTO hroe_multi."Product" (item) VALUES (hroe_multi.inventory_item(p_product_id, p_warehouse_id, v_new));
	ELSE
		UPDATE hroe_multi."Product" p SET item = hroe_multi.inventory_item(p_product_id, p_warehouse_id, v_new)
		WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
		  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id);
	END IF;
	UPDATE hroe_multi."Product" p
	SET item = v_meta OPERATOR(hroe.||)
			   ('{"total_inventory":' || hroe_multi.json_n(hroe.item_get_number(v_meta, 'total_inventory') + p_delta) || '}')::hroe.item
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id);
	RETURN v_new;
END
$$;
COMMENT ON FUNCTION hroe_multi.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the inventory item of a product at a warehouse, creating it, and to the product''s total_inventory, in one transaction; stock never goes below zero (the error of hroe_normalized.adjust_inventory); returns the new quantity on hand';

CREATE FUNCTION hroe_multi.hire_employee(p_first_name text, p_last_name text, p_email text,
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
	v_other text;
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
		PERFORM FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_manager_id);
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	-- GetItem of the email's uniqueness item
	SELECT hroe.item_get_text(e.item, 'email_owner') INTO v_other FROM hroe_multi."Employee" e
	WHERE e.pk OPERATOR(hroe.=) hroe.key_from_text('EMAIL#' || p_email);
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, hroe_multi.key_number(v_other)
			USING ERRCODE = 'unique_violation';
	END IF;
	-- One transaction puts the uniqueness item and the employee; a
	-- concurrent hire of the same email waits, then fails on the primary
	-- key (attribute_not_exists in DynamoDB's TransactWriteItems)
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_multi.employee_id_seq')::integer);
	BEGIN
		INSERT INTO hroe_multi."Employee" (item)
		VALUES (hroe_multi.email_item(p_email, v_employee_id)),
			   (hroe_multi.employee_item(v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers,
										 p_hire_date, p_salary, p_commission_pct, p_manager_id, p_job_id,
										 p_department_id, p_hire_date));
	EXCEPTION WHEN unique_violation THEN
		-- a concurrent hire took the email first: the same error as above
		SELECT hroe.item_get_text(e.item, 'email_owner') INTO v_other FROM hroe_multi."Employee" e
		WHERE e.pk OPERATOR(hroe.=) hroe.key_from_text('EMAIL#' || p_email);
		IF FOUND THEN
			RAISE EXCEPTION 'email "%" is already used by employee %', p_email, hroe_multi.key_number(v_other)
				USING ERRCODE = 'unique_violation';
		END IF;
		RAISE;
	END;
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_multi.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an Employee item whose current job starts on the hire date, and the email''s uniqueness item (checks and errors of hroe_normalized.hire_employee); returns the id, the next value of hroe_multi.employee_id_seq unless p_employee_id is given';
