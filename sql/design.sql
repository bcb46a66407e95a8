-- Design documents (doc/design.md): HR/OE as a design reproduces
-- hroe.compare; two designs from AWS's guides (an adjacency list with
-- custom attributes, one-to-many strategies) and an imported NoSQL
-- Workbench model run on their relational data, answers identical.
SET client_min_messages = warning;
SELECT count(*) > 0 AS loaded FROM hroe.load(0.2, 42);

-- HR/OE as a design: its facets reproduce the loaded models item for item
SELECT * FROM hroe.design_verify(hroe.design_hroe('hroe_single'));
SELECT * FROM hroe.design_verify(hroe.design_hroe('hroe_multi'));
SELECT jsonb_array_length(d -> 'tables') AS tables, jsonb_array_length(d -> 'patterns') AS patterns,
	   d #>> '{tables,0,TableName}' AS first_table
FROM hroe.design_hroe('hroe_multi') d;

-- and runs to the same answers, capacities and verdicts as hroe.compare
CREATE TEMP TABLE c AS SELECT * FROM hroe.compare(p_runs => 1);
-- (one run: hroe_single the design, hroe_multi its variant, as test/main.sql runs them)
CREATE TEMP TABLE d AS
SELECT * FROM hroe.design_run(hroe.design_hroe('hroe_single') || jsonb_build_object('variants', jsonb_build_array(hroe.design_hroe('hroe_multi'))), 1, false);
SELECT count(*) AS calls, count(*) FILTER (WHERE kind = 'write') AS writes FROM d;
-- every call of hroe.compare has its twin in the design runs: same
-- fingerprint, rows, request, requests, items, bytes, capacity, verdict
SELECT count(*) AS differing
FROM c FULL JOIN d USING (pattern_no, case_label, model)
WHERE c.fingerprint IS DISTINCT FROM d.fingerprint OR c.result_rows IS DISTINCT FROM d.result_rows
   OR c.request IS DISTINCT FROM d.request OR c.requests IS DISTINCT FROM d.requests
   OR c.items IS DISTINCT FROM d.items OR c.item_bytes IS DISTINCT FROM d.item_bytes
   OR c.capacity IS DISTINCT FROM d.capacity OR c.capacity_unit IS DISTINCT FROM d.capacity_unit
   OR c.identical IS DISTINCT FROM d.identical OR c.kind IS DISTINCT FROM d.kind;
SELECT model, kind, sum(capacity) AS capacity, bool_and(identical) AS identical FROM d
WHERE model <> 'hroe_normalized' GROUP BY 1, 2 ORDER BY 1, 2;
-- the write capacity splits into table and index units
SELECT pattern, case_label, capacity, index_capacity FROM d WHERE model = 'hroe_single' AND kind = 'write' ORDER BY pattern_no;
-- the page of the three models: a summary row per pattern, a column per
-- model, a bill per DynamoDB design; a table's class (TableClass) is the
-- design's and prices its storage
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"hroe_single","TableClass":"STANDARD_INFREQUENT_ACCESS"}')
	-> 'TableDescription' -> 'TableClassSummary' ->> 'TableClass' AS class;
SELECT (SELECT count(*) FROM regexp_matches(h, '<tr data-pattern="[a-z_]+"><td class="num" data-v="[0-9]+">', 'g')) AS summary_rows,
	   h ~ '<th data-sort="n">hroe_normalized ms</th><th data-sort="n">hroe_single ms</th><th data-sort="n">hroe_multi ms</th>' AS three_columns,
	   (SELECT count(*) FROM regexp_matches(h, '<tr class="total" data-design="[a-z_]+" data-kind="requests"', 'g')) AS bills,
	   h ~ '<tr data-model="hroe_single"><td>hroe_single</td><td>STANDARD_INFREQUENT_ACCESS</td>' AS single_class,
	   h ~ '<tr data-model="hroe_multi"><td>hroe_multi</td><td>STANDARD</td>' AS multi_class
FROM hroe.design_html(hroe.design_hroe('hroe_single') || jsonb_build_object('variants', jsonb_build_array(hroe.design_hroe('hroe_multi'))),
					  (SELECT jsonb_agg(to_jsonb(x)) FROM d x)) h;
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"hroe_single","TableClass":"STANDARD"}')
	-> 'TableDescription' -> 'TableClassSummary' ->> 'TableClass' AS class;

