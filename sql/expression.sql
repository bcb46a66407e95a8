--
-- DynamoDB KeyConditionExpression parsing and validation
-- (hroe.explain_key_condition; doc/dynamodb-rules.md, Expressions and Errors)
--
\set VERBOSITY terse

-- simple and composite conditions; operators come back as written for "attr op value"
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"S": "CUST#1"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p AND sk < :s', NULL,
	'{":p": {"S": "a"}, ":s": {"S": "ORDER#2025"}}');
-- operand order is free (":v < sk" is "sk > :v"); numbers are shown normalised
SELECT * FROM hroe.explain_key_condition(':s < sk and :p = pk', NULL,
	'{":p": {"S": "a"}, ":s": {"S": "x"}}');
SELECT * FROM hroe.explain_key_condition(':s >= sk AND pk = :p', NULL,
	'{":p": {"N": "1"}, ":s": {"N": "1e2"}}');
SELECT * FROM hroe.explain_key_condition('#p = :p AND #s BETWEEN :lo AND :hi',
	'{"#p": "name", "#s": "date"}',
	'{":p": {"S": "a"}, ":lo": {"S": "2025-01"}, ":hi": {"S": "2025-12"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p AND begins_with(sk, :pre)', NULL,
	'{":p": {"B": "AAE="}, ":pre": {"S": "v0"}}');
-- keywords are case-insensitive, whitespace is free, parentheses are allowed
SELECT * FROM hroe.explain_key_condition(E'(pk=:p)\n\tand\t(sk   between :a AnD :b)', NULL,
	'{":p": {"S": "a"}, ":a": {"N": "-10"}, ":b": {"N": "0.5"}}');
SELECT * FROM hroe.explain_key_condition('(pk) = :p AND (sk <= :s)', NULL,
	'{":p": {"S": "a"}, ":s": {"S": "b"}}');
-- a multi-attribute index key: one condition per attribute
SELECT * FROM hroe.explain_key_condition('a = :v AND b = :v AND c = :v AND d > :v', NULL,
	'{":v": {"S": "x"}}');

-- syntax errors name the offending token and its neighbours
SELECT * FROM hroe.explain_key_condition('things are not gonna be ok');
SELECT * FROM hroe.explain_key_condition('a > 4');
SELECT * FROM hroe.explain_key_condition('pk = :p AND', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p AND begins_with(sk, G_M#)', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk == :p', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p)', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('begins_with()');
SELECT * FROM hroe.explain_key_condition('pk = : AND sk = :s', NULL, '{":s": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p AND sk = é', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('(size(a))[0] > a');
SELECT * FROM hroe.explain_key_condition('pk BETWEEN :a');
SELECT * FROM hroe.explain_key_condition('pk = :p AND sk IN :s');
-- empty, too long, too many operators
SELECT * FROM hroe.explain_key_condition('');
SELECT * FROM hroe.explain_key_condition(NULL);
SELECT * FROM hroe.explain_key_condition('pk = :p AND sk = ' || repeat('x', 4080), NULL, '{":p": {"S": "a"}}');
SELECT count(*) FROM hroe.explain_key_condition('pk = :p' || repeat(' ', 4096 - 7), NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition(
	(SELECT string_agg('a' || i || ' = :v', ' AND ') FROM generate_series(1, 151) i), NULL, '{":v": {"S": "a"}}');

-- reserved words (E15) need a #name
SELECT * FROM hroe.explain_key_condition('name = :p', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p AND Status > :p', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('#n = :p', '{"#n": "name"}', '{":p": {"S": "a"}}');
SELECT hroe.explain_key_condition('data1 = :p', NULL, '{":p": {"S": "a"}}');
-- undefined placeholders (E15) and unused ones (E16)
SELECT * FROM hroe.explain_key_condition('pk = :zz', NULL, '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('#x = :p', '{"#y": "pk"}', '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"S": "a"}, ":unused": {"S": "b"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', '{"#a": "x", "#b": "y"}', '{":p": {"S": "a"}}');
-- malformed maps
SELECT * FROM hroe.explain_key_condition('pk = :p', '{}', '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{}');
SELECT * FROM hroe.explain_key_condition('pk = :p', '{"a": "pk"}', '{":p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{"p": {"S": "a"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '[1]');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"S": "a", "N": "1"}}');
\set VERBOSITY default
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"X": "a"}}');
\set VERBOSITY terse
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": "a"}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"NULL": false}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"SS": []}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"B": "not base64!"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"S": 1}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"L": [{"N": "x"}]}}');

-- numbers (E9) are validated and normalised
SELECT n, (SELECT operands FROM hroe.explain_key_condition('pk = :p', NULL,
	jsonb_build_object(':p', jsonb_build_object('N', n))))
FROM unnest(ARRAY['1e2', '100.000', '007', '1E-3', '1.5E+3', '-0', '0.0', '.5', '5.',
                  '-12.50', '1E125', '-9.9999999999999999999999999999999999999E+125', '1E-130',
                  '12345678901234567890123456789012345678000']) n;
SELECT * FROM hroe.explain_key_condition('pk = :p AND sk between :a and :b', NULL,
	'{":p": {"S": "a"}, ":a": {"N": "1e2"}, ":b": {"N": "100.000"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "abc"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": ""}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "1E126"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "1E-131"}}');
-- more than 38 digits and out of range: the same error as an item's number
-- (one normaliser, src/types/item_number.c)
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "1234567890123456789012345678901234567891E200"}}');
SELECT '{"a": {"N": "1234567890123456789012345678901234567891E200"}}'::hroe.item;
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "-0.1234567890123456789012345678901234567891E-200"}}');
SELECT '{"a": {"N": "-0.1234567890123456789012345678901234567891E-200"}}'::hroe.item;
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "123456789012345678901234567890123456789"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "NaN"}}');
SELECT * FROM hroe.explain_key_condition('pk = :p', NULL, '{":p": {"N": "+1"}}');

