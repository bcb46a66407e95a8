--
-- hroe.sharded_query with p_parallel_workers: workers (a ParallelContext,
-- sharing the caller's snapshot) each merge a share of the shards and send
-- their rows in order; the leader merges their streams with its own shards.
-- Every parallel call is checked against the serial call, whole rows in
-- order.
--
CREATE SCHEMA shard_parallel;
SET search_path = shard_parallel, public;
CREATE TABLE orders (id integer PRIMARY KEY, shard integer NOT NULL,
					 sk text COLLATE "C" NOT NULL, note text);
INSERT INTO orders SELECT g, hroe.shard_of(g, 15), 'K#' || lpad((g % 300)::text, 3, '0'),
	   repeat('x', g % 40)
FROM generate_series(1, 6000) g;
CREATE INDEX orders_sharded ON orders (shard, sk);
ANALYZE orders;

-- par(op, v1, v2, forward, limit, workers): the parallel call's rows against
-- the serial call's, in order
CREATE FUNCTION pg_temp.par(p_table regclass, p_index regclass, p_shards integer,
							p_op text, p_v1 text, p_v2 text, p_forward boolean, p_limit bigint,
							p_workers integer, OUT rows integer, OUT same_as_serial boolean)
LANGUAGE plpgsql AS $$
DECLARE
	v_call text := format('SELECT array_agg(q::text) FROM hroe.sharded_query(NULL::%s, %L, %s, %L, %L::text, %L::text, %L, %L',
						  p_table, p_index, p_shards, p_op, p_v1, p_v2, p_forward, p_limit);
	p text[];
	s text[];
BEGIN
	EXECUTE v_call || format(', p_parallel_workers => %s) q', p_workers) INTO p;
	EXECUTE v_call || ') q' INTO s;
	rows := coalesce(cardinality(p), 0);
	same_as_serial := p IS NOT DISTINCT FROM s;
END
$$;

-- the workers launched (DEBUG1), and the first rows
SET client_min_messages = debug1;
SELECT id, shard, sk FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, '>=', 'K#100',
											 p_limit => 4, p_parallel_workers => 2);
SELECT id, shard, sk FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, '>=', 'K#100',
											 p_forward => false, p_limit => 4, p_parallel_workers => 1);
RESET client_min_messages;

SELECT c.op, c.v1, c.v2, d.forward, l.lim, w.workers, r.*
FROM (VALUES ('between', 'K#010', 'K#200'), ('>=', 'K#250', NULL), ('<', 'K#020', NULL),
			 ('=', 'K#123', NULL), ('begins_with', 'K#2', NULL), (NULL, NULL, NULL),
			 ('>', 'Z', NULL)) AS c(op, v1, v2),
	 (VALUES (true), (false)) AS d(forward),
	 (VALUES (NULL::bigint), (1), (10), (1000)) AS l(lim),
	 (VALUES (1), (2), (14), (100)) AS w(workers),
	 LATERAL pg_temp.par('orders', 'orders_sharded', 15, c.op, c.v1, c.v2, d.forward, l.lim, w.workers) AS r
WHERE (w.workers IN (1, 2) OR l.lim IS NULL) AND (c.op IS NOT DISTINCT FROM 'between' OR w.workers = 1)
ORDER BY 1, 2, 3, 4 DESC, 5 NULLS FIRST, 6;

-- Empty shards: rows hashed into 10 shards, read as 15 (a worker may get
-- only empty shards); and one shard.
CREATE TABLE orders10 (LIKE orders);
INSERT INTO orders10 SELECT id, hroe.shard_of(id, 10), sk, note FROM orders;
CREATE INDEX orders10_sharded ON orders10 (shard, sk);
SELECT w.workers, d.forward, r.*
FROM (VALUES (1), (4), (14)) AS w(workers), (VALUES (true), (false)) AS d(forward),
	 LATERAL pg_temp.par('orders10', 'orders10_sharded', 15, '>=', 'K#100', NULL, d.forward, 50, w.workers) AS r;
TRUNCATE orders10;
SELECT count(*) AS all_shards_empty
FROM hroe.sharded_query(NULL::orders10, 'orders10_sharded', 15, p_parallel_workers => 3);
SELECT * FROM pg_temp.par('orders', 'orders_sharded', 1, '>=', 'K#100', NULL, true, 5, 2);

