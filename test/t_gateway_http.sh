#!/usr/bin/env bash
# test/t_gateway_http.sh: malformed HTTP and bodies against hroe-gateway
# (test/gateway/http_checks.py over raw sockets): bad JSON, invalid UTF-8,
# wrong content types, unknown and missing targets, empty and non-object
# bodies, \u0000 (kept whole in items, refused in keys), deep nesting,
# oversized bodies (413 without buffering),
# keep-alive, garbage; then SIGTERM must still end it cleanly.
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
gw_scenario hroe_gw_http /usr/bin/python3 test/gateway/http_checks.py
