
--
-- The grid view (src/ops/grid.sql): a table's item collections, or a secondary
-- index's view of them, drawn as the single-table design guides draw them:
-- partition key, sort key, then each item's attributes, an item collection
-- per group, each entity type in its own colour.  The items are read with
-- hroe.query_page (Query on the table or the index), so projections, sparse
-- indexes and privileges are the operations'.
--

-- HTML text escaping (&, <, >, ", ').
CREATE FUNCTION hroe.html_escape(p_text text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT replace(replace(replace(replace(replace(p_text, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$$;
COMMENT ON FUNCTION hroe.html_escape(text) IS
'internal: the text with &, <, >, " and '' escaped for HTML text and attribute values';

-- An attribute value as the grid shows it: S and N bare, BOOL and NULL as
-- true/false/null, B as base64, sets, lists and maps as their type and
-- DynamoDB JSON.  SQL without SET, not STRICT, immutable throughout,
-- every operator and type qualified: inlined into hroe.grid's statement (a
-- call per attribute cost more than the rest of the work).
CREATE FUNCTION hroe.grid_value(p_value jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_value OPERATOR(pg_catalog.?) 'S' THEN p_value OPERATOR(pg_catalog.->>) 'S'
			WHEN p_value OPERATOR(pg_catalog.?) 'N' THEN p_value OPERATOR(pg_catalog.->>) 'N'
			WHEN p_value OPERATOR(pg_catalog.?) 'B' THEN p_value OPERATOR(pg_catalog.->>) 'B'
			WHEN p_value OPERATOR(pg_catalog.?) 'BOOL' THEN p_value OPERATOR(pg_catalog.->>) 'BOOL'
			WHEN p_value OPERATOR(pg_catalog.?) 'NULL' THEN 'null'
			WHEN p_value OPERATOR(pg_catalog.?) 'L' THEN 'L ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'L')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'M' THEN 'M ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'M')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'SS' THEN 'SS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'SS')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'NS' THEN 'NS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'NS')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'BS' THEN 'BS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'BS')::pg_catalog.text END
$$;
COMMENT ON FUNCTION hroe.grid_value(jsonb) IS
'internal: a DynamoDB JSON attribute value as hroe.grid shows it: S, N and B (base64) bare, BOOL true/false, NULL null, L, M and the sets as their type and JSON';

-- A condition on a key column in the type's order (hroe.key's operators for
-- S keys), for hroe.grid's walk from collection to collection.
CREATE FUNCTION hroe.grid_key_compare(p_column name, p_type text, p_operator text, p_value text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE p_type WHEN 'S' THEN format('%I OPERATOR(hroe.%s) %L::hroe.key', p_column, p_operator, p_value)
				   WHEN 'N' THEN format('%I OPERATOR(pg_catalog.%s) %L::numeric', p_column, p_operator, p_value)
				   ELSE format('%I OPERATOR(pg_catalog.%s) %L::bytea', p_column, p_operator, p_value) END
WHERE p_operator IN ('=', '>', '>=')
$$;
COMMENT ON FUNCTION hroe.grid_key_compare(name, text, text, text) IS
'internal: the SQL condition "column operator value" on a key column of type S (hroe.key), N (numeric) or B (bytea), operator =, > or >=, for hroe.grid';

CREATE FUNCTION hroe.grid(p_table_name text, p_index_name text DEFAULT NULL, p_key_prefix text DEFAULT NULL,
						  p_max_items integer DEFAULT 50, p_format text DEFAULT 'text')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_pk_attrs text[];
	v_pk_cols name[];
	v_pk_types text[];
	v_sk_attrs text[];
	v_sk_cols name[];
	v_key_attrs text[];
	v_all_cols name[];
	v_notnull text;
	v_order text;
	v_prefix_cond text := 'true';
	v_after text := 'true';
	v_first hroe.item;
	v_prev text[];
	v_kce text;
	v_names jsonb;
	v_values jsonb;
	v_page hroe.page;
	v_item hroe.item;
	v_coll integer := 0;
	v_n integer := 0;
	v_more boolean := false;
	v_types text[];
	v_items hroe.item[] := '{}';
	v_colls integer[] := '{}';
	v_rows jsonb[];
	v_sizes integer[] := '{}';
	v_head text[];
	v_w integer[];
	k integer;
BEGIN
	IF p_table_name IS NULL THEN
		RAISE EXCEPTION 'table name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF p_max_items IS NULL OR p_max_items < 1 OR p_max_items > 10000 THEN
		RAISE EXCEPTION 'p_max_items must be between 1 and 10000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_format IS NULL OR p_format NOT IN ('text', 'html') THEN
		RAISE EXCEPTION 'p_format must be text or html' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the DynamoDB table name, or the PostgreSQL table (schema-qualified)
	SELECT * INTO t FROM hroe.tables h WHERE h.table_name = p_table_name;
	IF NOT FOUND THEN
		SELECT * INTO t FROM hroe.tables h WHERE h.relid = to_regclass(p_table_name);
	END IF;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no hroe table named %', p_table_name USING ERRCODE = 'undefined_table';
	END IF;
	v_key_attrs := ARRAY[t.partition_key] || CASE WHEN t.sort_key IS NOT NULL THEN ARRAY[t.sort_key] ELSE '{}' END;
	v_all_cols := CASE WHEN t.sort_key IS NOT NULL THEN '{pk,sk}' ELSE '{pk}' END::name[];
	IF p_index_name IS NULL THEN
		v_pk_attrs := ARRAY[t.partition_key];
		v_pk_cols := '{pk}';
		v_pk_types := ARRAY[t.partition_key_type];
		v_sk_attrs := CASE WHEN t.sort_key IS NOT NULL THEN ARRAY[t.sort_key] ELSE '{}' END;
		v_sk_cols := CASE WHEN t.sort_key IS NOT NULL THEN '{sk}' ELSE '{}' END::name[];
	ELSE
		SELECT * INTO x FROM hroe.indexes i WHERE i.table_name = t.table_name AND i.index_name = p_index_name;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'table % has no index %', t.table_name, p_index_name USING ERRCODE = 'undefined_object';
		END IF;
		v_pk_attrs := x.partition_key;
		v_pk_cols := x.partition_key_columns;
		v_pk_types := x.partition_key_types;
		v_sk_attrs := x.sort_key;
		v_sk_cols := x.sort_key_columns;
		v_key_attrs := v_pk_attrs || v_sk_attrs || v_key_attrs;
		v_all_cols := v_pk_cols || v_sk_cols || v_all_cols;
	END IF;
	-- each key attribute once (an index key may be a table key too)
	v_key_attrs := ARRAY(SELECT a FROM unnest(v_key_attrs) WITH ORDINALITY u (a, o) GROUP BY a ORDER BY min(o));
	-- an item is in the index when it has every key attribute (sparse)
	SELECT string_agg(format('%I IS NOT NULL', c), ' AND ') INTO v_notnull FROM unnest(v_pk_cols || v_sk_cols) c;
	SELECT string_agg(format('%I', c), ', ' ORDER BY o) INTO v_order FROM unnest(v_all_cols) WITH ORDINALITY u (c, o);
	IF p_key_prefix IS NOT NULL THEN
		-- S: begins_with on the (first) partition key; N: that number
		IF v_pk_types[1] = 'S' THEN
			v_prefix_cond := format('%I OPERATOR(hroe.^@) %L::hroe.key', v_pk_cols[1], p_key_prefix);
		ELSIF v_pk_types[1] = 'N' THEN
			IF p_key_prefix !~ '^\s*[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?\s*$' THEN
				RAISE EXCEPTION 'the key prefix of a number partition key must be a number, not "%"', p_key_prefix
					USING ERRCODE = 'invalid_parameter_value';
			END IF;
			v_prefix_cond := format('%I = %L::numeric', v_pk_cols[1], p_key_prefix);
		ELSE
			RAISE EXCEPTION 'a key prefix applies to string and number partition keys, not to binary ones'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;

	-- item collection after item collection: the next partition key in key
	-- order (one index probe), then a Query of its items
	LOOP
		EXIT WHEN v_n > p_max_items;
		EXECUTE format('SELECT x.item, ARRAY[%s] FROM %s x WHERE %s AND %s AND %s ORDER BY %s LIMIT 1',
					   (SELECT string_agg(format('%I::text', c), ', ' ORDER BY o) FROM unnest(v_pk_cols) WITH ORDINALITY u (c, o)),
					   t.relid, v_notnull, v_prefix_cond, v_after, v_order)
			INTO v_first, v_prev;
		EXIT WHEN v_first IS NULL;
		IF v_n = p_max_items THEN
			v_more := true;
			EXIT;
		END IF;
		-- the Query's key values come from the item (the key columns of
		-- long partition keys hold their index form)
		SELECT string_agg(format('#p%s = :p%s', o, o), ' AND ' ORDER BY o),
			   jsonb_object_agg(format('#p%s', o), a),
			   jsonb_object_agg(format(':p%s', o), hroe.item_get_attribute(v_first, a))
		INTO v_kce, v_names, v_values
		FROM unnest(v_pk_attrs) WITH ORDINALITY u (a, o);
		v_page := hroe.query_page(t.table_name, v_kce, v_values, v_names, p_index_name,
								  p_limit => p_max_items - v_n + 1);
		v_coll := v_coll + 1;
		k := 0;
		FOREACH v_item IN ARRAY COALESCE(v_page.items, '{}') LOOP
			IF v_n = p_max_items THEN
				v_more := true;
				EXIT;
			END IF;
			v_n := v_n + 1;
			k := k + 1;
			-- appended in place (simple expressions on expanded arrays)
			v_items := v_items || v_item;
			v_colls := v_colls || v_coll;
		END LOOP;
		v_sizes := v_sizes || k;
		EXIT WHEN v_more;
		IF v_page.last_evaluated_key IS NOT NULL THEN
			v_more := true;
			EXIT;
		END IF;
		-- the next partition key: after this one in key order, the tuple
		-- (c1, c2...) compared column by column: (c1 > a1) OR (c1 = a1 AND
		-- c2 > a2)..., with c1 >= a1 for the index
		SELECT format('%s AND (%s)', hroe.grid_key_compare(v_pk_cols[1], v_pk_types[1], '>=', v_prev[1]),
					  string_agg((SELECT string_agg(hroe.grid_key_compare(v_pk_cols[j], v_pk_types[j], CASE WHEN j = i THEN '>' ELSE '=' END, v_prev[j]), ' AND ' ORDER BY j)
								  FROM generate_series(1, i) j), ' OR ' ORDER BY i))
		INTO v_after
		FROM generate_series(1, cardinality(v_pk_cols)) i;
	END LOOP;

	-- the rows, in one statement: each item's entity type (the attribute
	-- type or entity_type, else the table's sort key, or partition key, up
	-- to its first # or digit: EMPLOYEE#0101 is EMPLOYEE, project-35e9
	-- project), its keys and its other attributes
	SELECT COALESCE(array_agg(jsonb_build_object('c', z.c, 'first', z.first, 'attrs', z.attrs, 'keys', z.keys, 'values', z.vals,
												 'type', COALESCE(NULLIF(rtrim(substring(z.t FROM '^[^#0-9]*'), '-_'), ''), z.t, ''))
							  ORDER BY z.n), '{}')
	INTO v_rows
	FROM (SELECT u.n, u.c, row_number() OVER (PARTITION BY u.c ORDER BY u.n) = 1 AS first,
				 COALESCE(hroe.grid_value(u.d -> 'type'), hroe.grid_value(u.d -> 'entity_type'),
						  hroe.grid_value(u.d -> COALESCE(t.sort_key, t.partition_key))) AS t,
				 (SELECT COALESCE(string_agg(format('%s: %s', a, hroe.grid_value(u.d -> a)), '  ' ORDER BY o), '')
				  FROM unnest(hroe.item_attributes(u.item)) WITH ORDINALITY w (a, o) WHERE a <> ALL (v_key_attrs)) AS attrs,
				 (SELECT jsonb_agg(COALESCE(hroe.grid_value(u.d -> a), '') ORDER BY o)
				  FROM unnest(v_key_attrs) WITH ORDINALITY w (a, o)) AS keys,
				 (SELECT COALESCE(jsonb_agg(jsonb_build_array(a, hroe.grid_value(u.d -> a)) ORDER BY o), '[]')
				  FROM unnest(hroe.item_attributes(u.item)) WITH ORDINALITY w (a, o) WHERE a <> ALL (v_key_attrs)) AS vals
		  FROM (SELECT i.item, i.c, i.n, hroe.item_to_jsonb(i.item) AS d
				FROM unnest(v_items, v_colls) WITH ORDINALITY i (item, c, n)
				OFFSET 0) u) z;  -- OFFSET 0: d computed once per item, not per use
	v_types := ARRAY(SELECT r ->> 'type' FROM unnest(v_rows) WITH ORDINALITY x (r, n) GROUP BY 1 ORDER BY min(n));

	v_head := ARRAY(SELECT a || CASE WHEN o <= cardinality(v_pk_attrs) THEN ' (PK)'
									 WHEN o <= cardinality(v_pk_attrs) + cardinality(v_sk_attrs) THEN ' (SK)' ELSE '' END
					FROM unnest(v_key_attrs) WITH ORDINALITY u (a, o)) || 'attributes'::text;
	-- the rows rendered in one aggregate (not a string grown row by row)
	IF p_format = 'text' THEN
		v_w := ARRAY(SELECT GREATEST(length(v_head[o]), COALESCE((SELECT max(length(CASE WHEN o = cardinality(v_head) THEN e ->> 'attrs' ELSE e -> 'keys' ->> (o - 1) END))
									   FROM unnest(v_rows) e), 0))
					 FROM generate_subscripts(v_head, 1) o);
		RETURN format('%s%s: %s item(s) in %s item collection(s)%s', t.table_name,
					  CASE WHEN p_index_name IS NOT NULL THEN ' index ' || p_index_name ELSE '' END, v_n, v_coll,
					  CASE WHEN v_more THEN format(', more follow (p_max_items %s)', p_max_items) ELSE '' END) || E'\n'
			|| (SELECT string_agg(rpad(v_head[o], v_w[o]), ' | ' ORDER BY o) FROM generate_subscripts(v_head, 1) o) || E'\n'
			|| (SELECT string_agg(repeat('-', v_w[o]), '-+-' ORDER BY o) FROM generate_subscripts(v_head, 1) o)
			|| COALESCE((SELECT string_agg(E'\n' || rtrim((SELECT string_agg(rpad(CASE WHEN o = cardinality(v_head) THEN r ->> 'attrs'
																			WHEN o <= cardinality(v_pk_attrs) AND NOT (r ->> 'first')::boolean THEN ''
																			ELSE r -> 'keys' ->> (o - 1) END, v_w[o]), ' | ' ORDER BY o)
														  FROM generate_subscripts(v_head, 1) o)), '' ORDER BY n)
						 FROM unnest(v_rows) WITH ORDINALITY x (r, n)), '');
	END IF;
	-- HTML: a table, the partition key spanning its collection's rows, each
	-- entity type in a colour (in order of appearance)
	RETURN format('<table class="hroe-grid" data-table="%s"%s style="border-collapse:collapse;font:13px/1.35 system-ui,sans-serif">',
				  hroe.html_escape(t.table_name),
				  CASE WHEN p_index_name IS NOT NULL THEN format(' data-index="%s"', hroe.html_escape(p_index_name)) ELSE '' END)
		|| format('<caption style="text-align:left;font-weight:600;padding:4px 0">%s%s: %s item(s) in %s item collection(s)%s</caption>',
				  hroe.html_escape(t.table_name), CASE WHEN p_index_name IS NOT NULL THEN ' &middot; index ' || hroe.html_escape(p_index_name) ELSE '' END,
				  v_n, v_coll, CASE WHEN v_more THEN format(', more follow (p_max_items %s)', p_max_items) ELSE '' END)
		|| '<thead><tr>' || (SELECT string_agg(format('<th style="text-align:left;border-bottom:2px solid #555;padding:3px 8px">%s</th>', hroe.html_escape(h)), '' ORDER BY o)
							 FROM unnest(v_head) WITH ORDINALITY u (h, o)) || '</tr></thead><tbody>'
		|| COALESCE((SELECT string_agg(
			format('<tr data-type="%s" style="background:%s">', hroe.html_escape(r ->> 'type'),
				   (ARRAY['#dbeafe', '#dcfce7', '#fef3c7', '#fce7f3', '#ede9fe', '#ccfbf1', '#fee2e2', '#e0e7ff', '#f3e8ff', '#ecfccb'])
					   [(array_position(v_types, r ->> 'type') - 1) % 10 + 1])
			|| (SELECT string_agg(CASE WHEN o <= cardinality(v_pk_attrs) AND NOT (r ->> 'first')::boolean THEN ''
									   WHEN o <= cardinality(v_pk_attrs)
									   THEN format('<th class="pk" rowspan="%s" style="text-align:left;vertical-align:top;background:#f8fafc;border-top:2px solid #94a3b8;padding:3px 8px;font-family:monospace;white-space:nowrap">%s</th>',
												   v_sizes[(r ->> 'c')::integer], hroe.html_escape(r -> 'keys' ->> (o - 1)))
									   ELSE format('<td class="%s" style="border-top:1px solid #cbd5e1;%spadding:3px 8px;font-family:monospace;white-space:nowrap">%s</td>',
												   CASE WHEN o <= cardinality(v_pk_attrs) + cardinality(v_sk_attrs) THEN 'sk' ELSE 'key' END,
												   CASE WHEN (r ->> 'first')::boolean THEN 'border-top:2px solid #94a3b8;' ELSE '' END,
												   hroe.html_escape(r -> 'keys' ->> (o - 1))) END, '' ORDER BY o)
				FROM generate_series(1, cardinality(v_key_attrs)) o)
			|| format('<td style="border-top:%s;padding:3px 8px">%s</td></tr>',
					  CASE WHEN (r ->> 'first')::boolean THEN '2px solid #94a3b8' ELSE '1px solid #cbd5e1' END,
					  COALESCE((SELECT string_agg(format('<span style="display:inline-block;margin:0 10px 0 0"><span style="color:#475569;font-size:11px">%s</span> %s</span>',
														 hroe.html_escape(v ->> 0), hroe.html_escape(v ->> 1)), '' ORDER BY o)
								FROM jsonb_array_elements(r -> 'values') WITH ORDINALITY u (v, o)), '')),
			'' ORDER BY n) FROM unnest(v_rows) WITH ORDINALITY x (r, n)), '')
		|| '</tbody></table>';
END
$$;
COMMENT ON FUNCTION hroe.grid(text, text, text, integer, text) IS
'the grid view of a hroe table (by DynamoDB name or PostgreSQL name) or of one of its indexes (p_index_name): its item collections in key order, each item''s partition key (once per collection), sort key, then its attributes (those the index projects), at most p_max_items items, starting with the partition keys that begin with p_key_prefix (a string key; for a number key, the key equal to it); p_format text (aligned, for psql) or html (a table, each entity type, the attribute type or entity_type or else the table''s sort key up to its first # or digit, in its own colour); items read by Query (hroe.query_page), one collection after another';
