/*-------------------------------------------------------------------------
 *
 * streams.c
 *	  DynamoDB Streams' capture: the AFTER ROW trigger of a table with a
 *	  stream (hroe.stream_capture), which appends one record per changed
 *	  row to hroe.stream_records in the writing transaction.
 *
 * Every write path reaches the table through PostgreSQL's executor or, for
 * the direct writes (direct_write.c), not at all while the table has a
 * trigger: PutItem, UpdateItem, DeleteItem, the batches, the transactions,
 * the SQL functions, Time to Live's deletions and plain SQL on the table all
 * fire this trigger, once per changed row.  A write that is rolled back
 * takes its record with it; an UPDATE that leaves the item's bytes as they
 * were (hroe.item is canonical) records nothing, as DynamoDB writes no
 * record for a write that changes nothing.  Sequence numbers are given
 * later, after commit, by the readers (hroe.stream_sequence, streams.sql).
 *
 * hroe.stream_records holds the records of every table: only the
 * extension's owner reads or writes it.  The trigger switches to that owner
 * for its insert, as PostgreSQL's foreign-key triggers switch to a table's
 * owner, after checking that the stream its arguments name is the stream of
 * the table it fires on, with that stream's arguments (so that no role can
 * write into another table's stream by creating this trigger on a table of
 * its own).  What runs as that owner runs in a security-restricted operation
 * with search_path pinned to pg_catalog, pg_temp and every operator
 * schema-qualified (hroe_become): a role's own operators, first in its
 * search_path, never run as the extension's owner.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "catalog.h"
#include "item.h"
#include "streams.h"

/* set by Time to Live's deletions: their records are the service's */
bool		hroe_stream_service_delete = false;


static SPIPlanPtr InsertPlan = NULL;
static SPIPlanPtr CheckPlan = NULL;

/*
 * Capture triggers already checked to be their table's stream's (trigger,
 * stream id, table): stream ids are never reused, but for a new installation
 * of the extension (its catalog epoch), and a trigger's arguments never
 * change
 */
#define CHECKED_STREAMS 32
static struct
{
	Oid			trigger;
	int64		id;
	Oid			relid;
}			Checked[CHECKED_STREAMS];
static int	NChecked = 0;
static uint64 CheckedEpoch = 0;

/* The owner of hroe.stream_records (the extension's owner) */
Oid
hroe_streams_owner(void)
{
	return hroe_relation_owner("stream_records");
}

/*
 * A prepared statement kept for the session.  Parsed (and re-parsed by the
 * plan cache) under the pinned search_path (hroe_become): every relation,
 * function and operator is schema-qualified anyway.
 */
static SPIPlanPtr
Prepare(const char *sql, int nargs, Oid *types)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL)
		elog(ERROR, "preparing \"%s\" failed: %s", sql, SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

/* Whether a text column of the check's row is s ('' for NULL) */
static bool
ColumnIs(int col, const char *s)
{
	bool		isnull;
	Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, col, &isnull);

	return strcmp(isnull ? "" : TextDatumGetCString(d), s) == 0;
}

/*
 * Whether trigger tg of relation relid is the capture trigger of the enabled
 * stream its first argument names, with the stream's arguments (view type,
 * key names) as hroe.enable_stream creates it: hroe's catalog read by the
 * relation's OID (looked up once per session and trigger; SPI connected, as
 * the extension's owner)
 */
static bool
StreamOfTable(Trigger *tg, int64 id, Oid relid)
{
	Oid			types[2] = {INT8OID, OIDOID};
	Datum		values[2] = {Int64GetDatum(id), ObjectIdGetDatum(relid)};
	bool		ok;
	int			ret;

	if (CheckedEpoch != hroe_catalog_epoch())
	{
		NChecked = 0;
		CheckedEpoch = hroe_catalog_epoch();
	}
	for (int i = 0; i < NChecked; i++)
		if (Checked[i].trigger == tg->tgoid && Checked[i].id == id && Checked[i].relid == relid)
			return true;
	/* every operator schema-qualified; no JOIN USING, whose = is looked up */
	if (CheckPlan == NULL)
		CheckPlan = Prepare("SELECT s.view_type, t.partition_key, t.sort_key"
							" FROM hroe.streams s, hroe.tables t"
							" WHERE s.stream_id OPERATOR(pg_catalog.=) $1 AND s.disabled_at IS NULL"
							" AND t.table_name OPERATOR(pg_catalog.=) s.table_name"
							" AND t.relid::pg_catalog.oid OPERATOR(pg_catalog.=) $2", 2, types);
	ret = SPI_execute_plan(CheckPlan, values, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "looking up stream " INT64_FORMAT " failed: %s", id, SPI_result_code_string(ret));
	ok = SPI_processed == 1 && ColumnIs(1, tg->tgargs[1]) && ColumnIs(2, tg->tgargs[2]) &&
		ColumnIs(3, tg->tgargs[3]);
	if (ok && NChecked < CHECKED_STREAMS)
	{
		Checked[NChecked].trigger = tg->tgoid;
		Checked[NChecked].id = id;
		Checked[NChecked].relid = relid;
		NChecked++;
	}
	return ok;
}

