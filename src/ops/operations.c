/*-------------------------------------------------------------------------
 *
 * operations.c
 *	  DynamoDB's item operations on hroe tables: GetItem, and the plain
 *	  PutItem and DeleteItem (doc/dynamodb-rules.md#keys-and-item-size,
 *	  #ordering, #indexes), with the helpers the other operation files
 *	  share (operations_internal.h).
 *	  Conditional writes and UpdateItem are in operations_write.c.
 *
 * Every statement runs through SPI with a plan prepared once per table and
 * statement shape (hroe_table_plan).  A read sees every write before it,
 * those of its own statement too (a SELECT calling PutItem, then GetItem):
 * hroe_op_push_read_snapshot.
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
#include "key.h"
#include "contributor_insights.h"
#include "operations_internal.h"
#include "remote_read.h"
#include "throttle.h"

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
void
hroe_op_push_read_snapshot(void)
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
char *
hroe_op_arg_text(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(n));
}

/* The OID of type hroe.item (the shared, invalidation-aware lookup) */
Oid
hroe_op_item_type_oid(void)
{
	return hroe_item_typid();
}

/* Copy an item Datum (detoasting it) into memory context cxt */
HroeItem *
hroe_op_copy_item(MemoryContext cxt, Datum d)
{
	HroeItem   *item = DatumGetHroeItemP(d);
	HroeItem   *copy = MemoryContextAlloc(cxt, VARSIZE(item));

	memcpy(copy, item, VARSIZE(item));
	return copy;
}

/*
 * Parse DynamoDB JSON text into jsonb, strings whole (an item's U+0000 kept,
 * where jsonb_in would refuse it): whoever returns it to SQL checks it
 * (hroe_jsonb_check_no_nul), the JSON API writes it as text
 */
Jsonb *
hroe_op_text_to_jsonb(const char *s)
{
	bool		has_nul;

	return JsonbValueToJsonb(hroe_json_tree_parse(s, strlen(s), &has_nul));
}

/* Names of the key attributes of the table and the index (deduplicated) */
int
hroe_op_key_names(HroeTableMeta *t, HroeIndexMeta *ix, const char **names)
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
Jsonb *
hroe_op_key_jsonb(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item)
{
	StringInfoData buf;
	HroeValue	map,
				v;
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			n = hroe_op_key_names(t, ix, names);

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
	return hroe_op_text_to_jsonb(buf.data);
}

/* "pk = $1 AND sk = $2" */
static char *
KeyQual(HroeTableMeta *t, int firstparam)
{
	if (t->schema.nrange)
		return psprintf("%s AND sk = $%d", hroe_table_pk_qual(t, firstparam), firstparam + 1);
	return hroe_table_pk_qual(t, firstparam);
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

	*done = false;
	if (t->distributed || !hroe_direct_read_allowed(t->relid))
		return NULL;
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

		result = hroe_op_copy_item(cxt, d);
	}
	ExecDropSingleTupleTableSlot(slot);
	index_endscan(scan);
	index_close(idx, NoLock);
	table_close(rel, NoLock);
	*done = true;
	return result;
}

/*
 * GetItem of a key of distributed table t by hroe's own read path, on its
 * partition partition: one call of the partition server's
 * hroe.item_by_key (its statement built once per partition, prepared once
 * per connection; remote_read.c), in binary
 */
