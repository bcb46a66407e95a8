/*-------------------------------------------------------------------------
 *
 * transfer_worker.c
 *	  The background workers of exports and imports: the request
 *	  (hroe.export_table, hroe.import_table) records its job and starts a
 *	  worker for it (hroe.transfer_start), which waits for the request's
 *	  transaction to commit (a rolled back request leaves no job: the
 *	  worker ends), does the job and records its outcome.
 *
 * An export reads the table in one REPEATABLE READ transaction: one
 * snapshot, taken once the request committed; its time is the export's
 * ExportTime.  A full export at a given ExportTime on a table with
 * point-in-time recovery reads instead, in that snapshot, the table's state
 * at that instant from the history (hroe.pitr_items_at, as a restore to
 * it), once every transaction committed by then is visible
 * (hroe.pitr_wait_committed); an incremental export reads the history's
 * changes in a period likewise.  The rows are read as the requesting role, under
 * SECURITY_RESTRICTED_OPERATION with search_path pinned (hroe_become), and
 * written as DynamoDB lays an export out: <prefix>/AWSDynamoDB/<ExportId>/
 * _started, data/<random>.json.gz (or .ion.gz: one {"Item": ...} per
 * line, at most HROE_EXPORT_FILE_ITEMS per file), manifest-files.json
 * (a line per data file: itemCount, md5Checksum, etag, dataFileS3Key),
 * manifest-summary.json and the manifests' .checksum files (their MD5 in
 * hex).
 *
 * An import puts each line's item with hroe.put_item as the requesting
 * role (as above), in batches, each in a subtransaction: a batch that
 * fails is done again line by line, and a line that fails (its syntax,
 * its item, its key) is counted in ErrorCount and logged, never aborting
 * the import.  Progress (ProcessedItemCount, ImportedItemCount,
 * ErrorCount, ProcessedSizeBytes) is committed every IMPORT_COMMIT_LINES
 * lines, so DescribeImport shows it.
 *
 * Each worker does one job and exits (bgw_restart_time BGW_NEVER_RESTART);
 * a failure (a file that cannot be written, a dropped table) marks the job
 * FAILED with the error as FailureCode (its SQLSTATE) and FailureMessage.
 *
 * src/transfer/transfer_worker.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/base64.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/lmgr.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/datetime.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "dynamodb_limits.h"
#include "item.h"
#include "tables.h"
#include "transfer.h"
#include "worker.h"

int			hroe_export_file_items = HROE_EXPORT_FILE_ITEMS;
int			hroe_incremental_export_min_period = HROE_INCREMENTAL_EXPORT_MIN_PERIOD;

/* what the request hands its worker (bgw_extra) */
typedef struct TransferArgs
{
	Oid			database;
	TransactionId xid;
	char		kind;			/* 'e' export, 'i' import */
} TransferArgs;

/* lines an import puts per subtransaction, and commits at */
#define IMPORT_BATCH_LINES 500
#define IMPORT_COMMIT_LINES 10000
/* the failed lines of an import logged (then only counted) */
#define IMPORT_LOGGED_ERRORS 100

PGDLLEXPORT void hroe_transfer_main(Datum arg);
static void Exec(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls, int expect);

PG_FUNCTION_INFO_V1(hroe_transfer_start);
/* hroe.transfer_start(kind, job_id): the job's worker, started */
Datum
hroe_transfer_start(PG_FUNCTION_ARGS)
{
	char	   *kind = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int64		job = PG_GETARG_INT64(1);
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	TransferArgs args;

	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(job)};
	bool		mine;

	if (strcmp(kind, "export") != 0 && strcmp(kind, "import") != 0)
		elog(ERROR, "unknown transfer kind \"%s\"", kind);
	/* only the job the caller recorded in this transaction, once */
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	Exec(psprintf("SELECT xmin FROM hroe.%ss WHERE job_id OPERATOR(pg_catalog.=) $1"
				  " AND requested_by OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_roles"
				  " WHERE rolname OPERATOR(pg_catalog.=) current_user)"
				  , kind), 1, types, values, NULL, SPI_OK_SELECT);
	mine = SPI_processed == 1 &&
		TransactionIdIsCurrentTransactionId((TransactionId) strtoul(SPI_getvalue(SPI_tuptable->vals[0],
																				 SPI_tuptable->tupdesc, 1), NULL, 10));
	SPI_finish();
	if (!mine)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("%s %lld was not requested by this transaction", kind, (long long) job)));
	memset(&args, 0, sizeof(args));
	args.database = MyDatabaseId;
	args.xid = GetTopTransactionId();
	args.kind = kind[0];
	hroe_worker_prepare(&worker, "hroe_transfer_main", kind[0] == 'e' ? "hroe export" : "hroe import");
	worker.bgw_restart_time = BGW_NEVER_RESTART;
	worker.bgw_main_arg = Int64GetDatum(job);
	snprintf(worker.bgw_name, BGW_MAXLEN, "hroe %s %lld", kind, (long long) job);
	StaticAssertStmt(sizeof(TransferArgs) <= BGW_EXTRALEN, "TransferArgs too large");
	memcpy(worker.bgw_extra, &args, sizeof(args));
	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("could not start the %s worker", kind),
				 errhint("Raise max_worker_processes.")));
	PG_RETURN_VOID();
}

/* ---------- transactions of the worker ---------- */

static void
Begin(bool repeatable)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (repeatable)
		XactIsoLevel = XACT_REPEATABLE_READ;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	(void) hroe_pin_search_path();
}

static void
Commit(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

static void
Exec(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls, int expect)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 0);

	if (ret != expect)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
}

