/*-------------------------------------------------------------------------
 *
 * transfer_ion.c
 *	  Amazon Ion text for the subset DynamoDB's exports use: an item
 *	  written as Ion (ExportFormat ION) and a line of Ion read back into
 *	  DynamoDB JSON (ImportTable's InputFormat ION).
 *
 * Debian packages no Ion library for C, so this is hroe's own writer and
 * reader of Ion's text encoding (https://amazon-ion.github.io/ion-docs/),
 * limited to what DynamoDB's mapping needs (AWS, "DynamoDB table export
 * output format": https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
 * S a string, N a decimal, B a blob, BOOL a bool, NULL a null, L a list,
 * M a struct, SS, NS and BS lists annotated $dynamodb_SS, $dynamodb_NS,
 * $dynamodb_BS.  Each line is "$ion_1_0 {Item:{...}}".  The reader also
 * takes ints and floats (as N), typed nulls, quoted symbols and strings as
 * field names, long strings ('''...''') and comments; not binary Ion,
 * clobs, timestamps or symbol tables (an error: the line is counted).
 *
 * src/transfer/transfer_ion.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/jsonapi.h"
#include "mb/pg_wchar.h"
#include "utils/jsonb.h"

#include "transfer.h"

/* ---------- writing ---------- */

static void
IonString(StringInfo out, const char *s, int len, char quote)
{
	appendStringInfoChar(out, quote);
	for (int i = 0; i < len; i++)
	{
		unsigned char c = s[i];

		if (c == quote || c == '\\')
		{
			appendStringInfoChar(out, '\\');
			appendStringInfoChar(out, c);
		}
		else if (c == '\n')
			appendStringInfoString(out, "\\n");
		else if (c == '\r')
			appendStringInfoString(out, "\\r");
		else if (c == '\t')
			appendStringInfoString(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			appendStringInfo(out, "\\x%02x", c);
		else
			appendStringInfoChar(out, c);
	}
	appendStringInfoChar(out, quote);
}

/* A field name: an identifier as it is, else a quoted symbol */
static void
IonFieldName(StringInfo out, const char *s, int len)
{
	bool		ident = len > 0 && (isalpha((unsigned char) s[0]) || s[0] == '_');

	for (int i = 1; ident && i < len; i++)
		ident = isalnum((unsigned char) s[i]) || s[i] == '_' || s[i] == '$';
	if (ident && ((len == 4 && (memcmp(s, "null", 4) == 0 || memcmp(s, "true", 4) == 0)) ||
				  (len == 5 && memcmp(s, "false", 5) == 0) || (len == 3 && memcmp(s, "nan", 3) == 0)))
		ident = false;
	if (ident)
		appendBinaryStringInfo(out, s, len);
	else
		IonString(out, s, len, '\'');
}

/* A DynamoDB number as an Ion decimal: 103 -> 103., 1.5E+3 -> 1.5d+3 */
static void
IonDecimal(StringInfo out, const char *s, int len)
{
	bool		point = false;

	for (int i = 0; i < len; i++)
	{
		if (s[i] == 'e' || s[i] == 'E')
		{
			if (!point)
				appendStringInfoChar(out, '.');
			point = true;
			appendStringInfoChar(out, 'd');
		}
		else
		{
			if (s[i] == '.')
				point = true;
			appendStringInfoChar(out, s[i]);
		}
	}
	if (!point)
		appendStringInfoChar(out, '.');
}

static void IonAttributeValue(StringInfo out, JsonbContainer *av);

/* The members of a map (M or the item) as an Ion struct */
static void
IonStruct(StringInfo out, JsonbContainer *map)
{
	JsonbIterator *it = JsonbIteratorInit(map);
	JsonbIteratorToken tok;
	JsonbValue	k;
	JsonbValue	v;
	bool		first = true;

	appendStringInfoChar(out, '{');
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		if (tok != WJB_KEY)
			continue;
		(void) JsonbIteratorNext(&it, &v, true);
		if (!first)
			appendStringInfoChar(out, ',');
		first = false;
		IonFieldName(out, k.val.string.val, k.val.string.len);
		appendStringInfoChar(out, ':');
		if (v.type != jbvBinary)
			elog(ERROR, "an attribute value is not an object");
		IonAttributeValue(out, v.val.binary.data);
	}
	appendStringInfoChar(out, '}');
}

