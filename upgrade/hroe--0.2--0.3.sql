-- hroe 0.2 -> 0.3 (ALTER EXTENSION hroe UPDATE TO '0.3')
--
-- What changed (CHANGELOG.md, 0.3): each change to the install script's
-- pieces in src/ is repeated here, so that an updated 0.2 database has the
-- catalog of a fresh 0.3 installation (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.3'" to load this file. \quit

-- The SQL-callable C functions of hroe.key, hroe.item and
-- hroe.item_collection are named hroe_... in hroe.so (its exported symbols
-- all carry hroe's prefix, test/t_release_build.sh); each function of 0.2
-- points at its new name.  First in this script: until then the catalog
-- names the old symbols, which hroe.so has only when built with
-- make HROE_LEGACY=1 (src/legacy/, README "Updating").
CREATE OR REPLACE FUNCTION hroe.key_in(cstring) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_out(hroe.key) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_key_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_recv(internal) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_send(hroe.key) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_key_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_eq(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_ne(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_lt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_le(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_gt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_ge(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_cmp(hroe.key, hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'hroe_key_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_hash(hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_hash_extended(hroe.key, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_key_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_larger(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_smaller(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'hroe_key_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_match_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME', 'hroe_key_match_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_begins_with(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_ancestor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_descendant' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_prefix_max(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_descendant_lower(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_descendant_upper(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_from_text(text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key(VARIADIC components text[]) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_build' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_split(k hroe.key) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_key_split' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_component(k hroe.key, n integer) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_key_component' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_levels(k hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_levels' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_prefix(k hroe.key, n integer) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_append(k hroe.key, component text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_append' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_in(cstring) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_out(hroe.item) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_recv(internal) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_send(hroe.item) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_eq(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_ne(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_hash(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_size(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_size_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_to_jsonb(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_from_jsonb(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_cast_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_to_document(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_from_document(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_from_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_path_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_path_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_attribute(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_type(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_text(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_key(hroe.item, text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_item_get_key' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_number(hroe.item, text) RETURNS numeric
	AS 'MODULE_PATHNAME', 'hroe_item_get_number' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_binary(hroe.item, text) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_get_binary' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_bool(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_get_bool' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_attributes(hroe.item) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_item_attributes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_merge(hroe.item, hroe.item) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_merge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_set(hroe.item, text, jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_set' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_remove(hroe.item, VARIADIC text[]) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_remove_attribute(hroe.item, text) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove_one' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_in(cstring) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_out(hroe.item_collection) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_collection_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_recv(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_send(hroe.item_collection) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_collection_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_agg_trans(internal, hroe.key, hroe.item) RETURNS internal
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_agg_final(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_items(hroe.item_collection, OUT sort_key hroe.key, OUT item hroe.item)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'hroe_item_collection_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
CREATE OR REPLACE FUNCTION hroe.item_collection_count(hroe.item_collection) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_collection_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_size(hroe.item_collection) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_item_collection_total_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_collection_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_between' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_embed_collection' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_from_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- DescribeTable: a large table's statistics from its last refresh, not a
-- pass over the table (hroe.table_statistics; issue #29, item 10)
--
-- ItemCount, TableSizeBytes and each index's ItemCount and IndexSizeBytes
-- (DescribeTable): DynamoDB refreshes them about every six hours
-- (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html);
-- hroe counts a small table exactly on every call and keeps a large table's
-- figures here, from its last refresh, so that DescribeTable never reads a
-- large table through.
--
CREATE TABLE hroe.table_statistics (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE ON UPDATE CASCADE,
	-- '' for the table itself
	index_name			text NOT NULL,
	item_count			bigint NOT NULL,
	size_bytes			bigint NOT NULL,
	refreshed_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (table_name, index_name)
);
COMMENT ON TABLE hroe.table_statistics IS 'The item count and DynamoDB size of a large table (index_name '''') and of each of its indexes, as of refreshed_at (hroe.refresh_table_statistics): what DescribeTable shows of a table above hroe.table_statistics''s exact-count bound. Not dumped: recomputed by the next refresh';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.table_statistics TO PUBLIC;
ALTER TABLE hroe.table_statistics ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.table_statistics FORCE ROW LEVEL SECURITY;
CREATE POLICY table_statistics_read ON hroe.table_statistics FOR SELECT USING (true);
COMMENT ON POLICY table_statistics_read ON hroe.table_statistics IS 'The statistics are readable by every role, as DescribeTable';
CREATE POLICY table_statistics_owner ON hroe.table_statistics FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY table_statistics_owner ON hroe.table_statistics IS 'A role refreshes only the statistics of a table it owns';

CREATE FUNCTION hroe.table_statistics(p_table_name text)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
LANGUAGE plpgsql STABLE STRICT PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE hroe.tables.table_name OPERATOR(pg_catalog.=) p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	-- a small table (at most 128 pages, 1 MB): counted exactly, a pass of
	-- a few milliseconds
	IF NOT hroe.table_is_distributed(t.relid)
	   AND pg_catalog.pg_relation_size(t.relid) OPERATOR(pg_catalog.<=) (128 OPERATOR(pg_catalog.*) current_setting('block_size')::bigint) THEN
		RETURN QUERY SELECT * FROM hroe.table_sizes(p_table_name);
		RETURN;
	END IF;
	-- a large or distributed one: its last refresh
	IF EXISTS (SELECT FROM hroe.table_statistics s WHERE s.table_name OPERATOR(pg_catalog.=) p_table_name) THEN
		RETURN QUERY
			SELECT nullif(s.index_name, ''), s.item_count, s.size_bytes
			FROM hroe.table_statistics s WHERE s.table_name OPERATOR(pg_catalog.=) p_table_name
			UNION ALL
			-- an index created since: none counted yet
			SELECT x.index_name, 0::bigint, 0::bigint FROM hroe.indexes x
			WHERE x.table_name OPERATOR(pg_catalog.=) p_table_name
			  AND NOT EXISTS (SELECT FROM hroe.table_statistics s
							  WHERE s.table_name OPERATOR(pg_catalog.=) p_table_name
								AND s.index_name OPERATOR(pg_catalog.=) x.index_name);
		RETURN;
	END IF;
	-- a distributed table never refreshed: counted on its servers (the
	-- maintenance worker refreshes it within hroe.ttl_naptime)
	IF hroe.table_is_distributed(t.relid) THEN
		RETURN QUERY SELECT * FROM hroe.partition_table_sizes(p_table_name, t.relid);
		RETURN;
	END IF;
	-- never refreshed: PostgreSQL's own estimates (VACUUM and ANALYZE keep
	-- them): rows of the table and of each index, their storage in bytes
	RETURN QUERY
		SELECT NULL::text, greatest(c.reltuples, 0)::bigint, pg_catalog.pg_table_size(t.relid)
		FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) t.relid
		UNION ALL
		SELECT x.index_name, greatest(coalesce(ic.reltuples, 0), 0)::bigint,
			   coalesce(pg_catalog.pg_relation_size(ic.oid), 0)
		FROM hroe.indexes x
		LEFT JOIN pg_catalog.pg_class ic
			   ON ic.relname OPERATOR(pg_catalog.=) x.index_relname
			  AND ic.relnamespace OPERATOR(pg_catalog.=) (SELECT k.relnamespace FROM pg_catalog.pg_class k WHERE k.oid OPERATOR(pg_catalog.=) t.relid)
		WHERE x.table_name OPERATOR(pg_catalog.=) p_table_name;
END
$$;
COMMENT ON FUNCTION hroe.table_statistics(text) IS
'The item count and DynamoDB size DescribeTable shows of table p_table_name (index_name NULL) and of each of its indexes: exact (hroe.table_sizes) for a table of at most 128 pages (1 MB), else from its last hroe.refresh_table_statistics (DynamoDB refreshes these figures about every six hours), else, never refreshed, PostgreSQL''s estimates (pg_class.reltuples of the table and of each index, their sizes in bytes); a distributed table''s, summed over its servers. Reads no large table through';

CREATE FUNCTION hroe.refresh_table_statistics(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_rel regclass;
BEGIN
	SELECT t.relid INTO v_rel FROM hroe.tables t WHERE t.table_name OPERATOR(pg_catalog.=) p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF NOT hroe.owns_table(p_table_name) THEN
		RAISE EXCEPTION 'must be a member of the role owning table % to refresh its statistics', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	-- one refresh at a time per table; a second caller waits for the first
	PERFORM pg_catalog.pg_advisory_xact_lock(v_rel::oid::integer, 18514);
	DELETE FROM hroe.table_statistics s WHERE s.table_name OPERATOR(pg_catalog.=) p_table_name;
	IF hroe.table_is_distributed(v_rel) THEN
		INSERT INTO hroe.table_statistics (table_name, index_name, item_count, size_bytes)
		SELECT p_table_name, coalesce(z.index_name, ''), z.item_count, z.size_bytes
		FROM hroe.partition_table_sizes(p_table_name, v_rel) z;
	ELSE
		INSERT INTO hroe.table_statistics (table_name, index_name, item_count, size_bytes)
		SELECT p_table_name, coalesce(z.index_name, ''), z.item_count, z.size_bytes
		FROM hroe.table_sizes(p_table_name) z;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.refresh_table_statistics(text) IS
'Counts table p_table_name and its indexes exactly (hroe.table_sizes, one pass over the table) and keeps the figures in hroe.table_statistics, where DescribeTable reads a large table''s; only a member of the role owning the table may';

CREATE FUNCTION hroe.tables_with_stale_statistics(p_older_than interval DEFAULT '6 hours')
RETURNS SETOF text
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- (plpgsql: hroe.table_is_distributed comes later in the install script)
	RETURN QUERY
		SELECT t.table_name FROM hroe.tables t
		WHERE (hroe.table_is_distributed(t.relid)
			   OR pg_catalog.pg_relation_size(t.relid) OPERATOR(pg_catalog.>) (128 OPERATOR(pg_catalog.*) pg_catalog.current_setting('block_size')::bigint))
		  AND NOT EXISTS (SELECT FROM hroe.table_statistics s
						  WHERE s.table_name OPERATOR(pg_catalog.=) t.table_name AND s.index_name OPERATOR(pg_catalog.=) ''
							AND s.refreshed_at OPERATOR(pg_catalog.>) (pg_catalog.now() OPERATOR(pg_catalog.-) p_older_than))
		ORDER BY t.table_name;
END
$$;
COMMENT ON FUNCTION hroe.tables_with_stale_statistics(interval) IS
'The tables whose DescribeTable figures come from hroe.table_statistics (larger than 128 pages, or distributed) and whose figures are missing or older than p_older_than (DynamoDB''s six hours by default): what hroe.refresh_stale_table_statistics and the maintenance worker refresh';

CREATE FUNCTION hroe.refresh_stale_table_statistics(p_older_than interval DEFAULT '6 hours')
RETURNS integer
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_name text;
	v_count integer := 0;
BEGIN
	-- the large tables the caller owns whose figures are missing or older
	FOR v_name IN
		SELECT n FROM hroe.tables_with_stale_statistics(p_older_than) n
		WHERE hroe.owns_table(n)
	LOOP
		PERFORM hroe.refresh_table_statistics(v_name);
		v_count := v_count OPERATOR(pg_catalog.+) 1;
	END LOOP;
	RETURN v_count;
END
$$;
COMMENT ON FUNCTION hroe.refresh_stale_table_statistics(interval) IS
'Refreshes (hroe.refresh_table_statistics) the statistics of every large table the current role owns whose figures are missing or older than p_older_than (DynamoDB''s six hours by default); returns how many it refreshed. For a periodic job (cron, pg_cron); hroe''s maintenance worker refreshes every table as its owner (hroe.statistics_interval)';

CREATE OR REPLACE FUNCTION hroe.table_description(p_table_name text, p_table_status text DEFAULT 'ACTIVE',
									   p_index_status text DEFAULT NULL, p_index_name text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_defs jsonb;
	v_gsis jsonb := '[]';
	v_lsis jsonb := '[]';
	v_index jsonb;
	v_key jsonb;
	v_sizes jsonb;
	v_arn text;
	v_changing boolean;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	v_arn := hroe.table_arn(t.table_name);
	-- the table's and every index's count and size: a small table's exact,
	-- a large one's from its last refresh (hroe.table_statistics)
	SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
	INTO v_sizes FROM hroe.table_statistics(p_table_name) s;
	v_defs := jsonb_build_object(t.partition_key, t.partition_key_type);
	IF t.sort_key IS NOT NULL THEN
		v_defs := v_defs || jsonb_build_object(t.sort_key, t.sort_key_type);
	END IF;
	FOR x IN SELECT * FROM hroe.indexes WHERE table_name = p_table_name ORDER BY index_name LOOP
		SELECT jsonb_agg(jsonb_build_object('AttributeName', a, 'KeyType', kt) ORDER BY ord)
		INTO v_key
		FROM (SELECT a, 'HASH' kt, o ord FROM unnest(x.partition_key) WITH ORDINALITY u(a, o)
			  UNION ALL
			  SELECT a, 'RANGE', 10 + o FROM unnest(x.sort_key) WITH ORDINALITY u(a, o)) k;
		SELECT v_defs || coalesce(jsonb_object_agg(a, ty), '{}') INTO v_defs
		FROM unnest(x.partition_key || x.sort_key, x.partition_key_types || x.sort_key_types) u(a, ty);
		v_index := jsonb_build_object(
			'IndexName', x.index_name,
			'KeySchema', v_key,
			'Projection', CASE WHEN x.projection = 'INCLUDE'
							   THEN jsonb_build_object('ProjectionType', x.projection, 'NonKeyAttributes', to_jsonb(x.non_key_attributes))
							   ELSE jsonb_build_object('ProjectionType', x.projection) END,
			'ItemCount', v_sizes -> x.index_name -> 0,
			'IndexSizeBytes', v_sizes -> x.index_name -> 1,
			'IndexArn', v_arn || '/index/' || x.index_name,
			'PostgresIndex', format('%I.%I', (SELECT n.nspname FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid), x.index_relname));
		-- an LSI has no status and no throughput of its own
		IF x.local THEN
			v_lsis := v_lsis || jsonb_build_array(v_index);
		ELSE
			v_changing := p_index_status IS NOT NULL AND x.index_name = coalesce(p_index_name, x.index_name);
			v_index := v_index || jsonb_build_object(
				'IndexStatus', CASE WHEN v_changing THEN p_index_status ELSE 'ACTIVE' END,
				'ProvisionedThroughput', hroe.throughput_description(x.read_capacity_units, x.write_capacity_units,
																	 x.last_increase_at, x.last_decrease_at, x.decreases_today));
			-- a GSI UpdateTable creates is backfilled once it is CREATING
			IF v_changing AND x.index_name = p_index_name AND p_index_status = 'CREATING' THEN
				v_index := v_index || jsonb_build_object('Backfilling', false);
			END IF;
			v_gsis := v_gsis || jsonb_build_array(v_index);
		END IF;
	END LOOP;
	RETURN jsonb_strip_nulls(jsonb_build_object(
		'TableName', t.table_name,
		'TableStatus', coalesce(p_table_status, 'ACTIVE'),
		'CreationDateTime', EXTRACT(epoch FROM t.created_at),
		'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', t.partition_key, 'KeyType', 'HASH'))
					 || CASE WHEN t.sort_key IS NOT NULL
							 THEN jsonb_build_array(jsonb_build_object('AttributeName', t.sort_key, 'KeyType', 'RANGE'))
							 ELSE '[]' END,
		-- in the order of the CreateTable request, then by name
		'AttributeDefinitions', (SELECT jsonb_agg(jsonb_build_object('AttributeName', key, 'AttributeType', value)
												  ORDER BY array_position(t.attribute_order, key), key)
								 FROM jsonb_each_text(v_defs)),
		'ProvisionedThroughput', hroe.throughput_description(t.read_capacity_units, t.write_capacity_units,
															 t.last_increase_at, t.last_decrease_at, t.decreases_today),
		'ItemCount', v_sizes -> '' -> 0,
		'TableSizeBytes', v_sizes -> '' -> 1,
		'TableArn', v_arn,
		'TableId', t.table_id,
		-- (a table that has always been PROVISIONED shows none)
		'BillingModeSummary', CASE WHEN t.pay_per_request_since IS NOT NULL
								   THEN jsonb_build_object('BillingMode', t.billing_mode,
														   'LastUpdateToPayPerRequestDateTime', EXTRACT(epoch FROM t.pay_per_request_since)) END,
		'LocalSecondaryIndexes', CASE WHEN v_lsis = '[]' THEN NULL ELSE v_lsis END,
		'GlobalSecondaryIndexes', CASE WHEN v_gsis = '[]' THEN NULL ELSE v_gsis END,
		'DeletionProtectionEnabled', t.deletion_protection,
		'PostgresTable', t.relid::text));
END
$$;
COMMENT ON FUNCTION hroe.table_description(text, text, text, text) IS
'DynamoDB''s TableDescription of table p_table_name, with TableStatus p_table_status and IndexStatus p_index_status for GSI p_index_name (NULL: every GSI; a GSI named CREATING also shows Backfilling), else ACTIVE: key schema, attribute definitions, ARN, TableId, creation time, billing mode, provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, ARN, item count, size of the index entries) and the item count and DynamoDB size of the table (hroe.table_statistics: exact for a small table, else as of the last hroe.refresh_table_statistics, as DynamoDB refreshes them about every six hours); also names the PostgreSQL table and indexes (PostgresTable, PostgresIndex)';
COMMENT ON FUNCTION hroe.describe_table(text) IS
'DescribeTable: {"Table": hroe.table_description(p_table_name)}: key schema, attribute definitions, ARN, TableId, billing mode and provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, item count, size of the index entries) and the item count and DynamoDB size of the table (hroe.table_statistics: exact for a small table, else as of the last refresh), as DynamoDB JSON; also names the PostgreSQL table and indexes';

-- The HR/OE showcase is an extension of its own since 0.3, hroe_hr
-- (models/): CREATE EXTENSION hroe creates no DynamoDB table.  Its objects
-- leave hroe here, every one kept as it is with its data (the schemas
-- hroe_normalized, hroe_multi and hroe_single, their tables and DynamoDB
-- tables, the generator, the comparison and the report); CREATE EXTENSION
-- hroe_hr VERSION '0.2' then adopts them and ALTER EXTENSION hroe_hr UPDATE
-- brings them to the current version (README "Updating").  Leaving hroe
-- also takes their tables out of hroe's dumped configuration.
COMMENT ON EXTENSION hroe IS 'DynamoDB in PostgreSQL: keys, items, tables, indexes, expressions, transactions, PartiQL, Streams, TTL and the HTTP API';
ALTER EXTENSION hroe DROP SCHEMA hroe_multi;
ALTER EXTENSION hroe DROP SCHEMA hroe_normalized;
ALTER EXTENSION hroe DROP SCHEMA hroe_single;
ALTER EXTENSION hroe DROP SEQUENCE hroe_multi.employee_id_seq;
ALTER EXTENSION hroe DROP SEQUENCE hroe_multi.order_id_seq;
ALTER EXTENSION hroe DROP SEQUENCE hroe_normalized.employee_id_seq;
ALTER EXTENSION hroe DROP SEQUENCE hroe_normalized.order_id_seq;
ALTER EXTENSION hroe DROP SEQUENCE hroe_single.employee_id_seq;
ALTER EXTENSION hroe DROP SEQUENCE hroe_single.order_id_seq;
ALTER EXTENSION hroe DROP TABLE hroe.access_patterns;
ALTER EXTENSION hroe DROP TABLE hroe.model_requests;
ALTER EXTENSION hroe DROP TABLE hroe_multi."Customer";
ALTER EXTENSION hroe DROP TABLE hroe_multi."Employee";
ALTER EXTENSION hroe DROP TABLE hroe_multi."Order";
ALTER EXTENSION hroe DROP TABLE hroe_multi."Product";
ALTER EXTENSION hroe DROP TABLE hroe_multi."RepQuarterTotal";
ALTER EXTENSION hroe DROP TABLE hroe_normalized.countries;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.customers;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.departments;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.employees;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.inventories;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.job_history;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.jobs;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.locations;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.order_items;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.orders;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.product_descriptions;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.product_information;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.promotions;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.regions;
ALTER EXTENSION hroe DROP TABLE hroe_normalized.warehouses;
ALTER EXTENSION hroe DROP TABLE hroe_single.items;
ALTER EXTENSION hroe DROP VIEW hroe_single.expected_items;
ALTER EXTENSION hroe DROP FUNCTION hroe.check_hire_arguments(pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,pg_catalog.text[],numeric,numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe.check_order_id(bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.check_order_lines(pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.check_order_status(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.check_order_total(numeric);
ALTER EXTENSION hroe DROP FUNCTION hroe.check_status_change(bigint,pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare(pg_catalog.text[],pg_catalog.text[],integer);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_args(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_call(pg_catalog.text,pg_catalog.text,pg_catalog.text[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_drop_snapshot(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_html(pg_catalog.jsonb,pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_item_tables(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_models();
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_plan_shape(pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_read_capacity(pg_catalog.text,pg_catalog.text,pg_catalog.text[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_report(pg_catalog.text[],pg_catalog.text[],integer);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_report_html(pg_catalog.text[],pg_catalog.text[],integer,pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_report_lines(pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_snapshot(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.compare_write_capacity(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.drop_secondary_indexes(pg_catalog.regclass[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.execute_ddl(pg_catalog.text[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.invalid_quarter(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.load(numeric,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.order_line_cents(bigint,bigint,bigint,bigint[],bigint[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.order_line_draws(bigint,bigint,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.order_line_product_ids(pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.order_line_quantity(bigint,bigint,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.parse_order_line(pg_catalog.jsonb,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.price_order_line(integer,boolean,numeric,numeric,integer[]);
ALTER EXTENSION hroe DROP FUNCTION hroe.price_order_lines(pg_catalog.jsonb,pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.prng(bigint,integer,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.prng_int(bigint,integer,bigint,bigint,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.prng_zipf(bigint,integer,bigint,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe.quarter_end(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.quarter_start(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe.report_bar_chart(pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text[],pg_catalog.text[],pg_catalog.jsonb,boolean);
ALTER EXTENSION hroe DROP FUNCTION hroe.report_colour(pg_catalog.text,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe.report_growth_chart(pg_catalog.text,pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe.verify();
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.adjust_inventory(integer,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.change_employee_job(integer,pg_catalog.text,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.change_order_status(bigint,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.count_rep_quarter(integer,pg_catalog.date,numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.customer_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text[],integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.customer_key(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.customer_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.customer_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.date_key(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.email_item(pg_catalog.text,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_by_id(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_by_name(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_current_job(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text[],pg_catalog.date,numeric,numeric,integer,pg_catalog.text,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_key(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employee_profile(hroe.key,hroe.item);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employees_by_title(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.employees_hired_since(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.hire_employee(pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,integer,pg_catalog.text[],integer,numeric,numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.inventory_item(integer,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.job_attributes(pg_catalog.text,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.json_n(numeric);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.json_s(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.key_number(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.key_s(hroe.item,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.load_from_normalized();
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.normalized_items();
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.open_orders(pg_catalog.date,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.order_header_item(bigint,integer,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,numeric,integer,pg_catalog.text[]);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.order_items_entry(integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.order_key(bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.order_line_item(bigint,integer,integer,integer,numeric,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.place_order(integer,pg_catalog.date,pg_catalog.jsonb,integer,pg_catalog.text,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_inventories(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_inventory_at(integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_item(integer,pg_catalog.text,integer,numeric,pg_catalog.text,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_key(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_order_items(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.product_total_inventory(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.quarter_of(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.rank_key(numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.rep_customers(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.rep_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.rep_quarter_item(pg_catalog.text,integer,numeric,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.rep_ranking(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.search_key(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.verify();
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.warehouse_employees(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_multi.warehouse_key(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.adjust_inventory(integer,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.change_employee_job(integer,pg_catalog.text,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.change_order_status(bigint,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.customer_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.customer_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_by_id(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_by_name(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_current_job(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_details();
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employee_summary();
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employees_by_title(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.employees_hired_since(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.hire_employee(pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,integer,pg_catalog.text[],integer,numeric,numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.open_orders(pg_catalog.date,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.order_rows();
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.place_order(integer,pg_catalog.date,pg_catalog.jsonb,integer,pg_catalog.text,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.product_inventories(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.product_inventory_at(integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.product_order_items(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.product_total_inventory(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.rep_customers(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.rep_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.rep_ranking(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_normalized.warehouse_employees(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.adjust_inventory(integer,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.change_employee_job(integer,pg_catalog.text,integer,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.change_order_status(bigint,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.check_day(pg_catalog.text,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.country_item(pg_catalog.text,pg_catalog.text,integer,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.current_job_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,pg_catalog.text,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.customer_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text[],pg_catalog.text,pg_catalog.text,numeric,pg_catalog.text,integer,pg_catalog.date,pg_catalog.text,pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.customer_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.customer_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.customer_rep_item(integer,integer,pg_catalog.text,pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.day(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.department_item(integer,pg_catalog.text,integer,integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.doc_item(pg_catalog.jsonb);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_by_id(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_by_name(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_confidential_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,numeric,numeric);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_current_job(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_email_item(pg_catalog.text,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text[],pg_catalog.date,pg_catalog.text,pg_catalog.text,pg_catalog.date,numeric,numeric,integer,integer,pg_catalog.text,integer,pg_catalog.text,pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_phones(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_profile(hroe.item);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_summary(hroe.item);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employee_warehouse_item(integer,integer,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employees_by_title(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.employees_hired_since(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.hire_employee(pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.date,pg_catalog.text,integer,pg_catalog.text[],integer,numeric,numeric,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.id10(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.id19(bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.inventory_item(integer,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.inventory_row(hroe.item);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.job_item(pg_catalog.text,pg_catalog.text,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.job_version_item(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.load_from_normalized();
ALTER EXTENSION hroe DROP FUNCTION hroe_single.location_item(integer,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.make_key(pg_catalog.text,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.meta_item(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.open_orders(pg_catalog.date,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.order_item(bigint,integer,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,numeric,integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.order_line_item(bigint,integer,integer,pg_catalog.date,integer,integer,numeric);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.order_rep_item(bigint,integer,pg_catalog.date,pg_catalog.text,pg_catalog.text,integer,numeric);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.order_row(hroe.item);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.place_order(integer,pg_catalog.date,pg_catalog.jsonb,integer,pg_catalog.text,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.product_inventories(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.product_inventory_at(integer,integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.product_item(integer,pg_catalog.text,pg_catalog.text,integer,integer,interval,integer,pg_catalog.text,numeric,numeric,pg_catalog.text,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.product_order_items(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.product_total_inventory(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.quarter_of(pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.region_item(integer,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.rep_customers(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.rep_orders(integer,pg_catalog.date,pg_catalog.date,pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.rep_ranking(pg_catalog.text);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.rep_sales_item(integer,pg_catalog.text,numeric,bigint);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.shard_count();
ALTER EXTENSION hroe DROP FUNCTION hroe_single.status_key(pg_catalog.text,pg_catalog.date);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.verify();
ALTER EXTENSION hroe DROP FUNCTION hroe_single.warehouse_employees(integer);
ALTER EXTENSION hroe DROP FUNCTION hroe_single.warehouse_item(integer,pg_catalog.text,integer,pg_catalog.text,pg_catalog.text);

-- The source files named in two functions' comments moved into folders by
-- layer (src/tables/)
CREATE OR REPLACE FUNCTION hroe.create_table(
	p_table_name text,
	p_partition_key text,
	p_partition_key_type text DEFAULT 'S',
	p_sort_key text DEFAULT NULL,
	p_sort_key_type text DEFAULT 'S',
	p_schema name DEFAULT pg_catalog.current_schema())
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema name := p_schema;
	v_rel regclass;
	v_relname name;
	v_sql text;
	v_servers name[] := hroe.partition_server_list();
BEGIN
	PERFORM hroe.check_name(p_table_name, 'tableName');
	PERFORM hroe.check_attribute_name(p_partition_key, 'keySchema.1.member.attributeName');
	PERFORM hroe.check_key_type(p_partition_key_type, 'attributeDefinitions.1.member.attributeType');
	IF p_sort_key IS NOT NULL THEN
		PERFORM hroe.check_attribute_name(p_sort_key, 'keySchema.2.member.attributeName');
		PERFORM hroe.check_key_type(p_sort_key_type, 'attributeDefinitions.2.member.attributeType');
		IF p_sort_key = p_partition_key THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'Both the Hash Key and the Range Key element in the KeySchema have the same name');
		END IF;
	END IF;
	IF v_schema IS NULL THEN
		RAISE EXCEPTION 'no schema has been selected to create in'
			USING ERRCODE = 'invalid_schema_name';
	END IF;
	-- DynamoDB table names are unique per account and region (every role
	-- sees every table's row; a row lock would need UPDATE on hroe.tables)
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceInUseException',
			format('Table already exists: %s', p_table_name));
	END IF;
	-- a name longer than PostgreSQL's 63 bytes: a prefix and a hash
	v_relname := hroe.relation_name(p_table_name);

	v_sql := format('CREATE TABLE %I.%I (pk %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, false)) STORED',
					v_schema, v_relname, hroe.key_column_type(p_partition_key_type),
					lower(p_partition_key_type), p_partition_key);
	IF p_sort_key IS NOT NULL THEN
		v_sql := v_sql || format(', sk %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, true)) STORED',
								 hroe.key_column_type(p_sort_key_type), lower(p_sort_key_type), p_sort_key);
	END IF;
	-- distributed (hroe.partition_servers): hash-partitioned by pk, the
	-- primary key on each server's partition (PostgreSQL allows none over
	-- foreign partitions)
	IF cardinality(v_servers) > 0 THEN
		-- (by pk's expression: PostgreSQL allows no generated column in a
		-- partition key; src/tables/tables_partition.c adds it to every key's
		-- condition, so that the planner prunes)
		v_sql := v_sql || format(', item hroe.item NOT NULL) PARTITION BY HASH (hroe.item_key_%s(item, %L, false))',
								 lower(p_partition_key_type), p_partition_key);
	ELSE
		v_sql := v_sql || format(', item hroe.item NOT NULL, PRIMARY KEY (pk%s))',
								 CASE WHEN p_sort_key IS NOT NULL THEN ', sk' ELSE '' END);
	END IF;
	EXECUTE v_sql;
	v_rel := format('%I.%I', v_schema, v_relname)::regclass;
	IF cardinality(v_servers) > 0 THEN
		PERFORM hroe.create_table_partitions(v_rel, p_table_name, v_servers, p_partition_key,
											 p_partition_key_type, p_sort_key, p_sort_key_type);
	END IF;
	EXECUTE format('COMMENT ON TABLE %s IS %L', v_rel,
				   format('DynamoDB table %s (hroe): partition key %s %s%s', p_table_name,
						  p_partition_key, p_partition_key_type,
						  CASE WHEN p_sort_key IS NOT NULL
							   THEN format(', sort key %s %s', p_sort_key, p_sort_key_type) ELSE '' END));
	INSERT INTO hroe.tables (table_name, relid, partition_key, partition_key_type, sort_key, sort_key_type,
							 pay_per_request_since)
	VALUES (p_table_name, v_rel, p_partition_key, p_partition_key_type, p_sort_key,
			CASE WHEN p_sort_key IS NOT NULL THEN p_sort_key_type END, now());
	RETURN v_rel;
END
$$;
CREATE OR REPLACE FUNCTION hroe.key_column_for(p_rel regclass, p_table_partition_key text, p_table_sort_key text,
									p_attribute text, p_type text, p_sort boolean)
RETURNS name
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_col record;
BEGIN
	IF p_attribute IS NULL OR p_type IS NULL OR p_sort IS NULL THEN
		RETURN NULL;
	END IF;
	-- the table's sort key is in every item, valid, at most 1024 bytes and
	-- stored as it is: exactly the index key, HASH or RANGE (a HASH key on
	-- sk is probed with the key itself, not its index form)
	IF p_attribute = p_table_sort_key THEN
		RETURN 'sk';
	END IF;
	-- The partition key, at most 2048 bytes, stored in its index form (a
	-- key over 192 bytes as a prefix and its SHA-256: src/tables/tables.h,
	-- HROE_KEY_FORM_MAX): a HASH key as it is, never a RANGE key, whose
	-- order the forms of long keys do not keep.
	IF p_attribute = p_table_partition_key THEN
		RETURN CASE WHEN NOT p_sort THEN 'pk'::name END;
	END IF;
	-- The key columns hroe.indexes records for this attribute and type (only
	-- hroe's own: a column the user added is never taken), with the roles the
	-- table's indexes use them in; only a column of the same role serves.  A
	-- HASH column holds index forms, so it never serves a RANGE key; a RANGE
	-- column never serves a HASH key: once its RANGE indexes were deleted,
	-- longer keys would be accepted but left out.
	FOR v_col IN
		SELECT c.col, bool_or(c.hash) AS hash, bool_or(NOT c.hash) AS range
		FROM hroe.tables t
		JOIN hroe.indexes x ON x.table_name = t.table_name
		CROSS JOIN LATERAL (
			SELECT u.col, true AS hash
			FROM unnest(x.partition_key, x.partition_key_types, x.partition_key_columns) u(a, ty, col)
			WHERE u.a = p_attribute AND u.ty = p_type
			UNION ALL
			SELECT u.col, false
			FROM unnest(x.sort_key, x.sort_key_types, x.sort_key_columns) u(a, ty, col)
			WHERE u.a = p_attribute AND u.ty = p_type) c
		JOIN pg_attribute a ON a.attrelid = t.relid
			AND a.attname = c.col AND NOT a.attisdropped
		WHERE t.relid = p_rel AND c.col NOT IN ('pk', 'sk')
		GROUP BY c.col, a.attnum
		ORDER BY a.attnum
	LOOP
		IF (p_sort AND v_col.range AND NOT v_col.hash) OR (NOT p_sort AND v_col.hash) THEN
			RETURN v_col.col;
		END IF;
	END LOOP;
	RETURN NULL;
END
$$;

-- Privileges: Time to Live deletes
-- as the table's owner, the capture trigger checks its arguments and runs its
-- statements with search_path pinned, hroe.gateway_call's role is for the call
-- only (the C code changed; the comments tell it)
COMMENT ON FUNCTION hroe.delete_expired_items(text, integer) IS
'Deletes up to p_limit expired items of a table with Time to Live enabled (its attribute a Number of epoch seconds in the past, at most five years), sweeping the table''s blocks on from where this session''s last call stopped; each row locked and its expiry checked again, so an item re-written with a later expiry is kept; the stream records each deletion as the service''s. The caller needs DELETE on the table; the deletion runs as the table''s owner when the caller has the owner''s privileges (the owner, a member, a superuser), else as the caller, in a security-restricted operation with search_path pinned to pg_catalog, pg_temp (the table''s triggers never run as a superuser). Returns the number deleted (0 without Time to Live). hroe''s background worker calls it for each table as the table''s owner';
COMMENT ON FUNCTION hroe.stream_capture() IS
'internal: The AFTER ROW trigger of a table with a stream (arguments: stream id, view type, key attribute names, as hroe.enable_stream creates it): appends the change''s record to hroe.stream_records as the extension''s owner, in a security-restricted operation with search_path pinned, after checking in hroe''s catalog, by the trigger''s relation, that the stream is that table''s enabled stream with these arguments (else insufficient_privilege, nothing written); none when the item did not change';
COMMENT ON FUNCTION hroe.gateway_call(text, text, text) IS
'internal: one request of hroe-gateway: hroe.dynamodb_text(p_operation, p_request) run as the role of the active access key p_access_key_id (SET ROLE for the call: the caller must be a member of it), in a security-restricted operation (no SET ROLE back, no deferred trigger), every setting it changed rolled back with the role when it returns; or DynamoDB''s UnrecognizedClientException body for an unknown or revoked key; called in a transaction of its own';
-- Distributed tables: a partition server must set connect_timeout (src/tables/partition.sql)
CREATE OR REPLACE FUNCTION hroe.partition_server_list() RETURNS name[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_servers name[];
	v_server name;
	v_options text[];
BEGIN
	SELECT coalesce(array_agg(trim(s)::name ORDER BY o), '{}') INTO v_servers
	FROM unnest(string_to_array(current_setting('hroe.partition_servers'), ',')) WITH ORDINALITY u(s, o)
	WHERE trim(s) <> '';
	FOREACH v_server IN ARRAY v_servers LOOP
		SELECT s.srvoptions INTO v_options
		FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
		WHERE s.srvname = v_server AND w.fdwname = 'postgres_fdw';
		IF NOT FOUND THEN
			RAISE EXCEPTION 'hroe.partition_servers names "%", which is not a postgres_fdw foreign server', v_server
				USING ERRCODE = 'undefined_object';
		END IF;
		-- hroe's operators and functions must be shipped, or no key
		-- condition reaches the partition (it would send its whole table)
		IF NOT EXISTS (SELECT FROM unnest(v_options) opt
					   WHERE opt LIKE 'extensions=%'
					   AND 'hroe' = ANY (string_to_array(replace(substr(opt, 12), ' ', ''), ','))) THEN
			RAISE EXCEPTION 'foreign server "%" must list hroe in its extensions option', v_server
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('ALTER SERVER %I OPTIONS (ADD extensions ''hroe'')', v_server);
		END IF;
		-- a server that stops answering must not hold a coordinator backend
		-- for ever: postgres_fdw and dblink connect with PostgreSQL 15's
		-- blocking libpq calls, which no statement_timeout interrupts
		IF NOT EXISTS (SELECT FROM unnest(v_options) opt
					   WHERE opt ~ '^connect_timeout=\s*[1-9][0-9]*\s*$') THEN
			RAISE EXCEPTION 'foreign server "%" must set connect_timeout', v_server
				USING ERRCODE = 'invalid_parameter_value',
					  DETAIL = 'Without it, a partition server that accepts connections but does not answer holds every backend that connects to it until it answers.',
					  HINT = format('ALTER SERVER %I OPTIONS (ADD connect_timeout ''10'')', v_server);
		END IF;
	END LOOP;
	IF cardinality(v_servers) <> (SELECT count(DISTINCT s) FROM unnest(v_servers) s) THEN
		RAISE EXCEPTION 'hroe.partition_servers names a server twice'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN v_servers;
END
$$;
COMMENT ON FUNCTION hroe.partition_server_list() IS
'internal: The foreign servers the setting hroe.partition_servers names (empty: tables are local), each checked to be a postgres_fdw server whose extensions option lists hroe and that sets connect_timeout';

-- CreateTable/UpdateTable: an INCLUDE projection without NonKeyAttributes gets
-- DynamoDB's text
CREATE OR REPLACE FUNCTION hroe.create_index(
	p_table_name text,
	p_index_name text,
	p_partition_key text[],
	p_sort_key text[] DEFAULT '{}',
	p_attribute_definitions jsonb DEFAULT '{}',
	p_projection text DEFAULT 'ALL',
	p_non_key_attributes text[] DEFAULT NULL,
	p_share_key_columns boolean DEFAULT false)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_keys text[];
	v_types text[] := '{}';
	v_cols name[] := '{}';
	v_attr text;
	v_type text;
	v_prefix text;
	v_col text;
	v_nprojected integer;
	v_index_rel text;
	v_sql text;
	v_pred text := '';
	v_check text := '';
	v_check_name name;
	v_schema name;
	v_sort boolean;
	i integer;
	v_defs text[];
	v_cols_all name[];
	v_collist text;
	v_width integer;
BEGIN
	PERFORM hroe.check_name(p_table_name, 'tableName');
	PERFORM hroe.check_name(p_index_name, 'globalSecondaryIndexUpdates.1.member.create.indexName');
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'Attempting to create an index which already exists');
	END IF;
	IF (SELECT count(*) FROM hroe.indexes WHERE table_name = p_table_name AND NOT local) >= 20 THEN
		PERFORM hroe.dynamodb_error('LimitExceededException',
			'One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20');
	END IF;

	-- key schema: 1-4 HASH then 0-4 RANGE attributes, all distinct (section 7)
	p_sort_key := coalesce(p_sort_key, '{}');
	IF coalesce(cardinality(p_partition_key), 0) = 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid KeySchema: The first KeySchemaElement is not a HASH key type');
	END IF;
	IF cardinality(p_partition_key) > 4 OR cardinality(p_sort_key) > 4 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: A global secondary index key schema can have at most 4 HASH and 4 RANGE attributes; IndexName: %s', p_index_name));
	END IF;
	v_keys := p_partition_key || p_sort_key;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		PERFORM hroe.check_attribute_name(v_keys[i], format('keySchema.%s.member.attributeName', i));
		IF v_keys[i] = ANY (v_keys[1:i - 1]) THEN
			IF cardinality(p_partition_key) = 1 AND cardinality(p_sort_key) = 1 THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					'Both the Hash Key and the Range Key element in the KeySchema have the same name');
			END IF;
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Duplicate attribute in KeySchema: %s; IndexName: %s', v_keys[i], p_index_name));
		END IF;
	END LOOP;

	-- attribute types: from p_attribute_definitions, or the table's key schema
	IF jsonb_typeof(coalesce(p_attribute_definitions, '{}')) <> 'object' THEN
		RAISE EXCEPTION 'p_attribute_definitions must be a JSON object of attribute name to type'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT coalesce(array_agg(k ORDER BY k), '{}') INTO v_defs
	FROM jsonb_object_keys(coalesce(p_attribute_definitions, '{}')) k;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		v_attr := v_keys[i];
		v_type := p_attribute_definitions ->> v_attr;
		IF v_attr = t.partition_key AND (v_type IS NULL OR v_type = t.partition_key_type) THEN
			v_type := t.partition_key_type;
		ELSIF v_attr = t.sort_key AND (v_type IS NULL OR v_type = t.sort_key_type) THEN
			v_type := t.sort_key_type;
		ELSIF v_attr IN (t.partition_key, t.sort_key) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Attribute %s is defined with type %s but the table key schema defines it as %s',
					   v_attr, v_type, CASE v_attr WHEN t.partition_key THEN t.partition_key_type ELSE t.sort_key_type END));
		ELSIF v_type IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]',
					   array_to_string(v_keys, ', '), array_to_string(v_defs, ', ')));
		END IF;
		PERFORM hroe.check_key_type(v_type, format('attributeDefinitions.%s.member.attributeType', i));
		v_types := v_types || v_type;
	END LOOP;
	FOR v_attr IN SELECT k FROM jsonb_object_keys(coalesce(p_attribute_definitions, '{}')) k LOOP
		IF NOT v_attr = ANY (v_keys) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions');
		END IF;
	END LOOP;

	-- projection; at most 100 projected non-key attributes across all indexes
	IF p_projection IS NULL OR p_projection NOT IN ('ALL', 'KEYS_ONLY', 'INCLUDE') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Unknown ProjectionType: %s', coalesce(p_projection, 'null')));
	END IF;
	IF p_projection <> 'INCLUDE' AND p_non_key_attributes IS NOT NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified', p_projection));
	END IF;
	IF p_projection = 'INCLUDE' THEN
		IF p_non_key_attributes IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: ProjectionType is INCLUDE, but NonKeyAttributes is not specified');
		END IF;
		IF cardinality(p_non_key_attributes) = 0 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: NonKeyAttributes must not be empty when ProjectionType is INCLUDE');
		END IF;
		FOR i IN 1 .. cardinality(p_non_key_attributes) LOOP
			PERFORM hroe.check_attribute_name(p_non_key_attributes[i], format('projection.nonKeyAttributes.%s.member', i));
			IF p_non_key_attributes[i] = ANY (p_non_key_attributes[1:i - 1]) THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('One or more parameter values were invalid: Duplicate NonKeyAttribute: %s', p_non_key_attributes[i]));
			END IF;
		END LOOP;
		SELECT count(DISTINCT a) INTO v_nprojected
		FROM (SELECT unnest(non_key_attributes) a FROM hroe.indexes WHERE table_name = p_table_name
			  UNION ALL SELECT unnest(p_non_key_attributes)) s;
		IF v_nprojected > 100 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Number of projected attributes in all indexes exceeds limit of 100, number of projected attributes: %s', v_nprojected));
		END IF;
	END IF;

	-- generated key columns.  With p_share_key_columns a key attribute that
	-- the table key or an earlier index already extracts reuses that column
	-- when its values are exactly this index's keys (see hroe.key_column_for);
	-- a new column is then named after its attribute, since several indexes
	-- may use it.  Otherwise (the default) each index gets its own columns,
	-- named after the index while that fits in NAMEDATALEN.
	IF p_share_key_columns THEN
		-- no write may store a key the reuse checks did not see before the
		-- key constraint below is in place
		EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', t.relid);
	END IF;
	v_prefix := p_index_name;
	IF octet_length(p_index_name) > 50 OR EXISTS (
		SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname LIKE p_index_name || '\_%') THEN
		v_prefix := 'gsi' || (SELECT count(*) + 1 FROM pg_attribute WHERE attrelid = t.relid AND attnum > 0);
	END IF;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		v_sort := i > cardinality(p_partition_key);
		v_col := NULL;
		IF p_share_key_columns THEN
			v_col := hroe.key_column_for(t.relid, t.partition_key, t.sort_key, v_keys[i], v_types[i], v_sort);
		END IF;
		IF v_col IS NULL THEN
			IF p_share_key_columns THEN
				v_col := lower(v_keys[i]);
				IF v_col !~ '^[a-z_][a-z0-9_]*$' OR octet_length(v_col) > 63 OR v_col IN ('pk', 'sk', 'item')
				   OR EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname = v_col) THEN
					v_col := NULL;
				END IF;
			END IF;
			v_col := coalesce(v_col, v_prefix || CASE WHEN v_sort THEN '_sk' || (i - cardinality(p_partition_key))
													  ELSE '_pk' || i END);
			EXECUTE format('ALTER TABLE %s ADD COLUMN %I %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, %L, %L)) STORED',
						   t.relid, v_col, hroe.key_column_type(v_types[i]), lower(v_types[i]), v_keys[i],
						   v_sort, p_index_name);
		END IF;
		v_cols := v_cols || v_col::name;
		-- (the table key columns are never NULL)
		IF v_col NOT IN ('pk', 'sk') THEN
			v_pred := v_pred || CASE WHEN v_pred <> '' THEN ' AND ' ELSE '' END || format('%I IS NOT NULL', v_col);
		END IF;
		v_check := v_check || CASE WHEN i > 1 THEN ' AND ' ELSE '' END
				   || format('hroe.check_index_key(item, %L, %L, %L, %L)', v_keys[i], v_types[i],
							 v_sort, p_index_name);
	END LOOP;
	-- The index's columns: keys, then the table key (unless a key column
	-- already is it) so equal index keys are ordered by table key
	-- (deterministic paging).  Its widest entry: a partition key column
	-- holds at most 256 bytes (its index form), a sort key column 1024, a
	-- number 32, so a single-attribute GSI's (HASH, RANGE, pk, sk) fits a
	-- btree entry (2704 bytes).  A multi-attribute GSI's may not: its
	-- constraint then checks each entry, so an item whose keys do not fit
	-- fails with a ValidationException rather than btree's error.
	v_cols_all := v_cols;
	v_width := 8;
	FOR i IN 1 .. cardinality(v_cols) LOOP
		v_width := v_width + CASE WHEN v_types[i] = 'N' THEN 32
								  WHEN v_cols[i] = 'sk' OR i > cardinality(p_partition_key) THEN 1028
								  ELSE 260 END;
	END LOOP;
	IF NOT 'pk' = ANY (v_cols) THEN
		v_cols_all := v_cols_all || 'pk'::name;
		v_width := v_width + CASE WHEN t.partition_key_type = 'N' THEN 32 ELSE 260 END;
	END IF;
	IF t.sort_key IS NOT NULL AND NOT 'sk' = ANY (v_cols) THEN
		v_cols_all := v_cols_all || 'sk'::name;
		v_width := v_width + CASE WHEN t.sort_key_type = 'N' THEN 32 ELSE 1028 END;
	END IF;
	v_collist := (SELECT string_agg(format('%I', c), ', ') FROM unnest(v_cols_all) c);
	IF v_width > 2704 THEN
		v_check := v_check || format(' AND hroe.check_index_entry(%L, %s)', p_index_name, v_collist);
	END IF;
	-- The key columns are NULL where an item violates the key schema (wrong
	-- type, empty, oversized), so the items already stored that do are left
	-- out of the index, as DynamoDB's backfill leaves out index key
	-- violations; a NOT VALID constraint skips them too, and rejects every
	-- later write that would store a violation, with DynamoDB's error.
	v_check_name := v_prefix || '_key_check';
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%s) NOT VALID', t.relid, v_check_name, v_check);

	-- the index on v_cols_all, partial, so it is sparse
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid WHERE c.oid = t.relid;
	v_index_rel := hroe.relation_name(format('%s.%s', p_table_name, p_index_name));
	IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_index_rel
			   AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
		v_index_rel := hroe.relation_name(format('%s.%s.%s', p_table_name, p_index_name, v_prefix));
	END IF;
	v_sql := format('CREATE INDEX %I ON %s (%s)', v_index_rel, t.relid, v_collist)
			 || CASE WHEN v_pred <> '' THEN ' WHERE ' || v_pred ELSE '' END;
	EXECUTE v_sql;
	EXECUTE format('COMMENT ON INDEX %I.%I IS %L', v_schema, v_index_rel,
				   format('DynamoDB global secondary index %s of %s (hroe)', p_index_name, p_table_name));
	INSERT INTO hroe.indexes (table_name, index_name, index_relname,
							  partition_key, partition_key_types, partition_key_columns,
							  sort_key, sort_key_types, sort_key_columns,
							  projection, non_key_attributes, key_check)
	VALUES (p_table_name, p_index_name, v_index_rel,
			p_partition_key, v_types[1:cardinality(p_partition_key)], v_cols[1:cardinality(p_partition_key)],
			p_sort_key, coalesce(v_types[cardinality(p_partition_key) + 1:], '{}'),
			coalesce(v_cols[cardinality(p_partition_key) + 1:], '{}'),
			p_projection, coalesce(p_non_key_attributes, '{}'), v_check_name);
	-- a distributed table: the same index on each server's partition (the
	-- same columns, as its table has this one's), which indexes its items
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid,
			format('SELECT hroe.create_index(%L, %L, %L, %L, %L, %L, %L, %L)::text', p_table_name, p_index_name,
				   p_partition_key, p_sort_key, p_attribute_definitions, p_projection, p_non_key_attributes,
				   p_share_key_columns));
	END IF;
	RETURN format('%I.%I', v_schema, v_index_rel)::regclass;
END
$$;
COMMENT ON FUNCTION hroe.create_index(text, text, text[], text[], jsonb, text, text[], boolean) IS
'UpdateTable Create GlobalSecondaryIndex: a sparse GSI with 1-4 HASH and 0-4 RANGE attributes (types in p_attribute_definitions, e.g. {"GSI1SK": "S"}, table key attributes default to the table''s types), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; existing items are indexed at once, except those violating the key schema (wrong type, empty, oversized: see hroe.index_key_violations), and every later write that would violate it is rejected (NOT VALID CHECK constraint); p_share_key_columns: reuse the table''s or another index''s generated column holding exactly the same keys (hroe.key_column_for) instead of adding one, and name a new column after its attribute; returns the PostgreSQL index';

-- Vector indexes and SearchVectors (issue #33, doc/vectors.md): hroe.vector_indexes,
-- the generated vector columns' functions, hroe.create_vector_index and its siblings,
-- hroe.search_vectors
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
	v_check text;
	v_check_name name;
	v_schema name;
	v_index_rel name;
	v_hash_col name;
	v_elem jsonb;
	v_attr text;
	v_kind text;
	v_type text;
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
	EXECUTE format('ALTER TABLE %s ADD COLUMN %I real[] GENERATED ALWAYS AS (hroe.item_vector(item, %L, %s)) STORED',
				   t.relid, v_vcol, p_vector_attribute, p_dimensions);
	v_check := format('hroe.check_vector(item, %L, %s, %L)', p_vector_attribute, p_dimensions, p_index_name);
	FOR i IN 1 .. coalesce(cardinality(v_attrs), 0) LOOP
		v_col := (v_prefix || '_s' || i)::name;
		EXECUTE format('ALTER TABLE %s ADD COLUMN %I %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, true, %L)) STORED',
					   t.relid, v_col, hroe.key_column_type(v_types[i]), lower(v_types[i]), v_attrs[i], p_index_name);
		v_cols := v_cols || v_col;
		v_check := v_check || format(' AND hroe.check_index_key(item, %L, %L, true, %L)', v_attrs[i], v_types[i], p_index_name);
		IF v_elems[i] = 'HASH' THEN
			v_hash_col := v_col;
		END IF;
	END LOOP;
	-- items already stored with an invalid vector stay out of the index (as
	-- a backfill skips them); every later write storing one is rejected
	v_check_name := (v_prefix || '_vector_check')::name;
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%s) NOT VALID', t.relid, v_check_name, v_check);
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid WHERE c.oid = t.relid;
	IF v_hash_col IS NOT NULL THEN
		v_index_rel := hroe.relation_name(format('%s.%s', p_table_name, p_index_name));
		IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_index_rel
				   AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
			v_index_rel := hroe.relation_name(format('%s.%s.%s', p_table_name, p_index_name, v_prefix));
		END IF;
		EXECUTE format('CREATE INDEX %I ON %s (%I) WHERE %I IS NOT NULL', v_index_rel, t.relid, v_hash_col, v_vcol);
		EXECUTE format('COMMENT ON INDEX %I.%I IS %L', v_schema, v_index_rel,
					   format('DynamoDB vector index %s of %s: its HASH element (hroe)', p_index_name, p_table_name));
	END IF;
	INSERT INTO hroe.vector_indexes (table_name, index_name, vector_attribute, dimensions, distance_function,
									 projection, non_key_attributes, search_attributes, search_element_types,
									 search_attribute_types, search_columns, vector_column, key_check,
									 index_relname, online)
	VALUES (p_table_name, p_index_name, p_vector_attribute, p_dimensions, p_distance_function,
			p_projection, coalesce(p_non_key_attributes, '{}'), v_attrs, v_elems, v_types, v_cols, v_vcol,
			v_check_name, v_index_rel, p_online);
END
$$;
COMMENT ON FUNCTION hroe.create_vector_index(text, text, text, integer, text, text, text[], jsonb, jsonb, boolean) IS
'CreateTable VectorIndexes and UpdateTable VectorIndexUpdates Create: a vector index on attribute p_vector_attribute (a list of p_dimensions numbers, 1-4096) searched under COSINE, EUCLIDEAN or DOT_PRODUCT distance, projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes, SearchSchema p_search_schema ([{"AttributeName": ..., "SearchSchemaElementType": "HASH" | "INLINE_FILTER"}], types from p_attribute_definitions or the table''s key schema); PAY_PER_REQUEST tables only, at most 5 per table; items already stored are indexed at once (those with invalid vectors left out), every later write storing an invalid vector is rejected; p_online: created by UpdateTable';

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
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	SELECT * INTO x FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	DELETE FROM hroe.vector_indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid;
	IF x.index_relname IS NOT NULL THEN
		EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.index_relname);
	END IF;
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid, x.key_check);
	FOREACH c IN ARRAY x.search_columns || x.vector_column LOOP
		EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, c);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.delete_vector_index(text, text) IS
'UpdateTable VectorIndexUpdates Delete: drops the vector index, its generated columns, its CHECK constraint and its btree index';

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
		-- exact up to 128 pages (1 MB), as the tables' statistics; beyond,
		-- PostgreSQL's estimate (the rows without NULL in the vector column),
		-- so that a waiter polling DescribeTable never scans a large table
		IF pg_relation_size(t.relid) <= 128 * current_setting('block_size')::bigint THEN
			EXECUTE format('SELECT count(*) FROM %s WHERE %I IS NOT NULL', t.relid, x.vector_column) INTO v_count;
		ELSE
			SELECT round(greatest(c.reltuples, 0) * (1 - coalesce(s.null_frac, 0)))::bigint INTO v_count
			FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			LEFT JOIN pg_stats s ON s.schemaname = n.nspname AND s.tablename = c.relname AND s.attname = x.vector_column
			WHERE c.oid = t.relid;
		END IF;
		v_index := jsonb_build_object(
			'IndexName', x.index_name,
			'IndexStatus', 'ACTIVE',
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
'internal: DescribeTable''s VectorIndexes of table p_table_name (NULL if it has none): name, status, vector attribute, dimensions, distance function, projection, SearchSchema, ARN, the count of the items the index holds (exact up to 128 pages, else PostgreSQL''s estimate) and the size of their f32 vectors';

CREATE FUNCTION hroe.search_vectors(p_table_name text, p_index_name text, p_vector real[],
	p_top_k integer DEFAULT 10, p_filter hroe.item DEFAULT NULL)
RETURNS TABLE (item hroe.item, score real)
AS 'MODULE_PATHNAME', 'hroe_search_vectors'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 10;
COMMENT ON FUNCTION hroe.search_vectors(text, text, real[], integer, hroe.item) IS
'SearchVectors: the p_top_k (1-100) items of table p_table_name nearest p_vector in its vector index p_index_name, nearest first, with their scores (COSINE: 0 identical .. 2 opposite; EUCLIDEAN: the distance; DOT_PRODUCT: the dot product, higher is nearer); p_filter: the SearchSchema attributes the items must equal (required for an index with a HASH element), as an item ({"tenant": {"S": "t1"}}); exact search under one snapshot; items as stored';
