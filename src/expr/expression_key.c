/*-------------------------------------------------------------------------
 *
 * expression_key.c
 *	  KeyConditionExpression: the key conditions of a Query matched to a
 *	  table's or an index's key schema (E12, E13), and their SQL interface.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/base64.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "expression_internal.h"

/* ---------- KeyConditionExpression ---------- */

/* The operator's name as DynamoDB writes it in an expression */
const char *
hroe_key_op_name(HroeKeyOp op)
{
	static const char *const names[] = {"=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"};

	return names[op];
}

/*
 * A lower and an upper bound on one attribute (> or >=, then < or <=, either
 * order) as one range: BETWEEN, each bound excluded where it was strict.
 * False (c unchanged) for any other pair.
 */
static bool
MergeBounds(HroeKeyCond *c, const HroeKeyCond *n)
{
	bool		c_lower = c->op == HROE_KEY_GT || c->op == HROE_KEY_GE;
	bool		c_upper = c->op == HROE_KEY_LT || c->op == HROE_KEY_LE;
	bool		n_lower = n->op == HROE_KEY_GT || n->op == HROE_KEY_GE;
	bool		n_upper = n->op == HROE_KEY_LT || n->op == HROE_KEY_LE;
	const HroeKeyCond *lo,
			   *hi;

	if (c_lower && n_upper)
		lo = c, hi = n;
	else if (c_upper && n_lower)
		lo = n, hi = c;
	else
		return false;
	c->exclusive[0] = lo->op == HROE_KEY_GT;
	c->exclusive[1] = hi->op == HROE_KEY_LT;
	c->values[0] = lo->values[0];
	c->values[1] = hi->values[0];
	c->nvalues = 2;
	c->op = HROE_KEY_BETWEEN;
	return true;
}

/*
 * dynalite's checkExpr: one "key op values" condition per attribute, AND
 * only; with bounds, a lower and an upper bound of one attribute make one
 * range (MergeBounds)
 */
