/*-------------------------------------------------------------------------
 *
 * item_node.c
 *	  hroe.item core: the ValNode tree every value is built in, however it
 *	  arrives (JSON text, binary recv, the C builder), its finishing steps
 *	  (sorting, duplicate, empty-set, depth and size checks, so the three
 *	  paths validate identically), its serialisation to the binary format,
 *	  UTF-8 checks and the error helpers.
 *
 * Like the rest of the item core, it uses only palloc, ereport and
 * StringInfo from the backend, so the fuzzer (test/fuzz) compiles it
 * unchanged against a tiny shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "item_node.h"

static char *WriteValue(char *out, const ValNode *n);

/* ---------------------------------------------------------------------
 * Small helpers
 * ---------------------------------------------------------------------
 */

/* Render the reader's current path as text ("a.b[2].c") */
char *
hroe_io_path_text(Reader *r)
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
void
hroe_io_push_name(Reader *r, const char *name, uint32 len)
{
	if (r->depth < (int) lengthof(r->path))
	{
		r->path[r->depth].name = name;
		r->path[r->depth].len = len;
	}
	r->depth++;
}

/* Push an index path step */
void
hroe_io_push_index(Reader *r, uint32 index)
{
	if (r->depth < (int) lengthof(r->path))
	{
		r->path[r->depth].name = NULL;
		r->path[r->depth].index = index;
	}
	r->depth++;
}

/* Character position (1-based) of the reader in the JSON text */
int
hroe_io_position(Reader *r)
{
	return r->start ? (int) (r->p - r->start) + 1 : 0;
}

/* Report malformed input (JSON syntax or binary structure) */
void
pg_attribute_noreturn()
hroe_io_syntax_error(Reader *r, const char *what)
{
	if (r->start)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type %s", r->type ? r->type : "hroe.item"),
				 errdetail("%s at character %d.", what, hroe_io_position(r))));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid binary data for type hroe.item"),
			 errdetail("%s.", what)));
}

/* Report an invalid value with DynamoDB's text and where it is */
void
pg_attribute_noreturn()
hroe_io_value_error(Reader *r, int code, const char *msg)
{
	if (r && r->depth > 0)
		ereport(ERROR, (errcode(code), errmsg("%s", msg),
						errdetail("In attribute \"%s\".", hroe_io_path_text(r))));
	ereport(ERROR, (errcode(code), errmsg("%s", msg)));
}

/* E10 */
void
pg_attribute_noreturn()
hroe_io_too_big(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg(MSG_TOO_BIG),
			 errdetail("The DynamoDB size of an item is at most %d bytes.", HROE_ITEM_MAX_SIZE)));
}

/* Append a child to a container node and return it (zeroed) */
ValNode *
hroe_io_add_kid(ValNode *n)
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
int
hroe_io_utf8_len(const unsigned char *p, const unsigned char *end)
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

/*
 * Whether bytes are valid UTF-8; U+0000 is a character like any other, as in
 * DynamoDB's strings (the values' lengths are always explicit)
 */
