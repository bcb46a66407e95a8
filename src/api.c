/*-------------------------------------------------------------------------
 *
 * api.c
 *	  hroe.dynamodb(operation, request): DynamoDB's JSON API in one function.
 *
 * The request is the JSON body of a DynamoDB API call; the result is the
 * body DynamoDB returns, errors included ({"__type": ..., "message": ...}).
 * Each call runs in a subtransaction, so a failed request leaves nothing
 * written.  The data-plane operations (GetItem, PutItem, UpdateItem,
 * DeleteItem, Query, Scan) call the C code behind the SQL functions of
 * operations.sql directly (operations.h); the batch operations are those SQL
 * functions called through fmgr, the DDL ones through SPI plans prepared
 * once per backend.  The expression parameters (KeyConditionExpression,
 * ConditionExpression, UpdateExpression, FilterExpression,
 * ProjectionExpression) are parsed once per request, here, with the
 * expression module's C API.
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

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/resowner.h"
#include "utils/typcache.h"

#include "api.h"
#include "catalog.h"
#include "expression.h"
#include "item.h"
#include "operations.h"
#include "tables.h"

#define ERRCODE_HROE_TRANSACTION_CANCELED MAKE_SQLSTATE('H','R','0','0','5')

#define API_MAX_TRANSACT 100
#define API_MAX_ARGS 13

PG_FUNCTION_INFO_V1(hroe_dynamodb);
PG_FUNCTION_INFO_V1(hroe_update_item);
PG_FUNCTION_INFO_V1(hroe_transact_write_items);
PG_FUNCTION_INFO_V1(hroe_transact_get_items);

/* ---------- the SPI statements ---------- */

typedef enum ApiStmt
{
	STMT_BATCH_GET,
	STMT_BATCH_WRITE,
	STMT_CREATE_TABLE,
	STMT_CREATE_INDEX,
	STMT_DESCRIBE,
	STMT_DELETE_TABLE,
	STMT_DELETE_INDEX,
	STMT_LIST_TABLES,
	STMT_COUNT
} ApiStmt;

typedef struct ApiStmtDef
{
	const char *sql;			/* run through SPI (DDL, plpgsql) */
	const char *fn;				/* or called directly, when set */
	int			nargs;
	const char *types[API_MAX_ARGS];	/* of the SPI statements */
} ApiStmtDef;

static const ApiStmtDef StmtDefs[STMT_COUNT] = {
	{NULL, "hroe.batch_get_item(jsonb, text)", 2, {"jsonb", "text"}},
	{NULL, "hroe.batch_write_item(jsonb, text)", 2, {"jsonb", "text"}},
	{"SELECT hroe.create_table($1, $2, $3, $4, $5)", NULL, 5,
	{"text", "text", "text", "text", "text"}},
	{"SELECT hroe.create_index($1, $2, $3, $4, $5, $6, $7)", NULL, 7,
	{"text", "text", "text[]", "text[]", "jsonb", "text", "text[]"}},
	{"SELECT hroe.describe_table($1)", NULL, 1, {"text"}},
	{"SELECT hroe.delete_table($1)", NULL, 1, {"text"}},
	{"SELECT hroe.delete_index($1, $2)", NULL, 2, {"text", "text"}},
	/* table names in byte order (as DynamoDB's), after $1, at most $2 */
	{"SELECT pg_catalog.array_agg(n ORDER BY n COLLATE pg_catalog.\"C\") FROM ("
		"SELECT table_name AS n FROM hroe.tables"
		" WHERE $1 IS NULL OR table_name COLLATE pg_catalog.\"C\" OPERATOR(pg_catalog.>) $1"
		" ORDER BY table_name COLLATE pg_catalog.\"C\" LIMIT $2) s", NULL, 2, {"text", "int4"}},
};

static SPIPlanPtr StmtPlans[STMT_COUNT];
static FmgrInfo *StmtFns[STMT_COUNT];
static bool StmtComposite[STMT_COUNT];
static uint64 StmtFnsEpoch;		/* hroe_catalog_epoch() of StmtFns */

/* The response being built, and the cancellation reasons of a transaction */
typedef struct ApiCall
{
	MemoryContext outer;		/* the caller's context: survives the subxact */
	char	   *reasons;		/* TransactionCanceled: JSON array text */
	char	   *item;			/* ConditionalCheckFailed: the old item
								 * (ReturnValuesOnConditionCheckFailure
								 * ALL_OLD), JSON text */
	Jsonb	   *result;			/* the response, when built as jsonb (then
								 * nothing is written as text) */
	char		resource[256];	/* AccessDenied: the request's table being
								 * accessed ("" when none) */
} ApiCall;

static ApiCall *CurrentCall = NULL;

/*
 * Name the request's table (len bytes) the call is about to access, or none
 * (NULL): the resource of an AccessDeniedException.  A copy, since the
 * request's strings do not outlive the call's subtransaction; a name too
 * long for any table is cut at a character boundary.
 */
static void
CallResourceN(const char *table, int len)
{
	if (CurrentCall == NULL)
		return;
	if (table == NULL)
		len = 0;
	else if (len >= (int) sizeof(CurrentCall->resource))
		len = pg_mbcliplen(table, len, sizeof(CurrentCall->resource) - 1);
	if (len > 0)
		memcpy(CurrentCall->resource, table, len);
	CurrentCall->resource[len] = '\0';
}

/* CallResourceN of a NUL-terminated name, or of none */
static inline void
CallResource(const char *table)
{
	CallResourceN(table, table ? strlen(table) : 0);
}

/* The result of a statement: its columns (a composite result's fields) */
typedef struct ApiRow
{
	int			ncols;
	Datum		values[8];
	bool		nulls[8];
} ApiRow;

/*
 * Run statement s with the given arguments (nulls: 'n' for NULL, as SPI);
 * returns its (first) row.  The operation functions are called directly
 * through fmgr (no executor); the DDL functions through SPI.
 */
static ApiRow *
RunStmt(ApiStmt s, Datum *values, const char *nulls)
{
	ApiRow	   *row = palloc0(sizeof(ApiRow));

	if (StmtDefs[s].fn)
	{
		LOCAL_FCINFO(fcinfo, API_MAX_ARGS);
		Datum		result;

		/*
		 * prepared again once one of them changed or went (DROP/CREATE
		 * EXTENSION hroe); the old ones are not freed: a caller up the
		 * stack may still be running one
		 */
		if (StmtFnsEpoch != hroe_catalog_epoch())
		{
			memset(StmtFns, 0, sizeof(StmtFns));
			StmtFnsEpoch = hroe_catalog_epoch();
		}
		if (StmtFns[s] == NULL)
		{
			Oid			fn = DatumGetObjectId(DirectFunctionCall1(regprocedurein,
																  CStringGetDatum(StmtDefs[s].fn)));
			FmgrInfo   *finfo = MemoryContextAlloc(TopMemoryContext, sizeof(FmgrInfo));

			fmgr_info_cxt(fn, finfo, TopMemoryContext);
			StmtComposite[s] = type_is_rowtype(get_func_rettype(fn));
			hroe_catalog_watch_proc(fn);
			/* (a watch may have found the epoch moved: then prepare again) */
			if (StmtFnsEpoch != hroe_catalog_epoch())
				return RunStmt(s, values, nulls);
			StmtFns[s] = finfo;
		}
		InitFunctionCallInfoData(*fcinfo, StmtFns[s], StmtDefs[s].nargs, InvalidOid, NULL, NULL);
		for (int i = 0; i < StmtDefs[s].nargs; i++)
		{
			fcinfo->args[i].value = values[i];
			fcinfo->args[i].isnull = nulls[i] == 'n';
			if (fcinfo->args[i].isnull && StmtFns[s]->fn_strict)
				elog(ERROR, "NULL argument %d for strict %s", i + 1, StmtDefs[s].fn);
		}
		result = FunctionCallInvoke(fcinfo);
		if (fcinfo->isnull)
		{
			row->ncols = 1;
			row->nulls[0] = true;
		}
		else if (StmtComposite[s])
		{
			HeapTupleHeader th = DatumGetHeapTupleHeader(result);
			TupleDesc	td = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(th),
												   HeapTupleHeaderGetTypMod(th));
			HeapTupleData tuple;

			tuple.t_len = HeapTupleHeaderGetDatumLength(th);
			ItemPointerSetInvalid(&tuple.t_self);
			tuple.t_tableOid = InvalidOid;
			tuple.t_data = th;
			row->ncols = Min(td->natts, 8);
			heap_deform_tuple(&tuple, td, row->values, row->nulls);
			ReleaseTupleDesc(td);
		}
		else
		{
			row->ncols = 1;
			row->values[0] = result;
		}
		return row;
	}
	if (StmtPlans[s] == NULL)
	{
		Oid			types[API_MAX_ARGS];
		SPIPlanPtr	plan;
		int			ret;

		for (int i = 0; i < StmtDefs[s].nargs; i++)
			types[i] = DatumGetObjectId(DirectFunctionCall1(regtypein,
															CStringGetDatum(StmtDefs[s].types[i])));
		plan = SPI_prepare(StmtDefs[s].sql, StmtDefs[s].nargs, types);
		if (plan == NULL)
			elog(ERROR, "preparing \"%s\" failed: %s", StmtDefs[s].sql,
				 SPI_result_code_string(SPI_result));
		ret = SPI_keepplan(plan);
		if (ret != 0)
			elog(ERROR, "SPI_keepplan failed: %s", SPI_result_code_string(ret));
		StmtPlans[s] = plan;
	}
	{
		int			ret = SPI_execute_plan(StmtPlans[s], values, nulls, false, 0);

		if (ret != SPI_OK_SELECT)
			elog(ERROR, "\"%s\" failed: %s", StmtDefs[s].sql, SPI_result_code_string(ret));
		if (SPI_processed == 0)
			elog(ERROR, "\"%s\" returned no row", StmtDefs[s].sql);
		row->ncols = Min(SPI_tuptable->tupdesc->natts, 8);
		for (int i = 0; i < row->ncols; i++)
			row->values[i] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1,
										   &row->nulls[i]);
	}
	return row;
}

/* Column i (1-based) of a row RunStmt returned */
static Datum
Col(ApiRow *row, int i, bool *isnull)
{
	Assert(i >= 1 && i <= row->ncols);
	*isnull = row->nulls[i - 1];
	return row->values[i - 1];
}

/* ---------- errors ---------- */

