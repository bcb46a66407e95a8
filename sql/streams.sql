--
-- DynamoDB Streams (doc/streams.md): StreamSpecification, the stream's
-- records for every write path and view type, the Streams API and its errors
--
\set VERBOSITY terse

-- every record of a table's stream, read through the API from TRIM_HORIZON
CREATE FUNCTION pg_temp.arn(p_table text) RETURNS text LANGUAGE sql
RETURN hroe.dynamodb('DescribeTable', jsonb_build_object('TableName', p_table)) #>> '{Table, LatestStreamArn}';
CREATE FUNCTION pg_temp.shard(p_table text) RETURNS text LANGUAGE sql
RETURN hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', pg_temp.arn(p_table))) #>> '{StreamDescription, Shards, 0, ShardId}';
CREATE FUNCTION pg_temp.iterator(p_table text, p_type text DEFAULT 'TRIM_HORIZON', p_seq text DEFAULT NULL) RETURNS text LANGUAGE sql
RETURN hroe.dynamodb('GetShardIterator', jsonb_strip_nulls(jsonb_build_object('StreamArn', pg_temp.arn(p_table),
	'ShardId', pg_temp.shard(p_table), 'ShardIteratorType', p_type, 'SequenceNumber', p_seq))) ->> 'ShardIterator';
CREATE FUNCTION pg_temp.records(p_table text, p_iterator text DEFAULT NULL)
RETURNS TABLE (n int, event text, keys jsonb, old_image jsonb, new_image jsonb, identity text)
LANGUAGE plpgsql AS $$
DECLARE
	v_it text := coalesce(p_iterator, pg_temp.iterator(p_table));
	v_res jsonb;
	r jsonb;
BEGIN
	n := 0;
	LOOP
		v_res := hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', v_it, 'Limit', 2));
		IF v_res ? '__type' THEN
			RAISE EXCEPTION '%', v_res;
		END IF;
		EXIT WHEN jsonb_array_length(v_res -> 'Records') = 0;
		FOR r IN SELECT * FROM jsonb_array_elements(v_res -> 'Records') LOOP
			n := n + 1;
			event := r ->> 'eventName';
			keys := r #> '{dynamodb, Keys}';
			old_image := r #> '{dynamodb, OldImage}';
			new_image := r #> '{dynamodb, NewImage}';
			identity := r #>> '{userIdentity, type}';
			RETURN NEXT;
		END LOOP;
		v_it := v_res ->> 'NextShardIterator';
	END LOOP;
END
$$;

