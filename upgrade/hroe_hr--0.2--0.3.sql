-- hroe_hr 0.2 -> 0.3 (ALTER EXTENSION hroe_hr UPDATE TO '0.3')
--
-- Each change to the install script's pieces in models/ is repeated here,
-- so that an updated database has the catalog of a fresh 0.3 installation
-- (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe_hr UPDATE TO '0.3'" to load this file. \quit

-- The generator's C functions are in hroe_hr's own library (models/generate.c),
-- no longer in hroe's
CREATE OR REPLACE FUNCTION hroe.prng(seed bigint, stream integer, i bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'hroe_prng'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.prng_int(seed bigint, stream integer, i bigint, lo bigint, hi bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_int'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.prng_zipf(seed bigint, stream integer, i bigint, n bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_zipf'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.order_line_draws(seed bigint, order_id bigint, products bigint)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'hroe_order_line_draws'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- hroe.compare_html prices each design at its tables' class (TableClass:
-- STANDARD or STANDARD_INFREQUENT_ACCESS) and shows the class
CREATE OR REPLACE FUNCTION hroe.compare_html(p_results jsonb, p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[];
	v_read_price numeric := COALESCE((p_options ->> 'read_price')::numeric, 0.125);
	v_write_price numeric := COALESCE((p_options ->> 'write_price')::numeric, 0.625);
	v_storage_price numeric := COALESCE((p_options ->> 'storage_price')::numeric, 0.25);
	-- the Standard-Infrequent Access table class: requests 25 % dearer, storage 60 % cheaper
	v_ia_read_price numeric := COALESCE((p_options ->> 'ia_read_price')::numeric, 0.15625);
	v_ia_write_price numeric := COALESCE((p_options ->> 'ia_write_price')::numeric, 0.78125);
	v_ia_storage_price numeric := COALESCE((p_options ->> 'ia_storage_price')::numeric, 0.10);
	v_class jsonb := '{}';
	v_prices_read text := COALESCE(p_options ->> 'prices_read', '2026-11-27');
	v_grid_items integer := COALESCE((p_options ->> 'grid_items')::integer, 12);
	v_emp integer;
	v_order bigint;
	v_product integer;
	v_html text;
	v_body text := '';
	v_nav text := '';
	v_s text;
	r record;
	v_idx record;
	v_first text;
	v_labels text[];
	v_data jsonb;
	i integer;
BEGIN
	IF p_results IS NULL OR jsonb_typeof(p_results) <> 'array' THEN
		RAISE EXCEPTION 'p_results must be a jsonb array of hroe.compare() rows' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_options IS NULL OR jsonb_typeof(p_options) <> 'object' THEN
		RAISE EXCEPTION 'p_options must be a jsonb object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF v_read_price < 0 OR v_write_price < 0 OR v_storage_price < 0 OR
	   v_ia_read_price < 0 OR v_ia_write_price < 0 OR v_ia_storage_price < 0 THEN
		RAISE EXCEPTION 'prices must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF v_grid_items < 1 OR v_grid_items > 1000 THEN
		RAISE EXCEPTION 'grid_items must be between 1 and 1000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the run's rows, in their order; a case is a (pattern, label) pair
	-- scratch tables, one per session, created on first use (checked
	-- rather than IF NOT EXISTS, whose NOTICE would reach the caller)
	IF to_regclass('pg_temp.hroe_report_rows') IS NULL THEN
		CREATE TEMP TABLE hroe_report_rows (
		n bigint, pattern_no integer, pattern text, kind text, case_label text, case_no integer, model text,
		identical boolean, result_rows bigint, plan_shape text, shared_hit bigint, shared_read bigint,
		request text, requests integer, items bigint, item_bytes bigint, capacity numeric, capacity_unit text,
		median_ms numeric);
		CREATE TEMP TABLE hroe_report_cost (pattern_no integer, pattern text, model text, calls numeric, per_million numeric);
	END IF;
	TRUNCATE pg_temp.hroe_report_rows;
	INSERT INTO pg_temp.hroe_report_rows
	SELECT e.n, (e.r ->> 'pattern_no')::integer, e.r ->> 'pattern', e.r ->> 'kind', e.r ->> 'case_label',
		   dense_rank() OVER (ORDER BY (e.r ->> 'pattern_no')::integer, e.first_n),
		   e.r ->> 'model', (e.r ->> 'identical')::boolean, (e.r ->> 'result_rows')::bigint, e.r ->> 'plan_shape',
		   (e.r ->> 'shared_hit')::bigint, (e.r ->> 'shared_read')::bigint, e.r ->> 'request', (e.r ->> 'requests')::integer,
		   (e.r ->> 'items')::bigint, (e.r ->> 'item_bytes')::bigint, (e.r ->> 'capacity')::numeric, e.r ->> 'capacity_unit',
		   (e.r ->> 'median_ms')::numeric
	FROM (SELECT a.r, a.n, min(a.n) OVER (PARTITION BY a.r ->> 'pattern_no', a.r ->> 'case_label') AS first_n
		  FROM jsonb_array_elements(p_results) WITH ORDINALITY AS a (r, n)) e;
	v_models := ARRAY(SELECT model FROM pg_temp.hroe_report_rows GROUP BY model ORDER BY min(n));

	-- the summary: a row per case, the designs side by side, the verdict
	v_s := '<table id="summary" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>case</th><th>answers</th>'
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%s ms</th>', hroe.html_escape(m)), '' ORDER BY o) FROM unnest(v_models) WITH ORDINALITY u (m, o)), '')
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%s capacity</th>', hroe.html_escape(m)), '' ORDER BY o) FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '<th>verdict</th></tr></thead><tbody>';
	FOR r IN SELECT c.case_no, min(c.pattern_no) AS pattern_no, min(c.pattern) AS pattern, min(c.kind) AS kind,
					min(c.case_label) AS case_label, bool_and(c.identical) AS identical,
					jsonb_object_agg(c.model, jsonb_build_object('ms', c.median_ms, 'cap', c.capacity, 'unit', c.capacity_unit)) AS m
			 FROM pg_temp.hroe_report_rows c GROUP BY c.case_no ORDER BY c.case_no LOOP
		v_s := v_s || format('<tr data-pattern="%s" data-case="%s"><td data-v="%s">%s</td><td>%s</td><td>%s</td><td class="%s">%s</td>',
							 hroe.html_escape(r.pattern), hroe.html_escape(r.case_label), r.pattern_no, r.pattern_no,
							 hroe.html_escape(r.pattern) || CASE WHEN r.kind = 'write' THEN ' <small>(write)</small>' ELSE '' END,
							 hroe.html_escape(r.case_label), CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
							 CASE WHEN r.identical THEN 'identical' ELSE 'DIFFER' END)
			-- the fastest design's cell marked
			|| (SELECT string_agg(format('<td class="num%s" data-v="%s">%s</td>',
										 CASE WHEN (r.m -> m ->> 'ms')::numeric = (SELECT min((r.m -> m2 ->> 'ms')::numeric) FROM unnest(v_models) m2)
											  THEN ' win' ELSE '' END,
										 r.m -> m ->> 'ms', COALESCE(r.m -> m ->> 'ms', '')), '' ORDER BY o)
				FROM unnest(v_models) WITH ORDINALITY u (m, o))
			|| COALESCE((SELECT string_agg(format('<td class="num" data-v="%s">%s</td>', r.m -> m ->> 'cap',
												  COALESCE((r.m -> m ->> 'cap') || ' ' || (r.m -> m ->> 'unit'), '')), '' ORDER BY o)
						 FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
			-- the verdict: the fastest design and its lead over the next;
			-- the design with the least capacity
			|| '<td class="verdict">' || CASE WHEN NOT r.identical THEN '<b class="bad">answers differ</b>' ELSE
				COALESCE((SELECT format('<b>%s</b> fastest%s', hroe.html_escape(f.m),
						CASE WHEN f.next_ms = f.ms THEN format(', tied with %s', hroe.html_escape(f.next_m))
							 WHEN f.next_ms IS NOT NULL AND f.ms > 0 THEN format(', %s&times; ahead of %s', round(f.next_ms / f.ms, 2), hroe.html_escape(f.next_m))
							 ELSE '' END)
					FROM (SELECT m, (r.m -> m ->> 'ms')::numeric AS ms,
								 lead((r.m -> m ->> 'ms')::numeric) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_ms,
								 lead(m) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_m
						  FROM unnest(v_models) m WHERE r.m -> m ->> 'ms' IS NOT NULL
						  ORDER BY 2, 1 LIMIT 1) f), '')
				|| COALESCE((SELECT format('; least capacity: <b>%s</b> (%s vs %s %s)', hroe.html_escape(f.m), f.cap, f.next_cap, f.unit)
					FROM (SELECT m, (r.m -> m ->> 'cap')::numeric AS cap, r.m -> m ->> 'unit' AS unit,
								 lead((r.m -> m ->> 'cap')::numeric) OVER (ORDER BY (r.m -> m ->> 'cap')::numeric, m) AS next_cap
						  FROM unnest(v_models) m WHERE r.m -> m ->> 'cap' IS NOT NULL
						  ORDER BY 2, 1 LIMIT 1) f WHERE f.next_cap IS NOT NULL AND f.next_cap <> f.cap), '') END
			|| '</td></tr>';
	END LOOP;
	v_body := v_body || '<section id="s-summary"><h2>Summary</h2><p>Per access pattern and argument set: whether the three designs return identical answers, each design''s median latency, the DynamoDB capacity a call consumes (RCU for reads, eventually consistent; WCU with index writes for writes), and the verdict. Click a column to sort.</p>'
		|| v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-summary">Summary</a>';

	-- every call, as hroe.compare returned it
	v_s := '<table id="details" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>case</th><th>design</th><th>answers</th><th>DynamoDB request</th>'
		|| '<th data-sort="n">capacity</th><th data-sort="n">rows</th><th data-sort="n">items</th><th data-sort="n">item bytes</th>'
		|| '<th data-sort="n">buffers hit</th><th data-sort="n">buffers read</th><th data-sort="n">median ms</th><th>plan shape</th></tr></thead><tbody>';
	FOR r IN SELECT * FROM pg_temp.hroe_report_rows ORDER BY n LOOP
		v_s := v_s || format('<tr data-n="%s" data-pattern="%s" data-model="%s"><td data-v="%s">%s</td><td>%s</td><td>%s</td><td class="model">%s</td><td class="%s">%s</td><td class="request">%s</td>',
							 r.n, hroe.html_escape(r.pattern), hroe.html_escape(r.model), r.pattern_no, r.pattern_no, hroe.html_escape(r.pattern),
							 hroe.html_escape(r.case_label), hroe.html_escape(r.model), CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
							 CASE WHEN r.identical THEN 'identical' ELSE 'DIFFER' END, hroe.html_escape(COALESCE(r.request, '')))
			|| format('<td class="num capacity" data-v="%s">%s</td><td class="num rows" data-v="%s">%s</td><td class="num items" data-v="%s">%s</td><td class="num bytes" data-v="%s">%s</td>',
					  r.capacity, COALESCE(r.capacity || ' ' || r.capacity_unit, ''), r.result_rows, COALESCE(r.result_rows::text, ''),
					  r.items, COALESCE(r.items::text, ''), r.item_bytes, COALESCE(r.item_bytes::text, ''))
			|| format('<td class="num hit" data-v="%s">%s</td><td class="num read" data-v="%s">%s</td><td class="num ms" data-v="%s">%s</td><td class="plan">%s</td></tr>',
					  r.shared_hit, COALESCE(r.shared_hit::text, ''), r.shared_read, COALESCE(r.shared_read::text, ''),
					  r.median_ms, COALESCE(r.median_ms::text, ''), hroe.html_escape(COALESCE(r.plan_shape, '')));
	END LOOP;
	v_body := v_body || '<section id="s-details"><h2>Every call</h2><p>One row per call of hroe.compare(): the request it amounts to in DynamoDB, the capacity, the rows answered, the items the request evaluates and their bytes, the shared buffers hit and read, the median execution time, and the plan''s node types.</p>'
		|| v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-details">Every call</a>';

	-- charts: the first argument set of each pattern
	v_labels := ARRAY(SELECT format('%s %s', pattern_no, pattern) FROM pg_temp.hroe_report_rows
					  GROUP BY pattern_no, pattern ORDER BY pattern_no);
	SELECT jsonb_agg(jsonb_build_object('label', format('%s %s', c.pattern_no, c.pattern), 'series', c.model, 'value', c.median_ms))
	INTO v_data FROM pg_temp.hroe_report_rows c
	WHERE c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	v_body := v_body || '<section id="s-charts"><h2>Charts</h2><p>The first argument set of each pattern (log scales).</p><div class="charts">'
		|| hroe.report_bar_chart('chart-latency', 'Median latency per pattern and design', 'ms', v_labels, v_models, COALESCE(v_data, '[]'), true);
	SELECT jsonb_agg(jsonb_build_object('label', format('%s %s', c.pattern_no, c.pattern), 'series', c.model, 'value', c.capacity))
	INTO v_data FROM pg_temp.hroe_report_rows c
	WHERE c.capacity IS NOT NULL AND c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	IF v_data IS NOT NULL THEN
		v_body := v_body || hroe.report_bar_chart('chart-capacity', 'Capacity units per call (RCU reads, WCU writes)', 'units', v_labels,
												  ARRAY(SELECT m FROM unnest(v_models) m WHERE m <> 'hroe_normalized'), v_data, true);
	END IF;
	v_body := v_body || '</div>';
	IF jsonb_typeof(p_options -> 'growth') = 'array' AND jsonb_array_length(p_options -> 'growth') > 0 THEN
		v_body := v_body || '<h3 id="s-growth">Growth with the data (the benchmark''s curves)</h3><p>Median latency of the busiest argument set against the scale, from test/bench/compare.sh''s CSV (one client): '
			|| (SELECT string_agg(format('<span style="color:%s">&#9632;</span> %s', hroe.report_colour(m, o::integer), hroe.html_escape(m)), ' &nbsp; ' ORDER BY o)
				FROM (SELECT d ->> 'model' AS m, row_number() OVER (ORDER BY d ->> 'model') AS o
					  FROM jsonb_array_elements(p_options -> 'growth') d GROUP BY 1) g)
			|| '.</p><div class="growth">'
			|| (SELECT string_agg(hroe.report_growth_chart(g.p, p_options -> 'growth'), '' ORDER BY g.n, g.p)
				FROM (SELECT d ->> 'pattern' AS p, min((d ->> 'pattern_no')::integer) AS n
					  FROM jsonb_array_elements(p_options -> 'growth') d GROUP BY 1) g)
			|| '</div>';
	END IF;
	v_body := v_body || '</section>';
	v_nav := v_nav || '<a href="#s-charts">Charts</a>';

	-- the data as the guides draw it (only the models present)
	IF to_regnamespace('hroe_normalized') IS NOT NULL AND EXISTS (SELECT FROM hroe_normalized.orders) THEN
		-- an account manager who changed job: versions in the table, the
		-- customers in GSI1
		v_emp := COALESCE((p_options ->> 'employee_id')::integer,
						  (SELECT min(j.employee_id) FROM hroe_normalized.job_history j
						   WHERE EXISTS (SELECT FROM hroe_normalized.customers c WHERE c.account_mgr_id = j.employee_id)),
						  (SELECT min(employee_id) FROM hroe_normalized.job_history),
						  (SELECT min(employee_id) FROM hroe_normalized.employees));
		v_order := COALESCE((p_options ->> 'order_id')::bigint,
							(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL),
							(SELECT max(order_id) FROM hroe_normalized.orders));
		v_product := COALESCE((p_options ->> 'product_id')::integer, (SELECT min(product_id) FROM hroe_normalized.inventories),
							  (SELECT min(product_id) FROM hroe_normalized.product_information));
		v_s := '';
		IF 'hroe_single' = ANY (v_models) AND EXISTS (SELECT FROM hroe.tables WHERE table_name = 'hroe_single') THEN
			v_s := v_s || format('<h3>hroe_single: the table, by item collection</h3><p>Samples: employee %s, order %s, product %s. Each entity type has its colour; the partition key spans its item collection.</p>', v_emp, v_order, v_product)
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('HR-EMPLOYEE#%s', lpad(v_emp::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('OE-ORDER#%s', lpad(v_order::text, 19, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('OE-PRODUCT#%s', lpad(v_product::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<h3>hroe_single: each GSI, the same items regrouped under its keys</h3><p>Items without the index''s key attributes are absent (sparse indexes).</p>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI1', format('PRODUCT#%s', lpad(v_product::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI1', format('EMPLOYEE#%s', lpad(v_emp::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI3', 'EMPLOYEE-NAME#', v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI4', format('CUSTOMER#%s', lpad((SELECT customer_id FROM hroe_normalized.orders WHERE order_id = v_order)::text, 10, '0')), v_grid_items, 'html') || '</div>';
			-- GSI2, write-sharded: its shards side by side
			v_s := v_s || '<h3>hroe_single: GSI2, write-sharded, its shards side by side</h3><p>Only OPEN orders carry GSI2_PK, a shard number; a Query for open orders reads every shard and merges them by date. The first four shards, keys only.</p><div class="shards">';
			FOR i IN 0 .. LEAST(3, COALESCE((SELECT (hroe.item_get_number(m.item, 'shard_count'))::integer FROM hroe_single.items m
											  WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key LIMIT 1), 4) - 1) LOOP
				v_s := v_s || '<div class="grid shard">' || hroe.grid('hroe_single', 'GSI2', i::text, LEAST(v_grid_items, 6), 'html') || '</div>';
			END LOOP;
			v_s := v_s || '</div>';
		END IF;
		IF 'hroe_multi' = ANY (v_models) AND to_regnamespace('hroe_multi') IS NOT NULL THEN
			v_s := v_s || '<h3>hroe_multi: the tables</h3>';
			FOR r IN SELECT h.table_name FROM hroe.tables h JOIN pg_class c ON c.oid = h.relid
					 WHERE c.relnamespace = 'hroe_multi'::regnamespace ORDER BY c.oid LOOP
				v_first := CASE r.table_name WHEN 'Employee' THEN format('emp_%s', lpad(v_emp::text, 10, '0'))
											 WHEN 'Order' THEN format('ord_%s', lpad(v_order::text, 19, '0'))
											 WHEN 'Product' THEN format('prod_%s', lpad(v_product::text, 10, '0'))
											 WHEN 'Customer' THEN format('cust_%s', lpad((SELECT customer_id FROM hroe_normalized.orders WHERE order_id = v_order)::text, 10, '0')) END;
				v_s := v_s || '<div class="grid">' || hroe.grid(r.table_name, NULL, v_first, LEAST(v_grid_items, 8), 'html') || '</div>';
			END LOOP;
			v_s := v_s || '<h3>hroe_multi: the GSIs</h3>';
			FOR v_idx IN SELECT x.table_name, x.index_name FROM hroe.indexes x JOIN hroe.tables h USING (table_name)
						 JOIN pg_class c ON c.oid = h.relid
						 WHERE c.relnamespace = 'hroe_multi'::regnamespace ORDER BY c.oid, x.created_at, x.index_name LOOP
				v_s := v_s || '<div class="grid">' || hroe.grid(v_idx.table_name, v_idx.index_name, NULL, LEAST(v_grid_items, 6), 'html') || '</div>';
			END LOOP;
		END IF;
		IF v_s <> '' THEN
			v_body := v_body || '<section id="s-data"><h2>The data as the design guides draw it</h2>' || v_s || '</section>';
			v_nav := v_nav || '<a href="#s-data">Data</a>';
		END IF;
	END IF;

	-- cost in money: DynamoDB on-demand, for the request mix, at the prices
	-- of each design's table class (TableClass: hroe.table_options; a design
	-- whose tables' classes differ has its requests priced as STANDARD)
	IF to_regclass('hroe.table_options') IS NOT NULL THEN
		SELECT COALESCE(jsonb_object_agg(x.m, x.cls), '{}') INTO v_class
		FROM (SELECT u.m, CASE WHEN count(DISTINCT COALESCE(o.table_class, 'STANDARD')) > 1 THEN 'mixed'
							   ELSE min(COALESCE(o.table_class, 'STANDARD')) END AS cls
			  FROM unnest(v_models) u (m)
			  JOIN pg_class c ON c.relnamespace = to_regnamespace(u.m)
			  JOIN hroe.tables h ON h.relid = c.oid
			  LEFT JOIN hroe.table_options o ON o.table_name = h.table_name
			  WHERE u.m <> 'hroe_normalized'
			  GROUP BY u.m) x;
	END IF;
	v_s := format('<p>DynamoDB on-demand prices (us-east-1, read %s): table class STANDARD $%s per million read request units, $%s per million write request units, $%s per GB-month of storage; STANDARD_INFREQUENT_ACCESS $%s, $%s and $%s. A read request unit is one RCU of an eventually consistent read here (the capacity column), a write request unit one WCU. Request mix per month: %s.</p>',
				  hroe.html_escape(v_prices_read), v_read_price, v_write_price, v_storage_price,
				  v_ia_read_price, v_ia_write_price, v_ia_storage_price,
				  CASE WHEN p_options ? 'mix' THEN 'as given' ELSE '1,000,000 calls of each read pattern and 100,000 of each write pattern (the default)' END)
		|| '<table id="cost" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th data-sort="n">calls / month</th>'
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%1$s (%2$s) $ / million calls</th><th data-sort="n">%1$s $ / month</th>',
											  hroe.html_escape(m), hroe.html_escape(COALESCE(v_class ->> m, 'STANDARD'))), '' ORDER BY o)
			FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '</tr></thead><tbody>';
	TRUNCATE pg_temp.hroe_report_cost;
	INSERT INTO pg_temp.hroe_report_cost
	SELECT c.pattern_no, c.pattern, c.model,
		   COALESCE((p_options -> 'mix' ->> c.pattern)::numeric, CASE WHEN p_options ? 'mix' THEN 0 WHEN c.kind = 'read' THEN 1000000 ELSE 100000 END),
		   c.capacity * CASE WHEN v_class ->> c.model = 'STANDARD_INFREQUENT_ACCESS'
							 THEN CASE WHEN c.capacity_unit = 'WCU' THEN v_ia_write_price ELSE v_ia_read_price END
							 ELSE CASE WHEN c.capacity_unit = 'WCU' THEN v_write_price ELSE v_read_price END END
	FROM pg_temp.hroe_report_rows c
	WHERE c.capacity IS NOT NULL
	  AND c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	FOR r IN SELECT pattern_no, pattern, max(calls) AS calls, jsonb_object_agg(model, per_million) AS m
			 FROM pg_temp.hroe_report_cost GROUP BY pattern_no, pattern ORDER BY pattern_no LOOP
		v_s := v_s || format('<tr><td data-v="%s">%s</td><td>%s</td><td class="num" data-v="%s">%s</td>', r.pattern_no, r.pattern_no,
							 hroe.html_escape(r.pattern), r.calls, to_char(r.calls, 'FM999,999,999,999'))
			|| (SELECT string_agg(format('<td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td>',
										 r.m ->> m, COALESCE(to_char((r.m ->> m)::numeric, 'FM999,999,990.0000'), ''),
										 (r.m ->> m)::numeric * r.calls / 1000000,
										 COALESCE(to_char((r.m ->> m)::numeric * r.calls / 1000000, 'FM999,999,990.0000'), '')), '' ORDER BY o)
				FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized')
			|| '</tr>';
	END LOOP;
	v_s := v_s || '</tbody><tfoot><tr><th></th><th>requests, per month</th><th></th>'
		|| COALESCE((SELECT string_agg(format('<th></th><th class="num" id="cost-total-%s">$%s</th>', hroe.html_escape(m),
										  to_char(COALESCE((SELECT sum(per_million * calls / 1000000) FROM pg_temp.hroe_report_cost k WHERE k.model = m), 0), 'FM999,999,990.00')), '' ORDER BY o)
					 FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '</tr></tfoot></table>';
	-- storage: what each design takes in PostgreSQL, and what DynamoDB
	-- would bill (each item and each GSI entry plus 100 bytes), each table
	-- at its class's price
	v_s := v_s || '<h3>Storage</h3><table id="storage"><thead><tr><th>design</th><th>table class</th><th>PostgreSQL (tables, indexes, TOAST)</th><th>DynamoDB billed size (items and GSI entries, +100 B each)</th><th>DynamoDB storage $ / month</th></tr></thead><tbody>';
	FOR r IN SELECT m, o FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE to_regnamespace(m) IS NOT NULL ORDER BY o LOOP
		DECLARE
			v_pg bigint;
			v_ddb numeric := 0;
			v_dollars numeric := 0;
			v_part numeric;
			t record;
		BEGIN
			SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) INTO v_pg FROM pg_class c
			WHERE c.relnamespace = r.m::regnamespace AND c.relkind IN ('r', 'm', 'p');
			IF r.m <> 'hroe_normalized' AND COALESCE((p_options ->> 'dynamodb_storage')::boolean, true) THEN
				FOR t IN SELECT h.table_name, h.relid FROM hroe.tables h JOIN pg_class c ON c.oid = h.relid
						 WHERE c.relnamespace = r.m::regnamespace LOOP
					EXECUTE format('SELECT COALESCE(sum(hroe.item_size(x.item) + 100), 0)%s FROM %s x',
						(SELECT string_agg(format(' + COALESCE(sum(hroe.index_entry_size(x.item, %L, %L) + 100), 0)', t.table_name, i.index_name), '')
						 FROM hroe.indexes i WHERE i.table_name = t.table_name), t.relid)
					INTO v_part;
					v_ddb := v_ddb + v_part;
					v_dollars := v_dollars + v_part / 1073741824.0 *
						CASE WHEN to_regclass('hroe.table_options') IS NOT NULL AND
								  EXISTS (SELECT FROM hroe.table_options o WHERE o.table_name = t.table_name
										  AND o.table_class = 'STANDARD_INFREQUENT_ACCESS')
							 THEN v_ia_storage_price ELSE v_storage_price END;
				END LOOP;
			ELSE
				v_ddb := NULL;
				v_dollars := NULL;
			END IF;
			v_s := v_s || format('<tr data-model="%s"><td>%s</td><td>%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num">%s</td></tr>',
								 hroe.html_escape(r.m), hroe.html_escape(r.m),
								 CASE WHEN r.m = 'hroe_normalized' THEN '' ELSE hroe.html_escape(COALESCE(v_class ->> r.m, 'STANDARD')) END,
								 v_pg, pg_size_pretty(v_pg), v_ddb,
								 COALESCE(pg_size_pretty(v_ddb), ''), COALESCE('$' || to_char(v_dollars, 'FM999,999,990.0000'), ''));
		END;
	END LOOP;
	v_s := v_s || '</tbody></table>';
	v_body := v_body || '<section id="s-cost"><h2>Cost in money</h2>' || v_s || '</section>';
	v_nav := v_nav || '<a href="#s-cost">Cost</a>';

	v_html := '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
		|| '<title>hroe: three designs compared</title><style>'
		|| 'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#0f172a;background:#fff}'
		|| 'header{background:#0f172a;color:#f8fafc;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#cbd5e1}'
		|| 'nav{position:sticky;top:0;background:#f1f5f9;padding:6px 24px;border-bottom:1px solid #cbd5e1;z-index:1}nav a{margin-right:16px;color:#1d4ed8;text-decoration:none}'
		|| 'main{padding:0 24px 40px}h2{margin:26px 0 6px;font-size:18px}h3{margin:18px 0 6px;font-size:15px}'
		|| 'table.sortable,#storage{border-collapse:collapse;font-size:12.5px}table.sortable th,table.sortable td,#storage th,#storage td{border-bottom:1px solid #e2e8f0;padding:3px 7px;text-align:left;vertical-align:top}'
		|| 'table.sortable thead th{background:#f8fafc;cursor:pointer;position:sticky;top:30px}table.sortable thead th:hover{background:#e2e8f0}'
		|| 'table td.num,table th.num{text-align:right;font-variant-numeric:tabular-nums}td.win{font-weight:700;background:#dcfce7}.ok{color:#15803d}.bad{color:#b91c1c;font-weight:700}'
		|| 'td.request,td.plan{font-family:ui-monospace,monospace;font-size:11.5px;max-width:380px}td.verdict{min-width:260px}'
		|| '.charts{display:flex;flex-wrap:wrap;gap:24px}.growth{display:flex;flex-wrap:wrap;gap:8px}.grid{margin:10px 0 18px;overflow-x:auto}'
		|| '.shards{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}.shards .grid{flex:1 1 640px;margin:0}.shards tbody td:last-child,.shards thead th:last-child{display:none}'
		|| '</style></head><body><header><h1>hroe: three designs compared, pattern by pattern</h1>'
		|| format('<p>Designs: %s &middot; %s calls &middot; %s order(s) in hroe_normalized &middot; %s</p>',
				  hroe.html_escape(array_to_string(v_models, ', ')), (SELECT count(*) FROM pg_temp.hroe_report_rows),
				  CASE WHEN to_regnamespace('hroe_normalized') IS NOT NULL THEN (SELECT count(*) FROM hroe_normalized.orders)::text ELSE '?' END,
				  hroe.html_escape(split_part(version(), ',', 1)))
		|| '</header><nav>' || v_nav || '</nav><main>' || v_body || '</main>'
		|| '<script type="application/json" id="hroe-compare-data">' || replace(p_results::text, '</', '<\/') || '</script>'
		|| '<script>document.querySelectorAll("table.sortable").forEach(function(t){t.querySelectorAll("thead th").forEach(function(h,i){h.addEventListener("click",function(){'
		|| 'var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows),n=h.getAttribute("data-sort")==="n",d=h.getAttribute("data-dir")==="asc"?-1:1;'
		|| 'rs.sort(function(x,y){var a=x.cells[i],c=y.cells[i];if(!a||!c)return 0;var p=a.getAttribute("data-v"),q=c.getAttribute("data-v");'
		|| 'if(n){p=p===null||p===""?Infinity:+p;q=q===null||q===""?Infinity:+q;return p===q?0:(p<q?-d:d);}return a.textContent.localeCompare(c.textContent)*d;});'
		|| 'rs.forEach(function(r){b.appendChild(r);});h.setAttribute("data-dir",d===1?"asc":"desc");});});});</script>'
		|| '</body></html>';
	RETURN v_html;
END
$$;
COMMENT ON FUNCTION hroe.compare_html(jsonb, jsonb) IS
'the comparison as one self-contained HTML page, rendered from the rows of one hroe.compare() run (p_results: their jsonb array, e.g. SELECT jsonb_agg(c) FROM hroe.compare() c), so that its figures are that run''s: the summary per pattern with the verdict, every call, SVG charts (and the benchmark''s growth curves from p_options.growth [{"scale", "pattern", "model", "ms"}]), the models'' tables and indexes drawn by hroe.grid for sample employee_id, order_id, product_id (p_options, defaults chosen from the data; grid_items, default 12), and the DynamoDB on-demand cost of a request mix (p_options.mix {"pattern": calls per month}; read_price, write_price per million request units, storage_price per GB-month: defaults 0.125, 0.625, 0.25; ia_read_price, ia_write_price, ia_storage_price those of the STANDARD_INFREQUENT_ACCESS table class: defaults 0.15625, 0.78125, 0.10; us-east-1, read 2026-11-27, https://aws.amazon.com/dynamodb/pricing/), each design priced at its tables'' class (shown with it; a design of mixed classes has its requests priced as STANDARD), beside each design''s storage';
