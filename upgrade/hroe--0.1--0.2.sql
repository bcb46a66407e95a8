-- hroe 0.1 -> 0.2 (ALTER EXTENSION hroe UPDATE TO '0.2')
--
-- What changed (CHANGELOG.md): ClientRequestTokens private to their role;
-- the read operations VOLATILE (they see their own statement's writes);
-- partition keys over 192 bytes stored in an index form; hroe_single's GSI3
-- on a key column of its own; hroe.check_index_entry; the internal
-- functions' comments start with "internal:".  test/t_upgrade.sh
-- checks that an updated installation equals a fresh one.

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.2'" to load this file. \quit

-- First, since 0.3: the C functions of hroe.key, hroe.item and
-- hroe.item_collection point at their names in the installed library,
-- hroe_... (0.1 named them item_in, key_cmp, ...; a library of 0.3 or later
-- exports only hroe_ names, src/exports.map), each as 0.1 declares it, so
-- that what follows runs on the library this script is installed with.
-- upgrade/hroe--0.2--0.3.sql does the same for the functions as 0.2
-- declares them.
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

-- Local secondary indexes (hroe.create_local_index): hroe.indexes says
-- which indexes are local
ALTER TABLE hroe.indexes ADD COLUMN local boolean NOT NULL DEFAULT false;
COMMENT ON TABLE hroe.indexes IS 'Secondary indexes: global ones created by hroe.create_index, local ones (local true) by hroe.create_local_index: key schema (1-4 HASH, 0-4 RANGE attributes), generated key columns (several indexes may share one, and pk/sk), PostgreSQL index by name (index_relname, in the table''s schema, so pg_dump''s rows restore before the index exists), projection, the NOT VALID CHECK constraint that rejects writes violating the key schema';

-- ClientRequestTokens private to their role (row-level security).  The
-- tokens are transient (idempotency for 10 minutes): the old table, where
-- any role could read or forge another's, is dropped with its rows.
DROP TABLE hroe.transaction_tokens;
-- TransactWriteItems ClientRequestToken: a replay within 10 minutes succeeds
-- without writing.  DynamoDB scopes a token to its account; here the account
-- is the PostgreSQL role whose privileges the call uses (current_user), so a
-- token is private to that role: row-level security, forced on the table's
-- owner too, lets a role see, record, change and delete only its own tokens
-- (another role can neither read them nor forge one that would answer, or
-- fail, the owner's transaction).  owner is the role's oid, filled in by the
-- server: the policy's WITH CHECK refuses any other value.  Superusers and
-- BYPASSRLS roles see every row, so hroe.dynamodb filters on owner itself.
-- Expired tokens of a role are deleted when it records a new one;
-- hroe.purge_transaction_tokens() deletes every role's, and those of dropped
-- roles (an oid may be reused by a later role).  The tokens are transient:
-- the table is not dumped (no pg_extension_config_dump).
CREATE TABLE hroe.transaction_tokens (
	owner			oid NOT NULL
		DEFAULT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)),
	token			text NOT NULL,
	request_hash	bigint NOT NULL,
	finished_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (owner, token)
);
-- a role's expired tokens, deleted when it records one
CREATE INDEX transaction_tokens_expiry ON hroe.transaction_tokens (owner, finished_at);
COMMENT ON TABLE hroe.transaction_tokens IS 'ClientRequestTokens of committed TransactWriteItems calls (hroe.dynamodb): the role that made each (owner, its oid), the hash of their TransactItems and when they finished; a token is idempotent for 10 minutes; under row-level security a role sees and writes only its own';
ALTER TABLE hroe.transaction_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.transaction_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY own_tokens ON hroe.transaction_tokens
	USING (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))))
	WITH CHECK (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))));
COMMENT ON POLICY own_tokens ON hroe.transaction_tokens IS 'A role sees, records, changes and deletes only its own ClientRequestTokens';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.transaction_tokens TO PUBLIC;

CREATE FUNCTION hroe.purge_transaction_tokens()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	WITH purged AS (
		DELETE FROM hroe.transaction_tokens t
		WHERE t.finished_at OPERATOR(pg_catalog.<=) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')
			OR NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) t.owner)
		RETURNING 1)
	SELECT pg_catalog.count(*) FROM purged;
END;
COMMENT ON FUNCTION hroe.purge_transaction_tokens() IS
'Deletes the expired ClientRequestTokens (finished over 10 minutes ago) and those of dropped roles; returns how many. For an administrator: run by a superuser (or a BYPASSRLS role granted EXECUTE) it purges every role''s tokens; PUBLIC may not execute it';
REVOKE EXECUTE ON FUNCTION hroe.purge_transaction_tokens() FROM PUBLIC;

-- The reads see every write before them, their own statement's too
ALTER FUNCTION hroe.get_item(text, jsonb, boolean) VOLATILE;
ALTER FUNCTION hroe.get_item_result(text, jsonb, boolean, text) VOLATILE;
ALTER FUNCTION hroe.query(text, text, jsonb, jsonb, text, boolean, boolean, text, text) VOLATILE;
ALTER FUNCTION hroe.query_page(text, text, jsonb, jsonb, text, boolean, boolean, integer, jsonb, text, text, text, text) VOLATILE;
ALTER FUNCTION hroe.scan(text, text, boolean, text, text, jsonb, jsonb) VOLATILE;
ALTER FUNCTION hroe.scan_page(text, text, boolean, integer, jsonb, text, text, integer, integer, text, text, jsonb, jsonb) VOLATILE;
ALTER FUNCTION hroe.batch_get_item(jsonb, text) VOLATILE;

-- Multi-attribute GSIs whose entry may not fit a btree entry
CREATE FUNCTION hroe.check_index_entry(p_index_name text, VARIADIC p_keys "any")
RETURNS boolean AS 'MODULE_PATHNAME', 'hroe_check_index_entry'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_index_entry(text, "any") IS
'True if the key columns given (a GSI''s, in index order, the table key last) make an index entry that fits a btree (2704 bytes, after compression), or one is NULL (the item is not in the index); else a ValidationException naming the index. In the CHECK constraint of a multi-attribute GSI whose widest entry might not fit';

-- Index key columns: a HASH column holds index forms, never serves a RANGE key
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
	-- key over 192 bytes as a prefix and its SHA-256: src/tables.h,
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
COMMENT ON FUNCTION hroe.key_column_for(regclass, text, text, text, text, boolean) IS
'The generated column of table p_rel (partition key p_table_partition_key, sort key p_table_sort_key) that holds exactly the keys of an index key attribute p_attribute of type p_type (p_sort: a RANGE attribute), or NULL, from the metadata in hroe.indexes: the sort key column sk (HASH or RANGE); pk for a HASH attribute only (partition keys are stored in their index form, whose order is not the keys''); another index''s key column of the same attribute and type used in the same role only. hroe.create_index with p_share_key_columns reuses it';

COMMENT ON FUNCTION hroe.index_key_violations(text, text) IS
'The index key violations of a GSI, like AWS''s Violation Detector: the items left out of the index because an index key attribute has the wrong type, is empty or oversized (each such item stays in the table, and any write to it that keeps the violation is rejected), with their table key (DynamoDB JSON), the attribute, HASH or RANGE, and the violation; in the order of the primary key index (table key order, but for partition keys over 192 bytes, stored in their index form)';

-- 0.2: hroe.dynamodb_errors(), the class HR as the C code defines it; the
-- SQL mapping of exception names covers every code of it (HR005-HR007)
-- hroe's SQLSTATE class HR, as the C code defines it (src/errors.c)
CREATE FUNCTION hroe.dynamodb_errors(OUT sqlstate text, OUT exception text, OUT type text)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'hroe_dynamodb_errors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.dynamodb_errors() IS
'hroe''s SQLSTATE class HR: each code, the DynamoDB exception it stands for, and the __type the JSON API (hroe.dynamodb) answers with';

-- Raise a DynamoDB exception from SQL: class HR, DynamoDB's text as message
CREATE OR REPLACE FUNCTION hroe.dynamodb_error(p_exception text, p_message text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RAISE EXCEPTION USING
		MESSAGE = p_message,
		ERRCODE = CASE p_exception
					  WHEN 'ValidationException' THEN 'HR000'
					  WHEN 'ResourceNotFoundException' THEN 'HR001'
					  WHEN 'ConditionalCheckFailedException' THEN 'HR002'
					  WHEN 'ResourceInUseException' THEN 'HR003'
					  WHEN 'LimitExceededException' THEN 'HR004'
					  WHEN 'TransactionCanceledException' THEN 'HR005'
					  WHEN 'IdempotentParameterMismatchException' THEN 'HR006'
					  WHEN 'SerializationException' THEN 'HR007'
					  ELSE 'HR000' END,
		DETAIL = format('DynamoDB %s.', p_exception);
END
$$;

-- The functions that are implementation details say so: their comments
-- start with "internal:" (type, operator and index support, the generated
-- key columns and key constraints, the validation and error helpers, the
-- models' loader, generator, comparison steps, item builders and row shapes;
-- doc/architecture.md).  The text after it is the one above or 0.1's, which
-- t_upgrade checks equal to a fresh installation's.
DO $internal$
DECLARE
	f pg_catalog.regprocedure;
BEGIN
	FOR f IN
		SELECT p.oid
		FROM pg_catalog.pg_proc p
			 JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
		WHERE n.nspname OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) p.proname OPERATOR(pg_catalog.=) ANY (ARRAY[
			'hroe.key_in', 'hroe.key_out', 'hroe.key_recv', 'hroe.key_send', 'hroe.key_eq', 'hroe.key_ne',
			'hroe.key_lt', 'hroe.key_le', 'hroe.key_gt', 'hroe.key_ge', 'hroe.key_cmp',
			'hroe.key_sortsupport', 'hroe.key_hash', 'hroe.key_hash_extended', 'hroe.key_larger',
			'hroe.key_smaller', 'hroe.key_support', 'hroe.key_match_sel', 'hroe.key_begins_with',
			'hroe.key_is_ancestor', 'hroe.key_is_descendant', 'hroe.key_from_text', 'hroe.item_in',
			'hroe.item_out', 'hroe.item_recv', 'hroe.item_send', 'hroe.item_eq', 'hroe.item_ne',
			'hroe.item_hash', 'hroe.item_to_jsonb', 'hroe.item_from_jsonb', 'hroe.item_remove_attribute',
			'hroe.item_collection_in', 'hroe.item_collection_out', 'hroe.item_collection_recv',
			'hroe.item_collection_send', 'hroe.item_collection_agg_trans', 'hroe.item_collection_agg_final',
			'hroe.item_key_s', 'hroe.item_key_n', 'hroe.item_key_b', 'hroe.check_index_key',
			'hroe.index_key_violation', 'hroe.check_index_entry', 'hroe.dynamodb_error',
			'hroe.key_column_type', 'hroe.check_key_type', 'hroe.check_name', 'hroe.check_attribute_name',
			'hroe.key_column_for', 'hroe.compare_args', 'hroe.compare_models', 'hroe.compare_call',
			'hroe.compare_plan_shape', 'hroe.compare_read_capacity', 'hroe.compare_item_tables',
			'hroe.compare_drop_snapshot', 'hroe.compare_snapshot', 'hroe.compare_write_capacity',
			'hroe.prng', 'hroe.prng_int', 'hroe.prng_zipf', 'hroe.order_line_draws',
			'hroe.order_line_quantity', 'hroe.order_line_cents', 'hroe.drop_secondary_indexes',
			'hroe.execute_ddl', 'hroe_multi.employee_key', 'hroe_multi.customer_key',
			'hroe_multi.product_key', 'hroe_multi.warehouse_key', 'hroe_multi.order_key',
			'hroe_multi.key_number', 'hroe_multi.date_key', 'hroe_multi.quarter_of',
			'hroe_multi.search_key', 'hroe_multi.key_s', 'hroe_multi.json_s', 'hroe_multi.json_n',
			'hroe_multi.job_attributes', 'hroe_multi.employee_item', 'hroe_multi.email_item',
			'hroe_multi.customer_item', 'hroe_multi.order_header_item', 'hroe_multi.order_items_entry',
			'hroe_multi.order_line_item', 'hroe_multi.product_item', 'hroe_multi.inventory_item',
			'hroe_multi.rank_key', 'hroe_multi.rep_quarter_item', 'hroe_multi.normalized_items',
			'hroe_multi.employee_profile', 'hroe_multi.count_rep_quarter', 'hroe.invalid_quarter',
			'hroe.quarter_start', 'hroe.quarter_end', 'hroe_normalized.employee_details',
			'hroe_normalized.order_rows', 'hroe_normalized.employee_summary', 'hroe.check_order_lines',
			'hroe.parse_order_line', 'hroe.price_order_line', 'hroe.order_line_product_ids',
			'hroe.price_order_lines', 'hroe.check_order_total', 'hroe.check_order_status',
			'hroe.check_order_id', 'hroe.check_status_change', 'hroe.check_hire_arguments',
			'hroe_single.id10', 'hroe_single.id19', 'hroe_single.day', 'hroe_single.make_key',
			'hroe_single.status_key', 'hroe_single.quarter_of', 'hroe_single.doc_item',
			'hroe_single.region_item', 'hroe_single.country_item', 'hroe_single.location_item',
			'hroe_single.job_item', 'hroe_single.department_item', 'hroe_single.warehouse_item',
			'hroe_single.employee_item', 'hroe_single.employee_email_item',
			'hroe_single.employee_confidential_item', 'hroe_single.current_job_item',
			'hroe_single.job_version_item', 'hroe_single.employee_warehouse_item',
			'hroe_single.rep_sales_item', 'hroe_single.customer_item', 'hroe_single.customer_rep_item',
			'hroe_single.order_item', 'hroe_single.order_rep_item', 'hroe_single.order_line_item',
			'hroe_single.product_item', 'hroe_single.inventory_item', 'hroe_single.meta_item',
			'hroe_single.employee_profile', 'hroe_single.order_row', 'hroe_single.employee_summary',
			'hroe_single.inventory_row', 'hroe_single.check_day'
		])
		AND pg_catalog.obj_description(p.oid, 'pg_proc') NOT LIKE 'internal: %'
	LOOP
		EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', f,
								  'internal: ' OPERATOR(pg_catalog.||) pg_catalog.obj_description(f, 'pg_proc'));
	END LOOP;
