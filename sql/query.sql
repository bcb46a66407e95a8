--
-- Query and Scan: key conditions as index range scans, order, Limit, the
-- 1 MB page, ExclusiveStartKey/LastEvaluatedKey, sparse multi-attribute
-- GSIs, Select, ConsumedCapacity and errors (doc/dynamodb-rules.md, Ordering to Indexes)
--
\set VERBOSITY terse
SELECT hroe.create_table('orders', 'PK', 'S', 'SK', 'S');
-- a sparse GSI with a multi-attribute key: 2 HASH + 2 RANGE (S and N)
SELECT hroe.create_index('orders', 'byStatus', '{status, region}', '{date, seq}',
	'{"status": "S", "region": "S", "date": "S", "seq": "N"}');
SELECT hroe.create_index('orders', 'keysOnly', '{status, region}', '{date, seq}',
	'{"status": "S", "region": "S", "date": "S", "seq": "N"}', 'KEYS_ONLY');

-- an item of exactly n bytes: PK, SK, extra attributes and a padding string
CREATE FUNCTION sized(pk text, sk text, n int, extra jsonb DEFAULT '{}') RETURNS hroe.item
LANGUAGE sql AS $$
	SELECT (jsonb_build_object('PK', jsonb_build_object('S', pk), 'SK', jsonb_build_object('S', sk),
		'pad', jsonb_build_object('S', repeat('x', n - 2 - octet_length(pk) - 2 - octet_length(sk) - 3
			- coalesce(hroe.item_size(extra::hroe.item), 0)))) || extra)::hroe.item
$$;
CREATE FUNCTION sk(i hroe.item) RETURNS text LANGUAGE sql AS $$ SELECT (i::jsonb) -> 'SK' ->> 'S' $$;

-- BIG: 40 items of 40 KB (1.6 MB); 34 of them are in the GSIs (status OPEN,
-- region EU, 17 dates x 2 seqs, so (date, seq) repeats and the table key
-- breaks ties); 3 lack region (sparse), 3 are CLOSED
SELECT count(*) FROM generate_series(1, 40) i,
	hroe.put_item('orders', sized('BIG', 'ITEM#' || lpad(i::text, 2, '0'), 40960,
		CASE WHEN i <= 34 THEN jsonb_build_object('status', '{"S": "OPEN"}'::jsonb, 'region', '{"S": "EU"}'::jsonb,
				'date', jsonb_build_object('S', '2025-01-' || lpad((1 + (i * 7) % 17)::text, 2, '0')),
				'seq', jsonb_build_object('N', (i % 2)::text))
			 WHEN i <= 37 THEN '{"status": {"S": "OPEN"}, "date": {"S": "2025-01-01"}, "seq": {"N": "0"}}'::jsonb
			 ELSE '{"status": {"S": "CLOSED"}, "region": {"S": "EU"}, "date": {"S": "2025-01-01"}, "seq": {"N": "0"}}'::jsonb END));
-- Q: 10 items of 1008 bytes
SELECT count(*) FROM generate_series(1, 10) i, hroe.put_item('orders', sized('Q', 'Q#' || lpad(i::text, 2, '0'), 1008));
-- C: sort keys in DynamoDB's order (UTF-8 bytes = code points)
SELECT count(*) FROM unnest(ARRAY['A', 'B', 'Z', '_', 'a', 'a#1', 'a#10', 'a#2', 'aa', 'b', '~', 'é', 'ÿ', U&'\FFFF', '😀', 'ORDER#2025-01', 'ORDER#2025-02', 'ORDER#2026-01']) s,
	hroe.put_item('orders', jsonb_build_object('PK', '{"S": "C"}'::jsonb, 'SK', jsonb_build_object('S', s))::hroe.item);
ANALYZE orders;

-- Order within an item collection, both directions
SELECT string_agg(sk(i), ' ') FROM hroe.query('orders', 'PK = :p', '{":p": {"S": "C"}}') i;
SELECT string_agg(sk(i), ' ') FROM hroe.query('orders', 'PK = :p', '{":p": {"S": "C"}}', p_scan_index_forward => false) i;

