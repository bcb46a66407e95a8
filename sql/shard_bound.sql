--
-- hroe.sharded_query with a limit: the bounded first pass.  With a limit
-- L, the L-th entry on the first leaf page a shard reads bounds the answer;
-- the shards started after it scan with the extra key "sort key not after
-- the bound" (ties kept), and a shard that runs out before the merge has L
-- rows is reopened past its bound.  Each case is checked row for row
-- against the definition of the order (sort key, then heap TID, ascending
-- forwards, descending backwards; the order of an unsharded index without
-- deduplication, scanned), with the number of index scans started:
-- 15 is one per shard, each one more is a shard reopened past its bound.
--
CREATE SCHEMA shard_bound;
SET search_path = shard_bound, public;
-- 200 keys held by 15 rows each (about one per shard), plus 60 rows of the
-- lowest key and 60 of the highest in shard 0 (ids > 10000): shard 0's
-- first page bounds the others at its first or last key, where each of
-- them holds about one row.  No autovacuum: dead entries stay.
CREATE TABLE b (id integer PRIMARY KEY, shard integer NOT NULL,
				sk text COLLATE "C" NOT NULL, note text)
WITH (fillfactor = 50, autovacuum_enabled = off);
INSERT INTO b SELECT g, hroe.shard_of(g, 15), 'K#' || lpad((g % 200)::text, 3, '0'), 'n'
FROM generate_series(1, 3000) g;
INSERT INTO b SELECT 10000 + g, 0, 'K#000', 'low' FROM generate_series(1, 60) g;
INSERT INTO b SELECT 20000 + g, 0, 'K#199', 'high' FROM generate_series(1, 60) g;
CREATE INDEX b_sharded ON b (shard, sk);
CREATE INDEX b_sk ON b (sk) WITH (deduplicate_items = off);	-- unsharded
ANALYZE b;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM b WHERE sk BETWEEN 'K#000' AND 'K#199' ORDER BY sk DESC LIMIT 5;

-- check(table, index, column, op, v1, v2, forward, limit): the merged ids
-- against the unsharded index's, and the sharded index's scans started
CREATE FUNCTION pg_temp.check(p_table regclass, p_index regclass, p_col text,
							  p_op text, p_v1 text, p_v2 text, p_forward boolean, p_limit bigint,
							  OUT merged integer, OUT expected integer,
							  OUT same_rows_same_order boolean, OUT scans bigint)
LANGUAGE plpgsql AS $$
DECLARE
	v_cond text := CASE p_op
		WHEN 'between' THEN format('%I BETWEEN %L AND %L', p_col, p_v1, p_v2)
		ELSE format('%I %s %L', p_col, p_op, p_v1) END;
	v_dir text := CASE WHEN p_forward THEN 'ASC' ELSE 'DESC' END;
	v_scans bigint;
	m integer[];
	u integer[];
BEGIN
	v_scans := pg_stat_get_xact_numscans(p_index);
	EXECUTE format('SELECT array_agg(q.id) FROM hroe.sharded_query(NULL::%s, %L, 15, %L, %L::text, %L::text, %L, %L) AS q',
				   p_table, p_index, p_op, p_v1, p_v2, p_forward, p_limit) INTO m;
	scans := pg_stat_get_xact_numscans(p_index) - v_scans;
	EXECUTE format('SELECT array_agg(id) FROM (SELECT id FROM %s WHERE %s ORDER BY %I %s LIMIT %s) s',
				   p_table, v_cond, p_col, v_dir, coalesce(p_limit::text, 'ALL')) INTO u;
	merged := coalesce(cardinality(m), 0);
	expected := coalesce(cardinality(u), 0);
	same_rows_same_order := m IS NOT DISTINCT FROM u;
END
$$;
CREATE FUNCTION pg_temp.cases(p_table regclass, p_index regclass, p_col text, p_low text, p_high text)
RETURNS TABLE (forward boolean, lim bigint, merged integer, expected integer,
			   same_rows_same_order boolean, scans bigint)
LANGUAGE sql AS $$
SELECT d.forward, l.lim, r.*
FROM (VALUES (true), (false)) AS d(forward),
	 (VALUES (1::bigint), (2), (10), (14), (15), (16), (30), (100), (100000), (NULL)) AS l(lim),
	 LATERAL pg_temp.check(p_table, p_index, p_col, 'between', p_low, p_high, d.forward, l.lim) AS r
ORDER BY 1 DESC, 2 NULLS LAST
$$;

-- All rows visible: ties at the bound (K#000 forwards, K#199 backwards:
-- one row in most shards) are kept; up to 14 + 60 rows the bounded shards
-- and shard 0 hold the answer (15 scans), beyond it shards are reopened.
SELECT * FROM pg_temp.cases('b', 'b_sharded', 'sk', 'K#000', 'K#199');
-- the first rows forwards: shard 0's 60 rows of K#000 and the K#000 rows
-- of the other shards, in TID order
SELECT id, shard, sk FROM hroe.sharded_query(NULL::b, 'b_sharded', 15, '>=', 'K#000', p_limit => 3);
SELECT count(*) AS k000_rows, count(DISTINCT shard) AS shards
FROM hroe.sharded_query(NULL::b, 'b_sharded', 15, '>=', 'K#000', p_limit => 200) WHERE sk = 'K#000';

