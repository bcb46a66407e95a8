
--
-- DynamoDB's throughput limits (src/tables/throttle.sql, src/tables/throttle.c):
-- OnDemandThroughput (the most request units per second of an on-demand table
-- or GSI) and the per-table switch that makes hroe throttle a table as
-- DynamoDB would (doc/throttling.md)
--

-- The OnDemandThroughput member of a table or GSI description
CREATE FUNCTION hroe.on_demand_throughput_description(p_max_read_request_units bigint,
													  p_max_write_request_units bigint)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN p_max_read_request_units IS NOT NULL OR p_max_write_request_units IS NOT NULL
			THEN pg_catalog.jsonb_build_object(
				'MaxReadRequestUnits', coalesce(p_max_read_request_units, -1),
				'MaxWriteRequestUnits', coalesce(p_max_write_request_units, -1)) END;
COMMENT ON FUNCTION hroe.on_demand_throughput_description(bigint, bigint) IS
'internal: DynamoDB''s OnDemandThroughput description of a table or GSI: its maximum read and write request units per second, -1 for a dimension without maximum; NULL when neither has one (the member is then left out)';

-- CreateTable's and UpdateTable's OnDemandThroughput
CREATE FUNCTION hroe.set_on_demand_throughput(p_table_name text, p_index_name text,
											  p_max_read_request_units bigint,
											  p_max_write_request_units bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_mode text;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	IF p_max_read_request_units < 1 AND p_max_read_request_units <> -1 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: MaxReadRequestUnits must be greater than or equal to 1, or -1 to remove the maximum (%s)', p_max_read_request_units));
	END IF;
	IF p_max_write_request_units < 1 AND p_max_write_request_units <> -1 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: MaxWriteRequestUnits must be greater than or equal to 1, or -1 to remove the maximum (%s)', p_max_write_request_units));
	END IF;
	SELECT billing_mode INTO v_mode FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF v_mode = 'PROVISIONED' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Neither MaxReadRequestUnits nor MaxWriteRequestUnits can be specified when BillingMode is PROVISIONED');
	END IF;
	-- NULL: unchanged; -1: no maximum
	IF p_index_name IS NULL THEN
		UPDATE hroe.tables
		SET max_read_request_units = CASE WHEN p_max_read_request_units IS NULL THEN max_read_request_units
										  WHEN p_max_read_request_units = -1 THEN NULL
										  ELSE p_max_read_request_units END,
			max_write_request_units = CASE WHEN p_max_write_request_units IS NULL THEN max_write_request_units
										   WHEN p_max_write_request_units = -1 THEN NULL
										   ELSE p_max_write_request_units END
		WHERE table_name = p_table_name;
	ELSE
		UPDATE hroe.indexes
		SET max_read_request_units = CASE WHEN p_max_read_request_units IS NULL THEN max_read_request_units
										  WHEN p_max_read_request_units = -1 THEN NULL
										  ELSE p_max_read_request_units END,
			max_write_request_units = CASE WHEN p_max_write_request_units IS NULL THEN max_write_request_units
										   WHEN p_max_write_request_units = -1 THEN NULL
										   ELSE p_max_write_request_units END
		WHERE table_name = p_table_name AND index_name = p_index_name AND NOT local;
		IF NOT FOUND THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Index: %s not found', p_index_name));
		END IF;
	END IF;
	PERFORM hroe.throttle_settings_changed(relid) FROM hroe.tables WHERE table_name = p_table_name;
END
$$;
COMMENT ON FUNCTION hroe.set_on_demand_throughput(text, text, bigint, bigint) IS
'OnDemandThroughput of table p_table_name (p_index_name NULL) or of its GSI p_index_name, as CreateTable and UpdateTable set it: the most read and write request units per second (NULL: unchanged, -1: no maximum), only on a PAY_PER_REQUEST table; enforced only where hroe.set_throttling turned throttling on';

-- Every backend reads a table's throttling settings again (at commit)
CREATE FUNCTION hroe.throttle_settings_changed(p_relid regclass) RETURNS void
AS 'MODULE_PATHNAME', 'hroe_throttle_settings_changed'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.throttle_settings_changed(regclass) IS
'internal: Makes every backend read the throttling settings of the DynamoDB table stored in p_relid again, from the commit on (a relcache invalidation); called by hroe.set_throttling and hroe.set_on_demand_throughput';

-- The per-table switch of DynamoDB's throttling
CREATE FUNCTION hroe.set_throttling(p_table_name text, p_enabled boolean)
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	UPDATE hroe.tables SET throttling = p_enabled WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	PERFORM hroe.throttle_settings_changed(relid) FROM hroe.tables WHERE table_name = p_table_name;
END
$$;
COMMENT ON FUNCTION hroe.set_throttling(text, boolean) IS
'Turns DynamoDB''s throttling of table p_table_name on or off (off by default; its owner only): once on, requests past its OnDemandThroughput maximum, its provisioned capacity (with up to 300 s of unused capacity banked as burst) or a partition key''s 3,000 read / 1,000 write units per second are refused as DynamoDB refuses them (doc/throttling.md). The setting hroe.throttling = all applies the rules to every table';
