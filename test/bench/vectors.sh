#!/usr/bin/env bash
# test/bench/vectors.sh: SearchVectors and writes on a vector index (doc/vectors.md).
#
# Run through the runner (throwaway cluster, hroe built without assertions):
#   HROE_PGPORT=5505 bash test/bench/run.sh vectors
#
# Data: N items (HROE_BENCH_VECTORS, default 100,000) of D dimensions
# (HROE_BENCH_DIMS, default 128), deterministic clustered synthetic vectors
# (setseed: 100 centroids uniform in [-1, 1]^D, each item its centroid plus
# Gaussian-ish noise of 0.1), one tenant of 10 per item, loaded set-based
# into a table with one COSINE vector index whose SearchSchema has the
# tenant as HASH element.
# Searches: Q queries (HROE_BENCH_QUERIES, default 200), TopK 10, one client,
# each a fresh noisy copy of a centroid, timed one by one inside the server
# (clock_timestamp around each call): the whole index (no condition) through
# hroe.search_vectors, the JSON API (hroe.dynamodb SearchVectors) the same,
# and one tenant (SearchConditionExpression on the HASH element).  Prints
# p50, p99 and searches per second; recall is 1 (the search is exact).
# Writes: W PutItems (HROE_BENCH_PUTS, default 5,000) of new items through
# hroe.dynamodb on a table with the vector index and on one without,
# alternating REPS (default 3) times: items per second, median.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

N=${HROE_BENCH_VECTORS:-100000}
D=${HROE_BENCH_DIMS:-128}
Q=${HROE_BENCH_QUERIES:-200}
W=${HROE_BENCH_PUTS:-5000}
REPS=${HROE_BENCH_REPS:-3}
DB=hroe_bench_vectors
OUT=test/bench/out/vectors.csv

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { psql -X -q -v ON_ERROR_STOP=1 -v n="$N" -v d="$D" -v q="$Q" -v w="$W" -d "$DB" "$@"; }

t0=$(date +%s)
run <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', format('{"TableName": "bench_vec", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"}],
  "VectorIndexes": [
    {"IndexName": "all_items", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": %s, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "by_tenant", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": %s, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"},
     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]}]}', :d, :d)::jsonb) -> '__type';
SELECT hroe.dynamodb('CreateTable', ('{"TableName": "bench_put_vec", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": ' || :d || ', "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}}]}')::jsonb) -> '__type';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "bench_put_plain", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> '__type';
SELECT setseed(0.33);
CREATE TABLE centroid AS SELECT c, array_agg((random() * 2 - 1)::real ORDER BY i) AS v
FROM generate_series(0, 99) c, generate_series(1, :d) i GROUP BY c;
-- noise: a sum of three uniforms, about Gaussian
CREATE FUNCTION noisy(p real[]) RETURNS real[] LANGUAGE sql VOLATILE AS $$
	SELECT array_agg((x + 0.1 * (random() + random() + random() - 1.5))::real ORDER BY o) FROM unnest(p) WITH ORDINALITY u(x, o)
