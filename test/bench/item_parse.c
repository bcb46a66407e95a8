/*-------------------------------------------------------------------------
 *
 * item_parse.c
 *	  hroe.item's text input (hroe_item_parse) over one ~90 KB item of 300 S
 *	  attributes, N times, outside the server: the item core and
 *	  test/fuzz/shim.c, built by test/bench/item_parse.sh.
 *
 * Usage: item_parse N ESCAPES (ESCAPES 1: every other string has escapes,
 * \n \" \u00e9 and a surrogate pair; 0: none, the fast path only).  Prints
 * the input's throughput.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "item.h"
#include "shim.h"

int
main(int argc, char **argv)
{
	int			n = argc > 1 ? atoi(argv[1]) : 1000;
	int			esc = argc > 2 ? atoi(argv[2]) : 1;
	static char json[200000];
	int			len = 0;
	struct timespec t0, t1;
	sigjmp_buf	jb;

	len += sprintf(json + len, "{");
	for (int i = 1; i <= 300; i++)
	{
		len += sprintf(json + len, "%s\"a%d\": {\"S\": \"", i > 1 ? ", " : "", i);
		for (int k = 0; k < 10; k++)
			len += sprintf(json + len, "plain text with UTF-8 \xc3\xa9 \xc3\xbc ");
		if (esc && i % 2 == 0)
			len += sprintf(json + len, "\\n\\\"\\u00e9\\ud83d\\ude00 tail");
		len += sprintf(json + len, "\"}");
	}
	len += sprintf(json + len, "}");
	shim_jmp = &jb;
	if (sigsetjmp(jb, 0) != 0)
	{
		fprintf(stderr, "parse failed\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++)
	{
		(void) hroe_item_parse(json, len);
		ShimReset();
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%d bytes x %d: %.1f MB/s\n", len, n,
		   (double) len * n / 1e6 / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
	return 0;
}
