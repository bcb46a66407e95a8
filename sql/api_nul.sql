-- U+0000 in strings, as DynamoDB allows it: through the JSON API's text entry
-- (hroe.dynamodb_text, hroe-gateway's), which reads the body with hroe's own
-- JSON reader (jsonb_in refuses \u0000) and writes U+0000 back as \u0000
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "nul", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
    {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "ALL"}}]}') LIKE '{"TableDescription":%';
SELECT relid AS nul FROM hroe.tables WHERE table_name = 'nul' \gset

-- S values, set members, list elements, map members and attribute names
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "1"},
  "s": {"S": "a\u0000b"}, "z": {"S": "\u0000"}, "e": {"S": "a"},
  "ss": {"SS": ["a", "a\u0000", "a\u0000\u0000", "\u0000a"]},
  "l": {"L": [{"S": "x\u0000y"}, {"SS": ["\u0000"]}]},
  "m": {"M": {"in\u0000side": {"S": "v\u0000"}, "inside": {"S": "w"}}},
  "n\u0000ame": {"S": "named"}}, "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}');
-- the stored item: strings whole, sets ordered by unsigned bytes ("a" < "a\0" < "a\0\0")
SELECT item FROM :nul;
-- U+0000 is one byte of the item's size (DynamoDB's): "a\0b" is 3 bytes, "\0" one
SELECT hroe.item_size('{"a": {"S": "a\u0000b"}}'), hroe.item_size('{"a": {"S": "\u0000"}}'),
       hroe.item_size('{"a": {"S": "ab"}}');
-- an escaped backslash before u0000 is text, not U+0000
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "2"},
  "s": {"S": "b\\u0000"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "2"}},
  "ProjectionExpression": "s"}');

-- ExpressionAttributeValues with U+0000: comparisons, begins_with, contains,
-- size() (in bytes: U+0000 counts one) on values that hold it
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "s"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET t = :v", "ConditionExpression": "s = :s AND z = :z AND size(s) = :three AND size(z) = :one",
  "ExpressionAttributeValues": {":v": {"S": "\u0000\u0000t"}, ":s": {"S": "a\u0000b"}, ":z": {"S": "\u0000"},
    ":three": {"N": "3"}, ":one": {"N": "1"}}, "ReturnValues": "UPDATED_NEW"}');
-- "a\0b" is not "a" nor "a\0c" (no cut at U+0000); it is after "a" and "a\0", before "a\1"
SELECT hroe.dynamodb_text('Query', format('{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "FilterExpression": %s, "ExpressionAttributeValues": {":k": {"S": "k"}, ":v": {"S": %s}},
  "ProjectionExpression": "sk"}', to_json(f), '"' || v || '"'))::jsonb -> 'Count' AS count,
  f, v
FROM (VALUES ('s = :v', 'a\u0000b'), ('s = :v', 'a'), ('s = :v', 'a\u0000c'),
             ('s > :v', 'a'), ('s > :v', 'a\u0000'), ('s < :v', 'a\u0001'), ('s < :v', 'a\u0000c'),
             ('s >= :v', 'a\u0000b'), ('s BETWEEN :v AND :v', 'a\u0000b'),
             ('begins_with(s, :v)', 'a\u0000'), ('begins_with(s, :v)', 'a\u0000b'),
             ('begins_with(s, :v)', 'a\u0000bc'), ('begins_with(s, :v)', 'a\u0001'),
             ('contains(s, :v)', '\u0000b'), ('contains(s, :v)', '\u0000c'),
             ('contains(ss, :v)', 'a\u0000'), ('contains(ss, :v)', 'a\u0000\u0000\u0000'),
             ('contains(l[0], :v)', '\u0000'), ('m.inside = :v', 'w'),
             ('s IN (:v)', 'a\u0000b'), ('s <> :v', 'a\u0000b')) AS c(f, v)
ORDER BY f, v;
-- a message that quotes such a value shows U+0000 as \x00, never cut there
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "FilterExpression": "s BETWEEN :hi AND :lo",
  "ExpressionAttributeValues": {":k": {"S": "k"}, ":hi": {"S": "a\u0000c"}, ":lo": {"S": "a\u0000b"}}}');
-- size() of a set, a map, a list with such strings; in a FilterExpression
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "FilterExpression": "size(ss) = :four AND size(m) = :two AND size(t) = :three AND attribute_exists(#n)",
  "ExpressionAttributeNames": {"#n": "m"},
  "ExpressionAttributeValues": {":k": {"S": "k"}, ":four": {"N": "4"}, ":two": {"N": "2"}, ":three": {"N": "3"}},
  "ProjectionExpression": "sk"}');
