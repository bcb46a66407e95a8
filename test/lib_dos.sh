# test/lib_dos.sh: shared steps of the denial-of-service tests
# (test/t_dos_*.sh; sourced, not run).  Each test attacks both HTTP front
# ends of one throwaway cluster (test/lib_cluster.sh): the in-server HTTP
# workers ($DOS_WORKERS_URL) and hroe-gateway ($DOS_GATEWAY_URL) in front of
# it, with a table "probe" holding the item a signed GetItem probe reads.
#
#   dos_setup                  the cluster, the database
#   dos_workers [WORKER_OPT...] (re)starts the cluster with the workers and
#                              these "-c name=value" options; the probe's
#                              table
#   dos_gateway [GW_OPT...]    (re)starts hroe-gateway with these options
#   dos_attack LABEL URL ATTACK [ATTACK_ARGS...]
#       the probe on the idle front end, then ATTACK (test/gateway/attack.py)
#       in the background, the same probe during it; fails the check LABEL
#       if a probe goes unanswered (or not 200) within 5 s; prints both
#       probes' latencies; the attack is ended once the probes are done
#       (attack.py's SIGUSR1: what follows would measure nothing) unless
#       DOS_ATTACK_FULL=1 (a test that samples the server during the whole
#       attack); DOS_PROBES probes (default 30); with DOS_PROBE_PAUSE=S,
#       also DOS_SLOW_PROBES (default 10) at the same time from a client on
#       a slow link (127.0.0.254), each request in two halves S seconds
#       apart (attack.py's --pause: its connection idles mid-request, as
#       one in its TLS handshake does)
#   dos_finish                 exits with the checks' outcome
set -uo pipefail
. test/lib_cluster.sh
. test/gateway/lib.sh
gw_clusters
DOS_DB=hroe_dos
ATTACK=(/usr/bin/python3 test/gateway/attack.py)

dos_setup() {
	local port=${HROE_CLUSTER_PORT:-5640} http_port
	cluster_init dos "$port" || exit 1
	cluster_start dos || exit 1
	export PGHOST=$CLUSTER_WORK/dos PGPORT=$port PGUSER=postgres
	gw_setup "$DOS_DB" || exit 1
	DOS_HTTP_PORT=$(gw_free_port) || exit 1
}

dos_workers() {
	local http_port=$DOS_HTTP_PORT
	DOS_WORKERS_URL=http://127.0.0.1:$http_port
	case " $* " in *hroe.http_tls_cert*) DOS_WORKERS_URL=https://127.0.0.1:$http_port ;; esac
	cluster_stop dos
	cluster_start dos -c hroe.http_port="$http_port" -c hroe.http_role="$GW_LOGIN" \
		-c hroe.http_database="$DOS_DB" -c hroe.http_workers=1 "$@" || exit 1
	for _ in $(seq 1 150); do
		curl -sk -o /dev/null "$DOS_WORKERS_URL/" && break
		sleep 0.1
	done
	gw_env
	GW_URL=$DOS_WORKERS_URL
	[ -n "${DOS_TABLE:-}" ] && return 0
	DOS_TABLE=probe
	raw CreateTable '{"TableName": "probe", "BillingMode": "PAY_PER_REQUEST", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}' >/dev/null
	raw PutItem '{"TableName": "probe", "Item": {"pk": {"S": "probe"}, "v": {"S": "x"}}}' |
		grep -q '^200' || { echo "FAIL the probe's item could not be written through the workers"; exit 1; }
}

dos_gateway() {
	[ -n "$GW_PID" ] && { kill -TERM "$GW_PID"; wait "$GW_PID"; GW_PID=; }
	gw_start "$DOS_DB" --threads 1 "$@" || exit 1
	DOS_GATEWAY_URL=$GW_URL
}

dos_attack() {
	local label=$1 url=$2 attack=$3 apid spid rc slow_rc=0 slow=
	shift 3
	echo "     $label"
	"${ATTACK[@]}" "$url" probe --count 10 | sed 's/^/       idle:   /'
	"${ATTACK[@]}" "$url" "$attack" "$@" >"$GW_WORK/attack.out" 2>&1 &
	apid=$!
	sleep "${DOS_WARMUP:-3}"
	if [ -n "${DOS_PROBE_PAUSE:-}" ]; then
		# beside it, another client (its own address) on a slow link
		"${ATTACK[@]}" "$url" probe --count "${DOS_SLOW_PROBES:-10}" --pause "$DOS_PROBE_PAUSE" \
			--source 127.0.0.254 >"$GW_WORK/slow.out" 2>&1 &
		spid=$!
		slow=" (and ${DOS_SLOW_PROBES:-10} from a slow link)"
	fi
	"${ATTACK[@]}" "$url" probe --count "${DOS_PROBES:-30}" >"$GW_WORK/probe.out" 2>&1
	rc=$?
	if [ -n "${DOS_PROBE_PAUSE:-}" ]; then
		wait $spid
		slow_rc=$?
	fi
	[ "${DOS_ATTACK_FULL:-0}" = 1 ] || kill -USR1 $apid 2>/dev/null
	wait $apid
	sed 's/^/       attack: /' "$GW_WORK/probe.out"
	[ -n "${DOS_PROBE_PAUSE:-}" ] && sed 's/^/       slow:   /' "$GW_WORK/slow.out"
	sed 's/^/       /' "$GW_WORK/attack.out"
	if [ $rc -eq 0 ] && [ $slow_rc -eq 0 ]; then
		echo "ok   $label: every signed probe$slow answered during the attack"
	else
		echo "FAIL $label: a signed probe$slow went unanswered during the attack"
		GW_FAILURES=$((GW_FAILURES + 1))
	fi
}

dos_finish() {
	[ "$GW_FAILURES" -eq 0 ] || tail -5 "$GW_WORK/gateway.log"

	[ -n "$GW_PID" ] && gw_stop >/dev/null
	[ "$GW_FAILURES" -eq 0 ]
	exit $?
}
