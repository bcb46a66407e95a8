/*-------------------------------------------------------------------------
 *
 * tables_collection.c
 *	  The size of each item collection of a table with local secondary
 *	  indexes (doc/dynamodb-rules.md#indexes): DynamoDB caps it at 10 GB
 *	  (ItemCollectionSizeLimitExceededException) and reports it in
 *	  ItemCollectionMetrics.  An item collection's size is the size of its
 *	  items plus that of their entries in the table's local secondary indexes.
 *
 * The size is maintained, not measured: hroe.create_local_index puts the
 * AFTER ROW trigger hroe.item_collection_size on the table, which adds each
 * write's change (new size minus old) to the collection's row of
 * hroe.item_collection_sizes, in the writing transaction, and raises the
 * exception when a write that grows a collection takes it past the limit.
 * So every write path (the operations, PartiQL, Time to Live's deletions, a
 * plain SQL statement) keeps it, a write costs one upsert of one row, and
 * ItemCollectionMetrics reads one row instead of the collection.  Writes to
 * one collection serialize on its row until they commit, as the limit
 * requires (two writes must not both pass it).
 *
 * hroe.item_collection_sizes is the extension owner's, read and written by
 * no other role: the trigger switches to that owner for its upsert, after
 * checking that the table its argument names is the trigger's table (a role
 * may only move the sizes of a table it writes).
 *
 * The limit is DynamoDB's (dynamodb_limits.h); hroe.item_collection_size_limit,
 * a superuser's setting, lowers it to test the exception without writing
 * 10 GB.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "catalog.h"
#include "tables.h"

/* hroe.item_collection_size_limit, in kB (at most DynamoDB's 10 GB) */
int			hroe_item_collection_limit_kb = (int) (HROE_ITEM_COLLECTION_MAX / 1024);

/* The session's prepared statements on hroe.item_collection_sizes */
static SPIPlanPtr GrowPlan = NULL;
static SPIPlanPtr EmptyPlan = NULL;
static SPIPlanPtr ReadPlan = NULL;
static SPIPlanPtr TruncatePlan = NULL;

/* Define hroe.item_collection_size_limit (_PG_init) */
void
hroe_item_collection_init(void)
{
	DefineCustomIntVariable("hroe.item_collection_size_limit",
							"The size an item collection of a table with local secondary indexes may reach.",
							"DynamoDB's limit is 10 GB, the default and the largest value. A superuser "
							"may lower it, e.g. to test ItemCollectionSizeLimitExceededException "
							"without writing 10 GB; the sizes kept are exact whatever the limit.",
							&hroe_item_collection_limit_kb,
							(int) (HROE_ITEM_COLLECTION_MAX / 1024),
							1,
							(int) (HROE_ITEM_COLLECTION_MAX / 1024),
							PGC_SUSET,
							GUC_UNIT_KB,
							NULL, NULL, NULL);
}

/* A statement prepared once for the session (SPI connected) */
static SPIPlanPtr
Prepare(SPIPlanPtr *plan, const char *sql, int nargs, Oid *types)
{
	if (*plan == NULL)
	{
		SPIPlanPtr	p = SPI_prepare(sql, nargs, types);

		if (p == NULL)
			elog(ERROR, "preparing \"%s\" failed: %s", sql, SPI_result_code_string(SPI_result));
		SPI_keepplan(p);
		*plan = p;
	}
	return *plan;
}

/* Whether table t has a local secondary index */
bool
hroe_table_has_lsi(HroeTableMeta *t)
{
	for (int i = 0; i < t->nindexes; i++)
		if (t->indexes[i].local)
			return true;
	return false;
}

/*
 * The partition key value of item (a table key of t) as DynamoDB JSON
 * ({"S": "..."}), appended to buf: an item collection's identity
 */
void
hroe_item_collection_value(HroeTableMeta *t, const HroeItem *item, StringInfo buf)
{
	HroeValue	map,
				v;

	hroe_item_root(item, &map);
	if (!hroe_map_find(&map, t->schema.names[0], strlen(t->schema.names[0]), &v))
		elog(ERROR, "partition key attribute \"%s\" is missing", t->schema.names[0]);
	hroe_value_write(buf, &v);
}

/* The bytes item (of table t) adds to its collection: itself and its LSI entries */
static int64
CollectionBytes(HroeTableMeta *t, HroeItem *item)
{
	int64		bytes = hroe_item_size(item);

	for (int i = 0; i < t->nindexes; i++)
	{
		bool		present;
		int64		size;

		if (!t->indexes[i].local)
			continue;
		size = hroe_index_entry_size(t, &t->indexes[i], item, &present);
		if (present)
			bytes += size;
	}
	return bytes;
}

