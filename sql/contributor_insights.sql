-- Contributor Insights counts on every access path (issue #31): each item
-- read or written counts its key; a read of an index counts the index's key
-- only, a write counts the table's key and that of each index holding the item
SELECT hroe.dynamodb('CreateTable', '{"TableName":"ci_t","BillingMode":"PAY_PER_REQUEST",
 "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],
 "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
 "GlobalSecondaryIndexes":[{"IndexName":"by_g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}') IS NOT NULL AS created;
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"ci_t","ContributorInsightsAction":"ENABLE"}') ->> 'ContributorInsightsStatus' AS status;
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"ci_t","IndexName":"by_g","ContributorInsightsAction":"ENABLE"}') ->> 'ContributorInsightsStatus' AS status;
-- writes: PutItem, UpdateItem, BatchWriteItem, TransactWriteItems, PartiQL INSERT
SELECT hroe.dynamodb('PutItem', '{"TableName":"ci_t","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"g":{"S":"x"}}}');
SELECT hroe.dynamodb('UpdateItem', '{"TableName":"ci_t","Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET v = :v","ExpressionAttributeValues":{":v":{"N":"1"}}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems":{"ci_t":[{"PutRequest":{"Item":{"pk":{"S":"b"},"sk":{"N":"1"},"g":{"S":"x"}}}},{"PutRequest":{"Item":{"pk":{"S":"c"},"sk":{"N":"1"}}}}]}}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems":[{"Update":{"TableName":"ci_t","Key":{"pk":{"S":"a"},"sk":{"N":"2"}},"UpdateExpression":"SET g = :g","ExpressionAttributeValues":{":g":{"S":"y"}}}}]}');
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement":"INSERT INTO ci_t VALUE {''pk'':''d'',''sk'':1}"}');
-- a delete of an absent item writes its key all the same
SELECT hroe.dynamodb('DeleteItem', '{"TableName":"ci_t","Key":{"pk":{"S":"zz"},"sk":{"N":"9"}}}');
SELECT kind, access, key, count FROM hroe.contributor_insights('ci_t') WHERE access = 'write' ORDER BY kind, key;
-- the GSI counts the writes of the items it holds (g set)
SELECT kind, access, key, count FROM hroe.contributor_insights('ci_t', 'by_g') ORDER BY kind, access, key;
-- reads: GetItem (an absent key too), Query, Scan, BatchGetItem, TransactGetItems, PartiQL SELECT
SELECT hroe.dynamodb('GetItem', '{"TableName":"ci_t","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}') ? 'Item' AS found;
SELECT hroe.dynamodb('GetItem', '{"TableName":"ci_t","Key":{"pk":{"S":"nope"},"sk":{"N":"1"}}}') ? 'Item' AS found;
SELECT hroe.dynamodb('Query', '{"TableName":"ci_t","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}') -> 'Count' AS n;
SELECT hroe.dynamodb('Scan', '{"TableName":"ci_t","Select":"COUNT"}') -> 'ScannedCount' AS n;
SELECT jsonb_array_length(hroe.dynamodb('BatchGetItem', '{"RequestItems":{"ci_t":{"Keys":[{"pk":{"S":"b"},"sk":{"N":"1"}}]}}}') -> 'Responses' -> 'ci_t') AS n;
SELECT jsonb_array_length(hroe.dynamodb('TransactGetItems', '{"TransactItems":[{"Get":{"TableName":"ci_t","Key":{"pk":{"S":"c"},"sk":{"N":"1"}}}}]}') -> 'Responses') AS n;
SELECT jsonb_array_length(hroe.dynamodb('ExecuteStatement', '{"Statement":"SELECT * FROM ci_t WHERE pk = ''d''"}') -> 'Items') AS n;
SELECT kind, access, key, count FROM hroe.contributor_insights('ci_t') WHERE access = 'read' ORDER BY kind, key;
-- a Query of the GSI counts the GSI's keys, not the table's
SELECT hroe.dynamodb('Query', '{"TableName":"ci_t","IndexName":"by_g","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}}') -> 'Count' AS n;
SELECT kind, access, key, count FROM hroe.contributor_insights('ci_t', 'by_g') WHERE access = 'read' ORDER BY kind, key;
SELECT count(*) AS table_reads FROM hroe.contributor_insights('ci_t', p_limit => 100) WHERE access = 'read';
-- disabled: nothing more is counted
SELECT hroe.dynamodb('UpdateContributorInsights', '{"TableName":"ci_t","ContributorInsightsAction":"DISABLE"}') ->> 'ContributorInsightsStatus' AS status;
SELECT hroe.dynamodb('GetItem', '{"TableName":"ci_t","Key":{"pk":{"S":"a"},"sk":{"N":"1"}}}') ? 'Item' AS found;
SELECT hroe.dynamodb('DescribeContributorInsights', '{"TableName":"ci_t"}') ->> 'ContributorInsightsStatus' AS status;
SELECT key, count FROM hroe.contributor_insights('ci_t') WHERE kind = 'partition_key' AND access = 'read' AND key = '{"S": "a"}';
SELECT hroe.delete_table('ci_t');
