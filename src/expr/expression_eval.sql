
--
-- DynamoDB expressions evaluated over hroe.item (src/expr/expression_eval.c,
-- src/expr/expression_update.c, src/expr/expression_api.c)
--

CREATE FUNCTION hroe.condition_matches(
	p_item hroe.item,
	p_condition text,
	p_names jsonb DEFAULT NULL,
	p_values jsonb DEFAULT NULL)
RETURNS boolean
AS 'MODULE_PATHNAME', 'hroe_condition_matches'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.condition_matches(hroe.item, text, jsonb, jsonb) IS
'Evaluates a DynamoDB ConditionExpression (or FilterExpression) on an item, with ExpressionAttributeNames/Values in DynamoDB JSON; a NULL item is a missing item (every path absent, attribute_not_exists true), a NULL condition is no condition (true); invalid expressions raise DynamoDB''s errors';

CREATE FUNCTION hroe.check_condition(
	p_item hroe.item,
	p_condition text,
	p_names jsonb DEFAULT NULL,
	p_values jsonb DEFAULT NULL)
RETURNS void
AS 'MODULE_PATHNAME', 'hroe_check_condition'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.check_condition(hroe.item, text, jsonb, jsonb) IS
'Raises DynamoDB''s ConditionalCheckFailedException (SQLSTATE HR002, "The conditional request failed") unless the ConditionExpression holds for the item, as a conditional write does; a NULL item is a missing item, a NULL condition always passes';

CREATE FUNCTION hroe.apply_update(
	p_item hroe.item,
	p_update text,
	p_names jsonb DEFAULT NULL,
	p_values jsonb DEFAULT NULL,
	p_key_attributes text[] DEFAULT NULL)
RETURNS hroe.item
AS 'MODULE_PATHNAME', 'hroe_apply_update'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.apply_update(hroe.item, text, jsonb, jsonb, text[]) IS
'Applies a DynamoDB UpdateExpression (SET with + - if_not_exists list_append, REMOVE, ADD, DELETE) to an item and returns the new item; a NULL item is a missing item (UpdateItem''s upsert starts from no attributes); p_key_attributes names the key attributes an update may not touch (E18); DynamoDB''s errors, including the 400 KB limit after the update';

CREATE FUNCTION hroe.project(
	p_item hroe.item,
	p_projection text,
	p_names jsonb DEFAULT NULL)
RETURNS hroe.item
AS 'MODULE_PATHNAME', 'hroe_project_item'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.project(hroe.item, text, jsonb) IS
'The attributes of an item selected by a DynamoDB ProjectionExpression (nested paths keep their maps and lists, list elements close up in index order); NULL for a NULL item, the whole item for a NULL projection';

CREATE FUNCTION hroe.updated_attributes(
	p_item hroe.item,
	p_update text,
	p_names jsonb DEFAULT NULL,
	p_values jsonb DEFAULT NULL)
RETURNS hroe.item
AS 'MODULE_PATHNAME', 'hroe_updated_attributes'
LANGUAGE C IMMUTABLE CALLED ON NULL INPUT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.updated_attributes(hroe.item, text, jsonb, jsonb) IS
'The attributes of an item at the document paths an UpdateExpression touches, as UpdateItem''s ReturnValues UPDATED_OLD (given the old item) and UPDATED_NEW (given the new item) return them; NULL for a NULL item';
