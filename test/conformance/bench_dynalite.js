#!/usr/bin/env node
// Client side of test/bench/api.sh for dynalite: one client, one request at a
// time over a keep-alive connection, raw HTTP (no SDK, no request signing), for
// SECS seconds; prints requests per second.
//   node bench_dynalite.js PORT load CUSTOMERS
//   node bench_dynalite.js PORT get|query|put CUSTOMERS SECS
'use strict'
const http = require('http')
const [port, mode, customers, secs] = [+process.argv[2], process.argv[3], +process.argv[4], +(process.argv[5] || 5)]
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const headers = op => ({
  'Content-Type': 'application/x-amz-json-1.0',
  'X-Amz-Target': 'DynamoDB_20120810.' + op,
  'X-Amz-Date': '20260101T000000Z',
  Authorization: 'AWS4-HMAC-SHA256 Credential=bench/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00'
})
function call (op, body) {
  const data = Buffer.from(JSON.stringify(body))
  return new Promise((resolve, reject) => {
    const h = headers(op)
    h['Content-Length'] = data.length
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent, headers: h }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const r = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        if (r.__type) reject(new Error(op + ': ' + JSON.stringify(r)))
        else resolve(r)
      })
    })
    req.on('error', reject)
    req.end(data)
  })
}
// the same items as the SQL side (test/bench/api.sh)
const item = (c, o) => ({
  pk: { S: 'CUST#' + c },
  sk: { S: 'ORDER#' + String(o).padStart(4, '0') },
  status: { S: ['OPEN', 'SHIPPED', 'CLOSED'][(c + o) % 3] },
  total: { N: String(((c * 31 + o * 17) % 100000) / 100) },
  note: { S: 'x'.repeat(60) }
})
const rand = n => 1 + Math.floor(Math.random() * n)
async function main () {
  if (mode === 'load') {
    await call('CreateTable', {
      TableName: 'bench',
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }]
    })
    for (;;) {
      const d = await call('DescribeTable', { TableName: 'bench' })
      if (d.Table.TableStatus === 'ACTIVE') break
      await new Promise(resolve => setTimeout(resolve, 20))
    }
    let batch = []
    for (let c = 1; c <= customers; c++) {
      for (let o = 1; o <= 10; o++) {
        batch.push({ PutRequest: { Item: item(c, o) } })
        if (batch.length === 25) { await call('BatchWriteItem', { RequestItems: { bench: batch } }); batch = [] }
      }
    }
    if (batch.length) await call('BatchWriteItem', { RequestItems: { bench: batch } })
    const q = await call('Query', { TableName: 'bench', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'CUST#1' } } })
    if (q.Count !== 10) throw new Error('load check: ' + q.Count)
    return
  }
  const req = {
    get: () => ['GetItem', { TableName: 'bench', Key: { pk: { S: 'CUST#' + rand(customers) }, sk: { S: 'ORDER#' + String(rand(10)).padStart(4, '0') } } }],
    query: () => ['Query', { TableName: 'bench', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'CUST#' + rand(customers) } } }],
    put: () => ['PutItem', { TableName: 'bench', Item: item(rand(customers), rand(10)) }]
  }[mode]
  const end = Date.now() + secs * 1000
  let n = 0
  const t0 = process.hrtime.bigint()
  while (Date.now() < end) {
    const [op, body] = req()
    const r = await call(op, body)
    if (mode === 'query' && r.Count !== 10) throw new Error('query returned ' + r.Count)
    if (mode === 'get' && !r.Item) throw new Error('get found nothing')
    n++
  }
  const s = Number(process.hrtime.bigint() - t0) / 1e9
  console.log((n / s).toFixed(1))
  agent.destroy()
}
main().catch(e => { console.error(e); process.exit(1) })