/* Column col of the first row as a string in TopMemoryContext, or NULL */
static char *
Col(int col)
{
	char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col);

	return v ? MemoryContextStrdup(TopMemoryContext, v) : NULL;
}

/* Mark job FAILED (kind's table) with error e, in a transaction of its own */
static void
MarkFailed(const char *table, const char *status_col, int64 job, ErrorData *e)
{
	Oid			types[3] = {INT8OID, TEXTOID, TEXTOID};
	Datum		values[3];

	values[0] = Int64GetDatum(job);
	/* (an S3 endpoint's error: its code, as DynamoDB's S3AccessDenied) */
	values[1] = CStringGetTextDatum(hroe_s3_last_error_code[0] ? hroe_s3_last_error_code :
									unpack_sql_state(e->sqlerrcode));
	values[2] = CStringGetTextDatum(e->message ? e->message : "failed");
	Begin(false);
	Exec(psprintf("UPDATE hroe.%s SET %s = 'FAILED', end_time = pg_catalog.clock_timestamp(),"
				  " failure_code = $2, failure_message = $3 WHERE job_id OPERATOR(pg_catalog.=) $1",
				  table, status_col), 3, types, values, NULL, SPI_OK_UPDATE);
	Commit();
}

/* The error being handled, copied, the transaction aborted */
static ErrorData *
Caught(MemoryContext cxt)
{
	ErrorData  *e;

	MemoryContextSwitchTo(cxt);
	e = CopyErrorData();
	FlushErrorState();
	AbortCurrentTransaction();
	return e;
}

static char *
RandomName(void)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char bytes[26];
	char	   *s = palloc(27);

	if (!pg_strong_random(bytes, sizeof(bytes)))
		elog(ERROR, "could not generate a random file name");
	for (int i = 0; i < 26; i++)
		s[i] = alphabet[bytes[i] % 36];
	s[26] = '\0';
	return s;
}

static char *
Hex(const unsigned char *md5)
{
	char	   *s = palloc(33);

	hex_lower(md5, 16, s);
	return s;
}

static char *
Base64(const unsigned char *md5)
{
	char	   *s = palloc(pg_b64_enc_len(16) + 1);
	int			n = pg_b64_encode((const char *) md5, 16, s, pg_b64_enc_len(16));

	s[n < 0 ? 0 : n] = '\0';
	return s;
}

/* A time as ISO 8601 in UTC, milliseconds: 2020-11-04T07:28:34.028Z */
static char *
Iso(TimestampTz t)
{
	struct pg_tm tm;
	fsec_t		fsec;

	if (timestamp2tm(t, NULL, &tm, &fsec, NULL, NULL) != 0)
		elog(ERROR, "timestamp out of range");
	return psprintf("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year, tm.tm_mon, tm.tm_mday,
					tm.tm_hour, tm.tm_min, tm.tm_sec, (int) (fsec / 1000));
}

/* ,"name":"value" (JSON-escaped) or ,"name":null */
static void
JsonMember(StringInfo out, const char *name, const char *value)
{
	appendStringInfo(out, "%s\"%s\":", out->len > 1 ? "," : "", name);
	if (value)
		escape_json(out, value);
	else
		appendStringInfoString(out, "null");
}

/* ---------- exports ---------- */

typedef struct ExportJob
{
	int64		job;
	char	   *arn;
	char	   *table;
	char	   *table_arn;
	Oid			role;
	char	   *format;
	char	   *bucket;
	char	   *prefix;
	char	   *sse;
	TimestampTz start;
	/* INCREMENTAL_EXPORT: its period and view (view NULL: a FULL_EXPORT) */
	char	   *view;
	TimestampTz from;
	TimestampTz to;
	/* a FULL_EXPORT from the history: the state at ExportTime at */
	bool		history;
	TimestampTz at;
	/* the job's memory: deleted at its end, failed or not, with the files it holds open */
	MemoryContext cxt;
} ExportJob;

typedef struct DataFile
{
	char	   *key;
	int64		items;
	unsigned char md5[16];
} DataFile;

/*
 * An incremental export's rows ($1 the table's hroe.pitr.pitr_id, $2
 * ExportFromTime, $3 ExportToTime): each key with a version committed in
 * [$2, $3) whose state just before $3 differs from its state just before
 * $2 (a state: the base image with the key's last version committed
 * before the instant over it; absent: deleted or never written); columns
 * key (the item of the key attributes, as bytea), old image, new image
 * (NULL: absent), the commit time of the last version in microseconds
 * since the Unix epoch.  Versions of one key are ordered by commit time,
 * then write order, as a restore orders them (src/streams/pitr.sql).
 */
