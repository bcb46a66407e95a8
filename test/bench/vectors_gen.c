/*
 * test/bench/vectors_gen.c: the deterministic synthetic vectors of
 * test/bench/vectors.sh, written for COPY.
 *
 *   vectors_gen items N D C     N items as hroe.item JSON, one a line
 *   vectors_gen queries N D C   N query vectors: "q<TAB>{x,...}" (real[])
 *   vectors_gen puts N D C      N vectors: "g<TAB>[{"N": "x"}, ...]" (jsonb)
 *
 * C clusters: centroids uniform in [-1, 1]^D; an item of number g belongs
 * to cluster g % C and tenant (g / C) % 10 (every cluster has items of
 * every tenant), its vector the centroid plus Gaussian noise of standard
 * deviation 0.1 per dimension; a query is a centroid ((q * 37) % C) plus
 * the same noise.  Fixed seeds (splitmix64, Box-Muller): every run writes
 * the same bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t
next(void)
{
	uint64_t	z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
uniform(void)
{
	return (next() >> 11) * (1.0 / 9007199254740992.0);
}

static double
gaussian(void)
{
	double		u = uniform(),
				v = uniform();

	return sqrt(-2.0 * log(u + 1e-300)) * cos(2 * M_PI * v);
}

int
main(int argc, char **argv)
{
	long		n,
				d,
				c;
	float	   *centroids;
	const char *mode;

	if (argc != 5)
	{
		fprintf(stderr, "usage: %s items|queries|puts N D C\n", argv[0]);
		return 2;
	}
	mode = argv[1];
	n = atol(argv[2]);
	d = atol(argv[3]);
	c = atol(argv[4]);
	if (n < 0 || d < 1 || c < 1)
		return 2;
	centroids = malloc(sizeof(float) * d * c);
	state = 33;
	for (long i = 0; i < d * c; i++)
		centroids[i] = (float) (uniform() * 2 - 1);
	/* a stream of its own per mode: the queries are not the items */
	state = strcmp(mode, "items") == 0 ? 1 : strcmp(mode, "queries") == 0 ? 2 : 3;
	for (long g = 1; g <= n; g++)
	{
		long		k = strcmp(mode, "queries") == 0 ? (g * 37) % c : g % c;
		const float *m = centroids + k * d;

		if (strcmp(mode, "items") == 0)
			printf("{\"pk\": {\"S\": \"item%ld\"}, \"tenant\": {\"S\": \"t%ld\"}, \"v\": {\"L\": [", g, (g / c) % 10);
		else if (strcmp(mode, "queries") == 0)
			printf("%ld\t{", g);
		else
			printf("%ld\t[", g);
		for (long i = 0; i < d; i++)
		{
			float		x = (float) (m[i] + 0.1 * gaussian());

			if (strcmp(mode, "queries") == 0)
				printf("%s%.6g", i ? "," : "", x);
			else
				printf("%s{\"N\": \"%.6g\"}", i ? ", " : "", x);
		}
		puts(strcmp(mode, "items") == 0 ? "]}}" : strcmp(mode, "queries") == 0 ? "}" : "]");
	}
	return 0;
}
