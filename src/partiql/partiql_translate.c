/*-------------------------------------------------------------------------
 *
 * partiql_translate.c
 *	  DynamoDB's PartiQL translated to the JSON API: one statement (parsed by
 *	  partiql_parse.c) becomes the request of the operation DynamoDB runs for
 *	  it, in the JSON API's own terms (expression text with generated
 *	  placeholders #pN and :pN, Key, Item), which the JSON API's handler then
 *	  runs (hroe_api_run): the same checks, the same operation, the same
 *	  capacity as the equivalent JSON request.
 *
 *	  SELECT whose WHERE fixes the partition key with = (or IN)	 Query
 *	  SELECT otherwise											 Scan
 *	  INSERT			PutItem, attribute_not_exists(partition key)
 *	  UPDATE			UpdateItem, attribute_exists(partition key)
 *	  DELETE			DeleteItem
 *
 * The operations ExecuteStatement, BatchExecuteStatement and
 * ExecuteTransaction are in partiql_api.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "partiql_api.h"
#include "partiql.h"
#include "vector_search.h"

/* DynamoDB's text for a batch's SELECT that does not name one item by its key */
#define BATCH_SELECT_KEY "Select statements within BatchExecuteStatement must specify the primary key in the where clause."
/* ... for a statement whose WHERE does not fix every key attribute */
#define MISSING_KEY "Where clause does not contain a mandatory equality on all key attributes"

/* The placeholders being generated for one request */
typedef struct Builder
{
	StringInfoData names;		/* "#p0":"a","#p1":"b" */
	StringInfoData values;		/* ":p0":{...} */
	int			nnames;
	int			nvalues;
	JsonbContainer **params;	/* the request's Parameters */
	int			nparams;
} Builder;

static void AttrValue(Builder *b, PqNode *n, StringInfo out, int depth);

/* ---------- values ---------- */

/* A JSON string */
static void
JsonString(StringInfo out, const char *s, int len)
{
	hroe_json_string_write(out, s, len);
}

/* The text of Parameters[i] (strings whole: U+0000 as \u0000) */
static char *
ParamText(Builder *b, int i)
{
	return hroe_jsonb_text(b->params[i]);
}

/* The one member of an AttributeValue parameter: its type and value */
static JsonbValue *
ParamMember(Builder *b, int i, const char *type)
{
	return hroe_api_member(b->params[i], type);
}

/* A set literal <<a, b>>: SS, NS or BS of its members' one type */
static void
SetValue(Builder *b, PqNode *n, StringInfo out)
{
	char		type = 0;
	StringInfoData elems;

	initStringInfo(&elems);
	if (n->nargs == 0)
		HroeValidation("One or more parameter values were invalid: An string set  may not be empty");
	for (int i = 0; i < n->nargs; i++)
	{
		PqNode	   *e = n->args[i];
		char		t;
		JsonbValue *v = NULL;

		if (e->kind == PQ_STRING)
			t = 'S';
		else if (e->kind == PQ_NUMBER)
			t = 'N';
		else if (e->kind == PQ_PARAM &&
				 ((v = ParamMember(b, e->ival, "S")) || (v = ParamMember(b, e->ival, "N")) ||
				  (v = ParamMember(b, e->ival, "B"))) && v->type == jbvString)
			t = ParamMember(b, e->ival, "S") ? 'S' : ParamMember(b, e->ival, "N") ? 'N' : 'B';
		else
			hroe_partiql_malformed("a set holds strings, numbers or binary values only");
		if (type && t != type)
			hroe_partiql_malformed("the members of a set must be of one type");
		type = t;
		if (i > 0)
			appendStringInfoChar(&elems, ',');
		if (v)
			JsonString(&elems, v->val.string.val, v->val.string.len);
		else
			JsonString(&elems, e->str, e->len);
	}
	appendStringInfo(out, "{\"%cS\":[%s]}", type, elems.data);
}

/* The AttributeValue of a literal or ? as JSON text */
static void
AttrValue(Builder *b, PqNode *n, StringInfo out, int depth)
{
	check_stack_depth();
	switch (n->kind)
	{
		case PQ_STRING:
			appendStringInfoString(out, "{\"S\":");
			JsonString(out, n->str, n->len);
			appendStringInfoChar(out, '}');
			break;
		case PQ_NUMBER:
			appendStringInfoString(out, "{\"N\":");
			JsonString(out, n->str, n->len);
			appendStringInfoChar(out, '}');
			break;
		case PQ_BOOL:
			appendStringInfo(out, "{\"BOOL\":%s}", n->ival ? "true" : "false");
			break;
		case PQ_NULL:
			appendStringInfoString(out, "{\"NULL\":true}");
			break;
		case PQ_PARAM:
			appendStringInfoString(out, ParamText(b, n->ival));
			break;
		case PQ_LIST:
			appendStringInfoString(out, "{\"L\":[");
			for (int i = 0; i < n->nargs; i++)
			{
				if (i > 0)
					appendStringInfoChar(out, ',');
				AttrValue(b, n->args[i], out, depth + 1);
			}
			appendStringInfoString(out, "]}");
			break;
		case PQ_MAP:
			appendStringInfoString(out, "{\"M\":{");
			for (int i = 0; i < n->nargs; i++)
			{
				if (i > 0)
					appendStringInfoChar(out, ',');
				JsonString(out, n->keys[i], n->keylens[i]);
				appendStringInfoChar(out, ':');
				AttrValue(b, n->args[i], out, depth + 1);
			}
			appendStringInfoString(out, "}}");
			break;
		case PQ_BAG:
			SetValue(b, n, out);
			break;
		default:
			hroe_partiql_malformed("expected a value, not an attribute path or an expression");
	}
}

