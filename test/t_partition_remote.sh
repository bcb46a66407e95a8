#!/usr/bin/env bash
# test/t_partition_remote.sh: hroe's own read path for distributed tables
# (src/tables/remote_read.c, doc/partitioning.md "hroe's own read path") on
# three throwaway clusters of test/lib_cluster.sh, a coordinator and two
# partition servers (test/lib_partition.sh):
#   - an oracle: GetItems, Queries (table, LSI, GSI, both directions, with
#     ExclusiveStartKey) and Scans paged to their end, random, answered the
#     same through hroe's own path and through postgres_fdw
#     (hroe.remote_reads off), and the own path really used (its connections,
#     application_name hroe_remote_read, on both servers; postgres_fdw's none);
#     inside a transaction block, postgres_fdw's path;
#   - a role that is not superuser, with a password in its user mapping
#     (the servers ask one): reads; ALTER USER MAPPING closes its connection
#     (a new one, a wrong password refused, the right one again accepted);
#     a user mapping without password refused ("password is required"), as
#     postgres_fdw refuses it; a role without user mapping refused;
#   - a GetItem calls the server's hroe.item_by_key (its log), whose answers
#     for that role equal postgres_fdw's and the server's own local GetItem's
#     with the role granted, under row-level security, with column
#     privileges only and without SELECT; its refusals of what is not a
#     table's key; a server without it (an older hroe): the SELECT instead;
#   - a remote backend stopped mid-read: statement_timeout cancels the read;
#     then killed with its server mid-read: the read fails with a connection
#     error (SQLSTATE class 08, the gateway's InternalServerError), and after
#     the server's restart the same session reads again (a new connection).
# Clusters: sockets HROE_PARTITION_PORT.. (default 5872-5874).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/lib_partition.sh
cluster_setup
base=${HROE_PARTITION_PORT:-5872}
cluster_init coord "$base"
cluster_start coord
cluster_init part1 $((base + 1))
cluster_start part1
cluster_init part2 $((base + 2))
cluster_start part2
db=hroe_remote
partition_setup coord "$db" part1 part2
C() { cluster_psql coord -d "$db" "$@"; }
ddb() { C -c "SELECT hroe.dynamodb('$1', \$j\$$2\$j\$)"; }
fail() { echo "t_partition_remote: $*" >&2; exit 1; }
# connections of application_name $2 on partition server $1
conns() {
	cluster_psql "$1" -d "$db" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$2'"
}

ddb CreateTable '{"TableName": "Music", "BillingMode": "PAY_PER_REQUEST",
 "AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"},
  {"AttributeName": "Song", "AttributeType": "S"}, {"AttributeName": "Year", "AttributeType": "N"}],
 "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"}, {"AttributeName": "Song", "KeyType": "RANGE"}],
 "GlobalSecondaryIndexes": [{"IndexName": "ByYear", "KeySchema": [{"AttributeName": "Year", "KeyType": "HASH"},
  {"AttributeName": "Song", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}],
 "LocalSecondaryIndexes": [{"IndexName": "ArtistYear", "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"},
  {"AttributeName": "Year", "KeyType": "RANGE"}], "Projection": {"ProjectionType": "ALL"}}]}' >/dev/null
ddb CreateTable '{"TableName": "Nums", "BillingMode": "PAY_PER_REQUEST",
 "AttributeDefinitions": [{"AttributeName": "n", "AttributeType": "N"}, {"AttributeName": "b", "AttributeType": "B"}],
 "KeySchema": [{"AttributeName": "n", "KeyType": "HASH"}, {"AttributeName": "b", "KeyType": "RANGE"}]}' >/dev/null
C -c "SELECT setseed(0.36)" -c "SELECT count(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'Music', 'Item',
	jsonb_build_object('Artist', jsonb_build_object('S', 'artist' || i % 37), 'Song', jsonb_build_object('S', 'song' || i),
	'Year', jsonb_build_object('N', (1990 + i % 7)::text), 'Pad', jsonb_build_object('S', repeat('x', (random() * 3000)::int))))))
	FROM generate_series(1, 1500) i" >/dev/null
C -c "SELECT count(hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'Nums', 'Item',
	jsonb_build_object('n', jsonb_build_object('N', (i % 23 - 11)::text || '.5'), 'b', jsonb_build_object('B', encode(int4send(i), 'base64'))))))
	FROM generate_series(1, 400) i" >/dev/null