-- Dead entries in shard 0: its first page still bounds the other shards at
-- K#000 or K#199 (the entries of deleted and updated rows are read there),
-- but the merge finds them invisible and runs short (about 20 rows at the
-- bound): the other shards are reopened past the bound.  Rows updated to
-- K#100 (new entries) and rows updated in place (HOT) are found once.
DELETE FROM b WHERE id BETWEEN 10001 AND 10050 OR id BETWEEN 20001 AND 20050;
UPDATE b SET sk = 'K#100' WHERE id BETWEEN 10051 AND 10055 OR id BETWEEN 20051 AND 20055;
UPDATE b SET note = 'hot' WHERE id BETWEEN 10056 AND 10060 OR id BETWEEN 20056 AND 20060 OR id % 7 = 0;
-- first round: the dead entries are on the pages; second round: the first
-- round's forward scans marked them dead in the index, which skips them
SELECT * FROM pg_temp.cases('b', 'b_sharded', 'sk', 'K#000', 'K#199');
SELECT * FROM pg_temp.cases('b', 'b_sharded', 'sk', 'K#000', 'K#199');
-- every row of shard 0's low and high keys gone: shard 0 is as short as
-- the others at the bound
DELETE FROM b WHERE id > 10000;
SELECT * FROM pg_temp.cases('b', 'b_sharded', 'sk', 'K#000', 'K#199');
-- rows near both ends deleted in every shard (in a transaction): the
-- bounds fall among dead entries, and the merge runs short of them
BEGIN;
DELETE FROM b WHERE sk BETWEEN 'K#001' AND 'K#020' OR sk BETWEEN 'K#180' AND 'K#198';
SELECT * FROM pg_temp.cases('b', 'b_sharded', 'sk', 'K#000', 'K#199');
SELECT * FROM pg_temp.check('b', 'b_sharded', 'sk', '>=', 'K#000', NULL, true, 20);
SELECT * FROM pg_temp.check('b', 'b_sharded', 'sk', '<=', 'K#199', NULL, false, 20);
ROLLBACK;

-- Short shards: 20 rows over 15 shards (some empty), one key held by six.
CREATE TABLE s (id integer, shard integer, sk text COLLATE "C");
INSERT INTO s SELECT g, hroe.shard_of(g, 15), 'S#' || lpad((g % 12)::text, 2, '0') FROM generate_series(1, 20) g;
INSERT INTO s SELECT 100 + g, 0, 'S#05' FROM generate_series(1, 6) g;
CREATE INDEX s_sharded ON s (shard, sk);
CREATE INDEX s_sk ON s (sk) WITH (deduplicate_items = off);
SELECT count(*) AS rows, count(DISTINCT shard) AS shards FROM s;
SELECT * FROM pg_temp.cases('s', 's_sharded', 'sk', 'S#00', 'S#99');
SELECT * FROM pg_temp.cases('s', 's_sharded', 'sk', 'S#05', 'S#05');

-- A DESC index column and an integer sort key: the bound key's operator
-- follows the scan (<= when the values rise along it, >= when they fall).
CREATE TABLE e (id integer, shard bigint, n integer) WITH (autovacuum_enabled = off);
INSERT INTO e SELECT g, hroe.shard_of(g, 15), g % 100 FROM generate_series(1, 1500) g;
INSERT INTO e SELECT 5000 + g, 0, 50 FROM generate_series(1, 40) g;
CREATE INDEX e_desc ON e (shard, n DESC);
CREATE INDEX e_n ON e (n DESC) WITH (deduplicate_items = off);
EXPLAIN (COSTS OFF) SELECT id FROM e WHERE n BETWEEN 0 AND 99 ORDER BY n LIMIT 5;
SELECT * FROM pg_temp.cases('e', 'e_desc', 'n', '0', '99') WHERE lim IN (1, 10, 16, 100);
SELECT * FROM pg_temp.cases('e', 'e_desc', 'n', '50', '99') WHERE lim IN (1, 10, 16, 100);
SELECT * FROM pg_temp.cases('e', 'e_desc', 'n', '0', '50') WHERE lim IN (1, 10, 16, 100);
DELETE FROM e WHERE id > 5000;
SELECT * FROM pg_temp.cases('e', 'e_desc', 'n', '50', '99') WHERE lim IN (1, 10, 16, 100);
SELECT * FROM pg_temp.cases('e', 'e_desc', 'n', '0', '50') WHERE lim IN (1, 10, 16, 100);

RESET enable_seqscan;
RESET enable_bitmapscan;
RESET search_path;
DROP SCHEMA shard_bound CASCADE;