#define INCREMENTAL_SCAN \
	"WITH w AS (" \
	" SELECT h.key, h.item, h.write_seq, h.at FROM (" \
	"  SELECT h.key, h.item, h.write_seq," \
	"   COALESCE(h.committed_at, pg_catalog.pg_xact_commit_timestamp(h.xid)) AS at" \
	"  FROM hroe.pitr_history h WHERE h.pitr_id OPERATOR(pg_catalog.=) $1) h" \
	" WHERE h.at OPERATOR(pg_catalog.<) $3)," \
	"k AS (SELECT DISTINCT w.key FROM w WHERE w.at OPERATOR(pg_catalog.>=) $2)," \
	"o AS (SELECT DISTINCT ON (w.key) w.key, w.item FROM w JOIN k ON k.key OPERATOR(pg_catalog.=) w.key" \
	" WHERE w.at OPERATOR(pg_catalog.<) $2 ORDER BY w.key, w.at DESC, w.write_seq DESC)," \
	"n AS (SELECT DISTINCT ON (w.key) w.key, w.item, w.at FROM w JOIN k ON k.key OPERATOR(pg_catalog.=) w.key" \
	" ORDER BY w.key, w.at DESC, w.write_seq DESC)," \
	"d AS (SELECT n.key, n.item AS new_image, n.at," \
	" CASE WHEN o.key IS NOT NULL THEN o.item ELSE b.item END AS old_image" \
	" FROM n LEFT JOIN o ON o.key OPERATOR(pg_catalog.=) n.key" \
	" LEFT JOIN hroe.pitr_base b ON b.pitr_id OPERATOR(pg_catalog.=) $1 AND b.key OPERATOR(pg_catalog.=) n.key)" \
	"SELECT d.key, d.old_image, d.new_image," \
	" CAST(EXTRACT(epoch FROM d.at) OPERATOR(pg_catalog.*) 1000000 AS pg_catalog.int8)" \
	" FROM d WHERE NOT ((d.old_image IS NULL AND d.new_image IS NULL)" \
	"  OR (d.old_image IS NOT NULL AND d.new_image IS NOT NULL AND d.old_image OPERATOR(hroe.=) d.new_image))" \
	" ORDER BY d.key"

/*
 * The point-in-time recovery history of an export's table, in the export's
 * snapshot, as the requesting role: its pitr_id, as long as the role may
 * read the table (else the history's row-level security would hide it
 * silently) and its base image is not later than since, the earliest
 * instant the export reads (ExportFromTime or ExportTime, named by what;
 * recovery disabled, enabled again, or the instant left the recovery
 * window since the request: an error)
 */
static Datum
HistoryPitr(ExportJob *j, TimestampTz since, const char *what)
{
	Oid			types[2] = {TEXTOID, TIMESTAMPTZOID};
	Datum		values[2];
	bool		isnull;
	Datum		id;

	values[0] = CStringGetTextDatum(j->table);
	values[1] = TimestampTzGetDatum(since);
	Exec("SELECT p.pitr_id, p.base_at OPERATOR(pg_catalog.<=) $2,"
		 " pg_catalog.has_table_privilege(t.relid, 'SELECT')"
		 " FROM hroe.pitr p JOIN hroe.tables t ON t.table_name OPERATOR(pg_catalog.=) p.table_name"
		 " WHERE p.table_name OPERATOR(pg_catalog.=) $1", 2, types, values, NULL, SPI_OK_SELECT);
	if (SPI_processed != 1)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("point-in-time recovery of table %s was disabled before its export began", j->table)));
	id = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for table %s", j->table)));
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the history of table %s no longer reaches back to the export's %s", j->table, what)));
	/* (as a restore: a version whose commit time is unknown would be left out unseen) */
	values[0] = id;
	{
		Oid			idtype[1] = {INT8OID};

		Exec("SELECT FROM hroe.pitr_history h WHERE h.pitr_id OPERATOR(pg_catalog.=) $1"
			 " AND h.committed_at IS NULL AND pg_catalog.pg_xact_commit_timestamp(h.xid) IS NULL LIMIT 1",
			 1, idtype, values, NULL, SPI_OK_SELECT);
	}
	if (SPI_processed > 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the history of table %s has versions without a commit time", j->table),
				 errhint("Point-in-time recovery needs track_commit_timestamp = on since it was enabled.")));
	return id;
}

/* An item (or the item of a key's attributes) as DynamoDB JSON jsonb */
static JsonbContainer *
ItemJsonb(HroeItem *item)
{
	JsonbParseState *st = NULL;

	return &JsonbValueToJsonb(hroe_item_push_jsonb(&st, item, false))->root;
}

/*
 * One line of an incremental export (no newline) from a row of
 * INCREMENTAL_SCAN: {"Metadata":{"WriteTimestampMicros":{"N":...}},
 * "Keys":..., "OldImage":..., "NewImage":...}, an absent image left out,
 * and the old one never with view NEW_IMAGE
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html)
 */
static void
IncrementalLine(StringInfo line, ExportJob *j, bool ion, HeapTuple row, TupleDesc desc,
				MemoryContext linecxt)
{
	MemoryContext old = MemoryContextSwitchTo(linecxt);
	bool		isnull;
	bool		old_null;
	bool		new_null;
	HroeItem   *keys = (HroeItem *) PG_DETOAST_DATUM(SPI_getbinval(row, desc, 1, &isnull));
	Datum		old_d = SPI_getbinval(row, desc, 2, &old_null);
	Datum		new_d = SPI_getbinval(row, desc, 3, &new_null);
	int64		micros = DatumGetInt64(SPI_getbinval(row, desc, 4, &isnull));
	HroeItem   *old_image = NULL;
	HroeItem   *new_image = NULL;

	if (!old_null && strcmp(j->view, "NEW_AND_OLD_IMAGES") == 0)
		old_image = DatumGetHroeItemP(old_d);
	if (!new_null)
		new_image = DatumGetHroeItemP(new_d);
	if (ion)
	{
		hroe_ion_write_record(line, ItemJsonb(keys), micros,
							  old_image ? ItemJsonb(old_image) : NULL,
							  new_image ? ItemJsonb(new_image) : NULL);
	}
	else
	{
		appendStringInfo(line, "{\"Metadata\":{\"WriteTimestampMicros\":{\"N\":\"" INT64_FORMAT "\"}},\"Keys\":", micros);
		hroe_item_write(line, keys);
		if (old_image)
		{
			appendStringInfoString(line, ",\"OldImage\":");
			hroe_item_write(line, old_image);
		}
		if (new_image)
		{
			appendStringInfoString(line, ",\"NewImage\":");
			hroe_item_write(line, new_image);
		}
		appendStringInfoChar(line, '}');
	}
	/* (line's buffer lives in its own context; what the line took, freed) */
	MemoryContextSwitchTo(old);
	MemoryContextReset(linecxt);
}

