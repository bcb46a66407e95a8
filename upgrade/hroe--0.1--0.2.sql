-- hroe 0.1 -> 0.2 (ALTER EXTENSION hroe UPDATE TO '0.2')
--
-- What changed (CHANGELOG.md): ClientRequestTokens private to their role;
-- the read operations VOLATILE (they see their own statement's writes);
-- partition keys over 192 bytes stored in an index form; hroe_single's GSI3
-- on a key column of its own; hroe.check_index_entry; the internal
-- functions' comments start with "internal:".  test/t_upgrade.sh
-- checks that an updated installation equals a fresh one.

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.2'" to load this file. \quit

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
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'Raises a DynamoDB exception: SQLSTATE class HR (HR000 ValidationException, HR001 ResourceNotFoundException, HR002 ConditionalCheckFailedException, HR003 ResourceInUseException, HR004 LimitExceededException, HR005 TransactionCanceledException, HR006 IdempotentParameterMismatchException, HR007 SerializationException; as hroe.dynamodb_errors()), DynamoDB''s text as the message';

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

-- Local secondary indexes: created by hroe.create_local_index, never
-- deleted by hroe.delete_index, described by hroe.describe_table
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
END
$$;
COMMENT ON FUNCTION hroe.delete_index(text, text) IS
'UpdateTable Delete GlobalSecondaryIndex: drops the index, its key CHECK constraint and the generated key columns no other index uses (never pk or sk)';

CREATE FUNCTION hroe.create_local_index(
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
BEGIN
	PERFORM hroe.check_name(p_index_name, 'localSecondaryIndexes.1.member.indexName');
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
	IF hroe.table_has_items(t.relid) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Local secondary index %s can be created only on an empty table (DynamoDB creates them with the table)', p_index_name));
	END IF;
	-- a GSI whose HASH key is the table's partition key, on its column pk
	-- (shared key columns), then marked local
	v_index := hroe.create_index(p_table_name, p_index_name, ARRAY[t.partition_key], ARRAY[p_sort_key],
								 jsonb_build_object(p_sort_key, p_sort_key_type), p_projection,
								 p_non_key_attributes, p_share_key_columns => true);
	UPDATE hroe.indexes SET local = true WHERE table_name = p_table_name AND index_name = p_index_name;
	EXECUTE format('COMMENT ON INDEX %s IS %L', v_index,
				   format('DynamoDB local secondary index %s of %s (hroe)', p_index_name, p_table_name));
	RETURN v_index;
END
$$;
COMMENT ON FUNCTION hroe.create_local_index(text, text, text, text, text, text[]) IS
'CreateTable LocalSecondaryIndexes: a sparse local secondary index (HASH the table''s partition key, RANGE p_sort_key of type p_sort_key_type), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; at most 5 per table, on a table with a sort key, and only while the table has no item (DynamoDB creates LSIs with the table only, and they cannot be deleted); writes violating its key type are rejected as a GSI''s; returns the PostgreSQL index';

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

CREATE OR REPLACE FUNCTION hroe.describe_table(p_table_name text)
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
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	-- the table's and every index's count and size, in one pass
	SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
	INTO v_sizes FROM hroe.table_sizes(p_table_name) s;
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
			'IndexStatus', 'ACTIVE',
			'ItemCount', v_sizes -> x.index_name -> 0,
			'IndexSizeBytes', v_sizes -> x.index_name -> 1,
			'PostgresIndex', format('%I.%I', (SELECT n.nspname FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid), x.index_relname));
		-- an LSI has no status of its own
		IF x.local THEN
			v_lsis := v_lsis || jsonb_build_array(v_index - 'IndexStatus');
		ELSE
			v_gsis := v_gsis || jsonb_build_array(v_index);
		END IF;
	END LOOP;
	RETURN jsonb_build_object('Table', jsonb_strip_nulls(jsonb_build_object(
		'TableName', t.table_name,
		'TableStatus', 'ACTIVE',
		'CreationDateTime', extract(epoch FROM t.created_at),
		'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', t.partition_key, 'KeyType', 'HASH'))
					 || CASE WHEN t.sort_key IS NOT NULL
							 THEN jsonb_build_array(jsonb_build_object('AttributeName', t.sort_key, 'KeyType', 'RANGE'))
							 ELSE '[]' END,
		'AttributeDefinitions', (SELECT jsonb_agg(jsonb_build_object('AttributeName', key, 'AttributeType', value) ORDER BY key)
								 FROM jsonb_each_text(v_defs)),
		'ItemCount', v_sizes -> '' -> 0,
		'TableSizeBytes', v_sizes -> '' -> 1,
		'BillingModeSummary', jsonb_build_object('BillingMode', 'PAY_PER_REQUEST'),
		'LocalSecondaryIndexes', CASE WHEN v_lsis = '[]' THEN NULL ELSE v_lsis END,
		'GlobalSecondaryIndexes', CASE WHEN v_gsis = '[]' THEN NULL ELSE v_gsis END,
		'PostgresTable', t.relid::text)));
