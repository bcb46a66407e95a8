/*-------------------------------------------------------------------------
 *
 * transactions.c
 *	  TransactWriteItems and TransactGetItems
 *	  (doc/dynamodb-rules.md#writes-batches-and-transactions):
 *	  every item locked in one canonical order (so two transactions over the
 *	  same items never deadlock), every condition checked before any write,
 *	  all or nothing; ClientRequestToken idempotency; transactional capacity.
 *	  The C API of operations.h; the JSON API (api_transact.c) parses
 *	  TransactItems into actions.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "contributor_insights.h"
#include "operations.h"
#include "operations_internal.h"
#include "remote_read.h"
#include "throttle.h"

/*
 * Order actions by item identity (the canonical locking order); actions
 * whose key is invalid (no identity) last
 */
static int
ActionCmp(const void *a, const void *b)
{
	const char *ia = (*(HroeTxAction *const *) a)->identity;
	const char *ib = (*(HroeTxAction *const *) b)->identity;

	if (ia == NULL || ib == NULL)
		return (ia == NULL) - (ib == NULL);
	return hroe_key_identity_cmp(ia, ib);
}

static void TxCancel(HroeCall *call, int n, int which, const char *code, const char *message) pg_attribute_noreturn();

/*
 * Validate an action's key (or a Put's item) against its table and the
 * update against the key; returns the bytes it adds to the request (its
 * item or key and its expression values).  DynamoDB tells two kinds of
 * faults apart: what its input validation finds (a key attribute missing
 * from a Put's item, an empty or too long key, an empty index key) is the
 * request's ValidationException, raised here; a key of another type than
 * its schema's (or a Get/Update/Delete/ConditionCheck key of another shape
 * than the table's) is found as the transaction runs, and cancels it with
 * a ValidationError for the action (a->invalid, CancelInvalid).
 */
int64
hroe_tx_action_prepare(HroeTxAction *a)
{
	bool		key_valid;

	if (a->kind == HROE_TX_PUT)
	{
		char	   *table_key = hroe_item_key_mismatch(a->t, a->item, a->keys);
		char	   *index_key = hroe_item_index_keys_mismatch(a->t, a->item);

		a->invalid = table_key ? table_key : index_key;
		key_valid = table_key == NULL;
	}
	else if (!hroe_request_key_matches(a->t, a->key))
	{
		a->invalid = "The provided key element does not match the schema";
		a->item = HroeItemFromJsonb(a->key);
		key_valid = false;
	}
	else
	{
		a->item = hroe_request_key(a->t, a->key, a->keys);
		key_valid = true;
	}
	if (a->kind == HROE_TX_UPDATE)
		hroe_update_check_keys(a->e.update, a->t->schema.names,
							   a->t->schema.nhash + a->t->schema.nrange);
	/* (identity: two actions on one item are the request's error) */
	if (key_valid)
		a->identity = hroe_item_key_identity(a->t, a->item);
	return hroe_item_size(a->item) + (a->e.cxt ? a->e.cxt->bytes : 0);
}

/* Sorted pointers to the actions; E: two actions on one item */
static HroeTxAction **
LockOrder(HroeTxAction *acts, int n)
{
	HroeTxAction **order = palloc(sizeof(HroeTxAction *) * n);

	for (int i = 0; i < n; i++)
		order[i] = &acts[i];
	qsort(order, n, sizeof(HroeTxAction *), ActionCmp);
	for (int i = 1; i < n && order[i]->identity; i++)
		if (hroe_key_identity_cmp(order[i - 1]->identity, order[i]->identity) == 0)
			HroeValidation("Transaction request cannot include multiple operations on one item");
	return order;
}

/*
 * Refuse a write transaction whose writes would commit on more than one
 * server: a distributed table's partitions are committed by postgres_fdw one
 * server after another (and the coordinator's own tables last), without
 * two-phase commit, so a coordinator lost between two commits would leave
 * the transaction half done (doc/partitioning.md).  ConditionChecks only
 * read and lock: they may be on any server.
 */
