#!/usr/bin/env bash
# test/t_pitr.sh: point-in-time recovery restores a table to exactly its
# state at any instant.  A table is written under concurrent load (pgbench:
# PutItem, UpdateItem, DeleteItem, TransactWriteItems, PartiQL, Time to
# Live's deletions, by the SQL function and by hroe's worker) while the
# test takes snapshots of its items, each at a well-defined instant: under
# a SHARE lock, which waits for the writers in progress to finish and holds
# back new ones, so every transaction committed before the instant read and
# none after.  Then the postmaster is killed
# (kill -9) mid-load and restarted (crash recovery), and the table restored
# to up to 20 random snapshot instants of before and after the crash: each
# restore must equal its snapshot item for item.  Last, a standby follows
# a third load; the primary is killed, the standby promoted, and restores
# on it to that load's snapshot instants must equal them too.  Starts
# throwaway clusters of its own (test/lib_cluster.sh) with
# track_commit_timestamp = on.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
. test/lib_cluster.sh
cluster_setup
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"; cluster_cleanup' EXIT
cluster_init pitr "$(free_port $((${PGPORT:-5845} + 3)))"
cluster_start pitr -c track_commit_timestamp=on
PGBENCH=/usr/lib/postgresql/15/bin/pgbench
q() { cluster_psql pitr -d hroe_pitr -c "$1"; }
cluster_psql pitr -d postgres -c "CREATE DATABASE hroe_pitr" >/dev/null
cluster_psql pitr -d hroe_pitr >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "load", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "load", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}');
SELECT hroe.dynamodb('PutItem', format('{"TableName": "load", "Item": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}, "n": {"N": "0"}}}', i % 7, i)::jsonb)
FROM generate_series(1, 100) i;
SELECT hroe.dynamodb('UpdateContinuousBackups', '{"TableName": "load", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}}');
-- one step of the load: key k, operation op
CREATE FUNCTION load_step(k int, op int) RETURNS jsonb LANGUAGE sql AS $$
SELECT CASE op
	WHEN 1 THEN hroe.dynamodb('PutItem', format('{"TableName": "load", "Item": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}, "n": {"N": "%s"}%s}}',
		k % 7, k, k * 3, CASE WHEN k % 5 = 0 THEN ', "exp": {"N": "1700000000"}' ELSE '' END)::jsonb)
	WHEN 2 THEN hroe.dynamodb('UpdateItem', format('{"TableName": "load", "Key": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}},
		"UpdateExpression": "ADD n :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}', k % 7, k)::jsonb)
	WHEN 3 THEN hroe.dynamodb('DeleteItem', format('{"TableName": "load", "Key": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}}}', k % 7, k)::jsonb)
	WHEN 4 THEN hroe.dynamodb('TransactWriteItems', format('{"TransactItems": [
		{"Put": {"TableName": "load", "Item": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}, "t": {"S": "x"}}}},
		{"Delete": {"TableName": "load", "Key": {"pk": {"S": "p%s"}, "sk": {"N": "%s"}}}}]}', k % 7, k, (k + 1) % 7, k + 1)::jsonb)
	WHEN 5 THEN hroe.dynamodb('ExecuteStatement', format('{"Statement": "UPDATE \"load\" SET q = %s WHERE pk = ''p%s'' AND sk = %s"}', k, k % 7, k)::jsonb)
	ELSE to_jsonb(hroe.delete_expired_items('load', 5))
END
$$;
CREATE TABLE snaps (id serial PRIMARY KEY, at timestamptz NOT NULL, content text NOT NULL);
SQL
rel=$(q "SELECT relid FROM hroe.tables WHERE table_name = 'load'")
# hroe's maintenance worker in this database: Time to Live's deletions beside
# the load's, and point-in-time recovery's retention step
cluster_psql pitr -d postgres -c "ALTER SYSTEM SET hroe.ttl_database = 'hroe_pitr'" \
	-c "ALTER SYSTEM SET hroe.ttl_naptime = 1" -c "SELECT pg_reload_conf()" >/dev/null
