/*-------------------------------------------------------------------------
 *
 * expression_check.c
 *	  The semantic checks of a parsed condition expression, with DynamoDB's
 *	  error texts in dynalite's priority order, and the entry point that
 *	  parses and checks one expression parameter.
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

/* ---------- semantic checks ---------- */

static const char *const CmpSymbols[] = {"=", "<>", "<", "<=", ">", ">="};

/* "[a, b, [2]]": a path as DynamoDB prints it in messages */
char *
hroe_ex_path_text(List *path)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	foreach(lc, path)
	{
		HroePathElem *e = lfirst(lc);

		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, ", ");
		if (e->is_index)
			appendStringInfo(&buf, "[%d]", e->index);
		else if (e->name)
			hroe_append_message_bytes(&buf, e->name, e->namelen);
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/* Are two nodes the same document path (after substitution)? */
static bool
SamePath(HroeExprNode *a, HroeExprNode *b)
{
	ListCell   *la,
			   *lb;

	if (a->kind != HROE_EXPR_PATH || b->kind != HROE_EXPR_PATH ||
		list_length(a->path) != list_length(b->path))
		return false;
	forboth(la, a->path, lb, b->path)
	{
		HroePathElem *x = lfirst(la),
				   *y = lfirst(lb);

		if (x->is_index != y->is_index)
			return false;
		if (x->is_index ? x->index != y->index
			: (x->name == NULL || y->name == NULL ||
			   !hroe_names_equal(x->name, x->namelen, y->name, y->namelen)))
			return false;
	}
	return true;
}

/* Two operands that are the same path are an error (a = a) */
static void
CheckDistinct(SemErrors *e, const char *name, HroeExprNode *x, HroeExprNode *y)
{
	if (e->distinct == NULL && SamePath(x, y))
		e->distinct = psprintf("The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s",
							   name, hroe_ex_path_text(x->path));
}

/* A function other than size() used as an operand is misplaced. */
static void
CheckMisusedFunction(SemErrors *e, List *args)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		HroeExprNode *a = lfirst(lc);

		if (e->misused_function == NULL && a->kind == HROE_EXPR_FUNCTION &&
			strcmp(a->funcname, "size") != 0)
			e->misused_function = psprintf("The function is not allowed to be used this way in an expression; function: %s",
										   a->funcname);
	}
}

/* size() used where a condition is expected is misplaced. */
static void
CheckMisusedSize(SemErrors *e, HroeExprNode *n)
{
	if (e->misused_function == NULL && n->kind == HROE_EXPR_FUNCTION &&
		strcmp(n->funcname, "size") == 0)
		e->misused_function = "The function is not allowed to be used this way in an expression; function: size";
}

/* The type a node is known to have: a value's type or a function's result. */
static const char *
NodeType(HroeExprNode *n, const char *functype)
{
	if (n->kind == HROE_EXPR_VALUE && n->value)
		return n->value->type;
	if (n->kind == HROE_EXPR_FUNCTION)
		return functype;
	return NULL;
}

static const char *CheckNode(HroeExprContext *cxt, SemErrors *e, HroeExprNode *n);

/*
 * Only S, N and B are ordered: DynamoDB refuses a value of another type
 * (a set, a list, a map, BOOL, NULL) as an operand of < <= > >= or BETWEEN.
 * A path is not checked: an attribute of another type compares false.
 */
static void
CheckOrderable(SemErrors *e, const char *op, List *args)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		HroeExprNode *a = lfirst(lc);
		const char *t = a->kind == HROE_EXPR_VALUE && a->value ? a->value->type : NULL;

		if (e->function == NULL && t &&
			strcmp(t, "S") != 0 && strcmp(t, "N") != 0 && strcmp(t, "B") != 0)
			e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
								   op, t);
	}
}

