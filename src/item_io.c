/*-------------------------------------------------------------------------
 *
 * item_io.c
 *	  hroe.item core: the strict DynamoDB JSON reader, DynamoDB number
 *	  normalisation, the size formula, the binary format (build, read,
 *	  validate) and the DynamoDB JSON writer.
 *
 * This file uses only palloc, ereport and StringInfo from the backend, so the
 * fuzzer (test/fuzz) compiles it unchanged against a tiny shim.  Everything
 * that needs fmgr, numeric or jsonb lives in item.c.
 *
 * Every value, however it arrives (JSON text, binary recv, the C builder),
 * goes through the same ValNode tree and the same finishing steps (sorting,
 * duplicate, empty-set, depth and size checks), so the three paths validate
 * identically.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "collection.h"
#include "item.h"

/* DynamoDB's own texts (dynamodb-semantics.md section 10) */
#define MSG_NUM_SYNTAX	"The parameter cannot be converted to a numeric value: %s"
#define MSG_NUM_DIGITS	"Attempting to store more than 38 significant digits in a Number"
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
	uint8		depth;			/* L/M nesting inside this value */
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

static void ReadAttributeValue(Reader *r, ValNode *n, int depth);
static void FinishMap(Reader *r, ValNode *m, bool later_wins);
static void BinaryValue(Reader *r, uint8 type, const char *p, uint32 len, ValNode *n, int depth);
static char *WriteValue(char *out, const ValNode *n);
static void WriteJsonValue(StringInfo buf, const HroeValue *v);

/* ---------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------
 */

/* Read an unaligned uint32 */
static inline uint32
GetU32(const char *p)
{
	uint32		v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Write an unaligned uint32 */
static inline void
PutU32(char *p, uint32 v)
{
	memcpy(p, &v, sizeof(v));
}

/* Render the reader's current path as text ("a.b[2].c") */
static char *
PathText(Reader *r)
{
	StringInfoData s;
	int			i;

	initStringInfo(&s);
	for (i = 0; i < r->depth && i < (int) lengthof(r->path); i++)
	{
		PathStep   *st = &r->path[i];

		if (st->name)
		{
			if (i > 0)
				appendStringInfoChar(&s, '.');
			hroe_append_message_bytes(&s, st->name, st->len);
		}
		else
		{
			char		num[16];
			int			n = 0;
			uint32		v = st->index;
			char		rev[16];

			do
			{
				rev[n++] = '0' + v % 10;
				v /= 10;
			} while (v);
			for (int j = 0; j < n; j++)
				num[j] = rev[n - 1 - j];
			appendStringInfoChar(&s, '[');
			appendBinaryStringInfo(&s, num, n);
			appendStringInfoChar(&s, ']');
		}
	}
	return s.data;
}

/* Push a named path step */
static inline void
PushName(Reader *r, const char *name, uint32 len)
{
	if (r->depth < (int) lengthof(r->path))
	{
		r->path[r->depth].name = name;
		r->path[r->depth].len = len;
	}
	r->depth++;
}

/* Push an index path step */
static inline void
PushIndex(Reader *r, uint32 index)
{
	if (r->depth < (int) lengthof(r->path))
	{
		r->path[r->depth].name = NULL;
		r->path[r->depth].index = index;
	}
	r->depth++;
}

/* Character position (1-based) of the reader in the JSON text */
static int
Position(Reader *r)
{
	return r->start ? (int) (r->p - r->start) + 1 : 0;
}

/* Report malformed input (JSON syntax or binary structure) */
static void
pg_attribute_noreturn()
SyntaxError(Reader *r, const char *what)
{
	if (r->start)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", r->type ? r->type : "hroe.item"),
				 errdetail("%s at character %d.", what, Position(r))));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid binary data for type hroe.item"),
			 errdetail("%s.", what)));
}

/* Report an invalid value with DynamoDB's text and where it is */
static void
pg_attribute_noreturn()
ValueError(Reader *r, int code, const char *msg)
{
	if (r && r->depth > 0)
		ereport(ERROR, (errcode(code), errmsg("%s", msg),
						errdetail("In attribute \"%s\".", PathText(r))));
	ereport(ERROR, (errcode(code), errmsg("%s", msg)));
}

/* E10 */
static void
pg_attribute_noreturn()
TooBig(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg(MSG_TOO_BIG),
			 errdetail("The DynamoDB size of an item is at most %d bytes.", HROE_ITEM_MAX_SIZE)));
}

/* Append a child to a container node and return it (zeroed) */
static ValNode *
AddKid(ValNode *n)
{
	ValNode	   *k;

	if (n->nkids == n->cap)
	{
		n->cap = n->cap ? n->cap * 2 : 8;
		if (n->kids)
			n->kids = repalloc(n->kids, sizeof(ValNode) * n->cap);
		else
			n->kids = palloc(sizeof(ValNode) * n->cap);
	}
	k = &n->kids[n->nkids++];
	memset(k, 0, sizeof(ValNode));
	return k;
}

/*
 * Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid: no
 * overlong forms, no surrogates, nothing above U+10FFFF, no U+0000.
 */
static inline int
Utf8Len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];

	if (c < 0x80)
		return c ? 1 : 0;
	if (c >= 0xC2 && c <= 0xDF)
		return (end - p >= 2 && (p[1] & 0xC0) == 0x80) ? 2 : 0;
	if (c >= 0xE0 && c <= 0xEF)
	{
		if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
			return 0;
		if (c == 0xE0 && p[1] < 0xA0)
			return 0;
		if (c == 0xED && p[1] > 0x9F)
			return 0;
		return 3;
	}
	if (c >= 0xF0 && c <= 0xF4)
	{
		if (end - p < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
			(p[3] & 0xC0) != 0x80)
			return 0;
		if (c == 0xF0 && p[1] < 0x90)
			return 0;
		if (c == 0xF4 && p[1] > 0x8F)
			return 0;
		return 4;
	}
	return 0;
}

/* Whether bytes are valid UTF-8 without U+0000 */
static bool
ValidUtf8(const char *s, uint32 len)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;

	while (p < end)
	{
		int			l;

		if (*p >= 0x01 && *p < 0x80)
		{
			p++;
			continue;
		}
		l = Utf8Len(p, end);
		if (l == 0)
			return false;
		p += l;
	}
	return true;
}

/*
 * Append input bytes to an error message: valid UTF-8 as it is, any other
 * byte (one of an invalid sequence, or U+0000) as \xNN.  Every message that
 * quotes input goes through here, so none carries invalid UTF-8 (which
 * PostgreSQL could not convert to the client's encoding) or stops at a NUL.
 */
void
hroe_append_message_bytes(StringInfo buf, const char *s, uint32 len)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;

	while (p < end)
	{
		int			l = Utf8Len(p, end);

		if (l == 0)
		{
			appendStringInfo(buf, "\\x%02x", *p);
			l = 1;
		}
		else
			appendBinaryStringInfo(buf, (const char *) p, l);
		p += l;
	}
}