-- Every sort key condition, with either operand order, against hand-written
-- SQL on the key columns (hroe.key has DynamoDB's byte order)
CREATE TABLE conds (kce text, vals jsonb, sqlw text);
INSERT INTO conds VALUES
	('PK = :p AND SK = :a', '{":a": {"S": "a#1"}}', 'sk = ''a#1'''),
	('PK = :p AND SK < :a', '{":a": {"S": "a#1"}}', 'sk < ''a#1'''),
	('PK = :p AND SK <= :a', '{":a": {"S": "a#1"}}', 'sk <= ''a#1'''),
	('PK = :p AND SK > :a', '{":a": {"S": "a#1"}}', 'sk > ''a#1'''),
	('PK = :p AND SK >= :a', '{":a": {"S": "a#1"}}', 'sk >= ''a#1'''),
	(':a > SK AND :p = PK', '{":a": {"S": "a#1"}}', 'sk < ''a#1'''),
	('PK = :p AND SK BETWEEN :a AND :b', '{":a": {"S": "B"}, ":b": {"S": "a#10"}}', 'sk BETWEEN ''B'' AND ''a#10'''),
	('PK = :p AND begins_with(SK, :a)', '{":a": {"S": "a#"}}', 'sk ^@ ''a#'''),
	('PK = :p AND begins_with(SK, :a)', '{":a": {"S": "ORDER#2025"}}', 'sk ^@ ''ORDER#2025'''),
	('PK = :p AND begins_with(SK, :a)', '{":a": {"S": "ÿ"}}', 'sk ^@ ''ÿ'''),
	('PK = :p AND begins_with(SK, :a)', '{":a": {"S": "z"}}', 'sk ^@ ''z'''),
	('(PK = :p) AND (begins_with(SK, :a))', '{":a": {"S": "a"}}', 'sk ^@ ''a''');
CREATE FUNCTION handwritten(p_where text, p_desc bool) RETURNS text LANGUAGE plpgsql
SET search_path = public, hroe AS $$
DECLARE r text;
BEGIN
	EXECUTE format('SELECT coalesce(string_agg(sk::text, '' '' ORDER BY sk %s), '''') FROM orders WHERE pk = ''C'' AND %s',
				   CASE WHEN p_desc THEN 'DESC' ELSE '' END, p_where) INTO r;
	RETURN r;
END $$;
CREATE VIEW cond_results AS
SELECT c.kce, c.vals ->> ':a' AS a, q.forward, q.backward,
	q.forward = handwritten(c.sqlw, false) AND q.backward = handwritten(c.sqlw, true) AS same_as_sql
FROM conds c, LATERAL (SELECT
	(SELECT coalesce(string_agg(sk(i), ' '), '') FROM hroe.query('orders', c.kce, c.vals || '{":p": {"S": "C"}}') i) AS forward,
	(SELECT coalesce(string_agg(sk(i), ' '), '') FROM hroe.query('orders', c.kce, c.vals || '{":p": {"S": "C"}}', p_scan_index_forward => false) i) AS backward) q;
SELECT * FROM cond_results;
-- the GSI against hand-written SQL on its generated columns
CREATE FUNCTION gsi_handwritten(p_desc bool) RETURNS text[] LANGUAGE plpgsql
SET search_path = public, hroe AS $$
DECLARE r text[];
BEGIN
	EXECUTE format('SELECT array_agg(sk::text ORDER BY "byStatus_sk1" %1$s, "byStatus_sk2" %1$s, pk %1$s, sk %1$s) FROM orders
					WHERE "byStatus_pk1" = ''OPEN'' AND "byStatus_pk2" = ''EU''', CASE WHEN p_desc THEN 'DESC' ELSE '' END) INTO r;
	RETURN r;
END $$;
CREATE VIEW gsi_results AS
SELECT d, ARRAY(SELECT sk(i) FROM hroe.query('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}',
					'{"#s": "status", "#r": "region"}', 'byStatus', d) i) = gsi_handwritten(NOT d) AS same_as_sql
FROM (VALUES (true), (false)) dir(d);
SELECT * FROM gsi_results;

-- The plan: an index range scan on the primary key, the key condition in
-- Index Cond, begins_with as a range (prefix .. successor), no Sort
SELECT * FROM hroe.explain_query('orders', 'PK = :p AND begins_with(SK, :a)', '{":p": {"S": "C"}, ":a": {"S": "a#"}}');
SELECT * FROM hroe.explain_query('orders', 'PK = :p AND SK BETWEEN :a AND :b', '{":p": {"S": "C"}, ":a": {"S": "a"}, ":b": {"S": "b"}}', p_scan_index_forward => false);
SELECT * FROM hroe.explain_query('orders', 'PK = :p', '{":p": {"S": "C"}}', p_exclusive_start_key => '{"PK": {"S": "C"}, "SK": {"S": "a"}}');
-- on the GSI: equality on both HASH attributes and the leading RANGE one,
-- a range on the last, the partial index's predicate implied
SELECT * FROM hroe.explain_query('orders', '#s = :s AND #r = :r AND #d = :d AND seq >= :n',
	'{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":d": {"S": "2025-01-05"}, ":n": {"N": "1"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus');
SELECT * FROM hroe.explain_query('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}',
	'{"#s": "status", "#r": "region"}', 'byStatus', false,
	'{"PK": {"S": "BIG"}, "SK": {"S": "ITEM#05"}, "status": {"S": "OPEN"}, "region": {"S": "EU"}, "date": {"S": "2025-01-02"}, "seq": {"N": "1"}}');

-- Capacity (section 6): bytes evaluated, rounded up once to 4 KB, at least
-- one unit, half when eventually consistent: 10 x 1008 B -> 3 and 1.5
SELECT count, scanned_count, last_evaluated_key, consumed_capacity
FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "Q"}}', p_consistent_read => true, p_return_consumed_capacity => 'TOTAL');
SELECT count, consumed_capacity
FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "Q"}}', p_return_consumed_capacity => 'TOTAL');
-- Select COUNT returns no items and costs the same
SELECT items IS NULL AS no_items, count, scanned_count, consumed_capacity
FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "Q"}}', p_select => 'COUNT', p_return_consumed_capacity => 'TOTAL');
-- an empty result still costs 1 (0.5)
SELECT count, consumed_capacity FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "none"}}', p_consistent_read => true, p_return_consumed_capacity => 'TOTAL');
SELECT count, consumed_capacity FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "none"}}', p_return_consumed_capacity => 'INDEXES');
-- Limit counts items evaluated; stopping at Limit always gives a
-- LastEvaluatedKey, even when nothing is left (Limit 10 on exactly 10 items)
SELECT count, last_evaluated_key, consumed_capacity
FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "Q"}}', p_limit => 10, p_return_consumed_capacity => 'TOTAL');
SELECT count, last_evaluated_key, consumed_capacity
FROM hroe.query_page('orders', 'PK = :p', '{":p": {"S": "Q"}}', p_limit => 10, p_return_consumed_capacity => 'TOTAL',
	p_exclusive_start_key => '{"PK": {"S": "Q"}, "SK": {"S": "Q#10"}}');

