/*-------------------------------------------------------------------------
 *
 * partiql_api.c
 *	  The JSON API's PartiQL operations: ExecuteStatement,
 *	  BatchExecuteStatement and ExecuteTransaction.  Each statement is
 *	  translated (partiql_translate.c) into the request of a JSON API operation,
 *	  which runs it (hroe_api_run); this file pages SELECT's results
 *	  (NextToken), shapes the responses as DynamoDB's and maps the errors
 *	  PartiQL names differently (DuplicateItemException for an INSERT whose
 *	  item exists; a batch's per-statement Error objects).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "common/base64.h"
#include "common/jsonapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"
#include "utils/resowner.h"

#include "api_internal.h"
#include "partiql_api.h"
#include "partiql.h"

/* DynamoDB's text for an INSERT of an existing item */
#define DUPLICATE_ITEM "Duplicate primary key exists in table"

/* ---------- statements ---------- */

/* A statement's text and Parameters from a request (or a batch's element) */
static PqStatement *
ParseStatement(JsonbContainer *obj, const char *member, JsonbContainer ***params, int *nparams)
{
	char	   *stmt = hroe_api_member_text(obj, "Statement", "Statement");
	int			len;

	if (stmt == NULL)
		hroe_api_missing(member);
	len = strlen(stmt);
	if (len < 1)
		hroe_api_invalid(psprintf("1 validation error detected: Value '' at '%s' failed to satisfy constraint: Member must have length greater than or equal to 1",
								  member));
	if (len > HROE_PARTIQL_STATEMENT_MAX && pg_mbstrlen_with_len(stmt, len) > HROE_PARTIQL_STATEMENT_MAX)
		hroe_api_invalid(psprintf("1 validation error detected: Value at '%s' failed to satisfy constraint: Member must have length less than or equal to %d",
								  member, HROE_PARTIQL_STATEMENT_MAX));
	*nparams = hroe_api_member_array(obj, "Parameters", params);
	if (hroe_api_member(obj, "Parameters") && *nparams == 0)
		hroe_api_invalid("1 validation error detected: Value '[]' at 'parameters' failed to satisfy constraint: Member must have length greater than or equal to 1");
	return hroe_partiql_parse(stmt, len);
}

/*
 * The list member (Statements, TransactStatements) of a request, 1 to max
 * long, in *elems; member is its name in DynamoDB's messages
 */
static int
StatementList(JsonbContainer *req, const char *name, const char *member, int max,
			  JsonbContainer ***elems)
{
	int			n = hroe_api_member_array(req, name, elems);

	if (hroe_api_member(req, name) == NULL)
		hroe_api_missing(member);
	if (n < 1)
		hroe_api_invalid(psprintf("1 validation error detected: Value '[]' at '%s' failed to satisfy constraint: Member must have length greater than or equal to 1",
								  member));
	if (n > max)
		hroe_api_invalid(psprintf("1 validation error detected: Value at '%s' failed to satisfy constraint: Member must have length less than or equal to %d",
								  member, max));
	return n;
}

/* The request's members given to every statement's operation */
static void
CommonMembers(StringInfo extra, JsonbContainer *req, bool read)
{
	char	   *rcc = hroe_api_member_text(req, "ReturnConsumedCapacity", "ReturnConsumedCapacity");
	char	   *rv = read ? NULL : hroe_api_member_text(req, "ReturnValuesOnConditionCheckFailure",
														"ReturnValuesOnConditionCheckFailure");

	if (rcc)
	{
		appendStringInfoString(extra, ",\"ReturnConsumedCapacity\":");
		hroe_json_string_write(extra, rcc, strlen(rcc));
	}
	if (rv)
	{
		appendStringInfoString(extra, ",\"ReturnValuesOnConditionCheckFailure\":");
		hroe_json_string_write(extra, rv, strlen(rv));
	}
	if (read && hroe_api_member_bool(req, "ConsistentRead", false))
		appendStringInfoString(extra, ",\"ConsistentRead\":true");
}

