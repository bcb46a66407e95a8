#!/usr/bin/env bash
# test/t_s3_endpoint.sh: exports to and imports from an S3-compatible
# endpoint (hroe.s3_endpoint, doc/transfer.md), against s3rver (an
# independent S3 implementation from npm, test/gateway/package.json):
#  (i)   a table with items of every type and 40 items of 280 KB of random
#        bytes exported (DYNAMODB_JSON): the objects listed by the AWS CLI
#        (aws s3 ls), a data file over 8 MiB uploaded in two parts (a
#        multipart upload, s3rver's log), the manifests' checksums right
#  (ii)  the export imported from the endpoint into a new table: every item
#        equal
#  (iii) a bucket name S3 refuses: refused at the request; a wrong access
#        key: the export FAILED with the endpoint's error
#        (FailureCode S3InvalidAccessKeyId)
#  (iv)  an endpoint that accepts connections and never answers: the export
#        FAILED after hroe.s3_timeout (bounded time), a closed port FAILED
# Runs inside the test cluster (PG* variables set); HROE_S3_PORT the first
# port to try for s3rver and the silent server (default 4568).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
AWS=$(command -v /usr/bin/aws || command -v aws)
S3RVER=$PWD/test/gateway/node_modules/.bin/s3rver
[ -x "$S3RVER" ] || (cd test/gateway && npm ci --silent >/dev/null) || { echo "FAIL npm ci (s3rver)"; exit 1; }
scratch_db hroe_t_s3_endpoint
failures=0
check() { # name command...
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
pids=()
cleanup() {
	psql -X -q -d postgres -c "ALTER SYSTEM RESET hroe.s3_endpoint" -c "ALTER SYSTEM RESET hroe.s3_credentials_file" \
		-c "ALTER SYSTEM RESET hroe.s3_timeout" -c "ALTER SYSTEM RESET hroe.export_file_items" \
		-c "SELECT pg_reload_conf()" >/dev/null 2>&1
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$work"
	dropdb --if-exists "$db"
}
trap cleanup EXIT

owner=$(stat -c %U "$(psql -XAt -d postgres -c 'SHOW data_directory')")
chmod 755 "$work"
port=$(free_port "${HROE_S3_PORT:-4568}")
mkdir "$work/s3rver"
"$S3RVER" -d "$work/s3rver" -a 127.0.0.1 -p "$port" --configure-bucket exports >"$work/s3rver.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do
	curl -s -o /dev/null "http://127.0.0.1:$port/" && break
	sleep 0.1
done
# the credentials: a file of the server's user, mode 0600, the AWS CLI's format
creds() { printf '[default]\naws_access_key_id = %s\naws_secret_access_key = %s\n' "$1" "$2" >"$work/credentials"
	chown "$owner" "$work/credentials"; chmod 600 "$work/credentials"; }
creds S3RVER S3RVER
setting() { psql -X -q -d postgres -c "ALTER SYSTEM SET $1 = '$2'" -c "SELECT pg_reload_conf()" >/dev/null; sleep 0.3; }
psql -X -q -d postgres -c "ALTER SYSTEM SET hroe.s3_credentials_file = '$work/credentials'" \
	-c "ALTER SYSTEM SET hroe.s3_timeout = 2" -c "ALTER SYSTEM SET hroe.export_file_items = 200" >/dev/null
setting hroe.s3_endpoint "http://127.0.0.1:$port"
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_DEFAULT_REGION=us-east-1
s3() { "$AWS" --endpoint-url "http://127.0.0.1:$port" "$@"; }

psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<'SQL'
SELECT hroe.dynamodb('CreateTable', '{"TableName": "se_src",
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}],
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	"BillingMode": "PAY_PER_REQUEST"}');
SELECT count(hroe.put_item('se_src', hroe.item_from_jsonb(jsonb_build_object(
	'pk', jsonb_build_object('S', 'p' || (i % 37)),
	'sk', jsonb_build_object('N', i::text),
	's', jsonb_build_object('S', E'line\n"quoted" \\ é 日本 ' || i),
	'n', jsonb_build_object('N', (i * 1.25 - 70)::text),
	'b', jsonb_build_object('B', encode(('bin' || i)::bytea, 'base64')),
	't', jsonb_build_object('BOOL', i % 2 = 0),
	'z', jsonb_build_object('NULL', true),
	'l', jsonb_build_object('L', jsonb_build_array(jsonb_build_object('S', 'a'), jsonb_build_object('N', '-1.5'))),
	'm', jsonb_build_object('M', jsonb_build_object('odd key', jsonb_build_object('S', 'x'))),
	'ss', jsonb_build_object('SS', jsonb_build_array('a', 'b' || i)),
	'ns', jsonb_build_object('NS', jsonb_build_array('1', (-i)::text))))))
