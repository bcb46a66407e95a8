--
-- ConditionExpression / FilterExpression evaluated on hroe.item
-- (hroe.condition_matches; doc/dynamodb-rules.md, Expressions and Errors)
--
\set VERBOSITY terse

CREATE TEMP TABLE it (id int PRIMARY KEY, item hroe.item);
INSERT INTO it VALUES
 (1, '{"pk": {"S": "CUST#1"}, "n": {"N": "10"}, "s": {"S": "héllo"}, "b": {"B": "AAEC"},
       "t": {"BOOL": true}, "z": {"NULL": true},
       "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2.5"]}, "bs": {"BS": ["AAE=", "/w=="]},
       "l": {"L": [{"S": "x"}, {"N": "2"}, {"M": {"k": {"S": "v"}}}, {"B": "AAE="}]},
       "m": {"M": {"a": {"M": {"b": {"N": "-1.5"}}}, "name": {"S": "inner"}, "e": {"M": {}}}}}'),
 (2, '{"pk": {"S": "CUST#2"}, "n": {"N": "6"}, "s": {"S": "6"}}'),
 (3, '{"pk": {"S": "CUST#3"}}');

-- a helper: which items match
CREATE FUNCTION matching(cond text, names jsonb DEFAULT NULL, vals jsonb DEFAULT NULL)
RETURNS int[] LANGUAGE sql AS
$$ SELECT coalesce(array_agg(id ORDER BY id), '{}') FROM it
   WHERE hroe.condition_matches(item, cond, names, vals) $$;

-- comparisons: S bytewise, N numerically, B bytewise
SELECT matching('n = :v', NULL, '{":v": {"N": "10.00"}}');
SELECT matching('n <> :v', NULL, '{":v": {"N": "1e1"}}');
SELECT matching('n < :v', NULL, '{":v": {"N": "7"}}');
SELECT matching('n <= :v', NULL, '{":v": {"N": "6"}}');
SELECT matching('n > :v', NULL, '{":v": {"N": "-100"}}');
SELECT matching('n >= :v', NULL, '{":v": {"N": "10"}}');
SELECT matching('s > :v', NULL, '{":v": {"S": "5"}}');
SELECT matching('s < :v', NULL, '{":v": {"S": "hz"}}');
SELECT matching('b < :v', NULL, '{":v": {"B": "AAI="}}');
SELECT matching(':v < n', NULL, '{":v": {"N": "9.999"}}');
-- different types compare false; <> across types (and with an absent operand) is true; but a
-- value that is not S, N or B cannot be ordered: an error
SELECT matching('s = :v', NULL, '{":v": {"N": "6"}}');
SELECT matching('s <> :v', NULL, '{":v": {"N": "6"}}');
SELECT matching('n < :v', NULL, '{":v": {"S": "zzz"}}');
SELECT matching('t < :v', NULL, '{":v": {"BOOL": true}}');
SELECT matching('t = :v', NULL, '{":v": {"BOOL": true}}');
SELECT matching('z = :v', NULL, '{":v": {"NULL": true}}');
-- comparing two paths; whole L, M and set values compare by value (sets unordered)
SELECT matching('n = s');
SELECT matching('ss = :v', NULL, '{":v": {"SS": ["b", "a"]}}');
SELECT matching('ns = :v', NULL, '{":v": {"NS": ["2.50", "1"]}}');
SELECT matching('m.a = :v', NULL, '{":v": {"M": {"b": {"N": "-1.50"}}}}');
SELECT matching('l[2] = :v', NULL, '{":v": {"M": {"k": {"S": "v"}}}}');
SELECT matching('l < :v', NULL, '{":v": {"L": []}}');

-- BETWEEN is inclusive and needs one S, N or B type throughout
SELECT matching('n BETWEEN :a AND :b', NULL, '{":a": {"N": "6"}, ":b": {"N": "10"}}');
SELECT matching('n between :a and :b', NULL, '{":a": {"N": "7"}, ":b": {"N": "100"}}');
SELECT matching('s BETWEEN :a AND :b', NULL, '{":a": {"S": "h"}, ":b": {"S": "i"}}');
SELECT matching('n BETWEEN :a AND :b', NULL, '{":a": {"S": "0"}, ":b": {"S": "z"}}');
SELECT matching('n BETWEEN m.a.b AND :b', NULL, '{":b": {"N": "100"}}');