/* A ValidationException with DynamoDB's text */
static void
pg_attribute_noreturn()
Invalid(const char *msg)
{
	hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException", msg);
}

/* DynamoDB's message for a missing required member */
static void
pg_attribute_noreturn()
Missing(const char *member)
{
	Invalid(psprintf("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null",
					 member));
}

/* ---------- request members ---------- */

/* Member name of an object (NULL if absent or JSON null) */
static JsonbValue *
Member(JsonbContainer *obj, const char *name)
{
	JsonbValue	k;
	JsonbValue *v;

	if (!JsonContainerIsObject(obj))
		return NULL;
	k.type = jbvString;
	k.val.string.val = (char *) name;
	k.val.string.len = strlen(name);
	v = findJsonbValueFromContainer(obj, JB_FOBJECT, &k);
	if (v && v->type == jbvNull)
		return NULL;
	return v;
}

/* A string member, or NULL; member is the name for error messages */
static char *
MemberText(JsonbContainer *obj, const char *name, const char *member)
{
	JsonbValue *v = Member(obj, name);

	if (v == NULL)
		return NULL;
	if (v->type != jbvString)
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", member));
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/* An object (or array) member as its own Jsonb, or NULL */
static Jsonb *
MemberJsonb(JsonbContainer *obj, const char *name)
{
	JsonbValue *v = Member(obj, name);

	if (v == NULL)
		return NULL;
	if (v->type != jbvBinary)
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", name));
	return JsonbValueToJsonb(v);
}

/* A boolean member, dflt when absent */
static bool
MemberBool(JsonbContainer *obj, const char *name, bool dflt)
{
	JsonbValue *v = Member(obj, name);

	if (v == NULL)
		return dflt;
	if (v->type != jbvBool)
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", name));
	return v->val.boolean;
}

/* An integer member; *present false when absent */
static int32
MemberInt(JsonbContainer *obj, const char *name, bool *present)
{
	JsonbValue *v = Member(obj, name);
	Datum		d;

	*present = v != NULL;
	if (v == NULL)
		return 0;
	if (v->type != jbvNumeric)
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", name));
	d = DirectFunctionCall1(numeric_int4, NumericGetDatum(v->val.numeric));
	return DatumGetInt32(d);
}

/* Elements of an array member (NULL, 0 if absent) */
static int
MemberArray(JsonbContainer *obj, const char *name, JsonbContainer ***elems)
{
	JsonbValue *v = Member(obj, name);
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	e;
	int			n = 0;

	*elems = NULL;
	if (v == NULL)
		return 0;
	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", name));
	*elems = palloc(sizeof(JsonbContainer *) * (JsonContainerSize(v->val.binary.data) + 1));
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		if (tok == WJB_ELEM)
		{
			if (e.type != jbvBinary)
				hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
							   psprintf("Unexpected value type in payload: %s", name));
			(*elems)[n++] = e.val.binary.data;
		}
	return n;
}

/* The text of a Jsonb */
static char *
JsonbText(Jsonb *j)
{
	return JsonbToCString(NULL, &j->root, VARSIZE(j));
}

/* Datum helpers */
#define TextD(s) ((s) ? CStringGetTextDatum(s) : (Datum) 0)

/* ---------- expressions of one request ---------- */

typedef struct ApiExprs
{
	HroeExprContext *cxt;
	Jsonb	   *names;
	Jsonb	   *values;
	HroeExprNode *condition;	/* ConditionExpression */
	HroeExprNode *filter;		/* FilterExpression */
	List	   *projection;		/* ProjectionExpression paths */
	HroeUpdateExpr *update;		/* UpdateExpression */
	char	   *kce;			/* KeyConditionExpression */
	HroeExprNode *kce_root;		/* ... parsed */
} ApiExprs;

/*
 * Parse the expression parameters of a request (or of one transaction
 * action) with one set of placeholders, and check that every placeholder
 * is used.
 */
static void
ParseExprs(JsonbContainer *req, ApiExprs *e, bool allow_condition, bool allow_update,
		   bool allow_filter, bool allow_projection, bool allow_kce)
{
	char	   *cond = allow_condition ? MemberText(req, "ConditionExpression", "ConditionExpression") : NULL;
	char	   *upd = allow_update ? MemberText(req, "UpdateExpression", "UpdateExpression") : NULL;
	char	   *filt = allow_filter ? MemberText(req, "FilterExpression", "FilterExpression") : NULL;
	char	   *proj = allow_projection ? MemberText(req, "ProjectionExpression", "ProjectionExpression") : NULL;

	memset(e, 0, sizeof(ApiExprs));
	e->kce = allow_kce ? MemberText(req, "KeyConditionExpression", "KeyConditionExpression") : NULL;
	e->names = MemberJsonb(req, "ExpressionAttributeNames");
	e->values = MemberJsonb(req, "ExpressionAttributeValues");
	if (e->names && !cond && !upd && !filt && !proj && !e->kce)
		Invalid("ExpressionAttributeNames can only be specified when using expressions");
	if (e->values && !cond && !upd && !filt && !e->kce)
	{
		/* DynamoDB names the value-taking expressions of the operation */
		const char *which = allow_update ? "UpdateExpression and ConditionExpression are null"
			: allow_kce ? "KeyConditionExpression and FilterExpression are null"
			: allow_condition ? "ConditionExpression is null"
			: allow_filter ? "FilterExpression is null" : NULL;

		if (which)
			Invalid(psprintf("ExpressionAttributeValues can only be specified when using expressions: %s",
							 which));
	}
	if (!cond && !upd && !filt && !proj && !e->kce)
		return;
	e->cxt = hroe_expr_context_create(e->names, e->values);
	if (e->kce)
		e->kce_root = hroe_expr_parse(e->cxt, "KeyConditionExpression", e->kce);
	if (upd)
		e->update = hroe_update_parse(e->cxt, upd);
	if (cond)
		e->condition = hroe_expr_parse(e->cxt, "ConditionExpression", cond);
	if (filt)
		e->filter = hroe_expr_parse(e->cxt, "FilterExpression", filt);
	if (proj)
		e->projection = hroe_projection_parse(e->cxt, proj);
	hroe_expr_check_unused(e->cxt);
}

/* ---------- keys and locks ---------- */

/*
 * Lock an item for a conditional write: the advisory lock on its key's hash,
 * then the row FOR UPDATE (or FOR SHARE); returns the item, NULL if absent,
 * and the locked row's TID in *tid (when not NULL and the item is present).
 */
static HroeItem *
LockItemTid(HroeTableMeta *t, Datum *keys, const char *identity, bool exclusive,
			ItemPointer tid)
{
	Oid			types[2];
	int			n = t->schema.nhash + t->schema.nrange;
	SPIPlanPtr	plan;
	const char *shape = exclusive ? "api-lock" : "api-share";
	int			ret;
	bool		isnull;

	hroe_lock_item_key(t, identity, exclusive);
	for (int i = 0; i < n; i++)
		types[i] = hroe_key_type_oid(t->schema.types[i]);
	plan = hroe_table_plan_find(t, shape);
	if (plan == NULL)
		plan = hroe_table_plan(t, shape,
							   psprintf("SELECT item, ctid FROM %s WHERE %s%s", t->relname,
										n == 2 ? "pk = $1 AND sk = $2" : "pk = $1",
										exclusive ? " FOR UPDATE" : " FOR SHARE"),
							   n, types);
	hroe_push_search_path();
	ret = SPI_execute_plan(plan, keys, NULL, false, 1);
	hroe_pop_search_path();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "locking an item of %s failed: %s", t->relname, SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return NULL;
	if (tid)
		ItemPointerCopy((ItemPointer) DatumGetPointer(SPI_getbinval(SPI_tuptable->vals[0],
														  SPI_tuptable->tupdesc, 2, &isnull)),
						tid);
	return DatumGetHroeItemP(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

/* LockItem without the TID */
static HroeItem *
LockItem(HroeTableMeta *t, Datum *keys, const char *identity, bool exclusive)
{
	return LockItemTid(t, keys, identity, exclusive, NULL);
}

/* The table named in a request, or DynamoDB's errors */
static HroeTableMeta *
RequestTable(JsonbContainer *req, char **name)
{
	HroeTableMeta *t;

	*name = MemberText(req, "TableName", "TableName");
	if (*name == NULL)
		Missing("tableName");
	t = hroe_table_lookup(*name, true);
	if (t == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   "Requested resource not found");
	return t;
}

/* ---------- response pieces ---------- */

/* ,"Name":<jsonb> */
static void
AppendJsonb(StringInfo out, const char *name, Jsonb *j)
{
	appendStringInfo(out, ",\"%s\":", name);
	appendStringInfoString(out, JsonbText(j));
}

/* ,"Name":<item> */
static void
AppendItem(StringInfo out, const char *name, const HroeItem *item)
{
	appendStringInfo(out, ",\"%s\":", name);
	hroe_item_write(out, item);
}

/* Push jsonb j as the next value of a jsonb being built */
static void
PushJsonb(JsonbParseState **st, Jsonb *j)
{
	JsonbValue	v;

	if (JB_ROOT_IS_SCALAR(j))
	{
		(void) JsonbExtractScalar(&j->root, &v);
		pushJsonbValue(st, WJB_VALUE, &v);
		return;
	}
	v.type = jbvBinary;
	v.val.binary.data = &j->root;
	v.val.binary.len = VARSIZE(j) - VARHDRSZ;
	pushJsonbValue(st, WJB_VALUE, &v);
}

/* Push "name": n */
static void
PushInt(JsonbParseState **st, const char *name, int64 n)
{
	JsonbValue	v;

	hroe_jsonb_push_key(st, name);
	v.type = jbvNumeric;
	v.val.numeric = int64_to_numeric(n);
	pushJsonbValue(st, WJB_VALUE, &v);
}

/*
 * Close the response object being built and make it the call's result (in
 * the caller's context: it outlives SPI and the subtransaction).  Building
 * the jsonb directly spares printing the items and parsing them back.
 */
static void
SetResult(JsonbParseState **st)
{
	JsonbValue *res = pushJsonbValue(st, WJB_END_OBJECT, NULL);
	MemoryContext old = MemoryContextSwitchTo(CurrentCall->outer);

	CurrentCall->result = JsonbValueToJsonb(res);
	MemoryContextSwitchTo(old);
}

/* Number of attributes of an item */
static uint32
ItemCount(const HroeItem *item)
{
	HroeValue	root;

	hroe_item_root(item, &root);
	return hroe_value_count(&root);
}

/* ReturnConsumedCapacity as given, validated by the operation */
static char *
ReturnCC(JsonbContainer *req)
{
	char	   *rcc = MemberText(req, "ReturnConsumedCapacity", "ReturnConsumedCapacity");

	return rcc ? rcc : "NONE";
}

/* ReturnConsumedCapacity of an operation that validates it here */
static char *
CheckedReturnCC(JsonbContainer *req)
{
	char	   *rcc = ReturnCC(req);

	if (strcmp(rcc, "NONE") != 0 && strcmp(rcc, "TOTAL") != 0 && strcmp(rcc, "INDEXES") != 0)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]",
						 rcc));
	return rcc;
}

