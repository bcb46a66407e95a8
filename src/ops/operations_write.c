/*-------------------------------------------------------------------------
 *
 * operations_write.c
 *	  PutItem, UpdateItem and DeleteItem with their conditions, and the row
 *	  locks (doc/dynamodb-rules.md#ordering, #expressions): the C API of operations.h behind
 *	  hroe.put_item, hroe.update_item, hroe.delete_item and the JSON API.
 *
 * Conditional writes and transactions evaluate their conditions on rows
 * locked FOR UPDATE; an absent row cannot be locked, so every conditional
 * write first takes a transaction-level advisory lock on a hash of the table
 * and the item's key: two writers of one key are serialized, and the later
 * one sees the earlier one's row.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/memutils.h"

#include "operations_internal.h"
#include "throttle.h"

/* ---------- item collection metrics ---------- */

/*
 * The ItemCollectionMetrics of a write to table t (ReturnItemCollectionMetrics
 * SIZE), whose table key is in item, appended to buf: false (nothing
 * appended) unless t has a local secondary index; else {"ItemCollectionKey":
 * the partition key, "SizeEstimateRangeGB": [lo, hi]}, the item collection's
 * size after the write (its items and their LSI entries, as
 * tables_collection.c keeps it) in GB, between whole numbers lo and
 * hi = lo + 1
 */
static bool
AppendCollectionMetrics(StringInfo buf, HroeTableMeta *t, HroeItem *item)
{
	int64		lo;

	if (!hroe_table_has_lsi(t))
		return false;
	SPI_connect();
	lo = hroe_item_collection_bytes(t, item) / ((int64) 1024 * 1024 * 1024);
	SPI_finish();
	appendStringInfoString(buf, "{\"ItemCollectionKey\":{");
	escape_json(buf, t->schema.names[0]);
	appendStringInfoChar(buf, ':');
	hroe_item_collection_value(t, item, buf);
	appendStringInfo(buf, "},\"SizeEstimateRangeGB\":[" INT64_FORMAT "," INT64_FORMAT "]}", lo, lo + 1);
	return true;
}

/* The ItemCollectionMetrics of one write (PutItem, UpdateItem, DeleteItem), or NULL */
Jsonb *
hroe_item_collection_metrics(HroeTableMeta *t, HroeItem *item)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (!AppendCollectionMetrics(&buf, t, item))
		return NULL;
	return hroe_op_text_to_jsonb(buf.data);
}

/*
 * The ItemCollectionMetrics of several writes (BatchWriteItem,
 * TransactWriteItems): write i to table tables[i] (named names[i]) of the
 * item or key items[i]; a map from each table with local secondary indexes
 * to the metrics of the collections written, each once, in the order of
 * their first write, as JSON text in the current memory context; NULL if no
 * table has one
 */
char *
hroe_item_collection_metrics_map(int n, HroeTableMeta **tables, const char **names,
								 HroeItem **items)
{
	StringInfoData buf;
	bool	   *done = palloc0(sizeof(bool) * n);
	bool		any = false;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	for (int i = 0; i < n; i++)
	{
		StringInfoData list;
		char	  **keys = palloc(sizeof(char *) * n);
		int			nkeys = 0;

		if (done[i] || !hroe_table_has_lsi(tables[i]))
			continue;
		initStringInfo(&list);
		for (int j = i; j < n; j++)
		{
			StringInfoData key;
			bool		seen = false;

			if (done[j] || strcmp(names[j], names[i]) != 0)
				continue;
			done[j] = true;
			initStringInfo(&key);
			hroe_item_collection_value(tables[j], items[j], &key);
			for (int k = 0; k < nkeys && !seen; k++)
				seen = strcmp(keys[k], key.data) == 0;
			if (seen)
				continue;
			keys[nkeys++] = key.data;
			if (list.len)
				appendStringInfoChar(&list, ',');
			(void) AppendCollectionMetrics(&list, tables[j], items[j]);
		}
		if (any)
			appendStringInfoChar(&buf, ',');
		escape_json(&buf, names[i]);
		appendStringInfo(&buf, ":[%s]", list.data);
		any = true;
	}
	appendStringInfoChar(&buf, '}');
	return any ? buf.data : NULL;
}

