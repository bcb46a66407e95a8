"""test/gateway/replica_client.py: signed clients of hroe-gateway for the
replica and failover tests (test/t_replica.sh, test/t_failover.sh), signed
with raw.py's SigV4 signer; keys from $AWS_ACCESS_KEY_ID/$AWS_SECRET_ACCESS_KEY.

    replica_client.py URL reads TABLE N THREADS
        N eventually consistent GetItem and Query per thread on items
        pk=r0..r9 (already written); prints "N ok, N failed" and each failure
    replica_client.py URL strong TABLE N
        N rounds of PutItem (a new value) then GetItem ConsistentRead: the
        read must answer the value just written; prints "N ok, N stale"
    replica_client.py URL writes TABLE LOG THREADS STOPFILE
        until STOPFILE exists: PutItem of new keys and UpdateItem ADD on ten
        counters, never retried; every outcome a line in LOG:
        "put KEY ok|fail STATUS TYPE" or "add COUNTER ok|fail STATUS TYPE"
    replica_client.py URL verify TABLE LOG
        after a failover: every acknowledged put is there, every counter is
        between its acknowledged ADDs and those plus the failed ones; prints
        the failures by HTTP status and DynamoDB error; exits 1 on a loss
"""
import collections
import http.client
import json
import os
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from raw import sign  # noqa: E402


class Client:
    """One keep-alive connection, reopened after a failure."""

    def __init__(self, url):
        self.url = urllib.parse.urlparse(url)
        self.conn = None

    def call(self, op, body):
        data = json.dumps(body).encode()
        headers = {"content-type": "application/x-amz-json-1.0",
                   "x-amz-target": "DynamoDB_20120810." + op}
        sign("POST", self.url.netloc, data, headers, os.environ["AWS_ACCESS_KEY_ID"],
             os.environ["AWS_SECRET_ACCESS_KEY"])
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.url.hostname, self.url.port, timeout=60)
            self.conn.request("POST", "/", body=data, headers=headers)
            r = self.conn.getresponse()
            text = r.read().decode()
            status = r.status
        except (OSError, http.client.HTTPException) as e:
            # no answer: the outcome is unknown (counted as in flight)
            self.conn = None
            return 0, {"__type": "connection:" + type(e).__name__}
        try:
            answer = json.loads(text) if text else {}
        except ValueError:
            answer = {"__type": "unparsed"}
        return status, answer


def short_type(answer):
    return answer.get("__type", "").split("#")[-1]


def reads(url, table, n, threads):
    failures = []

    def run():
        c = Client(url)
        for i in range(n):
            pk = "r%d" % (i % 10)
            for op, body in (("GetItem", {"TableName": table, "Key": {"pk": {"S": pk}}}),
                             ("Query", {"TableName": table, "KeyConditionExpression": "pk = :p",
                                        "ExpressionAttributeValues": {":p": {"S": pk}}})):
                status, answer = c.call(op, body)
                ok = status == 200 and ("Item" in answer or answer.get("Count") == 1)
                if not ok:
                    failures.append("%s %s %d %s" % (op, pk, status, json.dumps(answer)[:200]))
    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for f in failures[:20]:
        print("failed:", f)
    print("%d ok, %d failed" % (2 * n * threads - len(failures), len(failures)))
    return 1 if failures else 0


def strong(url, table, n):
    c = Client(url)
    stale = 0
    for i in range(n):
        status, answer = c.call("PutItem", {"TableName": table, "Item": {
            "pk": {"S": "raw"}, "v": {"N": str(i)}}})
        if status != 200:
            print("PutItem failed:", status, answer)
            return 1
        status, answer = c.call("GetItem", {"TableName": table, "Key": {"pk": {"S": "raw"}},
                                            "ConsistentRead": True})
        if status != 200 or answer.get("Item", {}).get("v") != {"N": str(i)}:
            stale += 1
            print("stale read after write %d: %d %s" % (i, status, json.dumps(answer)[:200]))
    print("%d ok, %d stale" % (n - stale, stale))
    return 1 if stale else 0