static void
CheckOneServer(HroeTxAction *acts, int n)
{
	bool		first = true;
	Oid			server = InvalidOid;

	for (int i = 0; i < n; i++)
	{
		Oid			s;

		if (acts[i].kind == HROE_TX_CHECK || acts[i].kind == HROE_TX_GET)
			continue;
		s = hroe_table_key_server(acts[i].t, acts[i].keys[0]);
		if (first)
			server = s;
		else if (s != server)
			HroeValidation("Transaction request cannot include writes to items on more than one partition server: "
						   "hroe commits each server's writes on its own, without two-phase commit "
						   "(see hroe.partition_servers)");
		first = false;
	}
}

/* The action's own IAM action on its table, as its policy allows */
static void
TxAuthorize(HroeCall *call, const HroeTxAction *a)
{
	const char *op = a->kind == HROE_TX_PUT ? "PutItem"
		: a->kind == HROE_TX_UPDATE ? "UpdateItem"
		: a->kind == HROE_TX_DELETE ? "DeleteItem"
		: a->kind == HROE_TX_CHECK ? "ConditionCheckItem" : "GetItem";

	hroe_call_authorize(call, hroe_iam_action(op, call != NULL && call->partiql), a->table, NULL, NULL);
}

/* Lock every action's item in the canonical order; each old item read */
static void
LockAll(HroeCall *call, HroeTxAction **order, int n)
{
	for (int i = 0; i < n; i++)
	{
		hroe_call_resource(call, order[i]->table, strlen(order[i]->table));
		TxAuthorize(call, order[i]);
		order[i]->old = hroe_lock_item(order[i]->t, order[i]->keys, order[i]->identity,
									   &order[i]->tid);
	}
}

/*
 * Read every action's item under one snapshot, without locks (the items of
 * one instant: a TransactWriteItems is seen whole or not at all); with
 * limit, cancelled at the item that passes 4 MB
 */
static void
ReadAll(HroeCall *call, HroeTxAction *acts, int n, bool limit)
{
	int64		bytes = 0;

	/* one snapshot per server: postgres_fdw's remote transactions */
	hroe_remote_read_pause();
	hroe_op_push_read_snapshot();
	for (int i = 0; i < n; i++)
	{
		hroe_call_resource(call, acts[i].table, strlen(acts[i].table));
		TxAuthorize(call, &acts[i]);
		acts[i].old = hroe_op_fetch_item(acts[i].t, acts[i].keys, false, CurrentMemoryContext);
		bytes += acts[i].old ? hroe_item_size(acts[i].old) : 0;
		if (limit && bytes > HROE_TRANSACTION_BYTES)
			TxCancel(call, n, acts[i].index, "ValidationError",
					 "Transaction request cannot be larger than 4 MB");
	}
	PopActiveSnapshot();
}

/* The entry of a's table in caps (one per table, in request order), added if new */
static HroeTableCapacity *
TxTable(HroeTableCapacity *caps, int *ncaps, HroeTxAction *a)
{
	for (int i = 0; i < *ncaps; i++)
		if (strcmp(caps[i].table, a->table) == 0)
			return &caps[i];
	caps[*ncaps].table = a->table;
	caps[*ncaps].t = a->t;
	return &caps[(*ncaps)++];
}

/*
 * Charge a strong read of each action's item (4 KB units, an absent item
 * one), times factor; returns the number of tables
 */
static int
TxReads(HroeTxAction *acts, int n, HroeTableCapacity *caps, int factor)
{
	int			ncaps = 0;

	for (int i = 0; i < n; i++)
		TxTable(caps, &ncaps, &acts[i])->units +=
			factor * hroe_read_units(acts[i].old ? hroe_item_size(acts[i].old) : 0, true);
	return ncaps;
}

/*
 * Run one of the idempotency token statements for the current role's token;
 * returns SPI_processed.  The role's own tokens only: row-level security
 * keeps other roles' rows from it, but not from a superuser or a BYPASSRLS
 * role, hence owner in every statement.  Recording a token deletes the
 * role's expired ones.
 */
