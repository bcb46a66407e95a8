
-- hroe_single: the HR/OE data as one DynamoDB table (AWS's adjacency-list
-- design, its published bugs fixed; README "The single-table model").
--
-- One PostgreSQL table holds every item, made by hroe.create_table and
-- hroe.create_index as the DynamoDB table "hroe_single" (so hroe.get_item,
-- hroe.query, ... work on it too): the item (hroe.item) is the only stored
-- truth; the key columns PK and SK and the index keys GSI1_SK, GSI2_PK and
-- GSI4_SK are STORED generated columns read from its attributes by
-- hroe.item_key_s/_n (NULL when an index key is absent, so the partial
-- indexes are sparse exactly as DynamoDB's GSIs are).
--   table  PRIMARY KEY (pk, sk)
--   GSI1   (sk, gsi1_sk, pk)        overloaded: partition = the table's SK
--   GSI2   (gsi2_pk, gsi1_sk, ...)  write-sharded, sparse: OPEN orders only
--   GSI3   ("GSI3_pk1", pk, sk)     reverse lookup of GSI1_SK
--   GSI4   (sk, gsi4_sk, pk)        date-first order keys (status "any")
-- Ids in keys are zero-padded (10 digits, order ids 19) and dates ISO
-- (YYYY-MM-DD), because DynamoDB compares keys as bytes.

CREATE SCHEMA hroe_single;
COMMENT ON SCHEMA hroe_single IS
'hroe: the HR/OE data as one DynamoDB table (adjacency list, overloaded, write-sharded, sparse and reverse-lookup GSIs), with the 17 read patterns and 5 write patterns of hroe_normalized';

------------------------------------------------------------------------------
-- Key pieces.  IMMUTABLE or STABLE SQL expressions, not STRICT, without SET:
-- PostgreSQL inlines them into the patterns and folds them for constants.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.id10(p_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(p_id::pg_catalog.text, 10, '0')
$$;
COMMENT ON FUNCTION hroe_single.id10(integer) IS
'internal: an integer id as it appears in keys: zero-padded to 10 digits (every positive integer fits), so byte order is numeric order';

CREATE FUNCTION hroe_single.id19(p_id bigint)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(p_id::pg_catalog.text, 19, '0')
$$;
COMMENT ON FUNCTION hroe_single.id19(bigint) IS
'internal: an order id as it appears in keys: zero-padded to 19 digits (every positive bigint fits), so byte order is numeric order';

CREATE FUNCTION hroe_single.day(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_date OPERATOR(pg_catalog.<) '0001-01-01'::pg_catalog.date THEN '!'
			WHEN p_date OPERATOR(pg_catalog.>) '9999-12-31'::pg_catalog.date THEN '~'
			ELSE pg_catalog.lpad(EXTRACT(YEAR FROM p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
				 OPERATOR(pg_catalog.||) '-'
				 OPERATOR(pg_catalog.||) pg_catalog.lpad(EXTRACT(MONTH FROM p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
				 OPERATOR(pg_catalog.||) '-'
				 OPERATOR(pg_catalog.||) pg_catalog.lpad(EXTRACT(DAY FROM p_date)::pg_catalog.int4::pg_catalog.text, 2, '0') END
$$;
COMMENT ON FUNCTION hroe_single.day(date) IS
'internal: a date as it appears in keys and items: YYYY-MM-DD (byte order is date order); in a query bound, ''!'' below year 1 (before every stored date) and ''~'' above 9999 (after every one); the writes refuse such dates';

CREATE FUNCTION hroe_single.make_key(p_prefix text, p_rest text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.octet_length(p_prefix OPERATOR(pg_catalog.||) p_rest) OPERATOR(pg_catalog.<=) 2048
			THEN (p_prefix OPERATOR(pg_catalog.||) p_rest)::hroe.key END
$$;
COMMENT ON FUNCTION hroe_single.make_key(text, text) IS
'internal: the key p_prefix || p_rest; NULL when either is NULL or the key would exceed DynamoDB''s 2048 bytes (no item can have it, so a lookup finds nothing)';

CREATE FUNCTION hroe_single.status_key(p_status text, p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_status OPERATOR(pg_catalog.=) ANY ('{OPEN,SHIPPED,CLOSED,CANCELED}'::pg_catalog.text[])
			THEN p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_date) END
$$;
COMMENT ON FUNCTION hroe_single.status_key(text, date) IS
'internal: the STATUS#DATE prefix of an order''s GSI1_SK, the lower bound of a status and date range; NULL for any other status (no item has it)';

CREATE FUNCTION hroe_single.quarter_of(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(EXTRACT(YEAR FROM p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
	   OPERATOR(pg_catalog.||) '-Q' OPERATOR(pg_catalog.||) EXTRACT(QUARTER FROM p_date)::pg_catalog.int4::pg_catalog.text
$$;
COMMENT ON FUNCTION hroe_single.quarter_of(date) IS
'internal: the quarter of a date as rep_ranking names it: ''2025-Q3''';

------------------------------------------------------------------------------
-- The table and its indexes.
------------------------------------------------------------------------------

-- hroe.create_table makes the table "hroe_single" (generated pk, sk, the
-- item); it is renamed items, the name every pattern reads (hroe.tables
-- holds its regclass, which a rename keeps).  hroe.create_index with
-- p_share_key_columns adds the GSIs: an index key the table key or an
-- earlier index already extracts reuses that column, so SK is stored once
-- (sk) for the table, GSI1 and GSI4, and GSI1_SK once (gsi1_sk) for GSI1's
-- and GSI2's sort key.  GSI3's partition key GSI1_SK has a column of its own
-- ("GSI3_pk1"): a HASH key column stores keys over 192 bytes in their index
-- form (a prefix and a SHA-256, so that a 2048-byte key fits the btree),
-- whose order is not the keys', so it cannot serve a sort key.
-- Each GSI's NOT VALID CHECK constraint rejects writes that violate its key
-- schema with DynamoDB's errors (E11, empty or oversized index key).
SELECT hroe.create_table('hroe_single', 'PK', 'S', 'SK', 'S', p_schema => 'hroe_single');
ALTER TABLE hroe_single.hroe_single RENAME TO items;
ALTER INDEX hroe_single.hroe_single_pkey RENAME TO items_pkey;
COMMENT ON TABLE hroe_single.items IS
'the single table, DynamoDB table hroe_single (hroe.create_table, hroe.create_index): every HR/OE entity and edge as a DynamoDB item; pk and sk are generated from the item''s PK and SK, gsi1_sk (and GSI3_pk1, GSI3''s partition key), gsi2_pk and gsi4_sk from GSI1_SK, GSI2_PK and GSI4_SK';
-- GSI1, overloaded: partition = SK, sort = GSI1_SK (sparse on GSI1_SK)
SELECT hroe.create_index('hroe_single', 'GSI1', '{SK}', '{GSI1_SK}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI2, write-sharded and sparse: partition = shard 0..N-1, only OPEN orders
SELECT hroe.create_index('hroe_single', 'GSI2', '{GSI2_PK}', '{GSI1_SK}', '{"GSI2_PK": "N", "GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI3, reverse lookup: partition = GSI1_SK (a column of its own, "GSI3_pk1")
SELECT hroe.create_index('hroe_single', 'GSI3', '{GSI1_SK}', '{}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI4: partition = SK, sort = DATE#ORDER, only orders and order->rep edges
SELECT hroe.create_index('hroe_single', 'GSI4', '{SK}', '{GSI4_SK}', '{"GSI4_SK": "S"}',
						 p_share_key_columns => true);

SELECT pg_catalog.pg_extension_config_dump('hroe_single.items', '');

CREATE SEQUENCE hroe_single.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_single.order_id_seq IS
'next order id for hroe_single.place_order when no p_order_id is given (load_from_normalized sets it past the loaded orders)';
CREATE SEQUENCE hroe_single.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_single.employee_id_seq IS
'next employee id for hroe_single.hire_employee when no p_employee_id is given (load_from_normalized sets it past the loaded employees)';
SELECT pg_catalog.pg_extension_config_dump('hroe_single.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_single.employee_id_seq', '');

------------------------------------------------------------------------------
-- Item builders, one per entity and edge type.  The load, hroe.verify() and
-- the writes all build items through these, so an item written by a write
-- pattern is byte-for-byte the item a fresh load would produce.  Absent
-- (NULL) attributes are left out of the item, as DynamoDB has no NULL
-- column; numbers are N, dates S YYYY-MM-DD, phone lists L of S.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.doc_item(p_doc jsonb)
RETURNS hroe.item
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(p_doc))
$$;
COMMENT ON FUNCTION hroe_single.doc_item(jsonb) IS
'internal: an item from a JSON document whose null members are absent attributes';

CREATE FUNCTION hroe_single.region_item(p_region_id integer, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-REGION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_region_id),
	'SK', 'REGION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_region_id),
	'GSI1_SK', 'REGION-NAME#' OPERATOR(pg_catalog.||) p_region_name,
	'type', 'region', 'region_id', p_region_id, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.region_item(integer, text) IS 'internal: item builder: a region (HR-REGION#id / REGION#id)';

CREATE FUNCTION hroe_single.country_item(p_country_id text, p_country_name text, p_region_id integer,
										 p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-COUNTRY#' OPERATOR(pg_catalog.||) p_country_id,
	'SK', 'COUNTRY#' OPERATOR(pg_catalog.||) p_country_id,
	'GSI1_SK', 'COUNTRY-NAME#' OPERATOR(pg_catalog.||) p_country_name,
	'type', 'country', 'country_id', p_country_id, 'country_name', p_country_name,
	'region_id', p_region_id, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.country_item(text, text, integer, text) IS 'internal: item builder: a country (HR-COUNTRY#cc / COUNTRY#cc), its region name copied';

CREATE FUNCTION hroe_single.location_item(p_location_id integer, p_street_address text, p_postal_code text,
										  p_city text, p_state_province text, p_country_id text,
										  p_country_name text, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-LOCATION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_location_id),
	'SK', 'LOCATION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_location_id),
	'GSI1_SK', 'LOCATION-CITY#' OPERATOR(pg_catalog.||) p_city,
	'type', 'location', 'location_id', p_location_id, 'street_address', p_street_address,
	'postal_code', p_postal_code, 'city', p_city, 'state_province', p_state_province,
	'country_id', p_country_id, 'country_name', p_country_name, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.location_item(integer, text, text, text, text, text, text, text) IS 'internal: item builder: a location (HR-LOCATION#id / LOCATION#id), its country and region names copied';

CREATE FUNCTION hroe_single.job_item(p_job_id text, p_job_title text, p_min_salary integer, p_max_salary integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-JOB#' OPERATOR(pg_catalog.||) p_job_id,
	'SK', 'JOB#' OPERATOR(pg_catalog.||) p_job_id,
	'GSI1_SK', 'JOB-TITLE#' OPERATOR(pg_catalog.||) p_job_title,
	'type', 'job', 'job_id', p_job_id, 'job_title', p_job_title,
	'min_salary', p_min_salary, 'max_salary', p_max_salary))
$$;
COMMENT ON FUNCTION hroe_single.job_item(text, text, integer, integer) IS 'internal: item builder: a job (HR-JOB#id / JOB#id)';

CREATE FUNCTION hroe_single.department_item(p_department_id integer, p_department_name text, p_manager_id integer,
											p_location_id integer, p_city text, p_country_name text,
											p_region_name text, p_warehouse_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-DEPARTMENT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_department_id),
	'SK', 'DEPARTMENT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_department_id),
	'GSI1_SK', 'DEPARTMENT-NAME#' OPERATOR(pg_catalog.||) p_department_name,
	'type', 'department', 'department_id', p_department_id, 'department_name', p_department_name,
	'manager_id', p_manager_id, 'location_id', p_location_id, 'city', p_city,
	'country_name', p_country_name, 'region_name', p_region_name, 'warehouse_id', p_warehouse_id))
$$;
COMMENT ON FUNCTION hroe_single.department_item(integer, text, integer, integer, text, text, text, integer) IS
'internal: item builder: a department (HR-DEPARTMENT#id / DEPARTMENT#id), with its location''s city, country and region names and the warehouse at its location, which the job changes copy onto employees';

CREATE FUNCTION hroe_single.warehouse_item(p_warehouse_id integer, p_warehouse_name text, p_location_id integer,
										   p_city text, p_country_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'SK', 'WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'GSI1_SK', 'WAREHOUSE-NAME#' OPERATOR(pg_catalog.||) p_warehouse_name,
	'type', 'warehouse', 'warehouse_id', p_warehouse_id, 'warehouse_name', p_warehouse_name,
	'location_id', p_location_id, 'city', p_city, 'country_name', p_country_name))
$$;
COMMENT ON FUNCTION hroe_single.warehouse_item(integer, text, integer, text, text) IS 'internal: item builder: a warehouse (OE-WAREHOUSE#id / WAREHOUSE#id)';

CREATE FUNCTION hroe_single.employee_item(p_employee_id integer, p_first_name text, p_last_name text, p_email text,
										  p_phone_numbers text[], p_hire_date date, p_job_id text, p_job_title text,
										  p_job_start_date date, p_salary numeric, p_commission_pct numeric,
										  p_manager_id integer, p_department_id integer, p_department_name text,
										  p_location_id integer, p_city text, p_country_name text, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'GSI1_SK', 'EMPLOYEE-NAME#' OPERATOR(pg_catalog.||)
			   (COALESCE(p_first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) p_last_name),
	'type', 'employee', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'email', p_email, 'phone_numbers', pg_catalog.to_jsonb(p_phone_numbers),
	'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id, 'job_title', p_job_title,
	'job_start_date', hroe_single.day(p_job_start_date), 'salary', p_salary,
	'commission_pct', p_commission_pct, 'manager_id', p_manager_id, 'department_id', p_department_id,
	'department_name', p_department_name, 'location_id', p_location_id, 'city', p_city,
	'country_name', p_country_name, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.employee_item(integer, text, text, text, text[], date, text, text, date, numeric, numeric, integer, integer, text, integer, text, text, text) IS
'internal: item builder: an employee''s profile (HR-EMPLOYEE#id / EMPLOYEE#id, GSI1_SK EMPLOYEE-NAME#full name): every attribute pattern 1 returns, job, department and location copied in';

CREATE FUNCTION hroe_single.employee_email_item(p_email text, p_employee_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMAIL#' OPERATOR(pg_catalog.||) p_email, 'SK', 'EMAIL',
	'type', 'employee_email', 'email', p_email, 'employee_id', p_employee_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_email_item(text, integer) IS
'internal: item builder: the uniqueness item of an employee''s email (HR-EMAIL#email / EMAIL), DynamoDB''s idiom for a unique attribute';

CREATE FUNCTION hroe_single.employee_confidential_item(p_employee_id integer, p_first_name text, p_last_name text,
													   p_hire_date date, p_job_id text, p_job_title text,
													   p_department_id integer, p_salary numeric,
													   p_commission_pct numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'HR-CONFIDENTIAL', 'GSI1_SK', hroe_single.day(p_hire_date),
	'type', 'employee_confidential', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id,
	'job_title', p_job_title, 'department_id', p_department_id, 'salary', p_salary,
	'commission_pct', p_commission_pct))
$$;
COMMENT ON FUNCTION hroe_single.employee_confidential_item(integer, text, text, date, text, text, integer, numeric, numeric) IS
'internal: item builder: HR-EMPLOYEE#id / HR-CONFIDENTIAL, GSI1_SK the hire date (pattern 6), with salary and the current job';

CREATE FUNCTION hroe_single.current_job_item(p_employee_id integer, p_first_name text, p_last_name text,
											 p_hire_date date, p_job_id text, p_job_title text,
											 p_department_id integer, p_department_name text, p_start_date date)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'v0#' OPERATOR(pg_catalog.||) p_job_title,
	'GSI1_SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'type', 'current_job', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id,
	'job_title', p_job_title, 'department_id', p_department_id,
	'department_name', p_department_name, 'start_date', hroe_single.day(p_start_date)))
$$;
COMMENT ON FUNCTION hroe_single.current_job_item(integer, text, text, date, text, text, integer, text, date) IS
'internal: item builder: the current job, version 0 (HR-EMPLOYEE#id / v0#job title, GSI1 partition v0#job title): a copy of the newest JOB-VERSION item (patterns 3 and 11)';

CREATE FUNCTION hroe_single.job_version_item(p_employee_id integer, p_start_date date, p_end_date date,
											 p_job_id text, p_job_title text, p_department_id integer,
											 p_department_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'JOB-VERSION#' OPERATOR(pg_catalog.||) hroe_single.day(p_start_date),
	'type', 'job_version', 'employee_id', p_employee_id, 'start_date', hroe_single.day(p_start_date),
	'end_date', hroe_single.day(p_end_date), 'job_id', p_job_id, 'job_title', p_job_title,
	'department_id', p_department_id, 'department_name', p_department_name))
$$;
COMMENT ON FUNCTION hroe_single.job_version_item(integer, date, date, text, text, integer, text) IS
'internal: item builder: one job of an employee (HR-EMPLOYEE#id / JOB-VERSION#start date); end_date absent for the current job';

CREATE FUNCTION hroe_single.employee_warehouse_item(p_employee_id integer, p_warehouse_id integer,
													p_first_name text, p_last_name text, p_hire_date date,
													p_job_id text, p_job_title text, p_department_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'GSI1_SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'type', 'employee_warehouse', 'employee_id', p_employee_id, 'warehouse_id', p_warehouse_id,
	'first_name', p_first_name, 'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date),
	'job_id', p_job_id, 'job_title', p_job_title, 'department_id', p_department_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_warehouse_item(integer, integer, text, text, date, text, text, integer) IS
'internal: item builder: employee -> warehouse edge (HR-EMPLOYEE#id / WAREHOUSE#id, GSI1 partition WAREHOUSE#id) for an employee whose department is at the warehouse''s location (pattern 7)';

CREATE FUNCTION hroe_single.rep_sales_item(p_employee_id integer, p_quarter text, p_total numeric, p_orders bigint)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'SALES#' OPERATOR(pg_catalog.||) p_quarter,
	'GSI1_SK', pg_catalog.lpad((p_total OPERATOR(pg_catalog.*) 100)::pg_catalog.int8::pg_catalog.text, 19, '0')
			   OPERATOR(pg_catalog.||) '#'
			   OPERATOR(pg_catalog.||) hroe_single.id10(2147483647 OPERATOR(pg_catalog.-) p_employee_id),
	'type', 'rep_sales', 'employee_id', p_employee_id, 'quarter', p_quarter,
	'total', p_total, 'order_count', p_orders))
$$;
COMMENT ON FUNCTION hroe_single.rep_sales_item(integer, text, numeric, bigint) IS
'internal: item builder: a sales rep''s total for a quarter (HR-EMPLOYEE#id / SALES#2025-Q3), GSI1_SK = total in cents (19 digits) # (2147483647 - id), so a backward GSI1 query ranks by total, ties by employee_id';

CREATE FUNCTION hroe_single.customer_item(p_customer_id integer, p_first_name text, p_last_name text,
										  p_street_address text, p_postal_code text, p_city text,
										  p_state_province text, p_country_id text, p_phone_numbers text[],
										  p_nls_language text, p_nls_territory text, p_credit_limit numeric,
										  p_email text, p_account_mgr_id integer, p_date_of_birth date,
										  p_marital_status text, p_gender text, p_income_level text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'GSI1_SK', 'CUSTOMER-NAME#' OPERATOR(pg_catalog.||) p_first_name OPERATOR(pg_catalog.||) ' '
			   OPERATOR(pg_catalog.||) p_last_name,
	'type', 'customer', 'customer_id', p_customer_id, 'cust_first_name', p_first_name,
	'cust_last_name', p_last_name, 'street_address', p_street_address, 'postal_code', p_postal_code,
	'city', p_city, 'state_province', p_state_province, 'country_id', p_country_id,
	'phone_numbers', pg_catalog.to_jsonb(p_phone_numbers), 'nls_language', p_nls_language,
	'nls_territory', p_nls_territory, 'credit_limit', p_credit_limit, 'cust_email', p_email,
	'account_mgr_id', p_account_mgr_id, 'date_of_birth', hroe_single.day(p_date_of_birth),
	'marital_status', p_marital_status, 'gender', p_gender, 'income_level', p_income_level))
$$;
COMMENT ON FUNCTION hroe_single.customer_item(integer, text, text, text, text, text, text, text, text[], text, text, numeric, text, integer, date, text, text, text) IS
'internal: item builder: a customer (OE-CUSTOMER#id / CUSTOMER#id), phone numbers as a list (pattern 16)';

CREATE FUNCTION hroe_single.customer_rep_item(p_customer_id integer, p_employee_id integer, p_first_name text,
											  p_last_name text, p_email text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'GSI1_SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'type', 'customer_rep', 'customer_id', p_customer_id, 'account_mgr_id', p_employee_id,
	'cust_first_name', p_first_name, 'cust_last_name', p_last_name, 'cust_email', p_email))
$$;
COMMENT ON FUNCTION hroe_single.customer_rep_item(integer, integer, text, text, text) IS
'internal: item builder: customer -> account manager edge (OE-CUSTOMER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep, GSI1_SK CUSTOMER#id) (pattern 9)';

CREATE FUNCTION hroe_single.order_item(p_order_id bigint, p_customer_id integer, p_order_date date,
									   p_status text, p_mode text, p_sales_rep_id integer, p_total numeric,
									   p_promotion_id integer, p_shards integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'GSI1_SK', p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_order_date)
			   OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'GSI2_PK', CASE WHEN p_status OPERATOR(pg_catalog.=) 'OPEN' THEN hroe.shard_of(p_order_id, p_shards) END,
	'GSI4_SK', hroe_single.day(p_order_date) OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order', 'order_id', p_order_id, 'customer_id', p_customer_id,
	'order_date', hroe_single.day(p_order_date), 'order_status', p_status, 'order_mode', p_mode,
	'sales_rep_id', p_sales_rep_id, 'order_total', p_total, 'promotion_id', p_promotion_id))
$$;
COMMENT ON FUNCTION hroe_single.order_item(bigint, integer, date, text, text, integer, numeric, integer, integer) IS
'internal: item builder: an order (OE-ORDER#id / CUSTOMER#customer, GSI1_SK STATUS#DATE#ORDER, GSI4_SK DATE#ORDER); an OPEN order also carries GSI2_PK = hroe.shard_of(order id, N)';

CREATE FUNCTION hroe_single.order_rep_item(p_order_id bigint, p_customer_id integer, p_order_date date,
										   p_status text, p_mode text, p_sales_rep_id integer, p_total numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_sales_rep_id),
	'GSI1_SK', p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_order_date)
			   OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'GSI4_SK', hroe_single.day(p_order_date) OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order_rep', 'order_id', p_order_id, 'customer_id', p_customer_id,
	'order_date', hroe_single.day(p_order_date), 'order_status', p_status, 'order_mode', p_mode,
	'sales_rep_id', p_sales_rep_id, 'order_total', p_total))
