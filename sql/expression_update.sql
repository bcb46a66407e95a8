--
-- UpdateExpression applied to hroe.item (hroe.apply_update;
-- doc/dynamodb-rules.md, Expressions, Writes and Errors)
--
\set VERBOSITY terse

CREATE TEMP TABLE base AS SELECT
 '{"pk": {"S": "CUST#1"}, "sk": {"S": "ORDER#1"}, "n": {"N": "10"}, "s": {"S": "x"},
   "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]}, "bs": {"BS": ["AAE="]},
   "l": {"L": [{"S": "l0"}, {"S": "l1"}, {"S": "l2"}, {"S": "l3"}]},
   "m": {"M": {"a": {"M": {"b": {"N": "1"}}}, "c": {"L": [{"N": "0"}]}}}}'::hroe.item AS item;

CREATE FUNCTION upd(expr text, names jsonb DEFAULT NULL, vals jsonb DEFAULT NULL)
RETURNS hroe.item LANGUAGE sql AS
$$ SELECT hroe.apply_update(item, expr, names, vals, '{pk,sk}') FROM base $$;

-- SET: new and existing attributes, nested paths, #names, several actions
SELECT upd('SET s = :v, t = :v', NULL, '{":v": {"S": "new"}}');
SELECT upd('SET m.a.b = :v, m.#new = :w', '{"#new": "new"}', '{":v": {"BOOL": false}, ":w": {"NULL": true}}');
SELECT upd('SET #d = :v', '{"#d": "a.b"}', '{":v": {"N": "1"}}');
-- list elements: replace in place; past the end appends, in index order
SELECT upd('SET l[1] = :v', NULL, '{":v": {"S": "L1"}}');
SELECT upd('SET l[9] = :a, l[7] = :b', NULL, '{":a": {"S": "nine"}, ":b": {"S": "seven"}}');
SELECT upd('SET m.c[0] = :v', NULL, '{":v": {"M": {}}}');
-- arithmetic: exact, 38 digits, DynamoDB's range
SELECT upd('SET n = n + :v', NULL, '{":v": {"N": "0.5"}}');
SELECT upd('SET n = n - :v', NULL, '{":v": {"N": "10.000"}}');
SELECT upd('SET n = :v - n', NULL, '{":v": {"N": "-2.25"}}');
SELECT upd('SET x = :a + :b', NULL, '{":a": {"N": "99999999999999999999999999999999999999"}, ":b": {"N": "1"}}');
SELECT upd('SET x = :a - :b', NULL, '{":a": {"N": "1E-130"}, ":b": {"N": "1E-130"}}');
SELECT upd('SET x = :a + :b', NULL, '{":a": {"N": "0.1"}, ":b": {"N": "-0.3"}}');
SELECT upd('SET x = (:a + :b)', NULL, '{":a": {"N": "123456789012345678901234567890.12345678"}, ":b": {"N": "0.00000001"}}');
SELECT upd('SET x = :a + :b', NULL, '{":a": {"N": "1E30"}, ":b": {"N": "1E-30"}}');
SELECT upd('SET x = :a + :b', NULL, '{":a": {"N": "9.9999999999999999999999999999999999999E+125"}, ":b": {"N": "1E+89"}}');
SELECT upd('SET x = :a - :b', NULL, '{":a": {"N": "1E-130"}, ":b": {"N": "1.1E-130"}}');
-- if_not_exists and list_append
SELECT upd('SET n = if_not_exists(n, :v), c = if_not_exists(c, :v)', NULL, '{":v": {"N": "0"}}');
SELECT upd('SET c = if_not_exists(c, :z) + :one', NULL, '{":z": {"N": "0"}, ":one": {"N": "1"}}');
SELECT upd('SET l = list_append(l, :v)', NULL, '{":v": {"L": [{"N": "4"}]}}');
SELECT upd('SET l = list_append(:v, l)', NULL, '{":v": {"L": [{"N": "-1"}]}}');
SELECT upd('SET m.c = list_append(m.c, m.c), e = list_append(if_not_exists(e, :empty), :v)', NULL,
	'{":empty": {"L": []}, ":v": {"L": [{"S": "first"}]}}');