# --- the oracle: random requests, their whole answers (every page) both ways
C <<'SQL' >/dev/null
-- every page of a request, followed by its LastEvaluatedKey, as one text
CREATE FUNCTION pages(op text, req jsonb) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	page jsonb;
	answer text := '';
	n int := 0;
BEGIN
	LOOP
		page := hroe.dynamodb(op, req);
		answer := answer || page::text || E'\n';
		n := n + 1;
		EXIT WHEN page->'LastEvaluatedKey' IS NULL OR n > 2000;
		req := req || jsonb_build_object('ExclusiveStartKey', page->'LastEvaluatedKey');
	END LOOP;
	RETURN answer;
END $$;
CREATE TABLE oracle (id int PRIMARY KEY, op text, req jsonb);
SELECT setseed(0.5);
INSERT INTO oracle
SELECT i, 'GetItem', jsonb_build_object('TableName', 'Music', 'Key', jsonb_build_object(
	'Artist', jsonb_build_object('S', 'artist' || (random() * 40)::int), 'Song', jsonb_build_object('S', 'song' || (random() * 1600)::int)))
FROM generate_series(1, 60) i;
INSERT INTO oracle
SELECT 100 + i, 'GetItem', jsonb_build_object('TableName', 'Nums', 'Key', jsonb_build_object(
	'n', jsonb_build_object('N', ((random() * 24)::int - 11)::text || '.5'), 'b', jsonb_build_object('B', encode(int4send((random() * 420)::int), 'base64'))))
FROM generate_series(1, 30) i;
INSERT INTO oracle
SELECT 200 + i, 'Query', jsonb_build_object('TableName', 'Music', 'Limit', 1 + (random() * 7)::int,
	'ScanIndexForward', random() < 0.5,
	'KeyConditionExpression', 'Artist = :a AND Song > :s',
	'ExpressionAttributeValues', jsonb_build_object(':a', jsonb_build_object('S', 'artist' || (random() * 37)::int),
	                                               ':s', jsonb_build_object('S', 'song' || (random() * 1500)::int)))
FROM generate_series(1, 40) i;
INSERT INTO oracle
SELECT 300 + i, 'Query', jsonb_build_object('TableName', 'Music', 'IndexName', 'ArtistYear', 'Limit', 1 + (random() * 5)::int,
	'ScanIndexForward', random() < 0.5,
	'KeyConditionExpression', 'Artist = :a AND #y BETWEEN :y1 AND :y2', 'ExpressionAttributeNames', '{"#y": "Year"}'::jsonb,
	'ExpressionAttributeValues', jsonb_build_object(':a', jsonb_build_object('S', 'artist' || (random() * 37)::int),
	                                               ':y1', '{"N": "1991"}'::jsonb, ':y2', '{"N": "1994"}'::jsonb))
FROM generate_series(1, 20) i;
INSERT INTO oracle
SELECT 400 + i, 'Query', jsonb_build_object('TableName', 'Music', 'IndexName', 'ByYear', 'Limit', 1 + (random() * 90)::int,
	'ScanIndexForward', random() < 0.5,
	'KeyConditionExpression', '#y = :y AND begins_with(Song, :p)', 'ExpressionAttributeNames', '{"#y": "Year"}'::jsonb,
	'ExpressionAttributeValues', jsonb_build_object(':y', jsonb_build_object('N', (1990 + (random() * 6)::int)::text),
	                                               ':p', jsonb_build_object('S', 'song' || (random() * 9)::int)))
FROM generate_series(1, 20) i;
INSERT INTO oracle
SELECT 500 + i, 'Scan', jsonb_build_object('TableName', CASE WHEN i % 3 = 0 THEN 'Nums' ELSE 'Music' END,
	'Limit', 1 + (random() * 700)::int)
FROM generate_series(1, 12) i;
INSERT INTO oracle VALUES (600, 'Scan', '{"TableName": "Music"}'),
	(601, 'Scan', '{"TableName": "Music", "FilterExpression": "#y = :y", "ExpressionAttributeNames": {"#y": "Year"}, "ExpressionAttributeValues": {":y": {"N": "1993"}}}'),
	(602, 'Query', '{"TableName": "Music", "IndexName": "ByYear", "KeyConditionExpression": "#y = :y", "ExpressionAttributeNames": {"#y": "Year"}, "ExpressionAttributeValues": {":y": {"N": "1992"}}, "ScanIndexForward": false}');
