/*-------------------------------------------------------------------------
 *
 * pitr.c
 *	  Point-in-time recovery's capture (doc/backups.md): the AFTER ROW
 *	  trigger of a table with point-in-time recovery enabled
 *	  (hroe.pitr_capture), which appends each new version of an item (its
 *	  new image, or a tombstone) to hroe.pitr_history in the writing
 *	  transaction, with that transaction's top-level xid: the version
 *	  belongs to the instant the transaction committed
 *	  (pg_xact_commit_timestamp, track_commit_timestamp), and a rolled-back
 *	  write takes its version with it.
 *
 * As streams.c's capture, every write path reaches the table through
 * PostgreSQL's executor (a table with a trigger has no direct writes,
 * direct_write.c): PutItem, UpdateItem, DeleteItem, the batches, the
 * transactions, PartiQL, the SQL functions, Time to Live's deletions and
 * plain SQL fire it once per changed row.
 *
 * hroe.pitr_history holds the versions of every protected table: the
 * trigger switches to its owner (the extension's owner) for the insert, in
 * a security-restricted operation with search_path pinned (hroe_become),
 * after checking in hroe's catalog that the history its arguments name is
 * the one of the table it fires on.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "catalog.h"
#include "item.h"

static SPIPlanPtr InsertPlan = NULL;
static SPIPlanPtr CheckPlan = NULL;

/* Capture triggers already checked (trigger, history id, table) */
#define CHECKED_PITR 32
static struct
{
	Oid			trigger;
	int64		id;
	Oid			relid;
}			Checked[CHECKED_PITR];
static int	NChecked = 0;
static uint64 CheckedEpoch = 0;

/* A prepared statement kept for the session (every name schema-qualified) */
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

/*
 * Whether trigger tg of relation relid is the capture trigger
 * hroe.update_continuous_backups created for the history id, with its key
 * names (SPI connected, as the extension's owner)
 */
static bool
HistoryOfTable(Trigger *tg, int64 id, Oid relid)
{
	Oid			types[4] = {INT8OID, OIDOID, TEXTOID, TEXTOID};
	Datum		values[4];
	bool		ok;
	int			ret;

	/* a new installation of the extension: its tables and types are new */
	if (CheckedEpoch != hroe_catalog_epoch())
	{
		NChecked = 0;
		if (CheckPlan)
			SPI_freeplan(CheckPlan);
		if (InsertPlan)
			SPI_freeplan(InsertPlan);
		CheckPlan = InsertPlan = NULL;
		CheckedEpoch = hroe_catalog_epoch();
	}
	for (int i = 0; i < NChecked; i++)
		if (Checked[i].trigger == tg->tgoid && Checked[i].id == id && Checked[i].relid == relid)
			return true;
	if (CheckPlan == NULL)
		CheckPlan = Prepare("SELECT 1 FROM hroe.pitr p, hroe.tables t"
							" WHERE p.pitr_id OPERATOR(pg_catalog.=) $1"
							" AND t.table_name OPERATOR(pg_catalog.=) p.table_name"
							" AND t.relid::pg_catalog.oid OPERATOR(pg_catalog.=) $2"
							" AND t.partition_key OPERATOR(pg_catalog.=) $3"
							" AND COALESCE(t.sort_key, '') OPERATOR(pg_catalog.=) $4",
							4, types);
	values[0] = Int64GetDatum(id);
	values[1] = ObjectIdGetDatum(relid);
	values[2] = CStringGetTextDatum(tg->tgargs[1]);
	values[3] = CStringGetTextDatum(tg->tgargs[2]);
	ret = SPI_execute_plan(CheckPlan, values, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "looking up history " INT64_FORMAT " failed: %s", id, SPI_result_code_string(ret));
	ok = SPI_processed == 1;
	if (ok && NChecked < CHECKED_PITR)
	{
		Checked[NChecked].trigger = tg->tgoid;
		Checked[NChecked].id = id;
		Checked[NChecked].relid = relid;
		NChecked++;
	}
	return ok;
}

/*
 * The key of an item (the attributes pk and sk, sk "" for none) as bytea:
 * the bytes of the item of its key attributes (canonical, so equal keys
 * have equal bytes)
 */
static bytea *
KeyBytes(const HroeItem *item, const char *pk, const char *sk)
{
	HroeBuilder *b = hroe_builder_start();
	HroeValue	map;
	HroeValue	v;
	HroeItem   *keys;
	bytea	   *out;
	const char *names[2] = {pk, sk};

	hroe_item_root(item, &map);
	for (int i = 0; i < 2; i++)
		if (names[i][0] && hroe_map_find(&map, names[i], strlen(names[i]), &v))
			hroe_builder_add(b, names[i], strlen(names[i]), &v);
	keys = hroe_builder_finish(b);
	out = (bytea *) palloc(VARSIZE(keys));
	memcpy(out, keys, VARSIZE(keys));
	return out;
}

