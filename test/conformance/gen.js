#!/usr/bin/env node
// Generates corpus.jsonl deterministically: node gen.js > corpus.jsonl
// One JSON object a line: {"op", "req", "note"?, "deviation"?, "capacity"?,
// "spec"?, "expect"?}.  "spec" entries are not sent to dynalite (it has no
// transactions); "expect" is the response DynamoDB's documentation specifies.
'use strict'
const out = []
const add = (op, req, extra) => out.push(Object.assign({ op, req }, extra || {}))
const S = s => ({ S: String(s) })
const N = n => ({ N: String(n) })

// ---------- tables ----------
const pay = { BillingMode: 'PAY_PER_REQUEST' }
add('CreateTable', Object.assign({
  TableName: 'conf_simple',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }]
}, pay), { note: 'hash key' })
add('CreateTable', Object.assign({
  TableName: 'conf_comp',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }]
}, pay), { note: 'hash + range N' })
add('CreateTable', Object.assign({
  TableName: 'conf_gsi',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'status', AttributeType: 'S' }, { AttributeName: 'created', AttributeType: 'S' }],
  GlobalSecondaryIndexes: [{
    IndexName: 'byStatus',
    KeySchema: [{ AttributeName: 'status', KeyType: 'HASH' }, { AttributeName: 'created', KeyType: 'RANGE' }],
    Projection: { ProjectionType: 'ALL' }
  }]
}, pay), { note: 'with a GSI' })
add('CreateTable', Object.assign({
  TableName: 'conf_incl',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'N' }],
  GlobalSecondaryIndexes: [
    { IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['a', 'b'] } },
    { IndexName: 'byGkeys', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }, { AttributeName: 'pk', KeyType: 'RANGE' }], Projection: { ProjectionType: 'KEYS_ONLY' } }]
}, pay), { note: 'INCLUDE and KEYS_ONLY GSIs' })
for (let i = 0; i < 6; i++) add('PutItem', { TableName: 'conf_incl', Item: { pk: S('i' + i), g: N(i % 2), a: S('a' + i), b: N(i), c: S('not projected') } }, { note: 'projected GSIs' })
add('Query', { TableName: 'conf_incl', IndexName: 'byG', KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': N(1) } }, { note: 'INCLUDE GSI' })
add('Query', { TableName: 'conf_incl', IndexName: 'byGkeys', KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': N(0) }, ScanIndexForward: false }, { note: 'KEYS_ONLY GSI, descending' })
add('Query', { TableName: 'conf_incl', IndexName: 'byG', KeyConditionExpression: 'g = :g', ExpressionAttributeValues: { ':g': N(1) }, Select: 'ALL_ATTRIBUTES' }, { note: 'E27 ALL_ATTRIBUTES on INCLUDE' })
add('DescribeTable', { TableName: 'conf_incl' })
add('CreateTable', Object.assign({
  TableName: 'conf_bin',
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'B' }]
}, pay), { note: 'binary key' })
add('CreateTable', Object.assign({
  TableName: 'conf_simple',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }]
}, pay), { note: 'already exists', deviation: 'message', message: 'Table already exists: conf_simple' })
for (const t of ['conf_simple', 'conf_comp', 'conf_gsi', 'conf_bin']) add('DescribeTable', { TableName: t })
add('DescribeTable', { TableName: 'conf_nope' }, { note: 'missing table' })

// ---------- data ----------
const users = ['alice', 'bob', 'carol', 'dave', 'erin']
const compItems = []
for (let i = 0; i < 40; i++) {
  const item = {
    pk: S('user#' + users[i % 5]),
    sk: N(i * 7 - 50),
    name: S('n' + String(i).padStart(2, '0')),
    age: N(20 + (i * 13) % 50),
    active: { BOOL: i % 3 === 0 }
  }
  if (i % 2 === 0) item.tags = { SS: ['t' + (i % 4), 'all'] }
  if (i % 5 === 1) item.scores = { NS: [String(i), String(i * 2 + 1)] }
  if (i % 4 === 0) item.address = { M: { city: S(['Oslo', 'Lima', 'Pune'][i % 3]), zip: N(1000 + i) } }
  if (i % 6 === 0) item.list = { L: [S('a'), N(i), { BOOL: true }, { NULL: true }] }
  if (i % 7 === 3) item.nothing = { NULL: true }
  compItems.push(item)
  add('PutItem', { TableName: 'conf_comp', Item: item }, { note: 'load' })
}
const simpleItems = []
for (let i = 0; i < 20; i++) {
  const item = { pk: S('k' + i), v: N(i), s: S('value ' + i), blob: { B: Buffer.from('b' + i).toString('base64') } }
  simpleItems.push(item)
  add('PutItem', { TableName: 'conf_simple', Item: item, ReturnConsumedCapacity: 'TOTAL' }, { note: 'load, capacity' })
}
const statuses = ['OPEN', 'SHIPPED', 'CLOSED']
for (let i = 0; i < 24; i++) {
  const item = { pk: S('cust#' + (i % 4)), sk: S('order#' + String(i).padStart(3, '0')), total: N((i * 37) % 100 + 0.5) }
  if (i % 5 !== 4) { item.status = S(statuses[i % 3]); item.created = S('2025-0' + (1 + i % 9) + '-1' + (i % 10)) }
  add('PutItem', { TableName: 'conf_gsi', Item: item }, { note: i % 5 === 4 ? 'load, not in the sparse GSI' : 'load' })
}
for (let i = 0; i < 4; i++) add('PutItem', { TableName: 'conf_bin', Item: { id: { B: Buffer.from([i, 255 - i]).toString('base64') }, n: N(i) } }, { note: 'binary key' })

// ---------- PutItem variants ----------
add('PutItem', { TableName: 'conf_simple', Item: simpleItems[0], ReturnValues: 'ALL_OLD' }, { note: 'ALL_OLD' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('num'), a: N('1e2'), b: N('100.000'), c: N('-0'), d: N('0.00100') } }, { note: 'number normalisation' })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('num') } }, { note: 'normalised numbers' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('cond1'), v: N(1) }, ConditionExpression: 'attribute_not_exists(pk)' }, { note: 'condition true' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('cond1'), v: N(2) }, ConditionExpression: 'attribute_not_exists(pk)' }, { note: 'E22 condition false' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('cond1'), v: N(3) }, ConditionExpression: 'v = :one', ExpressionAttributeValues: { ':one': N(1) } }, { note: 'condition on old value' })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('cond1') } }, { note: 'after conditional puts' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('cond1'), v: N(4) }, ConditionExpression: '#v < :x', ExpressionAttributeNames: { '#v': 'v' }, ExpressionAttributeValues: { ':x': N(3) } }, { note: 'E22 with names' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('u'), s: S('é'.repeat(1000)) }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'UTF-8 size 2004 B, UTF-16 1004', deviation: 'utf16-size', capacity: 2 })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('u') }, ProjectionExpression: 'pk' }, { note: 'projection' })
// errors
add('PutItem', { TableName: 'conf_comp', Item: { pk: S('x') } }, { note: 'E1 missing key' })
add('PutItem', { TableName: 'conf_comp', Item: { pk: S('x'), sk: S('1') } }, { note: 'E2 key type' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('') } }, { note: 'E4 empty key' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'.repeat(2049)) } }, { note: 'E5 hash key size' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), n: N('abc') } }, { note: 'E9 number' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), n: N('1' + '2'.repeat(38)) } }, { note: 'E9 digits' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), n: N('1e126') } }, { note: 'E9 overflow' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), n: N('1e-131') } }, { note: 'E9 underflow' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), big: S('x'.repeat(409600)) } }, { note: 'E10 item size' })
add('PutItem', { TableName: 'conf_gsi', Item: { pk: S('x'), sk: S('y'), status: N(1), created: S('z') } }, { note: 'E11 index key type' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ReturnValues: 'ALL_NEW' }, { note: 'E17' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { SS: [] } } }, { note: 'E30 empty set' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { SS: ['a', 'a'] } } }, { note: 'E30 duplicates' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { NS: [] } } }, { note: 'E30 empty NS' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { BS: [] } } }, { note: 'E30 empty BS' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { NS: ['1', '1.0'] } } }, { note: 'E30 NS duplicates' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { BS: ['Yg==', 'Yg=='] } } }, { note: 'E30 BS duplicates' })
// the request's members checked before the table is looked up, every
// violation in one message, in DynamoDB's order
add('PutItem', { TableName: 'bad table!@#', Item: { pk: S('x') } }, { note: 'table name pattern' })
add('GetItem', { TableName: 'ab', Key: { pk: S('x') } }, { note: 'table name too short' })
add('DeleteItem', { TableName: 'a'.repeat(256), Key: { pk: S('x') } }, { note: 'table name too long' })
add('GetItem', { TableName: 'v!', ReturnConsumedCapacity: 'ALL' }, { note: 'three violations' })
add('UpdateItem', { TableName: 'conf_nope', Key: { pk: S('x') }, ReturnValues: 'INVALID', ReturnConsumedCapacity: 'INVALID' }, { note: 'two enums, before the table' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('x') }, ReturnConsumedCapacity: 'INVALID', Select: 'INVALID' }, { note: 'Select and ReturnConsumedCapacity' })
add('BatchWriteItem', { ReturnConsumedCapacity: 'hi', ReturnItemCollectionMetrics: 'hi' }, { note: 'two enums and no RequestItems' })
add('DescribeTable', {}, { note: 'no TableName' })
add('DeleteTable', { TableName: 'a;' }, { note: 'table name too short' })
add('DescribeTable', { TableName: 'ab;' }, { note: 'table name pattern' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, Expected: { pk: { Exists: false } }, ConditionExpression: 'attribute_not_exists(pk)' }, { note: 'expression and non-expression parameters' })
add('UpdateItem', { TableName: 'conf_simple', Key: { pk: S('x') }, AttributeUpdates: { a: { Action: 'DELETE' } }, UpdateExpression: 'SET b = :b', ExpressionAttributeValues: { ':b': N(1) } }, { note: 'UpdateExpression and AttributeUpdates' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x'), s: { NULL: false } } }, { note: 'E30 NULL false' })
add('PutItem', { TableName: 'conf_nope', Item: { pk: S('x') } }, { note: 'E28 no table' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ConditionExpression: 'a = :zz' }, { note: 'E15 undefined value' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ConditionExpression: 'attribute_exists(#x)' }, { note: 'E15 undefined name' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ConditionExpression: 'name = :v', ExpressionAttributeValues: { ':v': S('a') } }, { note: 'E15 reserved word' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ConditionExpression: 'a = :v', ExpressionAttributeValues: { ':v': S('a'), ':unused': S('b') } }, { note: 'E16 unused value' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ExpressionAttributeValues: { ':v': S('a') } }, { note: 'values without expression' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('x') }, ConditionExpression: 'a = = :v', ExpressionAttributeValues: { ':v': S('a') } }, { note: 'syntax error', deviation: 'syntax-error-message' })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('x') } }, { note: 'nothing written by the failures' })

