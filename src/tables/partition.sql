
--
-- Distributed tables (src/tables/tables_partition.c, doc/partitioning.md): with
-- hroe.partition_servers naming postgres_fdw foreign servers, CreateTable
-- makes the table hash-partitioned by its partition key column pk, one
-- partition per server, each a foreign table over a hroe table of the same
-- name created there by hroe.create_table (its own primary key, GSI and LSI
-- indexes).  Remote DDL runs through dblink, on the foreign server's user
-- mapping.
--

-- The foreign servers hroe.partition_servers names, validated
CREATE FUNCTION hroe.partition_server_list() RETURNS name[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_servers name[];
	v_server name;
	v_options text[];
BEGIN
	SELECT coalesce(array_agg(trim(s)::name ORDER BY o), '{}') INTO v_servers
	FROM unnest(string_to_array(current_setting('hroe.partition_servers', true), ',')) WITH ORDINALITY u(s, o)
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

-- The partitions of a distributed table and their servers
CREATE FUNCTION hroe.table_partitions(p_rel regclass)
RETURNS TABLE (partition regclass, server name, remote_schema text, remote_table text, bound text)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT i.inhrelid::regclass, s.srvname,
		   (SELECT substr(o, 13) FROM unnest(f.ftoptions) o WHERE o LIKE 'schema_name=%'),
		   (SELECT substr(o, 12) FROM unnest(f.ftoptions) o WHERE o LIKE 'table_name=%'),
		   pg_get_expr(c.relpartbound, c.oid)
	FROM pg_inherits i
	JOIN pg_class c ON c.oid = i.inhrelid
	LEFT JOIN pg_foreign_table f ON f.ftrelid = i.inhrelid
	LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
	WHERE i.inhparent = p_rel
	ORDER BY c.relname;
END;
COMMENT ON FUNCTION hroe.table_partitions(regclass) IS
'The partitions of a distributed table: each partition (a postgres_fdw foreign table), its foreign server, the schema and table it reads there, and its hash bound (MODULUS, REMAINDER); no row for a table that is not partitioned';

-- Whether a table is distributed
CREATE FUNCTION hroe.table_is_distributed(p_rel regclass) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT c.relkind = 'p' FROM pg_class c WHERE c.oid = p_rel);
COMMENT ON FUNCTION hroe.table_is_distributed(regclass) IS
'internal: Whether the PostgreSQL table of a DynamoDB table is partitioned over servers (a partitioned table, made by hroe.create_table under hroe.partition_servers)';

-- The schema of the dblink extension, which remote DDL needs
CREATE FUNCTION hroe.dblink_schema() RETURNS name
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name;
BEGIN
	SELECT n.nspname INTO v_dblink
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'distributed tables need the dblink extension'
			USING ERRCODE = 'undefined_object',
				  HINT = 'CREATE EXTENSION dblink (PostgreSQL''s contrib) on this database.';
	END IF;
	RETURN v_dblink;
END
$$;
COMMENT ON FUNCTION hroe.dblink_schema() IS
'internal: The schema of the dblink extension (distributed tables run their DDL on the partition servers through it), or an error naming it';