-- IN: equality with any candidate, up to 100 candidates
SELECT matching('n IN (:a, :b)', NULL, '{":a": {"N": "6"}, ":b": {"N": "7"}}');
SELECT matching('s in (:a, :b)', NULL, '{":a": {"N": "6"}, ":b": {"S": "héllo"}}');
SELECT matching('nope IN (:a)', NULL, '{":a": {"N": "6"}}');
SELECT matching('n IN (' || (SELECT string_agg(':v' || i, ', ') FROM generate_series(1, 100) i) || ')', NULL,
	(SELECT jsonb_object_agg(':v' || i, jsonb_build_object('N', i::text)) FROM generate_series(1, 100) i));
SELECT matching('n IN (' || (SELECT string_agg(':v', ', ') FROM generate_series(1, 101) i) || ')', NULL,
	'{":v": {"N": "1"}}');

-- AND binds tighter than OR, NOT tighter than AND; parentheses group
SELECT matching('n = :ten OR n = :six AND attribute_exists(l)', NULL, '{":ten": {"N": "10"}, ":six": {"N": "6"}}');
SELECT matching('(n = :ten OR n = :six) AND attribute_exists(l)', NULL, '{":ten": {"N": "10"}, ":six": {"N": "6"}}');
SELECT matching('NOT n = :ten AND attribute_exists(n)', NULL, '{":ten": {"N": "10"}}');
SELECT matching('NOT (n = :ten AND attribute_exists(n))', NULL, '{":ten": {"N": "10"}}');
SELECT matching('not attribute_exists(n) or s = :s', NULL, '{":s": {"S": "6"}}');

-- attribute_exists / attribute_not_exists, nested paths and list indexes
SELECT matching('attribute_exists(m.a.b)');
SELECT matching('attribute_exists(l[3])');
SELECT matching('attribute_exists(l[4])');
SELECT matching('attribute_exists(l[2].k)');
SELECT matching('attribute_exists(m[0])');
SELECT matching('attribute_not_exists(n)');
SELECT matching('attribute_exists(#m.#n)', '{"#m": "m", "#n": "name"}');
SELECT matching('attribute_exists(#dotted)', '{"#dotted": "m.a"}');
SELECT matching('attribute_exists(m.e)');
SELECT matching('m.a.b < :z AND l[1] = :two', NULL, '{":z": {"N": "0"}, ":two": {"N": "2"}}');
-- parenthesised paths continue
SELECT matching('(m).a.b = :v', NULL, '{":v": {"N": "-1.5"}}');

-- attribute_type: every type name
SELECT t, matching('attribute_type(' || a || ', :t)', NULL, jsonb_build_object(':t', jsonb_build_object('S', t)))
FROM (VALUES ('s', 'S'), ('n', 'N'), ('b', 'B'), ('t', 'BOOL'), ('z', 'NULL'), ('ss', 'SS'),
             ('ns', 'NS'), ('bs', 'BS'), ('l', 'L'), ('m', 'M'), ('m', 'L'), ('n', 'S')) v(a, t);
SELECT matching('attribute_type(s, :t)', NULL, '{":t": {"S": "STRING"}}');
SELECT matching('attribute_type(s, :t)', NULL, '{":t": {"N": "1"}}');

-- begins_with: S and B byte prefixes
SELECT matching('begins_with(s, :p)', NULL, '{":p": {"S": "hé"}}');
SELECT matching('begins_with(s, :p)', NULL, '{":p": {"S": ""}}');
SELECT matching('begins_with(b, :p)', NULL, '{":p": {"B": "AAE="}}');
SELECT matching('begins_with(b, :p)', NULL, '{":p": {"S": "A"}}');
SELECT matching('begins_with(n, :p)', NULL, '{":p": {"S": "1"}}');
SELECT matching('begins_with(pk, m.#n)', '{"#n": "name"}');
SELECT matching('begins_with(n, :p)', NULL, '{":p": {"N": "1"}}');

