
--
-- Resource-based policies (PutResourcePolicy, GetResourcePolicy,
-- DeleteResourcePolicy; src/tables/tables_policy.c enforces them)
--
-- A table's policy applies to the table and its indexes; its stream has a
-- policy of its own.  hroe enforces a policy's explicit Deny statements on
-- every request of the JSON API (hroe.dynamodb and both HTTP front ends):
-- PostgreSQL's privileges stay the authority, so an Allow never widens
-- what they grant, and a policy can only narrow it.
--

CREATE TABLE hroe.resource_policies (
	table_name	text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	-- '' for the table's policy, else the StreamLabel of its stream's
	stream_label text NOT NULL DEFAULT '',
	policy		text NOT NULL,
	-- DynamoDB's RevisionId: a numeric string, changed by each put
	revision_id	text NOT NULL CHECK (revision_id ~ '^[0-9]{1,20}$'),
	PRIMARY KEY (table_name, stream_label)
);
COMMENT ON TABLE hroe.resource_policies IS 'The resource-based policies of DynamoDB tables (stream_label '''') and of their streams (PutResourcePolicy, GetResourcePolicy, DeleteResourcePolicy): readable by every role, as hroe.tables; under row-level security only a member of the role owning a table writes its policies';
ALTER TABLE hroe.resource_policies ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.resource_policies FORCE ROW LEVEL SECURITY;
CREATE POLICY resource_policies_read ON hroe.resource_policies FOR SELECT USING (true);
COMMENT ON POLICY resource_policies_read ON hroe.resource_policies IS 'Policies are metadata, readable by every role, as hroe.tables: each request of every role is checked against them';
CREATE POLICY resource_policies_owner ON hroe.resource_policies FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY resource_policies_owner ON hroe.resource_policies IS 'Only a member of the role owning a table''s PostgreSQL table attaches, changes or deletes its policies';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.resource_policies TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.resource_policies',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = resource_policies.table_name)');

-- Each backend caches the policies (tables_policy.c): any change to them
-- invalidates every backend's cache at commit
CREATE TRIGGER resource_policies_changed
	AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON hroe.resource_policies
	FOR EACH STATEMENT EXECUTE FUNCTION hroe.table_changed();
ALTER TABLE hroe.resource_policies ENABLE ALWAYS TRIGGER resource_policies_changed;
COMMENT ON TRIGGER resource_policies_changed ON hroe.resource_policies IS
'Invalidates every backend''s cache of the resource-based policies when the table changes (hroe.table_changed)';

-- IAM's wildcards: * any run of characters, ? one character
CREATE FUNCTION hroe.iam_matches(p_pattern text, p_value text, p_ignore_case boolean)
RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN p_ignore_case
	THEN pg_catalog.lower(p_value) OPERATOR(pg_catalog.~) ('^' OPERATOR(pg_catalog.||) pg_catalog.replace(pg_catalog.replace(
		pg_catalog.regexp_replace(pg_catalog.lower(p_pattern), '([.+^$(){}|\[\]\\])', '\\\1', 'g'),
		'*', '.*'), '?', '.') OPERATOR(pg_catalog.||) '$')
	ELSE p_value OPERATOR(pg_catalog.~) ('^' OPERATOR(pg_catalog.||) pg_catalog.replace(pg_catalog.replace(
		pg_catalog.regexp_replace(p_pattern, '([.+^$(){}|\[\]\\])', '\\\1', 'g'),
		'*', '.*'), '?', '.') OPERATOR(pg_catalog.||) '$') END;
COMMENT ON FUNCTION hroe.iam_matches(text, text, boolean) IS
'internal: Whether p_value matches the IAM pattern p_pattern (* any run of characters, ? any one; every other character itself), ignoring case if p_ignore_case';

-- A policy element that is a string or an array of strings, as an array
CREATE FUNCTION hroe.iam_strings(p_value jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE pg_catalog.jsonb_typeof(p_value)
	WHEN 'string' THEN ARRAY[p_value OPERATOR(pg_catalog.->>) 0]
	WHEN 'array' THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(p_value))
	ELSE NULL END;
COMMENT ON FUNCTION hroe.iam_strings(jsonb) IS
'internal: A policy element that is a string or an array of strings, as an array of them (NULL for any other JSON)';

-- Check a policy document as DynamoDB does; returns it parsed
CREATE FUNCTION hroe.check_resource_policy(p_policy text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_doc jsonb;
	v_statements jsonb;
	v_st jsonb;
	v_key text;
	v_op text;
	v_cond jsonb;
	v_n integer := 0;
BEGIN
	-- DynamoDB: at most 20 KB, whitespace counted
	IF octet_length(p_policy) > 20480 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Resource-based policy document size %s bytes exceeds the maximum of 20480 bytes', octet_length(p_policy)));
	END IF;
	BEGIN
		v_doc := p_policy::jsonb;
	EXCEPTION WHEN invalid_text_representation OR untranslatable_character THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: the policy is not valid JSON');
	END;
	IF jsonb_typeof(v_doc) <> 'object' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: the policy must be a JSON object');
	END IF;
	FOR v_key IN SELECT jsonb_object_keys(v_doc) LOOP
		IF v_key NOT IN ('Version', 'Id', 'Statement') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: unknown element %s', v_key));
		END IF;
	END LOOP;
	IF v_doc ? 'Version' AND (v_doc->>'Version') IS DISTINCT FROM '2012-10-17'
	   AND (v_doc->>'Version') IS DISTINCT FROM '2008-10-17' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Version must be 2012-10-17 or 2008-10-17');
	END IF;
	v_statements := v_doc->'Statement';
	IF v_statements IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Statement is missing');
	END IF;
	IF jsonb_typeof(v_statements) = 'object' THEN
		v_statements := jsonb_build_array(v_statements);
	ELSIF jsonb_typeof(v_statements) <> 'array' OR jsonb_array_length(v_statements) = 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid policy document: Statement must be an object or a non-empty array of objects');
	END IF;
	FOR v_st IN SELECT jsonb_array_elements(v_statements) LOOP
		v_n := v_n + 1;
		IF jsonb_typeof(v_st) <> 'object' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s is not an object', v_n));
		END IF;
		FOR v_key IN SELECT jsonb_object_keys(v_st) LOOP
			IF v_key NOT IN ('Sid', 'Effect', 'Principal', 'NotPrincipal', 'Action', 'NotAction',
							 'Resource', 'NotResource', 'Condition') THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid policy document: unknown element %s in Statement %s', v_key, v_n));
			END IF;
		END LOOP;
		IF v_st ? 'Sid' AND jsonb_typeof(v_st->'Sid') <> 'string' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Sid of Statement %s must be a string', v_n));
		END IF;
		IF (v_st->>'Effect') IS DISTINCT FROM 'Allow' AND (v_st->>'Effect') IS DISTINCT FROM 'Deny' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Effect of Statement %s must be Allow or Deny', v_n));
		END IF;
		IF (v_st ? 'Principal') = (v_st ? 'NotPrincipal') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Principal or NotPrincipal', v_n));
		END IF;
		IF (v_st ? 'Action') = (v_st ? 'NotAction') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Action or NotAction', v_n));
		END IF;
		IF (v_st ? 'Resource') = (v_st ? 'NotResource') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Statement %s must have either Resource or NotResource', v_n));
		END IF;
		IF hroe.iam_strings(coalesce(v_st->'Action', v_st->'NotAction')) IS NULL
		   OR hroe.iam_strings(coalesce(v_st->'Resource', v_st->'NotResource')) IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Action and Resource of Statement %s must be strings or arrays of strings', v_n));
		END IF;
		-- Principal: "*" or an object of AWS, Service, Federated or
		-- CanonicalUser principals, each a string or an array of strings
		v_cond := coalesce(v_st->'Principal', v_st->'NotPrincipal');
		IF NOT (v_cond = '"*"'::jsonb OR (jsonb_typeof(v_cond) = 'object' AND v_cond <> '{}'::jsonb
				AND NOT EXISTS (SELECT FROM jsonb_each(v_cond) e
								WHERE e.key NOT IN ('AWS', 'Service', 'Federated', 'CanonicalUser')
								   OR hroe.iam_strings(e.value) IS NULL))) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('Invalid policy document: Principal of Statement %s must be "*" or an object of AWS, Service, Federated or CanonicalUser principals', v_n));
		END IF;
		-- Condition: {"Operator": {"key": value or [values]}}
		IF v_st ? 'Condition' THEN
			IF jsonb_typeof(v_st->'Condition') <> 'object' THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid policy document: Condition of Statement %s must be an object', v_n));
			END IF;
			FOR v_op, v_cond IN SELECT key, value FROM jsonb_each(v_st->'Condition') LOOP
				IF regexp_replace(regexp_replace(v_op, '^For(AnyValue|AllValues):', ''), 'IfExists$', '')
				   NOT IN ('StringEquals', 'StringNotEquals', 'StringEqualsIgnoreCase', 'StringNotEqualsIgnoreCase',
						   'StringLike', 'StringNotLike', 'NumericEquals', 'NumericNotEquals', 'NumericLessThan',
						   'NumericLessThanEquals', 'NumericGreaterThan', 'NumericGreaterThanEquals',
						   'DateEquals', 'DateNotEquals', 'DateLessThan', 'DateLessThanEquals',
						   'DateGreaterThan', 'DateGreaterThanEquals', 'Bool', 'BinaryEquals',
						   'IpAddress', 'NotIpAddress', 'ArnEquals', 'ArnLike', 'ArnNotEquals', 'ArnNotLike', 'Null')
				   OR jsonb_typeof(v_cond) <> 'object' THEN
					PERFORM hroe.dynamodb_error('ValidationException',
						format('Invalid policy document: unknown condition operator %s in Statement %s', v_op, v_n));
				END IF;
				IF EXISTS (SELECT FROM jsonb_each(v_cond) e
						   WHERE jsonb_typeof(e.value) NOT IN ('string', 'number', 'boolean', 'array')) THEN
					PERFORM hroe.dynamodb_error('ValidationException',
						format('Invalid policy document: the values of condition operator %s in Statement %s must be strings or arrays of strings', v_op, v_n));
				END IF;
			END LOOP;
		END IF;
	END LOOP;
	RETURN v_doc;
END
$$;
COMMENT ON FUNCTION hroe.check_resource_policy(text) IS
'internal: Checks a resource-based policy document as PutResourcePolicy does (at most 20480 bytes, JSON, Version 2012-10-17 or 2008-10-17, Statement: an object or a non-empty array of them, each with Effect Allow or Deny, Principal or NotPrincipal, Action or NotAction, Resource or NotResource, an optional Sid and Condition in IAM''s grammar), a ValidationException if not; returns it parsed';

-- Whether a policy explicitly denies principal p_principal (an IAM ARN)
-- action p_action (dynamodb:...) on resource p_resource (an ARN)
CREATE FUNCTION hroe.resource_policy_denies(p_policy jsonb, p_principal text, p_action text, p_resource text)
RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_statements jsonb := p_policy->'Statement';
	v_st jsonb;
	v_account text := split_part(p_principal, ':', 5);
	v_principals jsonb;
	v_match boolean;
	v_op text;
	v_base text;
	v_keys jsonb;
	v_key text;
	v_values text[];
	v_actual text;
	v_cond boolean;
BEGIN
	IF jsonb_typeof(v_statements) = 'object' THEN
		v_statements := jsonb_build_array(v_statements);
	END IF;
	FOR v_st IN SELECT s FROM jsonb_array_elements(v_statements) s WHERE s->>'Effect' = 'Deny' LOOP
		-- the principal: "*", {"AWS": "*"}, the account (its id or its
		-- root ARN) or the principal's ARN itself
		v_principals := coalesce(v_st->'Principal', v_st->'NotPrincipal');
		v_match := v_principals = '"*"'::jsonb OR EXISTS (
			SELECT FROM unnest(hroe.iam_strings(v_principals->'AWS')) p
			WHERE p IN ('*', p_principal, v_account, format('arn:aws:iam::%s:root', v_account)));
		IF v_st ? 'NotPrincipal' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- the action, its case ignored
		v_match := EXISTS (SELECT FROM unnest(hroe.iam_strings(coalesce(v_st->'Action', v_st->'NotAction'))) a
						   WHERE hroe.iam_matches(a, p_action, true));
		IF v_st ? 'NotAction' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- the resource, its case kept
		v_match := EXISTS (SELECT FROM unnest(hroe.iam_strings(coalesce(v_st->'Resource', v_st->'NotResource'))) r
						   WHERE hroe.iam_matches(r, p_resource, false));
		IF v_st ? 'NotResource' THEN
			v_match := NOT v_match;
		END IF;
		CONTINUE WHEN NOT v_match;
		-- every condition holds.  The request's context has the keys
		-- aws:PrincipalArn and aws:PrincipalAccount; as in IAM, a condition
		-- on a key the context lacks is false (the Deny does not apply),
		-- but with ...IfExists it is true, and Null tests the absence
		IF v_st ? 'Condition' THEN
			FOR v_op, v_keys IN SELECT key, value FROM jsonb_each(v_st->'Condition') LOOP
				v_base := regexp_replace(regexp_replace(v_op, '^For(AnyValue|AllValues):', ''), 'IfExists$', '');
				FOR v_key IN SELECT jsonb_object_keys(v_keys) LOOP
					v_values := CASE jsonb_typeof(v_keys->v_key)
									WHEN 'array' THEN ARRAY(SELECT jsonb_array_elements_text(v_keys->v_key))
									ELSE ARRAY[v_keys->>v_key] END;
					v_actual := CASE lower(v_key)
									WHEN 'aws:principalarn' THEN p_principal
									WHEN 'aws:principalaccount' THEN v_account END;
					v_cond := CASE
						WHEN v_base = 'Null' THEN
							(v_actual IS NULL) = ('true' = ANY (v_values))
						WHEN v_actual IS NULL THEN
							v_op LIKE '%IfExists'
						WHEN v_base IN ('StringEquals', 'ArnEquals') THEN v_actual = ANY (v_values)
						WHEN v_base IN ('StringNotEquals', 'ArnNotEquals') THEN NOT (v_actual = ANY (v_values))
						WHEN v_base = 'StringEqualsIgnoreCase' THEN lower(v_actual) = ANY (SELECT lower(x) FROM unnest(v_values) x)
						WHEN v_base = 'StringNotEqualsIgnoreCase' THEN NOT (lower(v_actual) = ANY (SELECT lower(x) FROM unnest(v_values) x))
						WHEN v_base IN ('StringLike', 'ArnLike') THEN
							EXISTS (SELECT FROM unnest(v_values) x WHERE hroe.iam_matches(x, v_actual, false))
						WHEN v_base IN ('StringNotLike', 'ArnNotLike') THEN
							NOT EXISTS (SELECT FROM unnest(v_values) x WHERE hroe.iam_matches(x, v_actual, false))
						-- numbers, dates, booleans, addresses of string keys: false
						ELSE false END;
					IF NOT v_cond THEN
						v_match := false;
					END IF;
				END LOOP;
			END LOOP;
		END IF;
		IF v_match THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;
COMMENT ON FUNCTION hroe.resource_policy_denies(jsonb, text, text, text) IS
'Whether resource-based policy p_policy explicitly denies principal p_principal (an IAM ARN, arn:aws:iam::ACCOUNT:user/NAME) action p_action (dynamodb:GetItem, ...) on resource p_resource (a table, index or stream ARN): a Deny statement whose Principal (or NotPrincipal) names "*", the account (its id or arn:aws:iam::ACCOUNT:root) or the principal, whose Action (case ignored) and Resource match with IAM''s wildcards * and ?, and whose every Condition holds (keys aws:PrincipalArn and aws:PrincipalAccount; a condition on any other key is false, or true with ...IfExists, as IAM evaluates a key the request lacks). Allow statements never matter: PostgreSQL''s privileges are the authority, a policy only narrows them';

-- The table and stream label ('' for the table) of a table or stream ARN
-- of this database, else DynamoDB's errors
CREATE FUNCTION hroe.resource_policy_target(p_resource_arn text, OUT table_name text, OUT stream_label text)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_arn record := hroe.arn_parse(p_resource_arn);
BEGIN
	IF v_arn.table_name IS NULL OR v_arn.resource !~ '^(/stream/[^/]+)?$' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Invalid ResourceArn provided as input %s', p_resource_arn));
	END IF;
	IF NOT v_arn.ours THEN
		RAISE EXCEPTION 'ARN "%" is not one of this database''s (hroe.region %, hroe.account_id %)',
			p_resource_arn, current_setting('hroe.region'), current_setting('hroe.account_id')
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	table_name := v_arn.table_name;
	stream_label := substr(v_arn.resource, length('/stream/') + 1);
	IF NOT EXISTS (SELECT FROM hroe.tables t WHERE t.table_name = v_arn.table_name)
	   OR (stream_label <> '' AND NOT EXISTS (SELECT FROM hroe.streams s
											  WHERE s.table_name = v_arn.table_name AND s.label = stream_label)) THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourceArn: %s not found', p_resource_arn));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.resource_policy_target(text) IS
'internal: The table and the stream label ('''' for the table itself) a table ARN (arn:aws:dynamodb:REGION:ACCOUNT:table/NAME) or stream ARN (.../stream/LABEL) of this database names, as hroe.arn_parse reads it; a ValidationException for any other string, AccessDeniedException for another partition''s, region''s or account''s, ResourceNotFoundException for a table or stream that does not exist';

