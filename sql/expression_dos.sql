--
-- Expressions whose cost an attacker chooses (issue #29, item 3):
-- contains() with a needle that almost matches everywhere in a 400 KB
-- string, many times over, on several items.  A naive substring search is
-- quadratic (about half a second per call and item here, so this Query took
-- tens of seconds and ran past its statement_timeout); the two-way search
-- of glibc's memmem is linear and the whole Query takes milliseconds.
--
\set VERBOSITY terse
CREATE SCHEMA test_expression_dos;
SET search_path = test_expression_dos, public;
SELECT hroe.create_table('dos', 'PK', 'S', 'SK', 'S');
-- three items of 360,000 'x' and a list of 20,000 elements (stored small:
-- repeat compresses)
SELECT count(*) FROM (
	SELECT hroe.put_item('dos', jsonb_build_object('PK', '{"S": "p"}'::jsonb, 'SK', jsonb_build_object('S', s),
												  'd', jsonb_build_object('S', repeat('x', 360000)),
												  'l', jsonb_build_object('L', (SELECT jsonb_agg('{"S": "x"}'::jsonb) FROM generate_series(1, 20000))))::text::hroe.item)
	FROM unnest(ARRAY['a', 'b', 'c']) s) p;

-- :s is 200,000 'x' then 'y': found nowhere; 16 calls per item, each one
-- costing a naive search about 0.5 s, in all about 25 s
SET statement_timeout = '5s';
SELECT count(*) FROM hroe.query('dos', 'PK = :p',
	jsonb_build_object(':p', '{"S": "p"}'::jsonb, ':s', jsonb_build_object('S', repeat('x', 200000) || 'y')),
	NULL, NULL, true, false,
	(SELECT string_agg('contains(d, :s)', ' OR ') FROM generate_series(1, 16)));
-- the same needle where it is found (the last 200,001 bytes of a match)
SELECT count(*) FROM hroe.put_item('dos', jsonb_build_object('PK', '{"S": "p"}'::jsonb, 'SK', '{"S": "d"}'::jsonb,
											   'd', jsonb_build_object('S', repeat('x', 300000) || 'y'))::text::hroe.item);
SELECT q FROM hroe.query('dos', 'PK = :p',
	jsonb_build_object(':p', '{"S": "p"}'::jsonb, ':s', jsonb_build_object('S', repeat('x', 200000) || 'y')),
	NULL, NULL, true, false, 'contains(d, :s)', 'SK') q;
-- a needle of one byte found in one item; one longer than every string in
-- none
SELECT count(*) FROM hroe.query('dos', 'PK = :p',
	jsonb_build_object(':p', '{"S": "p"}'::jsonb, ':e', '{"S": "y"}'::jsonb, ':l', jsonb_build_object('S', repeat('x', 360001))),
	NULL, NULL, true, false, 'contains(d, :e) OR contains(d, :l)');
-- contains() on a list of 20,000 elements, and size(), 60 times per item
-- (the item without the list: size(l) <> :n holds, l being absent)
SELECT count(*) FROM hroe.query('dos', 'PK = :p',
	jsonb_build_object(':p', '{"S": "p"}'::jsonb, ':y', '{"S": "y"}'::jsonb, ':n', '{"N": "20000"}'::jsonb),
	NULL, NULL, true, false,
	(SELECT string_agg('contains(l, :y) OR size(l) <> :n', ' OR ') FROM generate_series(1, 30)));
RESET statement_timeout;

-- leave the database as found
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "dos"}') -> 'TableDescription' ->> 'TableStatus' AS status;
RESET search_path;
DROP SCHEMA test_expression_dos CASCADE;