-- contains: substring of S or B, member of a set, element of an L
SELECT matching('contains(s, :v)', NULL, '{":v": {"S": "éll"}}');
SELECT matching('contains(s, :v)', NULL, '{":v": {"S": "x"}}');
SELECT matching('contains(ss, :v)', NULL, '{":v": {"S": "b"}}');
SELECT matching('contains(ss, :v)', NULL, '{":v": {"S": "c"}}');
SELECT matching('contains(ns, :v)', NULL, '{":v": {"N": "2.50"}}');
SELECT matching('contains(ns, :v)', NULL, '{":v": {"S": "1"}}');
SELECT matching('contains(bs, :v)', NULL, '{":v": {"B": "/w=="}}');
SELECT matching('contains(b, :v)', NULL, '{":v": {"B": "AQI="}}');
SELECT matching('contains(l, :v)', NULL, '{":v": {"S": "x"}}');
SELECT matching('contains(l, :v)', NULL, '{":v": {"N": "2"}}');
SELECT matching('contains(l, :v)', NULL, '{":v": {"B": "AAE="}}');
SELECT matching('contains(l, :v)', NULL, '{":v": {"M": {"k": {"S": "v"}}}}');
SELECT matching('contains(n, :v)', NULL, '{":v": {"N": "10"}}');
SELECT matching('contains(m, :v)', NULL, '{":v": {"S": "a"}}');
SELECT matching('contains(pk, m.#n)', '{"#n": "name"}');

-- size: UTF-16 code units of S (héllo: 5), bytes of B, elements of sets and L,
-- entries of M; none for N, BOOL, NULL
SELECT a, (SELECT array_agg(k ORDER BY k) FROM generate_series(0, 8) k
           WHERE hroe.condition_matches((SELECT item FROM it WHERE id = 1), 'size(' || a || ') = :k', NULL,
                 jsonb_build_object(':k', jsonb_build_object('N', k::text)))) sizes
FROM unnest(ARRAY['s', 'b', 'ss', 'ns', 'bs', 'l', 'm', 'm.e', 'n', 't', 'z', 'nope']) a;
SELECT matching('size(s) > size(ss) AND size(l) BETWEEN :a AND :b', NULL, '{":a": {"N": "4"}, ":b": {"N": "4"}}');
SELECT matching('size(l) IN (:a)', NULL, '{":a": {"N": "4"}}');

-- a missing item (NULL): every path absent
SELECT hroe.condition_matches(NULL, 'attribute_not_exists(pk)'),
       hroe.condition_matches(NULL, 'attribute_exists(pk)'),
       hroe.condition_matches(NULL, 'pk = :v', NULL, '{":v": {"S": "x"}}'),
       hroe.condition_matches(NULL, 'pk <> :v', NULL, '{":v": {"S": "x"}}'),
       hroe.condition_matches(NULL, 'NOT contains(pk, :v)', NULL, '{":v": {"S": "x"}}');
-- no condition at all is no restriction
SELECT hroe.condition_matches(NULL, NULL);
SELECT hroe.condition_matches(NULL, NULL, NULL, '{":v": {"S": "x"}}');
SELECT hroe.condition_matches(NULL, NULL, '{"#a": "x"}');
-- an empty item
SELECT hroe.condition_matches('{}', 'attribute_not_exists(a) AND size(a) <> :v', NULL, '{":v": {"N": "0"}}');

