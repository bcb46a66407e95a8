--
-- hroe.dynamodb and PostgreSQL privileges (issue #17): a call the role's
-- privileges (or a row-level security policy) refuse answers DynamoDB's
-- AccessDeniedException body, naming only the role and the request's own
-- table, and leaves the caller's transaction usable.
--
\set VERBOSITY terse
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_nobody;
DROP ROLE IF EXISTS regress_hroe_reader;
DROP ROLE IF EXISTS regress_hroe_writer;
RESET client_min_messages;
CREATE ROLE regress_hroe_nobody;
CREATE ROLE regress_hroe_reader;
CREATE ROLE regress_hroe_writer;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_nobody, regress_hroe_reader, regress_hroe_writer;
SELECT hroe.dynamodb('CreateTable', format('{"TableName": "%s", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}', t)::jsonb) #>> '{TableDescription, TableStatus}'
FROM unnest(ARRAY['sa_t', 'sa_u']) t;
SELECT hroe.dynamodb('PutItem', '{"TableName": "sa_t", "Item": {"pk": {"S": "a"}, "v": {"N": "1"}}}');
GRANT SELECT ON sa_t TO regress_hroe_reader;
GRANT SELECT, INSERT, UPDATE, DELETE ON sa_t, sa_u TO regress_hroe_writer;

-- a role without any privilege on the table: every item operation is
-- denied, and the caller's transaction goes on
SET ROLE regress_hroe_nobody;
BEGIN;
SELECT op, hroe.dynamodb(op, req::jsonb) FROM (VALUES
  ('GetItem', '{"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}'),
  ('PutItem', '{"TableName": "sa_t", "Item": {"pk": {"S": "b"}}}'),
  ('UpdateItem', '{"TableName": "sa_t", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": {":v": {"N": "2"}}}'),
  ('DeleteItem', '{"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}'),
  ('Query', '{"TableName": "sa_t", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}}}'),
  ('Scan', '{"TableName": "sa_t"}')) r(op, req);
SELECT 'the transaction is still usable' AS still;
COMMIT;
-- an unknown table is not found, whatever the privileges
SELECT hroe.dynamodb('GetItem', '{"TableName": "sa_none", "Key": {"pk": {"S": "a"}}}');
-- table metadata is public (hroe.tables is readable by PUBLIC): ListTables
-- answers every role; DescribeTable counts the items (ItemCount,
-- TableSizeBytes), so it needs SELECT on the table
SELECT hroe.dynamodb('ListTables', '{}') -> 'TableNames' @> '["sa_t", "sa_u"]' AS lists_them;
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "sa_t"}');
-- CreateTable in a schema the role may not create in, DeleteTable of a
-- table it does not own
SELECT hroe.dynamodb('CreateTable', '{"TableName": "sa_new", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}');
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "sa_t"}');
RESET ROLE;

-- a reader: reads answer, writes are denied; a batch or a transaction names
-- the table it is denied on
SET ROLE regress_hroe_reader;
SELECT hroe.dynamodb('GetItem', '{"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('DescribeTable', '{"TableName": "sa_t"}') #> '{Table, ItemCount}';
SELECT hroe.dynamodb('PutItem', '{"TableName": "sa_t", "Item": {"pk": {"S": "b"}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"sa_t": {"Keys": [{"pk": {"S": "a"}}]},
  "sa_u": {"Keys": [{"pk": {"S": "a"}}]}}}');