static HroeItem *
RemoteFetch(HroeTableMeta *t, Oid partition, Datum *keys, int n, Oid *types, MemoryContext cxt)
{
	HroeRemoteRead r = {0};
	MemoryContext old;
	MemoryContext tmp;
	HroeItem   *found = NULL;

	r.partition = partition;
	r.get = t;
	r.nparams = n;
	r.types = types;
	r.values = keys;
	/* the result and its buffers: freed with tmp */
	tmp = AllocSetContextCreate(CurrentMemoryContext, "hroe remote GetItem",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	hroe_remote_read_run(&r, 1);
	MemoryContextSwitchTo(cxt);
	if (r.nrows > 0)
		found = hroe_remote_read_item(&r, 0);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
	return found;
}

/* Fetch an item by table key, optionally locking it; NULL if absent */
HroeItem *
hroe_op_fetch_item(HroeTableMeta *t, Datum *keys, bool for_update, MemoryContext cxt)
{
	Oid			types[2];
	int			n = KeyTypes(t, types);
	SPIPlanPtr	plan;
	int			ret;
	bool		isnull;
	bool		done;
	HroeItem   *item;
	List	   *parts;

	if (for_update)
		return hroe_lock_row(t, keys, NULL, cxt);
	item = DirectFetch(t, keys, cxt, &done);
	if (done)
		return item;
	/*
	 * (a table the own read path may read but whose partitions this role
	 * may not: none readable by name either, hroe_table_read_partitions's
	 * checks being the same; the statement on the table itself)
	 */
	parts = NIL;
	if (hroe_remote_read_usable(t))
	{
		Oid			partition = hroe_table_read_key_partition(t, keys[0]);

		if (OidIsValid(partition))
			return RemoteFetch(t, partition, keys, n, types, cxt);
	}
	else
		parts = hroe_table_read_partitions(t, NULL);
	if (parts != NIL)
	{
		/*
		 * a distributed table's key: its partition read by name, a generic
		 * plan, the key conditions all shipped (hroe_table_read_partitions)
		 */
		int			part = hroe_table_key_partition(t, keys[0]);
		char	   *shape;

		shape = psprintf("get:p%d", part);

		plan = hroe_table_plan_find(t, shape);
		if (plan == NULL)
			plan = hroe_table_plan_partitions(t, shape,
											  psprintf("SELECT item FROM ONLY %s WHERE pk = $1%s",
													   (char *) list_nth(parts, part),
													   t->schema.nrange ? " AND sk = $2" : ""),
											  n, types);
	}
	else
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
	return hroe_op_copy_item(cxt, SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

PG_FUNCTION_INFO_V1(hroe_item_by_key);

/*
 * SQL: hroe.item_by_key(table_name text, VARIADIC key "any"): the item of
 * hroe table table_name whose primary key columns equal key (separate
 * arguments of the key columns' types), NULL when absent.  What a
 * coordinator's own read path calls for a GetItem on a partition server
 * (remote_read.c): the server's own local GetItem of the table of that
 * name, hroe_op_fetch_item (its caches, its direct btree probe when the
 * caller may, else its prepared statement, which applies column privileges
 * and row-level security), without throttling or capacity.  SECURITY
 * INVOKER, under the statement's snapshot.
 */
Datum
hroe_item_by_key(PG_FUNCTION_ARGS)
{
	char	   *table = text_to_cstring(PG_GETARG_TEXT_PP(0));
	int			nkeys = PG_NARGS() - 1;
	MemoryContext cxt = CurrentMemoryContext;
	HroeTableMeta *t;
	Datum		keys[2];
	Oid			types[2];
	int			n;
	HroeItem   *item;

	if (get_fn_expr_variadic(fcinfo->flinfo))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hroe.item_by_key takes its key as separate arguments, not as a VARIADIC array")));
	SPI_connect();
	t = hroe_table_lookup(table, false);
	n = KeyTypes(t, types);
	if (nkeys != n)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the key of table \"%s\" has %d columns, not %d", t->name, n, nkeys)));
	for (int i = 0; i < n; i++)
	{
		Oid			type = get_fn_expr_argtype(fcinfo->flinfo, i + 1);

		if (type != types[i])
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("key column %d of table \"%s\" is of type %s, not %s", i + 1, t->name,
							format_type_be(types[i]), format_type_be(type))));
		/* (STRICT: no key column is null) */
		keys[i] = PG_GETARG_DATUM(i + 1);
	}
	item = hroe_op_fetch_item(t, keys, false, cxt);
	SPI_finish();
	if (item == NULL)
		PG_RETURN_NULL();
	PG_RETURN_POINTER(item);
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
	/* DynamoDB's throttling (throttle.c) */
	if (!hroe_throttle_admit(t, false, -1, &keys[0], false))
		hroe_throttle_refuse_item(t, hroe_item_from_jsonb(&key->root, VARSIZE(key)), false, true);
	hroe_op_push_read_snapshot();
	item = hroe_op_fetch_item(t, keys, false, cxt);
	PopActiveSnapshot();
	*units = hroe_read_units(item ? hroe_item_size(item) : 0, consistent);
	hroe_throttle_charge(t, false, -1, &keys[0], *units, NULL);
	/* (a read of no item is a read of its key all the same) */
	if (t->contributor_insights_any)
		hroe_contributor_insights_item(t, NULL, item ? item : HroeItemFromJsonb(key), false, false);
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
	char	   *table = hroe_op_arg_text(fcinfo, 0);
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
	char	   *rcc = hroe_op_arg_text(fcinfo, 3);
	HroeTableMeta *t;
	HroeItem   *item;
	double		units;

	hroe_check_return_cc(rcc);
	item = GetCall(fcinfo, &t, &units);
	return ItemResult(fcinfo, item, hroe_capacity_jsonb(rcc, hroe_op_arg_text(fcinfo, 0), units, t, NULL));
}

/* ---------- PutItem, DeleteItem ---------- */

/* A write that reports no capacity (the caller asked for none) */
static void
NoCapacity(HroeTableMeta *t, double *units, double *index_units)
{
	*units = 0;
	for (int i = 0; i < t->nindexes + t->nvectors; i++)
		index_units[i] = 0;
}

/*
 * The upsert of a plain PutItem on a distributed table, which has no unique
 * index for ON CONFLICT (pk, sk) to name: an UPDATE by key, else an INSERT
 * ... ON CONFLICT DO NOTHING (which postgres_fdw ships, and the partition's
 * own primary key arbitrates), again until one of them writes the item (an
 * insert that met a concurrent one updates that item next).
 */
