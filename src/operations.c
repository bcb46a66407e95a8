/*-------------------------------------------------------------------------
 *
 * operations.c
 *	  DynamoDB operations on hroe tables: GetItem, PutItem, DeleteItem,
 *	  Query, Scan, BatchGetItem, BatchWriteItem (dynamodb-semantics.md §2,
 *	  §3, §5, §6, §7, §8).
 *
 * Every statement runs through SPI with a plan prepared once per table and
 * statement shape (hroe_table_plan).  Query turns the key condition into
 * equality and range quals on the key columns of the table's primary key or
 * of the GSI's btree index, ordered like the index, so PostgreSQL runs an
 * index range scan without a sort; paging resumes with a row comparison on
 * (index sort key..., table key...), which is an index condition too.
 *
 * A read sees every write before it, those of its own statement too (a
 * SELECT calling PutItem, then GetItem): PushReadSnapshot.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "commands/explain.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "miscadmin.h"
#include "utils/plancache.h"
#include "utils/resowner.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "direct_write.h"
#include "operations.h"

/* a batch rolled back by a deadlock is written again, up to this many times */
#define BATCH_WRITE_ATTEMPTS 10

/* ---------- helpers ---------- */

/*
 * Push the snapshot a read operation runs under, until its PopActiveSnapshot:
 * as SPI's for a statement that writes, the writes before the read (its own
 * statement's too) made visible by CommandCounterIncrement, then a snapshot
 * taken now in READ COMMITTED (a strongly consistent read sees what has
 * committed) or the transaction's in REPEATABLE READ and SERIALIZABLE, with
 * the current command id.  So the functions are VOLATILE: a STABLE one runs
 * under its statement's snapshot.  In a parallel query, where no snapshot
 * may be taken and nothing can have been written since the statement began,
 * the statement's.
 */
static void
PushReadSnapshot(void)
{
	if (IsInParallelMode())
	{
		PushActiveSnapshot(GetActiveSnapshot());
		return;
	}
	CommandCounterIncrement();
	PushActiveSnapshot(GetTransactionSnapshot());
	UpdateActiveSnapshotCommandId();
}

/* text argument n as a C string, or NULL */
static char *
ArgText(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* The OID of type hroe.item (the shared, invalidation-aware lookup) */
static inline Oid
ItemTypeOid(void)
{
	return hroe_item_typid();
}

/* Copy an item Datum (detoasting it) into memory context cxt */
static HroeItem *
CopyItem(MemoryContext cxt, Datum d)
{
	HroeItem   *item = DatumGetHroeItemP(d);
	HroeItem   *copy = MemoryContextAlloc(cxt, VARSIZE(item));

	memcpy(copy, item, VARSIZE(item));
	return copy;
}

/* Parse DynamoDB JSON text into jsonb */
static Jsonb *
TextToJsonb(const char *s)
{
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(s)));
}

/* Names of the key attributes of the table and the index (deduplicated) */
static int
KeyNames(HroeTableMeta *t, HroeIndexMeta *ix, const char **names)
{
	int			n = 0;

	for (int i = 0; i < t->schema.nhash + t->schema.nrange; i++)
		names[n++] = t->schema.names[i];
	if (ix)
		for (int i = 0; i < ix->schema.nhash + ix->schema.nrange; i++)
		{
			bool		dup = false;

			for (int k = 0; k < n; k++)
				dup |= strcmp(names[k], ix->schema.names[i]) == 0;
			if (!dup)
				names[n++] = ix->schema.names[i];
		}
	return n;
}

/* LastEvaluatedKey: the key attributes of the table and index, from the item */
static Jsonb *
KeyJsonb(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item)
{
	StringInfoData buf;
	HroeValue	map,
				v;
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			n = KeyNames(t, ix, names);

	hroe_item_root(item, &map);
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < n; i++)
	{
		if (!hroe_map_find(&map, names[i], strlen(names[i]), &v))
			elog(ERROR, "key attribute \"%s\" is missing from an indexed item", names[i]);
		if (i > 0)
			appendStringInfoChar(&buf, ',');
		escape_json(&buf, names[i]);
		appendStringInfoChar(&buf, ':');
		hroe_value_write(&buf, &v);
	}
	appendStringInfoChar(&buf, '}');
	return TextToJsonb(buf.data);
}

/* "pk = $1 AND sk = $2" */
static char *
KeyQual(HroeTableMeta *t, int firstparam)
{
	if (t->schema.nrange)
		return psprintf("pk = $%d AND sk = $%d", firstparam, firstparam + 1);
	return psprintf("pk = $%d", firstparam);
}

/* The column types of the table key; returns their number */
static int
KeyTypes(HroeTableMeta *t, Oid *types)
{
	int			n = t->schema.nhash + t->schema.nrange;

	for (int i = 0; i < n; i++)
		types[i] = hroe_key_type_oid(t->schema.types[i]);
	return n;
}

/*
 * GetItem without the executor: one probe of the primary key btree under the
 * active snapshot.  *done is false (and nothing read) when row-level security
 * applies to the table, so the caller takes the SQL path instead.
 */
static HroeItem *
DirectFetch(HroeTableMeta *t, Datum *keys, MemoryContext cxt, bool *done)
{
	int			nkeys = t->schema.nhash + t->schema.nrange;
	Relation	rel,
				idx;
	ScanKeyData skey[2];
	IndexScanDesc scan;
	TupleTableSlot *slot;
	HroeItem   *result = NULL;
	AclResult	aclresult;

	*done = false;
	if (!hroe_direct_access ||
		check_enable_rls(t->relid, InvalidOid, true) == RLS_ENABLED)
		return NULL;
	aclresult = pg_class_aclcheck(t->relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, get_rel_name(t->relid));
	rel = table_open(t->relid, AccessShareLock);
	idx = hroe_pkey_index_open(t, rel, AccessShareLock);
	hroe_pkey_scankeys(t, idx, keys, skey);
	scan = index_beginscan(rel, idx, GetActiveSnapshot(), nkeys, 0);
	index_rescan(scan, skey, nkeys, NULL, 0);
	slot = table_slot_create(rel, NULL);
	if (index_getnext_slot(scan, ForwardScanDirection, slot))
	{
		bool		isnull;
		Datum		d = slot_getattr(slot, t->item_attno, &isnull);

		result = CopyItem(cxt, d);
	}
	ExecDropSingleTupleTableSlot(slot);
	index_endscan(scan);
	index_close(idx, NoLock);
	table_close(rel, NoLock);
	*done = true;
	return result;
}

