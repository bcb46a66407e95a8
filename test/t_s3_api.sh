#!/usr/bin/env bash
# test/t_s3_api.sh: S3's API on hroe's endpoint (doc/transfer.md,
# "S3's API on the endpoint"): the AWS CLI's s3 commands (mb, cp up and
# down, ls, rm, rb), then test/s3_api_client.py (boto3 and raw requests:
# paging, delimiters, chunked uploads, path escapes, a body over 16 MiB, a
# bad signature, an unknown key and bucket, a bad chunk signature, malformed
# XML), on both front ends, hroe-gateway and the in-server HTTP workers,
# on a cluster of its own; then an export and an import through the
# front end's own S3 API as hroe.s3_endpoint (doc/transfer.md: libcurl's
# SigV4 checked by hroe's own strict verifier, Range ignored by it).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
AWS=$(command -v /usr/bin/aws || command -v aws)
gw_clusters
port=${HROE_CLUSTER_PORT:-5831}
db=hroe_gw_s3
cluster_init s3 "$port" || exit 1
s3=$GW_WORK/s3
mkdir -p "$s3" && chown "$(stat -c %U "$CLUSTER_WORK/s3/data")" "$s3"
cluster_start s3 -c hroe.s3_root="$s3" || exit 1
export PGHOST=$CLUSTER_WORK/s3 PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
gw_grant_transfer_roles || exit 1
psql -XAtq -d "$db" -v ON_ERROR_STOP=1 >/dev/null <<'SQL' || exit 1
SELECT hroe.dynamodb('CreateTable', '{"TableName": "s3src", "BillingMode": "PAY_PER_REQUEST",
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}');
SELECT count(hroe.put_item('s3src', hroe.item_from_jsonb(jsonb_build_object('pk', jsonb_build_object('S', 'k ' || i || ' é/&<'),
	'n', jsonb_build_object('N', i::text))))) FROM generate_series(1, 500) i;
SQL
# the credentials of hroe.s3_endpoint: gw_app's key, a file of the server's user
printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$GW_KEY" "$GW_SECRET" >"$GW_WORK/credentials"
chown "$(stat -c %U "$CLUSTER_WORK/s3/data")" "$GW_WORK/credentials" && chmod 600 "$GW_WORK/credentials"
q() { psql -XAtq -d "$db" -c "$1"; }
wait_job() { # kind arn: the final status
	local s
	for _ in $(seq 1 300); do
		s=$(q "SELECT hroe.describe_$1('$2') #>> '{$3,$4}'")
		[ "$s" != IN_PROGRESS ] && { echo "$s"; return; }
		sleep 0.2
	done
	echo TIMEOUT
}

