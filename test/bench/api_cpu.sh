#!/usr/bin/env bash
# test/bench/api_cpu.sh: what one hroe.dynamodb request costs inside the
# server, without a client or a network in the figure.
#
#   HROE_PGPORT=5522 bash test/bench/run.sh api_cpu
#
# Data: CUSTOMERS x 10 orders (about 120 bytes each) in a table (pk, sk
# strings), as test/bench/api.sh.  One backend runs a procedure that makes N
# calls of one kind, committing after each (synchronous_commit = off: the
# commit costs CPU, not a wait for the WAL flush), on keys drawn at random in
# advance (1,000 requests per kind, built before the timing starts), and
# reads its own CPU time (utime + stime of /proc/self/stat) before and after.
# The kinds, ROUNDS rounds of them in turn:
#   GetItem     hroe.dynamodb('GetItem', ...) of one item
#   Query       hroe.dynamodb('Query', ...) of one customer's 10 items
#   PutItem     hroe.dynamodb('PutItem', ...) overwriting one item
#   UpdateItem  hroe.dynamodb('UpdateItem', ...) SET total = :t on one item
#   put_item    hroe.put_item(table, item) overwriting one item (SQL level)
#   UPDATE      the floor: UPDATE bench SET item = ... WHERE pk = ... AND sk = ...
#   loop        the loop alone: fetch the request, commit (included above)
# and GetItem, Query, PutItem, UpdateItem and put_item again with
# hroe.direct_access off
# (kind-sql: the SQL statements instead of the direct probes and overwrite),
# so that each direct path is measured against its SQL path in one run.
# Prints a Markdown table of the median CPU microseconds per call (the loop's
# own cost included in every row, and shown alone in the last one), the
# spread of the rounds, and the load average.
set -euo pipefail
cd "$(dirname "$0")/../.."

CUSTOMERS=${HROE_BENCH_CUSTOMERS:-2000}
ROUNDS=${HROE_BENCH_ROUNDS:-5}
N=${HROE_BENCH_CALLS:-20000}
DB=hroe_bench_api_cpu

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" 2>/dev/null
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}') ? 'TableDescription' AS created;
-- the item of customer c, order o (the same attributes for every write)
CREATE FUNCTION bench_item(c int, o int) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
SELECT jsonb_build_object(
	'pk', jsonb_build_object('S', 'CUST#' || c),
	'sk', jsonb_build_object('S', 'ORDER#' || lpad(o::text, 4, '0')),
	'status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (c + o) % 3]),
	'total', jsonb_build_object('N', (((c * 31 + o * 17) % 100000) / 100.0)::text),
	'note', jsonb_build_object('S', repeat('x', 60)))
$$;
INSERT INTO bench (item)
SELECT bench_item(c, o)::hroe.item FROM generate_series(1, :customers) c, generate_series(1, 10) o;
VACUUM ANALYZE bench;

-- 1,000 random requests of each kind, drawn once
SELECT setseed(0.5);
CREATE TABLE reqs AS
SELECT i, c, o, bench_item(c, o) AS item
FROM (SELECT i, 1 + floor(random() * :customers)::int AS c, 1 + floor(random() * 10)::int AS o
	  FROM generate_series(1, 1000) i) r;

-- CPU time of this backend, in clock ticks (utime + stime)
CREATE FUNCTION cpu_ticks() RETURNS bigint LANGUAGE sql AS $$
SELECT (f[14])::bigint + (f[15])::bigint
FROM regexp_split_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') s0,
	 LATERAL (SELECT ARRAY['', ''] || s0 AS f) s1
$$;

-- n calls of one kind, a commit after each; t: CPU ticks used
CREATE PROCEDURE run(kind text, n int, INOUT t bigint) LANGUAGE plpgsql AS $$
DECLARE
	req jsonb[];
	itm hroe.item[];
	pks hroe.key[];
	sks hroe.key[];
	t0 bigint;
	k int;
	r jsonb;