/*
 * Run plan on hroe.item_collection_sizes as its owner (SPI connected), in a
 * security-restricted operation with search_path pinned (hroe_become; the
 * statements name every operator by its schema); returns the first column
 * of its first row, 0 without a row
 */
static int64
RunAsOwner(SPIPlanPtr plan, Datum *values, bool read_only)
{
	HroeIdentity saved;
	volatile int64 result = 0;

	hroe_become(hroe_relation_owner("item_collection_sizes"), &saved);
	PG_TRY();
	{
		int			ret = SPI_execute_plan(plan, values, NULL, read_only, 0);
		bool		isnull;

		if (ret < 0)
			elog(ERROR, "keeping an item collection's size failed: %s", SPI_result_code_string(ret));
		if (SPI_processed > 0 && SPI_tuptable != NULL)
		{
			Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

			if (!isnull)
				result = DatumGetInt64(d);
		}
	}
	PG_CATCH();
	{
		hroe_unbecome_on_error(&saved);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_unbecome(&saved);
	return result;
}

/*
 * Add delta bytes to the collection whose partition key value is key (JSON)
 * in table t (SPI connected); a growth past the limit raises
 * ItemCollectionSizeLimitExceededException
 */
static void
Grow(HroeTableMeta *t, const char *key, int64 delta)
{
	Oid			types[3] = {TEXTOID, TEXTOID, INT8OID};
	Datum		values[3];
	int64		size;

	if (delta == 0)
		return;
	values[0] = CStringGetTextDatum(t->name);
	values[1] = CStringGetTextDatum(key);
	values[2] = Int64GetDatum(delta);
	size = RunAsOwner(Prepare(&GrowPlan,
							  "INSERT INTO hroe.item_collection_sizes AS s (table_name, collection, size_bytes)"
							  " VALUES ($1, pg_catalog.sha256(pg_catalog.convert_to($2, 'UTF8')), $3)"
							  " ON CONFLICT (table_name, collection) DO UPDATE"
							  " SET size_bytes = s.size_bytes OPERATOR(pg_catalog.+) EXCLUDED.size_bytes"
							  " RETURNING s.size_bytes", 3, types),
					  values, false);
	if (delta > 0 && size > (int64) hroe_item_collection_limit_kb * 1024)
		hroe_ddb_error(ERRCODE_HROE_ITEM_COLLECTION_SIZE, "ItemCollectionSizeLimitExceededException",
					   "Collection size exceeded.");
	/* an emptied collection leaves no row */
	if (size <= 0)
		(void) RunAsOwner(Prepare(&EmptyPlan,
								  "DELETE FROM hroe.item_collection_sizes"
								  " WHERE table_name OPERATOR(pg_catalog.=) $1"
								  " AND collection OPERATOR(pg_catalog.=) pg_catalog.sha256(pg_catalog.convert_to($2, 'UTF8'))"
								  " AND size_bytes OPERATOR(pg_catalog.<=) 0", 2, types),
						  values, false);
}

/*
 * The size of the item collection of item in a distributed table (SPI
 * connected): its sizes are kept on the partition server holding it, so the
 * collection's rows are read through the table (its one partition) and
 * summed, as the trigger counts them
 */
static int64
DistributedCollectionBytes(HroeTableMeta *t, const HroeItem *item)
{
	Oid			type = hroe_key_type_oid(t->schema.types[0]);
	Datum		keys[2];
	int64		bytes = 0;
	int			ret;

	hroe_check_item_key(t, (HroeItem *) item, keys);
	hroe_push_search_path();
	ret = SPI_execute_with_args(psprintf("SELECT item FROM %s WHERE %s", t->relname,
										 hroe_table_pk_qual(t, 1)),
								1, &type, keys, NULL, true, 0);
	hroe_pop_search_path();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading an item collection of %s failed: %s", t->relname,
			 SPI_result_code_string(ret));
	for (uint64 r = 0; r < SPI_processed; r++)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
			bytes += CollectionBytes(t, DatumGetHroeItemP(d));
	}
	return bytes;
}

/*
 * The size in bytes of the item collection of item (a table key of t, which
 * has a local secondary index), as this transaction sees it (SPI connected)
 */
