#!/usr/bin/env bash
# test/t_transfer_incremental.sh: incremental exports (ExportTableToPointInTime
# with ExportType INCREMENTAL_EXPORT, doc/transfer.md) against an oracle.
# A table with point-in-time recovery is written in three phases separated
# by instants T1 and T2 (each taken by a statement of its own after the
# phase's transactions committed, before the next phase's began): puts;
# then updates, deletions, new items, an item put and deleted again, an item
# updated and set back, an item deleted and put again changed; then more
# writes after T2.  The table restored to T1 and to T2
# (RestoreTableToPointInTime) gives two full states; the test computes
# their difference itself (Python) and the incremental export from T1 to T2
# must be exactly it: one line per item whose state differs, Keys, OldImage
# (state at T1, NEW_AND_OLD_IMAGES only) and NewImage (state at T2, none if
# deleted), WriteTimestampMicros within the period, in DYNAMODB_JSON and in
# ION, for both view types; the manifests and DescribeExport's
# ExportType, IncrementalExportSpecification and ItemCount.  Then
# DynamoDB's validation: ExportTime given, no ExportFromTime, from not
# before to, a period under 15 minutes or over 24 hours, a specification
# with FULL_EXPORT, a bad view type, no point-in-time recovery, a period
# before the recovery window; the test setting
# hroe.incremental_export_min_period is refused to a non-superuser.
# Last, full exports (FULL_EXPORT) at ExportTime T1 and T2 equal the
# restores to T1 and T2 item for item (DYNAMODB_JSON read directly, ION
# imported back), with the manifest's exportTime and DescribeExport's
# ExportTime; an ExportTime before the recovery window or in the future
# (InvalidExportTimeException), or over a minute ago on a table without
# point-in-time recovery (PointInTimeRecoveryUnavailableException).
# Runs inside the test cluster (PG* variables set, track_commit_timestamp on).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
scratch_db hroe_t_transfer_inc
fail() { echo "FAIL $*"; exit 1; }
[ "$(q 'SHOW track_commit_timestamp')" = on ] || fail "needs track_commit_timestamp = on"

datadir=$(psql -XAt -d postgres -c 'SHOW data_directory')
owner=$(stat -c %U "$datadir")
s3=$work/s3
mkdir -p "$s3/bucket1"
chown -R "$owner" "$s3"
chmod 755 "$work"
psql -X -q -d postgres -c "ALTER SYSTEM SET hroe.s3_root = '$s3'" -c "SELECT pg_reload_conf()" >/dev/null
trap 'psql -X -q -d postgres -c "ALTER SYSTEM RESET hroe.s3_root" -c "SELECT pg_reload_conf()" >/dev/null 2>&1 || true
	rm -rf "$work"; dropdb --if-exists "$db"' EXIT
sleep 0.5

ddb() { q "SELECT hroe.dynamodb('$1', '$2')"; }
put() { ddb PutItem "{\"TableName\": \"inc\", \"Item\": {\"pk\": {\"S\": \"$1\"}, \"sk\": {\"N\": \"$2\"}${3:-}}}" >/dev/null; }
del() { ddb DeleteItem "{\"TableName\": \"inc\", \"Key\": {\"pk\": {\"S\": \"$1\"}, \"sk\": {\"N\": \"$2\"}}}" >/dev/null; }
# an instant after every committed write and before every later one
instant() { sleep 0.02; q "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"; sleep 0.02; }

ddb CreateTable '{"TableName": "inc", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
	"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"}]}' >/dev/null
# items before point-in-time recovery (the base image)
for i in 1 2 3; do put base "$i" ", \"v\": {\"N\": \"$i\"}"; done
ddb UpdateContinuousBackups '{"TableName": "inc", "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": true}}' >/dev/null
arn=$(q "SELECT hroe.table_arn('inc')")
T0=$(instant)
# phase 1
for i in 1 2 3 4 5 6 7 8; do put a "$i" ", \"v\": {\"S\": \"one $i\"}, \"l\": {\"L\": [{\"N\": \"$i\"}, {\"BOOL\": true}]}"; done
put base 1 ', "v": {"N": "10"}'
T1=$(instant)
# phase 2: updates, deletions, new items, no-change sequences
ddb UpdateItem '{"TableName": "inc", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}, "UpdateExpression": "SET v = :v, m = :m",
	"ExpressionAttributeValues": {":v": {"S": "two"}, ":m": {"M": {"x": {"SS": ["p", "q"]}}}}}' >/dev/null
