-- The README's main command, run by test/main.sh: load the HR/OE data at
-- scale :scale, compare every access pattern on every model, print the report.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION hroe;
SELECT extname, extversion FROM pg_extension WHERE extname = 'hroe';
SELECT * FROM hroe.load(:scale, 42);
\pset tuples_only on
\pset format unaligned
SELECT * FROM hroe.compare_report(p_runs => :runs);
\pset tuples_only off
\pset format aligned
SELECT kind, count(*) AS calls, count(*) FILTER (WHERE identical) AS identical,
	   count(DISTINCT model) AS models
FROM hroe.compare(p_runs => 1) GROUP BY kind ORDER BY kind;
