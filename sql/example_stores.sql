--
-- Patterns gallery: a composite sort key for hierarchical data (seed 004,
-- strategy 5).
--
-- Pattern: smash the levels of a hierarchy into one sort key, most general
-- first (STATE#CITY#ZIPCODE), under a partition key for the top level
-- (COUNTRY).  One index then answers four granularities with key conditions
-- alone: all stores in a country (partition key), in a state, in a city (a
-- prefix of the sort key) or in a zip code (equality).  Use it when there are
-- more than two levels and access patterns at several of them; the price is
-- maintaining the composite attribute on every write.
--
-- | Table: StoreNumber (PK) | Country | State | City    | ZipCode | StateCityZip       |
-- | 1001                    | USA     | WA    | SEATTLE | 98101   | WA#SEATTLE#98101   |
-- | GSI by_location:          Country (PK),  StateCityZip (SK)
--
\set VERBOSITY terse

SELECT hroe.create_table('ex_stores', 'StoreNumber', 'S');
SELECT hroe.create_index('ex_stores', 'by_location', '{Country}', '{StateCityZip}',
                         '{"Country": "S", "StateCityZip": "S"}');

-- The composite attribute is built with hroe.key(...), which joins the
-- levels with '#' and refuses a '#' inside a level.  Retrieve a single store
-- by its number is a GetItem; the index serves the other patterns.
SELECT count(*) AS stores FROM (VALUES
		('1001', 'USA', 'WA', 'SEATTLE', '98101'), ('1002', 'USA', 'WA', 'SEATTLE', '98101'),
		('1003', 'USA', 'WA', 'SEATTLE', '98109'), ('1004', 'USA', 'WA', 'BELLEVUE', '98004'),
		('1005', 'USA', 'WA', 'SPOKANE', '99201'), ('1006', 'USA', 'WAY', 'NOWHERE', '00000'),
		('1007', 'USA', 'OR', 'PORTLAND', '97201'), ('1008', 'USA', 'OH', 'COLUMBUS', '43215'),
		('1009', 'USA', 'OH', 'COLUMBUS GROVE', '45830'), ('1010', 'USA', 'NY', 'NEW YORK', '10001'),
		('2001', 'CANADA', 'BC', 'VANCOUVER', 'V6B 1A1'), ('2002', 'CANADA', 'ON', 'TORONTO', 'M5V 2T6')
	) AS s(num, country, state, city, zip),
	hroe.put_item('ex_stores', hroe.item_from_document(jsonb_build_object(
		'StoreNumber', num, 'Country', country, 'State', state, 'City', city, 'ZipCode', zip,
		'StateCityZip', hroe.key(state, city, zip)::text)));
-- (store 1006 is in a made-up state "WAY", to show what a prefix without its
-- separator would catch)
SELECT hroe.key('OH', 'COLUMBUS#GROVE', '45830');

SELECT hroe.item_get_text(s, 'City') AS city, hroe.item_get_text(s, 'StateCityZip') AS state_city_zip
FROM hroe.get_item('ex_stores', '{"StoreNumber": {"S": "1003"}}') s;

--
-- The four granularities with hroe.query: one index range each
--
CREATE FUNCTION ex_store_list(p_kce text, p_values jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT string_agg(hroe.item_get_text(s, 'StoreNumber'), ' ')
	FROM hroe.query('ex_stores', p_kce, p_values, p_index_name => 'by_location') s
$$;
SELECT granularity, ex_store_list(kce, vals) AS stores
FROM (VALUES
	(1, 'country: USA',              'Country = :c', '{":c": {"S": "USA"}}'::jsonb),
	(2, 'state: WA',                 'Country = :c AND begins_with(StateCityZip, :p)', '{":c": {"S": "USA"}, ":p": {"S": "WA#"}}'),
	(3, 'city: WA#SEATTLE',          'Country = :c AND begins_with(StateCityZip, :p)', '{":c": {"S": "USA"}, ":p": {"S": "WA#SEATTLE#"}}'),
	(4, 'zip: WA#SEATTLE#98101',     'Country = :c AND StateCityZip = :z', '{":c": {"S": "USA"}, ":z": {"S": "WA#SEATTLE#98101"}}'),
	(5, 'city: OH#COLUMBUS, no #',   'Country = :c AND begins_with(StateCityZip, :p)', '{":c": {"S": "USA"}, ":p": {"S": "OH#COLUMBUS"}}'),
	(6, 'city: OH#COLUMBUS#',        'Country = :c AND begins_with(StateCityZip, :p)', '{":c": {"S": "USA"}, ":p": {"S": "OH#COLUMBUS#"}}'),
	(7, 'state: WA, no #',           'Country = :c AND begins_with(StateCityZip, :p)', '{":c": {"S": "USA"}, ":p": {"S": "WA"}}')
) AS q(n, granularity, kce, vals) ORDER BY n;
-- begins_with is a byte prefix: without the trailing '#', "OH#COLUMBUS"
-- also matches COLUMBUS GROVE and "WA" also matches the state WAY.
-- Descending order and paging work at every level:
SELECT (p).count, (p).last_evaluated_key, (p).consumed_capacity
FROM hroe.query_page('ex_stores', 'Country = :c AND begins_with(StateCityZip, :p)',
                     '{":c": {"S": "USA"}, ":p": {"S": "WA#"}}', p_index_name => 'by_location',
                     p_scan_index_forward => false, p_limit => 2, p_return_consumed_capacity => 'TOTAL') p;
SELECT * FROM hroe.explain_query('ex_stores', 'Country = :c AND begins_with(StateCityZip, :p)',
                                 '{":c": {"S": "USA"}, ":p": {"S": "WA#SEATTLE#"}}', p_index_name => 'by_location');

--
-- The same in plain SQL on the key columns hroe generated for the index
-- (by_location_pk1, by_location_sk1: hroe.key, DynamoDB's byte order), with
-- hroe.key's operators: sk ^@ p is begins_with; sk <@ a is "a strict
-- descendant of a", i.e. sk begins with a || '#'.  The GSI is sparse: a
-- partial btree index WHERE both key columns IS NOT NULL.  A condition on a
-- column implies it is not null; the country level states it explicitly.
--
SET search_path = public, hroe;
SELECT pg_get_indexdef('"ex_stores.by_location"'::regclass);
CREATE TABLE ex_store_conditions (n int, granularity text, cond text);
INSERT INTO ex_store_conditions VALUES
	(1, 'country', $$by_location_pk1 = 'USA' AND by_location_sk1 IS NOT NULL$$),
	(2, 'state',   $$by_location_pk1 = 'USA' AND by_location_sk1 <@ 'WA'$$),
	(3, 'city',    $$by_location_pk1 = 'USA' AND by_location_sk1 <@ 'WA#SEATTLE'$$),
	(4, 'zip',     $$by_location_pk1 = 'USA' AND by_location_sk1 = 'WA#SEATTLE#98101'$$),
	(5, 'zip',     $$by_location_pk1 = 'USA' AND by_location_sk1 ^@ 'WA#SEATTLE#98101'$$),
	(6, 'city',    $$by_location_pk1 = 'USA' AND by_location_sk1 <@ 'OH#COLUMBUS'$$),
	(7, 'prefix',  $$by_location_pk1 = 'USA' AND by_location_sk1 ^@ 'OH#COLUMBUS'$$);
CREATE FUNCTION ex_stores_where(p_cond text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
	EXECUTE format('SELECT string_agg(pk::text, '' '' ORDER BY by_location_sk1, pk) FROM ex_stores WHERE %s', p_cond) INTO r;
	RETURN r;
END $$;
CREATE FUNCTION ex_stores_plan(p_cond text) RETURNS SETOF text LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('EXPLAIN (COSTS OFF) SELECT pk FROM ex_stores WHERE %s ORDER BY by_location_sk1, pk', p_cond);
END $$;

-- With the index (twelve rows: the planner must be told to prefer it).
-- Every level is one range in Index Cond, with no Filter and no Sort: the
-- country is the equality on the partition key (the IS NOT NULL is the
-- index's own predicate, so it leaves no condition), <@ becomes [a#, a$),
-- ^@ becomes [p, successor of p).
SET enable_seqscan = off;
SET enable_bitmapscan = off;
SELECT n, granularity, ex_stores_plan(cond) AS plan FROM ex_store_conditions ORDER BY n;
CREATE TEMP TABLE ex_with_index AS
SELECT n, granularity, cond, ex_stores_where(cond) AS stores FROM ex_store_conditions;
SELECT n, granularity, stores FROM ex_with_index ORDER BY n;

-- Without the index the answers are the same:
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SELECT n, ex_stores_plan(cond) AS plan FROM ex_store_conditions WHERE n = 3;
SELECT n, w.stores AS with_index, ex_stores_where(w.cond) AS without_index,
       w.stores IS NOT DISTINCT FROM ex_stores_where(w.cond) AS same
FROM ex_with_index w ORDER BY n;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;
RESET search_path;

-- Clean up (the tests share one database)
DROP FUNCTION ex_store_list(text, jsonb), ex_stores_where(text), ex_stores_plan(text);
DROP TABLE ex_store_conditions;
SELECT hroe.delete_table('ex_stores');
