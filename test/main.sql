-- The README's main command, run by test/main.sh: load the HR/OE data at
-- scale :scale, then run HR/OE as one design document (hroe_normalized
-- against hroe_single, with hroe_multi as a variant) through
-- hroe.design_run: every access pattern on every model, :runs runs per
-- call; print the run as text and write the design's page to :report (both
-- from the same rows); the benchmark's CSV, read from psql's standard input
-- (empty: none), adds its growth curves to the page; :options (a jsonb
-- object, default {}) are hroe.design_html's, e.g. the request mix.  A
-- failing call does not stop the run: it is on the page as a failed verdict,
-- and the script fails at its end.  Each phase says when it starts, and at
-- large scales hroe.load and hroe.design_run report their progress.
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
SELECT format('hroe: phase 2/3, every pattern on every model, %s run(s) per call (%s)', :'runs', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
CREATE TEMP TABLE hroe_design AS
SELECT hroe.design_hroe('hroe_single') || jsonb_build_object('name', 'hroe', 'variants', jsonb_build_array(hroe.design_hroe('hroe_multi')),
	'description', 'Oracle''s HR and OE samples: hroe_normalized against the single-table design hroe_single and the multi-table design hroe_multi, every pattern of the comparison') AS doc;
CREATE TEMP TABLE hroe_run AS
SELECT r.* FROM hroe_design d, hroe.design_run(d.doc, :runs, false) WITH ORDINALITY AS r;
CREATE TEMP TABLE hroe_run_rows AS
SELECT COALESCE(jsonb_agg(to_jsonb(r) - 'ordinality' ORDER BY r.ordinality), '[]') AS rows FROM hroe_run r;
\pset tuples_only on
\pset format unaligned
SELECT format('hroe.design_run: models %s, %s run(s) per call', string_agg(DISTINCT model, ', '), :'runs') FROM hroe_run;
SELECT hroe.compare_report_lines(rows) FROM hroe_run_rows;
SELECT format('hroe: phase 3/3, the design''s page (%s)', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
-- main.sh's signal that the curves may be read now (the file :phase3)
\if :{?phase3}
\o :phase3
\o
\endif
-- the benchmark's curves: the busiest argument set, one client, per model
CREATE TEMP TABLE hroe_bench (scale text, pattern_no text, pattern text, kind text, args_set text, label text,
	args text, model text, clients text, rows text, median_ms text, min_ms text, max_ms text, rounds text,
	transactions text, tps text, buffers text, same_as_single text);
\copy hroe_bench FROM pstdin WITH (FORMAT csv, HEADER true)
-- this run's own point on the curves (HROE_GROWTH_CSV): per pattern and
-- model, the median of its first (busiest) argument set, in the benchmark's
-- columns (the page draws every pattern's); written to :growth_csv, which main.sh
-- appends to HROE_GROWTH_CSV
\if :{?growth_csv}
CREATE TEMP TABLE hroe_growth AS
SELECT :'scale' AS scale, r.pattern_no::text, r.pattern, r.kind, 'busiest' AS args_set, r.case_label AS label, ''::text AS args,
	   r.model, '1' AS clients, r.result_rows::text AS rows, r.median_ms::text AS median_ms, ''::text AS min_ms, ''::text AS max_ms,
	   :'runs' AS rounds, ''::text AS transactions, ''::text AS tps, (r.shared_hit + COALESCE(r.shared_read, 0))::text AS buffers,
	   ''::text AS same_as_single
FROM hroe_run r
WHERE r.ordinality = (SELECT min(f.ordinality) FROM hroe_run f WHERE f.pattern_no = r.pattern_no AND f.model = r.model)
  AND r.error_class IS NULL AND r.median_ms IS NOT NULL;
INSERT INTO hroe_bench SELECT * FROM hroe_growth;
\o :growth_csv
COPY hroe_growth TO STDOUT WITH (FORMAT csv, HEADER true);
\o
\endif
\o :report
SELECT hroe.design_html(d.doc, r.rows, :'options'::jsonb || jsonb_build_object('growth', COALESCE(
	(SELECT jsonb_agg(jsonb_build_object('scale', b.scale::numeric, 'pattern_no', b.pattern_no::integer,
										 'pattern', b.pattern, 'model', b.model, 'ms', b.median_ms::numeric))
	 FROM hroe_bench b
	 WHERE b.args_set = 'busiest' AND b.clients = '1' AND b.model LIKE 'hroe\_%'
	   AND b.median_ms <> ''), '[]')))
FROM hroe_design d, hroe_run_rows r;
\o
\pset tuples_only off
\pset format aligned
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE identical) AS identical,
	   count(*) FILTER (WHERE error_class IS NOT NULL) AS failed, count(DISTINCT model) AS models
FROM hroe_run GROUP BY kind ORDER BY kind;
\echo 'hroe: the design''s page:' :report
-- a failed call fails the command, after the page is written
SELECT count(*) > 0 AS failed_calls FROM hroe_run WHERE error_class IS NOT NULL \gset
\if :failed_calls
SELECT pattern, case_label, model, error_class, error FROM hroe_run WHERE error_class IS NOT NULL ORDER BY pattern_no;
DO $$ BEGIN RAISE EXCEPTION 'hroe: some access pattern calls failed (see the page''s Failures)'; END $$;
\endif
