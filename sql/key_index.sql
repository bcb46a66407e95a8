--
-- hroe.key index ranges: "pk = $1 AND sk ^@ $2" and "pk = $1 AND sk <@ $2"
-- on a btree over (pk, sk) become exact ranges in Index Cond (no Filter),
-- for constants, for parameters of generic plans and for join columns; the
-- same queries with and without the index give the same rows on 100,000
-- generated keys.
--
SET search_path = public, hroe;

-- A key as hex bytes, to show characters that do not print.
CREATE FUNCTION pg_temp.hex(k hroe.key) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT
	RETURN encode(convert_to(k::text, 'UTF8'), 'hex');

-- EXPLAIN (COSTS OFF) with key literals over 40 characters shortened.
CREATE FUNCTION pg_temp.plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		RETURN NEXT regexp_replace(line, '''([^'']{20})[^'']{21,}([^'']{6})''',
								   '''\1...\2''', 'g');
	END LOOP;
END
$$;

--
-- 100,000 keys: 4 partition keys; sort keys of 1 to 4 levels built from
-- components with multi-byte characters, the highest code points, code
-- points whose successor changes length (U+007F, U+D7FF, U+FFFF), empty
-- levels (leading, inner and trailing '#'), and keys at the 2048-byte limit.
--
CREATE TABLE items (pk hroe.key NOT NULL, sk hroe.key NOT NULL);
INSERT INTO items
SELECT hroe.key('P' || ((i + i / 144) % 4)::text),
	   hroe.key(VARIADIC (ARRAY[l1, l2, (i % 1000)::text, ''])[1 : CASE WHEN l1 = '' AND n = 1 THEN 2 ELSE n END])
FROM (SELECT i,
			 (ARRAY['USA', 'USA ', 'US', 'USB', '', 'é', 'e', 'ê', '€', '𝄞',
					U&'\+10FFFF', U&'\D7FF', U&'\E000', 'a' || U&'\007F', U&'\0080', U&'\FFFF'])[1 + i % 16] AS l1,
			 (ARRAY['WA', 'WAX', 'W', '', 'ÿ', 'Ā', U&'\+10FFFF', U&'\+10FFFF\+10FFFF', 'SEATTLE'])[1 + (i / 16) % 9] AS l2,
			 1 + (i / 144) % 4 AS n
	  FROM generate_series(1, 99990) i) g;
INSERT INTO items (pk, sk) VALUES
	('P1', repeat('a', 2047) || U&'\007F'),
	('P1', repeat('a', 2047) || '#'),
	('P1', repeat('a', 2046) || '#b'),
	('P1', repeat('a', 2048)),
	('P1', repeat('a', 2047)),
	('P1', repeat('a', 2046) || U&'\0080'),
	('P1', repeat('b', 2044) || U&'\+10FFFF'),
	('P1', repeat(U&'\+10FFFF', 512)),
	('P1', U&'\+10FFFF\+10FFFF#x'),
	('P1', 'a' || U&'\0080');
SELECT count(*) AS keys, count(DISTINCT sk) AS distinct_sort_keys,
	   max(octet_length(sk::text)) AS longest, max(hroe.key_levels(sk)) AS most_levels
FROM items;

-- The probes: every prefix / ancestor with each operator, in one
-- partition, and the first nine in a second one.
CREATE TABLE probes (id serial, pk hroe.key, op text, arg hroe.key, prefix text);
INSERT INTO probes (pk, op, arg, prefix)
SELECT pk, op, arg, arg::text || CASE WHEN op = '^@' THEN '' ELSE '#' END
FROM unnest(ARRAY['^@', '<@', '@>']) op,
	 unnest(ARRAY['USA', 'US', 'USA ', 'USA#', 'USA#WA', 'USA#WA#', 'USA#W', '#', '#WA', '##',
				  'é', 'e', 'ê', '€', '𝄞', U&'\+10FFFF', U&'\+10FFFF#', U&'\+10FFFF#' || U&'\+10FFFF',
				  U&'\+10FFFF\+10FFFF', U&'\D7FF', 'a' || U&'\007F', 'a', U&'\FFFF', 'USA#ÿ', 'Z',
				  repeat('a', 2047) || U&'\007F', repeat('a', 2047), repeat('a', 2048), repeat('a', 2046),
				  repeat('b', 2044) || U&'\+10FFFF', repeat(U&'\+10FFFF', 512)]::hroe.key[])
		WITH ORDINALITY a(arg, n),
	 unnest(ARRAY['P1', 'P2']::hroe.key[]) pk
WHERE pk = 'P1' OR n <= 9
ORDER BY pk, op, n;

