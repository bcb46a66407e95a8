-- DynamoDB's legacy (non-expression) parameters through hroe.dynamodb:
-- AttributesToGet, KeyConditions, QueryFilter, ScanFilter, Expected,
-- ConditionalOperator, AttributeUpdates; every ComparisonOperator with right
-- and wrong operands; mixing them with expressions.
SELECT hroe.dynamodb('CreateTable', '{"TableName": "lg_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "lg_h", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';
-- items 1..8 of partition p: n = 10 i, s = "w<i>", g on the odd ones, sets, a list, a map
SELECT hroe.dynamodb('PutItem', format('{"TableName": "lg_t", "Item": {"pk": {"S": "p"}, "sk": {"N": "%s"},
  "n": {"N": "%s"}, "s": {"S": "w%s"}, "ss": {"SS": ["a", "b%s"]}, "ns": {"NS": ["%s", "100"]},
  "l": {"L": [{"S": "a"}, {"N": "%s"}]}, "m": {"M": {"k": {"N": "%s"}}}, "flag": {"BOOL": %s}, "bin": {"B": "%s"}%s}}',
  i, i * 10, i, i % 2, i, i, i, (i % 2 = 0)::text, encode(convert_to('b' || i, 'UTF8'), 'base64'),
  CASE WHEN i % 2 = 1 THEN ', "g": {"S": "odd"}' ELSE '' END)::jsonb)
FROM generate_series(1, 8) i;

-- ---------- AttributesToGet ----------
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": ["n", "s", "missing"]}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "9"}},
  "AttributesToGet": ["n"], "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": ["n", "n"]}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": []}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": [1]}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": ["n"], "ProjectionExpression": "s"}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": ["n"], "ExpressionAttributeNames": {"#n": "n"}}');
SELECT left(r ->> 'message', 100) || ' ... ' || right(r ->> 'message', 100)
FROM hroe.dynamodb('GetItem', format('{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributesToGet": [%s]}', (SELECT string_agg(format('"a%s"', i), ',') FROM generate_series(1, 256) i))::jsonb) r;
-- dotted names are top-level names, not paths
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "dots"}, "a.b": {"S": "top"}, "a": {"M": {"b": {"S": "nested"}}}}}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "dots"}}, "AttributesToGet": ["a.b"]}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"lg_t": {"Keys": [{"pk": {"S": "p"}, "sk": {"N": "1"}},
  {"pk": {"S": "p"}, "sk": {"N": "2"}}], "AttributesToGet": ["sk", "s"], "ConsistentRead": true},
  "lg_h": {"Keys": [{"pk": {"S": "dots"}}], "AttributesToGet": ["a.b", "pk"]}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"lg_t": {"Keys": [{"pk": {"S": "p"}, "sk": {"N": "1"}}],
  "AttributesToGet": ["sk"], "ProjectionExpression": "s"}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"lg_t": {"Keys": [{"pk": {"S": "p"}, "sk": {"N": "1"}}],
  "AttributesToGet": ["sk", "sk"]}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"lg_t": {"Keys": [{"pk": {"S": "p"}, "sk": {"N": "1"}}],
  "AttributesToGet": ["sk"], "ExpressionAttributeNames": {"#s": "s"}}}}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "AttributesToGet": ["sk"], "Limit": 2}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "AttributesToGet": ["sk"], "Select": "SPECIFIC_ATTRIBUTES", "Limit": 1}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "AttributesToGet": ["sk"], "Select": "ALL_ATTRIBUTES"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "AttributesToGet": ["sk"], "Select": "COUNT"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "Select": "SPECIFIC_ATTRIBUTES"}');

