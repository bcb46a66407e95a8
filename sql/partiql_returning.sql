-- PartiQL's RETURNING on each operation, and the checks DynamoDB makes on a
-- statement before it looks its table up: DELETE's RETURNING, an unordered
-- operand of an ordering operator, an empty FROM component, a statement not
-- starting with a data manipulation keyword; ExecuteTransaction's idempotent
-- replay and its capacity.
SELECT hroe.dynamodb('CreateTable', '{"TableName": "pqr", "BillingMode": "PAY_PER_REQUEST",
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]}') -> 'TableDescription' -> 'TableName';
CREATE FUNCTION pqr(stmt text, extra jsonb DEFAULT '{}') RETURNS jsonb
LANGUAGE sql AS $$ SELECT hroe.dynamodb('ExecuteStatement', jsonb_build_object('Statement', stmt) || extra) $$;
CREATE FUNCTION pqr_batch(stmts text[]) RETURNS jsonb
LANGUAGE sql AS $$ SELECT hroe.dynamodb('BatchExecuteStatement', jsonb_build_object('Statements',
  (SELECT jsonb_agg(jsonb_build_object('Statement', s) ORDER BY i) FROM unnest(stmts) WITH ORDINALITY u(s, i)))) $$;
SELECT pqr(format($$INSERT INTO pqr VALUE {'pk': '%s', 'data': 'old', 'keep': 1}$$, k))
FROM unnest(ARRAY['d1', 'd2', 'u1', 'u2', 'u3', 'u4', 'u5', 'b1']) k;

-- DELETE: RETURNING ALL OLD * only, refused before the table is looked up
SELECT pqr($$DELETE FROM pqr WHERE pk = 'd1' RETURNING MODIFIED OLD *$$);
SELECT pqr($$DELETE FROM pqr WHERE pk = 'd1' RETURNING ALL NEW *$$);
SELECT pqr($$delete from pqr where pk = 'd1' returning modified new *$$);
SELECT pqr($$DELETE FROM nosuch WHERE pk = 'd1' RETURNING MODIFIED NEW *$$);
SELECT pqr($$DELETE FROM pqr WHERE pk = 'd1' RETURNING ALL OLD *$$);
SELECT pqr($$DELETE FROM pqr WHERE pk = 'd1' RETURNING ALL OLD *$$);
-- UPDATE accepts all four
SELECT pqr($$UPDATE pqr SET data = 'new' WHERE pk = 'u1' RETURNING MODIFIED OLD *$$);

-- BatchExecuteStatement: each member's RETURNING answers in its Item
SELECT pqr_batch(ARRAY[
  $$DELETE FROM pqr WHERE pk = 'd2' RETURNING ALL OLD *$$,
  $$UPDATE pqr SET data = 'new' WHERE pk = 'u2' RETURNING ALL NEW *$$,
  $$UPDATE pqr SET data = 'new' WHERE pk = 'u3' RETURNING MODIFIED NEW *$$,
  $$UPDATE pqr SET data = 'new' WHERE pk = 'u4' RETURNING ALL OLD *$$,
  $$UPDATE pqr SET data = 'new' WHERE pk = 'u5' RETURNING MODIFIED OLD *$$,
  $$UPDATE pqr REMOVE data WHERE pk = 'b1' RETURNING MODIFIED NEW *$$,
  $$DELETE FROM pqr WHERE pk = 'gone' RETURNING ALL OLD *$$,
  $$UPDATE pqr SET data = 'x' WHERE pk = 'u1'$$]);
-- ... an invalid RETURNING, or a statement that is no statement, fails that member only
SELECT pqr_batch(ARRAY[
  $$DELETE FROM pqr WHERE pk = 'u1' RETURNING MODIFIED OLD *$$,
  $$SLECT * FROM pqr WHERE pk = 'u1'$$,
  $$UPDATE pqr SET data = 'y' WHERE pk = 'u1' RETURNING ALL NEW *$$]);
SELECT pqr_batch(ARRAY[$$SLECT * FROM pqr WHERE pk = 'u1'$$, $$SELECT data FROM pqr WHERE pk = 'u1'$$]);
SELECT pqr($$SLECT * FROM pqr$$);
SELECT pqr($$CREATE TABLE pqr$$);