/*
 * Run op on req in call; an error of SQLSTATE code is returned in *err
 * (copied, the error state flushed, to be raised again or replaced at once),
 * any other raised
 */
static Jsonb *
RunCatching(ApiCall *call, const char *op, Jsonb *req, int code, ErrorData **err)
{
	MemoryContext cxt = CurrentMemoryContext;
	Jsonb	   *volatile res = NULL;

	*err = NULL;
	PG_TRY();
	{
		res = hroe_api_run(call, op, req, false);
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		if (e->sqlerrcode != code)
			PG_RE_THROW();
		FlushErrorState();
		*err = e;
	}
	PG_END_TRY();
	return res;
}

/*
 * Run a write's request; an INSERT's failed attribute_not_exists is
 * DynamoDB's DuplicateItemException
 */
static Jsonb *
RunWrite(ApiCall *call, PqRequest *r, const char *extra)
{
	Jsonb	   *req = hroe_partiql_request(r, NULL, extra);
	ErrorData  *e;
	Jsonb	   *res;

	/* an UPDATE measures its finished item only (ApiRequest.partiql) */
	if (r->stmt->kind != PQ_INSERT)
		return hroe_api_run(call, r->op, req, true);
	res = RunCatching(call, r->op, req, ERRCODE_HROE_CONDITIONAL_CHECK_FAILED, &e);
	if (e)
		hroe_ddb_error(ERRCODE_HROE_DUPLICATE_ITEM, "DuplicateItemException", DUPLICATE_ITEM);
	return res;
}

/* ---------- SELECT's pages ---------- */

/* Push the value at path p of an item (a container), if any, as its last name */
static void
PushPath(JsonbParseState **st, JsonbContainer *item, PqNode *p)
{
	JsonbValue *v = NULL;
	const char *name = NULL;
	int			namelen = 0;

	for (int i = 0; i < p->nsteps; i++)
	{
		PqStep	   *s = &p->steps[i];
		JsonbContainer *c;

		if (i == 0)
			c = item;
		else
		{
			JsonbValue *inner;

			if (v == NULL || v->type != jbvBinary)
				return;
			inner = hroe_api_member(v->val.binary.data, s->name ? "M" : "L");
			if (inner == NULL || inner->type != jbvBinary)
				return;
			c = inner->val.binary.data;
		}
		if (s->name)
		{
			JsonbValue	k;

			if (!JsonContainerIsObject(c))
				return;
			k.type = jbvString;
			k.val.string.val = s->name;
			k.val.string.len = s->namelen;
			v = findJsonbValueFromContainer(c, JB_FOBJECT, &k);
			name = s->name;
			namelen = s->namelen;
		}
		else
			v = JsonContainerIsArray(c) ? getIthJsonbValueFromContainer(c, s->index) : NULL;
		if (v == NULL)
			return;
	}
	{
		JsonbValue	k;

		k.type = jbvString;
		k.val.string.val = (char *) name;
		k.val.string.len = namelen;
		pushJsonbValue(st, WJB_KEY, &k);
		pushJsonbValue(st, WJB_VALUE, v);
	}
}

/*
 * Push an item of a SELECT's page: as the projection gave it, or, when a
 * path is nested, with each value under its path's last name (DynamoDB's
 * SELECT a.b answers {"b": ...})
 */
