#!/usr/bin/env bash
# test/bench/load.sh: hroe.load figures per model — time and on-disk size of
# hroe_normalized and hroe_single at scales 1, 100 and 3000 (HROE_LOAD_SCALES
# overrides), with the row and item counts. Scales below 1000 are loaded 3
# times and the median is reported. Run with:
#   HROE_PGPORT=5504 bash test/bench/run.sh load
set -euo pipefail
scales=${HROE_LOAD_SCALES:-1 100 3000}
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe"

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
echo "| scale | orders | order lines | OPEN | customers | employees | products | inventories | single-table items | GSI2 shards | hroe.load, both models (s) | normalized (s) | hroe_single (s) | normalized tables / indexes / total (MB) | hroe_single table / indexes / total (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
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
done
echo
echo "hroe.load, both models: hroe.load(scale, 42) as the client sees it (median of 3 below scale 1000),"
echo "the normalized load (with its index and constraint rebuild and ANALYZE) followed by the mapping into"
echo "hroe_single; hroe_single: the mapping, hroe_single.load_from_normalized(), timed in the server (from"
echo "scale 10 hroe.load's own report, below it a second run on the loaded data): building every item, the"
echo "generated key columns, the five indexes, ANALYZE; normalized: the difference. Sizes: pg_table_size /"
echo "pg_indexes_size / pg_total_relation_size summed over each schema's tables after the load."
