-- DynamoDB's PartiQL through the JSON API: ExecuteStatement,
-- BatchExecuteStatement, ExecuteTransaction.  Each statement runs as the JSON
-- API's own operation (Query, Scan, GetItem, PutItem, UpdateItem,
-- DeleteItem, TransactWriteItems, TransactGetItems).
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pqt", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                              "Projection": {"ProjectionType": "ALL"}}]}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pq_h", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';

-- one statement, its optional members
CREATE FUNCTION pq(stmt text, extra jsonb DEFAULT '{}') RETURNS jsonb
LANGUAGE sql AS $$ SELECT hroe.dynamodb('ExecuteStatement', jsonb_build_object('Statement', stmt) || extra) $$;

-- INSERT: literals of every type
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': 1, 's': 'x', 'n': -2.5e1, 'b': true, 'z': null,
  'l': [1, 'two', [3]], 'm': {'k': 'v', 'in': {'deep': 7}}, 'ss': <<'p', 'q'>>, 'ns': <<1, 2>>, 'g': 'G1'}$$);
SELECT pq('INSERT INTO "pqt" VALUE {''pk'': ?, ''sk'': ?, ''bin'': ?, ''g'': ?}',
          '{"Parameters": [{"S": "a"}, {"N": "2"}, {"B": "AAE="}, {"S": "G1"}]}');
SELECT pq(format($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': %s, 'v': %s, 'g': 'G%s'}$$, i, i * 10, i % 2))
FROM generate_series(3, 6) i;
SELECT pq($$INSERT INTO pqt VALUE ?$$, '{"Parameters": [{"M": {"pk": {"S": "b"}, "sk": {"N": "1"}}}]}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "pqt", "Key": {"pk": {"S": "a"}, "sk": {"N": "1"}}}');
-- an existing item: DuplicateItemException
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': 1}$$);
-- a key missing from the item, a wrong type, an empty set
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a'}$$);
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': 'one'}$$);
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': 9, 'e': <<>>}$$);
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'sk': 9, 'e': <<'a', 1>>}$$);

-- SELECT: a Query when WHERE fixes the partition key, with the sort key's conditions
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' AND sk = 1$$);
SELECT pq($$SELECT sk, v FROM pqt WHERE pk = 'a' AND sk > 3$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk >= 3 AND sk <= 5$$);
-- a lower and an upper bound, either strict: one Query on the range (its
-- capacity the range's, as a Query with BETWEEN), bounds in either order;
-- an empty range (a > b, or a = b with a strict bound) answers no item
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk >= 3 AND sk < 5$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > ? AND sk < ?$$, '{"Parameters": [{"N": "3"}, {"N": "6"}], "ReturnConsumedCapacity": "TOTAL"}');
SELECT hroe.dynamodb('Query', '{"TableName": "pqt", "KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b",
  "ExpressionAttributeValues": {":p": {"S": "a"}, ":a": {"N": "4"}, ":b": {"N": "5"}}, "ProjectionExpression": "sk", "ReturnConsumedCapacity": "TOTAL"}');
SELECT pq($$SELECT sk FROM pqt WHERE sk < 6 AND pk = 'a' AND sk > 3 AND v > 40$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 3 AND sk <= 5$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 5 AND sk < 3$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 4 AND sk < 4$$);
-- ... paged: Limit 2, then the rest through NextToken, each item once
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 2 AND sk < 6$$, '{"Limit": 2}');
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 2 AND sk < 6$$,
          jsonb_build_object('Limit', 2, 'NextToken', pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk > 2 AND sk < 6$$, '{"Limit": 2}') ->> 'NextToken'));
