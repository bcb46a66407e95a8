-- PartiQL reads of a secondary index, FROM "table"."index", as DynamoDB runs
-- them (doc/partiql.md): the index's rows and projection, a GSI refusing an
-- attribute it does not project where an LSI fetches it from the table (on
-- the table's capacity arm), a keyed read refusing a filter on an attribute
-- the index does not project, DynamoDB's texts, paging bound to the index,
-- and the statements that may not name an index.
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pqi", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"},
    {"AttributeName": "gsiPk", "AttributeType": "S"}, {"AttributeName": "gsiPk2", "AttributeType": "S"},
    {"AttributeName": "lsiSk2", "AttributeType": "S"}, {"AttributeName": "lsiSk3", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [
    {"IndexName": "gsi-all", "KeySchema": [{"AttributeName": "gsiPk", "KeyType": "HASH"}], "Projection": {"ProjectionType": "ALL"}},
    {"IndexName": "gsi-inc", "KeySchema": [{"AttributeName": "gsiPk2", "KeyType": "HASH"}],
     "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["projattr"]}},
    {"IndexName": "gsi-keys", "KeySchema": [{"AttributeName": "gsiPk2", "KeyType": "HASH"}], "Projection": {"ProjectionType": "KEYS_ONLY"}}],
  "LocalSecondaryIndexes": [
    {"IndexName": "lsi-keys", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "lsiSk2", "KeyType": "RANGE"}],
     "Projection": {"ProjectionType": "KEYS_ONLY"}},
    {"IndexName": "lsi-inc", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "lsiSk3", "KeyType": "RANGE"}],
     "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["projattr"]}}]}') -> 'TableDescription' -> 'TableName';

CREATE FUNCTION pqi(stmt text, extra jsonb DEFAULT '{}') RETURNS jsonb
LANGUAGE sql AS $$ SELECT hroe.dynamodb('ExecuteStatement', jsonb_build_object('Statement', stmt) || extra) $$;
-- the sort keys of a response's items, sorted
CREATE FUNCTION sks(res jsonb) RETURNS text
LANGUAGE sql AS $$ SELECT coalesce(string_agg(i -> 'sk' ->> 'S', ',' ORDER BY i -> 'sk' ->> 'S'), '') || ' '
  || coalesce((SELECT string_agg(DISTINCT k, ',' ORDER BY k) FROM jsonb_array_elements(res -> 'Items') j, jsonb_object_keys(j) k), '')
  FROM jsonb_array_elements(res -> 'Items') i $$;

-- s3 holds no index attribute, s5 is on a partition of its own; nonproj is
-- projected by no index but the table
SELECT pqi($$INSERT INTO pqi VALUE {'pk': 'p', 'sk': 's1', 'gsiPk': 'x', 'gsiPk2': 'y', 'lsiSk2': 'k1', 'lsiSk3': 'm1', 'projattr': 'proj1', 'nonproj': 'np1'}$$);
SELECT pqi($$INSERT INTO pqi VALUE {'pk': 'p', 'sk': 's2', 'gsiPk': 'z', 'gsiPk2': 'y', 'lsiSk2': 'k2', 'lsiSk3': 'm2', 'projattr': 'proj2', 'nonproj': 'np2'}$$);
SELECT pqi($$INSERT INTO pqi VALUE {'pk': 'p', 'sk': 's3', 'nonproj': 'np3'}$$);
SELECT pqi($$INSERT INTO pqi VALUE {'pk': 'p', 'sk': 's4', 'gsiPk': 'x', 'gsiPk2': 'y', 'lsiSk2': 'k4', 'lsiSk3': 'm4', 'projattr': 'proj4', 'nonproj': 'np4'}$$);
SELECT pqi($$INSERT INTO pqi VALUE {'pk': 'q', 'sk': 's5', 'gsiPk2': 'y2', 'projattr': 'proj5', 'nonproj': 'np5'}$$);

