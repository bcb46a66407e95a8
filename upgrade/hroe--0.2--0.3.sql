-- hroe 0.2 -> 0.3 (ALTER EXTENSION hroe UPDATE TO '0.3')
--
-- What changed (CHANGELOG.md, 0.3): each change to the install script's
-- pieces in src/ is repeated here, so that an updated 0.2 database has the
-- catalog of a fresh 0.3 installation (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.3'" to load this file. \quit

-- Distributed tables: a partition server must set connect_timeout (src/partition.sql)
CREATE OR REPLACE FUNCTION hroe.partition_server_list() RETURNS name[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_servers name[];
	v_server name;
	v_options text[];
BEGIN
	SELECT coalesce(array_agg(trim(s)::name ORDER BY o), '{}') INTO v_servers
	FROM unnest(string_to_array(current_setting('hroe.partition_servers'), ',')) WITH ORDINALITY u(s, o)
	WHERE trim(s) <> '';
	FOREACH v_server IN ARRAY v_servers LOOP
		SELECT s.srvoptions INTO v_options
		FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
		WHERE s.srvname = v_server AND w.fdwname = 'postgres_fdw';
		IF NOT FOUND THEN
			RAISE EXCEPTION 'hroe.partition_servers names "%", which is not a postgres_fdw foreign server', v_server
				USING ERRCODE = 'undefined_object';
		END IF;
		-- hroe's operators and functions must be shipped, or no key
		-- condition reaches the partition (it would send its whole table)
		IF NOT EXISTS (SELECT FROM unnest(v_options) opt
					   WHERE opt LIKE 'extensions=%'
					   AND 'hroe' = ANY (string_to_array(replace(substr(opt, 12), ' ', ''), ','))) THEN
			RAISE EXCEPTION 'foreign server "%" must list hroe in its extensions option', v_server
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('ALTER SERVER %I OPTIONS (ADD extensions ''hroe'')', v_server);
		END IF;
		-- a server that stops answering must not hold a coordinator backend
		-- for ever: postgres_fdw and dblink connect with PostgreSQL 15's
		-- blocking libpq calls, which no statement_timeout interrupts
		IF NOT EXISTS (SELECT FROM unnest(v_options) opt
					   WHERE opt ~ '^connect_timeout=\s*[1-9][0-9]*\s*$') THEN
			RAISE EXCEPTION 'foreign server "%" must set connect_timeout', v_server
				USING ERRCODE = 'invalid_parameter_value',
					  DETAIL = 'Without it, a partition server that accepts connections but does not answer holds every backend that connects to it until it answers.',
					  HINT = format('ALTER SERVER %I OPTIONS (ADD connect_timeout ''10'')', v_server);
		END IF;
	END LOOP;
	IF cardinality(v_servers) <> (SELECT count(DISTINCT s) FROM unnest(v_servers) s) THEN
		RAISE EXCEPTION 'hroe.partition_servers names a server twice'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN v_servers;
END
$$;
COMMENT ON FUNCTION hroe.partition_server_list() IS
'internal: The foreign servers the setting hroe.partition_servers names (empty: tables are local), each checked to be a postgres_fdw server whose extensions option lists hroe and that sets connect_timeout';
