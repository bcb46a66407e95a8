--
-- The table-level API as DynamoDB describes it (issue #20): TableArn,
-- TableId, IndexArn, ProvisionedThroughput, BillingModeSummary,
-- DeletionProtectionEnabled, statuses, AttributeDefinitions in request
-- order; PROVISIONED tables and UpdateTable's throughput and billing mode
-- changes with DynamoDB's validation; deletion protection; names of 255
-- characters through every operation; tags.
--
\set VERBOSITY terse
-- the values that differ from run to run, replaced by their JSON type
CREATE FUNCTION stable(j jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT CASE jsonb_typeof(j)
		WHEN 'object' THEN (SELECT coalesce(jsonb_object_agg(k,
				CASE WHEN k IN ('TableId', 'CreationDateTime', 'LastUpdateToPayPerRequestDateTime',
								'LastIncreaseDateTime', 'LastDecreaseDateTime')
					 THEN to_jsonb('<' || jsonb_typeof(v) || '>') ELSE stable(v) END), '{}')
			FROM jsonb_each(j) e(k, v))
		WHEN 'array' THEN (SELECT coalesce(jsonb_agg(stable(v) ORDER BY o), '[]')
			FROM jsonb_array_elements(j) WITH ORDINALITY a(v, o))
		ELSE j END
$$;
CREATE FUNCTION ddb(p_op text, p_req jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT stable(hroe.dynamodb(p_op, p_req))
$$;
-- an error's message only
CREATE FUNCTION ddb_err(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT concat_ws(': ', split_part(r ->> '__type', '#', 2), r ->> 'message')
	FROM hroe.dynamodb(p_op, p_req) r
$$;

-- ---------- an on-demand table: every field DynamoDB describes ----------
-- CreateTable answers CREATING (and its GSIs), DescribeTable ACTIVE; the
-- AttributeDefinitions keep the request's order
SELECT jsonb_pretty(ddb('CreateTable', '{"TableName": "at_od", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "sk", "AttributeType": "N"}, {"AttributeName": "pk", "AttributeType": "S"},
                           {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "l", "AttributeType": "S"}],
  "LocalSecondaryIndexes": [{"IndexName": "byL", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}],
                             "Projection": {"ProjectionType": "KEYS_ONLY"}}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}')) AS create_table;
SELECT jsonb_pretty(ddb('DescribeTable', '{"TableName": "at_od"}')) AS describe_table;
-- TableId is a UUID kept with the table, CreationDateTime its creation
SELECT (d #>> '{Table,TableId}')::uuid = t.table_id AS table_id_kept,
       (d #>> '{Table,CreationDateTime}')::numeric = extract(epoch FROM t.created_at) AS creation_time,
       d #>> '{Table,BillingModeSummary,LastUpdateToPayPerRequestDateTime}' = d #>> '{Table,CreationDateTime}' AS on_demand_since_creation
FROM hroe.dynamodb('DescribeTable', '{"TableName": "at_od"}') d, hroe.tables t WHERE t.table_name = 'at_od';
-- the ARN follows the settings hroe.region and hroe.account_id
SET hroe.region = 'eu-west-3';
SET hroe.account_id = '000000000000';
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "at_od"}') #>> '{Table,TableArn}' AS arn,
       hroe.dynamodb('DescribeTable', '{"TableName": "at_od"}') #>> '{Table,GlobalSecondaryIndexes,0,IndexArn}' AS index_arn;
RESET hroe.region;
RESET hroe.account_id;
SET hroe.region = 'Not A Region';
SET hroe.account_id = '12345';

-- ---------- CreateTable: billing mode and throughput validation ----------
CREATE FUNCTION ct(p_extra jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT ddb_err('CreateTable', '{"TableName": "at_bad", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
		"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}]}'::jsonb
		|| jsonb_build_object('GlobalSecondaryIndexes', jsonb_build_array(jsonb_build_object('IndexName', 'byG',
			'KeySchema', '[{"AttributeName": "g", "KeyType": "HASH"}]'::jsonb, 'Projection', '{"ProjectionType": "ALL"}'::jsonb)
			|| coalesce(p_extra -> 'gsi', '{}'))) || (p_extra - 'gsi'))
$$;
SELECT ct('{}') AS no_billing_mode_no_throughput;
SELECT ct('{"BillingMode": "PROVISIONED"}') AS provisioned_without_throughput;
SELECT ct('{"BillingMode": "PAY_PER_REQUEST", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}') AS on_demand_with_throughput;
SELECT ct('{"BillingMode": "ONE", "ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": -2}}') AS three_errors;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": 1}}') AS write_missing;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": 1000000000001, "WriteCapacityUnits": 1}}') AS out_of_bounds;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1e40}}') AS far_out_of_bounds;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}') AS gsi_without_throughput;
SELECT ct('{"BillingMode": "PAY_PER_REQUEST", "gsi": {"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}') AS gsi_throughput_on_demand;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}, "gsi": {"ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 1}}}') AS gsi_throughput_zero;
SELECT ct('{"ProvisionedThroughput": {"ReadCapacityUnits": "1", "WriteCapacityUnits": 1}}') AS not_a_number;
-- AttributeDefinitions no key uses: without indexes, and with them
SELECT ddb_err('CreateTable', '{"TableName": "at_bad", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "extra", "AttributeType": "N"}]}') AS unused_definition;
SELECT ct('{"BillingMode": "PAY_PER_REQUEST", "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "x", "AttributeType": "S"}]}') AS unused_with_gsi;
SELECT ddb_err('CreateTable', '{"TableName": "at_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "pk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') AS key_without_definition;
SELECT ddb_err('CreateTable', '{"TableName": "at_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pkk", "AttributeType": "S"}]}') AS key_not_defined;
SELECT ct('{"BillingMode": "PAY_PER_REQUEST", "GlobalSecondaryIndexes": [
  {"IndexName": "same", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}},
  {"IndexName": "same", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}') AS duplicate_gsi_names;
SELECT ct('{"BillingMode": "PAY_PER_REQUEST", "GlobalSecondaryIndexes": []}') AS empty_gsi_list;
SELECT count(*) AS nothing_created FROM hroe.tables WHERE table_name = 'at_bad';

-- ---------- a PROVISIONED table with a GSI ----------
SELECT jsonb_pretty(ddb('CreateTable', '{"TableName": "at_prov",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 6},
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "KEYS_ONLY"},
                              "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}}]}')) AS create_provisioned;
SELECT billing_mode, read_capacity_units, write_capacity_units, pay_per_request_since IS NULL AS never_on_demand
FROM hroe.tables WHERE table_name = 'at_prov';

-- ---------- UpdateTable ----------
CREATE FUNCTION ut(p_req jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT CASE WHEN r ? '__type' THEN to_jsonb(concat_ws(': ', split_part(r ->> '__type', '#', 2), r ->> 'message'))
		   ELSE jsonb_build_object('TableStatus', r #> '{TableDescription,TableStatus}',
								   'BillingModeSummary', r #> '{TableDescription,BillingModeSummary}',
								   'ProvisionedThroughput', r #> '{TableDescription,ProvisionedThroughput}',
								   'GSIs', (SELECT jsonb_agg(g - 'KeySchema' - 'Projection' - 'IndexArn' - 'ItemCount' - 'IndexSizeBytes')
											FROM jsonb_array_elements(r #> '{TableDescription,GlobalSecondaryIndexes}') g),
								   'DeletionProtectionEnabled', r #> '{TableDescription,DeletionProtectionEnabled}') END
	FROM stable(hroe.dynamodb('UpdateTable', jsonb_build_object('TableName', 'at_prov') || p_req)) r
$$;
-- an increase, then a decrease (counted), of the table's throughput
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 6}}') AS increase;
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 2}}') AS decrease;
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 2}}') AS same_values;
SELECT ut('{"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 2}}') AS same_values_and_mode;
-- a GSI's throughput
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 4}}}]}') AS gsi_decrease;
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "nope", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 4}}}]}') AS gsi_unknown;
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG"}}]}') AS gsi_update_without_throughput;
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 4}}},
                                            {"Delete": {"IndexName": "byG"}}]}') AS two_updates_of_one_index;
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 2000000000000, "WriteCapacityUnits": 4}}}]}') AS gsi_out_of_bounds;
-- validation of the request
SELECT ut('{"BillingMode": "PROVISIONED"}') AS provisioned_without_throughput;
SELECT ut('{"BillingMode": "FREE"}') AS bad_mode;
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 0, "WriteCapacityUnits": 5}}') AS zero;
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 1000000000001, "WriteCapacityUnits": 5}}') AS out_of_bounds;
SELECT ut('{"BillingMode": "PAY_PER_REQUEST", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}') AS on_demand_with_throughput;
SELECT ddb_err('UpdateTable', '{"TableName": "at_nope", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}') AS no_table;
-- a new GSI on a PROVISIONED table needs its throughput; it is CREATING and backfilling
SELECT ut('{"AttributeDefinitions": [{"AttributeName": "h", "AttributeType": "S"}], "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byH",
  "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}}]}') AS new_gsi_without_throughput;
SELECT count(*) AS not_created FROM hroe.indexes WHERE table_name = 'at_prov' AND index_name = 'byH';
SELECT ut('{"AttributeDefinitions": [{"AttributeName": "h", "AttributeType": "S"}], "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byH",
  "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"},
  "ProvisionedThroughput": {"ReadCapacityUnits": 7, "WriteCapacityUnits": 7}}}]}') AS new_gsi;
