/*-------------------------------------------------------------------------
 *
 * item_binary.c
 *	  hroe.item's binary format: reading values (maps, lists, sets), their
 *	  sizes and equality, validating untrusted binary input (recv), the C
 *	  builder, and document paths.
 *
 * Like the rest of the item core, it uses only palloc, ereport and
 * StringInfo from the backend, so the fuzzer (test/fuzz) compiles it
 * unchanged against a tiny shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "item_node.h"

static void BinaryValue(Reader *r, uint8 type, const char *p, uint32 len, ValNode *n, int depth);

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
			return hroe_io_get_u32(v->data);
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
	uint32		n = hroe_io_get_u32(map->data);
	uint32		noff = hroe_io_get_u32(map->data + 4 + 8 * i);
	uint32		nend = (i + 1 < n) ? hroe_io_get_u32(map->data + 4 + 8 * (i + 1)) : hroe_io_get_u32(map->data + 8);
	uint32		voff = hroe_io_get_u32(map->data + 8 + 8 * i);
	uint32		vend = (i + 1 < n) ? hroe_io_get_u32(map->data + 8 + 8 * (i + 1)) : map->len;

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
	uint32		n = hroe_io_get_u32(map->data);
	uint32		lo = 0,
				hi = n;

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo) / 2;
		uint32		noff = hroe_io_get_u32(map->data + 4 + 8 * mid);
		uint32		nend = (mid + 1 < n) ? hroe_io_get_u32(map->data + 4 + 8 * (mid + 1)) : hroe_io_get_u32(map->data + 8);
		int			c = hroe_io_bytes_compare(map->data + noff, nend - noff, name, namelen);

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
	uint32		n = hroe_io_get_u32(list->data);
	uint32		off = hroe_io_get_u32(list->data + 4 + 4 * i);
	uint32		end = (i + 1 < n) ? hroe_io_get_u32(list->data + 8 + 4 * i) : list->len;

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

/* DynamoDB size of a value (doc/dynamodb-rules.md#keys-and-item-size) */
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
			return hroe_io_number_size(v->data, v->len);
		case HROE_BOOL:
		case HROE_NULL:
			return 1;
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
		case HROE_L:
			n = hroe_io_get_u32(v->data);
			size = v->type == HROE_L ? 3 : 0;
			for (i = 0; i < n; i++)
			{
				CHECK_FOR_INTERRUPTS();
				hroe_list_element(v, i, &e);
				size += hroe_value_size(&e) + (v->type == HROE_L ? 1 : 0);
			}
			return size;
		case HROE_M:
			n = hroe_io_get_u32(v->data);
			size = 3;
			for (i = 0; i < n; i++)
			{
				const char *nm;
				uint32		nl;

				CHECK_FOR_INTERRUPTS();
				hroe_map_entry(v, i, &nm, &nl, &e);
				size += nl + 1 + hroe_value_size(&e);
			}
			return size;
	}
	return 0;
}

