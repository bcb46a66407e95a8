#!/usr/bin/env bash
# test/t_packages.sh: the Debian packages (debian/, make deb) built, checked
# by lintian (no error, no warning), installed with dpkg -i, used, purged.
#
# Where they are installed: onto this machine, as an administrator would
# (dpkg -i: the maintainer scripts run, the system user and the conffile are
# made).  That does not change which hroe the other tests load: the suite's
# clusters load it from the staging tree (extension_destdir is searched
# before the system directories, and hroe.so is preloaded by its staged
# path).  Only the throwaway cluster made here loads the system's, the
# packaged one (no extension_destdir).  The test refuses to run where hroe is
# installed already, by a package or by make install (dpkg -i would replace
# those files and dpkg --purge remove them); on exit it purges both packages
# and removes the system user if it made it: the machine is left as found.
#
# The gateway is started as its systemd unit would start it (systemd does
# not run here): the unit's ExecStart line, as its User and Group, with the
# packaged /etc/hroe/gateway.conf; two settings on the command line (which
# wins over the file) point it at the throwaway cluster and at a free port of
# HROE_GW_PORTS.  Then boto3 sends signed requests.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
. test/lib_cluster.sh
. test/gateway/lib.sh

PKGS="postgresql-15-hroe hroe-gateway"
EXTDIR=/usr/share/postgresql/15/extension
LIBDIR=/usr/lib/postgresql/15/lib
FAILURES=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; FAILURES=$((FAILURES + 1)); }

[ "$(id -u)" -eq 0 ] || { echo "FAIL dpkg -i needs root"; exit 1; }
for p in $PKGS; do
	if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed; then
		echo "FAIL $p is installed on this machine already (dpkg --purge $p first)"
		exit 1
	fi
done
for f in $EXTDIR/hroe.control $EXTDIR/hroe_hr.control $LIBDIR/hroe.so $LIBDIR/hroe_hr.so \
	/usr/sbin/hroe-gateway /etc/hroe/gateway.conf; do
	if [ -e "$f" ]; then
		echo "FAIL $f exists (make install?): installing the packages would replace it"
		exit 1
	fi
done
made_user=1
getent passwd hroe_gateway >/dev/null && made_user=0

installed=0
pkg_cleanup() {
	[ -n "$GW_PID" ] && kill -TERM "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null
	GW_PID=
	cluster_cleanup
	if [ $installed -eq 1 ]; then
		dpkg --purge $PKGS >"$GW_WORK/purge.log" 2>&1 || cat "$GW_WORK/purge.log"
		if [ $made_user -eq 1 ]; then
			deluser --quiet --system hroe_gateway >/dev/null 2>&1
			delgroup --quiet --system hroe_gateway >/dev/null 2>&1
		fi
	fi
	rm -rf "$GW_WORK"
}
cluster_setup
trap pkg_cleanup EXIT
start=$(date +%s)

# 1. build (test/deb.sh: dpkg-buildpackage in a copy of the tree)
out="$GW_WORK/deb"
git status --porcelain --ignored >"$GW_WORK/status.before" 2>&1
if HROE_DEB_OUT="$out" bash test/deb.sh >"$GW_WORK/deb.out" 2>&1; then
	ok "packages built: $(cd "$out" && echo *.deb)"
else
	cat "$GW_WORK/deb.out"
	fail "make deb"
	exit 1
fi
check "the checkout is as it was (git status, ignored files too)" bash -c \
	"git status --porcelain --ignored | diff '$GW_WORK/status.before' -"

# 2. lintian over the .changes: the source package and the binary ones
lintian "$out"/hroe_*.changes >"$GW_WORK/lintian.out" 2>&1
if grep -qE '^[EW]: ' "$GW_WORK/lintian.out"; then
	fail "lintian: errors or warnings"
	cat "$GW_WORK/lintian.out"
else
	ok "lintian: no error, no warning"
fi