int64
hroe_item_collection_bytes(HroeTableMeta *t, const HroeItem *item)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2];
	StringInfoData key;

	if (t->distributed)
		return DistributedCollectionBytes(t, item);
	initStringInfo(&key);
	hroe_item_collection_value(t, item, &key);
	values[0] = CStringGetTextDatum(t->name);
	values[1] = CStringGetTextDatum(key.data);
	return RunAsOwner(Prepare(&ReadPlan,
							  "SELECT size_bytes FROM hroe.item_collection_sizes"
							  " WHERE table_name OPERATOR(pg_catalog.=) $1"
							  " AND collection OPERATOR(pg_catalog.=) pg_catalog.sha256(pg_catalog.convert_to($2, 'UTF8'))",
							  2, types),
					  values, true);
}

/* The item of a row of the trigger's table, or NULL */
static HroeItem *
RowItem(Relation rel, HeapTuple tuple)
{
	int			attno = SPI_fnumber(RelationGetDescr(rel), "item");
	bool		isnull;
	Datum		d;

	if (tuple == NULL)
		return NULL;
	if (attno <= 0)
		elog(ERROR, "table \"%s\" has no column \"item\"", RelationGetRelationName(rel));
	d = heap_getattr(tuple, attno, RelationGetDescr(rel), &isnull);
	return isnull ? NULL : DatumGetHroeItemP(d);
}

/* The trigger's DynamoDB table (SPI connected), checked to be its relation's */
static HroeTableMeta *
TriggerTable(TriggerData *td)
{
	HroeTableMeta *t = hroe_table_lookup(td->tg_trigger->tgargs[0], true);

	if (t == NULL || t->relid != RelationGetRelid(td->tg_relation))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("\"%s\" is not the DynamoDB table of relation \"%s\"",
						td->tg_trigger->tgargs[0], RelationGetRelationName(td->tg_relation))));
	return t;
}

/* TRUNCATE of a table: its collections are gone */
static void
Truncated(TriggerData *td)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	values[0] = CStringGetTextDatum(TriggerTable(td)->name);
	(void) RunAsOwner(Prepare(&TruncatePlan,
							  "DELETE FROM hroe.item_collection_sizes"
							  " WHERE table_name OPERATOR(pg_catalog.=) $1", 1, types),
					  values, false);
	SPI_finish();
}

PG_FUNCTION_INFO_V1(hroe_item_collection_size);
/*
 * hroe.item_collection_size(table): the AFTER ROW trigger of a table with
 * local secondary indexes (hroe.create_local_index), which keeps the size
 * of the collections a row's insertion, update or deletion changes; and its
 * AFTER TRUNCATE statement trigger, which forgets them all
 */
Datum
hroe_item_collection_size(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	Relation	rel;
	HroeTableMeta *t;
	HroeItem   *old = NULL,
			   *new = NULL;
	StringInfoData oldkey,
				newkey;
	int64		oldbytes = 0,
				newbytes = 0;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_AFTER(td->tg_event) ||
		td->tg_trigger->tgnargs != 1 ||
		TRIGGER_FIRED_FOR_ROW(td->tg_event) == TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.item_collection_size() must be an AFTER ROW trigger, or an AFTER TRUNCATE statement trigger, with one argument, the table's name")));
	if (TRIGGER_FIRED_BY_TRUNCATE(td->tg_event))
	{
		Truncated(td);
		return PointerGetDatum(NULL);
	}
	rel = td->tg_relation;
	if (TRIGGER_FIRED_BY_INSERT(td->tg_event))
		new = RowItem(rel, td->tg_trigtuple);
	else if (TRIGGER_FIRED_BY_UPDATE(td->tg_event))
	{
		old = RowItem(rel, td->tg_trigtuple);
		new = RowItem(rel, td->tg_newtuple);
	}
	else if (TRIGGER_FIRED_BY_DELETE(td->tg_event))
		old = RowItem(rel, td->tg_trigtuple);
	else
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.item_collection_size() must fire on INSERT, UPDATE or DELETE")));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	t = TriggerTable(td);
	initStringInfo(&oldkey);
	initStringInfo(&newkey);
	if (old)
	{
		hroe_item_collection_value(t, old, &oldkey);
		oldbytes = CollectionBytes(t, old);
	}
	if (new)
	{
		hroe_item_collection_value(t, new, &newkey);
		newbytes = CollectionBytes(t, new);
	}
	if (old && new && strcmp(oldkey.data, newkey.data) == 0)
		Grow(t, newkey.data, newbytes - oldbytes);
	else
	{
		/* (an UPDATE may move a row to another collection) */
		if (old)
			Grow(t, oldkey.data, -oldbytes);
		if (new)
			Grow(t, newkey.data, newbytes);
	}
	SPI_finish();
	return PointerGetDatum(NULL);
}