-- reserved words need #names (E15); keywords are case-insensitive, function names are not
SELECT matching('size = :v', NULL, '{":v": {"N": "1"}}');
SELECT matching('m.name = :v', NULL, '{":v": {"S": "inner"}}');
SELECT matching('m.#n = :v', '{"#n": "name"}', '{":v": {"S": "inner"}}');
SELECT matching('n = :v Or n = :w AnD nOt n = :w', NULL, '{":v": {"N": "6"}, ":w": {"N": "10"}}');
SELECT matching('Attribute_Exists(n)');
-- undefined placeholders (E15), unused ones (E16)
SELECT matching('n = :nope', NULL, '{":v": {"N": "1"}}');
SELECT matching('#nope = :v', '{"#n": "n"}', '{":v": {"N": "1"}}');
SELECT matching('n = :v', NULL, '{":v": {"N": "1"}, ":w": {"N": "1"}}');
SELECT matching('n = :v', '{"#n": "n"}', '{":v": {"N": "1"}}');
-- placeholders: at most 255 bytes, well-formed, maps not empty
SELECT matching('n = :' || repeat('v', 254), NULL, jsonb_build_object(':' || repeat('v', 254), '{"N": "10"}'::jsonb));
SELECT matching('n = :' || repeat('v', 255), NULL, jsonb_build_object(':' || repeat('v', 255), '{"N": "10"}'::jsonb));
SELECT matching('n = :v', '{"#a-b": "x"}', '{":v": {"N": "1"}}');
SELECT matching('n = :v', '{}', '{":v": {"N": "1"}}');
SELECT matching('n = :v', NULL, '{":v": {"N": "1e126"}}');
SELECT matching('n = :v', NULL, '{":v": {"N": "1.00000000000000000000000000000000000001"}}');
SELECT matching('n = :v', NULL, '{":v": {"NS": ["1", "1.0"]}}');
-- syntax errors
SELECT matching('n = ');
SELECT matching('n == :v', NULL, '{":v": {"N": "1"}}');
SELECT matching('n = :v +', NULL, '{":v": {"N": "1"}}');
SELECT matching('a.b.', NULL, NULL);
SELECT matching('(n = :v', NULL, '{":v": {"N": "1"}}');
SELECT matching('n IN ()', NULL, NULL);
SELECT matching('l[-1] = :v', NULL, '{":v": {"N": "1"}}');
-- semantic errors
SELECT matching('((n = :v))', NULL, '{":v": {"N": "1"}}');
SELECT matching('nope(n)');
SELECT matching('size(n)');
SELECT matching('attribute_exists(n) = :v', NULL, '{":v": {"BOOL": true}}');
SELECT matching('n = n');
SELECT matching('contains(s)');
SELECT matching('attribute_exists(:v)', NULL, '{":v": {"N": "1"}}');
SELECT matching('size(:v) > n', NULL, '{":v": {"N": "1"}}');
SELECT matching('n BETWEEN :b AND :a', NULL, '{":a": {"N": "1"}, ":b": {"N": "2"}}');
-- limits: 4 KB, 300 operators; empty
SELECT matching('n = :v AND s = ' || repeat('x', 4096 - 15), NULL, '{":v": {"N": "1"}}');
SELECT matching('n = :v AND s = ' || repeat('x', 4096 - 14), NULL, '{":v": {"N": "1"}}');
SELECT matching((SELECT string_agg('n = :v', ' OR ') FROM generate_series(1, 150)), NULL, '{":v": {"N": "6"}}');
SELECT matching((SELECT string_agg('n = :v', ' OR ') FROM generate_series(1, 151)), NULL, '{":v": {"N": "6"}}');
SELECT matching('');
-- deep nesting is refused without crashing
SELECT matching(repeat('NOT (', 500) || 'n = :v' || repeat(')', 500), NULL, '{":v": {"N": "6"}}');
SELECT matching(repeat('NOT (', 299) || 'n = :v' || repeat(')', 299), NULL, '{":v": {"N": "6"}}');
SELECT matching(repeat('(', 100) || 'n = :v' || repeat(')', 100), NULL, '{":v": {"N": "6"}}');

-- one call site, expressions and values changing from row to row (the parse is cached per call site)
SELECT x.k, i.id, hroe.condition_matches(i.item, x.e, NULL, x.v)
FROM it i, (VALUES (1, 'n = :v', '{":v": {"N": "10"}}'::jsonb), (2, 'n = :v', '{":v": {"N": "6"}}'),
                   (3, 'attribute_exists(l)', NULL), (4, 'n = :v', '{":v": {"N": "6"}}')) x(k, e, v)
ORDER BY x.k, i.id;
SELECT i.id, hroe.apply_update(i.item, 'SET n = n + :v', NULL, jsonb_build_object(':v', jsonb_build_object('N', i.id::text)))
FROM it i WHERE i.id < 3 ORDER BY i.id;
SELECT i.id, hroe.project(i.item, CASE WHEN i.id = 1 THEN 'pk, n' ELSE 's' END) FROM it i ORDER BY i.id;

-- a conditional write's check: E22 when the condition fails (SQLSTATE HR002)
SELECT hroe.check_condition(item, 'n = :v', NULL, '{":v": {"N": "10"}}') FROM it WHERE id = 1;
SELECT hroe.check_condition(item, 'n = :v', NULL, '{":v": {"N": "11"}}') FROM it WHERE id = 1;
SELECT hroe.check_condition(NULL, 'attribute_not_exists(pk)');
SELECT hroe.check_condition(NULL, 'attribute_exists(pk)');
SELECT hroe.check_condition(NULL, NULL);
\set VERBOSITY default
DO $$
BEGIN
	PERFORM hroe.check_condition('{"pk": {"S": "a"}}', 'attribute_not_exists(pk)');
EXCEPTION WHEN SQLSTATE 'HR002' THEN
	RAISE NOTICE 'caught %: %', SQLSTATE, SQLERRM;
END $$;
\set VERBOSITY terse