/* ---------- row locks ---------- */

/*
 * The row of keys locked FOR UPDATE, through a
 * plan prepared once per table: its item copied into cxt, NULL if absent;
 * the locked row's TID in *tid (when given and the item is present).
 */
HroeItem *
hroe_lock_row(HroeTableMeta *t, Datum *keys, ItemPointer tid, MemoryContext cxt)
{
	Oid			types[2];
	int			n = t->schema.nhash + t->schema.nrange;
	SPIPlanPtr	plan;
	int			ret;
	bool		isnull;
	HroeItem   *item;
	HroeItem   *copy;

	for (int i = 0; i < n; i++)
		types[i] = hroe_key_type_oid(t->schema.types[i]);
	plan = hroe_table_plan_find(t, "lock-update");
	/*
	 * (a distributed table's rows are not written by ctid: a ctid names a
	 * row of one partition only, and the same ctid a row of each)
	 */
	if (plan == NULL)
		plan = hroe_table_plan(t, "lock-update",
							   psprintf("SELECT item%s FROM %s WHERE %s FOR UPDATE",
										t->distributed ? "" : ", ctid", t->relname,
										n == 2 ? psprintf("%s AND sk = $2", hroe_table_pk_qual(t, 1))
										: hroe_table_pk_qual(t, 1)),
							   n, types);
	hroe_push_search_path();
	ret = SPI_execute_plan(plan, keys, NULL, false, 1);
	hroe_pop_search_path();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "locking an item of %s failed: %s", t->relname, SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return NULL;
	if (tid && t->distributed)
		ItemPointerSetInvalid(tid);
	else if (tid)
		ItemPointerCopy((ItemPointer) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[0],
																	SPI_tuptable->tupdesc, 2, &isnull)),
						tid);
	item = DatumGetHroeItemP(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	copy = MemoryContextAlloc(cxt, VARSIZE(item));
	memcpy(copy, item, VARSIZE(item));
	return copy;
}

/*
 * Lock an item for a conditional write or a transaction: the advisory lock
 * on its key's hash, then the row FOR UPDATE; returns the
 * item, NULL if absent, and the locked row's TID in *tid (when given).
 */
HroeItem *
hroe_lock_item(HroeTableMeta *t, Datum *keys, const char *identity, ItemPointer tid)
{
	hroe_lock_item_key(t, identity);
	return hroe_lock_row(t, keys, tid, CurrentMemoryContext);
}

/* ---------- conditional writes ---------- */

/*
 * A conditional write's check on the locked old item (NULL: absent): the
 * ConditionalCheckFailedException, which carries the old item when
 * ReturnValuesOnConditionCheckFailure is ALL_OLD (in the response body's
 * Item, and in the SQL error's DETAIL)
 */
static void
CheckWriteCondition(HroeCall *call, const HroeExprNode *cond, const HroeItem *old, bool return_old)
{
	StringInfoData buf;

	if (cond == NULL || hroe_expr_eval(cond, old))
		return;
	if (!return_old || old == NULL)
		hroe_condition_check(cond, old);
	initStringInfo(&buf);
	hroe_item_write(&buf, old);
	if (call)
		call->item = MemoryContextStrdup(call->outer, buf.data);
	ereport(ERROR,
			(errcode(ERRCODE_HROE_CONDITIONAL_CHECK_FAILED),
			 errmsg("The conditional request failed"),
			 errdetail("DynamoDB ConditionalCheckFailedException. Item: %s", buf.data)));
}

