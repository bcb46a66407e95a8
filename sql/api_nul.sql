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

-- keys cannot hold U+0000 in hroe (the documented deviation): table keys and
-- index keys are refused with a ValidationException, nothing cut or written
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k\u0000"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "\u0000"}}}');
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nul", "Item": {"pk": {"S": "k"}, "sk": {"S": "3"}, "g": {"S": "g\u0000"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k\u0000"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "k\u0000"}}}');
SELECT hroe.dynamodb_text('BatchWriteItem', '{"RequestItems": {"nul": [{"PutRequest": {"Item": {"pk": {"S": "\u0000"}, "sk": {"S": "1"}}}}]}}');
SELECT hroe.dynamodb_text('TransactWriteItems', '{"TransactItems": [{"Put": {"TableName": "nul",
  "Item": {"pk": {"S": "k"}, "sk": {"S": "\u0000x"}}}}]}');
SELECT count(*) AS items FROM :nul;

-- names that PostgreSQL keeps as text, and expressions, cannot hold it:
-- refused, never cut
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul\u0000", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "n\u0000ame"}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "ProjectionExpression": "s\u0000, e"}');
SELECT hroe.dynamodb_text('BatchGetItem', '{"RequestItems": {"nul\u0000x": {"Keys": [{"pk": {"S": "k"}, "sk": {"S": "1"}}]}}}');
SELECT hroe.dynamodb_text('BatchWriteItem', '{"RequestItems": {"nul\u0000": [{"DeleteRequest": {"Key": {"pk": {"S": "k"}, "sk": {"S": "1"}}}}]}}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "nul", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "k"}, ":k\u0000": {"S": "x"}}}');
SELECT hroe.dynamodb_text('DeleteItem', '{"TableName": "nul", "Key": {"pk": {"S": "k"}, "sk": {"S": "1"}},
  "Expected": {"s\u0000": {"Exists": false}}}');
SELECT hroe.dynamodb_text('DescribeTable', '{"TableName": "nul\u0000"}');
SELECT hroe.dynamodb_text('ExecuteStatement', '{"Statement": "SELECT * FROM nul WHERE pk = ?",
  "Parameters": [{"S": "\u0000"}]}');
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
SELECT item::jsonb FROM :nul WHERE hroe.item_get_text(item, 'sk') = '1';
SELECT hroe.item_get(item, 's') FROM :nul WHERE hroe.item_get_text(item, 'sk') = '1';
SELECT hroe.item_get_text(item, 's') FROM :nul WHERE hroe.item_get_text(item, 'sk') = '1';
SELECT hroe.item_attributes(item) FROM :nul WHERE hroe.item_get_text(item, 'sk') = '1';
SELECT hroe.item_get(item, 'e') FROM :nul WHERE hroe.item_get_text(item, 'sk') = '1';

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

-- a stream records such an item whole (hroe.item), but GetRecords builds its
-- records as jsonb: an error there, never a cut image
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "nuls", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}}') LIKE '{"TableDescription":%';
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "nuls", "Item": {"pk": {"S": "k"}, "s": {"S": "a\u0000b"}}}');
WITH a AS (SELECT hroe.dynamodb('DescribeTable', '{"TableName": "nuls"}') #>> '{Table, LatestStreamArn}' AS arn),
     s AS (SELECT arn, hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', arn))
                       #>> '{StreamDescription, Shards, 0, ShardId}' AS shard FROM a),
     i AS (SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', arn, 'ShardId', shard,
                                'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator' AS it FROM s)
SELECT hroe.dynamodb_text('GetRecords', jsonb_build_object('ShardIterator', it)::text) FROM i;
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "nuls"}') LIKE '{"TableDescription":%';