-- Expected rows, from the definitions on text bytes: begins_with is a
-- byte prefix; b <@ a and a @> b mean b begins with a || '#'.
CREATE TABLE expected AS
SELECT p.id, i.sk FROM probes p JOIN items i ON i.pk = p.pk WHERE starts_with(i.sk::text, p.prefix);
SELECT op, count(DISTINCT p.id) AS probes, count(e.sk) AS matching_rows,
	   count(DISTINCT p.id) FILTER (WHERE e.sk IS NOT NULL) AS probes_with_rows
FROM probes p LEFT JOIN expected e USING (id) GROUP BY op ORDER BY op;

-- The same probes through queries with constants (one-shot plans) and
-- through queries with parameters (plpgsql, generic plans forced below).
CREATE FUNCTION pg_temp.probe_const(p_op text, p_pk hroe.key, p_arg hroe.key)
RETURNS SETOF hroe.key LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format(CASE p_op
		WHEN '^@' THEN 'SELECT sk FROM items WHERE pk = %1$L AND sk ^@ %2$L'
		WHEN '<@' THEN 'SELECT sk FROM items WHERE pk = %1$L AND sk <@ %2$L'
		ELSE 'SELECT sk FROM items WHERE pk = %1$L AND %2$L @> sk' END, p_pk, p_arg);
END
$$;
CREATE FUNCTION pg_temp.probe_param(p_op text, p_pk hroe.key, p_arg hroe.key)
RETURNS SETOF hroe.key LANGUAGE plpgsql AS $$
BEGIN
	IF p_op = '^@' THEN
		RETURN QUERY SELECT sk FROM items WHERE pk = p_pk AND sk ^@ p_arg;
	ELSIF p_op = '<@' THEN
		RETURN QUERY SELECT sk FROM items WHERE pk = p_pk AND sk <@ p_arg;
	ELSE
		RETURN QUERY SELECT sk FROM items WHERE pk = p_pk AND p_arg @> sk;
	END IF;
END
$$;
CREATE TABLE got (id int, sk hroe.key);
-- Rows found, and probes whose multiset of rows differs from the expected
-- one (compared by count and by sum of hashes, per probe).
CREATE FUNCTION pg_temp.diff(OUT got_rows bigint, OUT probes_differing bigint)
LANGUAGE sql AS $$
	SELECT (SELECT count(*) FROM got),
		   (SELECT count(*)
			FROM (SELECT id, count(*) AS n, sum(hroe.key_hash(sk)::bigint) AS h FROM got GROUP BY id) g
			FULL JOIN (SELECT id, count(*) AS n, sum(hroe.key_hash(sk)::bigint) AS h FROM expected GROUP BY id) e
			USING (id)
			WHERE g.n IS DISTINCT FROM e.n OR g.h IS DISTINCT FROM e.h)
$$;
-- without the index: the operators evaluated row by row
INSERT INTO got SELECT p.id, m.sk FROM probes p, pg_temp.probe_const(p.op, p.pk, p.arg) m(sk);
SELECT 'no index, constants' AS run, * FROM pg_temp.diff();

CREATE INDEX items_pk_sk ON items (pk, sk);
-- the plans below must not depend on when autovacuum visits the tables
ALTER TABLE items SET (autovacuum_enabled = off);
ALTER TABLE probes SET (autovacuum_enabled = off);
ANALYZE items, probes;
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- index scans, constants
TRUNCATE got;
INSERT INTO got SELECT p.id, m.sk FROM probes p, pg_temp.probe_const(p.op, p.pk, p.arg) m(sk);
SELECT 'index scan, constants' AS run, * FROM pg_temp.diff();
-- index scans, parameters of generic plans
SET plan_cache_mode = force_generic_plan;
TRUNCATE got;
INSERT INTO got SELECT p.id, m.sk FROM probes p, pg_temp.probe_param(p.op, p.pk, p.arg) m(sk);
SELECT 'index scan, generic plans' AS run, * FROM pg_temp.diff();
RESET plan_cache_mode;
-- index scans, the probe as the outer side of a nested loop (each probe
-- descending the index: no Memoize cache in between)
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SET enable_memoize = off;
TRUNCATE got;
INSERT INTO got
SELECT p.id, i.sk FROM probes p JOIN items i ON i.pk = p.pk AND i.sk ^@ p.arg WHERE p.op = '^@';
INSERT INTO got
SELECT p.id, i.sk FROM probes p JOIN items i ON i.pk = p.pk AND i.sk <@ p.arg WHERE p.op = '<@';
INSERT INTO got
SELECT p.id, i.sk FROM probes p JOIN items i ON i.pk = p.pk AND p.arg @> i.sk WHERE p.op = '@>';
SELECT 'index scan, join' AS run, * FROM pg_temp.diff();
SELECT * FROM pg_temp.plan($$SELECT p.id, i.sk FROM probes p JOIN items i ON i.pk = p.pk AND i.sk <@ p.arg$$);
RESET enable_hashjoin;
RESET enable_mergejoin;
RESET enable_memoize;
-- bitmap scans
SET enable_indexscan = off;
SET enable_bitmapscan = on;
TRUNCATE got;
INSERT INTO got SELECT p.id, m.sk FROM probes p, pg_temp.probe_const(p.op, p.pk, p.arg) m(sk);
SELECT 'bitmap scan, constants' AS run, * FROM pg_temp.diff();
SET plan_cache_mode = force_generic_plan;
TRUNCATE got;
INSERT INTO got SELECT p.id, m.sk FROM probes p, pg_temp.probe_param(p.op, p.pk, p.arg) m(sk);
SELECT 'bitmap scan, generic plans' AS run, * FROM pg_temp.diff();
RESET plan_cache_mode;
RESET enable_indexscan;
SET enable_bitmapscan = off;

