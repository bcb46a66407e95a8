
-- hroe.load(scale, seed): the deterministic data generator.  It fills
-- hroe_normalized set-based from hroe.prng* (pure functions of seed, stream
-- and row index), then asks the other models to map the data (see the hook
-- contract below and in the README).

-- A generated order line's quantity and unit price (whole cents), from its
-- order and its draw (product * 8 + the candidate line that drew it, as
-- hroe.order_line_draws returns it): hroe.load computes the lines and the
-- order totals with these two, so they agree.  SQL without SET, not
-- STRICT: inlined into hroe.load's set-based statements.
CREATE FUNCTION hroe.order_line_quantity(p_seed bigint, p_order_id bigint, p_draw bigint)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT 1 OPERATOR(pg_catalog.+) pg_catalog.floor(20 OPERATOR(pg_catalog.*)
	(hroe.prng(p_seed, 53, (8 OPERATOR(pg_catalog.*) p_order_id) OPERATOR(pg_catalog.+) (p_draw OPERATOR(pg_catalog.&) 7))
	 OPERATOR(pg_catalog.^) 3))::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe.order_line_quantity(bigint, bigint, bigint) IS
'internal: for hroe.load: the quantity of a generated order line, 1 + floor(20 u^3) for the line''s uniform u (stream 53): mostly 1 to 3, at most 20';

CREATE FUNCTION hroe.order_line_cents(p_seed bigint, p_order_id bigint, p_draw bigint,
									  p_list_cents bigint[], p_min_cents bigint[])
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN hroe.prng(p_seed, 54, (8 OPERATOR(pg_catalog.*) p_order_id) OPERATOR(pg_catalog.+) (p_draw OPERATOR(pg_catalog.&) 7))
				 OPERATOR(pg_catalog.<) 0.2::pg_catalog.float8
			THEN p_min_cents[p_draw OPERATOR(pg_catalog.>>) 3]
			ELSE p_list_cents[p_draw OPERATOR(pg_catalog.>>) 3] END
$$;
COMMENT ON FUNCTION hroe.order_line_cents(bigint, bigint, bigint, bigint[], bigint[]) IS
'internal: for hroe.load: the unit price in cents of a generated order line, the product''s min price for a fifth of the lines (stream 54), its list price otherwise; prices looked up by product id in arrays of cents';

-- Secondary indexes dropped before a bulk load and rebuilt after it, which
-- is much faster than maintaining them row by row (hroe.load for
-- hroe_normalized, and the DynamoDB models' load_from_normalized for their
-- GSIs).  The rebuild DDL keeps each index's name (hroe.indexes names GSIs
-- by it), definition, comment and creation order.
CREATE FUNCTION hroe.drop_secondary_indexes(p_tables regclass[])
RETURNS text[]
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_ddl text[];
	v_index regclass;
BEGIN
	SELECT COALESCE(array_agg(d.ddl ORDER BY d.indexrelid, d.step), '{}') INTO v_ddl
	FROM (SELECT i.indexrelid, 1 AS step, pg_get_indexdef(i.indexrelid) AS ddl
		  FROM pg_index i WHERE i.indrelid = ANY (p_tables)
		  UNION ALL
		  SELECT i.indexrelid, 2, format('COMMENT ON INDEX %s IS %L', i.indexrelid::regclass,
										 obj_description(i.indexrelid, 'pg_class'))
		  FROM pg_index i WHERE i.indrelid = ANY (p_tables)
			AND obj_description(i.indexrelid, 'pg_class') IS NOT NULL) d
	WHERE NOT EXISTS (SELECT FROM pg_constraint k
					  WHERE k.conindid = d.indexrelid AND k.contype IN ('p', 'u', 'x'));
	FOR v_index IN SELECT i.indexrelid::regclass FROM pg_index i
				   WHERE i.indrelid = ANY (p_tables)
					 AND NOT EXISTS (SELECT FROM pg_constraint k
									 WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))
				   ORDER BY i.indexrelid LOOP
		EXECUTE format('DROP INDEX %s', v_index);
	END LOOP;
	RETURN v_ddl;
END
$$;
COMMENT ON FUNCTION hroe.drop_secondary_indexes(regclass[]) IS
'internal: drops every index of the tables that backs no primary key, unique or exclusion constraint (for a bulk load) and returns the statements that rebuild them with their names, definitions and comments, in creation order: give them to hroe.execute_ddl';

CREATE FUNCTION hroe.execute_ddl(p_ddl text[])
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_ddl text;
BEGIN
	FOREACH v_ddl IN ARRAY p_ddl LOOP
		EXECUTE v_ddl;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.execute_ddl(text[]) IS
'internal: runs statements in order, under search_path pg_catalog, pg_temp (their names must be qualified): the rebuild of hroe.drop_secondary_indexes and hroe.load''s saved constraints';

