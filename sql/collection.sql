--
-- hroe.item_collection: items sharing a partition key, ordered by sort key
--
CREATE SCHEMA test_collection;
SET search_path = test_collection, public, hroe;

-- text form: entries in any order come out in sort-key (UTF-8 byte) order
SELECT '[]'::hroe.item_collection AS empty;
SELECT '[{"SortKey": {"S": "ORDER#1"}, "Item": {"Total": {"N": "10"}}}]'::hroe.item_collection AS one;
SELECT '[{"Item": {"q": {"N": "1"}}, "SortKey": {"S": "b"}},
         {"SortKey": {"S": "a#10"}, "Item": {}},
         {"SortKey": {"S": "é"}, "Item": {"q": {"N": "3"}}},
         {"SortKey": {"S": "a#2"}, "Item": {"q": {"N": "2"}}},
         {"SortKey": {"S": "A"}, "Item": {"q": {"SS": ["x"]}}}]'::hroe.item_collection AS many;

-- seed 002: an order's lines, built by the aggregate from rows in any order
CREATE TABLE order_rows (pk text, sk text, item hroe.item);
INSERT INTO order_rows VALUES
 ('ord_001', 'prod_100', '{"product_id": {"S": "prod_100"}, "qty": {"N": "5"}, "price": {"N": "25.00"}}'),
 ('ord_002', 'prod_101', '{"product_id": {"S": "prod_101"}, "qty": {"N": "10"}, "price": {"N": "15.00"}}'),
 ('ord_001', 'prod_105', '{"product_id": {"S": "prod_105"}, "qty": {"N": "1"}, "price": {"N": "100"}}'),
 ('ord_001', 'prod_102', '{"product_id": {"S": "prod_102"}, "qty": {"N": "2"}, "price": {"N": "2.5"}}'),
 ('ord_003', NULL, '{"skipped": {"NULL": true}}'),
 ('ord_003', 'x', NULL);
CREATE TABLE orders AS
SELECT pk, hroe.item_collection_agg(sk, item) AS lines FROM order_rows GROUP BY pk;
SELECT pk, lines, hroe.item_collection_count(lines) AS n, hroe.item_collection_size(lines) AS size
FROM orders ORDER BY pk;
-- the same collection whatever the input order
SELECT (SELECT hroe.item_collection_agg(sk, item ORDER BY sk DESC) FROM order_rows WHERE pk = 'ord_001')::text
     = (SELECT hroe.item_collection_agg(sk, item ORDER BY sk) FROM order_rows WHERE pk = 'ord_001')::text AS order_independent;
-- no rows: NULL, like array_agg
SELECT hroe.item_collection_agg(sk, item) IS NULL AS no_rows FROM order_rows WHERE false;

-- unnest in order; sort keys are hroe.key
SELECT pg_typeof(sort_key) FROM hroe.item_collection_items('[{"SortKey": {"S": "a"}, "Item": {}}]');
SELECT o.pk, i.sort_key, i.item FROM orders o, hroe.item_collection_items(o.lines) i ORDER BY o.pk;
SELECT count(*) FROM hroe.item_collection_items('[]');
-- size is the sum of the items' sizes
SELECT o.pk, hroe.item_collection_size(o.lines) = (SELECT sum(hroe.item_size(i.item)) FROM hroe.item_collection_items(o.lines) i) AS size_ok
FROM orders o WHERE o.pk <> 'ord_003' ORDER BY o.pk;

-- find by sort key
SELECT k, hroe.item_collection_get(lines, k) AS item
FROM orders, (VALUES ('prod_100'), ('prod_102'), ('prod_105'), ('prod_1'), ('prod_103'), ('prod_2'), ('a'), ('z')) AS v(k)
WHERE pk = 'ord_001' ORDER BY k;
SELECT hroe.item_collection_get('[]', 'a') IS NULL AS empty_get;

-- many items: lookups and slices agree with a scan
CREATE TABLE big AS
SELECT hroe.item_collection_agg('ITEM#' || lpad(i::text, 5, '0'),
                                hroe.item_from_document(jsonb_build_object('n', i))) AS c
