--
-- ProjectionExpression over hroe.item (hroe.project; doc/dynamodb-rules.md, Expressions)
--
\set VERBOSITY terse

CREATE TEMP TABLE base AS SELECT
 '{"pk": {"S": "a"}, "n": {"N": "1"}, "name": {"S": "x"},
   "l": {"L": [{"S": "l0"}, {"M": {"k": {"S": "v"}, "j": {"N": "2"}}}, {"S": "l2"}, {"S": "l3"}]},
   "m": {"M": {"a": {"M": {"b": {"N": "1"}, "c": {"N": "2"}}}, "d": {"SS": ["x"]}}}}'::hroe.item AS item;

-- top-level attributes; missing ones are left out
SELECT hroe.project(item, 'pk, n, nope') FROM base;
SELECT hroe.project(item, '#n', '{"#n": "name"}') FROM base;
-- nested paths keep their maps; several paths into one map merge
SELECT hroe.project(item, 'm.a.b, m.d') FROM base;
SELECT hroe.project(item, 'm.a.c, m.a.b') FROM base;
-- list elements close up, in index order, whatever the written order
SELECT hroe.project(item, 'l[3], l[0]') FROM base;
SELECT hroe.project(item, 'l[1].j, l[9], l[2]') FROM base;
SELECT hroe.project(item, 'l[1].k, l[1].j') FROM base;
-- nothing selected: an empty item; wrong container types select nothing
SELECT hroe.project(item, 'nope, m[0], l.k, n.x') FROM base;
-- whitespace and names with placeholders
SELECT hroe.project(item, E' m . #a . c ,\n\tl [ 2 ]', '{"#a": "a"}') FROM base;
-- NULL item: NULL; NULL projection: the whole item
SELECT hroe.project(NULL, 'pk') IS NULL;
SELECT hroe.project(item, NULL) OPERATOR(hroe.=) item FROM base;
SELECT hroe.project(item, NULL, '{"#a": "a"}') FROM base;

-- errors: E15 reserved words and undefined names, E16 unused names, E19 overlaps
SELECT hroe.project(item, 'pk, name') FROM base;
SELECT hroe.project(item, '#nope') FROM base;
SELECT hroe.project(item, 'pk', '{"#a": "a"}') FROM base;
SELECT hroe.project(item, 'm, m.a') FROM base;
SELECT hroe.project(item, 'm.a, #m', '{"#m": "m"}') FROM base;
SELECT hroe.project(item, 'l[1], l[1]') FROM base;
SELECT hroe.project(item, 'l[1], l.a') FROM base;
SELECT hroe.project(item, 'pk, name, #nope, m, m') FROM base;
-- syntax errors; values are not allowed; empty and too long
SELECT hroe.project(item, 'pk,') FROM base;
SELECT hroe.project(item, 'pk n') FROM base;
SELECT hroe.project(item, ':v') FROM base;
SELECT hroe.project(item, 'size(pk)') FROM base;
SELECT hroe.project(item, 'l[x]') FROM base;
SELECT hroe.project(item, '') FROM base;
SELECT hroe.project(item, repeat('a', 4097)) FROM base;
-- AND, OR, NOT, IN, BETWEEN are reserved words here, not operators
SELECT hroe.project(item, 'pk, and') FROM base;
