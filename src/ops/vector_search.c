/*-------------------------------------------------------------------------
 *
 * vector_search.c
 *	  SearchVectors' core (doc/vectors.md): a vector index's metadata
 *	  (hroe.vector_indexes), the f32 distance kernels and the exact TopK
 *	  search with a bounded heap, hroe.search_vectors.
 *
 * The index's vectors are a generated real[] column of the table, kept by
 * every write path in the write's transaction (vectors.sql).  A search
 * reads, under one snapshot, the vectors its SearchSchema conditions select
 * (the HASH element through its btree index), keeps the k best in a
 * max-heap, then fetches those k items by TID under the same snapshot: it
 * sees each item as committed, never half-written.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/visibilitymap.h"
#include "access/stratnum.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/itemptr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "dynamodb_limits.h"
#include "errors.h"
#include "operations.h"
#include "operations_internal.h"
#include "vector_index.h"
#include "vector_kernel.h"
#include "vector_search.h"

/* rows fetched from the cursor at a time */
#define VECTOR_FETCH_ROWS	2048

/* ---------- the kernels: vector_kernel.h ---------- */

float4
hroe_vector_score(HroeDistance d, const float4 *a, const float4 *b, int n)
{
	return Score(d, a, sqrt((double) SquaredNorm(a, n)), b, n);
}

/* ---------- the bounded heap ---------- */

/* An entry: its badness (lower is nearer), its row, its order of arrival */
typedef struct HeapEntry
{
	float		bad;
	float		score;
	uint64		seq;
	ItemPointerData tid;
} HeapEntry;

/* Is a worse than b (farther; on a tie, later)? */
static inline bool
Worse(const HeapEntry *a, const HeapEntry *b)
{
	return a->bad > b->bad || (a->bad == b->bad && a->seq > b->seq);
}