# 3. dpkg -i (waiting for the lock when apt runs elsewhere on the machine)
installed=1
for try in $(seq 1 30); do
	dpkg -i "$out"/postgresql-15-hroe_*_*.deb "$out"/hroe-gateway_*_*.deb >"$GW_WORK/dpkg.out" 2>&1 && break
	grep -q 'lock' "$GW_WORK/dpkg.out" || break
	sleep 2
done
if dpkg-query -W -f='${Status}\n' $PKGS 2>/dev/null | grep -c '^install ok installed$' | grep -qx 2; then
	ok "dpkg -i postgresql-15-hroe hroe-gateway"
else
	cat "$GW_WORK/dpkg.out"
	fail "dpkg -i"
	exit 1
fi
check "postgresql-15-hroe: hroe and hroe_hr, their SQL and update scripts" bash -c \
	"for f in $LIBDIR/hroe.so $LIBDIR/hroe_hr.so $EXTDIR/hroe.control $EXTDIR/hroe--0.3.sql \
		$EXTDIR/hroe--0.2--0.3.sql $EXTDIR/hroe_hr.control $EXTDIR/hroe_hr--0.3.sql $EXTDIR/hroe_hr--0.2--0.3.sql; do
		dpkg -S \$f | grep -q '^postgresql-15-hroe:' || { echo \"not packaged: \$f\"; exit 1; }; done"
unit=$(dpkg -L hroe-gateway | grep '/hroe-gateway\.service$')
check "hroe-gateway: the server, its unit, its manual page" bash -c \
	"test -x /usr/sbin/hroe-gateway && test -f '$unit' && man -w hroe-gateway >/dev/null"
check "the system user hroe_gateway (no login), owner of the configuration's group, mode 0640" bash -c \
	"getent passwd hroe_gateway | grep -q ':/usr/sbin/nologin$' &&
	 test \"\$(stat -c '%a %U %G' /etc/hroe/gateway.conf)\" = '640 root hroe_gateway'"
check "the unit is installed, not enabled (the database comes first)" bash -c \
	"! ls /etc/systemd/system/*.wants/hroe-gateway.service 2>/dev/null | grep -q ."
check "systemd-analyze verify $unit: nothing to say" bash -c \
	"out=\$(systemd-analyze verify '$unit' 2>&1); echo \"\$out\"; test -z \"\$out\""
# systemd's own score of the sandbox, 0 (confined) to 10 (exposed): the unit
# scores 1.4, gateway/hroe-gateway.service (no sandbox to speak of) 8.6
check "systemd-analyze security: exposure at most 2.0" \
	systemd-analyze security --offline=yes --threshold=20 "$unit"

# 4. a throwaway cluster that loads the packaged hroe: no extension_destdir,
# hroe.so preloaded from the system's library directory
CLUSTER_STAGE=
cluster_init pkg "${HROE_PGPORT:-5432}" && cluster_start pkg || exit 1
check "the cluster's postmaster maps the packaged hroe.so" bash -c \
	"grep -q ' $LIBDIR/hroe.so\$' /proc/\$(head -1 $CLUSTER_WORK/pkg/data/postmaster.pid)/maps"
check "CREATE EXTENSION hroe_hr CASCADE: hroe 0.3 and hroe_hr 0.3" has '^hroe=0\.3,hroe_hr=0\.3$' \
	cluster_psql pkg -c "CREATE DATABASE hroe_pkg ENCODING 'UTF8' TEMPLATE template0" \
	-c '\c hroe_pkg' -c 'SET client_min_messages = warning' -c 'CREATE EXTENSION hroe_hr CASCADE' \
	-c "SELECT string_agg(extname || '=' || extversion, ',' ORDER BY extname) FROM pg_extension WHERE extname LIKE 'hroe%'"
# the roles and the key, as README.Debian tells
check "the gateway's roles and an access key" cluster_psql pkg -d hroe_pkg \
	-c 'CREATE ROLE hroe_gateway LOGIN' -c 'CREATE ROLE app NOLOGIN' -c 'GRANT app TO hroe_gateway' \
	-c 'GRANT USAGE ON SCHEMA hroe TO hroe_gateway, app' -c 'GRANT SELECT ON hroe.access_keys TO hroe_gateway' \
	-c 'GRANT INSERT, UPDATE, DELETE ON hroe.tables, hroe.indexes, hroe.streams, hroe.time_to_live TO app' \
	-c 'GRANT USAGE ON SEQUENCE hroe.stream_ids TO app' -c 'CREATE SCHEMA app AUTHORIZATION app' \
	-c "SELECT hroe.create_access_key('app', '$GW_KEY', '$GW_SECRET')"

# 5. the gateway as the unit starts it: ExecStart, User, Group, and
# NoNewPrivileges (setpriv), from / (the unit's working directory)
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
user=$(sed -n 's/^User=//p' "$unit")
group=$(sed -n 's/^Group=//p' "$unit")
case "$exec_start" in
*[\"\'\$%\\]*) fail "ExecStart has quoting or specifiers this test does not parse: $exec_start"; exit 1 ;;
esac
read -ra cmd <<<"$exec_start"
check "ExecStart reads /etc/hroe/gateway.conf" test "${cmd[*]}" = "/usr/sbin/hroe-gateway --config /etc/hroe/gateway.conf"
port=$(gw_free_port) || exit 1
(cd / && exec setpriv --reuid="$user" --regid="$group" --init-groups --no-new-privs -- "${cmd[@]}" \
	--port "$port" --dbname "host=$CLUSTER_WORK/pkg port=$(cluster_port pkg) dbname=hroe_pkg") \
	>"$GW_WORK/access.log" 2>"$GW_WORK/gateway.log" &
GW_PID=$!
GW_URL=http://127.0.0.1:$port
for _ in $(seq 1 100); do
	curl -s -o /dev/null "$GW_URL/" && break
	kill -0 "$GW_PID" 2>/dev/null || break
	sleep 0.1
done
check "hroe-gateway runs as $user" bash -c "test \"\$(ps -o user= -p $GW_PID)\" = '$user'"
gw_env
check "signed requests (boto3): CreateTable, PutItem, GetItem, ListTables" has '^ok (.*,)?pkg_orders(,|$)' \
	/usr/bin/python3 - "$GW_URL" <<'PY'
import sys, boto3
ddb = boto3.client("dynamodb", endpoint_url=sys.argv[1])
ddb.create_table(TableName="pkg_orders", BillingMode="PAY_PER_REQUEST",
                 AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                 KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
ddb.put_item(TableName="pkg_orders", Item={"pk": {"S": "o1"}, "n": {"N": "7"}})
item = ddb.get_item(TableName="pkg_orders", Key={"pk": {"S": "o1"}}, ConsistentRead=True)["Item"]
assert item == {"pk": {"S": "o1"}, "n": {"N": "7"}}, item
print("ok", ",".join(ddb.list_tables()["TableNames"]))
PY
check "the access log (the configuration's default: standard output) names the key" \
	grep -q " $GW_KEY GetItem 200 " "$GW_WORK/access.log"
gw_stop || FAILURES=$((FAILURES + 1))
FAILURES=$((FAILURES + GW_FAILURES))

# 6. dpkg --purge leaves nothing of them
cluster_stop pkg
if dpkg --purge $PKGS >"$GW_WORK/purge.log" 2>&1; then
	installed=0
	[ $made_user -eq 1 ] && { deluser --quiet --system hroe_gateway; delgroup --quiet --system hroe_gateway; } >/dev/null 2>&1
	check "dpkg --purge: no file of theirs left" bash -c \
		"! ls $EXTDIR/hroe* $LIBDIR/hroe* /usr/sbin/hroe-gateway /etc/hroe '$unit' 2>/dev/null | grep ."
else
	cat "$GW_WORK/purge.log"
	fail "dpkg --purge"
fi
echo "$(($(date +%s) - start)) s"
echo "$FAILURES failures"
[ "$FAILURES" -eq 0 ]
