/*-------------------------------------------------------------------------
 *
 * collection_io.c
 *	  hroe.item_collection core: build, read, slice, validate binary input
 *	  and read and write the text form.  Like the item core it needs only
 *	  palloc, ereport and StringInfo, so the fuzzer compiles it unchanged.
 *	  The text reader reuses the item's JSON reader (item_node.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "collection.h"
#include "item_node.h"
#include "key.h"

/* qsort comparator of entries by sort key */
static int
EntryCmp(const void *x, const void *y)
{
	const HroeCollectionEntry *a = x,
			   *b = y;

	return HroeKeyCompareBytes(a->key, a->keylen, b->key, b->keylen);
}

/* Number of items in a collection */
uint32
hroe_collection_count(const HroeCollection *c)
{
	return hroe_io_get_u32((const char *) c + 8);
}

/* Total DynamoDB size of a collection's items */
uint64
hroe_collection_size(const HroeCollection *c)
{
	uint64		v;

	memcpy(&v, (const char *) c + 16, sizeof(v));
	return v;
}

/* Entry i of a collection, in sort-key order */
void
hroe_collection_entry(const HroeCollection *c, uint32 i, HroeCollectionEntry *e)
{
	const char *base = (const char *) c;
	uint32		n = hroe_collection_count(c);
	uint32		koff = hroe_io_get_u32(base + HROE_COLLECTION_HDRSZ + 8 * i);
	uint32		ioff = hroe_io_get_u32(base + HROE_COLLECTION_HDRSZ + 8 * i + 4);
	uint32		end = (i + 1 < n) ? hroe_io_get_u32(base + HROE_COLLECTION_HDRSZ + 8 * (i + 1)) : VARSIZE(c);

	e->key = base + koff;
	e->keylen = ioff - koff;
	e->item = base + ioff;
	e->itemlen = end - ioff;
}

