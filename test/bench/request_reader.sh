#!/usr/bin/env bash
# test/bench/request_reader.sh: the JSON API's request reader (hroe's own,
# src/types/item_json_tree.c, which keeps U+0000) against jsonb_in (the reader it
# replaced on the text entry) on typical GetItem, PutItem and Query bodies;
# then the whole call through the text entry against the jsonb entry.
# Run by `HROE_PGPORT=<port> bash test/bench/run.sh request_reader` inside a
# throwaway cluster (PG* variables set).  Prints a Markdown table: us per
# request, the median of READER_BENCH_REPS rounds (default 7), both sides
# alternated in each, so that load from elsewhere hits both alike: the
# readers READER_BENCH_LOOPS times in one statement (default 20000), the
# calls one per transaction with pgbench for READER_BENCH_SECS (default 3).
#
# "reader": hroe.dynamodb_text on an unknown operation reads the body whole
# (reader + JsonbValueToJsonb) and answers at once; jsonb_in is the cast
# body::jsonb (its parser + JsonbValueToJsonb), the text entry's reader
# before.  "call": hroe.dynamodb_text(op, body) against hroe.dynamodb(op,
# body::jsonb)::text, each a whole operation with its response as text: the
# text entry now and as it was (jsonb_in, the call, JsonbToCString of a
# response built as jsonb; a response built as text, PutItem's "{}", also
# goes through jsonb_in and back on the jsonb side).
set -euo pipefail
reps=${READER_BENCH_REPS:-7}
loops=${READER_BENCH_LOOPS:-20000}
secs=${READER_BENCH_SECS:-3}
PGBENCH=${PGBENCH:-$(pg_config --bindir)/pgbench}
work=$(mktemp -d /tmp/hroe-reader-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE EXTENSION IF NOT EXISTS hroe;
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]}') IS NOT NULL AS created \gset
CREATE TABLE bench_bodies (op text PRIMARY KEY, body text);
-- an HR-like item of 11 attributes (the gateway benchmark's PutItem is smaller)
INSERT INTO bench_bodies VALUES
 ('GetItem', '{"TableName": "bench", "Key": {"pk": {"S": "HR-EMPLOYEE#0000000101"}, "sk": {"S": "EMPLOYEE#0000000101"}}, "ConsistentRead": true}'),
 ('PutItem', '{"TableName": "bench", "Item": {"pk": {"S": "HR-EMPLOYEE#0000000101"}, "sk": {"S": "EMPLOYEE#0000000101"}, "Name": {"S": "Employee 101 Lastname"}, "Email": {"S": "employee101@example.com"}, "Salary": {"N": "50101.5"}, "HireDate": {"S": "2021-03-11"}, "DeptId": {"N": "17"}, "Active": {"BOOL": true}, "Phones": {"L": [{"S": "+1-555-0101"}, {"S": "+1-555-0707"}]}, "Address": {"M": {"City": {"S": "Seattle"}, "Zip": {"S": "98101"}}}, "Skills": {"SS": ["sql", "c", "dynamodb"]}}}'),
 ('Query', '{"TableName": "bench", "KeyConditionExpression": "pk = :pk AND begins_with(sk, :p)", "FilterExpression": "Active = :t", "ProjectionExpression": "sk, #n, Salary", "ExpressionAttributeNames": {"#n": "Name"}, "ExpressionAttributeValues": {":pk": {"S": "HR-EMPLOYEE#0000000101"}, ":p": {"S": "EMPLOYEE#"}, ":t": {"BOOL": true}}, "Limit": 10}');
SELECT bool_and(hroe.dynamodb_text(op, body) NOT LIKE '%__type%') AS warm FROM (SELECT * FROM bench_bodies ORDER BY op DESC) b \gset
CREATE TABLE bench_timings (op text, what text, rep int, us float8);
-- the readers alone: no call runs, so one statement may loop
CREATE FUNCTION bench_reader(p_body text, p_what text, p_loops int) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	j jsonb;
	t text;
BEGIN
	FOR i IN 1 .. p_loops LOOP
		IF p_what = 'hroe' THEN
			t := hroe.dynamodb_text('NoSuchOperation', p_body);
		ELSE
			j := p_body::jsonb;
		END IF;
	END LOOP;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / p_loops;
END $$;
SQL
# a call per transaction (pgbench), as a client sends them
for op in GetItem PutItem Query; do
	echo "SELECT hroe.dynamodb_text(op, body) FROM bench_bodies WHERE op = '$op';" >"$work/$op-text.sql"
	echo "SELECT hroe.dynamodb(op, body::jsonb)::text FROM bench_bodies WHERE op = '$op';" >"$work/$op-jsonb.sql"
done
for rep in $(seq "$reps"); do
	for op in GetItem PutItem Query; do
		for what in hroe jsonb_in; do
			psql -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO bench_timings SELECT '$op', 'reader: $what', $rep, bench_reader(body, '$what', $loops) FROM bench_bodies WHERE op = '$op'"
		done
		for what in text jsonb; do
			tps=$("$PGBENCH" -n -c 1 -T "$secs" -f "$work/$op-$what.sql" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
			psql -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO bench_timings VALUES ('$op', 'call: $what', $rep, 1e6 / $tps)"
		done
	done
done
psql -X -q -v ON_ERROR_STOP=1 -At <<'SQL'
SELECT '| request (body bytes) | hroe''s reader (us) | jsonb_in (us) | ratio | dynamodb_text (us/call) | dynamodb(jsonb)::text (us/call) | ratio |';
SELECT '|---|---:|---:|---:|---:|---:|---:|';
WITH med AS (
	SELECT op, what, percentile_cont(0.5) WITHIN GROUP (ORDER BY us) AS us FROM bench_timings GROUP BY op, what)
SELECT format('| %s (%s) | %s | %s | %s | %s | %s | %s |', m1.op, length(b.body),
			  round(m1.us::numeric, 2), round(m2.us::numeric, 2), round((m1.us / m2.us)::numeric, 2),
			  round(m3.us::numeric, 1), round(m4.us::numeric, 1), round((m3.us / m4.us)::numeric, 2))
FROM med m1 JOIN med m2 ON m2.op = m1.op AND m2.what = 'reader: jsonb_in'
JOIN med m3 ON m3.op = m1.op AND m3.what = 'call: text'
JOIN med m4 ON m4.op = m1.op AND m4.what = 'call: jsonb'
JOIN bench_bodies b ON b.op = m1.op
WHERE m1.what = 'reader: hroe' ORDER BY m1.op;
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "bench"}') IS NOT NULL AS dropped;
SQL
