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

-- The comparison's HTML report is the design page now (hroe.design_html,
-- below): hroe.compare_html and hroe.compare_report_html are gone; their
-- charts (hroe.report_bar_chart, report_growth_chart, report_colour) draw
-- the design page
DROP FUNCTION hroe.compare_report_html(text[], text[], integer, jsonb);
DROP FUNCTION hroe.compare_html(jsonb, jsonb);
COMMENT ON FUNCTION hroe.report_colour(text, integer) IS
'internal: the colour of a design in the charts of hroe.design_html (hroe_normalized blue, hroe_single green, hroe_multi orange, others by position)';
COMMENT ON FUNCTION hroe.report_bar_chart(text, text, text, text[], text[], jsonb, boolean) IS
'internal: an SVG horizontal grouped bar chart for hroe.design_html: per label one bar per series from p_data [{"label", "series", "value"}], log scale when p_log';
COMMENT ON FUNCTION hroe.report_growth_chart(text, jsonb) IS
'internal: an SVG line chart of one pattern''s latency against scale (both logarithmic), a line per model, from the benchmark''s rows [{"scale", "pattern", "model", "ms"}], for hroe.design_html';

-- hroe.compare_report_lines prints a call hroe.design_run recorded as
-- failed (its SQLSTATE and message)
CREATE OR REPLACE FUNCTION hroe.compare_report_lines(p_results jsonb)
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