/* First entry whose key is >= key (> key if after), by binary search */
uint32
hroe_collection_lower_bound(const HroeCollection *c, const char *key, uint32 keylen, bool after)
{
	uint32		lo = 0,
				hi = hroe_collection_count(c);

	while (lo < hi)
	{
		uint32		mid = lo + (hi - lo) / 2;
		HroeCollectionEntry e;
		int			cmp;

		hroe_collection_entry(c, mid, &e);
		cmp = HroeKeyCompareBytes(e.key, e.keylen, key, keylen);
		if (cmp < 0 || (after && cmp == 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A palloc'd item copy of an entry */
HroeItem *
hroe_collection_item(const HroeCollectionEntry *e)
{
	HroeItem   *item = palloc(VARHDRSZ + e->itemlen);

	SET_VARSIZE(item, VARHDRSZ + e->itemlen);
	memcpy((char *) item + VARHDRSZ, e->item, e->itemlen);
	return item;
}

/* Build a collection from entries in any order */
HroeCollection *
hroe_collection_build(HroeCollectionEntry *entries, uint32 n)
{
	uint64		total = HROE_COLLECTION_HDRSZ + 8 * (uint64) n;
	uint64		size = 0;
	char	   *out,
			   *p;
	uint32		zero = 0;
	bool		sorted = true;

	for (uint32 i = 1; i < n && sorted; i++)
		sorted = EntryCmp(&entries[i - 1], &entries[i]) < 0;
	if (!sorted)
		qsort(entries, n, sizeof(HroeCollectionEntry), EntryCmp);
	for (uint32 i = 0; i < n; i++)
	{
		hroe_sort_key_check(entries[i].key, entries[i].keylen);
		if (i > 0 && EntryCmp(&entries[i - 1], &entries[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Provided list of item keys contains duplicates"),
					 errdetail("Sort key \"%s\" appears more than once in the item collection.",
							   hroe_message_bytes(entries[i].key, entries[i].keylen))));
		total += entries[i].keylen + (uint64) entries[i].itemlen;
		size += hroe_io_get_u32(entries[i].item + 4);
	}
	if (total > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("item collection is too large"),
				 errdetail("An hroe.item_collection value is at most 1 GB.")));
	out = palloc(total);
	SET_VARSIZE(out, total);
	out[4] = HROE_COLLECTION_VERSION;
	out[5] = HROE_S;
	out[6] = out[7] = 0;
	hroe_io_put_u32(out + 8, n);
	memcpy(out + 12, &zero, 4);
	memcpy(out + 16, &size, 8);
	p = out + HROE_COLLECTION_HDRSZ + 8 * n;
	for (uint32 i = 0; i < n; i++)
	{
		hroe_io_put_u32(out + HROE_COLLECTION_HDRSZ + 8 * i, p - out);
		memcpy(p, entries[i].key, entries[i].keylen);
		p += entries[i].keylen;
		hroe_io_put_u32(out + HROE_COLLECTION_HDRSZ + 8 * i + 4, p - out);
		memcpy(p, entries[i].item, entries[i].itemlen);
		p += entries[i].itemlen;
	}
	Assert(p == out + total);
	return (HroeCollection *) out;
}

/* The entries [lo, hi) as a new collection */
HroeCollection *
hroe_collection_slice(const HroeCollection *c, uint32 lo, uint32 hi)
{
	HroeCollectionEntry *ents = palloc(sizeof(HroeCollectionEntry) * (hi > lo ? hi - lo : 1));

	for (uint32 i = lo; i < hi; i++)
		hroe_collection_entry(c, i, &ents[i - lo]);
	return hroe_collection_build(ents, hi > lo ? hi - lo : 0);
}

/* Report malformed binary input */
static void
pg_attribute_noreturn()
BadBinary(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
			 errmsg("invalid binary data for type hroe.item_collection"),
			 errdetail("%s.", what)));
}

/* Validate untrusted binary collection bytes (recv) */
HroeCollection *
hroe_collection_from_binary(const char *data, int len)
{
	uint32		n,
				prev;
	HroeCollectionEntry *ents;
	HroeCollection *c;
	const uint32 hdr = HROE_COLLECTION_HDRSZ - VARHDRSZ;

	if (len < (int) hdr)
		BadBinary("Truncated header");
	if ((uint8) data[0] != HROE_COLLECTION_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("unsupported hroe.item_collection binary version %d", (uint8) data[0])));
	if (data[1] != HROE_S)
		BadBinary("Unsupported sort key type");
	n = hroe_io_get_u32(data + 4);
	if ((uint64) n * 8 + hdr > (uint64) len)
		BadBinary("Entry count exceeds the length");
	ents = palloc(sizeof(HroeCollectionEntry) * (n ? n : 1));
	prev = hdr + 8 * n;
	for (uint32 i = 0; i < n; i++)
	{
		/* offsets count from the varlena start, 4 bytes before data */
		uint64		koff = (uint64) hroe_io_get_u32(data + hdr + 8 * i) - VARHDRSZ;
		uint64		ioff = (uint64) hroe_io_get_u32(data + hdr + 8 * i + 4) - VARHDRSZ;
		uint64		end = (i + 1 < n) ? (uint64) hroe_io_get_u32(data + hdr + 8 * (i + 1)) - VARHDRSZ : (uint64) len;
		HroeItem   *item;

		if (koff != prev || ioff < koff || end < ioff || end > (uint64) len)
			BadBinary("Invalid entry offset");
		prev = end;
		hroe_sort_key_check(data + koff, ioff - koff);
		item = hroe_item_from_binary(data + ioff, end - ioff);
		ents[i].key = data + koff;
		ents[i].keylen = ioff - koff;
		ents[i].item = (const char *) item + VARHDRSZ;
		ents[i].itemlen = VARSIZE(item) - VARHDRSZ;
	}
	if (n == 0 && (uint32) len != hdr)
		BadBinary("Trailing bytes");
	c = hroe_collection_build(ents, n);
	if (VARSIZE(c) - VARHDRSZ != (uint32) len || memcmp((char *) c + VARHDRSZ, data, len) != 0)
		BadBinary("Not in canonical form (order, sizes or header)");
	return c;
}

/* Append a collection as its JSON text form */
void
hroe_collection_write(StringInfo buf, const HroeCollection *c)
{
	uint32		n = hroe_collection_count(c);

	appendStringInfoChar(buf, '[');
	for (uint32 i = 0; i < n; i++)
	{
		HroeCollectionEntry e;
		HroeValue	m;

		hroe_collection_entry(c, i, &e);
		if (i > 0)
			appendStringInfoString(buf, ", ");
		appendStringInfoString(buf, "{\"SortKey\": {\"S\": ");
		hroe_json_string_write(buf, e.key, e.keylen);
		appendStringInfoString(buf, "}, \"Item\": ");
		m.type = HROE_M;
		m.data = e.item + (HROE_ITEM_HDRSZ - VARHDRSZ);
		m.len = e.itemlen - (HROE_ITEM_HDRSZ - VARHDRSZ);
		hroe_map_write(buf, &m);
		appendStringInfoChar(buf, '}');
	}
	appendStringInfoChar(buf, ']');
}

/* ---------- the text form's reader ---------- */

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
	if (!hroe_io_valid_utf8(key, keylen) || memchr(key, '\0', keylen) != NULL)
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

	hroe_io_expect(r, '{', "Expected \"{\" to start a sort key AttributeValue");
	hroe_io_read_string(r, &tag, &taglen);
	if (taglen != 1 || tag[0] != 'S')
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hroe.item_collection sort keys must be of type S"),
				 errdetail("Found a sort key that is not {\"S\": ...} at character %d.", hroe_io_position(r))));
	hroe_io_expect(r, ':', "Expected \":\"");
	hroe_io_read_string(r, key, keylen);
	if (hroe_io_peek(r, ','))
		hroe_io_value_error(r, ERRCODE_INVALID_PARAMETER_VALUE, MSG_TWO_TYPES);
	hroe_io_expect(r, '}', "Expected \"}\" to end the sort key");
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

	hroe_io_init_reader(&r, json, len);
	r.type = "hroe.item_collection";
	hroe_io_expect(&r, '[', "Expected \"[\" to start an item collection");
	if (!hroe_io_peek(&r, ']'))
	{
		do
		{
			const char *key = NULL;
			uint32		keylen = 0;
			HroeItem   *item = NULL;

			hroe_io_expect(&r, '{', "Expected \"{\" to start a collection entry");
			if (!hroe_io_peek(&r, '}'))
			{
				do
				{
					const char *nm;
					uint32		nl;

					hroe_io_read_string(&r, &nm, &nl);
					hroe_io_expect(&r, ':', "Expected \":\"");
					if (nl == 7 && memcmp(nm, "SortKey", 7) == 0 && key == NULL)
						ReadSortKey(&r, &key, &keylen);
					else if (nl == 4 && memcmp(nm, "Item", 4) == 0 && item == NULL)
					{
						ValNode		m;

						memset(&m, 0, sizeof(m));
						m.type = HROE_M;
						hroe_io_read_members(&r, &m, 1);
						hroe_io_check_names(&m);
						hroe_io_finish_map(&r, &m, false);
						item = hroe_io_node_to_item(&m);
					}
					else
						hroe_io_syntax_error(&r, "Expected one \"SortKey\" and one \"Item\" member");
				} while (hroe_io_peek(&r, ','));
				hroe_io_expect(&r, '}', "Expected \",\" or \"}\"");
			}
			if (key == NULL || item == NULL)
				hroe_io_syntax_error(&r, "A collection entry needs a \"SortKey\" and an \"Item\"");
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
		} while (hroe_io_peek(&r, ','));
		hroe_io_expect(&r, ']', "Expected \",\" or \"]\"");
	}
	hroe_io_skip_ws(&r);
	if (r.p != r.end)
		hroe_io_syntax_error(&r, "Unexpected text after the item collection");
	return hroe_collection_build(ents, n);
}