-- ... the JSON API's Query still refuses two conditions on the sort key
SELECT hroe.dynamodb('Query', '{"TableName": "pqt", "KeyConditionExpression": "pk = :p AND sk > :a AND sk < :b",
  "ExpressionAttributeValues": {":p": {"S": "a"}, ":a": {"N": "3"}, ":b": {"N": "6"}}}');
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk BETWEEN 2 AND 4$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk <= 2$$);
SELECT pq($$SELECT sk FROM pqt WHERE 'a' = pk AND v <> 30 AND v > 20$$);
-- filters
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND v IN [30, 50, 99]$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND v IN (30, 40)$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND (v = 30 OR v = 60) AND NOT v = 60$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND v IS MISSING$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND v IS NOT MISSING AND v >= 50$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND z IS NULL$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND s IS NOT NULL AND s IS NOT MISSING$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND begins_with(s, 'x') AND contains(ss, 'p')$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND attribute_type(n, 'N') AND size(l) = 3$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND contains(l, 'two') AND m.k = 'v' AND l[1] = 'two'$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND m = {'k': 'v', 'in': {'deep': 7}} AND l = [1, 'two', [3]] AND ss = <<'q', 'p'>>$$);
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND b = true AND z = null$$);
-- begins_with on a string sort key (the hash-only table has none: a filter there)
SELECT pq($$INSERT INTO pq_h VALUE {'pk': 'pre-1', 'x': 1}$$);
SELECT pq($$INSERT INTO pq_h VALUE {'pk': 'pre-2', 'x': 2}$$);
SELECT pq($$SELECT pk FROM pq_h WHERE begins_with(pk, 'pre-') AND x > 1$$);
-- projections: nested paths answer under their last name
SELECT pq($$SELECT m.k, m."in".deep, l[1], "sk" FROM pqt WHERE pk = 'a' AND sk = 1$$);
-- a partition key IN: one Query per value
SELECT pq($$SELECT pk, sk FROM pqt WHERE pk IN ['a', 'b'] AND sk = 1$$);
-- a GSI: "table"."index"
SELECT pq($$SELECT sk FROM "pqt"."byG" WHERE g = 'G0'$$);
SELECT pq($$SELECT sk FROM pqt."byG" WHERE g = 'G1' AND sk > 1$$);
SELECT pq($$SELECT * FROM pqt."nope" WHERE g = 'G1'$$);
-- without the partition key fixed: a Scan
SELECT pq($$SELECT pk, sk FROM pqt WHERE v >= 50$$);
SELECT pq($$SELECT pk, sk FROM pqt WHERE pk = 'a' OR pk = 'b'$$) -> 'Items';
SELECT jsonb_array_length(pq($$SELECT * FROM pqt$$) -> 'Items');
-- parameters
SELECT pq('SELECT sk FROM pqt WHERE pk = ? AND sk BETWEEN ? AND ? AND v <> ?',
          '{"Parameters": [{"S": "a"}, {"N": "3"}, {"N": "5"}, {"N": "40"}]}');
-- Limit and NextToken: Limit counts items read, as Query's
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, '{"Limit": 2}') #- '{NextToken}';
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$,
          jsonb_build_object('Limit', 2, 'NextToken', pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, '{"Limit": 2}') -> 'NextToken')) #- '{NextToken}';
-- paging to the end gives every item once
WITH RECURSIVE pages(n, res) AS (
  SELECT 1, pq($$SELECT sk FROM pqt WHERE pk IN ['a', 'b']$$, '{"Limit": 2}')
  UNION ALL
  SELECT n + 1, pq($$SELECT sk FROM pqt WHERE pk IN ['a', 'b']$$, jsonb_build_object('Limit', 2, 'NextToken', res -> 'NextToken'))
  FROM pages WHERE res ? 'NextToken' AND n < 20)
SELECT count(*) AS pages, (SELECT jsonb_agg(i ORDER BY i) FROM pages, jsonb_array_elements(res -> 'Items') i) AS items FROM pages;
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, '{"NextToken": "bm90IGEgdG9rZW4="}');
-- a token's key is checked as an ExclusiveStartKey; its position as one of the IN values
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, jsonb_build_object('NextToken',
          encode(convert_to('{"i": 0, "k": {"pk": {"S": "zzz"}, "sk": {"N": "1"}}}', 'UTF8'), 'base64')));
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, jsonb_build_object('NextToken',
          encode(convert_to('{"i": 1, "k": null}', 'UTF8'), 'base64')));
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a'$$, '{"Limit": 0}');
-- ConsistentRead and ReturnConsumedCapacity
SELECT pq($$SELECT sk FROM pqt WHERE pk = 'a' AND sk = 1$$, '{"ConsistentRead": true, "ReturnConsumedCapacity": "TOTAL"}') -> 'ConsumedCapacity';
SELECT pq($$SELECT sk FROM pqt."byG" WHERE g = 'G1'$$, '{"ConsistentRead": true}');