/* A placeholder :pN for the value of n */
static char *
ValueRef(Builder *b, PqNode *n)
{
	char	   *ref = psprintf(":p%d", b->nvalues++);

	if (b->values.len > 0)
		appendStringInfoChar(&b->values, ',');
	appendStringInfo(&b->values, "\"%s\":", ref);
	AttrValue(b, n, &b->values, 0);
	return ref;
}

/* A placeholder #pN for an attribute name */
static char *
NameRef(Builder *b, const char *name, int len)
{
	char	   *ref = psprintf("#p%d", b->nnames++);

	if (b->names.len > 0)
		appendStringInfoChar(&b->names, ',');
	appendStringInfo(&b->names, "\"%s\":", ref);
	JsonString(&b->names, name, len);
	return ref;
}

/* A path as expression text: #p0.#p1[2] */
static void
PathText(Builder *b, PqNode *n, StringInfo out)
{
	if (n->kind != PQ_PATH)
		hroe_partiql_malformed("expected an attribute path");
	for (int i = 0; i < n->nsteps; i++)
	{
		PqStep	   *s = &n->steps[i];

		if (s->name)
			appendStringInfo(out, "%s%s", i > 0 ? "." : "", NameRef(b, s->name, s->namelen));
		else
			appendStringInfo(out, "[%d]", s->index);
	}
}

/* ---------- conditions ---------- */

static void Condition(Builder *b, PqNode *n, StringInfo out);

/* An operand: a path, a value, or size(path) */
static void
Operand(Builder *b, PqNode *n, StringInfo out)
{
	if (n->kind == PQ_PATH)
		PathText(b, n, out);
	else if (n->kind == PQ_FUNC)
	{
		if (strcmp(n->str, "size") != 0 || n->nargs != 1)
			hroe_partiql_malformed(psprintf("the function %s is not an operand", n->str));
		appendStringInfoString(out, "size(");
		PathText(b, n->args[0], out);
		appendStringInfoChar(out, ')');
	}
	else if (n->kind == PQ_ARITH)
		hroe_partiql_malformed("arithmetic is allowed in UPDATE's SET only");
	else
		appendStringInfoString(out, ValueRef(b, n));
}

/* A boolean function: begins_with, contains, attribute_type, ... */
static void
Function(Builder *b, PqNode *n, StringInfo out)
{
	static const char *const names[] = {"begins_with", "contains", "attribute_type",
	"attribute_exists", "attribute_not_exists"};
	bool		known = false;

	for (int i = 0; i < lengthof(names); i++)
		known |= strcmp(n->str, names[i]) == 0;
	if (!known)
		hroe_partiql_malformed(psprintf("unsupported function %s in a condition", n->str));
	appendStringInfo(out, "%s(", n->str);
	for (int i = 0; i < n->nargs; i++)
	{
		if (i > 0)
			appendStringInfoString(out, ", ");
		Operand(b, n->args[i], out);
	}
	appendStringInfoChar(out, ')');
}

/* A condition as DynamoDB's condition expression text */
static void
Condition(Builder *b, PqNode *n, StringInfo out)
{
	check_stack_depth();
	switch (n->kind)
	{
		case PQ_CMP:
			Operand(b, n->args[0], out);
			appendStringInfo(out, " %s ", n->op);
			Operand(b, n->args[1], out);
			break;
		case PQ_BETWEEN:
			Operand(b, n->args[0], out);
			appendStringInfoString(out, " BETWEEN ");
			Operand(b, n->args[1], out);
			appendStringInfoString(out, " AND ");
			Operand(b, n->args[2], out);
			break;
		case PQ_IN:
			Operand(b, n->args[0], out);
			appendStringInfoString(out, " IN (");
			for (int i = 1; i < n->nargs; i++)
			{
				if (i > 1)
					appendStringInfoString(out, ", ");
				Operand(b, n->args[i], out);
			}
			appendStringInfoChar(out, ')');
			break;
		case PQ_AND:
		case PQ_OR:
			/* parentheses only where precedence needs them (DynamoDB refuses redundant ones) */
			for (int i = 0; i < 2; i++)
			{
				bool		paren = n->kind == PQ_AND && n->args[i]->kind == PQ_OR;

				if (i == 1)
					appendStringInfoString(out, n->kind == PQ_AND ? " AND " : " OR ");
				if (paren)
					appendStringInfoChar(out, '(');
				Condition(b, n->args[i], out);
				if (paren)
					appendStringInfoChar(out, ')');
			}
			break;
		case PQ_NOT:
			{
				bool		paren = n->args[0]->kind == PQ_AND || n->args[0]->kind == PQ_OR;

				appendStringInfoString(out, paren ? "NOT (" : "NOT ");
				Condition(b, n->args[0], out);
				if (paren)
					appendStringInfoChar(out, ')');
				break;
			}
		case PQ_IS:
			if (strcmp(n->op, "MISSING") == 0)
			{
				appendStringInfoString(out, n->negated ? "attribute_exists(" : "attribute_not_exists(");
				PathText(b, n->args[0], out);
				appendStringInfoChar(out, ')');
			}
			else
			{
				PqNode		type = {.kind = PQ_STRING, .str = "NULL", .len = 4};

				appendStringInfoString(out, n->negated ? "NOT attribute_type(" : "attribute_type(");
				PathText(b, n->args[0], out);
				appendStringInfo(out, ", %s)", ValueRef(b, &type));
			}
			break;
		case PQ_FUNC:
			Function(b, n, out);
			break;
		default:
			hroe_partiql_malformed("expected a condition");
	}
}