/* Input bytes as a palloc'd string for an error message (see above) */
char *
hroe_message_bytes(const char *s, uint32 len)
{
	StringInfoData buf;

	initStringInfo(&buf);
	hroe_append_message_bytes(&buf, s, len);
	return buf.data;
}

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
static void
Base64Append(StringInfo buf, const char *s, uint32 len)
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
 * Numbers
 * ---------------------------------------------------------------------
 */

/* Report E9 "cannot be converted" for a number text */
static void
pg_attribute_noreturn()
NumberSyntax(Reader *r, const char *text, int len)
{
	StringInfoData msg;

	initStringInfo(&msg);
	appendStringInfo(&msg, MSG_NUM_SYNTAX, hroe_message_bytes(text, len));
	ValueError(r, ERRCODE_INVALID_TEXT_REPRESENTATION, msg.data);
}

/*
 * Normalise a DynamoDB number: exact decimal, plain notation, no leading or
 * trailing zeros, -0 is 0; at most 38 significant digits, magnitude within
 * 1E-130 .. 9.99..E+125.  Syntax: -?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?
 */
static char *
NumberNormalize(Reader *r, const char *s, int len, int *outlen)
{
	const char *p = s,
			   *end = s + len;
	const char *mant,
			   *mant_end;
	bool		neg = false;
	int64		intlen = 0,
				explicit_exp = 0,
				e;
	int64		first = -1,
				last = -1,
				idx = 0;
	char		sig[40];
	int			d = 0;
	char	   *out,
			   *o;

	/* pass 1: syntax */
	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	mant = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	intlen = p - mant;
	if (p < end && *p == '.')
	{
		p++;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	mant_end = p;
	if (mant_end - mant - (intlen < mant_end - mant ? 1 : 0) == 0)
		NumberSyntax(r, s, len);	/* no digits at all */
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;
		const char *ds;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = (*p++ == '-');
		ds = p;
		while (p < end && *p >= '0' && *p <= '9')
		{
			/* saturate: anything this large overflows or underflows anyway */
			if (explicit_exp < 1000000000)
				explicit_exp = explicit_exp * 10 + (*p - '0');
			p++;
		}
		if (p == ds)
			NumberSyntax(r, s, len);
		if (eneg)
			explicit_exp = -explicit_exp;
	}
	if (p != end)
		NumberSyntax(r, s, len);

	/* pass 2: significant digits, indexed over the mantissa digits */
	for (p = mant; p < mant_end; p++)
	{
		if (*p == '.')
			continue;
		if (*p != '0')
		{
			if (first < 0)
				first = idx;
			last = idx;
		}
		idx++;
	}
	if (first < 0)
	{
		out = palloc(2);
		out[0] = '0';
		out[1] = '\0';
		*outlen = 1;
		return out;
	}
	if (last - first + 1 > 38)
		ValueError(r, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, MSG_NUM_DIGITS);
	idx = 0;
	for (p = mant; p < mant_end; p++)
	{
		if (*p == '.')
			continue;
		if (idx >= first && idx <= last)
			sig[d++] = *p;
		idx++;
	}
	/* exponent of the leading significant digit */
	e = intlen - 1 - first + explicit_exp;
	if (e > 125)
		ValueError(r, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, MSG_NUM_OVER);
	if (e < -130)
		ValueError(r, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, MSG_NUM_UNDER);

	out = o = palloc(d + 140);
	if (neg)
		*o++ = '-';
	if (e >= d - 1)
	{
		memcpy(o, sig, d);
		o += d;
		for (int64 i = 0; i < e - (d - 1); i++)
			*o++ = '0';
	}
	else if (e >= 0)
	{
		memcpy(o, sig, e + 1);
		o += e + 1;
		*o++ = '.';
		memcpy(o, sig + e + 1, d - (e + 1));
		o += d - (e + 1);
	}
	else
	{
		*o++ = '0';
		*o++ = '.';
		for (int64 i = 0; i < -e - 1; i++)
			*o++ = '0';
		memcpy(o, sig, d);
		o += d;
	}
	*o = '\0';
	*outlen = o - out;
	return out;
}

/* Normalise a DynamoDB number text (E9 errors without an attribute path) */
char *
hroe_number_normalize(const char *s, int len, int *outlen)
{
	return NumberNormalize(NULL, s, len, outlen);
}

/* DynamoDB size of a canonical number: base-100 digits + exponent + sign */
static int64
NumberSize(const char *s, uint32 len)
{
	bool		neg = (len > 0 && s[0] == '-');
	const char *p = s + (neg ? 1 : 0),
			   *end = s + len;
	uint32		intlen = 0;
	int64		d,
				e;

	while (p + intlen < end && p[intlen] != '.')
		intlen++;
	if (intlen == 1 && p[0] == '0')
	{
		const char *f = p + 2;
		int64		z = 0;

		if (p + 1 >= end)
			return 1;			/* zero */
		while (f + z < end && f[z] == '0')
			z++;
		e = -(z + 1);
		d = (end - f) - z;
	}
	else
	{
		e = intlen - 1;
		if (p + intlen < end)
			d = (end - p) - 1;	/* digits of both parts, no trailing zeros */
		else
		{
			d = intlen;
			while (d > 1 && p[d - 1] == '0')
				d--;
		}
	}
	return 1 + (d + (e % 2 == 0 ? 1 : 0) + 1) / 2 + (neg ? 1 : 0);
}

/* Compare canonical number texts numerically */
int
hroe_number_compare(const char *a, uint32 alen, const char *b, uint32 blen)
{
	bool		na = (alen > 0 && a[0] == '-');
	bool		nb = (blen > 0 && b[0] == '-');
	uint32		ia = 0,
				ib = 0,
				fa,
				fb,
				m;
	int			c;

	if (na != nb)
		return na ? -1 : 1;
	if (na)
	{
		a++, alen--, b++, blen--;
	}
	while (ia < alen && a[ia] != '.')
		ia++;
	while (ib < blen && b[ib] != '.')
		ib++;
	if (ia != ib)
		c = ia < ib ? -1 : 1;
	else if ((c = memcmp(a, b, ia)) != 0)
		c = c < 0 ? -1 : 1;
	else
	{
		fa = alen > ia ? alen - ia - 1 : 0;
		fb = blen > ib ? blen - ib - 1 : 0;
		m = Min(fa, fb);
		c = m ? memcmp(a + ia + 1, b + ib + 1, m) : 0;
		if (c != 0)
			c = c < 0 ? -1 : 1;
		else
			c = fa == fb ? 0 : (fa < fb ? -1 : 1);
	}
	return na ? -c : c;
}

/* ---------------------------------------------------------------------
 * Finishing nodes: sizes, sorting, duplicates
 * ---------------------------------------------------------------------
 */

/* Bytewise order of two byte strings, shorter prefix first */
static inline int
BytesCompare(const char *a, uint32 alen, const char *b, uint32 blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return c;
	return alen == blen ? 0 : (alen < blen ? -1 : 1);
}