-- UpdateExpression: list_append, ADD and DELETE on a string set with such members
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET l = list_append(l, :l) ADD ss :add",
  "ExpressionAttributeValues": {":l": {"L": [{"S": "\u0000z"}]}, ":add": {"SS": ["\u0000\u0000", "a"]}},
  "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "DELETE ss :del", "ExpressionAttributeValues": {":del": {"SS": ["a\u0000", "a\u0000\u0000\u0000"]}},
  "ReturnValues": "UPDATED_NEW"}');
-- a condition that fails carries the item whole (ReturnValuesOnConditionCheckFailure)
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ConditionExpression": "s = :v", "ExpressionAttributeValues": {":v": {"S": "a"}},
  "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}');

-- keys hold U+0000 as DynamoDB's do (escaped in hroe.key, src/types/key.h): table
-- keys and index keys are written, read and compared whole
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k\u0000"}, "sk": {"S": "1"}, "v": {"S": "k0"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k\u0001"}, "sk": {"S": "1"}, "v": {"S": "k1"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "\u0000"}, "v": {"S": "s0"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "3"}, "g": {"S": "g\u0000"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "4"}, "g": {"S": "g"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k\u0000"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k\u0001"}, "sk": {"S": "1"}}, "ProjectionExpression": "v"}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k\u0000\u0000"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "\u0000"}}, "ProjectionExpression": "v"}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "k\u0000"}}, "ProjectionExpression": "pk, v"}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "IndexName": "byg", "KeyConditionExpression": "g = :g",
  "ExpressionAttributeValues": {":g": {"S": "g\u0000"}}, "ProjectionExpression": "sk, g"}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "IndexName": "byg", "KeyConditionExpression": "g = :g",
  "ExpressionAttributeValues": {":g": {"S": "g"}}, "ProjectionExpression": "sk, g"}');
-- the key columns hold the escaped strings (U+0000 as 0x01 0x01, U+0001 as 0x01 0x02)
SELECT replace(replace(pk::text, chr(1) || chr(1), '<0>'), chr(1) || chr(2), '<1>') AS pk,
       replace(sk::text, chr(1) || chr(1), '<0>') AS sk
FROM :nul WHERE strpos(pk::text || sk::text, chr(1)) > 0 ORDER BY pk, sk;
-- UpdateItem, a condition on the key, DeleteItem
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0000"}},
  "UpdateExpression": "SET v = :v", "ConditionExpression": "attribute_not_exists(pk)",
  "ExpressionAttributeValues": {":v": {"S": "new"}}, "ReturnValues": "ALL_NEW"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0000"}},
  "UpdateExpression": "SET v = :v", "ConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":v": {"S": "newer"}, ":k": {"S": "\u0000"}}, "ReturnValues": "UPDATED_OLD"}');
SELECT hroe.dynamodb_text('DeleteItem', '{"TableName": "nul", "Key": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0000"}},
  "ReturnValues": "ALL_OLD"}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0000"}}}');
-- batches and transactions
SELECT hroe.dynamodb_text('BatchWriteItem', '{"RequestItems": {"nul": [{"PutRequest": {"Item": {"pk": {"S": "\u0000"}, "sk": {"S": "1"}}}},
  {"PutRequest": {"Item": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0001"}}}}]}}');
WITH r AS (SELECT hroe.dynamodb_text('BatchGetItem', '{"RequestItems": {"nul": {"Keys": [{"pk": {"S": "\u0000"}, "sk": {"S": "1"}},
  {"pk": {"S": "\u0000"}, "sk": {"S": "\u0001"}}, {"pk": {"S": "\u0000"}, "sk": {"S": "\u0002"}}], "ProjectionExpression": "pk, sk"}}}') AS t)
SELECT t LIKE '%{"pk": {"S": "\\u0000"}, "sk": {"S": "1"}}%' AS one,
       t LIKE '%{"pk": {"S": "\\u0000"}, "sk": {"S": "\\u0001"}}%' AS two,
       t LIKE '%"UnprocessedKeys": {}}' AS no_unprocessed, length(t) AS length FROM r;
SELECT hroe.dynamodb_text('TransactWriteItems', '{"TransactItems": [{"Put": {"TableName": "nul",
  "Item": {"pk": {"S": "k"}, "sk": {"S": "\u0000x"}}}}]}');
