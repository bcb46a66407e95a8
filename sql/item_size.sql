--
-- hroe.item_size: DynamoDB's size formula (doc/dynamodb-rules.md, Keys and item size),
-- with UTF-8 byte lengths, and the 400 KB limit
--
CREATE SCHEMA test_item_size;
SET search_path = test_item_size, public, hroe;

-- N: base-100 digit pairs + exponent byte + sign byte; every example of
-- section 2 (an item {"a": N} is 1 byte of name + the number's size)
SELECT n, expected, hroe.item_size(('{"a": {"N": "' || n || '"}}')::hroe.item) - 1 AS size,
       hroe.item_size(('{"a": {"N": "' || n || '"}}')::hroe.item) - 1 = expected AS ok
FROM (VALUES ('0', 1), ('1', 2), ('12', 2), ('100', 2), ('1e10', 2), ('0.5', 2),
             ('123', 3), ('120', 3), ('1.5', 3), ('12.5', 3), ('-1', 3), ('123.45', 4),
             ('12345678901234567890123456789012345678', 20),
             ('1.2', 3), ('1010', 3), ('0.0000001', 2), ('-42', 3), ('1E125', 2),
             ('-0', 1), ('12000', 3), ('9.9999999999999999999999999999999999999E+125', 20),
             ('1E-130', 2), ('-1E-130', 3), ('0.05', 2), ('0.123', 3)) AS v(n, expected);

-- S: UTF-8 bytes of name and value (not characters, not UTF-16 units)
SELECT s, hroe.item_size(hroe.item_from_document(jsonb_build_object('a', s))) AS size
FROM (VALUES (''), ('abc'), ('é'), ('中'), ('😀'), ('é😀中x')) AS v(s);
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('é😀', 'x'))) AS utf8_name;

-- The UTF-8 correction to dynalite: 1017 x 'é' + 7 bytes is 2041 bytes
-- (dynalite's UTF-16 count would say 1024)
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('pk', '1234', 'v', repeat('é', 1017)))) AS size;

-- B: raw bytes; BOOL and NULL: 1
SELECT hroe.item_size('{"b": {"B": "AAECAwQ="}}') AS b_5_bytes,
       hroe.item_size('{"b": {"B": ""}}') AS b_empty,
       hroe.item_size('{"t": {"BOOL": true}}') AS bool,
       hroe.item_size('{"z": {"NULL": true}}') AS null;

-- sets: the members' sizes, no per-member overhead
SELECT hroe.item_size('{"s": {"SS": ["ab", "é"]}}') AS ss,		-- 1 + 2 + 2
       hroe.item_size('{"s": {"NS": ["1", "123", "-1"]}}') AS ns,	-- 1 + 2 + 3 + 3
       hroe.item_size('{"s": {"BS": ["AAE=", "AA=="]}}') AS bs;	-- 1 + 2 + 1

-- L: 3 + each (1 + element); M: 3 + each (name + 1 + value)
SELECT hroe.item_size('{"l": {"L": []}}') AS l_empty,			-- 1 + 3
       hroe.item_size('{"l": {"L": [{"S": "ab"}, {"N": "1"}]}}') AS l,	-- 1 + 3 + 3 + 3
       hroe.item_size('{"m": {"M": {}}}') AS m_empty,			-- 1 + 3
       hroe.item_size('{"m": {"M": {"xy": {"S": "ab"}, "z": {"NULL": true}}}}') AS m,	-- 1 + 3 + 5 + 3
       hroe.item_size('{"m": {"M": {"l": {"L": [{"M": {"k": {"BOOL": false}}}]}}}}') AS nested;	-- 1 + 3 + (1+1+(3+1+(3+1+1+1)))

-- several attributes: the sum of names and values
SELECT hroe.item_size('{"PK": {"S": "HR-EMPLOYEE#1"}, "Qty": {"N": "5"}}') AS size;	-- 2 + 13 + 3 + 2

-- the size is stored, so reading it does not depend on the item's content
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('a', repeat('x', 100000)))) AS big;

-- 400 KB = 409,600 bytes, inclusive
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('a', repeat('x', 409599)))) AS at_limit;
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('a', repeat('x', 409600)))) AS over_limit;
SELECT hroe.item_size(('{"a": {"S": "' || repeat('x', 409599) || '"}}')::hroe.item) AS at_limit_text;
SELECT hroe.item_size(('{"a": {"S": "' || repeat('x', 409600) || '"}}')::hroe.item) AS over_limit_text;
-- multi-byte: 1 + 204799 x 2 + 1 = 409600
SELECT hroe.item_size(('{"a": {"S": "' || repeat('é', 204799) || 'x"}}')::hroe.item) AS at_limit_utf8;
SELECT hroe.item_size(('{"a": {"S": "' || repeat('é', 204800) || '"}}')::hroe.item) AS over_limit_utf8;
-- many attributes: names count too (1000 x (4 + 405) = 409000, + 600 = 409600)
SELECT hroe.item_size(hroe.item_from_document(
         (SELECT jsonb_object_agg(lpad(i::text, 4, '0'), repeat('y', 405)) FROM generate_series(1, 1000) i)
         || jsonb_build_object('tail', repeat('z', 596)))) AS at_limit_many;
SELECT hroe.item_size(hroe.item_from_document(
         (SELECT jsonb_object_agg(lpad(i::text, 4, '0'), repeat('y', 405)) FROM generate_series(1, 1000) i)
         || jsonb_build_object('tail', repeat('z', 597)))) AS over_limit_many;
-- a list of many small values: the overhead bytes count
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('l',
         (SELECT jsonb_agg(true) FROM generate_series(1, 204798))))) AS at_limit_list;	-- 1 + 3 + 204798 x 2
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('l',
         (SELECT jsonb_agg(true) FROM generate_series(1, 204799))))) AS over_limit_list;
-- merging two items that fit can exceed the limit
SELECT hroe.item_size(hroe.item_from_document(jsonb_build_object('a', repeat('x', 300000)))
                      || hroe.item_from_document(jsonb_build_object('b', repeat('x', 200000)))) AS merged;

RESET search_path;
DROP SCHEMA test_item_size CASCADE;
