--
-- dynalite's conformance cases (architect/dynalite, whose tests were
-- recorded against DynamoDB) ported to items: test/updateItem.js's
-- UpdateExpression cases on hroe.apply_update, and test/scan.js's filter
-- cases on hroe.condition_matches; every case with its expected message,
-- item or matches, one row each.
--
CREATE FUNCTION try_update(item hroe.item, expr text, names jsonb DEFAULT NULL,
                           vals jsonb DEFAULT NULL, keys text[] DEFAULT NULL)
RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	RETURN hroe.apply_update(item, expr, names, vals, keys)::text;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLERRM;
END $$;

-- syntax errors: every one must be reported as one
SELECT e, left(try_update(NULL, e), 52) AS error FROM unnest(ARRAY[
  'whatever', 'set a', 'add a', 'delete a', 'set a=set', 'remove a = b', 'add a = b', 'delete a = b',
  'delete a b', 'delete a if_not_exist(b)', 'add abort b', 'add a if_not_exist(b)', 'remove a b',
  'set a b', 'set :a = b', 'add :a b', 'delete :a b', 'remove :a', 'set a = b / c', 'set a = b * c',
  'set a[1] = "eight"', 'set a[1] = 1', 'SET a = if_not_exist(a, 100)', 'SET if_not_exist(a, b) = a',
  'set (a = (b + c))', 'set a = (b.c).d + e', 'set a = (b.c)[0] + e', 'set a = b + c + d']) e;

-- reserved words, unknown functions, repeated sections, undefined placeholders
SELECT e, try_update(NULL, e, '{"#a": "a", "#b": "b"}', '{":a": {"S": "a"}, ":b": {"S": "a"}}') AS error
FROM unnest(ARRAY[' set #c = :c set abOrt = true ', ' remove Absolute ', 'set #c = if_not_exist(:c) set c = d',
                  'set a = #c set c = :d', 'remove #d set a = b remove e', 'add #d :e set a = b add e :f',
                  'delete #d :e set a = b delete #e :f', 'SET #c = if_not_exists(:c)', 'SET #a = if_not_exists(:c)']) e;

-- overlapping and conflicting paths (the first overlap wins over conflicts and function errors)
SELECT e, try_update(NULL, e, '{"#c": "c", "#d": "[3]"}') AS error
FROM unnest(ARRAY['set d[1] = a, d.b = a, c[1].a = a, #c = if_not_exists(a)', 'set #c[3].#d = a, #c[3] = a',
                  'set #c[3].#d = a, #c.#d[3] = if_not_exists(a)']) e;
SELECT try_update(NULL, 'remove a.#c set a[1] = #d', '{"#c": "c", "#d": "[3]"}') AS error;

-- ADD and DELETE literal types
SELECT e, v, try_update(NULL, e, NULL, jsonb_build_object(':a', v::jsonb, ':b', '{"S": "a"}'::jsonb)) AS error
FROM (VALUES ('set b = list_append(:a, a), c = if_not_exists(a) add a.b :a', '{"S": "a"}'),
             ('delete a.b :a', '{"S": "a"}'), ('add a.b :a', '{"NULL": true}'), ('delete a.b :a', '{"NULL": true}'),
             ('add a.b :a', '{"BOOL": false}'), ('delete a.b :a', '{"BOOL": false}'),
             ('add a.b :a', '{"B": "YQ=="}'), ('delete a.b :a', '{"B": "YQ=="}'),
             ('add a.b :a', '{"M": {"a": {"L": [{"N": "1"}]}}}'), ('delete a.b :a', '{"M": {"a": {"L": [{"N": "1"}]}}}'),
             ('add a.b :a', '{"L": [{"N": "1"}]}'), ('delete a.b :a', '{"L": [{"N": "1"}]}'),
             ('delete a.b :a', '{"N": "1"}')) x(e, v);

-- function operands: count, document path, types
SELECT e, try_update(NULL, e, '{"#a": "a", "#b": "b"}', '{":a": {"S": "a"}, ":b": {"S": "a"}}') AS error
FROM unnest(ARRAY['set a = if_not_exists(c)', 'set a = list_append(c)', 'set a = if_not_exists(:a, c)',
                  'set a = if_not_exists(if_not_exists(a, b), c)']) e;
