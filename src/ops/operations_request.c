/*-------------------------------------------------------------------------
 *
 * operations_request.c
 *	  What every operation checks of its request before it runs, and the
 *	  call's error payload it fills (operations.h): the expression
 *	  parameters parsed with one set of placeholders, the table named, the
 *	  key given, ReturnValues, ReturnConsumedCapacity,
 *	  ReturnValuesOnConditionCheckFailure and ReturnItemCollectionMetrics,
 *	  each with DynamoDB's error.
 *
 * The operations themselves (operations*.c, transactions.c) call these, as
 * do the callers that build their requests (the JSON API, PartiQL, the SQL
 * functions): so they live in the operations layer, the lowest that uses
 * them, and not in the JSON API above it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"

#include "operations_internal.h"
#include "policy.h"

/* ---------- the call's error payload ---------- */

/*
 * Name the request's table (len bytes) the call (NULL: none) is about to
 * access, or none (NULL): the resource of an AccessDeniedException.  A
 * copy, since the request's strings do not outlive the call's
 * subtransaction; a name too long for any table is cut at a character
 * boundary.
 */
void
hroe_call_resource(HroeCall *call, const char *table, int len)
{
	if (call == NULL)
		return;
	if (table == NULL)
		len = 0;
	else if (len >= (int) sizeof(call->resource))
		len = pg_mbcliplen(table, len, sizeof(call->resource) - 1);
	if (len > 0)
		memcpy(call->resource, table, len);
	call->resource[len] = '\0';
	/* the operation's action on it, as its policy allows (a batch's tables) */
	if (call->action && len > 0)
		hroe_policy_check(call->action, call->resource, NULL, NULL);
}

/*
 * The IAM action (without "dynamodb:") of each operation, as a
 * resource-based policy names it: the one table of them.  An operation not
 * listed is its own action (BatchGetItem, CreateTable, DescribeStream,
 * TagResource, PutResourcePolicy, ...).  PartiQL's statements run these
 * operations (partiql_api.c) and are IAM's PartiQL actions; a transaction
 * has no action of its own, each of its items is checked for its own
 * (transactions.c: ConditionCheckItem, PutItem, UpdateItem, DeleteItem,
 * GetItem).
 */
static const struct
{
	const char *operation;
	const char *action;			/* NULL: each item's own */
	const char *partiql;		/* run for a PartiQL statement */
}			iam_actions[] = {
	{"GetItem", "GetItem", "PartiQLSelect"},
	{"Query", "Query", "PartiQLSelect"},
	{"Scan", "Scan", "PartiQLSelect"},
	{"ConditionCheckItem", "ConditionCheckItem", "PartiQLSelect"},
	{"PutItem", "PutItem", "PartiQLInsert"},
	{"UpdateItem", "UpdateItem", "PartiQLUpdate"},
	{"DeleteItem", "DeleteItem", "PartiQLDelete"},
	{"TransactWriteItems", NULL, NULL},
	{"TransactGetItems", NULL, NULL},
};

/* The IAM action of operation (partiql: run for a PartiQL statement) */
const char *
hroe_iam_action(const char *operation, bool partiql)
{
	for (int i = 0; i < lengthof(iam_actions); i++)
		if (strcmp(operation, iam_actions[i].operation) == 0)
			return partiql ? iam_actions[i].partiql : iam_actions[i].action;
	return operation;
}

/*
 * The request's principal may run action on table (its index or its
 * stream; NULL: the table) as far as the table's resource-based policy says: else DynamoDB's
 * AccessDeniedException (policy.h)
 */
void
hroe_call_authorize(HroeCall *call, const char *action, const char *table, const char *index,
					const char *stream_label)
{
	if (call == NULL || action == NULL || table == NULL)
		return;
	hroe_policy_check(action, table, index, stream_label);
}

/* ---------- request parameters ---------- */

/*
 * Parse the expression parameters of a request (or of one transaction
 * action) with one set of placeholders, and check that every placeholder is
 * used.  allowed: the HROE_EXPR_* the operation takes (the others are
 * absent).
 */
