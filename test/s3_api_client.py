#!/usr/bin/python3
"""test/s3_api_client.py URL: boto3 and raw requests against S3's API on
hroe's endpoint (t_s3_api.sh): the operations, paging, and hostile inputs
(path escapes, a body over the object bound, a bad signature, an unknown
bucket, an unknown key, a bad chunk signature).  Prints ok/FAIL lines,
exits 1 on any failure."""
import hashlib
import os
import sys
import urllib.request

import boto3
import botocore
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config

url = sys.argv[1]
failures = 0


def check(label, ok):
    global failures
    print(("ok   " if ok else "FAIL ") + label)
    if not ok:
        failures += 1


def error_code(fn):
    try:
        fn()
    except botocore.exceptions.ClientError as e:
        return e.response["Error"]["Code"]
    return None


s3 = boto3.client("s3", endpoint_url=url, config=Config(s3={"addressing_style": "path"}))
s3.create_bucket(Bucket="pybkt")
check("CreateBucket again: BucketAlreadyOwnedByYou",
      error_code(lambda: s3.create_bucket(Bucket="pybkt")) == "BucketAlreadyOwnedByYou")
check("CreateBucket of a bad name: InvalidBucketName",
      error_code(lambda: s3.create_bucket(Bucket="Bad_Name")) == "InvalidBucketName")
check("ListBuckets", "pybkt" in [b["Name"] for b in s3.list_buckets()["Buckets"]])
check("HeadBucket of an unknown bucket: 404",
      error_code(lambda: s3.head_bucket(Bucket="nosuchbucket")) in ("404", "NoSuchBucket"))
check("PutObject to an unknown bucket: NoSuchBucket",
      error_code(lambda: s3.put_object(Bucket="nosuchbucket", Key="k", Body=b"x")) == "NoSuchBucket")

body = os.urandom(100000) + b"\x00end"
r = s3.put_object(Bucket="pybkt", Key="dir/sub/blob.bin", Body=body)
check("PutObject ETag is the MD5", r["ETag"].strip('"') == hashlib.md5(body).hexdigest())
g = s3.get_object(Bucket="pybkt", Key="dir/sub/blob.bin")
check("GetObject returns the bytes", g["Body"].read() == body)
h = s3.head_object(Bucket="pybkt", Key="dir/sub/blob.bin")
check("HeadObject size", h["ContentLength"] == len(body))
check("GetObject of an unknown key: NoSuchKey",
      error_code(lambda: s3.get_object(Bucket="pybkt", Key="dir/none")) == "NoSuchKey")
# upload_fileobj streams a file object: an aws-chunked body
import io
s3.upload_fileobj(io.BytesIO(b"streamed\n" * 1000), "pybkt", "up/streamed.txt")
check("upload_fileobj (chunked)", s3.get_object(Bucket="pybkt", Key="up/streamed.txt")["Body"].read() == b"streamed\n" * 1000)

for i in range(7):
    s3.put_object(Bucket="pybkt", Key="page/k%02d" % i, Body=b"%d" % i)
keys, token, pages = [], None, 0
while True:
    kw = {"Bucket": "pybkt", "Prefix": "page/", "MaxKeys": 3}
    if token:
        kw["ContinuationToken"] = token
    r = s3.list_objects_v2(**kw)
    pages += 1
    keys += [o["Key"] for o in r.get("Contents", [])]
    if not r["IsTruncated"]:
        break
    token = r["NextContinuationToken"]
check("ListObjectsV2 paged by 3: 7 keys in 3 pages", keys == ["page/k%02d" % i for i in range(7)] and pages == 3)
r = s3.list_objects_v2(Bucket="pybkt", Delimiter="/")
check("ListObjectsV2 with a delimiter: common prefixes",
      sorted(p["Prefix"] for p in r.get("CommonPrefixes", [])) == ["dir/", "page/", "up/"])

# path escapes: keys with "..", "." or empty components are refused
for key in ["../escape", "a/../../escape", "./x", "a//b", "x/.."]:
    check("PutObject key %r refused (InvalidArgument)" % key,
          error_code(lambda: s3.put_object(Bucket="pybkt", Key=key, Body=b"x")) == "InvalidArgument")

# a body over the bound: EntityTooLarge (declared too large: refused before the body)
big = b"x" * (16 * 1024 * 1024 + 1)
check("PutObject of 16 MiB + 1: EntityTooLarge",
      error_code(lambda: s3.put_object(Bucket="pybkt", Key="big", Body=big)) == "EntityTooLarge")

# a bad signature
bad = boto3.client("s3", endpoint_url=url, aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                   aws_secret_access_key="wrongsecret",
                   config=Config(s3={"addressing_style": "path"}))
check("a wrong secret: SignatureDoesNotMatch",
      error_code(lambda: bad.list_objects_v2(Bucket="pybkt")) == "SignatureDoesNotMatch")
unknown = boto3.client("s3", endpoint_url=url, aws_access_key_id="nosuchkey",
                       aws_secret_access_key="x",
                       config=Config(s3={"addressing_style": "path"}))
check("an unknown key: InvalidAccessKeyId",
      error_code(lambda: unknown.list_buckets()) == "InvalidAccessKeyId")


# a chunked body whose chunk signature is wrong
def raw(method, path, body, headers):
    creds = boto3.session.Session().get_credentials()
    req = AWSRequest(method=method, url=url + path, data=body, headers=headers)
    SigV4Auth(creds, "s3", "us-east-1").add_auth(req)
    p = req.prepare()
    try:
        with urllib.request.urlopen(urllib.request.Request(p.url, data=p.body, headers=dict(p.headers), method=method)) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


chunk = b"hello"
bodyc = b"5;chunk-signature=" + b"0" * 64 + b"\r\n" + chunk + b"\r\n0;chunk-signature=" + b"0" * 64 + b"\r\n\r\n"
st, out = raw("PUT", "/pybkt/chunked", bodyc, {
    "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
    "x-amz-decoded-content-length": "5", "Content-Encoding": "aws-chunked"})
check("a wrong chunk signature: 403 SignatureDoesNotMatch", st == 403 and b"SignatureDoesNotMatch" in out)
st, out = raw("PUT", "/pybkt/badsha", b"abc", {"x-amz-content-sha256": hashlib.sha256(b"abd").hexdigest()})
check("a body not the one signed: XAmzContentSHA256Mismatch", st == 400 and b"XAmzContentSHA256Mismatch" in out)
st, out = raw("GET", "/pybkt?acl", b"", {"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
check("a subresource hroe lacks: 501 NotImplemented", st == 501 and b"NotImplemented" in out)

# DeleteObjects, then the bucket
r = s3.list_objects_v2(Bucket="pybkt")
objs = [{"Key": o["Key"]} for o in r.get("Contents", [])]
d = s3.delete_objects(Bucket="pybkt", Delete={"Objects": objs})
check("DeleteObjects deletes them all", len(d.get("Deleted", [])) == len(objs) and not d.get("Errors"))
st, out = raw("POST", "/pybkt?delete", b"<Delete><Object>", {"x-amz-content-sha256": "UNSIGNED-PAYLOAD"})
check("DeleteObjects of malformed XML: MalformedXML", st == 400 and b"MalformedXML" in out)
s3.delete_bucket(Bucket="pybkt")
check("DeleteBucket", "pybkt" not in [b["Name"] for b in s3.list_buckets()["Buckets"]])
sys.exit(1 if failures else 0)