/*
 * ReturnItemCollectionMetrics (PutItem, UpdateItem, DeleteItem,
 * BatchWriteItem, TransactWriteItems): SIZE or NONE.  Item collection
 * metrics exist only for tables with local secondary indexes, which hroe
 * does not have, so DynamoDB (and hroe) return none either way.
 */
static void
CheckItemCollectionMetrics(JsonbContainer *req)
{
	char	   *ricm = MemberText(req, "ReturnItemCollectionMetrics", "ReturnItemCollectionMetrics");

	if (ricm && strcmp(ricm, "SIZE") != 0 && strcmp(ricm, "NONE") != 0)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [SIZE, NONE]",
						 ricm));
}

/* ---------- operations ---------- */

/* GetItem */
static void
ApiGetItem(JsonbContainer *req, StringInfo out)
{
	char	   *table;
	ApiExprs	e;
	Jsonb	   *key;
	HroeTableMeta *t;
	bool		consistent;
	char	   *rcc;
	HroeItem   *item;
	double		units;
	Jsonb	   *cc;
	JsonbParseState *st = NULL;

	ParseExprs(req, &e, false, false, false, true, false);
	t = RequestTable(req, &table);
	key = MemberJsonb(req, "Key");
	if (key == NULL)
		Missing("key");
	consistent = MemberBool(req, "ConsistentRead", false);
	rcc = ReturnCC(req);
	hroe_check_return_cc(rcc);
	item = hroe_get(t, key, consistent, &units);
	cc = hroe_capacity_jsonb(rcc, table, units, t, NULL);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	if (item)
	{
		if (e.projection)
			item = hroe_project(e.projection, item);
		hroe_jsonb_push_key(&st, "Item");
		(void) hroe_item_push_jsonb(&st, item);
	}
	if (cc)
	{
		hroe_jsonb_push_key(&st, "ConsumedCapacity");
		PushJsonb(&st, cc);
	}
	SetResult(&st);
}

/* Validate ReturnValues of UpdateItem */
static const char *
UpdateReturnValues(JsonbContainer *req)
{
	char	   *rv = MemberText(req, "ReturnValues", "ReturnValues");

	if (rv == NULL)
		return "NONE";
	if (strcmp(rv, "NONE") != 0 && strcmp(rv, "ALL_OLD") != 0 && strcmp(rv, "UPDATED_OLD") != 0 &&
		strcmp(rv, "ALL_NEW") != 0 && strcmp(rv, "UPDATED_NEW") != 0)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]",
						 rv));
	return rv;
}

/* Put/Delete ReturnValues: NONE or ALL_OLD (E17) */
static const char *
WriteReturnValues(JsonbContainer *req)
{
	char	   *rv = MemberText(req, "ReturnValues", "ReturnValues");

	if (rv == NULL)
		return "NONE";
	if (strcmp(rv, "ALL_NEW") == 0 || strcmp(rv, "UPDATED_OLD") == 0 ||
		strcmp(rv, "UPDATED_NEW") == 0)
		Invalid("ReturnValues can only be ALL_OLD or NONE");
	return rv;
}

/* ReturnValuesOnConditionCheckFailure: NONE or ALL_OLD; true for ALL_OLD */
static bool
ReturnOldOnFailure(JsonbContainer *req)
{
	char	   *v = MemberText(req, "ReturnValuesOnConditionCheckFailure",
							   "ReturnValuesOnConditionCheckFailure");

	if (v == NULL || strcmp(v, "NONE") == 0)
		return false;
	if (strcmp(v, "ALL_OLD") != 0)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]",
						 v));
	return true;
}

/*
 * A conditional write's check on the locked old item (NULL: absent): the
 * ConditionalCheckFailedException, which carries the old item when
 * ReturnValuesOnConditionCheckFailure is ALL_OLD (in the response body's
 * Item, and in the SQL error's DETAIL)
 */
static void
CheckWriteCondition(const HroeExprNode *cond, const HroeItem *old, bool return_old)
{
	StringInfoData buf;

	if (cond == NULL || hroe_expr_eval(cond, old))
		return;
	if (!return_old || old == NULL)
		hroe_condition_check(cond, old);
	initStringInfo(&buf);
	hroe_item_write(&buf, old);
	CurrentCall->item = MemoryContextStrdup(CurrentCall->outer, buf.data);
	ereport(ERROR,
			(errcode(ERRCODE_HROE_CONDITIONAL_CHECK_FAILED),
			 errmsg("The conditional request failed"),
			 errdetail("DynamoDB ConditionalCheckFailedException. Item: %s", buf.data)));
}

/*
 * Put an item (key NULL) or delete the item of key, as hroe.put_item and
 * hroe.delete_item do (ReturnValues and ReturnConsumedCapacity validated
 * there, after the condition); appends Attributes (ALL_OLD) and
 * ConsumedCapacity.  locked: the caller holds the key's locks and read the
 * old item (locked_old, NULL if absent, at locked_tid), which a put does not
 * read again.  Returns false, having written nothing, when a locked put of
 * an absent item meets an item inserted since (a plain put takes no key
 * lock): the caller's condition must be evaluated again on that item.  A
 * locked delete of an absent item deletes nothing, even if an item has
 * appeared since: the delete took effect when the item was found absent.
 */
static bool
CallWrite(const char *table, HroeItem *item, Jsonb *key, bool locked, HroeItem *locked_old,
		  ItemPointer locked_tid, const char *rv, const char *rcc, StringInfo out)
{
	bool		return_old = hroe_check_return_old(rv);
	HroeTableMeta *t;
	HroeItem   *old;
	double		units;
	double		index_units[HROE_MAX_GSIS];
	Jsonb	   *cc;
	bool		conflict = false;

	hroe_check_return_cc(rcc);
	t = hroe_table_lookup(table, false);
	if (key == NULL)
		old = hroe_put(t, item, locked, locked_old, locked_tid,
					   out != NULL && (return_old || strcmp(rcc, "NONE") != 0),
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
	if (out == NULL)
		return true;
	cc = hroe_capacity_jsonb(rcc, table, units, t, index_units);
	if (return_old && old)
		AppendItem(out, "Attributes", old);
	if (cc)
		AppendJsonb(out, "ConsumedCapacity", cc);
	return true;
}

/* Put an item */
static void
CallPut(const char *table, HroeItem *item, const char *rv, const char *rcc, StringInfo out)
{
	(void) CallWrite(table, item, NULL, false, NULL, NULL, rv, rcc, out);
}

/* Delete the item of a key */
static void
CallDelete(const char *table, Jsonb *key, const char *rv, const char *rcc, StringInfo out)
{
	(void) CallWrite(table, NULL, key, false, NULL, NULL, rv, rcc, out);
}

/* PutItem */
static void
ApiPutItem(JsonbContainer *req, StringInfo out)
{
	char	   *table;
	ApiExprs	e;
	Jsonb	   *j;
	HroeItem   *item;
	HroeTableMeta *t;
	const char *rv;
	bool		return_old;

	ParseExprs(req, &e, true, false, false, false, false);
	rv = WriteReturnValues(req);
	return_old = ReturnOldOnFailure(req);
	t = RequestTable(req, &table);
	j = MemberJsonb(req, "Item");
	if (j == NULL)
		Missing("item");
	item = HroeItemFromJsonb(j);
	if (e.condition)
	{
		Datum		keys[2];
		HroeItem   *old;
		ItemPointerData tid;

		hroe_check_item_key(t, item, keys);
		/* again when an item appeared since it was found absent */
		do
		{
			old = LockItemTid(t, keys, hroe_item_key_identity(t, item), true, &tid);
			CheckWriteCondition(e.condition, old, return_old);
		} while (!CallWrite(table, item, NULL, true, old, &tid, rv, ReturnCC(req), out));
	}
	else
		CallPut(table, item, rv, ReturnCC(req), out);
}

/* The request key as an item (validated against the schema first) */
static HroeItem *
RequestKey(HroeTableMeta *t, Jsonb *key, Datum *keys)
{
	HroeAttrValue *vals[2];

	hroe_check_request_key(t, key, keys, vals);
	return HroeItemFromJsonb(key);
}

/* DeleteItem */
static void
ApiDeleteItem(JsonbContainer *req, StringInfo out)
{
	char	   *table;
	ApiExprs	e;
	Jsonb	   *key;
	HroeTableMeta *t;
	const char *rv;
	bool		return_old;

	ParseExprs(req, &e, true, false, false, false, false);
	rv = WriteReturnValues(req);
	return_old = ReturnOldOnFailure(req);
	t = RequestTable(req, &table);
	key = MemberJsonb(req, "Key");
	if (key == NULL)
		Missing("key");
	if (e.condition)
	{
		Datum		keys[2];
		HroeItem   *k = RequestKey(t, key, keys);
		HroeItem   *old = LockItem(t, keys, hroe_item_key_identity(t, k), true);

		CheckWriteCondition(e.condition, old, return_old);
		(void) CallWrite(table, NULL, key, true, old, NULL, rv, ReturnCC(req), out);
	}
	else
		CallDelete(table, key, rv, ReturnCC(req), out);
}

/*
 * The new item of an UpdateItem: the update applied to the old item, or to
 * the key alone when there is none (UpdateItem upserts).  The update must
 * not touch a key attribute (E18); callers check that before locking.
 */
static HroeItem *
ApplyUpdate(HroeTableMeta *t, HroeUpdateExpr *upd, HroeItem *old, HroeItem *keyitem)
{
	return hroe_update_apply(upd, old ? old : keyitem);
}

/* UpdateItem */
static void
ApiUpdateItem(JsonbContainer *req, StringInfo out)
{
	char	   *table;
	ApiExprs	e;
	Jsonb	   *key;
	HroeTableMeta *t;
	const char *rv;
	Datum		keys[2];
	ItemPointerData tid;
	HroeItem   *k,
			   *old,
			   *new;
	char	   *rcc;
	StringInfoData put;
	bool		return_old;

	ParseExprs(req, &e, true, true, false, false, false);
	rv = UpdateReturnValues(req);
	return_old = ReturnOldOnFailure(req);
	t = RequestTable(req, &table);
	key = MemberJsonb(req, "Key");
	if (key == NULL)
		Missing("key");
	k = RequestKey(t, key, keys);
	if (e.update)
		hroe_update_check_keys(e.update, t->schema.names, t->schema.nhash + t->schema.nrange);
	rcc = ReturnCC(req);
	initStringInfo(&put);
	/* again when an item appeared since it was found absent */
	do
	{
		old = LockItemTid(t, keys, hroe_item_key_identity(t, k), true, &tid);
		CheckWriteCondition(e.condition, old, return_old);
		new = e.update ? ApplyUpdate(t, e.update, old, k) : (old ? old : k);
		resetStringInfo(&put);
	} while (!CallWrite(table, new, NULL, true, old, &tid, "NONE", rcc, &put));
	if (strcmp(rv, "ALL_OLD") == 0 && old)
		AppendItem(out, "Attributes", old);
	else if (strcmp(rv, "ALL_NEW") == 0)
		AppendItem(out, "Attributes", new);
	else if (strncmp(rv, "UPDATED_", 8) == 0 && e.update)
	{
		HroeItem   *src = strcmp(rv, "UPDATED_OLD") == 0 ? old : new;

		if (src)
		{
			HroeItem   *p = hroe_project(hroe_update_paths(e.update), src);

			if (ItemCount(p) > 0)
				AppendItem(out, "Attributes", p);
		}
	}
	appendStringInfoString(out, put.data);
}

/* Query and Scan: the operation filters, projects and counts */
static void
ApiRead(JsonbContainer *req, StringInfo out, bool query)
{
	char	   *table;
	ApiExprs	e;
	HroeReadRequest r = {0};
	HroeReadPage page;
	bool		has_limit;
	int32		limit;
	JsonbParseState *st = NULL;

	ParseExprs(req, &e, false, false, true, true, query);
	(void) RequestTable(req, &table);
	r.table = table;
	r.query = query;
	r.index = MemberText(req, "IndexName", "IndexName");
	limit = MemberInt(req, "Limit", &has_limit);
	if (has_limit && limit < 1)
		Invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
						 limit));
	r.limit = has_limit ? limit : 0;
	r.select = MemberText(req, "Select", "Select");
	if (query && e.kce == NULL)
		Invalid("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	r.esk = MemberJsonb(req, "ExclusiveStartKey");
	if (query)
	{
		r.forward = MemberBool(req, "ScanIndexForward", true);
		r.consistent = MemberBool(req, "ConsistentRead", false);
	}
	else
		r.consistent = MemberBool(req, "ConsistentRead", false);
	r.rcc = ReturnCC(req);
	if (!query)
	{
		r.segment = MemberInt(req, "Segment", &r.has_segment);
		r.total_segments = MemberInt(req, "TotalSegments", &r.has_total);
	}
	/* the expressions parsed once, above */
	r.kce = e.kce_root;
	r.filter = e.filter;
	r.projection = e.projection;
	hroe_read_page(&r, &page);

	/* Items, already filtered and projected, unless Select is COUNT */
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	if (!page.count_only)
	{
		hroe_jsonb_push_key(&st, "Items");
		pushJsonbValue(&st, WJB_BEGIN_ARRAY, NULL);
		for (int i = 0; i < page.nitems; i++)
			(void) hroe_item_push_jsonb(&st, DatumGetHroeItemP(page.items[i]));
		pushJsonbValue(&st, WJB_END_ARRAY, NULL);
	}
	PushInt(&st, "Count", page.count);
	PushInt(&st, "ScannedCount", page.scanned);
	if (page.last_key)
	{
		hroe_jsonb_push_key(&st, "LastEvaluatedKey");
		PushJsonb(&st, page.last_key);
	}
	if (page.capacity)
	{
		hroe_jsonb_push_key(&st, "ConsumedCapacity");
		PushJsonb(&st, page.capacity);
	}
	SetResult(&st);
}

