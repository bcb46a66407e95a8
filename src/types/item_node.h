/*-------------------------------------------------------------------------
 *
 * item_node.h
 *	  The hroe.item core's internals, shared by its files (item_node.c,
 *	  item_number.c, item_json_read.c, item_json_write.c, item_binary.c)
 *	  and the collection reader (collection_io.c): the ValNode tree every
 *	  value is built in, the reader state, DynamoDB's texts.  Not for the
 *	  rest of hroe, which uses item.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_ITEM_NODE_H
#define HROE_ITEM_NODE_H

#include "miscadmin.h"
#include "utils/memutils.h"

#include "item.h"

/* DynamoDB's own texts (doc/dynamodb-rules.md#errors) */
#define MSG_NUM_SYNTAX	"The parameter cannot be converted to a numeric value: %s"
#define MSG_NUM_DIGITS	"Attempting to store more than " CppAsString2(HROE_NUMBER_MAX_DIGITS) " significant digits in a Number"
#define MSG_NUM_OVER	"Number overflow. Attempting to store a number with magnitude larger than supported range"
#define MSG_NUM_UNDER	"Number underflow. Attempting to store a number with magnitude smaller than supported range"
#define MSG_TOO_BIG		"Item size has exceeded the maximum allowed size"
#define MSG_NULL_FALSE	"One or more parameter values were invalid: Null attribute value types must have the value of true"
#define MSG_EMPTY_AV	"One or more parameter values were invalid: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
#define MSG_TWO_TYPES	"One or more parameter values were invalid: Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes"
#define MSG_DEPTH		"One or more parameter values were invalid: Nesting Levels have exceeded supported limits"

/* A value being built: parsed, read from binary, or added by the builder */
typedef struct ValNode
{
	uint8		type;			/* HroeType */
	bool		raw;			/* data/len is an already serialized payload */
	bool		boolval;
	uint8		depth;			/* levels of values: a scalar or set 1, an
								 * empty L or M 1, else 1 + its members' */
	uint32		seq;			/* builder: insertion order (later wins) */
	const char *name;			/* name, when a member of an M */
	uint32		namelen;
	const char *data;			/* S/B bytes, N canonical text, raw payload */
	uint32		len;
	uint32		nkids;
	uint32		cap;
	struct ValNode *kids;			/* L elements, M members, set members */
	int64		size;			/* DynamoDB size of the value (vsize) */
	uint64		serlen;			/* serialized length, tag included */
} ValNode;

/* One step of the path to the value being read, for error details */
typedef struct PathStep
{
	const char *name;			/* NULL for a list index */
	uint32		len;
	uint32		index;
} PathStep;

typedef struct Reader
{
	const char *start;			/* JSON text (NULL when reading binary) */
	const char *p;
	const char *end;
	int			depth;
	const char *type;			/* the type being read, for messages */
	PathStep	path[HROE_ITEM_MAX_DEPTH + 4];
} Reader;

/* item_node.c: helpers, finishing, serialisation; item_number.c; the JSON reader */
extern void hroe_io_base64_append(StringInfo buf, const char *s, uint32 len);
extern void hroe_io_skip_ws(Reader *r);
extern void hroe_io_expect(Reader *r, char c, const char *what);
extern void hroe_io_read_string(Reader *r, const char **out, uint32 *outlen);
extern bool hroe_io_peek(Reader *r, char c);
extern void hroe_io_read_members(Reader *r, ValNode *m, int depth);
extern void hroe_io_check_names(const ValNode *m);
extern void hroe_io_init_reader(Reader *r, const char *json, int len);
extern char *hroe_io_path_text(Reader *r);
extern void hroe_io_push_name(Reader *r, const char *name, uint32 len);
extern void hroe_io_push_index(Reader *r, uint32 index);
extern int hroe_io_position(Reader *r);
extern void hroe_io_syntax_error(Reader *r, const char *what) pg_attribute_noreturn();
extern void hroe_io_value_error(Reader *r, int code, const char *msg) pg_attribute_noreturn();
extern void hroe_io_too_big(void) pg_attribute_noreturn();
extern ValNode *hroe_io_add_kid(ValNode *n);
extern int hroe_io_utf8_len(const unsigned char *p, const unsigned char *end);
extern bool hroe_io_valid_utf8(const char *s, uint32 len);
extern int hroe_io_bytes_compare(const char *a, uint32 alen, const char *b, uint32 blen);
extern void hroe_io_finish_scalar(ValNode *n);
extern void hroe_io_finish_set(Reader *r, ValNode *set);
extern void hroe_io_finish_list(ValNode *l);
extern void hroe_io_finish_map(Reader *r, ValNode *m, bool later_wins);
extern HroeItem *hroe_io_node_to_item(const ValNode *m);
extern void hroe_io_node_to_value(const ValNode *n, HroeValue *v);
extern char *hroe_io_number_normalize(Reader *r, const char *s, int len, int *outlen);
extern int64 hroe_io_number_size(const char *s, uint32 len);

/* Read and write an unaligned uint32 (the item and collection formats) */
static inline uint32
hroe_io_get_u32(const char *p)
{
	uint32		v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void
hroe_io_put_u32(char *p, uint32 v)
{
	memcpy(p, &v, sizeof(v));
}

#endif							/* HROE_ITEM_NODE_H */