static uint64
TokenStmt(int which, const char *token, int64 hash)
{
	static SPIPlanPtr plans[2];
	static const char *const sql[2] = {
		"SELECT request_hash FROM hroe.transaction_tokens WHERE owner OPERATOR(pg_catalog.=) $1 "
		"AND token OPERATOR(pg_catalog.=) $2 "
		"AND finished_at OPERATOR(pg_catalog.>) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')",
		"WITH expired AS (DELETE FROM hroe.transaction_tokens WHERE owner OPERATOR(pg_catalog.=) $1 "
		"AND token OPERATOR(pg_catalog.<>) $2 "
		"AND finished_at OPERATOR(pg_catalog.<=) (pg_catalog.now() OPERATOR(pg_catalog.-) interval '10 minutes')) "
		"INSERT INTO hroe.transaction_tokens (owner, token, request_hash) VALUES ($1, $2, $3) "
		"ON CONFLICT (owner, token) DO UPDATE SET request_hash = excluded.request_hash, finished_at = pg_catalog.now()"
	};
	Oid			types[3] = {OIDOID, TEXTOID, INT8OID};
	Datum		v[3];
	int			ret;

	if (plans[which] == NULL)
	{
		SPIPlanPtr	plan = SPI_prepare(sql[which], which == 0 ? 2 : 3, types);

		if (plan == NULL || SPI_keepplan(plan) != 0)
			elog(ERROR, "preparing \"%s\" failed", sql[which]);
		plans[which] = plan;
	}
	v[0] = ObjectIdGetDatum(GetUserId());
	v[1] = CStringGetTextDatum(token);
	v[2] = Int64GetDatum(hash);
	ret = SPI_execute_plan(plans[which], v, NULL, false, 0);
	if (ret < 0)
		elog(ERROR, "idempotency token statement failed: %s", SPI_result_code_string(ret));
	if (which == 0 && SPI_processed > 0)
	{
		bool		isnull;
		int64		old = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));

		if (old != hash)
			hroe_ddb_error(ERRCODE_HROE_IDEMPOTENT_MISMATCH, "IdempotentParameterMismatchException",
						   "The request uses the same client token as a previous, but non-identical request");
	}
	return SPI_processed;
}

/* Raise the TransactionCanceledException of reasons (a JSON array) */
static void
pg_attribute_noreturn()
Cancelled(HroeCall *call, const char *reasons, const char *codes)
{
	if (call)
		call->reasons = MemoryContextStrdup(call->outer, reasons);
	ereport(ERROR,
			(errcode(ERRCODE_HROE_TRANSACTION_CANCELED),
			 errmsg("Transaction cancelled, please refer cancellation reasons for specific reasons [%s]",
					codes),
			 errdetail("DynamoDB TransactionCanceledException. CancellationReasons: %s",
					   reasons)));
}

/*
 * Cancel a transaction of n actions for those of them with a code
 * (codes[i] NULL: None): each one's code and message in
 * CancellationReasons, None for the others
 */
static void
pg_attribute_noreturn()
CancelFor(HroeCall *call, int n, const char *const *codes, const char *const *messages)
{
	StringInfoData reasons;
	StringInfoData summary;

	initStringInfo(&reasons);
	initStringInfo(&summary);
	for (int i = 0; i < n; i++)
	{
		appendStringInfoString(&reasons, i ? "," : "[");
		appendStringInfoString(&summary, i ? ", " : "");
		if (codes[i])
		{
			appendStringInfoString(&reasons, "{\"Code\":");
			escape_json(&reasons, codes[i]);
			appendStringInfoString(&reasons, ",\"Message\":");
			escape_json(&reasons, messages[i]);
			appendStringInfoChar(&reasons, '}');
			appendStringInfoString(&summary, codes[i]);
		}
		else
		{
			appendStringInfoString(&reasons, "{\"Code\":\"None\"}");
			appendStringInfoString(&summary, "None");
		}
	}
	appendStringInfoChar(&reasons, ']');
	Cancelled(call, reasons.data, summary.data);
}

/*
 * Cancel a transaction of n actions for one of them (which).
 * TransactionConflict: a write whose item, absent when its condition was
 * checked, was inserted since by a plain write.  ValidationError: the items
 * a TransactGetItems read passed 4 MB at that action.
 */
