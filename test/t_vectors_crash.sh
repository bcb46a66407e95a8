#!/usr/bin/env bash
# test/t_vectors_crash.sh: vector indexes (doc/vectors.md) stay exact under
# concurrent writers (pgbench: PutItem, UpdateItem, DeleteItem, items
# leaving an index), through the three events that could lose or corrupt a
# vector:
# - a backfill: UpdateTable creates a vector index on a table holding items
#   while the writers run; DescribeTable shows it CREATING with Backfilling
#   true, then ACTIVE; once the load is over, every item is in it;
# - a crash: the postmaster is killed (kill -9) mid-load and restarted
#   (crash recovery), and with it a backfill, which the maintenance worker
#   then resumes;
# - a streaming standby: it follows the load and the crash; SearchVectors
#   on it answers as on the primary, and a write there is refused cleanly
#   (an error, the standby still answering).
# After each, every SearchVectors (with and without a SearchSchema HASH
# condition, random query vectors) is compared with a brute-force oracle
# computed from the surviving items' attributes alone: the same TopK
# distances, nearest first, each result's own distance among them (the
# vectors are small integers, so every squared distance is exact in f32 and
# the comparison is exact; ties may come in any order).  Starts throwaway
# clusters of its own (test/lib_cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
. test/lib_cluster.sh
cluster_setup
work=$(mktemp -d)
chmod 755 "$work"
trap 'rm -rf "$work"; cluster_cleanup' EXIT
base=$(free_port $((${PGPORT:-5841} + 2)))
cluster_init vprimary "$base"
cluster_start vprimary
PGBENCH=/usr/lib/postgresql/15/bin/pgbench
q() { cluster_psql "${on:-vprimary}" -d hroe_vec -c "$1"; }
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

cluster_psql vprimary -d postgres -c "CREATE DATABASE hroe_vec" >/dev/null
cluster_psql vprimary -d hroe_vec >/dev/null <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION hroe;
-- a random vector of 8 integers in [-500, 500]: every squared distance
-- (at most 8 * 1000^2 < 2^24) is exact in f32
CREATE FUNCTION rvec() RETURNS jsonb LANGUAGE sql VOLATILE AS $$
	SELECT jsonb_agg(jsonb_build_object('N', (floor(random() * 1001) - 500)::int::text)) FROM generate_series(1, 8)
$$;
CREATE FUNCTION ivec() RETURNS int[] LANGUAGE sql VOLATILE AS $$
	SELECT array_agg((floor(random() * 1001) - 500)::int) FROM generate_series(1, 8)
$$;
-- one step of the load on table tab: key k, operation op
CREATE FUNCTION load_step(tab text, k int, op int) RETURNS jsonb LANGUAGE sql AS $$
SELECT CASE
	WHEN op <= 3 THEN hroe.dynamodb('PutItem', jsonb_build_object('TableName', tab, 'Item',
		jsonb_build_object('pk', jsonb_build_object('S', 'k' || k), 'tenant', jsonb_build_object('S', 't' || (k % 3)),
						   'v', jsonb_build_object('L', rvec()), 'n', jsonb_build_object('N', op::text))))
	WHEN op <= 5 THEN hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', tab,
		'Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || k)),
		'UpdateExpression', 'SET v = :v, tenant = :t',
		'ExpressionAttributeValues', jsonb_build_object(':v', jsonb_build_object('L', rvec()),
														':t', jsonb_build_object('S', 't' || (k % 3)))))
	WHEN op = 6 THEN hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', tab,
		'Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || k)), 'UpdateExpression', 'REMOVE v'))
	ELSE hroe.dynamodb('DeleteItem', jsonb_build_object('TableName', tab,
		'Key', jsonb_build_object('pk', jsonb_build_object('S', 'k' || k))))
