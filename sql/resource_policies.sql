--
-- Resource-based policies (issue #32): PutResourcePolicy, GetResourcePolicy,
-- DeleteResourcePolicy and their SQL functions, the policy document's
-- validation, the evaluation of a policy's explicit Deny, and its
-- enforcement on the JSON API's requests (the front ends: t_policies.sh)
--
\set VERBOSITY terse
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_pol_owner;
DROP ROLE IF EXISTS regress_hroe_pol_app;
DROP ROLE IF EXISTS regress_hroe_pol_other;
RESET client_min_messages;
CREATE ROLE regress_hroe_pol_owner;
CREATE ROLE regress_hroe_pol_app;
CREATE ROLE regress_hroe_pol_other;
CREATE SCHEMA regress_pol;
GRANT USAGE, CREATE ON SCHEMA regress_pol TO regress_hroe_pol_owner;
GRANT USAGE ON SCHEMA regress_pol TO regress_hroe_pol_app, regress_hroe_pol_other;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_pol_owner, regress_hroe_pol_app, regress_hroe_pol_other;
GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes, hroe.streams, hroe.time_to_live TO regress_hroe_pol_owner;
GRANT USAGE ON SEQUENCE hroe.stream_ids TO regress_hroe_pol_owner;
SET search_path = regress_pol, public;
-- a call's answer: its error (type: message) or its result
CREATE FUNCTION regress_pol.ddb(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(split_part(r ->> '__type', '#', 2) || ': ' || (r ->> 'message'), r::text)
	FROM hroe.dynamodb(p_op, p_req) r
$$;
GRANT EXECUTE ON FUNCTION regress_pol.ddb(text, jsonb) TO PUBLIC;
-- a policy with the account and ARNs of this database (ACCOUNT, TABLE)
CREATE FUNCTION regress_pol.doc(p_policy text, p_table text DEFAULT 'pol') RETURNS text
LANGUAGE sql STABLE AS $$
	SELECT replace(replace(p_policy, 'ACCOUNT', current_setting('hroe.account_id')),
				   'TABLE', hroe.table_arn(p_table))
$$;
GRANT EXECUTE ON FUNCTION regress_pol.doc(text, text) TO PUBLIC;

SET ROLE regress_hroe_pol_owner;
SELECT ddb('CreateTable', '{"TableName": "pol", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}}]}') IS NOT NULL AS created;
GRANT SELECT, INSERT, UPDATE, DELETE ON regress_pol.pol TO regress_hroe_pol_app, regress_hroe_pol_other;

-- ---------- Put, Get, Delete ----------
-- no policy yet
SELECT ddb('GetResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'))) = 'PolicyNotFoundException: Resource-based policy not found for the provided ResourceArn: ' || hroe.table_arn('pol') AS not_found;
SELECT ddb('DeleteResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'))) LIKE 'PolicyNotFoundException: %' AS delete_not_found;
-- put: a numeric RevisionId; the same document again keeps it
SELECT hroe.put_resource_policy(hroe.table_arn('pol'), doc('{"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::ACCOUNT:user/regress_hroe_pol_app"}, "Action": "dynamodb:PutItem", "Resource": "TABLE"}]}')) AS rev1 \gset
SELECT :'rev1' ~ '^[0-9]+$' AS numeric_revision;
SELECT hroe.put_resource_policy(hroe.table_arn('pol'), doc('{"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::ACCOUNT:user/regress_hroe_pol_app"}, "Action": "dynamodb:PutItem", "Resource": "TABLE"}]}')) = :'rev1' AS same_revision;
SELECT (g.policy)::jsonb -> 'Statement' -> 0 ->> 'Action' AS action, g.revision_id = :'rev1' AS revision
FROM hroe.get_resource_policy(hroe.table_arn('pol')) g;
-- the JSON API's Get answers Policy and RevisionId
SELECT (r ->> 'RevisionId') = :'rev1' AS json_revision, (r ->> 'Policy')::jsonb ? 'Statement' AS json_policy
FROM hroe.dynamodb('GetResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'))) r;
-- ExpectedRevisionId: a mismatch, NO_POLICY while one exists
SELECT ddb('PutResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'),
	'Policy', doc('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:DeleteTable", "Resource": "TABLE"}}'),
	'ExpectedRevisionId', '1')) LIKE 'PolicyNotFoundException: A policy with the given revision ID does not exist for the resource: %' AS mismatch;
