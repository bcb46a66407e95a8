
--
-- DynamoDB Streams and Time to Live (src/streams/streams.sql, src/streams/streams.c,
-- src/streams/streams_api.c; doc/streams.md)
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
-- Time to Live worker reads as a superuser (and deletes as each table's
-- owner).
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
'internal: The AFTER ROW trigger of a table with a stream (arguments: stream id, view type, key attribute names, as hroe.enable_stream creates it): appends the change''s record to hroe.stream_records as the extension''s owner, in a security-restricted operation with search_path pinned, after checking in hroe''s catalog, by the trigger''s relation, that the stream is that table''s enabled stream with these arguments (else insufficient_privilege, nothing written); none when the item did not change';

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
COMMENT ON FUNCTION hroe.streams_call(text, jsonb, oid) IS
'internal: The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords) for role p_caller, whose SELECT privilege on a stream''s table is checked; run by hroe.dynamodb as the extension''s owner (it reads hroe.stream_records). response: the response, but GetRecords'' records without their Keys, NewImage and OldImage, which are images[i][1:3] (NULL: none; images is NULL for the other operations) for the JSON API to write into them: an item may hold U+0000, which jsonb cannot';
REVOKE EXECUTE ON FUNCTION hroe.streams_call(text, jsonb, oid) FROM PUBLIC;