END
$internal$;

-- The JSON API over text (src/api.sql), new in 0.2
CREATE FUNCTION hroe.dynamodb_text(operation text, request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_dynamodb_text'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb_text(text, text) IS
'hroe.dynamodb over the request body''s text, the response body as text: strings may hold \u0000 (U+0000), as DynamoDB''s do, which jsonb refuses';

-- Access keys of hroe-gateway (src/gateway.sql), new in 0.2
CREATE TABLE hroe.access_keys (
	access_key_id	text PRIMARY KEY
		CHECK (access_key_id ~ '^[A-Za-z0-9_+=,.@-]{1,128}$'),
	secret			text NOT NULL
		CHECK (pg_catalog.length(secret) BETWEEN 1 AND 128),
	role			regrole NOT NULL,
	created_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	revoked_at		timestamptz
);
COMMENT ON TABLE hroe.access_keys IS 'Access keys of hroe-gateway: an AWS-style access key id, its secret (a credential: readable by the owner and by the gateway''s login role only), the PostgreSQL role its requests run as, and when it was created and revoked (a revoked key is refused at once; the gateway caches secrets for a few seconds)';
REVOKE ALL ON hroe.access_keys FROM PUBLIC;
-- Not marked with pg_extension_config_dump: secrets stay out of dumps, and
-- keys are recreated after a restore (hroe.create_access_key).

CREATE FUNCTION hroe.create_access_key(
	p_role regrole,
	p_access_key_id text DEFAULT NULL,
	p_secret text DEFAULT NULL,
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
	INSERT INTO hroe.access_keys (access_key_id, secret, role)
		VALUES (access_key_id, secret_access_key, p_role);
END
$$;
COMMENT ON FUNCTION hroe.create_access_key(regrole, text, text) IS
'Creates an access key of hroe-gateway whose requests run as p_role: the given or a generated access key id (20 characters) and secret (40 characters); returns the pair. Needs INSERT on hroe.access_keys (the extension owner has it)';

CREATE FUNCTION hroe.revoke_access_key(p_access_key_id text)
RETURNS boolean
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
	WITH revoked AS (
		UPDATE hroe.access_keys SET revoked_at = pg_catalog.now()
		WHERE access_key_id = p_access_key_id AND revoked_at IS NULL
		RETURNING 1)
	SELECT count(*) > 0 FROM revoked
$$;
COMMENT ON FUNCTION hroe.revoke_access_key(text) IS
'Revokes an access key of hroe-gateway: its next request is refused (UnrecognizedClientException); true if the key existed and was active, else false';

CREATE FUNCTION hroe.gateway_call(p_access_key_id text, p_operation text, p_request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_gateway_call'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
-- C (src/gateway_call.c), not SECURITY DEFINER: the key is read with the
-- caller's privileges, then SET LOCAL ROLE (the caller must be a member of
-- the key's role; the transaction's end undoes it), then the JSON API over
-- the body's text
COMMENT ON FUNCTION hroe.gateway_call(text, text, text) IS
'internal: one request of hroe-gateway: hroe.dynamodb_text(p_operation, p_request) run as the role of the active access key p_access_key_id (SET LOCAL ROLE: the caller must be a member of it; the role ends with the transaction), or DynamoDB''s UnrecognizedClientException body for an unknown or revoked key; called in a transaction of its own';

-- Whether a table has an item (hroe.create_local_index)
CREATE FUNCTION hroe.table_has_items(p_rel regclass) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v boolean;
BEGIN
	EXECUTE format('SELECT EXISTS (SELECT FROM %s)', p_rel) INTO v;
	RETURN v;
END
$$;
COMMENT ON FUNCTION hroe.table_has_items(regclass) IS
'internal: Whether the table p_rel has a row (hroe.create_local_index)';

-- 0.2: DynamoDB's table metadata (issue #20): TableId, billing modes and
-- provisioned throughput, deletion protection, the AttributeDefinitions'
-- order, ARNs, table and index names up to 255 characters, tags.  Tables
-- of 0.1 get a TableId now, keep their creation time, and are
-- PAY_PER_REQUEST since they were created.
ALTER TABLE hroe.tables
	ADD COLUMN table_id uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
	ADD COLUMN billing_mode text NOT NULL DEFAULT 'PAY_PER_REQUEST'
		CHECK (billing_mode IN ('PROVISIONED', 'PAY_PER_REQUEST')),
	ADD COLUMN read_capacity_units bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	ADD COLUMN write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	ADD COLUMN last_increase_at timestamptz,
	ADD COLUMN last_decrease_at timestamptz,
	ADD COLUMN decreases_today integer NOT NULL DEFAULT 0,
	ADD COLUMN pay_per_request_since timestamptz,
	ADD COLUMN deletion_protection boolean NOT NULL DEFAULT false,
	ADD COLUMN attribute_order text[] NOT NULL DEFAULT '{}',
	ADD CONSTRAINT tables_throughput_check CHECK ((billing_mode = 'PROVISIONED')
		= (read_capacity_units IS NOT NULL AND write_capacity_units IS NOT NULL)
		AND (read_capacity_units IS NULL) = (write_capacity_units IS NULL));
UPDATE hroe.tables SET pay_per_request_since = created_at;
COMMENT ON TABLE hroe.tables IS 'DynamoDB tables created by hroe.create_table: name, PostgreSQL table, key schema, TableId, creation time, billing mode and provisioned throughput (PROVISIONED tables), deletion protection, the order of the AttributeDefinitions';
ALTER TABLE hroe.indexes
	ADD COLUMN read_capacity_units bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	ADD COLUMN write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	ADD COLUMN last_increase_at timestamptz,
	ADD COLUMN last_decrease_at timestamptz,
	ADD COLUMN decreases_today integer NOT NULL DEFAULT 0,
	ADD CONSTRAINT indexes_throughput_check CHECK ((read_capacity_units IS NULL) = (write_capacity_units IS NULL));
COMMENT ON TABLE hroe.indexes IS 'Secondary indexes: global ones created by hroe.create_index, local ones (local true) by hroe.create_local_index: key schema (1-4 HASH, 0-4 RANGE attributes), generated key columns (several indexes may share one, and pk/sk), PostgreSQL index by name (index_relname, in the table''s schema, so pg_dump''s rows restore before the index exists), projection, the NOT VALID CHECK constraint that rejects writes violating the key schema, a GSI''s provisioned throughput';

-- Writes are scoped to a table's owner: a role granted INSERT, UPDATE or
-- DELETE on hroe.tables and hroe.indexes (CreateTable and DeleteTable need
-- them) changes only the metadata of the tables whose PostgreSQL table its
-- role owns (or a role it is a member of); the tables' owner, the
-- extension's, and superusers are not subject to the policies.
CREATE FUNCTION hroe.owns_relation(p_rel regclass) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT EXISTS (SELECT FROM pg_catalog.pg_class c
				   WHERE c.oid = p_rel AND pg_catalog.pg_has_role(c.relowner, 'USAGE'));
END;
COMMENT ON FUNCTION hroe.owns_relation(regclass) IS
'internal: Whether the current role is a member of the role owning the relation p_rel (false if there is none): who may change the metadata of a DynamoDB table';
CREATE FUNCTION hroe.owns_table(p_table_name text) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT coalesce(pg_catalog.bool_or(hroe.owns_relation(t.relid)), false)
	FROM hroe.tables t WHERE t.table_name = p_table_name;
END;
COMMENT ON FUNCTION hroe.owns_table(text) IS
'internal: Whether the current role is a member of the role owning the PostgreSQL table of DynamoDB table p_table_name (it may change the table''s metadata and tags)';
CREATE FUNCTION hroe.check_table_owner(p_table_name text) RETURNS void
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF EXISTS (SELECT FROM hroe.tables t JOIN pg_class c ON c.oid = t.relid
			   WHERE t.table_name = p_table_name AND NOT pg_has_role(c.relowner, 'USAGE')) THEN
		RAISE EXCEPTION 'must be a member of the role owning table % to change it', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_table_owner(text) IS
'internal: Raises insufficient_privilege (the JSON API''s AccessDeniedException) unless the current role is a member of the role owning DynamoDB table p_table_name''s PostgreSQL table (or the table or its relation does not exist): the DDL functions'' check, before the row lock the policies would otherwise hide';
ALTER TABLE hroe.tables ENABLE ROW LEVEL SECURITY;
CREATE POLICY tables_read ON hroe.tables FOR SELECT USING (true);
COMMENT ON POLICY tables_read ON hroe.tables IS 'The metadata is readable by every role';
CREATE POLICY tables_insert ON hroe.tables FOR INSERT WITH CHECK (hroe.owns_relation(relid));
COMMENT ON POLICY tables_insert ON hroe.tables IS 'A role registers only a table it owns';
CREATE POLICY tables_update ON hroe.tables FOR UPDATE
	USING (hroe.owns_relation(relid)) WITH CHECK (hroe.owns_relation(relid));
COMMENT ON POLICY tables_update ON hroe.tables IS 'A role changes only the metadata of a table it owns';
CREATE POLICY tables_delete ON hroe.tables FOR DELETE
	USING (hroe.owns_relation(relid) OR NOT EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = relid));
COMMENT ON POLICY tables_delete ON hroe.tables IS 'A role deletes only the metadata of a table it owns, or of one already dropped';
ALTER TABLE hroe.indexes ENABLE ROW LEVEL SECURITY;
CREATE POLICY indexes_read ON hroe.indexes FOR SELECT USING (true);
COMMENT ON POLICY indexes_read ON hroe.indexes IS 'The metadata is readable by every role';
CREATE POLICY indexes_owner ON hroe.indexes FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY indexes_owner ON hroe.indexes IS 'A role adds, changes and deletes only the indexes of a table it owns';

-- The PostgreSQL name of a DynamoDB table or index name
CREATE FUNCTION hroe.relation_name(p_name text) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN octet_length(p_name) <= 63 THEN p_name
			ELSE left(p_name, 46) || '_'
				 || left(encode(sha256(convert_to(p_name, 'UTF8')), 'hex'), 16) END;
COMMENT ON FUNCTION hroe.relation_name(text) IS
'internal: The PostgreSQL relation name of a DynamoDB table or index name (up to 255 characters): the name itself if it fits in 63 bytes, else its first 46 characters, an underscore and 16 hex digits of its SHA-256';

-- The ARN of a table (the settings hroe.region and hroe.account_id)
CREATE FUNCTION hroe.table_arn(p_table_name text) RETURNS text
AS 'MODULE_PATHNAME', 'hroe_table_arn'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.table_arn(text) IS
'The ARN DynamoDB gives table p_table_name: arn:aws:dynamodb:<hroe.region>:<hroe.account_id>:table/<name> (an index''s adds /index/<name>)';

-- The ProvisionedThroughput member of a table or GSI description
CREATE FUNCTION hroe.throughput_description(p_read_capacity_units bigint, p_write_capacity_units bigint,
											p_last_increase timestamptz, p_last_decrease timestamptz,
											p_decreases integer)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'LastIncreaseDateTime', EXTRACT(epoch FROM p_last_increase),
	'LastDecreaseDateTime', EXTRACT(epoch FROM p_last_decrease),
	'NumberOfDecreasesToday',
		CASE WHEN (p_last_decrease AT TIME ZONE 'UTC')::date = (pg_catalog.now() AT TIME ZONE 'UTC')::date
			 THEN p_decreases ELSE 0 END,
	'ReadCapacityUnits', coalesce(p_read_capacity_units, 0),
	'WriteCapacityUnits', coalesce(p_write_capacity_units, 0)));
