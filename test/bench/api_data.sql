-- test/bench/api_data.sql: the data of the API benchmarks (test/bench/api.sh,
-- test/bench/gateway.sh): :customers customers x 10 orders of about 120
-- bytes in a table "bench" (pk, sk strings), as test/conformance/bench_dynalite.js
-- loads them into dynalite.
CREATE EXTENSION hroe;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "bench", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]}') ? 'TableDescription' AS created;
INSERT INTO bench (item)
SELECT jsonb_build_object(
	'pk', jsonb_build_object('S', 'CUST#' || c),
	'sk', jsonb_build_object('S', 'ORDER#' || lpad(o::text, 4, '0')),
	'status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (c + o) % 3]),
	'total', jsonb_build_object('N', trim_scale(((c * 31 + o * 17) % 100000) / 100.0)::text),
	'note', jsonb_build_object('S', repeat('x', 60)))::hroe.item
FROM generate_series(1, :customers) c, generate_series(1, 10) o;
VACUUM ANALYZE bench;
SELECT hroe.dynamodb('Query', '{"TableName": "bench", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "CUST#1"}}}') -> 'Count' AS query_check;
