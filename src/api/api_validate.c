/*-------------------------------------------------------------------------
 *
 * api_validate.c
 *	  The JSON API's first pass over a request: DynamoDB's constraint
 *	  validation of its members, before any table is looked up.
 *
 * DynamoDB checks each member of a request against its model's
 * constraints (not null, length, pattern, enum value set, range) before it
 * does anything else, and reports every violation it finds in one
 * ValidationException:
 *
 *	  2 validation errors detected: Value 'INVALID' at 'returnValues' failed to
 *	  satisfy constraint: Member must satisfy enum value set: [...]; Value
 *	  'INVALID' at 'returnConsumedCapacity' failed to satisfy constraint:
 *	  Member must satisfy enum value set: [...]
 *
 * Each operation's members are checked here in the order DynamoDB reports
 * them (recorded against DynamoDB: the conformance suite nubo-db/
 * dynamodb-conformance and its captures, dynalite's tests where those say
 * nothing); a member reports its first violated constraint, but a table
 * or index name each of its own.  The operations keep their own checks of
 * the same members for the SQL functions, which have no such pass; the
 * enum value sets are shared (dynamodb_limits.h).
 *
 * Some violations DynamoDB words as whole sentences of their own rather
 * than as constraints ("The requestItems parameter is required for
 * BatchGetItem"); those are raised at once, in their place in the order.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "ddb_types.h"

/* DynamoDB reports at most this many violations */
#define MAX_VIOLATIONS 10

/* The violations found so far */
typedef struct Violations
{
	StringInfoData text;
	int			n;
} Violations;

/* How a violation shows the member's value */
typedef enum
{
	ECHO_VALUE,					/* Value '<value>' at ... */
	ECHO_NULL,					/* Value null at ... */
	ECHO_NONE					/* Value at ... */
} Echo;

/* One violation: the member's value as echo says, its path, the constraint */
static void
Add(Violations *v, Echo echo, const char *value, const char *path, const char *constraint)
{
	if (v->n >= MAX_VIOLATIONS)
		return;
	if (v->n++ > 0)
		appendStringInfoString(&v->text, "; ");
	appendStringInfoString(&v->text, "Value ");
	if (echo == ECHO_NULL)
		appendStringInfoString(&v->text, "null ");
	else if (echo == ECHO_VALUE)
		appendStringInfo(&v->text, "'%s' ", value);
	appendStringInfo(&v->text, "at '%s' failed to satisfy constraint: %s", path, constraint);
}

/* Raise the violations found, if any */
static void
Raise(Violations *v)
{
	if (v->n == 0)
		return;
	hroe_api_invalid(psprintf("%d validation error%s detected: %s", v->n, v->n > 1 ? "s" : "",
							  v->text.data));
}

/* Whether value is one of set ("A, B, C") */
static bool
InSet(const char *value, const char *set)
{
	size_t		len = strlen(value);

	for (const char *p = set; *p;)
	{
		const char *end = strchr(p, ',');
		size_t		n = end ? (size_t) (end - p) : strlen(p);

		if (n == len && strncmp(p, value, n) == 0)
			return true;
		if (end == NULL)
			break;
		p = end + 2;
	}
	return false;
}

/* A string member outside its enum value set */
static void
CheckEnum(Violations *v, JsonbContainer *req, const char *member, const char *path, const char *set)
{
	char	   *value = hroe_api_member_text(req, member, member);

	if (value && !InSet(value, set))
		Add(v, ECHO_VALUE, value, path,
			psprintf("Member must satisfy enum value set: [%s]", set));
}

/* A required member absent (or JSON null) */
static void
CheckNotNull(Violations *v, JsonbContainer *req, const char *member, const char *path)
{
	if (hroe_api_member(req, member) == NULL)
		Add(v, ECHO_NULL, NULL, path, HROE_MSG_NOT_NULL);
}

/*
 * A string member as its bytes (it may hold U+0000), or NULL; *len its length
 */
static const char *
MemberBytes(JsonbContainer *req, const char *member, int *len)
{
	JsonbValue *m = hroe_api_member(req, member);

	if (m == NULL)
		return NULL;
	if (m->type != jbvString)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
	*len = m->val.string.len;
	return m->val.string.val;
}

/*
 * A table or index name's violations (len bytes: U+0000, which the pattern
 * refuses, shown as \x00), each reported: the pattern [a-zA-Z0-9_.-]+, then
 * 3 to 255 characters
 */