/* A container as JSON text */
static char *
ContainerText(JsonbValue *v)
{
	return JsonbToCString(NULL, v->val.binary.data, v->val.binary.len);
}

/*
 * Run hroe.batch_get_item or hroe.batch_write_item on RequestItems and
 * splice the members of the body it returns into the response
 */
static void
CallBatch(ApiStmt stmt, JsonbContainer *req, StringInfo out)
{
	Jsonb	   *items = MemberJsonb(req, "RequestItems");
	Datum		v[2];
	bool		isnull;
	ApiRow	   *row;
	char	   *s;

	if (items == NULL)
		Missing("requestItems");
	if (stmt == STMT_BATCH_GET && !JB_ROOT_IS_OBJECT(items))
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   "Unexpected value type in payload: RequestItems");
	v[0] = JsonbPGetDatum(items);
	v[1] = TextD(ReturnCC(req));
	row = RunStmt(stmt, v, "  ");
	s = JsonbText(DatumGetJsonbP(Col(row, 1, &isnull)));
	if (strlen(s) > 2)
	{
		appendStringInfoChar(out, ',');
		appendBinaryStringInfo(out, s + 1, strlen(s) - 2);
	}
}

/* BatchGetItem: the operation reads, projects and returns DynamoDB's body */
static void
ApiBatchGet(JsonbContainer *req, StringInfo out)
{
	CallBatch(STMT_BATCH_GET, req, out);
}

/* BatchWriteItem: the operation returns DynamoDB's body */
static void
ApiBatchWrite(JsonbContainer *req, StringInfo out)
{
	CallBatch(STMT_BATCH_WRITE, req, out);
}

/* A table description without hroe's members naming PostgreSQL objects */
static Jsonb *
WithoutPostgresNames(Jsonb *j)
{
	JsonbParseState *st = NULL;
	JsonbIterator *it = JsonbIteratorInit(&j->root);
	JsonbIteratorToken tok;
	JsonbValue	v;
	JsonbValue *res = NULL;

	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		if (tok == WJB_KEY &&
			((v.val.string.len == 13 && memcmp(v.val.string.val, "PostgresTable", 13) == 0) ||
			 (v.val.string.len == 13 && memcmp(v.val.string.val, "PostgresIndex", 13) == 0)))
		{
			/* skip the value: hroe writes both as strings */
			tok = JsonbIteratorNext(&it, &v, false);
			Assert(tok == WJB_VALUE);
			continue;
		}
		res = pushJsonbValue(&st, tok, tok < WJB_BEGIN_ARRAY ? &v : NULL);
	}
	return JsonbValueToJsonb(res);
}

/* DescribeTable's Table, without hroe's PostgreSQL names */
static char *
TableDescription(const char *table, const char *status)
{
	Datum		v[1];
	ApiRow	   *row;
	bool		isnull;
	Jsonb	   *res;
	Datum		d;

	v[0] = TextD(table);
	row = RunStmt(STMT_DESCRIBE, v, " ");
	res = DatumGetJsonbP(Col(row, 1, &isnull));
	d = DirectFunctionCall2(jsonb_object_field, JsonbPGetDatum(res), CStringGetTextDatum("Table"));
	if (status)
	{
		Datum		path = CStringGetTextDatum("TableStatus");

		d = DirectFunctionCall4(jsonb_set, d,
								PointerGetDatum(construct_array(&path, 1, TEXTOID, -1, false, TYPALIGN_INT)),
								DirectFunctionCall1(jsonb_in, CStringGetDatum(psprintf("\"%s\"", status))),
								BoolGetDatum(true));
	}
	return JsonbText(WithoutPostgresNames(DatumGetJsonbP(d)));
}

/* Attribute type of name in AttributeDefinitions, or NULL */
static char *
AttributeType(JsonbContainer **defs, int ndefs, const char *name)
{
	for (int i = 0; i < ndefs; i++)
	{
		char	   *n = MemberText(defs[i], "AttributeName", "AttributeName");

		if (n && strcmp(n, name) == 0)
			return MemberText(defs[i], "AttributeType", "AttributeType");
	}
	return NULL;
}

