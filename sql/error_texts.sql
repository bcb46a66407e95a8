-- DynamoDB's texts for a request's invalid values, each on every operation
-- it applies to (issue #31): empty S and B key values, a Select beside a
-- projection, a malformed ExclusiveStartKey, an INCLUDE projection without
-- NonKeyAttributes, projections of both kinds in one BatchGetItem, a new
-- GSI's key attributes missing from UpdateTable's AttributeDefinitions
SELECT hroe.dynamodb('CreateTable', '{"TableName": "et_s", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "et_b", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "B"}, {"AttributeName": "sk", "AttributeType": "S"},
    {"AttributeName": "gb", "AttributeType": "B"}, {"AttributeName": "gs", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [
    {"IndexName": "byB", "KeySchema": [{"AttributeName": "gb", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "byS", "KeySchema": [{"AttributeName": "gs", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}]}') -> 'TableDescription' -> 'TableName';

-- an empty key value: one text, as an item's key and as a lookup key
SELECT hroe.dynamodb('PutItem', '{"TableName": "et_b", "Item": {"pk": {"B": ""}, "sk": {"S": "a"}}}') ->> 'message';
SELECT hroe.dynamodb('GetItem', '{"TableName": "et_b", "Key": {"pk": {"B": ""}, "sk": {"S": "a"}}}') ->> 'message';
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "et_b", "Key": {"pk": {"B": ""}, "sk": {"S": "a"}}}') ->> 'message';
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "et_b", "Key": {"pk": {"B": ""}, "sk": {"S": "a"}},
  "UpdateExpression": "SET x = :v", "ExpressionAttributeValues": {":v": {"S": "x"}}}') ->> 'message';
SELECT hroe.dynamodb('GetItem', '{"TableName": "et_b", "Key": {"pk": {"B": "AQ=="}, "sk": {"S": ""}}}') ->> 'message';
SELECT hroe.dynamodb('GetItem', '{"TableName": "et_s", "Key": {"pk": {"S": ""}}}') ->> 'message';
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"et_b": {"Keys": [{"pk": {"B": ""}, "sk": {"S": "a"}}]}}}') ->> 'message';
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"et_b": [{"DeleteRequest": {"Key": {"pk": {"B": ""}, "sk": {"S": "a"}}}}]}}') ->> 'message';
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"et_s": [{"DeleteRequest": {"Key": {"pk": {"S": ""}}}}]}}') ->> 'message';
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [{"Delete": {"TableName": "et_b",
  "Key": {"pk": {"B": ""}, "sk": {"S": "a"}}}}]}') ->> 'message';
-- SQL
SELECT hroe.get_item('et_b', '{"pk": {"B": ""}, "sk": {"S": "a"}}');
-- a secondary index key: the item's text names the index; an update's does not
SELECT hroe.dynamodb('PutItem', '{"TableName": "et_b", "Item": {"pk": {"B": "AQ=="}, "sk": {"S": "a"}, "gb": {"B": ""}}}') ->> 'message';
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "et_b", "Key": {"pk": {"B": "AQ=="}, "sk": {"S": "a"}},
  "UpdateExpression": "SET gb = :v", "ExpressionAttributeValues": {":v": {"B": ""}}}') ->> 'message';
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "et_b", "Key": {"pk": {"B": "AQ=="}, "sk": {"S": "a"}},
  "UpdateExpression": "SET gs = :v", "ExpressionAttributeValues": {":v": {"S": ""}}}') ->> 'message';
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "et_b", "Key": {"pk": {"B": "AQ=="}, "sk": {"S": "a"}},
  "AttributeUpdates": {"gs": {"Action": "PUT", "Value": {"S": ""}}}}') ->> 'message';
-- nothing was written
SELECT hroe.dynamodb('Scan', '{"TableName": "et_b"}') -> 'Count';

