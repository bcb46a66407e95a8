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
#include "remote_read.h"
#include "throttle.h"
#include "ddb_types.h"


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
	hroe_jsonb_write(out, &j->root);
}

/* ,"Name":<item> */
void
hroe_api_append_item(StringInfo out, const char *name, const HroeItem *item)
{
	appendStringInfo(out, ",\"%s\":", name);
	hroe_item_write(out, item);
}

/*
 * A response written as text in jsonb's layout, byte for byte what
 * hroe_api_set_result's jsonb prints as (hroe_jsonb_text): the caller writes
 * the members in jsonb's order of keys (shorter names first, names of one
 * length bytewise), each preceded by this, "name": after ", " (the first
 * one's leading comma is the one RunOperation drops)
 */
void
hroe_api_text_member(StringInfo out, const char *name)
{
	appendStringInfoString(out, out->len == 0 ? "," : ", ");
	hroe_json_string_write(out, name, strlen(name));
	appendStringInfoString(out, ": ");
}

/* "name": n, as a member written as text (hroe_api_text_member) */
void
hroe_api_text_int(StringInfo out, const char *name, int64 n)
{
	hroe_api_text_member(out, name);
	appendStringInfo(out, INT64_FORMAT, n);
}

/* "name": <jsonb j>, as a member written as text (hroe_api_text_member) */
void
hroe_api_text_member_jsonb(StringInfo out, const char *name, Jsonb *j)
{
	hroe_api_text_member(out, name);
	hroe_jsonb_write(out, &j->root);
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

/*
 * Close the response object being built and make it the call's result (in
 * the caller's context: it outlives SPI and the subtransaction).  Building
 * the jsonb directly spares printing the items and parsing them back.
 */
void
hroe_api_set_result(ApiCall *call, JsonbParseState **st)
{
	JsonbValue *res = pushJsonbValue(st, WJB_END_OBJECT, NULL);
	MemoryContext old = MemoryContextSwitchTo(call->ops.outer);

	call->result = JsonbValueToJsonb(res);
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

/* Handlers of the operations whose signature is not plain */
static void OpPutItem(const ApiRequest *r, StringInfo out) { hroe_api_write(r, out, HROE_WRITE_PUT); }
static void OpDeleteItem(const ApiRequest *r, StringInfo out) { hroe_api_write(r, out, HROE_WRITE_DELETE); }
static void OpUpdateItem(const ApiRequest *r, StringInfo out) { hroe_api_write(r, out, HROE_WRITE_UPDATE); }
static void OpQuery(const ApiRequest *r, StringInfo out) { hroe_api_read(r, out, true); }
static void OpScan(const ApiRequest *r, StringInfo out) { hroe_api_read(r, out, false); }
static void OpBatchGetItem(const ApiRequest *r, StringInfo out) { hroe_api_batch(r, out, false); }
static void OpBatchWriteItem(const ApiRequest *r, StringInfo out) { hroe_api_batch(r, out, true); }

/*
 * The operations hroe serves: the one list of them.  Each translator takes
 * its request (run_request: the call's error payload, the caller's flags)
 * or only the request's body (run: nothing of the call).  item_metrics:
 * the operation takes ReturnItemCollectionMetrics, checked before it runs.
 */
typedef struct ApiOperation
{
	const char *name;
	void		(*run) (JsonbContainer *req, StringInfo out);
	void		(*run_request) (const ApiRequest *r, StringInfo out);
	bool		item_metrics;
} ApiOperation;

static const ApiOperation operations[] = {
	{"GetItem", NULL, hroe_api_get_item, false},
	{"PutItem", NULL, OpPutItem, true},
	{"DeleteItem", NULL, OpDeleteItem, true},
	{"UpdateItem", NULL, OpUpdateItem, true},
	{"Query", NULL, OpQuery, false},
	{"Scan", NULL, OpScan, false},
	{"BatchGetItem", NULL, OpBatchGetItem, false},
	{"BatchWriteItem", NULL, OpBatchWriteItem, true},
	/* (TransactWriteItems checks ReturnItemCollectionMetrics after its TransactItems) */
	{"TransactWriteItems", NULL, hroe_api_transact_write, false},
	{"TransactGetItems", NULL, hroe_api_transact_get, false},
	{"CreateTable", hroe_api_create_table, NULL, false},
	{"DescribeTable", hroe_api_describe_table, NULL, false},
	{"DeleteTable", hroe_api_delete_table, NULL, false},
	{"UpdateTable", hroe_api_update_table, NULL, false},
	{"ListTables", hroe_api_list_tables, NULL, false},
	{"TagResource", NULL, hroe_api_tag_resource, false},
	{"UntagResource", NULL, hroe_api_untag_resource, false},
	{"ListTagsOfResource", NULL, hroe_api_list_tags_of_resource, false},
	{"PutResourcePolicy", NULL, hroe_api_put_resource_policy, false},
	{"GetResourcePolicy", NULL, hroe_api_get_resource_policy, false},
	{"DeleteResourcePolicy", NULL, hroe_api_delete_resource_policy, false},
	{"ExecuteStatement", NULL, hroe_api_execute_statement, false},
	{"BatchExecuteStatement", NULL, hroe_api_batch_execute_statement, false},
	{"ExecuteTransaction", NULL, hroe_api_execute_transaction, false},
	{"UpdateTimeToLive", hroe_api_update_time_to_live, NULL, false},
	{"DescribeTimeToLive", hroe_api_describe_time_to_live, NULL, false},
	/* table options and account reads (api_settings.c) */
	{"DescribeLimits", hroe_api_describe_limits, NULL, false},
	{"DescribeEndpoints", hroe_api_describe_endpoints, NULL, false},
	{"UpdateContributorInsights", hroe_api_update_contributor_insights, NULL, false},
	{"DescribeContributorInsights", hroe_api_describe_contributor_insights, NULL, false},
	{"ListContributorInsights", hroe_api_list_contributor_insights, NULL, false},
	/* on-demand backups (api_backup.c) */
	{"CreateBackup", hroe_api_create_backup, NULL, false},
	{"DescribeBackup", hroe_api_describe_backup, NULL, false},
	{"ListBackups", hroe_api_list_backups, NULL, false},
	{"DeleteBackup", hroe_api_delete_backup, NULL, false},
	{"RestoreTableFromBackup", hroe_api_restore_table_from_backup, NULL, false},
	/* vector search (api_vectors.c) */
	{"SearchVectors", NULL, hroe_api_search_vectors, false},
	/* point-in-time recovery (api_pitr.c) */
	{"UpdateContinuousBackups", hroe_api_update_continuous_backups, NULL, false},
	{"DescribeContinuousBackups", hroe_api_describe_continuous_backups, NULL, false},
	{"RestoreTableToPointInTime", hroe_api_restore_table_to_point_in_time, NULL, false},
	/* DynamoDB Streams' (the gateway's DynamoDBStreams_20120810 target) */
	{"ListStreams", NULL, hroe_api_list_streams, false},
	{"DescribeStream", NULL, hroe_api_describe_stream, false},
	{"GetShardIterator", NULL, hroe_api_get_shard_iterator, false},
	{"GetRecords", NULL, hroe_api_get_records, false},
	/* exports and imports (src/transfer/transfer_api.c) */
	{"ExportTableToPointInTime", hroe_api_export_table, NULL, false},
	{"DescribeExport", hroe_api_describe_export, NULL, false},
	{"ListExports", hroe_api_list_exports, NULL, false},
	{"ImportTable", hroe_api_import_table, NULL, false},
	{"DescribeImport", hroe_api_describe_import, NULL, false},
	{"ListImports", hroe_api_list_imports, NULL, false},
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

/* Run one operation; the response members are appended to out, each after a comma */
static void
Dispatch(const ApiOperation *op, const ApiRequest *r, StringInfo out)
{
	JsonbValue *table = hroe_api_member(r->body, "TableName");
	const char *action = hroe_iam_action(op->name, r->call->ops.partiql);

	/* the table of a single-table request (the transactions name theirs) */
	r->call->ops.action = NULL;
	if (table && table->type == jbvString)
		hroe_call_resource(&r->call->ops, table->val.string.val, table->val.string.len);
	/* DynamoDB's constraints on the request's members, before anything else */
	hroe_api_validate(op->name, r->body);
	/* (a U+0000 DynamoDB's validation let pass: hroe cannot keep it) */
	if (r->call->refuse_nul)
		HroeValidation(psprintf("One or more parameter values were invalid: "
								"hroe does not support U+0000 (\\u0000) in the strings of a %s request",
								op->name));
	/*
	 * The operation's IAM action on the table it names (or its index), as
	 * the table's resource-based policy allows; then on each table it names
	 * elsewhere (a batch's, a tag request's ARN: hroe_call_resource)
	 */
	if (table && table->type == jbvString)
		hroe_call_authorize(&r->call->ops, action, r->call->ops.resource,
							hroe_api_member_text(r->body, "IndexName", "IndexName"), NULL);
	r->call->ops.action = action;
	if (op->item_metrics)
		hroe_api_check_item_collection_metrics(r->body);
	if (op->run_request)
		op->run_request(r, out);
	else
		op->run(r->body, out);
}

/* An operation's response: the jsonb it built, or else its text */
typedef struct ApiResponse
{
	Jsonb	   *jsonb;			/* built as jsonb (hroe_api_set_result) */
	char	   *text;			/* else the object's JSON text */
} ApiResponse;

/*
 * The one wrapper of every operation the JSON API runs: operation op on the
 * request body req, within call (its error payload, its innermost response
 * while the operation runs), connected to SPI by the caller; partiql: the
 * request is a PartiQL statement's (ApiRequest.partiql).  The response is built here, the
 * one place that closes the members an operation wrote as text; it is in
 * the current memory context (text) or in the call's outer context (jsonb).
 */
static ApiResponse
RunOperation(ApiCall *call, const ApiOperation *op, JsonbContainer *req, bool partiql)
{
	ApiRequest	r = {call, req, partiql};
	Jsonb	   *saved_result = call->result;
	StringInfoData body;
	ApiResponse res = {NULL, NULL};

	initStringInfo(&body);
	call->result = NULL;
	PG_TRY();
	{
		Dispatch(op, &r, &body);
		res.jsonb = call->result;
	}
	PG_FINALLY();
	{
		/* the caller's response, also when the operation failed */
		call->result = saved_result;
	}
	PG_END_TRY();
	/* the members were written with a leading comma: the object's brace */
	if (res.jsonb == NULL)
	{
		if (body.len == 0)
			appendStringInfoChar(&body, '{');
		else
			body.data[0] = '{';
		appendStringInfoChar(&body, '}');
		res.text = body.data;
	}
	return res;
}

/*
 * Run the operation op on req inside the current call (PartiQL's statements,
 * partiql_api.c, are the JSON API's requests): its response body
 */
Jsonb *
hroe_api_run(ApiCall *call, const char *op, Jsonb *req, bool partiql)
{
	const ApiOperation *operation = FindOperation(op);
	ApiResponse res;

	if (operation == NULL)
		elog(ERROR, "unknown operation \"%s\"", op);
	/* (PartiQL's statements: IAM's PartiQL actions) */
	call->ops.partiql = true;
	res = RunOperation(call, operation, &req->root, partiql);
	return res.jsonb ? res.jsonb : hroe_api_text_jsonb(res.text);
}

/*
 * A response returned to SQL as jsonb: an item read may hold U+0000, which
 * jsonb cannot, so an error (naming what), never a cut string
 */
static Jsonb *
ResponseJsonb(ApiResponse res, const char *what)
{
	Jsonb	   *j = res.jsonb;
	bool		has_nul = true; /* a jsonb answer: walked */

	/* a text answer's parse tells whether it holds U+0000 */
	if (j == NULL)
		j = JsonbValueToJsonb(hroe_json_tree_parse(res.text, strlen(res.text), &has_nul));
	/* (the walk names where, for the error) */
	if (has_nul)
		hroe_jsonb_check_no_nul(&j->root, what);
	return j;
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
 * DynamoDB's error body for an error of hroe's: its __type (type), its
 * message, and what the call's operations left for it (operations.h)
 */
static char *
ErrorBody(const ApiCall *call, const char *op, ErrorData *edata, const char *type)
{
	StringInfoData out;

	/* the table the operation was accessing (hroe_call_resource) */
	if (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
		edata->message = hroe_api_access_denied(op, call->ops.resource);
	initStringInfo(&out);
	appendStringInfoString(&out, "{\"__type\":");
	hroe_json_string_write(&out, type, strlen(type));
	appendStringInfoString(&out, ",\"message\":");
	hroe_json_string_write(&out, edata->message, strlen(edata->message));
	if (call->ops.reasons && edata->sqlerrcode == ERRCODE_HROE_TRANSACTION_CANCELED)
		appendStringInfo(&out, ",\"CancellationReasons\":%s", call->ops.reasons);
	if (call->ops.item && edata->sqlerrcode == ERRCODE_HROE_CONDITIONAL_CHECK_FAILED)
		appendStringInfo(&out, ",\"Item\":%s", call->ops.item);
	/* DynamoDB's throttling (src/tables/throttle.c): the limits met */
	if ((edata->sqlerrcode == ERRCODE_HROE_PROVISIONED_THROUGHPUT_EXCEEDED ||
		 edata->sqlerrcode == ERRCODE_HROE_THROTTLING) && hroe_throttle_reasons())
		appendStringInfo(&out, ",\"ThrottlingReasons\":%s", hroe_throttle_reasons());
	appendStringInfoChar(&out, '}');
	return out.data;
}

/*
 * Run one call in a subtransaction of its own: the response, or DynamoDB's
 * error body as its text (a failed call leaves nothing written)
 */
static ApiResponse
Call(const char *op, Jsonb *req, bool refuse_nul)
{
	MemoryContext outer = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	ApiCall		call;
	const ApiOperation *operation = FindOperation(op);
	ApiResponse res = {NULL, NULL};

	if (operation == NULL)
	{
		res.text = "{\"__type\": \"" DDB_TYPE_UNKNOWN_OPERATION "\"}";
		return res;
	}
	if (!JB_ROOT_IS_OBJECT(req) || JB_ROOT_IS_SCALAR(req))
	{
		res.text = "{\"__type\": \"" DDB_TYPE_SERIALIZATION "\", \"message\": \"Start of structure or map found where not expected\"}";
		return res;
	}

	memset(&call, 0, sizeof(call));
	call.refuse_nul = refuse_nul;
	call.ops.outer = outer;

	hroe_remote_read_call_begins();
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(outer);
	PG_TRY();
	{
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");
		res = RunOperation(&call, operation, &req->root, false);
		if (res.text)
			res.text = MemoryContextStrdup(outer, res.text);
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
		/* an error hroe does not map is raised again, outside the subxact */
		if (type == NULL)
			ReThrowError(edata);
		res.jsonb = NULL;
		res.text = ErrorBody(&call, op, edata, type);
		FreeErrorData(edata);
	}
	PG_END_TRY();
	return res;
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

	PG_RETURN_JSONB_P(ResponseJsonb(Call(op, req, false), "the response of hroe.dynamodb"));
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
	ApiResponse res;
	bool		has_nul;
	JsonbValue *tree = hroe_json_tree_parse(body, len, &has_nul);
	bool		refuse_nul = false;

	if (has_nul)
	{
		refuse_nul = true;
		for (int i = 0; i < lengthof(nul_operations); i++)
			refuse_nul &= strcmp(op, nul_operations[i]) != 0;
	}
	res = Call(op, JsonbValueToJsonb(tree), refuse_nul);
	return cstring_to_text(res.jsonb ? hroe_jsonb_text(&res.jsonb->root) : res.text);
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
	const ApiOperation *operation = FindOperation(op);
	ApiResponse res;

	if (operation == NULL)
		elog(ERROR, "unknown operation \"%s\"", op);
	memset(&call, 0, sizeof(call));
	call.ops.outer = outer;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	res = RunOperation(&call, operation, &req->root, false);
	if (res.text)
		res.text = MemoryContextStrdup(outer, res.text);
	SPI_finish();
	MemoryContextSwitchTo(outer);
	return ResponseJsonb(res, psprintf("the response of %s", op));
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
