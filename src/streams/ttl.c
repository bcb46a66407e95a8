/*-------------------------------------------------------------------------
 *
 * ttl.c
 *	  DynamoDB's Time to Live: deleting expired items
 *	  (hroe.delete_expired_items), and the background worker that does it
 *	  at a configured pace and trims the streams.
 *
 * An item expires when its table's TTL attribute is a Number of epoch
 * seconds in the past, and not more than five years in the past (DynamoDB
 * ignores older values).  Reads still return an expired item until it is
 * deleted.  A deletion is a DELETE of the rows found expired in a range of
 * the table's blocks (a TID range scan: no index, so writes pay nothing),
 * locked FOR UPDATE SKIP LOCKED (a row a foreground write holds is left for
 * the next sweep) and checked again by the DELETE itself: an item re-written
 * with a later expiry in between is never deleted (PostgreSQL re-evaluates
 * the DELETE's condition on the newest version of a row it waited for).
 * PostgreSQL keeps the GSIs and LSIs; the stream's trigger records each
 * deletion, as the service's (hroe_stream_service_delete).  The position of
 * the sweep in each table is the backend's: the worker's, or a session's.
 *
 * The worker (one, when hroe is in shared_preload_libraries) connects to
 * the database hroe.ttl_database and, every hroe.ttl_naptime seconds,
 * deletes up to hroe.ttl_batch_size expired items of each table with Time
 * to Live enabled, each table in its own transaction, then trims the
 * streams (hroe.trim_streams) and refreshes DescribeTable's figures of the
 * large tables counted longer than hroe.statistics_interval ago
 * (src/tables/tables_statistics.c), each as its table's owner.  A background worker of the extension
 * rather than pg_cron: nothing else to install, and the pace settings
 * reload with the configuration.
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
#include "storage/bufmgr.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "access/table.h"

#include "catalog.h"
#include "dynamodb_limits.h"
#include "streams.h"
#include "ttl.h"
#include "tables.h"
#include "vector_index.h"
#include "worker.h"

char	   *hroe_ttl_database = NULL;
int			hroe_ttl_naptime = 10;
int			hroe_ttl_batch_size = 1000;

/* blocks scanned per statement */
#define TTL_BLOCKS_PER_SCAN 1024

/* DynamoDB ignores expiry times more than five years in the past */
#define TTL_MAX_AGE_SECONDS "157680000"

/* The sweep position of each table in this backend */
typedef struct SweepPosition
{
	Oid			relid;
	BlockNumber next;
} SweepPosition;

static HTAB *Positions = NULL;

