/*-------------------------------------------------------------------------
 *
 * item_json_read.c
 *	  The strict DynamoDB JSON reader of hroe.item (items and single
 *	  AttributeValues), Base64 included.
 *
 * Like the rest of the item core, it uses only palloc, ereport and
 * StringInfo from the backend, so the fuzzer (test/fuzz) compiles it
 * unchanged against a tiny shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "errors.h"
#include "item_node.h"

static void ReadAttributeValue(Reader *r, ValNode *n, int depth);

/* ---------------------------------------------------------------------
 * Base64 (standard alphabet, padded)
 * ---------------------------------------------------------------------
 */

static const char B64Chars[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Decode base64 into a palloc'd buffer; false if malformed */
static bool
Base64Decode(const char *s, uint32 len, char **out, uint32 *outlen)
{
	static signed char dec[256];
	static bool init = false;
	unsigned char *o;
	uint32		i,
				n = 0;

	if (!init)
	{
		memset(dec, -1, sizeof(dec));
		for (i = 0; i < 64; i++)
			dec[(unsigned char) B64Chars[i]] = (signed char) i;
		init = true;
	}
	if (len % 4 != 0)
		return false;
	o = palloc(len / 4 * 3 + 1);
	for (i = 0; i < len; i += 4)
	{
		int			a = dec[(unsigned char) s[i]],
					b = dec[(unsigned char) s[i + 1]],
					c = dec[(unsigned char) s[i + 2]],
					d = dec[(unsigned char) s[i + 3]];
		bool		last = (i + 4 == len);

		if (a < 0 || b < 0)
			return false;
		if (last && s[i + 2] == '=' && s[i + 3] == '=')
		{
			o[n++] = (a << 2) | (b >> 4);
			break;
		}
		if (c < 0)
			return false;
		if (last && s[i + 3] == '=')
		{
			o[n++] = (a << 2) | (b >> 4);
			o[n++] = ((b & 15) << 4) | (c >> 2);
			break;
		}
		if (d < 0)
			return false;
		o[n++] = (a << 2) | (b >> 4);
		o[n++] = ((b & 15) << 4) | (c >> 2);
		o[n++] = ((c & 3) << 6) | d;
	}
	*out = (char *) o;
	*outlen = n;
	return true;
}

/* Append bytes as padded base64 */
void
hroe_io_base64_append(StringInfo buf, const char *s, uint32 len)
{
	const unsigned char *p = (const unsigned char *) s;
	uint32		i;
	char	   *o;

	enlargeStringInfo(buf, (len + 2) / 3 * 4 + 1);
	o = buf->data + buf->len;
	for (i = 0; i + 2 < len; i += 3)
	{
		*o++ = B64Chars[p[i] >> 2];
		*o++ = B64Chars[((p[i] & 3) << 4) | (p[i + 1] >> 4)];
		*o++ = B64Chars[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)];
		*o++ = B64Chars[p[i + 2] & 63];
	}
	if (i < len)
	{
		*o++ = B64Chars[p[i] >> 2];
		if (i + 1 < len)
		{
			*o++ = B64Chars[((p[i] & 3) << 4) | (p[i + 1] >> 4)];
			*o++ = B64Chars[(p[i + 1] & 15) << 2];
		}
		else
		{
			*o++ = B64Chars[(p[i] & 3) << 4];
			*o++ = '=';
		}
		*o++ = '=';
	}
	buf->len = o - buf->data;
	buf->data[buf->len] = '\0';
}

/* ---------------------------------------------------------------------
 * The DynamoDB JSON reader
 * ---------------------------------------------------------------------
 */

