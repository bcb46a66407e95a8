#!/usr/bin/env bash
# test/t_dos_churn.sh: connection churn against both HTTP front ends (issue
# 29, item 6).  libmicrohttpd lets go of its listening socket at the
# connection limit and takes it back only inside MHD_run(); a loop that then
# waits with no timeout (MHD_get_timeout() answering MHD_NO once no
# connection is left) never accepts again.  Checked two ways: a signed probe
# during 10 s of connect / partial request / close, and right after every
# connection of a full front end closed at once.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
dos_setup
dos_workers -c hroe.http_max_connections=32
dos_gateway --max-connections 32
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	dos_attack "$fe: 10 s of connect, partial request, close (50 clients)" "$url" \
		churn --conns 50 --seconds 10
	# every slot taken by an idle connection, then all of them closed at once
	"${ATTACK[@]}" "$url" fds --conns 32 --seconds 3 >/dev/null
	check "$fe: a signed request right after a full front end's connections all closed" \
		"${ATTACK[@]}" "$url" probe --count 3
done
dos_finish