-- UPDATE: SET, REMOVE, arithmetic, functions, RETURNING
SELECT pq($$UPDATE pqt SET v = 1, w = 'new' SET n = n + 5 REMOVE s WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *$$);
SELECT pq($$UPDATE pqt SET l = list_append(l, [4]), ss = set_add(ss, <<'r'>>), ns = set_delete(ns, <<1>>) WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *$$);
SELECT pq($$UPDATE pqt SET v = v - 1 WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED OLD *$$);
SELECT pq($$UPDATE pqt SET m.k = 'w', c = if_not_exists(c, 0) WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *$$) -> 'Items' -> 0 -> 'm';
-- the conditions besides the key: a ConditionExpression
SELECT pq($$UPDATE pqt SET v = 100 WHERE pk = 'a' AND sk = 1 AND v = 999$$);
SELECT pq($$UPDATE pqt SET v = 100 WHERE pk = 'a' AND sk = 1 AND v = 999$$, '{"ReturnValuesOnConditionCheckFailure": "ALL_OLD"}') - 'message';
-- a missing item fails, as DynamoDB's
SELECT pq($$UPDATE pqt SET v = 1 WHERE pk = 'zz' AND sk = 1$$);
SELECT hroe.dynamodb('GetItem', '{"TableName": "pqt", "Key": {"pk": {"S": "zz"}, "sk": {"N": "1"}}}');
-- the key must be fixed by equalities
SELECT pq($$UPDATE pqt SET v = 1 WHERE pk = 'a'$$);
SELECT pq($$UPDATE pqt SET v = 1 WHERE pk = 'a' AND sk > 1$$);
SELECT pq($$UPDATE pqt SET pk = 'b' WHERE pk = 'a' AND sk = 1$$);

-- DELETE
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 6 RETURNING ALL OLD *$$);
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 5 AND v = 0$$);
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 99$$);
-- a missing item with conditions: success, nothing deleted (AWS's DELETE reference)
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 98 AND v = 0 AND (v = 1 OR v = 2)$$);
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 5 RETURNING ALL NEW *$$);
SELECT pq($$DELETE FROM pqt WHERE pk = 'a'$$);
SELECT pq($$DELETE FROM pqt WHERE pk = 'a' AND sk = 5$$, '{"ReturnConsumedCapacity": "TOTAL"}');

-- statements that do not parse, and other errors
SELECT pq($$SELECTT * FROMM pqt$$);
SELECT pq($$SELECT * FROM$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = "a$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' AND$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' extra$$);
SELECT pq($$SELECT * FROM pqt WHERE pk # 'a'$$);
SELECT pq($$SELECT * FROM pqt WHERE l[x] = 1$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' AND nosuch(v)$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' AND v = 1 + 2$$);
SELECT pq($$SELECT * FROM pqt WHERE v IS 3$$);
SELECT pq($$INSERT INTO pqt VALUE {pk: 'a'}$$);
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'a', 'x': v}$$);
SELECT pq($$UPDATE pqt WHERE pk = 'a' AND sk = 1$$);
SELECT pq($$DELETE FROM pqt$$);
SELECT pq($$SELECT * FROM pqt WHERE pk = 'a' AND ((((((((((((((((((((((((((((((((((v = 1))))))))))))))))))))))))))))))))))$$);
SELECT pq(repeat('x', 8193));
SELECT pq('');
SELECT hroe.dynamodb('ExecuteStatement', '{}');
SELECT pq('SELECT * FROM nosuch WHERE pk = ?', '{"Parameters": [{"S": "a"}]}');
-- wrong parameter counts
SELECT pq('SELECT * FROM pqt WHERE pk = ?');
SELECT pq('SELECT * FROM pqt WHERE pk = ?', '{"Parameters": [{"S": "a"}, {"S": "b"}]}');
SELECT pq('SELECT * FROM pqt WHERE pk = ''a''', '{"Parameters": []}');