/*
 * The type of a value operand (a literal or a ?) as DynamoDB names it, or
 * NULL for a path, a function or a parameter that is no AttributeValue
 * (the JSON operation's own check answers for that)
 */
static const char *
OperandType(Builder *b, PqNode *n)
{
	static const char *const types[] = {"S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"};

	switch (n->kind)
	{
		case PQ_STRING:
			return "S";
		case PQ_NUMBER:
			return "N";
		case PQ_BOOL:
			return "BOOL";
		case PQ_NULL:
			return "NULL";
		case PQ_LIST:
			return "L";
		case PQ_MAP:
			return "M";
		case PQ_BAG:
			{
				/* a set of its first member's type (SetValue checks the rest) */
				const char *t = n->nargs > 0 ? OperandType(b, n->args[0]) : NULL;

				if (t == NULL || t[1] != '\0' || strchr("SNB", t[0]) == NULL)
					return NULL;
				return psprintf("%sS", t);
			}
		case PQ_PARAM:
			if (n->ival < b->nparams && JsonContainerIsObject(b->params[n->ival]) &&
				JsonContainerSize(b->params[n->ival]) == 1)
				for (int i = 0; i < lengthof(types); i++)
					if (ParamMember(b, n->ival, types[i]))
						return types[i];
			return NULL;
		default:
			return NULL;
	}
}

/*
 * Only S, N and B are ordered: a value of another type as an operand of < <=
 * > >= or BETWEEN is refused, with the operator as written.  DynamoDB checks
 * this on the statement, before it looks the table up, and without the
 * "Invalid FilterExpression: " of the JSON API's expressions.
 */
static void
CheckOrderedOperands(Builder *b, PqNode *n)
{
	const char *op = NULL;

	check_stack_depth();
	if (n == NULL)
		return;
	if (n->kind == PQ_AND || n->kind == PQ_OR || n->kind == PQ_NOT)
	{
		for (int i = 0; i < n->nargs; i++)
			CheckOrderedOperands(b, n->args[i]);
		return;
	}
	if (n->kind == PQ_BETWEEN)
		op = "BETWEEN";
	else if (n->kind == PQ_CMP && strcmp(n->op, "=") != 0 && strcmp(n->op, "<>") != 0)
		op = n->op;			/* the parser writes != as <> */
	if (op == NULL)
		return;
	for (int i = 0; i < n->nargs; i++)
	{
		const char *t = OperandType(b, n->args[i]);

		if (t && strcmp(t, "S") != 0 && strcmp(t, "N") != 0 && strcmp(t, "B") != 0)
			HroeValidation(psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
									op, t));
	}
}

/* ---------- keys ---------- */

/* The top-level conjuncts of a WHERE */
static void
Conjuncts(PqNode *n, PqNode ***out, int *nout, int *cap)
{
	if (n == NULL)
		return;
	if (n->kind == PQ_AND)
	{
		Conjuncts(n->args[0], out, nout, cap);
		Conjuncts(n->args[1], out, nout, cap);
		return;
	}
	if (*nout >= *cap)
	{
		*cap = *cap ? *cap * 2 : 8;
		*out = *out ? repalloc(*out, sizeof(PqNode *) * *cap) : palloc(sizeof(PqNode *) * *cap);
	}
	(*out)[(*nout)++] = n;
}

/* Whether n is the single-name path attr */
static bool
IsAttr(PqNode *n, const char *attr)
{
	return n->kind == PQ_PATH && n->nsteps == 1 && n->steps[0].name &&
		strlen(attr) == (size_t) n->steps[0].namelen &&
		memcmp(n->steps[0].name, attr, n->steps[0].namelen) == 0;
}

