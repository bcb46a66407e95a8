--
-- SearchVectors in SQL (src/ops/vector_search.c, doc/vectors.md)
--

CREATE FUNCTION hroe.search_vectors(p_table_name text, p_index_name text, p_vector real[],
	p_top_k integer DEFAULT 10, p_filter hroe.item DEFAULT NULL)
RETURNS TABLE (item hroe.item, score real)
AS 'MODULE_PATHNAME', 'hroe_search_vectors'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 10;
COMMENT ON FUNCTION hroe.search_vectors(text, text, real[], integer, hroe.item) IS
'SearchVectors: the p_top_k (1-100) items of table p_table_name nearest p_vector in its vector index p_index_name, nearest first, with their scores (COSINE: 0 identical .. 2 opposite; EUCLIDEAN: the distance; DOT_PRODUCT: the dot product, higher is nearer); p_filter: the SearchSchema attributes the items must equal (required for an index with a HASH element), as an item ({"tenant": {"S": "t1"}}); exact search under one snapshot; items as stored';

--
-- The IVF lists of a vector index (src/ops/vector_ivf.c, doc/vectors.md)
--

CREATE FUNCTION hroe.vector_list(p_item hroe.item, p_attribute text, p_dimensions integer, p_set_id bigint)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_vector_list'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.vector_list(hroe.item, text, integer, bigint) IS
'internal: The IVF list (0-based) of the item''s vector p_attribute: its nearest centroid of set p_set_id of hroe.vector_centroids; NULL without a valid vector or when the set is absent (searches always read those): a trained vector index''s generated column. Immutable: a set is never changed once written, a new training writes a new set';

CREATE FUNCTION hroe.vector_train(p_table regclass, p_column name, p_distance_function text,
	p_lists integer, p_sample integer)
RETURNS real[]
AS 'MODULE_PATHNAME', 'hroe_vector_train'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.vector_train(regclass, name, text, integer, integer) IS
'internal: Deterministic k-means centroids (p_lists of them, fewer when fewer vectors; spherical under COSINE) of a uniform sample of at most p_sample vectors of the real[] column p_column of p_table, flattened list by list; NULL when the column holds none';

CREATE FUNCTION hroe.vector_index_build(p_table_name text, p_index_name text,
	p_lists integer DEFAULT NULL, p_min_items bigint DEFAULT 20000)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.vector_indexes;
	v_n bigint;
	v_lists integer;
	v_centroids real[];
	v_set bigint;
	v_schema name;
	v_lcol name;
	v_rel name;
	v_hash name;
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
	IF p_lists IS NOT NULL AND p_lists NOT BETWEEN 1 AND 65536 THEN
		RAISE EXCEPTION 'the lists of a vector index must be between 1 and 65536, not %', p_lists
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid WHERE c.oid = t.relid;
	-- the strongest lock first, the one the rewrite below needs: a weaker
	-- one upgraded later would deadlock with a transaction that read the
	-- table and then writes it; the count is then exact
	EXECUTE format('LOCK TABLE %s IN ACCESS EXCLUSIVE MODE', t.relid);
	EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NOT NULL', t.relid, x.vector_column) INTO v_n;
	IF x.ivf_relname IS NOT NULL THEN
		EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.ivf_relname);
	END IF;
	IF x.list_column IS NOT NULL THEN
		EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, x.list_column);
	END IF;
	UPDATE hroe.vector_indexes SET centroid_set = NULL, list_column = NULL, ivf_relname = NULL, trained_items = NULL
	WHERE table_name = p_table_name AND index_name = p_index_name;
	DELETE FROM hroe.vector_centroids WHERE table_name = p_table_name AND index_name = p_index_name;
	IF v_n < coalesce(p_min_items, 0) OR v_n = 0 THEN
		RETURN format('exact: %s vectors', v_n);
	END IF;

	v_lists := coalesce(p_lists, least(65536, greatest(1, round(sqrt(v_n))::integer)));
	v_centroids := hroe.vector_train(t.relid, x.vector_column, x.distance_function, v_lists,
									 least(v_n, greatest(50 * v_lists, 10000))::integer);
	INSERT INTO hroe.vector_centroids (table_name, index_name, dimensions, distance_function, centroids, trained_items)
	VALUES (p_table_name, p_index_name, x.dimensions, x.distance_function, v_centroids, v_n)
	RETURNING set_id INTO v_set;
	-- the list column: named after the vector column
	v_lcol := (left(x.vector_column, -length('_vector')) || '_list')::name;
	IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname = v_lcol AND NOT attisdropped) THEN
		v_lcol := ('vix' || (SELECT count(*) + 1 FROM pg_attribute WHERE attrelid = t.relid AND attnum > 0) || '_list')::name;
	END IF;
	EXECUTE format('ALTER TABLE %s ADD COLUMN %I integer GENERATED ALWAYS AS (hroe.vector_list(item, %L, %s, %L::bigint)) STORED',
				   t.relid, v_lcol, x.vector_attribute, x.dimensions, v_set);
	v_rel := hroe.relation_name(format('%s.%s.ivf', p_table_name, p_index_name));
	IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_rel AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
		v_rel := hroe.relation_name(format('%s.%s.ivf.%s', p_table_name, p_index_name, v_set));
	END IF;
	IF 'HASH' = ANY (x.search_element_types) THEN
		v_hash := x.search_columns[1];
	END IF;
	-- the vectors in the btree's leaves, list by list, while an entry fits (2,048 bytes of floats);
	-- the btree's column takes the table column's storage: EXTERNAL, never compressed (floats
	-- do not compress: an entry above 512 bytes would be tried with pglz on every insert)
	EXECUTE format('ALTER TABLE %s ALTER COLUMN %I SET STORAGE EXTERNAL', t.relid, x.vector_column);
	EXECUTE format('CREATE INDEX %I ON %s (%s%I)%s WHERE %I IS NOT NULL', v_rel, t.relid,
				   CASE WHEN v_hash IS NULL THEN '' ELSE format('%I, ', v_hash) END, v_lcol,
				   CASE WHEN x.dimensions <= 512 THEN format(' INCLUDE (%I)', x.vector_column) ELSE '' END,
				   x.vector_column);
	EXECUTE format('COMMENT ON INDEX %I.%I IS %L', v_schema, v_rel,
				   format('DynamoDB vector index %s of %s: its IVF lists (hroe)', p_index_name, p_table_name));
	UPDATE hroe.vector_indexes SET centroid_set = v_set, list_column = v_lcol, ivf_relname = v_rel, trained_items = v_n
	WHERE table_name = p_table_name AND index_name = p_index_name;
	RETURN format('%s lists over %s vectors', cardinality(v_centroids) / x.dimensions, v_n);
