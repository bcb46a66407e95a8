--
-- The extension itself and its HR/OE showcase (hroe_hr): schema, version,
-- and the UTF8 requirement.
--
SELECT extname, extversion, nspname AS schema, extrelocatable
FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE extname IN ('hroe', 'hroe_hr') ORDER BY extname;

SELECT pg_catalog.getdatabaseencoding();

-- Every object of hroe and hroe_hr is documented (COMMENT ON).
SELECT pg_describe_object(classid, objid, 0) AS undocumented
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass
  AND d.refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('hroe', 'hroe_hr'))
  AND d.deptype = 'e'
  AND d.classid IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass,
                    'pg_class'::regclass, 'pg_namespace'::regclass, 'pg_aggregate'::regclass)
  AND pg_catalog.obj_description(d.objid, d.classid::regclass::name) IS NULL
  AND NOT (d.classid = 'pg_type'::regclass AND EXISTS
           (SELECT 1 FROM pg_type t WHERE t.oid = d.objid AND (t.typelem <> 0 AND t.typlen = -1 OR t.typrelid <> 0)))
ORDER BY 1;

-- Implementation details say so: their comments start with "internal:"
-- (doc/architecture.md).  Per schema, the functions users call and those
-- they do not; and no public name the README lists is internal.
SELECT n.nspname AS schema,
       count(*) FILTER (WHERE pg_catalog.obj_description(p.oid, 'pg_proc') NOT LIKE 'internal: %') AS public,
       count(*) FILTER (WHERE pg_catalog.obj_description(p.oid, 'pg_proc') LIKE 'internal: %') AS internal
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname IN ('hroe', 'hroe_normalized', 'hroe_single', 'hroe_multi')
GROUP BY 1 ORDER BY 1;
SELECT p.oid::regprocedure AS public_but_internal
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE pg_catalog.obj_description(p.oid, 'pg_proc') LIKE 'internal: %'
  AND (n.nspname = 'hroe' AND p.proname IN ('key', 'create_table', 'create_index', 'get_item', 'put_item',
        'update_item', 'delete_item', 'query', 'scan', 'batch_get_item', 'batch_write_item',
        'transact_write_items', 'shard_count', 'shard_of', 'random_shard', 'sharded_query', 'load',
        'compare', 'dynamodb', 'verify')
       OR n.nspname <> 'hroe' AND p.proname IN ('employee_by_id', 'employee_by_name',
        'employee_current_job', 'customer_orders', 'open_orders', 'employees_hired_since',
        'warehouse_employees', 'product_order_items', 'rep_customers', 'rep_orders',
        'employees_by_title', 'product_inventory_at', 'product_total_inventory', 'rep_ranking',
        'employee_phones', 'customer_phones', 'product_inventories', 'verify'))
ORDER BY 1;

-- A database whose encoding is not UTF8 is refused with a clear error.
\set regress_db :DBNAME
CREATE DATABASE hroe_latin1 ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C';
\c hroe_latin1
CREATE EXTENSION hroe;  -- fails: not UTF8
\c :regress_db
DROP DATABASE hroe_latin1;