--
-- The plans: both bounds in Index Cond, no Filter.
--
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk ^@ 'USA#WA'$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk <@ 'USA#WA'$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND 'USA#WA' @> sk$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND hroe.key_begins_with(sk, 'USA')$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND hroe.key_is_descendant(sk, 'USA')$$);
-- successors across character lengths: ÿ (U+00FF) -> Ā (U+0100), é -> ê,
-- e U+10FFFF -> f (trailing U+10FFFF dropped)
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk ^@ 'USA#ÿ'$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk ^@ 'é'$$);
SELECT pg_temp.hex(bound) FROM (VALUES ('e' || U&'\+10FFFF')) v(p),
	LATERAL (SELECT substring(line FROM '< ''([^'']*)''')::hroe.key AS bound
			 FROM pg_temp.plan(format('SELECT sk FROM items WHERE pk = %L AND sk ^@ %L', 'P1', p)) line
			 WHERE line LIKE '%Index Cond%') s;
SELECT pg_temp.hex(bound) FROM (VALUES (U&'\D7FF'), ('a' || U&'\007F'), (U&'\FFFF')) v(p),
	LATERAL (SELECT substring(line FROM '< ''([^'']*)''')::hroe.key AS bound
			 FROM pg_temp.plan(format('SELECT sk FROM items WHERE pk = %L AND sk ^@ %L', 'P1', p)) line
			 WHERE line LIKE '%Index Cond%') s;
-- a prefix of only U+10FFFF has no successor: every key above it begins
-- with it, so the range is open above
SELECT replace(line, U&'\+10FFFF', '<U+10FFFF>') AS plan
FROM pg_temp.plan(format('SELECT sk FROM items WHERE pk = %L AND sk ^@ %L', 'P1', U&'\+10FFFF\+10FFFF')) line;
-- a 2048-byte prefix whose successor would be 2049 bytes: the upper bound
-- is the greatest key with that prefix, inclusive (bounds are valid keys)
SELECT * FROM pg_temp.plan(format('SELECT sk FROM items WHERE pk = %L AND sk ^@ %L', 'P1', repeat('a', 2047) || U&'\007F'));
-- a 2048-byte key has no descendants: an empty range
SELECT * FROM pg_temp.plan(format('SELECT sk FROM items WHERE pk = %L AND sk <@ %L', 'P1', repeat('a', 2048)));
-- BETWEEN uses the btree operators
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk BETWEEN 'USA#WA' AND 'USA#WB'$$);
SELECT count(*) AS between_rows FROM items WHERE pk = 'P1' AND sk BETWEEN 'USA#WA' AND 'USA#WB';
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SELECT count(*) AS between_rows_no_index FROM items WHERE pk = 'P1' AND sk BETWEEN 'USA#WA' AND 'USA#WB';
RESET enable_indexscan;
RESET enable_indexonlyscan;
-- shapes that are not a range stay filters: the indexed key as the prefix
-- or as the ancestor
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND 'USA#WA#SEATTLE' ^@ sk$$);
SELECT * FROM pg_temp.plan($$SELECT sk FROM items WHERE pk = 'P1' AND sk @> 'USA#WA#1'$$);