-- begins_with on a number (E7); BETWEEN bounds (E8)
SELECT * FROM hroe.explain_key_condition('pk = :p AND begins_with(sk, :n)', NULL,
	'{":p": {"S": "a"}, ":n": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('a between :b and :a', NULL,
	'{":a": {"S": "a"}, ":b": {"S": "b"}}');
SELECT * FROM hroe.explain_key_condition('a between :b and :a', NULL,
	'{":a": {"S": "a"}, ":b": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('a between :b and :a', NULL,
	'{":a": {"N": "9"}, ":b": {"N": "10"}}');
SELECT * FROM hroe.explain_key_condition('a between :b and :a', NULL,
	'{":a": {"S": "é"}, ":b": {"S": "z"}}');

-- operators and shapes a key condition does not allow (E13)
SELECT * FROM hroe.explain_key_condition('a > b and size(b) > c or a > c');
SELECT * FROM hroe.explain_key_condition('a in (b, size(c), d)');
SELECT * FROM hroe.explain_key_condition('attribute_exists(a)');
SELECT * FROM hroe.explain_key_condition('attribute_not_exists(a)');
SELECT * FROM hroe.explain_key_condition('contains(a.d, b)');
SELECT * FROM hroe.explain_key_condition('not a > b');
SELECT * FROM hroe.explain_key_condition('a <> b');
SELECT * FROM hroe.explain_key_condition('attribute_type(a, :a)', NULL, '{":a": {"S": "S"}}');
SELECT * FROM hroe.explain_key_condition(':a between size(b) and size(a) and b > :b', NULL,
	'{":a": {"S": "1"}, ":b": {"S": "1"}}');
SELECT * FROM hroe.explain_key_condition('begins_with(:a, b) and a > :b', NULL,
	'{":a": {"S": "1"}, ":b": {"S": "1"}}');
SELECT * FROM hroe.explain_key_condition('size(b) > a AND a.b > b AND b > c');
SELECT * FROM hroe.explain_key_condition('b > a.b');
SELECT * FROM hroe.explain_key_condition('begins_with(a, b)');
SELECT * FROM hroe.explain_key_condition('b.d > a AND c.d > e.f');
SELECT * FROM hroe.explain_key_condition('b[0] > a');
SELECT * FROM hroe.explain_key_condition(':b > :a AND a < :b', NULL, '{":a": {"N": "1"}, ":b": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('b > :a AND b < :a and c = :a and d = :a', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('#a = :a AND a = :a', '{"#a": "a"}', '{":a": {"N": "1"}}');

-- general condition-grammar checks, reported before the key-condition pass
SELECT * FROM hroe.explain_key_condition('((a = :a))', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('((a)) = :a', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('nope(a) AND a = :a', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('a = begins_with(b, :a)', NULL, '{":a": {"S": "1"}}');
SELECT * FROM hroe.explain_key_condition('size(a)');
SELECT * FROM hroe.explain_key_condition('begins_with(a, :a, :b)', NULL, '{":a": {"S": "1"}, ":b": {"S": "1"}}');
SELECT * FROM hroe.explain_key_condition('a = a');
SELECT * FROM hroe.explain_key_condition('begins_with(a, a)');
SELECT * FROM hroe.explain_key_condition('attribute_type(a, :a)', NULL, '{":a": {"S": "X"}}');
SELECT * FROM hroe.explain_key_condition('attribute_type(a, :a)', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('size(:a) > b', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('attribute_exists(:a)', NULL, '{":a": {"N": "1"}}');
-- priority: redundant parentheses before an unknown function before a reserved word
SELECT * FROM hroe.explain_key_condition('name = :a AND nope(b) AND ((c = :a))', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('name = :a AND nope(b)', NULL, '{":a": {"N": "1"}}');
SELECT * FROM hroe.explain_key_condition('name = :zz', NULL, '{":a": {"N": "1"}}');

-- deep nesting is refused cleanly, never crashes
SELECT * FROM hroe.explain_key_condition(repeat('(', 2000) || 'a = :a' || repeat(')', 2000), NULL, '{":a": {"N": "1"}}');