-- BatchExecuteStatement: reads (each a GetItem) or writes, each failing alone
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "SELECT pk, sk, v FROM pqt WHERE pk = 'a' AND sk = 3"},
  {"Statement": "SELECT * FROM pqt WHERE pk = ? AND sk = ?", "Parameters": [{"S": "a"}, {"N": "404"}]},
  {"Statement": "SELECT * FROM nosuch WHERE pk = 'a'"},
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a'"},
  {"Statement": "SELECT * FROM pqt WHERE"}], "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "INSERT INTO pqt VALUE {'pk': 'c', 'sk': 1}"},
  {"Statement": "INSERT INTO pqt VALUE {'pk': 'a', 'sk': 1}"},
  {"Statement": "UPDATE pqt SET v = 7 WHERE pk = 'c' AND sk = 1 AND v = 1"},
  {"Statement": "UPDATE pqt SET v = 7 WHERE pk = 'c' AND sk = 1"},
  {"Statement": "DELETE FROM pqt WHERE pk = 'a' AND sk = 4"}], "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT pq($$SELECT pk, sk, v FROM pqt WHERE pk = 'c'$$);
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a' AND sk = 3"},
  {"Statement": "DELETE FROM pqt WHERE pk = 'a' AND sk = 3"}]}$$);
SELECT hroe.dynamodb('BatchExecuteStatement', '{"Statements": []}');
SELECT hroe.dynamodb('BatchExecuteStatement', jsonb_build_object('Statements',
  (SELECT jsonb_agg(jsonb_build_object('Statement', $$SELECT * FROM pqt WHERE pk = 'a' AND sk = 1$$)) FROM generate_series(1, 26))));

-- ExecuteTransaction: all or nothing
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "INSERT INTO pqt VALUE {'pk': 't', 'sk': 1}"},
  {"Statement": "UPDATE pqt SET v = v + 1 WHERE pk = 'a' AND sk = 3"},
  {"Statement": "DELETE FROM pqt WHERE pk = 'c' AND sk = 1"}], "ReturnConsumedCapacity": "TOTAL"}$$);
-- a duplicate INSERT cancels it: DuplicateItem among the reasons
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "INSERT INTO pqt VALUE {'pk': 't', 'sk': 2}"},
  {"Statement": "INSERT INTO pqt VALUE {'pk': 't', 'sk': 1}"},
  {"Statement": "UPDATE pqt SET v = 0 WHERE pk = 'a' AND sk = 3 AND v = -1"}]}$$);
SELECT pq($$SELECT pk, sk, v FROM pqt WHERE pk = 't'$$);
-- reads: TransactGetItems
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "SELECT sk, v FROM pqt WHERE pk = 'a' AND sk = 3"},
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a' AND sk = 404"}]}$$);
-- ClientRequestToken: a replay answers alike and writes nothing again
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "UPDATE pqt SET v = v + 1 WHERE pk = 'a' AND sk = 3"}], "ClientRequestToken": "pqt-token-1"}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "UPDATE pqt SET v = v + 1 WHERE pk = 'a' AND sk = 3"}], "ClientRequestToken": "pqt-token-1"}$$);
SELECT pq($$SELECT v FROM pqt WHERE pk = 'a' AND sk = 3$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a' AND sk = 3"},
  {"Statement": "DELETE FROM pqt WHERE pk = 'a' AND sk = 3"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a'"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', '{"TransactStatements": []}');
-- EXISTS(SELECT ...): a ConditionCheck, met when the item exists and meets
-- the rest of the WHERE; else ConditionalCheckFailed, nothing written
SELECT pq($$INSERT INTO pqt VALUE {'pk': 'ex', 'sk': 1, 'v': 40}$$), pq($$INSERT INTO pqt VALUE {'pk': 'ex', 'sk': 2}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'ex' AND sk = 1 AND v = 40)"},
  {"Statement": "UPDATE pqt SET w = 'checked' WHERE pk = 'ex' AND sk = 2"}], "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT pq($$SELECT w FROM pqt WHERE pk = 'ex' AND sk = 2$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "exists (select sk from \"pqt\" where sk = ? and pk = ? and v > ?)", "Parameters": [{"N": "1"}, {"S": "ex"}, {"N": "40"}]},
  {"Statement": "UPDATE pqt SET w = 'again' WHERE pk = 'ex' AND sk = 2"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'ex' AND sk = 404)"},
  {"Statement": "DELETE FROM pqt WHERE pk = 'ex' AND sk = 2"}]}$$);