FROM generate_series(1, 300) i;
-- 40 items of 280 KB of random bytes: a data file of about 11 MB gzip-compressed
SELECT count(hroe.put_item('se_src', hroe.item_from_jsonb(jsonb_build_object(
	'pk', jsonb_build_object('S', 'big'),
	'sk', jsonb_build_object('N', i::text),
	'r', jsonb_build_object('B', (SELECT translate(encode(string_agg(decode(md5(random()::text || j), 'hex'), ''), 'base64'), E'\n', '')
								  FROM generate_series(1, 17500) j))))))
FROM generate_series(1, 40) i;
SQL
arn=$(q "SELECT hroe.table_arn('se_src')")

wait_job() { # kind arn: the final status
	local s
	for _ in $(seq 1 300); do
		s=$(q "SELECT hroe.describe_$1('$2') #>> '{$3,$4}'")
		[ "$s" != IN_PROGRESS ] && { echo "$s"; return; }
		sleep 0.2
	done
	echo TIMEOUT
}
export_to() { # prefix: the export's ARN
	q "SELECT hroe.export_table('$arn', 'exports', '$1', 'DYNAMODB_JSON') #>> '{ExportDescription,ExportArn}'"
}

# (i) the export
earn=$(export_to dump)
st=$(wait_job export "$earn" ExportDescription ExportStatus)
check "export to the endpoint COMPLETED" test "$st" = COMPLETED ||
	q "SELECT hroe.describe_export('$earn')"
id=${earn##*/}
listing=$(s3 s3 ls s3://exports/dump/ --recursive)
check "aws s3 ls lists the export's objects" python3 - "$id" "$listing" <<'PY'
import re, sys
id, listing = sys.argv[1], sys.argv[2]
keys = sorted(l.split()[-1] for l in listing.splitlines())
base = 'dump/AWSDynamoDB/%s/' % id
rest = [k[len(base):] for k in keys if k.startswith(base)]
assert len(rest) == len(keys), keys
meta = [k for k in rest if not k.startswith('data/')]
assert meta == ['_started', 'manifest-files.checksum', 'manifest-files.json', 'manifest-summary.checksum', 'manifest-summary.json'], meta
data = [k for k in rest if k.startswith('data/')]
assert len(data) == 2 and all(re.fullmatch(r'data/[a-z0-9]{26}\.json\.gz', k) for k in data), data
PY
# (s3rver gives a multipart object its MD5 as ETag: its log shows the parts)
check "the data file over 8 MiB was a multipart upload (s3rver's log: parts 1 and 2, no other)" python3 -c '
import re, sys
log = open(sys.argv[1]).read()
parts = re.findall(r"Stored part (\d+) of ", log)
assert sorted(parts) == ["1", "2"], (parts, log[-3000:])' "$work/s3rver.log"
s3 s3 cp "s3://exports/dump/AWSDynamoDB/$id/" "$work/dl/" --recursive >/dev/null
check "the manifests and data files as written (checksums, MD5s, item count)" python3 - "$work/dl" <<'PY'
import base64, gzip, hashlib, json, os, sys
d = sys.argv[1]
for m in ('manifest-summary', 'manifest-files'):
    assert open(os.path.join(d, m + '.checksum')).read() == hashlib.md5(open(os.path.join(d, m + '.json'), 'rb').read()).hexdigest(), m
summary = json.load(open(os.path.join(d, 'manifest-summary.json')))
assert summary['itemCount'] == 340 and summary['s3Bucket'] == 'exports', summary
n = 0
for l in open(os.path.join(d, 'manifest-files.json')):
    f = json.loads(l)
    raw = open(os.path.join(d, 'data', os.path.basename(f['dataFileS3Key'])), 'rb').read()
    assert f['md5Checksum'] == base64.b64encode(hashlib.md5(raw).digest()).decode(), f
    lines = gzip.decompress(raw).decode().splitlines()
    assert len(lines) == f['itemCount'], f
    n += len(lines)
assert n == 340, n
PY

# (ii) the import from the endpoint
iarn=$(q "SELECT hroe.import_table(jsonb_build_object('S3Bucket', 'exports', 'S3KeyPrefix', 'dump/AWSDynamoDB/$id/data/'),
	'DYNAMODB_JSON', '{\"TableName\": \"se_copy\", \"BillingMode\": \"PAY_PER_REQUEST\",
	  \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}, {\"AttributeName\": \"sk\", \"AttributeType\": \"N\"}],
	  \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}]}',
	'GZIP') #>> '{ImportTableDescription,ImportArn}'" 2>&1)