-- ExecuteTransaction refuses RETURNING, naming the statement; nothing is written
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "UPDATE pqr SET data = 'txn' WHERE pk = 'u1'"},
  {"Statement": "UPDATE pqr SET data = 'txn' WHERE pk = 'u2' RETURNING ALL NEW *"}]}$$);
SELECT pqr($$SELECT data FROM pqr WHERE pk = 'u1'$$);

-- < <= > >= BETWEEN refuse a value of a type without an order, with the
-- operator as written and no "Invalid FilterExpression: ", before the
-- table is looked up; = and <> take any type
SELECT pqr(format('SELECT pk FROM pqr WHERE pk = ''u1'' AND keep %s ?', op), '{"Parameters": [{"BOOL": true}]}') ->> 'message'
FROM unnest(ARRAY['<', '<=', '>', '>=']) op;
SELECT pqr('SELECT pk FROM pqr WHERE pk = ''u1'' AND keep < ?', jsonb_build_object('Parameters', jsonb_build_array(v))) ->> 'message'
FROM unnest(ARRAY['{"NULL": true}', '{"L": [{"S": "a"}]}', '{"M": {}}', '{"SS": ["a"]}', '{"NS": ["1"]}', '{"BS": ["AQ=="]}']::jsonb[]) v;
SELECT pqr($$SELECT pk FROM pqr WHERE pk = 'u1' AND keep BETWEEN ? AND 3$$, '{"Parameters": [{"BOOL": false}]}');
SELECT pqr($$SELECT pk FROM pqr WHERE NOT (keep > [1] OR keep = 1)$$);
SELECT pqr($$SELECT pk FROM pqr WHERE keep >= <<1, 2>>$$);
SELECT pqr($$SELECT pk FROM pqr WHERE keep > <<?>>$$, '{"Parameters": [{"B": "AQ=="}]}');
-- (a set of lists, or a parameter that is no AttributeValue: the statement's own errors)
SELECT pqr($$SELECT pk FROM pqr WHERE keep > <<[1]>>$$);
SELECT pqr($$SELECT pk FROM pqr WHERE pk = 'u1' AND keep < ?$$, '{"Parameters": [{"BOOL": true, "S": "x"}]}');
SELECT pqr($$UPDATE pqr SET data = 'z' WHERE pk = 'u1' AND keep < {'a': 1}$$);
SELECT pqr($$SELECT pk FROM nosuch WHERE pk = ? AND keep < ?$$, '{"Parameters": [{"S": "u1"}, {"BOOL": true}]}');
SELECT pqr($$SELECT pk FROM pqr WHERE pk = 'u1' AND keep < ?$$, '{"Parameters": [{"N": "5"}]}');
SELECT pqr($$SELECT pk FROM pqr WHERE pk = 'u1' AND keep <> ? AND data = ?$$, '{"Parameters": [{"BOOL": true}, {"NULL": true}]}');
SELECT pqr($$SELECT pk FROM pqr WHERE pk = 'u1' AND keep < 'a'$$);

-- an empty component of the FROM path, before the table is looked up
SELECT pqr($$SELECT * FROM "" WHERE pk = 'x'$$);
SELECT pqr($$SELECT * FROM pqr."" WHERE pk = 'x'$$);
SELECT pqr($$INSERT INTO "" VALUE {'pk': 'x'}$$);
SELECT pqr($$SELECT * FROM nosuch WHERE pk = 'x'$$);

-- ExecuteTransaction under a ClientRequestToken: the replay writes nothing
-- and reports reading the item, transactionally (2 units up to 4 KB)
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "UPDATE pqr SET keep = keep + 1 WHERE pk = 'u1'"}], "ClientRequestToken": "pqr-1",
  "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT hroe.dynamodb('ExecuteTransaction', $${"TransactStatements": [
  {"Statement": "UPDATE pqr SET keep = keep + 1 WHERE pk = 'u1'"}], "ClientRequestToken": "pqr-1",
  "ReturnConsumedCapacity": "TOTAL"}$$);
SELECT pqr($$SELECT keep FROM pqr WHERE pk = 'u1'$$);

SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pqr"}') -> 'TableDescription' -> 'TableName';
DROP FUNCTION pqr(text, jsonb);
DROP FUNCTION pqr_batch(text[]);