SELECT pq($$SELECT w FROM pqt WHERE pk = 'ex' AND sk = 2$$);
-- ... of the full primary key of a table, in a transaction of writes only
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'a')"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "EXISTS(SELECT * FROM pqt.\"byG\" WHERE g = 'G0' AND pk = 'a' AND sk = 4)"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "SELECT * FROM pqt WHERE pk = 'a' AND sk = 4"},
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'a' AND sk = 4)"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'a' AND sk = 4"}]}$$);
-- ... and nowhere else
SELECT pq($$EXISTS(SELECT * FROM pqt WHERE pk = 'a' AND sk = 4)$$);
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "EXISTS(SELECT * FROM pqt WHERE pk = 'a' AND sk = 4)"}]}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [{"Statement": "DELETE pqt"}]}$$);

-- PartiQL statements and their JSON-API equivalents answering alike: the
-- same items and the same capacity
CREATE TEMP TABLE pairs(name text, partiql jsonb, op text, json jsonb);
INSERT INTO pairs VALUES
 ('query', $${"Statement": "SELECT * FROM pqt WHERE pk = 'a' AND sk >= 3 AND v > 30", "ReturnConsumedCapacity": "TOTAL"}$$,
  'Query', $${"TableName": "pqt", "KeyConditionExpression": "pk = :p AND sk >= :s", "FilterExpression": "v > :v",
   "ExpressionAttributeValues": {":p": {"S": "a"}, ":s": {"N": "3"}, ":v": {"N": "30"}}, "ReturnConsumedCapacity": "TOTAL"}$$),
 ('query consistent, projected', $${"Statement": "SELECT sk, v FROM pqt WHERE pk = 'a'", "ConsistentRead": true, "ReturnConsumedCapacity": "INDEXES"}$$,
  'Query', $${"TableName": "pqt", "KeyConditionExpression": "pk = :p", "ProjectionExpression": "sk, v", "ConsistentRead": true,
   "ExpressionAttributeValues": {":p": {"S": "a"}}, "ReturnConsumedCapacity": "INDEXES"}$$),
 ('gsi query', $${"Statement": "SELECT * FROM pqt.byG WHERE g = 'G1'", "ReturnConsumedCapacity": "INDEXES"}$$,
  'Query', $${"TableName": "pqt", "IndexName": "byG", "KeyConditionExpression": "g = :g",
   "ExpressionAttributeValues": {":g": {"S": "G1"}}, "ReturnConsumedCapacity": "INDEXES"}$$),
 ('scan', $${"Statement": "SELECT * FROM pqt WHERE v <> 40", "ReturnConsumedCapacity": "TOTAL"}$$,
  'Scan', $${"TableName": "pqt", "FilterExpression": "v <> :v",
   "ExpressionAttributeValues": {":v": {"N": "40"}}, "ReturnConsumedCapacity": "TOTAL"}$$),
 ('scan limited', $${"Statement": "SELECT * FROM pqt", "Limit": 3, "ReturnConsumedCapacity": "TOTAL"}$$,
  'Scan', $${"TableName": "pqt", "Limit": 3, "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT name,
       hroe.dynamodb('ExecuteStatement', partiql) -> 'Items' = hroe.dynamodb(op, json) -> 'Items' AS same_items,
       hroe.dynamodb('ExecuteStatement', partiql) -> 'ConsumedCapacity' = hroe.dynamodb(op, json) -> 'ConsumedCapacity' AS same_capacity,
       hroe.dynamodb('ExecuteStatement', partiql) -> 'ConsumedCapacity' AS capacity
FROM pairs ORDER BY name;
-- writes: the same capacity, the same item written
SELECT hroe.dynamodb('ExecuteStatement', $${"Statement": "INSERT INTO pqt VALUE {'pk': 'w1', 'sk': 1, 'pad': 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'g': 'G9'}", "ReturnConsumedCapacity": "INDEXES"}$$) -> 'ConsumedCapacity'
     = hroe.dynamodb('PutItem', $${"TableName": "pqt", "Item": {"pk": {"S": "w2"}, "sk": {"N": "1"}, "pad": {"S": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}, "g": {"S": "G9"}},
         "ConditionExpression": "attribute_not_exists(pk)", "ReturnConsumedCapacity": "INDEXES"}$$) -> 'ConsumedCapacity' AS insert_alike;
SELECT hroe.dynamodb('ExecuteStatement', $${"Statement": "UPDATE pqt SET n = 5, g = 'G8' WHERE pk = 'w1' AND sk = 1", "ReturnConsumedCapacity": "INDEXES"}$$) -> 'ConsumedCapacity'
     = hroe.dynamodb('UpdateItem', $${"TableName": "pqt", "Key": {"pk": {"S": "w2"}, "sk": {"N": "1"}}, "UpdateExpression": "SET n = :n, g = :g",
         "ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":n": {"N": "5"}, ":g": {"S": "G8"}}, "ReturnConsumedCapacity": "INDEXES"}$$) -> 'ConsumedCapacity' AS update_alike;
SELECT (pq($$SELECT * FROM pqt WHERE pk = 'w1'$$) -> 'Items' -> 0) - 'pk' = (pq($$SELECT * FROM pqt WHERE pk = 'w2'$$) -> 'Items' -> 0) - 'pk' AS same_item;
SELECT hroe.dynamodb('ExecuteStatement', $${"Statement": "DELETE FROM pqt WHERE pk = 'w1' AND sk = 1", "ReturnConsumedCapacity": "TOTAL"}$$) -> 'ConsumedCapacity'
     = hroe.dynamodb('DeleteItem', $${"TableName": "pqt", "Key": {"pk": {"S": "w2"}, "sk": {"N": "1"}}, "ReturnConsumedCapacity": "TOTAL"}$$) -> 'ConsumedCapacity' AS delete_alike;
-- a transaction: the capacity of the equivalent TransactWriteItems
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "INSERT INTO pqt VALUE {'pk': 'x1', 'sk': 1}"}, {"Statement": "UPDATE pqt SET v = 1 WHERE pk = 'a' AND sk = 3"}],
  "ReturnConsumedCapacity": "TOTAL"}$$) -> 'ConsumedCapacity'
     = hroe.dynamodb('TransactWriteItems', $${"TransactItems": [
  {"Put": {"TableName": "pqt", "Item": {"pk": {"S": "x2"}, "sk": {"N": "1"}}, "ConditionExpression": "attribute_not_exists(pk)"}},
  {"Update": {"TableName": "pqt", "Key": {"pk": {"S": "a"}, "sk": {"N": "2"}}, "UpdateExpression": "SET v = :v",
              "ConditionExpression": "attribute_exists(pk)", "ExpressionAttributeValues": {":v": {"N": "1"}}}}],
  "ReturnConsumedCapacity": "TOTAL"}$$) -> 'ConsumedCapacity' AS transaction_alike;