END
$$;
-- every row's stored vector is its item's, and the index holds every item with one
CREATE FUNCTION check_rows(tab text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	rel regclass := (SELECT relid FROM hroe.tables WHERE table_name = tab);
	vcol name := (SELECT vector_column FROM hroe.vector_indexes WHERE table_name = tab AND index_name = 'euc');
	n_bad bigint;
	n_items bigint;
	n_indexed bigint;
BEGIN
	EXECUTE format('SELECT count(*) FILTER (WHERE %1$I IS DISTINCT FROM hroe.item_vector(item, ''v'', 8)),
	                       count(*) FILTER (WHERE item::jsonb ? ''v''), count(%1$I) FROM %2$s', vcol, rel)
	INTO n_bad, n_items, n_indexed;
	RETURN format('%s items with a vector, %s indexed, %s rows whose vector differs from their item''s',
				  n_items, n_indexed, n_bad);
END
$$;
SQL
for tab in vbf vcr; do
	q "SELECT hroe.dynamodb('CreateTable', '{\"TableName\": \"$tab\", \"BillingMode\": \"PAY_PER_REQUEST\",
	   \"KeySchema\": [{\"AttributeName\": \"pk\", \"KeyType\": \"HASH\"}],
	   \"AttributeDefinitions\": [{\"AttributeName\": \"pk\", \"AttributeType\": \"S\"}]}')" >/dev/null
	q "SELECT count(load_step('$tab', k, 1)) FROM generate_series(1, 1000) k" >/dev/null
done
indexes() {
	echo "{\"Create\": {\"IndexName\": \"$1\", \"VectorAttribute\": {\"AttributeName\": \"v\"}, \"Dimensions\": 8,
	  \"DistanceFunction\": \"EUCLIDEAN\", \"Projection\": {\"ProjectionType\": \"KEYS_ONLY\"}$2}}"
}
tenant_schema=', "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]'
defs='"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"}]'
# wait_active TABLE: until DescribeTable shows each of its vector indexes ACTIVE (30 s)
wait_active() {
	for _ in $(seq 1 300); do
		[ "$(q "SELECT count(*) FROM jsonb_array_elements(hroe.dynamodb('DescribeTable', '{\"TableName\": \"$1\"}') -> 'Table' -> 'VectorIndexes') x
		        WHERE x ->> 'IndexStatus' <> 'ACTIVE'")" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
# the crash table's indexes: built before its load (two UpdateTables, each
# waited for: one online index action at a time)
for ix in "euc|" "bytenant|$tenant_schema"; do
	q "SELECT hroe.dynamodb('UpdateTable', '{\"TableName\": \"vcr\", $defs, \"VectorIndexUpdates\": [$(indexes "${ix%%|*}" "${ix#*|}")]}')" >/dev/null
	wait_active vcr
done
for tab in vbf vcr; do
	cat >"$work/load.$tab.sql" <<EOF2
\\set k random(1, 1300)
\\set op random(1, 7)
SELECT load_step('$tab', :k, :op);
EOF2
done
load() {
	cluster_as_owner "$PGBENCH" -n -h "$(cluster_dir vprimary)" -p "$(cluster_port vprimary)" -U postgres \
		-c 3 -R 300 -T "$1" -f "$work/load.$2.sql" hroe_vec >"$work/pgbench.$2.log" 2>&1 || true
}
processed() {
	grep -o 'number of transactions actually processed: [0-9]*' "$work/pgbench.$1.log" | grep -o '[0-9]*$' ||
		{ echo 0; tail -5 "$work/pgbench.$1.log" >&2; }
}
# 20 random query vectors, a SearchVectors of each index for each (the HASH
# element's condition naming tenant t0, t1 or t2), as SQL, one answer a line
python3 - "$work/queries.sql" "$work/requests.json" <<'PY'
import json, random, sys
with open(sys.argv[1], "w") as f, open(sys.argv[2], "w") as g:
	for i in range(20):
		q = [{"N": str(random.randint(-500, 500))} for _ in range(8)]
		for req in ({"IndexName": "euc", "TopK": 10},
					{"IndexName": "bytenant", "TopK": 7, "SearchConditionExpression": "tenant = :t",
					 "ExpressionAttributeValues": {":t": {"S": "t%d" % (i % 3)}}}):
			req = dict(req, TableName="TABLE", SearchVector=q)
			f.write("SELECT hroe.dynamodb('SearchVectors', '%s')::text;\n" % json.dumps(req))
			g.write(json.dumps(req) + "\n")
PY
# the answers of cluster $1 (default vprimary) for table $2
answers() { sed "s/\"TABLE\"/\"$2\"/" "$work/queries.sql" | cluster_psql "$1" -d hroe_vec; }
# the oracle: each answer's distances are the TopK nearest of the items the
# table holds (read from their attributes alone), nearest first
oracle() {
	python3 - "$1" "$2" <<'PY'
import json, sys
items = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
vec = {}
for it in items:
	if "v" in it:
		vec[it["pk"]["S"]] = ([int(x["N"]) for x in it["v"]["L"]], it.get("tenant", {}).get("S"))
bad = 0
for line in open(sys.argv[2]):
	a = json.loads(line)
	if "__type" in a or "SearchResults" not in a:
		print("error:", line.strip()); bad += 1; continue
	req = a.pop("_req")
	q = [int(x["N"]) for x in req["SearchVector"]]
	t = req.get("ExpressionAttributeValues", {}).get(":t", {}).get("S")
	d = lambda v: sum((x - y) ** 2 for x, y in zip(v, q))
	want = sorted(d(v) for v, ten in vec.values() if t is None or ten == t)[:req["TopK"]]
	got = []
	for r in a["SearchResults"]:
		pk = r["Item"]["pk"]["S"]
		got.append(d(vec[pk][0]) if pk in vec and (t is None or vec[pk][1] == t) else "missing:" + pk)
	if got != want:
		bad += 1
		if bad <= 3:
			print(req["IndexName"], q, t, "got", got, "want", want)
print("failures:", bad)
PY
}
check_table() {
	local tab=$1 label=$2 on=${3:-vprimary} rows result
	rows=$(on=$on q "SELECT check_rows('$tab')")
	case $rows in
	*" 0 rows whose"*) ;;
	*) bad "$label: $rows"; return ;;
	esac
	[ "${rows%% items*}" = "$(echo "$rows" | sed 's/.*vector, \([0-9]*\) indexed.*/\1/')" ] ||
		{ bad "$label: $rows"; return; }
	on=$on q "SELECT item::jsonb::text FROM $(on=$on q "SELECT relid FROM hroe.tables WHERE table_name = '$tab'")" \
		>"$work/items.$on.$tab.json"
	# (each answer with its request, for the oracle)
	answers "$on" "$tab" >"$work/answers.$on.$tab.json"
	paste -d '\n' "$work/answers.$on.$tab.json" "$work/requests.json" | python3 -c '
import json, sys
lines = [l for l in sys.stdin.read().split("\n") if l.strip()]
for a, r in zip(lines[::2], lines[1::2]):
	a = json.loads(a); a["_req"] = json.loads(r); print(json.dumps(a))' >"$work/checked.$on.$tab.json"
	result=$(oracle "$work/items.$on.$tab.json" "$work/checked.$on.$tab.json")
	if [ "${result##*failures: }" = 0 ]; then
		ok "$label: 40 searches equal the oracle ($rows)"
	else
		bad "$label: SearchVectors differs from the oracle"
		echo "$result" | head -4
	fi
}

# a standby following the primary from here on, through the backfill and
# the crash (a checkpoint first: pg_basebackup's own would be spread)
q "CHECKPOINT"
cluster_standby vstandby $((base + 1)) vprimary

# 1. a backfill under load: UpdateTable while the writers run; the index
# BACKFILLING for 2 s (so that DescribeTable is seen to show it), then built
# (the table rewritten, the writes of that moment waiting)
cluster_psql vprimary -d postgres -c "ALTER SYSTEM SET hroe.vector_index_build_delay = '2s'" \
	-c "SELECT pg_reload_conf()" >/dev/null
load 5 vbf &
pid=$!
sleep 1
out=$(q "SELECT hroe.dynamodb('UpdateTable', '{\"TableName\": \"vbf\", $defs, \"VectorIndexUpdates\": [$(indexes euc "")]}')")
case $out in *__type*) bad "UpdateTable: $out" ;; esac
seen=
for _ in $(seq 1 300); do
	s=$(q "SELECT x ->> 'IndexStatus' || coalesce('/' || (x ->> 'Backfilling'), '')
	       FROM jsonb_array_elements(hroe.dynamodb('DescribeTable', '{\"TableName\": \"vbf\"}') -> 'Table' -> 'VectorIndexes') x")
	case " $seen " in *" $s "*) ;; *) seen="$seen $s" ;; esac
	[ "$s" = ACTIVE ] && break
	sleep 0.1
done
wait "$pid"
echo "     backfill: DescribeTable showed$seen; $(processed vbf) writes during the load"
case "$seen" in
*"CREATING/true ACTIVE") ok "DescribeTable walked CREATING with Backfilling true, then ACTIVE" ;;
*) bad "DescribeTable did not walk CREATING with Backfilling true, then ACTIVE:$seen" ;;
esac
cluster_psql vprimary -d postgres -c "ALTER SYSTEM RESET hroe.vector_index_build_delay" \
	-c "SELECT pg_reload_conf()" >/dev/null