-- ---------- KeyConditions ----------
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "AttributesToGet": ["sk"], "ReturnConsumedCapacity": "TOTAL"}');
-- each range operator
SELECT op, hroe.dynamodb('Query', format('{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "%s", "AttributeValueList": %s}},
  "AttributesToGet": ["sk"]}', op, vals)::jsonb) -> 'Items'
FROM (VALUES ('EQ', '[{"N": "3"}]'), ('LE', '[{"N": "3"}]'), ('LT', '[{"N": "3"}]'), ('GE', '[{"N": "6"}]'),
             ('GT', '[{"N": "6"}]'), ('BETWEEN', '[{"N": "2"}, {"N": "4"}]')) v(op, vals);
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "ScanIndexForward": false, "Limit": 3, "AttributesToGet": ["sk"]}');
-- paging: LastEvaluatedKey as with a KeyConditionExpression
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "1"}]}},
  "ExclusiveStartKey": {"pk": {"S": "p"}, "sk": {"N": "5"}}, "Limit": 2, "Select": "COUNT"}');
-- a number with more than 38 digits, out of range too: the error a number
-- of an item gets (one normaliser, src/types/item_number.c), here and in the key
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "GT",
  "AttributeValueList": [{"N": "1234567890123456789012345678901234567891E200"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "ExclusiveStartKey": {"pk": {"S": "p"}, "sk": {"N": "-1234567890123456789012345678901234567891E-200"}}}');
-- on an index; with a FilterExpression (allowed with KeyConditions)
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "IndexName": "byG", "KeyConditions": {"g": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "odd"}]}}, "FilterExpression": "n > :n", "ExpressionAttributeValues": {":n": {"N": "40"}},
  "ProjectionExpression": "sk"}');
-- BEGINS_WITH on a string range key
SELECT hroe.dynamodb('PutItem', format('{"TableName": "lg_h", "Item": {"pk": {"S": "bw%s"}}}', i)::jsonb) FROM generate_series(1, 2) i;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "lg_s", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('PutItem', format('{"TableName": "lg_s", "Item": {"pk": {"S": "p"}, "sk": {"S": "%s"}}}', s)::jsonb)
FROM unnest(ARRAY['alpha', 'alps', 'beta']) s;
SELECT hroe.dynamodb('Query', '{"TableName": "lg_s", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "al"}]}}}');
-- KeyConditions' errors
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t"}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {}}');
SELECT op, hroe.dynamodb('Query', format('{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "%s",
  "AttributeValueList": %s}}}', op, vals)::jsonb) ->> 'message'
