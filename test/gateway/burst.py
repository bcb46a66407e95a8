#!/usr/bin/env python3
# test/gateway/burst.py URL TABLE N: N signed PutItems sent at once, each on a
# connection of its own from one of 30 client addresses (127.0.0.2-31, as
# many clients would: each front end limits the connections of one
# address), all connections opened first, then every request written before
# any answer is read; with --throttled, exits 0 if some answers were 200 and
# the others ThrottlingException, and prints one refusal's ThrottlingReasons; prints one line per answer status and
# error type ("200 -", "400 ThrottlingException", ...), then exits 0 if every
# answer was 200.  Credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
import asyncio
import collections
import json
import os
import re
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attack import signed_request, sources  # noqa: E402


async def one(host, port, src, req, ready, go):
    r, w = await asyncio.open_connection(host, port, local_addr=(src, 0))
    ready.release()
    await go.wait()
    w.write(req)
    await w.drain()
    head = await r.readuntil(b"\r\n\r\n")
    m = re.search(rb"(?i)\r\ncontent-length:\s*(\d+)", head)
    body = await r.readexactly(int(m.group(1))) if m else b""
    w.close()
    status = head.split(b" ", 2)[1].decode()
    typ = "-"
    if status != "200":
        try:
            doc = json.loads(body)
            typ = doc.get("__type", "?").split("#")[-1]
            if "ThrottlingReasons" in doc:
                REASONS.append(json.dumps(doc["ThrottlingReasons"]))
        except ValueError:
            typ = "?"
    return status + " " + typ


REASONS = []


async def main(url, table, n, throttled=False):
    u = urllib.parse.urlparse(url)
    key, secret = os.environ["AWS_ACCESS_KEY_ID"], os.environ["AWS_SECRET_ACCESS_KEY"]
    reqs = [signed_request(url, "PutItem", json.dumps(
        {"TableName": table, "Item": {"pk": {"S": "burst-%d" % i}, "n": {"N": str(i)}}}), key, secret)
        for i in range(n)]
    ready, go = asyncio.Semaphore(0), asyncio.Event()
    srcs = sources("127.0.0.2-127.0.0.31")
    tasks = [asyncio.create_task(one(u.hostname, u.port, srcs[i % len(srcs)], reqs[i], ready, go))
             for i in range(n)]
    for _ in range(n):
        await asyncio.wait_for(ready.acquire(), 60)
    go.set()
    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 120)
    counts = collections.Counter(r if isinstance(r, str) else "error " + type(r).__name__ for r in results)
    for k, v in sorted(counts.items()):
        print("%s: %d" % (k, v))
    if throttled:
        if REASONS:
            print("ThrottlingReasons: " + REASONS[0])
        ok, refused = counts.get("200 -", 0), counts.get("400 ThrottlingException", 0)
        return 0 if ok > 0 and refused > 0 and ok + refused == n and REASONS else 1
    return 0 if counts.get("200 -", 0) == n else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]),
                              len(sys.argv) > 4 and sys.argv[4] == "--throttled")))
