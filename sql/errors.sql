-- hroe's SQLSTATE class HR: the C table (src/base/errors.c, hroe.dynamodb_errors())
-- and the SQL mapping of exception names (hroe.dynamodb_error) agree
SELECT sqlstate, exception, type FROM hroe.dynamodb_errors() ORDER BY sqlstate;

-- every exception raised from SQL gets the code the C table gives it
CREATE FUNCTION pg_temp.raised_code(p_exception text) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM hroe.dynamodb_error(p_exception, 'm');
	RETURN NULL;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END
$$;
SELECT e.sqlstate, e.exception, pg_temp.raised_code(e.exception) AS raised
FROM hroe.dynamodb_errors() e
WHERE pg_temp.raised_code(e.exception) IS DISTINCT FROM e.sqlstate;

-- the JSON API's __type is chosen from the SQLSTATE: a SerializationException
-- (HR007) and a ResourceNotFoundException (HR001)
SELECT hroe.dynamodb('GetItem', '{"TableName": 1}');
SELECT hroe.dynamodb('GetItem', '{"TableName": "no_such_table", "Key": {"pk": {"S": "a"}}}');