CREATE FUNCTION hroe.load(p_scale numeric, p_seed bigint DEFAULT 42)
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- sizes: orders, lines and customers grow with the scale, employees and
	-- products ten times slower; 9 warehouses always
	v_orders bigint;
	v_customers integer;
	v_employees integer;
	v_products integer;
	v_days constant integer := date '2025-12-31' - date '2020-01-01' + 1;
	v_verbose boolean := p_scale >= 10;
	v_started timestamptz := clock_timestamp();
	v_phase timestamptz;
	v_rows bigint;
	v_lines bigint;
	v_list_cents bigint[];
	v_min_cents bigint[];
	v_reps integer[];
	v_nreps integer;
	v_job_of integer[] := '{}';
	v_k integer;
	v_saved_constraints text[];
	v_saved_indexes text[];
	v_ddl text;
	v_model text;
	v_rettype regtype;
	-- Oracle HR's job mix (employees per job in the 107-row sample, the
	-- president excluded) and each job's department
	v_job_ids constant text[] := ARRAY['AD_PRES', 'AD_VP', 'AD_ASST', 'FI_MGR', 'FI_ACCOUNT', 'AC_MGR',
		'AC_ACCOUNT', 'SA_MAN', 'SA_REP', 'PU_MAN', 'PU_CLERK', 'ST_MAN', 'ST_CLERK', 'SH_CLERK',
		'IT_PROG', 'MK_MAN', 'MK_REP', 'HR_REP', 'PR_REP'];
	v_job_weight constant integer[] := ARRAY[0, 2, 1, 1, 5, 1, 1, 5, 30, 1, 5, 5, 20, 20, 5, 1, 1, 1, 1];
	v_job_dept constant integer[] := ARRAY[90, 90, 10, 100, 100, 110, 110, 80, 80, 30, 30, 50, 50, 50,
		60, 20, 20, 40, 70];
	v_first constant text[] := ARRAY['Steven', 'Neena', 'Lex', 'Alexander', 'Bruce', 'David', 'Valli',
		'Diana', 'Nancy', 'Daniel', 'John', 'Ismael', 'Luis', 'Den', 'Shelli', 'Sigal', 'Guy', 'Karen',
		'Matthew', 'Adam', 'Payam', 'Shanta', 'Kevin', 'Julia', 'Irene', 'James', 'Jason', 'Michael',
		'Ki', 'Hazel', 'Renske', 'Stephen', 'Joshua', 'Trenna', 'Curtis', 'Randall', 'Peter', 'Alberto',
		'Gerald', 'Eleni', 'Sean', 'Christopher', 'Nanette', 'Oliver', 'Janette', 'Patrick', 'Allan',
		'Lindsey', 'Louise', 'Sarath', 'Clara', 'Danielle', 'Mattea', 'Sundar', 'Amit', 'Lisa',
		'Harrison', 'Tayler', 'William', 'Elizabeth', 'Sundita', 'Ellen', 'Alyssa', 'Jonathon', 'Jack',
		'Kimberely', 'Charles', 'Winston', 'Jean', 'Martha', 'Girard', 'Nandita', 'Alexis', 'Anthony',
		'Kelly', 'Jennifer', 'Timothy', 'Sarah', 'Britney', 'Samuel', 'Vance', 'Alana', 'Donald',
		'Douglas', 'Pat', 'Susan', 'Hermann', 'Shelley', 'José Manuel', 'Zoë'];
	v_last constant text[] := ARRAY['King', 'Kochhar', 'De Haan', 'Hunold', 'Ernst', 'Austin',
		'Pataballa', 'Lorentz', 'Greenberg', 'Faviet', 'Chen', 'Sciarra', 'Urman', 'Popp', 'Raphaely',
		'Khoo', 'Baida', 'Tobias', 'Himuro', 'Colmenares', 'Weiss', 'Fripp', 'Kaufling', 'Vollman',
		'Mourgos', 'Nayer', 'Mikkilineni', 'Landry', 'Markle', 'Bissot', 'Atkinson', 'Marlow', 'Olson',
		'Mallin', 'Rogers', 'Gee', 'Philtanker', 'Ladwig', 'Stiles', 'Seo', 'Patel', 'Rajs', 'Davies',
		'Matos', 'Vargas', 'Russell', 'Partners', 'Errazuriz', 'Cambrault', 'Zlotkey', 'Tucker',
		'Bernstein', 'Hall', 'Olsen', 'Tuvault', 'Sully', 'McEwen', 'Smith', 'Doran', 'Sewall',
		'Vishney', 'Greene', 'Marvins', 'Lee', 'Ande', 'Banda', 'Ozer', 'Bloom', 'Fox', 'Bates',
		'Kumar', 'Abel', 'Hutton', 'Taylor', 'Livingston', 'Grant', 'Johnson', 'Fleaur', 'Sullivan',
		'Geoni', 'Sarchand', 'Bull', 'Dellinger', 'Cabrio', 'Chung', 'Dilly', 'Gates', 'Perkins',
		'Bell', 'Everett', 'McCain', 'Jones', 'Walsh', 'Feeney', 'OConnell', 'Whalen', 'Hartstein',
		'Fay', 'Mavris', 'Baer', 'Higgins', 'Gietz', 'Müller', 'Ñúñez'];
	v_area constant text[] := ARRAY['515', '590', '650', '603', '011.44'];
	-- customer addresses: city, state (at most 10 characters), country,
	-- NLS language and territory; the first ones are the busiest
	v_city constant text[] := ARRAY['Seattle', 'New York', 'Chicago', 'Boston', 'Dallas', 'Toronto',
		'London', 'Munich', 'Paris', 'Milano', 'Tokyo', 'Sydney', 'Bombay', 'Beijing', 'Sao Paulo',
		'Mexico City'];
	v_state constant text[] := ARRAY['WA', 'NY', 'IL', 'MA', 'TX', 'ON', NULL, 'Bavaria', NULL, NULL,
		NULL, 'NSW', 'MH', NULL, 'SP', 'DF'];
	v_country constant text[] := ARRAY['US', 'US', 'US', 'US', 'US', 'CA', 'UK', 'DE', 'FR', 'IT', 'JP',
		'AU', 'IN', 'CN', 'BR', 'MX'];
	v_lang constant text[] := ARRAY['us', 'us', 'us', 'us', 'us', 'us', 'us', 'd', 'f', 'i', 'ja', 'us',
		'us', 'zhs', 'ptb', 'esm'];
	v_territory constant text[] := ARRAY['AMERICA', 'AMERICA', 'AMERICA', 'AMERICA', 'AMERICA', 'CANADA',
		'UNITED KINGDOM', 'GERMANY', 'FRANCE', 'ITALY', 'JAPAN', 'AUSTRALIA', 'INDIA', 'CHINA',
		'BRAZIL', 'MEXICO'];
	v_income constant text[] := ARRAY['A: Below 30,000', 'B: 30,000 - 49,999', 'C: 50,000 - 69,999',
		'D: 70,000 - 89,999', 'E: 90,000 - 109,999', 'F: 110,000 - 129,999', 'G: 130,000 - 149,999',
		'H: 150,000 - 169,999', 'I: 170,000 - 189,999', 'J: 190,000 - 249,999', 'K: 250,000 - 299,999',
		'L: 300,000 and above'];
	v_brand constant text[] := ARRAY['Quickcrete', 'Acme', 'Northwind', 'Contoso', 'Fabrikam', 'Tailspin',
		'Litware', 'Proseware', 'Adatum', 'Woodgrove', 'Lucerne', 'Alpine', 'Coho', 'Wingtip', 'Trey',
		'Fourth Coffee'];
	v_noun constant text[] := ARRAY['Cement', 'Drill', 'Hammer', 'Monitor', 'Keyboard', 'Cable', 'Router',
		'Printer', 'Desk', 'Chair', 'Lamp', 'Ladder', 'Saw', 'Paint', 'Glue', 'Screws', 'Battery',
		'Charger', 'Switch', 'Tile'];
	v_unit constant text[] := ARRAY['lb bag', 'pack', 'pc', 'm', 'kit'];
