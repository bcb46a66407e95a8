/*-------------------------------------------------------------------------
 *
 * item_json_write.c
 *	  The DynamoDB JSON writer of hroe.item.
 *
 * Like the rest of the item core, it uses only palloc, ereport and
 * StringInfo from the backend, so the fuzzer (test/fuzz) compiles it
 * unchanged against a tiny shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "item_node.h"

static void WriteJsonValue(StringInfo buf, const HroeValue *v, bool jsonb_order);

/* ---------------------------------------------------------------------
 * The DynamoDB JSON writer
 * ---------------------------------------------------------------------
 */

/* a byte of every 8 of a word: its low bits, its high bit */
#define BYTES_01 UINT64CONST(0x0101010101010101)
#define BYTES_80 UINT64CONST(0x8080808080808080)

/*
 * Whether any of the 8 bytes of w may need an escape in a JSON string (a
 * control character, '"' or '\\'): never false when one does; may be true
 * for a word whose bytes are all plain (a borrow beside a match), which the
 * caller then reads byte by byte
 */
static inline bool
WordNeedsEscape(uint64 w)
{
	uint64		q = w ^ (BYTES_01 * '"');
	uint64		b = w ^ (BYTES_01 * '\\');

	return (((w - BYTES_01 * 0x20) & ~w) |
			((q - BYTES_01) & ~q) |
			((b - BYTES_01) & ~b)) & BYTES_80;
}

/* Append a JSON string literal */
static void
WriteJsonString(StringInfo buf, const char *s, uint32 len)
{
	const char *p = s,
			   *end = s + len,
			   *run = s;

	appendStringInfoChar(buf, '"');
	for (; p < end; p++)
	{
		unsigned char c;
		const char *esc = NULL;
		char		u[8];

		/* plain bytes 8 at a time (a string is mostly plain text) */
		while (end - p >= 8)
		{
			uint64		w;

			memcpy(&w, p, 8);
			if (WordNeedsEscape(w))
				break;
			p += 8;
		}
		if (p >= end)
			break;
		c = (unsigned char) *p;
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		if (p > run)
			appendBinaryStringInfo(buf, run, p - run);
		run = p + 1;
		switch (c)
		{
			case '"':
				esc = "\\\"";
				break;
			case '\\':
				esc = "\\\\";
				break;
			case '\b':
				esc = "\\b";
				break;
			case '\f':
				esc = "\\f";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			case '\t':
				esc = "\\t";
				break;
			default:
				u[0] = '\\';
				u[1] = 'u';
				u[2] = '0';
				u[3] = '0';
				u[4] = "0123456789abcdef"[c >> 4];
				u[5] = "0123456789abcdef"[c & 15];
				u[6] = '\0';
				esc = u;
		}
		appendStringInfoString(buf, esc);
	}
	if (p > run)
		appendBinaryStringInfo(buf, run, p - run);
	appendStringInfoChar(buf, '"');
}

/* A member of an M payload: its name's length, its index (MemberOrderCmp) */
typedef struct MemberOrder
{
	uint32		len;
	uint32		index;
} MemberOrder;

/* qsort comparator: by name length, then by the stored (bytewise) order */
static int
MemberOrderCmp(const void *a, const void *b)
{
	const MemberOrder *x = a;
	const MemberOrder *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->index < y->index ? -1 : (x->index > y->index ? 1 : 0);
}

/*
 * Append the members of an M payload as a JSON object.  jsonb_order: in
 * jsonb's order of keys (shorter names first, names of one length bytewise)
 * rather than the stored bytewise order.  Members are stored sorted
 * bytewise, and two names of one length compare bytewise as jsonb compares
 * them, so jsonb's order is the stored one, stably sorted by length.
 */
