#!/usr/bin/env bash
# test/t_upgrade.sh: ALTER EXTENSION hroe UPDATE from every earlier release.
# For each earlier release (upgrade/hroe--V.sql): install it, load the HR/OE models
# and a table of one's own with GSIs (items whose keys exercise every key
# column), update to the default version as README "Updating" says (ALTER
# EXTENSION hroe UPDATE; the showcase, part of hroe up to 0.2, then adopted
# by its own extension: CREATE EXTENSION hroe_hr VERSION '0.2', ALTER
# EXTENSION hroe_hr UPDATE), and check
#   - the catalog equals a fresh CREATE EXTENSION hroe_hr CASCADE's
#     (test/upgrade/catalog.sql: both extensions, every member, function
#     property and library, column, constraint, index, policy, ACL and
#     comment), and so do hroe.tables and hroe.indexes;
#   - the models were updated in place: the same relations, their rows kept;
#   - the data survived: hroe.verify() clean, every pattern answers as
#     before the update, the table's items, GSI queries and writes work.
# hroe.so exports no name of the earlier releases' install scripts
# (item_in, key_cmp, ...; test/t_release_build.sh), and the update needs
# none: each earlier release is installed on a server running the library
# that also has them (make HROE_LEGACY=1, as that release's own library
# had), which is then restarted on hroe.so, as a user's server is after
# installing the new release, before the update.
# Runs inside the test cluster (PG* variables set), whose hroe it builds
# on; the databases are in a cluster of its own (test/lib_cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
cluster_setup
work=$(mktemp -d)
trap 'rm -rf "$work"; cluster_cleanup' EXIT
fresh=hroe_t_upgrade_fresh
old=hroe_t_upgrade_old
# the stage with the legacy library in place of hroe.so
default_stage=$CLUSTER_STAGE
legacy_stage=$CLUSTER_WORK/stage-legacy
pkglib=$(pg_config --pkglibdir)
mkdir -p "$legacy_stage" && cp -a "$default_stage/." "$legacy_stage/"
make -s legacy-library LEGACY_OUT="$work" >/dev/null
cp "$work/hroe.so" "$legacy_stage$pkglib/hroe.so"
chmod -R a+rX "$legacy_stage"
# start the cluster on one library or the other
running=
on_library() {
	if [ -n "$running" ]; then cluster_stop upg; fi
	CLUSTER_STAGE=$1
	cluster_start upg
	running=yes
}
cluster_init upg
export PGHOST=$CLUSTER_WORK/upg PGPORT=${CLUSTER_PORTS[upg]} PGUSER=postgres PGDATABASE=postgres
unset PGPASSWORD PGSERVICE
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$1" -c "$2"; }
current=$(sed -n "s/^default_version = '\(.*\)'/\1/p" hroe.control)
# (TableIds are random, and a fresh table is on demand since its creation)
metadata="SELECT string_agg(format('%s %s', table_name, to_jsonb(t) - 'created_at' - 'relid' - 'table_id' - 'pay_per_request_since'), E'\n' ORDER BY table_name) FROM hroe.tables t
	UNION ALL SELECT string_agg(format('%s.%s %s', table_name, index_name, to_jsonb(x) - 'created_at'), E'\n' ORDER BY table_name, index_name) FROM hroe.indexes x
	UNION ALL SELECT string_agg(to_jsonb(p)::text, E'\n' ORDER BY pattern_no) FROM hroe.access_patterns p
	UNION ALL SELECT string_agg(to_jsonb(r)::text, E'\n' ORDER BY model, pattern) FROM hroe.model_requests r"
# the models' relations (the same ones, by OID) and their row counts
relations="SELECT format('%s %s %s', c.oid, c.oid::regclass, (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %s', c.oid::regclass), false, false, '')))[1])
	FROM pg_class c WHERE c.relnamespace::regnamespace::text IN ('hroe_normalized', 'hroe_multi', 'hroe_single') AND c.relkind = 'r'
	ORDER BY c.oid::regclass::text"
answers="SELECT string_agg(concat_ws(' ', pattern, case_label, model, result_rows, fingerprint), E'\n'
	ORDER BY pattern_no, case_label, model) FROM hroe.compare(NULL, NULL, 1) WHERE kind = 'read'"

