--
-- Vector indexes and SearchVectors (issue #33, doc/vectors.md): CreateTable's
-- and UpdateTable's VectorIndexes with DynamoDB's validation, DescribeTable,
-- the write-side validation, scores of the three distance functions,
-- SearchConditionExpression, projections, ConsumedCapacity, PartiQL and
-- Scan refused, and an exact brute-force oracle over random vectors through
-- puts, updates, deletes, batches and transactions.
--
\set VERBOSITY terse
CREATE FUNCTION vx_ddb(p_op text, p_req jsonb) RETURNS jsonb LANGUAGE sql AS $$
	SELECT hroe.dynamodb(p_op, p_req)
$$;
CREATE FUNCTION vx_ddb_err(p_op text, p_req jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT concat_ws(': ', split_part(r ->> '__type', '#', 2), r ->> 'message')
	FROM hroe.dynamodb(p_op, p_req) r
$$;
-- pk and score of each result
CREATE FUNCTION vx_hits(p_res jsonb) RETURNS text LANGUAGE sql AS $$
	SELECT coalesce(string_agg(format('%s=%s', r -> 'Item' -> 'pk' ->> 'S', r ->> 'Score'), ' ' ORDER BY o), '(none)')
	FROM jsonb_array_elements(p_res -> 'SearchResults') WITH ORDINALITY a(r, o)
$$;
CREATE FUNCTION vx_vec(VARIADIC n float8[]) RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_agg(jsonb_build_object('N', x::text) ORDER BY o) FROM unnest(n) WITH ORDINALITY u(x, o)
$$;

-- ---------- CreateTable: validation ----------
SELECT vx_ddb_err('CreateTable', '{"TableName": "vx_bad", "BillingMode": "PROVISIONED",
  "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}}]}');
SELECT vx_ddb_err('CreateTable', '{"TableName": "vx_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"},
                     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]}]}');
SELECT vx_ddb_err('CreateTable', '{"TableName": "vx_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 4097, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}}]}');
SELECT vx_ddb_err('CreateTable', '{"TableName": "vx_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 0, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}},
                    {"IndexName": "vy", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}}]}');
SELECT vx_ddb_err('CreateTable', jsonb_build_object('TableName', 'vx_bad', 'BillingMode', 'PAY_PER_REQUEST',
  'KeySchema', '[{"AttributeName": "pk", "KeyType": "HASH"}]'::jsonb, 'AttributeDefinitions', '[{"AttributeName": "pk", "AttributeType": "S"}]'::jsonb,
  'VectorIndexes', (SELECT jsonb_agg(jsonb_build_object('IndexName', 'vix' || i, 'VectorAttribute', '{"AttributeName": "e"}'::jsonb,
      'Dimensions', 3, 'DistanceFunction', 'COSINE', 'Projection', '{"ProjectionType": "KEYS_ONLY"}'::jsonb)) FROM generate_series(1, 6) i)));
SELECT vx_ddb_err('CreateTable', '{"TableName": "vx_bad", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "VectorIndexes": [{"IndexName": "vix", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}},
                    {"IndexName": "vix2", "VectorAttribute": {"AttributeName": "e"}, "Dimensions": 4, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}}]}');
SELECT count(*) AS no_table_left FROM hroe.tables WHERE table_name = 'vx_bad';

-- ---------- CreateTable, DescribeTable ----------
SELECT jsonb_pretty(vx_ddb('CreateTable', '{"TableName": "vxt", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"},
                           {"AttributeName": "category", "AttributeType": "S"}],
  "VectorIndexes": [
    {"IndexName": "cosine", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "euclidean", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "dot", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3, "DistanceFunction": "DOT_PRODUCT", "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["label"]}},
    {"IndexName": "schema", "VectorAttribute": {"AttributeName": "embedding"}, "Dimensions": 3, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "ALL"},
     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}, {"AttributeName": "category", "SearchSchemaElementType": "INLINE_FILTER"}]}]}')
  -> 'TableDescription' -> 'VectorIndexes');
SELECT jsonb_pretty(vx_ddb('DescribeTable', '{"TableName": "vxt"}') -> 'Table' -> 'VectorIndexes' -> 3);

