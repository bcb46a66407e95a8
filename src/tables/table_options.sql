
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

-- CreateTable's and UpdateTable's options of a table
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