// ---------- GetItem ----------
for (let i = 0; i < 40; i += 3) {
  const it = compItems[i]
  add('GetItem', { TableName: 'conf_comp', Key: { pk: it.pk, sk: it.sk } })
}
for (let i = 0; i < 20; i += 2) add('GetItem', { TableName: 'conf_simple', Key: { pk: S('k' + i) }, ReturnConsumedCapacity: 'TOTAL', ConsistentRead: i % 4 === 0 }, { note: 'capacity' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('user#alice'), sk: N(12345) } }, { note: 'missing item' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('user#alice'), sk: N(12345) }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'missing item capacity' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: compItems[0].pk, sk: compItems[0].sk }, ProjectionExpression: 'address.city, list[1], #n', ExpressionAttributeNames: { '#n': 'name' } }, { note: 'nested projection' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: compItems[0].pk, sk: compItems[0].sk }, ProjectionExpression: 'tags, nope' }, { note: 'projection of a missing attribute' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('user#alice') } }, { note: 'E3 key lacks sort key' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('user#alice'), sk: S('1') } }, { note: 'E3 key type' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('user#alice'), sk: N(1), x: S('y') } }, { note: 'E3 extra attribute' })
add('GetItem', { TableName: 'conf_nope', Key: { pk: S('x') } }, { note: 'E28 no table' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: compItems[0].pk, sk: compItems[0].sk }, ProjectionExpression: 'a, a' }, { note: 'E19 overlapping projection' })
for (let i = 0; i < 4; i++) add('GetItem', { TableName: 'conf_bin', Key: { id: { B: Buffer.from([i, 255 - i]).toString('base64') } } }, { note: 'binary key' })

