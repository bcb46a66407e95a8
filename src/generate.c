/*-------------------------------------------------------------------------
 *
 * generate.c
 *	  Counter-based pseudo-random numbers for hroe's deterministic data
 *	  generator: hroe.prng, hroe.prng_int and hroe.prng_zipf.
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

#include "fmgr.h"

#include "generate.h"

PG_FUNCTION_INFO_V1(hroe_prng);
PG_FUNCTION_INFO_V1(hroe_prng_int);
PG_FUNCTION_INFO_V1(hroe_prng_zipf);

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
HroePrngBits(int64 seed, int32 stream, int64 index)
{
	uint64		z;

	z = SplitMix64((uint64) seed + HROE_GOLDEN);
	z = SplitMix64(z ^ ((uint64) (uint32) stream * HROE_STREAM_MULT));
	return SplitMix64(z + (uint64) index * HROE_GOLDEN);
}

/* A float8 in [0, 1) with 53 random bits for (seed, stream, index). */
double
HroePrngUnit(int64 seed, int32 stream, int64 index)
{
	return (double) (HroePrngBits(seed, stream, index) >> 11) * (1.0 / 9007199254740992.0);
}

/* hroe.prng(seed, stream, i): uniform float8 in [0, 1). */
Datum
hroe_prng(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	int32		stream = PG_GETARG_INT32(1);
	int64		index = PG_GETARG_INT64(2);

	PG_RETURN_FLOAT8(HroePrngUnit(seed, stream, index));
}

/*
 * hroe.prng_int(seed, stream, i, lo, hi): uniform integer in [lo, hi].
 *
 * The 64 random bits are scaled by a 128-bit multiplication (Lemire), so
 * the bias is below (hi - lo + 1) / 2^64.
 */
Datum
hroe_prng_int(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	int32		stream = PG_GETARG_INT32(1);
	int64		index = PG_GETARG_INT64(2);
	int64		lo = PG_GETARG_INT64(3);
	int64		hi = PG_GETARG_INT64(4);
	uint64		range;
	uint64		offset;

	if (lo > hi)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("lower bound %lld is greater than upper bound %lld",
						(long long) lo, (long long) hi)));
	/* hi - lo + 1 in unsigned arithmetic; 0 means the whole int64 range */
	range = (uint64) hi - (uint64) lo + 1;
	if (range == 0)
		offset = HroePrngBits(seed, stream, index);
	else
	{
#ifdef PG_INT128_TYPE
		offset = (uint64) (((uint128) HroePrngBits(seed, stream, index) * range) >> 64);
#else
		/* no 128-bit integers: modulo, bias below range / 2^64 as well */
		offset = HroePrngBits(seed, stream, index) % range;
#endif
	}
	PG_RETURN_INT64((int64) ((uint64) lo + offset));
}

/*
 * hroe.prng_zipf(seed, stream, i, n): a skewed integer in [1, n].
 *
 * k = floor((n + 1)^u) for a uniform u, so P(k) = log(1 + 1/k) / log(n + 1):
 * Zipf-like with exponent 1 (Benford's law for n = 9).  Rank 1 is the most
 * likely; the ratio of rank 1 to rank k grows like k.
 */
Datum
hroe_prng_zipf(PG_FUNCTION_ARGS)
{
	int64		seed = PG_GETARG_INT64(0);
	int32		stream = PG_GETARG_INT32(1);
	int64		index = PG_GETARG_INT64(2);
	int64		n = PG_GETARG_INT64(3);
	double		u;
	double		k;

	if (n < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("number of ranks must be at least 1, not %lld", (long long) n)));
	u = HroePrngUnit(seed, stream, index);
	k = floor(exp(u * log((double) n + 1.0)));
	/*
	 * Rounding must not leave [1, n]; (double) n may exceed INT64_MAX, so
	 * compare before converting.
	 */
	if (!(k >= 1.0))
		PG_RETURN_INT64(1);
	if (k >= (double) n)
		PG_RETURN_INT64(n);
	PG_RETURN_INT64((int64) k);
}