SQL
answers() {
	C -q -c "SET hroe.remote_reads = $1" \
		-c "SELECT id, md5(pages(op, req)), length(pages(op, req)) FROM oracle ORDER BY id" \
		-c "SELECT 'own', count(*) FROM dblink('$(cluster_conninfo part1 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)" \
		-c "SELECT 'own', count(*) FROM dblink('$(cluster_conninfo part2 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)"
}
answers on >"$CLUSTER_WORK/own.out"
answers off >"$CLUSTER_WORK/fdw.out"
[ "$(grep -Ec '^[0-9]+\|' "$CLUSTER_WORK/own.out")" = 185 ] || fail "oracle: $(grep -Ec '^[0-9]+\|' "$CLUSTER_WORK/own.out") answers"
diff <(grep -v '^own' "$CLUSTER_WORK/own.out") <(grep -v '^own' "$CLUSTER_WORK/fdw.out") ||
	fail "oracle: answers differ between hroe's own path and postgres_fdw"
echo "oracle: $(grep -vc '^own' "$CLUSTER_WORK/own.out") requests, every page answered the same both ways" \
	"($(awk -F'|' '!/^own/ { s += $3 } END { print s }' "$CLUSTER_WORK/own.out") bytes of answers)"
[ "$(grep '^own' "$CLUSTER_WORK/own.out" | tr '\n' ' ')" = "own|1 own|1 " ] ||
	fail "the own path was not used on both servers: $(grep '^own' "$CLUSTER_WORK/own.out" | tr '\n' ' ')"
[ "$(grep '^own' "$CLUSTER_WORK/fdw.out" | tr '\n' ' ')" = "own|0 own|0 " ] ||
	fail "hroe.remote_reads = off used the own path"
# inside a transaction block: postgres_fdw (its remote transaction's snapshot)
out=$(C -q -c "BEGIN" -c "SELECT md5(pages(op, req)) FROM oracle WHERE id = 600" \
	-c "SELECT count(*) FROM dblink('$(cluster_conninfo part1 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)" -c "COMMIT")
