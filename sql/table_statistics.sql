--
-- DescribeTable's ItemCount, TableSizeBytes and each index's ItemCount and
-- IndexSizeBytes (issue #29, item 10): a small table is counted exactly on
-- every call; a large one (over 128 pages) shows its last refresh
-- (hroe.refresh_table_statistics; DynamoDB refreshes them about every six
-- hours), PostgreSQL's estimates before the first, and DescribeTable never
-- reads it through (it read every item on every call)
--
\set VERBOSITY terse
CREATE SCHEMA test_table_statistics;
SET search_path = test_table_statistics, public;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "stats", "BillingMode": "PAY_PER_REQUEST",
	"AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "G", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
	"GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "G", "KeyType": "HASH"}],
								"Projection": {"ProjectionType": "KEYS_ONLY"}}]}') -> 'TableDescription' -> 'ItemCount' AS new_table;
CREATE FUNCTION sizes() RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_build_object('items', d -> 'ItemCount', 'bytes', d -> 'TableSizeBytes',
							  'index_items', d -> 'GlobalSecondaryIndexes' -> 0 -> 'ItemCount',
							  'index_bytes', d -> 'GlobalSecondaryIndexes' -> 0 -> 'IndexSizeBytes')
	FROM (SELECT hroe.dynamodb('DescribeTable', '{"TableName": "stats"}') -> 'Table' AS d) s $$;
-- the items the table's heap has read so far in this transaction
CREATE FUNCTION tuples_read() RETURNS bigint LANGUAGE sql AS $$
	SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) FROM pg_stat_xact_user_tables
	WHERE relid = 'test_table_statistics.stats'::regclass $$;

-- small: exact at once
SELECT count(*) FROM (SELECT hroe.put_item('stats', jsonb_build_object('PK', jsonb_build_object('S', 'k' || i),
																		'G', jsonb_build_object('S', 'g'))::text::hroe.item)
					  FROM generate_series(1, 10) i) p;
SELECT sizes();

-- large: 13,334 items (two thirds in the GSI), about 1.9 MB
INSERT INTO stats (item)
SELECT (jsonb_build_object('PK', jsonb_build_object('S', 'm' || i), 'v', jsonb_build_object('S', repeat('v', 80)))
	   || CASE WHEN i % 3 <> 0 THEN '{"G": {"S": "g"}}'::jsonb ELSE '{}' END)::text::hroe.item
FROM generate_series(1, 13324) i;
SELECT pg_relation_size('stats') > 128 * current_setting('block_size')::bigint AS large;
-- never refreshed: PostgreSQL's estimates, here after ANALYZE
ANALYZE stats;
SELECT sizes() -> 'items' AS estimated_items, (sizes() -> 'index_items')::bigint BETWEEN 8000 AND 10000 AS estimated_index_items;
-- refreshed: exact
SELECT hroe.refresh_table_statistics('stats');
SELECT sizes();
SELECT s.index_name, s.item_count FROM hroe.table_statistics s WHERE s.table_name = 'stats' ORDER BY 1;
-- later writes show at the next refresh, as DynamoDB's
SELECT count(*) FROM hroe.delete_item('stats', '{"PK": {"S": "k1"}}');
SELECT sizes() -> 'items' AS before_refresh;
SELECT 'stats' IN (SELECT hroe.tables_with_stale_statistics('0 seconds')) AS stale;
-- (other tests' large tables of the same role, if any, are refreshed too)
SELECT hroe.refresh_stale_table_statistics('0 seconds') >= 1 AS refreshed;
SELECT 'stats' IN (SELECT hroe.tables_with_stale_statistics('1 hour')) AS still_stale;
SELECT sizes() -> 'items' AS after_refresh;
SELECT hroe.refresh_stale_table_statistics() AS refreshed_again;

-- DescribeTable reads no item of a large table: counted in one transaction
BEGIN;
SELECT tuples_read() AS before \gset
SELECT sizes() IS NOT NULL AS described;
SELECT hroe.dynamodb('ListTables', '{}') ? 'TableNames' AS listed;
SELECT tuples_read() - :before AS items_read;
COMMIT;

-- only the table's owner refreshes its statistics
CREATE ROLE regress_hroe_statistics_other;
GRANT USAGE ON SCHEMA hroe, test_table_statistics TO regress_hroe_statistics_other;
SET ROLE regress_hroe_statistics_other;
SELECT hroe.refresh_table_statistics('stats');
SELECT hroe.refresh_stale_table_statistics('0 seconds') AS refreshed_by_other;
DELETE FROM hroe.table_statistics;
UPDATE hroe.table_statistics SET item_count = 0;
RESET ROLE;
SELECT count(*) FROM hroe.table_statistics WHERE table_name = 'stats' AND item_count > 0;
DROP OWNED BY regress_hroe_statistics_other;
DROP ROLE regress_hroe_statistics_other;
-- DeleteTable drops them
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "stats"}') -> 'TableDescription' ->> 'TableStatus' AS status;
SELECT count(*) FROM hroe.table_statistics WHERE table_name = 'stats';