static void
PushItem(JsonbParseState **st, PqStatement *s, JsonbValue *item)
{
	bool		nested = false;

	for (int i = 0; i < s->nproj; i++)
		nested |= s->proj[i]->nsteps > 1;
	if (!nested || item->type != jbvBinary)
	{
		pushJsonbValue(st, WJB_ELEM, item);
		return;
	}
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < s->nproj; i++)
		PushPath(st, item->val.binary.data, s->proj[i]);
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/* Push the object a with the numbers b has at the same places added */
static JsonbValue *
SumInto(JsonbParseState **st, JsonbContainer *a, JsonbContainer *b)
{
	JsonbIterator *it = JsonbIteratorInit(a);
	JsonbValue	v;
	JsonbValue	key = {0};
	JsonbIteratorToken tok;

	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		JsonbValue *other;

		if (tok == WJB_KEY)
		{
			key = v;
			pushJsonbValue(st, WJB_KEY, &key);
			continue;
		}
		if (tok != WJB_VALUE)
			continue;
		other = JsonContainerIsObject(b) ? findJsonbValueFromContainer(b, JB_FOBJECT, &key) : NULL;
		if (other && v.type == jbvNumeric && other->type == jbvNumeric)
			v.val.numeric = DatumGetNumeric(DirectFunctionCall2(numeric_add,
																NumericGetDatum(v.val.numeric),
																NumericGetDatum(other->val.numeric)));
		else if (other && v.type == jbvBinary && other->type == jbvBinary &&
				 JsonContainerIsObject(v.val.binary.data))
		{
			(void) SumInto(st, v.val.binary.data, other->val.binary.data);
			continue;
		}
		pushJsonbValue(st, WJB_VALUE, &v);
	}
	return pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/* The sum of two ConsumedCapacity objects of one table (either may be NULL) */
static Jsonb *
SumCapacity(Jsonb *a, Jsonb *b)
{
	JsonbParseState *st = NULL;

	if (a == NULL || b == NULL)
		return a ? a : b;
	return JsonbValueToJsonb(SumInto(&st, &a->root, &b->root));
}

/*
 * NextToken: base64 of {"i": the IN value to go on with, "k":
 * LastEvaluatedKey or null[, "x": the index read]}; its key is checked by the
 * operation as an ExclusiveStartKey, its index against the statement's
 */
static char *
EncodeToken(int i, Jsonb *lek, const char *index)
{
	StringInfoData buf;
	char	   *out;
	int			n;

	initStringInfo(&buf);
	appendStringInfo(&buf, "{\"i\":%d,\"k\":%s", i, lek ? hroe_api_jsonb_text(lek) : "null");
	if (index)
	{
		appendStringInfoString(&buf, ",\"x\":");
		hroe_json_string_write(&buf, index, strlen(index));
	}
	appendStringInfoChar(&buf, '}');
	out = palloc(pg_b64_enc_len(buf.len) + 1);
	n = pg_b64_encode(buf.data, buf.len, out, pg_b64_enc_len(buf.len));
	if (n < 0)
		elog(ERROR, "could not encode a NextToken");
	out[n] = '\0';
	return out;
}

/*
 * The IN value and ExclusiveStartKey of a NextToken, minted by a read of the
 * index named index (NULL: of the table)
 */
static void
DecodeToken(const char *token, int nvalues, const char *index, int *start, Jsonb **esk)
{
	int			len = strlen(token);
	char	   *json = palloc(pg_b64_dec_len(len) + 1);
	int			n = pg_b64_decode(token, len, json, pg_b64_dec_len(len));
	JsonbValue *i;
	JsonbValue *k;
	JsonbValue *x;
	Jsonb	   *j = NULL;

	/*
	 * a token of hroe's: valid UTF-8 JSON without NULs (checked, not
	 * trusted); its strings, not decoded here, may hold \u0000 (a key's)
	 */
	if (n > 0)
	{
		json[n] = '\0';
		if (strlen(json) == (size_t) n && pg_verify_mbstr(PG_UTF8, json, n, true) &&
			pg_parse_json(makeJsonLexContextCstringLen(json, n, PG_UTF8, false),
						  &nullSemAction) == JSON_SUCCESS)
			j = hroe_api_text_jsonb(json);
	}
	i = j ? hroe_api_member(&j->root, "i") : NULL;
	k = j ? hroe_api_member(&j->root, "k") : NULL;
	x = j ? hroe_api_member(&j->root, "x") : NULL;
	if (i == NULL || i->type != jbvNumeric || (k && k->type != jbvBinary))
		hroe_api_invalid("Invalid NextToken");
	/* a token of another index's read (its key may be this one's too) */
	if ((x == NULL) != (index == NULL) ||
		(x && (x->type != jbvString || x->val.string.len != strlen(index) ||
			   memcmp(x->val.string.val, index, x->val.string.len) != 0)))
		hroe_api_invalid("Invalid NextToken");
	*start = DatumGetInt32(DirectFunctionCall1(numeric_int4, NumericGetDatum(i->val.numeric)));
	if (*start < 0 || *start >= nvalues)
		hroe_api_invalid("Invalid NextToken");
	*esk = k ? JsonbValueToJsonb(k) : NULL;
}