-- Select beside a projection; SPECIFIC_ATTRIBUTES without one
SELECT hroe.dynamodb('Query', '{"TableName": "et_s", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "a"}}, "Select": "COUNT", "ProjectionExpression": "pk"}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "Select": "COUNT", "ProjectionExpression": "pk"}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "Select": "COUNT", "AttributesToGet": ["pk"]}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "Select": "ALL_ATTRIBUTES", "ProjectionExpression": "pk"}') ->> 'message';
SELECT hroe.dynamodb('Query', '{"TableName": "et_s", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "a"}}, "Select": "SPECIFIC_ATTRIBUTES"}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "Select": "SPECIFIC_ATTRIBUTES"}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "Select": "SPECIFIC_ATTRIBUTES", "AttributesToGet": ["pk"]}') -> 'Count';

-- ExclusiveStartKey: too few or too many attributes; as many, not the key's
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "ExclusiveStartKey": {"bad": {"S": "p"}}}') ->> 'message';
SELECT hroe.dynamodb('Scan', '{"TableName": "et_s", "ExclusiveStartKey": {"pk": {"S": "p"}, "x": {"S": "p"}}}') ->> 'message';
SELECT hroe.dynamodb('Query', '{"TableName": "et_b", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"B": "AQ=="}}, "ExclusiveStartKey": {"bad": {"S": "p"}}}') ->> 'message';
SELECT hroe.dynamodb('Query', '{"TableName": "et_b", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"B": "AQ=="}}, "ExclusiveStartKey": {"pk": {"B": "AQ=="}, "bad": {"S": "p"}}}') ->> 'message';
SELECT hroe.dynamodb('Query', '{"TableName": "et_b", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"B": "AQ=="}}, "ExclusiveStartKey": {"pk": {"B": "AQ=="}, "sk": {"S": ""}}}') ->> 'message';
SELECT hroe.dynamodb('Query', '{"TableName": "et_b", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"B": "AQ=="}}, "ExclusiveStartKey": {"pk": {"B": ""}, "sk": {"S": "a"}}}') ->> 'message';

-- INCLUDE without NonKeyAttributes: CreateTable, UpdateTable, SQL
SELECT hroe.dynamodb('CreateTable', '{"TableName": "et_inc", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "gix", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "INCLUDE"}}]}') ->> 'message';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "et_s",
  "AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "gix", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "INCLUDE"}}}]}') ->> 'message';
SELECT hroe.create_index('et_s', 'gix', '{g}', '{}', '{"g": "S"}', 'INCLUDE');
SELECT hroe.create_index('et_s', 'gix', '{g}', '{}', '{"g": "S"}', 'INCLUDE', '{}');

-- UpdateTable: a new GSI's key attributes all in the request's
-- AttributeDefinitions, the table's own too
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "et_s",
  "AttributeDefinitions": [{"AttributeName": "g3", "AttributeType": "S"}],
  "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "gpk", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
    {"AttributeName": "g3", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}') ->> 'message';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "et_s",
  "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "gpk", "KeySchema": [{"AttributeName": "g3", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}') ->> 'message';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "et_s",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g3", "AttributeType": "S"}],
  "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "gpk", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
    {"AttributeName": "g3", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}')
  #> '{TableDescription,TableName}';
SELECT index_name FROM hroe.indexes WHERE table_name = 'et_s';

-- BatchGetItem: a ProjectionExpression for one table, AttributesToGet for another
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {
  "et_s": {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk"},
  "et_b": {"Keys": [{"pk": {"B": "AQ=="}, "sk": {"S": "a"}}], "AttributesToGet": ["pk"]}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {
  "et_s": {"Keys": [{"pk": {"S": "a"}}], "ProjectionExpression": "pk"},
  "et_b": {"Keys": [{"pk": {"B": "AQ=="}, "sk": {"S": "a"}}], "ProjectionExpression": "pk"}}}') -> 'Responses' -> 'et_s';

-- PutItem and DeleteItem: an invalid table name alone
SELECT hroe.dynamodb('PutItem', '{"TableName": "", "ReturnValues": "INVALID", "Item": {}}') ->> 'message';
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "x!", "ReturnConsumedCapacity": "INVALID", "Key": {}}') ->> 'message';
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "et_s", "ReturnValues": "INVALID", "ReturnConsumedCapacity": "INVALID",
  "Key": {"pk": {"S": "a"}}}') ->> 'message';

SELECT hroe.dynamodb('DeleteTable', '{"TableName": "et_s"}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "et_b"}') -> 'TableDescription' -> 'TableName';
