#!/usr/bin/env bash
# test/t_dos_bodies.sh: unfinished bodies from anonymous clients (issue 29,
# item 9).  16 unsigned POSTs announcing 16 MiB each send all but the last
# byte and hold, and 100 more of 50 KB take what libmicrohttpd's buffers
# leave: that filled the 256 MiB all bodies share, and every other request
# was refused.  Now a body whose signature is not checked gets 64 KiB of its
# own and then only the small budget of unverified bodies
# (max-unverified-mb, 32 MiB by default); the body deadline (5 s here)
# closes them.  A signed GetItem is answered meanwhile, and on the workers a
# signed 100 KB PutItem whose payload hash is signed as the
# x-amz-content-sha256 header (its headers' signature checked before its
# body is read) too.
cd "$(dirname "$0")/.."
. test/lib_dos.sh
dos_setup
dos_workers -c hroe.http_body_timeout=5s
dos_gateway --body-timeout 5
signed_put() {
	/usr/bin/python3 - "$1" <<-'PY'
	import hashlib, json, sys
	sys.path.insert(0, "test/gateway")
	import raw
	body = json.dumps({"TableName": "probe", "Item": {"pk": {"S": "large"}, "d": {"S": "x" * 100000}}})
	st, _, out = raw.send(sys.argv[1], "PutItem", body,
	                      extra=["x-amz-content-sha256: " + hashlib.sha256(body.encode()).hexdigest()])
	print(st, out[:200])
	sys.exit(0 if st == 200 else 1)
	PY
}
check "workers: a signed 100 KB PutItem with its payload hash signed: 200" signed_put "$DOS_WORKERS_URL"
# headers signed for one body, another body sent: the hash is checked at the end
swapped_body() {
	/usr/bin/python3 - "$1" <<-'PY'
	import hashlib, http.client, json, sys, urllib.parse
	sys.path.insert(0, "test/gateway")
	import raw
	u = urllib.parse.urlparse(sys.argv[1])
	signed = json.dumps({"TableName": "probe", "Item": {"pk": {"S": "large"}, "d": {"S": "x" * 100000}}}).encode()
	sent = signed.replace(b'"x', b'"y', 1)
	h = {"content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810.PutItem",
	     "x-amz-content-sha256": hashlib.sha256(signed).hexdigest()}
	raw.sign("POST", u.netloc, signed, h, "gwtestkey", "gwtestsecret")
	c = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
	c.request("POST", "/", body=sent, headers=h)
	r = c.getresponse()
	out = r.read()
	print(r.status, out[:200])
	sys.exit(0 if r.status == 400 and b"InvalidSignatureException" in out else 1)
	PY
}
check "workers: headers signed for another body: 400 InvalidSignatureException" swapped_body "$DOS_WORKERS_URL"
for fe in workers gateway; do
	url=$DOS_WORKERS_URL
	[ $fe = gateway ] && url=$DOS_GATEWAY_URL
	"${ATTACK[@]}" "$url" bodies --conns 16 --size 16 --seconds 15 >"$GW_WORK/bodies.out" 2>&1 &
	apid=$!
	sleep 3
	"${ATTACK[@]}" "$url" bodies --conns 100 --size 0.05 --seconds 12 --sources 127.0.0.32-127.0.0.61 \
		>"$GW_WORK/fillers.out" 2>&1 &
	fpid=$!
	sleep 2
	if [ $fe = workers ]; then
		check "workers: during the attack, a signed 100 KB PutItem with its payload hash signed: 200" \
			signed_put "$url"
	fi
	check "$fe: during the attack, a signed GetItem: 200" "${ATTACK[@]}" "$url" probe --count 20
	wait $apid $fpid
	cat "$GW_WORK/bodies.out" "$GW_WORK/fillers.out"
	check "$fe: the unfinished bodies were closed (unverified budget, 5 s body deadline)" \
		has 'bodies: .* ([2-9][0-9]|[0-9]{3,}) closed by the server' cat "$GW_WORK/bodies.out"
done
dos_finish
