#!/usr/bin/env bash
# test/t_no_preload.sh: hroe without shared_preload_libraries.  CreateTable's
# SQL reads the setting hroe.partition_servers, which hroe.so defines when a
# backend loads it; a session whose first hroe call is an SQL or PL/pgSQL
# function has not loaded it yet (the setting is read as missing-ok: none).
# Each check below runs in a fresh session of a cluster started without the
# preload: CreateTable by hroe.create_table, the showcase extension created
# in a database that already has hroe.  Starts a cluster of its own
# (test/lib_cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
. test/lib_cluster.sh
cluster_setup
trap 'cluster_cleanup' EXIT
base=$(free_port $((${PGPORT:-5841} + 3)))
cluster_init plain "$base"
# (the last -c of a setting wins: no library preloaded)
cluster_start plain -c shared_preload_libraries=
fail=0
check() {
	local what=$1 want=$2 got
	got=$(cluster_psql plain -d hroe_np -XAtq -c "$3" 2>&1) || true
	if [ "$got" = "$want" ]; then echo "ok   $what"; else echo "FAIL $what: $got"; fail=1; fi
}
cluster_psql plain -d postgres -XAtq -c "SHOW shared_preload_libraries" | grep -q hroe &&
	{ echo "FAIL the cluster preloads hroe"; exit 1; }
cluster_psql plain -d postgres -c "CREATE DATABASE hroe_np" >/dev/null
cluster_psql plain -d hroe_np -c "CREATE EXTENSION hroe" >/dev/null
check "hroe.create_table as a session's first call" "np_t1" \
	"SELECT hroe.create_table('np_t1', 'pk', 'S')::text"
check "CREATE EXTENSION hroe_hr in a database that has hroe" "created" \
	"CREATE EXTENSION hroe_hr; SELECT 'created'"
[ "$fail" -eq 0 ] && echo "t_no_preload: ok" || { echo "t_no_preload: FAILED"; exit 1; }
