#!/usr/bin/env bash
# test/bench/expression.sh: DynamoDB expressions evaluated in C on hroe.item
# (hroe.condition_matches, hroe.apply_update, hroe.project) against the same
# work written as SQL over DynamoDB JSON in jsonb, on EXPR_BENCH_ROWS HR-like
# items (default 200k); and the cost of parsing an expression on every call
# (the parse is cached per call site while the expression stays the same).
# Run by `HROE_PGPORT=<port> bash test/bench/run.sh expression` inside a
# throwaway cluster (PG* variables set).  Prints a Markdown table; each
# timing is the median of EXPR_BENCH_REPS runs (default 5) in one session.
set -euo pipefail
rows=${EXPR_BENCH_ROWS:-200000}
reps=${EXPR_BENCH_REPS:-5}
psql -X -q -v ON_ERROR_STOP=1 -v rows="$rows" -v reps="$reps" <<'SQL'
CREATE EXTENSION IF NOT EXISTS hroe;
SET max_parallel_workers_per_gather = 0;	-- one core per query, comparable
SET jit = off;

CREATE UNLOGGED TABLE src AS
SELECT i,
       format('{"PK": {"S": "HR-EMPLOYEE#%1$s"}, "SK": {"S": "EMPLOYEE#%1$s"}, "Name": {"S": "Employee %1$s Lastname"}, '
              '"Salary": {"N": "%2$s"}, "DeptId": {"N": "%3$s"}, "Active": {"BOOL": %4$s}, '
              '"Phones": {"L": [{"S": "+1-555-%5$s"}, {"S": "+1-555-%6$s"}]}, '
              '"Address": {"M": {"City": {"S": "Seattle"}, "Zip": {"S": "98%7$s"}}}, "Skills": {"SS": ["c", "dynamodb", "sql"]}}',
              i, 40000 + i % 90000 + 0.5, 10 + i % 27, (i % 3 > 0)::text,
              lpad((i % 10000)::text, 4, '0'), lpad(((i * 7) % 10000)::text, 4, '0'), lpad((i % 1000)::text, 3, '0')) AS ddb
FROM generate_series(1, :rows) i;
CREATE TABLE t_item AS SELECT i, ddb::hroe.item AS it FROM src;
CREATE TABLE t_ddb AS SELECT i, ddb::jsonb AS j FROM src;
VACUUM ANALYZE t_item, t_ddb;