/* One DynamoDB attribute value ({"S": ...}) as Ion */
static void
IonAttributeValue(StringInfo out, JsonbContainer *av)
{
	JsonbIterator *it = JsonbIteratorInit(av);
	JsonbValue	k;
	JsonbValue	v;
	const char *t;

	while (JsonbIteratorNext(&it, &k, true) != WJB_KEY)
		;
	(void) JsonbIteratorNext(&it, &v, true);
	t = pnstrdup(k.val.string.val, k.val.string.len);
	if (strcmp(t, "S") == 0)
		IonString(out, v.val.string.val, v.val.string.len, '"');
	else if (strcmp(t, "N") == 0)
		IonDecimal(out, v.val.string.val, v.val.string.len);
	else if (strcmp(t, "B") == 0)
	{
		appendStringInfoString(out, "{{");
		appendBinaryStringInfo(out, v.val.string.val, v.val.string.len);
		appendStringInfoString(out, "}}");
	}
	else if (strcmp(t, "BOOL") == 0)
		appendStringInfoString(out, v.val.boolean ? "true" : "false");
	else if (strcmp(t, "NULL") == 0)
		appendStringInfoString(out, "null");
	else if (strcmp(t, "M") == 0)
		IonStruct(out, v.val.binary.data);
	else
	{
		/* L, SS, NS, BS */
		JsonbIterator *li = JsonbIteratorInit(v.val.binary.data);
		JsonbIteratorToken tok;
		JsonbValue	e;
		bool		first = true;

		if (strcmp(t, "L") != 0)
			appendStringInfo(out, "$dynamodb_%s::", t);
		appendStringInfoChar(out, '[');
		while ((tok = JsonbIteratorNext(&li, &e, true)) != WJB_DONE)
		{
			if (tok != WJB_ELEM)
				continue;
			if (!first)
				appendStringInfoChar(out, ',');
			first = false;
			if (strcmp(t, "L") == 0)
				IonAttributeValue(out, e.val.binary.data);
			else if (strcmp(t, "SS") == 0)
				IonString(out, e.val.string.val, e.val.string.len, '"');
			else if (strcmp(t, "NS") == 0)
				IonDecimal(out, e.val.string.val, e.val.string.len);
			else
			{
				appendStringInfoString(out, "{{");
				appendBinaryStringInfo(out, e.val.string.val, e.val.string.len);
				appendStringInfoString(out, "}}");
			}
		}
		appendStringInfoChar(out, ']');
	}
}

/* An item (DynamoDB JSON as jsonb) as one line of an Ion export, without the newline */
void
hroe_ion_write_item(StringInfo out, JsonbContainer *item)
{
	appendStringInfoString(out, "$ion_1_0 {Item:");
	IonStruct(out, item);
	appendStringInfoChar(out, '}');
}

/*
 * An incremental export's record (keys, images as DynamoDB JSON jsonb; an
 * image NULL when absent) as one line of an Ion export, without the newline
 */
void
hroe_ion_write_record(StringInfo out, JsonbContainer *keys, int64 write_micros,
					  JsonbContainer *old_image, JsonbContainer *new_image)
{
	appendStringInfoString(out, "$ion_1_0 {Record:{Keys:");
	IonStruct(out, keys);
	appendStringInfo(out, ",Metadata:{WriteTimestampMicros:" INT64_FORMAT "}", write_micros);
	if (old_image)
	{
		appendStringInfoString(out, ",OldImage:");
		IonStruct(out, old_image);
	}
	if (new_image)
	{
		appendStringInfoString(out, ",NewImage:");
		IonStruct(out, new_image);
	}
	appendStringInfoString(out, "}}");
}

/* ---------- reading ---------- */

typedef struct IonReader
{
	const char *p;
	const char *end;
	char	   *error;
	int			depth;
} IonReader;

#define ION_MAX_DEPTH 64

static bool
Fail(IonReader *r, const char *msg)
{
	if (r->error == NULL)
		r->error = psprintf("%s at offset %d", msg, (int) (r->end - r->p));
	return false;
}

static void
SkipSpace(IonReader *r)
{
	while (r->p < r->end)
	{
		if (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r' || *r->p == '\v' || *r->p == '\f')
			r->p++;
		else if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '/')
		{
			while (r->p < r->end && *r->p != '\n')
				r->p++;
		}
		else if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '*')
		{
			const char *c = r->p + 2;

			while (c + 1 < r->end && !(c[0] == '*' && c[1] == '/'))
				c++;
			r->p = c + 1 < r->end ? c + 2 : r->end;
		}
		else
			break;
	}
}

