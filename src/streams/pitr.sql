
--
-- Point-in-time recovery (src/streams/pitr.sql, src/streams/pitr.c,
-- src/api/api_pitr.c; doc/backups.md): UpdateContinuousBackups,
-- DescribeContinuousBackups, RestoreTableToPointInTime
-- (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Point-in-time-recovery.html).
--
-- A protected table has a base image (hroe.pitr_base: its items as of
-- base_at) and a history (hroe.pitr_history: every later version of an
-- item, a new image or a tombstone, with the xid of the transaction that
-- wrote it, appended by the AFTER ROW trigger hroe.pitr_capture).  The
-- state at instant T is the base image with, per key, the last version
-- written by a transaction that committed at or before T: commit times are
-- PostgreSQL's own (pg_xact_commit_timestamp, which needs the server
-- setting track_commit_timestamp = on), and versions of one key are
-- ordered by their writers' commits (a later writer of a key waits for the
-- earlier one's row lock) and within a transaction by write order.
-- hroe.pitr_compact (the background worker) folds the versions that left
-- the recovery window into the base image.
--

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
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT')))
		OR pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT b.pitr_id FROM hroe.backups b WHERE b.backup_type OPERATOR(pg_catalog.=) 'SYSTEM')));
COMMENT ON POLICY pitr_history_read ON hroe.pitr_history IS 'A role reads the history of the tables it may read, and of the deleted tables whose system backup it sees (hroe.backups'' policy)';
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
		  AND pg_catalog.has_table_privilege(t.relid, 'SELECT')))
		OR pitr_id OPERATOR(pg_catalog.=) ANY (ARRAY(
		SELECT b.pitr_id FROM hroe.backups b WHERE b.backup_type OPERATOR(pg_catalog.=) 'SYSTEM')));
COMMENT ON POLICY pitr_base_read ON hroe.pitr_base IS 'A role reads the base image of the tables it may read, and of the deleted tables whose system backup it sees (hroe.backups'' policy)';
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

-- DescribeContinuousBackups' ContinuousBackupsDescription of a table
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

-- DeleteTable of a table with point-in-time recovery: DynamoDB keeps a
-- system backup of it for 35 days, restorable by RestoreTableFromBackup and,
-- by its SourceTableArn, by RestoreTableToPointInTime to any instant of its
-- recovery window up to the deletion
-- (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/PointInTimeRecovery_Howitworks.html)
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

-- The items of a history as of instant p_at: the base image with, per key,
-- the last version committed at or before p_at over it (a deletion removes
-- the key); versions of one key ordered by commit time, then write order.
-- The caller waits first for every transaction committed at or before p_at
-- to be visible (hroe.pitr_wait_committed) and reads in one snapshot; a
-- restore to a point in time and a full export at an ExportTime read it.
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

-- Waits until every transaction that committed at or before p_at is
-- visible to a new snapshot (one whose commit time is recorded but which is
-- still in the snapshot's list of running transactions is waited for)
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
'internal: Returns once every transaction that committed at or before p_at is visible to the next statement''s snapshot (READ COMMITTED only; lock_not_available after about 10 seconds); a restore to a point in time, and an export''s worker reading the history (an incremental export, a full export at an ExportTime), call it before their snapshot';

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
COMMENT ON FUNCTION hroe.pitr_compact(interval) IS
'Enforces point-in-time recovery''s retention: on each protected table not compacted within p_every, folds the versions committed before its recovery period into its base image (per key the last one; a deletion removes the key), stamps the commit times of old versions, deletes the system backups of deleted tables that expired (35 days), and deletes the history and images of tables deleted (but for those of a system backup) or no longer protected; returns the number of versions removed. Run by hroe''s background worker (hroe.ttl_naptime) and by hand';
REVOKE EXECUTE ON FUNCTION hroe.pitr_compact(interval) FROM PUBLIC;