/* KeySchema: HASH names and RANGE names */
static void
KeySchema(JsonbContainer *obj, List **hash, List **range)
{
	JsonbContainer **ks;
	int			n = MemberArray(obj, "KeySchema", &ks);

	*hash = *range = NIL;
	if (n == 0)
		Missing("keySchema");
	for (int i = 0; i < n; i++)
	{
		char	   *name = MemberText(ks[i], "AttributeName", "AttributeName");
		char	   *type = MemberText(ks[i], "KeyType", "KeyType");

		if (name == NULL)
			Missing(psprintf("keySchema.%d.member.attributeName", i + 1));
		if (type == NULL)
			Missing(psprintf("keySchema.%d.member.keyType", i + 1));
		if (strcmp(type, "HASH") == 0)
		{
			if (*range != NIL)
				Invalid("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
			*hash = lappend(*hash, name);
		}
		else if (strcmp(type, "RANGE") == 0)
		{
			if (*hash == NIL)
				Invalid("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
			*range = lappend(*range, name);
		}
		else
			Invalid(psprintf("1 validation error detected: Value '%s' at 'keySchema.%d.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
							 type, i + 1));
	}
}

/* A text[] of names */
static Datum
NameArray(List *names)
{
	Datum	   *d = palloc(sizeof(Datum) * (list_length(names) + 1));
	int			i = 0;
	ListCell   *lc;

	foreach(lc, names)
		d[i++] = CStringGetTextDatum(lfirst(lc));
	return PointerGetDatum(construct_array(d, i, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * Create the GSI a CreateTable or UpdateTable request describes (gsi), with
 * the key types of AttributeDefinitions; projection_member names its
 * Projection in DynamoDB's error when it is missing
 */
static void
CreateGsi(const char *table, JsonbContainer *gsi, JsonbContainer **defs, int ndefs,
		  const char *projection_member)
{
	Datum		v[7];
	char	   *iname = MemberText(gsi, "IndexName", "IndexName");
	List	   *ih,
			   *ir;
	JsonbParseState *st = NULL;
	JsonbValue *res;
	JsonbValue *proj = Member(gsi, "Projection");
	char	   *ptype = NULL;
	List	   *nonkey = NIL;
	ListCell   *lc;
	char		inulls[7] = "       ";

	KeySchema(gsi, &ih, &ir);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	foreach(lc, list_concat_copy(ih, ir))
	{
		JsonbValue	k,
					tv;
		char	   *ty = AttributeType(defs, ndefs, lfirst(lc));

		if (ty == NULL)
			continue;
		k.type = jbvString;
		k.val.string.val = lfirst(lc);
		k.val.string.len = strlen(lfirst(lc));
		tv.type = jbvString;
		tv.val.string.val = ty;
		tv.val.string.len = strlen(ty);
		pushJsonbValue(&st, WJB_KEY, &k);
		pushJsonbValue(&st, WJB_VALUE, &tv);
	}
	res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	if (proj && proj->type == jbvBinary)
	{
		JsonbValue *nkv = Member(proj->val.binary.data, "NonKeyAttributes");

		ptype = MemberText(proj->val.binary.data, "ProjectionType", "ProjectionType");
		if (nkv && nkv->type == jbvBinary)
		{
			JsonbIterator *it = JsonbIteratorInit(nkv->val.binary.data);
			JsonbValue	e;
			JsonbIteratorToken tok;

			while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
				if (tok == WJB_ELEM && e.type == jbvString)
					nonkey = lappend(nonkey, pnstrdup(e.val.string.val, e.val.string.len));
		}
	}
	if (proj == NULL)
		Missing(projection_member);
	v[0] = TextD(table);
	v[1] = iname ? TextD(iname) : (inulls[1] = 'n', (Datum) 0);
	v[2] = NameArray(ih);
	v[3] = NameArray(ir);
	v[4] = JsonbPGetDatum(JsonbValueToJsonb(res));
	v[5] = TextD(ptype ? ptype : "ALL");
	v[6] = nonkey ? NameArray(nonkey) : (inulls[6] = 'n', (Datum) 0);
	(void) RunStmt(STMT_CREATE_INDEX, v, inulls);
}

/* CreateTable */
static void
ApiCreateTable(JsonbContainer *req, StringInfo out)
{
	char	   *table = MemberText(req, "TableName", "TableName");
	JsonbContainer **defs;
	int			ndefs = MemberArray(req, "AttributeDefinitions", &defs);
	JsonbContainer **gsis;
	int			ngsis = MemberArray(req, "GlobalSecondaryIndexes", &gsis);
	List	   *hash,
			   *range;
	Datum		v[7];
	char		nulls[7] = "       ";
	int			nused = 0;

	if (table == NULL)
		Missing("tableName");
	if (Member(req, "AttributeDefinitions") == NULL)
		Missing("attributeDefinitions");
	KeySchema(req, &hash, &range);
	if (list_length(hash) != 1 || list_length(range) > 1)
		Invalid("1 validation error detected: Value at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2");
	if (Member(req, "LocalSecondaryIndexes"))
		hroe_ddb_error(ERRCODE_FEATURE_NOT_SUPPORTED, "ValidationException",
					   "LocalSecondaryIndexes are not supported by hroe");
	v[0] = TextD(table);
	v[1] = TextD(linitial(hash));
	v[2] = TextD(AttributeType(defs, ndefs, linitial(hash)));
	if (DatumGetPointer(v[2]) == NULL)
		Invalid("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions.");
	nused++;
	if (range)
	{
		v[3] = TextD(linitial(range));
		v[4] = TextD(AttributeType(defs, ndefs, linitial(range)));
		if (DatumGetPointer(v[4]) == NULL)
			Invalid("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions.");
		nused++;
	}
	else
	{
		nulls[3] = 'n';
		v[4] = TextD("S");
	}
	(void) RunStmt(STMT_CREATE_TABLE, v, nulls);

	for (int g = 0; g < ngsis; g++)
		CreateGsi(table, gsis[g], defs, ndefs,
				  psprintf("globalSecondaryIndexes.%d.member.projection", g + 1));
	appendStringInfo(out, ",\"TableDescription\":%s", TableDescription(table, NULL));
}

/* DescribeTable */
static void
ApiDescribeTable(JsonbContainer *req, StringInfo out)
{
	char	   *table = MemberText(req, "TableName", "TableName");

	if (table == NULL)
		Missing("tableName");
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	appendStringInfo(out, ",\"Table\":%s", TableDescription(table, NULL));
}

/* DeleteTable */
static void
ApiDeleteTable(JsonbContainer *req, StringInfo out)
{
	char	   *table = MemberText(req, "TableName", "TableName");
	char	   *desc;
	Datum		v[1];

	if (table == NULL)
		Missing("tableName");
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	desc = TableDescription(table, "DELETING");
	v[0] = TextD(table);
	(void) RunStmt(STMT_DELETE_TABLE, v, " ");
	appendStringInfo(out, ",\"TableDescription\":%s", desc);
}

/* Object member name (NULL if absent); SerializationException if not an object */
static JsonbContainer *
MemberObject(JsonbContainer *obj, const char *name)
{
	Jsonb	   *j = MemberJsonb(obj, name);

	if (j == NULL)
		return NULL;
	if (!JB_ROOT_IS_OBJECT(j))
		hroe_ddb_error(ERRCODE_HROE_VALIDATION, "SerializationException",
					   psprintf("Unexpected value type in payload: %s", name));
	return &j->root;
}

/* UpdateTable: creates or deletes one GSI (hroe tables are on-demand) */
static void
ApiUpdateTable(JsonbContainer *req, StringInfo out)
{
	char	   *table = MemberText(req, "TableName", "TableName");
	char	   *billing = MemberText(req, "BillingMode", "BillingMode");
	bool		throughput = Member(req, "ProvisionedThroughput") != NULL;
	JsonbContainer **updates;
	int			nupdates = MemberArray(req, "GlobalSecondaryIndexUpdates", &updates);
	JsonbContainer **defs;
	int			ndefs = MemberArray(req, "AttributeDefinitions", &defs);
	int			nonline = 0;

	if (table == NULL)
		Missing("tableName");
	if (billing && strcmp(billing, "PROVISIONED") != 0 && strcmp(billing, "PAY_PER_REQUEST") != 0)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
						 billing));
	if (!throughput && billing == NULL && nupdates == 0)
		Invalid("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
	for (int i = 0; i < nupdates; i++)
	{
		bool		create = MemberObject(updates[i], "Create") != NULL;
		bool		delete = MemberObject(updates[i], "Delete") != NULL;

		if (!create && !delete && MemberObject(updates[i], "Update") == NULL)
			Invalid("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
		nonline += create + delete;
	}
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	/* an hroe table is on demand: it has no throughput to provision */
	if (throughput || (billing && strcmp(billing, "PROVISIONED") == 0) || nupdates > nonline)
		hroe_ddb_error(ERRCODE_FEATURE_NOT_SUPPORTED, "ValidationException",
					   "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
	if (nonline > 1)
		hroe_ddb_error(MAKE_SQLSTATE('H', 'R', '0', '0', '4'), "LimitExceededException",
					   "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *c = MemberObject(updates[i], "Create");
		JsonbContainer *d = MemberObject(updates[i], "Delete");

		if (c)
			CreateGsi(table, c, defs, ndefs,
					  psprintf("globalSecondaryIndexUpdates.%d.member.create.projection", i + 1));
		else if (d)
		{
			char	   *iname = MemberText(d, "IndexName", "IndexName");
			Datum		v[2];

			if (iname == NULL)
				Missing(psprintf("globalSecondaryIndexUpdates.%d.member.delete.indexName", i + 1));
			v[0] = TextD(table);
			v[1] = TextD(iname);
			(void) RunStmt(STMT_DELETE_INDEX, v, "  ");
		}
	}
	appendStringInfo(out, ",\"TableDescription\":%s", TableDescription(table, NULL));
}

/* ListTables: table names in byte order, paged by ExclusiveStartTableName */
static void
ApiListTables(JsonbContainer *req, StringInfo out)
{
	bool		has_limit;
	int32		limit = MemberInt(req, "Limit", &has_limit);
	char	   *start = MemberText(req, "ExclusiveStartTableName", "ExclusiveStartTableName");
	Datum		v[2];
	ApiRow	   *row;
	bool		isnull;
	Datum		d;
	int			n = 0;

	if (has_limit && limit < 1)
		Invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
						 limit));
	if (has_limit && limit > 100)
		Invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100",
						 limit));
	if (start && strlen(start) < 3)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
						 start));
	if (start && strlen(start) > 255)
		Invalid(psprintf("1 validation error detected: Value '%s' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length less than or equal to 255",
						 start));
	if (!has_limit)
		limit = 100;
	v[0] = start ? TextD(start) : (Datum) 0;
	/* one more than asked: whether there is a next page */
	v[1] = Int32GetDatum(limit + 1);
	row = RunStmt(STMT_LIST_TABLES, v, start ? "  " : "n ");
	d = Col(row, 1, &isnull);
	appendStringInfoString(out, ",\"TableNames\":[");
	if (!isnull)
	{
		Datum	   *names;
		bool	   *nnulls;

		deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
						  &names, &nnulls, &n);
		for (int i = 0; i < Min(n, limit); i++)
		{
			char	   *name = TextDatumGetCString(names[i]);

			if (i > 0)
				appendStringInfoChar(out, ',');
			hroe_json_string_write(out, name, strlen(name));
		}
		appendStringInfoChar(out, ']');
		if (n > limit)
		{
			char	   *last = TextDatumGetCString(names[limit - 1]);

			appendStringInfoString(out, ",\"LastEvaluatedTableName\":");
			hroe_json_string_write(out, last, strlen(last));
		}
	}
	else
		appendStringInfoChar(out, ']');
}

/* ---------- transactions ---------- */

typedef enum ActKind
{
	ACT_PUT,
	ACT_UPDATE,
	ACT_DELETE,
	ACT_CHECK,
	ACT_GET
} ActKind;

typedef struct Action
{
	int			index;
	ActKind		kind;
	char	   *table;
	HroeTableMeta *t;
	ApiExprs	e;
	Jsonb	   *key;
	HroeItem   *item;			/* Put: the item; else the key as an item */
	Datum		keys[2];
	char	   *identity;
	HroeItem   *old;
	ItemPointerData tid;		/* old's row, locked FOR UPDATE (writes) */
	bool		return_old;		/* ReturnValuesOnConditionCheckFailure ALL_OLD */
} Action;

/* Order actions by item identity (the canonical locking order) */
static int
ActionCmp(const void *a, const void *b)
{
	return hroe_key_identity_cmp((*(Action *const *) a)->identity, (*(Action *const *) b)->identity);
}