cat >"$work/load.sql" <<'EOF2'
\set k random(1, 150)
\set op random(1, 6)
SELECT load_step(:k, :op);
EOF2
# a snapshot: under SHARE (no writer in progress), its instant and the items
snapshot() {
	q "BEGIN; LOCK TABLE $rel IN SHARE MODE;
	   INSERT INTO snaps (at, content)
	   SELECT clock_timestamp(), coalesce(string_agg(item::jsonb::text, ' ' ORDER BY item::jsonb::text), '') FROM $rel;
	   COMMIT" >/dev/null
}
# (at most 400 transactions a second: the restores read the whole history,
# and a fast machine's unbounded load would only make the test longer)
load() {
	cluster_as_owner "$PGBENCH" -n -h "$(cluster_dir pitr)" -p "$(cluster_port pitr)" -U postgres \
		-c 3 -R 400 -T "$1" -f "$work/load.sql" hroe_pitr >"$work/pgbench.$2.log" 2>&1 || true
}
snapshot
load 8 1 &
pid=$!
for _ in $(seq 1 14); do sleep 0.5; snapshot; done
wait "$pid"
snapshot
before=$(q "SELECT count(*) FROM snaps")
echo "phase 1: $before snapshots, $(grep -o 'number of transactions actually processed: [0-9]*' "$work/pgbench.1.log" | grep -o '[0-9]*$') load transactions"
# a crash mid-load
load 6 2 &
pid=$!
for _ in $(seq 1 5); do sleep 0.5; snapshot; done
cluster_kill pitr
wait "$pid" || true
cluster_start pitr -c track_commit_timestamp=on
total=$(q "SELECT count(*) FROM snaps")
echo "after the crash: $((total - before)) snapshots during the second load"
[ "$(q "SELECT count(*) FROM hroe.pitr_history")" -gt 0 ] || { echo "FAIL: no history"; exit 1; }
[ "$(q "SELECT compacted_at IS NOT NULL FROM hroe.pitr")" = t ] ||
	{ echo "FAIL: the maintenance worker did not run the retention step (hroe.pitr_compact)"; exit 1; }
# restores of cluster $1 to the instants of the snapshots its query $2 picks
fails=0
n=0
restores() {
	local id same
	for id in $(cluster_psql "$1" -d hroe_pitr -c "$2"); do
		n=$((n + 1))
		cluster_psql "$1" -d hroe_pitr -c "SELECT hroe.restore_table_to_point_in_time('restored_$id', 'load', (SELECT at FROM snaps WHERE id = $id))" >/dev/null
		same=$(cluster_psql "$1" -d hroe_pitr -c "SELECT (SELECT content FROM snaps WHERE id = $id)
		            = (SELECT coalesce(string_agg(item::jsonb::text, ' ' ORDER BY item::jsonb::text), '')
		               FROM restored_$id)")
		if [ "$same" != t ]; then
			echo "FAIL: restore ($1) to snapshot $id differs from the table at that instant"
			fails=$((fails + 1))
		fi
	done
}
# up to 20 random snapshot instants, before and after the crash
restores pitr "SELECT id FROM snaps ORDER BY random() LIMIT 20"
distinct=$(q "SELECT count(DISTINCT content) FROM snaps")
echo "restored $n instants ($distinct distinct states among $total snapshots)"
[ "$distinct" -gt 3 ] || { echo "FAIL: the load changed too little to test"; exit 1; }

# a standby (its commit timestamps replayed with the WAL), written to
# under load, then the primary killed and the standby promoted: restores on
# the new primary to instants of that load
cluster_psql pitr -d postgres -c "ALTER SYSTEM SET track_commit_timestamp = on" >/dev/null
cluster_standby standby "$(free_port $(($(cluster_port pitr) + 1)))" pitr
load 4 3 &
pid=$!
for _ in $(seq 1 4); do sleep 0.5; snapshot; done
wait "$pid"
snapshot
lsn=$(q "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 600); do
	[ "$(cluster_psql standby -d postgres -c "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '$lsn') >= 0")" = t ] && break
	sleep 0.1
done
cluster_kill pitr
cluster_promote standby
n=0
restores standby "SELECT id FROM snaps WHERE id > $total ORDER BY id"
echo "after the failover: restored $n instants on the promoted standby"
[ "$n" -ge 4 ] || { echo "FAIL: too few snapshots under the standby's load"; exit 1; }
[ "$fails" -eq 0 ] || exit 1
echo "ok: every restore equals the table at its instant"