del a 2
del base 2
put a 3 ', "v": {"S": "replaced"}'
put b 1 ', "v": {"B": "AAEC"}'
put b 2 ', "v": {"S": "short-lived"}'; del b 2
put a 4 ', "v": {"S": "changed"}'; put a 4 ', "v": {"S": "one 4"}, "l": {"L": [{"N": "4"}, {"BOOL": true}]}'
del a 5; put a 5 ', "v": {"S": "back"}'
ddb TransactWriteItems '{"TransactItems": [
	{"Put": {"TableName": "inc", "Item": {"pk": {"S": "c"}, "sk": {"N": "1"}, "t": {"NULL": true}}}},
	{"Delete": {"TableName": "inc", "Key": {"pk": {"S": "a"}, "sk": {"N": "6"}}}}]}' >/dev/null
# (the period at least hroe.incremental_export_min_period's 1 second)
sleep 1
T2=$(instant)
# phase 3: after the period
put a 7 ', "v": {"S": "later"}'
del a 8
put d 1
T3=$(instant)
echo "T0 $T0 T1 $T1 T2 $T2 T3 $T3"

# the oracle: full restores at T1 and T2, their items
state() { # instant target
	q "SELECT hroe.dynamodb('RestoreTableToPointInTime', ('{\"SourceTableName\": \"inc\", \"TargetTableName\": \"$2\",
		\"RestoreDateTime\": ' || extract(epoch FROM '$1'::timestamptz) || '}')::jsonb)" >/dev/null
	q "SELECT coalesce(jsonb_agg(hroe.item_to_jsonb(item) ORDER BY item::text), '[]') FROM $(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = '$2'")"
}
state "$T1" at_t1 >"$work/t1.json"
state "$T2" at_t2 >"$work/t2.json"

wait_export() { # arn -> status
	local s
	for _ in $(seq 1 300); do
		s=$(q "SELECT hroe.describe_export('$1') #>> '{ExportDescription,ExportStatus}'")
		[ "$s" != IN_PROGRESS ] && { echo "$s"; return; }
		sleep 0.1
	done
	echo TIMEOUT
}

# the exports (the 15-minute minimum lowered by the superuser-only test setting)
for fmt in DYNAMODB_JSON ION; do
	for view in NEW_AND_OLD_IMAGES NEW_IMAGE; do
		spec="\"ExportFromTime\": ' || extract(epoch FROM '$T1'::timestamptz) || ', \"ExportToTime\": ' || extract(epoch FROM '$T2'::timestamptz) || '"
		[ "$view" = NEW_IMAGE ] && spec="$spec, \"ExportViewType\": \"NEW_IMAGE\""
		res=$(psql -XAtq -v ON_ERROR_STOP=1 -d "$db" -c "SET hroe.incremental_export_min_period = 1" \
			-c "SELECT hroe.dynamodb('ExportTableToPointInTime', ('{\"TableArn\": \"$arn\", \"S3Bucket\": \"bucket1\",
				\"S3Prefix\": \"inc/$fmt/$view\", \"ExportFormat\": \"$fmt\", \"ExportType\": \"INCREMENTAL_EXPORT\",
				\"IncrementalExportSpecification\": {$spec}}')::jsonb)")
		earn=$(jq -r .ExportDescription.ExportArn <<<"$res")
		[ "$earn" != null ] || fail "export $fmt $view: $res"
		st=$(wait_export "$earn")
		[ "$st" = COMPLETED ] || fail "export $fmt $view: $st $(q "SELECT failure_message FROM hroe.exports WHERE export_arn = '$earn'")"
		desc=$(q "SELECT hroe.dynamodb('DescribeExport', '{\"ExportArn\": \"$earn\"}')")
		dir=$s3/bucket1/inc/$fmt/$view/AWSDynamoDB/${earn##*/}
		python3 - "$dir" "$fmt" "$view" "$work/t1.json" "$work/t2.json" "$T1" "$T2" "$desc" <<'PY' || fail "incremental export $fmt $view"
import datetime, gzip, hashlib, json, os, re, sys
d, fmt, view, t1, t2, T1, T2, desc = sys.argv[1:]
desc = json.loads(desc)['ExportDescription']
def key(item):
    return json.dumps({k: item[k] for k in ('pk', 'sk')}, sort_keys=True)
def canon(item):
    return json.dumps(item, sort_keys=True)
before = {key(i): i for i in json.load(open(t1))}
after = {key(i): i for i in json.load(open(t2))}
# the oracle: every key whose state differs
expected = {}
for k in set(before) | set(after):
    o, n = before.get(k), after.get(k)
    if o is not None and n is not None and canon(o) == canon(n):
        continue
    line = {'Keys': json.loads(k)}
    if n is not None:
        line['NewImage'] = n
    if o is not None and view == 'NEW_AND_OLD_IMAGES':
        line['OldImage'] = o
    expected[k] = line
assert len(expected) >= 8, expected

def micros(s):
    return int(datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc).timestamp() * 1e6)