/* Fetch an item by table key, optionally locking it; NULL if absent */
static HroeItem *
FetchItem(HroeTableMeta *t, Datum *keys, bool for_update, MemoryContext cxt)
{
	Oid			types[2];
	int			n = KeyTypes(t, types);
	SPIPlanPtr	plan;
	int			ret;
	bool		isnull;
	bool		done;
	HroeItem   *item;

	if (for_update)
		return hroe_lock_row(t, keys, true, NULL, cxt);
	item = DirectFetch(t, keys, cxt, &done);
	if (done)
		return item;
	plan = hroe_table_plan_find(t, "get");
	if (plan == NULL)
		plan = hroe_table_plan(t, "get",
							   psprintf("SELECT item FROM %s WHERE %s", t->relname, KeyQual(t, 1)),
							   n, types);
	hroe_push_search_path();
	ret = SPI_execute_plan(plan, keys, NULL, true, 1);
	hroe_pop_search_path();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading %s failed: %s", t->relname, SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return NULL;
	return CopyItem(cxt, SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/* A composite result (attributes/item, consumed_capacity) */
static Datum
ItemResult(FunctionCallInfo fcinfo, HroeItem *item, Jsonb *cc)
{
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {item == NULL, cc == NULL};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = PointerGetDatum(item);
	values[1] = PointerGetDatum(cc);
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/* ---------- GetItem ---------- */

/* GetItem; *units gets the read capacity */
static HroeItem *
DoGet(HroeTableMeta *t, Jsonb *key, bool consistent, MemoryContext cxt, double *units)
{
	Datum		keys[2];
	HroeItem   *item;

	hroe_check_request_key(t, key, keys, NULL);
	PushReadSnapshot();
	item = FetchItem(t, keys, false, cxt);
	PopActiveSnapshot();
	*units = hroe_read_units(item ? hroe_item_size(item) : 0, consistent);
	return item;
}

/* GetItem of a key given as DynamoDB JSON (SPI connected); NULL if absent */
HroeItem *
hroe_get(HroeTableMeta *t, Jsonb *key, bool consistent, double *units)
{
	return DoGet(t, key, consistent, CurrentMemoryContext, units);
}

/*
 * The GetItem of hroe.get_item and hroe.get_item_result (table, key,
 * consistent_read): the item or NULL; *t and *units for the capacity
 */
static HroeItem *
GetCall(FunctionCallInfo fcinfo, HroeTableMeta **t, double *units)
{
	char	   *table = ArgText(fcinfo, 0);
	Jsonb	   *key = PG_GETARG_JSONB_P(1);
	MemoryContext cxt = CurrentMemoryContext;
	HroeItem   *item;

	SPI_connect();
	*t = hroe_table_lookup(table, false);
	item = DoGet(*t, key, PG_GETARG_BOOL(2), cxt, units);
	SPI_finish();
	return item;
}

PG_FUNCTION_INFO_V1(hroe_get_item);
/* hroe.get_item(table, key, consistent_read): the item, or NULL */
Datum
hroe_get_item(PG_FUNCTION_ARGS)
{
	HroeTableMeta *t;
	double		units;
	HroeItem   *item = GetCall(fcinfo, &t, &units);

	if (item == NULL)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(item);
}

PG_FUNCTION_INFO_V1(hroe_get_item_result);
/* hroe.get_item_result(...): (item, consumed_capacity) */
Datum
hroe_get_item_result(PG_FUNCTION_ARGS)
{
	char	   *rcc = ArgText(fcinfo, 3);
	HroeTableMeta *t;
	HroeItem   *item;
	double		units;

	hroe_check_return_cc(rcc);
	item = GetCall(fcinfo, &t, &units);
	return ItemResult(fcinfo, item, hroe_capacity_jsonb(rcc, ArgText(fcinfo, 0), units, t, NULL));
}

/* ---------- PutItem, DeleteItem ---------- */

/* A write that reports no capacity (the caller asked for none) */
static void
NoCapacity(HroeTableMeta *t, double *units, double *index_units)
{
	*units = 0;
	for (int i = 0; i < t->nindexes; i++)
		index_units[i] = 0;
}

/*
 * PutItem: replace or insert the item under a row lock on the old version;
 * returns the old item (or NULL); *units/index_units get the write capacity.
 * With locked, the caller holds the key's advisory lock and has read the row
 * FOR UPDATE already (locked_old, NULL if absent): it is not read again, and
 * it is updated by its TID (locked_tid, when given), no index descent.
 * Without need_old (no ALL_OLD, no capacity wanted), the old item is not
 * read at all: one upsert, and NULL is returned with no capacity.
 *
 * A plain put takes no advisory lock (a transaction may write any number of
 * items): a conditional write that found the item absent under the key's
 * lock can instead meet an item inserted since.  Its insert then finds the
 * conflict; with conflict given, *conflict is set and nothing is written, so
 * the caller evaluates its condition again on that item (without conflict,
 * the put goes on by locking and replacing it).
 */
static HroeItem *
DoPut(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
	  ItemPointer locked_tid, bool need_old, MemoryContext cxt, double *units,
	  double *index_units, bool *conflict)
{
	Datum		keys[3];
	Oid			types[3];
	int			n = KeyTypes(t, types);
	HroeItem   *old;
	SPIPlanPtr	plan;
	int			ret;

	hroe_check_item_key(t, item, keys);
	if (!locked && hroe_direct_overwrite(t, item, keys, cxt, need_old ? &old : NULL))
	{
		if (need_old)
		{
			*units = hroe_write_capacity(t, old, item, index_units);
			return old;
		}
		NoCapacity(t, units, index_units);
		return NULL;
	}
	if (!need_old && !locked)
	{
		Oid			itype = ItemTypeOid();
		Datum		d = PointerGetDatum(item);

		NoCapacity(t, units, index_units);
		plan = hroe_table_plan_find(t, "put-upsert");
		if (plan == NULL)
			plan = hroe_table_plan(t, "put-upsert",
								   psprintf("INSERT INTO %s (item) VALUES ($1) ON CONFLICT (%s)"
											" DO UPDATE SET item = EXCLUDED.item",
											t->relname, t->schema.nrange ? "pk, sk" : "pk"),
								   1, &itype);
		hroe_push_search_path();
		ret = SPI_execute_plan(plan, &d, NULL, false, 0);
		hroe_pop_search_path();
		if (ret != SPI_OK_INSERT || SPI_processed != 1)
			elog(ERROR, "PutItem failed to write an item of %s: %s", t->relname,
				 SPI_result_code_string(ret));
		return NULL;
	}
	for (;; locked = false)
	{
		old = locked ? locked_old : FetchItem(t, keys, true, cxt);
		if (old && locked && locked_tid)
		{
			Oid			ttypes[2] = {ItemTypeOid(), TIDOID};
			Datum		tvals[2] = {PointerGetDatum(item), PointerGetDatum(locked_tid)};

			if (hroe_direct_update_locked(t, locked_tid, item))
				break;
			/* the row is locked by us: its TID stays until we update it */
			plan = hroe_table_plan_find(t, "put-update-tid");
			if (plan == NULL)
				plan = hroe_table_plan(t, "put-update-tid",
									   psprintf("UPDATE %s SET item = $1 WHERE ctid = $2", t->relname),
									   2, ttypes);
			hroe_push_search_path();
			ret = SPI_execute_plan(plan, tvals, NULL, false, 0);
			hroe_pop_search_path();
			if (ret != SPI_OK_UPDATE)
				elog(ERROR, "PutItem failed to update the locked row of %s: %s", t->relname,
					 SPI_result_code_string(ret));
			if (SPI_processed == 1)
				break;
			continue;			/* not found there after all: by the key */
		}
		if (old)
		{
			types[n] = ItemTypeOid();
			keys[n] = PointerGetDatum(item);
			plan = hroe_table_plan(t, "put-update",
								   psprintf("UPDATE %s SET item = $%d WHERE %s",
											t->relname, n + 1, KeyQual(t, 1)),
								   n + 1, types);
			hroe_push_search_path();
			ret = SPI_execute_plan(plan, keys, NULL, false, 0);
			hroe_pop_search_path();
			if (ret != SPI_OK_UPDATE || SPI_processed != 1)
				elog(ERROR, "PutItem failed to update the locked row of %s", t->relname);
			break;
		}
		else
		{
			Oid			itype = ItemTypeOid();
			Datum		d = PointerGetDatum(item);

			plan = hroe_table_plan(t, "put-insert",
								   psprintf("INSERT INTO %s (item) VALUES ($1) ON CONFLICT DO NOTHING",
											t->relname),
								   1, &itype);
			hroe_push_search_path();
			ret = SPI_execute_plan(plan, &d, NULL, false, 0);
			hroe_pop_search_path();
			if (ret != SPI_OK_INSERT)
				elog(ERROR, "PutItem failed: %s", SPI_result_code_string(ret));
			if (SPI_processed == 1)
				break;
			/* inserted concurrently since we looked */
			if (locked && conflict)
			{
				*conflict = true;
				NoCapacity(t, units, index_units);
				return NULL;
			}
			/* a plain put: lock that version and replace it */
		}
	}
	*units = hroe_write_capacity(t, old, item, index_units);
	return old;
}

/* PutItem (SPI connected): DoPut in the current memory context */
HroeItem *
hroe_put(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
		 ItemPointer locked_tid, bool need_old, double *units, double *index_units,
		 bool *conflict)
{
	return DoPut(t, item, locked, locked_old, locked_tid, need_old, CurrentMemoryContext,
				 units, index_units, conflict);
}

/* DeleteItem: returns the deleted item (or NULL) */
static HroeItem *
DoDelete(HroeTableMeta *t, Datum *keys, MemoryContext cxt, double *units, double *index_units)
{
	Oid			types[2];
	int			n = KeyTypes(t, types);
	SPIPlanPtr	plan;
	int			ret;
	HroeItem   *old = NULL;
	bool		isnull;

	plan = hroe_table_plan(t, "delete",
						   psprintf("DELETE FROM %s WHERE %s RETURNING item",
									t->relname, KeyQual(t, 1)),
						   n, types);
	hroe_push_search_path();
	ret = SPI_execute_plan(plan, keys, NULL, false, 0);
	hroe_pop_search_path();
	if (ret != SPI_OK_DELETE_RETURNING)
		elog(ERROR, "DeleteItem failed: %s", SPI_result_code_string(ret));
	if (SPI_processed == 1)
		old = CopyItem(cxt, SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	*units = hroe_write_capacity(t, old, NULL, index_units);
	return old;
}

/* DeleteItem of a key given as DynamoDB JSON (SPI connected) */
HroeItem *
hroe_delete(HroeTableMeta *t, Jsonb *key, double *units, double *index_units)
{
	Datum		keys[2];

	hroe_check_request_key(t, key, keys, NULL);
	return DoDelete(t, keys, CurrentMemoryContext, units, index_units);
}

/*
 * Whether a Put/Delete call takes the conditional path (operations_write.c):
 * with a ConditionExpression, its placeholders or
 * ReturnValuesOnConditionCheckFailure (arguments 4 to 7), or without the
 * table or item/key (its errors)
 */
static bool
ConditionalWrite(FunctionCallInfo fcinfo)
{
	return PG_ARGISNULL(0) || PG_ARGISNULL(1) || !PG_ARGISNULL(4) || !PG_ARGISNULL(5) ||
		!PG_ARGISNULL(6) || !PG_ARGISNULL(7);
}

/* The table, ReturnValues (E17) and ReturnConsumedCapacity of a Put/Delete call */
static char *
WriteArgs(FunctionCallInfo fcinfo, bool *return_old, char **rcc)
{
	*return_old = hroe_check_return_old(ArgText(fcinfo, 2));
	*rcc = ArgText(fcinfo, 3);
	hroe_check_return_cc(*rcc);
	return ArgText(fcinfo, 0);
}

PG_FUNCTION_INFO_V1(hroe_put_item);
/*
 * hroe.put_item(table, item, return_values, return_consumed_capacity,
 * condition, names, values, return_values_on_condition_check_failure)
 */
Datum
hroe_put_item(PG_FUNCTION_ARGS)
{
	char	   *table;
	HroeItem   *item;
	bool		return_old;
	char	   *rcc;
	MemoryContext cxt = CurrentMemoryContext;
	HroeTableMeta *t;
	HroeItem   *old;
	double		units;
	double		index_units[HROE_MAX_GSIS];
	Jsonb	   *cc;

	if (ConditionalWrite(fcinfo))
		return hroe_conditional_write_call(fcinfo, HROE_WRITE_PUT);
	table = WriteArgs(fcinfo, &return_old, &rcc);
	item = PG_GETARG_HROE_ITEM_P(1);
	SPI_connect();
	t = hroe_table_lookup(table, false);
	old = DoPut(t, item, false, NULL, NULL, return_old || (rcc && strcmp(rcc, "NONE") != 0),
				cxt, &units, index_units, NULL);
	SPI_finish();
	cc = hroe_capacity_jsonb(rcc, table, units, t, index_units);
	return ItemResult(fcinfo, return_old ? old : NULL, cc);
}

PG_FUNCTION_INFO_V1(hroe_delete_item);
/*
 * hroe.delete_item(table, key, return_values, return_consumed_capacity,
 * condition, names, values, return_values_on_condition_check_failure)
 */
Datum
hroe_delete_item(PG_FUNCTION_ARGS)
{
	char	   *table;
	Jsonb	   *key;
	bool		return_old;
	char	   *rcc;
	MemoryContext cxt = CurrentMemoryContext;
	HroeTableMeta *t;
	HroeItem   *old;
	Datum		keys[2];
	double		units;
	double		index_units[HROE_MAX_GSIS];
	Jsonb	   *cc;

	if (ConditionalWrite(fcinfo))
		return hroe_conditional_write_call(fcinfo, HROE_WRITE_DELETE);
	table = WriteArgs(fcinfo, &return_old, &rcc);
	key = PG_GETARG_JSONB_P(1);
	SPI_connect();
	t = hroe_table_lookup(table, false);
	hroe_check_request_key(t, key, keys, NULL);
	old = DoDelete(t, keys, cxt, &units, index_units);
	SPI_finish();
	cc = hroe_capacity_jsonb(rcc, table, units, t, index_units);
	return ItemResult(fcinfo, return_old ? old : NULL, cc);
}

/* ---------- Query and Scan ---------- */

typedef struct ReadSpec
{
	HroeTableMeta *t;
	HroeIndexMeta *ix;			/* NULL: the table */
	bool		is_query;
	HroeBoundKeyCondition bound;	/* Query */
	bool		forward;
	bool		consistent;
	int64		limit;			/* items to evaluate, 0: no limit */
	bool		paged;			/* stop at 1 MB read */
	Jsonb	   *esk;			/* ExclusiveStartKey or NULL */
	bool		count_only;		/* Select COUNT */
	bool		project;		/* return the index entry, not the item */
	int			segment;		/* parallel Scan: this segment ... */
	int			total_segments; /* ... of these (0: no segments) */
	HroeExprNode *filter;		/* FilterExpression or NULL */
	List	   *projection;		/* ProjectionExpression paths or NIL */
} ReadSpec;

typedef struct ReadOutcome
{
	int64		scanned;
	int64		count;			/* items the FilterExpression kept */
	int64		bytes;
	bool		stopped;		/* by Limit or the 1 MB page */
	HroeItem   *last;
} ReadOutcome;

typedef void (*EmitItem) (void *arg, HroeItem *item);

/*
 * One item read: the GSI's projection, then the FilterExpression (Count is
 * after it, ScannedCount before), then the ProjectionExpression; emitted
 * unless Select is COUNT.
 */
static void
EmitRead(ReadSpec *s, EmitItem emit, void *arg, HroeItem *item, ReadOutcome *out)
{
	if (s->ix && s->project)
		item = hroe_index_project(s->t, s->ix, item);
	if (s->filter && !hroe_expr_eval(s->filter, item))
		return;
	out->count++;
	if (s->count_only)
		return;
	if (s->projection)
		item = hroe_project(s->projection, item);
	emit(arg, item);
}

/* A column of the ordering: its name, key attribute and type */
typedef struct OrderCol
{
	const char *column;
	const char *attr;
	char		type;
	bool		form;			/* holds partition keys' index forms */
} OrderCol;

/*
 * Does the i-th HASH key column of the table (ix NULL: pk) or of GSI ix
 * hold index forms (tables.h, HROE_KEY_FORM_MAX)?
 */
static inline bool
HashForm(HroeIndexMeta *ix, int i)
{
	return ix ? ix->forms[i] : true;
}

/* The successor of a UTF-8 prefix: the smallest string above all its extensions */
static bool
StringSuccessor(const char *p, int len, StringInfo out)
{
	while (len > 0)
	{
		int			start = len - 1;
		pg_wchar	c;
		unsigned char buf[8];

		while (start > 0 && ((unsigned char) p[start] & 0xC0) == 0x80)
			start--;
		c = utf8_to_unicode((const unsigned char *) p + start);
		if (c < 0x10FFFF)
		{
			c = (c == 0xD7FF) ? 0xE000 : c + 1;
			resetStringInfo(out);
			appendBinaryStringInfo(out, p, start);
			unicode_to_utf8(c, buf);
			appendBinaryStringInfo(out, (char *) buf, pg_utf_mblen(buf));
			return true;
		}
		len = start;
	}
	return false;
}

/* The successor of a byte prefix: drop trailing 0xFF, increment the last byte */
static bool
BytesSuccessor(const char *p, int len, StringInfo out)
{
	while (len > 0 && (unsigned char) p[len - 1] == 0xFF)
		len--;
	if (len == 0)
		return false;
	resetStringInfo(out);
	appendBinaryStringInfo(out, p, len);
	out->data[len - 1]++;
	return true;
}

/* Does value v satisfy the range condition c (for ExclusiveStartKey)? */
static bool
RangeMatches(const HroeKeyCond *c, const HroeAttrValue *v)
{
	int			cmp = hroe_attr_value_compare(v, c->values[0]);

	switch (c->op)
	{
		case HROE_KEY_EQ:
			return cmp == 0;
		case HROE_KEY_LT:
			return cmp < 0;
		case HROE_KEY_LE:
			return cmp <= 0;
		case HROE_KEY_GT:
			return cmp > 0;
		case HROE_KEY_GE:
			return cmp >= 0;
		case HROE_KEY_BETWEEN:
			return cmp >= 0 && hroe_attr_value_compare(v, c->values[1]) <= 0;
		case HROE_KEY_BEGINS_WITH:
			return v->len >= c->values[0]->len &&
				memcmp(v->data, c->values[0]->data, c->values[0]->len) == 0;
	}
	return false;
}

/*
 * Validate an ExclusiveStartKey: exactly the table's and the index's key
 * attributes (E24), right types, within the queried partition (E25); vals[]
 * gets the values in KeyNames order.
 */
static void
CheckStartKey(ReadSpec *s, const char **names, int n, HroeAttrValue **vals)
{
	Jsonb	   *esk = s->esk;

	if (!JB_ROOT_IS_OBJECT(esk) || JB_ROOT_IS_SCALAR(esk) || JB_ROOT_COUNT(esk) != n)
		HroeValidation("The provided starting key is invalid");
	for (int i = 0; i < n; i++)
	{
		JsonbValue	k;
		JsonbValue *v;
		const char *err;
		char		type = 0;
		bool		sort = false;

		k.type = jbvString;
		k.val.string.val = (char *) names[i];
		k.val.string.len = strlen(names[i]);
		v = findJsonbValueFromContainer(&esk->root, JB_FOBJECT, &k);
		if (v == NULL)
			HroeValidation("The provided starting key is invalid");
		if (v->type != jbvBinary)
			HroeValidation("The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
		vals[i] = hroe_attr_value_from_jsonb(JsonbValueToJsonb(v), &err);
		if (vals[i] == NULL)
			HroeValidation(psprintf("The provided starting key is invalid: %s", err));
		for (int j = 0; j < s->t->schema.nhash + s->t->schema.nrange; j++)
			if (strcmp(s->t->schema.names[j], names[i]) == 0)
				type = s->t->schema.types[j], sort = j > 0;
		if (s->ix)
			for (int j = 0; j < s->ix->schema.nhash + s->ix->schema.nrange; j++)
				if (strcmp(s->ix->schema.names[j], names[i]) == 0)
					type = s->ix->schema.types[j], sort = j >= s->ix->schema.nhash;
		if (vals[i]->type[0] != type || vals[i]->type[1] != '\0')
			HroeValidation("The provided key element does not match the schema");
		if (vals[i]->len == 0 && type != 'N')
			HroeValidation("The provided starting key is invalid: One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty string value.");
		if ((!sort && vals[i]->len > HROE_HASH_KEY_MAX) ||
			(sort && vals[i]->len > HROE_RANGE_KEY_MAX))
			HroeValidation("The provided starting key is invalid: One or more parameter values were invalid: key size exceeds the maximum size limit");
	}
	if (s->is_query)
	{
		const HroeKeySchema *ks = s->bound.schema;

		for (int k = 0; k < ks->nhash + s->bound.nrange_eq; k++)
		{
			HroeAttrValue *want = k < ks->nhash ? s->bound.hash[k] : s->bound.range_eq[k - ks->nhash];

			for (int i = 0; i < n; i++)
				if (strcmp(names[i], ks->names[k]) == 0 &&
					hroe_attr_value_compare(vals[i], want) != 0)
					HroeValidation("The provided starting key is outside query boundaries based on provided conditions");
		}
		if (s->bound.range_last)
			for (int i = 0; i < n; i++)
				if (strcmp(names[i], s->bound.range_last->attr) == 0 &&
					!RangeMatches(s->bound.range_last, vals[i]))
					HroeValidation("The provided starting key does not match the range key predicate");
	}
}

/* The SQL statement of a Query or Scan, its parameters and plan shape */
typedef struct ReadStatement
{
	StringInfoData sql;
	StringInfoData shape;
	Datum		values[24];
	Oid			types[24];
	int			np;
} ReadStatement;

/*
 * Build the statement of one Query or Scan: equality on the hash key columns
 * and the leading range columns, a range on the last one, the row comparison
 * that resumes after ExclusiveStartKey, and ORDER BY in index order.
 */
static void
BuildRead(ReadSpec *s, ReadStatement *st)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	StringInfoData sql,
				shape;
	Datum	   *values = st->values;
	Oid		   *types = st->types;
	int			np = 0;
	OrderCol	order[HROE_MAX_KEY_ATTRS + 2];
	int			norder = 0;
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			nnames = KeyNames(t, ix, names);
	HroeAttrValue *eskvals[HROE_MAX_KEY_ATTRS + 2];

	initStringInfo(&sql);
	initStringInfo(&shape);
	appendStringInfo(&sql, "SELECT item FROM %s WHERE true", t->relname);
	appendStringInfo(&shape, "%c:%s:%c", s->is_query ? 'Q' : 'S', ix ? ix->name : "",
					 s->forward ? 'f' : 'b');

	/* index key columns: partial index implication, and the scan order */
	if (ix)
	{
		int			nk = ix->schema.nhash + ix->schema.nrange;

		for (int i = 0; i < nk; i++)
		{
			appendStringInfo(&sql, " AND %s IS NOT NULL", quote_identifier(ix->columns[i]));
			if (!s->is_query || i >= ix->schema.nhash)
			{
				order[norder].column = quote_identifier(ix->columns[i]);
				order[norder].attr = ix->schema.names[i];
				order[norder].form = i < ix->schema.nhash && ix->forms[i];
				order[norder++].type = ix->schema.types[i];
			}
		}
		for (int i = 0; i < t->schema.nhash + t->schema.nrange; i++)
		{
			order[norder].column = i == 0 ? "pk" : "sk";
			order[norder].attr = t->schema.names[i];
			order[norder].form = i == 0;
			order[norder++].type = t->schema.types[i];
		}
	}
	else
	{
		for (int i = s->is_query ? 1 : 0; i < t->schema.nhash + t->schema.nrange; i++)
		{
			order[norder].column = i == 0 ? "pk" : "sk";
			order[norder].attr = t->schema.names[i];
			order[norder].form = i == 0;
			order[norder++].type = t->schema.types[i];
		}
	}

	if (s->is_query)
	{
		const HroeKeySchema *ks = s->bound.schema;
		const char *cols[HROE_MAX_KEY_ATTRS];
		HroeKeyCond *last = s->bound.range_last;

		for (int i = 0; i < ks->nhash + ks->nrange; i++)
			cols[i] = ix ? quote_identifier(ix->columns[i]) : (i == 0 ? "pk" : "sk");
		for (int i = 0; i < ks->nhash; i++)
		{
			types[np] = hroe_key_type_oid(ks->types[i]);
			values[np++] = hroe_attr_value_datum(s->bound.hash[i], HashForm(ix, i));
			appendStringInfo(&sql, " AND %s = $%d", cols[i], np);
		}
		for (int i = 0; i < s->bound.nrange_eq; i++)
		{
			int			c = ks->nhash + i;

			types[np] = hroe_key_type_oid(ks->types[c]);
			values[np++] = hroe_attr_value_datum(s->bound.range_eq[i], false);
			appendStringInfo(&sql, " AND %s = $%d", cols[c], np);
		}
		appendStringInfo(&shape, ":%d", s->bound.nrange_eq);
		if (last)
		{
			int			c = ks->nhash + s->bound.nrange_eq;
			Oid			type = hroe_key_type_oid(ks->types[c]);
			static const char *const ops[] = {"=", "<", "<=", ">", ">="};

			if (last->op <= HROE_KEY_GE)
			{
				types[np] = type;
				values[np++] = hroe_attr_value_datum(last->values[0], false);
				appendStringInfo(&sql, " AND %s %s $%d", cols[c], ops[last->op], np);
			}
			else if (last->op == HROE_KEY_BETWEEN)
			{
				types[np] = type;
				values[np++] = hroe_attr_value_datum(last->values[0], false);
				types[np] = type;
				values[np++] = hroe_attr_value_datum(last->values[1], false);
				appendStringInfo(&sql, " AND %s >= $%d AND %s <= $%d", cols[c], np - 1, cols[c], np);
			}
			else
			{
				/* begins_with: the prefix and its successor bound an index range */
				StringInfoData succ;
				HroeAttrValue *p = last->values[0];

				initStringInfo(&succ);
				types[np] = type;
				values[np++] = hroe_attr_value_datum(p, false);
				appendStringInfo(&sql, " AND %s >= $%d", cols[c], np);
				if (ks->types[c] == 'S' ? StringSuccessor(p->data, p->len, &succ)
					: BytesSuccessor(p->data, p->len, &succ))
				{
					HroeAttrValue hi = *p;

					hi.data = succ.data;
					hi.len = succ.len;
					types[np] = type;
					values[np++] = hroe_attr_value_datum(&hi, false);
					appendStringInfo(&sql, " AND %s < $%d", cols[c], np);
					appendStringInfoString(&shape, ":bw+");
				}
				else
					appendStringInfoString(&shape, ":bw");
			}
			appendStringInfo(&shape, ":%d", (int) last->op);
		}
	}

	/* ExclusiveStartKey: resume after it in index order */
	if (s->esk)
	{
		CheckStartKey(s, names, nnames, eskvals);
		if (norder > 0)
		{
			appendStringInfoString(&sql, " AND (");
			for (int i = 0; i < norder; i++)
				appendStringInfo(&sql, "%s%s", i ? ", " : "", order[i].column);
			appendStringInfo(&sql, ") %s (", s->forward ? ">" : "<");
			for (int i = 0; i < norder; i++)
			{
				for (int k = 0; k < nnames; k++)
					if (strcmp(names[k], order[i].attr) == 0)
						values[np] = hroe_attr_value_datum(eskvals[k], order[i].form);
				types[np++] = hroe_key_type_oid(order[i].type);
				appendStringInfo(&sql, "%s$%d", i ? ", " : "", np);
			}
			appendStringInfoChar(&sql, ')');
		}
		else
			appendStringInfoString(&sql, " AND false");	/* one-item partition, read */
		appendStringInfoString(&shape, ":esk");
	}
	if (norder > 0)
	{
		appendStringInfoString(&sql, " ORDER BY ");
		for (int i = 0; i < norder; i++)
			appendStringInfo(&sql, "%s%s%s", i ? ", " : "", order[i].column,
							 s->forward ? "" : " DESC");
	}

	st->sql = sql;
	st->shape = shape;
	st->np = np;
}

/*
 * The parallel-Scan segment of an item: its partition key (the index's HASH
 * attributes on a GSI) hashed, the hash range split evenly into segments.
 */
static int
ItemSegment(ReadSpec *s, HroeItem *item)
{
	const HroeKeySchema *ks = s->ix ? &s->ix->schema : &s->t->schema;
	HroeValue	map,
				v;
	uint32		h = 0;

	hroe_item_root(item, &map);
	for (int i = 0; i < ks->nhash; i++)
		if (hroe_map_find(&map, ks->names[i], strlen(ks->names[i]), &v))
			h = hash_combine(h, hash_bytes((const unsigned char *) v.data, v.len));
	return (int) (((uint64) h * (uint64) s->total_segments) >> 32);
}

/*
 * Run one Query or Scan: emit items in order, stop at Limit or 1 MB.  Rows
 * are read in chunks, each a plain execution of the cached plan bounded by
 * its row count (no cursor); a full chunk is followed by the next one,
 * resumed after its last item as an ExclusiveStartKey would be.  So memory
 * stays bounded and the common small Query is one index scan.
 */
static void
RunRead(ReadSpec *s, EmitItem emit, void *arg, MemoryContext cxt, ReadOutcome *out)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	int64		chunk = 100;
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe read row",
												 ALLOCSET_DEFAULT_SIZES);
	MemoryContext oldcxt;

	memset(out, 0, sizeof(*out));
	for (;;)
	{
		ReadStatement st;
		SPIPlanPtr	plan;
		int64		want = chunk;
		int			ret;
		uint64		n;
		SPITupleTable *tuptable;
		HroeItem   *item = NULL;

		if (s->limit > 0)
			want = Min(want, s->limit - out->scanned);
		BuildRead(s, &st);
		plan = hroe_table_plan(t, st.shape.data, st.sql.data, st.np, st.types);
		hroe_push_search_path();
		ret = SPI_execute_plan(plan, st.values, NULL, true, want);
		hroe_pop_search_path();
		if (ret != SPI_OK_SELECT)
			elog(ERROR, "reading %s failed: %s", t->relname, SPI_result_code_string(ret));
		n = SPI_processed;
		tuptable = SPI_tuptable;
		for (uint64 r = 0; r < n; r++)
		{
			bool		isnull;
			bool		present;
			int64		size;

			/* per-row memory: the emitters copy what they keep */
			MemoryContextReset(rowcxt);
			oldcxt = MemoryContextSwitchTo(rowcxt);
			item = DatumGetHroeItemP(SPI_getbinval(tuptable->vals[r], tuptable->tupdesc, 1, &isnull));
			if (s->total_segments > 0 && ItemSegment(s, item) != s->segment)
			{
				MemoryContextSwitchTo(oldcxt);
				continue;		/* another segment's item: not read by this one */
			}
			size = ix ? hroe_index_entry_size(t, ix, item, &present) : hroe_item_size(item);
			out->scanned++;
			out->bytes += size;
			EmitRead(s, emit, arg, item, out);
			MemoryContextSwitchTo(oldcxt);
			if ((s->limit > 0 && out->scanned >= s->limit) ||
				(s->paged && out->bytes >= HROE_PAGE_BYTES))
			{
				out->stopped = true;
				out->last = CopyItem(cxt, PointerGetDatum(item));
				break;
			}
		}
		if (out->stopped || n < (uint64) want)
			break;
		/* a full chunk: continue after its last item */
		s->esk = KeyJsonb(t, ix, item);
		SPI_freetuptable(tuptable);
		chunk = Min(chunk * 4, 1600);
	}
	MemoryContextDelete(rowcxt);
}

/* Add one scan key on index column attno comparing with strategy */
static void
AddScanKey(Relation idx, ScanKeyData *keys, int *n, int attno, StrategyNumber strategy,
		   Datum value)
{
	Oid			type = idx->rd_opcintype[attno - 1];
	Oid			op = get_opfamily_member(idx->rd_opfamily[attno - 1], type, type, strategy);

	if (!OidIsValid(op))
		elog(ERROR, "no btree operator of strategy %d for index column %d", strategy, attno);
	ScanKeyEntryInitialize(&keys[(*n)++], 0, attno, strategy, type,
						   idx->rd_indcollation[attno - 1], get_opcode(op), value);
}

/*
 * A Query without ExclusiveStartKey, straight on the btree: equality keys on
 * the HASH columns and the leading RANGE columns, the range on the last, read
 * forward or backward, no SPI and no executor.  Returns false (nothing read)
 * when row-level security applies to the table: the SQL path handles that.
 */
static bool
DirectQuery(ReadSpec *s, EmitItem emit, void *arg, MemoryContext cxt, ReadOutcome *out)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	const HroeKeySchema *ks = s->bound.schema;
	HroeKeyCond *last = s->bound.range_last;
	Relation	rel,
				idx;
	ScanKeyData keys[HROE_MAX_KEY_ATTRS + 2];
	int			nkeys = 0;
	int			attno = 1;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	AclResult	aclresult;
	AttrNumber	item_attno;
	MemoryContext rowcxt,
				oldcxt;

	if (!hroe_direct_access ||
		check_enable_rls(t->relid, InvalidOid, true) == RLS_ENABLED)
		return false;
	aclresult = pg_class_aclcheck(t->relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_TABLE, get_rel_name(t->relid));
	rel = table_open(t->relid, AccessShareLock);
	if (ix)
		idx = index_open(ix->indexrelid, AccessShareLock);
	else
	{
		Oid			pkey = OidIsValid(t->pkey_index) ? t->pkey_index : RelationGetPrimaryKeyIndex(rel);

		idx = index_open(pkey, AccessShareLock);
	}
	item_attno = get_attnum(t->relid, "item");
	for (int i = 0; i < ks->nhash; i++)
		AddScanKey(idx, keys, &nkeys, attno++, BTEqualStrategyNumber,
				   hroe_attr_value_datum(s->bound.hash[i], HashForm(ix, i)));
	for (int i = 0; i < s->bound.nrange_eq; i++)
		AddScanKey(idx, keys, &nkeys, attno++, BTEqualStrategyNumber,
				   hroe_attr_value_datum(s->bound.range_eq[i], false));
	if (last)
	{
		static const StrategyNumber strategies[] = {
			BTEqualStrategyNumber, BTLessStrategyNumber, BTLessEqualStrategyNumber,
			BTGreaterStrategyNumber, BTGreaterEqualStrategyNumber
		};

		if (last->op <= HROE_KEY_GE)
			AddScanKey(idx, keys, &nkeys, attno, strategies[last->op],
					   hroe_attr_value_datum(last->values[0], false));
		else if (last->op == HROE_KEY_BETWEEN)
		{
			AddScanKey(idx, keys, &nkeys, attno, BTGreaterEqualStrategyNumber,
					   hroe_attr_value_datum(last->values[0], false));
			AddScanKey(idx, keys, &nkeys, attno, BTLessEqualStrategyNumber,
					   hroe_attr_value_datum(last->values[1], false));
		}
		else
		{
			StringInfoData succ;
			HroeAttrValue *p = last->values[0];

			initStringInfo(&succ);
			AddScanKey(idx, keys, &nkeys, attno, BTGreaterEqualStrategyNumber,
					   hroe_attr_value_datum(p, false));
			if (ks->types[attno - 1] == 'S' ? StringSuccessor(p->data, p->len, &succ)
				: BytesSuccessor(p->data, p->len, &succ))
			{
				HroeAttrValue hi = *p;

				hi.data = succ.data;
				hi.len = succ.len;
				AddScanKey(idx, keys, &nkeys, attno, BTLessStrategyNumber,
						   hroe_attr_value_datum(&hi, false));
			}
		}
	}

	memset(out, 0, sizeof(*out));
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe read row", ALLOCSET_DEFAULT_SIZES);
	scan = index_beginscan(rel, idx, GetActiveSnapshot(), nkeys, 0);
	index_rescan(scan, keys, nkeys, NULL, 0);
	slot = table_slot_create(rel, NULL);
	while (index_getnext_slot(scan, s->forward ? ForwardScanDirection : BackwardScanDirection, slot))
	{
		bool		isnull;
		bool		present;
		int64		size;
		HroeItem   *item;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(rowcxt);
		oldcxt = MemoryContextSwitchTo(rowcxt);
		item = DatumGetHroeItemP(slot_getattr(slot, item_attno, &isnull));
		size = ix ? hroe_index_entry_size(t, ix, item, &present) : hroe_item_size(item);
		out->scanned++;
		out->bytes += size;
		EmitRead(s, emit, arg, item, out);
		MemoryContextSwitchTo(oldcxt);
		if ((s->limit > 0 && out->scanned >= s->limit) ||
			(s->paged && out->bytes >= HROE_PAGE_BYTES))
		{
			out->stopped = true;
			out->last = CopyItem(cxt, PointerGetDatum(item));
			break;
		}
	}
	ExecDropSingleTupleTableSlot(slot);
	index_endscan(scan);
	index_close(idx, NoLock);
	table_close(rel, NoLock);
	MemoryContextDelete(rowcxt);
	return true;
}

/* Emit into an array being built in a memory context */
typedef struct ItemArray
{
	MemoryContext cxt;
	Datum	   *items;
	int			n;
	int			cap;
} ItemArray;

/* Emitter: append a copy of the item to an ItemArray */
static void
EmitToArray(void *arg, HroeItem *item)
{
	ItemArray  *a = arg;

	if (a->n == a->cap)
	{
		a->cap = a->cap ? a->cap * 2 : 64;
		a->items = a->items ? repalloc(a->items, sizeof(Datum) * a->cap)
			: MemoryContextAlloc(a->cxt, sizeof(Datum) * a->cap);
	}
	a->items[a->n++] = PointerGetDatum(CopyItem(a->cxt, PointerGetDatum(item)));
}

/* Emitter: one result row of a set-returning function */
static void
EmitToTuplestore(void *arg, HroeItem *item)
{
	ReturnSetInfo *rsinfo = arg;
	Datum		d = PointerGetDatum(item);
	bool		isnull = false;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &d, &isnull);
}

