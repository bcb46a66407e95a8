/*-------------------------------------------------------------------------
 *
 * vector_build.c
 *	  The background build of a vector index UpdateTable creates on a table
 *	  holding items, as DynamoDB backfills a new index (doc/vectors.md).
 *
 * hroe.create_vector_index records such an index CREATING and starts a
 * worker (hroe.start_vector_index_build), as an export starts its own
 * (transfer_worker.c): the worker waits for the request's transaction to
 * end (a rolled back request leaves no index: the worker finds nothing to
 * build), then, for each vector index of the database not yet ACTIVE,
 * marks it BACKFILLING (DescribeTable: CREATING with Backfilling true),
 * waits hroe.vector_index_build_delay, and builds it with
 * hroe.build_vector_index as the table's owner, under
 * SECURITY_RESTRICTED_OPERATION with search_path pinned, which makes it
 * ACTIVE.  The build rewrites the table under its ACCESS EXCLUSIVE lock:
 * each item committed before it is indexed, each write after it waits and
 * is then checked and indexed as any write, so no item is lost.  A build
 * that fails (a dropped table, a full disk) leaves no index: its
 * description is deleted and the failure logged.
 *
 * A build a server restart interrupted (the index left CREATING) is
 * resumed by the maintenance worker (ttl.c: hroe_vector_index_resume) while
 * no build worker runs, or by hroe.build_vector_index.
 *
 * SearchVectors refuses an index not yet ACTIVE with DynamoDB's texts
 * (hroe_vector_index_check_searchable).
 *
 * src/tables/vector_build.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/wait_event.h"

#include "catalog.h"
#include "errors.h"
#include "vector_index.h"
#include "worker.h"

/* milliseconds an index stays BACKFILLING before its build (0: none) */
int			hroe_vector_index_build_delay = 1000;

/* what the request hands its worker (bgw_extra) */
typedef struct VectorBuildArgs
{
	Oid			database;
	TransactionId xid;
} VectorBuildArgs;

/* one index to build */
typedef struct PendingIndex
{
	char	   *table;
	char	   *index;
	Oid			owner;
} PendingIndex;

PGDLLEXPORT void hroe_vector_build_main(Datum arg);

PG_FUNCTION_INFO_V1(hroe_start_vector_index_build);
/* hroe.start_vector_index_build(table, index): the build's worker, started */
Datum
hroe_start_vector_index_build(PG_FUNCTION_ARGS)
{
	Datum		v[2] = {PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)};
	Oid			types[2] = {TEXTOID, TEXTOID};
	bool		mine;
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	VectorBuildArgs args;

	/* only for an index this transaction recorded CREATING */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT xmin FROM hroe.vector_indexes WHERE table_name OPERATOR(pg_catalog.=) $1 "
							  "AND index_name OPERATOR(pg_catalog.=) $2 AND status OPERATOR(pg_catalog.=) 'CREATING'",
							  2, types, v, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	mine = SPI_processed == 1 &&
		TransactionIdIsCurrentTransactionId((TransactionId) strtoul(SPI_getvalue(SPI_tuptable->vals[0],
																				 SPI_tuptable->tupdesc, 1),
																	NULL, 10));
	SPI_finish();
	if (!mine)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("vector index \"%s\" of table \"%s\" was not recorded by this transaction",
						TextDatumGetCString(v[1]), TextDatumGetCString(v[0]))));
	memset(&args, 0, sizeof(args));
	args.database = MyDatabaseId;
	args.xid = GetTopTransactionId();
	hroe_worker_prepare(&worker, "hroe_vector_build_main", HROE_VECTOR_BUILD_WORKER_TYPE);
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	snprintf(worker.bgw_name, BGW_MAXLEN, "hroe vector index build");
	StaticAssertStmt(sizeof(VectorBuildArgs) <= BGW_EXTRALEN, "VectorBuildArgs too large");
	memcpy(worker.bgw_extra, &args, sizeof(args));
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("could not start the vector index build worker"),
				 errhint("Raise max_worker_processes.")));
	PG_RETURN_VOID();
}

/* ---------- the worker ---------- */

static void
Begin(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
}

static void
Commit(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/* Run sql on (table, index) as p's owner; the rows it touched */
static uint64
RunAsOwner(const char *sql, PendingIndex *p, int expect)
{
	Datum		v[2] = {CStringGetTextDatum(p->table), CStringGetTextDatum(p->index)};
	Oid			types[2] = {TEXTOID, TEXTOID};
	HroeIdentity saved;
	int			ret;

	hroe_become(p->owner, &saved);
	ret = SPI_execute_with_args(sql, 2, types, v, NULL, false, 0);
	if (ret != expect)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	hroe_unbecome(&saved);
	return SPI_processed;
}

/* The vector indexes of the database not yet ACTIVE, in TopMemoryContext */
static List *
Pending(void)
{
	List	   *out = NIL;

	Begin();
	if (SPI_execute("SELECT v.table_name, v.index_name, c.relowner FROM hroe.vector_indexes v "
					"JOIN hroe.tables t ON t.table_name OPERATOR(pg_catalog.=) v.table_name "
					"JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.relid "
					"WHERE v.status OPERATOR(pg_catalog.<>) 'ACTIVE' ORDER BY v.created_at, v.table_name, v.index_name",
					true, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
		PendingIndex *p = palloc0(sizeof(PendingIndex));

		p->table = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		p->index = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
		p->owner = (Oid) strtoul(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 3), NULL, 10);
		out = lappend(out, p);
		MemoryContextSwitchTo(old);
	}
	Commit();
	return out;
}

/*
 * Wait hroe.vector_index_build_delay from start, or until the worker is
 * told to stop; a reload's new delay counts from start too
 */
static void
Delay(void)
{
	TimestampTz start = GetCurrentTimestamp();

	for (;;)
	{
		long		left;

		CHECK_FOR_INTERRUPTS();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
		}
		left = TimestampDifferenceMilliseconds(GetCurrentTimestamp(),
											   TimestampTzPlusMilliseconds(start, hroe_vector_index_build_delay));
		if (left <= 0)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, left, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
	}
}