SELECT e, try_update(NULL, e, NULL,
	'{":a": {"S": "a"}, ":b": {"N": "1"}, ":c": {"B": "YQ=="}, ":d": {"BOOL": false}, ":e": {"NULL": true},
	  ":f": {"SS": ["a"]}, ":g": {"NS": ["1"]}, ":h": {"BS": ["YQ=="]}, ":i": {"M": {}}, ":j": {"L": []}}') AS error
FROM unnest(ARRAY['set a = list_append(:a, a)', 'set a = list_append(a, :b)', 'set a = list_append(:c, a)',
                  'set a = list_append(:d, a)', 'set a = list_append(:e, a)', 'set a = list_append(:f, a)',
                  'set a = list_append(:g, a)', 'set a = list_append(:h, a)', 'set a = list_append(:i, a)',
                  'set a = a + :a', 'set a = :a + :c', 'set a = :c + a', 'set a = a + :d', 'set a = a + :e',
                  'set a = a + :f', 'set a = a + :g', 'set a = a + :h', 'set a = a + :i', 'set a = a + :j',
                  'set a = a - :a', 'set a = :a - :c', 'set a = :c - a', 'set a = a - :d', 'set a = a - :e',
                  'set a = a - :f', 'set a = a - :g', 'set a = a - :h', 'set a = a - :i', 'set a = a - :j']) e;

-- unused placeholders (E16)
SELECT try_update(NULL, 'remove a set b = list_append(b, if_not_exists(a, :a))', '{"#a": "a", "#b": "b"}', '{":a": {"S": "a"}}');
SELECT try_update(NULL, 'remove a', NULL, '{":a": {"S": "a"}, ":c": {"S": "a"}}');

-- key attributes (E18): hash key a, then range key b
SELECT e, try_update('{"a": {"S": "k"}}', e, NULL, v::jsonb, '{a}') AS error
FROM (VALUES ('add a.b :a', '{":a": {"N": "1"}}'), ('delete a :a', '{":a": {"NS": ["1"]}}'),
             ('remove d set b = :a, a = :a', '{":a": {"N": "1"}}'), ('delete b :a remove a', '{":a": {"NS": ["1"]}}'),
             ('set a = a.b + a[1]', NULL)) x(e, v);
SELECT try_update('{"a": {"S": "k"}, "b": {"S": "r"}}', 'set d[1] = :a add b.b :a', NULL, '{":a": {"N": "1"}}', '{a,b}');

-- stored types that do not fit (E20): b = {"a": SS}, c = N, d = NS
SELECT e, try_update('{"a": {"S": "k"}, "b": {"M": {"a": {"SS": ["1"]}}}, "c": {"N": "1"}, "d": {"NS": ["1"]}}', e, NULL, v::jsonb, '{a}') AS error
FROM (VALUES ('delete d :a', '{":a": {"SS": ["1"]}}'), ('delete b :a', '{":a": {"NS": ["1"]}}'),
             ('delete b.a :a', '{":a": {"NS": ["1"]}}'), ('delete b.a :a', '{":a": {"BS": ["YQ=="]}}'),
             ('delete c :a', '{":a": {"NS": ["1"]}}'), ('add b :a', '{":a": {"NS": ["1"]}}'),
             ('add d :a', '{":a": {"N": "1"}}'), ('set e = a + :a', '{":a": {"N": "1"}}'),
             ('set e = b - :a', '{":a": {"N": "1"}}'), ('set e = list_append(d, if_not_exists(f, :a))', '{":a": {"L": []}}')) x(e, v);

-- missing attributes (E21), on a new item and on an existing one: b = S, c = M {"1": S}, d = L [S, S]
SELECT e, try_update('{"a": {"S": "k"}}', e, NULL, NULL, '{a}') AS error
FROM unnest(ARRAY['set c = b', 'set e = list_append(b, c)', 'set b.a = a', 'set b[1] = a']) e;
SELECT e, try_update('{"a": {"S": "k"}, "b": {"S": "k"}, "c": {"M": {"1": {"S": "a"}}}, "d": {"L": [{"S": "a"}, {"S": "b"}]}}',
                     e, '{"#1": "1"}', '{":a": {"SS": ["a"]}}', '{a}') AS error
