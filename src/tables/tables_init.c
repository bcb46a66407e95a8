/*-------------------------------------------------------------------------
 *
 * tables_init.c
 *	  The tables layer's settings, defined when hroe's library is loaded
 *	  (hroe_tables_init, called by _PG_init): the direct access to heaps and
 *	  indexes, the region and account of ARNs, the servers of distributed
 *	  tables, the item collection size limit.
 *
 * src/tables/tables_init.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/guc.h"

#include "remote_read.h"
#include "tables.h"
#include "throttle.h"
#include "vector_index.h"

/* Define the tables layer's settings */
void
hroe_tables_init(void)
{
	DefineCustomBoolVariable("hroe.direct_access",
							 "Lets GetItem, Query and the writes that replace an item reach the indexes and the heap directly.",
							 "When on (the default), a GetItem, a Query without ExclusiveStartKey, an "
							 "unconditional PutItem of an existing item and the write of a row locked for "
							 "a conditional PutItem, an UpdateItem or a transaction skip SPI and the executor "
							 "wherever the table allows it (no row-level security; for the writes also no "
							 "trigger, rule or CHECK constraint of another form, READ COMMITTED, table-level "
							 "privileges). Off runs them as SQL statements: the same results, for comparison "
							 "or as an escape hatch.",
							 &hroe_direct_access,
							 true,
							 PGC_USERSET,
							 0,
							 NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.region",
							   "The AWS region in the ARNs of hroe's tables.",
							   "DynamoDB's TableArn and IndexArn, and the ARNs the tag operations "
							   "accept, read arn:aws:dynamodb:<hroe.region>:<hroe.account_id>:table/<name>.",
							   &hroe_region,
							   "us-east-1",
							   PGC_SUSET,
							   0,
							   hroe_check_region, NULL, NULL);
	DefineCustomStringVariable("hroe.account_id",
							   "The AWS account id (12 digits) in the ARNs of hroe's tables.",
							   "An ARN of another account or region names no table of this database: "
							   "the tag operations answer AccessDeniedException, as DynamoDB does.",
							   &hroe_account_id,
							   "123456789012",
							   PGC_SUSET,
							   0,
							   hroe_check_account_id, NULL, NULL);
	hroe_item_collection_init();
	hroe_throttle_init();
	hroe_vector_build_init();
	DefineCustomStringVariable("hroe.partition_servers",
							   "The postgres_fdw foreign servers CreateTable distributes new tables over.",
							   "A comma-separated list of foreign server names (empty, the default: "
							   "tables are local). A table created while it is set is hash-partitioned by "
							   "its partition key, one partition per server, each a hroe table there "
							   "(doc/partitioning.md).",
							   &hroe_partition_servers,
							   "",
							   PGC_USERSET,
							   GUC_LIST_INPUT,
							   NULL, NULL, NULL);
	hroe_remote_read_init();
}