/*
 * Put an item (key NULL) or delete the item of key (ReturnValues and
 * ReturnConsumedCapacity validated here, after the condition); res (NULL:
 * none wanted) gets Attributes (ALL_OLD) and ConsumedCapacity.  locked: the
 * caller holds the key's locks and read the old item (locked_old, NULL if
 * absent, at locked_tid), which a put does not read again.  Returns false,
 * having written nothing, when a locked put of an absent item meets an item
 * inserted since (a plain put takes no key lock): the caller's condition
 * must be evaluated again on that item.  A locked delete of an absent item
 * deletes nothing, even if an item has appeared since: the delete took
 * effect when the item was found absent.
 */
static bool
Write(HroeTableMeta *t, const char *table, HroeItem *item, Jsonb *key, bool locked,
	  HroeItem *locked_old, ItemPointer locked_tid, const char *rv, const char *rcc,
	  HroeWriteResult *res)
{
	bool		return_old = hroe_check_return_old(rv);
	HroeItem   *old;
	double		units;
	double		index_units[HROE_MAX_INDEXES] = {0};
	bool		conflict = false;

	hroe_check_return_cc(rcc);
	if (key == NULL)
		old = hroe_put(t, item, locked, locked_old, locked_tid,
					   res != NULL && (return_old || strcmp(rcc, "NONE") != 0),
					   &units, index_units, locked ? &conflict : NULL);
	else if (locked && locked_old == NULL)
	{
		old = NULL;
		units = hroe_write_capacity(t, NULL, NULL, index_units);
	}
	else
		old = hroe_delete(t, key, &units, index_units);
	if (conflict)
		return false;
	/* DynamoDB's throttling (throttle.c): what the write consumed */
	if (hroe_throttle_active(t))
	{
		Datum		tk[2];
		double		tu = units;
		double		tiu[HROE_MAX_INDEXES];

		if (key == NULL)
			hroe_check_item_key(t, item, tk);
		else
			hroe_check_request_key(t, key, tk, NULL);
		/* (a put that read no old item: its new item's units) */
		if (tu <= 0)
			tu = hroe_write_capacity(t, NULL, item, tiu);
		else
			memcpy(tiu, index_units, sizeof(double) * t->nindexes);
		hroe_throttle_charge(t, true, -1, &tk[0], tu, tiu);
	}
	if (res == NULL)
		return true;
	res->capacity = hroe_capacity_jsonb(rcc, table, units, t, index_units);
	res->attributes = return_old ? old : NULL;
	return true;
}

/* Number of attributes of an item */
static uint32
ItemCount(const HroeItem *item)
{
	HroeValue	root;

	hroe_item_root(item, &root);
	return hroe_value_count(&root);
}

/* UpdateItem: the update applied under the locks, ReturnValues' Attributes */
static void
UpdateItem(const HroeWriteRequest *r, const char *rcc, HroeWriteResult *res)
{
	HroeTableMeta *t = r->t;
	const char *rv = r->return_values ? r->return_values : "NONE";
	Datum		keys[2];
	ItemPointerData tid;
	HroeItem   *k,
			   *old,
			   *new;

	k = hroe_request_key(t, r->key, keys);
	if (r->update)
		hroe_update_check_keys(r->update, t->schema.names, t->schema.nhash + t->schema.nrange);
	/* again when an item appeared since it was found absent */
	do
	{
		old = hroe_lock_item(t, keys, hroe_item_key_identity(t, k), &tid);
		CheckWriteCondition(r->call, r->condition, old, r->return_old_on_failure);
		/* the update must not touch a key attribute (E18), checked above */
		new = r->update ? hroe_update_apply(r->update, old ? old : k, NULL) : (old ? old : k);
		hroe_check_update_index_keys(t, new);
	} while (!Write(t, r->table, new, NULL, true, old, &tid, "NONE", rcc, res));
	res->attributes = NULL;
	if (strcmp(rv, "ALL_OLD") == 0 && old)
		res->attributes = old;
	else if (strcmp(rv, "ALL_NEW") == 0)
		res->attributes = new;
	else if (strncmp(rv, "UPDATED_", 8) == 0 && r->update)
	{
		HroeItem   *src = strcmp(rv, "UPDATED_OLD") == 0 ? old : new;

		if (src)
		{
			HroeItem   *p = hroe_project(hroe_update_paths(r->update), src);

			if (ItemCount(p) > 0)
				res->attributes = p;
		}
	}
}

