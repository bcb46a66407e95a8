"""test/gateway/boto3_scenario.py: boto3 (Debian's python3-boto3) against
hroe-gateway, unchanged but for endpoint_url (on-demand backups too).  Prints one line per check;
exits 1 if any fails.  Usage: boto3_scenario.py ENDPOINT (credentials from
the AWS_* environment)."""
import sys

import boto3
from botocore.config import Config

endpoint = sys.argv[1]
ddb = boto3.client("dynamodb", endpoint_url=endpoint,
                   config=Config(retries={"max_attempts": 2}))
failures = 0


def check(label, fn):
    global failures
    try:
        fn()
        print("ok   " + label)
    except Exception as e:  # noqa: BLE001 - any failure is reported
        failures += 1
        print("FAIL %s: %r" % (label, e))


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


T = "boto3_orders"
key = {"pk": {"S": "c1"}, "sk": {"N": "1"}}


def create():
    ddb.create_table(
        TableName=T, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "status", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "by_status",
            "KeySchema": [{"AttributeName": "status", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}])


check("CreateTable with a GSI", create)
check("waiter table_exists",
      lambda: ddb.get_waiter("table_exists").wait(TableName=T, WaiterConfig={"Delay": 1}))
check("PutItem", lambda: ddb.put_item(
    TableName=T, Item={**key, "status": {"S": "OPEN"}, "n": {"N": "10"}}))
check("GetItem", lambda: expect(
    ddb.get_item(TableName=T, Key=key)["Item"]["n"] == {"N": "10"}, "n is 10"))
check("UpdateItem ADD", lambda: expect(
    ddb.update_item(TableName=T, Key=key, UpdateExpression="ADD n :d",
                    ExpressionAttributeValues={":d": {"N": "5"}},
                    ReturnValues="UPDATED_NEW")["Attributes"]["n"] == {"N": "15"}, "n is 15"))


def conditional():
    try:
        ddb.put_item(TableName=T, Item=key, ConditionExpression="attribute_not_exists(pk)")
    except ddb.exceptions.ConditionalCheckFailedException as e:
        expect(e.response["Error"]["Message"] == "The conditional request failed", "message")
        return
    raise AssertionError("no ConditionalCheckFailedException")


check("ConditionalCheckFailedException (the SDK's class)", conditional)


def batch_write():
    items = [{"PutRequest": {"Item": {"pk": {"S": "c1"}, "sk": {"N": str(i)},
                                      "status": {"S": "OPEN" if i % 2 == 0 else "CLOSED"}}}}
             for i in range(2, 27)]
    r = ddb.batch_write_item(RequestItems={T: items})
    expect(r["UnprocessedItems"] == {}, "all processed")


check("BatchWriteItem (25 puts)", batch_write)
check("BatchGetItem (3 keys)", lambda: expect(len(ddb.batch_get_item(RequestItems={T: {"Keys": [
    {"pk": {"S": "c1"}, "sk": {"N": str(i)}} for i in (2, 3, 4)]}})["Responses"][T]) == 3, "3 items"))


def paginate(op, **kw):
    pages = list(ddb.get_paginator(op).paginate(**kw))
    return pages, sum(p["Count"] for p in pages)


def query_pages():
    pages, n = paginate("query", TableName=T, KeyConditionExpression="pk = :p",
                        ExpressionAttributeValues={":p": {"S": "c1"}},
                        PaginationConfig={"PageSize": 4})
    expect(n == 26 and len(pages) >= 7, "26 items in 7+ pages, got %d in %d" % (n, len(pages)))


def gsi_pages():
    pages, n = paginate("query", TableName=T, IndexName="by_status",
                        KeyConditionExpression="#s = :s",
                        ExpressionAttributeNames={"#s": "status"},
                        ExpressionAttributeValues={":s": {"S": "OPEN"}},
                        PaginationConfig={"PageSize": 5})
    expect(n == 14 and len(pages) >= 3, "14 items in 3+ pages, got %d" % n)


def scan_pages():
    pages, n = paginate("scan", TableName=T, PaginationConfig={"PageSize": 7})
    expect(n == 26 and len(pages) >= 4, "26 items in 4+ pages, got %d" % n)


