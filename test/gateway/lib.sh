# test/gateway/lib.sh: shared steps of the gateway tests (sourced by
# test/t_gateway*.sh inside the suite's cluster, PG* variables set).
#
# gw_setup DB   a database with hroe, the gateway's login role, a role with
#               grants (key $GW_KEY/$GW_SECRET) and one without
#               (key $GW_NOGRANT_KEY/$GW_SECRET)
# gw_start DB   starts gateway/hroe-gateway on a free port of HROE_GW_PORTS
#               (default 8000-8099) with
#               the access log in $GW_WORK/access.log; sets GW_URL, GW_PID
# gw_free_port  a free port of HROE_GW_PORTS
# gw_stop       SIGTERM, waits for the exit (fails the test if it is not 0)
# gw_env        AWS_* variables for the SDKs and the CLI
# gw_clusters   test/lib_cluster.sh's clusters (sourced first) with the
#               gateway's cleanup on exit
# raw ARGS      test/gateway/raw.py send ARGS against $GW_URL (signed)
# client ARGS   test/gateway/replica_client.py $GW_URL ARGS

GW_BIN=${GW_BIN:-$PWD/gateway/hroe-gateway}
GW_KEY=gwtestkey
GW_SECRET=gwtestsecret
GW_NOGRANT_KEY=gwnogrant
GW_LOGIN=hroe_gw_login
GW_LOGIN_PASSWORD=gw_login_pw
GW_WORK=$(mktemp -d /tmp/hroe-gw-test.XXXXXX)
chmod 755 "$GW_WORK"
GW_PID=

gw_cleanup() {
	[ -n "$GW_PID" ] && kill -TERM "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
	[ -n "${GW_DB:-}" ] && psql -XAtq -d postgres -c "DROP DATABASE IF EXISTS $GW_DB" >/dev/null 2>&1
	rm -rf "$GW_WORK"
}
trap gw_cleanup EXIT

# gw_grant_transfer_roles: gw_app may export to and import from S3's files
# (hroe_export and hroe_import, created here where the cluster lacks them)
gw_grant_transfer_roles() {
	psql -XAtq -d postgres -v ON_ERROR_STOP=1 >/dev/null <<-SQL
		DO \$\$ BEGIN
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_export') THEN CREATE ROLE hroe_export NOLOGIN; END IF;
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hroe_import') THEN CREATE ROLE hroe_import NOLOGIN; END IF;
		END \$\$;
		GRANT hroe_export, hroe_import TO gw_app;
	SQL
}

gw_setup() {
	GW_DB=$1
	psql -XAtq -d postgres -v ON_ERROR_STOP=1 >/dev/null <<-SQL || return 1
		DROP DATABASE IF EXISTS $GW_DB;
		CREATE DATABASE $GW_DB ENCODING 'UTF8' TEMPLATE template0;
		DO \$\$ BEGIN
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$GW_LOGIN') THEN
				CREATE ROLE $GW_LOGIN LOGIN PASSWORD '$GW_LOGIN_PASSWORD';
			END IF;
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gw_app') THEN
				CREATE ROLE gw_app NOLOGIN;
			END IF;
			IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'gw_nogrant') THEN
				CREATE ROLE gw_nogrant NOLOGIN;
			END IF;
		END \$\$;
		GRANT gw_app, gw_nogrant TO $GW_LOGIN;
	SQL
	psql -XAtq -d "$GW_DB" -v ON_ERROR_STOP=1 >/dev/null <<-SQL || return 1
		CREATE EXTENSION hroe;
		-- the login role reads the keys; the app role owns its schema
		GRANT USAGE ON SCHEMA hroe TO $GW_LOGIN, gw_app;
		GRANT SELECT ON hroe.access_keys TO $GW_LOGIN;
		-- CreateTable, UpdateTable, DeleteTable write hroe's metadata (a stream's too)
		GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes, hroe.vector_indexes, hroe.streams TO gw_app;
		GRANT USAGE ON SEQUENCE hroe.stream_ids TO gw_app;
		CREATE SCHEMA gw_app AUTHORIZATION gw_app;
		SELECT hroe.create_access_key('gw_app', '$GW_KEY', '$GW_SECRET');
		SELECT hroe.create_access_key('gw_nogrant', '$GW_NOGRANT_KEY', '$GW_SECRET');
	SQL
}

