#!/usr/bin/env bash
# test/t_burst.sh: a burst of 1,000 signed PutItems sent at once (each on a
# connection of its own from one of 30 client addresses, every request
# written before any answer is read) through each HTTP front end, with
# their default settings (two workers): none is
# throttled, as DynamoDB throttles none for a table without a capacity limit
# of its own (hroe-gateway's queue waits instead of answering
# ThrottlingException, doc/gateway.md "Pool and queue"), and all 1,000 items
# are stored; and a table whose throttling is turned on, at 10 write units a
# second, refuses part of a burst with ThrottlingException and its
# ThrottlingReasons.  No timing is asserted.  Ports: HROE_CLUSTER_PORT (default
# 5640), HROE_GW_PORTS.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
# room for the burst's connections: each worker takes at most what
# PostgreSQL's file budget leaves it (about 900 under the default
# max_files_per_process), and closes idle connections near its limit; two
# workers share the burst (the gateway's default --max-connections is 4096)
ulimit -n 4096 2>/dev/null || true
dos_setup
dos_workers -c hroe.http_workers=2
dos_gateway
N=${BURST_N:-1000}
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	GW_URL=$url
	table=burst_$fe
	raw CreateTable '{"TableName": "'$table'", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
	check "$fe: $N PutItems sent at once, every one answered 200 (none throttled)" \
		/usr/bin/python3 test/gateway/burst.py "$url" "$table" "$N"
	check "$fe: all $N items stored" has "\"Count\": ?$N[,}]" \
		raw Scan '{"TableName": "'$table'", "Select": "COUNT"}'
	# DynamoDB's own throttling, opted in: OnDemandThroughput's 10 write
	# units a second refuse most of 200 PutItems sent at once, with the
	# reason and the table's ARN (doc/throttling.md)
	raw CreateTable '{"TableName": "'$table'_max", "BillingMode": "PAY_PER_REQUEST", "OnDemandThroughput": {"MaxWriteRequestUnits": 10}, "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
	psql -XAtq -d "$DOS_DB" -c "SELECT hroe.set_throttling('${table}_max', true)" >/dev/null
	check "$fe: 200 PutItems at once on a table throttled at 10 write units a second: ThrottlingException with its reason" \
		has '"reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": "arn:aws:dynamodb:us-east-1:123456789012:table/'$table'_max"' \
		/usr/bin/python3 test/gateway/burst.py "$url" "${table}_max" 200 --throttled
done
dos_finish
