-- The JSON API's text entry (hroe.dynamodb_text: hroe-gateway's and the
-- in-server workers') writes GetItem's, Query's and Scan's answers straight
-- to text, one pass from the stored items, in the key order jsonb gives
-- (hroe.dynamodb reads that text back as jsonb).  Over random items of every
-- type (strings with escapes, control characters and characters beyond the
-- BMP, numbers at DynamoDB's edges, binaries, sets, lists and maps nested to
-- 32 levels, names whose order by length differs from their order by bytes, a
-- 400 KB item), page by page: the text is jsonb's own text of it (the order
-- and the escapes), and the items it holds, read by PostgreSQL's jsonb input,
-- are the table's rows as hroe.item's jsonb cast writes them (another writer:
-- a wrong or missing value fails there).
SET client_min_messages = warning;
SELECT setseed(0.35);

-- random strings: ASCII, quotes and backslashes, control characters, Latin-1,
-- the BMP (no surrogates), and beyond it (surrogate pairs in JSON's \u form)
CREATE FUNCTION pg_temp.rstr(maxlen int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  s text := '';
  n int := 1 + floor(random() * maxlen)::int;
  r float8;
BEGIN
  FOR i IN 1..n LOOP
    r := random();
    s := s || CASE
      WHEN r < 0.55 THEN chr(32 + floor(random() * 95)::int)
      WHEN r < 0.62 THEN (ARRAY['"', '\', '/', '\u'])[1 + floor(random() * 4)::int]
      WHEN r < 0.70 THEN chr(1 + floor(random() * 31)::int)
      WHEN r < 0.75 THEN chr(127 + floor(random() * 129)::int)
      WHEN r < 0.88 THEN chr(256 + floor(random() * (55296 - 256))::int)
      WHEN r < 0.92 THEN chr(57344 + floor(random() * (65534 - 57344))::int)
      ELSE chr(65536 + floor(random() * 1048575)::int)
    END;
  END LOOP;
  RETURN s;
END $$;

-- random numbers: DynamoDB's edges, integers, and decimals of up to 38 digits
CREATE FUNCTION pg_temp.rnum() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  edges text[] := ARRAY['0', '-0', '1', '-1', '9.9999999999999999999999999999999999999E+125',
    '-9.9999999999999999999999999999999999999E+125', '1E-130', '-1E-130',
    '99999999999999999999999999999999999999', '0.00000000000000000000000000000000000001',
    '1.5e3', '100', '-0.5', '12345678901234567890123456789012345678E-160'];
  d text := '';
BEGIN
  IF random() < 0.3 THEN
    RETURN edges[1 + floor(random() * array_length(edges, 1))::int];
  END IF;
  FOR i IN 1..(1 + floor(random() * 38)::int) LOOP
    d := d || floor(random() * 10)::int;
  END LOOP;
  RETURN CASE WHEN random() < 0.3 THEN '-' ELSE '' END || d ||
    CASE WHEN random() < 0.5 THEN 'E' || (floor(random() * 160)::int - 80) ELSE '' END;
END $$;

-- random bytes, base64
CREATE FUNCTION pg_temp.rbin() RETURNS text LANGUAGE sql AS $$
  SELECT replace(encode(substr(decode(md5(random()::text) || md5(random()::text), 'hex'),
                               1, floor(random() * 32)::int), 'base64'), E'\n', '')
$$;

-- a random AttributeValue, at most depth levels
CREATE FUNCTION pg_temp.rval(depth int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  t int := floor(random() * CASE WHEN depth > 1 THEN 10 ELSE 8 END)::int;
  m jsonb := '{}';
  a jsonb := '[]';
  k int := floor(random() * 5)::int;
BEGIN
  CASE t
    WHEN 0 THEN RETURN jsonb_build_object('S', pg_temp.rstr(40));
    WHEN 1 THEN RETURN jsonb_build_object('N', pg_temp.rnum());
    WHEN 2 THEN RETURN jsonb_build_object('B', pg_temp.rbin());
    WHEN 3 THEN RETURN jsonb_build_object('BOOL', random() < 0.5);
    WHEN 4 THEN RETURN '{"NULL": true}';
    WHEN 5 THEN   -- SS: distinct strings
      RETURN jsonb_build_object('SS', (SELECT jsonb_agg(DISTINCT s) FROM
        (SELECT pg_temp.rstr(12) || g AS s FROM generate_series(0, k) g) x));
    WHEN 6 THEN   -- NS: distinct numbers
      RETURN jsonb_build_object('NS', (SELECT jsonb_agg(n) FROM
        (SELECT DISTINCT (floor(random() * 2e9) - 1e9)::bigint::text AS n
           FROM generate_series(0, k) g) x));
    WHEN 7 THEN   -- BS: distinct bytes
      RETURN jsonb_build_object('BS', (SELECT jsonb_agg(DISTINCT b) FROM
        (SELECT replace(encode(convert_to(pg_temp.rstr(8) || g, 'UTF8'), 'base64'), E'\n', '') AS b
           FROM generate_series(0, k) g) x));
    WHEN 8 THEN
      FOR i IN 0..k LOOP
        a := a || jsonb_build_array(pg_temp.rval(depth - 1));
      END LOOP;
      RETURN jsonb_build_object('L', a);
    ELSE
      FOR i IN 0..k LOOP
        m := m || jsonb_build_object(pg_temp.rstr(6), pg_temp.rval(depth - 1));
      END LOOP;
      RETURN jsonb_build_object('M', m);
  END CASE;
END $$;

-- a random item of the table tan (key pk, sk), its attributes named so that
-- their order by length is not their order by bytes
CREATE FUNCTION pg_temp.ritem(p int, s int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  it jsonb := jsonb_build_object('pk', jsonb_build_object('S', 'p' || p),
                                 'sk', jsonb_build_object('N', s::text));
BEGIN
  FOR i IN 0..floor(random() * 8)::int LOOP
    it := it || jsonb_build_object(
      (ARRAY['a', 'zz', 'b', 'aaa', 'Z', 'é', 'x' || i, 'long name ' || pg_temp.rstr(5), 'q'])
        [1 + floor(random() * 9)::int],
      pg_temp.rval(4));
  END LOOP;
  RETURN it;
END $$;

-- the text answer and the jsonb answer's text, of one request
CREATE FUNCTION pg_temp.both(op text, req jsonb, OUT txt text, OUT jb jsonb) LANGUAGE sql AS $$
  SELECT hroe.dynamodb_text(op, req::text), hroe.dynamodb(op, req)
$$;

SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "tan", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
    {"AttributeName": "sk", "AttributeType": "N"}, {"AttributeName": "g", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "ALL"}}]}') LIKE '{"TableDescription":%' AS created;

-- 240 random items in 8 partitions, a third of them in the index
CREATE TEMP TABLE items AS
  SELECT p, s, CASE WHEN s % 3 = 0
                    THEN pg_temp.ritem(p, s) || '{"g": {"S": "G"}}'
                    ELSE pg_temp.ritem(p, s) END AS item
    FROM generate_series(0, 7) p, generate_series(1, 30) s;
SELECT count(*) FILTER (WHERE hroe.dynamodb_text('PutItem',
         jsonb_build_object('TableName', 'tan', 'Item', item)::text) = '{}') AS put
  FROM items;

-- the special items: 32 levels of M and of L, names of every length order,
-- escapes, every type at once, and one of 400 KB
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "tan", "Item": {"pk": {"S": "special"}, "sk": {"N": "1"},
  "deep_m": ' || repeat('{"M": {"bb": {"S": "x"}, "a": ', 31) || '{"M": {}}' || repeat('}}', 31) || ',
  "deep_l": ' || repeat('{"L": [{"N": "1"}, ', 31) || '{"L": []}' || repeat(']}', 31) || '}}') AS put_deep;
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "tan", "Item": {"pk": {"S": "special"}, "sk": {"N": "2"},
  "ccc": {"S": "3"}, "bb": {"S": "2"}, "a": {"S": "1"}, "ab": {"S": "2b"}, "b": {"S": "1b"},
  "esc": {"S": "\" \\ \/ \b \f \n \r \t \u0001 \u001f \u007f é \u00e9 \ud83d\ude00 \uffff"},
  "\ud83d\ude00": {"SS": ["\ud83d\ude00", "\u00e9", "e"]},
  "types": {"M": {"s": {"S": ""}, "n": {"N": "-0.000"}, "b": {"B": ""}, "t": {"BOOL": true},
    "f": {"BOOL": false}, "z": {"NULL": true}, "l": {"L": []}, "m": {"M": {}},
    "ss": {"SS": ["b", "a"]}, "ns": {"NS": ["10", "9", "-1E+125"]}, "bs": {"BS": ["AA==", "/w=="]}}}}}') AS put_types;
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "tan", "Item": {"pk": {"S": "special"}, "sk": {"N": "3"},
  "big": {"S": "' || repeat('0123456789abcdé\"', 24000) || '"}, "more": {"L": [{"S": "' || repeat('x', 500) || '"}]}}}') AS put_400kb;

-- strings with one character to escape (or not) at every offset of the
-- writer's 8-byte words, and plain bytes either side of the escapes' ranges
SELECT hroe.dynamodb_text('PutItem', jsonb_build_object('TableName', 'tan', 'Item',
  jsonb_build_object('pk', '{"S": "special"}'::jsonb, 'sk', '{"N": "4"}'::jsonb,
    'offsets', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('S',
        repeat('x', i) || c || repeat('y', j)) ORDER BY c, i, j)
      FROM unnest(ARRAY['"', '\', E'\n', chr(1), chr(31), ' ', '!', '[', ']', 'é', chr(127), '😀']) c,
           generate_series(0, 17) i, generate_series(0, 9) j))))::text) AS put_offsets;