$$;
COMMENT ON FUNCTION hroe_single.order_rep_item(bigint, integer, date, text, text, integer, numeric) IS
'internal: item builder: order -> sales rep edge (OE-ORDER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep) with the order''s attributes (pattern 10)';

CREATE FUNCTION hroe_single.order_line_item(p_order_id bigint, p_line_item_id integer, p_product_id integer,
											p_order_date date, p_customer_id integer, p_quantity integer,
											p_unit_price numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'ORDER-LINE#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order_line', 'order_id', p_order_id, 'line_item_id', p_line_item_id,
	'product_id', p_product_id, 'order_date', hroe_single.day(p_order_date),
	'customer_id', p_customer_id, 'quantity', p_quantity, 'unit_price', p_unit_price))
$$;
COMMENT ON FUNCTION hroe_single.order_line_item(bigint, integer, integer, date, integer, integer, numeric) IS
'internal: item builder: an order line (OE-ORDER#id / PRODUCT#product, GSI1 partition PRODUCT#product, GSI1_SK ORDER-LINE#order) (pattern 8)';

CREATE FUNCTION hroe_single.product_item(p_product_id integer, p_product_name text, p_product_description text,
										 p_category_id integer, p_weight_class integer, p_warranty_period interval,
										 p_supplier_id integer, p_product_status text, p_list_price numeric,
										 p_min_price numeric, p_catalog_url text, p_total_on_hand bigint)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'PRODUCT-NAME#' OPERATOR(pg_catalog.||) p_product_name,
	'type', 'product', 'product_id', p_product_id, 'product_name', p_product_name,
	'product_description', p_product_description, 'category_id', p_category_id,
	'weight_class', p_weight_class,
	'warranty_months', (pg_catalog.date_part('year', p_warranty_period) OPERATOR(pg_catalog.*) 12
						OPERATOR(pg_catalog.+) pg_catalog.date_part('month', p_warranty_period))::pg_catalog.int4,
	'supplier_id', p_supplier_id, 'product_status', p_product_status, 'list_price', p_list_price,
	'min_price', p_min_price, 'catalog_url', p_catalog_url, 'total_on_hand', p_total_on_hand))