/* checkFunction of dynalite: arity, distinct operands, operand types. */
static const char *
CheckFunction(SemErrors *e, HroeExprNode *n, const char **argtypes)
{
	static const struct
	{
		const char *name;
		int			nargs;
	}			funcs[] = {
		{"attribute_exists", 1}, {"attribute_not_exists", 1},
		{"attribute_type", 2}, {"begins_with", 2}, {"contains", 2}, {"size", 1}
	};
	int			nargs = -1;
	int			given = list_length(n->args);
	const char *name = n->funcname;

	for (int i = 0; i < lengthof(funcs); i++)
		if (strcmp(name, funcs[i].name) == 0)
			nargs = funcs[i].nargs;
	if (nargs < 0)
	{
		if (e->unknown_function == NULL)
			e->unknown_function = psprintf("Invalid function name; function: %s", name);
		return NULL;
	}
	if (e->operand)
		return NULL;
	if (nargs != given)
	{
		e->operand = psprintf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d",
							  name, given);
		return NULL;
	}
	if (given == 2)
		CheckDistinct(e, name, linitial(n->args), lsecond(n->args));
	if (e->function)
		return NULL;
	if (strcmp(name, "attribute_exists") == 0 || strcmp(name, "attribute_not_exists") == 0)
	{
		if (((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
			e->function = psprintf("Operator or function requires a document path; operator or function: %s", name);
		return "BOOL";
	}
	if (strcmp(name, "begins_with") == 0)
	{
		for (int i = 0; i < given; i++)
		{
			const char *t = argtypes[i];

			if (t && strcmp(t, "S") != 0 && strcmp(t, "B") != 0)
			{
				e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
									   name, t);
				return NULL;
			}
		}
		return "BOOL";
	}
	if (strcmp(name, "attribute_type") == 0)
	{
		const char *t = argtypes[1];
		HroeExprNode *arg = lsecond(n->args);
		bool		valid = false;

		if (t == NULL || strcmp(t, "S") != 0)
		{
			e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
								   name, t ? t : "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}");
			return NULL;
		}
		for (int i = 0; i < lengthof(hroe_ex_attr_types); i++)
			if (strcmp(arg->value->data, hroe_ex_attr_types[i]) == 0)
				valid = true;
		if (!valid)
		{
			e->function = psprintf("Invalid attribute type name found; type: %s, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
								   arg->value->data);
			return NULL;
		}
		return "BOOL";
	}
	if (strcmp(name, "size") == 0)
	{
		const char *t = argtypes[0];

		if (t && (strcmp(t, "N") == 0 || strcmp(t, "BOOL") == 0 || strcmp(t, "NULL") == 0))
		{
			e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
								   name, t);
			return NULL;
		}
		return "N";
	}
	return "BOOL";				/* contains */
}

/* Check the operands of a comparison, BETWEEN, IN or function call. */
static const char **
CheckOperands(HroeExprContext *cxt, SemErrors *e, List *args)
{
	const char **types = palloc0(sizeof(char *) * Max(list_length(args), 1));
	ListCell   *lc;

	foreach(lc, args)
	{
		HroeExprNode *a = lfirst(lc);
		const char *ft = CheckNode(cxt, e, a);

		types[foreach_current_index(lc)] = NodeType(a, ft);
	}
	CheckMisusedFunction(e, args);
	return types;
}

/* Resolve a #name placeholder into pe, marking it used. */
static void
ResolveName(HroeExprContext *cxt, SemErrors *e, HroePathElem *pe)
{
	const char *ph = pe->placeholder;

	pe->name = NULL;
	if (e->attr_name_val)
		return;
	for (int i = 0; i < cxt->nnames; i++)
		if (strcmp(cxt->name_keys[i], ph) == 0)
		{
			cxt->name_used[i] = true;
			pe->name = cxt->name_values[i];
			pe->namelen = cxt->name_lens[i];
			return;
		}
	e->attr_name_val = psprintf("An expression attribute name used in the document path is not defined; attribute name: %s", ph);
}

/* Resolve a :value placeholder, marking it used. */
static HroeAttrValue *
ResolveValue(HroeExprContext *cxt, SemErrors *e, const char *ph)
{
	if (e->attr_name_val)
		return NULL;
	for (int i = 0; i < cxt->nvalues; i++)
		if (strcmp(cxt->value_keys[i], ph) == 0)
		{
			cxt->value_used[i] = true;
			return cxt->values[i];
		}
	e->attr_name_val = psprintf("An expression attribute value used in expression is not defined; attribute value: %s", ph);
	return NULL;
}

/*
 * Check one node (children first, as dynalite's parser actions run), resolve
 * its placeholders; return a function node's result type.
 */
