/*-------------------------------------------------------------------------
 *
 * hroe.c
 *	  Module entry point of the hroe extension.
 *
 * Each layer lives in its own folder under src/ (doc/architecture.md); this
 * file holds the module magic and the load-time initialisation, which
 * calls each folder's own initialiser.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "http_server.h"
#include "ttl.h"
#include "contributor_insights.h"
#include "transfer.h"
#include "tables.h"
#include "vector_search.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/* Called once when the library is loaded: define hroe's settings, reserve the prefix */
void
_PG_init(void)
{
	hroe_tables_init();
	hroe_ttl_init();
	hroe_transfer_init();
	hroe_http_init();
	hroe_contributor_insights_init();
	hroe_vector_search_init();
	MarkGUCPrefixReserved("hroe");
}
