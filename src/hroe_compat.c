/*-------------------------------------------------------------------------
 *
 * hroe_compat.c
 *	  The C entry points of hroe 0.2's showcase functions, forwarded to the
 *	  HR/OE showcase's own module.
 *
 * Up to 0.2 hroe's install script declared the data generator's functions
 * (hroe.prng, hroe.prng_int, hroe.prng_zipf, hroe.order_line_draws) with
 * hroe's library; since 0.3 they belong to the extension hroe_hr and its
 * library hroe_hr (models/generate.c).  A database of 0.2 keeps those
 * declarations until CREATE EXTENSION hroe_hr VERSION '0.2' and ALTER
 * EXTENSION hroe_hr UPDATE replace them (README "Updating"), and the install
 * scripts of earlier releases (upgrade/) name them too; as PostgreSQL's
 * contrib modules keep the entry points of their earlier install scripts,
 * hroe's library answers them by calling hroe_hr's functions, which it
 * loads on first use.  Nothing of the showcase is compiled in here.
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