on_library "$default_stage"
dropdb --if-exists "$fresh"
createdb "$fresh"
q "$fresh" "SET client_min_messages = warning; CREATE EXTENSION hroe_hr CASCADE"
psql -X -q -v ON_ERROR_STOP=1 -At -d "$fresh" -f test/upgrade/catalog.sql >"$work/fresh.catalog"
q "$fresh" "$metadata" >"$work/fresh.metadata"
echo "fresh $current: $(wc -l <"$work/fresh.catalog") catalog lines"

shopt -s nullglob
# every earlier release (its install script as released, upgrade/hroe--V.sql),
# updated along PostgreSQL's chain of upgrade scripts to the current version
releases=()
for script in upgrade/hroe--*.sql; do
	case "$script" in *--*--*) continue ;; esac
	from=$(basename "$script" .sql)
	releases+=("${from#hroe--}")
done
[ ${#releases[@]} -gt 0 ] || { echo "no earlier release in upgrade/"; exit 1; }
[ -f "upgrade/hroe--${releases[-1]}--$current.sql" ] ||
	{ echo "no upgrade script from ${releases[-1]} to $current in upgrade/"; exit 1; }
for from in "${releases[@]}"; do
	on_library "$legacy_stage"
	dropdb --if-exists "$old"
	createdb "$old"
	q "$old" "SET client_min_messages = warning; CREATE EXTENSION hroe VERSION '$from'"
	q "$old" "SET client_min_messages = warning; SELECT count(*) FROM hroe.load(1, 42)" >/dev/null
	# a table of one's own: S partition and N sort keys, two GSIs, items
	# whose partition keys are short, long (2,000 bytes) and in between
	q "$old" "SELECT hroe.create_table('Mine', 'PK', 'S', 'SK', 'N');
		SELECT hroe.create_index('Mine', 'ByOwnr', '{Ownr}', '{SK}', '{\"Ownr\": \"S\"}');
		SELECT hroe.create_index('Mine', 'ByTag', '{Tag}', '{}', '{\"Tag\": \"S\"}', 'KEYS_ONLY');
		SELECT count(hroe.put_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"%s\"}, \"Ownr\": {\"S\": \"o%s\"}, \"Tag\": {\"S\": \"%s\"}, \"V\": {\"N\": \"%s\"}}',
				CASE WHEN i % 3 = 0 THEN repeat('p', 2000) || i WHEN i % 3 = 1 THEN repeat('q', 300) || i ELSE 'P' || i END,
				i % 7, i % 5, repeat('t', 1 + i % 400), i)::hroe.item))
		FROM generate_series(1, 300) i" >/dev/null
	mine="SELECT string_agg(i::text, E'\n' ORDER BY i::text) FROM hroe.scan('Mine') i
		UNION ALL SELECT string_agg(i::text, E'\n') FROM hroe.query('Mine', 'Ownr = :o AND SK > :s', '{\":o\": {\"S\": \"o3\"}, \":s\": {\"N\": \"2\"}}', p_index_name => 'ByOwnr') i
		UNION ALL SELECT hroe.get_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"5\"}}', repeat('p', 2000) || 12)::jsonb, true)::text"
	# keys holding U+0001, which 0.2 stores escaped (src/types/key.h): the update
	# computes their key columns again, and only theirs
	q "$old" "SELECT hroe.create_table('MineNul', 'PK', 'S', 'SK', 'S');
		SELECT hroe.put_item('MineNul', '{\"PK\": {\"S\": \"u\\u0001\"}, \"SK\": {\"S\": \"\\u0001\"}}'::hroe.item);
		SELECT hroe.put_item('MineNul', '{\"PK\": {\"S\": \"v\"}, \"SK\": {\"S\": \"w\"}}'::hroe.item)" >/dev/null
	nulrel=$(q "$old" "SELECT relid::regclass FROM hroe.tables WHERE table_name = 'MineNul'")
	ctids="SELECT string_agg(ctid::text, ' ' ORDER BY hroe.item_get_text(item, 'PK')) FROM $nulrel"
	before_ctids=$(q "$old" "$ctids")
	q "$old" "$answers" >"$work/before.answers"
	q "$old" "$mine" >"$work/before.mine"
	q "$old" "$relations" >"$work/before.relations"
	# the new release installed: the server restarted on hroe.so, which lacks
	# the old names: until the update, the functions of $from are not found
	on_library "$default_stage"
	if err=$(q "$old" "SELECT 'a'::hroe.key" 2>&1); then
		echo "FAIL $from: a function of $from still works on hroe.so before the update"; exit 1
	fi
	case "$err" in *"could not find function"*) ;; *) echo "FAIL $from: before the update: $err"; exit 1 ;; esac
	q "$old" "SET client_min_messages = warning; ALTER EXTENSION hroe UPDATE"
	got=$(q "$old" "SELECT extversion FROM pg_extension WHERE extname = 'hroe'")
	[ "$got" = "$current" ] || { echo "FAIL $from: version after update is $got, not $current"; exit 1; }
	echo "ok   $from -> $current: updated on hroe.so, which has none of $from's C names"
	# the showcase, left in place by hroe's update, adopted by hroe_hr
	q "$old" "SET client_min_messages = warning; CREATE EXTENSION hroe_hr VERSION '0.2'; ALTER EXTENSION hroe_hr UPDATE"
	got=$(q "$old" "SELECT extversion FROM pg_extension WHERE extname = 'hroe_hr'")
	[ "$got" = "$current" ] || { echo "FAIL $from: hroe_hr's version after update is $got, not $current"; exit 1; }
	q "$old" "$relations" >"$work/after.relations"
	diff "$work/before.relations" "$work/after.relations" ||
		{ echo "FAIL $from -> $current: the models' relations or their rows changed"; exit 1; }
	echo "ok   $from -> $current: hroe_hr adopted the models in place ($(wc -l <"$work/after.relations") relations, rows kept)"
	psql -X -q -v ON_ERROR_STOP=1 -At -d "$old" -f test/upgrade/catalog.sql >"$work/old.catalog"
	if ! diff "$work/fresh.catalog" "$work/old.catalog" >"$work/diff"; then
		echo "FAIL $from -> $current: the catalog differs from a fresh installation (< fresh, > updated):"
		cat "$work/diff"
		exit 1
	fi
	echo "ok   $from -> $current: catalog identical to a fresh installation"
	q "$old" "$metadata" >"$work/old.raw"
	grep -v '^Mine' "$work/old.raw" >"$work/old.metadata" || [ $? -eq 1 ]
	diff "$work/fresh.metadata" "$work/old.metadata" ||
		{ echo "FAIL $from -> $current: hroe.tables / hroe.indexes differ from a fresh installation"; exit 1; }
	echo "ok   $from -> $current: model metadata identical"
	# the tables of the earlier release: a TableId each, on demand since
	# their creation, described as DynamoDB describes them
	got=$(q "$old" "SELECT count(*) FROM hroe.tables WHERE pay_per_request_since IS DISTINCT FROM created_at
		OR billing_mode <> 'PAY_PER_REQUEST' OR (SELECT count(DISTINCT table_id) FROM hroe.tables) <> (SELECT count(*) FROM hroe.tables)")
	[ "$got" = 0 ] || { echo "FAIL $from -> $current: $got tables without their own TableId or billing mode"; exit 1; }
	got=$(q "$old" "SELECT hroe.describe_table('Mine') -> 'Table' ?& '{TableId,TableArn,CreationDateTime,ProvisionedThroughput,BillingModeSummary,DeletionProtectionEnabled}'
		AND hroe.describe_table('Mine') #>> '{Table,TableId}' = (SELECT table_id::text FROM hroe.tables WHERE table_name = 'Mine')
		AND hroe.describe_table('Mine') #> '{Table,CreationDateTime}' = to_jsonb(extract(epoch FROM (SELECT created_at FROM hroe.tables WHERE table_name = 'Mine')))")
	[ "$got" = t ] || { echo "FAIL $from -> $current: DescribeTable of a table of $from lacks TableId, ARN, creation time or billing"; exit 1; }
	echo "ok   $from -> $current: tables of $from have a TableId, their creation time, PAY_PER_REQUEST"
	after_ctids=$(q "$old" "$ctids")
	if [ "$from" = 0.1 ]; then
		[ "${before_ctids#* }" = "${after_ctids#* }" ] && [ "${before_ctids%% *}" != "${after_ctids%% *}" ] ||
			{ echo "FAIL $from -> $current: the rows of keys with U+0001 were not (alone) rewritten: $before_ctids, then $after_ctids"; exit 1; }
	else
		[ "$before_ctids" = "$after_ctids" ] ||
			{ echo "FAIL $from -> $current: rows of keys with U+0001 rewritten again: $before_ctids, then $after_ctids"; exit 1; }
	fi
	got=$(q "$old" "SELECT hroe.get_item('MineNul', '{\"PK\": {\"S\": \"u\\u0001\"}, \"SK\": {\"S\": \"\\u0001\"}}', true) IS NOT NULL")
	[ "$got" = t ] || { echo "FAIL $from -> $current: the item of a key with U+0001 is not found"; exit 1; }
	echo "ok   $from -> $current: the key columns of keys with U+0001 computed again, those alone"
	got=$(q "$old" "SELECT count(*) FROM hroe.verify()")
	[ "$got" = 0 ] || { echo "FAIL $from -> $current: hroe.verify() finds $got problems"; exit 1; }
	q "$old" "$answers" >"$work/after.answers"
	diff "$work/before.answers" "$work/after.answers" ||
		{ echo "FAIL $from -> $current: pattern answers changed"; exit 1; }
	echo "ok   $from -> $current: hroe.verify() clean, $(wc -l <"$work/after.answers") pattern answers unchanged"
	# the generator, now hroe_hr's library, loads the same data again
	q "$old" "SET client_min_messages = warning; SELECT count(*) FROM hroe.load(1, 42)" >/dev/null
	q "$old" "$answers" >"$work/reloaded.answers"
	diff "$work/before.answers" "$work/reloaded.answers" ||
		{ echo "FAIL $from -> $current: hroe.load after the update gives other answers"; exit 1; }
	echo "ok   $from -> $current: hroe.load after the update loads the same data"
	q "$old" "$mine" >"$work/after.mine"
	diff "$work/before.mine" "$work/after.mine" ||
		{ echo "FAIL $from -> $current: the table's items or queries changed"; exit 1; }
	[ "$(tail -1 "$work/after.mine")" != "" ] || { echo "FAIL $from -> $current: the long-key item is not found"; exit 1; }
	echo "ok   $from -> $current: scan, GSI query and GetItem of a 2,000-byte key unchanged"
	# writes after the update: overwrite, update, delete of long and short keys
	q "$old" "SELECT hroe.put_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"3\"}, \"Ownr\": {\"S\": \"o1\"}}', repeat('p', 2000) || 3)::hroe.item);
		SELECT hroe.update_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"1\"}}', repeat('q', 300) || 1)::jsonb, 'ADD V :one', p_expression_attribute_values => '{\":one\": {\"N\": \"1\"}}');
		SELECT hroe.delete_item('Mine', '{\"PK\": {\"S\": \"P2\"}, \"SK\": {\"N\": \"2\"}}')" >/dev/null
	got=$(q "$old" "SELECT count(*) FROM hroe.scan('Mine')")
	[ "$got" = 299 ] || { echo "FAIL $from -> $current: $got items after one delete of 300"; exit 1; }
	got=$(q "$old" "SELECT hroe.get_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"3\"}}', repeat('p', 2000) || 3)::jsonb, true)::jsonb ? 'V'")
	[ "$got" = f ] || { echo "FAIL $from -> $current: PutItem did not replace the item of a 2,000-byte key"; exit 1; }
	got=$(q "$old" "SELECT (hroe.get_item('Mine', format('{\"PK\": {\"S\": \"%s\"}, \"SK\": {\"N\": \"1\"}}', repeat('q', 300) || 1)::jsonb, true)::jsonb -> 'V')")
	[ "$got" = '{"N": "2"}' ] || { echo "FAIL $from -> $current: UpdateItem ADD after the update gave $got"; exit 1; }
	q "$old" "CREATE EXTENSION IF NOT EXISTS amcheck;
		SELECT count(bt_index_check(i.indexrelid, true)) FROM pg_index i JOIN hroe.tables t ON t.relid = i.indrelid" >/dev/null
	echo "ok   $from -> $current: writes after the update, amcheck clean on every index"
done
