--
-- Vector indexes (DynamoDB's VectorIndexes, doc/vectors.md), built like the
-- GSIs: each is a generated column of the table holding the item's vector as
-- real[] (f32, NULL when the item has no vector), generated key columns for
-- its SearchSchema elements, a NOT VALID CHECK constraint that rejects the
-- writes DynamoDB rejects, and a btree index on the HASH element.  Every
-- write path (the executor's and the direct writes) keeps them exact, in the
-- write's own transaction, WAL-logged like the table.
--

CREATE TABLE hroe.vector_indexes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	index_name			text NOT NULL
		CHECK (index_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	vector_attribute	text NOT NULL,
	dimensions			integer NOT NULL CHECK (dimensions BETWEEN 1 AND 4096),
	distance_function	text NOT NULL CHECK (distance_function IN ('COSINE', 'EUCLIDEAN', 'DOT_PRODUCT')),
	projection			text NOT NULL CHECK (projection IN ('ALL', 'KEYS_ONLY', 'INCLUDE')),
	non_key_attributes	text[] NOT NULL DEFAULT '{}',
	-- the SearchSchema: attribute names, element types (HASH, INLINE_FILTER),
	-- their AttributeDefinitions types (S, N, B), their generated columns
	search_attributes	text[] NOT NULL DEFAULT '{}',
	search_element_types text[] NOT NULL DEFAULT '{}',
	search_attribute_types text[] NOT NULL DEFAULT '{}',
	search_columns		name[] NOT NULL DEFAULT '{}',
	vector_column		name NOT NULL,
	key_check			name NOT NULL,
	-- the btree index on the HASH element's column (NULL without one), by name
	index_relname		name,
	-- created by UpdateTable (DescribeTable then reports Backfilling)
	online				boolean NOT NULL DEFAULT false,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	-- the IVF lists (hroe.vector_index_build; all NULL while the search is
	-- exact): the centroid set in hroe.vector_centroids, the generated
	-- integer column holding each item's list, the btree on (HASH column,)
	-- list INCLUDE (vector), the vectors the set was trained on
	centroid_set		bigint,
	list_column			name,
	ivf_relname			name,
	trained_items		bigint,
	-- CREATING: recorded by UpdateTable, its build not started; BACKFILLING:
	-- its worker building it (hroe.build_vector_index); ACTIVE: searchable
	status				text NOT NULL DEFAULT 'ACTIVE'
		CHECK (status IN ('CREATING', 'BACKFILLING', 'ACTIVE')),
	PRIMARY KEY (table_name, index_name)
);
COMMENT ON TABLE hroe.vector_indexes IS 'Vector indexes created by hroe.create_vector_index: the vector attribute, its dimensions and distance function, the projection, the SearchSchema (HASH and INLINE_FILTER elements) with their generated key columns, the generated real[] column holding each item''s vector as f32, the NOT VALID CHECK constraint rejecting invalid vectors, the btree index on the HASH element';

GRANT SELECT ON hroe.vector_indexes TO PUBLIC;
ALTER TABLE hroe.vector_indexes ENABLE ROW LEVEL SECURITY;
CREATE POLICY vector_indexes_read ON hroe.vector_indexes FOR SELECT USING (true);
COMMENT ON POLICY vector_indexes_read ON hroe.vector_indexes IS 'The metadata is readable by every role';
CREATE POLICY vector_indexes_owner ON hroe.vector_indexes FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY vector_indexes_owner ON hroe.vector_indexes IS 'A role adds and deletes only the vector indexes of a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.vector_indexes',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = vector_indexes.table_name)');

CREATE TABLE hroe.vector_centroids (
	set_id				bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	table_name			text NOT NULL,
	index_name			text NOT NULL,
	dimensions			integer NOT NULL CHECK (dimensions BETWEEN 1 AND 4096),
	distance_function	text NOT NULL CHECK (distance_function IN ('COSINE', 'EUCLIDEAN', 'DOT_PRODUCT')),
	-- lists x dimensions floats, list by list
	centroids			real[] NOT NULL CHECK (cardinality(centroids) OPERATOR(pg_catalog.%) dimensions = 0),
	trained_items		bigint NOT NULL,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	FOREIGN KEY (table_name, index_name) REFERENCES hroe.vector_indexes ON DELETE CASCADE
);
COMMENT ON TABLE hroe.vector_centroids IS 'The k-means centroids of the vector indexes'' IVF lists, written by hroe.vector_index_build: one row per training, never changed (a new training writes a new set), named by the generated list column of the table (hroe.vector_list)';
COMMENT ON SEQUENCE hroe.vector_centroids_set_id_seq IS 'internal: Identifiers of hroe.vector_centroids'' centroid sets (hroe.vector_centroids.set_id)';
GRANT SELECT ON hroe.vector_centroids TO PUBLIC;
ALTER TABLE hroe.vector_centroids ENABLE ROW LEVEL SECURITY;
CREATE POLICY vector_centroids_read ON hroe.vector_centroids FOR SELECT
	USING (EXISTS (SELECT FROM hroe.tables t
				   WHERE t.table_name OPERATOR(pg_catalog.=) vector_centroids.table_name
					 AND pg_catalog.has_table_privilege(t.relid, 'SELECT, INSERT, UPDATE')));
COMMENT ON POLICY vector_centroids_read ON hroe.vector_centroids IS 'A role that may read or write a table''s items reads its centroids (a writer computes an item''s list from them, a search ranks them); centroids are means of the items'' vectors, so no other role sees them';
CREATE POLICY vector_centroids_owner ON hroe.vector_centroids FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY vector_centroids_owner ON hroe.vector_centroids IS 'A role trains only the vector indexes of a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.vector_centroids',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = vector_centroids.table_name)');
SELECT pg_catalog.pg_extension_config_dump('hroe.vector_centroids_set_id_seq', '');

