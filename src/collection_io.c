/*-------------------------------------------------------------------------
 *
 * collection_io.c
 *	  hroe.item_collection core: build, read, slice, validate binary input
 *	  and write the text form.  Like item_io.c it needs only palloc,
 *	  ereport and StringInfo, so the fuzzer compiles it unchanged.  The text
 *	  reader is in item_io.c, beside the item reader it reuses.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/memutils.h"

#include "collection.h"

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

/* DynamoDB's string order: unsigned bytes, a shorter prefix first */
static inline int
KeyCompare(const char *a, uint32 alen, const char *b, uint32 blen)
{
	int			c = memcmp(a, b, Min(alen, blen));

	if (c != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

/* qsort comparator of entries by sort key */
static int
EntryCmp(const void *x, const void *y)
{
	const HroeCollectionEntry *a = x,
			   *b = y;

	return KeyCompare(a->key, a->keylen, b->key, b->keylen);
}

/* Number of items in a collection */
uint32
hroe_collection_count(const HroeCollection *c)
{
	return GetU32((const char *) c + 8);
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
	uint32		koff = GetU32(base + HROE_COLLECTION_HDRSZ + 8 * i);
	uint32		ioff = GetU32(base + HROE_COLLECTION_HDRSZ + 8 * i + 4);
	uint32		end = (i + 1 < n) ? GetU32(base + HROE_COLLECTION_HDRSZ + 8 * (i + 1)) : VARSIZE(c);

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
		cmp = KeyCompare(e.key, e.keylen, key, keylen);
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
		size += GetU32(entries[i].item + 4);
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
	PutU32(out + 8, n);
	memcpy(out + 12, &zero, 4);
	memcpy(out + 16, &size, 8);
	p = out + HROE_COLLECTION_HDRSZ + 8 * n;
	for (uint32 i = 0; i < n; i++)
	{
		PutU32(out + HROE_COLLECTION_HDRSZ + 8 * i, p - out);
		memcpy(p, entries[i].key, entries[i].keylen);
		p += entries[i].keylen;
		PutU32(out + HROE_COLLECTION_HDRSZ + 8 * i + 4, p - out);
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
	n = GetU32(data + 4);
	if ((uint64) n * 8 + hdr > (uint64) len)
		BadBinary("Entry count exceeds the length");
	ents = palloc(sizeof(HroeCollectionEntry) * (n ? n : 1));
	prev = hdr + 8 * n;
	for (uint32 i = 0; i < n; i++)
	{
		/* offsets count from the varlena start, 4 bytes before data */
		uint64		koff = (uint64) GetU32(data + hdr + 8 * i) - VARHDRSZ;
		uint64		ioff = (uint64) GetU32(data + hdr + 8 * i + 4) - VARHDRSZ;
		uint64		end = (i + 1 < n) ? (uint64) GetU32(data + hdr + 8 * (i + 1)) - VARHDRSZ : (uint64) len;
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
