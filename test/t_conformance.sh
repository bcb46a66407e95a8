#!/usr/bin/env bash
# test/t_conformance.sh: the conformance suite (test/conformance) in the test
# cluster: every request of corpus.jsonl sent to dynalite and to
# hroe.dynamodb_text (the gateway's entry),
# responses compared (deviations.md lists the known differences).
set -euo pipefail
cd "$(dirname "$0")/conformance"
# (dynalite 4.0.0 declares node >= 20; Debian 12's own nodejs is 18.20, on
# which it installs with an engines warning and passes the whole corpus: its
# storage, classic-level, ships N-API prebuilds that need node >= 18)
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -f node_modules/dynalite/package.json ]; then
	npm ci --no-audit --no-fund --loglevel=error
fi
db=hroe_conformance_$$
createdb "$db"
trap 'dropdb --if-exists "$db"' EXIT
psql -X -q -d "$db" -c 'CREATE EXTENSION hroe'
PGDATABASE=$db node run.js corpus.jsonl