-- Run one SQL statement on a foreign server through dblink
CREATE FUNCTION hroe.partition_exec(p_server name, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_conn text := 'hroe_partition_ddl';
BEGIN
	-- dblink takes a foreign server's name for a connection string and
	-- connects with its options and the current role's user mapping; a
	-- remote error is raised here with its SQLSTATE (a DynamoDB one stays).
	-- The statement waits at most 10 s for a lock: DDL there after this
	-- transaction read the table through postgres_fdw (whose remote
	-- transaction holds its lock until this one ends) fails rather than
	-- waits for ever.
	EXECUTE format('SELECT %I.dblink_connect(%L, %L)', v_dblink, v_conn, p_server);
	BEGIN
		EXECUTE format('SELECT %I.dblink_exec(%L, %L)', v_dblink, v_conn, 'SET lock_timeout = ''10s''');
		EXECUTE format('SELECT count(*) FROM %I.dblink(%L, %L) AS r(v text)', v_dblink, v_conn, p_sql);
	EXCEPTION WHEN OTHERS THEN
		EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
		RAISE;
	END;
	EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
END
$$;
COMMENT ON FUNCTION hroe.partition_exec(name, text) IS
'internal: Runs p_sql (a statement returning one text column) on foreign server p_server through dblink (its own remote transaction, committed at once; lock_timeout 10 s), with the server''s options and the current role''s user mapping; a remote error is raised with its SQLSTATE';

-- The item counts and sizes of a distributed table, summed over its servers
CREATE FUNCTION hroe.partition_table_sizes(p_table_name text, p_rel regclass)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_sql text := '';
	v_server name;
BEGIN
	-- through dblink, not postgres_fdw: a DeleteTable describes the table
	-- before it drops the partitions, which the remote transaction of a
	-- postgres_fdw read would keep locked until the end of this one
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		v_sql := v_sql || CASE WHEN v_sql <> '' THEN ' UNION ALL ' ELSE '' END
				 || format('SELECT * FROM %I.dblink(%L, %L) AS r(index_name text, item_count bigint, size_bytes bigint)',
						   v_dblink, v_server, format('SELECT * FROM hroe.table_sizes(%L)', p_table_name));
	END LOOP;
	IF v_sql = '' THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format('SELECT s.index_name, sum(s.item_count)::bigint, sum(s.size_bytes)::bigint
								 FROM (%s) s GROUP BY s.index_name', v_sql);
END
$$;
COMMENT ON FUNCTION hroe.partition_table_sizes(text, regclass) IS
'internal: hroe.table_sizes of distributed table p_table_name (PostgreSQL table p_rel): each server''s hroe.table_sizes of its partition, through dblink, summed per index';

-- Run one SQL statement on every server of a distributed table
CREATE FUNCTION hroe.partition_exec_all(p_rel regclass, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_server name;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		PERFORM hroe.partition_exec(v_server, p_sql);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.partition_exec_all(regclass, text) IS
'internal: Runs p_sql (DDL of hroe on a distributed table: create_index, delete_index, delete_table) on each foreign server holding a partition of p_rel, one after another';

-- Create a distributed table's partitions: a hroe table on each server, a
-- foreign table over it as the partition of remainder i
CREATE FUNCTION hroe.create_table_partitions(p_rel regclass, p_table_name text, p_servers name[],
											 p_partition_key text, p_partition_key_type text,
											 p_sort_key text, p_sort_key_type text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema name;
	v_relname name;
	n integer := cardinality(p_servers);
BEGIN
	SELECT s.nspname, c.relname INTO v_schema, v_relname
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.oid = p_rel;
	FOR i IN 1 .. n LOOP
		PERFORM hroe.partition_exec(p_servers[i],
			format('SELECT hroe.create_table(%L, %L, %L, %L, %L, %L)::text', p_table_name, p_partition_key,
				   p_partition_key_type, p_sort_key, p_sort_key_type, v_schema));
		EXECUTE format('CREATE FOREIGN TABLE %I.%I PARTITION OF %s FOR VALUES WITH (MODULUS %s, REMAINDER %s)'
					   ' SERVER %I OPTIONS (schema_name %L, table_name %L)',
					   v_schema, hroe.relation_name(format('%s#%s', p_table_name, i - 1)), p_rel, n, i - 1,
					   p_servers[i], v_schema, v_relname);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.create_table_partitions(regclass, text, name[], text, text, text, text) IS
'internal: hroe.create_table''s distribution: on each server of p_servers, a hroe table named p_table_name in the same schema (hroe.create_table there, through dblink), and here its foreign table <name>#<i> as the partition of remainder i (MODULUS the server count) of p_rel';

-- Whether a query answers true on any server of a distributed table
CREATE FUNCTION hroe.partition_any(p_rel regclass, p_sql text) RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_server name;
	v boolean;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		EXECUTE format('SELECT bool_or(r.v::boolean) FROM %I.dblink(%L, %L) AS r(v text)',
					   v_dblink, v_server, p_sql) INTO v;
		IF v THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;
COMMENT ON FUNCTION hroe.partition_any(regclass, text) IS
'internal: Whether p_sql (a query of one boolean value, as text) answers true on any foreign server holding a partition of p_rel (through dblink: hroe.create_local_index''s emptiness check)';

-- A GetItem on a partition server: what a coordinator's own read path calls
CREATE FUNCTION hroe.item_by_key(p_table_name text, VARIADIC p_key "any")
RETURNS hroe.item AS 'MODULE_PATHNAME', 'hroe_item_by_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.item_by_key(text, "any") IS
'internal: the item of DynamoDB table p_table_name whose primary key columns equal p_key (given as separate arguments of the key columns'' types), or NULL: a GetItem on a partition server, for a coordinator''s own read path (doc/partitioning.md). The server''s own local GetItem of that table, without capacity or throttling: a btree probe without the executor (hroe.direct_access) when the caller may SELECT the table and row-level security does not apply to it, its prepared statement otherwise, which applies column privileges and row-level security. Security invoker';
