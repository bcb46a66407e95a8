#!/usr/bin/env bash
# test/bench/load.sh: hroe.load figures per model — time and on-disk size of
# hroe_normalized, hroe_single and hroe_multi at scales 1, 100 and 3000 (HROE_LOAD_SCALES
# overrides), with the row and item counts. Scales below 1000 are loaded 3
# times and the median is reported. Then, at the largest scale, the latency
# of each normalized read pattern on demanding arguments (the busiest rep,
# product and customer) and the indexes its plan uses. Run with:
#   HROE_PGPORT=5504 bash test/bench/run.sh load
set -euo pipefail
scales=${HROE_LOAD_SCALES:-1 100 3000}
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE"

# One hroe.load(scale, 42), which fills hroe_normalized and then maps it into
# hroe_single (hroe_single.load_from_normalized(), timed inside the server):
# prints "<total seconds> <hroe_single seconds>".
load_once() {
	local t0 t1 single log
	log=$(mktemp)
	t0=$(date +%s.%N)
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = notice" \
		-c "SELECT count(*) FROM hroe.load($1, 42)" >/dev/null 2>"$log"
	t1=$(date +%s.%N)
	# from scale 10, hroe.load reports each phase, the mapping included
	single=$(sed -n 's/.*hroe_single mapped (\([0-9.]*\) s).*/\1/p' "$log")
	rm -f "$log"
	if [ -z "$single" ]; then
		# below: the mapping alone, run again on the loaded data (it
		# replaces every item), timed by the server
		single=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -c "
			DO \$\$ DECLARE t timestamptz := clock_timestamp(); BEGIN
				PERFORM count(*) FROM hroe_single.load_from_normalized();
				RAISE WARNING 'single %', extract(epoch FROM clock_timestamp() - t);
			END \$\$;" 2>&1 | sed -n 's/.*single \([0-9.]*\).*/\1/p')
	fi
	awk -v a="$t0" -v b="$t1" -v s="$single" 'BEGIN { printf "%.2f %.2f", b - a, s }'
}

size_of() {
	psql -X -q -A -t -F ' | ' -v ON_ERROR_STOP=1 -c "
		SELECT round(sum(pg_table_size(c.oid)) / 1048576.0, 1) || ' / '
		       || round(sum(pg_indexes_size(c.oid)) / 1048576.0, 1) || ' / '
		       || round(sum(pg_total_relation_size(c.oid)) / 1048576.0, 1)
		FROM pg_class c
		WHERE c.relnamespace = '$1'::regnamespace AND c.relkind = 'r'"
}

