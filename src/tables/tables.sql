
--
-- DynamoDB tables and global secondary indexes on PostgreSQL storage
-- (src/tables/tables.sql, src/tables/tables.c)
--
-- A DynamoDB table is a PostgreSQL table (pk, [sk,] item) whose key columns
-- are STORED generated columns extracted from the item; a GSI adds generated
-- columns for its key attributes (or, with p_share_key_columns, reuses the
-- table's or another index's column of the same keys) and a partial (sparse)
-- btree index on (index keys..., table keys).  hroe.tables and hroe.indexes
-- hold the DynamoDB metadata; hroe.tables names the table by regclass,
-- hroe.indexes the index by its name in the table's schema.
--

CREATE TABLE hroe.tables (
	table_name			text PRIMARY KEY
		CHECK (table_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	relid				regclass NOT NULL UNIQUE,
	partition_key		text NOT NULL,
	partition_key_type	text NOT NULL CHECK (partition_key_type IN ('S', 'N', 'B')),
	sort_key			text,
	sort_key_type		text CHECK (sort_key_type IN ('S', 'N', 'B')),
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	CHECK ((sort_key IS NULL) = (sort_key_type IS NULL)),
	-- DynamoDB's table metadata: TableId, the billing mode and provisioned
	-- throughput (kept and described, not enforced), DeletionProtectionEnabled,
	-- the AttributeDefinitions' order of the CreateTable request
	table_id			uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
	billing_mode		text NOT NULL DEFAULT 'PAY_PER_REQUEST'
		CHECK (billing_mode IN ('PROVISIONED', 'PAY_PER_REQUEST')),
	read_capacity_units	bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	last_increase_at	timestamptz,
	last_decrease_at	timestamptz,
	-- decreases on the (UTC) day of last_decrease_at
	decreases_today		integer NOT NULL DEFAULT 0,
	-- BillingModeSummary's LastUpdateToPayPerRequestDateTime (NULL: the
	-- table has always been PROVISIONED, and DynamoDB shows no summary)
	pay_per_request_since timestamptz,
	deletion_protection	boolean NOT NULL DEFAULT false,
	attribute_order		text[] NOT NULL DEFAULT '{}',
	CONSTRAINT tables_throughput_check CHECK ((billing_mode = 'PROVISIONED')
		= (read_capacity_units IS NOT NULL AND write_capacity_units IS NOT NULL)
		AND (read_capacity_units IS NULL) = (write_capacity_units IS NULL)),
	-- OnDemandThroughput: the most read and write request units per second
	-- of a PAY_PER_REQUEST table (NULL: no maximum, described as -1), and
	-- whether hroe enforces DynamoDB's throughput limits on the table
	-- (hroe.set_throttling; src/tables/throttle.c)
	max_read_request_units bigint CHECK (max_read_request_units >= 1),
	max_write_request_units bigint CHECK (max_write_request_units >= 1),
	throttling			boolean NOT NULL DEFAULT false
);
COMMENT ON TABLE hroe.tables IS 'DynamoDB tables created by hroe.create_table: name, PostgreSQL table, key schema, TableId, creation time, billing mode and provisioned throughput (PROVISIONED tables), deletion protection, the order of the AttributeDefinitions';

