/*-------------------------------------------------------------------------
 *
 * hroe_legacy_names.c
 *	  The C entry points under the names the released install scripts give
 *	  them (upgrade/hroe--0.1.sql, hroe--0.2.sql), for a library built with
 *	  make HROE_LEGACY=1 only.
 *
 * Until 0.3 the SQL-callable functions of the key, item and collection types
 * had names without hroe's prefix (item_in, key_cmp, ...); they are hroe_...
 * now, the only names hroe's own code and the 0.3 install script use, and
 * the only ones the default build exports (test/t_release_build.sh).  A
 * database of an earlier release names the old symbols in its catalog until
 * ALTER EXTENSION hroe UPDATE, whose script points every one of them at its
 * new name before anything else, so the update itself needs none of them.
 * What does need them: using such a database, or pg_upgrade of its cluster,
 * before the update, and installing an earlier release (PostgreSQL looks a
 * C function's symbol up when it is created, whatever check_function_bodies
 * says).  For those, make HROE_LEGACY=1 builds a library that also exports
 * the names below, each one only calling its new name (README "Updating");
 * test/t_upgrade.sh builds it to create the databases of earlier releases,
 * then updates them with the default library.
 *
 * src/legacy/hroe_legacy_names.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

/* old: the released scripts' symbol; new: the function it calls */
#define HROE_LEGACY(old, new) \
	extern Datum new(PG_FUNCTION_ARGS); \
	PG_FUNCTION_INFO_V1(old); \
	Datum \
	old(PG_FUNCTION_ARGS) \
	{ \
		return new(fcinfo); \
	}

HROE_LEGACY(item_attributes, hroe_item_attributes)
HROE_LEGACY(item_collection_agg_final, hroe_item_collection_agg_final)
HROE_LEGACY(item_collection_agg_trans, hroe_item_collection_agg_trans)
HROE_LEGACY(item_collection_begins_with, hroe_item_collection_begins_with)
HROE_LEGACY(item_collection_between, hroe_item_collection_between)
HROE_LEGACY(item_collection_count, hroe_item_collection_count)
HROE_LEGACY(item_collection_from_attribute, hroe_item_collection_from_attribute)
HROE_LEGACY(item_collection_get, hroe_item_collection_get)
HROE_LEGACY(item_collection_in, hroe_item_collection_in)
HROE_LEGACY(item_collection_items, hroe_item_collection_items)
HROE_LEGACY(item_collection_out, hroe_item_collection_out)
HROE_LEGACY(item_collection_recv, hroe_item_collection_recv)
HROE_LEGACY(item_collection_send, hroe_item_collection_send)
HROE_LEGACY(item_collection_size, hroe_item_collection_total_size)
HROE_LEGACY(item_embed_collection, hroe_item_embed_collection)
HROE_LEGACY(item_eq, hroe_item_eq)
HROE_LEGACY(item_exists, hroe_item_exists)
HROE_LEGACY(item_from_document, hroe_item_from_document)
HROE_LEGACY(item_from_jsonb, hroe_item_cast_from_jsonb)
HROE_LEGACY(item_get, hroe_item_get)
HROE_LEGACY(item_get_attribute, hroe_item_get_attribute)
HROE_LEGACY(item_get_binary, hroe_item_get_binary)
HROE_LEGACY(item_get_bool, hroe_item_get_bool)
HROE_LEGACY(item_get_key, hroe_item_get_key)
HROE_LEGACY(item_get_number, hroe_item_get_number)
HROE_LEGACY(item_get_text, hroe_item_get_text)
HROE_LEGACY(item_get_type, hroe_item_get_type)
HROE_LEGACY(item_hash, hroe_item_hash)
HROE_LEGACY(item_in, hroe_item_in)
HROE_LEGACY(item_merge, hroe_item_merge)
HROE_LEGACY(item_ne, hroe_item_ne)
HROE_LEGACY(item_out, hroe_item_out)
HROE_LEGACY(item_path_exists, hroe_item_path_exists)
HROE_LEGACY(item_recv, hroe_item_recv)
HROE_LEGACY(item_remove, hroe_item_remove)
HROE_LEGACY(item_remove_one, hroe_item_remove_one)
HROE_LEGACY(item_send, hroe_item_send)
HROE_LEGACY(item_set, hroe_item_set)
HROE_LEGACY(item_size, hroe_item_size_of)
HROE_LEGACY(item_to_document, hroe_item_to_document)
HROE_LEGACY(item_to_jsonb, hroe_item_to_jsonb)
HROE_LEGACY(key_append, hroe_key_append)
HROE_LEGACY(key_begins_with, hroe_key_begins_with)
HROE_LEGACY(key_build, hroe_key_build)
HROE_LEGACY(key_cmp, hroe_key_cmp)
HROE_LEGACY(key_component, hroe_key_component)
HROE_LEGACY(key_descendant_lower, hroe_key_descendant_lower)
HROE_LEGACY(key_descendant_upper, hroe_key_descendant_upper)
HROE_LEGACY(key_eq, hroe_key_eq)
HROE_LEGACY(key_from_text, hroe_key_from_text)
HROE_LEGACY(key_ge, hroe_key_ge)
HROE_LEGACY(key_gt, hroe_key_gt)
HROE_LEGACY(key_hash, hroe_key_hash)
HROE_LEGACY(key_hash_extended, hroe_key_hash_extended)
HROE_LEGACY(key_in, hroe_key_in)
HROE_LEGACY(key_is_ancestor, hroe_key_is_ancestor)
HROE_LEGACY(key_is_descendant, hroe_key_is_descendant)
HROE_LEGACY(key_larger, hroe_key_larger)
HROE_LEGACY(key_le, hroe_key_le)
HROE_LEGACY(key_levels, hroe_key_levels)
HROE_LEGACY(key_lt, hroe_key_lt)
HROE_LEGACY(key_match_sel, hroe_key_match_sel)
HROE_LEGACY(key_ne, hroe_key_ne)
HROE_LEGACY(key_out, hroe_key_out)
HROE_LEGACY(key_prefix, hroe_key_prefix)
HROE_LEGACY(key_prefix_max, hroe_key_prefix_max)
HROE_LEGACY(key_recv, hroe_key_recv)
HROE_LEGACY(key_send, hroe_key_send)
HROE_LEGACY(key_smaller, hroe_key_smaller)
HROE_LEGACY(key_sortsupport, hroe_key_sortsupport)
HROE_LEGACY(key_split, hroe_key_split)
HROE_LEGACY(key_support, hroe_key_support)
