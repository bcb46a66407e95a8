/*-------------------------------------------------------------------------
 *
 * tables_statistics.c
 *	  DescribeTable's ItemCount and TableSizeBytes of a large table, kept in
 *	  hroe.table_statistics (src/tables/tables_meta.sql) and refreshed by
 *	  hroe's maintenance worker (src/streams/ttl.c) as each table's owner.
 *
 * DynamoDB refreshes these figures about every six hours
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html);
 * hroe.table_statistics() reads a large table's from its last refresh, so
 * that DescribeTable costs a lookup whatever the table's size.  A refresh
 * counts the whole table: it runs as the table's owner (whose row-level
 * security policy lets it write the figures), in a security-restricted
 * operation with search_path pinned, as autovacuum runs a table's ANALYZE.
 *
 * src/tables/tables_statistics.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "tables.h"

/* DynamoDB's six hours, in seconds: hroe.statistics_interval's default */
int			hroe_statistics_interval = 6 * 60 * 60;

/*
 * Refresh the statistics of table name (SPI connected, in a transaction,
 * search_path pinned) with the privileges of its owner.  A table dropped
 * meanwhile is skipped.
 */
void
hroe_refresh_statistics_as_owner(const char *name)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		values[1];
	bool		isnull;
	Oid			relid;
	int			ret;
	HroeIdentity saved;

	values[0] = CStringGetTextDatum(name);
	ret = SPI_execute_with_args("SELECT relid FROM hroe.tables WHERE table_name OPERATOR(pg_catalog.=) $1",
								1, argtypes, values, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.tables failed: %s", SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return;
	relid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));

	hroe_become(hroe_rel_owner(relid), &saved);
	PG_TRY();
	{
		ret = SPI_execute_with_args("SELECT hroe.refresh_table_statistics($1)",
									1, argtypes, values, NULL, false, 0);
		if (ret != SPI_OK_SELECT)
			elog(ERROR, "refreshing the statistics of %s failed: %s", name,
				 SPI_result_code_string(ret));
	}
	PG_CATCH();
	{
		hroe_unbecome_on_error(&saved);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_unbecome(&saved);
}