static void
CheckName(Violations *v, const char *name, int len, const char *path)
{
	char	   *shown = hroe_message_bytes(name, len);

	for (int i = 0; i < len; i++)
	{
		char		c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '_' || c == '.' || c == '-'))
		{
			Add(v, ECHO_VALUE, shown, path, "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
			break;
		}
	}
	if (len < HROE_TABLE_NAME_MIN)
		Add(v, ECHO_VALUE, shown, path,
			psprintf("Member must have length greater than or equal to %d", HROE_TABLE_NAME_MIN));
	if (len > HROE_TABLE_NAME_MAX)
		Add(v, ECHO_VALUE, shown, path,
			psprintf("Member must have length less than or equal to %d", HROE_TABLE_NAME_MAX));
}

/*
 * The TableName of an item operation: required; DynamoDB's model allows 1 to
 * 1024 characters (a name or a table's ARN), then a name must satisfy
 * CheckName (hroe takes names only: an ARN fails the pattern)
 */
static void
CheckTableName(Violations *v, JsonbContainer *req, const char *member, const char *path)
{
	int			len;
	const char *name = MemberBytes(req, member, &len);

	if (name == NULL)
		Add(v, ECHO_NULL, NULL, path, HROE_MSG_NOT_NULL);
	else if (len == 0)
		Add(v, ECHO_VALUE, "", path, "Member must have length greater than or equal to 1");
	else if (len > HROE_TABLE_ARN_MAX)
		Add(v, ECHO_VALUE, hroe_message_bytes(name, len), path,
			psprintf("Member must have length less than or equal to %d", HROE_TABLE_ARN_MAX));
	else
		CheckName(v, name, len, path);
}

/* An optional index name */
static void
CheckIndexName(Violations *v, JsonbContainer *req)
{
	int			len;
	const char *name = MemberBytes(req, "IndexName", &len);

	if (name)
		CheckName(v, name, len, "indexName");
}

/* An integer member below min (DynamoDB does not echo Limit's value) */
static void
CheckMin(Violations *v, JsonbContainer *req, const char *member, const char *path, int min,
		 Echo echo)
{
	bool		present;
	int32		value = hroe_api_member_int(req, member, &present);

	if (present && value < min)
		Add(v, echo, psprintf("%d", value), path,
			psprintf("Member must have value greater than or equal to %d", min));
}

/* An integer member above max */
static void
CheckMax(Violations *v, JsonbContainer *req, const char *member, const char *path, int max)
{
	bool		present;
	int32		value = hroe_api_member_int(req, member, &present);

	if (present && value > max)
		Add(v, ECHO_VALUE, psprintf("%d", value), path,
			psprintf("Member must have value less than or equal to %d", max));
}

/* ---------- Java's rendering of a request's lists ---------- */

/*
 * DynamoDB echoes an over-long list in its Java form, an object as its class
 * and identity hash (com.amazonaws.dynamodb.v20120810.TransactWriteItem@1f2e3d4c).
 * An identity hash is arbitrary and distinct; hroe numbers the objects of
 * one echo and writes a multiplicative hash of the number (Knuth's
 * 2654435761), so that the text is deterministic.
 */
static void
AppendJavaObject(StringInfo out, const char *class, uint32 *counter)
{
	appendStringInfo(out, DDB_CLASS_PREFIX "%s@%08x", class,
					 (uint32) (++(*counter) * UINT64CONST(2654435761)));
}

/* An attribute map in Java form: {name=AttributeValue@hash, ...} */
static void
AppendJavaAttributes(StringInfo out, JsonbContainer *map, uint32 *counter)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	bool		first = true;

	appendStringInfoChar(out, '{');
	if (map && JsonContainerIsObject(map))
	{
		it = JsonbIteratorInit(map);
		while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		{
			if (tok == WJB_KEY)
			{
				appendStringInfo(out, "%s%.*s=", first ? "" : ", ", v.val.string.len, v.val.string.val);
				first = false;
			}
			else if (tok == WJB_VALUE)
			{
				if (v.type == jbvBinary)
					AppendJavaObject(out, "AttributeValue", counter);
				else
					appendStringInfoString(out, "null");
			}
		}
	}
	appendStringInfoChar(out, '}');
}

/*
 * One request of a WriteRequest in Java form: "<Class>(<field>={...}<tail>)"
 * for the member (its attribute map member inside), "null" when absent
 */
