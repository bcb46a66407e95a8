
--
-- DynamoDB expressions (src/expression_*.c)
--

CREATE FUNCTION hroe.explain_key_condition(
	p_key_condition_expression text,
	p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL)
RETURNS TABLE (attribute_name text, operator text, operands jsonb)
AS 'MODULE_PATHNAME', 'hroe_explain_key_condition'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.explain_key_condition(text, jsonb, jsonb) IS
'Parses and validates a DynamoDB KeyConditionExpression with its ExpressionAttributeNames/Values (DynamoDB JSON), raising DynamoDB''s errors; returns one row per key condition (attribute, operator, operand AttributeValues), with "<" written as "attr < :v" whichever side the attribute was on';