SELECT hroe.dynamodb_text('TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "nul",
  "Key": {"pk": {"S": "k"}, "sk": {"S": "\u0000x"}}}}, {"Get": {"TableName": "nul",
  "Key": {"pk": {"S": "\u0000"}, "sk": {"S": "\u0001"}}}}]}');
-- a cancelled transaction's reasons carry such a key's item whole
SELECT hroe.dynamodb_text('TransactWriteItems', '{"TransactItems": [{"Delete": {"TableName": "nul",
  "Key": {"pk": {"S": "k"}, "sk": {"S": "\u0000x"}}, "ConditionExpression": "attribute_not_exists(sk)",
  "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]}');

-- keys left unprocessed past BatchGetItem's 16 MB are given back whole: 42
-- items of 400 KB under sort keys holding U+0000, 41 answered, 1 left
SELECT count(hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "big"},
  "sk": {"S": "\u0000%s"}, "b": {"S": "%s"}}}', lpad(i::text, 2, '0'), repeat('b', 409000))))
FROM generate_series(1, 42) i;
WITH r AS (SELECT hroe.dynamodb_text('BatchGetItem', format('{"RequestItems": {"nul": {"Keys": [%s], "ProjectionExpression": "sk"}}}',
  (SELECT string_agg(format('{"pk": {"S": "big"}, "sk": {"S": "\u0000%s"}}', lpad(i::text, 2, '0')), ', ' ORDER BY i)
   FROM generate_series(1, 42) i))) AS t)
SELECT (length(t) - length(replace(t, '"sk": {"S": "\u00', ''))) / length('"sk": {"S": "\u00') AS sort_keys,
       substring(t from '"UnprocessedKeys": (.*)$') AS unprocessed FROM r;
SELECT hroe.dynamodb_text('BatchWriteItem', format('{"RequestItems": {"nul": [%s]}}',
  (SELECT string_agg(format('{"DeleteRequest": {"Key": {"pk": {"S": "big"}, "sk": {"S": "\u0000%s"}}}}', lpad(i::text, 2, '0')), ', ')
   FROM generate_series(s, s + 20) i))) FROM (VALUES (1), (22)) AS v(s);

-- an LSI's item collection of such a partition key, and its metrics
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "null", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
    {"AttributeName": "l", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "LocalSecondaryIndexes": [{"IndexName": "byl", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
    {"AttributeName": "l", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}') LIKE '{"TableDescription":%';
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "null", "Item": {"pk": {"S": "%s"}, "sk": {"S": "%s"}, "l": {"S": "%s"}},
  "ReturnItemCollectionMetrics": "SIZE"}', pk, sk, l))
FROM (VALUES ('\u0000', '1', 'b\u0000'), ('\u0000', '2', 'b'), ('\u0001', '1', 'a')) AS v(pk, sk, l);
SELECT hroe.dynamodb_text('Query', '{"TableName": "null", "IndexName": "byl", "KeyConditionExpression": "pk = :k AND l > :l",
  "ExpressionAttributeValues": {":k": {"S": "\u0000"}, ":l": {"S": "b"}}, "ProjectionExpression": "sk, l"}');
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "null"}') LIKE '{"TableDescription":%';

-- DynamoDB's key order over such strings (unsigned UTF-8 bytes, a prefix
-- first): "a" < "a\0" < "a\0b" < "a\1" < "a\2", forward and backward, with
-- range conditions and begins_with, and page by page (Limit 1)
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "o"}, "sk": {"S": "%s"}}}', sk))
FROM (VALUES ('a\u0002'), ('a\u0000b'), ('a'), ('a\u0001'), ('a\u0000'), ('b'), ('\u0001'), ('\u0000')) AS v(sk);
SELECT forward, hroe.dynamodb_text('Query', format('{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "o"}}, "ProjectionExpression": "sk", "ScanIndexForward": %s}', forward))
FROM (VALUES ('true'), ('false')) AS f(forward);
SELECT c, v, w, hroe.dynamodb_text('Query', format('{"TableName": "nul", "KeyConditionExpression": %s,
  "ExpressionAttributeValues": {":k": {"S": "o"}, ":v": {"S": "%s"}%s}, "ProjectionExpression": "sk"}',
  to_json('pk = :k AND ' || c), v, CASE WHEN w <> '' THEN format(', ":w": {"S": "%s"}', w) END)) AS response