// ---------- Query ----------
const sorted = u => compItems.filter(x => x.pk.S === 'user#' + u).sort((a, b) => a.sk.N - b.sk.N)
for (const u of users) {
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#' + u) } })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#' + u) }, ScanIndexForward: false }, { note: 'descending' })
  for (const [op, v] of [['<', 0], ['<=', -50], ['>', 100], ['>=', 41], ['=', -15]]) {
    add('Query', { TableName: 'conf_comp', KeyConditionExpression: `pk = :p AND sk ${op} :v`, ExpressionAttributeValues: { ':p': S('user#' + u), ':v': N(v) } }, { note: 'sk ' + op })
  }
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': S('user#' + u), ':a': N(-20), ':b': N(90) } }, { note: 'BETWEEN' })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: ':v <= sk AND pk = :p', ExpressionAttributeValues: { ':p': S('user#' + u), ':v': N(60) } }, { note: 'operands reversed' })
  // paging with Limit 3, resuming after each page's last key
  const items = sorted(u)
  let start
  for (let page = 0; page * 3 < items.length + 1 && page < 4; page++) {
    const req = { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#' + u) }, Limit: 3, ReturnConsumedCapacity: 'TOTAL' }
    if (start) req.ExclusiveStartKey = start
    const last = items[page * 3 + 2]
    add('Query', req, { note: 'page ' + (page + 1) + ' of Limit 3' })
    if (!last) break
    start = { pk: last.pk, sk: last.sk }
  }
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', FilterExpression: 'age > :a', ExpressionAttributeValues: { ':p': S('user#' + u), ':a': N(40) } }, { note: 'filter' })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', FilterExpression: 'contains(tags, :t) OR attribute_exists(address)', ExpressionAttributeValues: { ':p': S('user#' + u), ':t': S('t0') }, Limit: 4 }, { note: 'filter after Limit' })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ProjectionExpression: '#n, age', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':p': S('user#' + u) } }, { note: 'projection' })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', Select: 'COUNT', ExpressionAttributeValues: { ':p': S('user#' + u) } }, { note: 'COUNT' })
  add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', Select: 'COUNT', FilterExpression: 'active = :t', ExpressionAttributeValues: { ':p': S('user#' + u), ':t': { BOOL: true } } }, { note: 'filtered COUNT' })
}
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#nobody') }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'empty', deviation: 'empty-read-capacity' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#nobody') }, ReturnConsumedCapacity: 'TOTAL', ConsistentRead: true }, { note: 'empty, consistent', deviation: 'empty-read-capacity' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#alice') }, ReturnConsumedCapacity: 'TOTAL', ConsistentRead: true }, { note: 'capacity' })
for (const s of statuses) {
  add('Query', { TableName: 'conf_gsi', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': S(s) } }, { note: 'GSI' })
  add('Query', { TableName: 'conf_gsi', IndexName: 'byStatus', KeyConditionExpression: '#s = :s AND begins_with(created, :c)', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': S(s), ':c': S('2025-0') } }, { note: 'GSI begins_with' })
  add('Query', { TableName: 'conf_gsi', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': S(s) }, ScanIndexForward: false, FilterExpression: 'total > :t', ExpressionAttributeValues2: undefined }, { note: 'GSI descending, E15 filter value' })
}
for (let c = 0; c < 4; c++) {
  add('Query', { TableName: 'conf_gsi', KeyConditionExpression: 'pk = :p AND begins_with(sk, :o)', ExpressionAttributeValues: { ':p': S('cust#' + c), ':o': S('order#01') } }, { note: 'begins_with' })
  add('Query', { TableName: 'conf_gsi', KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': S('cust#' + c), ':a': S('order#005'), ':b': S('order#015') } }, { note: 'S BETWEEN' })
}
// Query errors
const qv = { ':p': S('user#alice') }
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p AND begins_with(sk, :v)', ExpressionAttributeValues: { ':p': S('user#alice'), ':v': N(1) } }, { note: 'E7 begins_with on N' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': S('user#alice'), ':a': N(5), ':b': N(1) } }, { note: 'E8 BETWEEN bounds' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': N(1) } }, { note: 'E12 value type' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'sk = :p', ExpressionAttributeValues: { ':p': N(1) } }, { note: 'E13 no pk condition' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk < :p', ExpressionAttributeValues: qv }, { note: 'E13 pk not =' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p OR sk = :p', ExpressionAttributeValues: qv }, { note: 'E13 OR' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p AND pk = :p', ExpressionAttributeValues: qv }, { note: 'E13 two conditions on pk' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', FilterExpression: 'sk > :n', ExpressionAttributeValues: { ':p': S('user#alice'), ':n': N(1) } }, { note: 'E14 filter on key' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('user#alice'), ':x': N(1) } }, { note: 'E16 unused value' })
// Query's Limit 0: DynamoDB no longer echoes the value, and names the member
// 'Limit' (nubo-db/dynamodb-conformance, recorded against DynamoDB; its Scan
// keeps "Value '0' at 'limit'"); dynalite 4.0.0 answers the old wording
const limitMessage = "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: qv, Limit: 0 }, { note: 'E23 Limit 0', deviation: 'message', message: limitMessage })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: qv, ExclusiveStartKey: { pk: S('user#alice') } }, { note: 'E24 bad start key' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: qv, ExclusiveStartKey: { pk: S('user#bob'), sk: N(1) } }, { note: 'E25 start key outside' })
add('Query', { TableName: 'conf_gsi', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': S('OPEN') }, ConsistentRead: true }, { note: 'E26 consistent GSI' })
add('Query', { TableName: 'conf_gsi', IndexName: 'nope', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('x') } }, { note: 'E28 no index' })
add('Query', { TableName: 'conf_nope', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('x') } }, { note: 'E28 no table' })
add('Query', { TableName: 'conf_comp', KeyConditionExpression: 'pk = :p AND name = :p', ExpressionAttributeValues: qv }, { note: 'E15 reserved word' })

// ---------- Scan ----------
add('Scan', { TableName: 'conf_simple' }, { note: 'whole table' })
add('Scan', { TableName: 'conf_comp' }, { note: 'whole table' })
add('Scan', { TableName: 'conf_gsi' }, { note: 'whole table' })
add('Scan', { TableName: 'conf_gsi', IndexName: 'byStatus' }, { note: 'sparse GSI' })
add('Scan', { TableName: 'conf_bin' }, { note: 'binary keys' })
add('Scan', { TableName: 'conf_comp', Select: 'COUNT' }, { note: 'COUNT' })
add('Scan', { TableName: 'conf_comp', ReturnConsumedCapacity: 'TOTAL' }, { note: 'capacity' })
const filters = [
  ['age BETWEEN :a AND :b', { ':a': N(30), ':b': N(45) }],
  ['attribute_exists(tags) AND NOT contains(tags, :t)', { ':t': S('t2') }],
  ['size(#n) = :three', { ':three': N(3) }, { '#n': 'name' }],
  ['attribute_type(scores, :ns)', { ':ns': S('NS') }],
  ['address.city IN (:a, :b)', { ':a': S('Oslo'), ':b': S('Pune') }],
  ['list[1] > :z', { ':z': N(10) }],
  ['begins_with(#n, :p)', { ':p': S('n1') }, { '#n': 'name' }],
  ['active = :f OR age < :y', { ':f': { BOOL: false }, ':y': N(25) }],
  ['attribute_not_exists(address) AND (age >= :x)', { ':x': N(50) }],
  ['contains(scores, :n)', { ':n': N(11) }],
  ['size(list) > :n', { ':n': N(3) }],
  ['nothing = :null', { ':null': { NULL: true } }],
  ['sk < :s', { ':s': N(0) }],
  ['age <> :a', { ':a': N(20) }],
  ['pk = :s', { ':s': N(1) }]
]
for (const [f, v, names] of filters) {
  const req = { TableName: 'conf_comp', FilterExpression: f, ExpressionAttributeValues: v }
  if (names) req.ExpressionAttributeNames = names
  add('Scan', req, { note: 'filter ' + f })
  add('Scan', Object.assign({}, req, { ProjectionExpression: 'pk, sk' }), { note: 'filter + projection' })
}
add('Scan', { TableName: 'conf_comp', Limit: 7 }, { note: 'Limit', deviation: 'scan-order' })
add('Scan', { TableName: 'conf_comp', Limit: 40 }, { note: 'Limit = item count', deviation: 'scan-order' })
add('Scan', { TableName: 'conf_comp', Limit: 5, FilterExpression: 'age > :a', ExpressionAttributeValues: { ':a': N(1000) } }, { note: 'Limit, filter matches nothing', deviation: 'scan-order' })
add('Scan', { TableName: 'conf_comp', Limit: 0 }, { note: 'E23 (Scan keeps the old wording)' })
add('Scan', { TableName: 'conf_comp', FilterExpression: 'a = :v' }, { note: 'E15 undefined value' })
add('Scan', { TableName: 'conf_comp', FilterExpression: 'a = :v', ExpressionAttributeValues: { ':v': S('a'), ':w': S('b') } }, { note: 'E16' })
add('Scan', { TableName: 'conf_nope' }, { note: 'E28' })
add('Scan', { TableName: 'conf_comp', IndexName: 'nope' }, { note: 'E28 no index' })

// ---------- UpdateItem ----------
const ukey = { pk: S('upd'), sk: N(1) }
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :a, b = :b', ExpressionAttributeValues: { ':a': N(1), ':b': S('x') }, ReturnValues: 'ALL_NEW' }, { note: 'upsert' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = a + :one', ExpressionAttributeValues: { ':one': N(1) }, ReturnValues: 'UPDATED_OLD' }, { note: 'increment, UPDATED_OLD' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = a - :one', ExpressionAttributeValues: { ':one': N('0.5') }, ReturnValues: 'UPDATED_NEW' }, { note: 'UPDATED_NEW' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET l = :l', ExpressionAttributeValues: { ':l': { L: [S('x')] } }, ReturnValues: 'ALL_OLD' }, { note: 'ALL_OLD' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET l = list_append(l, :m)', ExpressionAttributeValues: { ':m': { L: [S('y'), S('z')] } }, ReturnValues: 'UPDATED_NEW' }, { note: 'list_append' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET l[7] = :v, c = if_not_exists(c, :d)', ExpressionAttributeValues: { ':v': S('end'), ':d': N(9) }, ReturnValues: 'ALL_NEW' }, { note: 'past the end, if_not_exists' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'REMOVE l[0], b', ReturnValues: 'ALL_NEW' }, { note: 'REMOVE' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'ADD tags :t, a :n', ExpressionAttributeValues: { ':t': { SS: ['p', 'q'] }, ':n': N(10) }, ReturnValues: 'ALL_NEW' }, { note: 'ADD' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'DELETE tags :t', ExpressionAttributeValues: { ':t': { SS: ['p'] } }, ReturnValues: 'UPDATED_NEW' }, { note: 'DELETE' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'DELETE tags :t', ExpressionAttributeValues: { ':t': { SS: ['q'] } }, ReturnValues: 'ALL_NEW' }, { note: 'DELETE last member' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET m = :m', ExpressionAttributeValues: { ':m': { M: { x: { M: { y: N(1) } } } } } }, { note: 'map' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET m.x.z = :v, m.w = :v', ExpressionAttributeValues: { ':v': S('deep') }, ReturnValues: 'UPDATED_NEW' }, { note: 'nested SET' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :v', ConditionExpression: 'a > :z', ExpressionAttributeValues: { ':v': N(0), ':z': N(1000) } }, { note: 'E22' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_exists(a)', ExpressionAttributeValues: { ':v': N(5) }, ReturnValues: 'UPDATED_OLD' }, { note: 'condition true' })
add('UpdateItem', { TableName: 'conf_comp', Key: { pk: S('upd'), sk: N(2) }, UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':v': N(5) } }, { note: 'E22 no upsert' })
add('UpdateItem', { TableName: 'conf_comp', Key: { pk: S('upd'), sk: N(3) }, UpdateExpression: 'REMOVE nothing', ReturnValues: 'ALL_NEW' }, { note: 'REMOVE creates the key' })
add('GetItem', { TableName: 'conf_comp', Key: ukey }, { note: 'after the updates' })
add('GetItem', { TableName: 'conf_comp', Key: { pk: S('upd'), sk: N(2) } }, { note: 'not created' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET pk = :v', ExpressionAttributeValues: { ':v': S('x') } }, { note: 'E18 key update' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :v, a = :v', ExpressionAttributeValues: { ':v': S('x') } }, { note: 'E19 overlap' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'ADD a :v', ExpressionAttributeValues: { ':v': S('x') } }, { note: 'E20 ADD string' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = m + :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'E20 operand type' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = nope + :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'E21 missing operand' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET nope.x = :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'E21 missing parent' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': N(1) }, ReturnValues: 'BOGUS' }, { note: 'bad ReturnValues' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET big = :v', ExpressionAttributeValues: { ':v': S('x'.repeat(409600)) } }, { note: 'E10 update size' })
add('UpdateItem', { TableName: 'conf_comp', Key: { pk: S('upd') }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'E3' })
add('UpdateItem', { TableName: 'conf_nope', Key: ukey, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'E28' })
add('UpdateItem', { TableName: 'conf_comp', Key: ukey, UpdateExpression: 'SET a = :v SET b = :v', ExpressionAttributeValues: { ':v': N(1) } }, { note: 'SET twice' })
add('GetItem', { TableName: 'conf_comp', Key: ukey }, { note: 'unchanged by the failures' })
for (let i = 0; i < 10; i++) {
  add('UpdateItem', { TableName: 'conf_simple', Key: { pk: S('k' + i) }, UpdateExpression: 'SET v = v * :x'.replace('* :x', '+ :x'), ExpressionAttributeValues: { ':x': N(i) }, ReturnValues: 'UPDATED_NEW', ReturnConsumedCapacity: 'TOTAL' }, { note: 'counter + capacity' })
}

// ---------- DeleteItem ----------
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('k1') }, ReturnValues: 'ALL_OLD' }, { note: 'ALL_OLD' })
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('k1') }, ReturnValues: 'ALL_OLD', ReturnConsumedCapacity: 'TOTAL' }, { note: 'already gone' })
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('k2') }, ConditionExpression: 'v > :x', ExpressionAttributeValues: { ':x': N(100) } }, { note: 'E22' })
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('k2') }, ConditionExpression: 'v = :x', ExpressionAttributeValues: { ':x': N(4) }, ReturnValues: 'ALL_OLD' }, { note: 'condition true' })
// dynalite accepts (and deletes) where DynamoDB rejects: compared with DynamoDB's documented error
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('k3') }, ReturnValues: 'ALL_NEW' }, { note: 'E17 (dynalite accepts it)', spec: true, expect: { __type: 'com.amazon.coral.validate#ValidationException', message: 'ReturnValues can only be ALL_OLD or NONE' } })
add('DeleteItem', { TableName: 'conf_comp', Key: { pk: S('user#alice') } }, { note: 'E3' })
add('DeleteItem', { TableName: 'conf_nope', Key: { pk: S('x') } }, { note: 'E28' })
add('DeleteItem', { TableName: 'conf_gsi', Key: { pk: S('cust#0'), sk: S('order#000') }, ReturnValues: 'ALL_OLD' }, { note: 'leaves the GSI' })
add('Query', { TableName: 'conf_gsi', IndexName: 'byStatus', KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': S('OPEN') } }, { note: 'GSI after delete' })

// ---------- BatchGetItem / BatchWriteItem ----------
add('BatchGetItem', { RequestItems: { conf_simple: { Keys: [0, 3, 4, 5, 99].map(i => ({ pk: S('k' + i) })) } } }, { note: 'one table' })
add('BatchGetItem', { RequestItems: { conf_simple: { Keys: [{ pk: S('k5') }] }, conf_comp: { Keys: compItems.slice(0, 6).map(x => ({ pk: x.pk, sk: x.sk })) } }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'two tables, capacity' })
add('BatchGetItem', { RequestItems: { conf_comp: { Keys: compItems.slice(0, 4).map(x => ({ pk: x.pk, sk: x.sk })), ProjectionExpression: 'pk, sk, age' } } }, { note: 'projection' })
add('BatchGetItem', { RequestItems: { conf_simple: { Keys: [{ pk: S('k5') }, { pk: S('k5') }] } } }, { note: 'E29 duplicates' })
add('BatchGetItem', { RequestItems: { conf_nope: { Keys: [{ pk: S('k5') }] } } }, { note: 'E28' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('bw1'), v: N(1) } } }, { PutRequest: { Item: { pk: S('bw2'), v: N(2) } } }, { DeleteRequest: { Key: { pk: S('k6') } } }] } }, { note: 'puts and a delete' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('bw3') } } }], conf_comp: [{ DeleteRequest: { Key: { pk: compItems[1].pk, sk: compItems[1].sk } } }] }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'two tables, capacity' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('bw4') } } }, { DeleteRequest: { Key: { pk: S('bw4') } } }] } }, { note: 'E29 duplicate key' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('bw5') } } }, { PutRequest: { Item: { pk: S('') } } }] } }, { note: 'E4 in a batch: nothing written' })
add('BatchGetItem', { RequestItems: { conf_simple: { Keys: ['bw1', 'bw2', 'bw3', 'bw5', 'k6'].map(k => ({ pk: S(k) })) } } }, { note: 'after the batches' })
add('Scan', { TableName: 'conf_simple' }, { note: 'after everything' })

// ---------- transactions (compared with DynamoDB's documented responses) ----------
const spec = (op, req, expect, note) => add(op, req, { spec: true, expect, note })
const tx = k => ({ pk: S(k) })
// ---------- UpdateTable, ListTables (compared with dynalite) ----------
add('UpdateTable', { TableName: 'conf_simple' }, { note: 'nothing to update' })
add('UpdateTable', { TableName: 'conf_simple', GlobalSecondaryIndexUpdates: [{}] }, { note: 'empty GSI update' })
add('UpdateTable', { TableName: 'conf_nope', BillingMode: 'PAY_PER_REQUEST' }, { note: 'missing table' })
add('UpdateTable', { TableName: 'conf_simple', BillingMode: 'PAY_PER_REQUEST' }, { note: 'already on demand' })
// (the extension's own model tables sort before 'conf': upper case)
add('ListTables', { ExclusiveStartTableName: 'conf' }, { note: 'the corpus tables' })
add('ListTables', { ExclusiveStartTableName: 'conf', Limit: 2 }, { note: 'first page' })
add('ListTables', { ExclusiveStartTableName: 'conf_comp', Limit: 2 }, { note: 'next page' })
add('ListTables', { ExclusiveStartTableName: 'conf_simple', Limit: 2 }, { note: 'last page' })
add('ListTables', { ExclusiveStartTableName: 'zzz' }, { note: 'past the end' })
add('ListTables', { Limit: 0 }, { note: 'Limit 0' })
add('ListTables', { Limit: 101 }, { note: 'Limit 101' })
add('ListTables', { ExclusiveStartTableName: 'ab' }, { note: 'start name too short' })

