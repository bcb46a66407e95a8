--
-- hroe.sharded_query: the N shards of a write-sharded btree index, merged in
-- sort-key order, checked row for row against the same query on an
-- unsharded index.
--
CREATE SCHEMA shard_query;
SET search_path = shard_query, public;
CREATE TABLE orders (
	id integer PRIMARY KEY,
	status text NOT NULL,
	shard integer NOT NULL,
	sk text COLLATE "C" NOT NULL,	-- GSI2 sort key STATUS#DATE: many duplicates
	order_date date NOT NULL,
	total numeric
);
INSERT INTO orders
SELECT g, (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[g % 3 + 1], hroe.shard_of(g, 15),
	   (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[g % 3 + 1] || '#' ||
	   to_char(date '2025-01-01' + g * 37 % 90, 'YYYY-MM-DD'),
	   date '2025-01-01' + g * 37 % 90, g * 1.5
FROM generate_series(1, 3000) g;
CREATE INDEX orders_gsi2 ON orders (shard, sk);					-- write-sharded
-- The unsharded indexes keep one entry per row (no deduplication): a
-- deduplicated btree returns the rows of one posting list in ascending heap
-- order even when scanning backwards, so its backward order of equal keys
-- is not the exact reverse of its forward order.
CREATE INDEX orders_sk ON orders (sk) WITH (deduplicate_items = off);	-- unsharded
CREATE INDEX orders_status_gsi ON orders (status, shard, order_date);	-- key status + shard
CREATE INDEX orders_status_date ON orders (status, order_date) WITH (deduplicate_items = off);
ANALYZE orders;

-- Each shard is one partition of the index; the shards are even.
SELECT count(DISTINCT shard) AS shards, min(c), max(c)
FROM (SELECT shard, count(*) AS c FROM orders GROUP BY shard) x;

-- A first look: the first OPEN orders of February, across all shards.
SELECT id, shard, sk FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15,
	'begins_with', 'OPEN#2025-02', p_limit => 8);
SELECT id, shard, sk FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15,
	'begins_with', 'OPEN#2025-02', p_forward => false, p_limit => 8);

-- The same query on the unsharded index, as a plain index scan: rows with
-- equal sort keys come in heap order (ascending forwards, descending
-- backwards), as sharded_query returns them.
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF)
SELECT id FROM orders WHERE sk BETWEEN 'OPEN#2025-01-10' AND 'OPEN#2025-02-10' ORDER BY sk;
EXPLAIN (COSTS OFF)
SELECT id FROM orders WHERE sk BETWEEN 'OPEN#2025-01-10' AND 'OPEN#2025-02-10' ORDER BY sk DESC LIMIT 5;

-- compare(op, v1, v2, forward, limit): the merged rows against the rows of
-- the unsharded query, as arrays of ids in order
CREATE FUNCTION pg_temp.compare(p_op text, p_v1 text, p_v2 text, p_forward boolean, p_limit bigint,
								OUT merged integer, OUT unsharded integer, OUT same_rows_same_order boolean)
LANGUAGE plpgsql AS $$
DECLARE
	v_cond text := CASE
		WHEN p_op IS NULL THEN 'true'
		WHEN p_op = 'between' THEN format('sk BETWEEN %L AND %L', p_v1, p_v2)
		WHEN p_op = 'begins_with' THEN format('starts_with(sk, %L)', p_v1)
		-- as a closed range, so that the planner keeps ORDER BY sk
		WHEN p_op = '=' THEN format('sk BETWEEN %L AND %L', p_v1, p_v1)
		ELSE format('sk %s %L', p_op, p_v1) END;
	v_dir text := CASE WHEN p_forward THEN '' ELSE 'DESC' END;
	m integer[];
	u integer[];
BEGIN
	SELECT array_agg(q.id) INTO m
	FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, p_op, p_v1, p_v2,
							p_forward, p_limit) AS q;
	EXECUTE format('SELECT array_agg(id) FROM (SELECT id FROM orders WHERE %s ORDER BY sk %s LIMIT %s) s',
				   v_cond, v_dir, coalesce(p_limit::text, 'ALL')) INTO u;
	merged := coalesce(cardinality(m), 0);
	unsharded := coalesce(cardinality(u), 0);
	same_rows_same_order := m IS NOT DISTINCT FROM u;
