#!/usr/bin/env bash
# test/t_streams.sh: DynamoDB Streams and Time to Live under concurrent
# clients (doc/streams.md):
#  (i)  a stream read through GetRecords while 4 pgbench clients write and
#       commit or roll back (one transaction in three): every committed
#       change read exactly once, none of a rolled-back transaction, the
#       sequence numbers 1..N without a gap, and a hot item's changes in
#       commit order (its counter 1, 2, 3, ... in sequence order)
#  (ii) hroe's Time to Live worker (preloaded by test/lib.sh) deletes the
#       100,000 expired items of a table (HROE_TTL_ITEMS) in the background
#       while clients keep writing, never an item of the future; the stream
#       shows each deletion as the service's
# Runs inside the test cluster (PG* variables set); exits non-zero on any
# failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
SECS=${HROE_STREAMS_SECS:-6}
scratch_db hroe_t_streams
# the worker must leave the database before it is dropped
trap 'psql -X -q -d postgres -c "ALTER SYSTEM RESET hroe.ttl_database" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
	for _ in $(seq 1 100); do
		[ "$(psql -XAt -d postgres -c "SELECT count(*) FROM pg_stat_activity WHERE datname = '"'"'$db'"'"'")" = 0 ] && break
		sleep 0.2
	done
	rm -rf "$work"; dropdb --if-exists "$db"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<'SQL'
SELECT hroe.create_table('st_main', 'pk');
SELECT hroe.enable_stream('st_main', 'NEW_AND_OLD_IMAGES');
CREATE TABLE cursor (it text);
INSERT INTO cursor SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', s ->> 'StreamArn',
	'ShardId', hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', s ->> 'StreamArn')) #>> '{StreamDescription, Shards, 0, ShardId}',
	'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator'
