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

#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "executor/tuptable.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/itemptr.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "dynamodb_limits.h"
#include "errors.h"
#include "operations.h"
#include "operations_internal.h"
#include "vector_index.h"
#include "vector_search.h"

/* rows fetched from the cursor at a time */
#define VECTOR_FETCH_ROWS	2048

/* ---------- the kernels ---------- */

/*
 * Eight independent accumulators: the loops the compiler vectorises at -O2
 * without reassociating a single sum (no -ffast-math); a short vector (n <
 * 8) is summed in order, exactly as written.
 */
#define LANES 8

static inline void
DotNorm(const float4 *restrict a, const float4 *restrict b, int n, float *dot, float *nb)
{
	float		d[LANES] = {0},
				s[LANES] = {0};
	float		dt = 0,
				st = 0;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
		for (int j = 0; j < LANES; j++)
		{
			d[j] += a[i + j] * b[i + j];
			s[j] += b[i + j] * b[i + j];
		}
	for (int j = 0; j < LANES; j++)
	{
		dt += d[j];
		st += s[j];
	}
	for (; i < n; i++)
	{
		dt += a[i] * b[i];
		st += b[i] * b[i];
	}
	*dot = dt;
	*nb = st;
}

static inline float
SquaredDistance(const float4 *restrict a, const float4 *restrict b, int n)
{
	float		s[LANES] = {0};
	float		t = 0;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
		for (int j = 0; j < LANES; j++)
		{
			float		x = a[i + j] - b[i + j];

			s[j] += x * x;
		}
	for (int j = 0; j < LANES; j++)
		t += s[j];
	for (; i < n; i++)
		t += (a[i] - b[i]) * (a[i] - b[i]);
	return t;
}

/* The squared norm of a */
static float
SquaredNorm(const float4 *a, int n)
{
	float		dot,
				nb;

	DotNorm(a, a, n, &dot, &nb);
	return nb;
}

/*
 * The score of candidate b against query a (qnorm: a's norm, for COSINE):
 * COSINE 1 - cos (0 identical .. 2 opposite; 1 when either is zero),
 * EUCLIDEAN the distance, DOT_PRODUCT the dot product (higher is closer)
 */
static inline float
Score(HroeDistance d, const float4 *a, float qnorm, const float4 *b, int n)
{
	float		dot,
				nb;

	switch (d)
	{
		case HROE_DISTANCE_COSINE:
			DotNorm(a, b, n, &dot, &nb);
			if (qnorm == 0 || nb == 0)
				return 1;
			return (float) (1.0 - (double) dot / ((double) qnorm * sqrt((double) nb)));
		case HROE_DISTANCE_EUCLIDEAN:
			return sqrtf(SquaredDistance(a, b, n));
		case HROE_DISTANCE_DOT_PRODUCT:
			DotNorm(a, b, n, &dot, &nb);
			return dot;
	}
	return 0;
}

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

	if (!hroe_direct_access || t->distributed ||
		check_enable_rls(t->relid, InvalidOid, true) == RLS_ENABLED ||
		pg_class_aclcheck(t->relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
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
							  "search_attribute_types, search_columns, vector_column "
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
	if (nargs > 0 || !DirectScan(t, vx, &state))
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