FROM (VALUES ('sk > :v', 'a', ''), ('sk > :v', 'a\u0000', ''), ('sk >= :v', 'a\u0000', ''),
             ('sk < :v', 'a\u0000b', ''), ('sk <= :v', 'a\u0000b', ''), ('sk < :v', 'a', ''),
             ('sk BETWEEN :v AND :w', 'a\u0000', 'a\u0001'), ('sk BETWEEN :v AND :w', '\u0000', '\u0001'),
             ('begins_with(sk, :v)', 'a\u0000', ''), ('begins_with(sk, :v)', 'a\u0001', ''),
             ('begins_with(sk, :v)', 'a', ''), ('begins_with(sk, :v)', '\u0000', ''),
             ('begins_with(sk, :v)', 'a\u0000b', ''), ('sk = :v', 'a\u0000', '')) AS c(c, v, w)
ORDER BY c, v, w;
WITH RECURSIVE page(n, forward, response) AS (
  SELECT 1, forward, hroe.dynamodb_text('Query', format('{"TableName": "nul", "KeyConditionExpression": "pk = :k",
    "ExpressionAttributeValues": {":k": {"S": "o"}}, "ProjectionExpression": "sk", "Limit": 1, "ScanIndexForward": %s}', forward))
  FROM (VALUES ('true'), ('false')) AS f(forward)
  UNION ALL
  SELECT n + 1, forward, hroe.dynamodb_text('Query', format('{"TableName": "nul", "KeyConditionExpression": "pk = :k",
    "ExpressionAttributeValues": {":k": {"S": "o"}}, "ProjectionExpression": "sk", "Limit": 1, "ScanIndexForward": %s,
    "ExclusiveStartKey": %s}', forward, substring(response from '"LastEvaluatedKey": (\{.*\})\}$')))
  FROM page WHERE response LIKE '%"LastEvaluatedKey"%' AND n < 12)
SELECT forward, n, response FROM page ORDER BY forward DESC, n;
-- a Scan's pages over partition keys with U+0000 and U+0001, each item once
WITH RECURSIVE page(n, response) AS (
  SELECT 1, hroe.dynamodb_text('Scan', '{"TableName": "nul", "ProjectionExpression": "pk, sk", "Limit": 1}')
  UNION ALL
  SELECT n + 1, hroe.dynamodb_text('Scan', format('{"TableName": "nul", "ProjectionExpression": "pk, sk", "Limit": 1,
    "ExclusiveStartKey": %s}', substring(response from '"LastEvaluatedKey": (\{.*\})\}$')))
  FROM page WHERE response LIKE '%"LastEvaluatedKey"%' AND n < 40)
SELECT count(*) AS pages, count(DISTINCT md5(substring(response from '"Items": (\[.*\]), "ScannedCount"'))) AS distinct_items,
       (SELECT count(*) FROM :nul) AS items
FROM page WHERE response LIKE '{"Count": 1,%';
-- key sizes are the strings' (DynamoDB's), not their escaped forms': a sort
-- key of 1024 U+0000 and a partition key of 2048 are within the limits
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "%s"}, "sk": {"S": "%s"}}}',
  repeat('\u0000', 2048), repeat('\u0000', 1024)));
SELECT length(hroe.dynamodb_text('GetItem', format('{"TableName": "nul", "Key": {"pk": {"S": "%s"}, "sk": {"S": "%s"}}}',
  repeat('\u0000', 2048), repeat('\u0000', 1024)))) AS response_length;
SELECT hroe.dynamodb_text('GetItem', format('{"TableName": "nul", "Key": {"pk": {"S": "%s"}, "sk": {"S": "%s"}}}',
  repeat('\u0000', 2047) || '\u0001', repeat('\u0000', 1024)));
SELECT hroe.dynamodb_text('GetItem', format('{"TableName": "nul", "Key": {"pk": {"S": "%s"}, "sk": {"S": "%s"}}}',
  repeat('\u0000', 2048), repeat('\u0000', 1023) || '\u0001'));
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "%s"}}}',
  repeat('\u0000', 1025)));
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "%s"}, "sk": {"S": "1"}}}',
  repeat('\u0000', 2049)));
SELECT hroe.dynamodb_text('PutItem', format('{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "5"}, "g": {"S": "%s"}}}',
  repeat('\u0001', 2049)));
