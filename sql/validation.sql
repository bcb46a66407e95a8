-- DynamoDB's first pass over a request (src/api/api_validate.c): the members'
-- constraints, in DynamoDB's order, every violation in one message, before
-- the table is looked up; and DynamoDB's exact texts for the item operations.
SELECT hroe.dynamodb('CreateTable', '{"TableName": "val_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "val_c", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';

-- the table name, checked before the table is looked up
SELECT hroe.dynamodb('PutItem', '{"Item": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "", "Item": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}}}', repeat('a', 256))::jsonb)->>'message' =
  format('1 validation error detected: Value ''%s'' at ''tableName'' failed to satisfy constraint: Member must have length less than or equal to 255', repeat('a', 256)) AS long_name;
SELECT hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}}}', repeat('a', 1025))::jsonb)->>'message' AS over_1024;
SELECT hroe.dynamodb('PutItem', '{"TableName": "bad table!@#", "Item": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "ab", "Key": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "x!", "Key": {}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "", "Key": {}}');
SELECT hroe.dynamodb('Query', '{"TableName": "abc!", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "a"}}, "Select": "INVALID"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "a"}');
-- a valid name of no table: ResourceNotFoundException, as before
SELECT hroe.dynamodb('GetItem', '{"TableName": "val_none", "Key": {"pk": {"S": "a"}}}');

-- several violations in one message, in DynamoDB's order (PutItem and
-- DeleteItem report an invalid table name alone)
SELECT hroe.dynamodb('PutItem', '{"TableName": "", "ReturnValues": "INVALID", "Item": {}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_none", "Item": {"pk": {"S": "a"}},
  "ReturnConsumedCapacity": "INVALID", "ReturnItemCollectionMetrics": "INVALID", "ReturnValues": "INVALID"}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "val_none", "Key": {"pk": {"S": "a"}},
  "ReturnValues": "INVALID", "ReturnConsumedCapacity": "INVALID"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "val_none", "Key": {"pk": {"S": "a"}},
  "ReturnValues": "INVALID", "ReturnConsumedCapacity": "INVALID"}');
SELECT hroe.dynamodb('Query', '{"TableName": "val_t", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "a"}}, "ReturnConsumedCapacity": "INVALID", "Select": "INVALID"}');
SELECT hroe.dynamodb('Scan', '{"IndexName": "x", "TotalSegments": 0, "Segment": -1, "Limit": 0}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "v!", "ReturnConsumedCapacity": "ALL"}');
-- Limit: DynamoDB does not echo the value
SELECT hroe.dynamodb('Query', '{"TableName": "val_t", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "a"}}, "Limit": 0}');
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "Limit": -3}');
-- ReturnValues' enum first; PutItem's ALL_NEW is valid there, refused after
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}}, "ReturnValues": "ALL_NEW"}');

-- the batches
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi"}');
SELECT hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems', jsonb_build_object('val_t',
  jsonb_build_object('Keys', (SELECT jsonb_agg(jsonb_build_object('pk', jsonb_build_object('S', 'k' || i))) FROM generate_series(1, 101) i)))));
SELECT hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('val_t',
  (SELECT jsonb_agg(CASE WHEN i = 2 THEN jsonb_build_object('DeleteRequest', jsonb_build_object('Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || i))))
                         ELSE jsonb_build_object('PutRequest', jsonb_build_object('Item', jsonb_build_object('pk', jsonb_build_object('S', 'k' || i)))) END)
   FROM generate_series(1, 26) i))))->>'message' ~
  '^1 validation error detected: Value ''\{val_t=\[WriteRequest\(putRequest=PutRequest\(item=\{pk=com\.amazonaws\.dynamodb\.v20120810\.AttributeValue@[0-9a-f]{8}\}, workloadProfileName=null\), deleteRequest=null\), WriteRequest\(putRequest=null, deleteRequest=DeleteRequest\(key=\{pk=com\.amazonaws\.dynamodb\.v20120810\.AttributeValue@[0-9a-f]{8}\}\)\), .*\]\}'' at ''requestItems'' failed to satisfy constraint: Map value must satisfy constraint: \[Member must have length less than or equal to 25, Member must have length greater than or equal to 1\]$' AS over_25;
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"val_t": []}}');
-- nothing was written
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "Select": "COUNT"}');

-- the transactions
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": []}');
SELECT hroe.dynamodb('TransactGetItems', '{}');
SELECT hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems',
  (SELECT jsonb_agg(jsonb_build_object('Put', jsonb_build_object('TableName', 'val_t', 'Item', jsonb_build_object('pk', jsonb_build_object('S', 'k' || i)))))
   FROM generate_series(1, 101) i)))->>'message' ~
  '^1 validation error detected: Value ''\[(com\.amazonaws\.dynamodb\.v20120810\.TransactWriteItem@[0-9a-f]{8}, ){100}com\.amazonaws\.dynamodb\.v20120810\.TransactWriteItem@[0-9a-f]{8}\]'' at ''transactItems'' failed to satisfy constraint: Member must have length less than or equal to 100$' AS over_100;