/* qsort comparator: M members by name, then insertion order */
static int
MemberCmp(const void *x, const void *y)
{
	const ValNode *a = x,
			   *b = y;
	int			c = BytesCompare(a->name, a->namelen, b->name, b->namelen);

	if (c != 0)
		return c;
	return a->seq == b->seq ? 0 : (a->seq < b->seq ? -1 : 1);
}

/* qsort comparator: SS/BS members bytewise */
static int
BytesMemberCmp(const void *x, const void *y)
{
	const ValNode *a = x,
			   *b = y;

	return BytesCompare(a->data, a->len, b->data, b->len);
}

/* qsort comparator: NS members numerically */
static int
NumberMemberCmp(const void *x, const void *y)
{
	const ValNode *a = x,
			   *b = y;

	return hroe_number_compare(a->data, a->len, b->data, b->len);
}

/* Finish a scalar node: size and serialized length */
static void
FinishScalar(ValNode *n)
{
	switch (n->type)
	{
		case HROE_S:
		case HROE_B:
			n->size = n->len;
			n->serlen = 1 + (uint64) n->len;
			break;
		case HROE_N:
			n->size = NumberSize(n->data, n->len);
			n->serlen = 1 + (uint64) n->len;
			break;
		case HROE_BOOL:
			n->size = 1;
			n->serlen = 2;
			break;
		case HROE_NULL:
			n->size = 1;
			n->serlen = 1;
			break;
		default:
			elog(ERROR, "unexpected scalar type %d", n->type);
	}
}

/* E30 for a set: empty, or with duplicates (members listed in input order) */
static void
pg_attribute_noreturn()
SetError(Reader *r, ValNode *set, bool empty)
{
	StringInfoData s;
	const char *kind = set->type == HROE_SS ? "string" :
		set->type == HROE_NS ? "number" : "binary";

	if (empty)
	{
		initStringInfo(&s);
		appendStringInfo(&s, "One or more parameter values were invalid: An %s set  may not be empty", kind);
		ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, s.data);
	}
	initStringInfo(&s);
	appendStringInfoString(&s, "One or more parameter values were invalid: Input collection [");
	for (uint32 i = 0; i < set->nkids; i++)
	{
		if (i > 0)
			appendStringInfoString(&s, ", ");
		if (set->type == HROE_BS)
			Base64Append(&s, set->kids[i].data, set->kids[i].len);
		else
			hroe_append_message_bytes(&s, set->kids[i].data, set->kids[i].len);
	}
	appendStringInfoString(&s, "] contains duplicates.");
	ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, s.data);
}

/* Finish a set: not empty, members sorted and unique, size */
static void
FinishSet(Reader *r, ValNode *set)
{
	int			(*cmp) (const void *, const void *);
	bool		sorted = true;
	uint32		i;

	if (set->nkids == 0)
		SetError(r, set, true);
	cmp = set->type == HROE_NS ? NumberMemberCmp : BytesMemberCmp;
	for (i = 1; i < set->nkids; i++)
		if (cmp(&set->kids[i - 1], &set->kids[i]) >= 0)
		{
			sorted = false;
			break;
		}
	if (!sorted)
	{
		ValNode	   *copy = palloc(sizeof(ValNode) * set->nkids);

		memcpy(copy, set->kids, sizeof(ValNode) * set->nkids);
		qsort(copy, set->nkids, sizeof(ValNode), cmp);
		for (i = 1; i < set->nkids; i++)
			if (cmp(&copy[i - 1], &copy[i]) == 0)
				SetError(r, set, false);	/* reports the input order */
		set->kids = copy;
	}
	set->size = 0;
	set->serlen = 1 + 4 + 4 * (uint64) set->nkids;
	set->depth = 0;
	for (i = 0; i < set->nkids; i++)
	{
		set->size += set->kids[i].size;
		set->serlen += set->kids[i].len;
	}
}

/* Finish an L: size and serialized length */
static void
FinishList(ValNode *l)
{
	l->size = 3;
	l->serlen = 1 + 4 + 4 * (uint64) l->nkids;
	l->depth = 1;
	for (uint32 i = 0; i < l->nkids; i++)
	{
		l->size += 1 + l->kids[i].size;
		l->serlen += l->kids[i].serlen;
		l->depth = Max(l->depth, l->kids[i].depth + 1);
	}
}

/*
 * Finish an M (or the item's top-level map): sort members by name; a
 * duplicate name is an error, or, for the builder, the later one wins.
 */
static void
FinishMap(Reader *r, ValNode *m, bool later_wins)
{
	bool		sorted = true;
	uint32		i,
				j;

	for (i = 1; i < m->nkids; i++)
		if (BytesCompare(m->kids[i - 1].name, m->kids[i - 1].namelen,
						 m->kids[i].name, m->kids[i].namelen) >= 0)
		{
			sorted = false;
			break;
		}
	if (!sorted)
	{
		qsort(m->kids, m->nkids, sizeof(ValNode), MemberCmp);
		for (i = 1, j = 0; i < m->nkids; i++)
		{
			if (BytesCompare(m->kids[j].name, m->kids[j].namelen,
							 m->kids[i].name, m->kids[i].namelen) == 0)
			{
				if (!later_wins)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("duplicate attribute name \"%s\"",
									hroe_message_bytes(m->kids[i].name, m->kids[i].namelen)),
							 r && r->depth > 0 ?
							 errdetail("In attribute \"%s\".", PathText(r)) : 0));
				m->kids[j] = m->kids[i];
			}
			else
				m->kids[++j] = m->kids[i];
		}
		if (m->nkids > 0)
			m->nkids = j + 1;
	}
	m->size = 3;
	m->serlen = 1 + 4 + 8 * (uint64) m->nkids;
	m->depth = 1;
	for (i = 0; i < m->nkids; i++)
	{
		m->size += m->kids[i].namelen + 1 + m->kids[i].size;
		m->serlen += m->kids[i].namelen + m->kids[i].serlen;
		m->depth = Max(m->depth, m->kids[i].depth + 1);
	}
}

/* ---------------------------------------------------------------------
 * Serialisation
 * ---------------------------------------------------------------------
 */

/* Write the payload of a node (no tag); returns the end */
static char *
WritePayload(char *out, const ValNode *n)
{
	char	   *base = out;
	uint32		i;

	if (n->raw)
	{
		memcpy(out, n->data, n->len);
		return out + n->len;
	}
	switch (n->type)
	{
		case HROE_S:
		case HROE_B:
		case HROE_N:
			memcpy(out, n->data, n->len);
			return out + n->len;
		case HROE_BOOL:
			*out = n->boolval ? 1 : 0;
			return out + 1;
		case HROE_NULL:
			return out;
		case HROE_L:
			PutU32(out, n->nkids);
			out += 4 + 4 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				PutU32(base + 4 + 4 * i, out - base);
				out = WriteValue(out, &n->kids[i]);
			}
			return out;
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			PutU32(out, n->nkids);
			out += 4 + 4 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				PutU32(base + 4 + 4 * i, out - base);
				memcpy(out, n->kids[i].data, n->kids[i].len);
				out += n->kids[i].len;
			}
			return out;
		case HROE_M:
			/* all names first, so a binary search touches one region */
			PutU32(out, n->nkids);
			out += 4 + 8 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				PutU32(base + 4 + 8 * i, out - base);
				memcpy(out, n->kids[i].name, n->kids[i].namelen);
				out += n->kids[i].namelen;
			}
			for (i = 0; i < n->nkids; i++)
			{
				PutU32(base + 8 + 8 * i, out - base);
				out = WriteValue(out, &n->kids[i]);
			}
			return out;
	}
	elog(ERROR, "unexpected value type %d", n->type);
	return out;
}