END
$$;

SELECT c.op, c.v1, c.v2, d.forward, l.lim, r.*
FROM (VALUES ('between', 'OPEN#2025-01-10', 'OPEN#2025-02-10'),
			 ('=', 'SHIPPED#2025-01-14', NULL),
			 ('<', 'CLOSED#2025-01-20', NULL),
			 ('<=', 'CLOSED#2025-01-20', NULL),
			 ('>', 'SHIPPED#2025-03-01', NULL),
			 ('>=', 'SHIPPED#2025-03-01', NULL),
			 ('begins_with', 'OPEN#2025-02', NULL),
			 ('begins_with', 'OPEN', NULL),
			 ('begins_with', '', NULL),
			 (NULL, NULL, NULL),
			 ('>', 'ZZZ', NULL),
			 ('between', 'OPEN#2025-01-10', 'OPEN#2025-01-10')) AS c(op, v1, v2),
	 (VALUES (true), (false)) AS d(forward),
	 (VALUES (NULL::bigint), (1), (5), (100), (100000)) AS l(lim),
	 LATERAL pg_temp.compare(c.op, c.v1, c.v2, d.forward, l.lim) AS r
WHERE l.lim IS NULL OR l.lim IN (1, 5) OR c.op IS NOT DISTINCT FROM 'between'
ORDER BY 1, 2, 3, 4 DESC, 5 NULLS FIRST;

-- without any index scan: the definition of the order, sort key then heap TID
SET enable_indexscan = off;
SET enable_seqscan = on;
EXPLAIN (COSTS OFF)
SELECT id FROM orders WHERE sk >= 'CLOSED#2025-02-01' ORDER BY sk DESC, ctid DESC;
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15,
			'>=', 'CLOSED#2025-02-01', p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE sk >= 'CLOSED#2025-02-01'
								   ORDER BY sk DESC, ctid DESC) s) AS same_backward,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15,
			'>=', 'CLOSED#2025-02-01'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE sk >= 'CLOSED#2025-02-01'
								   ORDER BY sk, ctid) s) AS same_forward;
RESET enable_indexscan;
SET enable_seqscan = off;

-- Duplicate sort keys across shards: one key held by 33 orders in 13 shards.
SELECT count(*) AS orders, count(DISTINCT shard) AS shards
FROM orders WHERE sk = 'SHIPPED#2025-01-14';
SELECT q.id, q.shard, o.ctid
FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '=', 'SHIPPED#2025-01-14', p_limit => 6) q
JOIN orders o USING (id);
SELECT q.id, q.shard, o.ctid
FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '=', 'SHIPPED#2025-01-14', p_forward => false, p_limit => 6) q
JOIN orders o USING (id);

-- Empty shards: orders hashed into 10 shards, read as 15 (shards 10-14 empty),
-- and a key held by few shards.
CREATE TABLE orders10 (LIKE orders);
INSERT INTO orders10 SELECT id, status, hroe.shard_of(id, 10), sk, order_date, total FROM orders;
CREATE INDEX orders10_gsi2 ON orders10 (shard, sk);
CREATE INDEX orders10_sk ON orders10 (sk) WITH (deduplicate_items = off);
ANALYZE orders10;
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 15, '>=', 'OPEN'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders10 WHERE sk >= 'OPEN' ORDER BY sk) s) AS same_forward,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 15, '<', 'OPEN', p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders10 WHERE sk < 'OPEN' ORDER BY sk DESC) s) AS same_backward;
DELETE FROM orders10 WHERE sk = 'OPEN#2025-01-04' AND shard > 2;
SELECT id, shard FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 15, '=', 'OPEN#2025-01-04');
SELECT id, shard FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 15, '=', 'OPEN#2025-01-04', p_forward => false);
SELECT count(*) FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 1, '=', 'OPEN#2025-01-04');
TRUNCATE orders10;
SELECT count(*) AS all_shards_empty FROM hroe.sharded_query(NULL::orders10, 'orders10_gsi2', 15);