/* Skip JSON whitespace */
void
hroe_io_skip_ws(Reader *r)
{
	while (r->p < r->end &&
		   (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

/* Expect one character after optional whitespace */
void
hroe_io_expect(Reader *r, char c, const char *what)
{
	hroe_io_skip_ws(r);
	if (r->p >= r->end || *r->p != c)
		hroe_io_syntax_error(r, what);
	r->p++;
}

/* Value of one hex digit, or -1 */
static inline int
HexVal(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Read 4 hex digits of a \u escape */
static int
ReadHex4(Reader *r)
{
	int			v = 0;

	if (r->end - r->p < 4)
		hroe_io_syntax_error(r, "Invalid \\u escape");
	for (int i = 0; i < 4; i++)
	{
		int			h = HexVal(r->p[i]);

		if (h < 0)
			hroe_io_syntax_error(r, "Invalid \\u escape");
		v = v * 16 + h;
	}
	r->p += 4;
	return v;
}

/*
 * Validate the unescaped character c at r->p (not a quote, not a
 * backslash): no control character, well-formed UTF-8.  Returns its length
 * in bytes.
 */
static inline int
StringCharLength(Reader *r, unsigned char c)
{
	int			l;

	if (c < 0x20)
		hroe_io_syntax_error(r, "Control character in a string");
	if (c < 0x80)
		return 1;
	l = hroe_io_utf8_len((const unsigned char *) r->p, (const unsigned char *) r->end);
	if (l == 0)
		hroe_io_syntax_error(r, "Invalid UTF-8 in a string");
	return l;
}

/*
 * The fast path: advance over the characters of a string up to its closing
 * quote (true) or its first escape (false), leaving r->p on it.
 */
static inline bool
ScanPlainString(Reader *r)
{
	for (;;)
	{
		unsigned char c;

		if (r->p >= r->end)
			hroe_io_syntax_error(r, "Unterminated string");
		c = (unsigned char) *r->p;
		if (c == '"')
			return true;
		if (c == '\\')
			return false;
		if (c >= 0x20 && c < 0x80)	/* printable ASCII, the common case */
			r->p++;
		else
			r->p += StringCharLength(r, c);
	}
}

/*
 * The code point of a \u escape whose "\u" has been read, a UTF-16
 * surrogate pair (a second \u escape) combined into one.
 */
static pg_wchar
ReadUnicodeEscape(Reader *r)
{
	int			cp = ReadHex4(r);
	int			lo;

	if (cp >= 0xDC00 && cp <= 0xDFFF)
		hroe_io_syntax_error(r, "Unpaired Unicode low surrogate");
	if (cp < 0xD800 || cp > 0xDBFF)
		return cp;
	if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
		hroe_io_syntax_error(r, "Unpaired Unicode high surrogate");
	r->p += 2;
	lo = ReadHex4(r);
	if (lo < 0xDC00 || lo > 0xDFFF)
		hroe_io_syntax_error(r, "Unpaired Unicode high surrogate");
	return 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
}

/* Append a code point (not a surrogate) as UTF-8 */
static void
AppendUtf8(StringInfo buf, pg_wchar cp)
{
	unsigned char u[MAX_MULTIBYTE_CHAR_LEN];

	unicode_to_utf8(cp, u);
	appendBinaryStringInfo(buf, (const char *) u, pg_utf_mblen(u));
}

/* Decode the escape at r->p (a backslash) into buf */
static void
ReadEscape(Reader *r, StringInfo buf)
{
	char		c;

	r->p++;
	if (r->p >= r->end)
		hroe_io_syntax_error(r, "Unterminated string");
	c = *r->p++;
	switch (c)
	{
		case '"':
		case '\\':
		case '/':
			break;
		case 'b':
			c = '\b';
			break;
		case 'f':
			c = '\f';
			break;
		case 'n':
			c = '\n';
			break;
		case 'r':
			c = '\r';
			break;
		case 't':
			c = '\t';
			break;
		case 'u':
			AppendUtf8(buf, ReadUnicodeEscape(r));
			return;
		default:
			r->p--;
			hroe_io_syntax_error(r, "Invalid escape sequence");
	}
	appendStringInfoChar(buf, c);
}

/*
 * The slow path: decode the rest of a string, from its first escape to its
 * closing quote (consumed), into buf.
 */
static void
ReadEscapedString(Reader *r, StringInfo buf)
{
	for (;;)
	{
		unsigned char c;
		int			l;

		if (r->p >= r->end)
			hroe_io_syntax_error(r, "Unterminated string");
		c = (unsigned char) *r->p;
		if (c == '"')
		{
			r->p++;
			return;
		}
		if (c == '\\')
		{
			ReadEscape(r, buf);
			continue;
		}
		l = StringCharLength(r, c);
		appendBinaryStringInfo(buf, r->p, l);
		r->p += l;
	}
}

/*
 * Read a JSON string (after optional whitespace) as UTF-8 bytes.  Without
 * escapes the result points into the input; with them, into a new buffer.
 */
void
hroe_io_read_string(Reader *r, const char **out, uint32 *outlen)
{
	const char *s;
	StringInfoData buf;

	hroe_io_skip_ws(r);
	if (r->p >= r->end || *r->p != '"')
		hroe_io_syntax_error(r, "Expected a string");
	s = ++r->p;
	if (ScanPlainString(r))
	{
		*out = s;
		*outlen = r->p - s;
		r->p++;
		return;
	}
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, s, r->p - s);
	ReadEscapedString(r, &buf);
	*out = buf.data;
	*outlen = buf.len;
}

/* Try to read a literal (true/false/null) */
static bool
ReadLiteral(Reader *r, const char *lit)
{
	size_t		l = strlen(lit);

	hroe_io_skip_ws(r);
	if ((size_t) (r->end - r->p) >= l && memcmp(r->p, lit, l) == 0)
	{
		r->p += l;
		return true;
	}
	return false;
}

/* Whether the next token (after whitespace) is c; consumes it if so */
bool
hroe_io_peek(Reader *r, char c)
{
	hroe_io_skip_ws(r);
	if (r->p < r->end && *r->p == c)
	{
		r->p++;
		return true;
	}
	return false;
}

/* Set a scalar S/N/B node from a JSON string */
static void
ReadScalarString(Reader *r, ValNode *n, HroeType type)
{
	const char *s;
	uint32		len;

	hroe_io_read_string(r, &s, &len);
	n->type = type;
	if (type == HROE_N)
	{
		int			l;

		n->data = hroe_io_number_normalize(r, s, len, &l);
		n->len = l;
	}
	else if (type == HROE_B)
	{
		char	   *o;
		uint32		ol;

		/* DynamoDB's request parser refuses malformed base64 first */
		if (!Base64Decode(s, len, &o, &ol))
			hroe_io_value_error(r, ERRCODE_HROE_SERIALIZATION, hroe_base64_message(len));
		n->data = o;
		n->len = ol;
	}
	else
	{
		n->data = s;
		n->len = len;
	}
	hroe_io_finish_scalar(n);
}

/* Read a JSON array of strings into a set node */
static void
ReadSet(Reader *r, ValNode *n, HroeType type)
{
	HroeType	mtype = type == HROE_SS ? HROE_S : type == HROE_NS ? HROE_N : HROE_B;
	int64		size = 0;

	n->type = type;
	hroe_io_expect(r, '[', "Expected \"[\" for a set");
	if (!hroe_io_peek(r, ']'))
	{
		do
		{
			ValNode	   *k = hroe_io_add_kid(n);

			CHECK_FOR_INTERRUPTS();
			hroe_io_push_index(r, n->nkids - 1);
			ReadScalarString(r, k, mtype);
			r->depth--;
			size += k->size;
			if (size > HROE_ITEM_MAX_SIZE)
				hroe_io_too_big();
		} while (hroe_io_peek(r, ','));
		hroe_io_expect(r, ']', "Expected \",\" or \"]\"");
	}
	hroe_io_finish_set(r, n);
}

/* Read the members of a JSON object as M members (name: AttributeValue) */
void
hroe_io_read_members(Reader *r, ValNode *m, int depth)
{
	int64		size = 0;

	hroe_io_expect(r, '{', "Expected \"{\"");
	if (!hroe_io_peek(r, '}'))
	{
		do
		{
			ValNode	   *k = hroe_io_add_kid(m);

			hroe_io_read_string(r, &k->name, &k->namelen);
			hroe_check_name_length(k->namelen);
			CHECK_FOR_INTERRUPTS();
			hroe_io_expect(r, ':', "Expected \":\"");
			hroe_io_push_name(r, k->name, k->namelen);
			ReadAttributeValue(r, k, depth);
			r->depth--;
			/* a lower bound of the item's size, so never a false alarm */
			size += k->namelen + k->size;
			if (size > HROE_ITEM_MAX_SIZE)
				hroe_io_too_big();
		} while (hroe_io_peek(r, ','));
		hroe_io_expect(r, '}', "Expected \",\" or \"}\"");
	}
}

/*
 * Read one AttributeValue object ({"S": "x"}) at the given level (an
 * attribute's value 1, an L's or M's members one deeper)
 */
static void
ReadAttributeValue(Reader *r, ValNode *n, int depth)
{
	const char *tag;
	uint32		taglen;

	if (depth > HROE_ITEM_MAX_DEPTH)
		hroe_io_value_error(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
	hroe_io_expect(r, '{', "Expected \"{\" to start an AttributeValue");
	if (hroe_io_peek(r, '}'))
		hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_EMPTY_AV);
	hroe_io_read_string(r, &tag, &taglen);
	hroe_io_expect(r, ':', "Expected \":\"");

#define TAG(lit) (taglen == sizeof(lit) - 1 && memcmp(tag, lit, taglen) == 0)
	if (TAG("S"))
		ReadScalarString(r, n, HROE_S);
	else if (TAG("N"))
		ReadScalarString(r, n, HROE_N);
	else if (TAG("B"))
		ReadScalarString(r, n, HROE_B);
	else if (TAG("BOOL"))
	{
		n->type = HROE_BOOL;
		if (ReadLiteral(r, "true"))
			n->boolval = true;
		else if (ReadLiteral(r, "false"))
			n->boolval = false;
		else
			hroe_io_syntax_error(r, "Expected true or false for BOOL");
		hroe_io_finish_scalar(n);
	}
	else if (TAG("NULL"))
	{
		n->type = HROE_NULL;
		if (ReadLiteral(r, "false"))
			hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_NULL_FALSE);
		if (!ReadLiteral(r, "true"))
			hroe_io_syntax_error(r, "Expected true for NULL");
		hroe_io_finish_scalar(n);
	}
	else if (TAG("L"))
	{
		int64		size = 3;

		n->type = HROE_L;
		hroe_io_expect(r, '[', "Expected \"[\" for L");
		if (!hroe_io_peek(r, ']'))
		{
			do
			{
				ValNode	   *k = hroe_io_add_kid(n);

				CHECK_FOR_INTERRUPTS();
				hroe_io_push_index(r, n->nkids - 1);
				ReadAttributeValue(r, k, depth + 1);
				r->depth--;
				size += 1 + k->size;
				if (size > HROE_ITEM_MAX_SIZE)
					hroe_io_too_big();
			} while (hroe_io_peek(r, ','));
			hroe_io_expect(r, ']', "Expected \",\" or \"]\"");
		}
		hroe_io_finish_list(n);
	}
	else if (TAG("M"))
	{
		n->type = HROE_M;
		hroe_io_read_members(r, n, depth + 1);
		hroe_io_finish_map(r, n, false);
	}
	else if (TAG("SS"))
		ReadSet(r, n, HROE_SS);
	else if (TAG("NS"))
		ReadSet(r, n, HROE_NS);
	else if (TAG("BS"))
		ReadSet(r, n, HROE_BS);
	else
	{
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type hroe.item"),
				 errdetail("Unknown AttributeValue type \"%s\" in attribute \"%s\".",
						   hroe_message_bytes(tag, taglen), hroe_io_path_text(r)),
				 errhint("The types are S, N, B, BOOL, NULL, L, M, SS, NS and BS.")));
	}
#undef TAG
	if (hroe_io_peek(r, ','))
		hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_TWO_TYPES);
	hroe_io_expect(r, '}', "Expected \"}\" to end an AttributeValue");
}