CREATE FUNCTION hroe.item_vector(p_item hroe.item, p_attribute text, p_dimensions integer)
RETURNS real[]
AS 'MODULE_PATHNAME', 'hroe_item_vector'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_vector(hroe.item, text, integer) IS
'internal: The vector attribute p_attribute of an item as real[] (each number rounded to the nearest 32-bit float), NULL if the item has no such attribute or it is not a list of p_dimensions finite 32-bit numbers: a vector index''s generated column';

CREATE FUNCTION hroe.check_vector(p_item hroe.item, p_attribute text, p_dimensions integer, p_index_name text)
RETURNS boolean
AS 'MODULE_PATHNAME', 'hroe_check_vector'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_vector(hroe.item, text, integer, text) IS
'internal: true if the item has no attribute p_attribute or it is a list of p_dimensions 32-bit numbers, else DynamoDB''s ValidationException naming vector index p_index_name: part of a vector index''s CHECK constraint';

CREATE FUNCTION hroe.create_vector_index(
	p_table_name text,
	p_index_name text,
	p_vector_attribute text,
	p_dimensions integer,
	p_distance_function text DEFAULT 'COSINE',
	p_projection text DEFAULT 'ALL',
	p_non_key_attributes text[] DEFAULT NULL,
	p_search_schema jsonb DEFAULT '[]',
	p_attribute_definitions jsonb DEFAULT '{}',
	p_online boolean DEFAULT false)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_prefix text;
	v_attrs text[] := '{}';
	v_elems text[] := '{}';
	v_types text[] := '{}';
	v_cols name[] := '{}';
	v_col name;
	v_vcol name;
	v_check_name name;
	v_index_rel name;
	v_hash_col name;
	v_elem jsonb;
	v_attr text;
	v_kind text;
	v_type text;
	v_items boolean := false;
	i integer := 0;
