#!/usr/bin/env bash
# test/bench/multi_plans.sh: hroe_multi's read patterns under the plan the
# planner picks at default settings and under the plain index scan the
# regression test shows (enable_seqscan and enable_bitmapscan off), at
# scales 1 and 100 (HROE_MULTI_PLAN_SCALES overrides), on demanding
# arguments (the busiest rep, product and customer). Each call runs RUNS
# times per plan (HROE_BENCH_RUNS, default 101), the two plans alternating so
# that machine noise hits both alike; each execution plans the call (the
# pattern is inlined) and produces every column of every row (count and sum
# of the rows' text). Figures: medians in ms. Run with:
#   HROE_PGPORT=5512 bash test/bench/run.sh multi_plans
set -euo pipefail
scales=${HROE_MULTI_PLAN_SCALES:-1 100}
runs=${HROE_BENCH_RUNS:-101}
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE"

for scale in $scales; do
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "SELECT count(*) FROM hroe.load($scale, 42)" >/dev/null
echo
psql -X -q -A -t -v ON_ERROR_STOP=1 -v runs="$runs" <<'SQL'
-- the plan's scans and sorts, one line
CREATE FUNCTION pg_temp.shape(call text)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE line text; plan text := '';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT * FROM hroe_multi.' || call LOOP
		IF line ~ '(Scan|Sort|Append|ProjectSet)' AND line !~ 'Subquery Scan|Sort Key' THEN
			plan := plan || CASE WHEN plan = '' THEN '' ELSE ' + ' END
			        || regexp_replace(regexp_replace(regexp_replace(trim(regexp_replace(line, '^[ ->]*', '')),
			                                                        ' on "[^"]+" \w+$', ''), 'using ', ''),
			                          '(Function Scan on \w+) \w+$', '\1');
		END IF;
	END LOOP;
	RETURN replace(plan, 'Bitmap Heap Scan + Bitmap Index Scan on', 'Bitmap Scan');
END $$;
CREATE FUNCTION pg_temp.t(call text, n int)
RETURNS TABLE (nrows bigint, plan_default text, ms_default numeric, plan_forced text, ms_forced numeric)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	td numeric[] := '{}';
	tf numeric[] := '{}';
	len bigint;
	q text := 'SELECT count(*), sum(length(r::text)) FROM hroe_multi.' || call || ' r';
BEGIN
	plan_default := pg_temp.shape(call);
	PERFORM set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true);
	plan_forced := pg_temp.shape(call);
	FOR k IN 0 .. n LOOP
		PERFORM set_config('enable_seqscan', 'on', true), set_config('enable_bitmapscan', 'on', true);
		t0 := clock_timestamp();
		EXECUTE q INTO nrows, len;
		IF k > 0 THEN td := td || extract(epoch FROM clock_timestamp() - t0)::numeric * 1000; END IF;
		PERFORM set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true);
		t0 := clock_timestamp();
		EXECUTE q INTO nrows, len;
		IF k > 0 THEN tf := tf || extract(epoch FROM clock_timestamp() - t0)::numeric * 1000; END IF;
	END LOOP;
	PERFORM set_config('enable_seqscan', 'on', true), set_config('enable_bitmapscan', 'on', true);
	SELECT round(x, 3) INTO ms_default FROM unnest(td) x ORDER BY x OFFSET n / 2 LIMIT 1;
	SELECT round(x, 3) INTO ms_forced FROM unnest(tf) x ORDER BY x OFFSET n / 2 LIMIT 1;
	RETURN NEXT;
END $$;
SELECT sales_rep_id AS rep FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT product_id AS product FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT customer_id AS customer FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT count(*) AS orders FROM hroe_normalized.orders \gset
SELECT '| call (' || :orders || ' orders) | rows | plan at default settings | ms | plan with seq and bitmap scans off | ms | ratio |';
SELECT '|---|---:|---|---:|---|---:|---:|';
SELECT '| `' || c || '` | ' || d.nrows || ' | ' || d.plan_default || ' | ' || d.ms_default || ' | '
       || CASE WHEN d.plan_forced = d.plan_default THEN 'same' ELSE d.plan_forced END || ' | ' || d.ms_forced || ' | '
       || round(d.ms_forced / d.ms_default, 2) || ' |'
FROM unnest(ARRAY[
	'employee_by_name(''Steven King'')',
	'customer_orders(' || :customer || ', ''2025-01-01'', ''2025-12-31'')',
	'open_orders(''2025-06-01'', ''2025-06-30'')',
	'employees_hired_since(''2025-01-01'')',
	'warehouse_employees(2)',
	'product_order_items(' || :product || ')',
	'product_order_items(' || :product + 1000 || ')',
	'rep_customers(' || :rep || ')',
	'rep_orders(' || :rep || ', ''2025-07-01'', ''2025-09-30'')',
	'rep_orders(' || :rep || ', ''2025-01-01'', ''2025-12-31'', ''OPEN'')',
	'employees_by_title(''Programmer'')',
	'employees_by_title(''Stock Clerk'')',
	'rep_ranking(''2025-Q3'')',
	'employee_phones(' || :rep || ')',
	'product_inventories(' || :product || ')']) WITH ORDINALITY AS u (c, n),
	LATERAL pg_temp.t(c, :runs) d
ORDER BY n;
SQL
done
echo
echo "Median ms of $runs executions per plan, alternating; ratio = index-scan plan / default plan"
echo "(below 1: the plain index scan is faster). Each execution plans the inlined pattern and"
echo "produces every column of every row."