/* The key attributes (names) of an item, as an item */
static HroeItem *
KeysOf(const HroeItem *item, char **names, int n)
{
	HroeBuilder *b = hroe_builder_start();
	HroeValue	map;

	hroe_item_root(item, &map);
	for (int i = 0; i < n; i++)
	{
		HroeValue	v;

		if (names[i][0] && hroe_map_find(&map, names[i], strlen(names[i]), &v))
			hroe_builder_add(b, names[i], strlen(names[i]), &v);
	}
	return hroe_builder_finish(b);
}

/* The item of a row (its column item), or NULL */
static HroeItem *
RowItem(Relation rel, HeapTuple tuple, int attno)
{
	bool		isnull;
	Datum		d;

	if (tuple == NULL)
		return NULL;
	d = heap_getattr(tuple, attno, RelationGetDescr(rel), &isnull);
	return isnull ? NULL : DatumGetHroeItemP(d);
}

PG_FUNCTION_INFO_V1(hroe_stream_capture);
/*
 * The trigger: arguments stream id, view type, partition key name, sort key
 * name ('' for none)
 */
Datum
hroe_stream_capture(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	char	  **args;
	int64		id;
	int			attno;
	HroeItem   *old = NULL,
			   *new = NULL,
			   *keys;
	bool		keep_new,
				keep_old;
	char		event;
	int64		size;
	HroeIdentity saved;
	Oid			types[8] = {INT8OID, CHAROID, BOOLOID, TIMESTAMPTZOID, INT4OID,
	hroe_item_typid(), hroe_item_typid(), hroe_item_typid()};
	Datum		values[8];
	char		nulls[8] = "        ";

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.stream_capture: not called by the trigger manager")));
	if (!TRIGGER_FIRED_AFTER(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(td->tg_event) || td->tg_trigger->tgnargs != 4)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.stream_capture must be an AFTER ROW trigger with four arguments")));
	rel = td->tg_relation;
	args = td->tg_trigger->tgargs;
	id = pg_strtoint64(args[0]);
	attno = SPI_fnumber(RelationGetDescr(rel), "item");
	if (attno <= 0 || TupleDescAttr(RelationGetDescr(rel), attno - 1)->atttypid != hroe_item_typid())
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.stream_capture: table \"%s\" has no item column of type hroe.item",
						RelationGetRelationName(rel))));

	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
	{
		event = 'I';
		new = RowItem(rel, td->tg_trigtuple, attno);
	}
	else if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		event = 'M';
		old = RowItem(rel, td->tg_trigtuple, attno);
		new = RowItem(rel, td->tg_newtuple, attno);
		/* a write that changes nothing has no record */
		if (old && new && VARSIZE(old) == VARSIZE(new) && memcmp(old, new, VARSIZE(old)) == 0)
			return PointerGetDatum(NULL);
	}
	else
	{
		event = 'R';
		old = RowItem(rel, td->tg_trigtuple, attno);
	}
	if ((old ? old : new) == NULL)
		return PointerGetDatum(NULL);

	keys = KeysOf(old ? old : new, args + 2, 2);
	keep_new = new && (strcmp(args[1], "NEW_IMAGE") == 0 || strcmp(args[1], "NEW_AND_OLD_IMAGES") == 0);
	keep_old = old && (strcmp(args[1], "OLD_IMAGE") == 0 || strcmp(args[1], "NEW_AND_OLD_IMAGES") == 0);
	size = hroe_item_size(keys) + (keep_new ? hroe_item_size(new) : 0) +
		(keep_old ? hroe_item_size(old) : 0);

	values[0] = Int64GetDatum(id);
	values[1] = CharGetDatum(event);
	values[2] = BoolGetDatum(event == 'R' && hroe_stream_service_delete);
	values[3] = TimestampTzGetDatum(GetCurrentTimestamp());
	values[4] = Int32GetDatum((int32) size);
	values[5] = PointerGetDatum(keys);
	values[6] = keep_old ? PointerGetDatum(old) : (Datum) 0;
	values[7] = keep_new ? PointerGetDatum(new) : (Datum) 0;
	if (!keep_old)
		nulls[6] = 'n';
	if (!keep_new)
		nulls[7] = 'n';

	/*
	 * As the extension's owner, in a security-restricted operation with
	 * search_path pinned: the check and the insert read and write only
	 * hroe's tables, whose triggers, defaults and constraints are the
	 * extension's, and name every operator by its schema, so no function of
	 * the caller's (an operator of a schema first in the caller's path) runs
	 * as that owner.  A trigger that is not its table's stream's is refused
	 * before anything is written.
	 */
	hroe_become(hroe_streams_owner(), &saved);
	PG_TRY();
	{
		int			ret;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (!StreamOfTable(td->tg_trigger, id, RelationGetRelid(rel)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("stream " INT64_FORMAT " is not an enabled stream of table \"%s\"",
							id, RelationGetRelationName(rel)),
					 errdetail("Trigger \"%s\" is not the capture trigger hroe.enable_stream created for this table's stream.",
							   td->tg_trigger->tgname)));
		if (InsertPlan == NULL)
			InsertPlan = Prepare("INSERT INTO hroe.stream_records (stream_id, event, service, created_at,"
								 " size_bytes, keys, old_image, new_image)"
								 " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)", 8, types);
		ret = SPI_execute_plan(InsertPlan, values, nulls, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "writing a stream record failed: %s", SPI_result_code_string(ret));
		SPI_finish();
	}
	PG_CATCH();
	{
		hroe_unbecome_on_error(&saved);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_unbecome(&saved);
	return PointerGetDatum(NULL);
}
