/*-------------------------------------------------------------------------
 *
 * api.c
 *	  hroe.dynamodb(operation, request): DynamoDB's JSON API in one function
 *	  (the dispatch, the request's members, the response's pieces, the
 *	  errors as DynamoDB's bodies).
 *
 * The request is the JSON body of a DynamoDB API call; the result is the
 * body DynamoDB returns, errors included ({"__type": ..., "message": ...},
 * the __type chosen from the SQLSTATE: errors.h).  Each call runs in a
 * subtransaction, so a failed request leaves nothing written.  The JSON API
 * only translates: every data-plane operation is the operations layer's C
 * API (operations.h; api_items.c, api_transact.c), the DDL runs hroe's SQL
 * functions (api_ddl.c).  The expression parameters are parsed once per
 * request.
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
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/resowner.h"
#include "utils/typcache.h"

#include "api_internal.h"


/* The response being built, and what an error carries (operations.h) */
typedef struct ApiCall
{
	HroeCallState state;		/* the operations' error payload */
	Jsonb	   *result;			/* the response, when built as jsonb (then
								 * nothing is written as text) */
	bool		refuse_nul;		/* the request holds U+0000 where hroe
								 * cannot keep it: refused once validated */
} ApiCall;

static ApiCall *CurrentCall = NULL;

/* ---------- errors ---------- */

/* A ValidationException with DynamoDB's text */
void
pg_attribute_noreturn()
hroe_api_invalid(const char *msg)
{
	HroeValidation(msg);
}

/* DynamoDB's message for a missing required member */
void
pg_attribute_noreturn()
hroe_api_missing(const char *member)
{
	hroe_missing_member(member);
}

/* ---------- request members ---------- */

/* Member name of an object (NULL if absent or JSON null) */
JsonbValue *
hroe_api_member(JsonbContainer *obj, const char *name)
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
char *
hroe_api_member_text(JsonbContainer *obj, const char *name, const char *member)
{
	JsonbValue *v = hroe_api_member(obj, name);

	if (v == NULL)
		return NULL;
	if (v->type != jbvString)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
	/* a C string cannot hold U+0000 (the text entry's requests): refused, never cut */
	return hroe_request_cstring(v->val.string.val, v->val.string.len, member);
}

/* An object (or array) member as its own Jsonb, or NULL */
Jsonb *
hroe_api_member_jsonb(JsonbContainer *obj, const char *name)
{
	JsonbValue *v = hroe_api_member(obj, name);

	if (v == NULL)
		return NULL;
	if (v->type != jbvBinary)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return JsonbValueToJsonb(v);
}

/* A boolean member, dflt when absent */
bool
hroe_api_member_bool(JsonbContainer *obj, const char *name, bool dflt)
{
	JsonbValue *v = hroe_api_member(obj, name);

	if (v == NULL)
		return dflt;
	if (v->type != jbvBool)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return v->val.boolean;
}

