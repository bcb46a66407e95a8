#!/usr/bin/env bash
# test/bench/partition.sh: the per-request cost of a remote partition
# (doc/partitioning.md): GetItem, Query, a Scan page (1 MB, from a random
# ExclusiveStartKey; HROE_BENCH_ITEMS items of about 250 bytes, default
# 10000) and PutItem through hroe.dynamodb on
# a local table and on the same table partitioned over two partition servers
# (test/lib_partition.sh; three clusters of test/lib_cluster.sh on this
# machine, Unix sockets), one pgbench client, each for HROE_BENCH_SECONDS
# (default 15). Prints a Markdown table: requests/s, mean latency, and the
# distributed table's latency over the local one's.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib_cluster.sh
. test/lib_partition.sh
seconds=${HROE_BENCH_SECONDS:-15}
cluster_setup
base=${HROE_PARTITION_PORT:-5835}
opts=(-c shared_buffers=512MB -c jit=off)
cluster_init coord "$base"
cluster_start coord "${opts[@]}"
cluster_init part1 $((base + 1))
cluster_start part1 "${opts[@]}"
cluster_init part2 $((base + 2))
cluster_start part2 "${opts[@]}"
db=hroe_bench
partition_setup coord "$db" part1 part2
C() { cluster_psql coord -d "$db" "$@"; }
create='{"TableName": "%s", "BillingMode": "PAY_PER_REQUEST",
 "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"}, {"AttributeName": "s", "AttributeType": "N"}],
 "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}]}'
# the local table: created with hroe.partition_servers empty
C -c "SET hroe.partition_servers = ''" -c "SELECT hroe.dynamodb('CreateTable', format('$create', 'Local')::jsonb)" >/dev/null
C -c "SELECT hroe.dynamodb('CreateTable', format('$create', 'Dist')::jsonb)" >/dev/null
for t in Local Dist; do
	C -c "SELECT count(hroe.dynamodb('PutItem', jsonb_build_object('TableName', '$t', 'Item', jsonb_build_object(
		'p', jsonb_build_object('S', 'p' || i / 10), 's', jsonb_build_object('N', (i % 10)::text),
		'payload', jsonb_build_object('S', repeat('x', 200))))))
		FROM generate_series(0, ${HROE_BENCH_ITEMS:-10000} - 1) i" >/dev/null
done
C -c "VACUUM ANALYZE"
cluster_psql part1 -d "$db" -c "VACUUM ANALYZE"
cluster_psql part2 -d "$db" -c "VACUUM ANALYZE"
work=$CLUSTER_WORK
echo "| request | table | requests/s | mean latency (ms) | latency / local |"
echo "|---|---|---:|---:|---:|"
for op in GetItem Query Scan PutItem; do
	local_ms=
	for t in Local Dist; do
		case $op in
		GetItem) body="{\"TableName\": \"$t\", \"Key\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}}}" ;;
		Query) body="{\"TableName\": \"$t\", \"KeyConditionExpression\": \"p = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"p' || :k || '\"}}}" ;;
		Scan) body="{\"TableName\": \"$t\", \"ExclusiveStartKey\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}}}" ;;
		PutItem) body="{\"TableName\": \"$t\", \"Item\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}, \"payload\": {\"S\": \"y\"}}}" ;;
		esac
		printf '\\set k random(0, %d)\nSELECT hroe.dynamodb(%s, (%s)::jsonb);\n' $((${HROE_BENCH_ITEMS:-10000} / 10 - 1)) "'$op'" "'$body'" >"$work/$op-$t.sql"
		out=$(cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir coord)" -p "$(cluster_port coord)" -U postgres \
			-M simple -c 1 -T "$seconds" -f "$work/$op-$t.sql" "$db" 2>&1)
		tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
		ms=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
		[ -n "$tps" ] || { echo "$out" >&2; exit 1; }
		if [ "$t" = Local ]; then
			local_ms=$ms
			ratio=1.00
		else
			ratio=$(awk -v a="$ms" -v b="$local_ms" 'BEGIN { printf "%.2f", a / b }')
		fi
		printf '| %s | %s | %.0f | %s | %s |\n' "$([ $op = Scan ] && echo 'Scan page (1 MB)' || echo $op)" "$([ $t = Local ] && echo local || echo 'partitioned, 2 servers')" "$tps" "$ms" "$ratio"
	done
done
