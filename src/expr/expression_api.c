/*-------------------------------------------------------------------------
 *
 * expression_api.c
 *	  SQL interface of DynamoDB expressions over hroe.item values:
 *	  hroe.condition_matches, hroe.apply_update, hroe.project.
 *
 * They are pure functions of their arguments (no table); the operations on
 * tables call the same C code (expression_*.c, expression_update.c,
 * expression_project.c).  Placeholder maps are jsonb in DynamoDB JSON, as in a
 * request: names {"#n": "name"}, values {":v": {"S": "x"}}.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/memutils.h"

#include "expression.h"
#include "item.h"

PG_FUNCTION_INFO_V1(hroe_condition_matches);
PG_FUNCTION_INFO_V1(hroe_check_condition);
PG_FUNCTION_INFO_V1(hroe_apply_update);
PG_FUNCTION_INFO_V1(hroe_project_item);
PG_FUNCTION_INFO_V1(hroe_updated_attributes);

/* DynamoDB's error for placeholder maps given without an expression */
static void
CheckNoPlaceholders(FunctionCallInfo fcinfo, int names_arg, int values_arg)
{
	if (names_arg >= 0 && !PG_ARGISNULL(names_arg))
		ereport(ERROR,
				(errcode(ERRCODE_HROE_VALIDATION),
				 errmsg("ExpressionAttributeNames can only be specified when using expressions"),
				 errdetail("DynamoDB ValidationException.")));
	if (values_arg >= 0 && !PG_ARGISNULL(values_arg))
		ereport(ERROR,
				(errcode(ERRCODE_HROE_VALIDATION),
				 errmsg("ExpressionAttributeValues can only be specified when using expressions"),
				 errdetail("DynamoDB ValidationException.")));
}

/* Placeholder maps of arguments names_arg and values_arg (-1: none) */
static HroeExprContext *
MakeContext(FunctionCallInfo fcinfo, int names_arg, int values_arg)
{
	return hroe_expr_context_create(
		names_arg >= 0 && !PG_ARGISNULL(names_arg) ? PG_GETARG_JSONB_P(names_arg) : NULL,
		values_arg >= 0 && !PG_ARGISNULL(values_arg) ? PG_GETARG_JSONB_P(values_arg) : NULL);
}

/*
 * A parsed expression kept across calls of one function call site
 * (fn_extra), with the argument bytes it was parsed from: in a query
 * applying one expression to many items, parsing happens once.
 */
typedef struct ExprCache
{
	struct varlena *args[3];	/* expression, names, values (copies) */
	void	   *parsed;			/* condition tree, update or projection */
	MemoryContext mcxt;			/* holds all of the above */
} ExprCache;

/* Whether argument i of the call equals the cached copy */
static bool
CacheArgMatches(FunctionCallInfo fcinfo, int argno, struct varlena *cached)
{
	struct varlena *v;

	if (argno < 0 || PG_ARGISNULL(argno))
		return cached == NULL;
	if (cached == NULL)
		return false;
	v = PG_GETARG_VARLENA_PP(argno);
	return VARSIZE_ANY_EXHDR(v) == VARSIZE_ANY_EXHDR(cached) &&
		memcmp(VARDATA_ANY(v), VARDATA_ANY(cached), VARSIZE_ANY_EXHDR(v)) == 0;
}

/* The cached parse of this call's arguments, or NULL */
static void *
CacheLookup(FunctionCallInfo fcinfo, int expr_arg, int names_arg, int values_arg)
{
	ExprCache  *c = fcinfo->flinfo->fn_extra;

	if (c == NULL || !CacheArgMatches(fcinfo, expr_arg, c->args[0]) ||
		!CacheArgMatches(fcinfo, names_arg, c->args[1]) ||
		!CacheArgMatches(fcinfo, values_arg, c->args[2]))
		return NULL;
	return c->parsed;
}

/*
 * Start parsing into a new memory context (each parse gets its own, freed
 * when a later call replaces it); returns the caller's context, to switch
 * back to before CacheStore.  The context hangs under the call's context
 * until CacheStore moves it to fn_mcxt, so a parse that fails goes with the
 * call instead of staying attached to the function.
 */
static MemoryContext
CacheBegin(FunctionCallInfo fcinfo)
{
	return MemoryContextSwitchTo(AllocSetContextCreate(CurrentMemoryContext,
													   "hroe expression",
													   ALLOCSET_SMALL_SIZES));
}

/*
 * Remember a parse made in the context CacheBegin created (current until
 * now), with copies of its arguments; the previous parse is freed.
 */
static void
CacheStore(FunctionCallInfo fcinfo, MemoryContext caller, int expr_arg,
		   int names_arg, int values_arg, void *parsed)
{
	MemoryContext mcxt = CurrentMemoryContext;
	ExprCache  *c = palloc0(sizeof(ExprCache));
	ExprCache  *prev = fcinfo->flinfo->fn_extra;
	int			argnos[3] = {expr_arg, names_arg, values_arg};

	for (int i = 0; i < 3; i++)
		if (argnos[i] >= 0 && !PG_ARGISNULL(argnos[i]))
			c->args[i] = (struct varlena *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(argnos[i]));
	c->parsed = parsed;
	c->mcxt = mcxt;
	MemoryContextSetParent(mcxt, fcinfo->flinfo->fn_mcxt);
	MemoryContextSwitchTo(caller);
	fcinfo->flinfo->fn_extra = c;
	if (prev)
		MemoryContextDelete(prev->mcxt);
}

/*
 * hroe.condition_matches(item, condition, names, values): whether a
 * ConditionExpression holds for the item; a NULL item is a missing item
 * (every path absent), a NULL condition is no condition (true).
 */