-- hroe.dynamodb_text (the gateway's path) takes the operations too
SELECT hroe.dynamodb_text('ExecuteStatement', $${"Statement": "SELECT sk FROM pqt WHERE pk = 'b'"}$$);

-- privileges: a statement needs its operation's; a batch's refusal is its
-- statement's AccessDenied, in DynamoDB's words
DROP ROLE IF EXISTS regress_hroe_pq_reader;
CREATE ROLE regress_hroe_pq_reader;
GRANT USAGE ON SCHEMA hroe TO regress_hroe_pq_reader;
GRANT SELECT ON pqt TO regress_hroe_pq_reader;
SET ROLE regress_hroe_pq_reader;
SELECT hroe.dynamodb('ExecuteStatement', $${"Statement": "SELECT sk FROM pqt WHERE pk = 'b'"}$$);
SELECT hroe.dynamodb('ExecuteStatement', $${"Statement": "DELETE FROM pqt WHERE pk = 'b' AND sk = 1"}$$);
SELECT hroe.dynamodb('BatchExecuteStatement', $${"Statements": [
  {"Statement": "DELETE FROM pqt WHERE pk = 'b' AND sk = 1"}, {"Statement": "DELETE FROM pq_h WHERE pk = 'pre-1'"}]}$$);
RESET ROLE;
DROP OWNED BY regress_hroe_pq_reader;
DROP ROLE regress_hroe_pq_reader;

DROP FUNCTION pq(text, jsonb);
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pqt"}') -> 'TableDescription' -> 'TableName';
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pq_h"}') -> 'TableDescription' -> 'TableName';
