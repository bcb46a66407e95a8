-- Table options (TableClass, SSESpecification, WarmThroughput), DescribeLimits,
-- DescribeEndpoints, Contributor Insights (issue #31)
SELECT hroe.dynamodb('CreateTable', '{"TableName":"opt_t","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST","TableClass":"STANDARD_INFREQUENT_ACCESS","SSESpecification":{"Enabled":true}}') IS NOT NULL AS created;
SELECT d -> 'TableClassSummary' ->> 'TableClass' AS class, (d -> 'SSEDescription') - 'KMSMasterKeyArn'::text AS sse,
       d -> 'SSEDescription' ->> 'KMSMasterKeyArn' LIKE 'arn:aws:kms:us-east-1:%:key/%' AS arn, d -> 'WarmThroughput' AS warm
FROM hroe.dynamodb('DescribeTable', '{"TableName":"opt_t"}') r, LATERAL (SELECT r -> 'Table') x(d);
-- UpdateTable: the class alone, a warm throughput raise; a decrease is refused
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","TableClass":"STANDARD","WarmThroughput":{"ReadUnitsPerSecond":13000}}') -> 'TableDescription' -> 'WarmThroughput' AS warm;
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","WarmThroughput":{"ReadUnitsPerSecond":100}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","TableClass":"COLD"}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","SSESpecification":{"Enabled":true,"SSEType":"AES256","KMSMasterKeyId":"k"}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"alias/mine"}}') -> 'TableDescription' -> 'SSEDescription' ->> 'KMSMasterKeyArn' AS arn;
SELECT hroe.dynamodb('UpdateTable', '{"TableName":"opt_t","SSESpecification":{"Enabled":false}}') -> 'TableDescription' ? 'SSEDescription' AS has_sse;
-- a table without options: no TableClassSummary, no SSEDescription, the default warm throughput
SELECT hroe.create_table('opt_plain', 'pk', 'S');
SELECT d ? 'TableClassSummary' AS summary, d ? 'SSEDescription' AS sse, d -> 'WarmThroughput' AS warm
FROM hroe.dynamodb('DescribeTable', '{"TableName":"opt_plain"}') r, LATERAL (SELECT r -> 'Table') x(d);
-- account reads
SELECT hroe.dynamodb('DescribeLimits', '{}');
SELECT hroe.dynamodb('DescribeEndpoints', '{}');
-- Contributor Insights
SELECT hroe.dynamodb('DescribeContributorInsights', '{"TableName":"opt_t"}');
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"opt_t","ContributorInsightsAction":"ENABLE"}');
SELECT r - 'ContributorInsightsRuleList' - 'LastUpdateDateTime' AS d,
       jsonb_array_length(r -> 'ContributorInsightsRuleList') AS rules,
       r -> 'ContributorInsightsRuleList' ->> 0 LIKE 'DynamoDBContributorInsights-PKC-opt_t-%' AS rule_name
FROM hroe.dynamodb('DescribeContributorInsights', '{"TableName":"opt_t"}') r;
SELECT hroe.dynamodb('ListContributorInsights', '{"MaxResults":1}');
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"opt_t","ContributorInsightsAction":"FLIP"}');
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"opt_t","ContributorInsightsAction":"ENABLE","ContributorInsightsMode":"ALL_KEYS"}');
-- (the enumerations' one check: its text, none for NULL or a value of the set)
SELECT hroe.enum_errors('X', 'm.n', '{A,B}') AS bad, hroe.enum_errors(NULL, 'm.n', '{A,B}') AS null_ok,
	   hroe.enum_errors('B', 'm.n', '{A,B}') AS member;
SELECT hroe.dynamodb('DescribeContributorInsights', '{"TableName":"opt_t","IndexName":"nope"}');
-- the counts (hroe is preloaded in the test clusters)
SELECT hroe.dynamodb('PutItem', '{"TableName":"opt_t","Item":{"pk":{"S":"hot"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName":"opt_t","Item":{"pk":{"S":"hot"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName":"opt_t","Item":{"pk":{"S":"cold"}}}');
SELECT hroe.dynamodb('GetItem', '{"TableName":"opt_t","Key":{"pk":{"S":"hot"}}}');
SELECT kind, access, throttled, key, key_truncated, count, error FROM hroe.contributor_insights('opt_t');
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"opt_t","ContributorInsightsAction":"DISABLE"}');
SELECT hroe.dynamodb('DescribeContributorInsights', '{"TableName":"opt_t"}') ->> 'ContributorInsightsStatus' AS status;
SELECT hroe.delete_table('opt_t');
SELECT hroe.delete_table('opt_plain');
