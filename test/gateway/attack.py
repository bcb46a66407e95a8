"""test/gateway/attack.py: bounded denial-of-service attacks on hroe's HTTP
front ends (hroe-gateway, the in-server HTTP workers), and a signed probe
that measures what a legitimate client sees meanwhile.  Loopback only; every
attack stops after --seconds and holds at most --conns connections.

    attack.py URL probe [--count N] [--interval S] [--timeout S] [--table T]
                    [--pause S] [--source A]
        N signed GetItem requests, each on a new connection, from 127.0.0.1
        (or --source);
        prints "probe n= ok= p50= p99= max=" (ms); exit 1 if one is not
        answered 200 within --timeout (each failure's line says when, and
        which phases it reached: connected, TLS done, sent); with --pause,
        each request is sent in two halves S seconds apart (a client on a
        slow link, whose connection idles between its packets)
    attack.py URL ATTACK [--conns N] [--seconds S] [--sources A-B] [options]
        slowloris  connections sending a request's headers one byte every
                   --interval seconds (reconnecting when closed)
        churn      connect, send part of a request, close, as fast as it can
        unread     signed requests (--op, --body, --key, --secret) pipelined
                   on each connection, answers never read
        bodies     unsigned POSTs announcing --size MiB, sending all but the
                   last byte, then holding the connection
        tls        TCP connections that send half a TLS ClientHello, then wait
        fds        idle connections, as many as --conns (or the server takes)
    attackers bind to the source addresses --sources (default
    127.0.0.2-127.0.0.31), so that a per-address limit does not also stop
    the probe; prints what the attack did as one line, also when SIGUSR1
    ends it before --seconds (test/lib_dos.sh: once the probes are done).
"""
import argparse
import asyncio
import hashlib
import ipaddress
import json
import os
import signal
import socket
import ssl
import statistics
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import raw  # noqa: E402


def sources(spec):
    lo, hi = spec.split("-")
    a, b = int(ipaddress.IPv4Address(lo)), int(ipaddress.IPv4Address(hi))
    return [str(ipaddress.IPv4Address(i)) for i in range(a, b + 1)]


def signed_request(url, op, body, key, secret):
    u = urllib.parse.urlparse(url)
    body = body.encode() if isinstance(body, str) else body
    headers = {"content-type": "application/x-amz-json-1.0",
               "x-amz-target": "DynamoDB_20120810." + op}
    raw.sign("POST", u.netloc, body, headers, key, secret)
    head = "POST / HTTP/1.1\r\n" + "".join("%s: %s\r\n" % (k, v) for k, v in headers.items())
    head += "content-length: %d\r\n\r\n" % len(body)
    return head.encode() + body


class Stats:
    def __init__(self):
        self.opened = self.closed_by_server = self.refused = self.requests = 0


async def open_conn(host, port, src, stats, tls=False, rcvbuf=None):
    loop = asyncio.get_running_loop()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setblocking(False)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    try:
        s.bind((src, 0))
        await asyncio.wait_for(loop.sock_connect(s, (host, port)), 5)
    except (OSError, asyncio.TimeoutError):
        stats.refused += 1
        s.close()
        return None
    stats.opened += 1
    return s


async def closed_by_peer(s, wait):
    """True if the server closed s within wait seconds (reads and drops data)."""
    loop = asyncio.get_running_loop()
    try:
        data = await asyncio.wait_for(loop.sock_recv(s, 65536), wait)
        return data == b""
    except asyncio.TimeoutError:
        return False
    except OSError:
        return True


async def slowloris_one(a, host, port, src, stats, end):
    loop = asyncio.get_running_loop()
    head = b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.GetItem\r\n" + \
        b"X-Padding: " + b"a" * 4000 + b"\r\n"
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats)
        if s is None:
            await asyncio.sleep(0.2)
            continue
        i = 0
        try:
            while time.monotonic() < end:
                await loop.sock_sendall(s, head[i % len(head):i % len(head) + 1])
                i += 1
                if await closed_by_peer(s, a.interval):
                    stats.closed_by_server += 1
                    break
        except OSError:
            stats.closed_by_server += 1
        s.close()
        await asyncio.sleep(0.05)


