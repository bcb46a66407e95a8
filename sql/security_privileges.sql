--
-- The privileges of every object hroe and its HR/OE showcase (hroe_hr)
-- create that a role can reach (issue #17).  The expected output documents the surface: a new table
-- writable by PUBLIC, a SECURITY DEFINER function or a new grant shows up
-- here as a difference.
--
CREATE TEMP VIEW hroe_members AS
SELECT d.classid, d.objid
FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname IN ('hroe', 'hroe_hr');

-- the schemas: no USAGE for PUBLIC; an administrator grants hroe's schema
-- to the roles that may call it
SELECT n.nspname,
	coalesce((SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
			  FROM aclexplode(n.nspacl) a WHERE a.grantee = 0), '') AS public_privileges
FROM pg_namespace n
WHERE n.nspname IN ('hroe', 'hroe_normalized', 'hroe_single', 'hroe_multi')
ORDER BY 1;

-- every table, view and sequence, with PUBLIC's privileges and row-level
-- security
SELECT n.nspname, c.relname, c.relkind,
	coalesce((SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
			  FROM aclexplode(c.relacl) a WHERE a.grantee = 0), '') AS public_privileges,
	c.relrowsecurity AS rls, c.relforcerowsecurity AS forced
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN hroe_members m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
ORDER BY 1, 2;

-- no table is writable by PUBLIC unless row-level security, forced on its
-- owner too, scopes every row to its role (hroe.transaction_tokens)
SELECT c.oid::regclass AS public_writable_without_forced_rls
FROM pg_class c JOIN hroe_members m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
WHERE EXISTS (SELECT FROM aclexplode(c.relacl) a
			  WHERE a.grantee = 0 AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'))
  AND NOT (c.relrowsecurity AND c.relforcerowsecurity
		   AND EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid));
-- and the policies that scope them
SELECT p.polrelid::regclass AS "table", p.polname, p.polcmd, p.polroles = '{0}' AS for_public,
	pg_get_expr(p.polqual, p.polrelid) AS using_expr,
	pg_get_expr(p.polwithcheck, p.polrelid) AS with_check
FROM pg_policy p JOIN hroe_members m ON m.classid = 'pg_class'::regclass AND m.objid = p.polrelid
ORDER BY 1, 2;

-- no SECURITY DEFINER function
SELECT p.oid::regprocedure AS security_definer
FROM pg_proc p JOIN hroe_members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
WHERE p.prosecdef;

-- functions PUBLIC may not execute
SELECT p.oid::regprocedure AS not_executable_by_public
FROM pg_proc p JOIN hroe_members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
WHERE NOT EXISTS (SELECT FROM aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
				  WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
ORDER BY 1::text;

-- (report) PL/pgSQL functions without a fixed search_path: each must
-- qualify every name and operator it uses; SQL functions are inlined into
-- the caller's query and C functions name their objects qualified
SELECT p.oid::regprocedure AS plpgsql_without_search_path
FROM pg_proc p JOIN hroe_members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
JOIN pg_language l ON l.oid = p.prolang
WHERE l.lanname = 'plpgsql'
  AND NOT EXISTS (SELECT FROM unnest(p.proconfig) c WHERE c LIKE 'search_path=%')
ORDER BY 1::text;
