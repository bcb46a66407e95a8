"""test/gateway/http_checks.py: malformed HTTP and bodies against
hroe-gateway, over raw sockets: each check prints ok/FAIL; the gateway must
answer DynamoDB's bodies, close what it must, and stay up (GET / after
everything).  Usage: http_checks.py URL (credentials from AWS_*)."""
import json
import os
import socket
import sys
import time
import urllib.parse
import zlib

sys.path.insert(0, os.path.dirname(__file__))
import raw  # noqa: E402

url = sys.argv[1]
u = urllib.parse.urlparse(url)
failures = 0
SER = b'{"__type":"com.amazon.coral.service#SerializationException"}'
UNKNOWN = b'{"__type":"com.amazon.coral.service#UnknownOperationException"}'


def check(label, fn):
    global failures
    t0 = time.time()
    try:
        fn()
        print("ok   %s (%.1f s)" % (label, time.time() - t0))
    except Exception as e:  # noqa: BLE001
        failures += 1
        print("FAIL %s: %r" % (label, e))


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


def exchange(data, read_all=True, timeout=20):
    """Send bytes on a fresh connection; return everything read until close
    (read_all) or the first response."""
    s = socket.create_connection((u.hostname, u.port), timeout=timeout)
    try:
        s.sendall(data)
    except (BrokenPipeError, ConnectionResetError):
        pass
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
            if not read_all and b"\r\n\r\n" in out:
                head, _, body = out.partition(b"\r\n\r\n")
                n = [int(h.split(b":")[1]) for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")]
                if n and len(body) >= n[0]:
                    break
    except (ConnectionResetError, socket.timeout):
        pass
    s.close()
    return out


def parse(resp):
    head, _, body = resp.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(b":")
        headers[k.strip().lower().decode()] = v.strip().decode()
    return status, headers, body


def post(body, headers, read_all=False):
    h = "".join("%s: %s\r\n" % kv for kv in headers.items())
    req = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n%s\r\n" % (u.netloc, len(body), h)).encode() + body
    return parse(exchange(req, read_all))


JSON10 = {"Content-Type": "application/x-amz-json-1.0"}
TARGET = {"X-Amz-Target": "DynamoDB_20120810.ListTables"}


def t_get():
    st, h, body = parse(exchange(("GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % u.netloc).encode()))
    expect(st == 200 and body == b"healthy: dynamodb.us-east-1.amazonaws.com ", (st, body))
    expect(h["x-amz-crc32"] == str(zlib.crc32(body)) and len(h["x-amzn-requestid"]) == 52, h)


def answers(body, headers, status, expected=None):
    """A check: an unsigned POST of body with headers is answered status and,
    if given, exactly the body expected (with the body's CRC32)."""
    def run():
        st, h, got = post(body, headers)
        expect(st == status and (expected is None or got == expected), (st, got))
        expect(h.get("x-amz-crc32") == str(zlib.crc32(got)), h)
    return run


def signed(operation, body, status, fragment, **kw):
    """A check: a signed request is answered status with fragment in the body."""
    def run():
        st, h, got = raw.send(url, operation, body, **kw)
        expect(st == status and fragment in got, (st, got))
        return h
    return run


def t_application_json():
    h = signed("ListTables", "{}", 200, b"TableNames", content_type="application/json")()
    expect(h["content-type"] == "application/json", h)


def t_nul():
    """U+0000 in strings: stored whole through the gateway and answered as
    \\u0000, in keys too; nothing cut."""
    def call(op, body, status=200):
        st, _, got = raw.send(url, op, body)
        expect(st == status, (op, st, got))
        return got
    call("CreateTable", '{"TableName": "gwnul", "BillingMode": "PAY_PER_REQUEST", '
         '"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], '
         '"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}')
    try:
        call("PutItem", '{"TableName": "gwnul", "Item": {"pk": {"S": "k"}, "s": {"S": "a\\u0000b"}, '
             '"ss": {"SS": ["\\u0000", "x"]}, "m": {"M": {"n\\u0000": {"S": "\\u0000"}}}}}')
        got = call("GetItem", '{"TableName": "gwnul", "Key": {"pk": {"S": "k"}}}')
        for frag in (b'"s": {"S": "a\\u0000b"}', b'"ss": {"SS": ["\\u0000", "x"]}',
                     b'"m": {"M": {"n\\u0000": {"S": "\\u0000"}}}'):
            expect(frag in got, (frag, got))
        got = call("Query", '{"TableName": "gwnul", "KeyConditionExpression": "pk = :k", '
                   '"FilterExpression": "s = :v AND begins_with(s, :p) AND size(s) = :three", '
                   '"ExpressionAttributeValues": {":k": {"S": "k"}, ":v": {"S": "a\\u0000b"}, '
                   '":p": {"S": "a\\u0000"}, ":three": {"N": "3"}}}')
        expect(b'"Count": 1' in got, got)
        got = call("Query", '{"TableName": "gwnul", "KeyConditionExpression": "pk = :k", '
                   '"FilterExpression": "s = :v", '
                   '"ExpressionAttributeValues": {":k": {"S": "k"}, ":v": {"S": "a"}}}')
        expect(b'"Count": 0' in got, got)
        call("PutItem", '{"TableName": "gwnul", "Item": {"pk": {"S": "k\\u0000"}, "v": {"S": "nul"}}}')
        got = call("GetItem", '{"TableName": "gwnul", "Key": {"pk": {"S": "k\\u0000"}}}')
        expect(b'"pk": {"S": "k\\u0000"}' in got and b'"v": {"S": "nul"}' in got, got)
        got = call("GetItem", '{"TableName": "gwnul", "Key": {"pk": {"S": "k\\u0001"}}}')
        expect(got.strip() == b"{}", got)
        got = call("Scan", '{"TableName": "gwnul", "Select": "COUNT"}')
        expect(b'"Count": 2' in got, got)
    finally:
        call("DeleteTable", '{"TableName": "gwnul"}')


def t_nul_stream():
    """U+0000 in a stream's records: GetRecords (DynamoDB Streams' target)
    answers the keys and images whole, as \\u0000."""
    def call(op, body, streams=False):
        extra = ("X-Amz-Target: DynamoDBStreams_20120810." + op,) if streams else ()
        st, _, got = raw.send(url, op, body, extra=extra)
        expect(st == 200, (op, st, got))
        return json.loads(got)
    call("CreateTable", '{"TableName": "gwnuls", "BillingMode": "PAY_PER_REQUEST", '
         '"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], '
         '"KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], '
         '"StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_AND_OLD_IMAGES"}}')
    try:
        call("PutItem", '{"TableName": "gwnuls", "Item": {"pk": {"S": "k\\u0000"}, "s": {"S": "a\\u0000b"}}}')
        call("DeleteItem", '{"TableName": "gwnuls", "Key": {"pk": {"S": "k\\u0000"}}}')
        arn = call("DescribeTable", '{"TableName": "gwnuls"}')["Table"]["LatestStreamArn"]
        shard = call("DescribeStream", json.dumps({"StreamArn": arn}), True)["StreamDescription"]["Shards"][0]["ShardId"]
        it = call("GetShardIterator", json.dumps({"StreamArn": arn, "ShardId": shard,
                                                  "ShardIteratorType": "TRIM_HORIZON"}), True)["ShardIterator"]
        recs = call("GetRecords", json.dumps({"ShardIterator": it}), True)["Records"]
        item = {"pk": {"S": "k\0"}, "s": {"S": "a\0b"}}
        expect([(r["eventName"], r["dynamodb"]["Keys"], r["dynamodb"].get("NewImage"),
                 r["dynamodb"].get("OldImage")) for r in recs]
               == [("INSERT", {"pk": {"S": "k\0"}}, item, None),
                   ("REMOVE", {"pk": {"S": "k\0"}}, None, item)], recs)
    finally:
        call("DeleteTable", '{"TableName": "gwnuls"}')


def t_deep():
    st, _, body = post(b"[" * 5000 + b"]" * 5000, {**JSON10, **TARGET})
    expect(st == 400 and body == SER, (st, body))
    st, _, body = raw.send(url, "ListTables", '{"a": ' + "[" * 900 + "]" * 900 + "}")
    expect(st in (200, 400), (st, body))


def t_huge_length():
    t0 = time.time()
    req = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
           "Content-Length: %d\r\n\r\n{" % (u.netloc, 17 * 1024 * 1024)).encode()
    st, _, body = parse(exchange(req))
    expect(st == 413 and time.time() - t0 < 5, (st, body))


def t_huge_chunked():
    chunk = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
    out = exchange(("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                    "Transfer-Encoding: chunked\r\n\r\n" % u.netloc).encode() + chunk * 20)
    # libmicrohttpd cannot answer in the middle of an upload: it closes
    st = parse(out)[0] if out else None
    expect(st == 413 or st is None, st)


def t_keepalive():
    body = b"{}"
    one = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
           "X-Amz-Target: DynamoDB_20120810.NoSuch\r\nContent-Length: 2\r\n\r\n" % u.netloc).encode() + body
    s = socket.create_connection((u.hostname, u.port), timeout=10)
    s.sendall(one + one)
    out = b""
    while out.count(b"HTTP/1.1 400") < 2:
        c = s.recv(65536)
        if not c:
            break
        out += c
    s.close()
    expect(out.count(b"HTTP/1.1 400") == 2, out[:200])


def t_garbage():
    for data in (b"\x00\x01\x02garbage\r\n\r\n", b"GET\r\n\r\n", b"POST / HTTP/9.9\r\n\r\n",
                 b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
                 b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                 b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                 b"POST / HTTP/1.1\r\n" + b"X-A: " + b"a" * 100000 + b"\r\n\r\n"):
        # an answer or a close, or the connection waits for more (idle timeout)
        exchange(data, timeout=0.5)
    st, _, _ = parse(exchange(("GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % u.netloc).encode()))
    expect(st == 200, st)


def t_truncated():
    s = socket.create_connection((u.hostname, u.port), timeout=10)
    s.sendall(("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
               "Content-Length: 100\r\n\r\n{\"a\"" % u.netloc).encode())
    s.close()
    # the gateway dropped that request and still answers the next one
    st, _, _ = parse(exchange(("GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % u.netloc).encode()))
    expect(st == 200, st)


def t_conflicting_length():
    """Two Content-Length values, or Content-Length with chunked: a proxy
    and the server could split the stream differently (request smuggling).
    One 400, the connection closed: the request behind is never answered."""
    smuggled = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                "X-Amz-Target: DynamoDB_20120810.NoSuch\r\nContent-Length: 2\r\n\r\n{}" % u.netloc).encode()
    for head in ("Content-Length: 2\r\nContent-Length: %d\r\n" % (2 + len(smuggled)),
                 "Content-Length: %d\r\nTransfer-Encoding: chunked\r\n" % (5 + len(smuggled))):
        body = b"{}" if "chunked" not in head else b"0\r\n\r\n"
        req = ("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
               "X-Amz-Target: DynamoDB_20120810.ListTables\r\n%s\r\n" % (u.netloc, head)).encode()
        out = exchange(req + body + smuggled, timeout=5)
        expect(out.count(b"HTTP/1.1 ") == 1, (head, out[:300]))
        st, h, _ = parse(out)
        expect(st == 400 and h.get("connection", "").lower() == "close", (head, st, h))
    # the same value twice is one length (RFC 9112, 6.3): answered as usual
    st, _, body = parse(exchange(("POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-amz-json-1.0\r\n"
                                  "X-Amz-Target: DynamoDB_20120810.NoSuch\r\nContent-Length: 2\r\n"
                                  "Content-Length: 2\r\nConnection: close\r\n\r\n{}" % u.netloc).encode()))
    expect(st == 400 and body == UNKNOWN, (st, body))


def t_put():
    st, _, body = parse(exchange(("PUT / HTTP/1.1\r\nHost: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n" % u.netloc).encode()))
    expect(st == 404 and body == b"<UnknownOperationException/>\n", (st, body))


check("GET /: 200, DynamoDB's health text, x-amz-crc32, 52-character x-amzn-RequestId", t_get)
check("body not JSON: 400 SerializationException", answers(b'{"TableName": ', {**JSON10, **TARGET}, 400, SER))
check("invalid UTF-8 in the body: 400 SerializationException", answers(b'{"a": "\xff\xfe"}', {**JSON10, **TARGET}, 400, SER))
check("Content-Type text/plain: 404 <UnknownOperationException/>",
      answers(b"{}", {"Content-Type": "text/plain", **TARGET}, 404, b"<UnknownOperationException/>\n"))
check("Content-Type application/x-amz-json-1.1: 404 (as DynamoDB)",
      answers(b"{}", {"Content-Type": "application/x-amz-json-1.1", **TARGET}, 404))
check("Content-Type application/json: accepted, answered as application/json", t_application_json)
check("unknown X-Amz-Target: 400 UnknownOperationException",
      answers(b"{}", {**JSON10, "X-Amz-Target": "DynamoDB_20120810.NoSuchThing"}, 400, UNKNOWN))
check("X-Amz-Target of the 2011 API: 400 UnknownOperationException",
      answers(b"{}", {**JSON10, "X-Amz-Target": "DynamoDB_20111205.ListTables"}, 400, UNKNOWN))
check("no X-Amz-Target: 400 UnknownOperationException", answers(b"{}", JSON10, 400, UNKNOWN))
check("a DynamoDB operation hroe lacks (DescribeTableReplicaAutoScaling): 400 UnknownOperationException",
      signed("DescribeTableReplicaAutoScaling", '{"TableName": "x"}', 400, b"UnknownOperationException"))
check("DynamoDB Streams' target (DynamoDBStreams_20120810.ListStreams): passed on, 200",
      signed("ListStreams", '{}', 200, b'"Streams"', extra=("X-Amz-Target: DynamoDBStreams_20120810.ListStreams",)))
check("a DynamoDB operation under the Streams target: 400 UnknownOperationException",
      signed("GetItem", '{}', 400, UNKNOWN, extra=("X-Amz-Target: DynamoDBStreams_20120810.GetItem",)))
check("a Streams operation under DynamoDB's target: 400 UnknownOperationException",
      signed("GetRecords", '{}', 400, UNKNOWN))
check("signed, empty body: 400 SerializationException", signed("ListTables", "", 400, SER))
check("signed, body not an object: 400 SerializationException", signed("ListTables", "[1, 2]", 400, b"SerializationException"))
check("signed, \\u0000 in a DDL request's attribute name: 400 ValidationException",
      signed("CreateTable", '{"TableName": "gwx", "BillingMode": "PAY_PER_REQUEST", '
             '"AttributeDefinitions": [{"AttributeName": "p\\u0000", "AttributeType": "S"}], '
             '"KeySchema": [{"AttributeName": "p\\u0000", "KeyType": "HASH"}]}', 400, b"U+0000"))
check("signed, \\u0000 in a TableName: 400, DynamoDB's pattern",
      signed("DescribeTable", '{"TableName": "gwx\\u0000"}', 400, b"regular expression pattern"))
check("\\u0000 in strings: PutItem, GetItem, Query keep it whole, in keys too", t_nul)
check("\\u0000 in a stream's records: GetRecords answers keys and images whole", t_nul_stream)
check("5,000 nested arrays: 400 SerializationException; 900 reach hroe", t_deep)
check("Content-Length of 17 MiB: 413 before the body is read", t_huge_length)
check("chunked body past 16 MiB: the connection closed", t_huge_chunked)
check("keep-alive: two requests on one connection, two answers", t_keepalive)
check("PUT /: 404", t_put)
check("conflicting Content-Length headers, Content-Length with chunked: 400, connection closed", t_conflicting_length)
check("truncated body, then the client leaves: no harm", t_truncated)
check("garbage requests (binary, bad versions and lengths, 100 KB header): still serving", t_garbage)
print("%d failures" % failures)
sys.exit(1 if failures else 0)