BEGIN
	-- GetItem-sql: GetItem with hroe.direct_access off
	IF kind LIKE '%-sql' THEN
		PERFORM pg_catalog.set_config('hroe.direct_access', 'off', false);
		kind := split_part(kind, '-', 1);
	END IF;
	SELECT array_agg(CASE kind
			WHEN 'GetItem' THEN jsonb_build_object('TableName', 'bench', 'Key',
				jsonb_build_object('pk', item -> 'pk', 'sk', item -> 'sk'))
			WHEN 'Query' THEN jsonb_build_object('TableName', 'bench',
				'KeyConditionExpression', 'pk = :p',
				'ExpressionAttributeValues', jsonb_build_object(':p', item -> 'pk'))
			WHEN 'PutItem' THEN jsonb_build_object('TableName', 'bench', 'Item', item)
			WHEN 'UpdateItem' THEN jsonb_build_object('TableName', 'bench', 'Key',
				jsonb_build_object('pk', item -> 'pk', 'sk', item -> 'sk'),
				'UpdateExpression', 'SET #t = :t',
				'ExpressionAttributeNames', jsonb_build_object('#t', 'total'),
				'ExpressionAttributeValues', jsonb_build_object(':t', item -> 'total'))
			ELSE item END ORDER BY i),
		   array_agg(item::hroe.item ORDER BY i),
		   array_agg(('CUST#' || c)::hroe.key ORDER BY i),
		   array_agg(('ORDER#' || lpad(o::text, 4, '0'))::hroe.key ORDER BY i)
	  INTO req, itm, pks, sks FROM reqs;
	-- every request must succeed (an error body would be a fast, wrong answer)
	IF kind IN ('GetItem', 'Query', 'PutItem', 'UpdateItem') THEN
		r := hroe.dynamodb(kind, req[1]);
		IF r ? '__type' OR (kind = 'GetItem' AND NOT r ? 'Item')
		   OR (kind = 'Query' AND (r -> 'Count')::int <> 10) THEN
			RAISE EXCEPTION '% failed: %', kind, r;
		END IF;
	END IF;
	COMMIT;
	PERFORM pg_catalog.set_config('synchronous_commit', 'off', false);
	t0 := cpu_ticks();
	FOR i IN 1 .. n LOOP
		k := 1 + i % 1000;
		CASE kind
			WHEN 'GetItem' THEN PERFORM hroe.dynamodb('GetItem', req[k]);
			WHEN 'Query' THEN PERFORM hroe.dynamodb('Query', req[k]);
			WHEN 'PutItem' THEN PERFORM hroe.dynamodb('PutItem', req[k]);
			WHEN 'UpdateItem' THEN PERFORM hroe.dynamodb('UpdateItem', req[k]);
			WHEN 'put_item' THEN PERFORM hroe.put_item('bench', itm[k]);
			WHEN 'UPDATE' THEN
				UPDATE bench SET item = itm[k]
				WHERE pk OPERATOR(hroe.=) pks[k] AND sk OPERATOR(hroe.=) sks[k];
			WHEN 'loop' THEN PERFORM req[k];
		END CASE;
		COMMIT;
	END LOOP;
	t := cpu_ticks() - t0;
END
$$;
SQL

ticks=$(getconf CLK_TCK)
kinds="GetItem GetItem-sql Query Query-sql PutItem PutItem-sql UpdateItem UpdateItem-sql put_item put_item-sql UPDATE loop"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for round in $(seq "$ROUNDS"); do
	for kind in $kinds; do
		t=$(psql -X -At -v ON_ERROR_STOP=1 -d "$DB" -c "CALL run('$kind', $N, NULL)")
		echo "$kind $round $t" >>"$out"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$out" "$ticks" "$N" "$ROUNDS" "$CUSTOMERS" <<'PY'
import statistics, sys
ticks, n = int(sys.argv[2]), int(sys.argv[3])
sql = " with `hroe.direct_access = off` (SQL statements)"
names = {"GetItem": "`hroe.dynamodb('GetItem', …)`",
         "GetItem-sql": "`hroe.dynamodb('GetItem', …)`" + sql,
         "Query": "`hroe.dynamodb('Query', …)`, 10 items",
         "Query-sql": "`hroe.dynamodb('Query', …)`, 10 items" + sql,
         "PutItem": "`hroe.dynamodb('PutItem', …)` (overwrite)",
         "PutItem-sql": "`hroe.dynamodb('PutItem', …)` (overwrite)" + sql,
         "UpdateItem": "`hroe.dynamodb('UpdateItem', …)` (`SET #t = :t`)",
         "UpdateItem-sql": "`hroe.dynamodb('UpdateItem', …)` (`SET #t = :t`)" + sql,
         "put_item": "`hroe.put_item(table, item)` (overwrite)",
         "put_item-sql": "`hroe.put_item(table, item)` (overwrite)" + sql,
         "UPDATE": "floor: plain `UPDATE … SET item = … WHERE pk = … AND sk = …`",
         "loop": "the loop alone (fetch the request, commit)"}
us = {}
for line in open(sys.argv[1]):
    kind, _, t = line.split()
    us.setdefault(kind, []).append(int(t) * 1e6 / ticks / n)
print(f"\n{int(sys.argv[5]) * 10} items; {n} calls per round, a commit after each "
      f"(synchronous_commit off); median of {sys.argv[4]} rounds\n")
print("| in the server, backend CPU µs per call incl. its commit | median | min – max |")
print("|---|---:|---:|")
for kind in names:
    v = us[kind]
    print(f"| {names[kind]} | {statistics.median(v):.1f} | {min(v):.1f} – {max(v):.1f} |")
PY
psql -X -q -d postgres -c "DROP DATABASE $DB"
echo
echo "load average (1, 5, 15 min) before: $load_before; after: $load_after ($(nproc) cores)"