$$;
COMMENT ON FUNCTION hroe_single.product_item(integer, text, text, integer, integer, interval, integer, text, numeric, numeric, text, bigint) IS
'internal: item builder: a product (OE-PRODUCT#id / PRODUCT#id) with total_on_hand, the maintained sum of its inventory items (pattern 13)';

CREATE FUNCTION hroe_single.inventory_item(p_product_id integer, p_warehouse_id integer, p_quantity integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'INVENTORY#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'type', 'inventory', 'product_id', p_product_id, 'warehouse_id', p_warehouse_id,
	'quantity_on_hand', p_quantity))
$$;
COMMENT ON FUNCTION hroe_single.inventory_item(integer, integer, integer) IS
'internal: item builder: stock of a product at a warehouse (OE-WAREHOUSE#w / PRODUCT#p, GSI1 partition PRODUCT#p, GSI1_SK INVENTORY#w) (patterns 8, 12, 17)';

CREATE FUNCTION hroe_single.meta_item(p_shards integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HROE-META', 'SK', 'GSI2', 'type', 'meta', 'shard_count', p_shards))
$$;
COMMENT ON FUNCTION hroe_single.meta_item(integer) IS
'internal: item builder: the table''s settings item (HROE-META / GSI2): shard_count, the N of GSI2''s write sharding';

CREATE FUNCTION hroe_single.shard_count()
RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT COALESCE((SELECT hroe.item_get_number(m.item, 'shard_count')::pg_catalog.int4
				 FROM hroe_single.items m
				 WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key
				   AND m.sk OPERATOR(hroe.=) 'GSI2'::hroe.key), 15)
$$;
COMMENT ON FUNCTION hroe_single.shard_count() IS
'N, the number of GSI2 shards, read from the HROE-META / GSI2 item (15, the guide''s figure, before the first load)';

------------------------------------------------------------------------------
-- Every item the model should hold, derived from hroe_normalized: the load
-- inserts it, hroe.verify() compares the table with it.
------------------------------------------------------------------------------

CREATE VIEW hroe_single.expected_items AS
SELECT hroe_single.region_item(r.region_id, r.region_name) AS item
FROM hroe_normalized.regions r
UNION ALL
SELECT hroe_single.country_item(c.country_id, c.country_name, c.region_id, r.region_name)
FROM hroe_normalized.countries c
JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.location_item(l.location_id, l.street_address, l.postal_code, l.city, l.state_province,
								 l.country_id, c.country_name, r.region_name)
FROM hroe_normalized.locations l
JOIN hroe_normalized.countries c ON c.country_id = l.country_id
JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.job_item(j.job_id, j.job_title, j.min_salary, j.max_salary)
FROM hroe_normalized.jobs j
UNION ALL
SELECT hroe_single.department_item(d.department_id, d.department_name, d.manager_id, d.location_id, l.city,
								   c.country_name, r.region_name, w.warehouse_id)
FROM hroe_normalized.departments d
LEFT JOIN hroe_normalized.locations l ON l.location_id = d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id = l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id = c.region_id
LEFT JOIN hroe_normalized.warehouses w ON w.location_id = d.location_id
UNION ALL
SELECT hroe_single.warehouse_item(w.warehouse_id, w.warehouse_name, w.location_id, l.city, c.country_name)
FROM hroe_normalized.warehouses w
JOIN hroe_normalized.locations l ON l.location_id = w.location_id
JOIN hroe_normalized.countries c ON c.country_id = l.country_id
UNION ALL
SELECT hroe_single.employee_item(e.employee_id, e.first_name, e.last_name, e.email, e.phone_numbers::text[],
								 e.hire_date, e.job_id, j.job_title, e.job_start_date, e.salary,
								 e.commission_pct, e.manager_id, e.department_id, d.department_name,
								 d.location_id, l.city, c.country_name, r.region_name)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id = d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id = l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.employee_email_item(e.email, e.employee_id)
FROM hroe_normalized.employees e
UNION ALL
SELECT hroe_single.employee_confidential_item(e.employee_id, e.first_name, e.last_name, e.hire_date, e.job_id,
											  j.job_title, e.department_id, e.salary, e.commission_pct)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
UNION ALL
SELECT hroe_single.current_job_item(e.employee_id, e.first_name, e.last_name, e.hire_date, e.job_id,
									j.job_title, e.department_id, d.department_name, e.job_start_date)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
UNION ALL
SELECT hroe_single.job_version_item(e.employee_id, e.job_start_date, NULL, e.job_id, j.job_title,
									e.department_id, d.department_name)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
UNION ALL
SELECT hroe_single.job_version_item(h.employee_id, h.start_date, h.end_date, h.job_id, j.job_title,
									h.department_id, d.department_name)
FROM hroe_normalized.job_history h
JOIN hroe_normalized.jobs j ON j.job_id = h.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = h.department_id
UNION ALL
SELECT hroe_single.employee_warehouse_item(e.employee_id, w.warehouse_id, e.first_name, e.last_name,
										   e.hire_date, e.job_id, j.job_title, e.department_id)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
JOIN hroe_normalized.departments d ON d.department_id = e.department_id
JOIN hroe_normalized.warehouses w ON w.location_id = d.location_id
UNION ALL
SELECT hroe_single.rep_sales_item(s.sales_rep_id, s.quarter, s.total, s.orders)
FROM (SELECT o.sales_rep_id, hroe_single.quarter_of(o.order_date) AS quarter,
			 sum(o.order_total) AS total, count(*) AS orders
	  FROM hroe_normalized.orders o
	  WHERE o.sales_rep_id IS NOT NULL AND o.order_status <> 'CANCELED'
	  GROUP BY 1, 2) s
UNION ALL
SELECT hroe_single.customer_item(c.customer_id, c.cust_first_name, c.cust_last_name, c.street_address,
								 c.postal_code, c.city, c.state_province, c.country_id, c.phone_numbers::text[],
								 c.nls_language, c.nls_territory, c.credit_limit, c.cust_email,
								 c.account_mgr_id, c.date_of_birth, c.marital_status, c.gender, c.income_level)
FROM hroe_normalized.customers c
UNION ALL
SELECT hroe_single.customer_rep_item(c.customer_id, c.account_mgr_id, c.cust_first_name, c.cust_last_name,
									 c.cust_email)
FROM hroe_normalized.customers c
WHERE c.account_mgr_id IS NOT NULL
UNION ALL
SELECT hroe_single.order_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
							  o.sales_rep_id, o.order_total, o.promotion_id, n.shards)