/* Write a tagged value; returns the end */
static char *
WriteValue(char *out, const ValNode *n)
{
	*out++ = (char) n->type;
	return WritePayload(out, n);
}

/* Turn a finished top-level map node into an item varlena */
static HroeItem *
NodeToItem(const ValNode *m)
{
	HroeItem   *item;
	int64		size = m->size - 3 - m->nkids;	/* no M overhead at the top */
	uint64		total = HROE_ITEM_HDRSZ + m->serlen - 1;
	char	   *end;

	if (size > HROE_ITEM_MAX_SIZE)
		TooBig();
	if (m->depth - 1 > HROE_ITEM_MAX_DEPTH)
		ValueError(NULL, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
	if (total > MaxAllocSize)
		TooBig();
	item = palloc(total);
	SET_VARSIZE(item, total);
	item->version = HROE_ITEM_VERSION;
	item->unused[0] = item->unused[1] = item->unused[2] = 0;
	item->size = (uint32) size;
	end = WritePayload(item->body, m);
	Assert(end == (char *) item + total);
	(void) end;
	return item;
}

/* Serialize a finished node as a palloc'd HroeValue */
static void
NodeToValue(const ValNode *n, HroeValue *v)
{
	char	   *buf = palloc(n->serlen);
	char	   *end = WritePayload(buf, n);

	v->type = n->type;
	v->data = buf;
	v->len = end - buf;
}

/* ---------------------------------------------------------------------
 * The DynamoDB JSON reader
 * ---------------------------------------------------------------------
 */

/* Skip JSON whitespace */
static inline void
SkipWs(Reader *r)
{
	while (r->p < r->end &&
		   (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

/* Expect one character after optional whitespace */
static inline void
Expect(Reader *r, char c, const char *what)
{
	SkipWs(r);
	if (r->p >= r->end || *r->p != c)
		SyntaxError(r, what);
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
		SyntaxError(r, "Invalid \\u escape");
	for (int i = 0; i < 4; i++)
	{
		int			h = HexVal(r->p[i]);

		if (h < 0)
			SyntaxError(r, "Invalid \\u escape");
		v = v * 16 + h;
	}
	r->p += 4;
	return v;
}

/*
 * Read a JSON string (after optional whitespace) as UTF-8 bytes.  Without
 * escapes the result points into the input; with them, into a new buffer.
 */
static void
ReadString(Reader *r, const char **out, uint32 *outlen)
{
	const char *s;
	StringInfoData buf;

	SkipWs(r);
	if (r->p >= r->end || *r->p != '"')
		SyntaxError(r, "Expected a string");
	s = ++r->p;
	/* fast path: no escapes */
	for (;;)
	{
		unsigned char c;
		int			l;

		if (r->p >= r->end)
			SyntaxError(r, "Unterminated string");
		c = (unsigned char) *r->p;
		if (c == '"')
		{
			*out = s;
			*outlen = r->p - s;
			r->p++;
			return;
		}
		if (c == '\\')
			break;
		if (c < 0x20)
			SyntaxError(r, "Control character in a string");
		if (c < 0x80)
		{
			r->p++;
			continue;
		}
		l = Utf8Len((const unsigned char *) r->p, (const unsigned char *) r->end);
		if (l == 0)
			SyntaxError(r, "Invalid UTF-8 in a string");
		r->p += l;
	}
	/* slow path: decode escapes into a buffer */
	initStringInfo(&buf);
	appendBinaryStringInfo(&buf, s, r->p - s);
	for (;;)
	{
		unsigned char c;
		int			l;

		if (r->p >= r->end)
			SyntaxError(r, "Unterminated string");
		c = (unsigned char) *r->p;
		if (c == '"')
		{
			r->p++;
			break;
		}
		if (c == '\\')
		{
			r->p++;
			if (r->p >= r->end)
				SyntaxError(r, "Unterminated string");
			c = (unsigned char) *r->p++;
			switch (c)
			{
				case '"':
				case '\\':
				case '/':
					appendStringInfoChar(&buf, (char) c);
					break;
				case 'b':
					appendStringInfoChar(&buf, '\b');
					break;
				case 'f':
					appendStringInfoChar(&buf, '\f');
					break;
				case 'n':
					appendStringInfoChar(&buf, '\n');
					break;
				case 'r':
					appendStringInfoChar(&buf, '\r');
					break;
				case 't':
					appendStringInfoChar(&buf, '\t');
					break;
				case 'u':
					{
						int			cp = ReadHex4(r);
						char		u[4];
						int			n;

						if (cp >= 0xD800 && cp <= 0xDBFF)
						{
							int			lo;

							if (r->end - r->p < 2 || r->p[0] != '\\' || r->p[1] != 'u')
								SyntaxError(r, "Unpaired Unicode high surrogate");
							r->p += 2;
							lo = ReadHex4(r);
							if (lo < 0xDC00 || lo > 0xDFFF)
								SyntaxError(r, "Unpaired Unicode high surrogate");
							cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
						}
						else if (cp >= 0xDC00 && cp <= 0xDFFF)
							SyntaxError(r, "Unpaired Unicode low surrogate");
						if (cp == 0)
							ereport(ERROR,
									(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
									 errmsg("unsupported Unicode escape sequence"),
									 errdetail("\\u0000 cannot be converted to text."),
									 errhint("hroe.item strings are PostgreSQL text; store such data as B (binary).")));
						if (cp < 0x80)
						{
							u[0] = cp;
							n = 1;
						}
						else if (cp < 0x800)
						{
							u[0] = 0xC0 | (cp >> 6);
							u[1] = 0x80 | (cp & 0x3F);
							n = 2;
						}
						else if (cp < 0x10000)
						{
							u[0] = 0xE0 | (cp >> 12);
							u[1] = 0x80 | ((cp >> 6) & 0x3F);
							u[2] = 0x80 | (cp & 0x3F);
							n = 3;
						}
						else
						{
							u[0] = 0xF0 | (cp >> 18);
							u[1] = 0x80 | ((cp >> 12) & 0x3F);
							u[2] = 0x80 | ((cp >> 6) & 0x3F);
							u[3] = 0x80 | (cp & 0x3F);
							n = 4;
						}
						appendBinaryStringInfo(&buf, u, n);
						break;
					}
				default:
					r->p--;
					SyntaxError(r, "Invalid escape sequence");
			}
			continue;
		}
		if (c < 0x20)
			SyntaxError(r, "Control character in a string");
		if (c < 0x80)
		{
			appendStringInfoChar(&buf, (char) c);
			r->p++;
			continue;
		}
		l = Utf8Len((const unsigned char *) r->p, (const unsigned char *) r->end);
		if (l == 0)
			SyntaxError(r, "Invalid UTF-8 in a string");
		appendBinaryStringInfo(&buf, r->p, l);
		r->p += l;
	}
	*out = buf.data;
	*outlen = buf.len;
}

/* Try to read a literal (true/false/null) */
static bool
ReadLiteral(Reader *r, const char *lit)
{
	size_t		l = strlen(lit);

	SkipWs(r);
	if ((size_t) (r->end - r->p) >= l && memcmp(r->p, lit, l) == 0)
	{
		r->p += l;
		return true;
	}
	return false;
}

/* Whether the next token (after whitespace) is c; consumes it if so */
static inline bool
Peek(Reader *r, char c)
{
	SkipWs(r);
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

	ReadString(r, &s, &len);
	n->type = type;
	if (type == HROE_N)
	{
		int			l;

		n->data = NumberNormalize(r, s, len, &l);
		n->len = l;
	}
	else if (type == HROE_B)
	{
		char	   *o;
		uint32		ol;

		if (!Base64Decode(s, len, &o, &ol))
			ValueError(r, ERRCODE_INVALID_TEXT_REPRESENTATION,
					   "Invalid Base64 value for a binary attribute");
		n->data = o;
		n->len = ol;
	}
	else
	{
		n->data = s;
		n->len = len;
	}
	FinishScalar(n);
}

/* Read a JSON array of strings into a set node */
static void
ReadSet(Reader *r, ValNode *n, HroeType type)
{
	HroeType	mtype = type == HROE_SS ? HROE_S : type == HROE_NS ? HROE_N : HROE_B;
	int64		size = 0;

	n->type = type;
	Expect(r, '[', "Expected \"[\" for a set");
	if (!Peek(r, ']'))
	{
		do
		{
			ValNode	   *k = AddKid(n);

			PushIndex(r, n->nkids - 1);
			ReadScalarString(r, k, mtype);
			r->depth--;
			size += k->size;
			if (size > HROE_ITEM_MAX_SIZE)
				TooBig();
		} while (Peek(r, ','));
		Expect(r, ']', "Expected \",\" or \"]\"");
	}
	FinishSet(r, n);
}

/* Read the members of a JSON object as M members (name: AttributeValue) */
static void
ReadMembers(Reader *r, ValNode *m, int depth)
{
	int64		size = 0;

	Expect(r, '{', "Expected \"{\"");
	if (!Peek(r, '}'))
	{
		do
		{
			ValNode	   *k = AddKid(m);

			ReadString(r, &k->name, &k->namelen);
			hroe_check_name_length(k->namelen);
			Expect(r, ':', "Expected \":\"");
			PushName(r, k->name, k->namelen);
			ReadAttributeValue(r, k, depth);
			r->depth--;
			/* a lower bound of the item's size, so never a false alarm */
			size += k->namelen + k->size;
			if (size > HROE_ITEM_MAX_SIZE)
				TooBig();
		} while (Peek(r, ','));
		Expect(r, '}', "Expected \",\" or \"}\"");
	}
}

/* Read one AttributeValue object ({"S": "x"}) at the given L/M depth */
static void
ReadAttributeValue(Reader *r, ValNode *n, int depth)
{
	const char *tag;
	uint32		taglen;

	Expect(r, '{', "Expected \"{\" to start an AttributeValue");
	if (Peek(r, '}'))
		ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_EMPTY_AV);
	ReadString(r, &tag, &taglen);
	Expect(r, ':', "Expected \":\"");

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
			SyntaxError(r, "Expected true or false for BOOL");
		FinishScalar(n);
	}
	else if (TAG("NULL"))
	{
		n->type = HROE_NULL;
		if (ReadLiteral(r, "false"))
			ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_NULL_FALSE);
		if (!ReadLiteral(r, "true"))
			SyntaxError(r, "Expected true for NULL");
		FinishScalar(n);
	}
	else if (TAG("L"))
	{
		int64		size = 3;

		if (depth > HROE_ITEM_MAX_DEPTH)
			ValueError(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
		n->type = HROE_L;
		Expect(r, '[', "Expected \"[\" for L");
		if (!Peek(r, ']'))
		{
			do
			{
				ValNode	   *k = AddKid(n);

				PushIndex(r, n->nkids - 1);
				ReadAttributeValue(r, k, depth + 1);
				r->depth--;
				size += 1 + k->size;
				if (size > HROE_ITEM_MAX_SIZE)
					TooBig();
			} while (Peek(r, ','));
			Expect(r, ']', "Expected \",\" or \"]\"");
		}
		FinishList(n);
	}
	else if (TAG("M"))
	{
		if (depth > HROE_ITEM_MAX_DEPTH)
			ValueError(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
		n->type = HROE_M;
		ReadMembers(r, n, depth + 1);
		FinishMap(r, n, false);
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
						   hroe_message_bytes(tag, taglen), PathText(r)),
				 errhint("The types are S, N, B, BOOL, NULL, L, M, SS, NS and BS.")));
	}
#undef TAG
	if (Peek(r, ','))
		ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_TWO_TYPES);
	Expect(r, '}', "Expected \"}\" to end an AttributeValue");
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
static void
CheckNames(const ValNode *m)
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
	ReadMembers(r, m, 1);
	SkipWs(r);
	if (r->p != r->end)
		SyntaxError(r, "Unexpected text after the item");
	CheckNames(m);
	FinishMap(r, m, false);
}

