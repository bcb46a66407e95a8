--
-- hroe.item: DynamoDB JSON input and canonical output, every type
--
CREATE SCHEMA test_item;
SET search_path = test_item, public, hroe;

-- the form the AWS CLI prints
SELECT '{"PK": {"S": "HR-EMPLOYEE#1"}, "Qty": {"N": "5"}}'::hroe.item;

-- every type; attributes come out sorted by name bytes, sets sorted
SELECT '{"s": {"S": "text"}, "n": {"N": "42"}, "b": {"B": "aGVsbG8="},
         "t": {"BOOL": true}, "f": {"BOOL": false}, "z": {"NULL": true},
         "l": {"L": [{"S": "a"}, {"N": "1"}, {"L": []}, {"M": {}}]},
         "m": {"M": {"y": {"S": "why"}, "x": {"N": "-1"}}},
         "ss": {"SS": ["pear", "apple", "fig"]},
         "ns": {"NS": ["10", "9", "-1.5", "0.25"]},
         "bs": {"BS": ["/w==", "AA==", "AAE=", "fw=="]}}'::hroe.item;

-- canonical text is stable: output parses back to the same item and text
CREATE TABLE item_samples (id int, it hroe.item);
INSERT INTO item_samples VALUES
 (1, '{}'),
 (2, '{"a": {"S": ""}}'),
 (3, '{"nested": {"M": {"l": {"L": [{"M": {"deep": {"L": [{"NULL": true}, {"BOOL": false}]}}}, {"SS": ["x"]}]}, "n": {"NS": ["1"]}}}}'),
 (4, '{"bin": {"B": ""}, "bs": {"BS": [""]}, "b2": {"B": "AAEC/w=="}}'),
 (5, '{"é": {"S": "café 😀 \uffff ÿ"}, "esc": {"S": "quote \" backslash \\ slash \/ nl \n tab \t cr \r bs \b ff \f ctl \u0001 \u001f"}}'),
 (6, '{"u": {"S": "\u00e9\ud83d\ude00\u4e2d"}}'),
 (7, '{"A": {"N": "1"}, "B": {"N": "1"}, "Z": {"N": "1"}, "_": {"N": "1"}, "a": {"N": "1"}, "a#1": {"N": "1"}, "a#10": {"N": "1"}, "a#2": {"N": "1"}, "~": {"N": "1"}, "é": {"N": "1"}, "😀": {"N": "1"}, "\uffff": {"N": "1"}}'),
 (8, '  { "ws" : { "L" : [ { "N" : "1" } , { "S" : "x" } ] } }  ');
SELECT id, it FROM item_samples ORDER BY id;
SELECT id, it::text::hroe.item = it AS same_item, it::text::hroe.item::text = it::text AS same_text
FROM item_samples ORDER BY id;

-- numbers are normalised as DynamoDB normalises them
SELECT n AS input, hroe.item_get_attribute(('{"n": {"N": "' || n || '"}}')::hroe.item, 'n') AS stored
FROM (VALUES ('1e2'), ('100.000'), ('007'), ('1E-3'), ('1.5E+3'), ('-0'), ('-0.000e5'), ('0'),
             ('.5'), ('5.'), ('-.5e1'), ('1e+2'), ('12.340'), ('0.000120'), ('120e-1'),
             ('12345678901234567890123456789012345678'),
             ('12345678901234567890123456789012345678000'),
             ('0.00012345678901234567890123456789012345678'),
             ('9.9999999999999999999999999999999999999E+125'),
             ('-9.9999999999999999999999999999999999999E+125'),
             ('1E-130'), ('-1E-130'), ('1E125'), ('0e999999999999'), ('00000000000000000000000000000000000000000001')) AS v(n);

-- equal numbers are equal items; NS compares numerically
SELECT '{"n": {"N": "1e2"}}'::hroe.item = '{"n": {"N": "100.000"}}'::hroe.item AS equal_numbers,
       '{"n": {"NS": ["1", "10", "2", "-3", "0.5"]}}'::hroe.item AS ns_order;

-- NULL:true only; empty S and B are allowed in non-key attributes
SELECT '{"z": {"NULL": true}, "s": {"S": ""}, "b": {"B": ""}}'::hroe.item;

-- arrays and sets keep members; L keeps its order, sets are sorted
SELECT '{"l": {"L": [{"N": "3"}, {"N": "1"}, {"N": "2"}]}, "ss": {"SS": ["b", "a", "c"]}}'::hroe.item;

