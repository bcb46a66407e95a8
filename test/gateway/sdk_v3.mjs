// test/gateway/sdk_v3.mjs: the AWS SDK for JavaScript v3
// (@aws-sdk/client-dynamodb) against hroe-gateway, unchanged but for the
// endpoint.  Prints one line per check; exits 1 if any fails.
// Usage: node sdk_v3.mjs ENDPOINT (credentials from the AWS_* environment)
import {
  DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand, UpdateItemCommand,
  DeleteItemCommand, BatchWriteItemCommand, BatchGetItemCommand, TransactWriteItemsCommand,
  DescribeTableCommand, ListTablesCommand, DeleteTableCommand, paginateQuery, paginateScan,
  waitUntilTableExists, ConditionalCheckFailedException, TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";

const client = new DynamoDBClient({ endpoint: process.argv[2], region: "us-east-1", maxAttempts: 2 });
let failures = 0;

async function check(label, fn) {
  try {
    await fn();
    console.log(`ok   ${label}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${label}: ${e.name}: ${e.message}`);
  }
}
function expect(cond, what) {
  if (!cond) throw new Error(what);
}

const T = "js_orders";
const key = { pk: { S: "c1" }, sk: { N: "1" } };

await check("CreateTable with a GSI", () => client.send(new CreateTableCommand({
  TableName: T, BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" },
    { AttributeName: "sk", AttributeType: "N" }, { AttributeName: "status", AttributeType: "S" }],
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
  GlobalSecondaryIndexes: [{
    IndexName: "by_status", Projection: { ProjectionType: "ALL" },
    KeySchema: [{ AttributeName: "status", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }],
  }],
})));
await check("waiter waitUntilTableExists", async () => {
  const r = await waitUntilTableExists({ client, maxWaitTime: 20, minDelay: 1 }, { TableName: T });
  expect(r.state === "SUCCESS", r.state);
});
await check("PutItem", () => client.send(new PutItemCommand({
  TableName: T, Item: { ...key, status: { S: "OPEN" }, n: { N: "10" } } })));
await check("GetItem", async () => {
  const r = await client.send(new GetItemCommand({ TableName: T, Key: key }));
  expect(r.Item.n.N === "10", "n is 10");
});
await check("UpdateItem ADD", async () => {
  const r = await client.send(new UpdateItemCommand({ TableName: T, Key: key,
    UpdateExpression: "ADD n :d", ExpressionAttributeValues: { ":d": { N: "5" } }, ReturnValues: "UPDATED_NEW" }));
  expect(r.Attributes.n.N === "15", "n is 15");
});
await check("ConditionalCheckFailedException (the SDK's class)", async () => {
  try {
    await client.send(new PutItemCommand({ TableName: T, Item: key, ConditionExpression: "attribute_not_exists(pk)" }));
  } catch (e) {
    expect(e instanceof ConditionalCheckFailedException, `got ${e.name}`);
    expect(e.$metadata.httpStatusCode === 400, "status 400");
    return;
  }
  throw new Error("no exception");
});
await check("BatchWriteItem (25 puts)", async () => {
  const items = [];
  for (let i = 2; i <= 26; i++)
    items.push({ PutRequest: { Item: { pk: { S: "c1" }, sk: { N: String(i) }, status: { S: i % 2 ? "CLOSED" : "OPEN" } } } });
  const r = await client.send(new BatchWriteItemCommand({ RequestItems: { [T]: items } }));
  expect(Object.keys(r.UnprocessedItems).length === 0, "all processed");
});
await check("BatchGetItem (3 keys)", async () => {
  const r = await client.send(new BatchGetItemCommand({ RequestItems: { [T]: {
    Keys: [2, 3, 4].map((i) => ({ pk: { S: "c1" }, sk: { N: String(i) } })) } } }));
  expect(r.Responses[T].length === 3, "3 items");
});
async function count(paginator) {
  let pages = 0, n = 0;
  for await (const page of paginator) { pages++; n += page.Count; }
  return [pages, n];
}
await check("paginateQuery (page size 4): 26 items", async () => {
  const [pages, n] = await count(paginateQuery({ client, pageSize: 4 }, { TableName: T,
    KeyConditionExpression: "pk = :p", ExpressionAttributeValues: { ":p": { S: "c1" } } }));
  expect(n === 26 && pages >= 7, `${n} items in ${pages} pages`);
});
await check("paginateQuery on the GSI: 14 items", async () => {
  const [pages, n] = await count(paginateQuery({ client, pageSize: 5 }, { TableName: T, IndexName: "by_status",
    KeyConditionExpression: "#s = :s", ExpressionAttributeNames: { "#s": "status" },
    ExpressionAttributeValues: { ":s": { S: "OPEN" } } }));
  expect(n === 14 && pages >= 3, `${n} items in ${pages} pages`);
});
await check("paginateScan (page size 7): 26 items", async () => {
  const [pages, n] = await count(paginateScan({ client, pageSize: 7 }, { TableName: T }));
  expect(n === 26 && pages >= 4, `${n} items in ${pages} pages`);
});
await check("TransactWriteItems: TransactionCanceledException with CancellationReasons", async () => {
  try {
    await client.send(new TransactWriteItemsCommand({ TransactItems: [
      { Put: { TableName: T, Item: { pk: { S: "c2" }, sk: { N: "1" } } } },
      { ConditionCheck: { TableName: T, Key: key, ConditionExpression: "n > :n",
        ExpressionAttributeValues: { ":n": { N: "100" } } } }] }));
  } catch (e) {
    expect(e instanceof TransactionCanceledException, `got ${e.name}`);
    const codes = e.CancellationReasons.map((r) => r.Code).join(",");
    expect(codes === "None,ConditionalCheckFailed", codes);
    const r = await client.send(new GetItemCommand({ TableName: T, Key: { pk: { S: "c2" }, sk: { N: "1" } } }));
    expect(r.Item === undefined, "nothing written");
    return;
  }
  throw new Error("no exception");
});
await check("DeleteItem ALL_OLD", async () => {
  const r = await client.send(new DeleteItemCommand({ TableName: T, Key: key, ReturnValues: "ALL_OLD" }));
  expect(r.Attributes.n.N === "15", "old item returned");
});
await check("DescribeTable", async () => {
  const r = await client.send(new DescribeTableCommand({ TableName: T }));
  expect(r.Table.GlobalSecondaryIndexes[0].IndexName === "by_status", "GSI described");
});
await check("ListTables", async () => {
  const r = await client.send(new ListTablesCommand({}));
  expect(r.TableNames.includes(T), "listed");
});
await check("DeleteTable", () => client.send(new DeleteTableCommand({ TableName: T })));
console.log(`${failures} failures`);
process.exit(failures ? 1 : 0);