/* Whether n is a value (a literal or ?) */
static bool
IsValue(PqNode *n)
{
	return n->kind != PQ_PATH && n->kind != PQ_FUNC && n->kind != PQ_ARITH;
}

/* The value v of a conjunct attr = v (or v = attr), else NULL */
static PqNode *
KeyEquality(PqNode *c, const char *attr)
{
	if (c->kind != PQ_CMP || strcmp(c->op, "=") != 0)
		return NULL;
	if (IsAttr(c->args[0], attr) && IsValue(c->args[1]))
		return c->args[1];
	if (IsAttr(c->args[1], attr) && IsValue(c->args[0]))
		return c->args[0];
	return NULL;
}

/* Whether c is a sort key condition DynamoDB's key conditions allow */
static bool
SortKeyCondition(PqNode *c, const char *attr)
{
	if (c->kind == PQ_CMP && strcmp(c->op, "<>") != 0)
		return (IsAttr(c->args[0], attr) && IsValue(c->args[1])) ||
			(IsAttr(c->args[1], attr) && IsValue(c->args[0]));
	if (c->kind == PQ_BETWEEN)
		return IsAttr(c->args[0], attr) && IsValue(c->args[1]) && IsValue(c->args[2]);
	if (c->kind == PQ_FUNC && strcmp(c->str, "begins_with") == 0 && c->nargs == 2)
		return IsAttr(c->args[0], attr) && IsValue(c->args[1]);
	return false;
}

/* The conjunct attr op value (the attribute on the left), or -1 */
static int
FindBound(PqNode **conj, int n, const bool *used, const char *attr, const char *op)
{
	for (int i = 0; i < n; i++)
		if (!used[i] && conj[i]->kind == PQ_CMP && strcmp(conj[i]->op, op) == 0 &&
			IsAttr(conj[i]->args[0], attr) && IsValue(conj[i]->args[1]))
			return i;
	return -1;
}

/*
 * A lower and an upper bound on the sort key, one key condition (a Query's
 * filter may not name the sort key): sk >= a AND sk <= b is sk BETWEEN a AND
 * b; with a strict bound (sk > a AND sk < b), both bounds stay in the key
 * condition, which the Query of a PartiQL statement takes as one range
 * (HroeReadRequest.key_bounds), as DynamoDB runs it.  Whether it made one.
 */
static bool
SortKeyRange(Builder *b, PqNode **conj, int n, bool *used, const char *attr, StringInfo kce)
{
	int			lo = FindBound(conj, n, used, attr, ">=");
	int			hi = FindBound(conj, n, used, attr, "<=");

	if (lo >= 0 && hi >= 0)
	{
		appendStringInfo(kce, " AND %s BETWEEN ", NameRef(b, attr, strlen(attr)));
		appendStringInfo(kce, "%s AND ", ValueRef(b, conj[lo]->args[1]));
		appendStringInfoString(kce, ValueRef(b, conj[hi]->args[1]));
		used[lo] = used[hi] = true;
		return true;
	}
	if (lo < 0)
		lo = FindBound(conj, n, used, attr, ">");
	if (hi < 0)
		hi = FindBound(conj, n, used, attr, "<");
	if (lo < 0 || hi < 0)
		return false;
	appendStringInfo(kce, " AND %s %s %s", NameRef(b, attr, strlen(attr)), conj[lo]->op,
					 ValueRef(b, conj[lo]->args[1]));
	appendStringInfo(kce, " AND %s %s %s", NameRef(b, attr, strlen(attr)), conj[hi]->op,
					 ValueRef(b, conj[hi]->args[1]));
	used[lo] = used[hi] = true;
	return true;
}

/*
 * Append the conjunct cond to a condition being built (an OR in parentheses,
 * no others: DynamoDB refuses redundant ones)
 */
static void
AndText(StringInfo out, const char *cond, bool or)
{
	if (out->len > 0)
		appendStringInfoString(out, " AND ");
	appendStringInfo(out, or ? "(%s)" : "%s", cond);
}

/* The conjuncts but those used (skip[i]) as one condition's text, or "" */
static char *
RestCondition(Builder *b, PqNode **conj, int n, const bool *skip)
{
	StringInfoData out;

	initStringInfo(&out);
	for (int i = 0; i < n; i++)
	{
		StringInfoData c;

		if (skip[i])
			continue;
		initStringInfo(&c);
		Condition(b, conj[i], &c);
		AndText(&out, c.data, conj[i]->kind == PQ_OR);
	}
	return out.data;
}

/*
 * The Key of a write's WHERE (equalities on every key attribute); missing:
 * the message if one is not fixed
 */
static void
WriteKey(Builder *b, const HroeKeySchema *ks, PqNode **conj, int n, bool *used, StringInfo key,
		 const char *missing)
{
	appendStringInfoChar(key, '{');
	for (int k = 0; k < ks->nhash + ks->nrange; k++)
	{
		PqNode	   *v = NULL;

		for (int i = 0; i < n && v == NULL; i++)
			if (!used[i] && (v = KeyEquality(conj[i], ks->names[k])) != NULL)
				used[i] = true;
		if (v == NULL)
			HroeValidation(missing);
		if (k > 0)
			appendStringInfoChar(key, ',');
		JsonString(key, ks->names[k], strlen(ks->names[k]));
		appendStringInfoChar(key, ':');
		AttrValue(b, v, key, 0);
	}
	appendStringInfoChar(key, '}');
}

