--
-- hroe-gateway's access keys (src/http/gateway.sql): creation, revocation, and
-- hroe.gateway_call running one request as the key's role for its own
-- transaction only, errors included.
--
\set VERBOSITY terse
CREATE ROLE regress_gw_app NOLOGIN;
GRANT USAGE ON SCHEMA hroe TO regress_gw_app;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "gw_private", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') ? 'TableDescription' AS created;

-- keys: generated (20-character id, 40-character secret) or given
SELECT length(access_key_id) AS id_length, access_key_id LIKE 'HROE%' AS prefixed,
       length(secret_access_key) AS secret_length
FROM hroe.create_access_key('regress_gw_app');
SELECT * FROM hroe.create_access_key('regress_gw_app', 'regress_key', 'regress_secret');
SELECT hroe.create_access_key('regress_gw_app', 'regress_key');      -- taken
SELECT hroe.create_access_key('regress_gw_app', 'bad key!');        -- not an access key id
SELECT hroe.create_access_key(NULL);                                -- a key needs a role
SELECT hroe.create_access_key('regress_no_such_role');              -- no such role

-- the secrets are readable by no one but the owner (and whom it grants)
SELECT has_table_privilege('regress_gw_app', 'hroe.access_keys', 'SELECT') AS app_reads_keys,
       has_table_privilege('public', 'hroe.access_keys', 'SELECT') AS public_reads_keys;

-- a call runs as the key's role ...
SELECT hroe.gateway_call('regress_key', 'ListTables', '{}')::jsonb ? 'TableNames' AS listed;
-- ... which may not read another role's table: AccessDeniedException's body
SELECT hroe.gateway_call('regress_key', 'GetItem', '{"TableName": "gw_private", "Key": {"pk": {"S": "a"}}}');
-- after the call, failed or not, the session is its own role again, inside a
-- transaction block too: the role is the call's only (rolled back when it returns)
SELECT current_user = session_user AS role_reset;
BEGIN;
SELECT hroe.gateway_call('regress_key', 'ListTables', '{}')::jsonb ? 'TableNames' AS listed;
SELECT current_user = session_user AS role_reset_after_the_call;
COMMIT;
SELECT current_user = session_user AS role_reset;

-- a secret of 128 characters is a key's, whatever their bytes (here 256)
SELECT access_key_id FROM hroe.create_access_key('regress_gw_app', 'regress_utf8_key', repeat('é', 128));
SELECT hroe.gateway_call('regress_utf8_key', 'ListTables', '{}')::jsonb ? 'TableNames' AS listed;

-- an unknown key, then a revoked one: DynamoDB's UnrecognizedClientException
SELECT hroe.gateway_call('regress_nokey', 'ListTables', '{}');
SELECT hroe.revoke_access_key('regress_key') AS revoked;
SELECT hroe.revoke_access_key('regress_key') AS revoked_again;
SELECT hroe.gateway_call('regress_key', 'ListTables', '{}');

DELETE FROM hroe.access_keys WHERE role = 'regress_gw_app'::regrole;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "gw_private"}') ? 'TableDescription' AS deleted;
REVOKE USAGE ON SCHEMA hroe FROM regress_gw_app;
DROP ROLE regress_gw_app;