FROM jsonb_array_elements(hroe.dynamodb('ListStreams', '{"TableName": "st_main"}') -> 'Streams') s;
CREATE TABLE got (seq numeric, event text, pk text, n numeric, event_id text);
-- GetRecords from the saved iterator into got; returns the records read
CREATE FUNCTION read_stream() RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	res jsonb := hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', (SELECT it FROM cursor)));
BEGIN
	IF res ? '__type' THEN
		RAISE EXCEPTION 'GetRecords failed: %', res;
	END IF;
	UPDATE cursor SET it = res ->> 'NextShardIterator';
	INSERT INTO got SELECT (r #>> '{dynamodb, SequenceNumber}')::numeric - 100000000000000000000,
		r ->> 'eventName', r #>> '{dynamodb, Keys, pk, S}', (r #>> '{dynamodb, NewImage, n, N}')::numeric, r ->> 'eventID'
	FROM jsonb_array_elements(res -> 'Records') r;
	RETURN jsonb_array_length(res -> 'Records');
END $$;
-- every record of a table's stream
CREATE FUNCTION stream_of(p_table text) RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
DECLARE
	arn text := hroe.dynamodb('ListStreams', jsonb_build_object('TableName', p_table)) #>> '{Streams, 0, StreamArn}';
	it text := hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', arn,
		'ShardId', hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', arn)) #>> '{StreamDescription, Shards, 0, ShardId}',
		'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator';
	res jsonb;
BEGIN
	LOOP
		res := hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', it));
		EXIT WHEN jsonb_array_length(res -> 'Records') = 0;
		RETURN QUERY SELECT jsonb_array_elements(res -> 'Records');
		it := res ->> 'NextShardIterator';
	END LOOP;
END $$;
SQL

# (i) writers: a new item and the hot counter per transaction, one in three rolled back
cat >"$work/write.sql" <<'EOF'
\set k random(1, 2000000000)
\set rb random(0, 2)
BEGIN;
SELECT count(*) FROM hroe.put_item('st_main', hroe.item_from_document(jsonb_build_object('pk', CASE WHEN :rb = 0 THEN 'rb-' ELSE 'ok-' END || :client_id || '-' || :k)));
SELECT count(*) FROM hroe.update_item('st_main', '{"pk": {"S": "hot"}}', 'ADD n :one', p_expression_attribute_values => '{":one": {"N": "1"}}');
\if :rb = 0
ROLLBACK;
\else
COMMIT;
\endif
EOF
"$PGBENCH" -n -c 4 -j 2 -T "$SECS" -f "$work/write.sql" "$db" >"$work/pgbench.log" 2>&1 &
writers=$!
reads=0
while kill -0 $writers 2>/dev/null; do
	q "SELECT read_stream()" >/dev/null
	reads=$((reads + 1))
done
wait $writers || { cat "$work/pgbench.log"; echo "FAIL: the writers failed"; exit 1; }
while [ "$(q "SELECT read_stream()")" != 0 ]; do reads=$((reads + 1)); done
read -r records committed hot <<<"$(q "SELECT (SELECT count(*) FROM got), (SELECT count(*) FROM st_main), (SELECT hroe.item_get(item, 'n') ->> 'N' FROM st_main WHERE hroe.item_get_text(item, 'pk') = 'hot')" | tr '|' ' ')"
echo "(i) $reads GetRecords calls while 4 clients wrote: $records records, $committed items, the hot counter at $hot"
fail=0
check() {
	local what=$1 sql=$2 v
	v=$(q "$sql")
	if [ "$v" != t ]; then
		echo "FAIL: $what"
		fail=1
	else
		echo "ok: $what"
	fi
}
check "no record twice" "SELECT count(*) = count(DISTINCT seq) AND count(*) = count(DISTINCT event_id) FROM got"
check "sequence numbers 1..N without a gap" "SELECT min(seq) = 1 AND max(seq) = count(*) FROM got"
check "no record of a rolled-back transaction" "SELECT NOT EXISTS (SELECT FROM got WHERE pk LIKE 'rb-%')"
check "every committed item's INSERT read" "SELECT (SELECT array_agg(p ORDER BY p) FROM (SELECT hroe.item_get_text(item, 'pk') AS p FROM st_main) x) = (SELECT array_agg(DISTINCT pk ORDER BY pk) FROM got)"
check "one record per committed write" "SELECT (SELECT count(*) FROM got) = (SELECT count(*) FROM st_main WHERE hroe.item_get_text(item, 'pk') <> 'hot') + $hot"
check "the hot item's changes in commit order (1, 2, ... $hot)" "SELECT array_agg(n ORDER BY seq) = array(SELECT generate_series(1, $hot)::numeric) FROM got WHERE pk = 'hot'"

# (ii) Time to Live in the background, under foreground writes
N=${HROE_TTL_ITEMS:-100000}
psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<SQL
SELECT hroe.create_table('st_ttl', 'pk');
SELECT hroe.enable_stream('st_ttl', 'KEYS_ONLY');
SELECT hroe.update_time_to_live('st_ttl', 'exp', true);
SELECT count(*) FROM generate_series(1, $N) i,
	hroe.put_item('st_ttl', hroe.item_from_document(jsonb_build_object('pk', 'expired-' || i, 'exp', extract(epoch FROM now())::bigint - 60)));
SELECT count(*) FROM generate_series(1, 500) i,
	hroe.put_item('st_ttl', hroe.item_from_document(jsonb_build_object('pk', 'future-' || i, 'exp', extract(epoch FROM now())::bigint + 3600)));
SQL
psql -X -q -v ON_ERROR_STOP=1 -d postgres >/dev/null <<SQL
ALTER SYSTEM SET hroe.ttl_database = '$db';
ALTER SYSTEM SET hroe.ttl_naptime = 1;
ALTER SYSTEM SET hroe.ttl_batch_size = 10000;
SELECT pg_reload_conf();
SQL
cat >"$work/fg.sql" <<'EOF'
\set k random(1, 500)
SELECT count(*) FROM hroe.update_item('st_ttl', jsonb_build_object('pk', jsonb_build_object('S', 'future-' || :k)), 'ADD w :one', p_expression_attribute_values => '{":one": {"N": "1"}}');
EOF
"$PGBENCH" -n -c 2 -j 2 -T "$SECS" -f "$work/fg.sql" "$db" >"$work/fg.log" 2>&1 &
fg=$!
start=$(date +%s.%N)
left=$N
for _ in $(seq 1 1200); do
	left=$(q "SELECT count(*) FROM st_ttl WHERE hroe.item_get_text(item, 'pk') LIKE 'expired-%'")
	[ "$left" = 0 ] && break
	sleep 0.25
done
secs=$(echo "$(date +%s.%N) - $start" | bc)
wait $fg || { cat "$work/fg.log"; echo "FAIL: the foreground writers failed"; exit 1; }
echo "(ii) the worker deleted $((N - left)) of $N expired items in ${secs}s; foreground: $(grep -E '^tps' "$work/fg.log" | head -1)"
check "the foreground writers went on while the worker deleted (every UpdateItem done, none failed)" \
	"SELECT $(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/fg.log") > 0 AND $(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' "$work/fg.log" | head -1 | grep . || echo 0) = 0"
check "every expired item deleted in the background" "SELECT $left = 0"
check "no item of the future deleted" "SELECT count(*) = 500 FROM st_ttl"
check "each deletion in the stream as the service's" "SELECT count(*) FILTER (WHERE r ->> 'eventName' = 'REMOVE' AND r #>> '{userIdentity, type}' = 'Service' AND r #>> '{userIdentity, principalId}' = 'dynamodb.amazonaws.com') = $N AND count(*) FILTER (WHERE r ->> 'eventName' = 'REMOVE') = $N FROM stream_of('st_ttl') r"
exit $fail
