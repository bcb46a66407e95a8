--
-- OnDemandThroughput (CreateTable, UpdateTable, DescribeTable; the table and
-- its GSIs) and DynamoDB's throttling, opt-in per table: the on-demand
-- maximum (ThrottlingException), provisioned capacity with burst credit
-- (ProvisionedThroughputExceededException), a partition key's 1,000 write
-- units per second, ThrottlingReasons, batches and transactions; nothing
-- throttled on a table without the setting.
--
\set VERBOSITY terse
CREATE FUNCTION thr_err(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT concat_ws(': ', split_part(r ->> '__type', '#', 2), r ->> 'message')
	FROM hroe.dynamodb(p_op, p_req) r
$$;
CREATE FUNCTION odt(p_table text) RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_build_object('table', d -> 'Table' -> 'OnDemandThroughput',
							  'gsis', (SELECT jsonb_object_agg(g ->> 'IndexName', g -> 'OnDemandThroughput')
									   FROM jsonb_array_elements(d -> 'Table' -> 'GlobalSecondaryIndexes') g))
	FROM hroe.dynamodb('DescribeTable', jsonb_build_object('TableName', p_table)) d
$$;

-- CreateTable: the table's and a GSI's maximum; one dimension alone is -1
SELECT hroe.dynamodb('CreateTable', '{"TableName": "odt_t", "BillingMode": "PAY_PER_REQUEST",
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
	"OnDemandThroughput": {"MaxReadRequestUnits": 10, "MaxWriteRequestUnits": 5},
	"GlobalSecondaryIndexes": [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
		"Projection": {"ProjectionType": "ALL"}, "OnDemandThroughput": {"MaxWriteRequestUnits": 7}}]}')
	-> 'TableDescription' -> 'OnDemandThroughput';
SELECT odt('odt_t');
-- UpdateTable: the table's alone (no other member needed), then a GSI's
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "odt_t",
	"OnDemandThroughput": {"MaxReadRequestUnits": 20, "MaxWriteRequestUnits": 15}}')
	-> 'TableDescription' -> 'OnDemandThroughput';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "odt_t", "GlobalSecondaryIndexUpdates": [
	{"Update": {"IndexName": "by_g", "OnDemandThroughput": {"MaxReadRequestUnits": 3}}}]}') ? 'TableDescription';
SELECT odt('odt_t');
-- -1 removes a maximum; both removed, the member is left out
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "odt_t", "OnDemandThroughput": {"MaxReadRequestUnits": -1}}')
	-> 'TableDescription' -> 'OnDemandThroughput';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "odt_t", "OnDemandThroughput": {"MaxWriteRequestUnits": -1}}')
	-> 'TableDescription' ? 'OnDemandThroughput';
-- refused: 0, a fraction, a string, on a PROVISIONED table, an unknown GSI
SELECT thr_err('UpdateTable', '{"TableName": "odt_t", "OnDemandThroughput": {"MaxReadRequestUnits": 0}}');
SELECT thr_err('UpdateTable', '{"TableName": "odt_t", "OnDemandThroughput": {"MaxReadRequestUnits": 1.5}}');
SELECT thr_err('UpdateTable', '{"TableName": "odt_t", "OnDemandThroughput": {"MaxReadRequestUnits": "5"}}');
SELECT thr_err('CreateTable', '{"TableName": "odt_p", "BillingMode": "PROVISIONED",
	"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
	"OnDemandThroughput": {"MaxReadRequestUnits": 10}}');
SELECT count(*) FROM hroe.tables WHERE table_name = 'odt_p';
SELECT thr_err('UpdateTable', '{"TableName": "odt_t", "GlobalSecondaryIndexUpdates": [
	{"Update": {"IndexName": "nope", "OnDemandThroughput": {"MaxReadRequestUnits": 3}}}]}');

