#!/usr/bin/env bash
# test/t_transfer.sh: exports and imports with S3 a directory of the server
# (doc/transfer.md):
#  (i)   a table of HROE_TRANSFER_ITEMS items (default 20,000) of every
#        attribute type, with a GSI, exported in DYNAMODB_JSON and in ION by a
#        role granted hroe_export: DynamoDB's layout (manifest-summary.json,
#        manifest-files.json, their checksums, data/*.json.gz or *.ion.gz),
#        every line parsed, the manifests' counts and MD5s right
#  (ii)  both exports imported into new tables with the GSI (ImportTable
#        through the JSON API): every item equal, GSI queries equal
#  (iii) an import with bad lines (JSON, Ion, CSV, ZSTD and GZIP inputs):
#        the bad lines counted in ErrorCount, the good imported
#  (iv)  paths that leave a bucket refused (.., a symbolic link), an
#        unprivileged role refused
# Runs inside the test cluster (PG* variables set); exits non-zero on any
# failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
N=${HROE_TRANSFER_ITEMS:-20000}
scratch_db hroe_t_transfer
fail() { echo "FAIL $*"; exit 1; }

# S3: a directory the server's user owns; bucket "bucket1"
datadir=$(psql -XAt -d postgres -c 'SHOW data_directory')
owner=$(stat -c %U "$datadir")
s3=$work/s3
mkdir -p "$s3/bucket1" "$s3/outside"
chown -R "$owner" "$s3"
chmod 755 "$work"
# (data files of 3,000 items: an export of several files)
psql -X -q -d postgres -c "ALTER SYSTEM SET hroe.s3_root = '$s3'" -c "ALTER SYSTEM SET hroe.export_file_items = 3000" \
	-c "SELECT pg_reload_conf()" >/dev/null
trap 'psql -X -q -d postgres -c "ALTER SYSTEM RESET hroe.s3_root" -c "ALTER SYSTEM RESET hroe.export_file_items" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
	rm -rf "$work"; dropdb --if-exists "$db"' EXIT
sleep 0.5

psql -X -q -v ON_ERROR_STOP=1 -d "$db" >/dev/null <<SQL
DO \$\$ BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_export') THEN CREATE ROLE hroe_export NOLOGIN; END IF;
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tx_exporter') THEN CREATE ROLE tx_exporter NOLOGIN; END IF;
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tx_nobody') THEN CREATE ROLE tx_nobody NOLOGIN; END IF;
END \$\$;
GRANT hroe_export TO tx_exporter;
GRANT USAGE ON SCHEMA hroe TO tx_exporter, tx_nobody;
SELECT hroe.dynamodb('CreateTable', '{"TableName": "tx_src",
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
							 {"AttributeName": "g", "AttributeType": "S"}],
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	"GlobalSecondaryIndexes": [{"IndexName": "gsi1", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
							   {"AttributeName": "sk", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}],
	"BillingMode": "PAY_PER_REQUEST"}');
SELECT count(hroe.put_item('tx_src', hroe.item_from_jsonb(jsonb_strip_nulls(jsonb_build_object(
	'pk', jsonb_build_object('S', 'p' || (i % 2000)),
	'sk', jsonb_build_object('N', i::text),
	'g', CASE WHEN i % 3 <> 0 THEN jsonb_build_object('S', 'g' || (i % 50)) END,
	's', jsonb_build_object('S', E'line\n"quoted" \\\\ \t é 日本 ''' || i),
	'n', jsonb_build_object('N', (i * 1.25 - 7000)::text),
	'big', jsonb_build_object('N', '1E+' || (i % 100)),
	'b', jsonb_build_object('B', encode(('bin' || i)::bytea, 'base64')),
	't', jsonb_build_object('BOOL', i % 2 = 0),
	'z', jsonb_build_object('NULL', true),
	'l', jsonb_build_object('L', jsonb_build_array(jsonb_build_object('S', 'a'), jsonb_build_object('N', '-1.5'),
												   jsonb_build_object('L', '[]'::jsonb))),
	'm', jsonb_build_object('M', jsonb_build_object('odd key', jsonb_build_object('S', 'x'),
													'null', jsonb_build_object('N', '0'),
													'\$x', jsonb_build_object('M', '{}'::jsonb))),
	'ss', jsonb_build_object('SS', jsonb_build_array('a', 'b' || i)),
	'ns', jsonb_build_object('NS', jsonb_build_array('1', '2.5', (-i)::text)),
	'bs', jsonb_build_object('BS', jsonb_build_array('AA==', 'AQI=')))))))
