/*-------------------------------------------------------------------------
 *
 * vector_ivf.c
 *	  The approximate (IVF) side of a vector index (doc/vectors.md): its
 *	  centroids, trained by deterministic k-means over a sample of the
 *	  index's vectors (hroe.vector_train) and kept in hroe.vector_centroids,
 *	  one immutable row per training; each item's list, the nearest
 *	  centroid, a stored generated column of the table
 *	  (hroe.vector_list(item, attribute, dimensions, set_id)); the order in
 *	  which a search probes the lists.
 *
 * A set of centroids is never changed once written: a new training writes
 * a new set and replaces the generated column (hroe.vector_index_build), so
 * hroe.vector_list is a function of its arguments and the immutable row its
 * set_id names, and each backend may cache the sets it read.  An item whose
 * set is absent (a restore that loaded the table before the centroids) gets
 * no list (NULL); searches always scan those.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <float.h>

#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_type.h"
#include "common/pg_prng.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "dynamodb_limits.h"
#include "errors.h"
#include "item.h"
#include "vector_index.h"
#include "vector_kernel.h"
#include "vector_search.h"

/* the centroid sets a backend keeps */
#define IVF_CACHE_SETS 8
/* k-means' iterations */
#define IVF_ITERATIONS 10
/* at most this many lists */
#define IVF_MAX_LISTS 65536

static HroeIvfSet *cache[IVF_CACHE_SETS];
static int	cache_next;

static HroeDistance
DistanceFromName(const char *s)
{
	return strcmp(s, "COSINE") == 0 ? HROE_DISTANCE_COSINE
		: strcmp(s, "EUCLIDEAN") == 0 ? HROE_DISTANCE_EUCLIDEAN : HROE_DISTANCE_DOT_PRODUCT;
}

/* Scale v (n floats) to norm 1 (a zero vector stays zero) */
static void
Normalize(float4 *v, int n)
{
	float		norm = sqrtf(SquaredNorm(v, n));

	if (norm > 0)
		for (int i = 0; i < n; i++)
			v[i] /= norm;
}

/*
 * How far vector v is from centroid c, for the list assignment: COSINE the
 * negative dot product with the unit centroid (the largest cosine wins);
 * EUCLIDEAN and DOT_PRODUCT the squared distance (their centroids are
 * k-means' means)
 */
static inline float
AssignBadness(HroeDistance d, const float4 *c, const float4 *v, int n)
{
	if (d == HROE_DISTANCE_COSINE)
		return -Dot(v, c, n);
	return SquaredDistance(c, v, n);
}

int
hroe_ivf_assign(const HroeIvfSet *s, const float4 *v)
{
	int			best = 0;
	float		bestbad = FLT_MAX;
	bool		squared = s->distance != HROE_DISTANCE_COSINE;
	int			l = 0;

	/* four centroids at a time, each scored as AssignBadness scores it */
	for (; l + 4 <= s->nlist; l += 4)
	{
		const float4 *c = s->centroids + (size_t) l * s->dims;
		int			n = s->dims;
		float		d[4];

		if (squared)
			SquaredDistance4(v, c, c + n, c + 2 * n, c + 3 * n, n, d);
		else
			Dot4(v, c, c + n, c + 2 * n, c + 3 * n, n, d);
		for (int k = 0; k < 4; k++)
		{
			float		b = squared ? d[k] : -d[k];

			if (b < bestbad)
			{
				bestbad = b;
				best = l + k;
			}
		}
	}
	for (; l < s->nlist; l++)
	{
		float		b = AssignBadness(s->distance, s->centroids + (size_t) l * s->dims, v, s->dims);

		if (b < bestbad)
		{
			bestbad = b;
			best = l;
		}
	}
	return best;
}

typedef struct ListRank
{
	float		bad;
	int			list;
} ListRank;

static int
CompareRanks(const void *a, const void *b)
{
	const ListRank *x = a,
			   *y = b;

	if (x->bad != y->bad)
		return x->bad < y->bad ? -1 : 1;
	return x->list - y->list;
}

void
hroe_ivf_order(const HroeIvfSet *s, const float4 *q, int *order)
{
	ListRank   *r = palloc(sizeof(ListRank) * s->nlist);

	for (int l = 0; l < s->nlist; l++)
	{
		const float4 *c = s->centroids + (size_t) l * s->dims;

		r[l].list = l;
		/* under DOT_PRODUCT the lists whose mean has the largest product with q first */
		if (s->distance == HROE_DISTANCE_DOT_PRODUCT)
			r[l].bad = -Dot(q, c, s->dims);
		else
			r[l].bad = AssignBadness(s->distance, c, q, s->dims);
		if (isnan(r[l].bad))
			r[l].bad = FLT_MAX;
	}
	qsort(r, s->nlist, sizeof(ListRank), CompareRanks);
	for (int l = 0; l < s->nlist; l++)
		order[l] = r[l].list;
	pfree(r);
}