/*
 * Select: ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or
 * SPECIFIC_ATTRIBUTES with a ProjectionExpression (E27 checked here)
 */
static void
ApplySelect(ReadSpec *s, const char *select, const char *index_name)
{
	s->project = s->ix != NULL;
	if (select == NULL)
		return;
	if (strcmp(select, "SPECIFIC_ATTRIBUTES") == 0)
	{
		if (s->projection == NIL)
			HroeValidation("1 validation error detected: Value 'SPECIFIC_ATTRIBUTES' at 'select' failed to satisfy constraint: Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES");
		return;
	}
	if (s->projection != NIL)
		HroeValidation(psprintf("Cannot specify the ProjectionExpression when choosing to get %s", select));
	if (strcmp(select, "COUNT") == 0)
		s->count_only = true;
	else if (strcmp(select, "ALL_ATTRIBUTES") == 0)
	{
		if (s->ix && s->ix->projection != HROE_PROJECT_ALL)
			HroeValidation(psprintf("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL",
									index_name));
		s->project = false;
	}
	else if (strcmp(select, "ALL_PROJECTED_ATTRIBUTES") == 0)
	{
		if (s->ix == NULL)
			HroeValidation("One or more parameter values were invalid: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
	}
	else
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]",
								select));
}

/* The table and index of a read request: E28, E26 */
static void
ResolveTarget(ReadSpec *s, const char *table, const char *index, bool consistent)
{
	s->t = hroe_table_lookup(table, false);
	s->ix = NULL;
	if (index)
	{
		s->ix = hroe_index_lookup(s->t, index);
		if (s->ix == NULL)
			HroeValidation(psprintf("The table does not have the specified index: %s", index));
		if (consistent)
			HroeValidation("Consistent reads are not supported on global secondary indexes");
	}
	s->consistent = consistent;
}

