#!/usr/bin/env bash
# test/t_policies.sh: resource-based policies (README "Resource-based
# policies") through both front ends with a real SigV4 client (boto3), on a
# cluster of its own (test/lib_cluster.sh):
# - hroe-gateway: a table's policy denies PutItem to the principal of one
#   access key (arn:aws:iam::<account>:user/gw_app, its role's name): that
#   key's PutItem is refused with DynamoDB's AccessDeniedException text,
#   its GetItem is not; another key of the same role, whose principal name
#   is another, may put;
# - the in-server HTTP workers: the same;
# - pg_dump and a restore into a new database keep the policy: it reads
#   back, and still denies.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
port=${HROE_CLUSTER_PORT:-5831}
db=hroe_policies
cluster_init pol "$port" || exit 1
cluster_start pol || exit 1
export PGHOST=$CLUSTER_WORK/pol PGPORT=$port PGUSER=postgres
gw_setup "$db" || exit 1
# a second key of gw_app whose requests are the IAM user "reporting"
psql -XAtq -d "$db" -v ON_ERROR_STOP=1 -c \
	"SELECT hroe.create_access_key('gw_app', 'polkey2', '$GW_SECRET', 'reporting')" >/dev/null || exit 1
pc() { /usr/bin/python3 test/gateway/policy_client.py "$GW_URL" "$@"; }
denied="^AccessDeniedException User: arn:aws:iam::[0-9]{12}:user/gw_app is not authorized to perform: dynamodb:PutItem on resource: arn:aws:dynamodb:us-east-1:[0-9]{12}:table/pol with an explicit deny in a resource-based policy$"

# front_end NAME: the checks against $GW_URL
front_end() {
	check "$1: CreateTable, PutResourcePolicy (a numeric RevisionId)" has '^ok created, revision numeric: True$' \
		pc "$GW_KEY" "$GW_SECRET" create
	check "$1: GetResourcePolicy reads it back" has '^ok policy dynamodb:PutItem True$' \
		pc "$GW_KEY" "$GW_SECRET" getpolicy
	check "$1: the denied principal's PutItem: AccessDeniedException, DynamoDB's text" has "$denied" \
		pc "$GW_KEY" "$GW_SECRET" put
	check "$1: ... its GetItem is not denied" has '^ok get None$' pc "$GW_KEY" "$GW_SECRET" get
	check "$1: another key (principal user/reporting) may put" has '^ok put$' pc polkey2 "$GW_SECRET" put
	check "$1: ... and only its item was written" has '^polkey2$' \
		psql -XAtq -d "$db" -c "SELECT string_agg(pk::text, ',') FROM gw_app.pol"
}

gw_start "$db" || exit 1
front_end hroe-gateway
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))

# the in-server HTTP workers
http_port=$(gw_free_port) || exit 1
GW_URL=http://127.0.0.1:$http_port
cluster_stop pol
cluster_start pol -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
	-c hroe.http_database="$db" -c hroe.http_workers=1 || exit 1
for _ in $(seq 1 150); do
	curl -sk -o /dev/null "$GW_URL/" && break
	sleep 0.1
done
front_end "in-server workers"

# pg_dump and restore keep the policy (the workers still running: an idle
# worker absorbs DROP DATABASE's ProcSignalBarrier, which waits for every
# process, so the drops below end; 30 s is far beyond what they take)
restored=${db}_restored
timeout 30 psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $restored" -c "CREATE DATABASE $restored ENCODING 'UTF8' TEMPLATE template0" >/dev/null ||
	{ echo "FAIL DROP or CREATE DATABASE beside the workers did not end"; exit 1; }
pg_dump -d "$db" >"$GW_WORK/dump.sql" && psql -XAtq -v ON_ERROR_STOP=1 -d "$restored" -f "$GW_WORK/dump.sql" >/dev/null 2>"$GW_WORK/restore.err"
check "pg_dump and restore: the policy reads back" has '"dynamodb:PutItem".*\|[0-9]+$' \
	psql -XAtq -d "$restored" -c "SELECT policy || '|' || revision_id FROM hroe.get_resource_policy(hroe.table_arn('pol'))"
check "... and still denies gw_app's PutItem" has 'explicit deny in a resource-based policy' \
	psql -XAtq -d "$restored" -c "SET ROLE gw_app" -c "SELECT hroe.dynamodb('PutItem', '{\"TableName\": \"pol\", \"Item\": {\"pk\": {\"S\": \"r\"}}}')"
timeout 30 psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $restored WITH (FORCE)" >/dev/null ||
	{ echo "FAIL DROP DATABASE beside the workers did not end"; exit 1; }

[ "$GW_FAILURES" -eq 0 ] || { echo "$GW_FAILURES check(s) failed"; exit 1; }
echo "all policy checks passed"
