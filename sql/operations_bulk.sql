-- Many writes in one transaction: plain puts take no per-item lock, so a
-- transaction may write more items than PostgreSQL's lock table holds
-- (max_locks_per_transaction x max_connections, 6,400 by default).
SELECT hroe.create_table('bulk', 'PK', 'S', 'SK', 'N');
SHOW max_locks_per_transaction;
BEGIN;
-- 30,000 new items through the SQL operation
SELECT count(hroe.put_item('bulk', jsonb_build_object(
	'PK', jsonb_build_object('S', 'p' || (g % 100)),
	'SK', jsonb_build_object('N', g::text),
	'v', jsonb_build_object('N', '1'))::hroe.item))
FROM generate_series(1, 30000) g;
-- and 10,000 of them replaced through the JSON API
SELECT count(*) FILTER (WHERE r = '{}'::jsonb) AS answered_empty
FROM (SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'bulk', 'Item', jsonb_build_object(
	'PK', jsonb_build_object('S', 'p' || (g % 100)),
	'SK', jsonb_build_object('N', g::text),
	'v', jsonb_build_object('N', '2')))) AS r
	FROM generate_series(1, 10000) g) s;
-- no item key lock is held
SELECT count(*) AS advisory_locks FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid();
COMMIT;
SELECT item::jsonb -> 'v' ->> 'N' AS v, count(*) FROM bulk GROUP BY 1 ORDER BY 1;
-- conditional writes still lock their keys (until the transaction ends)
BEGIN;
SELECT attributes FROM hroe.put_item('bulk', jsonb_build_object(
	'PK', jsonb_build_object('S', 'p1'), 'SK', jsonb_build_object('N', '1'),
	'v', jsonb_build_object('N', '3'))::hroe.item, 'ALL_OLD', 'NONE', 'v = :two', NULL,
	jsonb_build_object(':two', jsonb_build_object('N', '2')));
SELECT count(*) AS advisory_locks FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid();
COMMIT;
SELECT hroe.delete_table('bulk');
