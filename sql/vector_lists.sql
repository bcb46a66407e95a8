--
-- A write parses its item's vector once (src/tables/vector_index.c keeps
-- the last parse, keyed by the list's bytes, for the index's other
-- expressions) and reads most numbers without strtof
-- (src/tables/vector_number.h): neither may give a stale or a differently
-- rounded vector.  Oracles written here: each vector column equals the
-- item's numbers as float4in (strtof) reads them; each item's IVF list is
-- a nearest centroid of its index's set, after every kind of write, above
-- all those changing one number of a vector in place (same length, same
-- shape: only the bytes tell the vectors apart).
--
\set VERBOSITY terse
SELECT setseed(0.33);
CREATE FUNCTION vl_put(p_table text, p_pk text, p_v text[]) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(r ->> 'message', 'ok') FROM hroe.dynamodb('PutItem', jsonb_build_object('TableName', p_table, 'Item', jsonb_build_object(
		'pk', jsonb_build_object('S', p_pk),
		'v', jsonb_build_object('L', (SELECT jsonb_agg(CASE WHEN x LIKE 's:%' THEN jsonb_build_object('S', x) ELSE jsonb_build_object('N', x) END ORDER BY o)
									  FROM unnest(p_v) WITH ORDINALITY u(x, o)))))) r
$$;
CREATE FUNCTION vl_set(p_table text, p_pk text, p_at int, p_x text) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(r ->> 'message', 'ok') FROM hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', p_table,
		'Key', jsonb_build_object('pk', jsonb_build_object('S', p_pk)),
		'UpdateExpression', format('SET v[%s] = :x', p_at),
		'ExpressionAttributeValues', jsonb_build_object(':x', jsonb_build_object('N', p_x)))) r