// ReturnItemCollectionMetrics: SIZE or NONE; item collection metrics exist
// only for tables with local secondary indexes, so none come back
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('ricm'), v: N(1) }, ReturnItemCollectionMetrics: 'SIZE' }, { note: 'item collection metrics: none without an LSI' })
add('UpdateItem', { TableName: 'conf_simple', Key: { pk: S('ricm') }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': N(2) }, ReturnItemCollectionMetrics: 'SIZE', ReturnValues: 'ALL_NEW' }, { note: 'item collection metrics: none without an LSI' })
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('ricm') }, ReturnItemCollectionMetrics: 'NONE', ReturnValues: 'ALL_OLD' }, { note: 'item collection metrics NONE' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('ricm') } } }] }, ReturnItemCollectionMetrics: 'SIZE' }, { note: 'item collection metrics: none without an LSI' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ DeleteRequest: { Key: { pk: S('ricm') } } }] }, ReturnItemCollectionMetrics: 'SIZE' }, { note: 'item collection metrics, delete' })
add('PutItem', { TableName: 'conf_simple', Item: { pk: S('ricm') }, ReturnItemCollectionMetrics: 'ALL' }, { note: 'item collection metrics: not SIZE or NONE' })
add('UpdateItem', { TableName: 'conf_simple', Key: { pk: S('ricm') }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': N(2) }, ReturnItemCollectionMetrics: 'size' }, { note: 'item collection metrics: case matters' })
add('DeleteItem', { TableName: 'conf_simple', Key: { pk: S('ricm') }, ReturnItemCollectionMetrics: '' }, { note: 'item collection metrics: empty' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('ricm') } } }] }, ReturnItemCollectionMetrics: 'TOTAL' }, { note: 'item collection metrics: not SIZE or NONE' })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('ricm') } }, { note: 'nothing written by the rejected requests' })

add('CreateTable', Object.assign({ TableName: 'conf_tx', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }] }, pay), { note: 'table for transactions' })
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('a'), n: N(1) } } },
  { Put: { TableName: 'conf_tx', Item: { pk: S('b'), n: N(2) }, ConditionExpression: 'attribute_not_exists(pk)' } },
  { Update: { TableName: 'conf_tx', Key: tx('c'), UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': N(3) } } }
] }, {}, 'three writes')
spec('TransactGetItems', { TransactItems: ['a', 'b', 'c', 'd'].map(k => ({ Get: { TableName: 'conf_tx', Key: tx(k) } })) },
  { Responses: [{ Item: { pk: S('a'), n: N(1) } }, { Item: { pk: S('b'), n: N(2) } }, { Item: { pk: S('c'), n: N(3) } }, {}] }, 'read them back')
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('d'), n: N(4) } } },
  { ConditionCheck: { TableName: 'conf_tx', Key: tx('a'), ConditionExpression: 'n = :two', ExpressionAttributeValues: { ':two': N(2) } } },
  { Delete: { TableName: 'conf_tx', Key: tx('b') } },
  { Update: { TableName: 'conf_tx', Key: tx('c'), UpdateExpression: 'SET n = n + :one', ConditionExpression: 'n = :three', ExpressionAttributeValues: { ':one': N(1), ':three': N(3) } } }
] }, {
  __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
  message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None, None]',
  CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }, { Code: 'None' }, { Code: 'None' }]
}, 'cancelled by a ConditionCheck')
spec('TransactGetItems', { TransactItems: ['a', 'b', 'c', 'd'].map(k => ({ Get: { TableName: 'conf_tx', Key: tx(k), ProjectionExpression: 'n' } })) },
  { Responses: [{ Item: { n: N(1) } }, { Item: { n: N(2) } }, { Item: { n: N(3) } }, {}] }, 'nothing written by the cancelled transaction')
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('a'), n: N(10) } } },
  { Update: { TableName: 'conf_tx', Key: tx('a'), UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': N(3) } } }
] }, { __type: 'com.amazon.coral.validate#ValidationException', message: 'Transaction request cannot include multiple operations on one item' }, 'two actions on one item')
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('e') } } },
  { Put: { TableName: 'conf_tx', Item: { pk: S('') } } }
] }, { __type: 'com.amazon.coral.validate#ValidationException', message: 'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk' }, 'validation error')
spec('TransactWriteItems', { TransactItems: [
  { Delete: { TableName: 'conf_tx', Key: tx('a'), ConditionExpression: 'attribute_exists(pk)' } },
  { Update: { TableName: 'conf_tx', Key: tx('b'), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': N(1) } } },
  { ConditionCheck: { TableName: 'conf_tx', Key: tx('zz'), ConditionExpression: 'attribute_not_exists(pk)' } }
] }, {}, 'delete, add, check absent')
spec('TransactGetItems', { TransactItems: ['a', 'b', 'e'].map(k => ({ Get: { TableName: 'conf_tx', Key: tx(k) } })) },
  { Responses: [{}, { Item: { pk: S('b'), n: N(3) } }, {}] }, 'after the delete and the add')
spec('TransactWriteItems', { TransactItems: [] }, { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1" }, 'empty')
// DynamoDB echoes the list in Java form, each object as its class and identity
// hash; hroe's identity hashes are those of the objects' positions (api_validate.c)
const javaObjects = (cls, n) => Array.from({ length: n }, (_, i) =>
  'com.amazonaws.dynamodb.v20120810.' + cls + '@' + (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0')).join(', ')
spec('TransactWriteItems', { TransactItems: Array.from({ length: 101 }, (_, i) => ({ Put: { TableName: 'conf_tx', Item: { pk: S('m' + i) } } })) },
  { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value '[" + javaObjects('TransactWriteItem', 101) + "]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100" }, '101 actions')
// a Get's key of another shape than its table's cancels the transaction (tier 3
// of nubo-db/dynamodb-conformance, recorded against DynamoDB)
spec('TransactGetItems', { TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('b') } }, { Get: { TableName: 'conf_tx', Key: {} } }] },
  { __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ValidationError]', CancellationReasons: [{ Code: 'None' }, { Code: 'ValidationError', Message: 'The provided key element does not match the schema' }] }, 'Get key of the wrong shape')
spec('TransactWriteItems', { TransactItems: [{ Put: { TableName: 'conf_nope', Item: { pk: S('x') } } }] },
  { __type: 'com.amazonaws.dynamodb.v20120810#ResourceNotFoundException', message: 'Requested resource not found' }, 'no table')
spec('TransactGetItems', { TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('b') } }, { Get: { TableName: 'conf_tx', Key: tx('b') } }] },
  { __type: 'com.amazon.coral.validate#ValidationException', message: 'Transaction request cannot include multiple operations on one item' }, 'duplicate get')
// ReturnConsumedCapacity on transactions: one entry per table, in request
// order; every read or write counts twice, with ReadCapacityUnits or
// WriteCapacityUnits beside CapacityUnits.  A ConditionCheck is charged as a
// write of the item it checks (1 KB units, at least 1).  (Own keys: the
// entries below read the other items.)
spec('TransactWriteItems', { ReturnConsumedCapacity: 'TOTAL', TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('cap1'), s: S('x'.repeat(1500)) } } },
  { ConditionCheck: { TableName: 'conf_tx', Key: tx('c'), ConditionExpression: 'attribute_exists(pk)' } },
  { Update: { TableName: 'conf_tx', Key: tx('cap2'), UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': N(5) } } }
] }, { ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 8, WriteCapacityUnits: 8 }] }, 'capacity TOTAL: 2 x (2 + 1 + 1)')
spec('TransactWriteItems', { ReturnConsumedCapacity: 'INDEXES', ReturnItemCollectionMetrics: 'SIZE', TransactItems: [
  { Delete: { TableName: 'conf_tx', Key: tx('cap1') } }
] }, { ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 4, WriteCapacityUnits: 4, Table: { CapacityUnits: 4, WriteCapacityUnits: 4 } }] }, 'capacity INDEXES: the deleted 1.5 KB item, no item collection metrics')
spec('TransactWriteItems', { ReturnConsumedCapacity: 'NONE', TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('cap3') } } }
] }, {}, 'capacity NONE')
spec('TransactGetItems', { ReturnConsumedCapacity: 'TOTAL', TransactItems: ['cap2', 'cap1', 'cap3'].map(k => ({ Get: { TableName: 'conf_tx', Key: tx(k) } })) },
  { Responses: [{ Item: { pk: S('cap2'), n: N(5) } }, {}, { Item: { pk: S('cap3') } }], ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 6, ReadCapacityUnits: 6 }] }, 'capacity: 2 per item, absent too')
spec('TransactGetItems', { ReturnConsumedCapacity: 'INDEXES', TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('cap3') } }] },
  { Responses: [{ Item: { pk: S('cap3') } }], ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 2, ReadCapacityUnits: 2, Table: { CapacityUnits: 2, ReadCapacityUnits: 2 } }] }, 'capacity INDEXES')
spec('TransactWriteItems', { ReturnConsumedCapacity: 'ALL', TransactItems: [{ Put: { TableName: 'conf_tx', Item: { pk: S('cap4') } } }] },
  { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]" }, 'capacity: not INDEXES, TOTAL or NONE')
spec('TransactGetItems', { ReturnConsumedCapacity: 'total', TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('cap3') } }] },
  { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value 'total' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]" }, 'capacity: case matters')
spec('TransactWriteItems', { ReturnItemCollectionMetrics: 'ALL', TransactItems: [{ Put: { TableName: 'conf_tx', Item: { pk: S('cap4') } } }] },
  { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value 'ALL' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]" }, 'item collection metrics: not SIZE or NONE')
spec('TransactGetItems', { TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('cap4') } }] }, { Responses: [{}] }, 'nothing written by the rejected requests')
spec('TransactWriteItems', { ReturnConsumedCapacity: 'TOTAL', TransactItems: ['cap2', 'cap3', 'cap4'].map(k => ({ Delete: { TableName: 'conf_tx', Key: tx(k) } })) },
  { ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 6, WriteCapacityUnits: 6 }] }, 'capacity: deletes, an absent item 1 unit')
// ClientRequestToken: a replay within 10 minutes succeeds without writing again
const putF = { TransactItems: [{ Put: { TableName: 'conf_tx', Item: { pk: S('f'), n: N(1) } } }], ClientRequestToken: 'conformance-token-1' }
spec('TransactWriteItems', putF, {}, 'with a ClientRequestToken')
spec('TransactWriteItems', { TransactItems: [{ Delete: { TableName: 'conf_tx', Key: tx('f') } }] }, {}, 'delete that item')
spec('TransactWriteItems', putF, {}, 'replay of the token: succeeds')
spec('TransactGetItems', { TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('f') } }] }, { Responses: [{}] }, 'the replay wrote nothing')
spec('TransactWriteItems', { TransactItems: [{ Put: { TableName: 'conf_tx', Item: { pk: S('f'), n: N(2) } } }], ClientRequestToken: 'conformance-token-1' },
  { __type: 'com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException', message: 'The request uses the same client token as a previous, but non-identical request' }, 'same token, other request')