FROM hroe_normalized.orders o, (SELECT hroe_single.shard_count() AS shards) n
UNION ALL
SELECT hroe_single.order_rep_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
								  o.sales_rep_id, o.order_total)
FROM hroe_normalized.orders o
WHERE o.sales_rep_id IS NOT NULL
UNION ALL
SELECT hroe_single.order_line_item(i.order_id, i.line_item_id, i.product_id, o.order_date, o.customer_id,
								   i.quantity, i.unit_price)
FROM hroe_normalized.order_items i
JOIN hroe_normalized.orders o ON o.order_id = i.order_id
UNION ALL
SELECT hroe_single.product_item(p.product_id, p.product_name, p.product_description, p.category_id,
								p.weight_class, p.warranty_period, p.supplier_id, p.product_status,
								p.list_price, p.min_price, p.catalog_url, COALESCE(t.total, 0))
FROM hroe_normalized.product_information p
LEFT JOIN (SELECT i.product_id, sum(i.quantity_on_hand)::bigint AS total
		   FROM hroe_normalized.inventories i GROUP BY 1) t ON t.product_id = p.product_id
UNION ALL
SELECT hroe_single.inventory_item(i.product_id, i.warehouse_id, i.quantity_on_hand)
FROM hroe_normalized.inventories i;
COMMENT ON VIEW hroe_single.expected_items IS
'every item hroe_single should hold (all but the HROE-META settings item), built from hroe_normalized by the item builders: what load_from_normalized inserts and hroe.verify() compares with';

