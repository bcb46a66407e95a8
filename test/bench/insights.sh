#!/usr/bin/env bash
# test/bench/insights.sh: the cost of Contributor Insights' counting on the
# item operations: PutItem and GetItem per second through hroe.dynamodb with
# Contributor Insights disabled and enabled (ACCESSED_AND_THROTTLED_KEYS) on
# the table; KEYS distinct partition keys (default 1000, drawn at random),
# CALLS calls a run (default 5000) in one session (no client round trip: the
# server's own cost, where the counting's share is the largest), REPS runs
# of each (default 5), disabled and enabled alternating, each run its own
# transaction.  Prints a Markdown table of the median calls per second.
#   HROE_PGPORT=<port> bash test/bench/run.sh insights
# (hroe preloaded, as run.sh's clusters have it: the counters are in shared
# memory).
set -euo pipefail
keys=${INSIGHTS_BENCH_KEYS:-1000}
calls=${INSIGHTS_BENCH_CALLS:-5000}
reps=${INSIGHTS_BENCH_REPS:-5}
{
	cat <<'SQL'
CREATE EXTENSION IF NOT EXISTS hroe;
SET jit = off;
\o /dev/null
SELECT hroe.dynamodb('DeleteTable', '{"TableName":"ci_bench"}') FROM hroe.tables WHERE table_name = 'ci_bench';
SELECT hroe.dynamodb('CreateTable', '{"TableName":"ci_bench","BillingMode":"PAY_PER_REQUEST",
 "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}');
SELECT hroe.dynamodb('PutItem', format('{"TableName":"ci_bench","Item":{"pk":{"S":"customer#%s"},"name":{"S":"a customer of about a hundred bytes"},"n":{"N":"%s"}}}', i, i)::jsonb)
FROM generate_series(1, :keys) i;
CREATE TEMP TABLE timing (op text, insights text, per_second float8);
CREATE FUNCTION pg_temp.run(p_op text, p_insights text, p_keys int, p_calls int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	k int;
BEGIN
	FOR i IN 1 .. p_calls LOOP
		k := 1 + floor(random() * p_keys)::int;
		IF p_op = 'PutItem' THEN
			PERFORM hroe.dynamodb('PutItem', format('{"TableName":"ci_bench","Item":{"pk":{"S":"customer#%s"},"name":{"S":"a customer of about a hundred bytes"},"n":{"N":"%s"}}}', k, i)::jsonb);
		ELSE
			PERFORM hroe.dynamodb('GetItem', format('{"TableName":"ci_bench","Key":{"pk":{"S":"customer#%s"}}}', k)::jsonb);
		END IF;
	END LOOP;
	IF p_insights IS NOT NULL THEN
		INSERT INTO timing VALUES (p_op, p_insights, p_calls / extract(epoch FROM clock_timestamp() - t0));
	END IF;
END $$;
-- warm-up
SELECT pg_temp.run('PutItem', NULL, :keys, :calls / 5);
SELECT pg_temp.run('GetItem', NULL, :keys, :calls / 5);
SQL
	for r in $(seq 1 "$reps"); do
		for mode in disabled enabled; do
			action=$([ $mode = enabled ] && echo ENABLE || echo DISABLE)
			echo "SELECT hroe.dynamodb('UpdateContributorInsights', '{\"TableName\":\"ci_bench\",\"ContributorInsightsAction\":\"$action\"}');"
			echo "SELECT pg_temp.run('PutItem', '$mode', :keys, :calls);"
			echo "SELECT pg_temp.run('GetItem', '$mode', :keys, :calls);"
		done
	done
	cat <<'SQL'
\o
SELECT count(*) > 0 AS keys_counted FROM hroe.contributor_insights('ci_bench', p_limit => 100000);
\pset format unaligned
\pset tuples_only on
SELECT '| operation | insights disabled (calls/s) | insights enabled (calls/s) | enabled / disabled |';
SELECT '|---|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s |', op, round(d), round(e), round((e / d)::numeric, 3))
FROM (SELECT op, percentile_cont(0.5) WITHIN GROUP (ORDER BY per_second) FILTER (WHERE insights = 'disabled') AS d,
			 percentile_cont(0.5) WITHIN GROUP (ORDER BY per_second) FILTER (WHERE insights = 'enabled') AS e
	  FROM timing GROUP BY op) x
ORDER BY op DESC;
SELECT hroe.dynamodb('DeleteTable', '{"TableName":"ci_bench"}') IS NOT NULL AS dropped;
SQL
} | psql -X -q -v ON_ERROR_STOP=1 -v keys="$keys" -v calls="$calls"