FROM unnest(ARRAY['set b.a = :a, #1 = :a', 'set b[1] = :a, #1 = :a', 'set y.a = :a, #1 = :a', 'set y[1] = :a, #1 = :a',
                  'set c[1] = :a, #1 = :a', 'set d.#1 = :a', 'remove b.a set #1 = :a', 'remove b[1] set #1 = :a',
                  'remove y.a set #1 = :a', 'remove y[1] set #1 = :a', 'remove c[1] set #1 = :a', 'remove d.#1 set #1 = :a',
                  'delete b.a :a set #1 = :a', 'delete b[1] :a set #1 = :a', 'delete y.a :a set #1 = :a',
                  'delete y[1] :a set #1 = :a', 'delete c[1] :a set #1 = :a', 'delete d.#1 :a',
                  'add b.a :a set #1 = :a', 'add b[1] :a set #1 = :a', 'add y.a :a set #1 = :a', 'add y[1] :a set #1 = :a',
                  'add c[1] :a set #1 = :a', 'add d.#1 :a']) e;

-- functionality
-- ADD, DELETE, REMOVE, SET on an item with nothing but its key, written two ways
SELECT e, try_update('{"a": {"S": "k"}}', e,
	CASE WHEN e LIKE '%#%' THEN '{"#b": "b", "#c": "c", "#d": "d", "#e": "e", "#f": "f"}'::jsonb END,
	'{":c": {"SS": ["a", "b"]}, ":d": {"N": "5"}, ":e": {"SS": ["a", "b"]}, ":f": {"L": [{"S": "a"}, {"N": "1"}]}}', '{a}') AS result
FROM unnest(ARRAY['REMOVE b DELETE c :c ADD d :d, e :e SET f = :f', 'ADD #e :e,#d :d DELETE #c :c REMOVE #b SET #f = :f']) e;
-- values from other attributes; nested attributes (list elements past the end append in index order)
SELECT try_update('{"a": {"S": "k"}}', 'set b = if_not_exists(b, a)', NULL, NULL, '{a}');
SELECT try_update('{"a": {"S": "k"}, "b": {"M": {"a": {"N": "1"}, "b": {"N": "2"}, "c": {"N": "3"}}}, "c": {"L": [{"N": "1"}, {"N": "3"}]}}',
	'set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a', NULL,
	'{":a": {"N": "2"}, ":b": {"SS": ["a"]}}', '{a}');
-- ADD to numbers and sets; DELETE from sets (duplicates thrown away)
SELECT try_update('{"a": {"S": "k"}, "b": {"N": "1"}}', 'add b :b', NULL, '{":b": {"N": "3"}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"SS": ["a", "b"]}}', 'add b :b', NULL, '{":b": {"SS": ["c", "d", "a"]}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"NS": ["1", "2"]}}', 'add b :b', NULL, '{":b": {"NS": ["2.0", "3"]}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"BS": ["AQ==", "Ag=="]}}', 'add b :b', NULL, '{":b": {"BS": ["Ag==", "Aw=="]}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"SS": ["a", "b"]}, "c": {"S": "a"}}', 'delete b :b', NULL, '{":b": {"SS": ["a", "b", "x"]}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"NS": ["1", "2", "3"]}}', 'delete b :b', NULL, '{":b": {"NS": ["2", "4"]}}');
SELECT try_update('{"a": {"S": "k"}, "b": {"L": [{"S": "a"}, {"N": "1"}]}}', 'set b = list_append(b, :b)', NULL, '{":b": {"L": [{"S": "b"}, {"N": "2"}]}}');

