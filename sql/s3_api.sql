-- S3's API over the buckets under hroe.s3_root (doc/transfer.md, "S3's API
-- on the endpoint"): the SQL functions, who may call them, keys that would
-- leave the bucket, and ListObjectsV2's paging through hroe.s3_gateway_call
-- (the front ends' entry).
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS hroe;
RESET client_min_messages;

-- without hroe.s3_root: refused
SELECT hroe.s3_create_bucket('regress-bkt');

-- a root under the data directory, the server's own
SELECT current_setting('data_directory') || '/hroe_s3_regress' AS s3root \gset
SELECT 'mkdir -p ' || :'s3root' AS mk \gset
COPY (SELECT) TO PROGRAM :'mk';
ALTER SYSTEM SET hroe.s3_root = :'s3root';
SELECT pg_reload_conf();
SELECT pg_sleep(0.5);

SELECT hroe.s3_create_bucket('regress-bkt');
SELECT hroe.s3_create_bucket('regress-bkt');	-- BucketAlreadyOwnedByYou
SELECT hroe.s3_put_object('regress-bkt', k, convert_to('body of ' || k, 'UTF8'))
FROM unnest(ARRAY['a/1', 'a/2', 'a/b/3', 'b', 'x y/é&<', 'z']) k;
SELECT key, size, etag FROM hroe.s3_list_objects('regress-bkt');
SELECT key FROM hroe.s3_list_objects('regress-bkt', 'a/');
SELECT convert_from(hroe.s3_get_object('regress-bkt', 'x y/é&<'), 'UTF8');
SELECT hroe.s3_get_object('regress-bkt', 'nope');
SELECT hroe.s3_get_object('no-such-bkt', 'a/1');

-- bucket names and keys that would leave the bucket, or S3 refuses
SELECT hroe.s3_create_bucket('AB');
SELECT hroe.s3_create_bucket('..');
SELECT hroe.s3_create_bucket('a/b');
SELECT hroe.s3_put_object('regress-bkt', '../escape', '\x00');
SELECT hroe.s3_put_object('regress-bkt', 'a/../../escape', '\x00');
SELECT hroe.s3_put_object('regress-bkt', 'a/./b', '\x00');
SELECT hroe.s3_put_object('regress-bkt', 'a//b', '\x00');
SELECT hroe.s3_put_object('regress-bkt', '.hroe-s3-tmp-x', '\x00');
\set VERBOSITY terse
SELECT hroe.s3_put_object('regress-bkt', repeat('k', 1025), '\x00');
SELECT hroe.s3_put_object('regress-bkt', repeat('k', 256) || '/x', '\x00');
\set VERBOSITY default
SELECT hroe.s3_get_object('regress-bkt', '../regress-bkt/a/1');
SELECT hroe.s3_delete_bucket('regress-bkt');	-- BucketNotEmpty

-- who may: writes need hroe_export's privileges, reads hroe_import's
CREATE ROLE s3_reg_nobody;
CREATE ROLE s3_reg_reader;
DO $$ BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_import') THEN CREATE ROLE hroe_import NOLOGIN; END IF;
END $$;
GRANT hroe_import TO s3_reg_reader;
GRANT USAGE ON SCHEMA hroe TO s3_reg_nobody, s3_reg_reader;
SET ROLE s3_reg_nobody;
SELECT hroe.s3_get_object('regress-bkt', 'a/1');
SELECT hroe.s3_put_object('regress-bkt', 'c', '\x00');
SET ROLE s3_reg_reader;
SELECT convert_from(hroe.s3_get_object('regress-bkt', 'a/1'), 'UTF8');
SELECT count(*) FROM hroe.s3_list_objects('regress-bkt');
SELECT hroe.s3_put_object('regress-bkt', 'c', '\x00');
SELECT hroe.s3_delete_object('regress-bkt', 'a/1');
RESET ROLE;

-- ListObjectsV2's paging (max-keys, continuation-token, delimiter) through the front ends' entry
SELECT hroe.create_access_key('s3_reg_reader', 'S3REGKEY', 's3regsecret') IS NOT NULL AS key_created;
CREATE FUNCTION pg_temp.page(q text) RETURNS text LANGUAGE sql AS $$
	SELECT split_part(a, E'\n', 1) || ' keys=' || coalesce((SELECT string_agg(m[1], ',') FROM regexp_matches(a, '<Key>([^<]*)</Key>', 'g') m), '')
		|| ' prefixes=' || coalesce((SELECT string_agg(m[1], ',') FROM regexp_matches(a, '<CommonPrefixes><Prefix>([^<]*)</Prefix>', 'g') m), '')
		|| ' truncated=' || coalesce(substring(a FROM '<IsTruncated>([^<]*)</IsTruncated>'), '')
		|| ' next=' || coalesce(substring(a FROM '<NextContinuationToken>([^<]*)</NextContinuationToken>'), '')
	FROM convert_from(hroe.s3_gateway_call('S3REGKEY', 'GET', '/regress-bkt', q, ''), 'UTF8') a
$$;
SELECT pg_temp.page('list-type=2&max-keys=2');
SELECT pg_temp.page('list-type=2&max-keys=2&continuation-token=' ||
	substring(convert_from(hroe.s3_gateway_call('S3REGKEY', 'GET', '/regress-bkt', 'list-type=2&max-keys=2', ''), 'UTF8')
			  FROM '<NextContinuationToken>([^<]*)</NextContinuationToken>'));
SELECT pg_temp.page('list-type=2&start-after=a%2Fb%2F3');
SELECT pg_temp.page('list-type=2&delimiter=%2F');
SELECT pg_temp.page('list-type=2&prefix=a%2F&delimiter=%2F');
SELECT pg_temp.page('list-type=2&max-keys=1001');
SELECT pg_temp.page('list-type=2&max-keys=-1');
SELECT hroe.s3_gateway_call('NOSUCHKEY', 'GET', '/regress-bkt', 'list-type=2', '') IS NULL AS unknown_key_null;

-- clean up: every object deleted, the bucket with it
SELECT hroe.s3_delete_object('regress-bkt', key) FROM hroe.s3_list_objects('regress-bkt');
SELECT count(*) FROM hroe.s3_list_objects('regress-bkt');
SELECT hroe.s3_delete_bucket('regress-bkt');
SELECT hroe.revoke_access_key('S3REGKEY');
REVOKE USAGE ON SCHEMA hroe FROM s3_reg_nobody, s3_reg_reader;
REVOKE hroe_import FROM s3_reg_reader;
DROP ROLE s3_reg_nobody;
DROP ROLE s3_reg_reader;
ALTER SYSTEM RESET hroe.s3_root;
SELECT pg_reload_conf();