END
$$;
COMMENT ON FUNCTION hroe.vector_index_build(text, text, integer, bigint) IS
'Trains (or re-trains) the IVF lists of vector index p_index_name of table p_table_name: when it holds at least p_min_items vectors, deterministic k-means centroids (p_lists of them, default the square root of the vector count) of a sample, a generated column holding each item''s list (kept by every write path), a btree on (HASH element,) list including the vector; searches then probe the nearest lists (approximate, hroe.vector_probes). Below p_min_items, drops them: searches are exact. Takes the table''s ACCESS EXCLUSIVE lock first and rewrites the table under it. Returns what it built';

CREATE FUNCTION hroe.vector_indexes_maintain(p_min_items bigint DEFAULT 20000)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r record;
	v_n integer := 0;
	v_count bigint;
BEGIN
	-- the indexes of the tables the caller owns whose vectors crossed
	-- p_min_items untrained or doubled since their training
	FOR r IN
		SELECT x.table_name, x.index_name, x.trained_items, x.vector_column, t.relid
		FROM hroe.vector_indexes x JOIN hroe.tables t USING (table_name)
		WHERE hroe.owns_table(x.table_name) AND x.status = 'ACTIVE'
		ORDER BY x.table_name, x.index_name
	LOOP
		-- the vectors (statistics beyond 1 MB: none before the table's first
		-- ANALYZE, nothing to train)
		v_count := hroe.vector_item_count(r.relid, r.vector_column);
		IF v_count >= (CASE WHEN r.trained_items IS NULL THEN greatest(p_min_items, 1) ELSE 2 * r.trained_items END) THEN
			PERFORM hroe.vector_index_build(r.table_name, r.index_name, NULL, p_min_items);
			v_n := v_n + 1;
		END IF;
	END LOOP;
	RETURN v_n;
END
$$;
COMMENT ON FUNCTION hroe.vector_indexes_maintain(bigint) IS
'Re-trains the IVF lists (hroe.vector_index_build) of the caller''s vector indexes holding p_min_items vectors untrained, or twice the vectors of their last training (counted up to 128 pages, else PostgreSQL''s estimate from the table''s statistics); returns how many it built';
