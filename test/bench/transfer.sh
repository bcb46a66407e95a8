#!/usr/bin/env bash
# test/bench/transfer.sh: ExportTableToPointInTime and ImportTable on a table
# of ITEMS items (default 1,000,000; about 200 bytes each, one GSI), S3 a
# directory of the server (hroe.s3_root):
#   - the export's time (DYNAMODB_JSON and ION, gzip), from the request to
#     COMPLETED, and its files' size
#   - the import's time of the DYNAMODB_JSON export into a new table with the
#     GSI, from the request to COMPLETED
#   - PutItem throughput on the exported table (pgbench, CLIENTS clients,
#     random keys, SECS seconds) without an export running, then while the
#     export runs
#
#   HROE_PGPORT=5842 bash test/bench/run.sh transfer
#
# Runs inside the benchmark cluster (PG* variables set).  A benchmark, not a
# test: it prints the figures and asserts nothing about them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
ITEMS=${ITEMS:-1000000}
CLIENTS=${CLIENTS:-2}
SECS=${SECS:-10}
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
puts() { "$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/put.sql" "$db" 2>/dev/null | awk '/^tps/ {printf "%.0f", $3}'; }

wait_export() { # arn: seconds from the request to COMPLETED
	for _ in $(seq 1 36000); do
		st=$(q "SELECT export_status FROM hroe.exports WHERE export_arn = '$1'")
		[ "$st" != IN_PROGRESS ] && break
		sleep 0.1
	done
	[ "$st" = COMPLETED ] || { echo "export $1: $st $(q "SELECT failure_message FROM hroe.exports WHERE export_arn = '$1'")" >&2; exit 1; }
	q "SELECT round(EXTRACT(epoch FROM end_time - start_time)::numeric, 1) FROM hroe.exports WHERE export_arn = '$1'"
}

without=$(puts)
# the JSON export, with pgbench writing during it
earn=$(q "SELECT hroe.export_table('$arn', 'bench-bucket', 'json', 'DYNAMODB_JSON') #>> '{ExportDescription,ExportArn}'")
during=$(puts)
json_secs=$(wait_export "$earn")
json_dir=$s3/bench-bucket/json/AWSDynamoDB/${earn##*/}
json_size=$(du -sh "$json_dir/data" | cut -f1)
# the Ion export, alone
iarn=$(q "SELECT hroe.export_table('$arn', 'bench-bucket', 'ion', 'ION') #>> '{ExportDescription,ExportArn}'")
ion_secs=$(wait_export "$iarn")
ion_size=$(du -sh "$s3/bench-bucket/ion/AWSDynamoDB/${iarn##*/}/data" | cut -f1)
exported=$(q "SELECT item_count FROM hroe.exports WHERE export_arn = '$earn'")

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

echo "| figure | value |"
echo "|---|---|"
echo "| items (table with one GSI, $size on disk; loaded in ${load%.*} s) | $ITEMS |"
echo "| export, DYNAMODB_JSON gzip: time to COMPLETED | $json_secs s ($exported items, $json_size of data files) |"
echo "| export, ION gzip: time to COMPLETED | $ion_secs s ($ion_size of data files) |"
echo "| import of the DYNAMODB_JSON export (new table, one GSI): time to COMPLETED | $imp_secs s ($imp_items items, $imp_errors errors; $st) |"
echo "| PutItem on the table, $CLIENTS clients, no export running | $without per second |"
echo "| PutItem on the table, $CLIENTS clients, the DYNAMODB_JSON export running | $during per second |"