SELECT hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems',
  (SELECT jsonb_agg(jsonb_build_object('Get', jsonb_build_object('TableName', 'val_t', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || i)))))
   FROM generate_series(1, 101) i)))->>'message' ~
  '^1 validation error detected: Value ''\[(com\.amazonaws\.dynamodb\.v20120810\.TransactGetItem@[0-9a-f]{8}, ){100}com\.amazonaws\.dynamodb\.v20120810\.TransactGetItem@[0-9a-f]{8}\]'' at ''transactItems'' failed to satisfy constraint: Member must have length less than or equal to 100$' AS get_over_100;
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [], "ReturnConsumedCapacity": "ALL"}');
-- a Get whose key has another shape than its table's cancels the transaction
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [
  {"Get": {"TableName": "val_t", "Key": {"pk": {"S": "a"}}}}, {"Get": {"TableName": "val_t", "Key": {}}}]}');
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "val_c", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}]}');
-- (a write's too, as one of another type: sql/transact_keys.sql)
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [{"Delete": {"TableName": "val_t", "Key": {}}}]}');

-- expression and non-expression parameters together
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}},
  "Expected": {"pk": {"Exists": false}}, "ConditionExpression": "attribute_not_exists(pk)"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "val_t", "Key": {"pk": {"S": "a"}},
  "AttributeUpdates": {"a": {"Action": "DELETE"}}, "Expected": {"pk": {"Exists": true}},
  "UpdateExpression": "SET b = :b", "ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":b": {"N": "1"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "val_t", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}},
  "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]}}, "ConditionalOperator": "AND"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "ProjectionExpression": "pk", "AttributesToGet": ["pk"]}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"val_t": {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk", "AttributesToGet": ["pk"]}}}');
-- an unused ExpressionAttributeValues without an expression
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}}, "ExpressionAttributeValues": {":v": {"S": "x"}}}');

-- the sets' texts, by type
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"SS": []}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"NS": []}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"BS": []}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"SS": ["a", "a"]}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"NS": ["1", "1.0"]}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "s": {"BS": ["Yg==", "Yg=="]}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "val_t", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET s = :s",
  "ExpressionAttributeValues": {":s": {"BS": []}}}');

-- malformed base64: the request parser's SerializationException
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "b": {"B": "abcde"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "b": {"B": "ab!d"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "b": {"BS": ["YQ==", "a"]}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}, "b": {"B": "YQ=="}}}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "val_t", "Key": {"pk": {"S": "a"}}}');

-- the table operations: the name required (DynamoDB's sentence), then a name
SELECT hroe.dynamodb('CreateTable', '{"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "x!", "AttributeDefinitions": [], "KeySchema": []}');
SELECT hroe.dynamodb('DescribeTable', '{}');
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "a;"}');
SELECT hroe.dynamodb('UpdateTable', format('{"TableName": "%s"}', repeat('t', 256))::jsonb);
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "ab;"}');

-- only S, N and B are ordered: another type of value refused in < <= > >= and BETWEEN
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}}, "ConditionExpression": "s < :s",
  "ExpressionAttributeValues": {":s": {"SS": ["x"]}}}');
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "FilterExpression": "attribute_exists(pk) OR n BETWEEN :a AND :b",
  "ExpressionAttributeValues": {":a": {"BOOL": true}, ":b": {"BOOL": false}}}');
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "FilterExpression": "NOT (:m >= n)", "ExpressionAttributeValues": {":m": {"M": {}}}}');
-- equality takes any type; a path of another type compares false
SELECT hroe.dynamodb('Scan', '{"TableName": "val_t", "FilterExpression": "s = :s OR b > pk", "ExpressionAttributeValues": {":s": {"SS": ["x"]}}}');
-- in ExpressionAttributeValues too, and in a key
SELECT hroe.dynamodb('PutItem', '{"TableName": "val_t", "Item": {"pk": {"S": "a"}}, "ConditionExpression": "b = :b",
  "ExpressionAttributeValues": {":b": {"B": "abc"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "val_t", "KeyConditionExpression": "pk = :p", "FilterExpression": "contains(b, :b)",
  "ExpressionAttributeValues": {":p": {"S": "a"}, ":b": {"BS": ["YQ==", "Y!=="]}}}');
-- CreateTable: the table name's constraints reported with its other members' violations
SELECT hroe.dynamodb('CreateTable', '{"TableName": "x!", "BillingMode": "BAD",
  "KeySchema": [{"AttributeName": "a", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"}, {"AttributeName": "c", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "a", "AttributeType": "S"}]}') ->> 'message' AS grouped;
