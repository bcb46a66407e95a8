-- hroe 0.1 -> 0.2 (ALTER EXTENSION hroe UPDATE TO '0.2')
--
-- What changed (CHANGELOG.md): ClientRequestTokens private to their role;
-- the read operations VOLATILE (they see their own statement's writes);
-- partition keys over 192 bytes stored in an index form; hroe_single's GSI3
-- on a key column of its own; hroe.check_index_entry; the internal
-- functions' comments start with "internal:".  test/t_upgrade.sh
-- checks that an updated installation equals a fresh one.

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.2'" to load this file. \quit

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
COMMENT ON TABLE hroe.transaction_tokens IS 'ClientRequestTokens of committed TransactWriteItems calls (hroe.dynamodb): the role that made each (owner, its oid), the hash of their TransactItems and when they finished; a token is idempotent for 10 minutes; under row-level security a role sees and writes only its own';
ALTER TABLE hroe.transaction_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.transaction_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY own_tokens ON hroe.transaction_tokens
	USING (owner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)))
	WITH CHECK (owner OPERATOR(pg_catalog.=) pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)));
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
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'Attempting to create an index which already exists');
	END IF;
	IF (SELECT count(*) FROM hroe.indexes WHERE table_name = p_table_name) >= 20 THEN
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
	v_index_rel := left(format('%s.%s', p_table_name, p_index_name), 63);
	IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_index_rel
			   AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
		v_index_rel := left(p_table_name, 40) || '.' || v_prefix;
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
	RETURN format('%I.%I', v_schema, v_index_rel)::regclass;
END
$$;

COMMENT ON FUNCTION hroe.index_key_violations(text, text) IS
'The index key violations of a GSI, like AWS''s Violation Detector: the items left out of the index because an index key attribute has the wrong type, is empty or oversized (each such item stays in the table, and any write to it that keeps the violation is rejected), with their table key (DynamoDB JSON), the attribute, HASH or RANGE, and the violation; in the order of the primary key index (table key order, but for partition keys over 192 bytes, stored in their index form)';

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