check("Query paginator (page size 4): 26 items", query_pages)
check("Query paginator on the GSI: 14 items", gsi_pages)
check("Scan paginator (page size 7): 26 items", scan_pages)


def transaction():
    try:
        ddb.transact_write_items(TransactItems=[
            {"Put": {"TableName": T, "Item": {"pk": {"S": "c2"}, "sk": {"N": "1"}}}},
            {"ConditionCheck": {"TableName": T, "Key": key, "ConditionExpression": "n > :n",
                                "ExpressionAttributeValues": {":n": {"N": "100"}}}}])
    except ddb.exceptions.TransactionCanceledException as e:
        codes = [r["Code"] for r in e.response["CancellationReasons"]]
        expect(codes == ["None", "ConditionalCheckFailed"], "reasons %r" % codes)
        expect("Item" not in ddb.get_item(TableName=T, Key={"pk": {"S": "c2"}, "sk": {"N": "1"}}),
               "nothing written")
        return
    raise AssertionError("no TransactionCanceledException")


check("TransactWriteItems: TransactionCanceledException with CancellationReasons", transaction)


# on-demand backups: made, listed, restored with its GSI, deleted
backup = {}


def create_backup():
    d = ddb.create_backup(TableName=T, BackupName="boto3_nightly")["BackupDetails"]
    expect(d["BackupStatus"] == "CREATING" and "/backup/" in d["BackupArn"], "details %r" % d)
    backup["arn"] = d["BackupArn"]


def restore():
    t = ddb.restore_table_from_backup(TargetTableName=T + "_copy",
                                      BackupArn=backup["arn"])["TableDescription"]
    expect(t["RestoreSummary"]["SourceBackupArn"] == backup["arn"]
           and t["RestoreSummary"]["RestoreInProgress"], "restore summary %r" % t.get("RestoreSummary"))
    ddb.get_waiter("table_exists").wait(TableName=T + "_copy", WaiterConfig={"Delay": 1})
    pages, n = paginate("query", TableName=T + "_copy", IndexName="by_status",
                        KeyConditionExpression="#s = :s", ExpressionAttributeNames={"#s": "status"},
                        ExpressionAttributeValues={":s": {"S": "OPEN"}})
    expect(n == 14, "14 items in the restored GSI, got %d" % n)


def delete_backup():
    d = ddb.delete_backup(BackupArn=backup["arn"])["BackupDescription"]["BackupDetails"]
    expect(d["BackupStatus"] == "DELETED", "status %r" % d["BackupStatus"])
    try:
        ddb.describe_backup(BackupArn=backup["arn"])
    except ddb.exceptions.BackupNotFoundException:
        return
    raise AssertionError("no BackupNotFoundException")


check("CreateBackup", create_backup)
check("DescribeBackup: AVAILABLE", lambda: expect(
    ddb.describe_backup(BackupArn=backup["arn"])["BackupDescription"]["BackupDetails"]["BackupStatus"]
    == "AVAILABLE", "available"))
check("ListBackups", lambda: expect(
    [b["BackupArn"] for b in ddb.list_backups(TableName=T)["BackupSummaries"]] == [backup["arn"]], "listed"))
check("RestoreTableFromBackup: its GSI answers 14 items", restore)
check("DeleteBackup, then BackupNotFoundException", delete_backup)
check("DeleteTable of the restored table", lambda: ddb.delete_table(TableName=T + "_copy"))
check("DeleteItem ALL_OLD", lambda: expect(
    ddb.delete_item(TableName=T, Key=key, ReturnValues="ALL_OLD")["Attributes"]["n"] == {"N": "15"},
    "old item returned"))
check("DescribeTable", lambda: expect(
    ddb.describe_table(TableName=T)["Table"]["GlobalSecondaryIndexes"][0]["IndexName"] == "by_status",
    "GSI described"))
check("ListTables paginator", lambda: expect(
    T in [n for p in ddb.get_paginator("list_tables").paginate() for n in p["TableNames"]], "listed"))
check("DeleteTable", lambda: ddb.delete_table(TableName=T))
check("waiter table_not_exists",
      lambda: ddb.get_waiter("table_not_exists").wait(TableName=T, WaiterConfig={"Delay": 1}))
print("%d failures" % failures)
sys.exit(1 if failures else 0)