-- GetItem of every item, whole and projected, with ConsumedCapacity
SELECT count(*) AS gets,
       count(*) FILTER (WHERE (b).txt = ((b).jb)::text) AS same,
       count(*) FILTER (WHERE (b).jb ? 'Item') AS found,
       count(*) FILTER (WHERE (b).jb ? '__type') AS errors
  FROM (SELECT pg_temp.both('GetItem', jsonb_build_object('TableName', 'tan',
          'Key', jsonb_build_object('pk', item->'pk', 'sk', item->'sk'))) AS b FROM items
        UNION ALL
        SELECT pg_temp.both('GetItem', jsonb_build_object('TableName', 'tan',
          'Key', jsonb_build_object('pk', item->'pk', 'sk', item->'sk'),
          'ProjectionExpression', 'a, zz, pk, #e', 'ExpressionAttributeNames', '{"#e": "é"}'::jsonb,
          'ReturnConsumedCapacity', 'TOTAL')) FROM items
        UNION ALL
        SELECT pg_temp.both('GetItem', jsonb_build_object('TableName', 'tan',
          'Key', jsonb_build_object('pk', '{"S": "special"}'::jsonb, 'sk', jsonb_build_object('N', s::text)),
          'ConsistentRead', true, 'ReturnConsumedCapacity', 'INDEXES'))
          FROM generate_series(1, 5) s) x;
