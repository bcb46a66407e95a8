#!/usr/bin/env bash
# test/bench/key.sh: hroe.key against text COLLATE "C" on the same 1M keys.
#
# Run through the runner (throwaway cluster, hroe built without assertions,
# one benchmark at a time):  HROE_PGPORT=5501 bash test/bench/run.sh key
#
# Two data sets of 1,000,000 keys each:
#   composite  status#date#id, e.g. OPEN#2025-03-14#0012345 (long shared
#              prefixes: abbreviated keys are abandoned for both types)
#   random     32 hex digits (abbreviated keys decide most comparisons)
# and four measurements per type, each repeated, alternating the types:
#   sort       ORDER BY over the 1M keys, in memory
#   btree      CREATE INDEX over the 1M keys (serial build)
#   lookup     100,000 prefix lookups in one statement (nested loop of index
#              scans): key "k ^@ p" (run-time bounds), text "k >= p AND k < q"
#              with the upper bound q precomputed
#   query      100,000 prefix queries, one statement each with a constant
#              prefix (parse, plan, index scan): key and text both "k ^@ 'p'"
# Prints a Markdown table of medians (ms) and ratios key / text; raw timings
# go to test/bench/out/key.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

KEYS=${HROE_BENCH_KEYS:-1000000}
PROBES=$((KEYS / 10))
REPS=${HROE_BENCH_REPS:-7}
QUERY_REPS=${HROE_BENCH_QUERY_REPS:-3}
DB=hroe_bench_key

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" -c "ALTER DATABASE $DB SET search_path = public, hroe"
# Which type runs first alternates from one repetition to the next.
order() { if [ $(($1 % 2)) -eq 1 ]; then echo key text; else echo text key; fi; }
run() { psql -X -q -v ON_ERROR_STOP=1 -v clk_tck="$(getconf CLK_TCK)" -v keys="$KEYS" -v probes="$PROBES" -d "$DB" "$@"; }

run <<'SQL'
CREATE EXTENSION hroe;
SELECT FROM setseed(0.42) \g /dev/null
CREATE TABLE src (set text, n int, k text COLLATE "C");
INSERT INTO src
SELECT 'composite', i,
	   format('%s#%s#%s', (ARRAY['OPEN', 'SHIPPED', 'CLOSED', 'CANCELED'])[1 + (r % 4)],
			  date '2025-01-01' + (r / 4 % 365)::int, lpad((r % 1000003)::text, 7, '0'))
FROM (SELECT i, (random() * 2e9)::bigint AS r FROM generate_series(1, :keys) i) s;
INSERT INTO src SELECT 'random', i, md5(i::text || 'hroe') FROM generate_series(1, :keys) i;

-- one table per data set and type, same rows in the same physical order
CREATE TABLE t_composite (k text COLLATE "C");
CREATE TABLE k_composite (k hroe.key);
CREATE TABLE t_random (k text COLLATE "C");
CREATE TABLE k_random (k hroe.key);
INSERT INTO t_composite SELECT k FROM src WHERE set = 'composite' ORDER BY n;
INSERT INTO k_composite SELECT k FROM src WHERE set = 'composite' ORDER BY n;
INSERT INTO t_random SELECT k FROM src WHERE set = 'random' ORDER BY n;
INSERT INTO k_random SELECT k FROM src WHERE set = 'random' ORDER BY n;

-- 100,000 prefixes per set, each matching a few keys: status#date#dd for
-- composite keys, 4 hex digits for random ones; with the successor of each
-- prefix for the text range
CREATE TABLE probes (set text, id int, prefix text COLLATE "C", upper text COLLATE "C");
INSERT INTO probes
SELECT 'composite', i, p, left(p, -1) || chr(ascii(right(p, 1)) + 1)
FROM (SELECT i, left(k, length(k) - 5) AS p
	  FROM (SELECT row_number() OVER () AS i, k FROM src WHERE set = 'composite' ORDER BY random() LIMIT :probes) s) s;
