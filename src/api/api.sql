
--
-- DynamoDB's JSON API (src/api/api.c)
--

CREATE FUNCTION hroe.dynamodb(operation text, request jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_dynamodb'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb(text, jsonb) IS
'One DynamoDB API call: operation (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, CreateTable, DescribeTable, DeleteTable, UpdateTable creating or deleting one GSI, ListTables) and the JSON request body; returns the response body DynamoDB returns, errors as {"__type", "message"}; a failed request leaves nothing written';

CREATE FUNCTION hroe.dynamodb_text(operation text, request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_dynamodb_text'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb_text(text, text) IS
'hroe.dynamodb over the request body''s text, the response body as text: strings may hold \u0000 (U+0000), as DynamoDB''s do, which jsonb refuses';

CREATE FUNCTION hroe.update_item(p_table_name text, p_key jsonb, p_update_expression text,
	p_condition_expression text DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL, p_return_values text DEFAULT 'NONE',
	p_return_consumed_capacity text DEFAULT 'NONE',
	p_return_values_on_condition_check_failure text DEFAULT NULL)
RETURNS hroe.write_result AS 'MODULE_PATHNAME', 'hroe_update_item'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.update_item(text, jsonb, text, text, jsonb, jsonb, text, text, text) IS
'UpdateItem: applies the UpdateExpression (NULL: none) to the item, or to the key alone when it does not exist (upsert), after checking the ConditionExpression on the row locked FOR UPDATE (HR002 ConditionalCheckFailed, the old item in DETAIL with ReturnValuesOnConditionCheckFailure ALL_OLD); ReturnValues NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW; capacity as a put';

CREATE FUNCTION hroe.transact_write_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_write_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_write_items(jsonb) IS
'TransactWriteItems: TransactItems ([{"Put"|"Update"|"Delete"|"ConditionCheck": {...}}], at most 100, no two on one item); locks every item in canonical order, checks every condition, then applies all; a failed condition raises HR005 TransactionCanceledException with the CancellationReasons in DETAIL';

CREATE FUNCTION hroe.transact_get_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_get_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_get_items(jsonb) IS
'TransactGetItems: TransactItems ([{"Get": {"TableName", "Key", "ProjectionExpression"?}}], at most 100); every item read under a share lock; returns the Responses array ({"Item": ...} or {} per Get, in request order)';

-- TransactWriteItems ClientRequestToken: a replay within 10 minutes succeeds
-- without writing.  DynamoDB scopes a token to its account; here the account
-- is the PostgreSQL role whose privileges the call uses (current_user), so a
-- token is private to that role: row-level security, forced on the table's
-- owner too, lets a role see, record, change and delete only its own tokens
-- (another role can neither read them nor forge one that would answer, or
-- fail, the owner's transaction).  owner is the role's oid, filled in by the
-- server: the policy's WITH CHECK refuses any other value.  Superusers and
-- BYPASSRLS roles see every row, so hroe.dynamodb filters on owner itself.
-- Expired tokens of a role are deleted when it records a new one;
-- hroe.purge_transaction_tokens() deletes every role's, and those of dropped
-- roles (an oid may be reused by a later role).  The tokens are transient:
-- the table is not dumped (no pg_extension_config_dump).
CREATE TABLE hroe.transaction_tokens (
	owner			oid NOT NULL
		DEFAULT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)),
	token			text NOT NULL,
	request_hash	bigint NOT NULL,
	finished_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (owner, token)
);
-- a role's expired tokens, deleted when it records one
CREATE INDEX transaction_tokens_expiry ON hroe.transaction_tokens (owner, finished_at);
COMMENT ON TABLE hroe.transaction_tokens IS 'ClientRequestTokens of committed TransactWriteItems calls (hroe.dynamodb): the role that made each (owner, its oid), the hash of their TransactItems and when they finished; a token is idempotent for 10 minutes; under row-level security a role sees and writes only its own';
ALTER TABLE hroe.transaction_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.transaction_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY own_tokens ON hroe.transaction_tokens
	USING (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))))
	WITH CHECK (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))));
COMMENT ON POLICY own_tokens ON hroe.transaction_tokens IS 'A role sees, records, changes and deletes only its own ClientRequestTokens';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.transaction_tokens TO PUBLIC;

CREATE FUNCTION hroe.purge_transaction_tokens()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	WITH purged AS (
		DELETE FROM hroe.transaction_tokens t
		WHERE t.finished_at OPERATOR(pg_catalog.<=) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')
			OR NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) t.owner)
		RETURNING 1)
	SELECT pg_catalog.count(*) FROM purged;
END;
COMMENT ON FUNCTION hroe.purge_transaction_tokens() IS
'Deletes the expired ClientRequestTokens (finished over 10 minutes ago) and those of dropped roles; returns how many. For an administrator: run by a superuser (or a BYPASSRLS role granted EXECUTE) it purges every role''s tokens; PUBLIC may not execute it';
REVOKE EXECUTE ON FUNCTION hroe.purge_transaction_tokens() FROM PUBLIC;
