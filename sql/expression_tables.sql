--
-- Expressions composed with the table operations, as the item operations
-- will use them: FilterExpression and ProjectionExpression over a Query, and
-- a conditional UpdateItem as check + update + put on the row locked
-- FOR UPDATE (doc/dynamodb-rules.md, Writes).
--
\set VERBOSITY terse
SELECT hroe.create_table('expr_orders', 'PK', 'S', 'SK', 'S');
SELECT count(*) FROM generate_series(1, 6) i,
	LATERAL hroe.put_item('expr_orders', jsonb_build_object(
		'PK', jsonb_build_object('S', 'CUST#1'), 'SK', jsonb_build_object('S', 'ORDER#' || i),
		'orderTotal', jsonb_build_object('N', (i * 12.5)::text), 'status', jsonb_build_object('S', CASE WHEN i % 2 = 0 THEN 'OPEN' ELSE 'SHIPPED' END),
		'orderLines', jsonb_build_object('L', (SELECT jsonb_agg(jsonb_build_object('S', 'item' || j)) FROM generate_series(1, i) j)))::hroe.item);

-- Query + FilterExpression + ProjectionExpression
SELECT hroe.project(i, 'SK, #t, orderLines[0]', '{"#t": "orderTotal"}')
FROM hroe.query('expr_orders', 'PK = :p AND begins_with(SK, :o)', '{":p": {"S": "CUST#1"}, ":o": {"S": "ORDER#"}}') i
WHERE hroe.condition_matches(i, '#s = :open AND size(orderLines) >= :n', '{"#s": "status"}', '{":open": {"S": "OPEN"}, ":n": {"N": "4"}}');

-- conditional update of ORDER#2: lock, check, apply, write; ReturnValues UPDATED_NEW
BEGIN;
SELECT hroe.check_condition(item, '#s = :open', '{"#s": "status"}', '{":open": {"S": "OPEN"}}')
FROM expr_orders WHERE pk OPERATOR(hroe.=) 'CUST#1' AND sk OPERATOR(hroe.=) 'ORDER#2' FOR UPDATE;
SELECT hroe.updated_attributes((hroe.put_item('expr_orders', n, 'ALL_OLD')).attributes, u, nm, v) AS updated_old,
       hroe.updated_attributes(n, u, nm, v) AS updated_new
FROM expr_orders,
     LATERAL (SELECT 'SET #s = :shipped, orderTotal = orderTotal - :discount REMOVE orderLines[0]'::text AS u,
                     '{"#s": "status"}'::jsonb AS nm,
                     '{":shipped": {"S": "SHIPPED"}, ":discount": {"N": "0.5"}}'::jsonb AS v) p,
     LATERAL (SELECT hroe.apply_update(item, p.u, p.nm, p.v, '{PK,SK}') AS n) a
WHERE pk OPERATOR(hroe.=) 'CUST#1' AND sk OPERATOR(hroe.=) 'ORDER#2';
COMMIT;
SELECT hroe.get_item('expr_orders', '{"PK": {"S": "CUST#1"}, "SK": {"S": "ORDER#2"}}', true);
-- the same condition now fails: ConditionalCheckFailedException, nothing written
SELECT hroe.check_condition(item, '#s = :open', '{"#s": "status"}', '{":open": {"S": "OPEN"}}')
FROM expr_orders WHERE pk OPERATOR(hroe.=) 'CUST#1' AND sk OPERATOR(hroe.=) 'ORDER#2' FOR UPDATE;
-- a key attribute cannot be updated (E18)
SELECT hroe.apply_update(item, 'SET SK = :s', NULL, '{":s": {"S": "ORDER#9"}}', '{PK,SK}')
FROM expr_orders WHERE pk OPERATOR(hroe.=) 'CUST#1' AND sk OPERATOR(hroe.=) 'ORDER#2';
-- conditions on a missing item: attribute_not_exists holds (a conditional create)
SELECT hroe.condition_matches(
	(SELECT item FROM expr_orders WHERE pk OPERATOR(hroe.=) 'CUST#1' AND sk OPERATOR(hroe.=) 'ORDER#99'), 'attribute_not_exists(PK)');
SELECT hroe.delete_table('expr_orders') IS NOT NULL AS dropped;