------------------------------------------------------------------------------
-- Row shapes: the columns several read patterns return, decoded from one
-- item.  SQL set-returning functions of one SELECT without FROM, not
-- STRICT, without SET: a pattern calls one LATERAL on the item it reads,
-- PostgreSQL inlines it and pulls it up, so the plan is the one of the
-- expressions written in place (no Function Scan; test/bench/single_plans.sh
-- and sql/single.sql show the plans).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.employee_profile(p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'email'),
	   hroe.item_get_string_list(p_item, 'phone_numbers'),
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
COMMENT ON FUNCTION hroe_single.employee_profile(hroe.item) IS
'internal: row shape of patterns 1 and 2: an employee profile item''s attributes as hroe_normalized.employee_by_id''s columns (the phone list whole); inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.order_row(p_item hroe.item)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'order_id')::pg_catalog.int8,
	   hroe.item_get_number(p_item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'order_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'order_status'), hroe.item_get_text(p_item, 'order_mode'),
	   hroe.item_get_number(p_item, 'sales_rep_id')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(p_item, 'order_total'), 2)
$$;
COMMENT ON FUNCTION hroe_single.order_row(hroe.item) IS
'internal: row shape of patterns 4, 5 and 10: an order (or order -> rep) item''s attributes as hroe_normalized.customer_orders''s columns, the total rounded to cents; inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.employee_summary(p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'job_id'), hroe.item_get_text(p_item, 'job_title'),
	   hroe.item_get_number(p_item, 'department_id')::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe_single.employee_summary(hroe.item) IS
'internal: row shape of patterns 6, 7 and 11: the employee attributes the HR-CONFIDENTIAL, employee -> warehouse and current-job items share, as hroe_normalized.employees_hired_since''s columns; inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.inventory_row(p_item hroe.item)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'warehouse_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'quantity_on_hand')::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe_single.inventory_row(hroe.item) IS
'internal: row shape of patterns 12 and 17: an inventory item''s attributes; inlined where it is called LATERAL';

------------------------------------------------------------------------------
-- The 17 read patterns: hroe_normalized's names, arguments and result
-- columns.  Each is one GetItem or one Query on the table or on one index
-- (open_orders: the N shards of GSI2, merged), as a STABLE SQL function of
-- one SELECT, not STRICT and without SET, so PostgreSQL inlines it and
-- EXPLAIN shows the index scan.  Attributes are read with hroe.item's typed
-- accessors; money is rounded to two decimals as the normalized columns are.
------------------------------------------------------------------------------

-- 1
CREATE FUNCTION hroe_single.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_profile(i.item) AS x
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_by_id(integer) IS
'pattern 1 (GetItem HR-EMPLOYEE#id / EMPLOYEE#id): the employee''s profile item; zero or one row';

-- 2
CREATE FUNCTION hroe_single.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_profile(i.item) AS x
WHERE i."GSI3_pk1" OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE-NAME#', p_full_name)
ORDER BY i.pk
$$;
COMMENT ON FUNCTION hroe_single.employee_by_name(text) IS
'pattern 2 (Query GSI3 GSI1_SK = EMPLOYEE-NAME#full name): every employee profile with that full name, ordered by employee_id';

-- 3
CREATE FUNCTION hroe_single.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'job_id'), hroe.item_get_text(i.item, 'job_title'),
	   hroe.item_get_number(i.item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'department_name'),
	   hroe.item_get_text(i.item, 'start_date')::pg_catalog.date
FROM hroe_single.items i
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key
$$;
COMMENT ON FUNCTION hroe_single.employee_current_job(integer) IS
'pattern 3 (Query PK = HR-EMPLOYEE#id, begins_with(SK, v0#)): the current job, version 0; zero or one row';

-- 4
CREATE FUNCTION hroe_single.customer_orders(p_customer_id integer, p_from date, p_to date, p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id))
  AND ((p_status IS NOT NULL
		AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key(p_status, p_from)::hroe.key
		AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key(p_status, p_to) OPERATOR(pg_catalog.||) '$')::hroe.key)
	   OR (p_status IS NULL
		   AND i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day(p_from)::hroe.key
		   AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day(p_to) OPERATOR(pg_catalog.||) '$')::hroe.key))
ORDER BY CASE WHEN p_status IS NULL THEN i.gsi4_sk ELSE i.gsi1_sk END
$$;
COMMENT ON FUNCTION hroe_single.customer_orders(integer, date, date, text) IS
'pattern 4: the customer''s orders dated from p_from to p_to inclusive, of status p_status (Query GSI1 SK = CUSTOMER#id, GSI1_SK BETWEEN STATUS#from AND STATUS#to$) or of any status when p_status is NULL (Query GSI4 SK = CUSTOMER#id, GSI4_SK BETWEEN from AND to$); for a constant p_status the planner keeps only the condition and index of that case; ordered by order_date, order_id';

-- 5
CREATE FUNCTION hroe_single.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe.sharded_query(NULL::hroe_single.items, 'hroe_single."hroe_single.GSI2"'::pg_catalog.regclass,
						hroe_single.shard_count(), 'between',
						hroe_single.status_key('OPEN', p_from)::hroe.key,
						(hroe_single.status_key('OPEN', p_to) OPERATOR(pg_catalog.||) '$')::hroe.key) AS i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE p_from OPERATOR(pg_catalog.<=) p_to
$$;
COMMENT ON FUNCTION hroe_single.open_orders(date, date) IS
'pattern 5 (GSI2: N Queries GSI2_PK = 0..N-1, GSI1_SK BETWEEN OPEN#from AND OPEN#to$, merged by hroe.sharded_query): every OPEN order dated from p_from to p_to inclusive; ordered by order_date, order_id';

-- 6
CREATE FUNCTION hroe_single.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key
  AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.day(p_since)::hroe.key
ORDER BY i.gsi1_sk, i.pk
$$;
COMMENT ON FUNCTION hroe_single.employees_hired_since(date) IS
'pattern 6 (Query GSI1 SK = HR-CONFIDENTIAL, GSI1_SK >= date): employees hired on or after p_since; ordered by hire_date, employee_id';

-- 7
CREATE FUNCTION hroe_single.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10(p_warehouse_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'EMPLOYEE#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.warehouse_employees(integer) IS
'pattern 7 (Query GSI1 SK = WAREHOUSE#id, begins_with(GSI1_SK, EMPLOYEE#)): the employee -> warehouse edges, employees whose department is at the warehouse''s location; ordered by employee_id';

-- 8
CREATE FUNCTION hroe_single.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_text(i.item, 'type'),
	   hroe.item_get_number(i.item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'warehouse_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'quantity_on_hand')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'order_id')::pg_catalog.int8,
	   hroe.item_get_number(i.item, 'line_item_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'order_date')::pg_catalog.date,
	   hroe.item_get_number(i.item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'quantity')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(i.item, 'unit_price'), 2)
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
  AND i.gsi1_sk OPERATOR(hroe.>=) 'INVENTORY#'::hroe.key
  AND i.gsi1_sk OPERATOR(hroe.<=) 'ORDER-LINE$'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.product_order_items(integer) IS
'pattern 8 (Query GSI1 SK = PRODUCT#id, GSI1_SK BETWEEN INVENTORY# AND ORDER-LINE$): the product''s inventory items (kind ''inventory'') then its order lines (kind ''order_line''); ordered by kind, warehouse_id, order_id';

-- 9
CREATE FUNCTION hroe_single.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'cust_first_name'), hroe.item_get_text(i.item, 'cust_last_name'),
	   hroe.item_get_text(i.item, 'cust_email')
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.rep_customers(integer) IS
'pattern 9 (Query GSI1 SK = EMPLOYEE#id, begins_with(GSI1_SK, CUSTOMER#)): the customer -> account manager edges; ordered by customer_id';

-- 10
CREATE FUNCTION hroe_single.rep_orders(p_employee_id integer, p_from date, p_to date, p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND ((p_status IS NOT NULL
		AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key(p_status, p_from)::hroe.key
		AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key(p_status, p_to) OPERATOR(pg_catalog.||) '$')::hroe.key)
	   OR (p_status IS NULL
		   AND i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day(p_from)::hroe.key
		   AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day(p_to) OPERATOR(pg_catalog.||) '$')::hroe.key))