COMMENT ON FUNCTION hroe.throughput_description(bigint, bigint, timestamptz, timestamptz, integer) IS
'internal: DynamoDB''s ProvisionedThroughput description: the read and write capacity units (0 on a PAY_PER_REQUEST table), the last increase and decrease, the number of decreases on the current UTC day';

CREATE OR REPLACE FUNCTION hroe.describe_table(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN jsonb_build_object('Table', hroe.table_description(p_table_name));
END
$$;
COMMENT ON FUNCTION hroe.describe_table(text) IS
'DescribeTable: {"Table": hroe.table_description(p_table_name)}: key schema, attribute definitions, ARN, TableId, billing mode and provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, item count, size of the index entries) and the exact item count and DynamoDB size of the table, as DynamoDB JSON; also names the PostgreSQL table and indexes';

-- CreateTable's settings of a table just created
CREATE FUNCTION hroe.set_table_settings(p_table_name text, p_billing_mode text,
										p_read_capacity_units bigint, p_write_capacity_units bigint,
										p_deletion_protection boolean, p_attribute_order text[],
										p_index_throughput jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	UPDATE hroe.tables
	SET billing_mode = p_billing_mode,
		read_capacity_units = p_read_capacity_units,
		write_capacity_units = p_write_capacity_units,
		pay_per_request_since = CASE WHEN p_billing_mode = 'PAY_PER_REQUEST' THEN created_at END,
		deletion_protection = coalesce(p_deletion_protection, false),
		attribute_order = coalesce(p_attribute_order, '{}')
	WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	UPDATE hroe.indexes
	SET read_capacity_units = (p_index_throughput -> index_name ->> 0)::bigint,
		write_capacity_units = (p_index_throughput -> index_name ->> 1)::bigint
	WHERE table_name = p_table_name AND NOT local AND p_index_throughput ? index_name;
END
$$;
COMMENT ON FUNCTION hroe.set_table_settings(text, text, bigint, bigint, boolean, text[], jsonb) IS
'internal: CreateTable''s settings of a table hroe.create_table just made: billing mode (PROVISIONED with both capacity units, or PAY_PER_REQUEST without), deletion protection, the order of its AttributeDefinitions, and each GSI''s throughput (p_index_throughput: {"index": [read, write]})';

CREATE FUNCTION hroe.update_table(p_table_name text, p_billing_mode text DEFAULT NULL,
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
	IF p_billing_mode IS NOT NULL AND p_billing_mode NOT IN ('PROVISIONED', 'PAY_PER_REQUEST') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''billingMode'' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]', p_billing_mode));
	END IF;
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
COMMENT ON FUNCTION hroe.update_table(text, text, bigint, bigint, boolean, jsonb, text) IS
'UpdateTable''s settings, with DynamoDB''s rules and errors: billing mode (PROVISIONED needs both capacity units for the table and each GSI, PAY_PER_REQUEST takes none), the table''s and each GSI''s provisioned throughput (p_index_throughput: {"index": [read, write]}; a change to the current values is an error; increases, decreases and the day''s number of decreases are recorded), deletion protection; p_new_index: a GSI the same UpdateTable creates. True if the table''s throughput or billing mode changes (the table is then UPDATING)';

-- DynamoDB's error when a throughput update changes nothing
CREATE FUNCTION hroe.check_throughput_change(p_read bigint, p_write bigint, p_new_read bigint, p_new_write bigint)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_read = p_new_read AND p_write = p_new_write THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %s. Requested ReadCapacityUnits: %s. Current WriteCapacityUnits provisioned for the table: %s. Requested WriteCapacityUnits: %s. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.',
				   p_read, p_new_read, p_write, p_new_write));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_throughput_change(bigint, bigint, bigint, bigint) IS
'internal: Raises DynamoDB''s ValidationException when a throughput update requests the current values';

-- The number of decreases on the current UTC day after a decrease (or not)
CREATE FUNCTION hroe.decreases_today(p_decrease boolean, p_last_decrease timestamptz, p_decreases integer)
RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN NOT p_decrease THEN p_decreases
			WHEN (p_last_decrease AT TIME ZONE 'UTC')::date = (pg_catalog.now() AT TIME ZONE 'UTC')::date
			THEN p_decreases + 1
			ELSE 1 END;
COMMENT ON FUNCTION hroe.decreases_today(boolean, timestamptz, integer) IS
'internal: The count of throughput decreases kept with the last decrease''s time after an update (p_decrease: the update decreases): one more on the same UTC day, else 1';

-- ---------- tags ----------

CREATE TABLE hroe.table_tags (
	table_name	text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	tag_key		text NOT NULL CHECK (char_length(tag_key) BETWEEN 1 AND 128),
	tag_value	text NOT NULL CHECK (char_length(tag_value) <= 256),
	PRIMARY KEY (table_name, tag_key)
);
COMMENT ON TABLE hroe.table_tags IS 'The tags of DynamoDB tables (TagResource, UntagResource, ListTagsOfResource): readable by every role, as hroe.tables; under row-level security only a member of the role owning a table writes its tags';
ALTER TABLE hroe.table_tags ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.table_tags FORCE ROW LEVEL SECURITY;
CREATE POLICY table_tags_read ON hroe.table_tags FOR SELECT USING (true);
COMMENT ON POLICY table_tags_read ON hroe.table_tags IS 'Tags are metadata, readable by every role, as hroe.tables';
CREATE POLICY table_tags_owner ON hroe.table_tags FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY table_tags_owner ON hroe.table_tags IS 'Only a member of the role owning a table''s PostgreSQL table adds, changes or removes its tags';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.table_tags TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.table_tags',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = table_tags.table_name)');