/* Initialise a reader over JSON text */
static void
InitReader(Reader *r, const char *json, int len)
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

	InitReader(&r, json, len);
	ReadItem(&r, &m);
	return NodeToItem(&m);
}

/* Parse one AttributeValue ({"S": "x"}) from DynamoDB JSON text */
void
hroe_value_parse(const char *json, int len, HroeValue *val)
{
	Reader		r;
	ValNode		n;

	InitReader(&r, json, len);
	memset(&n, 0, sizeof(n));
	ReadAttributeValue(&r, &n, 1);
	SkipWs(&r);
	if (r.p != r.end)
		SyntaxError(&r, "Unexpected text after the AttributeValue");
	if (n.size > HROE_ITEM_MAX_SIZE)
		TooBig();
	NodeToValue(&n, val);
}

/* Check a collection sort key: 1..1024 bytes of UTF-8 without U+0000 (E4, E6) */
void
hroe_sort_key_check(const char *key, uint32 keylen)
{
	if (keylen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: SortKey")));
	if (keylen > HROE_SORT_KEY_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes"),
				 errdetail("The sort key is %u bytes long.", keylen)));
	if (!ValidUtf8(key, keylen))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("sort key is not valid UTF-8 or contains U+0000")));
}

/* Read a collection entry's {"S": "key"} */
static void
ReadSortKey(Reader *r, const char **key, uint32 *keylen)
{
	const char *tag;
	uint32		taglen;

	Expect(r, '{', "Expected \"{\" to start a sort key AttributeValue");
	ReadString(r, &tag, &taglen);
	if (taglen != 1 || tag[0] != 'S')
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hroe.item_collection sort keys must be of type S"),
				 errdetail("Found a sort key that is not {\"S\": ...} at character %d.", Position(r))));
	Expect(r, ':', "Expected \":\"");
	ReadString(r, key, keylen);
	if (Peek(r, ','))
		ValueError(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_TWO_TYPES);
	Expect(r, '}', "Expected \"}\" to end the sort key");
	hroe_sort_key_check(*key, *keylen);
}