/*
 * Parse the FilterExpression and ProjectionExpression of a read into s, with
 * the placeholders the KeyConditionExpression (already parsed in ecxt) shares
 */
static void
ParseReadExprs(ReadSpec *s, HroeExprContext *ecxt, const char *filter, const char *projection)
{
	if (filter)
		s->filter = hroe_expr_parse(ecxt, "FilterExpression", filter);
	if (projection)
		s->projection = hroe_projection_parse(ecxt, projection);
	hroe_expr_check_unused(ecxt);
}

/* E14: a Query's FilterExpression may not use the queried key attributes */
static void
CheckFilterKeys(ReadSpec *s)
{
	const HroeKeySchema *ks = s->ix ? &s->ix->schema : &s->t->schema;

	if (s->filter == NULL)
		return;
	for (int i = 0; i < ks->nhash + ks->nrange; i++)
		if (hroe_expr_uses_attribute(s->filter, ks->names[i]))
			HroeValidation(psprintf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s",
									ks->names[i]));
}

/*
 * Parse a Query's KeyConditionExpression (returned), FilterExpression and
 * ProjectionExpression (into s; NULL: none) with one set of placeholders
 */
static HroeExprNode *
ParseQueryExprs(ReadSpec *s, const char *kce, Jsonb *names, Jsonb *values,
				const char *filter, const char *projection)
{
	HroeExprContext *ecxt;
	HroeExprNode *root;

	if (kce == NULL)
		HroeValidation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	ecxt = hroe_expr_context_create(names, values);
	root = hroe_expr_parse(ecxt, "KeyConditionExpression", kce);
	ParseReadExprs(s, ecxt, filter, projection);
	return root;
}