CREATE FUNCTION hroe.put_resource_policy(p_resource_arn text, p_policy text,
										 p_expected_revision_id text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record;
	v_old hroe.resource_policies;
	v_revision text;
BEGIN
	IF p_resource_arn IS NULL OR p_policy IS NULL THEN
		RAISE EXCEPTION 'p_resource_arn and p_policy must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	v_target := hroe.resource_policy_target(p_resource_arn);
	IF NOT hroe.owns_table(v_target.table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its resource-based policies',
			v_target.table_name USING ERRCODE = 'insufficient_privilege';
	END IF;
	PERFORM hroe.check_resource_policy(p_policy);
	-- one put at a time per resource: the row, or the table's advisory lock
	PERFORM pg_advisory_xact_lock(hashtext('hroe.resource_policies'), hashtext(v_target.table_name));
	SELECT * INTO v_old FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF p_expected_revision_id IS NOT NULL AND
	   (CASE WHEN p_expected_revision_id = 'NO_POLICY' THEN v_old.revision_id IS NOT NULL
			 ELSE v_old.revision_id IS DISTINCT FROM p_expected_revision_id END) THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			CASE WHEN v_old.revision_id IS NULL
				 THEN format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn)
				 ELSE format('A policy with the given revision ID does not exist for the resource: %s. The current revision ID is %s.',
							 p_resource_arn, v_old.revision_id) END);
	END IF;
	-- the same document again: the same revision
	IF v_old.policy = p_policy THEN
		RETURN v_old.revision_id;
	END IF;
	-- a numeric string: the time in milliseconds, above the last revision
	v_revision := greatest((extract(epoch FROM clock_timestamp()) * 1000)::bigint,
						   coalesce(v_old.revision_id::bigint + 1, 0))::text;
	INSERT INTO hroe.resource_policies (table_name, stream_label, policy, revision_id)
	VALUES (v_target.table_name, v_target.stream_label, p_policy, v_revision)
	ON CONFLICT (table_name, stream_label)
	DO UPDATE SET policy = excluded.policy, revision_id = excluded.revision_id;
	RETURN v_revision;
