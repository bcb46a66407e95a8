
-- ---------------------------------------------------------------------------
-- hroe.item_collection: items sharing a partition key, ordered by sort key
-- (src/types/collection.c, src/types/collection_io.c)
-- ---------------------------------------------------------------------------

CREATE TYPE hroe.item_collection;

CREATE FUNCTION hroe.item_collection_in(cstring) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_out(hroe.item_collection) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_collection_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_recv(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_send(hroe.item_collection) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_collection_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE hroe.item_collection (
	INPUT = hroe.item_collection_in,
	OUTPUT = hroe.item_collection_out,
	RECEIVE = hroe.item_collection_recv,
	SEND = hroe.item_collection_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = extended
);

COMMENT ON TYPE hroe.item_collection IS 'Items sharing a partition key, ordered by their S sort key (UTF-8 byte order), with their total DynamoDB size';
COMMENT ON FUNCTION hroe.item_collection_in(cstring) IS 'internal: I/O: [{"SortKey": {"S": "k"}, "Item": {...}}, ...] in any order to hroe.item_collection';
COMMENT ON FUNCTION hroe.item_collection_out(hroe.item_collection) IS 'internal: I/O: hroe.item_collection to a JSON array of {"SortKey", "Item"} entries in sort-key order';
COMMENT ON FUNCTION hroe.item_collection_recv(internal) IS 'internal: I/O: binary input, validated like text input';
COMMENT ON FUNCTION hroe.item_collection_send(hroe.item_collection) IS 'internal: I/O: binary output';

-- the aggregate
CREATE FUNCTION hroe.item_collection_agg_trans(internal, hroe.key, hroe.item) RETURNS internal
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_agg_final(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE hroe.item_collection_agg(hroe.key, hroe.item) (
	SFUNC = hroe.item_collection_agg_trans,
	STYPE = internal,
	FINALFUNC = hroe.item_collection_agg_final,
	PARALLEL = SAFE
);
COMMENT ON FUNCTION hroe.item_collection_agg_trans(internal, hroe.key, hroe.item) IS 'internal: Transition function of hroe.item_collection_agg';
COMMENT ON FUNCTION hroe.item_collection_agg_final(internal) IS 'internal: Final function of hroe.item_collection_agg';
COMMENT ON AGGREGATE hroe.item_collection_agg(hroe.key, hroe.item) IS 'An item collection from (sort key, item) rows in any order; rows with a NULL key or item are skipped, no rows give NULL; duplicate sort keys are an error';

-- reading
CREATE FUNCTION hroe.item_collection_items(hroe.item_collection, OUT sort_key hroe.key, OUT item hroe.item)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'hroe_item_collection_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
CREATE FUNCTION hroe.item_collection_count(hroe.item_collection) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_collection_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_size(hroe.item_collection) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_item_collection_total_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_collection_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_between' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_collection_items(hroe.item_collection) IS 'The (sort_key, item) rows of a collection, in sort-key order';
COMMENT ON FUNCTION hroe.item_collection_count(hroe.item_collection) IS 'Number of items in the collection';
COMMENT ON FUNCTION hroe.item_collection_size(hroe.item_collection) IS 'Total DynamoDB size of the collection''s items';
COMMENT ON FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) IS 'The item with that sort key (binary search); NULL if none';
COMMENT ON FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) IS 'The sub-collection whose sort keys begin with the prefix (bytewise, as begins_with)';
COMMENT ON FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) IS 'The sub-collection whose sort keys lie between two keys, both included (as BETWEEN)';

-- embedding ("embed the children in the parent")
CREATE FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_embed_collection' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_from_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) IS 'The parent item with an attribute holding the collection as an L of M in sort-key order (400 KB checked)';
COMMENT ON FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) IS 'A collection from an L of M at a path, each element''s S attribute of the given name being its sort key; NULL if the path is missing';
