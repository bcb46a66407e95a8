/*-------------------------------------------------------------------------
 *
 * generate.c
 *	  Counter-based pseudo-random numbers for hroe's deterministic data
 *	  generator: hroe.prng, hroe.prng_int and hroe.prng_zipf, and the
 *	  products of a generated order (hroe.order_line_draws).
 *
 * Each value is splitmix64's finalizer applied to a mix of the seed, a
 * stream number (one per generated attribute) and a row index.  Nothing is
 * kept between calls, so the functions are IMMUTABLE and PARALLEL SAFE and
 * a set-based INSERT ... SELECT FROM generate_series() gives identical
 * rows whatever plan or worker computes them (random() and setseed() give
 * no such guarantee).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"

#include "generate.h"

/* hroe_hr.so, the HR/OE showcase's module (models/Makefile) */
PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(hroe_prng);
PG_FUNCTION_INFO_V1(hroe_prng_int);
PG_FUNCTION_INFO_V1(hroe_prng_zipf);
PG_FUNCTION_INFO_V1(hroe_order_line_draws);

/* Golden-ratio increment of splitmix64, and a second odd constant. */
#define HROE_GOLDEN UINT64CONST(0x9E3779B97F4A7C15)
#define HROE_STREAM_MULT UINT64CONST(0xD1B54A32D192ED03)

/* splitmix64's output function (Steele, Lea and Flood, 2014). */
static inline uint64
SplitMix64(uint64 z)
{
	z = (z ^ (z >> 30)) * UINT64CONST(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64CONST(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* The 64 random bits for (seed, stream, index). */
uint64
hroe_prng_draw_bits(int64 seed, int32 stream, int64 index)
{
	uint64		z;

	z = SplitMix64((uint64) seed + HROE_GOLDEN);
	z = SplitMix64(z ^ ((uint64) (uint32) stream * HROE_STREAM_MULT));
	return SplitMix64(z + (uint64) index * HROE_GOLDEN);
}

/* A float8 in [0, 1) with 53 random bits for (seed, stream, index). */
double
hroe_prng_draw_unit(int64 seed, int32 stream, int64 index)
{
	return (double) (hroe_prng_draw_bits(seed, stream, index) >> 11) * (1.0 / 9007199254740992.0);
}

/* hroe.prng(seed, stream, i): uniform float8 in [0, 1). */
Datum
hroe_prng(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	int32		stream = PG_GETARG_INT32(1);
	int64		index = PG_GETARG_INT64(2);

	PG_RETURN_FLOAT8(hroe_prng_draw_unit(seed, stream, index));
}

/*
 * A uniform integer in [lo, hi] (lo <= hi) for (seed, stream, index).
 *
 * The 64 random bits are scaled by a 128-bit multiplication (Lemire), so
 * the bias is below (hi - lo + 1) / 2^64.
 */
int64
hroe_prng_draw_int(int64 seed, int32 stream, int64 index, int64 lo, int64 hi)
{
	uint64		range;
	uint64		offset;

	Assert(lo <= hi);
	/* hi - lo + 1 in unsigned arithmetic; 0 means the whole int64 range */
	range = (uint64) hi - (uint64) lo + 1;
	if (range == 0)
		offset = hroe_prng_draw_bits(seed, stream, index);
	else
	{
#ifdef PG_INT128_TYPE
		offset = (uint64) (((uint128) hroe_prng_draw_bits(seed, stream, index) * range) >> 64);
#else
		/* no 128-bit integers: modulo, bias below range / 2^64 as well */
		offset = hroe_prng_draw_bits(seed, stream, index) % range;
#endif
	}
	return (int64) ((uint64) lo + offset);
}

/*
 * A rank in [1, n] (n >= 1) for (seed, stream, index), drawn as
 * k = floor((n + 1)^u) for a uniform u, so P(k) = log(1 + 1/k) / log(n + 1):
 * Zipf-like with exponent 1 (Benford's law for n = 9).
 */
int64
hroe_prng_draw_zipf(int64 seed, int32 stream, int64 index, int64 n)
{
	double		k;

	Assert(n >= 1);
	k = floor(exp(hroe_prng_draw_unit(seed, stream, index) * log((double) n + 1.0)));

	/*
	 * Rounding must not leave [1, n]; (double) n may exceed INT64_MAX, so
	 * compare before converting.
	 */
	if (!(k >= 1.0))
		return 1;
	if (k >= (double) n)
		return n;
	return (int64) k;
}

/* hroe.prng_int(seed, stream, i, lo, hi): uniform integer in [lo, hi]. */
Datum
hroe_prng_int(PG_FUNCTION_ARGS)
{
	int64		lo = PG_GETARG_INT64(3);
	int64		hi = PG_GETARG_INT64(4);

	if (lo > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lower bound %lld is greater than upper bound %lld",
						(long long) lo, (long long) hi)));
	PG_RETURN_INT64(hroe_prng_draw_int(PG_GETARG_INT64(0), PG_GETARG_INT32(1), PG_GETARG_INT64(2), lo, hi));
}

/* hroe.prng_zipf(seed, stream, i, n): a Zipf-like rank in [1, n]. */
Datum
hroe_prng_zipf(PG_FUNCTION_ARGS)
{
	int64		n = PG_GETARG_INT64(3);

	if (n < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of ranks must be at least 1, not %lld", (long long) n)));
	PG_RETURN_INT64(hroe_prng_draw_zipf(PG_GETARG_INT64(0), PG_GETARG_INT32(1), PG_GETARG_INT64(2), n));
}

/* qsort comparator for int64 */
static int
CompareInt64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

/*
 * hroe.order_line_draws(seed, order_id, products): the products of one
 * generated order, for hroe.load.
 *
 * The order has 1 + prng_int(seed, 50, order_id, 0, 4) candidate lines
 * k = 1..5, keyed 8 * order_id + k; each draws a product, half the time
 * prng_zipf(seed, 52, key, products), otherwise prng_int(seed, 55, key, 1,
 * products) (stream 51 decides).  A product drawn again in the same order
 * is dropped.  Returns the distinct products in ascending order, each
 * encoded as product * 8 + k with k the candidate that drew it first (so
 * the SQL side derives the line's other attributes from its key).
 */
Datum
hroe_order_line_draws(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	int64		order_id = PG_GETARG_INT64(1);
	int64		products = PG_GETARG_INT64(2);
	int64		lines[5];
	Datum		elems[5];
	int			nlines = 0;
	int			ncandidates;

	if (order_id < 1 || order_id > PG_INT64_MAX / 8 - 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("order id %lld is out of range", (long long) order_id)));
	if (products < 1 || products > PG_INT64_MAX / 8 - 8)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of products %lld is out of range", (long long) products)));

	ncandidates = 1 + (int) hroe_prng_draw_int(seed, 50, order_id, 0, 4);
	for (int k = 1; k <= ncandidates; k++)
	{
		int64		key = 8 * order_id + k;
		int64		product;
		bool		seen = false;

		if (hroe_prng_draw_unit(seed, 51, key) < 0.5)
			product = hroe_prng_draw_zipf(seed, 52, key, products);
		else
			product = hroe_prng_draw_int(seed, 55, key, 1, products);
		for (int j = 0; j < nlines; j++)
			seen |= (lines[j] >> 3) == product;
		if (!seen)
			lines[nlines++] = product * 8 + k;
	}
	qsort(lines, nlines, sizeof(int64), CompareInt64);
	for (int j = 0; j < nlines; j++)
		elems[j] = Int64GetDatum(lines[j]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, nlines, INT8OID, sizeof(int64),
										  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}