/*
 * An attribute name (top-level or a map's member, in an item or in
 * ExpressionAttributeNames) must not exceed 64 KB: DynamoDB's text
 */
void
hroe_check_name_length(uint32 len)
{
	if (len > HROE_ITEM_MAX_NAME)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("1 validation error detected: Attribute name is too large, must be less than %d bytes",
						HROE_ITEM_MAX_NAME + 1)));
}

/* Top-level attribute names must not be empty */
void
hroe_io_check_names(const ValNode *m)
{
	for (uint32 i = 0; i < m->nkids; i++)
		if (m->kids[i].namelen == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("attribute name must not be empty"),
					 errdetail("DynamoDB attribute names are 1 to 65535 bytes long.")));
}

/* Read a whole item: a JSON object of attributes; the text must end there */
static void
ReadItem(Reader *r, ValNode *m)
{
	memset(m, 0, sizeof(ValNode));
	m->type = HROE_M;
	hroe_io_read_members(r, m, 1);
	hroe_io_skip_ws(r);
	if (r->p != r->end)
		hroe_io_syntax_error(r, "Unexpected text after the item");
	hroe_io_check_names(m);
	hroe_io_finish_map(r, m, false);
}

/* Initialise a reader over JSON text */
void
hroe_io_init_reader(Reader *r, const char *json, int len)
{
	memset(r, 0, sizeof(Reader));
	r->start = r->p = json;
	r->end = json + len;
}

/* Parse an item from DynamoDB JSON text */
HroeItem *
hroe_item_parse(const char *json, int len)
{
	Reader		r;
	ValNode		m;

	hroe_io_init_reader(&r, json, len);
	ReadItem(&r, &m);
	return hroe_io_node_to_item(&m);
}

/* Parse one AttributeValue ({"S": "x"}) from DynamoDB JSON text */
void
hroe_value_parse(const char *json, int len, HroeValue *val)
{
	Reader		r;
	ValNode		n;

	hroe_io_init_reader(&r, json, len);
	memset(&n, 0, sizeof(n));
	ReadAttributeValue(&r, &n, 1);
	hroe_io_skip_ws(&r);
	if (r.p != r.end)
		hroe_io_syntax_error(&r, "Unexpected text after the AttributeValue");
	if (n.size > HROE_ITEM_MAX_SIZE)
		hroe_io_too_big();
	hroe_io_node_to_value(&n, val);
}
