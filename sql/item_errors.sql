--
-- hroe.item: every invalid input is rejected, with DynamoDB's message where
-- DynamoDB has one (doc/dynamodb-rules.md, Errors) and where it is
--
CREATE SCHEMA test_item_errors;
SET search_path = test_item_errors, public, hroe;
\set VERBOSITY default

-- E9: numbers
SELECT '{"a": {"N": "abc"}}'::hroe.item;
SELECT '{"a": {"N": ""}}'::hroe.item;
SELECT '{"a": {"N": "NaN"}}'::hroe.item;
SELECT '{"a": {"N": "Infinity"}}'::hroe.item;
SELECT '{"a": {"N": "+1"}}'::hroe.item;
SELECT '{"a": {"N": " 1"}}'::hroe.item;
SELECT '{"a": {"N": "1e"}}'::hroe.item;
SELECT '{"a": {"N": "."}}'::hroe.item;
SELECT '{"a": {"N": "-"}}'::hroe.item;
SELECT '{"a": {"N": "0x10"}}'::hroe.item;
SELECT '{"a": {"N": "1.2.3"}}'::hroe.item;
SELECT '{"a": {"N": "123456789012345678901234567890123456789"}}'::hroe.item;
SELECT '{"a": {"N": "1.23456789012345678901234567890123456789"}}'::hroe.item;
SELECT '{"a": {"N": "1e126"}}'::hroe.item;
SELECT '{"a": {"N": "-1E+126"}}'::hroe.item;
-- (38 nines at exponent 125 is the largest number: accepted)
SELECT '{"a": {"N": "99999999999999999999999999999999999999e88"}}'::hroe.item;
SELECT '{"a": {"N": "1e-131"}}'::hroe.item;
SELECT '{"a": {"N": "-0.1e-130"}}'::hroe.item;
SELECT '{"a": {"N": "1e99999999999999999999"}}'::hroe.item;
SELECT '{"a": {"NS": ["1", "x"]}}'::hroe.item;
SELECT '{"a": {"N": 5}}'::hroe.item;	-- DynamoDB JSON numbers are strings