static void
Export(ExportJob *j)
{
	char	   *id = strrchr(j->arn, '/') + 1;
	char	   *base = psprintf("%s%sAWSDynamoDB/%s", j->prefix ? j->prefix : "",
								(j->prefix && j->prefix[0] && j->prefix[strlen(j->prefix) - 1] != '/') ? "/" : "", id);
	bool		ion = strcmp(j->format, "ION") == 0;
	bool		incremental = j->view != NULL;
	bool		history = incremental || j->history;
	HroeS3Bucket *b;
	List	   *files = NIL;
	int64		items = 0;
	int64		bytes = 0;
	TimestampTz export_time;
	HroeS3Writer *w = NULL;
	DataFile   *f = NULL;
	HroeIdentity saved;
	HroeTableMeta *t;
	Portal		portal;
	SPIPlanPtr	plan;
	StringInfoData line;
	StringInfoData manifest;
	StringInfoData summary;
	unsigned char md5[16];
	ListCell   *lc;
	Oid			types[4] = {INT8OID, TIMESTAMPTZOID, TIMESTAMPTZOID, INT8OID};
	Datum		values[4];
	char	   *relid;
	MemoryContext keep = AllocSetContextCreate(j->cxt, "hroe export", ALLOCSET_DEFAULT_SIZES);
	MemoryContext linecxt = AllocSetContextCreate(keep, "hroe export line", ALLOCSET_DEFAULT_SIZES);
	MemoryContext old;

	/* the files' place, as the server */
	Begin(false);
	if (!hroe_s3_role_may(j->role, true))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to export to S3 bucket %s", j->bucket)));
	/* (kept across the job's transactions) */
	old = MemoryContextSwitchTo(keep);
	b = hroe_s3_bucket_open(j->bucket);
	MemoryContextSwitchTo(old);
	hroe_s3_object_put(b, psprintf("%s/_started", base), "", 0, NULL);
	Commit();

	/*
	 * an export from the history (an incremental export's changes, a full
	 * export's state at ExportTime): every transaction that committed
	 * before its ExportToTime or at its ExportTime visible to the snapshot
	 * below
	 */
	if (history)
	{
		values[0] = TimestampTzGetDatum(incremental ? j->to : j->at);
		Begin(false);
		Exec("SELECT hroe.pitr_wait_committed($1)", 1, types + 1, values, NULL, SPI_OK_SELECT);
		Commit();
	}

	/* the rows: one snapshot, as the requesting role */
	Begin(true);
	export_time = incremental ? j->to : j->history ? j->at : GetCurrentTimestamp();
	initStringInfo(&line);
	hroe_become(j->role, &saved);
	t = hroe_table_lookup(j->table, true);
	if (t == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_TABLE),
				 errmsg("table %s was deleted before its export began", j->table)));
	relid = MemoryContextStrdup(keep, psprintf("%u", t->relid));
	if (incremental)
	{
		values[0] = HistoryPitr(j, j->from, "ExportFromTime");
		values[1] = TimestampTzGetDatum(j->from);
		values[2] = TimestampTzGetDatum(j->to);
		plan = SPI_prepare(INCREMENTAL_SCAN, 3, types);
	}
	else if (j->history)
	{
		/* (the items as a restore to ExportTime reads them) */
		values[0] = HistoryPitr(j, j->at, "ExportTime");
		values[1] = TimestampTzGetDatum(j->at);
		plan = SPI_prepare(ion ? "SELECT hroe.item_to_jsonb(s.item) FROM hroe.pitr_items_at($1, $2) AS s(item)"
						   : "SELECT s.item FROM hroe.pitr_items_at($1, $2) AS s(item)", 2, types);
	}
	else
		plan = SPI_prepare(psprintf(ion ? "SELECT hroe.item_to_jsonb(item) FROM %s" : "SELECT item FROM %s",
									t->relname), 0, NULL);
	if (plan == NULL)
		elog(ERROR, "preparing the export's scan failed: %s", SPI_result_code_string(SPI_result));
	portal = SPI_cursor_open(NULL, plan, history ? values : NULL, NULL, true);
	for (;;)
	{
		SPI_cursor_fetch(portal, true, 1000);
		if (SPI_processed == 0 && w != NULL)
			break;
		for (uint64 i = 0; i < SPI_processed || (w == NULL && i == 0); i++)
		{
			if (w == NULL || f->items >= hroe_export_file_items)
			{
				char	   *name = psprintf("%s.%s.gz", RandomName(), ion ? "ion" : "json");

				if (w)
					hroe_s3_writer_close(w, f->md5, NULL);
				/* (kept past the transaction, for the manifests) */
				old = MemoryContextSwitchTo(keep);
				f = palloc0(sizeof(DataFile));
				f->key = psprintf("%s/data/%s", base, name);
				files = lappend(files, f);
				MemoryContextSwitchTo(old);
				w = hroe_s3_object_create(b, f->key, true);
			}
			if (i >= SPI_processed)
				break;
			{
				bool		isnull;
				Datum		d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);

				resetStringInfo(&line);
				if (incremental)
					IncrementalLine(&line, j, ion, SPI_tuptable->vals[i], SPI_tuptable->tupdesc, linecxt);
				else if (ion)
					hroe_ion_write_item(&line, &DatumGetJsonbP(d)->root);
				else
				{
					appendStringInfoString(&line, "{\"Item\":");
					hroe_item_write(&line, DatumGetHroeItemP(d));
					appendStringInfoChar(&line, '}');
				}
				appendStringInfoChar(&line, '\n');
				hroe_s3_write(w, line.data, line.len);
				bytes += line.len;
				f->items++;
				items++;
			}
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	hroe_s3_writer_close(w, f->md5, NULL);
	SPI_cursor_close(portal);
	hroe_unbecome(&saved);
	Commit();

	/* the manifests */
	initStringInfo(&manifest);
	foreach(lc, files)
	{
		DataFile   *df = lfirst(lc);

		appendStringInfo(&manifest, "{\"itemCount\":" INT64_FORMAT ",\"md5Checksum\":\"%s\",\"etag\":\"%s\",\"dataFileS3Key\":",
						 df->items, Base64(df->md5), Hex(df->md5));
		escape_json(&manifest, df->key);
		appendStringInfoString(&manifest, "}\n");
	}
	hroe_s3_object_put(b, psprintf("%s/manifest-files.json", base), manifest.data, manifest.len, md5);
	hroe_s3_object_put(b, psprintf("%s/manifest-files.checksum", base), Hex(md5), 32, NULL);
	initStringInfo(&summary);
	appendStringInfoChar(&summary, '{');
	JsonMember(&summary, "version", incremental ? "2023-08-01" : "2020-06-30");
	JsonMember(&summary, "exportArn", j->arn);
	JsonMember(&summary, "startTime", Iso(j->start));
	JsonMember(&summary, "endTime", Iso(GetCurrentTimestamp()));
	JsonMember(&summary, "tableArn", j->table_arn);
	JsonMember(&summary, "tableId", relid);
	if (incremental)
	{
		JsonMember(&summary, "exportFromTime", Iso(j->from));
		JsonMember(&summary, "exportToTime", Iso(j->to));
	}
	else
		JsonMember(&summary, "exportTime", Iso(export_time));
	JsonMember(&summary, "s3Bucket", j->bucket);
	JsonMember(&summary, "s3Prefix", j->prefix);
	JsonMember(&summary, "s3SseAlgorithm", j->sse);
	JsonMember(&summary, "s3SseKmsKeyId", NULL);
	JsonMember(&summary, "manifestFilesS3Key", psprintf("%s/manifest-files.json", base));
	appendStringInfo(&summary, ",\"billedSizeBytes\":" INT64_FORMAT ",\"itemCount\":" INT64_FORMAT,
					 bytes, items);
	JsonMember(&summary, "outputFormat", j->format);
	if (incremental)
		JsonMember(&summary, "outputView", j->view);
	JsonMember(&summary, "exportType", incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
	appendStringInfoString(&summary, "}\n");
	hroe_s3_object_put(b, psprintf("%s/manifest-summary.json", base), summary.data, summary.len, md5);
	hroe_s3_object_put(b, psprintf("%s/manifest-summary.checksum", base), Hex(md5), 32, NULL);
	hroe_s3_bucket_close(b);

	{
		Oid			utypes[4] = {INT8OID, TIMESTAMPTZOID, INT8OID, INT8OID};

		values[0] = Int64GetDatum(j->job);
		values[1] = TimestampTzGetDatum(export_time);
		values[2] = Int64GetDatum(items);
		values[3] = Int64GetDatum(bytes);
		Begin(false);
		Exec("UPDATE hroe.exports SET export_status = 'COMPLETED', end_time = pg_catalog.clock_timestamp(),"
			 " export_time = $2, item_count = $3, billed_size_bytes = $4 WHERE job_id OPERATOR(pg_catalog.=) $1",
			 4, utypes, values, NULL, SPI_OK_UPDATE);
	}
	Commit();
	elog(LOG, "hroe: export %s of table %s completed: " INT64_FORMAT " items", j->arn, j->table, items);
}

static void
RunExport(int64 job)
{
	ExportJob	j = {job};
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(job)};
	MemoryContext cxt = CurrentMemoryContext;
	bool		found;

	Begin(false);
	Exec("SELECT export_arn, table_name, table_arn, requested_by, export_format, s3_bucket, s3_prefix,"
		 " s3_sse_algorithm, start_time, export_view_type, export_from_time, export_to_time,"
		 " export_from_history, export_time FROM hroe.exports"
		 " WHERE job_id OPERATOR(pg_catalog.=) $1 AND export_status OPERATOR(pg_catalog.=) 'IN_PROGRESS'",
		 1, types, values, NULL, SPI_OK_SELECT);
	found = SPI_processed == 1;
	if (found)
	{
		bool		isnull;

		j.arn = Col(1);
		j.table = Col(2);
		j.table_arn = Col(3);
		j.role = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 4, &isnull));
		j.format = Col(5);
		j.bucket = Col(6);
		j.prefix = Col(7);
		j.sse = Col(8);
		j.start = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 9, &isnull));
		j.view = Col(10);
		if (j.view)
		{
			j.from = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 11, &isnull));
			j.to = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 12, &isnull));
		}
		else
		{
			j.history = DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 13, &isnull));
			j.at = DatumGetTimestampTz(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 14, &isnull));
		}
	}
	Commit();
	if (!found)
		return;
	pgstat_report_activity(STATE_RUNNING, psprintf("hroe: exporting %s", j.table));
	j.cxt = AllocSetContextCreate(TopMemoryContext, "hroe export job", ALLOCSET_DEFAULT_SIZES);
	PG_TRY();
	{
		Export(&j);
	}
	PG_CATCH();
	{
		ErrorData  *e = Caught(cxt);

		ereport(LOG,
				(errmsg("hroe: export %s of table %s failed: %s", j.arn, j.table, e->message)));
		MarkFailed("exports", "export_status", job, e);
	}
	PG_END_TRY();
	MemoryContextDelete(j.cxt);
}

