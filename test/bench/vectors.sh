#!/usr/bin/env bash
# test/bench/vectors.sh: SearchVectors and writes on a vector index (doc/vectors.md).
#
# Run through the runner (throwaway cluster, hroe built without assertions):
#   HROE_PGPORT=5505 bash test/bench/run.sh vectors        (or make bench BENCH=vectors)
# A small version, in seconds:
#   HROE_BENCH_SETS=20000x128 HROE_BENCH_QUERIES=50 HROE_BENCH_PUTS=1000 HROE_BENCH_SECONDS=3 \
#     HROE_PGPORT=5505 bash test/bench/run.sh vectors
#
# Data sets: HROE_BENCH_SETS (default "1000000x128 100000x1536"), each N
# items of D dimensions, deterministic clustered synthetic vectors written by
# test/bench/vectors_gen.c (HROE_BENCH_CLUSTERS clusters, default N / 1000:
# centroids uniform in [-1, 1]^D, each item its centroid plus Gaussian
# noise of 0.1), one tenant of 10 per item (each cluster holds all ten),
# loaded with COPY into a table
# with two COSINE vector indexes: all_items, and by_tenant whose
# SearchSchema has the tenant as HASH element.  Then hroe.vector_index_build
# trains both (the IVF lists: timed) and VACUUM sets the visibility map.
# Probes: HROE_BENCH_PROBES (default none), a list such as "4 8 16 31": for each,
# recall@10 and 1-client p50/p99 with hroe.vector_probes set to it.
# Searches: Q queries (HROE_BENCH_QUERIES, default 200), TopK 10, each a
# fresh noisy copy of a centroid.  Recall@10 of each approximate search
# against the exact one (hroe.vector_search_exact = on) over the first R
# queries (HROE_BENCH_RECALL_QUERIES, default 100).  1 client: each search
# timed inside the server (clock_timestamp around the call): p50, p99,
# searches/s.  8 clients (HROE_BENCH_CLIENTS): pgbench for S seconds
# (HROE_BENCH_SECONDS, default 20) per search, random queries: p50, p99
# from its per-transaction log, searches/s.
# Writes: W PutItems (HROE_BENCH_PUTS, default 5,000) of new D-dimension
# items through hroe.dynamodb on a table with one vector index, on one with
# a trained one (IVF lists: as many as the first data set's index, or
# HROE_BENCH_PUT_LISTS), and on one without, alternating REPS (default
# 3) times: items per second, median, and the ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

SETS=${HROE_BENCH_SETS:-1000000x128 100000x1536}
Q=${HROE_BENCH_QUERIES:-200}
R=${HROE_BENCH_RECALL_QUERIES:-100}
W=${HROE_BENCH_PUTS:-5000}
REPS=${HROE_BENCH_REPS:-3}
CLIENTS=${HROE_BENCH_CLIENTS:-8}
SECONDS_EACH=${HROE_BENCH_SECONDS:-20}
PROBES=${HROE_BENCH_PROBES:-}
DB=hroe_bench_vectors
OUT=test/bench/out/vectors.csv
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
GEN=$(mktemp -d)/vectors_gen
cc -O2 -o "$GEN" test/bench/vectors_gen.c -lm
: >"$OUT"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

for set in $SETS; do
N=${set%x*}
D=${set#*x}
C=${HROE_BENCH_CLUSTERS:-$(( N / 1000 > 10 ? N / 1000 : 10 ))}
echo
echo "### $N items of $D dimensions, $C clusters"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { psql -X -q -v ON_ERROR_STOP=1 -v n="$N" -v d="$D" -v q="$Q" -v w="$W" -v r="$R" -v c="$C" -v gen="$GEN" -d "$DB" "$@"; }

t0=$(date +%s.%N)
run <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', format('{"TableName": "bench_vec", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"}],
  "VectorIndexes": [
    {"IndexName": "all_items", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": %s, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "by_tenant", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": %s, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"},
     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]}]}', :d, :d)::jsonb) -> '__type' \g /dev/null
