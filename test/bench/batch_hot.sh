#!/usr/bin/env bash
# test/bench/batch_hot.sh: BatchWriteItem on hot keys.
#
#   make bench BENCH=batch_hot      (or HROE_PGPORT=5522 bash test/bench/run.sh batch_hot)
#
# CLIENTS pgbench clients (8) for SECS seconds (10) per order, each
# transaction one hroe.dynamodb('BatchWriteItem', ...) putting 2 of 4 hot
# items (two distinct keys drawn at random): once with the two keys in random
# order, once sorted.  Batches writing the same keys in different orders
# used to deadlock (one failed after deadlock_timeout); in the canonical
# lock order they only wait for each other.  Prints a Markdown table: the
# batches per second and the failed batches (error responses) of each order.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${HROE_BENCH_CLIENTS:-8}
SECS=${HROE_BENCH_SECS:-10}
DB=hroe_bench_batch_hot
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" 2>/dev/null
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -d "$DB" <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.create_table('hot', 'pk');
-- an error response is counted, not raised (pgbench would stop the client)
CREATE TABLE failures (order_kind text, response jsonb);
CREATE FUNCTION hot_batch(kind text, a int, b int, n int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	r jsonb := hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('hot',
		(SELECT jsonb_agg(jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object(
			'pk', jsonb_build_object('S', 'hot#' || k), 'n', jsonb_build_object('N', n::text),
			'note', jsonb_build_object('S', repeat('x', 100))))) ORDER BY o)
		 FROM unnest(ARRAY[a, b]) WITH ORDINALITY u(k, o)))));
BEGIN
	IF r ? '__type' THEN
		INSERT INTO failures VALUES (kind, r);
	END IF;
END $$;
SQL

cat >"$work/random.sql" <<'PGB'
\set a random(1, 4)
\set d random(1, 3)
\set n random(1, 1000000)
SELECT hot_batch('random', :a, (:a + :d - 1) % 4 + 1, :n);
PGB
cat >"$work/sorted.sql" <<'PGB'
\set a random(1, 4)
\set d random(1, 3)
\set n random(1, 1000000)
SELECT hot_batch('sorted', least(:a, (:a + :d - 1) % 4 + 1), greatest(:a, (:a + :d - 1) % 4 + 1), :n);
PGB

echo "| order | clients | seconds | batches | batches/s | failed |"
echo "|---|---:|---:|---:|---:|---:|"
for kind in random sorted; do
	"$PGBENCH" -n -c "$CLIENTS" -j 2 -T "$SECS" -f "$work/$kind.sql" "$DB" >"$work/$kind.log" 2>&1 || {
		tail -20 "$work/$kind.log"
		exit 1
	}
	n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/$kind.log")
	tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$work/$kind.log")
	failed=$(psql -X -At -d "$DB" -c "SELECT count(*) FROM failures WHERE order_kind = '$kind'")
	echo "| $kind | $CLIENTS | $SECS | $n | $tps | $failed |"
done
psql -X -At -d "$DB" -c "SELECT 'first failure: ' || response::text FROM failures LIMIT 1"
psql -X -q -d postgres -c "DROP DATABASE $DB" 2>/dev/null