BEGIN
	PERFORM hroe.check_name(p_table_name, 'tableName');
	PERFORM hroe.check_name(p_index_name, 'vectorIndexes.1.member.indexName');
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: hroe does not support vector indexes on distributed tables');
	END IF;
	IF t.billing_mode <> 'PAY_PER_REQUEST' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables');
	END IF;
	-- one online index action at a time: none while an index is built
	IF EXISTS (SELECT 1 FROM hroe.vector_indexes WHERE table_name = p_table_name AND status <> 'ACTIVE') THEN
		PERFORM hroe.dynamodb_error('LimitExceededException',
			'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name)
	   OR EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'Attempting to create an index which already exists');
	END IF;
	IF (SELECT count(*) FROM hroe.vector_indexes WHERE table_name = p_table_name) >= 5 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of 5');
	END IF;
	PERFORM hroe.check_attribute_name(p_vector_attribute, 'vectorIndexes.1.member.vectorAttribute.attributeName');
	IF p_dimensions IS NULL OR p_dimensions NOT BETWEEN 1 AND 4096 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Number of dimensions must be between 1 and 4096 inclusive.');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.vector_indexes WHERE table_name = p_table_name
			   AND vector_attribute = p_vector_attribute AND dimensions <> p_dimensions) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Conflicting attribute definition for ''%s''. All VectorIndexes on the same vector attribute must use the same dimensions.',
				   p_vector_attribute));
	END IF;
	IF p_distance_function IS NULL OR p_distance_function NOT IN ('COSINE', 'EUCLIDEAN', 'DOT_PRODUCT') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Unknown DistanceFunction: %s', coalesce(p_distance_function, 'null')));
	END IF;
	IF p_projection IS NULL OR p_projection NOT IN ('ALL', 'KEYS_ONLY', 'INCLUDE') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Unknown ProjectionType: %s', coalesce(p_projection, 'null')));
	END IF;
	IF p_projection <> 'INCLUDE' AND p_non_key_attributes IS NOT NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified', p_projection));
	END IF;
	IF p_projection = 'INCLUDE' AND coalesce(cardinality(p_non_key_attributes), 0) = 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified');
	END IF;

	-- the SearchSchema: at most one HASH element, first; INLINE_FILTER ones
	IF jsonb_typeof(coalesce(p_search_schema, '[]')) <> 'array' THEN
		RAISE EXCEPTION 'p_search_schema must be a JSON array of {"AttributeName": ..., "SearchSchemaElementType": ...}'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR v_elem IN SELECT e FROM jsonb_array_elements(coalesce(p_search_schema, '[]')) e LOOP
		i := i + 1;
		v_attr := v_elem ->> 'AttributeName';
		v_kind := v_elem ->> 'SearchSchemaElementType';
		PERFORM hroe.check_attribute_name(v_attr, format('vectorIndexes.1.member.searchSchema.%s.member.attributeName', i));
		IF v_kind IS NULL OR v_kind NOT IN ('HASH', 'INLINE_FILTER') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Unknown SearchSchemaElementType: %s', coalesce(v_kind, 'null')));
		END IF;
		IF v_kind = 'HASH' AND 'HASH' = ANY (v_elems) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: SearchSchema can have at most one HASH element');
		END IF;
		IF v_attr = ANY (v_attrs) OR v_attr = p_vector_attribute THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Duplicate attribute in SearchSchema: %s', v_attr));
		END IF;
		v_type := p_attribute_definitions ->> v_attr;
		IF v_type IS NULL AND v_attr = t.partition_key THEN
			v_type := t.partition_key_type;
		ELSIF v_type IS NULL AND v_attr = t.sort_key THEN
			v_type := t.sort_key_type;
		END IF;
		IF v_type IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: One element in SearchSchema is not defined in attribute definitions');
		END IF;
		PERFORM hroe.check_key_type(v_type, format('attributeDefinitions.%s.member.attributeType', i));
		v_attrs := v_attrs || v_attr;
		v_elems := v_elems || v_kind;
		v_types := v_types || v_type;
	END LOOP;
	IF 'HASH' = ANY (v_elems) AND v_elems[1] <> 'HASH' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: The HASH element must be the first element of SearchSchema');
	END IF;

	-- the columns: named after the index while that is a plain identifier
	v_prefix := lower(p_index_name);
	IF v_prefix !~ '^[a-z_][a-z0-9_]*$' OR octet_length(v_prefix) > 40 OR EXISTS (
		SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname LIKE v_prefix || '\_%') THEN
		v_prefix := 'vix' || (SELECT count(*) + 1 FROM pg_attribute WHERE attrelid = t.relid AND attnum > 0);
	END IF;
	v_vcol := (v_prefix || '_vector')::name;
	FOR i IN 1 .. coalesce(cardinality(v_attrs), 0) LOOP
		v_col := (v_prefix || '_s' || i)::name;
		v_cols := v_cols || v_col;
		IF v_elems[i] = 'HASH' THEN
			v_hash_col := v_col;
		END IF;
	END LOOP;
	v_check_name := (v_prefix || '_vector_check')::name;
	IF v_hash_col IS NOT NULL THEN
		v_index_rel := hroe.relation_name(format('%s.%s', p_table_name, p_index_name));
		IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_index_rel
				   AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
			v_index_rel := hroe.relation_name(format('%s.%s.%s', p_table_name, p_index_name, v_prefix));
		END IF;
	END IF;
	-- UpdateTable on a table holding items: built in the background, as
	-- DynamoDB backfills a new index (CREATING, then BACKFILLING, ACTIVE)
	IF p_online THEN
		EXECUTE format('SELECT EXISTS (SELECT FROM %s)', t.relid) INTO v_items;
	END IF;
	-- rows up to a page stay uncompressed and inline: an item's numbers and
	-- their f32 copy cross the default 2 KB threshold, where every write
	-- would compress them (pglz on floats, for little) and reads decompress
	EXECUTE format('ALTER TABLE %s SET (toast_tuple_target = 8160)', t.relid);
	INSERT INTO hroe.vector_indexes (table_name, index_name, vector_attribute, dimensions, distance_function,
									 projection, non_key_attributes, search_attributes, search_element_types,
									 search_attribute_types, search_columns, vector_column, key_check,
									 index_relname, online, status)
	VALUES (p_table_name, p_index_name, p_vector_attribute, p_dimensions, p_distance_function,
			p_projection, coalesce(p_non_key_attributes, '{}'), v_attrs, v_elems, v_types, v_cols, v_vcol,
			v_check_name, v_index_rel, p_online, CASE WHEN v_items THEN 'CREATING' ELSE 'ACTIVE' END);
	IF v_items THEN
		PERFORM hroe.start_vector_index_build(p_table_name, p_index_name);
	ELSE
		PERFORM hroe.build_vector_index(p_table_name, p_index_name);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.create_vector_index(text, text, text, integer, text, text, text[], jsonb, jsonb, boolean) IS
