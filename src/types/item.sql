
-- ---------------------------------------------------------------------------
-- hroe.item: a DynamoDB item (src/types/item.c and the item core, src/item_*.c)
-- ---------------------------------------------------------------------------

CREATE TYPE hroe.item;

CREATE FUNCTION hroe.item_in(cstring) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_out(hroe.item) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_recv(internal) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_send(hroe.item) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE hroe.item (
	INPUT = hroe.item_in,
	OUTPUT = hroe.item_out,
	RECEIVE = hroe.item_recv,
	SEND = hroe.item_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = extended
);

COMMENT ON TYPE hroe.item IS 'A DynamoDB item: typed attributes (S N B BOOL NULL L M SS NS BS) in a compact binary form, read and written as DynamoDB JSON, that knows its DynamoDB size';
COMMENT ON FUNCTION hroe.item_in(cstring) IS 'internal: I/O: DynamoDB JSON to hroe.item, validated as DynamoDB validates';
COMMENT ON FUNCTION hroe.item_out(hroe.item) IS 'internal: I/O: hroe.item to canonical DynamoDB JSON';
COMMENT ON FUNCTION hroe.item_recv(internal) IS 'internal: I/O: binary input, validated like text input';
COMMENT ON FUNCTION hroe.item_send(hroe.item) IS 'internal: I/O: binary output (version byte, size, attribute directory)';