static int
HexDigits(IonReader *r, int n)
{
	int			v = 0;

	for (int i = 0; i < n; i++)
	{
		char		c;

		if (r->p >= r->end)
			return -1;
		c = *r->p++;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* A code point into JSON text (escaped when not printable ASCII-safe) */
static void
JsonCodePoint(StringInfo out, pg_wchar c)
{
	if (c == '"' || c == '\\')
	{
		appendStringInfoChar(out, '\\');
		appendStringInfoChar(out, (char) c);
	}
	else if (c < 0x20 || c == 0x7f)
		appendStringInfo(out, "\\u%04x", (unsigned int) c);
	else
	{
		unsigned char buf[8];

		unicode_to_utf8(c, buf);
		appendBinaryStringInfo(out, (char *) buf, pg_utf_mblen(buf));
	}
}

/*
 * A quoted text (" or ' or '''), its content appended to out as JSON
 * string content (no quotes)
 */
static bool
QuotedText(IonReader *r, StringInfo out, char quote, bool longstr)
{
	for (;;)
	{
		unsigned char c;

		if (r->p >= r->end)
			return Fail(r, "unterminated string");
		c = *r->p;
		if (longstr && r->end - r->p >= 3 && memcmp(r->p, "'''", 3) == 0)
		{
			r->p += 3;
			return true;
		}
		if (!longstr && c == quote)
		{
			r->p++;
			return true;
		}
		if (!longstr && (c == '\n' || c == '\r'))
			return Fail(r, "newline in a string");
		r->p++;
		if (c == '\\')
		{
			int			v;
			char		e;

			if (r->p >= r->end)
				return Fail(r, "unterminated escape");
			e = *r->p++;
			switch (e)
			{
				case 'n': v = '\n'; break;
				case 'r': v = '\r'; break;
				case 't': v = '\t'; break;
				case '0': v = 0; break;
				case 'a': v = 7; break;
				case 'b': v = 8; break;
				case 'f': v = 12; break;
				case 'v': v = 11; break;
				case '"': case '\'': case '\\': case '/': case '?': v = e; break;
				case 'x': v = HexDigits(r, 2); break;
				case 'u': v = HexDigits(r, 4); break;
				case 'U': v = HexDigits(r, 8); break;
				case '\n': continue;		/* a line continuation */
				default: return Fail(r, "invalid escape");
			}
			if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
				return Fail(r, "invalid escape");
			JsonCodePoint(out, (pg_wchar) v);
		}
		else if (c == '"')
			appendStringInfoString(out, "\\\"");
		else if (c < 0x20 && c != '\t' && !(longstr && (c == '\n' || c == '\r')))
			return Fail(r, "control character in a string");
		else if (c < 0x20)
			JsonCodePoint(out, c);
		else
			appendStringInfoChar(out, (char) c);
	}
}

/* A string (one, or adjacent long strings), as a JSON string */
static bool
IonStringValue(IonReader *r, StringInfo out)
{
	appendStringInfoChar(out, '"');
	if (*r->p == '"')
	{
		r->p++;
		if (!QuotedText(r, out, '"', false))
			return false;
	}
	else
	{
		while (r->end - r->p >= 3 && memcmp(r->p, "'''", 3) == 0)
		{
			r->p += 3;
			if (!QuotedText(r, out, '\'', true))
				return false;
			SkipSpace(r);
		}
	}
	appendStringInfoChar(out, '"');
	return true;
}

static bool
IdentStart(char c)
{
	return isalpha((unsigned char) c) || c == '_' || c == '$';
}

/* A symbol: an identifier or a quoted symbol, its text into out (JSON string content) */
static bool
Symbol(IonReader *r, StringInfo out)
{
	if (r->p < r->end && *r->p == '\'' && !(r->end - r->p >= 3 && memcmp(r->p, "'''", 3) == 0))
	{
		r->p++;
		return QuotedText(r, out, '\'', false);
	}
	if (r->p >= r->end || !IdentStart(*r->p))
		return Fail(r, "expected a symbol");
	while (r->p < r->end && (IdentStart(*r->p) || isdigit((unsigned char) *r->p)))
		appendStringInfoChar(out, *r->p++);
	return true;
}

/* A number (int, decimal, float) as DynamoDB's N text */
static bool
Number(IonReader *r, StringInfo out)
{
	const char *start = r->p;
	bool		digits = false;

	appendStringInfoString(out, "{\"N\":\"");
	if (*r->p == '-')
		appendStringInfoChar(out, *r->p++);
	if (r->end - r->p >= 2 && r->p[0] == '0' && (r->p[1] == 'x' || r->p[1] == 'X' || r->p[1] == 'b' || r->p[1] == 'B'))
		return Fail(r, "hexadecimal and binary integers are not supported");
	while (r->p < r->end)
	{
		char		c = *r->p;

		if (isdigit((unsigned char) c))
		{
			digits = true;
			appendStringInfoChar(out, c);
		}
		else if (c == '_')
			;
		else if (c == '.')
		{
			/* (a trailing point: 103.) */
			if (r->p + 1 < r->end && isdigit((unsigned char) r->p[1]))
				appendStringInfoChar(out, c);
		}
		else if (c == 'd' || c == 'D' || c == 'e' || c == 'E')
		{
			appendStringInfoChar(out, 'E');
			if (r->p + 1 < r->end && (r->p[1] == '+' || r->p[1] == '-'))
				appendStringInfoChar(out, *++r->p);
		}
		else
			break;
		r->p++;
	}
	if (!digits || r->p == start)
		return Fail(r, "invalid number");
	appendStringInfoString(out, "\"}");
	return true;
}

static bool Value(IonReader *r, StringInfo out);

/* A struct's fields as the members of a JSON object of attribute values */
static bool
Struct(IonReader *r, StringInfo out)
{
	bool		first = true;

	r->p++;						/* { */
	appendStringInfoChar(out, '{');
	for (;;)
	{
		SkipSpace(r);
		if (r->p >= r->end)
			return Fail(r, "unterminated struct");
		if (*r->p == '}')
		{
			r->p++;
			break;
		}
		if (!first)
		{
			if (*r->p != ',')
				return Fail(r, "expected , in a struct");
			r->p++;
			SkipSpace(r);
			if (r->p < r->end && *r->p == '}')
			{
				r->p++;
				break;
			}
		}
		if (!first)
			appendStringInfoChar(out, ',');
		first = false;
		appendStringInfoChar(out, '"');
		if (r->p < r->end && *r->p == '"')
		{
			r->p++;
			if (!QuotedText(r, out, '"', false))
				return false;
		}
		else if (!Symbol(r, out))
			return false;
		appendStringInfoString(out, "\":");
		SkipSpace(r);
		if (r->p >= r->end || *r->p != ':')
			return Fail(r, "expected : in a struct");
		r->p++;
		if (!Value(r, out))
			return false;
	}
	appendStringInfoChar(out, '}');
	return true;
}

/* A value as a DynamoDB attribute value */
static bool
Value(IonReader *r, StringInfo out)
{
	char	   *set = NULL;

	if (++r->depth > ION_MAX_DEPTH)
		return Fail(r, "values nest too deep");
	SkipSpace(r);
	/* annotations: only DynamoDB's set types mean anything */
	for (;;)
	{
		const char *save = r->p;
		StringInfoData sym;

		if (r->p >= r->end || !(IdentStart(*r->p) || (*r->p == '\'' && !(r->end - r->p >= 3 && memcmp(r->p, "'''", 3) == 0))))
			break;
		initStringInfo(&sym);
		if (!Symbol(r, &sym))
			return false;
		SkipSpace(r);
		if (r->end - r->p >= 2 && r->p[0] == ':' && r->p[1] == ':')
		{
			r->p += 2;
			SkipSpace(r);
			if (strcmp(sym.data, "$dynamodb_SS") == 0)
				set = "SS";
			else if (strcmp(sym.data, "$dynamodb_NS") == 0)
				set = "NS";
			else if (strcmp(sym.data, "$dynamodb_BS") == 0)
				set = "BS";
			continue;
		}
		r->p = save;
		break;
	}
	if (r->p >= r->end)
		return Fail(r, "expected a value");
	if (*r->p == '{' && r->end - r->p >= 2 && r->p[1] == '{')
	{
		const char *c = r->p + 2;

		appendStringInfoString(out, "{\"B\":\"");
		while (c < r->end && *c != '}')
		{
			if (!isspace((unsigned char) *c))
				appendStringInfoChar(out, *c);
			c++;
		}
		if (r->end - c < 2 || c[1] != '}')
			return Fail(r, "unterminated blob");
		r->p = c + 2;
		appendStringInfoString(out, "\"}");
	}
	else if (*r->p == '{')
	{
		appendStringInfoString(out, "{\"M\":");
		if (!Struct(r, out))
			return false;
		appendStringInfoChar(out, '}');
	}
	else if (*r->p == '[')
	{
		bool		first = true;

		r->p++;
		appendStringInfo(out, "{\"%s\":[", set ? set : "L");
		for (;;)
		{
			StringInfoData elem;

			SkipSpace(r);
			if (r->p >= r->end)
				return Fail(r, "unterminated list");
			if (*r->p == ']')
			{
				r->p++;
				break;
			}
			if (!first)
			{
				if (*r->p != ',')
					return Fail(r, "expected , in a list");
				r->p++;
				SkipSpace(r);
				if (r->p < r->end && *r->p == ']')
				{
					r->p++;
					break;
				}
				appendStringInfoChar(out, ',');
			}
			first = false;
			initStringInfo(&elem);
			if (!Value(r, &elem))
				return false;
			if (set)
			{
				/* a set's member: the attribute value's scalar alone */
				char	   *colon = strchr(elem.data, ':');

				if (colon == NULL || elem.len < 2)
					return Fail(r, "invalid set member");
				appendBinaryStringInfo(out, colon + 1, elem.data + elem.len - 1 - (colon + 1));
			}
			else
				appendBinaryStringInfo(out, elem.data, elem.len);
		}
		appendStringInfoString(out, "]}");
	}
	else if (*r->p == '"' || (r->end - r->p >= 3 && memcmp(r->p, "'''", 3) == 0))
	{
		appendStringInfoString(out, "{\"S\":");
		if (!IonStringValue(r, out))
			return false;
		appendStringInfoChar(out, '}');
	}
	else if (*r->p == '-' || isdigit((unsigned char) *r->p))
	{
		if (!Number(r, out))
			return false;
	}
	else if (IdentStart(*r->p))
	{
		StringInfoData sym;

		initStringInfo(&sym);
		(void) Symbol(r, &sym);
		if (strcmp(sym.data, "true") == 0 || strcmp(sym.data, "false") == 0)
			appendStringInfo(out, "{\"BOOL\":%s}", sym.data);
		else if (strcmp(sym.data, "null") == 0)
		{
			/* (a typed null: null.string) */
			if (r->p < r->end && *r->p == '.')
			{
				r->p++;
				while (r->p < r->end && isalpha((unsigned char) *r->p))
					r->p++;
			}
			appendStringInfoString(out, "{\"NULL\":true}");
		}
		else
			return Fail(r, "symbols are not supported as values");
	}
	else
		return Fail(r, "unsupported value");
	r->depth--;
	return true;
}

/*
 * One line of an Ion import ("$ion_1_0 {Item:{...}}", the version marker
 * optional): the item as DynamoDB JSON text, or NULL and *error
 */
char *
hroe_ion_read_line(const char *line, char **error)
{
	IonReader	r = {line, line + strlen(line), NULL, 0};
	StringInfoData out;
	StringInfoData name;
	bool		item = false;

	initStringInfo(&out);
	SkipSpace(&r);
	if (r.end - r.p >= 8 && memcmp(r.p, "$ion_1_0", 8) == 0)
		r.p += 8;
	SkipSpace(&r);
	if (r.p >= r.end || *r.p != '{')
	{
		*error = "a line is not an Ion struct";
		return NULL;
	}
	r.p++;
	/* the struct's one field Item, a struct */
	for (;;)
	{
		SkipSpace(&r);
		if (r.p < r.end && *r.p == '}')
		{
			r.p++;
			break;
		}
		if (item)
		{
			if (r.p >= r.end || *r.p != ',')
			{
				Fail(&r, "expected , in a struct");
				break;
			}
			r.p++;
			SkipSpace(&r);
			if (r.p < r.end && *r.p == '}')
			{
				r.p++;
				break;
			}
			Fail(&r, "a line holds more than its Item");
			break;
		}
		initStringInfo(&name);
		if (r.p < r.end && *r.p == '"')
		{
			r.p++;
			if (!QuotedText(&r, &name, '"', false))
				break;
		}
		else if (!Symbol(&r, &name))
			break;
		SkipSpace(&r);
		if (strcmp(name.data, "Item") != 0 || r.p >= r.end || *r.p != ':')
		{
			Fail(&r, "expected the field Item");
			break;
		}
		r.p++;
		SkipSpace(&r);
		if (r.p >= r.end || *r.p != '{' || (r.end - r.p >= 2 && r.p[1] == '{'))
		{
			Fail(&r, "Item is not a struct");
			break;
		}
		if (!Struct(&r, &out))
			break;
		item = true;
	}
	SkipSpace(&r);
	if (r.error == NULL && !item)
		Fail(&r, "a line holds no Item");
	if (r.error == NULL && r.p < r.end)
		Fail(&r, "text after the struct");
	if (r.error)
	{
		*error = r.error;
		return NULL;
	}
	return out.data;
}