static void
AppendJavaRequest(StringInfo out, JsonbContainer *w, const char *member, const char *class,
				  const char *map, const char *tail, uint32 *counter)
{
	JsonbValue *r = hroe_api_member(w, member);
	JsonbValue *m;

	if (r == NULL || r->type != jbvBinary)
	{
		appendStringInfoString(out, "null");
		return;
	}
	m = hroe_api_member(r->val.binary.data, map);
	appendStringInfo(out, "%s(%c%s=", class, pg_ascii_tolower(map[0]), map + 1);
	AppendJavaAttributes(out, m && m->type == jbvBinary ? m->val.binary.data : NULL, counter);
	appendStringInfo(out, "%s)", tail);
}

/* One WriteRequest of a BatchWriteItem in Java form */
static void
AppendJavaWriteRequest(StringInfo out, JsonbContainer *w, uint32 *counter)
{
	appendStringInfoString(out, "WriteRequest(putRequest=");
	AppendJavaRequest(out, w, "PutRequest", "PutRequest", "Item", ", workloadProfileName=null", counter);
	appendStringInfoString(out, ", deleteRequest=");
	AppendJavaRequest(out, w, "DeleteRequest", "DeleteRequest", "Key", "", counter);
	appendStringInfoChar(out, ')');
}

/* ---------- the operations ---------- */

/* GetItem */
static void
ValidateGetItem(JsonbContainer *req, Violations *v, bool unused)
{
	CheckEnum(v, req, "ReturnConsumedCapacity", "returnConsumedCapacity", HROE_ENUM_RETURN_CC);
	CheckTableName(v, req, "TableName", "tableName");
	CheckNotNull(v, req, "Key", "key");
}

/*
 * PutItem and DeleteItem: a table name that violates its constraints alone
 * (DynamoDB stops there); else the enums, then the item or key
 */
static void
ValidatePutDelete(JsonbContainer *req, Violations *v, bool put)
{
	CheckTableName(v, req, "TableName", "tableName");
	if (v->n > 0)
		return;
	CheckEnum(v, req, "ReturnValues", "returnValues", HROE_ENUM_RETURN_VALUES);
	CheckEnum(v, req, "ReturnConsumedCapacity", "returnConsumedCapacity", HROE_ENUM_RETURN_CC);
	CheckEnum(v, req, "ReturnItemCollectionMetrics", "returnItemCollectionMetrics", HROE_ENUM_RICM);
	CheckEnum(v, req, "ReturnValuesOnConditionCheckFailure", "returnValuesOnConditionCheckFailure",
			  HROE_ENUM_RETURN_OLD);
	if (put)
		CheckNotNull(v, req, "Item", "item");
	else
		CheckNotNull(v, req, "Key", "key");
}

/* UpdateItem: ReturnConsumedCapacity before ReturnValues */
static void
ValidateUpdateItem(JsonbContainer *req, Violations *v, bool unused)
{
	CheckEnum(v, req, "ReturnConsumedCapacity", "returnConsumedCapacity", HROE_ENUM_RETURN_CC);
	CheckTableName(v, req, "TableName", "tableName");
	CheckEnum(v, req, "ReturnItemCollectionMetrics", "returnItemCollectionMetrics", HROE_ENUM_RICM);
	CheckEnum(v, req, "ReturnValues", "returnValues", HROE_ENUM_RETURN_VALUES);
	CheckEnum(v, req, "ReturnValuesOnConditionCheckFailure", "returnValuesOnConditionCheckFailure",
			  HROE_ENUM_RETURN_OLD);
	CheckNotNull(v, req, "Key", "key");
}

/* Query and Scan */
static void
ValidateRead(JsonbContainer *req, Violations *v, bool query)
{
	CheckEnum(v, req, "Select", "select", HROE_ENUM_SELECT);
	CheckIndexName(v, req);
	if (!query)
	{
		CheckMin(v, req, "TotalSegments", "totalSegments", 1, ECHO_VALUE);
		CheckMax(v, req, "TotalSegments", "totalSegments", HROE_SCAN_SEGMENTS_MAX);
	}
	CheckEnum(v, req, "ReturnConsumedCapacity", "returnConsumedCapacity", HROE_ENUM_RETURN_CC);
	CheckTableName(v, req, "TableName", "tableName");
	if (!query)
		CheckMin(v, req, "Segment", "segment", 0, ECHO_VALUE);
	/* DynamoDB words Query's Limit anew (no value, 'Limit'), Scan's as before */
	if (query)
		CheckMin(v, req, "Limit", "Limit", 1, ECHO_NONE);
	else
		CheckMin(v, req, "Limit", "limit", 1, ECHO_VALUE);
}