/* Parse the TransactItems of a request into actions, checking DynamoDB's limits */
static Action *
ParseActions(JsonbContainer *req, bool write, int *nactions)
{
	JsonbContainer **elems;
	int			n = MemberArray(req, "TransactItems", &elems);
	Action	   *acts;
	int64		bytes = 0;
	static const char *const wnames[] = {"Put", "Update", "Delete", "ConditionCheck"};

	if (Member(req, "TransactItems") == NULL)
		Missing("transactItems");
	if (n < 1)
		Invalid("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
	if (n > API_MAX_TRANSACT)
		Invalid("1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100");
	acts = palloc0(sizeof(Action) * n);
	for (int i = 0; i < n; i++)
	{
		Action	   *a = &acts[i];
		JsonbContainer *body = NULL;
		int			found = 0;

		a->index = i;
		if (write)
		{
			for (int k = 0; k < 4; k++)
			{
				JsonbValue *v = Member(elems[i], wnames[k]);

				if (v && v->type == jbvBinary)
				{
					found++;
					a->kind = (ActKind) k;
					body = v->val.binary.data;
				}
			}
		}
		else
		{
			JsonbValue *v = Member(elems[i], "Get");

			if (v && v->type == jbvBinary)
			{
				found = 1;
				a->kind = ACT_GET;
				body = v->val.binary.data;
			}
		}
		if (found != 1)
			Invalid("TransactItems can only contain one of Check, Put, Update or Delete");
		a->t = RequestTable(body, &a->table);
		ParseExprs(body, &a->e, a->kind != ACT_GET, a->kind == ACT_UPDATE, false,
				   a->kind == ACT_GET, false);
		if (a->kind != ACT_GET)
			a->return_old = ReturnOldOnFailure(body);
		if (a->kind == ACT_CHECK && a->e.condition == NULL)
			Missing(psprintf("transactItems.%d.member.conditionCheck.conditionExpression", i + 1));
		if (a->kind == ACT_UPDATE && a->e.update == NULL)
			Missing(psprintf("transactItems.%d.member.update.updateExpression", i + 1));
		if (a->kind == ACT_PUT)
		{
			Jsonb	   *j = MemberJsonb(body, "Item");

			if (j == NULL)
				Missing(psprintf("transactItems.%d.member.put.item", i + 1));
			a->item = HroeItemFromJsonb(j);
			hroe_check_item_key(a->t, a->item, a->keys);
		}
		else
		{
			a->key = MemberJsonb(body, "Key");
			if (a->key == NULL)
				Missing(psprintf("transactItems.%d.member.key", i + 1));
			a->item = RequestKey(a->t, a->key, a->keys);
		}
		if (a->kind == ACT_UPDATE)
			hroe_update_check_keys(a->e.update, a->t->schema.names,
								   a->t->schema.nhash + a->t->schema.nrange);
		a->identity = hroe_item_key_identity(a->t, a->item);
		/*
		 * a TransactWriteItems of more than 4 MB (its items or keys and
		 * expression values): refused as soon as the actions parsed so far
		 * pass it, before the rest is built in memory
		 */
		if (write)
		{
			bytes += hroe_item_size(a->item) + (a->e.cxt ? a->e.cxt->bytes : 0);
			if (bytes > HROE_TRANSACTION_BYTES)
				Invalid("Transaction request cannot be larger than 4 MB");
		}
	}
	*nactions = n;
	return acts;
}

/* Sorted pointers to the actions; E: two actions on one item */
static Action **
LockOrder(Action *acts, int n)
{
	Action	  **order = palloc(sizeof(Action *) * n);

	for (int i = 0; i < n; i++)
		order[i] = &acts[i];
	qsort(order, n, sizeof(Action *), ActionCmp);
	for (int i = 1; i < n; i++)
		if (hroe_key_identity_cmp(order[i - 1]->identity, order[i]->identity) == 0)
			Invalid("Transaction request cannot include multiple operations on one item");
	return order;
}

/*
 * The capacity a transaction consumed on one table: the table's units and
 * each index's, transactional (twice a plain read or write)
 */
typedef struct TxCapacity
{
	const char *table;
	HroeTableMeta *t;
	double		units;
	double		index_units[HROE_MAX_GSIS];
} TxCapacity;

/* The entry of table in caps (one per table, in request order), added if new */
static TxCapacity *
TxTable(TxCapacity *caps, int *ncaps, Action *a)
{
	for (int i = 0; i < *ncaps; i++)
		if (strcmp(caps[i].table, a->table) == 0)
			return &caps[i];
	caps[*ncaps].table = a->table;
	caps[*ncaps].t = a->t;
	return &caps[(*ncaps)++];
}

/*
 * Charge a transactional write of old (NULL: absent) replaced by new (NULL:
 * deleted, or unchanged for a ConditionCheck): the larger item in 1 KB
 * units, at least 1, and the index writes, all doubled
 */
static void
TxWrite(TxCapacity *c, HroeItem *old, HroeItem *new, bool check)
{
	int64		size = Max(old ? hroe_item_size(old) : 0, new ? hroe_item_size(new) : 0);
	double		iu[HROE_MAX_GSIS];

	c->units += 2 * hroe_write_units(size);
	if (check)
		return;
	hroe_write_index_units(c->t, old, new, iu);
	for (int i = 0; i < c->t->nindexes; i++)
		c->index_units[i] += 2 * iu[i];
}

/* Push "name": units */
static void
PushUnits(JsonbParseState **st, const char *name, double units)
{
	JsonbValue	v;

	hroe_jsonb_push_key(st, name);
	v.type = jbvNumeric;
	v.val.numeric = DatumGetNumeric(DirectFunctionCall1(float8_numeric, Float8GetDatum(units)));
	pushJsonbValue(st, WJB_VALUE, &v);
}

/* Push {"CapacityUnits": units, kind: units} */
static void
PushUnitsObject(JsonbParseState **st, const char *kind, double units)
{
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	PushUnits(st, "CapacityUnits", units);
	PushUnits(st, kind, units);
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/*
 * Append a transaction's ConsumedCapacity (rcc TOTAL or INDEXES): one entry
 * per table, CapacityUnits and ReadCapacityUnits or WriteCapacityUnits (kind)
 */
static void
AppendTxCapacity(StringInfo out, const char *rcc, TxCapacity *caps, int ncaps, const char *kind)
{
	JsonbParseState *st = NULL;
	JsonbValue *res;
	bool		indexes = strcmp(rcc, "INDEXES") == 0;

	if (strcmp(rcc, "NONE") == 0)
		return;
	pushJsonbValue(&st, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < ncaps; i++)
	{
		TxCapacity *c = &caps[i];
		double		total = c->units;
		bool		any = false;
		JsonbValue	v;

		for (int x = 0; x < c->t->nindexes; x++)
		{
			total += c->index_units[x];
			any |= c->index_units[x] > 0;
		}
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		hroe_jsonb_push_key(&st, "TableName");
		v.type = jbvString;
		v.val.string.val = (char *) c->table;
		v.val.string.len = strlen(c->table);
		pushJsonbValue(&st, WJB_VALUE, &v);
		PushUnits(&st, "CapacityUnits", total);
		PushUnits(&st, kind, total);
		if (indexes)
		{
			hroe_jsonb_push_key(&st, "Table");
			PushUnitsObject(&st, kind, c->units);
			if (any)
			{
				hroe_jsonb_push_key(&st, "GlobalSecondaryIndexes");
				pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
				for (int x = 0; x < c->t->nindexes; x++)
				{
					if (c->index_units[x] <= 0)
						continue;
					hroe_jsonb_push_key(&st, c->t->indexes[x].name);
					PushUnitsObject(&st, kind, c->index_units[x]);
				}
				pushJsonbValue(&st, WJB_END_OBJECT, NULL);
			}
		}
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	}
	res = pushJsonbValue(&st, WJB_END_ARRAY, NULL);
	AppendJsonb(out, "ConsumedCapacity", JsonbValueToJsonb(res));
}

/*
 * Charge a strong read of each action's item (4 KB units, an absent item
 * one), times factor; returns the number of tables
 */
static int
TxReads(Action *acts, int n, TxCapacity *caps, int factor)
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
			hroe_ddb_error(MAKE_SQLSTATE('H', 'R', '0', '0', '6'), "IdempotentParameterMismatchException",
						   "The request uses the same client token as a previous, but non-identical request");
	}
	return SPI_processed;
}


/*
 * Cancel a transaction of n actions for one of them (which): its code and
 * message in CancellationReasons, None for the others.  TransactionConflict:
 * a write whose item, absent when its condition was checked, was inserted
 * since by a plain write.  ValidationError: the items a TransactGetItems
 * read passed 4 MB at that action.
 */
static void
pg_attribute_noreturn()
TxCancel(int n, int which, const char *code, const char *message)
{
	StringInfoData reasons;
	StringInfoData codes;

	initStringInfo(&reasons);
	initStringInfo(&codes);
	for (int i = 0; i < n; i++)
	{
		appendStringInfoString(&reasons, i ? "," : "[");
		appendStringInfoString(&codes, i ? ", " : "");
		if (i == which)
		{
			appendStringInfo(&reasons, "{\"Code\":\"%s\",\"Message\":\"%s\"}", code, message);
			appendStringInfoString(&codes, code);
		}
		else
		{
			appendStringInfoString(&reasons, "{\"Code\":\"None\"}");
			appendStringInfoString(&codes, "None");
		}
	}
	appendStringInfoChar(&reasons, ']');
	CurrentCall->reasons = MemoryContextStrdup(CurrentCall->outer, reasons.data);
	ereport(ERROR,
			(errcode(ERRCODE_HROE_TRANSACTION_CANCELED),
			 errmsg("Transaction cancelled, please refer cancellation reasons for specific reasons [%s]",
					codes.data),
			 errdetail("DynamoDB TransactionCanceledException. CancellationReasons: %s",
					   reasons.data)));
}

