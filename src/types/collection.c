/*-------------------------------------------------------------------------
 *
 * collection.c
 *	  SQL interface of hroe.item_collection: I/O, the aggregate that builds a
 *	  collection from (sort key, item) pairs, unnest, count, size, lookup by
 *	  sort key, prefix and range slices, and embedding a collection in a
 *	  parent item as a list attribute (and back).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"

#include "collection.h"
#include "item.h"
#include "key.h"

PG_FUNCTION_INFO_V1(hroe_item_collection_in);
/* Text input: [{"SortKey": {"S": "a"}, "Item": {...}}, ...] in any order */
Datum
hroe_item_collection_in(PG_FUNCTION_ARGS)
{
	char	   *s = PG_GETARG_CSTRING(0);

	PG_RETURN_POINTER(hroe_collection_parse(s, strlen(s)));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_out);
/* Text output, in sort-key order */
Datum
hroe_item_collection_out(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);
	StringInfo	buf = hroe_text_out_buffer(VARSIZE(c));

	hroe_collection_write(buf, c);
	PG_RETURN_CSTRING(buf->data);
}

PG_FUNCTION_INFO_V1(hroe_item_collection_recv);
/* Binary input: every key and item validated, canonical form required */
Datum
hroe_item_collection_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	HroeCollection *c = hroe_collection_from_binary(buf->data + buf->cursor,
													buf->len - buf->cursor);

	buf->cursor = buf->len;
	PG_RETURN_POINTER(c);
}

PG_FUNCTION_INFO_V1(hroe_item_collection_send);
/* Binary output: the stored form after the varlena header */
Datum
hroe_item_collection_send(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);

	PG_RETURN_BYTEA_P(hroe_varlena_send(c, VARSIZE(c)));
}

/* Aggregate state: copies of the entries, in the aggregate's context */
typedef struct CollectionAggState
{
	HroeCollectionEntry *ents;
	uint32		n;
	uint32		cap;
} CollectionAggState;

PG_FUNCTION_INFO_V1(hroe_item_collection_agg_trans);
/* Transition: add (sort key, item); rows with a NULL key or item are skipped */
Datum
hroe_item_collection_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggctx,
				old;
	CollectionAggState   *st;

	if (!AggCheckCallContext(fcinfo, &aggctx))
		elog(ERROR, "hroe_item_collection_agg_trans called in non-aggregate context");
	st = PG_ARGISNULL(0) ? NULL : (CollectionAggState *) PG_GETARG_POINTER(0);
	old = MemoryContextSwitchTo(aggctx);
	if (st == NULL)
		st = palloc0(sizeof(CollectionAggState));
	if (!PG_ARGISNULL(1) && !PG_ARGISNULL(2))
	{
		struct varlena *key = PG_GETARG_HROE_KEY_P(1);
		HroeItem   *item = PG_GETARG_HROE_ITEM_P(2);
		char	   *kcopy,
				   *icopy;
		uint32		klen = HroeKeyLen(key);

		hroe_sort_key_check(HroeKeyData(key), klen);
		if (st->n == st->cap)
		{
			st->cap = st->cap ? st->cap * 2 : 16;
			st->ents = st->ents ? repalloc(st->ents, sizeof(HroeCollectionEntry) * st->cap) :
				palloc(sizeof(HroeCollectionEntry) * st->cap);
		}
		kcopy = palloc(klen);
		memcpy(kcopy, HroeKeyData(key), klen);
		icopy = palloc(VARSIZE(item) - VARHDRSZ);
		memcpy(icopy, (char *) item + VARHDRSZ, VARSIZE(item) - VARHDRSZ);
		st->ents[st->n].key = kcopy;
		st->ents[st->n].keylen = klen;
		st->ents[st->n].item = icopy;
		st->ents[st->n].itemlen = VARSIZE(item) - VARHDRSZ;
		st->n++;
	}
	MemoryContextSwitchTo(old);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(hroe_item_collection_agg_final);