/*
 * PutItem, UpdateItem or DeleteItem (SPI connected): with a condition, the
 * key's locks first, the condition on the locked old item, then the write
 */
void
hroe_write_item(const HroeWriteRequest *r, HroeWriteResult *res)
{
	HroeTableMeta *t = r->t;
	const char *rcc = r->rcc ? r->rcc : "NONE";
	const char *rv = r->return_values;
	Datum		keys[2];
	HroeItem   *old;
	ItemPointerData tid;
	MemoryContext cxt = CurrentMemoryContext;

	memset(res, 0, sizeof(HroeWriteResult));
	/* DynamoDB's throttling (throttle.c), before anything is locked or read */
	if (hroe_throttle_active(t))
	{
		Datum		tk[2];

		if (r->kind == HROE_WRITE_PUT)
			hroe_check_item_key(t, r->item, tk);
		else
			hroe_check_request_key(t, r->key, tk, NULL);
		if (!hroe_throttle_admit(t, true, -1, &tk[0], false))
			hroe_throttle_refuse_item(t, r->kind == HROE_WRITE_PUT ? r->item :
									  hroe_item_from_jsonb(&r->key->root, VARSIZE(r->key)),
									  true, true);
	}
	switch (r->kind)
	{
		case HROE_WRITE_PUT:
			if (r->condition == NULL)
			{
				(void) Write(t, r->table, r->item, NULL, false, NULL, NULL, rv, rcc, res);
				break;
			}
			hroe_check_item_key(t, r->item, keys);
			/* again when an item appeared since it was found absent */
			do
			{
				old = hroe_lock_item(t, keys, hroe_item_key_identity(t, r->item), &tid);
				CheckWriteCondition(r->call, r->condition, old, r->return_old_on_failure);
			} while (!Write(t, r->table, r->item, NULL, true, old, &tid, rv, rcc, res));
			break;
		case HROE_WRITE_DELETE:
			if (r->condition == NULL)
			{
				(void) Write(t, r->table, NULL, r->key, false, NULL, NULL, rv, rcc, res);
				break;
			}
			{
				HroeItem   *k = hroe_request_key(t, r->key, keys);

				old = hroe_lock_item(t, keys, hroe_item_key_identity(t, k), NULL);
				CheckWriteCondition(r->call, r->condition, old, r->return_old_on_failure);
				(void) Write(t, r->table, NULL, r->key, true, old, NULL, rv, rcc, res);
			}
			break;
		case HROE_WRITE_UPDATE:
			UpdateItem(r, rcc, res);
			break;
	}

	/*
	 * The result in the caller's memory context, as operations.h promises:
	 * every SPI call above leaves CurrentMemoryContext in SPI's procedure
	 * context, which the caller's SPI_finish frees
	 */
	MemoryContextSwitchTo(cxt);
	if (res->attributes)
		res->attributes = hroe_op_copy_item(cxt, PointerGetDatum(res->attributes));
	if (res->capacity)
		res->capacity = (Jsonb *) PG_DETOAST_DATUM_COPY(PointerGetDatum(res->capacity));
}

/* ---------- the SQL functions ---------- */

/* jsonb argument n, or NULL */
static Jsonb *
ArgJsonb(FunctionCallInfo fcinfo, int n)
{
	return PG_ARGISNULL(n) ? NULL : PG_GETARG_JSONB_P(n);
}