CREATE TABLE hroe.indexes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	index_name			text NOT NULL
		CHECK (index_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	-- by name, not regclass: pg_dump restores these rows before the index
	index_relname		name NOT NULL,
	partition_key		text[] NOT NULL,
	partition_key_types text[] NOT NULL,
	partition_key_columns name[] NOT NULL,
	sort_key			text[] NOT NULL,
	sort_key_types		text[] NOT NULL,
	sort_key_columns	name[] NOT NULL,
	projection			text NOT NULL CHECK (projection IN ('ALL', 'KEYS_ONLY', 'INCLUDE')),
	non_key_attributes	text[] NOT NULL DEFAULT '{}',
	key_check			name NOT NULL,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	-- a local secondary index (hroe.create_local_index): HASH the table's
	-- partition key (column pk), one RANGE attribute
	local				boolean NOT NULL DEFAULT false,
	PRIMARY KEY (table_name, index_name),
	-- a GSI's provisioned throughput (NULL on a PAY_PER_REQUEST table, and
	-- for an LSI, which uses the table's)
	read_capacity_units	bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	last_increase_at	timestamptz,
	last_decrease_at	timestamptz,
	decreases_today		integer NOT NULL DEFAULT 0,
	CONSTRAINT indexes_throughput_check CHECK ((read_capacity_units IS NULL) = (write_capacity_units IS NULL)),
	-- a GSI's OnDemandThroughput (NULL: no maximum)
	max_read_request_units bigint CHECK (max_read_request_units >= 1),
	max_write_request_units bigint CHECK (max_write_request_units >= 1)
);
COMMENT ON TABLE hroe.indexes IS 'Secondary indexes: global ones created by hroe.create_index, local ones (local true) by hroe.create_local_index: key schema (1-4 HASH, 0-4 RANGE attributes), generated key columns (several indexes may share one, and pk/sk), PostgreSQL index by name (index_relname, in the table''s schema, so pg_dump''s rows restore before the index exists), projection, the NOT VALID CHECK constraint that rejects writes violating the key schema, a GSI''s provisioned throughput';

-- the metadata is not secret: any role may look a table up (operations
-- still need the privileges on the PostgreSQL table itself)
GRANT SELECT ON hroe.tables, hroe.indexes TO PUBLIC;

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

-- hroe.tables and hroe.indexes are dumped by pg_dump, but their rows for
-- tables the extension script creates come back with CREATE EXTENSION: the
-- dump keeps only the rows of tables that are not extension members.
SELECT pg_catalog.pg_extension_config_dump('hroe.tables',
	'WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.objid = relid AND d.deptype = ''e'')');
SELECT pg_catalog.pg_extension_config_dump('hroe.indexes',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = indexes.table_name)');

