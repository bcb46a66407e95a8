-- hroe--<version>.sql: assembled by the Makefile from the src/ pieces listed in SCRIPT_PARTS; edit those

\echo Use "CREATE EXTENSION hroe" to load this file. \quit

-- DynamoDB strings are UTF-8, and hroe's keys and items store them as such.
DO $$
BEGIN
	IF pg_catalog.getdatabaseencoding() OPERATOR(pg_catalog.<>) 'UTF8' THEN
		RAISE EXCEPTION 'hroe requires a database with UTF8 encoding'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = pg_catalog.format('Database "%s" has encoding %s; DynamoDB strings are UTF-8.',
											 pg_catalog.current_database(),
											 pg_catalog.getdatabaseencoding()),
				  HINT = 'Create a UTF8 database (CREATE DATABASE ... ENCODING ''UTF8'' TEMPLATE template0) and install hroe there.';
	END IF;
END
$$;

COMMENT ON SCHEMA hroe IS 'hroe: DynamoDB single-table design in PostgreSQL (types, tables, operations, sharding, comparison)';

-- The statement trigger of the extension's tables that backends cache
-- (hroe.resource_policies, hroe.access_keys): a write invalidates the table's
-- relation cache entry, so every backend forgets what it read at the start
-- of its next transaction after the commit (src/base/catalog.c)
CREATE FUNCTION hroe.table_changed() RETURNS trigger
AS 'MODULE_PATHNAME', 'hroe_table_changed'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.table_changed() IS
'internal: statement trigger of hroe.resource_policies and hroe.access_keys: invalidates every backend''s cache of the table (a relation cache invalidation of it, sent at commit)';