-- the index's rows, its projection for SELECT * (items' sort keys, then the
-- attributes they came back with)
SELECT sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-all" WHERE gsiPk = 'x'$$));
SELECT sks(pqi($$SELECT * FROM "pqi"."gsi-keys" WHERE gsiPk2 = 'y'$$));
SELECT sks(pqi($$SELECT * FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y'$$));
SELECT sks(pqi($$SELECT * FROM "pqi"."lsi-keys" WHERE pk = 'p'$$));

-- capacity: a keyed index read is the index's, the table's arm 0
SELECT pqi($$SELECT * FROM "pqi"."gsi-keys" WHERE gsiPk2 = 'y'$$, '{"ReturnConsumedCapacity": "INDEXES"}') -> 'ConsumedCapacity';
SELECT pqi($$SELECT lsiSk2 FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"ReturnConsumedCapacity": "INDEXES"}') -> 'ConsumedCapacity';
-- an LSI fetches an attribute it does not project from the table: one read
-- of the table per item walked, on the table's arm; fewer with Limit,
-- doubled with ConsistentRead
SELECT pqi($$SELECT nonproj FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"ReturnConsumedCapacity": "INDEXES"}');
SELECT pqi($$SELECT nonproj FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"ReturnConsumedCapacity": "INDEXES", "Limit": 1}') -> 'ConsumedCapacity';
SELECT pqi($$SELECT nonproj FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"ReturnConsumedCapacity": "INDEXES", "ConsistentRead": true}') -> 'ConsumedCapacity';
-- ... walked, not kept: a filter keeping nothing costs the same
SELECT pqi($$SELECT nonproj FROM "pqi"."lsi-inc" WHERE pk = 'p' AND projattr = 'none'$$, '{"ReturnConsumedCapacity": "INDEXES"}');
-- the JSON API's Query alike: a ProjectionExpression within the LSI's
-- attributes reads the index only, one beyond them fetches
SELECT hroe.dynamodb('Query', '{"TableName": "pqi", "IndexName": "lsi-keys", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "p"}}, "ProjectionExpression": "sk, lsiSk2", "ReturnConsumedCapacity": "INDEXES"}') -> 'ConsumedCapacity';
SELECT hroe.dynamodb('Query', '{"TableName": "pqi", "IndexName": "lsi-keys", "KeyConditionExpression": "pk = :p",
  "ExpressionAttributeValues": {":p": {"S": "p"}}, "ProjectionExpression": "sk, nonproj", "ReturnConsumedCapacity": "INDEXES"}') -> 'ConsumedCapacity';

-- a GSI refuses an attribute it does not project (no fetch)
SELECT pqi($$SELECT nonproj FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y'$$);
SELECT pqi($$SELECT pk, m.k, nonproj, other FROM "pqi"."gsi-keys"$$);

-- a keyed read (the index's partition key = or IN at the top) refuses a
-- filter naming an attribute the index does not project, GSI and LSI alike
SELECT pqi($$SELECT pk FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y' AND nonproj = 'np1'$$);
SELECT pqi($$SELECT pk FROM "pqi"."lsi-keys" WHERE pk = 'p' AND nonproj = 'np1'$$);
SELECT pqi($$SELECT pk FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y' AND nonproj IS MISSING$$);
SELECT pqi($$SELECT pk FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y' AND begins_with(nonproj, 'np') AND NOT other = 1$$);
SELECT pqi($$SELECT pk FROM "pqi"."gsi-inc" WHERE gsiPk2 IN ['y', 'z'] AND size(nonproj) > 1$$);
SELECT pqi($$SELECT pk FROM "pqi"."lsi-keys" WHERE pk = 'p' AND lsiSk2 BETWEEN 'k1' AND 'k4' AND nonproj = 'np1'$$);
-- ... a projected one is a filter as any
SELECT sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y' AND projattr = 'proj1'$$));
-- unkeyed, a Scan of the index: the attribute is missing from its rows
SELECT sks(pqi($$SELECT pk FROM "pqi"."gsi-inc" WHERE nonproj = 'np1'$$));
SELECT sks(pqi($$SELECT pk FROM "pqi"."lsi-keys" WHERE nonproj = 'np1'$$));
SELECT sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-keys" WHERE NOT nonproj = 'np1'$$));
SELECT sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-inc" WHERE (gsiPk2 = 'y' AND nonproj = 'np1') OR (gsiPk2 = 'y2')$$));

-- DynamoDB's texts: an unknown index (no name appended), the table's own
-- name, three components, an empty one, ConsistentRead on a GSI (an LSI's is
-- accepted)
SELECT pqi($$SELECT * FROM "pqi"."no-such-index" WHERE pk = 'p'$$);
SELECT pqi($$SELECT * FROM "pqi"."pqi" WHERE pk = 'p'$$);
SELECT pqi($$SELECT * FROM "pqi"."gsi-all"."extra" WHERE pk = 'p'$$);
SELECT pqi($$SELECT * FROM "pqi"."" WHERE pk = 'p'$$);
SELECT pqi($$SELECT * FROM "" WHERE pk = 'p'$$);
SELECT pqi($$SELECT * FROM "pqi"."gsi-all" WHERE gsiPk = 'x'$$, '{"ConsistentRead": true}');
SELECT sks(pqi($$SELECT * FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"ConsistentRead": true}'));

-- paging: a NextToken goes on with the other row, and only on its index
SELECT sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-all" WHERE gsiPk = 'x'$$, '{"Limit": 1}')) AS first,
       sks(pqi($$SELECT pk, sk FROM "pqi"."gsi-all" WHERE gsiPk = 'x'$$,
               jsonb_build_object('NextToken', pqi($$SELECT pk, sk FROM "pqi"."gsi-all" WHERE gsiPk = 'x'$$, '{"Limit": 1}') -> 'NextToken'))) AS rest;
SELECT pqi($$SELECT pk, sk FROM "pqi"."gsi-keys" WHERE gsiPk2 = 'y'$$,
           jsonb_build_object('NextToken', pqi($$SELECT pk, sk FROM "pqi"."gsi-inc" WHERE gsiPk2 = 'y'$$, '{"Limit": 1}') -> 'NextToken'));
SELECT pqi($$SELECT pk, sk FROM "pqi" WHERE pk = 'p'$$,
           jsonb_build_object('NextToken', pqi($$SELECT pk, sk FROM "pqi"."lsi-keys" WHERE pk = 'p'$$, '{"Limit": 1}') -> 'NextToken'));

-- a batch's SELECT names one item by the table's key, a transaction's reads
-- no index
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "SELECT * FROM \"pqi\".\"gsi-all\" WHERE gsiPk = 'x'"},
  {"Statement": "SELECT * FROM pqi WHERE pk = 'p'"},
  {"Statement": "SELECT pk, sk FROM pqi WHERE pk = 'p' AND sk = 's1'"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "SELECT * FROM pqi WHERE pk = 'p' AND sk = 's1'"},
  {"Statement": "SELECT * FROM \"pqi\".\"gsi-all\" WHERE gsiPk = 'x'"}]}$$);

-- writes: INSERT has no qualifier in its grammar; UPDATE and DELETE refuse one
SELECT pqi($$INSERT INTO "pqi"."gsi-all" VALUE {'pk': 'w1', 'sk': 'w1'}$$);
SELECT pqi($$INSERT INTO "pqi"."no-such-index" VALUE {'pk': 'w2', 'sk': 'w2'}$$);
SELECT pqi($$UPDATE "pqi"."gsi-all" SET projattr = 'z' WHERE pk = 'p' AND sk = 's1'$$);
SELECT pqi($$DELETE FROM "pqi"."gsi-all" WHERE pk = 'p' AND sk = 's1'$$);
SELECT pqi($$DELETE FROM "pqi"."gsi-all"."x" WHERE pk = 'p' AND sk = 's1'$$);
SELECT sks(pqi($$SELECT * FROM pqi WHERE pk = 'p'$$));

DROP FUNCTION sks(jsonb);
DROP FUNCTION pqi(text, jsonb);
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pqi"}') -> 'TableDescription' -> 'TableName';
