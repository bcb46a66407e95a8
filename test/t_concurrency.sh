#!/usr/bin/env bash
# test/t_concurrency.sh: hroe.dynamodb under concurrent clients (pgbench),
# each check about 4 seconds, every response checked:
#  (i)   lost updates: clients ADD 1 to a few counters with UpdateItem; the
#        counters sum to the number of updates
#  (ii)  contested conditional puts: clients race attribute_not_exists
#        PutItems on the same keys; exactly one wins each key, and the item
#        is the winner's
#  (iii) transfers: TransactWriteItems moving amounts between accounts, the
#        debit conditioned on the balance; the total is conserved, no
#        balance is negative
#  (iv)  BatchWriteItem on 4 hot keys, two of them per batch in random
#        order, puts and deletes: no batch fails
# Runs inside the test cluster (PG* variables set); exits non-zero on any
# failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${HROE_CONCURRENCY_SECS:-4}
scratch_db hroe_t_concurrency
psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<'SQL'
SELECT hroe.create_table('conc', 'pk');
CREATE FUNCTION k(p text) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('pk', jsonb_build_object('S', p));
CREATE FUNCTION n(x bigint) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('N', x::text);
-- a response that is an error body fails the client, except the exceptions
-- named in allowed; returns whether it succeeded
CREATE FUNCTION ok(r jsonb, allowed text[] DEFAULT '{}') RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	IF r ? '__type' AND NOT (split_part(r ->> '__type', '#', 2) = ANY (allowed)) THEN
		RAISE EXCEPTION 'request failed: %', r;
	END IF;
	RETURN NOT r ? '__type';
END $$;
-- (ii) who won which key
CREATE TABLE wins (key text, client int);
CREATE FUNCTION put_first(key text, client int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF ok(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'conc',
			'Item', k(key) || jsonb_build_object('who', n(client)),
			'ConditionExpression', 'attribute_not_exists(pk)')), '{ConditionalCheckFailedException}') THEN
		INSERT INTO wins VALUES (key, client);
	END IF;
END $$;
-- (iii) move amt from account a to account b; the committed ones counted
CREATE TABLE moved (ok boolean);
CREATE FUNCTION transfer(a int, b int, amt int) RETURNS void LANGUAGE sql
	BEGIN ATOMIC INSERT INTO moved SELECT ok(hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
		jsonb_build_object('Update', jsonb_build_object('TableName', 'conc', 'Key', k('acct#' || a),
			'UpdateExpression', 'SET balance = balance - :amt', 'ConditionExpression', 'balance >= :amt',
			'ExpressionAttributeValues', jsonb_build_object(':amt', n(amt)))),
		jsonb_build_object('Update', jsonb_build_object('TableName', 'conc', 'Key', k('acct#' || b),
			'UpdateExpression', 'SET balance = balance + :amt',
			'ExpressionAttributeValues', jsonb_build_object(':amt', n(amt))))))),
	   '{TransactionCanceledException}'); END;
-- (iv) a batch of two hot keys in the order given, each put or deleted; a
-- batch that leaves an item unprocessed fails too
CREATE FUNCTION all_processed(r jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	IF coalesce(r -> 'UnprocessedItems', '{}') <> '{}' THEN
		RAISE EXCEPTION 'items left unprocessed: %', r;
	END IF;
	RETURN ok(r);
END $$;
CREATE FUNCTION hot_batch(a int, b int, del_a boolean, del_b boolean) RETURNS boolean LANGUAGE sql RETURN
	all_processed(hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('conc', jsonb_build_array(
		CASE WHEN del_a THEN jsonb_build_object('DeleteRequest', jsonb_build_object('Key', k('hot#' || a)))
		ELSE jsonb_build_object('PutRequest', jsonb_build_object('Item', k('hot#' || a) || jsonb_build_object('v', n(b)))) END,
		CASE WHEN del_b THEN jsonb_build_object('DeleteRequest', jsonb_build_object('Key', k('hot#' || b)))
		ELSE jsonb_build_object('PutRequest', jsonb_build_object('Item', k('hot#' || b) || jsonb_build_object('v', n(a)))) END)))));
SQL

failures=0
# run NAME CLIENTS ARGS... : pgbench on $work/NAME.sql; prints the number of
# transactions, fails (its errors on stderr) on any client error
run() {
	local name=$1 clients=$2
	shift 2
	if ! "$PGBENCH" -n -c "$clients" -j 2 "$@" -f "$work/$name.sql" "$db" >"$work/$name.log" 2>&1; then
		{
			echo "$name: pgbench failed:"
			grep -E "ERROR|aborted|request failed" "$work/$name.log" | head -5
		} >&2
		return 1
	fi
	sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/$name.log"
}
# check WHAT SQL: the query returns "ok" or what is wrong
check() {
	local what=$1 got
	got=$(q "$2")
	if [ "$got" = ok ]; then
		echo "$what: ok"
	else
		echo "$what: FAILED: $got"
		failures=$((failures + 1))
	fi
}