/*
 * A SELECT's Query or Scan (hroe_api_run), its sort key bounds a range: the
 * request says so (ApiRequest.partiql), never a request's member
 */
static Jsonb *
RunRead(ApiCall *call, PqRequest *r, const char *in_value, const char *extra)
{
	return hroe_api_run(call, r->op, hroe_partiql_request(r, in_value, extra), true);
}

/* SELECT: its Query (one per IN value) or Scan, paged; the response */
static void
RunSelect(ApiCall *call, PqRequest *r, JsonbContainer *req)
{
	bool		has_limit;
	int32		limit = hroe_api_member_int(req, "Limit", &has_limit);
	char	   *token = hroe_api_member_text(req, "NextToken", "NextToken");
	int			nq = r->nin ? r->nin : 1;
	int			start = 0;
	Jsonb	   *esk = NULL;
	Jsonb	   *cap = NULL;
	Jsonb	   *lek = NULL;
	int			next = -1;
	int64		bytes = 0;		/* of the items in the response */
	StringInfoData common;
	JsonbParseState *st = NULL;

	if (has_limit && limit < 1)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
								  limit));
	/* (DynamoDB's text for ConsistentRead on a GSI, the Query's differs) */
	if (r->index && !r->index->local && hroe_api_member_bool(req, "ConsistentRead", false))
		HroeValidation("Strongly consistent read is not supported on Global Secondary Indexes");
	if (token)
		DecodeToken(token, nq, r->stmt->index, &start, &esk);
	initStringInfo(&common);
	CommonMembers(&common, req, true);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	hroe_jsonb_push_key(&st, "Items");
	pushJsonbValue(&st, WJB_BEGIN_ARRAY, NULL);
	for (int k = start; k < nq; k++)
	{
		StringInfoData extra;
		Jsonb	   *res;
		JsonbValue *items;
		JsonbValue *scanned;

		CHECK_FOR_INTERRUPTS();
		initStringInfo(&extra);
		appendStringInfoString(&extra, common.data);
		if (has_limit)
			appendStringInfo(&extra, ",\"Limit\":%d", limit);
		if (esk)
			appendStringInfo(&extra, ",\"ExclusiveStartKey\":%s", hroe_api_jsonb_text(esk));
		res = RunRead(call, r, r->nin ? r->in[k] : NULL, extra.data);
		esk = NULL;
		items = hroe_api_member(&res->root, "Items");
		if (items && items->type == jbvBinary)
		{
			JsonbIterator *it = JsonbIteratorInit(items->val.binary.data);
			JsonbValue	v;
			JsonbIteratorToken tok;

			while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
				if (tok == WJB_ELEM)
				{
					PushItem(&st, r->stmt, &v);
					bytes += v.type == jbvBinary ? v.val.binary.len : 0;
				}
		}
		cap = SumCapacity(cap, hroe_api_response_member(res, "ConsumedCapacity"));
		lek = hroe_api_response_member(res, "LastEvaluatedKey");
		if (lek)
		{
			next = k;
			break;
		}
		/*
		 * one response of about 1 MB: the Queries of the next IN values
		 * come with the NextToken (each Query stops at 1 MB read itself)
		 */
		if (bytes >= HROE_PAGE_BYTES)
		{
			if (k + 1 < nq)
				next = k + 1;
			break;
		}
		scanned = hroe_api_member(&res->root, "ScannedCount");
		if (has_limit && scanned && scanned->type == jbvNumeric)
		{
			limit -= DatumGetInt32(DirectFunctionCall1(numeric_int4,
													   NumericGetDatum(scanned->val.numeric)));
			if (limit <= 0)
			{
				if (k + 1 < nq)
					next = k + 1;
				break;
			}
		}
	}
	pushJsonbValue(&st, WJB_END_ARRAY, NULL);
	if (next >= 0)
	{
		JsonbValue	t;
		char	   *tok = EncodeToken(next, lek, r->stmt->index);

		hroe_jsonb_push_key(&st, "NextToken");
		t.type = jbvString;
		t.val.string.val = tok;
		t.val.string.len = strlen(tok);
		pushJsonbValue(&st, WJB_VALUE, &t);
	}
	if (lek)
	{
		hroe_jsonb_push_key(&st, "LastEvaluatedKey");
		hroe_api_push_jsonb(&st, lek);
	}
	if (cap)
	{
		hroe_jsonb_push_key(&st, "ConsumedCapacity");
		hroe_api_push_jsonb(&st, cap);
	}
	hroe_api_set_result(call, &st);
}