# Ion text of an export line, as written by hroe (a small reader for its subset)
def ion(s):
    pos = 0
    def ws():
        nonlocal pos
        while pos < len(s) and s[pos] in ' \t\n':
            pos += 1
    def value():
        nonlocal pos
        ws()
        a = re.compile(r'[A-Za-z_$][A-Za-z0-9_$]*::').match(s, pos)
        if a:
            pos = a.end()
            return value()
        c = s[pos]
        if c == '{' and not s.startswith('{{', pos):
            pos += 1; out = {}
            ws()
            if s[pos] == '}':
                pos += 1; return out
            while True:
                ws()
                m = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"").match(s, pos)
                name = m.group(0); pos = m.end()
                if name[0] in "'\"":
                    name = json.loads('"' + name[1:-1].replace('"', '\\"') + '"') if name[0] == "'" else json.loads(name)
                ws(); assert s[pos] == ':'; pos += 1
                out[name] = value(); ws()
                if s[pos] == ',':
                    pos += 1; continue
                assert s[pos] == '}'; pos += 1; return out
        if c == '[':
            pos += 1; out = []; ws()
            if s[pos] == ']':
                pos += 1; return out
            while True:
                out.append(value()); ws()
                if s[pos] == ',':
                    pos += 1; continue
                assert s[pos] == ']'; pos += 1; return out
        m = re.compile(r'"(?:[^"\\]|\\.)*"|\{\{[^}]*\}\}|[^,\]\}\s]+').match(s, pos)
        pos = m.end()
        return m.group(0)
    ws()
    assert s.startswith('$ion_1_0', pos); pos += 8
    return value()

names = sorted(os.listdir(d))
assert names == ['_started', 'data', 'manifest-files.checksum', 'manifest-files.json',
                 'manifest-summary.checksum', 'manifest-summary.json'], names
summary = json.load(open(os.path.join(d, 'manifest-summary.json')))
assert summary['version'] == '2023-08-01' and summary['exportType'] == 'INCREMENTAL_EXPORT', summary
assert summary['outputView'] == view and summary['outputFormat'] == fmt and 'exportTime' not in summary, summary
assert summary['exportFromTime'] == T1[:23] + 'Z' and summary['exportToTime'] == T2[:23] + 'Z', (summary, T1, T2)
assert summary['itemCount'] == len(expected), (summary, len(expected))
for m in ('manifest-summary', 'manifest-files'):
    data = open(os.path.join(d, m + '.json'), 'rb').read()
    assert open(os.path.join(d, m + '.checksum')).read() == hashlib.md5(data).hexdigest(), m
