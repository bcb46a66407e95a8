-- hroe.dynamodb: DynamoDB's JSON API.  Responses are DynamoDB's bodies;
-- errors are {"__type", "message"}; a failed request leaves nothing written.
SELECT hroe.dynamodb('CreateTable', '{"TableName": "api_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "KEYS_ONLY"}}]}') #- '{TableDescription, CreationDateTime}' #- '{TableDescription, TableId}' #- '{TableDescription, BillingModeSummary, LastUpdateToPayPerRequestDateTime}';
SELECT hroe.dynamodb('PutItem', format('{"TableName": "api_t", "Item": {"pk": {"S": "p"}, "sk": {"N": "%s"}, "n": {"N": "%s"}, "g": {"S": "x%s"}}}', i, i * 10, i % 2)::jsonb)
FROM generate_series(1, 5) i;
SELECT hroe.dynamodb('GetItem', '{"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "2"}}, "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "9"}}}');
-- Query: Limit counts items read before the filter; Count after it
SELECT hroe.dynamodb('Query', '{"TableName": "api_t", "KeyConditionExpression": "pk = :p AND sk >= :s",
  "FilterExpression": "n > :n", "ProjectionExpression": "sk, n", "Limit": 3,
  "ExpressionAttributeValues": {":p": {"S": "p"}, ":s": {"N": "2"}, ":n": {"N": "30"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "api_t", "IndexName": "byG", "KeyConditionExpression": "g = :g",
  "ExpressionAttributeValues": {":g": {"S": "x1"}}, "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('Scan', '{"TableName": "api_t", "Select": "COUNT", "FilterExpression": "n <> :n",
  "ExpressionAttributeValues": {":n": {"N": "10"}}}');
-- conditional writes, UpdateItem, ReturnValues
SELECT hroe.dynamodb('PutItem', '{"TableName": "api_t", "Item": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "ConditionExpression": "attribute_not_exists(pk)"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "UpdateExpression": "SET n = n + :d ADD tags :t", "ConditionExpression": "n = :ten",
  "ExpressionAttributeValues": {":d": {"N": "5"}, ":t": {"SS": ["a"]}, ":ten": {"N": "10"}}, "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}},
  "UpdateExpression": "SET n = :z", "ConditionExpression": "n = :ten",
  "ExpressionAttributeValues": {":z": {"N": "0"}, ":ten": {"N": "10"}}}');
SELECT hroe.dynamodb('DeleteItem', '{"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "5"}},
  "ConditionExpression": "n = :n", "ExpressionAttributeValues": {":n": {"N": "50"}}, "ReturnValues": "ALL_OLD"}');
-- transactions: all or nothing
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "api_t", "Item": {"pk": {"S": "q"}, "sk": {"N": "1"}}}},
  {"ConditionCheck": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "2"}},
                      "ConditionExpression": "n > :n", "ExpressionAttributeValues": {":n": {"N": "100"}}}}]}');
-- an error while applying (the update makes an item over 400 KB) cancels the transaction
-- (ValidationError, UpdateItem's wording) and rolls back the Put before it
SELECT hroe.dynamodb('TransactWriteItems', format('{"TransactItems": [
  {"Put": {"TableName": "api_t", "Item": {"pk": {"S": "q"}, "sk": {"N": "2"}}}},
  {"Update": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "2"}},
              "UpdateExpression": "SET big = :b", "ExpressionAttributeValues": {":b": {"S": "%s"}}}}]}', repeat('x', 409600))::jsonb);
SELECT pk, sk FROM api_t WHERE pk OPERATOR(hroe.=) 'q'::hroe.key;
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "api_t", "Item": {"pk": {"S": "q"}, "sk": {"N": "3"}}}},
  {"Delete": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "4"}}, "ConditionExpression": "attribute_exists(pk)"}}]}');
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [
  {"Get": {"TableName": "api_t", "Key": {"pk": {"S": "q"}, "sk": {"N": "3"}}}},
  {"Get": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "4"}}}},
  {"Get": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}}, "ProjectionExpression": "tags"}}]}');
-- batches
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"api_t": {"Keys": [{"pk": {"S": "p"}, "sk": {"N": "1"}}],
  "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "n"}}}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"api_t": [{"DeleteRequest": {"Key": {"pk": {"S": "q"}, "sk": {"N": "3"}}}}]}}');
-- errors
SELECT hroe.dynamodb('GetItem', '{"TableName": "nope", "Key": {"pk": {"S": "p"}}}');
SELECT hroe.dynamodb('GetItem', '{"Key": {"pk": {"S": "p"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "api_t", "Item": {"pk": {"S": "p"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "api_t", "Item": {"pk": {"S": "p"}, "sk": {"N": "1e999"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "api_t", "KeyConditionExpression": "pk = :p", "FilterExpression": "sk > :p",
  "ExpressionAttributeValues": {":p": {"S": "p"}}}');
SELECT hroe.dynamodb('DescribeTableReplicaAutoScaling', '{}');
SELECT hroe.dynamodb('GetItem', '[1, 2]');
SELECT hroe.dynamodb('GetItem', '{"TableName": 5}');
-- the same operations as SQL functions: errors are raised (DynamoDB has no "*")
SELECT * FROM hroe.update_item('api_t', '{"pk": {"S": "p"}, "sk": {"N": "1"}}', 'SET n = n * :x',
  p_expression_attribute_values => '{":x": {"N": "2"}}');
SELECT * FROM hroe.update_item('api_t', '{"pk": {"S": "p"}, "sk": {"N": "1"}}', 'SET n = n + :x',
  p_expression_attribute_values => '{":x": {"N": "2"}}', p_return_values => 'UPDATED_OLD',
  p_return_consumed_capacity => 'TOTAL');
SELECT * FROM hroe.update_item('api_t', '{"pk": {"S": "p"}, "sk": {"N": "1"}}', 'REMOVE tags',
  'n = :x', NULL, '{":x": {"N": "0"}}');
SELECT * FROM hroe.update_item('api_t', '{"pk": {"S": "p"}, "sk": {"N": "7"}}', NULL, NULL, NULL, NULL, 'ALL_NEW');
SELECT hroe.transact_write_items('[{"Delete": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "7"}}, "ConditionExpression": "attribute_exists(n)"}}]');
SELECT hroe.transact_write_items('[{"Delete": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "7"}}}}]');
SELECT hroe.transact_get_items('[{"Get": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "7"}}}},
  {"Get": {"TableName": "api_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}}, "ProjectionExpression": "n"}}]');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "api_t"}') #> '{Table, GlobalSecondaryIndexes}';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "api_t"}') #>> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "api_t"}');
-- a missing privilege on the table answers AccessDeniedException, naming the
-- role and the table (sql/security_api.sql tests every operation)
SELECT hroe.dynamodb('CreateTable', '{"TableName": "api_private", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #>> '{TableDescription, TableName}';
CREATE ROLE api_nobody;
GRANT USAGE ON SCHEMA hroe TO api_nobody;
SET ROLE api_nobody;
SELECT hroe.dynamodb('GetItem', '{"TableName": "api_private", "Key": {"pk": {"S": "a"}}}');
RESET ROLE;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "api_private"}') #>> '{TableDescription, TableStatus}';
DROP OWNED BY api_nobody;
DROP ROLE api_nobody;
