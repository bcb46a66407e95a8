--
-- hroe.dynamodb: ReturnConsumedCapacity on TransactWriteItems and
-- TransactGetItems (one entry per table, in request order; transactional
-- reads and writes cost twice as much and carry ReadCapacityUnits or
-- WriteCapacityUnits), and ReturnItemCollectionMetrics (SIZE or NONE: no
-- metrics for a table without local secondary indexes: sql/lsi.sql).
--
\set VERBOSITY terse
SELECT hroe.dynamodb('CreateTable', '{"TableName": "cap_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}') #> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "cap_u", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('PutItem', format('{"TableName": "cap_t", "Item": {"pk": {"S": "big"}, "s": {"S": "%s"}}}',
	repeat('x', 1500))::jsonb);

-- cap_t: a new small item entering byG (2 + 2), the 1.5 KB item deleted
-- (2 x 2); cap_u: a put (2), a ConditionCheck, charged as a write (2)
SELECT jsonb_pretty(hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "TOTAL", "TransactItems": [
  {"Put": {"TableName": "cap_t", "Item": {"pk": {"S": "a"}, "g": {"S": "x"}}}},
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "a"}}}},
  {"Delete": {"TableName": "cap_t", "Key": {"pk": {"S": "big"}}}},
  {"ConditionCheck": {"TableName": "cap_u", "Key": {"pk": {"S": "zz"}}, "ConditionExpression": "attribute_not_exists(pk)"}}]}'));
-- INDEXES: a changed index key costs the index a delete and a put (2 x 2)
SELECT jsonb_pretty(hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "INDEXES", "ClientRequestToken": "cap-1",
  "TransactItems": [
  {"Update": {"TableName": "cap_t", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET g = :g",
              "ExpressionAttributeValues": {":g": {"S": "y"}}}},
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "b"}}}}]}'));
-- the replay of a token writes nothing: it reports reading the items,
-- transactionally (2 units per item up to 4 KB)
SELECT jsonb_pretty(hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "INDEXES", "ClientRequestToken": "cap-1",
  "TransactItems": [
  {"Update": {"TableName": "cap_t", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET g = :g",
              "ExpressionAttributeValues": {":g": {"S": "y"}}}},
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "b"}}}}]}'));
SELECT hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "NONE", "TransactItems": [
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "c"}}}}]}');
-- a cancelled transaction returns its error, no capacity
SELECT hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "TOTAL", "TransactItems": [
  {"ConditionCheck": {"TableName": "cap_u", "Key": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_not_exists(pk)"}}]}') ->> '__type';
-- reads: 2 per item up to 4 KB, an absent item too
SELECT jsonb_pretty(hroe.dynamodb('TransactGetItems', '{"ReturnConsumedCapacity": "INDEXES", "TransactItems": [
  {"Get": {"TableName": "cap_t", "Key": {"pk": {"S": "a"}}}},
  {"Get": {"TableName": "cap_t", "Key": {"pk": {"S": "nope"}}}},
  {"Get": {"TableName": "cap_u", "Key": {"pk": {"S": "a"}}}}]}'));
SELECT hroe.dynamodb('TransactGetItems', '{"ReturnConsumedCapacity": "TOTAL", "TransactItems": [
  {"Get": {"TableName": "cap_u", "Key": {"pk": {"S": "a"}}}}]}') -> 'ConsumedCapacity';
-- the SQL functions (no ReturnConsumedCapacity parameter) are unchanged
SELECT hroe.transact_get_items('[{"Get": {"TableName": "cap_u", "Key": {"pk": {"S": "b"}}}}]');

-- validation: DynamoDB's enums, case-sensitive
SELECT hroe.dynamodb('TransactWriteItems', '{"ReturnConsumedCapacity": "ALL", "TransactItems": [
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "d"}}}}]}');
SELECT hroe.dynamodb('TransactGetItems', '{"ReturnConsumedCapacity": "total", "TransactItems": [
  {"Get": {"TableName": "cap_u", "Key": {"pk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"ReturnItemCollectionMetrics": "ALL", "TransactItems": [
  {"Put": {"TableName": "cap_u", "Item": {"pk": {"S": "d"}}}}]}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "cap_u", "Item": {"pk": {"S": "d"}}, "ReturnItemCollectionMetrics": "YES"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "cap_u", "Key": {"pk": {"S": "d"}}, "UpdateExpression": "SET v = :v",
  "ExpressionAttributeValues": {":v": {"N": "1"}}, "ReturnItemCollectionMetrics": "size"}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "cap_u", "Key": {"pk": {"S": "d"}}, "ReturnItemCollectionMetrics": ""}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"cap_u": [{"PutRequest": {"Item": {"pk": {"S": "d"}}}}]},
  "ReturnItemCollectionMetrics": "TOTAL"}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "cap_u", "Key": {"pk": {"S": "d"}}}');
-- SIZE and NONE: accepted, no ItemCollectionMetrics (no LSIs)
SELECT hroe.dynamodb('PutItem', '{"TableName": "cap_u", "Item": {"pk": {"S": "d"}}, "ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "cap_u", "Key": {"pk": {"S": "d"}}, "UpdateExpression": "SET v = :v",
  "ExpressionAttributeValues": {":v": {"N": "1"}}, "ReturnItemCollectionMetrics": "SIZE", "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"cap_u": [{"PutRequest": {"Item": {"pk": {"S": "e"}}}}]},
  "ReturnItemCollectionMetrics": "SIZE"}');
SELECT hroe.dynamodb('TransactWriteItems', '{"ReturnItemCollectionMetrics": "SIZE", "TransactItems": [
  {"Delete": {"TableName": "cap_u", "Key": {"pk": {"S": "e"}}}}]}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "cap_u", "Key": {"pk": {"S": "d"}}, "ReturnItemCollectionMetrics": "NONE",
  "ReturnValues": "ALL_OLD"}');

-- DeleteTable returns the description, TableStatus DELETING
SELECT jsonb_pretty(hroe.dynamodb('DeleteTable', '{"TableName": "cap_t"}') #- '{TableDescription, CreationDateTime}' #- '{TableDescription, TableId}' #- '{TableDescription, BillingModeSummary, LastUpdateToPayPerRequestDateTime}');
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "cap_u"}') #> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "cap_u"}');
