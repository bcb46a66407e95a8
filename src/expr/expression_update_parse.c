/*-------------------------------------------------------------------------
 *
 * expression_update_parse.c
 *	  The parsers of UpdateExpression and ProjectionExpression (the grammars
 *	  of dynalite's updateParser.pegjs and projectionParser.pegjs).
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

/* ---------- UpdateExpression and ProjectionExpression ---------- */

/*
 * The grammars of dynalite's updateParser.pegjs and projectionParser.pegjs:
 *
 *	  update	 := section { section }
 *	  section	 := SET set { ',' set } | REMOVE path { ',' path }
 *				  | ADD path :value { ',' path :value }
 *				  | DELETE path :value { ',' path :value }
 *	  set		 := path '=' ( '(' setvalue ')' | setvalue )
 *	  setvalue	 := oparens '+' oparens | oparens '-' oparens | oparens
 *	  oparens	 := '(' operand ')' | operand
 *	  operand	 := identifier '(' oparens { ',' oparens } ')' | :value | path
 *	  projection := path { ',' path }
 *
 * SET, REMOVE, ADD and DELETE are case-insensitive and cannot name an
 * attribute.  Semantic errors are collected and reported in dynalite's
 * priority order, as for conditions.
 */

/* First error of each kind of an update or projection expression */
typedef struct UpdErrors
{
	char	   *reserved;
	char	   *unknown_function;
	char	   *section;
	char	   *attr_name;
	char	   *attr_val;
	char	   *path_overlap;
	char	   *path_conflict;
	char	   *operand;
	char	   *function;
} UpdErrors;

typedef struct UpdParser
{
	Parser		p;
	UpdErrors	e;
	bool		update;			/* UpdateExpression (else projection) */
	List	   *paths;			/* paths seen, for the overlap check */
	bool		sections[4];
} UpdParser;

static const char *const UpdSectionNames[] = {"SET", "REMOVE", "ADD", "DELETE"};

/* The update section keyword at token i (HroeUpdateKind), or -1 */
static int
UpdKeyword(UpdParser *u, int i)
{
	Token	   *t = &u->p.toks[i];
	int			end = t->start + t->len;

	if (!u->update || t->type != T_IDENT)
		return -1;
	/* "SET:v" and "SET#n" are not the keyword (dynalite: !AttributePart) */
	if (end < u->p.srclen && (u->p.src[end] == '#' || u->p.src[end] == ':'))
		return -1;
	for (int k = 0; k < lengthof(UpdSectionNames); k++)
		if (strlen(UpdSectionNames[k]) == t->len &&
			pg_strncasecmp(u->p.src + t->start, UpdSectionNames[k], t->len) == 0)
			return k;
	return -1;
}

/* One name of a path: identifier (reserved words refused) or #name */
static HroePathElem *
UpdPathName(UpdParser *u)
{
	Parser	   *p = &u->p;
	Token	   *t = &p->toks[p->pos];
	HroePathElem *e;

	/* AND, OR, NOT, BETWEEN, IN are plain identifiers here (all reserved) */
	if (!(t->type == T_IDENT || t->type == T_NAME || t->type == T_AND ||
		  t->type == T_OR || t->type == T_NOT || t->type == T_BETWEEN ||
		  t->type == T_IN) || UpdKeyword(u, p->pos) >= 0)
	{
		hroe_ex_fail(p);
		return NULL;
	}
	e = palloc0(sizeof(HroePathElem));
	if (t->type == T_NAME)
	{
		HroeExprContext *cxt = p->cxt;

		e->placeholder = pnstrdup(p->src + t->start, t->len);
		for (int i = 0; i < cxt->nnames && e->name == NULL; i++)
			if (strcmp(cxt->name_keys[i], e->placeholder) == 0)
			{
				cxt->name_used[i] = true;
				e->name = cxt->name_values[i];
				e->namelen = cxt->name_lens[i];
			}
		if (e->name == NULL && u->e.attr_name == NULL)
			u->e.attr_name = psprintf("An expression attribute name used in the document path is not defined; attribute name: %s",
									  e->placeholder);
	}
	else
	{
		e->name = pnstrdup(p->src + t->start, t->len);
		e->namelen = t->len;
		if (u->e.reserved == NULL && hroe_is_reserved_word(e->name))
			u->e.reserved = psprintf("Attribute name is a reserved keyword; reserved keyword: %s", e->name);
	}
	p->pos++;
	return e;
}

