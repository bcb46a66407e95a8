-- hroe's SQLSTATE class HR: the C table (src/base/errors.c, hroe.dynamodb_errors()),
-- and the code hroe.dynamodb_error raises for each exception name (listed here,
-- so that a wrong or missing mapping changes this file's output)
CREATE FUNCTION pg_temp.raised_code(p_exception text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM hroe.dynamodb_error(p_exception, 'm');
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;
SELECT sqlstate, exception, type, pg_temp.raised_code(exception) AS raised
FROM hroe.dynamodb_errors() ORDER BY sqlstate;
-- a name the table does not have: the class's generic code
SELECT pg_temp.raised_code('NoSuchException') AS unknown_name;

-- the JSON API's __type is chosen from the SQLSTATE: a SerializationException
-- (HR007) and a ResourceNotFoundException (HR001)
SELECT hroe.dynamodb('GetItem', '{"TableName": 1}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "no_such_table", "Key": {"pk": {"S": "a"}}}');