-- Throttling.  t(table, n, item size): n PutItems of distinct keys (or of
-- one partition key, hot) as fast as they run, counted by outcome; the
-- first refusal's body
CREATE FUNCTION puts(p_table text, p_n int, p_hot boolean DEFAULT false, p_bytes int DEFAULT 10)
RETURNS TABLE (ok int, throttled int, first jsonb) LANGUAGE plpgsql AS $$
DECLARE
	r jsonb;
BEGIN
	ok := 0; throttled := 0;
	FOR i IN 1 .. p_n LOOP
		r := hroe.dynamodb('PutItem', jsonb_build_object('TableName', p_table,
			'Item', jsonb_build_object('pk', jsonb_build_object('S', CASE WHEN p_hot THEN 'hot' ELSE 'k' || i END),
									   'sk', jsonb_build_object('N', i::text),
									   'v', jsonb_build_object('S', repeat('x', p_bytes)))));
		IF r ? '__type' THEN
			throttled := throttled + 1;
			first := coalesce(first, r);
		ELSE
			ok := ok + 1;
		END IF;
	END LOOP;
	RETURN NEXT;
END
$$;
CREATE FUNCTION mk(p_table text, p_extra jsonb) RETURNS void LANGUAGE sql AS $$
	SELECT FROM hroe.dynamodb('CreateTable', jsonb_build_object('TableName', p_table,
		'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]'::jsonb,
		'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]'::jsonb)
		|| p_extra)
$$;
SELECT mk('thr_max', '{"BillingMode": "PAY_PER_REQUEST", "OnDemandThroughput": {"MaxWriteRequestUnits": 10, "MaxReadRequestUnits": 1}}');
-- off by default: 40 writes at once, none throttled despite the maximum
SELECT ok, throttled FROM puts('thr_max', 40);
SELECT throttling FROM hroe.tables WHERE table_name = 'thr_max';
-- on: past 10 write units a second, ThrottlingException with its reason
-- (Contributor Insights enabled, to count the throttled keys below)
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName": "thr_max", "ContributorInsightsAction": "ENABLE"}') ->> 'ContributorInsightsStatus' AS insights;
SELECT hroe.set_throttling('thr_max', true);
SELECT ok >= 10 AS "at least the maximum", throttled > 0 AS throttled,
	first ->> '__type' AS type, first ->> 'message' AS message, first -> 'ThrottlingReasons' AS reasons
FROM puts('thr_max', 60);
-- reads have their own bucket: a GetItem, then throttled ones (1 unit a second)
SELECT hroe.dynamodb('GetItem', '{"TableName": "thr_max", "Key": {"pk": {"S": "k1"}, "sk": {"N": "1"}}}') ? 'Item';
SELECT count(*) FILTER (WHERE r ? '__type') > 0 AS throttled,
	min(r -> 'ThrottlingReasons' ->> 0) AS reason
FROM generate_series(1, 20) i,
	LATERAL hroe.dynamodb('GetItem', jsonb_build_object('TableName', 'thr_max', 'ConsistentRead', i > 0,
		'Key', '{"pk": {"S": "k1"}, "sk": {"N": "1"}}'::jsonb)) r;
-- Contributor Insights counts the refused keys among its throttled ones,
-- reads and writes apart
SELECT access, count(*) > 0 AS keys, sum(count) > 0 AS accesses
FROM hroe.contributor_insights('thr_max', p_limit => 1000) WHERE throttled GROUP BY access ORDER BY access;
-- a Query of the table meets the same read limit
SELECT hroe.dynamodb('Query', '{"TableName": "thr_max", "KeyConditionExpression": "pk = :p",
	"ExpressionAttributeValues": {":p": {"S": "k1"}}}') ->> '__type';
-- a BatchGetItem whose every key is refused: the exception itself
SELECT r ->> '__type' AS type, r -> 'ThrottlingReasons' ->> 0 AS reason
FROM hroe.dynamodb('BatchGetItem', '{"RequestItems": {"thr_max": {"Keys": [{"pk": {"S": "k1"}, "sk": {"N": "1"}},
	{"pk": {"S": "k2"}, "sk": {"N": "2"}}]}}}') r;
