# test/lib_autofailover.sh: a pg_auto_failover formation on this machine
# (sourced after test/lib_cluster.sh, not run): a monitor, a primary and a
# synchronous secondary, each run by its own `pg_autoctl run` (Debian's
# postgresql-15-auto-failover), all in $CLUSTER_WORK (throwaway), on
# 127.0.0.1 and one shared Unix socket directory, as postgres when root.
# The election is pg_auto_failover's: nothing here promotes anything.
#
# The data nodes load hroe from the stage (shared_preload_libraries by its
# staged path, extension_destdir), set in the primary's postgresql.auto.conf
# before pg_autoctl registers it, so the secondary's pg_basebackup copies
# them; pg_autoctl's own settings (postgresql-auto-failover.conf) come from
# an include in postgresql.conf, and its ALTER SYSTEM of
# synchronous_standby_names keeps the other lines of postgresql.auto.conf.
#
#   af_monitor PORT              creates and runs the monitor (after
#                                cluster_setup; the caller's EXIT trap
#                                calls af_cleanup)
#   af_timeouts                  short health checks and keeper timeouts
#                                (a test's: see doc/failover.md)
#   af_node NAME PORT [GUC...]   creates and runs a data node (the first is
#                                the primary, the next its secondary); GUCs
#                                ("name=value") go to the first node's
#                                postgresql.auto.conf (copied to the next)
#   af_wait_state NAME STATE [S] waits up to S seconds (default 120) until
#                                the monitor reports NAME in STATE
#   af_state NAME                its reported state (primary, secondary, ...)
#   af_primary                   the name of the node the monitor has as primary
#   af_pids NAME                 the node's pg_autoctl processes and its
#                                postmaster with its children
#   af_show                      pg_autoctl show state
#   af_conninfo DB               a multi-host connection string of the data
#                                nodes (target_session_attrs=read-write)
AF_BIN=/usr/bin/pg_autoctl
AF_HOST=127.0.0.1
declare -A AF_PORTS=() AF_PIDS=()
AF_NODES=()

af_ctl() {
	cluster_as_owner env XDG_CONFIG_HOME="$CLUSTER_WORK/af/config" XDG_DATA_HOME="$CLUSTER_WORK/af/data" \
		XDG_RUNTIME_DIR="$CLUSTER_WORK/af/run" PGHOST="$CLUSTER_WORK/sock" \
		PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config "$AF_BIN" "$@"
}