/* Levels of values of a trusted value (as ValNode.depth) */
int
hroe_value_depth(const HroeValue *v)
{
	uint32		n,
				i;
	int			d = 0;
	HroeValue	e;

	if (v->type != HROE_L && v->type != HROE_M)
		return 1;
	n = hroe_io_get_u32(v->data);
	for (i = 0; i < n; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (v->type == HROE_L)
			hroe_list_element(v, i, &e);
		else
		{
			const char *nm;
			uint32		nl;

			hroe_map_entry(v, i, &nm, &nl, &e);
		}
		{
			int			ed = hroe_value_depth(&e);	/* not inside Max(): evaluated twice */

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
		hroe_io_syntax_error(r, "Truncated container");
	n = hroe_io_get_u32(p);
	if ((uint64) n * stride + 4 > len)
		hroe_io_syntax_error(r, "Container count exceeds its length");
	return n;
}

/* Read one untrusted payload of the given type into a node, validating it */
static void
BinaryValue(Reader *r, uint8 type, const char *p, uint32 len, ValNode *n, int depth)
{
	uint32		i,
				cnt,
				prev;

	/* a value at most at level 32 (an attribute's value is level 1) */
	if (depth > HROE_ITEM_MAX_DEPTH)
		hroe_io_value_error(r, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
	n->type = type;
	switch (type)
	{
		case HROE_S:
			if (!hroe_io_valid_utf8(p, len))
				hroe_io_syntax_error(r, "Invalid UTF-8 in a string");
			n->data = p;
			n->len = len;
			hroe_io_finish_scalar(n);
			return;
		case HROE_B:
			n->data = p;
			n->len = len;
			hroe_io_finish_scalar(n);
			return;
		case HROE_N:
			{
				int			l;

				n->data = hroe_io_number_normalize(r, p, len, &l);
				n->len = l;
				hroe_io_finish_scalar(n);
				return;
			}
		case HROE_BOOL:
			if (len != 1 || (p[0] != 0 && p[0] != 1))
				hroe_io_syntax_error(r, "Invalid BOOL");
			n->boolval = p[0];
			hroe_io_finish_scalar(n);
			return;
		case HROE_NULL:
			if (len != 0)
				hroe_io_syntax_error(r, "Invalid NULL");
			hroe_io_finish_scalar(n);
			return;
		case HROE_L:
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			cnt = BinaryCount(r, p, len, 4);
			prev = 4 + 4 * cnt;
			for (i = 0; i < cnt; i++)
			{
				uint32		off = hroe_io_get_u32(p + 4 + 4 * i);
				uint32		end = (i + 1 < cnt) ? hroe_io_get_u32(p + 8 + 4 * i) : len;
				ValNode	   *k;

				if (off != prev || end < off || end > len)
					hroe_io_syntax_error(r, "Invalid element offset");
				prev = end;
				k = hroe_io_add_kid(n);
				hroe_io_push_index(r, i);
				if (type == HROE_L)
				{
					if (end == off)
						hroe_io_syntax_error(r, "Missing type tag");
					BinaryValue(r, (uint8) p[off], p + off + 1, end - off - 1, k, depth + 1);
				}
				else
					BinaryValue(r, type == HROE_SS ? HROE_S : type == HROE_NS ? HROE_N : HROE_B,
								p + off, end - off, k, depth);
				r->depth--;
			}
			if (cnt == 0 && len != 4)
				hroe_io_syntax_error(r, "Trailing bytes in a container");
			if (type == HROE_L)
				hroe_io_finish_list(n);
			else
				hroe_io_finish_set(r, n);
			return;
		case HROE_M:
			cnt = BinaryCount(r, p, len, 8);
			prev = 4 + 8 * cnt;
			/* names are contiguous, then values: both runs must tile */
			for (i = 0; i < cnt; i++)
			{
				uint32		noff = hroe_io_get_u32(p + 4 + 8 * i);
				uint32		nend = (i + 1 < cnt) ? hroe_io_get_u32(p + 12 + 8 * i) : hroe_io_get_u32(p + 8);

				if (noff != prev || nend < noff || nend > len)
					hroe_io_syntax_error(r, "Invalid attribute name offset");
				prev = nend;
			}
			for (i = 0; i < cnt; i++)
			{
				uint32		noff = hroe_io_get_u32(p + 4 + 8 * i);
				uint32		nend = (i + 1 < cnt) ? hroe_io_get_u32(p + 12 + 8 * i) : hroe_io_get_u32(p + 8);
				uint32		voff = hroe_io_get_u32(p + 8 + 8 * i);
				uint32		end = (i + 1 < cnt) ? hroe_io_get_u32(p + 16 + 8 * i) : len;
				ValNode	   *k;

				if (voff != prev || end <= voff || end > len)
					hroe_io_syntax_error(r, "Invalid attribute value offset");
				prev = end;
				k = hroe_io_add_kid(n);
				k->name = p + noff;
				k->namelen = nend - noff;
				hroe_check_name_length(k->namelen);
				if (!hroe_io_valid_utf8(k->name, k->namelen))
					hroe_io_syntax_error(r, "Invalid UTF-8 in an attribute name");
				hroe_io_push_name(r, k->name, k->namelen);
				BinaryValue(r, (uint8) p[voff], p + voff + 1, end - voff - 1, k, depth + 1);
				r->depth--;
			}
			if (cnt == 0 && len != 4)
				hroe_io_syntax_error(r, "Trailing bytes in a container");
			hroe_io_finish_map(r, n, false);
			return;
	}
	hroe_io_syntax_error(r, "Unknown type tag");
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
		hroe_io_syntax_error(&r, "Truncated item");
	if ((uint8) data[0] != HROE_ITEM_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("unsupported hroe.item binary version %d", (uint8) data[0])));
	BinaryValue(&r, HROE_M, data + 8, len - 8, &m, 0);
	hroe_io_check_names(&m);
	item = hroe_io_node_to_item(&m);
	/* canonical form only: anything else is a corrupt or forged value */
	if (VARSIZE(item) - VARHDRSZ != (uint32) len ||
		memcmp((char *) item + VARHDRSZ, data, len) != 0)
		hroe_io_syntax_error(&r, "Not in canonical form (order, numbers or size field)");
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
	ValNode	   *k = hroe_io_add_kid(&b->map);

	if (namelen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("attribute name must not be empty"),
				 errdetail("DynamoDB attribute names are 1 to 65535 bytes long.")));
	hroe_check_name_length(namelen);
	if (!hroe_io_valid_utf8(name, namelen))
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
	k->depth = hroe_value_depth(val);
}

/* An S value over the given bytes (checked UTF-8, U+0000 allowed) */
void
hroe_make_string(const char *s, uint32 len, HroeValue *val)
{
	if (!hroe_io_valid_utf8(s, len))
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("string value is not valid UTF-8")));
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

