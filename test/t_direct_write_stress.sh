#!/usr/bin/env bash
# test/t_direct_write_stress.sh: the direct writes (src/tables/direct_write.c) under
# contention.  Four pgbench clients for a few seconds on 100 items of a
# table with two GSIs: JSON PutItems that move items between GSI entries,
# hroe.put_item with ALL_OLD, DeleteItems (the next put inserts the item
# again, as SQL), UpdateItems, conditional PutItems, TransactWriteItems
# (locked writes), BatchWriteItems of two items (k and k + 50: their request
# order and the canonical order differ for some k), every response checked.  Then, with the table at
# rest: every index matches the heap (amcheck heapallindexed), each GSI
# answers what a scan of the table finds (the items with both its key
# attributes: an UpdateItem of a deleted item creates one without a date),
# every stored generated column equals its expression recomputed (UPDATE ...
# SET item = item); the same again with hroe.direct_access = off.
# Runs inside the test cluster (PG* variables set).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${HROE_STRESS_SECS:-6}
scratch_db hroe_t_direct_write_stress
psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<'SQL'
CREATE EXTENSION amcheck;
SELECT hroe.create_table('stress', 'PK', 'S', 'SK', 'N');
SELECT hroe.create_index('stress', 'byStatus', '{status}', '{date}', '{"status": "S", "date": "S"}');
SELECT hroe.create_index('stress', 'byRegion', '{region, tier}', '{}', '{"region": "S", "tier": "N"}', 'KEYS_ONLY');
-- item k: status s (0-3; 3: no status, out of the sparse byStatus), t varies
-- the date and the tier, and a long note now and then (a TOASTed item)
CREATE FUNCTION st_item(k int, s int, t int) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('PK', jsonb_build_object('S', 'a'), 'SK', jsonb_build_object('N', k::text),
		'date', jsonb_build_object('S', '2026-' || t), 'region', jsonb_build_object('S', 'EU'),
		'tier', jsonb_build_object('N', (t % 7)::text))
	|| CASE WHEN s < 3 THEN jsonb_build_object('status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[s + 1])) ELSE '{}' END
	|| CASE WHEN t % 10 = 0 THEN jsonb_build_object('note', jsonb_build_object('S', repeat(md5(t::text), 300))) ELSE '{}' END;
-- a response that is an error body fails the client, except (may_fail) the
-- failed condition or cancelled transaction that a concurrent delete can
-- cause, and a transaction's TransactionConflictException: a
-- TransactWriteItems that found an item absent and inserts it after a
-- BatchWriteItem did, while the batch waits for a row the transaction
-- locked, is a deadlock; the batch never fails (it writes again), the
-- transaction fails when it finds the deadlock first
CREATE FUNCTION st_ok(r jsonb, may_fail boolean DEFAULT false) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	IF r ? '__type' AND NOT (may_fail AND r ->> '__type' IN (
			'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
			'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
			'com.amazonaws.dynamodb.v20120810#TransactionConflictException')) THEN
		RAISE EXCEPTION 'request failed: %', r;
	END IF;
	RETURN true;
END $$;
SELECT hroe.put_item('stress', st_item(k, k % 4, k)::hroe.item) FROM generate_series(1, 100) k;
SQL
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$(dirname "$0")/gsi_check.sql"

# (pgbench replaces :k, :s, :t and :op everywhere, so the requests'
# placeholders use other names.)
cat >"$work/script.sql" <<'PGB'
\set k random(1, 50)
\set s random(0, 3)
\set t random(1, 1000)
\set op random(1, 14)
\if :op <= 5
SELECT st_ok(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'stress', 'Item', st_item(:k, :s, :t))));
\elif :op <= 7
SELECT count(*) FROM hroe.put_item('stress', st_item(:k + 50, :s, :t)::hroe.item, 'ALL_OLD', 'INDEXES');
\elif :op = 8
SELECT st_ok(hroe.dynamodb('DeleteItem', jsonb_build_object('TableName', 'stress', 'Key',
	jsonb_build_object('PK', jsonb_build_object('S', 'a'), 'SK', jsonb_build_object('N', (:k)::text)))));
