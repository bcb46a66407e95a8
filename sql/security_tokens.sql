--
-- TransactWriteItems ClientRequestTokens are private to the role that made
-- them (issue #17): another role can neither read them nor forge one that
-- suppresses or fails the owner's transaction; expired tokens are purged.
--
\set VERBOSITY terse
SET client_min_messages = warning;
DROP ROLE IF EXISTS regress_hroe_victim;
DROP ROLE IF EXISTS regress_hroe_attacker;
RESET client_min_messages;
CREATE ROLE regress_hroe_victim;
CREATE ROLE regress_hroe_attacker;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_victim, regress_hroe_attacker;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "tok_t", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') #>> '{TableDescription, TableStatus}';
-- the victim may write tok_t, the attacker has no privilege on it
GRANT SELECT, INSERT, UPDATE, DELETE ON tok_t TO regress_hroe_victim;

-- the attacker records the victim's next token with the hash of the
-- victim's request (the hash is public arithmetic), and another with a
-- wrong hash: both become the attacker's own tokens, which mean nothing to
-- the victim
SET ROLE regress_hroe_attacker;
INSERT INTO hroe.transaction_tokens (token, request_hash)
VALUES ('victim-1', hashtextextended('[{"Put": {"Item": {"pk": {"S": "a"}}, "TableName": "tok_t"}}]', 0));
INSERT INTO hroe.transaction_tokens (token, request_hash) VALUES ('victim-2', 42);
-- naming the victim as the owner is refused too
INSERT INTO hroe.transaction_tokens (owner, token, request_hash)
SELECT oid, 'victim-3', 42 FROM pg_roles WHERE rolname = 'regress_hroe_victim';
SELECT pg_get_userbyid(owner) AS owner, token FROM hroe.transaction_tokens ORDER BY token;
RESET ROLE;

-- the victim's transactions write
SET ROLE regress_hroe_victim;
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "a"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-2",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "b"}}}}]}');
SELECT pk FROM tok_t ORDER BY pk;
-- a replay by the victim answers without writing: the item deleted
-- meanwhile stays deleted
DELETE FROM tok_t WHERE pk OPERATOR(hroe.=) 'a';
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "a"}}}}]}');
SELECT count(*) AS replay_wrote FROM tok_t WHERE pk OPERATOR(hroe.=) 'a';
-- the same token with another request: IdempotentParameterMismatch
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "z"}}}}]}');
-- the victim sees its own tokens
SELECT token FROM hroe.transaction_tokens ORDER BY token;
RESET ROLE;

-- the attacker sees none of the victim's tokens, and can change none: its
-- UPDATE and DELETE reach its own two rows only
SET ROLE regress_hroe_attacker;
SELECT count(*) AS visible_to_attacker FROM hroe.transaction_tokens
WHERE token LIKE 'victim-%' AND owner <> 'regress_hroe_attacker'::regrole;
UPDATE hroe.transaction_tokens SET request_hash = 0;
DELETE FROM hroe.transaction_tokens;
RESET ROLE;
SELECT pg_get_userbyid(owner) AS owner, token FROM hroe.transaction_tokens
WHERE pg_get_userbyid(owner) LIKE 'regress_hroe_%' ORDER BY token;

-- the victim's same token means nothing to another role (tokens are per
-- account): the attacker, granted the table, writes with it
GRANT SELECT, INSERT, UPDATE ON tok_t TO regress_hroe_attacker;
SET ROLE regress_hroe_attacker;
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "c"}}}}]}');
RESET ROLE;
SELECT pk FROM tok_t ORDER BY pk;

-- an expired token (finished over 10 minutes ago) no longer answers: the
-- request writes again, and recording a token purges the role's expired ones
UPDATE hroe.transaction_tokens SET finished_at = now() - interval '11 minutes'
WHERE token = 'victim-2';
SET ROLE regress_hroe_victim;
DELETE FROM tok_t WHERE pk OPERATOR(hroe.=) 'b';
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-2",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "b"}}}}]}');
SELECT count(*) AS rewritten FROM tok_t WHERE pk OPERATOR(hroe.=) 'b';
RESET ROLE;
UPDATE hroe.transaction_tokens SET finished_at = now() - interval '11 minutes'
WHERE token = 'victim-1';
SET ROLE regress_hroe_victim;
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "victim-4",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "d"}}}}]}');
SELECT token FROM hroe.transaction_tokens ORDER BY token;
RESET ROLE;

-- a role whose name needs quoting owns its tokens too (the owner is
-- resolved from current_user quoted, never downcased into another role)
CREATE ROLE "regress_hroe_Mixed Case";
GRANT USAGE ON SCHEMA hroe TO "regress_hroe_Mixed Case";
GRANT SELECT, INSERT, UPDATE ON tok_t TO "regress_hroe_Mixed Case";
SET ROLE "regress_hroe_Mixed Case";
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "mixed-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "m"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "mixed-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "other"}}}}]}') ->> '__type' AS replay_with_other_items;
SELECT pg_get_userbyid(owner) AS owner, token FROM hroe.transaction_tokens;
RESET ROLE;
REVOKE ALL ON tok_t FROM "regress_hroe_Mixed Case";
REVOKE USAGE ON SCHEMA hroe FROM "regress_hroe_Mixed Case";
DROP ROLE "regress_hroe_Mixed Case";

-- an administrator purges every role's expired tokens
UPDATE hroe.transaction_tokens SET finished_at = now() - interval '11 minutes'
WHERE pg_get_userbyid(owner) LIKE 'regress_hroe_%';
SELECT hroe.purge_transaction_tokens() >= 2 AS purged;
SELECT count(*) AS left_after_purge FROM hroe.transaction_tokens
WHERE pg_get_userbyid(owner) LIKE 'regress_hroe_%';
-- ordinary roles may not run the purge
SET ROLE regress_hroe_victim;
SELECT hroe.purge_transaction_tokens();
RESET ROLE;

-- a dropped role's tokens go with it (a later role given its oid does not
-- inherit them): the purge removes tokens whose owner no longer exists
SET ROLE regress_hroe_attacker;
SELECT hroe.dynamodb('TransactWriteItems', '{"ClientRequestToken": "attacker-1",
  "TransactItems": [{"Put": {"TableName": "tok_t", "Item": {"pk": {"S": "e"}}}}]}');
RESET ROLE;
REVOKE ALL ON tok_t FROM regress_hroe_victim, regress_hroe_attacker;
REVOKE USAGE ON SCHEMA hroe FROM regress_hroe_victim, regress_hroe_attacker;
SELECT 'regress_hroe_attacker'::regrole::oid AS attacker_oid \gset
DROP ROLE regress_hroe_attacker;
SELECT count(*) AS tokens_of_dropped_role FROM hroe.transaction_tokens WHERE owner = :attacker_oid;
SELECT hroe.purge_transaction_tokens() >= 1 AS purged;
SELECT count(*) AS tokens_of_dropped_role FROM hroe.transaction_tokens WHERE owner = :attacker_oid;
DROP ROLE regress_hroe_victim;
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "tok_t"}') #>> '{TableDescription, TableStatus}';
