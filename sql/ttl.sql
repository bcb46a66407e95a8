--
-- Time to Live (doc/streams.md): UpdateTimeToLive, DescribeTimeToLive, and
-- hroe.delete_expired_items (which hroe's background worker calls)
--
\set VERBOSITY terse
SELECT hroe.dynamodb('CreateTable', '{"TableName": "ttl_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "l", "AttributeType": "N"}],
  "GlobalSecondaryIndexes": [{"IndexName": "by_g", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}],
  "LocalSecondaryIndexes": [{"IndexName": "by_l", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "OLD_IMAGE"}}') #>> '{TableDescription, TableStatus}';

-- validation
SELECT hroe.dynamodb('DescribeTimeToLive', '{}');
SELECT hroe.dynamodb('DescribeTimeToLive', '{"TableName": "nope"}');
SELECT hroe.dynamodb('DescribeTimeToLive', '{"TableName": "ttl_t"}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t"}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"Enabled": true}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp"}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "", "Enabled": true}}');
SELECT hroe.dynamodb('UpdateTimeToLive', jsonb_build_object('TableName', 'ttl_t', 'TimeToLiveSpecification', jsonb_build_object('AttributeName', repeat('a', 256), 'Enabled', true)));
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": "yes"}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": []}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "nope", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": false}}');
-- enabled: one attribute per table
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}');
SELECT hroe.dynamodb('DescribeTimeToLive', '{"TableName": "ttl_t"}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": true}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "other", "Enabled": true}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "other", "Enabled": false}}');

-- items: expired (an hour ago), expiring in an hour, too old to count (six
-- years ago), not a Number, no attribute
SELECT extract(epoch FROM now())::bigint AS now \gset
SELECT hroe.put_item('ttl_t', format('{"pk": {"S": "p"}, "sk": {"N": "%s"}, "g": {"S": "G"}, "l": {"N": "%s"}, "exp": {"N": "%s"}}',
	i, i, CASE WHEN i <= 50 THEN :now - 3600 ELSE :now + 3600 END)::hroe.item)
FROM generate_series(1, 100) i \g /dev/null
SELECT hroe.put_item('ttl_t', format('{"pk": {"S": "old"}, "sk": {"N": "1"}, "exp": {"N": "%s"}}', :now - 6 * 366 * 86400)::hroe.item);
SELECT hroe.put_item('ttl_t', format('{"pk": {"S": "string"}, "sk": {"N": "1"}, "exp": {"S": "%s"}}', :now - 3600)::hroe.item);
SELECT hroe.put_item('ttl_t', '{"pk": {"S": "none"}, "sk": {"N": "1"}}');
-- reads still return expired items not yet deleted
SELECT hroe.dynamodb('Query', '{"TableName": "ttl_t", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p"}}, "Select": "COUNT"}') -> 'Count' AS before;

-- an expired item re-written with a later expiry in between is kept: the
-- deletion locks each row and checks its expiry again
BEGIN;
SELECT hroe.dynamodb('UpdateItem', format('{"TableName": "ttl_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "1"}}, "UpdateExpression": "SET exp = :e", "ExpressionAttributeValues": {":e": {"N": "%s"}}}', :now + 86400)::jsonb);
-- (in this transaction, the row is the re-written one)
SELECT hroe.delete_expired_items('ttl_t', 10);
SELECT count(*) AS kept FROM ttl_t WHERE hroe.item_get_text(item, 'pk') = 'p' AND hroe.item_get(item, 'sk') ->> 'N' = '1';
ROLLBACK;
SELECT hroe.dynamodb('UpdateItem', format('{"TableName": "ttl_t", "Key": {"pk": {"S": "p"}, "sk": {"N": "2"}}, "UpdateExpression": "SET exp = :e", "ExpressionAttributeValues": {":e": {"N": "%s"}}}', :now + 86400)::jsonb);
-- the rest, in batches of 20
SELECT hroe.delete_expired_items('ttl_t', 20) AS first, hroe.delete_expired_items('ttl_t', 20) AS second,
	   hroe.delete_expired_items('ttl_t', 20) AS third, hroe.delete_expired_items('ttl_t', 20) AS nothing_left;
SELECT hroe.item_get_text(item, 'pk') AS pk, count(*) FROM ttl_t GROUP BY 1 ORDER BY 1;
SELECT min((hroe.item_get(item, 'exp') ->> 'N')::numeric) > :now AS only_later FROM ttl_t WHERE hroe.item_get_text(item, 'pk') = 'p';
-- the indexes agree with the table
SELECT hroe.dynamodb('Query', '{"TableName": "ttl_t", "IndexName": "by_g", "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "G"}}, "Select": "COUNT"}') -> 'Count' AS gsi,
	   hroe.dynamodb('Query', '{"TableName": "ttl_t", "IndexName": "by_l", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "p"}}, "Select": "COUNT"}') -> 'Count' AS lsi,
	   hroe.dynamodb('DescribeTable', '{"TableName": "ttl_t"}') #> '{Table, ItemCount}' AS items;

-- the stream shows them as the service's deletions
WITH a AS (SELECT hroe.dynamodb('DescribeTable', '{"TableName": "ttl_t"}') #>> '{Table, LatestStreamArn}' AS arn),
	 s AS (SELECT arn, hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', arn)) #>> '{StreamDescription, Shards, 0, ShardId}' AS shard FROM a),
	 i AS (SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', arn, 'ShardId', shard, 'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator' AS it FROM s),
	 r AS (SELECT jsonb_array_elements(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', it)) -> 'Records') AS r FROM i)
SELECT r ->> 'eventName' AS event, r -> 'userIdentity' AS identity, count(*),
	   bool_and(r #> '{dynamodb, OldImage, exp}' IS NOT NULL) AS old_images
FROM r GROUP BY 1, 2 ORDER BY 1, 2;

-- disabled: nothing more is deleted
SELECT hroe.put_item('ttl_t', format('{"pk": {"S": "q"}, "sk": {"N": "1"}, "exp": {"N": "%s"}}', :now - 60)::hroe.item);
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": false}}');
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "exp", "Enabled": false}}');
SELECT hroe.dynamodb('DescribeTimeToLive', '{"TableName": "ttl_t"}');
SELECT hroe.delete_expired_items('ttl_t', 100);
SELECT hroe.delete_expired_items('ttl_t', 0);
SELECT hroe.delete_expired_items('nope', 10);
-- enabled again, on another attribute
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "ttl_t", "TimeToLiveSpecification": {"AttributeName": "other", "Enabled": true}}');
SELECT hroe.delete_expired_items('ttl_t', 100);
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "ttl_t"}') #>> '{TableDescription, TableStatus}';
SELECT count(*) FROM hroe.time_to_live WHERE table_name = 'ttl_t';
