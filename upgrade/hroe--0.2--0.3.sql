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

-- Table options (TableClass, SSESpecification, WarmThroughput) and Contributor
-- Insights (src/tables/table_options.sql), shown by hroe.table_description

--
-- A table's and a GSI's options beyond its keys and throughput
-- (src/tables/table_options.sql, src/api/api_settings.c): the table class
-- (TableClassSummary), server-side encryption (SSEDescription), warm
-- throughput (WarmThroughput), and Contributor Insights (whose counts are
-- kept in shared memory: src/tables/contributor_insights.c).  A table or
-- index without a row has the defaults: STANDARD, encrypted with an AWS
-- owned key (no SSEDescription), the default warm throughput, Contributor
-- Insights disabled.
--

CREATE TABLE hroe.table_options (
	table_name			text PRIMARY KEY REFERENCES hroe.tables ON DELETE CASCADE,
	table_class			text NOT NULL DEFAULT 'STANDARD'
		CHECK (table_class IN ('STANDARD', 'STANDARD_INFREQUENT_ACCESS')),
	-- TableClassSummary's LastUpdateDateTime (NULL: never given, no summary)
	table_class_updated_at timestamptz,
	-- the KMS key's ARN (NULL: an AWS owned key, no SSEDescription)
	sse_kms_key_arn		text,
	-- WarmThroughput asked for or set at creation (NULL: the default)
	warm_read_units		bigint CHECK (warm_read_units >= 1),
	warm_write_units	bigint CHECK (warm_write_units >= 1),
	-- Contributor Insights: its mode (NULL: disabled), last change
	contributor_insights_mode text
		CHECK (contributor_insights_mode IN ('ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS')),
	contributor_insights_at timestamptz
);
COMMENT ON TABLE hroe.table_options IS 'The options of DynamoDB tables beyond their keys and throughput: table class (and when it was set), the KMS key of server-side encryption (NULL: an AWS owned key), the warm throughput asked for, Contributor Insights'' mode (NULL: disabled) and last change; a table without a row has the defaults';

CREATE TABLE hroe.index_options (
	table_name			text NOT NULL,
	index_name			text NOT NULL,
	warm_read_units		bigint CHECK (warm_read_units >= 1),
	warm_write_units	bigint CHECK (warm_write_units >= 1),
	contributor_insights_mode text
		CHECK (contributor_insights_mode IN ('ACCESSED_AND_THROTTLED_KEYS', 'THROTTLED_KEYS')),
	contributor_insights_at timestamptz,
	PRIMARY KEY (table_name, index_name),
	FOREIGN KEY (table_name, index_name) REFERENCES hroe.indexes ON DELETE CASCADE
);
COMMENT ON TABLE hroe.index_options IS 'The options of secondary indexes: a GSI''s warm throughput asked for, Contributor Insights'' mode (NULL: disabled) and last change; an index without a row has the defaults';

-- (row-level security: only the owner of a table writes its options)
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.table_options, hroe.index_options TO PUBLIC;
ALTER TABLE hroe.table_options ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.table_options FORCE ROW LEVEL SECURITY;
CREATE POLICY table_options_read ON hroe.table_options FOR SELECT USING (true);
COMMENT ON POLICY table_options_read ON hroe.table_options IS 'The options are readable by every role';
CREATE POLICY table_options_owner ON hroe.table_options FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY table_options_owner ON hroe.table_options IS 'A role sets only the options of a table it owns';
ALTER TABLE hroe.index_options ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.index_options FORCE ROW LEVEL SECURITY;
CREATE POLICY index_options_read ON hroe.index_options FOR SELECT USING (true);
COMMENT ON POLICY index_options_read ON hroe.index_options IS 'The options are readable by every role';
CREATE POLICY index_options_owner ON hroe.index_options FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY index_options_owner ON hroe.index_options IS 'A role sets only the options of the indexes of a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.table_options',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = table_options.table_name)');
SELECT pg_catalog.pg_extension_config_dump('hroe.index_options',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = index_options.table_name)');

-- The ARN of a KMS key named by id, ARN, alias name or alias ARN (NULL: the
-- AWS managed key aws/dynamodb of the account and region)
CREATE FUNCTION hroe.kms_key_arn(p_key text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE
	WHEN p_key LIKE 'arn:%' THEN p_key
	WHEN p_key LIKE 'alias/%' THEN pg_catalog.format('arn:aws:kms:%s:%s:%s',
		pg_catalog.current_setting('hroe.region'), pg_catalog.current_setting('hroe.account_id'), p_key)
	ELSE pg_catalog.format('arn:aws:kms:%s:%s:key/%s',
		pg_catalog.current_setting('hroe.region'), pg_catalog.current_setting('hroe.account_id'),
		coalesce(p_key, pg_catalog.md5(pg_catalog.format('aws/dynamodb:%s:%s',
			pg_catalog.current_setting('hroe.region'), pg_catalog.current_setting('hroe.account_id')))::uuid::text))
	END;
COMMENT ON FUNCTION hroe.kms_key_arn(text) IS
'internal: SSEDescription''s KMSMasterKeyArn of the KMSMasterKeyId p_key: an ARN as it is, an alias name as its ARN, a key id as arn:aws:kms:<hroe.region>:<hroe.account_id>:key/<id>; NULL: the AWS managed key (aws/dynamodb), one stable id per account and region';

-- The warm throughput a table or GSI has: what was asked for, at least
-- the provisioned throughput, else DynamoDB's default of a new on-demand
-- table or index (12,000 reads, 4,000 writes per second)
CREATE FUNCTION hroe.warm_throughput(p_warm_read bigint, p_warm_write bigint,
									 p_read_capacity_units bigint, p_write_capacity_units bigint,
									 p_billing_mode text)
RETURNS bigint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY[GREATEST(coalesce(p_warm_read,
										  CASE WHEN p_billing_mode = 'PAY_PER_REQUEST' THEN 12000 END),
								 p_read_capacity_units, 1),
			 GREATEST(coalesce(p_warm_write,
										  CASE WHEN p_billing_mode = 'PAY_PER_REQUEST' THEN 4000 END),
								 p_write_capacity_units, 1)];
COMMENT ON FUNCTION hroe.warm_throughput(bigint, bigint, bigint, bigint, text) IS
'internal: The warm throughput [reads, writes per second] of a table or GSI: the values asked for (p_warm_read, p_warm_write; NULL: DynamoDB''s default of a new on-demand table or index, 12000 and 4000), never below its provisioned throughput';

-- A TableDescription with the table's options (hroe.table_description's)
CREATE FUNCTION hroe.with_table_options(p_description jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	o hroe.table_options;
	v_warm bigint[];
	v_gsis jsonb := '[]';
	v_gsi jsonb;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_description ->> 'TableName';
	IF NOT FOUND THEN
		RETURN p_description;
	END IF;
	SELECT * INTO o FROM hroe.table_options WHERE table_name = t.table_name;
	v_warm := hroe.warm_throughput(o.warm_read_units, o.warm_write_units,
								   t.read_capacity_units, t.write_capacity_units, t.billing_mode);
	FOR v_gsi IN SELECT * FROM jsonb_array_elements(p_description -> 'GlobalSecondaryIndexes') LOOP
		SELECT v_gsi || jsonb_build_object('WarmThroughput', jsonb_build_object(
				'ReadUnitsPerSecond', w[1], 'WriteUnitsPerSecond', w[2],
				'Status', coalesce(v_gsi ->> 'IndexStatus', 'ACTIVE')))
		INTO v_gsi
		FROM hroe.indexes x
		LEFT JOIN hroe.index_options io USING (table_name, index_name),
		LATERAL hroe.warm_throughput(io.warm_read_units, io.warm_write_units,
									 x.read_capacity_units, x.write_capacity_units, t.billing_mode) w
		WHERE x.table_name = t.table_name AND x.index_name = v_gsi ->> 'IndexName';
		v_gsis := v_gsis || jsonb_build_array(v_gsi);
	END LOOP;
	RETURN p_description
		|| CASE WHEN v_gsis <> '[]' THEN jsonb_build_object('GlobalSecondaryIndexes', v_gsis) ELSE '{}' END
		|| jsonb_strip_nulls(jsonb_build_object(
			'TableClassSummary', CASE WHEN o.table_class_updated_at IS NOT NULL
									  THEN jsonb_build_object('TableClass', o.table_class,
															  'LastUpdateDateTime', EXTRACT(epoch FROM o.table_class_updated_at)) END,
			'SSEDescription', CASE WHEN o.sse_kms_key_arn IS NOT NULL
								   THEN jsonb_build_object('Status', 'ENABLED', 'SSEType', 'KMS',
														   'KMSMasterKeyArn', o.sse_kms_key_arn) END,
			'WarmThroughput', jsonb_build_object('ReadUnitsPerSecond', v_warm[1],
												 'WriteUnitsPerSecond', v_warm[2],
												 'Status', coalesce(p_description ->> 'TableStatus', 'ACTIVE'))));
END
$$;
COMMENT ON FUNCTION hroe.with_table_options(jsonb) IS
'internal: The TableDescription p_description with its table''s options: TableClassSummary (once a table class was given), SSEDescription (a KMS key: Status ENABLED, SSEType KMS, KMSMasterKeyArn), WarmThroughput of the table (its Status the TableStatus) and of each GSI (its Status the IndexStatus)';

-- Contributor Insights (the counts: hroe.contributor_insights, src/tables/contributor_insights.c)

-- The status and mode of Contributor Insights of a table or index (raises
-- ResourceNotFoundException for an unknown one)
CREATE FUNCTION hroe.contributor_insights_state(p_table_name text, p_index_name text,
												OUT mode text, OUT changed_at timestamptz,
												OUT has_sort_key boolean)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF p_index_name IS NULL THEN
		SELECT o.contributor_insights_mode, o.contributor_insights_at INTO mode, changed_at
		FROM hroe.table_options o WHERE o.table_name = p_table_name;
		has_sort_key := t.sort_key IS NOT NULL;
		RETURN;
	END IF;
	SELECT * INTO x FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	SELECT o.contributor_insights_mode, o.contributor_insights_at INTO mode, changed_at
	FROM hroe.index_options o WHERE o.table_name = p_table_name AND o.index_name = p_index_name;
	has_sort_key := cardinality(x.sort_key) > 0;
END
$$;
COMMENT ON FUNCTION hroe.contributor_insights_state(text, text) IS
'internal: Contributor Insights of table p_table_name (p_index_name NULL) or of its index: the mode (NULL: disabled), when it last changed, whether the table or index has a sort key; ResourceNotFoundException if there is no such table or index';

CREATE FUNCTION hroe.describe_contributor_insights(p_table_name text, p_index_name text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	s record;
	v_resource text := p_table_name || coalesce('-' || p_index_name, '');
	v_ms text;
	v_rules jsonb := '[]';
BEGIN
	SELECT * INTO s FROM hroe.contributor_insights_state(p_table_name, p_index_name);
	IF s.mode IS NOT NULL THEN
		v_ms := (floor(EXTRACT(epoch FROM s.changed_at) * 1000))::bigint::text;
		-- DynamoDB's CloudWatch rule names: accessed (C) and throttled (T)
		-- partition keys (PK), and partition and sort keys (SK)
		SELECT jsonb_agg(format('DynamoDBContributorInsights-%s-%s-%s', r, v_resource, v_ms) ORDER BY o)
		INTO v_rules
		FROM (VALUES (1, 'PKC'), (2, 'PKT'), (3, 'SKC'), (4, 'SKT')) k(o, r)
		WHERE (r NOT LIKE '%C' OR s.mode = 'ACCESSED_AND_THROTTLED_KEYS')
			  AND (r NOT LIKE 'SK%' OR s.has_sort_key);
	END IF;
	RETURN jsonb_strip_nulls(jsonb_build_object(
		'TableName', p_table_name,
		'IndexName', p_index_name,
		'ContributorInsightsRuleList', CASE WHEN s.mode IS NOT NULL THEN v_rules END,
		'ContributorInsightsStatus', CASE WHEN s.mode IS NULL THEN 'DISABLED' ELSE 'ENABLED' END,
		'LastUpdateDateTime', EXTRACT(epoch FROM s.changed_at),
		'ContributorInsightsMode', s.mode));
END
$$;
COMMENT ON FUNCTION hroe.describe_contributor_insights(text, text) IS
'DescribeContributorInsights: the status (ENABLED, DISABLED) of Contributor Insights of table p_table_name (p_index_name NULL) or of its index, its mode, last change, and the names DynamoDB gives its CloudWatch rules (DynamoDBContributorInsights-PKC/PKT/SKC/SKT-<table>[-<index>]-<milliseconds>)';

CREATE FUNCTION hroe.list_contributor_insights(p_table_name text DEFAULT NULL, p_max_results integer DEFAULT 100,
											   p_next_token text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_after text[];
	v_rows jsonb;
	v_n integer;
	v_last_table text;
	v_last_index text;
BEGIN
	IF p_next_token IS NOT NULL THEN
		BEGIN
			SELECT array_agg(e ORDER BY o) INTO v_after
			FROM jsonb_array_elements_text(convert_from(decode(p_next_token, 'base64'), 'UTF8')::jsonb)
				 WITH ORDINALITY u(e, o);
		EXCEPTION WHEN OTHERS THEN
			v_after := NULL;
		END;
		IF cardinality(v_after) IS DISTINCT FROM 2 THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid NextToken');
		END IF;
	END IF;
	WITH c AS (
		SELECT o.table_name, NULL::text AS index_name, ''::text AS sort_name, o.contributor_insights_mode AS mode
		FROM hroe.table_options o WHERE o.contributor_insights_at IS NOT NULL
		UNION ALL
		SELECT o.table_name, o.index_name, o.index_name, o.contributor_insights_mode
		FROM hroe.index_options o WHERE o.contributor_insights_at IS NOT NULL
	), page AS (
		SELECT * FROM c
		WHERE (p_table_name IS NULL OR c.table_name = p_table_name)
			  AND (v_after IS NULL
				   OR (c.table_name COLLATE "C", c.sort_name COLLATE "C") > (v_after[1] COLLATE "C", v_after[2] COLLATE "C"))
		ORDER BY c.table_name COLLATE "C", c.sort_name COLLATE "C"
		LIMIT p_max_results + 1
	), numbered AS (
		SELECT page.*, row_number() OVER (ORDER BY table_name COLLATE "C", sort_name COLLATE "C") AS n FROM page
	)
	SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
				'TableName', table_name, 'IndexName', index_name,
				'ContributorInsightsStatus', CASE WHEN mode IS NULL THEN 'DISABLED' ELSE 'ENABLED' END,
				'ContributorInsightsMode', mode)) ORDER BY n) FILTER (WHERE n <= p_max_results),
		   max(n),
		   max(table_name) FILTER (WHERE n = p_max_results),
		   max(sort_name) FILTER (WHERE n = p_max_results)
	INTO v_rows, v_n, v_last_table, v_last_index
	FROM numbered;
	RETURN jsonb_build_object('ContributorInsightsSummaries', coalesce(v_rows, '[]'))
		|| CASE WHEN v_n > p_max_results
				THEN jsonb_build_object('NextToken',
					 translate(encode(convert_to(jsonb_build_array(v_last_table, v_last_index)::text, 'UTF8'), 'base64'), E'\n', ''))
				ELSE '{}' END;
END
$$;
COMMENT ON FUNCTION hroe.list_contributor_insights(text, integer, text) IS
'ListContributorInsights: the tables and indexes whose Contributor Insights was ever enabled (of table p_table_name, or all), with status and mode, by table and index name, at most p_max_results a page; NextToken (p_next_token) continues after the last one';

-- The counts of Contributor Insights (shared memory: src/tables/contributor_insights.c)
CREATE FUNCTION hroe.contributor_insights_counts(p_relid oid, p_index_name text, p_since timestamptz,
												 OUT kind text, OUT access text, OUT throttled boolean,
												 OUT key text, OUT key_truncated boolean,
												 OUT count bigint, OUT error bigint, OUT window_start timestamptz)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'hroe_contributor_insights_counts'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.contributor_insights_counts(oid, text, timestamptz) IS
'internal: The per-minute counters of Contributor Insights kept in shared memory for PostgreSQL table p_relid (p_index_name NULL) or its index, from minute p_since on';

CREATE FUNCTION hroe.contributor_insights(p_table_name text, p_index_name text DEFAULT NULL,
										  p_since timestamptz DEFAULT pg_catalog.now() - interval '1 hour',
										  p_limit integer DEFAULT 10,
										  OUT kind text, OUT access text, OUT throttled boolean,
										  OUT key text, OUT key_truncated boolean,
										  OUT count bigint, OUT error bigint,
										  OUT window_start timestamptz, OUT window_end timestamptz)
RETURNS SETOF record
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.contributor_insights_state(p_table_name, p_index_name);
	RETURN QUERY
	SELECT s.kind, s.access, s.throttled, s.key, s.key_truncated, s.count, s.error, s.window_start, s.window_end
	FROM (SELECT c.kind, c.access, c.throttled, c.key, bool_or(c.key_truncated) AS key_truncated,
				 sum(c.count)::bigint AS count, sum(c.error)::bigint AS error,
				 min(c.window_start) AS window_start, max(c.window_start) + interval '1 minute' AS window_end,
				 row_number() OVER (PARTITION BY c.kind, c.access, c.throttled
									ORDER BY sum(c.count) DESC, c.key) AS rank
		  FROM hroe.contributor_insights_counts(t.relid, p_index_name, p_since) c
		  GROUP BY c.kind, c.access, c.throttled, c.key) s
	WHERE s.rank <= p_limit
	ORDER BY s.kind, s.access, s.throttled, s.rank;
END
$$;
COMMENT ON FUNCTION hroe.contributor_insights(text, text, timestamptz, integer) IS
'Contributor Insights of table p_table_name (p_index_name NULL) or of its index since p_since (default the last hour): per kind (partition_key, partition_sort_key), access (read, write) and throttled, each key (DynamoDB JSON; key_truncated: only its first 200 bytes are shown) with its number of accesses (count; error: by how much it may be overstated, when the bounded counters replaced another key''s), most accessed first. Counted while Contributor Insights is enabled (UpdateContributorInsights) and hroe is in shared_preload_libraries; kept in shared memory for 24 hours, lost on a restart';

COMMENT ON FUNCTION hroe.table_description(text, text, text, text) IS
'DynamoDB''s TableDescription of table p_table_name, with TableStatus p_table_status and IndexStatus p_index_status for GSI p_index_name (NULL: every GSI; a GSI named CREATING also shows Backfilling), else ACTIVE: key schema, attribute definitions, ARN, TableId, creation time, billing mode, provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, ARN, item count, size of the index entries) and the item count and DynamoDB size of the table (hroe.table_statistics: exact for a small table, else as of the last hroe.refresh_table_statistics, as DynamoDB refreshes them about every six hours); also names the PostgreSQL table and indexes (PostgresTable, PostgresIndex)';

-- On-demand backups (issue #32): CreateBackup, DescribeBackup, ListBackups,
-- DeleteBackup, RestoreTableFromBackup (src/api/backup.sql), and the
-- exceptions they raise (HR012-HR016, src/base/errors.c); hroe.dynamodb_error
-- as 0.3 has it, with the exceptions of the blocks below too (HR017-HR031)

--
-- On-demand backups (src/api/backup.sql, src/api/api_backup.c): CreateBackup,
-- DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup
-- (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/BackupRestore.html).
--
-- A backup is a copy of a table's items taken by one INSERT ... SELECT, so
-- at one snapshot: every committed transaction whole, none in progress, and
-- no lock but the ACCESS SHARE any reader takes (test/specs/backup_snapshot.spec).
-- Its catalog row keeps the source table's description (key schema,
-- attribute definitions, indexes, billing, stream and Time to Live
-- settings; not its tags, as in DynamoDB), so that a restore rebuilds the
-- table even after the source was deleted; DeleteTable leaves its backups.
-- Both tables are hroe's, dumped by pg_dump and replicated with the
-- database.  Every function runs as its caller: making a backup reads the
-- table with the caller's privileges (and its row-level security), and a
-- backup is, under forced row-level security, seen, restored and deleted
-- only by the role that made it and the roles that have its privileges
-- (pg_has_role USAGE); a role that may not read a table can neither back
-- it up nor read a backup another role made of it.
--

CREATE TABLE hroe.backups (
	backup_id			uuid PRIMARY KEY DEFAULT pg_catalog.gen_random_uuid(),
	-- <table ARN>/backup/<creation time in ms, 14 digits>-<8 hex digits>
	backup_arn			text NOT NULL UNIQUE,
	backup_name			text NOT NULL
		CHECK (backup_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	owner				regrole NOT NULL
		DEFAULT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)),
	table_name			text NOT NULL,
	created_at			timestamptz NOT NULL,
	-- the source table as DescribeTable described it
	description			jsonb NOT NULL,
	-- BillingMode, StreamViewType (absent: no stream), TimeToLive {AttributeName, Enabled}
	features			jsonb NOT NULL,
	item_count			bigint NOT NULL DEFAULT 0,
	size_bytes			bigint NOT NULL DEFAULT 0
);
CREATE INDEX backups_table ON hroe.backups (table_name, created_at);
CREATE INDEX backups_created ON hroe.backups (created_at, backup_arn);
COMMENT ON TABLE hroe.backups IS 'On-demand backups (CreateBackup): ARN, name, the role that made it (owner), the source table''s name and description as of the backup, its billing mode, stream and Time to Live settings, item count and DynamoDB size; under row-level security a role sees and writes only the backups of roles whose privileges it has';
ALTER TABLE hroe.backups ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.backups FORCE ROW LEVEL SECURITY;
CREATE POLICY own_backups ON hroe.backups
	USING (pg_catalog.pg_has_role(owner, 'USAGE'))
	WITH CHECK (pg_catalog.pg_has_role(owner, 'USAGE'));
COMMENT ON POLICY own_backups ON hroe.backups IS 'A role sees, makes and deletes only its own backups and those of roles whose privileges it has';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.backups TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.backups', '');

CREATE TABLE hroe.backup_items (
	backup_id			uuid NOT NULL REFERENCES hroe.backups ON DELETE CASCADE,
	item				hroe.item NOT NULL
);
CREATE INDEX backup_items_backup ON hroe.backup_items (backup_id);
COMMENT ON TABLE hroe.backup_items IS 'The items of each on-demand backup (hroe.backups), as of the backup''s snapshot; under row-level security a role sees and writes only the items of the backups it sees';
ALTER TABLE hroe.backup_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.backup_items FORCE ROW LEVEL SECURITY;
CREATE POLICY own_backup_items ON hroe.backup_items
	USING (backup_id OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT b.backup_id FROM hroe.backups b)))
	WITH CHECK (backup_id OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT b.backup_id FROM hroe.backups b)));
COMMENT ON POLICY own_backup_items ON hroe.backup_items IS 'A role sees and writes only the items of the backups it sees (hroe.backups'' policy)';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.backup_items TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.backup_items', '');

-- RestoreSummary of the tables restored from a backup (DescribeTable)
CREATE TABLE hroe.table_restores (
	table_name			text PRIMARY KEY REFERENCES hroe.tables ON DELETE CASCADE,
	source_backup_arn	text NOT NULL,
	source_table_arn	text NOT NULL,
	restored_at			timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE hroe.table_restores IS 'The tables restored from a backup: the backup''s and its source table''s ARNs, when (DescribeTable''s RestoreSummary); readable by every role, written only by the table''s owner';
ALTER TABLE hroe.table_restores ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.table_restores FORCE ROW LEVEL SECURITY;
CREATE POLICY table_restores_read ON hroe.table_restores FOR SELECT USING (true);
COMMENT ON POLICY table_restores_read ON hroe.table_restores IS 'The metadata is readable by every role';
CREATE POLICY table_restores_owner ON hroe.table_restores FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY table_restores_owner ON hroe.table_restores IS 'A role records and deletes only the restores of a table it owns';
GRANT SELECT, INSERT, DELETE ON hroe.table_restores TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.table_restores', '');

-- DynamoDB's ValidationException of the constraints a request's members
-- failed (each "Value ... at 'member' failed to satisfy constraint: ...")
CREATE FUNCTION hroe.backup_validation(p_errors text[])
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF cardinality(p_errors) > 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('%s validation error%s detected: %s', cardinality(p_errors),
				   CASE WHEN cardinality(p_errors) > 1 THEN 's' ELSE '' END,
				   array_to_string(p_errors, '; ')));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.backup_validation(text[]) IS
