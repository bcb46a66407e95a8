#!/usr/bin/env bash
# test/t_dos_slowloris.sh: slowloris against both HTTP front ends (issue 29,
# item 5).  More connections than the front end has slots, each sending a
# request's headers one byte every 2 s (libmicrohttpd's idle timeout restarts
# with each byte): the header deadline (hroe.http_header_timeout,
# --header-timeout) closes them, and near the limit the connections idle the
# longest are closed first, so a signed GetItem from a new client is answered
# during the attack.  Then half-open TLS handshakes against HTTPS front ends.
#
# Beside the probe, a client on a slow link (127.0.0.254, DOS_PROBE_PAUSE:
# each request in two halves 0.3 s apart) is answered too: its connection
# idles mid-request as a real client's does during its TLS handshake or
# between its packets, and the attackers, reconnecting as fast as their
# connections are closed, may hold only connections younger than the guard's
# 20 ms grace.  The guard once passed over all of those and closed the only
# old enough idle one left, the lone client's, with no answer
# (doc/security.md, "Slow probes on a loaded machine"); it now closes an idle
# connection of the address holding the most first, young or not, and a
# lone client's only when no address holds more.  Not a retry: each probe's
# connection is new and closed by the probe, so a server closing it cannot
# be a keep-alive connection it may legitimately close between requests.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
DOS_PROBE_PAUSE=0.3
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
	-keyout "$GW_WORK/key.pem" -out "$GW_WORK/cert.pem" >/dev/null 2>&1
chmod 644 "$GW_WORK/key.pem"
dos_setup
dos_workers -c hroe.http_max_connections=128 -c hroe.http_header_timeout=4s
dos_gateway --max-connections 128 --header-timeout 4
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	dos_attack "$fe: 200 slowloris connections from 30 addresses, a byte every 2 s" "$url" \
		slowloris --conns 200 --seconds 15 --interval 2
	# fewer than the slots: the header deadline alone closes each of them
	check "$fe: 20 slowloris connections (a byte a second) are closed past the 4 s header deadline" \
		has 'slowloris: .* ([2-9][0-9]|[0-9]{3,}) closed by the server' \
		"${ATTACK[@]}" "$url" slowloris --conns 20 --seconds 7 --interval 1
done

# HTTPS: half-open TLS handshakes hold no slot either
dos_workers -c hroe.http_max_connections=128 -c hroe.http_header_timeout=4s \
	-c hroe.http_tls_cert="$GW_WORK/cert.pem" -c hroe.http_tls_key="$GW_WORK/key.pem"
dos_gateway --max-connections 128 --header-timeout 4 --tls-cert "$GW_WORK/cert.pem" \
	--tls-key "$GW_WORK/key.pem"
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	dos_attack "$fe (HTTPS): 200 half-open TLS handshakes from 30 addresses" "$url" \
		tls --conns 200 --seconds 15
done
dos_finish