def writes(url, table, log, threads, stopfile):
    lock = threading.Lock()
    out = open(log, "a", buffering=1)

    def run(t):
        c = Client(url)
        i = 0
        while not os.path.exists(stopfile):
            key = "w%d_%d" % (t, i)
            status, answer = c.call("PutItem", {"TableName": table, "Item": {
                "pk": {"S": key}, "v": {"N": str(i)}}})
            line = "put %s %s %d %s" % (key, "ok" if status == 200 else "fail", status,
                                        short_type(answer) or "-")
            counter = "c%d" % (i % 10)
            status2, answer2 = c.call("UpdateItem", {
                "TableName": table, "Key": {"pk": {"S": counter}},
                "UpdateExpression": "ADD n :one",
                "ExpressionAttributeValues": {":one": {"N": "1"}}})
            line2 = "add %s %s %d %s" % (counter, "ok" if status2 == 200 else "fail", status2,
                                         short_type(answer2) or "-")
            with lock:
                out.write(line + "\n" + line2 + "\n")
            i += 1
            if status != 200 or status2 != 200:
                time.sleep(0.05)
    ts = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    out.close()
    return 0


def verify(url, table, log):
    c = Client(url)
    acked_puts = []
    adds = collections.defaultdict(lambda: [0, 0])  # counter -> [acked, failed]
    failures = collections.Counter()
    requests = 0
    for line in open(log):
        kind, name, outcome, status, typ = line.split()
        requests += 1
        if outcome == "fail":
            failures[(kind, status, typ)] += 1
        if kind == "put" and outcome == "ok":
            acked_puts.append(name)
        if kind == "add":
            adds[name][0 if outcome == "ok" else 1] += 1
    lost = 0
    for key in acked_puts:
        status, answer = c.call("GetItem", {"TableName": table, "Key": {"pk": {"S": key}},
                                            "ConsistentRead": True})
        if status != 200 or "Item" not in answer:
            lost += 1
            print("LOST acknowledged PutItem %s: %d %s" % (key, status, json.dumps(answer)[:200]))
    bad = 0
    for counter, (acked, failed) in sorted(adds.items()):
        status, answer = c.call("GetItem", {"TableName": table, "Key": {"pk": {"S": counter}},
                                            "ConsistentRead": True})
        value = int(answer.get("Item", {}).get("n", {}).get("N", "0")) if status == 200 else -1
        ok = acked <= value <= acked + failed
        if not ok:
            bad += 1
        print("counter %s: %d (acknowledged ADDs %d, failed %d)%s" % (
            counter, value, acked, failed, "" if ok else "  OUT OF RANGE"))
    print("%d requests, %d failed:" % (requests, sum(failures.values())))
    for (kind, status, typ), n in sorted(failures.items()):
        print("  %-3s HTTP %s %s: %d" % ("PutItem" if kind == "put" else "UpdateItem", status, typ, n))
    # status 0: no answer (a connection refused or reset), which the SDKs retry too
    retryable = all(status in ("0", "500", "503") or typ == "ThrottlingException"
                    for (_, status, typ) in failures)
    print("%d acknowledged PutItems, %d lost; %d counters out of range; failures %s" % (
        len(acked_puts), lost, bad, "all retryable (no answer, 500/503, throttling)" if retryable else "NOT all retryable"))
    return 1 if lost or bad or not retryable else 0


def main():
    url, mode = sys.argv[1], sys.argv[2]
    a = sys.argv[3:]
    if mode == "reads":
        return reads(url, a[0], int(a[1]), int(a[2]))
    if mode == "strong":
        return strong(url, a[0], int(a[1]))
    if mode == "writes":
        return writes(url, a[0], a[1], int(a[2]), a[3])
    if mode == "verify":
        return verify(url, a[0], a[1])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