-- Paging through 1.6 MB: pages stop once 1 MB has been read (the item that
-- crosses 1 MB is included, as dynalite does): 26 x 40 KB, then 14
CREATE FUNCTION pages(p_index text, p_kce text, p_vals jsonb, p_names jsonb, p_forward bool, p_limit int)
RETURNS TABLE (page int, count int, scanned int, first_sk text, last_sk text, lek jsonb, capacity jsonb)
LANGUAGE plpgsql AS $$
DECLARE
	esk jsonb := NULL;
	r hroe.page;
BEGIN
	page := 0;
	LOOP
		page := page + 1;
		r := hroe.query_page('orders', p_kce, p_vals, p_names, p_index, p_forward, false, p_limit, esk, NULL, 'INDEXES');
		count := r.count; scanned := r.scanned_count;
		first_sk := sk(r.items[1]); last_sk := sk(r.items[r.count]);
		lek := r.last_evaluated_key; capacity := r.consumed_capacity;
		RETURN NEXT;
		EXIT WHEN r.last_evaluated_key IS NULL OR page > 50;
		esk := r.last_evaluated_key;
	END LOOP;
END
$$;
-- collect every page's items and compare with the unpaged result
CREATE FUNCTION all_pages(p_index text, p_kce text, p_vals jsonb, p_names jsonb, p_forward bool, p_limit int)
RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
	esk jsonb := NULL;
	r hroe.page;
	acc text[] := '{}';