-- CreateTable with a stream of each view type
SELECT v, hroe.dynamodb('CreateTable', format('{"TableName": "st_%s", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
  "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "%s"}}', lower(v), v)::jsonb)
  #> '{TableDescription, StreamSpecification}'
FROM unnest(ARRAY['KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES']) v;
SELECT pg_temp.arn('st_keys_only') ~ '^arn:aws:dynamodb:us-east-1:123456789012:table/st_keys_only/stream/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$' AS arn_shape,
	   (hroe.dynamodb('DescribeTable', '{"TableName": "st_keys_only"}') #>> '{Table, LatestStreamLabel}') = split_part(pg_temp.arn('st_keys_only'), '/stream/', 2) AS label;

-- the same writes on each table: every write path of the JSON API and the SQL functions
CREATE FUNCTION pg_temp.writes(t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	-- PutItem: a new item, its overwrite, an overwrite with the same item (no record)
	PERFORM hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "one"}}}', t)::jsonb);
	PERFORM hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "two"}}}', t)::jsonb);
	PERFORM hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "two"}}}', t)::jsonb);
	-- a failed condition, a DeleteItem of a missing item: no record
	PERFORM hroe.dynamodb('PutItem', format('{"TableName": "%s", "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "ConditionExpression": "attribute_not_exists(pk)"}', t)::jsonb);
	PERFORM hroe.dynamodb('DeleteItem', format('{"TableName": "%s", "Key": {"pk": {"S": "missing"}, "sk": {"N": "1"}}}', t)::jsonb);
	-- UpdateItem: an update, an upsert
	PERFORM hroe.dynamodb('UpdateItem', format('{"TableName": "%s", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "three"}}}', t)::jsonb);
	PERFORM hroe.dynamodb('UpdateItem', format('{"TableName": "%s", "Key": {"pk": {"S": "b"}, "sk": {"N": "2"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"S": "new"}}}', t)::jsonb);
	-- BatchWriteItem: a put and a delete
	PERFORM hroe.dynamodb('BatchWriteItem', format('{"RequestItems": {"%s": [{"PutRequest": {"Item": {"pk": {"S": "c"}, "sk": {"N": "3"}}}}, {"DeleteRequest": {"Key": {"pk": {"S": "b"}, "sk": {"N": "2"}}}}]}}', t)::jsonb);
	-- TransactWriteItems: a committed one, and a canceled one (no record)
	PERFORM hroe.dynamodb('TransactWriteItems', format('{"TransactItems": [{"Put": {"TableName": "%1$s", "Item": {"pk": {"S": "d"}, "sk": {"N": "4"}}}}, {"Update": {"TableName": "%1$s", "Key": {"pk": {"S": "c"}, "sk": {"N": "3"}}, "UpdateExpression": "SET w = :w", "ExpressionAttributeValues": {":w": {"N": "1"}}}}]}', t)::jsonb);
	PERFORM hroe.dynamodb('TransactWriteItems', format('{"TransactItems": [{"Put": {"TableName": "%1$s", "Item": {"pk": {"S": "e"}, "sk": {"N": "5"}}}}, {"ConditionCheck": {"TableName": "%1$s", "Key": {"pk": {"S": "c"}, "sk": {"N": "3"}}, "ConditionExpression": "attribute_not_exists(pk)"}}]}', t)::jsonb);
	-- the SQL functions
	PERFORM hroe.put_item(t, '{"pk": {"S": "f"}, "sk": {"N": "6"}}');
	PERFORM hroe.update_item(t, '{"pk": {"S": "f"}, "sk": {"N": "6"}}', 'SET x = :x', p_expression_attribute_values => '{":x": {"BOOL": true}}');
	PERFORM hroe.delete_item(t, '{"pk": {"S": "f"}, "sk": {"N": "6"}}');
	PERFORM hroe.batch_write_item(format('{"%s": [{"DeleteRequest": {"Key": {"pk": {"S": "d"}, "sk": {"N": "4"}}}}]}', t)::jsonb);
	PERFORM hroe.transact_write_items(format('[{"Delete": {"TableName": "%s", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}}]', t)::jsonb);
END
$$;
SET hroe.direct_access = on;
SELECT pg_temp.writes('st_' || v) FROM unnest(ARRAY['keys_only', 'new_image', 'old_image', 'new_and_old_images']) v;
-- the direct writes leave a table with a stream (a trigger) to the executor
SET client_min_messages = debug1;
SELECT hroe.put_item('st_keys_only', '{"pk": {"S": "c"}, "sk": {"N": "3"}, "direct": {"BOOL": false}}');
RESET client_min_messages;
-- a rolled-back transaction leaves no record
BEGIN;
SELECT hroe.dynamodb('PutItem', '{"TableName": "st_keys_only", "Item": {"pk": {"S": "rolled back"}, "sk": {"N": "0"}}}');
ROLLBACK;
-- a savepoint rolled back too
BEGIN;
SAVEPOINT s;
SELECT hroe.put_item('st_keys_only', '{"pk": {"S": "rolled back"}, "sk": {"N": "0"}}');
ROLLBACK TO SAVEPOINT s;
COMMIT;

SELECT n, event, keys, old_image, new_image FROM pg_temp.records('st_keys_only');
SELECT n, event, keys, old_image, new_image FROM pg_temp.records('st_new_image');
SELECT n, event, keys, old_image, new_image FROM pg_temp.records('st_old_image');
SELECT n, event, keys, old_image, new_image FROM pg_temp.records('st_new_and_old_images');