async def churn_one(a, host, port, src, stats, end):
    loop = asyncio.get_running_loop()
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats)
        if s is None:
            await asyncio.sleep(0.01)
            continue
        try:
            await loop.sock_sendall(s, b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
        except OSError:
            pass
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()


async def unread_one(a, host, port, src, stats, end):
    loop = asyncio.get_running_loop()
    req = signed_request(a.url, a.op, a.body, a.key, a.secret)
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats, rcvbuf=4096)
        if s is None:
            await asyncio.sleep(0.2)
            continue
        try:
            for _ in range(a.pipeline):
                await asyncio.wait_for(loop.sock_sendall(s, req), max(0.1, end - time.monotonic()))
                stats.requests += 1
            # never read: wait until the server gives up on us
            while time.monotonic() < end:
                await asyncio.sleep(0.5)
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    stats.closed_by_server += 1
                    break
                try:
                    await loop.sock_sendall(s, b"")
                except OSError:
                    stats.closed_by_server += 1
                    break
        except (OSError, asyncio.TimeoutError):
            stats.closed_by_server += 1
        s.close()


async def bodies_one(a, host, port, src, stats, end):
    loop = asyncio.get_running_loop()
    size = int(a.size * 1024 * 1024)
    chunk = b"x" * 65536
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats)
        if s is None:
            await asyncio.sleep(0.2)
            continue
        try:
            await loop.sock_sendall(s, (
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                "X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: %d\r\n\r\n" % size).encode())
            sent = 0
            while sent < size - 1 and time.monotonic() < end:
                n = min(len(chunk), size - 1 - sent)
                await asyncio.wait_for(loop.sock_sendall(s, chunk[:n]), max(0.1, end - time.monotonic()))
                sent += n
            stats.requests += 1
            if await closed_by_peer(s, max(0.1, end - time.monotonic())):
                stats.closed_by_server += 1
        except (OSError, asyncio.TimeoutError):
            stats.closed_by_server += 1
        s.close()


# the first bytes of a TLS 1.2 ClientHello record: the handshake never ends
HALF_HELLO = bytes.fromhex("160301020001000200" + "0303") + os.urandom(16)


async def tls_one(a, host, port, src, stats, end):
    loop = asyncio.get_running_loop()
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats)
        if s is None:
            await asyncio.sleep(0.2)
            continue
        try:
            await loop.sock_sendall(s, HALF_HELLO)
            while time.monotonic() < end:
                if await closed_by_peer(s, 1.0):
                    stats.closed_by_server += 1
                    break
        except OSError:
            stats.closed_by_server += 1
        s.close()
        await asyncio.sleep(0.05)


async def fds_one(a, host, port, src, stats, end):
    while time.monotonic() < end:
        s = await open_conn(host, port, src, stats)
        if s is None:
            await asyncio.sleep(0.2)
            continue
        while time.monotonic() < end:
            if await closed_by_peer(s, 1.0):
                stats.closed_by_server += 1
                break
        s.close()


ATTACKS = {"slowloris": slowloris_one, "churn": churn_one, "unread": unread_one,
           "bodies": bodies_one, "tls": tls_one, "fds": fds_one}


async def attack(a):
    u = urllib.parse.urlparse(a.url)
    srcs = sources(a.sources)
    stats = Stats()
    end = time.monotonic() + a.seconds
    one = ATTACKS[a.command]
    tasks = []
    stopped = []

    def stop():
        # SIGUSR1: the attack ends now (its connections are closed on exit)
        stopped.append(True)
        for t in tasks:
            t.cancel()
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, stop)
    for i in range(a.conns):
        if stopped:
            break
        tasks.append(asyncio.create_task(one(a, u.hostname, u.port, srcs[i % len(srcs)], stats, end)))
        if a.ramp:
            await asyncio.sleep(a.ramp)
    await asyncio.gather(*tasks, return_exceptions=True)
    print("%s: %d connections opened, %d closed by the server, %d refused, %d requests sent" % (
        a.command, stats.opened, stats.closed_by_server, stats.refused, stats.requests))


