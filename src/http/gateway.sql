
--
-- Access keys of the HTTP gateway (gateway/, layer 7)
--
-- hroe-gateway verifies every request's AWS Signature Version 4 with the
-- secret of its access key, then runs the call as the PostgreSQL role the
-- key maps to, so PostgreSQL's privileges decide what a key may do.
--
-- The secret is a credential: hroe.access_keys is readable by its owner
-- (the superuser who created the extension) only.  The gateway's login role
-- needs SELECT on it (GRANT SELECT ON hroe.access_keys TO hroe_gateway) and
-- membership in every role a key maps to (GRANT app_role TO hroe_gateway).
--

CREATE TABLE hroe.access_keys (
	access_key_id	text PRIMARY KEY
		CHECK (access_key_id ~ '^[A-Za-z0-9_+=,.@-]{1,128}$'),
	secret			text NOT NULL
		CHECK (pg_catalog.length(secret) BETWEEN 1 AND 128),
	role			regrole NOT NULL,
	created_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	revoked_at		timestamptz,
	-- the IAM user name of the key's requests in resource-based policies
	-- (arn:aws:iam::<hroe.account_id>:user/<name>), NULL for its role's name
	principal_name	text CHECK (principal_name ~ '^[A-Za-z0-9_+=,.@-]{1,64}$')
);
COMMENT ON TABLE hroe.access_keys IS 'Access keys of hroe-gateway: an AWS-style access key id, its secret (a credential: readable by the owner and by the gateway''s login role only), the PostgreSQL role its requests run as, and when it was created and revoked (a revoked key is refused from the next request on; the gateway caches secrets for a few seconds, every backend the keys it read until the table changes), and the IAM user name its requests have in resource-based policies (principal arn:aws:iam::<hroe.account_id>:user/<principal_name>, NULL for the role''s name)';
REVOKE ALL ON hroe.access_keys FROM PUBLIC;
-- Not marked with pg_extension_config_dump: secrets stay out of dumps, and
-- keys are recreated after a restore (hroe.create_access_key).

-- Each backend caches the active keys it read (src/http/gateway_call.c): any
-- change to the table invalidates every backend's cache at commit, even in
-- a session or subscription that writes with session_replication_role =
-- replica
CREATE TRIGGER access_keys_changed
	AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hroe.access_keys
	FOR EACH STATEMENT EXECUTE FUNCTION hroe.table_changed();
ALTER TABLE hroe.access_keys ENABLE ALWAYS TRIGGER access_keys_changed;
COMMENT ON TRIGGER access_keys_changed ON hroe.access_keys IS
'Invalidates every backend''s cache of the active access keys when the table changes (hroe.table_changed)';

CREATE FUNCTION hroe.create_access_key(
	p_role regrole,
	p_access_key_id text DEFAULT NULL,
	p_secret text DEFAULT NULL,
	p_principal_name text DEFAULT NULL,
	OUT access_key_id text,
	OUT secret_access_key text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_role IS NULL THEN
		RAISE EXCEPTION 'an access key needs a role' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- generated from gen_random_uuid() (strong random): a 20-character id
	-- beginning HROE, a 40-character hexadecimal secret
	access_key_id := coalesce(p_access_key_id,
		'HROE' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)));
	secret_access_key := coalesce(p_secret, substr(replace(
		gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 40));
	INSERT INTO hroe.access_keys (access_key_id, secret, role, principal_name)
		VALUES (access_key_id, secret_access_key, p_role, p_principal_name);
END
$$;
COMMENT ON FUNCTION hroe.create_access_key(regrole, text, text, text) IS
'Creates an access key of hroe-gateway whose requests run as p_role: the given or a generated access key id (20 characters) and secret (40 characters); returns the pair. p_principal_name: the IAM user name of its requests in resource-based policies (arn:aws:iam::<hroe.account_id>:user/<name>; NULL: the role''s name). Needs INSERT on hroe.access_keys (the extension owner has it)';

CREATE FUNCTION hroe.revoke_access_key(p_access_key_id text)
RETURNS boolean
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
	WITH revoked AS (
		UPDATE hroe.access_keys SET revoked_at = pg_catalog.now()
		WHERE access_key_id = p_access_key_id AND revoked_at IS NULL
		RETURNING 1)
	SELECT count(*) > 0 FROM revoked
$$;
COMMENT ON FUNCTION hroe.revoke_access_key(text) IS
'Revokes an access key of hroe-gateway: its next request is refused (UnrecognizedClientException); true if the key existed and was active, else false';

CREATE FUNCTION hroe.gateway_call(p_access_key_id text, p_operation text, p_request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_gateway_call'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
-- C (src/http/gateway_call.c), not SECURITY DEFINER: the key is read with the
-- caller's privileges, then SET ROLE for the call (the caller must be a
-- member of the key's role) in a security-restricted operation, then the
-- JSON API over the body's text; the role and every setting changed are
-- rolled back when the call returns
COMMENT ON FUNCTION hroe.gateway_call(text, text, text) IS
'internal: one request of hroe-gateway: hroe.dynamodb_text(p_operation, p_request) run as the role of the active access key p_access_key_id (SET ROLE for the call: the caller must be a member of it), in a security-restricted operation (no SET ROLE back, no deferred trigger), every setting it changed rolled back with the role when it returns; or DynamoDB''s UnrecognizedClientException body for an unknown or revoked key; called in a transaction of its own';

CREATE FUNCTION hroe.s3_gateway_call(p_access_key_id text, p_method text, p_path text,
	p_query text, p_body bytea)
RETURNS bytea AS 'MODULE_PATHNAME', 'hroe_s3_gateway_call'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
-- C (src/http/gateway_call.c), as hroe.gateway_call: SET ROLE to the key's
-- role in a security-restricted operation, then S3's request
-- (src/transfer/s3_api.c)
COMMENT ON FUNCTION hroe.s3_gateway_call(text, text, text, text, bytea) IS
'internal: one S3 request of hroe-gateway (path-style: p_method, the decoded p_path /bucket/key, the percent-encoded p_query, p_body) run as the role of the active access key p_access_key_id as hroe.gateway_call runs DynamoDB''s; its answer (status line, headers, an empty line, the body); NULL for an unknown or revoked key';
