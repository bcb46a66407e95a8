--
-- Point-in-time recovery (issue #32): UpdateContinuousBackups,
-- DescribeContinuousBackups, RestoreTableToPointInTime through the JSON API
-- and the SQL functions; every write path captured (PutItem, UpdateItem,
-- DeleteItem, BatchWriteItem, TransactWriteItems, PartiQL, Time to Live's
-- deletions, plain SQL); a restore equals the table at the instant asked;
-- DynamoDB's errors; disabling drops the history; retention.
--
\set VERBOSITY terse
CREATE FUNCTION pg_temp.masked(j jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT regexp_replace(regexp_replace(j::text,
		'"(CreationDateTime|RestoreDateTime|EarliestRestorableDateTime|LatestRestorableDateTime|LastUpdateToPayPerRequestDateTime)": [0-9.]+', '"\1": "<time>"', 'g'),
		'"TableId": "[0-9a-f-]+"', '"TableId": "<id>"', 'g')::jsonb
$$;
-- the items of a table, as sorted JSON
CREATE FUNCTION pg_temp.items(p_table text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE format('SELECT string_agg(item::jsonb::text, '' '' ORDER BY item::jsonb::text) FROM %s',
				   (SELECT relid FROM hroe.tables WHERE table_name = p_table)) INTO r;
	RETURN coalesce(r, '<none>');
END $$;
SHOW track_commit_timestamp;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pt_src", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}') IS NOT NULL AS created;
SELECT hroe.dynamodb('PutItem', '{"TableName": "pt_src", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "before"}}}');

-- DISABLED by default
SELECT hroe.dynamodb('DescribeContinuousBackups', '{"TableName": "pt_src"}');
-- errors
SELECT hroe.dynamodb('DescribeContinuousBackups', '{"TableName": "nope"}');
SELECT hroe.dynamodb('DescribeContinuousBackups', '{}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "nope", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src"}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {}}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true, "RecoveryPeriodInDays": 0}}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true, "RecoveryPeriodInDays": 36}}');
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": "yes"}}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_r0", "UseLatestRestorableTime": true}');

-- enabled: the table's current items are the base image
SELECT pg_temp.masked(hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true, "RecoveryPeriodInDays": 7}}'));
SELECT pg_temp.masked(hroe.dynamodb('DescribeContinuousBackups', format('{"TableName": "%s"}', hroe.table_arn('pt_src'))::jsonb));
SELECT (d->'PointInTimeRecoveryDescription'->>'EarliestRestorableDateTime')::numeric
       <= (d->'PointInTimeRecoveryDescription'->>'LatestRestorableDateTime')::numeric AS ordered
FROM (SELECT hroe.dynamodb('DescribeContinuousBackups', '{"TableName": "pt_src"}')->'ContinuousBackupsDescription' d) s;
SELECT clock_timestamp() AS t0 \gset
-- every write path, each its own transaction, an instant taken after each
SELECT hroe.dynamodb('PutItem', '{"TableName": "pt_src", "Item": {"pk": {"S": "b"}, "sk": {"N": "2"}, "g": {"S": "x"}}}');
SELECT clock_timestamp() AS t1 \gset
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "pt_src", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}},
  "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "after"}}}');
SELECT clock_timestamp() AS t2 \gset
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"pt_src": [
  {"PutRequest": {"Item": {"pk": {"S": "c"}, "sk": {"N": "3"}}}},
  {"DeleteRequest": {"Key": {"pk": {"S": "b"}, "sk": {"N": "2"}}}}]}}');
SELECT clock_timestamp() AS t3 \gset
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "pt_src", "Item": {"pk": {"S": "d"}, "sk": {"N": "4"}, "exp": {"N": "1700000000"}}}},
  {"Delete": {"TableName": "pt_src", "Key": {"pk": {"S": "c"}, "sk": {"N": "3"}}}}]}');
SELECT clock_timestamp() AS t4 \gset
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "INSERT INTO \"pt_src\" VALUE {''pk'': ''e'', ''sk'': 5}"}');
SELECT clock_timestamp() AS t5 \gset
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "pt_src", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}');
SELECT clock_timestamp() AS t6 \gset
-- Time to Live's deletion of the expired item d
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "pt_src", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}') IS NOT NULL AS ttl;
SELECT hroe.delete_expired_items('pt_src');
SELECT clock_timestamp() AS t7 \gset
-- a rolled-back write leaves nothing, a write that changes nothing no version
BEGIN;
SELECT hroe.dynamodb('PutItem', '{"TableName": "pt_src", "Item": {"pk": {"S": "z"}, "sk": {"N": "9"}}}');
ROLLBACK;
SELECT hroe.dynamodb('PutItem', '{"TableName": "pt_src", "Item": {"pk": {"S": "e"}, "sk": {"N": "5"}}}');
SELECT count(*) AS versions FROM hroe.pitr_history;
SELECT pg_temp.items('pt_src') AS now;