FROM (SELECT i FROM generate_series(1, 10000) i ORDER BY md5(i::text)) s;
SELECT hroe.item_collection_count(c) AS n, hroe.item_collection_size(c) AS size FROM big;
SELECT bool_and(hroe.item_get_number(hroe.item_collection_get(c, 'ITEM#' || lpad(i::text, 5, '0')), 'n') = i) AS all_found
FROM big, generate_series(1, 10000) i;
SELECT hroe.item_collection_get(c, 'ITEM#10001') IS NULL AS missing FROM big;
SELECT bool_and(i.sort_key < i2.sort_key) AS sorted
FROM big, LATERAL (SELECT sort_key, lead(sort_key) OVER () AS next FROM hroe.item_collection_items(c)) i
     (sort_key, next), LATERAL (SELECT i.next) i2(sort_key) WHERE i.next IS NOT NULL;

-- begins_with: byte prefix
SELECT p, hroe.item_collection_count(hroe.item_collection_begins_with(c, p)) AS n,
       (SELECT count(*) FROM hroe.item_collection_items(c) i WHERE starts_with(i.sort_key::text, p)) AS scan
FROM big, (VALUES ('ITEM#'), ('ITEM#0'), ('ITEM#01'), ('ITEM#0999'), ('ITEM#09999'), ('ITEM#10000'),
                  ('ITEM#100000'), ('ITEM#2'), ('I'), ('X'), ('A')) AS v(p) ORDER BY p;
SELECT hroe.item_collection_begins_with(lines, 'prod_10') AS prod_10,
       hroe.item_collection_begins_with(lines, 'prod_102') AS prod_102,
       hroe.item_collection_begins_with(lines, 'q') AS none
FROM orders WHERE pk = 'ord_001';
-- between: both bounds included
SELECT lo, hi, hroe.item_collection_count(hroe.item_collection_between(c, lo, hi)) AS n,
       (SELECT count(*) FROM hroe.item_collection_items(c) i WHERE i.sort_key BETWEEN lo::hroe.key AND hi::hroe.key) AS scan
FROM big, (VALUES ('ITEM#00001', 'ITEM#00010'), ('ITEM#00005', 'ITEM#00005'), ('ITEM#0', 'ITEM#1'),
                  ('A', 'Z'), ('ITEM#09990', 'ITEM#99999'), ('ITEM#00005x', 'ITEM#00006'), ('a', 'b')) AS v(lo, hi) ORDER BY lo;
SELECT hroe.item_collection_between(lines, 'prod_101', 'prod_102') AS mid,
       hroe.item_collection_between('[]', 'a', 'b') AS empty
FROM orders WHERE pk = 'ord_001';
-- lower bound above upper bound: DynamoDB's E8
SELECT hroe.item_collection_between(lines, 'prod_2', 'prod_1') FROM orders WHERE pk = 'ord_001';

-- seed 004 "embed the children in the parent": the lines as an L of M in
-- the order item, and back
SELECT hroe.item_embed_collection('{"PK": {"S": "ord_001"}, "status": {"S": "OPEN"}}', 'order_items', lines) AS order_item
FROM orders WHERE pk = 'ord_001';
SELECT hroe.item_collection_from_attribute(
         hroe.item_embed_collection('{"PK": {"S": "ord_001"}}', 'order_items', lines), 'order_items', 'product_id')::text = lines::text AS same_text
FROM orders WHERE pk = 'ord_001';
SELECT hroe.item_embed_collection('{"a": {"N": "1"}}', 'a', '[]') AS replaced_by_empty_list;
SELECT hroe.item_collection_from_attribute('{"a": {"N": "1"}}', 'b', 'sk') IS NULL AS missing;
SELECT hroe.item_collection_from_attribute('{"a": {"N": "1"}}', 'a', 'sk');
SELECT hroe.item_collection_from_attribute('{"a": {"L": [{"S": "x"}]}}', 'a', 'sk');
SELECT hroe.item_collection_from_attribute('{"a": {"L": [{"M": {"sk": {"N": "1"}}}]}}', 'a', 'sk');
SELECT hroe.item_collection_from_attribute('{"a": {"L": [{"M": {"sk": {"S": "x"}}}, {"M": {"sk": {"S": "x"}}}]}}', 'a', 'sk');
-- embedding respects the 400 KB limit: 10000 small items fit, 5 of 100 KB do not
SELECT hroe.item_size(hroe.item_embed_collection('{}', 'big', c)) AS all_10000 FROM big;
SELECT hroe.item_embed_collection('{}', 'l', hroe.item_collection_agg(i::text, hroe.item_from_document(jsonb_build_object('x', repeat('x', 100000)))))
FROM generate_series(1, 5) i;
SELECT hroe.item_size(hroe.item_embed_collection('{}', 'l', hroe.item_collection_between(c, 'ITEM#00001', 'ITEM#00100'))) FROM big;