FROM (VALUES ('NE', '[{"S": "p"}]'), ('IN', '[{"S": "p"}]'), ('NULL', '[]'), ('NOT_NULL', '[]'),
             ('CONTAINS', '[{"S": "p"}]'), ('NOT_CONTAINS', '[{"S": "p"}]'), ('GT', '[{"S": "p"}]'),
             ('BEGINS_WITH', '[{"S": "p"}]'), ('EQ', '[{"N": "1"}]'), ('EQ', '[]')) v(op, vals);
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"sk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]},
  "n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_h", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}, "n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"AttributeValueList": [{"S": "p"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "eq", "AttributeValueList": [{"S": "p"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_nope", "KeyConditions": {"pk": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "p"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "IndexName": "nope", "KeyConditions": {"pk": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "p"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "ExpressionAttributeValues": {":p": {"S": "p"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "AttributesToGet": ["sk"], "QueryFilter": {"n": {"ComparisonOperator": "NULL"}},
  "ConditionalOperator": "OR", "KeyConditionExpression": "pk = :p", "FilterExpression": "n > :p", "ProjectionExpression": "sk",
  "ExpressionAttributeValues": {":p": {"S": "p"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "AttributesToGet": ["sk"], "FilterExpression": "n > :p",
  "ExpressionAttributeValues": {":p": {"S": "p"}}}');

-- ---------- QueryFilter and ScanFilter: every operator ----------
CREATE FUNCTION pg_temp.scan_filter(filter text, conditional text DEFAULT NULL) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT CASE WHEN r ? 'Items' THEN jsonb_build_object('sk', (SELECT jsonb_agg((i -> 'sk' ->> 'N')::int ORDER BY (i -> 'sk' ->> 'N')::int)
                                               FROM jsonb_array_elements(r -> 'Items') i),
                                         'Count', r -> 'Count', 'ScannedCount', r -> 'ScannedCount')
              ELSE r END
  FROM hroe.dynamodb('Scan', jsonb_build_object('TableName', 'lg_t', 'ScanFilter', filter::jsonb)
                     || CASE WHEN conditional IS NULL THEN '{}' ELSE jsonb_build_object('ConditionalOperator', conditional) END) r
$$;
SELECT f, pg_temp.scan_filter(f) FROM (VALUES
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "30"}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "30"}]}}'),
  ('{"ss": {"ComparisonOperator": "EQ", "AttributeValueList": [{"SS": ["b1", "a"]}]}}'),
  ('{"l": {"ComparisonOperator": "EQ", "AttributeValueList": [{"L": [{"S": "a"}, {"N": "2"}]}]}}'),
  ('{"m": {"ComparisonOperator": "EQ", "AttributeValueList": [{"M": {"k": {"N": "3"}}}]}}'),
  ('{"flag": {"ComparisonOperator": "EQ", "AttributeValueList": [{"BOOL": true}]}}'),
  ('{"n": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "30"}]}}'),
  ('{"g": {"ComparisonOperator": "NE", "AttributeValueList": [{"S": "odd"}]}}'),
  ('{"n": {"ComparisonOperator": "LE", "AttributeValueList": [{"N": "30"}]}}'),
  ('{"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "30"}]}}'),
  ('{"s": {"ComparisonOperator": "GE", "AttributeValueList": [{"S": "w7"}]}}'),
  ('{"bin": {"ComparisonOperator": "GT", "AttributeValueList": [{"B": "Yjc="}]}}'),
  ('{"g": {"ComparisonOperator": "NOT_NULL"}}'),
  ('{"g": {"ComparisonOperator": "NULL", "AttributeValueList": []}}'),
  ('{"s": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "5"}]}}'),
  ('{"ss": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "b1"}]}}'),
  ('{"ns": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "4"}]}}'),
  ('{"l": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"N": "6"}]}}'),
  ('{"ss": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "b1"}]}}'),
  ('{"g": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "d"}]}}'),
  ('{"s": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "w"}]}}'),
  ('{"bin": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"B": "Yg=="}]}}'),
  ('{"n": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "10"}, {"N": "80"}, {"N": "5"}]}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "20"}, {"N": "40"}]}}'),
  ('{"s": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"S": "w2"}, {"S": "w4"}]}}'),
  ('{"n": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "20"}]}, "flag": {"ComparisonOperator": "EQ", "AttributeValueList": [{"BOOL": true}]}}'),
  ('{}')) v(f);
SELECT c, pg_temp.scan_filter('{"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "20"}]},
  "s": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "w8"}]}}', c)
FROM unnest(ARRAY['AND', 'OR', 'XOR']) c;
-- wrong operand counts and types
SELECT f, pg_temp.scan_filter(f) ->> 'message' FROM (VALUES
  ('{"n": {"ComparisonOperator": "EQ"}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}, {"N": "2"}]}}'),
  ('{"n": {"ComparisonOperator": "NE", "AttributeValueList": []}}'),
  ('{"n": {"ComparisonOperator": "LE"}}'),
  ('{"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"N": "1"}, {"N": "2"}]}}'),
  ('{"n": {"ComparisonOperator": "GE"}}'),
  ('{"n": {"ComparisonOperator": "GT"}}'),
  ('{"n": {"ComparisonOperator": "NOT_NULL", "AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "NULL", "AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "CONTAINS"}}'),
  ('{"n": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"N": "1"}, {"N": "2"}]}}'),
  ('{"n": {"ComparisonOperator": "BEGINS_WITH"}}'),
  ('{"n": {"ComparisonOperator": "IN", "AttributeValueList": []}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}, {"N": "2"}, {"N": "3"}]}}'),
  ('{"n": {"ComparisonOperator": "LT", "AttributeValueList": [{"SS": ["a"]}]}}'),
  ('{"n": {"ComparisonOperator": "GE", "AttributeValueList": [{"BOOL": true}]}}'),
  ('{"n": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"NS": ["1"]}]}}'),
  ('{"n": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"L": []}]}}'),
  ('{"n": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "1"}, {"S": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "IN", "AttributeValueList": [{"M": {}}]}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}, {"S": "2"}]}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "2"}, {"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"NULL": true}, {"NULL": true}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"SS": []}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "x"}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a", "N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"SS": ["a", "a"]}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}, {"NULL": false}]}}'),
  ('{"n": {"ComparisonOperator": "EQ", "AttributeValueList": ["x"]}}'),
  ('{"n": {"AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": {"ComparisonOperator": "DOG", "AttributeValueList": [{"N": "1"}]}}'),
  ('{"n": "EQ"}')) v(f);
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "ScanFilter": {"n": {"ComparisonOperator": "NULL"}},
  "FilterExpression": "attribute_exists(n)", "ConditionalOperator": "AND"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "ScanFilter": {"n": {"ComparisonOperator": "NULL"}},
  "ExpressionAttributeValues": {":n": {"N": "1"}}}');
