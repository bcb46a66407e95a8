
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
	failure_message		text,
	-- INCREMENTAL_EXPORT: the changes committed from export_from_time
	-- (inclusive) to export_to_time (exclusive), their ExportViewType
	export_from_time	timestamptz,
	export_to_time		timestamptz,
	export_view_type	text CHECK (export_view_type IN ('NEW_IMAGE', 'NEW_AND_OLD_IMAGES')),
	-- FULL_EXPORT: read from point-in-time recovery's history as of
	-- export_time (an ExportTime given, the table protected), else the
	-- table as the worker's snapshot finds it
	export_from_history	boolean NOT NULL DEFAULT false
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

CREATE FUNCTION hroe.transfer_start(p_kind text, p_job_id bigint) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_transfer_start'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transfer_start(text, bigint) IS
'internal: Starts the background worker of export or import p_job_id (p_kind ''export'' or ''import''), which the current role requested in the current transaction; the worker waits for the transaction to commit';

-- The ExportDescription of an export
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

CREATE FUNCTION hroe.incremental_export_check(p_from timestamptz, p_to timestamptz) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_incremental_export_check'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.incremental_export_check(timestamptz, timestamptz) IS
'internal: Raises DynamoDB''s ValidationException unless an incremental export''s ExportFromTime p_from is before its ExportToTime p_to and the period between them is at least 15 minutes (hroe.incremental_export_min_period, a superuser-only setting for tests) and at most 24 hours';

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