/* Max-heap of the k best so far: the worst on top */
static void
SiftDown(HeapEntry *h, int n, int i)
{
	for (;;)
	{
		int			l = 2 * i + 1,
					r = l + 1,
					m = i;

		if (l < n && Worse(&h[l], &h[m]))
			m = l;
		if (r < n && Worse(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		{
			HeapEntry	t = h[i];

			h[i] = h[m];
			h[m] = t;
		}
		i = m;
	}
}

static void
SiftUp(HeapEntry *h, int i)
{
	while (i > 0)
	{
		int			p = (i - 1) / 2;
		HeapEntry	t;

		if (!Worse(&h[i], &h[p]))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

static int
CompareEntries(const void *a, const void *b)
{
	const HeapEntry *x = a,
			   *y = b;

	return Worse(x, y) ? 1 : Worse(y, x) ? -1 : 0;
}

/* The search's state: the query, the k best so far */
typedef struct TopK
{
	HroeDistance distance;
	const float4 *q;
	float		qnorm;
	int			dims;
	int			k;
	int			n;
	uint64		seq;
	HeapEntry  *heap;
} TopK;

/* Score the vector column's value vd of the row at tid, and keep it if among the k best */
static void
Consider(TopK *s, Datum vd, ItemPointer tid)
{
	ArrayType  *a = DatumGetArrayTypeP(vd);
	HeapEntry	e;

	/* (the generated column's arrays: one dimension, no NULLs) */
	if (ARR_NDIM(a) != 1 || ARR_DIMS(a)[0] != s->dims || ARR_HASNULL(a) ||
		ARR_ELEMTYPE(a) != FLOAT4OID)
		goto done;
	e.score = Score(s->distance, s->q, s->qnorm, (const float4 *) ARR_DATA_PTR(a), s->dims);
	if (isnan(e.score))
		goto done;
	e.bad = s->distance == HROE_DISTANCE_DOT_PRODUCT ? -e.score : e.score;
	e.seq = s->seq++;
	e.tid = *tid;
	if (s->n < s->k)
	{
		s->heap[s->n] = e;
		SiftUp(s->heap, s->n++);
	}
	else if (Worse(&s->heap[0], &e))
	{
		s->heap[0] = e;
		SiftDown(s->heap, s->n, 0);
	}
done:
	if ((Pointer) a != DatumGetPointer(vd))
		pfree(a);
}

/*
 * Every vector of the index, read from the table directly (no executor, no
 * copies): when no condition narrows the search, and the caller may read
 * the whole table (its SELECT privilege; no row-level security, else the
 * SQL path applies it).  False if the SQL path must run instead.
 */
static bool
DirectScan(HroeTableMeta *t, HroeVectorIndex *vx, TopK *s)
{
	AttrNumber	attno;
	Relation	rel;
	TableScanDesc scan;
	TupleTableSlot *slot;
	uint64		rows = 0;

	if (t->distributed || !hroe_direct_read_allowed(t->relid))
		return false;
	attno = get_attnum(t->relid, vx->vector_column);
	if (attno == InvalidAttrNumber)
		return false;
	rel = table_open(t->relid, AccessShareLock);
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	slot = table_slot_create(rel, NULL);
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		vd = slot_getattr(slot, attno, &isnull);

		if (!isnull)
			Consider(s, vd, &slot->tts_tid);
		if ((++rows & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	table_close(rel, NoLock);
	return true;
}

/* ---------- the IVF lists (approximate) ---------- */

/*
 * hroe.vector_probes, hroe.vector_search_exact, hroe.vector_exact_rows: the
 * file's own (no state passes between a request's layers through globals)
 */
static int	hroe_vector_probes = 0;
static bool hroe_vector_search_exact = false;
static int	hroe_vector_exact_rows = 5000;

/* A search through the btree on (HASH column,) list [INCLUDE (vector)] */
typedef struct IvfScanState
{
	Relation	heap;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	Buffer		vmbuf;
	AttrNumber	heap_vector;	/* the vector column in the heap */
	AttrNumber	index_vector;	/* in the index (0: not covered) */
	int			ninline;		/* INLINE_FILTER conditions, checked on the heap */
	AttrNumber *inline_attno;
	Datum	   *inline_value;
	FmgrInfo   *inline_eq;
	Oid		   *inline_coll;
	uint64		compared;
} IvfScanState;

/*
 * Consider every vector the scan's keys select; false (having stopped) once
 * more than limit entries were read (limit < 0: no limit)
 */
static bool
IvfScanKeys(IvfScanState *c, TopK *s, ScanKey keys, int nkeys, int64 limit)
{
	ItemPointer tid;
	int64		read = 0;

	index_rescan(c->scan, keys, nkeys, NULL, 0);
	while ((tid = index_getnext_tid(c->scan, ForwardScanDirection)) != NULL)
	{
		bool		isnull;
		Datum		vd;

		if (limit >= 0 && ++read > limit)
			return false;
		if ((++c->compared & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
		if (c->index_vector && c->ninline == 0 &&
			VM_ALL_VISIBLE(c->heap, ItemPointerGetBlockNumber(tid), &c->vmbuf))
		{
			/* the index tuple's copy: the heap tuple is visible to all */
			vd = index_getattr(c->scan->xs_itup, c->index_vector, c->scan->xs_itupdesc, &isnull);
			if (!isnull)
				Consider(s, vd, tid);
			continue;
		}
		if (!index_fetch_heap(c->scan, c->slot))
			continue;
		for (int i = 0; i < c->ninline; i++)
		{
			Datum		col = slot_getattr(c->slot, c->inline_attno[i], &isnull);

			if (isnull || !DatumGetBool(FunctionCall2Coll(&c->inline_eq[i], c->inline_coll[i],
														  col, c->inline_value[i])))
				goto next;
		}
		vd = slot_getattr(c->slot, c->heap_vector, &isnull);
		if (!isnull)
			Consider(s, vd, &c->slot->tts_tid);
next:
		ExecClearTuple(c->slot);
	}
	return true;
}

/*
 * The search through the index's IVF lists, when it has them (vector_ivf.c):
 * the lists whose centroids are nearest the query, hroe.vector_probes of
 * them (0: a hundredth of the lists, at least 8) and more until k
 * vectors matched, plus the vectors without a list; each list read from the
 * btree on (HASH column,) list, the vector from the index tuple when the
 * index covers it and its heap page is all-visible, else from the heap
 * under the snapshot.  A search with a HASH condition whose partition holds
 * at most hroe.vector_exact_rows vectors compares all of them instead
 * (exact).  Returns false, having considered nothing, when the lists do not
 * apply (none trained, hroe.vector_search_exact, the conditions DirectScan
 * needs): the exact search runs.  *exact: the answer is exact.
 */
static bool
IvfSearch(HroeTableMeta *t, HroeVectorIndex *vx, TopK *s, const HroeValue *filters, bool *exact)
{
	HroeIvfSet *set;
	IvfScanState c;
	Relation	index;
	Oid			indexoid;
	AttrNumber	list_heap;
	int			keyatt;
	ScanKeyData keys[2];
	int			nkeys = 0;
	int		   *order;
	int			nprobe;
	int			probed = 0;

	*exact = false;
	if (vx->centroid_set == 0 || vx->list_column == NULL || vx->ivf_relname == NULL ||
		hroe_vector_search_exact || t->distributed || !hroe_direct_read_allowed(t->relid))
		return false;
	set = hroe_ivf_set(vx->centroid_set);
	if (set == NULL || set->dims != vx->dims)
		return false;
	/* (a training that committed since the metadata was read: the exact search) */
	list_heap = get_attnum(t->relid, vx->list_column);
	indexoid = get_relname_relid(vx->ivf_relname, get_rel_namespace(t->relid));
	if (list_heap == InvalidAttrNumber || !OidIsValid(indexoid))
		return false;
	memset(&c, 0, sizeof(c));
	c.heap_vector = get_attnum(t->relid, vx->vector_column);
	if (c.heap_vector == InvalidAttrNumber)
		return false;
	c.heap = table_open(t->relid, AccessShareLock);
	index = index_open(indexoid, AccessShareLock);
	if (index->rd_index->indrelid != t->relid)
		elog(ERROR, "index %s is not on %s", vx->ivf_relname, t->relname);
	keyatt = IndexRelationGetNumberOfKeyAttributes(index);
	if (IndexRelationGetNumberOfAttributes(index) > keyatt)
		c.index_vector = keyatt + 1;
	c.inline_attno = palloc(sizeof(AttrNumber) * Max(vx->nsearch, 1));
	c.inline_value = palloc(sizeof(Datum) * Max(vx->nsearch, 1));
	c.inline_eq = palloc(sizeof(FmgrInfo) * Max(vx->nsearch, 1));
	c.inline_coll = palloc(sizeof(Oid) * Max(vx->nsearch, 1));
	for (int i = 0; i < vx->nsearch; i++)
	{
		Datum		value;

		if (filters[i].type == 0)
			continue;
		value = hroe_value_datum(&filters[i], false);
		if (vx->search_hash[i])
		{
			/* the btree's first key: the equality of its operator family */
			Oid			op = get_opfamily_member(index->rd_opfamily[0], index->rd_opcintype[0],
												 index->rd_opcintype[0], BTEqualStrategyNumber);

			if (!OidIsValid(op))
				elog(ERROR, "no equality operator for the first column of %s", vx->ivf_relname);
			ScanKeyEntryInitialize(&keys[nkeys++], 0, 1, BTEqualStrategyNumber, InvalidOid,
								   index->rd_indcollation[0], get_opcode(op), value);
		}
		else
		{
			AttrNumber	attno = get_attnum(t->relid, vx->search_columns[i]);
			TypeCacheEntry *tc;

			if (attno == InvalidAttrNumber)
				elog(ERROR, "%s has no column %s", t->relname, vx->search_columns[i]);
			tc = lookup_type_cache(TupleDescAttr(RelationGetDescr(c.heap), attno - 1)->atttypid,
								   TYPECACHE_EQ_OPR_FINFO);
			if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
				elog(ERROR, "no equality for column %s of %s", vx->search_columns[i], t->relname);
			c.inline_attno[c.ninline] = attno;
			c.inline_value[c.ninline] = value;
			c.inline_eq[c.ninline] = tc->eq_opr_finfo;
			c.inline_coll[c.ninline] = TupleDescAttr(RelationGetDescr(c.heap), attno - 1)->attcollation;
			c.ninline++;
		}
	}
	c.vmbuf = InvalidBuffer;
	c.slot = table_slot_create(c.heap, NULL);
	/* a small partition: all of it */
	if (nkeys > 0)
	{
		c.scan = index_beginscan(c.heap, index, GetActiveSnapshot(), nkeys, 0);
		c.scan->xs_want_itup = c.index_vector != 0;
		*exact = IvfScanKeys(&c, s, keys, nkeys, hroe_vector_exact_rows);
		index_endscan(c.scan);
	}
	if (!*exact)
	{
		c.scan = index_beginscan(c.heap, index, GetActiveSnapshot(), nkeys + 1, 0);
		c.scan->xs_want_itup = c.index_vector != 0;
		s->n = 0;
		s->seq = 0;
		order = palloc(sizeof(int) * set->nlist);
		hroe_ivf_order(set, s->q, order);
		nprobe = hroe_vector_probes > 0 ? hroe_vector_probes : Max(8, set->nlist / 100);
		for (probed = 0; probed < set->nlist; probed++)
		{
			if (probed >= nprobe && s->n >= s->k)
				break;
			ScanKeyInit(&keys[nkeys], nkeys + 1, BTEqualStrategyNumber, F_INT4EQ, Int32GetDatum(order[probed]));
			IvfScanKeys(&c, s, keys, nkeys + 1, -1);
		}
		/* the vectors without a list */
		ScanKeyEntryInitialize(&keys[nkeys], SK_ISNULL | SK_SEARCHNULL, nkeys + 1, InvalidStrategy,
							   InvalidOid, InvalidOid, InvalidOid, (Datum) 0);
		IvfScanKeys(&c, s, keys, nkeys + 1, -1);
		*exact = probed == set->nlist;
		index_endscan(c.scan);
	}

	/* the heap-only tuples' own TIDs, for the fetch by TID */
	{
		IndexFetchTableData *fetch = table_index_fetch_begin(c.heap);

		for (int i = 0; i < s->n; i++)
		{
			bool		call_again = false,
						all_dead = false;

			if (table_index_fetch_tuple(fetch, &s->heap[i].tid, GetActiveSnapshot(), c.slot,
										&call_again, &all_dead))
				s->heap[i].tid = c.slot->tts_tid;
			ExecClearTuple(c.slot);
		}
		table_index_fetch_end(fetch);
	}
	if (BufferIsValid(c.vmbuf))
		ReleaseBuffer(c.vmbuf);
	ExecDropSingleTupleTableSlot(c.slot);
	index_close(index, NoLock);
	table_close(c.heap, NoLock);
	elog(DEBUG1, "vector search of %s.%s: %s, %d of %d lists, " UINT64_FORMAT " vectors compared",
		 vx->table, vx->name, *exact ? "exact" : "approximate", probed, set->nlist, c.compared);
	return true;
}

/* ---------- metadata ---------- */

static char *
TextCol(HeapTuple tup, TupleDesc desc, int col)
{
	char	   *s = SPI_getvalue(tup, desc, col);

	return s;
}

/* A text[] or name[] column as C strings; *n their count */
static char **
ArrayCol(HeapTuple tup, TupleDesc desc, int col, int *n)
{
	bool		isnull;
	Datum		d = SPI_getbinval(tup, desc, col, &isnull);
	Datum	   *elems;
	bool	   *nulls;
	char	  **out;
	ArrayType  *a;
	Oid			elemtype;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	*n = 0;
	if (isnull)
		return NULL;
	a = DatumGetArrayTypeP(d);
	elemtype = ARR_ELEMTYPE(a);
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(a, elemtype, typlen, typbyval, typalign, &elems, &nulls, n);
	out = palloc(sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
		out[i] = elemtype == NAMEOID ? pstrdup(NameStr(*DatumGetName(elems[i])))
			: TextDatumGetCString(elems[i]);
	return out;
}

HroeVectorIndex *
hroe_vector_index_lookup(const char *table, const char *index)
{
	Datum		v[2] = {CStringGetTextDatum(table), CStringGetTextDatum(index)};
	Oid			types[2] = {TEXTOID, TEXTOID};
	HroeVectorIndex *vx;
	HeapTuple	tup;
	TupleDesc	desc;
	char	   *dist;
	char	  **types_s;
	char	  **kinds;
	int			n;
	MemoryContext caller = CurrentMemoryContext;

	/* a level of its own: callers need not be connected to SPI */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT vector_attribute, dimensions, distance_function, projection, "
							  "non_key_attributes, search_attributes, search_element_types, "
							  "search_attribute_types, search_columns, vector_column, "
							  "centroid_set, list_column, ivf_relname "
							  "FROM hroe.vector_indexes WHERE table_name OPERATOR(pg_catalog.=) $1 "
							  "AND index_name OPERATOR(pg_catalog.=) $2",
							  2, types, v, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	if (SPI_processed == 0)
	{
		SPI_finish();
		return NULL;
	}
	/* (the index's description in the caller's context) */
	MemoryContextSwitchTo(caller);
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	vx = palloc0(sizeof(HroeVectorIndex));
	vx->table = pstrdup(table);
	vx->name = pstrdup(index);
	vx->attribute = TextCol(tup, desc, 1);
	vx->dims = pg_strtoint32(TextCol(tup, desc, 2));
	dist = TextCol(tup, desc, 3);
	vx->distance = strcmp(dist, "COSINE") == 0 ? HROE_DISTANCE_COSINE
		: strcmp(dist, "EUCLIDEAN") == 0 ? HROE_DISTANCE_EUCLIDEAN : HROE_DISTANCE_DOT_PRODUCT;
	vx->projection = TextCol(tup, desc, 4);
	vx->nonkey = ArrayCol(tup, desc, 5, &vx->nnonkey);
	vx->search_attrs = ArrayCol(tup, desc, 6, &vx->nsearch);
	kinds = ArrayCol(tup, desc, 7, &n);
	types_s = ArrayCol(tup, desc, 8, &n);
	vx->search_columns = ArrayCol(tup, desc, 9, &n);
	vx->search_hash = palloc0(sizeof(bool) * Max(vx->nsearch, 1));
	vx->search_types = palloc0(Max(vx->nsearch, 1) + 1);
	for (int i = 0; i < vx->nsearch; i++)
	{
		vx->search_hash[i] = strcmp(kinds[i], "HASH") == 0;
		vx->search_types[i] = types_s[i][0];
	}
	vx->vector_column = TextCol(tup, desc, 10);
	{
		bool		isnull;
		Datum		d = SPI_getbinval(tup, desc, 11, &isnull);

		vx->centroid_set = isnull ? 0 : DatumGetInt64(d);
		vx->list_column = TextCol(tup, desc, 12);
		vx->ivf_relname = TextCol(tup, desc, 13);
	}
	SPI_finish();
	return vx;
}

/* ---------- the search ---------- */

/* The column type of a SearchSchema element of type letter */
static Oid
ElementType(char letter)
{
	return letter == 'S' ? hroe_key_typid() : letter == 'N' ? NUMERICOID : BYTEAOID;
}

/* The value type of type letter */
static HroeType
LetterType(char letter)
{
	return letter == 'S' ? HROE_S : letter == 'N' ? HROE_N : HROE_B;
}

int
hroe_vector_search(HroeTableMeta *t, HroeVectorIndex *vx, const float4 *q, int k,
				   const HroeValue *filters, HroeVectorHit *hits)
{
	StringInfoData sql,
				shape;
	Oid		   *argtypes = palloc(sizeof(Oid) * Max(vx->nsearch, 1));
	Datum	   *args = palloc(sizeof(Datum) * Max(vx->nsearch, 1));
	int			nargs = 0;
	SPIPlanPtr	plan;
	Portal		portal;
	HeapEntry  *heap = palloc(sizeof(HeapEntry) * k);
	int			n;
	TopK		state;
	float		qnorm = sqrt((double) SquaredNorm(q, vx->dims));
	int			dims = vx->dims;
	Datum	   *tids;
	HroeItem  **items;
	bool		exact;

	initStringInfo(&sql);
	initStringInfo(&shape);
	appendStringInfo(&sql, "SELECT ctid, %s FROM %s WHERE %s IS NOT NULL",
					 quote_identifier(vx->vector_column), t->relname,
					 quote_identifier(vx->vector_column));
	appendStringInfo(&shape, "vector:%s:", vx->vector_column);
	for (int i = 0; i < vx->nsearch; i++)
	{
		if (filters[i].type == 0)
		{
			appendStringInfoChar(&shape, '-');
			continue;
		}
		/* a value of another type than the element's matches nothing */
		if (filters[i].type != LetterType(vx->search_types[i]))
			return 0;
		appendStringInfoChar(&shape, '=');
		argtypes[nargs] = ElementType(vx->search_types[i]);
		args[nargs++] = hroe_value_datum(&filters[i], false);
		appendStringInfo(&sql, " AND %s OPERATOR(%s.=) $%d", quote_identifier(vx->search_columns[i]),
						 vx->search_types[i] == 'S' ? "hroe" : "pg_catalog", nargs);
	}

	hroe_op_push_read_snapshot();
	state.distance = vx->distance;
	state.q = q;
	state.qnorm = qnorm;
	state.dims = dims;
	state.k = k;
	state.n = 0;
	state.seq = 0;
	state.heap = heap;
	if (!IvfSearch(t, vx, &state, filters, &exact) && (nargs > 0 || !DirectScan(t, vx, &state)))
	{
		plan = hroe_table_plan(t, shape.data, sql.data, nargs, argtypes);
		portal = SPI_cursor_open(NULL, plan, args, NULL, true);
		for (;;)
		{
			SPITupleTable *tt;

			SPI_cursor_fetch(portal, true, VECTOR_FETCH_ROWS);
			if (SPI_processed == 0)
				break;
			tt = SPI_tuptable;
			for (uint64 r = 0; r < SPI_processed; r++)
			{
				bool		isnull,
							tidnull;
				Datum		vd = SPI_getbinval(tt->vals[r], tt->tupdesc, 2, &isnull);
				Datum		tid = SPI_getbinval(tt->vals[r], tt->tupdesc, 1, &tidnull);

				if (!isnull && !tidnull)
					Consider(&state, vd, (ItemPointer) DatumGetPointer(tid));
			}
			SPI_freetuptable(tt);
			CHECK_FOR_INTERRUPTS();
		}
		SPI_cursor_close(portal);
	}
	n = state.n;
	qsort(heap, n, sizeof(HeapEntry), CompareEntries);

	/* the items, by TID, under the same snapshot */
	if (n > 0)
	{
		Oid			tidarr = TIDARRAYOID;
		Datum		arr;
		int			ret;

		tids = palloc(sizeof(Datum) * n);
		for (int i = 0; i < n; i++)
			tids[i] = PointerGetDatum(&heap[i].tid);
		arr = PointerGetDatum(construct_array(tids, n, TIDOID, sizeof(ItemPointerData), false, TYPALIGN_SHORT));
		resetStringInfo(&sql);
		appendStringInfo(&sql, "SELECT ctid, item FROM %s WHERE ctid OPERATOR(pg_catalog.=) ANY ($1)", t->relname);
		plan = hroe_table_plan(t, "vector:items", sql.data, 1, &tidarr);
		ret = SPI_execute_plan(plan, &arr, NULL, true, 0);
		if (ret != SPI_OK_SELECT)
			elog(ERROR, "reading %s failed: %s", t->relname, SPI_result_code_string(ret));
		items = palloc0(sizeof(HroeItem *) * n);
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			bool		isnull;
			ItemPointer tid = (ItemPointer) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[r],
																		   SPI_tuptable->tupdesc, 1, &isnull));

			for (int i = 0; i < n; i++)
				if (items[i] == NULL && ItemPointerEquals(tid, &heap[i].tid))
				{
					items[i] = hroe_op_copy_item(CurrentMemoryContext,
												 SPI_getbinval(SPI_tuptable->vals[r],
															   SPI_tuptable->tupdesc, 2, &isnull));
					break;
				}
		}
		for (int i = 0; i < n; i++)
		{
			/* (a row of the snapshot is there; never assume it) */
			if (items[i] == NULL)
				elog(ERROR, "vector search lost a row of %s", t->relname);
			hits[i].item = items[i];
			hits[i].score = heap[i].score;
		}
	}
	PopActiveSnapshot();
	return n;
}

/* ---------- SQL ---------- */

PG_FUNCTION_INFO_V1(hroe_search_vectors);
/*
 * SQL: hroe.search_vectors(table_name, index_name, vector real[], top_k,
 * filter hroe.item): the top_k items nearest vector, nearest first, with
 * their scores; filter: the SearchSchema values they must equal
 */
Datum
hroe_search_vectors(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *table;
	char	   *index;
	ArrayType  *qa;
	int32		k;
	HroeItem   *filter;
	HroeTableMeta *t;
	HroeVectorIndex *vx;
	HroeValue  *filters;
	HroeVectorHit *hits;
	int			n;
	MemoryContext cxt = CurrentMemoryContext;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < 4; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("the table name, index name, vector and top_k of hroe.search_vectors must not be null")));
	table = text_to_cstring(PG_GETARG_TEXT_PP(0));
	index = text_to_cstring(PG_GETARG_TEXT_PP(1));
	qa = PG_GETARG_ARRAYTYPE_P(2);
	k = PG_GETARG_INT32(3);
	filter = PG_ARGISNULL(4) ? NULL : PG_GETARG_HROE_ITEM_P(4);
	if (k < 1 || k > HROE_VECTOR_TOP_K_MAX)
		HroeValidation(psprintf("Provided TopK value '%d' is out of valid range. The value must be between 1 and %d inclusive",
								k, HROE_VECTOR_TOP_K_MAX));
	if (ARR_NDIM(qa) > 1 || ARR_HASNULL(qa))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the search vector must be a one-dimensional array without NULLs")));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	t = hroe_table_lookup(table, false);
	vx = hroe_vector_index_lookup(table, index);
	if (vx == NULL)
		HroeValidation(psprintf("The table does not have the specified index: %s", index));
	hroe_vector_index_check_searchable(table, index);
	if (ArrayGetNItems(ARR_NDIM(qa), ARR_DIMS(qa)) != vx->dims)
		HroeValidation(psprintf("Input search vector dimension %d does not match vector index dimension %d",
								ArrayGetNItems(ARR_NDIM(qa), ARR_DIMS(qa)), vx->dims));
	for (int i = 0; i < vx->dims; i++)
		if (!isfinite(((float4 *) ARR_DATA_PTR(qa))[i]))
			HroeValidation("Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute");
	filters = palloc0(sizeof(HroeValue) * Max(vx->nsearch, 1));
	if (filter)
	{
		HroeValue	root;

		hroe_item_root(filter, &root);
		for (uint32 i = 0; i < hroe_value_count(&root); i++)
		{
			const char *name;
			uint32		len;
			HroeValue	v;
			int			e;

			hroe_map_entry(&root, i, &name, &len, &v);
			for (e = 0; e < vx->nsearch; e++)
				if (strlen(vx->search_attrs[e]) == len && memcmp(vx->search_attrs[e], name, len) == 0)
					break;
			if (e == vx->nsearch)
				HroeValidation(psprintf("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: %s",
										pnstrdup(name, len)));
			filters[e] = v;
		}
	}
	if (vx->nsearch > 0 && vx->search_hash[0] && filters[0].type == 0)
		HroeValidation("SearchConditionExpression must be provided when SearchSchema has a HASH key");
	hits = palloc(sizeof(HroeVectorHit) * k);
	n = hroe_vector_search(t, vx, (const float4 *) ARR_DATA_PTR(qa), k, filters, hits);
	for (int i = 0; i < n; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		values[0] = PointerGetDatum(hits[i].item);
		values[1] = Float4GetDatum(hits[i].score);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	return (Datum) 0;
}

/* Define the vector search's settings (called by _PG_init) */
void
hroe_vector_search_init(void)
{
	DefineCustomIntVariable("hroe.vector_probes",
							"The IVF lists a SearchVectors probes on a vector index that has them.",
							"A vector index trained by hroe.vector_index_build groups its vectors in lists "
							"around k-means centroids; a search compares the vectors of the lists nearest "
							"the query: this many of them (0, the default: a hundredth of the lists, "
							"at least 8), and more until TopK vectors matched. More probes: better recall, "
							"slower searches.",
							&hroe_vector_probes,
							0, 0, 65536,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("hroe.vector_search_exact",
							 "Makes SearchVectors compare every vector its condition selects, ignoring the IVF lists.",
							 "Off (the default): an index with IVF lists answers approximately (see "
							 "hroe.vector_probes); on: exactly, at the cost of reading every vector.",
							 &hroe_vector_search_exact,
							 false,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.vector_exact_rows",
							"The HASH partitions of at most this many vectors a SearchVectors compares exactly.",
							"A search whose SearchConditionExpression names the HASH element of an index "
							"with IVF lists compares every vector of that partition when it holds at most "
							"this many (0: never), else probes the lists.",
							&hroe_vector_exact_rows,
							5000, 0, INT_MAX,
							PGC_USERSET, 0,
							NULL, NULL, NULL);
}