/* ---------- requests ---------- */

/* ,"Member":"text" */
static void
TextMember(StringInfo out, const char *member, const char *text)
{
	appendStringInfo(out, ",\"%s\":", member);
	JsonString(out, text, strlen(text));
}

/* UPDATE's SET value as update expression text */
static void
SetValueText(Builder *b, PqNode *v, StringInfo out)
{
	if (v->kind == PQ_ARITH)
	{
		Operand(b, v->args[0], out);
		appendStringInfo(out, " %s ", v->op);
		Operand(b, v->args[1], out);
	}
	else if (v->kind == PQ_FUNC && (strcmp(v->str, "list_append") == 0 ||
									strcmp(v->str, "if_not_exists") == 0))
	{
		appendStringInfo(out, "%s(", v->str);
		for (int i = 0; i < v->nargs; i++)
		{
			if (i > 0)
				appendStringInfoString(out, ", ");
			if (v->args[i]->kind == PQ_PATH)
				PathText(b, v->args[i], out);
			else
				appendStringInfoString(out, ValueRef(b, v->args[i]));
		}
		appendStringInfoChar(out, ')');
	}
	else if (v->kind == PQ_FUNC)
		hroe_partiql_malformed(psprintf("unsupported function %s in SET", v->str));
	else
		Operand(b, v, out);
}

/* UPDATE's SET and REMOVE as an UpdateExpression */
static char *
UpdateText(Builder *b, PqStatement *s)
{
	StringInfoData set,
				remove,
				add,
				del;
	StringInfoData out;

	initStringInfo(&set);
	initStringInfo(&remove);
	initStringInfo(&add);
	initStringInfo(&del);
	for (int i = 0; i < s->nactions; i++)
	{
		PqAction   *a = &s->actions[i];
		PqNode	   *v = a->value;
		StringInfo	to;

		if (a->remove)
			to = &remove;
		else if (v->kind == PQ_FUNC && (strcmp(v->str, "set_add") == 0 || strcmp(v->str, "set_delete") == 0))
			to = strcmp(v->str, "set_add") == 0 ? &add : &del;
		else
			to = &set;
		if (to->len > 0)
			appendStringInfoString(to, ", ");
		PathText(b, a->path, to);
		if (to == &set)
		{
			appendStringInfoString(to, " = ");
			SetValueText(b, v, to);
		}
		else if (to != &remove)
		{
			/* set_add(path, <<..>>) is ADD path :v, set_delete DELETE */
			if (v->nargs != 2 || v->args[0]->kind != PQ_PATH || !IsValue(v->args[1]))
				hroe_partiql_malformed(psprintf("%s takes an attribute path and a set", v->str));
			appendStringInfo(to, " %s", ValueRef(b, v->args[1]));
		}
	}
	initStringInfo(&out);
	if (set.len)
		appendStringInfo(&out, "SET %s ", set.data);
	if (remove.len)
		appendStringInfo(&out, "REMOVE %s ", remove.data);
	if (add.len)
		appendStringInfo(&out, "ADD %s ", add.data);
	if (del.len)
		appendStringInfo(&out, "DELETE %s ", del.data);
	return out.data;
}

/* INSERT's VALUE as an Item (a map literal, or a ? holding an M) */
static void
InsertItem(Builder *b, PqNode *v, StringInfo out)
{
	if (v->kind == PQ_PARAM)
	{
		JsonbValue *m = ParamMember(b, v->ival, "M");

		if (m == NULL || m->type != jbvBinary)
			hroe_partiql_malformed("INSERT's VALUE must be a map");
		appendStringInfoString(out, hroe_api_container_text(m));
		return;
	}
	/* {"M":{...}} without its wrapper */
	{
		StringInfoData m;

		initStringInfo(&m);
		AttrValue(b, v, &m, 0);
		appendBinaryStringInfo(out, m.data + 5, m.len - 6);
	}
}

/* One statement being translated: its builder, its WHERE's conjuncts */
typedef struct Translation
{
	Builder		b;				/* the placeholders generated */
	PqStatement *s;
	PqRequest  *r;				/* the request built */
	HroeTableMeta *t;			/* the statement's table */
	const HroeKeySchema *ks;	/* the table's or the index's key schema */
	PqNode	  **conj;			/* the WHERE's conjuncts */
	int			nconj;
	bool	   *used;			/* [i]: conj[i] is in the key or a key
								 * condition, not in the rest */
} Translation;

/*
 * The conjunct that fixes the partition key (= a value, or IN values),
 * its place in *hi; NULL if none
 */