/* ---------- imports ---------- */

typedef struct ImportJob
{
	int64		job;
	char	   *arn;
	char	   *table;
	Oid			role;
	char	   *format;
	char	   *compression;
	char	   *bucket;
	char	   *prefix;
	char		delimiter;
	List	   *header;			/* CSV's HeaderList, or NIL */
	List	   *typed_names;	/* AttributeDefinitions: names */
	List	   *typed_types;	/* and their types */
	/* the figures */
	int64		processed;
	int64		imported;
	int64		errors;
	int64		size;
	SPIPlanPtr	put;
	/* the job's memory: deleted at its end, failed or not, with the files it holds open */
	MemoryContext cxt;
} ImportJob;

/* One CSV line's fields, split at delim ("..." quoted, "" a quote) */
static List *
CsvFields(const char *line, char delim, char **error)
{
	List	   *fields = NIL;
	const char *p = line;

	for (;;)
	{
		StringInfoData f;

		initStringInfo(&f);
		if (*p == '"')
		{
			p++;
			for (;;)
			{
				if (*p == '\0')
				{
					*error = "unterminated quoted field";
					return NIL;
				}
				if (*p == '"' && p[1] == '"')
				{
					appendStringInfoChar(&f, '"');
					p += 2;
				}
				else if (*p == '"')
				{
					p++;
					break;
				}
				else
					appendStringInfoChar(&f, *p++);
			}
			if (*p != delim && *p != '\0')
			{
				*error = "text after a quoted field";
				return NIL;
			}
		}
		else
			while (*p != delim && *p != '\0')
				appendStringInfoChar(&f, *p++);
		fields = lappend(fields, f.data);
		if (*p == '\0')
			break;
		p++;
	}
	return fields;
}