-- Limit counts items read before the filter
SELECT hroe.dynamodb('Scan', '{"TableName": "lg_t", "ScanFilter": {"n": {"ComparisonOperator": "GT",
  "AttributeValueList": [{"N": "1000"}]}}, "Limit": 3, "ReturnConsumedCapacity": "TOTAL"}') - 'LastEvaluatedKey';
-- QueryFilter: keys refused, the rest as ScanFilter
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "QueryFilter": {"n": {"ComparisonOperator": "BETWEEN",
  "AttributeValueList": [{"N": "20"}, {"N": "50"}]}, "ss": {"ComparisonOperator": "CONTAINS", "AttributeValueList": [{"S": "b0"}]}},
  "AttributesToGet": ["sk", "n"]}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "QueryFilter": {"n": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"N": "20"}]}, "s": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "w5"}]}},
  "ConditionalOperator": "OR", "Select": "COUNT"}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "KeyConditions": {"pk": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "p"}]}}, "QueryFilter": {"sk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "2"}]}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "IndexName": "byG", "KeyConditions": {"g": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "odd"}]}}, "QueryFilter": {"sk": {"ComparisonOperator": "GT", "AttributeValueList": [{"N": "4"}]}},
  "AttributesToGet": ["sk"]}');
SELECT hroe.dynamodb('Query', '{"TableName": "lg_t", "IndexName": "byG", "KeyConditions": {"g": {"ComparisonOperator": "EQ",
  "AttributeValueList": [{"S": "odd"}]}}, "QueryFilter": {"g": {"ComparisonOperator": "NOT_NULL"}}}');

-- ---------- Expected ----------
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e1"}, "v": {"N": "1"}, "t": {"S": "x"}},
  "Expected": {"pk": {"Exists": false}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e1"}},
  "Expected": {"pk": {"Exists": false}}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e1"}, "v": {"N": "2"}, "t": {"S": "x"}},
  "Expected": {"v": {"Value": {"N": "1"}}, "t": {"Exists": true, "Value": {"S": "x"}}}, "ReturnValues": "ALL_OLD"}');
SELECT c, hroe.dynamodb('PutItem', format('{"TableName": "lg_h", "Item": {"pk": {"S": "e1"}, "v": {"N": "2"}, "t": {"S": "x"}},
  "Expected": %s}', c)::jsonb)
FROM (VALUES ('{"v": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "2"}]}}'),
             ('{"v": {"ComparisonOperator": "GE", "Value": {"N": "3"}}}'),
             ('{"v": {"ComparisonOperator": "IN", "AttributeValueList": [{"N": "5"}, {"N": "2"}]}}'),
             ('{"v": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "0"}, {"N": "1"}]}}'),
             ('{"t": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "x"}]}, "nope": {"ComparisonOperator": "NOT_NULL"}}'),
             ('{"nope": {"ComparisonOperator": "NULL"}, "v": {"ComparisonOperator": "NE", "AttributeValueList": [{"N": "2"}]}}'),
             ('{}')) v(c);
SELECT c, hroe.dynamodb('PutItem', format('{"TableName": "lg_h", "Item": {"pk": {"S": "e1"}, "v": {"N": "2"}},
  "Expected": {"t": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "nope"}]}, "v": {"Value": {"N": "2"}}},
  "ConditionalOperator": "%s"}', c)::jsonb)
