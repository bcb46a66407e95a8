-- hroe 0.2 -> 0.3 (ALTER EXTENSION hroe UPDATE TO '0.3')
--
-- What changed (CHANGELOG.md, 0.3): each change to the install script's
-- pieces in src/ is repeated here, so that an updated 0.2 database has the
-- catalog of a fresh 0.3 installation (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe UPDATE TO '0.3'" to load this file. \quit

-- The SQL-callable C functions of hroe.key, hroe.item and
-- hroe.item_collection are named hroe_... in hroe.so (its exported symbols
-- all carry hroe's prefix, test/t_release_build.sh); each function of 0.2
-- points at its new name.  First in this script: until then the catalog
-- names the old symbols, which hroe.so keeps only as calls to the new ones
-- (src/hroe_legacy.c).
CREATE OR REPLACE FUNCTION hroe.key_in(cstring) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_out(hroe.key) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_key_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_recv(internal) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_send(hroe.key) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_key_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_eq(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_ne(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_lt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_le(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_gt(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_ge(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_cmp(hroe.key, hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'hroe_key_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_hash(hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_hash_extended(hroe.key, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_key_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE OR REPLACE FUNCTION hroe.key_larger(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_larger' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_smaller(hroe.key, hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_smaller' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'hroe_key_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_match_sel(internal, oid, internal, integer) RETURNS float8
	AS 'MODULE_PATHNAME', 'hroe_key_match_sel' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_begins_with(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_is_ancestor(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_ancestor' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_is_descendant(hroe.key, hroe.key) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_key_is_descendant' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT hroe.key_support;
CREATE OR REPLACE FUNCTION hroe.key_prefix_max(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix_max' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_descendant_lower(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_lower' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_descendant_upper(hroe.key) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_descendant_upper' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_from_text(text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key(VARIADIC components text[]) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_build' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_split(k hroe.key) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_key_split' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_component(k hroe.key, n integer) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_key_component' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_levels(k hroe.key) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_key_levels' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_prefix(k hroe.key, n integer) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_prefix' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.key_append(k hroe.key, component text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_key_append' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_in(cstring) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_out(hroe.item) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_recv(internal) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_send(hroe.item) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_eq(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_ne(hroe.item, hroe.item) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_hash(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_size(hroe.item) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_size_of' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_to_jsonb(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_from_jsonb(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_cast_from_jsonb' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_to_document(hroe.item) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_to_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_from_document(jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_from_document' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_path_exists(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_path_exists' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_attribute(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get(hroe.item, text) RETURNS jsonb
	AS 'MODULE_PATHNAME', 'hroe_item_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_type(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_type' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_text(hroe.item, text) RETURNS text
	AS 'MODULE_PATHNAME', 'hroe_item_get_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_key(hroe.item, text) RETURNS hroe.key
	AS 'MODULE_PATHNAME', 'hroe_item_get_key' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_number(hroe.item, text) RETURNS numeric
	AS 'MODULE_PATHNAME', 'hroe_item_get_number' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_binary(hroe.item, text) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_get_binary' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_get_bool(hroe.item, text) RETURNS boolean
	AS 'MODULE_PATHNAME', 'hroe_item_get_bool' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_attributes(hroe.item) RETURNS text[]
	AS 'MODULE_PATHNAME', 'hroe_item_attributes' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_merge(hroe.item, hroe.item) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_merge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_set(hroe.item, text, jsonb) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_set' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_remove(hroe.item, VARIADIC text[]) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_remove_attribute(hroe.item, text) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_remove_one' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_in(cstring) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_in' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_out(hroe.item_collection) RETURNS cstring
	AS 'MODULE_PATHNAME', 'hroe_item_collection_out' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_recv(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_recv' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_send(hroe.item_collection) RETURNS bytea
	AS 'MODULE_PATHNAME', 'hroe_item_collection_send' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_agg_trans(internal, hroe.key, hroe.item) RETURNS internal
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_agg_final(internal) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_agg_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_items(hroe.item_collection, OUT sort_key hroe.key, OUT item hroe.item)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'hroe_item_collection_items' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 10;
CREATE OR REPLACE FUNCTION hroe.item_collection_count(hroe.item_collection) RETURNS integer
	AS 'MODULE_PATHNAME', 'hroe_item_collection_count' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_size(hroe.item_collection) RETURNS bigint
	AS 'MODULE_PATHNAME', 'hroe_item_collection_total_size' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_get(hroe.item_collection, hroe.key) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_collection_get' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_begins_with(hroe.item_collection, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_begins_with' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_between(hroe.item_collection, hroe.key, hroe.key) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_between' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_embed_collection(hroe.item, text, hroe.item_collection) RETURNS hroe.item
	AS 'MODULE_PATHNAME', 'hroe_item_embed_collection' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.item_collection_from_attribute(hroe.item, text, text) RETURNS hroe.item_collection
	AS 'MODULE_PATHNAME', 'hroe_item_collection_from_attribute' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