-- plain SQL on the table is recorded too (the trigger is PostgreSQL's)
INSERT INTO st_keys_only (item) VALUES ('{"pk": {"S": "sql"}, "sk": {"N": "7"}}');
SELECT n, event, keys FROM pg_temp.records('st_keys_only') WHERE n > 10;

-- the record's shape
SELECT jsonb_pretty(r - 'eventID' #- '{dynamodb, ApproximateCreationDateTime}')
FROM jsonb_array_elements(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_new_and_old_images'), 'Limit', 2)) -> 'Records') r;
SELECT length(r ->> 'eventID') = 32 AS event_id,
	   (r #>> '{dynamodb, ApproximateCreationDateTime}')::numeric BETWEEN extract(epoch FROM now()) - 60 AND extract(epoch FROM now()) + 1 AS created
FROM jsonb_array_elements(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_new_and_old_images'), 'Limit', 1)) -> 'Records') r;

-- iterators: LATEST sees only later records; AT_ and AFTER_SEQUENCE_NUMBER
SELECT pg_temp.iterator('st_new_image', 'LATEST') AS latest \gset
SELECT hroe.put_item('st_new_image', '{"pk": {"S": "late"}, "sk": {"N": "8"}}');
SELECT n, event, keys FROM pg_temp.records('st_new_image', :'latest');
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_new_image'), 'Limit', 3)) #>> '{Records, 2, dynamodb, SequenceNumber}' AS third \gset
SELECT n, event, keys FROM pg_temp.records('st_new_image', pg_temp.iterator('st_new_image', 'AT_SEQUENCE_NUMBER', :'third')) WHERE n <= 2;
SELECT n, event, keys FROM pg_temp.records('st_new_image', pg_temp.iterator('st_new_image', 'AFTER_SEQUENCE_NUMBER', :'third')) WHERE n <= 1;
-- sequence numbers increase
SELECT bool_and(a < b) AS increasing FROM (
	SELECT r #>> '{dynamodb, SequenceNumber}' a, lead(r #>> '{dynamodb, SequenceNumber}') OVER () b
	FROM jsonb_array_elements(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_new_image'))) -> 'Records') r) x
WHERE b IS NOT NULL;

-- ListStreams, DescribeStream
SELECT s ->> 'TableName' AS table, s ->> 'StreamLabel' = split_part(s ->> 'StreamArn', '/stream/', 2) AS label
FROM jsonb_array_elements(hroe.dynamodb('ListStreams', '{}') -> 'Streams') s ORDER BY 1;
SELECT hroe.dynamodb('ListStreams', '{"TableName": "st_old_image", "Limit": 1}') #>> '{Streams, 0, TableName}';
SELECT hroe.dynamodb('ListStreams', '{"Limit": 2}') ? 'LastEvaluatedStreamArn' AS more,
	   jsonb_array_length(hroe.dynamodb('ListStreams', jsonb_build_object('ExclusiveStartStreamArn', hroe.dynamodb('ListStreams', '{"Limit": 2}') ->> 'LastEvaluatedStreamArn')) -> 'Streams') AS rest;
SELECT (hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'))) -> 'StreamDescription')
	- 'StreamArn' - 'StreamLabel' - 'CreationRequestDateTime' - 'Shards' AS description;
SELECT pg_temp.shard('st_old_image') ~ '^shardId-\d{20}-[0-9a-f]{8}$' AS shard_id;

-- the Streams API's errors
SELECT hroe.dynamodb('DescribeStream', '{}');
SELECT hroe.dynamodb('DescribeStream', '{"StreamArn": "arn"}');
SELECT hroe.dynamodb('DescribeStream', '{"StreamArn": 5}');
SELECT hroe.dynamodb('DescribeStream', '{"StreamArn": "arn:aws:dynamodb:us-east-1:123456789012:table/nope/stream/2020-01-01T00:00:00.000"}');
SELECT hroe.dynamodb('ListStreams', '{"TableName": "nope"}');
SELECT hroe.dynamodb('ListStreams', '{"Limit": 0}');
SELECT hroe.dynamodb('ListStreams', '{"Limit": 101}');
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', pg_temp.shard('st_old_image')));
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', pg_temp.shard('st_old_image'), 'ShardIteratorType', 'OLDEST'));
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', 'shardId-00000000000000000000-00000000', 'ShardIteratorType', 'LATEST'));
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', pg_temp.shard('st_old_image'), 'ShardIteratorType', 'AT_SEQUENCE_NUMBER'));
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', pg_temp.shard('st_old_image'), 'ShardIteratorType', 'AT_SEQUENCE_NUMBER', 'SequenceNumber', '12'));
SELECT hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_old_image'), 'ShardId', pg_temp.shard('st_old_image'), 'ShardIteratorType', 'AT_SEQUENCE_NUMBER', 'SequenceNumber', '900000000000000000000'));
SELECT hroe.dynamodb('GetRecords', '{}');
SELECT hroe.dynamodb('GetRecords', '{"ShardIterator": "not an iterator"}');
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', repeat('x', 2049)));
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_old_image'), 'Limit', 1001));
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_old_image'), 'Limit', 'x'));
-- an iterator issued 16 minutes ago has expired
SELECT regexp_replace(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator',
	regexp_replace(pg_temp.iterator('st_old_image'), '\|\d+$', '|' || floor(extract(epoch FROM now() - interval '16 minutes') * 1000)::bigint)))::text,
	'created at [^,]*', 'created at ...');
-- one of another stream's shard, or beyond the end, is invalid
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', regexp_replace(pg_temp.iterator('st_old_image'), '\|shardId-[^|]*', '|' || pg_temp.shard('st_new_image'))));
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', regexp_replace(pg_temp.iterator('st_old_image'), '\|(\d+)\|(\d+)$', '|999999|\2')));

-- StreamSpecification's validation and UpdateTable
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamViewType": "KEYS_ONLY"}}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamEnabled": true}}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "ALL"}}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamEnabled": false, "StreamViewType": "KEYS_ONLY"}}');
-- its constraint violations are reported with the request's others, in
-- DynamoDB's order (the shape's: tableName, billingMode,
-- provisionedThroughput, streamSpecification)
SELECT hroe.dynamodb('CreateTable', '{"TableName": "b!", "BillingMode": "FREE", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "ALL"}}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad2", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 1},
  "StreamSpecification": {"StreamViewType": "ALL"}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad2", "BillingMode": "FREE", "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "ALL"}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad2", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 0},
  "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "g"}}], "StreamSpecification": {"StreamViewType": "NONE"}}');
SELECT hroe.dynamodb('CreateTable', '{"TableName": "st_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "StreamSpecification": {"StreamEnabled": false}}') #> '{TableDescription, StreamSpecification}';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad", "StreamSpecification": {"StreamEnabled": false}}');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad", "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "OLD_IMAGE"}}') #> '{TableDescription, StreamSpecification}';
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad", "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}');
SELECT hroe.put_item('st_bad', '{"pk": {"S": "before"}}');
SELECT pg_temp.arn('st_bad') AS old_arn \gset
-- disabled: the stream stays readable, its shard closed; a new stream when enabled again
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad", "StreamSpecification": {"StreamEnabled": false}}') #> '{TableDescription, StreamSpecification}';
SELECT hroe.put_item('st_bad', '{"pk": {"S": "while disabled"}}');
SELECT hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', :'old_arn')) #>> '{StreamDescription, StreamStatus}' AS status,
	   hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', :'old_arn')) #> '{StreamDescription, Shards, 0, SequenceNumberRange}' AS range;
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', hroe.dynamodb('GetShardIterator',
	jsonb_build_object('StreamArn', :'old_arn', 'ShardId', pg_temp.shard('st_bad'), 'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator'))
	- 'NextShardIterator' #- '{Records, 0, eventID}' #- '{Records, 0, dynamodb, ApproximateCreationDateTime}' AS closed_shard;
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "st_bad", "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}}') #> '{TableDescription, StreamSpecification}';
SELECT pg_temp.arn('st_bad') <> :'old_arn' AS new_stream, count(*) AS streams FROM hroe.streams WHERE table_name = 'st_bad';

