#!/usr/bin/env python3
"""test/gateway/policy_client.py URL KEY SECRET STEP: one step of
test/t_policies.sh with boto3 (SigV4) against a front end of hroe; prints
what it got (ok ..., or the error's code and message) and exits 0.

Steps: create (the table "pol" and a policy denying PutItem to
arn:aws:iam::<account>:user/gw_app), put, get, getpolicy.  The policy
operations go through raw.py's SigV4 signer when boto3 predates them
(Debian's python3-boto3 does), the item operations through boto3."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import raw  # noqa: E402

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

url, key, secret, step = sys.argv[1:5]
ddb = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                   aws_access_key_id=key, aws_secret_access_key=secret,
                   config=Config(retries={"max_attempts": 1}))


def policy_call(operation, **request):
    """A resource-policy operation: boto3's, or signed by raw.py"""
    method = {"PutResourcePolicy": "put_resource_policy",
              "GetResourcePolicy": "get_resource_policy"}[operation]
    if hasattr(ddb, method):
        return getattr(ddb, method)(**request)
    status, _, data = raw.send(url, operation, json.dumps(request), key, secret)
    body = json.loads(data)
    if status != 200:
        raise ClientError({"Error": {"Code": body["__type"].split("#")[-1],
                                     "Message": body.get("message", "")}}, operation)
    return body


try:
    if step == "create":
        try:
            ddb.delete_table(TableName="pol")
        except ClientError:
            pass
        arn = ddb.create_table(
            TableName="pol", BillingMode="PAY_PER_REQUEST",
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        )["TableDescription"]["TableArn"]
        account = arn.split(":")[4]
        rev = policy_call("PutResourcePolicy", ResourceArn=arn, Policy=json.dumps({
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Deny",
                           "Principal": {"AWS": f"arn:aws:iam::{account}:user/gw_app"},
                           "Action": "dynamodb:PutItem", "Resource": arn}]}))["RevisionId"]
        print("ok created, revision numeric:", rev.isdigit())
    elif step == "put":
        ddb.put_item(TableName="pol", Item={"pk": {"S": key}})
        print("ok put")
    elif step == "get":
        print("ok get", ddb.get_item(TableName="pol", Key={"pk": {"S": "x"}}).get("Item"))
    elif step == "getpolicy":
        arn = ddb.describe_table(TableName="pol")["Table"]["TableArn"]
        got = policy_call("GetResourcePolicy", ResourceArn=arn)
        print("ok policy", json.loads(got["Policy"])["Statement"][0]["Action"], got["RevisionId"].isdigit())
except ClientError as e:
    print(e.response["Error"]["Code"], e.response["Error"]["Message"])
