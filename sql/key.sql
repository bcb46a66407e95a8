--
-- hroe.key: DynamoDB string keys (I/O, validation, order, operators,
-- functions, casts, operator classes).  Index ranges are in key_index.sql.
--
SET search_path = public, hroe;

-- A key as hex bytes, to show characters that do not print.
CREATE FUNCTION pg_temp.hex(k hroe.key) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT
	RETURN encode(convert_to(k::text, 'UTF8'), 'hex');

--
-- I/O round trips: text in/out is the string itself; binary is a version
-- byte then the UTF-8 bytes.
--
CREATE TABLE key_io (id int, k hroe.key);
INSERT INTO key_io VALUES
	(1, 'a'), (2, 'USA#WA#SEATTLE'), (3, '#'), (4, '##'), (5, 'A##B'),
	(6, '#A'), (7, 'A#'), (8, 'é'), (9, '😀'), (10, U&'\+10FFFF'),
	(11, U&'\FFFF'), (12, ' lead and trail '), (13, repeat('x', 2048)),
	(14, repeat('é', 1024)), (15, 'OPEN#2025-12-20');
SELECT id, octet_length(k::text) AS bytes, pg_temp.hex(k) AS hex,
	   k::text::hroe.key = k AS text_round_trip,
	   hroe.key_in(hroe.key_out(k)) = k AS io_round_trip,
	   hroe.key_send(k) = '\x01'::bytea || convert_to(k::text, 'UTF8') AS send_bytes
FROM key_io WHERE id <> 13 AND id <> 14 ORDER BY id;
SELECT id, octet_length(k::text) AS bytes, k::text = CASE id WHEN 13 THEN repeat('x', 2048) ELSE repeat('é', 1024) END AS same
FROM key_io WHERE id IN (13, 14) ORDER BY id;
SELECT k FROM key_io WHERE id IN (1, 2, 8, 15) ORDER BY id;

-- Binary round trip through COPY (FORMAT binary): send, then recv.
SELECT '/tmp/hroe_key_regress_' || pg_backend_pid() || '.bin' AS binfile \gset
COPY key_io TO :'binfile' (FORMAT binary);
CREATE TABLE key_io_back (LIKE key_io);
COPY key_io_back FROM :'binfile' (FORMAT binary);
SELECT count(*) AS rows_back,
	   count(*) FILTER (WHERE b.k = a.k AND b.k::text = a.k::text) AS identical
FROM key_io a JOIN key_io_back b USING (id);