# gw_free_port: a free port in HROE_GW_PORTS (default 8000-8099), probed
# from a random start (suites run side by side would otherwise race for the
# same first free port)
gw_free_port() {
	local range=${HROE_GW_PORTS:-8000-8099}
	local lo=${range%-*} hi=${range#*-}
	local count=$((hi - lo + 1)) port n=0
	port=$((lo + RANDOM % count))
	while ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; do
		port=$((lo + (port - lo + 1) % count))
		n=$((n + 1))
		[ $n -ge $count ] && { echo "no free port in $range" >&2; return 1; }
	done
	echo "$port"
}

gw_start() {
	local port
	port=$(gw_free_port) || return 1
	"$GW_BIN" --port "$port" --pool-size "${GW_POOL:-4}" \
		--dbname "host=${PGHOST:-localhost} port=$PGPORT dbname=$1 user=$GW_LOGIN password=$GW_LOGIN_PASSWORD" \
		--access-log "$GW_WORK/access.log" "${@:2}" 2>>"$GW_WORK/gateway.log" &
	GW_PID=$!
	GW_URL=http://127.0.0.1:$port
	case " $* " in *" --tls-cert "*) GW_URL=https://127.0.0.1:$port ;; esac
	for _ in $(seq 1 100); do
		curl -sk -o /dev/null "$GW_URL/" && return 0
		kill -0 "$GW_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "hroe-gateway did not start:"; cat "$GW_WORK/gateway.log"
	return 1
}

gw_stop() {
	local rc
	kill -TERM "$GW_PID"
	wait "$GW_PID"
	rc=$?
	GW_PID=
	if [ $rc -ne 0 ]; then
		echo "FAIL hroe-gateway exited with $rc"; cat "$GW_WORK/gateway.log"
		return 1
	fi
	echo "ok   hroe-gateway stopped on SIGTERM (exit 0)"
}

# check LABEL CMD...: runs CMD, prints ok/FAIL with LABEL, counts failures
GW_FAILURES=0
check() {
	local label=$1
	shift
	if "$@" >"$GW_WORK/check.out" 2>&1; then
		echo "ok   $label"
	else
		echo "FAIL $label"; sed 's/^/    /' "$GW_WORK/check.out" | head -20
		GW_FAILURES=$((GW_FAILURES + 1))
	fi
}

# has PATTERN CMD...: CMD succeeds and its output matches PATTERN (ERE)
has() {
	local pattern=$1
	shift
	"$@" >"$GW_WORK/has.out" 2>&1 || { cat "$GW_WORK/has.out"; return 1; }
	grep -qE -- "$pattern" "$GW_WORK/has.out" || { cat "$GW_WORK/has.out"; return 1; }
}

# expect_error PATTERN CMD...: CMD fails and its output matches PATTERN
expect_error() {
	local pattern=$1
	shift
	"$@" >"$GW_WORK/err.out" 2>&1 && { echo "succeeded, expected $pattern"; cat "$GW_WORK/err.out"; return 1; }
	grep -qE -- "$pattern" "$GW_WORK/err.out" || { cat "$GW_WORK/err.out"; return 1; }
}

# gw_scenario DB CMD...: a database, a gateway, CMD (given the gateway's URL
# as its last argument), SIGTERM; exits with the outcome
gw_scenario() {
	local db=$1 rc
	shift
	gw_setup "$db" || exit 1
	gw_start "$db" || exit 1
	gw_env
	"$@" "$GW_URL"
	rc=$?
	gw_stop || rc=1
	exit $rc
}

gw_env() {
	export AWS_ACCESS_KEY_ID=$GW_KEY AWS_SECRET_ACCESS_KEY=$GW_SECRET AWS_DEFAULT_REGION=us-east-1 \
		AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true AWS_PAGER= \
		AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
	unset AWS_SESSION_TOKEN AWS_PROFILE
}

# gw_clusters: cluster_setup, and on exit the gateway's cleanup then the
# clusters' (the database goes with the clusters: no DROP DATABASE waiting
# for a dead synchronous standby)
gw_clusters() {
	cluster_setup
	trap 'GW_DB=; gw_cleanup; cluster_cleanup' EXIT
}

raw() { /usr/bin/python3 test/gateway/raw.py "$GW_URL" send "$@"; }
client() { /usr/bin/python3 test/gateway/replica_client.py "$GW_URL" "$@"; }
