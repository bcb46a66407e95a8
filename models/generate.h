/*-------------------------------------------------------------------------
 *
 * generate.h
 *	  Counter-based pseudo-random numbers for hroe's deterministic data
 *	  generator (hroe.load).
 *
 * A value is a pure function of (seed, stream, index): no state, so the
 * same load gives the same data whatever the plan, the parallelism or the
 * order in which rows are produced.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_GENERATE_H
#define HROE_GENERATE_H

#include "postgres.h"

/* The 64 random bits for (seed, stream, index). */
extern uint64 hroe_prng_draw_bits(int64 seed, int32 stream, int64 index);

/* A float8 in [0, 1) with 53 random bits for (seed, stream, index). */
extern double hroe_prng_draw_unit(int64 seed, int32 stream, int64 index);

/* A uniform integer in [lo, hi], lo <= hi, for (seed, stream, index). */
extern int64 hroe_prng_draw_int(int64 seed, int32 stream, int64 index, int64 lo, int64 hi);

/* A Zipf-like rank in [1, n], n >= 1, for (seed, stream, index). */
extern int64 hroe_prng_draw_zipf(int64 seed, int32 stream, int64 index, int64 n);

#endif							/* HROE_GENERATE_H */