# (the second index, on the load's end: SearchSchema HASH)
q "SELECT hroe.dynamodb('UpdateTable', '{\"TableName\": \"vbf\", $defs, \"VectorIndexUpdates\": [$(indexes bytenant "$tenant_schema")]}')" >/dev/null
wait_active vbf
check_table vbf "after a backfill under load"

# 2. a crash of the primary mid-load, and mid-backfill: an index "late" of
# vbf BACKFILLING (its build's delay held long) when the postmaster dies
cluster_psql vprimary -d postgres -c "ALTER SYSTEM SET hroe.vector_index_build_delay = '1h'" \
	-c "SELECT pg_reload_conf()" >/dev/null
q "SELECT hroe.dynamodb('UpdateTable', '{\"TableName\": \"vbf\", $defs, \"VectorIndexUpdates\": [$(indexes late "")]}')" >/dev/null
for _ in $(seq 1 300); do
	[ "$(q "SELECT x ->> 'Backfilling' FROM jsonb_array_elements(hroe.dynamodb('DescribeTable', '{\"TableName\": \"vbf\"}') -> 'Table' -> 'VectorIndexes') x
	        WHERE x ->> 'IndexName' = 'late'")" = true ] && break
	sleep 0.1
done
load 3 vcr &
pid=$!
sleep 2
cluster_kill vprimary
wait "$pid" || true
cluster_start vprimary
echo "     crash: $(processed vcr) writes before the kill"
check_table vcr "after kill -9 mid-load and crash recovery"
# the interrupted backfill, resumed by the maintenance worker
cluster_psql vprimary -d postgres -c "ALTER SYSTEM RESET hroe.vector_index_build_delay" \
	-c "ALTER SYSTEM SET hroe.ttl_database = 'hroe_vec'" -c "ALTER SYSTEM SET hroe.ttl_naptime = 1" \
	-c "SELECT pg_reload_conf()" >/dev/null