CREATE TEMP TABLE timing (seq serial, what text, form text, ms float8);
CREATE FUNCTION pg_temp.bench(what text, form text, q text, reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz;
	r int;
BEGIN
	EXECUTE q;	-- warm-up
	FOR r IN 1 .. reps LOOP
		t0 := clock_timestamp();
		EXECUTE q;
		INSERT INTO timing (what, form, ms) VALUES (what, form, extract(epoch FROM clock_timestamp() - t0) * 1000);
	END LOOP;
END $$;

-- both forms must agree before anything is timed
DO $$
BEGIN
	IF (SELECT count(*) FROM t_item WHERE hroe.condition_matches(it,
	        'Salary BETWEEN :lo AND :hi AND begins_with(#n, :p) AND contains(Skills, :s) AND Active = :t', '{"#n": "Name"}',
	        '{":lo": {"N": "50000"}, ":hi": {"N": "90000"}, ":p": {"S": "Employee 1"}, ":s": {"S": "sql"}, ":t": {"BOOL": true}}'))
	   <> (SELECT count(*) FROM t_ddb WHERE (j->'Salary'->>'N')::numeric BETWEEN 50000 AND 90000
	        AND starts_with(j->'Name'->>'S', 'Employee 1') AND j->'Skills'->'SS' ? 'sql' AND j->'Active' = '{"BOOL": true}') THEN
		RAISE EXCEPTION 'filter results differ';
	END IF;
END $$;

\o /dev/null
SELECT pg_temp.bench('filter: BETWEEN, begins_with, contains, =', 'item',
  $q$SELECT count(*) FROM t_item WHERE hroe.condition_matches(it,
       'Salary BETWEEN :lo AND :hi AND begins_with(#n, :p) AND contains(Skills, :s) AND Active = :t', '{"#n": "Name"}',
       '{":lo": {"N": "50000"}, ":hi": {"N": "90000"}, ":p": {"S": "Employee 1"}, ":s": {"S": "sql"}, ":t": {"BOOL": true}}')$q$, :reps);
SELECT pg_temp.bench('filter: BETWEEN, begins_with, contains, =', 'jsonb',
  $q$SELECT count(*) FROM t_ddb WHERE (j->'Salary'->>'N')::numeric BETWEEN 50000 AND 90000
       AND starts_with(j->'Name'->>'S', 'Employee 1') AND j->'Skills'->'SS' ? 'sql' AND j->'Active' = '{"BOOL": true}'$q$, :reps);
SELECT pg_temp.bench('filter, expression re-parsed on every row', 'item',
  $q$SELECT count(*) FROM t_item WHERE hroe.condition_matches(it,
       'Salary BETWEEN :lo AND :hi AND begins_with(#n, :p) AND contains(Skills, :s) AND Active = :t' || repeat(' ', i % 2), '{"#n": "Name"}',
       '{":lo": {"N": "50000"}, ":hi": {"N": "90000"}, ":p": {"S": "Employee 1"}, ":s": {"S": "sql"}, ":t": {"BOOL": true}}')$q$, :reps);
SELECT pg_temp.bench('update: SET n = n + :v, list append; ADD to a set', 'item',
  $q$SELECT sum(hroe.item_size(hroe.apply_update(it, 'SET Salary = Salary + :r, Phones[9] = :p ADD Skills :s', NULL,
       '{":r": {"N": "100.25"}, ":p": {"S": "+1-555-0000"}, ":s": {"SS": ["go"]}}'))) FROM t_item$q$, :reps);
SELECT pg_temp.bench('update: SET n = n + :v, list append; ADD to a set', 'jsonb',
  $q$SELECT sum(length(jsonb_set(jsonb_set(jsonb_set(j, '{Salary,N}', to_jsonb(((j->'Salary'->>'N')::numeric + 100.25)::text)),
       '{Phones,L}', (j->'Phones'->'L') || '[{"S": "+1-555-0000"}]'),
       '{Skills,SS}', (SELECT jsonb_agg(DISTINCT e ORDER BY e) FROM jsonb_array_elements(j->'Skills'->'SS' || '["go"]') e))::text)) FROM t_ddb$q$, :reps);
SELECT pg_temp.bench('projection: PK, Name, Address.City', 'item',
  $q$SELECT count(hroe.project(it, 'PK, #n, Address.City', '{"#n": "Name"}')) FROM t_item$q$, :reps);
SELECT pg_temp.bench('projection: PK, Name, Address.City', 'jsonb',
  $q$SELECT count(jsonb_build_object('PK', j->'PK', 'Name', j->'Name',
       'Address', jsonb_build_object('M', jsonb_build_object('City', j->'Address'->'M'->'City')))) FROM t_ddb$q$, :reps);
\o

\echo
SELECT format('| measure (%s items, ms, median of %s) | hroe.item + expression | SQL on DynamoDB-JSON jsonb | ratio |', :rows, :reps)
\g (format=unaligned tuples_only)
\echo '|---|---:|---:|---:|'
WITH m AS (
	SELECT what, form, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, min(seq) AS first
	FROM timing GROUP BY what, form
), w AS (
	SELECT what, min(first) AS first,
	       max(ms) FILTER (WHERE form = 'item') AS item,
	       max(ms) FILTER (WHERE form = 'jsonb') AS jb
	FROM m GROUP BY what
)
SELECT format('| %s | %s | %s | %s |', what, round(item::numeric),
              coalesce(round(jb::numeric)::text, '-'), coalesce(round((item / jb)::numeric, 2)::text, '-'))
FROM w ORDER BY first
\g (format=unaligned tuples_only)
SQL