-- Multi-attribute partition key (status, shard) with a date sort key: the
-- prefix values come as text and are converted to the column types.
EXPLAIN (COSTS OFF)
SELECT id FROM orders WHERE status = 'OPEN' AND order_date BETWEEN '2025-02-01' AND '2025-02-03'
ORDER BY order_date;
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15,
			'between', '2025-02-01', '2025-02-03', p_prefix => '{OPEN}'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE status = 'OPEN'
			AND order_date BETWEEN '2025-02-01' AND '2025-02-03' ORDER BY order_date) s) AS same_text_bounds,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15,
			'<', date '2025-01-05', p_forward => false, p_prefix => ARRAY['CLOSED']))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE status = 'CLOSED'
			AND order_date < '2025-01-05' ORDER BY order_date DESC) s) AS same_date_bound,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15,
			'>=', timestamp '2025-03-20 12:00', p_prefix => ARRAY['SHIPPED']))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE status = 'SHIPPED'
			AND order_date >= timestamp '2025-03-20 12:00' ORDER BY order_date) s) AS same_cross_type;
-- one query per partition-key prefix, in a lateral join
SELECT s.status, q.id, q.order_date
FROM (VALUES ('OPEN'), ('CLOSED')) AS s(status),
	 LATERAL hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', '2025-03-31',
								p_limit => 3, p_prefix => ARRAY[s.status]) AS q;

-- Other shapes: numeric shard column, integer sort key, DESC index column
-- (p_forward still means ascending), an expression sort key, a sparse
-- (partial) index.
CREATE TABLE events (id integer, shard numeric, n integer, note text);
INSERT INTO events SELECT g, hroe.shard_of(g, 4), g % 50, 'e' || g FROM generate_series(1, 500) g;
CREATE INDEX events_sharded_desc ON events (shard, n DESC);
CREATE INDEX events_n_desc ON events (n DESC) WITH (deduplicate_items = off);
CREATE INDEX events_expr ON events (shard, (n * -1));
CREATE INDEX events_sparse ON events (shard, n) WHERE n % 10 = 0;
ANALYZE events;
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, '<', 20))
	 = (SELECT array_agg(id) FROM (SELECT id FROM events WHERE n < 20 ORDER BY n) s) AS desc_index_ascending,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, '<', 20, p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM events WHERE n < 20 ORDER BY n DESC) s) AS desc_index_descending,
	   (SELECT array_agg(n) FROM hroe.sharded_query(NULL::events, 'events_expr', 4, '>', -5))
	 = (SELECT array_agg(n) FROM (SELECT n FROM events WHERE n * -1 > -5 ORDER BY n * -1) s) AS expression_key,
	   (SELECT count(*) FROM hroe.sharded_query(NULL::events, 'events_sparse', 4)) AS sparse_rows,
	   (SELECT count(*) FROM events WHERE n % 10 = 0) AS expected_sparse_rows;
SELECT id, n FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, 'between', 48, 49, p_limit => 4);
-- without a condition, rows without a sort key are not in the index's partitions
INSERT INTO events VALUES (1001, 0, NULL, 'no sort key'), (1002, 1, NULL, 'no sort key');
SELECT count(*) AS merged, (SELECT count(*) FROM events WHERE shard < 4) AS in_shards
FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4);
SELECT count(*) AS merged_backward FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, p_forward => false);

-- Key columns after the sort key order rows with equal sort keys (e.g. the
-- table key, as DynamoDB pages resume on sort key then table key); INCLUDE
-- columns do not.
CREATE INDEX orders_gsi2_total ON orders (shard, sk, total DESC) INCLUDE (status);
CREATE INDEX orders_sk_total ON orders (sk, total DESC) WITH (deduplicate_items = off);
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2_total', 15, '<', 'OPEN'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE sk < 'OPEN' ORDER BY sk, total DESC) s) AS same_forward,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2_total', 15, '<', 'OPEN', p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM orders WHERE sk < 'OPEN' ORDER BY sk DESC, total) s) AS same_backward;
SELECT id, sk, total FROM hroe.sharded_query(NULL::orders, 'orders_gsi2_total', 15, '=', 'CLOSED#2025-01-03', p_limit => 4);
DROP INDEX orders_gsi2_total, orders_sk_total;