static void
pg_attribute_noreturn()
TxCancel(HroeCall *call, int n, int which, const char *code, const char *message)
{
	const char **codes = palloc0(sizeof(char *) * n);
	const char **messages = palloc0(sizeof(char *) * n);

	codes[which] = code;
	messages[which] = message;
	CancelFor(call, n, codes, messages);
}

/*
 * Cancel the transaction of n actions if any has an invalid key (or an
 * Update's item an invalid index key): a ValidationError for each
 */
static void
CancelInvalid(HroeCall *call, HroeTxAction *acts, int n)
{
	const char **codes = palloc0(sizeof(char *) * n);
	const char **messages = palloc0(sizeof(char *) * n);
	bool		any = false;

	for (int i = 0; i < n; i++)
		if (acts[i].invalid)
		{
			codes[i] = "ValidationError";
			messages[i] = acts[i].invalid;
			any = true;
		}
	if (any)
		CancelFor(call, n, codes, messages);
}

/*
 * DynamoDB's throttling (throttle.c), before anything is locked or read: an
 * action it refuses cancels the transaction, with the reason DynamoDB gives
 * (ProvisionedThroughputExceeded on a provisioned table, else
 * ThrottlingError)
 */
static void
AdmitAll(HroeCall *call, HroeTxAction *acts, int n, bool write)
{
	for (int i = 0; i < n; i++)
	{
		if (hroe_throttle_admit(acts[i].t, write && acts[i].kind != HROE_TX_CHECK, -1,
								&acts[i].keys[0], false))
			continue;
		hroe_throttle_refuse_item(acts[i].t, acts[i].item, write && acts[i].kind != HROE_TX_CHECK,
								  false);
		if (hroe_throttle_last_provisioned())
			TxCancel(call, n, acts[i].index, "ProvisionedThroughputExceeded",
					 HROE_MSG_PROVISIONED_THROUGHPUT_EXCEEDED);
		TxCancel(call, n, acts[i].index, "ThrottlingError", HROE_MSG_THROTTLING);
	}
}

/* Charge what each action consumed: a transaction's reads and writes count twice */
static void
ChargeAll(HroeTxAction *acts, int n, bool write)
{
	for (int i = 0; i < n; i++)
	{
		int64		size;

		if (!hroe_throttle_active(acts[i].t))
			continue;
		size = Max(acts[i].old ? hroe_item_size(acts[i].old) : 0,
				   write && acts[i].kind == HROE_TX_PUT ? hroe_item_size(acts[i].item) : 0);
		hroe_throttle_charge(acts[i].t, write && acts[i].kind != HROE_TX_CHECK, -1, &acts[i].keys[0],
							 write && acts[i].kind != HROE_TX_CHECK ? 2.0 * hroe_write_units(size)
							 : 2.0 * hroe_read_units(size, true), NULL);
	}
}

/* Every action's condition on its locked item; cancelled if one fails */
static void
CheckConditions(HroeCall *call, HroeTxAction *acts, int n)
{
	bool		failed = false;
	StringInfoData reasons;
	StringInfoData codes;

	initStringInfo(&reasons);
	initStringInfo(&codes);
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = &acts[i];
		bool		ok = a->e.condition == NULL || hroe_expr_eval(a->e.condition, a->old);

		appendStringInfoString(&reasons, i ? "," : "[");
		appendStringInfoString(&codes, i ? ", " : "");
		if (ok)
		{
			appendStringInfoString(&reasons, "{\"Code\":\"None\"}");
			appendStringInfoString(&codes, "None");
		}
		else
		{
			appendStringInfoString(&reasons,
								   "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request failed\"");
			/* ReturnValuesOnConditionCheckFailure ALL_OLD: the item in the reason */
			if (a->return_old && a->old)
			{
				appendStringInfoString(&reasons, ",\"Item\":");
				hroe_item_write(&reasons, a->old);
			}
			appendStringInfoChar(&reasons, '}');
			appendStringInfoString(&codes, "ConditionalCheckFailed");
			failed = true;
		}
	}
	appendStringInfoChar(&reasons, ']');
	if (failed)
		Cancelled(call, reasons.data, codes.data);
}

/*
 * A put of a locked item (one action per item: the locked row is still at
 * its TID); false when an item absent under the lock was inserted since
 */