def clock():
    """The time of day, UTC, to the millisecond (to match a server's log)."""
    t = time.time()
    return time.strftime("%H:%M:%S", time.gmtime(t)) + ".%03d" % (int(t * 1000) % 1000)


def probe(a):
    u = urllib.parse.urlparse(a.url)
    body = json.dumps({"TableName": a.table, "Key": {"pk": {"S": "probe"}}})
    times, failures = [], []
    for i in range(a.count):
        t0, at = time.monotonic(), clock()
        # the phases reached, for a failure's line: connected, TLS done, sent
        phases = []

        def mark(name):
            phases.append("%s %.1f ms" % (name, (time.monotonic() - t0) * 1000))
        try:
            req = signed_request(a.url, "GetItem", body, a.key, a.secret)
            s = socket.create_connection((u.hostname, u.port), timeout=a.timeout,
                                         source_address=(a.source, 0))
            mark("connected")
            if u.scheme == "https":
                s = ssl._create_unverified_context().wrap_socket(s, server_hostname=u.hostname)
                mark("TLS done")
            s.settimeout(max(0.1, a.timeout - (time.monotonic() - t0)))
            if a.pause:
                # a client on a slow link: the request in two parts, a.pause apart
                s.sendall(req[:len(req) // 2])
                mark("half sent")
                time.sleep(a.pause)
            s.sendall(req[len(req) // 2:] if a.pause else req)
            mark("sent")
            data = b""
            while b"\r\n\r\n" not in data:
                more = s.recv(65536)
                if not more:
                    break
                data += more
            if data.startswith(b"HTTP/1.1 200"):
                s.close()
            if not data.startswith(b"HTTP/1.1 200"):
                try:
                    while True:
                        more = s.recv(65536)
                        if not more:
                            break
                        data += more
                except OSError:
                    pass
                failures.append("probe %d at %s: %s after %.1f s (%s)" % (
                    i, at, repr(data[:80] + b"..." + data[-160:])
                    if data else "closed with no answer", time.monotonic() - t0, ", ".join(phases)))
            else:
                times.append((time.monotonic() - t0) * 1000)
        except OSError as e:
            failures.append("probe %d at %s: %s after %.1f s (%s)" % (
                i, at, e, time.monotonic() - t0, ", ".join(phases)))
        time.sleep(a.interval)
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] if times else float("nan")
    print("probe n=%d ok=%d p50=%.1fms p99=%.1fms max=%.1fms" % (
        a.count, len(times), p(0.5), p(0.99), times[-1] if times else float("nan")))
    for f in failures[:5]:
        print("   ", f)
    return 0 if not failures else 1


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("command", choices=["probe"] + sorted(ATTACKS))
    p.add_argument("--conns", type=int, default=100)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--interval", type=float, default=None)
    p.add_argument("--ramp", type=float, default=0.0, help="seconds between connections at start")
    p.add_argument("--sources", default="127.0.0.2-127.0.0.31")
    p.add_argument("--size", type=float, default=16, help="bodies: MiB announced")
    p.add_argument("--pipeline", type=int, default=4, help="unread: requests per connection")
    p.add_argument("--op", default="GetItem")
    p.add_argument("--body", default="{}")
    p.add_argument("--key", default=os.environ.get("AWS_ACCESS_KEY_ID"))
    p.add_argument("--secret", default=os.environ.get("AWS_SECRET_ACCESS_KEY"))
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--timeout", type=float, default=5.0)
    p.add_argument("--table", default="probe")
    p.add_argument("--source", default="127.0.0.1", help="probe: the address it connects from")
    p.add_argument("--pause", type=float, default=0.0,
                   help="probe: seconds between the two halves of each request")
    a = p.parse_args()
    if a.command == "probe":
        a.interval = 0.1 if a.interval is None else a.interval
        return probe(a)
    a.interval = 2.0 if a.interval is None else a.interval
    asyncio.run(attack(a))
    return 0


if __name__ == "__main__":
    sys.exit(main())