/*
 * RequestItems of a batch: required and not empty; per table, BatchGetItem
 * reads at most 100 keys, BatchWriteItem takes 1 to 25 requests
 */
static void
CheckRequestItems(JsonbContainer *req, Violations *v, bool write)
{
	JsonbValue *items = hroe_api_member(req, "RequestItems");
	JsonbIterator *it;
	JsonbValue	k;
	JsonbIteratorToken tok;
	bool		bad_write = false;

	if (items == NULL)
	{
		Add(v, ECHO_NULL, NULL, "requestItems", HROE_MSG_NOT_NULL);
		return;
	}
	if (items->type != jbvBinary || !JsonContainerIsObject(items->val.binary.data))
		HroeSerialization("Unexpected value type in payload: RequestItems");
	if (JsonContainerSize(items->val.binary.data) == 0)
	{
		Raise(v);
		hroe_api_invalid(psprintf("The requestItems parameter is required for %s",
								  write ? "BatchWriteItem" : "BatchGetItem"));
	}
	it = JsonbIteratorInit(items->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		JsonbValue	val;
		char	   *table;

		if (tok != WJB_KEY)
			continue;
		table = hroe_request_cstring(k.val.string.val, k.val.string.len, "RequestItems' table names");
		tok = JsonbIteratorNext(&it, &val, true);
		if (val.type != jbvBinary)
			continue;			/* a type error, the operation's */
		if (write)
		{
			int			n = JsonContainerIsArray(val.val.binary.data) ?
				JsonContainerSize(val.val.binary.data) : 1;

			if (n < 1 || n > HROE_BATCH_WRITE_MAX)
				bad_write = true;
		}
		else
		{
			JsonbValue *keys = hroe_api_member(val.val.binary.data, "Keys");

			if (keys && keys->type == jbvBinary && JsonContainerIsArray(keys->val.binary.data) &&
				JsonContainerSize(keys->val.binary.data) > HROE_BATCH_GET_MAX)
				Add(v, ECHO_NONE, NULL, psprintf("RequestItems.%s.member.Keys", table),
					psprintf("Member must have length less than or equal to %d", HROE_BATCH_GET_MAX));
		}
	}
	if (bad_write)
	{
		StringInfoData echo;
		bool		first = true;
		uint32		counter = 0;

		/* the whole map, each table's requests in Java form */
		initStringInfo(&echo);
		appendStringInfoChar(&echo, '{');
		it = JsonbIteratorInit(items->val.binary.data);
		while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
		{
			JsonbValue	val;

			if (tok != WJB_KEY)
				continue;
			appendStringInfo(&echo, "%s%.*s=[", first ? "" : ", ", k.val.string.len, k.val.string.val);
			first = false;
			(void) JsonbIteratorNext(&it, &val, true);
			if (val.type == jbvBinary && JsonContainerIsArray(val.val.binary.data))
			{
				JsonbIterator *eit = JsonbIteratorInit(val.val.binary.data);
				JsonbValue	e;
				bool		efirst = true;

				while ((tok = JsonbIteratorNext(&eit, &e, true)) != WJB_DONE)
					if (tok == WJB_ELEM && e.type == jbvBinary)
					{
						appendStringInfoString(&echo, efirst ? "" : ", ");
						AppendJavaWriteRequest(&echo, e.val.binary.data, &counter);
						efirst = false;
					}
			}
			appendStringInfoChar(&echo, ']');
		}
		appendStringInfoChar(&echo, '}');
		Add(v, ECHO_VALUE, echo.data, "requestItems",
			psprintf("Map value must satisfy constraint: [Member must have length less than or equal to %d, Member must have length greater than or equal to 1]",
					 HROE_BATCH_WRITE_MAX));
	}
}

/* ReturnConsumedCapacity, then (writes) ReturnItemCollectionMetrics */
static void
CheckReturnEnums(JsonbContainer *req, Violations *v, bool write)
{
	CheckEnum(v, req, "ReturnConsumedCapacity", "returnConsumedCapacity", HROE_ENUM_RETURN_CC);
	if (write)
		CheckEnum(v, req, "ReturnItemCollectionMetrics", "returnItemCollectionMetrics", HROE_ENUM_RICM);
}

/* BatchGetItem, BatchWriteItem (write) */
static void
ValidateBatch(JsonbContainer *req, Violations *v, bool write)
{
	CheckReturnEnums(req, v, write);
	CheckRequestItems(req, v, write);
}