/* A CSV line as DynamoDB JSON: every field a String but the typed attributes' */
static char *
CsvItem(ImportJob *j, List *header, const char *line, char **error)
{
	List	   *fields = CsvFields(line, j->delimiter, error);
	StringInfoData out;
	ListCell   *h;
	ListCell   *v;

	if (fields == NIL)
		return NULL;
	if (list_length(fields) > list_length(header))
	{
		*error = "a line has more fields than the header";
		return NULL;
	}
	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	forboth(h, header, v, fields)
	{
		const char *type = "S";
		ListCell   *n;
		ListCell   *t;

		if (((char *) lfirst(v))[0] == '\0')
			continue;
		forboth(n, j->typed_names, t, j->typed_types)
			if (strcmp(lfirst(n), lfirst(h)) == 0)
				type = lfirst(t);
		if (out.len > 1)
			appendStringInfoChar(&out, ',');
		escape_json(&out, lfirst(h));
		appendStringInfo(&out, ":{\"%s\":", type);
		escape_json(&out, lfirst(v));
		appendStringInfoChar(&out, '}');
	}
	appendStringInfoChar(&out, '}');
	return out.data;
}

/* A DYNAMODB_JSON line's item: the text of its one member Item */
static Jsonb *
JsonLineItem(const char *line)
{
	Jsonb	   *j = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(line)));
	JsonbValue *item;

	if (!JB_ROOT_IS_OBJECT(j) || JB_ROOT_COUNT(j) != 1 ||
		(item = getKeyJsonValueFromContainer(&j->root, "Item", 4, NULL)) == NULL ||
		item->type != jbvBinary || !JsonContainerIsObject(item->val.binary.data))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("a line is not {\"Item\": {...}}")));
	return JsonbValueToJsonb(item);
}

/* Put one line's item (the current subtransaction's) */
static void
PutLine(ImportJob *j, List *header, const char *line)
{
	Jsonb	   *item;
	Datum		values[2];
	int			ret;

	if (strcmp(j->format, "DYNAMODB_JSON") == 0)
		item = JsonLineItem(line);
	else
	{
		char	   *error = NULL;
		char	   *text = strcmp(j->format, "ION") == 0 ? hroe_ion_read_line(line, &error)
			: CsvItem(j, header, line, &error);

		if (text == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("%s", error ? error : "invalid line")));
		item = DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
	}
	values[0] = CStringGetTextDatum(j->table);
	values[1] = JsonbPGetDatum(item);
	ret = SPI_execute_plan(j->put, values, NULL, false, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "putting an imported item failed: %s", SPI_result_code_string(ret));
}

static void
PutLines(ImportJob *j, List *header, List *lines)
{
	ListCell   *l;

	foreach(l, lines)
		PutLine(j, header, lfirst(l));
}

/* Put one line in a subtransaction of its own: a failure counted and logged */
static void
PutOne(ImportJob *j, List *header, const char *line, const char *where)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		PutLine(j, header, line);
		ReleaseCurrentSubTransaction();
		j->imported++;
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		j->errors++;
		if (j->errors <= IMPORT_LOGGED_ERRORS)
			ereport(LOG,
					(errmsg("hroe: import %s: %s: %s", j->arn, where, e->message),
					 j->errors == IMPORT_LOGGED_ERRORS ?
					 errhint("Further failed lines of this import are counted, not logged.") : 0));
		FreeErrorData(e);
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
}