--
-- Every invalid input is rejected with its error.
--
-- empty (DynamoDB's wording)
SELECT ''::hroe.key;
SELECT ''::text::hroe.key;
-- too long (DynamoDB's wording, typo "of2048" included): 2049 bytes, in
-- ASCII and in 2-byte characters
SELECT repeat('x', 2049)::hroe.key;
SELECT (repeat('é', 1024) || 'x')::hroe.key;
SELECT repeat('x', 100000)::text::hroe.key;
-- not collatable
SELECT 'a'::hroe.key COLLATE "C";
-- Binary input is validated like text input.  A bytea column copied out in
-- binary format carries the raw bytes that hroe.key_recv then receives.
CREATE TABLE wire (b bytea);
CREATE TABLE key_in (k hroe.key);
CREATE PROCEDURE pg_temp.wire(bytes bytea, path text) LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE wire;
	INSERT INTO wire VALUES (bytes);
	EXECUTE format('COPY wire TO %L (FORMAT binary)', path);
END
$$;
CALL pg_temp.wire('\x01616263', :'binfile');	-- valid: 'abc'
COPY key_in FROM :'binfile' (FORMAT binary);
SELECT k, pg_temp.hex(k) FROM key_in;
CALL pg_temp.wire('\x01', :'binfile');			-- empty
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x01' || convert_to(repeat('x', 2049), 'UTF8'), :'binfile');	-- too long
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x0161ff62', :'binfile');		-- invalid byte
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x0161c3', :'binfile');			-- truncated 2-byte sequence
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x01eda080', :'binfile');		-- surrogate U+D800
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x01f4908080', :'binfile');		-- above U+10FFFF
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x01c0af', :'binfile');			-- overlong encoding of '/'
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x01610062', :'binfile');		-- U+0000
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('\x02616263', :'binfile');		-- unknown format version
COPY key_in FROM :'binfile' (FORMAT binary);
CALL pg_temp.wire('', :'binfile');				-- no version byte
COPY key_in FROM :'binfile' (FORMAT binary);
SELECT count(*) AS only_abc_was_stored FROM key_in;
SELECT 'cat >/dev/null; rm -f ' || :'binfile' AS rmcmd \gset
COPY (SELECT 1) TO PROGRAM :'rmcmd';

--
-- Order: DynamoDB's string order (doc/dynamodb-rules.md, Ordering), from a
-- shuffled input; unsigned UTF-8 bytes = code points (UTF-16 order would
-- put the emoji before U+FFFF).
--
CREATE TABLE key_order (expected int, k hroe.key);
INSERT INTO key_order VALUES
	(13, 'ÿ'), (7, 'a#10'), (1, 'A'), (15, '😀'), (4, '_'), (10, 'b'),
	(6, 'a#1'), (14, U&'\FFFF'), (3, 'Z'), (9, 'aa'), (12, 'é'), (2, 'B'),
	(11, '~'), (5, 'a'), (8, 'a#2');
SELECT row_number() OVER (ORDER BY k) AS pos, expected, k, pg_temp.hex(k) AS hex
FROM key_order ORDER BY k;
SELECT count(*) AS out_of_place
FROM (SELECT expected, row_number() OVER (ORDER BY k) AS pos FROM key_order) s
WHERE expected <> pos;
-- descending, min and max
SELECT string_agg(k::text, ' ' ORDER BY k DESC) FROM key_order WHERE expected <= 13;
SELECT hroe.min(k) AS least, pg_temp.hex(hroe.max(k)) AS greatest FROM key_order;

-- The order ignores collations: text under ICU orders the same strings
-- differently, while hroe.key keeps DynamoDB's order.
SELECT EXISTS (SELECT FROM pg_collation WHERE collname = 'und-x-icu') AS have_icu;
SELECT string_agg(k::text, ' ' ORDER BY k) AS key_order,
	   string_agg(k::text, ' ' ORDER BY k::text COLLATE "und-x-icu") AS icu_text_order
FROM key_order WHERE expected <= 13;
SELECT 'a'::hroe.key < 'B'::hroe.key AS key_a_lt_b,
	   'a'::text < 'B'::text COLLATE "und-x-icu" AS icu_a_lt_b,
	   'a'::hroe.key < 'B'::text COLLATE "und-x-icu" AS mixed_a_lt_b;	-- text becomes a key
-- sorting many keys (abbreviated keys: long shared prefixes, short keys,
-- multi-byte characters) agrees with bytewise text order
CREATE TABLE key_sort AS
SELECT (CASE i % 4 WHEN 0 THEN 'CUSTOMER#' WHEN 1 THEN '' WHEN 2 THEN 'é' ELSE U&'\+10FFFF' END
		|| (i * 7919 % 20011)::text || CASE WHEN i % 3 = 0 THEN '#' || (i % 13)::text ELSE '' END)::hroe.key AS k
FROM generate_series(1, 20000) i;
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE by_key <> by_bytes) AS misplaced
FROM (SELECT row_number() OVER (ORDER BY k) AS by_key,
			 row_number() OVER (ORDER BY convert_to(k::text, 'UTF8')) AS by_bytes
	  FROM key_sort) s;
SET work_mem = '64kB';	-- an external sort too
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE by_key <> by_bytes) AS misplaced
FROM (SELECT row_number() OVER (ORDER BY k DESC) AS by_key,
			 row_number() OVER (ORDER BY convert_to(k::text, 'UTF8') DESC) AS by_bytes
	  FROM key_sort) s;
RESET work_mem;

--
-- Every operator on edge cases: empty components, leading and trailing
-- '#', multi-byte characters at a prefix boundary, the highest code points.
--
CREATE TABLE key_pairs (id int, a hroe.key, b hroe.key);
INSERT INTO key_pairs VALUES
	(1, 'USA#WA', 'USA#WA#SEATTLE'),
	(2, 'USA#WA', 'USA#WAX'),
	(3, 'USA#WA', 'USA#WA'),
	(4, 'USA#WA', 'USA#WA#'),
	(5, 'USA', 'USA#WA#SEATTLE'),
	(6, 'A', 'A##B'),
	(7, 'A#', 'A##B'),
	(8, '#', '##'),
	(9, '#', '#A'),
	(10, 'A#', 'A'),
	(11, 'é', 'é#x'),
	(12, 'é', 'ê'),
	(13, 'e', 'é'),
	(14, 'aé', 'aè'),
	(15, '😀', U&'\FFFF'),
	(16, U&'\+10FFFF', U&'\+10FFFF#' || U&'\+10FFFF'),
	(17, U&'\+10FFFF', U&'\+10FFFF\+10FFFF'),
	(18, U&'\D7FF', U&'\E000'),
	(19, 'a', 'a' || U&'\007F'),
	(20, 'a' || U&'\007F', 'a' || U&'\0080');