SQL
run -c "\\copy bench_vec (item) FROM PROGRAM '$GEN items $N $D $C'"
t1=$(date +%s.%N)
run <<'SQL'
VACUUM ANALYZE bench_vec;
SQL
t2=$(date +%s.%N)
run -At <<'SQL'
SELECT hroe.vector_index_build('bench_vec', 'all_items');
SELECT hroe.vector_index_build('bench_vec', 'by_tenant');
SQL
t3=$(date +%s.%N)
run <<'SQL'
VACUUM ANALYZE bench_vec;
SQL
t4=$(date +%s.%N)
printf 'loaded in %.0f s (COPY) + %.0f s (VACUUM ANALYZE); IVF lists of both indexes built in %.0f s (+ %.0f s VACUUM)\n' \
	"$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t3 - $t2" | bc)" "$(echo "$t4 - $t3" | bc)"
echo "build,$N,$D,$(echo "$t3 - $t2" | bc)" >>"$OUT"

run -c "CREATE TABLE queries (q int PRIMARY KEY, v real[] NOT NULL)" -c "\\copy queries FROM PROGRAM '$GEN queries $Q $D $C'"
run <<'SQL'
CREATE FUNCTION vector_json(p real[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
	SELECT jsonb_agg(jsonb_build_object('N', x::text) ORDER BY o) FROM unnest(p) WITH ORDINALITY u(x, o)
$$;
ALTER TABLE queries ADD COLUMN vj jsonb;
UPDATE queries SET vj = vector_json(v);
CREATE FUNCTION pk(i hroe.item) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT (i::jsonb) -> 'pk' ->> 'S' $$;
-- the exact answers (recall's reference)
CREATE TABLE truth (what text, q int, pks text[]);
SET hroe.vector_search_exact = on;
INSERT INTO truth SELECT 'whole index', q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'all_items', v, 10))
FROM queries WHERE q <= :r;
INSERT INTO truth SELECT 'one tenant of 10', q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'by_tenant', v, 10,
	('{"tenant": {"S": "t' || q % 10 || '"}}')::hroe.item))
FROM queries WHERE q <= :r;
RESET hroe.vector_search_exact;
CREATE TABLE answers (what text, q int, pks text[]);
INSERT INTO answers SELECT 'whole index', q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'all_items', v, 10))
FROM queries WHERE q <= :r;
INSERT INTO answers SELECT 'one tenant of 10', q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'by_tenant', v, 10,
	('{"tenant": {"S": "t' || q % 10 || '"}}')::hroe.item))
FROM queries WHERE q <= :r;
CREATE TABLE recall AS
SELECT a.what, avg((SELECT count(*) FROM unnest(a.pks) p WHERE p = ANY (t.pks))::float8 / cardinality(t.pks)) AS recall
FROM answers a JOIN truth t USING (what, q) GROUP BY a.what;

CREATE TABLE timing (what text, ms float8);
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
			'SearchVector', r.vj, 'TopK', 10));
		INSERT INTO timing VALUES ('SearchVectors (JSON API), whole index', extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		PERFORM hroe.dynamodb('SearchVectors', jsonb_build_object('TableName', 'bench_vec', 'IndexName', 'by_tenant',
			'SearchVector', r.vj, 'TopK', 10, 'SearchConditionExpression', 'tenant = :t',
			'ExpressionAttributeValues', jsonb_build_object(':t', jsonb_build_object('S', 't' || (r.q % 10)))));
		INSERT INTO timing VALUES ('SearchVectors (JSON API), one tenant of 10', extract(epoch FROM clock_timestamp() - t) * 1000);
	END LOOP;
END
$$;
\echo
\echo | search (TopK 10, 1 client) | recall@10 | p50 ms | p99 ms | searches/s |
\echo |---|---|---|---|---|
SELECT format('| %s | %s | %s | %s | %s |', what,
	coalesce((SELECT round(recall::numeric, 3)::text FROM recall WHERE timing.what LIKE '%' || recall.what), ''),
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round((1000 * count(*) / sum(ms))::numeric, 1))
FROM timing GROUP BY what ORDER BY what \g (tuples_only=on format=unaligned)
SQL
run -c "COPY (SELECT 'search', $N, $D, what, ms FROM timing) TO STDOUT CSV" >>"$OUT"

# the probes traded against latency: each of HROE_BENCH_PROBES (e.g. "4 8 16 31"), recall and
# 1-client times of the whole index and of one tenant (JSON API)
for P in $PROBES; do
	run -v p="$P" <<'SQL'
SET hroe.vector_probes = :p;
CREATE TEMP TABLE sweep_answers AS
SELECT 'whole index' AS what, q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'all_items', v, 10)) AS pks
FROM queries WHERE q <= :r
UNION ALL
SELECT 'one tenant of 10', q, ARRAY(SELECT pk(item) FROM hroe.search_vectors('bench_vec', 'by_tenant', v, 10,
	('{"tenant": {"S": "t' || q % 10 || '"}}')::hroe.item))