/* ---------- ExecuteStatement ---------- */

/* EXISTS(SELECT ...) is a transaction's condition check only (DynamoDB's rule) */
static void
CheckNotExists(PqStatement *s)
{
	if (s->kind == PQ_EXISTS)
		HroeValidation("EXISTS can only be used in a transaction (ExecuteTransaction)");
}

/* ExecuteStatement: one statement, the operation DynamoDB runs for it */
void
hroe_api_execute_statement(const ApiRequest *ar, StringInfo out)
{
	JsonbContainer *req = ar->body;
	JsonbContainer **params;
	int			nparams;
	PqStatement *s = ParseStatement(req, "statement", &params, &nparams);
	PqRequest	r;
	StringInfoData extra;
	Jsonb	   *res;
	JsonbValue *v;

	CheckNotExists(s);
	hroe_partiql_translate(s, params, nparams, PQ_READ_ANY, &r);
	if (hroe_partiql_is_read(s))
	{
		RunSelect(ar->call, &r, req);
		return;
	}
	initStringInfo(&extra);
	CommonMembers(&extra, req, false);
	res = RunWrite(ar->call, &r, extra.data);
	/* a write's Items: what RETURNING asked for, if anything */
	appendStringInfoString(out, ",\"Items\":[");
	if ((v = hroe_api_member(&res->root, "Attributes")) != NULL)
		appendStringInfoString(out, hroe_api_container_text(v));
	appendStringInfoChar(out, ']');
	if ((v = hroe_api_member(&res->root, "ConsumedCapacity")) != NULL)
		appendStringInfo(out, ",\"ConsumedCapacity\":%s", hroe_api_container_text(v));
}

/* ---------- BatchExecuteStatement ---------- */

/* A batch's statement: parsed, or its error */
typedef struct BatchStatement
{
	JsonbContainer *elem;
	PqStatement *stmt;
	JsonbContainer **params;
	int			nparams;
	int			code;			/* the error's SQLSTATE, 0 for none */
	char	   *message;
	Jsonb	   *response;
} BatchStatement;