Datum
hroe_condition_matches(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_ARGISNULL(0) ? NULL : PG_GETARG_HROE_ITEM_P(0);
	HroeExprContext *cxt;
	HroeExprNode *root;

	if (PG_ARGISNULL(1))
	{
		CheckNoPlaceholders(fcinfo, 2, 3);
		PG_RETURN_BOOL(true);
	}
	if ((root = CacheLookup(fcinfo, 1, 2, 3)) == NULL)
	{
		MemoryContext old = CacheBegin(fcinfo);

		cxt = MakeContext(fcinfo, 2, 3);
		root = hroe_expr_parse(cxt, "ConditionExpression", text_to_cstring(PG_GETARG_TEXT_PP(1)));
		hroe_expr_check_unused(cxt);
		CacheStore(fcinfo, old, 1, 2, 3, root);
	}
	PG_RETURN_BOOL(hroe_expr_eval(root, item));
}

/*
 * hroe.check_condition(item, condition, names, values): raise DynamoDB's
 * ConditionalCheckFailedException unless the condition holds, as a write
 * guarded by a ConditionExpression does; NULL item and condition as in
 * hroe.condition_matches.
 */
Datum
hroe_check_condition(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_ARGISNULL(0) ? NULL : PG_GETARG_HROE_ITEM_P(0);
	HroeExprNode *root;

	if (PG_ARGISNULL(1))
	{
		CheckNoPlaceholders(fcinfo, 2, 3);
		PG_RETURN_VOID();
	}
	if ((root = CacheLookup(fcinfo, 1, 2, 3)) == NULL)
	{
		MemoryContext old = CacheBegin(fcinfo);
		HroeExprContext *cxt = MakeContext(fcinfo, 2, 3);

		root = hroe_expr_parse(cxt, "ConditionExpression", text_to_cstring(PG_GETARG_TEXT_PP(1)));
		hroe_expr_check_unused(cxt);
		CacheStore(fcinfo, old, 1, 2, 3, root);
	}
	hroe_condition_check(root, item);
	PG_RETURN_VOID();
}

/*
 * hroe.apply_update(item, update, names, values, key_attributes): the item
 * after an UpdateExpression; a NULL item is a missing item (the update
 * starts from no attributes, as UpdateItem's upsert does).
 */
Datum
hroe_apply_update(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_ARGISNULL(0) ? NULL : PG_GETARG_HROE_ITEM_P(0);
	HroeExprContext *cxt;
	HroeUpdateExpr *upd;

	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the update expression must not be NULL")));
	if ((upd = CacheLookup(fcinfo, 1, 2, 3)) == NULL)
	{
		MemoryContext old = CacheBegin(fcinfo);

		cxt = MakeContext(fcinfo, 2, 3);
		upd = hroe_update_parse(cxt, text_to_cstring(PG_GETARG_TEXT_PP(1)));
		hroe_expr_check_unused(cxt);
		CacheStore(fcinfo, old, 1, 2, 3, upd);
	}
	if (!PG_ARGISNULL(4))
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(4);
		Datum	   *elems;
		bool	   *nulls;
		int			n;
		const char **keys;
		int			nkeys = 0;

		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
		keys = palloc(sizeof(char *) * Max(n, 1));
		for (int i = 0; i < n; i++)
			if (!nulls[i])
				keys[nkeys++] = TextDatumGetCString(elems[i]);
		hroe_update_check_keys(upd, keys, nkeys);
	}
	PG_RETURN_HROE_ITEM_P(hroe_update_apply(upd, item, NULL));
}

/*
 * hroe.project(item, projection, names): the attributes of the item that a
 * ProjectionExpression selects; a NULL projection selects everything.
 */
Datum
hroe_project_item(PG_FUNCTION_ARGS)
{
	HroeItem   *item;
	HroeExprContext *cxt;
	List	   *paths;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	item = PG_GETARG_HROE_ITEM_P(0);
	if (PG_ARGISNULL(1))
	{
		CheckNoPlaceholders(fcinfo, 2, -1);
		PG_RETURN_HROE_ITEM_P(item);
	}
	if ((paths = CacheLookup(fcinfo, 1, 2, -1)) == NULL)
	{
		MemoryContext old = CacheBegin(fcinfo);

		cxt = MakeContext(fcinfo, 2, -1);
		paths = hroe_projection_parse(cxt, text_to_cstring(PG_GETARG_TEXT_PP(1)));
		hroe_expr_check_unused(cxt);
		CacheStore(fcinfo, old, 1, 2, -1, paths);
	}
	PG_RETURN_HROE_ITEM_P(hroe_project(paths, item));
}

/*
 * hroe.updated_attributes(item, update, names, values): the attributes of the
 * item at the paths an UpdateExpression touches, as ReturnValues UPDATED_OLD
 * (given the old item) and UPDATED_NEW (given the new one) return them.
 */
Datum
hroe_updated_attributes(PG_FUNCTION_ARGS)
{
	HroeItem   *item;
	HroeUpdateExpr *upd;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	item = PG_GETARG_HROE_ITEM_P(0);
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("the update expression must not be NULL")));
	if ((upd = CacheLookup(fcinfo, 1, 2, 3)) == NULL)
	{
		MemoryContext old = CacheBegin(fcinfo);
		HroeExprContext *cxt = MakeContext(fcinfo, 2, 3);

		upd = hroe_update_parse(cxt, text_to_cstring(PG_GETARG_TEXT_PP(1)));
		hroe_expr_check_unused(cxt);
		CacheStore(fcinfo, old, 1, 2, 3, upd);
	}
	PG_RETURN_HROE_ITEM_P(hroe_project(hroe_update_paths(upd), item));
}
