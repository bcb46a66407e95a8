#!/usr/bin/env bash
# test/t_fresh_account.sh: CREATE EXTENSION hroe alone is a fresh DynamoDB
# account: no DynamoDB table and nothing of the HR/OE showcase (the
# extension hroe_hr), and ListTables answers [] through each front end, SQL
# (hroe.dynamodb), hroe-gateway and the in-server HTTP workers; on a cluster
# of its own (test/lib_cluster.sh), restarted with hroe.http_port set for the
# workers.  Then CREATE EXTENSION hroe_hr adds the showcase's six tables,
# listed by both front ends, and DROP EXTENSION hroe_hr with DeleteTable of
# its tables leaves an empty account again.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
port=${HROE_CLUSTER_PORT:-5835}
db=hroe_fresh
cluster_init fresh "$port" || exit 1
cluster_start fresh || exit 1
export PGHOST=$CLUSTER_WORK/fresh PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
gw_env
sql() { psql -XAtq -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }
showcase='"TableNames":\["Customer","Employee","Order","Product","RepQuarterTotal","hroe_single"\]'

# SQL
check "SQL: ListTables answers [] (hroe.dynamodb)" has '^\{"TableNames": \[\]\}$' \
	sql "SELECT hroe.dynamodb('ListTables', '{}')"
check "SQL: no DynamoDB table, no index, no showcase schema or function, no extension but hroe" has '^0 0 0 0 hroe$' \
	sql "SELECT concat_ws(' ', (SELECT count(*) FROM hroe.tables), (SELECT count(*) FROM hroe.indexes),
		(SELECT count(*) FROM pg_namespace WHERE nspname IN ('hroe_normalized', 'hroe_multi', 'hroe_single')),
		(SELECT count(*) FROM pg_proc WHERE proname IN ('load', 'compare', 'prng') AND pronamespace = 'hroe'::regnamespace),
		(SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension WHERE extname <> 'plpgsql'))"

# hroe-gateway
gw_start "$db" || exit 1
check "hroe-gateway: ListTables answers []" has '^200 crc32-ok \{"TableNames":\[\]\}$' raw ListTables '{}'
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# the in-server HTTP workers
http_port=$(gw_free_port) || exit 1
cluster_stop fresh
cluster_start fresh -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" -c hroe.http_database="$db" \
	-c hroe.http_workers=1 || exit 1
workers_url=http://127.0.0.1:$http_port
GW_URL=$workers_url
for _ in $(seq 1 150); do
	curl -s -o /dev/null "$GW_URL/" && break
	sleep 0.1
done
check "in-server HTTP workers: ListTables answers []" has '^200 crc32-ok \{"TableNames":\[\]\}$' raw ListTables '{}'

# the showcase, an extension of its own
sql "SET client_min_messages = warning; CREATE EXTENSION hroe_hr" >/dev/null
check "CREATE EXTENSION hroe_hr: SQL lists the showcase's six tables" has \
	'^\{"TableNames": \["Customer", "Employee", "Order", "Product", "RepQuarterTotal", "hroe_single"\]\}$' \
	sql "SELECT hroe.dynamodb('ListTables', '{}')"
check "... and so do the workers" has "^200 crc32-ok \{$showcase\}$" raw ListTables '{}'
gw_start "$db" || exit 1
check "... and hroe-gateway" has "^200 crc32-ok \{$showcase\}$" raw ListTables '{}'
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# and dropped again (README "Installation"): the engine is left, and
# DeleteTable removes the metadata the dropped tables leave
GW_URL=$workers_url
sql "DROP EXTENSION hroe_hr; SELECT count(hroe.delete_table(t)) FROM unnest('{Customer,Employee,Order,Product,RepQuarterTotal,hroe_single}'::text[]) t" >/dev/null
check "DROP EXTENSION hroe_hr, then DeleteTable of its tables: the workers' ListTables answers [] again" has \
	'^200 crc32-ok \{"TableNames":\[\]\}$' raw ListTables '{}'

[ "$GW_FAILURES" -eq 0 ] || { echo "$GW_FAILURES check(s) failed"; exit 1; }
echo "a fresh database with hroe alone is an empty DynamoDB account through each front end"