-- each restore equals the table at its instant
SELECT i, pg_temp.items(r) FROM (VALUES (0, :'t0'), (1, :'t1'), (2, :'t2'), (3, :'t3'), (4, :'t4'), (5, :'t5'), (6, :'t6'), (7, :'t7')) v(i, t),
  LATERAL (SELECT hroe.restore_table_to_point_in_time('pt_r' || i, 'pt_src', t::timestamptz) IS NOT NULL, 'pt_r' || i AS r) x
ORDER BY i;
-- the restored table's description: the source's keys and indexes, its RestoreSummary
SELECT pg_temp.masked(hroe.dynamodb('DescribeTable', '{"TableName": "pt_r3"}')->'Table') - 'TableArn' - 'TableSizeBytes' - 'ItemCount';
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "pt_r3"}')->'Table'->'RestoreSummary'->>'SourceTableArn' = hroe.table_arn('pt_src') AS source_arn,
       (hroe.dynamodb('DescribeTable', '{"TableName": "pt_r3"}')->'Table'->'RestoreSummary'->>'RestoreDateTime')::numeric
         = round(EXTRACT(epoch FROM :'t3'::timestamptz), 6) AS restore_time;
-- its index is built
SELECT hroe.dynamodb('Query', '{"TableName": "pt_r1", "IndexName": "by_g", "KeyConditionExpression": "g = :g",
  "ExpressionAttributeValues": {":g": {"S": "x"}}}')->'Count' AS by_g;
-- through the JSON API: SourceTableArn, RestoreDateTime in seconds, the overrides
SELECT pg_temp.masked(hroe.dynamodb('RestoreTableToPointInTime', format('{"SourceTableArn": "%s", "TargetTableName": "pt_api", "RestoreDateTime": %s,
  "BillingModeOverride": "PROVISIONED", "ProvisionedThroughputOverride": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 3},
  "GlobalSecondaryIndexOverride": []}', hroe.table_arn('pt_src'), EXTRACT(epoch FROM :'t2'::timestamptz))::jsonb)->'TableDescription'->'RestoreSummary') - 'SourceTableArn';
SELECT pg_temp.items('pt_api');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "pt_api"}')->'Table'->'ProvisionedThroughput'->'WriteCapacityUnits' AS wcu,
       hroe.dynamodb('DescribeTable', '{"TableName": "pt_api"}')->'Table' ? 'GlobalSecondaryIndexes' AS has_gsi;
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_latest", "UseLatestRestorableTime": true}')->'TableDescription'->'RestoreSummary'->'RestoreInProgress';
SELECT pg_temp.items('pt_latest') = pg_temp.items('pt_src') AS latest_is_now;

-- errors
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_r1", "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "nope", "TargetTableName": "pt_x", "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_r1", "TargetTableName": "pt_x", "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_x", "RestoreDateTime": 1000}')->>'__type';
SELECT hroe.dynamodb('RestoreTableToPointInTime', format('{"SourceTableName": "pt_src", "TargetTableName": "pt_x", "RestoreDateTime": %s}',
  EXTRACT(epoch FROM now() + interval '1 hour'))::jsonb)->>'__type';
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_x"}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_x", "RestoreDateTime": 1000, "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"TargetTableName": "pt_x", "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "x", "UseLatestRestorableTime": true}');
SELECT hroe.dynamodb('RestoreTableToPointInTime', '{"SourceTableName": "pt_src", "TargetTableName": "pt_x", "UseLatestRestorableTime": "yes"}');
-- the SQL function's errors (the window's times left out)
\set VERBOSITY sqlstate
SELECT hroe.restore_table_to_point_in_time('pt_x', 'pt_src', now() - interval '1 day');
\set VERBOSITY terse
SELECT hroe.update_continuous_backups('pt_src', NULL);

-- a role that may not read the table may not restore it, nor enable or disable
CREATE ROLE regress_hroe_pitr_other;
GRANT USAGE, CREATE ON SCHEMA public TO regress_hroe_pitr_other;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_pitr_other;
SET ROLE regress_hroe_pitr_other;
SELECT hroe.restore_table_to_point_in_time('pt_x', 'pt_src', NULL, true);
SELECT hroe.update_continuous_backups('pt_src', false);
SELECT count(*) FROM hroe.pitr_history;
SELECT count(*) FROM hroe.pitr_base;
RESET ROLE;

