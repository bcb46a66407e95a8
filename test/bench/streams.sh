#!/usr/bin/env bash
# test/bench/streams.sh: the cost of a stream to the writes, and Time to
# Live's deletion rate and its cost to foreground writes (doc/streams.md).
#
#   HROE_PGPORT=5642 bash test/bench/run.sh streams
#
# (1) CLIENTS pgbench clients (2) for SECS seconds (10), each transaction one
#     PutItem through hroe.dynamodb, to a table without a stream, with a
#     KEYS_ONLY stream and with a NEW_AND_OLD_IMAGES stream; new items
#     (random keys) and overwrites of 1,000 items.  hroe.direct_access is
#     on: a table with a stream (a trigger) writes through the executor.
# (2) TTL_ITEMS (100,000) expired items, among as many live ones, deleted by
#     hroe.delete_expired_items in batches of 1,000 (what the worker calls),
#     alone, then while the clients of (1) write to the same table: the
#     deletion rate, and the clients' transactions per second with and
#     without the deletions running.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${HROE_BENCH_CLIENTS:-2}
SECS=${HROE_BENCH_SECS:-10}
TTL_ITEMS=${HROE_BENCH_TTL_ITEMS:-100000}
DB=hroe_bench_streams
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" 2>/dev/null
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -d "$DB" <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.create_table('bench_plain', 'pk');
SELECT hroe.create_table('bench_keys', 'pk');
SELECT hroe.enable_stream('bench_keys', 'KEYS_ONLY');
SELECT hroe.create_table('bench_images', 'pk');
SELECT hroe.enable_stream('bench_images', 'NEW_AND_OLD_IMAGES');
SELECT count(*) FROM unnest(ARRAY['bench_plain', 'bench_keys', 'bench_images']) t, generate_series(1, 1000) i,
	hroe.put_item(t, hroe.item_from_document(jsonb_build_object('pk', 'k' || i, 'v', 0, 'pad', repeat('x', 100))));
SQL

tps() { sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$1" | head -1; }

echo "| table | new items, tx/s | overwrites, tx/s |"
echo "|---|---:|---:|"
for t in bench_plain bench_keys bench_images; do
	cat >"$work/new.sql" <<EOF
\\set k random(1, 1000000000)
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', '$t', 'Item', jsonb_build_object('pk', jsonb_build_object('S', 'n' || :k), 'v', jsonb_build_object('N', '1'), 'pad', jsonb_build_object('S', repeat('x', 100)))));
EOF
	cat >"$work/over.sql" <<EOF
\\set k random(1, 1000)
\\set v random(1, 1000000000)
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', '$t', 'Item', jsonb_build_object('pk', jsonb_build_object('S', 'k' || :k), 'v', jsonb_build_object('N', :v::text), 'pad', jsonb_build_object('S', repeat('x', 100)))));
EOF
	"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/new.sql" "$DB" >"$work/new.log" 2>&1
	"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/over.sql" "$DB" >"$work/over.log" 2>&1
	echo "| $t | $(tps "$work/new.log") | $(tps "$work/over.log") |"
done

# (2) Time to Live
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -d "$DB" <<SQL
SELECT hroe.create_table('bench_ttl', 'pk');
SELECT hroe.enable_stream('bench_ttl', 'KEYS_ONLY');
SELECT hroe.update_time_to_live('bench_ttl', 'exp', true);
INSERT INTO bench_ttl (item) SELECT hroe.item_from_document(jsonb_build_object('pk', 'e' || i, 'exp', extract(epoch FROM now())::bigint - 60, 'pad', repeat('x', 100)))
FROM generate_series(1, $TTL_ITEMS) i;
INSERT INTO bench_ttl (item) SELECT hroe.item_from_document(jsonb_build_object('pk', 'k' || i, 'exp', extract(epoch FROM now())::bigint + 86400, 'pad', repeat('x', 100)))
FROM generate_series(1, $TTL_ITEMS) i;
VACUUM ANALYZE bench_ttl;
SQL
cat >"$work/fg.sql" <<'EOF'
\set k random(1, 100000)
SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'bench_ttl', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || :k)), 'UpdateExpression', 'ADD w :one', 'ExpressionAttributeValues', jsonb_build_object(':one', jsonb_build_object('N', '1'))));
EOF
"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/fg.sql" "$DB" >"$work/fg0.log" 2>&1
# half the expired items deleted alone, the other half under the clients
half=$((TTL_ITEMS / 2))
delete_some() {
	local n=0 start end
	start=$(date +%s.%N)
	while [ "$n" -lt "$1" ]; do
		d=$(psql -XAt -d "$DB" -c "SELECT hroe.delete_expired_items('bench_ttl', 1000)")
		[ "$d" = 0 ] && break
		n=$((n + d))
	done
	end=$(date +%s.%N)
	echo "$n $(echo "$end - $start" | bc)"
}
read -r alone alone_secs <<<"$(delete_some "$half")"
"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/fg.sql" "$DB" >"$work/fg1.log" 2>&1 &
fg=$!
read -r busy busy_secs <<<"$(delete_some "$half")"
wait $fg
left=$(psql -XAt -d "$DB" -c "SELECT count(*) FROM bench_ttl WHERE hroe.item_get_text(item, 'pk') LIKE 'e%'")
echo
echo "| Time to Live | items deleted | seconds | items/s | foreground UpdateItem tx/s |"
echo "|---|---:|---:|---:|---:|"
echo "| clients alone | 0 | $SECS | 0 | $(tps "$work/fg0.log") |"
echo "| deletions alone | $alone | $alone_secs | $(echo "$alone / $alone_secs" | bc) | |"
echo "| deletions under the clients | $busy | $busy_secs | $(echo "$busy / $busy_secs" | bc) | $(tps "$work/fg1.log") |"
echo
echo "expired items left: $left (of $TTL_ITEMS)"
psql -X -q -d postgres -c "DROP DATABASE $DB" 2>/dev/null