# (i) lost updates: 4 clients x 250 UpdateItem ADD on 3 counters
cat >"$work/add.sql" <<'PGB'
\set c random(1, 3)
SELECT ok(hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'conc', 'Key', k('ctr#' || :c),
	'UpdateExpression', 'ADD n :one', 'ExpressionAttributeValues', jsonb_build_object(':one', n(1)))));
PGB
if n=$(run add 4 -t 250); then
	check "(i) lost updates: $n UpdateItem ADD 1 by 4 clients on 3 counters sum to $n" "
		SELECT CASE WHEN sum((item::jsonb -> 'n' ->> 'N')::bigint) = $n AND count(*) = 3 THEN 'ok'
			ELSE format('%s counters summing to %s', count(*), sum((item::jsonb -> 'n' ->> 'N')::bigint)) END
		FROM conc WHERE item::jsonb -> 'pk' ->> 'S' LIKE 'ctr#%'"
else
	failures=$((failures + 1))
fi

# (ii) contested conditional puts: 4 clients x 150 on 40 keys
cat >"$work/first.sql" <<'PGB'
\set key random(1, 40)
SELECT put_first('first#' || :key, :client_id);
PGB
if n=$(run first 4 -t 150); then
	check "(ii) contested puts: $n attribute_not_exists PutItems by 4 clients on 40 keys, one winner each, the item the winner's" "
		SELECT CASE WHEN count(*) FILTER (WHERE w.n <> 1 OR w.n IS NULL OR w.client <> (c.item::jsonb -> 'who' ->> 'N')::int) = 0
				AND count(*) = (SELECT count(DISTINCT key) FROM wins) THEN 'ok'
			ELSE format('%s keys, %s without exactly one winner whose item it is', count(*),
				count(*) FILTER (WHERE w.n <> 1 OR w.n IS NULL OR w.client <> (c.item::jsonb -> 'who' ->> 'N')::int)) END
		FROM conc c LEFT JOIN (SELECT key, count(*) AS n, min(client) AS client FROM wins GROUP BY key) w
			ON w.key = c.item::jsonb -> 'pk' ->> 'S'
		WHERE c.item::jsonb -> 'pk' ->> 'S' LIKE 'first#%'"
else
	failures=$((failures + 1))
fi

# (iii) transfers between 8 accounts of 100
q "SELECT bool_and(ok(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'conc',
	'Item', k('acct#' || a) || jsonb_build_object('balance', n(100)))))) FROM generate_series(1, 8) a" >/dev/null
cat >"$work/transfer.sql" <<'PGB'
\set a random(1, 8)
\set d random(1, 7)
\set amt random(1, 60)
SELECT transfer(:a, (:a + :d - 1) % 8 + 1, :amt);
PGB
if n=$(run transfer 4 -T "$SECS"); then
	check "(iii) transfers: $n TransactWriteItems between 8 accounts by 4 clients, some committed, total 800 conserved, none negative" "
		SELECT CASE WHEN sum(b) = 800 AND min(b) >= 0 AND count(*) = 8 AND bool_or(b <> 100)
						 AND (SELECT count(*) FILTER (WHERE ok) FROM moved) > 0 THEN 'ok'
			ELSE format('%s accounts, total %s, lowest %s, %s transfers committed', count(*), sum(b), min(b),
						(SELECT count(*) FILTER (WHERE ok) FROM moved)) END
		FROM (SELECT (item::jsonb -> 'balance' ->> 'N')::bigint AS b FROM conc WHERE item::jsonb -> 'pk' ->> 'S' LIKE 'acct#%') x"
else
	failures=$((failures + 1))
fi

# (iv) BatchWriteItem on 4 hot keys in random order, puts and deletes
cat >"$work/batch.sql" <<'PGB'
\set a random(1, 4)
\set d random(1, 3)
\set da random(0, 3)
\set db random(0, 3)
SELECT hot_batch(:a, (:a + :d - 1) % 4 + 1, :da = 0, :db = 0);
PGB
if n=$(run batch 8 -T "$SECS"); then
	echo "(iv) hot batches: $n BatchWriteItems of 2 of 4 hot keys in random order by 8 clients, none failed: ok"
else
	echo "(iv) hot batches: a BatchWriteItem failed"
	failures=$((failures + 1))
fi

[ "$failures" -eq 0 ]