-- ---------- writes ----------
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt', 'ReturnConsumedCapacity', 'INDEXES',
  'Item', jsonb_build_object('pk', '{"S": "a"}'::jsonb, 'label', '{"S": "item-a"}'::jsonb, 'tenant', '{"S": "t1"}'::jsonb,
                             'category', '{"S": "c1"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(1, 0, 0)))));
-- an identical overwrite writes no vector
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt', 'ReturnConsumedCapacity', 'INDEXES',
  'Item', jsonb_build_object('pk', '{"S": "a"}'::jsonb, 'label', '{"S": "item-a"}'::jsonb, 'tenant', '{"S": "t1"}'::jsonb,
                             'category', '{"S": "c1"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(1, 0, 0)))));
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt', 'ReturnConsumedCapacity', 'TOTAL',
  'Item', jsonb_build_object('pk', '{"S": "b"}'::jsonb, 'label', '{"S": "item-b"}'::jsonb, 'tenant', '{"S": "t1"}'::jsonb,
                             'category', '{"S": "c2"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(0, 1, 0)))));
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt',
  'Item', jsonb_build_object('pk', '{"S": "c"}'::jsonb, 'label', '{"S": "item-c"}'::jsonb, 'tenant', '{"S": "t2"}'::jsonb,
                             'category', '{"S": "c1"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(-1, 0, 0)))));
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt',
  'Item', jsonb_build_object('pk', '{"S": "d"}'::jsonb, 'label', '{"S": "item-d"}'::jsonb, 'tenant', '{"S": "t1"}'::jsonb,
                             'category', '{"S": "c1"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(0.6, 0.8, 0)))));
-- no HASH attribute: in the indexes without a SearchSchema only
SELECT vx_ddb('PutItem', jsonb_build_object('TableName', 'vxt',
  'Item', jsonb_build_object('pk', '{"S": "e"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(0, 0, 1)))));
-- DynamoDB's write-side validation, naming the first index violated
SELECT vx_ddb_err('PutItem', jsonb_build_object('TableName', 'vxt',
  'Item', jsonb_build_object('pk', '{"S": "x"}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(1, 0)))));
SELECT vx_ddb_err('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "x"}, "embedding": {"L": [{"N": "1"}, {"S": "oops"}, {"N": "0"}]}}}');
SELECT vx_ddb_err('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "x"}, "embedding": {"S": "not-a-vector"}}}');
SELECT vx_ddb_err('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "x"}, "embedding": {"L": [{"N": "1"}, {"N": "1E+100"}, {"N": "0"}]}}}');
SELECT vx_ddb_err('PutItem', jsonb_build_object('TableName', 'vxt',
  'Item', jsonb_build_object('pk', '{"S": "x"}'::jsonb, 'tenant', '{"S": ""}'::jsonb, 'embedding', jsonb_build_object('L', vx_vec(0, 0, 1)))));
SELECT vx_ddb_err('UpdateItem', '{"TableName": "vxt", "Key": {"pk": {"S": "a"}}, "UpdateExpression": "SET embedding[3] = :n", "ExpressionAttributeValues": {":n": {"N": "1"}}}');
SELECT vx_ddb('GetItem', '{"TableName": "vxt", "Key": {"pk": {"S": "x"}}}') AS no_x;

-- ---------- SearchVectors: scores ----------
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 10)));
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'euclidean', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 10)));
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'dot', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 3)));
-- projections: the index's (the vector left out), a ProjectionExpression (the index's f32 copy)
SELECT vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
SELECT vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'euclidean', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
SELECT vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'dot', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "f32"}, "embedding": {"L": [{"N": "0.1"}, {"N": "16777217"}, {"N": "1.000000059604644775390625"}]}}}');
SELECT vx_ddb('GetItem', '{"TableName": "vxt", "Key": {"pk": {"S": "f32"}}}');
-- (b, at 0 too in f32, ranks first: it came first)
SELECT vx_ddb('SearchVectors', '{"TableName": "vxt", "IndexName": "cosine", "TopK": 2, "ProjectionExpression": "pk, #e",
  "ExpressionAttributeNames": {"#e": "embedding"},
  "SearchVector": [{"N": "0.1"}, {"N": "16777217"}, {"N": "1.000000059604644775390625"}], "ReturnConsumedCapacity": "TOTAL"}');
SELECT vx_ddb('DeleteItem', '{"TableName": "vxt", "Key": {"pk": {"S": "f32"}}, "ReturnConsumedCapacity": "INDEXES"}');
-- SearchConditionExpression: the HASH element required, equality only, SearchSchema attributes only
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 10,
  'SearchConditionExpression', 'tenant = :t', 'ExpressionAttributeValues', '{":t": {"S": "t1"}}'::jsonb)));
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 10,
  'SearchConditionExpression', ':t = tenant AND #c = :c', 'ExpressionAttributeNames', '{"#c": "category"}'::jsonb,
  'ExpressionAttributeValues', '{":t": {"S": "t1"}, ":c": {"S": "c1"}}'::jsonb)));
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 10,
  'SearchConditionExpression', 'tenant = :t', 'ExpressionAttributeValues', '{":t": {"S": "nobody"}}'::jsonb)));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1,
  'SearchConditionExpression', 'tenant = :t AND category < :c', 'ExpressionAttributeValues', '{":t": {"S": "t1"}, ":c": {"S": "c9"}}'::jsonb));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1,
  'SearchConditionExpression', 'tenant = :t', 'ExpressionAttributeValues', '{":t": {"S": "t1"}}'::jsonb));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'schema', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1,
  'SearchConditionExpression', 'tenant = :t', 'ExpressionAttributeValues', '{":t": {"S": "t1"}, ":u": {"S": "t1"}}'::jsonb));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 101));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 0));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'cosine', 'SearchVector', vx_vec(1, 0), 'TopK', 1));