/* Final: sort by key and build; NULL when no row had a key and an item */
Datum
hroe_item_collection_agg_final(PG_FUNCTION_ARGS)
{
	CollectionAggState   *st = PG_ARGISNULL(0) ? NULL : (CollectionAggState *) PG_GETARG_POINTER(0);
	HroeCollectionEntry *ents;

	if (st == NULL || st->n == 0)
		PG_RETURN_NULL();
	/* sort a copy: the state may be finalized again (window aggregates) */
	ents = palloc(sizeof(HroeCollectionEntry) * st->n);
	memcpy(ents, st->ents, sizeof(HroeCollectionEntry) * st->n);
	PG_RETURN_POINTER(hroe_collection_build(ents, st->n));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_items);
/* Unnest: (sort_key, item) rows in sort-key order */
Datum
hroe_item_collection_items(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	HroeCollection *c;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	tupdesc;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		fctx->user_fctx = PG_GETARG_HROE_COLLECTION_P(0);
		fctx->max_calls = hroe_collection_count(fctx->user_fctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		fctx->tuple_desc = BlessTupleDesc(tupdesc);
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	c = fctx->user_fctx;
	if (fctx->call_cntr < fctx->max_calls)
	{
		HroeCollectionEntry e;
		Datum		values[2];
		bool		nulls[2] = {false, false};

		hroe_collection_entry(c, fctx->call_cntr, &e);
		values[0] = PointerGetDatum(hroe_key_from_bytes(e.key, e.keylen));
		values[1] = PointerGetDatum(hroe_collection_item(&e));
		SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(fctx->tuple_desc, values, nulls)));
	}
	SRF_RETURN_DONE(fctx);
}

PG_FUNCTION_INFO_V1(hroe_item_collection_count);
/* Number of items */
Datum
hroe_item_collection_count(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);

	PG_RETURN_INT32((int32) hroe_collection_count(c));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_total_size);
/* Total DynamoDB size of the items */
Datum
hroe_item_collection_total_size(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);

	PG_RETURN_INT64((int64) hroe_collection_size(c));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_get);
/* The item with this sort key (binary search), NULL if none */
Datum
hroe_item_collection_get(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);
	struct varlena *key = PG_GETARG_HROE_KEY_P(1);
	uint32		klen = HroeKeyLen(key);
	uint32		i = hroe_collection_lower_bound(c, HroeKeyData(key), klen, false);
	HroeCollectionEntry e;

	if (i >= hroe_collection_count(c))
		PG_RETURN_NULL();
	hroe_collection_entry(c, i, &e);
	if (e.keylen != klen || memcmp(e.key, HroeKeyData(key), klen) != 0)
		PG_RETURN_NULL();
	PG_RETURN_HROE_ITEM_P(hroe_collection_item(&e));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_begins_with);
/* The items whose sort key begins with a prefix (bytewise), as a collection */
Datum
hroe_item_collection_begins_with(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);
	struct varlena *prefix = PG_GETARG_HROE_KEY_P(1);
	const char *p = HroeKeyData(prefix);
	uint32		plen = HroeKeyLen(prefix);
	uint32		lo = hroe_collection_lower_bound(c, p, plen, false);
	uint32		lo2 = lo,
				hi = hroe_collection_count(c);

	/* the matches are contiguous from lo: binary search their end */
	while (lo2 < hi)
	{
		uint32		mid = lo2 + (hi - lo2) / 2;
		HroeCollectionEntry e;

		hroe_collection_entry(c, mid, &e);
		if (e.keylen >= plen && memcmp(e.key, p, plen) == 0)
			lo2 = mid + 1;
		else
			hi = mid;
	}
	PG_RETURN_POINTER(hroe_collection_slice(c, lo, lo2));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_between);
/* The items with lo <= sort key <= hi, as a collection (DynamoDB BETWEEN) */
Datum
hroe_item_collection_between(PG_FUNCTION_ARGS)
{
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(0);
	struct varlena *lo = PG_GETARG_HROE_KEY_P(1);
	struct varlena *hi = PG_GETARG_HROE_KEY_P(2);
	uint32		lolen = HroeKeyLen(lo),
				hilen = HroeKeyLen(hi);

	if (hroe_key_compare_bytes(HroeKeyData(lo), lolen, HroeKeyData(hi), hilen) > 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:%s}, upper bound operand: AttributeValue: {S:%s}",
						text_to_cstring((text *) lo), text_to_cstring((text *) hi))));
	PG_RETURN_POINTER(hroe_collection_slice(c,
											hroe_collection_lower_bound(c, HroeKeyData(lo), lolen, false),
											hroe_collection_lower_bound(c, HroeKeyData(hi), hilen, true)));
}

