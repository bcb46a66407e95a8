#!/usr/bin/env node
// Conformance suite: sends every request of corpus.jsonl to dynalite (in this
// process, in memory) and to hroe (hroe.dynamodb_text, hroe-gateway's entry,
// whose text carries U+0000 as jsonb cannot, through one psql session),
// normalises both responses and compares them.  Requests marked "spec" are
// compared with the expected response written in the corpus instead (dynalite
// has no transactions).  The documented deviations are in deviations.md; each
// is applied here by name, and only where the corpus names it.
//
//   node run.js [corpus.jsonl]      (psql reaches the database through PG* variables)
//
// With HROE_GATEWAY_URL set, hroe's side goes through hroe-gateway instead
// (one request at a time, signed with $AWS_ACCESS_KEY_ID and
// $AWS_SECRET_ACCESS_KEY): test/t_replica.sh runs the corpus so, with the
// eventually consistent reads answered by a hot standby.
'use strict'
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const { spawnSync } = require('child_process')

const corpusFile = process.argv[2] || path.join(__dirname, 'corpus.jsonl')
const corpus = fs.readFileSync(corpusFile, 'utf8').split('\n').filter(l => l.trim())
  .map((l, i) => { const e = JSON.parse(l); e.n = i + 1; return e })

// ---------- dynalite ----------
function startDynalite () {
  const dynalite = require('dynalite')
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
  return new Promise((resolve, reject) => {
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

function dynaliteRequest (port, op, body) {
  const data = Buffer.from(JSON.stringify(body))
  return postJson({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/',
    agent: keepAlive,
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'Content-Length': data.length,
      'X-Amz-Target': 'DynamoDB_20120810.' + op,
      'X-Amz-Date': '20260101T000000Z',
      // dynalite checks the shape of the header, not the signature
      Authorization: 'AWS4-HMAC-SHA256 Credential=conformance/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=00'
    }
  }, data)
}

// POST data with the options; resolves to the parsed JSON answer
function postJson (options, data) {
  return new Promise((resolve, reject) => {
    const req = http.request(options, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        try { resolve(JSON.parse(text)) } catch (e) { resolve({ __unparsed: text }) }
      })
    })
    req.on('error', reject)
    req.end(data)
  })
}
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 })

const sleep = ms => new Promise(resolve => setTimeout(resolve, ms))

// dynalite changes table status asynchronously even with 0 ms: wait for it
async function settle (port, e) {
  if (e.op !== 'CreateTable' && e.op !== 'DeleteTable') return
  for (let i = 0; i < 200; i++) {
    const d = await dynaliteRequest(port, 'DescribeTable', { TableName: e.req.TableName })
    if (e.op === 'CreateTable' && (d.__type || (d.Table && d.Table.TableStatus === 'ACTIVE'))) return
    if (e.op === 'DeleteTable' && d.__type) return
    await sleep(5)
  }
}

// ---------- hroe ----------
function runHroe (entries) {
  const tag = '$hroe_conformance$'
  const lines = ['\\set ON_ERROR_STOP 0', '\\pset tuples_only on', '\\pset format unaligned']
  for (const e of entries) {
    const body = JSON.stringify(e.req)
    if (body.includes(tag)) throw new Error('request ' + e.n + ' contains the quoting tag')
    lines.push('\\echo @@' + e.n)
    lines.push(`SELECT hroe.dynamodb_text('${e.op}', ${tag}${body}${tag});`)
  }
  const file = path.join(os.tmpdir(), 'hroe-conformance-' + process.pid + '.sql')
  fs.writeFileSync(file, lines.join('\n') + '\n')
  const r = spawnSync('psql', ['-X', '-q', '-f', file], { encoding: 'utf8', maxBuffer: 1 << 30 })
  fs.unlinkSync(file)
  if (r.error) throw r.error
  const out = {}
  let cur = null
  for (const line of r.stdout.split('\n')) {
    const m = /^@@(\d+)$/.exec(line)
    if (m) { cur = +m[1]; continue }
    if (cur !== null && line.trim()) out[cur] = (out[cur] || '') + line
  }
  const res = {}
  for (const e of entries) {
    try { res[e.n] = JSON.parse(out[e.n]) } catch (err) { res[e.n] = { __psql_error: out[e.n] || r.stderr.split('\n').filter(l => l).slice(-3).join(' | ') } }
  }
  return res
}

// ---------- hroe through hroe-gateway ----------
const crypto = require('crypto')
const hmac = (key, data) => crypto.createHmac('sha256', key).update(data).digest()
const sha256 = data => crypto.createHash('sha256').update(data).digest('hex')