-- Long sort keys, stored compressed in the index, with many equal keys.
CREATE TABLE longkeys (id integer, shard integer, sk text COLLATE "C");
INSERT INTO longkeys SELECT g, hroe.shard_of(g, 15), repeat('k', 3000) || g % 4 FROM generate_series(1, 400) g;
CREATE INDEX longkeys_sharded ON longkeys (shard, sk);
CREATE INDEX longkeys_sk ON longkeys (sk) WITH (deduplicate_items = off);
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::longkeys, 'longkeys_sharded', 15, '>', repeat('k', 3000) || '0'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM longkeys WHERE sk > repeat('k', 3000) || '0' ORDER BY sk) s) AS same_forward,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::longkeys, 'longkeys_sharded', 15, '>', repeat('k', 3000) || '0', p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM longkeys WHERE sk > repeat('k', 3000) || '0' ORDER BY sk DESC) s) AS same_backward,
	   (SELECT count(*) FROM hroe.sharded_query(NULL::longkeys, 'longkeys_sharded', 15, 'begins_with', repeat('k', 3000) || '3')) AS begins_with_rows;

-- hroe.key sort keys (GSI2's STATUS#DATE), begins_with included; text
-- values are converted to hroe.key (an empty prefix is not a key).
SET search_path = shard_query, public, hroe;	-- hroe.key's operators
CREATE TABLE keyed (id integer, shard integer, sk hroe.key);
INSERT INTO keyed SELECT id, shard, sk::hroe.key FROM orders;
CREATE INDEX keyed_sharded ON keyed (shard, sk);
CREATE INDEX keyed_sk ON keyed (sk) WITH (deduplicate_items = off);
SELECT (SELECT array_agg(id) FROM hroe.sharded_query(NULL::keyed, 'keyed_sharded', 15, 'between', 'OPEN#2025-01-10', 'OPEN#2025-02-10'))
	 = (SELECT array_agg(id) FROM (SELECT id FROM keyed WHERE sk BETWEEN 'OPEN#2025-01-10' AND 'OPEN#2025-02-10' ORDER BY sk) s) AS between_forward,
	   (SELECT array_agg(id) FROM hroe.sharded_query(NULL::keyed, 'keyed_sharded', 15, 'begins_with', 'SHIPPED#2025-02', p_forward => false))
	 = (SELECT array_agg(id) FROM (SELECT id FROM keyed WHERE sk >= 'SHIPPED#2025-02' AND sk < 'SHIPPED#2025-03' ORDER BY sk DESC) s) AS begins_with_backward,
	   (SELECT count(*) FROM hroe.sharded_query(NULL::keyed, 'keyed_sharded', 15, 'begins_with', 'SHIPPED#2025-02'::hroe.key)) AS begins_with_rows;
SELECT id, sk FROM hroe.sharded_query(NULL::keyed, 'keyed_sharded', 15, 'begins_with', 'CLOSED#2025-03-3', p_limit => 3);
SELECT * FROM hroe.sharded_query(NULL::keyed, 'keyed_sharded', 15, 'begins_with', '');
SET search_path = shard_query, public;

-- Snapshots: the merge sees what the query's snapshot sees.
BEGIN;
DELETE FROM orders WHERE id % 7 = 0;
UPDATE orders SET sk = 'OPEN#2025-01-10' WHERE id % 11 = 0 AND status = 'OPEN';
SELECT pg_temp.compare('between', 'OPEN#2025-01-10', 'OPEN#2025-02-10', true, NULL);
SELECT pg_temp.compare('between', 'OPEN#2025-01-10', 'OPEN#2025-02-10', false, 10);
ROLLBACK;
SELECT pg_temp.compare('between', 'OPEN#2025-01-10', 'OPEN#2025-02-10', true, NULL);

-- Early stop: with a limit of L the merge reads at most one head entry per
-- shard, then one entry per row returned after the first: 15 + L - 1 index
-- entries (here one shard fewer: a shard with no entry up to the bound of
-- the first pass, see shard_bound, reads none); it fetches from the table
-- only the L rows it returns.
CREATE FUNCTION pg_temp.reads(p_index regclass) RETURNS text
LANGUAGE sql AS $$SELECT pg_stat_get_xact_tuples_returned(p_index) || ',' || pg_stat_get_xact_tuples_fetched(p_index)$$;
CREATE FUNCTION pg_temp.reads_since(p_index regclass, p_before text, OUT entries_read bigint, OUT rows_fetched bigint)
LANGUAGE sql AS $$
SELECT pg_stat_get_xact_tuples_returned(p_index) - split_part(p_before, ',', 1)::bigint,
	   pg_stat_get_xact_tuples_fetched(p_index) - split_part(p_before, ',', 2)::bigint
$$;
BEGIN;
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED', p_limit => 5);
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED', p_limit => 1);
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED');
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
-- Backwards, each run of equal sort keys is read from the index first.
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '<=', 'SHIPPED', p_forward => false, p_limit => 5);
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
-- In the select list the function streams: an outer LIMIT stops it too.
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT (r).id FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED') AS r LIMIT 3) s;
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
-- In FROM, PostgreSQL reads a set-returning function to the end before an
-- outer LIMIT applies: pass p_limit there.
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT id FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED') LIMIT 3;
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
COMMIT;
-- Entries whose rows are not visible are skipped where they reach the top
-- (the 33 entries of CLOSED#2025-01-03 are read, no row fetched for them).
BEGIN;
DELETE FROM orders WHERE sk = 'CLOSED#2025-01-03';
SELECT pg_temp.reads('orders_gsi2') AS before \gset
SELECT id, sk FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED', p_limit => 3);
SELECT * FROM pg_temp.reads_since('orders_gsi2', :'before');
ROLLBACK;

-- Invisible heads, in both directions, with sort keys duplicated across
-- shards: 40 keys held by 30 rows each (about two per shard), room on every
-- page for HOT updates.
CREATE TABLE churn (id integer PRIMARY KEY, shard integer NOT NULL,
					sk text COLLATE "C" NOT NULL, note text) WITH (fillfactor = 50);
INSERT INTO churn SELECT g, hroe.shard_of(g, 15), 'K#' || lpad((g % 40)::text, 2, '0'), 'n'
FROM generate_series(1, 1200) g;
CREATE INDEX churn_sharded ON churn (shard, sk);
CREATE INDEX churn_sk ON churn (sk) WITH (deduplicate_items = off);
ANALYZE churn;
-- churn_compare(forward, limit, change): opens the merge and the unsharded
-- query as cursors (each with its snapshot), then, if change, updates the
-- sort key of some rows (new index entries, invisible to the cursors; the
-- old versions stay visible to them), updates other rows in place (HOT: the
-- index entry leads to a chain whose visible version is the old one),
-- inserts rows and deletes rows; then reads both cursors to the end, and
-- undoes the changes (a subtransaction rolled back).
CREATE FUNCTION pg_temp.churn_compare(p_forward boolean, p_limit bigint, p_change boolean,
									  OUT merged integer, OUT unsharded integer,
									  OUT same_rows_same_order boolean)
LANGUAGE plpgsql AS $$
DECLARE
	cm refcursor;
	cu refcursor;
	r record;
	m integer[] := '{}';
	u integer[] := '{}';
BEGIN
	OPEN cm FOR SELECT q.id FROM hroe.sharded_query(NULL::churn, 'churn_sharded', 15, 'between', 'K#05', 'K#30',
													 p_forward => p_forward, p_limit => p_limit) q;
	OPEN cu FOR EXECUTE format('SELECT id FROM churn WHERE sk BETWEEN %L AND %L ORDER BY sk %s LIMIT %s',
							   'K#05', 'K#30', CASE WHEN p_forward THEN 'ASC' ELSE 'DESC' END,
							   coalesce(p_limit::text, 'ALL'));
	IF p_change THEN
		UPDATE churn SET sk = 'K#' || lpad(((id + 7) % 40)::text, 2, '0') WHERE id % 7 = 0;
		UPDATE churn SET note = 'hot' WHERE id % 5 = 0;
		INSERT INTO churn SELECT g, hroe.shard_of(g, 15), 'K#' || lpad((g % 40)::text, 2, '0'), 'new'
		FROM generate_series(5001, 5600) g;
		DELETE FROM churn WHERE id % 11 = 0;
	END IF;
	LOOP
		FETCH cm INTO r;
		EXIT WHEN NOT FOUND;
		m := m || r.id;
	END LOOP;
	LOOP
		FETCH cu INTO r;
		EXIT WHEN NOT FOUND;
		u := u || r.id;
	END LOOP;
	merged := cardinality(m);
	unsharded := cardinality(u);
	same_rows_same_order := m = u;
	RAISE EXCEPTION USING ERRCODE = 'HR999';	-- undo the changes
EXCEPTION WHEN SQLSTATE 'HR999' THEN
	NULL;
END
$$;
EXPLAIN (COSTS OFF) SELECT id FROM churn WHERE sk BETWEEN 'K#05' AND 'K#30' ORDER BY sk;
-- changes made after the cursors opened: invisible entries among the heads
SELECT d.forward, l.lim, r.*
FROM (VALUES (true), (false)) AS d(forward), (VALUES (NULL::bigint), (1), (7), (100)) AS l(lim),
	 LATERAL pg_temp.churn_compare(d.forward, l.lim, true) AS r;
-- committed changes: dead entries (a forward scan marks them dead in the
-- index as it passes, so the second round skips them there), HOT chains
-- whose root is gone, updated sort keys
-- (the statistics are flushed on demand, so the check does not depend on
-- how long the statements take)
SELECT pg_stat_force_next_flush();
SELECT n_tup_hot_upd AS hot_before FROM pg_stat_user_tables WHERE relname = 'churn' \gset
UPDATE churn SET note = 'hot' WHERE id % 3 = 0;
SELECT pg_stat_force_next_flush();
SELECT n_tup_hot_upd > :hot_before AS some_hot_updates FROM pg_stat_user_tables
WHERE relname = 'churn';
UPDATE churn SET sk = 'K#17' WHERE id % 13 = 0;
DELETE FROM churn WHERE id % 4 = 0;
SELECT n.round, d.forward, l.lim, r.*
FROM (VALUES (1), (2)) AS n(round), (VALUES (true), (false)) AS d(forward),
	 (VALUES (NULL::bigint), (1), (7)) AS l(lim),
	 LATERAL pg_temp.churn_compare(d.forward, l.lim, false) AS r
ORDER BY 1, 2 DESC, 3 NULLS FIRST;
-- The scans' memory: one context kept by the backend, emptied after each
-- merge.  Two merges running at once (two set-returning functions in one
-- select list advance together) give the second one a context of its own;
-- a merge stopped by an error gives the kept context back too.
CREATE FUNCTION pg_temp.scan_memory(OUT contexts bigint, OUT kept boolean, OUT empty boolean)
LANGUAGE sql AS $$
SELECT count(*), bool_and(parent = 'TopMemoryContext'), bool_and(used_bytes < 1024)
FROM pg_backend_memory_contexts WHERE name = 'hroe sharded_query scans'
$$;
SELECT * FROM pg_temp.scan_memory();
-- while one merge runs
SELECT (r).id IS NOT NULL AS got_row, (pg_temp.scan_memory()).*
FROM (SELECT hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_limit => 1) AS r) s;
-- while two run
SELECT (a).id IS NOT NULL AND (b).id IS NOT NULL AS got_rows, (pg_temp.scan_memory()).*
FROM (SELECT hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_limit => 1) AS a,
			 hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_forward => false, p_limit => 1) AS b) s;
