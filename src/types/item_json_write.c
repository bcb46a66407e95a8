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

static void WriteJsonValue(StringInfo buf, const HroeValue *v);

/* ---------------------------------------------------------------------
 * The DynamoDB JSON writer
 * ---------------------------------------------------------------------
 */

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
		unsigned char c = (unsigned char) *p;
		const char *esc = NULL;
		char		u[8];

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

/* Append the members of an M payload as a JSON object */
static void
WriteJsonMap(StringInfo buf, const HroeValue *map)
{
	uint32		n = hroe_value_count(map);

	appendStringInfoChar(buf, '{');
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		CHECK_FOR_INTERRUPTS();
		hroe_map_entry(map, i, &nm, &nl, &v);
		if (i > 0)
			appendStringInfoString(buf, ", ");
		WriteJsonString(buf, nm, nl);
		appendStringInfoString(buf, ": ");
		WriteJsonValue(buf, &v);
	}
	appendStringInfoChar(buf, '}');
}

/* Append one AttributeValue ({"S": "x"}) */
static void
WriteJsonValue(StringInfo buf, const HroeValue *v)
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
			WriteJsonMap(buf, v);
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
					WriteJsonValue(buf, &e);
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
	WriteJsonMap(buf, &m);
}

/* Append one AttributeValue as DynamoDB JSON */
void
hroe_value_write(StringInfo buf, const HroeValue *v)
{
	WriteJsonValue(buf, v);
}

/* Append an M value's members as a JSON object */
void
hroe_map_write(StringInfo buf, const HroeValue *map)
{
	WriteJsonMap(buf, map);
}

/* Append bytes as a JSON string literal */
void
hroe_json_string_write(StringInfo buf, const char *s, uint32 len)
{
	WriteJsonString(buf, s, len);
}
