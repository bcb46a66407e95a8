#!/usr/bin/env bash
# test/bench/item_collections.sh: the cost of keeping item collection sizes
# (src/tables/tables_collection.c) on PutItem.
#
#   bash -c '. test/lib.sh; build_stage && HROE_PGPORT=5860 in_cluster bash test/bench/item_collections.sh'
#
# Three tables (pk, sk strings; items of about 100 bytes): "plain" without
# LSIs; "lsi" with one LSI (ALL), which keeps its collections' sizes through
# its trigger; "lsi_off", the same with that trigger disabled (what the LSI
# costs without the sizes).  One pgbench client per run, SECS seconds, REPS
# runs alternating the tables, each a PutItem through hroe.dynamodb of a
# random key among 100 collections of 100 items (overwrites after the
# first pass).  Prints the median transactions per second per table.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
SECS=${SECS:-10}
REPS=${REPS:-3}
scratch_db hroe_bench_ic
for t in plain lsi lsi_off; do
	lsi=''
	[ "$t" = plain ] || lsi=', "LocalSecondaryIndexes": [{"IndexName": "byA", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "a", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]'
	q "SELECT hroe.dynamodb('CreateTable', '{\"TableName\": \"$t\", \"BillingMode\": \"PAY_PER_REQUEST\", \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"sk\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"a\", \"AttributeType\": \"N\"}]$lsi}')" >/dev/null
	cat >"$work/$t.sql" <<SQL
\set p random(1, 100)
\set s random(1, 100)
SELECT hroe.dynamodb('PutItem', format('{"TableName": "$t", "Item": {"pk": {"S": "c%s"}, "sk": {"S": "i%s"}, "a": {"N": "%s"}, "payload": {"S": "%s"}}}', :p, :s, :s, repeat('x', 60))::jsonb);
SQL
done
q "ALTER TABLE lsi_off DISABLE TRIGGER hroe_item_collection"
declare -A tps
for r in $(seq 1 "$REPS"); do
	for t in plain lsi lsi_off; do
		v=$("$PGBENCH" -n -c 1 -T "$SECS" -f "$work/$t.sql" "$db" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
		tps[$t]="${tps[$t]:-} $v"
	done
done
echo "| table | PutItem/s (median of $REPS x ${SECS}s) | runs |"
echo "|---|---|---|"
for t in plain lsi_off lsi; do
	med=$(echo ${tps[$t]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "| $t | $med | ${tps[$t]} |"
done
q "SELECT 'collections kept: ' || count(*) || ', bytes: ' || sum(size_bytes) FROM hroe.item_collection_sizes WHERE table_name = 'lsi'"
