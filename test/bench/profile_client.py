"""test/bench/profile_client.py: exactly N signed requests to hroe's in-server
HTTP workers over one keep-alive connection, one at a time, each answer
checked (status 200, no "__type"), for test/bench/profile.sh (which counts the
worker's instructions over them with callgrind).

    profile_client.py HOST:PORT KEY SECRET OPERATION N [CUSTOMERS]

OPERATION: DescribeEndpoints (answered by the worker itself after the
signature check: HTTP and SigV4 only), GetItem, PutItem or UpdateItem (one
item of the table "bench" of test/bench/api_data.sql, a random key; the
update as YCSB's DynamoDB binding sends it: AttributeUpdates, PUT of one
attribute), or Query (a random customer's orders).  Every request is
signed afresh (a new X-Amz-Date each second, as an SDK signs)."""
import http.client
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gateway"))
import raw  # noqa: E402

hostport, key, secret, op, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
customers = int(sys.argv[6]) if len(sys.argv) > 6 else 200
random.seed(1)
host, port = hostport.split(":")
conn = http.client.HTTPConnection(host, int(port), timeout=600)
for i in range(n):
    c = "CUST#%d" % (random.randrange(customers) + 1)
    o = "ORDER#%04d" % (random.randrange(10) + 1)
    if op == "GetItem":
        b = {"TableName": "bench", "Key": {"pk": {"S": c}, "sk": {"S": o}}}
    elif op == "PutItem":
        b = {"TableName": "bench", "Item": {"pk": {"S": c}, "sk": {"S": o}, "status": {"S": "OPEN"},
                                            "total": {"N": "12.3"}, "note": {"S": "x" * 60}}}
    elif op == "UpdateItem":
        b = {"TableName": "bench", "Key": {"pk": {"S": c}, "sk": {"S": o}},
             "AttributeUpdates": {"note": {"Action": "PUT", "Value": {"S": "y" * 60}}}}
    elif op == "Query":
        b = {"TableName": "bench", "KeyConditionExpression": "pk = :c",
             "ExpressionAttributeValues": {":c": {"S": c}}}
    else:
        b = {}
    body = json.dumps(b, separators=(",", ":")).encode()
    h = {"content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810." + op}
    raw.sign("POST", hostport, body, h, key, secret)
    conn.request("POST", "/", body, h)
    r = conn.getresponse()
    answer = r.read()
    if r.status != 200 or b"__type" in answer or (op == "GetItem" and b'"Item"' not in answer) or \
            (op == "Query" and b'"Items": [{' not in answer):
        sys.exit("%s: %d %s" % (op, r.status, answer[:300].decode(errors="replace")))
