/*-------------------------------------------------------------------------
 *
 * collection.h
 *	  hroe.item_collection: the items that share a partition key, ordered by
 *	  sort key (S keys, unsigned UTF-8 byte order, as DynamoDB orders them).
 *
 * Binary format (version 1), a varlena:
 *
 *	 int32	 varlena header
 *	 uint8	 version, uint8 key type (HROE_S), 2 zero bytes
 *	 uint32	 count
 *	 uint32	 zero
 *	 uint64	 total DynamoDB size of the items
 *	 {uint32 key_off, uint32 item_off}[count]	offsets from the varlena start
 *	 then, per entry in sort-key order: the key's bytes, then the item (an
 *	 hroe.item without its varlena header)
 *
 * Sort keys are unique, valid UTF-8 without U+0000, 1 to 1024 bytes
 * (DynamoDB's sort-key limit).  One entry is found by binary search.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_COLLECTION_H
#define HROE_COLLECTION_H

#include "item.h"

#define HROE_COLLECTION_VERSION		1
#define HROE_COLLECTION_HDRSZ		24

typedef struct varlena HroeCollection;

#define DatumGetHroeCollectionP(X)	((HroeCollection *) PG_DETOAST_DATUM(X))
#define PG_GETARG_HROE_COLLECTION_P(n) DatumGetHroeCollectionP(PG_GETARG_DATUM(n))

/* One entry, as given to the builder or read from a collection */
typedef struct HroeCollectionEntry
{
	const char *key;
	uint32		keylen;
	const char *item;			/* item bytes without the varlena header */
	uint32		itemlen;
} HroeCollectionEntry;

/* Number of items */
extern uint32 hroe_collection_count(const HroeCollection *c);

/* Total DynamoDB size of the items */
extern uint64 hroe_collection_size(const HroeCollection *c);

/* Entry i (0-based, in sort-key order) */
extern void hroe_collection_entry(const HroeCollection *c, uint32 i,
								  HroeCollectionEntry *e);

/* Index of the first entry whose key is >= key (or > key if after) */
extern uint32 hroe_collection_lower_bound(const HroeCollection *c,
										  const char *key, uint32 keylen, bool after);

/* A palloc'd hroe.item copy of an entry's item */
extern HroeItem *hroe_collection_item(const HroeCollectionEntry *e);

/*
 * Build a collection from entries in any order: sorts them, rejects
 * duplicate or invalid sort keys (ereport).  Items are trusted.
 */
extern HroeCollection *hroe_collection_build(HroeCollectionEntry *entries, uint32 n);

/* The entries [lo, hi) as a new collection */
extern HroeCollection *hroe_collection_slice(const HroeCollection *c, uint32 lo, uint32 hi);

/* Check a sort key (UTF-8, no U+0000, 1..1024 bytes); ereports */
extern void hroe_sort_key_check(const char *key, uint32 keylen);

/* Text form: [{"SortKey": {"S": "a"}, "Item": {...}}, ...] */
extern HroeCollection *hroe_collection_parse(const char *json, int len);
extern void hroe_collection_write(StringInfo buf, const HroeCollection *c);

/* Binary input: bytes after the varlena header, validated, canonical */
extern HroeCollection *hroe_collection_from_binary(const char *data, int len);

#endif							/* HROE_COLLECTION_H */
