#!/usr/bin/env bash
# test/t_vectors_http.sh: vector indexes and SearchVectors over HTTP
# (doc/vectors.md), through both front ends on one cluster of their own:
# hroe-gateway and the in-server HTTP workers each create a table with
# vector indexes, write vectors, search them (scores, a SearchSchema
# condition, the f32 copy projected, ConsumedCapacity) and get DynamoDB's
# errors: SearchVectors passes the protocol's operation check (before, an
# UnknownOperationException) and the JSON API's table of operations.  Then
# each adds an index by UpdateTable, which a worker backfills: DescribeTable
# walks CREATING with Backfilling, SearchVectors and another online index
# action are refused with DynamoDB's errors until it is ACTIVE.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
port=${HROE_CLUSTER_PORT:-5831}
db=hroe_vectors_http
cluster_init vec "$port" || exit 1
cluster_start vec || exit 1
export PGHOST=$CLUSTER_WORK/vec PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
gw_env

# scenario TABLE: the checks against $GW_URL
scenario() {
	local t=$1 front=$2
	check "$front: CreateTable with VectorIndexes answers them CREATING" has '^200 crc32-ok .*"VectorIndexes": \[.*"IndexStatus": "CREATING"' \
		raw CreateTable '{"TableName": "'"$t"'", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
		  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"}],
		  "VectorIndexes": [{"IndexName": "plain", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}},
		    {"IndexName": "schema", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "DOT_PRODUCT", "Projection": {"ProjectionType": "KEYS_ONLY"},
		     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]}]}'
	for item in '"a"}, "tenant": {"S": "t1"}, "e": {"L": [{"N": "1"}, {"N": "0"}, {"N": "0"}]' \
		'"b"}, "tenant": {"S": "t1"}, "e": {"L": [{"N": "0"}, {"N": "1"}, {"N": "0"}]' \
		'"c"}, "tenant": {"S": "t2"}, "e": {"L": [{"N": "-1"}, {"N": "0"}, {"N": "16777217"}]'; do
		raw PutItem '{"TableName": "'"$t"'", "Item": {"pk": {"S": '"$item"'}}}' >/dev/null
	done
	check "$front: DescribeTable lists the vector indexes ACTIVE with their items, the SearchSchema's attribute defined" has \
		'"IndexName": "plain", "ItemCount": 3, .*"IndexStatus": "ACTIVE".*"AttributeDefinitions": \[\{"AttributeName": "pk", "AttributeType": "S"\}, \{"AttributeName": "tenant", "AttributeType": "S"\}\]' \
		raw DescribeTable '{"TableName": "'"$t"'"}'
	check "$front: SearchVectors, COSINE scores nearest first" has \
		'^200 crc32-ok \{"SearchResults":\[\{"Item":\{"pk": \{"S": "a"\}, "tenant": \{"S": "t1"\}\},"Score":0\},\{"Item":\{"pk": \{"S": "b"\}, "tenant": \{"S": "t1"\}\},"Score":1\}\],"ConsumedCapacity":\{"VectorSearchRequestBytes":1024\}\}$' \
		raw SearchVectors '{"TableName": "'"$t"'", "IndexName": "plain", "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 2, "ReturnConsumedCapacity": "TOTAL"}'
	check "$front: SearchVectors under the HASH element, DOT_PRODUCT, the f32 copy projected" has \
		'^200 crc32-ok \{"SearchResults":\[\{"Item":\{"e": \{"L": \[\{"N": "-1"\}, \{"N": "0"\}, \{"N": "16777216"\}\]\}, "pk": \{"S": "c"\}\},"Score":-1\}\]\}$' \
		raw SearchVectors '{"TableName": "'"$t"'", "IndexName": "schema", "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 5,
		  "SearchConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t2"}}, "ProjectionExpression": "pk, e"}'
	check "$front: SearchVectors without the HASH element: DynamoDB's error" has \
		'^400 crc32-ok \{"__type":"com.amazon.coral.validate#ValidationException","message":"SearchConditionExpression must be provided when SearchSchema has a HASH key"\}$' \
		raw SearchVectors '{"TableName": "'"$t"'", "IndexName": "schema", "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 5}'
	check "$front: an invalid vector written: DynamoDB's error" has \
		'^400 crc32-ok .*Invalid size for parameter e, Expected: 3, Actual: 2 IndexName: plain' \
		raw PutItem '{"TableName": "'"$t"'", "Item": {"pk": {"S": "x"}, "e": {"L": [{"N": "1"}, {"N": "0"}]}}}'
	check "$front: SearchVectors on a missing table: ResourceNotFoundException" has \
		'^400 crc32-ok \{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"' \
		raw SearchVectors '{"TableName": "no_such_table", "IndexName": "plain", "SearchVector": [{"N": "1"}], "TopK": 1}'
	# an index UpdateTable creates on the table, which holds items: backfilled
	# by a worker (its delay held long, so each status is seen, then released)
	build_delay 1h
	check "$front: UpdateTable on a table holding items answers the new index CREATING, Backfilling false" has \
		'^200 crc32-ok .*"TableStatus": "UPDATING".*"Backfilling": false, "IndexStatus": "CREATING"' \
		raw UpdateTable '{"TableName": "'"$t"'", "VectorIndexUpdates": [{"Create": {"IndexName": "later", "VectorAttribute": {"AttributeName": "e"},
		  "Dimensions": 3, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}'
	check "$front: the worker backfills it" wait_status "$t" BACKFILLING
	check "$front: DescribeTable shows it CREATING with Backfilling true, the table UPDATING" has \
		'^200 crc32-ok .*"TableStatus": "UPDATING", "VectorIndexes": .*"IndexName": "later", "ItemCount": 0, .*"Backfilling": true, "IndexStatus": "CREATING"' \
		raw DescribeTable '{"TableName": "'"$t"'"}'
	check "$front: SearchVectors on it: DynamoDB's error" has \
		'^400 crc32-ok \{"__type":"com.amazon.coral.validate#ValidationException","message":"Cannot search backfilling vector index: later"\}$' \
		raw SearchVectors '{"TableName": "'"$t"'", "IndexName": "later", "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 1}'
	check "$front: no other online index action meanwhile: LimitExceededException" has \
		'^400 crc32-ok .*LimitExceededException","message":"Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table"' \
		raw UpdateTable '{"TableName": "'"$t"'", "VectorIndexUpdates": [{"Delete": {"IndexName": "plain"}}]}'
	build_delay DEFAULT
	check "$front: built, it is ACTIVE" wait_status "$t" ACTIVE
	check "$front: then SearchVectors finds the items written before it" has \
		'^200 crc32-ok \{"SearchResults":\[\{"Item":\{"pk": \{"S": "a"\}\},"Score":0\},\{"Item":\{"pk": \{"S": "b"\}\},"Score":1.4142135\}\]' \
		raw SearchVectors '{"TableName": "'"$t"'", "IndexName": "later", "SearchVector": [{"N": "1"}, {"N": "0"}, {"N": "0"}], "TopK": 2}'
}
# build_delay VALUE: hroe.vector_index_build_delay of the cluster (DEFAULT: reset)
build_delay() {
	if [ "$1" = DEFAULT ]; then
		psql -XAtq -d postgres -c "ALTER SYSTEM RESET hroe.vector_index_build_delay" -c "SELECT pg_reload_conf()" >/dev/null
	else
		psql -XAtq -d postgres -c "ALTER SYSTEM SET hroe.vector_index_build_delay = '$1'" -c "SELECT pg_reload_conf()" >/dev/null
	fi
}
# wait_status TABLE STATUS: until its vector index "later" is STATUS (30 s)
wait_status() {
	for _ in $(seq 1 300); do
		[ "$(psql -XAtq -d "$db" -c "SELECT status FROM hroe.vector_indexes WHERE table_name = '$1' AND index_name = 'later'")" = "$2" ] &&
			return 0
		sleep 0.1
	done
	echo "the index is $(psql -XAtq -d "$db" -c "SELECT status FROM hroe.vector_indexes WHERE table_name = '$1' AND index_name = 'later'")"
	return 1
}

gw_start "$db" || exit 1
scenario gw_vectors hroe-gateway
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# the in-server workers, on the same database
http_port=$(gw_free_port) || exit 1
GW_URL=http://127.0.0.1:$http_port
cluster_stop vec
cluster_start vec -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_workers=1 || exit 1
for _ in $(seq 1 150); do
	curl -sk -o /dev/null "$GW_URL/" && break
	sleep 0.1
done
scenario wk_vectors "in-server workers"

[ "$GW_FAILURES" -eq 0 ] || { echo "$GW_FAILURES check(s) failed"; exit 1; }
