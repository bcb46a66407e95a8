--
-- hroe.prng, hroe.prng_int, hroe.prng_zipf: the generator's counter-based
-- pseudo-random numbers.  Fixed values pin the algorithm (splitmix64 of
-- seed, stream and index): a change here changes every generated data set.
--
SELECT hroe.prng(42, 1, 1), hroe.prng(42, 1, 2), hroe.prng(42, 2, 1), hroe.prng(43, 1, 1),
       hroe.prng(0, 0, 0), hroe.prng(-1, -1, -1);
SELECT hroe.prng_int(42, 1, i, 1, 6) FROM generate_series(1, 12) i;
SELECT hroe.prng_zipf(42, 1, i, 100) FROM generate_series(1, 12) i;

-- The same arguments always give the same value, whatever the plan (the
-- argument depends on the row, so each row computes it, twice).
SELECT bool_and(a = b) AND count(DISTINCT a) = 1 AS stable
FROM (SELECT hroe.prng(7, 3, 12345 + 0 * g) a, hroe.prng(7, 3, 12345 + 0 * g) b FROM generate_series(1, 1000) g) s;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
CREATE TEMP TABLE ids AS SELECT i FROM generate_series(1, 100000) i;
ANALYZE ids;
SELECT sum(hroe.prng_int(5, 9, i, 0, 1000000)) FROM ids;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
SET max_parallel_workers_per_gather = 0;
SELECT sum(hroe.prng_int(5, 9, i, 0, 1000000)) FROM ids;
RESET max_parallel_workers_per_gather;

-- Uniform in [0, 1): 100,000 draws, mean and deciles close to exact.
SELECT min(u) >= 0 AS min_ok, max(u) < 1 AS max_ok, abs(avg(u) - 0.5) < 0.005 AS mean_ok,
       max(abs(c - 10000)) < 500 AS deciles_ok
FROM (SELECT u, count(*) OVER (PARTITION BY floor(u * 10)) c
      FROM (SELECT hroe.prng(42, 77, i) u FROM ids) s) s;
-- Different streams and seeds are uncorrelated (correlation near 0).
SELECT abs(corr(hroe.prng(42, 1, i), hroe.prng(42, 2, i))) < 0.02 AS streams,
       abs(corr(hroe.prng(42, 1, i), hroe.prng(43, 1, i))) < 0.02 AS seeds,
       abs(corr(hroe.prng(42, 1, i), hroe.prng(42, 1, i + 1))) < 0.02 AS neighbours
FROM ids;

-- prng_int covers [lo, hi] exactly, evenly.
SELECT min(v), max(v), count(DISTINCT v), max(c) - min(c) < 400 AS even
FROM (SELECT v, count(*) OVER (PARTITION BY v) c
      FROM (SELECT hroe.prng_int(1, 1, i, -3, 6) v FROM ids) s) s;
SELECT hroe.prng_int(1, 1, 1, 5, 5) AS single_value,
       hroe.prng_int(1, 1, 1, -9223372036854775808, 9223372036854775807) IS NOT NULL AS full_range;
SELECT hroe.prng_int(1, 1, 1, 6, 5);  -- error: empty range

-- prng_zipf: P(k) = log(1 + 1/k) / log(n + 1); rank 1 the most frequent.
SELECT k, count(*) AS n,
       round(100000 * ln(1 + 1.0 / k) / ln(11)) AS expected
FROM (SELECT hroe.prng_zipf(42, 5, i, 10) k FROM ids) s
GROUP BY k ORDER BY k;
SELECT min(hroe.prng_zipf(1, 1, i, 1)), max(hroe.prng_zipf(1, 1, i, 1)) FROM generate_series(1, 100) i;
SELECT hroe.prng_zipf(1, 1, 1, 0);  -- error
SELECT hroe.prng_zipf(1, 1, i, 9223372036854775807) BETWEEN 1 AND 9223372036854775807 AS in_range
FROM generate_series(1, 3) i;

-- STRICT: NULL in, NULL out.
SELECT hroe.prng(NULL, 1, 1), hroe.prng_int(1, 1, 1, NULL, 2), hroe.prng_zipf(1, 1, 1, NULL);

-- hroe.order_line_draws: a generated order's distinct products, ascending,
-- encoded product * 8 + the candidate line (1..5) that drew it first.
SELECT o, d, ARRAY(SELECT x >> 3 FROM unnest(d) x) AS products, ARRAY(SELECT x & 7 FROM unnest(d) x) AS candidates
FROM generate_series(1, 8) o, LATERAL (SELECT hroe.order_line_draws(42, o, 300) AS d) s;
-- over 20,000 orders: 1 to 5 lines, products distinct, ascending, in range,
-- and the candidate count follows prng_int(seed, 50, order, 0, 4)
SELECT min(n), max(n), round(avg(n), 2) AS avg_lines,
       count(*) FILTER (WHERE NOT ordered) AS unordered,
       count(*) FILTER (WHERE n > candidates) AS too_many,
       count(*) FILTER (WHERE max_candidate > candidates) AS bad_candidate,
       bool_and(lo >= 1 AND hi <= 300) AS in_range
FROM (SELECT o, cardinality(d) n, 1 + hroe.prng_int(42, 50, o, 0, 4) AS candidates,
             (SELECT bool_and(x >> 3 > COALESCE(p, 0)) FROM (SELECT x, lag(x >> 3) OVER () p FROM unnest(d) x) s) AS ordered,
             (SELECT max(x & 7) FROM unnest(d) x) AS max_candidate,
             (SELECT min(x >> 3) FROM unnest(d) x) AS lo, (SELECT max(x >> 3) FROM unnest(d) x) AS hi
      FROM generate_series(1, 20000) o, LATERAL (SELECT hroe.order_line_draws(42, o, 300) d) s) s;
SELECT hroe.order_line_draws(42, 1, 1) AS single_product;
SELECT hroe.order_line_draws(42, 0, 300);  -- error
SELECT hroe.order_line_draws(42, 1, 0);    -- error
