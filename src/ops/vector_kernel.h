/*-------------------------------------------------------------------------
 *
 * vector_kernel.h
 *	  The f32 distance kernels of vector search (vector_search.c) and of the
 *	  IVF index's training and list assignment (vector_ivf.c)
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_VECTOR_KERNEL_H
#define HROE_VECTOR_KERNEL_H

#include <math.h>
#include <string.h>

#include "vector_search.h"

/*
 * Eight independent accumulators, in two four-float vectors (GCC's and
 * Clang's vector extensions: an SSE register each on x86-64, a NEON one on
 * arm64), each lane summed in order, then the eight lanes in order: no
 * single sum is reassociated (no -ffast-math) and the result is the same on
 * every target; a short vector (n < 8) is summed in order, exactly as
 * written.
 */
#define LANES 8

typedef float HroeLanes __attribute__((vector_size(4 * sizeof(float))));

/* (memcpy: the floats need not be aligned) */
#define LoadLanes(v, p) memcpy(&(v), (p), sizeof(HroeLanes))

/* The eight lanes' sum, in order (a macro: no vector crosses a call) */
#define SumLanes(lo, hi) \
	((((((((lo)[0] + (lo)[1]) + (lo)[2]) + (lo)[3]) + (hi)[0]) + (hi)[1]) + (hi)[2]) + (hi)[3])

static inline void
DotNorm(const float4 *restrict a, const float4 *restrict b, int n, float *dot, float *nb)
{
	HroeLanes	d0 = {0},
				d1 = {0},
				s0 = {0},
				s1 = {0};
	float		dt,
				st;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x0,
					x1,
					y0,
					y1;

		LoadLanes(x0, a + i);
		LoadLanes(x1, a + i + 4);
		LoadLanes(y0, b + i);
		LoadLanes(y1, b + i + 4);
		d0 += x0 * y0;
		d1 += x1 * y1;
		s0 += y0 * y0;
		s1 += y1 * y1;
	}
	dt = SumLanes(d0, d1);
	st = SumLanes(s0, s1);
	for (; i < n; i++)
	{
		dt += a[i] * b[i];
		st += b[i] * b[i];
	}
	*dot = dt;
	*nb = st;
}

/* The dot product alone */
static inline float
Dot(const float4 *restrict a, const float4 *restrict b, int n)
{
	HroeLanes	d0 = {0},
				d1 = {0};
	float		dt;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x0,
					x1,
					y0,
					y1;

		LoadLanes(x0, a + i);
		LoadLanes(x1, a + i + 4);
		LoadLanes(y0, b + i);
		LoadLanes(y1, b + i + 4);
		d0 += x0 * y0;
		d1 += x1 * y1;
	}
	dt = SumLanes(d0, d1);
	for (; i < n; i++)
		dt += a[i] * b[i];
	return dt;
}

/*
 * Four at once: the dot products of v with c0..c3 (Dot4), or their squared
 * distances (SquaredDistance4), into out[0..3].  Each is computed exactly as
 * Dot(v, ck) or SquaredDistance(ck, v) computes it, lane for lane and in the
 * same order (a product or a squared difference is the same whichever
 * operand comes first), so the results are the same bits; the four
 * independent sums only keep the processor busier (the IVF list assignment
 * of a write: the vector against every centroid).  Named accumulators, one
 * loop body per kernel: the compiler keeps them in registers.
 */
#define KERNEL4(name, STEP, TAIL) \
static inline void \
name(const float4 *restrict v, const float4 *c0, const float4 *c1, const float4 *c2, \
	 const float4 *c3, int n, float out[4]) \
{ \
	HroeLanes	a00 = {0}, a01 = {0}, a10 = {0}, a11 = {0}, \
				a20 = {0}, a21 = {0}, a30 = {0}, a31 = {0}; \
	HroeLanes	x0, x1, y0, y1; \
	float		t0, t1, t2, t3; \
	int			i = 0; \
 \
	for (; i + LANES <= n; i += LANES) \
	{ \
		LoadLanes(x0, v + i); \
		LoadLanes(x1, v + i + 4); \
		STEP(c0, a00, a01); \
		STEP(c1, a10, a11); \
		STEP(c2, a20, a21); \
		STEP(c3, a30, a31); \
	} \
	t0 = SumLanes(a00, a01); \
	t1 = SumLanes(a10, a11); \
	t2 = SumLanes(a20, a21); \
	t3 = SumLanes(a30, a31); \
	for (; i < n; i++) \
	{ \
		t0 += TAIL(c0); \
		t1 += TAIL(c1); \
		t2 += TAIL(c2); \
		t3 += TAIL(c3); \
	} \
	out[0] = t0; \
	out[1] = t1; \
	out[2] = t2; \
	out[3] = t3; \
}

#define DOT4_STEP(ck, lo, hi) \
	(LoadLanes(y0, (ck) + i), LoadLanes(y1, (ck) + i + 4), lo += x0 * y0, hi += x1 * y1)
#define DOT4_TAIL(ck) (v[i] * (ck)[i])
#define SQ4_STEP(ck, lo, hi) \
	(LoadLanes(y0, (ck) + i), LoadLanes(y1, (ck) + i + 4), y0 -= x0, y1 -= x1, lo += y0 * y0, hi += y1 * y1)
#define SQ4_TAIL(ck) (((ck)[i] - v[i]) * ((ck)[i] - v[i]))

KERNEL4(Dot4, DOT4_STEP, DOT4_TAIL)
KERNEL4(SquaredDistance4, SQ4_STEP, SQ4_TAIL)

#undef KERNEL4
#undef DOT4_STEP
#undef DOT4_TAIL
#undef SQ4_STEP
#undef SQ4_TAIL

static inline float
SquaredDistance(const float4 *restrict a, const float4 *restrict b, int n)
{
	HroeLanes	s0 = {0},
				s1 = {0};
	float		t;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x0,
					x1,
					y0,
					y1;

		LoadLanes(x0, a + i);
		LoadLanes(x1, a + i + 4);
		LoadLanes(y0, b + i);
		LoadLanes(y1, b + i + 4);
		x0 -= y0;
		x1 -= y1;
		s0 += x0 * x0;
		s1 += x1 * x1;
	}
	t = SumLanes(s0, s1);
	for (; i < n; i++)
		t += (a[i] - b[i]) * (a[i] - b[i]);
	return t;
}

/* The squared norm of a */
static inline float
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

#endif
