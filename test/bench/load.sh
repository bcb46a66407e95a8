#!/usr/bin/env bash
# test/bench/load.sh: hroe.load figures for the normalized model — time and
# on-disk size at scales 1, 100 and 3000 (HROE_LOAD_SCALES overrides), with
# the row counts. Scales below 1000 are loaded 3 times and the median is
# reported. Run with: HROE_PGPORT=5504 bash test/bench/run.sh load
set -euo pipefail
scales=${HROE_LOAD_SCALES:-1 100 3000}
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe"

# seconds of one hroe.load(scale, 42), as the client sees it
load_once() {
	local t0 t1
	t0=$(date +%s.%N)
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
		-c "SELECT count(*) FROM hroe.load($1, 42)" >/dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

echo
echo "| scale | orders | order lines | OPEN | customers | employees | products | inventories | load time (s) | tables (MB) | indexes (MB) | total (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for s in $scales; do
	runs=1
	if awk -v s="$s" 'BEGIN { exit !(s < 1000) }'; then runs=3; fi
	times=()
	for _ in $(seq $runs); do times+=("$(load_once "$s")"); done
	median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
	psql -X -q -A -t -F ' | ' -v ON_ERROR_STOP=1 -c "
		SELECT '| $s', (SELECT count(*) FROM hroe_normalized.orders),
		       (SELECT count(*) FROM hroe_normalized.order_items),
		       (SELECT count(*) FROM hroe_normalized.orders WHERE order_status = 'OPEN'),
		       (SELECT count(*) FROM hroe_normalized.customers),
		       (SELECT count(*) FROM hroe_normalized.employees),
		       (SELECT count(*) FROM hroe_normalized.product_information),
		       (SELECT count(*) FROM hroe_normalized.inventories),
		       '$median',
		       round(sum(pg_table_size(c.oid)) / 1048576.0, 1),
		       round(sum(pg_indexes_size(c.oid)) / 1048576.0, 1),
		       round(sum(pg_total_relation_size(c.oid)) / 1048576.0, 1) || ' |'
		FROM pg_class c
		WHERE c.relnamespace = 'hroe_normalized'::regnamespace AND c.relkind = 'r'"
	echo "scale $s: load times ${times[*]} s" >&2
done
echo
echo "Load time: hroe.load(scale, 42) as the client sees it (median of 3 below scale 1000), including the"
echo "index and constraint rebuild and ANALYZE; sizes: pg_table_size / pg_indexes_size /"
echo "pg_total_relation_size summed over hroe_normalized's tables after the load."