/* TransactItems: 1 to 100 actions, an over-long list echoed in Java form */
static void
CheckTransactItems(JsonbContainer *req, Violations *v, bool write)
{
	JsonbValue *items = hroe_api_member(req, "TransactItems");
	JsonbContainer *c;
	JsonbIterator *it;
	JsonbValue	e;
	JsonbIteratorToken tok;
	StringInfoData echo;
	bool		first = true;
	uint32		counter = 0;

	if (items == NULL)
	{
		Add(v, ECHO_NULL, NULL, "transactItems", HROE_MSG_NOT_NULL);
		return;
	}
	if (items->type != jbvBinary || !JsonContainerIsArray(items->val.binary.data))
		HroeSerialization("Unexpected value type in payload: TransactItems");
	c = items->val.binary.data;
	if (JsonContainerSize(c) == 0)
	{
		Add(v, ECHO_VALUE, "[]", "transactItems", "Member must have length greater than or equal to 1");
		return;
	}
	if (JsonContainerSize(c) <= HROE_TRANSACT_MAX)
		return;
	initStringInfo(&echo);
	appendStringInfoChar(&echo, '[');
	it = JsonbIteratorInit(c);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		if (tok == WJB_ELEM)
		{
			appendStringInfoString(&echo, first ? "" : ", ");
			first = false;
			if (e.type == jbvBinary)
				AppendJavaObject(&echo, write ? "TransactWriteItem" : "TransactGetItem", &counter);
			else
				appendStringInfoString(&echo, "null");
		}
	appendStringInfoChar(&echo, ']');
	Add(v, ECHO_VALUE, echo.data, "transactItems",
		psprintf("Member must have length less than or equal to %d", HROE_TRANSACT_MAX));
}

/* TransactWriteItems, TransactGetItems (write false) */
static void
ValidateTransact(JsonbContainer *req, Violations *v, bool write)
{
	CheckReturnEnums(req, v, write);
	CheckTransactItems(req, v, write);
}

/*
 * CreateTable, DescribeTable, DeleteTable, UpdateTable: the table's name is
 * required (DynamoDB's sentence, not a constraint), then a name; the rest
 * of their members are api_ddl.c's.  CreateTable reports the name's pattern
 * and length as constraints, together with its other members' violations
 * (api_ddl.c's CheckCreateMembers, as recorded by
 * nubo-db/dynamodb-conformance); the others report the length in a sentence
 * of its own, before the pattern (as dynalite recorded it).
 */
static void
CheckTableOperationName(JsonbContainer *req, Violations *v, bool create)
{
	int			len;
	const char *name = MemberBytes(req, "TableName", &len);

	if (name == NULL)
		hroe_api_invalid("The parameter 'TableName' is required but was not present in the request");
	/*
	 * CreateTable reports the name's constraints with its other members'
	 * (api_ddl.c), but for a name holding U+0000, which it cannot read
	 */
	if (create)
	{
		if (memchr(name, '\0', len) != NULL)
			CheckName(v, name, len, "tableName");
		return;
	}
	if (len < HROE_TABLE_NAME_MIN || len > HROE_TABLE_NAME_MAX)
		hroe_api_invalid(psprintf("TableName must be at least %d characters long and at most %d characters long",
								  HROE_TABLE_NAME_MIN, HROE_TABLE_NAME_MAX));
	CheckName(v, name, len, "tableName");
}

/* ---------- expression and non-expression parameters ---------- */

/*
 * An operation's expression parameters and the legacy parameters they
 * replace: a request may not give both kinds (NULL-terminated lists)
 */
typedef struct ParamKinds
{
	const char *expressions[4];
	const char *legacy[5];
} ParamKinds;

static const ParamKinds get_params = {{"ProjectionExpression"}, {"AttributesToGet"}};
/*
 * (ConditionalOperator is a non-expression parameter of the writes too, as
 * of Query and Scan, whose lists are recorded: else a ConditionExpression
 * beside it would be accepted with the operator silently ignored)
 */
static const ParamKinds write_params = {{"ConditionExpression"}, {"Expected", "ConditionalOperator"}};
static const ParamKinds update_params = {{"UpdateExpression", "ConditionExpression"},
{"AttributeUpdates", "Expected", "ConditionalOperator"}};
static const ParamKinds query_params = {{"ProjectionExpression", "FilterExpression", "KeyConditionExpression"},
{"AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"}};
static const ParamKinds scan_params = {{"ProjectionExpression", "FilterExpression"},
{"AttributesToGet", "ScanFilter", "ConditionalOperator"}};

