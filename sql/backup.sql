--
-- On-demand backups (issue #32): CreateBackup, DescribeBackup, ListBackups,
-- DeleteBackup, RestoreTableFromBackup through the JSON API and the SQL
-- functions; a backup outlives its table; a restore rebuilds the indexes;
-- DynamoDB's errors; a backup is private to the roles that may read it.
--
\set VERBOSITY terse
-- the variable parts of the answers: ARNs' suffixes, times, ids
CREATE FUNCTION pg_temp.masked(j jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT regexp_replace(regexp_replace(regexp_replace(j::text,
		'/backup/[0-9]{14}-[0-9a-f]{8}', '/backup/<id>', 'g'),
		'"(BackupCreationDateTime|CreationDateTime|TableCreationDateTime|RestoreDateTime|LastUpdateToPayPerRequestDateTime)": [0-9.]+', '"\1": "<time>"', 'g'),
		'"TableId": "[0-9a-f-]+"', '"TableId": "<id>"', 'g')::jsonb
$$;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "bk_src", "BillingMode": "PROVISIONED",
  "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6},
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "l", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "KEYS_ONLY"},
                              "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}}],
  "LocalSecondaryIndexes": [{"IndexName": "by_l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
                             "Projection": {"ProjectionType": "ALL"}}]}') #>> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "bk_src", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}');
SELECT hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('bk_src',
	(SELECT jsonb_agg(jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object(
		'pk', jsonb_build_object('S', 'p' || (i % 3)), 'sk', jsonb_build_object('N', i::text),
		'g', jsonb_build_object('S', 'g' || (i % 2)), 'l', jsonb_build_object('S', 'l' || i)))))
	 FROM generate_series(1, 10) i))));

-- CreateBackup answers CREATING; DescribeBackup then AVAILABLE, with the source's details
SELECT pg_temp.masked(hroe.dynamodb('CreateBackup', '{"TableName": "bk_src", "BackupName": "first"}'));
SELECT backup_arn AS arn FROM hroe.backups WHERE backup_name = 'first' \gset
SELECT jsonb_pretty(pg_temp.masked(hroe.dynamodb('DescribeBackup', jsonb_build_object('BackupArn', :'arn'))));
-- the table's ARN names it too; ListBackups filters and pages
SELECT hroe.dynamodb('CreateBackup', jsonb_build_object('TableName', hroe.table_arn('bk_src'), 'BackupName', 'second')) #>> '{BackupDetails, BackupName}';
SELECT hroe.create_backup('bk_src', 'third') ->> 'BackupStatus';
SELECT jsonb_array_length(hroe.dynamodb('ListBackups', '{"TableName": "bk_src"}') -> 'BackupSummaries');
SELECT pg_temp.masked(hroe.dynamodb('ListBackups', '{"TableName": "bk_src", "Limit": 2}'));
SELECT hroe.dynamodb('ListBackups', jsonb_build_object('Limit', 2, 'ExclusiveStartBackupArn',
	hroe.dynamodb('ListBackups', '{"Limit": 2}') ->> 'LastEvaluatedBackupArn')) #> '{BackupSummaries}' @? '$[*] ? (@.BackupName == "third")' AS third_on_page_two;
SELECT jsonb_array_length(hroe.dynamodb('ListBackups', '{"BackupType": "SYSTEM"}') -> 'BackupSummaries') AS system,
       jsonb_array_length(hroe.dynamodb('ListBackups', '{"BackupType": "ALL"}') -> 'BackupSummaries') AS all_types,
       jsonb_array_length(hroe.dynamodb('ListBackups', jsonb_build_object('TimeRangeUpperBound', 1000)) -> 'BackupSummaries') AS before_1970,
       jsonb_array_length(hroe.dynamodb('ListBackups', jsonb_build_object('TimeRangeLowerBound', 1000)) -> 'BackupSummaries') AS since_1970,
       jsonb_array_length(hroe.dynamodb('ListBackups', '{"TableName": "other_table"}') -> 'BackupSummaries') AS other;
SELECT jsonb_array_length(hroe.list_backups('bk_src', p_limit => 1) -> 'BackupSummaries');

-- writes after the backup are not in it
SELECT hroe.dynamodb('PutItem', '{"TableName": "bk_src", "Item": {"pk": {"S": "later"}, "sk": {"N": "1"}, "g": {"S": "g0"}}}');
-- the backup outlives its table (DeleteTable leaves backups)
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "bk_src"}') #>> '{TableDescription, TableStatus}';
SELECT count(*) FROM hroe.backups WHERE table_name = 'bk_src';

-- RestoreTableFromBackup: keys, both indexes, billing and throughput, the items
SELECT jsonb_pretty(pg_temp.masked(hroe.dynamodb('RestoreTableFromBackup',
	jsonb_build_object('TargetTableName', 'bk_restored', 'BackupArn', :'arn')) - 'PostgresTable'));
SELECT pg_temp.masked(hroe.dynamodb('DescribeTable', '{"TableName": "bk_restored"}') -> 'Table' -> 'RestoreSummary');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "bk_restored"}') #>> '{Table, TableStatus}';
SELECT hroe.dynamodb('Query', '{"TableName": "bk_restored", "IndexName": "by_g", "KeyConditionExpression": "g = :g",
	"ExpressionAttributeValues": {":g": {"S": "g0"}}, "Select": "COUNT"}');
SELECT hroe.dynamodb('Query', '{"TableName": "bk_restored", "IndexName": "by_l", "KeyConditionExpression": "pk = :p",
	"ExpressionAttributeValues": {":p": {"S": "p1"}}, "ProjectionExpression": "l"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "bk_restored", "Select": "COUNT"}');