# scenario FRONT: the checks against $GW_URL
scenario() {
	local front=$1 earn iarn id st
	s3cli() { "$AWS" --endpoint-url "$GW_URL" s3 "$@"; }
	echo "hello, S3" >"$GW_WORK/f.txt"
	check "$front: aws s3 mb" s3cli mb s3://clibucket
	check "$front: aws s3 cp up" s3cli cp "$GW_WORK/f.txt" s3://clibucket/a/b/f.txt
	check "$front: aws s3 ls --recursive" has 'a/b/f.txt' s3cli ls s3://clibucket --recursive
	check "$front: aws s3 cp down" has '^hello, S3$' s3cli cp s3://clibucket/a/b/f.txt -
	check "$front: the file is under hroe.s3_root" test -f "$s3/clibucket/a/b/f.txt"
	check "$front: aws s3 rb of a bucket not empty: BucketNotEmpty" expect_error BucketNotEmpty s3cli rb s3://clibucket
	check "$front: aws s3 rm" s3cli rm s3://clibucket/a/b/f.txt
	check "$front: aws s3 rb" s3cli rb s3://clibucket
	check "$front: a role without hroe_export: AccessDenied" expect_error AccessDenied \
		env AWS_ACCESS_KEY_ID=$GW_NOGRANT_KEY "$AWS" --endpoint-url "$GW_URL" s3 mb s3://denied
	check "$front: boto3 and raw requests (test/s3_api_client.py)" /usr/bin/python3 test/s3_api_client.py "$GW_URL"
	# HeadObject stats the file: an object over the 16 MiB a GetObject holds (a sparse file put
	# under hroe.s3_root) answers its length, and its ETag the MD5 streamed
	s3cli mb s3://headbkt >/dev/null
	truncate -s 40M "$s3/headbkt/big" && chmod 644 "$s3/headbkt/big"
	check "$front: HeadObject of a 40 MiB object: 200, its Content-Length and ETag" has \
		'^41943040[[:space:]]+"'"$(md5sum <"$s3/headbkt/big" | cut -c1-32)"'"$' \
		"$AWS" --endpoint-url "$GW_URL" s3api head-object --bucket headbkt --key big --query '[ContentLength, ETag]' --output text
	check "$front: HeadObject of a missing key: 404" expect_error 404 \
		"$AWS" --endpoint-url "$GW_URL" s3api head-object --bucket headbkt --key nope
	s3cli rm s3://headbkt/big >/dev/null
	s3cli rb s3://headbkt >/dev/null
	check "$front: nothing left outside the buckets" test -z "$(find "$s3" -mindepth 1 -not -type d)"

	# the front end's S3 API as hroe.s3_endpoint: an export, then its import
	s3cli mb s3://viaendpoint >/dev/null
	psql -XAtq -d postgres -c "ALTER SYSTEM SET hroe.s3_endpoint = '$GW_URL'" \
		-c "ALTER SYSTEM SET hroe.s3_credentials_file = '$GW_WORK/credentials'" -c "SELECT pg_reload_conf()" >/dev/null
	sleep 0.3
	earn=$(q "SELECT hroe.export_table(hroe.table_arn('s3src'), 'viaendpoint', 'x', 'DYNAMODB_JSON') #>> '{ExportDescription,ExportArn}'")
	st=$(wait_job export "$earn" ExportDescription ExportStatus)
	check "$front: an export through the S3 API as hroe.s3_endpoint COMPLETED" test "$st" = COMPLETED ||
		q "SELECT hroe.describe_export('$earn')"
	id=${earn##*/}
	check "$front:   its manifest-summary.json under hroe.s3_root" \
		test -f "$s3/viaendpoint/x/AWSDynamoDB/$id/manifest-summary.json"
	iarn=$(q "SELECT hroe.import_table(jsonb_build_object('S3Bucket', 'viaendpoint', 'S3KeyPrefix', 'x/AWSDynamoDB/$id/data/'),
		'DYNAMODB_JSON', '{\"TableName\": \"s3copy_$2\", \"BillingMode\": \"PAY_PER_REQUEST\",
		  \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}],
		  \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}]}', 'GZIP') #>> '{ImportTableDescription,ImportArn}'")
	st=$(wait_job import "$iarn" ImportTableDescription ImportStatus)
	check "$front: its import through the S3 API COMPLETED, 500 items" \
		test "$st $(q "SELECT hroe.describe_import('$iarn') #>> '{ImportTableDescription,ImportedItemCount}'")" = "COMPLETED 500"
	psql -XAtq -d postgres -c "ALTER SYSTEM RESET hroe.s3_endpoint" -c "ALTER SYSTEM RESET hroe.s3_credentials_file" \
		-c "SELECT pg_reload_conf()" >/dev/null
	s3cli rm s3://viaendpoint --recursive >/dev/null
	s3cli rb s3://viaendpoint >/dev/null
}

gw_start "$db" || exit 1
gw_env
scenario hroe-gateway gw
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# the in-server workers, on the same database
http_port=$(gw_free_port) || exit 1
GW_URL=http://127.0.0.1:$http_port
cluster_stop s3
cluster_start s3 -c hroe.s3_root="$s3" -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_workers=2 || exit 1
for _ in $(seq 1 150); do
	curl -sk -o /dev/null "$GW_URL/" && break
	sleep 0.1
done
scenario "in-server workers" wk
[ "$GW_FAILURES" -eq 0 ] || { echo "$GW_FAILURES check(s) failed"; exit 1; }