SELECT (SELECT array_agg((a).id) || array_agg((b).id)
		FROM (SELECT hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_limit => 5) AS a,
					 hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_forward => false, p_limit => 5) AS b) s)
	 = (SELECT array_agg(id) FROM (SELECT id FROM churn WHERE sk BETWEEN 'K#17' AND 'K#17' ORDER BY sk LIMIT 5) s)
		|| (SELECT array_agg(id) FROM (SELECT id FROM churn WHERE sk BETWEEN 'K#17' AND 'K#17' ORDER BY sk DESC LIMIT 5) s) AS same_rows;
SELECT * FROM pg_temp.scan_memory();
-- an error stops a merge
SELECT (r).id / ((r).id % 2) FROM (SELECT hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17') AS r) s;
SELECT * FROM pg_temp.scan_memory();
SELECT (r).id IS NOT NULL AS got_row, (pg_temp.scan_memory()).*
FROM (SELECT hroe.sharded_query(NULL::churn, 'churn_sharded', 15, '=', 'K#17', p_limit => 1) AS r) s;
DROP TABLE churn;

-- A cursor closed early ends the scans cleanly.
BEGIN;
DECLARE c CURSOR FOR SELECT (r).id FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'CLOSED') AS r) s;
FETCH 2 FROM c;
CLOSE c;
COMMIT;