/* An integer member; *present false when absent */
int32
hroe_api_member_int(JsonbContainer *obj, const char *name, bool *present)
{
	JsonbValue *v = hroe_api_member(obj, name);
	Datum		d;

	*present = v != NULL;
	if (v == NULL)
		return 0;
	if (v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	d = DirectFunctionCall1(numeric_int4, NumericGetDatum(v->val.numeric));
	return DatumGetInt32(d);
}

/* Elements of an array member (NULL, 0 if absent) */
int
hroe_api_member_array(JsonbContainer *obj, const char *name, JsonbContainer ***elems)
{
	JsonbValue *v = hroe_api_member(obj, name);
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	e;
	int			n = 0;

	*elems = NULL;
	if (v == NULL)
		return 0;
	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	*elems = palloc(sizeof(JsonbContainer *) * (JsonContainerSize(v->val.binary.data) + 1));
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		if (tok == WJB_ELEM)
		{
			if (e.type != jbvBinary)
				HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
			(*elems)[n++] = e.val.binary.data;
		}
	return n;
}

/* The text of a Jsonb (strings whole: U+0000 as \u0000) */
char *
hroe_api_jsonb_text(Jsonb *j)
{
	return hroe_jsonb_text(&j->root);
}

/*
 * A Jsonb of JSON text hroe wrote (strings whole: \u0000 read as U+0000,
 * where jsonb_in refuses it); whoever returns it to SQL checks it
 */
Jsonb *
hroe_api_text_jsonb(const char *text)
{
	bool		has_nul;

	return JsonbValueToJsonb(hroe_json_tree_parse(text, strlen(text), &has_nul));
}


/* ---------- expressions of one request ---------- */



/*
 * Parse the expression parameters of a request (or of one transaction
 * action) with one set of placeholders (operations.h)
 */
void
hroe_api_parse_exprs(JsonbContainer *req, ApiExprs *e, bool allow_condition, bool allow_update,
		   bool allow_filter, bool allow_projection, bool allow_kce)
{
	HroeExprParams p = {0};

	p.condition = allow_condition ? hroe_api_member_text(req, "ConditionExpression", "ConditionExpression") : NULL;
	p.update = allow_update ? hroe_api_member_text(req, "UpdateExpression", "UpdateExpression") : NULL;
	p.filter = allow_filter ? hroe_api_member_text(req, "FilterExpression", "FilterExpression") : NULL;
	p.projection = allow_projection ? hroe_api_member_text(req, "ProjectionExpression", "ProjectionExpression") : NULL;
	p.key_condition = allow_kce ? hroe_api_member_text(req, "KeyConditionExpression", "KeyConditionExpression") : NULL;
	p.names = hroe_api_member_jsonb(req, "ExpressionAttributeNames");
	p.values = hroe_api_member_jsonb(req, "ExpressionAttributeValues");
	hroe_exprs_parse(&p, (allow_condition ? HROE_EXPR_CONDITION : 0) |
					 (allow_update ? HROE_EXPR_UPDATE : 0) |
					 (allow_filter ? HROE_EXPR_FILTER : 0) |
					 (allow_projection ? HROE_EXPR_PROJECTION : 0) |
					 (allow_kce ? HROE_EXPR_KEY_CONDITION : 0), e);
}

/* The table named in a request, or DynamoDB's errors */
HroeTableMeta *
hroe_api_request_table(JsonbContainer *req, char **name)
{
	*name = hroe_api_member_text(req, "TableName", "TableName");
	return hroe_request_table(*name);
}

/* ---------- response pieces ---------- */

/* ,"Name":<jsonb> */
void
hroe_api_append_jsonb(StringInfo out, const char *name, Jsonb *j)
{
	appendStringInfo(out, ",\"%s\":", name);
	appendStringInfoString(out, hroe_api_jsonb_text(j));
}

/* ,"Name":<item> */
void
hroe_api_append_item(StringInfo out, const char *name, const HroeItem *item)
{
	appendStringInfo(out, ",\"%s\":", name);
	hroe_item_write(out, item);
}

/* Push jsonb j as the next value of a jsonb being built */
void
hroe_api_push_jsonb(JsonbParseState **st, Jsonb *j)
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
void
hroe_api_push_int(JsonbParseState **st, const char *name, int64 n)
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
void
hroe_api_set_result(JsonbParseState **st)
{
	JsonbValue *res = pushJsonbValue(st, WJB_END_OBJECT, NULL);
	MemoryContext old = MemoryContextSwitchTo(CurrentCall->state.outer);

	CurrentCall->result = JsonbValueToJsonb(res);
	MemoryContextSwitchTo(old);
}

/* ReturnConsumedCapacity as given, validated by the operation */
char *
hroe_api_return_cc(JsonbContainer *req)
{
	char	   *rcc = hroe_api_member_text(req, "ReturnConsumedCapacity", "ReturnConsumedCapacity");

	return rcc ? rcc : "NONE";
}

/* ReturnConsumedCapacity of an operation that validates it here */
char *
hroe_api_checked_return_cc(JsonbContainer *req)
{
	char	   *rcc = hroe_api_return_cc(req);

	hroe_check_return_cc(rcc);
	return rcc;
}

/* ReturnItemCollectionMetrics: SIZE or NONE */
void
hroe_api_check_item_collection_metrics(JsonbContainer *req)
{
	hroe_check_item_collection_metrics(hroe_api_member_text(req, "ReturnItemCollectionMetrics",
												  "ReturnItemCollectionMetrics"));
}

/* ---------- dispatch and errors ---------- */

/* Handlers of the operations whose signature is not plain (req, out) */
static void OpPutItem(JsonbContainer *req, StringInfo out) { hroe_api_write(req, out, HROE_WRITE_PUT); }
static void OpDeleteItem(JsonbContainer *req, StringInfo out) { hroe_api_write(req, out, HROE_WRITE_DELETE); }
static void OpUpdateItem(JsonbContainer *req, StringInfo out) { hroe_api_write(req, out, HROE_WRITE_UPDATE); }
static void OpQuery(JsonbContainer *req, StringInfo out) { hroe_api_read(req, out, true); }
static void OpScan(JsonbContainer *req, StringInfo out) { hroe_api_read(req, out, false); }
static void OpBatchGetItem(JsonbContainer *req, StringInfo out) { hroe_api_batch(req, out, false); }
static void OpBatchWriteItem(JsonbContainer *req, StringInfo out) { hroe_api_batch(req, out, true); }

/*
 * The operations hroe serves: the one list of them.  item_metrics: the
 * operation takes ReturnItemCollectionMetrics, checked before it runs.
 */
typedef struct ApiOperation
{
	const char *name;
	void		(*run) (JsonbContainer *req, StringInfo out);
	bool		item_metrics;
} ApiOperation;

static const ApiOperation operations[] = {
	{"GetItem", hroe_api_get_item, false},
	{"PutItem", OpPutItem, true},
	{"DeleteItem", OpDeleteItem, true},
	{"UpdateItem", OpUpdateItem, true},
	{"Query", OpQuery, false},
	{"Scan", OpScan, false},
	{"BatchGetItem", OpBatchGetItem, false},
	{"BatchWriteItem", OpBatchWriteItem, true},
	/* (TransactWriteItems checks ReturnItemCollectionMetrics after its TransactItems) */
	{"TransactWriteItems", hroe_api_transact_write, false},
	{"TransactGetItems", hroe_api_transact_get, false},
	{"CreateTable", hroe_api_create_table, false},
	{"DescribeTable", hroe_api_describe_table, false},
	{"DeleteTable", hroe_api_delete_table, false},
	{"UpdateTable", hroe_api_update_table, false},
	{"ListTables", hroe_api_list_tables, false},
	{"TagResource", hroe_api_tag_resource, false},
	{"UntagResource", hroe_api_untag_resource, false},
	{"ListTagsOfResource", hroe_api_list_tags_of_resource, false},
	{"ExecuteStatement", hroe_api_execute_statement, false},
	{"BatchExecuteStatement", hroe_api_batch_execute_statement, false},
	{"ExecuteTransaction", hroe_api_execute_transaction, false},
	{"UpdateTimeToLive", hroe_api_update_time_to_live, false},
	{"DescribeTimeToLive", hroe_api_describe_time_to_live, false},
	/* DynamoDB Streams' (the gateway's DynamoDBStreams_20120810 target) */
	{"ListStreams", hroe_api_list_streams, false},
	{"DescribeStream", hroe_api_describe_stream, false},
	{"GetShardIterator", hroe_api_get_shard_iterator, false},
	{"GetRecords", hroe_api_get_records, false},
};

/* The operation named op, or NULL (not inlined into the callers' PG_TRY) */
static pg_noinline const ApiOperation *
FindOperation(const char *op)
{
	for (int i = 0; i < lengthof(operations); i++)
		if (strcmp(op, operations[i].name) == 0)
			return &operations[i];
	return NULL;
}

/* Run one operation; the response members are appended after "{" */
static void
Dispatch(const ApiOperation *op, JsonbContainer *req, StringInfo out)
{
	JsonbValue *table = hroe_api_member(req, "TableName");

	/* the table of a single-table request (the transactions name theirs) */
	if (table && table->type == jbvString)
		hroe_call_resource(table->val.string.val, table->val.string.len);
	/* DynamoDB's constraints on the request's members, before anything else */
	hroe_api_validate(op->name, req);
	/* (a U+0000 DynamoDB's validation let pass: hroe cannot keep it) */
	if (CurrentCall->refuse_nul)
		HroeValidation(psprintf("One or more parameter values were invalid: "
								"hroe does not support U+0000 (\\u0000) in the strings of a %s request",
								op->name));
	if (op->item_metrics)
		hroe_api_check_item_collection_metrics(req);
	op->run(req, out);
}

/*
 * Run the operation op on req inside the current call (PartiQL's statements,
 * api_partiql_run.c, are the JSON API's requests): its response body
 */
Jsonb *
hroe_api_run(const char *op, Jsonb *req)
{
	const ApiOperation *operation = FindOperation(op);
	Jsonb	   *saved = CurrentCall->result;
	Jsonb	   *volatile res = NULL;
	StringInfoData body;

	if (operation == NULL)
		elog(ERROR, "unknown operation \"%s\"", op);
	initStringInfo(&body);
	CurrentCall->result = NULL;
	PG_TRY();
	{
		Dispatch(operation, &req->root, &body);
		res = CurrentCall->result;
	}
	PG_FINALLY();
	{
		/* the caller's response, also when the operation failed */
		CurrentCall->result = saved;
	}
	PG_END_TRY();
	if (res)
		return res;
	/* the members were written with a leading comma */
	return hroe_api_text_jsonb(psprintf("{%s}", body.len ? body.data + 1 : ""));
}

/*
 * DynamoDB's AccessDeniedException text for a privilege or row-level
 * security failure: it names the caller's own role, the operation and the
 * table as the request named it, never what PostgreSQL's message said (the
 * object refused may be one the role cannot see, such as a function in a
 * policy or a trigger of another role's).
 */
char *
hroe_api_access_denied(const char *op, const char *table)
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
 * Run one call: the response's text in *text, or, when an operation built
 * it as jsonb, NULL and the jsonb in *jres
 */
static void
Call(const char *op, Jsonb *req, bool refuse_nul, char **text, Jsonb **jres)
{
	MemoryContext outer = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	StringInfoData out;
	ApiCall		call;
	ApiCall    *saved = CurrentCall;
	const ApiOperation *operation = FindOperation(op);

	*jres = NULL;
	if (operation == NULL)
	{
		*text = "{\"__type\": \"com.amazon.coral.service#UnknownOperationException\"}";
		return;
	}
	if (!JB_ROOT_IS_OBJECT(req) || JB_ROOT_IS_SCALAR(req))
	{
		*text = "{\"__type\": \"com.amazon.coral.service#SerializationException\", \"message\": \"Start of structure or map found where not expected\"}";
		return;
	}

	initStringInfo(&out);
	appendStringInfoChar(&out, '{');
	memset(&call, 0, sizeof(call));
	call.refuse_nul = refuse_nul;
	call.state.outer = outer;
	CurrentCall = &call;
	hroe_call_state = &call.state;

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
		Dispatch(operation, &req->root, &body);
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
		type = hroe_error_type(edata->sqlerrcode);
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(outer);
		CurrentResourceOwner = owner;
		CurrentCall = saved;
		hroe_call_state = saved ? &saved->state : NULL;
		/* an error hroe does not map is raised again, outside the subxact */
		if (type == NULL)
			ReThrowError(edata);
		/* the table the operation was accessing (hroe_call_resource) */
		if (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
			edata->message = hroe_api_access_denied(op, call.state.resource);
		resetStringInfo(&out);
		appendStringInfoString(&out, "{\"__type\":");
		hroe_json_string_write(&out, type, strlen(type));
		appendStringInfoString(&out, ",\"message\":");
		hroe_json_string_write(&out, edata->message, strlen(edata->message));
		if (call.state.reasons && edata->sqlerrcode == ERRCODE_HROE_TRANSACTION_CANCELED)
			appendStringInfo(&out, ",\"CancellationReasons\":%s", call.state.reasons);
		if (call.state.item && edata->sqlerrcode == ERRCODE_HROE_CONDITIONAL_CHECK_FAILED)
			appendStringInfo(&out, ",\"Item\":%s", call.state.item);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	CurrentCall = saved;
	hroe_call_state = saved ? &saved->state : NULL;
	if (call.result && out.len == 1)
	{
		*jres = call.result;
		*text = NULL;
		return;
	}
	appendStringInfoChar(&out, '}');
	*text = out.data;
}

PG_FUNCTION_INFO_V1(hroe_dynamodb);
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
	char	   *text;
	Jsonb	   *jres;

	Call(op, req, false, &text, &jres);
	if (jres)
	{
		/* an item read may hold U+0000: an error, never a cut string */
		hroe_jsonb_check_no_nul(&jres->root, "the response of hroe.dynamodb");
		PG_RETURN_JSONB_P(jres);
	}
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
}

/* ---------- the request as text ---------- */

/*
 * The operations whose requests may hold U+0000 in their strings (items,
 * keys, names, ExpressionAttributeValues, PartiQL's Parameters): the item
 * operations and PartiQL's, whose values reach the items by their lengths
 * (a string they keep as a C string, such as a Statement, refuses it).  The
 * others' strings are names, which PostgreSQL keeps as text; a request of
 * theirs with U+0000 is validated, then refused
 * (test/conformance/deviations.md).
 */
static const char *const nul_operations[] = {
	"GetItem", "PutItem", "DeleteItem", "UpdateItem", "Query", "Scan",
	"BatchGetItem", "BatchWriteItem", "TransactWriteItems", "TransactGetItems",
	"ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction",
};

/*
 * One call of the JSON API over the request's text (len bytes), the response
 * as text: hroe.dynamodb_text's and hroe.gateway_call's work.  The text is
 * read by hroe's own JSON reader, not jsonb_in, so that strings keep U+0000
 * (\u0000), as DynamoDB's do; the response writes it as \u0000.
 */
text *
hroe_api_call_text(const char *op, const char *body, int len)
{
	char	   *text;
	Jsonb	   *jres;
	bool		has_nul;
	JsonbValue *tree = hroe_json_tree_parse(body, len, &has_nul);
	bool		refuse_nul = false;

	if (has_nul)
	{
		refuse_nul = true;
		for (int i = 0; i < lengthof(nul_operations); i++)
			refuse_nul &= strcmp(op, nul_operations[i]) != 0;
	}
	Call(op, JsonbValueToJsonb(tree), refuse_nul, &text, &jres);
	return cstring_to_text(jres ? hroe_jsonb_text(&jres->root) : text);
}

PG_FUNCTION_INFO_V1(hroe_dynamodb_text);
/*
 * hroe.dynamodb_text(operation, request text): hroe.dynamodb over the body's
 * text, the response as text; strings may hold \u0000, as DynamoDB's
 */
Datum
hroe_dynamodb_text(PG_FUNCTION_ARGS)
{
	text	   *body = PG_GETARG_TEXT_PP(1);

	PG_RETURN_TEXT_P(hroe_api_call_text(text_to_cstring(PG_GETARG_TEXT_PP(0)),
										VARDATA_ANY(body), VARSIZE_ANY_EXHDR(body)));
}

/* ---------- SQL-level operations (errors raised, not returned) ---------- */

/*
 * Run one operation in the caller's transaction: errors are raised as SQL
 * errors with DynamoDB's message; returns the response body.
 */
Jsonb *
hroe_api_call_operation(const char *op, Jsonb *req)
{
	MemoryContext outer = CurrentMemoryContext;
	ApiCall		call;
	ApiCall    *saved = CurrentCall;
	const ApiOperation *operation = FindOperation(op);
	StringInfoData body;
	char	   *text;

	if (operation == NULL)
		elog(ERROR, "unknown operation \"%s\"", op);
	memset(&call, 0, sizeof(call));
	call.state.outer = outer;
	CurrentCall = &call;
	hroe_call_state = &call.state;
	initStringInfo(&body);
	appendStringInfoChar(&body, '{');
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		Dispatch(operation, &req->root, &body);
		SPI_finish();
	}
	PG_FINALLY();
	{
		CurrentCall = saved;
		hroe_call_state = saved ? &saved->state : NULL;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(outer);
	if (call.result)
	{
		/* an item read may hold U+0000: an error, never a cut string */
		hroe_jsonb_check_no_nul(&call.result->root, psprintf("the response of %s", op));
		return call.result;
	}
	/* the members were written with a leading comma */
	text = body.len > 1 ? psprintf("{%s}", body.data + 2) : "{}";
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
}

/* The request {member: argument 0} of a SQL-level call taking one jsonb */
Jsonb *
hroe_api_request_from_arg(FunctionCallInfo fcinfo, const char *member)
{
	JsonbParseState *st = NULL;

	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	hroe_jsonb_push_key(&st, member);
	hroe_api_push_jsonb(&st, PG_GETARG_JSONB_P(0));
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}

/* A response member as a Jsonb, or NULL */
Jsonb *
hroe_api_response_member(Jsonb *res, const char *name)
{
	JsonbValue *v = hroe_api_member(&res->root, name);

	return v ? JsonbValueToJsonb(v) : NULL;
}