/* Resolve a Query's table and index and bind its parsed key condition */
static void
BindQuery(ReadSpec *s, HroeExprNode *kce, const char *table, const char *index, bool consistent)
{
	HroeKeyCondition *kc = palloc(sizeof(HroeKeyCondition));

	hroe_key_condition_extract(kce, kc);
	ResolveTarget(s, table, index, consistent);
	s->is_query = true;
	CheckFilterKeys(s);
	hroe_key_condition_bind(kc, s->ix ? &s->ix->schema : &s->t->schema, &s->bound);
}

/*
 * Parse and bind a KeyConditionExpression for a Query, with its
 * FilterExpression and ProjectionExpression (NULL: none)
 */
static void
PrepareQuery(ReadSpec *s, const char *table, const char *kce, Jsonb *names, Jsonb *values,
			 const char *index, bool consistent, const char *filter, const char *projection)
{
	HroeExprNode *root = ParseQueryExprs(s, kce, names, values, filter, projection);

	BindQuery(s, root, table, index, consistent);
}

/* The FilterExpression and ProjectionExpression of a Scan (NULL: none) */
static void
PrepareScan(ReadSpec *s, Jsonb *names, Jsonb *values, const char *filter, const char *projection)
{
	if (names && !filter && !projection)
		HroeValidation("ExpressionAttributeNames can only be specified when using expressions");
	if (values && !filter)
		HroeValidation("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null");
	if (filter || projection)
		ParseReadExprs(s, hroe_expr_context_create(names, values), filter, projection);
}