got = {}
for f in (json.loads(l) for l in open(os.path.join(d, 'manifest-files.json'))):
    raw = open(os.path.join(d, 'data', os.path.basename(f['dataFileS3Key'])), 'rb').read()
    assert f['etag'] == hashlib.md5(raw).hexdigest(), f
    lines = gzip.decompress(raw).decode('utf-8').split('\n')[:-1]
    assert f['itemCount'] == len(lines), f
    for l in lines:
        if fmt == 'DYNAMODB_JSON':
            rec = json.loads(l)
            ts = int(rec.pop('Metadata')['WriteTimestampMicros']['N'])
        else:
            try:
                rec = ion(l)['Record']
            except Exception:
                print('unreadable Ion line:', l)
                raise
            ts = int(rec.pop('Metadata')['WriteTimestampMicros'])
        assert micros(T1) <= ts < micros(T2), (ts, T1, T2)
        if fmt == 'ION':
            # (the keys' Ion values: a string, a decimal such as 1.)
            rec['Keys'] = {'pk': {'S': json.loads(rec['Keys']['pk'])}, 'sk': {'N': rec['Keys']['sk'].rstrip('.')}}
        k = key(rec['Keys'])
        assert k not in got, k
        got[k] = rec
assert set(got) == set(expected), (sorted(set(got) ^ set(expected)))
if fmt == 'DYNAMODB_JSON':
    for k in expected:
        assert canon(got[k]) == canon(expected[k]), (got[k], expected[k])
else:
    # (Ion's values are its own types: compare the attribute names and presence)
    for k in expected:
        for part in ('NewImage', 'OldImage'):
            assert (part in got[k]) == (part in expected[k]), (k, part, got[k])
            if part in got[k]:
                assert sorted(got[k][part]) == sorted(expected[k][part]), (got[k][part], expected[k][part])
assert desc['ExportType'] == 'INCREMENTAL_EXPORT' and desc['ItemCount'] == len(expected), desc
spec = desc['IncrementalExportSpecification']
assert spec['ExportViewType'] == view and 'ExportTime' not in desc, desc
assert abs(spec['ExportFromTime'] * 1e6 - micros(T1)) < 2 and abs(spec['ExportToTime'] * 1e6 - micros(T2)) < 2, (spec, T1, T2)
print('ok', fmt, view, len(expected), 'items')
PY
	done
done

# DynamoDB's validation
err() { # request, expected __type, expected message part
	local r
	r=$(psql -XAtq -v ON_ERROR_STOP=1 -d "$db" -c "SET hroe.incremental_export_min_period = ${4:-900}" \
		-c "SELECT hroe.dynamodb('ExportTableToPointInTime', ('$1')::jsonb)")
	[[ "$(jq -r .__type <<<"$r")" == *"#$2" ]] || fail "expected $2: $1 -> $r"
	[[ "$(jq -r .message <<<"$r")" == *"$3"* ]] || fail "expected '$3': $1 -> $r"
}
e() { q "SELECT extract(epoch FROM '$1'::timestamptz + interval '$2')"; }
base="\"TableArn\": \"$arn\", \"S3Bucket\": \"bucket1\", \"ExportType\": \"INCREMENTAL_EXPORT\""
err "{$base, \"ExportTime\": $(e "$T1" 0s), \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s)}}" \
	ValidationException "ExportTime cannot be specified"
err "{$base}" ValidationException "ExportFromTime must be specified"
err "{$base, \"IncrementalExportSpecification\": {\"ExportToTime\": $(e "$T2" 0s)}}" ValidationException "ExportFromTime must be specified"
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T2" 0s), \"ExportToTime\": $(e "$T1" 0s)}}" \
	ValidationException "ExportFromTime must be earlier than ExportToTime" 1
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s), \"ExportToTime\": $(e "$T1" 0s)}}" \
	ValidationException "ExportFromTime must be earlier than ExportToTime" 1
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s), \"ExportToTime\": $(e "$T1" '14 minutes 59 seconds')}}" \
	ValidationException "at least 15 minutes and at most 24 hours"
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" '-2 days'), \"ExportToTime\": $(e "$T1" '-86399 seconds')}}" \
	ValidationException "at least 15 minutes and at most 24 hours" 1
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s), \"ExportViewType\": \"OLD_IMAGE\"}}" \
	ValidationException "Member must satisfy enum value set: [NEW_IMAGE, NEW_AND_OLD_IMAGES]" 1