-- hroe.item_get_key gives an S value's key, as the key columns hold it
SELECT hroe.item_get_key(item, 'sk') OPERATOR(hroe.=) sk AS same FROM :nul WHERE strpos(sk::text, chr(1)) > 0;
SELECT count(*) AS items FROM :nul;
-- a batch tells keys apart by all their bytes: binary keys 0x00 0x01 and
-- 0x00 0x02 are two keys, not duplicates
SELECT hroe.dynamodb('CreateTable', '{"TableName": "nulb", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "B"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}') ? 'TableDescription' AS created;
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"nulb": [{"PutRequest": {"Item": {"pk": {"B": "AAE="}}}},
  {"PutRequest": {"Item": {"pk": {"B": "AAI="}}}}]}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"nulb": {"Keys": [{"pk": {"B": "AAE="}}, {"pk": {"B": "AAI="}}]}}}')
  #> '{Responses, nulb}' @> '[{"pk": {"B": "AAE="}}, {"pk": {"B": "AAI="}}]' AS both;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "nulb"}') ? 'TableDescription' AS deleted;

-- ExpressionAttributeNames' names hold U+0000, as DynamoDB's: an attribute
-- whose name holds it is projected, tested, filtered, set and removed; "n"
-- and "n\0ame" and "n\0amf" are three names
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "#n, #m.#i, #x", "ExpressionAttributeNames": {"#n": "n\u0000ame", "#m": "m", "#i": "in\u0000side", "#x": "n\u0000amf"}}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET #n = :v, #m.#j = :v, #o = :v REMOVE #m.#i",
  "ConditionExpression": "#n = :named AND attribute_exists(#m.#i) AND attribute_not_exists(#x) AND size(#n) = :five",
  "ExpressionAttributeNames": {"#n": "n\u0000ame", "#m": "m", "#i": "in\u0000side", "#j": "in\u0000\u0000", "#x": "n\u0000amf", "#o": "\u0000"},
  "ExpressionAttributeValues": {":v": {"S": "set"}, ":named": {"S": "named"}, ":five": {"N": "5"}},
  "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "REMOVE #o", "ConditionExpression": "attribute_exists(#n)",
  "ExpressionAttributeNames": {"#n": "n", "#o": "\u0000"}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "FilterExpression": "#n = :v AND #m.#j = :v", "ProjectionExpression": "sk, #m",
  "ExpressionAttributeNames": {"#n": "n\u0000ame", "#m": "m", "#j": "in\u0000\u0000"},
  "ExpressionAttributeValues": {":k": {"S": "k"}, ":v": {"S": "set"}}}');
-- two document paths that differ after U+0000 do not overlap; the same do
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET #a = :v, #b = :v", "ExpressionAttributeNames": {"#a": "p\u0000a", "#b": "p\u0000b"},
  "ExpressionAttributeValues": {":v": {"S": "two"}}, "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET #a = :v, #b = :v", "ExpressionAttributeNames": {"#a": "p\u0000a", "#b": "p\u0000a"},
  "ExpressionAttributeValues": {":v": {"S": "two"}}}');
-- a key attribute's name with U+0000 after it is another attribute: not the key
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "#p = :k",
  "ExpressionAttributeNames": {"#p": "pk\u0000"}, "ExpressionAttributeValues": {":k": {"S": "k"}}}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "UpdateExpression": "SET #p = :v", "ExpressionAttributeNames": {"#p": "pk\u0000"},
  "ExpressionAttributeValues": {":v": {"S": "not the key"}}, "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "pk, #p, #n, #a, #b", "ExpressionAttributeNames": {"#p": "pk\u0000", "#n": "n\u0000ame", "#a": "p\u0000a", "#b": "p\u0000b"}}');

-- so do the legacy parameters' attribute names
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "AttributesToGet": ["n\u0000ame", "p\u0000a", "n"]}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "AttributesToGet": ["n\u0000ame", "n\u0000ame"]}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "AttributeUpdates": {"q\u0000": {"Action": "PUT", "Value": {"S": "legacy"}}, "p\u0000b": {"Action": "DELETE"}},
  "Expected": {"n\u0000ame": {"Value": {"S": "set"}}, "n\u0000amf": {"Exists": false}}, "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "AttributeUpdates": {"q\u0000": {"Action": "PUT", "Value": {"S": "again"}}},
  "Expected": {"q\u0000": {"ComparisonOperator": "NULL"}}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "k"}]}}, "QueryFilter": {"q\u0000": {"ComparisonOperator": "BEGINS_WITH",
  "AttributeValueList": [{"S": "leg"}]}}, "AttributesToGet": ["sk", "q\u0000"]}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditions": {"pk\u0000": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "k"}]}}}');
SELECT hroe.dynamodb_text('Scan', '{"TableName": "nul", "ScanFilter": {"q\u0000": {"ComparisonOperator": "NOT_NULL"}},
  "AttributesToGet": ["q\u0000"]}');
