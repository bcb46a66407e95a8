"""test/gateway/dos_probe.py: the signed probe of the denial-of-service tests
(test/t_dos_combined.sh, test/bench/dos.sh): a legitimate client's GetItem,
each on a new TCP connection (a new client arriving during the attack), its
latency measured from connect() to the last byte of the answer.

    dos_probe.py URL TABLE KEY [--count N | --duration S] [--interval S]
        [--timeout S] [--key K --secret S] [--label L]

Sends N probes (or as many as DURATION seconds allow) one after another,
INTERVAL seconds apart (default 0.05),
signed with SigV4 at send time (raw.py's signer: the signing itself is not
timed). A probe is answered when a whole HTTP answer arrives within TIMEOUT
seconds (default 5); otherwise (no connection, no answer, a reset, the
timeout) it is unanswered, and a line on stderr says when it was sent, what
failed and which phases it reached (connected, sent, the answer's head, its
last byte; ms from connect()).  Prints one line of tab-separated figures:

    label  probes  answered  unanswered  non200  p50_ms  p99_ms  max_ms

(the percentiles over the answered probes; "-" when none was) and exits 0;
the statuses of answers other than 200, if any, on stderr.
Loopback only: the figures are the servers', not a network's.
"""
import argparse
import http.client
import json
import os
import socket
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raw import sign  # noqa: E402


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    # nearest rank: the smallest value with at least p% of them at or below it
    rank = max(1, -(-len(sorted_values) * p // 100))
    return sorted_values[int(rank) - 1]


def clock():
    """The time of day, UTC, to the millisecond (to match a server's log)."""
    t = time.time()
    return time.strftime("%H:%M:%S", time.gmtime(t)) + ".%03d" % (int(t * 1000) % 1000)


def probe(u, table, key_json, key, secret, timeout):
    """(status or None if unanswered, ms, what an unanswered probe reached)"""
    body = json.dumps({"TableName": table, "Key": key_json}).encode()
    headers = {"content-type": "application/x-amz-json-1.0",
               "x-amz-target": "DynamoDB_20120810.GetItem"}
    sign("POST", u.netloc, body, headers, key, secret)
    at = clock()
    start = time.perf_counter()
    # the phases reached (ms from the start): connected, sent, the answer's
    # head, its last byte
    phases = []

    def mark(name):
        phases.append("%s %.1f ms" % (name, (time.perf_counter() - start) * 1000))
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=timeout)
    error = None
    try:
        conn.connect()
        mark("connected")
        conn.request("POST", "/", body=body, headers=headers)
        mark("sent")
        r = conn.getresponse()
        mark("head")
        data = r.read()
        mark("answer")
        status = r.status
        if status != 200 and b"ThrottlingException" in data:
            status = "%d ThrottlingException" % status
    except (OSError, http.client.HTTPException) as e:
        status = None
        error = "%s: %s" % (type(e).__name__, e)
    finally:
        conn.close()
    elapsed = time.perf_counter() - start
    if status is not None and elapsed > timeout:
        status = None
        error = "answered too late"
    detail = "at %s: %s after %.1f ms (%s)" % (
        at, error, elapsed * 1000, ", ".join(phases) or "not connected")
    return status, elapsed * 1000.0, detail


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("table")
    p.add_argument("pk", help="the item's partition key value (attribute PK, type S)")
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--duration", type=float, default=0.0,
                   help="probe until this many seconds have passed (instead of --count)")
    p.add_argument("--interval", type=float, default=0.05)
    p.add_argument("--timeout", type=float, default=5.0)
    p.add_argument("--key", default=os.environ.get("AWS_ACCESS_KEY_ID"))
    p.add_argument("--secret", default=os.environ.get("AWS_SECRET_ACCESS_KEY"))
    p.add_argument("--label", default="probe")
    a = p.parse_args()
    u = urllib.parse.urlparse(a.url)
    latencies = []
    unanswered = non200 = 0
    others = {}
    end = time.monotonic() + a.duration
    sent = 0
    while (time.monotonic() < end) if a.duration > 0 else (sent < a.count):
        sent += 1
        status, ms, detail = probe(u, a.table, {"PK": {"S": a.pk}}, a.key, a.secret, a.timeout)
        if status is None:
            unanswered += 1
            print("%s: unanswered probe %d %s" % (a.label, sent, detail), file=sys.stderr)
        else:
            latencies.append(ms)
            if status != 200:
                non200 += 1
                others[status] = others.get(status, 0) + 1
        time.sleep(a.interval)
    latencies.sort()
    if others:
        print("%s: answers other than 200: %s" % (a.label, ", ".join(
            "HTTP %s x %d" % kv for kv in sorted(others.items(), key=str))), file=sys.stderr)

    def fmt(v):
        return "-" if v is None else "%.1f" % v

    print("\t".join([a.label, str(sent), str(len(latencies)), str(unanswered), str(non200),
                     fmt(percentile(latencies, 50)), fmt(percentile(latencies, 99)),
                     fmt(latencies[-1] if latencies else None)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