-- dynalite's scan filter cases (test/scan.js, "should scan by ..."): each
-- case's items (attribute b, c = "c"; null: no b) and the ones DynamoDB
-- returns.  Items with U+0000 in a string are left out (the cases are jsonb,
-- which refuses U+0000; sql/api_nul.sql compares such strings).
CREATE TEMP TABLE scan_case (name text, expr text, vals jsonb, bs jsonb, expected int[]);
INSERT INTO scan_case VALUES
  ('NE on different types', 'b <> :b AND c = :c', '{":b": {"S": "1234"}, ":c": {"S": "c"}}', '[{"S": "1234"}, {"N": "1234"}, {"B": "MTIzNA=="}]', '{2,3}'),
  ('NE on type SS', 'b <> :b AND c = :c', '{":b": {"SS": ["b", "a"]}, ":c": {"S": "c"}}', '[{"SS": ["a", "b"]}, {"SS": ["a", "b"]}, {"SS": ["a", "b", "c"]}]', '{3}'),
  ('NE on type NS', 'b <> :b AND c = :c', '{":b": {"NS": ["2", "1"]}, ":c": {"S": "c"}}', '[{"NS": ["1", "2"]}, {"NS": ["1", "2"]}, {"NS": ["3", "2", "1"]}]', '{3}'),
  ('NE on type BS', 'b <> :b AND c = :c', '{":b": {"BS": ["abcd", "Yg=="]}, ":c": {"S": "c"}}', '[{"BS": ["Yg==", "abcd"]}, {"BS": ["Yg==", "abcd"]}, {"BS": ["Yg==", "abcd", "1234"]}]', '{3}'),
  ('LE on type S', 'b <= :b AND c = :c', '{":b": {"S": "abd"}, ":c": {"S": "c"}}', '[{"S": "abd"}, {"S": "abcÿ"}, {"S": "abc"}, {"S": "ab"}]', '{1,2,3,4}'),
  ('LE on type N with decimals', 'b <= :b AND c = :c', '{":b": {"N": "2"}, ":c": {"S": "c"}}', '[{"N": "2"}, {"N": "1.9999"}, {"N": "1"}, {"N": "2.00000001"}, {"N": "-0.5"}]', '{1,2,3,5}'),
  ('LE on type N without decimals', 'b <= :b AND c = :c', '{":b": {"N": "2"}, ":c": {"S": "c"}}', '[{"N": "2"}, {"N": "19999"}, {"N": "1"}, {"N": "200000001"}, {"N": "-5"}]', '{1,3,5}'),
  ('LE on type B', 'b <= :b AND c = :c', '{":b": {"B": "0A=="}, ":c": {"S": "c"}}', '[{"B": "zg=="}, {"B": "0A=="}, {"B": "zw=="}, {"B": "0AA="}, {"B": "z/8="}]', '{1,2,3,5}'),
  ('LT on type S', 'b < :b AND c = :c', '{":b": {"S": "abd"}, ":c": {"S": "c"}}', '[{"S": "abd"}, {"S": "abcÿ"}, {"S": "abc"}, {"S": "ab"}]', '{2,3,4}'),
  ('LT on type N', 'b < :b AND c = :c', '{":b": {"N": "2"}, ":c": {"S": "c"}}', '[{"N": "2"}, {"N": "1.9999"}, {"N": "1"}, {"N": "2.00000001"}, {"N": "-0.5"}]', '{2,3,5}'),
  ('LT on type B', 'b < :b AND c = :c', '{":b": {"B": "0A=="}, ":c": {"S": "c"}}', '[{"B": "zg=="}, {"B": "0A=="}, {"B": "zw=="}, {"B": "0AA="}, {"B": "z/8="}]', '{1,3,5}'),
  ('GE on type S', 'b >= :b AND c = :c', '{":b": {"S": "abc"}, ":c": {"S": "c"}}', '[{"S": "abd"}, {"S": "abcÿ"}, {"S": "abc"}, {"S": "ab"}]', '{1,2,3}'),
  ('GE on type N', 'b >= :b AND c = :c', '{":b": {"N": "1.9999"}, ":c": {"S": "c"}}', '[{"N": "2"}, {"N": "1.9999"}, {"N": "1"}, {"N": "2.00000001"}, {"N": "-0.5"}]', '{1,2,4}'),
  ('NOT_NULL', 'attribute_exists(b) AND c = :c', '{":c": {"S": "c"}}', '[{"S": "x"}, {"S": "y"}, null]', '{1,2}'),
  ('NULL', 'attribute_not_exists(b) AND c = :c', '{":c": {"S": "c"}}', '[null, null, {"S": "y"}]', '{1,2}'),
  ('CONTAINS on type S', 'contains(b, :b) AND c = :c', '{":b": {"S": "bde"}, ":c": {"S": "c"}}', '[{"S": "abdef"}, {"SS": ["abd", "bde"]}, {"B": "YWJkZWY="}, {"BS": ["abcd", "YmRl"]}, {"S": "bde"}, {"S": "abd"}, {"L": [{"N": "123"}, {"S": "bde"}]}, {"L": [{"S": "abd"}]}, {"L": [{"S": "abde"}]}]', '{1,2,5,7}'),
  ('CONTAINS on type N', 'contains(b, :b) AND c = :c', '{":b": {"N": "234"}, ":c": {"S": "c"}}', '[{"N": "1234"}, {"NS": ["123", "234"]}, {"B": "MTIzNA=="}, {"BS": ["MjM0"]}, {"SS": ["234"]}, {"L": [{"S": "abd"}, {"N": "234"}]}, {"L": [{"N": "123"}]}, {"L": [{"N": "1234"}]}]', '{2,6}'),
  ('CONTAINS on type B', 'contains(b, :b) AND c = :c', '{":b": {"B": "YmRl"}, ":c": {"S": "c"}}', '[{"S": "abdef"}, {"SS": ["abd", "bde"]}, {"B": "YWJkZWY="}, {"BS": ["YmRl", "abcd"]}, {"B": "YmRl"}, {"S": "abd"}, {"L": [{"N": "123"}, {"B": "YmRl"}]}, {"L": [{"B": "YWJk"}]}, {"L": [{"B": "YWJkZQ=="}]}]', '{3,4,5,7}'),
  ('NOT_CONTAINS on type S', 'NOT contains(b, :b) AND c = :c', '{":b": {"S": "bde"}, ":c": {"S": "c"}}', '[{"S": "abdef"}, {"SS": ["abd", "bde"]}, {"B": "YWJkZWY="}, {"BS": ["YmRl", "abcd"]}, {"S": "bde"}, {"S": "abd"}]', '{3,4,6}'),
  ('NOT_CONTAINS on type N', 'NOT contains(b, :b) AND c = :c', '{":b": {"N": "234"}, ":c": {"S": "c"}}', '[{"N": "1234"}, {"NS": ["123", "234"]}, {"B": "MTIzNA=="}, {"BS": ["MjM0"]}, {"SS": ["234"]}]', '{1,3,4,5}'),
  ('NOT_CONTAINS on type B', 'NOT contains(b, :b) AND c = :c', '{":b": {"B": "YmRl"}, ":c": {"S": "c"}}', '[{"S": "abdef"}, {"SS": ["abd", "bde"]}, {"B": "YWJkZWY="}, {"BS": ["YmRl", "abcd"]}, {"B": "YmRl"}, {"S": "abd"}]', '{1,2,6}'),
  ('BEGINS_WITH on type S', 'begins_with(b, :b) AND c = :c', '{":b": {"S": "abd"}, ":c": {"S": "c"}}', '[{"S": "abdef"}, {"SS": ["abd", "bde"]}, {"B": "YWJkZWY="}, {"S": "ab"}, {"S": "abd"}]', '{1,5}');