static PqNode *
PartitionKeyConjunct(Translation *x, int *hi)
{
	const char *pk = x->ks->names[0];

	for (int i = 0; i < x->nconj; i++)
	{
		PqNode	   *c = x->conj[i];
		PqNode	   *v = KeyEquality(c, pk);

		if (v != NULL)
		{
			*hi = i;
			return v;
		}
		if (c->kind == PQ_IN && IsAttr(c->args[0], pk))
		{
			bool		values = true;

			for (int k = 1; k < c->nargs; k++)
				values &= IsValue(c->args[k]);
			if (values)
			{
				*hi = i;
				return c;
			}
		}
	}
	return NULL;
}

/*
 * A SELECT that must name one item (a batch's or a transaction's read):
 * GetItem; a batch's may not name an index nor leave a key attribute out
 * (DynamoDB's text for either)
 */
static void
SelectGet(Translation *x, PqReadMode mode)
{
	StringInfoData key;
	char	   *filter;

	if (x->s->index)
		HroeValidation(mode == PQ_READ_BATCH ? BATCH_SELECT_KEY : MISSING_KEY);
	initStringInfo(&key);
	WriteKey(&x->b, x->ks, x->conj, x->nconj, x->used, &key,
			 mode == PQ_READ_BATCH ? BATCH_SELECT_KEY : MISSING_KEY);
	filter = RestCondition(&x->b, x->conj, x->nconj, x->used);
	if (filter[0])
		HroeValidation(MISSING_KEY);
	x->r->op = "GetItem";
	appendStringInfo(&x->r->body, ",\"Key\":%s", key.data);
	x->r->key = key.data;
}

/*
 * A partition key IN (...): one Query per value (partiql_api.c), each
 * value's text in r->in; at most 50 of them, as DynamoDB
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-operators.html),
 * and a value given twice is read once
 */
static void
QueryInValues(Translation *x, PqNode *in)
{
	PqRequest  *r = x->r;

	if (in->nargs - 1 > HROE_PARTIQL_IN_KEYS_MAX)
		HroeValidation(psprintf("IN operator on a partition key supports at most %d values, got %d",
								HROE_PARTIQL_IN_KEYS_MAX, in->nargs - 1));
	r->nin = 0;
	r->in = palloc(sizeof(char *) * (in->nargs - 1));
	for (int k = 1; k < in->nargs; k++)
	{
		StringInfoData v;
		bool		seen = false;

		/* (compared as jsonb's text: literal or parameter) */
		initStringInfo(&v);
		AttrValue(&x->b, in->args[k], &v, 0);
		v.data = hroe_api_jsonb_text(hroe_api_text_jsonb(v.data));
		for (int j = 0; j < r->nin && !seen; j++)
			seen = strcmp(r->in[j], v.data) == 0;
		if (!seen)
			r->in[r->nin++] = v.data;
	}
}

/*
 * Append to names (", " between) the first attribute of each path in n the
 * statement's index does not hold, each once
 */
static void
UnprojectedNames(Translation *x, PqNode *n, StringInfo names, List **seen)
{
	check_stack_depth();
	if (n->kind == PQ_PATH)
	{
		PqStep	   *first = &n->steps[0];
		ListCell   *lc;

		if (first->name == NULL ||
			hroe_index_projects(x->t, x->r->index, first->name, first->namelen))
			return;
		foreach(lc, *seen)
			if (strlen(lfirst(lc)) == (size_t) first->namelen &&
				memcmp(lfirst(lc), first->name, first->namelen) == 0)
				return;
		*seen = lappend(*seen, pnstrdup(first->name, first->namelen));
		if (names->len > 0)
			appendStringInfoString(names, ", ");
		appendBinaryStringInfo(names, first->name, first->namelen);
		return;
	}
	for (int i = 0; i < n->nargs; i++)
		UnprojectedNames(x, n->args[i], names, seen);
}

/*
 * A keyed read of an index (a Query) filters on the attributes the index
 * holds only: DynamoDB refuses a filter naming another, on a GSI and an LSI
 * alike (an unkeyed read, a Scan of the index, finds it missing)
 */
static void
CheckFilterProjected(Translation *x)
{
	StringInfoData names;
	List	   *seen = NIL;

	if (x->r->index == NULL || x->r->index->projection == HROE_PROJECT_ALL)
		return;
	initStringInfo(&names);
	for (int i = 0; i < x->nconj; i++)
		if (!x->used[i])
			UnprojectedNames(x, x->conj[i], &names, &seen);
	if (names.len > 0)
		HroeValidation(psprintf("One or more parameter values were invalid: Secondary index %s does not project one or more filter attributes: [%s]",
								x->r->index->name, names.data));
}

/*
 * A SELECT of a GSI names the attributes the index holds only (an LSI fetches
 * the others from the table, as a Query's ProjectionExpression)
 */