-- every SET value is computed from the item before the update
SELECT upd('SET n = s, s = n');
-- REMOVE: attributes, nested members; list indexes refer to the list before the update
SELECT upd('REMOVE s, m.a.b, nope');
SELECT upd('REMOVE l[0], l[2]');
SELECT upd('REMOVE l[1] SET l[3] = :v', NULL, '{":v": {"S": "L3"}}');
SELECT upd('REMOVE l[10], m.nope');
-- ADD: numbers (missing = 0) and set union
SELECT upd('ADD n :v, c :v', NULL, '{":v": {"N": "-3"}}');
SELECT upd('ADD ss :v, ns :w, bs :b', NULL, '{":v": {"SS": ["c", "a"]}, ":w": {"NS": ["3", "1.0"]}, ":b": {"BS": ["AAI=", "AAE="]}}');
SELECT upd('ADD newset :v', NULL, '{":v": {"SS": ["z"]}}');
SELECT upd('ADD m.a.c :v', NULL, '{":v": {"N": "1"}}');
-- DELETE: set difference; an empty result removes the attribute; a missing one is left alone
SELECT upd('DELETE ss :v, ns :w', NULL, '{":v": {"SS": ["a", "zzz"]}, ":w": {"NS": ["1", "2"]}}');
SELECT upd('DELETE nope :v', NULL, '{":v": {"SS": ["a"]}}');
-- all four sections, any order, keywords case-insensitive
SELECT upd('delete ss :d add n :one remove s set t = :one', NULL, '{":d": {"SS": ["b"]}, ":one": {"N": "1"}}');
-- a missing item (NULL) starts from no attributes: the upsert of UpdateItem
SELECT hroe.apply_update(NULL, 'SET a = :v ADD c :one, s :s', NULL, '{":v": {"S": "x"}, ":one": {"N": "1"}, ":s": {"NS": ["5"]}}');
SELECT hroe.apply_update(NULL, 'REMOVE a DELETE s :s', NULL, '{":s": {"NS": ["5"]}}');
SELECT hroe.apply_update('{"a": {"S": "x"}}', 'REMOVE a');
-- without key attributes any attribute may be set
SELECT hroe.apply_update('{"pk": {"S": "a"}}', 'SET pk = :v', NULL, '{":v": {"S": "b"}}');