/*
 * The parameters of each kind that parts (n of them: a request, or each
 * table's entry of a BatchGetItem) give, and DynamoDB's refusal of the
 * request if it mixes them, naming both kinds as given
 */
static void
CheckParamKinds(JsonbContainer **parts, int n, const ParamKinds *k)
{
	StringInfoData expr;
	StringInfoData legacy;

	initStringInfo(&expr);
	initStringInfo(&legacy);
	for (int i = 0; i < lengthof(k->expressions) && k->expressions[i]; i++)
		for (int p = 0; p < n; p++)
			if (hroe_api_member(parts[p], k->expressions[i]))
			{
				appendStringInfo(&expr, "%s%s", expr.len ? ", " : "", k->expressions[i]);
				break;
			}
	if (expr.len == 0)
		return;
	for (int i = 0; i < lengthof(k->legacy) && k->legacy[i]; i++)
		for (int p = 0; p < n; p++)
		{
			/* KeyConditions beside a FilterExpression only: the key condition's own error */
			if (strcmp(k->legacy[i], "KeyConditions") == 0 &&
				hroe_api_member(parts[p], "KeyConditionExpression") == NULL)
				continue;
			if (hroe_api_member(parts[p], k->legacy[i]))
			{
				appendStringInfo(&legacy, "%s%s", legacy.len ? ", " : "", k->legacy[i]);
				break;
			}
		}
	if (legacy.len)
		hroe_api_invalid(psprintf("Can not use both expression and non-expression parameters in the same request: Non-expression parameters: {%s} Expression parameters: {%s}",
								  legacy.data, expr.data));
}

/*
 * BatchGetItem: its tables' entries together, as one request (a
 * ProjectionExpression for one table and AttributesToGet for another mix
 * them too)
 */
static void
CheckBatchGetParamKinds(JsonbContainer *req)
{
	JsonbValue *items = hroe_api_member(req, "RequestItems");
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	JsonbContainer **parts;
	int			n = 0;

	if (items == NULL || items->type != jbvBinary || !JsonContainerIsObject(items->val.binary.data))
		return;
	parts = palloc(sizeof(JsonbContainer *) * (JsonContainerSize(items->val.binary.data) + 1));
	it = JsonbIteratorInit(items->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		if (tok == WJB_VALUE && v.type == jbvBinary && JsonContainerIsObject(v.val.binary.data))
			parts[n++] = v.val.binary.data;
	CheckParamKinds(parts, n, &get_params);
}

/*
 * The operations this pass knows, by name: the check of their members (given
 * flag), and the kinds of parameters they may not mix (NULL if none)
 */
static const struct
{
	const char *op;
	void		(*validate) (JsonbContainer *req, Violations *v, bool flag);
	bool		flag;
	const ParamKinds *params;
}			validators[] = {
	{"GetItem", ValidateGetItem, false, &get_params},
	{"PutItem", ValidatePutDelete, true, &write_params},
	{"DeleteItem", ValidatePutDelete, false, &write_params},
	{"UpdateItem", ValidateUpdateItem, false, &update_params},
	{"Query", ValidateRead, true, &query_params},
	{"Scan", ValidateRead, false, &scan_params},
	{"BatchGetItem", ValidateBatch, false, NULL},
	{"BatchWriteItem", ValidateBatch, true, NULL},
	{"TransactWriteItems", ValidateTransact, true, NULL},
	{"TransactGetItems", ValidateTransact, false, NULL},
	{"CreateTable", CheckTableOperationName, true, NULL},
	{"DescribeTable", CheckTableOperationName, false, NULL},
	{"DeleteTable", CheckTableOperationName, false, NULL},
	{"UpdateTable", CheckTableOperationName, false, NULL},
};

/*
 * Validate the members of a request to op (api_internal.h): DynamoDB's
 * ValidationException with every violation, before the operation runs
 */
void
hroe_api_validate(const char *op, JsonbContainer *req)
{
	Violations	v;

	for (int i = 0; i < lengthof(validators); i++)
		if (strcmp(op, validators[i].op) == 0)
		{
			initStringInfo(&v.text);
			v.n = 0;
			validators[i].validate(req, &v, validators[i].flag);
			Raise(&v);
			/* then the requests DynamoDB refuses whole */
			if (validators[i].params)
				CheckParamKinds(&req, 1, validators[i].params);
			else if (strcmp(op, "BatchGetItem") == 0)
				CheckBatchGetParamKinds(req);
			return;
		}
}
