# test/lib_partition.sh: hroe's distributed tables on clusters of
# test/lib_cluster.sh (sourced, not run; source lib_cluster.sh first).
#
#   partition_setup COORDINATOR DBNAME PARTITION...
#       creates DBNAME (unless it exists) on every cluster named, installs hroe
#       there, and registers each PARTITION cluster on COORDINATOR as a
#       postgres_fdw foreign server of the same name (extensions 'hroe',
#       async_capable), with a user mapping for postgres, dblink for hroe's
#       remote DDL, and hroe.partition_servers set on DBNAME, so that every
#       table CreateTable makes there afterwards is hash-partitioned over the
#       PARTITION clusters (doc/partitioning.md)
#   partition_servers           the partition servers of the last setup
PARTITION_SERVERS=()

partition_createdb() {
	local name=$1 db=$2
	if [ "$(cluster_psql "$name" -d postgres -c "SELECT count(*) FROM pg_database WHERE datname = '$db'")" = 0 ]; then
		cluster_psql "$name" -d postgres -c "CREATE DATABASE \"$db\""
	fi
	cluster_psql "$name" -d "$db" -c 'CREATE EXTENSION IF NOT EXISTS hroe'
}

partition_setup() {
	local coordinator=$1 db=$2 part list=""
	shift 2
	[ $# -ge 1 ] || { echo "partition_setup: no partition cluster" >&2; return 1; }
	PARTITION_SERVERS=("$@")
	partition_createdb "$coordinator" "$db"
	cluster_psql "$coordinator" -d "$db" -c 'CREATE EXTENSION IF NOT EXISTS postgres_fdw' \
		-c 'CREATE EXTENSION IF NOT EXISTS dblink'
	for part in "$@"; do
		partition_createdb "$part" "$db"
		# the socket directory is the host: no TCP (lib_cluster.sh)
		cluster_psql "$coordinator" -d "$db" \
			-c "CREATE SERVER \"$part\" FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '$(cluster_dir "$part")', port '$(cluster_port "$part")', dbname '$db', extensions 'hroe', async_capable 'true', fetch_size '1000', connect_timeout '5')" \
			-c "CREATE USER MAPPING FOR postgres SERVER \"$part\" OPTIONS (user 'postgres')"
		list+="${list:+,}$part"
	done
	cluster_psql "$coordinator" -d "$db" -c "ALTER DATABASE \"$db\" SET hroe.partition_servers = '$list'"
}

partition_servers() { echo "${PARTITION_SERVERS[*]}"; }