function gatewayRequest (url, op, body) {
  const data = Buffer.from(JSON.stringify(body))
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '')
  const day = now.slice(0, 8)
  const scope = `${day}/us-east-1/dynamodb/aws4_request`
  const headers = {
    'content-type': 'application/x-amz-json-1.0',
    host: url.host,
    'x-amz-date': now,
    'x-amz-target': 'DynamoDB_20120810.' + op
  }
  const names = Object.keys(headers).sort()
  const canonical = ['POST', '/', '', names.map(n => `${n}:${headers[n]}\n`).join(''), names.join(';'), sha256(data)].join('\n')
  const toSign = ['AWS4-HMAC-SHA256', now, scope, sha256(canonical)].join('\n')
  let k = 'AWS4' + process.env.AWS_SECRET_ACCESS_KEY
  for (const part of [day, 'us-east-1', 'dynamodb', 'aws4_request']) k = hmac(k, part)
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${process.env.AWS_ACCESS_KEY_ID}/${scope}, SignedHeaders=${names.join(';')}, Signature=${hmac(k, toSign).toString('hex')}`
  headers['content-length'] = data.length
  return postJson({ host: url.hostname, port: url.port, method: 'POST', path: '/', agent: gatewayAgent, headers }, data)
}

const gatewayAgent = new http.Agent({ keepAlive: true, maxSockets: 1 })

async function runGateway (entries) {
  const url = new URL(process.env.HROE_GATEWAY_URL)
  const res = {}
  for (const e of entries) res[e.n] = await gatewayRequest(url, e.op, e.req)
  gatewayAgent.destroy()
  return res
}

// ---------- normalisation ----------
// Canonical JSON: keys sorted; set members sorted (DynamoDB leaves their order unspecified)
function canon (v) {
  if (Array.isArray(v)) return v.map(canon)
  if (v && typeof v === 'object') {
    const o = {}
    for (const k of Object.keys(v).sort()) {
      let x = canon(v[k])
      if ((k === 'SS' || k === 'NS' || k === 'BS') && Array.isArray(x) && Object.keys(v).length === 1) {
        x = k === 'NS' ? x.slice().sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0)) : x.slice().sort()
      }
      o[k] = x
    }
    return o
  }
  return v
}
const text = v => JSON.stringify(canon(v))
const sortItems = items => !Array.isArray(items) ? items : items.map(canon).sort((a, b) => { const x = JSON.stringify(a); const y = JSON.stringify(b); return x < y ? -1 : x > y ? 1 : 0 })

// The part of a table description both sides define (DynamoDB's own fields;
// TableStatus, timestamps, ARNs, throughput and the item counts DynamoDB
// refreshes every six hours are left out: see deviations.md)
function tableDescription (t) {
  if (!t) return t
  const d = {
    TableName: t.TableName,
    KeySchema: t.KeySchema,
    AttributeDefinitions: (t.AttributeDefinitions || []).slice().sort((a, b) => a.AttributeName < b.AttributeName ? -1 : 1)
  }
  for (const k of ['LocalSecondaryIndexes', 'GlobalSecondaryIndexes']) {
    if (!t[k]) continue
    d[k] = t[k].map(g => ({
      IndexName: g.IndexName,
      KeySchema: g.KeySchema,
      Projection: g.Projection.NonKeyAttributes ? { ProjectionType: g.Projection.ProjectionType, NonKeyAttributes: g.Projection.NonKeyAttributes.slice().sort() } : g.Projection
    })).sort((a, b) => a.IndexName < b.IndexName ? -1 : 1)
  }
  return d
}

function normalise (e, r) {
  r = JSON.parse(JSON.stringify(r))
  if (r.TableDescription) r.TableDescription = tableDescription(r.TableDescription)
  if (r.Table) r.Table = tableDescription(r.Table)
  if (e.op === 'Scan' && r.Items) r.Items = sortItems(r.Items)
  if (e.op === 'BatchGetItem' && r.Responses) {
    for (const t of Object.keys(r.Responses)) r.Responses[t] = sortItems(r.Responses[t])
  }
  if (Array.isArray(r.ConsumedCapacity)) r.ConsumedCapacity.sort((a, b) => a.TableName < b.TableName ? -1 : 1)
  return canon(r)
}

// ---------- documented deviations (deviations.md) ----------
// Each turns dynalite's response into the response DynamoDB gives, in the one
// way the deviation names, and fails if dynalite did not deviate that way.
const deviations = {
  // dynalite charges an empty Query or Scan 0 units; DynamoDB charges at least
  // one 4 KB read (0.5 eventually consistent, 1 strongly consistent)
  'empty-read-capacity' (e, d) {
    if (!d.ConsumedCapacity || d.ConsumedCapacity.CapacityUnits !== 0) return 'dynalite charged ' + JSON.stringify(d.ConsumedCapacity)
    d.ConsumedCapacity.CapacityUnits = e.req.ConsistentRead ? 1 : 0.5
  },
  // dynalite measures strings in UTF-16 code units; DynamoDB in UTF-8 bytes
  'utf16-size' (e, d) {
    if (!d.ConsumedCapacity || d.ConsumedCapacity.CapacityUnits === e.capacity) return 'dynalite agreed with UTF-8 sizes'
    d.ConsumedCapacity.CapacityUnits = e.capacity
  },
  // dynalite leaves some messages empty or words them differently from
  // DynamoDB: the corpus gives DynamoDB's message (e.message)
  'message' (e, d) {
    if (!d.__type || d.message === e.message) return 'dynalite gave ' + JSON.stringify(d.message)
    d.message = e.message
  },
  // dynalite's expression syntax errors are its parser generator's text;
  // DynamoDB's read "Syntax error; token: ..., near: ...": compare up to
  // "Syntax error;"
  'syntax-error-message' (e, d, h) {
    const cut = r => { const i = (r.message || '').indexOf('Syntax error;'); if (i >= 0) r.message = r.message.slice(0, i + 13); return i >= 0 }
    if (!cut(d)) return 'dynalite reported no syntax error'
    cut(h)
  },
  // Scan order is the partition hash order, which differs between the two:
  // with a Limit only the counts and whether the page ended are comparable
  'scan-order' (e, d, h) {
    for (const r of [d, h]) {
      if (!r.__type) {
        r.LastEvaluatedKey = r.LastEvaluatedKey ? '(present)' : undefined
        r.Items = r.Items ? r.Items.length + ' items' : undefined
      }
    }
  }
}

// ---------- main ----------
async function main () {
  const server = await startDynalite()
  const port = server.address().port
  const dyn = {}
  for (const e of corpus) {
    if (e.spec) continue
    dyn[e.n] = await dynaliteRequest(port, e.op, e.req)
    await settle(port, e)
  }
  server.close()
  keepAlive.destroy()
  const hroe = process.env.HROE_GATEWAY_URL ? await runGateway(corpus) : runHroe(corpus)
  // the extension's own model tables (hroe_single, hroe_multi's) are DynamoDB
  // tables of the test database too, which dynalite does not have: they are
  // left out of hroe's ListTables answers (see deviations.md)
  const own = spawnSync('psql', ['-X', '-A', '-t', '-c',
    "SELECT t.table_name FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.objid = t.relid AND d.deptype = 'e'"],
  { encoding: 'utf8' })
  if (own.status !== 0) throw new Error('listing the model tables: ' + own.stderr)
  const modelTables = new Set(own.stdout.split('\n').filter(l => l))

  let passed = 0
  let failed = 0
  const byOp = {}
  for (const e of corpus) {
    let h = JSON.parse(JSON.stringify(hroe[e.n]))
    let d = e.spec ? JSON.parse(JSON.stringify(e.expect)) : JSON.parse(JSON.stringify(dyn[e.n]))
    let problem = null
    if (e.deviation) {
      const fn = deviations[e.deviation]
      if (!fn) problem = 'unknown deviation ' + e.deviation
      else problem = fn(e, d, h) || null
    }
    if (e.op === 'ListTables' && Array.isArray(h.TableNames)) h.TableNames = h.TableNames.filter(n => !modelTables.has(n))
    h = normalise(e, h)
    d = normalise(e, d)
    const ok = !problem && text(h) === text(d)
    byOp[e.op] = byOp[e.op] || [0, 0]
    byOp[e.op][ok ? 0 : 1]++
    const label = `${String(e.n).padStart(3)} ${e.op}${e.note ? ' (' + e.note + ')' : ''}${e.spec ? ' [spec]' : ''}${e.deviation ? ' [' + e.deviation + ']' : ''}`
    if (ok) {
      passed++
      console.log('ok     ' + label)
    } else {
      failed++
      console.log('FAILED ' + label)
      console.log('       request:  ' + JSON.stringify(e.req).slice(0, 400))
      if (problem) console.log('       deviation: ' + problem)
      console.log('       ' + (e.spec ? 'expected' : 'dynalite') + ': ' + text(d).slice(0, 600))
      console.log('       hroe:     ' + text(h).slice(0, 600))
    }
  }
  console.log('per operation: ' + Object.keys(byOp).sort().map(k => `${k} ${byOp[k][0]}/${byOp[k][0] + byOp[k][1]}`).join(', '))
  console.log(`${passed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

main().catch(err => { console.error(err); process.exit(2) })