static void
CheckSelectProjected(Translation *x)
{
	StringInfoData names;
	List	   *seen = NIL;

	if (x->r->index == NULL || x->r->index->local ||
		x->r->index->projection == HROE_PROJECT_ALL)
		return;
	initStringInfo(&names);
	for (int i = 0; i < x->s->nproj; i++)
		UnprojectedNames(x, x->s->proj[i], &names, &seen);
	if (names.len > 0)
		HroeValidation(psprintf("One or more parameter values were invalid: Global secondary index %s does not project [%s]",
								x->r->index->name, names.data));
}

/*
 * A SELECT whose WHERE fixes the partition key (conj[hi], = or IN): a Query,
 * its KeyConditionExpression the partition key and a sort key range or
 * condition, the rest its FilterExpression
 */
static void
SelectQuery(Translation *x, PqNode *hash, int hi)
{
	const HroeKeySchema *ks = x->ks;
	Builder    *b = &x->b;
	StringInfo	body = &x->r->body;
	StringInfoData kce;
	bool		ranged;
	char	   *filter;

	x->r->op = "Query";
	x->used[hi] = true;
	initStringInfo(&kce);
	if (hash->kind == PQ_IN)
	{
		QueryInValues(x, hash);
		appendStringInfo(&kce, "%s = :pk", NameRef(b, ks->names[0], strlen(ks->names[0])));
	}
	else
		appendStringInfo(&kce, "%s = %s", NameRef(b, ks->names[0], strlen(ks->names[0])),
						 ValueRef(b, hash));
	ranged = ks->nrange > 0 &&
		SortKeyRange(b, x->conj, x->nconj, x->used, ks->names[ks->nhash], &kce);
	for (int i = 0; i < x->nconj && ks->nrange > 0 && !ranged; i++)
		if (!x->used[i] && SortKeyCondition(x->conj[i], ks->names[ks->nhash]))
		{
			StringInfoData c;

			initStringInfo(&c);
			Condition(b, x->conj[i], &c);
			appendStringInfo(&kce, " AND %s", c.data);
			x->used[i] = true;
			break;
		}
	TextMember(body, "KeyConditionExpression", kce.data);
	CheckFilterProjected(x);
	filter = RestCondition(b, x->conj, x->nconj, x->used);
	if (filter[0])
		TextMember(body, "FilterExpression", filter);
}

/* A SELECT's projection: its ProjectionExpression */
static void
SelectProjection(Translation *x)
{
	StringInfoData proj;

	initStringInfo(&proj);
	for (int i = 0; i < x->s->nproj; i++)
	{
		if (i > 0)
			appendStringInfoString(&proj, ", ");
		PathText(&x->b, x->s->proj[i], &proj);
	}
	TextMember(&x->r->body, "ProjectionExpression", proj.data);
}

/* SELECT: GetItem (a batch's or a transaction's), Query or Scan */
static void
TranslateSelect(Translation *x, PqReadMode mode)
{
	PqNode	   *hash;
	int			hi = -1;

	if (x->s->index)
		TextMember(&x->r->body, "IndexName", x->s->index);
	hash = PartitionKeyConjunct(x, &hi);
	if (mode != PQ_READ_ANY)
	{
		SelectGet(x, mode);
		if (x->s->nproj > 0)
			SelectProjection(x);
		return;
	}
	CheckSelectProjected(x);
	if (hash == NULL)
	{
		/* no partition key fixed: a Scan, as DynamoDB */
		char	   *filter = RestCondition(&x->b, x->conj, x->nconj, x->used);

		x->r->op = "Scan";
		if (filter[0])
			TextMember(&x->r->body, "FilterExpression", filter);
	}
	else
		SelectQuery(x, hash, hi);
	if (x->s->nproj > 0)
		SelectProjection(x);
}

/* INSERT: a PutItem of an item whose partition key is new */
static void
TranslateInsert(Translation *x)
{
	const char *pk = x->t->schema.names[0];

	x->r->op = "PutItem";
	appendStringInfoString(&x->r->body, ",\"Item\":");
	InsertItem(&x->b, x->s->value, &x->r->body);
	TextMember(&x->r->body, "ConditionExpression",
			   psprintf("attribute_not_exists(%s)", NameRef(&x->b, pk, strlen(pk))));
}

/*
 * UPDATE, DELETE, EXISTS: the item of the WHERE's full key, the rest of the
 * WHERE its condition
 */
