/*-------------------------------------------------------------------------
 *
 * operations_batch.c
 *	  BatchGetItem and BatchWriteItem
 *	  (doc/dynamodb-rules.md#writes-batches-and-transactions): DynamoDB
 *	  JSON RequestItems, validated whole before anything is read or
 *	  written; the 16 MB response; writes in the canonical lock order,
 *	  retried after a deadlock.
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
#include "contributor_insights.h"
#include "direct_write.h"
#include "key.h"
#include "operations_internal.h"
#include "throttle.h"

/* a batch rolled back by a deadlock is written again, up to this many times */
#define BATCH_WRITE_ATTEMPTS 10

/* ---------- batches ---------- */

/*
 * A key's identity for duplicate detection: type letters and the values as
 * JSON strings, a C string however many U+0000 (or zero bytes) they hold
 */
static char *
KeyIdentityAttr(HroeAttrValue **vals, int n)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < n; i++)
	{
		appendStringInfoChar(&buf, vals[i]->type[0]);
		hroe_json_string_write(&buf, vals[i]->data, vals[i]->len);
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
		appendStringInfoChar(&buf, t->schema.types[i]);
		hroe_json_string_write(&buf, v.data, v.len);
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
		(*keys)[n] = hroe_request_cstring(k.val.string.val, k.val.string.len,
										  "RequestItems' table names");
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

/* RequestItems of call must be a non-empty object (DynamoDB's sentence) */
static void
RequireObject(Jsonb *j, const char *call)
{
	if (!JB_ROOT_IS_OBJECT(j) || JB_ROOT_IS_SCALAR(j) || JB_ROOT_COUNT(j) == 0)
		HroeValidation(psprintf("The requestItems parameter is required for %s", call));
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
	paths = hroe_projection_parse(ecxt, hroe_request_cstring(proj->val.string.val, proj->val.string.len,
															 "ProjectionExpression"));
	hroe_expr_check_unused(ecxt);
	return paths;
}

/* A BatchGetItem being run: its tables, their keys, the response built */
typedef struct BatchGet
{
	HroeCall   *call;			/* the error payload, or NULL */
	const char *rcc;
	int			ntables;
	char	  **tables;			/* [table]: as the request names it */
	JsonbValue *specs;			/* [table]: its KeysAndAttributes */
	List	  **paths;			/* [table]: its projection, or NIL */
	HroeTableMeta **metas;
	int		   *nkeys;
	JsonbValue **elems;			/* [table][k]: the key as given */
	Datum	  **keys;			/* [table][2k]: the key's columns */
	int64		response_bytes; /* of the items returned */
	bool		full;			/* the next item would pass 16 MB */
	int			throttled;		/* keys DynamoDB's throttling refused */
	StringInfoData resp;		/* Responses' members */
	StringInfoData ccs;			/* ConsumedCapacity's elements */
	StringInfoData unprocessed; /* UnprocessedKeys' members */
} BatchGet;

/*
 * The request's shape, in DynamoDB's order of checks: the projections, the
 * ReturnConsumedCapacity, the tables, the number of keys
 */
static void
BatchGetCheck(BatchGet *g, Jsonb *req)
{
	int			total = 0;

	/* the projections first, as DynamoDB checks the expressions first */
	if (JB_ROOT_IS_OBJECT(req) && !JB_ROOT_IS_SCALAR(req))
	{
		g->ntables = ObjectEntries(req, &g->tables, &g->specs);
		g->paths = palloc(sizeof(List *) * Max(g->ntables, 1));
		for (int i = 0; i < g->ntables; i++)
			g->paths[i] = BatchProjection(&g->specs[i]);
	}
	hroe_check_return_cc(g->rcc);
	RequireObject(req, "BatchGetItem");
	/* count first: the limit is checked before anything is read */
	for (int i = 0; i < g->ntables; i++)
	{
		JsonbValue *keys = Member(&g->specs[i], "Keys");
		JsonbValue *elems;
		int			n = keys ? ArrayElements(keys, &elems) : -1;

		if (n < 1)
			HroeValidation("1 validation error detected: Value null at 'requestItems.keys' failed to satisfy constraint: Member must have length greater than or equal to 1");
		total += n;
	}
	if (total > HROE_BATCH_GET_MAX)
		HroeValidation("Too many items requested for the BatchGetItem call");
}

/* Every table looked up, every key validated, no key twice, before any read */
static void
BatchGetKeys(BatchGet *g)
{
	char	  **ids = palloc(sizeof(char *) * HROE_BATCH_GET_MAX);
	int			total = 0;

	for (int i = 0; i < g->ntables; i++)
	{
		int			base = total;
		HroeAttrValue **vals;
		HroeTableMeta *t;

		/* the table an AccessDeniedException names (as the single-item reads) */
		hroe_call_resource(g->call, g->tables[i], strlen(g->tables[i]));
		t = g->metas[i] = hroe_table_lookup(g->tables[i], false);
		g->nkeys[i] = ArrayElements(Member(&g->specs[i], "Keys"), &g->elems[i]);
		g->keys[i] = palloc(sizeof(Datum) * g->nkeys[i] * 2);
		vals = palloc(sizeof(HroeAttrValue *) * g->nkeys[i] * 2);
		for (int k = 0; k < g->nkeys[i]; k++)
		{
			if (g->elems[i][k].type != jbvBinary)
				HroeValidation("The provided key element does not match the schema");
			hroe_check_request_key(t, JsonbValueToJsonb(&g->elems[i][k]), g->keys[i] + 2 * k,
								   vals + 2 * k);
			ids[total++] = KeyIdentityAttr(vals + 2 * k, t->schema.nhash + t->schema.nrange);
			CheckDuplicate(ids + base, total - base);
		}
	}
}

/*
 * Read table i's items (copied into cxt) into the response; once the
 * response is full, the keys left go to UnprocessedKeys
 */
static void
BatchGetTable(BatchGet *g, int i, MemoryContext cxt)
{
	HroeTableMeta *t = g->metas[i];
	JsonbValue *cr = Member(&g->specs[i], "ConsistentRead");
	bool		consistent = cr && cr->type == jbvBool && cr->val.boolean;
	double		units = 0;
	bool		first = true;
	bool		first_unprocessed = true;

	hroe_call_resource(g->call, g->tables[i], strlen(g->tables[i]));
	if (i > 0)
		appendStringInfoString(&g->resp, ", ");
	escape_json(&g->resp, g->tables[i]);
	appendStringInfoString(&g->resp, ": [");
	for (int k = 0; k < g->nkeys[i]; k++)
	{
		HroeItem   *item = NULL;
		bool		throttled = false;

		/*
		 * an item that would take the response past 16 MB is not returned:
		 * its key and the remaining ones are left unprocessed; so is a key
		 * DynamoDB's throttling refuses (throttle.c)
		 */
		if (!g->full)
		{
			throttled = !hroe_throttle_admit(t, false, -1, g->keys[i] + 2 * k, false);
			if (throttled)
				g->throttled++;
			else
			{
				item = hroe_op_fetch_item(t, g->keys[i] + 2 * k, false, cxt);
				hroe_contributor_insights_item(t, NULL, item, false, false);
			}
			g->full = item && g->response_bytes + hroe_item_size(item) > HROE_BATCH_GET_BYTES;
		}
		if (g->full || throttled)
		{
			if (first_unprocessed)
			{
				appendStringInfo(&g->unprocessed, "%s", g->unprocessed.len ? ", " : "");
				escape_json(&g->unprocessed, g->tables[i]);
				appendStringInfoString(&g->unprocessed, ": {\"Keys\": [");
			}
			else
				appendStringInfoString(&g->unprocessed, ", ");
			/* (a key whole: U+0000 as \u0000) */
			appendStringInfoString(&g->unprocessed, hroe_jsonb_text(g->elems[i][k].val.binary.data));
			first_unprocessed = false;
			continue;
		}
		/* per item: rounded to 4 KB each, then summed (section 6) */
		units += hroe_read_units(item ? hroe_item_size(item) : 0, consistent);
		hroe_throttle_charge(t, false, -1, g->keys[i] + 2 * k,
							 hroe_read_units(item ? hroe_item_size(item) : 0, consistent), NULL);
		if (item)
		{
			g->response_bytes += hroe_item_size(item);
			if (!first)
				appendStringInfoString(&g->resp, ", ");
			hroe_item_write(&g->resp, g->paths[i] ? hroe_project(g->paths[i], item) : item);
			first = false;
		}
	}
	appendStringInfoChar(&g->resp, ']');
	if (!first_unprocessed)
		appendStringInfo(&g->unprocessed, "], \"ConsistentRead\": %s}", consistent ? "true" : "false");
	if (g->rcc && strcmp(g->rcc, "NONE") != 0)
	{
		Jsonb	   *cc = hroe_capacity_jsonb(g->rcc, g->tables[i], units, t, NULL);

		appendStringInfo(&g->ccs, "%s%s", g->ccs.len ? ", " : "",
						 JsonbToCString(NULL, &cc->root, VARSIZE(cc)));
	}
}

/*
 * BatchGetItem of RequestItems as DynamoDB JSON: {"Responses": {table:
 * [items]}, "UnprocessedKeys": {}, "ConsumedCapacity": [...]}, each table's
 * items projected on its ProjectionExpression; the response as JSON text,
 * built once (the JSON API splices it into its own)
 */
char *
hroe_batch_get(HroeCall *call, Jsonb *req, const char *rcc)
{
	MemoryContext cxt = CurrentMemoryContext;
	BatchGet	g = {0};

	g.call = call;
	g.rcc = rcc;
	BatchGetCheck(&g, req);
	/* the response outlives SPI_finish: built in the caller's context */
	initStringInfo(&g.resp);
	initStringInfo(&g.ccs);
	initStringInfo(&g.unprocessed);
	g.metas = palloc(sizeof(HroeTableMeta *) * g.ntables);
	g.keys = palloc(sizeof(Datum *) * g.ntables);
	g.elems = palloc(sizeof(JsonbValue *) * g.ntables);
	g.nkeys = palloc(sizeof(int) * g.ntables);
	SPI_connect();
	/* validate every key and look for duplicates before reading anything */
	BatchGetKeys(&g);
	appendStringInfoString(&g.resp, "{\"Responses\": {");
	hroe_op_push_read_snapshot();
	for (int i = 0; i < g.ntables; i++)
		BatchGetTable(&g, i, cxt);
	PopActiveSnapshot();
	/* every key throttled: the exception, as DynamoDB answers (throttle.c) */
	if (g.throttled > 0)
	{
		int			nkeys = 0;

		for (int i = 0; i < g.ntables; i++)
			nkeys += g.nkeys[i];
		if (g.throttled == nkeys)
			hroe_throttle_raise();
	}
	SPI_finish();
	appendStringInfo(&g.resp, "}, \"UnprocessedKeys\": {%s}", g.unprocessed.data);
	if (rcc && strcmp(rcc, "NONE") != 0)
		appendStringInfo(&g.resp, ", \"ConsumedCapacity\": [%s]", g.ccs.data);
	appendStringInfoChar(&g.resp, '}');
	return g.resp.data;
}

PG_FUNCTION_INFO_V1(hroe_batch_get_item);
/* hroe.batch_get_item(request_items, return_consumed_capacity) */
Datum
hroe_batch_get_item(PG_FUNCTION_ARGS)
{
	Jsonb	   *res = hroe_op_text_to_jsonb(hroe_batch_get(NULL, PG_GETARG_JSONB_P(0),
														 hroe_op_arg_text(fcinfo, 1)));

	/* an item read may hold U+0000: an error, never a cut string */
	hroe_jsonb_check_no_nul(&res->root, "the response of hroe.batch_get_item");
	PG_RETURN_JSONB_P(res);
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
	HroeCall   *call;			/* the error payload, or NULL */
	int			n;
	BatchWrite *w;				/* in the canonical lock order */
	int			ntables;
	char	  **names;			/* [table]: as the request names it */
	HroeTableMeta **metas;
	HroeItem ***puts;			/* [table][k]: the item, NULL for a delete */
	Datum	  **delkeys;		/* [table][2k]: a delete's key */
	double	   *units;			/* [table] */
	double	   *index_units;	/* [table * HROE_MAX_INDEXES] */
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
	memset(b->index_units, 0, sizeof(double) * b->ntables * HROE_MAX_INDEXES);
	for (int j = 0; j < b->n; j++)
	{
		int			i = b->w[j].table,
					k = b->w[j].k;
		HroeTableMeta *t = b->metas[i];
		double		u,
					iu[HROE_MAX_INDEXES];

		/* the table an AccessDeniedException names (as the single-item writes) */
		hroe_call_resource(b->call, b->names[i], strlen(b->names[i]));
		if (lock_keys)
			hroe_lock_item_key(t, b->w[j].identity);
		if (b->puts[i][k])
			hroe_op_do_put(t, b->puts[i][k], false, NULL, NULL, true, cxt, &u, iu, NULL);
		else
			hroe_op_do_delete(t, b->delkeys[i] + 2 * k, cxt, &u, iu);

		b->units[i] += u;
		for (int x = 0; x < t->nindexes; x++)
			b->index_units[i * HROE_MAX_INDEXES + x] += iu[x];
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
 * PutRequest/DeleteRequest, each atomic; DynamoDB's response body as JSON
 * text (built once), with ItemCollectionMetrics when ricm
 * (ReturnItemCollectionMetrics SIZE)
 */
char *
hroe_batch_write(HroeCall *call, Jsonb *req, const char *rcc, bool ricm)
{
	MemoryContext cxt = CurrentMemoryContext;
	char	  **tables;
	JsonbValue *specs;
	int			ntables;
	int			total = 0;
	char	  **ids = palloc(sizeof(char *) * HROE_BATCH_WRITE_MAX);
	StringInfoData resp,
				ccs,
				unprocessed;
	JsonbValue **elems;
	int		   *nelems;
	BatchWrites b;
	HroeTableMeta **wtables;
	const char **wnames;
	HroeItem  **witems;
	char	   *icm = NULL;

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
	initStringInfo(&unprocessed);
	SPI_connect();
	b.call = call;
	b.ntables = ntables;
	b.names = tables;
	b.metas = palloc(sizeof(HroeTableMeta *) * ntables);
	b.puts = palloc(sizeof(HroeItem **) * ntables);
	b.delkeys = palloc(sizeof(Datum *) * ntables);
	b.w = palloc(sizeof(BatchWrite) * total);
	b.units = palloc(sizeof(double) * ntables);
	b.index_units = palloc(sizeof(double) * ntables * HROE_MAX_INDEXES);
	/* each request's table and item (or key), in request order */
	wtables = palloc(sizeof(HroeTableMeta *) * total);
	wnames = palloc(sizeof(char *) * total);
	witems = palloc(sizeof(HroeItem *) * total);
	total = 0;
	/* validate everything (keys, items, duplicates) before writing anything */
	for (int i = 0; i < ntables; i++)
	{
		int			base = total;

		hroe_call_resource(call, tables[i], strlen(tables[i]));
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
					hroe_missing_member("requestItems.putRequest.item");
				b.puts[i][k] = hroe_item_from_jsonb(arg->val.binary.data, arg->val.binary.len);
				/* a key of another type than the table's: E3, not PutItem's E2 */
				if (hroe_item_key_mismatch(b.metas[i], b.puts[i][k], keys))
					HroeValidation("The provided key element does not match the schema");
				ids[total] = KeyIdentityItem(b.metas[i], b.puts[i][k]);
				keyitem = b.puts[i][k];
			}
			else
			{
				HroeAttrValue *vals[2];

				arg = Member(del, "Key");
				if (arg == NULL || arg->type != jbvBinary)
					hroe_missing_member("requestItems.deleteRequest.key");
				hroe_check_request_key(b.metas[i], JsonbValueToJsonb(arg), b.delkeys[i] + 2 * k, vals);
				ids[total] = KeyIdentityAttr(vals, b.metas[i]->schema.nhash + b.metas[i]->schema.nrange);
				keyitem = hroe_item_from_jsonb(arg->val.binary.data, arg->val.binary.len);
			}
			b.w[total].table = i;
			b.w[total].k = k;
			b.w[total].identity = hroe_item_key_identity(b.metas[i], keyitem);
			wtables[total] = b.metas[i];
			wnames[total] = tables[i];
			witems[total] = keyitem;
			total++;
			CheckDuplicate(ids + base, total - base);
		}
	}
	b.n = total;
	/*
	 * DynamoDB's throttling (throttle.c): a request it refuses is left in
	 * UnprocessedItems, in request order; all of them refused, the exception.
	 * Each one admitted is charged at once (a put its item's units, a
	 * delete one), so the next ones meet what the batch takes.
	 */
	{
		int			kept = 0;
		int			last_table = -1;

		for (int j = 0; j < b.n; j++)
		{
			int			i = b.w[j].table,
						k = b.w[j].k;
			Datum		tk[2];

			if (!hroe_throttle_active(b.metas[i]))
			{
				b.w[kept++] = b.w[j];
				continue;
			}
			if (b.puts[i][k])
				hroe_check_item_key(b.metas[i], b.puts[i][k], tk);
			else
				tk[0] = b.delkeys[i][2 * k];
			if (hroe_throttle_admit(b.metas[i], true, -1, &tk[0], false))
			{
				hroe_throttle_charge(b.metas[i], true, -1, &tk[0],
									 b.puts[i][k] ? hroe_write_units(hroe_item_size(b.puts[i][k])) : 1,
									 NULL);
				b.w[kept++] = b.w[j];
				continue;
			}
			if (b.puts[i][k])
				hroe_throttle_refuse_item(b.metas[i], b.puts[i][k], true, false);
			if (i != last_table)
			{
				if (unprocessed.len)
					appendStringInfoString(&unprocessed, "], ");
				escape_json(&unprocessed, tables[i]);
				appendStringInfoString(&unprocessed, ": [");
			}
			else
				appendStringInfoString(&unprocessed, ", ");
			appendStringInfoString(&unprocessed, hroe_jsonb_text(elems[i][k].val.binary.data));
			last_table = i;
		}
		if (unprocessed.len)
			appendStringInfoChar(&unprocessed, ']');
		if (kept == 0 && b.n > 0)
			hroe_throttle_raise();
		b.n = kept;
	}
	/* written in the canonical order, whatever the request's */
	qsort(b.w, b.n, sizeof(BatchWrite), BatchWriteCmp);
	BatchWriteRetrying(&b, cxt);
	for (int i = 0; i < ntables; i++)
	{
		if (rcc && strcmp(rcc, "NONE") != 0)
		{
			Jsonb	   *cc = hroe_capacity_jsonb(rcc, tables[i], b.units[i], b.metas[i],
												 b.index_units + i * HROE_MAX_INDEXES);

			appendStringInfo(&ccs, "%s%s", ccs.len ? ", " : "",
							 JsonbToCString(NULL, &cc->root, VARSIZE(cc)));
		}
	}
	if (ricm)
	{
		/* (the response outlives SPI_finish) */
		MemoryContext spicxt = MemoryContextSwitchTo(cxt);

		icm = hroe_item_collection_metrics_map(b.n, wtables, wnames, witems);
		MemoryContextSwitchTo(spicxt);
	}
	SPI_finish();
	appendStringInfo(&resp, "{\"UnprocessedItems\": {%s}", unprocessed.data);
	if (rcc && strcmp(rcc, "NONE") != 0)
		appendStringInfo(&resp, ", \"ConsumedCapacity\": [%s]", ccs.data);
	if (icm)
		appendStringInfo(&resp, ", \"ItemCollectionMetrics\": %s", icm);
	appendStringInfoChar(&resp, '}');
	return resp.data;
}

PG_FUNCTION_INFO_V1(hroe_batch_write_item);
/* hroe.batch_write_item(request_items, return_consumed_capacity) */
Datum
hroe_batch_write_item(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(hroe_op_text_to_jsonb(hroe_batch_write(NULL, PG_GETARG_JSONB_P(0),
															 hroe_op_arg_text(fcinfo, 1), false)));
}