$$;
-- the rows of p_table whose vector column of p_index is not its attribute's numbers read by float4in
CREATE FUNCTION vl_bad_vectors(p_table text, p_index text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE format($q$
		SELECT count(*) FROM %s t
		WHERE t.%2$I IS DISTINCT FROM ARRAY(SELECT (e ->> 'N')::real FROM jsonb_array_elements(t.item::jsonb -> %3$L -> 'L') WITH ORDINALITY u(e, o) ORDER BY o)
		   OR t.%2$I::text IS DISTINCT FROM ARRAY(SELECT (e ->> 'N')::real FROM jsonb_array_elements(t.item::jsonb -> %3$L -> 'L') WITH ORDINALITY u(e, o) ORDER BY o)::text$q$,
		(SELECT relid FROM hroe.tables WHERE table_name = p_table),
		(SELECT vector_column FROM hroe.vector_indexes WHERE table_name = p_table AND index_name = p_index),
		(SELECT vector_attribute FROM hroe.vector_indexes WHERE table_name = p_table AND index_name = p_index)) INTO n;
	RETURN n;
END
$$;
-- how far v is from centroid c for the list assignment (COSINE: the negative cosine)
CREATE FUNCTION vl_badness(p_fn text, v real[], c real[]) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN p_fn = 'COSINE' THEN -sum(a::float8 * b) / sqrt(sum(a::float8 * a)) ELSE sum((a::float8 - b) ^ 2) END
	FROM unnest(v, c) u(a, b)
$$;
-- the rows of p_table whose list in p_index is not a nearest centroid of its set (within f32 rounding)
CREATE FUNCTION vl_bad_lists(p_table text, p_index text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	x hroe.vector_indexes;
	n bigint;
BEGIN
	SELECT * INTO x FROM hroe.vector_indexes WHERE table_name = p_table AND index_name = p_index;
	EXECUTE format($q$
		WITH c AS (SELECT (o - 1) / %2$s AS l, array_agg(f ORDER BY o) AS c
				   FROM hroe.vector_centroids, unnest(centroids) WITH ORDINALITY u(f, o) WHERE set_id = %3$s GROUP BY 1),
		r AS (SELECT t.%4$I AS v, t.%5$I AS l FROM %1$s t WHERE t.%4$I IS NOT NULL)
		SELECT count(*) FROM r
		WHERE r.l IS NULL
		   OR vl_badness(%6$L, r.v, (SELECT c FROM c WHERE c.l = r.l)) > (SELECT min(vl_badness(%6$L, r.v, c.c)) FROM c) + 1e-4$q$,
		(SELECT relid FROM hroe.tables WHERE table_name = p_table), x.dimensions, x.centroid_set,
		x.vector_column, x.list_column, x.distance_function) INTO n;
	RETURN n;
END
$$;
-- the list of item p_pk in p_index
CREATE FUNCTION vl_list(p_table text, p_index text, p_pk text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	l integer;
BEGIN
	EXECUTE format('SELECT %I FROM %s WHERE item::jsonb -> %L ->> %L = %L',
		(SELECT list_column FROM hroe.vector_indexes WHERE table_name = p_table AND index_name = p_index),
		(SELECT relid FROM hroe.tables WHERE table_name = p_table), 'pk', 'S', p_pk) INTO l;
	RETURN l;
END
$$;

-- the vector column of item p_pk in p_index
CREATE FUNCTION vl_vector(p_table text, p_index text, p_pk text) RETURNS real[] LANGUAGE plpgsql AS $$
DECLARE
	v real[];
BEGIN
	EXECUTE format('SELECT %I FROM %s WHERE item::jsonb -> %L ->> %L = %L',
		(SELECT vector_column FROM hroe.vector_indexes WHERE table_name = p_table AND index_name = p_index),
		(SELECT relid FROM hroe.tables WHERE table_name = p_table), 'pk', 'S', p_pk) INTO v;
	RETURN v;
END
$$;

-- ---------- numbers: as strtof reads them ----------
SELECT hroe.create_table('vl_numbers', 'pk');
SELECT hroe.create_vector_index('vl_numbers', 'vn_euc', 'v', 8, 'EUCLIDEAN');
-- texts the fast path answers, texts it leaves to strtof (midpoints between
-- floats, more than 19 digits, exponents beyond 22, subnormal floats)
SELECT vl_put('vl_numbers', 'e1', ARRAY['16777217', '16777219', '0.1', '-0.3', '340282346638528859811704183484516925440', '-0', '0', '3.14159265358979323846']);
SELECT vl_put('vl_numbers', 'e2', ARRAY['-0.00001005551484922762', '61.91977119445801', '0.0000000000000000000000000000000000000000000014', '123456789012345678901234567890',
	'9007199254740993', '1.000000059604644775390625', '0.000000000000000000000001', '99999999999999999999']);
SELECT vl_put('vl_numbers', 'e3', ARRAY['1.0000000596046448', '1.0000000596046447', '33554435', '0.30000001192092896', '7', '-7.5', '1234567.875', '0.000123']);
-- random numbers of 1 to 20 digits at scales 1e-25 to 1e25
SELECT count(*) FILTER (WHERE r = 'ok') AS puts FROM (
	SELECT vl_put('vl_numbers', 'r' || g, ARRAY(
		SELECT (CASE WHEN random() < 0.5 THEN '-' ELSE '' END ||
				trunc(random() * 10 ^ (1 + floor(random() * 20)))::numeric * 10::numeric ^ (floor(random() * 50) - 25)::int)
		FROM generate_series(1, 8))) AS r
	FROM generate_series(1, 400) g) s;
SELECT vl_bad_vectors('vl_numbers', 'vn_euc') AS bad_vectors;
-- the same bytes again (the last parse reused), then one digit changed
SELECT vl_put('vl_numbers', 's1', ARRAY['1.5', '2', '3', '4', '5', '6', '7', '8']), vl_put('vl_numbers', 's2', ARRAY['1.5', '2', '3', '4', '5', '6', '7', '8']),
	vl_put('vl_numbers', 's3', ARRAY['1.5', '2', '3', '4', '5', '6', '7', '9']), vl_set('vl_numbers', 's3', 0, '2.5'), vl_set('vl_numbers', 's3', 0, '2.6');
SELECT pk, vl_vector('vl_numbers', 'vn_euc', pk) FROM unnest(ARRAY['s1', 's2', 's3']) pk;
SELECT vl_bad_vectors('vl_numbers', 'vn_euc') AS bad_vectors;
-- an invalid vector twice (its outcome reused), then valid ones of its shape
SELECT vl_put('vl_numbers', 'b1', ARRAY['1', '2', 's:x', '4', '5', '6', '7', '8']);
SELECT vl_put('vl_numbers', 'b1', ARRAY['1', '2', 's:x', '4', '5', '6', '7', '8']);
SELECT vl_put('vl_numbers', 'b1', ARRAY['1', '2', '3', '4', '5', '6', '7', '8']), vl_put('vl_numbers', 'b2', ARRAY['1', '2', '1e39', '4', '5', '6', '7', '8']);
-- past the largest float by more than half a step: infinite, refused; just below: the largest float
SELECT vl_put('vl_numbers', 'b2', ARRAY['1', '2', '340282360000000000000000000000000000000', '4', '5', '6', '7', '8']);
SELECT vl_put('vl_numbers', 'b3', ARRAY['1', '2', '340282350000000000000000000000000000000', '4', '5', '6', '7', '8']);
SELECT vl_bad_vectors('vl_numbers', 'vn_euc') AS bad_vectors, vl_vector('vl_numbers', 'vn_euc', 'b1') AS b1, vl_vector('vl_numbers', 'vn_euc', 'b2') AS b2,
	vl_vector('vl_numbers', 'vn_euc', 'b3') AS b3;

-- ---------- IVF lists: the nearest centroid after every write ----------
SELECT hroe.create_table('vl_lists', 'pk');
SELECT hroe.create_vector_index('vl_lists', 'vl_euc', 'v', 8, 'EUCLIDEAN');
SELECT hroe.create_vector_index('vl_lists', 'vl_cos', 'v', 8, 'COSINE');
-- 4 clusters: +-10 on the first two axes, noise 0.5
SELECT count(*) FILTER (WHERE r = 'ok') AS puts FROM (
	SELECT vl_put('vl_lists', 'c' || g, ARRAY(
		SELECT round((CASE WHEN i = 1 + g % 2 THEN 10 * (1 - 2 * ((g / 2) % 2)) ELSE 0 END + random() - 0.5)::numeric, 4)::text
		FROM generate_series(1, 8) i)) AS r
	FROM generate_series(0, 199) g) s;
SELECT hroe.vector_index_build('vl_lists', x, 4, 1) FROM unnest(ARRAY['vl_euc', 'vl_cos']) x;
SELECT vl_bad_lists('vl_lists', 'vl_euc') AS bad_euc, vl_bad_lists('vl_lists', 'vl_cos') AS bad_cos;
-- the f32 vector in the lists' btree is stored as is (EXTERNAL, as the table's column): no pglz
-- attempt on floats for each entry above 512 bytes
SELECT x.index_name, a.attname, a.attstorage, t.attstorage AS table_column_storage
FROM hroe.vector_indexes x JOIN pg_class c ON c.relname = x.ivf_relname
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = x.vector_column
JOIN pg_attribute t ON t.attrelid = (SELECT relid FROM hroe.tables WHERE table_name = 'vl_lists') AND t.attname = x.vector_column
WHERE x.table_name = 'vl_lists' ORDER BY 1;
-- an item near the first cluster, moved by one number to the second: (8, 1) -> (8, 9)
SELECT vl_put('vl_lists', 'm', ARRAY['8', '1', '0', '0', '0', '0', '0', '0']);
CREATE TEMP TABLE before AS SELECT vl_list('vl_lists', 'vl_euc', 'm') AS euc, vl_list('vl_lists', 'vl_cos', 'm') AS cos;
SELECT vl_set('vl_lists', 'm', 1, '9');
SELECT vl_list('vl_lists', 'vl_euc', 'm') <> euc AS euc_moved, vl_list('vl_lists', 'vl_cos', 'm') <> cos AS cos_moved FROM before;
SELECT vl_bad_lists('vl_lists', 'vl_euc') AS bad_euc, vl_bad_lists('vl_lists', 'vl_cos') AS bad_cos;
-- and back, by PartiQL and by a put of the first bytes again
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "UPDATE \"vl_lists\" SET v[1] = 1 WHERE pk = ''m''"}');
SELECT vl_list('vl_lists', 'vl_euc', 'm') = euc AS euc_back, vl_list('vl_lists', 'vl_cos', 'm') = cos AS cos_back FROM before;
SELECT vl_set('vl_lists', 'm', 1, '9'), vl_put('vl_lists', 'm', ARRAY['8', '1', '0', '0', '0', '0', '0', '0']);
SELECT vl_list('vl_lists', 'vl_euc', 'm') = euc AS euc_back, vl_list('vl_lists', 'vl_cos', 'm') = cos AS cos_back FROM before;
-- one number of every item changed in place, in one transaction: every list still the nearest
BEGIN;
SELECT count(*) FILTER (WHERE r = 'ok') AS updates FROM (
	SELECT vl_set('vl_lists', 'c' || g, (g * 7) % 8, round((random() * 40 - 20)::numeric, 4)::text) AS r FROM generate_series(0, 199) g) s;
SELECT vl_bad_lists('vl_lists', 'vl_euc') AS bad_euc, vl_bad_lists('vl_lists', 'vl_cos') AS bad_cos;
ROLLBACK;
SELECT vl_bad_lists('vl_lists', 'vl_euc') AS bad_euc, vl_bad_lists('vl_lists', 'vl_cos') AS bad_cos, vl_bad_vectors('vl_lists', 'vl_euc') AS bad_vectors;

-- ---------- the kernels' scalar tails: 11 dimensions, 6 lists ----------
-- The distance kernels take 8 floats at a time and a list's centroids 4 at a
-- time (src/ops/vector_kernel.h, vector_ivf.c): 11 dimensions leave 3 to
-- each kernel's scalar loop, 6 lists 2 centroids to the one-at-a-time
-- kernels.  The 6 clusters lie along the last 3 axes only (+-10 on axis 9,
-- 10 or 11, noise 0.5 everywhere): a tail left out would put the items in
-- lists the brute-force formula of vl_bad_lists does not choose.
SELECT hroe.create_table('vl_tails', 'pk');
SELECT hroe.create_vector_index('vl_tails', x || '_' || lower(left(f, 3)), 'v', 11, f)
FROM unnest(ARRAY['EUCLIDEAN', 'COSINE', 'DOT_PRODUCT']) f, (VALUES ('vt')) v(x);
SELECT count(*) FILTER (WHERE r = 'ok') AS puts FROM (
	SELECT vl_put('vl_tails', 't' || g, ARRAY(
		SELECT round((CASE WHEN i = 9 + g % 3 THEN 10 * (1 - 2 * ((g / 3) % 2)) ELSE 0 END + random() - 0.5)::numeric, 4)::text
		FROM generate_series(1, 11) i)) AS r
	FROM generate_series(0, 239) g) s;
SELECT hroe.vector_index_build('vl_tails', x, 6, 1) FROM unnest(ARRAY['vt_euc', 'vt_cos', 'vt_dot']) x;
SELECT x.index_name, x.dimensions, (SELECT count(*) FROM hroe.vector_centroids c, unnest(c.centroids) WHERE c.set_id = x.centroid_set) / x.dimensions AS lists
FROM hroe.vector_indexes x WHERE x.table_name = 'vl_tails' ORDER BY 1;
SELECT vl_bad_lists('vl_tails', 'vt_euc') AS bad_euc, vl_bad_lists('vl_tails', 'vt_cos') AS bad_cos,
	vl_bad_lists('vl_tails', 'vt_dot') AS bad_dot, vl_bad_vectors('vl_tails', 'vt_euc') AS bad_vectors;
-- every item changed on a tail axis, in one transaction: every list still the nearest
BEGIN;
SELECT count(*) FILTER (WHERE r = 'ok') AS updates FROM (
	SELECT vl_set('vl_tails', 't' || g, 8 + (g * 5) % 3, round((random() * 40 - 20)::numeric, 4)::text) AS r FROM generate_series(0, 239) g) s;
SELECT vl_bad_lists('vl_tails', 'vt_euc') AS bad_euc, vl_bad_lists('vl_tails', 'vt_cos') AS bad_cos,
	vl_bad_lists('vl_tails', 'vt_dot') AS bad_dot;
ROLLBACK;

-- ---------- two vector attributes ----------
-- A write computes v's vector column, w's, then v's and w's list columns and
-- checks: each index must get its own attribute's vector, every parse kept
-- (one per index a table may have) taken only for its own bytes.
SELECT hroe.create_table('vl_two', 'pk');
SELECT hroe.create_vector_index('vl_two', 'two_v', 'v', 4, 'EUCLIDEAN'), hroe.create_vector_index('vl_two', 'two_w', 'w', 4, 'COSINE');
SELECT count(*) FILTER (WHERE r ? 'message' IS NOT TRUE) AS puts FROM (
	SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'vl_two', 'Item', jsonb_build_object(
		'pk', jsonb_build_object('S', 'p' || g),
		'v', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', (g % 5 + i * (g % 2))::text) ORDER BY i) FROM generate_series(1, 4) i)),
		'w', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', (CASE WHEN i = 1 + g % 4 THEN 3 ELSE -1 END)::text) ORDER BY i) FROM generate_series(1, 4) i))))) AS r
	FROM generate_series(1, 80) g) s;
SELECT hroe.vector_index_build('vl_two', x, 4, 1) FROM unnest(ARRAY['two_v', 'two_w']) x;
-- and items written after the training, through the list columns too
SELECT count(*) FILTER (WHERE r ? 'message' IS NOT TRUE) AS puts FROM (
	SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'vl_two', 'Item', jsonb_build_object(
		'pk', jsonb_build_object('S', 'q' || g),
		'v', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', (g % 7 - i)::text) ORDER BY i) FROM generate_series(1, 4) i)),
		'w', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', (CASE WHEN i = 1 + g % 3 THEN 2 ELSE 1 END)::text) ORDER BY i) FROM generate_series(1, 4) i))))) AS r
	FROM generate_series(1, 80) g) s;
SELECT vl_bad_vectors('vl_two', 'two_v') AS bad_v, vl_bad_vectors('vl_two', 'two_w') AS bad_w,
	vl_bad_lists('vl_two', 'two_v') AS bad_list_v, vl_bad_lists('vl_two', 'two_w') AS bad_list_w;

SELECT hroe.delete_table('vl_numbers'), hroe.delete_table('vl_lists'), hroe.delete_table('vl_tails'), hroe.delete_table('vl_two');
DROP FUNCTION vl_put(text, text, text[]), vl_set(text, text, int, text), vl_bad_vectors(text, text),
	vl_badness(text, real[], real[]), vl_bad_lists(text, text), vl_list(text, text, text), vl_vector(text, text, text);