static void
DistributedUpsert(HroeTableMeta *t, HroeItem *item, Datum *keys)
{
	Datum		args[3];
	Oid			types[3];
	int			n = KeyTypes(t, types);
	Oid			itype = hroe_op_item_type_oid();
	Datum		d = PointerGetDatum(item);
	SPIPlanPtr	update,
				insert;
	int			ret;

	for (int i = 0; i < n; i++)
		args[i] = keys[i];
	types[n] = itype;
	args[n] = d;
	update = hroe_table_plan(t, "put-update",
							 psprintf("UPDATE %s SET item = $%d WHERE %s",
									  t->relname, n + 1, KeyQual(t, 1)),
							 n + 1, types);
	insert = hroe_table_plan(t, "put-insert",
							 psprintf("INSERT INTO %s (item) VALUES ($1) ON CONFLICT DO NOTHING",
									  t->relname),
							 1, &itype);
	for (;;)
	{
		hroe_push_search_path();
		ret = SPI_execute_plan(update, args, NULL, false, 0);
		hroe_pop_search_path();
		if (ret != SPI_OK_UPDATE)
			elog(ERROR, "PutItem failed to update an item of %s: %s", t->relname,
				 SPI_result_code_string(ret));
		if (SPI_processed == 1)
			return;
		hroe_push_search_path();
		ret = SPI_execute_plan(insert, &d, NULL, false, 0);
		hroe_pop_search_path();
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "PutItem failed to insert an item of %s: %s", t->relname,
				 SPI_result_code_string(ret));
		if (SPI_processed == 1)
			return;
		CHECK_FOR_INTERRUPTS();
	}
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
HroeItem *
hroe_op_do_put(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
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
	hroe_contributor_insights_item(t, NULL, item, true, false);
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
		Oid			itype = hroe_op_item_type_oid();
		Datum		d = PointerGetDatum(item);

		NoCapacity(t, units, index_units);
		if (t->distributed)
		{
			DistributedUpsert(t, item, keys);
			return NULL;
		}
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
		old = locked ? locked_old : hroe_op_fetch_item(t, keys, true, cxt);
		if (old && locked && locked_tid && ItemPointerIsValid(locked_tid))
		{
			Oid			ttypes[2] = {hroe_op_item_type_oid(), TIDOID};
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
			types[n] = hroe_op_item_type_oid();
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
			Oid			itype = hroe_op_item_type_oid();
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
	return hroe_op_do_put(t, item, locked, locked_old, locked_tid, need_old, CurrentMemoryContext,
				 units, index_units, conflict);
}

/* DeleteItem: returns the deleted item (or NULL) */
HroeItem *
hroe_op_do_delete(HroeTableMeta *t, Datum *keys, MemoryContext cxt, double *units, double *index_units)
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
		old = hroe_op_copy_item(cxt, SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	*units = hroe_write_capacity(t, old, NULL, index_units);
	hroe_contributor_insights_item(t, NULL, old, true, false);
	return old;
}

/* DeleteItem of a key given as DynamoDB JSON (SPI connected) */
HroeItem *
hroe_delete(HroeTableMeta *t, Jsonb *key, double *units, double *index_units)
{
	Datum		keys[2];

	HroeItem   *old;

	hroe_check_request_key(t, key, keys, NULL);
	old = hroe_op_do_delete(t, keys, CurrentMemoryContext, units, index_units);
	/* a delete of no item is a write of its key all the same */
	if (old == NULL && t->contributor_insights_any)
		hroe_contributor_insights_item(t, NULL, HroeItemFromJsonb(key), true, false);
	return old;
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
	*return_old = hroe_check_return_old(hroe_op_arg_text(fcinfo, 2));
	*rcc = hroe_op_arg_text(fcinfo, 3);
	hroe_check_return_cc(*rcc);
	return hroe_op_arg_text(fcinfo, 0);
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
	double		index_units[HROE_MAX_INDEXES] = {0};
	Jsonb	   *cc;

	if (ConditionalWrite(fcinfo))
		return hroe_conditional_write_call(fcinfo, HROE_WRITE_PUT);
	table = WriteArgs(fcinfo, &return_old, &rcc);
	item = PG_GETARG_HROE_ITEM_P(1);
	SPI_connect();
	t = hroe_table_lookup(table, false);
	old = hroe_op_do_put(t, item, false, NULL, NULL, return_old || (rcc && strcmp(rcc, "NONE") != 0),
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
	double		index_units[HROE_MAX_INDEXES] = {0};
	Jsonb	   *cc;

	if (ConditionalWrite(fcinfo))
		return hroe_conditional_write_call(fcinfo, HROE_WRITE_DELETE);
	table = WriteArgs(fcinfo, &return_old, &rcc);
	key = PG_GETARG_JSONB_P(1);
	SPI_connect();
	t = hroe_table_lookup(table, false);
	hroe_check_request_key(t, key, keys, NULL);
	old = hroe_op_do_delete(t, keys, cxt, &units, index_units);
	if (old == NULL && t->contributor_insights_any)
		hroe_contributor_insights_item(t, NULL, HroeItemFromJsonb(key), true, false);
	SPI_finish();
	cc = hroe_capacity_jsonb(rcc, table, units, t, index_units);
	return ItemResult(fcinfo, return_old ? old : NULL, cc);
}
