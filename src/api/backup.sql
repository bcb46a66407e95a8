
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
	backup_name			text NOT NULL,
	owner				regrole NOT NULL
		DEFAULT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)),
	table_name			text NOT NULL,
	created_at			timestamptz NOT NULL,
	-- the source table as DescribeTable described it
	description			jsonb NOT NULL,
	-- BillingMode, StreamViewType (absent: no stream), TimeToLive {AttributeName, Enabled}
	features			jsonb NOT NULL,
	item_count			bigint NOT NULL DEFAULT 0,
	size_bytes			bigint NOT NULL DEFAULT 0,
	-- USER (CreateBackup) or SYSTEM: a deleted table's, with point-in-time
	-- recovery (hroe.pitr_table_deleted): its expiry, its history
	-- (hroe.pitr_history.pitr_id) and the start of its recovery window
	backup_type			text NOT NULL DEFAULT 'USER' CHECK (backup_type IN ('USER', 'SYSTEM')),
	expires_at			timestamptz,
	pitr_id				bigint,
	pitr_earliest		timestamptz,
	CONSTRAINT backups_backup_name_check
		CHECK (backup_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'
			   OR (backup_type OPERATOR(pg_catalog.=) 'SYSTEM' AND backup_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}[$]DeletedTableBackup$'))
);
CREATE INDEX backups_table ON hroe.backups (table_name, created_at);
CREATE INDEX backups_created ON hroe.backups (created_at, backup_arn);
COMMENT ON TABLE hroe.backups IS 'On-demand backups (CreateBackup) and the system backups of deleted tables with point-in-time recovery (BackupType SYSTEM, expiring after 35 days, with their history): ARN, name, the role that made it (owner), the source table''s name and description as of the backup, its billing mode, stream and Time to Live settings, item count and DynamoDB size; under row-level security a role sees and writes only the backups of roles whose privileges it has';
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
	-- (NULL: restored to a point in time, hroe.restore_table_to_point_in_time)
	source_backup_arn	text,
	source_table_arn	text NOT NULL,
	restored_at			timestamptz NOT NULL DEFAULT pg_catalog.now()
);
COMMENT ON TABLE hroe.table_restores IS 'The tables restored from a backup or to a point in time: the backup''s (NULL for a point in time) and its source table''s ARNs, and the restore''s time or the point in time restored to (DescribeTable''s RestoreSummary); readable by every role, written only by the table''s owner';
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

-- BackupDetails of backup b with status p_status
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

-- The table p_target_table_name a restore creates (in schema p_schema): the
-- keys, indexes, billing mode and throughput of the source table described
-- by d (DescribeTable's TableDescription) with features p_features
-- (BillingMode, as hroe.backups.features), under the overrides o, by
-- CreateTable and its checks; its relation
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

-- DescribeTable's RestoreSummary of a restored table (NULL: not restored)
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