'internal: Raises DynamoDB''s ValidationException listing the failed constraints p_errors (nothing when empty)';

-- The constraints a name (a table's or a backup's) fails: 3 to 255 of [a-zA-Z0-9_.-]
CREATE FUNCTION hroe.backup_name_errors(p_value text, p_member text)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
	WHEN p_value IS NULL THEN
		ARRAY[pg_catalog.format('Value null at ''%s'' failed to satisfy constraint: Member must not be null', p_member)]
	ELSE
		CASE WHEN pg_catalog.length(p_value) OPERATOR(pg_catalog.<) 3
			 THEN ARRAY[pg_catalog.format('Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length greater than or equal to 3', p_value, p_member)]
			 WHEN pg_catalog.length(p_value) OPERATOR(pg_catalog.>) 255
			 THEN ARRAY[pg_catalog.format('Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length less than or equal to 255', p_value, p_member)]
			 ELSE '{}'::text[] END
		OPERATOR(pg_catalog.||)
		CASE WHEN p_value OPERATOR(pg_catalog.!~) '^[a-zA-Z0-9_.-]+$'
			 THEN ARRAY[pg_catalog.format('Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+', p_value, p_member)]
			 ELSE '{}'::text[] END
	END;
COMMENT ON FUNCTION hroe.backup_name_errors(text, text) IS
'internal: The DynamoDB constraints name p_value (request member p_member) fails: not null, length 3 to 255, pattern [a-zA-Z0-9_.-]+';

-- The constraints a BackupArn fails: 37 to 1024 characters
CREATE FUNCTION hroe.backup_arn_errors(p_value text)
RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE
	WHEN p_value IS NULL THEN
		ARRAY['Value null at ''backupArn'' failed to satisfy constraint: Member must not be null']
	WHEN pg_catalog.length(p_value) OPERATOR(pg_catalog.<) 37 THEN
		ARRAY[pg_catalog.format('Value ''%s'' at ''backupArn'' failed to satisfy constraint: Member must have length greater than or equal to 37', p_value)]
	WHEN pg_catalog.length(p_value) OPERATOR(pg_catalog.>) 1024 THEN
		ARRAY[pg_catalog.format('Value ''%s'' at ''backupArn'' failed to satisfy constraint: Member must have length less than or equal to 1024', p_value)]
	ELSE '{}'::text[] END;
COMMENT ON FUNCTION hroe.backup_arn_errors(text) IS
'internal: The DynamoDB constraints a BackupArn p_value fails: not null, length 37 to 1024';

-- The backup the caller sees with ARN p_backup_arn (BackupNotFoundException
-- otherwise); p_lock: 'share' (a restore) or 'update' (a deletion), taken
-- without waiting (BackupInUseException)
CREATE FUNCTION hroe.backup_find(p_backup_arn text, p_lock text DEFAULT NULL)
RETURNS hroe.backups
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	b hroe.backups;
BEGIN
	PERFORM hroe.backup_validation(hroe.backup_arn_errors(p_backup_arn));
	BEGIN
		IF p_lock = 'share' THEN
			SELECT * INTO b FROM hroe.backups WHERE backup_arn OPERATOR(pg_catalog.=) p_backup_arn FOR SHARE NOWAIT;
		ELSIF p_lock = 'update' THEN
			SELECT * INTO b FROM hroe.backups WHERE backup_arn OPERATOR(pg_catalog.=) p_backup_arn FOR UPDATE NOWAIT;
		ELSE
			SELECT * INTO b FROM hroe.backups WHERE backup_arn OPERATOR(pg_catalog.=) p_backup_arn;
		END IF;
	EXCEPTION WHEN lock_not_available THEN
		PERFORM hroe.dynamodb_error('BackupInUseException',
			format('Backup is being used by another operation: %s', p_backup_arn));
	END;
	IF b.backup_id IS NULL THEN
		PERFORM hroe.dynamodb_error('BackupNotFoundException',
			format('Backup not found for the given BackupARN: %s', p_backup_arn));
	END IF;
	RETURN b;
END
$$;
COMMENT ON FUNCTION hroe.backup_find(text, text) IS
'internal: The backup with ARN p_backup_arn the caller sees (else BackupNotFoundException), row-locked FOR SHARE (p_lock share) or FOR UPDATE (update) without waiting (else BackupInUseException)';

-- BackupDescription of backup b with status p_status
CREATE FUNCTION hroe.backup_description(b hroe.backups, p_status text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	d jsonb := b.description;
	v_features jsonb;
BEGIN
	v_features := jsonb_strip_nulls(jsonb_build_object(
		'LocalSecondaryIndexes',
			(SELECT jsonb_agg(jsonb_build_object('IndexName', x->'IndexName', 'KeySchema', x->'KeySchema',
												 'Projection', x->'Projection'))
			 FROM jsonb_array_elements(d->'LocalSecondaryIndexes') x),
		'GlobalSecondaryIndexes',
			(SELECT jsonb_agg(jsonb_build_object('IndexName', x->'IndexName', 'KeySchema', x->'KeySchema',
												 'Projection', x->'Projection',
												 'ProvisionedThroughput', jsonb_build_object(
													 'ReadCapacityUnits', x->'ProvisionedThroughput'->'ReadCapacityUnits',
													 'WriteCapacityUnits', x->'ProvisionedThroughput'->'WriteCapacityUnits')))
			 FROM jsonb_array_elements(d->'GlobalSecondaryIndexes') x),
		'StreamDescription',
			CASE WHEN b.features ? 'StreamViewType'
				 THEN jsonb_build_object('StreamEnabled', true, 'StreamViewType', b.features->'StreamViewType') END,
		'TimeToLiveDescription',
			CASE WHEN b.features->'TimeToLive' IS NOT NULL
				 THEN jsonb_build_object('TimeToLiveStatus',
										 CASE WHEN (b.features->'TimeToLive'->>'Enabled')::boolean THEN 'ENABLED' ELSE 'DISABLED' END,
										 'AttributeName', b.features->'TimeToLive'->'AttributeName')
				 ELSE jsonb_build_object('TimeToLiveStatus', 'DISABLED') END));
	RETURN jsonb_build_object(
		'BackupDetails', hroe.backup_details(b, p_status),
		'SourceTableDetails', jsonb_strip_nulls(jsonb_build_object(
			'TableName', b.table_name,
			'TableId', d->'TableId',
			'TableArn', d->'TableArn',
			'TableSizeBytes', b.size_bytes,
			'KeySchema', d->'KeySchema',
			'TableCreationDateTime', d->'CreationDateTime',
			'ProvisionedThroughput', jsonb_build_object(
				'ReadCapacityUnits', d->'ProvisionedThroughput'->'ReadCapacityUnits',
				'WriteCapacityUnits', d->'ProvisionedThroughput'->'WriteCapacityUnits'),
			'ItemCount', b.item_count,
			'BillingMode', b.features->'BillingMode')),
		'SourceTableFeatureDetails', v_features);
END
$$;
COMMENT ON FUNCTION hroe.backup_description(hroe.backups, text) IS
'internal: DynamoDB''s BackupDescription of backup b with BackupStatus p_status: BackupDetails, SourceTableDetails (name, id, ARN, key schema, creation time, throughput, billing mode, the backup''s item count and size), SourceTableFeatureDetails (indexes, stream, Time to Live)';

CREATE FUNCTION hroe.describe_backup(p_backup_arn text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN hroe.backup_description(hroe.backup_find(p_backup_arn), 'AVAILABLE');
END
$$;
COMMENT ON FUNCTION hroe.describe_backup(text) IS
'DescribeBackup: DynamoDB''s BackupDescription of the backup with ARN p_backup_arn (BackupDetails, SourceTableDetails, SourceTableFeatureDetails); BackupNotFoundException for a backup that does not exist or that the caller may not see';

CREATE FUNCTION hroe.delete_backup(p_backup_arn text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	b hroe.backups := hroe.backup_find(p_backup_arn, 'update');
BEGIN
	DELETE FROM hroe.backup_items WHERE backup_id = b.backup_id;
	DELETE FROM hroe.backups WHERE backup_id = b.backup_id;
	RETURN hroe.backup_description(b, 'DELETED');
END
$$;
COMMENT ON FUNCTION hroe.delete_backup(text) IS
'DeleteBackup: deletes the backup with ARN p_backup_arn and returns its BackupDescription (BackupStatus DELETED); BackupNotFoundException for one that does not exist or that the caller may not see, BackupInUseException while a restore from it runs';
-- OnDemandThroughput and DynamoDB's throttling (src/tables/throttle.sql)
ALTER TABLE hroe.tables
	ADD COLUMN max_read_request_units bigint CHECK (max_read_request_units >= 1),
	ADD COLUMN max_write_request_units bigint CHECK (max_write_request_units >= 1),
	ADD COLUMN throttling boolean NOT NULL DEFAULT false;
ALTER TABLE hroe.indexes
	ADD COLUMN max_read_request_units bigint CHECK (max_read_request_units >= 1),
	ADD COLUMN max_write_request_units bigint CHECK (max_write_request_units >= 1);

-- The OnDemandThroughput member of a table or GSI description
CREATE FUNCTION hroe.on_demand_throughput_description(p_max_read_request_units bigint,
													  p_max_write_request_units bigint)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN p_max_read_request_units IS NOT NULL OR p_max_write_request_units IS NOT NULL
			THEN pg_catalog.jsonb_build_object(
				'MaxReadRequestUnits', coalesce(p_max_read_request_units, -1),
				'MaxWriteRequestUnits', coalesce(p_max_write_request_units, -1)) END;
COMMENT ON FUNCTION hroe.on_demand_throughput_description(bigint, bigint) IS
'internal: DynamoDB''s OnDemandThroughput description of a table or GSI: its maximum read and write request units per second, -1 for a dimension without maximum; NULL when neither has one (the member is then left out)';

-- CreateTable's and UpdateTable's OnDemandThroughput
CREATE FUNCTION hroe.set_on_demand_throughput(p_table_name text, p_index_name text,
											  p_max_read_request_units bigint,
											  p_max_write_request_units bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_mode text;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	IF p_max_read_request_units < 1 AND p_max_read_request_units <> -1 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: MaxReadRequestUnits must be greater than or equal to 1, or -1 to remove the maximum (%s)', p_max_read_request_units));
	END IF;
	IF p_max_write_request_units < 1 AND p_max_write_request_units <> -1 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: MaxWriteRequestUnits must be greater than or equal to 1, or -1 to remove the maximum (%s)', p_max_write_request_units));
	END IF;
	SELECT billing_mode INTO v_mode FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF v_mode = 'PROVISIONED' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Neither MaxReadRequestUnits nor MaxWriteRequestUnits can be specified when BillingMode is PROVISIONED');
	END IF;
	-- NULL: unchanged; -1: no maximum
	IF p_index_name IS NULL THEN
		UPDATE hroe.tables
		SET max_read_request_units = CASE WHEN p_max_read_request_units IS NULL THEN max_read_request_units
										  WHEN p_max_read_request_units = -1 THEN NULL
										  ELSE p_max_read_request_units END,
			max_write_request_units = CASE WHEN p_max_write_request_units IS NULL THEN max_write_request_units
										   WHEN p_max_write_request_units = -1 THEN NULL
										   ELSE p_max_write_request_units END
		WHERE table_name = p_table_name;
	ELSE
		UPDATE hroe.indexes
		SET max_read_request_units = CASE WHEN p_max_read_request_units IS NULL THEN max_read_request_units
										  WHEN p_max_read_request_units = -1 THEN NULL
										  ELSE p_max_read_request_units END,
			max_write_request_units = CASE WHEN p_max_write_request_units IS NULL THEN max_write_request_units
										   WHEN p_max_write_request_units = -1 THEN NULL
										   ELSE p_max_write_request_units END
		WHERE table_name = p_table_name AND index_name = p_index_name AND NOT local;
		IF NOT FOUND THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Index: %s not found', p_index_name));
		END IF;
	END IF;
	PERFORM hroe.throttle_settings_changed(relid) FROM hroe.tables WHERE table_name = p_table_name;
END
$$;
COMMENT ON FUNCTION hroe.set_on_demand_throughput(text, text, bigint, bigint) IS
'OnDemandThroughput of table p_table_name (p_index_name NULL) or of its GSI p_index_name, as CreateTable and UpdateTable set it: the most read and write request units per second (NULL: unchanged, -1: no maximum), only on a PAY_PER_REQUEST table; enforced only where hroe.set_throttling turned throttling on';

-- Every backend reads a table's throttling settings again (at commit)
CREATE FUNCTION hroe.throttle_settings_changed(p_relid regclass) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_throttle_settings_changed'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.throttle_settings_changed(regclass) IS
'internal: Makes every backend read the throttling settings of the DynamoDB table stored in p_relid again, from the commit on (a relcache invalidation); called by hroe.set_throttling and hroe.set_on_demand_throughput';

-- The per-table switch of DynamoDB's throttling
CREATE FUNCTION hroe.set_throttling(p_table_name text, p_enabled boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	UPDATE hroe.tables SET throttling = p_enabled WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.throttle_settings_changed(relid) FROM hroe.tables WHERE table_name = p_table_name;
END
$$;
COMMENT ON FUNCTION hroe.set_throttling(text, boolean) IS
'Turns DynamoDB''s throttling of table p_table_name on or off (off by default; its owner only): once on, requests past its OnDemandThroughput maximum, its provisioned capacity (with up to 300 s of unused capacity banked as burst) or a partition key''s 3,000 read / 1,000 write units per second are refused as DynamoDB refuses them (doc/throttling.md). The setting hroe.throttling = all applies the rules to every table';

-- (describes OnDemandThroughput)
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
																	 x.last_increase_at, x.last_decrease_at, x.decreases_today),
				'OnDemandThroughput', CASE WHEN t.billing_mode = 'PAY_PER_REQUEST'
										   THEN hroe.on_demand_throughput_description(x.max_read_request_units, x.max_write_request_units) END);
			-- a GSI UpdateTable creates is backfilled once it is CREATING
			IF v_changing AND x.index_name = p_index_name AND p_index_status = 'CREATING' THEN
				v_index := v_index || jsonb_build_object('Backfilling', false);
			END IF;
			v_gsis := v_gsis || jsonb_build_array(v_index);
		END IF;
	END LOOP;
	-- (the table class, encryption, warm throughput: hroe.with_table_options)
	RETURN hroe.with_table_options(jsonb_strip_nulls(jsonb_build_object(
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
		'OnDemandThroughput', CASE WHEN t.billing_mode = 'PAY_PER_REQUEST'
								   THEN hroe.on_demand_throughput_description(t.max_read_request_units, t.max_write_request_units) END,
		'PostgresTable', t.relid::text)));
END
$$;

-- Exports and imports (ExportTableToPointInTime, ImportTable; src/transfer/transfer.sql)

--
-- Export to and import from S3, with S3 a directory of the server
-- (src/transfer/transfer.sql, transfer_*.c; doc/transfer.md):
-- ExportTableToPointInTime, DescribeExport, ListExports, ImportTable,
-- DescribeImport, ListImports.  A request records its job and starts a
-- background worker that writes (or reads) the files; DescribeExport and
-- DescribeImport show its progress.
--

CREATE TABLE hroe.exports (
	job_id				bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
	export_arn			text PRIMARY KEY,
	table_name			text NOT NULL,
	table_arn			text NOT NULL,
	requested_by		oid NOT NULL,
	client_token		text,
	request				jsonb NOT NULL,
	export_status		text NOT NULL DEFAULT 'IN_PROGRESS'
		CHECK (export_status IN ('IN_PROGRESS', 'COMPLETED', 'FAILED')),
	export_type			text NOT NULL CHECK (export_type IN ('FULL_EXPORT', 'INCREMENTAL_EXPORT')),
	export_format		text NOT NULL CHECK (export_format IN ('DYNAMODB_JSON', 'ION')),
	s3_bucket			text NOT NULL,
	s3_prefix			text,
	s3_bucket_owner		text,
	s3_sse_algorithm	text,
	s3_sse_kms_key_id	text,
	start_time			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	end_time			timestamptz,
	export_time			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	item_count			bigint NOT NULL DEFAULT 0,
	billed_size_bytes	bigint NOT NULL DEFAULT 0,
	export_manifest		text,
	failure_code		text,
	failure_message		text
);
COMMENT ON TABLE hroe.exports IS 'Table exports (ExportTableToPointInTime): one row per export, its request, status and figures; a role sees and requests only its own (row level security); hroe''s export worker, not the role, updates the status';
GRANT SELECT, INSERT ON hroe.exports TO PUBLIC;
ALTER TABLE hroe.exports ENABLE ROW LEVEL SECURITY;
CREATE POLICY exports_own ON hroe.exports FOR SELECT USING (pg_catalog.pg_has_role(requested_by, 'USAGE'));
COMMENT ON POLICY exports_own ON hroe.exports IS 'A role sees the exports it (or a role it has the privileges of) requested';
CREATE POLICY exports_request ON hroe.exports FOR INSERT
	WITH CHECK (requested_by OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) current_user)
				AND export_status OPERATOR(pg_catalog.=) 'IN_PROGRESS');
COMMENT ON POLICY exports_request ON hroe.exports IS 'A role records only exports in its own name, in progress';
ALTER TABLE hroe.exports FORCE ROW LEVEL SECURITY;
COMMENT ON SEQUENCE hroe.exports_job_id_seq IS 'internal: The exports'' job numbers, which their workers are started with';

CREATE TABLE hroe.imports (
	job_id				bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
	import_arn			text PRIMARY KEY,
	table_name			text NOT NULL,
	table_arn			text NOT NULL,
	requested_by		oid NOT NULL,
	client_token		text,
	request				jsonb NOT NULL,
	import_status		text NOT NULL DEFAULT 'IN_PROGRESS'
		CHECK (import_status IN ('IN_PROGRESS', 'COMPLETED', 'CANCELLING', 'CANCELLED', 'FAILED')),
	input_format		text NOT NULL CHECK (input_format IN ('DYNAMODB_JSON', 'ION', 'CSV')),
	input_compression_type text NOT NULL CHECK (input_compression_type IN ('GZIP', 'ZSTD', 'NONE')),
	input_format_options jsonb,
	s3_bucket			text NOT NULL,
	s3_key_prefix		text,
	s3_bucket_owner		text,
	table_creation_parameters jsonb NOT NULL,
	start_time			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	end_time			timestamptz,
	processed_size_bytes bigint NOT NULL DEFAULT 0,
	processed_item_count bigint NOT NULL DEFAULT 0,
	imported_item_count	bigint NOT NULL DEFAULT 0,
	error_count			bigint NOT NULL DEFAULT 0,
	failure_code		text,
	failure_message		text
);
COMMENT ON TABLE hroe.imports IS 'Table imports (ImportTable): one row per import, its request, status and figures; a role sees and requests only its own (row level security); hroe''s import worker, not the role, updates the status';
GRANT SELECT, INSERT ON hroe.imports TO PUBLIC;
ALTER TABLE hroe.imports ENABLE ROW LEVEL SECURITY;
CREATE POLICY imports_own ON hroe.imports FOR SELECT USING (pg_catalog.pg_has_role(requested_by, 'USAGE'));
COMMENT ON POLICY imports_own ON hroe.imports IS 'A role sees the imports it (or a role it has the privileges of) requested';
CREATE POLICY imports_request ON hroe.imports FOR INSERT
	WITH CHECK (requested_by OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) current_user)
				AND import_status OPERATOR(pg_catalog.=) 'IN_PROGRESS');
COMMENT ON POLICY imports_request ON hroe.imports IS 'A role records only imports in its own name, in progress';
ALTER TABLE hroe.imports FORCE ROW LEVEL SECURITY;
COMMENT ON SEQUENCE hroe.imports_job_id_seq IS 'internal: The imports'' job numbers, which their workers are started with';

-- The C side: the bucket's checks, the worker's start
CREATE FUNCTION hroe.s3_check_bucket(p_bucket text, p_prefix text, p_write boolean) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_s3_check_bucket'
LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.s3_check_bucket(text, text, boolean) IS
'internal: Raises an error unless hroe.s3_root is set, p_bucket is a valid S3 bucket name whose directory exists under it, key prefix p_prefix (NULL: none) holds no "." or ".." component, and the current role may write (p_write: a member of hroe_export or pg_write_server_files) or read (a member of hroe_import or pg_read_server_files) the server''s files there';

CREATE FUNCTION hroe.transfer_start(p_kind text, p_job_id bigint) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_transfer_start'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transfer_start(text, bigint) IS
'internal: Starts the background worker of export or import p_job_id (p_kind ''export'' or ''import''), which the current role requested in the current transaction; the worker waits for the transaction to commit';

CREATE FUNCTION hroe.describe_export(p_export_arn text) RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_row hroe.exports;
BEGIN
	IF p_export_arn IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''exportArn'' failed to satisfy constraint: Member must not be null');
	END IF;
	SELECT * INTO v_row FROM hroe.exports WHERE export_arn = p_export_arn;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ExportNotFoundException', format('Export not found: %s', p_export_arn));
	END IF;
	RETURN jsonb_build_object('ExportDescription', hroe.export_description(v_row));
END
$$;
COMMENT ON FUNCTION hroe.describe_export(text) IS
'DescribeExport: an export of the caller''s, its status (IN_PROGRESS, COMPLETED, FAILED), ItemCount, BilledSizeBytes, ExportManifest, times; ExportNotFoundException for another role''s or an unknown ARN. Returns {"ExportDescription": ...}';

CREATE FUNCTION hroe.list_exports(p_table_arn text DEFAULT NULL, p_max_results integer DEFAULT NULL,
								  p_next_token text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_list jsonb;
	v_last text;
	v_more boolean;
BEGIN
	IF p_max_results < 1 OR p_max_results > 25 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''maxResults'' failed to satisfy constraint: Member must have value %s',
				   p_max_results, CASE WHEN p_max_results < 1 THEN 'greater than or equal to 1' ELSE 'less than or equal to 25' END));
	END IF;
	WITH page AS (
		SELECT e.* FROM hroe.exports e
		WHERE (p_table_arn IS NULL OR e.table_arn = p_table_arn)
		  AND (p_next_token IS NULL OR e.export_arn > p_next_token)
		ORDER BY e.export_arn LIMIT coalesce(p_max_results, 25) + 1)
	SELECT coalesce(jsonb_agg(jsonb_build_object('ExportArn', p.export_arn, 'ExportStatus', p.export_status,
												 'ExportType', p.export_type) ORDER BY p.export_arn)
						FILTER (WHERE p.n <= coalesce(p_max_results, 25)), '[]'),
		   max(p.export_arn) FILTER (WHERE p.n <= coalesce(p_max_results, 25)),
		   count(*) > coalesce(p_max_results, 25)
	INTO v_list, v_last, v_more
	FROM (SELECT page.*, row_number() OVER (ORDER BY page.export_arn) AS n FROM page) p;
	RETURN jsonb_strip_nulls(jsonb_build_object('ExportSummaries', v_list,
												'NextToken', CASE WHEN v_more THEN v_last END));
END
$$;
COMMENT ON FUNCTION hroe.list_exports(text, integer, text) IS
'ListExports: the caller''s exports (of table p_table_arn, or all), p_max_results (1 to 25, default 25) a page, by ARN, with NextToken when more follow. Returns {"ExportSummaries": [...], "NextToken": ...}';