-- Key extraction, used by the generated key columns
CREATE FUNCTION hroe.item_key_s(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS hroe.key AS 'MODULE_PATHNAME', 'hroe_item_key_s'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_key_n(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS numeric AS 'MODULE_PATHNAME', 'hroe_item_key_n'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_key_b(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS bytea AS 'MODULE_PATHNAME', 'hroe_item_key_b'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_key_s(hroe.item, text, boolean, text) IS
'internal: The S key attribute of an item as hroe.key. For a table key (p_index_name NULL) a missing, mistyped, empty or oversized attribute raises DynamoDB''s E1/E2/E4/E5/E6; for an index key it gives NULL when the attribute is absent (sparse) or violates the key schema (wrong type, empty, oversized: the item stays out of the index; hroe.check_index_key rejects such writes)';
COMMENT ON FUNCTION hroe.item_key_n(hroe.item, text, boolean, text) IS
'internal: The N key attribute of an item as numeric (see hroe.item_key_s for NULLs and errors)';
COMMENT ON FUNCTION hroe.item_key_b(hroe.item, text, boolean, text) IS
'internal: The B key attribute of an item as bytea (see hroe.item_key_s for NULLs and errors)';

-- The index key checks: the CHECK constraint of a GSI, and its violation detector
CREATE FUNCTION hroe.check_index_key(p_item hroe.item, p_attribute text, p_type text,
									 p_sort boolean, p_index_name text)
RETURNS boolean AS 'MODULE_PATHNAME', 'hroe_check_index_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_index_key(hroe.item, text, text, boolean, text) IS
'internal: True if the item''s attribute p_attribute is absent or a valid key of type p_type (S, N, B) of index p_index_name (p_sort: a RANGE attribute); else raises DynamoDB''s error: E11 Type mismatch for Index Key, the empty index key message, E5/E6 key size. A GSI''s NOT VALID CHECK constraint, so writes fail with DynamoDB''s text';
CREATE FUNCTION hroe.index_key_violation(p_item hroe.item, p_attribute text, p_type text,
										 p_sort boolean)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_index_key_violation'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.index_key_violation(hroe.item, text, text, boolean) IS
'internal: How the item''s attribute p_attribute violates an index key of type p_type (p_sort: a RANGE attribute): Type Violation, Empty Value Violation or Size Violation with details; NULL if it is absent or valid';

CREATE FUNCTION hroe.check_index_entry(p_index_name text, VARIADIC p_keys "any")
RETURNS boolean AS 'MODULE_PATHNAME', 'hroe_check_index_entry'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_index_entry(text, "any") IS
'internal: True if the key columns given (a GSI''s, in index order, the table key last) make an index entry that fits a btree (2704 bytes, after compression), or one is NULL (the item is not in the index); else a ValidationException naming the index. In the CHECK constraint of a multi-attribute GSI whose widest entry might not fit';

-- hroe's SQLSTATE class HR, as the C code defines it (src/base/errors.c)
CREATE FUNCTION hroe.dynamodb_errors(OUT sqlstate text, OUT exception text, OUT type text)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'hroe_dynamodb_errors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.dynamodb_errors() IS
'hroe''s SQLSTATE class HR: each code, the DynamoDB exception it stands for, and the __type the JSON API (hroe.dynamodb) answers with';

-- Raise a DynamoDB exception from SQL: class HR, DynamoDB's text as message
CREATE FUNCTION hroe.dynamodb_error(p_exception text, p_message text)
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

-- The SQL type and accessor of a key attribute type
CREATE FUNCTION hroe.key_column_type(p_type text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE p_type WHEN 'S' THEN 'hroe.key' WHEN 'N' THEN 'numeric' WHEN 'B' THEN 'bytea' END;
COMMENT ON FUNCTION hroe.key_column_type(text) IS
'internal: The PostgreSQL type storing a DynamoDB key attribute type: S hroe.key, N numeric, B bytea (each ordered as DynamoDB orders keys)';

-- DynamoDB's validation error of a value outside an enumeration (none for
-- NULL or a value of it): a list of one text, or an empty one
CREATE FUNCTION hroe.enum_errors(p_value text, p_member text, p_values text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN CASE WHEN p_value IS NULL OR p_value OPERATOR(pg_catalog.=) ANY (p_values) THEN '{}'::text[]
			ELSE ARRAY[format('Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy enum value set: [%s]',
							  p_value, p_member, array_to_string(p_values, ', '))] END;
COMMENT ON FUNCTION hroe.enum_errors(text, text, text[]) IS
'internal: DynamoDB''s validation error (as one text of a list, without "1 validation error detected: ") when p_value (member p_member) is not NULL and not one of p_values (listed in that order), else an empty list';

-- A value of an enumeration, or DynamoDB's validation error
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

-- Validate an attribute type name as DynamoDB does
CREATE FUNCTION hroe.check_key_type(p_type text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM hroe.check_enum(coalesce(p_type, 'null'), p_what, '{B,N,S}');
END
$$;
COMMENT ON FUNCTION hroe.check_key_type(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_type is S, N or B';

-- Validate a table or index name as DynamoDB does
CREATE FUNCTION hroe.check_name(p_name text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_name IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value null at ''%s'' failed to satisfy constraint: Member must not be null', p_what));
	ELSIF length(p_name) < 3 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length greater than or equal to 3', p_name, p_what));
	ELSIF length(p_name) > 255 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length less than or equal to 255', p_name, p_what));
	ELSIF p_name !~ '^[a-zA-Z0-9_.-]+$' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+', p_name, p_what));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid table or index name (3-255 characters of [a-zA-Z0-9_.-])';

-- The PostgreSQL name of a DynamoDB table or index name
CREATE FUNCTION hroe.relation_name(p_name text) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN octet_length(p_name) <= 63 THEN p_name
			ELSE left(p_name, 46) || '_'
				 || left(encode(sha256(convert_to(p_name, 'UTF8')), 'hex'), 16) END;
COMMENT ON FUNCTION hroe.relation_name(text) IS
'internal: The PostgreSQL relation name of a DynamoDB table or index name (up to 255 characters): the name itself if it fits in 63 bytes, else its first 46 characters, an underscore and 16 hex digits of its SHA-256';

-- Validate a key attribute name (1-255 bytes)
CREATE FUNCTION hroe.check_attribute_name(p_name text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_name IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value null at ''%s'' failed to satisfy constraint: Member must not be null', p_what));
	ELSIF octet_length(p_name) < 1 OR octet_length(p_name) > 255 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length between 1 and 255', p_name, p_what));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_attribute_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid attribute name (1-255 bytes)';

CREATE FUNCTION hroe.create_table(
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
COMMENT ON FUNCTION hroe.create_table(text, text, text, text, text, name) IS
'CreateTable: a DynamoDB table (key types S, N, B; PAY_PER_REQUEST) as a PostgreSQL table with generated key columns pk [, sk] and an item column, in p_schema (default: the caller''s current schema), named after the DynamoDB table (a name over 63 bytes: hroe.relation_name); while hroe.partition_servers names foreign servers, hash-partitioned by pk over them (hroe.create_table_partitions); returns the table';

-- The existing generated column of a table that holds exactly the keys an
-- index key attribute needs, or NULL (create_index with p_share_key_columns)
CREATE FUNCTION hroe.key_column_for(p_rel regclass, p_table_partition_key text, p_table_sort_key text,
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
COMMENT ON FUNCTION hroe.key_column_for(regclass, text, text, text, text, boolean) IS
'internal: The generated column of table p_rel (partition key p_table_partition_key, sort key p_table_sort_key) that holds exactly the keys of an index key attribute p_attribute of type p_type (p_sort: a RANGE attribute), or NULL, from the metadata in hroe.indexes: the sort key column sk (HASH or RANGE); pk for a HASH attribute only (partition keys are stored in their index form, whose order is not the keys''); another index''s key column of the same attribute and type used in the same role only. hroe.create_index with p_share_key_columns reuses it';

CREATE FUNCTION hroe.create_index(
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

-- The start of deleting an index of a table (DeleteIndex, a vector index's
-- Delete): the caller must own the table; its row, locked
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

CREATE FUNCTION hroe.delete_index(p_table_name text, p_index_name text)
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

CREATE FUNCTION hroe.index_key_violations(p_table_name text, p_index_name text)
RETURNS TABLE (key jsonb, attribute_name text, key_type text, violation text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_key text;
	v_null text;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	SELECT * INTO x FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	v_key := format('jsonb_build_object(%L, hroe.item_get_attribute(r.item, %L)', t.partition_key, t.partition_key);
	IF t.sort_key IS NOT NULL THEN
		v_key := v_key || format(', %L, hroe.item_get_attribute(r.item, %L)', t.sort_key, t.sort_key);
	END IF;
	v_key := v_key || ')';
	-- only items out of the index can violate its key schema
	SELECT string_agg(format('r.%I IS NULL', c), ' OR ') INTO v_null
	FROM unnest(x.partition_key_columns || x.sort_key_columns) c;
	RETURN QUERY EXECUTE format(
		'SELECT %s, a.name, a.key_type, v.violation
		 FROM %s r
		 CROSS JOIN unnest($1, $2, $3) WITH ORDINALITY a(name, type, key_type, ord)
		 CROSS JOIN LATERAL hroe.index_key_violation(r.item, a.name, a.type, a.key_type = ''RANGE'') v(violation)
		 WHERE (%s) AND v.violation IS NOT NULL
		 ORDER BY r.pk%s, a.ord',
		v_key, t.relid, v_null, CASE WHEN t.sort_key IS NOT NULL THEN ', r.sk' ELSE '' END)
	USING x.partition_key || x.sort_key, x.partition_key_types || x.sort_key_types,
		  array_fill('HASH'::text, ARRAY[cardinality(x.partition_key)])
		  || array_fill('RANGE'::text, ARRAY[cardinality(x.sort_key)]);
END
$$;
COMMENT ON FUNCTION hroe.index_key_violations(text, text) IS
'The index key violations of a GSI, like AWS''s Violation Detector: the items left out of the index because an index key attribute has the wrong type, is empty or oversized (each such item stays in the table, and any write to it that keeps the violation is rejected), with their table key (DynamoDB JSON), the attribute, HASH or RANGE, and the violation; in the order of the primary key index (table key order, but for partition keys over 192 bytes, stored in their index form)';

CREATE FUNCTION hroe.delete_table(p_table_name text)
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

CREATE FUNCTION hroe.table_sizes(p_table_name text)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
AS 'MODULE_PATHNAME', 'hroe_table_sizes'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.table_sizes(text) IS
'The exact item count and DynamoDB size of a table (index_name NULL) and of each of its GSIs (the items in the sparse index, the size of their index entries: index keys, table keys, projected attributes), in one pass over the table';