// (the entries below come after those t_partition.sh names by number)
// a key of another type than its table's (or a lookup key of another shape),
// found as the transaction runs, cancels it with a ValidationError for the
// action; an empty key is the request's error, found before (tiers 2 and 3 of
// nubo-db/dynamodb-conformance, recorded against DynamoDB)
const txCancelled = reasons => ({
  __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
  message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [' + reasons.map(r => r.Code).join(', ') + ']',
  CancellationReasons: reasons
})
const keySchemaMismatch = { Code: 'ValidationError', Message: 'The provided key element does not match the schema' }
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('e') } } },
  { Put: { TableName: 'conf_tx', Item: { pk: N(5) } } }
] }, txCancelled([{ Code: 'None' }, { Code: 'ValidationError', Message: 'One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N' }]),
'a Put key of another type: cancelled (ValidationError), not the request\'s error')
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: S('e') } } },
  { Update: { TableName: 'conf_tx', Key: { pk: { L: [S('x')] } }, UpdateExpression: 'SET n = :n', ExpressionAttributeValues: { ':n': N(1) } } },
  { Delete: { TableName: 'conf_tx', Key: { pk: { B: 'AA==' } } } },
  { ConditionCheck: { TableName: 'conf_tx', Key: {}, ConditionExpression: 'attribute_exists(pk)' } }
] }, txCancelled([{ Code: 'None' }, keySchemaMismatch, keySchemaMismatch, keySchemaMismatch]), 'lookup keys of another type or shape: cancelled, a reason for each')
spec('TransactWriteItems', { TransactItems: [
  { Put: { TableName: 'conf_tx', Item: { pk: N(5) } } },
  { Delete: { TableName: 'conf_tx', Key: { pk: S('') } } }
] }, { __type: 'com.amazon.coral.validate#ValidationException', message: 'One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk' }, 'an empty key is the request\'s error, whatever the other actions')
spec('TransactGetItems', { TransactItems: [{ Get: { TableName: 'conf_tx', Key: tx('a'), ProjectionExpression: '#x', ExpressionAttributeNames: { '#x': 'absent' } } }] },
  { Responses: [{}] }, 'a projection matching no attribute of a present item: no Item')
// BatchWriteItem has no cancellation: a put key of another type is E3
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: S('bw6') } } }, { PutRequest: { Item: { pk: N(5) } } }] } }, { note: 'a put key of another type in a batch: E3, nothing written' })
add('BatchWriteItem', { RequestItems: { conf_simple: [{ PutRequest: { Item: { pk: { M: {} } } } }] } }, { note: 'a non-scalar put key in a batch: E3' })
add('GetItem', { TableName: 'conf_simple', Key: { pk: S('bw6') } }, { note: 'nothing written by the rejected batches' })
// a replay reports the read units of reading the items, transactionally
// (twice a strong read), where the first call reported its writes
const putG = { ReturnConsumedCapacity: 'TOTAL', TransactItems: [{ Put: { TableName: 'conf_tx', Item: { pk: S('g') } } }], ClientRequestToken: 'conformance-token-2' }
spec('TransactWriteItems', putG, { ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 2, WriteCapacityUnits: 2 }] }, 'a token, capacity: a transactional write')
spec('TransactWriteItems', putG, { ConsumedCapacity: [{ TableName: 'conf_tx', CapacityUnits: 2, ReadCapacityUnits: 2 }] }, 'its replay, capacity: a transactional read of the item')
// ReturnValuesOnConditionCheckFailure (dynalite ignores it: compared with DynamoDB's documented body)
const ccf = 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException'
spec('PutItem', { TableName: 'conf_tx', Item: { pk: S('b') }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
  { __type: ccf, message: 'The conditional request failed', Item: { pk: S('b'), n: N(3) } }, 'failed condition, ReturnValuesOnConditionCheckFailure ALL_OLD')
spec('PutItem', { TableName: 'conf_tx', Item: { pk: S('b') }, ConditionExpression: 'attribute_not_exists(pk)', ReturnValuesOnConditionCheckFailure: 'NONE' },
  { __type: ccf, message: 'The conditional request failed' }, 'failed condition, ReturnValuesOnConditionCheckFailure NONE')
spec('UpdateItem', { TableName: 'conf_tx', Key: tx('b'), UpdateExpression: 'SET n = :z', ConditionExpression: 'n = :z', ExpressionAttributeValues: { ':z': N(0) }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
  { __type: ccf, message: 'The conditional request failed', Item: { pk: S('b'), n: N(3) } }, 'failed condition, old item returned')
spec('DeleteItem', { TableName: 'conf_tx', Key: tx('b'), ConditionExpression: 'n > :z', ExpressionAttributeValues: { ':z': N(5) }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
  { __type: ccf, message: 'The conditional request failed', Item: { pk: S('b'), n: N(3) } }, 'failed condition, old item returned')
spec('DeleteItem', { TableName: 'conf_tx', Key: tx('zz'), ConditionExpression: 'attribute_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' },
  { __type: ccf, message: 'The conditional request failed' }, 'failed condition on a missing item: no Item')
spec('PutItem', { TableName: 'conf_tx', Item: { pk: S('b') }, ReturnValuesOnConditionCheckFailure: 'ALL_NEW' },
  { __type: 'com.amazon.coral.validate#ValidationException', message: "1 validation error detected: Value 'ALL_NEW' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]" }, 'invalid ReturnValuesOnConditionCheckFailure')
spec('TransactWriteItems', { TransactItems: [
  { ConditionCheck: { TableName: 'conf_tx', Key: tx('b'), ConditionExpression: 'n = :z', ExpressionAttributeValues: { ':z': N(0) }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
  { Put: { TableName: 'conf_tx', Item: { pk: S('g') } } },
  { Delete: { TableName: 'conf_tx', Key: tx('zz'), ConditionExpression: 'attribute_exists(pk)', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } }] }, {
  __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
  message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, ConditionalCheckFailed]',
  CancellationReasons: [{ Code: 'ConditionalCheckFailed', Message: 'The conditional request failed', Item: { pk: S('b'), n: N(3) } }, { Code: 'None' },
    { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }]
}, 'ReturnValuesOnConditionCheckFailure in a transaction: the old item in its reason')
spec('GetItem', { TableName: 'conf_tx', Key: tx('b') }, { Item: { pk: S('b'), n: N(3) } }, 'the failed writes changed nothing')
// UpdateTable creating and deleting a GSI (dynalite accepts the request but ignores GSI updates)
const txDesc = gsis => Object.assign({ TableName: 'conf_tx', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }].concat(gsis ? [{ AttributeName: 'n', AttributeType: 'N' }] : []) },
gsis ? { GlobalSecondaryIndexes: gsis } : {})
const byN = { IndexName: 'byN', KeySchema: [{ AttributeName: 'n', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }
spec('UpdateTable', { TableName: 'conf_tx', AttributeDefinitions: [{ AttributeName: 'n', AttributeType: 'N' }], GlobalSecondaryIndexUpdates: [{ Create: byN }] },
  { TableDescription: txDesc([byN]) }, 'create a GSI')
spec('Query', { TableName: 'conf_tx', IndexName: 'byN', KeyConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': N(3) } },
  { Items: [{ pk: S('b'), n: N(3) }, { pk: S('c'), n: N(3) }], Count: 2, ScannedCount: 2 }, 'the new GSI holds the existing items')
spec('UpdateTable', { TableName: 'conf_tx', AttributeDefinitions: [{ AttributeName: 'm', AttributeType: 'S' }], GlobalSecondaryIndexUpdates: [
  { Create: Object.assign({}, byN, { IndexName: 'byM', KeySchema: [{ AttributeName: 'm', KeyType: 'HASH' }] }) }, { Delete: { IndexName: 'byN' } }] },
{ __type: 'com.amazonaws.dynamodb.v20120810#LimitExceededException', message: 'Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table' }, 'two GSI changes at once')
spec('UpdateTable', { TableName: 'conf_tx', GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: 'byN' } }] },
  { TableDescription: txDesc(null) }, 'delete the GSI')
spec('Query', { TableName: 'conf_tx', IndexName: 'byN', KeyConditionExpression: 'n = :n', ExpressionAttributeValues: { ':n': N(3) } },
  { __type: 'com.amazon.coral.validate#ValidationException', message: 'The table does not have the specified index: byN' }, 'the GSI is gone')
spec('DeleteTable', { TableName: 'conf_tx' }, { TableDescription: {
  TableName: 'conf_tx', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }] } }, 'drop the transactions table')