/* TransactWriteItems: all or nothing */
static void
ApiTransactWrite(JsonbContainer *req, StringInfo out)
{
	int			n;
	Action	   *acts = ParseActions(req, true, &n);
	Action	  **order;
	bool		failed = false;
	StringInfoData reasons;
	StringInfoData codes;
	char	   *token = MemberText(req, "ClientRequestToken", "ClientRequestToken");
	int64		hash = 0;
	char	   *rcc = CheckedReturnCC(req);
	TxCapacity *caps = palloc0(sizeof(TxCapacity) * n);
	int			ncaps = 0;

	CheckItemCollectionMetrics(req);
	if (token)
	{
		JsonbValue *items = Member(req, "TransactItems");
		char	   *text = ContainerText(items);
		LOCKTAG		tag;

		if (strlen(token) < 1 || strlen(token) > 36)
			Invalid(psprintf("1 validation error detected: Value '%s' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36",
							 token));
		hash = (int64) hash_bytes_extended((const unsigned char *) text, strlen(text), 0);
		/* one transaction per token of a role at a time */
		SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, GetUserId(),
							 hash_bytes((const unsigned char *) token, strlen(token)), 0x4853);
		(void) LockAcquire(&tag, ExclusiveLock, false, false);
		/*
		 * a replay within 10 minutes succeeds without writing; it reports
		 * the read units of reading the items (DynamoDB's documentation)
		 */
		CallResource(NULL);
		if (TokenStmt(0, token, hash) > 0)
		{
			order = LockOrder(acts, n);
			for (int i = 0; i < n; i++)
			{
				CallResource(order[i]->table);
				order[i]->old = LockItem(order[i]->t, order[i]->keys, order[i]->identity, false);
			}
			ncaps = TxReads(acts, n, caps, 1);
			AppendTxCapacity(out, rcc, caps, ncaps, "ReadCapacityUnits");
			return;
		}
	}
	order = LockOrder(acts, n);
	for (int i = 0; i < n; i++)
	{
		CallResource(order[i]->table);
		order[i]->old = LockItemTid(order[i]->t, order[i]->keys, order[i]->identity, true,
									&order[i]->tid);
	}
	initStringInfo(&reasons);
	initStringInfo(&codes);
	for (int i = 0; i < n; i++)
	{
		Action	   *a = &acts[i];
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
				AppendItem(&reasons, "Item", a->old);
			appendStringInfoChar(&reasons, '}');
			appendStringInfoString(&codes, "ConditionalCheckFailed");
			failed = true;
		}
	}
	appendStringInfoChar(&reasons, ']');
	if (failed)
	{
		CurrentCall->reasons = MemoryContextStrdup(CurrentCall->outer, reasons.data);
		ereport(ERROR,
				(errcode(ERRCODE_HROE_TRANSACTION_CANCELED),
				 errmsg("Transaction cancelled, please refer cancellation reasons for specific reasons [%s]",
						codes.data),
				 errdetail("DynamoDB TransactionCanceledException. CancellationReasons: %s",
						   reasons.data)));
	}
	for (int i = 0; i < n; i++)
	{
		Action	   *a = &acts[i];
		TxCapacity *c = TxTable(caps, &ncaps, a);
		HroeItem   *new;

		CallResource(a->table);
		switch (a->kind)
		{
			case ACT_PUT:
				/* one action per item: the locked row is still at its TID */
				if (!CallWrite(a->table, a->item, NULL, true, a->old, &a->tid, "NONE", "NONE", NULL))
					TxCancel(n, i, "TransactionConflict", "Transaction is ongoing for the item");
				TxWrite(c, a->old, a->item, false);
				break;
			case ACT_UPDATE:
				new = ApplyUpdate(a->t, a->e.update, a->old, a->item);
				if (!CallWrite(a->table, new, NULL, true, a->old, &a->tid, "NONE", "NONE", NULL))
					TxCancel(n, i, "TransactionConflict", "Transaction is ongoing for the item");
				TxWrite(c, a->old, new, false);
				break;
			case ACT_DELETE:
				(void) CallWrite(a->table, NULL, a->key, true, a->old, NULL, "NONE", "NONE", NULL);
				TxWrite(c, a->old, NULL, false);
				break;
			case ACT_CHECK:
				TxWrite(c, a->old, NULL, true);
				break;
			case ACT_GET:
				break;
		}
	}
	if (token)
	{
		CallResource(NULL);
		(void) TokenStmt(1, token, hash);
	}
	AppendTxCapacity(out, rcc, caps, ncaps, "WriteCapacityUnits");
}

/* TransactGetItems: every item read under a share lock, in one snapshot */
static void
ApiTransactGet(JsonbContainer *req, StringInfo out)
{
	int			n;
	Action	   *acts = ParseActions(req, false, &n);
	Action	  **order = LockOrder(acts, n);
	char	   *rcc = CheckedReturnCC(req);
	TxCapacity *caps = palloc0(sizeof(TxCapacity) * n);

	int64		bytes = 0;

	/* at most 4 MB of items: cancelled at the item that passes it */
	for (int i = 0; i < n; i++)
	{
		CallResource(order[i]->table);
		order[i]->old = LockItem(order[i]->t, order[i]->keys, order[i]->identity, false);
		bytes += order[i]->old ? hroe_item_size(order[i]->old) : 0;
		if (bytes > HROE_TRANSACTION_BYTES)
			TxCancel(n, order[i]->index, "ValidationError",
					 "Transaction request cannot be larger than 4 MB");
	}
	appendStringInfoString(out, ",\"Responses\":[");
	for (int i = 0; i < n; i++)
	{
		Action	   *a = &acts[i];

		appendStringInfoString(out, i ? ",{" : "{");
		if (a->old)
		{
			HroeItem   *item = a->e.projection ? hroe_project(a->e.projection, a->old) : a->old;

			appendStringInfoString(out, "\"Item\":");
			hroe_item_write(out, item);
		}
		appendStringInfoChar(out, '}');
	}
	appendStringInfoChar(out, ']');
	AppendTxCapacity(out, rcc, caps, TxReads(acts, n, caps, 2), "ReadCapacityUnits");
}

/* ---------- dispatch and errors ---------- */

/* Run one operation; the response members are appended after "{" */
static void
Dispatch(const char *op, JsonbContainer *req, StringInfo out)
{
	JsonbValue *table = Member(req, "TableName");

	/* the table of a single-table request (the transactions name theirs) */
	if (table && table->type == jbvString)
		CallResourceN(table->val.string.val, table->val.string.len);
	/* (TransactWriteItems checks it after its TransactItems) */
	if (strcmp(op, "PutItem") == 0 || strcmp(op, "UpdateItem") == 0 ||
		strcmp(op, "DeleteItem") == 0 || strcmp(op, "BatchWriteItem") == 0)
		CheckItemCollectionMetrics(req);
	if (strcmp(op, "GetItem") == 0)
		ApiGetItem(req, out);
	else if (strcmp(op, "PutItem") == 0)
		ApiPutItem(req, out);
	else if (strcmp(op, "DeleteItem") == 0)
		ApiDeleteItem(req, out);
	else if (strcmp(op, "UpdateItem") == 0)
		ApiUpdateItem(req, out);
	else if (strcmp(op, "Query") == 0)
		ApiRead(req, out, true);
	else if (strcmp(op, "Scan") == 0)
		ApiRead(req, out, false);
	else if (strcmp(op, "BatchGetItem") == 0)
		ApiBatchGet(req, out);
	else if (strcmp(op, "BatchWriteItem") == 0)
		ApiBatchWrite(req, out);
	else if (strcmp(op, "TransactWriteItems") == 0)
		ApiTransactWrite(req, out);
	else if (strcmp(op, "TransactGetItems") == 0)
		ApiTransactGet(req, out);
	else if (strcmp(op, "CreateTable") == 0)
		ApiCreateTable(req, out);
	else if (strcmp(op, "DescribeTable") == 0)
		ApiDescribeTable(req, out);
	else if (strcmp(op, "DeleteTable") == 0)
		ApiDeleteTable(req, out);
	else if (strcmp(op, "UpdateTable") == 0)
		ApiUpdateTable(req, out);
	else if (strcmp(op, "ListTables") == 0)
		ApiListTables(req, out);
	else
		elog(ERROR, "unreachable");
}

/* DynamoDB's __type of an error, or NULL to re-raise it */
static const char *
ErrorType(ErrorData *edata)
{
	int			code = edata->sqlerrcode;

	if (code == ERRCODE_HROE_VALIDATION)
	{
		/* hroe_ddb_error names the exception in the detail */
		if (edata->detail && strcmp(edata->detail, "DynamoDB SerializationException.") == 0)
			return "com.amazon.coral.service#SerializationException";
		return "com.amazon.coral.validate#ValidationException";
	}
	if (code == ERRCODE_HROE_RESOURCE_NOT_FOUND)
		return "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException";
	if (code == ERRCODE_HROE_CONDITIONAL_CHECK_FAILED)
		return "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException";
	if (code == MAKE_SQLSTATE('H', 'R', '0', '0', '3'))
		return "com.amazonaws.dynamodb.v20120810#ResourceInUseException";
	if (code == MAKE_SQLSTATE('H', 'R', '0', '0', '4'))
		return "com.amazonaws.dynamodb.v20120810#LimitExceededException";
	if (code == ERRCODE_HROE_TRANSACTION_CANCELED)
		return "com.amazonaws.dynamodb.v20120810#TransactionCanceledException";
	if (code == MAKE_SQLSTATE('H', 'R', '0', '0', '6'))
		return "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException";
	if (code == ERRCODE_T_R_SERIALIZATION_FAILURE || code == ERRCODE_T_R_DEADLOCK_DETECTED)
		return "com.amazonaws.dynamodb.v20120810#TransactionConflictException";
	/* a missing privilege, or a row-level security policy's refusal */
	if (code == ERRCODE_INSUFFICIENT_PRIVILEGE)
		return "com.amazonaws.dynamodb.v20120810#AccessDeniedException";
	/* invalid values in the request (the item module's DynamoDB texts) */
	if (ERRCODE_TO_CATEGORY(code) == ERRCODE_DATA_EXCEPTION ||
		code == ERRCODE_PROGRAM_LIMIT_EXCEEDED || code == ERRCODE_FEATURE_NOT_SUPPORTED)
		return "com.amazon.coral.validate#ValidationException";
	return NULL;
}

/*
 * The first table of a batch request the role lacks the privileges of its
 * requests on (SELECT to read; INSERT, UPDATE and DELETE to write), else its
 * first table; NULL without tables.  Run after the failed call's rollback.
 */
