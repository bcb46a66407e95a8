
-- ---------------------------------------------------------------------
-- hroe.key: a DynamoDB string key, possibly composite (levels joined by
-- '#'), ordered as DynamoDB orders strings (src/types/key.c, src/types/key_support.c)
-- ---------------------------------------------------------------------

CREATE TYPE hroe.key;

CREATE FUNCTION hroe.key_in(cstring) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_out(hroe.key) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_key_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_recv(internal) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_send(hroe.key) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_key_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
	AS 'MODULE_PATHNAME', 'hroe_key_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_ne(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_lt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_le(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_gt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_ge(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_cmp(hroe.key, hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'hroe_key_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_hash(hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_hash_extended(hroe.key, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_key_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION hroe.key_larger(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_smaller(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
	AS 'MODULE_PATHNAME', 'hroe_key_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_match_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME', 'hroe_key_match_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_begins_with(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_ancestor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_descendant' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;

-- Run-time bounds of the index ranges (used when the operand is not a
-- constant, e.g. a parameter of a generic plan); each returns a valid key.
CREATE FUNCTION hroe.key_prefix_max(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_descendant_lower(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_descendant_upper(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
	AS 'MODULE_PATHNAME', 'hroe_key_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION hroe.key_from_text(text) IS 'internal: cast text to hroe.key, validating it (non-empty, at most 2048 bytes)';
CREATE CAST (hroe.key AS text) WITHOUT FUNCTION AS ASSIGNMENT;
CREATE CAST (text AS hroe.key) WITH FUNCTION hroe.key_from_text(text) AS IMPLICIT;

-- Composite keys
CREATE FUNCTION hroe.key(VARIADIC components text[]) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_build' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_split(k hroe.key) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_key_split' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_component(k hroe.key, n integer) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_key_component' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_levels(k hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_levels' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_prefix(k hroe.key, n integer) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION hroe.key_append(k hroe.key, component text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_append' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.key(text[]) IS 'build a composite key: the components joined by #; a component containing # is an error';
COMMENT ON FUNCTION hroe.key_split(hroe.key) IS 'the components (levels) of a key, split at #; empty levels are kept';
COMMENT ON FUNCTION hroe.key_component(hroe.key, integer) IS 'the n-th level of a key (1-based; negative counts from the end); NULL when there is none';
COMMENT ON FUNCTION hroe.key_levels(hroe.key) IS 'the number of levels of a key (number of # plus one)';
COMMENT ON FUNCTION hroe.key_prefix(hroe.key, integer) IS 'the first n levels of a key (negative n: all but the last -n levels)';
COMMENT ON FUNCTION hroe.key_append(hroe.key, text) IS 'append a level: key || ''#'' || component';