-- trimming: records older than the retention go; an iterator into them fails
SELECT pg_temp.iterator('st_bad') AS horizon \gset
SELECT hroe.put_item('st_bad', '{"pk": {"S": "after"}}');
SELECT hroe.trim_streams('0 seconds') > 0 AS trimmed;
SELECT regexp_replace(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', :'horizon'))::text, 'stream/[^ "]*', 'stream/...');
SELECT hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', pg_temp.iterator('st_bad'))) -> 'Records' AS after_trim;
SELECT regexp_replace(hroe.dynamodb('GetShardIterator', jsonb_build_object('StreamArn', pg_temp.arn('st_bad'), 'ShardId', pg_temp.shard('st_bad'), 'ShardIteratorType', 'AT_SEQUENCE_NUMBER', 'SequenceNumber', '100000000000000000001'))::text, 'stream/[^ "]*', 'stream/...');
SELECT hroe.put_item('st_bad', '{"pk": {"S": "after trim"}}');
SELECT n, event, keys FROM pg_temp.records('st_bad');
-- the disabled stream is gone too
SELECT count(*) AS streams FROM hroe.streams WHERE table_name = 'st_bad';

-- privileges: the records are the extension owner's; the API needs SELECT on the table
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_stream_reader;
DROP ROLE IF EXISTS regress_hroe_stream_nobody;
RESET client_min_messages;
CREATE ROLE regress_hroe_stream_reader;
CREATE ROLE regress_hroe_stream_nobody;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_stream_reader, regress_hroe_stream_nobody;
GRANT SELECT ON st_new_image TO regress_hroe_stream_reader;
SELECT pg_temp.arn('st_new_image') AS arn, pg_temp.shard('st_new_image') AS shard \gset
SET ROLE regress_hroe_stream_reader;
SELECT count(*) FROM hroe.stream_records;
SELECT hroe.dynamodb('ListStreams', '{}') #>> '{Streams, 0, TableName}' AS visible, jsonb_array_length(hroe.dynamodb('ListStreams', '{}') -> 'Streams') AS streams;
SELECT jsonb_array_length(hroe.dynamodb('GetRecords', jsonb_build_object('ShardIterator', hroe.dynamodb('GetShardIterator',
	jsonb_build_object('StreamArn', :'arn', 'ShardId', :'shard', 'ShardIteratorType', 'TRIM_HORIZON')) ->> 'ShardIterator')) -> 'Records') > 0 AS reads;
SELECT hroe.streams_call('ListStreams', '{}', 10);
SET ROLE regress_hroe_stream_nobody;
SELECT hroe.dynamodb('ListStreams', '{}');
SELECT regexp_replace(hroe.dynamodb('DescribeStream', jsonb_build_object('StreamArn', :'arn'))::text, 'stream/[^ "]*', 'stream/...');
-- the capture trigger refuses to write into another table's stream
RESET ROLE;
CREATE TABLE st_forger (item hroe.item);
SELECT stream_id AS victim FROM hroe.streams WHERE table_name = 'st_new_image' \gset
CREATE TRIGGER forge AFTER INSERT ON st_forger FOR EACH ROW
	EXECUTE FUNCTION hroe.stream_capture(:'victim', 'NEW_IMAGE', 'pk', 'sk');
DO $$
BEGIN
	INSERT INTO st_forger VALUES ('{"pk": {"S": "forged"}, "sk": {"N": "0"}}');
EXCEPTION WHEN insufficient_privilege THEN
	RAISE NOTICE 'refused: %', regexp_replace(SQLERRM, '\d+', 'N');
END
$$;
SELECT count(*) AS forged FROM hroe.stream_records WHERE new_image::text LIKE '%forged%';
DROP TABLE st_forger;

-- DeleteTable takes the stream with it; hroe.trim_streams the records
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "st_bad"}') #>> '{TableDescription, TableStatus}';
SELECT count(*) FROM hroe.streams WHERE table_name = 'st_bad';
SELECT count(*) > 0 AS orphans FROM hroe.stream_records r
WHERE NOT EXISTS (SELECT FROM hroe.streams s WHERE s.stream_id = r.stream_id);
SELECT hroe.trim_streams() > 0 AS trimmed;
SELECT count(*) AS orphans FROM hroe.stream_records r
WHERE NOT EXISTS (SELECT FROM hroe.streams s WHERE s.stream_id = r.stream_id);

DROP OWNED BY regress_hroe_stream_reader, regress_hroe_stream_nobody;
DROP ROLE regress_hroe_stream_reader;
DROP ROLE regress_hroe_stream_nobody;
SELECT hroe.dynamodb('DeleteTable', jsonb_build_object('TableName', 'st_' || v)) #>> '{TableDescription, TableStatus}'
FROM unnest(ARRAY['keys_only', 'new_image', 'old_image', 'new_and_old_images']) v;
