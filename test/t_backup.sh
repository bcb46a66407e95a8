#!/usr/bin/env bash
# test/t_backup.sh: an on-demand backup (CreateBackup) is held inside
# PostgreSQL, so it survives a crash (kill -9 of the postmaster, then crash
# recovery) and pg_dump/pg_restore into another database, and outlives its
# table: restored after the source was changed and then deleted, the table
# answers item for item as the source did when the backup was made (a Scan,
# every GSI Query, every LSI Query).  Starts a throwaway cluster of its own
# (test/lib_cluster.sh), never touching the suite's.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
. test/lib_cluster.sh
cluster_setup
dump=$(mktemp)
trap 'rm -f "$dump"; cluster_cleanup' EXIT
cluster_init bk "$(free_port $((${PGPORT:-5631} + 3)))"
cluster_start bk
q() { cluster_psql bk -d "$1" -c "$2"; }
q postgres "CREATE DATABASE hroe_bk" >/dev/null
q postgres "CREATE DATABASE hroe_bk_copy" >/dev/null
cluster_psql bk -d hroe_bk >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "orders", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "status", "AttributeType": "S"}, {"AttributeName": "d", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "by_status", "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                              {"AttributeName": "d", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}],
  "LocalSecondaryIndexes": [{"IndexName": "by_date", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                             {"AttributeName": "d", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}]}');
-- 600 items: one in four without a status (outside the sparse GSI), some long
SELECT count(*) FROM generate_series(1, 600) i,
	hroe.put_item('orders', (jsonb_build_object('pk', jsonb_build_object('S', 'c' || (i % 20)),
		'sk', jsonb_build_object('N', i::text), 'd', jsonb_build_object('S', '2026-' || lpad((i % 97)::text, 3, '0')),
		'n', jsonb_build_object('N', (i * 1.5)::text))
		|| CASE WHEN i % 4 < 3 THEN jsonb_build_object('status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[i % 4 + 1])) ELSE '{}' END
		|| CASE WHEN i % 50 = 0 THEN jsonb_build_object('note', jsonb_build_object('S', repeat(md5(i::text), 300))) ELSE '{}' END)::hroe.item);
SQL
# a table's answers: every item (Scan), every GSI and LSI query, items sorted
answers() {
	q "$1" "SELECT string_agg(a, E'\n' ORDER BY a) FROM (
	  SELECT 'scan ' || x::text a FROM jsonb_array_elements(hroe.dynamodb('Scan', '{\"TableName\": \"$2\"}') -> 'Items') x
	  UNION ALL
	  SELECT 'gsi ' || s || ' ' || x::text FROM unnest(ARRAY['OPEN', 'SHIPPED', 'CLOSED']) s,
	    jsonb_array_elements(hroe.dynamodb('Query', jsonb_build_object('TableName', '$2', 'IndexName', 'by_status',
	      'KeyConditionExpression', '#s = :s AND d > :d', 'ExpressionAttributeNames', '{\"#s\": \"status\"}'::jsonb,
	      'ExpressionAttributeValues', jsonb_build_object(':s', jsonb_build_object('S', s), ':d', '{\"S\": \"2026-010\"}'::jsonb))) -> 'Items') x
	  UNION ALL
	  SELECT 'lsi ' || c || ' ' || x::text FROM generate_series(0, 19) c,
	    jsonb_array_elements(hroe.dynamodb('Query', jsonb_build_object('TableName', '$2', 'IndexName', 'by_date',
	      'KeyConditionExpression', 'pk = :p', 'ExpressionAttributeValues', jsonb_build_object(':p', jsonb_build_object('S', 'c' || c)))) -> 'Items') x) s"
}
answers hroe_bk orders >"$dump.before"
lines=$(wc -l <"$dump.before")
[ "$lines" -ge 1500 ] || { echo "too few answers on the source: $lines"; exit 1; }
arn=$(q hroe_bk "SELECT hroe.dynamodb('CreateBackup', '{\"TableName\": \"orders\", \"BackupName\": \"nightly\"}') #>> '{BackupDetails, BackupArn}'")
echo "backup $arn of $lines answers"
# the source changes after the backup, then is deleted
q hroe_bk "SELECT hroe.dynamodb('PutItem', '{\"TableName\": \"orders\", \"Item\": {\"pk\": {\"S\": \"c1\"}, \"sk\": {\"N\": \"1\"}, \"status\": {\"S\": \"OPEN\"}, \"d\": {\"S\": \"2026-050\"}}}');
	SELECT hroe.dynamodb('DeleteItem', '{\"TableName\": \"orders\", \"Key\": {\"pk\": {\"S\": \"c2\"}, \"sk\": {\"N\": \"2\"}}}')" >/dev/null
answers hroe_bk orders >"$dump.changed"
! cmp -s "$dump.before" "$dump.changed" || { echo "the writes after the backup changed nothing"; exit 1; }
q hroe_bk "SELECT hroe.dynamodb('DeleteTable', '{\"TableName\": \"orders\"}') ->> 'TableDescription' IS NOT NULL" >/dev/null

# a crash: the committed backup is there after recovery
cluster_kill bk
cluster_start bk
got=$(q hroe_bk "SELECT hroe.dynamodb('DescribeBackup', jsonb_build_object('BackupArn', '$arn')) #>> '{BackupDescription, BackupDetails, BackupStatus}'")
[ "$got" = AVAILABLE ] || { echo "after the crash, the backup is: $got"; exit 1; }
echo "ok   after kill -9 and crash recovery, the backup is AVAILABLE"
q hroe_bk "SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'orders_restored', 'BackupArn', '$arn')) #>> '{TableDescription, RestoreSummary, SourceBackupArn}'" >/dev/null
answers hroe_bk orders_restored >"$dump.restored"
cmp -s "$dump.before" "$dump.restored" ||
	{ echo "the restored table answers otherwise:"; diff "$dump.before" "$dump.restored" | head; exit 1; }
echo "ok   restored after the crash and the source's deletion: $lines answers (Scan, GSI, LSI) as at the backup"

# pg_dump and pg_restore into another database: the backup comes along
cluster_as_owner "$CLUSTER_BIN/pg_dump" -h "$CLUSTER_WORK/bk" -p "$(cluster_port bk)" -U postgres -Fc -d hroe_bk >"$dump.dump"
cluster_as_owner "$CLUSTER_BIN/pg_restore" -h "$CLUSTER_WORK/bk" -p "$(cluster_port bk)" -U postgres \
	--single-transaction --exit-on-error -d hroe_bk_copy <"$dump.dump"
q hroe_bk_copy "SELECT hroe.dynamodb('RestoreTableFromBackup', jsonb_build_object('TargetTableName', 'orders_again', 'BackupArn', '$arn')) ->> '__type'" >"$dump.err"
[ -z "$(tr -d '\n' <"$dump.err")" ] || { echo "restore in the dumped copy: $(cat "$dump.err")"; exit 1; }
answers hroe_bk_copy orders_again >"$dump.again"
cmp -s "$dump.before" "$dump.again" || { echo "the table restored from the dumped backup answers otherwise"; diff "$dump.before" "$dump.again" | head; exit 1; }
echo "ok   pg_dump/pg_restore: the backup restores in the copy, $lines answers as at the backup"