bool
hroe_io_valid_utf8(const char *s, uint32 len)
{
	const unsigned char *p = (const unsigned char *) s;
	const unsigned char *end = p + len;

	while (p < end)
	{
		int			l;

		if (*p < 0x80)
		{
			p++;
			continue;
		}
		l = hroe_io_utf8_len(p, end);
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
		int			l = hroe_io_utf8_len(p, end);

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
 * Finishing nodes: sizes, sorting, duplicates
 * ---------------------------------------------------------------------
 */

/* Bytewise order of two byte strings, shorter prefix first */
int
hroe_io_bytes_compare(const char *a, uint32 alen, const char *b, uint32 blen)
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
	int			c = hroe_io_bytes_compare(a->name, a->namelen, b->name, b->namelen);

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

	return hroe_io_bytes_compare(a->data, a->len, b->data, b->len);
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
void
hroe_io_finish_scalar(ValNode *n)
{
	n->depth = 1;
	switch (n->type)
	{
		case HROE_S:
		case HROE_B:
			n->size = n->len;
			n->serlen = 1 + (uint64) n->len;
			break;
		case HROE_N:
			n->size = hroe_io_number_size(n->data, n->len);
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

/*
 * DynamoDB's message for an empty set of kind 'S', 'N' or 'B' (E30; the
 * wording differs by type, the double space is DynamoDB's)
 */
const char *
hroe_set_empty_message(char kind)
{
	if (kind == 'S')
		return "One or more parameter values were invalid: An string set  may not be empty";
	if (kind == 'N')
		return "One or more parameter values were invalid: An number set  may not be empty";
	return "One or more parameter values were invalid: Binary sets should not be empty";
}

/*
 * DynamoDB's text for malformed base64 of len characters (its request
 * parser's SerializationException, misspelling included)
 */
const char *
hroe_base64_message(uint32 len)
{
	if (len % 4 != 0)
		return psprintf("Base64 encoded length is expected a multiple of 4 bytes but found: %u", len);
	return "Invalid last non-pad Base64 character dectected";
}

/* E30 for a set: empty, or with duplicates (members listed in input order) */
static void
pg_attribute_noreturn()
SetError(Reader *r, ValNode *set, bool empty)
{
	StringInfoData s;

	if (empty)
		hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE,
							hroe_set_empty_message(set->type == HROE_SS ? 'S' :
												   set->type == HROE_NS ? 'N' : 'B'));
	/* DynamoDB lists the members of an SS or a BS, not of an NS */
	if (set->type == HROE_NS)
		hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, "Input collection contains duplicates");
	initStringInfo(&s);
	appendStringInfoString(&s, "One or more parameter values were invalid: Input collection [");
	for (uint32 i = 0; i < set->nkids; i++)
	{
		if (i > 0)
			appendStringInfoString(&s, ", ");
		if (set->type == HROE_BS)
			hroe_io_base64_append(&s, set->kids[i].data, set->kids[i].len);
		else
			hroe_append_message_bytes(&s, set->kids[i].data, set->kids[i].len);
	}
	appendStringInfoString(&s, set->type == HROE_BS ? "]of type BS contains duplicates." :
						   "] contains duplicates.");
	hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, s.data);
}

/* Finish a set: not empty, members sorted and unique, size */
void
hroe_io_finish_set(Reader *r, ValNode *set)
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
	set->depth = 1;
	for (i = 0; i < set->nkids; i++)
	{
		CHECK_FOR_INTERRUPTS();
		set->size += set->kids[i].size;
		set->serlen += set->kids[i].len;
	}
}

/* Finish an L: size and serialized length */
void
hroe_io_finish_list(ValNode *l)
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
void
hroe_io_finish_map(Reader *r, ValNode *m, bool later_wins)
{
	bool		sorted = true;
	uint32		i,
				j;

	for (i = 1; i < m->nkids; i++)
		if (hroe_io_bytes_compare(m->kids[i - 1].name, m->kids[i - 1].namelen,
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
			if (hroe_io_bytes_compare(m->kids[j].name, m->kids[j].namelen,
							 m->kids[i].name, m->kids[i].namelen) == 0)
			{
				if (!later_wins)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("duplicate attribute name \"%s\"",
									hroe_message_bytes(m->kids[i].name, m->kids[i].namelen)),
							 r && r->depth > 0 ?
							 errdetail("In attribute \"%s\".", hroe_io_path_text(r)) : 0));
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
			hroe_io_put_u32(out, n->nkids);
			out += 4 + 4 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				hroe_io_put_u32(base + 4 + 4 * i, out - base);
				out = WriteValue(out, &n->kids[i]);
			}
			return out;
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			hroe_io_put_u32(out, n->nkids);
			out += 4 + 4 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				hroe_io_put_u32(base + 4 + 4 * i, out - base);
				memcpy(out, n->kids[i].data, n->kids[i].len);
				out += n->kids[i].len;
			}
			return out;
		case HROE_M:
			/* all names first, so a binary search touches one region */
			hroe_io_put_u32(out, n->nkids);
			out += 4 + 8 * n->nkids;
			for (i = 0; i < n->nkids; i++)
			{
				hroe_io_put_u32(base + 4 + 8 * i, out - base);
				memcpy(out, n->kids[i].name, n->kids[i].namelen);
				out += n->kids[i].namelen;
			}
			for (i = 0; i < n->nkids; i++)
			{
				hroe_io_put_u32(base + 8 + 8 * i, out - base);
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
HroeItem *
hroe_io_node_to_item(const ValNode *m)
{
	HroeItem   *item;
	int64		size = m->size - 3 - m->nkids;	/* no M overhead at the top */
	uint64		total = HROE_ITEM_HDRSZ + m->serlen - 1;
	char	   *end;

	if (size > HROE_ITEM_MAX_SIZE)
		hroe_io_too_big();
	if (total > MaxAllocSize)
		hroe_io_too_big();
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
void
hroe_io_node_to_value(const ValNode *n, HroeValue *v)
{
	char	   *buf = palloc(n->serlen);
	char	   *end = WritePayload(buf, n);

	v->type = n->type;
	v->data = buf;
	v->len = end - buf;
}
