/*-------------------------------------------------------------------------
 *
 * hroe_legacy.c
 *	  The showcase's generator entry points under the names the released
 *	  install scripts give them in hroe's library.
 *
 * The released scripts (upgrade/hroe--0.1.sql, hroe--0.2.sql) declare the
 * showcase's generator functions (hroe.prng, hroe.prng_int, hroe.prng_zipf,
 * hroe.order_line_draws) with hroe's library; since 0.3 they are the
 * extension hroe_hr's, in its own library (models/generate.c), until CREATE
 * EXTENSION hroe_hr VERSION '0.2' and ALTER EXTENSION hroe_hr UPDATE point
 * them there (README "Updating").  These four entry points load hroe_hr's
 * functions on first use and call them; nothing of the showcase is compiled
 * in here.  The key, item and collection functions' old names (item_in,
 * key_cmp, ...) are in src/legacy/, built only with make HROE_LEGACY=1.
 *
 * src/hroe_legacy.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

/*
 * One entry point: the function of the same name in hroe_hr's library,
 * looked up once per backend (an error if hroe_hr is not installed), called
 * with the caller's arguments.
 */
#define HROE_FORWARD(name) \
	PG_FUNCTION_INFO_V1(name); \
	Datum \
	name(PG_FUNCTION_ARGS) \
	{ \
		static PGFunction target = NULL; \
		\
		if (target == NULL) \
			target = load_external_function("$libdir/hroe_hr", #name, true, NULL); \
		return target(fcinfo); \
	}

HROE_FORWARD(hroe_prng)
HROE_FORWARD(hroe_prng_int)
HROE_FORWARD(hroe_prng_zipf)
HROE_FORWARD(hroe_order_line_draws)