INSERT INTO probes
SELECT 'random', i, p, left(p, -1) || chr(ascii(right(p, 1)) + 1)
FROM (SELECT i, left(k, 4) AS p
	  FROM (SELECT row_number() OVER () AS i, k FROM src WHERE set = 'random' ORDER BY random() LIMIT :probes) s) s;
CREATE TABLE kprobes AS SELECT set, id, prefix::hroe.key AS prefix FROM probes;
VACUUM ANALYZE;

CREATE TABLE timings (test text, set text, type text, rep int, ms float8, cpu_ms float8);

-- CPU time (user + system) of this backend so far, in ms, from /proc: on a
-- busy machine it is much steadier than the wall time.
CREATE TABLE clock AS SELECT :clk_tck::float8 AS ticks_per_s;
CREATE FUNCTION cpu_ms() RETURNS float8 LANGUAGE sql AS $f$
	SELECT (f[12]::bigint + f[13]::bigint) * 1000.0 / (SELECT ticks_per_s FROM clock)
	FROM (SELECT regexp_split_to_array(
				 split_part(pg_read_file('/proc/' || pg_backend_pid() || '/stat'), ') ', 2), ' ') AS f) s
$f$;

-- Run a statement, return its wall time and its CPU time in ms.
CREATE FUNCTION time_ms(stmt text, OUT ms float8, OUT cpu_ms float8) LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	c0 float8 := cpu_ms();
BEGIN
	EXECUTE stmt;
	ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
	cpu_ms := cpu_ms() - c0;
END
$$;