/* Parse a collection: [{"SortKey": {"S": k}, "Item": {...}}, ...] in any order */
HroeCollection *
hroe_collection_parse(const char *json, int len)
{
	Reader		r;
	HroeCollectionEntry *ents = NULL;
	uint32		n = 0,
				cap = 0;

	InitReader(&r, json, len);
	r.type = "hroe.item_collection";
	Expect(&r, '[', "Expected \"[\" to start an item collection");
	if (!Peek(&r, ']'))
	{
		do
		{
			const char *key = NULL;
			uint32		keylen = 0;
			HroeItem   *item = NULL;

			Expect(&r, '{', "Expected \"{\" to start a collection entry");
			if (!Peek(&r, '}'))
			{
				do
				{
					const char *nm;
					uint32		nl;

					ReadString(&r, &nm, &nl);
					Expect(&r, ':', "Expected \":\"");
					if (nl == 7 && memcmp(nm, "SortKey", 7) == 0 && key == NULL)
						ReadSortKey(&r, &key, &keylen);
					else if (nl == 4 && memcmp(nm, "Item", 4) == 0 && item == NULL)
					{
						ValNode		m;

						memset(&m, 0, sizeof(m));
						m.type = HROE_M;
						ReadMembers(&r, &m, 1);
						CheckNames(&m);
						FinishMap(&r, &m, false);
						item = NodeToItem(&m);
					}
					else
						SyntaxError(&r, "Expected one \"SortKey\" and one \"Item\" member");
				} while (Peek(&r, ','));
				Expect(&r, '}', "Expected \",\" or \"}\"");
			}
			if (key == NULL || item == NULL)
				SyntaxError(&r, "A collection entry needs a \"SortKey\" and an \"Item\"");
			if (n == cap)
			{
				cap = cap ? cap * 2 : 16;
				ents = ents ? repalloc(ents, sizeof(HroeCollectionEntry) * cap) :
					palloc(sizeof(HroeCollectionEntry) * cap);
			}
			ents[n].key = key;
			ents[n].keylen = keylen;
			ents[n].item = (const char *) item + VARHDRSZ;
			ents[n].itemlen = VARSIZE(item) - VARHDRSZ;
			n++;
		} while (Peek(&r, ','));
		Expect(&r, ']', "Expected \",\" or \"]\"");
	}
	SkipWs(&r);
	if (r.p != r.end)
		SyntaxError(&r, "Unexpected text after the item collection");
	return hroe_collection_build(ents, n);
}

/* ---------------------------------------------------------------------
 * Reading the binary format
 * ---------------------------------------------------------------------
 */

/* Number of entries of an L, M or set value */
uint32
hroe_value_count(const HroeValue *v)
{
	switch (v->type)
	{
		case HROE_L:
		case HROE_M:
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			return GetU32(v->data);
		default:
			return 0;
	}
}

/* The item's attribute map as an M value */
void
hroe_item_root(const HroeItem *item, HroeValue *map)
{
	map->type = HROE_M;
	map->data = item->body;
	map->len = HroeItemBodyLen(item);
}

/* Entry i of an M value */
void
hroe_map_entry(const HroeValue *map, uint32 i, const char **name, uint32 *namelen,
			   HroeValue *val)
{
	uint32		n = GetU32(map->data);
	uint32		noff = GetU32(map->data + 4 + 8 * i);
	uint32		nend = (i + 1 < n) ? GetU32(map->data + 4 + 8 * (i + 1)) : GetU32(map->data + 8);
	uint32		voff = GetU32(map->data + 8 + 8 * i);
	uint32		vend = (i + 1 < n) ? GetU32(map->data + 8 + 8 * (i + 1)) : map->len;

	*name = map->data + noff;
	*namelen = nend - noff;
	val->type = (HroeType) (uint8) map->data[voff];
	val->data = map->data + voff + 1;
	val->len = vend - voff - 1;
}