SELECT id, a, b,
	   a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
	   hroe.key_cmp(a, b) AS cmp,
	   b ^@ a AS b_begins_a, a ^@ b AS a_begins_b,
	   a @> b AS a_anc_b, b <@ a AS b_desc_a, b @> a AS b_anc_a, a <@ b AS a_desc_b,
	   b BETWEEN a AND b AS btw, a BETWEEN b AND a AS btw_rev
FROM key_pairs WHERE id < 15 ORDER BY id;
SELECT id, pg_temp.hex(a) AS a, pg_temp.hex(b) AS b,
	   a = b AS eq, a <> b AS ne, a < b AS lt, a <= b AS le, a > b AS gt, a >= b AS ge,
	   hroe.key_cmp(a, b) AS cmp,
	   b ^@ a AS b_begins_a, a ^@ b AS a_begins_b,
	   a @> b AS a_anc_b, b <@ a AS b_desc_a, b @> a AS b_anc_a, a <@ b AS a_desc_b
FROM key_pairs WHERE id >= 15 ORDER BY id;
-- the operators agree with their definitions on every pair, both ways
SELECT count(*) AS disagreements
FROM (SELECT a, b FROM key_pairs UNION ALL SELECT b, a FROM key_pairs) p(x, y)
WHERE (x = y) IS DISTINCT FROM (x::text COLLATE "C" = y::text)
   OR (x < y) IS DISTINCT FROM (x::text COLLATE "C" < y::text)
   OR (x > y) IS DISTINCT FROM (x::text COLLATE "C" > y::text)
   OR (x ^@ y) IS DISTINCT FROM starts_with(x::text, y::text)
   OR (x @> y) IS DISTINCT FROM starts_with(y::text, x::text || '#')
   OR (x <@ y) IS DISTINCT FROM starts_with(x::text, y::text || '#')
   OR (x = y) = (x <> y)
   OR sign(hroe.key_cmp(x, y)) IS DISTINCT FROM sign(hroe.key_cmp(y, x)) * -1;
-- a key is not its own ancestor: include it explicitly
SELECT 'USA#WA'::hroe.key @> 'USA#WA' AS self_ancestor,
	   'USA#WA'::hroe.key ^@ 'USA#WA' AS self_prefix,
	   (SELECT array_agg(k ORDER BY k) FROM unnest('{USA,USA#WA,USA#WA#SEATTLE,USA#WAX}'::hroe.key[]) k
		WHERE k = 'USA#WA' OR k <@ 'USA#WA') AS subtree;
-- NULLs: every operator is strict
SELECT NULL::hroe.key = 'a' AS eq, 'a'::hroe.key ^@ NULL AS bw, NULL::hroe.key <@ 'a' AS desc;

--
-- Functions on composite keys
--
SELECT hroe.key('OPEN', '2025-12-20') AS built,
	   hroe.key('USA', 'WA', 'SEATTLE') AS three,
	   hroe.key('', '') AS two_empty,
	   hroe.key('A', '', 'B') AS empty_middle,
	   hroe.key(VARIADIC ARRAY['x', 'y']) AS from_array;
SELECT k, hroe.key_split(k) AS split, hroe.key_levels(k) AS levels,
	   hroe.key_component(k, 1) AS first, hroe.key_component(k, -1) AS last,
	   hroe.key_component(k, 2) AS second, hroe.key_component(k, 9) AS ninth,
	   hroe.key_prefix(k, 2) AS prefix2, hroe.key(VARIADIC hroe.key_split(k)) = k AS rebuilt
FROM unnest('{USA#WA#SEATTLE,A##B,#A,A#,#,##,USA,é#😀}'::hroe.key[]) k;
SELECT hroe.key_component('A#B#C', 0) AS zeroth, hroe.key_component('A#B#C', -3) AS minus3,
	   hroe.key_component('A#B#C', -4) AS minus4;