END
$$;
COMMENT ON FUNCTION hroe.put_resource_policy(text, text, text) IS
'PutResourcePolicy: attaches policy document p_policy to the table or stream ARN p_resource_arn (a table''s applies to its indexes too), replacing its policy; returns the new RevisionId (a numeric string; the same one for the same document again). p_expected_revision_id: the current policy''s revision, or NO_POLICY for none, else PolicyNotFoundException. Only a member of the role owning the table may (row-level security on hroe.resource_policies). hroe enforces the Deny statements (hroe.resource_policy_denies) on the JSON API''s requests';

CREATE FUNCTION hroe.get_resource_policy(p_resource_arn text, OUT policy text, OUT revision_id text)
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record := hroe.resource_policy_target(p_resource_arn);
BEGIN
	SELECT r.policy, r.revision_id INTO policy, revision_id FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.get_resource_policy(text) IS
'GetResourcePolicy: the policy document of the table or stream ARN p_resource_arn and its RevisionId; PolicyNotFoundException if it has none. Policies are readable by every role, as hroe.tables';

CREATE FUNCTION hroe.delete_resource_policy(p_resource_arn text, p_expected_revision_id text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_target record;
	v_old hroe.resource_policies;
BEGIN
	IF p_resource_arn IS NULL THEN
		RAISE EXCEPTION 'p_resource_arn must not be null' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	v_target := hroe.resource_policy_target(p_resource_arn);
	IF NOT hroe.owns_table(v_target.table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its resource-based policies',
			v_target.table_name USING ERRCODE = 'insufficient_privilege';
	END IF;
	PERFORM pg_advisory_xact_lock(hashtext('hroe.resource_policies'), hashtext(v_target.table_name));
	SELECT * INTO v_old FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	IF v_old.revision_id IS NULL THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('Resource-based policy not found for the provided ResourceArn: %s', p_resource_arn));
	END IF;
	IF p_expected_revision_id IS NOT NULL AND p_expected_revision_id <> v_old.revision_id THEN
		PERFORM hroe.dynamodb_error('PolicyNotFoundException',
			format('A policy with the given revision ID does not exist for the resource: %s. The current revision ID is %s.',
				   p_resource_arn, v_old.revision_id));
	END IF;
	DELETE FROM hroe.resource_policies r
	WHERE r.table_name = v_target.table_name AND r.stream_label = v_target.stream_label;
	RETURN v_old.revision_id;
END
$$;
COMMENT ON FUNCTION hroe.delete_resource_policy(text, text) IS
'DeleteResourcePolicy: removes the policy of the table or stream ARN p_resource_arn (a table''s covers its indexes); returns the RevisionId it had. PolicyNotFoundException if it has none, or p_expected_revision_id is not its revision. Only a member of the role owning the table may (row-level security on hroe.resource_policies); DeleteTable removes a table''s policies';