static void
TranslateKeyed(Translation *x)
{
	PqStatement *s = x->s;
	PqRequest  *r = x->r;
	Builder    *b = &x->b;
	const HroeKeySchema *ks = x->ks;
	StringInfo	body = &r->body;
	StringInfoData key;
	StringInfoData cond;
	char	   *rest;

	initStringInfo(&key);
	initStringInfo(&cond);
	WriteKey(b, ks, x->conj, x->nconj, x->used, &key, MISSING_KEY);
	r->key = key.data;
	appendStringInfo(body, ",\"Key\":%s", key.data);
	if (s->kind == PQ_UPDATE)
	{
		r->op = "UpdateItem";
		TextMember(body, "UpdateExpression", UpdateText(b, s));
		/* UPDATE changes an item that exists only */
		AndText(&cond, psprintf("attribute_exists(%s)",
								NameRef(b, ks->names[0], strlen(ks->names[0]))), false);
	}
	else if (s->kind == PQ_EXISTS)
	{
		/*
		 * TransactWriteItems' ConditionCheck: the item exists and meets the
		 * rest of the WHERE (ExecuteTransaction only)
		 */
		r->op = "ConditionCheck";
		AndText(&cond, psprintf("attribute_exists(%s)",
								NameRef(b, ks->names[0], strlen(ks->names[0]))), false);
	}
	else
		r->op = "DeleteItem";
	rest = RestCondition(b, x->conj, x->nconj, x->used);
	if (rest[0] && s->kind == PQ_DELETE)
	{
		/*
		 * DELETE of a missing item succeeds, deleting nothing; of an item
		 * failing the conditions, ConditionalCheckFailed (AWS's DELETE
		 * reference)
		 */
		appendStringInfo(&cond, "attribute_not_exists(%s) OR %s",
						 NameRef(b, ks->names[0], strlen(ks->names[0])), rest);
	}
	else if (rest[0])
		AndText(&cond, rest, false);
	if (cond.len)
		TextMember(body, "ConditionExpression", cond.data);
	if (s->returning)
		TextMember(body, "ReturnValues", s->returning);
}

/*
 * The statement's table and key schema (its index's, if it names one), and
 * its WHERE's conjuncts, checked before anything is translated
 */
static void
TranslateTarget(Translation *x)
{
	PqStatement *s = x->s;
	int			cap = 0;

	x->t = hroe_request_table(s->table);
	x->ks = &x->t->schema;
	/* EXISTS names one item by its table's full primary key */
	if (s->kind == PQ_EXISTS && s->index)
		HroeValidation(MISSING_KEY);
	if (s->index)
	{
		HroeIndexMeta *ix = hroe_index_lookup(x->t, s->index);

		/* a vector index is read by SearchVectors only */
		if (ix == NULL && hroe_vector_index_lookup(x->t->name, s->index) != NULL)
			HroeValidation("Scan operation not supported on this index type");
		/* (PartiQL's text names no index, the Query's does) */
		if (ix == NULL)
			HroeValidation("The table does not have the specified index");
		/* UPDATE, DELETE: the grammar takes an index, DynamoDB refuses it */
		if (s->kind != PQ_SELECT)
			HroeValidation("This operation is not supported on an index");
		x->ks = &ix->schema;
		x->r->index = ix;
	}
	x->r->schema = x->ks;
	Conjuncts(s->where, &x->conj, &x->nconj, &cap);
	x->used = palloc0(sizeof(bool) * (x->nconj + 1));
}

/*
 * Translate one statement with its Parameters (n of them) into the request
 * of the JSON API's operation: the request's members (leading comma) in
 * r->body, the operation in r->op.  mode: how a SELECT reads (a batch's or
 * a transaction's names one item, made a GetItem).
 */
void
hroe_partiql_translate(PqStatement *s, JsonbContainer **params, int nparams, PqReadMode mode,
					   PqRequest *r)
{
	Translation x = {{{0}}};

	memset(r, 0, sizeof(*r));
	initStringInfo(&r->body);
	initStringInfo(&x.b.names);
	initStringInfo(&x.b.values);
	x.b.params = params;
	x.b.nparams = nparams;
	x.s = s;
	x.r = r;
	r->stmt = s;
	if (s->nparams != nparams)
		HroeValidation("Number of parameters in request and statement doesn't match.");
	CheckOrderedOperands(&x.b, s->where);
	TranslateTarget(&x);
	TextMember(&r->body, "TableName", s->table);
	switch (s->kind)
	{
		case PQ_SELECT:
			TranslateSelect(&x, mode);
			break;
		case PQ_INSERT:
			TranslateInsert(&x);
			break;
		case PQ_UPDATE:
		case PQ_DELETE:
		case PQ_EXISTS:
			TranslateKeyed(&x);
			break;
	}
	r->names = x.b.names.data;
	r->values = x.b.values.data;
}

/*
 * The request's JSON text: its members, extra members (leading comma, or
 * ""), the placeholders, and in_value as :pk (a partition key IN's value)
 */
Jsonb *
hroe_partiql_request(PqRequest *r, const char *in_value, const char *extra)
{
	StringInfoData out;

	initStringInfo(&out);
	appendStringInfo(&out, "{%s%s", r->body.data + 1, extra);
	if (r->names[0])
		appendStringInfo(&out, ",\"ExpressionAttributeNames\":{%s}", r->names);
	if (r->values[0] || in_value)
		appendStringInfo(&out, ",\"ExpressionAttributeValues\":{%s%s%s%s}", r->values,
						 r->values[0] && in_value ? "," : "", in_value ? "\":pk\":" : "",
						 in_value ? in_value : "");
	appendStringInfoChar(&out, '}');
	return hroe_api_text_jsonb(out.data);
}

/* Whether a statement reads (SELECT) */
bool
hroe_partiql_is_read(PqStatement *s)
{
	return s->kind == PQ_SELECT;
}