FROM queries WHERE q <= :r;
CREATE TEMP TABLE sweep_timing (what text, ms float8);
DO $$
DECLARE
	r record;
	t timestamptz;
	n int;
BEGIN
	FOR r IN SELECT * FROM queries LOOP
		t := clock_timestamp();
		SELECT count(*) INTO n FROM hroe.search_vectors('bench_vec', 'all_items', r.v, 10);
		INSERT INTO sweep_timing VALUES ('whole index', extract(epoch FROM clock_timestamp() - t) * 1000);
		t := clock_timestamp();
		PERFORM hroe.dynamodb('SearchVectors', jsonb_build_object('TableName', 'bench_vec', 'IndexName', 'by_tenant',
			'SearchVector', r.vj, 'TopK', 10, 'SearchConditionExpression', 'tenant = :t',
			'ExpressionAttributeValues', jsonb_build_object(':t', jsonb_build_object('S', 't' || (r.q % 10)))));
		INSERT INTO sweep_timing VALUES ('one tenant of 10', extract(epoch FROM clock_timestamp() - t) * 1000);
	END LOOP;
END
$$;
SELECT format('| %s, %s probes | %s | %s | %s | %s |',
	CASE w.what WHEN 'whole index' THEN 'search_vectors, whole index' ELSE 'SearchVectors (JSON API), one tenant of 10' END,
	current_setting('hroe.vector_probes'),
	(SELECT round(avg((SELECT count(*) FROM unnest(a.pks) x WHERE x = ANY (t.pks))::float8 / cardinality(t.pks))::numeric, 3)
	 FROM sweep_answers a JOIN truth t USING (what, q) WHERE a.what = w.what),
	round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms)::numeric, 2),
	round((1000 * count(*) / sum(ms))::numeric, 1))
FROM sweep_timing w GROUP BY w.what ORDER BY w.what \g (tuples_only=on format=unaligned)
SQL
done

# several clients: pgbench, random queries
cat >"$GEN.whole.sql" <<'PGB'
\set q random(1, :nq)
SELECT count(*) FROM hroe.search_vectors('bench_vec', 'all_items', (SELECT v FROM queries WHERE q = :q), 10);
PGB
cat >"$GEN.tenant.sql" <<'PGB'
\set q random(1, :nq)
SELECT hroe.dynamodb('SearchVectors', jsonb_build_object('TableName', 'bench_vec', 'IndexName', 'by_tenant',
	'SearchVector', vj, 'TopK', 10, 'SearchConditionExpression', 'tenant = :t',
	'ExpressionAttributeValues', jsonb_build_object(':t', jsonb_build_object('S', 't' || (q % 10))))) FROM queries WHERE q = :q;
