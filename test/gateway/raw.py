"""test/gateway/raw.py: raw HTTP requests to hroe-gateway, signed with a
SigV4 signer of our own (so tests can sign what no SDK sends: old dates,
wrong scopes, bodies that are not JSON) or not signed at all.

    raw.py URL send OPERATION BODY [options]   one request; prints the
        status, the x-amz-crc32 check and the body
    options: --key K --secret S (default $AWS_ACCESS_KEY_ID/$AWS_SECRET_ACCESS_KEY),
        --unsigned, --age SECONDS (sign with a date that far in the past;
        negative: future), --service NAME, --content-type T,
        --no-host (Host left out of SignedHeaders), --header 'Name: value'
"""
import argparse
import datetime
import hashlib
import hmac
import http.client
import os
import ssl
import sys
import urllib.parse
import zlib


def sign(method, host, body, headers, key, secret, region="us-east-1", service="dynamodb",
         when=None, signed=None):
    """Add X-Amz-Date and Authorization to headers (a dict, lower-case names)."""
    when = when or datetime.datetime.now(datetime.timezone.utc)
    amz_date = when.strftime("%Y%m%dT%H%M%SZ")
    headers["x-amz-date"] = amz_date
    headers.setdefault("host", host)
    names = signed if signed is not None else sorted(headers)
    canonical = "\n".join([
        method, "/", "",
        "".join("%s:%s\n" % (n, " ".join(headers[n].split())) for n in names),
        ";".join(names), hashlib.sha256(body).hexdigest()])
    scope = "%s/%s/%s/aws4_request" % (amz_date[:8], region, service)
    sts = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope,
                     hashlib.sha256(canonical.encode()).hexdigest()])
    k = ("AWS4" + secret).encode()
    for part in (amz_date[:8], region, service, "aws4_request", sts):
        k = hmac.new(k, part.encode(), hashlib.sha256).digest()
    headers["authorization"] = "AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s" % (
        key, scope, ";".join(names), k.hex())


def send(url, operation, body, key=None, secret=None, unsigned=False, age=0,
         service="dynamodb", content_type="application/x-amz-json-1.0", no_host=False,
         extra=()):
    """One request; returns (status, headers dict, body bytes)."""
    u = urllib.parse.urlparse(url)
    body = body if isinstance(body, bytes) else body.encode()
    headers = {"content-type": content_type}
    if operation:
        headers["x-amz-target"] = "DynamoDB_20120810." + operation
    for h in extra:
        name, value = h.split(":", 1)
        headers[name.strip().lower()] = value.strip()
    if not unsigned:
        when = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=age)
        signed = None
        if no_host:
            signed = sorted(n for n in headers if n != "host") + ["x-amz-date"]
            signed.sort()
        sign("POST", u.netloc, body, headers, key or os.environ["AWS_ACCESS_KEY_ID"],
             secret or os.environ["AWS_SECRET_ACCESS_KEY"], service=service, when=when,
             signed=signed)
        if no_host:
            # the Authorization was computed without host; keep it out of the list
            pass
    if u.scheme == "https":
        conn = http.client.HTTPSConnection(u.hostname, u.port, timeout=30,
                                           context=ssl._create_unverified_context())
    else:
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", "/", body=body, headers=headers)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, data


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("command", choices=["send"])
    p.add_argument("operation")
    p.add_argument("body")
    p.add_argument("--key")
    p.add_argument("--secret")
    p.add_argument("--unsigned", action="store_true")
    p.add_argument("--age", type=int, default=0)
    p.add_argument("--service", default="dynamodb")
    p.add_argument("--content-type", default="application/x-amz-json-1.0")
    p.add_argument("--no-host", action="store_true")
    p.add_argument("--header", action="append", default=[])
    p.add_argument("--print-connection", action="store_true",
                   help="a second line: the response's Connection header")
    a = p.parse_args()
    status, headers, data = send(a.url, a.operation, a.body, a.key, a.secret, a.unsigned,
                                 a.age, a.service, a.content_type, a.no_host, a.header)
    crc_ok = headers.get("x-amz-crc32") == str(zlib.crc32(data))
    print(status, "crc32-ok" if crc_ok else "crc32-BAD", data.decode("utf-8", "replace"))
    if a.print_connection:
        print("connection:", headers.get("connection", "-"))


if __name__ == "__main__":
    sys.exit(main())
