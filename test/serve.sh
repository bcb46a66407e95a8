#!/usr/bin/env bash
# test/serve.sh: hroe behind hroe-gateway, for the AWS SDKs and CLI.
#
# On a fresh Debian 12 machine as root: installs what is missing, builds hroe
# and hroe-gateway, starts a throwaway PostgreSQL 15 cluster with hroe in a
# database "hroe", registers one access key and serves DynamoDB's API on
# http://127.0.0.1:${HROE_GATEWAY_PORT:-8000} until Ctrl-C or SIGTERM; then
# stops the gateway and drops the cluster.
#
#   HROE_ACCESS_KEY_ID      the access key id (default hroe)
#   HROE_SECRET_ACCESS_KEY  its secret (default hroesecret)
#   HROE_GATEWAY_PORT       the HTTP port (default 8000, 127.0.0.1 only)
#   HROE_FRONT              gateway (the default: hroe-gateway) or workers
#                           (hroe's in-server HTTP workers, hroe.http_port;
#                           doc/gateway.md "In-server HTTP workers")
#   HROE_SHOWCASE           a scale (e.g. 1): the HR/OE showcase is installed
#                           too (CREATE EXTENSION hroe_hr) and loaded at that
#                           scale, its DynamoDB tables readable by the key;
#                           unset (the default): a fresh account, ListTables
#                           answers []
#
# The key's requests run as the PostgreSQL role hroe_app, which owns the
# schema hroe_app where its tables are created and is granted hroe_export
# and hroe_import (exports, imports, S3's API: hroe.s3_root is a directory
# beside the cluster's data); the gateway logs in as hroe_gateway.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
: "${HROE_ACCESS_KEY_ID:=hroe}" "${HROE_SECRET_ACCESS_KEY:=hroesecret}" "${HROE_GATEWAY_PORT:=8000}"
: "${HROE_FRONT:=gateway}"
export HROE_ACCESS_KEY_ID HROE_SECRET_ACCESS_KEY HROE_GATEWAY_PORT HROE_FRONT
case $HROE_FRONT in gateway | workers) ;; *) echo "HROE_FRONT is gateway or workers" >&2; exit 2 ;; esac

# Inside the cluster (PG* variables set): database, roles, key, gateway.
if [ "${1:-}" = --inner ]; then
	password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	psql -XAtq -d postgres -v ON_ERROR_STOP=1 >/dev/null <<-SQL || exit 1
		CREATE DATABASE hroe ENCODING 'UTF8' TEMPLATE template0;
		CREATE ROLE hroe_gateway LOGIN PASSWORD '$password';
		CREATE ROLE hroe_app NOLOGIN;
		GRANT hroe_app TO hroe_gateway;
		CREATE ROLE hroe_export NOLOGIN;
		CREATE ROLE hroe_import NOLOGIN;
		GRANT hroe_export, hroe_import TO hroe_app;
	SQL
	# S3 (exports, imports and S3's API on the endpoint): a directory the
	# server's user owns, dropped with the cluster's
	datadir=$(psql -XAt -d postgres -c 'SHOW data_directory')
	s3=$(cd "$datadir/.." && pwd)/hroe-s3
	mkdir -p "$s3" && chown "$(stat -c %U "$datadir")" "$s3" || exit 1
	psql -XAtq -d postgres -c "ALTER SYSTEM SET hroe.s3_root = '$s3'" -c "SELECT pg_reload_conf()" >/dev/null || exit 1
	psql -XAtq -d hroe -v ON_ERROR_STOP=1 >/dev/null <<-SQL || exit 1
		CREATE EXTENSION hroe;
		GRANT USAGE ON SCHEMA hroe TO hroe_gateway, hroe_app;
		GRANT SELECT ON hroe.access_keys TO hroe_gateway;
		GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes, hroe.vector_indexes, hroe.streams, hroe.time_to_live TO hroe_app;
		GRANT USAGE ON SEQUENCE hroe.stream_ids TO hroe_app;
		CREATE SCHEMA hroe_app AUTHORIZATION hroe_app;
		SELECT hroe.create_access_key('hroe_app', '$HROE_ACCESS_KEY_ID', '$HROE_SECRET_ACCESS_KEY');
	SQL
	if [ -n "${HROE_SHOWCASE:-}" ]; then
		psql -XAtq -d hroe -v ON_ERROR_STOP=1 -v scale="$HROE_SHOWCASE" >/dev/null <<-'SQL' || exit 1
			SET client_min_messages = warning;
			CREATE EXTENSION hroe_hr;
			SELECT count(*) FROM hroe.load(:'scale', 42);
			GRANT USAGE ON SCHEMA hroe_multi, hroe_single TO hroe_app;
			GRANT SELECT ON ALL TABLES IN SCHEMA hroe_multi, hroe_single TO hroe_app;
		SQL
	fi
	if [ "$HROE_FRONT" = gateway ]; then
		"$HROE_STAGE$(pg_config --bindir)/hroe-gateway" --listen 127.0.0.1 --port "$HROE_GATEWAY_PORT" \
			--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=hroe user=hroe_gateway password=$password" &
		server=$!
		name=hroe-gateway
	else
		# the workers (started with the cluster) connect once the database
		# and the role exist: within their 5-second restart delay
		sleep infinity &
		server=$!
		name="hroe's in-server HTTP workers"
	fi
	echo $$ >"$HROE_SERVE_PIDFILE"
	trap 'kill -TERM $server 2>/dev/null' TERM INT
	for _ in $(seq 1 100); do
		(echo >"/dev/tcp/127.0.0.1/$HROE_GATEWAY_PORT") 2>/dev/null && break
		sleep 0.1
	done
	cat <<-EOT

		$name: DynamoDB's API at http://127.0.0.1:$HROE_GATEWAY_PORT (Ctrl-C to stop)
		  AWS_ACCESS_KEY_ID=$HROE_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY=$HROE_SECRET_ACCESS_KEY AWS_DEFAULT_REGION=us-east-1 \\
		    aws dynamodb list-tables --endpoint-url http://127.0.0.1:$HROE_GATEWAY_PORT
		  PostgreSQL: psql "host=${PGHOST:-localhost} port=$PGPORT dbname=hroe user=$PGUSER" (password $PGPASSWORD)

	EOT
	# the first wait returns when the trap runs; the second for the exit
	wait $server
	wait $server 2>/dev/null
	exit 0
fi

if ! ensure_packages || ! build_stage; then
	echo "hroe: build failed" >&2
	exit 1
fi
export HROE_STAGE
HROE_SERVE_PIDFILE=$(mktemp /tmp/hroe-serve.XXXXXX)
export HROE_SERVE_PIDFILE
trap 'rm -rf "$HROE_STAGE" "$HROE_SERVE_PIDFILE"' EXIT
# SIGTERM to this script reaches the inner one, which stops the gateway and
# returns, so pg_virtualenv drops the cluster as usual
trap 'kill -TERM "$(cat "$HROE_SERVE_PIDFILE" 2>/dev/null)" 2>/dev/null' TERM INT
if [ "$HROE_FRONT" = workers ]; then
	HROE_CLUSTER_OPTS="${HROE_CLUSTER_OPTS:-} -o hroe.http_port=$HROE_GATEWAY_PORT -o hroe.http_database=hroe -o hroe.http_role=hroe_gateway"
	export HROE_CLUSTER_OPTS
fi
in_cluster bash test/serve.sh --inner &
child=$!
wait $child
wait $child 2>/dev/null