/* Find an attribute of an M value by binary search on the sorted directory */
bool
hroe_map_find(const HroeValue *map, const char *name, uint32 namelen, HroeValue *val)
{
	uint32		n = GetU32(map->data);
	uint32		lo = 0,
				hi = n;

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo) / 2;
		uint32		noff = GetU32(map->data + 4 + 8 * mid);
		uint32		nend = (mid + 1 < n) ? GetU32(map->data + 4 + 8 * (mid + 1)) : GetU32(map->data + 8);
		int			c = BytesCompare(map->data + noff, nend - noff, name, namelen);

		if (c == 0)
		{
			const char *n;
			uint32		nl;

			hroe_map_entry(map, mid, &n, &nl, val);
			return true;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* Element i of an L value, or member i of a set */
void
hroe_list_element(const HroeValue *list, uint32 i, HroeValue *elem)
{
	uint32		n = GetU32(list->data);
	uint32		off = GetU32(list->data + 4 + 4 * i);
	uint32		end = (i + 1 < n) ? GetU32(list->data + 8 + 4 * i) : list->len;

	if (list->type == HROE_L)
	{
		elem->type = (HroeType) (uint8) list->data[off];
		elem->data = list->data + off + 1;
		elem->len = end - off - 1;
	}
	else
	{
		elem->type = list->type == HROE_SS ? HROE_S :
			list->type == HROE_NS ? HROE_N : HROE_B;
		elem->data = list->data + off;
		elem->len = end - off;
	}
}

/* DynamoDB's name of a type */
const char *
hroe_type_name(HroeType type)
{
	static const char *const names[] =
	{"?", "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"};

	return (type >= HROE_S && type <= HROE_BS) ? names[type] : "?";
}

/* DynamoDB size of a value (section 2 of dynamodb-semantics.md) */
int64
hroe_value_size(const HroeValue *v)
{
	uint32		n,
				i;
	int64		size;
	HroeValue	e;

	switch (v->type)
	{
		case HROE_S:
		case HROE_B:
			return v->len;
		case HROE_N:
			return NumberSize(v->data, v->len);
		case HROE_BOOL:
		case HROE_NULL:
			return 1;
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
		case HROE_L:
			n = GetU32(v->data);
			size = v->type == HROE_L ? 3 : 0;
			for (i = 0; i < n; i++)
			{
				hroe_list_element(v, i, &e);
				size += hroe_value_size(&e) + (v->type == HROE_L ? 1 : 0);
			}
			return size;
		case HROE_M:
			n = GetU32(v->data);
			size = 3;
			for (i = 0; i < n; i++)
			{
				const char *nm;
				uint32		nl;

				hroe_map_entry(v, i, &nm, &nl, &e);
				size += nl + 1 + hroe_value_size(&e);
			}
			return size;
	}
	return 0;
}

/* L/M nesting of a trusted value */
static int
ValueDepth(const HroeValue *v)
{
	uint32		n,
				i;
	int			d = 0;
	HroeValue	e;

	if (v->type != HROE_L && v->type != HROE_M)
		return 0;
	n = GetU32(v->data);
	for (i = 0; i < n; i++)
	{
		if (v->type == HROE_L)
			hroe_list_element(v, i, &e);
		else
		{
			const char *nm;
			uint32		nl;

			hroe_map_entry(v, i, &nm, &nl, &e);
		}
		{
			int			ed = ValueDepth(&e);	/* not inside Max(): evaluated twice */

			d = Max(d, ed);
		}
	}
	return d + 1;
}

/* Whether two values are equal (same type and canonical payload) */
bool
hroe_value_equal(const HroeValue *a, const HroeValue *b)
{
	return a->type == b->type && a->len == b->len &&
		memcmp(a->data, b->data, a->len) == 0;
}

/*
 * Read an untrusted container's offset table: count, then count uint32
 * offsets (stride 4 for L and sets, 8 for M), each within the payload.
 */
static uint32
BinaryCount(Reader *r, const char *p, uint32 len, uint32 stride)
{
	uint32		n;

	if (len < 4)
		SyntaxError(r, "Truncated container");
	n = GetU32(p);
	if ((uint64) n * stride + 4 > len)
		SyntaxError(r, "Container count exceeds its length");
	return n;
}

/* Read one untrusted payload of the given type into a node, validating it */
static void
BinaryValue(Reader *r, uint8 type, const char *p, uint32 len, ValNode *n, int depth)
{
	uint32		i,
				cnt,
				prev;

	n->type = type;
	switch (type)
	{
		case HROE_S:
			if (!ValidUtf8(p, len))
				SyntaxError(r, "Invalid UTF-8 or U+0000 in a string");
			n->data = p;
			n->len = len;
			FinishScalar(n);
			return;
		case HROE_B:
			n->data = p;
			n->len = len;
			FinishScalar(n);
			return;
		case HROE_N:
			{
				int			l;

				n->data = NumberNormalize(r, p, len, &l);
				n->len = l;
				FinishScalar(n);
				return;
			}
		case HROE_BOOL:
			if (len != 1 || (p[0] != 0 && p[0] != 1))
				SyntaxError(r, "Invalid BOOL");
			n->boolval = p[0];
			FinishScalar(n);
			return;
		case HROE_NULL:
			if (len != 0)
				SyntaxError(r, "Invalid NULL");
			FinishScalar(n);
			return;
		case HROE_L:
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			if (type == HROE_L && depth > HROE_ITEM_MAX_DEPTH)
				ValueError(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
			cnt = BinaryCount(r, p, len, 4);
			prev = 4 + 4 * cnt;
			for (i = 0; i < cnt; i++)
			{
				uint32		off = GetU32(p + 4 + 4 * i);
				uint32		end = (i + 1 < cnt) ? GetU32(p + 8 + 4 * i) : len;
				ValNode	   *k;

				if (off != prev || end < off || end > len)
					SyntaxError(r, "Invalid element offset");
				prev = end;
				k = AddKid(n);
				PushIndex(r, i);
				if (type == HROE_L)
				{
					if (end == off)
						SyntaxError(r, "Missing type tag");
					BinaryValue(r, (uint8) p[off], p + off + 1, end - off - 1, k, depth + 1);
				}
				else
					BinaryValue(r, type == HROE_SS ? HROE_S : type == HROE_NS ? HROE_N : HROE_B,
								p + off, end - off, k, depth);
				r->depth--;
			}
			if (cnt == 0 && len != 4)
				SyntaxError(r, "Trailing bytes in a container");
			if (type == HROE_L)
				FinishList(n);
			else
				FinishSet(r, n);
			return;
		case HROE_M:
			if (depth > HROE_ITEM_MAX_DEPTH)
				ValueError(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
			cnt = BinaryCount(r, p, len, 8);
			prev = 4 + 8 * cnt;
			/* names are contiguous, then values: both runs must tile */
			for (i = 0; i < cnt; i++)
			{
				uint32		noff = GetU32(p + 4 + 8 * i);
				uint32		nend = (i + 1 < cnt) ? GetU32(p + 12 + 8 * i) : GetU32(p + 8);

				if (noff != prev || nend < noff || nend > len)
					SyntaxError(r, "Invalid attribute name offset");
				prev = nend;
			}
			for (i = 0; i < cnt; i++)
			{
				uint32		noff = GetU32(p + 4 + 8 * i);
				uint32		nend = (i + 1 < cnt) ? GetU32(p + 12 + 8 * i) : GetU32(p + 8);
				uint32		voff = GetU32(p + 8 + 8 * i);
				uint32		end = (i + 1 < cnt) ? GetU32(p + 16 + 8 * i) : len;
				ValNode	   *k;

				if (voff != prev || end <= voff || end > len)
					SyntaxError(r, "Invalid attribute value offset");
				prev = end;
				k = AddKid(n);
				k->name = p + noff;
				k->namelen = nend - noff;
				hroe_check_name_length(k->namelen);
				if (!ValidUtf8(k->name, k->namelen))
					SyntaxError(r, "Invalid UTF-8 in an attribute name");
				PushName(r, k->name, k->namelen);
				BinaryValue(r, (uint8) p[voff], p + voff + 1, end - voff - 1, k, depth + 1);
				r->depth--;
			}
			if (cnt == 0 && len != 4)
				SyntaxError(r, "Trailing bytes in a container");
			FinishMap(r, n, false);
			return;
	}
	SyntaxError(r, "Unknown type tag");
}

/* Validate untrusted binary item bytes (recv); returns the item or ereports */
HroeItem *
hroe_item_from_binary(const char *data, int len)
{
	Reader		r;
	ValNode		m;
	HroeItem   *item;

	memset(&r, 0, sizeof(r));
	memset(&m, 0, sizeof(m));
	if (len < HROE_ITEM_HDRSZ - VARHDRSZ)
		SyntaxError(&r, "Truncated item");
	if ((uint8) data[0] != HROE_ITEM_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("unsupported hroe.item binary version %d", (uint8) data[0])));
	BinaryValue(&r, HROE_M, data + 8, len - 8, &m, 0);
	CheckNames(&m);
	item = NodeToItem(&m);
	/* canonical form only: anything else is a corrupt or forged value */
	if (VARSIZE(item) - VARHDRSZ != (uint32) len ||
		memcmp((char *) item + VARHDRSZ, data, len) != 0)
		SyntaxError(&r, "Not in canonical form (order, numbers or size field)");
	return item;
}

/* ---------------------------------------------------------------------
 * The builder
 * ---------------------------------------------------------------------
 */

struct HroeBuilder
{
	ValNode		map;
};

/* Start building an item */
HroeBuilder *
hroe_builder_start(void)
{
	HroeBuilder *b = palloc0(sizeof(HroeBuilder));

	b->map.type = HROE_M;
	return b;
}

/* A new member node of the builder, named */
static ValNode *
BuilderKid(HroeBuilder *b, const char *name, uint32 namelen)
{
	ValNode	   *k = AddKid(&b->map);

	if (namelen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("attribute name must not be empty"),
				 errdetail("DynamoDB attribute names are 1 to 65535 bytes long.")));
	hroe_check_name_length(namelen);
	if (!ValidUtf8(name, namelen))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("attribute name is not valid UTF-8")));
	k->name = name;
	k->namelen = namelen;
	k->seq = b->map.nkids;
	return k;
}