/* Segment and TotalSegments of a parallel Scan, validated as DynamoDB does */
static void
CheckSegments(ReadSpec *s, bool has_seg, int32 seg, bool has_total, int32 total)
{
	if (has_seg && seg < 0)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0", seg));
	if (has_total && total < 1)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1", total));
	if (has_total && total > 1000000)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000", total));
	if (has_seg && !has_total)
		HroeValidation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present");
	if (has_total && !has_seg)
		HroeValidation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
	if (has_total && seg >= total)
		HroeValidation(psprintf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", seg, total));
	s->segment = has_seg ? seg : 0;
	s->total_segments = has_total ? total : 0;
}

/* An ExclusiveStartKey must lie in the requested segment */
static void
CheckStartKeySegment(ReadSpec *s)
{
	HroeItem   *esk_item;
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			n = KeyNames(s->t, s->ix, names);
	HroeAttrValue *vals[HROE_MAX_KEY_ATTRS + 2];

	CheckStartKey(s, names, n, vals);
	esk_item = HroeItemFromJsonb(s->esk);
	if (ItemSegment(s, esk_item) != s->segment)
		HroeValidation(psprintf("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d",
								s->total_segments, s->segment));
}

/*
 * One Query or Scan call (a page: Limit, ExclusiveStartKey, the 1 MB page,
 * Select, ConsumedCapacity), its expressions already parsed: the code of
 * hroe.query_page and hroe.scan_page, and of the JSON API's Query and Scan
 */
void
hroe_read_page(HroeReadRequest *r, HroeReadPage *page)
{
	MemoryContext cxt = CurrentMemoryContext;
	ItemArray	items = {cxt, NULL, 0, 0};
	ReadSpec	s;
	ReadOutcome out;
	double		units;
	double		index_units[HROE_MAX_GSIS] = {0};

	memset(&s, 0, sizeof(s));
	s.forward = !r->query || r->forward;
	s.limit = r->limit;
	s.paged = true;
	s.esk = r->esk;
	s.filter = r->filter;
	s.projection = r->projection;
	hroe_check_return_cc(r->rcc);
	if (r->query)
	{
		BindQuery(&s, r->kce, r->table, r->index, r->consistent);
		ApplySelect(&s, r->select, r->index);
		PushReadSnapshot();
		if (s.esk != NULL || !DirectQuery(&s, EmitToArray, &items, cxt, &out))
		{
			SPI_connect();
			RunRead(&s, EmitToArray, &items, cxt, &out);
			SPI_finish();
		}
	}
	else
	{
		CheckSegments(&s, r->has_segment, r->segment, r->has_total, r->total_segments);
		SPI_connect();
		ResolveTarget(&s, r->table, r->index, r->consistent);
		ApplySelect(&s, r->select, r->index);
		if (s.esk && s.total_segments > 1)
			CheckStartKeySegment(&s);
		PushReadSnapshot();
		RunRead(&s, EmitToArray, &items, cxt, &out);
		SPI_finish();
	}
	PopActiveSnapshot();
	units = hroe_read_units(out.bytes, s.consistent);
	if (s.ix)
	{
		index_units[s.ix - s.t->indexes] = units;
		page->capacity = hroe_capacity_jsonb(r->rcc, r->table, 0, s.t, index_units);
	}
	else
		page->capacity = hroe_capacity_jsonb(r->rcc, r->table, units, s.t, NULL);
	page->count_only = s.count_only;
	page->nitems = items.n;
	page->items = items.items;
	page->count = (int32) out.count;
	page->scanned = (int32) out.scanned;
	page->last_key = out.stopped ? KeyJsonb(s.t, s.ix, out.last) : NULL;
}

/* The page composite: (items, count, scanned_count, lek, consumed_capacity) */
static Datum
PageResult(FunctionCallInfo fcinfo, HroeReadPage *page)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (page->count_only)
		nulls[0] = true;
	else
	{
		get_typlenbyvalalign(ItemTypeOid(), &typlen, &typbyval, &typalign);
		values[0] = PointerGetDatum(construct_array(page->items, page->nitems, ItemTypeOid(),
													typlen, typbyval, typalign));
	}
	values[1] = Int32GetDatum(page->count);
	values[2] = Int32GetDatum(page->scanned);
	values[3] = PointerGetDatum(page->last_key);
	nulls[3] = page->last_key == NULL;
	values[4] = PointerGetDatum(page->capacity);
	nulls[4] = page->capacity == NULL;
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/* Limit >= 1 (E23) */
static int64
CheckLimit(FunctionCallInfo fcinfo, int n)
{
	int32		limit;

	if (PG_ARGISNULL(n))
		return 0;
	limit = PG_GETARG_INT32(n);
	if (limit < 1)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
								limit));
	return limit;
}

/*
 * The prologue of the read functions: the table (argument 0, required) and
 * an empty ReadSpec
 */
static char *
ReadTable(FunctionCallInfo fcinfo, ReadSpec *s)
{
	char	   *table = ArgText(fcinfo, 0);

	if (table == NULL)
		HroeValidation("1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null");
	memset(s, 0, sizeof(*s));
	return table;
}

/* Optional jsonb argument n, or NULL */
#define ArgJsonb(fcinfo, n) (PG_ARGISNULL(n) ? NULL : PG_GETARG_JSONB_P(n))

PG_FUNCTION_INFO_V1(hroe_query);
/*
 * hroe.query(table, kce, values, names, index, forward, consistent, filter,
 * projection): every item the key condition matches (and the filter keeps),
 * in key order (all pages).
 */
Datum
hroe_query(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext cxt = CurrentMemoryContext;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	ReadOutcome out;

	s.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	PrepareQuery(&s, table, ArgText(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
				 ArgText(fcinfo, 4), !PG_ARGISNULL(6) && PG_GETARG_BOOL(6),
				 ArgText(fcinfo, 7), ArgText(fcinfo, 8));
	ApplySelect(&s, NULL, ArgText(fcinfo, 4));
	PushReadSnapshot();
	if (!DirectQuery(&s, EmitToTuplestore, rsinfo, cxt, &out))
	{
		SPI_connect();
		RunRead(&s, EmitToTuplestore, rsinfo, cxt, &out);
		SPI_finish();
	}
	PopActiveSnapshot();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(hroe_query_page);
/*
 * hroe.query_page(table, kce, values, names, index, forward, consistent,
 * limit, esk, select, rcc, filter, projection): one Query call, with Limit,
 * ExclusiveStartKey, the 1 MB page, Select and ConsumedCapacity.
 */
Datum
hroe_query_page(PG_FUNCTION_ARGS)
{
	ReadSpec	s;
	HroeReadRequest r = {0};
	HroeReadPage page;

	r.table = ReadTable(fcinfo, &s);
	r.query = true;
	r.index = ArgText(fcinfo, 4);
	r.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	r.consistent = !PG_ARGISNULL(6) && PG_GETARG_BOOL(6);
	r.limit = CheckLimit(fcinfo, 7);
	r.esk = ArgJsonb(fcinfo, 8);
	r.select = ArgText(fcinfo, 9);
	r.rcc = ArgText(fcinfo, 10);
	hroe_check_return_cc(r.rcc);
	r.kce = ParseQueryExprs(&s, ArgText(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
							ArgText(fcinfo, 11), ArgText(fcinfo, 12));
	r.filter = s.filter;
	r.projection = s.projection;
	hroe_read_page(&r, &page);
	return PageResult(fcinfo, &page);
}

PG_FUNCTION_INFO_V1(hroe_scan);
/*
 * hroe.scan(table, index, consistent, filter, projection, values, names):
 * every item of the table or index (that the filter keeps)
 */
Datum
hroe_scan(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext cxt = CurrentMemoryContext;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	char	   *index = ArgText(fcinfo, 1);
	ReadOutcome out;

	s.forward = true;
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	PrepareScan(&s, ArgJsonb(fcinfo, 6), ArgJsonb(fcinfo, 5), ArgText(fcinfo, 3), ArgText(fcinfo, 4));
	SPI_connect();
	ResolveTarget(&s, table, index, !PG_ARGISNULL(2) && PG_GETARG_BOOL(2));
	ApplySelect(&s, NULL, index);
	PushReadSnapshot();
	RunRead(&s, EmitToTuplestore, rsinfo, cxt, &out);
	PopActiveSnapshot();
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(hroe_scan_page);
/*
 * hroe.scan_page(table, index, consistent, limit, esk, select, rcc, segment,
 * total_segments, filter, projection, values, names): one Scan call
 */
Datum
hroe_scan_page(PG_FUNCTION_ARGS)
{
	ReadSpec	s;
	HroeReadRequest r = {0};
	HroeReadPage page;

	r.table = ReadTable(fcinfo, &s);
	r.index = ArgText(fcinfo, 1);
	r.consistent = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	r.limit = CheckLimit(fcinfo, 3);
	r.esk = ArgJsonb(fcinfo, 4);
	r.select = ArgText(fcinfo, 5);
	r.rcc = ArgText(fcinfo, 6);
	r.has_segment = !PG_ARGISNULL(7);
	r.segment = r.has_segment ? PG_GETARG_INT32(7) : 0;
	r.has_total = !PG_ARGISNULL(8);
	r.total_segments = r.has_total ? PG_GETARG_INT32(8) : 0;
	hroe_check_return_cc(r.rcc);
	CheckSegments(&s, r.has_segment, r.segment, r.has_total, r.total_segments);
	PrepareScan(&s, ArgJsonb(fcinfo, 12), ArgJsonb(fcinfo, 11), ArgText(fcinfo, 9), ArgText(fcinfo, 10));
	r.filter = s.filter;
	r.projection = s.projection;
	hroe_read_page(&r, &page);
	return PageResult(fcinfo, &page);
}

PG_FUNCTION_INFO_V1(hroe_explain_query);
/*
 * hroe.explain_query(...): the PostgreSQL plan (EXPLAIN, COSTS OFF) of the
 * statement hroe.query/hroe.query_page runs for these arguments: the cached
 * generic plan itself, so the key values show as parameters $1, $2, ...
 */
Datum
hroe_explain_query(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	ReadStatement st;
	SPIPlanPtr	plan;
	CachedPlan *cplan;
	ExplainState *es;

	s.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	s.esk = PG_ARGISNULL(6) ? NULL : PG_GETARG_JSONB_P(6);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	SPI_connect();
	PrepareQuery(&s, table, ArgText(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
				 ArgText(fcinfo, 4), false, NULL, NULL);
	BuildRead(&s, &st);
	plan = hroe_table_plan(s.t, st.shape.data, st.sql.data, st.np, st.types);
	hroe_push_search_path();
	cplan = SPI_plan_get_cached_plan(plan);
	hroe_pop_search_path();
	if (cplan == NULL || list_length(cplan->stmt_list) != 1)
		elog(ERROR, "no cached plan for \"%s\"", st.sql.data);
	es = NewExplainState();
	es->costs = false;
	ExplainBeginOutput(es);
	ExplainOnePlan(linitial_node(PlannedStmt, cplan->stmt_list), NULL, es, st.sql.data,
				   NULL, NULL, NULL, NULL);
	ExplainEndOutput(es);
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
	/* one row per line */
	for (char *line = es->str->data, *nl; line && *line; line = nl ? nl + 1 : NULL)
	{
		Datum		d;
		bool		isnull = false;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		d = CStringGetTextDatum(line);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &d, &isnull);
	}
	SPI_finish();
	return (Datum) 0;
}

/* ---------- batches ---------- */

/* A key's identity for duplicate detection: type letters and bytes */
static char *
KeyIdentityAttr(HroeAttrValue **vals, int n)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
	{
		appendStringInfo(&buf, "%c%d:", vals[i]->type[0], vals[i]->len);
		appendBinaryStringInfo(&buf, vals[i]->data, vals[i]->len);
	}
	return buf.data;
}

/* The same identity for the key of an item */
static char *
KeyIdentityItem(HroeTableMeta *t, HroeItem *item)
{
	StringInfoData buf;
	HroeValue	map,
				v;

	initStringInfo(&buf);
	hroe_item_root(item, &map);
	for (int i = 0; i < t->schema.nhash + t->schema.nrange; i++)
	{
		hroe_map_find(&map, t->schema.names[i], strlen(t->schema.names[i]), &v);
		appendStringInfo(&buf, "%c%d:", t->schema.types[i], (int) v.len);
		appendBinaryStringInfo(&buf, v.data, v.len);
	}
	return buf.data;
}

/* Raise E29 if identity appears twice */
static void
CheckDuplicate(char **ids, int n)
{
	for (int i = 0; i < n - 1; i++)
		if (strcmp(ids[i], ids[n - 1]) == 0)
			HroeValidation("Provided list of item keys contains duplicates");
}

/* The entries of a jsonb object: keys and values */
static int
ObjectEntries(Jsonb *obj, char ***keys, JsonbValue **vals)
{
	JsonbIterator *it = JsonbIteratorInit(&obj->root);
	JsonbIteratorToken tok;
	JsonbValue	k,
				v;
	int			n = 0,
				cap = JB_ROOT_COUNT(obj);

	*keys = palloc(sizeof(char *) * Max(cap, 1));
	*vals = palloc(sizeof(JsonbValue) * Max(cap, 1));
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		if (tok != WJB_KEY)
			continue;
		JsonbIteratorNext(&it, &v, true);
		(*keys)[n] = pnstrdup(k.val.string.val, k.val.string.len);
		(*vals)[n++] = v;
	}
	return n;
}

/* Elements of a jsonb array value (jbvBinary) */
static int
ArrayElements(JsonbValue *arr, JsonbValue **elems)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	v;
	int			n = 0,
				cap = 16;

	*elems = palloc(sizeof(JsonbValue) * cap);
	if (arr->type != jbvBinary || !JsonContainerIsArray(arr->val.binary.data))
		return -1;
	it = JsonbIteratorInit(arr->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok != WJB_ELEM)
			continue;
		if (n == cap)
			*elems = repalloc(*elems, sizeof(JsonbValue) * (cap *= 2));
		(*elems)[n++] = v;
	}
	return n;
}