-- binary send/recv through COPY BINARY
SELECT '/tmp/hroe_coll_' || pg_backend_pid() || '.bin' AS binfile \gset
COPY (SELECT pk, lines FROM orders UNION ALL SELECT 'empty', '[]') TO :'binfile' WITH (FORMAT binary);
CREATE TABLE orders_copy (pk text, lines hroe.item_collection);
COPY orders_copy FROM :'binfile' WITH (FORMAT binary);
SELECT pk, lines::text FROM orders_copy ORDER BY pk;
-- forged binary is rejected
CREATE TABLE forged (b bytea);
CREATE TABLE forged_c (c hroe.item_collection);
CREATE FUNCTION try_recv(b bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	d text;
BEGIN
	TRUNCATE forged, forged_c;
	INSERT INTO forged VALUES (b);
	EXECUTE format('COPY forged TO %L WITH (FORMAT binary)', current_setting('hroe_test.binfile'));
	EXECUTE format('COPY forged_c FROM %L WITH (FORMAT binary)', current_setting('hroe_test.binfile'));
	RETURN (SELECT c::text FROM forged_c);
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' (' || nullif(d, '') || ')', '');
END $$;
SELECT set_config('hroe_test.binfile', :'binfile', false) IS NOT NULL AS ok;
SELECT hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]');
SELECT try_recv(hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]'));
SELECT try_recv(set_byte(hroe.item_collection_send('[]'), 0, 9));		-- version
SELECT try_recv(set_byte(hroe.item_collection_send('[]'), 1, 2));		-- key type
SELECT try_recv(set_byte(hroe.item_collection_send('[]'), 4, 1));		-- count
SELECT try_recv(set_byte(hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]'), 12, 9));	-- size
SELECT try_recv(set_byte(hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]'), 28, 255));	-- key UTF-8
SELECT try_recv(set_byte(hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]'), 51, 88));	-- item number
SELECT try_recv(set_byte(hroe.item_collection_send('[{"SortKey": {"S": "a"}, "Item": {}}, {"SortKey": {"S": "b"}, "Item": {}}]'), 36, 98));	-- duplicate key
SELECT try_recv(substring(hroe.item_collection_send('[{"SortKey": {"S": "k"}, "Item": {"a": {"N": "5"}}}]') from 1 for 30));

-- invalid text input
SELECT '[{"SortKey": {"S": "a"}, "Item": {}}, {"SortKey": {"S": "a"}, "Item": {"x": {"N": "1"}}}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": ""}, "Item": {}}]'::hroe.item_collection;
SELECT ('[{"SortKey": {"S": "' || repeat('x', 1025) || '"}, "Item": {}}]')::hroe.item_collection;
SELECT hroe.item_collection_count(('[{"SortKey": {"S": "' || repeat('é', 512) || '"}, "Item": {}}]')::hroe.item_collection) AS key_1024_bytes;
SELECT '[{"SortKey": {"N": "1"}, "Item": {}}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a"}}]'::hroe.item_collection;
SELECT '[{"Item": {}}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a"}, "Item": {}, "Item": {}}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a"}, "Item": {}, "Other": 1}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a"}, "Item": {"x": {"SS": []}}}]'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a", "N": "1"}, "Item": {}}]'::hroe.item_collection;
SELECT '{}'::hroe.item_collection;
SELECT '[]x'::hroe.item_collection;
SELECT '[{"SortKey": {"S": "a"}, "Item": {}},]'::hroe.item_collection;
SELECT hroe.item_collection_agg(k, '{}') FROM (VALUES ('a'), ('b'), ('a')) v(k);
SELECT hroe.item_collection_agg(k, '{}') FROM (VALUES ('a'), ('')) v(k);

RESET search_path;
DROP SCHEMA test_collection CASCADE;
