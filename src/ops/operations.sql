
--
-- DynamoDB operations on hroe tables (src/ops/operations.c)
--
-- The reads are VOLATILE, as the writes: each sees every write before it,
-- those made earlier in its own statement too (a STABLE function would run
-- under its statement's snapshot), under a snapshot of its own.
--

CREATE TYPE hroe.read_result AS (item hroe.item, consumed_capacity jsonb);
COMMENT ON TYPE hroe.read_result IS 'GetItem output: the item (NULL if absent) and ConsumedCapacity';
CREATE TYPE hroe.write_result AS (attributes hroe.item, consumed_capacity jsonb);
COMMENT ON TYPE hroe.write_result IS 'PutItem/DeleteItem output: Attributes (the old item with ReturnValues ALL_OLD) and ConsumedCapacity';
CREATE TYPE hroe.page AS (
	items hroe.item[],
	count integer,
	scanned_count integer,
	last_evaluated_key jsonb,
	consumed_capacity jsonb);
COMMENT ON TYPE hroe.page IS 'Query/Scan output: Items (NULL with Select COUNT), Count, ScannedCount, LastEvaluatedKey (DynamoDB JSON, NULL on the last page) and ConsumedCapacity';

CREATE FUNCTION hroe.get_item(p_table_name text, p_key jsonb, p_consistent_read boolean DEFAULT false)
RETURNS hroe.item AS 'MODULE_PATHNAME', 'hroe_get_item'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.get_item(text, jsonb, boolean) IS
'GetItem: the item with the given key (DynamoDB JSON, e.g. {"PK": {"S": "a"}, "SK": {"S": "b"}}), or NULL';

CREATE FUNCTION hroe.get_item_result(p_table_name text, p_key jsonb,
	p_consistent_read boolean DEFAULT false, p_return_consumed_capacity text DEFAULT 'TOTAL')
RETURNS hroe.read_result AS 'MODULE_PATHNAME', 'hroe_get_item_result'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.get_item_result(text, jsonb, boolean, text) IS
'GetItem with its ConsumedCapacity (max(1, ceil(size/4 KB)) read units, half for an eventually consistent read; a missing item costs 1 or 0.5)';

CREATE FUNCTION hroe.put_item(p_table_name text, p_item hroe.item,
	p_return_values text DEFAULT 'NONE', p_return_consumed_capacity text DEFAULT 'NONE',
	p_condition_expression text DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL,
	p_return_values_on_condition_check_failure text DEFAULT NULL)
RETURNS hroe.write_result AS 'MODULE_PATHNAME', 'hroe_put_item'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.put_item(text, hroe.item, text, text, text, jsonb, jsonb, text) IS
'PutItem: creates or replaces the item (under a row lock on the old version); with a ConditionExpression, only if it holds for the old item (HR002 ConditionalCheckFailed, the old item in DETAIL with ReturnValuesOnConditionCheckFailure ALL_OLD); ReturnValues NONE or ALL_OLD; capacity max(1, ceil(max(old, new)/1 KB)) plus the writes of every GSI the item enters, leaves or changes in';

CREATE FUNCTION hroe.delete_item(p_table_name text, p_key jsonb,
	p_return_values text DEFAULT 'NONE', p_return_consumed_capacity text DEFAULT 'NONE',
	p_condition_expression text DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL,
	p_return_values_on_condition_check_failure text DEFAULT NULL)
RETURNS hroe.write_result AS 'MODULE_PATHNAME', 'hroe_delete_item'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.delete_item(text, jsonb, text, text, text, jsonb, jsonb, text) IS
'DeleteItem: deletes the item with the given key; with a ConditionExpression, only if it holds for the item (HR002 ConditionalCheckFailed, the old item in DETAIL with ReturnValuesOnConditionCheckFailure ALL_OLD); ReturnValues NONE or ALL_OLD; capacity the deleted size in 1 KB units (1 if absent) plus the GSI entries removed';

CREATE FUNCTION hroe.query(p_table_name text, p_key_condition_expression text,
	p_expression_attribute_values jsonb DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_index_name text DEFAULT NULL, p_scan_index_forward boolean DEFAULT true,
	p_consistent_read boolean DEFAULT false, p_filter_expression text DEFAULT NULL,
	p_projection_expression text DEFAULT NULL)
RETURNS SETOF hroe.item AS 'MODULE_PATHNAME', 'hroe_query'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 100;
COMMENT ON FUNCTION hroe.query(text, text, jsonb, jsonb, text, boolean, boolean, text, text) IS
'Query: every item (or GSI entry) matching the KeyConditionExpression and kept by the FilterExpression (which may not use the queried key attributes), with the ProjectionExpression''s attributes (placeholders shared by the three), in sort key order (descending with p_scan_index_forward false), all pages; runs as an index range scan';

CREATE FUNCTION hroe.query_page(p_table_name text, p_key_condition_expression text,
	p_expression_attribute_values jsonb DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_index_name text DEFAULT NULL, p_scan_index_forward boolean DEFAULT true,
	p_consistent_read boolean DEFAULT false, p_limit integer DEFAULT NULL,
	p_exclusive_start_key jsonb DEFAULT NULL, p_select text DEFAULT NULL,
	p_return_consumed_capacity text DEFAULT 'NONE', p_filter_expression text DEFAULT NULL,
	p_projection_expression text DEFAULT NULL)
RETURNS hroe.page AS 'MODULE_PATHNAME', 'hroe_query_page'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.query_page(text, text, jsonb, jsonb, text, boolean, boolean, integer, jsonb, text, text, text, text) IS
'Query, one call: stops after p_limit items evaluated or 1 MB read (LastEvaluatedKey set), resumes after p_exclusive_start_key; the FilterExpression applies after the limit (Count after it, ScannedCount before), then the ProjectionExpression; Select ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES (with a projection) or COUNT; ConsumedCapacity: bytes read rounded up once to 4 KB, at least 1 unit, half when eventually consistent';

CREATE FUNCTION hroe.scan(p_table_name text, p_index_name text DEFAULT NULL,
	p_consistent_read boolean DEFAULT false, p_filter_expression text DEFAULT NULL,
	p_projection_expression text DEFAULT NULL, p_expression_attribute_values jsonb DEFAULT NULL,
	p_expression_attribute_names jsonb DEFAULT NULL)
RETURNS SETOF hroe.item AS 'MODULE_PATHNAME', 'hroe_scan'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION hroe.scan(text, text, boolean, text, text, jsonb, jsonb) IS
'Scan: every item of the table (or entry of the GSI) that the FilterExpression keeps, with the ProjectionExpression''s attributes, all pages, in key order';

CREATE FUNCTION hroe.scan_page(p_table_name text, p_index_name text DEFAULT NULL,
	p_consistent_read boolean DEFAULT false, p_limit integer DEFAULT NULL,
	p_exclusive_start_key jsonb DEFAULT NULL, p_select text DEFAULT NULL,
	p_return_consumed_capacity text DEFAULT 'NONE', p_segment integer DEFAULT NULL,
	p_total_segments integer DEFAULT NULL, p_filter_expression text DEFAULT NULL,
	p_projection_expression text DEFAULT NULL, p_expression_attribute_values jsonb DEFAULT NULL,
	p_expression_attribute_names jsonb DEFAULT NULL)
RETURNS hroe.page AS 'MODULE_PATHNAME', 'hroe_scan_page'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.scan_page(text, text, boolean, integer, jsonb, text, text, integer, integer, text, text, jsonb, jsonb) IS
'Scan, one call: Limit, the 1 MB page, ExclusiveStartKey/LastEvaluatedKey, FilterExpression, ProjectionExpression, Select and ConsumedCapacity as hroe.query_page; a parallel Scan reads segment p_segment (0-based) of p_total_segments, split by the hash of the partition key';

CREATE FUNCTION hroe.batch_get_item(p_request_items jsonb, p_return_consumed_capacity text DEFAULT 'NONE')
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_batch_get_item'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.batch_get_item(jsonb, text) IS
'BatchGetItem: {"Table": {"Keys": [...], "ConsistentRead": bool, "ProjectionExpression": "...", "ExpressionAttributeNames": {...}}, ...}, at most 100 keys, no duplicates; returns {"Responses": {...}, "UnprocessedKeys": {}, "ConsumedCapacity": [...]} (capacity rounded per item, then summed)';

CREATE FUNCTION hroe.batch_write_item(p_request_items jsonb, p_return_consumed_capacity text DEFAULT 'NONE')
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_batch_write_item'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.batch_write_item(jsonb, text) IS
'BatchWriteItem: {"Table": [{"PutRequest": {"Item": {...}}}, {"DeleteRequest": {"Key": {...}}}], ...}, 1-25 requests, no duplicate keys, each request atomic; returns {"UnprocessedItems": {}, "ConsumedCapacity": [...]}';

CREATE FUNCTION hroe.index_entry_size(p_item hroe.item, p_table_name text, p_index_name text)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_index_entry_size_sql'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.index_entry_size(hroe.item, text, text) IS
'DynamoDB size of the item''s entry in a GSI (index keys, table keys and projected attributes), NULL if the item is not in the (sparse) index';

CREATE FUNCTION hroe.read_capacity_units(p_bytes bigint, p_consistent_read boolean DEFAULT true)
RETURNS double precision AS 'MODULE_PATHNAME', 'hroe_read_capacity_units'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.read_capacity_units(bigint, boolean) IS
'Read capacity units for bytes read in one request: ceil(bytes/4 KB), at least 1, half when eventually consistent';

CREATE FUNCTION hroe.write_capacity_units(p_bytes bigint)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_write_capacity_units'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.write_capacity_units(bigint) IS
'Write capacity units for one item write of that many bytes: ceil(bytes/1 KB), at least 1';

CREATE FUNCTION hroe.write_consumed_capacity(p_table_name text, p_old hroe.item, p_new hroe.item)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_write_consumed_capacity'
LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.write_consumed_capacity(text, hroe.item, hroe.item) IS
'The ConsumedCapacity (ReturnConsumedCapacity INDEXES) that PutItem reports for replacing p_old by p_new (p_old NULL: a new item) and DeleteItem for deleting p_old (p_new NULL): the same rule the operations apply, table max(1, ceil(max(old, new)/1 KB)) plus each GSI the item enters, leaves or changes in (entry-sized, a changed index key twice); not STRICT, a NULL item is an absent one';

CREATE FUNCTION hroe.explain_query(p_table_name text, p_key_condition_expression text,
	p_expression_attribute_values jsonb DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_index_name text DEFAULT NULL, p_scan_index_forward boolean DEFAULT true,
	p_exclusive_start_key jsonb DEFAULT NULL)
RETURNS SETOF text AS 'MODULE_PATHNAME', 'hroe_explain_query'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.explain_query(text, text, jsonb, jsonb, text, boolean, jsonb) IS
'The PostgreSQL plan (EXPLAIN, COSTS OFF) of the statement hroe.query and hroe.query_page run for these arguments (with an ExclusiveStartKey, or on a table with row-level security; otherwise they read the same index range directly): the cached generic plan, an index range scan on the table''s primary key or the GSI with the key condition (parameters $1, $2, ...) in Index Cond';