-- hroe.throttling = off turns every table's throttling off
SET hroe.throttling = off;
SELECT ok, throttled FROM puts('thr_max', 30);
RESET hroe.throttling;
-- a batch: the requests past the maximum come back unprocessed, then (all
-- refused) the exception
SELECT mk('thr_batch', '{"BillingMode": "PAY_PER_REQUEST", "OnDemandThroughput": {"MaxWriteRequestUnits": 1}}');
SELECT hroe.set_throttling('thr_batch', true);
SELECT jsonb_array_length(r -> 'UnprocessedItems' -> 'thr_batch') BETWEEN 20 AND 24 AS "mostly unprocessed",
	r -> 'UnprocessedItems' -> 'thr_batch' -> -1 AS "last unprocessed"
FROM hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('thr_batch',
	(SELECT jsonb_agg(jsonb_build_object('PutRequest', jsonb_build_object('Item',
		jsonb_build_object('pk', jsonb_build_object('S', 'b' || i), 'sk', jsonb_build_object('N', '1'))))) FROM generate_series(1, 25) i)))) r;
SELECT r ->> '__type' AS type, r -> 'ThrottlingReasons' AS reasons
FROM hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"thr_batch": [{"PutRequest": {"Item": {"pk": {"S": "c"}, "sk": {"N": "1"}}}}]}}') r;
-- a transaction: cancelled, its action's reason ThrottlingError
SELECT r ->> 'message' AS message, r -> 'CancellationReasons' AS reasons
FROM hroe.dynamodb('TransactWriteItems', '{"TransactItems": [{"Put": {"TableName": "thr_batch", "Item": {"pk": {"S": "t"}, "sk": {"N": "1"}}}}]}') r;
SELECT count(*) FROM hroe.dynamodb('Scan', '{"TableName": "thr_batch", "Select": "COUNT"}') r WHERE (r ->> 'Count')::int BETWEEN 1 AND 5;

-- provisioned: 1 write unit a second (one second's worth to start, then
-- up to 300 s of unused capacity banked): ProvisionedThroughputExceededException
SELECT mk('thr_prov', '{"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}');
SELECT hroe.set_throttling('thr_prov', true);
SELECT throttled > 0 AS throttled, first ->> '__type' AS type, first ->> 'message' AS message,
	first -> 'ThrottlingReasons' AS reasons
FROM puts('thr_prov', 20);

-- a hot partition key on an on-demand table without maximum: 1,000 write
-- units a second per key (300 KB items: 293 units each), other keys free
SELECT mk('thr_hot', '{"BillingMode": "PAY_PER_REQUEST"}');
SELECT hroe.set_throttling('thr_hot', true);
SELECT throttled > 0 AS throttled, first ->> '__type' AS type, first -> 'ThrottlingReasons' AS reasons
FROM puts('thr_hot', 20, true, 300000);
SELECT hroe.dynamodb('PutItem', '{"TableName": "thr_hot", "Item": {"pk": {"S": "cold"}, "sk": {"N": "1"}}}');
-- the same table without the setting: the hot key is never throttled
SELECT hroe.set_throttling('thr_hot', false);
SELECT ok, throttled FROM puts('thr_hot', 20, true, 300000);
-- the switch is its owner's
CREATE ROLE thr_other;
GRANT USAGE ON SCHEMA hroe TO thr_other;
SET ROLE thr_other;
SELECT hroe.set_throttling('thr_hot', true);
RESET ROLE;
REVOKE USAGE ON SCHEMA hroe FROM thr_other;
DROP ROLE thr_other;

-- clean up (later files list every table)
SELECT count(*) FROM unnest(ARRAY['odt_t', 'thr_max', 'thr_batch', 'thr_prov', 'thr_hot']) n,
	LATERAL hroe.dynamodb('DeleteTable', jsonb_build_object('TableName', n)) r WHERE r ? 'TableDescription';
DROP FUNCTION thr_err(text, jsonb), odt(text), puts(text, int, boolean, int), mk(text, jsonb);