SELECT name, expr, expected,
       (SELECT coalesce(array_agg(i::int ORDER BY i), '{}')
        FROM jsonb_array_elements(bs) WITH ORDINALITY AS e(b, i)
        WHERE hroe.condition_matches(
                (CASE WHEN b = 'null' THEN '{"c": {"S": "c"}}'::jsonb
                      ELSE jsonb_build_object('b', b, 'c', '{"S": "c"}'::jsonb) END)::hroe.item,
                expr, NULL, vals)) AS matched
FROM scan_case ORDER BY name;

-- ReturnValues UPDATED_OLD / UPDATED_NEW: the touched paths of the old and the new item
WITH u(old, expr, vals) AS (
	VALUES ('{"a": {"S": "k"}, "b": {"M": {"a": {"N": "1"}, "b": {"N": "2"}, "c": {"N": "3"}}}, "c": {"L": [{"N": "1"}, {"N": "3"}]}}'::hroe.item,
	        'set b.c=((c[1])+(b.a)),b.a = a,c[1] = a, c[4] = b.a - b.b, c[2] = b.c add c[8] :b, c[6] :a',
	        '{":a": {"N": "2"}, ":b": {"SS": ["a"]}}'::jsonb))
SELECT hroe.updated_attributes(old, expr, NULL, vals) AS updated_old,
       hroe.updated_attributes(hroe.apply_update(old, expr, NULL, vals), expr, NULL, vals) AS updated_new
FROM u;
SELECT hroe.updated_attributes('{"a": {"S": "k"}, "b": {"S": "a"}, "c": {"S": "a"}}', 'set b=:b,c=:c', NULL,
	'{":b": {"S": "b"}, ":c": {"S": "a"}}') AS updated_old;
SELECT hroe.updated_attributes('{"a": {"S": "k"}, "b": {"M": {"a": {"S": "a"}, "b": {"L": []}}}, "c": {"N": "1"}}',
	'set b = :b add c :c', NULL, '{":b": {"M": {"a": {"S": "b"}, "b": {"L": []}}}, ":c": {"N": "1"}}') AS updated_old;