SELECT vx_ddb_err('SearchVectors', '{"TableName": "vxt", "IndexName": "cosine", "SearchVector": [{"L": [{"N": "1"}]}], "TopK": 1}');
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'nope', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vx_none', 'IndexName', 'nope', 'SearchVector', vx_vec(1, 0, 0), 'TopK', 1));
-- a vector index is read by SearchVectors only
SELECT vx_ddb_err('ExecuteStatement', '{"Statement": "SELECT * FROM \"vxt\".\"cosine\""}');
SELECT vx_ddb_err('Scan', '{"TableName": "vxt", "IndexName": "cosine"}');
SELECT vx_ddb_err('Query', '{"TableName": "vxt", "IndexName": "schema", "KeyConditionExpression": "tenant = :t", "ExpressionAttributeValues": {":t": {"S": "t1"}}}');
-- the SQL function
SELECT item, score FROM hroe.search_vectors('vxt', 'schema', '{1,0,0}', 2, '{"tenant": {"S": "t1"}}');
SELECT item::jsonb -> 'pk' ->> 'S' AS pk, score FROM hroe.search_vectors('vxt', 'dot', '{0,1,0}', 2);
SELECT * FROM hroe.search_vectors('vxt', 'schema', '{1,0,0}', 2);

-- ---------- UpdateTable: one online action, backfill, delete ----------
-- (an index UpdateTable creates on a table holding items is built by a
-- background worker; its delay held long here, so each status is seen)
ALTER SYSTEM SET hroe.vector_index_build_delay = '1h';
SELECT pg_reload_conf();
-- the index's status, once it is p_status (or after 60 s, what it is)
CREATE FUNCTION vx_wait(p_index text, p_status text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	v text;
BEGIN
	FOR i IN 1 .. 1200 LOOP
		SELECT status INTO v FROM hroe.vector_indexes WHERE table_name = 'vxt' AND index_name = p_index;
		EXIT WHEN v IS NOT DISTINCT FROM p_status;
		PERFORM pg_sleep(0.05);
	END LOOP;
	RETURN coalesce(v, 'none');
END
$$;
CREATE FUNCTION vx_described(p_index text) RETURNS jsonb LANGUAGE sql AS $$
	SELECT jsonb_build_object('TableStatus', d -> 'Table' -> 'TableStatus') || coalesce(
		(SELECT jsonb_build_object('IndexStatus', x -> 'IndexStatus', 'Backfilling', x -> 'Backfilling', 'ItemCount', x -> 'ItemCount')
		 FROM jsonb_array_elements(d -> 'Table' -> 'VectorIndexes') x WHERE x ->> 'IndexName' = p_index), '{"index": "none"}')
	FROM vx_ddb('DescribeTable', '{"TableName": "vxt"}') d
$$;
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "old-bad"}, "v2": {"L": [{"N": "1"}]}}}');
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "old-good"}, "v2": {"L": [{"N": "1"}, {"N": "2"}]}}}');
SELECT vx_ddb_err('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [
  {"Create": {"IndexName": "v2a", "VectorAttribute": {"AttributeName": "v2"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}},
  {"Create": {"IndexName": "v2b", "VectorAttribute": {"AttributeName": "v2"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}');
SELECT jsonb_pretty(vx_ddb('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [{"Delete": {"IndexName": "dot"}}]}') -> 'TableDescription' -> 'TableStatus');
-- a request rolled back leaves no index; before it commits the index is
-- CREATING, not yet searchable
BEGIN;
SELECT vx_ddb('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [
  {"Create": {"IndexName": "v2a", "VectorAttribute": {"AttributeName": "v2"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}')
  -> 'TableDescription' -> 'VectorIndexes' -> 3;
SELECT vx_described('v2a');
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'v2a', 'SearchVector', vx_vec(0, 0), 'TopK', 5));
ROLLBACK;
SELECT vx_described('v2a');
-- committed: the worker marks it backfilling (and waits its delay)
SELECT vx_ddb('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [
  {"Create": {"IndexName": "v2a", "VectorAttribute": {"AttributeName": "v2"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}')
  -> 'TableDescription' -> 'VectorIndexes' -> 3;
SELECT vx_wait('v2a', 'BACKFILLING');
SELECT vx_described('v2a');
SELECT vx_ddb_err('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'v2a', 'SearchVector', vx_vec(0, 0), 'TopK', 5));
SELECT * FROM hroe.search_vectors('vxt', 'v2a', '{0,0}', 5);
-- one online index action at a time: none while it is built
SELECT vx_ddb_err('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [
  {"Create": {"IndexName": "v2b", "VectorAttribute": {"AttributeName": "v2"}, "Dimensions": 2, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}');
SELECT vx_ddb_err('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [{"Delete": {"IndexName": "v2a"}}]}');
SELECT vx_ddb_err('UpdateTable', '{"TableName": "vxt", "AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "byg", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}}]}');
SELECT hroe.delete_vector_index('vxt', 'v2a');
-- writes during the backfill: each one indexed (an invalid vector left
-- out, as the backfill leaves out the items stored before)
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "mid-good"}, "v2": {"L": [{"N": "3"}, {"N": "4"}]}}}');
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "mid-bad"}, "v2": {"L": [{"S": "x"}, {"N": "4"}]}}}');
SELECT vx_ddb('UpdateItem', '{"TableName": "vxt", "Key": {"pk": {"S": "old-good"}}, "UpdateExpression": "SET v2 = :v", "ExpressionAttributeValues": {":v": {"L": [{"N": "0"}, {"N": "1"}]}}}');
-- the delay over: built, ACTIVE, searchable
ALTER SYSTEM RESET hroe.vector_index_build_delay;
SELECT pg_reload_conf();
SELECT vx_wait('v2a', 'ACTIVE');
SELECT vx_described('v2a');
SELECT vx_hits(vx_ddb('SearchVectors', jsonb_build_object('TableName', 'vxt', 'IndexName', 'v2a', 'SearchVector', vx_vec(0, 0), 'TopK', 5)));
SELECT vx_ddb_err('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "new-bad"}, "v2": {"L": [{"N": "1"}]}}}');
SELECT jsonb_agg(x ->> 'IndexName') FROM jsonb_array_elements(vx_ddb('DescribeTable', '{"TableName": "vxt"}') -> 'Table' -> 'VectorIndexes') x;
SELECT vx_ddb('UpdateTable', '{"TableName": "vxt", "VectorIndexUpdates": [{"Delete": {"IndexName": "v2a"}}]}') -> 'TableDescription' -> 'VectorIndexes' -> 3;
SELECT vx_ddb('PutItem', '{"TableName": "vxt", "Item": {"pk": {"S": "new-bad"}, "v2": {"L": [{"N": "1"}]}}}');
SELECT attname FROM pg_attribute WHERE attrelid = (SELECT relid FROM hroe.tables WHERE table_name = 'vxt') AND attnum > 0 AND NOT attisdropped ORDER BY attnum;

-- ---------- the oracle: random vectors, every distance, filters, writes ----------
SELECT setseed(0.33);
SELECT vx_ddb('CreateTable', '{"TableName": "vxo", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"},
                           {"AttributeName": "n", "AttributeType": "N"}],
  "VectorIndexes": [
    {"IndexName": "cos", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 13, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "euc", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 13, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "dot", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 13, "DistanceFunction": "DOT_PRODUCT", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "cos_t", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 13, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"},
     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}, {"AttributeName": "n", "SearchSchemaElementType": "INLINE_FILTER"}]}]}')
  -> 'TableDescription' ->> 'TableStatus';
-- what the test itself believes is stored: each item's vector (rounded to f32), tenant, n
CREATE TEMP TABLE truth (pk text PRIMARY KEY, v real[], tenant text, n int);
CREATE FUNCTION vx_put_random(p_pk text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	v real[] := (SELECT array_agg((random() * 2 - 1)::real) FROM generate_series(1, 13));
	t text := 't' || floor(random() * 3)::int;
	n int := floor(random() * 2)::int;
BEGIN
	PERFORM hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'vxo', 'Item', jsonb_build_object(
		'pk', jsonb_build_object('S', p_pk), 'tenant', jsonb_build_object('S', t), 'n', jsonb_build_object('N', n::text),
		'v', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', x::text) ORDER BY o) FROM unnest(v) WITH ORDINALITY u(x, o))))));
	INSERT INTO truth VALUES (p_pk, v, t, n) ON CONFLICT (pk) DO UPDATE SET v = excluded.v, tenant = excluded.tenant, n = excluded.n;
END
$$;
-- the oracle's score of a against b, in double precision, written independently of hroe's kernels
CREATE FUNCTION vx_oracle_score(p_fn text, a real[], b real[]) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE p_fn
		WHEN 'COSINE' THEN 1 - sum(x::float8 * y) / (sqrt(sum(x::float8 * x)) * sqrt(sum(y::float8 * y)))
		WHEN 'EUCLIDEAN' THEN sqrt(sum((x::float8 - y) ^ 2))
		ELSE sum(x::float8 * y) END
	FROM unnest(a, b) u(x, y)
$$;
-- disagreements between hroe and the oracle for one query: each rank's pk and score
CREATE FUNCTION vx_disagreements(p_index text, p_fn text, q real[], k int, p_tenant text DEFAULT NULL, p_n int DEFAULT NULL)
RETURNS bigint LANGUAGE sql AS $$
	WITH got AS (
		SELECT row_number() OVER () AS r, item::jsonb -> 'pk' ->> 'S' AS pk, score
		FROM hroe.search_vectors('vxo', p_index, q, k,
			CASE WHEN p_tenant IS NOT NULL THEN jsonb_strip_nulls(jsonb_build_object('tenant', jsonb_build_object('S', p_tenant),
				'n', CASE WHEN p_n IS NOT NULL THEN jsonb_build_object('N', p_n::text) END))::text::hroe.item END)),
	want AS (
		SELECT row_number() OVER (ORDER BY CASE WHEN p_fn = 'DOT_PRODUCT' THEN -s ELSE s END) AS r, pk, s
		FROM (SELECT pk, vx_oracle_score(p_fn, q, v) s FROM truth
			  WHERE (p_tenant IS NULL OR tenant = p_tenant) AND (p_n IS NULL OR n = p_n)) o
		ORDER BY CASE WHEN p_fn = 'DOT_PRODUCT' THEN -s ELSE s END LIMIT k)
	SELECT count(*) FROM got FULL JOIN want USING (r)
	WHERE got.pk IS DISTINCT FROM want.pk OR abs(got.score - want.s) > 1e-5
$$;
CREATE FUNCTION vx_check_all(p_label text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	bad bigint := 0;
	q real[];
BEGIN
	FOR i IN 1 .. 8 LOOP
		q := (SELECT array_agg((random() * 2 - 1)::real) FROM generate_series(1, 13));
		bad := bad + vx_disagreements('cos', 'COSINE', q, 10) + vx_disagreements('euc', 'EUCLIDEAN', q, 10)
			   + vx_disagreements('dot', 'DOT_PRODUCT', q, 7) + vx_disagreements('cos_t', 'COSINE', q, 5, 't1')
			   + vx_disagreements('cos_t', 'COSINE', q, 100, 't' || (i % 3), i % 2);
	END LOOP;
	RETURN format('%s: %s disagreements, %s items', p_label, bad, (SELECT count(*) FROM truth));
END
$$;
SELECT count(*) AS writes FROM (SELECT vx_put_random('i' || i) FROM generate_series(1, 400) i) s;
SELECT vx_check_all('puts');
-- overwrites, updates of the vector and of the filters, removals, deletes
SELECT count(*) AS writes FROM (SELECT vx_put_random('i' || i) FROM generate_series(1, 400, 7) i) s;
SELECT count(*) AS writes FROM (SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'vxo', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'i' || i)),
	'UpdateExpression', 'SET tenant = :t, v[2] = :x', 'ExpressionAttributeValues', '{":t": {"S": "t2"}, ":x": {"N": "0.5"}}'::jsonb))
FROM generate_series(3, 400, 11) i) s;

UPDATE truth SET tenant = 't2', v[3] = 0.5 WHERE pk IN (SELECT 'i' || i FROM generate_series(3, 400, 11) i);
SELECT count(*) AS writes FROM (SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'vxo', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'i' || i)),
	'UpdateExpression', 'REMOVE v')) FROM generate_series(5, 400, 13) i) s;