-- a table's owner (with the grants that let it create tables, as the gateway's
-- role in doc/gateway.md) needs none of its own to enable, restore and disable
GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes TO regress_hroe_pitr_other;
SET ROLE regress_hroe_pitr_other;
SELECT hroe.create_table('pt_own', 'pk') IS NOT NULL AS created;
SELECT hroe.put_item('pt_own', '{"pk": {"S": "a"}}'::jsonb::hroe.item) IS NULL AS put;
SELECT hroe.update_continuous_backups('pt_own', true, 1) #>> '{PointInTimeRecoveryDescription, PointInTimeRecoveryStatus}' AS status;
SELECT hroe.put_item('pt_own', '{"pk": {"S": "b"}}'::jsonb::hroe.item) IS NULL AS put;
SELECT hroe.restore_table_to_point_in_time('pt_own_copy', 'pt_own', NULL, true) IS NOT NULL AS restored;
SELECT pg_temp.items('pt_own_copy');
SELECT count(*) AS visible_versions FROM hroe.pitr_history;
SELECT hroe.update_continuous_backups('pt_own', false) #>> '{PointInTimeRecoveryDescription, PointInTimeRecoveryStatus}' AS status;
RESET ROLE;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pt_own"}') IS NOT NULL AS deleted, hroe.dynamodb('DeleteTable', '{"TableName": "pt_own_copy"}') IS NOT NULL AS deleted;

-- retention: versions older than the window fold into the base image
UPDATE hroe.pitr SET enabled_at = enabled_at - interval '2 days', base_at = base_at - interval '2 days', recovery_days = 1;
UPDATE hroe.pitr_history SET committed_at = pg_xact_commit_timestamp(xid) - interval '2 days' WHERE write_seq < (SELECT max(write_seq) FROM hroe.pitr_history);
SELECT hroe.pitr_compact(interval '0');
SELECT count(*) AS versions_left FROM hroe.pitr_history;
SELECT hroe.restore_table_to_point_in_time('pt_compacted', 'pt_src', NULL, true) IS NOT NULL AS restored;
SELECT pg_temp.items('pt_compacted') = pg_temp.items('pt_src') AS compacted_is_now;

-- disabling drops the trigger, the history and the base image
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "pt_src", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": false}}');
SELECT count(*) FROM hroe.pitr_history;
SELECT count(*) FROM hroe.pitr_base;
SELECT count(*) FROM pg_trigger WHERE tgname = 'hroe_pitr';
-- the trigger cannot be pointed at another table's history
SELECT hroe.update_continuous_backups('pt_src', true) IS NOT NULL AS enabled;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pt_other", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]}') IS NOT NULL AS created;
DO $$ BEGIN
	EXECUTE format('CREATE TRIGGER forged AFTER INSERT ON %s FOR EACH ROW EXECUTE FUNCTION hroe.pitr_capture(%L, ''pk'', ''sk'')',
		(SELECT relid FROM hroe.tables WHERE table_name = 'pt_other'), (SELECT pitr_id FROM hroe.pitr WHERE table_name = 'pt_src'));
END $$;
INSERT INTO pt_other (item) VALUES ('{"pk": {"S": "f"}, "sk": {"N": "1"}}'::jsonb::hroe.item);
-- the key function of any input
SELECT hroe.pitr_key(NULL, 'pk', '') IS NULL AS null_item, hroe.pitr_key('{"pk": {"S": "a"}}'::jsonb::hroe.item, NULL, NULL) IS NULL AS null_names,
       hroe.pitr_key('{"pk": {"S": "a"}, "x": {"N": "1"}}'::jsonb::hroe.item, 'pk', '') = hroe.pitr_key('{"pk": {"S": "a"}}'::jsonb::hroe.item, 'pk', '') AS same_key,
       hroe.pitr_key('{"x": {"N": "1"}}'::jsonb::hroe.item, 'pk', 'sk') IS NOT NULL AS keyless;
-- DeleteTable: its system backup keeps the history (hroe.pitr_table_deleted);
-- once the backup is deleted, the history goes with the next compaction
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pt_src"}') IS NOT NULL AS deleted;
SELECT count(*) AS protected FROM hroe.pitr;
SELECT hroe.pitr_compact() >= 0 AS compacted;
SELECT count(*) AS base_kept FROM hroe.pitr_base;
SELECT backup_type, backup_name, expires_at = created_at + interval '35 days' AS expires_in_35_days FROM hroe.backups;
SELECT hroe.delete_backup(backup_arn) IS NOT NULL AS backup_deleted FROM hroe.backups WHERE backup_type = 'SYSTEM';
SELECT hroe.pitr_compact() >= 0 AS compacted;
SELECT count(*) AS base_left FROM hroe.pitr_base;
DROP OWNED BY regress_hroe_pitr_other;
DROP ROLE regress_hroe_pitr_other;
-- the restored tables
SELECT count(hroe.delete_table(table_name)) AS restored_tables_deleted FROM hroe.tables WHERE table_name LIKE 'pt\_%';
