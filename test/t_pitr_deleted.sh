#!/usr/bin/env bash
# test/t_pitr_deleted.sh: a deleted table's point-in-time recovery
# (doc/backups.md).  DeleteTable of a table with point-in-time recovery
# leaves a system backup, kept 35 days: ListBackups lists it with
# BackupType SYSTEM (and ALL, not USER), named <table>$DeletedTableBackup,
# with its BackupExpiryDateTime; RestoreTableToPointInTime with the deleted
# table's SourceTableArn restores it as it was just before the deletion
# (UseLatestRestorableTime) and as it was at an earlier instant of its
# recovery window, each equal item for item to the table read at that
# instant; RestoreTableFromBackup of the system backup too; a time after
# the deletion is refused (InvalidRestoreTimeException), SourceTableName
# of the deleted table finds none (TableNotFoundException), another role
# does not see it nor forges a system backup naming its history; a table
# deleted without point-in-time recovery leaves
# none.  Runs inside the test cluster (PG* variables set,
# track_commit_timestamp on).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
scratch_db hroe_t_pitr_deleted
fail() { echo "FAIL $*"; exit 1; }
[ "$(q 'SHOW track_commit_timestamp')" = on ] || fail "needs track_commit_timestamp = on"
ddb() { q "SELECT hroe.dynamodb('$1', ('$2')::jsonb)"; }
put() { ddb PutItem "{\"TableName\": \"gone\", \"Item\": {\"pk\": {\"S\": \"$1\"}, \"v\": {\"N\": \"$2\"}}}" >/dev/null; }
items() { # table: its items, sorted
	q "SELECT coalesce(jsonb_agg(hroe.item_to_jsonb(item) ORDER BY item::text), '[]')
	   FROM $(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = '$1'")"
}
epoch() { q "SELECT extract(epoch FROM '$1'::timestamptz)"; }

ddb CreateTable '{"TableName": "gone", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
for i in 1 2 3 4; do put "k$i" "$i"; done
ddb UpdateContinuousBackups '{"TableName": "gone", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}}' >/dev/null
arn=$(q "SELECT hroe.table_arn('gone')")
put k5 5
ddb DeleteItem '{"TableName": "gone", "Key": {"pk": {"S": "k1"}}}' >/dev/null
sleep 0.02
t1=$(q "SELECT clock_timestamp()")
at_t1=$(items gone)
sleep 0.02
put k2 20
put k6 6
ddb DeleteItem '{"TableName": "gone", "Key": {"pk": {"S": "k3"}}}' >/dev/null
before=$(items gone)
[ "$before" != "$at_t1" ] || fail "no change after T1"
ddb DeleteTable '{"TableName": "gone"}' >/dev/null
after_delete=$(q "SELECT clock_timestamp()")

# ListBackups: SYSTEM and ALL list it, USER does not
sys=$(ddb ListBackups '{"BackupType": "SYSTEM"}')
[ "$(jq '.BackupSummaries | length' <<<"$sys")" = 1 ] || fail "ListBackups SYSTEM: $sys"
[ "$(jq -r '.BackupSummaries[0].BackupName' <<<"$sys")" = 'gone$DeletedTableBackup' ] || fail "BackupName: $sys"
[ "$(jq -r '.BackupSummaries[0].BackupType' <<<"$sys")" = SYSTEM ] || fail "BackupType: $sys"
[ "$(jq -r '.BackupSummaries[0].TableArn' <<<"$sys")" = "$arn" ] || fail "TableArn: $sys"
jq -e '.BackupSummaries[0] | (.BackupExpiryDateTime - .BackupCreationDateTime | . > 35*86400 - 1 and . < 35*86400 + 1)' <<<"$sys" >/dev/null ||
	fail "BackupExpiryDateTime not 35 days after its creation: $sys"
barn=$(jq -r '.BackupSummaries[0].BackupArn' <<<"$sys")
[ "$(ddb ListBackups '{"BackupType": "USER"}' | jq '.BackupSummaries | length')" = 0 ] || fail "ListBackups USER lists the system backup"
[ "$(ddb ListBackups '{}' | jq '.BackupSummaries | length')" = 0 ] || fail "ListBackups (USER by default) lists the system backup"
[ "$(ddb ListBackups '{"BackupType": "ALL"}' | jq '.BackupSummaries | length')" = 1 ] || fail "ListBackups ALL"
[ "$(ddb DescribeBackup "{\"BackupArn\": \"$barn\"}" | jq -r .BackupDescription.BackupDetails.BackupType)" = SYSTEM ] || fail "DescribeBackup"

# RestoreTableToPointInTime by the deleted table's ARN: just before the deletion, and at T1
r=$(ddb RestoreTableToPointInTime "{\"SourceTableArn\": \"$arn\", \"TargetTableName\": \"latest\", \"UseLatestRestorableTime\": true}")
[ "$(jq -r .TableDescription.RestoreSummary.SourceTableArn <<<"$r")" = "$arn" ] || fail "restore (latest): $r"
[ "$(items latest)" = "$before" ] || fail "restore (latest) differs from the table before its deletion: $(items latest) vs $before"
r=$(ddb RestoreTableToPointInTime "{\"SourceTableArn\": \"$arn\", \"TargetTableName\": \"at_t1\", \"RestoreDateTime\": $(epoch "$t1")}")
[ "$(items at_t1)" = "$at_t1" ] || fail "restore at T1 differs: $(items at_t1) vs $at_t1 ($r)"
r=$(ddb RestoreTableFromBackup "{\"BackupArn\": \"$barn\", \"TargetTableName\": \"from_backup\"}")
[ "$(items from_backup)" = "$before" ] || fail "RestoreTableFromBackup of the system backup differs ($r)"
# errors: after the deletion, by name, another role
r=$(ddb RestoreTableToPointInTime "{\"SourceTableArn\": \"$arn\", \"TargetTableName\": \"late\", \"RestoreDateTime\": $(q "SELECT extract(epoch FROM '$after_delete'::timestamptz + interval '1 second')")}")
[[ "$(jq -r .__type <<<"$r")" == *"#InvalidRestoreTimeException" ]] || fail "a time after the deletion: $r"
r=$(ddb RestoreTableToPointInTime '{"SourceTableName": "gone", "TargetTableName": "byname", "UseLatestRestorableTime": true}')
[[ "$(jq -r .__type <<<"$r")" == *"#TableNotFoundException" ]] || fail "by name: $r"
q "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tpd_other') THEN CREATE ROLE tpd_other NOLOGIN; END IF; END \$\$;
   GRANT USAGE, CREATE ON SCHEMA public TO tpd_other; GRANT USAGE ON SCHEMA hroe TO tpd_other"
r=$(psql -XAtq -d "$db" -c "SET ROLE tpd_other" -c "SELECT hroe.dynamodb('RestoreTableToPointInTime',
	'{\"SourceTableArn\": \"$arn\", \"TargetTableName\": \"stolen\", \"UseLatestRestorableTime\": true}')")
[[ "$(jq -r .__type <<<"$r")" == *"#TableNotFoundException" ]] || fail "another role: $r"
[ "$(psql -XAtq -d "$db" -c "SET ROLE tpd_other" -c "SELECT count(*) FROM hroe.pitr_history")" = 0 ] || fail "another role reads the history"
# nor forges a system backup naming it (to read the history)
pid=$(q "SELECT pitr_id FROM hroe.backups WHERE backup_arn = '$barn'")
out=$(psql -XAtq -d "$db" -c "SET ROLE tpd_other" -c "INSERT INTO hroe.backups (backup_arn, backup_name, table_name, created_at,
	description, features, backup_type, pitr_id, pitr_earliest, expires_at)
	VALUES ('$barn-forged', 'gone\$DeletedTableBackup', 'gone', now(), '{}', '{}', 'SYSTEM', $pid, now() - interval '1 day', now() + interval '1 day')" 2>&1 || true)
[[ "$out" == *"only DeleteTable makes a system backup"* ]] || fail "a forged system backup: $out"
out=$(psql -XAtq -d "$db" -c "SET ROLE tpd_other" -c "INSERT INTO hroe.backups (backup_arn, backup_name, table_name, created_at,
	description, features) VALUES ('$barn-mine', 'mine', 'gone', now(), '{}', '{}');
	UPDATE hroe.backups SET backup_type = 'SYSTEM', backup_name = 'gone\$DeletedTableBackup', pitr_id = $pid WHERE backup_arn = '$barn-mine'" 2>&1 || true)
[[ "$out" == *"only DeleteTable makes a system backup"* ]] || fail "a backup made a system backup: $out"
[ "$(psql -XAtq -d "$db" -c "SET ROLE tpd_other" -c "SELECT count(*) FROM hroe.pitr_history")" = 0 ] || fail "another role reads the history"
# the history is kept while the system backup is (hroe.pitr_compact)
q "SELECT hroe.pitr_compact('0 seconds')" >/dev/null
[ "$(q "SELECT count(*) FROM hroe.pitr_history")" -gt 0 ] || fail "pitr_compact deleted the history of a system backup"
# once expired, pitr_compact deletes the backup and its history
q "UPDATE hroe.backups SET expires_at = clock_timestamp() - interval '1 second' WHERE backup_arn = '$barn'"
q "SELECT hroe.pitr_compact('0 seconds')" >/dev/null
[ "$(q "SELECT count(*) FROM hroe.backups WHERE backup_arn = '$barn'")" = 0 ] || fail "an expired system backup kept"
[ "$(q "SELECT count(*) FROM hroe.pitr_history")" = 0 ] || fail "an expired system backup's history kept"
# without point-in-time recovery: no system backup
ddb CreateTable '{"TableName": "plain", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
ddb DeleteTable '{"TableName": "plain"}' >/dev/null
[ "$(ddb ListBackups '{"BackupType": "ALL"}' | jq '.BackupSummaries | length')" = 0 ] || fail "a table without point-in-time recovery left a backup"
echo "t_pitr_deleted: ok"