/* A document path: name { '.' name | '[' digits ']' } */
static List *
UpdPath(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroePathElem *e = UpdPathName(u);
	List	   *path;

	if (e == NULL)
		return NIL;
	path = list_make1(e);
	for (;;)
	{
		if (hroe_ex_peek(p) == T_DOT)
		{
			p->pos++;
			if ((e = UpdPathName(u)) == NULL)
				return NIL;
			path = lappend(path, e);
		}
		else if (hroe_ex_peek(p) == T_LBRACKET)
		{
			Token	   *t;
			long		index = 0;

			p->pos++;
			t = &p->toks[p->pos];
			if (t->type != T_NUMBER)
			{
				hroe_ex_fail(p);
				return NIL;
			}
			for (int i = 0; i < t->len; i++)
			{
				index = index * 10 + (p->src[t->start + i] - '0');
				if (index > PG_INT32_MAX)
				{
					hroe_ex_fail(p);
					return NIL;
				}
			}
			p->pos++;
			if (!hroe_ex_expect(p, T_RBRACKET))
				return NIL;
			e = palloc0(sizeof(HroePathElem));
			e->is_index = true;
			e->index = (int) index;
			path = lappend(path, e);
		}
		else
			return path;
	}
}

/* A :value operand, resolved (the node's value stays NULL if undefined) */
static HroeExprNode *
UpdValue(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprContext *cxt = p->cxt;
	HroeExprNode *n;

	if (hroe_ex_peek(p) != T_VALUE)
		return hroe_ex_fail(p);
	n = hroe_ex_make_node(p, HROE_EXPR_VALUE, p->pos);
	n->valname = pnstrdup(p->src + p->toks[p->pos].start, p->toks[p->pos].len);
	for (int i = 0; i < cxt->nvalues && n->value == NULL; i++)
		if (strcmp(cxt->value_keys[i], n->valname) == 0)
		{
			cxt->value_used[i] = true;
			n->value = cxt->values[i];
		}
	if (n->value == NULL && u->e.attr_val == NULL)
		u->e.attr_val = psprintf("An expression attribute value used in expression is not defined; attribute value: %s",
								 n->valname);
	p->pos++;
	return n;
}

/* The type of a :value operand written directly, else NULL */
static const char *
UpdImmediateType(HroeExprNode *n)
{
	return (n->kind == HROE_EXPR_VALUE && n->value) ? n->value->type : NULL;
}