/* Add an attribute with a trusted value; a later one of the same name wins */
void
hroe_builder_add(HroeBuilder *b, const char *name, uint32 namelen, const HroeValue *val)
{
	ValNode	   *k = BuilderKid(b, name, namelen);

	k->type = val->type;
	k->raw = true;
	k->data = val->data;
	k->len = val->len;
	k->size = hroe_value_size(val);
	k->serlen = 1 + (uint64) val->len;
	k->depth = ValueDepth(val);
}

/* An S value over the given bytes (checked UTF-8 without U+0000) */
void
hroe_make_string(const char *s, uint32 len, HroeValue *val)
{
	if (!ValidUtf8(s, len))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("string value is not valid UTF-8 or contains U+0000")));
	val->type = HROE_S;
	val->data = s;
	val->len = len;
}

/* An N value from any number text (normalised, E9 checked) */
void
hroe_make_number(const char *text, int len, HroeValue *val)
{
	int			l;

	val->type = HROE_N;
	val->data = hroe_number_normalize(text, len, &l);
	val->len = l;
}

/* A B value over the given bytes */
void
hroe_make_binary(const char *bytes, uint32 len, HroeValue *val)
{
	val->type = HROE_B;
	val->data = bytes;
	val->len = len;
}

/* A BOOL value */
void
hroe_make_bool(bool b, HroeValue *val)
{
	static const char bytes[2] = {0, 1};

	val->type = HROE_BOOL;
	val->data = &bytes[b ? 1 : 0];
	val->len = 1;
}

/* A NULL value */
void
hroe_make_null(HroeValue *val)
{
	val->type = HROE_NULL;
	val->data = "";
	val->len = 0;
}

/* Finish the builder as an item (size computed, 400 KB and depth checked) */
HroeItem *
hroe_builder_finish(HroeBuilder *b)
{
	FinishMap(NULL, &b->map, true);
	return NodeToItem(&b->map);
}

/* Finish the builder as an M value for nesting */
void
hroe_builder_finish_map(HroeBuilder *b, HroeValue *val)
{
	FinishMap(NULL, &b->map, true);
	/* as a whole item it would be this big: a lower bound for any nesting */
	if (b->map.size - 3 - b->map.nkids > HROE_ITEM_MAX_SIZE)
		TooBig();
	if (b->map.depth > HROE_ITEM_MAX_DEPTH)
		ValueError(NULL, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
	NodeToValue(&b->map, val);
}

/* An L value of the given elements */
void
hroe_make_list(const HroeValue *elems, uint32 n, HroeValue *val)
{
	ValNode		l;

	memset(&l, 0, sizeof(l));
	l.type = HROE_L;
	for (uint32 i = 0; i < n; i++)
	{
		ValNode	   *k = AddKid(&l);

		k->type = elems[i].type;
		k->raw = true;
		k->data = elems[i].data;
		k->len = elems[i].len;
		k->size = hroe_value_size(&elems[i]);
		k->serlen = 1 + (uint64) elems[i].len;
		k->depth = ValueDepth(&elems[i]);
	}
	FinishList(&l);
	if (l.size > HROE_ITEM_MAX_SIZE)
		TooBig();
	if (l.depth > HROE_ITEM_MAX_DEPTH)
		ValueError(NULL, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
	NodeToValue(&l, val);
}

/* A set of S, N or B members, sorted and checked (E30 if empty or duplicated) */
void
hroe_make_set(HroeType settype, const HroeValue *members, uint32 n, HroeValue *val)
{
	ValNode		s;

	Assert(settype == HROE_SS || settype == HROE_NS || settype == HROE_BS);
	memset(&s, 0, sizeof(s));
	s.type = settype;
	for (uint32 i = 0; i < n; i++)
	{
		ValNode    *k = AddKid(&s);

		Assert(members[i].type == (settype == HROE_SS ? HROE_S :
								   settype == HROE_NS ? HROE_N : HROE_B));
		k->type = members[i].type;
		k->data = members[i].data;
		k->len = members[i].len;
		FinishScalar(k);
	}
	FinishSet(NULL, &s);
	if (s.size > HROE_ITEM_MAX_SIZE)
		TooBig();
	NodeToValue(&s, val);
}

/* An item whose attributes are an M value's members */
HroeItem *
hroe_item_from_map(const HroeValue *map)
{
	HroeBuilder *b = hroe_builder_start();
	uint32		n = hroe_value_count(map);

	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		hroe_map_entry(map, i, &nm, &nl, &v);
		hroe_builder_add(b, nm, nl, &v);
	}
	return hroe_builder_finish(b);
}

/* ---------------------------------------------------------------------
 * Document paths
 * ---------------------------------------------------------------------
 */

/* Report a malformed document path */
static void
pg_attribute_noreturn()
BadPath(const char *path, int len)
{
	char	   *t = palloc(len + 1);

	memcpy(t, path, len);
	t[len] = '\0';
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid document path \"%s\"", t),
			 errhint("A path is an attribute name followed by \".name\" and \"[index]\" steps, as in a.b[2].c.")));
}

/* Follow a document path (a.b[2].c); false if a step is missing */
bool
hroe_item_path(const HroeItem *item, const char *path, int len, HroeValue *val)
{
	const char *p = path,
			   *end = path + len;
	HroeValue	cur;
	bool		found = true;

	hroe_item_root(item, &cur);
	if (len == 0)
		BadPath(path, len);
	for (;;)
	{
		const char *s = p;

		/* a name step */
		while (p < end && *p != '.' && *p != '[')
			p++;
		if (p == s)
			BadPath(path, len);
		if (found)
		{
			if (cur.type != HROE_M || !hroe_map_find(&cur, s, p - s, &cur))
				found = false;
		}
		/* index steps */
		while (p < end && *p == '[')
		{
			uint64		idx = 0;
			const char *ds = ++p;

			while (p < end && *p >= '0' && *p <= '9')
			{
				idx = idx * 10 + (*p - '0');
				if (idx > PG_UINT32_MAX)
					BadPath(path, len);
				p++;
			}
			if (p == ds || p >= end || *p != ']')
				BadPath(path, len);
			p++;
			if (found)
			{
				if (cur.type != HROE_L || idx >= hroe_value_count(&cur))
					found = false;
				else
					hroe_list_element(&cur, (uint32) idx, &cur);
			}
		}
		if (p == end)
			break;
		if (*p != '.')
			BadPath(path, len);
		p++;
		if (p == end)
			BadPath(path, len);
	}
	if (found)
		*val = cur;
	return found;
}

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
			Base64Append(buf, v->data, v->len);
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
						Base64Append(buf, e.data, e.len);
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