-- PROVISIONED -> PAY_PER_REQUEST: no throughput left, on the table or its GSIs
SELECT ut('{"BillingMode": "PAY_PER_REQUEST"}') AS to_on_demand;
SELECT ut('{"BillingMode": "PAY_PER_REQUEST"}') AS on_demand_again;
SELECT ut('{"GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]}') AS gsi_throughput_on_demand;
SELECT ut('{"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}') AS throughput_on_demand;
-- PAY_PER_REQUEST -> PROVISIONED: every GSI needs its throughput
SELECT ut('{"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}') AS gsis_missing;
SELECT ut('{"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
  "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}}]}') AS one_gsi_missing;
SELECT ut('{"BillingMode": "PROVISIONED", "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
  "GlobalSecondaryIndexUpdates": [{"Update": {"IndexName": "byG", "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}}},
                                  {"Update": {"IndexName": "byH", "ProvisionedThroughput": {"ReadCapacityUnits": 2, "WriteCapacityUnits": 2}}}]}') AS to_provisioned;
SELECT billing_mode, read_capacity_units, write_capacity_units, pay_per_request_since IS NOT NULL AS was_on_demand
FROM hroe.tables WHERE table_name = 'at_prov';
SELECT index_name, read_capacity_units, write_capacity_units FROM hroe.indexes WHERE table_name = 'at_prov' ORDER BY 1;
-- the SQL function, as UpdateTable
SELECT hroe.update_table('at_prov', p_read_capacity_units => 6, p_write_capacity_units => 5) AS updating;
SELECT hroe.update_table('at_prov', p_read_capacity_units => 6);

-- ---------- deletion protection ----------
SELECT ddb('CreateTable', '{"TableName": "at_keep", "BillingMode": "PAY_PER_REQUEST", "DeletionProtectionEnabled": true,
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #> '{TableDescription,DeletionProtectionEnabled}' AS protected;
SELECT ddb_err('DeleteTable', '{"TableName": "at_keep"}') AS delete_protected;
SELECT hroe.delete_table('at_keep');
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "at_keep", "DeletionProtectionEnabled": false}')
	#> '{TableDescription,DeletionProtectionEnabled}' AS unprotected;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "at_keep"}') #>> '{TableDescription,TableStatus}' AS deleted;
SELECT ddb_err('UpdateTable', '{"TableName": "at_od"}') AS nothing_to_update;

-- ---------- names of 255 characters through every operation ----------
CREATE TEMP TABLE n AS
SELECT repeat('T', 250) || 'a.b_1' AS t, repeat('T', 250) || 'a.b_2' AS t2,
       repeat('I', 250) || '-idx1' AS gsi, repeat('L', 250) || '-lsi1' AS lsi, repeat('J', 250) || '-idx2' AS gsi2;
SELECT length(t) AS name_length FROM n;
SELECT hroe.dynamodb('CreateTable', jsonb_build_object('TableName', t, 'BillingMode', 'PAY_PER_REQUEST',
	'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]'::jsonb,
	'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}, {"AttributeName": "l", "AttributeType": "N"}]'::jsonb,
	'LocalSecondaryIndexes', jsonb_build_array(jsonb_build_object('IndexName', lsi,
		'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "l", "KeyType": "RANGE"}]'::jsonb, 'Projection', '{"ProjectionType": "ALL"}'::jsonb)),
	'GlobalSecondaryIndexes', jsonb_build_array(jsonb_build_object('IndexName', gsi,
		'KeySchema', '[{"AttributeName": "g", "KeyType": "HASH"}]'::jsonb, 'Projection', '{"ProjectionType": "ALL"}'::jsonb))))
	#>> '{TableDescription,TableName}' = t AS created
FROM n;
-- a second name with the same first 250 characters: another relation
SELECT hroe.dynamodb('CreateTable', jsonb_build_object('TableName', t2, 'BillingMode', 'PAY_PER_REQUEST',
	'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}]'::jsonb,
	'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}]'::jsonb)) #>> '{TableDescription,TableName}' = t2 AS created
FROM n;
SELECT length(relid::text) <= 63 AS short_relation, relid::text AS relation, table_name = n.t AS first
FROM hroe.tables, n WHERE table_name IN (n.t, n.t2) ORDER BY table_name;
SELECT index_relname, octet_length(index_relname) AS bytes FROM hroe.indexes, n WHERE table_name = n.t ORDER BY 1;
SELECT r.op, r.res
FROM n, LATERAL (VALUES
	('PutItem', hroe.dynamodb('PutItem', jsonb_build_object('TableName', t, 'Item', '{"pk": {"S": "a"}, "sk": {"S": "1"}, "g": {"S": "x"}, "l": {"N": "5"}}'::jsonb))),
	('BatchWriteItem', hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object(t, jsonb_build_array(
		jsonb_build_object('PutRequest', jsonb_build_object('Item', '{"pk": {"S": "a"}, "sk": {"S": "2"}, "g": {"S": "x"}, "l": {"N": "3"}}'::jsonb))))))),
	('UpdateItem', hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', t, 'Key', '{"pk": {"S": "a"}, "sk": {"S": "1"}}'::jsonb,
		'UpdateExpression', 'SET v = :v', 'ExpressionAttributeValues', '{":v": {"N": "1"}}'::jsonb, 'ReturnValues', 'UPDATED_NEW'))),
	('TransactWriteItems', hroe.dynamodb('TransactWriteItems', jsonb_build_object('TransactItems', jsonb_build_array(
		jsonb_build_object('Put', jsonb_build_object('TableName', t, 'Item', '{"pk": {"S": "b"}, "sk": {"S": "1"}, "g": {"S": "y"}}'::jsonb)))))),
	('GetItem', hroe.dynamodb('GetItem', jsonb_build_object('TableName', t, 'Key', '{"pk": {"S": "a"}, "sk": {"S": "1"}}'::jsonb, 'ProjectionExpression', 'v'))),
	('BatchGetItem', hroe.dynamodb('BatchGetItem', jsonb_build_object('RequestItems', jsonb_build_object(t,
		jsonb_build_object('Keys', '[{"pk": {"S": "b"}, "sk": {"S": "1"}}]'::jsonb, 'ProjectionExpression', 'g'))))
		-> 'Responses' -> t),
	('TransactGetItems', hroe.dynamodb('TransactGetItems', jsonb_build_object('TransactItems', jsonb_build_array(
		jsonb_build_object('Get', jsonb_build_object('TableName', t, 'Key', '{"pk": {"S": "a"}, "sk": {"S": "2"}}'::jsonb, 'ProjectionExpression', 'l')))))),
	('Query GSI', hroe.dynamodb('Query', jsonb_build_object('TableName', t, 'IndexName', gsi, 'KeyConditionExpression', 'g = :g',
		'ExpressionAttributeValues', '{":g": {"S": "x"}}'::jsonb, 'Select', 'COUNT'))),
	('Query LSI', hroe.dynamodb('Query', jsonb_build_object('TableName', t, 'IndexName', lsi, 'KeyConditionExpression', 'pk = :p AND l < :l',
		'ExpressionAttributeValues', '{":p": {"S": "a"}, ":l": {"N": "4"}}'::jsonb, 'ProjectionExpression', 'sk'))),
	('Scan', hroe.dynamodb('Scan', jsonb_build_object('TableName', t, 'Select', 'COUNT'))),
	('DeleteItem', hroe.dynamodb('DeleteItem', jsonb_build_object('TableName', t, 'Key', '{"pk": {"S": "b"}, "sk": {"S": "1"}}'::jsonb, 'ReturnValues', 'ALL_OLD')))
	) r(op, res);