/* The Code of a BatchStatementError for an error's __type */
static char *
ErrorCode(int sqlerrcode)
{
	const char *type = hroe_error_type(sqlerrcode);
	const char *name = strrchr(type, '#') ? strrchr(type, '#') + 1 : type;
	int			len = strlen(name);

	if (strcmp(name, "ValidationException") == 0)
		return "ValidationError";
	if (len > 9 && strcmp(name + len - 9, "Exception") == 0)
		len -= 9;
	return pnstrdup(name, len);
}

/*
 * Run one statement of a batch in a subtransaction of its own: its response
 * or its error, which fails that statement only
 */
static void
RunBatchStatement(ApiCall *call, BatchStatement *b, const char *rcc)
{
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;

	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		PqRequest	r;
		StringInfoData extra;
		bool		read;

		if (b->stmt == NULL)
			b->stmt = ParseStatement(b->elem, "statement", &b->params, &b->nparams);
		read = hroe_partiql_is_read(b->stmt);
		CheckNotExists(b->stmt);
		hroe_partiql_translate(b->stmt, b->params, b->nparams, PQ_READ_BATCH, &r);
		initStringInfo(&extra);
		CommonMembers(&extra, b->elem, read);
		if (rcc)
		{
			appendStringInfoString(&extra, ",\"ReturnConsumedCapacity\":");
			hroe_json_string_write(&extra, rcc, strlen(rcc));
		}
		b->response = read ? hroe_api_run(call, r.op, hroe_partiql_request(&r, NULL, extra.data), false) :
			RunWrite(call, &r, extra.data);
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
	}
	PG_CATCH();
	{
		ErrorData  *e;

		MemoryContextSwitchTo(cxt);
		e = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);
		CurrentResourceOwner = owner;
		/* an error hroe does not map fails the request */
		if (hroe_error_type(e->sqlerrcode) == NULL)
			ReThrowError(e);
		b->code = e->sqlerrcode;
		/* DynamoDB's text, never PostgreSQL's (which may name what the role cannot see) */
		b->message = e->sqlerrcode == ERRCODE_INSUFFICIENT_PRIVILEGE ?
			hroe_api_access_denied("BatchExecuteStatement", b->stmt ? b->stmt->table : NULL) :
			e->message;
	}
	PG_END_TRY();
}