-- equality, inequality, hashing (DISTINCT by hash)
SELECT '{"a": {"S": "x"}, "b": {"N": "1"}}'::hroe.item = '{"b": {"N": "1.0"}, "a": {"S": "x"}}'::hroe.item AS eq,
       '{"a": {"S": "x"}}'::hroe.item <> '{"a": {"S": "y"}}'::hroe.item AS ne;
SET enable_sort = off;
SELECT count(*) FROM (SELECT DISTINCT it FROM (SELECT it FROM item_samples UNION ALL SELECT it FROM item_samples) u) s;
SELECT it, count(*) FROM (SELECT it FROM item_samples WHERE id < 3 UNION ALL SELECT it FROM item_samples WHERE id < 3) s GROUP BY it ORDER BY 2, 1::text;
RESET enable_sort;

-- binary send/recv round trip through COPY BINARY
SELECT '/tmp/hroe_item_' || pg_backend_pid() || '.bin' AS binfile \gset
COPY item_samples TO :'binfile' WITH (FORMAT binary);
CREATE TABLE item_copy (LIKE item_samples);
COPY item_copy FROM :'binfile' WITH (FORMAT binary);
SELECT s.id, s.it = c.it AS same FROM item_samples s JOIN item_copy c USING (id) ORDER BY s.id;
SELECT hroe.item_send('{"a": {"N": "5"}}');

-- recv validates everything input validates: forge binary values with a
-- bytea column, then read them back into an item column
CREATE TABLE forged (b bytea);
CREATE TABLE forged_item (it hroe.item);
CREATE FUNCTION try_recv(b bytea) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	TRUNCATE forged, forged_item;
	INSERT INTO forged VALUES (b);
	EXECUTE format('COPY forged TO %L WITH (FORMAT binary)', current_setting('hroe_test.binfile'));
	EXECUTE format('COPY forged_item FROM %L WITH (FORMAT binary)', current_setting('hroe_test.binfile'));
	RETURN (SELECT it::text FROM forged_item);
EXCEPTION WHEN OTHERS THEN
	DECLARE
		d text;
	BEGIN
		GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ': ' || SQLERRM || coalesce(' (' || nullif(d, '') || ')', '');
	END;
END $$;
SELECT set_config('hroe_test.binfile', :'binfile', false) IS NOT NULL AS ok;
-- a valid value
SELECT try_recv(hroe.item_send('{"a": {"N": "5"}, "b": {"SS": ["x", "y"]}}'));
-- wrong version byte
SELECT try_recv(set_byte(hroe.item_send('{"a": {"N": "5"}}'), 0, 2));
-- wrong size field
SELECT try_recv(set_byte(hroe.item_send('{"a": {"N": "5"}}'), 4, 9));
-- truncated
SELECT try_recv(substring(hroe.item_send('{"a": {"N": "5"}}') from 1 for 10));
SELECT try_recv('\x01'::bytea);
-- a non-canonical number ("05")
SELECT try_recv('\x0100000003000000010000000c0000000d00000061023035');
-- a number out of range ("1e999")
SELECT try_recv('\x0100000003000000010000000c0000000d00000061023165393939');
-- unknown type tag
SELECT try_recv(set_byte(hroe.item_send('{"a": {"N": "5"}}'), 21, 99));
-- invalid UTF-8 in a string
SELECT try_recv(set_byte(hroe.item_send('{"a": {"S": "x"}}'), 22, 255));
-- U+0000 in a string: a character like any other (as in DynamoDB)
SELECT try_recv(set_byte(hroe.item_send('{"a": {"S": "x"}}'), 22, 0));
-- attributes out of order (swap names "a" and "b")
SELECT try_recv(set_byte(set_byte(hroe.item_send('{"a": {"N": "1"}, "b": {"N": "1"}}'), 28, 98), 29, 97));
-- duplicate attribute names
SELECT try_recv(set_byte(hroe.item_send('{"a": {"N": "1"}, "b": {"N": "1"}}'), 29, 97));
-- the names and values of a map must tile its payload
SELECT hroe.item_send('{"a": {"N": "1"}, "b": {"N": "1"}}');
SELECT try_recv(set_byte(hroe.item_send('{"a": {"N": "1"}, "b": {"N": "1"}}'), 20, 30));
-- duplicate set members
SELECT try_recv(set_byte(hroe.item_send('{"a": {"SS": ["x", "y"]}}'), 35, 120));
-- huge element count
SELECT try_recv(set_byte(hroe.item_send('{"a": {"L": []}}'), 25, 255));

RESET search_path;
DROP SCHEMA test_item CASCADE;