SELECT hroe.dynamodb('BatchWriteItem', '{"RequestItems": {"sa_t": [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]}}');
-- (TransactGetItems reads its items under one snapshot, without locks: a
-- reader needs SELECT only, as for GetItem; it is denied on sa_u, which it
-- may not read)
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactGetItems', '{"TransactItems": [{"Get": {"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}},
  {"Get": {"TableName": "sa_u", "Key": {"pk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"ConditionCheck": {"TableName": "sa_t", "Key": {"pk": {"S": "a"}}, "ConditionExpression": "attribute_exists(pk)"}},
  {"Put": {"TableName": "sa_t", "Item": {"pk": {"S": "b"}}}}]}');
RESET ROLE;

-- row-level security: a policy that refuses the write is denied the same
-- way, without PostgreSQL's text (which names the policy's table)
CREATE FUNCTION sa_secret_rule(hroe.item) RETURNS boolean LANGUAGE sql IMMUTABLE
AS $$ SELECT ($1::jsonb -> 'pk' ->> 'S') <> 'forbidden' $$;
ALTER TABLE sa_u ENABLE ROW LEVEL SECURITY;
CREATE POLICY sa_u_rule ON sa_u USING (true) WITH CHECK (sa_secret_rule(item));
SET ROLE regress_hroe_writer;
SELECT hroe.dynamodb('PutItem', '{"TableName": "sa_u", "Item": {"pk": {"S": "fine"}}}');
SELECT hroe.dynamodb('PutItem', '{"TableName": "sa_u", "Item": {"pk": {"S": "forbidden"}}}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
  {"Put": {"TableName": "sa_t", "Item": {"pk": {"S": "t1"}}}},
  {"Put": {"TableName": "sa_u", "Item": {"pk": {"S": "forbidden"}}}}]}');
SELECT count(*) AS nothing_written FROM sa_t WHERE pk OPERATOR(hroe.=) 't1';
RESET ROLE;
-- a policy calling a function the role may not execute: the function is
-- not named either
REVOKE EXECUTE ON FUNCTION sa_secret_rule(hroe.item) FROM PUBLIC;
SET ROLE regress_hroe_writer;
SELECT hroe.dynamodb('PutItem', '{"TableName": "sa_u", "Item": {"pk": {"S": "other"}}}');
RESET ROLE;
DROP POLICY sa_u_rule ON sa_u;
ALTER TABLE sa_u DISABLE ROW LEVEL SECURITY;

-- with the tokens table closed to PUBLIC by an administrator, a
-- TransactWriteItems with a ClientRequestToken is denied without naming it
REVOKE ALL ON hroe.transaction_tokens FROM PUBLIC;
SET ROLE regress_hroe_writer;
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "sa-1",
  "TransactItems": [{"Put": {"TableName": "sa_t", "Item": {"pk": {"S": "tok"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [{"Put": {"TableName": "sa_t", "Item": {"pk": {"S": "tok"}}}}]}');
RESET ROLE;
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.transaction_tokens TO PUBLIC;

-- SELECT on the columns a read uses, not on the table: GetItem, Query and
-- BatchGetItem answer as the SQL statement they then run answers (column
-- privileges apply, as in SELECT); the btree probe without the executor is
-- for table-level SELECT only
GRANT SELECT (pk, item) ON sa_t TO regress_hroe_nobody;
SET ROLE regress_hroe_nobody;
SELECT hroe.dynamodb('GetItem', '{"TableName": "sa_t", "Key": {"pk": {"S": "a"}}}');
SELECT hroe.dynamodb('Query', '{"TableName": "sa_t", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}}}');
SELECT hroe.dynamodb('BatchGetItem', '{"RequestItems": {"sa_t": {"Keys": [{"pk": {"S": "a"}}]}}}');
RESET ROLE;
REVOKE SELECT (pk, item) ON sa_t FROM regress_hroe_nobody;

-- the SQL-level operations still raise the SQL error
SET ROLE regress_hroe_nobody;
SELECT hroe.get_item('sa_t', '{"pk": {"S": "a"}}');
RESET ROLE;

DROP FUNCTION sa_secret_rule(hroe.item);
REVOKE ALL ON sa_t, sa_u FROM regress_hroe_reader, regress_hroe_writer;
REVOKE USAGE ON SCHEMA hroe FROM regress_hroe_nobody, regress_hroe_reader, regress_hroe_writer;
DROP ROLE regress_hroe_nobody;
DROP ROLE regress_hroe_reader;
DROP ROLE regress_hroe_writer;
SELECT hroe.dynamodb('DeleteTable', format('{"TableName": "%s"}', t)::jsonb) #>> '{TableDescription, TableStatus}'
FROM unnest(ARRAY['sa_t', 'sa_u']) t;