static bool
LockedPut(HroeTxAction *a, HroeItem *item)
{
	double		units;
	double		index_units[HROE_MAX_INDEXES];
	bool		conflict = false;

	(void) hroe_put(a->t, item, true, a->old, &a->tid, false, &units, index_units, &conflict);
	return !conflict;
}

/*
 * Write one action (its item locked, its condition met): false when an
 * item absent under the lock was inserted since
 */
static bool
TxWrite(HroeTxAction *a, HroeTableCapacity *c)
{
	double		units;
	double		index_units[HROE_MAX_INDEXES];

	switch (a->kind)
	{
		case HROE_TX_PUT:
			if (!LockedPut(a, a->item))
				return false;
			hroe_tx_write_capacity(c, a->old, a->item, false);
			break;
		case HROE_TX_UPDATE:
			if (!LockedPut(a, a->updated))
				return false;
			hroe_tx_write_capacity(c, a->old, a->updated, false);
			break;
		case HROE_TX_DELETE:
			/* an absent item: nothing to delete, even if one appeared since */
			if (a->old)
				(void) hroe_delete(a->t, a->key, &units, index_units);
			hroe_tx_write_capacity(c, a->old, NULL, false);
			break;
		case HROE_TX_CHECK:
			hroe_tx_write_capacity(c, a->old, NULL, true);
			break;
		case HROE_TX_GET:
			break;
	}
	return true;
}

/*
 * An Update's item (its update applied to its locked item): one that would
 * pass 400 KB cancels the transaction (ValidationError, UpdateItem's text:
 * unlike a Put's, its size is known only once the transaction runs; the
 * actions after it in the canonical order are not judged)
 */
static HroeItem *
ApplyUpdate(HroeCall *call, HroeTxAction *a, HroeTxAction *acts, int n)
{
	bool		too_big;
	HroeItem   *updated = hroe_update_apply(a->e.update, a->old ? a->old : a->item,
											&too_big);

	if (too_big)
	{
		/* the transaction is cancelled: the error aborts it */
		a->invalid = HROE_MSG_UPDATE_TOO_BIG;
		CancelInvalid(call, acts, n);
	}
	return updated;
}

/*
 * Make every Update's item, in the canonical order: an empty index key
 * raised (input validation), one of another type than its index's cancels
 * the transaction (ValidationError)
 */
static void
ApplyUpdates(HroeCall *call, HroeTxAction **order, HroeTxAction *acts, int n)
{
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = order[i];

		if (a->kind != HROE_TX_UPDATE)
			continue;
		hroe_call_resource(call, a->table, strlen(a->table));
		a->updated = ApplyUpdate(call, a, acts, n);
		hroe_check_update_index_keys(a->t, a->updated);
		a->invalid = hroe_item_index_keys_mismatch(a->t, a->updated);
	}
	CancelInvalid(call, acts, n);
}

/*
 * Write every action (n, in the canonical order): the item collections'
 * sizes of tables with LSIs (tables_collection.c) are then locked in one
 * order too, so two transactions writing the same collections never
 * deadlock.  A write growing a collection past its limit cancels the
 * transaction (ItemCollectionSizeLimitExceeded), as an item inserted since
 * its lock does (TransactionConflict).
 */
static void
WriteAll(HroeCall *call, HroeTxAction **order, int n, HroeTableCapacity *caps, int *ncaps)
{
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = order[i];
		MemoryContext cxt = CurrentMemoryContext;
		volatile bool written = false;

		hroe_call_resource(call, a->table, strlen(a->table));
		PG_TRY();
		{
			written = TxWrite(a, TxTable(caps, ncaps, a));
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			MemoryContextSwitchTo(cxt);
			edata = CopyErrorData();
			if (edata->sqlerrcode != ERRCODE_HROE_ITEM_COLLECTION_SIZE)
				PG_RE_THROW();
			/* the transaction is cancelled: the error aborts it */
			FlushErrorState();
			TxCancel(call, n, a->index, "ItemCollectionSizeLimitExceeded", edata->message);
		}
		PG_END_TRY();
		if (!written)
			TxCancel(call, n, a->index, "TransactionConflict", "Transaction is ongoing for the item");
	}
}

