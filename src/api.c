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

#include "operations.h"


#define API_MAX_TRANSACT 100
#define API_MAX_ARGS 13

PG_FUNCTION_INFO_V1(hroe_dynamodb);
PG_FUNCTION_INFO_V1(hroe_transact_write_items);
PG_FUNCTION_INFO_V1(hroe_transact_get_items);

/* ---------- the SPI statements ---------- */

typedef enum ApiStmt
{
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
	int			nargs;
	const char *types[API_MAX_ARGS];	/* of the SPI statements */
} ApiStmtDef;

static const ApiStmtDef StmtDefs[STMT_COUNT] = {
	{"SELECT hroe.create_table($1, $2, $3, $4, $5)", 5,
	{"text", "text", "text", "text", "text"}},
	{"SELECT hroe.create_index($1, $2, $3, $4, $5, $6, $7)", 7,
	{"text", "text", "text[]", "text[]", "jsonb", "text", "text[]"}},
	{"SELECT hroe.describe_table($1)", 1, {"text"}},
	{"SELECT hroe.delete_table($1)", 1, {"text"}},
	{"SELECT hroe.delete_index($1, $2)", 2, {"text", "text"}},
	/* table names in byte order (as DynamoDB's), after $1, at most $2 */
	{"SELECT pg_catalog.array_agg(n ORDER BY n COLLATE pg_catalog.\"C\") FROM ("
		"SELECT table_name AS n FROM hroe.tables"
		" WHERE $1 IS NULL OR table_name COLLATE pg_catalog.\"C\" OPERATOR(pg_catalog.>) $1"
		" ORDER BY table_name COLLATE pg_catalog.\"C\" LIMIT $2) s", 2, {"text", "int4"}},
};

static SPIPlanPtr StmtPlans[STMT_COUNT];

/* The response being built, and what an error carries (operations.h) */
typedef struct ApiCall
{
	HroeCallState state;		/* the operations' error payload */
	Jsonb	   *result;			/* the response, when built as jsonb (then
								 * nothing is written as text) */
} ApiCall;

static ApiCall *CurrentCall = NULL;

/* The result of a statement: its columns (a composite result's fields) */
typedef struct ApiRow
{
	int			ncols;
	Datum		values[8];
	bool		nulls[8];
} ApiRow;

/*
 * Run statement s (a DDL function, through SPI) with the given arguments
 * (nulls: 'n' for NULL, as SPI); returns its (first) row.
 */