SELECT hroe.dynamodb_text('DeleteItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "Expected": {"s\u0000": {"ComparisonOperator": "NOT_NULL"}}}');

-- PartiQL's Parameters hold it: keys, values, conditions, pages, batches and
-- transactions of such strings
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT sk FROM nul WHERE pk = ?",
  "Parameters": [{"S": "\u0000"}]}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT sk FROM nul WHERE pk = ? AND sk >= ? AND sk < ?",
  "Parameters": [{"S": "o"}, {"S": "a\u0000"}, {"S": "a\u0002"}]}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT sk FROM nul WHERE pk = ? AND begins_with(sk, ?)",
  "Parameters": [{"S": "o"}, {"S": "a\u0000"}]}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "INSERT INTO nul VALUE {''pk'': ?, ''sk'': ?, ''v'': ?}",
  "Parameters": [{"S": "p\u0000"}, {"S": "\u0000\u0001"}, {"L": [{"S": "x\u0000"}]}]}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "UPDATE nul SET w = ? WHERE pk = ? AND sk = ? AND v[0] = ?",
  "Parameters": [{"S": "w\u0000"}, {"S": "p\u0000"}, {"S": "\u0000\u0001"}, {"S": "x\u0000"}]}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT * FROM nul WHERE pk = ? AND sk = ?",
  "Parameters": [{"S": "p\u0000"}, {"S": "\u0000\u0001"}]}');
-- a page of a SELECT ends at a key with U+0000, and the next one starts after it
WITH first AS (SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT sk FROM nul WHERE pk = ?",
  "Parameters": [{"S": "o"}], "Limit": 4}') AS r)
SELECT r, hroe.dynamodb_text('ExecuteStatement', format('{"Statement": "SELECT sk FROM nul WHERE pk = ?",
  "Parameters": [{"S": "o"}], "Limit": 4, "NextToken": "%s"}', substring(r from '"NextToken": "([^"]*)"'))) AS next
FROM first;
SELECT hroe.dynamodb_text('BatchExecuteStatement', '{"Statements": [
  {"Statement": "SELECT sk FROM nul WHERE pk = ? AND sk = ?", "Parameters": [{"S": "o"}, {"S": "a\u0000b"}]},
  {"Statement": "SELECT pk, sk FROM nul WHERE pk = ? AND sk = ?", "Parameters": [{"S": "p\u0000"}, {"S": "\u0000\u0001"}]}]}');
SELECT hroe.dynamodb_text('BatchExecuteStatement', '{"Statements": [
  {"Statement": "DELETE FROM nul WHERE pk = ? AND sk = ?", "Parameters": [{"S": "p\u0000"}, {"S": "\u0000\u0001"}]},
  {"Statement": "UPDATE nul SET x = ? WHERE pk = ? AND sk = ?", "Parameters": [{"S": "\u0000"}, {"S": "p\u0000"}, {"S": "\u0000"}]}]}');
SELECT hroe.dynamodb_text('ExecuteTransaction', '{"TransactStatements": [
  {"Statement": "INSERT INTO nul VALUE {''pk'': ?, ''sk'': ?}", "Parameters": [{"S": "t\u0000"}, {"S": "\u0000"}]},
  {"Statement": "UPDATE nul SET x = ? WHERE pk = ? AND sk = ?", "Parameters": [{"S": "\u0000"}, {"S": "o"}, {"S": "a\u0000"}]}]}');
SELECT hroe.dynamodb_text('ExecuteTransaction', '{"TransactStatements": [
  {"Statement": "SELECT * FROM nul WHERE pk = ? AND sk = ?", "Parameters": [{"S": "t\u0000"}, {"S": "\u0000"}]},
  {"Statement": "SELECT x FROM nul WHERE pk = ? AND sk = ?", "Parameters": [{"S": "o"}, {"S": "a\u0000"}]}]}');