SELECT hroe.key_prefix('USA#WA#SEATTLE', -1) AS parent,
	   hroe.key_prefix('USA#WA#SEATTLE', -2) AS grandparent,
	   hroe.key_prefix('USA#WA#SEATTLE', 10) AS all_levels,
	   hroe.key_prefix('A##B', 2) AS with_empty_level;
SELECT hroe.key_append('USA#WA', 'SEATTLE') AS appended,
	   hroe.key_append('A', '') AS empty_level,
	   hroe.key_append('USA#WA', 'SEATTLE') <@ 'USA#WA' AS is_child;
-- invalid component and level arguments
SELECT hroe.key('A#B', 'C');
SELECT hroe.key('A', NULL);
SELECT hroe.key(VARIADIC ARRAY[]::text[]);
SELECT hroe.key(VARIADIC '{{a},{b}}'::text[]);
SELECT octet_length(hroe.key(repeat('a', 1024), repeat('b', 1023))::text);	-- 2048 bytes: fine
SELECT hroe.key(repeat('a', 1024), repeat('b', 1024));
SELECT hroe.key_append('USA', 'WA#SEATTLE');
SELECT octet_length(hroe.key_append(repeat('a', 2047)::hroe.key, '')::text);	-- 2048 bytes: fine
SELECT hroe.key_append(repeat('a', 2047)::hroe.key, 'b');
SELECT hroe.key_prefix('A#B', 0);
SELECT hroe.key_prefix('A#B', -2);
SELECT hroe.key_prefix('#A', 1);
-- one literal argument is a cast (PostgreSQL reads typename('literal') so),
-- a text value is a component
SELECT hroe.key('A#B') AS literal_cast;
SELECT hroe.key(t) FROM (VALUES ('A#B'::text)) v(t);

--
-- Casts: to text binary-coercible (assignment), from text validating
-- (implicit, so that mixed comparisons use the key order).
--
SELECT castsource::regtype, casttarget::regtype, castmethod, castcontext,
	   castfunc::regprocedure
FROM pg_cast WHERE castsource = 'hroe.key'::regtype OR casttarget = 'hroe.key'::regtype
ORDER BY 1;
CREATE TABLE key_cast (t text, k hroe.key);
INSERT INTO key_cast VALUES ('from text', 'x');
INSERT INTO key_cast (k, t) SELECT t, k FROM key_cast;	-- assignment both ways
SELECT * FROM key_cast ORDER BY t;
SELECT 'b'::hroe.key > 'B'::text AS mixed_compare, 'b'::hroe.key || 'c' AS concatenated;
INSERT INTO key_cast (k) VALUES (''::text);
SELECT length('a'::hroe.key);	-- no implicit cast to text

--
-- Operator classes: amvalidate, btree with deduplication, hash index,
-- hash join, merge join, hash partitioning.
--
SELECT opc.opcname, am.amname, opc.opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opc.opcintype = 'hroe.key'::regtype ORDER BY 2;
SELECT amp.amprocnum, amp.amproc::regprocedure
FROM pg_amproc amp JOIN pg_opfamily f ON f.oid = amp.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
WHERE amp.amproclefttype = 'hroe.key'::regtype ORDER BY am.amname, 1;
SELECT hroe.key_hash(k) = hashtext(k::text) AS hash_like_text,
	   hroe.key_hash_extended(k, 42) = hashtextextended(k::text, 42) AS xhash_like_text,
	   hroe.key_hash_extended(k, 0) <> hroe.key_hash_extended(k, 1) AS seeded
FROM (VALUES ('USA#WA'::hroe.key)) v(k);

CREATE TABLE key_join_a AS SELECT k FROM key_sort;
CREATE TABLE key_join_b AS SELECT k FROM key_sort WHERE k ^@ 'CUSTOMER#1';
ANALYZE key_join_a, key_join_b;
SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM key_join_a a JOIN key_join_b b ON a.k = b.k;
SELECT count(*) FROM key_join_a a JOIN key_join_b b ON a.k = b.k;
RESET enable_mergejoin;
SET enable_hashjoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM key_join_a a JOIN key_join_b b ON a.k = b.k;
SELECT count(*) FROM key_join_a a JOIN key_join_b b ON a.k = b.k;
RESET enable_hashjoin;
SELECT count(*) FROM key_join_b WHERE k::text NOT LIKE 'CUSTOMER#1%';