/* Put lines (each with its file and number) in subtransactions; count */
static void
PutBatch(ImportJob *j, List *header, List *lines, List *where)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile bool ok = true;
	ListCell   *l;
	ListCell   *w;

	if (lines == NIL)
		return;
	if (j->put == NULL)
	{
		Oid			types[2] = {TEXTOID, JSONBOID};

		j->put = SPI_prepare("SELECT hroe.put_item($1, hroe.item_from_jsonb($2))", 2, types);
		if (j->put == NULL)
			elog(ERROR, "preparing the import's put failed: %s", SPI_result_code_string(SPI_result));
	}
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		PutLines(j, header, lines);
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		MemoryContextSwitchTo(cxt);
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		ok = false;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	if (ok)
	{
		j->imported += list_length(lines);
		return;
	}
	/* again one by one: the bad lines counted */
	forboth(l, lines, w, where)
		PutOne(j, header, lfirst(l), lfirst(w));
}

/* The figures so far, committed (the transaction of the lines too) */
static void
ImportProgress(ImportJob *j, HroeIdentity *saved, bool done)
{
	Oid			types[5] = {INT8OID, INT8OID, INT8OID, INT8OID, INT8OID};
	Datum		values[5];

	hroe_unbecome(saved);
	values[0] = Int64GetDatum(j->job);
	values[1] = Int64GetDatum(j->processed);
	values[2] = Int64GetDatum(j->imported);
	values[3] = Int64GetDatum(j->errors);
	values[4] = Int64GetDatum(j->size);
	Exec(done ? "UPDATE hroe.imports SET import_status = 'COMPLETED', end_time = pg_catalog.clock_timestamp(),"
		 " processed_item_count = $2, imported_item_count = $3, error_count = $4, processed_size_bytes = $5"
		 " WHERE job_id OPERATOR(pg_catalog.=) $1"
		 : "UPDATE hroe.imports SET processed_item_count = $2, imported_item_count = $3, error_count = $4,"
		 " processed_size_bytes = $5 WHERE job_id OPERATOR(pg_catalog.=) $1",
		 5, types, values, NULL, SPI_OK_UPDATE);
	Commit();
	if (!done)
	{
		Begin(false);
		hroe_become(j->role, saved);
		j->put = NULL;
	}
}

static void
Import(ImportJob *j)
{
	HroeS3Bucket *b;
	List	   *keys;
	ListCell   *lc;
	HroeIdentity saved;
	StringInfoData line;
	MemoryContext filecxt = AllocSetContextCreate(j->cxt, "hroe import file", ALLOCSET_DEFAULT_SIZES);
	MemoryContext batch = AllocSetContextCreate(j->cxt, "hroe import batch", ALLOCSET_DEFAULT_SIZES);
	MemoryContext old;
	int64		since_commit = 0;
	int64		done_size = 0;

	Begin(false);
	if (!hroe_s3_role_may(j->role, false))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to import from S3 bucket %s", j->bucket)));
	old = MemoryContextSwitchTo(j->cxt);
	b = hroe_s3_bucket_open(j->bucket);
	keys = hroe_s3_object_list(b, j->prefix);
	initStringInfo(&line);
	MemoryContextSwitchTo(old);
	hroe_become(j->role, &saved);
	foreach(lc, keys)
	{
		char	   *key = lfirst(lc);
		HroeS3Reader *r;
		List	   *header = j->header;
		List	   *lines = NIL;
		List	   *where = NIL;
		int64		lineno = 0;
		int64		raw = 0;
		bool		too_long;

		MemoryContextReset(filecxt);
		old = MemoryContextSwitchTo(filecxt);
		r = hroe_s3_object_open(b, key, j->compression);
		while (hroe_s3_read_line(r, &line, &too_long, &raw))
		{
			lineno++;
			if (!too_long && strspn(line.data, " \t") == (size_t) line.len)
				continue;
			if (strcmp(j->format, "CSV") == 0 && header == NIL)
			{
				char	   *error = NULL;

				MemoryContextSwitchTo(filecxt);
				header = CsvFields(line.data, j->delimiter, &error);
				if (header == NIL)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
							 errmsg("the header of \"%s\" is invalid: %s", key, error)));
				continue;
			}
			j->processed++;
			if (too_long)
			{
				j->errors++;
				if (j->errors <= IMPORT_LOGGED_ERRORS)
					ereport(LOG,
							(errmsg("hroe: import %s: %s line " INT64_FORMAT ": the line is longer than %d bytes",
									j->arn, key, lineno, HROE_IMPORT_LINE_MAX)));
				continue;
			}
			MemoryContextSwitchTo(batch);
			lines = lappend(lines, pstrdup(line.data));
			where = lappend(where, psprintf("%s line " INT64_FORMAT, key, lineno));
			if (list_length(lines) >= IMPORT_BATCH_LINES)
			{
				PutBatch(j, header, lines, where);
				since_commit += list_length(lines);
				lines = where = NIL;
				MemoryContextReset(batch);
				j->size = done_size + raw;
				if (since_commit >= IMPORT_COMMIT_LINES)
				{
					ImportProgress(j, &saved, false);
					since_commit = 0;
				}
			}
			CHECK_FOR_INTERRUPTS();
		}
		MemoryContextSwitchTo(batch);
		PutBatch(j, header, lines, where);
		MemoryContextReset(batch);
		done_size += raw;
		j->size = done_size;
		hroe_s3_reader_close(r);
		MemoryContextSwitchTo(TopMemoryContext);
	}
	hroe_s3_bucket_close(b);
	ImportProgress(j, &saved, true);
	elog(LOG, "hroe: import %s into table %s completed: " INT64_FORMAT " items imported, " INT64_FORMAT " errors",
		 j->arn, j->table, j->imported, j->errors);
}

