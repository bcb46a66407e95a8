"""test/bench/gateway_requests.py: pre-signed DynamoDB requests for wrk
(test/bench/gateway.lua), written as one file per operation: each line holds
the X-Amz-Target, X-Amz-Date, Authorization and the body, tab-separated.
Signatures stay valid for 15 minutes (AWS's clock skew), replays included.
Usage: gateway_requests.py HOST:PORT KEY SECRET CUSTOMERS OUTDIR"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gateway"))
import raw  # noqa: E402

host, key, secret, customers, outdir = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
random.seed(1)


def body(op, i):
    c = "CUST#%d" % (random.randrange(customers) + 1)
    o = "ORDER#%04d" % (random.randrange(10) + 1)
    if op == "GetItem":
        return {"TableName": "bench", "Key": {"pk": {"S": c}, "sk": {"S": o}}}
    if op == "Query":
        return {"TableName": "bench", "KeyConditionExpression": "pk = :p",
                "ExpressionAttributeValues": {":p": {"S": c}}}
    if op == "PutItem":
        return {"TableName": "bench", "Item": {"pk": {"S": c}, "sk": {"S": o}, "status": {"S": "OPEN"},
                                               "total": {"N": "12.3"}, "note": {"S": "x" * 60}}}
    return {"TableName": "bench", "Key": {"pk": {"S": c}, "sk": {"S": o}},
            "UpdateExpression": "ADD hits :one", "ExpressionAttributeValues": {":one": {"N": "1"}}}


for op in ("GetItem", "Query", "PutItem", "UpdateItem"):
    with open(os.path.join(outdir, op + ".tsv"), "w") as f:
        for i in range(500):
            b = json.dumps(body(op, i), separators=(",", ":"))
            h = {"content-type": "application/x-amz-json-1.0", "x-amz-target": "DynamoDB_20120810." + op}
            raw.sign("POST", host, b.encode(), h, key, secret)
            f.write("\t".join([h["x-amz-target"], h["x-amz-date"], h["authorization"], b]) + "\n")