err "{\"TableArn\": \"$arn\", \"S3Bucket\": \"bucket1\", \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s)}}" \
	ValidationException "IncrementalExportSpecification can only be specified with ExportType INCREMENTAL_EXPORT"
# the recovery window: from its start (T0 is after it) to now
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T0" '-1 hour'), \"ExportToTime\": $(e "$T1" 0s)}}" \
	InvalidExportTimeException "is before the earliest restorable time" 1
err "{$base, \"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s), \"ExportToTime\": $(e "$T3" '1 hour')}}" \
	InvalidExportTimeException "ExportToTime cannot be in the future" 1
ddb CreateTable '{"TableName": "nopitr", "BillingMode": "PAY_PER_REQUEST",
	"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
err "{\"TableArn\": \"$(q "SELECT hroe.table_arn('nopitr')")\", \"S3Bucket\": \"bucket1\", \"ExportType\": \"INCREMENTAL_EXPORT\",
	\"IncrementalExportSpecification\": {\"ExportFromTime\": $(e "$T1" 0s), \"ExportToTime\": $(e "$T2" 0s)}}" \
	PointInTimeRecoveryUnavailableException "Point in time recovery is not enabled for table 'nopitr'" 1
# the test setting: superuser only
q "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'tx_inc_nobody') THEN CREATE ROLE tx_inc_nobody NOLOGIN; END IF; END \$\$"
out=$(psql -XAtq -d "$db" -c "SET ROLE tx_inc_nobody" -c "SET hroe.incremental_export_min_period = 1" 2>&1 || true)
[[ "$out" == *"permission denied to set parameter"* ]] || fail "hroe.incremental_export_min_period set by a non-superuser: $out"