-- Designs (issue #34): hroe.design_check, design_schema, design_fill,
-- design_canonical, design_response_items, design_call, design_partitions,
-- design_tables, design_load, design_verify, design_answer, design_run,
-- design_create_request, design_hroe, design_import, design_html; as in
-- models/design.sql
-- hroe.design_*: any DynamoDB design, proven on the user's own data
-- (doc/design.md, README "Designs").  A design document (JSON, described by
-- doc/design.schema.json) declares the DynamoDB tables (CreateTable
-- requests), the facets (per entity type, a SQL query over the user's
-- relational tables yielding its items), the access patterns (a DynamoDB
-- request template or a query over the design's tables, the relational SQL
-- answering the same question, a query drawing parameter sets) and the
-- request mix.  hroe.design_load makes the tables and loads the facets,
-- hroe.design_run runs every pattern on both sides with the comparison's
-- machinery (fingerprints, plan shapes, capacity, rolled-back writes) and
-- returns rows of hroe.compare's shape; hroe.design_tables measures the
-- tables and indexes.  Everything runs with the caller's rights: a design's
-- SQL is the caller's own.

-- The document's shape, checked before anything runs.
CREATE FUNCTION hroe.design_check(p_design jsonb)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p jsonb;
	f jsonb;
	t jsonb;
	v_names text[] := '{}';
BEGIN
	IF p_design IS NULL OR jsonb_typeof(p_design) IS DISTINCT FROM 'object' THEN
		RAISE EXCEPTION 'a design must be a JSON object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF NOT COALESCE(p_design ->> 'name' ~ '^[a-z][a-z0-9_]{0,39}$', false) THEN
		RAISE EXCEPTION 'a design''s name must be 1 to 40 lower-case letters, digits or underscores, starting with a letter'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('name: %s', COALESCE(p_design ->> 'name', 'absent'));
	END IF;
	IF p_design ? 'schema' AND (NOT COALESCE(p_design ->> 'schema' ~ '^[a-z_][a-z0-9_]{0,62}$', false)
								OR p_design ->> 'schema' ~ '^pg_' OR p_design ->> 'schema' IN ('hroe', 'public', 'information_schema')) THEN
		RAISE EXCEPTION 'a design''s schema must be a lower-case PostgreSQL identifier of a schema of its own'
			USING ERRCODE = 'invalid_parameter_value', DETAIL = format('schema: %s', p_design ->> 'schema'),
			HINT = 'Its tables are deleted and made again there: not pg_*, hroe, public or information_schema.';
	END IF;
	FOREACH t IN ARRAY ARRAY(SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'tables', '[]')) x) LOOP
		IF jsonb_typeof(t) IS DISTINCT FROM 'object' OR jsonb_typeof(t -> 'TableName') IS DISTINCT FROM 'string' OR jsonb_typeof(t -> 'KeySchema') IS DISTINCT FROM 'array' THEN
			RAISE EXCEPTION 'each of a design''s tables must be a CreateTable request with TableName and KeySchema'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END LOOP;
	FOREACH f IN ARRAY ARRAY(SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'facets', '[]')) x) LOOP
		IF jsonb_typeof(f -> 'entity') IS DISTINCT FROM 'string' OR jsonb_typeof(f -> 'table') IS DISTINCT FROM 'string' OR jsonb_typeof(f -> 'sql') IS DISTINCT FROM 'string' THEN
			RAISE EXCEPTION 'each facet needs entity, table and sql' USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF NOT EXISTS (SELECT FROM jsonb_array_elements(COALESCE(p_design -> 'tables', '[]')) x WHERE x ->> 'TableName' = f ->> 'table') THEN
			RAISE EXCEPTION 'facet % names table %, which the design does not declare', f ->> 'entity', f ->> 'table'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END LOOP;
	IF jsonb_typeof(COALESCE(p_design -> 'patterns', '[]')) IS DISTINCT FROM 'array' THEN
		RAISE EXCEPTION 'a design''s patterns must be an array' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOREACH p IN ARRAY ARRAY(SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'patterns', '[]')) x) LOOP
		IF jsonb_typeof(p -> 'name') IS DISTINCT FROM 'string' OR NOT COALESCE(p ->> 'kind' IN ('read', 'write'), false)
		   OR jsonb_typeof(p -> 'parameters_sql') IS DISTINCT FROM 'string' OR jsonb_typeof(p -> 'relational') IS DISTINCT FROM 'string'
		   OR jsonb_typeof(p -> 'dynamodb') IS DISTINCT FROM 'object'
		   OR NOT (jsonb_typeof(p #> '{dynamodb,requests}') IS NOT DISTINCT FROM 'array' OR jsonb_typeof(p #> '{dynamodb,sql}') IS NOT DISTINCT FROM 'string') THEN
			RAISE EXCEPTION 'pattern % is incomplete', COALESCE(p ->> 'name', '(unnamed)') USING ERRCODE = 'invalid_parameter_value',
				DETAIL = 'A pattern needs name, kind (read or write), parameters_sql, relational and dynamodb (requests or sql).';
		END IF;
		IF p ->> 'kind' = 'write' AND (jsonb_typeof(p #> '{check,relational}') IS DISTINCT FROM 'string' OR jsonb_typeof(p #> '{check,dynamodb}') IS DISTINCT FROM 'object') THEN
			RAISE EXCEPTION 'write pattern % needs check.relational and check.dynamodb', p ->> 'name' USING ERRCODE = 'invalid_parameter_value';
		END IF;
		IF p ->> 'name' = ANY (v_names) THEN
			RAISE EXCEPTION 'pattern % is declared twice', p ->> 'name' USING ERRCODE = 'invalid_parameter_value';
		END IF;
		v_names := v_names || (p ->> 'name');
	END LOOP;
	-- variants: further DynamoDB designs of the same patterns, each a
	-- design document itself
	IF jsonb_typeof(COALESCE(p_design -> 'variants', '[]')) IS DISTINCT FROM 'array' THEN
		RAISE EXCEPTION 'a design''s variants must be an array of design documents' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOREACH t IN ARRAY ARRAY(SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'variants', '[]')) x) LOOP
		IF t ? 'variants' THEN
			RAISE EXCEPTION 'variant % has variants of its own', t ->> 'name' USING ERRCODE = 'invalid_parameter_value';
		END IF;
		PERFORM hroe.design_check(t);
		IF hroe.design_schema(t) = hroe.design_schema(p_design) THEN
			RAISE EXCEPTION 'variant % shares the design''s schema %', t ->> 'name', hroe.design_schema(t) USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END LOOP;
	RETURN p_design;
END
$$;
COMMENT ON FUNCTION hroe.design_check(jsonb) IS
'a design document (doc/design.md, doc/design.schema.json) checked for the fields hroe.design_load and hroe.design_run need: name, tables as CreateTable requests, facets naming declared tables, patterns with kind, parameters_sql, relational and dynamodb (requests or sql), writes with their check reads, variants (each a design document of its own, in a schema of its own); returns it unchanged, or raises 22023 saying what is missing';

CREATE FUNCTION hroe.design_schema(p_design jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT COALESCE(p_design ->> 'schema', 'design_' || (p_design ->> 'name'))
$$;
COMMENT ON FUNCTION hroe.design_schema(jsonb) IS
'the PostgreSQL schema of a design''s DynamoDB tables: its "schema", by default design_<name>';

-- A request template with its named parameters filled in: every ${name}
-- inside a JSON string becomes the parameter's value (JSON-escaped), the
-- parameters named in order by p_names, valued by p_args.
CREATE FUNCTION hroe.design_fill(p_template jsonb, p_names text[], p_args text[])
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v text := p_template::text;
	k integer;
BEGIN
	FOR k IN 1 .. COALESCE(cardinality(p_names), 0) LOOP
		IF strpos(v, '${' || p_names[k] || '}') > 0 AND p_args[k] IS NULL THEN
			RAISE EXCEPTION 'parameter % is NULL but the request uses it', p_names[k] USING ERRCODE = 'null_value_not_allowed';
		END IF;
		v := replace(v, '${' || p_names[k] || '}', COALESCE(substr(to_jsonb(p_args[k])::text, 2, length(to_jsonb(p_args[k])::text) - 2), ''));
	END LOOP;
	IF v ~ '\$\{[A-Za-z0-9_]+\}' THEN
		RAISE EXCEPTION 'request template uses an undeclared parameter: %', substring(v FROM '\$\{[A-Za-z0-9_]+\}')
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN v::jsonb;
END
$$;
COMMENT ON FUNCTION hroe.design_fill(jsonb, text[], text[]) IS
'internal: a pattern''s request template with each ${name} replaced by the parameter''s value, JSON-escaped (parameters named by p_names, valued by p_args in the same order); an undeclared or NULL parameter is an error';

-- An answer row in the form both sides are compared in: the attributes
-- named by p_answer (all when NULL), nulls dropped, numbers and strings as
-- DynamoDB stores them (through hroe.item_from_document and back).
CREATE FUNCTION hroe.design_canonical(p_doc jsonb, p_answer jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT hroe.item_to_document(hroe.item_from_document(jsonb_strip_nulls(
	CASE WHEN p_answer IS NULL THEN p_doc
		 ELSE COALESCE((SELECT jsonb_object_agg(k, p_doc -> k) FROM jsonb_array_elements_text(p_answer) k WHERE p_doc ? k), '{}') END)))
$$;
COMMENT ON FUNCTION hroe.design_canonical(jsonb, jsonb) IS
'internal: one answer row or item (a plain JSON document) reduced to the attributes a pattern compares (p_answer, a JSON array of names; all when NULL), nulls dropped and values normalised as DynamoDB stores them, so that a relational row and a DynamoDB item compare equal when they carry the same answer';

-- The items of one DynamoDB response, as documents (GetItem, Query, Scan,
-- BatchGetItem, TransactGetItems).
CREATE FUNCTION hroe.design_response_items(p_operation text, p_response jsonb)
RETURNS SETOF jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT hroe.item_to_document(i::hroe.item) FROM (
	SELECT p_response -> 'Item' WHERE p_operation = 'GetItem' AND p_response ? 'Item'
	UNION ALL SELECT x FROM jsonb_array_elements(CASE WHEN p_operation IN ('Query', 'Scan') THEN p_response -> 'Items' END) x
	UNION ALL SELECT x FROM jsonb_each(CASE WHEN p_operation = 'BatchGetItem' THEN p_response -> 'Responses' END) t (n, v),
		jsonb_array_elements(t.v) x
	UNION ALL SELECT x -> 'Item' FROM jsonb_array_elements(CASE WHEN p_operation = 'TransactGetItems' THEN p_response -> 'Responses' END) x
		WHERE x ? 'Item') s (i)
$$;
COMMENT ON FUNCTION hroe.design_response_items(text, jsonb) IS
'internal: the items a GetItem, Query, Scan, BatchGetItem or TransactGetItems response carries, as plain JSON documents, in the response''s order';

-- Runs a pattern side's DynamoDB requests once: their items (as
-- documents), capacity, items and bytes, partitions touched; an error
-- response is raised.
CREATE FUNCTION hroe.design_call(p_requests jsonb, OUT docs jsonb, OUT capacity numeric, OUT items bigint,
								 OUT item_bytes bigint, OUT partitions bigint, OUT requests integer)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r jsonb;
	v_resp jsonb;
	v_op text;
	v_start jsonb;
BEGIN
	docs := '[]';
	capacity := 0;
	items := 0;
	item_bytes := 0;
	partitions := 0;
	requests := 0;
	FOR r IN SELECT x FROM jsonb_array_elements(p_requests) x LOOP
		v_op := r ->> 'operation';
		v_start := NULL;
		-- a Query or Scan without Limit is read to its last page, as the
		-- SDKs' paginators read it: each page is one more request
		<<pages>>
		LOOP
			requests := requests + 1;
			v_resp := hroe.dynamodb(v_op, (r -> 'request') || '{"ReturnConsumedCapacity": "INDEXES"}'
				|| CASE WHEN v_start IS NOT NULL THEN jsonb_build_object('ExclusiveStartKey', v_start) ELSE '{}' END);
			IF v_resp ? '__type' THEN
				RAISE EXCEPTION 'the design''s % request failed: %', v_op, v_resp ->> 'message' USING ERRCODE = 'invalid_parameter_value',
					DETAIL = format('%s %s', v_resp ->> '__type', r -> 'request');
			END IF;
			docs := docs || COALESCE((SELECT jsonb_agg(d) FROM hroe.design_response_items(v_op, v_resp) d), '[]');
			capacity := capacity + COALESCE((SELECT sum((c ->> 'CapacityUnits')::numeric) FROM jsonb_array_elements(
				CASE jsonb_typeof(v_resp -> 'ConsumedCapacity') WHEN 'array' THEN v_resp -> 'ConsumedCapacity'
					WHEN 'object' THEN jsonb_build_array(v_resp -> 'ConsumedCapacity') ELSE '[]' END) c), 0);
			items := items + COALESCE((v_resp ->> 'ScannedCount')::bigint, (SELECT count(*) FROM hroe.design_response_items(v_op, v_resp)));
			item_bytes := item_bytes + COALESCE((SELECT sum(hroe.item_size(hroe.item_from_document(d))) FROM hroe.design_response_items(v_op, v_resp) d), 0);
			partitions := partitions + CASE v_op
				WHEN 'BatchGetItem' THEN (SELECT count(*) FROM jsonb_each(r #> '{request,RequestItems}') t, jsonb_array_elements(t.value -> 'Keys'))
				WHEN 'TransactGetItems' THEN jsonb_array_length(r #> '{request,TransactItems}')
				WHEN 'Scan' THEN CASE WHEN v_start IS NULL THEN (SELECT count(*) FROM hroe.design_partitions(r #>> '{request,TableName}', r #>> '{request,IndexName}')) ELSE 0 END
				WHEN 'Query' THEN CASE WHEN v_start IS NULL THEN 1 ELSE 0 END
				ELSE 1 END;
			v_start := v_resp -> 'LastEvaluatedKey';
			EXIT pages WHEN v_start IS NULL OR v_op NOT IN ('Query', 'Scan') OR r -> 'request' ? 'Limit';
		END LOOP pages;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.design_call(jsonb) IS
'internal: runs a pattern''s DynamoDB requests (a JSON array of {operation, request}, parameters filled in) through hroe.dynamodb with ReturnConsumedCapacity INDEXES: the items returned as documents, the capacity units the responses report, the items evaluated (ScannedCount, or the items returned) and their hroe.item_size bytes, and the partitions touched (1 per GetItem or Query, one per key of a batch or transaction, every partition for a Scan), and the requests made: a Query or Scan without Limit is followed page by page (LastEvaluatedKey) to its end, each page one request; an error response raises 22023 with the response''s __type and the request in DETAIL';

-- The partitions of a table or index: per partition key value its items
-- (index entries) and their bytes.
CREATE FUNCTION hroe.design_partitions(p_table text, p_index text DEFAULT NULL)
RETURNS TABLE (partition_key jsonb, items bigint, bytes bigint)
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_relid regclass;
	v_desc jsonb;
	v_keys jsonb;
	v_hash text;
BEGIN
	SELECT t.relid INTO v_relid FROM hroe.tables t WHERE t.table_name = p_table;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'table % does not exist', p_table USING ERRCODE = 'undefined_table';
	END IF;
	v_desc := hroe.table_description(p_table);
	IF p_index IS NULL THEN
		v_keys := v_desc -> 'KeySchema';
	ELSE
		SELECT i -> 'KeySchema' INTO v_keys FROM jsonb_array_elements(COALESCE(v_desc -> 'GlobalSecondaryIndexes', '[]')
			|| COALESCE(v_desc -> 'LocalSecondaryIndexes', '[]')) i WHERE i ->> 'IndexName' = p_index;
		IF v_keys IS NULL THEN
			RAISE EXCEPTION 'table % has no index %', p_table, p_index USING ERRCODE = 'undefined_object';
		END IF;
	END IF;
	SELECT k ->> 'AttributeName' INTO v_hash FROM jsonb_array_elements(v_keys) k WHERE k ->> 'KeyType' = 'HASH';
	-- one attribute read per item (not the whole item as JSON)
	RETURN QUERY EXECUTE format(
		'SELECT hroe.item_get_attribute(s.item, %1$L), count(*), sum(%2$s)::bigint
		 FROM %3$s s
		 WHERE %4$s
		 GROUP BY 1', v_hash,
		CASE WHEN p_index IS NULL THEN 'hroe.item_size(s.item)' ELSE format('hroe.index_entry_size(s.item, %L, %L)', p_table, p_index) END,
		v_relid,
		(SELECT string_agg(format('hroe.item_exists(s.item, %L)', k ->> 'AttributeName'), ' AND ') FROM jsonb_array_elements(v_keys) k));
END
$$;
COMMENT ON FUNCTION hroe.design_partitions(text, text) IS
'the partitions of a DynamoDB table (or of its index p_index): per partition key value (its AttributeValue) the items or index entries (items carrying every key attribute of the index: sparse indexes count only those) and their bytes (hroe.item_size, or hroe.index_entry_size for an index)';

-- Makes a design's tables and loads its facets.
CREATE FUNCTION hroe.design_load(p_design jsonb)
RETURNS TABLE (table_name text, entity text, items bigint, seconds numeric)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema text := hroe.design_schema(hroe.design_check(p_design));
	t jsonb;
	f jsonb;
	v_resp jsonb;
	v_n bigint;
	v_started timestamptz;
	v_create jsonb;
BEGIN
	FOR t IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'setup_sql', '[]')) x LOOP
		EXECUTE t #>> '{}';
	END LOOP;
	EXECUTE format('CREATE SCHEMA IF NOT EXISTS %I', v_schema);
	FOR t IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'tables', '[]')) x LOOP
		IF EXISTS (SELECT FROM hroe.tables h JOIN pg_class c ON c.oid = h.relid
				   WHERE h.table_name = t ->> 'TableName' AND c.relnamespace <> v_schema::regnamespace) THEN
			RAISE EXCEPTION 'table % exists outside the design''s schema %', t ->> 'TableName', v_schema
				USING ERRCODE = 'duplicate_table', HINT = 'Name the design''s tables differently, or drop the other table.';
		END IF;
		IF EXISTS (SELECT FROM hroe.tables h WHERE h.table_name = t ->> 'TableName') THEN
			PERFORM hroe.delete_table(t ->> 'TableName');
		END IF;
		-- CreateTable makes its table in the current schema
		PERFORM set_config('search_path', format('%I, pg_catalog, pg_temp', v_schema), true);
		v_create := t - 'DeletionProtectionEnabled';
		IF NOT v_create ? 'BillingMode' AND NOT v_create ? 'ProvisionedThroughput' THEN
			v_create := v_create || '{"BillingMode": "PAY_PER_REQUEST"}';
		END IF;
		v_resp := hroe.dynamodb('CreateTable', v_create);
		PERFORM set_config('search_path', 'pg_catalog, pg_temp', true);
		IF v_resp ? '__type' THEN
			RAISE EXCEPTION 'CreateTable % failed: %', t ->> 'TableName', v_resp ->> 'message' USING ERRCODE = 'invalid_parameter_value',
				DETAIL = v_resp ->> '__type';
		END IF;
	END LOOP;
	FOR f IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'facets', '[]')) x LOOP
		v_started := clock_timestamp();
		EXECUTE format('SELECT count(hroe.put_item(%L, CASE WHEN %L THEN f.item::jsonb::hroe.item ELSE hroe.item_from_document(f.item::jsonb) END))
						FROM (%s) f (item)', f ->> 'table', COALESCE(f ->> 'format', 'document') = 'dynamodb', f ->> 'sql')
		INTO v_n;
		table_name := f ->> 'table';
		entity := f ->> 'entity';
		items := v_n;
		seconds := round(extract(epoch FROM clock_timestamp() - v_started)::numeric, 3);
		RAISE NOTICE 'hroe.design_load: % % item(s) of % into % (% s)', v_n, entity, p_design ->> 'name', table_name, seconds;
		RETURN NEXT;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.design_load(jsonb) IS
'makes a design''s DynamoDB tables (its setup_sql statements first, then each CreateTable request through hroe.dynamodb, in the schema design_<name> or the design''s schema; a table of the same name in that schema is deleted first, one elsewhere is an error) and loads every facet''s items with hroe.put_item (the facet query''s one column a plain JSON document, or with "format": "dynamodb" an item in AttributeValue JSON): per facet the items loaded and the seconds, also as a NOTICE (progress)';

-- The items the facets yield against the items stored: the proof that the
-- facets reproduce a design's tables.
CREATE FUNCTION hroe.design_verify(p_design jsonb)
RETURNS TABLE (table_name text, facet_items bigint, stored_items bigint, missing bigint, extra bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t jsonb;
	v_facets text;
BEGIN
	PERFORM hroe.design_check(p_design);
	FOR t IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'tables', '[]')) x LOOP
		SELECT string_agg(format('SELECT CASE WHEN %L THEN f.item::jsonb::hroe.item ELSE hroe.item_from_document(f.item::jsonb) END FROM (%s) f (item)',
								 COALESCE(f ->> 'format', 'document') = 'dynamodb', f ->> 'sql'), ' UNION ALL ')
		INTO v_facets FROM jsonb_array_elements(COALESCE(p_design -> 'facets', '[]')) f WHERE f ->> 'table' = t ->> 'TableName';
		RETURN QUERY EXECUTE format(
			'WITH f AS (SELECT i::text AS i, count(*) AS n FROM (%1$s) x (i) GROUP BY 1),
				  s AS (SELECT x.item::text AS i, count(*) AS n FROM %2$s x GROUP BY 1)
			 SELECT %3$L, (SELECT COALESCE(sum(n), 0)::bigint FROM f), (SELECT COALESCE(sum(n), 0)::bigint FROM s),
					(SELECT COALESCE(sum(GREATEST(f.n - COALESCE(s.n, 0), 0)), 0)::bigint FROM f LEFT JOIN s USING (i)),
					(SELECT COALESCE(sum(GREATEST(s.n - COALESCE(f.n, 0), 0)), 0)::bigint FROM s LEFT JOIN f USING (i))',
			COALESCE(v_facets, 'SELECT NULL::hroe.item WHERE false'),
			(SELECT h.relid FROM hroe.tables h WHERE h.table_name = t ->> 'TableName'), t ->> 'TableName');
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.design_verify(jsonb) IS
'per table of a design: the items its facets yield now, the items stored, and how many of each are missing from the other (as multisets of items): zero and zero when the facets reproduce the table';

-- A pattern side's answer: its fingerprint and row count, from a query
-- (p_sql with $1 = the parameters) or from DynamoDB requests' items.
CREATE FUNCTION hroe.design_answer(p_sql text, p_docs jsonb, p_args text[], p_answer jsonb, p_ordered boolean,
								   OUT fingerprint text, OUT result_rows bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_sql IS NOT NULL AND p_answer IS NULL THEN
		-- hroe.compare's fingerprint: each row as text, in the order returned
		EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
			FROM (SELECT r, row_number() OVER () AS n FROM (%s) r) s', p_sql) INTO fingerprint, result_rows USING p_args;
	ELSIF p_sql IS NOT NULL THEN
		EXECUTE format('SELECT md5(COALESCE(string_agg(d::text, E''\n'' ORDER BY CASE WHEN $2 THEN n END, d::text), '''')), count(*)
			FROM (SELECT hroe.design_canonical(to_jsonb(r), $3) AS d, row_number() OVER () AS n FROM (%s) r) s', p_sql)
		INTO fingerprint, result_rows USING p_args, p_ordered, p_answer;
	ELSE
		SELECT md5(COALESCE(string_agg(d::text, E'\n' ORDER BY CASE WHEN p_ordered THEN n END, d::text), '')), count(*)
		INTO fingerprint, result_rows
		FROM (SELECT hroe.design_canonical(x, p_answer) AS d, n FROM jsonb_array_elements(p_docs) WITH ORDINALITY AS e (x, n)) s;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.design_answer(text, jsonb, text[], jsonb, boolean) IS
'internal: the fingerprint and rows of one side''s answer: without an answer list, hroe.compare''s (md5 of the rows as text in their order); with one (p_answer), the md5 of the rows'' or items'' hroe.design_canonical documents, in their order when p_ordered, else sorted';

-- A table's CreateTable request, read back from its description.
CREATE FUNCTION hroe.design_create_request(p_table_name text)
RETURNS jsonb
LANGUAGE sql STABLE STRICT PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
SELECT jsonb_strip_nulls(jsonb_build_object(
	'TableName', d ->> 'TableName', 'KeySchema', d -> 'KeySchema', 'AttributeDefinitions', d -> 'AttributeDefinitions',
	'BillingMode', COALESCE(d #>> '{BillingModeSummary,BillingMode}', 'PAY_PER_REQUEST'),
	'TableClass', d #>> '{TableClassSummary,TableClass}',
	'GlobalSecondaryIndexes', (SELECT jsonb_agg(jsonb_build_object('IndexName', i -> 'IndexName', 'KeySchema', i -> 'KeySchema',
																	'Projection', i -> 'Projection') ORDER BY o)
							   FROM jsonb_array_elements(d -> 'GlobalSecondaryIndexes') WITH ORDINALITY AS g (i, o)),
	'LocalSecondaryIndexes', (SELECT jsonb_agg(jsonb_build_object('IndexName', i -> 'IndexName', 'KeySchema', i -> 'KeySchema',
																   'Projection', i -> 'Projection') ORDER BY o)
							  FROM jsonb_array_elements(d -> 'LocalSecondaryIndexes') WITH ORDINALITY AS g (i, o))))
FROM hroe.table_description(p_table_name) d
$$;
COMMENT ON FUNCTION hroe.design_create_request(text) IS
'the CreateTable request that makes a table like an existing hroe table: name, key schema, attribute definitions, billing mode, table class (when it was given) and its GSIs and LSIs with their key schemas and projections (from hroe.table_description)';

-- HR/OE as a design document: the comparison of hroe_normalized with one
-- of the DynamoDB models, from the comparison's own catalogues.
CREATE FUNCTION hroe.design_hroe(p_model text DEFAULT 'hroe_single')
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- the checks of hroe.access_patterns, with the arguments as $1[k] cast
	-- to the functions' parameter types (%1$I: the model)
	v_checks jsonb := jsonb_build_object(
		'place_order', 'SELECT * FROM %1$I.customer_orders($1[1]::integer, $1[2]::date, $1[2]::date) UNION ALL SELECT * FROM %1$I.open_orders($1[2]::date, $1[2]::date)',
		'change_order_status', 'SELECT o.* FROM hroe_normalized.orders n, %1$I.customer_orders(n.customer_id, n.order_date, n.order_date) o WHERE n.order_id = $1[1]::bigint
	UNION ALL SELECT o.* FROM hroe_normalized.orders n, %1$I.open_orders(n.order_date, n.order_date) o WHERE n.order_id = $1[1]::bigint',
		'change_employee_job', 'SELECT to_jsonb(c) FROM %1$I.employee_current_job($1[1]::integer) c UNION ALL SELECT to_jsonb(t) FROM %1$I.employees_by_title((SELECT job_title FROM hroe_normalized.jobs WHERE job_id = $1[2])) t',
		'adjust_inventory', 'SELECT to_jsonb(i) FROM %1$I.product_inventories($1[1]::integer) i UNION ALL SELECT to_jsonb(t) FROM %1$I.product_total_inventory($1[1]::integer) t',
		'hire_employee', 'SELECT to_jsonb(e) FROM %1$I.employee_by_id($1[11]::integer) e UNION ALL SELECT to_jsonb(p) FROM %1$I.employee_phones($1[11]::integer) p');
	v_patterns jsonb := '[]';
	a record;
	v_nargs integer;
	v_params text[];
	v_args text;
	v_call text;
	v_facets jsonb;
BEGIN
	IF p_model IS NULL OR p_model NOT IN ('hroe_single', 'hroe_multi') OR to_regnamespace(p_model) IS NULL THEN
		RAISE EXCEPTION 'p_model must be an installed DynamoDB model of HR/OE: hroe_single or hroe_multi' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR a IN SELECT x.*, m.request_sql, m.items_sql, f.proargtypes::oid[] AS types, f.proargnames AS names
			 FROM hroe.access_patterns x
			 JOIN pg_proc f ON f.pronamespace = 'hroe_normalized'::regnamespace AND f.proname = x.pattern
			 LEFT JOIN hroe.model_requests m ON m.model = p_model AND m.pattern = x.pattern
			 ORDER BY x.pattern_no LOOP
		-- as many arguments as the catalogue's argument sets give (the rest keep their defaults)
		EXECUTE format('SELECT max(cardinality(x.args::text[])) FROM (%s) x (label, args)', a.arguments_sql) INTO v_nargs;
		v_nargs := COALESCE(v_nargs, 0);
		v_params := ARRAY(SELECT regexp_replace(a.names[k], '^p_', '') FROM generate_series(1, v_nargs) k);
		v_args := (SELECT string_agg(format('$1[%s]::%s', k, format_type(a.types[k - 1], NULL)), ', ' ORDER BY k) FROM generate_series(1, v_nargs) k);
		v_call := CASE a.kind WHEN 'read' THEN 'SELECT * FROM %I.%I(%s)' ELSE 'SELECT %I.%I(%s)' END;
		v_patterns := v_patterns || jsonb_strip_nulls(jsonb_build_object(
			'number', a.pattern_no, 'name', a.pattern, 'kind', a.kind, 'parameters', to_jsonb(v_params),
			'parameters_sql', a.arguments_sql,
			'relational', format(v_call, 'hroe_normalized', a.pattern, COALESCE(v_args, '')),
			'dynamodb', jsonb_build_object('sql', format(v_call, p_model, a.pattern, COALESCE(v_args, '')),
										   'request_sql', a.request_sql, 'capacity_sql', a.items_sql),
			'check', CASE WHEN a.kind = 'write' THEN jsonb_build_object(
				'relational', format(v_checks ->> a.pattern, 'hroe_normalized'),
				'dynamodb', jsonb_build_object('sql', format(v_checks ->> a.pattern, p_model))) END));
	END LOOP;
	IF p_model = 'hroe_single' THEN
		v_facets := jsonb_build_array(
			jsonb_build_object('entity', 'every HR/OE item', 'table', 'hroe_single', 'format', 'dynamodb',
							   'sql', 'SELECT e.item FROM hroe_single.expected_items e'),
			jsonb_build_object('entity', 'settings (HROE-META)', 'table', 'hroe_single', 'format', 'dynamodb',
							   'sql', 'SELECT hroe_single.meta_item(hroe_single.shard_count())'));
	ELSE
		v_facets := (SELECT jsonb_agg(jsonb_build_object('entity', t || ' items', 'table', t, 'format', 'dynamodb',
				'sql', format('SELECT n.item FROM hroe_multi.normalized_items() n WHERE n.table_name = %L', t)) ORDER BY o)
			FROM unnest('{Employee,Customer,Order,Product,RepQuarterTotal}'::text[]) WITH ORDINALITY AS u (t, o));
	END IF;
	RETURN jsonb_build_object(
		'name', p_model, 'schema', p_model, 'relational_name', 'hroe_normalized', 'dynamodb_name', p_model,
		'relational_schemas', jsonb_build_array('hroe_normalized'),
		'description', format('Oracle''s HR and OE samples: hroe_normalized against %s, the comparison''s patterns', p_model),
		'tables', (SELECT jsonb_agg(hroe.design_create_request(h.table_name) ORDER BY r.relid)
				   FROM hroe.compare_item_tables(p_model) r (relid) JOIN hroe.tables h ON h.relid = r.relid),
		'facets', v_facets,
		'patterns', v_patterns,
		'mix', COALESCE((SELECT jsonb_object_agg(x.pattern, CASE x.kind WHEN 'read' THEN 10 ELSE 1 END) FROM hroe.access_patterns x), '{}'));
END
$$;
COMMENT ON FUNCTION hroe.design_hroe(text) IS
'HR/OE as a design document: hroe_normalized against p_model (hroe_single or hroe_multi), its tables as CreateTable requests, its facets (the items the model is loaded with, built from hroe_normalized), every pattern of hroe.access_patterns with the calls hroe.compare makes, the DynamoDB request and capacity rule of hroe.model_requests and the write checks; run with hroe.design_run(hroe.design_hroe(), p_load => false) over the loaded models, it reproduces hroe.compare''s answers, capacities and verdicts';

-- A NoSQL Workbench model file (its exported JSON, format 3.0) as a design.
CREATE FUNCTION hroe.design_import(p_model jsonb, p_extra jsonb DEFAULT '{}', p_name text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t jsonb;
	v_tables jsonb := '[]';
	v_facets jsonb := '[]';
	v_entities jsonb := '[]';
	v_keys jsonb;
	v_defs jsonb;
	v_gsis jsonb;
	v_create jsonb;
	v_data jsonb;
	v_name text;
BEGIN
	IF p_model IS NULL OR jsonb_typeof(p_model) IS DISTINCT FROM 'object' OR jsonb_typeof(p_model -> 'DataModel') IS DISTINCT FROM 'array' THEN
		RAISE EXCEPTION 'a NoSQL Workbench model is a JSON object with a DataModel array' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_extra IS NULL OR jsonb_typeof(p_extra) IS DISTINCT FROM 'object' THEN
		RAISE EXCEPTION 'p_extra must be a JSON object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_name := COALESCE(p_name, left(trim(BOTH '_' FROM lower(regexp_replace(COALESCE(p_model ->> 'ModelName', 'workbench'), '[^A-Za-z0-9]+', '_', 'g'))), 40));
	IF v_name !~ '^[a-z]' THEN
		v_name := left('m_' || v_name, 40);
	END IF;
	FOR t IN SELECT x FROM jsonb_array_elements(p_model -> 'DataModel') x LOOP
		IF jsonb_typeof(t -> 'TableName') IS DISTINCT FROM 'string' OR jsonb_typeof(t #> '{KeyAttributes,PartitionKey,AttributeName}') IS DISTINCT FROM 'string' THEN
			RAISE EXCEPTION 'each table of a NoSQL Workbench model needs TableName and KeyAttributes.PartitionKey' USING ERRCODE = 'invalid_parameter_value';
		END IF;
		v_keys := jsonb_build_array(jsonb_build_object('AttributeName', t #>> '{KeyAttributes,PartitionKey,AttributeName}', 'KeyType', 'HASH'));
		v_defs := jsonb_build_array(jsonb_build_object('AttributeName', t #>> '{KeyAttributes,PartitionKey,AttributeName}',
													   'AttributeType', COALESCE(t #>> '{KeyAttributes,PartitionKey,AttributeType}', 'S')));
		IF t #> '{KeyAttributes,SortKey,AttributeName}' IS NOT NULL THEN
			v_keys := v_keys || jsonb_build_object('AttributeName', t #>> '{KeyAttributes,SortKey,AttributeName}', 'KeyType', 'RANGE');
			v_defs := v_defs || jsonb_build_object('AttributeName', t #>> '{KeyAttributes,SortKey,AttributeName}',
												   'AttributeType', COALESCE(t #>> '{KeyAttributes,SortKey,AttributeType}', 'S'));
		END IF;
		SELECT jsonb_agg(jsonb_build_object('IndexName', g ->> 'IndexName',
				'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', g #>> '{KeyAttributes,PartitionKey,AttributeName}', 'KeyType', 'HASH'))
					|| CASE WHEN g #> '{KeyAttributes,SortKey,AttributeName}' IS NOT NULL
						THEN jsonb_build_array(jsonb_build_object('AttributeName', g #>> '{KeyAttributes,SortKey,AttributeName}', 'KeyType', 'RANGE'))
						ELSE '[]' END,
				'Projection', COALESCE(g -> 'Projection', '{"ProjectionType": "ALL"}')) ORDER BY o)
		INTO v_gsis FROM jsonb_array_elements(COALESCE(t -> 'GlobalSecondaryIndexes', '[]')) WITH ORDINALITY AS e (g, o);
		-- every key attribute defined once, with its type
		SELECT jsonb_agg(d ORDER BY o) INTO v_defs FROM (
			SELECT DISTINCT ON (d ->> 'AttributeName') d, o
			FROM (SELECT d, o FROM jsonb_array_elements(v_defs) WITH ORDINALITY AS a (d, o)
				  UNION ALL
				  SELECT jsonb_build_object('AttributeName', k ->> 'AttributeName', 'AttributeType', COALESCE(k ->> 'AttributeType', 'S')), 100 + o * 2 + n
				  FROM jsonb_array_elements(COALESCE(t -> 'GlobalSecondaryIndexes', '[]')) WITH ORDINALITY AS e (g, o),
					   LATERAL (VALUES (0, g #> '{KeyAttributes,PartitionKey}'), (1, g #> '{KeyAttributes,SortKey}')) v (n, k)
				  WHERE k IS NOT NULL) u
			ORDER BY d ->> 'AttributeName', o) s;
		v_create := jsonb_build_object('TableName', t ->> 'TableName', 'KeySchema', v_keys, 'AttributeDefinitions', v_defs);
		IF v_gsis IS NOT NULL THEN
			v_create := v_create || jsonb_build_object('GlobalSecondaryIndexes', v_gsis);
		END IF;
		IF t ->> 'BillingMode' = 'PROVISIONED' AND t #> '{ProvisionedCapacitySettings,ProvisionedThroughput}' IS NOT NULL THEN
			v_create := v_create || jsonb_build_object('BillingMode', 'PROVISIONED',
				'ProvisionedThroughput', t #> '{ProvisionedCapacitySettings,ProvisionedThroughput}');
			IF v_gsis IS NOT NULL THEN
				v_create := jsonb_set(v_create, '{GlobalSecondaryIndexes}', (SELECT jsonb_agg(g || jsonb_build_object('ProvisionedThroughput',
					t #> '{ProvisionedCapacitySettings,ProvisionedThroughput}')) FROM jsonb_array_elements(v_gsis) g));
			END IF;
		ELSE
			v_create := v_create || '{"BillingMode": "PAY_PER_REQUEST"}';
		END IF;
		v_tables := v_tables || v_create;
		-- the sample data: the table's, and any a facet carries
		v_data := COALESCE(t -> 'TableData', '[]') || COALESCE((SELECT jsonb_agg(d) FROM jsonb_array_elements(COALESCE(t -> 'TableFacets', '[]')) f,
			jsonb_array_elements(COALESCE(f -> 'TableData', '[]')) d), '[]');
		IF jsonb_array_length(v_data) > 0 THEN
			v_facets := v_facets || jsonb_build_object('entity', format('%s sample data', t ->> 'TableName'), 'table', t ->> 'TableName',
				'format', 'dynamodb', 'sql', format('SELECT d FROM jsonb_array_elements(%L::jsonb) d', v_data));
		END IF;
		v_entities := v_entities || COALESCE((SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object('name', f ->> 'FacetName', 'table', t ->> 'TableName',
				'partition_key_alias', f #>> '{KeyAttributeAlias,PartitionKeyAlias}', 'sort_key_alias', f #>> '{KeyAttributeAlias,SortKeyAlias}',
				'attributes', f -> 'NonKeyAttributes'))) FROM jsonb_array_elements(COALESCE(t -> 'TableFacets', '[]')) f), '[]');
	END LOOP;
	RETURN hroe.design_check(jsonb_build_object(
		'name', v_name,
		'description', COALESCE(p_model #>> '{ModelMetadata,Description}', p_model ->> 'ModelName'),
		'imported_from', jsonb_build_object('format', 'NoSQL Workbench', 'model', p_model ->> 'ModelName',
											'version', p_model #>> '{ModelMetadata,Version}'),
		'tables', v_tables, 'facets', v_facets || COALESCE(p_extra -> 'facets', '[]'), 'entities', v_entities,
		'patterns', '[]'::jsonb) || (p_extra - 'facets'));
END
$$;
COMMENT ON FUNCTION hroe.design_import(jsonb, jsonb, text) IS
'a NoSQL Workbench model file (the JSON its data modeler exports, model format 3.0: ModelName, ModelMetadata, DataModel with per table TableName, KeyAttributes, NonKeyAttributes, TableFacets with KeyAttributeAlias, GlobalSecondaryIndexes, TableData, BillingMode, ProvisionedCapacitySettings) as a design document: each table as a CreateTable request (key schema, attribute definitions, GSIs, billing mode and throughput), its sample data (the table''s TableData and the facets'') as a facet loaded as it is, the facets with their key aliases and attributes under "entities"; p_extra (setup_sql, patterns, mix...) is merged in, its facets added to the sample data; the name is p_name or made from ModelName';

-- The page: one design run as a self-contained HTML page, a column per side
-- (the relational one, the design's DynamoDB side, each variant's).
CREATE FUNCTION hroe.design_html(p_design jsonb, p_results jsonb, p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- us-east-1 prices (https://aws.amazon.com/dynamodb/pricing/): on demand
	-- per million request units, provisioned per unit-hour, storage per
	-- GB-month; Standard and Standard-Infrequent Access table classes
	v_price jsonb := jsonb_build_object(
		'read_price', 0.125, 'write_price', 0.625, 'storage_price', 0.25,
		'ia_read_price', 0.15625, 'ia_write_price', 0.78125, 'ia_storage_price', 0.10,
		'rcu_hour_price', 0.00013, 'wcu_hour_price', 0.00065, 'ia_rcu_hour_price', 0.00016, 'ia_wcu_hour_price', 0.00081,
		'prices_read', '2026-11-27') || (COALESCE(p_options, '{}') - 'growth' - 'mix' - 'grid_items' - 'table_class');
	v_rel text := COALESCE(p_design ->> 'relational_name', 'relational');
	v_designs jsonb;
	v_sides text[];
	v_ddbs text[];
	v_mix jsonb;
	v_hours constant numeric := 730;
	v_body text := '';
	v_nav text := '';
	v_s text;
	v_labels text[];
	r record;
	t record;
	d text;
	v_grid_items integer;
	v_ddb_bytes numeric;
	v_pg_bytes numeric;
	v_class text;
	v_failed bigint;
BEGIN
	PERFORM hroe.design_check(p_design);
	IF p_results IS NULL OR jsonb_typeof(p_results) <> 'array' THEN
		RAISE EXCEPTION 'p_results must be a jsonb array of hroe.design_run() rows' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_options IS NULL OR jsonb_typeof(p_options) <> 'object' THEN
		RAISE EXCEPTION 'p_options must be a jsonb object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF EXISTS (SELECT FROM jsonb_each(v_price) e WHERE e.key LIKE '%price' AND (jsonb_typeof(e.value) <> 'number' OR (e.value #>> '{}')::numeric < 0)) THEN
		RAISE EXCEPTION 'prices must be non-negative numbers' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF jsonb_typeof(COALESCE(p_options -> 'grid_items', '12')) <> 'number' OR (p_options ->> 'grid_items')::numeric NOT BETWEEN 1 AND 1000 THEN
		RAISE EXCEPTION 'grid_items must be between 1 and 1000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_grid_items := COALESCE((p_options ->> 'grid_items')::numeric, 12)::integer;
	IF jsonb_typeof(COALESCE(p_options -> 'growth', '[]')) <> 'array' OR jsonb_typeof(COALESCE(p_options -> 'mix', '{}')) <> 'object' THEN
		RAISE EXCEPTION 'growth must be a JSON array and mix a JSON object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_mix := COALESCE(p_options -> 'mix', p_design -> 'mix', '{}');
	-- each DynamoDB side's design document: the design's own, its variants
	v_designs := jsonb_build_object(COALESCE(p_design ->> 'dynamodb_name', p_design ->> 'name'), p_design)
		|| COALESCE((SELECT jsonb_object_agg(COALESCE(x ->> 'dynamodb_name', x ->> 'name'), x)
					 FROM jsonb_array_elements(COALESCE(p_design -> 'variants', '[]')) x), '{}');
	IF to_regclass('pg_temp.hroe_design_page') IS NULL THEN
		CREATE TEMP TABLE hroe_design_page (n bigint, pattern_no integer, pattern text, kind text, case_label text, model text,
			identical boolean, result_rows bigint, request text, requests integer, items bigint, item_bytes bigint,
			capacity numeric, capacity_unit text, median_ms numeric, shared_hit bigint, plan_shape text, partitions bigint,
			index_capacity numeric, error_class text, error text);
		CREATE TEMP TABLE hroe_design_page_tables (design text, table_name text, index_name text, items bigint, bytes bigint, partitions bigint, hottest jsonb);
	END IF;
	TRUNCATE pg_temp.hroe_design_page, pg_temp.hroe_design_page_tables;
	INSERT INTO pg_temp.hroe_design_page
	SELECT e.n, x.pattern_no, x.pattern, x.kind, x.case_label, x.model, x.identical, x.result_rows, x.request, x.requests,
		   x.items, x.item_bytes, x.capacity, x.capacity_unit, x.median_ms, x.shared_hit, x.plan_shape, x.partitions, x.index_capacity,
		   x.error_class, x.error
	FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e (j, n),
		 jsonb_to_record(e.j) AS x (pattern_no integer, pattern text, kind text, case_label text, model text, identical boolean,
									result_rows bigint, request text, requests integer, items bigint, item_bytes bigint,
									capacity numeric, capacity_unit text, median_ms numeric, shared_hit bigint, plan_shape text,
									partitions bigint, index_capacity numeric, error_class text, error text);
	-- the sides in the run's order; the DynamoDB ones are those with a design
	v_sides := ARRAY(SELECT p.model FROM pg_temp.hroe_design_page p GROUP BY p.model ORDER BY min(p.n));
	IF NOT v_rel = ANY (v_sides) THEN
		v_sides := v_rel || v_sides;
	END IF;
	v_ddbs := ARRAY(SELECT m FROM unnest(v_sides) WITH ORDINALITY u (m, o) WHERE v_designs ? m ORDER BY o);
	FOREACH d IN ARRAY v_ddbs LOOP
		INSERT INTO pg_temp.hroe_design_page_tables SELECT d, x.* FROM hroe.design_tables(v_designs -> d, 5) x;
	END LOOP;
	v_failed := (SELECT count(*) FROM pg_temp.hroe_design_page WHERE error_class IS NOT NULL);

	-- the failures: each failed call, its side, its parameter set, its error
	IF v_failed > 0 THEN
		v_body := v_body || format('<section id="s-failures"><h2>Failures</h2><p class="bad">%s call(s) failed; the run went on with the rest. Each is a failed verdict below.</p><ul id="failures">', v_failed)
			|| (SELECT string_agg(format('<li data-pattern="%s" data-case="%s" data-side="%s" data-class="%s"><b>%s</b> [%s] on %s: <code>%s</code> %s</li>',
					hroe.html_escape(p.pattern), hroe.html_escape(COALESCE(p.case_label, '')), hroe.html_escape(p.model), hroe.html_escape(p.error_class),
					hroe.html_escape(p.pattern), hroe.html_escape(COALESCE(p.case_label, '')), hroe.html_escape(p.model), hroe.html_escape(p.error_class),
					hroe.html_escape(p.error)), '' ORDER BY p.n)
				FROM pg_temp.hroe_design_page p WHERE p.error_class IS NOT NULL)
			|| '</ul></section>';
		v_nav := v_nav || '<a href="#s-failures">Failures</a>';
	END IF;

	-- the summary: per pattern its verdict and every side's figures
	v_s := '<table class="sortable" id="summary"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>kind</th><th>cases</th><th>answers</th>'
		|| (SELECT string_agg(format('<th data-sort="n">%s ms</th>', hroe.html_escape(m)), '' ORDER BY o) FROM unnest(v_sides) WITH ORDINALITY u (m, o))
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%1$s capacity per call</th><th data-sort="n">%1$s items</th><th data-sort="n">%1$s partitions</th>', hroe.html_escape(m)), '' ORDER BY o)
					 FROM unnest(v_ddbs) WITH ORDINALITY u (m, o)), '')
		|| '<th>verdict</th></tr></thead><tbody>';
	FOR r IN SELECT p.pattern_no, p.pattern, p.kind, bool_and(p.identical) AS identical, bool_or(p.has_error) AS failed,
					(SELECT string_agg(DISTINCT format('%s %s', f.model, f.error_class), ', ') FROM pg_temp.hroe_design_page f
					 WHERE f.pattern_no = p.pattern_no AND f.error_class IS NOT NULL) AS failures,
					jsonb_object_agg(p.model, jsonb_build_object('ms', p.ms, 'cap', p.cap, 'unit', p.unit, 'items', p.items,
						'rows', p.answer_rows, 'parts', p.parts, 'scans', p.scans, 'icap', p.icap)) AS m
			 FROM (SELECT q.pattern_no, q.pattern, q.kind, q.model, bool_and(q.identical) AS identical,
						  bool_or(q.error_class IS NOT NULL) AS has_error,
						  round(avg(q.median_ms), 3) AS ms, round(avg(q.capacity), 2) AS cap, max(q.capacity_unit) AS unit,
						  max(q.items) AS items, max(q.result_rows) AS answer_rows, max(q.partitions) AS parts,
						  bool_or(q.request LIKE 'Scan %' OR q.request LIKE '%; Scan %') AS scans, max(q.index_capacity) AS icap
				   FROM pg_temp.hroe_design_page q GROUP BY 1, 2, 3, 4) p
			 GROUP BY 1, 2, 3 ORDER BY 1 LOOP
		v_s := v_s || format('<tr data-pattern="%s"><td class="num" data-v="%s">%s</td><td>%s</td><td>%s</td><td class="num">%s</td><td class="%s">%s</td>',
			hroe.html_escape(r.pattern), r.pattern_no, r.pattern_no, hroe.html_escape(r.pattern), r.kind,
			(SELECT count(DISTINCT q.case_label) FROM pg_temp.hroe_design_page q WHERE q.pattern_no = r.pattern_no),
			CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
			CASE WHEN r.failed THEN 'FAILED' WHEN r.identical THEN 'identical' ELSE 'ANSWERS DIFFER' END)
			-- the fastest side's cell marked
			|| (SELECT string_agg(format('<td class="num%s" data-v="%s">%s</td>',
					CASE WHEN (r.m -> m ->> 'ms')::numeric = (SELECT min((r.m -> m2 ->> 'ms')::numeric) FROM unnest(v_sides) m2) THEN ' win' ELSE '' END,
					r.m -> m ->> 'ms', COALESCE(r.m -> m ->> 'ms', '')), '' ORDER BY o) FROM unnest(v_sides) WITH ORDINALITY u (m, o))
			|| COALESCE((SELECT string_agg(format('<td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td>',
					r.m -> m ->> 'cap', COALESCE((r.m -> m ->> 'cap') || ' ' || (r.m -> m ->> 'unit'), ''),
					r.m -> m ->> 'items', COALESCE(r.m -> m ->> 'items', ''), r.m -> m ->> 'parts', COALESCE(r.m -> m ->> 'parts', '')), '' ORDER BY o)
				FROM unnest(v_ddbs) WITH ORDINALITY u (m, o)), '')
			|| '<td class="verdict">' || CASE WHEN r.failed THEN format('<b class="bad">failed</b>: %s (see Failures)', hroe.html_escape(r.failures))
											  WHEN NOT r.identical THEN '<b class="bad">answers differ</b>' ELSE
				-- the fastest side and its lead over the next; the side with the least capacity
				COALESCE((SELECT format('<b>%s</b> fastest%s', hroe.html_escape(f.m),
						CASE WHEN f.next_ms = f.ms THEN format(', tied with %s', hroe.html_escape(f.next_m))
							 WHEN f.next_ms IS NOT NULL AND f.ms > 0 THEN format(', %s&times; ahead of %s', round(f.next_ms / f.ms, 2), hroe.html_escape(f.next_m))
							 ELSE '' END)
					FROM (SELECT m, (r.m -> m ->> 'ms')::numeric AS ms,
								 lead((r.m -> m ->> 'ms')::numeric) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_ms,
								 lead(m) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_m
						  FROM unnest(v_sides) m WHERE r.m -> m ->> 'ms' IS NOT NULL ORDER BY 2, 1 LIMIT 1) f), '')
				|| COALESCE((SELECT format('; least capacity: <b>%s</b> (%s vs %s %s)', hroe.html_escape(f.m), f.cap, f.next_cap, f.unit)
					FROM (SELECT m, (r.m -> m ->> 'cap')::numeric AS cap, r.m -> m ->> 'unit' AS unit,
								 lead((r.m -> m ->> 'cap')::numeric) OVER (ORDER BY (r.m -> m ->> 'cap')::numeric, m) AS next_cap
						  FROM unnest(v_ddbs) m WHERE r.m -> m ->> 'cap' IS NOT NULL ORDER BY 2, 1 LIMIT 1) f
					WHERE f.next_cap IS NOT NULL AND f.next_cap <> f.cap), '')
				-- what each DynamoDB side pays for it
				|| COALESCE((SELECT string_agg(format('; %s: %s', hroe.html_escape(m), hroe.html_escape(x.note)), '' ORDER BY o)
					FROM unnest(v_ddbs) WITH ORDINALITY u (m, o),
						 LATERAL (SELECT NULLIF(concat_ws(', ',
							CASE WHEN (r.m -> m ->> 'scans')::boolean THEN 'scans the table: every partition read' END,
							CASE WHEN r.kind = 'read' AND (r.m -> m ->> 'items')::numeric > 2 * GREATEST((r.m -> m ->> 'rows')::numeric, 1)
									  AND NOT COALESCE((r.m -> m ->> 'scans')::boolean, false)
								 THEN format('reads %s items for %s returned', r.m -> m ->> 'items', r.m -> m ->> 'rows') END,
							CASE WHEN r.kind = 'write' AND (r.m -> m ->> 'items')::numeric > 1 THEN format('fans out: %s items written', r.m -> m ->> 'items') END,
							CASE WHEN r.kind = 'write' AND (r.m -> m ->> 'icap')::numeric > 0 THEN format('GSI writes %s WCU', r.m -> m ->> 'icap') END), '') AS note) x
					WHERE x.note IS NOT NULL), '') END
			|| '</td></tr>';
	END LOOP;
	v_body := v_body || format('<section id="s-summary"><h2>Summary</h2><p id="verdict">%s of %s calls answer identically on every side; %s pattern(s) on %s side(s)%s.</p><p>Per pattern, averaged over its parameter sets: each side''s median latency (the fastest marked), the DynamoDB capacity a call consumes (RCU for reads, eventually consistent; WCU with the index writes for writes), the items it reads or writes and the partitions it touches, and the verdict. Click a column to sort.</p>',
		(SELECT count(*) FILTER (WHERE identical) FROM pg_temp.hroe_design_page),
		(SELECT count(*) FROM pg_temp.hroe_design_page),
		(SELECT count(DISTINCT pattern) FROM pg_temp.hroe_design_page), cardinality(v_sides),
		CASE WHEN v_failed > 0 THEN format('; <b class="bad">%s call(s) failed</b>', v_failed) ELSE '' END) || v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-summary">Summary</a>';

	-- charts: latency per pattern and side, capacity per DynamoDB side, and
	-- the benchmark's growth curves when several scales ran
	v_labels := ARRAY(SELECT p.pattern FROM pg_temp.hroe_design_page p GROUP BY p.pattern, p.pattern_no ORDER BY p.pattern_no);
	v_s := '<div class="charts">'
		|| hroe.report_bar_chart('chart-latency', 'Median latency per pattern and side', 'ms', v_labels, v_sides,
			COALESCE((SELECT jsonb_agg(jsonb_build_object('label', a.pattern, 'series', a.model, 'value', a.v)) FROM
					  (SELECT p.pattern, p.model, avg(p.median_ms) AS v FROM pg_temp.hroe_design_page p WHERE p.median_ms IS NOT NULL GROUP BY 1, 2) a), '[]'), true)
		|| CASE WHEN cardinality(v_ddbs) > 0 THEN hroe.report_bar_chart('chart-capacity', 'Capacity units per call (RCU reads, WCU writes)', 'units', v_labels, v_ddbs,
			COALESCE((SELECT jsonb_agg(jsonb_build_object('label', a.pattern, 'series', a.model, 'value', a.v)) FROM
					  (SELECT p.pattern, p.model, avg(p.capacity) AS v FROM pg_temp.hroe_design_page p WHERE p.capacity IS NOT NULL GROUP BY 1, 2) a), '[]'), true) ELSE '' END
		|| '</div>';
	IF jsonb_array_length(COALESCE(p_options -> 'growth', '[]')) > 0 THEN
		v_s := v_s || '<h3 id="growth">Growth: median latency against scale (the benchmark''s runs, the busiest parameter set, one client)</h3><div class="growth">'
			|| COALESCE((SELECT string_agg(hroe.report_growth_chart(g.p, p_options -> 'growth'), '' ORDER BY g.n, g.p)
						 FROM (SELECT x ->> 'pattern' AS p, min((x ->> 'pattern_no')::integer) AS n
							   FROM jsonb_array_elements(p_options -> 'growth') x GROUP BY 1) g), '')
			|| '</div>';
	END IF;
	v_body := v_body || '<section id="s-charts"><h2>Charts</h2>' || v_s || '</section>';
	v_nav := v_nav || '<a href="#s-charts">Charts</a>';

	-- where each DynamoDB design loses
	v_s := '';
	FOR r IN SELECT p.model, p.pattern, p.kind, p.case_label, p.request, p.items, p.result_rows, p.partitions, p.capacity, p.index_capacity
			 FROM pg_temp.hroe_design_page p
			 WHERE p.model = ANY (v_ddbs) AND p.error_class IS NULL
			   AND ((p.kind = 'read' AND (p.request LIKE 'Scan %' OR p.request LIKE '%; Scan %'))
				OR (p.kind = 'write' AND (p.items > 1 OR p.index_capacity > p.capacity - p.index_capacity)))
			 ORDER BY array_position(v_ddbs, p.model), p.pattern_no, p.n LOOP
		v_s := v_s || format('<li data-pattern="%s" data-side="%s"><b>%s</b> on %s [%s]: %s</li>', hroe.html_escape(r.pattern), hroe.html_escape(r.model),
			hroe.html_escape(r.pattern), hroe.html_escape(r.model), hroe.html_escape(r.case_label),
			CASE WHEN r.kind = 'read' THEN format('a Scan: %s items and %s partitions read for %s returned, %s RCU', r.items, r.partitions, r.result_rows, r.capacity)
				 ELSE format('%s item(s) written, %s WCU of which %s for the GSIs, where the relational side writes its rows once', r.items, r.capacity, r.index_capacity) END);
	END LOOP;
	v_body := v_body || '<section id="s-loses"><h2>Where the DynamoDB design loses</h2>'
		|| CASE WHEN v_s = '' THEN '<p id="loses-none">No pattern scans and no write fans out or writes more to its indexes than to its table.</p>'
				ELSE '<ul id="loses">' || v_s || '</ul>' END || '</section>';
	v_nav := v_nav || '<a href="#s-loses">Where it loses</a>';

	-- every call
	v_s := '<table class="sortable" id="calls"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>case</th><th>side</th><th>answers</th><th data-sort="n">rows</th><th>request</th><th data-sort="n">requests</th><th data-sort="n">items</th><th data-sort="n">bytes</th><th data-sort="n">capacity</th><th data-sort="n">partitions</th><th data-sort="n">buffers</th><th data-sort="n">median ms</th><th>plan</th><th>error</th></tr></thead><tbody>';
	FOR r IN SELECT * FROM pg_temp.hroe_design_page ORDER BY n LOOP
		v_s := v_s || format('<tr data-side="%s"><td class="num" data-v="%s">%s</td><td>%s</td><td>%s</td><td>%s</td><td class="%s">%s</td><td class="num" data-v="%s">%s</td><td class="request">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="plan">%s</td><td class="bad">%s</td></tr>',
			hroe.html_escape(r.model), r.pattern_no, r.pattern_no, hroe.html_escape(r.pattern), hroe.html_escape(r.case_label), hroe.html_escape(r.model),
			CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
			CASE WHEN r.error_class IS NOT NULL THEN 'FAILED' WHEN r.identical THEN 'identical' ELSE 'DIFFER' END,
			COALESCE(r.result_rows::text, ''), COALESCE(r.result_rows::text, ''), hroe.html_escape(COALESCE(r.request, '')),
			COALESCE(r.requests::text, ''), COALESCE(r.requests::text, ''), COALESCE(r.items::text, ''), COALESCE(r.items::text, ''),
			COALESCE(r.item_bytes::text, ''), COALESCE(r.item_bytes::text, ''), COALESCE(r.capacity::text, ''), COALESCE(r.capacity || ' ' || r.capacity_unit, ''),
			COALESCE(r.partitions::text, ''), COALESCE(r.partitions::text, ''), COALESCE(r.shared_hit::text, ''), COALESCE(r.shared_hit::text, ''),
			COALESCE(r.median_ms::text, ''), COALESCE(r.median_ms::text, ''), hroe.html_escape(COALESCE(r.plan_shape, '')),
			hroe.html_escape(COALESCE(r.error_class || ' ' || r.error, '')));
	END LOOP;
	v_body := v_body || '<section id="s-calls"><h2>Every call</h2>' || v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-calls">Calls</a>';

	-- tables and indexes: sizes, hot keys, grids
	v_s := '<table class="sortable" id="tables"><thead><tr><th>design</th><th>table</th><th>index</th><th data-sort="n">items</th><th data-sort="n">bytes</th><th data-sort="n">partitions</th><th>hottest partition keys (items, share)</th></tr></thead><tbody>';
	FOR t IN SELECT * FROM pg_temp.hroe_design_page_tables LOOP
		v_s := v_s || format('<tr data-design="%s" data-table="%s" data-index="%s"><td>%s</td><td>%s</td><td>%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="hot">%s</td></tr>',
			hroe.html_escape(t.design), hroe.html_escape(t.table_name), hroe.html_escape(COALESCE(t.index_name, '-')), hroe.html_escape(t.design),
			hroe.html_escape(t.table_name), hroe.html_escape(COALESCE(t.index_name, '(table)')), t.items, t.items, t.bytes, t.bytes, t.partitions, t.partitions,
			COALESCE((SELECT string_agg(format('%s (%s, %s %%)', hroe.html_escape((SELECT v #>> '{}' FROM jsonb_each(h -> 'key') x (k, v))),
				h ->> 'items', round(100.0 * (h ->> 'items')::numeric / NULLIF(t.items, 0), 1)), '; ' ORDER BY o)
				FROM jsonb_array_elements(t.hottest) WITH ORDINALITY AS e (h, o)), ''));
	END LOOP;
	v_s := v_s || '</tbody></table>';
	FOR t IN SELECT * FROM pg_temp.hroe_design_page_tables WHERE jsonb_array_length(hottest) > 0 LOOP
		v_s := v_s || format('<h3>%s: %s%s, its hottest partition</h3><div class="grid">', hroe.html_escape(t.design), hroe.html_escape(t.table_name),
							 COALESCE('.' || hroe.html_escape(t.index_name), ''))
			|| hroe.grid(t.table_name, t.index_name, (SELECT v #>> '{}' FROM jsonb_each(t.hottest #> '{0,key}') x (k, v)), v_grid_items, 'html')
			|| '</div>';
	END LOOP;
	v_body := v_body || '<section id="s-tables"><h2>Tables and indexes, as the design guides draw them</h2><p>Per DynamoDB design: items (index entries), bytes as DynamoDB sizes them, partitions (distinct partition keys) and the hottest partition keys, as the tables hold them now; each hottest partition drawn as a grid.</p>' || v_s || '</section>';
	v_nav := v_nav || '<a href="#s-tables">Tables</a>';

	-- the bill: the request mix per month, on demand and provisioned, per table class
	v_s := '<table id="bill"><thead><tr><th>design</th><th>pattern</th><th class="num">requests per second</th><th class="num">units per call</th><th class="num">on demand, Standard ($/month)</th><th class="num">on demand, Standard-IA ($/month)</th><th class="num">provisioned, Standard ($/month)</th><th class="num">provisioned, Standard-IA ($/month)</th></tr></thead><tbody>';
	FOREACH d IN ARRAY v_ddbs LOOP
		FOR r IN SELECT per.pattern, per.kind, per.units, (m.value #>> '{}')::numeric AS rate,
						(m.value #>> '{}')::numeric * per.units * v_hours * 3600 / 1e6 AS million_units,
						(m.value #>> '{}')::numeric * per.units AS sustained
				 FROM (SELECT p.pattern, p.kind, avg(p.capacity) AS units FROM pg_temp.hroe_design_page p
					   WHERE p.model = d AND p.capacity IS NOT NULL GROUP BY 1, 2) per
				 JOIN jsonb_each(v_mix) m ON m.key = per.pattern
				 WHERE jsonb_typeof(m.value) = 'number' AND (m.value #>> '{}')::numeric >= 0
				 ORDER BY 1 LOOP
			v_s := v_s || format('<tr data-design="%s" data-pattern="%s"><td>%s</td><td>%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td></tr>',
				hroe.html_escape(d), hroe.html_escape(r.pattern), hroe.html_escape(d), hroe.html_escape(r.pattern), r.rate, round(r.units, 2),
				round(r.million_units * (v_price ->> CASE r.kind WHEN 'read' THEN 'read_price' ELSE 'write_price' END)::numeric, 2),
				round(r.million_units * (v_price ->> CASE r.kind WHEN 'read' THEN 'ia_read_price' ELSE 'ia_write_price' END)::numeric, 2),
				round(r.sustained * v_hours * (v_price ->> CASE r.kind WHEN 'read' THEN 'rcu_hour_price' ELSE 'wcu_hour_price' END)::numeric, 2),
				round(r.sustained * v_hours * (v_price ->> CASE r.kind WHEN 'read' THEN 'ia_rcu_hour_price' ELSE 'ia_wcu_hour_price' END)::numeric, 2));
		END LOOP;
		SELECT round(COALESCE(sum(x.mu * (v_price ->> CASE x.kind WHEN 'read' THEN 'read_price' ELSE 'write_price' END)::numeric), 0), 2) AS od,
			   round(COALESCE(sum(x.mu * (v_price ->> CASE x.kind WHEN 'read' THEN 'ia_read_price' ELSE 'ia_write_price' END)::numeric), 0), 2) AS od_ia,
			   round(COALESCE(sum(x.su * v_hours * (v_price ->> CASE x.kind WHEN 'read' THEN 'rcu_hour_price' ELSE 'wcu_hour_price' END)::numeric), 0), 2) AS pr,
			   round(COALESCE(sum(x.su * v_hours * (v_price ->> CASE x.kind WHEN 'read' THEN 'ia_rcu_hour_price' ELSE 'ia_wcu_hour_price' END)::numeric), 0), 2) AS pr_ia
		INTO t
		FROM (SELECT per.kind, (m.value #>> '{}')::numeric * per.units * v_hours * 3600 / 1e6 AS mu, (m.value #>> '{}')::numeric * per.units AS su
			  FROM (SELECT p.pattern, p.kind, avg(p.capacity) AS units FROM pg_temp.hroe_design_page p
					WHERE p.model = d AND p.capacity IS NOT NULL GROUP BY 1, 2) per
			  JOIN jsonb_each(v_mix) m ON m.key = per.pattern
			  WHERE jsonb_typeof(m.value) = 'number' AND (m.value #>> '{}')::numeric >= 0) x;
		v_ddb_bytes := (SELECT COALESCE(sum(bytes + 100 * items), 0) FROM pg_temp.hroe_design_page_tables WHERE design = d);
		v_s := v_s || format('<tr class="total" data-design="%5$s" data-kind="requests" data-on-demand="%1$s" data-provisioned="%3$s"><td>%6$s</td><td>requests</td><td></td><td></td><td class="num">%1$s</td><td class="num">%2$s</td><td class="num">%3$s</td><td class="num">%4$s</td></tr>',
				t.od, t.od_ia, t.pr, t.pr_ia, hroe.html_escape(d), hroe.html_escape(d))
			|| format('<tr class="total" data-design="%s" data-kind="storage" data-bytes="%s"><td>%s</td><td>storage (%s bytes with 100 bytes per item and index entry)</td><td></td><td></td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td></tr>',
				hroe.html_escape(d), v_ddb_bytes, hroe.html_escape(d), v_ddb_bytes,
				round(v_ddb_bytes / 1073741824 * (v_price ->> 'storage_price')::numeric, 2), round(v_ddb_bytes / 1073741824 * (v_price ->> 'ia_storage_price')::numeric, 2),
				round(v_ddb_bytes / 1073741824 * (v_price ->> 'storage_price')::numeric, 2), round(v_ddb_bytes / 1073741824 * (v_price ->> 'ia_storage_price')::numeric, 2));
	END LOOP;
	v_s := v_s || '</tbody></table>';
	-- storage on each side: what PostgreSQL holds, what DynamoDB would bill
	v_s := v_s || '<h3>Storage on each side</h3><table id="storage"><thead><tr><th>side</th><th>table class</th><th class="num">PostgreSQL bytes (tables, indexes, TOAST)</th><th class="num">DynamoDB billed bytes (items and index entries, +100 B each)</th><th class="num">DynamoDB storage $ / month</th></tr></thead><tbody>';
	FOREACH d IN ARRAY v_sides LOOP
		v_pg_bytes := (SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
					   WHERE c.relkind IN ('r', 'm', 'p') AND c.relnamespace::regnamespace::text IN
						   (SELECT x FROM jsonb_array_elements_text(CASE WHEN d = v_rel THEN COALESCE(p_design -> 'relational_schemas', '[]')
								ELSE jsonb_build_array(hroe.design_schema(v_designs -> d)) END) x));
		v_ddb_bytes := CASE WHEN d <> v_rel THEN (SELECT COALESCE(sum(bytes + 100 * items), 0) FROM pg_temp.hroe_design_page_tables WHERE design = d) END;
		v_class := CASE WHEN d <> v_rel THEN COALESCE(p_options ->> 'table_class', v_designs #>> ARRAY[d, 'tables', '0', 'TableClass'], 'STANDARD') END;
		v_s := v_s || format('<tr data-model="%s"><td>%s</td><td>%s</td><td class="num" data-v="%s">%s (%s)</td><td class="num" data-v="%s">%s</td><td class="num">%s</td></tr>',
			hroe.html_escape(d), hroe.html_escape(d), hroe.html_escape(COALESCE(v_class, '')), v_pg_bytes, v_pg_bytes, pg_size_pretty(v_pg_bytes),
			v_ddb_bytes, COALESCE(v_ddb_bytes || ' (' || pg_size_pretty(v_ddb_bytes) || ')', ''),
			COALESCE('$' || round(v_ddb_bytes / 1073741824 * (v_price ->> CASE WHEN v_class = 'STANDARD_INFREQUENT_ACCESS' THEN 'ia_storage_price' ELSE 'storage_price' END)::numeric, 4), ''));
	END LOOP;
	v_s := v_s || '</tbody></table>';
	v_body := v_body || format('<section id="s-bill"><h2>The monthly bill</h2><p>Per DynamoDB design: the request mix (requests per second, sustained over %s hours a month: the design''s "mix", or the options'') times each pattern''s capacity per call (the average over its cases), priced on demand and provisioned (units sized to the mix, no headroom), for each table class. Prices: us-east-1, read %s, <a href="https://aws.amazon.com/dynamodb/pricing/">aws.amazon.com/dynamodb/pricing</a>.</p>',
			v_hours, hroe.html_escape(v_price ->> 'prices_read'))
		|| v_s || '</section>';
	v_nav := v_nav || '<a href="#s-bill">Bill</a>';

	-- write amplification of the GSIs per write pattern
	v_s := '';
	FOR r IN SELECT p.model, p.pattern, p.case_label, p.items, p.capacity, p.index_capacity FROM pg_temp.hroe_design_page p
			 WHERE p.model = ANY (v_ddbs) AND p.kind = 'write' AND p.error_class IS NULL
			 ORDER BY array_position(v_ddbs, p.model), p.pattern_no, p.n LOOP
		v_s := v_s || format('<tr data-design="%s" data-pattern="%s"><td>%s</td><td>%s</td><td>%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td></tr>',
			hroe.html_escape(r.model), hroe.html_escape(r.pattern), hroe.html_escape(r.model), hroe.html_escape(r.pattern), hroe.html_escape(r.case_label),
			r.items, r.capacity - r.index_capacity, r.index_capacity,
			CASE WHEN r.capacity - r.index_capacity > 0 THEN round(r.capacity / (r.capacity - r.index_capacity), 2)::text ELSE '' END);
	END LOOP;
	v_body := v_body || '<section id="s-amplification"><h2>GSI write amplification</h2>'
		|| CASE WHEN v_s = '' THEN '<p>The design declares no write pattern.</p>'
				ELSE '<table id="amplification"><thead><tr><th>design</th><th>write pattern</th><th>case</th><th class="num">items written</th><th class="num">table WCU</th><th class="num">GSI WCU</th><th class="num">total ÷ table</th></tr></thead><tbody>' || v_s || '</tbody></table>' END
		|| '</section>';
	v_nav := v_nav || '<a href="#s-amplification">GSI writes</a>';

	RETURN '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
		|| format('<title>hroe design %s</title><style>', hroe.html_escape(p_design ->> 'name'))
		|| 'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#0f172a;background:#fff}'
		|| 'header{background:#0f172a;color:#f8fafc;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#cbd5e1}'
		|| 'nav{position:sticky;top:0;background:#f1f5f9;padding:6px 24px;border-bottom:1px solid #cbd5e1;z-index:1}nav a{margin-right:16px;color:#1d4ed8;text-decoration:none}'
		|| 'main{padding:0 24px 40px}h2{margin:26px 0 6px;font-size:18px}h3{margin:18px 0 6px;font-size:15px}'
		|| 'table{border-collapse:collapse;font-size:12.5px}th,td{border-bottom:1px solid #e2e8f0;padding:3px 7px;text-align:left;vertical-align:top}'
		|| 'table.sortable thead th{background:#f8fafc;cursor:pointer}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}td.win{font-weight:700;background:#dcfce7}.ok{color:#15803d}.bad{color:#b91c1c;font-weight:700}'
		|| 'td.request,td.plan{font-family:ui-monospace,monospace;font-size:11.5px;max-width:420px;word-break:break-all}td.verdict{min-width:260px}tr.total td{font-weight:700}.grid{margin:10px 0 18px;overflow-x:auto}'
		|| '.charts{display:flex;flex-wrap:wrap;gap:24px}.growth{display:flex;flex-wrap:wrap;gap:8px}'
		|| format('</style></head><body data-design="%s"><header><h1>hroe: the design %s, proven on its data</h1><p>%s</p><p>%s &middot; %s calls &middot; %s</p></header>',
				  hroe.html_escape(p_design ->> 'name'), hroe.html_escape(p_design ->> 'name'), hroe.html_escape(COALESCE(p_design ->> 'description', '')),
				  hroe.html_escape(array_to_string(v_sides, ', ')), (SELECT count(*) FROM pg_temp.hroe_design_page), hroe.html_escape(split_part(version(), ',', 1)))
		|| '<nav>' || v_nav || '</nav><main>' || v_body || '</main>'
		|| '<script type="application/json" id="hroe-design-data">' || replace(replace(p_results::text, '<', '\u003c'), '>', '\u003e') || '</script>'
		|| '<script>document.querySelectorAll("table.sortable").forEach(function(t){t.querySelectorAll("thead th").forEach(function(h,i){h.addEventListener("click",function(){'
		|| 'var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows),n=h.getAttribute("data-sort")==="n",d=h.getAttribute("data-dir")==="asc"?-1:1;'
		|| 'rs.sort(function(x,y){var a=x.cells[i],c=y.cells[i];if(!a||!c)return 0;var p=a.getAttribute("data-v"),q=c.getAttribute("data-v");'
		|| 'if(n){p=p===null||p===""?Infinity:+p;q=q===null||q===""?Infinity:+q;return p===q?0:(p<q?-d:d);}return a.textContent.localeCompare(c.textContent)*d;});'
		|| 'rs.forEach(function(r){b.appendChild(r);});h.setAttribute("data-dir",d===1?"asc":"desc");});});});</script>'
		|| '</body></html>';
END
$$;
COMMENT ON FUNCTION hroe.design_html(jsonb, jsonb, jsonb) IS
'one hroe.design_run() run of a design (p_results: its rows as a jsonb array) as a self-contained HTML page, a column per side (relational, the design''s DynamoDB side, each variant''s): the failed calls (side, parameter set, SQLSTATE and message), per pattern the verdict (failed, answers differ, or the fastest side and the least capacity, and what each DynamoDB side pays: a Scan, items read beyond those returned, a write that fans out, GSI writes) with every side''s latency, capacity, items and partitions, SVG charts of latency and capacity and the benchmark''s growth curves (p_options.growth [{"scale", "pattern_no", "pattern", "model", "ms"}]), where each DynamoDB design loses, every call, per design, table and index the items, bytes, partitions and hottest partition keys with the hottest partition drawn by hroe.grid, the monthly bill of the request mix (the design''s "mix" or p_options.mix: requests per second per pattern) on demand and provisioned for both table classes, storage on each side (relational_schemas; each design''s schema), and the GSI write amplification per write; p_options: read_price, write_price, storage_price, ia_read_price, ia_write_price, ia_storage_price, rcu_hour_price, wcu_hour_price, ia_rcu_hour_price, ia_wcu_hour_price (us-east-1 defaults, https://aws.amazon.com/dynamodb/pricing/), table_class, grid_items (1 to 1000, default 12), mix, growth';

-- hroe.design_tables counts from the stored key columns, the bytes of a
-- large table from a sample (the page's cost at scale 3000)
CREATE FUNCTION hroe.design_tables(p_design jsonb, p_hot integer DEFAULT 3)
RETURNS TABLE (table_name text, index_name text, items bigint, bytes bigint, partitions bigint, hottest jsonb)
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t jsonb;
	v_table text;
	v_index text;
	v_relid regclass;
	v_hash text;
	v_pcol name;
	v_cols name[];
	v_where text;
	v_size text;
	v_pages bigint;
	v_items bigint;
	v_parts bigint;
	v_bytes bigint;
	v_hot jsonb;
	v_eq text;
BEGIN
	PERFORM hroe.design_check(p_design);
	IF p_hot IS NULL OR p_hot < 0 OR p_hot > 100 THEN
		RAISE EXCEPTION 'p_hot must be between 0 and 100' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR t IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'tables', '[]')) x LOOP
		v_table := t ->> 'TableName';
		SELECT k.relid INTO v_relid FROM hroe.tables k WHERE k.table_name = v_table;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'table % does not exist', v_table USING ERRCODE = 'undefined_table';
		END IF;
		FOR v_index IN SELECT NULL UNION ALL
				SELECT i ->> 'IndexName' FROM jsonb_array_elements(COALESCE(t -> 'GlobalSecondaryIndexes', '[]')
					|| COALESCE(t -> 'LocalSecondaryIndexes', '[]')) i LOOP
			-- the partition key's stored column; an index's entries are the
			-- items with every key column (sparse indexes)
			IF v_index IS NULL THEN
				SELECT k.partition_key, ARRAY['pk']::name[] INTO v_hash, v_cols FROM hroe.tables k WHERE k.table_name = v_table;
				v_size := 'hroe.item_size(s.item)';
			ELSE
				SELECT x.partition_key[1], x.partition_key_columns || x.sort_key_columns INTO v_hash, v_cols
				FROM hroe.indexes x WHERE x.table_name = v_table AND x.index_name = v_index;
				IF NOT FOUND THEN
					RAISE EXCEPTION 'table % has no index %', v_table, v_index USING ERRCODE = 'undefined_object';
				END IF;
				v_size := format('hroe.index_entry_size(s.item, %L, %L)', v_table, v_index);
			END IF;
			v_pcol := v_cols[1];
			-- the key column type's equality (hroe.key's is in schema hroe)
			SELECT format('OPERATOR(%s.=)', o.oprnamespace::regnamespace) INTO v_eq
			FROM pg_attribute a JOIN pg_operator o ON o.oprname = '=' AND o.oprleft = a.atttypid AND o.oprright = a.atttypid
			WHERE a.attrelid = v_relid AND a.attname = v_pcol;
			v_where := (SELECT string_agg(format('s.%I IS NOT NULL', c), ' AND ') FROM unnest(v_cols) c);
			-- items, partitions and the hottest: the key column alone,
			-- counted per value; the hottest are the partitions with at
			-- least the p_hot-th count (at most 1000 of them), their keys and
			-- bytes from their own items
			EXECUTE format('WITH c AS MATERIALIZED (SELECT s.%3$I AS k, count(*) AS n FROM %2$s s WHERE %4$s GROUP BY 1),
								 kth AS (SELECT min(q.n) AS n FROM (SELECT c.n FROM c ORDER BY c.n DESC LIMIT $1) q)
							SELECT COALESCE(sum(c.n), 0)::bigint, count(*),
								   (SELECT COALESCE(jsonb_agg(jsonb_build_object(''key'', h.key, ''items'', h.n, ''bytes'', h.bytes)
														ORDER BY h.n DESC, h.bytes DESC, h.key::text), ''[]'')
									FROM (SELECT e.* FROM (SELECT d.n, (SELECT hroe.item_get_attribute(s.item, %1$L) FROM %2$s s WHERE s.%3$I %6$s d.k AND %4$s LIMIT 1) AS key,
												 (SELECT sum(%5$s)::bigint FROM %2$s s WHERE s.%3$I %6$s d.k AND %4$s) AS bytes
										  FROM (SELECT c.* FROM c, kth WHERE c.n >= kth.n ORDER BY c.n DESC, c.k LIMIT 1000) d) e
									ORDER BY e.n DESC, e.bytes DESC, e.key::text LIMIT $1) h)
							FROM c', v_hash, v_relid, v_pcol, v_where, v_size, v_eq)
				INTO v_items, v_parts, v_hot USING p_hot;
			-- the bytes: every item of a small table, else a sample's mean
			-- times the item count
			v_pages := pg_relation_size(v_relid) / current_setting('block_size')::bigint;
			IF v_pages <= 1024 THEN
				EXECUTE format('SELECT COALESCE(sum(%1$s), 0)::bigint FROM %2$s s WHERE %3$s', v_size, v_relid, v_where) INTO v_bytes;
			ELSE
				EXECUTE format('SELECT COALESCE(round(avg(%1$s) * $1), 0)::bigint FROM %2$s s TABLESAMPLE SYSTEM (%4$s) REPEATABLE (42) WHERE %3$s',
							   v_size, v_relid, v_where, round(100000.0 / v_pages, 6)) INTO v_bytes USING v_items;
			END IF;
			table_name := v_table;
			index_name := v_index;
			items := v_items;
			bytes := v_bytes;
			partitions := v_parts;
			hottest := v_hot;
			RETURN NEXT;
		END LOOP;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.design_tables(jsonb, integer) IS
'per DynamoDB table of a design and per index: the items (index entries), their bytes (every item''s up to 1024 pages, 8 MB, else estimated from a sample of about 1000 pages times the item count), the partitions (distinct partition key values) and the p_hot hottest partition keys by items ([{"key", "items", "bytes"}], ties by bytes among at most 1000 partitions), measured on the tables as they are: the counts from the stored key columns alone, no item decoded';

-- The write patterns' capacity from the items the write changed alone
-- (issue 35): hroe.compare_capture's statement triggers, for the measured
-- call only, replace the full copy of every table (hroe.compare_snapshot)
-- and its full comparison
DROP FUNCTION hroe.compare_snapshot(text);
DROP FUNCTION hroe.compare_drop_snapshot(text);

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
CREATE OR REPLACE FUNCTION hroe.compare_write_capacity(p_model text, OUT items_written bigint, OUT table_wcu numeric,
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

CREATE OR REPLACE FUNCTION hroe.compare(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
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

-- Runs every pattern of a design on both sides (and on each variant's
-- DynamoDB side); a failing call is recorded and the run goes on.
CREATE FUNCTION hroe.design_run(p_design jsonb, p_runs integer DEFAULT 5, p_load boolean DEFAULT true,
								p_patterns text[] DEFAULT NULL)
RETURNS TABLE (pattern_no integer, pattern text, kind text, case_label text, model text, call text,
			   identical boolean, fingerprint text, result_rows bigint, plan_shape text,
			   seq_scans integer, index_scans integer, joins integer, sorts integer,
			   shared_hit bigint, shared_read bigint, request text, requests integer,
			   items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric,
			   partitions bigint, index_capacity numeric, error_class text, error text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema text := hroe.design_schema(hroe.design_check(p_design));
	v_rel text := COALESCE(p_design ->> 'relational_name', 'relational');
	-- the sides: the relational one, the design's DynamoDB side, then each
	-- variant's (its name, its schema, its patterns by name)
	v_sides jsonb := jsonb_build_array(
		jsonb_build_object('name', v_rel, 'relational', true),
		jsonb_build_object('name', COALESCE(p_design ->> 'dynamodb_name', p_design ->> 'name'), 'schema', v_schema,
						   'patterns', p_design -> 'patterns'))
		|| COALESCE((SELECT jsonb_agg(jsonb_build_object('name', COALESCE(v ->> 'dynamodb_name', v ->> 'name'),
														 'schema', hroe.design_schema(v), 'patterns', v -> 'patterns') ORDER BY o)
					 FROM jsonb_array_elements(COALESCE(p_design -> 'variants', '[]')) WITH ORDINALITY AS x (v, o)), '[]');
	v jsonb;
	s jsonb;
	s_no integer;
	p jsonb;
	sp jsonb;
	p_no integer;
	c record;
	v_names text[];
	v_answer jsonb;
	v_ordered boolean;
	v_sql text;
	v_reqs jsonb;
	v_check_sql text;
	v_check_reqs jsonb;
	v_call record;
	v_plan jsonb;
	v_times numeric[];
	v_shape record;
	v_fp text;
	v_rows bigint;
	v_request text;
	v_requests integer;
	v_items bigint;
	v_bytes bigint;
	v_cap numeric;
	v_parts bigint;
	v_icap numeric;
	v_wn bigint;
	v_wt numeric;
	v_wi numeric;
	v_state text;
	v_message text;
	v_detail text;
	i integer;
BEGIN
	IF p_runs IS NULL OR p_runs < 1 OR p_runs > 1000 THEN
		RAISE EXCEPTION 'p_runs must be between 1 and 1000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF (SELECT count(DISTINCT x ->> 'name') FROM jsonb_array_elements(v_sides) x) <> jsonb_array_length(v_sides) THEN
		RAISE EXCEPTION 'the relational side, the DynamoDB side and each variant need different names' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_load THEN
		PERFORM hroe.design_load(p_design);
		FOR v IN SELECT x FROM jsonb_array_elements(COALESCE(p_design -> 'variants', '[]')) x LOOP
			PERFORM hroe.design_load(v);
		END LOOP;
	END IF;
	FOR s IN SELECT x FROM jsonb_array_elements(v_sides) x WHERE x ? 'schema' LOOP
		IF to_regnamespace(s ->> 'schema') IS NULL THEN
			RAISE EXCEPTION 'the design''s schema % does not exist', s ->> 'schema' USING ERRCODE = 'invalid_schema_name',
				HINT = 'Load the design first: hroe.design_load(design), or hroe.design_run(design, p_load => true).';
		END IF;
	END LOOP;
	IF to_regclass('pg_temp.hroe_design_out') IS NULL THEN
		CREATE TEMP TABLE hroe_design_out (
			pattern_no integer, pattern text, kind text, case_no bigint, case_label text, model_no integer, model text,
			call text, fingerprint text, result_rows bigint, plan_shape text, seq_scans integer, index_scans integer,
			joins integer, sorts integer, shared_hit bigint, shared_read bigint, request text, requests integer,
			items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric,
			partitions bigint, index_capacity numeric, error_class text, error text);
	END IF;
	TRUNCATE pg_temp.hroe_design_out;
	FOR p, p_no IN SELECT x, n::integer FROM jsonb_array_elements(COALESCE(p_design -> 'patterns', '[]')) WITH ORDINALITY AS e (x, n) LOOP
		p_no := COALESCE((p ->> 'number')::integer, p_no);
		CONTINUE WHEN p_patterns IS NOT NULL AND NOT (p ->> 'name' = ANY (p_patterns) OR p_no::text = ANY (p_patterns));
		v_names := ARRAY(SELECT jsonb_array_elements_text(COALESCE(p -> 'parameters', '[]')));
		v_answer := p -> 'answer';
		v_ordered := COALESCE((p ->> 'ordered')::boolean, false);
		-- the parameter sets: a query that fails is the pattern's failure
		BEGIN
			CREATE TEMP TABLE hroe_design_cases ON COMMIT DROP AS SELECT 0::bigint AS n, NULL::text AS label, NULL::text[] AS args WITH NO DATA;
			EXECUTE format('INSERT INTO pg_temp.hroe_design_cases SELECT row_number() OVER (), x.label::text, x.args::text[] FROM (%s) x (label, args)',
						   p ->> 'parameters_sql');
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT;
			INSERT INTO pg_temp.hroe_design_out (pattern_no, pattern, kind, case_no, case_label, model_no, model, call, error_class, error)
			VALUES (p_no, p ->> 'name', p ->> 'kind', 0, '(parameters_sql)', 1, v_rel, p ->> 'parameters_sql', v_state, v_message);
			RAISE WARNING 'hroe.design_run: pattern % %: its parameters_sql failed: % %', p_no, p ->> 'name', v_state, v_message;
			CONTINUE;
		END;
		FOR c IN SELECT * FROM pg_temp.hroe_design_cases ORDER BY n LOOP
			FOR s, s_no IN SELECT x, o::integer FROM jsonb_array_elements(v_sides) WITH ORDINALITY AS e (x, o) LOOP
				-- the side's own pattern of that name (the design's for the
				-- relational side); a variant without it is skipped
				IF s ? 'relational' OR s_no = 2 THEN
					sp := p;
				ELSE
					SELECT x INTO sp FROM jsonb_array_elements(COALESCE(s -> 'patterns', '[]')) x WHERE x ->> 'name' = p ->> 'name';
					CONTINUE WHEN sp IS NULL;
				END IF;
				v_times := '{}';
				v_plan := NULL; v_fp := NULL; v_rows := NULL; v_sql := NULL; v_reqs := NULL;
				v_request := NULL; v_requests := NULL; v_items := NULL; v_bytes := NULL; v_cap := NULL; v_parts := NULL;
				v_icap := NULL; v_wn := NULL; v_wt := NULL; v_wi := NULL;
				BEGIN
					IF s ? 'relational' THEN
						v_sql := p ->> 'relational';
						v_check_sql := p #>> '{check,relational}';
						v_check_reqs := NULL;
					ELSE
						v_sql := sp #>> '{dynamodb,sql}';
						v_reqs := CASE WHEN sp #> '{dynamodb,requests}' IS NOT NULL
									   THEN hroe.design_fill(sp #> '{dynamodb,requests}', v_names, c.args) END;
						v_check_sql := sp #>> '{check,dynamodb,sql}';
						v_check_reqs := CASE WHEN sp #> '{check,dynamodb,requests}' IS NOT NULL
											 THEN hroe.design_fill(sp #> '{check,dynamodb,requests}', v_names, c.args) END;
						IF v_reqs IS NOT NULL THEN
							v_request := (SELECT string_agg(format('%s %s', r ->> 'operation', r -> 'request'), '; ') FROM jsonb_array_elements(v_reqs) r);
							v_requests := jsonb_array_length(v_reqs);
						ELSIF sp #>> '{dynamodb,request_sql}' IS NOT NULL THEN
							EXECUTE 'SELECT ' || (sp #>> '{dynamodb,request_sql}') INTO v_request USING c.args;
						END IF;
					END IF;
					IF p ->> 'kind' = 'read' THEN
						IF v_reqs IS NOT NULL THEN
							SELECT * INTO v_call FROM hroe.design_call(v_reqs);
							SELECT * INTO v_fp, v_rows FROM hroe.design_answer(NULL, v_call.docs, c.args, v_answer, v_ordered);
							v_cap := v_call.capacity; v_items := v_call.items; v_bytes := v_call.item_bytes; v_parts := v_call.partitions;
							v_requests := v_call.requests;
							-- timed as the requests alone, or, when a Query or Scan
							-- needed more pages, as hroe.design_call following them
							FOR i IN 1 .. p_runs LOOP
								IF v_call.requests > jsonb_array_length(v_reqs) THEN
									EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT hroe.design_call($1)' INTO v_plan USING v_reqs;
								ELSE
									EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT hroe.dynamodb(r ->> ''operation'', r -> ''request'') FROM jsonb_array_elements($1) r'
									INTO v_plan USING v_reqs;
								END IF;
								v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
							END LOOP;
						ELSE
							SELECT * INTO v_fp, v_rows FROM hroe.design_answer(v_sql, NULL, c.args, v_answer, v_ordered);
							FOR i IN 1 .. p_runs LOOP
								EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) %s', v_sql) INTO v_plan USING c.args;
								v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
							END LOOP;
							IF NOT s ? 'relational' AND sp #>> '{dynamodb,capacity_sql}' IS NOT NULL THEN
								-- hroe.compare_read_capacity's rule: per request, its items' bytes
								EXECUTE format('SELECT count(*)::int, COALESCE(sum(q.n), 0), COALESCE(sum(q.bytes), 0)::bigint,
										COALESCE(sum(hroe.read_capacity_units(q.bytes, false)), 0)::numeric, count(*)
									FROM (SELECT x.req, count(x.size) AS n, COALESCE(sum(x.size), 0)::bigint AS bytes
										  FROM (%s) x (req, op, size) GROUP BY x.req) q', sp #>> '{dynamodb,capacity_sql}')
								INTO v_requests, v_items, v_bytes, v_cap, v_parts USING c.args;
							END IF;
						END IF;
					ELSE
						-- a write: each run in a subtransaction rolled back, as hroe.compare
						-- runs them, on a DynamoDB side after an untimed run (0) that
						-- records and prices what the write changes
						FOR i IN CASE WHEN s ? 'relational' THEN 1 ELSE 0 END .. p_runs LOOP
							BEGIN
								IF i = 0 THEN
									PERFORM hroe.compare_capture(s ->> 'schema');
									IF v_reqs IS NOT NULL THEN
										PERFORM hroe.design_call(v_reqs);
									ELSE
										EXECUTE v_sql USING c.args;
									END IF;
									SELECT * INTO v_wn, v_wt, v_wi FROM hroe.compare_write_capacity(s ->> 'schema');
									RAISE EXCEPTION USING ERRCODE = 'HR0CR';
								END IF;
								IF v_reqs IS NOT NULL THEN
									EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT hroe.design_call($1)' INTO v_plan USING v_reqs;
								ELSE
									EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) %s', v_sql) INTO v_plan USING c.args;
								END IF;
								v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
								IF v_check_reqs IS NOT NULL THEN
									SELECT * INTO v_call FROM hroe.design_call(v_check_reqs);
									SELECT * INTO v_fp, v_rows FROM hroe.design_answer(NULL, v_call.docs, c.args, v_answer, v_ordered);
								ELSE
									SELECT * INTO v_fp, v_rows FROM hroe.design_answer(v_check_sql, NULL, c.args, v_answer, v_ordered);
								END IF;
								RAISE EXCEPTION USING ERRCODE = 'HR0CR';
							EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
								NULL;
							END;
						END LOOP;
						IF NOT s ? 'relational' THEN
							v_request := COALESCE(v_request || ': ', '') || format('%s items written, %s WCU table + %s WCU indexes', v_wn, v_wt, v_wi);
							v_items := v_wn;
							v_cap := v_wt + v_wi;
							v_icap := v_wi;
						END IF;
					END IF;
					SELECT * INTO v_shape FROM hroe.compare_plan_shape(v_plan);
					INSERT INTO pg_temp.hroe_design_out VALUES (p_no, p ->> 'name', p ->> 'kind', c.n, c.label, s_no, s ->> 'name',
						CASE WHEN v_reqs IS NOT NULL THEN v_reqs::text ELSE v_sql END || format(' -- $1 = %L', c.args),
						v_fp, v_rows,
						CASE WHEN p ->> 'kind' = 'read' THEN v_shape.shape END,
						CASE WHEN p ->> 'kind' = 'read' THEN v_shape.seq_scans END,
						CASE WHEN p ->> 'kind' = 'read' THEN v_shape.index_scans END,
						CASE WHEN p ->> 'kind' = 'read' THEN v_shape.joins END,
						CASE WHEN p ->> 'kind' = 'read' THEN v_shape.sorts END,
						v_shape.shared_hit, v_shape.shared_read, v_request, v_requests, v_items, v_bytes, v_cap,
						CASE WHEN NOT s ? 'relational' AND v_cap IS NOT NULL THEN CASE WHEN p ->> 'kind' = 'read' THEN 'RCU' ELSE 'WCU' END END,
						(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(v_times) t)::numeric(12, 3),
						v_parts, v_icap, NULL, NULL);
				EXCEPTION WHEN OTHERS THEN
					-- the call failed (an error from hroe, a malformed
					-- template, a query error): recorded, the run goes on
					GET STACKED DIAGNOSTICS v_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT, v_detail = PG_EXCEPTION_DETAIL;
					INSERT INTO pg_temp.hroe_design_out (pattern_no, pattern, kind, case_no, case_label, model_no, model, call, request, error_class, error)
					VALUES (p_no, p ->> 'name', p ->> 'kind', c.n, c.label, s_no, s ->> 'name',
							COALESCE(v_reqs::text, v_sql, '') || format(' -- $1 = %L', c.args), v_request,
							v_state, v_message || COALESCE(' (' || NULLIF(v_detail, '') || ')', ''));
					RAISE WARNING 'hroe.design_run: pattern % % [%] on % failed: % %', p_no, p ->> 'name', c.label, s ->> 'name', v_state, v_message;
				END;
			END LOOP;
		END LOOP;
		DROP TABLE pg_temp.hroe_design_cases;
		RAISE NOTICE 'hroe.design_run: pattern % % done', p_no, p ->> 'name';
	END LOOP;
	RETURN QUERY
	SELECT o.pattern_no, o.pattern, o.kind, o.case_label, o.model, o.call,
		   NOT EXISTS (SELECT FROM pg_temp.hroe_design_out o2
					   WHERE o2.pattern_no = o.pattern_no AND o2.case_no = o.case_no AND o2.error_class IS NOT NULL)
		   AND (SELECT count(DISTINCT o2.fingerprint) FROM pg_temp.hroe_design_out o2
				WHERE o2.pattern_no = o.pattern_no AND o2.case_no = o.case_no) = 1,
		   o.fingerprint, o.result_rows, o.plan_shape, o.seq_scans, o.index_scans, o.joins, o.sorts,
		   o.shared_hit, o.shared_read, o.request, o.requests, o.items, o.item_bytes, o.capacity,
		   o.capacity_unit, o.median_ms, o.partitions, o.index_capacity, o.error_class, o.error
	FROM pg_temp.hroe_design_out o
	ORDER BY o.pattern_no, o.case_no, o.model_no;
END
$$;
COMMENT ON FUNCTION hroe.design_run(jsonb, integer, boolean, text[]) IS
'runs every access pattern of a design (or those named or numbered in p_patterns) on the relational side, on the DynamoDB side and on each of its variants'' DynamoDB sides (the variant''s pattern of the same name), after loading the design and its variants (hroe.design_load) unless p_load is false, for each parameter set its parameters_sql draws: rows of hroe.compare''s shape (so hroe.compare_report_lines reads them) plus partitions touched, the index part of a write''s WCU, and error_class and error: per side the answer''s fingerprint and whether every side agrees (hroe.design_answer), plan shape, shared buffers, the DynamoDB requests, items and bytes read, RCU (as the responses report them, or by the capacity_sql rule of hroe.compare) or WCU with the index writes (hroe.compare_write_capacity), and the median execution time of p_runs runs; writes run in rolled-back subtransactions and are checked by reads after the write; a call that fails (or a parameters_sql that fails: case "(parameters_sql)") is a row with its SQLSTATE and message, not identical, also as a WARNING, and the run goes on';