static void
WriteJsonMap(StringInfo buf, const HroeValue *map, bool jsonb_order)
{
	uint32		n = hroe_value_count(map);
	MemberOrder *order = NULL;

	if (jsonb_order && n > 1)
	{
		uint32		prev = 0;
		bool		sorted = true;

		/* (names already by length, as most maps' are: no order to build) */
		for (uint32 i = 0; i < n && sorted; i++)
		{
			const char *nm;
			uint32		nl;
			HroeValue	v;

			hroe_map_entry(map, i, &nm, &nl, &v);
			sorted = nl >= prev;
			prev = nl;
		}
		if (!sorted)
		{
			order = palloc(sizeof(MemberOrder) * n);
			for (uint32 i = 0; i < n; i++)
			{
				const char *nm;
				HroeValue	v;

				hroe_map_entry(map, i, &nm, &order[i].len, &v);
				order[i].index = i;
			}
			qsort(order, n, sizeof(MemberOrder), MemberOrderCmp);
		}
	}
	appendStringInfoChar(buf, '{');
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		CHECK_FOR_INTERRUPTS();
		hroe_map_entry(map, order ? order[i].index : i, &nm, &nl, &v);
		if (i > 0)
			appendStringInfoString(buf, ", ");
		WriteJsonString(buf, nm, nl);
		appendStringInfoString(buf, ": ");
		WriteJsonValue(buf, &v, jsonb_order);
	}
	appendStringInfoChar(buf, '}');
	if (order)
		pfree(order);
}

/* Append one AttributeValue ({"S": "x"}) */
static void
WriteJsonValue(StringInfo buf, const HroeValue *v, bool jsonb_order)
{
	uint32		n,
				i;
	HroeValue	e;

	appendStringInfoString(buf, "{\"");
	appendStringInfoString(buf, hroe_type_name(v->type));
	appendStringInfoString(buf, "\": ");
	switch (v->type)
	{
		case HROE_S:
			WriteJsonString(buf, v->data, v->len);
			break;
		case HROE_N:
			appendStringInfoChar(buf, '"');
			appendBinaryStringInfo(buf, v->data, v->len);
			appendStringInfoChar(buf, '"');
			break;
		case HROE_B:
			appendStringInfoChar(buf, '"');
			hroe_io_base64_append(buf, v->data, v->len);
			appendStringInfoChar(buf, '"');
			break;
		case HROE_BOOL:
			appendStringInfoString(buf, v->data[0] ? "true" : "false");
			break;
		case HROE_NULL:
			appendStringInfoString(buf, "true");
			break;
		case HROE_M:
			WriteJsonMap(buf, v, jsonb_order);
			break;
		case HROE_L:
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			n = hroe_value_count(v);
			appendStringInfoChar(buf, '[');
			for (i = 0; i < n; i++)
			{
				CHECK_FOR_INTERRUPTS();
				if (i > 0)
					appendStringInfoString(buf, ", ");
				hroe_list_element(v, i, &e);
				if (v->type == HROE_L)
					WriteJsonValue(buf, &e, jsonb_order);
				else if (v->type == HROE_SS)
					WriteJsonString(buf, e.data, e.len);
				else
				{
					appendStringInfoChar(buf, '"');
					if (v->type == HROE_NS)
						appendBinaryStringInfo(buf, e.data, e.len);
					else
						hroe_io_base64_append(buf, e.data, e.len);
					appendStringInfoChar(buf, '"');
				}
			}
			appendStringInfoChar(buf, ']');
			break;
	}
	appendStringInfoChar(buf, '}');
}

/* Append an item as DynamoDB JSON */
void
hroe_item_write(StringInfo buf, const HroeItem *item)
{
	HroeValue	m;

	hroe_item_root(item, &m);
	WriteJsonMap(buf, &m, false);
}

/*
 * Append an item as DynamoDB JSON as hroe_jsonb_write writes the item's
 * jsonb (hroe_item_push_jsonb): members in jsonb's order of keys, the same
 * bytes, in one pass (the JSON API's answers of items read)
 */
void
hroe_item_write_jsonb_order(StringInfo buf, const HroeItem *item)
{
	HroeValue	m;

	hroe_item_root(item, &m);
	WriteJsonMap(buf, &m, true);
}

/* Append one AttributeValue as DynamoDB JSON */
void
hroe_value_write(StringInfo buf, const HroeValue *v)
{
	WriteJsonValue(buf, v, false);
}

/* Append an M value's members as a JSON object */
void
hroe_map_write(StringInfo buf, const HroeValue *map)
{
	WriteJsonMap(buf, map, false);
}

/* Append bytes as a JSON string literal */
void
hroe_json_string_write(StringInfo buf, const char *s, uint32 len)
{
	WriteJsonString(buf, s, len);
}