if wait_active vbf; then
	sed 's/"euc"/"late"/' "$work/queries.sql" | grep '"late"' >"$work/late.sql"
	grep '"euc"' "$work/queries.sql" >"$work/euc.sql"
	if [ "$(sed "s/\"TABLE\"/\"vbf\"/" "$work/euc.sql" | cluster_psql vprimary -d hroe_vec)" = \
		"$(sed "s/\"TABLE\"/\"vbf\"/" "$work/late.sql" | cluster_psql vprimary -d hroe_vec)" ]; then
		ok "a backfill the crash interrupted is resumed by the maintenance worker: ACTIVE, answering as index euc"
	else
		bad "the resumed index late answers otherwise than euc"
	fi
else
	bad "a backfill the crash interrupted is never resumed"
fi

# 3. the standby, caught up with the primary after its recovery (it
# followed the backfill, the load and the crash)
lsn=$(q "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 300); do
	[ "$(cluster_psql vstandby -d postgres -c "SELECT coalesce(pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '$lsn') >= 0, false)")" = t ] && break
	sleep 0.1
done
{ answers vprimary vbf; answers vprimary vcr; } >"$work/primary.txt"
{ answers vstandby vbf; answers vstandby vcr; } >"$work/standby.txt"
if [ -s "$work/primary.txt" ] && ! grep -q __type "$work/primary.txt" && cmp -s "$work/primary.txt" "$work/standby.txt"; then
	ok "SearchVectors on the standby answers as on the primary (80 searches)"
else
	bad "SearchVectors on the standby differs from the primary"
	diff "$work/primary.txt" "$work/standby.txt" | head -5
fi
check_table vbf "on the standby, after the backfill" vstandby
check_table vcr "on the standby, after the crash" vstandby
if out=$(on=vstandby q "SELECT hroe.dynamodb('PutItem', '{\"TableName\": \"vcr\", \"Item\": {\"pk\": {\"S\": \"sb\"}, \"v\": {\"L\": [{\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}, {\"N\": \"1\"}]}}}')" 2>&1); then
	bad "a PutItem on the standby was not refused: $out"
elif echo "$out" | grep -q "read-only transaction" && [ "$(on=vstandby q "SELECT 1")" = 1 ]; then
	ok "a PutItem on the standby is refused cleanly: $(echo "${out#ERROR:  }" | head -1)"
else
	bad "a PutItem on the standby failed otherwise: $out"
fi
# (and no UpdateTable starts a build there)
if out=$(on=vstandby q "SELECT hroe.dynamodb('UpdateTable', '{\"TableName\": \"vcr\", $defs, \"VectorIndexUpdates\": [$(indexes euc2 "")]}')" 2>&1); then
	bad "an UpdateTable on the standby was not refused: $out"
elif echo "$out" | grep -q "read-only transaction" && [ "$(on=vstandby q "SELECT 1")" = 1 ]; then
	ok "an UpdateTable creating a vector index on the standby is refused cleanly"
else
	bad "an UpdateTable on the standby failed otherwise: $out"
fi
exit $fail