PG_FUNCTION_INFO_V1(hroe_pitr_key);
/* hroe.pitr_key(item, partition key name, sort key name or ''): KeyBytes (STRICT) */
Datum
hroe_pitr_key(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	char	   *pk = text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *sk = text_to_cstring(PG_GETARG_TEXT_PP(2));

	PG_RETURN_BYTEA_P(KeyBytes(item, pk, sk));
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

/* Append one version (item NULL: a tombstone) of key; SPI connected */
static void
AppendVersion(int64 id, bytea *key, HroeItem *item)
{
	Oid			types[4] = {INT8OID, XIDOID, BYTEAOID, hroe_item_typid()};
	Datum		values[4];
	char		nulls[4] = "   ";
	int			ret;

	values[0] = Int64GetDatum(id);
	values[1] = TransactionIdGetDatum(GetTopTransactionId());
	values[2] = PointerGetDatum(key);
	values[3] = item ? PointerGetDatum(item) : (Datum) 0;
	if (item == NULL)
		nulls[3] = 'n';
	if (InsertPlan == NULL)
		InsertPlan = Prepare("INSERT INTO hroe.pitr_history (pitr_id, xid, key, item)"
							 " VALUES ($1, $2, $3, $4)", 4, types);
	ret = SPI_execute_plan(InsertPlan, values, nulls, false, 0);
	if (ret != SPI_OK_INSERT)
		elog(ERROR, "writing a point-in-time recovery version failed: %s", SPI_result_code_string(ret));
}

static bool
SameBytes(const void *a, const void *b)
{
	return VARSIZE(a) == VARSIZE(b) && memcmp(a, b, VARSIZE(a)) == 0;
}

PG_FUNCTION_INFO_V1(hroe_pitr_capture);
/*
 * The trigger: arguments history id (hroe.pitr.pitr_id), partition key
 * name, sort key name ('' for none)
 */
Datum
hroe_pitr_capture(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	char	  **args;
	int64		id;
	int			attno;
	HroeItem   *old = NULL;
	HroeItem   *volatile new = NULL;
	bytea	   *volatile old_key = NULL;
	bytea	   *volatile new_key = NULL;
	HroeIdentity saved;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.pitr_capture: not called by the trigger manager")));
	if (!TRIGGER_FIRED_AFTER(td->tg_event) || !TRIGGER_FIRED_FOR_ROW(td->tg_event) ||
		TRIGGER_FIRED_BY_TRUNCATE(td->tg_event) || td->tg_trigger->tgnargs != 3)
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.pitr_capture must be an AFTER ROW trigger with three arguments")));
	rel = td->tg_relation;
	args = td->tg_trigger->tgargs;
	id = pg_strtoint64(args[0]);
	attno = SPI_fnumber(RelationGetDescr(rel), "item");
	if (attno <= 0 || TupleDescAttr(RelationGetDescr(rel), attno - 1)->atttypid != hroe_item_typid())
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.pitr_capture: table \"%s\" has no item column of type hroe.item",
						RelationGetRelationName(rel))));

	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
		new = RowItem(rel, td->tg_trigtuple, attno);
	else if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		old = RowItem(rel, td->tg_trigtuple, attno);
		new = RowItem(rel, td->tg_newtuple, attno);
		/* a write that changes nothing makes no version */
		if (old && new && SameBytes(old, new))
			return PointerGetDatum(NULL);
	}
	else
		old = RowItem(rel, td->tg_trigtuple, attno);
	if (old)
		old_key = KeyBytes(old, args[1], args[2]);
	if (new)
		new_key = KeyBytes(new, args[1], args[2]);

	/*
	 * As the extension's owner, in a security-restricted operation with
	 * search_path pinned: the check and the insert touch only hroe's
	 * tables and name every operator by its schema.  A trigger that is not
	 * the table's capture trigger is refused before anything is written.
	 */
	hroe_become(hroe_relation_owner("pitr_history"), &saved);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		if (!HistoryOfTable(td->tg_trigger, id, RelationGetRelid(rel)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("point-in-time recovery " INT64_FORMAT " is not enabled on table \"%s\"",
							id, RelationGetRelationName(rel)),
					 errdetail("Trigger \"%s\" is not the capture trigger hroe.update_continuous_backups created for this table.",
							   td->tg_trigger->tgname)));
		/* an update that moves the item to another key removes the old one */
		if (old_key && (new_key == NULL || !SameBytes(old_key, new_key)))
			AppendVersion(id, old_key, NULL);
		if (new_key)
			AppendVersion(id, new_key, new);
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