-- overrides: on demand, without the GSI and the LSI
SELECT pg_temp.masked(hroe.restore_table_from_backup('bk_light', :'arn',
	'{"BillingModeOverride": "PAY_PER_REQUEST", "GlobalSecondaryIndexOverride": [], "LocalSecondaryIndexOverride": []}')
	- 'PostgresTable' - 'ProvisionedThroughput');
SELECT hroe.dynamodb('Scan', '{"TableName": "bk_light", "Select": "COUNT"}');
SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'bk_thr', 'BackupArn', :'arn',
	'ProvisionedThroughputOverride', jsonb_build_object('ReadCapacityUnits', 7, 'WriteCapacityUnits', 8),
	'SSESpecificationOverride', jsonb_build_object('Enabled', true))) #> '{TableDescription, ProvisionedThroughput}';

-- errors
SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'bk_restored', 'BackupArn', :'arn'));
SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'bk_x', 'BackupArn', :'arn',
	'GlobalSecondaryIndexOverride', '[{"IndexName": "nope", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]'::jsonb));
SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'bk_x', 'BackupArn', :'arn',
	'BillingModeOverride', 'PAY_PER_REQUEST', 'ProvisionedThroughputOverride', jsonb_build_object('ReadCapacityUnits', 7, 'WriteCapacityUnits', 8)));
SELECT hroe.dynamodb('RestoreTableFromBackup', '{"TargetTableName": "x", "BackupArn": "arn"}');
SELECT hroe.dynamodb('RestoreTableFromBackup', '{"BackupArn": 1}');
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "bk_src", "BackupName": "gone"}');
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "bk_restored", "BackupName": "a b"}');
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "bk_restored"}');
SELECT hroe.dynamodb('DescribeBackup', '{}');
SELECT hroe.dynamodb('DescribeBackup', '{"BackupArn": "arn:aws:dynamodb:us-east-1:123456789012:table/t/backup/0-0"}');
SELECT hroe.dynamodb('ListBackups', '{"Limit": 0, "BackupType": "SOME"}');
SELECT hroe.dynamodb('ListBackups', '{"Limit": 1000}');
SELECT hroe.dynamodb('ListBackups', '{"Limit": -1e30}');
SELECT hroe.dynamodb('ListBackups', '{"ExclusiveStartBackupArn": "arn:aws:dynamodb:us-east-1:123456789012:table/t/backup/0-0"}');
SELECT hroe.create_backup('bk_missing', 'b1');
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "arn:aws:dynamodb:eu-west-1:123456789012:table/bk_restored", "BackupName": "elsewhere"}');
SELECT hroe.dynamodb('ListBackups', '{"TableName": "arn:aws:dynamodb:eu-west-1:123456789012:table/bk_src"}');

-- privileges: a role that may not read a table cannot back it up, and does
-- not see the backups others made
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_bk_reader;
DROP ROLE IF EXISTS regress_hroe_bk_other;
RESET client_min_messages;
CREATE ROLE regress_hroe_bk_reader;
CREATE ROLE regress_hroe_bk_other;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_bk_reader, regress_hroe_bk_other;
GRANT SELECT ON bk_restored TO regress_hroe_bk_reader;
SET ROLE regress_hroe_bk_other;
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "bk_restored", "BackupName": "stolen"}') ->> '__type';
SELECT count(*) FROM hroe.backups;
SELECT count(*) FROM hroe.backup_items;
SELECT hroe.dynamodb('DescribeBackup', jsonb_build_object('BackupArn', :'arn')) ->> '__type';
SELECT hroe.dynamodb('DeleteBackup', jsonb_build_object('BackupArn', :'arn')) ->> '__type';
SELECT jsonb_array_length(hroe.dynamodb('ListBackups', '{}') -> 'BackupSummaries');
-- nor can it slip items into another's backup
INSERT INTO hroe.backup_items SELECT backup_id, '{"pk": {"S": "x"}}' FROM hroe.backups;
INSERT INTO hroe.backup_items (backup_id, item) VALUES (gen_random_uuid(), '{"pk": {"S": "x"}}');
RESET ROLE;
SET ROLE regress_hroe_bk_reader;
SELECT hroe.dynamodb('CreateBackup', '{"TableName": "bk_restored", "BackupName": "readers"}') #>> '{BackupDetails, BackupStatus}';
SELECT backup_name, item_count FROM hroe.backups ORDER BY backup_name;
RESET ROLE;
SELECT backup_name, owner FROM hroe.backups ORDER BY backup_name;

-- DeleteBackup answers DELETED, then the backup is gone
SELECT pg_temp.masked(hroe.dynamodb('DeleteBackup', jsonb_build_object('BackupArn', :'arn')) #> '{BackupDescription, BackupDetails}');
SELECT hroe.dynamodb('DescribeBackup', jsonb_build_object('BackupArn', :'arn')) ->> '__type';
SELECT hroe.dynamodb('DeleteBackup', jsonb_build_object('BackupArn', :'arn')) ->> '__type';
SELECT count(*) FROM hroe.backup_items i WHERE NOT EXISTS (SELECT FROM hroe.backups b WHERE b.backup_id = i.backup_id);

-- clean up
SELECT hroe.delete_backup(backup_arn) #>> '{BackupDetails, BackupStatus}' FROM hroe.backups;
SELECT hroe.delete_table(t) FROM unnest(ARRAY['bk_restored', 'bk_light', 'bk_thr']) t;
REVOKE USAGE ON SCHEMA hroe FROM regress_hroe_bk_reader, regress_hroe_bk_other;
DROP ROLE regress_hroe_bk_reader;
DROP ROLE regress_hroe_bk_other;
