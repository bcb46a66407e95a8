-- test/bench/compare_cells.sql: the cells of the compare benchmark, one per
-- argument set of bench_args and model, and the floor from floor_calls
-- (empty when hroe_single is not installed), with what one execution of
-- each returns: the statement pgbench runs, rows, the md5 fingerprint of
-- the answer in the order it is returned (as hroe.compare computes it), and
-- the shared buffers hit + read of a warm execution (EXPLAIN ANALYZE
-- BUFFERS, top plan node, as hroe.compare reports them), and est_ms, the
-- fastest of three executions (reads: execution time of EXPLAIN ANALYZE;
-- writes: runs in subtransactions rolled back), from which the script
-- sizes each cell's pgbench transactions. Writes run in pgbench as
-- BEGIN; SELECT write; ROLLBACK.
-- Sourced by test/bench/compare.sh after compare_sweep_args.sql and
-- compare_floor.sql.
DROP TABLE IF EXISTS bench_cells;
CREATE TABLE bench_cells (
	cell_id integer GENERATED ALWAYS AS IDENTITY, pattern_no integer, pattern text, kind text,
	args_set text, label text, args text[], model text, model_no integer, sql text, result_rows bigint, fingerprint text, buffers bigint, est_ms numeric);

DO $$
DECLARE
	a record;
	m record;
	fp text;
	n bigint;
	plan jsonb;
	b bigint;
	e numeric;
	t timestamptz;
	i integer;
BEGIN
	FOR a IN SELECT * FROM bench_args ORDER BY pattern_no, args_set LOOP
		FOR m IN
			SELECT u.m AS model, u.o::integer AS model_no,
				   CASE WHEN a.kind = 'write' THEN 'BEGIN; SELECT ' || hroe.compare_call(u.m, a.pattern, a.args) || '; ROLLBACK;'
						ELSE 'SELECT * FROM ' || hroe.compare_call(u.m, a.pattern, a.args) END AS sql
			FROM hroe.compare_models() WITH ORDINALITY u (m, o)
			UNION ALL
			SELECT 'floor', 0, f.sql FROM floor_calls f
			WHERE f.pattern = a.pattern AND f.args_set = a.args_set
		LOOP
			fp := NULL; n := NULL; b := NULL; e := NULL;
			IF a.kind = 'read' THEN
				EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
					FROM (SELECT r, row_number() OVER () AS n FROM (%s) r) s', m.sql) INTO fp, n;
				-- three warm executions: buffers of the last, the fastest time
				FOR i IN 1 .. 3 LOOP
					EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || m.sql INTO plan;
					e := least(e, (plan #>> '{0,Execution Time}')::numeric);
				END LOOP;
				b := COALESCE((plan #>> '{0,Plan,Shared Hit Blocks}')::bigint, 0)
				   + COALESCE((plan #>> '{0,Plan,Shared Read Blocks}')::bigint, 0);
			ELSE
				-- three runs, each rolled back: the fastest time
				FOR i IN 1 .. 3 LOOP
					BEGIN
						t := clock_timestamp();
						EXECUTE 'SELECT ' || hroe.compare_call(m.model, a.pattern, a.args);
						e := least(e, extract(epoch FROM clock_timestamp() - t)::numeric * 1000);
						RAISE EXCEPTION USING ERRCODE = 'HR0CR';
					EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
						NULL;
					END;
				END LOOP;
			END IF;
			INSERT INTO bench_cells (pattern_no, pattern, kind, args_set, label, args, model, model_no, sql,
				result_rows, fingerprint, buffers, est_ms)
			VALUES (a.pattern_no, a.pattern, a.kind, a.args_set, a.label, a.args,
				m.model, m.model_no, m.sql, n, fp, b, e);
		END LOOP;
	END LOOP;
END
$$;
