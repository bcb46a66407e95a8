#!/usr/bin/env bash
# test/bench/policy.sh: what resource-based policies cost a GetItem through
# the JSON API (hroe.dynamodb_text, the front ends' entry), timed inside the
# server: plpgsql loops of LOOPS GetItems of one 100-byte item, REPS times,
# the three cases alternating:
#   none      no table of the database has a policy (the cache is empty)
#   other     another table has a policy (one hash lookup in the cache)
#   own       the table has a policy of 3 statements, one a Deny that does not
#             match the caller (hroe.resource_policy_denies runs per request)
# Prints a Markdown table of the median microseconds per GetItem.
#
#   HROE_PGPORT=5839 bash test/bench/run.sh policy
set -euo pipefail
cd "$(dirname "$0")/../.."
LOOPS=${HROE_BENCH_LOOPS:-20000}
REPS=${HROE_BENCH_REPS:-5}
DB=hroe_bench_policy
psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$DB" "$@"; }
run -c "CREATE EXTENSION hroe" >/dev/null
for t in pol_bench pol_other; do
	run -c "SELECT hroe.dynamodb('CreateTable', '{\"TableName\": \"$t\", \"BillingMode\": \"PAY_PER_REQUEST\", \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}], \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}]}')" >/dev/null
done
run -c "SELECT hroe.dynamodb('PutItem', '{\"TableName\": \"pol_bench\", \"Item\": {\"pk\": {\"S\": \"k\"}, \"v\": {\"S\": \"$(printf 'x%.0s' $(seq 1 90))\"}}}')" >/dev/null
# a policy of three statements: a Deny of someone else, an Allow, a Deny of an action not run
policy() {
	cat <<-JSON
	{"Version": "2012-10-17", "Statement": [
	 {"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::123456789012:user/nobody"}, "Action": "dynamodb:*", "Resource": "*"},
	 {"Effect": "Allow", "Principal": "*", "Action": "dynamodb:*", "Resource": "*"},
	 {"Effect": "Deny", "Principal": "*", "Action": ["dynamodb:DeleteTable", "dynamodb:Update*"], "Resource": "*"}]}
	JSON
}
time_case() {
	run <<-SQL
	DO \$\$
	DECLARE t0 timestamptz := clock_timestamp(); r text;
	BEGIN
		FOR i IN 1..$LOOPS LOOP
			r := hroe.dynamodb_text('GetItem', '{"TableName": "pol_bench", "Key": {"pk": {"S": "k"}}}');
		END LOOP;
		IF r NOT LIKE '{"Item"%' THEN RAISE EXCEPTION 'GetItem failed: %', r; END IF;
		RAISE NOTICE '%', round(extract(epoch FROM clock_timestamp() - t0) * 1e6 / $LOOPS, 2);
	END
	\$\$;
	SQL
}
set_case() {
	run -c "DELETE FROM hroe.resource_policies" >/dev/null
	case $1 in
	other) echo "SELECT hroe.put_resource_policy(hroe.table_arn('pol_other'), :'p')" | run -v p="$(policy)" >/dev/null ;;
	own) echo "SELECT hroe.put_resource_policy(hroe.table_arn('pol_bench'), :'p')" | run -v p="$(policy)" >/dev/null ;;
	esac
}
declare -A times=()
for rep in $(seq 1 "$REPS"); do
	for c in none other own; do
		set_case "$c"
		times[$c]+="$(time_case 2>&1 | sed -n 's/.*NOTICE:  //p') "
	done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| policy | GetItem, us (median of $REPS x $LOOPS) | all runs |"
echo "|---|---|---|"
for c in none other own; do
	echo "| $c | $(echo "${times[$c]}" | median) | ${times[$c]}|"
done
psql -X -q -d postgres -c "DROP DATABASE $DB"