\elif :op <= 11
SELECT st_ok(hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'stress', 'Key',
	jsonb_build_object('PK', jsonb_build_object('S', 'a'), 'SK', jsonb_build_object('N', (:k)::text)),
	'UpdateExpression', 'SET #s = :st, tier = if_not_exists(tier, :zero) + :one, #r = :r',
	'ExpressionAttributeNames', jsonb_build_object('#s', 'status', '#r', 'region'),
	'ExpressionAttributeValues', jsonb_build_object(':st', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[:s % 3 + 1]),
		':zero', jsonb_build_object('N', '0'), ':one', jsonb_build_object('N', '1'), ':r', jsonb_build_object('S', 'EU')))));
\elif :op = 12
SELECT st_ok(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'stress', 'Item', st_item(:k, :s, :t),
	'ConditionExpression', 'attribute_exists(PK)')), true);
\elif :op = 13
SELECT st_ok(hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
	jsonb_build_object('Put', jsonb_build_object('TableName', 'stress', 'Item', st_item(:k, :s, :t))),
	jsonb_build_object('Update', jsonb_build_object('TableName', 'stress', 'Key',
		jsonb_build_object('PK', jsonb_build_object('S', 'a'), 'SK', jsonb_build_object('N', (:k + 50)::text)),
		'UpdateExpression', 'SET #d = :d', 'ExpressionAttributeNames', jsonb_build_object('#d', 'date'),
		'ExpressionAttributeValues', jsonb_build_object(':d', jsonb_build_object('S', '2027-' || :t))))))), true);
\else
SELECT st_ok(hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('stress',
	jsonb_build_array(jsonb_build_object('PutRequest', jsonb_build_object('Item', st_item(:k, :s, :t))),
					  jsonb_build_object('PutRequest', jsonb_build_object('Item', st_item(:k + 50, 3 - :s, :t + 1))))))));
\endif
PGB

# the checks, with the table at rest; prints one line, "ok" or what differs
check() {
	q "SELECT string_agg(m, '; ') FROM gsi_mismatches('stress') m"
}

# generated columns recomputed: rows that an UPDATE SET item = item changes
stale_rows() {
	psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" <<'SQL'
BEGIN;
CREATE TEMP TABLE before AS SELECT x::text AS r FROM stress x;
UPDATE stress SET item = item;
SELECT count(*) FROM stress x WHERE x::text NOT IN (SELECT r FROM before);
ROLLBACK;
SQL
}

failures=0
for direct in on off; do
	if ! PGOPTIONS="-c hroe.direct_access=$direct" "$PGBENCH" -n -c 4 -j 2 -T "$SECS" -f "$work/script.sql" "$db" \
		>"$work/pgbench.log" 2>&1; then
		echo "direct_access $direct: pgbench failed:"
		tail -20 "$work/pgbench.log"
		failures=$((failures + 1))
		continue
	fi
	n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/pgbench.log")
	# every index against the heap; amcheck raises an error on a mismatch
	if ! q "SELECT bool_and(true) FROM pg_index, LATERAL (SELECT bt_index_check(indexrelid, true)) c WHERE indrelid = 'stress'::regclass" >/dev/null; then
		echo "direct_access $direct: amcheck found an index that does not match the heap"
		failures=$((failures + 1))
	fi
	problems=$(check)
	stale=$(stale_rows)
	items=$(q "SELECT count(*) FROM stress")
	if [ -n "$problems" ] || [ "$stale" != 0 ] || [ -z "$n" ] || [ "$n" -lt 100 ]; then
		echo "direct_access $direct: $n requests; ${problems:-GSIs match}; $stale rows with stale generated columns"
		failures=$((failures + 1))
	else
		echo "direct_access $direct: $n requests by 4 clients, $items items; indexes match the heap, GSIs match a scan, generated columns current"
	fi
done
[ "$failures" -eq 0 ]
