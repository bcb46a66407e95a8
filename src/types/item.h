/*-------------------------------------------------------------------------
 *
 * item.h
 *	  hroe.item: a DynamoDB item (a typed attribute map) in a compact binary
 *	  form, and the C API the other hroe modules use to read and build items.
 *
 * Binary format (version 1).  All integers are little-endian-native uint32
 * read with memcpy, so no alignment is assumed.  A *value* is a type tag byte
 * followed by a payload; its length is always known from the container that
 * holds it:
 *
 *	 S, B		raw bytes (S is UTF-8, U+0000 included: lengths are explicit)
 *	 N			the canonical decimal text (plain digits, never an exponent)
 *	 BOOL		one byte, 0 or 1
 *	 NULL		nothing
 *	 L			uint32 count, uint32 off[count], then the tagged elements;
 *				element i spans [off[i], off[i+1]) of the payload
 *	 M			uint32 count, {uint32 name_off, uint32 val_off}[count], then
 *				all the names, then all the tagged values; entries sorted by
 *				name bytes, so one attribute is found by binary search that
 *				touches only the directory and the names
 *	 SS NS BS	like L, but the members are untagged payloads, sorted
 *				(SS, BS bytewise, NS numerically) and unique
 *
 * An item is a varlena: int32 header, uint8 version, 3 zero bytes, uint32
 * DynamoDB size (computed once, on input), then an M payload.
 *
 * Every function that takes a HroeValue trusts it: values come from items
 * that were validated on input (text, binary or built here).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_ITEM_H
#define HROE_ITEM_H

#include "fmgr.h"
#include "lib/stringinfo.h"

#include "dynamodb_limits.h"

#define HROE_ITEM_VERSION		1
#define HROE_ITEM_HDRSZ			(VARHDRSZ + 8)

/* Value types; the numbers are the tags stored in the binary format */
typedef enum HroeType
{
	HROE_S = 1,
	HROE_N = 2,
	HROE_B = 3,
	HROE_BOOL = 4,
	HROE_NULL = 5,
	HROE_L = 6,
	HROE_M = 7,
	HROE_SS = 8,
	HROE_NS = 9,
	HROE_BS = 10
} HroeType;

/* The item varlena */
typedef struct HroeItem
{
	int32		vl_len_;		/* varlena header (do not touch directly) */
	uint8		version;		/* HROE_ITEM_VERSION */
	uint8		unused[3];		/* always zero */
	uint32		size;			/* DynamoDB item size in bytes */
	char		body[FLEXIBLE_ARRAY_MEMBER];	/* M payload */
} HroeItem;

#define DatumGetHroeItemP(X)	((HroeItem *) PG_DETOAST_DATUM(X))
#define PG_GETARG_HROE_ITEM_P(n) DatumGetHroeItemP(PG_GETARG_DATUM(n))
#define PG_RETURN_HROE_ITEM_P(x) PG_RETURN_POINTER(x)
#define HroeItemBodyLen(it)		(VARSIZE(it) - HROE_ITEM_HDRSZ)

/*
 * A read-only view of one value inside an item: its type and payload (the
 * bytes after the tag).  Members of SS/NS/BS are viewed as S/N/B values.
 */
typedef struct HroeValue
{
	HroeType	type;
	const char *data;
	uint32		len;
} HroeValue;

/* ---- reading ---- */

/* The item's attribute map as an M value */
extern void hroe_item_root(const HroeItem *item, HroeValue *map);

/* The item's DynamoDB size, read in O(1) */
static inline uint32
hroe_item_size(const HroeItem *item)
{
	return item->size;
}

/* Number of entries of an L, M or set value (0 for scalars) */
extern uint32 hroe_value_count(const HroeValue *v);

/* Entry i of an M value: name bytes and value */
extern void hroe_map_entry(const HroeValue *map, uint32 i,
						   const char **name, uint32 *namelen, HroeValue *val);

/* Find an attribute of an M value by name (binary search); false if absent */
extern bool hroe_map_find(const HroeValue *map, const char *name, uint32 namelen,
						  HroeValue *val);

/* Element i of an L value, or member i of a set (as an S, N or B value) */
extern void hroe_list_element(const HroeValue *list, uint32 i, HroeValue *elem);

/*
 * Follow a document path ("a.b[2].c") from an item; false if any step is
 * missing or of the wrong container type.  Errors on a malformed path.
 */
extern bool hroe_item_path(const HroeItem *item, const char *path, int pathlen,
						   HroeValue *val);

/* Type names as DynamoDB spells them ("S", "NS", ...) */
extern const char *hroe_type_name(HroeType type);

/* DynamoDB's message for an empty set: kind 'S', 'N' or 'B' */
extern const char *hroe_set_empty_message(char kind);

/* DynamoDB's SerializationException text for malformed base64 of len chars */
extern const char *hroe_base64_message(uint32 len);

/* Input bytes quoted in an error message: invalid UTF-8 and NUL as \xNN */
extern void hroe_append_message_bytes(StringInfo buf, const char *s, uint32 len);
extern char *hroe_message_bytes(const char *s, uint32 len);

/* DynamoDB size of one value (doc/dynamodb-rules.md#keys-and-item-size) */
extern int64 hroe_value_size(const HroeValue *v);

/*
 * Levels of values in one trusted value (a scalar, a set or an empty L or M
 * 1, else 1 + its members'), and DynamoDB's error for a value written at
 * level HROE_ITEM_MAX_DEPTH + 1 (doc/dynamodb-rules.md#types)
 */
extern int	hroe_value_depth(const HroeValue *v);
extern void hroe_nesting_error(void) pg_attribute_noreturn();

/* N value as a numeric Datum (backend only) */
extern Datum hroe_value_numeric(const HroeValue *v);

