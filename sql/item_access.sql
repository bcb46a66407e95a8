--
-- hroe.item: attribute access, paths, typed getters, conversions, merge and
-- removal
--
CREATE SCHEMA test_item_access;
SET search_path = test_item_access, public, hroe;

CREATE TABLE emp (it hroe.item);
INSERT INTO emp VALUES ('{
  "PK": {"S": "HR-EMPLOYEE#1"}, "SK": {"S": "EMPLOYEE#1"},
  "Name": {"S": "Zoë Ñúñez"}, "Salary": {"N": "7500.50"}, "Active": {"BOOL": true},
  "Photo": {"B": "iVBORw0KGgo="}, "Manager": {"NULL": true},
  "Phones": {"L": [{"S": "+1-555-0100"}, {"M": {"type": {"S": "mobile"}, "n": {"S": "+1-555-0101"}}}]},
  "Address": {"M": {"city": {"S": "Seattle"}, "geo": {"M": {"lat": {"N": "47.6"}, "lon": {"N": "-122.3"}}},
                    "lines": {"L": [{"L": [{"N": "1"}, {"N": "2"}]}, {"S": "x"}]}}},
  "Skills": {"SS": ["sql", "c"]}, "Scores": {"NS": ["3", "1.5"]}, "Keys": {"BS": ["AQ=="]},
  "a.b": {"S": "a dotted name"}
}');

-- ? : top-level attribute exists
SELECT it ? 'PK' AS pk, it ? 'pk' AS lower_pk, it ? 'city' AS nested_name, it ? 'a.b' AS dotted FROM emp;

-- -> : a top-level attribute as DynamoDB JSON; NULL when missing
SELECT it -> 'Salary' AS salary, it -> 'Skills' AS skills, it -> 'Photo' AS photo,
       it -> 'Manager' AS manager, it -> 'nope' IS NULL AS missing FROM emp;
SELECT it -> 'Address' AS address FROM emp;
SELECT it -> 'a.b' AS dotted FROM emp;

-- #> and hroe.item_get: document paths into M and L
SELECT p, it #> p AS value, hroe.item_get_type(it, p) AS type, hroe.item_path_exists(it, p) AS found
FROM emp, (VALUES ('Address.city'), ('Address.geo.lat'), ('Address.lines[0][1]'), ('Address.lines[1]'),
                  ('Phones[1].type'), ('Phones[0]'), ('Phones[2]'), ('Phones[1].nope'), ('Address.city.x'),
                  ('Phones.type'), ('Address[0]'), ('Skills'), ('Skills[0]'), ('Nope.x'),
                  ('Phones[4294967295]')) AS v(p)
ORDER BY p;
-- malformed paths
SELECT it #> '' FROM emp;
SELECT it #> 'a..b' FROM emp;
SELECT it #> 'a.' FROM emp;
SELECT it #> '.a' FROM emp;
SELECT it #> 'a[x]' FROM emp;
SELECT it #> 'a[1' FROM emp;
SELECT it #> 'a[1]b' FROM emp;
SELECT it #> '[0]' FROM emp;
SELECT it #> 'a[99999999999]' FROM emp;

-- typed getters: no text round trip; NULL when missing
SELECT hroe.item_get_text(it, 'Name') AS name, hroe.item_get_text(it, 'Phones[1].n') AS mobile,
       hroe.item_get_number(it, 'Salary') AS salary, hroe.item_get_number(it, 'Address.geo.lon') AS lon,
       hroe.item_get_binary(it, 'Photo') AS photo, hroe.item_get_bool(it, 'Active') AS active
FROM emp;
SELECT hroe.item_get_text(it, 'nope') IS NULL AS t, hroe.item_get_number(it, 'nope') IS NULL AS n,
       hroe.item_get_binary(it, 'nope') IS NULL AS b, hroe.item_get_bool(it, 'nope') IS NULL AS bool
FROM emp;
-- numbers come back as numeric, exactly, at the edges of the range too
SELECT hroe.item_get_number(('{"n": {"N": "' || n || '"}}')::hroe.item, 'n') AS n
FROM (VALUES ('0'), ('-42'), ('123456789012345678'), ('1234567890123456789'), ('-999999999999999999'),
             ('0.1'), ('12345678901234567890123456789012345678'), ('1E125'), ('-1E-130')) AS v(n);
SELECT hroe.item_get_number(('{"n": {"N": "' || n || '"}}')::hroe.item, 'n') = n::numeric AS exact
FROM (VALUES ('9.9999999999999999999999999999999999999E+125'), ('-1.5e-100'), ('1e18'), ('-1e18'),
             ('40000.5'), ('-40000.5'), ('0.00012'), ('-0.1'), ('123456789012.345678'), ('-12345678901234567.8'),
             ('1234567890123456.789'), ('0.000000000000000001'), ('0.0000000000000000001'), ('99999999999999999.9')) AS v(n);
-- the same display scale as numeric input
SELECT n, hroe.item_get_number(('{"n": {"N": "' || n || '"}}')::hroe.item, 'n')::text = n::numeric::text AS same_text
FROM (VALUES ('40000.5'), ('-0.1'), ('0.00012'), ('123456789012.345678'), ('7'), ('-12.25')) AS v(n);
-- S as hroe.key, without a text round trip
SELECT hroe.item_get_key(it, 'PK') AS pk, pg_typeof(hroe.item_get_key(it, 'PK')),
       hroe.item_get_key(it, 'PK') = 'HR-EMPLOYEE#1'::hroe.key AS eq, hroe.item_get_key(it, 'nope') IS NULL AS missing