/* dynalite's checkFunction for update functions and + - */
static void
UpdCheckFunction(UpdParser *u, HroeExprNode *n)
{
	static const char *const names[] = {"if_not_exists", "list_append", "+", "-"};
	bool		known = false;
	ListCell   *lc;

	if (u->e.unknown_function)
		return;
	for (int i = 0; i < lengthof(names); i++)
		if (strcmp(n->funcname, names[i]) == 0)
			known = true;
	if (!known)
	{
		u->e.unknown_function = psprintf("Invalid function name; function: %s", n->funcname);
		return;
	}
	if (u->e.function)
		return;
	if (list_length(n->args) != 2)
	{
		u->e.function = psprintf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d",
								 n->funcname, list_length(n->args));
		return;
	}
	if (strcmp(n->funcname, "if_not_exists") == 0)
	{
		if (((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
			u->e.function = psprintf("Operator or function requires a document path; operator or function: %s",
									 n->funcname);
		return;
	}
	foreach(lc, n->args)
	{
		const char *t = UpdImmediateType(lfirst(lc));
		const char *want = strcmp(n->funcname, "list_append") == 0 ? "L" : "N";

		if (t && strcmp(t, want) != 0)
		{
			u->e.function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
									 n->funcname, t);
			return;
		}
	}
}

static HroeExprNode *UpdOperandParens(UpdParser *u);

/* function call, :value or path */
static HroeExprNode *
UpdOperand(UpdParser *u)
{
	Parser	   *p = &u->p;
	Token	   *t = &p->toks[p->pos];
	HroeExprNode *n;
	List	   *path;

	check_stack_depth();
	if (t->type == T_IDENT && p->toks[p->pos + 1].type == T_LPAREN &&
		UpdKeyword(u, p->pos) < 0)
	{
		n = hroe_ex_make_node(p, HROE_EXPR_FUNCTION, p->pos);
		n->funcname = pnstrdup(p->src + t->start, t->len);
		p->pos += 2;
		for (;;)
		{
			HroeExprNode *arg = UpdOperandParens(u);

			if (arg == NULL)
				return NULL;
			n->args = lappend(n->args, arg);
			if (hroe_ex_peek(p) != T_COMMA)
				break;
			p->pos++;
		}
		if (!hroe_ex_expect(p, T_RPAREN))
			return NULL;
		p->noperators++;
		UpdCheckFunction(u, n);
		return n;
	}
	if (t->type == T_VALUE)
		return UpdValue(u);
	n = hroe_ex_make_node(p, HROE_EXPR_PATH, p->pos);
	if ((path = UpdPath(u)) == NIL)
		return NULL;
	n->path = path;
	return n;
}

/* operand, optionally in one pair of parentheses */
static HroeExprNode *
UpdOperandParens(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprNode *n;

	if (hroe_ex_peek(p) != T_LPAREN)
		return UpdOperand(u);
	p->pos++;
	if ((n = UpdOperand(u)) == NULL || !hroe_ex_expect(p, T_RPAREN))
		return NULL;
	return n;
}

/* operand, or operand + operand, or operand - operand */
static HroeExprNode *
UpdSetValue(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprNode *x = UpdOperandParens(u),
			   *y,
			   *n;

	if (x == NULL)
		return NULL;
	if (hroe_ex_peek(p) != T_PLUS && hroe_ex_peek(p) != T_MINUS)
		return x;
	n = hroe_ex_make_node(p, HROE_EXPR_FUNCTION, p->pos);
	n->funcname = hroe_ex_peek(p) == T_PLUS ? "+" : "-";
	p->pos++;
	if ((y = UpdOperandParens(u)) == NULL)
		return NULL;
	n->args = list_make2(x, y);
	p->noperators++;
	UpdCheckFunction(u, n);
	return n;
}

/* dynalite's checkPaths: overlap (a prefix) or conflict (map vs list step) */
static void
UpdCheckPathPair(UpdErrors *e, List *p1, List *p2)
{
	int			n = Min(list_length(p1), list_length(p2));

	for (int i = 0; i < n; i++)
	{
		HroePathElem *x = list_nth(p1, i),
				   *y = list_nth(p2, i);

		if (x->is_index != y->is_index)
		{
			if (e->path_conflict == NULL)
				e->path_conflict = psprintf("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
											hroe_ex_path_text(p1), hroe_ex_path_text(p2));
			return;
		}
		if (x->is_index ? x->index != y->index
			: (x->name == NULL || y->name == NULL ||
			   !hroe_names_equal(x->name, x->namelen, y->name, y->namelen)))
			return;
	}
	if (e->path_overlap == NULL)
		e->path_overlap = psprintf("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
								   hroe_ex_path_text(p1), hroe_ex_path_text(p2));
}

/* Record a path, checking it against those recorded before */
static void
UpdCheckPath(UpdParser *u, List *path)
{
	ListCell   *lc;

	if (u->e.path_overlap)
		return;
	foreach(lc, u->paths)
	{
		UpdCheckPathPair(&u->e, lfirst(lc), path);
		if (u->e.path_overlap)
			return;
	}
	u->paths = lappend(u->paths, path);
}

/* dynalite's checkOperator: ADD takes N or a set, DELETE a set */
static void
UpdCheckOperator(UpdParser *u, const char *op, HroeExprNode *val)
{
	static const char *const types[][2] = {
		{"S", "STRING"}, {"N", "NUMBER"}, {"B", "BINARY"}, {"NULL", "NULL"},
		{"BOOL", "BOOLEAN"}, {"L", "LIST"}, {"M", "MAP"}
	};
	const char *t = UpdImmediateType(val);

	if (u->e.operand || t == NULL)
		return;
	for (int i = 0; i < lengthof(types); i++)
		if (strcmp(t, types[i][0]) == 0 && !(strcmp(op, "ADD") == 0 && strcmp(t, "N") == 0))
			u->e.operand = psprintf("Incorrect operand type for operator or function; operator: %s, operand type: %s",
									op, types[i][1]);
}

/* One action of a section */
static HroeUpdateAction *
UpdAction(UpdParser *u, HroeUpdateKind kind)
{
	Parser	   *p = &u->p;
	HroeUpdateAction *a = palloc0(sizeof(HroeUpdateAction));

	a->kind = kind;
	if ((a->path = UpdPath(u)) == NIL)
		return NULL;
	switch (kind)
	{
		case HROE_UPDATE_SET:
			{
				int			start = p->pos;

				if (!hroe_ex_expect(p, T_EQ))
					return NULL;
				start = p->pos;
				/* '(' setvalue ')', else setvalue (PEG ordered choice) */
				if (hroe_ex_peek(p) == T_LPAREN)
				{
					p->pos++;
					if ((a->value = UpdSetValue(u)) != NULL && hroe_ex_expect(p, T_RPAREN))
						break;
					p->pos = start;
				}
				if ((a->value = UpdSetValue(u)) == NULL)
					return NULL;
				break;
			}
		case HROE_UPDATE_REMOVE:
			break;
		case HROE_UPDATE_ADD:
		case HROE_UPDATE_DELETE:
			if ((a->value = UpdValue(u)) == NULL)
				return NULL;
			UpdCheckOperator(u, UpdSectionNames[kind], a->value);
			break;
	}
	p->noperators++;
	UpdCheckPath(u, a->path);
	return a;
}

/* Start a parser over one expression, with the common length checks */
static void
UpdStart(UpdParser *u, HroeExprContext *cxt, const char *param, const char *expr,
		 bool update)
{
	memset(u, 0, sizeof(*u));
	u->update = update;
	u->p.cxt = cxt;
	u->p.param = param;
	u->p.src = expr;
	u->p.srclen = strlen(expr);
	u->p.err_pos = -1;
	if (u->p.srclen == 0)
		hroe_ex_validation_error(psprintf("Invalid %s: The expression can not be empty;", param));
	if (u->p.srclen > HROE_EXPR_MAX_BYTES)
		hroe_ex_validation_error(psprintf("Invalid %s: Expression size has exceeded the maximum allowed size; expression size: %d",
								 param, u->p.srclen));
	hroe_ex_tokenize(&u->p);
}

/* Raise the first semantic error in dynalite's priority order, if any */
static void
UpdReport(UpdParser *u)
{
	const char *order[] = {
		u->e.reserved, u->e.unknown_function, u->e.section, u->e.attr_name,
		u->e.attr_val, u->e.path_overlap, u->e.path_conflict, u->e.operand,
		u->e.function
	};

	for (int i = 0; i < lengthof(order); i++)
		if (order[i])
			hroe_ex_validation_error(psprintf("Invalid %s: %s", u->p.param, order[i]));
}

/*
 * Parse and check an UpdateExpression; placeholders used are marked in cxt.
 * Raises DynamoDB's errors (syntax, E15, E19, E20's operand types).
 */
HroeUpdateExpr *
hroe_update_parse(HroeExprContext *cxt, const char *expr)
{
	UpdParser	u;
	Parser	   *p = &u.p;
	HroeUpdateExpr *upd = palloc0(sizeof(HroeUpdateExpr));

	UpdStart(&u, cxt, "UpdateExpression", expr, true);
	for (;;)
	{
		int			kind = UpdKeyword(&u, p->pos);
		List	   *actions = NIL;

		if (kind < 0)
		{
			hroe_ex_fail(p);
			if (upd->actions == NIL || hroe_ex_peek(p) != T_EOF)
				hroe_ex_syntax_error(p, p->err_pos);
			break;
		}
		p->pos++;
		for (;;)
		{
			HroeUpdateAction *a = UpdAction(&u, (HroeUpdateKind) kind);

			if (a == NULL)
			{
				hroe_ex_fail(p);
				hroe_ex_syntax_error(p, p->err_pos);
			}
			actions = lappend(actions, a);
			if (hroe_ex_peek(p) != T_COMMA)
				break;
			p->pos++;
		}
		if (u.e.section == NULL && u.sections[kind])
			u.e.section = psprintf("The \"%s\" section can only be used once in an update expression;",
								   UpdSectionNames[kind]);
		u.sections[kind] = true;
		upd->actions = list_concat(upd->actions, actions);
	}
	if (p->noperators > HROE_EXPR_MAX_OPERATORS)
		hroe_ex_validation_error(psprintf("Invalid UpdateExpression: The expression contains too many operators; operator count: %d",
								 p->noperators));
	UpdReport(&u);
	return upd;
}

/*
 * Parse and check a ProjectionExpression: a list of document paths (List of
 * Lists of HroePathElem), names resolved and marked used in cxt.
 */
List *
hroe_projection_parse(HroeExprContext *cxt, const char *expr)
{
	UpdParser	u;
	Parser	   *p = &u.p;
	List	   *paths = NIL;
	ListCell   *lc;

	UpdStart(&u, cxt, "ProjectionExpression", expr, false);
	for (;;)
	{
		List	   *path = UpdPath(&u);

		if (path == NIL)
		{
			hroe_ex_fail(p);
			hroe_ex_syntax_error(p, p->err_pos);
		}
		paths = lappend(paths, path);
		if (hroe_ex_peek(p) != T_COMMA)
			break;
		p->pos++;
	}
	if (hroe_ex_peek(p) != T_EOF)
	{
		hroe_ex_fail(p);
		hroe_ex_syntax_error(p, p->err_pos);
	}
	foreach(lc, paths)
		UpdCheckPath(&u, lfirst(lc));
	/* projection: undefined names are the "attrNameVal" error, no others */
	UpdReport(&u);
	return paths;
}