/* Build p: BACKFILLING, the delay, then hroe.build_vector_index */
static void
Build(PendingIndex *p)
{
	MemoryContext cxt = CurrentMemoryContext;
	uint64		marked;

	Begin();
	marked = RunAsOwner("UPDATE hroe.vector_indexes SET status = 'BACKFILLING' "
						"WHERE table_name OPERATOR(pg_catalog.=) $1 AND index_name OPERATOR(pg_catalog.=) $2 "
						"AND status OPERATOR(pg_catalog.<>) 'ACTIVE'", p, SPI_OK_UPDATE);
	Commit();
	if (marked == 0)
		return;					/* built or deleted meanwhile */
	Delay();
	PG_TRY();
	{
		Begin();
		(void) RunAsOwner("SELECT hroe.build_vector_index($1, $2)", p, SPI_OK_SELECT);
		Commit();
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		ereport(WARNING,
				(errmsg("could not build vector index \"%s\" of table \"%s\": %s",
						p->index, p->table, e->message),
				 errdetail("The index is deleted.")));
		/* no index half made: its description goes too */
		Begin();
		(void) RunAsOwner("DELETE FROM hroe.vector_indexes WHERE table_name OPERATOR(pg_catalog.=) $1 "
						  "AND index_name OPERATOR(pg_catalog.=) $2 AND status OPERATOR(pg_catalog.<>) 'ACTIVE'",
						  p, SPI_OK_DELETE);
		Commit();
	}
	PG_END_TRY();
}

void
hroe_vector_build_main(Datum arg)
{
	VectorBuildArgs args;
	List	   *pending;
	ListCell   *lc;

	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	pqsignal(SIGTERM, die);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(args.database, InvalidOid, 0);

	/* the request's transaction ended: its index is there, or never will be */
	StartTransactionCommand();
	XactLockTableWait(args.xid, NULL, NULL, XLTW_None);
	CommitTransactionCommand();

	pending = Pending();
	foreach(lc, pending)
		Build(lfirst(lc));
	proc_exit(0);
}

/*
 * The vector indexes of table not yet ACTIVE, built at once (SPI connected,
 * in a transaction): the maintenance worker (ttl.c) resumes so the builds a
 * server restart interrupted, when no build worker runs
 */
void
hroe_vector_index_resume(const char *table)
{
	Datum		v[1] = {CStringGetTextDatum(table)};
	Oid			types[1] = {TEXTOID};
	List	   *pending = NIL;
	ListCell   *lc;

	if (SPI_execute_with_args("SELECT v.index_name, c.relowner FROM hroe.vector_indexes v "
							  "JOIN hroe.tables t ON t.table_name OPERATOR(pg_catalog.=) v.table_name "
							  "JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.relid "
							  "WHERE v.table_name OPERATOR(pg_catalog.=) $1 AND v.status OPERATOR(pg_catalog.<>) 'ACTIVE' "
							  "ORDER BY v.created_at, v.index_name",
							  1, types, v, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		PendingIndex *p = palloc0(sizeof(PendingIndex));

		p->table = pstrdup(table);
		p->index = pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		p->owner = (Oid) strtoul(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2), NULL, 10);
		pending = lappend(pending, p);
	}
	foreach(lc, pending)
	{
		PendingIndex *p = lfirst(lc);

		ereport(LOG,
				(errmsg("hroe: building vector index \"%s\" of table \"%s\", its build interrupted",
						p->index, p->table)));
		(void) RunAsOwner("SELECT hroe.build_vector_index($1, $2)", p, SPI_OK_SELECT);
	}
}

/*
 * SearchVectors on vector index index of table: refused until it is ACTIVE,
 * with DynamoDB's texts (not yet found while CREATING, then backfilling)
 */
void
hroe_vector_index_check_searchable(const char *table, const char *index)
{
	Datum		v[2] = {CStringGetTextDatum(table), CStringGetTextDatum(index)};
	Oid			types[2] = {TEXTOID, TEXTOID};
	char	   *status = NULL;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT status FROM hroe.vector_indexes WHERE table_name OPERATOR(pg_catalog.=) $1 "
							  "AND index_name OPERATOR(pg_catalog.=) $2",
							  2, types, v, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	if (SPI_processed == 1)
	{
		char	   *s = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		status = s && strcmp(s, "BACKFILLING") == 0 ? "B" : s && strcmp(s, "CREATING") == 0 ? "C" : NULL;
	}
	SPI_finish();
	if (status && status[0] == 'C')
		HroeValidation(psprintf("The table does not have the specified index: %s", index));
	if (status && status[0] == 'B')
		HroeValidation(psprintf("Cannot search backfilling vector index: %s", index));
}

/* The settings of vector index builds */
void
hroe_vector_build_init(void)
{
	DefineCustomIntVariable("hroe.vector_index_build_delay",
							"Milliseconds a vector index UpdateTable creates on a table holding items stays CREATING with Backfilling true before its background build.",
							"So that a client polling DescribeTable sees the statuses DynamoDB walks; 0 builds at once.",
							&hroe_vector_index_build_delay, 1000, 0, 3600000, PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
}
