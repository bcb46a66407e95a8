-- hroe.dynamodb_text: the JSON API over the request's text, the response as
-- text (hroe-gateway's entry, through hroe.gateway_call)
SELECT hroe.dynamodb_text('CreateTable', '{"TableName": "txt", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}') LIKE '{"TableDescription":%';
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "txt", "Item": {"pk": {"S": "key"},
  "a": {"S": "x"}, "l": {"L": [{"S": "é"}, {"SS": ["b", "a"]}]}}, "ReturnValues": "ALL_OLD"}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "key"}}}');
SELECT hroe.dynamodb_text('UpdateItem', '{"TableName": "txt", "Key": {"pk": {"S": "key"}},
  "UpdateExpression": "SET c = :v", "ConditionExpression": "l[0] = :o",
  "ExpressionAttributeValues": {":v": {"S": "held"}, ":o": {"S": "é"}},
  "ReturnValues": "UPDATED_NEW"}');
SELECT hroe.dynamodb_text('Query', '{"TableName": "txt", "KeyConditionExpression": "pk = :k",
  "ExpressionAttributeValues": {":k": {"S": "key"}}}');
-- strings may hold U+0000 (\u0000), as DynamoDB's: stored whole and given
-- back as \u0000 (sql/api_nul.sql), in keys too: "k\u0000" is not "k2"
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "txt", "Item": {"pk": {"S": "k2"},
  "a": {"S": "x\u0000y"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "k\u0000"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "k2"}}}');
-- an escaped backslash before u0000 is text, not U+0000: stored and given back
SELECT hroe.dynamodb_text('PutItem', '{"TableName": "txt", "Item": {"pk": {"S": "b\\u0000"}}}');
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "b\\u0000"}}}');
-- errors are DynamoDB's bodies, as hroe.dynamodb's
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"N": "1"}}}');
SELECT hroe.dynamodb_text('NoSuchOperation', '{}');
SELECT hroe.dynamodb_text('GetItem', '[1]');
-- hroe.dynamodb_text and hroe.dynamodb answer alike
SELECT hroe.dynamodb_text('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "key"}}}')::jsonb
     = hroe.dynamodb('GetItem', '{"TableName": "txt", "Key": {"pk": {"S": "key"}}}') AS same;
SELECT hroe.dynamodb_text('DeleteTable', '{"TableName": "txt"}') LIKE '{"TableDescription":%';