$$;
CREATE FUNCTION vector_json(p real[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT jsonb_agg(jsonb_build_object('N', x::text) ORDER BY o) FROM unnest(p) WITH ORDINALITY u(x, o)
$$;
-- set-based: the table's generated columns index each row as it is inserted
INSERT INTO bench_vec (item)
SELECT jsonb_build_object('pk', jsonb_build_object('S', 'item' || g), 'tenant', jsonb_build_object('S', 't' || (g % 10)),
	'v', jsonb_build_object('L', vector_json(noisy((SELECT v FROM centroid WHERE c = g % 100)))))::hroe.item
FROM generate_series(1, :n) g;
VACUUM ANALYZE bench_vec;
SQL
t1=$(date +%s)
echo "loaded $N items of $D dimensions in $((t1 - t0)) s"

run <<'SQL'
CREATE TEMP TABLE timing (what text, ms float8);
CREATE TEMP TABLE queries AS SELECT q, noisy((SELECT v FROM centroid WHERE c = (q * 37) % 100)) AS v
FROM generate_series(1, :q) q;
DO $$
DECLARE
	r record;
	t timestamptz;
	n int;
BEGIN
	-- a warm-up pass
	FOR r IN SELECT * FROM queries LIMIT 5 LOOP
		PERFORM count(*) FROM hroe.search_vectors('bench_vec', 'all_items', r.v, 10);
	END LOOP;
	FOR r IN SELECT * FROM queries LOOP
		t := clock_timestamp();
		SELECT count(*) INTO n FROM hroe.search_vectors('bench_vec', 'all_items', r.v, 10);
		INSERT INTO timing VALUES ('search_vectors, whole index', extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		PERFORM hroe.dynamodb('SearchVectors', jsonb_build_object('TableName', 'bench_vec', 'IndexName', 'all_items',
			'SearchVector', vector_json(r.v), 'TopK', 10));
		INSERT INTO timing VALUES ('SearchVectors (JSON API), whole index', extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		PERFORM hroe.dynamodb('SearchVectors', jsonb_build_object('TableName', 'bench_vec', 'IndexName', 'by_tenant',
			'SearchVector', vector_json(r.v), 'TopK', 10, 'SearchConditionExpression', 'tenant = :t',
			'ExpressionAttributeValues', jsonb_build_object(':t', jsonb_build_object('S', 't' || (r.q % 10)))));
		INSERT INTO timing VALUES ('SearchVectors (JSON API), one tenant of 10', extract(epoch FROM clock_timestamp() - t) * 1000);
	END LOOP;
END
$$;
\echo
\echo | search (TopK 10, 1 client) | p50 ms | p99 ms | searches/s |
\echo |---|---|---|---|
SELECT format('| %s | %s | %s | %s |', what,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round((1000 * count(*) / sum(ms))::numeric, 1))
FROM timing GROUP BY what ORDER BY what \g (tuples_only=on format=unaligned)
\copy (SELECT 'search', what, ms FROM timing) TO 'test/bench/out/vectors.csv' CSV
SQL

run <<'SQL'
CREATE TABLE bench_puts (what text, rep int, per_s float8);
CREATE TABLE put_vectors AS SELECT g, vector_json(noisy((SELECT v FROM centroid WHERE c = g % 100))) AS v
FROM generate_series(1, :w) g;
SQL
for rep in $(seq 1 "$REPS"); do
	for t in bench_put_plain bench_put_vec; do
		PGOPTIONS="-c bench.table=$t -c bench.rep=$rep" run <<'SQL'
DO $$
DECLARE
	t0 timestamptz := clock_timestamp();
	n int := 0;
	r record;
BEGIN
	FOR r IN SELECT * FROM put_vectors LOOP
		PERFORM hroe.dynamodb('PutItem', jsonb_build_object('TableName', current_setting('bench.table'),
			'Item', jsonb_build_object('pk', jsonb_build_object('S', 'r' || current_setting('bench.rep') || '-' || r.g),
									   'v', jsonb_build_object('L', r.v))));
		n := n + 1;
	END LOOP;
	INSERT INTO bench_puts VALUES (current_setting('bench.table'), current_setting('bench.rep')::int,
								   n / extract(epoch FROM clock_timestamp() - t0));
END
$$;
SQL
	done
done
run <<'SQL'
\echo
\echo | PutItem (JSON API, 1 client, new items) | items/s (median) |
\echo |---|---|
SELECT format('| %s | %s |', CASE what WHEN 'bench_put_vec' THEN 'one vector index' ELSE 'no vector index' END,
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY per_s)::numeric))
FROM bench_puts GROUP BY what ORDER BY what DESC \g (tuples_only=on format=unaligned)
SELECT format('PutItem with a vector index: %sx the time of one without',
	round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY per_s) FROM bench_puts WHERE what = 'bench_put_plain')::numeric
		  / (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY per_s) FROM bench_puts WHERE what = 'bench_put_vec')::numeric, 2))
\g (tuples_only=on format=unaligned)
\copy (SELECT 'put', what, per_s FROM bench_puts) TO PROGRAM 'cat >> test/bench/out/vectors.csv' CSV
SQL
psql -X -q -d postgres -c "DROP DATABASE $DB"
