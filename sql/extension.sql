--
-- The extension itself: schema, version, and the UTF8 requirement.
--
SELECT extname, extversion, nspname AS schema, extrelocatable
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE extname = 'hroe';

SELECT pg_catalog.getdatabaseencoding();

-- Every hroe object is documented (COMMENT ON).
SELECT pg_describe_object(classid, objid, 0) AS undocumented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'hroe')
  AND d.deptype = 'e'
  AND d.classid IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass,
                    'pg_class'::regclass, 'pg_namespace'::regclass, 'pg_aggregate'::regclass)
  AND pg_catalog.obj_description(d.objid, d.classid::regclass::name) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS
           (SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND (t.typelem <> 0 AND t.typlen = -1 OR t.typrelid <> 0)))
ORDER BY 1;

-- A database whose encoding is not UTF8 is refused with a clear error.
\set regress_db :DBNAME
CREATE DATABASE hroe_latin1 ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';
\c hroe_latin1
CREATE EXTENSION hroe;  -- fails: not UTF8
\c :regress_db
DROP DATABASE hroe_latin1;