-- E30: empty sets (the double space is DynamoDB's)
SELECT '{"a": {"SS": []}}'::hroe.item;
SELECT '{"a": {"NS": []}}'::hroe.item;
SELECT '{"a": {"BS": []}}'::hroe.item;
-- E30: duplicate set members (1 and 1.0 are the same number)
SELECT '{"a": {"SS": ["a", "a"]}}'::hroe.item;
SELECT '{"a": {"SS": ["b", "a", "b"]}}'::hroe.item;
SELECT '{"a": {"NS": ["1", "1.0"]}}'::hroe.item;
SELECT '{"a": {"NS": ["100", "1e2", "7"]}}'::hroe.item;
SELECT '{"a": {"BS": ["AAE=", "AAE="]}}'::hroe.item;
-- E30: NULL must be true
SELECT '{"a": {"NULL": false}}'::hroe.item;
-- the error names the attribute path
SELECT '{"a": {"M": {"b": {"L": [{"N": "1"}, {"SS": []}]}}}}'::hroe.item;
SELECT '{"a": {"L": [{"M": {"x": {"NULL": false}}}]}}'::hroe.item;

-- exactly one type per value
SELECT '{"a": {}}'::hroe.item;
SELECT '{"a": {"S": "x", "N": "1"}}'::hroe.item;
SELECT '{"a": {"L": [{"S": "x", "S": "y"}]}}'::hroe.item;
SELECT '{"a": {"X": "1"}}'::hroe.item;
SELECT '{"a": {"s": "lower-case tags are not types"}}'::hroe.item;
SELECT '{"a": {"S": 1}}'::hroe.item;
SELECT '{"a": {"BOOL": "true"}}'::hroe.item;
SELECT '{"a": {"NULL": 1}}'::hroe.item;
SELECT '{"a": {"L": {}}}'::hroe.item;
SELECT '{"a": {"M": []}}'::hroe.item;
SELECT '{"a": {"SS": "x"}}'::hroe.item;
SELECT '{"a": {"SS": [1]}}'::hroe.item;
SELECT '{"a": "x"}'::hroe.item;

-- binary: standard padded base64
SELECT '{"a": {"B": "aGVsbG8"}}'::hroe.item;
SELECT '{"a": {"B": "aGVs*G8="}}'::hroe.item;
SELECT '{"a": {"B": "aGV sbG8="}}'::hroe.item;
SELECT '{"a": {"B": "=AAA"}}'::hroe.item;
SELECT '{"a": {"BS": ["AA==", "A"]}}'::hroe.item;

-- names: unique, not empty
SELECT '{"a": {"S": "x"}, "a": {"S": "y"}}'::hroe.item;
SELECT '{"a": {"M": {"k": {"N": "1"}, "k": {"N": "2"}}}}'::hroe.item;
SELECT '{"": {"S": "x"}}'::hroe.item;

-- nesting: 32 levels of L and M are allowed, not 33, in the document form alike
SELECT hroe.item_size(('{"a": ' || repeat('{"M": {"a": ', 31) || '{"M": {}}' || repeat('}}', 31) || '}')::hroe.item) AS depth_32_m;
SELECT ('{"a": ' || repeat('{"M": {"a": ', 32) || '{"M": {}}' || repeat('}}', 32) || '}')::hroe.item;
SELECT hroe.item_size(('{"a": ' || repeat('{"L": [', 31) || '{"L": []}' || repeat(']}', 31) || '}')::hroe.item) AS depth_32_l;
SELECT ('{"a": ' || repeat('{"L": [', 32) || '{"L": []}' || repeat(']}', 32) || '}')::hroe.item;
SELECT hroe.item_from_document(('{"a": ' || repeat('[', 32) || repeat(']', 32) || '}')::jsonb) IS NOT NULL AS doc_depth_32;
SELECT hroe.item_from_document(('{"a": ' || repeat('[', 33) || repeat(']', 33) || '}')::jsonb);
-- deeper JSON than any limit fails cleanly
SELECT ('{"a": ' || repeat('{"L": [', 10000) || repeat(']}', 10000) || '}')::hroe.item;

-- strings and names hold U+0000 as DynamoDB's do (no error: printed back as
-- \u0000; the conversions to text and jsonb refuse it, sql/api_nul.sql)
SELECT '{"a": {"S": "x\u0000y"}}'::hroe.item;
SELECT '{"a\u0000": {"S": "x"}}'::hroe.item;
-- lone surrogates and bad escapes
SELECT '{"a": {"S": "\ud800"}}'::hroe.item;
SELECT '{"a": {"S": "\udc00"}}'::hroe.item;
SELECT '{"a": {"S": "\ud800\u0041"}}'::hroe.item;
SELECT '{"a": {"S": "\x"}}'::hroe.item;
SELECT '{"a": {"S": "\u12"}}'::hroe.item;
SELECT E'{"a": {"S": "tab\tinside"}}'::hroe.item;

-- JSON syntax
SELECT ''::hroe.item;
SELECT '[]'::hroe.item;
SELECT 'null'::hroe.item;
SELECT '{'::hroe.item;
SELECT '{"a": {"S": "x"}'::hroe.item;
SELECT '{"a": {"S": "x"},}'::hroe.item;
SELECT '{"a" {"S": "x"}}'::hroe.item;
SELECT '{"a": {"S": "x"}} extra'::hroe.item;
SELECT '{"a": {"S": "x"}}{}'::hroe.item;
SELECT '{"a": {"S": "unterminated}}'::hroe.item;
SELECT '{a: {"S": "x"}}'::hroe.item;
SELECT '{"a": {"BOOL": tru}}'::hroe.item;
SELECT '{"a": {"L": [{"S": "x"},]}}'::hroe.item;

-- jsonb input takes the same checks
SELECT '{"a": {"SS": []}}'::jsonb::hroe.item;
SELECT '{"a": {"N": 5}}'::jsonb::hroe.item;
SELECT '[1]'::jsonb::hroe.item;
-- documents: only objects, and numbers within DynamoDB's range
SELECT hroe.item_from_document('[1, 2]');
SELECT hroe.item_from_document('"x"');
SELECT hroe.item_from_document('{"a": 1e126}');
SELECT hroe.item_from_document('{"a": 0.1234567890123456789012345678901234567890}');
SELECT hroe.item_from_document('{"": 1}');
SELECT hroe.item_from_document('{"a": "x\u0000"}');

RESET search_path;
DROP SCHEMA test_item_errors CASCADE;