BEGIN
	LOOP
		r := hroe.query_page('orders', p_kce, p_vals, p_names, p_index, p_forward, false, p_limit, esk);
		acc := acc || ARRAY(SELECT sk(x) FROM unnest(r.items) x);
		EXIT WHEN r.last_evaluated_key IS NULL;
		esk := r.last_evaluated_key;
	END LOOP;
	RETURN acc;
END
$$;
SELECT * FROM pages(NULL, 'PK = :p', '{":p": {"S": "BIG"}}', NULL, true, NULL);
SELECT * FROM pages(NULL, 'PK = :p', '{":p": {"S": "BIG"}}', NULL, false, NULL);
SELECT page, count, first_sk, last_sk, lek FROM pages(NULL, 'PK = :p', '{":p": {"S": "BIG"}}', NULL, true, 7);
SELECT page, count, first_sk, last_sk, lek FROM pages(NULL, 'PK = :p AND SK > :s', '{":p": {"S": "BIG"}, ":s": {"S": "ITEM#30"}}', NULL, false, 4);
SELECT d, l,
	all_pages(NULL, 'PK = :p', '{":p": {"S": "BIG"}}', NULL, d, l) =
	ARRAY(SELECT sk(i) FROM hroe.query('orders', 'PK = :p', '{":p": {"S": "BIG"}}', p_scan_index_forward => d) i) AS same,
	cardinality(all_pages(NULL, 'PK = :p', '{":p": {"S": "BIG"}}', NULL, d, l)) AS n
FROM (VALUES (true), (false)) dir(d), (VALUES (NULL::int), (1), (7), (40), (41)) lim(l) ORDER BY 1 DESC, 2;

