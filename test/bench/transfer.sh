#!/usr/bin/env bash
# test/bench/transfer.sh: ExportTableToPointInTime and ImportTable on a table
# of ITEMS items (default 1,000,000; about 200 bytes each, one GSI), S3 a
# directory of the server (hroe.s3_root):
#   - the export's time (DYNAMODB_JSON and ION, gzip), from the request to
#     COMPLETED, and its files' size
#   - the import's time of the DYNAMODB_JSON export into a new table with the
#     GSI, from the request to COMPLETED, and the items of the new table that
#     differ from the table as exported (0 when the round trip is exact)
#   - PutItem throughput on the exported table (pgbench, CLIENTS clients,
#     random keys) over exactly an export's duration D (its start_time to
#     end_time, the server's clock) against the same writers over the D
#     seconds before it and the D seconds after it (no export running), from
#     pgbench's per-transaction log (completion times); RUNS runs (default
#     3), medians.  Each run's pgbench starts WARM seconds before the export
#     (twice the export's time alone, plus 3) and runs long enough to cover
#     D after it; a run whose windows pgbench did not cover is reported, not
#     counted
#
#   HROE_PGPORT=5842 bash test/bench/run.sh transfer
#
# Runs inside the benchmark cluster (PG* variables set).  A benchmark, not a
# test: it prints the figures and asserts nothing about them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ITEMS=${ITEMS:-1000000}
CLIENTS=${CLIENTS:-2}
RUNS=${RUNS:-3}
scratch_db hroe_bench_transfer
owner=$(stat -c %U "$(psql -XAt -d postgres -c 'SHOW data_directory')")
s3=$work/s3
mkdir -p "$s3/bench-bucket"
chown -R "$owner" "$s3"
chmod 755 "$work"
psql -X -q -d postgres -c "ALTER SYSTEM SET hroe.s3_root = '$s3'" -c "SELECT pg_reload_conf()" >/dev/null
trap 'psql -X -q -d postgres -c "ALTER SYSTEM RESET hroe.s3_root" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
	rm -rf "$work"; dropdb --if-exists "$db"' EXIT

gsi='[{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]'
defs='[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}, {"AttributeName": "g", "AttributeType": "S"}]'
keys='[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]'
q "SELECT hroe.dynamodb('CreateTable', '{\"TableName\": \"bench_src\", \"BillingMode\": \"PAY_PER_REQUEST\",
	\"AttributeDefinitions\": $defs, \"KeySchema\": $keys, \"GlobalSecondaryIndexes\": $gsi}')" >/dev/null
start=$(date +%s.%N)
q "SELECT count(hroe.put_item('bench_src', hroe.item_from_jsonb(jsonb_build_object(
	'pk', jsonb_build_object('S', 'customer#' || (i % 100000)), 'sk', jsonb_build_object('N', i::text),
	'g', jsonb_build_object('S', 'status#' || (i % 97)),
	'name', jsonb_build_object('S', 'an item of the benchmark, number ' || i),
	'total', jsonb_build_object('N', (i * 1.37)::text),
	'tags', jsonb_build_object('SS', jsonb_build_array('a', 'b' || (i % 10))),
	'lines', jsonb_build_object('L', jsonb_build_array(jsonb_build_object('M', jsonb_build_object(
		'sku', jsonb_build_object('S', 'sku-' || (i % 5000)), 'qty', jsonb_build_object('N', (i % 9)::text)))))))))
	FROM generate_series(1, $ITEMS) i" >/dev/null
load=$(echo "$(date +%s.%N) - $start" | bc)
q "VACUUM ANALYZE"
size=$(q "SELECT pg_size_pretty(pg_total_relation_size(relid)) FROM hroe.tables WHERE table_name = 'bench_src'")
arn=$(q "SELECT hroe.table_arn('bench_src')")

cat >"$work/put.sql" <<SQL
\set k random(1, $ITEMS)
SELECT hroe.put_item('bench_src', hroe.item_from_jsonb(jsonb_build_object('pk', jsonb_build_object('S', 'customer#' || (:k % 100000)), 'sk', jsonb_build_object('N', :k::text), 'g', jsonb_build_object('S', 'status#1'), 'name', jsonb_build_object('S', 'rewritten'))));
SQL

wait_export() { # arn: seconds from the request to COMPLETED
	for _ in $(seq 1 36000); do
		st=$(q "SELECT export_status FROM hroe.exports WHERE export_arn = '$1'")
		[ "$st" != IN_PROGRESS ] && break
		sleep 0.1
	done
	[ "$st" = COMPLETED ] || { echo "export $1: $st $(q "SELECT failure_message FROM hroe.exports WHERE export_arn = '$1'")" >&2; exit 1; }
	q "SELECT round(EXTRACT(epoch FROM end_time - start_time)::numeric, 1) FROM hroe.exports WHERE export_arn = '$1'"
}