CREATE FUNCTION hroe.tag_resource(p_table_name text, p_tags jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_key text;
	v_count integer;
BEGIN
	-- (no row lock: that needs UPDATE on hroe.tables; the foreign key
	-- keeps a concurrent DeleteTable out)
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourcArn: %s not found', hroe.table_arn(p_table_name)));
	END IF;
	IF NOT hroe.owns_table(p_table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its tags', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF jsonb_typeof(p_tags) IS DISTINCT FROM 'object' THEN
		RAISE EXCEPTION 'p_tags must be a JSON object of tag keys to values'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR v_key IN SELECT k FROM jsonb_object_keys(p_tags) k LOOP
		IF lower(v_key) LIKE 'aws:%' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: The tag key %s uses the prefix aws:, which is reserved for AWS use', v_key));
		END IF;
		IF jsonb_typeof(p_tags -> v_key) IS DISTINCT FROM 'string' THEN
			RAISE EXCEPTION 'the value of tag % must be a string', v_key
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END LOOP;
	INSERT INTO hroe.table_tags (table_name, tag_key, tag_value)
	SELECT p_table_name, key, value FROM jsonb_each_text(p_tags)
	ON CONFLICT (table_name, tag_key) DO UPDATE SET tag_value = excluded.tag_value;
	SELECT count(*) INTO v_count FROM hroe.table_tags WHERE table_name = p_table_name;
	IF v_count > 50 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: The number of tags of a table would exceed the limit of 50: %s', v_count));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.tag_resource(text, jsonb) IS
'TagResource: adds the tags p_tags ({"key": "value"}) to table p_table_name, replacing the values of keys it has; at most 50 tags a table, keys of 1-128 and values of 0-256 characters, no key with the prefix aws:. Only a member of the role owning the table may (row-level security on hroe.table_tags)';

CREATE FUNCTION hroe.untag_resource(p_table_name text, p_tag_keys text[])
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF NOT hroe.owns_table(p_table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its tags', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	DELETE FROM hroe.table_tags WHERE table_name = p_table_name AND tag_key = ANY (p_tag_keys);
END
$$;
COMMENT ON FUNCTION hroe.untag_resource(text, text[]) IS
'UntagResource: removes the tags with keys p_tag_keys (absent ones are ignored) from table p_table_name. Only a member of the role owning the table may (row-level security on hroe.table_tags)';

CREATE FUNCTION hroe.list_tags_of_resource(p_table_name text)
RETURNS TABLE (key text, value text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourcArn: %s not found', hroe.table_arn(p_table_name)));
	END IF;
	RETURN QUERY SELECT g.tag_key, g.tag_value FROM hroe.table_tags g
				 WHERE g.table_name = p_table_name ORDER BY g.tag_key COLLATE "C";
END
$$;
COMMENT ON FUNCTION hroe.list_tags_of_resource(text) IS
'ListTagsOfResource: the tags of table p_table_name, by key';

--
-- DynamoDB Streams and Time to Live (src/streams.sql, src/streams.c,
-- src/api_streams.c; doc/streams.md)
--
-- A table's stream is an AFTER ROW trigger (hroe.stream_capture, C) that
-- appends one record per changed row to hroe.stream_records in the writing
-- transaction: a rolled-back write leaves none, a write that changes nothing
-- leaves none.  Sequence numbers are given after commit, by the first reader
-- (hroe.stream_sequence): in the order the records were written, to the
-- records of committed transactions only, so that a reader never passes a
-- record a still-running transaction will commit later.
--

CREATE SEQUENCE hroe.stream_ids;
COMMENT ON SEQUENCE hroe.stream_ids IS 'internal: Identifiers of hroe.streams';

CREATE TABLE hroe.streams (
	stream_id			bigint PRIMARY KEY DEFAULT pg_catalog.nextval('hroe.stream_ids'),
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	view_type			text NOT NULL
		CHECK (view_type IN ('KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES')),
	-- StreamLabel: the creation time, to the millisecond, in UTC
	label				text NOT NULL,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	disabled_at			timestamptz,
	-- the highest sequence number given, the highest trimmed
	last_seq			bigint NOT NULL DEFAULT 0,
	trimmed_seq			bigint NOT NULL DEFAULT 0,
	UNIQUE (table_name, label)
);
CREATE UNIQUE INDEX streams_enabled ON hroe.streams (table_name) WHERE disabled_at IS NULL;
COMMENT ON TABLE hroe.streams IS 'DynamoDB Streams: each stream of a table (at most one enabled; a disabled one stays readable for 24 hours), its StreamViewType and StreamLabel, the highest sequence number given and the highest trimmed';
GRANT SELECT ON hroe.streams TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.streams', '');
-- Writes scoped to the table's owner, as hroe.tables': a role granted INSERT,
-- UPDATE or DELETE on hroe.streams (CreateTable or UpdateTable with a stream
-- through the gateway) changes only the streams of the tables it owns.  Not
-- forced: the sequencing and the capture run as the extension's owner, the
-- Time to Live worker as a superuser.
ALTER TABLE hroe.streams ENABLE ROW LEVEL SECURITY;
CREATE POLICY streams_read ON hroe.streams FOR SELECT USING (true);
COMMENT ON POLICY streams_read ON hroe.streams IS 'The streams'' metadata is readable by every role, as hroe.tables';
CREATE POLICY streams_owner ON hroe.streams FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY streams_owner ON hroe.streams IS 'A role enables, disables or changes only the streams of a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.stream_ids', '');

CREATE SEQUENCE hroe.stream_write_order;
COMMENT ON SEQUENCE hroe.stream_write_order IS 'internal: The order in which stream records were written (hroe.stream_records.write_seq), across all streams';

CREATE TABLE hroe.stream_records (
	stream_id			bigint NOT NULL,
	write_seq			bigint NOT NULL DEFAULT pg_catalog.nextval('hroe.stream_write_order'),
	-- SequenceNumber, given after the writer committed (NULL before)
	seq					bigint,
	event				"char" NOT NULL CHECK (event IN ('I', 'M', 'R')),
	-- a deletion by Time to Live (userIdentity: the service)
	service				boolean NOT NULL,
	created_at			timestamptz NOT NULL,
	size_bytes			integer NOT NULL,
	keys				hroe.item NOT NULL,
	old_image			hroe.item,
	new_image			hroe.item
);
CREATE INDEX stream_records_seq ON hroe.stream_records (stream_id, seq);
CREATE INDEX stream_records_pending ON hroe.stream_records (stream_id, write_seq) WHERE seq IS NULL;
COMMENT ON TABLE hroe.stream_records IS 'internal: The records of every stream: INSERT, MODIFY or REMOVE, keys and images as the view type keeps them, written by hroe.stream_capture in the writing transaction; readable only through the Streams API, which checks SELECT on the stream''s table';
-- the records of every table are here: no role but the extension's owner
-- reads or writes them directly (hroe.stream_capture and the Streams API
-- switch to that owner, after the privilege checks of the table's own)
REVOKE ALL ON hroe.stream_records FROM PUBLIC;

CREATE FUNCTION hroe.stream_capture()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_stream_capture'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.stream_capture() IS
'internal: The AFTER ROW trigger of a table with a stream (arguments: stream id, view type, key attribute names): appends the change''s record to hroe.stream_records as the extension''s owner, after checking that the stream is the trigger''s table''s; none when the item did not change';

CREATE FUNCTION hroe.stream_arn(p_table_name text, p_label text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN hroe.table_arn(p_table_name) || '/stream/' || p_label;
COMMENT ON FUNCTION hroe.stream_arn(text, text) IS
'internal: A stream''s ARN: its table''s (the settings hroe.region and hroe.account_id), then /stream/ and its label';

CREATE FUNCTION hroe.enable_stream(p_table_name text, p_view_type text)
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
	IF p_view_type IS NULL OR p_view_type NOT IN ('KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''streamSpecification.streamViewType'' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]', p_view_type));
	END IF;
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
COMMENT ON FUNCTION hroe.enable_stream(text, text) IS
'Enables the DynamoDB stream of a table (UpdateTable''s StreamSpecification): view type KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES; creates the table''s capture trigger hroe_stream; returns the stream''s ARN';

CREATE FUNCTION hroe.disable_stream(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	UPDATE hroe.streams SET disabled_at = clock_timestamp()
	WHERE table_name = p_table_name AND disabled_at IS NULL;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Table does not have an enabled stream: TableName: %s', p_table_name));
	END IF;
	EXECUTE format('DROP TRIGGER hroe_stream ON %s', t.relid);
END
$$;
COMMENT ON FUNCTION hroe.disable_stream(text) IS
'Disables the DynamoDB stream of a table (UpdateTable''s StreamSpecification): drops the capture trigger; the stream stays readable, its shard closed, for 24 hours';

CREATE FUNCTION hroe.stream_specification(p_table_name text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT jsonb_build_object(
			   'StreamSpecification', CASE WHEN s.disabled_at IS NULL
										   THEN jsonb_build_object('StreamEnabled', true, 'StreamViewType', s.view_type)
										   ELSE jsonb_build_object('StreamEnabled', false) END,
			   'LatestStreamArn', hroe.stream_arn(s.table_name, s.label),
			   'LatestStreamLabel', s.label)
	FROM hroe.streams s
	WHERE s.table_name = p_table_name
	ORDER BY s.created_at DESC
	LIMIT 1;
END;
COMMENT ON FUNCTION hroe.stream_specification(text) IS
'DescribeTable''s stream members of a table (StreamSpecification, LatestStreamArn, LatestStreamLabel), NULL if it never had a stream';

-- Sequence the committed records of a stream, after those sequenced before
CREATE FUNCTION hroe.stream_sequence(p_stream_id bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_last bigint;
	v_n bigint;
BEGIN
	-- one sequencer per stream at a time; the UPDATE below takes its
	-- snapshot after this lock, so it sees what an earlier one sequenced
	SELECT last_seq INTO v_last FROM hroe.streams WHERE stream_id = p_stream_id FOR UPDATE;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	-- the records of committed writers, in the order they were written:
	-- a writer that commits later is sequenced later, after these
	WITH pending AS (
		SELECT r.ctid AS c, row_number() OVER (ORDER BY r.write_seq) AS n
		FROM hroe.stream_records r
		WHERE r.stream_id = p_stream_id AND r.seq IS NULL)
	UPDATE hroe.stream_records r SET seq = v_last + p.n
	FROM pending p WHERE r.ctid = p.c;
	GET DIAGNOSTICS v_n = ROW_COUNT;
	IF v_n > 0 THEN
		UPDATE hroe.streams SET last_seq = v_last + v_n WHERE stream_id = p_stream_id;
	END IF;
	RETURN v_last + v_n;
END
$$;
COMMENT ON FUNCTION hroe.stream_sequence(bigint) IS
'internal: Gives sequence numbers to the records of a stream whose writers committed, in the order they were written, after the highest given; returns the new highest. Serialized per stream by the stream''s row lock';
REVOKE EXECUTE ON FUNCTION hroe.stream_sequence(bigint) FROM PUBLIC;

CREATE FUNCTION hroe.trim_streams(p_retention interval DEFAULT '24 hours')
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_s hroe.streams;
	v_cutoff timestamptz := clock_timestamp() - p_retention;
	v_trim bigint;
	v_n bigint;
	v_total bigint := 0;
BEGIN
	FOR v_s IN SELECT * FROM hroe.streams ORDER BY stream_id LOOP
		PERFORM hroe.stream_sequence(v_s.stream_id);
		-- the records written before the cutoff, a prefix in sequence order
		SELECT max(seq) INTO v_trim FROM hroe.stream_records
		WHERE stream_id = v_s.stream_id AND seq IS NOT NULL AND created_at < v_cutoff;
		IF v_trim IS NOT NULL THEN
			DELETE FROM hroe.stream_records WHERE stream_id = v_s.stream_id AND seq <= v_trim;
			GET DIAGNOSTICS v_n = ROW_COUNT;
			v_total := v_total + v_n;
			UPDATE hroe.streams SET trimmed_seq = greatest(trimmed_seq, v_trim) WHERE stream_id = v_s.stream_id;
		END IF;
		-- a stream disabled for longer than the retention is gone
		IF v_s.disabled_at < v_cutoff THEN
			DELETE FROM hroe.streams WHERE stream_id = v_s.stream_id;
		END IF;
	END LOOP;
	-- the records of deleted tables' and expired streams
	DELETE FROM hroe.stream_records r
	WHERE NOT EXISTS (SELECT FROM hroe.streams x WHERE x.stream_id = r.stream_id);
	GET DIAGNOSTICS v_n = ROW_COUNT;
	RETURN v_total + v_n;
END
$$;
COMMENT ON FUNCTION hroe.trim_streams(interval) IS
'Trims every stream: deletes the records older than p_retention (DynamoDB keeps 24 hours), streams disabled longer ago than that, and the records of deleted tables; returns the number of records deleted. Run by hroe''s background worker (hroe.ttl_naptime) and by hand';
REVOKE EXECUTE ON FUNCTION hroe.trim_streams(interval) FROM PUBLIC;

-- ---------- the DynamoDB Streams API ----------

-- A sequence number as DynamoDB writes it (21 digits and more), and back
CREATE FUNCTION hroe.stream_seq_text(p_seq bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (100000000000000000000::numeric + p_seq)::text;
COMMENT ON FUNCTION hroe.stream_seq_text(bigint) IS
'internal: A stream record''s SequenceNumber as DynamoDB Streams writes it (21 digits)';

CREATE FUNCTION hroe.stream_shard_id(p_stream_id bigint, p_label text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN 'shardId-' || pg_catalog.lpad(p_stream_id::text, 20, '0') || '-' || pg_catalog.left(pg_catalog.md5(p_label), 8);
COMMENT ON FUNCTION hroe.stream_shard_id(bigint, text) IS
'internal: The ShardId of a stream''s one shard';

CREATE FUNCTION hroe.streams_call(p_operation text, p_request jsonb, p_caller oid,
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
		ELSIF v_type NOT IN ('TRIM_HORIZON', 'LATEST', 'AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''shardIteratorType'' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]', v_type));
		END IF;
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
COMMENT ON FUNCTION hroe.streams_call(text, jsonb, oid) IS
'internal: The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords) for role p_caller, whose SELECT privilege on a stream''s table is checked; run by hroe.dynamodb as the extension''s owner (it reads hroe.stream_records). response: the response, but GetRecords'' records without their Keys, NewImage and OldImage, which are images[i][1:3] (NULL: none; images is NULL for the other operations) for the JSON API to write into them: an item may hold U+0000, which jsonb cannot';
REVOKE EXECUTE ON FUNCTION hroe.streams_call(text, jsonb, oid) FROM PUBLIC;

--
-- DynamoDB's Time to Live (src/ttl.sql, src/ttl.c; doc/streams.md)
--

CREATE TABLE hroe.time_to_live (
	table_name			text PRIMARY KEY REFERENCES hroe.tables ON DELETE CASCADE,
	attribute_name		text NOT NULL CHECK (length(attribute_name) BETWEEN 1 AND 255),
	enabled				boolean NOT NULL,
	updated_at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp()
);
COMMENT ON TABLE hroe.time_to_live IS 'Time to Live of tables: the attribute (a Number of epoch seconds) whose past values make an item expire, and whether it is enabled; one attribute per table';
GRANT SELECT ON hroe.time_to_live TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.time_to_live', '');
-- Writes scoped to the table's owner, as hroe.tables': a role granted INSERT
-- or UPDATE on hroe.time_to_live changes only its own tables' Time to Live
-- (else it could have the worker, a superuser, delete another role's items).
ALTER TABLE hroe.time_to_live ENABLE ROW LEVEL SECURITY;
CREATE POLICY time_to_live_read ON hroe.time_to_live FOR SELECT USING (true);
COMMENT ON POLICY time_to_live_read ON hroe.time_to_live IS 'Time to Live settings are readable by every role, as hroe.tables';
CREATE POLICY time_to_live_owner ON hroe.time_to_live FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY time_to_live_owner ON hroe.time_to_live IS 'A role sets only the Time to Live of a table it owns';

CREATE FUNCTION hroe.delete_expired_items(p_table_name text, p_limit integer DEFAULT 1000)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_delete_expired_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.delete_expired_items(text, integer) IS
'Deletes up to p_limit expired items of a table with Time to Live enabled (its attribute a Number of epoch seconds in the past, at most five years), sweeping the table''s blocks on from where this session''s last call stopped; each row locked and its expiry checked again, so an item re-written with a later expiry is kept; the stream records each deletion as the service''s. Returns the number deleted (0 without Time to Live). hroe''s background worker calls it';

-- The comparison as a page (issue #22): the grid view of any hroe table
-- (src/grid.sql), the HTML report (models/report.sql), the text report
-- rendered from one run's rows, hroe.compare's progress at large scales.
--
-- The grid view (src/grid.sql): a table's item collections, or a secondary
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
					-- unchanged, and every run starts from the same state, so the
					-- tables are copied once and the first run's changes measured
					v_wn := NULL; v_wt := NULL; v_wi := NULL;
					IF m <> 'hroe_normalized' THEN
						PERFORM hroe.compare_snapshot(m);
					END IF;
					FOR i IN 1 .. p_runs LOOP
						BEGIN
							EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT %s', v_call) INTO v_plan;
							v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
							EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
								FROM (SELECT r, row_number() OVER () AS n FROM (%s) r) s',
								format(p.check_sql, VARIADIC (ARRAY[m] || c.args))) INTO v_fp, v_rows;
							IF m <> 'hroe_normalized' AND i = 1 THEN
								SELECT * INTO v_wn, v_wt, v_wi FROM hroe.compare_write_capacity(m);
							END IF;
							RAISE EXCEPTION USING ERRCODE = 'HR0CR';
						EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
							NULL;
						END;
					END LOOP;
					IF m <> 'hroe_normalized' THEN
						PERFORM hroe.compare_drop_snapshot(m);
					END IF;
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

-- The text report of one run's rows (hroe.compare_report; test/main.sh
-- renders the same run's rows as text and as HTML).
CREATE FUNCTION hroe.compare_report_lines(p_results jsonb)
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
									   median_ms numeric)
			 ORDER BY e.n LOOP
		IF r.pattern_no || r.case_label <> v_last THEN
			RETURN NEXT '';
			RETURN NEXT format('%s %s %s [%s]: %s', CASE WHEN r.kind = 'read' THEN 'read' ELSE 'write' END,
				r.pattern_no, r.pattern, r.case_label,
				CASE WHEN r.identical THEN 'identical answers' ELSE 'ANSWERS DIFFER' END);
			v_last := r.pattern_no || r.case_label;
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
'internal: the rows of one hroe.compare() run (their jsonb array, in order) as hroe.compare_report''s text lines: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity';

CREATE OR REPLACE FUNCTION hroe.compare_report(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN NEXT format('hroe.compare: models %s, %s run(s) per call', (SELECT string_agg(m, ', ') FROM hroe.compare_models() m
		WHERE p_models IS NULL OR m = ANY (p_models)), p_runs);
	RETURN QUERY SELECT hroe.compare_report_lines(COALESCE(jsonb_agg(to_jsonb(c) - 'ordinality' ORDER BY c.ordinality), '[]'))
		FROM hroe.compare(p_patterns, p_models, p_runs) WITH ORDINALITY AS c;
END
$$;
COMMENT ON FUNCTION hroe.compare_report(text[], text[], integer) IS
'hroe.compare''s result as text lines for a terminal: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity';

-- hroe.compare_html: the comparison as one self-contained HTML page (no
-- network, inline CSS and SVG, a little inline JavaScript for sorting): the
-- summary per pattern with its verdict, every call's figures, charts, the
-- data drawn as the design guides draw it (hroe.grid), and the cost in
-- money.  It renders the rows of one hroe.compare() run, given as jsonb, so
-- that its figures are that run's; hroe.compare_report_html runs
-- hroe.compare once and renders it.  PARALLEL UNSAFE: it fills scratch
-- temporary tables.

-- A design's colour in the charts: the same in each chart.
CREATE FUNCTION hroe.report_colour(p_model text, p_position integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE p_model WHEN 'hroe_normalized' THEN '#2563eb' WHEN 'hroe_single' THEN '#16a34a' WHEN 'hroe_multi' THEN '#ea580c'
	   ELSE (ARRAY['#9333ea', '#0891b2', '#be123c', '#4d7c0f'])[(COALESCE(p_position, 1) - 1) % 4 + 1] END
$$;
COMMENT ON FUNCTION hroe.report_colour(text, integer) IS
'internal: the colour of a design in hroe.compare_html''s charts (hroe_normalized blue, hroe_single green, hroe_multi orange, others by position)';

-- A horizontal grouped bar chart: per label (in p_labels' order) one bar per
-- series; p_data [{"label", "series", "value"}], log scale when p_log.
CREATE FUNCTION hroe.report_bar_chart(p_id text, p_title text, p_unit text, p_labels text[], p_series text[],
									  p_data jsonb, p_log boolean)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_bar integer := 7;
	v_left integer := 190;
	v_width integer := 560;
	v_group integer := cardinality(p_series) * v_bar + 8;
	v_height integer := 40 + cardinality(p_labels) * v_group + 30;
	v_max float8;
	v_min float8;
	v_svg text;
	l integer;
	s integer;
	v float8;
	x float8;
BEGIN
	SELECT max((d ->> 'value')::float8), min((d ->> 'value')::float8) FILTER (WHERE (d ->> 'value')::float8 > 0)
	INTO v_max, v_min FROM jsonb_array_elements(p_data) d;
	v_max := COALESCE(NULLIF(v_max, 0), 1);
	v_min := COALESCE(v_min, v_max / 10);
	IF p_log THEN
		v_min := power(10, floor(log(v_min)));
		v_max := power(10, ceil(log(v_max)));
		IF v_max <= v_min THEN
			v_max := v_min * 10;
		END IF;
	END IF;
	v_svg := format('<svg id="%s" xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" style="font:11px system-ui,sans-serif">',
					hroe.html_escape(p_id), v_left + v_width + 60, v_height, v_left + v_width + 60, v_height, hroe.html_escape(p_title))
		|| format('<text x="0" y="14" style="font-weight:600;font-size:13px">%s</text>', hroe.html_escape(p_title));
	-- legend
	FOR s IN 1 .. cardinality(p_series) LOOP
		v_svg := v_svg || format('<rect x="%s" y="22" width="10" height="10" fill="%s"/><text x="%s" y="31">%s</text>',
								 v_left + (s - 1) * 150, hroe.report_colour(p_series[s], s), v_left + (s - 1) * 150 + 14, hroe.html_escape(p_series[s]));
	END LOOP;
	-- grid lines: decades (log) or fifths (linear)
	FOR l IN 0 .. CASE WHEN p_log THEN round(log(v_max / v_min))::integer ELSE 5 END LOOP
		v := CASE WHEN p_log THEN v_min * power(10, l) ELSE v_max * l / 5 END;
		x := v_left + v_width * l / CASE WHEN p_log THEN GREATEST(round(log(v_max / v_min)), 1) ELSE 5 END;
		v_svg := v_svg || format('<line x1="%s" y1="38" x2="%s" y2="%s" stroke="#e2e8f0"/><text x="%s" y="%s" text-anchor="middle" fill="#475569">%s</text>',
								 round(x::numeric, 1), round(x::numeric, 1), v_height - 24, round(x::numeric, 1), v_height - 10,
								 rtrim(rtrim(to_char(v::numeric, 'FM999999990.999'), '0'), '.') || ' ' || p_unit);
	END LOOP;
	FOR l IN 1 .. cardinality(p_labels) LOOP
		v_svg := v_svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>', v_left - 6,
								 40 + (l - 1) * v_group + cardinality(p_series) * v_bar / 2 + 4, hroe.html_escape(p_labels[l]));
		FOR s IN 1 .. cardinality(p_series) LOOP
			SELECT (d ->> 'value')::float8 INTO v FROM jsonb_array_elements(p_data) d
			WHERE d ->> 'label' = p_labels[l] AND d ->> 'series' = p_series[s] LIMIT 1;
			CONTINUE WHEN v IS NULL;
			x := CASE WHEN p_log THEN v_width * GREATEST(log(GREATEST(v, v_min) / v_min) / log(v_max / v_min), 0.005)
					  ELSE v_width * GREATEST(v / v_max, 0.005) END;
			v_svg := v_svg || format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s %s</title></rect>',
									 v_left, 40 + (l - 1) * v_group + (s - 1) * v_bar, round(x::numeric, 1), v_bar - 1,
									 hroe.report_colour(p_series[s], s), hroe.html_escape(p_labels[l]), hroe.html_escape(p_series[s]), v, p_unit);
		END LOOP;
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_bar_chart(text, text, text, text[], text[], jsonb, boolean) IS
'internal: an SVG horizontal grouped bar chart for hroe.compare_html: per label one bar per series from p_data [{"label", "series", "value"}], log scale when p_log';

-- A small line chart per pattern: latency against scale, a line per model,
-- both axes logarithmic; p_data [{"scale", "pattern", "model", "ms"}].
CREATE FUNCTION hroe.report_growth_chart(p_pattern text, p_data jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[] := ARRAY(SELECT DISTINCT d ->> 'model' FROM jsonb_array_elements(p_data) d
							 WHERE d ->> 'pattern' = p_pattern ORDER BY 1);
	v_s0 float8; v_s1 float8; v_m0 float8; v_m1 float8;
	v_svg text;
	m integer;
	v_points text;
BEGIN
	SELECT min((d ->> 'scale')::float8), max((d ->> 'scale')::float8), min((d ->> 'ms')::float8), max((d ->> 'ms')::float8)
	INTO v_s0, v_s1, v_m0, v_m1 FROM jsonb_array_elements(p_data) d
	WHERE d ->> 'pattern' = p_pattern AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
	IF v_s0 IS NULL THEN
		RETURN '';
	END IF;
	v_m0 := power(10, floor(log(v_m0)));
	v_m1 := GREATEST(power(10, ceil(log(v_m1))), v_m0 * 10);
	v_s1 := GREATEST(v_s1, v_s0 * 10);
	v_svg := format('<svg class="growth" xmlns="http://www.w3.org/2000/svg" width="220" height="150" viewBox="0 0 220 150" style="font:10px system-ui,sans-serif"><text x="4" y="12" style="font-weight:600">%s</text>', hroe.html_escape(p_pattern))
		|| '<rect x="34" y="18" width="176" height="104" fill="none" stroke="#cbd5e1"/>'
		|| format('<text x="30" y="24" text-anchor="end">%s</text><text x="30" y="122" text-anchor="end">%s</text>', v_m1, v_m0)
		|| format('<text x="34" y="134">%s</text><text x="210" y="134" text-anchor="end">scale %s</text><text x="4" y="146" fill="#475569">ms (log) against scale (log)</text>', v_s0, v_s1);
	FOR m IN 1 .. cardinality(v_models) LOOP
		SELECT string_agg(format('%s,%s', round((34 + 176 * log((d ->> 'scale')::float8 / v_s0) / log(v_s1 / v_s0))::numeric, 1),
								 round((122 - 104 * log((d ->> 'ms')::float8 / v_m0) / log(v_m1 / v_m0))::numeric, 1)),
						  ' ' ORDER BY (d ->> 'scale')::float8)
		INTO v_points FROM jsonb_array_elements(p_data) d
		WHERE d ->> 'pattern' = p_pattern AND d ->> 'model' = v_models[m] AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
		v_svg := v_svg || format('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></polyline>',
								 v_points, hroe.report_colour(v_models[m], m), hroe.html_escape(v_models[m]));
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_growth_chart(text, jsonb) IS
'internal: an SVG line chart of one pattern''s latency against scale (both logarithmic), a line per model, from the benchmark''s rows [{"scale", "pattern", "model", "ms"}], for hroe.compare_html';

CREATE FUNCTION hroe.compare_html(p_results jsonb, p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[];
	v_read_price numeric := COALESCE((p_options ->> 'read_price')::numeric, 0.125);
	v_write_price numeric := COALESCE((p_options ->> 'write_price')::numeric, 0.625);
	v_storage_price numeric := COALESCE((p_options ->> 'storage_price')::numeric, 0.25);
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
	IF v_read_price < 0 OR v_write_price < 0 OR v_storage_price < 0 THEN
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

	-- cost in money: DynamoDB on-demand, for the request mix
	v_s := format('<p>DynamoDB on-demand prices (us-east-1, read %s): $%s per million read request units, $%s per million write request units, $%s per GB-month of storage. A read request unit is one RCU of an eventually consistent read here (the capacity column), a write request unit one WCU. Request mix per month: %s.</p>',
				  hroe.html_escape(v_prices_read), v_read_price, v_write_price, v_storage_price,
				  CASE WHEN p_options ? 'mix' THEN 'as given' ELSE '1,000,000 calls of each read pattern and 100,000 of each write pattern (the default)' END)
		|| '<table id="cost" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th data-sort="n">calls / month</th>'
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%1$s $ / million calls</th><th data-sort="n">%1$s $ / month</th>', hroe.html_escape(m)), '' ORDER BY o)
			FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '</tr></thead><tbody>';
	TRUNCATE pg_temp.hroe_report_cost;
	INSERT INTO pg_temp.hroe_report_cost
	SELECT c.pattern_no, c.pattern, c.model,
		   COALESCE((p_options -> 'mix' ->> c.pattern)::numeric, CASE WHEN p_options ? 'mix' THEN 0 WHEN c.kind = 'read' THEN 1000000 ELSE 100000 END),
		   c.capacity * CASE WHEN c.capacity_unit = 'WCU' THEN v_write_price ELSE v_read_price END
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
	-- would bill (each item and each GSI entry plus 100 bytes)
	v_s := v_s || '<h3>Storage</h3><table id="storage"><thead><tr><th>design</th><th>PostgreSQL (tables, indexes, TOAST)</th><th>DynamoDB billed size (items and GSI entries, +100 B each)</th><th>DynamoDB storage $ / month</th></tr></thead><tbody>';
	FOR r IN SELECT m, o FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE to_regnamespace(m) IS NOT NULL ORDER BY o LOOP
		DECLARE
			v_pg bigint;
			v_ddb numeric := 0;
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
				END LOOP;
			ELSE
				v_ddb := NULL;
			END IF;
			v_s := v_s || format('<tr data-model="%s"><td>%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num">%s</td></tr>',
								 hroe.html_escape(r.m), hroe.html_escape(r.m), v_pg, pg_size_pretty(v_pg), v_ddb,
								 COALESCE(pg_size_pretty(v_ddb), ''), COALESCE('$' || to_char(v_ddb / 1073741824.0 * v_storage_price, 'FM999,999,990.0000'), ''));
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
'the comparison as one self-contained HTML page, rendered from the rows of one hroe.compare() run (p_results: their jsonb array, e.g. SELECT jsonb_agg(c) FROM hroe.compare() c), so that its figures are that run''s: the summary per pattern with the verdict, every call, SVG charts (and the benchmark''s growth curves from p_options.growth [{"scale", "pattern", "model", "ms"}]), the models'' tables and indexes drawn by hroe.grid for sample employee_id, order_id, product_id (p_options, defaults chosen from the data; grid_items, default 12), and the DynamoDB on-demand cost of a request mix (p_options.mix {"pattern": calls per month}; read_price, write_price per million request units, storage_price per GB-month: defaults 0.125, 0.625, 0.25, us-east-1, read 2026-11-27) beside each design''s storage';

CREATE FUNCTION hroe.compare_report_html(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5,
										 p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT hroe.compare_html(COALESCE(jsonb_agg(to_jsonb(c) - 'ordinality' ORDER BY c.ordinality), '[]'), p_options)
FROM hroe.compare(p_patterns, p_models, p_runs) WITH ORDINALITY AS c
$$;
COMMENT ON FUNCTION hroe.compare_report_html(text[], text[], integer, jsonb) IS
'runs hroe.compare once and renders its rows with hroe.compare_html as one self-contained HTML page (p_options as hroe.compare_html''s)';

-- Item collections of tables with local secondary indexes: their sizes kept
-- by a trigger (the 10 GB limit, ItemCollectionMetrics), HR011
-- ItemCollectionSizeLimitExceededException
CREATE OR REPLACE FUNCTION hroe.dynamodb_error(p_exception text, p_message text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RAISE EXCEPTION USING
		MESSAGE = p_message,
		ERRCODE = CASE p_exception
					  WHEN 'ValidationException' THEN 'HR000'
					  WHEN 'ResourceNotFoundException' THEN 'HR001'
					  WHEN 'ConditionalCheckFailedException' THEN 'HR002'
					  WHEN 'ResourceInUseException' THEN 'HR003'
					  WHEN 'LimitExceededException' THEN 'HR004'
					  WHEN 'TransactionCanceledException' THEN 'HR005'
					  WHEN 'IdempotentParameterMismatchException' THEN 'HR006'
					  WHEN 'SerializationException' THEN 'HR007'
					  WHEN 'DuplicateItemException' THEN 'HR008'
					  WHEN 'ExpiredIteratorException' THEN 'HR009'
					  WHEN 'TrimmedDataAccessException' THEN 'HR010'
					  WHEN 'ItemCollectionSizeLimitExceededException' THEN 'HR011'
					  ELSE 'HR000' END,
		DETAIL = format('DynamoDB %s.', p_exception);
END
$$;
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'internal: Raises a DynamoDB exception: SQLSTATE class HR (HR000 ValidationException, HR001 ResourceNotFoundException, HR002 ConditionalCheckFailedException, HR003 ResourceInUseException, HR004 LimitExceededException, HR005 TransactionCanceledException, HR006 IdempotentParameterMismatchException, HR007 SerializationException, HR008 DuplicateItemException, HR009 ExpiredIteratorException, HR010 TrimmedDataAccessException, HR011 ItemCollectionSizeLimitExceededException; as hroe.dynamodb_errors()), DynamoDB''s text as the message';

CREATE TABLE hroe.item_collection_sizes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	-- the SHA-256 of the partition key value as DynamoDB JSON ({"S": "..."})
	collection			bytea NOT NULL,
	-- its items' sizes plus their LSI entries' sizes, in bytes
	size_bytes			bigint NOT NULL,
	PRIMARY KEY (table_name, collection)
);
COMMENT ON TABLE hroe.item_collection_sizes IS 'internal: The size of each non-empty item collection of each table with local secondary indexes (its items and their LSI entries, DynamoDB''s measure), kept by the trigger hroe.item_collection_size in the writing transaction; read and written only by the extension''s owner, through that trigger and ItemCollectionMetrics';
REVOKE ALL ON hroe.item_collection_sizes FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.item_collection_sizes', '');

CREATE FUNCTION hroe.item_collection_size()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_item_collection_size'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.item_collection_size() IS
'internal: The AFTER ROW trigger of a table with local secondary indexes (argument: the DynamoDB table''s name, checked to be the trigger''s table): adds a write''s change to its item collections'' sizes in hroe.item_collection_sizes as the extension''s owner, and raises ItemCollectionSizeLimitExceededException when a write grows a collection past hroe.item_collection_size_limit (10 GB); as the table''s AFTER TRUNCATE statement trigger, deletes its sizes';

-- UpdateTimeToLive and DescribeTimeToLive on another role's table:
-- AccessDeniedException, as the other operations
CREATE OR REPLACE FUNCTION hroe.update_time_to_live(p_table_name text, p_attribute_name text, p_enabled boolean)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
BEGIN
	-- another role's table: AccessDeniedException, as the DDL's (the row
	-- lock below would not see its row)
	PERFORM hroe.check_table_owner(p_table_name);
	IF NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE) THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	SELECT * INTO v FROM hroe.time_to_live WHERE table_name = p_table_name;
	IF p_enabled AND v.enabled THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'TimeToLive is already enabled');
	ELSIF NOT p_enabled AND NOT coalesce(v.enabled, false) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'TimeToLive is already disabled');
	ELSIF NOT p_enabled AND v.attribute_name <> p_attribute_name THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('TimeToLive is active on a different AttributeName: current AttributeName is %s', v.attribute_name));
	END IF;
	INSERT INTO hroe.time_to_live (table_name, attribute_name, enabled)
	VALUES (p_table_name, p_attribute_name, p_enabled)
	ON CONFLICT (table_name) DO UPDATE
	SET attribute_name = excluded.attribute_name, enabled = excluded.enabled, updated_at = excluded.updated_at;
	RETURN jsonb_build_object('TimeToLiveSpecification',
							  jsonb_build_object('AttributeName', p_attribute_name, 'Enabled', p_enabled));
END
$$;
COMMENT ON FUNCTION hroe.update_time_to_live(text, text, boolean) IS
'UpdateTimeToLive: enables (or disables) Time to Live on a table with its attribute, one per table, with DynamoDB''s errors (another role''s table: insufficient_privilege, AccessDeniedException); expired items are then deleted by hroe''s background worker or hroe.delete_expired_items. Returns the TimeToLiveSpecification';

CREATE OR REPLACE FUNCTION hroe.describe_time_to_live(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
	v_rel regclass;
BEGIN
	SELECT relid INTO v_rel FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	-- as DescribeTable, a table the role may not read: AccessDeniedException
	IF NOT has_table_privilege(v_rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT * INTO v FROM hroe.time_to_live WHERE table_name = p_table_name AND enabled;
	IF NOT FOUND THEN
		RETURN jsonb_build_object('TimeToLiveDescription', jsonb_build_object('TimeToLiveStatus', 'DISABLED'));
	END IF;
	RETURN jsonb_build_object('TimeToLiveDescription',
							  jsonb_build_object('TimeToLiveStatus', 'ENABLED', 'AttributeName', v.attribute_name));
END
$$;
COMMENT ON FUNCTION hroe.describe_time_to_live(text) IS
'DescribeTimeToLive: TimeToLiveStatus ENABLED with its AttributeName, or DISABLED (a table the role may not SELECT from: insufficient_privilege, AccessDeniedException)';

-- Distributed tables (issue #23, doc/partitioning.md): hroe.partition_servers,
-- the partition functions, and the DDL functions that distribute

--
-- Distributed tables (src/tables_partition.c, doc/partitioning.md): with
-- hroe.partition_servers naming postgres_fdw foreign servers, CreateTable
-- makes the table hash-partitioned by its partition key column pk, one
-- partition per server, each a foreign table over a hroe table of the same
-- name created there by hroe.create_table (its own primary key, GSI and LSI
-- indexes).  Remote DDL runs through dblink, on the foreign server's user
-- mapping.
--

-- The foreign servers hroe.partition_servers names, validated
CREATE FUNCTION hroe.partition_server_list() RETURNS name[]
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
	END LOOP;
	IF cardinality(v_servers) <> (SELECT count(DISTINCT s) FROM unnest(v_servers) s) THEN
		RAISE EXCEPTION 'hroe.partition_servers names a server twice'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN v_servers;
END
$$;
COMMENT ON FUNCTION hroe.partition_server_list() IS
'internal: The foreign servers the setting hroe.partition_servers names (empty: tables are local), each checked to be a postgres_fdw server whose extensions option lists hroe';

-- The partitions of a distributed table and their servers
CREATE FUNCTION hroe.table_partitions(p_rel regclass)
RETURNS TABLE (partition regclass, server name, remote_schema text, remote_table text, bound text)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT i.inhrelid::regclass, s.srvname,
		   (SELECT substr(o, 13) FROM unnest(f.ftoptions) o WHERE o LIKE 'schema_name=%'),
		   (SELECT substr(o, 12) FROM unnest(f.ftoptions) o WHERE o LIKE 'table_name=%'),
		   pg_get_expr(c.relpartbound, c.oid)
	FROM pg_inherits i
	JOIN pg_class c ON c.oid = i.inhrelid
	LEFT JOIN pg_foreign_table f ON f.ftrelid = i.inhrelid
	LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
	WHERE i.inhparent = p_rel
	ORDER BY c.relname;
END;
COMMENT ON FUNCTION hroe.table_partitions(regclass) IS
'The partitions of a distributed table: each partition (a postgres_fdw foreign table), its foreign server, the schema and table it reads there, and its hash bound (MODULUS, REMAINDER); no row for a table that is not partitioned';

-- Whether a table is distributed
CREATE FUNCTION hroe.table_is_distributed(p_rel regclass) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT c.relkind = 'p' FROM pg_class c WHERE c.oid = p_rel);
COMMENT ON FUNCTION hroe.table_is_distributed(regclass) IS
'internal: Whether the PostgreSQL table of a DynamoDB table is partitioned over servers (a partitioned table, made by hroe.create_table under hroe.partition_servers)';

-- The schema of the dblink extension, which remote DDL needs
CREATE FUNCTION hroe.dblink_schema() RETURNS name
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name;
BEGIN
	SELECT n.nspname INTO v_dblink
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'distributed tables need the dblink extension'
			USING ERRCODE = 'undefined_object',
				  HINT = 'CREATE EXTENSION dblink (PostgreSQL''s contrib) on this database.';
	END IF;
	RETURN v_dblink;
END
$$;
COMMENT ON FUNCTION hroe.dblink_schema() IS
'internal: The schema of the dblink extension (distributed tables run their DDL on the partition servers through it), or an error naming it';

-- Run one SQL statement on a foreign server through dblink
CREATE FUNCTION hroe.partition_exec(p_server name, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_conn text := 'hroe_partition_ddl';
BEGIN
	-- dblink takes a foreign server's name for a connection string and
	-- connects with its options and the current role's user mapping; a
	-- remote error is raised here with its SQLSTATE (a DynamoDB one stays).
	-- The statement waits at most 10 s for a lock: DDL there after this
	-- transaction read the table through postgres_fdw (whose remote
	-- transaction holds its lock until this one ends) fails rather than
	-- waits for ever.
	EXECUTE format('SELECT %I.dblink_connect(%L, %L)', v_dblink, v_conn, p_server);
	BEGIN
		EXECUTE format('SELECT %I.dblink_exec(%L, %L)', v_dblink, v_conn, 'SET lock_timeout = ''10s''');
		EXECUTE format('SELECT count(*) FROM %I.dblink(%L, %L) AS r(v text)', v_dblink, v_conn, p_sql);
	EXCEPTION WHEN OTHERS THEN
		EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
		RAISE;
	END;
	EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
END
$$;
COMMENT ON FUNCTION hroe.partition_exec(name, text) IS
'internal: Runs p_sql (a statement returning one text column) on foreign server p_server through dblink (its own remote transaction, committed at once; lock_timeout 10 s), with the server''s options and the current role''s user mapping; a remote error is raised with its SQLSTATE';

-- The item counts and sizes of a distributed table, summed over its servers
CREATE FUNCTION hroe.partition_table_sizes(p_table_name text, p_rel regclass)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_sql text := '';
	v_server name;
BEGIN
	-- through dblink, not postgres_fdw: a DeleteTable describes the table
	-- before it drops the partitions, which the remote transaction of a
	-- postgres_fdw read would keep locked until the end of this one
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		v_sql := v_sql || CASE WHEN v_sql <> '' THEN ' UNION ALL ' ELSE '' END
				 || format('SELECT * FROM %I.dblink(%L, %L) AS r(index_name text, item_count bigint, size_bytes bigint)',
						   v_dblink, v_server, format('SELECT * FROM hroe.table_sizes(%L)', p_table_name));
	END LOOP;
	IF v_sql = '' THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format('SELECT s.index_name, sum(s.item_count)::bigint, sum(s.size_bytes)::bigint
								 FROM (%s) s GROUP BY s.index_name', v_sql);
END
$$;
COMMENT ON FUNCTION hroe.partition_table_sizes(text, regclass) IS
'internal: hroe.table_sizes of distributed table p_table_name (PostgreSQL table p_rel): each server''s hroe.table_sizes of its partition, through dblink, summed per index';

-- Run one SQL statement on every server of a distributed table
CREATE FUNCTION hroe.partition_exec_all(p_rel regclass, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_server name;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		PERFORM hroe.partition_exec(v_server, p_sql);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.partition_exec_all(regclass, text) IS
'internal: Runs p_sql (DDL of hroe on a distributed table: create_index, delete_index, delete_table) on each foreign server holding a partition of p_rel, one after another';

-- Create a distributed table's partitions: a hroe table on each server, a
-- foreign table over it as the partition of remainder i
CREATE FUNCTION hroe.create_table_partitions(p_rel regclass, p_table_name text, p_servers name[],
											 p_partition_key text, p_partition_key_type text,
											 p_sort_key text, p_sort_key_type text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema name;
	v_relname name;
	n integer := cardinality(p_servers);
BEGIN
	SELECT s.nspname, c.relname INTO v_schema, v_relname
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.oid = p_rel;
	FOR i IN 1 .. n LOOP
		PERFORM hroe.partition_exec(p_servers[i],
			format('SELECT hroe.create_table(%L, %L, %L, %L, %L, %L)::text', p_table_name, p_partition_key,
				   p_partition_key_type, p_sort_key, p_sort_key_type, v_schema));
		EXECUTE format('CREATE FOREIGN TABLE %I.%I PARTITION OF %s FOR VALUES WITH (MODULUS %s, REMAINDER %s)'
					   ' SERVER %I OPTIONS (schema_name %L, table_name %L)',
					   v_schema, hroe.relation_name(format('%s#%s', p_table_name, i - 1)), p_rel, n, i - 1,
					   p_servers[i], v_schema, v_relname);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.create_table_partitions(regclass, text, name[], text, text, text, text) IS
'internal: hroe.create_table''s distribution: on each server of p_servers, a hroe table named p_table_name in the same schema (hroe.create_table there, through dblink), and here its foreign table <name>#<i> as the partition of remainder i (MODULUS the server count) of p_rel';

-- Whether a query answers true on any server of a distributed table
CREATE FUNCTION hroe.partition_any(p_rel regclass, p_sql text) RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_server name;
	v boolean;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		EXECUTE format('SELECT bool_or(r.v::boolean) FROM %I.dblink(%L, %L) AS r(v text)',
					   v_dblink, v_server, p_sql) INTO v;
		IF v THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;
COMMENT ON FUNCTION hroe.partition_any(regclass, text) IS
'internal: Whether p_sql (a query of one boolean value, as text) answers true on any foreign server holding a partition of p_rel (through dblink: hroe.create_local_index''s emptiness check)';

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
		-- partition key; src/tables_partition.c adds it to every key's
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
COMMENT ON FUNCTION hroe.create_table(text, text, text, text, text, name) IS
'CreateTable: a DynamoDB table (key types S, N, B; PAY_PER_REQUEST) as a PostgreSQL table with generated key columns pk [, sk] and an item column, in p_schema (default: the caller''s current schema), named after the DynamoDB table (a name over 63 bytes: hroe.relation_name); while hroe.partition_servers names foreign servers, hash-partitioned by pk over them (hroe.create_table_partitions); returns the table';

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
		IF coalesce(cardinality(p_non_key_attributes), 0) = 0 THEN
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
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
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

CREATE OR REPLACE FUNCTION hroe.create_local_index(
	p_table_name text,
	p_index_name text,
	p_sort_key text,
	p_sort_key_type text DEFAULT 'S',
	p_projection text DEFAULT 'ALL',
	p_non_key_attributes text[] DEFAULT NULL)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_index regclass;
	v_rel text;
	v_triggers text[];
BEGIN
	PERFORM hroe.check_name(p_index_name, 'localSecondaryIndexes.1.member.indexName');
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF t.sort_key IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Duplicate index name: %s', p_index_name));
	END IF;
	IF (SELECT count(*) FROM hroe.indexes WHERE table_name = p_table_name AND local) >= 5 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5');
	END IF;
	IF p_sort_key = t.partition_key THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Both the Hash Key and the Range Key element in the KeySchema have the same name');
	END IF;
	-- DynamoDB creates LSIs with the table only: here, while it has no item
	-- (a distributed table's servers are asked through dblink: the
	-- remote DDL below would wait on a postgres_fdw read's lock)
	IF (CASE WHEN hroe.table_is_distributed(t.relid)
			 THEN hroe.partition_any(t.relid, format('SELECT hroe.table_has_items(%L::regclass)::text',
													  t.relid::text))
			 ELSE hroe.table_has_items(t.relid) END) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Local secondary index %s can be created only on an empty table (DynamoDB creates them with the table)', p_index_name));
	END IF;
	-- a GSI whose HASH key is the table's partition key, on its column pk
	-- (shared key columns), then marked local
	v_index := hroe.create_index(p_table_name, p_index_name, ARRAY[t.partition_key], ARRAY[p_sort_key],
								 jsonb_build_object(p_sort_key, p_sort_key_type), p_projection,
								 p_non_key_attributes, p_share_key_columns => true);
	UPDATE hroe.indexes SET local = true WHERE table_name = p_table_name AND index_name = p_index_name;
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid,
			format('UPDATE hroe.indexes SET local = true WHERE table_name = %L AND index_name = %L RETURNING index_name',
				   p_table_name, p_index_name));
	END IF;
	EXECUTE format('COMMENT ON INDEX %s IS %L', v_index,
				   format('DynamoDB local secondary index %s of %s (hroe)', p_index_name, p_table_name));
	-- its item collections' sizes, kept from its first item (the table is
	-- empty) where its rows are: on each partition server for a distributed
	-- table, whose table there has the coordinator's schema and name
	SELECT format('%I.%I', s.nspname, c.relname) INTO v_rel
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.oid = t.relid;
	v_triggers := ARRAY[
		format('CREATE OR REPLACE TRIGGER hroe_item_collection AFTER INSERT OR UPDATE OR DELETE ON %s'
			   ' FOR EACH ROW EXECUTE FUNCTION hroe.item_collection_size(%L)', v_rel, p_table_name),
		format('CREATE OR REPLACE TRIGGER hroe_item_collection_truncate AFTER TRUNCATE ON %s'
			   ' FOR EACH STATEMENT EXECUTE FUNCTION hroe.item_collection_size(%L)', v_rel, p_table_name)];
	FOR i IN 1 .. 2 LOOP
		IF hroe.table_is_distributed(t.relid) THEN
			PERFORM hroe.partition_exec_all(t.relid, v_triggers[i]);
		ELSE
			EXECUTE v_triggers[i];
		END IF;
	END LOOP;
	RETURN v_index;
END
$$;
COMMENT ON FUNCTION hroe.create_local_index(text, text, text, text, text, text[]) IS
'CreateTable LocalSecondaryIndexes: a sparse local secondary index (HASH the table''s partition key, RANGE p_sort_key of type p_sort_key_type), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; at most 5 per table, on a table with a sort key, and only while the table has no item (DynamoDB creates LSIs with the table only, and they cannot be deleted); writes violating its key type are rejected as a GSI''s; the table gets the triggers hroe_item_collection and hroe_item_collection_truncate (hroe.item_collection_size), which keep its item collections'' sizes and their 10 GB limit; returns the PostgreSQL index';

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
'DeleteTable: drops the DynamoDB table, its indexes, tags and metadata, unless deletion protection is enabled (DynamoDB''s ValidationException)';

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
	-- the table's and every index's count and size, in one pass
	IF hroe.table_is_distributed(t.relid) THEN
		SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
		INTO v_sizes FROM hroe.partition_table_sizes(p_table_name, t.relid) s;
	ELSE
		SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
		INTO v_sizes FROM hroe.table_sizes(p_table_name) s;
	END IF;
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
'DynamoDB''s TableDescription of table p_table_name, with TableStatus p_table_status and IndexStatus p_index_status for GSI p_index_name (NULL: every GSI; a GSI named CREATING also shows Backfilling), else ACTIVE: key schema, attribute definitions, ARN, TableId, creation time, billing mode, provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, ARN, item count, size of the index entries) and the exact item count and DynamoDB size of the table; also names the PostgreSQL table and indexes (PostgresTable, PostgresIndex)';

--
-- U+0000 in key strings (src/key.h): a DynamoDB string is stored in its
-- hroe.key with U+0000 as 0x01 0x01 and U+0001 as 0x01 0x02.  Keys written
-- by 0.1 are their strings' bytes, the same but where they hold U+0001: the
-- generated key columns (hroe.item_key_s) of those rows are computed again
-- from their items.  Triggers stay silent (session_replication_role
-- replica): the items do not change, so no stream record is due.
--
COMMENT ON FUNCTION hroe.item_get_key(hroe.item, text) IS 'The S value at a path as hroe.key, as the key columns hold it (U+0000 and U+0001 escaped, DynamoDB''s order kept); NULL if missing, an error if of another type or not a valid key';

DO $$
DECLARE
	r record;
	v_role text := pg_catalog.current_setting('session_replication_role');
BEGIN
	PERFORM pg_catalog.set_config('session_replication_role', 'replica', true);
	FOR r IN
		SELECT c.oid::regclass AS rel,
			   pg_catalog.string_agg(pg_catalog.format('pg_catalog.strpos(%I::text, pg_catalog.chr(1)) > 0', a.attname),
									 ' OR ') AS cond
		FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
		JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
		WHERE c.relkind = 'r' AND a.atttypid = 'hroe.key'::regtype AND a.attgenerated = 's'
		  AND NOT a.attisdropped AND pg_catalog.pg_get_expr(d.adbin, d.adrelid) LIKE '%item_key_s(item,%'
		GROUP BY c.oid
	LOOP
		EXECUTE pg_catalog.format('UPDATE %s SET item = item WHERE %s', r.rel, r.cond);
	END LOOP;
	PERFORM pg_catalog.set_config('session_replication_role', v_role, true);
END
$$;

-- Last, with every function in its 0.2 form: hroe_single's GSIs created again, then
-- the long partition keys' pass.
-- hroe_single: GSI3's partition key GSI1_SK gets a key column of its own
-- ("GSI3_pk1"): a HASH key column stores long keys in their index form,
-- which cannot serve GSI1's and GSI2's sort key as gsi1_sk did.  gsi1_sk
-- was generated as GSI3's HASH column, so GSI1 and GSI2 are created again
-- too, in 0.2's order (PostgreSQL 15 cannot change a generated column).
SELECT hroe.delete_index('hroe_single', 'GSI3');
SELECT hroe.delete_index('hroe_single', 'GSI2');
SELECT hroe.delete_index('hroe_single', 'GSI1');
SELECT hroe.create_index('hroe_single', 'GSI1', '{SK}', '{GSI1_SK}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
SELECT hroe.create_index('hroe_single', 'GSI2', '{GSI2_PK}', '{GSI1_SK}', '{"GSI2_PK": "N", "GSI1_SK": "S"}',
						 p_share_key_columns => true);
SELECT hroe.create_index('hroe_single', 'GSI3', '{GSI1_SK}', '{}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
COMMENT ON TABLE hroe_single.items IS
'the single table, DynamoDB table hroe_single (hroe.create_table, hroe.create_index): every HR/OE entity and edge as a DynamoDB item; pk and sk are generated from the item''s PK and SK, gsi1_sk (and GSI3_pk1, GSI3''s partition key), gsi2_pk and gsi4_sk from GSI1_SK, GSI2_PK and GSI4_SK';
CREATE OR REPLACE FUNCTION hroe_single.employee_by_name(p_full_name text)
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
UPDATE hroe.model_requests
SET items_sql = $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI3') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i."GSI3_pk1" OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE-NAME#', $1[1])$q$
WHERE model = 'hroe_single' AND pattern = 'employee_by_name';

-- Partition keys over 192 bytes are stored in their index form (src/tables.h,
-- HROE_KEY_FORM_MAX), in the table's pk and in every GSI HASH key column of
-- type S or B: the rows of 0.1 that hold such a key as it is get their
-- generated columns computed again (an UPDATE that keeps the item; the
-- table's UPDATE triggers fire).  A 0.1 GSI whose RANGE key shares a column
-- of partition keys (pk, or another GSI's HASH column) would order long keys
-- by their form: such indexes are reported, to be created again.
DO $upgrade$
DECLARE
	t record;
	v_pred text;
	v_rows bigint;
BEGIN
	FOR t IN SELECT * FROM hroe.tables ORDER BY table_name LOOP
		CONTINUE WHEN NOT EXISTS (SELECT FROM pg_catalog.pg_class WHERE oid = t.relid);
		-- the columns of S and B partition keys (S keys as text: hroe.key is
		-- binary-coercible to it)
		SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('pg_catalog.octet_length(%I%s) > 192', c,
				   CASE ty WHEN 'S' THEN '::pg_catalog.text' ELSE '' END), ' OR ')
		INTO v_pred
		FROM (SELECT 'pk'::text AS c, t.partition_key_type AS ty
			  UNION ALL
			  SELECT u.col::text, u.ty
			  FROM hroe.indexes x,
				   unnest(x.partition_key_columns, x.partition_key_types) u(col, ty)
			  WHERE x.table_name = t.table_name AND u.col <> 'sk') s
		WHERE ty <> 'N';
		CONTINUE WHEN v_pred IS NULL;
		EXECUTE pg_catalog.format('UPDATE %s SET item = item WHERE %s', t.relid, v_pred);
		GET DIAGNOSTICS v_rows = ROW_COUNT;
		IF v_rows > 0 THEN
			RAISE NOTICE 'hroe: % items of table % with partition keys over 192 bytes stored in their index form',
				v_rows, t.table_name;
		END IF;
	END LOOP;
	FOR t IN
		SELECT x.table_name, x.index_name, c
		FROM hroe.indexes x, unnest(x.sort_key_columns) c
		WHERE c = 'pk' OR EXISTS (SELECT FROM hroe.indexes o WHERE o.table_name = x.table_name
								  AND c = ANY (o.partition_key_columns))
	LOOP
		RAISE WARNING 'hroe: GSI % of table % sorts on column %, which holds partition keys: keys over 192 bytes are out of order there',
			t.index_name, t.table_name, t.c
			USING HINT = 'Delete the index and create it again (hroe.delete_index, hroe.create_index).';
	END LOOP;
END
$upgrade$;