FROM generate_series(1, $N) i;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO tx_exporter;
SQL
src_rel=$(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = 'tx_src'")
q "GRANT SELECT ON $src_rel TO tx_exporter"
arn=$(q "SELECT hroe.table_arn('tx_src')")

# wait for an export or import to end; prints its status
wait_job() { # kind arn
	local s
	for _ in $(seq 1 600); do
		s=$(q "SELECT hroe.describe_$1('$2') #>> '{$3,$4}'")
		[ "$s" != IN_PROGRESS ] && { echo "$s"; return; }
		sleep 0.2
	done
	echo TIMEOUT
}

# (i) exports, as a role granted hroe_export
declare -A export_dir
for fmt in DYNAMODB_JSON ION; do
	res=$(psql -XAtq -v ON_ERROR_STOP=1 -d "$db" -c "SET ROLE tx_exporter" \
		-c "SELECT hroe.export_table('$arn', 'bucket1', 'exports/$fmt', '$fmt')")
	earn=$(jq -r .ExportDescription.ExportArn <<<"$res")
	[ "$(jq -r .ExportDescription.ExportStatus <<<"$res")" = IN_PROGRESS ] || fail "export not IN_PROGRESS: $res"
	st=$(psql -XAtq -d "$db" -c "SET ROLE tx_exporter" -c "SELECT hroe.describe_export('$earn') #>> '{ExportDescription,ExportStatus}'")
	for _ in $(seq 1 600); do
		[ "$st" != IN_PROGRESS ] && break
		sleep 0.2
		st=$(psql -XAtq -d "$db" -c "SET ROLE tx_exporter" -c "SELECT hroe.describe_export('$earn') #>> '{ExportDescription,ExportStatus}'")
	done
	[ "$st" = COMPLETED ] || fail "export $fmt: $st $(q "SELECT failure_message FROM hroe.exports WHERE export_arn = '$earn'")"
	desc=$(psql -XAtq -d "$db" -c "SET ROLE tx_exporter" -c "SELECT hroe.describe_export('$earn')")
	[ "$(jq -r .ExportDescription.ItemCount <<<"$desc")" = "$N" ] || fail "ItemCount: $desc"
	id=${earn##*/}
	dir=$s3/bucket1/exports/$fmt/AWSDynamoDB/$id
	export_dir[$fmt]=$dir
	[ "$(jq -r .ExportDescription.ExportManifest <<<"$desc")" = "exports/$fmt/AWSDynamoDB/$id/manifest-summary.json" ] ||
		fail "ExportManifest: $desc"
	python3 - "$dir" "$fmt" "$N" "$earn" <<'PY' || fail "layout of the $fmt export"
import base64, gzip, hashlib, json, os, re, stat, sys
d, fmt, n, arn = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
names = sorted(os.listdir(d))
assert names == ['_started', 'data', 'manifest-files.checksum', 'manifest-files.json',
                 'manifest-summary.checksum', 'manifest-summary.json'], names
for f in names:
    if f != 'data':
        m = os.stat(os.path.join(d, f)).st_mode
        assert stat.S_IMODE(m) == 0o640, (f, oct(m))
summary = json.load(open(os.path.join(d, 'manifest-summary.json')))
assert summary['exportArn'] == arn and summary['itemCount'] == n and summary['outputFormat'] == fmt, summary
assert summary['version'] == '2020-06-30' and summary['s3Bucket'] == 'bucket1', summary
for k in ('startTime', 'endTime', 'exportTime'):
    assert re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z', summary[k]), summary[k]
for m in ('manifest-summary', 'manifest-files'):
    data = open(os.path.join(d, m + '.json'), 'rb').read()
    assert open(os.path.join(d, m + '.checksum')).read() == hashlib.md5(data).hexdigest(), m
total = 0
files = [json.loads(l) for l in open(os.path.join(d, 'manifest-files.json'))]
assert summary['manifestFilesS3Key'] == os.path.relpath(os.path.join(d, 'manifest-files.json'), os.path.join(d, '../../../..')), summary
assert len(files) == -(-n // 3000) and len(os.listdir(os.path.join(d, 'data'))) == len(files), len(files)
ext = '.json.gz' if fmt == 'DYNAMODB_JSON' else '.ion.gz'
for f in files:
    key = f['dataFileS3Key']
    assert re.fullmatch(r'exports/%s/AWSDynamoDB/[0-9]{14}-[0-9a-f]{8}/data/[a-z0-9]{26}%s' % (fmt, re.escape(ext)), key), key
    raw = open(os.path.join(d, 'data', os.path.basename(key)), 'rb').read()
    assert f['etag'] == hashlib.md5(raw).hexdigest(), f
    assert f['md5Checksum'] == base64.b64encode(hashlib.md5(raw).digest()).decode(), f
    lines = gzip.decompress(raw).decode('utf-8').split('\n')
    assert lines[-1] == ''
    lines = lines[:-1]
    assert len(lines) == f['itemCount']
    for l in lines:
        if fmt == 'DYNAMODB_JSON':
            o = json.loads(l)
            assert list(o) == ['Item'] and o['Item']['pk']['S'].startswith('p'), l
        else:
            # Ion text: the version marker, one struct with the field Item;
            # typed values as AWS documents them
            assert l.startswith('$ion_1_0 {Item:{') and l.endswith('}}'), l
            assert re.search(r'ss:\$dynamodb_SS::\["a","b\d+"\]', l), l
            assert re.search(r'ns:\$dynamodb_NS::\[(-\d+\.|1\.|2\.5)(,(-\d+\.|1\.|2\.5)){2}\]', l), l
            assert 'bs:$dynamodb_BS::[{{AA==}},{{AQI=}}]' in l and 'z:null' in l, l
            assert "'null':0." in l and "'odd key':\"x\"" in l and "'$x':{}" in l, l
            assert re.search(r'big:\d+\.(d\+\d+)?[,}]', l) and re.search(r'sk:\d+\.[,}]', l), l
    total += len(lines)
assert total == n, total
PY
done

# (ii) each export imported into a new table with the GSI, through the JSON API
for fmt in DYNAMODB_JSON ION; do
	tbl=tx_imp_$(tr 'A-Z' 'a-z' <<<"$fmt")
	res=$(q "SELECT hroe.dynamodb('ImportTable', jsonb_build_object(
		'S3BucketSource', jsonb_build_object('S3Bucket', 'bucket1', 'S3KeyPrefix', '${export_dir[$fmt]#$s3/bucket1/}/data/'),
		'InputFormat', '$fmt', 'InputCompressionType', 'GZIP',
		'TableCreationParameters', jsonb_build_object('TableName', '$tbl', 'BillingMode', 'PAY_PER_REQUEST',
			'AttributeDefinitions', hroe.dynamodb('DescribeTable', '{\"TableName\": \"tx_src\"}') #> '{Table,AttributeDefinitions}',
			'KeySchema', hroe.dynamodb('DescribeTable', '{\"TableName\": \"tx_src\"}') #> '{Table,KeySchema}',
			'GlobalSecondaryIndexes', '[{\"IndexName\": \"gsi1\", \"KeySchema\": [{\"AttributeName\": \"g\", \"KeyType\": \"HASH\"}, {\"AttributeName\": \"sk\", \"KeyType\": \"RANGE\"}], \"Projection\": {\"ProjectionType\": \"ALL\"}}]'::jsonb)))
		")
	iarn=$(jq -r .ImportTableDescription.ImportArn <<<"$res")
	[ "$iarn" != null ] || fail "ImportTable: $res"
	st=$(wait_job import "$iarn" ImportTableDescription ImportStatus)
	desc=$(q "SELECT hroe.describe_import('$iarn')")
	[ "$st" = COMPLETED ] || fail "import $fmt: $desc"
	[ "$(jq -r '.ImportTableDescription | "\(.ProcessedItemCount) \(.ImportedItemCount) \(.ErrorCount)"' <<<"$desc")" = "$N $N 0" ] ||
		fail "import $fmt figures: $desc"
	rel=$(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = '$tbl'")
	diff=$(q "SELECT (SELECT count(*) FROM (SELECT item::text FROM $src_rel EXCEPT SELECT item::text FROM $rel) a)
			   + (SELECT count(*) FROM (SELECT item::text FROM $rel EXCEPT SELECT item::text FROM $src_rel) b)
			   + abs((SELECT count(*) FROM $src_rel) - (SELECT count(*) FROM $rel))")
	[ "$diff" = 0 ] || fail "import $fmt: $diff items differ"
	gsi=$(q "SELECT count(*) FROM generate_series(0, 49) g
			 WHERE (SELECT array_agg(i::text ORDER BY i::text) FROM hroe.query('tx_src', 'g = :g', jsonb_build_object(':g', jsonb_build_object('S', 'g' || g)), NULL, 'gsi1') i)
			   IS DISTINCT FROM (SELECT array_agg(i::text ORDER BY i::text) FROM hroe.query('$tbl', 'g = :g', jsonb_build_object(':g', jsonb_build_object('S', 'g' || g)), NULL, 'gsi1') i)")
	[ "$gsi" = 0 ] || fail "import $fmt: $gsi GSI queries differ"
	echo "ok: $fmt export of $N items re-imported, items and GSI queries equal"
done

# (iii) bad lines counted, not aborting
mkdir -p "$s3/bucket1/bad"
cat >"$s3/bucket1/bad/a.json" <<'J'
{"Item":{"pk":{"S":"k1"},"v":{"N":"1"}}}
not json
{"Item":{"pk":{"N":"2"}}}
{"Item":{"nokey":{"S":"x"}}}

{"NotItem":{"pk":{"S":"k5"}}}
{"Item":{"pk":{"S":"k2"},"v":{"N":"1e999"}}}
{"Item":{"pk":{"S":"k3"},"l":{"L":[{"S":"x"}]}}}
J
printf '%s\n' '$ion_1_0 {Item:{pk:"i1",n:1.5d2,s:$dynamodb_SS::["a"]}}' '{Item:{pk:"i2" , v:{{aGk=}}, z:null.string}}' \
	'$ion_1_0 {Item:{pk:"i3"' '{Item:{pk:5.}}' '{Item:{pk:"i4", x:nan}}' '{Item:{pk:"i5", t:true, l:[1,"a",[]]}}' \
	'$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 0.5",ISBN:"333-3333333333",pk:"103",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",Title:"Book 103 Title"}}' \
	>"$s3/bucket1/bad/ion"
gzip -c "$s3/bucket1/bad/ion" >"$s3/bucket1/bad/ion.gz"
printf 'pk;v;w\nc1;hello;\n"c;2";"say ""hi""";x\nc3\n"unterminated\n;nokey;x\nc4;a;b;c\n' >"$s3/bucket1/bad/c.csv"
zstd -q "$s3/bucket1/bad/c.csv" -o "$s3/bucket1/bad/csv.zst"
chown -R "$owner" "$s3/bucket1/bad"
imp() { # table format compression key-prefix [options]
	local iarn
	iarn=$(q "SELECT hroe.import_table(jsonb_build_object('S3Bucket', 'bucket1', 'S3KeyPrefix', '$4'), '$2',
		'{\"TableName\": \"$1\", \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}],
		  \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}], \"BillingMode\": \"PAY_PER_REQUEST\"}', '$3'
		${5:+, '$5'})" | jq -r .ImportTableDescription.ImportArn)
	wait_job import "$iarn" ImportTableDescription ImportStatus >/dev/null
	q "SELECT hroe.describe_import('$iarn')" | jq -r '.ImportTableDescription | "\(.ImportStatus) \(.ProcessedItemCount) \(.ImportedItemCount) \(.ErrorCount)"'
}
got=$(imp tx_bad_json DYNAMODB_JSON NONE bad/a.json)
[ "$got" = "COMPLETED 7 2 5" ] || fail "bad JSON lines: $got"
[ "$(q "SELECT count(hroe.get_item('tx_bad_json', format('{\"pk\": {\"S\": \"%s\"}}', k)::jsonb)) FROM unnest('{k1,k2,k3}'::text[]) k")" = 2 ] || fail "bad JSON: the good items k1, k3"
got=$(imp tx_bad_ion ION GZIP bad/ion.gz)
[ "$got" = "COMPLETED 7 4 3" ] || fail "bad Ion lines: $got"
# (the line of AWS's documentation of the Ion export, its key renamed pk)
[ "$(q "SELECT hroe.get_item('tx_bad_ion', '{\"pk\": {\"S\": \"103\"}}')::text")" = '{"Authors": {"SS": ["Author1", "Author2"]}, "Dimensions": {"S": "8.5 x 11.0 x 0.5"}, "ISBN": {"S": "333-3333333333"}, "Id": {"N": "103"}, "InPublication": {"BOOL": false}, "PageCount": {"N": "600"}, "Price": {"N": "2000"}, "ProductCategory": {"S": "Book"}, "Title": {"S": "Book 103 Title"}, "pk": {"S": "103"}}' ] ||
	fail "Ion item 103: $(q "SELECT hroe.get_item('tx_bad_ion', '{\"pk\": {\"S\": \"103\"}}')::text")"
[ "$(q "SELECT hroe.get_item('tx_bad_ion', '{\"pk\": {\"S\": \"i1\"}}')::text")" = '{"n": {"N": "150"}, "pk": {"S": "i1"}, "s": {"SS": ["a"]}}' ] ||
	fail "Ion item i1: $(q "SELECT hroe.get_item('tx_bad_ion', '{\"pk\": {\"S\": \"i1\"}}')::text")"
got=$(imp tx_bad_csv CSV ZSTD bad/csv '{"Csv": {"Delimiter": ";"}}')
[ "$got" = "COMPLETED 6 3 3" ] || fail "bad CSV lines: $got"
[ "$(q "SELECT hroe.get_item('tx_bad_csv', '{\"pk\": {\"S\": \"c;2\"}}')::text")" = '{"pk": {"S": "c;2"}, "v": {"S": "say \"hi\""}, "w": {"S": "x"}}' ] ||
	fail "CSV item: $(q "SELECT hroe.get_item('tx_bad_csv', '{\"pk\": {\"S\": \"c;2\"}}')::text")"
echo "ok: bad lines counted (JSON 5 of 7, Ion 3 of 7, CSV 3 of 6), the good imported"

# (iv) paths leaving the bucket, privileges
ln -s "$s3/outside" "$s3/bucket1/link"
out=$(psql -XAtq -d "$db" -c "SET ROLE tx_exporter" -c "SELECT hroe.export_table('$arn', 'bucket1', 'a/../../outside')" 2>&1) && fail "a .. prefix: $out"
earn=$(psql -XAtq -d "$db" -c "SET ROLE tx_exporter" -c "SELECT hroe.export_table('$arn', 'bucket1', 'link/x')" | jq -r .ExportDescription.ExportArn)
st=$(q "SELECT export_status || ' ' || failure_message FROM hroe.exports WHERE export_arn = '$earn'")
for _ in $(seq 1 100); do
	case $st in IN_PROGRESS*) sleep 0.2; st=$(q "SELECT export_status || ' ' || coalesce(failure_message, '') FROM hroe.exports WHERE export_arn = '$earn'") ;; *) break ;; esac
done
case $st in "FAILED S3 key \"link/x/AWSDynamoDB/"*"\" leaves its bucket") ;; *) fail "export through a symbolic link: $st" ;; esac
[ -z "$(ls -A "$s3/outside")" ] || fail "a file was written outside the bucket"
out=$(q "SELECT hroe.export_table('$arn', '..')" 2>&1) && fail "bucket ..: $out"
grep -q "Invalid S3 bucket name" <<<"$out" || fail "bucket ..: $out"
cp "$s3/bucket1/bad/a.json" "$s3/outside/secret.json"
chown -R "$owner" "$s3/outside"
got=$(imp tx_link DYNAMODB_JSON NONE link/)
[ "$got" = "COMPLETED 0 0 0" ] || fail "an import read through a symbolic link: $got"
out=$(psql -XAtq -d "$db" -c "SET ROLE tx_nobody" -c "SELECT hroe.export_table('$arn', 'bucket1')" 2>&1) && fail "unprivileged export: $out"
grep -q "permission denied" <<<"$out" || fail "unprivileged export: $out"
out=$(psql -XAtq -d "$db" -c "SET ROLE tx_nobody" -c "SELECT hroe.list_exports()")
[ "$(jq '.ExportSummaries | length' <<<"$out")" = 0 ] || fail "another role's exports listed: $out"
echo "ok: paths leaving the bucket and unprivileged roles refused"