PGB
echo
echo "| search (TopK 10, $CLIENTS clients, pgbench ${SECONDS_EACH} s) | p50 ms | p99 ms | searches/s |"
echo "|---|---|---|---|"
for kind in whole tenant; do
	rm -f "$GEN".log*
	(cd "$(dirname "$GEN")" && "$PGBENCH" -n -c "$CLIENTS" -j 2 -T "$SECONDS_EACH" -D nq="$Q" -f "$GEN.$kind.sql" \
		--log --log-prefix="$GEN.log" "$DB" >"$GEN.out")
	tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$GEN.out" | head -1)
	cat "$GEN".log* | awk '{print $3 / 1000}' | sort -n | awk -v what="$kind" -v tps="$tps" '
		{ v[NR] = $1 } END {
			p50 = v[int(NR * 0.5) > 0 ? int(NR * 0.5) : 1]; p99 = v[int(NR * 0.99) > 0 ? int(NR * 0.99) : 1];
			printf "| %s | %.2f | %.2f | %.1f |\n", (what == "whole" ? "search_vectors, whole index" : "SearchVectors (JSON API), one tenant of 10"), p50, p99, tps }'
	cat "$GEN".log* | awk -v n="$N" -v d="$D" -v k="$kind" '{ printf "clients,%s,%s,%s,%s\n", n, d, k, $3 / 1000 }' >>"$OUT"
done
done

# writes: a table without vector index, one with one, one with a trained one
D=$(echo "$SETS" | awk '{ split($1, a, "x"); print a[2] }')
LISTS=${HROE_BENCH_PUT_LISTS:-$(echo "$SETS" | awk '{ split($1, a, "x"); print int(sqrt(a[1]) + 0.5) }')}
echo
echo "### PutItem, $D dimensions, $LISTS lists"
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { psql -X -q -v ON_ERROR_STOP=1 -v d="$D" -v w="$W" -v lists="$LISTS" -d "$DB" "$@"; }
run <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', ('{"TableName": "' || t || '", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]'
  || CASE WHEN t = 'bench_put_plain' THEN '' ELSE ', "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": '
  || :d || ', "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}}]' END || '}')::jsonb) -> '__type'
FROM unnest(ARRAY['bench_put_plain', 'bench_put_vec', 'bench_put_ivf']) t \g /dev/null
SQL
run -c "CREATE TABLE put_vectors (g int, v jsonb)" -c "\\copy put_vectors FROM PROGRAM '$GEN puts $W $D 100'"
run <<'SQL'
-- the trained table: its lists over the vectors of the first rep's items
INSERT INTO bench_put_ivf (item) SELECT jsonb_build_object('pk', jsonb_build_object('S', 'seed' || g), 'v', jsonb_build_object('L', v))::hroe.item
FROM put_vectors;
-- (as many lists as the first data set's index: the cost of one item's assignment)
SELECT hroe.vector_index_build('bench_put_ivf', 'vix', :lists, 1) \g /dev/null
VACUUM ANALYZE bench_put_ivf;
CREATE TABLE bench_puts (what text, rep int, per_s float8);
SQL
for rep in $(seq 1 "$REPS"); do
	for t in bench_put_plain bench_put_vec bench_put_ivf; do
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
\echo | PutItem (JSON API, 1 client, new items) | items/s (median) | time against no vector index |
\echo |---|---|---|
WITH m AS (SELECT what, percentile_cont(0.5) WITHIN GROUP (ORDER BY per_s) AS per_s FROM bench_puts GROUP BY what)
SELECT format('| %s | %s | %sx |', CASE what WHEN 'bench_put_vec' THEN 'one vector index (exact)'
	WHEN 'bench_put_ivf' THEN 'one vector index with IVF lists' ELSE 'no vector index' END,
	round(per_s::numeric), round(((SELECT per_s FROM m WHERE what = 'bench_put_plain') / per_s)::numeric, 2))
FROM m ORDER BY what DESC \g (tuples_only=on format=unaligned)
SQL
run -c "COPY (SELECT 'put', 0, $D, what, per_s FROM bench_puts) TO STDOUT CSV" >>"$OUT"
psql -X -q -d postgres -c "DROP DATABASE $DB"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