-- The sparse multi-attribute GSI: 34 of the 40 BIG items; order by
-- (date, seq), then the table key; LastEvaluatedKey = index keys + table keys
SELECT count(*), count(DISTINCT (i::jsonb -> 'date', i::jsonb -> 'seq'))
FROM hroe.query('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus') i;
SELECT string_agg(format('%s/%s/%s', i::jsonb -> 'date' ->> 'S', i::jsonb -> 'seq' ->> 'N', sk(i)), ' ')
FROM hroe.query('orders', '#s = :s AND #r = :r AND #d BETWEEN :a AND :b', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":a": {"S": "2025-01-02"}, ":b": {"S": "2025-01-04"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus') i;
SELECT string_agg(format('%s/%s/%s', i::jsonb -> 'date' ->> 'S', i::jsonb -> 'seq' ->> 'N', sk(i)), ' ')
FROM hroe.query('orders', '#s = :s AND #r = :r AND #d = :d AND seq < :n', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":d": {"S": "2025-01-03"}, ":n": {"N": "1"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus', false) i;
SELECT string_agg(format('%s/%s/%s', i::jsonb -> 'date' ->> 'S', i::jsonb -> 'seq' ->> 'N', sk(i)), ' ')
FROM hroe.query('orders', '#s = :s AND #r = :r AND begins_with(#d, :d)', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":d": {"S": "2025-01-1"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus') i;
SELECT count(*) FROM hroe.query('orders', '#s = :s AND #r = :r', '{":s": {"S": "CLOSED"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus');
-- pages through the GSI (entries of 40 KB: 26 + 8), both directions, and with Limit
SELECT * FROM pages('byStatus', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', true, NULL);
SELECT * FROM pages('byStatus', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', false, NULL);
SELECT page, count, first_sk, last_sk FROM pages('byStatus', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', true, 5);
SELECT d, l,
	all_pages('byStatus', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', d, l) =
	ARRAY(SELECT sk(i) FROM hroe.query('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus', d) i) AS same
FROM (VALUES (true), (false)) dir(d), (VALUES (NULL::int), (1), (3), (34)) lim(l) ORDER BY 1 DESC, 2;
-- a KEYS_ONLY GSI returns index keys + table keys and is charged on that size:
-- 17 entries of 51 bytes and 17 of 50 (seq 0 is 1 byte) = 1717 B -> 0.5 units
SELECT items[1], count, consumed_capacity
FROM hroe.query_page('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'keysOnly',
	p_return_consumed_capacity => 'INDEXES');

-- Errors
-- E7, E8, E12: operand types
SELECT hroe.query('orders', 'PK = :p AND begins_with(SK, :a)', '{":p": {"S": "C"}, ":a": {"N": "1"}}');
SELECT hroe.query('orders', 'PK = :p AND SK BETWEEN :a AND :b', '{":p": {"S": "C"}, ":a": {"S": "b"}, ":b": {"S": "a"}}');
SELECT hroe.query('orders', 'PK = :p', '{":p": {"N": "1"}}');
SELECT hroe.query('orders', 'PK = :p AND SK > :a', '{":p": {"S": "C"}, ":a": {"B": "AA=="}}');
SELECT hroe.query('orders', '#s = :s AND #r = :r AND #d = :d AND seq > :n', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":d": {"S": "x"}, ":n": {"S": "1"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus');
-- E13: the key condition's shape
SELECT hroe.query('orders', 'SK = :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK > :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p AND note = :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p OR SK = :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p AND SK <> :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p AND SK > :p AND SK < :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', '#s = :s', '{":s": {"S": "OPEN"}}', '{"#s": "status"}', 'byStatus');
SELECT hroe.query('orders', '#s = :s AND #r = :r AND seq = :n', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":n": {"N": "1"}}',
	'{"#s": "status", "#r": "region"}', 'byStatus');
SELECT hroe.query('orders', '#s = :s AND #r = :r AND #d > :d AND seq = :n', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}, ":d": {"S": "x"}, ":n": {"N": "1"}}',
	'{"#s": "status", "#r": "region", "#d": "date"}', 'byStatus');
-- E15, E16: names and placeholders
SELECT hroe.query('orders', 'PK = :p AND status = :p', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :zz', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p', '{":p": {"S": "C"}, ":q": {"S": "C"}}');
SELECT hroe.query('orders', 'PK = :p', '{":p": {"S": "C"}}', '{"#n": "x"}');
SELECT hroe.query('orders', 'PK = :p AND', '{":p": {"S": "C"}}');
SELECT hroe.query('orders', NULL);
-- E23: Limit
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_limit => 0);
-- E24, E25: ExclusiveStartKey
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_exclusive_start_key => '{"PK": {"S": "C"}}');
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_exclusive_start_key => '{"PK": {"S": "C"}, "XK": {"S": "a"}}');
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_exclusive_start_key => '{"PK": {"S": "C"}, "SK": {"N": "1"}}');
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_exclusive_start_key => '{"PK": {"S": "Q"}, "SK": {"S": "a"}}');
SELECT hroe.query_page('orders', 'PK = :p AND SK > :s', '{":p": {"S": "C"}, ":s": {"S": "m"}}', p_exclusive_start_key => '{"PK": {"S": "C"}, "SK": {"S": "a"}}');
SELECT hroe.query_page('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus',
	p_exclusive_start_key => '{"PK": {"S": "BIG"}, "SK": {"S": "ITEM#05"}}');
SELECT hroe.query_page('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus',
	p_exclusive_start_key => '{"PK": {"S": "BIG"}, "SK": {"S": "ITEM#05"}, "status": {"S": "OPEN"}, "region": {"S": "US"}, "date": {"S": "2025-01-02"}, "seq": {"N": "1"}}');
-- E26, E27, E28
SELECT hroe.query('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'byStatus', true, true);
SELECT hroe.query_page('orders', '#s = :s AND #r = :r', '{":s": {"S": "OPEN"}, ":r": {"S": "EU"}}', '{"#s": "status", "#r": "region"}', 'keysOnly', p_select => 'ALL_ATTRIBUTES');
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_select => 'ALL_PROJECTED_ATTRIBUTES');
SELECT hroe.query_page('orders', 'PK = :p', '{":p": {"S": "C"}}', p_select => 'EVERYTHING');
SELECT hroe.query('orders', 'PK = :p', '{":p": {"S": "C"}}', p_index_name => 'nope');
SELECT hroe.query('nope', 'PK = :p', '{":p": {"S": "C"}}');

-- Scan: every item, in key order; on a GSI only the items it holds
SELECT count(*), sum(hroe.item_size(i)) FROM hroe.scan('orders') i;
SELECT count(*) FROM hroe.scan('orders', 'byStatus');
SELECT count, scanned_count, last_evaluated_key, consumed_capacity
FROM hroe.scan_page('orders', p_limit => 3, p_return_consumed_capacity => 'TOTAL');
SELECT count, sk(items[1]), last_evaluated_key
FROM hroe.scan_page('orders', p_limit => 3, p_exclusive_start_key => '{"PK": {"S": "Q"}, "SK": {"S": "Q#09"}}');
SELECT count, sk(items[1]), last_evaluated_key
FROM hroe.scan_page('orders', 'byStatus', p_limit => 2, p_return_consumed_capacity => 'INDEXES');
-- parallel Scan: segments split the table by partition key hash; paged
-- through, they are disjoint and together complete (68 items)
CREATE FUNCTION segment_items(p_segment int, p_total int) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	esk jsonb := NULL;
	r hroe.page;
BEGIN
	LOOP
		r := hroe.scan_page('orders', p_exclusive_start_key => esk, p_segment => p_segment, p_total_segments => p_total);
		RETURN QUERY SELECT (i::jsonb -> 'PK' ->> 'S') || '/' || sk(i) FROM unnest(r.items) i;
		EXIT WHEN r.last_evaluated_key IS NULL;
		esk := r.last_evaluated_key;
	END LOOP;
END
$$;
SELECT seg, count(*), string_agg(DISTINCT split_part(k, '/', 1), ' ') AS partitions
FROM generate_series(0, 2) seg, segment_items(seg, 3) k GROUP BY seg ORDER BY seg;
SELECT count(*), count(DISTINCT k) FROM generate_series(0, 2) seg, segment_items(seg, 3) k;
SELECT count(*), count(DISTINCT k) FROM generate_series(0, 6) seg, segment_items(seg, 7) k;
SELECT count, scanned_count FROM hroe.scan_page('orders', p_segment => 0, p_total_segments => 3, p_limit => 5);
SELECT count FROM hroe.scan_page('orders', p_segment => 0, p_total_segments => 3,
	p_exclusive_start_key => '{"PK": {"S": "C"}, "SK": {"S": "ORDER#2025-01"}}');
SELECT count FROM hroe.scan_page('orders', p_segment => 1, p_total_segments => 3,
	p_exclusive_start_key => '{"PK": {"S": "C"}, "SK": {"S": "ORDER#2025-01"}}');
SELECT hroe.scan_page('orders', p_segment => 1);
SELECT hroe.scan_page('orders', p_total_segments => 2);
SELECT hroe.scan_page('orders', p_segment => 2, p_total_segments => 2);
SELECT hroe.scan_page('orders', p_segment => -1, p_total_segments => 2);
SELECT hroe.scan_page('orders', p_segment => 0, p_total_segments => 1000001);
SELECT hroe.scan_page('orders', 'byStatus', true);
SELECT hroe.scan_page('orders', p_exclusive_start_key => '{"PK": {"S": "Q"}}');

-- Without the indexes: the hand-written SQL runs as a sequential scan and a
-- sort, and still agrees with hroe.query (which plans its own statements as
-- index range scans); a new session, so no plan of this backend is reused
\c
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
EXPLAIN (COSTS OFF) SELECT sk FROM orders WHERE pk OPERATOR(hroe.=) 'C' AND sk OPERATOR(hroe.^@) 'a#' ORDER BY sk USING OPERATOR(hroe.<);
SELECT kce, a, same_as_sql FROM cond_results;
SELECT * FROM gsi_results;
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;

DROP VIEW cond_results, gsi_results;
SELECT hroe.delete_table('orders');
DROP FUNCTION pages, all_pages, sized, sk, handwritten, gsi_handwritten, segment_items;
DROP TABLE conds;
