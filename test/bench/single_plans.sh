#!/usr/bin/env bash
# test/bench/single_plans.sh: hroe_single's patterns 4 and 10 (customer_orders,
# rep_orders) under the planner's default costs, which at small scales pick a
# Bitmap Heap Scan + Sort for some calls, against the plain ordered Index Scan
# (no Sort) that random_page_cost = 1.1 or enable_bitmapscan = off give.
#
# Run through the runner (throwaway cluster, hroe built without assertions,
# one benchmark at a time):  HROE_PGPORT=5511 bash test/bench/run.sh single_plans
#
# For scales 1 and 10 (hroe.load, then ANALYZE by the load), three call sets:
#   rep         rep_orders(e, 2020-01-01, 2025-12-31) for every sales rep (GSI4)
#   rep_closed  the same with status CLOSED (GSI1)
#   customer    customer_orders(c, 2020-01-01, 2025-12-31) for customers 1..300 (GSI4)
# per set and plan ("default" costs; "index": enable_bitmapscan = off):
#   bitmap calls  calls planned with a Bitmap Heap Scan
#   call µs       per call, one statement with literal arguments (parse, plan,
#                 execute), as a client sends it
#   exec µs       per call, the plan alone: each call prepared once (planned
#                 under that setting), then EXECUTEd
# each figure over PASSES (5) passes of the call set; REPS (7) alternating
# repetitions, medians; raw figures in
# test/bench/out/single_plans.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

REPS=${HROE_BENCH_REPS:-7}
PASSES=${HROE_BENCH_PASSES:-5}
SCALES=${HROE_BENCH_SCALES:-1 10}
DB=hroe_bench_single_plans
CSV=test/bench/out/single_plans.csv

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { PGOPTIONS="-c bench.passes=$PASSES" psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
run -c "CREATE EXTENSION hroe_hr CASCADE"
run <<'SQL'
CREATE TABLE calls (set text, sql text);
CREATE TABLE figures (scale numeric, rep int, set text, plan text, bitmap_calls int, calls int,
					  call_us numeric, exec_us numeric);
-- one repetition of one call set under one plan
CREATE FUNCTION measure(p_set text, p_index boolean, OUT bitmap_calls int, OUT calls int,
						OUT call_us numeric, OUT exec_us numeric)
LANGUAGE plpgsql AS $$
DECLARE
	v_sql text[];
	t0 timestamptz;
	j json;
BEGIN
	SELECT array_agg(c.sql ORDER BY c.sql) INTO v_sql FROM calls c WHERE c.set = p_set;
	PERFORM set_config('enable_bitmapscan', CASE WHEN p_index THEN 'off' ELSE 'on' END, true);
	bitmap_calls := 0;
	calls := cardinality(v_sql);
	FOR i IN 1 .. calls LOOP
		EXECUTE 'EXPLAIN (FORMAT JSON) ' || v_sql[i] INTO j;
		IF j::text LIKE '%Bitmap Heap Scan%' THEN
			bitmap_calls := bitmap_calls + 1;
		END IF;
	END LOOP;
	-- parse, plan, execute: PASSES passes over the calls
	t0 := clock_timestamp();
	FOR p IN 1 .. current_setting('bench.passes')::int LOOP
		FOR i IN 1 .. calls LOOP
			EXECUTE v_sql[i];
		END LOOP;
	END LOOP;
	call_us := round(extract(epoch FROM clock_timestamp() - t0) * 1e6
					 / (calls * current_setting('bench.passes')::int), 1);
	-- the plans alone: each call prepared (and planned) once, then executed
	FOR i IN 1 .. calls LOOP
		EXECUTE format('PREPARE c%s AS %s', i, v_sql[i]);
		EXECUTE format('EXECUTE c%s', i);
	END LOOP;
	t0 := clock_timestamp();
	FOR p IN 1 .. current_setting('bench.passes')::int LOOP
		FOR i IN 1 .. calls LOOP
			EXECUTE format('EXECUTE c%s', i);
		END LOOP;
	END LOOP;
	exec_us := round(extract(epoch FROM clock_timestamp() - t0) * 1e6
					 / (calls * current_setting('bench.passes')::int), 1);
	EXECUTE 'DEALLOCATE ALL';
END
$$;
SQL

for scale in $SCALES; do
	run -c "SELECT FROM hroe.load($scale)" >/dev/null
	run <<'SQL'
TRUNCATE calls;
INSERT INTO calls
SELECT 'rep', format('SELECT * FROM hroe_single.rep_orders(%s, %L, %L)', e, '2020-01-01', '2025-12-31')
FROM (SELECT DISTINCT sales_rep_id e FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL) r
UNION ALL
SELECT 'rep_closed', format('SELECT * FROM hroe_single.rep_orders(%s, %L, %L, %L)', e, '2020-01-01', '2025-12-31', 'CLOSED')
FROM (SELECT DISTINCT sales_rep_id e FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL) r
UNION ALL
SELECT 'customer', format('SELECT * FROM hroe_single.customer_orders(%s, %L, %L)', c, '2020-01-01', '2025-12-31')
FROM generate_series(1, 300) c;
SQL
	for set in rep rep_closed customer; do
		# a warm-up pass of each plan, then alternating repetitions
		run -c "SELECT measure('$set', false), measure('$set', true)" >/dev/null
		for rep in $(seq 1 "$REPS"); do
			if [ $((rep % 2)) -eq 1 ]; then plans="default index"; else plans="index default"; fi
			for plan in $plans; do
				run -c "INSERT INTO figures SELECT $scale, $rep, '$set', '$plan', m.* FROM measure('$set', '$plan' = 'index') m"
			done
		done
	done
done

run -c "COPY (SELECT * FROM figures ORDER BY scale, set, plan, rep) TO STDOUT (FORMAT csv, HEADER)" >"$CSV"
echo
echo "| scale | call set | calls | bitmap calls (default) | default call µs | index call µs | default exec µs | index exec µs | exec default / index |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
run -F ' | ' <<'SQL' | sed 's/^/| /; s/$/ |/'
WITH m AS (
	SELECT scale, set, plan, max(calls) AS calls, max(bitmap_calls) AS bitmap_calls,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY call_us) AS call_us,
		   percentile_cont(0.5) WITHIN GROUP (ORDER BY exec_us) AS exec_us
	FROM figures GROUP BY scale, set, plan)
SELECT d.scale, d.set, d.calls, d.bitmap_calls,
	   round(d.call_us::numeric, 1), round(i.call_us::numeric, 1),
	   round(d.exec_us::numeric, 1), round(i.exec_us::numeric, 1),
	   round((d.exec_us / i.exec_us)::numeric, 2)
FROM m d JOIN m i ON i.scale = d.scale AND i.set = d.set AND i.plan = 'index'
WHERE d.plan = 'default'
ORDER BY d.scale, d.set;
SQL
psql -X -q -d postgres -c "DROP DATABASE $DB"