DELETE FROM truth WHERE pk IN (SELECT 'i' || i FROM generate_series(5, 400, 13) i);
SELECT count(*) AS writes FROM (SELECT hroe.dynamodb('DeleteItem', jsonb_build_object('TableName', 'vxo', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'i' || i))))
FROM generate_series(2, 400, 9) i) s;

DELETE FROM truth WHERE pk IN (SELECT 'i' || i FROM generate_series(2, 400, 9) i);
SELECT vx_check_all('writes');
-- a batch and a transaction
SELECT hroe.dynamodb('BatchWriteItem', jsonb_build_object('RequestItems', jsonb_build_object('vxo', jsonb_build_array(
	'{"DeleteRequest": {"Key": {"pk": {"S": "i1"}}}}'::jsonb,
	'{"PutRequest": {"Item": {"pk": {"S": "batch"}, "tenant": {"S": "t1"}, "n": {"N": "1"},
	  "v": {"L": [{"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}, {"N": "1"}]}}}}'::jsonb))))
	-> 'UnprocessedItems';
DELETE FROM truth WHERE pk = 'i1';
INSERT INTO truth VALUES ('batch', array_fill(1::real, ARRAY[13]), 't1', 1);
SELECT vx_ddb_err('TransactWriteItems', '{"TransactItems": [
	{"Put": {"TableName": "vxo", "Item": {"pk": {"S": "tx"}, "v": {"L": [{"N": "1"}]}}}},
	{"Delete": {"TableName": "vxo", "Key": {"pk": {"S": "i4"}}}}]}');
SELECT hroe.dynamodb('TransactWriteItems', '{"TransactItems": [
	{"Put": {"TableName": "vxo", "Item": {"pk": {"S": "tx"}, "tenant": {"S": "t0"}, "n": {"N": "0"},
	  "v": {"L": [{"N": "-1"}, {"N": "1"}, {"N": "-1"}, {"N": "1"}, {"N": "-1"}, {"N": "1"}, {"N": "-1"}, {"N": "1"}, {"N": "-1"}, {"N": "1"}, {"N": "-1"}, {"N": "1"}, {"N": "-1"}]}}}},
	{"Delete": {"TableName": "vxo", "Key": {"pk": {"S": "i4"}}}}]}');
DELETE FROM truth WHERE pk = 'i4';
INSERT INTO truth VALUES ('tx', '{-1,1,-1,1,-1,1,-1,1,-1,1,-1,1,-1}', 't0', 0);
SELECT vx_check_all('batch and transaction');
-- PartiQL writes
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "UPDATE \"vxo\" SET tenant = ''t0'' WHERE pk = ''i6''"}');
UPDATE truth SET tenant = 't0' WHERE pk = 'i6';
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "DELETE FROM \"vxo\" WHERE pk = ''i7''"}');
DELETE FROM truth WHERE pk = 'i7';
SELECT vx_check_all('PartiQL');
-- a write rolled back leaves the index as it was
BEGIN;
SELECT count(*) AS writes FROM (SELECT vx_put_random('i' || i) FROM generate_series(1, 400, 3) i) s;
ROLLBACK;
SELECT vx_check_all('rolled back');

-- ---------- IVF lists: exact where promised ----------
-- trained on the oracle's table: with every list probed, or the setting
-- asking for exact, or a HASH partition under hroe.vector_exact_rows, the
-- answers are the oracle's
SELECT hroe.vector_index_build('vxo', x, 8, 1) FROM unnest(ARRAY['cos', 'euc', 'dot', 'cos_t']) x;
SELECT index_name, centroid_set IS NOT NULL AS trained, list_column IS NOT NULL AS listed, trained_items
FROM hroe.vector_indexes WHERE table_name = 'vxo' ORDER BY index_name;
SELECT index_name, cardinality(centroids) / dimensions AS lists FROM hroe.vector_centroids WHERE table_name = 'vxo' ORDER BY index_name;
SET hroe.vector_search_exact = on;
SELECT vx_check_all('trained, hroe.vector_search_exact');
RESET hroe.vector_search_exact;
SET hroe.vector_probes = 8;
SET hroe.vector_exact_rows = 0;
SELECT vx_check_all('trained, every list probed');
RESET hroe.vector_exact_rows;
-- every write path keeps the lists: the writes above again, on the trained index
SELECT count(*) AS writes FROM (SELECT vx_put_random('j' || i) FROM generate_series(1, 100) i) s;
SELECT count(*) AS writes FROM (SELECT hroe.dynamodb('UpdateItem', jsonb_build_object('TableName', 'vxo', 'Key', jsonb_build_object('pk', jsonb_build_object('S', 'j' || i)),
	'UpdateExpression', 'SET v[0] = :x', 'ExpressionAttributeValues', '{":x": {"N": "-0.75"}}'::jsonb))
FROM generate_series(1, 100, 3) i) s;
UPDATE truth SET v[1] = -0.75 WHERE pk IN (SELECT 'j' || i FROM generate_series(1, 100, 3) i);
SELECT hroe.dynamodb('ExecuteStatement', '{"Statement": "DELETE FROM \"vxo\" WHERE pk = ''j2''"}');
DELETE FROM truth WHERE pk = 'j2';
SELECT vx_check_all('trained, every list probed, after writes');
RESET hroe.vector_probes;
-- a HASH partition of at most hroe.vector_exact_rows vectors: exact, whatever the probes
SET hroe.vector_probes = 1;
SELECT sum(vx_disagreements('cos_t', 'COSINE', (SELECT array_agg((random() * 2 - 1)::real) FROM generate_series(1, 13)), 10, 't' || (i % 3))) AS disagreements
FROM generate_series(1, 6) i;
RESET hroe.vector_probes;

-- ---------- IVF lists: recall of the approximate search ----------
-- 2,400 vectors of 16 dimensions around 24 centroids; 32 lists, 4 probed
-- (an eighth): each search compares about an eighth of the vectors, so a
-- list assignment unrelated to the vectors (random, stale) would find about
-- an eighth of the true neighbours
SELECT vx_ddb('CreateTable', '{"TableName": "vxa", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "tenant", "AttributeType": "S"}],
  "VectorIndexes": [
    {"IndexName": "cos", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 16, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "euc", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 16, "DistanceFunction": "EUCLIDEAN", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "dot", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 16, "DistanceFunction": "DOT_PRODUCT", "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "cos_t", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 16, "DistanceFunction": "COSINE", "Projection": {"ProjectionType": "KEYS_ONLY"},
     "SearchSchema": [{"AttributeName": "tenant", "SearchSchemaElementType": "HASH"}]}]}')
  -> 'TableDescription' ->> 'TableStatus';
CREATE TEMP TABLE centroid AS SELECT c, array_agg((random() * 2 - 1)::real ORDER BY i) AS v
FROM generate_series(0, 23) c, generate_series(1, 16) i GROUP BY c;
CREATE FUNCTION vx_noisy(p real[], p_noise float8) RETURNS real[] LANGUAGE sql VOLATILE AS $$
	SELECT array_agg((x + p_noise * (random() + random() + random() - 1.5))::real ORDER BY o) FROM unnest(p) WITH ORDINALITY u(x, o)
$$;
CREATE TEMP TABLE truth_a (pk text PRIMARY KEY, v real[], tenant text);
CREATE FUNCTION vx_put_a(p_pk text, v real[], t text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM hroe.dynamodb('PutItem', jsonb_build_object('TableName', 'vxa', 'Item', jsonb_build_object(
		'pk', jsonb_build_object('S', p_pk), 'tenant', jsonb_build_object('S', t),
		'v', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('N', x::text) ORDER BY o) FROM unnest(v) WITH ORDINALITY u(x, o))))));
	INSERT INTO truth_a VALUES (p_pk, v, t) ON CONFLICT (pk) DO UPDATE SET v = excluded.v, tenant = excluded.tenant;
END
$$;
SELECT count(*) AS writes FROM (SELECT vx_put_a('a' || g, vx_noisy((SELECT v FROM centroid WHERE c = g % 24), 0.3), 't' || (g % 2))
	FROM generate_series(1, 2400) g) s;
-- below p_min_items the index stays exact
SELECT hroe.vector_index_build('vxa', 'cos', 32, 5000);
SELECT hroe.vector_index_build('vxa', x, 32, 1) FROM unnest(ARRAY['cos', 'euc', 'dot', 'cos_t']) x;
-- the mean share of the oracle's k nearest that hroe found, over 24 queries near the centroids
CREATE FUNCTION vx_recall(p_index text, p_fn text, k int, p_tenant text DEFAULT NULL) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE
	total float8 := 0;
	q real[];
BEGIN
	FOR i IN 0 .. 23 LOOP
		q := vx_noisy((SELECT v FROM centroid WHERE c = i), 0.3);
		total := total + (
			SELECT count(*) FROM hroe.search_vectors('vxa', p_index, q, k,
				CASE WHEN p_tenant IS NOT NULL THEN ('{"tenant": {"S": "' || p_tenant || '"}}')::hroe.item END) h
			WHERE h.item::jsonb -> 'pk' ->> 'S' IN (
				SELECT pk FROM truth_a WHERE p_tenant IS NULL OR tenant = p_tenant
				ORDER BY CASE WHEN p_fn = 'DOT_PRODUCT' THEN -vx_oracle_score(p_fn, q, v) ELSE vx_oracle_score(p_fn, q, v) END
				LIMIT k))::float8 / k;
	END LOOP;
	RETURN round((total / 24)::numeric, 2);
END
$$;
SET hroe.vector_probes = 4;
SET hroe.vector_exact_rows = 0;
SELECT vx_recall('cos', 'COSINE', 10) >= 0.9 AS cos_recall, vx_recall('euc', 'EUCLIDEAN', 10) >= 0.9 AS euc_recall,
	vx_recall('dot', 'DOT_PRODUCT', 10) >= 0.9 AS dot_recall, vx_recall('cos_t', 'COSINE', 10, 't1') >= 0.9 AS hash_recall;
-- writes after the training: items moved next to a query are found there
SELECT count(*) AS writes FROM (SELECT vx_put_a('a' || g, vx_noisy((SELECT v FROM centroid WHERE c = 5), 0.05), 't1')
	FROM generate_series(1, 2400, 97) g) s;
SELECT count(*) AS found FROM hroe.search_vectors('vxa', 'euc', (SELECT v FROM centroid WHERE c = 5), 25) h
WHERE h.item::jsonb -> 'pk' ->> 'S' IN (SELECT 'a' || g FROM generate_series(1, 2400, 97) g);
SELECT vx_recall('cos', 'COSINE', 10) >= 0.9 AS cos_recall_after_writes;
-- fewer matches than TopK in the probed lists: more lists, until TopK
SELECT count(*) AS topk FROM hroe.search_vectors('vxa', 'cos', (SELECT v FROM centroid WHERE c = 1), 100);
RESET hroe.vector_probes;
RESET hroe.vector_exact_rows;
-- re-training; the maintenance (nothing grew: nothing to do); a table below the threshold: exact again
SELECT hroe.vector_index_build('vxa', 'cos', 16, 1);
SELECT count(*) AS centroid_sets FROM hroe.vector_centroids WHERE table_name = 'vxa' AND index_name = 'cos';
SELECT hroe.vector_indexes_maintain(100) AS rebuilt;
SELECT hroe.vector_index_build('vxa', 'euc', NULL, 1000000);
SELECT index_name, centroid_set IS NOT NULL AS trained FROM hroe.vector_indexes WHERE table_name = 'vxa' ORDER BY index_name;
-- the maintenance trains it again: untrained, and more vectors than p_min_items
SELECT hroe.vector_indexes_maintain(1000) AS rebuilt;
SELECT index_name, centroid_set IS NOT NULL AS trained FROM hroe.vector_indexes WHERE table_name = 'vxa' ORDER BY index_name;
-- a role with no privilege on the table sees none of its centroids (they are means of its vectors)
CREATE ROLE vx_stranger;
GRANT USAGE ON SCHEMA hroe TO vx_stranger;
SET ROLE vx_stranger;
SELECT count(*) AS centroid_sets_seen_by_stranger FROM hroe.vector_centroids WHERE table_name = 'vxa';
RESET ROLE;
SELECT count(*) > 0 AS centroid_sets_seen_by_owner FROM hroe.vector_centroids WHERE table_name = 'vxa';
REVOKE USAGE ON SCHEMA hroe FROM vx_stranger;
DROP ROLE vx_stranger;
-- UpdateTable deletes a trained index with its list column and centroids
SELECT vx_ddb('UpdateTable', '{"TableName": "vxa", "VectorIndexUpdates": [{"Delete": {"IndexName": "cos"}}]}') -> 'TableDescription' ->> 'TableName';
SELECT count(*) AS centroid_sets FROM hroe.vector_centroids WHERE table_name = 'vxa' AND index_name = 'cos';
SELECT count(*) AS list_columns FROM pg_attribute WHERE attrelid = (SELECT relid FROM hroe.tables WHERE table_name = 'vxa') AND attname IN ('cos_vector', 'cos_list') AND NOT attisdropped;
SELECT vx_ddb('DeleteTable', '{"TableName": "vxa"}') -> 'TableDescription' -> 'TableStatus';
SELECT count(*) AS centroid_sets FROM hroe.vector_centroids WHERE table_name = 'vxa';
DROP FUNCTION vx_recall(text, text, int, text), vx_put_a(text, real[], text), vx_noisy(real[], float8);

-- ---------- DeleteTable ----------
SELECT vx_ddb('DeleteTable', '{"TableName": "vxt"}') -> 'TableDescription' -> 'TableStatus';
SELECT count(*) FROM hroe.vector_indexes WHERE table_name = 'vxt';
SELECT vx_ddb('DeleteTable', '{"TableName": "vxo"}') -> 'TableDescription' -> 'TableStatus';
DROP FUNCTION vx_check_all(text), vx_disagreements(text, text, real[], int, text, int), vx_oracle_score(text, real[], real[]),
	vx_put_random(text), vx_vec(float8[]), vx_hits(jsonb), vx_ddb_err(text, jsonb), vx_ddb(text, jsonb);