echo
echo "| scale | orders | order lines | OPEN | customers | employees | products | inventories | single-table items | GSI2 shards | hroe.load, all three models (s) | normalized + hroe_multi (s) | hroe_single (s) | normalized tables / indexes / total (MB) | hroe_single table / indexes / total (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
multi_rows=()
for s in $scales; do
	runs=1
	if awk -v s="$s" 'BEGIN { exit !(s < 1000) }'; then runs=3; fi
	totals=(); singles=()
	for _ in $(seq $runs); do
		read -r t1 t2 <<<"$(load_once "$s")"
		totals+=("$t1"); singles+=("$t2")
	done
	total=$(printf '%s\n' "${totals[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
	single=$(printf '%s\n' "${singles[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
	normalized=$(awk -v a="$total" -v b="$single" 'BEGIN { printf "%.2f", a - b }')
	counts=$(psql -X -q -A -t -F ' | ' -v ON_ERROR_STOP=1 -c "
		SELECT (SELECT count(*) FROM hroe_normalized.orders),
		       (SELECT count(*) FROM hroe_normalized.order_items),
		       (SELECT count(*) FROM hroe_normalized.orders WHERE order_status = 'OPEN'),
		       (SELECT count(*) FROM hroe_normalized.customers),
		       (SELECT count(*) FROM hroe_normalized.employees),
		       (SELECT count(*) FROM hroe_normalized.product_information),
		       (SELECT count(*) FROM hroe_normalized.inventories),
		       (SELECT count(*) FROM hroe_single.items),
		       hroe_single.shard_count()")
	echo "| $s | $counts | $total | $normalized | $single | $(size_of hroe_normalized) | $(size_of hroe_single) |"
	echo "scale $s: hroe.load ${totals[*]} s; hroe_single.load_from_normalized ${singles[*]} s" >&2
	# hroe_multi: its share of the load (load_from_normalized() again, as
	# hroe.load runs it) and its size
	if psql -X -q -A -t -c "SELECT to_regprocedure('hroe_multi.load_from_normalized()') IS NOT NULL" | grep -q t; then
		t0=$(date +%s.%N)
		psql -X -q -v ON_ERROR_STOP=1 -c "SELECT count(*) FROM hroe_multi.load_from_normalized()" >/dev/null
		t1=$(date +%s.%N)
		multi_rows+=("$(psql -X -q -A -t -F ' | ' -v ON_ERROR_STOP=1 -c "
			SELECT '| $s', sum(c.reltuples)::bigint, '$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')',
			       round(sum(pg_table_size(c.oid)) / 1048576.0, 1),
			       round(sum(pg_indexes_size(c.oid)) / 1048576.0, 1),
			       round(sum(pg_total_relation_size(c.oid)) / 1048576.0, 1) || ' |'
			FROM pg_class c
			WHERE c.relnamespace = 'hroe_multi'::regnamespace AND c.relkind = 'r'")")
	fi
done
if [ ${#multi_rows[@]} -gt 0 ]; then
	echo
	echo "| scale | hroe_multi items | mapping time (s) | tables (MB) | indexes (MB) | total (MB) |"
	echo "|---:|---:|---:|---:|---:|---:|"
	printf '%s\n' "${multi_rows[@]}"
fi
echo
echo "hroe.load, all three models: hroe.load(scale, 42) as the client sees it (median of 3 below scale 1000),"
echo "the normalized load (with its index and constraint rebuild and ANALYZE) followed by the mappings into"
echo "hroe_single and hroe_multi; hroe_single: the mapping, hroe_single.load_from_normalized(), timed in the server (from"
echo "scale 10 hroe.load's own report, below it a second run on the loaded data): building every item, the"
echo "generated key columns, the five indexes, ANALYZE; normalized + hroe_multi: the difference. Sizes: pg_table_size /"
echo "pg_indexes_size / pg_total_relation_size summed over each schema's tables after the load."
echo "hroe_multi: items in its 5 tables, the time of one more hroe_multi.load_from_normalized() (part of"
echo "the load time above), sizes of its tables, GSIs included."

# The read patterns at the largest scale: median of 5 warm executions that
# produce every column of every row, and the indexes in its plan; one table
# per model installed.
for model in hroe_normalized hroe_single hroe_multi; do
psql -X -q -A -t -c "SELECT to_regnamespace('$model') IS NOT NULL" | grep -q t || continue
echo
psql -X -q -A -t -v ON_ERROR_STOP=1 -v model="$model" <<'SQL'
CREATE FUNCTION pg_temp.bench(call text, model text)
RETURNS TABLE (result_rows bigint, median_ms numeric, plan_uses text)
LANGUAGE plpgsql AS $$
DECLARE
	t timestamptz;
	times numeric[] := '{}';
	plan text := '';
	line text;
	text_bytes bigint;
BEGIN
	FOR k IN 1 .. 6 LOOP
		t := clock_timestamp();
		-- every column of every row is produced, as a client fetching the result
		-- would: the sum is returned, so the planner cannot drop the columns
		EXECUTE 'SELECT count(*), sum(length(r::text)) FROM ' || model || '.' || call || ' r'
			INTO result_rows, text_bytes;
		IF k > 1 THEN
			times := times || round(extract(epoch FROM clock_timestamp() - t)::numeric * 1000, 2);
		END IF;
	END LOOP;
	SELECT x INTO median_ms FROM unnest(times) x ORDER BY x OFFSET 2 LIMIT 1;
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) SELECT * FROM ' || model || '.' || call LOOP
		plan := plan || line || E'\n';
	END LOOP;
	SELECT string_agg(DISTINCT m[1], ', ') INTO plan_uses
	FROM regexp_matches(plan, '(?:Index Only Scan|Index Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) ("[^"]+"|\w+)', 'g') m;
	IF plan ~ 'Function Scan on (?!unnest|jsonb_array_elements|sharded_query)' THEN
		plan_uses := 'NOT INLINED';
	END IF;
	RETURN NEXT;
END $$;
SELECT sales_rep_id AS rep FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT product_id AS product FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT customer_id AS customer FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT first_name || ' ' || last_name AS name FROM hroe_normalized.employees
GROUP BY first_name, last_name ORDER BY count(*) DESC, 1 LIMIT 1 \gset
SELECT count(*) AS scale_orders FROM hroe_normalized.orders \gset
SELECT '| ' || :'model' || ' pattern (' || :scale_orders || ' orders; busiest rep ' || :rep || ', product ' || :product
       || ', customer ' || :customer || ') | rows | median ms | indexes in the plan |';
SELECT '|---|---:|---:|---|';
SELECT '| `' || c || '` | ' || b.result_rows || ' | ' || b.median_ms || ' | ' || COALESCE(b.plan_uses, '(none)') || ' |'
FROM unnest(ARRAY[
	'employee_by_id(' || :rep || ')',
	'employee_by_name(' || quote_literal(:'name') || ')',
	'employee_current_job(' || :rep || ')',
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
	'product_inventory_at(' || :product || ', 1)',
	'product_total_inventory(' || :product || ')',
	'rep_ranking(''2025-Q3'')',
	'employee_phones(' || :rep || ')',
	'customer_phones(' || :customer || ')',
	'product_inventories(' || :product || ')']) WITH ORDINALITY AS u(c, n),
	LATERAL pg_temp.bench(c, :'model') b
ORDER BY n;
SQL
done
echo
echo "Pattern latency: median of 5 warm runs of each pattern, producing every column of every row"
echo "(the text of each row is summed), measured in the server on the data of the last scale loaded."
