#!/usr/bin/env bash
# test/t_dos_fds.sh: both HTTP front ends under an open-file limit of 1,024
# (systemd's default soft limit), attacked with 1,200 idle connections from
# 30 addresses.  The workers take no more connections than fd.c leaves them
# (ReserveExternalFD, max_safe_fds), the gateway no more than its limit fits;
# accept failing with EMFILE neither spins nor ends the process; near the
# limit the idle connections of the busiest address go first, so a signed
# GetItem from a new client is answered during the attack; both front ends
# still serve afterwards.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
dos_setup
# the workers: the postmaster and its children inherit the soft limit
ulimit -S -n 1024
dos_workers
ulimit -S -n "$(ulimit -H -n)"
# the gateway: soft and hard limits 1024 (it cannot raise them to fit)
printf '#!/bin/sh\nulimit -n 1024 && exec %s "$@"\n' "$GW_BIN" >"$GW_WORK/gateway-1024"
chmod +x "$GW_WORK/gateway-1024"
GW_BIN=$GW_WORK/gateway-1024
dos_gateway
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	dos_attack "$fe (open-file limit 1024): 1,200 idle connections from 30 addresses" "$url" \
		fds --conns 1200 --seconds 12 --ramp 0.002
	check "$fe: still serving after the attack" "${ATTACK[@]}" "$url" probe --count 3
done
check "the workers' backend was not restarted (no crash)" \
	bash -c "! grep -E 'terminated by signal' '$CLUSTER_WORK/dos/server.log'"
check "the gateway still runs" kill -0 "$GW_PID"
grep -E 'open-file limit|resource limit' "$GW_WORK/gateway.log" | sort | uniq -c | head -3
dos_finish
