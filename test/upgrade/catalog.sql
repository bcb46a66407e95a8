-- test/upgrade/catalog.sql: one line per property of every object of the
-- extensions hroe and hroe_hr (the HR/OE showcase), each line led by its
-- extension's name, for comparing an updated installation with a fresh one
-- (test/t_upgrade.sh).  OIDs, creation times and object order are left out.
WITH members AS (
	SELECT e.extname AS ext, d.classid, d.objid FROM pg_catalog.pg_depend d
	JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
	  AND e.extname IN ('hroe', 'hroe_hr')
	  AND d.deptype = 'e'),
lines AS (
	-- every member by its description, with its comment
	SELECT m.ext || ' | ' || pg_catalog.pg_describe_object(m.classid, m.objid, 0)
		   || ' | comment: ' || coalesce(pg_catalog.obj_description(m.objid, c.relname), '-') AS line
	FROM members m JOIN pg_catalog.pg_class c ON c.oid = m.classid
	UNION ALL
	-- functions: arguments, result, properties, body (a BEGIN ATOMIC one's too)
	-- or C symbol and library, settings, ACL
	SELECT m.ext || ' | ' || format('function %s(%s) returns %s | %s %s %s %s secdef=%s | config %s | acl %s | body md5 %s%s',
				  p.oid::pg_catalog.regproc, pg_catalog.pg_get_function_arguments(p.oid),
				  pg_catalog.pg_get_function_result(p.oid), l.lanname, p.provolatile,
				  CASE WHEN p.proisstrict THEN 'strict' ELSE 'called-on-null' END, p.proparallel,
				  p.prosecdef, p.proconfig, p.proacl, pg_catalog.md5(coalesce(pg_catalog.pg_get_function_sqlbody(p.oid), p.prosrc)),
				  coalesce(' | library ' || p.probin, ''))
	FROM members m JOIN pg_catalog.pg_proc p ON m.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND p.oid = m.objid
	JOIN pg_catalog.pg_language l ON l.oid = p.prolang
	UNION ALL
	-- relations: kind, row security, ACL
	SELECT m.ext || ' | ' || format('relation %s | kind %s | rls %s force %s | acl %s', r.oid::pg_catalog.regclass, r.relkind,
				  r.relrowsecurity, r.relforcerowsecurity, r.relacl)
	FROM members m JOIN pg_catalog.pg_class r ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND r.oid = m.objid
	UNION ALL
	-- columns with type, nullability, default or generation (not their
	-- position: an update adds a column where CREATE TABLE lists it earlier)
	SELECT m.ext || ' | ' || format('column %s.%s | %s | not null %s | %s %s | comment %s', a.attrelid::pg_catalog.regclass, a.attname,
				  pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attgenerated,
				  pg_catalog.pg_get_expr(d.adbin, d.adrelid), coalesce(pg_catalog.col_description(a.attrelid, a.attnum), '-'))
	FROM members m JOIN pg_catalog.pg_attribute a ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND a.attrelid = m.objid
	LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE a.attnum > 0 AND NOT a.attisdropped
	UNION ALL
	-- constraints, indexes, triggers and policies of the member tables
	SELECT m.ext || ' | ' || format('constraint %s on %s | %s', k.conname, k.conrelid::pg_catalog.regclass,
				  pg_catalog.pg_get_constraintdef(k.oid))
	FROM members m JOIN pg_catalog.pg_constraint k ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND k.conrelid = m.objid
	UNION ALL
	SELECT m.ext || ' | ' || 'index ' || pg_catalog.pg_get_indexdef(i.indexrelid)
	FROM members m JOIN pg_catalog.pg_index i ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND i.indrelid = m.objid
	UNION ALL
	SELECT m.ext || ' | ' || format('trigger %s', pg_catalog.pg_get_triggerdef(t.oid))
	FROM members m JOIN pg_catalog.pg_trigger t ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND t.tgrelid = m.objid
	WHERE NOT t.tgisinternal
	UNION ALL
	SELECT m.ext || ' | ' || format('policy %s on %s | %s %s roles %s | using %s | check %s | comment %s', p.polname, p.polrelid::pg_catalog.regclass,
				  p.polcmd, p.polpermissive, p.polroles::pg_catalog.regrole[],
				  pg_catalog.pg_get_expr(p.polqual, p.polrelid), pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid),
				  coalesce(pg_catalog.obj_description(p.oid, 'pg_policy'), '-'))
	FROM members m JOIN pg_catalog.pg_policy p ON m.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND p.polrelid = m.objid
	UNION ALL
	-- schemas' ACLs, and what the extension dumps
	SELECT m.ext || ' | ' || format('schema %s | acl %s', n.nspname, n.nspacl)
	FROM members m JOIN pg_catalog.pg_namespace n ON m.classid = 'pg_catalog.pg_namespace'::pg_catalog.regclass AND n.oid = m.objid
	UNION ALL
	-- the extensions: version, schema, what they require, comment
	SELECT format('%s | extension version %s schema %s relocatable %s requires %s | comment %s', e.extname, e.extversion,
				  e.extnamespace::pg_catalog.regnamespace, e.extrelocatable,
				  (SELECT pg_catalog.string_agg(r.extname, ', ' ORDER BY r.extname) FROM pg_catalog.pg_depend d
				   JOIN pg_catalog.pg_extension r ON r.oid = d.refobjid
				   WHERE d.classid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.objid = e.oid
					 AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass),
				  coalesce(pg_catalog.obj_description(e.oid, 'pg_extension'), '-'))
	FROM pg_catalog.pg_extension e WHERE e.extname IN ('hroe', 'hroe_hr')
	UNION ALL
	SELECT e.extname || ' | ' || format('config dump %s', u.c::pg_catalog.regclass) || coalesce(' where ' || w.w, '')
	FROM pg_catalog.pg_extension e,
		 unnest(e.extconfig, e.extcondition) AS u(c, w0)
		 CROSS JOIN LATERAL (SELECT nullif(u.w0, '') AS w) w
	WHERE e.extname IN ('hroe', 'hroe_hr'))
SELECT line FROM lines ORDER BY line COLLATE "C";