-- The ImportTableDescription of an import
CREATE FUNCTION hroe.import_description(i hroe.imports) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'ImportArn', i.import_arn,
	'ImportStatus', i.import_status,
	'TableArn', i.table_arn,
	'TableId', (SELECT t.relid::oid::text FROM hroe.tables t WHERE t.table_name OPERATOR(pg_catalog.=) i.table_name),
	'ClientToken', i.client_token,
	'S3BucketSource', pg_catalog.jsonb_build_object('S3Bucket', i.s3_bucket, 'S3KeyPrefix', i.s3_key_prefix,
												   'S3BucketOwner', i.s3_bucket_owner),
	'ErrorCount', i.error_count,
	'InputFormat', i.input_format,
	'InputFormatOptions', i.input_format_options,
	'InputCompressionType', i.input_compression_type,
	'TableCreationParameters', i.table_creation_parameters,
	'StartTime', EXTRACT(epoch FROM i.start_time),
	'EndTime', EXTRACT(epoch FROM i.end_time),
	'ProcessedSizeBytes', i.processed_size_bytes,
	'ProcessedItemCount', i.processed_item_count,
	'ImportedItemCount', i.imported_item_count,
	'FailureCode', i.failure_code,
	'FailureMessage', i.failure_message));
COMMENT ON FUNCTION hroe.import_description(hroe.imports) IS
'internal: DynamoDB''s ImportTableDescription of an import';

CREATE FUNCTION hroe.describe_import(p_import_arn text) RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_row hroe.imports;
BEGIN
	IF p_import_arn IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''importArn'' failed to satisfy constraint: Member must not be null');
	END IF;
	SELECT * INTO v_row FROM hroe.imports WHERE import_arn = p_import_arn;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ImportNotFoundException', format('Import not found: %s', p_import_arn));
	END IF;
	RETURN jsonb_build_object('ImportTableDescription', hroe.import_description(v_row));
END
$$;
COMMENT ON FUNCTION hroe.describe_import(text) IS
'DescribeImport: an import of the caller''s, its status (IN_PROGRESS, COMPLETED, FAILED), ProcessedItemCount, ImportedItemCount, ErrorCount, ProcessedSizeBytes, FailureCode and FailureMessage; ImportNotFoundException for another role''s or an unknown ARN. Returns {"ImportTableDescription": ...}';

CREATE FUNCTION hroe.list_imports(p_table_arn text DEFAULT NULL, p_page_size integer DEFAULT NULL,
								  p_next_token text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_list jsonb;
	v_last text;
	v_more boolean;
BEGIN
	IF p_page_size < 1 OR p_page_size > 25 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''pageSize'' failed to satisfy constraint: Member must have value %s',
				   p_page_size, CASE WHEN p_page_size < 1 THEN 'greater than or equal to 1' ELSE 'less than or equal to 25' END));
	END IF;
	WITH page AS (
		SELECT i.* FROM hroe.imports i
		WHERE (p_table_arn IS NULL OR i.table_arn = p_table_arn)
		  AND (p_next_token IS NULL OR i.import_arn > p_next_token)
		ORDER BY i.import_arn LIMIT coalesce(p_page_size, 25) + 1)
	SELECT coalesce(jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
				'ImportArn', p.import_arn, 'ImportStatus', p.import_status, 'TableArn', p.table_arn,
				'S3BucketSource', jsonb_build_object('S3Bucket', p.s3_bucket, 'S3KeyPrefix', p.s3_key_prefix,
													 'S3BucketOwner', p.s3_bucket_owner),
				'InputFormat', p.input_format, 'StartTime', EXTRACT(epoch FROM p.start_time),
				'EndTime', EXTRACT(epoch FROM p.end_time))) ORDER BY p.import_arn)
						FILTER (WHERE p.n <= coalesce(p_page_size, 25)), '[]'),
		   max(p.import_arn) FILTER (WHERE p.n <= coalesce(p_page_size, 25)),
		   count(*) > coalesce(p_page_size, 25)
	INTO v_list, v_last, v_more
	FROM (SELECT page.*, row_number() OVER (ORDER BY page.import_arn) AS n FROM page) p;
	RETURN jsonb_strip_nulls(jsonb_build_object('ImportSummaryList', v_list,
												'NextToken', CASE WHEN v_more THEN v_last END));
END
$$;
COMMENT ON FUNCTION hroe.list_imports(text, integer, text) IS
'ListImports: the caller''s imports (into table p_table_arn, or all), p_page_size (1 to 25, default 25) a page, by ARN, with NextToken when more follow. Returns {"ImportSummaryList": [...], "NextToken": ...}';

