--
-- TransactWriteItems' key checks (hroe.dynamodb and hroe.transact_write_items):
-- what DynamoDB's input validation finds (an empty table or index key, a key
-- attribute missing from a Put's item) is the request's ValidationException;
-- a key of another type than its schema's (or a lookup key of another shape
-- than the table's), found as the transaction runs, cancels it with a
-- ValidationError reason for that action and writes nothing.  Also: the
-- replay of a ClientRequestToken reports transactional read units,
-- TransactGetItems omits the Item of a projection matching nothing, and
-- BatchWriteItem refuses a put key of another type with E3.
--
\set VERBOSITY terse
SELECT hroe.dynamodb('CreateTable', '{"TableName": "txk", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
                           {"AttributeName": "ik", "AttributeType": "S"}, {"AttributeName": "ib", "AttributeType": "B"}],
  "GlobalSecondaryIndexes": [
    {"IndexName": "zgsi", "KeySchema": [{"AttributeName": "ik", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "agsi", "KeySchema": [{"AttributeName": "ik", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "bgsi", "KeySchema": [{"AttributeName": "ib", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}')
  #> '{TableDescription, TableStatus}';
SELECT hroe.dynamodb('PutItem', '{"TableName": "txk", "Item": {"pk": {"S": "old"}, "sk": {"S": "a"}, "n": {"N": "1"}}}');

-- Put: a table key of another type, a non-scalar one: cancelled, the
-- position's reason carries PutItem's message, the other action None
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}}}},
  {"Put": {"TableName": "txk", "Item": {"pk": {"N": "5"}, "sk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"L": [{"S": "x"}]}}}}]}');
-- several invalid actions: a ValidationError for each
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"B": "AA=="}, "sk": {"S": "a"}}}},
  {"ConditionCheck": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "ConditionExpression": "attribute_exists(pk)"}},
  {"Delete": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"N": "1"}}}}]}');
-- nothing of a cancelled transaction is written
SELECT hroe.dynamodb('Scan', '{"TableName": "txk", "Select": "COUNT"}') -> 'Count' AS items;

-- Update, Delete, ConditionCheck: a lookup key of another type, non-scalar,
-- or of another shape than the table's: the schema-mismatch reason
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Update": {"TableName": "txk", "Key": {"pk": {"N": "5"}, "sk": {"S": "a"}}, "UpdateExpression": "SET n = :v",
              "ExpressionAttributeValues": {":v": {"N": "2"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Delete": {"TableName": "txk", "Key": {"pk": {"M": {}}, "sk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"ConditionCheck": {"TableName": "txk", "Key": {"pk": {"S": "old"}}, "ConditionExpression": "attribute_exists(pk)"}}]}');

-- empty keys are the request's ValidationException, even after an
-- action cancelled for its key's type
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"N": "5"}, "sk": {"S": "a"}}}},
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": ""}, "sk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Delete": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": ""}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"ConditionCheck": {"TableName": "txk", "Key": {"pk": {"S": ""}, "sk": {"S": "a"}}, "ConditionExpression": "attribute_exists(pk)"}}]}');
-- a key attribute missing from a Put's item, two actions on one item: the
-- request's errors
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"N": "1"}, "sk": {"S": "a"}}}},
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "old"}, "sk": {"S": "a"}}}},
  {"Delete": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}}}]}');

-- index keys: of another type, non-scalar (named for the first index by
-- name keying the attribute): cancelled; empty: the request's error
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}, "ik": {"N": "5"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}, "ib": {"L": []}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}, "ik": {"S": ""}}}}]}');
-- an Update making an index key of another type (from the item's own
-- attribute), a non-scalar one: cancelled; an empty one: the request's
-- error, in UpdateItem's words
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}}}},
  {"Update": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "UpdateExpression": "SET ik = n"}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Update": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "UpdateExpression": "SET ib = :v",
              "ExpressionAttributeValues": {":v": {"SS": ["x"]}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Update": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "UpdateExpression": "SET ik = :v",
              "ExpressionAttributeValues": {":v": {"S": ""}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Update": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "UpdateExpression": "SET ib = :v",
              "ExpressionAttributeValues": {":v": {"B": ""}}}}]}');
SELECT hroe.dynamodb('Scan', '{"TableName": "txk", "Select": "COUNT"}') -> 'Count' AS items;
SELECT hroe.dynamodb('GetItem', '{"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}}');

-- the SQL function: the same cancellation, HR005 with the reasons in DETAIL
\set VERBOSITY default
SELECT hroe.transact_write_items('[
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new"}, "sk": {"S": "a"}}}},
  {"Put": {"TableName": "txk", "Item": {"pk": {"S": "new2"}, "sk": {"S": "a"}, "ik": {"B": "AA=="}}}}]');
\set VERBOSITY terse

-- a replay of a ClientRequestToken: transactional read units of the items
-- read (a 1.5 KB item: 2, where its write cost 4)
SELECT hroe.dynamodb('TransactWriteItems', format('{"ReturnConsumedCapacity": "INDEXES", "ClientRequestToken": "txk-1",
  "TransactItems": [{"Put": {"TableName": "txk", "Item": {"pk": {"S": "big"}, "sk": {"S": "a"}, "s": {"S": "%s"}}}}]}',
  repeat('x', 1536))::jsonb) -> 'ConsumedCapacity';
SELECT hroe.dynamodb('TransactWriteItems', format('{"ReturnConsumedCapacity": "INDEXES", "ClientRequestToken": "txk-1",
  "TransactItems": [{"Put": {"TableName": "txk", "Item": {"pk": {"S": "big"}, "sk": {"S": "a"}, "s": {"S": "%s"}}}}]}',
  repeat('x', 1536))::jsonb) -> 'ConsumedCapacity';

-- TransactGetItems: a projection matching none of a present item's
-- attributes gives no Item; a key of another shape cancels
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [
  {"Get": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "a"}}, "ProjectionExpression": "#x",
           "ExpressionAttributeNames": {"#x": "nothere"}}},
  {"Get": {"TableName": "txk", "Key": {"pk": {"S": "old"}, "sk": {"S": "b"}}}},
  {"Get": {"TableName": "txk", "Key": {"pk": {"S": "big"}, "sk": {"S": "a"}}, "ProjectionExpression": "sk"}}]}');
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [
  {"Get": {"TableName": "txk", "Key": {}}}]}');

-- BatchWriteItem: a put key of another type, a non-scalar one: E3 (the
-- request's error); a missing one stays PutItem's
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"txk": [
  {"PutRequest": {"Item": {"pk": {"S": "b1"}, "sk": {"S": "a"}}}},
  {"PutRequest": {"Item": {"pk": {"N": "5"}, "sk": {"S": "a"}}}}]}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"txk": [
  {"PutRequest": {"Item": {"pk": {"S": "b1"}, "sk": {"L": [{"S": "x"}]}}}}]}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"txk": [
  {"PutRequest": {"Item": {"pk": {"S": "b1"}}}}]}}');
SELECT hroe.dynamodb('Scan', '{"TableName": "txk", "Select": "COUNT"}') -> 'Count' AS items;

SELECT hroe.dynamodb('DeleteTable', '{"TableName": "txk"}') #> '{TableDescription, TableStatus}';
