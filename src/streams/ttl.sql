
--
-- DynamoDB's Time to Live (src/streams/ttl.sql, src/streams/ttl.c; doc/streams.md)
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

CREATE FUNCTION hroe.update_time_to_live(p_table_name text, p_attribute_name text, p_enabled boolean)
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

CREATE FUNCTION hroe.describe_time_to_live(p_table_name text)
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

CREATE FUNCTION hroe.delete_expired_items(p_table_name text, p_limit integer DEFAULT 1000)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_delete_expired_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.delete_expired_items(text, integer) IS
'Deletes up to p_limit expired items of a table with Time to Live enabled (its attribute a Number of epoch seconds in the past, at most five years), sweeping the table''s blocks on from where this session''s last call stopped; each row locked and its expiry checked again, so an item re-written with a later expiry is kept; the stream records each deletion as the service''s. The caller needs DELETE on the table; the deletion runs as the table''s owner when the caller has the owner''s privileges (the owner, a member, a superuser), else as the caller, in a security-restricted operation with search_path pinned to pg_catalog, pg_temp (the table''s triggers never run as a superuser). Returns the number deleted (0 without Time to Live). hroe''s background worker calls it for each table as the table''s owner';