SELECT hroe.dynamodb('ListTables', '{}') -> 'TableNames' @> jsonb_build_array(t, t2) AS listed,
       hroe.dynamodb('ListTables', jsonb_build_object('ExclusiveStartTableName', t, 'Limit', 1)) -> 'TableNames' = jsonb_build_array(t2) AS paged
FROM n;
-- a second GSI of 255 characters, created and deleted by UpdateTable
SELECT hroe.dynamodb('UpdateTable', jsonb_build_object('TableName', t,
	'AttributeDefinitions', '[{"AttributeName": "h", "AttributeType": "S"}]'::jsonb,
	'GlobalSecondaryIndexUpdates', jsonb_build_array(jsonb_build_object('Create', jsonb_build_object('IndexName', gsi2,
		'KeySchema', '[{"AttributeName": "h", "KeyType": "HASH"}]'::jsonb, 'Projection', '{"ProjectionType": "KEYS_ONLY"}'::jsonb)))))
	#> '{TableDescription,GlobalSecondaryIndexes}' @> jsonb_build_array(jsonb_build_object('IndexName', gsi2, 'IndexStatus', 'CREATING'))
	AS gsi2_created
FROM n;
SELECT d #>> '{Table,TableName}' = t AS table_name,
       d #>> '{Table,TableArn}' = 'arn:aws:dynamodb:us-east-1:123456789012:table/' || t AS table_arn,
       (SELECT array_agg(x ->> 'IndexName' = i ORDER BY i) FROM jsonb_array_elements(d #> '{Table,GlobalSecondaryIndexes}') x, unnest(ARRAY[gsi, gsi2]) i
        WHERE x ->> 'IndexName' = i) AS gsi_names,
       d #>> '{Table,LocalSecondaryIndexes,0,IndexArn}' = 'arn:aws:dynamodb:us-east-1:123456789012:table/' || t || '/index/' || lsi AS lsi_arn,
       d #> '{Table,ItemCount}' AS items
FROM n, hroe.dynamodb('DescribeTable', jsonb_build_object('TableName', t)) d;
SELECT hroe.dynamodb('UpdateTable', jsonb_build_object('TableName', t,
	'GlobalSecondaryIndexUpdates', jsonb_build_array(jsonb_build_object('Delete', jsonb_build_object('IndexName', gsi2)))))
	#>> '{TableDescription,TableStatus}' AS gsi2_deleted
FROM n;
SELECT hroe.dynamodb('TagResource', jsonb_build_object('ResourceArn', hroe.table_arn(t), 'Tags', '[{"Key": "k", "Value": "v"}]'::jsonb)) AS tagged
FROM n;
SELECT hroe.dynamodb('ListTagsOfResource', jsonb_build_object('ResourceArn', hroe.table_arn(t))) AS tags
FROM n;
SELECT count(*) AS tags FROM hroe.table_tags, n WHERE table_name = n.t;
SELECT hroe.dynamodb('DeleteTable', jsonb_build_object('TableName', t)) #>> '{TableDescription,TableStatus}' AS deleted,
       hroe.dynamodb('DeleteTable', jsonb_build_object('TableName', t2)) #>> '{TableDescription,TableStatus}' AS deleted2
FROM n;
SELECT count(*) AS left_behind FROM hroe.tables, n WHERE table_name IN (n.t, n.t2);
SELECT count(*) AS tags_left FROM hroe.table_tags, n WHERE table_name = n.t;
-- 256 characters are one too many
SELECT ddb_err('DescribeTable', jsonb_build_object('TableName', repeat('x', 256))) IS NOT NULL AS refused;

-- ---------- tags ----------
CREATE FUNCTION tag(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT CASE WHEN r ? '__type' THEN concat_ws(': ', split_part(r ->> '__type', '#', 2), r ->> 'message') ELSE r::text END
	FROM hroe.dynamodb(p_op, p_req) r
$$;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od",
  "Tags": [{"Key": "env", "Value": "test"}, {"Key": "project", "Value": "hroe"}, {"Key": "empty", "Value": ""}]}') AS tag;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od",
  "Tags": [{"Key": "env", "Value": "prod"}, {"Key": "team", "Value": "db"}]}') AS overwrite;
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od"}') AS list;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "TagKeys": ["team", "absent"]}') AS untag;
SELECT * FROM hroe.list_tags_of_resource('at_od');
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_prov"}') AS no_tags;
-- DescribeTable and ListTables do not show them
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "at_od"}') -> 'Table' ? 'Tags' AS described;
-- errors
SELECT tag('TagResource', '{"Tags": [{"Key": "a", "Value": "b"}]}') AS no_arn;
SELECT tag('TagResource', '{"ResourceArn": "not-a-valid-arn", "Tags": [{"Key": "a", "Value": "b"}]}') AS not_an_arn;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od/index/byG", "Tags": [{"Key": "a", "Value": "b"}]}') AS index_arn;
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:000000000000:table/nonexistent_table_xyz"}') AS other_account;
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:eu-west-1:123456789012:table/at_od"}') AS other_region;
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/nonexistent_table_xyz"}') AS unknown_table;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/nonexistent_table_xyz", "Tags": [{"Key": "a", "Value": "b"}]}') AS tag_unknown_table;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/nonexistent_table_xyz", "TagKeys": ["a"]}') AS untag_unknown_table;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od"}') AS tags_missing;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "Tags": []}') AS tags_empty;
SELECT tag('TagResource', jsonb_build_object('ResourceArn', 'arn:aws:dynamodb:us-east-1:123456789012:table/at_od',
	'Tags', jsonb_build_array(jsonb_build_object('Key', repeat('k', 129), 'Value', 'v'), jsonb_build_object('Key', '', 'Value', repeat('é', 257)),
							  jsonb_build_object('Value', 'v')))) AS lengths;