BEGIN
	IF p_scale IS NULL OR p_seed IS NULL THEN
		RAISE EXCEPTION 'scale and seed must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF p_scale < 0.01 OR p_scale > 100000 THEN
		RAISE EXCEPTION 'scale must be between 0.01 and 100000, not %', p_scale
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Scale 1 is about 1,000 orders; scale 3000 is the 3 million orders of the AWS example.';
	END IF;
	v_orders := greatest(1, round(1000 * p_scale));
	v_customers := greatest(1, round(300 * p_scale));
	v_employees := greatest(1, round(10 * (p_scale + 9)));
	v_products := greatest(1, round(30 * (p_scale + 9)));
	-- job drawn from 1..106 -> index into v_job_ids, by the weights above
	FOR v_k IN 1 .. array_length(v_job_ids, 1) LOOP
		v_job_of := v_job_of || array_fill(v_k, ARRAY[v_job_weight[v_k]]);
	END LOOP;

	-- Empty the model, and drop the secondary indexes, unique and foreign-key
	-- constraints: they are rebuilt once the data is in, much faster than
	-- maintaining them row by row.
	TRUNCATE hroe_normalized.regions, hroe_normalized.countries, hroe_normalized.locations,
		hroe_normalized.jobs, hroe_normalized.departments, hroe_normalized.employees,
		hroe_normalized.job_history, hroe_normalized.customers, hroe_normalized.warehouses,
		hroe_normalized.promotions, hroe_normalized.product_information,
		hroe_normalized.product_descriptions, hroe_normalized.orders, hroe_normalized.order_items,
		hroe_normalized.inventories;
	SELECT array_agg(format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
							pg_get_constraintdef(c.oid))
					 ORDER BY c.contype = 'f', c.conrelid::regclass::text, c.conname)
	INTO v_saved_constraints
	FROM pg_constraint c
	WHERE c.connamespace = 'hroe_normalized'::regnamespace AND c.contype IN ('f', 'u');
	FOR v_ddl IN
		SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname)
		FROM pg_constraint c
		WHERE c.connamespace = 'hroe_normalized'::regnamespace AND c.contype IN ('f', 'u')
		ORDER BY c.contype = 'u', c.conrelid::regclass::text, c.conname
	LOOP
		EXECUTE v_ddl;
	END LOOP;
	v_saved_indexes := hroe.drop_secondary_indexes(ARRAY(
		SELECT c.oid::regclass FROM pg_class c
		WHERE c.relnamespace = 'hroe_normalized'::regnamespace AND c.relkind = 'r'));
	v_phase := clock_timestamp();

	-- Reference data: Oracle HR's regions (v19c), countries, locations,
	-- departments and jobs, OE's warehouses and promotions, verbatim.
	INSERT INTO hroe_normalized.regions VALUES
		(1, 'Europe'), (2, 'Americas'), (3, 'Asia'), (4, 'Middle East and Africa');
	INSERT INTO hroe_normalized.countries VALUES
		('AR', 'Argentina', 2), ('AU', 'Australia', 3), ('BE', 'Belgium', 1), ('BR', 'Brazil', 2),
		('CA', 'Canada', 2), ('CH', 'Switzerland', 1), ('CN', 'China', 3), ('DE', 'Germany', 1),
		('DK', 'Denmark', 1), ('EG', 'Egypt', 4), ('FR', 'France', 1), ('IL', 'Israel', 4),
		('IN', 'India', 3), ('IT', 'Italy', 1), ('JP', 'Japan', 3), ('KW', 'Kuwait', 4),
		('ML', 'Malaysia', 3), ('MX', 'Mexico', 2), ('NG', 'Nigeria', 4), ('NL', 'Netherlands', 1),
		('SG', 'Singapore', 3), ('UK', 'United Kingdom', 1), ('US', 'United States of America', 2),
		('ZM', 'Zambia', 4), ('ZW', 'Zimbabwe', 4);
	INSERT INTO hroe_normalized.locations VALUES
		(1000, '1297 Via Cola di Rie', '00989', 'Roma', NULL, 'IT'),
		(1100, '93091 Calle della Testa', '10934', 'Venice', NULL, 'IT'),
		(1200, '2017 Shinjuku-ku', '1689', 'Tokyo', 'Tokyo Prefecture', 'JP'),
		(1300, '9450 Kamiya-cho', '6823', 'Hiroshima', NULL, 'JP'),
		(1400, '2014 Jabberwocky Rd', '26192', 'Southlake', 'Texas', 'US'),
		(1500, '2011 Interiors Blvd', '99236', 'South San Francisco', 'California', 'US'),
		(1600, '2007 Zagora St', '50090', 'South Brunswick', 'New Jersey', 'US'),
		(1700, '2004 Charade Rd', '98199', 'Seattle', 'Washington', 'US'),
		(1800, '147 Spadina Ave', 'M5V 2L7', 'Toronto', 'Ontario', 'CA'),
		(1900, '6092 Boxwood St', 'YSW 9T2', 'Whitehorse', 'Yukon', 'CA'),
		(2000, '40-5-12 Laogianggen', '190518', 'Beijing', NULL, 'CN'),
		(2100, '1298 Vileparle (E)', '490231', 'Bombay', 'Maharashtra', 'IN'),
		(2200, '12-98 Victoria Street', '2901', 'Sydney', 'New South Wales', 'AU'),
		(2300, '198 Clementi North', '540198', 'Singapore', NULL, 'SG'),
		(2400, '8204 Arthur St', NULL, 'London', NULL, 'UK'),
		(2500, 'Magdalen Centre, The Oxford Science Park', 'OX9 9ZB', 'Oxford', 'Oxford', 'UK'),
		(2600, '9702 Chester Road', '09629850293', 'Stretford', 'Manchester', 'UK'),
		(2700, 'Schwanthalerstr. 7031', '80925', 'Munich', 'Bavaria', 'DE'),
		(2800, 'Rua Frei Caneca 1360', '01307-002', 'Sao Paulo', 'Sao Paulo', 'BR'),
		(2900, '20 Rue des Corps-Saints', '1730', 'Geneva', 'Geneve', 'CH'),
		(3000, 'Murtenstrasse 921', '3095', 'Bern', 'BE', 'CH'),
		(3100, 'Pieter Breughelstraat 837', '3029SK', 'Utrecht', 'Utrecht', 'NL'),
		(3200, 'Mariano Escobedo 9991', '11932', 'Mexico City', 'Distrito Federal,', 'MX');
	INSERT INTO hroe_normalized.jobs VALUES
		('AD_PRES', 'President', 20080, 40000),
		('AD_VP', 'Administration Vice President', 15000, 30000),
		('AD_ASST', 'Administration Assistant', 3000, 6000),
		('FI_MGR', 'Finance Manager', 8200, 16000),
		('FI_ACCOUNT', 'Accountant', 4200, 9000),
		('AC_MGR', 'Accounting Manager', 8200, 16000),
		('AC_ACCOUNT', 'Public Accountant', 4200, 9000),
		('SA_MAN', 'Sales Manager', 10000, 20080),
		('SA_REP', 'Sales Representative', 6000, 12008),
		('PU_MAN', 'Purchasing Manager', 8000, 15000),
		('PU_CLERK', 'Purchasing Clerk', 2500, 5500),
		('ST_MAN', 'Stock Manager', 5500, 8500),
		('ST_CLERK', 'Stock Clerk', 2008, 5000),
		('SH_CLERK', 'Shipping Clerk', 2500, 5500),
		('IT_PROG', 'Programmer', 4000, 10000),
		('MK_MAN', 'Marketing Manager', 9000, 15000),
		('MK_REP', 'Marketing Representative', 4000, 9000),
		('HR_REP', 'Human Resources Representative', 4000, 9000),
		('PR_REP', 'Public Relations Representative', 4500, 10500);
	INSERT INTO hroe_normalized.departments (department_id, department_name, location_id) VALUES
		(10, 'Administration', 1700), (20, 'Marketing', 1800), (30, 'Purchasing', 1700),
		(40, 'Human Resources', 2400), (50, 'Shipping', 1500), (60, 'IT', 1400),
		(70, 'Public Relations', 2700), (80, 'Sales', 2500), (90, 'Executive', 1700),
		(100, 'Finance', 1700), (110, 'Accounting', 1700), (120, 'Treasury', 1700),
		(130, 'Corporate Tax', 1700), (140, 'Control And Credit', 1700),
		(150, 'Shareholder Services', 1700), (160, 'Benefits', 1700), (170, 'Manufacturing', 1700),
		(180, 'Construction', 1700), (190, 'Contracting', 1700), (200, 'Operations', 1700),
		(210, 'IT Support', 1700), (220, 'NOC', 1700), (230, 'IT Helpdesk', 1700),
		(240, 'Government Sales', 1700), (250, 'Retail Sales', 1700), (260, 'Recruiting', 1700),
		(270, 'Payroll', 1700);
	INSERT INTO hroe_normalized.warehouses VALUES
		(1, 'Southlake, Texas', 1400), (2, 'San Francisco', 1500), (3, 'New Jersey', 1600),
		(4, 'Seattle, Washington', 1700), (5, 'Toronto', 1800), (6, 'Sydney', 2200),
		(7, 'Mexico City', 3200), (8, 'Beijing', 2000), (9, 'Bombay', 2100);
	INSERT INTO hroe_normalized.promotions VALUES (1, 'everyday low price'), (2, 'blowout sale');
	FOREACH v_ddl IN ARRAY ARRAY['regions', 'countries', 'locations', 'jobs', 'departments',
								 'warehouses', 'promotions'] LOOP
		EXECUTE format('SELECT count(*) FROM hroe_normalized.%I', v_ddl) INTO v_rows;
		table_name := 'hroe_normalized.' || v_ddl; row_count := v_rows; RETURN NEXT;
	END LOOP;

	-- Employees 100, 101, ...: 100 is the president; the others' jobs follow
	-- Oracle's mix.  Sales staff were hired before the first order (2020);
	-- a fifth of the others changed job once (job_history).  Names are drawn
	-- Zipf-like from small lists (as real names are), so full names repeat.
	INSERT INTO hroe_normalized.employees
		(employee_id, first_name, last_name, email, phone_numbers, hire_date, job_id,
		 job_start_date, salary, commission_pct, manager_id, department_id)
	SELECT g.i + 100, g.first_name, g.last_name,
		   upper(left(g.first_name, 1) || left(regexp_replace(g.last_name, '[^A-Za-z]', '', 'g'), 12))
			   || (g.i + 100),
		   (CASE g.nphones
				WHEN 1 THEN ARRAY[g.phone1]
				WHEN 2 THEN ARRAY[g.phone1, g.phone2]
				ELSE ARRAY[g.phone1, g.phone2, g.phone3] END)::varchar(25)[],
		   g.hire_date, j.job_id,
		   CASE WHEN g.i > 0 AND g.hire_date <= date '2025-06-30' AND hroe.prng(p_seed, 12, g.i) < 0.2
				THEN g.hire_date + hroe.prng_int(p_seed, 13, g.i, 1, least(1500, date '2025-12-31' - g.hire_date))::integer
				ELSE g.hire_date END,
		   j.min_salary + 100 * hroe.prng_int(p_seed, 15, g.i, 0, (j.max_salary - j.min_salary) / 100),
		   CASE WHEN j.job_id LIKE 'SA\_%' THEN 0.05 * hroe.prng_int(p_seed, 16, g.i, 2, 8) END,
		   NULL, g.department_id
	FROM (SELECT i,
				 v_first[hroe.prng_zipf(p_seed, 2, i, cardinality(v_first))] AS first_name,
				 v_last[hroe.prng_zipf(p_seed, 5, i, cardinality(v_last))] AS last_name,
				 1 + (hroe.prng(p_seed, 7, i) < 0.3)::integer + (hroe.prng(p_seed, 7, i) < 0.1)::integer AS nphones,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i, 1000, 9999) AS phone1,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i + 1, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i + 1, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i + 1, 1000, 9999) AS phone2,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i + 2, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i + 2, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i + 2, 1000, 9999) AS phone3,
				 k AS job_index,
				 v_job_dept[k] AS department_id,
				 CASE WHEN k = 1 THEN date '2010-01-04'
					  WHEN v_job_ids[k] IN ('SA_REP', 'SA_MAN')
					  THEN date '2010-01-01' + hroe.prng_int(p_seed, 11, i, 0, 3651)::integer
					  ELSE date '2010-01-01' + hroe.prng_int(p_seed, 11, i, 0, 5843)::integer END AS hire_date
		  FROM generate_series(0, v_employees - 1) AS i,
			   LATERAL (SELECT CASE WHEN i = 0 THEN 1
									ELSE v_job_of[hroe.prng_int(p_seed, 10, i, 1, cardinality(v_job_of))] END AS k) AS kk
		 ) AS g
	JOIN hroe_normalized.jobs j ON j.job_id = v_job_ids[g.job_index]
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.employees'; row_count := v_rows; RETURN NEXT;

	-- Managers: VPs report to the president, other managers to a VP, staff
	-- to a manager of their department (else the president).
	WITH mgr AS (
		SELECT e.employee_id, e.department_id,
			   row_number() OVER (PARTITION BY e.department_id ORDER BY e.employee_id) AS rn,
			   count(*) OVER (PARTITION BY e.department_id) AS cnt
		FROM hroe_normalized.employees e
		WHERE e.job_id IN ('AD_VP', 'FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN', 'ST_MAN', 'MK_MAN')
	), vp AS (
		SELECT e.employee_id, row_number() OVER (ORDER BY e.employee_id) AS rn,
			   count(*) OVER () AS cnt
		FROM hroe_normalized.employees e WHERE e.job_id = 'AD_VP'
	), pick AS (
		SELECT e.employee_id,
			   CASE WHEN e.job_id = 'AD_PRES' THEN NULL
					WHEN e.job_id = 'AD_VP' THEN 100
					WHEN e.job_id IN ('FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN', 'ST_MAN', 'MK_MAN')
					THEN COALESCE((SELECT v.employee_id FROM vp v
								   WHERE v.rn = 1 + hroe.prng_int(p_seed, 17, e.employee_id, 0,
																  (SELECT count(*) FROM vp) - 1)), 100)
					ELSE COALESCE(m.employee_id, 100) END AS manager_id
		FROM (SELECT e.*, 1 + hroe.prng_int(p_seed, 18, e.employee_id, 0, mc.cnt - 1) AS pick_rn
			  FROM hroe_normalized.employees e
			  LEFT JOIN (SELECT department_id, max(cnt) AS cnt FROM mgr GROUP BY department_id) mc
				  ON mc.department_id = e.department_id
			  OFFSET 0) e
		LEFT JOIN mgr m ON m.department_id = e.department_id AND m.rn = e.pick_rn
	)
	UPDATE hroe_normalized.employees e SET manager_id = p.manager_id
	FROM pick p WHERE p.employee_id = e.employee_id AND p.manager_id IS NOT NULL;
	UPDATE hroe_normalized.departments d
	SET manager_id = (SELECT e.employee_id FROM hroe_normalized.employees e
					  WHERE e.department_id = d.department_id
					  ORDER BY e.job_id NOT IN ('AD_PRES', 'AD_VP', 'FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN',
												'ST_MAN', 'MK_MAN'), e.employee_id
					  LIMIT 1)
	WHERE EXISTS (SELECT FROM hroe_normalized.employees e WHERE e.department_id = d.department_id);

	-- The past job of those whose current job began after their hire date.
	INSERT INTO hroe_normalized.job_history (employee_id, start_date, end_date, job_id, department_id)
	SELECT e.employee_id, e.hire_date, e.job_start_date - 1, v_job_ids[h.k], v_job_dept[h.k]
	FROM hroe_normalized.employees e,
		 LATERAL (SELECT v_job_of[hroe.prng_int(p_seed, 14, e.employee_id - 100, 1, cardinality(v_job_of))] AS k) h
	WHERE e.job_start_date > e.hire_date
	ORDER BY e.employee_id;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.job_history'; row_count := v_rows; RETURN NEXT;

	SELECT array_agg(e.employee_id ORDER BY e.employee_id) INTO v_reps
	FROM hroe_normalized.employees e WHERE e.job_id = 'SA_REP';
	v_nreps := COALESCE(cardinality(v_reps), 0);

	-- Customers 1, 2, ...: a fifth without an account manager, the others
	-- managed by a sales rep chosen with a skew (some reps are far busier).
	INSERT INTO hroe_normalized.customers
		(customer_id, cust_first_name, cust_last_name, street_address, postal_code, city,
		 state_province, country_id, phone_numbers, nls_language, nls_territory, credit_limit,
		 cust_email, account_mgr_id, date_of_birth, marital_status, gender, income_level)
	SELECT g.i, g.first_name, g.last_name,
		   hroe.prng_int(p_seed, 23, g.i, 1, 9999) || ' ' || v_last[hroe.prng_int(p_seed, 24, g.i, 1, cardinality(v_last))]
			   || (ARRAY[' St', ' Ave', ' Rd', ' Blvd'])[hroe.prng_int(p_seed, 25, g.i, 1, 4)],
		   lpad(hroe.prng_int(p_seed, 26, g.i, 0, 99999)::text, 5, '0'),
		   v_city[g.c], v_state[g.c], v_country[g.c],
		   (CASE WHEN g.u < 0.1 THEN ARRAY[]::text[]
				 WHEN g.u < 0.7 THEN ARRAY[g.phone1]
				 WHEN g.u < 0.95 THEN ARRAY[g.phone1, g.phone2]
				 ELSE ARRAY[g.phone1, g.phone2, g.phone3] END)::varchar(25)[],
		   v_lang[g.c], v_territory[g.c],
		   100 * hroe.prng_int(p_seed, 27, g.i, 1, 50),
		   lower(left(regexp_replace(g.first_name, '[^A-Za-z]', '', 'g'), 12) || '.' || left(regexp_replace(g.last_name, '[^A-Za-z]', '', 'g'), 12))
			   || '@example.com',
		   CASE WHEN v_nreps > 0 AND hroe.prng(p_seed, 28, g.i) >= 0.2
				THEN v_reps[CASE WHEN hroe.prng(p_seed, 29, g.i) < 0.5
								 THEN hroe.prng_zipf(p_seed, 30, g.i, v_nreps)
								 ELSE hroe.prng_int(p_seed, 31, g.i, 1, v_nreps) END] END,
		   date '1940-01-01' + hroe.prng_int(p_seed, 32, g.i, 0, 23740)::integer,
		   (ARRAY['married', 'single'])[hroe.prng_int(p_seed, 33, g.i, 1, 2)],
		   (ARRAY['M', 'F'])[hroe.prng_int(p_seed, 34, g.i, 1, 2)],
		   v_income[hroe.prng_int(p_seed, 35, g.i, 1, cardinality(v_income))]
	FROM (SELECT i,
				 v_first[hroe.prng_zipf(p_seed, 20, i, cardinality(v_first))] AS first_name,
				 v_last[hroe.prng_zipf(p_seed, 36, i, cardinality(v_last))] AS last_name,
				 hroe.prng_zipf(p_seed, 38, i, cardinality(v_city)) AS c,
				 hroe.prng(p_seed, 39, i) AS u,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i, 1000, 9999) AS phone1,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i + 1, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i + 1, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i + 1, 1000, 9999) AS phone2,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i + 2, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i + 2, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i + 2, 1000, 9999) AS phone3
		  FROM generate_series(1, v_customers) AS i) AS g
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.customers'; row_count := v_rows; RETURN NEXT;

	-- Products 1, 2, ...: the first ten (the busiest) are orderable.
	INSERT INTO hroe_normalized.product_information
		(product_id, product_name, product_description, category_id, weight_class, warranty_period,
		 supplier_id, product_status, list_price, min_price, catalog_url)
	SELECT g.i, g.name,
		   'The ' || lower(g.noun) || ' by ' || g.brand || ', sold by the ' || g.unit || '.',
		   10 + hroe.prng_int(p_seed, 64, g.i, 1, 23), hroe.prng_int(p_seed, 65, g.i, 1, 5),
		   make_interval(months => 6 * hroe.prng_int(p_seed, 66, g.i, 0, 8)::integer),
		   g.supplier,
		   CASE WHEN g.i <= 10 OR g.u < 0.90 THEN 'orderable' WHEN g.u < 0.94 THEN 'planned'
				WHEN g.u < 0.97 THEN 'under development' ELSE 'obsolete' END,
		   g.list_price, round(g.list_price * (0.75 + 0.2 * hroe.prng(p_seed, 67, g.i))::numeric, 2),
		   'http://www.supp-' || g.supplier || '.com/cat/p' || g.i || '.html'
	FROM (SELECT i,
				 v_brand[hroe.prng_int(p_seed, 60, i, 1, cardinality(v_brand))] || ' '
					 || v_noun[n.k] || ' - ' || hroe.prng_int(p_seed, 62, i, 1, 100) || ' '
					 || v_unit[n.u] AS name,
				 v_brand[hroe.prng_int(p_seed, 60, i, 1, cardinality(v_brand))] AS brand,
				 v_noun[n.k] AS noun, v_unit[n.u] AS unit,
				 102050 + hroe.prng_int(p_seed, 68, i, 0, 99) AS supplier,
				 hroe.prng(p_seed, 69, i) AS u,
				 round(exp(ln(5) + ln(1000) * hroe.prng(p_seed, 70, i))::numeric, 2) AS list_price
		  FROM generate_series(1, v_products) AS i,
			   LATERAL (SELECT hroe.prng_int(p_seed, 61, i, 1, cardinality(v_noun)) AS k,
							   hroe.prng_int(p_seed, 63, i, 1, cardinality(v_unit)) AS u) AS n) AS g
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.product_information'; row_count := v_rows; RETURN NEXT;

	INSERT INTO hroe_normalized.product_descriptions (product_id, language_id, translated_name, translated_description)
	SELECT p.product_id, l.lang, p.product_name, p.product_description || ' [' || l.lang || ']'
	FROM hroe_normalized.product_information p
	CROSS JOIN (VALUES (1, 'US'), (2, 'F'), (3, 'D')) AS l (n, lang)
	ORDER BY p.product_id, l.n;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.product_descriptions'; row_count := v_rows; RETURN NEXT;

	-- Stock: an orderable or obsolete product is kept at each warehouse with
	-- probability 0.45; quantities are skewed towards small numbers.
	INSERT INTO hroe_normalized.inventories (product_id, warehouse_id, quantity_on_hand)
	SELECT p.product_id, w.warehouse_id,
		   floor(1000 * hroe.prng(p_seed, 72, 16 * p.product_id + w.warehouse_id) ^ 2)::integer
	FROM hroe_normalized.product_information p
	CROSS JOIN hroe_normalized.warehouses w
	WHERE p.product_status IN ('orderable', 'obsolete')
	  AND hroe.prng(p_seed, 71, 16 * p.product_id + w.warehouse_id) < 0.45
	ORDER BY p.product_id, w.warehouse_id;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.inventories'; row_count := v_rows; RETURN NEXT;
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: HR, customers and products done (% s)',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();

	-- Orders 1..N in date order over 2020-2025.  hroe.order_line_draws gives
	-- each order's distinct products (1 to 5 candidate lines, half uniform,
	-- half Zipf-skewed) with the candidate that drew each; a line's quantity
	-- and price (list, or min for a fifth of the lines) follow from that
	-- candidate's key, so the lines and the order's total are computed
	-- alike, streaming, without a sort.  Prices are looked up by product id
	-- in arrays of whole cents (fixed width: constant time).
	SELECT array_agg((p.list_price * 100)::bigint ORDER BY p.product_id),
		   array_agg((p.min_price * 100)::bigint ORDER BY p.product_id)
	INTO v_list_cents, v_min_cents
	FROM hroe_normalized.product_information p;
	INSERT INTO hroe_normalized.order_items (order_id, line_item_id, product_id, unit_price, quantity)
	SELECT o, l.n, (l.x >> 3)::integer,
		   0.01 * hroe.order_line_cents(p_seed, o, l.x, v_list_cents, v_min_cents),
		   hroe.order_line_quantity(p_seed, o, l.x)
	FROM generate_series(1, v_orders) AS o,
		 unnest(hroe.order_line_draws(p_seed, o, v_products)) WITH ORDINALITY AS l (x, n);
	GET DIAGNOSTICS v_lines = ROW_COUNT;

	-- Exactly one order in each run of five consecutive ids is OPEN (20%);
	-- the others are SHIPPED 10%, CLOSED 65%, CANCELED 5% of all orders.
	-- Direct orders (70%) have a sales rep (half uniform, half Zipf-skewed),
	-- online ones none; customers are 70% uniform, 30% skewed.
	INSERT INTO hroe_normalized.orders
		(order_id, order_date, order_mode, customer_id, order_status, order_total, sales_rep_id, promotion_id)
	SELECT g.o,
		   date '2020-01-01' + floor((g.o - 1 + hroe.prng(p_seed, 41, g.o)) * v_days / v_orders)::integer,
		   CASE WHEN g.direct THEN 'direct' ELSE 'online' END,
		   CASE WHEN hroe.prng(p_seed, 42, g.o) < 0.7
				THEN hroe.prng_int(p_seed, 43, g.o, 1, v_customers)
				ELSE hroe.prng_zipf(p_seed, 44, g.o, v_customers) END,
		   CASE WHEN (g.o - 1) % 5 = hroe.prng_int(p_seed, 45, (g.o - 1) / 5, 0, 4) THEN 'OPEN'
				WHEN hroe.prng(p_seed, 46, g.o) < 0.125 THEN 'SHIPPED'
				WHEN hroe.prng(p_seed, 46, g.o) < 0.9375 THEN 'CLOSED'
				ELSE 'CANCELED' END,
		   t.total,
		   CASE WHEN g.direct AND v_nreps > 0
				THEN v_reps[CASE WHEN hroe.prng(p_seed, 48, g.o) < 0.5
								 THEN hroe.prng_zipf(p_seed, 49, g.o, v_nreps)
								 ELSE hroe.prng_int(p_seed, 56, g.o, 1, v_nreps) END] END,
		   CASE WHEN hroe.prng(p_seed, 57, g.o) < 0.05 THEN hroe.prng_int(p_seed, 58, g.o, 1, 2) END
	FROM (SELECT o, hroe.prng(p_seed, 47, o) < 0.7 AS direct FROM generate_series(1, v_orders) AS o) AS g,
		 LATERAL (SELECT 0.01 * sum(hroe.order_line_cents(p_seed, g.o, x, v_list_cents, v_min_cents)
									* hroe.order_line_quantity(p_seed, g.o, x)) AS total
				  FROM unnest(hroe.order_line_draws(p_seed, g.o, v_products)) AS x) AS t;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.orders'; row_count := v_rows; RETURN NEXT;
	table_name := 'hroe_normalized.order_items'; row_count := v_lines; RETURN NEXT;
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: % orders with % lines (% s)', v_orders, v_lines,
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();

	-- Rebuild the indexes and constraints, then the planner statistics.
	PERFORM hroe.execute_ddl(v_saved_indexes || COALESCE(v_saved_constraints, '{}'));
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: indexes and constraints rebuilt (% s)',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();
	ANALYZE hroe_normalized.regions, hroe_normalized.countries, hroe_normalized.locations,
		hroe_normalized.jobs, hroe_normalized.departments, hroe_normalized.employees,
		hroe_normalized.job_history, hroe_normalized.customers, hroe_normalized.warehouses,
		hroe_normalized.promotions, hroe_normalized.product_information,
		hroe_normalized.product_descriptions, hroe_normalized.orders, hroe_normalized.order_items,
		hroe_normalized.inventories;
	PERFORM setval('hroe_normalized.order_id_seq', v_orders);
	PERFORM setval('hroe_normalized.employee_id_seq', 99 + v_employees);
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: normalized model analyzed (% s); % s in all so far',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1),
			round(extract(epoch FROM clock_timestamp() - v_started)::numeric, 1);
	END IF;

	-- The other models map the normalized data, in this transaction, through
	-- <model>.load_from_normalized(): no arguments, returning void or
	-- TABLE (table_name text, row_count bigint); a model not installed yet is
	-- skipped.
	FOREACH v_model IN ARRAY ARRAY['hroe_single', 'hroe_multi'] LOOP
		v_rettype := (SELECT p.prorettype::regtype FROM pg_proc p
					  WHERE p.oid = to_regprocedure(v_model || '.load_from_normalized()'));
		CONTINUE WHEN v_rettype IS NULL;
		v_phase := clock_timestamp();
		IF v_rettype = 'void'::regtype THEN
			EXECUTE format('SELECT %I.load_from_normalized()', v_model);
		ELSE
			RETURN QUERY EXECUTE format('SELECT t.table_name::text, t.row_count::bigint FROM %I.load_from_normalized() t',
										v_model);
		END IF;
		IF v_verbose THEN
			RAISE NOTICE 'hroe.load: % mapped (% s)', v_model,
				round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
		END IF;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.load(numeric, bigint) IS
'fills hroe_normalized with deterministic HR/OE data (scale 1: 1,000 orders, 300 customers, 100 employees, 300 products, 9 warehouses; scale 3000: 3 million orders), then runs hroe_single/hroe_multi.load_from_normalized() when they exist; returns the rows per table';