'CreateTable VectorIndexes and UpdateTable VectorIndexUpdates Create: a vector index on attribute p_vector_attribute (a list of p_dimensions numbers, 1-4096) searched under COSINE, EUCLIDEAN or DOT_PRODUCT distance, projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes, SearchSchema p_search_schema ([{"AttributeName": ..., "SearchSchemaElementType": "HASH" | "INLINE_FILTER"}], types from p_attribute_definitions or the table''s key schema); PAY_PER_REQUEST tables only, at most 5 per table, none while another is being built; items already stored are indexed (those with invalid vectors left out), at once, or, p_online (UpdateTable) on a table holding items, by a background worker (hroe.build_vector_index), the index CREATING until then; every later write storing an invalid vector is rejected; sets the table''s toast_tuple_target to 8160 (rows up to a page stay uncompressed)';

CREATE FUNCTION hroe.build_vector_index(p_table_name text, p_index_name text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.vector_indexes;
	v_check text;
	v_schema name;
	v_hash_col name;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	SELECT * INTO x FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	-- built already
	IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname = x.vector_column AND NOT attisdropped) THEN
		UPDATE hroe.vector_indexes SET status = 'ACTIVE'
		WHERE table_name = p_table_name AND index_name = p_index_name AND status <> 'ACTIVE';
		RETURN false;
	END IF;
	-- the table rewritten once per column, under its ACCESS EXCLUSIVE lock:
	-- every item committed before is indexed, every later write waits
	EXECUTE format('ALTER TABLE %s ADD COLUMN %I real[] GENERATED ALWAYS AS (hroe.item_vector(item, %L, %s)) STORED',
				   t.relid, x.vector_column, x.vector_attribute, x.dimensions);
	v_check := format('hroe.check_vector(item, %L, %s, %L)', x.vector_attribute, x.dimensions, p_index_name);
	FOR i IN 1 .. coalesce(cardinality(x.search_attributes), 0) LOOP
		EXECUTE format('ALTER TABLE %s ADD COLUMN %I %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, true, %L)) STORED',
					   t.relid, x.search_columns[i], hroe.key_column_type(x.search_attribute_types[i]),
					   lower(x.search_attribute_types[i]), x.search_attributes[i], p_index_name);
		v_check := v_check || format(' AND hroe.check_index_key(item, %L, %L, true, %L)',
									 x.search_attributes[i], x.search_attribute_types[i], p_index_name);
		IF x.search_element_types[i] = 'HASH' THEN
			v_hash_col := x.search_columns[i];
		END IF;
	END LOOP;
	-- items already stored with an invalid vector stay out of the index (as
	-- a backfill skips them); every later write storing one is rejected
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%s) NOT VALID', t.relid, x.key_check, v_check);
	IF v_hash_col IS NOT NULL THEN
		SELECT n.nspname INTO v_schema
		FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid WHERE c.oid = t.relid;
		EXECUTE format('CREATE INDEX %I ON %s (%I) WHERE %I IS NOT NULL', x.index_relname, t.relid, v_hash_col, x.vector_column);
		EXECUTE format('COMMENT ON INDEX %I.%I IS %L', v_schema, x.index_relname,
					   format('DynamoDB vector index %s of %s: its HASH element (hroe)', p_index_name, p_table_name));
	END IF;
	UPDATE hroe.vector_indexes SET status = 'ACTIVE' WHERE table_name = p_table_name AND index_name = p_index_name;
	RETURN true;