static void
RunImport(int64 job)
{
	ImportJob	j = {job};
	Oid			types[1] = {INT8OID};
	Datum		values[1] = {Int64GetDatum(job)};
	MemoryContext cxt = CurrentMemoryContext;
	bool		found;

	Begin(false);
	Exec("SELECT import_arn, table_name, requested_by, input_format, input_compression_type, s3_bucket,"
		 " coalesce(s3_key_prefix, ''), coalesce(input_format_options->'Csv'->>'Delimiter', ',')"
		 " FROM hroe.imports"
		 " WHERE job_id OPERATOR(pg_catalog.=) $1 AND import_status OPERATOR(pg_catalog.=) 'IN_PROGRESS'",
		 1, types, values, NULL, SPI_OK_SELECT);
	found = SPI_processed == 1;
	if (found)
	{
		bool		isnull;
		MemoryContext old;

		j.arn = Col(1);
		j.table = Col(2);
		j.role = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 3, &isnull));
		j.format = Col(4);
		j.compression = Col(5);
		j.bucket = Col(6);
		j.prefix = Col(7);
		j.delimiter = Col(8)[0];
		Exec("SELECT h FROM hroe.imports, pg_catalog.jsonb_array_elements_text(input_format_options->'Csv'->'HeaderList') h"
			 " WHERE job_id OPERATOR(pg_catalog.=) $1", 1, types, values, NULL, SPI_OK_SELECT);
		old = MemoryContextSwitchTo(TopMemoryContext);
		for (uint64 i = 0; i < SPI_processed; i++)
			j.header = lappend(j.header, pstrdup(SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1)));
		MemoryContextSwitchTo(old);
		Exec("SELECT a->>'AttributeName', a->>'AttributeType' FROM hroe.imports,"
			 " pg_catalog.jsonb_array_elements(table_creation_parameters->'AttributeDefinitions') a"
			 " WHERE job_id OPERATOR(pg_catalog.=) $1", 1, types, values, NULL, SPI_OK_SELECT);
		old = MemoryContextSwitchTo(TopMemoryContext);
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			char	   *n = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
			char	   *t = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);

			if (n && t && (strcmp(t, "S") == 0 || strcmp(t, "N") == 0 || strcmp(t, "B") == 0))
			{
				j.typed_names = lappend(j.typed_names, pstrdup(n));
				j.typed_types = lappend(j.typed_types, pstrdup(t));
			}
		}
		MemoryContextSwitchTo(old);
	}
	Commit();
	if (!found)
		return;
	pgstat_report_activity(STATE_RUNNING, psprintf("hroe: importing into %s", j.table));
	j.cxt = AllocSetContextCreate(TopMemoryContext, "hroe import job", ALLOCSET_DEFAULT_SIZES);
	PG_TRY();
	{
		Import(&j);
	}
	PG_CATCH();
	{
		ErrorData  *e = Caught(cxt);

		ereport(LOG,
				(errmsg("hroe: import %s into table %s failed: %s", j.arn, j.table, e->message)));
		MarkFailed("imports", "import_status", job, e);
	}
	PG_END_TRY();
	MemoryContextDelete(j.cxt);
}

/* The worker of one export or import */
void
hroe_transfer_main(Datum arg)
{
	TransferArgs args;
	int64		job = DatumGetInt64(arg);

	memcpy(&args, MyBgworkerEntry->bgw_extra, sizeof(args));
	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	BackgroundWorkerInitializeConnectionByOid(args.database, InvalidOid, 0);

	/* the request's transaction ended: its job is there, or never will be */
	StartTransactionCommand();
	XactLockTableWait(args.xid, NULL, NULL, XLTW_None);
	CommitTransactionCommand();

	if (args.kind == 'e')
		RunExport(job);
	else
		RunImport(job);
	proc_exit(0);
}

/* The settings of exports and imports */
void
hroe_transfer_init(void)
{
	DefineCustomStringVariable("hroe.s3_root",
							   "The directory of the server standing for S3: each subdirectory a bucket of exports and imports (empty: none).",
							   "Files are written and read as the server's operating system user.",
							   &hroe_s3_root, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.s3_endpoint",
							   "An S3-compatible endpoint (http:// or https://) exports write to and imports read from, in place of hroe.s3_root (empty: none).",
							   "Path-style URLs; requests signed with SigV4 by the credentials of hroe.s3_credentials_file.",
							   &hroe_s3_endpoint, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.s3_region",
							   "The region hroe.s3_endpoint's requests are signed for.",
							   NULL, &hroe_s3_region, "us-east-1", PGC_SIGHUP, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.s3_credentials_file",
							   "The file holding the access key of hroe.s3_endpoint (aws_access_key_id and aws_secret_access_key lines, the AWS CLI's format).",
							   "Relative to the data directory; it must not be accessible by others.",
							   &hroe_s3_credentials_file, "", PGC_SIGHUP, GUC_SUPERUSER_ONLY, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.s3_timeout",
							"Seconds hroe.s3_endpoint may take to connect, or stay without sending or receiving a byte, before a request fails.",
							NULL, &hroe_s3_timeout, 60, 1, 3600, PGC_SIGHUP, GUC_UNIT_S | GUC_SUPERUSER_ONLY,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.export_file_items",
							"Items an export writes per data file.",
							NULL, &hroe_export_file_items, HROE_EXPORT_FILE_ITEMS, 1, INT_MAX, PGC_SIGHUP, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.incremental_export_min_period",
							"The shortest period of an incremental export, in seconds (DynamoDB's: 15 minutes).",
							"For tests only: DynamoDB refuses a period under 15 minutes.",
							&hroe_incremental_export_min_period, HROE_INCREMENTAL_EXPORT_MIN_PERIOD,
							1, HROE_INCREMENTAL_EXPORT_MIN_PERIOD, PGC_SUSET, GUC_UNIT_S,
							NULL, NULL, NULL);
}