FROM emp;
SELECT hroe.item_get_key('{"k": {"S": ""}}', 'k');	-- a key cannot be empty
SELECT hroe.item_get_key(it, 'Salary') FROM emp;
-- another type is an error
SELECT hroe.item_get_number(it, 'Name') FROM emp;
SELECT hroe.item_get_text(it, 'Salary') FROM emp;
SELECT hroe.item_get_binary(it, 'Keys') FROM emp;
SELECT hroe.item_get_bool(it, 'Manager') FROM emp;

-- attribute names in canonical order
SELECT hroe.item_attributes(it) FROM emp;

-- jsonb: DynamoDB JSON both ways
SELECT it::jsonb FROM emp;
SELECT it::jsonb::hroe.item = it AS round_trip FROM emp;
-- documents (the DocumentClient form): lossy for sets and binary
SELECT hroe.item_to_document(it) FROM emp;
SELECT hroe.item_from_document('{"id": 7, "name": "Ann", "tags": ["a", 1, true, null, {"x": 1.50}], "meta": {}, "big": 1e30, "neg": -0.0}');
SELECT hroe.item_to_document(hroe.item_from_document(d)) = d AS round_trip
FROM (VALUES ('{"id": 7, "s": "é", "l": [1, [2, [3]], {"a": {"b": null}}], "t": false}'::jsonb)) AS v(d);

-- merge: later wins
SELECT '{"a": {"N": "1"}, "b": {"N": "2"}}'::hroe.item || '{"b": {"S": "two"}, "c": {"NULL": true}}'::hroe.item AS merged;
SELECT hroe.item_merge('{}', '{"a": {"N": "1"}}') AS left_empty, hroe.item_merge('{"a": {"N": "1"}}', '{}') AS right_empty;
SELECT hroe.item_size('{"a": {"S": "xx"}}'::hroe.item || '{"a": {"S": "y"}, "b": {"N": "1"}}'::hroe.item) AS merged_size;

-- set one attribute from a DynamoDB-JSON AttributeValue
SELECT hroe.item_set('{"a": {"N": "1"}}', 'b', '{"SS": ["y", "x"]}') AS added,
       hroe.item_set('{"a": {"N": "1"}}', 'a', '{"M": {"k": {"N": "1e2"}}}') AS replaced;
SELECT hroe.item_set('{"a": {"N": "1"}}', 'b', '{"SS": []}');
SELECT hroe.item_set('{"a": {"N": "1"}}', 'b', '{"S": "x", "N": "1"}');
SELECT hroe.item_set('{"a": {"N": "1"}}', 'b', '"x"');
SELECT hroe.item_set('{"a": {"N": "1"}}', '', '{"S": "x"}');
SELECT hroe.item_size(hroe.item_set(hroe.item_from_document(jsonb_build_object('a', repeat('x', 409596))), 'b', '{"S": "xx"}')) AS at_limit;
SELECT hroe.item_size(hroe.item_set(hroe.item_from_document(jsonb_build_object('a', repeat('x', 409596))), 'b', '{"S": "xxx"}')) AS over_limit;

-- remove
SELECT it - 'Photo' - 'Phones' - 'Address' - 'nope' AS removed FROM emp;
SELECT hroe.item_remove(it, 'PK', 'SK', 'Name', 'Salary', 'Active', 'Photo', 'Manager', 'Phones', 'Address') AS rest FROM emp;
SELECT '{"a": {"N": "1"}, "b": {"N": "2"}, "c": {"N": "3"}}'::hroe.item - '{a,c,NULL}'::text[] AS removed;
SELECT hroe.item_size(it) - hroe.item_size(it - 'Name') AS name_bytes FROM emp;	-- 4 + 13 (ë Ñ ú ñ are 2 bytes each)

-- in a table: index on an expression, used and not used
CREATE TABLE emps AS
SELECT hroe.item_from_document(jsonb_build_object('PK', 'E#' || i, 'Dept', 'D' || (i % 10), 'Salary', i * 10)) AS it
FROM generate_series(1, 2000) i;
CREATE INDEX emps_dept ON emps ((hroe.item_get_text(it, 'Dept')));
ANALYZE emps;
EXPLAIN (COSTS OFF) SELECT count(*) FROM emps WHERE hroe.item_get_text(it, 'Dept') = 'D3';
SELECT count(*), sum(hroe.item_get_number(it, 'Salary')) FROM emps WHERE hroe.item_get_text(it, 'Dept') = 'D3';
SET enable_indexscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM emps WHERE hroe.item_get_text(it, 'Dept') = 'D3';
SELECT count(*), sum(hroe.item_get_number(it, 'Salary')) FROM emps WHERE hroe.item_get_text(it, 'Dept') = 'D3';
RESET enable_indexscan;
RESET enable_bitmapscan;
-- large items are TOASTed and detoasted transparently
CREATE TABLE big (it hroe.item);
INSERT INTO big SELECT hroe.item_from_document(jsonb_build_object('PK', 'x', 'blob', repeat(md5(i::text), 10000))) FROM generate_series(1, 3) i;
SELECT hroe.item_size(it), hroe.item_get_text(it, 'PK'), length(hroe.item_get_text(it, 'blob')) FROM big;

RESET search_path;
DROP SCHEMA test_item_access CASCADE;