SELECT tag('TagResource', jsonb_build_object('ResourceArn', 'arn:aws:dynamodb:us-east-1:123456789012:table/at_od',
	'Tags', jsonb_build_array(jsonb_build_object('Key', repeat('é', 128), 'Value', repeat('é', 256))))) AS longest;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "Tags": [{"Key": "AWS:cost", "Value": "x"}]}') AS reserved_prefix;
SELECT tag('TagResource', jsonb_build_object('ResourceArn', 'arn:aws:dynamodb:us-east-1:123456789012:table/at_od',
	'Tags', (SELECT jsonb_agg(jsonb_build_object('Key', 'k' || i, 'Value', 'v')) FROM generate_series(1, 47) i))) AS fifty_one;
SELECT tag('TagResource', jsonb_build_object('ResourceArn', 'arn:aws:dynamodb:us-east-1:123456789012:table/at_od',
	'Tags', (SELECT jsonb_agg(jsonb_build_object('Key', 'k' || i, 'Value', 'v')) FROM generate_series(1, 46) i))) AS fifty;
SELECT count(*) AS tags FROM hroe.table_tags WHERE table_name = 'at_od';
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od"}') AS keys_missing;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "TagKeys": []}') AS keys_empty;
SELECT tag('UntagResource', jsonb_build_object('ResourceArn', 'arn:aws:dynamodb:us-east-1:123456789012:table/at_od', 'TagKeys', jsonb_build_array(repeat('k', 129)))) AS key_too_long;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "TagKeys": [1]}') AS key_not_a_string;
-- only a member of the role owning the table changes its tags (the
-- functions check it; row-level security on hroe.table_tags refuses direct
-- writes); any role reads them
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_tagger;
DROP ROLE IF EXISTS regress_hroe_owner;
RESET client_min_messages;
CREATE ROLE regress_hroe_tagger;
CREATE ROLE regress_hroe_owner;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_tagger, regress_hroe_owner;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "at_owned", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #>> '{TableDescription,TableStatus}' AS created;
ALTER TABLE at_owned OWNER TO regress_hroe_owner;
SET ROLE regress_hroe_owner;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_owned", "Tags": [{"Key": "team", "Value": "owners"}, {"Key": "gone", "Value": "x"}]}') AS owner_tags;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_owned", "TagKeys": ["gone"]}') AS owner_untags;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_od", "Tags": [{"Key": "mine", "Value": "x"}]}') AS not_its_table;
RESET ROLE;
SET ROLE regress_hroe_tagger;
SELECT tag('TagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_owned", "Tags": [{"Key": "mine", "Value": "x"}]}') AS not_the_owner;
SELECT tag('UntagResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_owned", "TagKeys": ["team"]}') AS untag_not_the_owner;
DELETE FROM hroe.table_tags WHERE table_name IN ('at_od', 'at_owned');
UPDATE hroe.table_tags SET tag_value = 'forged' WHERE table_name = 'at_owned';
INSERT INTO hroe.table_tags VALUES ('at_owned', 'forged', 'x');
SELECT tag('ListTagsOfResource', '{"ResourceArn": "arn:aws:dynamodb:us-east-1:123456789012:table/at_owned"}') AS readable;
SELECT count(*) AS readable FROM hroe.list_tags_of_resource('at_od');
RESET ROLE;
SELECT table_name, count(*) AS tags_kept FROM hroe.table_tags WHERE table_name IN ('at_od', 'at_owned') GROUP BY 1 ORDER BY 1;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "at_owned"}') #>> '{TableDescription,TableStatus}' AS deleted;
DROP OWNED BY regress_hroe_tagger, regress_hroe_owner;
DROP ROLE regress_hroe_tagger;
DROP ROLE regress_hroe_owner;
-- DeleteTable takes the tags with it
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "at_od"}') #>> '{TableDescription,TableStatus}' AS deleted;
SELECT count(*) AS tags_left FROM hroe.table_tags WHERE table_name = 'at_od';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "at_prov"}') #>> '{TableDescription,TableStatus}' AS deleted;