-- Uncommitted changes of the caller's transaction: the workers see what
-- the caller's snapshot sees (deleted rows, rows updated to other keys).
BEGIN;
DELETE FROM orders WHERE id % 5 = 0;
UPDATE orders SET sk = 'K#150' WHERE id % 7 = 0;
INSERT INTO orders SELECT g, hroe.shard_of(g, 15), 'K#150', 'new' FROM generate_series(7001, 7100) g;
SELECT d.forward, l.lim, r.*
FROM (VALUES (true), (false)) AS d(forward), (VALUES (NULL::bigint), (40)) AS l(lim),
	 LATERAL pg_temp.par('orders', 'orders_sharded', 15, 'between', 'K#140', 'K#160', d.forward, l.lim, 2) AS r;
ROLLBACK;

-- No workers: none free (max_parallel_workers = 0), in a temporary table,
-- in parallel mode (under a Gather: force_parallel_mode).
CREATE TEMPORARY TABLE temp_orders AS SELECT * FROM orders;
CREATE INDEX ON temp_orders (shard, sk);
SET client_min_messages = debug1;
SET max_parallel_workers = 0;
SELECT * FROM pg_temp.par('orders', 'orders_sharded', 15, '>=', 'K#100', NULL, false, 20, 2);
RESET max_parallel_workers;
SELECT count(*) FROM hroe.sharded_query(NULL::temp_orders, 'temp_orders_shard_sk_idx', 15,
										'>=', 'K#100', p_parallel_workers => 2);
DROP TABLE temp_orders;
SET force_parallel_mode = on;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
EXPLAIN (COSTS OFF)
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, '>=', 'K#100',
										p_parallel_workers => 2);
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, '>=', 'K#100',
										p_parallel_workers => 2);
RESET force_parallel_mode;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET client_min_messages;

-- The rows are materialized (in a tuplestore, here spilled to a file):
-- a cursor closed early drops them.
SET work_mem = '64kB';
BEGIN;
DECLARE c CURSOR FOR SELECT (r).id FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_sharded', 15,
	'>=', 'K#000', p_parallel_workers => 1) AS r) s;
FETCH 3 FROM c;
CLOSE c;
COMMIT;
RESET work_mem;

-- An error in a worker reaches the caller.  picky_cmp, the comparison
-- function of a btree operator class, refuses to run in any backend but
-- the one named in shard_parallel.leader: the workers' scans use it.
CREATE FUNCTION picky_cmp(a integer, b integer) RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
	IF coalesce(current_setting('shard_parallel.leader', true), '') NOT IN ('', pg_backend_pid()::text) THEN
		RAISE EXCEPTION 'picky_cmp refuses to compare outside the leader';
	END IF;
	RETURN btint4cmp(a, b);
END
$$;
CREATE OPERATOR FAMILY picky_ops USING btree;
CREATE OPERATOR CLASS picky_ops FOR TYPE integer USING btree FAMILY picky_ops AS
	OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >,
	FUNCTION 1 picky_cmp(integer, integer);
CREATE TABLE picky (id integer, shard integer, n integer);
INSERT INTO picky SELECT g, g % 4, g % 100 FROM generate_series(1, 400) g;
CREATE INDEX picky_sharded ON picky (shard, n picky_ops);
SELECT set_config('shard_parallel.leader', pg_backend_pid()::text, false) IS NOT NULL AS leader_set;
SELECT count(*) AS serial_rows FROM hroe.sharded_query(NULL::picky, 'picky_sharded', 4, '>=', 10);
SELECT count(*) FROM hroe.sharded_query(NULL::picky, 'picky_sharded', 4, '>=', 10, p_parallel_workers => 1);
-- the session goes on, and can start workers again
SELECT * FROM pg_temp.par('orders', 'orders_sharded', 15, '<=', 'K#050', NULL, false, 30, 2);

-- Errors
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, p_parallel_workers => -1);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_sharded', 15, p_parallel_workers => 1025);

RESET search_path;
DROP SCHEMA shard_parallel CASCADE;