/* A write_result (attributes, consumed_capacity) */
static Datum
WriteResult(FunctionCallInfo fcinfo, HroeWriteResult *res)
{
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {res->attributes == NULL, res->capacity == NULL};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = PointerGetDatum(res->attributes);
	values[1] = PointerGetDatum(res->capacity);
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/*
 * Run a write in the caller's transaction (SPI connected, no error payload
 * collected: the error's DETAIL carries it); its result in the caller's
 * memory context
 */
static void
RunWrite(HroeWriteRequest *r, HroeWriteResult *res)
{
	MemoryContext cxt = CurrentMemoryContext;

	r->call = NULL;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	MemoryContextSwitchTo(cxt);
	r->t = hroe_request_table(r->table);
	hroe_write_item(r, res);
	SPI_finish();
	MemoryContextSwitchTo(cxt);
}

/*
 * A conditional Put/Delete call (table, item/key, return_values,
 * return_consumed_capacity, condition, names, values,
 * return_values_on_condition_check_failure), with PutItem's and DeleteItem's
 * checks in DynamoDB's order; unconditional ones are the fast paths of
 * operations.c
 */
Datum
hroe_conditional_write_call(FunctionCallInfo fcinfo, HroeWriteKind kind)
{
	HroeWriteRequest r = {0};
	HroeWriteResult res;
	HroeExprParams p = {0};
	HroeRequestExprs e;

	if (PG_ARGISNULL(0))
		hroe_missing_member("tableName");
	if (PG_ARGISNULL(1))
		hroe_missing_member(kind == HROE_WRITE_PUT ? "item" : "key");
	p.condition = hroe_op_arg_text(fcinfo, 4);
	p.names = ArgJsonb(fcinfo, 5);
	p.values = ArgJsonb(fcinfo, 6);
	hroe_exprs_parse(&p, HROE_EXPR_CONDITION, &e);
	r.kind = kind;
	r.table = hroe_op_arg_text(fcinfo, 0);
	r.return_values = hroe_check_write_return_values(hroe_op_arg_text(fcinfo, 2));
	r.return_old_on_failure = hroe_check_return_old_on_failure(hroe_op_arg_text(fcinfo, 7));
	r.rcc = hroe_op_arg_text(fcinfo, 3);
	r.condition = e.condition;
	if (kind == HROE_WRITE_PUT)
		r.item = PG_GETARG_HROE_ITEM_P(1);
	else
		r.key = PG_GETARG_JSONB_P(1);
	RunWrite(&r, &res);
	return WriteResult(fcinfo, &res);
}

PG_FUNCTION_INFO_V1(hroe_update_item);
/*
 * hroe.update_item(table, key, update, condition, names, values,
 * return_values, return_consumed_capacity,
 * return_values_on_condition_check_failure): UpdateItem as a SQL function
 */
Datum
hroe_update_item(PG_FUNCTION_ARGS)
{
	HroeWriteRequest r = {0};
	HroeWriteResult res;
	HroeExprParams p = {0};
	HroeRequestExprs e;

	if (PG_ARGISNULL(0))
		hroe_missing_member("tableName");
	if (PG_ARGISNULL(1))
		hroe_missing_member("key");
	p.update = hroe_op_arg_text(fcinfo, 2);
	p.condition = hroe_op_arg_text(fcinfo, 3);
	p.names = ArgJsonb(fcinfo, 4);
	p.values = ArgJsonb(fcinfo, 5);
	hroe_exprs_parse(&p, HROE_EXPR_CONDITION | HROE_EXPR_UPDATE, &e);
	r.kind = HROE_WRITE_UPDATE;
	r.table = hroe_op_arg_text(fcinfo, 0);
	r.return_values = hroe_check_update_return_values(hroe_op_arg_text(fcinfo, 6));
	r.return_old_on_failure = hroe_check_return_old_on_failure(hroe_op_arg_text(fcinfo, 8));
	r.rcc = hroe_op_arg_text(fcinfo, 7);
	r.key = PG_GETARG_JSONB_P(1);
	r.condition = e.condition;
	r.update = e.update;
	/* UpdateItem's own measure, as the JSON API's UpdateItem */
	if (r.update)
		r.update->measure_writes = true;
	RunWrite(&r, &res);
	return WriteResult(fcinfo, &res);
}