/* Member name of a jsonb object value, or NULL */
static JsonbValue *
Member(JsonbValue *obj, const char *name)
{
	JsonbValue	k;

	if (obj->type != jbvBinary || !JsonContainerIsObject(obj->val.binary.data))
		return NULL;
	k.type = jbvString;
	k.val.string.val = (char *) name;
	k.val.string.len = strlen(name);
	return findJsonbValueFromContainer(obj->val.binary.data, JB_FOBJECT, &k);
}

/* RequestItems must be a non-empty object */
static void
RequireObject(Jsonb *j, const char *call)
{
	if (!JB_ROOT_IS_OBJECT(j) || JB_ROOT_IS_SCALAR(j) || JB_ROOT_COUNT(j) == 0)
		HroeValidation(psprintf("1 validation error detected: Value '{}' at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1"));
	(void) call;
}

/*
 * A BatchGetItem table's ProjectionExpression (with its
 * ExpressionAttributeNames), parsed; NIL when it has none
 */
static List *
BatchProjection(JsonbValue *spec)
{
	JsonbValue *proj = Member(spec, "ProjectionExpression");
	JsonbValue *names;
	HroeExprContext *ecxt;
	List	   *paths;

	if (proj && proj->type != jbvNull && proj->type != jbvString)
		HroeSerialization("Unexpected value type in payload: ProjectionExpression");
	names = Member(spec, "ExpressionAttributeNames");
	if (names && names->type == jbvNull)
		names = NULL;
	if (proj == NULL || proj->type == jbvNull)
	{
		if (names)
			HroeValidation("ExpressionAttributeNames can only be specified when using expressions");
		return NIL;
	}
	if (names && names->type != jbvBinary)
		HroeSerialization("Unexpected value type in payload: ExpressionAttributeNames");
	ecxt = hroe_expr_context_create(names ? JsonbValueToJsonb(names) : NULL, NULL);
	paths = hroe_projection_parse(ecxt, pnstrdup(proj->val.string.val, proj->val.string.len));
	hroe_expr_check_unused(ecxt);
	return paths;
}

/*
 * BatchGetItem of RequestItems as DynamoDB JSON: {"Responses": {table:
 * [items]}, "UnprocessedKeys": {}, "ConsumedCapacity": [...]}, each table's
 * items projected on its ProjectionExpression.
 */
Jsonb *
hroe_batch_get(Jsonb *req, const char *rcc)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	  **tables = NULL;
	JsonbValue *specs = NULL;
	int			ntables = 0;
	int			total = 0;
	char	  **ids = palloc(sizeof(char *) * HROE_BATCH_GET_MAX);
	StringInfoData resp,
				ccs,
				unprocessed;
	Jsonb	   *result;
	HroeTableMeta **metas;
	Datum	  **keys;
	JsonbValue **elems;
	int		   *nkeys;
	int64		response_bytes = 0;
	bool		full = false;
	List	  **paths = NULL;

	/* the projections first, as DynamoDB checks the expressions first */
	if (JB_ROOT_IS_OBJECT(req) && !JB_ROOT_IS_SCALAR(req))
	{
		ntables = ObjectEntries(req, &tables, &specs);
		paths = palloc(sizeof(List *) * Max(ntables, 1));
		for (int i = 0; i < ntables; i++)
			paths[i] = BatchProjection(&specs[i]);
	}
	hroe_check_return_cc(rcc);
	RequireObject(req, "BatchGetItem");
	/* count first: the limit is checked before anything is read */
	for (int i = 0; i < ntables; i++)
	{
		JsonbValue *keys = Member(&specs[i], "Keys");
		JsonbValue *elems;
		int			n = keys ? ArrayElements(keys, &elems) : -1;

		if (n < 1)
			HroeValidation("1 validation error detected: Value null at 'requestItems.keys' failed to satisfy constraint: Member must have length greater than or equal to 1");
		total += n;
	}
	if (total > HROE_BATCH_GET_MAX)
		HroeValidation("Too many items requested for the BatchGetItem call");

	initStringInfo(&resp);
	initStringInfo(&ccs);
	initStringInfo(&unprocessed);
	metas = palloc(sizeof(HroeTableMeta *) * ntables);
	keys = palloc(sizeof(Datum *) * ntables);
	elems = palloc(sizeof(JsonbValue *) * ntables);
	nkeys = palloc(sizeof(int) * ntables);
	SPI_connect();
	/* validate every key and look for duplicates before reading anything */
	total = 0;
	for (int i = 0; i < ntables; i++)
	{
		int			base = total;
		HroeAttrValue **vals;

		metas[i] = hroe_table_lookup(tables[i], false);
		nkeys[i] = ArrayElements(Member(&specs[i], "Keys"), &elems[i]);
		keys[i] = palloc(sizeof(Datum) * nkeys[i] * 2);
		vals = palloc(sizeof(HroeAttrValue *) * nkeys[i] * 2);
		for (int k = 0; k < nkeys[i]; k++)
		{
			if (elems[i][k].type != jbvBinary)
				HroeValidation("The provided key element does not match the schema");
			hroe_check_request_key(metas[i], JsonbValueToJsonb(&elems[i][k]), keys[i] + 2 * k, vals + 2 * k);
			ids[total++] = KeyIdentityAttr(vals + 2 * k, metas[i]->schema.nhash + metas[i]->schema.nrange);
			CheckDuplicate(ids + base, total - base);
		}
	}
	appendStringInfoString(&resp, "{\"Responses\": {");
	PushReadSnapshot();
	for (int i = 0; i < ntables; i++)
	{
		HroeTableMeta *t = metas[i];
		JsonbValue *cr = Member(&specs[i], "ConsistentRead");
		bool		consistent = cr && cr->type == jbvBool && cr->val.boolean;
		double		units = 0;
		bool		first = true;
		bool		first_unprocessed = true;

		if (i > 0)
			appendStringInfoString(&resp, ", ");
		escape_json(&resp, tables[i]);
		appendStringInfoString(&resp, ": [");
		for (int k = 0; k < nkeys[i]; k++)
		{
			HroeItem   *item = NULL;

			/*
			 * an item that would take the response past 16 MB is not
			 * returned: its key and the remaining ones are left unprocessed
			 */
			if (!full)
			{
				item = FetchItem(t, keys[i] + 2 * k, false, cxt);
				full = item && response_bytes + hroe_item_size(item) > HROE_BATCH_GET_BYTES;
			}
			if (full)
			{
				if (first_unprocessed)
				{
					appendStringInfo(&unprocessed, "%s", unprocessed.len ? ", " : "");
					escape_json(&unprocessed, tables[i]);
					appendStringInfoString(&unprocessed, ": {\"Keys\": [");
				}
				else
					appendStringInfoString(&unprocessed, ", ");
				appendStringInfoString(&unprocessed,
									   JsonbToCString(NULL, elems[i][k].val.binary.data, elems[i][k].val.binary.len));
				first_unprocessed = false;
				continue;
			}
			/* per item: rounded to 4 KB each, then summed (section 6) */
			units += hroe_read_units(item ? hroe_item_size(item) : 0, consistent);
			if (item)
			{
				response_bytes += hroe_item_size(item);
				if (!first)
					appendStringInfoString(&resp, ", ");
				hroe_item_write(&resp, paths[i] ? hroe_project(paths[i], item) : item);
				first = false;
			}
		}
		appendStringInfoChar(&resp, ']');
		if (!first_unprocessed)
			appendStringInfo(&unprocessed, "], \"ConsistentRead\": %s}", consistent ? "true" : "false");
		if (rcc && strcmp(rcc, "NONE") != 0)
		{
			Jsonb	   *cc = hroe_capacity_jsonb(rcc, tables[i], units, t, NULL);

			appendStringInfo(&ccs, "%s%s", ccs.len ? ", " : "",
							 JsonbToCString(NULL, &cc->root, VARSIZE(cc)));
		}
	}
	PopActiveSnapshot();
	SPI_finish();
	appendStringInfo(&resp, "}, \"UnprocessedKeys\": {%s}", unprocessed.data);
	if (rcc && strcmp(rcc, "NONE") != 0)
		appendStringInfo(&resp, ", \"ConsumedCapacity\": [%s]", ccs.data);
	appendStringInfoChar(&resp, '}');
	result = TextToJsonb(resp.data);
	return result;
}