-- 100,000 prefix queries, one statement each.
CREATE FUNCTION prefix_queries(tab text, pset text, ptype text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	p text;
	c bigint;
	total bigint := 0;
BEGIN
	FOR p IN SELECT prefix FROM probes WHERE set = pset ORDER BY id LOOP
		EXECUTE format('SELECT count(*) FROM %I WHERE k ^@ %L', tab, p) INTO c;
		total := total + c;
	END LOOP;
	RETURN total;
END
$$;
SQL

# The lookup statements must be index scans with the prefix as a range, and
# both types must find the same rows.
run -At <<'SQL' >test/bench/out/key-plans.txt
SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_memoize = off;
CREATE INDEX ON k_composite (k); CREATE INDEX ON t_composite (k);
EXPLAIN (COSTS OFF) SELECT sum(c) FROM kprobes p, LATERAL (SELECT count(*) AS c FROM k_composite WHERE k ^@ p.prefix) x WHERE p.set = 'composite';
EXPLAIN (COSTS OFF) SELECT sum(c) FROM probes p, LATERAL (SELECT count(*) AS c FROM t_composite WHERE k >= p.prefix AND k < p.upper) x WHERE p.set = 'composite';
EXPLAIN (COSTS OFF) SELECT count(*) FROM k_composite WHERE k ^@ 'OPEN#2025-03-14#00';
EXPLAIN (COSTS OFF) SELECT count(*) FROM t_composite WHERE k ^@ 'OPEN#2025-03-14#00';
SELECT 'same rows: ' || ((SELECT sum(c) FROM kprobes p, LATERAL (SELECT count(*) AS c FROM k_composite WHERE k ^@ p.prefix) x WHERE p.set = 'composite')
	= (SELECT sum(c) FROM probes p, LATERAL (SELECT count(*) AS c FROM t_composite WHERE k >= p.prefix AND k < p.upper) x WHERE p.set = 'composite'));
DROP INDEX k_composite_k_idx; DROP INDEX t_composite_k_idx;
SQL

for set in composite random; do
	for rep in $(seq 1 "$REPS"); do
		for type in $(order "$rep"); do
			tab=$([ $type = key ] && echo k_$set || echo t_$set)
			run <<SQL
SET work_mem = '1GB';
SET max_parallel_workers_per_gather = 0;
INSERT INTO timings SELECT 'sort', '$set', '$type', $rep, * FROM time_ms('SELECT count(*) FROM (SELECT k FROM $tab ORDER BY k OFFSET 0) s');
SQL
		done
	done
	for rep in $(seq 1 "$REPS"); do
		for type in $(order "$rep"); do
			tab=$([ $type = key ] && echo k_$set || echo t_$set)
			run <<SQL
SET client_min_messages = warning;
SET max_parallel_maintenance_workers = 0;
DROP INDEX IF EXISTS ${tab}_k_idx;
CHECKPOINT;
INSERT INTO timings SELECT 'btree', '$set', '$type', $rep, * FROM time_ms('CREATE INDEX ${tab}_k_idx ON $tab (k)');
SQL
		done
	done
	run -c "VACUUM ANALYZE k_$set, t_$set"
	for rep in $(seq 1 "$REPS"); do
		for type in $(order "$rep"); do
			if [ $type = key ]; then
				lookup="SELECT sum(c) FROM kprobes p, LATERAL (SELECT count(*) AS c FROM k_$set WHERE k ^@ p.prefix) x WHERE p.set = '$set'"
			else
				lookup="SELECT sum(c) FROM probes p, LATERAL (SELECT count(*) AS c FROM t_$set WHERE k >= p.prefix AND k < p.upper) x WHERE p.set = '$set'"
			fi
			run <<SQL
SET enable_seqscan = off;
SET enable_memoize = off;
SET enable_bitmapscan = off;
INSERT INTO timings SELECT 'lookup', '$set', '$type', $rep, * FROM time_ms(\$q\$$lookup\$q\$);
SQL
		done
	done
	for rep in $(seq 1 "$QUERY_REPS"); do
		for type in $(order "$rep"); do
			tab=$([ $type = key ] && echo k_$set || echo t_$set)
			run <<SQL
SET enable_seqscan = off;
SET enable_memoize = off;
SET enable_bitmapscan = off;
INSERT INTO timings SELECT 'query', '$set', '$type', $rep, * FROM time_ms(\$q\$SELECT prefix_queries('$tab', '$set', '$type')\$q\$);
SQL
		done
	done
done

run -At -F, -c "SELECT test, set, type, rep, round(ms::numeric, 1), round(cpu_ms::numeric, 1) FROM timings ORDER BY 1, 2, 3, 4" >test/bench/out/key.csv

echo
echo "hroe.key vs text COLLATE \"C\": $KEYS keys per set, $PROBES prefixes. Medians of $REPS runs ($QUERY_REPS for the"
echo "per-statement queries), types alternating; CPU = the backend's user + system time, wall = elapsed."
echo
run -At <<'SQL'
WITH m AS (
	SELECT test, set, type,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu_ms) AS cpu,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS wall
	FROM timings GROUP BY 1, 2, 3)
SELECT '| measurement | keys | hroe.key CPU ms | text "C" CPU ms | ratio (CPU) | hroe.key wall ms | text "C" wall ms | ratio (wall) |' UNION ALL
SELECT '|---|---|---:|---:|---:|---:|---:|---:|' UNION ALL
(SELECT format('| %s | %s | %s | %s | **%s** | %s | %s | %s |',
			   CASE k.test WHEN 'sort' THEN 'sort all keys (ORDER BY, in memory)'
						   WHEN 'btree' THEN 'build a btree (serial)'
						   WHEN 'lookup' THEN 'prefix lookups, one statement'
						   ELSE 'prefix queries, one statement each' END,
			   k.set, round(k.cpu::numeric), round(t.cpu::numeric), round((k.cpu / NULLIF(t.cpu, 0))::numeric, 2),
			   round(k.wall::numeric), round(t.wall::numeric), round((k.wall / NULLIF(t.wall, 0))::numeric, 2))
 FROM m k JOIN m t ON t.test = k.test AND t.set = k.set AND t.type = 'text'
 WHERE k.type = 'key'
 ORDER BY array_position(ARRAY['sort', 'btree', 'lookup', 'query'], k.test), k.set);
SQL
echo
sed 's/^/    /' test/bench/out/key-plans.txt
psql -X -q -d postgres -c "DROP DATABASE $DB"
