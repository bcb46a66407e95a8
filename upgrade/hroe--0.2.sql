-- hroe--0.2.sql: the install script of release 0.2, as released (assembled then from the src/ and models/ pieces listed in SCRIPT_PARTS)

\echo Use "CREATE EXTENSION hroe" to load this file. \quit

-- DynamoDB strings are UTF-8, and hroe's keys and items store them as such.
DO $$
BEGIN
	IF pg_catalog.getdatabaseencoding() OPERATOR(pg_catalog.<>) 'UTF8' THEN
		RAISE EXCEPTION 'hroe requires a database with UTF8 encoding'
			USING ERRCODE = 'feature_not_supported',
				  DETAIL = pg_catalog.format('Database "%s" has encoding %s; DynamoDB strings are UTF-8.',
											 pg_catalog.current_database(),
											 pg_catalog.getdatabaseencoding()),
				  HINT = 'Create a UTF8 database (CREATE DATABASE ... ENCODING ''UTF8'' TEMPLATE template0) and install hroe there.';
	END IF;
END
$$;

COMMENT ON SCHEMA hroe IS 'hroe: DynamoDB single-table design in PostgreSQL (types, tables, operations, sharding, comparison)';

-- ---------------------------------------------------------------------
-- hroe.key: a DynamoDB string key, possibly composite (levels joined by
-- '#'), ordered as DynamoDB orders strings (src/key.c, src/key_support.c)
-- ---------------------------------------------------------------------

CREATE TYPE hroe.key;

CREATE FUNCTION hroe.key_in(cstring) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_out(hroe.key) RETURNS cstring
	AS 'MODULE_PATHNAME', 'key_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_recv(internal) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_send(hroe.key) RETURNS bytea
	AS 'MODULE_PATHNAME', 'key_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Stored exactly like text (same header, same bytes, same alignment), so the
-- cast to text is binary-coercible.  Not collatable: the order is fixed.
CREATE TYPE hroe.key (
	INPUT = hroe.key_in,
	OUTPUT = hroe.key_out,
	RECEIVE = hroe.key_recv,
	SEND = hroe.key_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = extended
);

COMMENT ON TYPE hroe.key IS 'DynamoDB string key: non-empty UTF-8 of at most 2048 bytes, levels joined by #, ordered by unsigned bytes whatever the collation';
COMMENT ON FUNCTION hroe.key_in(cstring) IS 'internal: I/O: hroe.key from its text form (the string itself)';
COMMENT ON FUNCTION hroe.key_out(hroe.key) IS 'internal: I/O: the text form of a hroe.key (the string itself)';
COMMENT ON FUNCTION hroe.key_recv(internal) IS 'internal: I/O: hroe.key from binary (version byte 1, then UTF-8 bytes), validated like input';
COMMENT ON FUNCTION hroe.key_send(hroe.key) IS 'internal: I/O: binary form of a hroe.key (version byte 1, then UTF-8 bytes)';

-- Comparison, in DynamoDB's order: unsigned bytes, a proper prefix first.
CREATE FUNCTION hroe.key_eq(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_ne(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_lt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_le(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_gt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_ge(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_cmp(hroe.key, hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'key_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'key_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_hash(hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'key_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_hash_extended(hroe.key, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'key_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_larger(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_smaller(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.key_eq(hroe.key, hroe.key) IS 'internal: implementation of = for hroe.key (byte equality)';
COMMENT ON FUNCTION hroe.key_ne(hroe.key, hroe.key) IS 'internal: implementation of <> for hroe.key';
COMMENT ON FUNCTION hroe.key_lt(hroe.key, hroe.key) IS 'internal: implementation of < for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_le(hroe.key, hroe.key) IS 'internal: implementation of <= for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_gt(hroe.key, hroe.key) IS 'internal: implementation of > for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_ge(hroe.key, hroe.key) IS 'internal: implementation of >= for hroe.key (DynamoDB order)';
COMMENT ON FUNCTION hroe.key_cmp(hroe.key, hroe.key) IS 'internal: btree support: -1, 0 or 1 in DynamoDB order (unsigned UTF-8 bytes)';
COMMENT ON FUNCTION hroe.key_sortsupport(internal) IS 'internal: btree support: sort support with abbreviated keys';
COMMENT ON FUNCTION hroe.key_hash(hroe.key) IS 'internal: hash support: 32-bit hash of the key bytes';
COMMENT ON FUNCTION hroe.key_hash_extended(hroe.key, bigint) IS 'internal: hash support: seeded 64-bit hash of the key bytes (hash partitioning)';
COMMENT ON FUNCTION hroe.key_larger(hroe.key, hroe.key) IS 'internal: the greater of two keys in DynamoDB order (for max)';
COMMENT ON FUNCTION hroe.key_smaller(hroe.key, hroe.key) IS 'internal: the lesser of two keys in DynamoDB order (for min)';

-- begins_with and the component ancestor / descendant tests; their planner
-- support turns them into exact btree ranges and estimates them.
CREATE FUNCTION hroe.key_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'key_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_match_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME', 'key_match_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_begins_with(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_is_ancestor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'key_is_descendant' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;

-- Run-time bounds of the index ranges (used when the operand is not a
-- constant, e.g. a parameter of a generic plan); each returns a valid key.
CREATE FUNCTION hroe.key_prefix_max(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_prefix_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_descendant_lower(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_descendant_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_descendant_upper(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_descendant_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.key_support(internal) IS 'internal: planner support of ^@, @> and <@: exact btree index ranges and selectivity';
COMMENT ON FUNCTION hroe.key_match_sel(internal, oid, internal, integer) IS 'internal: restriction selectivity of ^@, @> and <@ (as the key range they match)';
COMMENT ON FUNCTION hroe.key_begins_with(hroe.key, hroe.key) IS 'internal: DynamoDB begins_with: does the first key begin with the bytes of the second? (operator ^@)';
COMMENT ON FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) IS 'internal: is the first key a strict ancestor of the second (the second begins with the first || ''#'')? (operator @>)';
COMMENT ON FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) IS 'internal: is the first key a strict descendant of the second (it begins with the second || ''#'')? (operator <@)';
COMMENT ON FUNCTION hroe.key_prefix_max(hroe.key) IS 'planner helper: the greatest valid key that begins with the given prefix (upper bound of ^@ ranges)';
COMMENT ON FUNCTION hroe.key_descendant_lower(hroe.key) IS 'planner helper: the least possible strict descendant of a key, key || ''#'' (lower bound of <@ ranges)';
COMMENT ON FUNCTION hroe.key_descendant_upper(hroe.key) IS 'planner helper: key || ''$'', above every strict descendant of the key (exclusive upper bound of <@ ranges)';

CREATE OPERATOR hroe.= (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_eq,
	COMMUTATOR = OPERATOR(hroe.=), NEGATOR = OPERATOR(hroe.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
	HASHES, MERGES
);
CREATE OPERATOR hroe.<> (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_ne,
	COMMUTATOR = OPERATOR(hroe.<>), NEGATOR = OPERATOR(hroe.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);
CREATE OPERATOR hroe.< (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_lt,
	COMMUTATOR = OPERATOR(hroe.>), NEGATOR = OPERATOR(hroe.>=),
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);
CREATE OPERATOR hroe.<= (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_le,
	COMMUTATOR = OPERATOR(hroe.>=), NEGATOR = OPERATOR(hroe.>),
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);
CREATE OPERATOR hroe.> (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_gt,
	COMMUTATOR = OPERATOR(hroe.<), NEGATOR = OPERATOR(hroe.<=),
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);
CREATE OPERATOR hroe.>= (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_ge,
	COMMUTATOR = OPERATOR(hroe.<=), NEGATOR = OPERATOR(hroe.<),
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);
CREATE OPERATOR hroe.^@ (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_begins_with,
	RESTRICT = hroe.key_match_sel, JOIN = pg_catalog.matchingjoinsel
);
CREATE OPERATOR hroe.@> (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_is_ancestor,
	COMMUTATOR = OPERATOR(hroe.<@),
	RESTRICT = hroe.key_match_sel, JOIN = pg_catalog.matchingjoinsel
);
CREATE OPERATOR hroe.<@ (
	LEFTARG = hroe.key, RIGHTARG = hroe.key, FUNCTION = hroe.key_is_descendant,
	COMMUTATOR = OPERATOR(hroe.@>),
	RESTRICT = hroe.key_match_sel, JOIN = pg_catalog.matchingjoinsel
);

COMMENT ON OPERATOR hroe.=(hroe.key, hroe.key) IS 'keys are equal (same bytes)';
COMMENT ON OPERATOR hroe.<>(hroe.key, hroe.key) IS 'keys differ';
COMMENT ON OPERATOR hroe.<(hroe.key, hroe.key) IS 'sorts before, in DynamoDB order (unsigned UTF-8 bytes)';
COMMENT ON OPERATOR hroe.<=(hroe.key, hroe.key) IS 'sorts before or equal, in DynamoDB order';
COMMENT ON OPERATOR hroe.>(hroe.key, hroe.key) IS 'sorts after, in DynamoDB order';
COMMENT ON OPERATOR hroe.>=(hroe.key, hroe.key) IS 'sorts after or equal, in DynamoDB order';
COMMENT ON OPERATOR hroe.^@(hroe.key, hroe.key) IS 'DynamoDB begins_with: the left key begins with the bytes of the right one; indexable as a btree range';
COMMENT ON OPERATOR hroe.@>(hroe.key, hroe.key) IS 'strict component ancestor: the right key begins with the left one || ''#''; indexable as a btree range';
COMMENT ON OPERATOR hroe.<@(hroe.key, hroe.key) IS 'strict component descendant: the left key begins with the right one || ''#''; indexable as a btree range';

CREATE AGGREGATE hroe.min(hroe.key) (
	SFUNC = hroe.key_smaller, STYPE = hroe.key,
	SORTOP = OPERATOR(hroe.<), COMBINEFUNC = hroe.key_smaller, PARALLEL = SAFE
);
CREATE AGGREGATE hroe.max(hroe.key) (
	SFUNC = hroe.key_larger, STYPE = hroe.key,
	SORTOP = OPERATOR(hroe.>), COMBINEFUNC = hroe.key_larger, PARALLEL = SAFE
);
COMMENT ON AGGREGATE hroe.min(hroe.key) IS 'the least key in DynamoDB order';
COMMENT ON AGGREGATE hroe.max(hroe.key) IS 'the greatest key in DynamoDB order';

CREATE OPERATOR CLASS hroe.key_ops DEFAULT FOR TYPE hroe.key USING btree AS
	OPERATOR 1 hroe.<,
	OPERATOR 2 hroe.<=,
	OPERATOR 3 hroe.=,
	OPERATOR 4 hroe.>=,
	OPERATOR 5 hroe.>,
	FUNCTION 1 hroe.key_cmp(hroe.key, hroe.key),
	FUNCTION 2 hroe.key_sortsupport(internal),
	FUNCTION 4 pg_catalog.btequalimage(oid);
CREATE OPERATOR CLASS hroe.key_ops DEFAULT FOR TYPE hroe.key USING hash AS
	OPERATOR 1 hroe.=,
	FUNCTION 1 hroe.key_hash(hroe.key),
	FUNCTION 2 hroe.key_hash_extended(hroe.key, bigint);
COMMENT ON OPERATOR CLASS hroe.key_ops USING btree IS 'DynamoDB order of hroe.key (unsigned UTF-8 bytes), with sort support and deduplication';
COMMENT ON OPERATOR CLASS hroe.key_ops USING hash IS 'hashing of hroe.key (hash indexes, hash joins, hash partitioning)';

-- Casts.  hroe.key -> text relabels the bytes (assignment, not implicit, so
-- that comparing a key with text never silently falls back to the text
-- collation); text -> hroe.key validates, and is implicit, so that mixing a
-- key with text compares in DynamoDB order.
CREATE FUNCTION hroe.key_from_text(text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.key_from_text(text) IS 'internal: cast text to hroe.key, validating it (non-empty, at most 2048 bytes)';
CREATE CAST (hroe.key AS text) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (text AS hroe.key) WITH FUNCTION hroe.key_from_text(text) AS IMPLICIT;

-- Composite keys
CREATE FUNCTION hroe.key(VARIADIC components text[]) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_build' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_split(k hroe.key) RETURNS text[]
	AS 'MODULE_PATHNAME', 'key_split' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_component(k hroe.key, n integer) RETURNS text
	AS 'MODULE_PATHNAME', 'key_component' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_levels(k hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'key_levels' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_prefix(k hroe.key, n integer) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_append(k hroe.key, component text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'key_append' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.key(text[]) IS 'build a composite key: the components joined by #; a component containing # is an error';
COMMENT ON FUNCTION hroe.key_split(hroe.key) IS 'the components (levels) of a key, split at #; empty levels are kept';
COMMENT ON FUNCTION hroe.key_component(hroe.key, integer) IS 'the n-th level of a key (1-based; negative counts from the end); NULL when there is none';
COMMENT ON FUNCTION hroe.key_levels(hroe.key) IS 'the number of levels of a key (number of # plus one)';
COMMENT ON FUNCTION hroe.key_prefix(hroe.key, integer) IS 'the first n levels of a key (negative n: all but the last -n levels)';
COMMENT ON FUNCTION hroe.key_append(hroe.key, text) IS 'append a level: key || ''#'' || component';

-- ---------------------------------------------------------------------------
-- hroe.item: a DynamoDB item (src/item.c and the item core, src/item_*.c)
-- ---------------------------------------------------------------------------

CREATE TYPE hroe.item;

CREATE FUNCTION hroe.item_in(cstring) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_out(hroe.item) RETURNS cstring
	AS 'MODULE_PATHNAME', 'item_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_recv(internal) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_send(hroe.item) RETURNS bytea
	AS 'MODULE_PATHNAME', 'item_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
	AS 'MODULE_PATHNAME', 'item_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_ne(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'item_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_hash(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'item_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
	AS 'MODULE_PATHNAME', 'item_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_size(hroe.item) IS 'The item''s DynamoDB size in bytes (UTF-8 names and strings, base-100 numbers), computed on input';

-- conversions
CREATE FUNCTION hroe.item_to_jsonb(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'item_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_from_jsonb(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_to_document(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'item_to_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_from_document(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_from_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_to_jsonb(hroe.item) IS 'internal: The item as DynamoDB JSON in jsonb ({"PK": {"S": "x"}})';
COMMENT ON FUNCTION hroe.item_from_jsonb(jsonb) IS 'internal: An item from DynamoDB JSON in jsonb, validated like text input';
COMMENT ON FUNCTION hroe.item_to_document(hroe.item) IS 'The item as a plain JSON document (S string, N number, B base64 string, BOOL, NULL null, L and sets arrays, M object)';
COMMENT ON FUNCTION hroe.item_from_document(jsonb) IS 'An item from a plain JSON document (string S, number N, boolean BOOL, null NULL, array L, object M)';

CREATE CAST (hroe.item AS jsonb) WITH FUNCTION hroe.item_to_jsonb(hroe.item);
CREATE CAST (jsonb AS hroe.item) WITH FUNCTION hroe.item_from_jsonb(jsonb);

-- access
CREATE FUNCTION hroe.item_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'item_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_path_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'item_path_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_attribute(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'item_get_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'item_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_type(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'item_get_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_text(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'item_get_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_key(hroe.item, text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'item_get_key' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_number(hroe.item, text) RETURNS numeric
	AS 'MODULE_PATHNAME', 'item_get_number' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_binary(hroe.item, text) RETURNS bytea
	AS 'MODULE_PATHNAME', 'item_get_binary' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_get_bool(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'item_get_bool' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_attributes(hroe.item) RETURNS text[]
	AS 'MODULE_PATHNAME', 'item_attributes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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
	AS 'MODULE_PATHNAME', 'item_merge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_set(hroe.item, text, jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_set' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_remove(hroe.item, VARIADIC text[]) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_remove_attribute(hroe.item, text) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_remove_one' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
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

-- ---------------------------------------------------------------------------
-- hroe.item_collection: items sharing a partition key, ordered by sort key
-- (src/collection.c, src/collection_io.c)
-- ---------------------------------------------------------------------------

CREATE TYPE hroe.item_collection;

CREATE FUNCTION hroe.item_collection_in(cstring) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_out(hroe.item_collection) RETURNS cstring
	AS 'MODULE_PATHNAME', 'item_collection_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_recv(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_send(hroe.item_collection) RETURNS bytea
	AS 'MODULE_PATHNAME', 'item_collection_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
	AS 'MODULE_PATHNAME', 'item_collection_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_agg_final(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
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
	AS 'MODULE_PATHNAME', 'item_collection_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
CREATE FUNCTION hroe.item_collection_count(hroe.item_collection) RETURNS integer
	AS 'MODULE_PATHNAME', 'item_collection_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_size(hroe.item_collection) RETURNS bigint
	AS 'MODULE_PATHNAME', 'item_collection_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_collection_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_between' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_collection_items(hroe.item_collection) IS 'The (sort_key, item) rows of a collection, in sort-key order';
COMMENT ON FUNCTION hroe.item_collection_count(hroe.item_collection) IS 'Number of items in the collection';
COMMENT ON FUNCTION hroe.item_collection_size(hroe.item_collection) IS 'Total DynamoDB size of the collection''s items';
COMMENT ON FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) IS 'The item with that sort key (binary search); NULL if none';
COMMENT ON FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) IS 'The sub-collection whose sort keys begin with the prefix (bytewise, as begins_with)';
COMMENT ON FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) IS 'The sub-collection whose sort keys lie between two keys, both included (as BETWEEN)';

-- embedding ("embed the children in the parent")
CREATE FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'item_embed_collection' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'item_collection_from_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) IS 'The parent item with an attribute holding the collection as an L of M in sort-key order (400 KB checked)';
COMMENT ON FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) IS 'A collection from an L of M at a path, each element''s S attribute of the given name being its sort key; NULL if the path is missing';

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

--
-- DynamoDB expressions evaluated over hroe.item (src/expression_eval.c,
-- src/expression_update.c, src/expression_api.c)
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

--
-- DynamoDB tables and global secondary indexes on PostgreSQL storage
-- (src/tables.sql, src/tables.c)
--
-- A DynamoDB table is a PostgreSQL table (pk, [sk,] item) whose key columns
-- are STORED generated columns extracted from the item; a GSI adds generated
-- columns for its key attributes (or, with p_share_key_columns, reuses the
-- table's or another index's column of the same keys) and a partial (sparse)
-- btree index on (index keys..., table keys).  hroe.tables and hroe.indexes
-- hold the DynamoDB metadata; hroe.tables names the table by regclass,
-- hroe.indexes the index by its name in the table's schema.
--

CREATE TABLE hroe.tables (
	table_name			text PRIMARY KEY
		CHECK (table_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	relid				regclass NOT NULL UNIQUE,
	partition_key		text NOT NULL,
	partition_key_type	text NOT NULL CHECK (partition_key_type IN ('S', 'N', 'B')),
	sort_key			text,
	sort_key_type		text CHECK (sort_key_type IN ('S', 'N', 'B')),
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	CHECK ((sort_key IS NULL) = (sort_key_type IS NULL)),
	-- DynamoDB's table metadata: TableId, the billing mode and provisioned
	-- throughput (kept and described, not enforced), DeletionProtectionEnabled,
	-- the AttributeDefinitions' order of the CreateTable request
	table_id			uuid NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
	billing_mode		text NOT NULL DEFAULT 'PAY_PER_REQUEST'
		CHECK (billing_mode IN ('PROVISIONED', 'PAY_PER_REQUEST')),
	read_capacity_units	bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	last_increase_at	timestamptz,
	last_decrease_at	timestamptz,
	-- decreases on the (UTC) day of last_decrease_at
	decreases_today		integer NOT NULL DEFAULT 0,
	-- BillingModeSummary's LastUpdateToPayPerRequestDateTime (NULL: the
	-- table has always been PROVISIONED, and DynamoDB shows no summary)
	pay_per_request_since timestamptz,
	deletion_protection	boolean NOT NULL DEFAULT false,
	attribute_order		text[] NOT NULL DEFAULT '{}',
	CONSTRAINT tables_throughput_check CHECK ((billing_mode = 'PROVISIONED')
		= (read_capacity_units IS NOT NULL AND write_capacity_units IS NOT NULL)
		AND (read_capacity_units IS NULL) = (write_capacity_units IS NULL))
);
COMMENT ON TABLE hroe.tables IS 'DynamoDB tables created by hroe.create_table: name, PostgreSQL table, key schema, TableId, creation time, billing mode and provisioned throughput (PROVISIONED tables), deletion protection, the order of the AttributeDefinitions';

CREATE TABLE hroe.indexes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	index_name			text NOT NULL
		CHECK (index_name OPERATOR(pg_catalog.~) '^[a-zA-Z0-9_.-]{3,255}$'),
	-- by name, not regclass: pg_dump restores these rows before the index
	index_relname		name NOT NULL,
	partition_key		text[] NOT NULL,
	partition_key_types text[] NOT NULL,
	partition_key_columns name[] NOT NULL,
	sort_key			text[] NOT NULL,
	sort_key_types		text[] NOT NULL,
	sort_key_columns	name[] NOT NULL,
	projection			text NOT NULL CHECK (projection IN ('ALL', 'KEYS_ONLY', 'INCLUDE')),
	non_key_attributes	text[] NOT NULL DEFAULT '{}',
	key_check			name NOT NULL,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.now(),
	-- a local secondary index (hroe.create_local_index): HASH the table's
	-- partition key (column pk), one RANGE attribute
	local				boolean NOT NULL DEFAULT false,
	PRIMARY KEY (table_name, index_name),
	-- a GSI's provisioned throughput (NULL on a PAY_PER_REQUEST table, and
	-- for an LSI, which uses the table's)
	read_capacity_units	bigint CHECK (read_capacity_units BETWEEN 1 AND 1000000000000),
	write_capacity_units bigint CHECK (write_capacity_units BETWEEN 1 AND 1000000000000),
	last_increase_at	timestamptz,
	last_decrease_at	timestamptz,
	decreases_today		integer NOT NULL DEFAULT 0,
	CONSTRAINT indexes_throughput_check CHECK ((read_capacity_units IS NULL) = (write_capacity_units IS NULL))
);
COMMENT ON TABLE hroe.indexes IS 'Secondary indexes: global ones created by hroe.create_index, local ones (local true) by hroe.create_local_index: key schema (1-4 HASH, 0-4 RANGE attributes), generated key columns (several indexes may share one, and pk/sk), PostgreSQL index by name (index_relname, in the table''s schema, so pg_dump''s rows restore before the index exists), projection, the NOT VALID CHECK constraint that rejects writes violating the key schema, a GSI''s provisioned throughput';

-- the metadata is not secret: any role may look a table up (operations
-- still need the privileges on the PostgreSQL table itself)
GRANT SELECT ON hroe.tables, hroe.indexes TO PUBLIC;

-- Writes are scoped to a table's owner: a role granted INSERT, UPDATE or
-- DELETE on hroe.tables and hroe.indexes (CreateTable and DeleteTable need
-- them) changes only the metadata of the tables whose PostgreSQL table its
-- role owns (or a role it is a member of); the tables' owner, the
-- extension's, and superusers are not subject to the policies.
CREATE FUNCTION hroe.owns_relation(p_rel regclass) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT EXISTS (SELECT FROM pg_catalog.pg_class c
				   WHERE c.oid = p_rel AND pg_catalog.pg_has_role(c.relowner, 'USAGE'));
END;
COMMENT ON FUNCTION hroe.owns_relation(regclass) IS
'internal: Whether the current role is a member of the role owning the relation p_rel (false if there is none): who may change the metadata of a DynamoDB table';
CREATE FUNCTION hroe.owns_table(p_table_name text) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT coalesce(pg_catalog.bool_or(hroe.owns_relation(t.relid)), false)
	FROM hroe.tables t WHERE t.table_name = p_table_name;
END;
COMMENT ON FUNCTION hroe.owns_table(text) IS
'internal: Whether the current role is a member of the role owning the PostgreSQL table of DynamoDB table p_table_name (it may change the table''s metadata and tags)';
CREATE FUNCTION hroe.check_table_owner(p_table_name text) RETURNS void
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF EXISTS (SELECT FROM hroe.tables t JOIN pg_class c ON c.oid = t.relid
			   WHERE t.table_name = p_table_name AND NOT pg_has_role(c.relowner, 'USAGE')) THEN
		RAISE EXCEPTION 'must be a member of the role owning table % to change it', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_table_owner(text) IS
'internal: Raises insufficient_privilege (the JSON API''s AccessDeniedException) unless the current role is a member of the role owning DynamoDB table p_table_name''s PostgreSQL table (or the table or its relation does not exist): the DDL functions'' check, before the row lock the policies would otherwise hide';
ALTER TABLE hroe.tables ENABLE ROW LEVEL SECURITY;
CREATE POLICY tables_read ON hroe.tables FOR SELECT USING (true);
COMMENT ON POLICY tables_read ON hroe.tables IS 'The metadata is readable by every role';
CREATE POLICY tables_insert ON hroe.tables FOR INSERT WITH CHECK (hroe.owns_relation(relid));
COMMENT ON POLICY tables_insert ON hroe.tables IS 'A role registers only a table it owns';
CREATE POLICY tables_update ON hroe.tables FOR UPDATE
	USING (hroe.owns_relation(relid)) WITH CHECK (hroe.owns_relation(relid));
COMMENT ON POLICY tables_update ON hroe.tables IS 'A role changes only the metadata of a table it owns';
CREATE POLICY tables_delete ON hroe.tables FOR DELETE
	USING (hroe.owns_relation(relid) OR NOT EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = relid));
COMMENT ON POLICY tables_delete ON hroe.tables IS 'A role deletes only the metadata of a table it owns, or of one already dropped';
ALTER TABLE hroe.indexes ENABLE ROW LEVEL SECURITY;
CREATE POLICY indexes_read ON hroe.indexes FOR SELECT USING (true);
COMMENT ON POLICY indexes_read ON hroe.indexes IS 'The metadata is readable by every role';
CREATE POLICY indexes_owner ON hroe.indexes FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY indexes_owner ON hroe.indexes IS 'A role adds, changes and deletes only the indexes of a table it owns';

-- hroe.tables and hroe.indexes are dumped by pg_dump, but their rows for
-- tables the extension script creates come back with CREATE EXTENSION: the
-- dump keeps only the rows of tables that are not extension members.
SELECT pg_catalog.pg_extension_config_dump('hroe.tables',
	'WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_depend d WHERE d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.objid = relid AND d.deptype = ''e'')');
SELECT pg_catalog.pg_extension_config_dump('hroe.indexes',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = indexes.table_name)');

-- Key extraction, used by the generated key columns
CREATE FUNCTION hroe.item_key_s(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS hroe.key AS 'MODULE_PATHNAME', 'hroe_item_key_s'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_key_n(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS numeric AS 'MODULE_PATHNAME', 'hroe_item_key_n'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION hroe.item_key_b(p_item hroe.item, p_attribute text, p_sort boolean,
								p_index_name text DEFAULT NULL)
RETURNS bytea AS 'MODULE_PATHNAME', 'hroe_item_key_b'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.item_key_s(hroe.item, text, boolean, text) IS
'internal: The S key attribute of an item as hroe.key. For a table key (p_index_name NULL) a missing, mistyped, empty or oversized attribute raises DynamoDB''s E1/E2/E4/E5/E6; for an index key it gives NULL when the attribute is absent (sparse) or violates the key schema (wrong type, empty, oversized: the item stays out of the index; hroe.check_index_key rejects such writes)';
COMMENT ON FUNCTION hroe.item_key_n(hroe.item, text, boolean, text) IS
'internal: The N key attribute of an item as numeric (see hroe.item_key_s for NULLs and errors)';
COMMENT ON FUNCTION hroe.item_key_b(hroe.item, text, boolean, text) IS
'internal: The B key attribute of an item as bytea (see hroe.item_key_s for NULLs and errors)';

-- The index key checks: the CHECK constraint of a GSI, and its violation detector
CREATE FUNCTION hroe.check_index_key(p_item hroe.item, p_attribute text, p_type text,
									 p_sort boolean, p_index_name text)
RETURNS boolean AS 'MODULE_PATHNAME', 'hroe_check_index_key'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_index_key(hroe.item, text, text, boolean, text) IS
'internal: True if the item''s attribute p_attribute is absent or a valid key of type p_type (S, N, B) of index p_index_name (p_sort: a RANGE attribute); else raises DynamoDB''s error: E11 Type mismatch for Index Key, the empty index key message, E5/E6 key size. A GSI''s NOT VALID CHECK constraint, so writes fail with DynamoDB''s text';
CREATE FUNCTION hroe.index_key_violation(p_item hroe.item, p_attribute text, p_type text,
										 p_sort boolean)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_index_key_violation'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.index_key_violation(hroe.item, text, text, boolean) IS
'internal: How the item''s attribute p_attribute violates an index key of type p_type (p_sort: a RANGE attribute): Type Violation, Empty Value Violation or Size Violation with details; NULL if it is absent or valid';

CREATE FUNCTION hroe.check_index_entry(p_index_name text, VARIADIC p_keys "any")
RETURNS boolean AS 'MODULE_PATHNAME', 'hroe_check_index_entry'
LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION hroe.check_index_entry(text, "any") IS
'internal: True if the key columns given (a GSI''s, in index order, the table key last) make an index entry that fits a btree (2704 bytes, after compression), or one is NULL (the item is not in the index); else a ValidationException naming the index. In the CHECK constraint of a multi-attribute GSI whose widest entry might not fit';

-- hroe's SQLSTATE class HR, as the C code defines it (src/errors.c)
CREATE FUNCTION hroe.dynamodb_errors(OUT sqlstate text, OUT exception text, OUT type text)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'hroe_dynamodb_errors'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.dynamodb_errors() IS
'hroe''s SQLSTATE class HR: each code, the DynamoDB exception it stands for, and the __type the JSON API (hroe.dynamodb) answers with';

-- Raise a DynamoDB exception from SQL: class HR, DynamoDB's text as message
CREATE FUNCTION hroe.dynamodb_error(p_exception text, p_message text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RAISE EXCEPTION USING
		MESSAGE = p_message,
		ERRCODE = CASE p_exception
					  WHEN 'ValidationException' THEN 'HR000'
					  WHEN 'ResourceNotFoundException' THEN 'HR001'
					  WHEN 'ConditionalCheckFailedException' THEN 'HR002'
					  WHEN 'ResourceInUseException' THEN 'HR003'
					  WHEN 'LimitExceededException' THEN 'HR004'
					  WHEN 'TransactionCanceledException' THEN 'HR005'
					  WHEN 'IdempotentParameterMismatchException' THEN 'HR006'
					  WHEN 'SerializationException' THEN 'HR007'
					  WHEN 'DuplicateItemException' THEN 'HR008'
					  WHEN 'ExpiredIteratorException' THEN 'HR009'
					  WHEN 'TrimmedDataAccessException' THEN 'HR010'
					  WHEN 'ItemCollectionSizeLimitExceededException' THEN 'HR011'
					  ELSE 'HR000' END,
		DETAIL = format('DynamoDB %s.', p_exception);
END
$$;
COMMENT ON FUNCTION hroe.dynamodb_error(text, text) IS
'internal: Raises a DynamoDB exception: SQLSTATE class HR (HR000 ValidationException, HR001 ResourceNotFoundException, HR002 ConditionalCheckFailedException, HR003 ResourceInUseException, HR004 LimitExceededException, HR005 TransactionCanceledException, HR006 IdempotentParameterMismatchException, HR007 SerializationException, HR008 DuplicateItemException, HR009 ExpiredIteratorException, HR010 TrimmedDataAccessException, HR011 ItemCollectionSizeLimitExceededException; as hroe.dynamodb_errors()), DynamoDB''s text as the message';

-- The SQL type and accessor of a key attribute type
CREATE FUNCTION hroe.key_column_type(p_type text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE p_type WHEN 'S' THEN 'hroe.key' WHEN 'N' THEN 'numeric' WHEN 'B' THEN 'bytea' END;
COMMENT ON FUNCTION hroe.key_column_type(text) IS
'internal: The PostgreSQL type storing a DynamoDB key attribute type: S hroe.key, N numeric, B bytea (each ordered as DynamoDB orders keys)';

-- Validate an attribute type name as DynamoDB does
CREATE FUNCTION hroe.check_key_type(p_type text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_type IS NULL OR p_type NOT IN ('S', 'N', 'B') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy enum value set: [B, N, S]',
				   coalesce(p_type, 'null'), p_what));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_key_type(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_type is S, N or B';

-- Validate a table or index name as DynamoDB does
CREATE FUNCTION hroe.check_name(p_name text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_name IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value null at ''%s'' failed to satisfy constraint: Member must not be null', p_what));
	ELSIF length(p_name) < 3 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length greater than or equal to 3', p_name, p_what));
	ELSIF length(p_name) > 255 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length less than or equal to 255', p_name, p_what));
	ELSIF p_name !~ '^[a-zA-Z0-9_.-]+$' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+', p_name, p_what));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid table or index name (3-255 characters of [a-zA-Z0-9_.-])';

-- The PostgreSQL name of a DynamoDB table or index name
CREATE FUNCTION hroe.relation_name(p_name text) RETURNS name
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN CASE WHEN octet_length(p_name) <= 63 THEN p_name
			ELSE left(p_name, 46) || '_'
				 || left(encode(sha256(convert_to(p_name, 'UTF8')), 'hex'), 16) END;
COMMENT ON FUNCTION hroe.relation_name(text) IS
'internal: The PostgreSQL relation name of a DynamoDB table or index name (up to 255 characters): the name itself if it fits in 63 bytes, else its first 46 characters, an underscore and 16 hex digits of its SHA-256';

-- Validate a key attribute name (1-255 bytes)
CREATE FUNCTION hroe.check_attribute_name(p_name text, p_what text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_name IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value null at ''%s'' failed to satisfy constraint: Member must not be null', p_what));
	ELSIF octet_length(p_name) < 1 OR octet_length(p_name) > 255 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''%s'' failed to satisfy constraint: Member must have length between 1 and 255', p_name, p_what));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_attribute_name(text, text) IS
'internal: Raises DynamoDB''s validation error unless p_name is a valid attribute name (1-255 bytes)';

CREATE FUNCTION hroe.create_table(
	p_table_name text,
	p_partition_key text,
	p_partition_key_type text DEFAULT 'S',
	p_sort_key text DEFAULT NULL,
	p_sort_key_type text DEFAULT 'S',
	p_schema name DEFAULT pg_catalog.current_schema())
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema name := p_schema;
	v_rel regclass;
	v_relname name;
	v_sql text;
	v_servers name[] := hroe.partition_server_list();
BEGIN
	PERFORM hroe.check_name(p_table_name, 'tableName');
	PERFORM hroe.check_attribute_name(p_partition_key, 'keySchema.1.member.attributeName');
	PERFORM hroe.check_key_type(p_partition_key_type, 'attributeDefinitions.1.member.attributeType');
	IF p_sort_key IS NOT NULL THEN
		PERFORM hroe.check_attribute_name(p_sort_key, 'keySchema.2.member.attributeName');
		PERFORM hroe.check_key_type(p_sort_key_type, 'attributeDefinitions.2.member.attributeType');
		IF p_sort_key = p_partition_key THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'Both the Hash Key and the Range Key element in the KeySchema have the same name');
		END IF;
	END IF;
	IF v_schema IS NULL THEN
		RAISE EXCEPTION 'no schema has been selected to create in'
			USING ERRCODE = 'invalid_schema_name';
	END IF;
	-- DynamoDB table names are unique per account and region (every role
	-- sees every table's row; a row lock would need UPDATE on hroe.tables)
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceInUseException',
			format('Table already exists: %s', p_table_name));
	END IF;
	-- a name longer than PostgreSQL's 63 bytes: a prefix and a hash
	v_relname := hroe.relation_name(p_table_name);

	v_sql := format('CREATE TABLE %I.%I (pk %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, false)) STORED',
					v_schema, v_relname, hroe.key_column_type(p_partition_key_type),
					lower(p_partition_key_type), p_partition_key);
	IF p_sort_key IS NOT NULL THEN
		v_sql := v_sql || format(', sk %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, true)) STORED',
								 hroe.key_column_type(p_sort_key_type), lower(p_sort_key_type), p_sort_key);
	END IF;
	-- distributed (hroe.partition_servers): hash-partitioned by pk, the
	-- primary key on each server's partition (PostgreSQL allows none over
	-- foreign partitions)
	IF cardinality(v_servers) > 0 THEN
		-- (by pk's expression: PostgreSQL allows no generated column in a
		-- partition key; src/tables_partition.c adds it to every key's
		-- condition, so that the planner prunes)
		v_sql := v_sql || format(', item hroe.item NOT NULL) PARTITION BY HASH (hroe.item_key_%s(item, %L, false))',
								 lower(p_partition_key_type), p_partition_key);
	ELSE
		v_sql := v_sql || format(', item hroe.item NOT NULL, PRIMARY KEY (pk%s))',
								 CASE WHEN p_sort_key IS NOT NULL THEN ', sk' ELSE '' END);
	END IF;
	EXECUTE v_sql;
	v_rel := format('%I.%I', v_schema, v_relname)::regclass;
	IF cardinality(v_servers) > 0 THEN
		PERFORM hroe.create_table_partitions(v_rel, p_table_name, v_servers, p_partition_key,
											 p_partition_key_type, p_sort_key, p_sort_key_type);
	END IF;
	EXECUTE format('COMMENT ON TABLE %s IS %L', v_rel,
				   format('DynamoDB table %s (hroe): partition key %s %s%s', p_table_name,
						  p_partition_key, p_partition_key_type,
						  CASE WHEN p_sort_key IS NOT NULL
							   THEN format(', sort key %s %s', p_sort_key, p_sort_key_type) ELSE '' END));
	INSERT INTO hroe.tables (table_name, relid, partition_key, partition_key_type, sort_key, sort_key_type,
							 pay_per_request_since)
	VALUES (p_table_name, v_rel, p_partition_key, p_partition_key_type, p_sort_key,
			CASE WHEN p_sort_key IS NOT NULL THEN p_sort_key_type END, now());
	RETURN v_rel;
END
$$;
COMMENT ON FUNCTION hroe.create_table(text, text, text, text, text, name) IS
'CreateTable: a DynamoDB table (key types S, N, B; PAY_PER_REQUEST) as a PostgreSQL table with generated key columns pk [, sk] and an item column, in p_schema (default: the caller''s current schema), named after the DynamoDB table (a name over 63 bytes: hroe.relation_name); while hroe.partition_servers names foreign servers, hash-partitioned by pk over them (hroe.create_table_partitions); returns the table';

-- The existing generated column of a table that holds exactly the keys an
-- index key attribute needs, or NULL (create_index with p_share_key_columns)
CREATE FUNCTION hroe.key_column_for(p_rel regclass, p_table_partition_key text, p_table_sort_key text,
									p_attribute text, p_type text, p_sort boolean)
RETURNS name
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_col record;
BEGIN
	IF p_attribute IS NULL OR p_type IS NULL OR p_sort IS NULL THEN
		RETURN NULL;
	END IF;
	-- the table's sort key is in every item, valid, at most 1024 bytes and
	-- stored as it is: exactly the index key, HASH or RANGE (a HASH key on
	-- sk is probed with the key itself, not its index form)
	IF p_attribute = p_table_sort_key THEN
		RETURN 'sk';
	END IF;
	-- The partition key, at most 2048 bytes, stored in its index form (a
	-- key over 192 bytes as a prefix and its SHA-256: src/tables.h,
	-- HROE_KEY_FORM_MAX): a HASH key as it is, never a RANGE key, whose
	-- order the forms of long keys do not keep.
	IF p_attribute = p_table_partition_key THEN
		RETURN CASE WHEN NOT p_sort THEN 'pk'::name END;
	END IF;
	-- The key columns hroe.indexes records for this attribute and type (only
	-- hroe's own: a column the user added is never taken), with the roles the
	-- table's indexes use them in; only a column of the same role serves.  A
	-- HASH column holds index forms, so it never serves a RANGE key; a RANGE
	-- column never serves a HASH key: once its RANGE indexes were deleted,
	-- longer keys would be accepted but left out.
	FOR v_col IN
		SELECT c.col, bool_or(c.hash) AS hash, bool_or(NOT c.hash) AS range
		FROM hroe.tables t
		JOIN hroe.indexes x ON x.table_name = t.table_name
		CROSS JOIN LATERAL (
			SELECT u.col, true AS hash
			FROM unnest(x.partition_key, x.partition_key_types, x.partition_key_columns) u(a, ty, col)
			WHERE u.a = p_attribute AND u.ty = p_type
			UNION ALL
			SELECT u.col, false
			FROM unnest(x.sort_key, x.sort_key_types, x.sort_key_columns) u(a, ty, col)
			WHERE u.a = p_attribute AND u.ty = p_type) c
		JOIN pg_attribute a ON a.attrelid = t.relid
			AND a.attname = c.col AND NOT a.attisdropped
		WHERE t.relid = p_rel AND c.col NOT IN ('pk', 'sk')
		GROUP BY c.col, a.attnum
		ORDER BY a.attnum
	LOOP
		IF (p_sort AND v_col.range AND NOT v_col.hash) OR (NOT p_sort AND v_col.hash) THEN
			RETURN v_col.col;
		END IF;
	END LOOP;
	RETURN NULL;
END
$$;
COMMENT ON FUNCTION hroe.key_column_for(regclass, text, text, text, text, boolean) IS
'internal: The generated column of table p_rel (partition key p_table_partition_key, sort key p_table_sort_key) that holds exactly the keys of an index key attribute p_attribute of type p_type (p_sort: a RANGE attribute), or NULL, from the metadata in hroe.indexes: the sort key column sk (HASH or RANGE); pk for a HASH attribute only (partition keys are stored in their index form, whose order is not the keys''); another index''s key column of the same attribute and type used in the same role only. hroe.create_index with p_share_key_columns reuses it';

CREATE FUNCTION hroe.create_index(
	p_table_name text,
	p_index_name text,
	p_partition_key text[],
	p_sort_key text[] DEFAULT '{}',
	p_attribute_definitions jsonb DEFAULT '{}',
	p_projection text DEFAULT 'ALL',
	p_non_key_attributes text[] DEFAULT NULL,
	p_share_key_columns boolean DEFAULT false)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_keys text[];
	v_types text[] := '{}';
	v_cols name[] := '{}';
	v_attr text;
	v_type text;
	v_prefix text;
	v_col text;
	v_nprojected integer;
	v_index_rel text;
	v_sql text;
	v_pred text := '';
	v_check text := '';
	v_check_name name;
	v_schema name;
	v_sort boolean;
	i integer;
	v_defs text[];
	v_cols_all name[];
	v_collist text;
	v_width integer;
BEGIN
	PERFORM hroe.check_name(p_table_name, 'tableName');
	PERFORM hroe.check_name(p_index_name, 'globalSecondaryIndexUpdates.1.member.create.indexName');
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'Attempting to create an index which already exists');
	END IF;
	IF (SELECT count(*) FROM hroe.indexes WHERE table_name = p_table_name AND NOT local) >= 20 THEN
		PERFORM hroe.dynamodb_error('LimitExceededException',
			'One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20');
	END IF;

	-- key schema: 1-4 HASH then 0-4 RANGE attributes, all distinct (section 7)
	p_sort_key := coalesce(p_sort_key, '{}');
	IF coalesce(cardinality(p_partition_key), 0) = 0 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Invalid KeySchema: The first KeySchemaElement is not a HASH key type');
	END IF;
	IF cardinality(p_partition_key) > 4 OR cardinality(p_sort_key) > 4 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: A global secondary index key schema can have at most 4 HASH and 4 RANGE attributes; IndexName: %s', p_index_name));
	END IF;
	v_keys := p_partition_key || p_sort_key;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		PERFORM hroe.check_attribute_name(v_keys[i], format('keySchema.%s.member.attributeName', i));
		IF v_keys[i] = ANY (v_keys[1:i - 1]) THEN
			IF cardinality(p_partition_key) = 1 AND cardinality(p_sort_key) = 1 THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					'Both the Hash Key and the Range Key element in the KeySchema have the same name');
			END IF;
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Duplicate attribute in KeySchema: %s; IndexName: %s', v_keys[i], p_index_name));
		END IF;
	END LOOP;

	-- attribute types: from p_attribute_definitions, or the table's key schema
	IF jsonb_typeof(coalesce(p_attribute_definitions, '{}')) <> 'object' THEN
		RAISE EXCEPTION 'p_attribute_definitions must be a JSON object of attribute name to type'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT coalesce(array_agg(k ORDER BY k), '{}') INTO v_defs
	FROM jsonb_object_keys(coalesce(p_attribute_definitions, '{}')) k;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		v_attr := v_keys[i];
		v_type := p_attribute_definitions ->> v_attr;
		IF v_attr = t.partition_key AND (v_type IS NULL OR v_type = t.partition_key_type) THEN
			v_type := t.partition_key_type;
		ELSIF v_attr = t.sort_key AND (v_type IS NULL OR v_type = t.sort_key_type) THEN
			v_type := t.sort_key_type;
		ELSIF v_attr IN (t.partition_key, t.sort_key) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Attribute %s is defined with type %s but the table key schema defines it as %s',
					   v_attr, v_type, CASE v_attr WHEN t.partition_key THEN t.partition_key_type ELSE t.sort_key_type END));
		ELSIF v_type IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]',
					   array_to_string(v_keys, ', '), array_to_string(v_defs, ', ')));
		END IF;
		PERFORM hroe.check_key_type(v_type, format('attributeDefinitions.%s.member.attributeType', i));
		v_types := v_types || v_type;
	END LOOP;
	FOR v_attr IN SELECT k FROM jsonb_object_keys(coalesce(p_attribute_definitions, '{}')) k LOOP
		IF NOT v_attr = ANY (v_keys) THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions');
		END IF;
	END LOOP;

	-- projection; at most 100 projected non-key attributes across all indexes
	IF p_projection IS NULL OR p_projection NOT IN ('ALL', 'KEYS_ONLY', 'INCLUDE') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Unknown ProjectionType: %s', coalesce(p_projection, 'null')));
	END IF;
	IF p_projection <> 'INCLUDE' AND p_non_key_attributes IS NOT NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified', p_projection));
	END IF;
	IF p_projection = 'INCLUDE' THEN
		IF coalesce(cardinality(p_non_key_attributes), 0) = 0 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'One or more parameter values were invalid: NonKeyAttributes must not be empty when ProjectionType is INCLUDE');
		END IF;
		FOR i IN 1 .. cardinality(p_non_key_attributes) LOOP
			PERFORM hroe.check_attribute_name(p_non_key_attributes[i], format('projection.nonKeyAttributes.%s.member', i));
			IF p_non_key_attributes[i] = ANY (p_non_key_attributes[1:i - 1]) THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('One or more parameter values were invalid: Duplicate NonKeyAttribute: %s', p_non_key_attributes[i]));
			END IF;
		END LOOP;
		SELECT count(DISTINCT a) INTO v_nprojected
		FROM (SELECT unnest(non_key_attributes) a FROM hroe.indexes WHERE table_name = p_table_name
			  UNION ALL SELECT unnest(p_non_key_attributes)) s;
		IF v_nprojected > 100 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: Number of projected attributes in all indexes exceeds limit of 100, number of projected attributes: %s', v_nprojected));
		END IF;
	END IF;

	-- generated key columns.  With p_share_key_columns a key attribute that
	-- the table key or an earlier index already extracts reuses that column
	-- when its values are exactly this index's keys (see hroe.key_column_for);
	-- a new column is then named after its attribute, since several indexes
	-- may use it.  Otherwise (the default) each index gets its own columns,
	-- named after the index while that fits in NAMEDATALEN.
	IF p_share_key_columns THEN
		-- no write may store a key the reuse checks did not see before the
		-- key constraint below is in place
		EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', t.relid);
	END IF;
	v_prefix := p_index_name;
	IF octet_length(p_index_name) > 50 OR EXISTS (
		SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname LIKE p_index_name || '\_%') THEN
		v_prefix := 'gsi' || (SELECT count(*) + 1 FROM pg_attribute WHERE attrelid = t.relid AND attnum > 0);
	END IF;
	FOR i IN 1 .. cardinality(v_keys) LOOP
		v_sort := i > cardinality(p_partition_key);
		v_col := NULL;
		IF p_share_key_columns THEN
			v_col := hroe.key_column_for(t.relid, t.partition_key, t.sort_key, v_keys[i], v_types[i], v_sort);
		END IF;
		IF v_col IS NULL THEN
			IF p_share_key_columns THEN
				v_col := lower(v_keys[i]);
				IF v_col !~ '^[a-z_][a-z0-9_]*$' OR octet_length(v_col) > 63 OR v_col IN ('pk', 'sk', 'item')
				   OR EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = t.relid AND attname = v_col) THEN
					v_col := NULL;
				END IF;
			END IF;
			v_col := coalesce(v_col, v_prefix || CASE WHEN v_sort THEN '_sk' || (i - cardinality(p_partition_key))
													  ELSE '_pk' || i END);
			EXECUTE format('ALTER TABLE %s ADD COLUMN %I %s GENERATED ALWAYS AS (hroe.item_key_%s(item, %L, %L, %L)) STORED',
						   t.relid, v_col, hroe.key_column_type(v_types[i]), lower(v_types[i]), v_keys[i],
						   v_sort, p_index_name);
		END IF;
		v_cols := v_cols || v_col::name;
		-- (the table key columns are never NULL)
		IF v_col NOT IN ('pk', 'sk') THEN
			v_pred := v_pred || CASE WHEN v_pred <> '' THEN ' AND ' ELSE '' END || format('%I IS NOT NULL', v_col);
		END IF;
		v_check := v_check || CASE WHEN i > 1 THEN ' AND ' ELSE '' END
				   || format('hroe.check_index_key(item, %L, %L, %L, %L)', v_keys[i], v_types[i],
							 v_sort, p_index_name);
	END LOOP;
	-- The index's columns: keys, then the table key (unless a key column
	-- already is it) so equal index keys are ordered by table key
	-- (deterministic paging).  Its widest entry: a partition key column
	-- holds at most 256 bytes (its index form), a sort key column 1024, a
	-- number 32, so a single-attribute GSI's (HASH, RANGE, pk, sk) fits a
	-- btree entry (2704 bytes).  A multi-attribute GSI's may not: its
	-- constraint then checks each entry, so an item whose keys do not fit
	-- fails with a ValidationException rather than btree's error.
	v_cols_all := v_cols;
	v_width := 8;
	FOR i IN 1 .. cardinality(v_cols) LOOP
		v_width := v_width + CASE WHEN v_types[i] = 'N' THEN 32
								  WHEN v_cols[i] = 'sk' OR i > cardinality(p_partition_key) THEN 1028
								  ELSE 260 END;
	END LOOP;
	IF NOT 'pk' = ANY (v_cols) THEN
		v_cols_all := v_cols_all || 'pk'::name;
		v_width := v_width + CASE WHEN t.partition_key_type = 'N' THEN 32 ELSE 260 END;
	END IF;
	IF t.sort_key IS NOT NULL AND NOT 'sk' = ANY (v_cols) THEN
		v_cols_all := v_cols_all || 'sk'::name;
		v_width := v_width + CASE WHEN t.sort_key_type = 'N' THEN 32 ELSE 1028 END;
	END IF;
	v_collist := (SELECT string_agg(format('%I', c), ', ') FROM unnest(v_cols_all) c);
	IF v_width > 2704 THEN
		v_check := v_check || format(' AND hroe.check_index_entry(%L, %s)', p_index_name, v_collist);
	END IF;
	-- The key columns are NULL where an item violates the key schema (wrong
	-- type, empty, oversized), so the items already stored that do are left
	-- out of the index, as DynamoDB's backfill leaves out index key
	-- violations; a NOT VALID constraint skips them too, and rejects every
	-- later write that would store a violation, with DynamoDB's error.
	v_check_name := v_prefix || '_key_check';
	EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I CHECK (%s) NOT VALID', t.relid, v_check_name, v_check);

	-- the index on v_cols_all, partial, so it is sparse
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid WHERE c.oid = t.relid;
	v_index_rel := hroe.relation_name(format('%s.%s', p_table_name, p_index_name));
	IF EXISTS (SELECT 1 FROM pg_class WHERE relname = v_index_rel
			   AND relnamespace = (SELECT relnamespace FROM pg_class WHERE oid = t.relid)) THEN
		v_index_rel := hroe.relation_name(format('%s.%s.%s', p_table_name, p_index_name, v_prefix));
	END IF;
	v_sql := format('CREATE INDEX %I ON %s (%s)', v_index_rel, t.relid, v_collist)
			 || CASE WHEN v_pred <> '' THEN ' WHERE ' || v_pred ELSE '' END;
	EXECUTE v_sql;
	EXECUTE format('COMMENT ON INDEX %I.%I IS %L', v_schema, v_index_rel,
				   format('DynamoDB global secondary index %s of %s (hroe)', p_index_name, p_table_name));
	INSERT INTO hroe.indexes (table_name, index_name, index_relname,
							  partition_key, partition_key_types, partition_key_columns,
							  sort_key, sort_key_types, sort_key_columns,
							  projection, non_key_attributes, key_check)
	VALUES (p_table_name, p_index_name, v_index_rel,
			p_partition_key, v_types[1:cardinality(p_partition_key)], v_cols[1:cardinality(p_partition_key)],
			p_sort_key, coalesce(v_types[cardinality(p_partition_key) + 1:], '{}'),
			coalesce(v_cols[cardinality(p_partition_key) + 1:], '{}'),
			p_projection, coalesce(p_non_key_attributes, '{}'), v_check_name);
	-- a distributed table: the same index on each server's partition (the
	-- same columns, as its table has this one's), which indexes its items
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid,
			format('SELECT hroe.create_index(%L, %L, %L, %L, %L, %L, %L, %L)::text', p_table_name, p_index_name,
				   p_partition_key, p_sort_key, p_attribute_definitions, p_projection, p_non_key_attributes,
				   p_share_key_columns));
	END IF;
	RETURN format('%I.%I', v_schema, v_index_rel)::regclass;
END
$$;
COMMENT ON FUNCTION hroe.create_index(text, text, text[], text[], jsonb, text, text[], boolean) IS
'UpdateTable Create GlobalSecondaryIndex: a sparse GSI with 1-4 HASH and 0-4 RANGE attributes (types in p_attribute_definitions, e.g. {"GSI1SK": "S"}, table key attributes default to the table''s types), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; existing items are indexed at once, except those violating the key schema (wrong type, empty, oversized: see hroe.index_key_violations), and every later write that would violate it is rejected (NOT VALID CHECK constraint); p_share_key_columns: reuse the table''s or another index''s generated column holding exactly the same keys (hroe.key_column_for) instead of adding one, and name a new column after its attribute; returns the PostgreSQL index';

CREATE FUNCTION hroe.delete_index(p_table_name text, p_index_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	c name;
	v_schema name;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	-- (a local secondary index cannot be deleted: it is not a GSI)
	SELECT * INTO x FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name AND NOT local;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	DELETE FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	SELECT n.nspname INTO v_schema
	FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid;
	EXECUTE format('DROP INDEX IF EXISTS %I.%I', v_schema, x.index_relname);
	EXECUTE format('ALTER TABLE %s DROP CONSTRAINT IF EXISTS %I', t.relid, x.key_check);
	-- a key column goes with the last index that uses it; pk and sk stay
	FOREACH c IN ARRAY x.partition_key_columns || x.sort_key_columns LOOP
		IF c NOT IN ('pk', 'sk') AND NOT EXISTS (
			SELECT FROM hroe.indexes o WHERE o.table_name = p_table_name
			AND c = ANY (o.partition_key_columns || o.sort_key_columns)) THEN
			EXECUTE format('ALTER TABLE %s DROP COLUMN IF EXISTS %I', t.relid, c);
		END IF;
	END LOOP;
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid, format('SELECT hroe.delete_index(%L, %L)::text', p_table_name, p_index_name));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_index(text, text) IS
'UpdateTable Delete GlobalSecondaryIndex: drops the index, its key CHECK constraint and the generated key columns no other index uses (never pk or sk)';

CREATE FUNCTION hroe.create_local_index(
	p_table_name text,
	p_index_name text,
	p_sort_key text,
	p_sort_key_type text DEFAULT 'S',
	p_projection text DEFAULT 'ALL',
	p_non_key_attributes text[] DEFAULT NULL)
RETURNS regclass
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_index regclass;
	v_rel text;
	v_triggers text[];
BEGIN
	PERFORM hroe.check_name(p_index_name, 'localSecondaryIndexes.1.member.indexName');
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF t.sort_key IS NULL THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex');
	END IF;
	IF EXISTS (SELECT 1 FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Duplicate index name: %s', p_index_name));
	END IF;
	IF (SELECT count(*) FROM hroe.indexes WHERE table_name = p_table_name AND local) >= 5 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5');
	END IF;
	IF p_sort_key = t.partition_key THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Both the Hash Key and the Range Key element in the KeySchema have the same name');
	END IF;
	-- DynamoDB creates LSIs with the table only: here, while it has no item
	-- (a distributed table's servers are asked through dblink: the
	-- remote DDL below would wait on a postgres_fdw read's lock)
	IF (CASE WHEN hroe.table_is_distributed(t.relid)
			 THEN hroe.partition_any(t.relid, format('SELECT hroe.table_has_items(%L::regclass)::text',
													  t.relid::text))
			 ELSE hroe.table_has_items(t.relid) END) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: Local secondary index %s can be created only on an empty table (DynamoDB creates them with the table)', p_index_name));
	END IF;
	-- a GSI whose HASH key is the table's partition key, on its column pk
	-- (shared key columns), then marked local
	v_index := hroe.create_index(p_table_name, p_index_name, ARRAY[t.partition_key], ARRAY[p_sort_key],
								 jsonb_build_object(p_sort_key, p_sort_key_type), p_projection,
								 p_non_key_attributes, p_share_key_columns => true);
	UPDATE hroe.indexes SET local = true WHERE table_name = p_table_name AND index_name = p_index_name;
	IF hroe.table_is_distributed(t.relid) THEN
		PERFORM hroe.partition_exec_all(t.relid,
			format('UPDATE hroe.indexes SET local = true WHERE table_name = %L AND index_name = %L RETURNING index_name',
				   p_table_name, p_index_name));
	END IF;
	EXECUTE format('COMMENT ON INDEX %s IS %L', v_index,
				   format('DynamoDB local secondary index %s of %s (hroe)', p_index_name, p_table_name));
	-- its item collections' sizes, kept from its first item (the table is
	-- empty) where its rows are: on each partition server for a distributed
	-- table, whose table there has the coordinator's schema and name
	SELECT format('%I.%I', s.nspname, c.relname) INTO v_rel
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.oid = t.relid;
	v_triggers := ARRAY[
		format('CREATE OR REPLACE TRIGGER hroe_item_collection AFTER INSERT OR UPDATE OR DELETE ON %s'
			   ' FOR EACH ROW EXECUTE FUNCTION hroe.item_collection_size(%L)', v_rel, p_table_name),
		format('CREATE OR REPLACE TRIGGER hroe_item_collection_truncate AFTER TRUNCATE ON %s'
			   ' FOR EACH STATEMENT EXECUTE FUNCTION hroe.item_collection_size(%L)', v_rel, p_table_name)];
	FOR i IN 1 .. 2 LOOP
		IF hroe.table_is_distributed(t.relid) THEN
			PERFORM hroe.partition_exec_all(t.relid, v_triggers[i]);
		ELSE
			EXECUTE v_triggers[i];
		END IF;
	END LOOP;
	RETURN v_index;
END
$$;
COMMENT ON FUNCTION hroe.create_local_index(text, text, text, text, text, text[]) IS
'CreateTable LocalSecondaryIndexes: a sparse local secondary index (HASH the table''s partition key, RANGE p_sort_key of type p_sort_key_type), projection ALL, KEYS_ONLY or INCLUDE p_non_key_attributes; at most 5 per table, on a table with a sort key, and only while the table has no item (DynamoDB creates LSIs with the table only, and they cannot be deleted); writes violating its key type are rejected as a GSI''s; the table gets the triggers hroe_item_collection and hroe_item_collection_truncate (hroe.item_collection_size), which keep its item collections'' sizes and their 10 GB limit; returns the PostgreSQL index';

-- Whether a table has an item (hroe.create_local_index)
CREATE FUNCTION hroe.table_has_items(p_rel regclass) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v boolean;
BEGIN
	EXECUTE format('SELECT EXISTS (SELECT FROM %s)', p_rel) INTO v;
	RETURN v;
END
$$;
COMMENT ON FUNCTION hroe.table_has_items(regclass) IS
'internal: Whether the table p_rel has a row (hroe.create_local_index)';

CREATE FUNCTION hroe.index_key_violations(p_table_name text, p_index_name text)
RETURNS TABLE (key jsonb, attribute_name text, key_type text, violation text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_key text;
	v_null text;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	SELECT * INTO x FROM hroe.indexes WHERE table_name = p_table_name AND index_name = p_index_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Index: %s not found', p_index_name));
	END IF;
	v_key := format('jsonb_build_object(%L, hroe.item_get_attribute(r.item, %L)', t.partition_key, t.partition_key);
	IF t.sort_key IS NOT NULL THEN
		v_key := v_key || format(', %L, hroe.item_get_attribute(r.item, %L)', t.sort_key, t.sort_key);
	END IF;
	v_key := v_key || ')';
	-- only items out of the index can violate its key schema
	SELECT string_agg(format('r.%I IS NULL', c), ' OR ') INTO v_null
	FROM unnest(x.partition_key_columns || x.sort_key_columns) c;
	RETURN QUERY EXECUTE format(
		'SELECT %s, a.name, a.key_type, v.violation
		 FROM %s r
		 CROSS JOIN unnest($1, $2, $3) WITH ORDINALITY a(name, type, key_type, ord)
		 CROSS JOIN LATERAL hroe.index_key_violation(r.item, a.name, a.type, a.key_type = ''RANGE'') v(violation)
		 WHERE (%s) AND v.violation IS NOT NULL
		 ORDER BY r.pk%s, a.ord',
		v_key, t.relid, v_null, CASE WHEN t.sort_key IS NOT NULL THEN ', r.sk' ELSE '' END)
	USING x.partition_key || x.sort_key, x.partition_key_types || x.sort_key_types,
		  array_fill('HASH'::text, ARRAY[cardinality(x.partition_key)])
		  || array_fill('RANGE'::text, ARRAY[cardinality(x.sort_key)]);
END
$$;
COMMENT ON FUNCTION hroe.index_key_violations(text, text) IS
'The index key violations of a GSI, like AWS''s Violation Detector: the items left out of the index because an index key attribute has the wrong type, is empty or oversized (each such item stays in the table, and any write to it that keeps the violation is rejected), with their table key (DynamoDB JSON), the attribute, HASH or RANGE, and the violation; in the order of the primary key index (table key order, but for partition keys over 192 bytes, stored in their index form)';

CREATE FUNCTION hroe.delete_table(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_rel regclass;
	v_protected boolean;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT relid, deletion_protection INTO v_rel, v_protected
	FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF v_protected THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.');
	END IF;
	DELETE FROM hroe.tables WHERE table_name = p_table_name;
	-- a distributed table: each server's partition first (committed there
	-- at once: a DeleteTable that fails after it leaves the table empty)
	IF hroe.table_is_distributed(v_rel) THEN
		PERFORM hroe.partition_exec_all(v_rel, format('SELECT hroe.delete_table(%L)::text', p_table_name));
	END IF;
	-- (a table already dropped with DROP TABLE only leaves its metadata)
	IF EXISTS (SELECT 1 FROM pg_class WHERE oid = v_rel) THEN
		EXECUTE format('DROP TABLE %s', v_rel);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.delete_table(text) IS
'DeleteTable: drops the DynamoDB table, its indexes, tags and metadata, unless deletion protection is enabled (DynamoDB''s ValidationException)';

CREATE FUNCTION hroe.table_sizes(p_table_name text)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
AS 'MODULE_PATHNAME', 'hroe_table_sizes'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;
COMMENT ON FUNCTION hroe.table_sizes(text) IS
'The exact item count and DynamoDB size of a table (index_name NULL) and of each of its GSIs (the items in the sparse index, the size of their index entries: index keys, table keys, projected attributes), in one pass over the table';


--
-- DynamoDB's table metadata (src/tables_meta.sql, src/tables_arn.c): ARNs,
-- the TableDescription of CreateTable, DescribeTable, UpdateTable and
-- DeleteTable, billing modes and provisioned throughput (kept and
-- described, never enforced), deletion protection, tags
--

-- The ARN of a table (the settings hroe.region and hroe.account_id)
CREATE FUNCTION hroe.table_arn(p_table_name text) RETURNS text
AS 'MODULE_PATHNAME', 'hroe_table_arn'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.table_arn(text) IS
'The ARN DynamoDB gives table p_table_name: arn:aws:dynamodb:<hroe.region>:<hroe.account_id>:table/<name> (an index''s adds /index/<name>)';

-- The ProvisionedThroughput member of a table or GSI description
CREATE FUNCTION hroe.throughput_description(p_read_capacity_units bigint, p_write_capacity_units bigint,
											p_last_increase timestamptz, p_last_decrease timestamptz,
											p_decreases integer)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
RETURN pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'LastIncreaseDateTime', EXTRACT(epoch FROM p_last_increase),
	'LastDecreaseDateTime', EXTRACT(epoch FROM p_last_decrease),
	'NumberOfDecreasesToday',
		CASE WHEN (p_last_decrease AT TIME ZONE 'UTC')::date = (pg_catalog.now() AT TIME ZONE 'UTC')::date
			 THEN p_decreases ELSE 0 END,
	'ReadCapacityUnits', coalesce(p_read_capacity_units, 0),
	'WriteCapacityUnits', coalesce(p_write_capacity_units, 0)));
COMMENT ON FUNCTION hroe.throughput_description(bigint, bigint, timestamptz, timestamptz, integer) IS
'internal: DynamoDB''s ProvisionedThroughput description: the read and write capacity units (0 on a PAY_PER_REQUEST table), the last increase and decrease, the number of decreases on the current UTC day';

CREATE FUNCTION hroe.table_description(p_table_name text, p_table_status text DEFAULT 'ACTIVE',
									   p_index_status text DEFAULT NULL, p_index_name text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_defs jsonb;
	v_gsis jsonb := '[]';
	v_lsis jsonb := '[]';
	v_index jsonb;
	v_key jsonb;
	v_sizes jsonb;
	v_arn text;
	v_changing boolean;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	v_arn := hroe.table_arn(t.table_name);
	-- the table's and every index's count and size, in one pass
	IF hroe.table_is_distributed(t.relid) THEN
		SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
		INTO v_sizes FROM hroe.partition_table_sizes(p_table_name, t.relid) s;
	ELSE
		SELECT jsonb_object_agg(coalesce(s.index_name, ''), jsonb_build_array(s.item_count, s.size_bytes))
		INTO v_sizes FROM hroe.table_sizes(p_table_name) s;
	END IF;
	v_defs := jsonb_build_object(t.partition_key, t.partition_key_type);
	IF t.sort_key IS NOT NULL THEN
		v_defs := v_defs || jsonb_build_object(t.sort_key, t.sort_key_type);
	END IF;
	FOR x IN SELECT * FROM hroe.indexes WHERE table_name = p_table_name ORDER BY index_name LOOP
		SELECT jsonb_agg(jsonb_build_object('AttributeName', a, 'KeyType', kt) ORDER BY ord)
		INTO v_key
		FROM (SELECT a, 'HASH' kt, o ord FROM unnest(x.partition_key) WITH ORDINALITY u(a, o)
			  UNION ALL
			  SELECT a, 'RANGE', 10 + o FROM unnest(x.sort_key) WITH ORDINALITY u(a, o)) k;
		SELECT v_defs || coalesce(jsonb_object_agg(a, ty), '{}') INTO v_defs
		FROM unnest(x.partition_key || x.sort_key, x.partition_key_types || x.sort_key_types) u(a, ty);
		v_index := jsonb_build_object(
			'IndexName', x.index_name,
			'KeySchema', v_key,
			'Projection', CASE WHEN x.projection = 'INCLUDE'
							   THEN jsonb_build_object('ProjectionType', x.projection, 'NonKeyAttributes', to_jsonb(x.non_key_attributes))
							   ELSE jsonb_build_object('ProjectionType', x.projection) END,
			'ItemCount', v_sizes -> x.index_name -> 0,
			'IndexSizeBytes', v_sizes -> x.index_name -> 1,
			'IndexArn', v_arn || '/index/' || x.index_name,
			'PostgresIndex', format('%I.%I', (SELECT n.nspname FROM pg_namespace n JOIN pg_class k ON k.relnamespace = n.oid WHERE k.oid = t.relid), x.index_relname));
		-- an LSI has no status and no throughput of its own
		IF x.local THEN
			v_lsis := v_lsis || jsonb_build_array(v_index);
		ELSE
			v_changing := p_index_status IS NOT NULL AND x.index_name = coalesce(p_index_name, x.index_name);
			v_index := v_index || jsonb_build_object(
				'IndexStatus', CASE WHEN v_changing THEN p_index_status ELSE 'ACTIVE' END,
				'ProvisionedThroughput', hroe.throughput_description(x.read_capacity_units, x.write_capacity_units,
																	 x.last_increase_at, x.last_decrease_at, x.decreases_today));
			-- a GSI UpdateTable creates is backfilled once it is CREATING
			IF v_changing AND x.index_name = p_index_name AND p_index_status = 'CREATING' THEN
				v_index := v_index || jsonb_build_object('Backfilling', false);
			END IF;
			v_gsis := v_gsis || jsonb_build_array(v_index);
		END IF;
	END LOOP;
	RETURN jsonb_strip_nulls(jsonb_build_object(
		'TableName', t.table_name,
		'TableStatus', coalesce(p_table_status, 'ACTIVE'),
		'CreationDateTime', EXTRACT(epoch FROM t.created_at),
		'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', t.partition_key, 'KeyType', 'HASH'))
					 || CASE WHEN t.sort_key IS NOT NULL
							 THEN jsonb_build_array(jsonb_build_object('AttributeName', t.sort_key, 'KeyType', 'RANGE'))
							 ELSE '[]' END,
		-- in the order of the CreateTable request, then by name
		'AttributeDefinitions', (SELECT jsonb_agg(jsonb_build_object('AttributeName', key, 'AttributeType', value)
												  ORDER BY array_position(t.attribute_order, key), key)
								 FROM jsonb_each_text(v_defs)),
		'ProvisionedThroughput', hroe.throughput_description(t.read_capacity_units, t.write_capacity_units,
															 t.last_increase_at, t.last_decrease_at, t.decreases_today),
		'ItemCount', v_sizes -> '' -> 0,
		'TableSizeBytes', v_sizes -> '' -> 1,
		'TableArn', v_arn,
		'TableId', t.table_id,
		-- (a table that has always been PROVISIONED shows none)
		'BillingModeSummary', CASE WHEN t.pay_per_request_since IS NOT NULL
								   THEN jsonb_build_object('BillingMode', t.billing_mode,
														   'LastUpdateToPayPerRequestDateTime', EXTRACT(epoch FROM t.pay_per_request_since)) END,
		'LocalSecondaryIndexes', CASE WHEN v_lsis = '[]' THEN NULL ELSE v_lsis END,
		'GlobalSecondaryIndexes', CASE WHEN v_gsis = '[]' THEN NULL ELSE v_gsis END,
		'DeletionProtectionEnabled', t.deletion_protection,
		'PostgresTable', t.relid::text));
END
$$;
COMMENT ON FUNCTION hroe.table_description(text, text, text, text) IS
'DynamoDB''s TableDescription of table p_table_name, with TableStatus p_table_status and IndexStatus p_index_status for GSI p_index_name (NULL: every GSI; a GSI named CREATING also shows Backfilling), else ACTIVE: key schema, attribute definitions, ARN, TableId, creation time, billing mode, provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, ARN, item count, size of the index entries) and the exact item count and DynamoDB size of the table; also names the PostgreSQL table and indexes (PostgresTable, PostgresIndex)';

CREATE FUNCTION hroe.describe_table(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN jsonb_build_object('Table', hroe.table_description(p_table_name));
END
$$;
COMMENT ON FUNCTION hroe.describe_table(text) IS
'DescribeTable: {"Table": hroe.table_description(p_table_name)}: key schema, attribute definitions, ARN, TableId, billing mode and provisioned throughput, deletion protection, local and global secondary indexes (key schema, projection, item count, size of the index entries) and the exact item count and DynamoDB size of the table, as DynamoDB JSON; also names the PostgreSQL table and indexes';

-- CreateTable's settings of a table just created
CREATE FUNCTION hroe.set_table_settings(p_table_name text, p_billing_mode text,
										p_read_capacity_units bigint, p_write_capacity_units bigint,
										p_deletion_protection boolean, p_attribute_order text[],
										p_index_throughput jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	UPDATE hroe.tables
	SET billing_mode = p_billing_mode,
		read_capacity_units = p_read_capacity_units,
		write_capacity_units = p_write_capacity_units,
		pay_per_request_since = CASE WHEN p_billing_mode = 'PAY_PER_REQUEST' THEN created_at END,
		deletion_protection = coalesce(p_deletion_protection, false),
		attribute_order = coalesce(p_attribute_order, '{}')
	WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	UPDATE hroe.indexes
	SET read_capacity_units = (p_index_throughput -> index_name ->> 0)::bigint,
		write_capacity_units = (p_index_throughput -> index_name ->> 1)::bigint
	WHERE table_name = p_table_name AND NOT local AND p_index_throughput ? index_name;
END
$$;
COMMENT ON FUNCTION hroe.set_table_settings(text, text, bigint, bigint, boolean, text[], jsonb) IS
'internal: CreateTable''s settings of a table hroe.create_table just made: billing mode (PROVISIONED with both capacity units, or PAY_PER_REQUEST without), deletion protection, the order of its AttributeDefinitions, and each GSI''s throughput (p_index_throughput: {"index": [read, write]})';

CREATE FUNCTION hroe.update_table(p_table_name text, p_billing_mode text DEFAULT NULL,
								  p_read_capacity_units bigint DEFAULT NULL,
								  p_write_capacity_units bigint DEFAULT NULL,
								  p_deletion_protection boolean DEFAULT NULL,
								  p_index_throughput jsonb DEFAULT NULL,
								  p_new_index text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_mode text;
	v_name text;
	v_missing text;
	v_read bigint;
	v_write bigint;
	v_changed boolean := false;
BEGIN
	PERFORM hroe.check_table_owner(p_table_name);
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF p_billing_mode IS NOT NULL AND p_billing_mode NOT IN ('PROVISIONED', 'PAY_PER_REQUEST') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''billingMode'' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]', p_billing_mode));
	END IF;
	IF (p_read_capacity_units IS NULL) <> (p_write_capacity_units IS NULL) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED');
	END IF;
	v_mode := coalesce(p_billing_mode, t.billing_mode);
	IF p_read_capacity_units IS NOT NULL AND v_mode = 'PAY_PER_REQUEST' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST');
	END IF;
	IF p_read_capacity_units IS NULL AND v_mode = 'PROVISIONED' AND t.billing_mode = 'PAY_PER_REQUEST' THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			'One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED');
	END IF;
	FOR v_name IN SELECT jsonb_object_keys(coalesce(p_index_throughput, '{}')) LOOP
		IF v_mode = 'PAY_PER_REQUEST' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST', v_name));
		END IF;
		IF NOT EXISTS (SELECT FROM hroe.indexes WHERE table_name = p_table_name AND index_name = v_name AND NOT local) THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Index: %s not found', v_name));
		END IF;
	END LOOP;
	-- on a PROVISIONED table every GSI has its throughput: those of a
	-- table that becomes PROVISIONED, and a new one, need it given
	IF v_mode = 'PROVISIONED' THEN
		SELECT string_agg(index_name, ',' ORDER BY index_name) INTO v_missing
		FROM hroe.indexes
		WHERE table_name = p_table_name AND NOT local AND read_capacity_units IS NULL
			  AND NOT coalesce(p_index_throughput ? index_name, false);
		IF v_missing IS NOT NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: ProvisionedThroughput must be specified for index: %s', v_missing));
		END IF;
	END IF;

	-- the table's throughput and billing mode
	IF p_read_capacity_units IS NOT NULL THEN
		IF t.billing_mode = 'PROVISIONED' THEN
			PERFORM hroe.check_throughput_change(t.read_capacity_units, t.write_capacity_units,
												 p_read_capacity_units, p_write_capacity_units);
		END IF;
		UPDATE hroe.tables
		SET billing_mode = 'PROVISIONED',
			read_capacity_units = p_read_capacity_units,
			write_capacity_units = p_write_capacity_units,
			last_increase_at = CASE WHEN t.billing_mode = 'PROVISIONED'
										 AND (p_read_capacity_units > t.read_capacity_units
											  OR p_write_capacity_units > t.write_capacity_units)
									THEN now() ELSE last_increase_at END,
			last_decrease_at = CASE WHEN t.billing_mode = 'PROVISIONED'
										 AND (p_read_capacity_units < t.read_capacity_units
											  OR p_write_capacity_units < t.write_capacity_units)
									THEN now() ELSE last_decrease_at END,
			decreases_today = hroe.decreases_today(t.billing_mode = 'PROVISIONED'
												   AND (p_read_capacity_units < t.read_capacity_units
														OR p_write_capacity_units < t.write_capacity_units),
												   last_decrease_at, decreases_today)
		WHERE table_name = p_table_name;
		v_changed := true;
	ELSIF v_mode = 'PAY_PER_REQUEST' AND t.billing_mode = 'PROVISIONED' THEN
		UPDATE hroe.tables
		SET billing_mode = 'PAY_PER_REQUEST', read_capacity_units = NULL, write_capacity_units = NULL,
			pay_per_request_since = now()
		WHERE table_name = p_table_name;
		UPDATE hroe.indexes SET read_capacity_units = NULL, write_capacity_units = NULL
		WHERE table_name = p_table_name;
		v_changed := true;
	END IF;

	-- each GSI's throughput
	FOR x IN SELECT * FROM hroe.indexes
			 WHERE table_name = p_table_name AND coalesce(p_index_throughput ? index_name, false) LOOP
		v_read := (p_index_throughput -> x.index_name ->> 0)::bigint;
		v_write := (p_index_throughput -> x.index_name ->> 1)::bigint;
		IF x.read_capacity_units IS NOT NULL AND t.billing_mode = 'PROVISIONED' THEN
			PERFORM hroe.check_throughput_change(x.read_capacity_units, x.write_capacity_units, v_read, v_write);
		END IF;
		UPDATE hroe.indexes
		SET read_capacity_units = v_read,
			write_capacity_units = v_write,
			last_increase_at = CASE WHEN x.read_capacity_units IS NOT NULL
										 AND (v_read > x.read_capacity_units OR v_write > x.write_capacity_units)
									THEN now() ELSE last_increase_at END,
			last_decrease_at = CASE WHEN x.read_capacity_units IS NOT NULL
										 AND (v_read < x.read_capacity_units OR v_write < x.write_capacity_units)
									THEN now() ELSE last_decrease_at END,
			decreases_today = hroe.decreases_today(x.read_capacity_units IS NOT NULL
												   AND (v_read < x.read_capacity_units OR v_write < x.write_capacity_units),
												   last_decrease_at, decreases_today)
		WHERE table_name = p_table_name AND index_name = x.index_name;
	END LOOP;

	IF p_deletion_protection IS NOT NULL THEN
		UPDATE hroe.tables SET deletion_protection = p_deletion_protection WHERE table_name = p_table_name;
	END IF;
	RETURN v_changed;
END
$$;
COMMENT ON FUNCTION hroe.update_table(text, text, bigint, bigint, boolean, jsonb, text) IS
'UpdateTable''s settings, with DynamoDB''s rules and errors: billing mode (PROVISIONED needs both capacity units for the table and each GSI, PAY_PER_REQUEST takes none), the table''s and each GSI''s provisioned throughput (p_index_throughput: {"index": [read, write]}; a change to the current values is an error; increases, decreases and the day''s number of decreases are recorded), deletion protection; p_new_index: a GSI the same UpdateTable creates. True if the table''s throughput or billing mode changes (the table is then UPDATING)';

-- DynamoDB's error when a throughput update changes nothing
CREATE FUNCTION hroe.check_throughput_change(p_read bigint, p_write bigint, p_new_read bigint, p_new_write bigint)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_read = p_new_read AND p_write = p_new_write THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: %s. Requested ReadCapacityUnits: %s. Current WriteCapacityUnits provisioned for the table: %s. Requested WriteCapacityUnits: %s. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.',
				   p_read, p_new_read, p_write, p_new_write));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_throughput_change(bigint, bigint, bigint, bigint) IS
'internal: Raises DynamoDB''s ValidationException when a throughput update requests the current values';

-- The number of decreases on the current UTC day after a decrease (or not)
CREATE FUNCTION hroe.decreases_today(p_decrease boolean, p_last_decrease timestamptz, p_decreases integer)
RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
RETURN CASE WHEN NOT p_decrease THEN p_decreases
			WHEN (p_last_decrease AT TIME ZONE 'UTC')::date = (pg_catalog.now() AT TIME ZONE 'UTC')::date
			THEN p_decreases + 1
			ELSE 1 END;
COMMENT ON FUNCTION hroe.decreases_today(boolean, timestamptz, integer) IS
'internal: The count of throughput decreases kept with the last decrease''s time after an update (p_decrease: the update decreases): one more on the same UTC day, else 1';

-- ---------- tags ----------

CREATE TABLE hroe.table_tags (
	table_name	text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	tag_key		text NOT NULL CHECK (char_length(tag_key) BETWEEN 1 AND 128),
	tag_value	text NOT NULL CHECK (char_length(tag_value) <= 256),
	PRIMARY KEY (table_name, tag_key)
);
COMMENT ON TABLE hroe.table_tags IS 'The tags of DynamoDB tables (TagResource, UntagResource, ListTagsOfResource): readable by every role, as hroe.tables; under row-level security only a member of the role owning a table writes its tags';
ALTER TABLE hroe.table_tags ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.table_tags FORCE ROW LEVEL SECURITY;
CREATE POLICY table_tags_read ON hroe.table_tags FOR SELECT USING (true);
COMMENT ON POLICY table_tags_read ON hroe.table_tags IS 'Tags are metadata, readable by every role, as hroe.tables';
CREATE POLICY table_tags_owner ON hroe.table_tags FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY table_tags_owner ON hroe.table_tags IS 'Only a member of the role owning a table''s PostgreSQL table adds, changes or removes its tags';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.table_tags TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.table_tags',
	'WHERE NOT EXISTS (SELECT FROM hroe.tables t JOIN pg_catalog.pg_depend d ON d.objid = t.relid AND d.classid = ''pg_catalog.pg_class''::pg_catalog.regclass AND d.deptype = ''e'' WHERE t.table_name = table_tags.table_name)');

CREATE FUNCTION hroe.tag_resource(p_table_name text, p_tags jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_key text;
	v_count integer;
BEGIN
	-- (no row lock: that needs UPDATE on hroe.tables; the foreign key
	-- keeps a concurrent DeleteTable out)
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourcArn: %s not found', hroe.table_arn(p_table_name)));
	END IF;
	IF NOT hroe.owns_table(p_table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its tags', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	IF jsonb_typeof(p_tags) IS DISTINCT FROM 'object' THEN
		RAISE EXCEPTION 'p_tags must be a JSON object of tag keys to values'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR v_key IN SELECT k FROM jsonb_object_keys(p_tags) k LOOP
		IF lower(v_key) LIKE 'aws:%' THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('One or more parameter values were invalid: The tag key %s uses the prefix aws:, which is reserved for AWS use', v_key));
		END IF;
		IF jsonb_typeof(p_tags -> v_key) IS DISTINCT FROM 'string' THEN
			RAISE EXCEPTION 'the value of tag % must be a string', v_key
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END LOOP;
	INSERT INTO hroe.table_tags (table_name, tag_key, tag_value)
	SELECT p_table_name, key, value FROM jsonb_each_text(p_tags)
	ON CONFLICT (table_name, tag_key) DO UPDATE SET tag_value = excluded.tag_value;
	SELECT count(*) INTO v_count FROM hroe.table_tags WHERE table_name = p_table_name;
	IF v_count > 50 THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('One or more parameter values were invalid: The number of tags of a table would exceed the limit of 50: %s', v_count));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.tag_resource(text, jsonb) IS
'TagResource: adds the tags p_tags ({"key": "value"}) to table p_table_name, replacing the values of keys it has; at most 50 tags a table, keys of 1-128 and values of 0-256 characters, no key with the prefix aws:. Only a member of the role owning the table may (row-level security on hroe.table_tags)';

CREATE FUNCTION hroe.untag_resource(p_table_name text, p_tag_keys text[])
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException', 'Requested resource not found');
	END IF;
	IF NOT hroe.owns_table(p_table_name) THEN
		RAISE EXCEPTION 'only a member of the role owning table % may change its tags', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	DELETE FROM hroe.table_tags WHERE table_name = p_table_name AND tag_key = ANY (p_tag_keys);
END
$$;
COMMENT ON FUNCTION hroe.untag_resource(text, text[]) IS
'UntagResource: removes the tags with keys p_tag_keys (absent ones are ignored) from table p_table_name. Only a member of the role owning the table may (row-level security on hroe.table_tags)';

CREATE FUNCTION hroe.list_tags_of_resource(p_table_name text)
RETURNS TABLE (key text, value text)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	PERFORM 1 FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: ResourcArn: %s not found', hroe.table_arn(p_table_name)));
	END IF;
	RETURN QUERY SELECT g.tag_key, g.tag_value FROM hroe.table_tags g
				 WHERE g.table_name = p_table_name ORDER BY g.tag_key COLLATE "C";
END
$$;
COMMENT ON FUNCTION hroe.list_tags_of_resource(text) IS
'ListTagsOfResource: the tags of table p_table_name, by key';
-- Item collections of tables with local secondary indexes
-- (src/tables_collection.c): their sizes, kept by a trigger, for DynamoDB's
-- 10 GB limit and ItemCollectionMetrics

CREATE TABLE hroe.item_collection_sizes (
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	-- the SHA-256 of the partition key value as DynamoDB JSON ({"S": "..."})
	collection			bytea NOT NULL,
	-- its items' sizes plus their LSI entries' sizes, in bytes
	size_bytes			bigint NOT NULL,
	PRIMARY KEY (table_name, collection)
);
COMMENT ON TABLE hroe.item_collection_sizes IS 'internal: The size of each non-empty item collection of each table with local secondary indexes (its items and their LSI entries, DynamoDB''s measure), kept by the trigger hroe.item_collection_size in the writing transaction; read and written only by the extension''s owner, through that trigger and ItemCollectionMetrics';
REVOKE ALL ON hroe.item_collection_sizes FROM PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.item_collection_sizes', '');

CREATE FUNCTION hroe.item_collection_size()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_item_collection_size'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.item_collection_size() IS
'internal: The AFTER ROW trigger of a table with local secondary indexes (argument: the DynamoDB table''s name, checked to be the trigger''s table): adds a write''s change to its item collections'' sizes in hroe.item_collection_sizes as the extension''s owner, and raises ItemCollectionSizeLimitExceededException when a write grows a collection past hroe.item_collection_size_limit (10 GB); as the table''s AFTER TRUNCATE statement trigger, deletes its sizes';

--
-- Distributed tables (src/tables_partition.c, doc/partitioning.md): with
-- hroe.partition_servers naming postgres_fdw foreign servers, CreateTable
-- makes the table hash-partitioned by its partition key column pk, one
-- partition per server, each a foreign table over a hroe table of the same
-- name created there by hroe.create_table (its own primary key, GSI and LSI
-- indexes).  Remote DDL runs through dblink, on the foreign server's user
-- mapping.
--

-- The foreign servers hroe.partition_servers names, validated
CREATE FUNCTION hroe.partition_server_list() RETURNS name[]
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_servers name[];
	v_server name;
	v_options text[];
BEGIN
	SELECT coalesce(array_agg(trim(s)::name ORDER BY o), '{}') INTO v_servers
	FROM unnest(string_to_array(current_setting('hroe.partition_servers'), ',')) WITH ORDINALITY u(s, o)
	WHERE trim(s) <> '';
	FOREACH v_server IN ARRAY v_servers LOOP
		SELECT s.srvoptions INTO v_options
		FROM pg_foreign_server s JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw
		WHERE s.srvname = v_server AND w.fdwname = 'postgres_fdw';
		IF NOT FOUND THEN
			RAISE EXCEPTION 'hroe.partition_servers names "%", which is not a postgres_fdw foreign server', v_server
				USING ERRCODE = 'undefined_object';
		END IF;
		-- hroe's operators and functions must be shipped, or no key
		-- condition reaches the partition (it would send its whole table)
		IF NOT EXISTS (SELECT FROM unnest(v_options) opt
					   WHERE opt LIKE 'extensions=%'
					   AND 'hroe' = ANY (string_to_array(replace(substr(opt, 12), ' ', ''), ','))) THEN
			RAISE EXCEPTION 'foreign server "%" must list hroe in its extensions option', v_server
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = format('ALTER SERVER %I OPTIONS (ADD extensions ''hroe'')', v_server);
		END IF;
	END LOOP;
	IF cardinality(v_servers) <> (SELECT count(DISTINCT s) FROM unnest(v_servers) s) THEN
		RAISE EXCEPTION 'hroe.partition_servers names a server twice'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	RETURN v_servers;
END
$$;
COMMENT ON FUNCTION hroe.partition_server_list() IS
'internal: The foreign servers the setting hroe.partition_servers names (empty: tables are local), each checked to be a postgres_fdw server whose extensions option lists hroe';

-- The partitions of a distributed table and their servers
CREATE FUNCTION hroe.table_partitions(p_rel regclass)
RETURNS TABLE (partition regclass, server name, remote_schema text, remote_table text, bound text)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT i.inhrelid::regclass, s.srvname,
		   (SELECT substr(o, 13) FROM unnest(f.ftoptions) o WHERE o LIKE 'schema_name=%'),
		   (SELECT substr(o, 12) FROM unnest(f.ftoptions) o WHERE o LIKE 'table_name=%'),
		   pg_get_expr(c.relpartbound, c.oid)
	FROM pg_inherits i
	JOIN pg_class c ON c.oid = i.inhrelid
	LEFT JOIN pg_foreign_table f ON f.ftrelid = i.inhrelid
	LEFT JOIN pg_foreign_server s ON s.oid = f.ftserver
	WHERE i.inhparent = p_rel
	ORDER BY c.relname;
END;
COMMENT ON FUNCTION hroe.table_partitions(regclass) IS
'The partitions of a distributed table: each partition (a postgres_fdw foreign table), its foreign server, the schema and table it reads there, and its hash bound (MODULUS, REMAINDER); no row for a table that is not partitioned';

-- Whether a table is distributed
CREATE FUNCTION hroe.table_is_distributed(p_rel regclass) RETURNS boolean
LANGUAGE sql STABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN (SELECT c.relkind = 'p' FROM pg_class c WHERE c.oid = p_rel);
COMMENT ON FUNCTION hroe.table_is_distributed(regclass) IS
'internal: Whether the PostgreSQL table of a DynamoDB table is partitioned over servers (a partitioned table, made by hroe.create_table under hroe.partition_servers)';

-- The schema of the dblink extension, which remote DDL needs
CREATE FUNCTION hroe.dblink_schema() RETURNS name
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name;
BEGIN
	SELECT n.nspname INTO v_dblink
	FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'dblink';
	IF NOT FOUND THEN
		RAISE EXCEPTION 'distributed tables need the dblink extension'
			USING ERRCODE = 'undefined_object',
				  HINT = 'CREATE EXTENSION dblink (PostgreSQL''s contrib) on this database.';
	END IF;
	RETURN v_dblink;
END
$$;
COMMENT ON FUNCTION hroe.dblink_schema() IS
'internal: The schema of the dblink extension (distributed tables run their DDL on the partition servers through it), or an error naming it';

-- Run one SQL statement on a foreign server through dblink
CREATE FUNCTION hroe.partition_exec(p_server name, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_conn text := 'hroe_partition_ddl';
BEGIN
	-- dblink takes a foreign server's name for a connection string and
	-- connects with its options and the current role's user mapping; a
	-- remote error is raised here with its SQLSTATE (a DynamoDB one stays).
	-- The statement waits at most 10 s for a lock: DDL there after this
	-- transaction read the table through postgres_fdw (whose remote
	-- transaction holds its lock until this one ends) fails rather than
	-- waits for ever.
	EXECUTE format('SELECT %I.dblink_connect(%L, %L)', v_dblink, v_conn, p_server);
	BEGIN
		EXECUTE format('SELECT %I.dblink_exec(%L, %L)', v_dblink, v_conn, 'SET lock_timeout = ''10s''');
		EXECUTE format('SELECT count(*) FROM %I.dblink(%L, %L) AS r(v text)', v_dblink, v_conn, p_sql);
	EXCEPTION WHEN OTHERS THEN
		EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
		RAISE;
	END;
	EXECUTE format('SELECT %I.dblink_disconnect(%L)', v_dblink, v_conn);
END
$$;
COMMENT ON FUNCTION hroe.partition_exec(name, text) IS
'internal: Runs p_sql (a statement returning one text column) on foreign server p_server through dblink (its own remote transaction, committed at once; lock_timeout 10 s), with the server''s options and the current role''s user mapping; a remote error is raised with its SQLSTATE';

-- The item counts and sizes of a distributed table, summed over its servers
CREATE FUNCTION hroe.partition_table_sizes(p_table_name text, p_rel regclass)
RETURNS TABLE (index_name text, item_count bigint, size_bytes bigint)
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_sql text := '';
	v_server name;
BEGIN
	-- through dblink, not postgres_fdw: a DeleteTable describes the table
	-- before it drops the partitions, which the remote transaction of a
	-- postgres_fdw read would keep locked until the end of this one
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		v_sql := v_sql || CASE WHEN v_sql <> '' THEN ' UNION ALL ' ELSE '' END
				 || format('SELECT * FROM %I.dblink(%L, %L) AS r(index_name text, item_count bigint, size_bytes bigint)',
						   v_dblink, v_server, format('SELECT * FROM hroe.table_sizes(%L)', p_table_name));
	END LOOP;
	IF v_sql = '' THEN
		RETURN;
	END IF;
	RETURN QUERY EXECUTE format('SELECT s.index_name, sum(s.item_count)::bigint, sum(s.size_bytes)::bigint
								 FROM (%s) s GROUP BY s.index_name', v_sql);
END
$$;
COMMENT ON FUNCTION hroe.partition_table_sizes(text, regclass) IS
'internal: hroe.table_sizes of distributed table p_table_name (PostgreSQL table p_rel): each server''s hroe.table_sizes of its partition, through dblink, summed per index';

-- Run one SQL statement on every server of a distributed table
CREATE FUNCTION hroe.partition_exec_all(p_rel regclass, p_sql text) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_server name;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		PERFORM hroe.partition_exec(v_server, p_sql);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.partition_exec_all(regclass, text) IS
'internal: Runs p_sql (DDL of hroe on a distributed table: create_index, delete_index, delete_table) on each foreign server holding a partition of p_rel, one after another';

-- Create a distributed table's partitions: a hroe table on each server, a
-- foreign table over it as the partition of remainder i
CREATE FUNCTION hroe.create_table_partitions(p_rel regclass, p_table_name text, p_servers name[],
											 p_partition_key text, p_partition_key_type text,
											 p_sort_key text, p_sort_key_type text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_schema name;
	v_relname name;
	n integer := cardinality(p_servers);
BEGIN
	SELECT s.nspname, c.relname INTO v_schema, v_relname
	FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.oid = p_rel;
	FOR i IN 1 .. n LOOP
		PERFORM hroe.partition_exec(p_servers[i],
			format('SELECT hroe.create_table(%L, %L, %L, %L, %L, %L)::text', p_table_name, p_partition_key,
				   p_partition_key_type, p_sort_key, p_sort_key_type, v_schema));
		EXECUTE format('CREATE FOREIGN TABLE %I.%I PARTITION OF %s FOR VALUES WITH (MODULUS %s, REMAINDER %s)'
					   ' SERVER %I OPTIONS (schema_name %L, table_name %L)',
					   v_schema, hroe.relation_name(format('%s#%s', p_table_name, i - 1)), p_rel, n, i - 1,
					   p_servers[i], v_schema, v_relname);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.create_table_partitions(regclass, text, name[], text, text, text, text) IS
'internal: hroe.create_table''s distribution: on each server of p_servers, a hroe table named p_table_name in the same schema (hroe.create_table there, through dblink), and here its foreign table <name>#<i> as the partition of remainder i (MODULUS the server count) of p_rel';

-- Whether a query answers true on any server of a distributed table
CREATE FUNCTION hroe.partition_any(p_rel regclass, p_sql text) RETURNS boolean
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_dblink name := hroe.dblink_schema();
	v_server name;
	v boolean;
BEGIN
	FOR v_server IN SELECT DISTINCT p.server FROM hroe.table_partitions(p_rel) p
					WHERE p.server IS NOT NULL ORDER BY 1 LOOP
		EXECUTE format('SELECT bool_or(r.v::boolean) FROM %I.dblink(%L, %L) AS r(v text)',
					   v_dblink, v_server, p_sql) INTO v;
		IF v THEN
			RETURN true;
		END IF;
	END LOOP;
	RETURN false;
END
$$;
COMMENT ON FUNCTION hroe.partition_any(regclass, text) IS
'internal: Whether p_sql (a query of one boolean value, as text) answers true on any foreign server holding a partition of p_rel (through dblink: hroe.create_local_index''s emptiness check)';

--
-- DynamoDB operations on hroe tables (src/operations.c)
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

--
-- DynamoDB's JSON API (src/api.c)
--

CREATE FUNCTION hroe.dynamodb(operation text, request jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_dynamodb'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb(text, jsonb) IS
'One DynamoDB API call: operation (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, TransactWriteItems, TransactGetItems, CreateTable, DescribeTable, DeleteTable, UpdateTable creating or deleting one GSI, ListTables) and the JSON request body; returns the response body DynamoDB returns, errors as {"__type", "message"}; a failed request leaves nothing written';

CREATE FUNCTION hroe.dynamodb_text(operation text, request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_dynamodb_text'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.dynamodb_text(text, text) IS
'hroe.dynamodb over the request body''s text, the response body as text: strings may hold \u0000 (U+0000), as DynamoDB''s do, which jsonb refuses';

CREATE FUNCTION hroe.update_item(p_table_name text, p_key jsonb, p_update_expression text,
	p_condition_expression text DEFAULT NULL, p_expression_attribute_names jsonb DEFAULT NULL,
	p_expression_attribute_values jsonb DEFAULT NULL, p_return_values text DEFAULT 'NONE',
	p_return_consumed_capacity text DEFAULT 'NONE',
	p_return_values_on_condition_check_failure text DEFAULT NULL)
RETURNS hroe.write_result AS 'MODULE_PATHNAME', 'hroe_update_item'
LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.update_item(text, jsonb, text, text, jsonb, jsonb, text, text, text) IS
'UpdateItem: applies the UpdateExpression (NULL: none) to the item, or to the key alone when it does not exist (upsert), after checking the ConditionExpression on the row locked FOR UPDATE (HR002 ConditionalCheckFailed, the old item in DETAIL with ReturnValuesOnConditionCheckFailure ALL_OLD); ReturnValues NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW; capacity as a put';

CREATE FUNCTION hroe.transact_write_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_write_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_write_items(jsonb) IS
'TransactWriteItems: TransactItems ([{"Put"|"Update"|"Delete"|"ConditionCheck": {...}}], at most 100, no two on one item); locks every item in canonical order, checks every condition, then applies all; a failed condition raises HR005 TransactionCanceledException with the CancellationReasons in DETAIL';

CREATE FUNCTION hroe.transact_get_items(p_transact_items jsonb)
RETURNS jsonb AS 'MODULE_PATHNAME', 'hroe_transact_get_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.transact_get_items(jsonb) IS
'TransactGetItems: TransactItems ([{"Get": {"TableName", "Key", "ProjectionExpression"?}}], at most 100); every item read under a share lock; returns the Responses array ({"Item": ...} or {} per Get, in request order)';

-- TransactWriteItems ClientRequestToken: a replay within 10 minutes succeeds
-- without writing.  DynamoDB scopes a token to its account; here the account
-- is the PostgreSQL role whose privileges the call uses (current_user), so a
-- token is private to that role: row-level security, forced on the table's
-- owner too, lets a role see, record, change and delete only its own tokens
-- (another role can neither read them nor forge one that would answer, or
-- fail, the owner's transaction).  owner is the role's oid, filled in by the
-- server: the policy's WITH CHECK refuses any other value.  Superusers and
-- BYPASSRLS roles see every row, so hroe.dynamodb filters on owner itself.
-- Expired tokens of a role are deleted when it records a new one;
-- hroe.purge_transaction_tokens() deletes every role's, and those of dropped
-- roles (an oid may be reused by a later role).  The tokens are transient:
-- the table is not dumped (no pg_extension_config_dump).
CREATE TABLE hroe.transaction_tokens (
	owner			oid NOT NULL
		DEFAULT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER)),
	token			text NOT NULL,
	request_hash	bigint NOT NULL,
	finished_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	PRIMARY KEY (owner, token)
);
-- a role's expired tokens, deleted when it records one
CREATE INDEX transaction_tokens_expiry ON hroe.transaction_tokens (owner, finished_at);
COMMENT ON TABLE hroe.transaction_tokens IS 'ClientRequestTokens of committed TransactWriteItems calls (hroe.dynamodb): the role that made each (owner, its oid), the hash of their TransactItems and when they finished; a token is idempotent for 10 minutes; under row-level security a role sees and writes only its own';
ALTER TABLE hroe.transaction_tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE hroe.transaction_tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY own_tokens ON hroe.transaction_tokens
	USING (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))))
	WITH CHECK (owner OPERATOR(pg_catalog.=) (SELECT pg_catalog.to_regrole(pg_catalog.quote_ident(CURRENT_USER))));
COMMENT ON POLICY own_tokens ON hroe.transaction_tokens IS 'A role sees, records, changes and deletes only its own ClientRequestTokens';
GRANT SELECT, INSERT, UPDATE, DELETE ON hroe.transaction_tokens TO PUBLIC;

CREATE FUNCTION hroe.purge_transaction_tokens()
RETURNS bigint
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	WITH purged AS (
		DELETE FROM hroe.transaction_tokens t
		WHERE t.finished_at OPERATOR(pg_catalog.<=) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')
			OR NOT EXISTS (SELECT FROM pg_catalog.pg_roles r WHERE r.oid OPERATOR(pg_catalog.=) t.owner)
		RETURNING 1)
	SELECT pg_catalog.count(*) FROM purged;
END;
COMMENT ON FUNCTION hroe.purge_transaction_tokens() IS
'Deletes the expired ClientRequestTokens (finished over 10 minutes ago) and those of dropped roles; returns how many. For an administrator: run by a superuser (or a BYPASSRLS role granted EXECUTE) it purges every role''s tokens; PUBLIC may not execute it';
REVOKE EXECUTE ON FUNCTION hroe.purge_transaction_tokens() FROM PUBLIC;

--
-- DynamoDB Streams and Time to Live (src/streams.sql, src/streams.c,
-- src/api_streams.c; doc/streams.md)
--
-- A table's stream is an AFTER ROW trigger (hroe.stream_capture, C) that
-- appends one record per changed row to hroe.stream_records in the writing
-- transaction: a rolled-back write leaves none, a write that changes nothing
-- leaves none.  Sequence numbers are given after commit, by the first reader
-- (hroe.stream_sequence): in the order the records were written, to the
-- records of committed transactions only, so that a reader never passes a
-- record a still-running transaction will commit later.
--

CREATE SEQUENCE hroe.stream_ids;
COMMENT ON SEQUENCE hroe.stream_ids IS 'internal: Identifiers of hroe.streams';

CREATE TABLE hroe.streams (
	stream_id			bigint PRIMARY KEY DEFAULT pg_catalog.nextval('hroe.stream_ids'),
	table_name			text NOT NULL REFERENCES hroe.tables ON DELETE CASCADE,
	view_type			text NOT NULL
		CHECK (view_type IN ('KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES')),
	-- StreamLabel: the creation time, to the millisecond, in UTC
	label				text NOT NULL,
	created_at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp(),
	disabled_at			timestamptz,
	-- the highest sequence number given, the highest trimmed
	last_seq			bigint NOT NULL DEFAULT 0,
	trimmed_seq			bigint NOT NULL DEFAULT 0,
	UNIQUE (table_name, label)
);
CREATE UNIQUE INDEX streams_enabled ON hroe.streams (table_name) WHERE disabled_at IS NULL;
COMMENT ON TABLE hroe.streams IS 'DynamoDB Streams: each stream of a table (at most one enabled; a disabled one stays readable for 24 hours), its StreamViewType and StreamLabel, the highest sequence number given and the highest trimmed';
GRANT SELECT ON hroe.streams TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.streams', '');
-- Writes scoped to the table's owner, as hroe.tables': a role granted INSERT,
-- UPDATE or DELETE on hroe.streams (CreateTable or UpdateTable with a stream
-- through the gateway) changes only the streams of the tables it owns.  Not
-- forced: the sequencing and the capture run as the extension's owner, the
-- Time to Live worker as a superuser.
ALTER TABLE hroe.streams ENABLE ROW LEVEL SECURITY;
CREATE POLICY streams_read ON hroe.streams FOR SELECT USING (true);
COMMENT ON POLICY streams_read ON hroe.streams IS 'The streams'' metadata is readable by every role, as hroe.tables';
CREATE POLICY streams_owner ON hroe.streams FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY streams_owner ON hroe.streams IS 'A role enables, disables or changes only the streams of a table it owns';
SELECT pg_catalog.pg_extension_config_dump('hroe.stream_ids', '');

CREATE SEQUENCE hroe.stream_write_order;
COMMENT ON SEQUENCE hroe.stream_write_order IS 'internal: The order in which stream records were written (hroe.stream_records.write_seq), across all streams';

CREATE TABLE hroe.stream_records (
	stream_id			bigint NOT NULL,
	write_seq			bigint NOT NULL DEFAULT pg_catalog.nextval('hroe.stream_write_order'),
	-- SequenceNumber, given after the writer committed (NULL before)
	seq					bigint,
	event				"char" NOT NULL CHECK (event IN ('I', 'M', 'R')),
	-- a deletion by Time to Live (userIdentity: the service)
	service				boolean NOT NULL,
	created_at			timestamptz NOT NULL,
	size_bytes			integer NOT NULL,
	keys				hroe.item NOT NULL,
	old_image			hroe.item,
	new_image			hroe.item
);
CREATE INDEX stream_records_seq ON hroe.stream_records (stream_id, seq);
CREATE INDEX stream_records_pending ON hroe.stream_records (stream_id, write_seq) WHERE seq IS NULL;
COMMENT ON TABLE hroe.stream_records IS 'internal: The records of every stream: INSERT, MODIFY or REMOVE, keys and images as the view type keeps them, written by hroe.stream_capture in the writing transaction; readable only through the Streams API, which checks SELECT on the stream''s table';
-- the records of every table are here: no role but the extension's owner
-- reads or writes them directly (hroe.stream_capture and the Streams API
-- switch to that owner, after the privilege checks of the table's own)
REVOKE ALL ON hroe.stream_records FROM PUBLIC;

CREATE FUNCTION hroe.stream_capture()
RETURNS trigger AS 'MODULE_PATHNAME', 'hroe_stream_capture'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.stream_capture() IS
'internal: The AFTER ROW trigger of a table with a stream (arguments: stream id, view type, key attribute names): appends the change''s record to hroe.stream_records as the extension''s owner, after checking that the stream is the trigger''s table''s; none when the item did not change';

CREATE FUNCTION hroe.stream_arn(p_table_name text, p_label text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
RETURN hroe.table_arn(p_table_name) || '/stream/' || p_label;
COMMENT ON FUNCTION hroe.stream_arn(text, text) IS
'internal: A stream''s ARN: its table''s (the settings hroe.region and hroe.account_id), then /stream/ and its label';

CREATE FUNCTION hroe.enable_stream(p_table_name text, p_view_type text)
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	v_id bigint;
	v_label text;
	v_now timestamptz := clock_timestamp();
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	IF p_view_type IS NULL OR p_view_type NOT IN ('KEYS_ONLY', 'NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES') THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('1 validation error detected: Value ''%s'' at ''streamSpecification.streamViewType'' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]', p_view_type));
	END IF;
	IF EXISTS (SELECT FROM hroe.streams WHERE table_name = p_table_name AND disabled_at IS NULL) THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Table already has an enabled stream: TableName: %s', p_table_name));
	END IF;
	-- a new label each time (a stream re-enabled in the same millisecond waits for the next)
	LOOP
		v_label := to_char(v_now AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS');
		EXIT WHEN NOT EXISTS (SELECT FROM hroe.streams WHERE table_name = p_table_name AND label = v_label);
		v_now := v_now + interval '1 millisecond';
	END LOOP;
	INSERT INTO hroe.streams (table_name, view_type, label, created_at)
	VALUES (p_table_name, p_view_type, v_label, v_now) RETURNING stream_id INTO v_id;
	EXECUTE format('CREATE TRIGGER hroe_stream AFTER INSERT OR UPDATE OR DELETE ON %s'
				   ' FOR EACH ROW EXECUTE FUNCTION hroe.stream_capture(%L, %L, %L, %L)',
				   t.relid, v_id, p_view_type, t.partition_key, coalesce(t.sort_key, ''));
	RETURN hroe.stream_arn(p_table_name, v_label);
END
$$;
COMMENT ON FUNCTION hroe.enable_stream(text, text) IS
'Enables the DynamoDB stream of a table (UpdateTable''s StreamSpecification): view type KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES; creates the table''s capture trigger hroe_stream; returns the stream''s ARN';

CREATE FUNCTION hroe.disable_stream(p_table_name text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
BEGIN
	SELECT * INTO t FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	UPDATE hroe.streams SET disabled_at = clock_timestamp()
	WHERE table_name = p_table_name AND disabled_at IS NULL;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('Table does not have an enabled stream: TableName: %s', p_table_name));
	END IF;
	EXECUTE format('DROP TRIGGER hroe_stream ON %s', t.relid);
END
$$;
COMMENT ON FUNCTION hroe.disable_stream(text) IS
'Disables the DynamoDB stream of a table (UpdateTable''s StreamSpecification): drops the capture trigger; the stream stays readable, its shard closed, for 24 hours';

CREATE FUNCTION hroe.stream_specification(p_table_name text)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
	SELECT jsonb_build_object(
			   'StreamSpecification', CASE WHEN s.disabled_at IS NULL
										   THEN jsonb_build_object('StreamEnabled', true, 'StreamViewType', s.view_type)
										   ELSE jsonb_build_object('StreamEnabled', false) END,
			   'LatestStreamArn', hroe.stream_arn(s.table_name, s.label),
			   'LatestStreamLabel', s.label)
	FROM hroe.streams s
	WHERE s.table_name = p_table_name
	ORDER BY s.created_at DESC
	LIMIT 1;
END;
COMMENT ON FUNCTION hroe.stream_specification(text) IS
'DescribeTable''s stream members of a table (StreamSpecification, LatestStreamArn, LatestStreamLabel), NULL if it never had a stream';

-- Sequence the committed records of a stream, after those sequenced before
CREATE FUNCTION hroe.stream_sequence(p_stream_id bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_last bigint;
	v_n bigint;
BEGIN
	-- one sequencer per stream at a time; the UPDATE below takes its
	-- snapshot after this lock, so it sees what an earlier one sequenced
	SELECT last_seq INTO v_last FROM hroe.streams WHERE stream_id = p_stream_id FOR UPDATE;
	IF NOT FOUND THEN
		RETURN NULL;
	END IF;
	-- the records of committed writers, in the order they were written:
	-- a writer that commits later is sequenced later, after these
	WITH pending AS (
		SELECT r.ctid AS c, row_number() OVER (ORDER BY r.write_seq) AS n
		FROM hroe.stream_records r
		WHERE r.stream_id = p_stream_id AND r.seq IS NULL)
	UPDATE hroe.stream_records r SET seq = v_last + p.n
	FROM pending p WHERE r.ctid = p.c;
	GET DIAGNOSTICS v_n = ROW_COUNT;
	IF v_n > 0 THEN
		UPDATE hroe.streams SET last_seq = v_last + v_n WHERE stream_id = p_stream_id;
	END IF;
	RETURN v_last + v_n;
END
$$;
COMMENT ON FUNCTION hroe.stream_sequence(bigint) IS
'internal: Gives sequence numbers to the records of a stream whose writers committed, in the order they were written, after the highest given; returns the new highest. Serialized per stream by the stream''s row lock';
REVOKE EXECUTE ON FUNCTION hroe.stream_sequence(bigint) FROM PUBLIC;

CREATE FUNCTION hroe.trim_streams(p_retention interval DEFAULT '24 hours')
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_s hroe.streams;
	v_cutoff timestamptz := clock_timestamp() - p_retention;
	v_trim bigint;
	v_n bigint;
	v_total bigint := 0;
BEGIN
	FOR v_s IN SELECT * FROM hroe.streams ORDER BY stream_id LOOP
		PERFORM hroe.stream_sequence(v_s.stream_id);
		-- the records written before the cutoff, a prefix in sequence order
		SELECT max(seq) INTO v_trim FROM hroe.stream_records
		WHERE stream_id = v_s.stream_id AND seq IS NOT NULL AND created_at < v_cutoff;
		IF v_trim IS NOT NULL THEN
			DELETE FROM hroe.stream_records WHERE stream_id = v_s.stream_id AND seq <= v_trim;
			GET DIAGNOSTICS v_n = ROW_COUNT;
			v_total := v_total + v_n;
			UPDATE hroe.streams SET trimmed_seq = greatest(trimmed_seq, v_trim) WHERE stream_id = v_s.stream_id;
		END IF;
		-- a stream disabled for longer than the retention is gone
		IF v_s.disabled_at < v_cutoff THEN
			DELETE FROM hroe.streams WHERE stream_id = v_s.stream_id;
		END IF;
	END LOOP;
	-- the records of deleted tables' and expired streams
	DELETE FROM hroe.stream_records r
	WHERE NOT EXISTS (SELECT FROM hroe.streams x WHERE x.stream_id = r.stream_id);
	GET DIAGNOSTICS v_n = ROW_COUNT;
	RETURN v_total + v_n;
END
$$;
COMMENT ON FUNCTION hroe.trim_streams(interval) IS
'Trims every stream: deletes the records older than p_retention (DynamoDB keeps 24 hours), streams disabled longer ago than that, and the records of deleted tables; returns the number of records deleted. Run by hroe''s background worker (hroe.ttl_naptime) and by hand';
REVOKE EXECUTE ON FUNCTION hroe.trim_streams(interval) FROM PUBLIC;

-- ---------- the DynamoDB Streams API ----------

-- A sequence number as DynamoDB writes it (21 digits and more), and back
CREATE FUNCTION hroe.stream_seq_text(p_seq bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (100000000000000000000::numeric + p_seq)::text;
COMMENT ON FUNCTION hroe.stream_seq_text(bigint) IS
'internal: A stream record''s SequenceNumber as DynamoDB Streams writes it (21 digits)';

CREATE FUNCTION hroe.stream_shard_id(p_stream_id bigint, p_label text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN 'shardId-' || pg_catalog.lpad(p_stream_id::text, 20, '0') || '-' || pg_catalog.left(pg_catalog.md5(p_label), 8);
COMMENT ON FUNCTION hroe.stream_shard_id(bigint, text) IS
'internal: The ShardId of a stream''s one shard';

CREATE FUNCTION hroe.streams_call(p_operation text, p_request jsonb, p_caller oid,
								   OUT response jsonb, OUT images hroe.item[])
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	s hroe.streams;
	t hroe.tables;
	r record;
	v_arn text;
	v_table text;
	v_limit int;
	v_max int;
	v_res jsonb;
	v_list jsonb := '[]';
	v_type text;
	v_seq numeric;
	v_pos bigint;
	v_last bigint;
	v_parts text[];
	v_issued bigint;
	v_now_ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
	v_shard text;
	v_more boolean := false;
	v_iterator text;
BEGIN
	IF p_operation = 'GetRecords' THEN
		v_iterator := p_request ->> 'ShardIterator';
		IF v_iterator IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardIterator'' failed to satisfy constraint: Member must not be null');
		ELSIF length(v_iterator) > 2048 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value at ''shardIterator'' failed to satisfy constraint: Member must have length less than or equal to 2048');
		END IF;
		-- ARN|ShardId|position|issued (milliseconds)
		v_parts := string_to_array(v_iterator, '|');
		IF cardinality(v_parts) <> 4 OR v_parts[3] !~ '^[0-9]{1,18}$' OR v_parts[4] !~ '^[0-9]{1,18}$' THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		v_arn := v_parts[1];
	ELSIF p_operation <> 'ListStreams' THEN
		v_arn := p_request ->> 'StreamArn';
		IF v_arn IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''streamArn'' failed to satisfy constraint: Member must not be null');
		ELSIF length(v_arn) < 37 OR length(v_arn) > 1024 THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''streamArn'' failed to satisfy constraint: Member must have length %s',
					   v_arn, CASE WHEN length(v_arn) < 37 THEN 'greater than or equal to 37' ELSE 'less than or equal to 1024' END));
		END IF;
	END IF;
	IF p_request ? 'Limit' THEN
		IF jsonb_typeof(p_request -> 'Limit') <> 'number' OR (p_request ->> 'Limit')::numeric <> trunc((p_request ->> 'Limit')::numeric) THEN
			PERFORM hroe.dynamodb_error('SerializationException', 'NUMBER_VALUE cannot be converted to Integer');
		END IF;
		v_limit := greatest(least((p_request ->> 'Limit')::numeric, 2147483647), -2147483648);
		v_max := CASE p_operation WHEN 'GetRecords' THEN 1000 ELSE 100 END;
		IF v_limit < 1 OR v_limit > v_max THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''limit'' failed to satisfy constraint: Member must have value %s',
					   v_limit, CASE WHEN v_limit < 1 THEN 'greater than or equal to 1'
									 ELSE 'less than or equal to ' || v_max END));
		END IF;
	END IF;

	IF p_operation = 'ListStreams' THEN
		v_table := p_request ->> 'TableName';
		IF v_table IS NOT NULL AND NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = v_table) THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Table: %s not found', v_table));
		END IF;
		FOR r IN
			SELECT s2.*, hroe.stream_arn(s2.table_name, s2.label) AS arn
			FROM hroe.streams s2 JOIN hroe.tables t2 USING (table_name)
			WHERE (v_table IS NULL OR s2.table_name = v_table)
			  AND has_table_privilege(p_caller, t2.relid, 'SELECT')
			  AND (p_request ->> 'ExclusiveStartStreamArn' IS NULL
				   OR s2.stream_id > coalesce((SELECT s3.stream_id FROM hroe.streams s3
											   WHERE hroe.stream_arn(s3.table_name, s3.label) = p_request ->> 'ExclusiveStartStreamArn'), 0))
			ORDER BY s2.stream_id
			LIMIT coalesce(v_limit, 100) + 1
		LOOP
			IF jsonb_array_length(v_list) = coalesce(v_limit, 100) THEN
				v_more := true;
				EXIT;
			END IF;
			v_list := v_list || jsonb_build_object('StreamArn', r.arn, 'TableName', r.table_name, 'StreamLabel', r.label);
		END LOOP;
		v_res := jsonb_build_object('Streams', v_list);
		IF v_more THEN
			v_res := v_res || jsonb_build_object('LastEvaluatedStreamArn', v_list -> -1 ->> 'StreamArn');
		END IF;
		response := v_res;
		RETURN;
	END IF;

	-- the stream of an ARN the caller may read
	SELECT s2.* INTO s FROM hroe.streams s2
	WHERE v_arn ~ '^arn:aws:dynamodb:[^:]*:[0-9]{12}:table/[^/]+/stream/.+$'
	  AND s2.table_name = substring(v_arn FROM ':table/([^/]+)/stream/')
	  AND s2.label = substring(v_arn FROM '/stream/(.+)$');
	IF FOUND THEN
		SELECT * INTO t FROM hroe.tables WHERE table_name = s.table_name;
	END IF;
	IF NOT FOUND OR NOT has_table_privilege(p_caller, t.relid, 'SELECT') THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Stream: %s not found', v_arn));
	END IF;
	v_shard := hroe.stream_shard_id(s.stream_id, s.label);

	IF p_operation = 'DescribeStream' THEN
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		response := jsonb_build_object('StreamDescription', jsonb_build_object(
			'StreamArn', v_arn,
			'StreamLabel', s.label,
			'StreamStatus', CASE WHEN s.disabled_at IS NULL THEN 'ENABLED' ELSE 'DISABLED' END,
			'StreamViewType', s.view_type,
			'CreationRequestDateTime', extract(epoch FROM s.created_at),
			'TableName', s.table_name,
			'KeySchema', jsonb_build_array(jsonb_build_object('AttributeName', t.partition_key, 'KeyType', 'HASH'))
						 || CASE WHEN t.sort_key IS NOT NULL
								 THEN jsonb_build_array(jsonb_build_object('AttributeName', t.sort_key, 'KeyType', 'RANGE'))
								 ELSE '[]' END,
			'Shards', CASE WHEN p_request ->> 'ExclusiveStartShardId' = v_shard THEN '[]'::jsonb
						   ELSE jsonb_build_array(jsonb_build_object(
								'ShardId', v_shard,
								'SequenceNumberRange', jsonb_strip_nulls(jsonb_build_object(
									'StartingSequenceNumber', hroe.stream_seq_text(s.trimmed_seq + 1),
									'EndingSequenceNumber', CASE WHEN s.disabled_at IS NOT NULL
																 THEN hroe.stream_seq_text(greatest(s.last_seq, s.trimmed_seq + 1)) END))))
					  END));
		RETURN;
	END IF;

	IF p_operation = 'GetShardIterator' THEN
		v_type := p_request ->> 'ShardIteratorType';
		IF p_request ->> 'ShardId' IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardId'' failed to satisfy constraint: Member must not be null');
		ELSIF v_type IS NULL THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				'1 validation error detected: Value null at ''shardIteratorType'' failed to satisfy constraint: Member must not be null');
		ELSIF v_type NOT IN ('TRIM_HORIZON', 'LATEST', 'AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER') THEN
			PERFORM hroe.dynamodb_error('ValidationException',
				format('1 validation error detected: Value ''%s'' at ''shardIteratorType'' failed to satisfy constraint: Member must satisfy enum value set: [AFTER_SEQUENCE_NUMBER, LATEST, AT_SEQUENCE_NUMBER, TRIM_HORIZON]', v_type));
		END IF;
		IF p_request ->> 'ShardId' <> v_shard THEN
			PERFORM hroe.dynamodb_error('ResourceNotFoundException',
				format('Requested resource not found: Shard does not exist: %s', p_request ->> 'ShardId'));
		END IF;
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		IF v_type IN ('AT_SEQUENCE_NUMBER', 'AFTER_SEQUENCE_NUMBER') THEN
			IF p_request ->> 'SequenceNumber' IS NULL THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Must specify SequenceNumber when ShardIteratorType is %s', v_type));
			END IF;
			IF p_request ->> 'SequenceNumber' !~ '^[0-9]{21,40}$' THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('1 validation error detected: Value ''%s'' at ''sequenceNumber'' failed to satisfy constraint: Member must have length greater than or equal to 21',
						   p_request ->> 'SequenceNumber'));
			END IF;
			v_seq := (p_request ->> 'SequenceNumber')::numeric - 100000000000000000000::numeric;
			IF v_seq < 1 OR v_seq > v_last THEN
				PERFORM hroe.dynamodb_error('ValidationException',
					format('Invalid SequenceNumber for ShardIteratorType %s: %s', v_type, p_request ->> 'SequenceNumber'));
			END IF;
			IF v_seq <= s.trimmed_seq THEN
				PERFORM hroe.dynamodb_error('TrimmedDataAccessException',
					format('The sequence number %s of the stream %s has been trimmed: the stream keeps its records for 24 hours',
						   p_request ->> 'SequenceNumber', v_arn));
			END IF;
			v_pos := v_seq - CASE v_type WHEN 'AT_SEQUENCE_NUMBER' THEN 1 ELSE 0 END;
		ELSIF v_type = 'LATEST' THEN
			v_pos := v_last;
		ELSE
			v_pos := s.trimmed_seq;
		END IF;
		response := jsonb_build_object('ShardIterator', concat_ws('|', v_arn, v_shard, v_pos, v_now_ms));
		RETURN;
	END IF;

	IF p_operation = 'GetRecords' THEN
		IF v_parts[2] <> v_shard THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		v_pos := v_parts[3]::bigint;
		v_issued := v_parts[4]::bigint;
		IF v_issued > v_now_ms + 60000 THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		IF v_now_ms - v_issued > 15 * 60 * 1000 THEN
			PERFORM hroe.dynamodb_error('ExpiredIteratorException',
				format('Shard iterator has expired: it was created at %s, and an iterator is valid for 15 minutes',
					   to_char(to_timestamp(v_issued / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
		END IF;
		v_last := hroe.stream_sequence(s.stream_id);
		SELECT * INTO s FROM hroe.streams WHERE stream_id = s.stream_id;
		IF v_pos > v_last THEN
			PERFORM hroe.dynamodb_error('ValidationException', 'Invalid ShardIterator');
		END IF;
		IF v_pos < s.trimmed_seq THEN
			PERFORM hroe.dynamodb_error('TrimmedDataAccessException',
				format('The records after sequence number %s of the stream %s have been trimmed: the stream keeps its records for 24 hours',
					   hroe.stream_seq_text(v_pos), v_arn));
		END IF;
		-- at most Limit records, and 1 MB (at least one record); their keys
		-- and images as hroe.item, which may hold U+0000 (jsonb cannot)
		SELECT coalesce(jsonb_agg(x.rec ORDER BY x.seq), '[]'), max(x.seq),
			   coalesce(array_agg(ARRAY[x.keys, x.new_image, x.old_image] ORDER BY x.seq), '{}')
		INTO v_list, v_seq, images
		FROM (SELECT sr.seq, sum(sr.size_bytes) OVER (ORDER BY sr.seq) AS total,
					 row_number() OVER (ORDER BY sr.seq) AS n,
					 jsonb_strip_nulls(jsonb_build_object(
						'eventID', md5(s.stream_id || ':' || sr.seq),
						'eventName', CASE sr.event WHEN 'I' THEN 'INSERT' WHEN 'M' THEN 'MODIFY' ELSE 'REMOVE' END,
						'eventVersion', '1.1',
						'eventSource', 'aws:dynamodb',
						'awsRegion', current_setting('hroe.region'),
						'dynamodb', jsonb_strip_nulls(jsonb_build_object(
							'ApproximateCreationDateTime', floor(extract(epoch FROM sr.created_at)),
							'SequenceNumber', hroe.stream_seq_text(sr.seq),
							'SizeBytes', sr.size_bytes,
							'StreamViewType', s.view_type)),
						'userIdentity', CASE WHEN sr.service
											 THEN jsonb_build_object('type', 'Service', 'principalId', 'dynamodb.amazonaws.com') END)) AS rec,
					 sr.keys, sr.new_image, sr.old_image
			  FROM (SELECT * FROM hroe.stream_records
					WHERE stream_id = s.stream_id AND seq > v_pos AND seq <= v_last
					ORDER BY seq LIMIT coalesce(v_limit, 1000)) sr) x
		WHERE x.n = 1 OR x.total <= 1048576;
		v_pos := coalesce(v_seq, v_pos);
		v_res := jsonb_build_object('Records', v_list);
		-- a closed shard read to its end has no next iterator
		IF s.disabled_at IS NULL OR v_pos < s.last_seq THEN
			v_res := v_res || jsonb_build_object('NextShardIterator', concat_ws('|', v_arn, v_shard, v_pos, v_now_ms));
		END IF;
		response := v_res;
		RETURN;
	END IF;
	RAISE EXCEPTION 'unknown DynamoDB Streams operation "%"', p_operation;
END
$$;
COMMENT ON FUNCTION hroe.streams_call(text, jsonb, oid) IS
'internal: The DynamoDB Streams API (ListStreams, DescribeStream, GetShardIterator, GetRecords) for role p_caller, whose SELECT privilege on a stream''s table is checked; run by hroe.dynamodb as the extension''s owner (it reads hroe.stream_records). response: the response, but GetRecords'' records without their Keys, NewImage and OldImage, which are images[i][1:3] (NULL: none; images is NULL for the other operations) for the JSON API to write into them: an item may hold U+0000, which jsonb cannot';
REVOKE EXECUTE ON FUNCTION hroe.streams_call(text, jsonb, oid) FROM PUBLIC;

--
-- DynamoDB's Time to Live (src/ttl.sql, src/ttl.c; doc/streams.md)
--

CREATE TABLE hroe.time_to_live (
	table_name			text PRIMARY KEY REFERENCES hroe.tables ON DELETE CASCADE,
	attribute_name		text NOT NULL CHECK (length(attribute_name) BETWEEN 1 AND 255),
	enabled				boolean NOT NULL,
	updated_at			timestamptz NOT NULL DEFAULT pg_catalog.clock_timestamp()
);
COMMENT ON TABLE hroe.time_to_live IS 'Time to Live of tables: the attribute (a Number of epoch seconds) whose past values make an item expire, and whether it is enabled; one attribute per table';
GRANT SELECT ON hroe.time_to_live TO PUBLIC;
SELECT pg_catalog.pg_extension_config_dump('hroe.time_to_live', '');
-- Writes scoped to the table's owner, as hroe.tables': a role granted INSERT
-- or UPDATE on hroe.time_to_live changes only its own tables' Time to Live
-- (else it could have the worker, a superuser, delete another role's items).
ALTER TABLE hroe.time_to_live ENABLE ROW LEVEL SECURITY;
CREATE POLICY time_to_live_read ON hroe.time_to_live FOR SELECT USING (true);
COMMENT ON POLICY time_to_live_read ON hroe.time_to_live IS 'Time to Live settings are readable by every role, as hroe.tables';
CREATE POLICY time_to_live_owner ON hroe.time_to_live FOR ALL
	USING (hroe.owns_table(table_name)) WITH CHECK (hroe.owns_table(table_name));
COMMENT ON POLICY time_to_live_owner ON hroe.time_to_live IS 'A role sets only the Time to Live of a table it owns';

CREATE FUNCTION hroe.update_time_to_live(p_table_name text, p_attribute_name text, p_enabled boolean)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
BEGIN
	-- another role's table: AccessDeniedException, as the DDL's (the row
	-- lock below would not see its row)
	PERFORM hroe.check_table_owner(p_table_name);
	IF NOT EXISTS (SELECT FROM hroe.tables WHERE table_name = p_table_name FOR UPDATE) THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	SELECT * INTO v FROM hroe.time_to_live WHERE table_name = p_table_name;
	IF p_enabled AND v.enabled THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'TimeToLive is already enabled');
	ELSIF NOT p_enabled AND NOT coalesce(v.enabled, false) THEN
		PERFORM hroe.dynamodb_error('ValidationException', 'TimeToLive is already disabled');
	ELSIF NOT p_enabled AND v.attribute_name <> p_attribute_name THEN
		PERFORM hroe.dynamodb_error('ValidationException',
			format('TimeToLive is active on a different AttributeName: current AttributeName is %s', v.attribute_name));
	END IF;
	INSERT INTO hroe.time_to_live (table_name, attribute_name, enabled)
	VALUES (p_table_name, p_attribute_name, p_enabled)
	ON CONFLICT (table_name) DO UPDATE
	SET attribute_name = excluded.attribute_name, enabled = excluded.enabled, updated_at = excluded.updated_at;
	RETURN jsonb_build_object('TimeToLiveSpecification',
							  jsonb_build_object('AttributeName', p_attribute_name, 'Enabled', p_enabled));
END
$$;
COMMENT ON FUNCTION hroe.update_time_to_live(text, text, boolean) IS
'UpdateTimeToLive: enables (or disables) Time to Live on a table with its attribute, one per table, with DynamoDB''s errors (another role''s table: insufficient_privilege, AccessDeniedException); expired items are then deleted by hroe''s background worker or hroe.delete_expired_items. Returns the TimeToLiveSpecification';

CREATE FUNCTION hroe.describe_time_to_live(p_table_name text)
RETURNS jsonb
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v hroe.time_to_live;
	v_rel regclass;
BEGIN
	SELECT relid INTO v_rel FROM hroe.tables WHERE table_name = p_table_name;
	IF NOT FOUND THEN
		PERFORM hroe.dynamodb_error('ResourceNotFoundException',
			format('Requested resource not found: Table: %s not found', p_table_name));
	END IF;
	-- as DescribeTable, a table the role may not read: AccessDeniedException
	IF NOT has_table_privilege(v_rel, 'SELECT') THEN
		RAISE EXCEPTION 'permission denied for table %', p_table_name
			USING ERRCODE = 'insufficient_privilege';
	END IF;
	SELECT * INTO v FROM hroe.time_to_live WHERE table_name = p_table_name AND enabled;
	IF NOT FOUND THEN
		RETURN jsonb_build_object('TimeToLiveDescription', jsonb_build_object('TimeToLiveStatus', 'DISABLED'));
	END IF;
	RETURN jsonb_build_object('TimeToLiveDescription',
							  jsonb_build_object('TimeToLiveStatus', 'ENABLED', 'AttributeName', v.attribute_name));
END
$$;
COMMENT ON FUNCTION hroe.describe_time_to_live(text) IS
'DescribeTimeToLive: TimeToLiveStatus ENABLED with its AttributeName, or DISABLED (a table the role may not SELECT from: insufficient_privilege, AccessDeniedException)';

CREATE FUNCTION hroe.delete_expired_items(p_table_name text, p_limit integer DEFAULT 1000)
RETURNS bigint AS 'MODULE_PATHNAME', 'hroe_delete_expired_items'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION hroe.delete_expired_items(text, integer) IS
'Deletes up to p_limit expired items of a table with Time to Live enabled (its attribute a Number of epoch seconds in the past, at most five years), sweeping the table''s blocks on from where this session''s last call stopped; each row locked and its expiry checked again, so an item re-written with a later expiry is kept; the stream records each deletion as the service''s. Returns the number deleted (0 without Time to Live). hroe''s background worker calls it';

--
-- Access keys of the HTTP gateway (gateway/, layer 7)
--
-- hroe-gateway verifies every request's AWS Signature Version 4 with the
-- secret of its access key, then runs the call as the PostgreSQL role the
-- key maps to, so PostgreSQL's privileges decide what a key may do.
--
-- The secret is a credential: hroe.access_keys is readable by its owner
-- (the superuser who created the extension) only.  The gateway's login role
-- needs SELECT on it (GRANT SELECT ON hroe.access_keys TO hroe_gateway) and
-- membership in every role a key maps to (GRANT app_role TO hroe_gateway).
--

CREATE TABLE hroe.access_keys (
	access_key_id	text PRIMARY KEY
		CHECK (access_key_id ~ '^[A-Za-z0-9_+=,.@-]{1,128}$'),
	secret			text NOT NULL
		CHECK (pg_catalog.length(secret) BETWEEN 1 AND 128),
	role			regrole NOT NULL,
	created_at		timestamptz NOT NULL DEFAULT pg_catalog.now(),
	revoked_at		timestamptz
);
COMMENT ON TABLE hroe.access_keys IS 'Access keys of hroe-gateway: an AWS-style access key id, its secret (a credential: readable by the owner and by the gateway''s login role only), the PostgreSQL role its requests run as, and when it was created and revoked (a revoked key is refused at once; the gateway caches secrets for a few seconds)';
REVOKE ALL ON hroe.access_keys FROM PUBLIC;
-- Not marked with pg_extension_config_dump: secrets stay out of dumps, and
-- keys are recreated after a restore (hroe.create_access_key).

CREATE FUNCTION hroe.create_access_key(
	p_role regrole,
	p_access_key_id text DEFAULT NULL,
	p_secret text DEFAULT NULL,
	OUT access_key_id text,
	OUT secret_access_key text)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_role IS NULL THEN
		RAISE EXCEPTION 'an access key needs a role' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- generated from gen_random_uuid() (strong random): a 20-character id
	-- beginning HROE, a 40-character hexadecimal secret
	access_key_id := coalesce(p_access_key_id,
		'HROE' || upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, 16)));
	secret_access_key := coalesce(p_secret, substr(replace(
		gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 40));
	INSERT INTO hroe.access_keys (access_key_id, secret, role)
		VALUES (access_key_id, secret_access_key, p_role);
END
$$;
COMMENT ON FUNCTION hroe.create_access_key(regrole, text, text) IS
'Creates an access key of hroe-gateway whose requests run as p_role: the given or a generated access key id (20 characters) and secret (40 characters); returns the pair. Needs INSERT on hroe.access_keys (the extension owner has it)';

CREATE FUNCTION hroe.revoke_access_key(p_access_key_id text)
RETURNS boolean
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
	WITH revoked AS (
		UPDATE hroe.access_keys SET revoked_at = pg_catalog.now()
		WHERE access_key_id = p_access_key_id AND revoked_at IS NULL
		RETURNING 1)
	SELECT count(*) > 0 FROM revoked
$$;
COMMENT ON FUNCTION hroe.revoke_access_key(text) IS
'Revokes an access key of hroe-gateway: its next request is refused (UnrecognizedClientException); true if the key existed and was active, else false';

CREATE FUNCTION hroe.gateway_call(p_access_key_id text, p_operation text, p_request text)
RETURNS text AS 'MODULE_PATHNAME', 'hroe_gateway_call'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
-- C (src/gateway_call.c), not SECURITY DEFINER: the key is read with the
-- caller's privileges, then SET LOCAL ROLE (the caller must be a member of
-- the key's role; the transaction's end undoes it), then the JSON API over
-- the body's text
COMMENT ON FUNCTION hroe.gateway_call(text, text, text) IS
'internal: one request of hroe-gateway: hroe.dynamodb_text(p_operation, p_request) run as the role of the active access key p_access_key_id (SET LOCAL ROLE: the caller must be a member of it; the role ends with the transaction), or DynamoDB''s UnrecognizedClientException body for an unknown or revoked key; called in a transaction of its own';

--
-- Write sharding (src/shard.c, src/shard_merge.c): the shard-count formula of
-- AWS's guide, a documented shard hash, a random shard, the scatter-gather
-- query over the N shards of an index, and a hot-partition report.
--

CREATE FUNCTION hroe.shard_count(p_max_required_io bigint, p_avg_item_bytes integer,
								 p_partition_max_rcu integer DEFAULT 3000)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_count'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_count(bigint, integer, integer) IS
'Write-shard count N = ceil(MaxRequiredIO / PartitionMaxReadRate), PartitionMaxReadRate = partition RCU limit (default 3000) * ItemsPerRCU, ItemsPerRCU = floor(4096 / average item bytes) (items over 4 KB cost ceil(size/4096) RCU each)';

CREATE FUNCTION hroe.shard_count_details(p_max_required_io bigint, p_avg_item_bytes integer,
										 p_partition_max_rcu integer DEFAULT 3000,
										 p_padding_percent integer DEFAULT 15,
										 OUT items_per_rcu numeric,
										 OUT rcu_per_item integer,
										 OUT partition_max_read_rate numeric,
										 OUT required_partitions numeric,
										 OUT shard_count integer,
										 OUT padded_shard_count integer)
RETURNS record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- hroe.shard_count validates the inputs and is the authority for N
	shard_count := hroe.shard_count(p_max_required_io, p_avg_item_bytes, p_partition_max_rcu);
	IF p_padding_percent < 0 OR p_padding_percent > 1000 THEN
		RAISE EXCEPTION 'padding must be between 0 and 1000 percent'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('p_padding_percent is %s.', p_padding_percent);
	END IF;
	rcu_per_item := (p_avg_item_bytes + 4095) / 4096;
	IF p_avg_item_bytes <= 4096 THEN
		items_per_rcu := 4096 / p_avg_item_bytes;
	ELSE
		items_per_rcu := trim_scale(round(1::numeric / rcu_per_item, 6));
	END IF;
	IF p_avg_item_bytes <= 4096 THEN
		partition_max_read_rate := p_partition_max_rcu::numeric * items_per_rcu;
		required_partitions := p_max_required_io::numeric / partition_max_read_rate;
	ELSE
		partition_max_read_rate := p_partition_max_rcu::numeric / rcu_per_item;
		required_partitions := p_max_required_io::numeric * rcu_per_item / p_partition_max_rcu;
	END IF;
	partition_max_read_rate := trim_scale(round(partition_max_read_rate, 3));
	required_partitions := trim_scale(required_partitions);
	padded_shard_count := ceil(shard_count::numeric * (100 + p_padding_percent) / 100);
END
$$;

COMMENT ON FUNCTION hroe.shard_count_details(bigint, integer, integer, integer) IS
'Every figure of the shard-count formula: items per RCU, RCU per item, the partition read rate (items/s), the exact quotient, N (rounded up) and N padded for anomalies: ceil(N * (100 + p_padding_percent) / 100), default 15 %, so 13 -> 15 as in AWS''s example';

CREATE FUNCTION hroe.shard_of(p_value text, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(text, integer) IS
'Shard 0..p_shards-1 of a string: 64-bit FNV-1a of its UTF-8 bytes, MurmurHash3 fmix64, modulo p_shards (1..1024); stable across platforms and PostgreSQL versions';

CREATE FUNCTION hroe.shard_of(p_value bytea, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(bytea, integer) IS
'Shard 0..p_shards-1 of binary data: 64-bit FNV-1a of the bytes, MurmurHash3 fmix64, modulo p_shards (1..1024)';

CREATE FUNCTION hroe.shard_of(p_value integer, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(integer, integer) IS
'Shard 0..p_shards-1 of an integer: the hash of its decimal text, so shard_of(42, n) = shard_of(''42'', n)';

CREATE FUNCTION hroe.shard_of(p_value bigint, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(bigint, integer) IS
'Shard 0..p_shards-1 of a bigint: the hash of its decimal text, so shard_of(42::bigint, n) = shard_of(''42'', n)';

CREATE FUNCTION hroe.shard_of(p_value numeric, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(numeric, integer) IS
'Shard 0..p_shards-1 of a number: the hash of its canonical decimal text (DynamoDB''s form, trailing fractional zeros dropped: 1.50 -> 1.5); NaN and infinities are rejected';

-- hroe.key (src/key.sql, when it precedes this file in the install script)
-- is stored exactly like text: its shard is that of its UTF-8 bytes.
DO $$
BEGIN
	IF pg_catalog.to_regtype('hroe.key') IS NOT NULL THEN
		CREATE FUNCTION hroe.shard_of(p_value hroe.key, p_shards integer)
		RETURNS integer
		AS 'MODULE_PATHNAME', 'hroe_shard_of_text'
		LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
		COMMENT ON FUNCTION hroe.shard_of(hroe.key, integer) IS
		'Shard 0..p_shards-1 of a key: the hash of its UTF-8 bytes, as hroe.shard_of(text, integer)';
	END IF;
END
$$;

CREATE FUNCTION hroe.random_shard(p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_random_shard'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.random_shard(integer) IS
'A uniformly drawn shard 0..p_shards-1 (1..1024), the random write-sharding suffix of AWS''s GSI 2 pattern';

CREATE FUNCTION hroe.sharded_query(p_rowtype anyelement, p_index regclass, p_shards integer,
								   p_op text DEFAULT NULL,
								   p_value1 anycompatible DEFAULT NULL,
								   p_value2 anycompatible DEFAULT NULL,
								   p_forward boolean DEFAULT true,
								   p_limit bigint DEFAULT NULL,
								   p_prefix text[] DEFAULT NULL,
								   p_parallel_workers integer DEFAULT 0)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'hroe_sharded_query'
LANGUAGE C STABLE PARALLEL SAFE ROWS 100;

COMMENT ON FUNCTION hroe.sharded_query(anyelement, regclass, integer, text, anycompatible, anycompatible, boolean, bigint, text[], integer) IS
'Rows of the shards 0..p_shards-1 of a write-sharded btree index (key columns: p_prefix equality columns, shard, sort key) matching one sort-key condition (=, <, <=, >, >=, between, begins_with), merged in sort-key order by a streaming k-way merge (tournament tree over one index scan per shard), ascending or descending, stopping at p_limit. p_parallel_workers > 0: up to that many parallel workers each merge a share of the shards and the leader merges their streams; such a call runs to its end (or p_limit) in its first row and returns the rows from a tuplestore; no workers when already in parallel mode (then it runs serially, as in a parallel worker), for temporary tables, or when no worker slot is free';

CREATE FUNCTION hroe.hot_partitions(p_index regclass, p_key_columns integer DEFAULT NULL,
									p_reads_per_second double precision DEFAULT 1,
									p_writes_per_second double precision DEFAULT 0,
									p_size_column name DEFAULT NULL)
RETURNS TABLE (partition_key text, items bigint, bytes bigint, read_rcu bigint,
			   read_seconds numeric, read_share numeric, write_share numeric,
			   imbalance numeric)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table regclass;
	v_nkeys integer;
	v_pred text;
	v_k integer;
	v_keys text[] := '{}';
	v_size text;
	v_type regtype;
	v_item regtype := to_regtype('hroe.item');
	v_where text;
BEGIN
	SELECT i.indrelid, i.indnkeyatts, pg_get_expr(i.indpred, i.indrelid)
	  INTO v_table, v_nkeys, v_pred
	  FROM pg_index i WHERE i.indexrelid = p_index;
	IF v_table IS NULL THEN
		RAISE EXCEPTION '"%" is not an index', p_index
			USING ERRCODE = 'wrong_object_type';
	END IF;
	v_k := coalesce(p_key_columns, greatest(v_nkeys - 1, 1));
	IF v_k < 1 OR v_k > v_nkeys THEN
		RAISE EXCEPTION 'p_key_columns must be between 1 and %', v_nkeys
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('Index %s has %s key columns; p_key_columns is %s.', p_index, v_nkeys, v_k);
	END IF;
	IF p_reads_per_second < 0 OR p_writes_per_second < 0 THEN
		RAISE EXCEPTION 'request rates must not be negative'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR i IN 1 .. v_k LOOP
		v_keys := v_keys || ('(' || pg_get_indexdef(p_index, i, false) || ')');
	END LOOP;

	-- item size: a named column (hroe.item or a byte count), else an
	-- hroe.item column "item", else the stored row size
	IF p_size_column IS NULL AND v_item IS NOT NULL AND EXISTS
		(SELECT FROM pg_attribute a WHERE a.attrelid = v_table AND a.attname = 'item'
		   AND a.atttypid = v_item AND NOT a.attisdropped) THEN
		p_size_column := 'item';
	END IF;
	IF p_size_column IS NULL THEN
		v_size := 'pg_catalog.pg_column_size(t.*)';
	ELSE
		SELECT a.atttypid INTO v_type FROM pg_attribute a
		 WHERE a.attrelid = v_table AND a.attname = p_size_column AND a.attnum > 0 AND NOT a.attisdropped;
		IF v_type IS NULL THEN
			RAISE EXCEPTION 'column "%" of table % does not exist', p_size_column, v_table
				USING ERRCODE = 'undefined_column';
		ELSIF v_type = v_item THEN
			-- (to_regprocedure only runs once the type exists)
			IF to_regprocedure('hroe.item_size(hroe.item)') IS NOT NULL THEN
				v_size := format('hroe.item_size(t.%I)', p_size_column);
			ELSE
				v_size := format('pg_catalog.pg_column_size(t.%I)', p_size_column);
			END IF;
		ELSIF v_type IN ('smallint'::regtype, 'integer'::regtype, 'bigint'::regtype, 'numeric'::regtype) THEN
			v_size := format('t.%I', p_size_column);
		ELSE
			RAISE EXCEPTION 'size column "%" has type %', p_size_column, v_type
				USING ERRCODE = 'datatype_mismatch',
					  HINT = 'Name an hroe.item column or a column holding the item size in bytes.';
		END IF;
	END IF;

	-- rows with a null key attribute (partition key, or the sort key that
	-- follows it) are not in a DynamoDB index (sparse)
	SELECT string_agg(k || ' IS NOT NULL', ' AND ') INTO v_where FROM unnest(v_keys) AS k;
	IF v_k < v_nkeys THEN
		v_where := v_where || ' AND (' || pg_get_indexdef(p_index, v_k + 1, false) || ') IS NOT NULL';
	END IF;
	IF v_pred IS NOT NULL THEN
		v_where := v_where || ' AND (' || v_pred || ')';
	END IF;

	RETURN QUERY EXECUTE format(
		'WITH p AS (SELECT pg_catalog.concat_ws(''#'', %1$s) AS partition_key,'
		'                  pg_catalog.count(*) AS items, pg_catalog.sum(%2$s)::bigint AS bytes'
		'             FROM %3$s t WHERE %4$s GROUP BY %1$s)'
		' SELECT p.partition_key, p.items, p.bytes, r.rcu,'
		'        pg_catalog.round(r.rcu / 3000.0, 3),'
		'        pg_catalog.round((r.rcu * $1 / 3000)::numeric, 4),'
		'        pg_catalog.round(($2 * p.items / pg_catalog.sum(p.items) OVER ()'
		'                          * pg_catalog.ceil(p.bytes / p.items / 1024.0) / 1000)::numeric, 4),'
		'        pg_catalog.round(p.items / pg_catalog.avg(p.items) OVER (), 3)'
		'   FROM p, LATERAL (SELECT pg_catalog.ceil(p.bytes / 4096.0)::bigint AS rcu) r'
		'  ORDER BY p.items DESC, p.partition_key',
		array_to_string(v_keys, ', '), v_size, v_table, v_where)
	USING p_reads_per_second, p_writes_per_second;
END
$$;

COMMENT ON FUNCTION hroe.hot_partitions(regclass, integer, double precision, double precision, name) IS
'Per partition-key value of an index (its first p_key_columns key columns, default all but the last): items, bytes, RCU to read the partition once (bytes / 4 KB rounded up), seconds at 3,000 RCU/s, share of the 3,000 RCU/s read limit at p_reads_per_second full reads and of the 1,000 WCU/s write limit at p_writes_per_second item writes spread by item count, and items / mean (imbalance)';

--
-- The grid view (src/grid.sql): a table's item collections, or a secondary
-- index's view of them, drawn as the single-table design guides draw them:
-- partition key, sort key, then each item's attributes, an item collection
-- per group, each entity type in its own colour.  The items are read with
-- hroe.query_page (Query on the table or the index), so projections, sparse
-- indexes and privileges are the operations'.
--

-- HTML text escaping (&, <, >, ", ').
CREATE FUNCTION hroe.html_escape(p_text text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT replace(replace(replace(replace(replace(p_text, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$$;
COMMENT ON FUNCTION hroe.html_escape(text) IS
'internal: the text with &, <, >, " and '' escaped for HTML text and attribute values';

-- An attribute value as the grid shows it: S and N bare, BOOL and NULL as
-- true/false/null, B as base64, sets, lists and maps as their type and
-- DynamoDB JSON.  SQL without SET, not STRICT, immutable throughout,
-- every operator and type qualified: inlined into hroe.grid's statement (a
-- call per attribute cost more than the rest of the work).
CREATE FUNCTION hroe.grid_value(p_value jsonb)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_value OPERATOR(pg_catalog.?) 'S' THEN p_value OPERATOR(pg_catalog.->>) 'S'
			WHEN p_value OPERATOR(pg_catalog.?) 'N' THEN p_value OPERATOR(pg_catalog.->>) 'N'
			WHEN p_value OPERATOR(pg_catalog.?) 'B' THEN p_value OPERATOR(pg_catalog.->>) 'B'
			WHEN p_value OPERATOR(pg_catalog.?) 'BOOL' THEN p_value OPERATOR(pg_catalog.->>) 'BOOL'
			WHEN p_value OPERATOR(pg_catalog.?) 'NULL' THEN 'null'
			WHEN p_value OPERATOR(pg_catalog.?) 'L' THEN 'L ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'L')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'M' THEN 'M ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'M')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'SS' THEN 'SS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'SS')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'NS' THEN 'NS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'NS')::pg_catalog.text
			WHEN p_value OPERATOR(pg_catalog.?) 'BS' THEN 'BS ' OPERATOR(pg_catalog.||) (p_value OPERATOR(pg_catalog.->) 'BS')::pg_catalog.text END
$$;
COMMENT ON FUNCTION hroe.grid_value(jsonb) IS
'internal: a DynamoDB JSON attribute value as hroe.grid shows it: S, N and B (base64) bare, BOOL true/false, NULL null, L, M and the sets as their type and JSON';

-- A condition on a key column in the type's order (hroe.key's operators for
-- S keys), for hroe.grid's walk from collection to collection.
CREATE FUNCTION hroe.grid_key_compare(p_column name, p_type text, p_operator text, p_value text)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE p_type WHEN 'S' THEN format('%I OPERATOR(hroe.%s) %L::hroe.key', p_column, p_operator, p_value)
				   WHEN 'N' THEN format('%I OPERATOR(pg_catalog.%s) %L::numeric', p_column, p_operator, p_value)
				   ELSE format('%I OPERATOR(pg_catalog.%s) %L::bytea', p_column, p_operator, p_value) END
WHERE p_operator IN ('=', '>', '>=')
$$;
COMMENT ON FUNCTION hroe.grid_key_compare(name, text, text, text) IS
'internal: the SQL condition "column operator value" on a key column of type S (hroe.key), N (numeric) or B (bytea), operator =, > or >=, for hroe.grid';

CREATE FUNCTION hroe.grid(p_table_name text, p_index_name text DEFAULT NULL, p_key_prefix text DEFAULT NULL,
						  p_max_items integer DEFAULT 50, p_format text DEFAULT 'text')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL RESTRICTED
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t hroe.tables;
	x hroe.indexes;
	v_pk_attrs text[];
	v_pk_cols name[];
	v_pk_types text[];
	v_sk_attrs text[];
	v_sk_cols name[];
	v_key_attrs text[];
	v_all_cols name[];
	v_notnull text;
	v_order text;
	v_prefix_cond text := 'true';
	v_after text := 'true';
	v_first hroe.item;
	v_prev text[];
	v_kce text;
	v_names jsonb;
	v_values jsonb;
	v_page hroe.page;
	v_item hroe.item;
	v_coll integer := 0;
	v_n integer := 0;
	v_more boolean := false;
	v_types text[];
	v_items hroe.item[] := '{}';
	v_colls integer[] := '{}';
	v_rows jsonb[];
	v_sizes integer[] := '{}';
	v_head text[];
	v_w integer[];
	k integer;
BEGIN
	IF p_table_name IS NULL THEN
		RAISE EXCEPTION 'table name must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF p_max_items IS NULL OR p_max_items < 1 OR p_max_items > 10000 THEN
		RAISE EXCEPTION 'p_max_items must be between 1 and 10000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_format IS NULL OR p_format NOT IN ('text', 'html') THEN
		RAISE EXCEPTION 'p_format must be text or html' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the DynamoDB table name, or the PostgreSQL table (schema-qualified)
	SELECT * INTO t FROM hroe.tables h WHERE h.table_name = p_table_name;
	IF NOT FOUND THEN
		SELECT * INTO t FROM hroe.tables h WHERE h.relid = to_regclass(p_table_name);
	END IF;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'no hroe table named %', p_table_name USING ERRCODE = 'undefined_table';
	END IF;
	v_key_attrs := ARRAY[t.partition_key] || CASE WHEN t.sort_key IS NOT NULL THEN ARRAY[t.sort_key] ELSE '{}' END;
	v_all_cols := CASE WHEN t.sort_key IS NOT NULL THEN '{pk,sk}' ELSE '{pk}' END::name[];
	IF p_index_name IS NULL THEN
		v_pk_attrs := ARRAY[t.partition_key];
		v_pk_cols := '{pk}';
		v_pk_types := ARRAY[t.partition_key_type];
		v_sk_attrs := CASE WHEN t.sort_key IS NOT NULL THEN ARRAY[t.sort_key] ELSE '{}' END;
		v_sk_cols := CASE WHEN t.sort_key IS NOT NULL THEN '{sk}' ELSE '{}' END::name[];
	ELSE
		SELECT * INTO x FROM hroe.indexes i WHERE i.table_name = t.table_name AND i.index_name = p_index_name;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'table % has no index %', t.table_name, p_index_name USING ERRCODE = 'undefined_object';
		END IF;
		v_pk_attrs := x.partition_key;
		v_pk_cols := x.partition_key_columns;
		v_pk_types := x.partition_key_types;
		v_sk_attrs := x.sort_key;
		v_sk_cols := x.sort_key_columns;
		v_key_attrs := v_pk_attrs || v_sk_attrs || v_key_attrs;
		v_all_cols := v_pk_cols || v_sk_cols || v_all_cols;
	END IF;
	-- each key attribute once (an index key may be a table key too)
	v_key_attrs := ARRAY(SELECT a FROM unnest(v_key_attrs) WITH ORDINALITY u (a, o) GROUP BY a ORDER BY min(o));
	-- an item is in the index when it has every key attribute (sparse)
	SELECT string_agg(format('%I IS NOT NULL', c), ' AND ') INTO v_notnull FROM unnest(v_pk_cols || v_sk_cols) c;
	SELECT string_agg(format('%I', c), ', ' ORDER BY o) INTO v_order FROM unnest(v_all_cols) WITH ORDINALITY u (c, o);
	IF p_key_prefix IS NOT NULL THEN
		-- S: begins_with on the (first) partition key; N: that number
		IF v_pk_types[1] = 'S' THEN
			v_prefix_cond := format('%I OPERATOR(hroe.^@) %L::hroe.key', v_pk_cols[1], p_key_prefix);
		ELSIF v_pk_types[1] = 'N' THEN
			IF p_key_prefix !~ '^\s*[-+]?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?\s*$' THEN
				RAISE EXCEPTION 'the key prefix of a number partition key must be a number, not "%"', p_key_prefix
					USING ERRCODE = 'invalid_parameter_value';
			END IF;
			v_prefix_cond := format('%I = %L::numeric', v_pk_cols[1], p_key_prefix);
		ELSE
			RAISE EXCEPTION 'a key prefix applies to string and number partition keys, not to binary ones'
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;

	-- item collection after item collection: the next partition key in key
	-- order (one index probe), then a Query of its items
	LOOP
		EXIT WHEN v_n > p_max_items;
		EXECUTE format('SELECT x.item, ARRAY[%s] FROM %s x WHERE %s AND %s AND %s ORDER BY %s LIMIT 1',
					   (SELECT string_agg(format('%I::text', c), ', ' ORDER BY o) FROM unnest(v_pk_cols) WITH ORDINALITY u (c, o)),
					   t.relid, v_notnull, v_prefix_cond, v_after, v_order)
			INTO v_first, v_prev;
		EXIT WHEN v_first IS NULL;
		IF v_n = p_max_items THEN
			v_more := true;
			EXIT;
		END IF;
		-- the Query's key values come from the item (the key columns of
		-- long partition keys hold their index form)
		SELECT string_agg(format('#p%s = :p%s', o, o), ' AND ' ORDER BY o),
			   jsonb_object_agg(format('#p%s', o), a),
			   jsonb_object_agg(format(':p%s', o), hroe.item_get_attribute(v_first, a))
		INTO v_kce, v_names, v_values
		FROM unnest(v_pk_attrs) WITH ORDINALITY u (a, o);
		v_page := hroe.query_page(t.table_name, v_kce, v_values, v_names, p_index_name,
								  p_limit => p_max_items - v_n + 1);
		v_coll := v_coll + 1;
		k := 0;
		FOREACH v_item IN ARRAY COALESCE(v_page.items, '{}') LOOP
			IF v_n = p_max_items THEN
				v_more := true;
				EXIT;
			END IF;
			v_n := v_n + 1;
			k := k + 1;
			-- appended in place (simple expressions on expanded arrays)
			v_items := v_items || v_item;
			v_colls := v_colls || v_coll;
		END LOOP;
		v_sizes := v_sizes || k;
		EXIT WHEN v_more;
		IF v_page.last_evaluated_key IS NOT NULL THEN
			v_more := true;
			EXIT;
		END IF;
		-- the next partition key: after this one in key order, the tuple
		-- (c1, c2...) compared column by column: (c1 > a1) OR (c1 = a1 AND
		-- c2 > a2)..., with c1 >= a1 for the index
		SELECT format('%s AND (%s)', hroe.grid_key_compare(v_pk_cols[1], v_pk_types[1], '>=', v_prev[1]),
					  string_agg((SELECT string_agg(hroe.grid_key_compare(v_pk_cols[j], v_pk_types[j], CASE WHEN j = i THEN '>' ELSE '=' END, v_prev[j]), ' AND ' ORDER BY j)
								  FROM generate_series(1, i) j), ' OR ' ORDER BY i))
		INTO v_after
		FROM generate_series(1, cardinality(v_pk_cols)) i;
	END LOOP;

	-- the rows, in one statement: each item's entity type (the attribute
	-- type or entity_type, else the table's sort key, or partition key, up
	-- to its first # or digit: EMPLOYEE#0101 is EMPLOYEE, project-35e9
	-- project), its keys and its other attributes
	SELECT COALESCE(array_agg(jsonb_build_object('c', z.c, 'first', z.first, 'attrs', z.attrs, 'keys', z.keys, 'values', z.vals,
												 'type', COALESCE(NULLIF(rtrim(substring(z.t FROM '^[^#0-9]*'), '-_'), ''), z.t, ''))
							  ORDER BY z.n), '{}')
	INTO v_rows
	FROM (SELECT u.n, u.c, row_number() OVER (PARTITION BY u.c ORDER BY u.n) = 1 AS first,
				 COALESCE(hroe.grid_value(u.d -> 'type'), hroe.grid_value(u.d -> 'entity_type'),
						  hroe.grid_value(u.d -> COALESCE(t.sort_key, t.partition_key))) AS t,
				 (SELECT COALESCE(string_agg(format('%s: %s', a, hroe.grid_value(u.d -> a)), '  ' ORDER BY o), '')
				  FROM unnest(hroe.item_attributes(u.item)) WITH ORDINALITY w (a, o) WHERE a <> ALL (v_key_attrs)) AS attrs,
				 (SELECT jsonb_agg(COALESCE(hroe.grid_value(u.d -> a), '') ORDER BY o)
				  FROM unnest(v_key_attrs) WITH ORDINALITY w (a, o)) AS keys,
				 (SELECT COALESCE(jsonb_agg(jsonb_build_array(a, hroe.grid_value(u.d -> a)) ORDER BY o), '[]')
				  FROM unnest(hroe.item_attributes(u.item)) WITH ORDINALITY w (a, o) WHERE a <> ALL (v_key_attrs)) AS vals
		  FROM (SELECT i.item, i.c, i.n, hroe.item_to_jsonb(i.item) AS d
				FROM unnest(v_items, v_colls) WITH ORDINALITY i (item, c, n)
				OFFSET 0) u) z;  -- OFFSET 0: d computed once per item, not per use
	v_types := ARRAY(SELECT r ->> 'type' FROM unnest(v_rows) WITH ORDINALITY x (r, n) GROUP BY 1 ORDER BY min(n));

	v_head := ARRAY(SELECT a || CASE WHEN o <= cardinality(v_pk_attrs) THEN ' (PK)'
									 WHEN o <= cardinality(v_pk_attrs) + cardinality(v_sk_attrs) THEN ' (SK)' ELSE '' END
					FROM unnest(v_key_attrs) WITH ORDINALITY u (a, o)) || 'attributes'::text;
	-- the rows rendered in one aggregate (not a string grown row by row)
	IF p_format = 'text' THEN
		v_w := ARRAY(SELECT GREATEST(length(v_head[o]), COALESCE((SELECT max(length(CASE WHEN o = cardinality(v_head) THEN e ->> 'attrs' ELSE e -> 'keys' ->> (o - 1) END))
									   FROM unnest(v_rows) e), 0))
					 FROM generate_subscripts(v_head, 1) o);
		RETURN format('%s%s: %s item(s) in %s item collection(s)%s', t.table_name,
					  CASE WHEN p_index_name IS NOT NULL THEN ' index ' || p_index_name ELSE '' END, v_n, v_coll,
					  CASE WHEN v_more THEN format(', more follow (p_max_items %s)', p_max_items) ELSE '' END) || E'\n'
			|| (SELECT string_agg(rpad(v_head[o], v_w[o]), ' | ' ORDER BY o) FROM generate_subscripts(v_head, 1) o) || E'\n'
			|| (SELECT string_agg(repeat('-', v_w[o]), '-+-' ORDER BY o) FROM generate_subscripts(v_head, 1) o)
			|| COALESCE((SELECT string_agg(E'\n' || rtrim((SELECT string_agg(rpad(CASE WHEN o = cardinality(v_head) THEN r ->> 'attrs'
																			WHEN o <= cardinality(v_pk_attrs) AND NOT (r ->> 'first')::boolean THEN ''
																			ELSE r -> 'keys' ->> (o - 1) END, v_w[o]), ' | ' ORDER BY o)
														  FROM generate_subscripts(v_head, 1) o)), '' ORDER BY n)
						 FROM unnest(v_rows) WITH ORDINALITY x (r, n)), '');
	END IF;
	-- HTML: a table, the partition key spanning its collection's rows, each
	-- entity type in a colour (in order of appearance)
	RETURN format('<table class="hroe-grid" data-table="%s"%s style="border-collapse:collapse;font:13px/1.35 system-ui,sans-serif">',
				  hroe.html_escape(t.table_name),
				  CASE WHEN p_index_name IS NOT NULL THEN format(' data-index="%s"', hroe.html_escape(p_index_name)) ELSE '' END)
		|| format('<caption style="text-align:left;font-weight:600;padding:4px 0">%s%s: %s item(s) in %s item collection(s)%s</caption>',
				  hroe.html_escape(t.table_name), CASE WHEN p_index_name IS NOT NULL THEN ' &middot; index ' || hroe.html_escape(p_index_name) ELSE '' END,
				  v_n, v_coll, CASE WHEN v_more THEN format(', more follow (p_max_items %s)', p_max_items) ELSE '' END)
		|| '<thead><tr>' || (SELECT string_agg(format('<th style="text-align:left;border-bottom:2px solid #555;padding:3px 8px">%s</th>', hroe.html_escape(h)), '' ORDER BY o)
							 FROM unnest(v_head) WITH ORDINALITY u (h, o)) || '</tr></thead><tbody>'
		|| COALESCE((SELECT string_agg(
			format('<tr data-type="%s" style="background:%s">', hroe.html_escape(r ->> 'type'),
				   (ARRAY['#dbeafe', '#dcfce7', '#fef3c7', '#fce7f3', '#ede9fe', '#ccfbf1', '#fee2e2', '#e0e7ff', '#f3e8ff', '#ecfccb'])
					   [(array_position(v_types, r ->> 'type') - 1) % 10 + 1])
			|| (SELECT string_agg(CASE WHEN o <= cardinality(v_pk_attrs) AND NOT (r ->> 'first')::boolean THEN ''
									   WHEN o <= cardinality(v_pk_attrs)
									   THEN format('<th class="pk" rowspan="%s" style="text-align:left;vertical-align:top;background:#f8fafc;border-top:2px solid #94a3b8;padding:3px 8px;font-family:monospace;white-space:nowrap">%s</th>',
												   v_sizes[(r ->> 'c')::integer], hroe.html_escape(r -> 'keys' ->> (o - 1)))
									   ELSE format('<td class="%s" style="border-top:1px solid #cbd5e1;%spadding:3px 8px;font-family:monospace;white-space:nowrap">%s</td>',
												   CASE WHEN o <= cardinality(v_pk_attrs) + cardinality(v_sk_attrs) THEN 'sk' ELSE 'key' END,
												   CASE WHEN (r ->> 'first')::boolean THEN 'border-top:2px solid #94a3b8;' ELSE '' END,
												   hroe.html_escape(r -> 'keys' ->> (o - 1))) END, '' ORDER BY o)
				FROM generate_series(1, cardinality(v_key_attrs)) o)
			|| format('<td style="border-top:%s;padding:3px 8px">%s</td></tr>',
					  CASE WHEN (r ->> 'first')::boolean THEN '2px solid #94a3b8' ELSE '1px solid #cbd5e1' END,
					  COALESCE((SELECT string_agg(format('<span style="display:inline-block;margin:0 10px 0 0"><span style="color:#475569;font-size:11px">%s</span> %s</span>',
														 hroe.html_escape(v ->> 0), hroe.html_escape(v ->> 1)), '' ORDER BY o)
								FROM jsonb_array_elements(r -> 'values') WITH ORDINALITY u (v, o)), '')),
			'' ORDER BY n) FROM unnest(v_rows) WITH ORDINALITY x (r, n)), '')
		|| '</tbody></table>';
END
$$;
COMMENT ON FUNCTION hroe.grid(text, text, text, integer, text) IS
'the grid view of a hroe table (by DynamoDB name or PostgreSQL name) or of one of its indexes (p_index_name): its item collections in key order, each item''s partition key (once per collection), sort key, then its attributes (those the index projects), at most p_max_items items, starting with the partition keys that begin with p_key_prefix (a string key; for a number key, the key equal to it); p_format text (aligned, for psql) or html (a table, each entity type, the attribute type or entity_type or else the table''s sort key up to its first # or digit, in its own colour); items read by Query (hroe.query_page), one collection after another';

-- Deterministic pseudo-random numbers for hroe.load (models/generate.c).
-- Each value is a pure function of (seed, stream, index): set-based
-- generators get identical rows whatever the plan or parallelism.

CREATE FUNCTION hroe.prng(seed bigint, stream integer, i bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'hroe_prng'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng(bigint, integer, bigint) IS
'internal: uniform pseudo-random float8 in [0, 1) for (seed, stream, index): splitmix64, stateless, the same on every call';

CREATE FUNCTION hroe.prng_int(seed bigint, stream integer, i bigint, lo bigint, hi bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_int'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng_int(bigint, integer, bigint, bigint, bigint) IS
'internal: uniform pseudo-random integer in [lo, hi] for (seed, stream, index); an error if lo > hi';

CREATE FUNCTION hroe.prng_zipf(seed bigint, stream integer, i bigint, n bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_zipf'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng_zipf(bigint, integer, bigint, bigint) IS
'internal: skewed pseudo-random rank in [1, n] for (seed, stream, index): P(k) = log(1 + 1/k) / log(n + 1), Zipf-like with exponent 1';

CREATE FUNCTION hroe.order_line_draws(seed bigint, order_id bigint, products bigint)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'hroe_order_line_draws'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.order_line_draws(bigint, bigint, bigint) IS
'internal: for hroe.load: the distinct products of generated order order_id (1 to 5 candidate lines, each product half Zipf-skewed), ascending, encoded product * 8 + the candidate line that drew it';

-- hroe_normalized: Oracle's HR and OE sample schemas in PostgreSQL, the
-- relational side of the comparison.  Adaptations (DESIGN.md, README):
-- orders.order_status is text (OPEN, SHIPPED, CLOSED, CANCELED);
-- employees and customers both hold a list of up to 5 phone numbers;
-- orders.order_date is a date; employees.job_start_date records when the
-- current job began; one warehouse per location; no geometry or XML.

CREATE SCHEMA hroe_normalized;
COMMENT ON SCHEMA hroe_normalized IS
'hroe: Oracle HR and OE sample schemas in PostgreSQL (the normalized model), with the 17 read patterns and 5 write patterns';

CREATE TABLE hroe_normalized.regions (
	region_id integer PRIMARY KEY,
	region_name varchar(25) NOT NULL
);
COMMENT ON TABLE hroe_normalized.regions IS 'HR regions (Oracle hr.regions)';

CREATE TABLE hroe_normalized.countries (
	country_id char(2) PRIMARY KEY,
	country_name varchar(60) NOT NULL,
	region_id integer NOT NULL REFERENCES hroe_normalized.regions
);
COMMENT ON TABLE hroe_normalized.countries IS 'HR countries (Oracle hr.countries)';

CREATE TABLE hroe_normalized.locations (
	location_id integer PRIMARY KEY,
	street_address varchar(40),
	postal_code varchar(12),
	city varchar(30) NOT NULL,
	state_province varchar(25),
	country_id char(2) NOT NULL REFERENCES hroe_normalized.countries
);
COMMENT ON TABLE hroe_normalized.locations IS 'HR locations (Oracle hr.locations): addresses of departments and warehouses';

CREATE TABLE hroe_normalized.jobs (
	job_id varchar(10) PRIMARY KEY,
	job_title varchar(35) NOT NULL UNIQUE,
	min_salary integer,
	max_salary integer,
	CHECK (min_salary <= max_salary)
);
COMMENT ON TABLE hroe_normalized.jobs IS 'HR jobs (Oracle hr.jobs); titles are unique';

CREATE TABLE hroe_normalized.departments (
	department_id integer PRIMARY KEY,
	department_name varchar(30) NOT NULL,
	manager_id integer,
	location_id integer REFERENCES hroe_normalized.locations
);
COMMENT ON TABLE hroe_normalized.departments IS 'HR departments (Oracle hr.departments); employees reach a warehouse through their department''s location';

CREATE TABLE hroe_normalized.employees (
	employee_id integer PRIMARY KEY CHECK (employee_id > 0),
	first_name varchar(20),
	last_name varchar(25) NOT NULL,
	email varchar(25) NOT NULL UNIQUE,
	phone_numbers varchar(25)[] NOT NULL DEFAULT '{}'
		CHECK (cardinality(phone_numbers) <= 5
			   AND (cardinality(phone_numbers) = 0
					OR (array_ndims(phone_numbers) = 1 AND array_lower(phone_numbers, 1) = 1))
			   AND array_position(phone_numbers, NULL) IS NULL),
	hire_date date NOT NULL,
	job_id varchar(10) NOT NULL REFERENCES hroe_normalized.jobs,
	job_start_date date NOT NULL,
	salary numeric(8,2) CHECK (salary > 0),
	commission_pct numeric(2,2) CHECK (commission_pct >= 0),
	manager_id integer REFERENCES hroe_normalized.employees,
	-- deferred: departments and employees reference each other, and pg_dump
	-- cannot order the data of such a cycle (restore with --single-transaction)
	department_id integer REFERENCES hroe_normalized.departments DEFERRABLE INITIALLY DEFERRED,
	CHECK (job_start_date >= hire_date)
);
COMMENT ON TABLE hroe_normalized.employees IS
'HR employees (Oracle hr.employees); phone_numbers is a list of up to 5 (Oracle: one phone_number), job_start_date is when the current job began';

ALTER TABLE hroe_normalized.departments
	ADD FOREIGN KEY (manager_id) REFERENCES hroe_normalized.employees DEFERRABLE INITIALLY DEFERRED;

CREATE TABLE hroe_normalized.job_history (
	employee_id integer NOT NULL REFERENCES hroe_normalized.employees,
	start_date date NOT NULL,
	end_date date NOT NULL,
	job_id varchar(10) NOT NULL REFERENCES hroe_normalized.jobs,
	department_id integer REFERENCES hroe_normalized.departments,
	PRIMARY KEY (employee_id, start_date),
	CHECK (end_date >= start_date)
);
COMMENT ON TABLE hroe_normalized.job_history IS
'HR past jobs (Oracle hr.job_history): end_date is the last day of the job, inclusive (a one-day job is allowed)';

CREATE TABLE hroe_normalized.customers (
	customer_id integer PRIMARY KEY CHECK (customer_id > 0),
	cust_first_name varchar(20) NOT NULL,
	cust_last_name varchar(20) NOT NULL,
	street_address varchar(40),
	postal_code varchar(10),
	city varchar(30),
	state_province varchar(10),
	country_id char(2) REFERENCES hroe_normalized.countries,
	phone_numbers varchar(25)[] NOT NULL DEFAULT '{}'
		CHECK (cardinality(phone_numbers) <= 5
			   AND (cardinality(phone_numbers) = 0
					OR (array_ndims(phone_numbers) = 1 AND array_lower(phone_numbers, 1) = 1))
			   AND array_position(phone_numbers, NULL) IS NULL),
	nls_language varchar(3),
	nls_territory varchar(30),
	credit_limit numeric(9,2) CHECK (credit_limit <= 5000),
	cust_email varchar(40),
	account_mgr_id integer REFERENCES hroe_normalized.employees ON DELETE SET NULL,
	date_of_birth date,
	marital_status varchar(20),
	gender varchar(1) CHECK (gender IN ('M', 'F')),
	income_level varchar(20)
);
COMMENT ON TABLE hroe_normalized.customers IS
'OE customers (Oracle oe.customers): cust_address flattened into five columns, phone_numbers a list of up to 5, no geometry';

CREATE TABLE hroe_normalized.warehouses (
	warehouse_id integer PRIMARY KEY,
	warehouse_name varchar(35),
	location_id integer NOT NULL UNIQUE REFERENCES hroe_normalized.locations
);
COMMENT ON TABLE hroe_normalized.warehouses IS
'OE warehouses (Oracle oe.warehouses, without warehouse_spec and geometry); at most one warehouse per location, so an employee works at no more than one';

CREATE TABLE hroe_normalized.promotions (
	promo_id integer PRIMARY KEY,
	promo_name varchar(20)
);
COMMENT ON TABLE hroe_normalized.promotions IS 'OE promotions (Oracle oe.promotions)';

CREATE TABLE hroe_normalized.product_information (
	product_id integer PRIMARY KEY CHECK (product_id > 0),
	product_name varchar(50),
	product_description varchar(2000),
	category_id smallint,
	weight_class smallint,
	warranty_period interval,
	supplier_id integer,
	product_status varchar(20)
		CHECK (product_status IN ('orderable', 'planned', 'under development', 'obsolete')),
	list_price numeric(8,2) CHECK (list_price >= 0),
	min_price numeric(8,2) CHECK (min_price >= 0),
	catalog_url varchar(50)
);
COMMENT ON TABLE hroe_normalized.product_information IS 'OE products (Oracle oe.product_information)';

CREATE TABLE hroe_normalized.product_descriptions (
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	language_id varchar(3) NOT NULL,
	translated_name varchar(50) NOT NULL,
	translated_description varchar(2000) NOT NULL,
	PRIMARY KEY (product_id, language_id)
);
COMMENT ON TABLE hroe_normalized.product_descriptions IS 'OE product names and descriptions per language (Oracle oe.product_descriptions)';

CREATE TABLE hroe_normalized.orders (
	order_id bigint PRIMARY KEY CHECK (order_id > 0),
	order_date date NOT NULL,
	order_mode varchar(8) CHECK (order_mode IN ('direct', 'online')),
	customer_id integer NOT NULL REFERENCES hroe_normalized.customers,
	order_status text NOT NULL DEFAULT 'OPEN'
		CHECK (order_status IN ('OPEN', 'SHIPPED', 'CLOSED', 'CANCELED')),
	order_total numeric(8,2) NOT NULL CHECK (order_total >= 0),
	sales_rep_id integer REFERENCES hroe_normalized.employees ON DELETE SET NULL,
	promotion_id integer REFERENCES hroe_normalized.promotions
);
COMMENT ON TABLE hroe_normalized.orders IS
'OE orders (Oracle oe.orders): order_date is a date, order_status is OPEN, SHIPPED, CLOSED or CANCELED, order_total is the sum of the lines';

CREATE TABLE hroe_normalized.order_items (
	order_id bigint NOT NULL REFERENCES hroe_normalized.orders ON DELETE CASCADE,
	line_item_id smallint NOT NULL CHECK (line_item_id > 0),
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	unit_price numeric(8,2) NOT NULL CHECK (unit_price >= 0),
	quantity integer NOT NULL CHECK (quantity > 0),
	PRIMARY KEY (order_id, line_item_id),
	UNIQUE (order_id, product_id)
);
COMMENT ON TABLE hroe_normalized.order_items IS 'OE order lines (Oracle oe.order_items); a product appears at most once per order';

CREATE TABLE hroe_normalized.inventories (
	product_id integer NOT NULL REFERENCES hroe_normalized.product_information,
	warehouse_id integer NOT NULL REFERENCES hroe_normalized.warehouses,
	quantity_on_hand integer NOT NULL CHECK (quantity_on_hand >= 0),
	PRIMARY KEY (product_id, warehouse_id)
);
COMMENT ON TABLE hroe_normalized.inventories IS 'OE stock per product and warehouse (Oracle oe.inventories); never negative';

-- Ids handed out by place_order and hire_employee (CACHE 1, so no session
-- skips numbers; hroe.load sets them just past the generated ids).
CREATE SEQUENCE hroe_normalized.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_normalized.order_id_seq IS
'next order id for place_order (CACHE 1; hroe.load sets it to the number of generated orders)';
CREATE SEQUENCE hroe_normalized.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_normalized.employee_id_seq IS
'next employee id for hire_employee (CACHE 1; hroe.load sets it past the generated employees)';

-- Indexes for the foreign keys and the access patterns (hroe.load drops
-- the secondary ones before a bulk load and recreates them afterwards).
CREATE INDEX countries_region_id_idx ON hroe_normalized.countries (region_id);
CREATE INDEX locations_country_id_idx ON hroe_normalized.locations (country_id);
CREATE INDEX departments_location_id_idx ON hroe_normalized.departments (location_id);
CREATE INDEX departments_manager_id_idx ON hroe_normalized.departments (manager_id);
-- pattern 2: the full name as employee_by_name spells it, ties by id
CREATE INDEX employees_full_name_idx ON hroe_normalized.employees
	((COALESCE(first_name::text || ' ', '') || last_name::text), employee_id);
-- pattern 6
CREATE INDEX employees_hire_date_idx ON hroe_normalized.employees (hire_date, employee_id);
-- pattern 7
CREATE INDEX employees_department_id_idx ON hroe_normalized.employees (department_id, employee_id);
-- pattern 11
CREATE INDEX employees_job_id_idx ON hroe_normalized.employees (job_id, employee_id);
CREATE INDEX employees_manager_id_idx ON hroe_normalized.employees (manager_id);
CREATE INDEX job_history_job_id_idx ON hroe_normalized.job_history (job_id);
CREATE INDEX job_history_department_id_idx ON hroe_normalized.job_history (department_id);
-- pattern 9
CREATE INDEX customers_account_mgr_id_idx ON hroe_normalized.customers (account_mgr_id, customer_id);
-- pattern 4
CREATE INDEX orders_customer_id_idx ON hroe_normalized.orders (customer_id, order_date, order_id);
-- pattern 10
CREATE INDEX orders_sales_rep_id_idx ON hroe_normalized.orders (sales_rep_id, order_date, order_id);
-- pattern 5: sparse, like the OPEN-orders GSIs of the DynamoDB designs
CREATE INDEX orders_open_idx ON hroe_normalized.orders (order_date, order_id)
	WHERE order_status = 'OPEN';
-- pattern 14: the orders that count towards a rep's quarter, covering.
-- sales_rep_id is a key column, not an INCLUDE one: when rep_orders with a
-- status picks this index, the rep is then checked in the index, not in
-- the heap row by row.
CREATE INDEX orders_rep_sales_idx ON hroe_normalized.orders (order_date, sales_rep_id)
	INCLUDE (order_total)
	WHERE sales_rep_id IS NOT NULL AND order_status <> 'CANCELED';
-- pattern 8
CREATE INDEX order_items_product_id_idx ON hroe_normalized.order_items (product_id, order_id);
CREATE INDEX inventories_warehouse_id_idx ON hroe_normalized.inventories (warehouse_id);

-- pg_dump keeps the generated data (one call per statement: each updates pg_extension)
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.regions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.countries', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.locations', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.jobs', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.departments', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.employees', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.job_history', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.customers', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.warehouses', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.promotions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.product_information', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.product_descriptions', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.orders', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.order_items', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.inventories', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_normalized.employee_id_seq', '');

-- Quarters for rep_ranking, shared by every model: '2025-Q3'.  The two
-- bounds are inlinable SQL expressions: folded to constants for a constant
-- quarter, cheap per row otherwise.  (Every OPERATOR() has the same
-- precedence, left to right: hence the parentheses.)
CREATE FUNCTION hroe.invalid_quarter(p_quarter text)
RETURNS date
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_quarter IS NULL THEN
		RETURN NULL;
	END IF;
	RAISE EXCEPTION 'invalid quarter "%"', p_quarter
		USING ERRCODE = 'invalid_parameter_value',
			  HINT = 'A quarter is written YYYY-Qn, for example 2025-Q3.';
END
$$;
COMMENT ON FUNCTION hroe.invalid_quarter(text) IS
'internal: raises the error for a quarter not written YYYY-Qn (NULL for NULL); used by hroe.quarter_start and hroe.quarter_end';

CREATE FUNCTION hroe.quarter_start(p_quarter text)
RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_quarter OPERATOR(pg_catalog.~) '^[0-9]{4}-Q[1-4]$'
			THEN pg_catalog.make_date(pg_catalog.substr(p_quarter, 1, 4)::pg_catalog.int4,
									  3 OPERATOR(pg_catalog.*) pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4
										OPERATOR(pg_catalog.-) 2,
									  1)
			ELSE hroe.invalid_quarter(p_quarter) END
$$;
COMMENT ON FUNCTION hroe.quarter_start(text) IS
'internal: first day of a quarter written YYYY-Qn (''2025-Q3'' gives 2025-07-01); an error for any other text, NULL for NULL';

CREATE FUNCTION hroe.quarter_end(p_quarter text)
RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_quarter OPERATOR(pg_catalog.~) '^[0-9]{4}-Q[1-4]$'
			THEN pg_catalog.make_date(pg_catalog.substr(p_quarter, 1, 4)::pg_catalog.int4
										OPERATOR(pg_catalog.+) (pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4
																OPERATOR(pg_catalog./) 4),
									  (3 OPERATOR(pg_catalog.*) pg_catalog.substr(p_quarter, 7, 1)::pg_catalog.int4)
										OPERATOR(pg_catalog.%) 12 OPERATOR(pg_catalog.+) 1,
									  1)
			ELSE hroe.invalid_quarter(p_quarter) END
$$;
COMMENT ON FUNCTION hroe.quarter_end(text) IS
'internal: first day after a quarter written YYYY-Qn (''2025-Q3'' gives 2025-10-01), the exclusive end of the range; an error for any other text, NULL for NULL';

------------------------------------------------------------------------------
-- Row shapes: the joins and columns several read patterns share.  SQL
-- set-returning functions of one SELECT, STABLE, not STRICT, without SET:
-- a pattern selects from one and filters it; PostgreSQL inlines the
-- function and pulls its joins up into the pattern's query, so the plan is
-- the one of the query written out (the filters reach the index scans).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_normalized.employee_details()
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.first_name::pg_catalog.text, e.last_name::pg_catalog.text,
	   e.email::pg_catalog.text, e.phone_numbers::pg_catalog.text[], e.hire_date,
	   e.job_id::pg_catalog.text, j.job_title::pg_catalog.text, e.job_start_date,
	   e.salary, e.commission_pct, e.manager_id, e.department_id,
	   d.department_name::pg_catalog.text, l.location_id, l.city::pg_catalog.text,
	   c.country_name::pg_catalog.text, r.region_name::pg_catalog.text
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) e.department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id OPERATOR(pg_catalog.=) d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id OPERATOR(pg_catalog.=) l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id OPERATOR(pg_catalog.=) c.region_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_details() IS
'internal: row shape of patterns 1 and 2: every employee with its job title, department, location, country and region names, as employee_by_id returns them; inlined into the patterns';

CREATE FUNCTION hroe_normalized.order_rows()
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT o.order_id, o.customer_id, o.order_date, o.order_status,
	   o.order_mode::pg_catalog.text, o.sales_rep_id, o.order_total
FROM hroe_normalized.orders o
$$;
COMMENT ON FUNCTION hroe_normalized.order_rows() IS
'internal: row shape of patterns 4, 5 and 10: every order with the columns customer_orders returns; inlined into the patterns';

CREATE FUNCTION hroe_normalized.employee_summary()
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.first_name::pg_catalog.text, e.last_name::pg_catalog.text,
	   e.hire_date, e.job_id::pg_catalog.text, j.job_title::pg_catalog.text, e.department_id
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_summary() IS
'internal: row shape of patterns 6, 7 and 11: every employee with its job title, as employees_hired_since returns them; inlined into the patterns';

------------------------------------------------------------------------------
-- The 17 read patterns.  Each is a STABLE SQL function whose body is one
-- SELECT, not STRICT and without SET, so PostgreSQL inlines it into the
-- calling query and EXPLAIN shows the index scans.  Every name is schema-
-- qualified (tables, functions, operators, types) for search_path safety.
-- Strings are returned as text, ids as integer/bigint, money as numeric
-- with two decimals, dates as date.  Set results are ordered as each
-- COMMENT says; a NULL argument gives an empty result unless it says
-- otherwise.
------------------------------------------------------------------------------

-- 1
CREATE FUNCTION hroe_normalized.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_details() AS x
WHERE x.employee_id OPERATOR(pg_catalog.=) p_employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_by_id(integer) IS
'pattern 1: the employee''s details (name, email, phones, hire date, job, salary, manager, department, location); zero or one row';

-- 2
CREATE FUNCTION hroe_normalized.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_details() AS x
WHERE (COALESCE(x.first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) x.last_name) OPERATOR(pg_catalog.=) p_full_name
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_by_name(text) IS
'pattern 2: every employee whose full name (first_name, a space, last_name; case-sensitive) is the argument, with the columns of employee_by_id; ordered by employee_id';

-- 3
CREATE FUNCTION hroe_normalized.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.employee_id, e.job_id::pg_catalog.text, j.job_title::pg_catalog.text,
	   e.department_id, d.department_name::pg_catalog.text, e.job_start_date
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id OPERATOR(pg_catalog.=) e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) e.department_id
WHERE e.employee_id OPERATOR(pg_catalog.=) p_employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employee_current_job(integer) IS
'pattern 3: the employee''s current job only (job, title, department, start date; past jobs are in job_history); zero or one row';

-- 4
CREATE FUNCTION hroe_normalized.customer_orders(p_customer_id integer, p_from date, p_to date,
												p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.customer_id OPERATOR(pg_catalog.=) p_customer_id
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
  AND (p_status IS NULL OR x.order_status OPERATOR(pg_catalog.=) p_status)
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.customer_orders(integer, date, date, text) IS
'pattern 4: the customer''s orders dated from p_from to p_to inclusive, of status p_status (NULL: any status); ordered by order_date, order_id';

-- 5
CREATE FUNCTION hroe_normalized.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.order_status OPERATOR(pg_catalog.=) 'OPEN'
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.open_orders(date, date) IS
'pattern 5: every OPEN order dated from p_from to p_to inclusive, across all customers; ordered by order_date, order_id';

-- 6
CREATE FUNCTION hroe_normalized.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_summary() AS x
WHERE x.hire_date OPERATOR(pg_catalog.>=) p_since
ORDER BY x.hire_date, x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employees_hired_since(date) IS
'pattern 6: employees hired on or after p_since; ordered by hire_date, employee_id';

-- 7
CREATE FUNCTION hroe_normalized.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.warehouses w
JOIN hroe_normalized.departments d ON d.location_id OPERATOR(pg_catalog.=) w.location_id
JOIN hroe_normalized.employee_summary() AS x ON x.department_id OPERATOR(pg_catalog.=) d.department_id
WHERE w.warehouse_id OPERATOR(pg_catalog.=) p_warehouse_id
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.warehouse_employees(integer) IS
'pattern 7: employees whose department is at the warehouse''s location; ordered by employee_id';

-- 8
CREATE FUNCTION hroe_normalized.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'inventory'::pg_catalog.text AS kind, i.product_id, i.warehouse_id, i.quantity_on_hand,
	   NULL::pg_catalog.int8 AS order_id, NULL::pg_catalog.int4 AS line_item_id,
	   NULL::pg_catalog.date AS order_date, NULL::pg_catalog.int4 AS customer_id,
	   NULL::pg_catalog.int4 AS quantity, NULL::pg_catalog.numeric AS unit_price
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
UNION ALL
SELECT 'order_line'::pg_catalog.text, oi.product_id, NULL, NULL,
	   oi.order_id, oi.line_item_id::pg_catalog.int4, o.order_date, o.customer_id,
	   oi.quantity, oi.unit_price
FROM hroe_normalized.order_items oi
JOIN hroe_normalized.orders o ON o.order_id OPERATOR(pg_catalog.=) oi.order_id
WHERE oi.product_id OPERATOR(pg_catalog.=) p_product_id
ORDER BY kind, warehouse_id, order_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_order_items(integer) IS
'pattern 8: the product''s inventory rows (kind ''inventory'': warehouse_id, quantity_on_hand) then its order lines (kind ''order_line'': order_id, line_item_id, order_date, customer_id, quantity, unit_price); the other kind''s columns are NULL; ordered by kind, warehouse_id, order_id';

-- 9
CREATE FUNCTION hroe_normalized.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT c.customer_id, c.cust_first_name::pg_catalog.text, c.cust_last_name::pg_catalog.text,
	   c.cust_email::pg_catalog.text
FROM hroe_normalized.customers c
WHERE c.account_mgr_id OPERATOR(pg_catalog.=) p_employee_id
ORDER BY c.customer_id
$$;
COMMENT ON FUNCTION hroe_normalized.rep_customers(integer) IS
'pattern 9: customers whose account manager is the employee; ordered by customer_id';

-- 10
CREATE FUNCTION hroe_normalized.rep_orders(p_employee_id integer, p_from date, p_to date,
										   p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.order_rows() AS x
WHERE x.sales_rep_id OPERATOR(pg_catalog.=) p_employee_id
  AND x.order_date OPERATOR(pg_catalog.>=) p_from
  AND x.order_date OPERATOR(pg_catalog.<=) p_to
  AND (p_status IS NULL OR x.order_status OPERATOR(pg_catalog.=) p_status)
ORDER BY x.order_date, x.order_id
$$;
COMMENT ON FUNCTION hroe_normalized.rep_orders(integer, date, date, text) IS
'pattern 10: orders whose sales rep is the employee, dated from p_from to p_to inclusive, of status p_status (NULL: any status); ordered by order_date, order_id';

-- 11
CREATE FUNCTION hroe_normalized.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_normalized.employee_summary() AS x
WHERE x.job_title OPERATOR(pg_catalog.=) p_job_title
ORDER BY x.employee_id
$$;
COMMENT ON FUNCTION hroe_normalized.employees_by_title(text) IS
'pattern 11: employees whose current job has that title (case-sensitive); ordered by employee_id';

-- 12
CREATE FUNCTION hroe_normalized.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT i.product_id, i.warehouse_id, i.quantity_on_hand
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
  AND i.warehouse_id OPERATOR(pg_catalog.=) p_warehouse_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_inventory_at(integer, integer) IS
'pattern 12: quantity on hand of the product at the warehouse; no row when the warehouse does not stock the product';

-- 13
CREATE FUNCTION hroe_normalized.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.product_id,
	   COALESCE((SELECT pg_catalog.sum(i.quantity_on_hand)
				 FROM hroe_normalized.inventories i
				 WHERE i.product_id OPERATOR(pg_catalog.=) p.product_id), 0)::pg_catalog.int8
FROM hroe_normalized.product_information p
WHERE p.product_id OPERATOR(pg_catalog.=) p_product_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_total_inventory(integer) IS
'pattern 13: total quantity on hand of the product across warehouses (0 when stocked nowhere); no row for an unknown product';

-- 14
CREATE FUNCTION hroe_normalized.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY pg_catalog.sum(o.order_total) DESC,
										 o.sales_rep_id))::pg_catalog.int4,
	   o.sales_rep_id, pg_catalog.sum(o.order_total)
FROM hroe_normalized.orders o
WHERE o.order_date OPERATOR(pg_catalog.>=) hroe.quarter_start(p_quarter)
  AND o.order_date OPERATOR(pg_catalog.<) hroe.quarter_end(p_quarter)
  AND o.sales_rep_id IS NOT NULL
  AND o.order_status OPERATOR(pg_catalog.<>) 'CANCELED'
GROUP BY o.sales_rep_id
ORDER BY 1
$$;
COMMENT ON FUNCTION hroe_normalized.rep_ranking(text) IS
'pattern 14: sales reps ranked by the total of their orders dated in the quarter (''2025-Q3''), CANCELED orders excluded, highest first; rank is 1, 2, 3... with ties broken by employee_id; ordered by rank';

-- 15
CREATE FUNCTION hroe_normalized.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.ordinal::pg_catalog.int4, p.phone_number::pg_catalog.text
FROM hroe_normalized.employees e
CROSS JOIN LATERAL pg_catalog.unnest(e.phone_numbers) WITH ORDINALITY AS p (phone_number, ordinal)
WHERE e.employee_id OPERATOR(pg_catalog.=) p_employee_id
ORDER BY p.ordinal
$$;
COMMENT ON FUNCTION hroe_normalized.employee_phones(integer) IS
'pattern 15: the employee''s phone numbers with their position in the list (1..5); ordered by ordinal';

-- 16
CREATE FUNCTION hroe_normalized.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT p.ordinal::pg_catalog.int4, p.phone_number::pg_catalog.text
FROM hroe_normalized.customers c
CROSS JOIN LATERAL pg_catalog.unnest(c.phone_numbers) WITH ORDINALITY AS p (phone_number, ordinal)
WHERE c.customer_id OPERATOR(pg_catalog.=) p_customer_id
ORDER BY p.ordinal
$$;
COMMENT ON FUNCTION hroe_normalized.customer_phones(integer) IS
'pattern 16: the customer''s phone numbers with their position in the list (1..5); ordered by ordinal';

-- 17
CREATE FUNCTION hroe_normalized.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT i.product_id, i.warehouse_id, i.quantity_on_hand
FROM hroe_normalized.inventories i
WHERE i.product_id OPERATOR(pg_catalog.=) p_product_id
ORDER BY i.warehouse_id
$$;
COMMENT ON FUNCTION hroe_normalized.product_inventories(integer) IS
'pattern 17: the product''s inventory at every warehouse that stocks it; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The 5 write patterns.  PL/pgSQL with a fixed search_path; each validates
-- its arguments with a clear error before writing, and takes row locks so
-- that concurrent callers never lose an update (test/specs/normalized.spec).
------------------------------------------------------------------------------

-- The checks of place_order's lines that do not look at data, shared by every
-- model's place_order so that the three raise the same errors (each model
-- then looks its products up in its own design).
CREATE FUNCTION hroe.check_order_lines(p_lines jsonb)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF jsonb_typeof(p_lines) <> 'array' OR jsonb_array_length(p_lines) = 0 THEN
		RAISE EXCEPTION 'order lines must be a non-empty JSON array'
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Example: [{"product_id": 1, "quantity": 2}, {"product_id": 7, "quantity": 1, "unit_price": 9.99}]';
	END IF;
	IF jsonb_array_length(p_lines) > 999 THEN
		RAISE EXCEPTION 'an order has at most 999 lines, not %', jsonb_array_length(p_lines)
			USING ERRCODE = 'program_limit_exceeded';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_lines(jsonb) IS
'internal: the check of place_order''s p_lines shared by hroe_normalized, hroe_single and hroe_multi: a JSON array of 1 to 999 lines; raises the error, or returns';

CREATE FUNCTION hroe.parse_order_line(p_line jsonb, p_n bigint,
									  OUT product_id integer, OUT quantity integer, OUT unit_price numeric)
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_key text;
	v_num numeric;
BEGIN
	IF jsonb_typeof(p_line) <> 'object' THEN
		RAISE EXCEPTION 'order line % is not a JSON object', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR v_key IN SELECT jsonb_object_keys(p_line) LOOP
		IF v_key NOT IN ('product_id', 'quantity', 'unit_price') THEN
			RAISE EXCEPTION 'order line % has an unknown attribute "%"', p_n, v_key
				USING ERRCODE = 'invalid_parameter_value',
					  HINT = 'An order line has product_id, quantity and optionally unit_price.';
		END IF;
	END LOOP;
	IF jsonb_typeof(p_line -> 'product_id') IS DISTINCT FROM 'number' THEN
		RAISE EXCEPTION 'order line % needs a numeric product_id', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_num := (p_line ->> 'product_id')::numeric;
	IF v_num <> trunc(v_num) OR v_num < 1 OR v_num > 2147483647 THEN
		RAISE EXCEPTION 'order line %: invalid product_id %', p_n, v_num USING ERRCODE = 'invalid_parameter_value';
	END IF;
	product_id := v_num::integer;
	IF jsonb_typeof(p_line -> 'quantity') IS DISTINCT FROM 'number' THEN
		RAISE EXCEPTION 'order line % needs a numeric quantity', p_n USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_num := (p_line ->> 'quantity')::numeric;
	IF v_num <> trunc(v_num) OR v_num < 1 OR v_num > 2147483647 THEN
		RAISE EXCEPTION 'order line %: quantity must be a positive integer, not %', p_n, v_num
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	quantity := v_num::integer;
	unit_price := NULL;
	IF p_line ? 'unit_price' THEN
		IF jsonb_typeof(p_line -> 'unit_price') <> 'number' THEN
			RAISE EXCEPTION 'order line %: unit_price must be a number', p_n USING ERRCODE = 'invalid_parameter_value';
		END IF;
		unit_price := (p_line ->> 'unit_price')::numeric;
		IF unit_price < 0 OR unit_price > 999999.99 OR unit_price <> round(unit_price, 2) THEN
			RAISE EXCEPTION 'order line %: unit_price must be between 0 and 999999.99 with at most two decimals, not %', p_n, unit_price
				USING ERRCODE = 'invalid_parameter_value';
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.parse_order_line(jsonb, bigint) IS
'internal: one line of place_order''s p_lines (the p_n-th), checked and parsed as every model''s place_order does: an object of product_id and quantity (positive integers) and an optional unit_price (0 to 999999.99, two decimals; NULL when absent); raises the error naming the line, or returns the values';

CREATE FUNCTION hroe.price_order_line(p_product_id integer, p_found boolean, p_list_price numeric,
									  p_unit_price numeric, p_products integer[])
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF NOT p_found THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_product_id = ANY (p_products) THEN
		RAISE EXCEPTION 'product % appears twice in the order', p_product_id
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Give each product once, with the total quantity.';
	END IF;
	IF COALESCE(p_unit_price, p_list_price) IS NULL THEN
		RAISE EXCEPTION 'product % has no list price', p_product_id
			USING ERRCODE = 'invalid_parameter_value', HINT = 'Give the line a unit_price.';
	END IF;
	RETURN COALESCE(p_unit_price, p_list_price);
END
$$;
COMMENT ON FUNCTION hroe.price_order_line(integer, boolean, numeric, numeric, integer[]) IS
'internal: the checks of a parsed place_order line against the product the model looked up, shared by the three models: p_found whether the product exists, p_list_price its list price, p_unit_price the line''s own price (NULL: none), p_products the products of the earlier lines; raises the error (unknown product, product twice, no price), or returns the line''s unit price';

-- The ids of the products place_order's lines name, without checking the
-- lines (parse_order_line does, line by line): what a model looks up, in
-- one request, before hroe.price_order_lines walks the lines.
CREATE FUNCTION hroe.order_line_product_ids(p_lines jsonb)
RETURNS integer[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT ARRAY(
	SELECT DISTINCT v::numeric::integer AS id
	FROM jsonb_path_query(p_lines,
		'lax $[*].product_id ? (@.type() == "number" && @ == @.floor() && @ >= 1 && @ <= 2147483647)') v
	ORDER BY id)
$$;
COMMENT ON FUNCTION hroe.order_line_product_ids(jsonb) IS
'internal: the distinct product ids place_order''s lines name, ascending (valid integer ids only; malformed lines are left to hroe.parse_order_line), for a model to look its products up before hroe.price_order_lines';

-- place_order's lines walked once for every model: each line parsed and
-- checked in array order against the products the model found, so the
-- three raise the same error for the same bad line.
CREATE FUNCTION hroe.price_order_lines(p_lines jsonb, p_list_prices jsonb,
									   OUT products integer[], OUT quantities integer[],
									   OUT prices numeric[], OUT total numeric)
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_line jsonb;
	v_n bigint;
	v_product integer;
	v_quantity integer;
	v_price numeric;
	v_found jsonb := COALESCE(p_list_prices, '{}');
BEGIN
	products := '{}';
	quantities := '{}';
	prices := '{}';
	total := 0;
	FOR v_line, v_n IN SELECT l.value, l.ordinality FROM jsonb_array_elements(p_lines) WITH ORDINALITY l LOOP
		SELECT l.product_id, l.quantity, l.unit_price INTO v_product, v_quantity, v_price
		FROM hroe.parse_order_line(v_line, v_n) l;
		v_price := hroe.price_order_line(v_product, v_found ? v_product::text,
										 (v_found ->> v_product::text)::numeric, v_price, products);
		products := products || v_product;
		quantities := quantities || v_quantity;
		prices := prices || v_price;
		total := total + v_price * v_quantity;
	END LOOP;
	PERFORM hroe.check_order_total(total);
END
$$;
COMMENT ON FUNCTION hroe.price_order_lines(jsonb, jsonb) IS
'internal: place_order''s lines (already checked by hroe.check_order_lines) parsed and priced in array order, shared by the three models: p_list_prices maps each product the model found (hroe.order_line_product_ids) to its list price (JSON null: none); raises the first line''s error (hroe.parse_order_line, hroe.price_order_line) or a total above 999999.99, or returns the products, quantities and unit prices in line order and the total';

CREATE FUNCTION hroe.check_order_total(p_total numeric)
RETURNS void
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_total > 999999.99 THEN
		RAISE EXCEPTION 'order total % exceeds 999999.99', p_total USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_total(numeric) IS
'internal: place_order''s check of an order''s total, shared by the three models: at most 999999.99 (numeric(8,2) in hroe_normalized); raises the error, or returns';

CREATE FUNCTION hroe.check_order_status(p_status text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_status IS NULL OR p_status NOT IN ('OPEN', 'SHIPPED', 'CLOSED', 'CANCELED') THEN
		RAISE EXCEPTION 'invalid order status "%"', p_status
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'An order status is OPEN, SHIPPED, CLOSED or CANCELED.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_status(text) IS
'internal: the order status check of place_order and change_order_status, shared by the three models: OPEN, SHIPPED, CLOSED or CANCELED; raises the error, or returns';

CREATE FUNCTION hroe.check_order_id(p_order_id bigint)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_order_id IS NOT NULL AND p_order_id <= 0 THEN
		RAISE EXCEPTION 'order id must be positive, not %', p_order_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_order_id(bigint) IS
'internal: place_order''s check of a given order id, shared by the three models: positive (NULL: the model''s sequence picks one); raises the error, or returns';

CREATE FUNCTION hroe.check_status_change(p_order_id bigint, p_old text, p_new text)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF (p_old, p_new) NOT IN (('OPEN', 'SHIPPED'), ('OPEN', 'CANCELED'), ('SHIPPED', 'CLOSED')) THEN
		RAISE EXCEPTION 'order % cannot change from % to %', p_order_id, p_old, p_new
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  HINT = 'An OPEN order becomes SHIPPED or CANCELED, a SHIPPED order becomes CLOSED.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_status_change(bigint, text, text) IS
'internal: change_order_status''s transition check, shared by the three models: OPEN to SHIPPED or CANCELED, SHIPPED to CLOSED; raises the error, or returns';

CREATE FUNCTION hroe_normalized.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
											p_sales_rep_id integer DEFAULT NULL,
											p_status text DEFAULT 'OPEN',
											p_order_id bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_order_id bigint;
	v_products integer[];
	v_quantities integer[];
	v_prices numeric[];
	v_total numeric;
BEGIN
	IF p_customer_id IS NULL OR p_order_date IS NULL OR p_lines IS NULL OR p_status IS NULL THEN
		RAISE EXCEPTION 'customer, order date, lines and status must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_order_date) THEN
		RAISE EXCEPTION 'order date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe.check_order_status(p_status);
	PERFORM hroe.check_order_id(p_order_id);
	PERFORM FROM hroe_normalized.customers WHERE customer_id = p_customer_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.employees WHERE employee_id = p_sales_rep_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(p.product_id, p.list_price)
		 FROM hroe_normalized.product_information p
		 WHERE p.product_id = ANY (hroe.order_line_product_ids(p_lines)))) l;

	-- The id is taken only once everything is valid, so a rejected order
	-- does not consume one; the caller may impose it (the comparison passes
	-- the normalized model's id to the other models).
	v_order_id := COALESCE(p_order_id, nextval('hroe_normalized.order_id_seq'));
	INSERT INTO hroe_normalized.orders
		(order_id, order_date, order_mode, customer_id, order_status, order_total, sales_rep_id)
	VALUES (v_order_id, p_order_date,
			CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END,
			p_customer_id, p_status, v_total, p_sales_rep_id);
	INSERT INTO hroe_normalized.order_items (order_id, line_item_id, product_id, unit_price, quantity)
	SELECT v_order_id, l.n, l.product_id, l.unit_price, l.quantity
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order with its lines (a JSON array of {"product_id", "quantity", optional "unit_price" defaulting to the list price}); order_mode is direct with a sales rep, online without; order_total is the sum of the lines; returns the order id, the next value of order_id_seq unless p_order_id is given';

CREATE FUNCTION hroe_normalized.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_old text;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	SELECT order_status INTO v_old FROM hroe_normalized.orders WHERE order_id = p_order_id FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	UPDATE hroe_normalized.orders SET order_status = p_status WHERE order_id = p_order_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED; any other change is an error';

CREATE FUNCTION hroe_normalized.change_employee_job(p_employee_id integer, p_job_id text,
													p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_emp hroe_normalized.employees;
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT * INTO v_emp FROM hroe_normalized.employees WHERE employee_id = p_employee_id FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'employee % does not exist', p_employee_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_job_id = v_emp.job_id AND p_department_id IS NOT DISTINCT FROM v_emp.department_id THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_start_date <= v_emp.job_start_date THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_emp.job_start_date
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	INSERT INTO hroe_normalized.job_history (employee_id, start_date, end_date, job_id, department_id)
	VALUES (p_employee_id, v_emp.job_start_date, p_start_date - 1, v_emp.job_id, v_emp.department_id);
	UPDATE hroe_normalized.employees
	SET job_id = p_job_id, department_id = p_department_id, job_start_date = p_start_date
	WHERE employee_id = p_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date; the current job goes to job_history, ending the day before';

CREATE FUNCTION hroe_normalized.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_on_hand integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	PERFORM FROM hroe_normalized.product_information WHERE product_id = p_product_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.warehouses WHERE warehouse_id = p_warehouse_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_delta >= 0 THEN
		-- atomic under concurrency: the conflict path updates the locked row
		INSERT INTO hroe_normalized.inventories AS i (product_id, warehouse_id, quantity_on_hand)
		VALUES (p_product_id, p_warehouse_id, p_delta)
		ON CONFLICT (product_id, warehouse_id)
		DO UPDATE SET quantity_on_hand = i.quantity_on_hand + excluded.quantity_on_hand
		RETURNING i.quantity_on_hand INTO v_on_hand;
	ELSE
		-- the condition is rechecked on the latest row version after a lock wait
		UPDATE hroe_normalized.inventories i
		SET quantity_on_hand = i.quantity_on_hand + p_delta
		WHERE i.product_id = p_product_id AND i.warehouse_id = p_warehouse_id
		  AND i.quantity_on_hand + p_delta >= 0
		RETURNING i.quantity_on_hand INTO v_on_hand;
		IF NOT FOUND THEN
			SELECT i.quantity_on_hand INTO v_on_hand FROM hroe_normalized.inventories i
			WHERE i.product_id = p_product_id AND i.warehouse_id = p_warehouse_id;
			RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
				USING ERRCODE = 'check_violation',
					  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
		END IF;
	END IF;
	RETURN v_on_hand;
END
$$;
COMMENT ON FUNCTION hroe_normalized.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the stock of a product at a warehouse and returns the new quantity on hand; stock never goes below zero (an error instead)';

-- The argument checks every model's hire_employee makes before it looks at
-- its data (each model then checks job, department, manager and email in its
-- own design): one definition, so the three raise the same errors.
CREATE FUNCTION hroe.check_hire_arguments(p_first_name text, p_last_name text, p_email text,
										  p_hire_date date, p_job_id text, p_phone_numbers text[],
										  p_salary numeric, p_commission_pct numeric, p_employee_id integer)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_last_name IS NULL OR p_email IS NULL OR p_hire_date IS NULL OR p_job_id IS NULL
	   OR p_phone_numbers IS NULL THEN
		RAISE EXCEPTION 'last name, email, hire date, job and phone numbers must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_hire_date) THEN
		RAISE EXCEPTION 'hire date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_employee_id IS NOT NULL AND p_employee_id <= 0 THEN
		RAISE EXCEPTION 'employee id must be positive, not %', p_employee_id USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_salary IS NOT NULL AND (p_salary <= 0 OR p_salary > 999999.99 OR p_salary <> round(p_salary, 2)) THEN
		RAISE EXCEPTION 'salary must be positive, at most 999999.99, with at most two decimals, not %', p_salary
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_commission_pct IS NOT NULL
	   AND (p_commission_pct < 0 OR p_commission_pct > 0.99 OR p_commission_pct <> round(p_commission_pct, 2)) THEN
		RAISE EXCEPTION 'commission must be between 0 and 0.99 with at most two decimals, not %', p_commission_pct
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the column limits, checked here so that a rejected hire consumes no id
	IF length(p_first_name) > 20 OR length(p_last_name) > 25 OR length(p_email) > 25 THEN
		RAISE EXCEPTION 'first name, last name or email too long'
			USING ERRCODE = 'string_data_right_truncation',
				  DETAIL = 'A first name has at most 20 characters, a last name and an email at most 25.';
	END IF;
	IF cardinality(p_phone_numbers) > 5 THEN
		RAISE EXCEPTION 'an employee has at most 5 phone numbers, not %', cardinality(p_phone_numbers)
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF cardinality(p_phone_numbers) > 0
	   AND (array_ndims(p_phone_numbers) <> 1 OR array_position(p_phone_numbers, NULL) IS NOT NULL
			OR EXISTS (SELECT FROM unnest(p_phone_numbers) p WHERE length(p) > 25)) THEN
		RAISE EXCEPTION 'phone numbers must be a list of non-NULL texts of at most 25 characters'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe.check_hire_arguments(text, text, text, date, text, text[], numeric, numeric, integer) IS
'internal: the argument checks of hire_employee shared by hroe_normalized, hroe_single and hroe_multi (NULLs, a finite hire date, a positive id, salary, commission, name and email lengths, at most 5 phone numbers); raises the error, or returns';

CREATE FUNCTION hroe_normalized.hire_employee(p_first_name text, p_last_name text, p_email text,
											  p_hire_date date, p_job_id text, p_department_id integer,
											  p_phone_numbers text[] DEFAULT '{}',
											  p_manager_id integer DEFAULT NULL,
											  p_salary numeric DEFAULT NULL,
											  p_commission_pct numeric DEFAULT NULL,
											  p_employee_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_employee_id integer;
	v_other integer;
BEGIN
	PERFORM hroe.check_hire_arguments(p_first_name, p_last_name, p_email, p_hire_date, p_job_id,
									  p_phone_numbers, p_salary, p_commission_pct, p_employee_id);
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_manager_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.employees WHERE employee_id = p_manager_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	SELECT employee_id INTO v_other FROM hroe_normalized.employees WHERE email = p_email;
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_normalized.employee_id_seq')::integer);
	INSERT INTO hroe_normalized.employees
		(employee_id, first_name, last_name, email, phone_numbers, hire_date, job_id,
		 job_start_date, salary, commission_pct, manager_id, department_id)
	VALUES (v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers, p_hire_date, p_job_id,
			p_hire_date, p_salary, p_commission_pct, p_manager_id, p_department_id);
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_normalized.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an employee whose current job starts on the hire date and returns the id, the next value of employee_id_seq unless p_employee_id is given';

-- hroe.load(scale, seed): the deterministic data generator.  It fills
-- hroe_normalized set-based from hroe.prng* (pure functions of seed, stream
-- and row index), then asks the other models to map the data (see the hook
-- contract below and in the README).

-- A generated order line's quantity and unit price (whole cents), from its
-- order and its draw (product * 8 + the candidate line that drew it, as
-- hroe.order_line_draws returns it): hroe.load computes the lines and the
-- order totals with these two, so they agree.  SQL without SET, not
-- STRICT: inlined into hroe.load's set-based statements.
CREATE FUNCTION hroe.order_line_quantity(p_seed bigint, p_order_id bigint, p_draw bigint)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT 1 OPERATOR(pg_catalog.+) pg_catalog.floor(20 OPERATOR(pg_catalog.*)
	(hroe.prng(p_seed, 53, (8 OPERATOR(pg_catalog.*) p_order_id) OPERATOR(pg_catalog.+) (p_draw OPERATOR(pg_catalog.&) 7))
	 OPERATOR(pg_catalog.^) 3))::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe.order_line_quantity(bigint, bigint, bigint) IS
'internal: for hroe.load: the quantity of a generated order line, 1 + floor(20 u^3) for the line''s uniform u (stream 53): mostly 1 to 3, at most 20';

CREATE FUNCTION hroe.order_line_cents(p_seed bigint, p_order_id bigint, p_draw bigint,
									  p_list_cents bigint[], p_min_cents bigint[])
RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN hroe.prng(p_seed, 54, (8 OPERATOR(pg_catalog.*) p_order_id) OPERATOR(pg_catalog.+) (p_draw OPERATOR(pg_catalog.&) 7))
				 OPERATOR(pg_catalog.<) 0.2::pg_catalog.float8
			THEN p_min_cents[p_draw OPERATOR(pg_catalog.>>) 3]
			ELSE p_list_cents[p_draw OPERATOR(pg_catalog.>>) 3] END
$$;
COMMENT ON FUNCTION hroe.order_line_cents(bigint, bigint, bigint, bigint[], bigint[]) IS
'internal: for hroe.load: the unit price in cents of a generated order line, the product''s min price for a fifth of the lines (stream 54), its list price otherwise; prices looked up by product id in arrays of cents';

-- Secondary indexes dropped before a bulk load and rebuilt after it, which
-- is much faster than maintaining them row by row (hroe.load for
-- hroe_normalized, and the DynamoDB models' load_from_normalized for their
-- GSIs).  The rebuild DDL keeps each index's name (hroe.indexes names GSIs
-- by it), definition, comment and creation order.
CREATE FUNCTION hroe.drop_secondary_indexes(p_tables regclass[])
RETURNS text[]
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_ddl text[];
	v_index regclass;
BEGIN
	SELECT COALESCE(array_agg(d.ddl ORDER BY d.indexrelid, d.step), '{}') INTO v_ddl
	FROM (SELECT i.indexrelid, 1 AS step, pg_get_indexdef(i.indexrelid) AS ddl
		  FROM pg_index i WHERE i.indrelid = ANY (p_tables)
		  UNION ALL
		  SELECT i.indexrelid, 2, format('COMMENT ON INDEX %s IS %L', i.indexrelid::regclass,
										 obj_description(i.indexrelid, 'pg_class'))
		  FROM pg_index i WHERE i.indrelid = ANY (p_tables)
			AND obj_description(i.indexrelid, 'pg_class') IS NOT NULL) d
	WHERE NOT EXISTS (SELECT FROM pg_constraint k
					  WHERE k.conindid = d.indexrelid AND k.contype IN ('p', 'u', 'x'));
	FOR v_index IN SELECT i.indexrelid::regclass FROM pg_index i
				   WHERE i.indrelid = ANY (p_tables)
					 AND NOT EXISTS (SELECT FROM pg_constraint k
									 WHERE k.conindid = i.indexrelid AND k.contype IN ('p', 'u', 'x'))
				   ORDER BY i.indexrelid LOOP
		EXECUTE format('DROP INDEX %s', v_index);
	END LOOP;
	RETURN v_ddl;
END
$$;
COMMENT ON FUNCTION hroe.drop_secondary_indexes(regclass[]) IS
'internal: drops every index of the tables that backs no primary key, unique or exclusion constraint (for a bulk load) and returns the statements that rebuild them with their names, definitions and comments, in creation order: give them to hroe.execute_ddl';

CREATE FUNCTION hroe.execute_ddl(p_ddl text[])
RETURNS void
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_ddl text;
BEGIN
	FOREACH v_ddl IN ARRAY p_ddl LOOP
		EXECUTE v_ddl;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.execute_ddl(text[]) IS
'internal: runs statements in order, under search_path pg_catalog, pg_temp (their names must be qualified): the rebuild of hroe.drop_secondary_indexes and hroe.load''s saved constraints';

CREATE FUNCTION hroe.load(p_scale numeric, p_seed bigint DEFAULT 42)
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	-- sizes: orders, lines and customers grow with the scale, employees and
	-- products ten times slower; 9 warehouses always
	v_orders bigint;
	v_customers integer;
	v_employees integer;
	v_products integer;
	v_days constant integer := date '2025-12-31' - date '2020-01-01' + 1;
	v_verbose boolean := p_scale >= 10;
	v_started timestamptz := clock_timestamp();
	v_phase timestamptz;
	v_rows bigint;
	v_lines bigint;
	v_list_cents bigint[];
	v_min_cents bigint[];
	v_reps integer[];
	v_nreps integer;
	v_job_of integer[] := '{}';
	v_k integer;
	v_saved_constraints text[];
	v_saved_indexes text[];
	v_ddl text;
	v_model text;
	v_rettype regtype;
	-- Oracle HR's job mix (employees per job in the 107-row sample, the
	-- president excluded) and each job's department
	v_job_ids constant text[] := ARRAY['AD_PRES', 'AD_VP', 'AD_ASST', 'FI_MGR', 'FI_ACCOUNT', 'AC_MGR',
		'AC_ACCOUNT', 'SA_MAN', 'SA_REP', 'PU_MAN', 'PU_CLERK', 'ST_MAN', 'ST_CLERK', 'SH_CLERK',
		'IT_PROG', 'MK_MAN', 'MK_REP', 'HR_REP', 'PR_REP'];
	v_job_weight constant integer[] := ARRAY[0, 2, 1, 1, 5, 1, 1, 5, 30, 1, 5, 5, 20, 20, 5, 1, 1, 1, 1];
	v_job_dept constant integer[] := ARRAY[90, 90, 10, 100, 100, 110, 110, 80, 80, 30, 30, 50, 50, 50,
		60, 20, 20, 40, 70];
	v_first constant text[] := ARRAY['Steven', 'Neena', 'Lex', 'Alexander', 'Bruce', 'David', 'Valli',
		'Diana', 'Nancy', 'Daniel', 'John', 'Ismael', 'Luis', 'Den', 'Shelli', 'Sigal', 'Guy', 'Karen',
		'Matthew', 'Adam', 'Payam', 'Shanta', 'Kevin', 'Julia', 'Irene', 'James', 'Jason', 'Michael',
		'Ki', 'Hazel', 'Renske', 'Stephen', 'Joshua', 'Trenna', 'Curtis', 'Randall', 'Peter', 'Alberto',
		'Gerald', 'Eleni', 'Sean', 'Christopher', 'Nanette', 'Oliver', 'Janette', 'Patrick', 'Allan',
		'Lindsey', 'Louise', 'Sarath', 'Clara', 'Danielle', 'Mattea', 'Sundar', 'Amit', 'Lisa',
		'Harrison', 'Tayler', 'William', 'Elizabeth', 'Sundita', 'Ellen', 'Alyssa', 'Jonathon', 'Jack',
		'Kimberely', 'Charles', 'Winston', 'Jean', 'Martha', 'Girard', 'Nandita', 'Alexis', 'Anthony',
		'Kelly', 'Jennifer', 'Timothy', 'Sarah', 'Britney', 'Samuel', 'Vance', 'Alana', 'Donald',
		'Douglas', 'Pat', 'Susan', 'Hermann', 'Shelley', 'José Manuel', 'Zoë'];
	v_last constant text[] := ARRAY['King', 'Kochhar', 'De Haan', 'Hunold', 'Ernst', 'Austin',
		'Pataballa', 'Lorentz', 'Greenberg', 'Faviet', 'Chen', 'Sciarra', 'Urman', 'Popp', 'Raphaely',
		'Khoo', 'Baida', 'Tobias', 'Himuro', 'Colmenares', 'Weiss', 'Fripp', 'Kaufling', 'Vollman',
		'Mourgos', 'Nayer', 'Mikkilineni', 'Landry', 'Markle', 'Bissot', 'Atkinson', 'Marlow', 'Olson',
		'Mallin', 'Rogers', 'Gee', 'Philtanker', 'Ladwig', 'Stiles', 'Seo', 'Patel', 'Rajs', 'Davies',
		'Matos', 'Vargas', 'Russell', 'Partners', 'Errazuriz', 'Cambrault', 'Zlotkey', 'Tucker',
		'Bernstein', 'Hall', 'Olsen', 'Tuvault', 'Sully', 'McEwen', 'Smith', 'Doran', 'Sewall',
		'Vishney', 'Greene', 'Marvins', 'Lee', 'Ande', 'Banda', 'Ozer', 'Bloom', 'Fox', 'Bates',
		'Kumar', 'Abel', 'Hutton', 'Taylor', 'Livingston', 'Grant', 'Johnson', 'Fleaur', 'Sullivan',
		'Geoni', 'Sarchand', 'Bull', 'Dellinger', 'Cabrio', 'Chung', 'Dilly', 'Gates', 'Perkins',
		'Bell', 'Everett', 'McCain', 'Jones', 'Walsh', 'Feeney', 'OConnell', 'Whalen', 'Hartstein',
		'Fay', 'Mavris', 'Baer', 'Higgins', 'Gietz', 'Müller', 'Ñúñez'];
	v_area constant text[] := ARRAY['515', '590', '650', '603', '011.44'];
	-- customer addresses: city, state (at most 10 characters), country,
	-- NLS language and territory; the first ones are the busiest
	v_city constant text[] := ARRAY['Seattle', 'New York', 'Chicago', 'Boston', 'Dallas', 'Toronto',
		'London', 'Munich', 'Paris', 'Milano', 'Tokyo', 'Sydney', 'Bombay', 'Beijing', 'Sao Paulo',
		'Mexico City'];
	v_state constant text[] := ARRAY['WA', 'NY', 'IL', 'MA', 'TX', 'ON', NULL, 'Bavaria', NULL, NULL,
		NULL, 'NSW', 'MH', NULL, 'SP', 'DF'];
	v_country constant text[] := ARRAY['US', 'US', 'US', 'US', 'US', 'CA', 'UK', 'DE', 'FR', 'IT', 'JP',
		'AU', 'IN', 'CN', 'BR', 'MX'];
	v_lang constant text[] := ARRAY['us', 'us', 'us', 'us', 'us', 'us', 'us', 'd', 'f', 'i', 'ja', 'us',
		'us', 'zhs', 'ptb', 'esm'];
	v_territory constant text[] := ARRAY['AMERICA', 'AMERICA', 'AMERICA', 'AMERICA', 'AMERICA', 'CANADA',
		'UNITED KINGDOM', 'GERMANY', 'FRANCE', 'ITALY', 'JAPAN', 'AUSTRALIA', 'INDIA', 'CHINA',
		'BRAZIL', 'MEXICO'];
	v_income constant text[] := ARRAY['A: Below 30,000', 'B: 30,000 - 49,999', 'C: 50,000 - 69,999',
		'D: 70,000 - 89,999', 'E: 90,000 - 109,999', 'F: 110,000 - 129,999', 'G: 130,000 - 149,999',
		'H: 150,000 - 169,999', 'I: 170,000 - 189,999', 'J: 190,000 - 249,999', 'K: 250,000 - 299,999',
		'L: 300,000 and above'];
	v_brand constant text[] := ARRAY['Quickcrete', 'Acme', 'Northwind', 'Contoso', 'Fabrikam', 'Tailspin',
		'Litware', 'Proseware', 'Adatum', 'Woodgrove', 'Lucerne', 'Alpine', 'Coho', 'Wingtip', 'Trey',
		'Fourth Coffee'];
	v_noun constant text[] := ARRAY['Cement', 'Drill', 'Hammer', 'Monitor', 'Keyboard', 'Cable', 'Router',
		'Printer', 'Desk', 'Chair', 'Lamp', 'Ladder', 'Saw', 'Paint', 'Glue', 'Screws', 'Battery',
		'Charger', 'Switch', 'Tile'];
	v_unit constant text[] := ARRAY['lb bag', 'pack', 'pc', 'm', 'kit'];
BEGIN
	IF p_scale IS NULL OR p_seed IS NULL THEN
		RAISE EXCEPTION 'scale and seed must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF p_scale < 0.01 OR p_scale > 100000 THEN
		RAISE EXCEPTION 'scale must be between 0.01 and 100000, not %', p_scale
			USING ERRCODE = 'invalid_parameter_value',
				  HINT = 'Scale 1 is about 1,000 orders; scale 3000 is the 3 million orders of the AWS example.';
	END IF;
	v_orders := greatest(1, round(1000 * p_scale));
	v_customers := greatest(1, round(300 * p_scale));
	v_employees := greatest(1, round(10 * (p_scale + 9)));
	v_products := greatest(1, round(30 * (p_scale + 9)));
	-- job drawn from 1..106 -> index into v_job_ids, by the weights above
	FOR v_k IN 1 .. array_length(v_job_ids, 1) LOOP
		v_job_of := v_job_of || array_fill(v_k, ARRAY[v_job_weight[v_k]]);
	END LOOP;

	-- Empty the model, and drop the secondary indexes, unique and foreign-key
	-- constraints: they are rebuilt once the data is in, much faster than
	-- maintaining them row by row.
	TRUNCATE hroe_normalized.regions, hroe_normalized.countries, hroe_normalized.locations,
		hroe_normalized.jobs, hroe_normalized.departments, hroe_normalized.employees,
		hroe_normalized.job_history, hroe_normalized.customers, hroe_normalized.warehouses,
		hroe_normalized.promotions, hroe_normalized.product_information,
		hroe_normalized.product_descriptions, hroe_normalized.orders, hroe_normalized.order_items,
		hroe_normalized.inventories;
	SELECT array_agg(format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname,
							pg_get_constraintdef(c.oid))
					 ORDER BY c.contype = 'f', c.conrelid::regclass::text, c.conname)
	INTO v_saved_constraints
	FROM pg_constraint c
	WHERE c.connamespace = 'hroe_normalized'::regnamespace AND c.contype IN ('f', 'u');
	FOR v_ddl IN
		SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname)
		FROM pg_constraint c
		WHERE c.connamespace = 'hroe_normalized'::regnamespace AND c.contype IN ('f', 'u')
		ORDER BY c.contype = 'u', c.conrelid::regclass::text, c.conname
	LOOP
		EXECUTE v_ddl;
	END LOOP;
	v_saved_indexes := hroe.drop_secondary_indexes(ARRAY(
		SELECT c.oid::regclass FROM pg_class c
		WHERE c.relnamespace = 'hroe_normalized'::regnamespace AND c.relkind = 'r'));
	v_phase := clock_timestamp();

	-- Reference data: Oracle HR's regions (v19c), countries, locations,
	-- departments and jobs, OE's warehouses and promotions, verbatim.
	INSERT INTO hroe_normalized.regions VALUES
		(1, 'Europe'), (2, 'Americas'), (3, 'Asia'), (4, 'Middle East and Africa');
	INSERT INTO hroe_normalized.countries VALUES
		('AR', 'Argentina', 2), ('AU', 'Australia', 3), ('BE', 'Belgium', 1), ('BR', 'Brazil', 2),
		('CA', 'Canada', 2), ('CH', 'Switzerland', 1), ('CN', 'China', 3), ('DE', 'Germany', 1),
		('DK', 'Denmark', 1), ('EG', 'Egypt', 4), ('FR', 'France', 1), ('IL', 'Israel', 4),
		('IN', 'India', 3), ('IT', 'Italy', 1), ('JP', 'Japan', 3), ('KW', 'Kuwait', 4),
		('ML', 'Malaysia', 3), ('MX', 'Mexico', 2), ('NG', 'Nigeria', 4), ('NL', 'Netherlands', 1),
		('SG', 'Singapore', 3), ('UK', 'United Kingdom', 1), ('US', 'United States of America', 2),
		('ZM', 'Zambia', 4), ('ZW', 'Zimbabwe', 4);
	INSERT INTO hroe_normalized.locations VALUES
		(1000, '1297 Via Cola di Rie', '00989', 'Roma', NULL, 'IT'),
		(1100, '93091 Calle della Testa', '10934', 'Venice', NULL, 'IT'),
		(1200, '2017 Shinjuku-ku', '1689', 'Tokyo', 'Tokyo Prefecture', 'JP'),
		(1300, '9450 Kamiya-cho', '6823', 'Hiroshima', NULL, 'JP'),
		(1400, '2014 Jabberwocky Rd', '26192', 'Southlake', 'Texas', 'US'),
		(1500, '2011 Interiors Blvd', '99236', 'South San Francisco', 'California', 'US'),
		(1600, '2007 Zagora St', '50090', 'South Brunswick', 'New Jersey', 'US'),
		(1700, '2004 Charade Rd', '98199', 'Seattle', 'Washington', 'US'),
		(1800, '147 Spadina Ave', 'M5V 2L7', 'Toronto', 'Ontario', 'CA'),
		(1900, '6092 Boxwood St', 'YSW 9T2', 'Whitehorse', 'Yukon', 'CA'),
		(2000, '40-5-12 Laogianggen', '190518', 'Beijing', NULL, 'CN'),
		(2100, '1298 Vileparle (E)', '490231', 'Bombay', 'Maharashtra', 'IN'),
		(2200, '12-98 Victoria Street', '2901', 'Sydney', 'New South Wales', 'AU'),
		(2300, '198 Clementi North', '540198', 'Singapore', NULL, 'SG'),
		(2400, '8204 Arthur St', NULL, 'London', NULL, 'UK'),
		(2500, 'Magdalen Centre, The Oxford Science Park', 'OX9 9ZB', 'Oxford', 'Oxford', 'UK'),
		(2600, '9702 Chester Road', '09629850293', 'Stretford', 'Manchester', 'UK'),
		(2700, 'Schwanthalerstr. 7031', '80925', 'Munich', 'Bavaria', 'DE'),
		(2800, 'Rua Frei Caneca 1360', '01307-002', 'Sao Paulo', 'Sao Paulo', 'BR'),
		(2900, '20 Rue des Corps-Saints', '1730', 'Geneva', 'Geneve', 'CH'),
		(3000, 'Murtenstrasse 921', '3095', 'Bern', 'BE', 'CH'),
		(3100, 'Pieter Breughelstraat 837', '3029SK', 'Utrecht', 'Utrecht', 'NL'),
		(3200, 'Mariano Escobedo 9991', '11932', 'Mexico City', 'Distrito Federal,', 'MX');
	INSERT INTO hroe_normalized.jobs VALUES
		('AD_PRES', 'President', 20080, 40000),
		('AD_VP', 'Administration Vice President', 15000, 30000),
		('AD_ASST', 'Administration Assistant', 3000, 6000),
		('FI_MGR', 'Finance Manager', 8200, 16000),
		('FI_ACCOUNT', 'Accountant', 4200, 9000),
		('AC_MGR', 'Accounting Manager', 8200, 16000),
		('AC_ACCOUNT', 'Public Accountant', 4200, 9000),
		('SA_MAN', 'Sales Manager', 10000, 20080),
		('SA_REP', 'Sales Representative', 6000, 12008),
		('PU_MAN', 'Purchasing Manager', 8000, 15000),
		('PU_CLERK', 'Purchasing Clerk', 2500, 5500),
		('ST_MAN', 'Stock Manager', 5500, 8500),
		('ST_CLERK', 'Stock Clerk', 2008, 5000),
		('SH_CLERK', 'Shipping Clerk', 2500, 5500),
		('IT_PROG', 'Programmer', 4000, 10000),
		('MK_MAN', 'Marketing Manager', 9000, 15000),
		('MK_REP', 'Marketing Representative', 4000, 9000),
		('HR_REP', 'Human Resources Representative', 4000, 9000),
		('PR_REP', 'Public Relations Representative', 4500, 10500);
	INSERT INTO hroe_normalized.departments (department_id, department_name, location_id) VALUES
		(10, 'Administration', 1700), (20, 'Marketing', 1800), (30, 'Purchasing', 1700),
		(40, 'Human Resources', 2400), (50, 'Shipping', 1500), (60, 'IT', 1400),
		(70, 'Public Relations', 2700), (80, 'Sales', 2500), (90, 'Executive', 1700),
		(100, 'Finance', 1700), (110, 'Accounting', 1700), (120, 'Treasury', 1700),
		(130, 'Corporate Tax', 1700), (140, 'Control And Credit', 1700),
		(150, 'Shareholder Services', 1700), (160, 'Benefits', 1700), (170, 'Manufacturing', 1700),
		(180, 'Construction', 1700), (190, 'Contracting', 1700), (200, 'Operations', 1700),
		(210, 'IT Support', 1700), (220, 'NOC', 1700), (230, 'IT Helpdesk', 1700),
		(240, 'Government Sales', 1700), (250, 'Retail Sales', 1700), (260, 'Recruiting', 1700),
		(270, 'Payroll', 1700);
	INSERT INTO hroe_normalized.warehouses VALUES
		(1, 'Southlake, Texas', 1400), (2, 'San Francisco', 1500), (3, 'New Jersey', 1600),
		(4, 'Seattle, Washington', 1700), (5, 'Toronto', 1800), (6, 'Sydney', 2200),
		(7, 'Mexico City', 3200), (8, 'Beijing', 2000), (9, 'Bombay', 2100);
	INSERT INTO hroe_normalized.promotions VALUES (1, 'everyday low price'), (2, 'blowout sale');
	FOREACH v_ddl IN ARRAY ARRAY['regions', 'countries', 'locations', 'jobs', 'departments',
								 'warehouses', 'promotions'] LOOP
		EXECUTE format('SELECT count(*) FROM hroe_normalized.%I', v_ddl) INTO v_rows;
		table_name := 'hroe_normalized.' || v_ddl; row_count := v_rows; RETURN NEXT;
	END LOOP;

	-- Employees 100, 101, ...: 100 is the president; the others' jobs follow
	-- Oracle's mix.  Sales staff were hired before the first order (2020);
	-- a fifth of the others changed job once (job_history).  Names are drawn
	-- Zipf-like from small lists (as real names are), so full names repeat.
	INSERT INTO hroe_normalized.employees
		(employee_id, first_name, last_name, email, phone_numbers, hire_date, job_id,
		 job_start_date, salary, commission_pct, manager_id, department_id)
	SELECT g.i + 100, g.first_name, g.last_name,
		   upper(left(g.first_name, 1) || left(regexp_replace(g.last_name, '[^A-Za-z]', '', 'g'), 12))
			   || (g.i + 100),
		   (CASE g.nphones
				WHEN 1 THEN ARRAY[g.phone1]
				WHEN 2 THEN ARRAY[g.phone1, g.phone2]
				ELSE ARRAY[g.phone1, g.phone2, g.phone3] END)::varchar(25)[],
		   g.hire_date, j.job_id,
		   CASE WHEN g.i > 0 AND g.hire_date <= date '2025-06-30' AND hroe.prng(p_seed, 12, g.i) < 0.2
				THEN g.hire_date + hroe.prng_int(p_seed, 13, g.i, 1, least(1500, date '2025-12-31' - g.hire_date))::integer
				ELSE g.hire_date END,
		   j.min_salary + 100 * hroe.prng_int(p_seed, 15, g.i, 0, (j.max_salary - j.min_salary) / 100),
		   CASE WHEN j.job_id LIKE 'SA\_%' THEN 0.05 * hroe.prng_int(p_seed, 16, g.i, 2, 8) END,
		   NULL, g.department_id
	FROM (SELECT i,
				 v_first[hroe.prng_zipf(p_seed, 2, i, cardinality(v_first))] AS first_name,
				 v_last[hroe.prng_zipf(p_seed, 5, i, cardinality(v_last))] AS last_name,
				 1 + (hroe.prng(p_seed, 7, i) < 0.3)::integer + (hroe.prng(p_seed, 7, i) < 0.1)::integer AS nphones,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i, 1000, 9999) AS phone1,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i + 1, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i + 1, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i + 1, 1000, 9999) AS phone2,
				 v_area[hroe.prng_int(p_seed, 8, 4 * i + 2, 1, cardinality(v_area))] || '.'
					 || hroe.prng_int(p_seed, 9, 4 * i + 2, 100, 999) || '.'
					 || hroe.prng_int(p_seed, 90, 4 * i + 2, 1000, 9999) AS phone3,
				 k AS job_index,
				 v_job_dept[k] AS department_id,
				 CASE WHEN k = 1 THEN date '2010-01-04'
					  WHEN v_job_ids[k] IN ('SA_REP', 'SA_MAN')
					  THEN date '2010-01-01' + hroe.prng_int(p_seed, 11, i, 0, 3651)::integer
					  ELSE date '2010-01-01' + hroe.prng_int(p_seed, 11, i, 0, 5843)::integer END AS hire_date
		  FROM generate_series(0, v_employees - 1) AS i,
			   LATERAL (SELECT CASE WHEN i = 0 THEN 1
									ELSE v_job_of[hroe.prng_int(p_seed, 10, i, 1, cardinality(v_job_of))] END AS k) AS kk
		 ) AS g
	JOIN hroe_normalized.jobs j ON j.job_id = v_job_ids[g.job_index]
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.employees'; row_count := v_rows; RETURN NEXT;

	-- Managers: VPs report to the president, other managers to a VP, staff
	-- to a manager of their department (else the president).
	WITH mgr AS (
		SELECT e.employee_id, e.department_id,
			   row_number() OVER (PARTITION BY e.department_id ORDER BY e.employee_id) AS rn,
			   count(*) OVER (PARTITION BY e.department_id) AS cnt
		FROM hroe_normalized.employees e
		WHERE e.job_id IN ('AD_VP', 'FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN', 'ST_MAN', 'MK_MAN')
	), vp AS (
		SELECT e.employee_id, row_number() OVER (ORDER BY e.employee_id) AS rn,
			   count(*) OVER () AS cnt
		FROM hroe_normalized.employees e WHERE e.job_id = 'AD_VP'
	), pick AS (
		SELECT e.employee_id,
			   CASE WHEN e.job_id = 'AD_PRES' THEN NULL
					WHEN e.job_id = 'AD_VP' THEN 100
					WHEN e.job_id IN ('FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN', 'ST_MAN', 'MK_MAN')
					THEN COALESCE((SELECT v.employee_id FROM vp v
								   WHERE v.rn = 1 + hroe.prng_int(p_seed, 17, e.employee_id, 0,
																  (SELECT count(*) FROM vp) - 1)), 100)
					ELSE COALESCE(m.employee_id, 100) END AS manager_id
		FROM (SELECT e.*, 1 + hroe.prng_int(p_seed, 18, e.employee_id, 0, mc.cnt - 1) AS pick_rn
			  FROM hroe_normalized.employees e
			  LEFT JOIN (SELECT department_id, max(cnt) AS cnt FROM mgr GROUP BY department_id) mc
				  ON mc.department_id = e.department_id
			  OFFSET 0) e
		LEFT JOIN mgr m ON m.department_id = e.department_id AND m.rn = e.pick_rn
	)
	UPDATE hroe_normalized.employees e SET manager_id = p.manager_id
	FROM pick p WHERE p.employee_id = e.employee_id AND p.manager_id IS NOT NULL;
	UPDATE hroe_normalized.departments d
	SET manager_id = (SELECT e.employee_id FROM hroe_normalized.employees e
					  WHERE e.department_id = d.department_id
					  ORDER BY e.job_id NOT IN ('AD_PRES', 'AD_VP', 'FI_MGR', 'AC_MGR', 'SA_MAN', 'PU_MAN',
												'ST_MAN', 'MK_MAN'), e.employee_id
					  LIMIT 1)
	WHERE EXISTS (SELECT FROM hroe_normalized.employees e WHERE e.department_id = d.department_id);

	-- The past job of those whose current job began after their hire date.
	INSERT INTO hroe_normalized.job_history (employee_id, start_date, end_date, job_id, department_id)
	SELECT e.employee_id, e.hire_date, e.job_start_date - 1, v_job_ids[h.k], v_job_dept[h.k]
	FROM hroe_normalized.employees e,
		 LATERAL (SELECT v_job_of[hroe.prng_int(p_seed, 14, e.employee_id - 100, 1, cardinality(v_job_of))] AS k) h
	WHERE e.job_start_date > e.hire_date
	ORDER BY e.employee_id;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.job_history'; row_count := v_rows; RETURN NEXT;

	SELECT array_agg(e.employee_id ORDER BY e.employee_id) INTO v_reps
	FROM hroe_normalized.employees e WHERE e.job_id = 'SA_REP';
	v_nreps := COALESCE(cardinality(v_reps), 0);

	-- Customers 1, 2, ...: a fifth without an account manager, the others
	-- managed by a sales rep chosen with a skew (some reps are far busier).
	INSERT INTO hroe_normalized.customers
		(customer_id, cust_first_name, cust_last_name, street_address, postal_code, city,
		 state_province, country_id, phone_numbers, nls_language, nls_territory, credit_limit,
		 cust_email, account_mgr_id, date_of_birth, marital_status, gender, income_level)
	SELECT g.i, g.first_name, g.last_name,
		   hroe.prng_int(p_seed, 23, g.i, 1, 9999) || ' ' || v_last[hroe.prng_int(p_seed, 24, g.i, 1, cardinality(v_last))]
			   || (ARRAY[' St', ' Ave', ' Rd', ' Blvd'])[hroe.prng_int(p_seed, 25, g.i, 1, 4)],
		   lpad(hroe.prng_int(p_seed, 26, g.i, 0, 99999)::text, 5, '0'),
		   v_city[g.c], v_state[g.c], v_country[g.c],
		   (CASE WHEN g.u < 0.1 THEN ARRAY[]::text[]
				 WHEN g.u < 0.7 THEN ARRAY[g.phone1]
				 WHEN g.u < 0.95 THEN ARRAY[g.phone1, g.phone2]
				 ELSE ARRAY[g.phone1, g.phone2, g.phone3] END)::varchar(25)[],
		   v_lang[g.c], v_territory[g.c],
		   100 * hroe.prng_int(p_seed, 27, g.i, 1, 50),
		   lower(left(regexp_replace(g.first_name, '[^A-Za-z]', '', 'g'), 12) || '.' || left(regexp_replace(g.last_name, '[^A-Za-z]', '', 'g'), 12))
			   || '@example.com',
		   CASE WHEN v_nreps > 0 AND hroe.prng(p_seed, 28, g.i) >= 0.2
				THEN v_reps[CASE WHEN hroe.prng(p_seed, 29, g.i) < 0.5
								 THEN hroe.prng_zipf(p_seed, 30, g.i, v_nreps)
								 ELSE hroe.prng_int(p_seed, 31, g.i, 1, v_nreps) END] END,
		   date '1940-01-01' + hroe.prng_int(p_seed, 32, g.i, 0, 23740)::integer,
		   (ARRAY['married', 'single'])[hroe.prng_int(p_seed, 33, g.i, 1, 2)],
		   (ARRAY['M', 'F'])[hroe.prng_int(p_seed, 34, g.i, 1, 2)],
		   v_income[hroe.prng_int(p_seed, 35, g.i, 1, cardinality(v_income))]
	FROM (SELECT i,
				 v_first[hroe.prng_zipf(p_seed, 20, i, cardinality(v_first))] AS first_name,
				 v_last[hroe.prng_zipf(p_seed, 36, i, cardinality(v_last))] AS last_name,
				 hroe.prng_zipf(p_seed, 38, i, cardinality(v_city)) AS c,
				 hroe.prng(p_seed, 39, i) AS u,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i, 1000, 9999) AS phone1,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i + 1, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i + 1, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i + 1, 1000, 9999) AS phone2,
				 '+1 ' || hroe.prng_int(p_seed, 40, 4 * i + 2, 200, 999) || ' '
					 || hroe.prng_int(p_seed, 91, 4 * i + 2, 100, 999) || ' '
					 || hroe.prng_int(p_seed, 92, 4 * i + 2, 1000, 9999) AS phone3
		  FROM generate_series(1, v_customers) AS i) AS g
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.customers'; row_count := v_rows; RETURN NEXT;

	-- Products 1, 2, ...: the first ten (the busiest) are orderable.
	INSERT INTO hroe_normalized.product_information
		(product_id, product_name, product_description, category_id, weight_class, warranty_period,
		 supplier_id, product_status, list_price, min_price, catalog_url)
	SELECT g.i, g.name,
		   'The ' || lower(g.noun) || ' by ' || g.brand || ', sold by the ' || g.unit || '.',
		   10 + hroe.prng_int(p_seed, 64, g.i, 1, 23), hroe.prng_int(p_seed, 65, g.i, 1, 5),
		   make_interval(months => 6 * hroe.prng_int(p_seed, 66, g.i, 0, 8)::integer),
		   g.supplier,
		   CASE WHEN g.i <= 10 OR g.u < 0.90 THEN 'orderable' WHEN g.u < 0.94 THEN 'planned'
				WHEN g.u < 0.97 THEN 'under development' ELSE 'obsolete' END,
		   g.list_price, round(g.list_price * (0.75 + 0.2 * hroe.prng(p_seed, 67, g.i))::numeric, 2),
		   'http://www.supp-' || g.supplier || '.com/cat/p' || g.i || '.html'
	FROM (SELECT i,
				 v_brand[hroe.prng_int(p_seed, 60, i, 1, cardinality(v_brand))] || ' '
					 || v_noun[n.k] || ' - ' || hroe.prng_int(p_seed, 62, i, 1, 100) || ' '
					 || v_unit[n.u] AS name,
				 v_brand[hroe.prng_int(p_seed, 60, i, 1, cardinality(v_brand))] AS brand,
				 v_noun[n.k] AS noun, v_unit[n.u] AS unit,
				 102050 + hroe.prng_int(p_seed, 68, i, 0, 99) AS supplier,
				 hroe.prng(p_seed, 69, i) AS u,
				 round(exp(ln(5) + ln(1000) * hroe.prng(p_seed, 70, i))::numeric, 2) AS list_price
		  FROM generate_series(1, v_products) AS i,
			   LATERAL (SELECT hroe.prng_int(p_seed, 61, i, 1, cardinality(v_noun)) AS k,
							   hroe.prng_int(p_seed, 63, i, 1, cardinality(v_unit)) AS u) AS n) AS g
	ORDER BY g.i;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.product_information'; row_count := v_rows; RETURN NEXT;

	INSERT INTO hroe_normalized.product_descriptions (product_id, language_id, translated_name, translated_description)
	SELECT p.product_id, l.lang, p.product_name, p.product_description || ' [' || l.lang || ']'
	FROM hroe_normalized.product_information p
	CROSS JOIN (VALUES (1, 'US'), (2, 'F'), (3, 'D')) AS l (n, lang)
	ORDER BY p.product_id, l.n;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.product_descriptions'; row_count := v_rows; RETURN NEXT;

	-- Stock: an orderable or obsolete product is kept at each warehouse with
	-- probability 0.45; quantities are skewed towards small numbers.
	INSERT INTO hroe_normalized.inventories (product_id, warehouse_id, quantity_on_hand)
	SELECT p.product_id, w.warehouse_id,
		   floor(1000 * hroe.prng(p_seed, 72, 16 * p.product_id + w.warehouse_id) ^ 2)::integer
	FROM hroe_normalized.product_information p
	CROSS JOIN hroe_normalized.warehouses w
	WHERE p.product_status IN ('orderable', 'obsolete')
	  AND hroe.prng(p_seed, 71, 16 * p.product_id + w.warehouse_id) < 0.45
	ORDER BY p.product_id, w.warehouse_id;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.inventories'; row_count := v_rows; RETURN NEXT;
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: HR, customers and products done (% s)',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();

	-- Orders 1..N in date order over 2020-2025.  hroe.order_line_draws gives
	-- each order's distinct products (1 to 5 candidate lines, half uniform,
	-- half Zipf-skewed) with the candidate that drew each; a line's quantity
	-- and price (list, or min for a fifth of the lines) follow from that
	-- candidate's key, so the lines and the order's total are computed
	-- alike, streaming, without a sort.  Prices are looked up by product id
	-- in arrays of whole cents (fixed width: constant time).
	SELECT array_agg((p.list_price * 100)::bigint ORDER BY p.product_id),
		   array_agg((p.min_price * 100)::bigint ORDER BY p.product_id)
	INTO v_list_cents, v_min_cents
	FROM hroe_normalized.product_information p;
	INSERT INTO hroe_normalized.order_items (order_id, line_item_id, product_id, unit_price, quantity)
	SELECT o, l.n, (l.x >> 3)::integer,
		   0.01 * hroe.order_line_cents(p_seed, o, l.x, v_list_cents, v_min_cents),
		   hroe.order_line_quantity(p_seed, o, l.x)
	FROM generate_series(1, v_orders) AS o,
		 unnest(hroe.order_line_draws(p_seed, o, v_products)) WITH ORDINALITY AS l (x, n);
	GET DIAGNOSTICS v_lines = ROW_COUNT;

	-- Exactly one order in each run of five consecutive ids is OPEN (20%);
	-- the others are SHIPPED 10%, CLOSED 65%, CANCELED 5% of all orders.
	-- Direct orders (70%) have a sales rep (half uniform, half Zipf-skewed),
	-- online ones none; customers are 70% uniform, 30% skewed.
	INSERT INTO hroe_normalized.orders
		(order_id, order_date, order_mode, customer_id, order_status, order_total, sales_rep_id, promotion_id)
	SELECT g.o,
		   date '2020-01-01' + floor((g.o - 1 + hroe.prng(p_seed, 41, g.o)) * v_days / v_orders)::integer,
		   CASE WHEN g.direct THEN 'direct' ELSE 'online' END,
		   CASE WHEN hroe.prng(p_seed, 42, g.o) < 0.7
				THEN hroe.prng_int(p_seed, 43, g.o, 1, v_customers)
				ELSE hroe.prng_zipf(p_seed, 44, g.o, v_customers) END,
		   CASE WHEN (g.o - 1) % 5 = hroe.prng_int(p_seed, 45, (g.o - 1) / 5, 0, 4) THEN 'OPEN'
				WHEN hroe.prng(p_seed, 46, g.o) < 0.125 THEN 'SHIPPED'
				WHEN hroe.prng(p_seed, 46, g.o) < 0.9375 THEN 'CLOSED'
				ELSE 'CANCELED' END,
		   t.total,
		   CASE WHEN g.direct AND v_nreps > 0
				THEN v_reps[CASE WHEN hroe.prng(p_seed, 48, g.o) < 0.5
								 THEN hroe.prng_zipf(p_seed, 49, g.o, v_nreps)
								 ELSE hroe.prng_int(p_seed, 56, g.o, 1, v_nreps) END] END,
		   CASE WHEN hroe.prng(p_seed, 57, g.o) < 0.05 THEN hroe.prng_int(p_seed, 58, g.o, 1, 2) END
	FROM (SELECT o, hroe.prng(p_seed, 47, o) < 0.7 AS direct FROM generate_series(1, v_orders) AS o) AS g,
		 LATERAL (SELECT 0.01 * sum(hroe.order_line_cents(p_seed, g.o, x, v_list_cents, v_min_cents)
									* hroe.order_line_quantity(p_seed, g.o, x)) AS total
				  FROM unnest(hroe.order_line_draws(p_seed, g.o, v_products)) AS x) AS t;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	table_name := 'hroe_normalized.orders'; row_count := v_rows; RETURN NEXT;
	table_name := 'hroe_normalized.order_items'; row_count := v_lines; RETURN NEXT;
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: % orders with % lines (% s)', v_orders, v_lines,
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();

	-- Rebuild the indexes and constraints, then the planner statistics.
	PERFORM hroe.execute_ddl(v_saved_indexes || COALESCE(v_saved_constraints, '{}'));
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: indexes and constraints rebuilt (% s)',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
	END IF;
	v_phase := clock_timestamp();
	ANALYZE hroe_normalized.regions, hroe_normalized.countries, hroe_normalized.locations,
		hroe_normalized.jobs, hroe_normalized.departments, hroe_normalized.employees,
		hroe_normalized.job_history, hroe_normalized.customers, hroe_normalized.warehouses,
		hroe_normalized.promotions, hroe_normalized.product_information,
		hroe_normalized.product_descriptions, hroe_normalized.orders, hroe_normalized.order_items,
		hroe_normalized.inventories;
	PERFORM setval('hroe_normalized.order_id_seq', v_orders);
	PERFORM setval('hroe_normalized.employee_id_seq', 99 + v_employees);
	IF v_verbose THEN
		RAISE NOTICE 'hroe.load: normalized model analyzed (% s); % s in all so far',
			round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1),
			round(extract(epoch FROM clock_timestamp() - v_started)::numeric, 1);
	END IF;

	-- The other models map the normalized data, in this transaction, through
	-- <model>.load_from_normalized(): no arguments, returning void or
	-- TABLE (table_name text, row_count bigint); a model not installed yet is
	-- skipped.
	FOREACH v_model IN ARRAY ARRAY['hroe_single', 'hroe_multi'] LOOP
		v_rettype := (SELECT p.prorettype::regtype FROM pg_proc p
					  WHERE p.oid = to_regprocedure(v_model || '.load_from_normalized()'));
		CONTINUE WHEN v_rettype IS NULL;
		v_phase := clock_timestamp();
		IF v_rettype = 'void'::regtype THEN
			EXECUTE format('SELECT %I.load_from_normalized()', v_model);
		ELSE
			RETURN QUERY EXECUTE format('SELECT t.table_name::text, t.row_count::bigint FROM %I.load_from_normalized() t',
										v_model);
		END IF;
		IF v_verbose THEN
			RAISE NOTICE 'hroe.load: % mapped (% s)', v_model,
				round(extract(epoch FROM clock_timestamp() - v_phase)::numeric, 1);
		END IF;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.load(numeric, bigint) IS
'fills hroe_normalized with deterministic HR/OE data (scale 1: 1,000 orders, 300 customers, 100 employees, 300 products, 9 warehouses; scale 3000: 3 million orders), then runs hroe_single/hroe_multi.load_from_normalized() when they exist; returns the rows per table';

-- hroe_multi: AWS's 2025 multi-table design of the HR/OE example (seed 002)
-- on hroe's tables: Employee, Customer, Order (header and line items in one
-- partition), Product (metadata and per-warehouse inventory in one
-- partition), plus RepQuarterTotal for the ranking the seed dropped.
--
-- The tables and GSIs are made by hroe.create_table and hroe.create_index:
-- generated key columns pk [, sk] extracted from the item, the item, a
-- primary key on (pk [, sk]); each GSI adds one STORED generated column per
-- key attribute ("<Index>_pk1", "<Index>_sk1"..., NULL when the attribute is
-- absent) and a partial btree index "<Table>.<Index>" on (GSI keys...,
-- table keys) WHERE every GSI key column IS NOT NULL: a sparse GSI.  The
-- read patterns are SQL over them; each reads only attributes its index
-- projects.  Key formats (README): emp_/cust_/prod_/wh_ + 10 digits,
-- ord_ + 19 digits (zero-padded, so byte order is numeric order), dates
-- YYYY-MM-DD.

CREATE SCHEMA hroe_multi;
COMMENT ON SCHEMA hroe_multi IS
'hroe: AWS''s 2025 multi-table design of HR/OE (tables Employee, Customer, Order, Product, RepQuarterTotal and their GSIs), with the 17 read patterns and 5 write patterns';

------------------------------------------------------------------------------
-- Keys
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.employee_key(p_employee_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('emp_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_employee_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.employee_key(integer) IS
'internal: The key of employee n: emp_ and n in 10 digits (emp_0000000100); NULL for NULL (not STRICT, so that it is inlined); a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.customer_key(p_customer_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('cust_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_customer_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.customer_key(integer) IS
'internal: The key of customer n: cust_ and n in 10 digits (cust_0000000007); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.product_key(p_product_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('prod_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_product_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.product_key(integer) IS
'internal: The key of product n: prod_ and n in 10 digits (prod_0000000001); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.warehouse_key(p_warehouse_id integer)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('wh_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_warehouse_id::pg_catalog.text, 10, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.warehouse_key(integer) IS
'internal: The key of warehouse n: wh_ and n in 10 digits (wh_0000000004); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.order_key(p_order_id bigint)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text('ord_' OPERATOR(pg_catalog.||) pg_catalog.lpad(p_order_id::pg_catalog.text, 19, '0'))
$$;
COMMENT ON FUNCTION hroe_multi.order_key(bigint) IS
'internal: The key of order n: ord_ and n in 19 digits, enough for any bigint (ord_0000000000000000042); NULL for NULL; a key no item has for n <= 0';

CREATE FUNCTION hroe_multi.key_number(p_key text)
RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.substr(p_key, pg_catalog.strpos(p_key, '_') OPERATOR(pg_catalog.+) 1)::pg_catalog.int8
$$;
COMMENT ON FUNCTION hroe_multi.key_number(text) IS
'internal: The id in an entity key: the digits after the first underscore (emp_0000000100 gives 100)';

CREATE FUNCTION hroe_multi.date_key(p_date date)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.key_from_text(CASE
	WHEN p_date OPERATOR(pg_catalog.=) '-infinity'::pg_catalog.date THEN '-'
	WHEN p_date OPERATOR(pg_catalog.=) 'infinity'::pg_catalog.date THEN '~'
	ELSE pg_catalog.lpad(pg_catalog.date_part('year', p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
		 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
		 pg_catalog.lpad(pg_catalog.date_part('month', p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
		 OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
		 pg_catalog.lpad(pg_catalog.date_part('day', p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
	END)
$$;
COMMENT ON FUNCTION hroe_multi.date_key(date) IS
'internal: A date as a sort key, ISO YYYY-MM-DD (byte order is date order for years 1 to 9999); -infinity gives ''-'' and infinity ''~'', below and above every date, for open-ended ranges; NULL for NULL (not STRICT, so that it is inlined)';

CREATE FUNCTION hroe_multi.quarter_of(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT pg_catalog.date_part('year', p_date)::pg_catalog.int4::pg_catalog.text OPERATOR(pg_catalog.||) '-Q'
	   OPERATOR(pg_catalog.||) pg_catalog.date_part('quarter', p_date)::pg_catalog.int4::pg_catalog.text
$$;
COMMENT ON FUNCTION hroe_multi.quarter_of(date) IS
'internal: The quarter of a date as rep_ranking names it (2025-08-15 gives ''2025-Q3'')';

CREATE FUNCTION hroe_multi.search_key(p_value text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.octet_length(p_value) OPERATOR(pg_catalog.>=) 1
			 AND pg_catalog.octet_length(p_value) OPERATOR(pg_catalog.<=) 2048
			THEN hroe.key_from_text(p_value) END
$$;
COMMENT ON FUNCTION hroe_multi.search_key(text) IS
'internal: A read pattern''s text argument as a key value: NULL (no item matches) for NULL, the empty string or more than 2048 bytes, which no key can be (not STRICT, so that it is inlined)';

-- The table key of an item (verify() pairs expected and actual items by it)
CREATE FUNCTION hroe_multi.key_s(p_item hroe.item, p_attribute text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
SELECT hroe.key_from_text(hroe.item_get_text(p_item, p_attribute))
$$;
COMMENT ON FUNCTION hroe_multi.key_s(hroe.item, text) IS
'internal: An S attribute of an item as hroe.key: NULL when absent, an error when of another type or empty';

------------------------------------------------------------------------------
-- Tables and GSIs, made by hroe.create_table and hroe.create_index: each
-- table is hroe_multi."<Table>" (pk [, sk] generated from the item, item,
-- primary key), each GSI adds the generated columns "<Index>_pk1"...
-- "<Index>_sk1"... and the partial btree "<Table>.<Index>".  They are
-- registered in hroe.tables / hroe.indexes, so hroe.get_item, hroe.query
-- and the capacity accounting work on them too.
------------------------------------------------------------------------------

-- Employee: partition key employee_id (S), no sort key.  Besides one item
-- per employee it holds one uniqueness item per email (employee_id
-- EMAIL#<email>), DynamoDB's pattern for a unique attribute; those items
-- have no GSI key attribute, so no GSI holds them.
SELECT hroe.create_table('Employee', 'employee_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Employee', 'EmployeeByName', '{name}', '{employee_id}', '{"name": "S"}', 'INCLUDE',
	'{entity_type, first_name, last_name, email, phone_numbers, hire_date, salary, commission_pct, manager_id, job_id, job_title, job_start_date, department_id, department_name, location_id, city, country_name, region_name, warehouse_id}');
SELECT hroe.create_index('Employee', 'EmployeeByWarehouse', '{warehouse_id}', '{employee_id}', '{"warehouse_id": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, job_title, hire_date, department_id}');
SELECT hroe.create_index('Employee', 'EmployeeByJobTitle', '{job_title}', '{employee_id}', '{"job_title": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, warehouse_id, hire_date, department_id}');
SELECT hroe.create_index('Employee', 'EmployeeByHireDate', '{entity_type}', '{hire_date}',
	'{"entity_type": "S", "hire_date": "S"}',
	'INCLUDE', '{name, first_name, last_name, job_id, job_title, warehouse_id, department_id}');
COMMENT ON TABLE hroe_multi."Employee" IS
'DynamoDB table Employee (hroe_multi): partition key employee_id S; one item per employee (profile, phones, current job, department, location, warehouse) and one uniqueness item per email';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByName" IS
'GSI EmployeeByName of Employee: partition key name, sort key employee_id; INCLUDE every employee attribute';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByWarehouse" IS
'GSI EmployeeByWarehouse of Employee: partition key warehouse_id, sort key employee_id; INCLUDE name, first_name, last_name, job_id, job_title, hire_date, department_id';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByJobTitle" IS
'GSI EmployeeByJobTitle of Employee: partition key job_title, sort key employee_id; INCLUDE name, first_name, last_name, job_id, warehouse_id, hire_date, department_id';
COMMENT ON INDEX hroe_multi."Employee.EmployeeByHireDate" IS
'GSI EmployeeByHireDate of Employee: partition key entity_type (always EMPLOYEE), sort key hire_date; INCLUDE name, first_name, last_name, job_id, job_title, warehouse_id, department_id';

-- Customer: partition key customer_id (S)
SELECT hroe.create_table('Customer', 'customer_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Customer', 'CustomerByAccountRep', '{account_rep_id}', '{customer_id}',
	'{"account_rep_id": "S"}', 'INCLUDE', '{first_name, last_name, email}');
COMMENT ON TABLE hroe_multi."Customer" IS
'DynamoDB table Customer (hroe_multi): partition key customer_id S; one item per customer with its phone list and account_rep_id';
COMMENT ON INDEX hroe_multi."Customer.CustomerByAccountRep" IS
'GSI CustomerByAccountRep of Customer: partition key account_rep_id, sort key customer_id; INCLUDE first_name, last_name, email (sparse: customers without an account manager are not in it)';

-- Order: partition key order_id, sort key SK (the order's own key for the
-- header, the product key for a line item)
SELECT hroe.create_table('Order', 'order_id', 'S', 'SK', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('Order', 'OrderByCustomerDate', '{customer_id}', '{order_date}',
	'{"customer_id": "S", "order_date": "S"}',
	'INCLUDE', '{status, order_mode, account_rep_id, total_amount, order_items, shard}');
SELECT hroe.create_index('Order', 'OpenOrdersByDate', '{status, shard}', '{order_date}',
	'{"status": "S", "shard": "N", "order_date": "S"}',
	'INCLUDE', '{customer_id, account_rep_id, order_mode, order_items, total_amount}');
SELECT hroe.create_index('Order', 'OrderByAccountRep', '{account_rep_id}', '{order_date}',
	'{"account_rep_id": "S", "order_date": "S"}',
	'INCLUDE', '{customer_id, status, order_mode, total_amount}');
SELECT hroe.create_index('Order', 'ProductInOrders', '{product_id}', '{order_id}', '{"product_id": "S"}',
	'INCLUDE', '{line_item_id, quantity, unit_price, order_context}');
COMMENT ON TABLE hroe_multi."Order" IS
'DynamoDB table Order (hroe_multi): partition key order_id S, sort key SK S; per order a header item (SK = the order key) and one item per line (SK = the product key), in one partition';
COMMENT ON INDEX hroe_multi."Order.OrderByCustomerDate" IS
'GSI OrderByCustomerDate of Order: partition key customer_id, sort key order_date; INCLUDE status, order_mode, account_rep_id, total_amount, order_items, shard (headers only)';
COMMENT ON INDEX hroe_multi."Order.OpenOrdersByDate" IS
'GSI OpenOrdersByDate of Order: multi-attribute partition key (status, shard), sort key order_date; INCLUDE customer_id, account_rep_id, order_mode, order_items, total_amount; sparse: only OPEN headers carry shard (hroe.shard_of(order id, 5))';
COMMENT ON INDEX hroe_multi."Order.OrderByAccountRep" IS
'GSI OrderByAccountRep of Order: partition key account_rep_id, sort key order_date; INCLUDE customer_id, status, order_mode, total_amount (headers of orders with a sales rep)';
COMMENT ON INDEX hroe_multi."Order.ProductInOrders" IS
'GSI ProductInOrders of Order: partition key product_id, sort key order_id; INCLUDE line_item_id, quantity, unit_price, order_context (line items only)';

-- Product: partition key product_id, sort key SK (the product's own key for
-- the metadata item, the warehouse key for an inventory item)
SELECT hroe.create_table('Product', 'product_id', 'S', 'SK', 'S', p_schema => 'hroe_multi');
COMMENT ON TABLE hroe_multi."Product" IS
'DynamoDB table Product (hroe_multi): partition key product_id S, sort key SK S; per product a metadata item with the maintained total_inventory (SK = the product key) and one inventory item per warehouse stocking it (SK = the warehouse key)';

-- RepQuarterTotal: partition key quarter, sort key employee_id; one item
-- per sales rep and quarter with orders, its total maintained by the writes
SELECT hroe.create_table('RepQuarterTotal', 'quarter', 'S', 'employee_id', 'S', p_schema => 'hroe_multi');
SELECT hroe.create_index('RepQuarterTotal', 'RepQuarterRanking', '{quarter}', '{rank_key}', '{"rank_key": "S"}',
	'INCLUDE', '{total}');
COMMENT ON TABLE hroe_multi."RepQuarterTotal" IS
'DynamoDB table RepQuarterTotal (hroe_multi, not in the seed): partition key quarter S, sort key employee_id S; per sales rep and quarter the maintained total and count of its orders (CANCELED excluded) and a rank_key ordering by amount';
COMMENT ON INDEX hroe_multi."RepQuarterTotal.RepQuarterRanking" IS
'GSI RepQuarterRanking of RepQuarterTotal: partition key quarter, sort key rank_key (15-digit 999999999999999 - total in cents, #, employee key: ascending = total descending, ties by employee); INCLUDE total';

-- Ids for place_order and hire_employee when the caller gives none
CREATE SEQUENCE hroe_multi.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_multi.order_id_seq IS
'next order id for hroe_multi.place_order (CACHE 1; load_from_normalized sets it to the normalized model''s)';
CREATE SEQUENCE hroe_multi.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_multi.employee_id_seq IS
'next employee id for hroe_multi.hire_employee (CACHE 1; load_from_normalized sets it to the normalized model''s)';

SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Employee"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Customer"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Order"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."Product"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi."RepQuarterTotal"', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_multi.employee_id_seq', '');

------------------------------------------------------------------------------
-- Item builders: the one definition of every item, used by the load, the
-- write patterns and verify(), so that all three produce the same items.
-- NULL arguments leave the attribute out (DynamoDB has no NULL columns).
------------------------------------------------------------------------------

-- DynamoDB JSON of an S or N value, NULL for NULL: the builders below write
-- the items as DynamoDB JSON text (several times faster than jsonb_build_object)
-- and leave out the attributes whose value is NULL (concat_ws skips NULLs).
CREATE FUNCTION hroe_multi.json_s(p_value text)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT '{"S":' OPERATOR(pg_catalog.||) pg_catalog.to_json(p_value)::pg_catalog.text OPERATOR(pg_catalog.||) '}'
$$;
COMMENT ON FUNCTION hroe_multi.json_s(text) IS
'internal: The DynamoDB JSON of a string value ({"S": "..."}, JSON-escaped); NULL for NULL';

CREATE FUNCTION hroe_multi.json_n(p_value numeric)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT '{"N":"' OPERATOR(pg_catalog.||) p_value::pg_catalog.text OPERATOR(pg_catalog.||) '"}'
$$;
COMMENT ON FUNCTION hroe_multi.json_n(numeric) IS
'internal: The DynamoDB JSON of a number value ({"N": "..."}); NULL for NULL';

-- The current job of an employee, with its department, location and
-- warehouse, from the HR reference data (jobs, departments, locations,
-- countries, regions, warehouses: no write pattern changes them, and the
-- seed models no table for them).  NULL when the job does not exist.
CREATE FUNCTION hroe_multi.job_attributes(p_job_id text, p_department_id integer, p_start_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'job_id', j.job_id::pg_catalog.text,
	'job_title', j.job_title::pg_catalog.text,
	'job_start_date', hroe_multi.date_key(p_start_date)::pg_catalog.text,
	'department_id', d.department_id,
	'department_name', d.department_name::pg_catalog.text,
	'location_id', l.location_id,
	'city', l.city::pg_catalog.text,
	'country_name', c.country_name::pg_catalog.text,
	'region_name', r.region_name::pg_catalog.text,
	'warehouse_id', hroe_multi.warehouse_key(w.warehouse_id)::pg_catalog.text)))
FROM hroe_normalized.jobs j
LEFT JOIN hroe_normalized.departments d ON d.department_id OPERATOR(pg_catalog.=) p_department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id OPERATOR(pg_catalog.=) d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id OPERATOR(pg_catalog.=) l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id OPERATOR(pg_catalog.=) c.region_id
LEFT JOIN hroe_normalized.warehouses w ON w.location_id OPERATOR(pg_catalog.=) l.location_id
WHERE j.job_id OPERATOR(pg_catalog.=) p_job_id
$$;
COMMENT ON FUNCTION hroe_multi.job_attributes(text, integer, date) IS
'internal: The current-job attributes of an Employee item (job_id, job_title, job_start_date, department_id, department_name, location_id, city, country_name, region_name, warehouse_id), looked up in the HR reference data; NULL for an unknown job';

CREATE FUNCTION hroe_multi.employee_item(p_employee_id integer, p_first_name text, p_last_name text,
										 p_email text, p_phone_numbers text[], p_hire_date date,
										 p_salary numeric, p_commission_pct numeric, p_manager_id integer,
										 p_job_id text, p_department_id integer, p_job_start_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'employee_id', hroe_multi.employee_key(p_employee_id)::pg_catalog.text,
	'entity_type', 'EMPLOYEE',
	'name', COALESCE(p_first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) p_last_name,
	'first_name', p_first_name,
	'last_name', p_last_name,
	'email', p_email,
	'phone_numbers', pg_catalog.to_jsonb(COALESCE(p_phone_numbers, '{}'::pg_catalog.text[])),
	'hire_date', hroe_multi.date_key(p_hire_date)::pg_catalog.text,
	'salary', p_salary,
	'commission_pct', p_commission_pct,
	'manager_id', p_manager_id)))
	   OPERATOR(hroe.||) hroe_multi.job_attributes(p_job_id, p_department_id, p_job_start_date)
$$;
COMMENT ON FUNCTION hroe_multi.employee_item(integer, text, text, text, text[], date, numeric, numeric, integer, text, integer, date) IS
'internal: The Employee item of an employee: key, entity_type EMPLOYEE, name (first name, a space, last name), profile, phone list, hire date, and the current job attributes of job_attributes()';

CREATE FUNCTION hroe_multi.email_item(p_email text, p_employee_id integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_build_object(
	'employee_id', 'EMAIL#' OPERATOR(pg_catalog.||) p_email,
	'email_owner', hroe_multi.employee_key(p_employee_id)::pg_catalog.text))
$$;
COMMENT ON FUNCTION hroe_multi.email_item(text, integer) IS
'internal: The uniqueness item of an email in the Employee table: employee_id EMAIL#<email>, email_owner the employee''s key';

CREATE FUNCTION hroe_multi.customer_item(p_customer_id integer, p_first_name text, p_last_name text,
										 p_email text, p_phone_numbers text[], p_account_mgr_id integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
	'customer_id', hroe_multi.customer_key(p_customer_id)::pg_catalog.text,
	'first_name', p_first_name,
	'last_name', p_last_name,
	'email', p_email,
	'phone_numbers', pg_catalog.to_jsonb(COALESCE(p_phone_numbers, '{}'::pg_catalog.text[])),
	'account_rep_id', hroe_multi.employee_key(p_account_mgr_id)::pg_catalog.text)))
$$;
COMMENT ON FUNCTION hroe_multi.customer_item(integer, text, text, text, text[], integer) IS
'internal: The Customer item: key, first_name, last_name, email, phone list, account_rep_id (the account manager''s key; absent without one)';

CREATE FUNCTION hroe_multi.order_header_item(p_order_id bigint, p_customer_id integer, p_order_date date,
											 p_status text, p_order_mode text, p_sales_rep_id integer,
											 p_order_total numeric, p_promotion_id integer,
											 p_order_items text[])
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"order_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"customer_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.customer_key(p_customer_id)::pg_catalog.text),
	'"order_date":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.date_key(p_order_date)::pg_catalog.text),
	'"status":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_status),
	'"order_mode":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_order_mode),
	'"account_rep_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.employee_key(p_sales_rep_id)::pg_catalog.text),
	'"total_amount":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_order_total),
	'"promotion_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_promotion_id),
	'"order_items":{"L":[' OPERATOR(pg_catalog.||) pg_catalog.array_to_string(COALESCE(p_order_items, '{}'), ',')
		OPERATOR(pg_catalog.||) ']}',
	'"shard":' OPERATOR(pg_catalog.||)
		hroe_multi.json_n(CASE WHEN p_status OPERATOR(pg_catalog.=) 'OPEN' THEN hroe.shard_of(p_order_id, 5) END))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.order_header_item(bigint, integer, date, text, text, integer, numeric, integer, text[]) IS
'internal: The header item of an order (SK = the order key): customer_id, order_date, status, order_mode, account_rep_id (the order''s sales rep), total_amount, promotion_id, order_items (the list of order_items_entry() of the lines, in line order), and shard = hroe.shard_of(order id, 5) only while OPEN';

CREATE FUNCTION hroe_multi.order_items_entry(p_product_id integer, p_quantity integer)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT '{"M":{"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text)
	   OPERATOR(pg_catalog.||) ',"qty":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity) OPERATOR(pg_catalog.||) '}}'
$$;
COMMENT ON FUNCTION hroe_multi.order_items_entry(integer, integer) IS
'internal: One entry of an order header''s order_items list, as in the seed, in DynamoDB JSON: a map of product_id (the product key) and qty';

CREATE FUNCTION hroe_multi.order_line_item(p_order_id bigint, p_line_item_id integer, p_product_id integer,
										   p_quantity integer, p_unit_price numeric,
										   p_customer_id integer, p_order_date date)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"order_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.order_key(p_order_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"line_item_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_line_item_id),
	'"quantity":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity),
	'"unit_price":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_unit_price),
	'"order_context":{"M":{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
		'"customer_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.customer_key(p_customer_id)::pg_catalog.text),
		'"order_date":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.date_key(p_order_date)::pg_catalog.text))
		OPERATOR(pg_catalog.||) '}}')
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.order_line_item(bigint, integer, integer, integer, numeric, integer, date) IS
'internal: A line item of an order (SK = the product key): product_id, line_item_id, quantity, unit_price, and the order''s customer and date in the map order_context (top-level customer_id/order_date would put the line into OrderByCustomerDate)';

CREATE FUNCTION hroe_multi.product_item(p_product_id integer, p_product_name text, p_category_id integer,
										p_list_price numeric, p_product_status text, p_total_inventory bigint)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"product_name":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_product_name),
	'"category_id":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_category_id),
	'"unit_price":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_list_price),
	'"product_status":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_product_status),
	'"total_inventory":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_total_inventory))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.product_item(integer, text, integer, numeric, text, bigint) IS
'internal: The metadata item of a product (SK = the product key): product_name, category_id, unit_price (the list price), product_status, total_inventory (maintained: the sum of its inventory items)';

CREATE FUNCTION hroe_multi.inventory_item(p_product_id integer, p_warehouse_id integer, p_quantity integer)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"product_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.product_key(p_product_id)::pg_catalog.text),
	'"SK":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.warehouse_key(p_warehouse_id)::pg_catalog.text),
	'"inventory_quantity":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_quantity))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.inventory_item(integer, integer, integer) IS
'internal: The inventory item of a product at a warehouse (SK = the warehouse key): inventory_quantity';

CREATE FUNCTION hroe_multi.rank_key(p_total numeric, p_employee_id integer)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_cents numeric := round(p_total * 100);
BEGIN
	IF v_cents < 0 OR v_cents > 999999999999999 THEN
		RAISE EXCEPTION 'a quarter total of % is out of the ranking''s range', p_total
			USING ERRCODE = 'numeric_value_out_of_range',
				  DETAIL = 'Totals from 0 to 9999999999999.99 are ranked.';
	END IF;
	RETURN lpad((999999999999999 - v_cents)::text, 15, '0') || '#' || hroe_multi.employee_key(p_employee_id)::text;
END
$$;
COMMENT ON FUNCTION hroe_multi.rank_key(numeric, integer) IS
'internal: The ranking sort key of a rep''s quarter total: 999999999999999 minus the total in cents in 15 digits, #, the employee key; ascending order is total descending, ties by employee';

CREATE FUNCTION hroe_multi.rep_quarter_item(p_quarter text, p_employee_id integer, p_total numeric,
											p_order_count bigint)
RETURNS hroe.item
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT ('{' OPERATOR(pg_catalog.||) pg_catalog.concat_ws(',',
	'"quarter":' OPERATOR(pg_catalog.||) hroe_multi.json_s(p_quarter),
	'"employee_id":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.employee_key(p_employee_id)::pg_catalog.text),
	'"total":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_total),
	'"order_count":' OPERATOR(pg_catalog.||) hroe_multi.json_n(p_order_count),
	'"rank_key":' OPERATOR(pg_catalog.||) hroe_multi.json_s(hroe_multi.rank_key(p_total, p_employee_id)))
	OPERATOR(pg_catalog.||) '}')::hroe.item
$$;
COMMENT ON FUNCTION hroe_multi.rep_quarter_item(text, integer, numeric, bigint) IS
'internal: The RepQuarterTotal item of a sales rep and quarter: total and count of the rep''s orders dated in it (CANCELED excluded), rank_key';

------------------------------------------------------------------------------
-- The mapping from hroe_normalized: every item the model must hold
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.normalized_items()
RETURNS TABLE (table_name text, item hroe.item)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'Employee'::pg_catalog.text,
	   hroe_multi.employee_item(e.employee_id, e.first_name, e.last_name, e.email, e.phone_numbers::pg_catalog.text[],
								e.hire_date, e.salary, e.commission_pct, e.manager_id, e.job_id,
								e.department_id, e.job_start_date)
FROM hroe_normalized.employees e
UNION ALL
SELECT 'Employee', hroe_multi.email_item(e.email, e.employee_id)
FROM hroe_normalized.employees e
UNION ALL
SELECT 'Customer',
	   hroe_multi.customer_item(c.customer_id, c.cust_first_name, c.cust_last_name, c.cust_email,
								c.phone_numbers::pg_catalog.text[], c.account_mgr_id)
FROM hroe_normalized.customers c
UNION ALL
SELECT 'Order',
	   hroe_multi.order_header_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
									o.sales_rep_id, o.order_total, o.promotion_id, l.order_items)
FROM hroe_normalized.orders o
LEFT JOIN (SELECT i.order_id,
				  pg_catalog.array_agg(hroe_multi.order_items_entry(i.product_id, i.quantity)
									   ORDER BY i.line_item_id) AS order_items
		   FROM hroe_normalized.order_items i GROUP BY i.order_id) l
	ON l.order_id OPERATOR(pg_catalog.=) o.order_id
UNION ALL
SELECT 'Order',
	   hroe_multi.order_line_item(i.order_id, i.line_item_id, i.product_id, i.quantity, i.unit_price,
								  o.customer_id, o.order_date)
FROM hroe_normalized.order_items i
JOIN hroe_normalized.orders o ON o.order_id OPERATOR(pg_catalog.=) i.order_id
UNION ALL
SELECT 'Product',
	   hroe_multi.product_item(p.product_id, p.product_name, p.category_id, p.list_price, p.product_status,
							   COALESCE(t.total, 0))
FROM hroe_normalized.product_information p
LEFT JOIN (SELECT i.product_id, pg_catalog.sum(i.quantity_on_hand)::pg_catalog.int8 AS total
		   FROM hroe_normalized.inventories i GROUP BY i.product_id) t
	ON t.product_id OPERATOR(pg_catalog.=) p.product_id
UNION ALL
SELECT 'Product', hroe_multi.inventory_item(i.product_id, i.warehouse_id, i.quantity_on_hand)
FROM hroe_normalized.inventories i
UNION ALL
SELECT 'RepQuarterTotal', hroe_multi.rep_quarter_item(q.quarter, q.sales_rep_id, q.total, q.order_count)
FROM (SELECT hroe_multi.quarter_of(o.order_date) AS quarter, o.sales_rep_id,
			 pg_catalog.sum(o.order_total) AS total, pg_catalog.count(*) AS order_count
	  FROM hroe_normalized.orders o
	  WHERE o.sales_rep_id IS NOT NULL AND o.order_status OPERATOR(pg_catalog.<>) 'CANCELED'
	  GROUP BY 1, 2) q
$$;
COMMENT ON FUNCTION hroe_multi.normalized_items()
IS 'internal: Every item hroe_multi holds for the data in hroe_normalized, with its table name: what load_from_normalized() inserts and verify() compares against';

CREATE FUNCTION hroe_multi.load_from_normalized()
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table text;
	v_rows bigint;
	v_ddl text[];
BEGIN
	TRUNCATE hroe_multi."Employee", hroe_multi."Customer", hroe_multi."Order", hroe_multi."Product",
		hroe_multi."RepQuarterTotal";
	FOREACH v_table IN ARRAY ARRAY['Employee', 'Customer', 'Order', 'Product', 'RepQuarterTotal'] LOOP
		-- the GSIs are built once the items are in (twice as fast as
		-- maintaining them item by item), with their names and comments
		-- (hroe.indexes names them, so its rows stay valid)
		v_ddl := hroe.drop_secondary_indexes(ARRAY[format('hroe_multi.%I', v_table)::regclass]);
		EXECUTE format('INSERT INTO hroe_multi.%I (item) SELECT n.item FROM hroe_multi.normalized_items() n WHERE n.table_name = %L',
					   v_table, v_table);
		GET DIAGNOSTICS v_rows = ROW_COUNT;
		PERFORM hroe.execute_ddl(v_ddl);
		EXECUTE format('ANALYZE hroe_multi.%I', v_table);
		table_name := 'hroe_multi.' || v_table; row_count := v_rows; RETURN NEXT;
	END LOOP;
	PERFORM setval('hroe_multi.order_id_seq', last_value, is_called) FROM hroe_normalized.order_id_seq;
	PERFORM setval('hroe_multi.employee_id_seq', last_value, is_called) FROM hroe_normalized.employee_id_seq;
END
$$;
COMMENT ON FUNCTION hroe_multi.load_from_normalized() IS
'Replaces hroe_multi''s content with the mapping of hroe_normalized (normalized_items()) and sets its id sequences to the normalized ones; called by hroe.load; returns the items per table';

CREATE FUNCTION hroe_multi.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
-- sk is the table key's second part, or '-' for a table without a sort key
WITH actual AS (
	SELECT 'Employee'::text AS t, e.pk, '-'::hroe.key AS sk, e.item FROM hroe_multi."Employee" e
	UNION ALL SELECT 'Customer', c.pk, '-'::hroe.key, c.item FROM hroe_multi."Customer" c
	UNION ALL SELECT 'Order', o.pk, o.sk, o.item FROM hroe_multi."Order" o
	UNION ALL SELECT 'Product', p.pk, p.sk, p.item FROM hroe_multi."Product" p
	UNION ALL SELECT 'RepQuarterTotal', r.pk, r.sk, r.item FROM hroe_multi."RepQuarterTotal" r
), expected AS (
	SELECT n.table_name AS t,
		   hroe_multi.key_s(n.item, CASE n.table_name WHEN 'Employee' THEN 'employee_id' WHEN 'Customer' THEN 'customer_id'
											   WHEN 'Order' THEN 'order_id' WHEN 'Product' THEN 'product_id'
											   ELSE 'quarter' END) AS pk,
		   COALESCE(hroe_multi.key_s(n.item, CASE n.table_name WHEN 'Order' THEN 'SK' WHEN 'Product' THEN 'SK'
														WHEN 'RepQuarterTotal' THEN 'employee_id' END),
					'-'::hroe.key) AS sk,
		   n.item
	FROM hroe_multi.normalized_items() n
), pairs AS (
	SELECT COALESCE(e.t, a.t) AS t, COALESCE(e.pk, a.pk) AS pk, COALESCE(e.sk, a.sk) AS sk,
		   e.item AS expected_item, a.item AS actual_item
	FROM expected e
	FULL JOIN actual a ON a.t = e.t AND a.pk OPERATOR(hroe.=) e.pk AND a.sk OPERATOR(hroe.=) e.sk
	WHERE a.item IS NULL OR e.item IS NULL OR a.item OPERATOR(hroe.<>) e.item
)
SELECT 'hroe_multi'::text,
	   p.t || ' ' || p.pk::text || CASE WHEN p.t IN ('Order', 'Product', 'RepQuarterTotal')
										THEN ' ' || p.sk::text ELSE '' END,
	   CASE WHEN p.actual_item IS NULL THEN 'missing item'
			WHEN p.expected_item IS NULL THEN 'unexpected item'
			ELSE format('attribute %s is %s, expected %s', d.name,
						COALESCE(hroe.item_get_attribute(p.actual_item, d.name)::text, 'absent'),
						COALESCE(hroe.item_get_attribute(p.expected_item, d.name)::text, 'absent'))
	   END
FROM pairs p
LEFT JOIN LATERAL (
	SELECT a.name
	FROM (SELECT unnest(hroe.item_attributes(p.expected_item))
		  UNION SELECT unnest(hroe.item_attributes(p.actual_item))) AS a (name)
	WHERE hroe.item_get_attribute(p.expected_item, a.name) IS DISTINCT FROM hroe.item_get_attribute(p.actual_item, a.name)
) d ON p.actual_item IS NOT NULL AND p.expected_item IS NOT NULL
ORDER BY 2, 3
$$;
COMMENT ON FUNCTION hroe_multi.verify() IS
'Recomputes every item of hroe_multi from hroe_normalized (normalized_items(): the maintained totals, the denormalized rep, customer and date, the OPEN shard, the embedded job and location...) and reports each missing, unexpected or differing item, one row per differing attribute; empty when the model is exact';

------------------------------------------------------------------------------
-- Row shape: the columns of patterns 1 and 2 (the Employee item whole),
-- an SQL set-returning function of one SELECT without FROM, not STRICT,
-- without SET: called LATERAL, PostgreSQL inlines it and pulls it up, so
-- the plan is the one of the expressions written in place.  The other
-- patterns that return the same columns (4, 5 and 10; 6, 7 and 11) keep
-- their own lists on purpose: each reads what its index stores (a key
-- column of that GSI, or a projected attribute), so no two lists are alike.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_multi.employee_profile(p_pk hroe.key, p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p_pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'email'), hroe.item_get_string_list(p_item, 'phone_numbers'),
	   hroe.item_get_text(p_item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'job_id'), hroe.item_get_text(p_item, 'job_title'),
	   hroe.item_get_text(p_item, 'job_start_date')::pg_catalog.date,
	   pg_catalog.round(hroe.item_get_number(p_item, 'salary'), 2),
	   pg_catalog.round(hroe.item_get_number(p_item, 'commission_pct'), 2),
	   hroe.item_get_number(p_item, 'manager_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'department_name'),
	   hroe.item_get_number(p_item, 'location_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'city'), hroe.item_get_text(p_item, 'country_name'),
	   hroe.item_get_text(p_item, 'region_name')
$$;
COMMENT ON FUNCTION hroe_multi.employee_profile(hroe.key, hroe.item) IS
'internal: row shape of patterns 1 and 2: an Employee item (its key and attributes) as hroe_normalized.employee_by_id''s columns; inlined where it is called LATERAL';

------------------------------------------------------------------------------
-- The 17 read patterns, each one GetItem or one Query (product_order_items:
-- two Queries; open_orders: the sharded Query over the 5 shards of
-- OpenOrdersByDate).  STABLE SQL, one SELECT, not STRICT, no SET: inlined,
-- so EXPLAIN shows the index scans.  Every name is schema-qualified.  Each
-- reads only the attributes its index projects (the README's tables).
------------------------------------------------------------------------------

-- 1: GetItem Employee
CREATE FUNCTION hroe_multi.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_multi."Employee" e,
	 LATERAL hroe_multi.employee_profile(e.pk, e.item) AS x
WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
$$;
COMMENT ON FUNCTION hroe_multi.employee_by_id(integer) IS
'pattern 1: GetItem Employee employee_id = emp_<id>; the columns of hroe_normalized.employee_by_id; zero or one row';

-- 2: Query EmployeeByName (INCLUDE every attribute)
CREATE FUNCTION hroe_multi.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_multi."Employee" e,
	 LATERAL hroe_multi.employee_profile(e.pk, e.item) AS x
WHERE e."EmployeeByName_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_full_name)
  AND e."EmployeeByName_sk1" IS NOT NULL
ORDER BY e."EmployeeByName_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.employee_by_name(text) IS
'pattern 2: Query EmployeeByName name = the full name; the columns of employee_by_id; ordered by employee_id (the GSI sort key)';

-- 3: GetItem Employee, projection of the current-job attributes
CREATE FUNCTION hroe_multi.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'department_name'),
	   hroe.item_get_text(e.item, 'job_start_date')::pg_catalog.date
FROM hroe_multi."Employee" e
WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
$$;
COMMENT ON FUNCTION hroe_multi.employee_current_job(integer) IS
'pattern 3: GetItem Employee employee_id = emp_<id>, ProjectionExpression job_id, job_title, department_id, department_name, job_start_date (the current job lives on the Employee item); zero or one row';

-- 4: Query OrderByCustomerDate, FilterExpression on status
CREATE FUNCTION hroe_multi.customer_orders(p_customer_id integer, p_from date, p_to date,
										   p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(o."OrderByCustomerDate_pk1"::pg_catalog.text)::pg_catalog.int4,
	   o."OrderByCustomerDate_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(o.item, 'status'), hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'account_rep_id'))::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe_multi."Order" o
WHERE o."OrderByCustomerDate_pk1" OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id)
  AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_from)
  AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key(p_to)
  AND (p_status IS NULL OR hroe.item_get_text(o.item, 'status') OPERATOR(pg_catalog.=) p_status)
ORDER BY o."OrderByCustomerDate_sk1", o.pk
$$;
COMMENT ON FUNCTION hroe_multi.customer_orders(integer, date, date, text) IS
'pattern 4: Query OrderByCustomerDate customer_id = cust_<id> AND order_date BETWEEN from AND to, FilterExpression status = p_status (NULL: any); ordered by order_date, order_id';

-- 5: the sharded Query of OpenOrdersByDate: status = OPEN and shard = 0..4,
-- order_date BETWEEN from AND to, merged (hroe.sharded_query).  No ORDER BY:
-- the merge's order is the contract's.  It orders by the sort key, then by
-- the index's key columns after it, and hroe.create_index puts the table
-- key there (the index is (status, shard, order_date, order_id, SK)), so
-- equal dates come in order_id order; the sharded query is the only node.
CREATE FUNCTION hroe_multi.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'customer_id'))::pg_catalog.int4,
	   o."OpenOrdersByDate_sk1"::pg_catalog.text::pg_catalog.date,
	   o."OpenOrdersByDate_pk1"::pg_catalog.text, hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'account_rep_id'))::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe.sharded_query(NULL::hroe_multi."Order", 'hroe_multi."Order.OpenOrdersByDate"'::pg_catalog.regclass, 5,
						'between', hroe_multi.date_key(p_from), hroe_multi.date_key(p_to),
						p_prefix => '{OPEN}'::pg_catalog.text[]) o
WHERE p_from OPERATOR(pg_catalog.<=) p_to
$$;
COMMENT ON FUNCTION hroe_multi.open_orders(date, date) IS
'pattern 5: Query OpenOrdersByDate (status, shard) = (OPEN, 0..4) AND order_date BETWEEN from AND to, the 5 shards merged by hroe.sharded_query; ordered by order_date, order_id (the merge''s order: sort key, then the table key the index carries after it)';

-- 6: Query EmployeeByHireDate, static partition key EMPLOYEE
CREATE FUNCTION hroe_multi.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   e."EmployeeByHireDate_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByHireDate_pk1" OPERATOR(hroe.=) 'EMPLOYEE'::hroe.key
  AND e."EmployeeByHireDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_since)
ORDER BY e."EmployeeByHireDate_sk1", e.pk
$$;
COMMENT ON FUNCTION hroe_multi.employees_hired_since(date) IS
'pattern 6: Query EmployeeByHireDate entity_type = EMPLOYEE AND hire_date >= since; ordered by hire_date, employee_id';

-- 7: Query EmployeeByWarehouse
CREATE FUNCTION hroe_multi.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   hroe.item_get_text(e.item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), hroe.item_get_text(e.item, 'job_title'),
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByWarehouse_pk1" OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
  AND e."EmployeeByWarehouse_sk1" IS NOT NULL
ORDER BY e."EmployeeByWarehouse_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.warehouse_employees(integer) IS
'pattern 7: Query EmployeeByWarehouse warehouse_id = wh_<id>; ordered by employee_id';

-- 8: two Queries: Product product_id = p AND begins_with(SK, wh_), and
-- ProductInOrders product_id = p
CREATE FUNCTION hroe_multi.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT 'inventory'::pg_catalog.text AS kind, hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4 AS warehouse_id,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4,
	   NULL::pg_catalog.int8 AS order_id, NULL::pg_catalog.int4, NULL::pg_catalog.date,
	   NULL::pg_catalog.int4, NULL::pg_catalog.int4, NULL::pg_catalog.numeric
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
UNION ALL
SELECT 'order_line'::pg_catalog.text, hroe_multi.key_number(o."ProductInOrders_pk1"::pg_catalog.text)::pg_catalog.int4,
	   NULL, NULL, hroe_multi.key_number(o."ProductInOrders_sk1"::pg_catalog.text),
	   hroe.item_get_number(o.item, 'line_item_id')::pg_catalog.int4,
	   hroe.item_get_text(o.item, 'order_context.order_date')::pg_catalog.date,
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'order_context.customer_id'))::pg_catalog.int4,
	   hroe.item_get_number(o.item, 'quantity')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'unit_price'), 2)
FROM hroe_multi."Order" o
WHERE o."ProductInOrders_pk1" OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND o."ProductInOrders_sk1" IS NOT NULL
ORDER BY kind, warehouse_id, order_id
$$;
COMMENT ON FUNCTION hroe_multi.product_order_items(integer) IS
'pattern 8, two Queries: Product product_id = prod_<id> AND begins_with(SK, wh_) (kind inventory), then ProductInOrders product_id = prod_<id> (kind order_line); ordered by kind, warehouse_id, order_id';

-- 9: Query CustomerByAccountRep
CREATE FUNCTION hroe_multi.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(c.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(c.item, 'first_name'), hroe.item_get_text(c.item, 'last_name'),
	   hroe.item_get_text(c.item, 'email')
FROM hroe_multi."Customer" c
WHERE c."CustomerByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
  AND c."CustomerByAccountRep_sk1" IS NOT NULL
ORDER BY c."CustomerByAccountRep_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.rep_customers(integer) IS
'pattern 9: Query CustomerByAccountRep account_rep_id = emp_<id>; ordered by customer_id';

-- 10: Query OrderByAccountRep, FilterExpression on status
CREATE FUNCTION hroe_multi.rep_orders(p_employee_id integer, p_from date, p_to date,
									  p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(o.pk::pg_catalog.text),
	   hroe_multi.key_number(hroe.item_get_text(o.item, 'customer_id'))::pg_catalog.int4,
	   o."OrderByAccountRep_sk1"::pg_catalog.text::pg_catalog.date,
	   hroe.item_get_text(o.item, 'status'), hroe.item_get_text(o.item, 'order_mode'),
	   hroe_multi.key_number(o."OrderByAccountRep_pk1"::pg_catalog.text)::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(o.item, 'total_amount'), 2)
FROM hroe_multi."Order" o
WHERE o."OrderByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
  AND o."OrderByAccountRep_sk1" OPERATOR(hroe.>=) hroe_multi.date_key(p_from)
  AND o."OrderByAccountRep_sk1" OPERATOR(hroe.<=) hroe_multi.date_key(p_to)
  AND (p_status IS NULL OR hroe.item_get_text(o.item, 'status') OPERATOR(pg_catalog.=) p_status)
ORDER BY o."OrderByAccountRep_sk1", o.pk
$$;
COMMENT ON FUNCTION hroe_multi.rep_orders(integer, date, date, text) IS
'pattern 10: Query OrderByAccountRep account_rep_id = emp_<id> AND order_date BETWEEN from AND to, FilterExpression status = p_status (NULL: any); ordered by order_date, order_id';

-- 11: Query EmployeeByJobTitle
CREATE FUNCTION hroe_multi.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(e.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_text(e.item, 'first_name'), hroe.item_get_text(e.item, 'last_name'),
	   hroe.item_get_text(e.item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(e.item, 'job_id'), e."EmployeeByJobTitle_pk1"::pg_catalog.text,
	   hroe.item_get_number(e.item, 'department_id')::pg_catalog.int4
FROM hroe_multi."Employee" e
WHERE e."EmployeeByJobTitle_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_job_title)
  AND e."EmployeeByJobTitle_sk1" IS NOT NULL
ORDER BY e."EmployeeByJobTitle_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.employees_by_title(text) IS
'pattern 11: Query EmployeeByJobTitle job_title = the title (the current job''s); ordered by employee_id';

-- 12: GetItem Product (product, warehouse)
CREATE FUNCTION hroe_multi.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
$$;
COMMENT ON FUNCTION hroe_multi.product_inventory_at(integer, integer) IS
'pattern 12: GetItem Product product_id = prod_<id>, SK = wh_<id>; no row when the warehouse does not stock the product';

-- 13: GetItem Product metadata, projection total_inventory
CREATE FUNCTION hroe_multi.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'total_inventory')::pg_catalog.int8
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
$$;
COMMENT ON FUNCTION hroe_multi.product_total_inventory(integer) IS
'pattern 13: GetItem Product product_id = SK = prod_<id>, ProjectionExpression total_inventory (maintained by adjust_inventory); no row for an unknown product';

-- 14: Query RepQuarterRanking (forward: total descending, ties by employee)
CREATE FUNCTION hroe_multi.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY r."RepQuarterRanking_sk1"))::pg_catalog.int4,
	   hroe_multi.key_number(r.sk::pg_catalog.text)::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(r.item, 'total'), 2)
FROM hroe_multi."RepQuarterTotal" r
WHERE r."RepQuarterRanking_pk1" OPERATOR(hroe.=) hroe_multi.search_key(p_quarter)
  AND r."RepQuarterRanking_sk1" IS NOT NULL
  AND hroe.quarter_start(p_quarter) IS NOT NULL
ORDER BY r."RepQuarterRanking_sk1"
$$;
COMMENT ON FUNCTION hroe_multi.rep_ranking(text) IS
'pattern 14: Query RepQuarterRanking quarter = p_quarter (''2025-Q3'', checked by hroe.quarter_start), in sort-key order: the maintained totals, highest first, ties by employee_id; rank 1, 2, 3...';

-- (Patterns 15 and 16 repeat their two-column shape instead of sharing a
-- row-shape function: the shape is set-returning in its select list
-- (generate_subscripts and unnest in step), and PostgreSQL does not pull up
-- a subquery with set-returning functions in its target list: called
-- LATERAL, a shared function turns the plan's one ProjectSet over the index
-- scan into a Nested Loop over a ProjectSet and a Result per item.)
-- 15: GetItem Employee, projection phone_numbers
CREATE FUNCTION hroe_multi.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(e.item, 'phone_numbers') AS phones
	  FROM hroe_multi."Employee" e
	  WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)) p
$$;
COMMENT ON FUNCTION hroe_multi.employee_phones(integer) IS
'pattern 15: GetItem Employee employee_id = emp_<id>, ProjectionExpression phone_numbers (a list); one row per phone with its position (1, 2, ...), in list order (the two set-returning functions run in step: no sort)';

-- 16: GetItem Customer, projection phone_numbers
CREATE FUNCTION hroe_multi.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(c.item, 'phone_numbers') AS phones
	  FROM hroe_multi."Customer" c
	  WHERE c.pk OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id)) p
$$;
COMMENT ON FUNCTION hroe_multi.customer_phones(integer) IS
'pattern 16: GetItem Customer customer_id = cust_<id>, ProjectionExpression phone_numbers (a list); one row per phone with its position (1, 2, ...), in list order (no sort)';

-- 17: Query Product product_id = p AND begins_with(SK, wh_)
CREATE FUNCTION hroe_multi.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_multi.key_number(p.pk::pg_catalog.text)::pg_catalog.int4,
	   hroe_multi.key_number(p.sk::pg_catalog.text)::pg_catalog.int4,
	   hroe.item_get_number(p.item, 'inventory_quantity')::pg_catalog.int4
FROM hroe_multi."Product" p
WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
  AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
ORDER BY p.sk
$$;
COMMENT ON FUNCTION hroe_multi.product_inventories(integer) IS
'pattern 17: Query Product product_id = prod_<id> AND begins_with(SK, wh_): the inventory items, not the metadata item; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The 5 write patterns, with the names, arguments, checks, errors and
-- results of hroe_normalized's.  PL/pgSQL with a fixed search_path.  Every
-- derived item changes in the same transaction as its source, and row locks
-- are taken in one canonical order (Order header, then RepQuarterTotal;
-- Product metadata, then inventory item), so concurrent callers neither lose
-- an update nor deadlock (test/specs/multi.spec).  The HR reference data
-- (jobs, departments, locations, warehouses) is read from hroe_normalized,
-- which the seed's four tables do not model and no write pattern changes.
------------------------------------------------------------------------------

-- Adds an order's total to (p_sign 1) or removes it from (p_sign -1) its
-- rep's quarter item, creating or deleting the item; atomic under concurrency.
CREATE FUNCTION hroe_multi.count_rep_quarter(p_sales_rep_id integer, p_order_date date, p_total numeric,
											 p_sign integer)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_quarter text := hroe_multi.quarter_of(p_order_date);
	v_item hroe.item;
	v_count numeric;
BEGIN
	IF p_sign = 1 THEN
		-- the conflict path updates the locked, latest version of the item
		INSERT INTO hroe_multi."RepQuarterTotal" AS r (item)
		VALUES (hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id, p_total, 1))
		ON CONFLICT (pk, sk) DO UPDATE
		SET item = hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id,
											   hroe.item_get_number(r.item, 'total') + p_total,
											   hroe.item_get_number(r.item, 'order_count')::bigint + 1);
	ELSE
		SELECT r.item INTO v_item FROM hroe_multi."RepQuarterTotal" r
		WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
		  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id)
		FOR UPDATE;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'hroe_multi: no RepQuarterTotal item for employee % in %', p_sales_rep_id, v_quarter
				USING ERRCODE = 'data_corrupted', HINT = 'SELECT * FROM hroe_multi.verify() lists the model''s inconsistencies.';
		END IF;
		v_count := hroe.item_get_number(v_item, 'order_count') - 1;
		IF v_count = 0 THEN
			DELETE FROM hroe_multi."RepQuarterTotal" r
			WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
			  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		ELSE
			UPDATE hroe_multi."RepQuarterTotal" r
			SET item = hroe_multi.rep_quarter_item(v_quarter, p_sales_rep_id,
												   hroe.item_get_number(v_item, 'total') - p_total, v_count::bigint)
			WHERE r.pk OPERATOR(hroe.=) hroe.key_from_text(v_quarter)
			  AND r.sk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_multi.count_rep_quarter(integer, date, numeric, integer) IS
'internal: write helper: adds an order total to (p_sign 1) or removes it from (p_sign -1) the RepQuarterTotal item of its sales rep and quarter, creating the item or deleting it with its last order';

CREATE FUNCTION hroe_multi.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
									   p_sales_rep_id integer DEFAULT NULL,
									   p_status text DEFAULT 'OPEN',
									   p_order_id bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_order_id bigint;
	v_products integer[];
	v_quantities integer[];
	v_prices numeric[];
	v_total numeric;
	v_customer hroe.item;
BEGIN
	IF p_customer_id IS NULL OR p_order_date IS NULL OR p_lines IS NULL OR p_status IS NULL THEN
		RAISE EXCEPTION 'customer, order date, lines and status must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_order_date) THEN
		RAISE EXCEPTION 'order date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe.check_order_status(p_status);
	PERFORM hroe.check_order_id(p_order_id);
	-- GetItem Customer
	PERFORM FROM hroe_multi."Customer" c WHERE c.pk OPERATOR(hroe.=) hroe_multi.customer_key(p_customer_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		-- GetItem Employee
		PERFORM FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_sales_rep_id);
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	-- GetItem Product metadata, projection unit_price (the list price), for
	-- each product (BatchGetItem)
	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(id, hroe.item_get_number(p.item, 'unit_price'))
		 FROM unnest(hroe.order_line_product_ids(p_lines)) AS id
		 JOIN hroe_multi."Product" p
		   ON p.pk OPERATOR(hroe.=) hroe_multi.product_key(id)
		  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(id))) l;

	-- One transaction writes the header, the lines and the rep's quarter
	-- total (TransactWriteItems in DynamoDB, with attribute_not_exists on
	-- the header: a taken order id is a unique violation here).
	v_order_id := COALESCE(p_order_id, nextval('hroe_multi.order_id_seq'));
	INSERT INTO hroe_multi."Order" (item)
	SELECT hroe_multi.order_header_item(v_order_id, p_customer_id, p_order_date, p_status,
										CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END,
										p_sales_rep_id, v_total, NULL,
										ARRAY(SELECT hroe_multi.order_items_entry(l.product_id, l.quantity)
											  FROM unnest(v_products, v_quantities) WITH ORDINALITY AS l (product_id, quantity, n)
											  ORDER BY l.n))
	UNION ALL
	SELECT hroe_multi.order_line_item(v_order_id, l.n::integer, l.product_id, l.quantity, l.unit_price,
									  p_customer_id, p_order_date)
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	IF p_sales_rep_id IS NOT NULL AND p_status <> 'CANCELED' THEN
		PERFORM hroe_multi.count_rep_quarter(p_sales_rep_id, p_order_date, v_total, 1);
	END IF;
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_multi.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order (as hroe_normalized.place_order: same lines, checks, errors and id rules): the header item with its total, order_items and OPEN shard, one item per line, and the sales rep''s RepQuarterTotal, in one transaction; returns the order id';

CREATE FUNCTION hroe_multi.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_old text;
	v_new hroe.item;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	SELECT o.item INTO v_item FROM hroe_multi."Order" o
	WHERE o.pk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	  AND o.sk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	v_old := hroe.item_get_text(v_item, 'status');
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	-- UpdateItem SET status REMOVE shard: leaving OPEN takes the header out
	-- of the sparse OpenOrdersByDate
	v_new := hroe.item_remove_attribute(v_item, 'shard')
			 OPERATOR(hroe.||) ('{"status":' || hroe_multi.json_s(p_status) || '}')::hroe.item;
	UPDATE hroe_multi."Order" o SET item = v_new
	WHERE o.pk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id)
	  AND o.sk OPERATOR(hroe.=) hroe_multi.order_key(p_order_id);
	IF p_status = 'CANCELED' AND hroe.item_exists(v_item, 'account_rep_id') THEN
		PERFORM hroe_multi.count_rep_quarter(hroe_multi.key_number(hroe.item_get_text(v_item, 'account_rep_id'))::integer,
											 hroe.item_get_text(v_item, 'order_date')::date,
											 hroe.item_get_number(v_item, 'total_amount'), -1);
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_multi.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED (any other change is an error); leaving OPEN removes the shard attribute, so the header leaves OpenOrdersByDate; CANCELED removes the total from the rep''s RepQuarterTotal';

CREATE FUNCTION hroe_multi.change_employee_job(p_employee_id integer, p_job_id text,
											   p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_start date;
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	SELECT e.item INTO v_item FROM hroe_multi."Employee" e
	WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id)
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'employee % does not exist', p_employee_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_job_id = hroe.item_get_text(v_item, 'job_id')
	   AND p_department_id IS NOT DISTINCT FROM hroe.item_get_number(v_item, 'department_id')::integer THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_start := hroe.item_get_text(v_item, 'job_start_date')::date;
	IF p_start_date <= v_start THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_start
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- UpdateItem: the current-job attributes are replaced (the seed keeps no
	-- job history; hroe_normalized.job_history has it)
	UPDATE hroe_multi."Employee" e
	SET item = hroe.item_remove(v_item, 'job_id', 'job_title', 'job_start_date', 'department_id', 'department_name',
								'location_id', 'city', 'country_name', 'region_name', 'warehouse_id')
			   OPERATOR(hroe.||) hroe_multi.job_attributes(p_job_id, p_department_id, p_start_date)
	WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_employee_id);
END
$$;
COMMENT ON FUNCTION hroe_multi.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date (checks and errors of hroe_normalized.change_employee_job): the Employee item''s job, title, start date, department, location and warehouse are replaced, moving it between EmployeeByJobTitle and EmployeeByWarehouse partitions';

CREATE FUNCTION hroe_multi.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_meta hroe.item;
	v_on_hand integer;
	v_new integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the metadata item first: its lock serializes every change of the
	-- product's stock, so the inventory item and the total move together
	SELECT p.item INTO v_meta FROM hroe_multi."Product" p
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_normalized.warehouses WHERE warehouse_id = p_warehouse_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	SELECT hroe.item_get_number(p.item, 'inventory_quantity')::integer INTO v_on_hand
	FROM hroe_multi."Product" p
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id)
	FOR UPDATE;
	IF COALESCE(v_on_hand, 0) + p_delta::bigint < 0 THEN
		RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
			USING ERRCODE = 'check_violation',
				  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
	END IF;
	v_new := COALESCE(v_on_hand, 0) + p_delta;
	IF v_on_hand IS NULL THEN
		INSERT INTO hroe_multi."Product" (item) VALUES (hroe_multi.inventory_item(p_product_id, p_warehouse_id, v_new));
	ELSE
		UPDATE hroe_multi."Product" p SET item = hroe_multi.inventory_item(p_product_id, p_warehouse_id, v_new)
		WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
		  AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key(p_warehouse_id);
	END IF;
	UPDATE hroe_multi."Product" p
	SET item = v_meta OPERATOR(hroe.||)
			   ('{"total_inventory":' || hroe_multi.json_n(hroe.item_get_number(v_meta, 'total_inventory') + p_delta) || '}')::hroe.item
	WHERE p.pk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id)
	  AND p.sk OPERATOR(hroe.=) hroe_multi.product_key(p_product_id);
	RETURN v_new;
END
$$;
COMMENT ON FUNCTION hroe_multi.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the inventory item of a product at a warehouse, creating it, and to the product''s total_inventory, in one transaction; stock never goes below zero (the error of hroe_normalized.adjust_inventory); returns the new quantity on hand';

CREATE FUNCTION hroe_multi.hire_employee(p_first_name text, p_last_name text, p_email text,
										 p_hire_date date, p_job_id text, p_department_id integer,
										 p_phone_numbers text[] DEFAULT '{}',
										 p_manager_id integer DEFAULT NULL,
										 p_salary numeric DEFAULT NULL,
										 p_commission_pct numeric DEFAULT NULL,
										 p_employee_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_employee_id integer;
	v_other text;
BEGIN
	PERFORM hroe.check_hire_arguments(p_first_name, p_last_name, p_email, p_hire_date, p_job_id,
									  p_phone_numbers, p_salary, p_commission_pct, p_employee_id);
	PERFORM FROM hroe_normalized.jobs WHERE job_id = p_job_id;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		PERFORM FROM hroe_normalized.departments WHERE department_id = p_department_id;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_manager_id IS NOT NULL THEN
		PERFORM FROM hroe_multi."Employee" e WHERE e.pk OPERATOR(hroe.=) hroe_multi.employee_key(p_manager_id);
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	-- GetItem of the email's uniqueness item
	SELECT hroe.item_get_text(e.item, 'email_owner') INTO v_other FROM hroe_multi."Employee" e
	WHERE e.pk OPERATOR(hroe.=) hroe.key_from_text('EMAIL#' || p_email);
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, hroe_multi.key_number(v_other)
			USING ERRCODE = 'unique_violation';
	END IF;
	-- One transaction puts the uniqueness item and the employee; a
	-- concurrent hire of the same email waits, then fails on the primary
	-- key (attribute_not_exists in DynamoDB's TransactWriteItems)
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_multi.employee_id_seq')::integer);
	BEGIN
		INSERT INTO hroe_multi."Employee" (item)
		VALUES (hroe_multi.email_item(p_email, v_employee_id)),
			   (hroe_multi.employee_item(v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers,
										 p_hire_date, p_salary, p_commission_pct, p_manager_id, p_job_id,
										 p_department_id, p_hire_date));
	EXCEPTION WHEN unique_violation THEN
		-- a concurrent hire took the email first: the same error as above
		SELECT hroe.item_get_text(e.item, 'email_owner') INTO v_other FROM hroe_multi."Employee" e
		WHERE e.pk OPERATOR(hroe.=) hroe.key_from_text('EMAIL#' || p_email);
		IF FOUND THEN
			RAISE EXCEPTION 'email "%" is already used by employee %', p_email, hroe_multi.key_number(v_other)
				USING ERRCODE = 'unique_violation';
		END IF;
		RAISE;
	END;
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_multi.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an Employee item whose current job starts on the hire date, and the email''s uniqueness item (checks and errors of hroe_normalized.hire_employee); returns the id, the next value of hroe_multi.employee_id_seq unless p_employee_id is given';

-- hroe_single: the HR/OE data as one DynamoDB table (AWS's adjacency-list
-- design, its published bugs fixed; README "The single-table model").
--
-- One PostgreSQL table holds every item, made by hroe.create_table and
-- hroe.create_index as the DynamoDB table "hroe_single" (so hroe.get_item,
-- hroe.query, ... work on it too): the item (hroe.item) is the only stored
-- truth; the key columns PK and SK and the index keys GSI1_SK, GSI2_PK and
-- GSI4_SK are STORED generated columns read from its attributes by
-- hroe.item_key_s/_n (NULL when an index key is absent, so the partial
-- indexes are sparse exactly as DynamoDB's GSIs are).
--   table  PRIMARY KEY (pk, sk)
--   GSI1   (sk, gsi1_sk, pk)        overloaded: partition = the table's SK
--   GSI2   (gsi2_pk, gsi1_sk, ...)  write-sharded, sparse: OPEN orders only
--   GSI3   ("GSI3_pk1", pk, sk)     reverse lookup of GSI1_SK
--   GSI4   (sk, gsi4_sk, pk)        date-first order keys (status "any")
-- Ids in keys are zero-padded (10 digits, order ids 19) and dates ISO
-- (YYYY-MM-DD), because DynamoDB compares keys as bytes.

CREATE SCHEMA hroe_single;
COMMENT ON SCHEMA hroe_single IS
'hroe: the HR/OE data as one DynamoDB table (adjacency list, overloaded, write-sharded, sparse and reverse-lookup GSIs), with the 17 read patterns and 5 write patterns of hroe_normalized';

------------------------------------------------------------------------------
-- Key pieces.  IMMUTABLE or STABLE SQL expressions, not STRICT, without SET:
-- PostgreSQL inlines them into the patterns and folds them for constants.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.id10(p_id integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(p_id::pg_catalog.text, 10, '0')
$$;
COMMENT ON FUNCTION hroe_single.id10(integer) IS
'internal: an integer id as it appears in keys: zero-padded to 10 digits (every positive integer fits), so byte order is numeric order';

CREATE FUNCTION hroe_single.id19(p_id bigint)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(p_id::pg_catalog.text, 19, '0')
$$;
COMMENT ON FUNCTION hroe_single.id19(bigint) IS
'internal: an order id as it appears in keys: zero-padded to 19 digits (every positive bigint fits), so byte order is numeric order';

CREATE FUNCTION hroe_single.day(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_date OPERATOR(pg_catalog.<) '0001-01-01'::pg_catalog.date THEN '!'
			WHEN p_date OPERATOR(pg_catalog.>) '9999-12-31'::pg_catalog.date THEN '~'
			ELSE pg_catalog.lpad(EXTRACT(YEAR FROM p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
				 OPERATOR(pg_catalog.||) '-'
				 OPERATOR(pg_catalog.||) pg_catalog.lpad(EXTRACT(MONTH FROM p_date)::pg_catalog.int4::pg_catalog.text, 2, '0')
				 OPERATOR(pg_catalog.||) '-'
				 OPERATOR(pg_catalog.||) pg_catalog.lpad(EXTRACT(DAY FROM p_date)::pg_catalog.int4::pg_catalog.text, 2, '0') END
$$;
COMMENT ON FUNCTION hroe_single.day(date) IS
'internal: a date as it appears in keys and items: YYYY-MM-DD (byte order is date order); in a query bound, ''!'' below year 1 (before every stored date) and ''~'' above 9999 (after every one); the writes refuse such dates';

CREATE FUNCTION hroe_single.make_key(p_prefix text, p_rest text)
RETURNS hroe.key
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.octet_length(p_prefix OPERATOR(pg_catalog.||) p_rest) OPERATOR(pg_catalog.<=) 2048
			THEN (p_prefix OPERATOR(pg_catalog.||) p_rest)::hroe.key END
$$;
COMMENT ON FUNCTION hroe_single.make_key(text, text) IS
'internal: the key p_prefix || p_rest; NULL when either is NULL or the key would exceed DynamoDB''s 2048 bytes (no item can have it, so a lookup finds nothing)';

CREATE FUNCTION hroe_single.status_key(p_status text, p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN p_status OPERATOR(pg_catalog.=) ANY ('{OPEN,SHIPPED,CLOSED,CANCELED}'::pg_catalog.text[])
			THEN p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_date) END
$$;
COMMENT ON FUNCTION hroe_single.status_key(text, date) IS
'internal: the STATUS#DATE prefix of an order''s GSI1_SK, the lower bound of a status and date range; NULL for any other status (no item has it)';

CREATE FUNCTION hroe_single.quarter_of(p_date date)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.lpad(EXTRACT(YEAR FROM p_date)::pg_catalog.int4::pg_catalog.text, 4, '0')
	   OPERATOR(pg_catalog.||) '-Q' OPERATOR(pg_catalog.||) EXTRACT(QUARTER FROM p_date)::pg_catalog.int4::pg_catalog.text
$$;
COMMENT ON FUNCTION hroe_single.quarter_of(date) IS
'internal: the quarter of a date as rep_ranking names it: ''2025-Q3''';

------------------------------------------------------------------------------
-- The table and its indexes.
------------------------------------------------------------------------------

-- hroe.create_table makes the table "hroe_single" (generated pk, sk, the
-- item); it is renamed items, the name every pattern reads (hroe.tables
-- holds its regclass, which a rename keeps).  hroe.create_index with
-- p_share_key_columns adds the GSIs: an index key the table key or an
-- earlier index already extracts reuses that column, so SK is stored once
-- (sk) for the table, GSI1 and GSI4, and GSI1_SK once (gsi1_sk) for GSI1's
-- and GSI2's sort key.  GSI3's partition key GSI1_SK has a column of its own
-- ("GSI3_pk1"): a HASH key column stores keys over 192 bytes in their index
-- form (a prefix and a SHA-256, so that a 2048-byte key fits the btree),
-- whose order is not the keys', so it cannot serve a sort key.
-- Each GSI's NOT VALID CHECK constraint rejects writes that violate its key
-- schema with DynamoDB's errors (E11, empty or oversized index key).
SELECT hroe.create_table('hroe_single', 'PK', 'S', 'SK', 'S', p_schema => 'hroe_single');
ALTER TABLE hroe_single.hroe_single RENAME TO items;
ALTER INDEX hroe_single.hroe_single_pkey RENAME TO items_pkey;
COMMENT ON TABLE hroe_single.items IS
'the single table, DynamoDB table hroe_single (hroe.create_table, hroe.create_index): every HR/OE entity and edge as a DynamoDB item; pk and sk are generated from the item''s PK and SK, gsi1_sk (and GSI3_pk1, GSI3''s partition key), gsi2_pk and gsi4_sk from GSI1_SK, GSI2_PK and GSI4_SK';
-- GSI1, overloaded: partition = SK, sort = GSI1_SK (sparse on GSI1_SK)
SELECT hroe.create_index('hroe_single', 'GSI1', '{SK}', '{GSI1_SK}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI2, write-sharded and sparse: partition = shard 0..N-1, only OPEN orders
SELECT hroe.create_index('hroe_single', 'GSI2', '{GSI2_PK}', '{GSI1_SK}', '{"GSI2_PK": "N", "GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI3, reverse lookup: partition = GSI1_SK (a column of its own, "GSI3_pk1")
SELECT hroe.create_index('hroe_single', 'GSI3', '{GSI1_SK}', '{}', '{"GSI1_SK": "S"}',
						 p_share_key_columns => true);
-- GSI4: partition = SK, sort = DATE#ORDER, only orders and order->rep edges
SELECT hroe.create_index('hroe_single', 'GSI4', '{SK}', '{GSI4_SK}', '{"GSI4_SK": "S"}',
						 p_share_key_columns => true);

SELECT pg_catalog.pg_extension_config_dump('hroe_single.items', '');

CREATE SEQUENCE hroe_single.order_id_seq AS bigint CACHE 1;
COMMENT ON SEQUENCE hroe_single.order_id_seq IS
'next order id for hroe_single.place_order when no p_order_id is given (load_from_normalized sets it past the loaded orders)';
CREATE SEQUENCE hroe_single.employee_id_seq AS integer CACHE 1;
COMMENT ON SEQUENCE hroe_single.employee_id_seq IS
'next employee id for hroe_single.hire_employee when no p_employee_id is given (load_from_normalized sets it past the loaded employees)';
SELECT pg_catalog.pg_extension_config_dump('hroe_single.order_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('hroe_single.employee_id_seq', '');

------------------------------------------------------------------------------
-- Item builders, one per entity and edge type.  The load, hroe.verify() and
-- the writes all build items through these, so an item written by a write
-- pattern is byte-for-byte the item a fresh load would produce.  Absent
-- (NULL) attributes are left out of the item, as DynamoDB has no NULL
-- column; numbers are N, dates S YYYY-MM-DD, phone lists L of S.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.doc_item(p_doc jsonb)
RETURNS hroe.item
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_from_document(pg_catalog.jsonb_strip_nulls(p_doc))
$$;
COMMENT ON FUNCTION hroe_single.doc_item(jsonb) IS
'internal: an item from a JSON document whose null members are absent attributes';

CREATE FUNCTION hroe_single.region_item(p_region_id integer, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-REGION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_region_id),
	'SK', 'REGION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_region_id),
	'GSI1_SK', 'REGION-NAME#' OPERATOR(pg_catalog.||) p_region_name,
	'type', 'region', 'region_id', p_region_id, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.region_item(integer, text) IS 'internal: item builder: a region (HR-REGION#id / REGION#id)';

CREATE FUNCTION hroe_single.country_item(p_country_id text, p_country_name text, p_region_id integer,
										 p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-COUNTRY#' OPERATOR(pg_catalog.||) p_country_id,
	'SK', 'COUNTRY#' OPERATOR(pg_catalog.||) p_country_id,
	'GSI1_SK', 'COUNTRY-NAME#' OPERATOR(pg_catalog.||) p_country_name,
	'type', 'country', 'country_id', p_country_id, 'country_name', p_country_name,
	'region_id', p_region_id, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.country_item(text, text, integer, text) IS 'internal: item builder: a country (HR-COUNTRY#cc / COUNTRY#cc), its region name copied';

CREATE FUNCTION hroe_single.location_item(p_location_id integer, p_street_address text, p_postal_code text,
										  p_city text, p_state_province text, p_country_id text,
										  p_country_name text, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-LOCATION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_location_id),
	'SK', 'LOCATION#' OPERATOR(pg_catalog.||) hroe_single.id10(p_location_id),
	'GSI1_SK', 'LOCATION-CITY#' OPERATOR(pg_catalog.||) p_city,
	'type', 'location', 'location_id', p_location_id, 'street_address', p_street_address,
	'postal_code', p_postal_code, 'city', p_city, 'state_province', p_state_province,
	'country_id', p_country_id, 'country_name', p_country_name, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.location_item(integer, text, text, text, text, text, text, text) IS 'internal: item builder: a location (HR-LOCATION#id / LOCATION#id), its country and region names copied';

CREATE FUNCTION hroe_single.job_item(p_job_id text, p_job_title text, p_min_salary integer, p_max_salary integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-JOB#' OPERATOR(pg_catalog.||) p_job_id,
	'SK', 'JOB#' OPERATOR(pg_catalog.||) p_job_id,
	'GSI1_SK', 'JOB-TITLE#' OPERATOR(pg_catalog.||) p_job_title,
	'type', 'job', 'job_id', p_job_id, 'job_title', p_job_title,
	'min_salary', p_min_salary, 'max_salary', p_max_salary))
$$;
COMMENT ON FUNCTION hroe_single.job_item(text, text, integer, integer) IS 'internal: item builder: a job (HR-JOB#id / JOB#id)';

CREATE FUNCTION hroe_single.department_item(p_department_id integer, p_department_name text, p_manager_id integer,
											p_location_id integer, p_city text, p_country_name text,
											p_region_name text, p_warehouse_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-DEPARTMENT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_department_id),
	'SK', 'DEPARTMENT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_department_id),
	'GSI1_SK', 'DEPARTMENT-NAME#' OPERATOR(pg_catalog.||) p_department_name,
	'type', 'department', 'department_id', p_department_id, 'department_name', p_department_name,
	'manager_id', p_manager_id, 'location_id', p_location_id, 'city', p_city,
	'country_name', p_country_name, 'region_name', p_region_name, 'warehouse_id', p_warehouse_id))
$$;
COMMENT ON FUNCTION hroe_single.department_item(integer, text, integer, integer, text, text, text, integer) IS
'internal: item builder: a department (HR-DEPARTMENT#id / DEPARTMENT#id), with its location''s city, country and region names and the warehouse at its location, which the job changes copy onto employees';

CREATE FUNCTION hroe_single.warehouse_item(p_warehouse_id integer, p_warehouse_name text, p_location_id integer,
										   p_city text, p_country_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'SK', 'WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'GSI1_SK', 'WAREHOUSE-NAME#' OPERATOR(pg_catalog.||) p_warehouse_name,
	'type', 'warehouse', 'warehouse_id', p_warehouse_id, 'warehouse_name', p_warehouse_name,
	'location_id', p_location_id, 'city', p_city, 'country_name', p_country_name))
$$;
COMMENT ON FUNCTION hroe_single.warehouse_item(integer, text, integer, text, text) IS 'internal: item builder: a warehouse (OE-WAREHOUSE#id / WAREHOUSE#id)';

CREATE FUNCTION hroe_single.employee_item(p_employee_id integer, p_first_name text, p_last_name text, p_email text,
										  p_phone_numbers text[], p_hire_date date, p_job_id text, p_job_title text,
										  p_job_start_date date, p_salary numeric, p_commission_pct numeric,
										  p_manager_id integer, p_department_id integer, p_department_name text,
										  p_location_id integer, p_city text, p_country_name text, p_region_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'GSI1_SK', 'EMPLOYEE-NAME#' OPERATOR(pg_catalog.||)
			   (COALESCE(p_first_name OPERATOR(pg_catalog.||) ' ', '') OPERATOR(pg_catalog.||) p_last_name),
	'type', 'employee', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'email', p_email, 'phone_numbers', pg_catalog.to_jsonb(p_phone_numbers),
	'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id, 'job_title', p_job_title,
	'job_start_date', hroe_single.day(p_job_start_date), 'salary', p_salary,
	'commission_pct', p_commission_pct, 'manager_id', p_manager_id, 'department_id', p_department_id,
	'department_name', p_department_name, 'location_id', p_location_id, 'city', p_city,
	'country_name', p_country_name, 'region_name', p_region_name))
$$;
COMMENT ON FUNCTION hroe_single.employee_item(integer, text, text, text, text[], date, text, text, date, numeric, numeric, integer, integer, text, integer, text, text, text) IS
'internal: item builder: an employee''s profile (HR-EMPLOYEE#id / EMPLOYEE#id, GSI1_SK EMPLOYEE-NAME#full name): every attribute pattern 1 returns, job, department and location copied in';

CREATE FUNCTION hroe_single.employee_email_item(p_email text, p_employee_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMAIL#' OPERATOR(pg_catalog.||) p_email, 'SK', 'EMAIL',
	'type', 'employee_email', 'email', p_email, 'employee_id', p_employee_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_email_item(text, integer) IS
'internal: item builder: the uniqueness item of an employee''s email (HR-EMAIL#email / EMAIL), DynamoDB''s idiom for a unique attribute';

CREATE FUNCTION hroe_single.employee_confidential_item(p_employee_id integer, p_first_name text, p_last_name text,
													   p_hire_date date, p_job_id text, p_job_title text,
													   p_department_id integer, p_salary numeric,
													   p_commission_pct numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'HR-CONFIDENTIAL', 'GSI1_SK', hroe_single.day(p_hire_date),
	'type', 'employee_confidential', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id,
	'job_title', p_job_title, 'department_id', p_department_id, 'salary', p_salary,
	'commission_pct', p_commission_pct))
$$;
COMMENT ON FUNCTION hroe_single.employee_confidential_item(integer, text, text, date, text, text, integer, numeric, numeric) IS
'internal: item builder: HR-EMPLOYEE#id / HR-CONFIDENTIAL, GSI1_SK the hire date (pattern 6), with salary and the current job';

CREATE FUNCTION hroe_single.current_job_item(p_employee_id integer, p_first_name text, p_last_name text,
											 p_hire_date date, p_job_id text, p_job_title text,
											 p_department_id integer, p_department_name text, p_start_date date)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'v0#' OPERATOR(pg_catalog.||) p_job_title,
	'GSI1_SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'type', 'current_job', 'employee_id', p_employee_id, 'first_name', p_first_name,
	'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date), 'job_id', p_job_id,
	'job_title', p_job_title, 'department_id', p_department_id,
	'department_name', p_department_name, 'start_date', hroe_single.day(p_start_date)))
$$;
COMMENT ON FUNCTION hroe_single.current_job_item(integer, text, text, date, text, text, integer, text, date) IS
'internal: item builder: the current job, version 0 (HR-EMPLOYEE#id / v0#job title, GSI1 partition v0#job title): a copy of the newest JOB-VERSION item (patterns 3 and 11)';

CREATE FUNCTION hroe_single.job_version_item(p_employee_id integer, p_start_date date, p_end_date date,
											 p_job_id text, p_job_title text, p_department_id integer,
											 p_department_name text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'JOB-VERSION#' OPERATOR(pg_catalog.||) hroe_single.day(p_start_date),
	'type', 'job_version', 'employee_id', p_employee_id, 'start_date', hroe_single.day(p_start_date),
	'end_date', hroe_single.day(p_end_date), 'job_id', p_job_id, 'job_title', p_job_title,
	'department_id', p_department_id, 'department_name', p_department_name))
$$;
COMMENT ON FUNCTION hroe_single.job_version_item(integer, date, date, text, text, integer, text) IS
'internal: item builder: one job of an employee (HR-EMPLOYEE#id / JOB-VERSION#start date); end_date absent for the current job';

CREATE FUNCTION hroe_single.employee_warehouse_item(p_employee_id integer, p_warehouse_id integer,
													p_first_name text, p_last_name text, p_hire_date date,
													p_job_id text, p_job_title text, p_department_id integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'GSI1_SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'type', 'employee_warehouse', 'employee_id', p_employee_id, 'warehouse_id', p_warehouse_id,
	'first_name', p_first_name, 'last_name', p_last_name, 'hire_date', hroe_single.day(p_hire_date),
	'job_id', p_job_id, 'job_title', p_job_title, 'department_id', p_department_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_warehouse_item(integer, integer, text, text, date, text, text, integer) IS
'internal: item builder: employee -> warehouse edge (HR-EMPLOYEE#id / WAREHOUSE#id, GSI1 partition WAREHOUSE#id) for an employee whose department is at the warehouse''s location (pattern 7)';

CREATE FUNCTION hroe_single.rep_sales_item(p_employee_id integer, p_quarter text, p_total numeric, p_orders bigint)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HR-EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'SK', 'SALES#' OPERATOR(pg_catalog.||) p_quarter,
	'GSI1_SK', pg_catalog.lpad((p_total OPERATOR(pg_catalog.*) 100)::pg_catalog.int8::pg_catalog.text, 19, '0')
			   OPERATOR(pg_catalog.||) '#'
			   OPERATOR(pg_catalog.||) hroe_single.id10(2147483647 OPERATOR(pg_catalog.-) p_employee_id),
	'type', 'rep_sales', 'employee_id', p_employee_id, 'quarter', p_quarter,
	'total', p_total, 'order_count', p_orders))
$$;
COMMENT ON FUNCTION hroe_single.rep_sales_item(integer, text, numeric, bigint) IS
'internal: item builder: a sales rep''s total for a quarter (HR-EMPLOYEE#id / SALES#2025-Q3), GSI1_SK = total in cents (19 digits) # (2147483647 - id), so a backward GSI1 query ranks by total, ties by employee_id';

CREATE FUNCTION hroe_single.customer_item(p_customer_id integer, p_first_name text, p_last_name text,
										  p_street_address text, p_postal_code text, p_city text,
										  p_state_province text, p_country_id text, p_phone_numbers text[],
										  p_nls_language text, p_nls_territory text, p_credit_limit numeric,
										  p_email text, p_account_mgr_id integer, p_date_of_birth date,
										  p_marital_status text, p_gender text, p_income_level text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'GSI1_SK', 'CUSTOMER-NAME#' OPERATOR(pg_catalog.||) p_first_name OPERATOR(pg_catalog.||) ' '
			   OPERATOR(pg_catalog.||) p_last_name,
	'type', 'customer', 'customer_id', p_customer_id, 'cust_first_name', p_first_name,
	'cust_last_name', p_last_name, 'street_address', p_street_address, 'postal_code', p_postal_code,
	'city', p_city, 'state_province', p_state_province, 'country_id', p_country_id,
	'phone_numbers', pg_catalog.to_jsonb(p_phone_numbers), 'nls_language', p_nls_language,
	'nls_territory', p_nls_territory, 'credit_limit', p_credit_limit, 'cust_email', p_email,
	'account_mgr_id', p_account_mgr_id, 'date_of_birth', hroe_single.day(p_date_of_birth),
	'marital_status', p_marital_status, 'gender', p_gender, 'income_level', p_income_level))
$$;
COMMENT ON FUNCTION hroe_single.customer_item(integer, text, text, text, text, text, text, text, text[], text, text, numeric, text, integer, date, text, text, text) IS
'internal: item builder: a customer (OE-CUSTOMER#id / CUSTOMER#id), phone numbers as a list (pattern 16)';

CREATE FUNCTION hroe_single.customer_rep_item(p_customer_id integer, p_employee_id integer, p_first_name text,
											  p_last_name text, p_email text)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_employee_id),
	'GSI1_SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'type', 'customer_rep', 'customer_id', p_customer_id, 'account_mgr_id', p_employee_id,
	'cust_first_name', p_first_name, 'cust_last_name', p_last_name, 'cust_email', p_email))
$$;
COMMENT ON FUNCTION hroe_single.customer_rep_item(integer, integer, text, text, text) IS
'internal: item builder: customer -> account manager edge (OE-CUSTOMER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep, GSI1_SK CUSTOMER#id) (pattern 9)';

CREATE FUNCTION hroe_single.order_item(p_order_id bigint, p_customer_id integer, p_order_date date,
									   p_status text, p_mode text, p_sales_rep_id integer, p_total numeric,
									   p_promotion_id integer, p_shards integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'CUSTOMER#' OPERATOR(pg_catalog.||) hroe_single.id10(p_customer_id),
	'GSI1_SK', p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_order_date)
			   OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'GSI2_PK', CASE WHEN p_status OPERATOR(pg_catalog.=) 'OPEN' THEN hroe.shard_of(p_order_id, p_shards) END,
	'GSI4_SK', hroe_single.day(p_order_date) OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order', 'order_id', p_order_id, 'customer_id', p_customer_id,
	'order_date', hroe_single.day(p_order_date), 'order_status', p_status, 'order_mode', p_mode,
	'sales_rep_id', p_sales_rep_id, 'order_total', p_total, 'promotion_id', p_promotion_id))
$$;
COMMENT ON FUNCTION hroe_single.order_item(bigint, integer, date, text, text, integer, numeric, integer, integer) IS
'internal: item builder: an order (OE-ORDER#id / CUSTOMER#customer, GSI1_SK STATUS#DATE#ORDER, GSI4_SK DATE#ORDER); an OPEN order also carries GSI2_PK = hroe.shard_of(order id, N)';

CREATE FUNCTION hroe_single.order_rep_item(p_order_id bigint, p_customer_id integer, p_order_date date,
										   p_status text, p_mode text, p_sales_rep_id integer, p_total numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'EMPLOYEE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_sales_rep_id),
	'GSI1_SK', p_status OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.day(p_order_date)
			   OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'GSI4_SK', hroe_single.day(p_order_date) OPERATOR(pg_catalog.||) '#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order_rep', 'order_id', p_order_id, 'customer_id', p_customer_id,
	'order_date', hroe_single.day(p_order_date), 'order_status', p_status, 'order_mode', p_mode,
	'sales_rep_id', p_sales_rep_id, 'order_total', p_total))
$$;
COMMENT ON FUNCTION hroe_single.order_rep_item(bigint, integer, date, text, text, integer, numeric) IS
'internal: item builder: order -> sales rep edge (OE-ORDER#id / EMPLOYEE#rep, GSI1 partition EMPLOYEE#rep) with the order''s attributes (pattern 10)';

CREATE FUNCTION hroe_single.order_line_item(p_order_id bigint, p_line_item_id integer, p_product_id integer,
											p_order_date date, p_customer_id integer, p_quantity integer,
											p_unit_price numeric)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-ORDER#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'ORDER-LINE#' OPERATOR(pg_catalog.||) hroe_single.id19(p_order_id),
	'type', 'order_line', 'order_id', p_order_id, 'line_item_id', p_line_item_id,
	'product_id', p_product_id, 'order_date', hroe_single.day(p_order_date),
	'customer_id', p_customer_id, 'quantity', p_quantity, 'unit_price', p_unit_price))
$$;
COMMENT ON FUNCTION hroe_single.order_line_item(bigint, integer, integer, date, integer, integer, numeric) IS
'internal: item builder: an order line (OE-ORDER#id / PRODUCT#product, GSI1 partition PRODUCT#product, GSI1_SK ORDER-LINE#order) (pattern 8)';

CREATE FUNCTION hroe_single.product_item(p_product_id integer, p_product_name text, p_product_description text,
										 p_category_id integer, p_weight_class integer, p_warranty_period interval,
										 p_supplier_id integer, p_product_status text, p_list_price numeric,
										 p_min_price numeric, p_catalog_url text, p_total_on_hand bigint)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'PRODUCT-NAME#' OPERATOR(pg_catalog.||) p_product_name,
	'type', 'product', 'product_id', p_product_id, 'product_name', p_product_name,
	'product_description', p_product_description, 'category_id', p_category_id,
	'weight_class', p_weight_class,
	'warranty_months', (pg_catalog.date_part('year', p_warranty_period) OPERATOR(pg_catalog.*) 12
						OPERATOR(pg_catalog.+) pg_catalog.date_part('month', p_warranty_period))::pg_catalog.int4,
	'supplier_id', p_supplier_id, 'product_status', p_product_status, 'list_price', p_list_price,
	'min_price', p_min_price, 'catalog_url', p_catalog_url, 'total_on_hand', p_total_on_hand))
$$;
COMMENT ON FUNCTION hroe_single.product_item(integer, text, text, integer, integer, interval, integer, text, numeric, numeric, text, bigint) IS
'internal: item builder: a product (OE-PRODUCT#id / PRODUCT#id) with total_on_hand, the maintained sum of its inventory items (pattern 13)';

CREATE FUNCTION hroe_single.inventory_item(p_product_id integer, p_warehouse_id integer, p_quantity integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'OE-WAREHOUSE#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'SK', 'PRODUCT#' OPERATOR(pg_catalog.||) hroe_single.id10(p_product_id),
	'GSI1_SK', 'INVENTORY#' OPERATOR(pg_catalog.||) hroe_single.id10(p_warehouse_id),
	'type', 'inventory', 'product_id', p_product_id, 'warehouse_id', p_warehouse_id,
	'quantity_on_hand', p_quantity))
$$;
COMMENT ON FUNCTION hroe_single.inventory_item(integer, integer, integer) IS
'internal: item builder: stock of a product at a warehouse (OE-WAREHOUSE#w / PRODUCT#p, GSI1 partition PRODUCT#p, GSI1_SK INVENTORY#w) (patterns 8, 12, 17)';

CREATE FUNCTION hroe_single.meta_item(p_shards integer)
RETURNS hroe.item LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe_single.doc_item(pg_catalog.jsonb_build_object(
	'PK', 'HROE-META', 'SK', 'GSI2', 'type', 'meta', 'shard_count', p_shards))
$$;
COMMENT ON FUNCTION hroe_single.meta_item(integer) IS
'internal: item builder: the table''s settings item (HROE-META / GSI2): shard_count, the N of GSI2''s write sharding';

CREATE FUNCTION hroe_single.shard_count()
RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT COALESCE((SELECT hroe.item_get_number(m.item, 'shard_count')::pg_catalog.int4
				 FROM hroe_single.items m
				 WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key
				   AND m.sk OPERATOR(hroe.=) 'GSI2'::hroe.key), 15)
$$;
COMMENT ON FUNCTION hroe_single.shard_count() IS
'N, the number of GSI2 shards, read from the HROE-META / GSI2 item (15, the guide''s figure, before the first load)';

------------------------------------------------------------------------------
-- Every item the model should hold, derived from hroe_normalized: the load
-- inserts it, hroe.verify() compares the table with it.
------------------------------------------------------------------------------

CREATE VIEW hroe_single.expected_items AS
SELECT hroe_single.region_item(r.region_id, r.region_name) AS item
FROM hroe_normalized.regions r
UNION ALL
SELECT hroe_single.country_item(c.country_id, c.country_name, c.region_id, r.region_name)
FROM hroe_normalized.countries c
JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.location_item(l.location_id, l.street_address, l.postal_code, l.city, l.state_province,
								 l.country_id, c.country_name, r.region_name)
FROM hroe_normalized.locations l
JOIN hroe_normalized.countries c ON c.country_id = l.country_id
JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.job_item(j.job_id, j.job_title, j.min_salary, j.max_salary)
FROM hroe_normalized.jobs j
UNION ALL
SELECT hroe_single.department_item(d.department_id, d.department_name, d.manager_id, d.location_id, l.city,
								   c.country_name, r.region_name, w.warehouse_id)
FROM hroe_normalized.departments d
LEFT JOIN hroe_normalized.locations l ON l.location_id = d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id = l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id = c.region_id
LEFT JOIN hroe_normalized.warehouses w ON w.location_id = d.location_id
UNION ALL
SELECT hroe_single.warehouse_item(w.warehouse_id, w.warehouse_name, w.location_id, l.city, c.country_name)
FROM hroe_normalized.warehouses w
JOIN hroe_normalized.locations l ON l.location_id = w.location_id
JOIN hroe_normalized.countries c ON c.country_id = l.country_id
UNION ALL
SELECT hroe_single.employee_item(e.employee_id, e.first_name, e.last_name, e.email, e.phone_numbers::text[],
								 e.hire_date, e.job_id, j.job_title, e.job_start_date, e.salary,
								 e.commission_pct, e.manager_id, e.department_id, d.department_name,
								 d.location_id, l.city, c.country_name, r.region_name)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
LEFT JOIN hroe_normalized.locations l ON l.location_id = d.location_id
LEFT JOIN hroe_normalized.countries c ON c.country_id = l.country_id
LEFT JOIN hroe_normalized.regions r ON r.region_id = c.region_id
UNION ALL
SELECT hroe_single.employee_email_item(e.email, e.employee_id)
FROM hroe_normalized.employees e
UNION ALL
SELECT hroe_single.employee_confidential_item(e.employee_id, e.first_name, e.last_name, e.hire_date, e.job_id,
											  j.job_title, e.department_id, e.salary, e.commission_pct)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
UNION ALL
SELECT hroe_single.current_job_item(e.employee_id, e.first_name, e.last_name, e.hire_date, e.job_id,
									j.job_title, e.department_id, d.department_name, e.job_start_date)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
UNION ALL
SELECT hroe_single.job_version_item(e.employee_id, e.job_start_date, NULL, e.job_id, j.job_title,
									e.department_id, d.department_name)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = e.department_id
UNION ALL
SELECT hroe_single.job_version_item(h.employee_id, h.start_date, h.end_date, h.job_id, j.job_title,
									h.department_id, d.department_name)
FROM hroe_normalized.job_history h
JOIN hroe_normalized.jobs j ON j.job_id = h.job_id
LEFT JOIN hroe_normalized.departments d ON d.department_id = h.department_id
UNION ALL
SELECT hroe_single.employee_warehouse_item(e.employee_id, w.warehouse_id, e.first_name, e.last_name,
										   e.hire_date, e.job_id, j.job_title, e.department_id)
FROM hroe_normalized.employees e
JOIN hroe_normalized.jobs j ON j.job_id = e.job_id
JOIN hroe_normalized.departments d ON d.department_id = e.department_id
JOIN hroe_normalized.warehouses w ON w.location_id = d.location_id
UNION ALL
SELECT hroe_single.rep_sales_item(s.sales_rep_id, s.quarter, s.total, s.orders)
FROM (SELECT o.sales_rep_id, hroe_single.quarter_of(o.order_date) AS quarter,
			 sum(o.order_total) AS total, count(*) AS orders
	  FROM hroe_normalized.orders o
	  WHERE o.sales_rep_id IS NOT NULL AND o.order_status <> 'CANCELED'
	  GROUP BY 1, 2) s
UNION ALL
SELECT hroe_single.customer_item(c.customer_id, c.cust_first_name, c.cust_last_name, c.street_address,
								 c.postal_code, c.city, c.state_province, c.country_id, c.phone_numbers::text[],
								 c.nls_language, c.nls_territory, c.credit_limit, c.cust_email,
								 c.account_mgr_id, c.date_of_birth, c.marital_status, c.gender, c.income_level)
FROM hroe_normalized.customers c
UNION ALL
SELECT hroe_single.customer_rep_item(c.customer_id, c.account_mgr_id, c.cust_first_name, c.cust_last_name,
									 c.cust_email)
FROM hroe_normalized.customers c
WHERE c.account_mgr_id IS NOT NULL
UNION ALL
SELECT hroe_single.order_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
							  o.sales_rep_id, o.order_total, o.promotion_id, n.shards)
FROM hroe_normalized.orders o, (SELECT hroe_single.shard_count() AS shards) n
UNION ALL
SELECT hroe_single.order_rep_item(o.order_id, o.customer_id, o.order_date, o.order_status, o.order_mode,
								  o.sales_rep_id, o.order_total)
FROM hroe_normalized.orders o
WHERE o.sales_rep_id IS NOT NULL
UNION ALL
SELECT hroe_single.order_line_item(i.order_id, i.line_item_id, i.product_id, o.order_date, o.customer_id,
								   i.quantity, i.unit_price)
FROM hroe_normalized.order_items i
JOIN hroe_normalized.orders o ON o.order_id = i.order_id
UNION ALL
SELECT hroe_single.product_item(p.product_id, p.product_name, p.product_description, p.category_id,
								p.weight_class, p.warranty_period, p.supplier_id, p.product_status,
								p.list_price, p.min_price, p.catalog_url, COALESCE(t.total, 0))
FROM hroe_normalized.product_information p
LEFT JOIN (SELECT i.product_id, sum(i.quantity_on_hand)::bigint AS total
		   FROM hroe_normalized.inventories i GROUP BY 1) t ON t.product_id = p.product_id
UNION ALL
SELECT hroe_single.inventory_item(i.product_id, i.warehouse_id, i.quantity_on_hand)
FROM hroe_normalized.inventories i;
COMMENT ON VIEW hroe_single.expected_items IS
'every item hroe_single should hold (all but the HROE-META settings item), built from hroe_normalized by the item builders: what load_from_normalized inserts and hroe.verify() compares with';

------------------------------------------------------------------------------
-- Row shapes: the columns several read patterns return, decoded from one
-- item.  SQL set-returning functions of one SELECT without FROM, not
-- STRICT, without SET: a pattern calls one LATERAL on the item it reads,
-- PostgreSQL inlines it and pulls it up, so the plan is the one of the
-- expressions written in place (no Function Scan; test/bench/single_plans.sh
-- and sql/single.sql show the plans).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.employee_profile(p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'email'),
	   hroe.item_get_string_list(p_item, 'phone_numbers'),
	   hroe.item_get_text(p_item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'job_id'), hroe.item_get_text(p_item, 'job_title'),
	   hroe.item_get_text(p_item, 'job_start_date')::pg_catalog.date,
	   pg_catalog.round(hroe.item_get_number(p_item, 'salary'), 2),
	   pg_catalog.round(hroe.item_get_number(p_item, 'commission_pct'), 2),
	   hroe.item_get_number(p_item, 'manager_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'department_name'),
	   hroe.item_get_number(p_item, 'location_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'city'), hroe.item_get_text(p_item, 'country_name'),
	   hroe.item_get_text(p_item, 'region_name')
$$;
COMMENT ON FUNCTION hroe_single.employee_profile(hroe.item) IS
'internal: row shape of patterns 1 and 2: an employee profile item''s attributes as hroe_normalized.employee_by_id''s columns (the phone list whole); inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.order_row(p_item hroe.item)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'order_id')::pg_catalog.int8,
	   hroe.item_get_number(p_item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'order_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'order_status'), hroe.item_get_text(p_item, 'order_mode'),
	   hroe.item_get_number(p_item, 'sales_rep_id')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(p_item, 'order_total'), 2)
$$;
COMMENT ON FUNCTION hroe_single.order_row(hroe.item) IS
'internal: row shape of patterns 4, 5 and 10: an order (or order -> rep) item''s attributes as hroe_normalized.customer_orders''s columns, the total rounded to cents; inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.employee_summary(p_item hroe.item)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(p_item, 'first_name'), hroe.item_get_text(p_item, 'last_name'),
	   hroe.item_get_text(p_item, 'hire_date')::pg_catalog.date,
	   hroe.item_get_text(p_item, 'job_id'), hroe.item_get_text(p_item, 'job_title'),
	   hroe.item_get_number(p_item, 'department_id')::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe_single.employee_summary(hroe.item) IS
'internal: row shape of patterns 6, 7 and 11: the employee attributes the HR-CONFIDENTIAL, employee -> warehouse and current-job items share, as hroe_normalized.employees_hired_since''s columns; inlined where it is called LATERAL';

CREATE FUNCTION hroe_single.inventory_row(p_item hroe.item)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(p_item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'warehouse_id')::pg_catalog.int4,
	   hroe.item_get_number(p_item, 'quantity_on_hand')::pg_catalog.int4
$$;
COMMENT ON FUNCTION hroe_single.inventory_row(hroe.item) IS
'internal: row shape of patterns 12 and 17: an inventory item''s attributes; inlined where it is called LATERAL';

------------------------------------------------------------------------------
-- The 17 read patterns: hroe_normalized's names, arguments and result
-- columns.  Each is one GetItem or one Query on the table or on one index
-- (open_orders: the N shards of GSI2, merged), as a STABLE SQL function of
-- one SELECT, not STRICT and without SET, so PostgreSQL inlines it and
-- EXPLAIN shows the index scan.  Attributes are read with hroe.item's typed
-- accessors; money is rounded to two decimals as the normalized columns are.
------------------------------------------------------------------------------

-- 1
CREATE FUNCTION hroe_single.employee_by_id(p_employee_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_profile(i.item) AS x
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
$$;
COMMENT ON FUNCTION hroe_single.employee_by_id(integer) IS
'pattern 1 (GetItem HR-EMPLOYEE#id / EMPLOYEE#id): the employee''s profile item; zero or one row';

-- 2
CREATE FUNCTION hroe_single.employee_by_name(p_full_name text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, email text,
			   phone_numbers text[], hire_date date, job_id text, job_title text,
			   job_start_date date, salary numeric, commission_pct numeric,
			   manager_id integer, department_id integer, department_name text,
			   location_id integer, city text, country_name text, region_name text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_profile(i.item) AS x
WHERE i."GSI3_pk1" OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE-NAME#', p_full_name)
ORDER BY i.pk
$$;
COMMENT ON FUNCTION hroe_single.employee_by_name(text) IS
'pattern 2 (Query GSI3 GSI1_SK = EMPLOYEE-NAME#full name): every employee profile with that full name, ordered by employee_id';

-- 3
CREATE FUNCTION hroe_single.employee_current_job(p_employee_id integer)
RETURNS TABLE (employee_id integer, job_id text, job_title text, department_id integer,
			   department_name text, start_date date)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'employee_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'job_id'), hroe.item_get_text(i.item, 'job_title'),
	   hroe.item_get_number(i.item, 'department_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'department_name'),
	   hroe.item_get_text(i.item, 'start_date')::pg_catalog.date
FROM hroe_single.items i
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key
$$;
COMMENT ON FUNCTION hroe_single.employee_current_job(integer) IS
'pattern 3 (Query PK = HR-EMPLOYEE#id, begins_with(SK, v0#)): the current job, version 0; zero or one row';

-- 4
CREATE FUNCTION hroe_single.customer_orders(p_customer_id integer, p_from date, p_to date, p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id))
  AND ((p_status IS NOT NULL
		AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key(p_status, p_from)::hroe.key
		AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key(p_status, p_to) OPERATOR(pg_catalog.||) '$')::hroe.key)
	   OR (p_status IS NULL
		   AND i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day(p_from)::hroe.key
		   AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day(p_to) OPERATOR(pg_catalog.||) '$')::hroe.key))
ORDER BY CASE WHEN p_status IS NULL THEN i.gsi4_sk ELSE i.gsi1_sk END
$$;
COMMENT ON FUNCTION hroe_single.customer_orders(integer, date, date, text) IS
'pattern 4: the customer''s orders dated from p_from to p_to inclusive, of status p_status (Query GSI1 SK = CUSTOMER#id, GSI1_SK BETWEEN STATUS#from AND STATUS#to$) or of any status when p_status is NULL (Query GSI4 SK = CUSTOMER#id, GSI4_SK BETWEEN from AND to$); for a constant p_status the planner keeps only the condition and index of that case; ordered by order_date, order_id';

-- 5
CREATE FUNCTION hroe_single.open_orders(p_from date, p_to date)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe.sharded_query(NULL::hroe_single.items, 'hroe_single."hroe_single.GSI2"'::pg_catalog.regclass,
						hroe_single.shard_count(), 'between',
						hroe_single.status_key('OPEN', p_from)::hroe.key,
						(hroe_single.status_key('OPEN', p_to) OPERATOR(pg_catalog.||) '$')::hroe.key) AS i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE p_from OPERATOR(pg_catalog.<=) p_to
$$;
COMMENT ON FUNCTION hroe_single.open_orders(date, date) IS
'pattern 5 (GSI2: N Queries GSI2_PK = 0..N-1, GSI1_SK BETWEEN OPEN#from AND OPEN#to$, merged by hroe.sharded_query): every OPEN order dated from p_from to p_to inclusive; ordered by order_date, order_id';

-- 6
CREATE FUNCTION hroe_single.employees_hired_since(p_since date)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key
  AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.day(p_since)::hroe.key
ORDER BY i.gsi1_sk, i.pk
$$;
COMMENT ON FUNCTION hroe_single.employees_hired_since(date) IS
'pattern 6 (Query GSI1 SK = HR-CONFIDENTIAL, GSI1_SK >= date): employees hired on or after p_since; ordered by hire_date, employee_id';

-- 7
CREATE FUNCTION hroe_single.warehouse_employees(p_warehouse_id integer)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10(p_warehouse_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'EMPLOYEE#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.warehouse_employees(integer) IS
'pattern 7 (Query GSI1 SK = WAREHOUSE#id, begins_with(GSI1_SK, EMPLOYEE#)): the employee -> warehouse edges, employees whose department is at the warehouse''s location; ordered by employee_id';

-- 8
CREATE FUNCTION hroe_single.product_order_items(p_product_id integer)
RETURNS TABLE (kind text, product_id integer, warehouse_id integer, quantity_on_hand integer,
			   order_id bigint, line_item_id integer, order_date date, customer_id integer,
			   quantity integer, unit_price numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_text(i.item, 'type'),
	   hroe.item_get_number(i.item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'warehouse_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'quantity_on_hand')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'order_id')::pg_catalog.int8,
	   hroe.item_get_number(i.item, 'line_item_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'order_date')::pg_catalog.date,
	   hroe.item_get_number(i.item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'quantity')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(i.item, 'unit_price'), 2)
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
  AND i.gsi1_sk OPERATOR(hroe.>=) 'INVENTORY#'::hroe.key
  AND i.gsi1_sk OPERATOR(hroe.<=) 'ORDER-LINE$'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.product_order_items(integer) IS
'pattern 8 (Query GSI1 SK = PRODUCT#id, GSI1_SK BETWEEN INVENTORY# AND ORDER-LINE$): the product''s inventory items (kind ''inventory'') then its order lines (kind ''order_line''); ordered by kind, warehouse_id, order_id';

-- 9
CREATE FUNCTION hroe_single.rep_customers(p_employee_id integer)
RETURNS TABLE (customer_id integer, cust_first_name text, cust_last_name text, cust_email text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'customer_id')::pg_catalog.int4,
	   hroe.item_get_text(i.item, 'cust_first_name'), hroe.item_get_text(i.item, 'cust_last_name'),
	   hroe.item_get_text(i.item, 'cust_email')
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.rep_customers(integer) IS
'pattern 9 (Query GSI1 SK = EMPLOYEE#id, begins_with(GSI1_SK, CUSTOMER#)): the customer -> account manager edges; ordered by customer_id';

-- 10
CREATE FUNCTION hroe_single.rep_orders(p_employee_id integer, p_from date, p_to date, p_status text DEFAULT NULL)
RETURNS TABLE (order_id bigint, customer_id integer, order_date date, order_status text,
			   order_mode text, sales_rep_id integer, order_total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.order_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
  AND ((p_status IS NOT NULL
		AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key(p_status, p_from)::hroe.key
		AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key(p_status, p_to) OPERATOR(pg_catalog.||) '$')::hroe.key)
	   OR (p_status IS NULL
		   AND i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day(p_from)::hroe.key
		   AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day(p_to) OPERATOR(pg_catalog.||) '$')::hroe.key))
ORDER BY CASE WHEN p_status IS NULL THEN i.gsi4_sk ELSE i.gsi1_sk END
$$;
COMMENT ON FUNCTION hroe_single.rep_orders(integer, date, date, text) IS
'pattern 10: orders whose sales rep is the employee, dated from p_from to p_to inclusive, of status p_status (Query GSI1 SK = EMPLOYEE#id, GSI1_SK BETWEEN STATUS#from AND STATUS#to$) or of any status when p_status is NULL (Query GSI4 SK = EMPLOYEE#id, GSI4_SK BETWEEN from AND to$); for a constant p_status the planner keeps only the condition and index of that case; ordered by order_date, order_id';

-- 11
CREATE FUNCTION hroe_single.employees_by_title(p_job_title text)
RETURNS TABLE (employee_id integer, first_name text, last_name text, hire_date date,
			   job_id text, job_title text, department_id integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.employee_summary(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('v0#', p_job_title)
  AND i.gsi1_sk IS NOT NULL
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.employees_by_title(text) IS
'pattern 11 (Query GSI1 SK = v0#title): the current-job items, employees whose current job has that title (case-sensitive); ordered by employee_id';

-- 12
CREATE FUNCTION hroe_single.product_inventory_at(p_product_id integer, p_warehouse_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.inventory_row(i.item) AS x
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
$$;
COMMENT ON FUNCTION hroe_single.product_inventory_at(integer, integer) IS
'pattern 12 (GetItem OE-WAREHOUSE#w / PRODUCT#p): quantity on hand of the product at the warehouse; no row when not stocked there';

-- 13
CREATE FUNCTION hroe_single.product_total_inventory(p_product_id integer)
RETURNS TABLE (product_id integer, total_on_hand bigint)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT hroe.item_get_number(i.item, 'product_id')::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'total_on_hand')::pg_catalog.int8
FROM hroe_single.items i
WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
$$;
COMMENT ON FUNCTION hroe_single.product_total_inventory(integer) IS
'pattern 13 (GetItem OE-PRODUCT#id / PRODUCT#id): the product''s maintained total_on_hand (0 when stocked nowhere); no row for an unknown product';

-- 14
CREATE FUNCTION hroe_single.rep_ranking(p_quarter text)
RETURNS TABLE (rank integer, employee_id integer, total numeric)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (pg_catalog.row_number() OVER (ORDER BY i.gsi1_sk DESC))::pg_catalog.int4,
	   hroe.item_get_number(i.item, 'employee_id')::pg_catalog.int4,
	   pg_catalog.round(hroe.item_get_number(i.item, 'total'), 2)
FROM hroe_single.items i
WHERE i.sk OPERATOR(hroe.=) (CASE WHEN hroe.quarter_start(p_quarter) IS NOT NULL
						 THEN ('SALES#' OPERATOR(pg_catalog.||) p_quarter)::hroe.key END)
  AND i.gsi1_sk IS NOT NULL
ORDER BY i.gsi1_sk DESC
$$;
COMMENT ON FUNCTION hroe_single.rep_ranking(text) IS
'pattern 14 (Query GSI1 SK = SALES#quarter, ScanIndexForward = false): the maintained per-rep quarter totals (CANCELED orders excluded), highest first, ties by employee_id; rank 1, 2, 3...';

-- (Patterns 15 and 16 repeat their two-column shape instead of sharing a
-- row-shape function: the shape is set-returning in its select list
-- (generate_subscripts and unnest in step), and PostgreSQL does not pull up
-- a subquery with set-returning functions in its target list: called
-- LATERAL, a shared function turns the plan's one ProjectSet over the index
-- scan into a Nested Loop over a ProjectSet and a Result per item.)
-- 15
CREATE FUNCTION hroe_single.employee_phones(p_employee_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(i.item, 'phone_numbers') AS phones
	  FROM hroe_single.items i
	  WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
		AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))) p
$$;
COMMENT ON FUNCTION hroe_single.employee_phones(integer) IS
'pattern 15 (GetItem HR-EMPLOYEE#id / EMPLOYEE#id, list attribute phone_numbers): the phone numbers with their position (1, 2, ...), in list order';

-- 16
CREATE FUNCTION hroe_single.customer_phones(p_customer_id integer)
RETURNS TABLE (ordinal integer, phone_number text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT pg_catalog.generate_subscripts(p.phones, 1), pg_catalog.unnest(p.phones)
FROM (SELECT hroe.item_get_string_list(i.item, 'phone_numbers') AS phones
	  FROM hroe_single.items i
	  WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10(p_customer_id))
		AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id))) p
$$;
COMMENT ON FUNCTION hroe_single.customer_phones(integer) IS
'pattern 16 (GetItem OE-CUSTOMER#id / CUSTOMER#id, list attribute phone_numbers): the phone numbers with their position (1, 2, ...), in list order';

-- 17
CREATE FUNCTION hroe_single.product_inventories(p_product_id integer)
RETURNS TABLE (product_id integer, warehouse_id integer, quantity_on_hand integer)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT x.*
FROM hroe_single.items i,
	 LATERAL hroe_single.inventory_row(i.item) AS x
WHERE i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
  AND i.gsi1_sk OPERATOR(hroe.^@) 'INVENTORY#'::hroe.key
ORDER BY i.gsi1_sk
$$;
COMMENT ON FUNCTION hroe_single.product_inventories(integer) IS
'pattern 17 (Query GSI1 SK = PRODUCT#id, begins_with(GSI1_SK, INVENTORY#)): the product''s inventory items; ordered by warehouse_id';

------------------------------------------------------------------------------
-- The load hook and the consistency check.
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.load_from_normalized()
RETURNS TABLE (table_name text, row_count bigint)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_open bigint;
	v_avg integer;
	v_shards integer;
	v_rows bigint;
	v_ddl text[];
BEGIN
	TRUNCATE hroe_single.items;
	-- N for GSI2 by the guide's formula: every OPEN order read at once
	-- (MaxRequiredIO) at the average size of an OPEN order item, never
	-- below the guide's 15.
	SELECT count(*) INTO v_open FROM hroe_normalized.orders o WHERE o.order_status = 'OPEN';
	SELECT ceil(avg(hroe.item_size(hroe_single.order_item(o.order_id, o.customer_id, o.order_date,
														  o.order_status, o.order_mode, o.sales_rep_id,
														  o.order_total, o.promotion_id, 15))))::integer
	INTO v_avg
	FROM (SELECT * FROM hroe_normalized.orders o WHERE o.order_status = 'OPEN'
		  ORDER BY o.order_id LIMIT 1000) o;
	v_shards := greatest(15, hroe.shard_count(greatest(v_open, 1), COALESCE(v_avg, 250)));
	INSERT INTO hroe_single.items (item) VALUES (hroe_single.meta_item(v_shards));
	-- the GSIs are built once the items are in, with their names and
	-- comments (hroe.indexes names them)
	v_ddl := hroe.drop_secondary_indexes(ARRAY['hroe_single.items'::regclass]);
	-- in primary-key order: an item collection is stored together, as in DynamoDB
	INSERT INTO hroe_single.items (item)
	SELECT e.item FROM hroe_single.expected_items e
	ORDER BY hroe.item_get_text(e.item, 'PK')::hroe.key, hroe.item_get_text(e.item, 'SK')::hroe.key;
	GET DIAGNOSTICS v_rows = ROW_COUNT;
	PERFORM hroe.execute_ddl(v_ddl);
	PERFORM setval('hroe_single.order_id_seq',
				   COALESCE((SELECT max(o.order_id) FROM hroe_normalized.orders o), 1),
				   EXISTS (SELECT FROM hroe_normalized.orders));
	PERFORM setval('hroe_single.employee_id_seq',
				   COALESCE((SELECT max(e.employee_id) FROM hroe_normalized.employees e), 1),
				   EXISTS (SELECT FROM hroe_normalized.employees));
	ANALYZE hroe_single.items;
	table_name := 'hroe_single.items';
	row_count := v_rows + 1;
	RETURN NEXT;
END
$$;
COMMENT ON FUNCTION hroe_single.load_from_normalized() IS
'hroe.load''s hook: replaces every item of hroe_single with the items built from hroe_normalized (set-based, the GSIs dropped and rebuilt once the items are in), GSI2''s N = max(15, hroe.shard_count(OPEN orders, their average item size)); returns the item count';

CREATE FUNCTION hroe_single.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
WITH e AS (
	SELECT x.item, hroe.item_get_text(x.item, 'PK')::hroe.key AS pk,
		   hroe.item_get_text(x.item, 'SK')::hroe.key AS sk
	FROM hroe_single.expected_items x
), a AS (
	SELECT i.item, i.pk, i.sk FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.<>) 'HROE-META'::hroe.key
)
SELECT 'hroe_single'::pg_catalog.text,
	   COALESCE(e.pk, a.pk)::pg_catalog.text OPERATOR(pg_catalog.||) ' / '
		   OPERATOR(pg_catalog.||) COALESCE(e.sk, a.sk)::pg_catalog.text,
	   CASE WHEN a.item IS NULL
			THEN 'missing ' OPERATOR(pg_catalog.||) hroe.item_get_text(e.item, 'type') OPERATOR(pg_catalog.||) ' item'
			WHEN e.item IS NULL
			THEN 'unexpected ' OPERATOR(pg_catalog.||) COALESCE(hroe.item_get_text(a.item, 'type'), 'untyped')
				 OPERATOR(pg_catalog.||) ' item'
			ELSE 'attribute ' OPERATOR(pg_catalog.||) d.name OPERATOR(pg_catalog.||) ' is '
				 OPERATOR(pg_catalog.||) COALESCE(d.found::pg_catalog.text, 'absent')
				 OPERATOR(pg_catalog.||) ', expected '
				 OPERATOR(pg_catalog.||) COALESCE(d.expected::pg_catalog.text, 'absent') END
FROM e
FULL JOIN a ON a.pk OPERATOR(hroe.=) e.pk AND a.sk OPERATOR(hroe.=) e.sk
LEFT JOIN LATERAL (
	SELECT n.name, hroe.item_get_attribute(e.item, n.name) AS expected,
		   hroe.item_get_attribute(a.item, n.name) AS found
	FROM (SELECT pg_catalog.unnest(hroe.item_attributes(e.item))
		  UNION
		  SELECT pg_catalog.unnest(hroe.item_attributes(a.item))) AS n (name)
	WHERE a.item OPERATOR(hroe.<>) e.item
	  AND hroe.item_get_attribute(e.item, n.name) IS DISTINCT FROM hroe.item_get_attribute(a.item, n.name)
) d ON true
WHERE a.item IS NULL OR e.item IS NULL OR d.name IS NOT NULL
UNION ALL
SELECT 'hroe_single', 'HROE-META / GSI2',
	   'shard_count is ' OPERATOR(pg_catalog.||) COALESCE(s.n::pg_catalog.text, 'absent')
		   OPERATOR(pg_catalog.||) ', expected at least 15'
FROM (SELECT (SELECT hroe.item_get_number(m.item, 'shard_count')
			  FROM hroe_single.items m
			  WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key
				AND m.sk OPERATOR(hroe.=) 'GSI2'::hroe.key) AS n) s
WHERE s.n IS NULL OR s.n OPERATOR(pg_catalog.<) 15
ORDER BY 2, 3
$$;
COMMENT ON FUNCTION hroe_single.verify() IS
'every difference between hroe_single''s items and the items derived from hroe_normalized (missing, unexpected, or one row per differing attribute, index keys, v0 copies and maintained totals included); no row on a consistent database';

CREATE FUNCTION hroe.verify()
RETURNS TABLE (model text, item text, problem text)
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT v.model, v.item, v.problem FROM hroe_single.verify() v
UNION ALL
SELECT v.model, v.item, v.problem FROM hroe_multi.verify() v
$$;
COMMENT ON FUNCTION hroe.verify() IS
'recomputes every derived item of the DynamoDB models from hroe_normalized and reports each mismatch (hroe_single.verify(), then hroe_multi.verify()); no row on a consistent database';

------------------------------------------------------------------------------
-- The 5 write patterns: hroe_normalized's names, arguments, checks and
-- error texts.  Each reads and writes hroe_single only (never the
-- normalized tables), keeps every derived item right in its one
-- transaction, and takes its locks in one canonical order:
--   1. the entity item written (order: an advisory lock on its key, then
--      its order item; employee: the profile item; product: the product
--      item, which carries the maintained total),
--   2. then the derived items of that entity (rep quarter totals last).
-- A write never locks two entities of the same kind, so concurrent writes
-- cannot deadlock and no update is lost (test/specs/single.spec).
------------------------------------------------------------------------------

CREATE FUNCTION hroe_single.check_day(p_what text, p_date date)
RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	IF p_date < date '0001-01-01' OR p_date > date '9999-12-31' THEN
		RAISE EXCEPTION '% % is outside the years 1 to 9999 that hroe_single''s keys can hold', p_what, p_date
			USING ERRCODE = 'datetime_field_overflow',
				  HINT = 'Dates in DynamoDB keys are written YYYY-MM-DD so that byte order is date order.';
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.check_day(text, date) IS
'internal: raises an error for a date that keys written YYYY-MM-DD cannot hold (before year 1 or after 9999)';

CREATE FUNCTION hroe_single.place_order(p_customer_id integer, p_order_date date, p_lines jsonb,
										p_sales_rep_id integer DEFAULT NULL,
										p_status text DEFAULT 'OPEN',
										p_order_id bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_order_id bigint;
	v_products integer[];
	v_quantities integer[];
	v_prices numeric[];
	v_total numeric;
	v_mode text;
	v_quarter text;
BEGIN
	IF p_customer_id IS NULL OR p_order_date IS NULL OR p_lines IS NULL OR p_status IS NULL THEN
		RAISE EXCEPTION 'customer, order date, lines and status must not be NULL'
			USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_order_date) THEN
		RAISE EXCEPTION 'order date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe_single.check_day('order date', p_order_date);
	PERFORM hroe.check_order_status(p_status);
	PERFORM hroe.check_order_id(p_order_id);
	-- GetItem OE-CUSTOMER#id / CUSTOMER#id
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10(p_customer_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10(p_customer_id));
	IF NOT FOUND THEN
		RAISE EXCEPTION 'customer % does not exist', p_customer_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_sales_rep_id IS NOT NULL THEN
		PERFORM FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_sales_rep_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_sales_rep_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_sales_rep_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	PERFORM hroe.check_order_lines(p_lines);

	-- GetItem OE-PRODUCT#id / PRODUCT#id for each product (BatchGetItem)
	SELECT l.products, l.quantities, l.prices, l.total INTO v_products, v_quantities, v_prices, v_total
	FROM hroe.price_order_lines(p_lines,
		(SELECT jsonb_object_agg(id, hroe.item_get_number(i.item, 'list_price'))
		 FROM unnest(hroe.order_line_product_ids(p_lines)) AS id
		 JOIN hroe_single.items i
		   ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(id)))) l;

	v_order_id := COALESCE(p_order_id, nextval('hroe_single.order_id_seq'));
	v_mode := CASE WHEN p_sales_rep_id IS NULL THEN 'online' ELSE 'direct' END;
	-- The order partition must be new (DynamoDB: a condition
	-- attribute_not_exists(PK) on the order item).  Its sort key names the
	-- customer, so the primary key alone cannot refuse a second order of
	-- the same id for another customer: a lock on the partition key makes
	-- the check and the insert atomic.
	PERFORM pg_advisory_xact_lock(hashtextextended('OE-ORDER#' || hroe_single.id19(v_order_id), 0));
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(v_order_id));
	IF FOUND THEN
		RAISE EXCEPTION 'order % already exists', v_order_id USING ERRCODE = 'unique_violation';
	END IF;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.order_item(v_order_id, p_customer_id, p_order_date, p_status, v_mode,
								   p_sales_rep_id, v_total, NULL, hroe_single.shard_count()));
	INSERT INTO hroe_single.items (item)
	SELECT hroe_single.order_line_item(v_order_id, l.n::integer, l.product_id, p_order_date, p_customer_id,
									   l.quantity, l.unit_price)
	FROM unnest(v_products, v_prices, v_quantities) WITH ORDINALITY AS l (product_id, unit_price, quantity, n);
	IF p_sales_rep_id IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.order_rep_item(v_order_id, p_customer_id, p_order_date, p_status, v_mode,
										   p_sales_rep_id, v_total));
		IF p_status <> 'CANCELED' THEN
			-- the rep's quarter total, created or added to atomically
			v_quarter := hroe_single.quarter_of(p_order_date);
			INSERT INTO hroe_single.items AS i (item)
			VALUES (hroe_single.rep_sales_item(p_sales_rep_id, v_quarter, v_total, 1))
			ON CONFLICT (pk, sk) DO UPDATE
			SET item = hroe_single.rep_sales_item(p_sales_rep_id, v_quarter,
												  hroe.item_get_number(i.item, 'total') + v_total,
												  hroe.item_get_number(i.item, 'order_count')::bigint + 1);
		END IF;
	END IF;
	RETURN v_order_id;
END
$$;
COMMENT ON FUNCTION hroe_single.place_order(integer, date, jsonb, integer, text, bigint) IS
'write pattern: places an order with its lines, as hroe_normalized.place_order; writes the order item (in GSI2 when OPEN), its lines, its order -> rep edge and adds it to the rep''s quarter total (unless CANCELED), in one transaction';

CREATE FUNCTION hroe_single.change_order_status(p_order_id bigint, p_status text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_doc jsonb;
	v_old text;
	v_rep integer;
	v_date date;
	v_total numeric;
	v_quarter text;
	v_sales hroe.item;
BEGIN
	PERFORM hroe.check_order_status(p_status);
	-- Query PK = OE-ORDER#id, begins_with(SK, CUSTOMER#): the order item
	SELECT i.item INTO v_item FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
	  AND i.sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'order % does not exist', p_order_id USING ERRCODE = 'no_data_found';
	END IF;
	v_doc := hroe.item_to_document(v_item);
	v_old := v_doc ->> 'order_status';
	PERFORM hroe.check_status_change(p_order_id, v_old, p_status);
	v_rep := (v_doc ->> 'sales_rep_id')::integer;
	v_date := (v_doc ->> 'order_date')::date;
	v_total := (v_doc ->> 'order_total')::numeric;
	-- the order item: new GSI1_SK; out of GSI2 once no longer OPEN
	UPDATE hroe_single.items i
	SET item = hroe_single.order_item(p_order_id, (v_doc ->> 'customer_id')::integer, v_date, p_status,
									  v_doc ->> 'order_mode', v_rep, v_total,
									  (v_doc ->> 'promotion_id')::integer, hroe_single.shard_count())
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10((v_doc ->> 'customer_id')::integer));
	IF v_rep IS NOT NULL THEN
		UPDATE hroe_single.items i
		SET item = hroe_single.order_rep_item(p_order_id, (v_doc ->> 'customer_id')::integer, v_date, p_status,
											  v_doc ->> 'order_mode', v_rep, v_total)
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-ORDER#', hroe_single.id19(p_order_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(v_rep));
		IF p_status = 'CANCELED' THEN
			-- a canceled order leaves the rep's quarter total
			v_quarter := hroe_single.quarter_of(v_date);
			SELECT i.item INTO v_sales FROM hroe_single.items i
			WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
			  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter)
			FOR UPDATE;
			IF hroe.item_get_number(v_sales, 'order_count') <= 1 THEN
				DELETE FROM hroe_single.items i
				WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
				  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter);
			ELSE
				UPDATE hroe_single.items i
				SET item = hroe_single.rep_sales_item(v_rep, v_quarter,
													  hroe.item_get_number(v_sales, 'total') - v_total,
													  hroe.item_get_number(v_sales, 'order_count')::bigint - 1)
				WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(v_rep))
				  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('SALES#', v_quarter);
			END IF;
		END IF;
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.change_order_status(bigint, text) IS
'write pattern: moves an order along OPEN -> SHIPPED -> CLOSED or OPEN -> CANCELED, as hroe_normalized.change_order_status; rewrites the order item (GSI1_SK, GSI2 membership) and its order -> rep edge, and takes a canceled order out of the rep''s quarter total';

CREATE FUNCTION hroe_single.change_employee_job(p_employee_id integer, p_job_id text,
												p_department_id integer, p_start_date date)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_item hroe.item;
	v_emp jsonb;
	v_title text;
	v_dept jsonb;
	v_old_start date;
	v_phones text[];
BEGIN
	IF p_employee_id IS NULL OR p_job_id IS NULL OR p_start_date IS NULL THEN
		RAISE EXCEPTION 'employee, job and start date must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	IF NOT isfinite(p_start_date) THEN
		RAISE EXCEPTION 'start date must be finite' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	PERFORM hroe_single.check_day('start date', p_start_date);
	-- the profile item first: it serialises every change to the employee
	SELECT i.item INTO v_item FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id))
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'employee % does not exist', p_employee_id USING ERRCODE = 'no_data_found';
	END IF;
	v_emp := hroe.item_to_document(v_item);
	SELECT hroe.item_get_text(i.item, 'job_title') INTO v_title FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-JOB#', p_job_id)
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB#', p_job_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		SELECT hroe.item_to_document(i.item) INTO v_dept FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-DEPARTMENT#', hroe_single.id10(p_department_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('DEPARTMENT#', hroe_single.id10(p_department_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_job_id = v_emp ->> 'job_id' AND p_department_id IS NOT DISTINCT FROM (v_emp ->> 'department_id')::integer THEN
		RAISE EXCEPTION 'employee % already holds job % in department %', p_employee_id, p_job_id, p_department_id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_old_start := (v_emp ->> 'job_start_date')::date;
	IF p_start_date <= v_old_start THEN
		RAISE EXCEPTION 'the new job of employee % must start after %, when the current job started', p_employee_id, v_old_start
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	v_phones := ARRAY(SELECT jsonb_array_elements_text(v_emp -> 'phone_numbers'));

	-- the job versions: the current one ends, a new one begins; v0 follows
	UPDATE hroe_single.items i
	SET item = hroe_single.job_version_item(p_employee_id, v_old_start, p_start_date - 1, v_emp ->> 'job_id',
											v_emp ->> 'job_title', (v_emp ->> 'department_id')::integer,
											v_emp ->> 'department_name')
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB-VERSION#', hroe_single.day(v_old_start));
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.job_version_item(p_employee_id, p_start_date, NULL, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name'));
	DELETE FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.current_job_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
										 (v_emp ->> 'hire_date')::date, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name', p_start_date));
	-- the profile and HR-CONFIDENTIAL carry the job and department
	UPDATE hroe_single.items i
	SET item = hroe_single.employee_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
										 v_emp ->> 'email', v_phones, (v_emp ->> 'hire_date')::date, p_job_id,
										 v_title, p_start_date, (v_emp ->> 'salary')::numeric,
										 (v_emp ->> 'commission_pct')::numeric, (v_emp ->> 'manager_id')::integer,
										 p_department_id, v_dept ->> 'department_name',
										 (v_dept ->> 'location_id')::integer, v_dept ->> 'city',
										 v_dept ->> 'country_name', v_dept ->> 'region_name')
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_employee_id));
	UPDATE hroe_single.items i
	SET item = hroe_single.employee_confidential_item(p_employee_id, v_emp ->> 'first_name', v_emp ->> 'last_name',
													  (v_emp ->> 'hire_date')::date, p_job_id, v_title,
													  p_department_id, (v_emp ->> 'salary')::numeric,
													  (v_emp ->> 'commission_pct')::numeric)
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key;
	-- the employee -> warehouse edge follows the department's location
	DELETE FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_employee_id))
	  AND i.sk OPERATOR(hroe.^@) 'WAREHOUSE#'::hroe.key;
	IF v_dept ->> 'warehouse_id' IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.employee_warehouse_item(p_employee_id, (v_dept ->> 'warehouse_id')::integer,
													v_emp ->> 'first_name', v_emp ->> 'last_name',
													(v_emp ->> 'hire_date')::date, p_job_id, v_title,
													p_department_id));
	END IF;
END
$$;
COMMENT ON FUNCTION hroe_single.change_employee_job(integer, text, integer, date) IS
'write pattern: gives an employee a new job from p_start_date, as hroe_normalized.change_employee_job; the current JOB-VERSION item ends the day before, a new one begins, the v0 copy, the profile, HR-CONFIDENTIAL and the employee -> warehouse edge follow, in one transaction';

CREATE FUNCTION hroe_single.adjust_inventory(p_product_id integer, p_warehouse_id integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_product hroe.item;
	v_on_hand integer;
	v_new integer;
BEGIN
	IF p_product_id IS NULL OR p_warehouse_id IS NULL OR p_delta IS NULL THEN
		RAISE EXCEPTION 'product, warehouse and change must not be NULL' USING ERRCODE = 'null_value_not_allowed';
	END IF;
	-- the product item first: it holds the total, and serialises every
	-- change to the product's stock
	SELECT i.item INTO v_product FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id))
	FOR UPDATE;
	IF NOT FOUND THEN
		RAISE EXCEPTION 'product % does not exist', p_product_id USING ERRCODE = 'no_data_found';
	END IF;
	PERFORM FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10(p_warehouse_id));
	IF NOT FOUND THEN
		RAISE EXCEPTION 'warehouse % does not exist', p_warehouse_id USING ERRCODE = 'no_data_found';
	END IF;
	SELECT hroe.item_get_number(i.item, 'quantity_on_hand')::integer INTO v_on_hand FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	IF p_delta < 0 AND (v_on_hand IS NULL OR v_on_hand + p_delta < 0) THEN
		RAISE EXCEPTION 'insufficient stock of product % at warehouse %', p_product_id, p_warehouse_id
			USING ERRCODE = 'check_violation',
				  DETAIL = format('On hand: %s; requested change: %s.', COALESCE(v_on_hand, 0), p_delta);
	END IF;
	v_new := COALESCE(v_on_hand, 0) + p_delta;
	IF v_on_hand IS NULL THEN
		INSERT INTO hroe_single.items (item) VALUES (hroe_single.inventory_item(p_product_id, p_warehouse_id, v_new));
	ELSE
		UPDATE hroe_single.items i
		SET item = hroe_single.inventory_item(p_product_id, p_warehouse_id, v_new)
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10(p_warehouse_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	END IF;
	UPDATE hroe_single.items i
	SET item = v_product OPERATOR(hroe.||)
			   hroe.item_from_document(jsonb_build_object('total_on_hand',
														  hroe.item_get_number(v_product, 'total_on_hand') + p_delta))
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10(p_product_id))
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10(p_product_id));
	RETURN v_new;
END
$$;
COMMENT ON FUNCTION hroe_single.adjust_inventory(integer, integer, integer) IS
'write pattern: adds p_delta (negative to remove) to the stock of a product at a warehouse, as hroe_normalized.adjust_inventory, and to the product''s maintained total_on_hand, in one transaction under the product item''s lock; returns the new quantity on hand';

CREATE FUNCTION hroe_single.hire_employee(p_first_name text, p_last_name text, p_email text,
										  p_hire_date date, p_job_id text, p_department_id integer,
										  p_phone_numbers text[] DEFAULT '{}',
										  p_manager_id integer DEFAULT NULL,
										  p_salary numeric DEFAULT NULL,
										  p_commission_pct numeric DEFAULT NULL,
										  p_employee_id integer DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_employee_id integer;
	v_other integer;
	v_title text;
	v_dept jsonb;
BEGIN
	PERFORM hroe.check_hire_arguments(p_first_name, p_last_name, p_email, p_hire_date, p_job_id,
									  p_phone_numbers, p_salary, p_commission_pct, p_employee_id);
	PERFORM hroe_single.check_day('hire date', p_hire_date);
	SELECT hroe.item_get_text(i.item, 'job_title') INTO v_title FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-JOB#', p_job_id)
	  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('JOB#', p_job_id);
	IF NOT FOUND THEN
		RAISE EXCEPTION 'job "%" does not exist', p_job_id USING ERRCODE = 'no_data_found';
	END IF;
	IF p_department_id IS NOT NULL THEN
		SELECT hroe.item_to_document(i.item) INTO v_dept FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-DEPARTMENT#', hroe_single.id10(p_department_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('DEPARTMENT#', hroe_single.id10(p_department_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'department % does not exist', p_department_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	IF p_manager_id IS NOT NULL THEN
		PERFORM FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10(p_manager_id))
		  AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10(p_manager_id));
		IF NOT FOUND THEN
			RAISE EXCEPTION 'employee % does not exist', p_manager_id USING ERRCODE = 'no_data_found';
		END IF;
	END IF;
	SELECT hroe.item_get_number(i.item, 'employee_id')::integer INTO v_other FROM hroe_single.items i
	WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMAIL#', p_email)
	  AND i.sk OPERATOR(hroe.=) 'EMAIL'::hroe.key;
	IF FOUND THEN
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	v_employee_id := COALESCE(p_employee_id, nextval('hroe_single.employee_id_seq')::integer);
	-- the email item makes the address unique (a concurrent hire with the
	-- same address waits on it, then finds it taken)
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.employee_email_item(p_email, v_employee_id))
	ON CONFLICT (pk, sk) DO NOTHING;
	IF NOT FOUND THEN
		SELECT hroe.item_get_number(i.item, 'employee_id')::integer INTO v_other FROM hroe_single.items i
		WHERE i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMAIL#', p_email)
		  AND i.sk OPERATOR(hroe.=) 'EMAIL'::hroe.key;
		RAISE EXCEPTION 'email "%" is already used by employee %', p_email, v_other USING ERRCODE = 'unique_violation';
	END IF;
	INSERT INTO hroe_single.items (item)
	VALUES (hroe_single.employee_item(v_employee_id, p_first_name, p_last_name, p_email, p_phone_numbers,
									  p_hire_date, p_job_id, v_title, p_hire_date, p_salary, p_commission_pct,
									  p_manager_id, p_department_id, v_dept ->> 'department_name',
									  (v_dept ->> 'location_id')::integer, v_dept ->> 'city',
									  v_dept ->> 'country_name', v_dept ->> 'region_name')),
		   (hroe_single.employee_confidential_item(v_employee_id, p_first_name, p_last_name, p_hire_date,
												   p_job_id, v_title, p_department_id, p_salary, p_commission_pct)),
		   (hroe_single.job_version_item(v_employee_id, p_hire_date, NULL, p_job_id, v_title, p_department_id,
										 v_dept ->> 'department_name')),
		   (hroe_single.current_job_item(v_employee_id, p_first_name, p_last_name, p_hire_date, p_job_id,
										 v_title, p_department_id, v_dept ->> 'department_name', p_hire_date));
	IF v_dept ->> 'warehouse_id' IS NOT NULL THEN
		INSERT INTO hroe_single.items (item)
		VALUES (hroe_single.employee_warehouse_item(v_employee_id, (v_dept ->> 'warehouse_id')::integer,
													p_first_name, p_last_name, p_hire_date, p_job_id, v_title,
													p_department_id));
	END IF;
	RETURN v_employee_id;
END
$$;
COMMENT ON FUNCTION hroe_single.hire_employee(text, text, text, date, text, integer, text[], integer, numeric, numeric, integer) IS
'write pattern: adds an employee, as hroe_normalized.hire_employee: the profile, HR-CONFIDENTIAL, the first JOB-VERSION and its v0 copy, the email uniqueness item and the employee -> warehouse edge, in one transaction; returns the id';

-- hroe.compare: every access pattern on every model present, side by side
-- (README "The comparison").  The catalogue hroe.access_patterns names the
-- patterns and draws their arguments from hroe_normalized; the catalogue
-- hroe.model_requests spells, for each DynamoDB model, the request a call
-- amounts to and the items it reads (for capacity units); hroe.compare runs
-- the calls and hroe.compare_report prints them for a terminal.

CREATE TABLE hroe.access_patterns (
	pattern_no integer PRIMARY KEY,
	pattern text NOT NULL UNIQUE,
	kind text NOT NULL CHECK (kind IN ('read', 'write')),
	arguments_sql text NOT NULL,
	check_sql text
);
COMMENT ON TABLE hroe.access_patterns IS
'hroe.compare''s catalogue of access patterns: number (1-17 reads, 21-25 writes), function name (the same in every model), kind, arguments_sql (a query over hroe_normalized returning (case_label text, args text[]): deterministic argument sets, each cast to the function''s parameter types) and, for writes, check_sql (a format() template of reads run after the write, %1$I the model schema, args as %2$L, %3$L...)';

INSERT INTO hroe.access_patterns VALUES
(1, 'employee_by_id', 'read', $q$
SELECT 'busiest rep', ARRAY[(SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown id', ARRAY['0']$q$, NULL),
(2, 'employee_by_name', 'read', $q$
SELECT 'most repeated name', ARRAY[(SELECT concat_ws(' ', first_name, last_name) FROM hroe_normalized.employees
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)]
UNION ALL SELECT 'unknown name', ARRAY['Nobody Here']$q$, NULL),
(3, 'employee_current_job', 'read', $q$
SELECT 'changed job', ARRAY[(SELECT min(employee_id) FROM hroe_normalized.job_history)::text]
UNION ALL SELECT 'unknown id', ARRAY['0']$q$, NULL),
(4, 'customer_orders', 'read', $q$
SELECT 'busiest customer, all dates', ARRAY[c::text, '2020-01-01', '2025-12-31', NULL]
FROM (SELECT customer_id FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(c)
UNION ALL SELECT 'busiest customer, CLOSED in 2024', ARRAY[c::text, '2024-01-01', '2024-12-31', 'CLOSED']
FROM (SELECT customer_id FROM hroe_normalized.orders GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(c)
UNION ALL SELECT 'no orders in range', ARRAY['1', '2019-01-01', '2019-12-31', NULL]$q$, NULL),
(5, 'open_orders', 'read', $q$
SELECT 'December 2025', ARRAY['2025-12-01', '2025-12-31']
UNION ALL SELECT 'one day (boundary)', ARRAY[(SELECT max(order_date) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text,
	(SELECT max(order_date) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text]
UNION ALL SELECT 'empty range', ARRAY['2019-01-01', '2019-12-31']$q$, NULL),
(6, 'employees_hired_since', 'read', $q$
SELECT 'since 2020', ARRAY['2020-01-01']
UNION ALL SELECT 'none since', ARRAY['2030-01-01']$q$, NULL),
(7, 'warehouse_employees', 'read', $q$
SELECT 'busiest warehouse', ARRAY[(SELECT w.warehouse_id FROM hroe_normalized.warehouses w
	JOIN hroe_normalized.departments d ON d.location_id = w.location_id
	JOIN hroe_normalized.employees e ON e.department_id = d.department_id
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown warehouse', ARRAY['0']$q$, NULL),
(8, 'product_order_items', 'read', $q$
SELECT 'busiest product', ARRAY[(SELECT product_id FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(9, 'rep_customers', 'read', $q$
SELECT 'busiest account manager', ARRAY[(SELECT account_mgr_id FROM hroe_normalized.customers WHERE account_mgr_id IS NOT NULL
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown employee', ARRAY['0']$q$, NULL),
(10, 'rep_orders', 'read', $q$
SELECT 'busiest rep, 2025', ARRAY[r::text, '2025-01-01', '2025-12-31', NULL]
FROM (SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(r)
UNION ALL SELECT 'busiest rep, OPEN, all dates', ARRAY[r::text, '2020-01-01', '2025-12-31', 'OPEN']
FROM (SELECT sales_rep_id FROM hroe_normalized.orders WHERE sales_rep_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) b(r)$q$, NULL),
(11, 'employees_by_title', 'read', $q$
SELECT 'most common title', ARRAY[(SELECT j.job_title FROM hroe_normalized.employees e JOIN hroe_normalized.jobs j USING (job_id)
	GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)]
UNION ALL SELECT 'unknown title', ARRAY['No Such Title']$q$, NULL),
(12, 'product_inventory_at', 'read', $q$
SELECT 'stocked', (SELECT ARRAY[product_id::text, warehouse_id::text] FROM hroe_normalized.inventories ORDER BY product_id, warehouse_id LIMIT 1)
UNION ALL SELECT 'not stocked there', (SELECT ARRAY[p.product_id::text, w.warehouse_id::text]
	FROM hroe_normalized.product_information p CROSS JOIN hroe_normalized.warehouses w
	WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id AND i.warehouse_id = w.warehouse_id)
	ORDER BY p.product_id, w.warehouse_id LIMIT 1)$q$, NULL),
(13, 'product_total_inventory', 'read', $q$
SELECT 'busiest product', ARRAY[(SELECT product_id FROM hroe_normalized.order_items GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(14, 'rep_ranking', 'read', $q$
SELECT 'quarter 2025-Q3', ARRAY['2025-Q3']
UNION ALL SELECT 'quarter without orders', ARRAY['2019-Q1']$q$, NULL),
(15, 'employee_phones', 'read', $q$
SELECT 'most phones', ARRAY[(SELECT employee_id FROM hroe_normalized.employees
	ORDER BY cardinality(phone_numbers) DESC, 1 LIMIT 1)::text]$q$, NULL),
(16, 'customer_phones', 'read', $q$
SELECT 'most phones', ARRAY[(SELECT customer_id FROM hroe_normalized.customers
	ORDER BY cardinality(phone_numbers) DESC, 1 LIMIT 1)::text]$q$, NULL),
(17, 'product_inventories', 'read', $q$
SELECT 'most stocked product', ARRAY[(SELECT product_id FROM hroe_normalized.inventories GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)::text]
UNION ALL SELECT 'unknown product', ARRAY['0']$q$, NULL),
(21, 'place_order', 'write', $q$
SELECT 'two lines, with a rep', ARRAY[c::text, '2025-12-30',
	jsonb_build_array(jsonb_build_object('product_id', p1, 'quantity', 2), jsonb_build_object('product_id', p2, 'quantity', 1))::text,
	r::text, 'OPEN', (SELECT max(order_id) + 1 FROM hroe_normalized.orders)::text]
FROM (SELECT min(customer_id) FROM hroe_normalized.customers) a(c),
	 (SELECT min(product_id), max(product_id) FROM hroe_normalized.product_information WHERE product_status = 'orderable') b(p1, p2),
	 (SELECT min(sales_rep_id) FROM hroe_normalized.orders) d(r)$q$,
 $q$SELECT * FROM %1$I.customer_orders(%2$L, %3$L, %3$L) UNION ALL SELECT * FROM %1$I.open_orders(%3$L, %3$L)$q$),
(22, 'change_order_status', 'write', $q$
SELECT 'OPEN to SHIPPED', ARRAY[(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN')::text, 'SHIPPED']
UNION ALL SELECT 'OPEN to CANCELED', ARRAY[(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL)::text, 'CANCELED']$q$,
 $q$SELECT o.* FROM hroe_normalized.orders n, %1$I.customer_orders(n.customer_id, n.order_date, n.order_date) o WHERE n.order_id = %2$L::bigint
	UNION ALL SELECT o.* FROM hroe_normalized.orders n, %1$I.open_orders(n.order_date, n.order_date) o WHERE n.order_id = %2$L::bigint$q$),
(23, 'change_employee_job', 'write', $q$
SELECT 'new job in another department', ARRAY[e.employee_id::text, j.job_id, d.department_id::text, '2026-01-05']
FROM (SELECT employee_id, job_id, department_id FROM hroe_normalized.employees ORDER BY employee_id LIMIT 1 OFFSET 10) e,
	 LATERAL (SELECT job_id FROM hroe_normalized.jobs WHERE job_id <> e.job_id ORDER BY job_id LIMIT 1) j,
	 LATERAL (SELECT department_id FROM hroe_normalized.departments WHERE department_id IS DISTINCT FROM e.department_id ORDER BY 1 LIMIT 1) d$q$,
 $q$SELECT to_jsonb(c) FROM %1$I.employee_current_job(%2$L) c UNION ALL SELECT to_jsonb(t) FROM %1$I.employees_by_title((SELECT job_title FROM hroe_normalized.jobs WHERE job_id = %3$L)) t$q$),
(24, 'adjust_inventory', 'write', $q$
SELECT 'add stock', (SELECT ARRAY[product_id::text, warehouse_id::text, '5'] FROM hroe_normalized.inventories ORDER BY product_id, warehouse_id LIMIT 1)
UNION ALL SELECT 'stock a new warehouse', (SELECT ARRAY[p.product_id::text, w.warehouse_id::text, '3']
	FROM hroe_normalized.product_information p CROSS JOIN hroe_normalized.warehouses w
	WHERE NOT EXISTS (SELECT FROM hroe_normalized.inventories i WHERE i.product_id = p.product_id AND i.warehouse_id = w.warehouse_id)
	ORDER BY p.product_id, w.warehouse_id LIMIT 1)$q$,
 $q$SELECT to_jsonb(i) FROM %1$I.product_inventories(%2$L) i UNION ALL SELECT to_jsonb(t) FROM %1$I.product_total_inventory(%2$L) t$q$),
(25, 'hire_employee', 'write', $q$
SELECT 'a clerk with two phones', ARRAY['Ada', 'Lovelace', 'ALOVELAC', '2026-01-05', 'ST_CLERK',
	(SELECT min(department_id) FROM hroe_normalized.departments)::text, '{515.123.4567,515.123.4568}',
	(SELECT min(employee_id) FROM hroe_normalized.employees)::text, '2500.00', NULL,
	(SELECT max(employee_id) + 1 FROM hroe_normalized.employees)::text]$q$,
 $q$SELECT to_jsonb(e) FROM %1$I.employee_by_id(%12$L) e UNION ALL SELECT to_jsonb(p) FROM %1$I.employee_phones(%12$L) p$q$);

CREATE TABLE hroe.model_requests (
	model text NOT NULL,
	pattern text NOT NULL REFERENCES hroe.access_patterns (pattern),
	request_sql text NOT NULL,
	items_sql text NOT NULL,
	PRIMARY KEY (model, pattern)
);
COMMENT ON TABLE hroe.model_requests IS
'hroe.compare''s catalogue of DynamoDB requests, per model and read pattern: request_sql, an expression of $1 (the call''s arguments as text[]) spelling the request as DynamoDB spells it; items_sql, a query of $1 returning (request integer, operation text, item_size integer) with one row per item the request evaluates (item_size NULL for a request that finds nothing), its hroe.item_size, or for a Query on a GSI its entry''s hroe.index_entry_size, as the operations size what they read; from which the read capacity is computed (section 6 of the DynamoDB semantics). Rows exist only for the models installed';

-- The rows for hroe_single and hroe_multi go in only when those schemas
-- exist (the models are optional parts of the comparison).
INSERT INTO hroe.model_requests
SELECT v.* FROM (VALUES
-- hroe_single: one table, GSI1 (SK, GSI1_SK), GSI2 (shard, GSI1_SK), GSI3 (GSI1_SK), GSI4 (SK, GSI4_SK)
('hroe_single', 'employee_by_id',
 $q$format('GetItem: PK = HR-EMPLOYEE#%1$s AND SK = EMPLOYEE#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'employee_by_name',
 $q$format('Query GSI3: GSI1_SK = EMPLOYEE-NAME#%s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI3') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i."GSI3_pk1" OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE-NAME#', $1[1])$q$),
('hroe_single', 'employee_current_job',
 $q$format('Query: PK = HR-EMPLOYEE#%s AND begins_with(SK, v0#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.^@) 'v0#'::hroe.key$q$),
('hroe_single', 'customer_orders',
 $q$CASE WHEN $1[4] IS NULL
	THEN format('Query GSI4: SK = CUSTOMER#%s AND GSI4_SK BETWEEN %s AND %s$', lpad($1[1], 10, '0'), $1[2], $1[3])
	ELSE format('Query GSI1: SK = CUSTOMER#%s AND GSI1_SK BETWEEN %s#%s AND %s#%s$', lpad($1[1], 10, '0'), $1[4], $1[2], $1[4], $1[3]) END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', CASE WHEN $1[4] IS NULL THEN 'GSI4' ELSE 'GSI1' END) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10($1[1]::int))
	AND CASE WHEN $1[4] IS NULL
		THEN i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day($1[2]::date)::hroe.key
		 AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day($1[3]::date) || '$')::hroe.key
		ELSE i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key($1[4], $1[2]::date)::hroe.key
		 AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key($1[4], $1[3]::date) || '$')::hroe.key END$q$),
('hroe_single', 'open_orders',
 $q$format('%s x Query GSI2: GSI2_PK = 0..%s AND GSI1_SK BETWEEN OPEN#%s AND OPEN#%s$ (merged)', hroe_single.shard_count(), hroe_single.shard_count() - 1, $1[1], $1[2])$q$,
 $q$SELECT s + 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI2') FROM generate_series(0, hroe_single.shard_count() - 1) s LEFT JOIN hroe_single.items i
	ON i.gsi2_pk = s AND $1[1]::date <= $1[2]::date
	AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key('OPEN', $1[1]::date)::hroe.key
	AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key('OPEN', $1[2]::date) || '$')::hroe.key$q$),
('hroe_single', 'employees_hired_since',
 $q$format('Query GSI1: SK = HR-CONFIDENTIAL AND GSI1_SK >= %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) 'HR-CONFIDENTIAL'::hroe.key AND i.gsi1_sk OPERATOR(hroe.>=) hroe_single.day($1[1]::date)::hroe.key$q$),
('hroe_single', 'warehouse_employees',
 $q$format('Query GSI1: SK = WAREHOUSE#%s AND begins_with(GSI1_SK, EMPLOYEE#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('WAREHOUSE#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'EMPLOYEE#'::hroe.key$q$),
('hroe_single', 'product_order_items',
 $q$format('Query GSI1: SK = PRODUCT#%s AND GSI1_SK BETWEEN INVENTORY# AND ORDER-LINE$', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))
	AND i.gsi1_sk OPERATOR(hroe.>=) 'INVENTORY#'::hroe.key AND i.gsi1_sk OPERATOR(hroe.<=) 'ORDER-LINE$'::hroe.key$q$),
('hroe_single', 'rep_customers',
 $q$format('Query GSI1: SK = EMPLOYEE#%s AND begins_with(GSI1_SK, CUSTOMER#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'CUSTOMER#'::hroe.key$q$),
('hroe_single', 'rep_orders',
 $q$CASE WHEN $1[4] IS NULL
	THEN format('Query GSI4: SK = EMPLOYEE#%s AND GSI4_SK BETWEEN %s AND %s$', lpad($1[1], 10, '0'), $1[2], $1[3])
	ELSE format('Query GSI1: SK = EMPLOYEE#%s AND GSI1_SK BETWEEN %s#%s AND %s#%s$', lpad($1[1], 10, '0'), $1[4], $1[2], $1[4], $1[3]) END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', CASE WHEN $1[4] IS NULL THEN 'GSI4' ELSE 'GSI1' END) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND CASE WHEN $1[4] IS NULL
		THEN i.gsi4_sk OPERATOR(hroe.>=) hroe_single.day($1[2]::date)::hroe.key
		 AND i.gsi4_sk OPERATOR(hroe.<=) (hroe_single.day($1[3]::date) || '$')::hroe.key
		ELSE i.gsi1_sk OPERATOR(hroe.>=) hroe_single.status_key($1[4], $1[2]::date)::hroe.key
		 AND i.gsi1_sk OPERATOR(hroe.<=) (hroe_single.status_key($1[4], $1[3]::date) || '$')::hroe.key END$q$),
('hroe_single', 'employees_by_title',
 $q$format('Query GSI1: SK = v0#%s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('v0#', $1[1]) AND i.gsi1_sk IS NOT NULL$q$),
('hroe_single', 'product_inventory_at',
 $q$format('GetItem: PK = OE-WAREHOUSE#%s AND SK = PRODUCT#%s', lpad($1[2], 10, '0'), lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-WAREHOUSE#', hroe_single.id10($1[2]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'product_total_inventory',
 $q$format('GetItem: PK = OE-PRODUCT#%1$s AND SK = PRODUCT#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-PRODUCT#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'rep_ranking',
 $q$format('Query GSI1: SK = SALES#%s, ScanIndexForward = false', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) ('SALES#' || $1[1])::hroe.key AND i.gsi1_sk IS NOT NULL$q$),
('hroe_single', 'employee_phones',
 $q$format('GetItem: PK = HR-EMPLOYEE#%1$s AND SK = EMPLOYEE#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('HR-EMPLOYEE#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('EMPLOYEE#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'customer_phones',
 $q$format('GetItem: PK = OE-CUSTOMER#%1$s AND SK = CUSTOMER#%1$s', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(i.item) FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.pk OPERATOR(hroe.=) hroe_single.make_key('OE-CUSTOMER#', hroe_single.id10($1[1]::int))
	AND i.sk OPERATOR(hroe.=) hroe_single.make_key('CUSTOMER#', hroe_single.id10($1[1]::int))$q$),
('hroe_single', 'product_inventories',
 $q$format('Query GSI1: SK = PRODUCT#%s AND begins_with(GSI1_SK, INVENTORY#)', lpad($1[1], 10, '0'))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(i.item, 'hroe_single', 'GSI1') FROM (SELECT) r LEFT JOIN hroe_single.items i
	ON i.sk OPERATOR(hroe.=) hroe_single.make_key('PRODUCT#', hroe_single.id10($1[1]::int)) AND i.gsi1_sk OPERATOR(hroe.^@) 'INVENTORY#'::hroe.key$q$),
-- hroe_multi: AWS's 2025 tables Employee, Customer, Order, Product, RepQuarterTotal and their GSIs
('hroe_multi', 'employee_by_id',
 $q$format('GetItem Employee: employee_id = %s', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'employee_by_name',
 $q$format('Query Employee.EmployeeByName: name = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByName') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByName_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND e."EmployeeByName_sk1" IS NOT NULL$q$),
('hroe_multi', 'employee_current_job',
 $q$format('GetItem Employee: employee_id = %s, ProjectionExpression job_id, job_title, department_id, department_name, job_start_date', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'customer_orders',
 $q$format('Query Order.OrderByCustomerDate: customer_id = %s AND order_date BETWEEN %s AND %s', hroe_multi.customer_key($1[1]::int), $1[2], $1[3])
	|| CASE WHEN $1[4] IS NOT NULL THEN format(', FilterExpression status = %s', $1[4]) ELSE '' END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OrderByCustomerDate') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."OrderByCustomerDate_pk1" OPERATOR(hroe.=) hroe_multi.customer_key($1[1]::int)
	AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[2]::date)
	AND o."OrderByCustomerDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[3]::date)$q$),
('hroe_multi', 'open_orders',
 $q$format('5 x Query Order.OpenOrdersByDate: (status, shard) = (OPEN, 0..4) AND order_date BETWEEN %s AND %s (merged)', $1[1], $1[2])$q$,
 $q$SELECT s + 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OpenOrdersByDate') FROM generate_series(0, 4) s LEFT JOIN hroe_multi."Order" o
	ON o."OpenOrdersByDate_pk1" OPERATOR(hroe.=) 'OPEN'::hroe.key AND o."OpenOrdersByDate_pk2" = s AND $1[1]::date <= $1[2]::date
	AND o."OpenOrdersByDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[1]::date)
	AND o."OpenOrdersByDate_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[2]::date)$q$),
('hroe_multi', 'employees_hired_since',
 $q$format('Query Employee.EmployeeByHireDate: entity_type = EMPLOYEE AND hire_date >= %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByHireDate') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByHireDate_pk1" OPERATOR(hroe.=) 'EMPLOYEE'::hroe.key
	AND e."EmployeeByHireDate_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[1]::date)$q$),
('hroe_multi', 'warehouse_employees',
 $q$format('Query Employee.EmployeeByWarehouse: warehouse_id = %s', hroe_multi.warehouse_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByWarehouse') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByWarehouse_pk1" OPERATOR(hroe.=) hroe_multi.warehouse_key($1[1]::int) AND e."EmployeeByWarehouse_sk1" IS NOT NULL$q$),
('hroe_multi', 'product_order_items',
 $q$format('Query Product: product_id = %1$s AND begins_with(SK, wh_); Query Order.ProductInOrders: product_id = %1$s', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key
	UNION ALL
	SELECT 2, 'Query', hroe.index_entry_size(o.item, 'Order', 'ProductInOrders') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."ProductInOrders_pk1" OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND o."ProductInOrders_sk1" IS NOT NULL$q$),
('hroe_multi', 'rep_customers',
 $q$format('Query Customer.CustomerByAccountRep: account_rep_id = %s', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(c.item, 'Customer', 'CustomerByAccountRep') FROM (SELECT) r LEFT JOIN hroe_multi."Customer" c
	ON c."CustomerByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int) AND c."CustomerByAccountRep_sk1" IS NOT NULL$q$),
('hroe_multi', 'rep_orders',
 $q$format('Query Order.OrderByAccountRep: account_rep_id = %s AND order_date BETWEEN %s AND %s', hroe_multi.employee_key($1[1]::int), $1[2], $1[3])
	|| CASE WHEN $1[4] IS NOT NULL THEN format(', FilterExpression status = %s', $1[4]) ELSE '' END$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(o.item, 'Order', 'OrderByAccountRep') FROM (SELECT) r LEFT JOIN hroe_multi."Order" o
	ON o."OrderByAccountRep_pk1" OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)
	AND o."OrderByAccountRep_sk1" OPERATOR(hroe.>=) hroe_multi.date_key($1[2]::date)
	AND o."OrderByAccountRep_sk1" OPERATOR(hroe.<=) hroe_multi.date_key($1[3]::date)$q$),
('hroe_multi', 'employees_by_title',
 $q$format('Query Employee.EmployeeByJobTitle: job_title = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(e.item, 'Employee', 'EmployeeByJobTitle') FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e."EmployeeByJobTitle_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND e."EmployeeByJobTitle_sk1" IS NOT NULL$q$),
('hroe_multi', 'product_inventory_at',
 $q$format('GetItem Product: product_id = %s AND SK = %s', hroe_multi.product_key($1[1]::int), hroe_multi.warehouse_key($1[2]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.=) hroe_multi.warehouse_key($1[2]::int)$q$),
('hroe_multi', 'product_total_inventory',
 $q$format('GetItem Product: product_id = %1$s AND SK = %1$s, ProjectionExpression total_inventory', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int)$q$),
('hroe_multi', 'rep_ranking',
 $q$format('Query RepQuarterTotal.RepQuarterRanking: quarter = %s', $1[1])$q$,
 $q$SELECT 1, 'Query', hroe.index_entry_size(q.item, 'RepQuarterTotal', 'RepQuarterRanking') FROM (SELECT) r LEFT JOIN hroe_multi."RepQuarterTotal" q
	ON q."RepQuarterRanking_pk1" OPERATOR(hroe.=) hroe_multi.search_key($1[1]) AND q."RepQuarterRanking_sk1" IS NOT NULL$q$),
('hroe_multi', 'employee_phones',
 $q$format('GetItem Employee: employee_id = %s, ProjectionExpression phone_numbers', hroe_multi.employee_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(e.item) FROM (SELECT) r LEFT JOIN hroe_multi."Employee" e
	ON e.pk OPERATOR(hroe.=) hroe_multi.employee_key($1[1]::int)$q$),
('hroe_multi', 'customer_phones',
 $q$format('GetItem Customer: customer_id = %s, ProjectionExpression phone_numbers', hroe_multi.customer_key($1[1]::int))$q$,
 $q$SELECT 1, 'GetItem', hroe.item_size(c.item) FROM (SELECT) r LEFT JOIN hroe_multi."Customer" c
	ON c.pk OPERATOR(hroe.=) hroe_multi.customer_key($1[1]::int)$q$),
('hroe_multi', 'product_inventories',
 $q$format('Query Product: product_id = %s AND begins_with(SK, wh_)', hroe_multi.product_key($1[1]::int))$q$,
 $q$SELECT 1, 'Query', hroe.item_size(p.item) FROM (SELECT) r LEFT JOIN hroe_multi."Product" p
	ON p.pk OPERATOR(hroe.=) hroe_multi.product_key($1[1]::int) AND p.sk OPERATOR(hroe.^@) 'wh_'::hroe.key$q$)
) v (model, pattern, request_sql, items_sql)
WHERE EXISTS (SELECT FROM pg_catalog.pg_namespace n WHERE n.nspname OPERATOR(pg_catalog.=) v.model);

GRANT SELECT ON hroe.access_patterns, hroe.model_requests TO PUBLIC;

CREATE FUNCTION hroe.compare_args(p_pattern text)
RETURNS TABLE (case_label text, args text[])
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT x.label::text, x.args::text[] FROM (%s) x (label, args)',
		(SELECT a.arguments_sql FROM hroe.access_patterns a WHERE a.pattern = p_pattern));
END
$$;
COMMENT ON FUNCTION hroe.compare_args(text) IS
'internal: the argument sets hroe.compare uses for a pattern, drawn from hroe_normalized: (case label, arguments as text[])';

CREATE FUNCTION hroe.compare_models()
RETURNS SETOF text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT m FROM unnest('{hroe_normalized,hroe_single,hroe_multi}'::text[]) WITH ORDINALITY AS u (m, o)
WHERE EXISTS (SELECT FROM pg_namespace n WHERE n.nspname = u.m)
ORDER BY o
$$;
COMMENT ON FUNCTION hroe.compare_models() IS
'internal: the models present, in comparison order: hroe_normalized, then hroe_single and hroe_multi when installed';

-- A call's text: model.pattern(literal::type, ...), the arguments cast to
-- the parameter types of hroe_normalized's function (the contract).
CREATE FUNCTION hroe.compare_call(p_model text, p_pattern text, p_args text[])
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT format('%I.%I(%s)', p_model, p_pattern,
	(SELECT string_agg(quote_nullable(p_args[k]) || '::' || format_type(t, NULL), ', ' ORDER BY k)
	 FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY AS a (t, k)
	 WHERE k <= cardinality(p_args)))
FROM pg_proc p
WHERE p.pronamespace = 'hroe_normalized'::regnamespace AND p.proname = p_pattern
$$;
COMMENT ON FUNCTION hroe.compare_call(text, text, text[]) IS
'internal: the SQL call of a pattern in a model with literal arguments, cast to the parameter types of the hroe_normalized function of that name';

-- Plan facts from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output.
CREATE FUNCTION hroe.compare_plan_shape(p_plan jsonb)
RETURNS TABLE (shape text, seq_scans integer, index_scans integer, joins integer, sorts integer,
			   shared_hit bigint, shared_read bigint, execution_ms numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
WITH nodes AS (
	SELECT n #>> '{}' AS node
	FROM jsonb_path_query(p_plan, 'strict $[0].Plan.**."Node Type"') AS n
)
SELECT (SELECT string_agg(CASE WHEN c > 1 THEN node || ' x' || c ELSE node END, ', ' ORDER BY node)
		FROM (SELECT node, count(*) AS c FROM nodes WHERE node NOT IN ('Result', 'Limit', 'Subquery Scan') GROUP BY node) g),
	   (SELECT count(*) FROM nodes WHERE node = 'Seq Scan')::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Index Scan', 'Index Only Scan', 'Bitmap Index Scan'))::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Nested Loop', 'Hash Join', 'Merge Join'))::int,
	   (SELECT count(*) FROM nodes WHERE node IN ('Sort', 'Incremental Sort'))::int,
	   (p_plan #>> '{0,Plan,Shared Hit Blocks}')::bigint,
	   (p_plan #>> '{0,Plan,Shared Read Blocks}')::bigint,
	   (p_plan #>> '{0,Execution Time}')::numeric
$$;
COMMENT ON FUNCTION hroe.compare_plan_shape(jsonb) IS
'internal: the shape of a plan from EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): node types with counts (Result, Limit and Subquery Scan left out), sequential scans, index scans, joins, sorts, shared buffers hit and read (the top node''s, including the functions it calls), execution time in ms';

-- Read capacity of a call of a DynamoDB model (section 6): per request the
-- bytes of the items it evaluates, priced by hroe.read_capacity_units (the
-- operations' rule), eventually consistent.
CREATE FUNCTION hroe.compare_read_capacity(p_model text, p_pattern text, p_args text[],
										   OUT request text, OUT requests integer, OUT items bigint,
										   OUT item_bytes bigint, OUT rcu numeric)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r hroe.model_requests;
BEGIN
	SELECT * INTO r FROM hroe.model_requests m WHERE m.model = p_model AND m.pattern = p_pattern;
	IF NOT FOUND THEN
		RETURN;
	END IF;
	EXECUTE 'SELECT ' || r.request_sql INTO request USING p_args;
	EXECUTE format('SELECT count(*)::int, COALESCE(sum(q.n), 0), COALESCE(sum(q.bytes), 0)::bigint,
			COALESCE(sum(hroe.read_capacity_units(q.bytes, false)), 0)::numeric
		FROM (SELECT x.req, count(x.size) AS n, COALESCE(sum(x.size), 0)::bigint AS bytes
			  FROM (%s) x (req, op, size) GROUP BY x.req) q', r.items_sql)
	INTO requests, items, item_bytes, rcu USING p_args;
END
$$;
COMMENT ON FUNCTION hroe.compare_read_capacity(text, text, text[]) IS
'internal: the DynamoDB request a read pattern call amounts to in a model (hroe.model_requests), how many requests, the items they evaluate and their hroe.item_size bytes, and the eventually consistent read capacity: the sum over requests of hroe.read_capacity_units(request bytes, false), the rule GetItem and Query report; no row for hroe_normalized';

-- The DynamoDB tables of a model: the hroe.tables registered in its schema.
CREATE FUNCTION hroe.compare_item_tables(p_model text)
RETURNS SETOF regclass
LANGUAGE sql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT t.relid FROM hroe.tables t JOIN pg_class c ON c.oid = t.relid
WHERE c.relnamespace = p_model::regnamespace
ORDER BY c.oid
$$;
COMMENT ON FUNCTION hroe.compare_item_tables(text) IS
'internal: the DynamoDB tables of a model: the tables of hroe.tables whose PostgreSQL table is in the model''s schema';

-- Drops the copies hroe.compare_snapshot made.
CREATE FUNCTION hroe.compare_drop_snapshot(p_model text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t regclass;
BEGIN
	FOR t IN SELECT hroe.compare_item_tables(p_model) LOOP
		IF to_regclass(format('pg_temp.%I', 'hroe_cmp_' || t::oid)) IS NOT NULL THEN
			EXECUTE format('DROP TABLE pg_temp.%I', 'hroe_cmp_' || t::oid);
		END IF;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_drop_snapshot(text) IS
'internal: drops the temporary copies of a model''s DynamoDB tables made by hroe.compare_snapshot';

-- Copies a model's DynamoDB tables into temporary tables, before a write.
CREATE FUNCTION hroe.compare_snapshot(p_model text)
RETURNS void
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t regclass;
BEGIN
	PERFORM hroe.compare_drop_snapshot(p_model);
	FOR t IN SELECT hroe.compare_item_tables(p_model) LOOP
		EXECUTE format('CREATE TEMP TABLE %I AS SELECT * FROM %s', 'hroe_cmp_' || t::oid, t);
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_snapshot(text) IS
'internal: copies each DynamoDB table of a model into a temporary table (pg_temp.hroe_cmp_<oid>), so that hroe.compare_write_capacity can tell what a write changed';

-- Write capacity of what changed since hroe.compare_snapshot (section 6):
-- every item changed, added or removed, paired with its old version by the
-- table key, priced by hroe.write_consumed_capacity, the rule PutItem and
-- DeleteItem report (table units, and per GSI the entry-sized writes).
CREATE FUNCTION hroe.compare_write_capacity(p_model text, OUT items_written bigint, OUT table_wcu numeric,
											OUT index_wcu numeric)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	t record;
	v_key text;
	v_n bigint;
	v_t numeric;
	v_all numeric;
BEGIN
	items_written := 0;
	table_wcu := 0;
	index_wcu := 0;
	FOR t IN SELECT h.relid, h.table_name FROM hroe.compare_item_tables(p_model) r (relid)
			 JOIN hroe.tables h ON h.relid = r.relid LOOP
		SELECT string_agg(format('x.%I', a.attname), ', ' ORDER BY k.o) INTO v_key
		FROM pg_index i, unnest(i.indkey::int2[]) WITH ORDINALITY AS k (n, o), pg_attribute a
		WHERE i.indrelid = t.relid AND i.indisprimary AND a.attrelid = t.relid AND a.attnum = k.n;
		EXECUTE format($f$
			SELECT count(*), COALESCE(sum((c.cc #>> '{Table,CapacityUnits}')::numeric), 0),
				   COALESCE(sum((c.cc ->> 'CapacityUnits')::numeric), 0)
			FROM (SELECT hroe.write_consumed_capacity(%1$L, b.item, a.item) AS cc
				  FROM (SELECT ROW(%2$s) AS k, x.item FROM pg_temp.%3$I x) b
				  FULL JOIN (SELECT ROW(%2$s) AS k, x.item FROM %4$s x) a ON a.k = b.k
				  WHERE a.item OPERATOR(hroe.<>) b.item OR a.item IS NULL OR b.item IS NULL) c$f$,
			t.table_name, v_key, 'hroe_cmp_' || t.relid::oid, t.relid)
		INTO v_n, v_t, v_all;
		items_written := items_written + v_n;
		table_wcu := table_wcu + v_t;
		index_wcu := index_wcu + v_all - v_t;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_write_capacity(text) IS
'internal: the items a write changed in a model''s DynamoDB tables since hroe.compare_snapshot and their write capacity, each change priced by hroe.write_consumed_capacity (the rule PutItem and DeleteItem report): table WCU max(1, ceil(max(old, new) / 1 KB)) per item, index WCU the GSI writes (entering, leaving or changing a projected attribute 1 entry-sized write, a changed index key 2)';

CREATE FUNCTION hroe.compare(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
RETURNS TABLE (pattern_no integer, pattern text, kind text, case_label text, model text, call text,
			   identical boolean, fingerprint text, result_rows bigint, plan_shape text,
			   seq_scans integer, index_scans integer, joins integer, sorts integer,
			   shared_hit bigint, shared_read bigint, request text, requests integer,
			   items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric)
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	p hroe.access_patterns;
	c record;
	m text;
	v_call text;
	v_plan jsonb;
	v_times numeric[];
	v_shape record;
	v_cap record;
	v_wn bigint;
	v_wt numeric;
	v_wi numeric;
	v_fp text;
	v_rows bigint;
	i integer;
	v_started timestamptz := clock_timestamp();
	v_verbose boolean;
BEGIN
	IF p_runs IS NULL OR p_runs < 1 OR p_runs > 1000 THEN
		RAISE EXCEPTION 'p_runs must be between 1 and 1000' USING ERRCODE = '22023';
	END IF;
	IF NOT EXISTS (SELECT FROM hroe_normalized.orders) THEN
		RAISE EXCEPTION 'hroe_normalized is empty' USING ERRCODE = '55000', HINT = 'Load data first: SELECT * FROM hroe.load(1);';
	END IF;
	-- one scratch table per session, created on first use (checked rather
	-- than IF NOT EXISTS, whose NOTICE would reach the caller every call)
	IF pg_catalog.to_regclass('pg_temp.hroe_compare_out') IS NULL THEN
		CREATE TEMP TABLE hroe_compare_out (
			pattern_no integer, pattern text, kind text, case_no bigint, case_label text, model_no integer, model text,
			call text, fingerprint text, result_rows bigint, plan_shape text, seq_scans integer, index_scans integer,
			joins integer, sorts integer, shared_hit bigint, shared_read bigint, request text, requests integer,
			items bigint, item_bytes bigint, capacity numeric, capacity_unit text, median_ms numeric);
	END IF;
	TRUNCATE pg_temp.hroe_compare_out;
	-- progress at large scales (10,000 orders and more): a NOTICE per pattern
	v_verbose := (SELECT pc.reltuples >= 10000 FROM pg_class pc WHERE pc.oid = 'hroe_normalized.orders'::regclass);
	FOR p IN SELECT * FROM hroe.access_patterns a
			 WHERE p_patterns IS NULL OR a.pattern = ANY (p_patterns) OR a.pattern_no::text = ANY (p_patterns)
			 ORDER BY a.pattern_no LOOP
		FOR c IN EXECUTE format('SELECT row_number() OVER () AS n, x.label::text AS label, x.args::text[] AS args FROM (%s) x (label, args)', p.arguments_sql) LOOP
			FOR m IN SELECT u.m FROM hroe.compare_models() u (m) WHERE p_models IS NULL OR u.m = ANY (p_models) LOOP
				v_call := hroe.compare_call(m, p.pattern, c.args);
				IF NOT EXISTS (SELECT FROM pg_proc f WHERE f.pronamespace = m::regnamespace AND f.proname = p.pattern) THEN
					RAISE EXCEPTION 'model % has no pattern %', m, p.pattern USING ERRCODE = '42883';
				END IF;
				v_times := '{}';
				IF p.kind = 'read' THEN
					EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
						FROM (SELECT r, row_number() OVER () AS n FROM %s r) s', v_call) INTO v_fp, v_rows;
					FOR i IN 1 .. p_runs LOOP
						EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM %s', v_call) INTO v_plan;
						v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
					END LOOP;
					SELECT * INTO v_shape FROM hroe.compare_plan_shape(v_plan);
					SELECT * INTO v_cap FROM hroe.compare_read_capacity(m, p.pattern, c.args);
					INSERT INTO pg_temp.hroe_compare_out VALUES (p.pattern_no, p.pattern, p.kind, c.n, c.label,
						array_position('{hroe_normalized,hroe_single,hroe_multi}'::text[], m), m, v_call, v_fp, v_rows,
						v_shape.shape, v_shape.seq_scans, v_shape.index_scans, v_shape.joins, v_shape.sorts,
						v_shape.shared_hit, v_shape.shared_read, v_cap.request, v_cap.requests, v_cap.items,
						v_cap.item_bytes, v_cap.rcu, CASE WHEN v_cap.request IS NOT NULL THEN 'RCU' END,
						(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(v_times) t)::numeric(12, 3));
				ELSE
					-- each run in a subtransaction rolled back: the data is left
					-- unchanged, and every run starts from the same state, so the
					-- tables are copied once and the first run's changes measured
					v_wn := NULL; v_wt := NULL; v_wi := NULL;
					IF m <> 'hroe_normalized' THEN
						PERFORM hroe.compare_snapshot(m);
					END IF;
					FOR i IN 1 .. p_runs LOOP
						BEGIN
							EXECUTE format('EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT %s', v_call) INTO v_plan;
							v_times := v_times || (v_plan #>> '{0,Execution Time}')::numeric;
							EXECUTE format('SELECT md5(COALESCE(string_agg(r::text, E''\n'' ORDER BY n), '''')), count(*)
								FROM (SELECT r, row_number() OVER () AS n FROM (%s) r) s',
								format(p.check_sql, VARIADIC (ARRAY[m] || c.args))) INTO v_fp, v_rows;
							IF m <> 'hroe_normalized' AND i = 1 THEN
								SELECT * INTO v_wn, v_wt, v_wi FROM hroe.compare_write_capacity(m);
							END IF;
							RAISE EXCEPTION USING ERRCODE = 'HR0CR';
						EXCEPTION WHEN SQLSTATE 'HR0CR' THEN
							NULL;
						END;
					END LOOP;
					IF m <> 'hroe_normalized' THEN
						PERFORM hroe.compare_drop_snapshot(m);
					END IF;
					SELECT * INTO v_shape FROM hroe.compare_plan_shape(v_plan);
					INSERT INTO pg_temp.hroe_compare_out VALUES (p.pattern_no, p.pattern, p.kind, c.n, c.label,
						array_position('{hroe_normalized,hroe_single,hroe_multi}'::text[], m), m, v_call, v_fp, v_rows,
						NULL, NULL, NULL, NULL, NULL, v_shape.shared_hit, v_shape.shared_read,
						CASE WHEN v_wn IS NOT NULL THEN format('%s items written, %s WCU table + %s WCU indexes', v_wn, v_wt, v_wi) END,
						NULL, v_wn, NULL, v_wt + v_wi,
						CASE WHEN m <> 'hroe_normalized' THEN 'WCU' END,
						(SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY t) FROM unnest(v_times) t)::numeric(12, 3));
				END IF;
			END LOOP;
		END LOOP;
		IF v_verbose THEN
			RAISE NOTICE 'hroe.compare: pattern % %, % calls so far (% s)', p.pattern_no, p.pattern,
				(SELECT count(*) FROM pg_temp.hroe_compare_out),
				round(extract(epoch FROM clock_timestamp() - v_started)::numeric, 1);
		END IF;
	END LOOP;
	RETURN QUERY
	SELECT o.pattern_no, o.pattern, o.kind, o.case_label, o.model, o.call,
		   (SELECT count(DISTINCT o2.fingerprint) FROM pg_temp.hroe_compare_out o2
			WHERE o2.pattern_no = o.pattern_no AND o2.case_no = o.case_no) = 1,
		   o.fingerprint, o.result_rows, o.plan_shape, o.seq_scans, o.index_scans, o.joins, o.sorts,
		   o.shared_hit, o.shared_read, o.request, o.requests, o.items, o.item_bytes, o.capacity,
		   o.capacity_unit, o.median_ms
	FROM pg_temp.hroe_compare_out o
	ORDER BY o.pattern_no, o.case_no, o.model_no;
END
$$;
COMMENT ON FUNCTION hroe.compare(text[], text[], integer) IS
'runs every access pattern (or those named or numbered in p_patterns) on every model present (or those in p_models) with arguments drawn from hroe_normalized: per call the answer''s md5 fingerprint and whether it is identical across models, rows, plan shape, shared buffers, the DynamoDB request and its capacity (RCU for reads, WCU with index writes for writes), and the median execution time of p_runs runs; writes run in rolled-back subtransactions and are checked by reads after the write';

-- The text report of one run's rows (hroe.compare_report; test/main.sh
-- renders the same run's rows as text and as HTML).
CREATE FUNCTION hroe.compare_report_lines(p_results jsonb)
RETURNS SETOF text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	r record;
	v_last text := '';
BEGIN
	FOR r IN SELECT x.* FROM jsonb_array_elements(p_results) WITH ORDINALITY AS e (j, n),
			 jsonb_to_record(e.j) AS x (pattern_no integer, pattern text, kind text, case_label text, model text,
									   identical boolean, result_rows bigint, plan_shape text, shared_hit bigint,
									   shared_read bigint, request text, capacity numeric, capacity_unit text,
									   median_ms numeric)
			 ORDER BY e.n LOOP
		IF r.pattern_no || r.case_label <> v_last THEN
			RETURN NEXT '';
			RETURN NEXT format('%s %s %s [%s]: %s', CASE WHEN r.kind = 'read' THEN 'read' ELSE 'write' END,
				r.pattern_no, r.pattern, r.case_label,
				CASE WHEN r.identical THEN 'identical answers' ELSE 'ANSWERS DIFFER' END);
			v_last := r.pattern_no || r.case_label;
		END IF;
		RETURN NEXT format('  %-16s %5s rows %8s ms  buffers %4s hit %3s read  %s', r.model, r.result_rows, r.median_ms,
			r.shared_hit, r.shared_read, COALESCE(r.plan_shape, ''));
		IF r.request IS NOT NULL THEN
			RETURN NEXT format('  %-16s %s -> %s %s', '', r.request, r.capacity, r.capacity_unit);
		END IF;
	END LOOP;
END
$$;
COMMENT ON FUNCTION hroe.compare_report_lines(jsonb) IS
'internal: the rows of one hroe.compare() run (their jsonb array, in order) as hroe.compare_report''s text lines: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity';

CREATE FUNCTION hroe.compare_report(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	RETURN NEXT format('hroe.compare: models %s, %s run(s) per call', (SELECT string_agg(m, ', ') FROM hroe.compare_models() m
		WHERE p_models IS NULL OR m = ANY (p_models)), p_runs);
	RETURN QUERY SELECT hroe.compare_report_lines(COALESCE(jsonb_agg(to_jsonb(c) - 'ordinality' ORDER BY c.ordinality), '[]'))
		FROM hroe.compare(p_patterns, p_models, p_runs) WITH ORDINALITY AS c;
END
$$;
COMMENT ON FUNCTION hroe.compare_report(text[], text[], integer) IS
'hroe.compare''s result as text lines for a terminal: per pattern and argument set whether the answers are identical, then per model rows, median ms, shared buffers, plan shape, and the DynamoDB request with its capacity';

-- hroe.compare_html: the comparison as one self-contained HTML page (no
-- network, inline CSS and SVG, a little inline JavaScript for sorting): the
-- summary per pattern with its verdict, every call's figures, charts, the
-- data drawn as the design guides draw it (hroe.grid), and the cost in
-- money.  It renders the rows of one hroe.compare() run, given as jsonb, so
-- that its figures are that run's; hroe.compare_report_html runs
-- hroe.compare once and renders it.  PARALLEL UNSAFE: it fills scratch
-- temporary tables.

-- A design's colour in the charts: the same in each chart.
CREATE FUNCTION hroe.report_colour(p_model text, p_position integer)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE p_model WHEN 'hroe_normalized' THEN '#2563eb' WHEN 'hroe_single' THEN '#16a34a' WHEN 'hroe_multi' THEN '#ea580c'
	   ELSE (ARRAY['#9333ea', '#0891b2', '#be123c', '#4d7c0f'])[(COALESCE(p_position, 1) - 1) % 4 + 1] END
$$;
COMMENT ON FUNCTION hroe.report_colour(text, integer) IS
'internal: the colour of a design in hroe.compare_html''s charts (hroe_normalized blue, hroe_single green, hroe_multi orange, others by position)';

-- A horizontal grouped bar chart: per label (in p_labels' order) one bar per
-- series; p_data [{"label", "series", "value"}], log scale when p_log.
CREATE FUNCTION hroe.report_bar_chart(p_id text, p_title text, p_unit text, p_labels text[], p_series text[],
									  p_data jsonb, p_log boolean)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_bar integer := 7;
	v_left integer := 190;
	v_width integer := 560;
	v_group integer := cardinality(p_series) * v_bar + 8;
	v_height integer := 40 + cardinality(p_labels) * v_group + 30;
	v_max float8;
	v_min float8;
	v_svg text;
	l integer;
	s integer;
	v float8;
	x float8;
BEGIN
	SELECT max((d ->> 'value')::float8), min((d ->> 'value')::float8) FILTER (WHERE (d ->> 'value')::float8 > 0)
	INTO v_max, v_min FROM jsonb_array_elements(p_data) d;
	v_max := COALESCE(NULLIF(v_max, 0), 1);
	v_min := COALESCE(v_min, v_max / 10);
	IF p_log THEN
		v_min := power(10, floor(log(v_min)));
		v_max := power(10, ceil(log(v_max)));
		IF v_max <= v_min THEN
			v_max := v_min * 10;
		END IF;
	END IF;
	v_svg := format('<svg id="%s" xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-label="%s" style="font:11px system-ui,sans-serif">',
					hroe.html_escape(p_id), v_left + v_width + 60, v_height, v_left + v_width + 60, v_height, hroe.html_escape(p_title))
		|| format('<text x="0" y="14" style="font-weight:600;font-size:13px">%s</text>', hroe.html_escape(p_title));
	-- legend
	FOR s IN 1 .. cardinality(p_series) LOOP
		v_svg := v_svg || format('<rect x="%s" y="22" width="10" height="10" fill="%s"/><text x="%s" y="31">%s</text>',
								 v_left + (s - 1) * 150, hroe.report_colour(p_series[s], s), v_left + (s - 1) * 150 + 14, hroe.html_escape(p_series[s]));
	END LOOP;
	-- grid lines: decades (log) or fifths (linear)
	FOR l IN 0 .. CASE WHEN p_log THEN round(log(v_max / v_min))::integer ELSE 5 END LOOP
		v := CASE WHEN p_log THEN v_min * power(10, l) ELSE v_max * l / 5 END;
		x := v_left + v_width * l / CASE WHEN p_log THEN GREATEST(round(log(v_max / v_min)), 1) ELSE 5 END;
		v_svg := v_svg || format('<line x1="%s" y1="38" x2="%s" y2="%s" stroke="#e2e8f0"/><text x="%s" y="%s" text-anchor="middle" fill="#475569">%s</text>',
								 round(x::numeric, 1), round(x::numeric, 1), v_height - 24, round(x::numeric, 1), v_height - 10,
								 rtrim(rtrim(to_char(v::numeric, 'FM999999990.999'), '0'), '.') || ' ' || p_unit);
	END LOOP;
	FOR l IN 1 .. cardinality(p_labels) LOOP
		v_svg := v_svg || format('<text x="%s" y="%s" text-anchor="end">%s</text>', v_left - 6,
								 40 + (l - 1) * v_group + cardinality(p_series) * v_bar / 2 + 4, hroe.html_escape(p_labels[l]));
		FOR s IN 1 .. cardinality(p_series) LOOP
			SELECT (d ->> 'value')::float8 INTO v FROM jsonb_array_elements(p_data) d
			WHERE d ->> 'label' = p_labels[l] AND d ->> 'series' = p_series[s] LIMIT 1;
			CONTINUE WHEN v IS NULL;
			x := CASE WHEN p_log THEN v_width * GREATEST(log(GREATEST(v, v_min) / v_min) / log(v_max / v_min), 0.005)
					  ELSE v_width * GREATEST(v / v_max, 0.005) END;
			v_svg := v_svg || format('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s %s</title></rect>',
									 v_left, 40 + (l - 1) * v_group + (s - 1) * v_bar, round(x::numeric, 1), v_bar - 1,
									 hroe.report_colour(p_series[s], s), hroe.html_escape(p_labels[l]), hroe.html_escape(p_series[s]), v, p_unit);
		END LOOP;
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_bar_chart(text, text, text, text[], text[], jsonb, boolean) IS
'internal: an SVG horizontal grouped bar chart for hroe.compare_html: per label one bar per series from p_data [{"label", "series", "value"}], log scale when p_log';

-- A small line chart per pattern: latency against scale, a line per model,
-- both axes logarithmic; p_data [{"scale", "pattern", "model", "ms"}].
CREATE FUNCTION hroe.report_growth_chart(p_pattern text, p_data jsonb)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[] := ARRAY(SELECT DISTINCT d ->> 'model' FROM jsonb_array_elements(p_data) d
							 WHERE d ->> 'pattern' = p_pattern ORDER BY 1);
	v_s0 float8; v_s1 float8; v_m0 float8; v_m1 float8;
	v_svg text;
	m integer;
	v_points text;
BEGIN
	SELECT min((d ->> 'scale')::float8), max((d ->> 'scale')::float8), min((d ->> 'ms')::float8), max((d ->> 'ms')::float8)
	INTO v_s0, v_s1, v_m0, v_m1 FROM jsonb_array_elements(p_data) d
	WHERE d ->> 'pattern' = p_pattern AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
	IF v_s0 IS NULL THEN
		RETURN '';
	END IF;
	v_m0 := power(10, floor(log(v_m0)));
	v_m1 := GREATEST(power(10, ceil(log(v_m1))), v_m0 * 10);
	v_s1 := GREATEST(v_s1, v_s0 * 10);
	v_svg := format('<svg class="growth" xmlns="http://www.w3.org/2000/svg" width="220" height="150" viewBox="0 0 220 150" style="font:10px system-ui,sans-serif"><text x="4" y="12" style="font-weight:600">%s</text>', hroe.html_escape(p_pattern))
		|| '<rect x="34" y="18" width="176" height="104" fill="none" stroke="#cbd5e1"/>'
		|| format('<text x="30" y="24" text-anchor="end">%s</text><text x="30" y="122" text-anchor="end">%s</text>', v_m1, v_m0)
		|| format('<text x="34" y="134">%s</text><text x="210" y="134" text-anchor="end">scale %s</text><text x="4" y="146" fill="#475569">ms (log) against scale (log)</text>', v_s0, v_s1);
	FOR m IN 1 .. cardinality(v_models) LOOP
		SELECT string_agg(format('%s,%s', round((34 + 176 * log((d ->> 'scale')::float8 / v_s0) / log(v_s1 / v_s0))::numeric, 1),
								 round((122 - 104 * log((d ->> 'ms')::float8 / v_m0) / log(v_m1 / v_m0))::numeric, 1)),
						  ' ' ORDER BY (d ->> 'scale')::float8)
		INTO v_points FROM jsonb_array_elements(p_data) d
		WHERE d ->> 'pattern' = p_pattern AND d ->> 'model' = v_models[m] AND (d ->> 'ms')::float8 > 0 AND (d ->> 'scale')::float8 > 0;
		v_svg := v_svg || format('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></polyline>',
								 v_points, hroe.report_colour(v_models[m], m), hroe.html_escape(v_models[m]));
	END LOOP;
	RETURN v_svg || '</svg>';
END
$$;
COMMENT ON FUNCTION hroe.report_growth_chart(text, jsonb) IS
'internal: an SVG line chart of one pattern''s latency against scale (both logarithmic), a line per model, from the benchmark''s rows [{"scale", "pattern", "model", "ms"}], for hroe.compare_html';

CREATE FUNCTION hroe.compare_html(p_results jsonb, p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_models text[];
	v_read_price numeric := COALESCE((p_options ->> 'read_price')::numeric, 0.125);
	v_write_price numeric := COALESCE((p_options ->> 'write_price')::numeric, 0.625);
	v_storage_price numeric := COALESCE((p_options ->> 'storage_price')::numeric, 0.25);
	v_prices_read text := COALESCE(p_options ->> 'prices_read', '2026-11-27');
	v_grid_items integer := COALESCE((p_options ->> 'grid_items')::integer, 12);
	v_emp integer;
	v_order bigint;
	v_product integer;
	v_html text;
	v_body text := '';
	v_nav text := '';
	v_s text;
	r record;
	v_idx record;
	v_first text;
	v_labels text[];
	v_data jsonb;
	i integer;
BEGIN
	IF p_results IS NULL OR jsonb_typeof(p_results) <> 'array' THEN
		RAISE EXCEPTION 'p_results must be a jsonb array of hroe.compare() rows' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF p_options IS NULL OR jsonb_typeof(p_options) <> 'object' THEN
		RAISE EXCEPTION 'p_options must be a jsonb object' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF v_read_price < 0 OR v_write_price < 0 OR v_storage_price < 0 THEN
		RAISE EXCEPTION 'prices must not be negative' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	IF v_grid_items < 1 OR v_grid_items > 1000 THEN
		RAISE EXCEPTION 'grid_items must be between 1 and 1000' USING ERRCODE = 'invalid_parameter_value';
	END IF;
	-- the run's rows, in their order; a case is a (pattern, label) pair
	-- scratch tables, one per session, created on first use (checked
	-- rather than IF NOT EXISTS, whose NOTICE would reach the caller)
	IF to_regclass('pg_temp.hroe_report_rows') IS NULL THEN
		CREATE TEMP TABLE hroe_report_rows (
		n bigint, pattern_no integer, pattern text, kind text, case_label text, case_no integer, model text,
		identical boolean, result_rows bigint, plan_shape text, shared_hit bigint, shared_read bigint,
		request text, requests integer, items bigint, item_bytes bigint, capacity numeric, capacity_unit text,
		median_ms numeric);
		CREATE TEMP TABLE hroe_report_cost (pattern_no integer, pattern text, model text, calls numeric, per_million numeric);
	END IF;
	TRUNCATE pg_temp.hroe_report_rows;
	INSERT INTO pg_temp.hroe_report_rows
	SELECT e.n, (e.r ->> 'pattern_no')::integer, e.r ->> 'pattern', e.r ->> 'kind', e.r ->> 'case_label',
		   dense_rank() OVER (ORDER BY (e.r ->> 'pattern_no')::integer, e.first_n),
		   e.r ->> 'model', (e.r ->> 'identical')::boolean, (e.r ->> 'result_rows')::bigint, e.r ->> 'plan_shape',
		   (e.r ->> 'shared_hit')::bigint, (e.r ->> 'shared_read')::bigint, e.r ->> 'request', (e.r ->> 'requests')::integer,
		   (e.r ->> 'items')::bigint, (e.r ->> 'item_bytes')::bigint, (e.r ->> 'capacity')::numeric, e.r ->> 'capacity_unit',
		   (e.r ->> 'median_ms')::numeric
	FROM (SELECT a.r, a.n, min(a.n) OVER (PARTITION BY a.r ->> 'pattern_no', a.r ->> 'case_label') AS first_n
		  FROM jsonb_array_elements(p_results) WITH ORDINALITY AS a (r, n)) e;
	v_models := ARRAY(SELECT model FROM pg_temp.hroe_report_rows GROUP BY model ORDER BY min(n));

	-- the summary: a row per case, the designs side by side, the verdict
	v_s := '<table id="summary" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>case</th><th>answers</th>'
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%s ms</th>', hroe.html_escape(m)), '' ORDER BY o) FROM unnest(v_models) WITH ORDINALITY u (m, o)), '')
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%s capacity</th>', hroe.html_escape(m)), '' ORDER BY o) FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '<th>verdict</th></tr></thead><tbody>';
	FOR r IN SELECT c.case_no, min(c.pattern_no) AS pattern_no, min(c.pattern) AS pattern, min(c.kind) AS kind,
					min(c.case_label) AS case_label, bool_and(c.identical) AS identical,
					jsonb_object_agg(c.model, jsonb_build_object('ms', c.median_ms, 'cap', c.capacity, 'unit', c.capacity_unit)) AS m
			 FROM pg_temp.hroe_report_rows c GROUP BY c.case_no ORDER BY c.case_no LOOP
		v_s := v_s || format('<tr data-pattern="%s" data-case="%s"><td data-v="%s">%s</td><td>%s</td><td>%s</td><td class="%s">%s</td>',
							 hroe.html_escape(r.pattern), hroe.html_escape(r.case_label), r.pattern_no, r.pattern_no,
							 hroe.html_escape(r.pattern) || CASE WHEN r.kind = 'write' THEN ' <small>(write)</small>' ELSE '' END,
							 hroe.html_escape(r.case_label), CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
							 CASE WHEN r.identical THEN 'identical' ELSE 'DIFFER' END)
			-- the fastest design's cell marked
			|| (SELECT string_agg(format('<td class="num%s" data-v="%s">%s</td>',
										 CASE WHEN (r.m -> m ->> 'ms')::numeric = (SELECT min((r.m -> m2 ->> 'ms')::numeric) FROM unnest(v_models) m2)
											  THEN ' win' ELSE '' END,
										 r.m -> m ->> 'ms', COALESCE(r.m -> m ->> 'ms', '')), '' ORDER BY o)
				FROM unnest(v_models) WITH ORDINALITY u (m, o))
			|| COALESCE((SELECT string_agg(format('<td class="num" data-v="%s">%s</td>', r.m -> m ->> 'cap',
												  COALESCE((r.m -> m ->> 'cap') || ' ' || (r.m -> m ->> 'unit'), '')), '' ORDER BY o)
						 FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
			-- the verdict: the fastest design and its lead over the next;
			-- the design with the least capacity
			|| '<td class="verdict">' || CASE WHEN NOT r.identical THEN '<b class="bad">answers differ</b>' ELSE
				COALESCE((SELECT format('<b>%s</b> fastest%s', hroe.html_escape(f.m),
						CASE WHEN f.next_ms = f.ms THEN format(', tied with %s', hroe.html_escape(f.next_m))
							 WHEN f.next_ms IS NOT NULL AND f.ms > 0 THEN format(', %s&times; ahead of %s', round(f.next_ms / f.ms, 2), hroe.html_escape(f.next_m))
							 ELSE '' END)
					FROM (SELECT m, (r.m -> m ->> 'ms')::numeric AS ms,
								 lead((r.m -> m ->> 'ms')::numeric) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_ms,
								 lead(m) OVER (ORDER BY (r.m -> m ->> 'ms')::numeric, m) AS next_m
						  FROM unnest(v_models) m WHERE r.m -> m ->> 'ms' IS NOT NULL
						  ORDER BY 2, 1 LIMIT 1) f), '')
				|| COALESCE((SELECT format('; least capacity: <b>%s</b> (%s vs %s %s)', hroe.html_escape(f.m), f.cap, f.next_cap, f.unit)
					FROM (SELECT m, (r.m -> m ->> 'cap')::numeric AS cap, r.m -> m ->> 'unit' AS unit,
								 lead((r.m -> m ->> 'cap')::numeric) OVER (ORDER BY (r.m -> m ->> 'cap')::numeric, m) AS next_cap
						  FROM unnest(v_models) m WHERE r.m -> m ->> 'cap' IS NOT NULL
						  ORDER BY 2, 1 LIMIT 1) f WHERE f.next_cap IS NOT NULL AND f.next_cap <> f.cap), '') END
			|| '</td></tr>';
	END LOOP;
	v_body := v_body || '<section id="s-summary"><h2>Summary</h2><p>Per access pattern and argument set: whether the three designs return identical answers, each design''s median latency, the DynamoDB capacity a call consumes (RCU for reads, eventually consistent; WCU with index writes for writes), and the verdict. Click a column to sort.</p>'
		|| v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-summary">Summary</a>';

	-- every call, as hroe.compare returned it
	v_s := '<table id="details" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th>case</th><th>design</th><th>answers</th><th>DynamoDB request</th>'
		|| '<th data-sort="n">capacity</th><th data-sort="n">rows</th><th data-sort="n">items</th><th data-sort="n">item bytes</th>'
		|| '<th data-sort="n">buffers hit</th><th data-sort="n">buffers read</th><th data-sort="n">median ms</th><th>plan shape</th></tr></thead><tbody>';
	FOR r IN SELECT * FROM pg_temp.hroe_report_rows ORDER BY n LOOP
		v_s := v_s || format('<tr data-n="%s" data-pattern="%s" data-model="%s"><td data-v="%s">%s</td><td>%s</td><td>%s</td><td class="model">%s</td><td class="%s">%s</td><td class="request">%s</td>',
							 r.n, hroe.html_escape(r.pattern), hroe.html_escape(r.model), r.pattern_no, r.pattern_no, hroe.html_escape(r.pattern),
							 hroe.html_escape(r.case_label), hroe.html_escape(r.model), CASE WHEN r.identical THEN 'ok' ELSE 'bad' END,
							 CASE WHEN r.identical THEN 'identical' ELSE 'DIFFER' END, hroe.html_escape(COALESCE(r.request, '')))
			|| format('<td class="num capacity" data-v="%s">%s</td><td class="num rows" data-v="%s">%s</td><td class="num items" data-v="%s">%s</td><td class="num bytes" data-v="%s">%s</td>',
					  r.capacity, COALESCE(r.capacity || ' ' || r.capacity_unit, ''), r.result_rows, COALESCE(r.result_rows::text, ''),
					  r.items, COALESCE(r.items::text, ''), r.item_bytes, COALESCE(r.item_bytes::text, ''))
			|| format('<td class="num hit" data-v="%s">%s</td><td class="num read" data-v="%s">%s</td><td class="num ms" data-v="%s">%s</td><td class="plan">%s</td></tr>',
					  r.shared_hit, COALESCE(r.shared_hit::text, ''), r.shared_read, COALESCE(r.shared_read::text, ''),
					  r.median_ms, COALESCE(r.median_ms::text, ''), hroe.html_escape(COALESCE(r.plan_shape, '')));
	END LOOP;
	v_body := v_body || '<section id="s-details"><h2>Every call</h2><p>One row per call of hroe.compare(): the request it amounts to in DynamoDB, the capacity, the rows answered, the items the request evaluates and their bytes, the shared buffers hit and read, the median execution time, and the plan''s node types.</p>'
		|| v_s || '</tbody></table></section>';
	v_nav := v_nav || '<a href="#s-details">Every call</a>';

	-- charts: the first argument set of each pattern
	v_labels := ARRAY(SELECT format('%s %s', pattern_no, pattern) FROM pg_temp.hroe_report_rows
					  GROUP BY pattern_no, pattern ORDER BY pattern_no);
	SELECT jsonb_agg(jsonb_build_object('label', format('%s %s', c.pattern_no, c.pattern), 'series', c.model, 'value', c.median_ms))
	INTO v_data FROM pg_temp.hroe_report_rows c
	WHERE c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	v_body := v_body || '<section id="s-charts"><h2>Charts</h2><p>The first argument set of each pattern (log scales).</p><div class="charts">'
		|| hroe.report_bar_chart('chart-latency', 'Median latency per pattern and design', 'ms', v_labels, v_models, COALESCE(v_data, '[]'), true);
	SELECT jsonb_agg(jsonb_build_object('label', format('%s %s', c.pattern_no, c.pattern), 'series', c.model, 'value', c.capacity))
	INTO v_data FROM pg_temp.hroe_report_rows c
	WHERE c.capacity IS NOT NULL AND c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	IF v_data IS NOT NULL THEN
		v_body := v_body || hroe.report_bar_chart('chart-capacity', 'Capacity units per call (RCU reads, WCU writes)', 'units', v_labels,
												  ARRAY(SELECT m FROM unnest(v_models) m WHERE m <> 'hroe_normalized'), v_data, true);
	END IF;
	v_body := v_body || '</div>';
	IF jsonb_typeof(p_options -> 'growth') = 'array' AND jsonb_array_length(p_options -> 'growth') > 0 THEN
		v_body := v_body || '<h3 id="s-growth">Growth with the data (the benchmark''s curves)</h3><p>Median latency of the busiest argument set against the scale, from test/bench/compare.sh''s CSV (one client): '
			|| (SELECT string_agg(format('<span style="color:%s">&#9632;</span> %s', hroe.report_colour(m, o::integer), hroe.html_escape(m)), ' &nbsp; ' ORDER BY o)
				FROM (SELECT d ->> 'model' AS m, row_number() OVER (ORDER BY d ->> 'model') AS o
					  FROM jsonb_array_elements(p_options -> 'growth') d GROUP BY 1) g)
			|| '.</p><div class="growth">'
			|| (SELECT string_agg(hroe.report_growth_chart(g.p, p_options -> 'growth'), '' ORDER BY g.n, g.p)
				FROM (SELECT d ->> 'pattern' AS p, min((d ->> 'pattern_no')::integer) AS n
					  FROM jsonb_array_elements(p_options -> 'growth') d GROUP BY 1) g)
			|| '</div>';
	END IF;
	v_body := v_body || '</section>';
	v_nav := v_nav || '<a href="#s-charts">Charts</a>';

	-- the data as the guides draw it (only the models present)
	IF to_regnamespace('hroe_normalized') IS NOT NULL AND EXISTS (SELECT FROM hroe_normalized.orders) THEN
		-- an account manager who changed job: versions in the table, the
		-- customers in GSI1
		v_emp := COALESCE((p_options ->> 'employee_id')::integer,
						  (SELECT min(j.employee_id) FROM hroe_normalized.job_history j
						   WHERE EXISTS (SELECT FROM hroe_normalized.customers c WHERE c.account_mgr_id = j.employee_id)),
						  (SELECT min(employee_id) FROM hroe_normalized.job_history),
						  (SELECT min(employee_id) FROM hroe_normalized.employees));
		v_order := COALESCE((p_options ->> 'order_id')::bigint,
							(SELECT max(order_id) FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL),
							(SELECT max(order_id) FROM hroe_normalized.orders));
		v_product := COALESCE((p_options ->> 'product_id')::integer, (SELECT min(product_id) FROM hroe_normalized.inventories),
							  (SELECT min(product_id) FROM hroe_normalized.product_information));
		v_s := '';
		IF 'hroe_single' = ANY (v_models) AND EXISTS (SELECT FROM hroe.tables WHERE table_name = 'hroe_single') THEN
			v_s := v_s || format('<h3>hroe_single: the table, by item collection</h3><p>Samples: employee %s, order %s, product %s. Each entity type has its colour; the partition key spans its item collection.</p>', v_emp, v_order, v_product)
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('HR-EMPLOYEE#%s', lpad(v_emp::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('OE-ORDER#%s', lpad(v_order::text, 19, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', NULL, format('OE-PRODUCT#%s', lpad(v_product::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<h3>hroe_single: each GSI, the same items regrouped under its keys</h3><p>Items without the index''s key attributes are absent (sparse indexes).</p>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI1', format('PRODUCT#%s', lpad(v_product::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI1', format('EMPLOYEE#%s', lpad(v_emp::text, 10, '0')), v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI3', 'EMPLOYEE-NAME#', v_grid_items, 'html') || '</div>'
				|| '<div class="grid">' || hroe.grid('hroe_single', 'GSI4', format('CUSTOMER#%s', lpad((SELECT customer_id FROM hroe_normalized.orders WHERE order_id = v_order)::text, 10, '0')), v_grid_items, 'html') || '</div>';
			-- GSI2, write-sharded: its shards side by side
			v_s := v_s || '<h3>hroe_single: GSI2, write-sharded, its shards side by side</h3><p>Only OPEN orders carry GSI2_PK, a shard number; a Query for open orders reads every shard and merges them by date. The first four shards, keys only.</p><div class="shards">';
			FOR i IN 0 .. LEAST(3, COALESCE((SELECT (hroe.item_get_number(m.item, 'shard_count'))::integer FROM hroe_single.items m
											  WHERE m.pk OPERATOR(hroe.=) 'HROE-META'::hroe.key LIMIT 1), 4) - 1) LOOP
				v_s := v_s || '<div class="grid shard">' || hroe.grid('hroe_single', 'GSI2', i::text, LEAST(v_grid_items, 6), 'html') || '</div>';
			END LOOP;
			v_s := v_s || '</div>';
		END IF;
		IF 'hroe_multi' = ANY (v_models) AND to_regnamespace('hroe_multi') IS NOT NULL THEN
			v_s := v_s || '<h3>hroe_multi: the tables</h3>';
			FOR r IN SELECT h.table_name FROM hroe.tables h JOIN pg_class c ON c.oid = h.relid
					 WHERE c.relnamespace = 'hroe_multi'::regnamespace ORDER BY c.oid LOOP
				v_first := CASE r.table_name WHEN 'Employee' THEN format('emp_%s', lpad(v_emp::text, 10, '0'))
											 WHEN 'Order' THEN format('ord_%s', lpad(v_order::text, 19, '0'))
											 WHEN 'Product' THEN format('prod_%s', lpad(v_product::text, 10, '0'))
											 WHEN 'Customer' THEN format('cust_%s', lpad((SELECT customer_id FROM hroe_normalized.orders WHERE order_id = v_order)::text, 10, '0')) END;
				v_s := v_s || '<div class="grid">' || hroe.grid(r.table_name, NULL, v_first, LEAST(v_grid_items, 8), 'html') || '</div>';
			END LOOP;
			v_s := v_s || '<h3>hroe_multi: the GSIs</h3>';
			FOR v_idx IN SELECT x.table_name, x.index_name FROM hroe.indexes x JOIN hroe.tables h USING (table_name)
						 JOIN pg_class c ON c.oid = h.relid
						 WHERE c.relnamespace = 'hroe_multi'::regnamespace ORDER BY c.oid, x.created_at, x.index_name LOOP
				v_s := v_s || '<div class="grid">' || hroe.grid(v_idx.table_name, v_idx.index_name, NULL, LEAST(v_grid_items, 6), 'html') || '</div>';
			END LOOP;
		END IF;
		IF v_s <> '' THEN
			v_body := v_body || '<section id="s-data"><h2>The data as the design guides draw it</h2>' || v_s || '</section>';
			v_nav := v_nav || '<a href="#s-data">Data</a>';
		END IF;
	END IF;

	-- cost in money: DynamoDB on-demand, for the request mix
	v_s := format('<p>DynamoDB on-demand prices (us-east-1, read %s): $%s per million read request units, $%s per million write request units, $%s per GB-month of storage. A read request unit is one RCU of an eventually consistent read here (the capacity column), a write request unit one WCU. Request mix per month: %s.</p>',
				  hroe.html_escape(v_prices_read), v_read_price, v_write_price, v_storage_price,
				  CASE WHEN p_options ? 'mix' THEN 'as given' ELSE '1,000,000 calls of each read pattern and 100,000 of each write pattern (the default)' END)
		|| '<table id="cost" class="sortable"><thead><tr><th data-sort="n">#</th><th>pattern</th><th data-sort="n">calls / month</th>'
		|| COALESCE((SELECT string_agg(format('<th data-sort="n">%1$s $ / million calls</th><th data-sort="n">%1$s $ / month</th>', hroe.html_escape(m)), '' ORDER BY o)
			FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '</tr></thead><tbody>';
	TRUNCATE pg_temp.hroe_report_cost;
	INSERT INTO pg_temp.hroe_report_cost
	SELECT c.pattern_no, c.pattern, c.model,
		   COALESCE((p_options -> 'mix' ->> c.pattern)::numeric, CASE WHEN p_options ? 'mix' THEN 0 WHEN c.kind = 'read' THEN 1000000 ELSE 100000 END),
		   c.capacity * CASE WHEN c.capacity_unit = 'WCU' THEN v_write_price ELSE v_read_price END
	FROM pg_temp.hroe_report_rows c
	WHERE c.capacity IS NOT NULL
	  AND c.case_no = (SELECT min(c2.case_no) FROM pg_temp.hroe_report_rows c2 WHERE c2.pattern_no = c.pattern_no);
	FOR r IN SELECT pattern_no, pattern, max(calls) AS calls, jsonb_object_agg(model, per_million) AS m
			 FROM pg_temp.hroe_report_cost GROUP BY pattern_no, pattern ORDER BY pattern_no LOOP
		v_s := v_s || format('<tr><td data-v="%s">%s</td><td>%s</td><td class="num" data-v="%s">%s</td>', r.pattern_no, r.pattern_no,
							 hroe.html_escape(r.pattern), r.calls, to_char(r.calls, 'FM999,999,999,999'))
			|| (SELECT string_agg(format('<td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td>',
										 r.m ->> m, COALESCE(to_char((r.m ->> m)::numeric, 'FM999,999,990.0000'), ''),
										 (r.m ->> m)::numeric * r.calls / 1000000,
										 COALESCE(to_char((r.m ->> m)::numeric * r.calls / 1000000, 'FM999,999,990.0000'), '')), '' ORDER BY o)
				FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized')
			|| '</tr>';
	END LOOP;
	v_s := v_s || '</tbody><tfoot><tr><th></th><th>requests, per month</th><th></th>'
		|| COALESCE((SELECT string_agg(format('<th></th><th class="num" id="cost-total-%s">$%s</th>', hroe.html_escape(m),
										  to_char(COALESCE((SELECT sum(per_million * calls / 1000000) FROM pg_temp.hroe_report_cost k WHERE k.model = m), 0), 'FM999,999,990.00')), '' ORDER BY o)
					 FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE m <> 'hroe_normalized'), '')
		|| '</tr></tfoot></table>';
	-- storage: what each design takes in PostgreSQL, and what DynamoDB
	-- would bill (each item and each GSI entry plus 100 bytes)
	v_s := v_s || '<h3>Storage</h3><table id="storage"><thead><tr><th>design</th><th>PostgreSQL (tables, indexes, TOAST)</th><th>DynamoDB billed size (items and GSI entries, +100 B each)</th><th>DynamoDB storage $ / month</th></tr></thead><tbody>';
	FOR r IN SELECT m, o FROM unnest(v_models) WITH ORDINALITY u (m, o) WHERE to_regnamespace(m) IS NOT NULL ORDER BY o LOOP
		DECLARE
			v_pg bigint;
			v_ddb numeric := 0;
			v_part numeric;
			t record;
		BEGIN
			SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0) INTO v_pg FROM pg_class c
			WHERE c.relnamespace = r.m::regnamespace AND c.relkind IN ('r', 'm', 'p');
			IF r.m <> 'hroe_normalized' AND COALESCE((p_options ->> 'dynamodb_storage')::boolean, true) THEN
				FOR t IN SELECT h.table_name, h.relid FROM hroe.tables h JOIN pg_class c ON c.oid = h.relid
						 WHERE c.relnamespace = r.m::regnamespace LOOP
					EXECUTE format('SELECT COALESCE(sum(hroe.item_size(x.item) + 100), 0)%s FROM %s x',
						(SELECT string_agg(format(' + COALESCE(sum(hroe.index_entry_size(x.item, %L, %L) + 100), 0)', t.table_name, i.index_name), '')
						 FROM hroe.indexes i WHERE i.table_name = t.table_name), t.relid)
					INTO v_part;
					v_ddb := v_ddb + v_part;
				END LOOP;
			ELSE
				v_ddb := NULL;
			END IF;
			v_s := v_s || format('<tr data-model="%s"><td>%s</td><td class="num" data-v="%s">%s</td><td class="num" data-v="%s">%s</td><td class="num">%s</td></tr>',
								 hroe.html_escape(r.m), hroe.html_escape(r.m), v_pg, pg_size_pretty(v_pg), v_ddb,
								 COALESCE(pg_size_pretty(v_ddb), ''), COALESCE('$' || to_char(v_ddb / 1073741824.0 * v_storage_price, 'FM999,999,990.0000'), ''));
		END;
	END LOOP;
	v_s := v_s || '</tbody></table>';
	v_body := v_body || '<section id="s-cost"><h2>Cost in money</h2>' || v_s || '</section>';
	v_nav := v_nav || '<a href="#s-cost">Cost</a>';

	v_html := '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">'
		|| '<title>hroe: three designs compared</title><style>'
		|| 'body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#0f172a;background:#fff}'
		|| 'header{background:#0f172a;color:#f8fafc;padding:14px 24px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#cbd5e1}'
		|| 'nav{position:sticky;top:0;background:#f1f5f9;padding:6px 24px;border-bottom:1px solid #cbd5e1;z-index:1}nav a{margin-right:16px;color:#1d4ed8;text-decoration:none}'
		|| 'main{padding:0 24px 40px}h2{margin:26px 0 6px;font-size:18px}h3{margin:18px 0 6px;font-size:15px}'
		|| 'table.sortable,#storage{border-collapse:collapse;font-size:12.5px}table.sortable th,table.sortable td,#storage th,#storage td{border-bottom:1px solid #e2e8f0;padding:3px 7px;text-align:left;vertical-align:top}'
		|| 'table.sortable thead th{background:#f8fafc;cursor:pointer;position:sticky;top:30px}table.sortable thead th:hover{background:#e2e8f0}'
		|| 'table td.num,table th.num{text-align:right;font-variant-numeric:tabular-nums}td.win{font-weight:700;background:#dcfce7}.ok{color:#15803d}.bad{color:#b91c1c;font-weight:700}'
		|| 'td.request,td.plan{font-family:ui-monospace,monospace;font-size:11.5px;max-width:380px}td.verdict{min-width:260px}'
		|| '.charts{display:flex;flex-wrap:wrap;gap:24px}.growth{display:flex;flex-wrap:wrap;gap:8px}.grid{margin:10px 0 18px;overflow-x:auto}'
		|| '.shards{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}.shards .grid{flex:1 1 640px;margin:0}.shards tbody td:last-child,.shards thead th:last-child{display:none}'
		|| '</style></head><body><header><h1>hroe: three designs compared, pattern by pattern</h1>'
		|| format('<p>Designs: %s &middot; %s calls &middot; %s order(s) in hroe_normalized &middot; %s</p>',
				  hroe.html_escape(array_to_string(v_models, ', ')), (SELECT count(*) FROM pg_temp.hroe_report_rows),
				  CASE WHEN to_regnamespace('hroe_normalized') IS NOT NULL THEN (SELECT count(*) FROM hroe_normalized.orders)::text ELSE '?' END,
				  hroe.html_escape(split_part(version(), ',', 1)))
		|| '</header><nav>' || v_nav || '</nav><main>' || v_body || '</main>'
		|| '<script type="application/json" id="hroe-compare-data">' || replace(p_results::text, '</', '<\/') || '</script>'
		|| '<script>document.querySelectorAll("table.sortable").forEach(function(t){t.querySelectorAll("thead th").forEach(function(h,i){h.addEventListener("click",function(){'
		|| 'var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows),n=h.getAttribute("data-sort")==="n",d=h.getAttribute("data-dir")==="asc"?-1:1;'
		|| 'rs.sort(function(x,y){var a=x.cells[i],c=y.cells[i];if(!a||!c)return 0;var p=a.getAttribute("data-v"),q=c.getAttribute("data-v");'
		|| 'if(n){p=p===null||p===""?Infinity:+p;q=q===null||q===""?Infinity:+q;return p===q?0:(p<q?-d:d);}return a.textContent.localeCompare(c.textContent)*d;});'
		|| 'rs.forEach(function(r){b.appendChild(r);});h.setAttribute("data-dir",d===1?"asc":"desc");});});});</script>'
		|| '</body></html>';
	RETURN v_html;
END
$$;
COMMENT ON FUNCTION hroe.compare_html(jsonb, jsonb) IS
'the comparison as one self-contained HTML page, rendered from the rows of one hroe.compare() run (p_results: their jsonb array, e.g. SELECT jsonb_agg(c) FROM hroe.compare() c), so that its figures are that run''s: the summary per pattern with the verdict, every call, SVG charts (and the benchmark''s growth curves from p_options.growth [{"scale", "pattern", "model", "ms"}]), the models'' tables and indexes drawn by hroe.grid for sample employee_id, order_id, product_id (p_options, defaults chosen from the data; grid_items, default 12), and the DynamoDB on-demand cost of a request mix (p_options.mix {"pattern": calls per month}; read_price, write_price per million request units, storage_price per GB-month: defaults 0.125, 0.625, 0.25, us-east-1, read 2026-11-27) beside each design''s storage';

CREATE FUNCTION hroe.compare_report_html(p_patterns text[] DEFAULT NULL, p_models text[] DEFAULT NULL, p_runs integer DEFAULT 5,
										 p_options jsonb DEFAULT '{}')
RETURNS text
LANGUAGE sql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT hroe.compare_html(COALESCE(jsonb_agg(to_jsonb(c) - 'ordinality' ORDER BY c.ordinality), '[]'), p_options)
FROM hroe.compare(p_patterns, p_models, p_runs) WITH ORDINALITY AS c
$$;
COMMENT ON FUNCTION hroe.compare_report_html(text[], text[], integer, jsonb) IS
'runs hroe.compare once and renders its rows with hroe.compare_html as one self-contained HTML page (p_options as hroe.compare_html''s)';