static const char *
CheckNode(HroeExprContext *cxt, SemErrors *e, HroeExprNode *n)
{
	ListCell   *lc;
	const char **types;

	check_stack_depth();
	if (n->parens >= 2 && e->parens == NULL)
		e->parens = "The expression has redundant parentheses;";
	switch (n->kind)
	{
		case HROE_EXPR_AND:
		case HROE_EXPR_OR:
		case HROE_EXPR_NOT:
			foreach(lc, n->args)
			{
				CheckNode(cxt, e, lfirst(lc));
				CheckMisusedSize(e, lfirst(lc));
			}
			return NULL;
		case HROE_EXPR_COMPARE:
			CheckOperands(cxt, e, n->args);
			CheckDistinct(e, CmpSymbols[n->op], linitial(n->args), lsecond(n->args));
			if (n->op != HROE_CMP_EQ && n->op != HROE_CMP_NE)
				CheckOrderable(e, CmpSymbols[n->op], n->args);
			return NULL;
		case HROE_EXPR_BETWEEN:
			{
				HroeExprNode *lo = lsecond(n->args),
						   *hi = lthird(n->args);

				CheckOperands(cxt, e, n->args);
				CheckOrderable(e, "BETWEEN", n->args);
				if (e->function == NULL &&
					lo->kind == HROE_EXPR_VALUE && lo->value &&
					hi->kind == HROE_EXPR_VALUE && hi->value)
				{
					if (strcmp(lo->value->type, hi->value->type) != 0)
						e->function = psprintf("The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
											   lo->value->type, hroe_ex_attr_value_text(lo->value),
											   hi->value->type, hroe_ex_attr_value_text(hi->value));
					else if (hroe_attr_value_compare(lo->value, hi->value) > 0)
						e->function = psprintf("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
											   lo->value->type, hroe_ex_attr_value_text(lo->value),
											   hi->value->type, hroe_ex_attr_value_text(hi->value));
				}
				return NULL;
			}
		case HROE_EXPR_IN:
			CheckOperands(cxt, e, n->args);
			if (list_length(n->args) - 1 > HROE_EXPR_MAX_IN_OPERANDS && e->operand == NULL)
				e->operand = psprintf("Too many operands for operator or function; operator or function: IN, number of operands: %d, maximum: %d",
									  list_length(n->args) - 1, HROE_EXPR_MAX_IN_OPERANDS);
			return NULL;
		case HROE_EXPR_FUNCTION:
			types = CheckOperands(cxt, e, n->args);
			return CheckFunction(e, n, types);
		case HROE_EXPR_PATH:
			foreach(lc, n->path)
			{
				HroePathElem *pe = lfirst(lc);

				if (pe->is_index)
					continue;
				if (pe->placeholder)
					ResolveName(cxt, e, pe);
				else if (e->reserved == NULL && hroe_is_reserved_word(pe->name))
					e->reserved = psprintf("Attribute name is a reserved keyword; reserved keyword: %s", pe->name);
			}
			return NULL;
		case HROE_EXPR_VALUE:
			n->value = ResolveValue(cxt, e, n->valname);
			return NULL;
	}
	return NULL;
}

/*
 * Parse and check one expression parameter (param names it in messages,
 * e.g. "KeyConditionExpression").  Placeholders used are marked in cxt.
 */
HroeExprNode *
hroe_expr_parse(HroeExprContext *cxt, const char *param, const char *expr)
{
	Parser		p;
	HroeExprNode *root;
	SemErrors	e;
	const char *first = NULL;
	const char *order[8];

	memset(&p, 0, sizeof(p));
	p.cxt = cxt;
	p.param = param;
	p.src = expr;
	p.srclen = strlen(expr);
	p.err_pos = -1;
	if (p.srclen == 0)
		hroe_ex_validation_error(psprintf("Invalid %s: The expression can not be empty;", param));
	if (p.srclen > HROE_EXPR_MAX_BYTES)
		hroe_ex_validation_error(psprintf("Invalid %s: Expression size has exceeded the maximum allowed size; expression size: %d",
								 param, p.srclen));
	hroe_ex_tokenize(&p);
	root = hroe_ex_parse_or(&p);
	if (root == NULL || hroe_ex_peek(&p) != T_EOF)
	{
		hroe_ex_fail(&p);
		hroe_ex_syntax_error(&p, p.err_pos);
	}
	if (p.noperators > HROE_EXPR_MAX_OPERATORS)
		hroe_ex_validation_error(psprintf("Invalid %s: The expression contains too many operators; operator count: %d",
								 param, p.noperators));

	memset(&e, 0, sizeof(e));
	CheckNode(cxt, &e, root);
	CheckMisusedSize(&e, root);
	order[0] = e.parens;
	order[1] = e.unknown_function;
	order[2] = e.misused_function;
	order[3] = e.reserved;
	order[4] = e.attr_name_val;
	order[5] = e.operand;
	order[6] = e.distinct;
	order[7] = e.function;
	for (int i = 0; i < lengthof(order) && first == NULL; i++)
		first = order[i];
	if (first)
		hroe_ex_validation_error(psprintf("Invalid %s: %s", param, first));
	return root;
}