-- E18: key attributes cannot be updated
SELECT upd('SET pk = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('REMOVE sk');
SELECT upd('SET #k.x = :v', '{"#k": "sk"}', '{":v": {"S": "x"}}');
-- E19: overlapping and conflicting paths
SELECT upd('SET a = :v REMOVE a', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET m.a = :v, m.a.b = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET #a = :v, a = :v', '{"#a": "a"}', '{":v": {"S": "x"}}');
SELECT upd('REMOVE l[1], l[1]');
SELECT upd('SET l[0] = :v REMOVE l.x', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET m.x = :v, m.y = :v, l[1] = :v, l[2] = :v', NULL, '{":v": {"S": "x"}}');
-- E20: operand types
SELECT upd('SET s = s + :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET x = :one - s', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET s = list_append(s, :l)', NULL, '{":l": {"L": []}}');
SELECT upd('ADD s :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('ADD ss :v', NULL, '{":v": {"NS": ["1"]}}');
SELECT upd('DELETE n :v', NULL, '{":v": {"NS": ["1"]}}');
SELECT upd('ADD n :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('ADD n :v', NULL, '{":v": {"L": []}}');
SELECT upd('DELETE ss :v', NULL, '{":v": {"N": "1"}}');
SELECT upd('DELETE ss :v', NULL, '{":v": {"M": {}}}');
SELECT upd('SET x = :s + :one', NULL, '{":s": {"S": "1"}, ":one": {"N": "1"}}');
SELECT upd('SET x = list_append(:l, :n)', NULL, '{":l": {"L": []}, ":n": {"N": "1"}}');
-- E21: missing attributes and invalid document paths
SELECT upd('SET x = nope + :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET x = nope');
SELECT upd('SET x = if_not_exists(nope, o2)');
SELECT upd('SET nope.x = :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET m.nope.x = :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET s[0] = :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET l.x = :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('SET l[7].x = :one', NULL, '{":one": {"N": "1"}}');
SELECT upd('REMOVE nope.x');
SELECT upd('ADD m.nope.x :one', NULL, '{":one": {"N": "1"}}');
-- E9: arithmetic beyond DynamoDB's numbers
SELECT upd('SET x = :a + :b', NULL, '{":a": {"N": "99999999999999999999999999999999999999"}, ":b": {"N": "0.1"}}');
SELECT upd('SET x = :a + :a', NULL, '{":a": {"N": "9E+125"}}');
SELECT upd('SET x = :a - :b', NULL, '{":a": {"N": "-9E+125"}, ":b": {"N": "9E+125"}}');
-- E10: 400 KB after the update (UpdateItem's text); nesting at most 32 levels
SELECT hroe.item_size(hroe.apply_update('{"a": {"S": ""}}', 'SET b = :v', NULL,
	jsonb_build_object(':v', jsonb_build_object('S', repeat('x', 409600 - 2)))));
SELECT hroe.apply_update('{"a": {"S": "x"}}', 'SET b = :v', NULL,
	jsonb_build_object(':v', jsonb_build_object('S', repeat('x', 409600 - 2))));
SELECT hroe.item_size(hroe.apply_update(hroe.apply_update('{}', 'SET b = :v', NULL,
	jsonb_build_object(':v', jsonb_build_object('S', repeat('x', 300000)))), 'SET c = b'));
SELECT hroe.apply_update(jsonb_build_object('b', jsonb_build_object('L', jsonb_build_array(jsonb_build_object('S', repeat('x', 250000)))))::hroe.item,
	'SET c = list_append(b, b)');
SELECT hroe.apply_update(jsonb_build_object('s', jsonb_build_object('SS', jsonb_build_array(repeat('a', 250000))))::hroe.item,
	'ADD s :v', NULL, jsonb_build_object(':v', jsonb_build_object('SS', jsonb_build_array(repeat('b', 250000)))));
SELECT hroe.apply_update(('{"a": ' || repeat('{"M": {"a": ', 31) || '{"N": "1"}' || repeat('}}', 31) || '}')::hroe.item,
	'SET a' || repeat('.a', 30) || ' = :v', NULL, '{":v": {"L": []}}') IS NOT NULL;
SELECT hroe.apply_update(('{"a": ' || repeat('{"M": {"a": ', 31) || '{"N": "1"}' || repeat('}}', 31) || '}')::hroe.item,
	'SET a' || repeat('.a', 30) || ' = :v', NULL, '{":v": {"L": [{"L": [{"L": []}]}]}}');

-- parse errors: syntax, sections, functions, placeholders, reserved words
SELECT upd('SET');
SELECT upd('s = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = :v,', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = :a + :b + :c', NULL, '{":a": {"N": "1"}, ":b": {"N": "1"}, ":c": {"N": "1"}}');
SELECT upd('SET s = (:a) + :b', NULL, '{":a": {"N": "1"}, ":b": {"N": "1"}}');
SELECT upd('ADD s', NULL, NULL);
SELECT upd('ADD s n', NULL, NULL);
SELECT upd('REMOVE s = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET set = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = :v SET t = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('REMOVE s remove t');
SELECT upd('SET s = size(t)');
SELECT upd('SET s = if_not_exists(:v, t)', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = if_not_exists(s)');
SELECT upd('SET s = list_append(t, :v)', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = If_Not_Exists(s, t)');
SELECT upd('SET name = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = :nope', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET #nope = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET s = :v', NULL, '{":v": {"S": "x"}, ":w": {"S": "x"}}');
SELECT upd('SET s = :v', '{"#a": "s"}', '{":v": {"S": "x"}}');
SELECT upd('');
SELECT upd('REMOVE ' || repeat('a', 4090));
SELECT upd('REMOVE ' || repeat('a', 4089));
-- priority: a reserved word before an unknown function before a repeated section
SELECT upd('SET a = nope(b) SET name = :v', NULL, '{":v": {"S": "x"}}');
SELECT upd('SET a = nope(b) SET c = :v', NULL, '{":v": {"S": "x"}}');
-- at most 300 operators
SELECT upd('REMOVE ' || (SELECT string_agg('a' || i, ', ') FROM generate_series(1, 300) i)) IS NOT NULL;
SELECT upd('REMOVE ' || (SELECT string_agg('a' || i, ', ') FROM generate_series(1, 301) i));
SELECT hroe.apply_update('{}', NULL);