-- Prepared statements, generic plans: the bounds are computed at run time.
PREPARE bw(hroe.key, hroe.key) AS SELECT sk FROM items WHERE pk = $1 AND sk ^@ $2 ORDER BY sk;
PREPARE sub(hroe.key, hroe.key) AS SELECT sk FROM items WHERE pk = $1 AND sk <@ $2 ORDER BY sk;
PREPARE anc(hroe.key, hroe.key) AS SELECT sk FROM items WHERE pk = $1 AND $2 @> sk ORDER BY sk;
PREPARE bw_text(text, text) AS SELECT sk FROM items WHERE pk = $1 AND sk ^@ $2 ORDER BY sk;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE bw('P1', 'USA#WA');
EXPLAIN (COSTS OFF) EXECUTE sub('P1', 'USA#WA');
EXPLAIN (COSTS OFF) EXECUTE anc('P1', 'USA#WA');
EXPLAIN (COSTS OFF) EXECUTE bw_text('P1', 'USA#WA');
EXECUTE bw('P3', 'USA#WA#16');
EXECUTE sub('P3', 'USA#WA#16');
EXECUTE anc('P3', 'USA#WA#16');
EXECUTE bw_text('P3', 'USA#WA#16');
-- no successor, and 2048-byte operands, through parameters
CREATE TEMP TABLE top_result AS EXECUTE bw('P1', U&'\+10FFFF\+10FFFF');
SELECT octet_length(sk::text), left(pg_temp.hex(sk), 24) FROM top_result ORDER BY sk;
CREATE TEMP TABLE top_children AS EXECUTE sub('P1', U&'\+10FFFF\+10FFFF');
SELECT octet_length(sk::text), left(pg_temp.hex(sk), 24) FROM top_children ORDER BY sk;
SELECT octet_length(sk::text) FROM items WHERE pk = 'P1' AND sk ^@ (repeat('a', 2047) || U&'\007F');
CREATE TEMP TABLE long_result AS EXECUTE bw('P1', repeat('a', 2047) || U&'\007F');
SELECT octet_length(sk::text) FROM long_result;
CREATE TEMP TABLE long_children AS EXECUTE sub('P1', repeat('a', 2047));
SELECT octet_length(sk::text) FROM long_children;
CREATE TEMP TABLE no_children AS EXECUTE sub('P1', repeat('a', 2048));
SELECT count(*) FROM no_children;
EXECUTE bw_text('P1', '');
RESET plan_cache_mode;

-- The run-time bounds are valid keys, and total (never NULL).
SELECT pg_temp.hex(hroe.key_prefix_max(k)) IS NOT NULL AS total,
	   octet_length(hroe.key_prefix_max(k)::text) AS max_bytes,
	   hroe.key_prefix_max(k) ^@ k AS max_has_prefix,
	   hroe.key_prefix_max(k)::text::hroe.key = hroe.key_prefix_max(k) AS max_valid,
	   hroe.key_descendant_lower(k) AS lower, hroe.key_descendant_upper(k) AS upper
FROM unnest(ARRAY['USA#WA', 'é', 'a']::hroe.key[]) k;
SELECT octet_length(hroe.key_descendant_lower(k)::text) AS lower_bytes,
	   hroe.key_descendant_lower(k) < hroe.key_descendant_upper(k) AS nonempty
FROM unnest(ARRAY[repeat('a', 2046), repeat('a', 2047), repeat('a', 2048)]::hroe.key[]) k;
SELECT right(pg_temp.hex(hroe.key_prefix_max(k)), 16) AS max_tail
FROM unnest(ARRAY['a', 'aa', 'aaa', 'aaaa']::hroe.key[]) k;

--
-- Estimates: ^@ and <@ are estimated as the key range they match, not with
-- a fixed default (0.5% would be 500 rows).
--
CREATE FUNCTION pg_temp.estimate(query text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'Plan Rows')::bigint;
END
$$;
CREATE FUNCTION pg_temp.probe_count(cond text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE 'SELECT count(*) FROM items WHERE ' || cond INTO n;
	RETURN n;
END
$$;
RESET enable_seqscan;
SELECT q, actual, estimate BETWEEN actual / 2 AND actual * 2 AS within_2x
FROM (VALUES ('sk ^@ ''USA'''), ('sk ^@ ''é'''), ('sk <@ ''USA'''), ('''é'' @> sk'),
			 ('sk ^@ ''USA#WA'''), ('hroe.key_begins_with(sk, ''USA'')'),
			 ('hroe.key_is_descendant(sk, ''USA'')')) v(q),
	LATERAL (SELECT pg_temp.estimate('SELECT * FROM items WHERE ' || q) AS estimate) e,
	LATERAL (SELECT c AS actual FROM pg_temp.probe_count(q) c) a;