st=$(wait_job import "$iarn" ImportTableDescription ImportStatus)
check "import from the endpoint COMPLETED" test "$st" = COMPLETED || q "SELECT hroe.describe_import('$iarn')"
rel() { q "SELECT relid::regclass FROM hroe.tables WHERE table_name = '$1'"; }
check "the imported table equals the exported, item for item" test "$(q "SELECT (SELECT count(*) FROM $(rel se_copy)) || ' ' || count(*) FROM (
	(SELECT hroe.item_to_jsonb(item) FROM $(rel se_src) EXCEPT ALL SELECT hroe.item_to_jsonb(item) FROM $(rel se_copy))
	UNION ALL (SELECT hroe.item_to_jsonb(item) FROM $(rel se_copy) EXCEPT ALL SELECT hroe.item_to_jsonb(item) FROM $(rel se_src))) d")" = "340 0"

check "a bucket name S3 refuses: ValidationException at the request" bash -c \
	'psql -XAtq -d "$1" -c "SELECT hroe.export_table('"'$arn'"', '"'Bad_Bucket'"', '"'x'"', '"'DYNAMODB_JSON'"')" 2>&1 | grep -q "Invalid S3 bucket name: Bad_Bucket"' _ "$db"

# (iii) a wrong access key
creds WRONGKEY S3RVER
earn=$(export_to denied)
st=$(wait_job export "$earn" ExportDescription ExportStatus)
desc=$(q "SELECT hroe.describe_export('$earn')")
check "a wrong access key: the export FAILED with the endpoint's error" test "$st" = FAILED
check "  FailureCode S3InvalidAccessKeyId, FailureMessage the endpoint's" \
	test "$(jq -r '.ExportDescription | .FailureCode + " " + (.FailureMessage | test("403 InvalidAccessKeyId") | tostring)' <<<"$desc")" = "S3InvalidAccessKeyId true"
creds S3RVER S3RVER

# (iv) an endpoint that never answers, then a closed port
silent=$(free_port $((port + 1)))
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(16)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)' "$silent" &
pids+=($!)
sleep 0.3
setting hroe.s3_endpoint "http://127.0.0.1:$silent"
start=$(date +%s)
earn=$(export_to hung)
st=$(wait_job export "$earn" ExportDescription ExportStatus)
took=$(($(date +%s) - start))
check "an endpoint that never answers: FAILED after hroe.s3_timeout (2 s; took ${took} s, bound 30 s)" test "$st" = FAILED -a "$took" -lt 30
check "  its FailureMessage says the timeout" bash -c 'grep -qi "timeout\|timed out\|too slow" <<<"$1"' _ \
	"$(q "SELECT hroe.describe_export('$earn') #>> '{ExportDescription,FailureMessage}'")"
kill "${pids[-1]}" 2>/dev/null
setting hroe.s3_endpoint "http://127.0.0.1:$(free_port $((silent + 1)))"
earn=$(export_to closed)
st=$(wait_job export "$earn" ExportDescription ExportStatus)
check "a closed port: FAILED (S3EndpointUnreachable)" test "$st $(q "SELECT hroe.describe_export('$earn') #>> '{ExportDescription,FailureCode}'")" = "FAILED S3EndpointUnreachable"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "t_s3_endpoint: all checks passed"