FROM unnest(ARRAY['AND', 'OR']) c;
-- on a missing item every attribute is absent
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "e-missing"}},
  "Expected": {"v": {"ComparisonOperator": "NOT_CONTAINS", "AttributeValueList": [{"S": "q"}]}}}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "e-missing"}},
  "Expected": {"v": {"Exists": true, "Value": {"N": "1"}}}}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "e1"}},
  "Expected": {"v": {"Value": {"N": "2"}}}, "ReturnValues": "ALL_OLD"}');
-- Expected's errors
SELECT c, hroe.dynamodb('PutItem', format('{"TableName": "lg_h", "Item": {"pk": {"S": "e2"}}, "Expected": %s}', c)::jsonb) ->> 'message'
FROM (VALUES ('{"a": {}}'), ('{"a": {"Exists": true}}'), ('{"a": {"Exists": false, "Value": {"S": "a"}}}'),
             ('{"a": {"ComparisonOperator": "LT"}}'), ('{"a": {"Exists": true, "ComparisonOperator": "LT"}}'),
             ('{"a": {"ComparisonOperator": "LT", "Value": {"S": "a"}, "AttributeValueList": [{"S": "a"}]}}'),
             ('{"a": {"AttributeValueList": [{"S": "a"}]}}'), ('{"a": {"Exists": true, "AttributeValueList": [{"S": "a"}]}}'),
             ('{"a": {"ComparisonOperator": "EQ", "AttributeValueList": []}}'),
             ('{"a": {"ComparisonOperator": "NULL", "AttributeValueList": [{"S": "a"}]}}'),
             ('{"a": {"ComparisonOperator": "NULL", "Value": {"S": "a"}}}'),
             ('{"a": {"ComparisonOperator": "BETWEEN", "Value": {"S": "a"}}}'),
             ('{"a": {"ComparisonOperator": "IN", "AttributeValueList": []}}'),
             ('{"a": {"ComparisonOperator": "LT", "Value": {"L": []}}}'),
             ('{"a": {"ComparisonOperator": "DOG", "Value": {"S": "a"}}}'),
             ('{"a": {"Value": {"SS": []}}}'),
             ('{"a": {"Value": {"N": "1e126"}}}')) v(c);
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e2"}}, "Expected": {"pk": {"Exists": false}},
  "ConditionExpression": "attribute_not_exists(pk)"}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e2"}}, "ConditionalOperator": "OR",
  "ConditionExpression": "attribute_not_exists(pk)"}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e2"}}, "Expected": {"pk": {"Exists": false}},
  "ExpressionAttributeNames": {"#p": "pk"}}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "e2"}}, "Expected": {"pk": {"Exists": false}},
  "ExpressionAttributeValues": {":p": {"S": "pk"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "lg_h", "Item": {"pk": {"S": "e2"}}, "ConditionalOperator": "NOR"}');

-- ---------- AttributeUpdates ----------
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"a": {"Action": "PUT", "Value": {"S": "x"}}, "n": {"Action": "ADD", "Value": {"N": "5"}},
  "ss": {"Action": "ADD", "Value": {"SS": ["a", "b"]}}, "l": {"Action": "ADD", "Value": {"L": [{"S": "a"}]}},
  "gone": {"Action": "DELETE"}, "ds": {"Action": "DELETE", "Value": {"NS": ["1"]}}, "d": {"Value": {"N": "1"}}},
  "ReturnValues": "ALL_NEW"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"n": {"Action": "ADD", "Value": {"N": "-7.5"}}, "ss": {"Action": "ADD", "Value": {"SS": ["b", "c"]}},
  "l": {"Action": "ADD", "Value": {"L": [{"N": "1"}]}}, "a": {"Action": "DELETE"}},
  "ReturnValues": "UPDATED_OLD"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"ss": {"Action": "DELETE", "Value": {"SS": ["a", "z"]}}, "a": {"Action": "DELETE"}},
  "ReturnValues": "UPDATED_NEW", "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"ss": {"Action": "DELETE", "Value": {"SS": ["b", "c"]}}}, "ReturnValues": "ALL_NEW"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u2"}}, "AttributeUpdates": {},
  "ReturnValues": "ALL_NEW"}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u2"}}}');