/* BatchExecuteStatement: up to 25 reads or writes, each failing alone */
void
hroe_api_batch_execute_statement(const ApiRequest *ar, StringInfo out)
{
	JsonbContainer *req = ar->body;
	JsonbContainer **elems;
	int			n = StatementList(req, "Statements", "statements", HROE_PARTIQL_BATCH_MAX, &elems);
	char	   *rcc = hroe_api_member_text(req, "ReturnConsumedCapacity", "ReturnConsumedCapacity");
	BatchStatement *bs;
	int			nread = 0;
	int			nwrite = 0;
	Jsonb	   *caps[HROE_PARTIQL_BATCH_MAX] = {0};
	char	   *captables[HROE_PARTIQL_BATCH_MAX] = {0};
	int			ncaps = 0;

	hroe_check_return_cc(rcc ? rcc : "NONE");
	bs = palloc0(sizeof(BatchStatement) * n);
	/* the statements that parse: all reads or all writes */
	for (int i = 0; i < n; i++)
	{
		MemoryContext cxt = CurrentMemoryContext;

		bs[i].elem = elems[i];
		PG_TRY();
		{
			bs[i].stmt = ParseStatement(elems[i], "statement", &bs[i].params, &bs[i].nparams);
		}
		PG_CATCH();
		{
			ErrorData  *e;

			MemoryContextSwitchTo(cxt);
			e = CopyErrorData();
			if (hroe_error_type(e->sqlerrcode) == NULL)
				PG_RE_THROW();
			FlushErrorState();
			bs[i].code = e->sqlerrcode;
			bs[i].message = e->message;
		}
		PG_END_TRY();
		if (bs[i].stmt && hroe_partiql_is_read(bs[i].stmt))
			nread++;
		else if (bs[i].stmt)
			nwrite++;
	}
	if (nread > 0 && nwrite > 0)
		hroe_api_invalid("Statements in a batch must be all reads or all writes");
	for (int i = 0; i < n; i++)
		if (bs[i].code == 0)
			RunBatchStatement(ar->call, &bs[i], rcc);

	appendStringInfoString(out, ",\"Responses\":[");
	for (int i = 0; i < n; i++)
	{
		BatchStatement *b = &bs[i];
		JsonbValue *item;
		Jsonb	   *cc;

		appendStringInfoString(out, i ? ",{" : "{");
		if (b->stmt)
		{
			appendStringInfoString(out, "\"TableName\":");
			hroe_json_string_write(out, b->stmt->table, strlen(b->stmt->table));
		}
		if (b->code)
		{
			const char *code = ErrorCode(b->code);

			appendStringInfo(out, "%s\"Error\":{\"Code\":", b->stmt ? "," : "");
			hroe_json_string_write(out, code, strlen(code));
			appendStringInfoString(out, ",\"Message\":");
			hroe_json_string_write(out, b->message, strlen(b->message));
			appendStringInfoChar(out, '}');
		}
		else if ((item = hroe_api_member(&b->response->root, "Item")) != NULL ||
				 (item = hroe_api_member(&b->response->root, "Attributes")) != NULL)
		{
			/* a read's item, or what a write's RETURNING asked for, if anything */
			appendStringInfo(out, ",\"Item\":%s", hroe_api_container_text(item));
		}
		appendStringInfoChar(out, '}');
		/* ConsumedCapacity: one per table, summed */
		cc = b->response ? hroe_api_response_member(b->response, "ConsumedCapacity") : NULL;
		if (cc)
		{
			int			k;

			for (k = 0; k < ncaps; k++)
				if (strcmp(captables[k], b->stmt->table) == 0)
					break;
			if (k == ncaps)
				captables[ncaps++] = b->stmt->table;
			caps[k] = SumCapacity(caps[k], cc);
		}
	}
	appendStringInfoChar(out, ']');
	if (ncaps > 0)
	{
		appendStringInfoString(out, ",\"ConsumedCapacity\":[");
		for (int k = 0; k < ncaps; k++)
			appendStringInfo(out, "%s%s", k ? "," : "", hroe_api_jsonb_text(caps[k]));
		appendStringInfoChar(out, ']');
	}
}

/* ---------- ExecuteTransaction ---------- */

/*
 * A canceled transaction's reasons and message with each INSERT's failed
 * condition as DynamoDB's DuplicateItem
 */
static void
DuplicateReasons(HroeCall *call, ErrorData *e, PqRequest *rs, int n)
{
	Jsonb	   *reasons;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	StringInfoData out;
	StringInfoData codes;
	int			i = 0;

	if (call->reasons == NULL)
		return;
	reasons = hroe_api_text_jsonb(call->reasons);
	initStringInfo(&out);
	initStringInfo(&codes);
	appendStringInfoChar(&out, '[');
	it = JsonbIteratorInit(&reasons->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		JsonbValue *code;
		char	   *text;

		if (tok != WJB_ELEM || v.type != jbvBinary)
			continue;
		code = hroe_api_member(v.val.binary.data, "Code");
		text = code && code->type == jbvString ? pnstrdup(code->val.string.val, code->val.string.len) : "None";
		if (i > 0)
		{
			appendStringInfoChar(&out, ',');
			appendStringInfoString(&codes, ", ");
		}
		if (i < n && rs[i].stmt->kind == PQ_INSERT && strcmp(text, "ConditionalCheckFailed") == 0)
		{
			appendStringInfoString(&out, "{\"Code\":\"DuplicateItem\",\"Message\":\"" DUPLICATE_ITEM "\"}");
			text = "DuplicateItem";
		}
		else
			appendStringInfoString(&out, hroe_api_container_text(&v));
		appendStringInfoString(&codes, text);
		i++;
	}
	appendStringInfoChar(&out, ']');
	call->reasons = MemoryContextStrdup(call->outer, out.data);
	/* the message lists the codes in brackets: [a, b] */
	if (e->message && strrchr(e->message, '['))
	{
		char	   *head = pnstrdup(e->message, strrchr(e->message, '[') - e->message);

		e->message = psprintf("%s[%s]", head, codes.data);
	}
}