[ "$(echo "$out" | sed -n 1p)" = "$(grep '^600|' "$CLUSTER_WORK/own.out" | cut -d'|' -f2)" ] || fail "the Scan in a transaction block"
[ "$(echo "$out" | sed -n 2p)" = 0 ] || fail "a read in a transaction block took the own path"
# a TransactGetItems: postgres_fdw (one snapshot per server)
out=$(C -c "SELECT hroe.dynamodb('TransactGetItems', '{\"TransactItems\": [{\"Get\": {\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"artist1\"}, \"Song\": {\"S\": \"song1\"}}}},
	{\"Get\": {\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"artist2\"}, \"Song\": {\"S\": \"song2\"}}}}]}')->'Responses'->1->'Item'->'Song'->>'S'" \
	-c "SELECT count(*) FROM dblink('$(cluster_conninfo part1 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)" \
	-c "SELECT count(*) FROM dblink('$(cluster_conninfo part2 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)")
[ "$(echo $out)" = "song2 0 0" ] || fail "a TransactGetItems took the own path: $out"
# after a write in the same statement: postgres_fdw, which sees the write
[ "$(C -c "SELECT hroe.dynamodb('PutItem', '{\"TableName\": \"Music\", \"Item\": {\"Artist\": {\"S\": \"new\"}, \"Song\": {\"S\": \"w\"}}}')::text
	|| (hroe.dynamodb('GetItem', '{\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"new\"}, \"Song\": {\"S\": \"w\"}}}')->'Item'->'Song'->>'S')")" = '{}w' ] || fail "a GetItem after a PutItem in one statement"

# --- a role that is not superuser, its password in its user mapping
for p in part1 part2; do
	cluster_psql $p -d "$db" -c "CREATE ROLE app LOGIN PASSWORD 'secret-1'" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO app" \
		-c "GRANT USAGE ON SCHEMA hroe TO app"
	# the servers ask app for its password
	sed -i '1i local all app scram-sha-256' "$CLUSTER_WORK/$p/data/pg_hba.conf"
	cluster_psql $p -d postgres -c 'SELECT pg_reload_conf()' >/dev/null
done
C -c "CREATE ROLE app LOGIN" -c "CREATE ROLE nomap LOGIN" -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO app, nomap" \
	-c "GRANT USAGE ON SCHEMA hroe TO app, nomap" -c "GRANT USAGE ON FOREIGN SERVER part1, part2 TO app" \
	-c "CREATE USER MAPPING FOR app SERVER part1 OPTIONS (user 'app', password 'secret-1')" \
	-c "CREATE USER MAPPING FOR app SERVER part2 OPTIONS (user 'app', password 'secret-1')" >/dev/null
# a key on each server
on() { C -c "SELECT 'artist' || i FROM generate_series(0, 36) i
	WHERE satisfies_hash_partition('public.\"Music\"'::regclass, 2, $1, ('artist' || i)::hroe.key) LIMIT 1"; }
k1=$(on 0)
song1=$(C -c "SELECT 'song' || i FROM generate_series(1, 1500) i WHERE 'artist' || i % 37 = '$k1' LIMIT 1")
get1="SELECT hroe.dynamodb('GetItem', '{\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"$k1\"}, \"Song\": {\"S\": \"$song1\"}}}')->'Item'->'Song'->>'S'"
pid1="SELECT pid FROM dblink('$(cluster_conninfo part1 "$db")', \$\$SELECT pid FROM pg_stat_activity WHERE application_name = 'hroe_remote_read' AND usename = 'app'\$\$) AS a(pid int)"
out=$(C -q -v ON_ERROR_STOP=0 -c "SET ROLE app" -c "$get1" -c "RESET ROLE" -c "$pid1" -c "SET ROLE app" -c "$get1" -c "RESET ROLE" -c "$pid1" \
	-c "ALTER USER MAPPING FOR app SERVER part1 OPTIONS (SET password 'wrong')" \
	-c "SET ROLE app" -c "$get1" -c "RESET ROLE" \
	-c "ALTER USER MAPPING FOR app SERVER part1 OPTIONS (SET password 'secret-1')" \
	-c "SET ROLE app" -c "$get1" -c "RESET ROLE" -c "$pid1" 2>&1)
echo "$out" | sed 's/^/  app: /'
[ "$(echo "$out" | sed -n 1p)" = "$song1" ] && [ "$(echo "$out" | sed -n 3p)" = "$song1" ] || fail "app's GetItem"
# the same connection while nothing changed, a new one after ALTER USER MAPPING
[ "$(echo "$out" | sed -n 2p)" = "$(echo "$out" | sed -n 4p)" ] || fail "app's connection not kept"
echo "$out" | grep -q 'password authentication failed for user "app"' || fail "the wrong password of the altered mapping not used"
[ "$(echo "$out" | tail -2 | head -1)" = "$song1" ] || fail "app's GetItem with the right password again"
[ "$(echo "$out" | tail -1)" != "$(echo "$out" | sed -n 2p)" ] || fail "ALTER USER MAPPING kept app's connection"
# a mapping without password: refused, as postgres_fdw refuses it
C -c "ALTER USER MAPPING FOR app SERVER part1 OPTIONS (DROP password)"
out=$(C -v ON_ERROR_STOP=0 -c "SET ROLE app" -c "$get1" 2>&1 || true)
echo "$out" | grep -q 'ERROR:  password is required' || fail "a mapping without password: $out"
# a role without user mapping: refused
out=$(C -v ON_ERROR_STOP=0 -c "SET ROLE nomap" -c "$get1" 2>&1 || true)
echo "$out" | grep -q 'ERROR:  user mapping not found for "nomap"' || fail "a role without user mapping: $out"
echo "user mappings: ok"

# --- a GetItem is one call of the partition server's hroe.item_by_key (its
# direct btree probe), under the remote role's privileges and row-level
# security as a local GetItem there: the same answers as postgres_fdw's
# SELECT and as the partition server's own GetItem, for the same role
C -c "ALTER USER MAPPING FOR app SERVER part1 OPTIONS (ADD password 'secret-1')"
P1() { cluster_psql part1 -d "$db" "$@"; }
log1=$(wc -c <"$CLUSTER_WORK/part1/server.log")
P1 -c "ALTER DATABASE \"$db\" SET log_statement = 'all'"
[ "$(C -c "$get1")" = "$song1" ] || fail "GetItem with the statements logged"
P1 -c "ALTER DATABASE \"$db\" RESET log_statement"
tail -c +$((log1 + 1)) "$CLUSTER_WORK/part1/server.log" | grep -q 'execute hroe_r[0-9]*: SELECT hroe.item_by_key(' ||
	fail "the own path's GetItem did not call hroe.item_by_key on the server"
song1b=$(C -c "SELECT 'song' || i FROM generate_series(1, 1500) i WHERE 'artist' || i % 37 = '$k1' AND 'song' || i <> '$song1' LIMIT 1")
key() { echo "{\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"$k1\"}, \"Song\": {\"S\": \"$1\"}}}"; }
# the answers of app's GetItems of song1 and song1b: the coordinator's own path,
# postgres_fdw's, and part1's own GetItem of its table (a local one there)
three() {
	# (an answer without item: -, an error answer its __type)
	local q="SELECT string_agg(CASE WHEN x ? 'Item' THEN x->'Item'->'Song'->>'S' WHEN x = '{}' THEN '-' ELSE split_part(x->>'__type', '#', 2) END, ' ')
		FROM (SELECT hroe.dynamodb('GetItem', k::jsonb) x FROM unnest(ARRAY['$(key "$song1")', '$(key "$song1b")']) WITH ORDINALITY u(k, o) ORDER BY o) s"
	{
		C -v ON_ERROR_STOP=0 -c "SET ROLE app" -c "$q" 2>&1 | sed 's/^ERROR: *//; s/^/own: /'
		C -v ON_ERROR_STOP=0 -c "SET hroe.remote_reads = off" -c "SET ROLE app" -c "$q" 2>&1 | sed 's/^ERROR: *//; s/^/fdw: /'
		P1 -v ON_ERROR_STOP=0 -c "SET ROLE app" -c "$q" 2>&1 | sed 's/^ERROR: *//; s/^/local: /'
	} | grep -v '^[a-z]*: CONTEXT' | tr '\n' '|'
}
same() {
	local out=$1 want=$2 what=$3
	echo "  $what: $out"
	[ "$out" = "own: $want|fdw: $want|local: $want|" ] || fail "$what: $out"
}
same "$(three)" "$song1 $song1b" "app, granted"
# row-level security on part1 hiding song1 from app
P1 -c "ALTER TABLE public.\"Music\" ENABLE ROW LEVEL SECURITY" \
	-c "CREATE POLICY not_song1 ON public.\"Music\" TO app USING ((item::jsonb)->'Song'->>'S' <> '$song1')" >/dev/null
same "$(three)" "- $song1b" "app under row-level security"
P1 -c "DROP POLICY not_song1 ON public.\"Music\"" -c "ALTER TABLE public.\"Music\" DISABLE ROW LEVEL SECURITY" >/dev/null
# SELECT on the columns a GetItem reads only: the executor's statement,
# on the coordinator's two paths and in the server's own GetItem alike
P1 -c "REVOKE SELECT ON public.\"Music\" FROM app" -c "GRANT SELECT (pk, sk, item) ON public.\"Music\" TO app" >/dev/null
same "$(three)" "$song1 $song1b" "app with column privileges"
# no SELECT: refused, as the SELECT and the local GetItem refuse it
P1 -c "REVOKE SELECT ON public.\"Music\" FROM app" >/dev/null
same "$(three)" 'AccessDeniedException AccessDeniedException' "app without SELECT"
P1 -c "GRANT SELECT ON public.\"Music\" TO app" >/dev/null
# hroe.item_by_key refuses what is not a hroe table's key
for call in "'Music', '$k1'::hroe.key" "'Music', '$k1'::hroe.key, 1::numeric" \
	"'Music', '$k1'::hroe.key, '$song1'::hroe.key, 'x'::hroe.key" \
	"'Music', VARIADIC ARRAY['$k1'::hroe.key, '$song1'::hroe.key]" "'pg_class', 1::oid"; do
	out=$(P1 -v ON_ERROR_STOP=0 -c "SELECT hroe.item_by_key($call)" 2>&1 || true)
	echo "  hroe.item_by_key($call): $out"
	echo "$out" | grep -q '^ERROR:' || fail "hroe.item_by_key($call) not refused: $out"
done
[ "$(P1 -c "SELECT (hroe.item_by_key('Music', '$k1'::hroe.key, '$song1'::hroe.key)::jsonb)->'Song'->>'S'")" = "$song1" ] ||
	fail "hroe.item_by_key's item"
[ "$(P1 -c "SELECT hroe.item_by_key('Music', '$k1'::hroe.key, 'absent'::hroe.key) IS NULL")" = t ] ||
	fail "hroe.item_by_key of an absent item"
# a partition server whose hroe has no hroe.item_by_key (older): the SELECT
k2=$(on 1)
song2=$(C -c "SELECT 'song' || i FROM generate_series(1, 1500) i WHERE 'artist' || i % 37 = '$k2' LIMIT 1")
get2="SELECT hroe.dynamodb('GetItem', '{\"TableName\": \"Music\", \"Key\": {\"Artist\": {\"S\": \"$k2\"}, \"Song\": {\"S\": \"$song2\"}}}')->'Item'->'Song'->>'S'"
cluster_psql part2 -d "$db" -c 'ALTER FUNCTION hroe.item_by_key(text, "any") RENAME TO item_by_key_hidden'
out=$(C -c "$get2" -c "$get2" -c "SELECT count(*) FROM dblink('$(cluster_conninfo part2 "$db")', \$\$SELECT application_name FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(n text)")
cluster_psql part2 -d "$db" -c 'ALTER FUNCTION hroe.item_by_key_hidden(text, "any") RENAME TO item_by_key'
[ "$(echo $out)" = "$song2 $song2 1" ] || fail "a server without hroe.item_by_key: $out"
echo "hroe.item_by_key: ok"

# --- a remote backend stopped, then killed with its server, mid-read
script=$CLUSTER_WORK/kill.sql
pidq="SELECT pid FROM dblink('$(cluster_conninfo part1 "$db")', \$\$SELECT pid FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'\$\$) AS a(pid int) \\gset"
{
	declare -f cluster_as_owner
	echo "CLUSTER_WORK=$CLUSTER_WORK"
	echo "sleep 1; kill -9 \$PID \$(head -1 $CLUSTER_WORK/part1/data/postmaster.pid)"
} >"$CLUSTER_WORK/kill.sh"
{
	declare -f cluster_as_owner
	echo "CLUSTER_WORK=$CLUSTER_WORK"
	# (until the killed postmaster's children are gone)
	echo "for i in \$(seq 1 60); do sleep 0.5; cluster_as_owner $CLUSTER_BIN/pg_ctl -D $CLUSTER_WORK/part1/data -l $CLUSTER_WORK/part1/server.log -o \"$(cluster_options part1)\" -w -t 60 start >/dev/null 2>&1 && break; done"
} >"$CLUSTER_WORK/restart.sh"
cat >"$script" <<SQL
$get1;
$pidq
\\setenv PID :pid
\\! kill -STOP \$PID
SET statement_timeout = '1s';
$get1;
RESET statement_timeout;
\\! kill -CONT \$PID
$get1;
$pidq
\\setenv PID :pid
\\! kill -STOP \$PID
\\! bash $CLUSTER_WORK/kill.sh >/dev/null 2>&1 &
SELECT hroe.dynamodb('Scan', '{"TableName": "Music"}')->'Count';
\\! bash $CLUSTER_WORK/restart.sh
$get1;
SQL
out=$(timeout 60 "$CLUSTER_BIN/psql" -X -q -At -h "$CLUSTER_WORK/coord" -p "${CLUSTER_PORTS[coord]}" -U postgres -d "$db" -v ON_ERROR_STOP=0 -v VERBOSITY=verbose -f "$script" 2>&1 || true)
echo "$out" | sed 's/^/  kill: /'
echo "$out" | grep -q 'ERROR:  57014: canceling statement due to statement timeout' || fail "statement_timeout did not cancel the read"
[ "$(echo "$out" | grep -c "^$song1\$")" = 3 ] || fail "reads before, between and after"
echo "$out" | grep -Eq 'ERROR:  08[0-9A-Z]{3}: lost the connection to server "part1"' || fail "the read of a killed server"
echo "t_partition_remote: ok"