CREATE INDEX key_join_a_hash ON key_join_a USING hash (k);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT k FROM key_join_a WHERE k = 'CUSTOMER#11665';
SELECT k FROM key_join_a WHERE k = 'CUSTOMER#11665';
RESET enable_seqscan;
SELECT k FROM key_join_a WHERE k = 'CUSTOMER#11665';

CREATE TABLE key_parts (k hroe.key) PARTITION BY HASH (k);
CREATE TABLE key_parts_0 PARTITION OF key_parts FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE key_parts_1 PARTITION OF key_parts FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE key_parts_2 PARTITION OF key_parts FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE key_parts_3 PARTITION OF key_parts FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO key_parts SELECT k FROM key_sort;
SELECT count(*) AS rows, count(DISTINCT tableoid) AS partitions_used,
	   min(n) > 4000 AS balanced
FROM (SELECT tableoid, count(*) OVER (PARTITION BY tableoid) AS n FROM key_parts) s;
EXPLAIN (COSTS OFF) SELECT * FROM key_parts WHERE k = 'CUSTOMER#11665';
SELECT tableoid::regclass, k FROM key_parts WHERE k = 'CUSTOMER#11665';

-- btree uniqueness
CREATE TABLE key_unique (k hroe.key PRIMARY KEY);
INSERT INTO key_unique VALUES ('USA#WA'), ('USA#WA#');
INSERT INTO key_unique VALUES ('USA#WA');

--
-- Property check on 400 pseudo-random keys (every pair both ways) against
-- independent oracles: bytea comparison of the UTF-8 bytes for the order,
-- starts_with on text for ^@, @> and <@, string_to_array for the levels.
--
SELECT setseed(0.25);
CREATE TABLE key_rand AS
SELECT DISTINCT s::hroe.key AS k
FROM (SELECT (SELECT string_agg((ARRAY['a', 'b', '#', '#', 'é', '😀', U&'\+10FFFF', U&'\FFFF', '~', 'A'])
								[1 + floor(random() * 10)::int], '')
			  FROM generate_series(1, 1 + i % 7)) AS s
	  FROM generate_series(1, 500) i) g
LIMIT 400;
SELECT count(*) >= 300 AS enough_keys FROM key_rand;
SELECT count(*) AS pairs,
	   count(*) FILTER (WHERE
		   (x < y) <> (convert_to(x::text, 'UTF8') < convert_to(y::text, 'UTF8'))
		OR (x = y) <> (convert_to(x::text, 'UTF8') = convert_to(y::text, 'UTF8'))
		OR (x >= y) <> (convert_to(x::text, 'UTF8') >= convert_to(y::text, 'UTF8'))
		OR sign(hroe.key_cmp(x, y)) <> CASE WHEN convert_to(x::text, 'UTF8') < convert_to(y::text, 'UTF8') THEN -1
											WHEN convert_to(x::text, 'UTF8') > convert_to(y::text, 'UTF8') THEN 1 ELSE 0 END
		OR (x ^@ y) <> starts_with(x::text, y::text)
		OR (x @> y) <> starts_with(y::text, x::text || '#')
		OR (x <@ y) <> starts_with(x::text, y::text || '#')) AS wrong
FROM key_rand a(x), key_rand b(y);
SELECT count(*) AS keys,
	   count(*) FILTER (WHERE hroe.key_split(k) <> string_to_array(k::text, '#')
						   OR hroe.key_levels(k) <> cardinality(string_to_array(k::text, '#'))
						   OR hroe.key(VARIADIC hroe.key_split(k)) <> k
						   OR hroe.key_component(k, -1) <> (string_to_array(k::text, '#'))[cardinality(string_to_array(k::text, '#'))]
						   OR (hroe.key_levels(k) > 1 AND hroe.key_component(k, 1) <> ''
							   AND hroe.key_prefix(k, -1) <> array_to_string((string_to_array(k::text, '#'))[1:hroe.key_levels(k) - 1], '#'))
						   OR (hroe.key_levels(k) > 1 AND hroe.key_component(k, 1) <> '' AND NOT k <@ hroe.key_prefix(k, -1))) AS wrong
FROM key_rand;