-- ---------------------------------------------------------------------
-- Resource-based policies (issue #32): PutResourcePolicy,
-- GetResourcePolicy, DeleteResourcePolicy; src/tables/policy.sql
-- ---------------------------------------------------------------------

-- the IAM user name of an access key's requests
ALTER TABLE hroe.access_keys ADD COLUMN principal_name text
	CHECK (principal_name ~ '^[A-Za-z0-9_+=,.@-]{1,64}$');
COMMENT ON TABLE hroe.access_keys IS 'Access keys of hroe-gateway: an AWS-style access key id, its secret (a credential: readable by the owner and by the gateway''s login role only), the PostgreSQL role its requests run as, and when it was created and revoked (a revoked key is refused from the next request on; the gateway caches secrets for a few seconds, every backend the keys it read until the table changes), and the IAM user name its requests have in resource-based policies (principal arn:aws:iam::<hroe.account_id>:user/<principal_name>, NULL for the role''s name)';
DROP FUNCTION hroe.create_access_key(regrole, text, text);
CREATE FUNCTION hroe.create_access_key(
	p_role regrole,
	p_access_key_id text DEFAULT NULL,
	p_secret text DEFAULT NULL,
	p_principal_name text DEFAULT NULL,
	OUT access_key_id text,
	OUT secret_access_key text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_role IS NULL THEN
		RAISE EXCEPTION 'an access key needs a role' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- generated from gen_random_uuid() (strong random): a 20-character id
	-- beginning HROE, a 40-character hexadecimal secret
	access_key_id := coalesce(p_access_key_id,
		'HROE' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)));
	secret_access_key := coalesce(p_secret, substr(replace(
		gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 40));
	INSERT INTO hroe.access_keys (access_key_id, secret, role, principal_name)
		VALUES (access_key_id, secret_access_key, p_role, p_principal_name);
END
$$;
COMMENT ON FUNCTION hroe.create_access_key(regrole, text, text, text) IS
'Creates an access key of hroe-gateway whose requests run as p_role: the given or a generated access key id (20 characters) and secret (40 characters); returns the pair. p_principal_name: the IAM user name of its requests in resource-based policies (arn:aws:iam::<hroe.account_id>:user/<name>; NULL: the role''s name). Needs INSERT on hroe.access_keys (the extension owner has it)';

--
-- Resource-based policies (PutResourcePolicy, GetResourcePolicy,
-- DeleteResourcePolicy; src/tables/tables_policy.c enforces them)
--
-- A table's policy applies to the table and its indexes; its stream has a
-- policy of its own.  hroe enforces a policy's explicit Deny statements on
-- every request of the JSON API (hroe.dynamodb and both HTTP front ends):
-- PostgreSQL's privileges stay the authority, so an Allow never widens
-- what they grant, and a policy can only narrow it.
--

CREATE TABLE hroe.resource_policies (
	table_name	text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	-- '' for the table's policy, else the StreamLabel of its stream's
	stream_label text NOT NULL DEFAULT '',
	policy		text NOT NULL,
	-- DynamoDB's RevisionId: a numeric string, changed by each put
	revision_id	text NOT NULL CHECK (revision_id ~ '^[0-9]{1,20}$'),
	PRIMARY KEY (table_name, stream_label)
);
COMMENT ON TABLE hroe.resource_policies IS 'The resource-based policies of DynamoDB tables (stream_label '''') and of their streams (PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy): readable by every role, as hroe.tables; under row-level security only a member of the role owning a table writes its policies';
ALTER TABLE hroe.resource_policies ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.resource_policies FORCE ROW LEVEL SECURITY;
CREATE POLICY resource_policies_read ON hroe.resource_policies FOR SELECT USING (true);
COMMENT ON POLICY resource_policies_read ON hroe.resource_policies IS 'Policies are metadata, readable by every role, as hroe.tables: each request of every role is checked against them';
CREATE POLICY resource_policies_owner ON hroe.resource_policies FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY resource_policies_owner ON hroe.resource_policies IS 'Only a member of the role owning a table''s PostgreSQL table attaches, changes or deletes its policies';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.resource_policies TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.resource_policies',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = resource_policies.table_name)');

-- The statement trigger of the extension's tables that backends cache
-- (hroe.resource_policies, hroe.access_keys): a write invalidates the table's
-- relation cache entry, so every backend forgets what it read at the start
-- of its next transaction after the commit (src/base/catalog.c)
CREATE FUNCTION hroe.table_changed() RETURNS trigger
AS 'MODULE_PATHNAME', 'hroe_table_changed'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.table_changed() IS
'internal: statement trigger of hroe.resource_policies and hroe.access_keys: invalidates every backend''s cache of the table (a relation cache invalidation of it, sent at commit)';

-- Each backend caches the policies (tables_policy.c): any change to them
-- invalidates every backend's cache at commit
CREATE TRIGGER resource_policies_changed
	AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hroe.resource_policies
	FOR EACH STATEMENT EXECUTE FUNCTION hroe.table_changed();
ALTER TABLE hroe.resource_policies ENABLE ALWAYS TRIGGER resource_policies_changed;
COMMENT ON TRIGGER resource_policies_changed ON hroe.resource_policies IS
'Invalidates every backend''s cache of the resource-based policies when the table changes (hroe.table_changed)';

-- IAM's wildcards: * any run of characters, ? one character
CREATE FUNCTION hroe.iam_matches(p_pattern text, p_value text, p_ignore_case boolean)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN p_ignore_case
	THEN pg_catalog.lower(p_value) OPERATOR(pg_catalog.~) ('^' OPERATOR(pg_catalog.||) pg_catalog.replace(pg_catalog.replace(
		pg_catalog.regexp_replace(pg_catalog.lower(p_pattern), '([.+^$(){}|\[\]\\])', '\\\1', 'g'),
		'*', '.*'), '?', '.') OPERATOR(pg_catalog.||) '$')
	ELSE p_value OPERATOR(pg_catalog.~) ('^' OPERATOR(pg_catalog.||) pg_catalog.replace(pg_catalog.replace(
		pg_catalog.regexp_replace(p_pattern, '([.+^$(){}|\[\]\\])', '\\\1', 'g'),
		'*', '.*'), '?', '.') OPERATOR(pg_catalog.||) '$') END;
COMMENT ON FUNCTION hroe.iam_matches(text, text, boolean) IS
'internal: Whether p_value matches the IAM pattern p_pattern (* any run of characters, ? any one; every other character itself), ignoring case if p_ignore_case';

-- A policy element that is a string or an array of strings, as an array
CREATE FUNCTION hroe.iam_strings(p_value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE pg_catalog.jsonb_typeof(p_value)
	WHEN 'string' THEN ARRAY[p_value OPERATOR(pg_catalog.->>) 0]
	WHEN 'array' THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(p_value))
	ELSE NULL END;
COMMENT ON FUNCTION hroe.iam_strings(jsonb) IS
'internal: A policy element that is a string or an array of strings, as an array of them (NULL for any other JSON)';

-- Check a policy document as DynamoDB does; returns it parsed
CREATE FUNCTION hroe.check_resource_policy(p_policy text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_doc jsonb;
	v_statements jsonb;
	v_st jsonb;
	v_key text;
	v_op text;
	v_cond jsonb;
	v_n integer := 0;
BEGIN
	-- DynamoDB: at most 20 KB, whitespace counted
	IF octet_length(p_policy) > 20480 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Resource-based policy document size %s bytes exceeds the maximum of 20480 bytes', octet_length(p_policy)));
	END IF;
	BEGIN
		v_doc := p_policy::jsonb;
	EXCEPTION WHEN invalid_text_representation OR untranslatable_character THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: the policy is not valid JSON');
	END;
	IF jsonb_typeof(v_doc) <> 'object' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: the policy must be a JSON object');
	END IF;
	FOR v_key IN SELECT jsonb_object_keys(v_doc) LOOP
		IF v_key NOT IN ('Version', 'Id', 'Statement') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: unknown element %s', v_key));
		END IF;
	END LOOP;
	IF v_doc ? 'Version' AND (v_doc->>'Version') IS DISTINCT FROM '2012-10-17'
	   AND (v_doc->>'Version') IS DISTINCT FROM '2008-10-17' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Version must be 2012-10-17 or 2008-10-17');
	END IF;
	v_statements := v_doc->'Statement';
	IF v_statements IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Statement is missing');
	END IF;
	IF jsonb_typeof(v_statements) = 'object' THEN
		v_statements := jsonb_build_array(v_statements);
	ELSIF jsonb_typeof(v_statements) <> 'array' OR jsonb_array_length(v_statements) = 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Statement must be an object or a non-empty array of objects');
	END IF;
	FOR v_st IN SELECT jsonb_array_elements(v_statements) LOOP
		v_n := v_n + 1;
		IF jsonb_typeof(v_st) <> 'object' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s is not an object', v_n));
		END IF;
		FOR v_key IN SELECT jsonb_object_keys(v_st) LOOP
			IF v_key NOT IN ('Sid', 'Effect', 'Principal', 'NotPrincipal', 'Action', 'NotAction',
							 'Resource', 'NotResource', 'Condition') THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid policy document: unknown element %s in Statement %s', v_key, v_n));
			END IF;
		END LOOP;
		IF v_st ? 'Sid' AND jsonb_typeof(v_st->'Sid') <> 'string' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Sid of Statement %s must be a string', v_n));
		END IF;
		IF (v_st->>'Effect') IS DISTINCT FROM 'Allow' AND (v_st->>'Effect') IS DISTINCT FROM 'Deny' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Effect of Statement %s must be Allow or Deny', v_n));
		END IF;
		IF (v_st ? 'Principal') = (v_st ? 'NotPrincipal') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Principal or NotPrincipal', v_n));
		END IF;
		IF (v_st ? 'Action') = (v_st ? 'NotAction') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Action or NotAction', v_n));
		END IF;
		IF (v_st ? 'Resource') = (v_st ? 'NotResource') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Resource or NotResource', v_n));
		END IF;
		IF hroe.iam_strings(coalesce(v_st->'Action', v_st->'NotAction')) IS NULL
		   OR hroe.iam_strings(coalesce(v_st->'Resource', v_st->'NotResource')) IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Action and Resource of Statement %s must be strings or arrays of strings', v_n));
		END IF;
		-- Principal: "*" or an object of AWS, Service, Federated or
		-- CanonicalUser principals, each a string or an array of strings
		v_cond := coalesce(v_st->'Principal', v_st->'NotPrincipal');
		IF NOT (v_cond = '"*"'::jsonb OR (jsonb_typeof(v_cond) = 'object' AND v_cond <> '{}'::jsonb
				AND NOT EXISTS (SELECT FROM jsonb_each(v_cond) e
								WHERE e.key NOT IN ('AWS', 'Service', 'Federated', 'CanonicalUser')
								   OR hroe.iam_strings(e.value) IS NULL))) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Principal of Statement %s must be "*" or an object of AWS, Service, Federated or CanonicalUser principals', v_n));
		END IF;
		-- Condition: {"Operator": {"key": value or [values]}}
		IF v_st ? 'Condition' THEN
			IF jsonb_typeof(v_st->'Condition') <> 'object' THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid policy document: Condition of Statement %s must be an object', v_n));
			END IF;
			FOR v_op, v_cond IN SELECT key, value FROM jsonb_each(v_st->'Condition') LOOP
				IF regexp_replace(regexp_replace(v_op, '^For(AnyValue|AllValues):', ''), 'IfExists$', '')
				   NOT IN ('StringEquals', 'StringNotEquals', 'StringEqualsIgnoreCase', 'StringNotEqualsIgnoreCase',
						   'StringLike', 'StringNotLike', 'NumericEquals', 'NumericNotEquals', 'NumericLessThan',
						   'NumericLessThanEquals', 'NumericGreaterThan', 'NumericGreaterThanEquals',
						   'DateEquals', 'DateNotEquals', 'DateLessThan', 'DateLessThanEquals',
						   'DateGreaterThan', 'DateGreaterThanEquals', 'Bool', 'BinaryEquals',
						   'IpAddress', 'NotIpAddress', 'ArnEquals', 'ArnLike', 'ArnNotEquals', 'ArnNotLike', 'Null')
				   OR jsonb_typeof(v_cond) <> 'object' THEN
					PERFORM hroe.dynamodb_error('ValidationException',
						format('Invalid policy document: unknown condition operator %s in Statement %s', v_op, v_n));
				END IF;
				IF EXISTS (SELECT FROM jsonb_each(v_cond) e
						   WHERE jsonb_typeof(e.value) NOT IN ('string', 'number', 'boolean', 'array')) THEN
					PERFORM hroe.dynamodb_error('ValidationException',
						format('Invalid policy document: the values of condition operator %s in Statement %s must be strings or arrays of strings', v_op, v_n));
				END IF;
			END LOOP;
		END IF;
	END LOOP;
	RETURN v_doc;
END
$$;
COMMENT ON FUNCTION hroe.check_resource_policy(text) IS
'internal: Checks a resource-based policy document as PutResourcePolicy does (at most 20480 bytes, JSON, Version 2012-10-17 or 2008-10-17, Statement: an object or a non-empty array of them, each with Effect Allow or Deny, Principal or NotPrincipal, Action or NotAction, Resource or NotResource, an optional Sid and Condition in IAM''s grammar), a ValidationException if not; returns it parsed';

-- Whether a policy explicitly denies principal p_principal (an IAM ARN)
-- action p_action (dynamodb:...) on resource p_resource (an ARN)
CREATE FUNCTION hroe.resource_policy_denies(p_policy jsonb, p_principal text, p_action text, p_resource text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_statements jsonb := p_policy->'Statement';
	v_st jsonb;
	v_account text := split_part(p_principal, ':', 5);
	v_principals jsonb;
	v_match boolean;
	v_op text;
	v_base text;
	v_keys jsonb;
	v_key text;
	v_values text[];
	v_actual text;
	v_cond boolean;
BEGIN
	IF jsonb_typeof(v_statements) = 'object' THEN
		v_statements := jsonb_build_array(v_statements);
	END IF;
	FOR v_st IN SELECT s FROM jsonb_array_elements(v_statements) s WHERE s->>'Effect' = 'Deny' LOOP
		-- the principal: "*", {"AWS": "*"}, the account (its id or its
		-- root ARN) or the principal's ARN itself
		v_principals := coalesce(v_st->'Principal', v_st->'NotPrincipal');
		v_match := v_principals = '"*"'::jsonb OR EXISTS (
			SELECT FROM unnest(hroe.iam_strings(v_principals->'AWS')) p
			WHERE p IN ('*', p_principal, v_account, format('arn:aws:iam::%s:root', v_account)));
		IF v_st ? 'NotPrincipal' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- the action, its case ignored
		v_match := EXISTS (SELECT FROM unnest(hroe.iam_strings(coalesce(v_st->'Action', v_st->'NotAction'))) a
						   WHERE hroe.iam_matches(a, p_action, true));
		IF v_st ? 'NotAction' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- the resource, its case kept
		v_match := EXISTS (SELECT FROM unnest(hroe.iam_strings(coalesce(v_st->'Resource', v_st->'NotResource'))) r
						   WHERE hroe.iam_matches(r, p_resource, false));
		IF v_st ? 'NotResource' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- every condition holds.  The request's context has the keys
		-- aws:PrincipalArn and aws:PrincipalAccount; as in IAM, a condition
		-- on a key the context lacks is false (the Deny does not apply),
		-- but with ...IfExists it is true, and Null tests the absence
		IF v_st ? 'Condition' THEN
			FOR v_op, v_keys IN SELECT key, value FROM jsonb_each(v_st->'Condition') LOOP
				v_base := regexp_replace(regexp_replace(v_op, '^For(AnyValue|AllValues):', ''), 'IfExists$', '');
				FOR v_key IN SELECT jsonb_object_keys(v_keys) LOOP
					v_values := CASE jsonb_typeof(v_keys->v_key)
									WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(v_keys->v_key))
									ELSE ARRAY[v_keys->>v_key] END;
					v_actual := CASE lower(v_key)
									WHEN 'aws:principalarn' THEN p_principal
									WHEN 'aws:principalaccount' THEN v_account END;
					v_cond := CASE
						WHEN v_base = 'Null' THEN
							(v_actual IS NULL) = ('true' = ANY (v_values))
						WHEN v_actual IS NULL THEN
							v_op LIKE '%IfExists'
						WHEN v_base IN ('StringEquals', 'ArnEquals') THEN v_actual = ANY (v_values)
						WHEN v_base IN ('StringNotEquals', 'ArnNotEquals') THEN NOT (v_actual = ANY (v_values))
						WHEN v_base = 'StringEqualsIgnoreCase' THEN lower(v_actual) = ANY (SELECT lower(x) FROM unnest(v_values) x)
						WHEN v_base = 'StringNotEqualsIgnoreCase' THEN NOT (lower(v_actual) = ANY (SELECT lower(x) FROM unnest(v_values) x))
						WHEN v_base IN ('StringLike', 'ArnLike') THEN
							EXISTS (SELECT FROM unnest(v_values) x WHERE hroe.iam_matches(x, v_actual, false))
						WHEN v_base IN ('StringNotLike', 'ArnNotLike') THEN
							NOT EXISTS (SELECT FROM unnest(v_values) x WHERE hroe.iam_matches(x, v_actual, false))
						-- numbers, dates, booleans, addresses of string keys: false
						ELSE false END;
					IF NOT v_cond THEN
						v_match := false;
					END IF;
				END LOOP;
			END LOOP;
		END IF;
		IF v_match THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;
COMMENT ON FUNCTION hroe.resource_policy_denies(jsonb, text, text, text) IS
'Whether resource-based policy p_policy explicitly denies principal p_principal (an IAM ARN, arn:aws:iam::ACCOUNT:user/NAME) action p_action (dynamodb:GetItem, ...) on resource p_resource (a table, index or stream ARN): a Deny statement whose Principal (or NotPrincipal) names "*", the account (its id or arn:aws:iam::ACCOUNT:root) or the principal, whose Action (case ignored) and Resource match with IAM''s wildcards * and ?, and whose every Condition holds (keys aws:PrincipalArn and aws:PrincipalAccount; a condition on any other key is false, or true with ...IfExists, as IAM evaluates a key the request lacks). Allow statements never matter: PostgreSQL''s privileges are the authority, a policy only narrows them';

CREATE FUNCTION hroe.put_resource_policy(p_resource_arn text, p_policy text,
										 p_expected_revision_id text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record;
	v_old hroe.resource_policies;
	v_revision text;
BEGIN
	IF p_resource_arn IS NULL OR p_policy IS NULL THEN
		RAISE EXCEPTION 'p_resource_arn and p_policy must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	v_target := hroe.resource_policy_target(p_resource_arn);
	IF NOT hroe.owns_table(v_target.table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its resource-based policies',
			v_target.table_name USING ERRCODE = 'insufficient_privilege';
	END IF;
	PERFORM hroe.check_resource_policy(p_policy);
	-- one put at a time per resource: the row, or the table's advisory lock
	PERFORM pg_advisory_xact_lock(hashtext('hroe.resource_policies'), hashtext(v_target.table_name));
	SELECT * INTO v_old FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF p_expected_revision_id IS NOT NULL AND
	   (CASE WHEN p_expected_revision_id = 'NO_POLICY' THEN v_old.revision_id IS NOT NULL
			 ELSE v_old.revision_id IS DISTINCT FROM p_expected_revision_id END) THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			CASE WHEN v_old.revision_id IS NULL
				 THEN format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn)
				 ELSE format('A policy with the given revision ID does not exist for the resource: %s. The current revision ID is %s.',
							 p_resource_arn, v_old.revision_id) END);
	END IF;
	-- the same document again: the same revision
	IF v_old.policy = p_policy THEN
		RETURN v_old.revision_id;
	END IF;
	-- a numeric string: the time in milliseconds, above the last revision
	v_revision := greatest((extract(epoch FROM clock_timestamp()) * 1000)::bigint,
						   coalesce(v_old.revision_id::bigint + 1, 0))::text;
	INSERT INTO hroe.resource_policies (table_name, stream_label, policy, revision_id)
	VALUES (v_target.table_name, v_target.stream_label, p_policy, v_revision)
	ON CONFLICT (table_name, stream_label)
	DO UPDATE SET policy = excluded.policy, revision_id = excluded.revision_id;
	RETURN v_revision;
END
$$;
COMMENT ON FUNCTION hroe.put_resource_policy(text, text, text) IS
'PutResourcePolicy: attaches policy document p_policy to the table or stream ARN p_resource_arn (a table''s applies to its indexes too), replacing its policy; returns the new RevisionId (a numeric string; the same one for the same document again). p_expected_revision_id: the current policy''s revision, or NO_POLICY for none, else PolicyNotFoundException. Only a member of the role owning the table may (row-level security on hroe.resource_policies). hroe enforces the Deny statements (hroe.resource_policy_denies) on the JSON API''s requests';

CREATE FUNCTION hroe.get_resource_policy(p_resource_arn text, OUT policy text, OUT revision_id text)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record := hroe.resource_policy_target(p_resource_arn);
BEGIN
	SELECT r.policy, r.revision_id INTO policy, revision_id FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.get_resource_policy(text) IS
'GetResourcePolicy: the policy document of the table or stream ARN p_resource_arn and its RevisionId; PolicyNotFoundException if it has none. Policies are readable by every role, as hroe.tables';

CREATE FUNCTION hroe.delete_resource_policy(p_resource_arn text, p_expected_revision_id text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record;
	v_old hroe.resource_policies;
BEGIN
	IF p_resource_arn IS NULL THEN
		RAISE EXCEPTION 'p_resource_arn must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	v_target := hroe.resource_policy_target(p_resource_arn);
	IF NOT hroe.owns_table(v_target.table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its resource-based policies',
			v_target.table_name USING ERRCODE = 'insufficient_privilege';
	END IF;
	PERFORM pg_advisory_xact_lock(hashtext('hroe.resource_policies'), hashtext(v_target.table_name));
	SELECT * INTO v_old FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF v_old.revision_id IS NULL THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn));
	END IF;
	IF p_expected_revision_id IS NOT NULL AND p_expected_revision_id <> v_old.revision_id THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('A policy with the given revision ID does not exist for the resource: %s. The current revision ID is %s.',
				   p_resource_arn, v_old.revision_id));
	END IF;
	DELETE FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	RETURN v_old.revision_id;
END
$$;
COMMENT ON FUNCTION hroe.delete_resource_policy(text, text) IS
'DeleteResourcePolicy: removes the policy of the table or stream ARN p_resource_arn (a table''s covers its indexes); returns the RevisionId it had. PolicyNotFoundException if it has none, or p_expected_revision_id is not its revision. Only a member of the role owning the table may (row-level security on hroe.resource_policies); DeleteTable removes a table''s policies';

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

CREATE FUNCTION hroe.search_vectors(p_table_name text, p_index_name text, p_vector real[],
	p_top_k integer DEFAULT 10, p_filter hroe.item DEFAULT NULL)
RETURNS TABLE (item hroe.item, score real)
AS 'MODULE_PATHNAME', 'hroe_search_vectors'
LANGUAGE C STABLE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 10;
COMMENT ON FUNCTION hroe.search_vectors(text, text, real[], integer, hroe.item) IS
'SearchVectors: the p_top_k (1-100) items of table p_table_name nearest p_vector in its vector index p_index_name, nearest first, with their scores (COSINE: 0 identical .. 2 opposite; EUCLIDEAN: the distance; DOT_PRODUCT: the dot product, higher is nearer); p_filter: the SearchSchema attributes the items must equal (required for an index with a HASH element), as an item ({"tenant": {"S": "t1"}}); exact search under one snapshot; items as stored';

-- Point-in-time recovery (src/streams/pitr.sql): its exceptions (HR024, HR025; HR020 shared with exports),
-- restores to a point in time share RestoreTableFromBackup's table creation
-- (hroe.restore_create_table) and RestoreSummary (no backup ARN)

ALTER TABLE hroe.table_restores ALTER COLUMN source_backup_arn DROP NOT NULL;

COMMENT ON TABLE hroe.table_restores IS 'The tables restored from a backup or to a point in time: the backup''s (NULL for a point in time) and its source table''s ARNs, and the restore''s time or the point in time restored to (DescribeTable''s RestoreSummary); readable by every role, written only by the table''s owner';

CREATE FUNCTION hroe.restore_create_table(p_target_table_name text, d jsonb, p_features jsonb,
										  o jsonb, p_schema name)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_billing text;
	v_gsis jsonb;
	v_lsis jsonb;
	v_req jsonb;
	v_res jsonb;
	v_rel regclass;
	v_attrs text[];
	v_bad text;
	v_exception text;
BEGIN
	v_billing := coalesce(o->>'BillingModeOverride', p_features->>'BillingMode');
	-- the indexes: the backup's, or those of the overrides, which may leave
	-- some out but name only the backup's
	IF o ? 'GlobalSecondaryIndexOverride' THEN
		SELECT x->>'IndexName' INTO v_bad
		FROM jsonb_array_elements(CASE WHEN jsonb_typeof(o->'GlobalSecondaryIndexOverride') = 'array'
									   THEN o->'GlobalSecondaryIndexOverride' ELSE '[]' END) x
		WHERE NOT EXISTS (SELECT FROM jsonb_array_elements(coalesce(d->'GlobalSecondaryIndexes', '[]')) g
						  WHERE g->'IndexName' = x->'IndexName')
		LIMIT 1;
		IF FOUND THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: The global secondary index %s is not in the backup', v_bad));
		END IF;
		v_gsis := o->'GlobalSecondaryIndexOverride';
	ELSE
		SELECT jsonb_agg(jsonb_build_object('IndexName', g->'IndexName', 'KeySchema', g->'KeySchema',
											'Projection', g->'Projection',
											'ProvisionedThroughput', jsonb_build_object(
												'ReadCapacityUnits', g->'ProvisionedThroughput'->'ReadCapacityUnits',
												'WriteCapacityUnits', g->'ProvisionedThroughput'->'WriteCapacityUnits')))
		INTO v_gsis FROM jsonb_array_elements(d->'GlobalSecondaryIndexes') g;
	END IF;
	IF o ? 'LocalSecondaryIndexOverride' THEN
		SELECT x->>'IndexName' INTO v_bad
		FROM jsonb_array_elements(CASE WHEN jsonb_typeof(o->'LocalSecondaryIndexOverride') = 'array'
									   THEN o->'LocalSecondaryIndexOverride' ELSE '[]' END) x
		WHERE NOT EXISTS (SELECT FROM jsonb_array_elements(coalesce(d->'LocalSecondaryIndexes', '[]')) l
						  WHERE l->'IndexName' = x->'IndexName')
		LIMIT 1;
		IF FOUND THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: The local secondary index %s is not in the backup', v_bad));
		END IF;
		v_lsis := o->'LocalSecondaryIndexOverride';
	ELSE
		SELECT jsonb_agg(jsonb_build_object('IndexName', l->'IndexName', 'KeySchema', l->'KeySchema',
											'Projection', l->'Projection'))
		INTO v_lsis FROM jsonb_array_elements(d->'LocalSecondaryIndexes') l;
	END IF;
	-- on demand: no throughput; provisioned: the override's, else the backup's
	IF v_billing = 'PAY_PER_REQUEST' AND jsonb_typeof(v_gsis) = 'array' THEN
		SELECT jsonb_agg(CASE WHEN o ? 'GlobalSecondaryIndexOverride' THEN g
							  ELSE g - 'ProvisionedThroughput' END)
		INTO v_gsis FROM jsonb_array_elements(v_gsis) g;
	ELSIF jsonb_typeof(v_gsis) = 'array' THEN
		SELECT jsonb_agg(CASE WHEN jsonb_typeof(g) = 'object' AND NOT g ? 'ProvisionedThroughput'
								   AND (bg->'ProvisionedThroughput'->>'ReadCapacityUnits')::numeric > 0
							  THEN g || jsonb_build_object('ProvisionedThroughput', jsonb_build_object(
									  'ReadCapacityUnits', bg->'ProvisionedThroughput'->'ReadCapacityUnits',
									  'WriteCapacityUnits', bg->'ProvisionedThroughput'->'WriteCapacityUnits'))
							  ELSE g END ORDER BY n)
		INTO v_gsis
		FROM jsonb_array_elements(v_gsis) WITH ORDINALITY AS u(g, n)
		LEFT JOIN jsonb_array_elements(coalesce(d->'GlobalSecondaryIndexes', '[]')) bg
			ON jsonb_typeof(g) = 'object' AND bg->'IndexName' = g->'IndexName';
	END IF;
	-- the attribute definitions the table's and the indexes' keys use
	SELECT array_agg(DISTINCT k->>'AttributeName') INTO v_attrs
	FROM (SELECT jsonb_array_elements(d->'KeySchema') k
		  UNION ALL
		  SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(x->'KeySchema') = 'array' THEN x->'KeySchema' ELSE '[]' END)
		  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(v_gsis) = 'array' THEN v_gsis ELSE '[]' END
									|| CASE WHEN jsonb_typeof(v_lsis) = 'array' THEN v_lsis ELSE '[]' END) x) s;
	v_req := jsonb_strip_nulls(jsonb_build_object(
		'TableName', p_target_table_name,
		'KeySchema', d->'KeySchema',
		'AttributeDefinitions', (SELECT jsonb_agg(a ORDER BY n) FROM jsonb_array_elements(d->'AttributeDefinitions') WITH ORDINALITY u(a, n)
								 WHERE a->>'AttributeName' = ANY (v_attrs)),
		'BillingMode', v_billing,
		'ProvisionedThroughput',
			CASE WHEN o ? 'ProvisionedThroughputOverride' THEN o->'ProvisionedThroughputOverride'
				 WHEN v_billing = 'PROVISIONED'
				 THEN jsonb_build_object('ReadCapacityUnits', greatest((d->'ProvisionedThroughput'->>'ReadCapacityUnits')::bigint, 1),
										 'WriteCapacityUnits', greatest((d->'ProvisionedThroughput'->>'WriteCapacityUnits')::bigint, 1)) END,
		'GlobalSecondaryIndexes', CASE WHEN v_gsis = '[]' THEN NULL ELSE v_gsis END,
		'LocalSecondaryIndexes', CASE WHEN v_lsis = '[]' THEN NULL ELSE v_lsis END,
		-- accepted as DynamoDB accepts it (hroe encrypts nothing itself)
		'SSESpecification', o->'SSESpecificationOverride'));
	-- CreateTable, with its checks of the overrides
	-- (in schema p_schema, where CreateTable puts a table: the current schema;
	-- only the qualified call runs under that search path)
	PERFORM set_config('search_path', quote_ident(p_schema) || ', pg_catalog, pg_temp', true);
	v_res := hroe.dynamodb('CreateTable', v_req);
	PERFORM set_config('search_path', 'pg_catalog, pg_temp', true);
	IF v_res ? '__type' THEN
		v_exception := split_part(v_res->>'__type', '#', 2);
		IF v_exception = 'AccessDeniedException' THEN
			RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege',
				MESSAGE = format('permission denied to restore table %s', p_target_table_name);
		END IF;
		IF v_exception = 'ResourceInUseException' THEN
			PERFORM hroe.dynamodb_error('TableAlreadyExistsException', format('Table already exists: %s', p_target_table_name));
		END IF;
		PERFORM hroe.dynamodb_error(v_exception, v_res->>'message');
	END IF;
	SELECT relid INTO v_rel FROM hroe.tables WHERE table_name = p_target_table_name;
	RETURN v_rel;
END
$$;
COMMENT ON FUNCTION hroe.restore_create_table(text, jsonb, jsonb, jsonb, name) IS
'internal: Creates the table of a restore (RestoreTableFromBackup, RestoreTableToPointInTime) by CreateTable: p_target_table_name in schema p_schema with the keys, indexes, billing mode and throughput of the source table description d and features p_features (BillingMode), under the overrides o (BillingModeOverride, ProvisionedThroughputOverride, GlobalSecondaryIndexOverride, LocalSecondaryIndexOverride, SSESpecificationOverride); returns its relation';

CREATE FUNCTION hroe.restore_table_from_backup(p_target_table_name text, p_backup_arn text,
											   p_overrides jsonb DEFAULT '{}',
											   p_schema name DEFAULT pg_catalog.current_schema())
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	b hroe.backups;
	d jsonb;
	o jsonb := coalesce(p_overrides, '{}');
	v_rel regclass;
BEGIN
	PERFORM hroe.backup_validation(hroe.backup_name_errors(p_target_table_name, 'targetTableName')
								   || hroe.backup_arn_errors(p_backup_arn));
	IF jsonb_typeof(o) <> 'object' THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'The overrides must be a JSON object');
	END IF;
	b := hroe.backup_find(p_backup_arn, 'share');
	d := b.description;
	IF EXISTS (SELECT FROM hroe.tables WHERE table_name = p_target_table_name) THEN
		PERFORM hroe.dynamodb_error('TableAlreadyExistsException', format('Table already exists: %s', p_target_table_name));
	END IF;
	v_rel := hroe.restore_create_table(p_target_table_name, d, b.features, o, p_schema);
	EXECUTE format('INSERT INTO %s (item) SELECT i.item FROM hroe.backup_items i WHERE i.backup_id = $1', v_rel)
		USING b.backup_id;
	INSERT INTO hroe.table_restores (table_name, source_backup_arn, source_table_arn)
	VALUES (p_target_table_name, b.backup_arn, d->>'TableArn');
	-- (DynamoDB answers CREATING with the restore in progress; hroe's
	-- table is complete when the call commits, ACTIVE from then on)
	RETURN (hroe.table_description(p_target_table_name, 'CREATING', 'CREATING') - 'PostgresTable')
		|| jsonb_build_object('RestoreSummary', hroe.restore_summary(p_target_table_name, true));
END
$$;
COMMENT ON FUNCTION hroe.restore_table_from_backup(text, text, jsonb, name) IS
'RestoreTableFromBackup: a new table p_target_table_name (TableAlreadyExistsException if it exists) with the keys, indexes, billing mode and throughput of the backup with ARN p_backup_arn and its items; p_overrides as the request''s BillingModeOverride, ProvisionedThroughputOverride, GlobalSecondaryIndexOverride and LocalSecondaryIndexOverride (the backup''s indexes, some left out), SSESpecificationOverride (accepted); in schema p_schema (default: the caller''s current schema, as CreateTable); stream, Time to Live and tags are not restored, as in DynamoDB; returns the TableDescription with its RestoreSummary (TableStatus and IndexStatus CREATING, RestoreInProgress true, as DynamoDB answers; ACTIVE once committed)';

CREATE FUNCTION hroe.restore_summary(p_table_name text, p_in_progress boolean DEFAULT false)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
		'SourceBackupArn', r.source_backup_arn,
		'SourceTableArn', r.source_table_arn,
		'RestoreDateTime', EXTRACT(epoch FROM r.restored_at),
		'RestoreInProgress', p_in_progress))
	FROM hroe.table_restores r
	WHERE r.table_name OPERATOR(pg_catalog.=) p_table_name;
END;
COMMENT ON FUNCTION hroe.restore_summary(text, boolean) IS
'internal: DynamoDB''s RestoreSummary of table p_table_name restored from a backup or to a point in time (NULL if it was not): the backup''s (none for a point in time) and the source table''s ARNs, the restore''s time (or the point in time), RestoreInProgress p_in_progress';

CREATE SEQUENCE hroe.pitr_ids;
COMMENT ON SEQUENCE hroe.pitr_ids IS 'internal: Identifiers of hroe.pitr (each enabling of point-in-time recovery on a table has its own history)';
-- (a table's owner enables point-in-time recovery with no grant of its own)
GRANT USAGE ON SEQUENCE hroe.pitr_ids TO PUBLIC;

CREATE TABLE hroe.pitr (
	pitr_id				bigint PRIMARY KEY DEFAULT pg_catalog.nextval('hroe.pitr_ids'),
	table_name			text NOT NULL UNIQUE REFERENCES hroe.tables ON DELETE CASCADE,
	-- RecoveryPeriodInDays
	recovery_days		integer NOT NULL CHECK (recovery_days BETWEEN 1 AND 35),
	enabled_at			timestamptz NOT NULL,
	-- the base image holds the table as of this instant
	base_at				timestamptz NOT NULL,
	compacted_at		timestamptz
);
COMMENT ON TABLE hroe.pitr IS 'Point-in-time recovery: each protected table, its recovery period in days, when it was enabled, the instant its base image (hroe.pitr_base) stands for, when the history was last compacted';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.pitr TO PUBLIC;
ALTER TABLE hroe.pitr ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.pitr FORCE ROW LEVEL SECURITY;
CREATE POLICY pitr_read ON hroe.pitr FOR SELECT USING (true);
COMMENT ON POLICY pitr_read ON hroe.pitr IS 'The settings are readable by every role, as hroe.tables';
CREATE POLICY pitr_owner ON hroe.pitr FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY pitr_owner ON hroe.pitr IS 'A role enables, changes or disables point-in-time recovery only on a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.pitr', '');
SELECT pg_catalog.pg_extension_config_dump('hroe.pitr_ids', '');

CREATE SEQUENCE hroe.pitr_write_order;
COMMENT ON SEQUENCE hroe.pitr_write_order IS 'internal: The order in which item versions were written (hroe.pitr_history.write_seq), across all tables';

CREATE TABLE hroe.pitr_history (
	pitr_id				bigint NOT NULL,
	write_seq			bigint NOT NULL DEFAULT pg_catalog.nextval('hroe.pitr_write_order'),
	-- the writing transaction (top level): its commit time is the version's
	xid					xid NOT NULL,
	-- that commit time once stamped (hroe.pitr_compact), before PostgreSQL
	-- forgets the xid's
	committed_at		timestamptz,
	-- the item's key attributes (hroe.pitr_key)
	key					bytea NOT NULL,
	-- the new image; NULL: deleted
	item				hroe.item
);
CREATE INDEX pitr_history_order ON hroe.pitr_history (pitr_id, write_seq);
COMMENT ON TABLE hroe.pitr_history IS 'internal: The item versions of every table with point-in-time recovery since its base image: key, new image or NULL (deleted), writing transaction, written by hroe.pitr_capture; under row-level security a role reads only the history of tables it may read';
ALTER TABLE hroe.pitr_history ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.pitr_history FORCE ROW LEVEL SECURITY;
GRANT SELECT, DELETE ON hroe.pitr_history TO PUBLIC;
CREATE POLICY pitr_history_read ON hroe.pitr_history FOR SELECT
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p, hroe.tables t
		WHERE t.table_name OPERATOR(pg_catalog.=) p.table_name
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT'))));
COMMENT ON POLICY pitr_history_read ON hroe.pitr_history IS 'A role reads the history of the tables it may read';
CREATE POLICY pitr_history_owner ON hroe.pitr_history FOR DELETE
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p WHERE hroe.owns_table(p.table_name))));
COMMENT ON POLICY pitr_history_owner ON hroe.pitr_history IS 'A role deletes only the history of tables it owns (disabling point-in-time recovery); only hroe.pitr_capture writes it, as the extension''s owner';
SELECT pg_catalog.pg_extension_config_dump('hroe.pitr_history', '');

CREATE TABLE hroe.pitr_base (
	pitr_id				bigint NOT NULL,
	key					bytea NOT NULL,
	item				hroe.item NOT NULL,
	PRIMARY KEY (pitr_id, key)
);
COMMENT ON TABLE hroe.pitr_base IS 'internal: The base image of every table with point-in-time recovery: its items as of hroe.pitr.base_at; under row-level security a role reads only the images of tables it may read';
ALTER TABLE hroe.pitr_base ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.pitr_base FORCE ROW LEVEL SECURITY;
GRANT SELECT, INSERT, DELETE ON hroe.pitr_base TO PUBLIC;
CREATE POLICY pitr_base_read ON hroe.pitr_base FOR SELECT
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p, hroe.tables t
		WHERE t.table_name OPERATOR(pg_catalog.=) p.table_name
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT'))));
COMMENT ON POLICY pitr_base_read ON hroe.pitr_base IS 'A role reads the base image of the tables it may read';
CREATE POLICY pitr_base_insert ON hroe.pitr_base FOR INSERT
	WITH CHECK (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p WHERE hroe.owns_table(p.table_name))));
COMMENT ON POLICY pitr_base_insert ON hroe.pitr_base IS 'A role writes only the base image of tables it owns (enabling point-in-time recovery)';
CREATE POLICY pitr_base_delete ON hroe.pitr_base FOR DELETE
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p WHERE hroe.owns_table(p.table_name))));
COMMENT ON POLICY pitr_base_delete ON hroe.pitr_base IS 'A role deletes only the base image of tables it owns (disabling point-in-time recovery)';
SELECT pg_catalog.pg_extension_config_dump('hroe.pitr_base', '');
SELECT pg_catalog.pg_extension_config_dump('hroe.pitr_write_order', '');

CREATE FUNCTION hroe.pitr_key(p_item hroe.item, p_partition_key text, p_sort_key text)
RETURNS bytea AS 'MODULE_PATHNAME', 'hroe_pitr_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.pitr_key(hroe.item, text, text) IS
'internal: The key of item p_item (its attributes p_partition_key and p_sort_key, empty for none) as the bytes of the item of these attributes: equal keys, equal bytes';

CREATE FUNCTION hroe.pitr_capture()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_pitr_capture'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.pitr_capture() IS
'internal: The AFTER ROW trigger of a table with point-in-time recovery (arguments: hroe.pitr.pitr_id, partition and sort key names, as hroe.update_continuous_backups creates it): appends each new version of an item (new image, or NULL when deleted) with the writing transaction''s xid to hroe.pitr_history as the extension''s owner, in a security-restricted operation with search_path pinned, after checking in hroe''s catalog that the history is that table''s (else insufficient_privilege, nothing written); none when the item did not change';

-- The instants a table can be restored to, now
CREATE FUNCTION hroe.pitr_window(p hroe.pitr, OUT earliest timestamptz, OUT latest timestamptz)
LANGUAGE sql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT greatest(p.enabled_at, p.base_at, c.now OPERATOR(pg_catalog.-) pg_catalog.make_interval(days => p.recovery_days)),
		   c.now
	FROM (SELECT pg_catalog.clock_timestamp() AS now) c;
END;
COMMENT ON FUNCTION hroe.pitr_window(hroe.pitr, OUT timestamptz, OUT timestamptz) IS
'internal: The instants the table of p can be restored to: from when point-in-time recovery was enabled or the recovery period started (the later) to now';

-- Incremental exports (ExportType INCREMENTAL_EXPORT, IncrementalExportSpecification)
ALTER TABLE hroe.exports
	ADD COLUMN export_from_time timestamptz,
	ADD COLUMN export_to_time timestamptz,
	ADD COLUMN export_view_type text CHECK (export_view_type IN ('NEW_IMAGE', 'NEW_AND_OLD_IMAGES'));

CREATE FUNCTION hroe.pitr_wait_committed(p_at timestamptz)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_waits integer := 0;
BEGIN
	IF current_setting('transaction_isolation') <> 'read committed' THEN
		RAISE EXCEPTION USING ERRCODE = 'invalid_transaction_state',
			MESSAGE = 'waiting for the transactions committed before an instant must run in a READ COMMITTED transaction';
	END IF;
	LOOP
		EXIT WHEN NOT EXISTS (
			SELECT FROM pg_snapshot_xip(pg_current_snapshot()) x
			WHERE pg_xact_commit_timestamp((x::text::numeric % 4294967296)::text::xid) <= p_at);
		v_waits := v_waits + 1;
		IF v_waits > 10000 THEN
			RAISE EXCEPTION USING ERRCODE = 'lock_not_available',
				MESSAGE = 'a transaction that committed before the given instant is still not visible';
		END IF;
		PERFORM pg_sleep(0.001);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.pitr_wait_committed(timestamptz) IS
'internal: Returns once every transaction that committed at or before p_at is visible to the next statement''s snapshot (READ COMMITTED only; lock_not_available after about 10 seconds); an incremental export''s worker calls it before its snapshot';
CREATE FUNCTION hroe.incremental_export_check(p_from timestamptz, p_to timestamptz) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_incremental_export_check'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.incremental_export_check(timestamptz, timestamptz) IS
'internal: Raises DynamoDB''s ValidationException unless an incremental export''s ExportFromTime p_from is before its ExportToTime p_to and the period between them is at least 15 minutes (hroe.incremental_export_min_period, a superuser-only setting for tests) and at most 24 hours';
ALTER TABLE hroe.backups
	DROP CONSTRAINT backups_backup_name_check,
	ADD COLUMN backup_type text NOT NULL DEFAULT 'USER' CHECK (backup_type IN ('USER', 'SYSTEM')),
	ADD COLUMN expires_at timestamptz,
	ADD COLUMN pitr_id bigint,
	ADD COLUMN pitr_earliest timestamptz,
	ADD CONSTRAINT backups_backup_name_check
		CHECK (backup_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'
			   OR (backup_type OPERATOR(pg_catalog.=) 'SYSTEM' AND backup_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}[$]DeletedTableBackup$'));
COMMENT ON TABLE hroe.backups IS 'On-demand backups (CreateBackup) and the system backups of deleted tables with point-in-time recovery (BackupType SYSTEM, expiring after 35 days, with their history): ARN, name, the role that made it (owner), the source table''s name and description as of the backup, its billing mode, stream and Time to Live settings, item count and DynamoDB size; under row-level security a role sees and writes only the backups of roles whose privileges it has';
CREATE FUNCTION hroe.backup_details(b hroe.backups, p_status text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.jsonb_build_object(
	'BackupArn', b.backup_arn,
	'BackupName', b.backup_name,
	'BackupSizeBytes', b.size_bytes,
	'BackupStatus', p_status,
	'BackupType', b.backup_type,
	'BackupCreationDateTime', EXTRACT(epoch FROM b.created_at))
	OPERATOR(pg_catalog.||) CASE WHEN b.expires_at IS NOT NULL
		THEN pg_catalog.jsonb_build_object('BackupExpiryDateTime', EXTRACT(epoch FROM b.expires_at))
		ELSE '{}' END;
COMMENT ON FUNCTION hroe.backup_details(hroe.backups, text) IS
'internal: DynamoDB''s BackupDetails of backup b with BackupStatus p_status: ARN, name, size, type (USER, or SYSTEM with its BackupExpiryDateTime), creation time';

ALTER POLICY pitr_history_read ON hroe.pitr_history
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p, hroe.tables t
		WHERE t.table_name OPERATOR(pg_catalog.=) p.table_name
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT')))
		OR pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT b.pitr_id FROM hroe.backups b WHERE b.backup_type OPERATOR(pg_catalog.=) 'SYSTEM')));
COMMENT ON POLICY pitr_history_read ON hroe.pitr_history IS 'A role reads the history of the tables it may read, and of the deleted tables whose system backup it sees (hroe.backups'' policy)';
ALTER POLICY pitr_base_read ON hroe.pitr_base
	USING (pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT p.pitr_id FROM hroe.pitr p, hroe.tables t
		WHERE t.table_name OPERATOR(pg_catalog.=) p.table_name
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT')))
		OR pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT b.pitr_id FROM hroe.backups b WHERE b.backup_type OPERATOR(pg_catalog.=) 'SYSTEM')));
COMMENT ON POLICY pitr_base_read ON hroe.pitr_base IS 'A role reads the base image of the tables it may read, and of the deleted tables whose system backup it sees (hroe.backups'' policy)';
CREATE FUNCTION hroe.pitr_table_deleted(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p hroe.pitr;
	v_earliest timestamptz;
	v_arn text;
BEGIN
	SELECT * INTO p FROM hroe.pitr WHERE table_name = p_table_name;
	IF p.pitr_id IS NULL THEN
		RETURN;
	END IF;
	SELECT w.earliest INTO v_earliest FROM hroe.pitr_window(p) w;
	-- the table's items and description as of now, as CreateBackup takes them
	v_arn := hroe.create_backup(p_table_name, 'DeletedTableBackup')->>'BackupArn';
	-- (its history is kept with it: hroe.pitr_compact deletes both once it expired)
	UPDATE hroe.backups SET backup_type = 'SYSTEM', backup_name = p_table_name || '$DeletedTableBackup',
		   expires_at = created_at + interval '35 days', pitr_id = p.pitr_id, pitr_earliest = v_earliest
	WHERE backup_arn = v_arn;
END
$$;
COMMENT ON FUNCTION hroe.pitr_table_deleted(text) IS
'internal: Called by hroe.delete_table before it deletes table p_table_name: if the table has point-in-time recovery, records its system backup (hroe.backups, BackupType SYSTEM, named <table>$DeletedTableBackup, expiring after 35 days: its items and description now, and its point-in-time recovery history, restorable by RestoreTableToPointInTime with its SourceTableArn to any instant of its recovery window up to the deletion)';

CREATE FUNCTION hroe.pitr_compact(p_every interval DEFAULT '1 hour')
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p hroe.pitr;
	v_cutoff timestamptz;
	v_n bigint;
	v_total bigint := 0;
	v_id bigint;
BEGIN
	FOR p IN SELECT * FROM hroe.pitr
			 WHERE compacted_at IS NULL OR compacted_at < clock_timestamp() - p_every
			 ORDER BY pitr_id FOR UPDATE SKIP LOCKED LOOP
		v_cutoff := clock_timestamp() - make_interval(days => p.recovery_days);
		-- the versions committed before the window, folded into the base
		-- image: per key the last one (a deletion removes the key)
		WITH moved AS (
			DELETE FROM hroe.pitr_history h
			WHERE h.pitr_id = p.pitr_id
			  AND coalesce(h.committed_at, pg_xact_commit_timestamp(h.xid)) <= v_cutoff
			RETURNING h.key, h.item, coalesce(h.committed_at, pg_xact_commit_timestamp(h.xid)) AS at, h.write_seq),
		last AS (
			SELECT DISTINCT ON (m.key) m.key, m.item FROM moved m ORDER BY m.key, m.at DESC, m.write_seq DESC),
		gone AS (
			DELETE FROM hroe.pitr_base b USING last l
			WHERE b.pitr_id = p.pitr_id AND b.key = l.key AND l.item IS NULL
			RETURNING b.key),
		put AS (
			INSERT INTO hroe.pitr_base (pitr_id, key, item)
			SELECT p.pitr_id, l.key, l.item FROM last l
			WHERE l.item IS NOT NULL AND NOT EXISTS (SELECT FROM hroe.pitr_base b WHERE b.pitr_id = p.pitr_id AND b.key = l.key)
			RETURNING 1),
		upd AS (
			UPDATE hroe.pitr_base b SET item = l.item FROM last l
			WHERE b.pitr_id = p.pitr_id AND b.key = l.key AND l.item IS NOT NULL
			RETURNING 1)
		-- (each data-modifying part runs whole, read or not)
		SELECT count(*) INTO v_n FROM moved;
		v_total := v_total + v_n;
		-- the commit times PostgreSQL would forget once the xids are frozen
		UPDATE hroe.pitr_history h SET committed_at = pg_xact_commit_timestamp(h.xid)
		WHERE h.pitr_id = p.pitr_id AND h.committed_at IS NULL AND age(h.xid) > 100000000
		  AND pg_xact_commit_timestamp(h.xid) IS NOT NULL;
		UPDATE hroe.pitr SET base_at = greatest(base_at, v_cutoff), compacted_at = clock_timestamp()
		WHERE pitr_id = p.pitr_id;
	END LOOP;
	-- the system backups of deleted tables that expired (their history with them, below)
	DELETE FROM hroe.backup_items i USING hroe.backups b
	WHERE i.backup_id = b.backup_id AND b.backup_type = 'SYSTEM' AND b.expires_at <= clock_timestamp();
	DELETE FROM hroe.backups b WHERE b.backup_type = 'SYSTEM' AND b.expires_at <= clock_timestamp();
	-- the history and images of tables deleted (without a system backup) or no longer protected
	FOR v_id IN
		WITH RECURSIVE ids AS (
			SELECT min(pitr_id) AS id FROM hroe.pitr_history
			UNION ALL
			SELECT (SELECT min(h.pitr_id) FROM hroe.pitr_history h WHERE h.pitr_id > ids.id) FROM ids WHERE ids.id IS NOT NULL),
		base_ids AS (
			SELECT min(pitr_id) AS id FROM hroe.pitr_base
			UNION ALL
			SELECT (SELECT min(b.pitr_id) FROM hroe.pitr_base b WHERE b.pitr_id > base_ids.id) FROM base_ids WHERE base_ids.id IS NOT NULL)
		SELECT id FROM ids WHERE id IS NOT NULL AND NOT EXISTS (SELECT FROM hroe.pitr x WHERE x.pitr_id = ids.id)
		  AND NOT EXISTS (SELECT FROM hroe.backups b WHERE b.pitr_id = ids.id)
		UNION
		SELECT id FROM base_ids WHERE id IS NOT NULL AND NOT EXISTS (SELECT FROM hroe.pitr x WHERE x.pitr_id = base_ids.id)
		  AND NOT EXISTS (SELECT FROM hroe.backups b WHERE b.pitr_id = base_ids.id)
	LOOP
		DELETE FROM hroe.pitr_history WHERE pitr_id = v_id;
		GET DIAGNOSTICS v_n = ROW_COUNT;
		v_total := v_total + v_n;
		DELETE FROM hroe.pitr_base WHERE pitr_id = v_id;
	END LOOP;
	RETURN v_total;
END
$$;
REVOKE EXECUTE ON FUNCTION hroe.pitr_compact(interval) FROM PUBLIC;
COMMENT ON FUNCTION hroe.pitr_compact(interval) IS
'Enforces point-in-time recovery''s retention: on each protected table not compacted within p_every, folds the versions committed before its recovery period into its base image (per key the last one; a deletion removes the key), stamps the commit times of old versions, deletes the system backups of deleted tables that expired (35 days), and deletes the history and images of tables deleted (but for those of a system backup) or no longer protected; returns the number of versions removed. Run by hroe''s background worker (hroe.ttl_naptime) and by hand';
CREATE OR REPLACE FUNCTION hroe.delete_table(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_rel regclass;
	v_protected boolean;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT relid, deletion_protection INTO v_rel, v_protected
	FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF v_protected THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.');
	END IF;
	-- (point-in-time recovery: the system backup DynamoDB keeps)
	PERFORM hroe.pitr_table_deleted(p_table_name);
	DELETE FROM hroe.tables WHERE table_name = p_table_name;
	-- a distributed table: each server's partition first (committed there
	-- at once: a DeleteTable that fails after it leaves the table empty)
	IF hroe.table_is_distributed(v_rel) THEN
		PERFORM hroe.partition_exec_all(v_rel, format('SELECT hroe.delete_table(%L)::text', p_table_name));
	END IF;
	-- (a table already dropped with DROP TABLE only leaves its metadata)
	IF EXISTS (SELECT 1 FROM pg_class WHERE oid = v_rel) THEN
		EXECUTE format('DROP TABLE %s', v_rel);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_table(text) IS
'DeleteTable: drops the DynamoDB table, its indexes, tags and metadata, unless deletion protection is enabled (DynamoDB''s ValidationException); a table with point-in-time recovery leaves its system backup (hroe.pitr_table_deleted)';

-- A system backup names a deleted table's history, which its role then
-- reads (pitr_history_read): only hroe.pitr_table_deleted may make one, for
-- the history of a table the role owns, while it still exists
CREATE FUNCTION hroe.backups_check_system() RETURNS trigger
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF (TG_OP = 'INSERT' AND (NEW.backup_type <> 'USER' OR NEW.pitr_id IS NOT NULL
							  OR NEW.pitr_earliest IS NOT NULL OR NEW.expires_at IS NOT NULL))
	   OR (TG_OP = 'UPDATE' AND (NEW.backup_type, NEW.pitr_id, NEW.pitr_earliest, NEW.expires_at, NEW.table_name)
								IS DISTINCT FROM (OLD.backup_type, OLD.pitr_id, OLD.pitr_earliest, OLD.expires_at, OLD.table_name)) THEN
		IF NOT EXISTS (SELECT FROM hroe.pitr p
					   WHERE p.pitr_id = NEW.pitr_id AND p.table_name = NEW.table_name
						 AND hroe.owns_table(NEW.table_name))
		   AND NOT (SELECT r.rolsuper FROM pg_roles r WHERE r.rolname = current_user) THEN
			RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege',
				MESSAGE = 'only DeleteTable makes a system backup, of the history of a table its role owns';
		END IF;
	END IF;
	RETURN NEW;
END
$$;
COMMENT ON FUNCTION hroe.backups_check_system() IS
'internal: BEFORE INSERT OR UPDATE trigger of hroe.backups: a backup''s type, history (pitr_id), recovery window start, expiry and table are set or changed only to name the point-in-time recovery history of an existing table the current role owns (hroe.pitr_table_deleted, before DeleteTable deletes it), or by a superuser; else insufficient_privilege';
CREATE TRIGGER backups_check_system BEFORE INSERT OR UPDATE ON hroe.backups
	FOR EACH ROW EXECUTE FUNCTION hroe.backups_check_system();

-- The IVF lists of vector indexes (issue #33, doc/vectors.md): the metadata's
-- columns, hroe.vector_centroids, hroe.vector_list, hroe.vector_train,
-- hroe.vector_index_build, hroe.vector_indexes_maintain; create and delete
-- handle the toast_tuple_target and the list column
ALTER TABLE hroe.vector_indexes ADD COLUMN centroid_set bigint, ADD COLUMN list_column name,
	ADD COLUMN ivf_relname name, ADD COLUMN trained_items bigint;
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
ALTER TABLE hroe.exports ADD COLUMN export_from_history boolean NOT NULL DEFAULT false;
CREATE FUNCTION hroe.export_description(e hroe.exports) RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'ExportArn', e.export_arn,
	'ExportStatus', e.export_status,
	'StartTime', EXTRACT(epoch FROM e.start_time),
	'EndTime', EXTRACT(epoch FROM e.end_time),
	'ExportManifest', e.export_manifest,
	'TableArn', e.table_arn,
	'TableId', (SELECT t.relid::oid::text FROM hroe.tables t WHERE t.table_name OPERATOR(pg_catalog.=) e.table_name),
	'ExportTime', CASE WHEN e.export_type OPERATOR(pg_catalog.=) 'FULL_EXPORT' THEN EXTRACT(epoch FROM e.export_time) END,
	'ClientToken', e.client_token,
	'S3Bucket', e.s3_bucket,
	'S3BucketOwner', e.s3_bucket_owner,
	'S3Prefix', e.s3_prefix,
	'S3SseAlgorithm', e.s3_sse_algorithm,
	'S3SseKmsKeyId', e.s3_sse_kms_key_id,
	'FailureCode', e.failure_code,
	'FailureMessage', e.failure_message,
	'ExportFormat', e.export_format,
	'BilledSizeBytes', CASE WHEN e.export_status OPERATOR(pg_catalog.=) 'COMPLETED' THEN e.billed_size_bytes END,
	'ItemCount', CASE WHEN e.export_status OPERATOR(pg_catalog.<>) 'IN_PROGRESS' THEN e.item_count END,
	'ExportType', e.export_type,
	'IncrementalExportSpecification', CASE WHEN e.export_type OPERATOR(pg_catalog.=) 'INCREMENTAL_EXPORT' THEN
		pg_catalog.jsonb_build_object('ExportFromTime', EXTRACT(epoch FROM e.export_from_time),
									  'ExportToTime', EXTRACT(epoch FROM e.export_to_time),
									  'ExportViewType', e.export_view_type) END));
COMMENT ON FUNCTION hroe.export_description(hroe.exports) IS
'internal: DynamoDB''s ExportDescription of an export (ItemCount once it ended, BilledSizeBytes once it completed; ExportTime of a FULL_EXPORT, IncrementalExportSpecification of an INCREMENTAL_EXPORT)';
CREATE FUNCTION hroe.pitr_items_at(p_pitr_id bigint, p_at timestamptz)
RETURNS SETOF hroe.item
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	WITH v AS (
		SELECT DISTINCT ON (h.key) h.key, h.item
		FROM hroe.pitr_history h
		WHERE h.pitr_id OPERATOR(pg_catalog.=) p_pitr_id
		  AND COALESCE(h.committed_at, pg_catalog.pg_xact_commit_timestamp(h.xid)) OPERATOR(pg_catalog.<=) p_at
		ORDER BY h.key, COALESCE(h.committed_at, pg_catalog.pg_xact_commit_timestamp(h.xid)) DESC, h.write_seq DESC)
	SELECT v.item FROM v WHERE v.item IS NOT NULL
	UNION ALL
	SELECT b.item FROM hroe.pitr_base b
	WHERE b.pitr_id OPERATOR(pg_catalog.=) p_pitr_id
	  AND NOT EXISTS (SELECT FROM v WHERE v.key OPERATOR(pg_catalog.=) b.key);
END;
COMMENT ON FUNCTION hroe.pitr_items_at(bigint, timestamptz) IS
'internal: The items of point-in-time recovery history p_pitr_id as of instant p_at: its base image with, per key, the last version committed at or before p_at over it (a deletion removes the key); read under the caller''s privileges (row-level security), after hroe.pitr_wait_committed(p_at); RestoreTableToPointInTime and a full export at an ExportTime read it';
COMMENT ON FUNCTION hroe.pitr_wait_committed(timestamptz) IS
'internal: Returns once every transaction that committed at or before p_at is visible to the next statement''s snapshot (READ COMMITTED only; lock_not_available after about 10 seconds); a restore to a point in time, and an export''s worker reading the history (an incremental export, a full export at an ExportTime), call it before their snapshot';

-- S3's API on the endpoint (doc/transfer.md)

-- S3's API over the buckets (src/transfer/s3_api.c): a bucket a directory
-- under hroe.s3_root, an object a file at its key's path; writes need the
-- privileges of hroe_export or pg_write_server_files, reads those of
-- hroe_import or pg_read_server_files; objects at most 16 MiB
CREATE FUNCTION hroe.s3_create_bucket(p_bucket text) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_s3_create_bucket'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.s3_create_bucket(text) IS
'S3 CreateBucket: creates bucket p_bucket (S3''s naming rules), a directory under hroe.s3_root; an error (S3 BucketAlreadyOwnedByYou) if it exists. Needs the privileges of hroe_export or pg_write_server_files';

CREATE FUNCTION hroe.s3_delete_bucket(p_bucket text) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_s3_delete_bucket'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.s3_delete_bucket(text) IS
'S3 DeleteBucket: removes the empty bucket p_bucket (S3 BucketNotEmpty if it holds an object, NoSuchBucket if there is none). Needs the privileges of hroe_export or pg_write_server_files';

CREATE FUNCTION hroe.s3_put_object(p_bucket text, p_key text, p_body bytea) RETURNS text
AS 'MODULE_PATHNAME', 'hroe_s3_put_object'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.s3_put_object(text, text, bytea) IS
'S3 PutObject: stores p_body (at most 16 MiB: S3 EntityTooLarge) as key p_key of bucket p_bucket, replacing it whole (written to a temporary file, then renamed); returns its ETag (MD5, hex). A key whose path has an empty, "." or ".." component is refused (InvalidArgument). Needs the privileges of hroe_export or pg_write_server_files';

CREATE FUNCTION hroe.s3_get_object(p_bucket text, p_key text) RETURNS bytea
AS 'MODULE_PATHNAME', 'hroe_s3_get_object'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.s3_get_object(text, text) IS
'S3 GetObject: the object p_key of bucket p_bucket (S3 NoSuchKey, NoSuchBucket; an object over 16 MiB, written otherwise, EntityTooLarge). Needs the privileges of hroe_import or pg_read_server_files';

CREATE FUNCTION hroe.s3_delete_object(p_bucket text, p_key text) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_s3_delete_object'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.s3_delete_object(text, text) IS
'S3 DeleteObject: deletes the object p_key of bucket p_bucket if there is one (none: no error, as S3), then the directories it leaves empty. Needs the privileges of hroe_export or pg_write_server_files';

CREATE FUNCTION hroe.s3_list_objects(p_bucket text, p_prefix text DEFAULT '',
	OUT key text, OUT size bigint, OUT etag text, OUT last_modified timestamptz)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'hroe_s3_list_objects'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED ROWS 100;
COMMENT ON FUNCTION hroe.s3_list_objects(text, text) IS
'S3 ListObjects: the objects of bucket p_bucket whose keys begin with p_prefix, in key order: key, size, ETag (MD5, hex) and last modification (at most 50,000 keys). Needs the privileges of hroe_import or pg_read_server_files';

CREATE FUNCTION hroe.s3_gateway_call(p_access_key_id text, p_method text, p_path text,
	p_query text, p_body bytea)
RETURNS bytea AS 'MODULE_PATHNAME', 'hroe_s3_gateway_call'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
-- C (src/http/gateway_call.c), as hroe.gateway_call: SET ROLE to the key's
-- role in a security-restricted operation, then S3's request
-- (src/transfer/s3_api.c)
COMMENT ON FUNCTION hroe.s3_gateway_call(text, text, text, text, bytea) IS
'internal: one S3 request of hroe-gateway (path-style: p_method, the decoded p_path /bucket/key, the percent-encoded p_query, p_body) run as the role of the active access key p_access_key_id as hroe.gateway_call runs DynamoDB''s; its answer (status line, headers, an empty line, the body); NULL for an unknown or revoked key';

-- Vector indexes UpdateTable creates on a table holding items are built in
-- the background (issue #33, doc/vectors.md): their status, the build
-- (hroe.build_vector_index) and its worker (hroe.start_vector_index_build),
-- one online index action at a time, DescribeTable's CREATING with
-- Backfilling
ALTER TABLE hroe.vector_indexes ADD COLUMN status text NOT NULL DEFAULT 'ACTIVE'
	CHECK (status IN ('CREATING', 'BACKFILLING', 'ACTIVE'));

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

-- create_vector_index as the IVF lists and the background build both changed it (issue #33)
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

-- DeleteIndex and a vector index's Delete share their start (src/tables/tables.sql)
CREATE FUNCTION hroe.index_delete_table(p_table_name text)
RETURNS hroe.tables
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	RETURN t;
END
$$;
COMMENT ON FUNCTION hroe.index_delete_table(text) IS
'internal: The start of deleting an index of table p_table_name (hroe.delete_index, hroe.delete_vector_index): the caller must own the table (hroe.check_table_owner); returns its row of hroe.tables, locked FOR UPDATE; ResourceNotFoundException when there is none';

CREATE OR REPLACE FUNCTION hroe.delete_index(p_table_name text, p_index_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	c name;
	v_schema name;
BEGIN
	t := hroe.index_delete_table(p_table_name);
	-- (a local secondary index cannot be deleted: it is not a GSI)
	SELECT * INTO x FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name AND NOT local;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	DELETE FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid;
	EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.index_relname);
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid, x.key_check);
	-- a key column goes with the last index that uses it; pk and sk stay
	FOREACH c IN ARRAY x.partition_key_columns || x.sort_key_columns LOOP
		IF c NOT IN ('pk', 'sk') AND NOT EXISTS (
			SELECT FROM hroe.indexes o WHERE o.table_name = p_table_name
			AND c = ANY (o.partition_key_columns || o.sort_key_columns)) THEN
			EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, c);
		END IF;
	END LOOP;
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid, format('SELECT hroe.delete_index(%L, %L)::text', p_table_name, p_index_name));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_index(text, text) IS
'UpdateTable Delete GlobalSecondaryIndex: drops the index, its key CHECK constraint and the generated key columns no other index uses (never pk or sk)';

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

-- hroe.dynamodb_error reads the SQLSTATE of an exception from the C table
-- (hroe.dynamodb_errors()) in place of a CASE of its own
CREATE OR REPLACE FUNCTION hroe.dynamodb_error(p_exception text, p_message text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RAISE EXCEPTION USING
		MESSAGE = p_message,
		ERRCODE = coalesce((SELECT e.sqlstate FROM hroe.dynamodb_errors() e
							WHERE e.exception OPERATOR(pg_catalog.=) p_exception), 'HR000'),
		DETAIL = format('DynamoDB %s.', p_exception);
END
$$;
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'internal: Raises DynamoDB exception p_exception (ValidationException, ResourceNotFoundException, ...) with DynamoDB''s text p_message as the message: its SQLSTATE of class HR as hroe.dynamodb_errors() (the C table of src/base/errors.c, the one place of that mapping) gives it, HR000 (ValidationException) for a name it lacks';

-- one enumeration check (hroe.enum_errors, hroe.check_enum) in place of inline
-- ones and of hroe.transfer_check_enum
CREATE FUNCTION hroe.enum_errors(p_value text, p_member text, p_values text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN p_value IS NULL OR p_value OPERATOR(pg_catalog.=) ANY (p_values) THEN '{}'::text[]
			ELSE ARRAY[format('Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy enum value set: [%s]',
							  p_value, p_member, array_to_string(p_values, ', '))] END;
COMMENT ON FUNCTION hroe.enum_errors(text, text, text[]) IS
'internal: DynamoDB''s validation error (as one text of a list, without "1 validation error detected: ") when p_value (member p_member) is not NULL and not one of p_values (listed in that order), else an empty list';

CREATE FUNCTION hroe.check_enum(p_value text, p_member text, p_values text[]) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_errors text[] := hroe.enum_errors(p_value, p_member, p_values);
BEGIN
	IF cardinality(v_errors) > 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException', '1 validation error detected: ' || v_errors[1]);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_enum(text, text, text[]) IS
'internal: Raises DynamoDB''s ValidationException unless p_value (member p_member) is NULL or one of p_values (hroe.enum_errors)';

CREATE OR REPLACE FUNCTION hroe.check_key_type(p_type text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM hroe.check_enum(coalesce(p_type, 'null'), p_what, '{B,N,S}');
END
$$;
CREATE FUNCTION hroe.set_table_options(p_table_name text, p_table_class text DEFAULT NULL,
									   p_sse_enabled boolean DEFAULT NULL, p_sse_kms_key text DEFAULT NULL,
									   p_warm_read bigint DEFAULT NULL, p_warm_write bigint DEFAULT NULL,
									   p_index_warm jsonb DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	o hroe.table_options;
	x hroe.indexes;
	io hroe.index_options;
	v_name text;
	v_warm bigint[];
	v_read bigint;
	v_write bigint;
	v_changed boolean := false;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.check_enum(p_table_class, 'tableClass', '{STANDARD,STANDARD_INFREQUENT_ACCESS}');
	FOR v_name IN SELECT jsonb_object_keys(coalesce(p_index_warm, '{}')) LOOP
		IF NOT EXISTS (SELECT FROM hroe.indexes WHERE table_name = p_table_name AND index_name = v_name AND NOT local) THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Index: %s not found', v_name));
		END IF;
	END LOOP;
	INSERT INTO hroe.table_options (table_name) VALUES (p_table_name) ON CONFLICT (table_name) DO NOTHING;
	SELECT * INTO o FROM hroe.table_options WHERE table_name = p_table_name FOR UPDATE;

	IF p_table_class IS NOT NULL THEN
		UPDATE hroe.table_options SET table_class = p_table_class, table_class_updated_at = now()
		WHERE table_name = p_table_name;
		v_changed := v_changed OR p_table_class IS DISTINCT FROM o.table_class;
	END IF;
	IF p_sse_enabled IS NOT NULL THEN
		UPDATE hroe.table_options
		SET sse_kms_key_arn = CASE WHEN p_sse_enabled THEN hroe.kms_key_arn(p_sse_kms_key) END
		WHERE table_name = p_table_name;
		v_changed := true;
	END IF;
	IF p_warm_read IS NOT NULL OR p_warm_write IS NOT NULL THEN
		-- warm throughput is only ever raised
		v_warm := hroe.warm_throughput(o.warm_read_units, o.warm_write_units,
									   t.read_capacity_units, t.write_capacity_units, t.billing_mode);
		IF p_warm_read < v_warm[1] OR p_warm_write < v_warm[2] THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				-- (DynamoDB's text: UpdateTable refuses any decrease, of either member)
				'One or more parameter values were invalid: decreasing WarmThroughput is not supported');
		END IF;
		UPDATE hroe.table_options
		SET warm_read_units = coalesce(p_warm_read, v_warm[1]),
			warm_write_units = coalesce(p_warm_write, v_warm[2])
		WHERE table_name = p_table_name;
		v_changed := true;
	END IF;
	FOR x IN SELECT * FROM hroe.indexes
			 WHERE table_name = p_table_name AND coalesce(p_index_warm ? index_name, false) LOOP
		v_read := (p_index_warm -> x.index_name ->> 0)::bigint;
		v_write := (p_index_warm -> x.index_name ->> 1)::bigint;
		SELECT * INTO io FROM hroe.index_options WHERE table_name = p_table_name AND index_name = x.index_name;
		v_warm := hroe.warm_throughput(io.warm_read_units, io.warm_write_units,
									   x.read_capacity_units, x.write_capacity_units, t.billing_mode);
		IF v_read < v_warm[1] OR v_write < v_warm[2] THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				-- (DynamoDB's text: UpdateTable refuses any decrease, of either member)
				'One or more parameter values were invalid: decreasing WarmThroughput is not supported');
		END IF;
		INSERT INTO hroe.index_options (table_name, index_name, warm_read_units, warm_write_units)
		VALUES (p_table_name, x.index_name, coalesce(v_read, v_warm[1]), coalesce(v_write, v_warm[2]))
		ON CONFLICT (table_name, index_name) DO UPDATE
		SET warm_read_units = excluded.warm_read_units, warm_write_units = excluded.warm_write_units;
	END LOOP;
	RETURN v_changed;
END
$$;
COMMENT ON FUNCTION hroe.set_table_options(text, text, boolean, text, bigint, bigint, jsonb) IS
'CreateTable''s and UpdateTable''s options of table p_table_name (NULL: unchanged): table class STANDARD or STANDARD_INFREQUENT_ACCESS, server-side encryption (p_sse_enabled true: KMS with key p_sse_kms_key, NULL the AWS managed key; false: an AWS owned key), warm throughput of the table (p_warm_read, p_warm_write) and of GSIs (p_index_warm {"index": [read, write]}), which is only ever raised (a lower value is a ValidationException). True if the table changes (it is then UPDATING)';
CREATE FUNCTION hroe.update_contributor_insights(p_table_name text, p_index_name text,
												 p_action text, p_mode text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_mode text;
BEGIN
	PERFORM hroe.check_enum(coalesce(p_action, ''), 'contributorInsightsAction', '{ENABLE,DISABLE}');
	PERFORM hroe.check_enum(p_mode, 'contributorInsightsMode', '{ACCESSED_AND_THROTTLED_KEYS,THROTTLED_KEYS}');
	PERFORM hroe.check_table_owner(p_table_name);
	PERFORM hroe.contributor_insights_state(p_table_name, p_index_name);
	-- ENABLE without a mode (again) takes the default
	v_mode := CASE WHEN p_action = 'ENABLE' THEN coalesce(p_mode, 'ACCESSED_AND_THROTTLED_KEYS') END;
	IF p_index_name IS NULL THEN
		INSERT INTO hroe.table_options AS o (table_name, contributor_insights_mode, contributor_insights_at)
		VALUES (p_table_name, v_mode, now())
		ON CONFLICT (table_name) DO UPDATE
		SET contributor_insights_mode = excluded.contributor_insights_mode, contributor_insights_at = now();
	ELSE
		INSERT INTO hroe.index_options AS o (table_name, index_name, contributor_insights_mode, contributor_insights_at)
		VALUES (p_table_name, p_index_name, v_mode, now())
		ON CONFLICT (table_name, index_name) DO UPDATE
		SET contributor_insights_mode = excluded.contributor_insights_mode, contributor_insights_at = now();
	END IF;
	RETURN jsonb_strip_nulls(jsonb_build_object(
		'TableName', p_table_name,
		'IndexName', p_index_name,
		'ContributorInsightsStatus', CASE WHEN v_mode IS NULL THEN 'DISABLING' ELSE 'ENABLING' END,
		'ContributorInsightsMode', v_mode));
END
$$;
COMMENT ON FUNCTION hroe.update_contributor_insights(text, text, text, text) IS
'UpdateContributorInsights: p_action ENABLE (mode p_mode, default ACCESSED_AND_THROTTLED_KEYS: the most accessed and the most throttled keys; THROTTLED_KEYS: the throttled only) or DISABLE Contributor Insights of table p_table_name (p_index_name NULL) or of its index; the answer''s status is ENABLING or DISABLING, as DynamoDB''s (hroe.describe_contributor_insights then shows ENABLED or DISABLED). The counts start when the backends'' cached metadata of the table is refreshed (the JSON API invalidates it)';
CREATE OR REPLACE FUNCTION hroe.update_table(p_table_name text, p_billing_mode text DEFAULT NULL,
								  p_read_capacity_units bigint DEFAULT NULL,
								  p_write_capacity_units bigint DEFAULT NULL,
								  p_deletion_protection boolean DEFAULT NULL,
								  p_index_throughput jsonb DEFAULT NULL,
								  p_new_index text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_mode text;
	v_name text;
	v_missing text;
	v_read bigint;
	v_write bigint;
	v_changed boolean := false;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.check_enum(p_billing_mode, 'billingMode', '{PROVISIONED,PAY_PER_REQUEST}');
	IF (p_read_capacity_units IS NULL) <> (p_write_capacity_units IS NULL) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED');
	END IF;
	v_mode := coalesce(p_billing_mode, t.billing_mode);
	IF p_read_capacity_units IS NOT NULL AND v_mode = 'PAY_PER_REQUEST' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST');
	END IF;
	IF p_read_capacity_units IS NULL AND v_mode = 'PROVISIONED' AND t.billing_mode = 'PAY_PER_REQUEST' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED');
	END IF;
	FOR v_name IN SELECT jsonb_object_keys(coalesce(p_index_throughput, '{}')) LOOP
		IF v_mode = 'PAY_PER_REQUEST' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST', v_name));
		END IF;
		IF NOT EXISTS (SELECT FROM hroe.indexes WHERE table_name = p_table_name AND index_name = v_name AND NOT local) THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Index: %s not found', v_name));
		END IF;
	END LOOP;
	-- on a PROVISIONED table every GSI has its throughput: those of a
	-- table that becomes PROVISIONED, and a new one, need it given
	IF v_mode = 'PROVISIONED' THEN
		SELECT string_agg(index_name, ',' ORDER BY index_name) INTO v_missing
		FROM hroe.indexes
		WHERE table_name = p_table_name AND NOT local AND read_capacity_units IS NULL
			  AND NOT coalesce(p_index_throughput ? index_name, false);
		IF v_missing IS NOT NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: ProvisionedThroughput must be specified for index: %s', v_missing));
		END IF;
	END IF;

	-- the table's throughput and billing mode
	IF p_read_capacity_units IS NOT NULL THEN
		IF t.billing_mode = 'PROVISIONED' THEN
			PERFORM hroe.check_throughput_change(t.read_capacity_units, t.write_capacity_units,
												 p_read_capacity_units, p_write_capacity_units);
		END IF;
		UPDATE hroe.tables
		SET billing_mode = 'PROVISIONED',
			read_capacity_units = p_read_capacity_units,
			write_capacity_units = p_write_capacity_units,
			last_increase_at = CASE WHEN t.billing_mode = 'PROVISIONED'
										 AND (p_read_capacity_units > t.read_capacity_units
											  OR p_write_capacity_units > t.write_capacity_units)
									THEN now() ELSE last_increase_at END,
			last_decrease_at = CASE WHEN t.billing_mode = 'PROVISIONED'
										 AND (p_read_capacity_units < t.read_capacity_units
											  OR p_write_capacity_units < t.write_capacity_units)
									THEN now() ELSE last_decrease_at END,
			decreases_today = hroe.decreases_today(t.billing_mode = 'PROVISIONED'
												   AND (p_read_capacity_units < t.read_capacity_units
														OR p_write_capacity_units < t.write_capacity_units),
												   last_decrease_at, decreases_today)
		WHERE table_name = p_table_name;
		v_changed := true;
	ELSIF v_mode = 'PAY_PER_REQUEST' AND t.billing_mode = 'PROVISIONED' THEN
		UPDATE hroe.tables
		SET billing_mode = 'PAY_PER_REQUEST', read_capacity_units = NULL, write_capacity_units = NULL,
			pay_per_request_since = now()
		WHERE table_name = p_table_name;
		UPDATE hroe.indexes SET read_capacity_units = NULL, write_capacity_units = NULL
		WHERE table_name = p_table_name;
		v_changed := true;
	END IF;

	-- each GSI's throughput
	FOR x IN SELECT * FROM hroe.indexes
			 WHERE table_name = p_table_name AND coalesce(p_index_throughput ? index_name, false) LOOP
		v_read := (p_index_throughput -> x.index_name ->> 0)::bigint;
		v_write := (p_index_throughput -> x.index_name ->> 1)::bigint;
		IF x.read_capacity_units IS NOT NULL AND t.billing_mode = 'PROVISIONED' THEN
			PERFORM hroe.check_throughput_change(x.read_capacity_units, x.write_capacity_units, v_read, v_write);
		END IF;
		UPDATE hroe.indexes
		SET read_capacity_units = v_read,
			write_capacity_units = v_write,
			last_increase_at = CASE WHEN x.read_capacity_units IS NOT NULL
										 AND (v_read > x.read_capacity_units OR v_write > x.write_capacity_units)
									THEN now() ELSE last_increase_at END,
			last_decrease_at = CASE WHEN x.read_capacity_units IS NOT NULL
										 AND (v_read < x.read_capacity_units OR v_write < x.write_capacity_units)
									THEN now() ELSE last_decrease_at END,
			decreases_today = hroe.decreases_today(x.read_capacity_units IS NOT NULL
												   AND (v_read < x.read_capacity_units OR v_write < x.write_capacity_units),
												   last_decrease_at, decreases_today)
		WHERE table_name = p_table_name AND index_name = x.index_name;
	END LOOP;

	IF p_deletion_protection IS NOT NULL THEN
		UPDATE hroe.tables SET deletion_protection = p_deletion_protection WHERE table_name = p_table_name;
	END IF;
	RETURN v_changed;
END
$$;
CREATE OR REPLACE FUNCTION hroe.enable_stream(p_table_name text, p_view_type text)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_id bigint;
	v_label text;
	v_now timestamptz := clock_timestamp();
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.check_enum(coalesce(p_view_type, ''), 'streamSpecification.streamViewType',
							'{NEW_IMAGE,OLD_IMAGE,NEW_AND_OLD_IMAGES,KEYS_ONLY}');
	IF EXISTS (SELECT FROM hroe.streams WHERE table_name = p_table_name AND disabled_at IS NULL) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Table already has an enabled stream: TableName: %s', p_table_name));
	END IF;
	-- a new label each time (a stream re-enabled in the same millisecond waits for the next)
	LOOP
		v_label := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS');
		EXIT WHEN NOT EXISTS (SELECT FROM hroe.streams WHERE table_name = p_table_name AND label = v_label);
		v_now := v_now + interval '1 millisecond';
	END LOOP;
	INSERT INTO hroe.streams (table_name, view_type, label, created_at)
	VALUES (p_table_name, p_view_type, v_label, v_now) RETURNING stream_id INTO v_id;
	EXECUTE format('CREATE TRIGGER hroe_stream AFTER INSERT OR UPDATE OR DELETE ON %s'
				   ' FOR EACH ROW EXECUTE FUNCTION hroe.stream_capture(%L, %L, %L, %L)',
				   t.relid, v_id, p_view_type, t.partition_key, coalesce(t.sort_key, ''));
	RETURN hroe.stream_arn(p_table_name, v_label);
END
$$;
CREATE OR REPLACE FUNCTION hroe.streams_call(p_operation text, p_request jsonb, p_caller oid,
								   OUT response jsonb, OUT images hroe.item[])
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	s hroe.streams;
	t hroe.tables;
	r record;
	v_arn text;
	v_table text;
	v_limit int;
	v_max int;
	v_res jsonb;
	v_list jsonb := '[]';
	v_type text;
	v_seq numeric;
	v_pos bigint;
	v_last bigint;
	v_parts text[];
	v_issued bigint;
	v_now_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
	v_shard text;
	v_more boolean := false;
	v_iterator text;
BEGIN
	IF p_operation = 'GetRecords' THEN
		v_iterator := p_request ->> 'ShardIterator';
		IF v_iterator IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardIterator'' failed to satisfy constraint: Member must not be null');
		ELSIF length(v_iterator) > 2048 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value at ''shardIterator'' failed to satisfy constraint: Member must have length less than or equal to 2048');
		END IF;
		-- ARN|ShardId|position|issued (milliseconds)
		v_parts := string_to_array(v_iterator, '|');
		IF cardinality(v_parts) <> 4 OR v_parts[3] !~ '^[0-9]{1,18}$' OR v_parts[4] !~ '^[0-9]{1,18}$' THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		v_arn := v_parts[1];
	ELSIF p_operation <> 'ListStreams' THEN
		v_arn := p_request ->> 'StreamArn';
		IF v_arn IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''streamArn'' failed to satisfy constraint: Member must not be null');
		ELSIF length(v_arn) < 37 OR length(v_arn) > 1024 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''streamArn'' failed to satisfy constraint: Member must have length %s',
					   v_arn, CASE WHEN length(v_arn) < 37 THEN 'greater than or equal to 37' ELSE 'less than or equal to 1024' END));
		END IF;
	END IF;
	IF p_request ? 'Limit' THEN
		IF jsonb_typeof(p_request -> 'Limit') <> 'number' OR (p_request ->> 'Limit')::numeric <> trunc((p_request ->> 'Limit')::numeric) THEN
			PERFORM hroe.dynamodb_error('SerializationException', 'NUMBER_VALUE cannot be converted to Integer');
		END IF;
		v_limit := greatest(least((p_request ->> 'Limit')::numeric, 2147483647), -2147483648);
		v_max := CASE p_operation WHEN 'GetRecords' THEN 1000 ELSE 100 END;
		IF v_limit < 1 OR v_limit > v_max THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''limit'' failed to satisfy constraint: Member must have value %s',
					   v_limit, CASE WHEN v_limit < 1 THEN 'greater than or equal to 1'
									 ELSE 'less than or equal to ' || v_max END));
		END IF;
	END IF;

	IF p_operation = 'ListStreams' THEN
		v_table := p_request ->> 'TableName';
		IF v_table IS NOT NULL AND NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = v_table) THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Table: %s not found', v_table));
		END IF;
		FOR r IN
			SELECT s2.*, hroe.stream_arn(s2.table_name, s2.label) AS arn
			FROM hroe.streams s2 JOIN hroe.tables t2 USING (table_name)
			WHERE (v_table IS NULL OR s2.table_name = v_table)
			  AND has_table_privilege(p_caller, t2.relid, 'SELECT')
			  AND (p_request ->> 'ExclusiveStartStreamArn' IS NULL
				   OR s2.stream_id > coalesce((SELECT s3.stream_id FROM hroe.streams s3
											   WHERE hroe.stream_arn(s3.table_name, s3.label) = p_request ->> 'ExclusiveStartStreamArn'), 0))
			ORDER BY s2.stream_id
			LIMIT coalesce(v_limit, 100) + 1
		LOOP
			IF jsonb_array_length(v_list) = coalesce(v_limit, 100) THEN
				v_more := true;
				EXIT;
			END IF;
			v_list := v_list || jsonb_build_object('StreamArn', r.arn, 'TableName', r.table_name, 'StreamLabel', r.label);
		END LOOP;
		v_res := jsonb_build_object('Streams', v_list);
		IF v_more THEN
			v_res := v_res || jsonb_build_object('LastEvaluatedStreamArn', v_list -> -1 ->> 'StreamArn');
		END IF;
		response := v_res;
		RETURN;
	END IF;

	-- the stream of an ARN the caller may read
	SELECT s2.* INTO s FROM hroe.streams s2
	WHERE v_arn ~ '^arn:aws:dynamodb:[^:]*:[0-9]{12}:table/[^/]+/stream/.+$'
	  AND s2.table_name = substring(v_arn FROM ':table/([^/]+)/stream/')
	  AND s2.label = substring(v_arn FROM '/stream/(.+)$');
	IF FOUND THEN
		SELECT * INTO t FROM hroe.tables WHERE table_name = s.table_name;
	END IF;
	IF NOT FOUND OR NOT has_table_privilege(p_caller, t.relid, 'SELECT') THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Stream: %s not found', v_arn));
	END IF;
	v_shard := hroe.stream_shard_id(s.stream_id, s.label);

	IF p_operation = 'DescribeStream' THEN
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		response := jsonb_build_object('StreamDescription', jsonb_build_object(
			'StreamArn', v_arn,
			'StreamLabel', s.label,
			'StreamStatus', CASE WHEN s.disabled_at IS NULL THEN 'ENABLED' ELSE 'DISABLED' END,
			'StreamViewType', s.view_type,
			'CreationRequestDateTime', extract(epoch FROM s.created_at),
			'TableName', s.table_name,
			'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', t.partition_key, 'KeyType', 'HASH'))
						 || CASE WHEN t.sort_key IS NOT NULL
								 THEN jsonb_build_array(jsonb_build_object('AttributeName', t.sort_key, 'KeyType', 'RANGE'))
								 ELSE '[]' END,
			'Shards', CASE WHEN p_request ->> 'ExclusiveStartShardId' = v_shard THEN '[]'::jsonb
						   ELSE jsonb_build_array(jsonb_build_object(
								'ShardId', v_shard,
								'SequenceNumberRange', jsonb_strip_nulls(jsonb_build_object(
									'StartingSequenceNumber', hroe.stream_seq_text(s.trimmed_seq + 1),
									'EndingSequenceNumber', CASE WHEN s.disabled_at IS NOT NULL
																 THEN hroe.stream_seq_text(greatest(s.last_seq, s.trimmed_seq + 1)) END))))
					  END));
		RETURN;
	END IF;

	IF p_operation = 'GetShardIterator' THEN
		v_type := p_request ->> 'ShardIteratorType';
		IF p_request ->> 'ShardId' IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardId'' failed to satisfy constraint: Member must not be null');
		ELSIF v_type IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardIteratorType'' failed to satisfy constraint: Member must not be null');
		END IF;
		PERFORM hroe.check_enum(v_type, 'shardIteratorType', '{AFTER_SEQUENCE_NUMBER,LATEST,AT_SEQUENCE_NUMBER,TRIM_HORIZON}');
		IF p_request ->> 'ShardId' <> v_shard THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Shard does not exist: %s', p_request ->> 'ShardId'));
		END IF;
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		IF v_type IN ('AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER') THEN
			IF p_request ->> 'SequenceNumber' IS NULL THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Must specify SequenceNumber when ShardIteratorType is %s', v_type));
			END IF;
			IF p_request ->> 'SequenceNumber' !~ '^[0-9]{21,40}$' THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('1 validation error detected: Value ''%s'' at ''sequenceNumber'' failed to satisfy constraint: Member must have length greater than or equal to 21',
						   p_request ->> 'SequenceNumber'));
			END IF;
			v_seq := (p_request ->> 'SequenceNumber')::numeric - 100000000000000000000::numeric;
			IF v_seq < 1 OR v_seq > v_last THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid SequenceNumber for ShardIteratorType %s: %s', v_type, p_request ->> 'SequenceNumber'));
			END IF;
			IF v_seq <= s.trimmed_seq THEN
				PERFORM hroe.dynamodb_error('TrimmedDataAccessException',
					format('The sequence number %s of the stream %s has been trimmed: the stream keeps its records for 24 hours',
						   p_request ->> 'SequenceNumber', v_arn));
			END IF;
			v_pos := v_seq - CASE v_type WHEN 'AT_SEQUENCE_NUMBER' THEN 1 ELSE 0 END;
		ELSIF v_type = 'LATEST' THEN
			v_pos := v_last;
		ELSE
			v_pos := s.trimmed_seq;
		END IF;
		response := jsonb_build_object('ShardIterator', concat_ws('|', v_arn, v_shard, v_pos, v_now_ms));
		RETURN;
	END IF;

	IF p_operation = 'GetRecords' THEN
		IF v_parts[2] <> v_shard THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		v_pos := v_parts[3]::bigint;
		v_issued := v_parts[4]::bigint;
		IF v_issued > v_now_ms + 60000 THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		IF v_now_ms - v_issued > 15 * 60 * 1000 THEN
			PERFORM hroe.dynamodb_error('ExpiredIteratorException',
				format('Shard iterator has expired: it was created at %s, and an iterator is valid for 15 minutes',
					   to_char(to_timestamp(v_issued / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
		END IF;
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		IF v_pos > v_last THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		IF v_pos < s.trimmed_seq THEN
			PERFORM hroe.dynamodb_error('TrimmedDataAccessException',
				format('The records after sequence number %s of the stream %s have been trimmed: the stream keeps its records for 24 hours',
					   hroe.stream_seq_text(v_pos), v_arn));
		END IF;
		-- at most Limit records, and 1 MB (at least one record); their keys
		-- and images as hroe.item, which may hold U+0000 (jsonb cannot)
		SELECT coalesce(jsonb_agg(x.rec ORDER BY x.seq), '[]'), max(x.seq),
			   coalesce(array_agg(ARRAY[x.keys, x.new_image, x.old_image] ORDER BY x.seq), '{}')
		INTO v_list, v_seq, images
		FROM (SELECT sr.seq, sum(sr.size_bytes) OVER (ORDER BY sr.seq) AS total,
					 row_number() OVER (ORDER BY sr.seq) AS n,
					 jsonb_strip_nulls(jsonb_build_object(
						'eventID', md5(s.stream_id || ':' || sr.seq),
						'eventName', CASE sr.event WHEN 'I' THEN 'INSERT' WHEN 'M' THEN 'MODIFY' ELSE 'REMOVE' END,
						'eventVersion', '1.1',
						'eventSource', 'aws:dynamodb',
						'awsRegion', current_setting('hroe.region'),
						'dynamodb', jsonb_strip_nulls(jsonb_build_object(
							'ApproximateCreationDateTime', floor(extract(epoch FROM sr.created_at)),
							'SequenceNumber', hroe.stream_seq_text(sr.seq),
							'SizeBytes', sr.size_bytes,
							'StreamViewType', s.view_type)),
						'userIdentity', CASE WHEN sr.service
											 THEN jsonb_build_object('type', 'Service', 'principalId', 'dynamodb.amazonaws.com') END)) AS rec,
					 sr.keys, sr.new_image, sr.old_image
			  FROM (SELECT * FROM hroe.stream_records
					WHERE stream_id = s.stream_id AND seq > v_pos AND seq <= v_last
					ORDER BY seq LIMIT coalesce(v_limit, 1000)) sr) x
		WHERE x.n = 1 OR x.total <= 1048576;
		v_pos := coalesce(v_seq, v_pos);
		v_res := jsonb_build_object('Records', v_list);
		-- a closed shard read to its end has no next iterator
		IF s.disabled_at IS NULL OR v_pos < s.last_seq THEN
			v_res := v_res || jsonb_build_object('NextShardIterator', concat_ws('|', v_arn, v_shard, v_pos, v_now_ms));
		END IF;
		response := v_res;
		RETURN;
	END IF;
	RAISE EXCEPTION 'unknown DynamoDB Streams operation "%"', p_operation;
END
$$;
CREATE FUNCTION hroe.import_table(p_s3_bucket_source jsonb, p_input_format text,
								  p_table_creation_parameters jsonb,
								  p_input_compression_type text DEFAULT 'NONE',
								  p_input_format_options jsonb DEFAULT NULL,
								  p_client_token text DEFAULT NULL,
								  p_schema name DEFAULT pg_catalog.current_schema())
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text;
	v_bucket text := p_s3_bucket_source->>'S3Bucket';
	v_request jsonb;
	v_row hroe.imports;
	v_id text;
	v_csv jsonb := p_input_format_options->'Csv';
	v_created jsonb;
BEGIN
	IF p_s3_bucket_source IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''s3BucketSource'' failed to satisfy constraint: Member must not be null');
	ELSIF p_input_format IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''inputFormat'' failed to satisfy constraint: Member must not be null');
	ELSIF p_table_creation_parameters IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''tableCreationParameters'' failed to satisfy constraint: Member must not be null');
	ELSIF v_bucket IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''s3BucketSource.s3Bucket'' failed to satisfy constraint: Member must not be null');
	END IF;
	PERFORM hroe.check_enum(p_input_format, 'inputFormat', '{DYNAMODB_JSON,ION,CSV}');
	PERFORM hroe.check_enum(p_input_compression_type, 'inputCompressionType', '{GZIP,ZSTD,NONE}');
	IF v_csv IS NOT NULL AND p_input_format <> 'CSV' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'InputFormatOptions can only be specified with the CSV input format');
	END IF;
	IF length(v_csv->>'Delimiter') <> 1 OR (v_csv->>'Delimiter') !~ '^[,\t:;| ]$' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''inputFormatOptions.csv.delimiter'' failed to satisfy constraint: Member must satisfy regular expression pattern: [,;:|\t ]',
				   v_csv->>'Delimiter'));
	END IF;
	IF jsonb_typeof(v_csv->'HeaderList') IS DISTINCT FROM 'array' AND v_csv ? 'HeaderList' THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'HeaderList must be a list of attribute names');
	END IF;
	v_table := p_table_creation_parameters->>'TableName';
	PERFORM hroe.s3_check_bucket(v_bucket, p_s3_bucket_source->>'S3KeyPrefix', false);
	v_request := jsonb_strip_nulls(jsonb_build_object(
		'S3BucketSource', p_s3_bucket_source, 'InputFormat', p_input_format,
		'InputCompressionType', coalesce(p_input_compression_type, 'NONE'),
		'InputFormatOptions', p_input_format_options,
		'TableCreationParameters', p_table_creation_parameters));
	IF p_client_token IS NOT NULL THEN
		SELECT * INTO v_row FROM hroe.imports i
		WHERE i.client_token = p_client_token AND i.requested_by = (SELECT oid FROM pg_roles WHERE rolname = current_user)
		  AND i.start_time > clock_timestamp() - interval '8 hours'
		ORDER BY i.start_time DESC LIMIT 1;
		IF FOUND THEN
			IF v_row.request <> v_request THEN
				PERFORM hroe.dynamodb_error('IdempotentParameterMismatchException',
					'The provided ClientToken was already used with different parameters');
			END IF;
			RETURN jsonb_build_object('ImportTableDescription', hroe.import_description(v_row));
		END IF;
	END IF;
	-- the table, with its indexes, as CreateTable makes it (its errors are CreateTable's)
	-- (CreateTable makes the table in the caller's current schema, p_schema)
	PERFORM set_config('search_path', format('%I, pg_catalog, pg_temp', coalesce(p_schema, 'public')), true);
	v_created := hroe.dynamodb('CreateTable', p_table_creation_parameters);
	PERFORM set_config('search_path', 'pg_catalog, pg_temp', true);
	IF v_created->>'__type' LIKE '%#AccessDeniedException' THEN
		RAISE EXCEPTION '%', v_created->>'message' USING ERRCODE = 'insufficient_privilege';
	ELSIF v_created ? '__type' THEN
		PERFORM hroe.dynamodb_error(split_part(v_created->>'__type', '#', 2), v_created->>'message');
	END IF;
	v_id := lpad((extract(epoch FROM clock_timestamp()) * 1000)::bigint::text, 14, '0')
			|| '-' || left(md5(gen_random_uuid()::text), 8);
	INSERT INTO hroe.imports (import_arn, table_name, table_arn, requested_by, client_token, request,
							  input_format, input_compression_type, input_format_options,
							  s3_bucket, s3_key_prefix, s3_bucket_owner, table_creation_parameters)
	VALUES (hroe.table_arn(v_table) || '/import/' || v_id, v_table, hroe.table_arn(v_table),
			(SELECT oid FROM pg_roles WHERE rolname = current_user), p_client_token, v_request,
			p_input_format, coalesce(p_input_compression_type, 'NONE'), p_input_format_options,
			v_bucket, p_s3_bucket_source->>'S3KeyPrefix', p_s3_bucket_source->>'S3BucketOwner',
			p_table_creation_parameters)
	RETURNING * INTO v_row;
	PERFORM hroe.transfer_start('import', v_row.job_id);
	RETURN jsonb_build_object('ImportTableDescription', hroe.import_description(v_row));
END
$$;
COMMENT ON FUNCTION hroe.import_table(jsonb, text, jsonb, text, jsonb, text, name) IS
'ImportTable: creates the table p_table_creation_parameters describe (with its GSIs, as CreateTable, in schema p_schema: by default the caller''s current schema) and starts hroe''s import worker, which puts every item of the files under p_s3_bucket_source''s bucket (a directory under hroe.s3_root) and S3KeyPrefix: DYNAMODB_JSON or ION lines ({"Item": ...}) or CSV (p_input_format_options: {"Csv": {"Delimiter", "HeaderList"}}), compressed GZIP, ZSTD or NONE; a line it cannot import is counted in ErrorCount and logged. The caller needs membership in hroe_import or pg_read_server_files. Returns {"ImportTableDescription": ...}';

-- one reading of a table ARN (hroe_arn_parse in C; hroe.arn_parse,
-- hroe.request_table_name) in place of hroe.pitr_table_name, the copies of
-- its body in the backups' functions and resource_policy_target's pattern
CREATE FUNCTION hroe.arn_parse(p_arn text, OUT table_name text, OUT resource text, OUT ours boolean)
AS 'MODULE_PATHNAME', 'hroe_arn_parse_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.arn_parse(text) IS
'internal: The parts of table ARN p_arn (arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME[RESOURCE]): the table name, what follows it ('''' for the table itself, /index/NAME, /stream/LABEL, ...) and whether its partition is aws and its region and account hroe.region and hroe.account_id; three NULLs for a text that is not a table ARN';

CREATE FUNCTION hroe.request_table_name(p_name text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN coalesce((SELECT a.table_name FROM hroe.arn_parse(p_name) a
				 WHERE a.ours AND a.resource OPERATOR(pg_catalog.=) ''), p_name);
COMMENT ON FUNCTION hroe.request_table_name(text) IS
'internal: The table name p_name names: the name in a table ARN of this region and account (hroe.arn_parse), else p_name itself';

CREATE FUNCTION hroe.resource_policy_target(p_resource_arn text, OUT table_name text, OUT stream_label text)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_arn record := hroe.arn_parse(p_resource_arn);
BEGIN
	IF v_arn.table_name IS NULL OR v_arn.resource !~ '^(/stream/[^/]+)?$' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Invalid ResourceArn provided as input %s', p_resource_arn));
	END IF;
	IF NOT v_arn.ours THEN
		RAISE EXCEPTION 'ARN "%" is not one of this database''s (hroe.region %, hroe.account_id %)',
			p_resource_arn, current_setting('hroe.region'), current_setting('hroe.account_id')
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	table_name := v_arn.table_name;
	stream_label := substr(v_arn.resource, length('/stream/') + 1);
	IF NOT EXISTS (SELECT FROM hroe.tables t WHERE t.table_name = v_arn.table_name)
	   OR (stream_label <> '' AND NOT EXISTS (SELECT FROM hroe.streams s
											  WHERE s.table_name = v_arn.table_name AND s.label = stream_label)) THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourceArn: %s not found', p_resource_arn));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.resource_policy_target(text) IS
'internal: The table and the stream label ('''' for the table itself) a table ARN (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME) or stream ARN (.../stream/LABEL) of this database names, as hroe.arn_parse reads it; a ValidationException for any other string, AccessDeniedException for another partition''s, region''s or account''s, ResourceNotFoundException for a table or stream that does not exist';

CREATE FUNCTION hroe.create_backup(p_table_name text, p_backup_name text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- (TableName may be the table's ARN)
	v_table text := hroe.request_table_name(p_table_name);
	t hroe.tables;
	b hroe.backups;
	v_ttl hroe.time_to_live;
	v_view text;
	v_at timestamptz := clock_timestamp();
	v_ms bigint := floor(EXTRACT(epoch FROM v_at) * 1000);
	v_features jsonb;
BEGIN
	PERFORM hroe.backup_validation(
		CASE WHEN p_table_name IS NULL
			 THEN ARRAY['Value null at ''tableName'' failed to satisfy constraint: Member must not be null']
			 ELSE '{}'::text[] END
		|| hroe.backup_name_errors(p_backup_name, 'backupName'));
	SELECT * INTO t FROM hroe.tables WHERE table_name = v_table;
	IF t.table_name IS NULL THEN
		PERFORM hroe.dynamodb_error('TableNotFoundException', format('Table not found: %s', v_table));
	END IF;
	-- ACCESS SHARE, as any reader: a table being deleted (or whose keys are
	-- being changed) holds ACCESS EXCLUSIVE until it commits, and is in use
	BEGIN
		EXECUTE format('LOCK TABLE %s IN ACCESS SHARE MODE NOWAIT', t.relid);
	EXCEPTION WHEN lock_not_available THEN
		PERFORM hroe.dynamodb_error('TableInUseException', format('Table is being updated or deleted: %s', v_table));
	END;
	SELECT * INTO v_ttl FROM hroe.time_to_live WHERE table_name = v_table;
	SELECT s.view_type INTO v_view FROM hroe.streams s WHERE s.table_name = v_table AND s.disabled_at IS NULL;
	v_features := jsonb_strip_nulls(jsonb_build_object(
		'BillingMode', t.billing_mode,
		'StreamViewType', v_view,
		'TimeToLive', CASE WHEN v_ttl.table_name IS NOT NULL
						   THEN jsonb_build_object('AttributeName', v_ttl.attribute_name, 'Enabled', v_ttl.enabled) END));
	INSERT INTO hroe.backups (backup_arn, backup_name, table_name, created_at, description, features)
	VALUES (hroe.table_arn(v_table) || '/backup/' || lpad(v_ms::text, 14, '0') || '-'
			|| substr(md5(gen_random_uuid()::text), 1, 8),
			p_backup_name, v_table, v_at,
			hroe.table_description(v_table) - 'PostgresTable', v_features)
	RETURNING * INTO b;
	-- the items: one statement, so one snapshot, under ACCESS SHARE only
	EXECUTE format('WITH copied AS (INSERT INTO hroe.backup_items (backup_id, item) '
				   'SELECT $1, s.item FROM %s s RETURNING hroe.item_size(item) AS size) '
				   'SELECT count(*), coalesce(sum(size), 0) FROM copied', t.relid)
		INTO b.item_count, b.size_bytes USING b.backup_id;
	UPDATE hroe.backups SET item_count = b.item_count, size_bytes = b.size_bytes
	WHERE backup_id = b.backup_id;
	-- (DynamoDB answers CREATING; the backup is AVAILABLE once committed)
	RETURN hroe.backup_details(b, 'CREATING');
END
$$;
COMMENT ON FUNCTION hroe.create_backup(text, text) IS
'CreateBackup: an on-demand backup named p_backup_name of table p_table_name (its name or ARN): its items as of one snapshot (INSERT ... SELECT as the caller: SELECT privilege and row-level security apply; ACCESS SHARE, no writer blocked) and its description (keys, indexes, billing, stream and Time to Live settings; not its tags), kept in hroe.backups and hroe.backup_items until hroe.delete_backup, whatever becomes of the table; returns DynamoDB''s BackupDetails (BackupStatus CREATING, as DynamoDB answers); TableNotFoundException for a missing table';
CREATE FUNCTION hroe.list_backups(
	p_table_name text DEFAULT NULL,
	p_time_range_lower_bound timestamptz DEFAULT NULL,
	p_time_range_upper_bound timestamptz DEFAULT NULL,
	p_backup_type text DEFAULT 'USER',
	p_limit integer DEFAULT NULL,
	p_exclusive_start_backup_arn text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- (TableName may be the table's ARN)
	v_table text := hroe.request_table_name(p_table_name);
	v_errors text[] := '{}';
	v_start hroe.backups;
	v_rows jsonb;
	v_more boolean;
	v_last text;
BEGIN
	IF p_table_name IS NOT NULL AND p_table_name NOT LIKE 'arn:%' THEN
		v_errors := v_errors || hroe.backup_name_errors(p_table_name, 'tableName');
	END IF;
	IF p_limit IS NOT NULL AND (p_limit < 1 OR p_limit > 100) THEN
		v_errors := v_errors || format('Value ''%s'' at ''limit'' failed to satisfy constraint: Member must have value %s',
									   p_limit, CASE WHEN p_limit < 1 THEN 'greater than or equal to 1' ELSE 'less than or equal to 100' END);
	END IF;
	v_errors := v_errors || hroe.enum_errors(p_backup_type, 'backupType', '{USER,SYSTEM,AWS_BACKUP,ALL}');
	IF p_exclusive_start_backup_arn IS NOT NULL THEN
		v_errors := v_errors || CASE WHEN length(p_exclusive_start_backup_arn) < 37 OR length(p_exclusive_start_backup_arn) > 1024
									 THEN ARRAY[format('Value ''%s'' at ''exclusiveStartBackupArn'' failed to satisfy constraint: Member must have length %s',
													   p_exclusive_start_backup_arn,
													   CASE WHEN length(p_exclusive_start_backup_arn) < 37 THEN 'greater than or equal to 37'
															ELSE 'less than or equal to 1024' END)]
									 ELSE '{}'::text[] END;
	END IF;
	PERFORM hroe.backup_validation(v_errors);
	IF p_exclusive_start_backup_arn IS NOT NULL THEN
		SELECT * INTO v_start FROM hroe.backups WHERE backup_arn = p_exclusive_start_backup_arn;
		IF v_start.backup_id IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid ExclusiveStartBackupArn: %s', p_exclusive_start_backup_arn));
		END IF;
	END IF;
	-- (hroe makes no AWS_BACKUP backups)
	WITH page AS (
		SELECT b, row_number() OVER (ORDER BY b.created_at, b.backup_arn) AS n
		FROM hroe.backups b
		WHERE coalesce(p_backup_type, 'USER') IN (b.backup_type, 'ALL')
		  AND (v_table IS NULL OR b.table_name = v_table)
		  AND (p_time_range_lower_bound IS NULL OR b.created_at >= p_time_range_lower_bound)
		  AND (p_time_range_upper_bound IS NULL OR b.created_at < p_time_range_upper_bound)
		  AND (v_start.backup_id IS NULL OR (b.created_at, b.backup_arn) > (v_start.created_at, v_start.backup_arn))
		ORDER BY b.created_at, b.backup_arn
		LIMIT coalesce(p_limit, 2147483646) + 1)
	SELECT coalesce(jsonb_agg(jsonb_build_object(
			   'TableName', (p.b).table_name,
			   'TableId', (p.b).description->'TableId',
			   'TableArn', (p.b).description->'TableArn')
			   || (hroe.backup_details(p.b, 'AVAILABLE') - 'BackupName' || jsonb_build_object('BackupName', (p.b).backup_name))
			   ORDER BY p.n) FILTER (WHERE p.n <= coalesce(p_limit, 2147483646)), '[]'),
		   bool_or(p.n > coalesce(p_limit, 2147483646)),
		   max((p.b).backup_arn) FILTER (WHERE p.n = coalesce(p_limit, 2147483646))
	INTO v_rows, v_more, v_last
	FROM page p;
	RETURN jsonb_build_object('BackupSummaries', v_rows)
		   || CASE WHEN v_more THEN jsonb_build_object('LastEvaluatedBackupArn', v_last) ELSE '{}' END;
END
$$;
COMMENT ON FUNCTION hroe.list_backups(text, timestamptz, timestamptz, text, integer, text) IS
'ListBackups: the backups the caller sees, oldest first, as DynamoDB''s {"BackupSummaries": [...], "LastEvaluatedBackupArn"} (the latter while more remain): of table p_table_name (its name or ARN; NULL: every table, including deleted ones), created at or after p_time_range_lower_bound and before p_time_range_upper_bound, of BackupType p_backup_type (USER: CreateBackup''s; SYSTEM: those of deleted tables with point-in-time recovery; ALL: both; AWS_BACKUP: none), at most p_limit (1 to 100), after p_exclusive_start_backup_arn';
CREATE FUNCTION hroe.describe_continuous_backups(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text := hroe.request_table_name(p_table_name);
	p hroe.pitr;
BEGIN
	IF p_table_name IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''tableName'' failed to satisfy constraint: Member must not be null');
	END IF;
	IF NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = v_table) THEN
		PERFORM hroe.dynamodb_error('TableNotFoundException', format('Table not found: %s', v_table));
	END IF;
	SELECT * INTO p FROM hroe.pitr WHERE table_name = v_table;
	IF p.pitr_id IS NULL THEN
		RETURN jsonb_build_object('ContinuousBackupsStatus', 'ENABLED',
			'PointInTimeRecoveryDescription', jsonb_build_object('PointInTimeRecoveryStatus', 'DISABLED'));
	END IF;
	RETURN (SELECT jsonb_build_object('ContinuousBackupsStatus', 'ENABLED',
				'PointInTimeRecoveryDescription', jsonb_build_object(
					'PointInTimeRecoveryStatus', 'ENABLED',
					'RecoveryPeriodInDays', p.recovery_days,
					'EarliestRestorableDateTime', EXTRACT(epoch FROM w.earliest),
					'LatestRestorableDateTime', EXTRACT(epoch FROM w.latest)))
			FROM hroe.pitr_window(p) w);
END
$$;
COMMENT ON FUNCTION hroe.describe_continuous_backups(text) IS
'DescribeContinuousBackups: the ContinuousBackupsDescription of table p_table_name (its name or ARN; TableNotFoundException if none): ContinuousBackupsStatus ENABLED and PointInTimeRecoveryDescription, DISABLED, or ENABLED with RecoveryPeriodInDays and the instants it can be restored to (EarliestRestorableDateTime: when it was enabled, or the recovery period''s start; LatestRestorableDateTime: now)';
CREATE FUNCTION hroe.update_continuous_backups(p_table_name text, p_enabled boolean,
											   p_recovery_days integer DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text := hroe.request_table_name(p_table_name);
	t hroe.tables;
	p hroe.pitr;
	v_errors text[] := '{}';
BEGIN
	IF p_table_name IS NULL THEN
		v_errors := v_errors || 'Value null at ''tableName'' failed to satisfy constraint: Member must not be null'::text;
	END IF;
	IF p_enabled IS NULL THEN
		v_errors := v_errors || 'Value null at ''pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled'' failed to satisfy constraint: Member must not be null'::text;
	END IF;
	IF p_recovery_days < 1 THEN
		v_errors := v_errors || format('Value ''%s'' at ''pointInTimeRecoverySpecification.recoveryPeriodInDays'' failed to satisfy constraint: Member must have value greater than or equal to 1', p_recovery_days);
	ELSIF p_recovery_days > 35 THEN
		v_errors := v_errors || format('Value ''%s'' at ''pointInTimeRecoverySpecification.recoveryPeriodInDays'' failed to satisfy constraint: Member must have value less than or equal to 35', p_recovery_days);
	END IF;
	PERFORM hroe.backup_validation(v_errors);
	SELECT * INTO t FROM hroe.tables WHERE table_name = v_table;
	IF t.table_name IS NULL THEN
		PERFORM hroe.dynamodb_error('TableNotFoundException', format('Table not found: %s', v_table));
	END IF;
	IF NOT hroe.owns_table(v_table) THEN
		RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege',
			MESSAGE = format('must be owner of table %s', v_table);
	END IF;
	SELECT * INTO p FROM hroe.pitr WHERE table_name = v_table FOR UPDATE;
	IF p_enabled AND p.pitr_id IS NULL THEN
		-- (the writes of a table partitioned over servers happen there,
		-- under their commit timestamps, out of the capture trigger's sight)
		IF (SELECT c.relkind FROM pg_class c WHERE c.oid = t.relid) = 'p' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Point-in-time recovery is not supported on a table partitioned over servers (hroe.partition_servers): %s', v_table));
		END IF;
		IF current_setting('track_commit_timestamp') <> 'on' THEN
			PERFORM hroe.dynamodb_error('ContinuousBackupsUnavailableException',
				'Point in time recovery needs the server setting track_commit_timestamp = on (set at server start)');
		END IF;
		-- the base image must be the table as of this call: one snapshot
		-- after the trigger's lock, which waits for the writers in progress
		IF current_setting('transaction_isolation') <> 'read committed' THEN
			RAISE EXCEPTION USING ERRCODE = 'invalid_transaction_state',
				MESSAGE = 'enabling point-in-time recovery must run in a READ COMMITTED transaction';
		END IF;
		INSERT INTO hroe.pitr (table_name, recovery_days, enabled_at, base_at)
		VALUES (v_table, coalesce(p_recovery_days, 35), clock_timestamp(), clock_timestamp())
		RETURNING * INTO p;
		-- (SHARE ROW EXCLUSIVE until commit: no write between the image and the trigger)
		EXECUTE format('CREATE TRIGGER hroe_pitr AFTER INSERT OR UPDATE OR DELETE ON %s'
					   ' FOR EACH ROW EXECUTE FUNCTION hroe.pitr_capture(%L, %L, %L)',
					   t.relid, p.pitr_id, t.partition_key, coalesce(t.sort_key, ''));
		EXECUTE format('INSERT INTO hroe.pitr_base (pitr_id, key, item)'
					   ' SELECT $1, hroe.pitr_key(s.item, $2, $3), s.item FROM %s s', t.relid)
			USING p.pitr_id, t.partition_key, coalesce(t.sort_key, '');
		-- every writer before committed before this instant, every later one commits after
		UPDATE hroe.pitr SET enabled_at = clock_timestamp(), base_at = clock_timestamp()
		WHERE pitr_id = p.pitr_id;
	ELSIF p_enabled THEN
		UPDATE hroe.pitr SET recovery_days = coalesce(p_recovery_days, recovery_days)
		WHERE pitr_id = p.pitr_id;
	ELSIF p.pitr_id IS NOT NULL THEN
		EXECUTE format('DROP TRIGGER hroe_pitr ON %s', t.relid);
		DELETE FROM hroe.pitr_history WHERE pitr_id = p.pitr_id;
		DELETE FROM hroe.pitr_base WHERE pitr_id = p.pitr_id;
		DELETE FROM hroe.pitr WHERE pitr_id = p.pitr_id;
	END IF;
	RETURN hroe.describe_continuous_backups(v_table);
END
$$;
COMMENT ON FUNCTION hroe.update_continuous_backups(text, boolean, integer) IS
'UpdateContinuousBackups: enables (p_enabled true) or disables point-in-time recovery on table p_table_name (its name or ARN; TableNotFoundException if none; its owner only), keeping p_recovery_days (1 to 35, default 35) days of history; enabling copies the table into its base image and creates its capture trigger hroe_pitr (needs track_commit_timestamp = on, else ContinuousBackupsUnavailableException, and READ COMMITTED); disabling drops the trigger and the history; returns the ContinuousBackupsDescription';
CREATE FUNCTION hroe.restore_table_to_point_in_time(p_target_table_name text,
													p_source_table_name text DEFAULT NULL,
													p_restore_date_time timestamptz DEFAULT NULL,
													p_use_latest_restorable_time boolean DEFAULT NULL,
													p_overrides jsonb DEFAULT '{}',
													p_source_table_arn text DEFAULT NULL,
													p_schema name DEFAULT pg_catalog.current_schema())
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	o jsonb := coalesce(p_overrides, '{}');
	v_source text;
	t hroe.tables;
	p hroe.pitr;
	v_at timestamptz;
	v_earliest timestamptz;
	v_latest timestamptz;
	v_rel regclass;
	-- a deleted table's: its system backup (hroe.pitr_table_deleted)
	sb hroe.backups;
	v_pitr_id bigint;
BEGIN
	PERFORM hroe.backup_validation(hroe.backup_name_errors(p_target_table_name, 'targetTableName'));
	IF jsonb_typeof(o) <> 'object' THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'The overrides must be a JSON object');
	END IF;
	IF p_source_table_name IS NULL AND p_source_table_arn IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Either SourceTableName or SourceTableArn must be specified');
	END IF;
	IF p_source_table_name IS NOT NULL AND p_source_table_arn IS NOT NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Only one of SourceTableName or SourceTableArn can be specified');
	END IF;
	IF p_restore_date_time IS NOT NULL AND p_use_latest_restorable_time THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Only one of RestoreDateTime or UseLatestRestorableTime can be specified');
	END IF;
	IF p_restore_date_time IS NULL AND NOT coalesce(p_use_latest_restorable_time, false) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Either RestoreDateTime or UseLatestRestorableTime must be specified');
	END IF;
	v_source := coalesce(p_source_table_name, p_source_table_arn);
	-- (an ARN names the table only with SourceTableArn)
	IF p_source_table_arn IS NOT NULL THEN
		v_source := hroe.request_table_name(p_source_table_arn);
	END IF;
	SELECT * INTO t FROM hroe.tables WHERE table_name = v_source;
	-- a deleted table (by its ARN only): its history as of its deletion,
	-- while its system backup is kept (the caller's, under row-level security)
	IF t.table_name IS NULL AND p_source_table_arn IS NOT NULL THEN
		SELECT * INTO sb FROM hroe.backups b
		WHERE b.backup_type = 'SYSTEM' AND b.description->>'TableArn' = p_source_table_arn
		  AND b.expires_at > clock_timestamp()
		ORDER BY b.created_at DESC LIMIT 1;
	END IF;
	IF t.table_name IS NULL AND sb.backup_id IS NULL THEN
		PERFORM hroe.dynamodb_error('TableNotFoundException', format('Table not found: %s', v_source));
	END IF;
	IF sb.backup_id IS NULL THEN
		SELECT * INTO p FROM hroe.pitr WHERE table_name = v_source;
		IF p.pitr_id IS NULL THEN
			PERFORM hroe.dynamodb_error('PointInTimeRecoveryUnavailableException',
				format('Point in time recovery is not enabled for table ''%s''', v_source));
		END IF;
		v_pitr_id := p.pitr_id;
		SELECT w.earliest, w.latest INTO v_earliest, v_latest FROM hroe.pitr_window(p) w;
	ELSE
		-- (restorable from the recovery window's start at its deletion to the deletion)
		v_pitr_id := sb.pitr_id;
		v_earliest := greatest(sb.pitr_earliest, clock_timestamp() - interval '35 days');
		v_latest := sb.created_at;
	END IF;
	IF EXISTS (SELECT FROM hroe.tables WHERE table_name = p_target_table_name) THEN
		PERFORM hroe.dynamodb_error('TableAlreadyExistsException', format('Table already exists: %s', p_target_table_name));
	END IF;
	v_at := CASE WHEN p_use_latest_restorable_time THEN v_latest ELSE p_restore_date_time END;
	IF v_at < v_earliest OR v_at > v_latest THEN
		PERFORM hroe.dynamodb_error('InvalidRestoreTimeException',
			format('Invalid RestoreDateTime: %s. RestoreDateTime must be between EarliestRestorableDateTime %s and LatestRestorableDateTime %s',
				   to_char(v_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
				   to_char(v_earliest AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
				   to_char(v_latest AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')));
	END IF;
	-- the history is read with the caller's privileges: a role that may not
	-- read the table may not restore it (row-level security would only hide it)
	IF sb.backup_id IS NULL AND NOT has_table_privilege(t.relid, 'SELECT') THEN
		RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege',
			MESSAGE = format('permission denied for table %s', v_source);
	END IF;
	-- every transaction that committed at or before v_at must be visible:
	-- one whose commit time is recorded but that is still in the snapshot's
	-- list of running transactions (its commit not yet visible) is waited
	-- for, each statement taking a new snapshot
	IF current_setting('transaction_isolation') <> 'read committed' THEN
		RAISE EXCEPTION USING ERRCODE = 'invalid_transaction_state',
			MESSAGE = 'a restore to a point in time must run in a READ COMMITTED transaction';
	END IF;
	PERFORM hroe.pitr_wait_committed(v_at);
	IF EXISTS (SELECT FROM hroe.pitr_history h
			   WHERE h.pitr_id = v_pitr_id AND h.committed_at IS NULL
				 AND pg_xact_commit_timestamp(h.xid) IS NULL) THEN
		RAISE EXCEPTION USING ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = format('the history of table %s has versions without a commit time', v_source),
			HINT = 'Point-in-time recovery needs track_commit_timestamp = on since it was enabled.';
	END IF;
	IF sb.backup_id IS NULL THEN
		v_rel := hroe.restore_create_table(p_target_table_name, hroe.table_description(v_source) - 'PostgresTable',
										   jsonb_build_object('BillingMode', t.billing_mode), o, p_schema);
	ELSE
		v_rel := hroe.restore_create_table(p_target_table_name, sb.description, sb.features, o, p_schema);
	END IF;
	-- the base image, each key's last version committed at or before v_at over it
	EXECUTE format('INSERT INTO %s (item) SELECT s.item FROM hroe.pitr_items_at($1, $2) AS s(item)', v_rel)
		USING v_pitr_id, v_at;
	INSERT INTO hroe.table_restores (table_name, source_backup_arn, source_table_arn, restored_at)
	VALUES (p_target_table_name, NULL, coalesce(sb.description->>'TableArn', hroe.table_arn(v_source)), v_at);
	RETURN (hroe.table_description(p_target_table_name, 'CREATING', 'CREATING') - 'PostgresTable')
		|| jsonb_build_object('RestoreSummary', hroe.restore_summary(p_target_table_name, true));
END
$$;

COMMENT ON FUNCTION hroe.restore_table_to_point_in_time(text, text, timestamptz, boolean, jsonb, text, name) IS
'RestoreTableToPointInTime: a new table p_target_table_name (TableAlreadyExistsException if it exists) with the keys, indexes, billing mode and throughput of table p_source_table_name (or p_source_table_arn; TableNotFoundException) and its items as of p_restore_date_time (or now, p_use_latest_restorable_time): every transaction committed then, none after (InvalidRestoreTimeException outside DescribeContinuousBackups'' window, PointInTimeRecoveryUnavailableException without point-in-time recovery); a deleted table that had point-in-time recovery, named by p_source_table_arn, while its system backup is kept (35 days, hroe.pitr_table_deleted): as of any instant of its recovery window up to its deletion; p_overrides as RestoreTableFromBackup''s; in schema p_schema (default: the current schema); READ COMMITTED only; returns the TableDescription with its RestoreSummary';
CREATE FUNCTION hroe.export_table(p_table_arn text, p_s3_bucket text, p_s3_prefix text DEFAULT NULL,
								  p_export_format text DEFAULT 'DYNAMODB_JSON',
								  p_export_type text DEFAULT 'FULL_EXPORT',
								  p_client_token text DEFAULT NULL, p_export_time timestamptz DEFAULT NULL,
								  p_s3_bucket_owner text DEFAULT NULL, p_s3_sse_algorithm text DEFAULT NULL,
								  p_s3_sse_kms_key_id text DEFAULT NULL,
								  p_export_from_time timestamptz DEFAULT NULL,
								  p_export_to_time timestamptz DEFAULT NULL,
								  p_export_view_type text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text;
	v_rel regclass;
	v_request jsonb;
	v_row hroe.exports;
	v_id text;
	v_incremental boolean := coalesce(p_export_type, 'FULL_EXPORT') = 'INCREMENTAL_EXPORT';
	v_to timestamptz;
	v_earliest timestamptz;
	v_latest timestamptz;
	v_history boolean := false;
	p hroe.pitr;
BEGIN
	IF p_table_arn IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''tableArn'' failed to satisfy constraint: Member must not be null');
	ELSIF p_s3_bucket IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'1 validation error detected: Value null at ''s3Bucket'' failed to satisfy constraint: Member must not be null');
	END IF;
	PERFORM hroe.check_enum(p_export_format, 'exportFormat', '{DYNAMODB_JSON,ION}');
	PERFORM hroe.check_enum(p_export_type, 'exportType', '{FULL_EXPORT,INCREMENTAL_EXPORT}');
	PERFORM hroe.check_enum(p_export_view_type, 'incrementalExportSpecification.exportViewType',
									 '{NEW_IMAGE,NEW_AND_OLD_IMAGES}');
	PERFORM hroe.check_enum(p_s3_sse_algorithm, 's3SseAlgorithm', '{AES256,KMS}');
	IF length(p_s3_prefix) > 1024 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''s3Prefix'' failed to satisfy constraint: Member must have length less than or equal to 1024', p_s3_prefix));
	END IF;
	-- an incremental export: its period, not an export time
	-- (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_IncrementalExportSpecification.html)
	IF v_incremental THEN
		IF p_export_time IS NOT NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: ExportTime cannot be specified with ExportType INCREMENTAL_EXPORT');
		END IF;
		IF p_export_from_time IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: IncrementalExportSpecification.ExportFromTime must be specified with ExportType INCREMENTAL_EXPORT');
		END IF;
		-- (no ExportToTime: the latest time with data available)
		v_to := coalesce(p_export_to_time, clock_timestamp());
		PERFORM hroe.incremental_export_check(p_export_from_time, v_to);
	ELSIF p_export_from_time IS NOT NULL OR p_export_to_time IS NOT NULL OR p_export_view_type IS NOT NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: IncrementalExportSpecification can only be specified with ExportType INCREMENTAL_EXPORT');
	END IF;
	-- (by the name in the ARN, the table's key; then the whole ARN, this region's and account's)
	SELECT t.table_name, t.relid INTO v_table, v_rel FROM hroe.tables t
	WHERE t.table_name = hroe.request_table_name(p_table_arn) AND hroe.table_arn(t.table_name) = p_table_arn;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('TableNotFoundException', format('Table not found: %s', p_table_arn));
	END IF;
	IF NOT has_table_privilege(v_rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', v_table USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF hroe.table_is_distributed(v_rel) THEN
		RAISE EXCEPTION 'exports are not supported on distributed table %', v_table
			USING ERRCODE = 'feature_not_supported';
	END IF;
	IF v_incremental THEN
		-- the changes are point-in-time recovery's history: the period must
		-- lie within its recovery window
		SELECT * INTO p FROM hroe.pitr WHERE table_name = v_table;
		IF p.pitr_id IS NULL THEN
			PERFORM hroe.dynamodb_error('PointInTimeRecoveryUnavailableException',
				format('Point in time recovery is not enabled for table ''%s''', v_table));
		END IF;
		SELECT w.earliest, w.latest INTO v_earliest, v_latest FROM hroe.pitr_window(p) w;
		IF v_to > v_latest THEN
			PERFORM hroe.dynamodb_error('InvalidExportTimeException', 'ExportToTime cannot be in the future');
		ELSIF p_export_from_time < v_earliest THEN
			PERFORM hroe.dynamodb_error('InvalidExportTimeException',
				format('ExportFromTime %s is before the earliest restorable time %s of table ''%s''',
					   to_char(p_export_from_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
					   to_char(v_earliest AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), v_table));
		END IF;
	ELSIF p_export_time > clock_timestamp() THEN
		PERFORM hroe.dynamodb_error('InvalidExportTimeException', 'Export time cannot be in the future');
	ELSIF p_export_time IS NOT NULL THEN
		-- a full export at ExportTime: the table's state then, from
		-- point-in-time recovery's history, as a restore to that instant
		SELECT * INTO p FROM hroe.pitr WHERE table_name = v_table;
		IF p.pitr_id IS NOT NULL THEN
			SELECT w.earliest INTO v_earliest FROM hroe.pitr_window(p) w;
			IF p_export_time < v_earliest THEN
				PERFORM hroe.dynamodb_error('InvalidExportTimeException',
					format('ExportTime %s is before the earliest restorable time %s of table ''%s''',
						   to_char(p_export_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
						   to_char(v_earliest AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), v_table));
			END IF;
			v_history := true;
		-- without point-in-time recovery, the export is of the table as it
		-- is now: an ExportTime at most a minute ago stands for now
		ELSIF p_export_time < statement_timestamp() - interval '1 minute' THEN
			PERFORM hroe.dynamodb_error('PointInTimeRecoveryUnavailableException',
				format('Point in time recovery is not enabled for table ''%s''', v_table));
		END IF;
	END IF;
	PERFORM hroe.s3_check_bucket(p_s3_bucket, p_s3_prefix, true);
	v_request := jsonb_strip_nulls(jsonb_build_object(
		'TableArn', p_table_arn, 'S3Bucket', p_s3_bucket, 'S3Prefix', p_s3_prefix,
		'ExportFormat', coalesce(p_export_format, 'DYNAMODB_JSON'),
		'ExportType', coalesce(p_export_type, 'FULL_EXPORT'), 'S3BucketOwner', p_s3_bucket_owner,
		'S3SseAlgorithm', p_s3_sse_algorithm, 'S3SseKmsKeyId', p_s3_sse_kms_key_id,
		'ExportTime', EXTRACT(epoch FROM p_export_time),
		'IncrementalExportSpecification', CASE WHEN v_incremental THEN jsonb_strip_nulls(jsonb_build_object(
			'ExportFromTime', EXTRACT(epoch FROM p_export_from_time),
			'ExportToTime', EXTRACT(epoch FROM p_export_to_time), 'ExportViewType', p_export_view_type)) END));
	-- ClientToken: the same request within 8 hours is the same export
	IF p_client_token IS NOT NULL THEN
		SELECT * INTO v_row FROM hroe.exports e
		WHERE e.client_token = p_client_token AND e.requested_by = (SELECT oid FROM pg_roles WHERE rolname = current_user)
		  AND e.start_time > clock_timestamp() - interval '8 hours'
		ORDER BY e.start_time DESC LIMIT 1;
		IF FOUND THEN
			IF v_row.request <> v_request THEN
				PERFORM hroe.dynamodb_error('IdempotentParameterMismatchException',
					'The provided ClientToken was already used with different parameters');
			END IF;
			RETURN jsonb_build_object('ExportDescription', hroe.export_description(v_row));
		END IF;
	END IF;
	v_id := lpad((extract(epoch FROM clock_timestamp()) * 1000)::bigint::text, 14, '0')
			|| '-' || left(md5(gen_random_uuid()::text), 8);
	INSERT INTO hroe.exports (export_arn, table_name, table_arn, requested_by, client_token, request,
							  export_type, export_format, s3_bucket, s3_prefix, s3_bucket_owner,
							  s3_sse_algorithm, s3_sse_kms_key_id, export_manifest,
							  export_from_time, export_to_time, export_view_type,
							  export_time, export_from_history)
	VALUES (p_table_arn || '/export/' || v_id, v_table, p_table_arn,
			(SELECT oid FROM pg_roles WHERE rolname = current_user), p_client_token, v_request,
			coalesce(p_export_type, 'FULL_EXPORT'), coalesce(p_export_format, 'DYNAMODB_JSON'),
			p_s3_bucket, p_s3_prefix, p_s3_bucket_owner, coalesce(p_s3_sse_algorithm, 'AES256'), p_s3_sse_kms_key_id,
			coalesce(rtrim(p_s3_prefix, '/') || '/', '') || 'AWSDynamoDB/' || v_id || '/manifest-summary.json',
			CASE WHEN v_incremental THEN p_export_from_time END, v_to,
			CASE WHEN v_incremental THEN coalesce(p_export_view_type, 'NEW_AND_OLD_IMAGES') END,
			CASE WHEN v_history THEN p_export_time ELSE clock_timestamp() END, v_history)
	RETURNING * INTO v_row;
	PERFORM hroe.transfer_start('export', v_row.job_id);
	RETURN jsonb_build_object('ExportDescription', hroe.export_description(v_row));
END
$$;
COMMENT ON FUNCTION hroe.export_table(text, text, text, text, text, text, timestamptz, text, text, text, timestamptz, timestamptz, text) IS
'ExportTableToPointInTime: starts an export of the table p_table_arn names into bucket p_s3_bucket, a directory under hroe.s3_root, as DynamoDB lays it out (<prefix>/AWSDynamoDB/<ExportId>/manifest-summary.json, manifest-files.json, data/*.json.gz or *.ion.gz; DYNAMODB_JSON or ION); hroe''s export worker writes it from one snapshot. FULL_EXPORT ({"Item": ...} lines): the table as it is now, or, with p_export_time on a table with point-in-time recovery, its state at that instant read from the history as RestoreTableToPointInTime reads it (within the recovery window, else InvalidExportTimeException; without point-in-time recovery an export time more than a minute ago is refused, PointInTimeRecoveryUnavailableException; a future one, InvalidExportTimeException). INCREMENTAL_EXPORT: from point-in-time recovery''s history (PointInTimeRecoveryUnavailableException without it), each item whose state changed between p_export_from_time (inclusive) and p_export_to_time (exclusive; default now), a period of 15 minutes to 24 hours within the recovery window (InvalidExportTimeException), as {"Metadata", "Keys", "NewImage", "OldImage"} lines (p_export_view_type NEW_IMAGE or NEW_AND_OLD_IMAGES, the default); p_export_time may not be given. The caller needs SELECT on the table and membership in hroe_export or pg_write_server_files. Returns {"ExportDescription": ...}';
-- A GetItem on a partition server: what a coordinator's own read path calls
CREATE FUNCTION hroe.item_by_key(p_table_name text, VARIADIC p_key "any")
RETURNS hroe.item AS 'MODULE_PATHNAME', 'hroe_item_by_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.item_by_key(text, "any") IS
'internal: the item of DynamoDB table p_table_name whose primary key columns equal p_key (given as separate arguments of the key columns'' types), or NULL: a GetItem on a partition server, for a coordinator''s own read path (doc/partitioning.md). The server''s own local GetItem of that table, without capacity or throttling: a btree probe without the executor (hroe.direct_access) when the caller may SELECT the table and row-level security does not apply to it, its prepared statement otherwise, which applies column privileges and row-level security. Security invoker';

-- vector indexes: hroe.vector_index_build takes the table's ACCESS
-- EXCLUSIVE lock first (no lock upgrade); hroe.vector_indexes_maintain
-- reads PostgreSQL's estimate of a large table's vectors, not count(*)
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

-- hroe.partition_server_list: hroe.partition_servers read with missing_ok, so
-- that a session whose first hroe call is an SQL function (hroe.so not yet
-- loaded, its settings not yet defined) reads no servers, the setting's default
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
	FROM unnest(string_to_array(current_setting('hroe.partition_servers', true), ',')) WITH ORDINALITY u(s, o)
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

-- Each backend caches the active keys it read (src/http/gateway_call.c): any
-- change to the table invalidates every backend's cache at commit, even in
-- a session or subscription that writes with session_replication_role =
-- replica
CREATE TRIGGER access_keys_changed
	AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hroe.access_keys
	FOR EACH STATEMENT EXECUTE FUNCTION hroe.table_changed();
ALTER TABLE hroe.access_keys ENABLE ALWAYS TRIGGER access_keys_changed;
COMMENT ON TRIGGER access_keys_changed ON hroe.access_keys IS
'Invalidates every backend''s cache of the active access keys when the table changes (hroe.table_changed)';