/* DynamoDB's error for a value at level 33 */
void
hroe_nesting_error(void)
{
	hroe_io_value_error(NULL, ERRCODE_PROGRAM_LIMIT_EXCEEDED, MSG_DEPTH);
}

/*
 * Finish the builder as an item (size computed, 400 KB checked).  The
 * builder and hroe_make_list assemble trusted values, so their nesting is
 * not checked again: every reader checks it on input (the JSON and binary
 * readers, hroe_item_from_document), an update checks what it writes
 * (hroe_update_apply), and an item stored before the 32-level rule counted
 * the attribute's own value stays readable (projections, index projections)
 */
HroeItem *
hroe_builder_finish(HroeBuilder *b)
{
	hroe_io_finish_map(NULL, &b->map, true);
	return hroe_io_node_to_item(&b->map);
}

/* Finish the builder as an M value for nesting */
void
hroe_builder_finish_map(HroeBuilder *b, HroeValue *val)
{
	hroe_io_finish_map(NULL, &b->map, true);
	/* as a whole item it would be this big: a lower bound for any nesting */
	if (b->map.size - 3 - b->map.nkids > HROE_ITEM_MAX_SIZE)
		hroe_io_too_big();
	hroe_io_node_to_value(&b->map, val);
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
		ValNode	   *k = hroe_io_add_kid(&l);

		k->type = elems[i].type;
		k->raw = true;
		k->data = elems[i].data;
		k->len = elems[i].len;
		k->size = hroe_value_size(&elems[i]);
		k->serlen = 1 + (uint64) elems[i].len;
		k->depth = hroe_value_depth(&elems[i]);
	}
	hroe_io_finish_list(&l);
	if (l.size > HROE_ITEM_MAX_SIZE)
		hroe_io_too_big();
	hroe_io_node_to_value(&l, val);
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
		ValNode    *k = hroe_io_add_kid(&s);

		Assert(members[i].type == (settype == HROE_SS ? HROE_S :
								   settype == HROE_NS ? HROE_N : HROE_B));
		k->type = members[i].type;
		k->data = members[i].data;
		k->len = members[i].len;
		hroe_io_finish_scalar(k);
	}
	hroe_io_finish_set(NULL, &s);
	if (s.size > HROE_ITEM_MAX_SIZE)
		hroe_io_too_big();
	hroe_io_node_to_value(&s, val);
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