ORDER BY CASE WHEN p_status IS NULL THEN i.gsi4_sk ELSE i.gsi1_sk END
$$;
COMMENT ON FUNCTION hroe_single.rep_orders(integer, date, date, text) IS
'pattern 10: orders whose sales rep is the employee, dated from p_from to p_to inclusive, of status p_status (Query GSI1 SK = EMPLOYEE#id, GSI1_SK BETWEEN STATUS#from AND STATUS#to$) or of any status when p_status is NULL (Query GSI4 SK = EMPLOYEE#id, GSI4_SK BETWEEN from AND to$); for a constant p_status the planner keeps only the condition and index of that case; ordered by order_date, order_id';

-- 11
CREATE FUNCTION hroe_single.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('v0#', p_job_title)
  AND i.gsi1_sk IS NOT NULL
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.employees_by_title(text) IS
'pattern 11 (Query GSI1 SK = v0#title): the current-job items, employees whose current job has that title (case-sensitive); ordered by employee_id';

-- 12
CREATE FUNCTION hroe_single.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.inventory_row(i.item) AS x
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
$$;
COMMENT ON FUNCTION hroe_single.product_inventory_at(integer, integer) IS
'pattern 12 (GetItem OE-WAREHOUSE#w / PRODUCT#p): quantity on hand of the product at the warehouse; no row when not stocked there';

-- 13
CREATE FUNCTION hroe_single.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'total_on_hand')::pg_catalog.int8
FROM hroe_single.items i
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
$$;
COMMENT ON FUNCTION hroe_single.product_total_inventory(integer) IS
'pattern 13 (GetItem OE-PRODUCT#id / PRODUCT#id): the product''s maintained total_on_hand (0 when stocked nowhere); no row for an unknown product';

-- 14
CREATE FUNCTION hroe_single.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY i.gsi1_sk DESC))::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'employee_id')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(i.item, 'total'), 2)
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) (CASE WHEN hroe.quarter_start(p_quarter) IS NOT NULL
						 THEN ('SALES#' OPERATOR(pg_catalog.||) p_quarter)::hroe.key END)
  AND i.gsi1_sk IS NOT NULL
ORDER BY i.gsi1_sk DESC
$$;
COMMENT ON FUNCTION hroe_single.rep_ranking(text) IS
'pattern 14 (Query GSI1 SK = SALES#quarter, ScanIndexForward = false): the maintained per-rep quarter totals (CANCELED orders excluded), highest first, ties by employee_id; rank 1, 2, 3...';

-- (Patterns 15 and 16 repeat their two-column shape instead of sharing a
-- row-shape function: the shape is set-returning in its select list
-- (generate_subscripts and unnest in step), and PostgreSQL does not pull up
-- a subquery with set-returning functions in its target list: called
-- LATERAL, a shared function turns the plan's one ProjectSet over the index
-- scan into a Nested Loop over a ProjectSet and a Result per item.)
-- 15
CREATE FUNCTION hroe_single.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(i.item, 'phone_numbers') AS phones
	  FROM hroe_single.items i
	  WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
		AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))) p
$$;
COMMENT ON FUNCTION hroe_single.employee_phones(integer) IS
'pattern 15 (GetItem HR-EMPLOYEE#id / EMPLOYEE#id, list attribute phone_numbers): the phone numbers with their position (1, 2, ...), in list order';

-- 16
CREATE FUNCTION hroe_single.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(i.item, 'phone_numbers') AS phones
	  FROM hroe_single.items i
	  WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10(p_customer_id))
		AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id))) p
$$;
COMMENT ON FUNCTION hroe_single.customer_phones(integer) IS
'pattern 16 (GetItem OE-CUSTOMER#id / CUSTOMER#id, list attribute phone_numbers): the phone numbers with their position (1, 2, ...), in list order';

-- 17
CREATE FUNCTION hroe_single.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.inventory_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'INVENTORY#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.product_inventories(integer) IS
'pattern 17 (Query GSI1 SK = PRODUCT#id, begins_with(GSI1_SK, INVENTORY#)): the product''s inventory items; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The load hook and the consistency check.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.load_from_normalized()
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_open bigint;
	v_avg integer;
	v_shards integer;
	v_rows bigint;
	v_ddl text[];
BEGIN
	TRUNCATE hroe_single.items;
	-- N for GSI2 by the guide's formula: every OPEN order read at once
	-- (MaxRequiredIO) at the average size of an OPEN order item, never
	-- below the guide's 15.
	SELECT count(*) INTO v_open FROM hroe_normalized.orders o WHERE o.order_status = 'OPEN';
	SELECT ceil(avg(hroe.item_size(hroe_single.order_item(o.order_id, o.customer_id, o.order_date,
														  o.order_status, o.order_mode, o.sales_rep_id,
														  o.order_total, o.promotion_id, 15))))::integer
	INTO v_avg
	FROM (SELECT * FROM hroe_normalized.orders o WHERE o.order_status = 'OPEN'
		  ORDER BY o.order_id LIMIT 1000) o;
	v_shards := greatest(15, hroe.shard_count(greatest(v_open, 1), COALESCE(v_avg, 250)));
	INSERT INTO hroe_single.items (item) VALUES (hroe_single.meta_item(v_shards));
	-- the GSIs are built once the items are in, with their names and
	-- comments (hroe.indexes names them)
	v_ddl := hroe.drop_secondary_indexes(ARRAY['hroe_single.items'::regclass]);
	-- in primary-key order: an item collection is stored together, as in DynamoDB
	INSERT INTO hroe_single.items (item)
	SELECT e.item FROM hroe_single.expected_items e
	ORDER BY hroe.item_get_text(e.item, 'PK')::hroe.key, hroe.item_get_text(e.item, 'SK')::hroe.key;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	PERFORM hroe.execute_ddl(v_ddl);
	PERFORM setval('hroe_single.order_id_seq',
				   COALESCE((SELECT max(o.order_id) FROM hroe_normalized.orders o), 1),
				   EXISTS (SELECT FROM hroe_normalized.orders));
	PERFORM setval('hroe_single.employee_id_seq',
				   COALESCE((SELECT max(e.employee_id) FROM hroe_normalized.employees e), 1),
				   EXISTS (SELECT FROM hroe_normalized.employees));
	ANALYZE hroe_single.items;
	table_name := 'hroe_single.items';
	row_count := v_rows + 1;
	RETURN NEXT;
END
$$;
COMMENT ON FUNCTION hroe_single.load_from_normalized() IS
'hroe.load''s hook: replaces every item of hroe_single with the items built from hroe_normalized (set-based, the GSIs dropped and rebuilt once the items are in), GSI2''s N = max(15, hroe.shard_count(OPEN orders, their average item size)); returns the item count';

CREATE FUNCTION hroe_single.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
WITH e AS (
	SELECT x.item, hroe.item_get_text(x.item, 'PK')::hroe.key AS pk,
		   hroe.item_get_text(x.item, 'SK')::hroe.key AS sk
	FROM hroe_single.expected_items x
), a AS (
	SELECT i.item, i.pk, i.sk FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.<>) 'HROE-META'::hroe.key
)
SELECT 'hroe_single'::pg_catalog.text,
	   COALESCE(e.pk, a.pk)::pg_catalog.text OPERATOR(pg_catalog.||) ' / '
		   OPERATOR(pg_catalog.||) COALESCE(e.sk, a.sk)::pg_catalog.text,
	   CASE WHEN a.item IS NULL
			THEN 'missing ' OPERATOR(pg_catalog.||) hroe.item_get_text(e.item, 'type') OPERATOR(pg_catalog.||) ' item'
			WHEN e.item IS NULL
			THEN 'unexpected ' OPERATOR(pg_catalog.||) COALESCE(hroe.item_get_text(a.item, 'type'), 'untyped')
				 OPERATOR(pg_catalog.||) ' item'
			ELSE 'attribute ' OPERATOR(pg_catalog.||) d.name OPERATOR(pg_catalog.||) ' is '
				 OPERATOR(pg_catalog.||) COALESCE(d.found::pg_catalog.text, 'absent')
				 OPERATOR(pg_catalog.||) ', expected '
				 OPERATOR(pg_catalog.||) COALESCE(d.expected::pg_catalog.text, 'absent') END
