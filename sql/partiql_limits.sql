--
-- PartiQL SELECT with IN on the partition key (issue #29, item 8): at most
-- 50 values (DynamoDB's limit, ql-operators.html), a value given twice read
-- once, and one response of about 1 MB, the rest behind a NextToken (a key
-- of 390 KB items repeated 1,000 times used to grow a backend by 1 GB)
--
\set VERBOSITY terse
CREATE SCHEMA test_partiql_limits;
SET search_path = test_partiql_limits, public;
SELECT hroe.create_table('pql', 'PK', 'S');
SELECT count(*) FROM (SELECT hroe.put_item('pql', jsonb_build_object('PK', jsonb_build_object('S', 'k' || i))::text::hroe.item)
					  FROM generate_series(1, 60) i) p;
-- five items of 390,000 bytes
SELECT count(*) FROM (SELECT hroe.put_item('pql', jsonb_build_object('PK', jsonb_build_object('S', 'b' || i),
																	  'd', jsonb_build_object('S', repeat('x', 390000)))::text::hroe.item)
					  FROM generate_series(1, 5) i) p;
-- the answer without its large strings
CREATE FUNCTION outline(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	CASE WHEN r ? '__type' THEN r ELSE jsonb_build_object(
		'keys', (SELECT jsonb_agg(i -> 'PK' -> 'S') FROM jsonb_array_elements(r -> 'Items') i),
		'next', r ? 'NextToken', 'capacity', r -> 'ConsumedCapacity') END;
CREATE FUNCTION stmt(s text, token text DEFAULT NULL, params jsonb DEFAULT NULL) RETURNS jsonb LANGUAGE sql RETURN
	hroe.dynamodb('ExecuteStatement', jsonb_strip_nulls(jsonb_build_object('Statement', s, 'NextToken', token,
																			'Parameters', params,
																			'ReturnConsumedCapacity', 'TOTAL')));

-- 50 values are accepted, 51 are not
SELECT jsonb_array_length(stmt(format('SELECT PK FROM pql WHERE PK IN [%s]',
	(SELECT string_agg(format('''k%s''', i), ', ') FROM generate_series(1, 50) i))) -> 'Items');
SELECT outline(stmt(format('SELECT PK FROM pql WHERE PK IN [%s]',
	(SELECT string_agg(format('''k%s''', i), ', ') FROM generate_series(1, 51) i))));
-- the same through parameters
SELECT outline(stmt(format('SELECT PK FROM pql WHERE PK IN [%s]',
	(SELECT string_agg('?', ', ') FROM generate_series(1, 51) i)), NULL,
	(SELECT jsonb_agg(jsonb_build_object('S', 'k' || i)) FROM generate_series(1, 51) i)));
-- a value given 40 times (and through a parameter) is read once: one item,
-- the capacity of one read
SELECT outline(stmt(format('SELECT PK FROM pql WHERE PK IN [%s, ?]',
	(SELECT string_agg('''k7''', ', ') FROM generate_series(1, 40) i)), NULL, '[{"S": "k7"}]'));
SELECT outline(stmt('SELECT PK FROM pql WHERE PK IN [''k7'', ''k8'', ''k7'', ''k9'', ''k8'']'));

-- five items of 390,000 bytes: the first three (the response reaches 1 MB),
-- then the other two with the NextToken
SELECT outline(stmt('SELECT * FROM pql WHERE PK IN [''b1'', ''b2'', ''b3'', ''b4'', ''b5'']'));
SELECT outline(stmt('SELECT * FROM pql WHERE PK IN [''b1'', ''b2'', ''b3'', ''b4'', ''b5'']',
	stmt('SELECT * FROM pql WHERE PK IN [''b1'', ''b2'', ''b3'', ''b4'', ''b5'']') ->> 'NextToken'));
-- one of them named 50 times: read once
SELECT outline(stmt(format('SELECT * FROM pql WHERE PK IN [%s]',
	(SELECT string_agg('''b1''', ', ') FROM generate_series(1, 50) i))));

-- leave the database as found
SELECT hroe.dynamodb('DeleteTable', '{"TableName": "pql"}') -> 'TableDescription' ->> 'TableStatus' AS status;
RESET search_path;
DROP SCHEMA test_partiql_limits CASCADE;