SELECT ddb('PutResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'),
	'Policy', doc('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:DeleteTable", "Resource": "TABLE"}}'),
	'ExpectedRevisionId', 'NO_POLICY')) LIKE 'PolicyNotFoundException: %' AS no_policy_mismatch;
-- a new document with the right revision: a new, greater revision
SELECT (r ->> 'RevisionId')::numeric > :'rev1'::numeric AS new_revision
FROM hroe.dynamodb('PutResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'),
	'Policy', doc('{"Version": "2012-10-17", "Statement": [{"Sid": "noAppPut", "Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::ACCOUNT:user/regress_hroe_pol_app"}, "Action": ["dynamodb:PutItem", "dynamodb:BatchWriteItem", "dynamodb:PartiQLInsert"], "Resource": "TABLE"},
	  {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:Query", "Resource": "TABLE/index/*"},
	  {"Effect": "Allow", "Principal": "*", "Action": "dynamodb:*", "Resource": "*"}]}'),
	'ExpectedRevisionId', :'rev1')) r;
-- the members' constraints
SELECT ddb('PutResourcePolicy', '{}');
SELECT ddb('GetResourcePolicy', '{"ResourceArn": ""}');
SELECT ddb('GetResourcePolicy', '{"ResourceArn": "table/pol"}');
SELECT ddb('GetResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('nope')));
SELECT ddb('GetResourcePolicy', '{"ResourceArn": "arn:aws:dynamodb:xx-south-9:000000000000:table/pol"}');
-- one reading of a table ARN for every operation (hroe.arn_parse): another
-- partition's ARN is another database's, as the tag operations have it
SELECT ddb('GetResourcePolicy', jsonb_build_object('ResourceArn', replace(hroe.table_arn('pol'), 'arn:aws:', 'arn:aws-cn:')));
SELECT ddb('TagResource', jsonb_build_object('ResourceArn', replace(hroe.table_arn('pol'), 'arn:aws:', 'arn:aws-cn:'), 'Tags', '[{"Key": "k", "Value": "v"}]'));
SELECT replace(a, hroe.table_arn(''), 'ARN:') AS arn, p.*
FROM unnest(ARRAY['not-an-arn', hroe.table_arn('pol'), hroe.table_arn('pol') || '/stream/2024-01-01T00:00:00.000',
				  hroe.table_arn('pol') || '/index/byG', hroe.table_arn('po'), hroe.table_arn('a b'),
				  replace(hroe.table_arn('pol'), 'arn:aws:', 'arn:aws-cn:'), 'arn:aws:dynamodb::000000000000:table/pol']) a,
	 hroe.arn_parse(a) p;
SELECT hroe.request_table_name(hroe.table_arn('pol')) AS by_arn, hroe.request_table_name('pol') AS by_name,
	   hroe.request_table_name(hroe.table_arn('pol') || '/index/byG') = hroe.table_arn('pol') || '/index/byG' AS index_arn_kept;

-- ---------- validation of the document ----------
SELECT ddb('PutResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'), 'Policy', p)) AS refused
FROM unnest(ARRAY[
	'not json',
	'[]',
	'{"Version": "2012-10-17"}',
	'{"Version": "2011-01-01", "Statement": []}',
	'{"Statement": []}',
	'{"Statement": [{"Effect": "Maybe", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*"}]}',
	'{"Statement": [{"Effect": "Deny", "Action": "dynamodb:GetItem", "Resource": "*"}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Resource": "*"}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem"}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": {"Someone": "x"}, "Action": "dynamodb:GetItem", "Resource": "*"}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Action": 7, "Resource": "*"}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*", "Extra": 1}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*", "Condition": {"StringAlike": {"aws:PrincipalArn": "x"}}}]}',
	'{"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*"}], "Other": 1}',
	'{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "' || repeat('x', 20480) || '"}}'
]) p;
-- (the refusals left the policy as it was)
SELECT (g.policy)::jsonb -> 'Statement' -> 0 ->> 'Sid' AS sid FROM hroe.get_resource_policy(hroe.table_arn('pol')) g;
RESET ROLE;

-- ---------- enforcement ----------
-- the app's PutItem, BatchWriteItem and PartiQL INSERT are denied, with
-- DynamoDB's text; its GetItem and UpdateItem are not
SET ROLE regress_hroe_pol_app;
SELECT replace(replace(ddb('PutItem', '{"TableName": "pol", "Item": {"pk": {"S": "a"}}}'),
	current_setting('hroe.account_id'), 'ACCOUNT'), current_setting('hroe.region'), 'REGION') AS app_put;
SELECT ddb('BatchWriteItem', '{"RequestItems": {"pol": [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]}}') LIKE 'AccessDeniedException: User: arn:aws:iam::%:user/regress_hroe_pol_app is not authorized to perform: dynamodb:BatchWriteItem on resource: %:table/pol with an explicit deny in a resource-based policy' AS app_batch;
SELECT ddb('ExecuteStatement', '{"Statement": "INSERT INTO pol VALUE {''pk'': ''c''}"}') LIKE 'AccessDeniedException: % dynamodb:PartiQLInsert on resource: %' AS app_partiql_insert;
SELECT ddb('UpdateItem', '{"TableName": "pol", "Key": {"pk": {"S": "u"}}, "UpdateExpression": "SET g = :g", "ExpressionAttributeValues": {":g": {"S": "x"}}}') AS app_update;
SELECT ddb('GetItem', '{"TableName": "pol", "Key": {"pk": {"S": "u"}}}') AS app_get;
-- a transaction's Put is PutItem: denied, and nothing of it written
SELECT ddb('TransactWriteItems', '{"TransactItems": [{"Update": {"TableName": "pol", "Key": {"pk": {"S": "u"}}, "UpdateExpression": "SET h = :h", "ExpressionAttributeValues": {":h": {"S": "y"}}}},
	{"Put": {"TableName": "pol", "Item": {"pk": {"S": "t"}}}}]}') LIKE 'AccessDeniedException: % dynamodb:PutItem on resource: %' AS app_transact_put;
SELECT ddb('GetItem', '{"TableName": "pol", "Key": {"pk": {"S": "u"}}}') AS not_updated;
-- every principal's Query of an index is denied; the table's is not
SELECT ddb('Query', '{"TableName": "pol", "IndexName": "byG", "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "x"}}}') LIKE 'AccessDeniedException: % dynamodb:Query on resource: %:table/pol/index/byG with an explicit deny in a resource-based policy' AS app_index_query;
SELECT ddb('Query', '{"TableName": "pol", "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "u"}}, "Select": "COUNT"}') AS app_table_query;
-- the app may not change the owner's policy
SELECT ddb('DeleteResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'))) LIKE 'AccessDeniedException: %' AS app_delete_policy;
SELECT hroe.put_resource_policy(hroe.table_arn('pol'), '{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*"}}');
RESET ROLE;
-- another role is not denied: the Allow grants nothing PostgreSQL does not
SET ROLE regress_hroe_pol_other;
SELECT ddb('PutItem', '{"TableName": "pol", "Item": {"pk": {"S": "o"}}}') AS other_put;
SELECT ddb('BatchWriteItem', '{"RequestItems": {"pol": [{"PutRequest": {"Item": {"pk": {"S": "o2"}}}}]}}') AS other_batch;
SELECT ddb('Query', '{"TableName": "pol", "IndexName": "byG", "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "x"}}}') LIKE 'AccessDeniedException: %' AS other_index_query;
RESET ROLE;
-- the SQL functions are not the JSON API: PostgreSQL's privileges alone
SET ROLE regress_hroe_pol_app;
SELECT hroe.put_item('pol', '{"pk": {"S": "sql"}}') IS NULL AS sql_put;
RESET ROLE;

-- ---------- DeleteTable removes the policy ----------
SET ROLE regress_hroe_pol_owner;
SELECT ddb('DeleteTable', '{"TableName": "pol"}') LIKE '%DELETING%' AS deleted;
SELECT count(*) AS policies_left FROM hroe.resource_policies WHERE table_name = 'pol';
-- CreateTable's ResourcePolicy: attached with the new table
SELECT ddb('CreateTable', jsonb_build_object('TableName', 'pol', 'BillingMode', 'PAY_PER_REQUEST',
  'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}]'::jsonb,
  'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}]'::jsonb,
  'ResourcePolicy', doc('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "ACCOUNT"}, "Action": "dynamodb:Get*", "Resource": "TABLE"}}'))) LIKE '%CREATING%' AS created_with_policy;
SELECT ddb('GetItem', '{"TableName": "pol", "Key": {"pk": {"S": "a"}}}') LIKE 'AccessDeniedException: % dynamodb:GetItem %' AS owner_get_denied;
SELECT ddb('PutItem', '{"TableName": "pol", "Item": {"pk": {"S": "a"}}}') AS owner_put;
-- an invalid ResourcePolicy creates no table
SELECT ddb('CreateTable', jsonb_build_object('TableName', 'pol2', 'BillingMode', 'PAY_PER_REQUEST',
  'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}]'::jsonb,
  'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}]'::jsonb,
  'ResourcePolicy', '{"Statement": []}')) AS invalid_policy;
SELECT count(*) AS pol2 FROM hroe.tables WHERE table_name = 'pol2';
-- the delete answers the revision it removed; the table is then open again
SELECT (r ->> 'RevisionId') ~ '^[0-9]+$' AS deleted_revision
FROM hroe.dynamodb('DeleteResourcePolicy', jsonb_build_object('ResourceArn', hroe.table_arn('pol'))) r;
SELECT ddb('GetItem', '{"TableName": "pol", "Key": {"pk": {"S": "a"}}}') AS owner_get;
SELECT ddb('DeleteTable', '{"TableName": "pol"}') LIKE '%DELETING%' AS deleted;
RESET ROLE;

-- ---------- the evaluation: a matrix ----------
CREATE TEMP TABLE m (policy text, principal text, action text, resource text);
INSERT INTO m VALUES
-- principals: *, {"AWS": "*"}, the account's id and root, the user, another user, another account
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "*"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "111122223333"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::111122223333:root"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": ["arn:aws:iam::111122223333:user/u2", "arn:aws:iam::111122223333:user/u1"]}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::111122223333:user/u2"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::999999999999:root"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "NotPrincipal": {"AWS": "arn:aws:iam::111122223333:user/u2"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "NotPrincipal": {"AWS": "arn:aws:iam::111122223333:user/u1"}, "Action": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
-- actions: wildcards, case, NotAction
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:*", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:Get*", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:Get*", "Resource": "*"}}', 'u1', 'dynamodb:PutItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "DynamoDB:getitem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:?etItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:Get", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "NotAction": "dynamodb:Query", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "NotAction": "dynamodb:GetItem", "Resource": "*"}}', 'u1', 'dynamodb:GetItem', 't'),
-- resources: exact, wildcards, case kept, an index, NotResource
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:r:111122223333:table/t"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:r:111122223333:table/T"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:r:111122223333:table/t"}}', 'u1', 'dynamodb:Query', 't/index/i'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:r:111122223333:table/t/index/*"}}', 'u1', 'dynamodb:Query', 't/index/i'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:*:*:table/t*"}}', 'u1', 'dynamodb:Query', 't/index/i'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "arn:aws:dynamodb:r:111122223333:table/t.x"}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "NotResource": "arn:aws:dynamodb:r:111122223333:table/t"}}', 'u1', 'dynamodb:GetItem', 't'),
-- Deny over Allow; Allow alone denies nothing
('{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "*", "Resource": "*"}, {"Effect": "Deny", "Principal": "*", "Action": "dynamodb:GetItem", "Resource": "*"}]}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": [{"Effect": "Allow", "Principal": "*", "Action": "*", "Resource": "*"}]}', 'u1', 'dynamodb:GetItem', 't'),
-- conditions: aws:PrincipalArn, aws:PrincipalAccount, a key the request lacks
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"StringEquals": {"aws:PrincipalArn": "arn:aws:iam::111122223333:user/u1"}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"StringEquals": {"aws:PrincipalArn": "arn:aws:iam::111122223333:user/u2"}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"StringNotLike": {"aws:PrincipalArn": ["arn:aws:iam::*:user/admin*"]}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"ArnLike": {"aws:PrincipalArn": "arn:aws:iam::111122223333:user/u?"}, "StringEquals": {"aws:PrincipalAccount": "111122223333"}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"StringEqualsIfExists": {"aws:SourceVpc": "vpc-1"}}}}', 'u1', 'dynamodb:GetItem', 't'),
('{"Statement": {"Effect": "Deny", "Principal": "*", "Action": "*", "Resource": "*", "Condition": {"Null": {"aws:SourceVpc": "true"}}}}', 'u1', 'dynamodb:GetItem', 't');
SELECT hroe.resource_policy_denies(policy::jsonb, 'arn:aws:iam::111122223333:user/' || principal, action,
								   'arn:aws:dynamodb:r:111122223333:table/' || resource) AS denies,
	   principal, action, resource, policy
FROM m;

DROP SCHEMA regress_pol CASCADE;
DROP OWNED BY regress_hroe_pol_owner, regress_hroe_pol_app, regress_hroe_pol_other;
DROP ROLE regress_hroe_pol_owner;
DROP ROLE regress_hroe_pol_app;
DROP ROLE regress_hroe_pol_other;
