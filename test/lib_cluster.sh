# test/lib_cluster.sh: several throwaway PostgreSQL 15 clusters side by side
# on this machine (sourced, not run), for the tests and scripts of hroe beyond
# one server (replicas, partition servers, failover).
#
# Every cluster lives in $CLUSTER_WORK/<name> (data in .../data, its socket
# and log beside it), listens on its own Unix socket directory only (no TCP:
# no port can clash with another run) and loads hroe from the stage the
# suite's cluster uses ($HROE_STAGE, else that cluster's extension_destdir,
# else the system install).  As root, the clusters belong to postgres.
#
#   cluster_setup               creates $CLUSTER_WORK; cluster_cleanup on exit
#   cluster_init NAME [PORT]    initdb (trust, UTF8, C.UTF-8)
#   cluster_start NAME [OPT...] pg_ctl start (OPT: more "-c name=value")
#   cluster_stop NAME [MODE]    pg_ctl stop (fast unless MODE)
#   cluster_kill NAME           kill -9 of the postmaster (children die with it)
#   cluster_standby NAME PORT PRIMARY [APPNAME]
#                               a hot standby of PRIMARY (pg_basebackup -R),
#                               started; APPNAME its application_name
#   cluster_promote NAME        pg_ctl promote, waits until it accepts writes
#   cluster_conninfo NAME [DB]  a libpq connection string for it
#   cluster_psql NAME ARGS...   psql -X -At -v ON_ERROR_STOP=1 on it
#   cluster_cleanup             stops every cluster and removes $CLUSTER_WORK
#                               (with HROE_CLUSTER_LOGS set, it first copies
#                               each cluster's server log into that folder:
#                               test/sanitize.sh scans them)
CLUSTER_BIN=${CLUSTER_BIN:-/usr/lib/postgresql/15/bin}
declare -A CLUSTER_PORTS=()

# the stage hroe is loaded from ('' = the system install)
cluster_stage() {
	if [ -n "${HROE_STAGE:-}" ]; then
		echo "$HROE_STAGE"
	else
		psql -XAtq -c "SHOW extension_destdir" 2>/dev/null || true
	fi
}

# run a server program as the clusters' owner
cluster_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		(cd "$CLUSTER_WORK" && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

cluster_setup() {
	CLUSTER_WORK=$(mktemp -d /tmp/hroe-clusters.XXXXXX)
	chmod 755 "$CLUSTER_WORK"
	[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK"
	CLUSTER_STAGE=$(cluster_stage)
	trap cluster_cleanup EXIT
}

cluster_cleanup() {
	local name
	for name in "${!CLUSTER_PORTS[@]}"; do
		# (a cluster already stopped or killed makes pg_ctl fail: not an error
		# here, under set -e of the test)
		cluster_as_owner "$CLUSTER_BIN/pg_ctl" -D "$CLUSTER_WORK/$name/data" -m immediate stop \
			>/dev/null 2>&1 || true
		if [ -n "${HROE_CLUSTER_LOGS:-}" ] && [ -f "$CLUSTER_WORK/$name/server.log" ]; then
			cp "$CLUSTER_WORK/$name/server.log" "$HROE_CLUSTER_LOGS/${CLUSTER_WORK##*.}-$name.log" || true
		fi
	done
	[ -n "${CLUSTER_WORK:-}" ] && rm -rf "$CLUSTER_WORK"
}

cluster_port() { echo "${CLUSTER_PORTS[$1]}"; }
cluster_dir() { echo "$CLUSTER_WORK/$1"; }
cluster_conninfo() {
	echo "host=$CLUSTER_WORK/$1 port=${CLUSTER_PORTS[$1]} user=postgres dbname=${2:-postgres}"
}
cluster_psql() {
	local name=$1
	shift
	"$CLUSTER_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$CLUSTER_WORK/$name" \
		-p "${CLUSTER_PORTS[$name]}" -U postgres "$@"
}

cluster_init() {
	local name=$1 port=${2:-5432}
	mkdir -p "$CLUSTER_WORK/$name"
	[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK/$name"
	CLUSTER_PORTS[$name]=$port
	cluster_as_owner "$CLUSTER_BIN/initdb" -D "$CLUSTER_WORK/$name/data" -A trust -U postgres \
		--encoding=UTF8 --locale=C.UTF-8 >"$CLUSTER_WORK/$name/initdb.log" 2>&1 ||
		{ cat "$CLUSTER_WORK/$name/initdb.log" >&2; return 1; }
}

# the options every cluster starts with: its socket, no TCP, hroe from the
# stage (preloaded for its Time to Live worker), replication allowed
cluster_options() {
	local name=$1 pkglib
	pkglib=$(pg_config --pkglibdir)
	echo "-c port=${CLUSTER_PORTS[$name]} -c listen_addresses='' -c unix_socket_directories='$CLUSTER_WORK/$name'" \
		"-c extension_destdir='$CLUSTER_STAGE' -c shared_preload_libraries='$CLUSTER_STAGE$pkglib/hroe.so'" \
		"-c wal_level=replica -c max_wal_senders=10 -c hot_standby=on -c fsync=on"
}

cluster_start() {
	local name=$1
	shift
	cluster_as_owner "$CLUSTER_BIN/pg_ctl" -D "$CLUSTER_WORK/$name/data" \
		-l "$CLUSTER_WORK/$name/server.log" -w -t 60 -o "$(cluster_options "$name") $*" start \
		>>"$CLUSTER_WORK/$name/pg_ctl.log" 2>&1 ||
		{ tail -20 "$CLUSTER_WORK/$name/server.log" >&2; return 1; }
}

cluster_stop() {
	cluster_as_owner "$CLUSTER_BIN/pg_ctl" -D "$CLUSTER_WORK/$1/data" -m "${2:-fast}" -w stop \
		>>"$CLUSTER_WORK/$1/pg_ctl.log" 2>&1
}

cluster_kill() {
	local pid
	pid=$(head -1 "$CLUSTER_WORK/$1/data/postmaster.pid" 2>/dev/null) || return 1
	kill -9 "$pid"
	# wait for its children, which exit once they see the postmaster gone
	for _ in $(seq 1 100); do
		pgrep -P "$pid" >/dev/null 2>&1 || kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
}

cluster_standby() {
	local name=$1 port=$2 primary=$3 app=${4:-$1}
	mkdir -p "$CLUSTER_WORK/$name"
	[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK/$name"
	CLUSTER_PORTS[$name]=$port
	cluster_as_owner "$CLUSTER_BIN/pg_basebackup" -D "$CLUSTER_WORK/$name/data" -R -X stream \
		-d "$(cluster_conninfo "$primary") application_name=$app" \
		>"$CLUSTER_WORK/$name/basebackup.log" 2>&1 ||
		{ cat "$CLUSTER_WORK/$name/basebackup.log" >&2; return 1; }
	cluster_start "$name"
}

cluster_promote() {
	cluster_as_owner "$CLUSTER_BIN/pg_ctl" -D "$CLUSTER_WORK/$1/data" -w -t 60 promote \
		>>"$CLUSTER_WORK/$1/pg_ctl.log" 2>&1
}
