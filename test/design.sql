-- A design, proven on its data (bash test/design.sh DESIGN.json; README
-- "Designs"): run by psql in a database where CREATE EXTENSION hroe_hr can
-- run or has run.  Variables: design (the design document, a NoSQL
-- Workbench model, or hroe_single / hroe_multi for HR/OE at scale :scale),
-- patterns (a JSON object merged into the design: patterns, mix, setup_sql;
-- {} for none), runs (per call), load (true: make the tables and load the
-- facets; false: run over tables already loaded), report (the HTML page's
-- path), options (hroe.design_html's, a JSON object).  A failing call
-- does not stop the run; the script fails at its end (psql exits 3).
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE;
SET client_min_messages = notice;
\if :{?scale}
\else
\set scale 1
\endif
SELECT :'design' IN ('hroe', 'hroe_single', 'hroe_multi') AS hroe_design \gset
\if :hroe_design
SELECT format('hroe: HR/OE at scale %s (%s)', :'scale', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
SELECT * FROM hroe.load(:scale, 42);
-- hroe: hroe_single with hroe_multi as its variant, as test/main.sql runs it
SELECT CASE WHEN :'design' = 'hroe' THEN hroe.design_hroe('hroe_single') || jsonb_build_object('name', 'hroe',
			'variants', jsonb_build_array(hroe.design_hroe('hroe_multi')))
			ELSE hroe.design_hroe(:'design') END AS doc \gset
\set load false
\else
SELECT CASE WHEN :'design'::jsonb ? 'DataModel' THEN hroe.design_import(:'design'::jsonb, :'patterns'::jsonb)
			ELSE :'design'::jsonb || :'patterns'::jsonb END AS doc \gset
\endif
SELECT format('hroe: design %s, %s pattern(s), load %s (%s)', :'doc'::jsonb ->> 'name', jsonb_array_length(:'doc'::jsonb -> 'patterns'),
			  :'load', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
\if :load
SELECT * FROM hroe.design_load(:'doc');
SELECT v.* FROM jsonb_array_elements(COALESCE(:'doc'::jsonb -> 'variants', '[]')) x, hroe.design_load(x) v;
\endif
\echo 'hroe: the facets against the tables (missing and extra must be 0)'
SELECT * FROM hroe.design_verify(:'doc');
SELECT format('hroe: every pattern on both sides, %s run(s) per call (%s)', :'runs', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
CREATE TEMP TABLE design_run AS SELECT r.* FROM hroe.design_run(:'doc', :runs, false) WITH ORDINALITY AS r;
CREATE TEMP TABLE design_rows AS SELECT jsonb_agg(to_jsonb(r) - 'ordinality' ORDER BY r.ordinality) AS rows FROM design_run r;
\pset tuples_only on
\pset format unaligned
SELECT hroe.compare_report_lines(rows) FROM design_rows;
\o :report
SELECT hroe.design_html(:'doc', rows, :'options'::jsonb) FROM design_rows;
\o
\pset tuples_only off
\pset format aligned
SELECT table_name, index_name, items, bytes, partitions, hottest -> 0 AS hottest FROM hroe.design_tables(:'doc', 1);
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE identical) AS identical,
	   count(*) FILTER (WHERE error_class IS NOT NULL) AS failed FROM design_run GROUP BY kind ORDER BY kind;
SELECT format('hroe: done (%s)', to_char(clock_timestamp(), 'HH24:MI:SS')) AS progress \gset
\echo :progress
\echo 'hroe: the design''s page:' :report
-- a failed call fails the script (psql exits 3), after the page is written
SELECT count(*) > 0 AS failed_calls FROM design_run WHERE error_class IS NOT NULL \gset
\if :failed_calls
SELECT pattern, case_label, model, error_class, error FROM design_run WHERE error_class IS NOT NULL ORDER BY pattern_no;
DO $$ BEGIN RAISE EXCEPTION 'hroe: some access pattern calls failed (see the page''s Failures)'; END $$;
\endif