-- Errors
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders', 15);
CREATE INDEX orders_hash ON orders USING hash (sk);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_hash', 15);
SELECT * FROM hroe.sharded_query(NULL::events, 'orders_gsi2', 15);
SELECT * FROM hroe.sharded_query(NULL::integer, 'orders_gsi2', 15);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', '2025-01-01');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_sk', 15, '>=', 'OPEN');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', '2025-01-01', p_prefix => '{OPEN,x}');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', '2025-01-01', p_prefix => ARRAY[NULL]);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', '2025-01-01', p_prefix => '{{OPEN}}');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '<>', 'OPEN');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, 'BETWEEN', 'b', 'a');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, 'between', 'a');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '=', 'a', 'b');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '=');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, NULL, 'a');
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'a', p_limit => 0);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15, '>=', 'a', p_limit => -1);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 0);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 1025);
SELECT * FROM hroe.sharded_query(NULL::orders, NULL, 15);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, '>=', 'not a date', p_prefix => '{OPEN}');
SELECT * FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, 'begins_with', 4);
SELECT * FROM hroe.sharded_query(NULL::events, 'events_sharded_desc', 4, '>=', 48.5);
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_status_gsi', 15, 'begins_with', '2025', p_prefix => '{OPEN}');
CREATE INDEX orders_by_status ON orders (shard, status);	-- default collation
SELECT * FROM hroe.sharded_query(NULL::orders, 'orders_by_status', 15, 'begins_with', 'OP');
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_by_status', 15, '>=', 'OPEN');