END
$$;
COMMENT ON FUNCTION hroe.build_vector_index(text, text) IS
'Builds vector index p_index_name of table p_table_name recorded by hroe.create_vector_index (its generated columns, CHECK constraint and btree index, every stored item indexed) and makes it ACTIVE; true if it built it, false if it was built already: the work of the background worker UpdateTable starts, callable by the table''s owner to finish a build a server restart interrupted';

CREATE FUNCTION hroe.start_vector_index_build(p_table_name text, p_index_name text)
RETURNS void
AS 'MODULE_PATHNAME', 'hroe_start_vector_index_build'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.start_vector_index_build(text, text) IS
'internal: Starts the background worker that builds the vector indexes not yet ACTIVE (hroe.build_vector_index) once the calling transaction commits; only for vector index p_index_name of p_table_name recorded CREATING by this transaction';

CREATE FUNCTION hroe.delete_vector_index(p_table_name text, p_index_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.vector_indexes;
	c name;
	v_schema name;
BEGIN
	t := hroe.index_delete_table(p_table_name);
	SELECT * INTO x FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	-- one online index action at a time: none while an index is built
	IF EXISTS (SELECT 1 FROM hroe.vector_indexes WHERE table_name = p_table_name AND status <> 'ACTIVE') THEN
		PERFORM hroe.dynamodb_error('LimitExceededException',
			'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table');
	END IF;
	DELETE FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid;
	IF x.index_relname IS NOT NULL THEN
		EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.index_relname);
	END IF;
	IF x.ivf_relname IS NOT NULL THEN
		EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.ivf_relname);
	END IF;
	IF x.list_column IS NOT NULL THEN
		EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, x.list_column);
	END IF;
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid, x.key_check);
	FOREACH c IN ARRAY x.search_columns || x.vector_column LOOP
		EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, c);
	END LOOP;
	IF NOT EXISTS (SELECT 1 FROM hroe.vector_indexes WHERE table_name = p_table_name) THEN
		EXECUTE format('ALTER TABLE %s RESET (toast_tuple_target)', t.relid);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_vector_index(text, text) IS
'UpdateTable VectorIndexUpdates Delete: drops the vector index, its generated columns (its IVF list''s too), its CHECK constraint, its btree indexes and its centroids; refused while one of the table''s vector indexes is being built';