af_dirs() {
	local d
	for d in af af/config af/data af/run sock; do
		mkdir -p "$CLUSTER_WORK/$d"
		chmod 700 "$CLUSTER_WORK/$d"
		[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK/$d"
	done
	chmod 755 "$CLUSTER_WORK/sock"
}

# stops every pg_autoctl (SIGTERM stops its Postgres too; a stopped one is
# continued first), then lib_cluster's cleanup
af_cleanup() {
	local name pid all=()
	for name in "${!AF_PIDS[@]}"; do
		for pid in $(af_pids "$name"); do
			all+=("$pid")
			kill -CONT "$pid" 2>/dev/null
		done
		kill -TERM "${AF_PIDS[$name]}" 2>/dev/null
	done
	for name in "${!AF_PIDS[@]}"; do
		for _ in $(seq 1 100); do
			kill -0 "${AF_PIDS[$name]}" 2>/dev/null || break
			sleep 0.1
		done
	done
	# what outlived its supervisor (pg_autoctl's postgres controller)
	[ ${#all[@]} -gt 0 ] && kill -KILL "${all[@]}" 2>/dev/null
	cluster_cleanup
}

af_run() {
	local name=$1
	cluster_as_owner env XDG_CONFIG_HOME="$CLUSTER_WORK/af/config" XDG_DATA_HOME="$CLUSTER_WORK/af/data" \
		XDG_RUNTIME_DIR="$CLUSTER_WORK/af/run" PGHOST="$CLUSTER_WORK/sock" \
		"$AF_BIN" run --pgdata "$CLUSTER_WORK/$name/data" >>"$CLUSTER_WORK/$name/autoctl.log" 2>&1 &
	AF_PIDS[$name]=$!
	disown "${AF_PIDS[$name]}"  # a node crashed by kill -9 is no job to report
}

af_monitor() {
	local port=$1
	af_dirs
	mkdir -p "$CLUSTER_WORK/monitor"
	[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK/monitor"
	AF_PORTS[monitor]=$port
	af_initdb monitor || return 1
	af_ctl create monitor --pgdata "$CLUSTER_WORK/monitor/data" --pgport "$port" \
		--pgctl "$CLUSTER_BIN/pg_ctl" --hostname "$AF_HOST" --auth trust --no-ssl \
		>"$CLUSTER_WORK/monitor/autoctl.log" 2>&1 ||
		{ tail -20 "$CLUSTER_WORK/monitor/autoctl.log" >&2; return 1; }
	af_run monitor
	AF_MONITOR="postgres://autoctl_node@$AF_HOST:$port/pg_auto_failover?sslmode=disable"
	for _ in $(seq 1 300); do
		af_mon_psql -c "SELECT 1" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	tail -20 "$CLUSTER_WORK/monitor/autoctl.log" >&2
	return 1
}

af_mon_psql() {
	"$CLUSTER_BIN/psql" -X -q -At -h "$CLUSTER_WORK/sock" -p "${AF_PORTS[monitor]}" -U autoctl_node \
		-d pg_auto_failover "$@"
}

# The monitor's health checks (a node is probed every second, a failed probe
# retried once after 0.5 s, each waiting at most 1 s, and unhealthy once its
# keeper has not reported for 3 s) instead of 5 s, 2 retries, 20 s; the
# secondary promoted 6 s after the primary was found unhealthy instead of
# 30 s (primary_demote_timeout), and for the nodes created next a keeper
# that reaches neither the monitor nor a standby for 3 s demotes its
# primary (network_partition_timeout, 20 s) and a promotion waits 2 s for
# the WAL receiver to stop instead of 5: the fencing order is kept (a cut off
# primary demotes itself before the monitor promotes another node).
af_timeouts() {
	AF_SHORT=1
	"$CLUSTER_BIN/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$CLUSTER_WORK/sock" -p "${AF_PORTS[monitor]}" \
		-U postgres -d postgres >/dev/null <<-SQL
		ALTER SYSTEM SET pgautofailover.health_check_period = 1000;
		ALTER SYSTEM SET pgautofailover.health_check_timeout = 1000;
		ALTER SYSTEM SET pgautofailover.health_check_max_retries = 1;
		ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500;
		ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000;
		ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 6000;
		SELECT pg_reload_conf();
	SQL
}

# initdb (trust, UTF8, C.UTF-8), the socket in $CLUSTER_WORK/sock only
af_initdb() {
	cluster_as_owner "$CLUSTER_BIN/initdb" -D "$CLUSTER_WORK/$1/data" -A trust -U postgres \
		--encoding=UTF8 --locale=C.UTF-8 >"$CLUSTER_WORK/$1/initdb.log" 2>&1 ||
		{ cat "$CLUSTER_WORK/$1/initdb.log" >&2; return 1; }
	echo "unix_socket_directories = '$CLUSTER_WORK/sock'" >>"$CLUSTER_WORK/$1/data/postgresql.auto.conf"
}

af_node() {
	local name=$1 port=$2 guc
	shift 2
	mkdir -p "$CLUSTER_WORK/$name"
	[ "$(id -u)" -eq 0 ] && chown postgres "$CLUSTER_WORK/$name"
	AF_PORTS[$name]=$port
	CLUSTER_PORTS[$name]=$port
	if [ ${#AF_NODES[@]} -eq 0 ]; then
		# the primary: our initdb, hroe's settings, then pg_autoctl takes it
		af_initdb "$name" || return 1
		{
			echo "extension_destdir = '$CLUSTER_STAGE'"
			echo "shared_preload_libraries = '$CLUSTER_STAGE$(pg_config --pkglibdir)/hroe.so'"
			for guc in "$@"; do echo "${guc%%=*} = '${guc#*=}'"; done
		} >>"$CLUSTER_WORK/$name/data/postgresql.auto.conf"
	fi
	af_ctl create postgres --pgdata "$CLUSTER_WORK/$name/data" --pgport "$port" --pgctl "$CLUSTER_BIN/pg_ctl" \
		--hostname "$AF_HOST" --listen "$AF_HOST" --name "$name" --monitor "$AF_MONITOR" --auth trust --no-ssl \
		--username postgres --dbname postgres \
		>"$CLUSTER_WORK/$name/autoctl.log" 2>&1 ||
		{ tail -20 "$CLUSTER_WORK/$name/autoctl.log" >&2; return 1; }
	if [ -n "${AF_SHORT:-}" ]; then
		af_ctl config set --pgdata "$CLUSTER_WORK/$name/data" timeout.network_partition_timeout 3 >/dev/null &&
			af_ctl config set --pgdata "$CLUSTER_WORK/$name/data" timeout.prepare_promotion_walreceiver 2 \
				>/dev/null || return 1
	fi
	AF_NODES+=("$name")
	af_run "$name"
}

af_state() {
	af_mon_psql -c "SELECT reportedstate FROM pgautofailover.node WHERE nodename = '$1'"
}
af_primary() {
	af_mon_psql -c "SELECT nodename FROM pgautofailover.node
		WHERE reportedstate IN ('primary', 'wait_primary') AND goalstate IN ('primary', 'wait_primary')"
}
af_show() { af_ctl show state --pgdata "$CLUSTER_WORK/${AF_NODES[0]}/data" 2>&1; }

af_wait_state() {
	local name=$1 state=$2 secs=${3:-120}
	for _ in $(seq 1 $((secs * 10))); do
		[ "$(af_state "$name" 2>/dev/null)" = "$state" ] && return 0
		sleep 0.1
	done
	echo "$name is not $state after $secs s:" >&2
	af_show >&2
	return 1
}

af_tree() {
	local pid
	echo "$1"
	for pid in $(pgrep -P "$1" 2>/dev/null); do af_tree "$pid"; done
}
af_pids() {
	local name=$1 pm
	[ -n "${AF_PIDS[$name]:-}" ] && af_tree "${AF_PIDS[$name]}"
	pm=$(head -1 "$CLUSTER_WORK/$name/data/postmaster.pid" 2>/dev/null) || return 0
	af_tree "$pm"
}

af_conninfo() {
	local hosts="" ports="" name
	for name in "${AF_NODES[@]}"; do
		hosts="$hosts${hosts:+,}$AF_HOST"
		ports="$ports${ports:+,}${AF_PORTS[$name]}"
	done
	echo "host=$hosts port=$ports dbname=$1 target_session_attrs=read-write"
}