-- every item's GetItem answer, read by PostgreSQL's jsonb input, holds the
-- table's row as hroe.item's jsonb cast gives it
SELECT count(*) AS rows,
       count(*) FILTER (WHERE hroe.dynamodb_text('GetItem', jsonb_build_object('TableName', 'tan',
           'Key', jsonb_build_object('pk', t.item::jsonb->'pk', 'sk', t.item::jsonb->'sk'))::text)::jsonb->'Item'
         = t.item::jsonb) AS as_stored
  FROM tan t;
-- and a Scan's pages, and a Query's, hold the rows, no more, no fewer
CREATE FUNCTION pg_temp.read_items(op text, req jsonb) RETURNS SETOF jsonb LANGUAGE plpgsql AS $$
DECLARE
  a jsonb;
BEGIN
  LOOP
    a := hroe.dynamodb_text(op, req::text)::jsonb;
    RETURN QUERY SELECT jsonb_array_elements(a->'Items');
    EXIT WHEN NOT a ? 'LastEvaluatedKey';
    req := req || jsonb_build_object('ExclusiveStartKey', a->'LastEvaluatedKey');
  END LOOP;
END $$;
SELECT (SELECT count(*) FROM pg_temp.read_items('Scan', '{"TableName": "tan", "Limit": 7}')) AS scanned,
       (SELECT count(*) FROM (SELECT * FROM pg_temp.read_items('Scan', '{"TableName": "tan", "Limit": 7}')
                              EXCEPT ALL SELECT item::jsonb FROM tan) x) AS not_stored,
       (SELECT count(*) FROM (SELECT item::jsonb FROM tan
                              EXCEPT ALL SELECT * FROM pg_temp.read_items('Scan', '{"TableName": "tan", "Limit": 7}')) x) AS not_scanned,
       (SELECT count(*) FROM (SELECT * FROM pg_temp.read_items('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
                                "ExpressionAttributeValues": {":p": {"S": "p3"}}, "Limit": 4}')
                              EXCEPT ALL SELECT item::jsonb FROM tan WHERE item::jsonb->'pk'->>'S' = 'p3') x) AS query_not_stored,
       (SELECT count(*) FROM (SELECT item::jsonb FROM tan WHERE item::jsonb->'pk'->>'S' = 'p3'
                              EXCEPT ALL SELECT * FROM pg_temp.read_items('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
                                "ExpressionAttributeValues": {":p": {"S": "p3"}}, "Limit": 4}')) x) AS query_not_read;

-- the text answers, verbatim, of the special items (but the 400 KB one's)
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "tan", "Key": {"pk": {"S": "special"}, "sk": {"N": "2"}}}');
SELECT length(hroe.dynamodb_text('GetItem', '{"TableName": "tan", "Key": {"pk": {"S": "special"}, "sk": {"N": "3"}}}'))
       AS len_400kb;
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "tan", "Key": {"pk": {"S": "nothing"}, "sk": {"N": "2"}}}') AS missing,
       hroe.dynamodb_text('GetItem', '{"TableName": "tan", "Key": {"pk": {"S": "nothing"}, "sk": {"N": "2"}},
                         "ReturnConsumedCapacity": "TOTAL"}') AS missing_cc;

-- Scan and Query page by page (LastEvaluatedKey to ExclusiveStartKey), each
-- page's text answer against the jsonb answer's text
CREATE FUNCTION pg_temp.pages(op text, req jsonb, OUT pages int, OUT same int, OUT items int)
LANGUAGE plpgsql AS $$
DECLARE
  b record;
BEGIN
  pages := 0; same := 0; items := 0;
  LOOP
    SELECT * INTO b FROM pg_temp.both(op, req);
    pages := pages + 1;
    same := same + (b.txt = b.jb::text AND NOT b.jb ? '__type')::int;
    items := items + (b.jb->>'Count')::int;
    EXIT WHEN NOT b.jb ? 'LastEvaluatedKey' OR pages > 1000;
    req := req || jsonb_build_object('ExclusiveStartKey', b.jb->'LastEvaluatedKey');
  END LOOP;
END $$;
SELECT 'scan' AS read, * FROM pg_temp.pages('Scan', '{"TableName": "tan", "Limit": 7}')
UNION ALL
SELECT 'scan, 1 MB pages', * FROM pg_temp.pages('Scan', '{"TableName": "tan", "ReturnConsumedCapacity": "TOTAL"}')
UNION ALL
SELECT 'scan, filtered and projected', * FROM pg_temp.pages('Scan', '{"TableName": "tan", "Limit": 25,
  "FilterExpression": "attribute_exists(a) OR attribute_exists(zz)", "ProjectionExpression": "pk, sk, a, zz, q",
  "ReturnConsumedCapacity": "INDEXES"}')
UNION ALL
SELECT 'scan, count', * FROM pg_temp.pages('Scan', '{"TableName": "tan", "Select": "COUNT", "Limit": 50}')
UNION ALL
SELECT 'scan, segment', * FROM pg_temp.pages('Scan', '{"TableName": "tan", "Segment": 1, "TotalSegments": 3, "Limit": 9}')
UNION ALL
SELECT 'query', * FROM pg_temp.pages('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "p3"}}, "Limit": 4}')
UNION ALL
SELECT 'query, backward', * FROM pg_temp.pages('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p AND sk > :s",
  "ExpressionAttributeValues": {":p": {"S": "p5"}, ":s": {"N": "10"}}, "ScanIndexForward": false, "Limit": 6,
  "ReturnConsumedCapacity": "TOTAL"}')
UNION ALL
SELECT 'query, index', * FROM pg_temp.pages('Query', '{"TableName": "tan", "IndexName": "byg",
  "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "G"}}, "Limit": 11}')
UNION ALL
SELECT 'query, special', * FROM pg_temp.pages('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "special"}}, "Limit": 1}')
UNION ALL
SELECT 'query, special, 1 page', * FROM pg_temp.pages('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "special"}}}');

-- U+0000, which jsonb cannot carry: the text answers verbatim, as
-- sql/api_nul.sql gives them (names of both orders around it)
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "tan", "Item": {"pk": {"S": "nul"}, "sk": {"N": "1"},
  "b": {"S": "\u0000"}, "a\u0000": {"SS": ["\u0000", "a"]}, "m": {"M": {"x\u0000y": {"S": "1"}, "w": {"L": [{"S": "\u0000\u0001"}]}}}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "tan", "Key": {"pk": {"S": "nul"}, "sk": {"N": "1"}}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "tan", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "nul"}}}');

SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "tan"}') LIKE '{"TableDescription":%' AS deleted;