void
hroe_exprs_parse(const HroeExprParams *p, int allowed, HroeRequestExprs *e)
{
	bool		any = p->condition || p->update || p->filter || p->projection ||
		p->key_condition;

	memset(e, 0, sizeof(HroeRequestExprs));
	if (p->names && !any)
		HroeValidation("ExpressionAttributeNames can only be specified when using expressions");
	if (p->values && !p->condition && !p->update && !p->filter && !p->key_condition)
	{
		/* DynamoDB names the value-taking expressions of the operation */
		const char *which = (allowed & HROE_EXPR_UPDATE) ? "UpdateExpression and ConditionExpression are null"
			: (allowed & HROE_EXPR_KEY_CONDITION) ? "KeyConditionExpression and FilterExpression are null"
			: (allowed & HROE_EXPR_CONDITION) ? "ConditionExpression is null"
			: (allowed & HROE_EXPR_FILTER) ? "FilterExpression is null" : NULL;

		if (which)
			HroeValidation(psprintf("ExpressionAttributeValues can only be specified when using expressions: %s",
									which));
	}
	if (!any)
		return;
	e->cxt = hroe_expr_context_create(p->names, p->values);
	if (p->key_condition)
		e->key_condition = hroe_expr_parse(e->cxt, "KeyConditionExpression", p->key_condition);
	if (p->update)
		e->update = hroe_update_parse(e->cxt, p->update);
	if (p->condition)
		e->condition = hroe_expr_parse(e->cxt, "ConditionExpression", p->condition);
	if (p->filter)
		e->filter = hroe_expr_parse(e->cxt, "FilterExpression", p->filter);
	if (p->projection)
		e->projection = hroe_projection_parse(e->cxt, p->projection);
	hroe_expr_check_unused(e->cxt);
}

/* The table named in a request, or DynamoDB's errors */
HroeTableMeta *
hroe_request_table(const char *name)
{
	HroeTableMeta *t;

	if (name == NULL)
		hroe_missing_member("tableName");
	t = hroe_table_lookup(name, true);
	if (t == NULL)
		HroeResourceNotFound();
	return t;
}

/* E17 unless ReturnValues is NONE or ALL_OLD (Put/Delete); true for ALL_OLD */
bool
hroe_check_return_old(const char *rv)
{
	if (rv == NULL || strcmp(rv, "NONE") == 0)
		return false;
	if (strcmp(rv, "ALL_OLD") == 0)
		return true;
	if (strcmp(rv, "ALL_NEW") == 0 || strcmp(rv, "UPDATED_OLD") == 0 ||
		strcmp(rv, "UPDATED_NEW") == 0)
		HroeValidation("ReturnValues can only be ALL_OLD or NONE");
	HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RETURN_VALUES "]",
							rv));
	return false;
}

/* Validate ReturnConsumedCapacity before doing any work */
void
hroe_check_return_cc(const char *rcc)
{
	if (rcc && strcmp(rcc, "NONE") != 0 && strcmp(rcc, "TOTAL") != 0 &&
		strcmp(rcc, "INDEXES") != 0)
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RETURN_CC "]",
								rcc));
}

/*
 * Put/Delete ReturnValues, first check (E17: an UpdateItem value); the rest
 * of the enum is checked with the write (hroe_check_return_old).  NULL:
 * NONE.
 */
const char *
hroe_check_write_return_values(const char *rv)
{
	if (rv == NULL)
		return "NONE";
	if (strcmp(rv, "ALL_NEW") == 0 || strcmp(rv, "UPDATED_OLD") == 0 ||
		strcmp(rv, "UPDATED_NEW") == 0)
		HroeValidation("ReturnValues can only be ALL_OLD or NONE");
	return rv;
}

/* UpdateItem's ReturnValues (NULL: NONE) */
const char *
hroe_check_update_return_values(const char *rv)
{
	if (rv == NULL)
		return "NONE";
	if (strcmp(rv, "NONE") != 0 && strcmp(rv, "ALL_OLD") != 0 && strcmp(rv, "UPDATED_OLD") != 0 &&
		strcmp(rv, "ALL_NEW") != 0 && strcmp(rv, "UPDATED_NEW") != 0)
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnValues' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RETURN_VALUES "]",
								rv));
	return rv;
}

/* ReturnValuesOnConditionCheckFailure: NONE or ALL_OLD; true for ALL_OLD */
bool
hroe_check_return_old_on_failure(const char *v)
{
	if (v == NULL || strcmp(v, "NONE") == 0)
		return false;
	if (strcmp(v, "ALL_OLD") != 0)
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnValuesOnConditionCheckFailure' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RETURN_OLD "]",
								v));
	return true;
}

/*
 * ReturnItemCollectionMetrics (PutItem, UpdateItem, DeleteItem,
 * BatchWriteItem, TransactWriteItems): SIZE or NONE.  Item collection
 * metrics exist only for tables with local secondary indexes
 * (hroe_item_collection_metrics; PutItem, UpdateItem and DeleteItem only).
 */
void
hroe_check_item_collection_metrics(const char *ricm)
{
	if (ricm && strcmp(ricm, "SIZE") != 0 && strcmp(ricm, "NONE") != 0)
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnItemCollectionMetrics' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RICM "]",
								ricm));
}

/* ---------- the request's key ---------- */

/* The request key as an item (validated against the schema first) */
HroeItem *
hroe_request_key(HroeTableMeta *t, Jsonb *key, Datum *keys)
{
	HroeAttrValue *vals[2];

	hroe_check_request_key(t, key, keys, vals);
	return HroeItemFromJsonb(key);
}
