/*
 * test/vector_number/vector_number_test.c: hroe_f32_from_decimal
 * (src/tables/vector_number.h) against strtof, bit for bit, on every input
 * it answers: random canonical decimal texts of 1 to 24 significant digits
 * at every decimal position the fast path takes and beyond, the shortest and
 * the 9-digit texts of random floats, the exact midpoints between adjacent
 * floats and the decimal texts just below and above them, powers of ten,
 * zeros, and texts the fast path must leave to strtof.  Also checks that
 * the fast path answers the common forms (a vector's numbers written with
 * 6 to 9 significant digits) rather than leaving them all to strtof.
 *
 *   cc -O2 -I src/tables -o t test/vector_number/vector_number_test.c -lm && ./t [N]
 *
 * Exit status 0 if every answer equals strtof's; the mismatches printed.
 */
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vector_number.h"

static uint64_t state = UINT64_C(0x9E3779B97F4A7C15);
static long checked, answered, mismatches;

static uint64_t
next(void)
{
	/* splitmix64: deterministic */
	uint64_t	z = (state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* One text: the fast path's answer, if any, must be strtof's, bit for bit */
static int
check(const char *s)
{
	float		fast,
				slow;
	char	   *end;

	checked++;
	if (!hroe_f32_from_decimal(s, strlen(s), &fast))
		return 0;
	answered++;
	errno = 0;
	slow = strtof(s, &end);
	if (*end != '\0' || memcmp(&fast, &slow, sizeof(float)) != 0)
	{
		if (mismatches++ < 20)
			printf("MISMATCH %s: fast %a, strtof %a%s\n", s, fast, slow, *end ? " (strtof stops early)" : "");
	}
	return 1;
}

/* A decimal text of the digits digs (ndig of them) with the point before position point */
static void
decimal(char *out, int neg, const char *digs, int ndig, int point)
{
	char	   *p = out;

	if (neg)
		*p++ = '-';
	if (point <= 0)
	{
		*p++ = '0';
		*p++ = '.';
		for (int i = point; i < 0; i++)
			*p++ = '0';
		memcpy(p, digs, ndig);
		p += ndig;
	}
	else if (point >= ndig)
	{
		memcpy(p, digs, ndig);
		p += ndig;
		for (int i = ndig; i < point; i++)
			*p++ = '0';
	}
	else
	{
		memcpy(p, digs, point);
		p += point;
		*p++ = '.';
		memcpy(p, digs + point, ndig - point);
		p += ndig - point;
	}
	*p = '\0';
}

/* A float's exact decimal value, canonical (no exponent), into out */
static void
exact(char *out, size_t size, double d)
{
	char	   *dot;
	size_t		n;

	snprintf(out, size, "%.60f", d);
	dot = strchr(out, '.');
	n = strlen(out);
	while (n > 0 && out[n - 1] == '0')
		out[--n] = '\0';
	if (dot && out + n - 1 == dot)
		out[--n] = '\0';
}

int
main(int argc, char **argv)
{
	long		rounds = argc > 1 ? atol(argv[1]) : 1000000;
	char		digs[32],
				buf[512];
	long		common = 0,
				common_answered = 0;

	/* edge texts */
	{
		const char *edges[] = {
			"0", "-0", "0.0", "-0.000", "1", "-1", "16777216", "16777217", "16777218", "16777219",
			"33554433", "33554435", "9007199254740992", "9007199254740993", "0.1", "0.2", "0.3",
			"3.4028234663852886e38", "340282346638528859811704183484516925440", "1e10", "+1", " 1",
			"1.", ".5", "-", "", "1..2", "1.2.3", "0x10", "inf", "nan", "1,5", "00012.500",
			"0.00000000000000000000001", "0.0000000000000000000001", "10000000000000000000000",
			"100000000000000000000000", "1.00000005960464477539062", "1.0000000596046447753906250",
			"1.000000059604644775390625", "1.0000000596046448", "1.0000000596046447",
			"0.30000001192092896", "0.300000011920928955078125", "123456789012345678",
			"1234567890123456789", "12345678901234567890", NULL
		};

		for (int i = 0; edges[i]; i++)
			check(edges[i]);
	}
	for (long r = 0; r < rounds; r++)
	{
		uint64_t	x = next();
		int			ndig = 1 + (int) (x % 24);
		int			point = (int) ((x >> 8) % 50) - 24;
		int			neg = (int) ((x >> 16) & 1);
		float		f;
		double		mid;
		uint32_t	bits;

		/* random digits, the first nonzero */
		for (int i = 0; i < ndig; i++)
			digs[i] = (char) ('0' + (int) (next() % 10));
		if (digs[0] == '0')
			digs[0] = '1';
		decimal(buf, neg, digs, ndig, point);
		check(buf);

		/* a random finite float: its shortest, 6-, 7-, 8- and 9-digit texts */
		do
		{
			bits = (uint32_t) next();
			memcpy(&f, &bits, sizeof(f));
		} while (!isfinite(f));
		for (int prec = 6; prec <= 9; prec++)
		{
			char		e[64];
			int			exp10;
			char	   *p;
			int			n = 0;

			/* its digits and exponent, then the canonical text */
			snprintf(e, sizeof(e), "%.*e", prec - 1, fabsf(f));
			for (p = e; *p && *p != 'e'; p++)
				if (*p >= '0' && *p <= '9')
					digs[n++] = *p;
			exp10 = atoi(p + 1);
			if (exp10 > 40 || exp10 < -50)
				continue;
			decimal(buf, f < 0, digs, n, exp10 + 1);
			if (prec == 6 || prec == 9)
			{
				if (fabsf(f) >= 1e-12f && fabsf(f) <= 1e12f)
				{
					common++;
					common_answered += check(buf);
				}
				else
					check(buf);
			}
			else
				check(buf);
		}

		/* the exact midpoint between f and its upper neighbour, and just off it */
		if (isfinite(nextafterf(f, INFINITY)) && fabsf(f) < 1e30f && fabsf(f) > 1e-30f)
		{
			size_t		n;

			mid = ((double) f + (double) nextafterf(f, INFINITY)) / 2;
			exact(buf, sizeof(buf), mid);
			check(buf);
			/* a digit more or less at the end: just above or below it */
			n = strlen(buf);
			if (n + 2 < sizeof(buf))
			{
				if (!strchr(buf, '.'))
					strcat(buf, ".");
				strcat(buf, "1");
				check(buf);
				buf[strlen(buf) - 1] = '\0';
				if (buf[strlen(buf) - 1] == '.')
					buf[strlen(buf) - 1] = '\0';
			}
			/*
			 * the decimals of 10 to 16 significant digits nearest it (below:
			 * truncated; above: the last digit raised): the fast path's
			 * double may land on the midpoint itself
			 */
			{
				char		sig[80];
				int			ns = 0,
							before = 0,
							seen_point = 0,
							lead = 1;

				exact(buf, sizeof(buf), fabs(mid));
				for (char *p = buf; *p; p++)
				{
					if (*p == '.')
					{
						seen_point = 1;
						continue;
					}
					if (lead && *p == '0')
					{
						if (seen_point)
							before--;
						continue;
					}
					lead = 0;
					if (!seen_point)
						before++;
					if (ns < (int) sizeof(sig))
						sig[ns++] = *p;
				}
				for (int k = 10; k <= 16 && k < ns; k++)
				{
					memcpy(digs, sig, k);
					decimal(buf, f < 0, digs, k, before);
					check(buf);
					/* raised by one in the last place */
					for (int j = k - 1; j >= 0; j--)
					{
						if (digs[j] != '9')
						{
							digs[j]++;
							break;
						}
						digs[j] = '0';
						if (j == 0)
							k = 99;	/* 99...9 rounds up a digit: skip */
					}
					if (k < 99)
					{
						decimal(buf, f < 0, digs, k, before);
						check(buf);
					}
				}
			}
			/* a midpoint with few digits (small floats): 2^k + 1 style integers */
			snprintf(buf, sizeof(buf), "%.0f", ldexp(1.0, 24 + (int) (x % 20)) + ldexp(1.0, (int) (x % 20)));
			check(buf);
			snprintf(buf, sizeof(buf), "%.0f", ldexp(1.0, 24 + (int) (x % 20)) + 3 * ldexp(1.0, (int) (x % 20)));
			check(buf);
		}
	}
	printf("%ld texts, %ld answered by the fast path (the rest left to strtof), %ld mismatches; "
		   "floats written with 6 or 9 digits within [1e-12, 1e12]: %ld of %ld answered\n",
		   checked, answered, mismatches, common_answered, common);
	if (answered < checked / 4 || common_answered < common * 9 / 10)
	{
		printf("the fast path answers too few texts\n");
		return 1;
	}
	return mismatches == 0 ? 0 : 1;
}