/* ExecuteTransaction: up to 100 reads or writes, all or none */
void
hroe_api_execute_transaction(const ApiRequest *ar, StringInfo out)
{
	JsonbContainer *req = ar->body;
	JsonbContainer **elems;
	int			n = StatementList(req, "TransactStatements", "transactStatements", HROE_TRANSACT_MAX,
								  &elems);
	char	   *token = hroe_api_member_text(req, "ClientRequestToken", "ClientRequestToken");
	char	   *rcc = hroe_api_member_text(req, "ReturnConsumedCapacity", "ReturnConsumedCapacity");
	PqRequest  *rs;
	bool		read = false;
	StringInfoData items;
	StringInfoData treq;
	Jsonb	   *res;
	ErrorData  *e;

	rs = palloc0(sizeof(PqRequest) * n);
	initStringInfo(&items);
	for (int i = 0; i < n; i++)
	{
		JsonbContainer **params;
		int			nparams;
		PqStatement *s = ParseStatement(elems[i], "statement", &params, &nparams);
		StringInfoData extra;
		const char *action;

		/* a transaction's writes return no items (DynamoDB refuses to be asked) */
		if (s->returning)
			hroe_api_invalid(psprintf("Validation failed in TransactStatements[%d]: RETURNING clause is not supported in ExecuteTransaction.",
									  i));
		if (i == 0)
			read = hroe_partiql_is_read(s);
		else if (read != hroe_partiql_is_read(s))
			hroe_api_invalid("Statements in a transaction must be all reads or all writes");
		/* (DynamoDB's text for a transaction's SELECT of "table"."index") */
		if (read && s->index)
			HroeValidation(psprintf("Validation failed in TransactStatements[%d]: Reads on indices are not supported within transactions.",
									i));
		hroe_partiql_translate(s, params, nparams, PQ_READ_TRANSACTION, &rs[i]);
		initStringInfo(&extra);
		CommonMembers(&extra, elems[i], read);
		action = read ? "Get" : s->kind == PQ_INSERT ? "Put" : s->kind == PQ_UPDATE ? "Update" :
			s->kind == PQ_EXISTS ? "ConditionCheck" : "Delete";
		appendStringInfo(&items, "%s{\"%s\":%s}", i ? "," : "", action,
						 hroe_api_jsonb_text(hroe_partiql_request(&rs[i], NULL, extra.data)));
	}
	initStringInfo(&treq);
	appendStringInfo(&treq, "{\"TransactItems\":[%s]", items.data);
	if (token)
	{
		appendStringInfoString(&treq, ",\"ClientRequestToken\":");
		hroe_json_string_write(&treq, token, strlen(token));
	}
	if (rcc)
	{
		appendStringInfoString(&treq, ",\"ReturnConsumedCapacity\":");
		hroe_json_string_write(&treq, rcc, strlen(rcc));
	}
	appendStringInfoChar(&treq, '}');
	res = RunCatching(ar->call, read ? "TransactGetItems" : "TransactWriteItems",
					  hroe_api_text_jsonb(treq.data),
					  ERRCODE_HROE_TRANSACTION_CANCELED, &e);
	if (e)
	{
		DuplicateReasons(&ar->call->ops, e, rs, n);
		ReThrowError(e);
	}
	{
		char	   *s = hroe_api_jsonb_text(res);

		if (strlen(s) > 2)
			appendStringInfo(out, ",%.*s", (int) strlen(s) - 2, s + 1);
	}
}