# Full exports at an ExportTime (ExportType FULL_EXPORT): the table's state
# at T1 and at T2 from the history, item for item the restores to T1 and T2
# (DYNAMODB_JSON: its lines; ION: imported back with ImportTable), the
# manifest's exportTime and DescribeExport's ExportTime the instant given
for at in T1 T2; do
	inst=${!at}
	want=$work/$(tr 'A-Z' 'a-z' <<<"$at").json
	for fmt in DYNAMODB_JSON ION; do
		res=$(q "SELECT hroe.dynamodb('ExportTableToPointInTime', ('{\"TableArn\": \"$arn\", \"S3Bucket\": \"bucket1\",
			\"S3Prefix\": \"full/$at/$fmt\", \"ExportFormat\": \"$fmt\", \"ExportType\": \"FULL_EXPORT\",
			\"ExportTime\": ' || extract(epoch FROM '$inst'::timestamptz) || '}')::jsonb)")
		earn=$(jq -r .ExportDescription.ExportArn <<<"$res")
		[ "$earn" != null ] || fail "full export at $at $fmt: $res"
		st=$(wait_export "$earn")
		[ "$st" = COMPLETED ] || fail "full export at $at $fmt: $st $(q "SELECT failure_message FROM hroe.exports WHERE export_arn = '$earn'")"
		desc=$(q "SELECT hroe.dynamodb('DescribeExport', '{\"ExportArn\": \"$earn\"}')")
		dir=$s3/bucket1/full/$at/$fmt/AWSDynamoDB/${earn##*/}
		got=$work/full-$at-$fmt.json
		if [ "$fmt" = ION ]; then
			tbl=full_$(tr 'A-Z' 'a-z' <<<"$at")_ion
			ires=$(q "SELECT hroe.dynamodb('ImportTable', jsonb_build_object(
				'S3BucketSource', jsonb_build_object('S3Bucket', 'bucket1', 'S3KeyPrefix', 'full/$at/$fmt/AWSDynamoDB/${earn##*/}/data/'),
				'InputFormat', 'ION', 'InputCompressionType', 'GZIP',
				'TableCreationParameters', jsonb_build_object('TableName', '$tbl', 'BillingMode', 'PAY_PER_REQUEST',
					'AttributeDefinitions', hroe.dynamodb('DescribeTable', '{\"TableName\": \"inc\"}') #> '{Table,AttributeDefinitions}',
					'KeySchema', hroe.dynamodb('DescribeTable', '{\"TableName\": \"inc\"}') #> '{Table,KeySchema}')))")
			iarn=$(jq -r .ImportTableDescription.ImportArn <<<"$ires")
			[ "$iarn" != null ] || fail "ImportTable of the ION export at $at: $ires"
			for _ in $(seq 1 300); do
				ist=$(q "SELECT hroe.describe_import('$iarn') #>> '{ImportTableDescription,ImportStatus}'")
				[ "$ist" != IN_PROGRESS ] && break
				sleep 0.1
			done
			[ "$ist" = COMPLETED ] && [ "$(q "SELECT error_count FROM hroe.imports WHERE import_arn = '$iarn'")" = 0 ] ||
				fail "import of the ION export at $at: $(q "SELECT hroe.describe_import('$iarn')")"
			q "SELECT coalesce(jsonb_agg(hroe.item_to_jsonb(item) ORDER BY item::text), '[]') FROM $(q "SELECT relid::regclass FROM hroe.tables WHERE table_name = '$tbl'")" >"$got"
		else
			python3 - "$dir" >"$got" <<'PY'
import gzip, json, os, sys
d = sys.argv[1]
items = []
for f in (json.loads(l) for l in open(os.path.join(d, 'manifest-files.json'))):
    for l in gzip.decompress(open(os.path.join(d, 'data', os.path.basename(f['dataFileS3Key'])), 'rb').read()).decode().splitlines():
        rec = json.loads(l)
        assert list(rec) == ['Item'], rec
        items.append(rec['Item'])
print(json.dumps(items))
PY
		fi
		python3 - "$dir" "$fmt" "$want" "$got" "$inst" "$desc" <<'PY' || fail "full export at $at $fmt"
import datetime, json, os, sys
d, fmt, want, got, inst, desc = sys.argv[1:]
desc = json.loads(desc)['ExportDescription']
canon = lambda i: json.dumps(i, sort_keys=True)
want = sorted(canon(i) for i in json.load(open(want)))
got = sorted(canon(i) for i in json.load(open(got)))
assert len(want) >= 8, want
assert got == want, (sorted(set(got) ^ set(want)), len(got), len(want))
summary = json.load(open(os.path.join(d, 'manifest-summary.json')))
assert summary['exportType'] == 'FULL_EXPORT' and summary['version'] == '2020-06-30', summary
assert summary['exportTime'] == inst[:23] + 'Z' and summary['itemCount'] == len(want), (summary, inst)
micros = int(datetime.datetime.strptime(inst, '%Y-%m-%dT%H:%M:%S.%fZ').replace(tzinfo=datetime.timezone.utc).timestamp() * 1e6)
assert desc['ExportType'] == 'FULL_EXPORT' and desc['ItemCount'] == len(want), desc
assert abs(desc['ExportTime'] * 1e6 - micros) < 2 and 'IncrementalExportSpecification' not in desc, (desc, inst)
print('ok full export at', inst, fmt, len(want), 'items')
PY
	done
done
# its validation: within the recovery window (InvalidExportTimeException),
# not in the future; without point-in-time recovery, no older than a minute
full="\"TableArn\": \"$arn\", \"S3Bucket\": \"bucket1\", \"ExportType\": \"FULL_EXPORT\""
err "{$full, \"ExportTime\": $(e "$T0" '-1 hour')}" InvalidExportTimeException "is before the earliest restorable time"
err "{$full, \"ExportTime\": $(e "$T3" '1 hour')}" InvalidExportTimeException "Export time cannot be in the future"
err "{\"TableArn\": \"$(q "SELECT hroe.table_arn('nopitr')")\", \"S3Bucket\": \"bucket1\", \"ExportTime\": $(e "$T1" '-2 minutes')}" \
	PointInTimeRecoveryUnavailableException "Point in time recovery is not enabled for table 'nopitr'"
echo "t_transfer_incremental: ok"