# the exports alone
earn=$(q "SELECT hroe.export_table('$arn', 'bench-bucket', 'json', 'DYNAMODB_JSON') #>> '{ExportDescription,ExportArn}'")
json_secs=$(wait_export "$earn")
json_dir=$s3/bench-bucket/json/AWSDynamoDB/${earn##*/}
json_size=$(du -sh "$json_dir/data" | cut -f1)
iarn=$(q "SELECT hroe.export_table('$arn', 'bench-bucket', 'ion', 'ION') #>> '{ExportDescription,ExportArn}'")
ion_secs=$(wait_export "$iarn")
ion_size=$(du -sh "$s3/bench-bucket/ion/AWSDynamoDB/${iarn##*/}/data" | cut -f1)
exported=$(q "SELECT item_count FROM hroe.exports WHERE export_arn = '$earn'")
# the table as the first export read it (nothing has written since the load), for the re-import's check
src=$(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = 'bench_src'")
q "CREATE TABLE bench_snap AS SELECT hroe.item_to_jsonb(item) AS j FROM $src" >/dev/null

# PutItem during a DYNAMODB_JSON export against the same length without one
est=$(printf '%.0f' "$json_secs")
[ "$est" -ge 1 ] || est=1
warm=$((2 * est + 3))
runs_during=()
runs_without=()
for r in $(seq 1 "$RUNS"); do
	rm -f "$work"/pgb.*
	"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T $((warm + 4 * est + 6)) -l --log-prefix="$work/pgb" \
		-f "$work/put.sql" "$db" >/dev/null 2>&1 &
	pgb=$!
	sleep "$warm"
	darn=$(q "SELECT hroe.export_table('$arn', 'bench-bucket', 'during$r', 'DYNAMODB_JSON') #>> '{ExportDescription,ExportArn}'")
	wait_export "$darn" >/dev/null
	wait "$pgb"
	read -r es ee <<<"$(q "SELECT EXTRACT(epoch FROM start_time), EXTRACT(epoch FROM end_time) FROM hroe.exports
		WHERE export_arn = '$darn'" | tr '|' ' ')"
	# (a log line: client, transaction, latency, script, completion epoch s, its microseconds)
	read -r during without first last <<<"$(cat "$work"/pgb.* | awk -v s="$es" -v e="$ee" '
		{ t = $5 + $6 / 1e6; if (first == "" || t < first) first = t; if (t > last) last = t
		  if (t >= s && t < e) d++; else if ((t >= s - (e - s) && t < s) || (t >= e && t < e + (e - s))) w++ }
		END { printf "%.0f %.0f %.3f %.3f", d / (e - s), w / (2 * (e - s)), first, last }')"
	dur=$(echo "$ee - $es" | bc)
	if [ "$(echo "$first <= $es - $dur && $last >= $ee + $dur" | bc)" = 1 ]; then
		runs_during+=("$during")
		runs_without+=("$without")
		echo "run $r: export ${dur} s; PutItem $during a second during it, $without without (the ${dur} s before and after)" >&2
	else
		echo "run $r: export ${dur} s; pgbench did not cover the windows (from $first to $last): not counted" >&2
	fi
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
during=$(median "${runs_during[@]}")
without=$(median "${runs_without[@]}")

# the JSON export imported into a new table with the GSI
imp=$(q "SELECT hroe.import_table(jsonb_build_object('S3Bucket', 'bench-bucket', 'S3KeyPrefix', 'json/AWSDynamoDB/${earn##*/}/data/'),
	'DYNAMODB_JSON', '{\"TableName\": \"bench_dst\", \"BillingMode\": \"PAY_PER_REQUEST\", \"AttributeDefinitions\": $defs,
	\"KeySchema\": $keys, \"GlobalSecondaryIndexes\": $gsi}', 'GZIP') #>> '{ImportTableDescription,ImportArn}'")
for _ in $(seq 1 72000); do
	st=$(q "SELECT import_status FROM hroe.imports WHERE import_arn = '$imp'")
	[ "$st" != IN_PROGRESS ] && break
	sleep 0.2
done
read -r imp_secs imp_items imp_errors <<<"$(q "SELECT round(EXTRACT(epoch FROM end_time - start_time)::numeric, 1), imported_item_count, error_count
	FROM hroe.imports WHERE import_arn = '$imp'" | tr '|' ' ')"

# item for item: the re-imported table against the table as exported (both ways, duplicates counted)
dst=$(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = 'bench_dst'")
differ=$(q "SELECT (SELECT count(*) FROM (SELECT j FROM bench_snap EXCEPT ALL SELECT hroe.item_to_jsonb(item) FROM $dst) a)
	+ (SELECT count(*) FROM (SELECT hroe.item_to_jsonb(item) FROM $dst EXCEPT ALL SELECT j FROM bench_snap) b)")

echo "| figure | value |"
echo "|---|---|"
echo "| items (table with one GSI, $size on disk; loaded in ${load%.*} s) | $ITEMS |"
echo "| export, DYNAMODB_JSON gzip: time to COMPLETED | $json_secs s ($exported items, $json_size of data files) |"
echo "| export, ION gzip: time to COMPLETED | $ion_secs s ($ion_size of data files) |"
echo "| import of the DYNAMODB_JSON export (new table, one GSI): time to COMPLETED | $imp_secs s ($imp_items items, $imp_errors errors; $st) |"
echo "| re-imported items that differ from the table as exported (either way) | $differ |"
echo "| PutItem on the table, $CLIENTS clients, over the export's duration, no export running (median of ${#runs_without[@]} runs: ${runs_without[*]}) | $without per second |"
echo "| PutItem on the table, $CLIENTS clients, over the export's duration, the DYNAMODB_JSON export running (median of ${#runs_during[@]} runs: ${runs_during[*]}) | $during per second |"