END
$$;
COMMENT ON FUNCTION hroe.describe_table(text) IS
'DescribeTable: key schema, attribute definitions, local and global secondary indexes (key schema, projection, item count, size of the index entries) and the exact item count and DynamoDB size of the table, as DynamoDB JSON; also names the PostgreSQL table and indexes';

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
	v_sql := v_sql || format(', item hroe.item NOT NULL, PRIMARY KEY (pk%s))',
							 CASE WHEN p_sort_key IS NOT NULL THEN ', sk' ELSE '' END);
	EXECUTE v_sql;
	v_rel := format('%I.%I', v_schema, v_relname)::regclass;
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
'CreateTable: a DynamoDB table (key types S, N, B; PAY_PER_REQUEST) as a PostgreSQL table with generated key columns pk [, sk] and an item column, in p_schema (default: the caller''s current schema), named after the DynamoDB table (a name over 63 bytes: hroe.relation_name); returns the table';

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
	IF hroe.table_has_items(t.relid) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Local secondary index %s can be created only on an empty table (DynamoDB creates them with the table)', p_index_name));
	END IF;
	-- a GSI whose HASH key is the table's partition key, on its column pk
	-- (shared key columns), then marked local
	v_index := hroe.create_index(p_table_name, p_index_name, ARRAY[t.partition_key], ARRAY[p_sort_key],
								 jsonb_build_object(p_sort_key, p_sort_key_type), p_projection,
								 p_non_key_attributes, p_share_key_columns => true);
	UPDATE hroe.indexes SET local = true WHERE table_name = p_table_name AND index_name = p_index_name;
	EXECUTE format('COMMENT ON INDEX %s IS %L', v_index,
				   format('DynamoDB local secondary index %s of %s (hroe)', p_index_name, p_table_name));
	RETURN v_index;
END
$$;
COMMENT ON FUNCTION hroe.create_local_index(text, text, text, text, text, text[]) IS
'CreateTable LocalSecondaryIndexes: a sparse local secondary index (HASH the table''s partition key, RANGE p_sort_key of type p_sort_key_type), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; at most 5 per table, on a table with a sort key, and only while the table has no item (DynamoDB creates LSIs with the table only, and they cannot be deleted); writes violating its key type are rejected as a GSI''s; returns the PostgreSQL index';

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
	-- (a table already dropped with DROP TABLE only leaves its metadata)
	IF EXISTS (SELECT 1 FROM pg_class WHERE oid = v_rel) THEN
		EXECUTE format('DROP TABLE %s', v_rel);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_table(text) IS
'DeleteTable: drops the DynamoDB table, its indexes, tags and metadata, unless deletion protection is enabled (DynamoDB''s ValidationException)';

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

CREATE FUNCTION hroe.table_description(p_table_name text, p_table_status text DEFAULT 'ACTIVE',
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
	SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
	INTO v_sizes FROM hroe.table_sizes(p_table_name) s;
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

-- DynamoDB's exceptions of PartiQL (DuplicateItemException) and of
-- DynamoDB Streams (ExpiredIteratorException, TrimmedDataAccessException)
-- in hroe.dynamodb_error
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
					  ELSE 'HR000' END,
		DETAIL = format('DynamoDB %s.', p_exception);
END
$$;
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'internal: Raises a DynamoDB exception: SQLSTATE class HR (HR000 ValidationException, HR001 ResourceNotFoundException, HR002 ConditionalCheckFailedException, HR003 ResourceInUseException, HR004 LimitExceededException, HR005 TransactionCanceledException, HR006 IdempotentParameterMismatchException, HR007 SerializationException, HR008 DuplicateItemException, HR009 ExpiredIteratorException, HR010 TrimmedDataAccessException; as hroe.dynamodb_errors()), DynamoDB''s text as the message';

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

CREATE FUNCTION hroe.streams_call(p_operation text, p_request jsonb, p_caller oid)
RETURNS jsonb
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
		RETURN v_res;
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
		RETURN jsonb_build_object('StreamDescription', jsonb_build_object(
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
		RETURN jsonb_build_object('ShardIterator', concat_ws('|', v_arn, v_shard, v_pos, v_now_ms));
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
		-- at most Limit records, and 1 MB (at least one record)
		SELECT coalesce(jsonb_agg(x.rec ORDER BY x.seq), '[]'), max(x.seq) INTO v_list, v_seq
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
							'Keys', hroe.item_to_jsonb(sr.keys),
							'NewImage', hroe.item_to_jsonb(sr.new_image),
							'OldImage', hroe.item_to_jsonb(sr.old_image),
							'SequenceNumber', hroe.stream_seq_text(sr.seq),
							'SizeBytes', sr.size_bytes,
							'StreamViewType', s.view_type)),
						'userIdentity', CASE WHEN sr.service
											 THEN jsonb_build_object('type', 'Service', 'principalId', 'dynamodb.amazonaws.com') END)) AS rec
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
		RETURN v_res;
	END IF;
	RAISE EXCEPTION 'unknown DynamoDB Streams operation "%"', p_operation;
END
$$;
COMMENT ON FUNCTION hroe.streams_call(text, jsonb, oid) IS
'internal: The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords) for role p_caller, whose SELECT privilege on a stream''s table is checked; run by hroe.dynamodb as the extension''s owner (it reads hroe.stream_records)';
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

CREATE FUNCTION hroe.update_time_to_live(p_table_name text, p_attribute_name text, p_enabled boolean)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
BEGIN
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
'UpdateTimeToLive: enables (or disables) Time to Live on a table with its attribute, one per table, with DynamoDB''s errors; expired items are then deleted by hroe''s background worker or hroe.delete_expired_items. Returns the TimeToLiveSpecification';

CREATE FUNCTION hroe.describe_time_to_live(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
BEGIN
	IF NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = p_table_name) THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
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
'DescribeTimeToLive: TimeToLiveStatus ENABLED with its AttributeName, or DISABLED';

CREATE FUNCTION hroe.delete_expired_items(p_table_name text, p_limit integer DEFAULT 1000)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_delete_expired_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.delete_expired_items(text, integer) IS
'Deletes up to p_limit expired items of a table with Time to Live enabled (its attribute a Number of epoch seconds in the past, at most five years), sweeping the table''s blocks on from where this session''s last call stopped; each row locked and its expiry checked again, so an item re-written with a later expiry is kept; the stream records each deletion as the service''s. Returns the number deleted (0 without Time to Live). hroe''s background worker calls it';
