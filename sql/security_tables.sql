--
-- Table metadata writes are scoped to the table's owner (issue #20):
-- CreateTable and DeleteTable through the JSON API need INSERT, UPDATE and
-- DELETE on hroe.tables and hroe.indexes, and row-level security lets such
-- a role change only the metadata of the tables it owns; the DDL functions
-- refuse another's table with AccessDeniedException.
--
\set VERBOSITY terse
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_ddl_a;
DROP ROLE IF EXISTS regress_hroe_ddl_b;
RESET client_min_messages;
CREATE ROLE regress_hroe_ddl_a;
CREATE ROLE regress_hroe_ddl_b;
CREATE SCHEMA regress_meta;
GRANT USAGE, CREATE ON SCHEMA regress_meta TO regress_hroe_ddl_a, regress_hroe_ddl_b;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_ddl_a, regress_hroe_ddl_b;
GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes, hroe.streams, hroe.time_to_live TO regress_hroe_ddl_a, regress_hroe_ddl_b;
GRANT USAGE ON SEQUENCE hroe.stream_ids TO regress_hroe_ddl_a, regress_hroe_ddl_b;
SET search_path = regress_meta, public;
CREATE FUNCTION regress_meta.err(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(split_part(r ->> '__type', '#', 2) || ': ' || (r ->> 'message'), r #>> '{TableDescription,TableStatus}')
	FROM hroe.dynamodb(p_op, p_req) r
$$;
GRANT EXECUTE ON FUNCTION regress_meta.err(text, jsonb) TO regress_hroe_ddl_a, regress_hroe_ddl_b;

-- each role creates a table with a GSI through the JSON API
SET ROLE regress_hroe_ddl_a;
SELECT err('CreateTable', '{"TableName": "sec_a", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}') AS a_creates;
RESET ROLE;
SET ROLE regress_hroe_ddl_b;
SELECT err('CreateTable', '{"TableName": "sec_b", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') AS b_creates;
-- b sees a's metadata, but cannot change it, directly ...
SELECT table_name, partition_key, deletion_protection FROM hroe.tables WHERE table_name LIKE 'sec\_%' ORDER BY 1;
UPDATE hroe.tables SET deletion_protection = true, partition_key = 'x' WHERE table_name = 'sec_a';
DELETE FROM hroe.tables WHERE table_name = 'sec_a';
INSERT INTO hroe.tables (table_name, relid, partition_key, partition_key_type)
SELECT 'sec_forged', relid, 'pk', 'S' FROM hroe.tables WHERE table_name = 'sec_a';
UPDATE hroe.indexes SET projection = 'KEYS_ONLY' WHERE table_name = 'sec_a';
DELETE FROM hroe.indexes WHERE table_name = 'sec_a';
INSERT INTO hroe.indexes (table_name, index_name, index_relname, partition_key, partition_key_types,
						  partition_key_columns, sort_key, sort_key_types, sort_key_columns, projection, key_check)
VALUES ('sec_a', 'forged', 'x', '{g}', '{S}', '{g}', '{}', '{}', '{}', 'ALL', 'x');
-- nor a's Time to Live (the worker, a superuser, would delete a's items) or stream
INSERT INTO hroe.time_to_live (table_name, attribute_name, enabled) VALUES ('sec_a', 'pk', true);
INSERT INTO hroe.streams (table_name, view_type, label) VALUES ('sec_a', 'KEYS_ONLY', 'forged');
-- ... or through the JSON API and the SQL functions
SELECT err('UpdateTimeToLive', '{"TableName": "sec_a", "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "pk"}}') AS ttl_of_a;
SELECT err('DescribeTimeToLive', '{"TableName": "sec_a"}') AS describe_ttl_of_a;
SELECT err('UpdateTable', '{"TableName": "sec_a", "DeletionProtectionEnabled": true}') AS update_a;
SELECT err('UpdateTable', '{"TableName": "sec_a", "GlobalSecondaryIndexUpdates": [{"Delete": {"IndexName": "byG"}}]}') AS delete_gsi_of_a;
SELECT err('DeleteTable', '{"TableName": "sec_a"}') AS delete_a;
SELECT hroe.update_table('sec_a', p_deletion_protection => true);
SELECT hroe.delete_index('sec_a', 'byG');
SELECT hroe.delete_table('sec_a');
-- its own table, b changes and deletes
SELECT hroe.dynamodb('UpdateTimeToLive', '{"TableName": "sec_b", "TimeToLiveSpecification": {"Enabled": true, "AttributeName": "pk"}}') AS ttl_of_b;
SELECT hroe.dynamodb('DescribeTimeToLive', '{"TableName": "sec_b"}') AS describe_ttl_of_b;
SELECT hroe.dynamodb('UpdateTable', '{"TableName": "sec_b", "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "KEYS_ONLY"}}') #> '{TableDescription, StreamSpecification}' AS stream_of_b;
SELECT err('UpdateTable', '{"TableName": "sec_b", "DeletionProtectionEnabled": true}') AS protect_b;
SELECT err('DeleteTable', '{"TableName": "sec_b"}') AS delete_protected_b;
UPDATE hroe.tables SET deletion_protection = false WHERE table_name = 'sec_b';
SELECT err('DeleteTable', '{"TableName": "sec_b"}') AS delete_b;
RESET ROLE;
-- a's metadata is intact, and a deletes its table
SELECT table_name, partition_key, deletion_protection FROM hroe.tables WHERE table_name LIKE 'sec\_%' ORDER BY 1;
SELECT table_name, index_name, projection FROM hroe.indexes WHERE table_name LIKE 'sec\_%' ORDER BY 1, 2;
SET ROLE regress_hroe_ddl_a;
SELECT err('DeleteTable', '{"TableName": "sec_a"}') AS delete_a;
RESET ROLE;
SELECT count(*) AS left_behind FROM hroe.tables WHERE table_name LIKE 'sec\_%';
DROP SCHEMA regress_meta CASCADE;
DROP OWNED BY regress_hroe_ddl_a, regress_hroe_ddl_b;
DROP ROLE regress_hroe_ddl_a;
DROP ROLE regress_hroe_ddl_b;
