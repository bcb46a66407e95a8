#!/usr/bin/env bash
# test/t_gateway_auth.sh: hroe-gateway's authentication and authorization,
# with DynamoDB's exact error bodies: unsigned, incomplete, wrong secret,
# unknown key, expired and future dates, a wrong scope, Host not signed, a
# session token, a role without grants (AccessDeniedException), a revoked
# key (refused at once despite the key cache), a key created again with a
# new secret (the old, cached one refused at once), and the key's role deciding
# (a table made through one key is not another role's).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/gateway/lib.sh
gw_setup hroe_gw_auth || exit 1
gw_start hroe_gw_auth --key-cache-ttl 60 || exit 1
gw_env
. test/gateway/auth_checks.sh
gw_stop || GW_FAILURES=$((GW_FAILURES + 1))
check "no secret in the logs (both logs written)" bash -c "test -s $GW_WORK/access.log && test -s $GW_WORK/gateway.log && ! grep -q '$GW_SECRET' $GW_WORK/access.log $GW_WORK/gateway.log"
echo "$GW_FAILURES failures"
[ "$GW_FAILURES" -eq 0 ]