-- equality on the canonical form
CREATE FUNCTION hroe.item_eq(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_ne(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_hash(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_eq(hroe.item, hroe.item) IS 'internal: Whether two items are equal (same attributes, same canonical values)';
COMMENT ON FUNCTION hroe.item_ne(hroe.item, hroe.item) IS 'internal: Whether two items differ';
COMMENT ON FUNCTION hroe.item_hash(hroe.item) IS 'internal: Hash of an item''s canonical form';

CREATE OPERATOR hroe.= (
	LEFTARG = hroe.item, RIGHTARG = hroe.item, FUNCTION = hroe.item_eq,
	COMMUTATOR = OPERATOR(hroe.=), NEGATOR = OPERATOR(hroe.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES
);
CREATE OPERATOR hroe.<> (
	LEFTARG = hroe.item, RIGHTARG = hroe.item, FUNCTION = hroe.item_ne,
	COMMUTATOR = OPERATOR(hroe.<>), NEGATOR = OPERATOR(hroe.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
COMMENT ON OPERATOR hroe.= (hroe.item, hroe.item) IS 'Items are equal';
COMMENT ON OPERATOR hroe.<> (hroe.item, hroe.item) IS 'Items differ';

CREATE OPERATOR CLASS hroe.item_hash_ops DEFAULT FOR TYPE hroe.item USING hash AS
	OPERATOR 1 hroe.= (hroe.item, hroe.item),
	FUNCTION 1 hroe.item_hash(hroe.item);

-- size
CREATE FUNCTION hroe.item_size(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_size_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_size(hroe.item) IS 'The item''s DynamoDB size in bytes (UTF-8 names and strings, base-100 numbers), computed on input';

-- conversions
CREATE FUNCTION hroe.item_to_jsonb(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_from_jsonb(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_cast_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_to_document(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_from_document(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_from_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_to_jsonb(hroe.item) IS 'internal: The item as DynamoDB JSON in jsonb ({"PK": {"S": "x"}})';
COMMENT ON FUNCTION hroe.item_from_jsonb(jsonb) IS 'internal: An item from DynamoDB JSON in jsonb, validated like text input';
COMMENT ON FUNCTION hroe.item_to_document(hroe.item) IS 'The item as a plain JSON document (S string, N number, B base64 string, BOOL, NULL null, L and sets arrays, M object)';
COMMENT ON FUNCTION hroe.item_from_document(jsonb) IS 'An item from a plain JSON document (string S, number N, boolean BOOL, null NULL, array L, object M)';

CREATE CAST (hroe.item AS jsonb) WITH FUNCTION hroe.item_to_jsonb(hroe.item);
CREATE CAST (jsonb AS hroe.item) WITH FUNCTION hroe.item_from_jsonb(jsonb);

-- access
CREATE FUNCTION hroe.item_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_path_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_path_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_attribute(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_type(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_text(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_key(hroe.item, text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_item_get_key' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_number(hroe.item, text) RETURNS numeric
	AS 'MODULE_PATHNAME', 'hroe_item_get_number' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_binary(hroe.item, text) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_get_binary' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_bool(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_get_bool' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_attributes(hroe.item) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_item_attributes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_exists(hroe.item, text) IS 'Whether the item has a top-level attribute of that name';
COMMENT ON FUNCTION hroe.item_path_exists(hroe.item, text) IS 'Whether a document path (a.b[2].c) exists in the item';
COMMENT ON FUNCTION hroe.item_get_attribute(hroe.item, text) IS 'A top-level attribute''s value as DynamoDB JSON ({"N": "5"}); NULL if missing';
COMMENT ON FUNCTION hroe.item_get(hroe.item, text) IS 'The value at a document path (a.b[2].c) as DynamoDB JSON; NULL if missing';
COMMENT ON FUNCTION hroe.item_get_type(hroe.item, text) IS 'The DynamoDB type (S, N, B, BOOL, NULL, L, M, SS, NS, BS) of the value at a path; NULL if missing';
COMMENT ON FUNCTION hroe.item_get_text(hroe.item, text) IS 'The S value at a path as text; NULL if missing, an error if of another type';
COMMENT ON FUNCTION hroe.item_get_key(hroe.item, text) IS 'The S value at a path as hroe.key, as the key columns hold it (U+0000 and U+0001 escaped, DynamoDB''s order kept); NULL if missing, an error if of another type or not a valid key';
COMMENT ON FUNCTION hroe.item_get_number(hroe.item, text) IS 'The N value at a path as numeric; NULL if missing, an error if of another type';
COMMENT ON FUNCTION hroe.item_get_binary(hroe.item, text) IS 'The B value at a path as bytea; NULL if missing, an error if of another type';
COMMENT ON FUNCTION hroe.item_get_bool(hroe.item, text) IS 'The BOOL value at a path as boolean; NULL if missing, an error if of another type';
COMMENT ON FUNCTION hroe.item_attributes(hroe.item) IS 'The top-level attribute names in canonical (UTF-8 byte) order';

-- An L of S values as text[], for the models' phone lists (SQL over the C
-- accessors: each element goes through hroe.item_get_text, so a non-S
-- element is an error rather than a NULL)
CREATE FUNCTION hroe.item_get_string_list(p_item hroe.item, p_path text)
RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT ARRAY(
	SELECT hroe.item_get_text(p_item, p_path OPERATOR(pg_catalog.||) '['
			   OPERATOR(pg_catalog.||) (e.n OPERATOR(pg_catalog.-) 1)::pg_catalog.text OPERATOR(pg_catalog.||) ']')
	FROM pg_catalog.generate_series(1, pg_catalog.jsonb_array_length(
			 hroe.item_get(p_item, p_path) OPERATOR(pg_catalog.->) 'L')) AS e (n)
	ORDER BY e.n)
$$;
COMMENT ON FUNCTION hroe.item_get_string_list(hroe.item, text) IS 'The L value at a path, every element an S, as text[] in list order (all of it, however long); empty when missing or not a list, an error for an element of another type';

CREATE OPERATOR hroe.? (
	LEFTARG = hroe.item, RIGHTARG = text, FUNCTION = hroe.item_exists
);
CREATE OPERATOR hroe.-> (
	LEFTARG = hroe.item, RIGHTARG = text, FUNCTION = hroe.item_get_attribute
);
CREATE OPERATOR hroe.#> (
	LEFTARG = hroe.item, RIGHTARG = text, FUNCTION = hroe.item_get
);
COMMENT ON OPERATOR hroe.? (hroe.item, text) IS 'Item has the top-level attribute';
COMMENT ON OPERATOR hroe.-> (hroe.item, text) IS 'Top-level attribute as DynamoDB JSON';
COMMENT ON OPERATOR hroe.#> (hroe.item, text) IS 'Value at a document path (a.b[2].c) as DynamoDB JSON';

-- merge and remove
CREATE FUNCTION hroe.item_merge(hroe.item, hroe.item) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_merge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_set(hroe.item, text, jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_set' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_remove(hroe.item, VARIADIC text[]) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_remove_attribute(hroe.item, text) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove_one' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_merge(hroe.item, hroe.item) IS 'All attributes of both items; the second item''s value wins for a name in both (400 KB checked)';
COMMENT ON FUNCTION hroe.item_set(hroe.item, text, jsonb) IS 'The item with a top-level attribute set (added or replaced) from a DynamoDB-JSON AttributeValue such as {"N": "5"} (validated, 400 KB checked)';
COMMENT ON FUNCTION hroe.item_remove(hroe.item, text[]) IS 'The item without the named top-level attributes (missing names are ignored)';
COMMENT ON FUNCTION hroe.item_remove_attribute(hroe.item, text) IS 'internal: The item without the named top-level attribute';

CREATE OPERATOR hroe.|| (
	LEFTARG = hroe.item, RIGHTARG = hroe.item, FUNCTION = hroe.item_merge
);
CREATE OPERATOR hroe.- (
	LEFTARG = hroe.item, RIGHTARG = text, FUNCTION = hroe.item_remove_attribute
);
CREATE OPERATOR hroe.- (
	LEFTARG = hroe.item, RIGHTARG = text[], FUNCTION = hroe.item_remove
);
COMMENT ON OPERATOR hroe.|| (hroe.item, hroe.item) IS 'Merge items (right wins)';
COMMENT ON OPERATOR hroe.- (hroe.item, text) IS 'Remove an attribute';
COMMENT ON OPERATOR hroe.- (hroe.item, text[]) IS 'Remove attributes';
COMMENT ON OPERATOR CLASS hroe.item_hash_ops USING hash IS 'Hash equality of items (GROUP BY, DISTINCT, hash joins)';