-- The items of table p_rel with a vector in column p_column: counted up to
-- 128 pages (1 MB), as the tables' statistics are; beyond, PostgreSQL's
-- estimate (the rows without NULL in the column, as DescribeTable's
-- ItemCount), so that neither DescribeTable nor a scheduled training run
-- scans a large table (0 before its first ANALYZE)
CREATE FUNCTION hroe.vector_item_count(p_rel regclass, p_column name)
RETURNS bigint
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_count bigint;
BEGIN
	IF pg_relation_size(p_rel) <= 128 * current_setting('block_size')::bigint THEN
		EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NOT NULL', p_rel, p_column) INTO v_count;
	ELSE
		SELECT round(greatest(c.reltuples, 0) * (1 - coalesce(s.null_frac, 0)))::bigint INTO v_count
		FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = p_column
		WHERE c.oid = p_rel;
	END IF;
	RETURN coalesce(v_count, 0);
END
$$;
COMMENT ON FUNCTION hroe.vector_item_count(regclass, name) IS
'internal: the items of table p_rel with a vector in column p_column: counted up to 1 MB of table, PostgreSQL''s estimate beyond (DescribeTable''s vector index ItemCount, and hroe.vector_indexes_maintain''s training threshold)';

CREATE FUNCTION hroe.vector_index_descriptions(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	x hroe.vector_indexes;
	t hroe.tables;
	v_out jsonb := '[]';
	v_count bigint;
	v_index jsonb;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	FOR x IN SELECT * FROM hroe.vector_indexes WHERE table_name = p_table_name ORDER BY created_at, index_name LOOP
		-- (estimated beyond 1 MB: a waiter polling DescribeTable never scans a
		-- large table)
		IF x.status <> 'ACTIVE' THEN
			-- not built yet: no column to count
			v_count := 0;
		ELSE
			v_count := hroe.vector_item_count(t.relid, x.vector_column);
		END IF;
		v_index := jsonb_build_object(
			'IndexName', x.index_name,
			'IndexStatus', CASE WHEN x.status = 'ACTIVE' THEN 'ACTIVE' ELSE 'CREATING' END,
			'VectorAttribute', jsonb_build_object('AttributeName', x.vector_attribute),
			'Dimensions', x.dimensions,
			'DistanceFunction', x.distance_function,
			'Projection', CASE WHEN x.projection = 'INCLUDE'
							   THEN jsonb_build_object('ProjectionType', x.projection, 'NonKeyAttributes', to_jsonb(x.non_key_attributes))
							   ELSE jsonb_build_object('ProjectionType', x.projection) END,
			'IndexArn', hroe.table_arn(p_table_name) || '/index/' || x.index_name,
			'ItemCount', v_count,
			-- the f32 vectors the index holds
			'IndexSizeBytes', v_count * 4 * x.dimensions);
		-- built in the background (UpdateTable): Backfilling until ACTIVE
		IF x.status <> 'ACTIVE' THEN
			v_index := v_index || jsonb_build_object('Backfilling', x.status = 'BACKFILLING');
		END IF;
		IF cardinality(x.search_attributes) > 0 THEN
			v_index := v_index || jsonb_build_object('SearchSchema',
				(SELECT jsonb_agg(jsonb_build_object('AttributeName', a, 'SearchSchemaElementType', e) ORDER BY o)
				 FROM unnest(x.search_attributes, x.search_element_types) WITH ORDINALITY s(a, e, o)));
		END IF;
		v_out := v_out || jsonb_build_array(v_index);
	END LOOP;
	RETURN CASE WHEN jsonb_array_length(v_out) = 0 THEN NULL ELSE v_out END;
END
$$;
COMMENT ON FUNCTION hroe.vector_index_descriptions(text) IS
'internal: DescribeTable''s VectorIndexes of table p_table_name (NULL if it has none): name, status (CREATING with Backfilling while being built), vector attribute, dimensions, distance function, projection, SearchSchema, ARN, the count of the items the index holds (exact up to 128 pages, else PostgreSQL''s estimate) and the size of their f32 vectors';