PG_FUNCTION_INFO_V1(hroe_item_embed_collection);
/*
 * Embed a collection in a parent item: attribute name becomes an L of M,
 * the children in sort-key order ("embed the children in the parent").
 */
Datum
hroe_item_embed_collection(PG_FUNCTION_ARGS)
{
	HroeItem   *parent = PG_GETARG_HROE_ITEM_P(0);
	text	   *name = PG_GETARG_TEXT_PP(1);
	HroeCollection *c = PG_GETARG_HROE_COLLECTION_P(2);
	uint32		n = hroe_collection_count(c);
	HroeValue  *elems = palloc(sizeof(HroeValue) * (n ? n : 1));
	HroeValue	list,
				m;
	HroeBuilder *b = hroe_builder_start();

	for (uint32 i = 0; i < n; i++)
	{
		HroeCollectionEntry e;

		hroe_collection_entry(c, i, &e);
		elems[i].type = HROE_M;
		elems[i].data = e.item + (HROE_ITEM_HDRSZ - VARHDRSZ);
		elems[i].len = e.itemlen - (HROE_ITEM_HDRSZ - VARHDRSZ);
	}
	hroe_make_list(elems, n, &list);
	/* the children's values move two levels down: at most 32 all the same */
	if (hroe_value_depth(&list) > HROE_ITEM_MAX_DEPTH)
		hroe_nesting_error();
	hroe_item_root(parent, &m);
	for (uint32 i = 0; i < hroe_value_count(&m); i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		hroe_map_entry(&m, i, &nm, &nl, &v);
		hroe_builder_add(b, nm, nl, &v);
	}
	hroe_builder_add(b, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &list);
	PG_RETURN_HROE_ITEM_P(hroe_builder_finish(b));
}

PG_FUNCTION_INFO_V1(hroe_item_collection_from_attribute);
/*
 * The reverse: an L of M at a path, each M holding its sort key in an S
 * attribute, as a collection.  NULL if the path is missing.
 */
Datum
hroe_item_collection_from_attribute(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *path = PG_GETARG_TEXT_PP(1);
	text	   *skname = PG_GETARG_TEXT_PP(2);
	HroeValue	list;
	uint32		n;
	HroeCollectionEntry *ents;

	if (!hroe_item_path(item, VARDATA_ANY(path), VARSIZE_ANY_EXHDR(path), &list))
		PG_RETURN_NULL();
	if (list.type != HROE_L)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("attribute \"%s\" is of type %s, not L",
						text_to_cstring(path), hroe_type_name(list.type))));
	n = hroe_value_count(&list);
	ents = palloc(sizeof(HroeCollectionEntry) * (n ? n : 1));
	for (uint32 i = 0; i < n; i++)
	{
		HroeValue	m,
					sk;
		HroeItem   *child;

		hroe_list_element(&list, i, &m);
		if (m.type != HROE_M)
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("element %u of attribute \"%s\" is of type %s, not M",
							i, text_to_cstring(path), hroe_type_name(m.type))));
		if (!hroe_map_find(&m, VARDATA_ANY(skname), VARSIZE_ANY_EXHDR(skname), &sk) ||
			sk.type != HROE_S)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("element %u of attribute \"%s\" has no S attribute \"%s\" to use as its sort key",
							i, text_to_cstring(path), text_to_cstring(skname))));
		child = hroe_item_from_map(&m);
		ents[i].key = sk.data;
		ents[i].keylen = sk.len;
		ents[i].item = (const char *) child + VARHDRSZ;
		ents[i].itemlen = VARSIZE(child) - VARHDRSZ;
	}
	PG_RETURN_POINTER(hroe_collection_build(ents, n));
}
