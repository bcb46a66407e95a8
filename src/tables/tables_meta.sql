
--
-- DynamoDB's table metadata (src/tables/tables_meta.sql, src/tables/tables_arn.c): ARNs,
-- the TableDescription of CreateTable, DescribeTable, UpdateTable and
-- DeleteTable, billing modes and provisioned throughput (kept and
-- described, never enforced), deletion protection, tags
--

-- The ARN of a table (the settings hroe.region and hroe.account_id)
CREATE FUNCTION hroe.table_arn(p_table_name text) RETURNS text
AS 'MODULE_PATHNAME', 'hroe_table_arn'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.table_arn(text) IS
'The ARN DynamoDB gives table p_table_name: arn:aws:dynamodb:<hroe.region>:<hroe.account_id>:table/<name> (an index''s adds /index/<name>)';

-- A table ARN read (hroe_arn_parse of tables_arn.c, the only reading of one)
CREATE FUNCTION hroe.arn_parse(p_arn text, OUT table_name text, OUT resource text, OUT ours boolean)
AS 'MODULE_PATHNAME', 'hroe_arn_parse_sql'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.arn_parse(text) IS
'internal: The parts of table ARN p_arn (arn:PARTITION:dynamodb:REGION:ACCOUNT:table/NAME[RESOURCE]): the table name, what follows it ('''' for the table itself, /index/NAME, /stream/LABEL, ...) and whether its partition is aws and its region and account hroe.region and hroe.account_id; three NULLs for a text that is not a table ARN';

-- The table a request names by TableName or its ARN (an ARN of another
-- region or account names no table here)
CREATE FUNCTION hroe.request_table_name(p_name text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN coalesce((SELECT a.table_name FROM hroe.arn_parse(p_name) a
				 WHERE a.ours AND a.resource OPERATOR(pg_catalog.=) ''), p_name);
COMMENT ON FUNCTION hroe.request_table_name(text) IS
'internal: The table name p_name names: the name in a table ARN of this region and account (hroe.arn_parse), else p_name itself';

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
COMMENT ON FUNCTION hroe.table_description(text, text, text, text) IS
'DynamoDB''s TableDescription of table p_table_name, with TableStatus p_table_status and IndexStatus p_index_status for GSI p_index_name (NULL: every GSI; a GSI named CREATING also shows Backfilling), else ACTIVE: key schema, attribute definitions, ARN, TableId, creation time, billing mode, provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, ARN, item count, size of the index entries) and the item count and DynamoDB size of the table (hroe.table_statistics: exact for a small table, else as of the last hroe.refresh_table_statistics, as DynamoDB refreshes them about every six hours); also names the PostgreSQL table and indexes (PostgresTable, PostgresIndex)';

CREATE FUNCTION hroe.describe_table(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN jsonb_build_object('Table', hroe.table_description(p_table_name));
END
$$;
COMMENT ON FUNCTION hroe.describe_table(text) IS
'DescribeTable: {"Table": hroe.table_description(p_table_name)}: key schema, attribute definitions, ARN, TableId, billing mode and provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, item count, size of the index entries) and the item count and DynamoDB size of the table (hroe.table_statistics: exact for a small table, else as of the last refresh), as DynamoDB JSON; also names the PostgreSQL table and indexes';

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