static const char *
BatchResource(JsonbContainer *req, bool write)
{
	JsonbValue *items = Member(req, "RequestItems");
	AclMode		mode = write ? (ACL_INSERT | ACL_UPDATE | ACL_DELETE) : ACL_SELECT;
	const char *first = NULL;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;

	if (items == NULL || items->type != jbvBinary || !JsonContainerIsObject(items->val.binary.data))
		return NULL;
	it = JsonbIteratorInit(items->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *name;
		HroeTableMeta *t;

		if (tok != WJB_KEY)
			continue;
		name = pnstrdup(v.val.string.val, v.val.string.len);
		if (first == NULL)
			first = name;
		t = hroe_table_lookup(name, true);
		if (t && pg_class_aclmask(t->relid, GetUserId(), mode, ACLMASK_ALL) != mode)
			return name;
	}
	return first;
}

/*
 * DynamoDB's AccessDeniedException text for a privilege or row-level
 * security failure: it names the caller's own role, the operation and the
 * table as the request named it, never what PostgreSQL's message said (the
 * object refused may be one the role cannot see, such as a function in a
 * policy or a trigger of another role's).
 */
static char *
AccessDenied(const char *op, const char *table)
{
	StringInfoData m;

	initStringInfo(&m);
	appendStringInfo(&m, "User: %s is not authorized to perform: dynamodb:%s",
					 GetUserNameFromId(GetUserId(), false), op);
	if (table && table[0])
		appendStringInfo(&m, " on resource: table/%s", table);
	appendStringInfo(&m, " because no PostgreSQL privilege or row-level security policy allows the dynamodb:%s action",
					 op);
	return m.data;
}

/*
 * hroe.dynamodb(operation, request): the response body DynamoDB returns for
 * the request body of one API call; a failed request returns DynamoDB's
 * error body and leaves nothing written.
 */
Datum
hroe_dynamodb(PG_FUNCTION_ARGS)
{
	char	   *op = text_to_cstring(PG_GETARG_TEXT_PP(0));
	Jsonb	   *req = PG_GETARG_JSONB_P(1);
	MemoryContext outer = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	StringInfoData out;
	ApiCall		call;
	ApiCall    *saved = CurrentCall;
	static const char *const ops[] = {"GetItem", "PutItem", "DeleteItem", "UpdateItem",
		"Query", "Scan", "BatchGetItem", "BatchWriteItem", "TransactWriteItems",
	"TransactGetItems", "CreateTable", "DescribeTable", "DeleteTable", "UpdateTable", "ListTables"};
	bool		known = false;

	for (int i = 0; i < lengthof(ops); i++)
		known |= strcmp(op, ops[i]) == 0;
	if (!known)
		PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in,
											CStringGetDatum("{\"__type\": \"com.amazon.coral.service#UnknownOperationException\"}")));
	if (!JB_ROOT_IS_OBJECT(req) || JB_ROOT_IS_SCALAR(req))
		PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in,
											CStringGetDatum("{\"__type\": \"com.amazon.coral.service#SerializationException\", \"message\": \"Start of structure or map found where not expected\"}")));

	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	call.outer = outer;
	call.reasons = NULL;
	call.item = NULL;
	call.result = NULL;
	call.resource[0] = '\0';
	CurrentCall = &call;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(outer);
	PG_TRY();
	{
		StringInfoData body;
		MemoryContext work;

		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		work = MemoryContextSwitchTo(outer);
		initStringInfo(&body);
		MemoryContextSwitchTo(work);
		Dispatch(op, &req->root, &body);
		/* the members were written with a leading comma */
		MemoryContextSwitchTo(outer);
		appendStringInfoString(&out, body.len > 0 ? body.data + 1 : "");
		SPI_finish();
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(outer);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		const char *type;

		MemoryContextSwitchTo(outer);
		edata = CopyErrorData();
		type = ErrorType(edata);
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(outer);
		CurrentResourceOwner = owner;
		CurrentCall = saved;
		/* an error hroe does not map is raised again, outside the subxact */
		if (type == NULL)
			ReThrowError(edata);
		if (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
		{
			bool		bget = strcmp(op, "BatchGetItem") == 0;
			bool		bwrite = strcmp(op, "BatchWriteItem") == 0;

			edata->message = AccessDenied(op, bget || bwrite ? BatchResource(&req->root, bwrite) :
										  call.resource);
		}
		resetStringInfo(&out);
		appendStringInfoString(&out, "{\"__type\":");
		hroe_json_string_write(&out, type, strlen(type));
		appendStringInfoString(&out, ",\"message\":");
		hroe_json_string_write(&out, edata->message, strlen(edata->message));
		if (call.reasons && edata->sqlerrcode == ERRCODE_HROE_TRANSACTION_CANCELED)
			appendStringInfo(&out, ",\"CancellationReasons\":%s", call.reasons);
		if (call.item && edata->sqlerrcode == ERRCODE_HROE_CONDITIONAL_CHECK_FAILED)
			appendStringInfo(&out, ",\"Item\":%s", call.item);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	CurrentCall = saved;
	if (call.result && out.len == 1)
		PG_RETURN_JSONB_P(call.result);
	appendStringInfoChar(&out, '}');
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(out.data)));
}

/* ---------- SQL-level operations (errors raised, not returned) ---------- */

/*
 * Run one operation in the caller's transaction: errors are raised as SQL
 * errors with DynamoDB's message; returns the response body.
 */
static Jsonb *
CallOperation(const char *op, Jsonb *req)
{
	MemoryContext outer = CurrentMemoryContext;
	ApiCall		call;
	ApiCall    *saved = CurrentCall;
	StringInfoData body;
	char	   *text;

	call.outer = outer;
	call.reasons = NULL;
	call.item = NULL;
	call.result = NULL;
	call.resource[0] = '\0';
	CurrentCall = &call;
	initStringInfo(&body);
	appendStringInfoChar(&body, '{');
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		Dispatch(op, &req->root, &body);
		SPI_finish();
	}
	PG_FINALLY();
	{
		CurrentCall = saved;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(outer);
	if (call.result)
		return call.result;
	/* the members were written with a leading comma */
	text = body.len > 1 ? psprintf("{%s}", body.data + 2) : "{}";
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
}

/* Add "name": argument argno (text, jsonb or hroe.item) to a request, unless NULL */
static void
PushArg(JsonbParseState **st, FunctionCallInfo fcinfo, int argno, const HroeRequestArg *arg)
{
	JsonbValue	v;

	if (PG_ARGISNULL(argno))
		return;
	hroe_jsonb_push_key(st, arg->member);
	if (arg->kind == HROE_ARG_TEXT)
	{
		v.type = jbvString;
		v.val.string.val = text_to_cstring(PG_GETARG_TEXT_PP(argno));
		v.val.string.len = strlen(v.val.string.val);
		pushJsonbValue(st, WJB_VALUE, &v);
		return;
	}
	if (arg->kind == HROE_ARG_ITEM)
	{
		(void) hroe_item_push_jsonb(st, PG_GETARG_HROE_ITEM_P(argno));
		return;
	}
	PushJsonb(st, PG_GETARG_JSONB_P(argno));
}

/* The request made of a SQL-level call's arguments (the first nargs) */
static Jsonb *
RequestFromArgs(FunctionCallInfo fcinfo, const HroeRequestArg *args, int nargs)
{
	JsonbParseState *st = NULL;

	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < nargs; i++)
		PushArg(&st, fcinfo, i, &args[i]);
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}

/* A response member as a Jsonb, or NULL */
static Jsonb *
ResponseMember(Jsonb *res, const char *name)
{
	JsonbValue *v = Member(&res->root, name);

	return v ? JsonbValueToJsonb(v) : NULL;
}

/*
 * A write operation (PutItem, UpdateItem, DeleteItem) called from SQL: the
 * request is made of the arguments (args[i] names argument i), run in the
 * caller's transaction with errors raised; returns the hroe.write_result
 * (Attributes, ConsumedCapacity).  The table and the item or key (arguments
 * 0 and 1) must not be NULL.
 */
Datum
hroe_api_write_call(FunctionCallInfo fcinfo, const char *op, const HroeRequestArg *args,
					int nargs)
{
	Jsonb	   *res;
	Jsonb	   *attrs;
	Jsonb	   *cc;
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2];

	if (PG_ARGISNULL(0))
		Missing("tableName");
	if (PG_ARGISNULL(1))
		Missing(args[1].kind == HROE_ARG_ITEM ? "item" : "key");
	res = CallOperation(op, RequestFromArgs(fcinfo, args, nargs));
	attrs = ResponseMember(res, "Attributes");
	cc = ResponseMember(res, "ConsumedCapacity");
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	nulls[0] = attrs == NULL;
	nulls[1] = cc == NULL;
	values[0] = attrs ? PointerGetDatum(HroeItemFromJsonb(attrs)) : (Datum) 0;
	values[1] = cc ? JsonbPGetDatum(cc) : (Datum) 0;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/*
 * hroe.update_item(table, key, update, condition, names, values,
 * return_values, return_consumed_capacity,
 * return_values_on_condition_check_failure): UpdateItem as a SQL function
 */
Datum
hroe_update_item(PG_FUNCTION_ARGS)
{
	static const HroeRequestArg args[] = {
		{"TableName", HROE_ARG_TEXT}, {"Key", HROE_ARG_JSONB},
		{"UpdateExpression", HROE_ARG_TEXT}, {"ConditionExpression", HROE_ARG_TEXT},
		{"ExpressionAttributeNames", HROE_ARG_JSONB}, {"ExpressionAttributeValues", HROE_ARG_JSONB},
		{"ReturnValues", HROE_ARG_TEXT}, {"ReturnConsumedCapacity", HROE_ARG_TEXT},
		{"ReturnValuesOnConditionCheckFailure", HROE_ARG_TEXT}
	};

	return hroe_api_write_call(fcinfo, "UpdateItem", args, lengthof(args));
}

/*
 * hroe.transact_write_items(transact_items): TransactWriteItems as a SQL
 * function; a cancelled transaction raises HR005 with the reasons in DETAIL.
 */
Datum
hroe_transact_write_items(PG_FUNCTION_ARGS)
{
	static const HroeRequestArg args[] = {{"TransactItems", HROE_ARG_JSONB}};

	PG_RETURN_JSONB_P(CallOperation("TransactWriteItems", RequestFromArgs(fcinfo, args, 1)));
}

/* hroe.transact_get_items(transact_items): the Responses array of TransactGetItems */
Datum
hroe_transact_get_items(PG_FUNCTION_ARGS)
{
	static const HroeRequestArg args[] = {{"TransactItems", HROE_ARG_JSONB}};
	Jsonb	   *res = CallOperation("TransactGetItems", RequestFromArgs(fcinfo, args, 1));

	PG_RETURN_JSONB_P(ResponseMember(res, "Responses"));
}
