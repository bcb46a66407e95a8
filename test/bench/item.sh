#!/usr/bin/env bash
# test/bench/item.sh: hroe.item against jsonb holding the same items, as
# DynamoDB JSON and as plain documents: storage size, parse speed and
# single-attribute access speed on ITEM_BENCH_ROWS items (default 1M).
# Run by `HROE_PGPORT=<port> bash test/bench/run.sh item` inside a throwaway
# cluster (PG* variables set).  Prints a Markdown table; each timing is the
# median of ITEM_BENCH_REPS runs (default 5) measured in one session.
set -euo pipefail
rows=${ITEM_BENCH_ROWS:-1000000}
reps=${ITEM_BENCH_REPS:-5}
psql -X -q -v ON_ERROR_STOP=1 -v rows="$rows" -v reps="$reps" <<'SQL'
CREATE EXTENSION IF NOT EXISTS hroe;
SET search_path = public, hroe;
SET max_parallel_workers_per_gather = 0;	-- one core per query, comparable
SET jit = off;

-- HR-like employee items: keys, strings, numbers, a bool, a list, a map, a set
CREATE UNLOGGED TABLE src AS
SELECT i,
       format('{"PK": {"S": "HR-EMPLOYEE#%1$s"}, "SK": {"S": "EMPLOYEE#%1$s"}, "Name": {"S": "Employee %1$s Lastname"}, '
              '"Email": {"S": "employee%1$s@example.com"}, "Salary": {"N": "%2$s"}, "HireDate": {"S": "20%3$s-0%4$s-1%5$s"}, '
              '"DeptId": {"N": "%6$s"}, "Active": {"BOOL": %7$s}, "Phones": {"L": [{"S": "+1-555-%8$s"}, {"S": "+1-555-%9$s"}]}, '
              '"Address": {"M": {"City": {"S": "Seattle"}, "Zip": {"S": "98%10$s"}}}, "Skills": {"SS": ["sql", "c", "dynamodb"]}}',
              i, 40000 + i % 90000 + 0.5, 10 + i % 15, 1 + i % 9, i % 10, 10 + i % 27, (i % 3 > 0)::text,
              lpad((i % 10000)::text, 4, '0'), lpad(((i * 7) % 10000)::text, 4, '0'), lpad((i % 1000)::text, 3, '0')) AS ddb
FROM generate_series(1, :rows) i;
ALTER TABLE src ADD COLUMN doc text;
UPDATE src SET doc = hroe.item_to_document(ddb::hroe.item)::text;
VACUUM ANALYZE src;

CREATE TABLE t_item (it hroe.item);
CREATE TABLE t_ddb (j jsonb);
CREATE TABLE t_doc (j jsonb);
INSERT INTO t_item SELECT ddb::hroe.item FROM src;
INSERT INTO t_ddb SELECT ddb::jsonb FROM src;
INSERT INTO t_doc SELECT doc::jsonb FROM src;
VACUUM ANALYZE t_item, t_ddb, t_doc;

-- timings: median of :reps runs of each query, in milliseconds
CREATE TEMP TABLE timing (id serial, what text, form text, ms float8);
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