-- with Expected, on the item as it was
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"n": {"Action": "ADD", "Value": {"N": "1"}}}, "Expected": {"n": {"Value": {"N": "-2.5"}}},
  "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"n": {"Action": "ADD", "Value": {"N": "1"}}}, "Expected": {"n": {"Value": {"N": "-2.5"}}}}');
-- a mismatch when applied
SELECT u, hroe.dynamodb('UpdateItem', format('{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}}, "AttributeUpdates": %s}', u)::jsonb)
FROM (VALUES ('{"l": {"Action": "ADD", "Value": {"N": "1"}}}'), ('{"n": {"Action": "ADD", "Value": {"NS": ["1"]}}}'),
             ('{"l": {"Action": "DELETE", "Value": {"SS": ["a"]}}}'), ('{"n": {"Action": "ADD", "Value": {"L": []}}}')) v(u);
-- AttributeUpdates' errors
SELECT u, hroe.dynamodb('UpdateItem', format('{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}}, "AttributeUpdates": %s}', u)::jsonb) ->> 'message'
FROM (VALUES ('{"a": {"Action": "PUT"}}'), ('{"a": {}}'), ('{"a": {"Action": "ADD"}}'),
             ('{"a": {"Action": "DELETE", "Value": {"S": "x"}}}'), ('{"a": {"Action": "DELETE", "Value": {"N": "1"}}}'),
             ('{"a": {"Action": "DELETE", "Value": {"L": []}}}'), ('{"a": {"Action": "ADD", "Value": {"S": "x"}}}'),
             ('{"a": {"Action": "ADD", "Value": {"B": "Yg=="}}}'), ('{"a": {"Action": "ADD", "Value": {"M": {}}}}'),
             ('{"a": {"Action": "ADD", "Value": {"BOOL": true}}}'), ('{"a": {"Action": "ADD", "Value": {"NULL": true}}}'),
             ('{"a": {"Action": "SET", "Value": {"S": "x"}}}'), ('{"a": {"Action": "PUT", "Value": {"NS": []}}}'),
             ('{"pk": {"Action": "PUT", "Value": {"S": "x"}}}')) v(u);
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributeUpdates": {"sk": {"Action": "DELETE"}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "AttributeUpdates": {"g": {"Action": "PUT", "Value": {"N": "1"}}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"a": {"Action": "PUT", "Value": {"S": "x"}}}, "UpdateExpression": "SET a = :v",
  "ExpressionAttributeValues": {":v": {"S": "x"}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"a": {"Action": "PUT", "Value": {"S": "x"}}}, "Expected": {"a": {"Exists": false}},
  "UpdateExpression": "SET a = :v", "ConditionExpression": "attribute_not_exists(a)", "ConditionalOperator": "OR",
  "ExpressionAttributeValues": {":v": {"S": "x"}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}},
  "AttributeUpdates": {"a": {"Action": "PUT", "Value": {"S": "x"}}}, "ExpressionAttributeValues": {":v": {"S": "x"}}}');
-- nothing written by the failed requests
SELECT hroe.dynamodb('GetItem', '{"TableName": "lg_h", "Key": {"pk": {"S": "u1"}}, "ConsistentRead": true}');

-- ---------- the text entry and the SQL-level call ----------
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "lg_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "2"}}, "AttributesToGet": ["s"]}');
SELECT hroe.dynamodb_text('Scan', '{"TableName": "lg_t", "ScanFilter": {"s": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "w2"}]}}, "AttributesToGet": ["sk"]}');

SELECT t, hroe.dynamodb('DeleteTable', jsonb_build_object('TableName', t)) #>> '{TableDescription, TableStatus}'
FROM unnest(ARRAY['lg_t', 'lg_h', 'lg_s']) t;