/* TransactWriteItems (operations.h) */
Jsonb *
hroe_transact_write(HroeCall *call, HroeTxAction *acts, int n, const char *token, const char *items_text,
					const char *rcc, char **icm)
{
	HroeTxAction **order;
	int64		hash = 0;
	HroeTableCapacity *caps = palloc0(sizeof(HroeTableCapacity) * n);
	int			ncaps = 0;

	/*
	 * the request's own errors (two actions on one item) first, then the
	 * actions' invalid keys cancel it
	 */
	order = LockOrder(acts, n);
	CancelInvalid(call, acts, n);
	if (token)
	{
		LOCKTAG		tag;

		if (strlen(token) < 1 || strlen(token) > HROE_TOKEN_MAX)
			HroeValidation(psprintf("1 validation error detected: Value '%s' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36",
									token));
		hash = (int64) hash_bytes_extended((const unsigned char *) items_text, strlen(items_text), 0);
		/* one transaction per token of a role at a time */
		SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, GetUserId(),
							 hash_bytes((const unsigned char *) token, strlen(token)), 0x4853);
		(void) LockAcquire(&tag, ExclusiveLock, false, false);

		/*
		 * a replay within 10 minutes succeeds without writing; it reports
		 * the read units of reading the items (DynamoDB's documentation),
		 * transactional ones: twice a strongly consistent read's
		 */
		hroe_call_resource(call, NULL, 0);
		if (TokenStmt(0, token, hash) > 0)
		{
			ReadAll(call, acts, n, false);
			ncaps = TxReads(acts, n, caps, 2);
			return hroe_tx_capacity_jsonb(rcc, caps, ncaps, "ReadCapacityUnits");
		}
	}
	CheckOneServer(acts, n);
	AdmitAll(call, acts, n, true);
	LockAll(call, order, n);
	CheckConditions(call, acts, n);
	ApplyUpdates(call, order, acts, n);
	/* the tables' capacities in request order */
	for (int i = 0; i < n; i++)
		(void) TxTable(caps, &ncaps, &acts[i]);

	WriteAll(call, order, n, caps, &ncaps);
	ChargeAll(acts, n, true);
	if (icm)
	{
		HroeTableMeta **tables = palloc(sizeof(HroeTableMeta *) * n);
		const char **names = palloc(sizeof(char *) * n);
		HroeItem  **items = palloc(sizeof(HroeItem *) * n);
		int			nw = 0;

		/* the collections written (a ConditionCheck writes none) */
		for (int i = 0; i < n; i++)
		{
			if (acts[i].kind == HROE_TX_CHECK)
				continue;
			tables[nw] = acts[i].t;
			names[nw] = acts[i].table;
			items[nw++] = acts[i].item;
		}
		*icm = hroe_item_collection_metrics_map(nw, tables, names, items);
	}
	if (token)
	{
		hroe_call_resource(call, NULL, 0);
		(void) TokenStmt(1, token, hash);
	}
	return hroe_tx_capacity_jsonb(rcc, caps, ncaps, "WriteCapacityUnits");
}

/*
 * TransactGetItems (operations.h): every item read under one snapshot, so
 * the items are those of one instant (a TransactWriteItems that commits is
 * seen whole or not at all), without locks: reading needs only SELECT, and
 * a reader never waits for a writer, nor a writer for it
 */
Jsonb *
hroe_transact_get(HroeCall *call, HroeTxAction *acts, int n, const char *rcc)
{
	HroeTableCapacity *caps = palloc0(sizeof(HroeTableCapacity) * n);

	hroe_check_return_cc(rcc);
	(void) LockOrder(acts, n);	/* one action per item, as for writes */
	CancelInvalid(call, acts, n);
	AdmitAll(call, acts, n, false);
	ReadAll(call, acts, n, true);
	ChargeAll(acts, n, false);
	for (int i = 0; i < n; i++)
		hroe_contributor_insights_item(acts[i].t, NULL, acts[i].old, false, false);
	return hroe_tx_capacity_jsonb(rcc, caps, TxReads(acts, n, caps, 2), "ReadCapacityUnits");
}