static ApiRow *
RunStmt(ApiStmt s, Datum *values, const char *nulls)
{
	ApiRow	   *row = palloc0(sizeof(ApiRow));

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
	HroeValidation(msg);
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
		HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
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
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
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
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
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
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
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

/* The text of a Jsonb */
static char *
JsonbText(Jsonb *j)
{
	return JsonbToCString(NULL, &j->root, VARSIZE(j));
}

/* Datum helpers */
#define TextD(s) ((s) ? CStringGetTextDatum(s) : (Datum) 0)

/* ---------- expressions of one request ---------- */

typedef HroeRequestExprs ApiExprs;

/*
 * Parse the expression parameters of a request (or of one transaction
 * action) with one set of placeholders (operations.h)
 */
static void
ParseExprs(JsonbContainer *req, ApiExprs *e, bool allow_condition, bool allow_update,
		   bool allow_filter, bool allow_projection, bool allow_kce)
{
	HroeExprParams p = {0};

	p.condition = allow_condition ? MemberText(req, "ConditionExpression", "ConditionExpression") : NULL;
	p.update = allow_update ? MemberText(req, "UpdateExpression", "UpdateExpression") : NULL;
	p.filter = allow_filter ? MemberText(req, "FilterExpression", "FilterExpression") : NULL;
	p.projection = allow_projection ? MemberText(req, "ProjectionExpression", "ProjectionExpression") : NULL;
	p.key_condition = allow_kce ? MemberText(req, "KeyConditionExpression", "KeyConditionExpression") : NULL;
	p.names = MemberJsonb(req, "ExpressionAttributeNames");
	p.values = MemberJsonb(req, "ExpressionAttributeValues");
	hroe_exprs_parse(&p, (allow_condition ? HROE_EXPR_CONDITION : 0) |
					 (allow_update ? HROE_EXPR_UPDATE : 0) |
					 (allow_filter ? HROE_EXPR_FILTER : 0) |
					 (allow_projection ? HROE_EXPR_PROJECTION : 0) |
					 (allow_kce ? HROE_EXPR_KEY_CONDITION : 0), e);
}

/* The table named in a request, or DynamoDB's errors */
static HroeTableMeta *
RequestTable(JsonbContainer *req, char **name)
{
	*name = MemberText(req, "TableName", "TableName");
	return hroe_request_table(*name);
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
	MemoryContext old = MemoryContextSwitchTo(CurrentCall->state.outer);

	CurrentCall->result = JsonbValueToJsonb(res);
	MemoryContextSwitchTo(old);
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

	hroe_check_return_cc(rcc);
	return rcc;
}

/* ReturnItemCollectionMetrics: SIZE or NONE */
static void
CheckItemCollectionMetrics(JsonbContainer *req)
{
	hroe_check_item_collection_metrics(MemberText(req, "ReturnItemCollectionMetrics",
												  "ReturnItemCollectionMetrics"));
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

/* Append a write's Attributes and ConsumedCapacity */
static void
AppendWriteResult(StringInfo out, HroeWriteResult *res)
{
	if (res->attributes)
		AppendItem(out, "Attributes", res->attributes);
	if (res->capacity)
		AppendJsonb(out, "ConsumedCapacity", res->capacity);
}

/*
 * PutItem, UpdateItem or DeleteItem: the request's members, in DynamoDB's
 * order of checks, then the operation
 */
static void
ApiWrite(JsonbContainer *req, StringInfo out, HroeWriteKind kind)
{
	HroeWriteRequest r = {0};
	HroeWriteResult res;
	ApiExprs	e;
	char	   *table;
	const char *rv;

	ParseExprs(req, &e, true, kind == HROE_WRITE_UPDATE, false, false, false);
	rv = MemberText(req, "ReturnValues", "ReturnValues");
	r.kind = kind;
	r.return_values = kind == HROE_WRITE_UPDATE ? hroe_check_update_return_values(rv) :
		hroe_check_write_return_values(rv);
	r.return_old_on_failure =
		hroe_check_return_old_on_failure(MemberText(req, "ReturnValuesOnConditionCheckFailure",
													"ReturnValuesOnConditionCheckFailure"));
	r.t = RequestTable(req, &table);
	r.table = table;
	if (kind == HROE_WRITE_PUT)
	{
		Jsonb	   *j = MemberJsonb(req, "Item");

		if (j == NULL)
			Missing("item");
		r.item = HroeItemFromJsonb(j);
	}
	else
	{
		r.key = MemberJsonb(req, "Key");
		if (r.key == NULL)
			Missing("key");
	}
	r.condition = e.condition;
	r.update = e.update;
	r.rcc = ReturnCC(req);
	hroe_write_item(&r, &res);
	AppendWriteResult(out, &res);
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
	if (query && e.key_condition == NULL)
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
	r.kce = e.key_condition;
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
 * BatchGetItem or BatchWriteItem of RequestItems: splice the members of the
 * body the operation returns into the response
 */
static void
ApiBatch(JsonbContainer *req, StringInfo out, bool write)
{
	Jsonb	   *items = MemberJsonb(req, "RequestItems");
	char	   *s;

	if (items == NULL)
		Missing("requestItems");
	if (!write && !JB_ROOT_IS_OBJECT(items))
		HroeSerialization("Unexpected value type in payload: RequestItems");
	s = JsonbText(write ? hroe_batch_write(items, ReturnCC(req)) :
				  hroe_batch_get(items, ReturnCC(req)));
	if (strlen(s) > 2)
	{
		appendStringInfoChar(out, ',');
		appendBinaryStringInfo(out, s + 1, strlen(s) - 2);
	}
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
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
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
		hroe_ddb_error(ERRCODE_HROE_LIMIT_EXCEEDED, "LimitExceededException",
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

/* Parse the TransactItems of a request into actions, checking DynamoDB's limits */
static HroeTxAction *
ParseActions(JsonbContainer *req, bool write, int *nactions)
{
	JsonbContainer **elems;
	int			n = MemberArray(req, "TransactItems", &elems);
	HroeTxAction *acts;
	int64		bytes = 0;
	static const char *const wnames[] = {"Put", "Update", "Delete", "ConditionCheck"};

	if (Member(req, "TransactItems") == NULL)
		Missing("transactItems");
	if (n < 1)
		Invalid("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: Member must have length greater than or equal to 1");
	if (n > HROE_TRANSACT_MAX)
		Invalid("1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100");
	acts = palloc0(sizeof(HroeTxAction) * n);
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = &acts[i];
		JsonbContainer *body = NULL;
		int			found = 0;
		int64		size;

		a->index = i;
		if (write)
		{
			for (int k = 0; k < 4; k++)
			{
				JsonbValue *v = Member(elems[i], wnames[k]);

				if (v && v->type == jbvBinary)
				{
					found++;
					a->kind = (HroeTxKind) k;
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
				a->kind = HROE_TX_GET;
				body = v->val.binary.data;
			}
		}
		if (found != 1)
			Invalid("TransactItems can only contain one of Check, Put, Update or Delete");
		a->t = RequestTable(body, &a->table);
		ParseExprs(body, &a->e, a->kind != HROE_TX_GET, a->kind == HROE_TX_UPDATE, false,
				   a->kind == HROE_TX_GET, false);
		if (a->kind != HROE_TX_GET)
			a->return_old =
				hroe_check_return_old_on_failure(MemberText(body, "ReturnValuesOnConditionCheckFailure",
															"ReturnValuesOnConditionCheckFailure"));
		if (a->kind == HROE_TX_CHECK && a->e.condition == NULL)
			Missing(psprintf("transactItems.%d.member.conditionCheck.conditionExpression", i + 1));
		if (a->kind == HROE_TX_UPDATE && a->e.update == NULL)
			Missing(psprintf("transactItems.%d.member.update.updateExpression", i + 1));
		if (a->kind == HROE_TX_PUT)
		{
			Jsonb	   *j = MemberJsonb(body, "Item");

			if (j == NULL)
				Missing(psprintf("transactItems.%d.member.put.item", i + 1));
			a->item = HroeItemFromJsonb(j);
		}
		else
		{
			a->key = MemberJsonb(body, "Key");
			if (a->key == NULL)
				Missing(psprintf("transactItems.%d.member.key", i + 1));
		}
		size = hroe_tx_action_prepare(a);

		/*
		 * a TransactWriteItems of more than 4 MB (its items or keys and
		 * expression values): refused as soon as the actions parsed so far
		 * pass it, before the rest is built in memory
		 */
		if (write)
		{
			bytes += size;
			if (bytes > HROE_TRANSACTION_BYTES)
				Invalid("Transaction request cannot be larger than 4 MB");
		}
	}
	*nactions = n;
	return acts;
}

/* TransactWriteItems: all or nothing */
static void
ApiTransactWrite(JsonbContainer *req, StringInfo out)
{
	int			n;
	HroeTxAction *acts = ParseActions(req, true, &n);
	char	   *token = MemberText(req, "ClientRequestToken", "ClientRequestToken");
	char	   *rcc = CheckedReturnCC(req);
	Jsonb	   *cc;

	CheckItemCollectionMetrics(req);
	cc = hroe_transact_write(acts, n, token,
							 token ? ContainerText(Member(req, "TransactItems")) : NULL, rcc);
	if (cc)
		AppendJsonb(out, "ConsumedCapacity", cc);
}

/* TransactGetItems: every item read under a share lock, in one snapshot */
static void
ApiTransactGet(JsonbContainer *req, StringInfo out)
{
	int			n;
	HroeTxAction *acts = ParseActions(req, false, &n);
	char	   *rcc;
	Jsonb	   *cc;

	/* (checked after the actions' duplicates, by the operation) */
	rcc = ReturnCC(req);
	cc = hroe_transact_get(acts, n, rcc);
	appendStringInfoString(out, ",\"Responses\":[");
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = &acts[i];

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
	if (cc)
		AppendJsonb(out, "ConsumedCapacity", cc);
}

/* ---------- dispatch and errors ---------- */

/* Run one operation; the response members are appended after "{" */
static void
Dispatch(const char *op, JsonbContainer *req, StringInfo out)
{
	JsonbValue *table = Member(req, "TableName");

	/* the table of a single-table request (the transactions name theirs) */
	if (table && table->type == jbvString)
		hroe_call_resource(table->val.string.val, table->val.string.len);
	/* (TransactWriteItems checks it after its TransactItems) */
	if (strcmp(op, "PutItem") == 0 || strcmp(op, "UpdateItem") == 0 ||
		strcmp(op, "DeleteItem") == 0 || strcmp(op, "BatchWriteItem") == 0)
		CheckItemCollectionMetrics(req);
	if (strcmp(op, "GetItem") == 0)
		ApiGetItem(req, out);
	else if (strcmp(op, "PutItem") == 0)
		ApiWrite(req, out, HROE_WRITE_PUT);
	else if (strcmp(op, "DeleteItem") == 0)
		ApiWrite(req, out, HROE_WRITE_DELETE);
	else if (strcmp(op, "UpdateItem") == 0)
		ApiWrite(req, out, HROE_WRITE_UPDATE);
	else if (strcmp(op, "Query") == 0)
		ApiRead(req, out, true);
	else if (strcmp(op, "Scan") == 0)
		ApiRead(req, out, false);
	else if (strcmp(op, "BatchGetItem") == 0)
		ApiBatch(req, out, false);
	else if (strcmp(op, "BatchWriteItem") == 0)
		ApiBatch(req, out, true);
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
	memset(&call, 0, sizeof(call));
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
		if (edata->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE)
		{
			bool		bget = strcmp(op, "BatchGetItem") == 0;
			bool		bwrite = strcmp(op, "BatchWriteItem") == 0;

			edata->message = AccessDenied(op, bget || bwrite ? BatchResource(&req->root, bwrite) :
										  call.state.resource);
		}
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
		Dispatch(op, &req->root, &body);
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
		return call.result;
	/* the members were written with a leading comma */
	text = body.len > 1 ? psprintf("{%s}", body.data + 2) : "{}";
	return DatumGetJsonbP(DirectFunctionCall1(jsonb_in, CStringGetDatum(text)));
}

/* The request {member: argument 0} of a SQL-level call taking one jsonb */
static Jsonb *
RequestFromArg(FunctionCallInfo fcinfo, const char *member)
{
	JsonbParseState *st = NULL;

	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	hroe_jsonb_push_key(&st, member);
	PushJsonb(&st, PG_GETARG_JSONB_P(0));
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
 * hroe.transact_write_items(transact_items): TransactWriteItems as a SQL
 * function; a cancelled transaction raises HR005 with the reasons in DETAIL.
 */
Datum
hroe_transact_write_items(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(CallOperation("TransactWriteItems", RequestFromArg(fcinfo, "TransactItems")));
}

/* hroe.transact_get_items(transact_items): the Responses array of TransactGetItems */
Datum
hroe_transact_get_items(PG_FUNCTION_ARGS)
{
	Jsonb	   *res = CallOperation("TransactGetItems", RequestFromArg(fcinfo, "TransactItems"));

	PG_RETURN_JSONB_P(ResponseMember(res, "Responses"));
}
