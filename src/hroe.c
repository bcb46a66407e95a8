/*-------------------------------------------------------------------------
 *
 * hroe.c
 *	  Module entry point of the hroe extension.
 *
 * Each type or concern lives in its own file under src/; this file only
 * holds the module magic and the load-time initialisation.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Called once when the library is loaded: reserve the hroe.* GUC prefix. */
void
_PG_init(void)
{
	MarkGUCPrefixReserved("hroe");
}