FROM e
FULL JOIN a ON a.pk OPERATOR(hroe.=) e.pk AND a.sk OPERATOR(hroe.=) e.sk
LEFT JOIN LATERAL (
	SELECT n.name, hroe.item_get_attribute(e.item, n.name) AS expected,
		   hroe.item_get_attribute(a.item, n.name) AS found
	FROM (SELECT pg_catalog.unnest(hroe.item_attributes(e.item))
		  UNION
		  SELECT pg_catalog.unnest(hroe.item_attributes(a.item))) AS n (name)
	WHERE a.item OPERATOR(hroe.<>) e.item
	  AND hroe.item_get_attribute(e.item, n.name) IS DISTINCT FROM hroe.item_get_attribute(a.item, n.name)
) d ON true
WHERE a.item IS NULL OR e.item IS NULL OR d.name IS NOT NULL
UNION ALL
SELECT 'hroe_single', 'HROE-META / GSI2',
	   'shard_count is ' OPERATOR(pg_catalog.||) COALESCE(s.n::pg_catalog.text, 'absent')
		   OPERATOR(pg_catalog.||) ', expected at least 15'
FROM (SELECT (SELECT hroe.item_get_number(m.item, 'shard_count')
			  FROM hroe_single.items m
			  WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key
				AND m.sk OPERATOR(hroe.=) 'GSI2'::hroe.key) AS n) s
WHERE s.n IS NULL OR s.n OPERATOR(pg_catalog.<) 15
ORDER BY 2, 3
$$;
COMMENT ON FUNCTION hroe_single.verify() IS
'every difference between hroe_single''s items and the items derived from hroe_normalized (missing, unexpected, or one row per differing attribute, index keys, v0 copies and maintained totals included); no row on a consistent database';

CREATE FUNCTION hroe.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT v.model, v.item, v.problem FROM hroe_single.verify() v
UNION ALL
SELECT v.model, v.item, v.problem FROM hroe_multi.verify() v
$$;
COMMENT ON FUNCTION hroe.verify() IS
'recomputes every derived item of the DynamoDB models from hroe_normalized and reports each mismatch (hroe_single.verify(), then hroe_multi.verify()); no row on a consistent database';

------------------------------------------------------------------------------
-- The 5 write patterns: hroe_normalized's names, arguments, checks and
-- error texts.  Each reads and writes hroe_single only (never the
-- normalized tables), keeps every derived item right in its one
-- transaction, and takes its locks in one canonical order:
--   1. the entity item written (order: an advisory lock on its key, then
--      its order item; employee: the profile item; product: the product
--      item, which carries the maintained total),
--   2. then the derived items of that entity (rep quarter totals last).
-- A write never locks two entities of the same kind, so concurrent writes
-- cannot deadlock and no update is lost (test/specs/single.spec).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.check_day(p_what text, p_date date)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_date < date '0001-01-01' OR p_date > date '9999-12-31' THEN
		RAISE EXCEPTION '% % is outside the years 1 to 9999 that hroe_single''s keys can hold', p_what, p_date
			USING ERRCODE = 'datetime_field_overflow',
				  HINT = 'Dates in DynamoDB keys are written YYYY-MM-DD so that byte order is date order.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.check_day(text, date) IS
'internal: raises an error for a date that keys written YYYY-MM-DD cannot hold (before year 1 or after 9999)';

CREATE FUNCTION hroe_single.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
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
	v_mode text;
	v_quarter text;
BEGIN
	IF p_customer_id IS NULL OR p_order_date IS NULL OR p_lines IS NULL OR p_status IS NULL THEN
		RAISE EXCEPTION 'customer, order date, lines and status must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_order_date) THEN
		RAISE EXCEPTION 'order date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe_single.check_day('order date', p_order_date);
	PERFORM hroe.check_order_status(p_status);
	PERFORM hroe.check_order_id(p_order_id);
	-- GetItem OE-CUSTOMER#id / CUSTOMER#id
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10(p_customer_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id));
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		PERFORM FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_sales_rep_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_sales_rep_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	-- GetItem OE-PRODUCT#id / PRODUCT#id for each product (BatchGetItem)
	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(id, hroe.item_get_number(i.item, 'list_price'))
		 FROM unnest(hroe.order_line_product_ids(p_lines)) AS id
		 JOIN hroe_single.items i
		   ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(id)))) l;

	v_order_id := COALESCE(p_order_id, nextval('hroe_single.order_id_seq'));
	v_mode := CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END;
	-- The order partition must be new (DynamoDB: a condition
	-- attribute_not_exists(PK) on the order item).  Its sort key names the
	-- customer, so the primary key alone cannot refuse a second order of
	-- the same id for another customer: a lock on the partition key makes
	-- the check and the insert atomic.
	PERFORM pg_advisory_xact_lock(hashtextextended('OE-ORDER#' || hroe_single.id19(v_order_id), 0));
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(v_order_id));
	IF FOUND THEN
		RAISE EXCEPTION 'order % already exists', v_order_id USING ERRCODE = 'unique_violation';
	END IF;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.order_item(v_order_id, p_customer_id, p_order_date, p_status, v_mode,
								   p_sales_rep_id, v_total, NULL, hroe_single.shard_count()));
	INSERT INTO hroe_single.items (item)
	SELECT hroe_single.order_line_item(v_order_id, l.n::integer, l.product_id, p_order_date, p_customer_id,
									   l.quantity, l.unit_price)
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	IF p_sales_rep_id IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.order_rep_item(v_order_id, p_customer_id, p_order_date, p_status, v_mode,
										   p_sales_rep_id, v_total));
		IF p_status <> 'CANCELED' THEN
			-- the rep's quarter total, created or added to atomically
			v_quarter := hroe_single.quarter_of(p_order_date);
			INSERT INTO hroe_single.items AS i (item)
			VALUES (hroe_single.rep_sales_item(p_sales_rep_id, v_quarter, v_total, 1))
			ON CONFLICT (pk, sk) DO UPDATE
			SET item = hroe_single.rep_sales_item(p_sales_rep_id, v_quarter,
												  hroe.item_get_number(i.item, 'total') + v_total,
												  hroe.item_get_number(i.item, 'order_count')::bigint + 1);
		END IF;
	END IF;
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_single.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order with its lines, as hroe_normalized.place_order; writes the order item (in GSI2 when OPEN), its lines, its order -> rep edge and adds it to the rep''s quarter total (unless CANCELED), in one transaction';

CREATE FUNCTION hroe_single.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_doc jsonb;
	v_old text;
	v_rep integer;
	v_date date;
	v_total numeric;
	v_quarter text;
	v_sales hroe.item;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	-- Query PK = OE-ORDER#id, begins_with(SK, CUSTOMER#): the order item
	SELECT i.item INTO v_item FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
	  AND i.sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	v_doc := hroe.item_to_document(v_item);
	v_old := v_doc ->> 'order_status';
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	v_rep := (v_doc ->> 'sales_rep_id')::integer;
	v_date := (v_doc ->> 'order_date')::date;
	v_total := (v_doc ->> 'order_total')::numeric;
	-- the order item: new GSI1_SK; out of GSI2 once no longer OPEN
	UPDATE hroe_single.items i
	SET item = hroe_single.order_item(p_order_id, (v_doc ->> 'customer_id')::integer, v_date, p_status,
									  v_doc ->> 'order_mode', v_rep, v_total,
									  (v_doc ->> 'promotion_id')::integer, hroe_single.shard_count())
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10((v_doc ->> 'customer_id')::integer));
	IF v_rep IS NOT NULL THEN
		UPDATE hroe_single.items i
		SET item = hroe_single.order_rep_item(p_order_id, (v_doc ->> 'customer_id')::integer, v_date, p_status,
											  v_doc ->> 'order_mode', v_rep, v_total)
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(v_rep));
		IF p_status = 'CANCELED' THEN
			-- a canceled order leaves the rep's quarter total
			v_quarter := hroe_single.quarter_of(v_date);
			SELECT i.item INTO v_sales FROM hroe_single.items i
			WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
			  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter)
			FOR UPDATE;
			IF hroe.item_get_number(v_sales, 'order_count') <= 1 THEN
				DELETE FROM hroe_single.items i
				WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
				  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter);
			ELSE
				UPDATE hroe_single.items i
				SET item = hroe_single.rep_sales_item(v_rep, v_quarter,
													  hroe.item_get_number(v_sales, 'total') - v_total,
													  hroe.item_get_number(v_sales, 'order_count')::bigint - 1)
				WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
				  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter);
			END IF;
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED, as hroe_normalized.change_order_status; rewrites the order item (GSI1_SK, GSI2 membership) and its order -> rep edge, and takes a canceled order out of the rep''s quarter total';