-- a cancelled PartiQL transaction's reasons carry such an item whole
SELECT hroe.dynamodb_text('ExecuteTransaction', '{"TransactStatements": [
  {"Statement": "UPDATE nul SET y = ? WHERE pk = ? AND sk = ? AND x = ?",
   "Parameters": [{"S": "y"}, {"S": "o"}, {"S": "a\u0000"}, {"S": "\u0000\u0000"}],
   "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}]}');
-- a Statement itself cannot hold it (hroe keeps it as a C string)
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT * FROM nul WHERE pk = ''\u0000''"}');

-- a table or index name holding it fails DynamoDB's pattern [a-zA-Z0-9_.-]+
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul\u0000", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "IndexName": "byg\u0000", "KeyConditionExpression": "g = :g",
  "ExpressionAttributeValues": {":g": {"S": "g"}}}');
SELECT hroe.dynamodb_text('DescribeTable', '{"TableName": "nul\u0000"}');
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "new\u0000", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}');
-- other names that PostgreSQL keeps as text, and expressions, cannot hold
-- it: refused, never cut
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "new", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "p\u0000k", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "p\u0000k", "KeyType": "HASH"}]}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "s\u0000, e"}');
SELECT hroe.dynamodb_text('BatchGetItem', '{"RequestItems": {"nul\u0000x": {"Keys": [{"pk": {"S": "k"}, "sk": {"S": "1"}}]}}}');
SELECT hroe.dynamodb_text('BatchWriteItem', '{"RequestItems": {"nul\u0000": [{"DeleteRequest": {"Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}}]}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "k"}, ":k\u0000": {"S": "x"}}}');
-- BatchGetItem, TransactGetItems and Scan give it back whole too
SELECT hroe.dynamodb_text('BatchGetItem', '{"RequestItems": {"nul": {"Keys": [{"pk": {"S": "k"}, "sk": {"S": "1"}}],
  "ProjectionExpression": "s, z"}}}');
SELECT hroe.dynamodb_text('TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "nul",
  "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}, "ProjectionExpression": "s, l[0]"}}]}');
SELECT hroe.dynamodb_text('Scan', '{"TableName": "nul", "ProjectionExpression": "s", "FilterExpression": "size(s) = :n",
  "ExpressionAttributeValues": {":n": {"N": "3"}}}');
-- a PartiQL read of such an item: whole, or a clear error, never cut
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT s FROM nul WHERE pk = ''k'' AND sk = ''1''"}');

-- the jsonb entry cannot carry U+0000: an item holding it fails clearly
SELECT hroe.dynamodb('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "e"}');
SELECT hroe.dynamodb('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "k"}}}');
SELECT hroe.batch_get_item('{"nul": {"Keys": [{"pk": {"S": "k"}, "sk": {"S": "1"}}]}}');
-- and so do hroe.item's conversions to jsonb and text
SELECT item::jsonb FROM :nul WHERE pk::text = 'k' AND sk::text = '1';
SELECT hroe.item_get(item, 's') FROM :nul WHERE pk::text = 'k' AND sk::text = '1';
SELECT hroe.item_get_text(item, 's') FROM :nul WHERE pk::text = 'k' AND sk::text = '1';
SELECT hroe.item_attributes(item) FROM :nul WHERE pk::text = 'k' AND sk::text = '1';
SELECT hroe.item_get(item, 'e') FROM :nul WHERE pk::text = 'k' AND sk::text = '1';

-- the reader: JSON as jsonb_in reads it (duplicate keys: the last wins),
-- malformed text refused with jsonb's SQLSTATE
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "x", "TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "2"}}}');
SELECT hroe.dynamodb_text('GetItem', ' { "TableName" : "nul" , "Key" : { "pk" : { "S" : "k" } , "sk" : { "S" : "2" } } , "ConsistentRead" : true } ');
SELECT hroe.dynamodb_text('Scan', '{"TableName": "nul", "Limit": 1e0, "ProjectionExpression": "sk"}');
SELECT hroe.dynamodb_text('ListTables', '{"Limit": 100}') LIKE '{"TableNames":[%';
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul"');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul"} x');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "\ud800"}');
SELECT hroe.dynamodb_text('GetItem', '{"Limit": 01}');
SELECT hroe.dynamodb_text('GetItem', '{"a": tru}');
SELECT hroe.dynamodb_text('ListTables', repeat('[', 1001) || repeat(']', 1001));
SELECT hroe.dynamodb_text('ListTables', '{"a": ' || repeat('[', 998) || repeat(']', 998) || '}');

SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "nul"}') LIKE '{"TableDescription":%';

-- DynamoDB Streams: records whose keys and images hold U+0000 come back
-- whole through GetRecords (written as the JSON API writes items)
CREATE FUNCTION pg_temp.nul_iterator(p_table text) RETURNS text LANGUAGE sql AS $$
	WITH a AS (SELECT hroe.dynamodb('DescribeTable', jsonb_build_object('TableName', p_table))
					  #>> '{Table, LatestStreamArn}' AS arn),
		 s AS (SELECT arn, hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', arn))
						   #>> '{StreamDescription, Shards, 0, ShardId}' AS shard FROM a)
	SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', arn, 'ShardId', shard,
						 'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator' FROM s
$$;
-- a GetRecords response's text, a record a line, what changes from run to run masked
CREATE FUNCTION pg_temp.nul_records(p_response text) RETURNS SETOF text LANGUAGE sql AS $$
	SELECT regexp_split_to_table(
			   regexp_replace(regexp_replace(regexp_replace(p_response,
				   '"eventID": "[0-9a-f]{32}"', '"eventID": "…"', 'g'),
				   '"ApproximateCreationDateTime": [0-9]+', '"ApproximateCreationDateTime": …', 'g'),
				   '"NextShardIterator": "[^"]*"', '"NextShardIterator": "…"'),
			   '(?=\{"eventID")')
$$;
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "nuls", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}}') LIKE '{"TableDescription":%';
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nuls", "Item": {"pk": {"S": "k\u0000"}, "sk": {"S": "\u0000s"},
  "s": {"S": "a\u0000b"}, "n\u0000m": {"SS": ["\u0000", "x"]}}}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "nuls", "Key": {"pk": {"S": "k\u0000"}, "sk": {"S": "\u0000s"}},
  "UpdateExpression": "SET s = :v", "ExpressionAttributeValues": {":v": {"S": "c\u0000\u0000"}}}');
SELECT hroe.dynamodb_text('DeleteItem', '{"TableName": "nuls", "Key": {"pk": {"S": "k\u0000"}, "sk": {"S": "\u0000s"}}}');
-- INSERT, MODIFY and REMOVE, Keys, NewImage and OldImage whole
SELECT pg_temp.nul_records(hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator',
  pg_temp.nul_iterator('nuls'))::text));
-- in pages: each record with its own images
CREATE TEMP TABLE nul_page AS
SELECT hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator', pg_temp.nul_iterator('nuls'),
														   'Limit', 2)::text) AS page;
SELECT pg_temp.nul_records(page) FROM nul_page;
SELECT pg_temp.nul_records(hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator',
  substring(page FROM '"NextShardIterator": "([^"]*)"'))::text)) FROM nul_page;
-- hroe.dynamodb's jsonb cannot hold them: an error, never a cut string
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.nul_iterator('nuls')));
-- the checks before the records are read stay as they were
SELECT hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator', pg_temp.nul_iterator('nuls'),
														   'Limit', 0)::text);
SELECT hroe.dynamodb_text('GetRecords', '{"ShardIterator": "x|y|1|2"}');
-- a reader without SELECT on the table does not see the stream
DROP ROLE IF EXISTS regress_hroe_nul_reader;
CREATE ROLE regress_hroe_nul_reader;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_nul_reader;
CREATE TEMP TABLE nul_it AS SELECT pg_temp.nul_iterator('nuls') AS it;
GRANT SELECT ON nul_it TO regress_hroe_nul_reader;
SET ROLE regress_hroe_nul_reader;
SELECT regexp_replace(hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator', it)::text),
					  'stream/[^ "]*', 'stream/…') FROM nul_it;
RESET ROLE;
REVOKE USAGE ON SCHEMA hroe FROM regress_hroe_nul_reader;
DROP TABLE nul_it, nul_page;
DROP ROLE regress_hroe_nul_reader;
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "nuls"}') LIKE '{"TableDescription":%';

-- a KEYS_ONLY stream: the keys alone
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "nulk", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}') LIKE '{"TableDescription":%';
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nulk", "Item": {"pk": {"S": "\u0000"}, "s": {"S": "a\u0000b"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nulk", "Item": {"pk": {"S": "plain"}}}');
SELECT hroe.dynamodb_text('DeleteItem', '{"TableName": "nulk", "Key": {"pk": {"S": "\u0000"}}}');
SELECT pg_temp.nul_records(hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator',
  pg_temp.nul_iterator('nulk'))::text));
-- a page without U+0000 (the one after the first record): hroe.dynamodb reads it
SELECT r #> '{dynamodb, Keys}' AS keys, r -> 'eventName' AS event
FROM jsonb_array_elements(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator',
	   substring(hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator', pg_temp.nul_iterator('nulk'),
															   'Limit', 1)::text)
				 FROM '"NextShardIterator": "([^"]*)"'), 'Limit', 1)) -> 'Records') r;
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "nulk"}') LIKE '{"TableDescription":%';
