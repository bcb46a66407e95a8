/*-------------------------------------------------------------------------
 *
 * vector_number.h
 *	  A DynamoDB number's text as a 32-bit float, rounded exactly as strtof
 *	  rounds it, without strtof for the numbers vectors hold (vector_index.c).
 *
 * hroe stores a number as its canonical decimal text ([-]digits[.digits],
 * item.h).  When its significant digits form an integer m < 2^53 and its
 * decimal exponent e is within [-22, 22], m and 10^|e| are exact doubles,
 * so m * 10^e (or m / 10^-e) is one IEEE operation: the double d nearest
 * the number (Clinger's fast path).  Rounding d to float then gives the
 * float nearest the number, except when d is exactly halfway between two
 * floats: every such midpoint is a double (25 significant bits), and
 * rounding to the nearest double is monotonic, so no midpoint lies
 * strictly between the number and d; at a midpoint the caller falls back
 * to strtof, as it does for any other text (more than 19 significant
 * digits, an exponent out of range, a form not canonical).  Within the
 * fast path's range (1e-22 to 9e37) no float overflows or is subnormal.
 *
 * test/t_vector_number.sh checks it against strtof on millions of inputs.
 * Self-contained (no PostgreSQL header) so that the test compiles it alone.
 *
 * src/tables/vector_number.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_VECTOR_NUMBER_H
#define HROE_VECTOR_NUMBER_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The number text[0 .. len) as a float into *out, true; false when the fast
 * path cannot tell (the caller then asks strtof)
 */
static inline bool
hroe_f32_from_decimal(const char *text, size_t len, float *out)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
	};
	const char *p = text;
	const char *end = text + len;
	bool		neg = false;
	uint64_t	m = 0;
	int			digits = 0;
	int			e10 = 0;
	double		d;
	float		f;

	if (p < end && *p == '-')
	{
		neg = true;
		p++;
	}
	/* the integer part: at least one digit */
	if (p == end || *p < '0' || *p > '9')
		return false;
	for (; p < end && *p >= '0' && *p <= '9'; p++)
	{
		if (m == 0 && *p == '0')
			continue;			/* a leading zero */
		if (digits == 19)
			return false;
		m = m * 10 + (uint64_t) (*p - '0');
		digits++;
	}
	/* the fraction: a point, then at least one digit */
	if (p < end && *p == '.')
	{
		p++;
		if (p == end || *p < '0' || *p > '9')
			return false;
		for (; p < end && *p >= '0' && *p <= '9'; p++)
		{
			e10--;
			if (m == 0 && *p == '0')
				continue;		/* a zero before the first significant digit */
			if (digits == 19)
				return false;
			m = m * 10 + (uint64_t) (*p - '0');
			digits++;
		}
	}
	if (p != end)
		return false;			/* an exponent, a sign, a space: not canonical */
	if (m == 0)
	{
		*out = neg ? -0.0f : 0.0f;
		return true;
	}
	if (m > (UINT64_C(1) << 53) || e10 < -22 || e10 > 22)
		return false;
	d = e10 >= 0 ? (double) m * pow10[e10] : (double) m / pow10[-e10];
	f = (float) d;
	if ((double) f != d)
	{
		/* d strictly between f and its neighbour g towards d: a midpoint? */
		float		g = nextafterf(f, d > (double) f ? INFINITY : -INFINITY);

		if ((double) f + (double) g == 2.0 * d)
			return false;
	}
	*out = neg ? -f : f;
	return true;
}

#endif