// ---------- local secondary indexes ----------
const lsiKeys = [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }]
const lsiDefs = [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }, { AttributeName: 'n', AttributeType: 'N' }, { AttributeName: 't', AttributeType: 'S' }]
const lsi = (name, range, projection) => ({ IndexName: name, KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: range, KeyType: 'RANGE' }], Projection: projection || { ProjectionType: 'ALL' } })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: lsiDefs.filter(d => d.AttributeName !== 'sk' && d.AttributeName !== 't'), LocalSecondaryIndexes: [lsi('byN', 'n')] }, pay), { note: 'LSI without a table sort key' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [] }, pay), { note: 'empty LocalSecondaryIndexes' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [1, 2, 3, 4, 5, 6].map(i => lsi('lsi' + i, i % 2 ? 'n' : 't')) }, pay), { note: 'six LSIs' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [{ IndexName: 'byN', KeySchema: [{ AttributeName: 't', KeyType: 'HASH' }, { AttributeName: 'n', KeyType: 'RANGE' }], Projection: { ProjectionType: 'ALL' } }] }, pay), { note: 'LSI HASH not the table\'s' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [{ IndexName: 'byN', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }] }, pay), { note: 'LSI without a RANGE key' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [lsi('byN', 'n'), lsi('byN', 't')] }, pay), { note: 'duplicate LSI names' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi_bad', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs, LocalSecondaryIndexes: [lsi('byN', 'x')] }, pay), { note: 'LSI key not defined' })
add('CreateTable', Object.assign({ TableName: 'conf_lsi', KeySchema: lsiKeys, AttributeDefinitions: lsiDefs,
  LocalSecondaryIndexes: [lsi('byN', 'n'), lsi('byT', 't', { ProjectionType: 'KEYS_ONLY' }), lsi('byN2', 'n', { ProjectionType: 'INCLUDE', NonKeyAttributes: ['a'] })] }, pay), { note: 'three LSIs' })
for (let i = 0; i < 10; i++) {
  const item = { pk: S('p' + (i % 2)), sk: S('s' + i), a: S('a' + i), b: N(i) }
  if (i % 4 !== 3) item.n = N(20 - i)
  if (i % 3 === 0) item.t = S('t' + i)
  add('PutItem', { TableName: 'conf_lsi', Item: item }, { note: 'LSI items (some sparse)' })
}
add('PutItem', { TableName: 'conf_lsi', Item: { pk: S('p0'), sk: S('bad'), t: N(1) } }, { note: 'E11 LSI key type' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byN', KeyConditionExpression: 'pk = :p AND n BETWEEN :a AND :b', ExpressionAttributeValues: { ':p': S('p0'), ':a': N(12), ':b': N(18) }, ConsistentRead: true }, { note: 'LSI, consistent' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byN', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('p1') }, ScanIndexForward: false, Limit: 2 }, { note: 'LSI descending, LastEvaluatedKey' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byN', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('p1') }, ScanIndexForward: false, Limit: 2, ExclusiveStartKey: { pk: S('p1'), sk: S('s5'), n: N(15) } }, { note: 'LSI, ExclusiveStartKey' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byT', KeyConditionExpression: 'pk = :p AND begins_with(t, :t)', ExpressionAttributeValues: { ':p': S('p0'), ':t': S('t') } }, { note: 'KEYS_ONLY LSI' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byT', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('p0') }, Select: 'ALL_ATTRIBUTES' }, { note: 'ALL_ATTRIBUTES on a KEYS_ONLY LSI' })
add('Query', { TableName: 'conf_lsi', IndexName: 'byN2', KeyConditionExpression: 'pk = :p AND n > :n', ExpressionAttributeValues: { ':p': S('p1'), ':n': N(12) } }, { note: 'INCLUDE LSI' })
add('Scan', { TableName: 'conf_lsi', IndexName: 'byT' }, { note: 'Scan on an LSI' })
add('DescribeTable', { TableName: 'conf_lsi' })
add('DeleteTable', { TableName: 'conf_lsi' })

// ---------- legacy (non-expression) parameters ----------
add('CreateTable', Object.assign({
  TableName: 'conf_legacy',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'N' }]
}, pay), { note: 'legacy parameters' })
for (let i = 1; i <= 6; i++) {
  const item = { pk: S('a'), sk: N(i), n: N(i * 10), s: S('w' + i), ss: { SS: ['x', 'y' + (i % 2)] }, ns: { NS: [String(i), '100'] }, l: { L: [S('e'), N(i)] }, bin: { B: Buffer.from('b' + i).toString('base64') } }
  if (i % 2) item.g = S('odd')
  add('PutItem', { TableName: 'conf_legacy', Item: item }, { note: 'legacy load' })
}
const legacyKey = { pk: S('a'), sk: N(1) }
const cond = (op, vals) => vals === undefined ? { ComparisonOperator: op } : { ComparisonOperator: op, AttributeValueList: vals }
// AttributesToGet
add('GetItem', { TableName: 'conf_legacy', Key: legacyKey, AttributesToGet: ['n', 's', 'nope'] }, { note: 'AttributesToGet' })
add('GetItem', { TableName: 'conf_legacy', Key: legacyKey, AttributesToGet: ['n', 'n'] }, { note: 'AttributesToGet duplicate' })
add('GetItem', { TableName: 'conf_legacy', Key: legacyKey, AttributesToGet: ['n'], ProjectionExpression: 's' }, { note: 'mixing AttributesToGet' })
add('GetItem', { TableName: 'conf_legacy', Key: legacyKey, AttributesToGet: ['n'], ExpressionAttributeNames: { '#n': 'n' } }, { note: 'names without expression' })
add('BatchGetItem', { RequestItems: { conf_legacy: { Keys: [legacyKey, { pk: S('a'), sk: N(2) }], AttributesToGet: ['sk', 's'] } } }, { note: 'BatchGetItem AttributesToGet' })
add('BatchGetItem', { RequestItems: { conf_legacy: { Keys: [legacyKey], AttributesToGet: ['sk'], ProjectionExpression: 's' } } }, { note: 'BatchGetItem mixing' })
add('Scan', { TableName: 'conf_legacy', AttributesToGet: ['sk', 'g'], Limit: 3 }, { note: 'Scan AttributesToGet' })
// KeyConditions
const pkEq = { pk: cond('EQ', [S('a')]) }
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, AttributesToGet: ['sk'] }, { note: 'KeyConditions EQ' })
for (const [op, vals] of [['EQ', [N(3)]], ['LE', [N(3)]], ['LT', [N(3)]], ['GE', [N(4)]], ['GT', [N(4)]], ['BETWEEN', [N(2), N(5)]]]) {
  add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ sk: cond(op, vals) }, pkEq), AttributesToGet: ['sk', 'n'] }, { note: 'KeyConditions ' + op })
}
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, ScanIndexForward: false, Limit: 2 }, { note: 'KeyConditions descending, LastEvaluatedKey' })
add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ sk: cond('GT', [N(1)]) }, pkEq), ExclusiveStartKey: { pk: S('a'), sk: N(3) }, Limit: 2, Select: 'COUNT' }, { note: 'KeyConditions paging' })
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, FilterExpression: 'n > :n', ExpressionAttributeValues: { ':n': N(30) } }, { note: 'KeyConditions with a FilterExpression' })
for (const op of ['NE', 'IN', 'NULL', 'NOT_NULL', 'CONTAINS', 'NOT_CONTAINS']) {
  const vals = op.endsWith('NULL') ? undefined : [S('a')]
  add('Query', { TableName: 'conf_legacy', KeyConditions: { pk: cond(op, vals) } }, { note: 'KeyConditions ' + op + ' on the hash key' })
}
add('Query', { TableName: 'conf_legacy', KeyConditions: { pk: cond('GT', [S('a')]) } }, { note: 'KeyConditions GT on the hash key' })
add('Query', { TableName: 'conf_legacy', KeyConditions: { pk: cond('EQ', [N(1)]) } }, { note: 'KeyConditions type' })
add('Query', { TableName: 'conf_legacy', KeyConditions: { sk: cond('EQ', [N(1)]) } }, { note: 'KeyConditions without the hash key' })
add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ n: cond('EQ', [N(1)]) }, pkEq) }, { note: 'KeyConditions on a non-key attribute' })
add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ sk: cond('NE', [N(1)]) }, pkEq) }, { note: 'KeyConditions NE on the range key' })
add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ sk: cond('BEGINS_WITH', [N(1)]) }, pkEq) }, { note: 'KeyConditions BEGINS_WITH on N' })
add('Query', { TableName: 'conf_legacy', KeyConditions: Object.assign({ sk: cond('EQ', [N(1)]), n: cond('EQ', [N(1)]) }, pkEq) }, { note: 'three KeyConditions' })
add('Query', { TableName: 'conf_legacy', KeyConditions: {} }, { note: 'empty KeyConditions' })
add('Query', { TableName: 'conf_legacy', KeyConditions: { pk: { AttributeValueList: [S('a')] } } }, { note: 'KeyConditions without ComparisonOperator' })
add('Query', { TableName: 'conf_legacy', KeyConditions: { pk: cond('eq', [S('a')]) } }, { note: 'KeyConditions lower-case operator' })
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': S('a') } }, { note: 'mixing KeyConditions' })
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, AttributesToGet: ['sk'], QueryFilter: { n: cond('NULL') }, ConditionalOperator: 'OR', FilterExpression: 'n > :p', ProjectionExpression: 'sk', ExpressionAttributeValues: { ':p': S('a') } }, { note: 'mixing, Query' })
// QueryFilter and ScanFilter
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, QueryFilter: { n: cond('BETWEEN', [N(20), N(50)]), ss: cond('CONTAINS', [S('y0')]) }, AttributesToGet: ['sk'] }, { note: 'QueryFilter AND' })
// (dynalite stops at the first false condition even under OR, which DynamoDB
// does not: the OR cases put first a condition true for every item)
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, QueryFilter: { s: cond('BEGINS_WITH', [S('w')]), n: cond('EQ', [N(20)]) }, ConditionalOperator: 'OR', Select: 'COUNT' }, { note: 'QueryFilter OR' })
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, QueryFilter: { s: cond('BEGINS_WITH', [S('w')]), n: cond('EQ', [N(20)]) }, Select: 'COUNT' }, { note: 'QueryFilter AND by default' })
add('Query', { TableName: 'conf_legacy', KeyConditions: pkEq, QueryFilter: { sk: cond('EQ', [N(2)]) } }, { note: 'QueryFilter on the range key' })
const scanFilters = [
  ['EQ', 'n', [N(30)]], ['EQ', 'ss', [{ SS: ['y1', 'x'] }]], ['EQ', 'n', [S('30')]], ['NE', 'n', [N(30)]], ['NE', 'g', [S('odd')]],
  ['LE', 'n', [N(30)]], ['LT', 'n', [N(30)]], ['GE', 's', [S('w5')]], ['GT', 'bin', [{ B: Buffer.from('b4').toString('base64') }]],
  ['NOT_NULL', 'g', undefined], ['NULL', 'g', []], ['CONTAINS', 's', [S('3')]], ['CONTAINS', 'ss', [S('y1')]], ['CONTAINS', 'ns', [N(4)]],
  ['CONTAINS', 'l', [N(5)]], ['NOT_CONTAINS', 'ss', [S('y1')]], ['NOT_CONTAINS', 'g', [S('d')]], ['BEGINS_WITH', 's', [S('w')]],
  ['BEGINS_WITH', 'bin', [{ B: Buffer.from('b').toString('base64') }]], ['IN', 'n', [N(10), N(60), N(5)]], ['BETWEEN', 'n', [N(20), N(40)]],
  ['BETWEEN', 's', [S('w2'), S('w4')]]
]
for (const [op, attr, vals] of scanFilters) add('Scan', { TableName: 'conf_legacy', ScanFilter: { [attr]: cond(op, vals) } }, { note: 'ScanFilter ' + op })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { s: cond('NOT_NULL'), n: cond('LT', [N(20)]) }, ConditionalOperator: 'OR' }, { note: 'ScanFilter OR' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('LT', [N(20)]), s: cond('EQ', [S('w6')]) }, ConditionalOperator: 'AND' }, { note: 'ScanFilter AND' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('GT', [N(1000)]) }, Limit: 3 }, { note: 'ScanFilter, Limit before the filter' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: {} }, { note: 'empty ScanFilter' })
const badFilters = [
  ['EQ', undefined], ['EQ', [N(1), N(2)]], ['NE', []], ['LE', undefined], ['LT', [N(1), N(2)]], ['GE', undefined], ['GT', undefined],
  ['NOT_NULL', [N(1)]], ['NULL', [N(1)]], ['CONTAINS', undefined], ['NOT_CONTAINS', [N(1), N(2)]], ['BEGINS_WITH', undefined],
  ['IN', []], ['BETWEEN', [N(1)]], ['BETWEEN', [N(1), N(2), N(3)]],
  ['LT', [{ SS: ['a'] }]], ['GE', [{ BOOL: true }]], ['CONTAINS', [{ NS: ['1'] }]], ['NOT_CONTAINS', [{ L: [] }]], ['BEGINS_WITH', [N(1)]],
  ['IN', [N(1), S('1')]], ['IN', [{ M: {} }]], ['BETWEEN', [N(1), S('2')]], ['BETWEEN', [N(2), N(1)]], ['BETWEEN', [{ NULL: true }, { NULL: true }]],
  ['EQ', [{ SS: [] }]], ['EQ', [N('x')]], ['EQ', [{}]], ['EQ', [{ S: 'a', N: '1' }]], ['CONTAINS', [{ SS: ['a', 'a'] }]], ['EQ', [N(1), { NULL: false }]]
]
for (const [op, vals] of badFilters) add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond(op, vals) } }, { note: 'ScanFilter ' + op + ' operands' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: { AttributeValueList: [N(1)] } } }, { note: 'ScanFilter without ComparisonOperator' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('DOG', [N(1)]) } }, { note: 'ScanFilter unknown operator' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('NULL') }, ConditionalOperator: 'XOR' }, { note: 'unknown ConditionalOperator' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('NULL') }, FilterExpression: 'attribute_exists(n)', ConditionalOperator: 'AND' }, { note: 'mixing, Scan' })
add('Scan', { TableName: 'conf_legacy', ScanFilter: { n: cond('NULL') }, ExpressionAttributeValues: { ':n': N(1) } }, { note: 'values without expression, Scan' })
// Expected
add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e'), sk: N(1), v: N(1), t: S('x') }, Expected: { pk: { Exists: false } } }, { note: 'Expected Exists false' })
add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e'), sk: N(1) }, Expected: { pk: { Exists: false } } }, { note: 'Expected Exists false fails' })
add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e'), sk: N(1), v: N(2), t: S('x') }, Expected: { v: { Value: N(1) }, t: { Exists: true, Value: S('x') } }, ReturnValues: 'ALL_OLD' }, { note: 'Expected Value' })
for (const e of [
  { v: cond('EQ', [N(2)]) }, { v: { ComparisonOperator: 'GE', Value: N(3) } }, { v: cond('IN', [N(5), N(2)]) }, { v: cond('BETWEEN', [N(0), N(1)]) },
  { t: cond('BEGINS_WITH', [S('x')]), nope: cond('NOT_NULL') }, { nope: cond('NULL'), v: cond('NE', [N(2)]) }, {}
]) add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e'), sk: N(1), v: N(2), t: S('x') }, Expected: e }, { note: 'Expected ComparisonOperator' })
for (const c of ['AND', 'OR']) add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e'), sk: N(1), v: N(2), t: S('x') }, Expected: { v: { Value: N(2) }, t: cond('EQ', [S('nope')]) }, ConditionalOperator: c }, { note: 'Expected ' + c })
add('DeleteItem', { TableName: 'conf_legacy', Key: { pk: S('e'), sk: N(9) }, Expected: { v: cond('NOT_CONTAINS', [S('q')]) } }, { note: 'Expected on a missing item' })
add('DeleteItem', { TableName: 'conf_legacy', Key: { pk: S('e'), sk: N(9) }, Expected: { v: { Exists: true, Value: N(1) } } }, { note: 'Expected on a missing item fails' })
add('DeleteItem', { TableName: 'conf_legacy', Key: { pk: S('e'), sk: N(1) }, Expected: { v: { Value: N(2) } }, ReturnValues: 'ALL_OLD' }, { note: 'DeleteItem Expected' })
for (const e of [
  { a: {} }, { a: { Exists: true } }, { a: { Exists: false, Value: S('a') } }, { a: { ComparisonOperator: 'LT' } },
  { a: { Exists: true, ComparisonOperator: 'LT' } }, { a: { ComparisonOperator: 'LT', Value: S('a'), AttributeValueList: [S('a')] } },
  { a: { AttributeValueList: [S('a')] } }, { a: { Exists: true, AttributeValueList: [S('a')] } }, { a: cond('EQ', []) },
  { a: cond('NULL', [S('a')]) }, { a: { ComparisonOperator: 'NULL', Value: S('a') } }, { a: { ComparisonOperator: 'BETWEEN', Value: S('a') } },
  { a: cond('IN', []) }, { a: { Value: { SS: [] } } }
]) add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e2'), sk: N(1) }, Expected: e }, { note: 'Expected errors' })
add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e2'), sk: N(1) }, Expected: { pk: { Exists: false } }, ConditionExpression: 'attribute_not_exists(pk)' }, { note: 'mixing Expected' })
add('PutItem', { TableName: 'conf_legacy', Item: { pk: S('e2'), sk: N(1) }, Expected: { pk: { Exists: false } }, ExpressionAttributeNames: { '#p': 'pk' } }, { note: 'names with Expected' })
add('DeleteItem', { TableName: 'conf_legacy', Key: { pk: S('e2'), sk: N(1) }, Expected: { pk: { Exists: false } }, ExpressionAttributeValues: { ':p': S('pk') } }, { note: 'values with Expected' })
add('GetItem', { TableName: 'conf_legacy', Key: { pk: S('e2'), sk: N(1) } }, { note: 'nothing written' })
// AttributeUpdates
const uKey = { pk: S('u'), sk: N(1) }
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { a: { Action: 'PUT', Value: S('x') }, n: { Action: 'ADD', Value: N(5) }, ss: { Action: 'ADD', Value: { SS: ['a', 'b'] } }, l: { Action: 'ADD', Value: { L: [S('a')] } }, gone: { Action: 'DELETE' }, ds: { Action: 'DELETE', Value: { NS: ['1'] } }, d: { Value: N(1) } }, ReturnValues: 'ALL_NEW' }, { note: 'AttributeUpdates on a missing item' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { n: { Action: 'ADD', Value: N('-7.5') }, l: { Action: 'ADD', Value: { L: [N(1)] } }, a: { Action: 'DELETE' } }, ReturnValues: 'UPDATED_OLD' }, { note: 'AttributeUpdates ADD, UPDATED_OLD' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { n: { Action: 'ADD', Value: N(1) }, a: { Action: 'DELETE' } }, ReturnValues: 'UPDATED_NEW' }, { note: 'AttributeUpdates UPDATED_NEW' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { ss: { Action: 'DELETE', Value: { SS: ['a', 'b'] } } }, ReturnValues: 'ALL_NEW' }, { note: 'AttributeUpdates DELETE empties the set' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { n: { Action: 'ADD', Value: N(1) } }, Expected: { n: { Value: N('-1.5') } }, ReturnValues: 'UPDATED_NEW' }, { note: 'AttributeUpdates with Expected' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { n: { Action: 'ADD', Value: N(1) } }, Expected: { n: { Value: N('-1.5') } } }, { note: 'AttributeUpdates with Expected fails' })
for (const u of [{ l: { Action: 'ADD', Value: N(1) } }, { n: { Action: 'ADD', Value: { NS: ['1'] } } }, { l: { Action: 'DELETE', Value: { SS: ['a'] } } }]) {
  add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: u }, { note: 'AttributeUpdates type mismatch' })
}
for (const u of [
  { a: { Action: 'PUT' } }, { a: {} }, { a: { Action: 'DELETE', Value: S('x') } }, { a: { Action: 'DELETE', Value: N(1) } },
  { a: { Action: 'DELETE', Value: { L: [] } } }, { a: { Action: 'ADD', Value: S('x') } }, { a: { Action: 'ADD', Value: { B: 'Yg==' } } },
  { a: { Action: 'ADD', Value: { M: {} } } }, { a: { Action: 'ADD', Value: { BOOL: true } } }, { a: { Action: 'PUT', Value: { NS: [] } } },
  { pk: { Action: 'PUT', Value: S('x') } }, { sk: { Action: 'DELETE' } }
]) add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: u }, { note: 'AttributeUpdates errors' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { a: { Action: 'PUT', Value: S('x') } }, UpdateExpression: 'SET a = :v', ExpressionAttributeValues: { ':v': S('x') } }, { note: 'mixing AttributeUpdates' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { a: { Action: 'PUT', Value: S('x') } }, Expected: { a: { Exists: false } }, UpdateExpression: 'SET a = :v', ConditionExpression: 'attribute_not_exists(a)', ExpressionAttributeValues: { ':v': S('x') } }, { note: 'mixing, UpdateItem' })
add('UpdateItem', { TableName: 'conf_legacy', Key: uKey, AttributeUpdates: { a: { Action: 'PUT', Value: S('x') } }, ExpressionAttributeValues: { ':v': S('x') } }, { note: 'values with AttributeUpdates' })
add('GetItem', { TableName: 'conf_legacy', Key: uKey, ConsistentRead: true }, { note: 'after AttributeUpdates' })
add('DeleteTable', { TableName: 'conf_legacy' })

