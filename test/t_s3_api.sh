#!/usr/bin/env bash
# test/t_s3_api.sh: S3's API on hroe-gateway's endpoint (doc/transfer.md,
# "S3's API on the endpoint"): the AWS CLI's s3 commands (mb, cp up and
# down, ls, rm, rb), then test/s3_api_client.py (boto3 and raw requests:
# paging, delimiters, chunked uploads, path escapes, a body over 16 MiB, a
# bad signature, an unknown key and bucket, a bad chunk signature, malformed
# XML).  The in-server workers run the same protocol code and the same SQL
# (HROE_FRONT=workers bash test/serve.sh serves them for the same client).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
AWS=$(command -v /usr/bin/aws || command -v aws)
gw_setup hroe_gw_s3 || exit 1
datadir=$(psql -XAt -d postgres -c 'SHOW data_directory')
s3=$GW_WORK/s3
mkdir -p "$s3" && chown "$(stat -c %U "$datadir")" "$s3"
psql -XAtq -d postgres -c "ALTER SYSTEM SET hroe.s3_root = '$s3'" -c "SELECT pg_reload_conf()" >/dev/null
trap 'psql -XAtq -d postgres -c "ALTER SYSTEM RESET hroe.s3_root" -c "SELECT pg_reload_conf()" >/dev/null 2>&1; gw_cleanup' EXIT
psql -XAtq -d postgres >/dev/null <<-SQL
	DO \$\$ BEGIN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_export') THEN CREATE ROLE hroe_export NOLOGIN; END IF;
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_import') THEN CREATE ROLE hroe_import NOLOGIN; END IF;
	END \$\$;
	GRANT hroe_export, hroe_import TO gw_app;
SQL
sleep 0.5
gw_start hroe_gw_s3 || exit 1
gw_env
s3cli() { "$AWS" --endpoint-url "$GW_URL" s3 "$@"; }
echo "hello, S3" >"$GW_WORK/f.txt"
check "aws s3 mb" s3cli mb s3://clibucket
check "aws s3 cp up" s3cli cp "$GW_WORK/f.txt" s3://clibucket/a/b/f.txt
check "aws s3 ls --recursive" has 'a/b/f.txt' s3cli ls s3://clibucket --recursive
check "aws s3 cp down" has '^hello, S3$' s3cli cp s3://clibucket/a/b/f.txt -
check "the file is under hroe.s3_root" test -f "$s3/clibucket/a/b/f.txt"
check "aws s3 rb of a bucket not empty: BucketNotEmpty" expect_error BucketNotEmpty s3cli rb s3://clibucket
check "aws s3 rm" s3cli rm s3://clibucket/a/b/f.txt
check "aws s3 rb" s3cli rb s3://clibucket
check "a role without hroe_export: AccessDenied" expect_error AccessDenied \
	env AWS_ACCESS_KEY_ID=$GW_NOGRANT_KEY "$AWS" --endpoint-url "$GW_URL" s3 mb s3://denied
check "boto3 and raw requests (test/s3_api_client.py)" /usr/bin/python3 test/s3_api_client.py "$GW_URL"
check "nothing left outside the buckets" test -z "$(find "$s3" -mindepth 1 -not -type d)"
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))
[ "$GW_FAILURES" -eq 0 ]