static SweepPosition *
Position(Oid relid)
{
	bool		found;
	SweepPosition *p;

	if (Positions == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(SweepPosition);
		Positions = hash_create("hroe TTL sweep positions", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	}
	p = hash_search(Positions, &relid, HASH_ENTER, &found);
	if (!found)
		p->next = 0;
	return p;
}

/* A TID bound: the first tuple of block b */
static Datum
BlockStart(BlockNumber b)
{
	ItemPointer tid = palloc(sizeof(ItemPointerData));

	ItemPointerSet(tid, b, 0);
	return PointerGetDatum(tid);
}

/* The TTL attribute of an enabled table, or NULL */
static char *
TtlAttribute(const char *table)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(table)};
	bool		isnull;
	int			ret;

	ret = SPI_execute_with_args("SELECT attribute_name FROM hroe.time_to_live"
								" WHERE table_name OPERATOR(pg_catalog.=) $1 AND enabled",
								1, types, values, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.time_to_live failed: %s", SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return NULL;
	return TextDatumGetCString(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/* Run the deletion plan, its stream records the service's */
static int
ExecuteDeletion(SPIPlanPtr plan, Datum *values)
{
	volatile int ret = 0;

	hroe_stream_service_delete = true;
	PG_TRY();
	{
		hroe_push_search_path();
		ret = SPI_execute_plan(plan, values, NULL, false, 0);
		hroe_pop_search_path();
	}
	PG_FINALLY();
	{
		hroe_stream_service_delete = false;
	}
	PG_END_TRY();
	return ret;
}

/*
 * Delete up to limit expired items of table t (Time to Live attribute
 * attribute), sweeping on from where this backend's last call stopped, at
 * most once around the table (SPI connected; DeleteExpired).  The statement
 * names every function, operator and type by its schema (BETWEEN would look
 * its operators up).  Returns the number deleted.
 */
static int64
Sweep(HroeTableMeta *t, const char *attribute, int32 limit)
{
	SweepPosition *pos;
	BlockNumber nblocks;
	BlockNumber scanned = 0;
	int64		deleted = 0;
	SPIPlanPtr	plan;
	Oid			types[5] = {TIDOID, TIDOID, TEXTOID, NUMERICOID, INT4OID};
	Datum		now;
	Relation	rel;
	const char *expired = "(hroe.item_get_attribute(item, $3) OPERATOR(pg_catalog.->>) 'N')::pg_catalog.numeric";

	rel = table_open(t->relid, AccessShareLock);
	nblocks = RelationGetNumberOfBlocks(rel);
	table_close(rel, NoLock);
	now = DirectFunctionCall1(int8_numeric,
							  Int64GetDatum(GetCurrentTimestamp() / USECS_PER_SEC +
											(POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY));
	plan = SPI_prepare(psprintf("DELETE FROM %s WHERE ctid OPERATOR(pg_catalog.=) ANY (ARRAY("
								"SELECT ctid FROM %s WHERE ctid OPERATOR(pg_catalog.>=) $1"
								" AND ctid OPERATOR(pg_catalog.<) $2"
								" AND %s OPERATOR(pg_catalog.>=) ($4 OPERATOR(pg_catalog.-) " TTL_MAX_AGE_SECONDS ")"
								" AND %s OPERATOR(pg_catalog.<=) $4"
								" LIMIT $5 FOR UPDATE SKIP LOCKED))"
								" AND %s OPERATOR(pg_catalog.>=) ($4 OPERATOR(pg_catalog.-) " TTL_MAX_AGE_SECONDS ")"
								" AND %s OPERATOR(pg_catalog.<=) $4",
								t->relname, t->relname, expired, expired, expired, expired),
					   5, types);
	if (plan == NULL)
		elog(ERROR, "preparing the deletion of expired items failed: %s",
			 SPI_result_code_string(SPI_result));
	pos = Position(t->relid);
	if (pos->next >= nblocks)
		pos->next = 0;
	while (deleted < limit && scanned < nblocks)
	{
		BlockNumber end = Min(pos->next + TTL_BLOCKS_PER_SCAN, nblocks);
		Datum		values[5];
		int			ret;

		values[0] = BlockStart(pos->next);
		values[1] = BlockStart(end);
		values[2] = CStringGetTextDatum(attribute);
		values[3] = now;
		values[4] = Int32GetDatum((int32) (limit - deleted));
		ret = ExecuteDeletion(plan, values);
		if (ret != SPI_OK_DELETE)
			elog(ERROR, "deleting expired items of %s failed: %s", t->relname,
				 SPI_result_code_string(ret));
		deleted += SPI_processed;
		/* a range with more expired items than the limit: again from there */
		if (deleted >= limit)
			break;
		scanned += end - pos->next;
		pos->next = end >= nblocks ? 0 : end;
		CHECK_FOR_INTERRUPTS();
	}
	return deleted;
}

/*
 * Sweep with the privileges of role (SPI connected), as hroe_become runs
 * it: in a security-restricted operation with search_path pinned to
 * pg_catalog, pg_temp, so the table's triggers, rules and the functions they
 * call run as that role, never as the caller.  Returns the number deleted.
 */
static int64
DeleteExpired(HroeTableMeta *t, const char *attribute, int32 limit, Oid role)
{
	HroeIdentity saved;
	volatile int64 deleted = 0;

	hroe_become(role, &saved);
	PG_TRY();
	{
		deleted = Sweep(t, attribute, limit);
	}
	PG_CATCH();
	{
		hroe_unbecome_on_error(&saved);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_unbecome(&saved);
	return deleted;
}

/*
 * The table name's metadata and Time to Live attribute, or NULL without Time
 * to Live (SPI connected; hroe's catalog read as the current user)
 */
static HroeTableMeta *
TtlTable(const char *table, char **attribute)
{
	HroeTableMeta *t = hroe_table_lookup(table, false);

	/* (its rows are on other servers: no ctid names one; streams_api.c) */
	if (t->distributed)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Time to Live is not supported on distributed table %s", table)));
	*attribute = TtlAttribute(table);
	return *attribute ? t : NULL;
}

PG_FUNCTION_INFO_V1(hroe_delete_expired_items);
/*
 * hroe.delete_expired_items(table, limit): deletes up to limit expired items
 * of the table; returns the number deleted.  The caller needs DELETE on the
 * table.  The deletion runs as the table's owner when the caller has the
 * owner's privileges anyway (the owner, a member, a superuser: a scheduler
 * such as pg_cron), else as the caller: a superuser's call never runs the
 * owner's triggers as a superuser, and no caller gains a privilege.
 */
Datum
hroe_delete_expired_items(PG_FUNCTION_ARGS)
{
	char	   *table = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int32		limit = PG_GETARG_INT32(1);
	HroeTableMeta *t;
	char	   *attribute;
	Oid			owner;
	int64		deleted = 0;
	int			nestlevel;

	if (limit < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the limit of expired items to delete must be positive")));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	nestlevel = hroe_pin_search_path();
	t = TtlTable(table, &attribute);
	if (t != NULL)
	{
		AclResult	acl = pg_class_aclcheck(t->relid, GetUserId(), ACL_DELETE);

		if (acl != ACLCHECK_OK)
			aclcheck_error(acl, OBJECT_TABLE, get_rel_name(t->relid));
		owner = hroe_rel_owner(t->relid);
		deleted = DeleteExpired(t, attribute, limit,
								has_privs_of_role(GetUserId(), owner) ? owner : GetUserId());
	}
	hroe_unpin_search_path(nestlevel);
	SPI_finish();
	PG_RETURN_INT64(deleted);
}

/* ---------- the background worker ---------- */

/*
 * Run sql in a transaction of its own, as the worker, with search_path
 * pinned; the first column of its rows appended to *names (names not NULL)
 */
static void
RunInTransaction(const char *sql, List **names)
{
	int			ret;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, sql);
	/* (the transaction's end undoes it) */
	(void) hroe_pin_search_path();
	ret = SPI_execute(sql, false, 0);
	if (ret < 0)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	if (names)
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		for (uint64 i = 0; i < SPI_processed; i++)
			*names = lappend(*names, SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1));
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * Delete up to hroe.ttl_batch_size expired items of table name (SPI
 * connected): hroe's catalog read as the worker, the deletion run as the
 * table's owner (DeleteExpired), as autovacuum runs a table's maintenance
 * as its owner, so the owner's triggers never run as the worker's superuser
 */
static void
SweepTable(const char *name)
{
	HroeTableMeta *t;
	char	   *attribute;

	t = TtlTable(name, &attribute);
	if (t != NULL)
		(void) DeleteExpired(t, attribute, hroe_ttl_batch_size, hroe_rel_owner(t->relid));
}

/* The last failure logged of each table and task (the log's rate limit) */
#define FAILURE_KEY_MAX (HROE_TABLE_NAME_MAX + 64)
typedef struct FailureLog
{
	char		name[FAILURE_KEY_MAX];	/* the task and the table */
	TimestampTz logged;
	int64		suppressed;
} FailureLog;

static HTAB *Failures = NULL;

/* at most one line per table and minute */
#define TTL_FAILURE_LOG_INTERVAL_MS 60000

/*
 * task (SweepTable, hroe_refresh_statistics_as_owner: the DescribeTable
 * figures of a large table, tables_statistics.c) on table name in a
 * transaction of its own, SPI connected, search_path pinned
 */
static void
TableTransaction(void (*task) (const char *name), const char *doing, const char *name)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, psprintf("hroe: %s %s", doing, name));
	/* (the transaction's end undoes it) */
	(void) hroe_pin_search_path();
	task(name);
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/*
 * TableTransaction of task on table name, a failure (the owner's
 * trigger raising, the owner lacking a privilege, a lock timeout) logged,
 * at most once a minute per table and task, and the transaction aborted:
 * the other tables are done on, and the worker stays up
 */
static void
PerTableCaught(void (*task) (const char *name), const char *doing, const char *name)
{
	MemoryContext cxt = CurrentMemoryContext;

	PG_TRY();
	{
		TableTransaction(task, doing, name);
	}
	PG_CATCH();
	{
		ErrorData  *e;
		FailureLog *f;
		bool		found;
		char	   *key;
		TimestampTz now = GetCurrentTimestamp();

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		pgstat_report_activity(STATE_IDLE, NULL);
		if (Failures == NULL)
		{
			HASHCTL		ctl;

			ctl.keysize = sizeof(((FailureLog *) NULL)->name);
			ctl.entrysize = sizeof(FailureLog);
			Failures = hash_create("hroe TTL failures logged", 16, &ctl, HASH_ELEM | HASH_STRINGS);
		}
		/* (a longer name than any table's is cut: the key of a rate limit) */
		key = psprintf("%s %s", doing, name);
		if (strlen(key) >= sizeof(((FailureLog *) NULL)->name))
			key[sizeof(((FailureLog *) NULL)->name) - 1] = '\0';
		f = hash_search(Failures, key, HASH_ENTER, &found);
		if (!found || TimestampDifferenceExceeds(f->logged, now, TTL_FAILURE_LOG_INTERVAL_MS))
		{
			ereport(LOG,
					(errcode(e->sqlerrcode),
					 errmsg("hroe: %s table %s failed: %s", doing, name, e->message),
					 e->detail ? errdetail_internal("%s", e->detail) : 0,
					 found && f->suppressed > 0 ?
					 errhint("%lld more failures of this table in the last minute were not logged.",
							 (long long) f->suppressed) : 0));
			f->logged = now;
			f->suppressed = 0;
		}
		else
			f->suppressed++;
		FreeErrorData(e);
	}
	PG_END_TRY();
}

/* Wait for the latch (timeout ms), reloading the configuration */
static void
Nap(long timeout)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, timeout, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
	if (ConfigReloadPending)
	{
		ConfigReloadPending = false;
		ProcessConfigFile(PGC_SIGHUP);
	}
}

void
hroe_ttl_worker_main(Datum arg)
{
	char	   *database;

	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();

	/* nothing to do until a database is set */
	while (hroe_ttl_database == NULL || hroe_ttl_database[0] == '\0')
		Nap(hroe_ttl_naptime * 1000L);
	database = pstrdup(hroe_ttl_database);
	BackgroundWorkerInitializeConnection(database, NULL, 0);
	elog(LOG, "hroe Time to Live worker started in database \"%s\"", database);

	for (;;)
	{
		List	   *tables = NIL;
		ListCell   *lc;
		bool		installed;

		/* the last round's deletions to the statistics (autovacuum sees them) */
		pgstat_report_stat(true);
		Nap(hroe_ttl_naptime * 1000L);
		/* another database: start again (the postmaster restarts the worker) */
		if (hroe_ttl_database == NULL || strcmp(database, hroe_ttl_database) != 0)
		{
			elog(LOG, "hroe Time to Live worker leaves database \"%s\"", database);
			proc_exit(1);
		}
		RunInTransaction("SELECT 1 FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'hroe'", &tables);
		installed = tables != NIL;
		list_free_deep(tables);
		tables = NIL;
		if (!installed)
			continue;
		RunInTransaction("SELECT table_name FROM hroe.time_to_live WHERE enabled ORDER BY table_name", &tables);
		foreach(lc, tables)
			PerTableCaught(SweepTable, "deleting expired items of", lfirst(lc));
		list_free_deep(tables);
		tables = NIL;
		RunInTransaction("SELECT hroe.trim_streams()", NULL);
		/* point-in-time recovery's retention (pitr.sql; none before 0.3's update) */
		RunInTransaction("DO $$BEGIN IF pg_catalog.to_regprocedure('hroe.pitr_compact(interval)') IS NOT NULL"
						 " THEN PERFORM hroe.pitr_compact(); END IF; END$$", NULL);
		/*
		 * vector index builds a server restart interrupted (vector_build.c),
		 * while no build worker runs here (none before 0.3's update): an
		 * index not ACTIVE recorded before the server started, or a minute
		 * ago (a crash's restart of the server's processes)
		 */
		RunInTransaction("SELECT 1 WHERE pg_catalog.to_regclass('hroe.vector_indexes') IS NOT NULL", &tables);
		installed = tables != NIL;
		list_free_deep(tables);
		tables = NIL;
		if (installed)
			RunInTransaction("SELECT v.table_name FROM hroe.vector_indexes v"
							 " WHERE v.status OPERATOR(pg_catalog.<>) 'ACTIVE'"
							 " AND (v.created_at OPERATOR(pg_catalog.<) pg_catalog.pg_postmaster_start_time()"
							 "  OR v.created_at OPERATOR(pg_catalog.<) (pg_catalog.now() OPERATOR(pg_catalog.-) '1 minute'::pg_catalog.interval))"
							 " AND NOT EXISTS"
							 " (SELECT FROM pg_catalog.pg_stat_activity a WHERE a.backend_type OPERATOR(pg_catalog.=) '"
							 HROE_VECTOR_BUILD_WORKER_TYPE "'"
							 "  AND a.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())"
							 " GROUP BY 1 ORDER BY 1", &tables);
		foreach(lc, tables)
			PerTableCaught(hroe_vector_index_resume, "building the vector indexes of", lfirst(lc));
		list_free_deep(tables);
		tables = NIL;
		/* DescribeTable's figures of large tables, as DynamoDB's, refreshed */
		RunInTransaction(psprintf("SELECT hroe.tables_with_stale_statistics(pg_catalog.make_interval(secs => %d))",
								  hroe_statistics_interval), &tables);
		foreach(lc, tables)
			PerTableCaught(hroe_refresh_statistics_as_owner, "refreshing the statistics of", lfirst(lc));
		list_free_deep(tables);
	}
}

/* Define Time to Live's settings; register the worker */
void
hroe_ttl_init(void)
{
	BackgroundWorker worker;

	DefineCustomStringVariable("hroe.ttl_database",
							   "The database whose expired items hroe's Time to Live worker deletes (empty: none).",
							   "The worker runs when hroe is in shared_preload_libraries.",
							   &hroe_ttl_database, "", PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.ttl_naptime",
							"Seconds between two sweeps of hroe's Time to Live worker.",
							NULL, &hroe_ttl_naptime, 10, 1, 86400, PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.ttl_batch_size",
							"Expired items hroe's Time to Live worker deletes per table and sweep.",
							NULL, &hroe_ttl_batch_size, 1000, 1, 1000000, PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.statistics_interval",
							"Age after which hroe's maintenance worker counts a large table again for DescribeTable's ItemCount and TableSizeBytes.",
							"DynamoDB refreshes these figures about every six hours.",
							&hroe_statistics_interval, 6 * 60 * 60, 1, INT_MAX, PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	if (!process_shared_preload_libraries_in_progress)
		return;
	hroe_worker_prepare(&worker, "hroe_ttl_worker_main", "hroe ttl");
	snprintf(worker.bgw_name, BGW_MAXLEN, "hroe Time to Live worker");
	RegisterBackgroundWorker(&worker);
}
