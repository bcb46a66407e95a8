# test/lib.sh: shared steps of the README's two commands (sourced, not run).
#
# ensure_packages  installs what a fresh Debian 12 machine lacks (as root)
# build_stage      builds hroe and installs it into a private staging tree
# in_cluster CMD   runs CMD against a throwaway UTF8 cluster that loads hroe
#                  from the staging tree (the system install is never touched)

# libpq-dev, libmicrohttpd-dev, libssl-dev, zlib1g-dev: hroe-gateway (gateway/);
# libzstd-dev: ImportTable's ZSTD input (src/transfer/)
# libcurl4-openssl-dev: exports and imports to and from an S3-compatible endpoint (src/transfer/transfer_remote.c)
HROE_PACKAGES="make gcc libc6-dev postgresql-15 postgresql-server-dev-15 postgresql-contrib libpq-dev libmicrohttpd-dev libssl-dev zlib1g-dev libzstd-dev libcurl4-openssl-dev"
# what the suite needs beyond the build: clang and libFuzzer (test/t_fuzz.sh);
# the gateway tests' clients (test/t_gateway*.sh): the AWS CLI, boto3, curl,
# openssl (a TLS certificate), and npm for the JavaScript SDK (Debian's npm
# only where no npm is on PATH: a nodejs from elsewhere brings its own and
# conflicts with Debian's); chromium, headless, for the HTML report
# (test/t_main_browser.sh); python3-jsonschema for the design documents
# (test/t_design_schema.sh)
HROE_SUITE_PACKAGES="clang-14 libclang-rt-14-dev awscli python3-boto3 python3-jsonschema curl openssl chromium zstd"
command -v npm >/dev/null 2>&1 || HROE_SUITE_PACKAGES="$HROE_SUITE_PACKAGES npm"
# the Debian packages (make deb, test/deb.sh): debhelper and pg_buildext
# (postgresql-server-dev-all), help2man (the gateway's manual page), lintian
# and systemd's systemd-analyze (test/t_packages.sh checks them and the
# gateway's unit; systemd need not run); the suite builds them too
HROE_DEB_PACKAGES="dpkg-dev debhelper fakeroot postgresql-server-dev-all help2man lintian systemd"
HROE_SUITE_PACKAGES="$HROE_SUITE_PACKAGES $HROE_DEB_PACKAGES"
# pg_auto_failover (pg_autoctl): the automatic failover of test/t_failover.sh
# (test/lib_autofailover.sh, doc/failover.md)
HROE_SUITE_PACKAGES="$HROE_SUITE_PACKAGES postgresql-15-auto-failover"

# Install missing Debian packages; idempotent, quiet when nothing is missing.
ensure_packages() {
	local missing=() p
	for p in $HROE_PACKAGES ${HROE_EXTRA_PACKAGES:-}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "hroe: missing packages: ${missing[*]} (run as root, or install them)" >&2
		return 1
	fi
	echo "hroe: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2 &&
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Build (warnings are errors; ASSERTS=1 for tests) and stage the install.
build_stage() {
	HROE_STAGE=$(mktemp -d /tmp/hroe-stage.XXXXXX)
	chmod 755 "$HROE_STAGE"
	trap 'rm -rf "$HROE_STAGE"' EXIT
	make -s clean >/dev/null 2>&1
	make -s -j2 "$@" >&2 &&
		make -s install DESTDIR="$HROE_STAGE" >/dev/null
}

# First free TCP port from $1 upwards (clusters started side by side must not
# race for the same one).
free_port() {
	local port=${1:-5432}
	while ss -Hltn "sport = :$port" 2>/dev/null | grep -q . ||
		[ -e "/var/run/postgresql/.s.PGSQL.$port" ]; do
		port=$((port + 1))
	done
	echo "$port"
}

# Run a command inside a throwaway cluster that loads hroe from the stage.
# hroe is preloaded (by its staged path: extension_destdir does not apply to
# shared_preload_libraries) for its Time to Live worker, which stays idle
# until hroe.ttl_database names a database (test/t_streams.sh);
# track_commit_timestamp for point-in-time recovery (doc/backups.md).
in_cluster() {
	local port=${HROE_PGPORT:-$(free_port 5432)}
	pg_virtualenv -t -v 15 -c "-p $port" \
		-i "--encoding=UTF8 --locale=C.UTF-8" \
		-o "extension_destdir=$HROE_STAGE" \
		-o "shared_preload_libraries=$HROE_STAGE$(pg_config --pkglibdir)/hroe.so" \
		-o "track_commit_timestamp=on" \
		${HROE_CLUSTER_OPTS:-} \
		"$@"
}

# For a shell test inside the test cluster (PG* variables set): a scratch
# database $1 with hroe (or the extension $2 and what it requires: hroe_hr,
# the HR/OE showcase) in $db and a work directory in $work, both removed
# on exit, pgbench in $PGBENCH; q SQL runs one statement there, unaligned.
scratch_db() {
	db=$1
	work=$(mktemp -d)
	trap 'rm -rf "$work"; dropdb --if-exists "$db"' EXIT
	PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
	dropdb --if-exists "$db" 2>/dev/null
	createdb "$db"
	q "SET client_min_messages = warning; CREATE EXTENSION ${2:-hroe} CASCADE"
}
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" -c "$1"; }