-- Privileges: SELECT on the whole table (or on every column) is required,
-- and tables under row-level security are refused.
CREATE ROLE regress_shard_reader;
GRANT USAGE ON SCHEMA hroe, shard_query TO regress_shard_reader;
SET ROLE regress_shard_reader;
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15);
RESET ROLE;
GRANT SELECT (id, sk) ON orders TO regress_shard_reader;
SET ROLE regress_shard_reader;
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15);
RESET ROLE;
GRANT SELECT ON orders TO regress_shard_reader;
SET ROLE regress_shard_reader;
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15);
RESET ROLE;
ALTER TABLE orders ENABLE ROW LEVEL SECURITY;
CREATE POLICY open_only ON orders USING (status = 'OPEN');
SET ROLE regress_shard_reader;
SELECT count(*) FROM hroe.sharded_query(NULL::orders, 'orders_gsi2', 15);
RESET ROLE;
DROP POLICY open_only ON orders;
ALTER TABLE orders DISABLE ROW LEVEL SECURITY;
REVOKE ALL ON orders FROM regress_shard_reader;
REVOKE ALL ON SCHEMA hroe, shard_query FROM regress_shard_reader;
DROP ROLE regress_shard_reader;
RESET enable_seqscan;
RESET enable_bitmapscan;

RESET search_path;
DROP SCHEMA shard_query CASCADE;