CREATE FUNCTION hroe_single.change_employee_job(p_employee_id integer, p_job_id text,
												p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_emp jsonb;
	v_title text;
	v_dept jsonb;
	v_old_start date;
	v_phones text[];
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe_single.check_day('start date', p_start_date);
	-- the profile item first: it serialises every change to the employee
	SELECT i.item INTO v_item FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'employee % does not exist', p_employee_id USING ERRCODE = 'no_data_found';
	END IF;
	v_emp := hroe.item_to_document(v_item);
	SELECT hroe.item_get_text(i.item, 'job_title') INTO v_title FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-JOB#', p_job_id)
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB#', p_job_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		SELECT hroe.item_to_document(i.item) INTO v_dept FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-DEPARTMENT#', hroe_single.id10(p_department_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('DEPARTMENT#', hroe_single.id10(p_department_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_job_id = v_emp ->> 'job_id' AND p_department_id IS NOT DISTINCT FROM (v_emp ->> 'department_id')::integer THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_old_start := (v_emp ->> 'job_start_date')::date;
	IF p_start_date <= v_old_start THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_old_start
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_phones := ARRAY(SELECT jsonb_array_elements_text(v_emp -> 'phone_numbers'));

	-- the job versions: the current one ends, a new one begins; v0 follows
	UPDATE hroe_single.items i
	SET item = hroe_single.job_version_item(p_employee_id, v_old_start, p_start_date - 1, v_emp ->> 'job_id',
											v_emp ->> 'job_title', (v_emp ->> 'department_id')::integer,
											v_emp ->> 'department_name')
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB-VERSION#', hroe_single.day(v_old_start));
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.job_version_item(p_employee_id, p_start_date, NULL, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name'));
	DELETE FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.current_job_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
										 (v_emp ->> 'hire_date')::date, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name', p_start_date));
	-- the profile and HR-CONFIDENTIAL carry the job and department
	UPDATE hroe_single.items i
	SET item = hroe_single.employee_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
										 v_emp ->> 'email', v_phones, (v_emp ->> 'hire_date')::date, p_job_id,
										 v_title, p_start_date, (v_emp ->> 'salary')::numeric,
										 (v_emp ->> 'commission_pct')::numeric, (v_emp ->> 'manager_id')::integer,
										 p_department_id, v_dept ->> 'department_name',
										 (v_dept ->> 'location_id')::integer, v_dept ->> 'city',
										 v_dept ->> 'country_name', v_dept ->> 'region_name')
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id));
	UPDATE hroe_single.items i
	SET item = hroe_single.employee_confidential_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
													  (v_emp ->> 'hire_date')::date, p_job_id, v_title,
													  p_department_id, (v_emp ->> 'salary')::numeric,
													  (v_emp ->> 'commission_pct')::numeric)
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key;
	-- the employee -> warehouse edge follows the department's location
	DELETE FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.^@) 'WAREHOUSE#'::hroe.key;
	IF v_dept ->> 'warehouse_id' IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.employee_warehouse_item(p_employee_id, (v_dept ->> 'warehouse_id')::integer,
													v_emp ->> 'first_name', v_emp ->> 'last_name',
													(v_emp ->> 'hire_date')::date, p_job_id, v_title,
													p_department_id));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date, as hroe_normalized.change_employee_job; the current JOB-VERSION item ends the day before, a new one begins, the v0 copy, the profile, HR-CONFIDENTIAL and the employee -> warehouse edge follow, in one transaction';

CREATE FUNCTION hroe_single.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_product hroe.item;
	v_on_hand integer;
	v_new integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the product item first: it holds the total, and serialises every
	-- change to the product's stock
	SELECT i.item INTO v_product FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10(p_warehouse_id));
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	SELECT hroe.item_get_number(i.item, 'quantity_on_hand')::integer INTO v_on_hand FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	IF p_delta < 0 AND (v_on_hand IS NULL OR v_on_hand + p_delta < 0) THEN
		RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
			USING ERRCODE = 'check_violation',
				  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
	END IF;
	v_new := COALESCE(v_on_hand, 0) + p_delta;
	IF v_on_hand IS NULL THEN
		INSERT INTO hroe_single.items (item) VALUES (hroe_single.inventory_item(p_product_id, p_warehouse_id, v_new));
	ELSE
		UPDATE hroe_single.items i
		SET item = hroe_single.inventory_item(p_product_id, p_warehouse_id, v_new)
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	END IF;
	UPDATE hroe_single.items i
	SET item = v_product OPERATOR(hroe.||)
			   hroe.item_from_document(jsonb_build_object('total_on_hand',
														  hroe.item_get_number(v_product, 'total_on_hand') + p_delta))
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	RETURN v_new;
END
$$;
COMMENT ON FUNCTION hroe_single.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the stock of a product at a warehouse, as hroe_normalized.adjust_inventory, and to the product''s maintained total_on_hand, in one transaction under the product item''s lock; returns the new quantity on hand';

CREATE FUNCTION hroe_single.hire_employee(p_first_name text, p_last_name text, p_email text,
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
	v_title text;
	v_dept jsonb;
BEGIN
	PERFORM hroe.check_hire_arguments(p_first_name, p_last_name, p_email, p_hire_date, p_job_id,
									  p_phone_numbers, p_salary, p_commission_pct, p_employee_id);
	PERFORM hroe_single.check_day('hire date', p_hire_date);
	SELECT hroe.item_get_text(i.item, 'job_title') INTO v_title FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-JOB#', p_job_id)
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB#', p_job_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		SELECT hroe.item_to_document(i.item) INTO v_dept FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-DEPARTMENT#', hroe_single.id10(p_department_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('DEPARTMENT#', hroe_single.id10(p_department_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_manager_id IS NOT NULL THEN
		PERFORM FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_manager_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_manager_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	SELECT hroe.item_get_number(i.item, 'employee_id')::integer INTO v_other FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMAIL#', p_email)
	  AND i.sk OPERATOR(hroe.=) 'EMAIL'::hroe.key;
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_single.employee_id_seq')::integer);
	-- the email item makes the address unique (a concurrent hire with the
	-- same address waits on it, then finds it taken)
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.employee_email_item(p_email, v_employee_id))
	ON CONFLICT (pk, sk) DO NOTHING;
	IF NOT FOUND THEN
		SELECT hroe.item_get_number(i.item, 'employee_id')::integer INTO v_other FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMAIL#', p_email)
		  AND i.sk OPERATOR(hroe.=) 'EMAIL'::hroe.key;
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.employee_item(v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers,
									  p_hire_date, p_job_id, v_title, p_hire_date, p_salary, p_commission_pct,
									  p_manager_id, p_department_id, v_dept ->> 'department_name',
									  (v_dept ->> 'location_id')::integer, v_dept ->> 'city',
									  v_dept ->> 'country_name', v_dept ->> 'region_name')),
		   (hroe_single.employee_confidential_item(v_employee_id, p_first_name, p_last_name, p_hire_date,
												   p_job_id, v_title, p_department_id, p_salary, p_commission_pct)),
		   (hroe_single.job_version_item(v_employee_id, p_hire_date, NULL, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name')),
		   (hroe_single.current_job_item(v_employee_id, p_first_name, p_last_name, p_hire_date, p_job_id,
										 v_title, p_department_id, v_dept ->> 'department_name', p_hire_date));
	IF v_dept ->> 'warehouse_id' IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.employee_warehouse_item(v_employee_id, (v_dept ->> 'warehouse_id')::integer,
													p_first_name, p_last_name, p_hire_date, p_job_id, v_title,
													p_department_id));
	END IF;
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_single.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an employee, as hroe_normalized.hire_employee: the profile, HR-CONFIDENTIAL, the first JOB-VERSION and its v0 copy, the email uniqueness item and the employee -> warehouse edge, in one transaction; returns the id';