HroeIvfSet *
hroe_ivf_set(int64 id)
{
	Datum		arg = Int64GetDatum(id);
	Oid			argtype = INT8OID;
	HroeIvfSet *s;
	ArrayType  *a;
	bool		isnull;
	int			dims;
	int			n;
	char	   *dist;

	for (int i = 0; i < IVF_CACHE_SETS; i++)
		if (cache[i] && cache[i]->id == id)
			return cache[i];
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT dimensions, distance_function, centroids FROM hroe.vector_centroids "
							  "WHERE set_id OPERATOR(pg_catalog.=) $1",
							  1, &argtype, &arg, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_centroids failed");
	if (SPI_processed == 0)
	{
		SPI_finish();
		return NULL;
	}
	dims = DatumGetInt32(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	dist = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	a = DatumGetArrayTypeP(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
	n = ArrayGetNItems(ARR_NDIM(a), ARR_DIMS(a));
	if (isnull || dims < 1 || ARR_HASNULL(a) || ARR_ELEMTYPE(a) != FLOAT4OID || n < dims || n % dims != 0)
		elog(ERROR, "centroid set " INT64_FORMAT " is malformed", id);
	s = MemoryContextAlloc(TopMemoryContext, sizeof(HroeIvfSet));
	s->id = id;
	s->dims = dims;
	s->nlist = n / dims;
	s->distance = DistanceFromName(dist);
	s->centroids = MemoryContextAlloc(TopMemoryContext, sizeof(float4) * n);
	memcpy(s->centroids, ARR_DATA_PTR(a), sizeof(float4) * n);
	SPI_finish();
	if (cache[cache_next])
	{
		pfree(cache[cache_next]->centroids);
		pfree(cache[cache_next]);
	}
	cache[cache_next] = s;
	cache_next = (cache_next + 1) % IVF_CACHE_SETS;
	return s;
}

PG_FUNCTION_INFO_V1(hroe_vector_list);
/*
 * SQL: hroe.vector_list(item, attribute, dimensions, set_id): the list of
 * the item's vector (the nearest centroid of set set_id, 0-based), NULL
 * when the item has no valid vector or the set is absent
 */
Datum
hroe_vector_list(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *attr = PG_GETARG_TEXT_PP(1);
	int32		dims = PG_GETARG_INT32(2);
	HroeIvfSet *s;
	HroeValue	root,
				v;
	float4	   *f;
	int			bad;
	HroeType	bad_type;

	if (dims < 1 || dims > HROE_VECTOR_DIMENSIONS_MAX)
		PG_RETURN_NULL();
	hroe_item_root(item, &root);
	if (!hroe_map_find(&root, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), &v))
		PG_RETURN_NULL();
	f = palloc(sizeof(float4) * dims);
	if (hroe_vector_from_value(&v, dims, f, &bad, &bad_type) != VECTOR_OK)
		PG_RETURN_NULL();
	s = hroe_ivf_set(PG_GETARG_INT64(3));
	if (s == NULL || s->dims != dims)
		PG_RETURN_NULL();
	if (s->distance == HROE_DISTANCE_COSINE)
		Normalize(f, dims);
	PG_RETURN_INT32(hroe_ivf_assign(s, f));
}

PG_FUNCTION_INFO_V1(hroe_vector_train);
/*
 * SQL: hroe.vector_train(table regclass, column name, distance text, lists
 * integer, sample integer): k-means centroids (lists of them, fewer if
 * fewer vectors, flattened into one real[]) of a uniform sample of at most
 * sample vectors of the table's real[] column; deterministic: a fixed seed,
 * the table's physical order, k-means++-free initialisation from the
 * sample, IVF_ITERATIONS rounds of Lloyd's algorithm.  COSINE trains on
 * unit vectors and keeps unit centroids (spherical k-means).  NULL when the
 * column holds no vector.
 */
Datum
hroe_vector_train(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	char	   *column = NameStr(*PG_GETARG_NAME(1));
	HroeDistance d = DistanceFromName(text_to_cstring(PG_GETARG_TEXT_PP(2)));
	int32		nlist = PG_GETARG_INT32(3);
	int32		want = PG_GETARG_INT32(4);
	Relation	rel;
	AttrNumber	attno;
	TableScanDesc scan;
	TupleTableSlot *slot;
	MemoryContext rowcxt;
	pg_prng_state prng;
	float4	   *sample = NULL;
	int			dims = 0;
	int64		seen = 0;
	int			n = 0;
	float4	   *c;
	float4	   *sum;
	int		   *count;
	int		   *assign;
	Datum	   *elems;

	if (nlist < 1 || nlist > IVF_MAX_LISTS || want < 1 || want > 10000000)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lists must be between 1 and %d and the sample between 1 and 10000000", IVF_MAX_LISTS)));
	rel = table_open(relid, AccessShareLock);
	if (pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) != ACLCHECK_OK)
		aclcheck_error(ACLCHECK_NO_PRIV, get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));
	attno = get_attnum(relid, column);
	if (attno == InvalidAttrNumber || get_atttype(relid, attno) != FLOAT4ARRAYOID)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("table %s has no real[] column %s", RelationGetRelationName(rel), column)));
	pg_prng_seed(&prng, UINT64CONST(0x33));
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "vector_train row", ALLOCSET_SMALL_SIZES);
	scan = table_beginscan(rel, GetActiveSnapshot(), 0, NULL);
	slot = table_slot_create(rel, NULL);
	/* reservoir sampling, vectors of the first vector's dimensions */
	while (table_scan_getnextslot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		vd = slot_getattr(slot, attno, &isnull);
		MemoryContext old;
		ArrayType  *a;
		int64		at;

		if (isnull)
			continue;
		old = MemoryContextSwitchTo(rowcxt);
		a = DatumGetArrayTypeP(vd);
		if (ARR_NDIM(a) == 1 && !ARR_HASNULL(a) && (dims == 0 || ARR_DIMS(a)[0] == dims))
		{
			MemoryContextSwitchTo(old);
			if (dims == 0)
			{
				dims = ARR_DIMS(a)[0];
				/* a sample of at most 256 MB */
				want = Min(want, (int) (((Size) 256 << 20) / (sizeof(float4) * dims)));
				sample = palloc_extended(sizeof(float4) * dims * (Size) want, MCXT_ALLOC_HUGE);
			}
			at = seen < want ? seen : (int64) pg_prng_uint64_range(&prng, 0, seen);
			if (at < want)
				memcpy(sample + (size_t) at * dims, ARR_DATA_PTR(a), sizeof(float4) * dims);
			seen++;
		}
		MemoryContextSwitchTo(old);
		MemoryContextReset(rowcxt);
		if ((seen & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	ExecDropSingleTupleTableSlot(slot);
	table_endscan(scan);
	table_close(rel, AccessShareLock);
	n = (int) Min(seen, (int64) want);
	if (n == 0)
		PG_RETURN_NULL();
	if (d == HROE_DISTANCE_COSINE)
		for (int i = 0; i < n; i++)
			Normalize(sample + (size_t) i * dims, dims);
	nlist = Min(nlist, n);

	/* initial centroids: nlist distinct sample points, chosen by the seeded generator */
	c = palloc_extended(sizeof(float4) * dims * (Size) nlist, MCXT_ALLOC_HUGE);
	for (int i = 0; i < nlist; i++)
	{
		/* a partial Fisher-Yates shuffle of the sample */
		int			j = i + (int) pg_prng_uint64_range(&prng, 0, n - 1 - i);

		for (int k = 0; k < dims; k++)
		{
			float4		t = sample[(size_t) i * dims + k];

			sample[(size_t) i * dims + k] = sample[(size_t) j * dims + k];
			sample[(size_t) j * dims + k] = t;
		}
		memcpy(c + (size_t) i * dims, sample + (size_t) i * dims, sizeof(float4) * dims);
	}
	sum = palloc_extended(sizeof(float4) * dims * (Size) nlist, MCXT_ALLOC_HUGE);
	count = palloc(sizeof(int) * nlist);
	assign = palloc(sizeof(int) * n);
	for (int it = 0; it < IVF_ITERATIONS; it++)
	{
		HroeIvfSet	s = {0, nlist, dims, d, c};
		bool		changed = false;

		for (int i = 0; i < n; i++)
		{
			int			l = hroe_ivf_assign(&s, sample + (size_t) i * dims);

			if (it == 0 || l != assign[i])
				changed = true;
			assign[i] = l;
			if ((i & 255) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		if (!changed)
			break;
		memset(sum, 0, sizeof(float4) * dims * (Size) nlist);
		memset(count, 0, sizeof(int) * nlist);
		for (int i = 0; i < n; i++)
		{
			float4	   *dst = sum + (size_t) assign[i] * dims;
			const float4 *src = sample + (size_t) i * dims;

			for (int k = 0; k < dims; k++)
				dst[k] += src[k];
			count[assign[i]]++;
		}
		for (int l = 0; l < nlist; l++)
		{
			float4	   *dst = c + (size_t) l * dims;

			if (count[l] == 0)
			{
				/* an empty list takes a sample point, deterministically */
				memcpy(dst, sample + (size_t) ((l * 7919 + it) % n) * dims, sizeof(float4) * dims);
				continue;
			}
			for (int k = 0; k < dims; k++)
				dst[k] = sum[(size_t) l * dims + k] / count[l];
			if (d == HROE_DISTANCE_COSINE)
				Normalize(dst, dims);
		}
	}
	elems = palloc_extended(sizeof(Datum) * dims * (Size) nlist, MCXT_ALLOC_HUGE);
	for (size_t i = 0; i < (size_t) dims * nlist; i++)
		elems[i] = Float4GetDatum(c[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, dims * nlist, FLOAT4OID, sizeof(float4), true, TYPALIGN_INT));
}