PG_FUNCTION_INFO_V1(hroe_batch_get_item);
/* hroe.batch_get_item(request_items, return_consumed_capacity) */
Datum
hroe_batch_get_item(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(hroe_batch_get(PG_GETARG_JSONB_P(0), ArgText(fcinfo, 1)));
}

/* One request of a BatchWriteItem: its table, its place there, its key */
typedef struct BatchWrite
{
	int			table;
	int			k;
	char	   *identity;		/* hroe_item_key_identity: the lock order */
} BatchWrite;

/* The requests of a batch, their items or keys, and what they consumed */
typedef struct BatchWrites
{
	int			n;
	BatchWrite *w;				/* in the canonical lock order */
	int			ntables;
	HroeTableMeta **metas;
	HroeItem ***puts;			/* [table][k]: the item, NULL for a delete */
	Datum	  **delkeys;		/* [table][2k]: a delete's key */
	double	   *units;			/* [table] */
	double	   *index_units;	/* [table * HROE_MAX_GSIS] */
} BatchWrites;

/* qsort: requests in the canonical lock order */
static int
BatchWriteCmp(const void *a, const void *b)
{
	return hroe_key_identity_cmp(((const BatchWrite *) a)->identity,
								 ((const BatchWrite *) b)->identity);
}

/*
 * Write every request of a batch, in the canonical order; with lock_keys,
 * each under its key's advisory lock (hroe_lock_item_key), as conditional
 * writes and transactions are
 */
static void
BatchWriteAll(BatchWrites *b, bool lock_keys, MemoryContext cxt)
{
	memset(b->units, 0, sizeof(double) * b->ntables);
	memset(b->index_units, 0, sizeof(double) * b->ntables * HROE_MAX_GSIS);
	for (int j = 0; j < b->n; j++)
	{
		int			i = b->w[j].table,
					k = b->w[j].k;
		HroeTableMeta *t = b->metas[i];
		double		u,
					iu[HROE_MAX_GSIS];

		if (lock_keys)
			hroe_lock_item_key(t, b->w[j].identity, true);
		if (b->puts[i][k])
			DoPut(t, b->puts[i][k], false, NULL, NULL, true, cxt, &u, iu, NULL);
		else
			DoDelete(t, b->delkeys[i] + 2 * k, cxt, &u, iu);
		b->units[i] += u;
		for (int x = 0; x < t->nindexes; x++)
			b->index_units[i * HROE_MAX_GSIS + x] += iu[x];
	}
}

/*
 * Write a batch in a subtransaction; a deadlock rolls it back and writes it
 * again.  Batches lock in the canonical order, as transactions do, so only
 * an insertion can close a cycle: a transaction that found an item absent
 * while locking, and holds other rows, inserts it after the batch did while
 * the batch waits for one of those rows.  DynamoDB never fails a batch for
 * that; rolled back, the batch holds nothing the transaction waits for, and
 * it writes again under its keys' advisory locks, which the transaction
 * holds until it ends: the batch waits for it instead of inserting first
 * again.  (The first attempt takes no advisory lock: a transaction may
 * write any number of items, and these locks last until it ends.)
 */
static void
BatchWriteRetrying(BatchWrites *b, MemoryContext cxt)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner = CurrentResourceOwner;

	for (volatile int attempt = 1;; attempt++)
	{
		volatile bool done = false;

		BeginInternalSubTransaction(NULL);
		MemoryContextSwitchTo(oldcxt);
		PG_TRY();
		{
			BatchWriteAll(b, attempt > 1, cxt);
			ReleaseCurrentSubTransaction();
			done = true;
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			MemoryContextSwitchTo(oldcxt);
			edata = CopyErrorData();
			FlushErrorState();
			RollbackAndReleaseCurrentSubTransaction();
			MemoryContextSwitchTo(oldcxt);
			CurrentResourceOwner = oldowner;
			if (edata->sqlerrcode != ERRCODE_T_R_DEADLOCK_DETECTED ||
				attempt >= BATCH_WRITE_ATTEMPTS)
				ReThrowError(edata);
			FreeErrorData(edata);
		}
		PG_END_TRY();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		if (done)
			return;
	}
}

/*
 * BatchWriteItem of RequestItems as DynamoDB JSON: 1-25
 * PutRequest/DeleteRequest, each atomic; DynamoDB's response body
 */
Jsonb *
hroe_batch_write(Jsonb *req, const char *rcc)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	  **tables;
	JsonbValue *specs;
	int			ntables;
	int			total = 0;
	char	  **ids = palloc(sizeof(char *) * HROE_BATCH_WRITE_MAX);
	StringInfoData resp,
				ccs;
	JsonbValue **elems;
	int		   *nelems;
	BatchWrites b;

	hroe_check_return_cc(rcc);
	RequireObject(req, "BatchWriteItem");
	ntables = ObjectEntries(req, &tables, &specs);
	elems = palloc(sizeof(JsonbValue *) * ntables);
	nelems = palloc(sizeof(int) * ntables);
	for (int i = 0; i < ntables; i++)
	{
		nelems[i] = ArrayElements(&specs[i], &elems[i]);
		if (nelems[i] < 1)
			HroeValidation("1 validation error detected: Value null at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]");
		total += nelems[i];
	}
	if (total > HROE_BATCH_WRITE_MAX)
		HroeValidation("Too many items requested for the BatchWriteItem call");

	/* the response outlives SPI_finish: built in the caller's context */
	initStringInfo(&resp);
	initStringInfo(&ccs);
	SPI_connect();
	b.ntables = ntables;
	b.metas = palloc(sizeof(HroeTableMeta *) * ntables);
	b.puts = palloc(sizeof(HroeItem **) * ntables);
	b.delkeys = palloc(sizeof(Datum *) * ntables);
	b.w = palloc(sizeof(BatchWrite) * total);
	b.units = palloc(sizeof(double) * ntables);
	b.index_units = palloc(sizeof(double) * ntables * HROE_MAX_GSIS);
	total = 0;
	/* validate everything (keys, items, duplicates) before writing anything */
	for (int i = 0; i < ntables; i++)
	{
		int			base = total;

		b.metas[i] = hroe_table_lookup(tables[i], false);
		b.puts[i] = palloc0(sizeof(HroeItem *) * nelems[i]);
		b.delkeys[i] = palloc0(sizeof(Datum) * nelems[i] * 2);
		for (int k = 0; k < nelems[i]; k++)
		{
			JsonbValue *put = Member(&elems[i][k], "PutRequest");
			JsonbValue *del = Member(&elems[i][k], "DeleteRequest");
			JsonbValue *arg;
			HroeItem   *keyitem;

			if ((put == NULL) == (del == NULL))
				HroeValidation("Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
			if (put)
			{
				Datum		keys[2];

				arg = Member(put, "Item");
				if (arg == NULL || arg->type != jbvBinary)
					HroeValidation("1 validation error detected: Value null at 'requestItems.putRequest.item' failed to satisfy constraint: Member must not be null");
				b.puts[i][k] = hroe_item_from_jsonb(arg->val.binary.data, arg->val.binary.len);
				hroe_check_item_key(b.metas[i], b.puts[i][k], keys);
				ids[total] = KeyIdentityItem(b.metas[i], b.puts[i][k]);
				keyitem = b.puts[i][k];
			}
			else
			{
				HroeAttrValue *vals[2];

				arg = Member(del, "Key");
				if (arg == NULL || arg->type != jbvBinary)
					HroeValidation("1 validation error detected: Value null at 'requestItems.deleteRequest.key' failed to satisfy constraint: Member must not be null");
				hroe_check_request_key(b.metas[i], JsonbValueToJsonb(arg), b.delkeys[i] + 2 * k, vals);
				ids[total] = KeyIdentityAttr(vals, b.metas[i]->schema.nhash + b.metas[i]->schema.nrange);
				keyitem = hroe_item_from_jsonb(arg->val.binary.data, arg->val.binary.len);
			}
			b.w[total].table = i;
			b.w[total].k = k;
			b.w[total].identity = hroe_item_key_identity(b.metas[i], keyitem);
			total++;
			CheckDuplicate(ids + base, total - base);
		}
	}
	b.n = total;
	/* written in the canonical order, whatever the request's */
	qsort(b.w, b.n, sizeof(BatchWrite), BatchWriteCmp);
	BatchWriteRetrying(&b, cxt);
	for (int i = 0; i < ntables; i++)
	{
		if (rcc && strcmp(rcc, "NONE") != 0)
		{
			Jsonb	   *cc = hroe_capacity_jsonb(rcc, tables[i], b.units[i], b.metas[i],
												 b.index_units + i * HROE_MAX_GSIS);

			appendStringInfo(&ccs, "%s%s", ccs.len ? ", " : "",
							 JsonbToCString(NULL, &cc->root, VARSIZE(cc)));
		}
	}
	SPI_finish();
	appendStringInfoString(&resp, "{\"UnprocessedItems\": {}");
	if (rcc && strcmp(rcc, "NONE") != 0)
		appendStringInfo(&resp, ", \"ConsumedCapacity\": [%s]", ccs.data);
	appendStringInfoChar(&resp, '}');
	return TextToJsonb(resp.data);
}

PG_FUNCTION_INFO_V1(hroe_batch_write_item);
/* hroe.batch_write_item(request_items, return_consumed_capacity) */
Datum
hroe_batch_write_item(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(hroe_batch_write(PG_GETARG_JSONB_P(0), ArgText(fcinfo, 1)));
}
