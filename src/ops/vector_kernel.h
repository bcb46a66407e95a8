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
 * Eight independent accumulators, one per lane of an eight-float vector
 * (GCC's and Clang's vector extensions: two SSE registers on plain x86-64,
 * one AVX register where the target has it), each summed in order, then
 * the lanes in order: no single sum is reassociated (no -ffast-math), and
 * the result is the same on every target; a short vector (n < 8) is summed
 * in order, exactly as written.
 */
#define LANES 8

typedef float HroeLanes __attribute__((vector_size(LANES * sizeof(float))));

/* (memcpy: the floats need not be aligned; pointers: no vector in an ABI) */
#define LoadLanes(v, p) memcpy(&(v), (p), sizeof(HroeLanes))

static inline float
SumLanes(const HroeLanes *v)
{
	float		t = 0;

	for (int j = 0; j < LANES; j++)
		t += (*v)[j];
	return t;
}

static inline void
DotNorm(const float4 *restrict a, const float4 *restrict b, int n, float *dot, float *nb)
{
	HroeLanes	d = {0},
				s = {0};
	float		dt,
				st;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x,
					y;

		LoadLanes(x, a + i);
		LoadLanes(y, b + i);
		d += x * y;
		s += y * y;
	}
	dt = SumLanes(&d);
	st = SumLanes(&s);
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
	HroeLanes	d = {0};
	float		dt;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x,
					y;

		LoadLanes(x, a + i);
		LoadLanes(y, b + i);
		d += x * y;
	}
	dt = SumLanes(&d);
	for (; i < n; i++)
		dt += a[i] * b[i];
	return dt;
}

static inline float
SquaredDistance(const float4 *restrict a, const float4 *restrict b, int n)
{
	HroeLanes	s = {0};
	float		t;
	int			i = 0;

	for (; i + LANES <= n; i += LANES)
	{
		HroeLanes	x,
					y;

		LoadLanes(x, a + i);
		LoadLanes(y, b + i);
		x -= y;
		s += x * x;
	}
	t = SumLanes(&s);
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