static void
KeyCheckExpr(HroeExprNode *n, HroeKeyCondition *kc, bool bounds)
{
	const char *attr = NULL;
	int			attrlen = 0;
	int			attr_ix = 0;
	ListCell   *lc;
	HroeKeyCond cond = {0};
	HroeKeyCond *c = &cond;

	check_stack_depth();
	if (n->kind == HROE_EXPR_OR || n->kind == HROE_EXPR_NOT || n->kind == HROE_EXPR_IN ||
		(n->kind == HROE_EXPR_COMPARE && n->op == HROE_CMP_NE))
		hroe_ex_validation_error(psprintf("Invalid operator used in KeyConditionExpression: %s",
								 n->kind == HROE_EXPR_OR ? "OR" :
								 n->kind == HROE_EXPR_NOT ? "NOT" :
								 n->kind == HROE_EXPR_IN ? "IN" : "<>"));
	if (n->kind == HROE_EXPR_FUNCTION && strcmp(n->funcname, "begins_with") != 0 &&
		strcmp(n->funcname, "size") != 0)
		hroe_ex_validation_error(psprintf("Invalid operator used in KeyConditionExpression: %s", n->funcname));
	if (n->kind == HROE_EXPR_FUNCTION && strcmp(n->funcname, "size") == 0)
		hroe_ex_validation_error("KeyConditionExpressions cannot contain nested operations");
	if ((n->kind == HROE_EXPR_BETWEEN || n->kind == HROE_EXPR_FUNCTION) &&
		((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
		hroe_ex_validation_error(psprintf("Invalid condition in KeyConditionExpression: %s operator must have the key attribute as its first operand",
								 n->kind == HROE_EXPR_BETWEEN ? "BETWEEN" : n->funcname));
	foreach(lc, n->args)
	{
		HroeExprNode *a = lfirst(lc);

		if (a->kind == HROE_EXPR_PATH)
		{
			HroePathElem *head = linitial(a->path);

			if (attr)
				hroe_ex_validation_error("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
			if (list_length(a->path) > 1)
				hroe_ex_validation_error("KeyConditionExpressions cannot have conditions on nested attributes");
			attr = head->name;
			attrlen = head->namelen;
			attr_ix = foreach_current_index(lc);
		}
		else if (a->kind != HROE_EXPR_VALUE)
			KeyCheckExpr(a, kc, bounds);
	}
	if (n->kind == HROE_EXPR_AND)
		return;
	if (attr == NULL)
		hroe_ex_validation_error("Invalid condition in KeyConditionExpression: No key attribute specified");
	c->attr = palloc(attrlen + 1);	/* (the name may hold U+0000) */
	memcpy(c->attr, attr, attrlen);
	c->attr[attrlen] = '\0';
	c->attrlen = attrlen;
	c->nvalues = 0;
	foreach(lc, n->args)
	{
		HroeExprNode *a = lfirst(lc);

		if (a->kind == HROE_EXPR_VALUE)
			c->values[c->nvalues++] = a->value;
	}
	if (n->kind == HROE_EXPR_BETWEEN)
		c->op = HROE_KEY_BETWEEN;
	else if (n->kind == HROE_EXPR_FUNCTION)
		c->op = HROE_KEY_BEGINS_WITH;
	else
	{
		/* ":v < sk" is "sk > :v" */
		static const HroeKeyOp direct[] = {HROE_KEY_EQ, HROE_KEY_EQ, HROE_KEY_LT, HROE_KEY_LE, HROE_KEY_GT, HROE_KEY_GE};
		static const HroeKeyOp flipped[] = {HROE_KEY_EQ, HROE_KEY_EQ, HROE_KEY_GT, HROE_KEY_GE, HROE_KEY_LT, HROE_KEY_LE};

		c->op = attr_ix == 0 ? direct[n->op] : flipped[n->op];
	}
	for (int i = 0; i < kc->nconds; i++)
		if (hroe_names_equal(kc->conds[i].attr, kc->conds[i].attrlen, attr, attrlen))
		{
			if (bounds && MergeBounds(&kc->conds[i], c))
				return;
			hroe_ex_validation_error("KeyConditionExpressions must only contain one condition per key");
		}
	if (kc->nconds == HROE_MAX_KEY_ATTRS)
		hroe_ex_validation_error("Query key condition not supported");
	kc->conds[kc->nconds++] = *c;
}

/*
 * Turn a parsed KeyConditionExpression into per-attribute conditions; bounds
 * (PartiQL's WHERE only) merges a lower and an upper bound of one attribute
 * into a range, which DynamoDB's expressions refuse
 */
void
hroe_key_condition_extract(HroeExprNode *expr, HroeKeyCondition *kc, bool bounds)
{
	memset(kc, 0, sizeof(*kc));
	KeyCheckExpr(expr, kc, bounds);
}

/*
 * Match key conditions to a key schema (a table's, or an index's with up to
 * 4 HASH and 4 RANGE attributes): "=" on every HASH attribute, then a prefix
 * of the RANGE attributes where only the last may be a range condition.
 * Raises E12/E13 with DynamoDB's texts.
 */
void
hroe_key_condition_bind(const HroeKeyCondition *kc, const HroeKeySchema *schema,
						HroeBoundKeyCondition *bound)
{
	int			nmatched = 0;
	int			nkeys = schema->nhash + schema->nrange;

	memset(bound, 0, sizeof(*bound));
	bound->schema = schema;
	for (int i = 0; i < nkeys; i++)
	{
		bool		is_hash = i < schema->nhash;
		const HroeKeyCond *c = NULL;

		if (is_hash && schema->nrange == 0 && kc->nconds > schema->nhash)
			hroe_ex_validation_error("Query key condition not supported");
		for (int j = 0; j < kc->nconds; j++)
			if (hroe_name_is(kc->conds[j].attr, kc->conds[j].attrlen, schema->names[i]))
				c = &kc->conds[j];
		if (c == NULL)
		{
			if (is_hash || kc->nconds > nmatched)
				hroe_ex_validation_error(psprintf("Query condition missed key schema element: %s",
										 schema->names[i]));
			break;
		}
		nmatched++;
		for (int v = 0; v < c->nvalues; v++)
			if (c->values[v]->type[0] != schema->types[i] || c->values[v]->type[1] != '\0')
				hroe_ex_validation_error("One or more parameter values were invalid: Condition parameter type does not match schema type");
		if (c->op != HROE_KEY_EQ && (is_hash || nmatched < kc->nconds))
			hroe_ex_validation_error("Query key condition not supported");
		if (is_hash)
			bound->hash[i] = c->values[0];
		else if (c->op == HROE_KEY_EQ && nmatched < kc->nconds)
			bound->range_eq[bound->nrange_eq++] = c->values[0];
		else
			bound->range_last = (HroeKeyCond *) c;
	}
	if (nmatched < kc->nconds)
	{
		/* a condition on an attribute outside the key schema */
		for (int j = 0; j < kc->nconds; j++)
		{
			bool		found = false;

			for (int i = 0; i < nkeys; i++)
				if (hroe_name_is(kc->conds[j].attr, kc->conds[j].attrlen, schema->names[i]))
					found = true;
			if (!found)
				hroe_ex_validation_error(schema->nrange > 0
								? psprintf("Query condition missed key schema element: %s",
										   schema->names[schema->nhash + Min(nmatched - schema->nhash, schema->nrange - 1)])
								: "Query key condition not supported");
		}
	}
}

/* ---------- SQL interface ---------- */

PG_FUNCTION_INFO_V1(hroe_explain_key_condition);

/*
 * hroe.explain_key_condition(expression, names, values): parse and validate
 * a KeyConditionExpression without a table; one row per key condition.
 */
Datum
hroe_explain_key_condition(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HroeExprContext *cxt;
	HroeExprNode *root;
	HroeKeyCondition kc;

	if (PG_ARGISNULL(0))
		hroe_ex_validation_error("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	cxt = hroe_expr_context_create(PG_ARGISNULL(1) ? NULL : PG_GETARG_JSONB_P(1),
								   PG_ARGISNULL(2) ? NULL : PG_GETARG_JSONB_P(2));
	root = hroe_expr_parse(cxt, "KeyConditionExpression", text_to_cstring(PG_GETARG_TEXT_PP(0)));
	hroe_expr_check_unused(cxt);
	hroe_key_condition_extract(root, &kc, false);

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < kc.nconds; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};
		JsonbParseState *state = NULL;
		JsonbValue *res;

		pushJsonbValue(&state, WJB_BEGIN_ARRAY, NULL);
		for (int v = 0; v < kc.conds[i].nvalues; v++)
		{
			HroeAttrValue *av = kc.conds[i].values[v];
			JsonbValue	jv;

			if (strcmp(av->type, "N") == 0)
			{
				/* numbers are shown normalised, as they will be compared */
				pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
				jv.type = jbvString;
				jv.val.string.val = "N";
				jv.val.string.len = 1;
				pushJsonbValue(&state, WJB_KEY, &jv);
				jv.val.string.val = av->data;
				jv.val.string.len = av->len;
				pushJsonbValue(&state, WJB_VALUE, &jv);
				pushJsonbValue(&state, WJB_END_OBJECT, NULL);
				continue;
			}
			jv.type = jbvBinary;
			jv.val.binary.data = &av->json->root;
			jv.val.binary.len = VARSIZE(av->json) - VARHDRSZ;
			pushJsonbValue(&state, WJB_ELEM, &jv);
		}
		res = pushJsonbValue(&state, WJB_END_ARRAY, NULL);
		values[0] = CStringGetTextDatum(kc.conds[i].attr);
		values[1] = CStringGetTextDatum(hroe_key_op_name(kc.conds[i].op));
		values[2] = JsonbPGetDatum(JsonbValueToJsonb(res));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