-- The functions that are implementation details (type, operator and index
-- support, the generated key columns and constraints, the validation and
-- error helpers, the models' loader, generator, comparison and item builders)
-- say so: their comments start with "internal:" (doc/architecture.md).
COMMENT ON FUNCTION hroe.key_in(cstring) IS 'internal: I/O: hroe.key from its text form (the string itself)';
COMMENT ON FUNCTION hroe.key_out(hroe.key) IS 'internal: I/O: the text form of a hroe.key (the string itself)';
COMMENT ON FUNCTION hroe.key_recv(internal) IS 'internal: I/O: hroe.key from binary (version byte 1, then UTF-8 bytes), validated like input';
COMMENT ON FUNCTION hroe.key_send(hroe.key) IS 'internal: I/O: binary form of a hroe.key (version byte 1, then UTF-8 bytes)';
COMMENT ON FUNCTION hroe.key_eq(hroe.key, hroe.key) IS 'internal: implementation of = for hroe.key (byte equality)';
COMMENT ON FUNCTION hroe.key_ne(hroe.key, hroe.key) IS 'internal: implementation of <> for hroe.key';
COMMENT ON FUNCTION hroe.key_lt(hroe.key, hroe.key) IS 'internal: implementation of < for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_le(hroe.key, hroe.key) IS 'internal: implementation of <= for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_gt(hroe.key, hroe.key) IS 'internal: implementation of > for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_ge(hroe.key, hroe.key) IS 'internal: implementation of >= for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_cmp(hroe.key, hroe.key) IS 'internal: btree support: -1, 0 or 1 in DynamoDB order (unsigned UTF-8 bytes)';
COMMENT ON FUNCTION hroe.key_sortsupport(internal) IS 'internal: btree support: sort support with abbreviated keys';
COMMENT ON FUNCTION hroe.key_hash(hroe.key) IS 'internal: hash support: 32-bit hash of the key bytes';
COMMENT ON FUNCTION hroe.key_hash_extended(hroe.key, bigint) IS 'internal: hash support: seeded 64-bit hash of the key bytes (hash partitioning)';
COMMENT ON FUNCTION hroe.key_larger(hroe.key, hroe.key) IS 'internal: the greater of two keys in DynamoDB order (for max)';
COMMENT ON FUNCTION hroe.key_smaller(hroe.key, hroe.key) IS 'internal: the lesser of two keys in DynamoDB order (for min)';
COMMENT ON FUNCTION hroe.key_support(internal) IS 'internal: planner support of ^@, @> and <@: exact btree index ranges and selectivity';
COMMENT ON FUNCTION hroe.key_match_sel(internal, oid, internal, integer) IS 'internal: restriction selectivity of ^@, @> and <@ (as the key range they match)';
COMMENT ON FUNCTION hroe.key_begins_with(hroe.key, hroe.key) IS 'internal: DynamoDB begins_with: does the first key begin with the bytes of the second? (operator ^@)';
COMMENT ON FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) IS 'internal: is the first key a strict ancestor of the second (the second begins with the first || ''#'')? (operator @>)';
COMMENT ON FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) IS 'internal: is the first key a strict descendant of the second (it begins with the second || ''#'')? (operator <@)';
COMMENT ON FUNCTION hroe.key_from_text(text) IS 'internal: cast text to hroe.key, validating it (non-empty, at most 2048 bytes)';
COMMENT ON FUNCTION hroe.item_in(cstring) IS 'internal: I/O: DynamoDB JSON to hroe.item, validated as DynamoDB validates';
COMMENT ON FUNCTION hroe.item_out(hroe.item) IS 'internal: I/O: hroe.item to canonical DynamoDB JSON';
COMMENT ON FUNCTION hroe.item_recv(internal) IS 'internal: I/O: binary input, validated like text input';
COMMENT ON FUNCTION hroe.item_send(hroe.item) IS 'internal: I/O: binary output (version byte, size, attribute directory)';
COMMENT ON FUNCTION hroe.item_eq(hroe.item, hroe.item) IS 'internal: Whether two items are equal (same attributes, same canonical values)';
COMMENT ON FUNCTION hroe.item_ne(hroe.item, hroe.item) IS 'internal: Whether two items differ';
COMMENT ON FUNCTION hroe.item_hash(hroe.item) IS 'internal: Hash of an item''s canonical form';
COMMENT ON FUNCTION hroe.item_to_jsonb(hroe.item) IS 'internal: The item as DynamoDB JSON in jsonb ({"PK": {"S": "x"}})';
COMMENT ON FUNCTION hroe.item_from_jsonb(jsonb) IS 'internal: An item from DynamoDB JSON in jsonb, validated like text input';
COMMENT ON FUNCTION hroe.item_remove_attribute(hroe.item, text) IS 'internal: The item without the named top-level attribute';
COMMENT ON FUNCTION hroe.item_collection_in(cstring) IS 'internal: I/O: [{"SortKey": {"S": "k"}, "Item": {...}}, ...] in any order to hroe.item_collection';
COMMENT ON FUNCTION hroe.item_collection_out(hroe.item_collection) IS 'internal: I/O: hroe.item_collection to a JSON array of {"SortKey", "Item"} entries in sort-key order';
COMMENT ON FUNCTION hroe.item_collection_recv(internal) IS 'internal: I/O: binary input, validated like text input';
COMMENT ON FUNCTION hroe.item_collection_send(hroe.item_collection) IS 'internal: I/O: binary output';
COMMENT ON FUNCTION hroe.item_collection_agg_trans(internal, hroe.key, hroe.item) IS 'internal: Transition function of hroe.item_collection_agg';
COMMENT ON FUNCTION hroe.item_collection_agg_final(internal) IS 'internal: Final function of hroe.item_collection_agg';
COMMENT ON FUNCTION hroe.item_key_s(hroe.item, text, boolean, text) IS
'internal: The S key attribute of an item as hroe.key. For a table key (p_index_name NULL) a missing, mistyped, empty or oversized attribute raises DynamoDB''s E1/E2/E4/E5/E6; for an index key it gives NULL when the attribute is absent (sparse) or violates the key schema (wrong type, empty, oversized: the item stays out of the index; hroe.check_index_key rejects such writes)';
COMMENT ON FUNCTION hroe.item_key_n(hroe.item, text, boolean, text) IS
'internal: The N key attribute of an item as numeric (see hroe.item_key_s for NULLs and errors)';
COMMENT ON FUNCTION hroe.item_key_b(hroe.item, text, boolean, text) IS
'internal: The B key attribute of an item as bytea (see hroe.item_key_s for NULLs and errors)';
COMMENT ON FUNCTION hroe.check_index_key(hroe.item, text, text, boolean, text) IS
'internal: True if the item''s attribute p_attribute is absent or a valid key of type p_type (S, N, B) of index p_index_name (p_sort: a RANGE attribute); else raises DynamoDB''s error: E11 Type mismatch for Index Key, the empty index key message, E5/E6 key size. A GSI''s NOT VALID CHECK constraint, so writes fail with DynamoDB''s text';
COMMENT ON FUNCTION hroe.index_key_violation(hroe.item, text, text, boolean) IS
'internal: How the item''s attribute p_attribute violates an index key of type p_type (p_sort: a RANGE attribute): Type Violation, Empty Value Violation or Size Violation with details; NULL if it is absent or valid';
COMMENT ON FUNCTION hroe.check_index_entry(text, "any") IS
'internal: True if the key columns given (a GSI''s, in index order, the table key last) make an index entry that fits a btree (2704 bytes, after compression), or one is NULL (the item is not in the index); else a ValidationException naming the index. In the CHECK constraint of a multi-attribute GSI whose widest entry might not fit';
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'internal: Raises a DynamoDB exception: SQLSTATE class HR (HR000 ValidationException, HR001 ResourceNotFoundException, HR002 ConditionalCheckFailedException, HR003 ResourceInUseException, HR004 LimitExceededException), DynamoDB''s text as the message';
COMMENT ON FUNCTION hroe.key_column_type(text) IS
'internal: The PostgreSQL type storing a DynamoDB key attribute type: S hroe.key, N numeric, B bytea (each ordered as DynamoDB orders keys)';
COMMENT ON FUNCTION hroe.check_key_type(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_type is S, N or B';
COMMENT ON FUNCTION hroe.check_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid table or index name (3-255 characters of [a-zA-Z0-9_.-])';
COMMENT ON FUNCTION hroe.check_attribute_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid attribute name (1-255 bytes)';
COMMENT ON FUNCTION hroe.key_column_for(regclass, text, text, text, text, boolean) IS
'internal: The generated column of table p_rel (partition key p_table_partition_key, sort key p_table_sort_key) that holds exactly the keys of an index key attribute p_attribute of type p_type (p_sort: a RANGE attribute), or NULL, from the metadata in hroe.indexes: the sort key column sk (HASH or RANGE); pk for a HASH attribute only (partition keys are stored in their index form, whose order is not the keys''); another index''s key column of the same attribute and type used in the same role only. hroe.create_index with p_share_key_columns reuses it';
COMMENT ON FUNCTION hroe.compare_args(text) IS
'internal: the argument sets hroe.compare uses for a pattern, drawn from hroe_normalized: (case label, arguments as text[])';
COMMENT ON FUNCTION hroe.compare_models() IS
'internal: the models present, in comparison order: hroe_normalized, then hroe_single and hroe_multi when installed';
COMMENT ON FUNCTION hroe.compare_call(text, text, text[]) IS
'internal: the SQL call of a pattern in a model with literal arguments, cast to the parameter types of the hroe_normalized function of that name';
COMMENT ON FUNCTION hroe.compare_plan_shape(jsonb) IS
'internal: the shape of a plan from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): node types with counts (Result, Limit and Subquery Scan left out), sequential scans, index scans, joins, sorts, shared buffers hit and read (the top node''s, including the functions it calls), execution time in ms';
COMMENT ON FUNCTION hroe.compare_read_capacity(text, text, text[]) IS
'internal: the DynamoDB request a read pattern call amounts to in a model (hroe.model_requests), how many requests, the items they evaluate and their hroe.item_size bytes, and the eventually consistent read capacity: the sum over requests of hroe.read_capacity_units(request bytes, false), the rule GetItem and Query report; no row for hroe_normalized';
COMMENT ON FUNCTION hroe.compare_item_tables(text) IS
'internal: the DynamoDB tables of a model: the tables of hroe.tables whose PostgreSQL table is in the model''s schema';
COMMENT ON FUNCTION hroe.compare_drop_snapshot(text) IS
'internal: drops the temporary copies of a model''s DynamoDB tables made by hroe.compare_snapshot';
COMMENT ON FUNCTION hroe.compare_snapshot(text) IS
'internal: copies each DynamoDB table of a model into a temporary table (pg_temp.hroe_cmp_<oid>), so that hroe.compare_write_capacity can tell what a write changed';
COMMENT ON FUNCTION hroe.compare_write_capacity(text) IS
'internal: the items a write changed in a model''s DynamoDB tables since hroe.compare_snapshot and their write capacity, each change priced by hroe.write_consumed_capacity (the rule PutItem and DeleteItem report): table WCU max(1, ceil(max(old, new) / 1 KB)) per item, index WCU the GSI writes (entering, leaving or changing a projected attribute 1 entry-sized write, a changed index key 2)';
COMMENT ON FUNCTION hroe.prng(bigint, integer, bigint) IS
'internal: uniform pseudo-random float8 in [0, 1) for (seed, stream, index): splitmix64, stateless, the same on every call';
COMMENT ON FUNCTION hroe.prng_int(bigint, integer, bigint, bigint, bigint) IS
'internal: uniform pseudo-random integer in [lo, hi] for (seed, stream, index); an error if lo > hi';
COMMENT ON FUNCTION hroe.prng_zipf(bigint, integer, bigint, bigint) IS
'internal: skewed pseudo-random rank in [1, n] for (seed, stream, index): P(k) = log(1 + 1/k) / log(n + 1), Zipf-like with exponent 1';
COMMENT ON FUNCTION hroe.order_line_draws(bigint, bigint, bigint) IS
'internal: for hroe.load: the distinct products of generated order order_id (1 to 5 candidate lines, each product half Zipf-skewed), ascending, encoded product * 8 + the candidate line that drew it';
COMMENT ON FUNCTION hroe.order_line_quantity(bigint, bigint, bigint) IS
'internal: for hroe.load: the quantity of a generated order line, 1 + floor(20 u^3) for the line''s uniform u (stream 53): mostly 1 to 3, at most 20';
COMMENT ON FUNCTION hroe.order_line_cents(bigint, bigint, bigint, bigint[], bigint[]) IS
'internal: for hroe.load: the unit price in cents of a generated order line, the product''s min price for a fifth of the lines (stream 54), its list price otherwise; prices looked up by product id in arrays of cents';
COMMENT ON FUNCTION hroe.drop_secondary_indexes(regclass[]) IS
'internal: drops every index of the tables that backs no primary key, unique or exclusion constraint (for a bulk load) and returns the statements that rebuild them with their names, definitions and comments, in creation order: give them to hroe.execute_ddl';
COMMENT ON FUNCTION hroe.execute_ddl(text[]) IS
'internal: runs statements in order, under search_path pg_catalog, pg_temp (their names must be qualified): the rebuild of hroe.drop_secondary_indexes and hroe.load''s saved constraints';
COMMENT ON FUNCTION hroe_multi.employee_key(integer) IS
'internal: The key of employee n: emp_ and n in 10 digits (emp_0000000100); NULL for NULL (not STRICT, so that it is inlined); a key no item has for n <= 0';
COMMENT ON FUNCTION hroe_multi.customer_key(integer) IS
'internal: The key of customer n: cust_ and n in 10 digits (cust_0000000007); NULL for NULL; a key no item has for n <= 0';
COMMENT ON FUNCTION hroe_multi.product_key(integer) IS
'internal: The key of product n: prod_ and n in 10 digits (prod_0000000001); NULL for NULL; a key no item has for n <= 0';
COMMENT ON FUNCTION hroe_multi.warehouse_key(integer) IS
'internal: The key of warehouse n: wh_ and n in 10 digits (wh_0000000004); NULL for NULL; a key no item has for n <= 0';
COMMENT ON FUNCTION hroe_multi.order_key(bigint) IS
'internal: The key of order n: ord_ and n in 19 digits, enough for any bigint (ord_0000000000000000042); NULL for NULL; a key no item has for n <= 0';
COMMENT ON FUNCTION hroe_multi.key_number(text) IS
'internal: The id in an entity key: the digits after the first underscore (emp_0000000100 gives 100)';
COMMENT ON FUNCTION hroe_multi.date_key(date) IS
'internal: A date as a sort key, ISO YYYY-MM-DD (byte order is date order for years 1 to 9999); -infinity gives ''-'' and infinity ''~'', below and above every date, for open-ended ranges; NULL for NULL (not STRICT, so that it is inlined)';
COMMENT ON FUNCTION hroe_multi.quarter_of(date) IS
'internal: The quarter of a date as rep_ranking names it (2025-08-15 gives ''2025-Q3'')';
COMMENT ON FUNCTION hroe_multi.search_key(text) IS
'internal: A read pattern''s text argument as a key value: NULL (no item matches) for NULL, the empty string or more than 2048 bytes, which no key can be (not STRICT, so that it is inlined)';
COMMENT ON FUNCTION hroe_multi.key_s(hroe.item, text) IS
'internal: An S attribute of an item as hroe.key: NULL when absent, an error when of another type or empty';
COMMENT ON FUNCTION hroe_multi.json_s(text) IS
'internal: The DynamoDB JSON of a string value ({"S": "..."}, JSON-escaped); NULL for NULL';
COMMENT ON FUNCTION hroe_multi.json_n(numeric) IS
'internal: The DynamoDB JSON of a number value ({"N": "..."}); NULL for NULL';
COMMENT ON FUNCTION hroe_multi.job_attributes(text, integer, date) IS
'internal: The current-job attributes of an Employee item (job_id, job_title, job_start_date, department_id, department_name, location_id, city, country_name, region_name, warehouse_id), looked up in the HR reference data; NULL for an unknown job';
COMMENT ON FUNCTION hroe_multi.employee_item(integer, text, text, text, text[], date, numeric, numeric, integer, text, integer, date) IS
'internal: The Employee item of an employee: key, entity_type EMPLOYEE, name (first name, a space, last name), profile, phone list, hire date, and the current job attributes of job_attributes()';
COMMENT ON FUNCTION hroe_multi.email_item(text, integer) IS
'internal: The uniqueness item of an email in the Employee table: employee_id EMAIL#<email>, email_owner the employee''s key';
COMMENT ON FUNCTION hroe_multi.customer_item(integer, text, text, text, text[], integer) IS
'internal: The Customer item: key, first_name, last_name, email, phone list, account_rep_id (the account manager''s key; absent without one)';
COMMENT ON FUNCTION hroe_multi.order_header_item(bigint, integer, date, text, text, integer, numeric, integer, text[]) IS
'internal: The header item of an order (SK = the order key): customer_id, order_date, status, order_mode, account_rep_id (the order''s sales rep), total_amount, promotion_id, order_items (the list of order_items_entry() of the lines, in line order), and shard = hroe.shard_of(order id, 5) only while OPEN';
COMMENT ON FUNCTION hroe_multi.order_items_entry(integer, integer) IS
'internal: One entry of an order header''s order_items list, as in the seed, in DynamoDB JSON: a map of product_id (the product key) and qty';
COMMENT ON FUNCTION hroe_multi.order_line_item(bigint, integer, integer, integer, numeric, integer, date) IS
'internal: A line item of an order (SK = the product key): product_id, line_item_id, quantity, unit_price, and the order''s customer and date in the map order_context (top-level customer_id/order_date would put the line into OrderByCustomerDate)';
COMMENT ON FUNCTION hroe_multi.product_item(integer, text, integer, numeric, text, bigint) IS
'internal: The metadata item of a product (SK = the product key): product_name, category_id, unit_price (the list price), product_status, total_inventory (maintained: the sum of its inventory items)';
COMMENT ON FUNCTION hroe_multi.inventory_item(integer, integer, integer) IS
'internal: The inventory item of a product at a warehouse (SK = the warehouse key): inventory_quantity';
COMMENT ON FUNCTION hroe_multi.rank_key(numeric, integer) IS
'internal: The ranking sort key of a rep''s quarter total: 999999999999999 minus the total in cents in 15 digits, #, the employee key; ascending order is total descending, ties by employee';
COMMENT ON FUNCTION hroe_multi.rep_quarter_item(text, integer, numeric, bigint) IS
'internal: The RepQuarterTotal item of a sales rep and quarter: total and count of the rep''s orders dated in it (CANCELED excluded), rank_key';
COMMENT ON FUNCTION hroe_multi.normalized_items()
IS 'internal: Every item hroe_multi holds for the data in hroe_normalized, with its table name: what load_from_normalized() inserts and verify() compares against';
COMMENT ON FUNCTION hroe_multi.employee_profile(hroe.key, hroe.item) IS
'internal: row shape of patterns 1 and 2: an Employee item (its key and attributes) as hroe_normalized.employee_by_id''s columns; inlined where it is called LATERAL';
COMMENT ON FUNCTION hroe_multi.count_rep_quarter(integer, date, numeric, integer) IS
'internal: write helper: adds an order total to (p_sign 1) or removes it from (p_sign -1) the RepQuarterTotal item of its sales rep and quarter, creating the item or deleting it with its last order';
COMMENT ON FUNCTION hroe.invalid_quarter(text) IS
'internal: raises the error for a quarter not written YYYY-Qn (NULL for NULL); used by hroe.quarter_start and hroe.quarter_end';
COMMENT ON FUNCTION hroe.quarter_start(text) IS
'internal: first day of a quarter written YYYY-Qn (''2025-Q3'' gives 2025-07-01); an error for any other text, NULL for NULL';
COMMENT ON FUNCTION hroe.quarter_end(text) IS
'internal: first day after a quarter written YYYY-Qn (''2025-Q3'' gives 2025-10-01), the exclusive end of the range; an error for any other text, NULL for NULL';
COMMENT ON FUNCTION hroe_normalized.employee_details() IS
'internal: row shape of patterns 1 and 2: every employee with its job title, department, location, country and region names, as employee_by_id returns them; inlined into the patterns';
COMMENT ON FUNCTION hroe_normalized.order_rows() IS
'internal: row shape of patterns 4, 5 and 10: every order with the columns customer_orders returns; inlined into the patterns';
COMMENT ON FUNCTION hroe_normalized.employee_summary() IS
'internal: row shape of patterns 6, 7 and 11: every employee with its job title, as employees_hired_since returns them; inlined into the patterns';
COMMENT ON FUNCTION hroe.check_order_lines(jsonb) IS
'internal: the check of place_order''s p_lines shared by hroe_normalized, hroe_single and hroe_multi: a JSON array of 1 to 999 lines; raises the error, or returns';
COMMENT ON FUNCTION hroe.parse_order_line(jsonb, bigint) IS
'internal: one line of place_order''s p_lines (the p_n-th), checked and parsed as every model''s place_order does: an object of product_id and quantity (positive integers) and an optional unit_price (0 to 999999.99, two decimals; NULL when absent); raises the error naming the line, or returns the values';
COMMENT ON FUNCTION hroe.price_order_line(integer, boolean, numeric, numeric, integer[]) IS
'internal: the checks of a parsed place_order line against the product the model looked up, shared by the three models: p_found whether the product exists, p_list_price its list price, p_unit_price the line''s own price (NULL: none), p_products the products of the earlier lines; raises the error (unknown product, product twice, no price), or returns the line''s unit price';
COMMENT ON FUNCTION hroe.order_line_product_ids(jsonb) IS
'internal: the distinct product ids place_order''s lines name, ascending (valid integer ids only; malformed lines are left to hroe.parse_order_line), for a model to look its products up before hroe.price_order_lines';
COMMENT ON FUNCTION hroe.price_order_lines(jsonb, jsonb) IS
'internal: place_order''s lines (already checked by hroe.check_order_lines) parsed and priced in array order, shared by the three models: p_list_prices maps each product the model found (hroe.order_line_product_ids) to its list price (JSON null: none); raises the first line''s error (hroe.parse_order_line, hroe.price_order_line) or a total above 999999.99, or returns the products, quantities and unit prices in line order and the total';
COMMENT ON FUNCTION hroe.check_order_total(numeric) IS
'internal: place_order''s check of an order''s total, shared by the three models: at most 999999.99 (numeric(8,2) in hroe_normalized); raises the error, or returns';
COMMENT ON FUNCTION hroe.check_order_status(text) IS
'internal: the order status check of place_order and change_order_status, shared by the three models: OPEN, SHIPPED, CLOSED or CANCELED; raises the error, or returns';
COMMENT ON FUNCTION hroe.check_order_id(bigint) IS
'internal: place_order''s check of a given order id, shared by the three models: positive (NULL: the model''s sequence picks one); raises the error, or returns';
COMMENT ON FUNCTION hroe.check_status_change(bigint, text, text) IS
'internal: change_order_status''s transition check, shared by the three models: OPEN to SHIPPED or CANCELED, SHIPPED to CLOSED; raises the error, or returns';
COMMENT ON FUNCTION hroe.check_hire_arguments(text, text, text, date, text, text[], numeric, numeric, integer) IS
'internal: the argument checks of hire_employee shared by hroe_normalized, hroe_single and hroe_multi (NULLs, a finite hire date, a positive id, salary, commission, name and email lengths, at most 5 phone numbers); raises the error, or returns';
COMMENT ON FUNCTION hroe_single.id10(integer) IS
'internal: an integer id as it appears in keys: zero-padded to 10 digits (every positive integer fits), so byte order is numeric order';
COMMENT ON FUNCTION hroe_single.id19(bigint) IS
'internal: an order id as it appears in keys: zero-padded to 19 digits (every positive bigint fits), so byte order is numeric order';
COMMENT ON FUNCTION hroe_single.day(date) IS
'internal: a date as it appears in keys and items: YYYY-MM-DD (byte order is date order); in a query bound, ''!'' below year 1 (before every stored date) and ''~'' above 9999 (after every one); the writes refuse such dates';
COMMENT ON FUNCTION hroe_single.make_key(text, text) IS
'internal: the key p_prefix || p_rest; NULL when either is NULL or the key would exceed DynamoDB''s 2048 bytes (no item can have it, so a lookup finds nothing)';
COMMENT ON FUNCTION hroe_single.status_key(text, date) IS
'internal: the STATUS#DATE prefix of an order''s GSI1_SK, the lower bound of a status and date range; NULL for any other status (no item has it)';
COMMENT ON FUNCTION hroe_single.quarter_of(date) IS
'internal: the quarter of a date as rep_ranking names it: ''2025-Q3''';
COMMENT ON FUNCTION hroe_single.doc_item(jsonb) IS
'internal: an item from a JSON document whose null members are absent attributes';
COMMENT ON FUNCTION hroe_single.region_item(integer, text) IS 'internal: item builder: a region (HR-REGION#id / REGION#id)';
COMMENT ON FUNCTION hroe_single.country_item(text, text, integer, text) IS 'internal: item builder: a country (HR-COUNTRY#cc / COUNTRY#cc), its region name copied';
COMMENT ON FUNCTION hroe_single.location_item(integer, text, text, text, text, text, text, text) IS 'internal: item builder: a location (HR-LOCATION#id / LOCATION#id), its country and region names copied';
COMMENT ON FUNCTION hroe_single.job_item(text, text, integer, integer) IS 'internal: item builder: a job (HR-JOB#id / JOB#id)';
COMMENT ON FUNCTION hroe_single.department_item(integer, text, integer, integer, text, text, text, integer) IS
'internal: item builder: a department (HR-DEPARTMENT#id / DEPARTMENT#id), with its location''s city, country and region names and the warehouse at its location, which the job changes copy onto employees';
COMMENT ON FUNCTION hroe_single.warehouse_item(integer, text, integer, text, text) IS 'internal: item builder: a warehouse (OE-WAREHOUSE#id / WAREHOUSE#id)';
COMMENT ON FUNCTION hroe_single.employee_item(integer, text, text, text, text[], date, text, text, date, numeric, numeric, integer, integer, text, integer, text, text, text) IS
'internal: item builder: an employee''s profile (HR-EMPLOYEE#id / EMPLOYEE#id, GSI1_SK EMPLOYEE-NAME#full name): every attribute pattern 1 returns, job, department and location copied in';
COMMENT ON FUNCTION hroe_single.employee_email_item(text, integer) IS
'internal: item builder: the uniqueness item of an employee''s email (HR-EMAIL#email / EMAIL), DynamoDB''s idiom for a unique attribute';
COMMENT ON FUNCTION hroe_single.employee_confidential_item(integer, text, text, date, text, text, integer, numeric, numeric) IS
'internal: item builder: HR-EMPLOYEE#id / HR-CONFIDENTIAL, GSI1_SK the hire date (pattern 6), with salary and the current job';
COMMENT ON FUNCTION hroe_single.current_job_item(integer, text, text, date, text, text, integer, text, date) IS
'internal: item builder: the current job, version 0 (HR-EMPLOYEE#id / v0#job title, GSI1 partition v0#job title): a copy of the newest JOB-VERSION item (patterns 3 and 11)';
COMMENT ON FUNCTION hroe_single.job_version_item(integer, date, date, text, text, integer, text) IS
'internal: item builder: one job of an employee (HR-EMPLOYEE#id / JOB-VERSION#start date); end_date absent for the current job';
COMMENT ON FUNCTION hroe_single.employee_warehouse_item(integer, integer, text, text, date, text, text, integer) IS
'internal: item builder: employee -> warehouse edge (HR-EMPLOYEE#id / WAREHOUSE#id, GSI1 partition WAREHOUSE#id) for an employee whose department is at the warehouse''s location (pattern 7)';
COMMENT ON FUNCTION hroe_single.rep_sales_item(integer, text, numeric, bigint) IS
'internal: item builder: a sales rep''s total for a quarter (HR-EMPLOYEE#id / SALES#2025-Q3), GSI1_SK = total in cents (19 digits) # (2147483647 - id), so a backward GSI1 query ranks by total, ties by employee_id';
COMMENT ON FUNCTION hroe_single.customer_item(integer, text, text, text, text, text, text, text, text[], text, text, numeric, text, integer, date, text, text, text) IS
'internal: item builder: a customer (OE-CUSTOMER#id / CUSTOMER#id), phone numbers as a list (pattern 16)';
COMMENT ON FUNCTION hroe_single.customer_rep_item(integer, integer, text, text, text) IS
'internal: item builder: customer -> account manager edge (OE-CUSTOMER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep, GSI1_SK CUSTOMER#id) (pattern 9)';
COMMENT ON FUNCTION hroe_single.order_item(bigint, integer, date, text, text, integer, numeric, integer, integer) IS
'internal: item builder: an order (OE-ORDER#id / CUSTOMER#customer, GSI1_SK STATUS#DATE#ORDER, GSI4_SK DATE#ORDER); an OPEN order also carries GSI2_PK = hroe.shard_of(order id, N)';
COMMENT ON FUNCTION hroe_single.order_rep_item(bigint, integer, date, text, text, integer, numeric) IS
'internal: item builder: order -> sales rep edge (OE-ORDER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep) with the order''s attributes (pattern 10)';
COMMENT ON FUNCTION hroe_single.order_line_item(bigint, integer, integer, date, integer, integer, numeric) IS
'internal: item builder: an order line (OE-ORDER#id / PRODUCT#product, GSI1 partition PRODUCT#product, GSI1_SK ORDER-LINE#order) (pattern 8)';
COMMENT ON FUNCTION hroe_single.product_item(integer, text, text, integer, integer, interval, integer, text, numeric, numeric, text, bigint) IS
'internal: item builder: a product (OE-PRODUCT#id / PRODUCT#id) with total_on_hand, the maintained sum of its inventory items (pattern 13)';
COMMENT ON FUNCTION hroe_single.inventory_item(integer, integer, integer) IS
'internal: item builder: stock of a product at a warehouse (OE-WAREHOUSE#w / PRODUCT#p, GSI1 partition PRODUCT#p, GSI1_SK INVENTORY#w) (patterns 8, 12, 17)';
COMMENT ON FUNCTION hroe_single.meta_item(integer) IS
'internal: item builder: the table''s settings item (HROE-META / GSI2): shard_count, the N of GSI2''s write sharding';
COMMENT ON FUNCTION hroe_single.employee_profile(hroe.item) IS
'internal: row shape of patterns 1 and 2: an employee profile item''s attributes as hroe_normalized.employee_by_id''s columns (the phone list whole); inlined where it is called LATERAL';
COMMENT ON FUNCTION hroe_single.order_row(hroe.item) IS
'internal: row shape of patterns 4, 5 and 10: an order (or order -> rep) item''s attributes as hroe_normalized.customer_orders''s columns, the total rounded to cents; inlined where it is called LATERAL';
COMMENT ON FUNCTION hroe_single.employee_summary(hroe.item) IS
'internal: row shape of patterns 6, 7 and 11: the employee attributes the HR-CONFIDENTIAL, employee -> warehouse and current-job items share, as hroe_normalized.employees_hired_since''s columns; inlined where it is called LATERAL';
COMMENT ON FUNCTION hroe_single.inventory_row(hroe.item) IS
'internal: row shape of patterns 12 and 17: an inventory item''s attributes; inlined where it is called LATERAL';
COMMENT ON FUNCTION hroe_single.check_day(text, date) IS
'internal: raises an error for a date that keys written YYYY-MM-DD cannot hold (before year 1 or after 9999)';