// ---------- DeleteTable ----------
add('DeleteTable', { TableName: 'conf_bin' })
add('DescribeTable', { TableName: 'conf_bin' }, { note: 'deleted' })
add('DeleteTable', { TableName: 'conf_bin' }, { note: 'E28 already deleted' })
add('GetItem', { TableName: 'conf_bin', Key: { id: { B: 'AA==' } } }, { note: 'E28 after delete' })

// ---------- billing modes and provisioned throughput ----------
const hashOnly = { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }] }
const tp = (r, w) => ({ ProvisionedThroughput: { ReadCapacityUnits: r, WriteCapacityUnits: w } })
const byG = (extra) => ({ GlobalSecondaryIndexes: [Object.assign({ IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'ALL' } }, extra || {})] })
const gDefs = { AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'g', AttributeType: 'S' }] }
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly), { note: 'no BillingMode, no ProvisionedThroughput' })
add('CreateTable', Object.assign({ TableName: 'conf_bad', BillingMode: 'PROVISIONED' }, hashOnly), { note: 'PROVISIONED without ProvisionedThroughput' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, pay, tp(1, 1)), { note: 'PAY_PER_REQUEST with ProvisionedThroughput' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, tp(0, 0)), { note: 'zero capacity units (two errors)' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, { ProvisionedThroughput: { ReadCapacityUnits: 1 } }), { note: 'WriteCapacityUnits missing' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, tp(1000000000001, 1)), { note: 'capacity units out of bounds' })
add('CreateTable', Object.assign({ TableName: 'conf_bad', BillingMode: 'FREE' }, hashOnly, tp(1, 1)), { note: 'unknown BillingMode' })
add('CreateTable', Object.assign({ TableName: 'conf_bad', KeySchema: hashOnly.KeySchema, AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'extra', AttributeType: 'N' }] }, pay), { note: 'an AttributeDefinition no key uses, no index' })
add('CreateTable', Object.assign({ TableName: 'conf_bad', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'pk', KeyType: 'RANGE' }], AttributeDefinitions: hashOnly.AttributeDefinitions }, pay), { note: 'more keys than definitions' })
add('CreateTable', Object.assign({ TableName: 'conf_bad', KeySchema: hashOnly.KeySchema, AttributeDefinitions: [{ AttributeName: 'pkk', AttributeType: 'S' }] }, pay), { note: 'key not defined' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, gDefs, pay, byG(tp(1, 1))), { note: 'GSI throughput on PAY_PER_REQUEST' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, gDefs, pay, { GlobalSecondaryIndexes: byG().GlobalSecondaryIndexes.concat(byG().GlobalSecondaryIndexes) }), { note: 'duplicate GSI names' })
add('CreateTable', Object.assign({ TableName: 'conf_bad' }, hashOnly, gDefs, pay, { GlobalSecondaryIndexes: [] }), { note: 'empty GlobalSecondaryIndexes' })
add('CreateTable', Object.assign({ TableName: 'conf_prov' }, hashOnly, gDefs, tp(5, 5), byG(tp(3, 4))), { note: 'PROVISIONED table and GSI' })
add('DescribeTable', { TableName: 'conf_prov' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov' }, tp(5, 5)), { note: 'throughput unchanged' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov', BillingMode: 'PROVISIONED' }, tp(5, 5)), { note: 'PROVISIONED to PROVISIONED, throughput unchanged' })
add('UpdateTable', { TableName: 'conf_prov', BillingMode: 'PROVISIONED' }, { note: 'PROVISIONED without ProvisionedThroughput' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov', BillingMode: 'PAY_PER_REQUEST' }, tp(5, 5)), { note: 'PAY_PER_REQUEST with ProvisionedThroughput' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov' }, tp(0, 1)), { note: 'zero capacity units' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov' }, tp(1000000000001, 1)), { note: 'capacity units out of bounds' })
add('UpdateTable', { TableName: 'conf_prov', GlobalSecondaryIndexUpdates: [{ Update: Object.assign({ IndexName: 'byG' }, tp(3, 4)) }] }, { note: 'GSI throughput unchanged' })
add('UpdateTable', Object.assign({ TableName: 'conf_prov' }, tp(10, 5)), { note: 'throughput raised' })
add('CreateTable', Object.assign({ TableName: 'conf_ppr' }, hashOnly, gDefs, pay, byG()), { note: 'PAY_PER_REQUEST table with a GSI' })
add('UpdateTable', Object.assign({ TableName: 'conf_ppr' }, tp(5, 5)), { note: 'throughput on PAY_PER_REQUEST' })
add('UpdateTable', Object.assign({ TableName: 'conf_ppr', BillingMode: 'PROVISIONED' }, tp(5, 5)), { note: 'to PROVISIONED without the GSI\'s throughput' })
add('UpdateTable', Object.assign({ TableName: 'conf_ppr', BillingMode: 'PROVISIONED' }, tp(5, 5), { GlobalSecondaryIndexUpdates: [{ Update: Object.assign({ IndexName: 'byG' }, tp(2, 2)) }] }), { note: 'to PROVISIONED' })
add('DeleteTable', { TableName: 'conf_prov' })
add('DeleteTable', { TableName: 'conf_ppr' })

// ---------- U+0000 in strings (hroe.dynamodb_text: jsonb cannot carry it) ----------
// Item strings, set members, list and map members and attribute names hold
// it; comparisons, begins_with, contains and size() see it as a character.
// Names in expressions holding it are hroe's deviation (not here).
const nul = { pk: S('n') }
add('CreateTable', Object.assign({ TableName: 'conf_nul' }, hashOnly, pay), { note: 'U+0000 in strings' })
add('PutItem', { TableName: 'conf_nul', Item: { pk: S('n'), s: S('a\u0000b'), z: S('\u0000'), ss: { SS: ['a', 'a\u0000', '\u0000a'] }, l: { L: [S('x\u0000'), { SS: ['\u0000'] }] }, m: { M: { 'in\u0000side': S('v\u0000') } }, 'n\u0000ame': S('named') }, ReturnConsumedCapacity: 'TOTAL' }, { note: 'U+0000 in S, SS, L, M and names' })
add('GetItem', { TableName: 'conf_nul', Key: nul })
add('GetItem', { TableName: 'conf_nul', Key: nul, ProjectionExpression: 's, ss, l[0]' })
for (const [f, v] of [['s = :v', 'a\u0000b'], ['s = :v', 'a'], ['s > :v', 'a\u0000'], ['s < :v', 'a\u0001'], ['begins_with(s, :v)', 'a\u0000'],
  ['begins_with(s, :v)', 'a\u0000c'], ['contains(s, :v)', '\u0000b'], ['contains(ss, :v)', 'a\u0000'], ['contains(ss, :v)', 'a\u0000\u0000'],
  ['contains(l[0], :v)', '\u0000'], ['z = :v', '\u0000'], ['s BETWEEN :v AND :v', 'a\u0000b']]) {
  add('Query', { TableName: 'conf_nul', KeyConditionExpression: 'pk = :k', FilterExpression: f, ExpressionAttributeValues: { ':k': S('n'), ':v': S(v) }, ProjectionExpression: 'pk' }, { note: 'U+0000: ' + f })
}
add('Scan', { TableName: 'conf_nul', FilterExpression: 'size(s) = :three AND size(z) = :one', ExpressionAttributeValues: { ':three': N(3), ':one': N(1) }, ProjectionExpression: 'pk' }, { note: 'U+0000 is one byte of size()' })
add('UpdateItem', { TableName: 'conf_nul', Key: nul, UpdateExpression: 'SET t = :t, l = list_append(l, :l) ADD ss :a', ConditionExpression: 's = :s', ExpressionAttributeValues: { ':t': S('\u0000\u0000'), ':l': { L: [S('\u0000z')] }, ':a': { SS: ['\u0000\u0000'] }, ':s': S('a\u0000b') }, ReturnValues: 'ALL_NEW' }, { note: 'U+0000 in updates' })
add('UpdateItem', { TableName: 'conf_nul', Key: nul, UpdateExpression: 'DELETE ss :d', ExpressionAttributeValues: { ':d': { SS: ['a\u0000', 'a'] } }, ReturnValues: 'UPDATED_NEW' })
add('PutItem', { TableName: 'conf_nul', Item: { pk: S('n') }, ConditionExpression: 's = :s', ExpressionAttributeValues: { ':s': S('a') } }, { note: 'U+0000: a condition that fails' })
add('BatchGetItem', { RequestItems: { conf_nul: { Keys: [nul] } } })
add('DeleteItem', { TableName: 'conf_nul', Key: nul, ReturnValues: 'ALL_OLD' })
add('DeleteTable', { TableName: 'conf_nul' })

// Keys holding U+0000 (hroe escapes it in hroe.key): DynamoDB's order over
// them, unsigned UTF-8 bytes, "a" < "a\0" < "a\0b" < "a\1" < "a\2"
add('CreateTable', Object.assign({
  TableName: 'conf_nulk',
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }]
}, pay), { note: 'U+0000 in keys' })
const nulSks = ['a\u0002', 'a\u0000b', 'a', 'a\u0001', 'a\u0000', '\u0000']
for (const sk of nulSks) add('PutItem', { TableName: 'conf_nulk', Item: { pk: S('n\u0000'), sk: S(sk), v: S('v' + sk) } }, { note: 'U+0000 in a key' })
add('PutItem', { TableName: 'conf_nulk', Item: { pk: S('n'), sk: S('a') } }, { note: 'U+0000: n is not n\\0' })
add('GetItem', { TableName: 'conf_nulk', Key: { pk: S('n\u0000'), sk: S('a\u0000b') } })
add('GetItem', { TableName: 'conf_nulk', Key: { pk: S('n\u0000'), sk: S('a\u0000c') } })
add('GetItem', { TableName: 'conf_nulk', Key: { pk: S('n\u0000\u0000'), sk: S('a') } })
for (const forward of [true, false]) {
  add('Query', { TableName: 'conf_nulk', KeyConditionExpression: 'pk = :k', ExpressionAttributeValues: { ':k': S('n\u0000') }, ScanIndexForward: forward }, { note: 'U+0000: key order' })
  add('Query', { TableName: 'conf_nulk', KeyConditionExpression: 'pk = :k', ExpressionAttributeValues: { ':k': S('n\u0000') }, ScanIndexForward: forward, Limit: 2, ExclusiveStartKey: { pk: S('n\u0000'), sk: S('a\u0000') } }, { note: 'U+0000: a page after a key' })
}
for (const [c, v] of [['sk > :v', 'a'], ['sk < :v', 'a\u0000b'], ['sk >= :v', 'a\u0000'], ['begins_with(sk, :v)', 'a\u0000'], ['begins_with(sk, :v)', 'a\u0001'], ['begins_with(sk, :v)', '\u0000']]) {
  add('Query', { TableName: 'conf_nulk', KeyConditionExpression: 'pk = :k AND ' + c, ExpressionAttributeValues: { ':k': S('n\u0000'), ':v': S(v) }, ProjectionExpression: 'sk' }, { note: 'U+0000: ' + c })
}
add('Query', { TableName: 'conf_nulk', KeyConditionExpression: 'pk = :k AND sk BETWEEN :a AND :b', ExpressionAttributeValues: { ':k': S('n\u0000'), ':a': S('a\u0000'), ':b': S('a\u0001') }, ProjectionExpression: 'sk' }, { note: 'U+0000: BETWEEN' })
add('UpdateItem', { TableName: 'conf_nulk', Key: { pk: S('n\u0000'), sk: S('\u0000') }, UpdateExpression: 'SET v = :v', ConditionExpression: 'attribute_exists(sk)', ExpressionAttributeValues: { ':v': S('w') }, ReturnValues: 'ALL_NEW' }, { note: 'U+0000: UpdateItem of such a key' })
add('DeleteItem', { TableName: 'conf_nulk', Key: { pk: S('n\u0000'), sk: S('a\u0001') }, ReturnValues: 'ALL_OLD' })
add('Query', { TableName: 'conf_nulk', KeyConditionExpression: 'pk = :k', ExpressionAttributeValues: { ':k': S('n\u0000') }, Select: 'COUNT' })
add('DeleteTable', { TableName: 'conf_nulk' })

for (const e of out) {
  if (e.req.ExpressionAttributeValues2 !== undefined || 'ExpressionAttributeValues2' in e.req) delete e.req.ExpressionAttributeValues2
  process.stdout.write(JSON.stringify(e) + '\n')
}