/* Order of two canonical number texts (-1, 0, 1) */
extern int	hroe_number_compare(const char *a, uint32 alen, const char *b, uint32 blen);

/*
 * Normalise a DynamoDB number text as DynamoDB does (section 1); ereports
 * DynamoDB's E9 errors.  Returns the canonical text (palloc'd, NUL-ended).
 */
extern char *hroe_number_normalize(const char *text, int len, int *outlen);

/* The same, returning NULL with *error set to DynamoDB's E9 message */
extern char *hroe_number_canonical(const char *text, int len, const char **error);

/* Whether two values are equal (same type, same canonical payload) */
extern bool hroe_value_equal(const HroeValue *a, const HroeValue *b);

/* ---- text form ---- */

/* Parse an item from DynamoDB JSON text; ereports on any invalid input */
extern HroeItem *hroe_item_parse(const char *json, int len);
extern void hroe_check_name_length(uint32 len);

/* Parse one AttributeValue ({"S": "x"}) into a palloc'd HroeValue */
extern void hroe_value_parse(const char *json, int len, HroeValue *val);

/* Append an item / a value as DynamoDB JSON */
extern void hroe_item_write(StringInfo buf, const HroeItem *item);
/* The same, maps' members in jsonb's order of keys (length, then bytes) */
extern void hroe_item_write_jsonb_order(StringInfo buf, const HroeItem *item);

/*
 * The I/O of hroe's varlena types (hroe.item, hroe.item_collection): a
 * buffer sized for the text output of a value of vsize bytes, and the
 * binary output, the stored form after the varlena header (v, vsize bytes)
 */
extern StringInfo hroe_text_out_buffer(Size vsize);
extern bytea *hroe_varlena_send(const void *v, Size vsize);
extern void hroe_value_write(StringInfo buf, const HroeValue *v);
/* Append an M value's members as a JSON object, a string as a JSON string */
extern void hroe_map_write(StringInfo buf, const HroeValue *map);
extern void hroe_json_string_write(StringInfo buf, const char *s, uint32 len);

/*
 * One AttributeValue to and from jsonb ({"N": "5"}), backend only; the
 * jsonb is validated like text input.
 */
extern struct varlena *hroe_value_to_jsonb(const HroeValue *v);	/* a Jsonb */
extern void hroe_value_from_jsonb(struct varlena *jb, HroeValue *val);	/* detoasted */
#ifdef __JSONB_H__
/*
 * nul_ok: strings holding U+0000 may go into the jsonb, whose user writes it
 * with hroe_jsonb_write or checks it (the JSON API); else they are refused
 */
extern JsonbValue *hroe_item_push_jsonb(JsonbParseState **st, const HroeItem *item,
										bool nul_ok);
extern HroeItem *hroe_item_from_jsonb(JsonbContainer *c, int len);

/*
 * JSON text and jsonb with U+0000 in strings (which jsonb_in and
 * JsonbToCString cannot carry): any JSON text as a JsonbValue tree
 * (item_json_tree.c; *has_nul: a string of the text held U+0000), a number's Numeric
 * for it, a jsonb container as JSON text (\u0000 escaped), and a check that
 * a jsonb holds no U+0000 (raised otherwise, naming what)
 */
extern JsonbValue *hroe_json_tree_parse(const char *json, int len, bool *has_nul);
extern Numeric hroe_json_tree_numeric(const char *s, int len);
extern void hroe_jsonb_write(StringInfo buf, JsonbContainer *c);
extern char *hroe_jsonb_text(JsonbContainer *c);
extern void hroe_jsonb_check_no_nul(JsonbContainer *c, const char *what);
#define HroeItemFromJsonb(j) hroe_item_from_jsonb(&(j)->root, VARSIZE(j))
#endif

/* Check that bytes are a valid canonical item (binary input); ereports */
extern HroeItem *hroe_item_from_binary(const char *data, int len);

/* ---- building ---- */

typedef struct HroeBuilder HroeBuilder;

/* Start a new item (or M value) */
extern HroeBuilder *hroe_builder_start(void);

/* Add an attribute; a later attribute of the same name replaces an earlier one */
extern void hroe_builder_add(HroeBuilder *b, const char *name, uint32 namelen,
							 const HroeValue *val);

/* Finish: a new item varlena, size computed, 400 KB checked (E10) */
extern HroeItem *hroe_builder_finish(HroeBuilder *b);

/* Finish as an M value (for nesting into another builder) */
extern void hroe_builder_finish_map(HroeBuilder *b, HroeValue *val);

/* Build an L value from elements */
extern void hroe_make_list(const HroeValue *elems, uint32 n, HroeValue *val);

/*
 * Scalar values.  The HroeValue points at the given bytes (S, B) or at new
 * memory (N: normalised, E9 on a bad number).  S must be valid UTF-8
 * (checked; U+0000 allowed, as in DynamoDB).
 */
extern void hroe_make_string(const char *s, uint32 len, HroeValue *val);
extern void hroe_make_number(const char *text, int len, HroeValue *val);
extern void hroe_make_binary(const char *bytes, uint32 len, HroeValue *val);
extern void hroe_make_bool(bool b, HroeValue *val);
extern void hroe_make_null(HroeValue *val);

/*
 * Build an SS, NS or BS value from S, N or B members (trusted values, in any
 * order); an empty or duplicated member list raises DynamoDB's E30 errors.
 */
extern void hroe_make_set(HroeType settype, const HroeValue *members, uint32 n,
						  HroeValue *val);

/* Wrap an M value as an item (size computed, 400 KB checked) */
extern HroeItem *hroe_item_from_map(const HroeValue *map);

#endif							/* HROE_ITEM_H */