-- Seed design 1: the adjacency list with custom attributes
\set adjacency `cat models/designs/adjacency.json`
SELECT table_name, entity, items FROM hroe.design_load(:'adjacency');
SELECT * FROM hroe.design_verify(:'adjacency');
CREATE TEMP TABLE a AS SELECT * FROM hroe.design_run(:'adjacency', 1, false);
SELECT pattern, kind, case_label, model, identical, result_rows, requests, items, capacity, capacity_unit, partitions
FROM a ORDER BY pattern_no, case_label, model;
SELECT table_name, index_name, items, bytes, partitions, hottest -> 0 -> 'key' AS hottest_key FROM hroe.design_tables(:'adjacency', 1);
-- a wrong answer is caught: the relational side of one pattern drops a row
SELECT pattern, case_label, bool_and(identical) AS identical FROM hroe.design_run(
	jsonb_set(:'adjacency', '{patterns,1,relational}', to_jsonb(replace(:'adjacency'::jsonb #>> '{patterns,1,relational}', 'ORDER BY i.issue_no', 'ORDER BY i.issue_no OFFSET 1'))),
	1, false, '{project_issues}')
GROUP BY 1, 2 ORDER BY 1, 2;

-- A failing call does not stop the run: one pattern's relational query is
-- broken, another's request template names an undeclared parameter, a
-- third's request names a table that does not exist (hroe's error), a
-- fourth's parameters_sql fails; each is a row with its error class and
-- message, side and parameter set, and every other pattern runs
CREATE TEMP TABLE broken AS SELECT * FROM hroe.design_run(
	jsonb_set(jsonb_set(jsonb_set(jsonb_set(:'adjacency'::jsonb,
		'{patterns,0,relational}', '"SELECT no_such_column FROM no_such_table"'),
		'{patterns,1,dynamodb,requests,0,request,TableName}', '"${no_such_parameter}"'),
		'{patterns,2,dynamodb,requests,0,request,TableName}', '"no_such_table"'),
		'{patterns,3,parameters_sql}', '"SELECT ''division'', ARRAY[(1 / 0)::text]"'), 1, false);
SELECT pattern_no, pattern, case_label, model, identical, error_class, error FROM broken WHERE error_class IS NOT NULL ORDER BY pattern_no, case_label, model;
SELECT count(DISTINCT pattern) AS patterns, count(DISTINCT pattern) FILTER (WHERE error_class IS NULL AND identical) AS patterns_ok,
	   count(*) FILTER (WHERE error_class IS NULL AND NOT identical AND pattern_no > 4) AS other_differences
FROM broken;
-- the text report names them
SELECT l FROM hroe.compare_report_lines((SELECT jsonb_agg(to_jsonb(b)) FROM broken b WHERE pattern_no IN (1, 4))) l WHERE l LIKE '%FAILED%';
-- and the page shows them as failed verdicts
SELECT h ~ '<section id="s-failures">' AS failures_section,
	   (SELECT count(*) FROM regexp_matches(h, '<li data-pattern="[^"]*" data-case="[^"]*" data-side=', 'g')) AS failures_listed,
	   (SELECT count(*) FROM regexp_matches(h, '<td class="bad">FAILED</td>', 'g')) AS failed_summary_and_calls,
	   h ~ 'data-side="relational" data-class="42P01"' AS relational_failure_shown
FROM hroe.design_html(:'adjacency', (SELECT jsonb_agg(to_jsonb(b)) FROM broken b)) h;

-- Seed design 2: one-to-many strategies
\set one_to_many `cat models/designs/one_to_many.json`
SELECT table_name, entity, items FROM hroe.design_load(:'one_to_many');
CREATE TEMP TABLE o AS SELECT * FROM hroe.design_run(:'one_to_many', 1, false);
SELECT pattern, kind, case_label, model, identical, result_rows, requests, items, capacity, capacity_unit, index_capacity
FROM o ORDER BY pattern_no, case_label, model;
SELECT table_name, index_name, items, partitions FROM hroe.design_tables(:'one_to_many', 1);

-- A NoSQL Workbench model (format 3.0), imported with patterns of its own
\set wb `cat models/designs/saas.workbench.json`
\set wb_patterns `cat models/designs/saas.patterns.json`
SELECT jsonb_pretty(d - 'facets' - 'patterns' - 'setup_sql' - 'mix' - 'description') FROM hroe.design_import(:'wb') d;
CREATE TEMP TABLE w AS SELECT * FROM hroe.design_run(hroe.design_import(:'wb', :'wb_patterns'), 1);
SELECT pattern, kind, case_label, model, identical, result_rows, capacity, capacity_unit FROM w ORDER BY pattern_no, case_label, model;
SELECT (hroe.dynamodb('DescribeTable', '{"TableName": "saas"}') #> '{Table,ProvisionedThroughput}') - 'NumberOfDecreasesToday' AS provisioned;

-- a Query past 1 MB is read to its last page (LastEvaluatedKey), as the
-- SDKs' paginators read it: 300 items of 4 KB, two requests, every item
\set paging '{"name": "paging", "tables": [{"TableName": "design_paging", "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}], "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}, {"AttributeName": "SK", "AttributeType": "N"}]}], "facets": [{"entity": "Big", "table": "design_paging", "sql": "SELECT jsonb_build_object(''PK'', ''p'', ''SK'', g, ''Blob'', repeat(''x'', 4000)) FROM generate_series(1, 300) g"}], "patterns": [{"name": "whole_partition", "kind": "read", "parameters": ["pk"], "parameters_sql": "SELECT ''big partition'', ARRAY[''p'']", "relational": "SELECT g AS \\"SK\\" FROM generate_series(1, 300) g ORDER BY g", "dynamodb": {"requests": [{"operation": "Query", "request": {"TableName": "design_paging", "KeyConditionExpression": "PK = :p", "ProjectionExpression": "SK", "ExpressionAttributeValues": {":p": {"S": "${pk}"}}}}]}, "answer": ["SK"], "ordered": true}]}'
SELECT pattern, model, identical, result_rows, requests, items, capacity FROM hroe.design_run(:'paging', 1) ORDER BY model;

-- the page escapes what it shows: hostile names and labels stay text
-- (the page's own two script elements are its only ones)
SELECT (length(h) - length(replace(h, '<script', ''))) / 7 AS script_elements, position('<img src=x' IN h) AS raw_tag,
	   position('&lt;script&gt;alert' IN h) > 0 AS escaped
FROM hroe.design_html(hroe.design_import(:'wb', :'wb_patterns') || '{"description": "<img src=x onerror=alert(1)>"}',
	jsonb_build_array(jsonb_build_object('pattern_no', 1, 'pattern', '<script>alert(1)</script>', 'kind', 'read',
		'case_label', '</script><script>alert(2)</script>', 'model', 'saas_organizations', 'identical', true, 'result_rows', 1,
		'request', '<b>GetItem</b>', 'capacity', 0.5, 'capacity_unit', 'RCU', 'median_ms', 0.1))) h;

-- malformed documents are refused, saying what is missing
SELECT hroe.design_check('{"name": "x", "variants": {}}');
SELECT hroe.design_check('{"name": "x", "variants": [{"name": "y", "schema": "design_x"}]}');
SELECT hroe.design_check('{"name": "x", "variants": [{"name": "y", "variants": []}]}');
SELECT hroe.design_run('{"name": "x", "dynamodb_name": "relational"}', 1, false);
SELECT hroe.design_check('{"name": "x", "patterns": [{"name": "p"}]}');
SELECT hroe.design_check('{"name": "Bad Name"}');
SELECT hroe.design_check('{"name": "x", "schema": "hroe"}');
SELECT hroe.design_check('{"name": "x", "tables": [], "facets": [{"entity": "e", "table": "t", "sql": "SELECT 1"}]}');
SELECT hroe.design_fill('{"a": "${x}"}', '{y}', '{1}');
SELECT hroe.design_fill('{"a": "${x}\""}', '{x}', '{"quote \" and \\ backslash"}');
SELECT hroe.design_check('{"name": "x", "tables": [{"TableName": "t"}]}');
SELECT hroe.design_check('{"name": "x", "patterns": [{"name": "p", "kind": "read", "parameters_sql": "SELECT 1", "relational": "SELECT 1", "dynamodb": {}}]}');
SELECT hroe.design_import('{"ModelName": "m"}');
SELECT hroe.design_import('{"ModelName": "m", "DataModel": [{"TableName": "t"}]}');

-- cleanup
SELECT hroe.delete_table(t) FROM unnest('{adjacency,one_to_many,saas,design_paging}'::text[]) t;
DROP SCHEMA design_paging, design_adjacency, design_one_to_many, design_saas_organizations, adjacency_rel, one_to_many_rel, saas_rel CASCADE;
