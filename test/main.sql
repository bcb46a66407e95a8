-- The README's main command, run by test/main.sh: load the HR/OE data at
-- scale :scale, compare every access pattern on every model once, print the
-- run as text and write it as an HTML page to :report (both from the same
-- rows of hroe.compare); the benchmark's CSV, read from psql's standard
-- input (empty: none), adds its growth curves to the page; :options (a
-- jsonb object, default {}) are hroe.compare_html's, e.g. the request mix.
-- Each phase says when it starts, and at large scales hroe.load and
-- hroe.compare report their progress.
\set ON_ERROR_STOP 1
\if :{?options}
\else
\set options '{}'
\endif
SET client_min_messages = warning;
CREATE EXTENSION hroe_hr CASCADE;
SET client_min_messages = notice;
SELECT extname, extversion FROM pg_extension WHERE extname IN ('hroe', 'hroe_hr') ORDER BY extname;
SELECT format('hroe: phase 1/3, load at scale %s (%s)', :'scale', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
SELECT * FROM hroe.load(:scale, 42);
SELECT format('hroe: phase 2/3, compare with %s run(s) per call (%s)', :'runs', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
CREATE TEMP TABLE hroe_run AS
SELECT c.* FROM hroe.compare(p_runs => :runs) WITH ORDINALITY AS c;
CREATE TEMP TABLE hroe_run_rows AS
SELECT jsonb_agg(to_jsonb(r) - 'ordinality' ORDER BY r.ordinality) AS rows FROM hroe_run r;
\pset tuples_only on
\pset format unaligned
SELECT format('hroe.compare: models %s, %s run(s) per call', string_agg(m, ', '), :'runs') FROM hroe.compare_models() m;
SELECT hroe.compare_report_lines(rows) FROM hroe_run_rows;
SELECT format('hroe: phase 3/3, the HTML report (%s)', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
-- the benchmark's curves: the busiest argument set, one client, per model
CREATE TEMP TABLE hroe_bench (scale text, pattern_no text, pattern text, kind text, args_set text, label text,
	args text, model text, clients text, rows text, median_ms text, min_ms text, max_ms text, rounds text,
	transactions text, tps text, buffers text, same_as_single text);
\copy hroe_bench FROM pstdin WITH (FORMAT csv, HEADER true)
\o :report
SELECT hroe.compare_html(r.rows, :'options'::jsonb || jsonb_build_object('growth', COALESCE(
	(SELECT jsonb_agg(jsonb_build_object('scale', b.scale::numeric, 'pattern_no', b.pattern_no::integer,
										 'pattern', b.pattern, 'model', b.model, 'ms', b.median_ms::numeric))
	 FROM hroe_bench b
	 WHERE b.kind = 'read' AND b.args_set = 'busiest' AND b.clients = '1' AND b.model LIKE 'hroe\_%'
	   AND b.median_ms <> ''), '[]')))
FROM hroe_run_rows r;
\o
\pset tuples_only off
\pset format aligned
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE identical) AS identical,
	   count(DISTINCT model) AS models
FROM hroe_run GROUP BY kind ORDER BY kind;
\echo 'hroe: the HTML report:' :report