\o /dev/null
SELECT pg_temp.bench('parse (text input)', 'item', 'SELECT count(ddb::hroe.item) FROM src', :reps);
SELECT pg_temp.bench('parse (text input)', 'ddb', 'SELECT count(ddb::jsonb) FROM src', :reps);
SELECT pg_temp.bench('parse (text input)', 'doc', 'SELECT count(doc::jsonb) FROM src', :reps);
SELECT pg_temp.bench('output (text)', 'item', 'SELECT sum(length(it::text)) FROM t_item', :reps);
SELECT pg_temp.bench('output (text)', 'ddb', 'SELECT sum(length(j::text)) FROM t_ddb', :reps);
SELECT pg_temp.bench('output (text)', 'doc', 'SELECT sum(length(j::text)) FROM t_doc', :reps);
SELECT pg_temp.bench('get attribute as JSON (Email)', 'item', 'SELECT count(it -> ''Email'') FROM t_item', :reps);
SELECT pg_temp.bench('get attribute as JSON (Email)', 'ddb', 'SELECT count(j -> ''Email'') FROM t_ddb', :reps);
SELECT pg_temp.bench('get attribute as JSON (Email)', 'doc', 'SELECT count(j -> ''Email'') FROM t_doc', :reps);
SELECT pg_temp.bench('get S as text (Email)', 'item', 'SELECT count(hroe.item_get_text(it, ''Email'')) FROM t_item', :reps);
SELECT pg_temp.bench('get S as text (Email)', 'ddb', 'SELECT count(j -> ''Email'' ->> ''S'') FROM t_ddb', :reps);
SELECT pg_temp.bench('get S as text (Email)', 'doc', 'SELECT count(j ->> ''Email'') FROM t_doc', :reps);
SELECT pg_temp.bench('get N as numeric (Salary)', 'item', 'SELECT sum(hroe.item_get_number(it, ''Salary'')) FROM t_item', :reps);
SELECT pg_temp.bench('get N as numeric (Salary)', 'ddb', 'SELECT sum((j -> ''Salary'' ->> ''N'')::numeric) FROM t_ddb', :reps);
SELECT pg_temp.bench('get N as numeric (Salary)', 'doc', 'SELECT sum((j ->> ''Salary'')::numeric) FROM t_doc', :reps);
SELECT pg_temp.bench('attribute exists (Skills)', 'item', 'SELECT count(*) FROM t_item WHERE it ? ''Skills''', :reps);
SELECT pg_temp.bench('attribute exists (Skills)', 'ddb', 'SELECT count(*) FROM t_ddb WHERE j ? ''Skills''', :reps);
SELECT pg_temp.bench('attribute exists (Skills)', 'doc', 'SELECT count(*) FROM t_doc WHERE j ? ''Skills''', :reps);
SELECT pg_temp.bench('nested path (Address.Zip)', 'item', 'SELECT count(hroe.item_get_text(it, ''Address.Zip'')) FROM t_item', :reps);
SELECT pg_temp.bench('nested path (Address.Zip)', 'ddb', 'SELECT count(j #>> ''{Address,M,Zip,S}'') FROM t_ddb', :reps);
SELECT pg_temp.bench('nested path (Address.Zip)', 'doc', 'SELECT count(j #>> ''{Address,Zip}'') FROM t_doc', :reps);
SELECT pg_temp.bench('DynamoDB size', 'item', 'SELECT sum(hroe.item_size(it)) FROM t_item', :reps);
\o

\echo
\echo '| measure | hroe.item | jsonb (DynamoDB JSON) | jsonb (document) | item / DynamoDB-JSON jsonb |'
\echo '|---|---:|---:|---:|---:|'
SELECT format('| table size (MB, %s items) | %s | %s | %s | %s |', :rows,
              round(pg_total_relation_size('t_item') / 1048576.0, 1),
              round(pg_total_relation_size('t_ddb') / 1048576.0, 1),
              round(pg_total_relation_size('t_doc') / 1048576.0, 1),
              round(pg_total_relation_size('t_item')::numeric / pg_total_relation_size('t_ddb'), 2))
\g (format=unaligned tuples_only)
SELECT format('| average value size (bytes) | %s | %s | %s | %s |',
              (SELECT round(avg(pg_column_size(it))) FROM t_item),
              (SELECT round(avg(pg_column_size(j))) FROM t_ddb),
              (SELECT round(avg(pg_column_size(j))) FROM t_doc),
              round((SELECT avg(pg_column_size(it)) FROM t_item) / (SELECT avg(pg_column_size(j)) FROM t_ddb), 2))
\g (format=unaligned tuples_only)
WITH m AS (
	SELECT what, form, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms, min(id) AS first
	FROM timing GROUP BY what, form
), w AS (
	SELECT what, min(first) AS first,
	       max(ms) FILTER (WHERE form = 'item') AS item,
	       max(ms) FILTER (WHERE form = 'ddb') AS ddb,
	       max(ms) FILTER (WHERE form = 'doc') AS doc
	FROM m GROUP BY what
)
SELECT format('| %s (ms, median of %s) | %s | %s | %s | %s |', what, :reps,
              round(item::numeric), coalesce(round(ddb::numeric)::text, '-'), coalesce(round(doc::numeric)::text, '-'),
              coalesce(round((item / ddb)::numeric, 2)::text, '-'))
FROM w ORDER BY first
\g (format=unaligned tuples_only)
SQL
