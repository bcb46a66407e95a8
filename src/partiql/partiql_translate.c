/*-------------------------------------------------------------------------
 *
 * api_partiql.c
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
 * ExecuteTransaction are in api_partiql_run.c.
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

/* The Key of a write's WHERE (equalities on every key attribute) */
static void
WriteKey(Builder *b, const HroeKeySchema *ks, PqNode **conj, int n, bool *used, StringInfo key)
{
	appendStringInfoChar(key, '{');
	for (int k = 0; k < ks->nhash + ks->nrange; k++)
	{
		PqNode	   *v = NULL;

		for (int i = 0; i < n && v == NULL; i++)
			if (!used[i] && (v = KeyEquality(conj[i], ks->names[k])) != NULL)
				used[i] = true;
		if (v == NULL)
			HroeValidation("Where clause does not contain a mandatory equality on all key attributes");
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

/*
 * Translate one statement with its Parameters (n of them) into the request
 * of the JSON API's operation: the request's members (leading comma) in
 * r->body, the operation in r->op.  get: a SELECT must name one item (a
 * batch's or a transaction's read), made a GetItem.
 */
void
hroe_partiql_translate(PqStatement *s, JsonbContainer **params, int nparams, bool get,
					   PqRequest *r)
{
	Builder		b = {0};
	HroeTableMeta *t;
	const HroeKeySchema *ks;
	PqNode	  **conj = NULL;
	int			nconj = 0;
	int			cap = 0;
	bool	   *used;
	StringInfo	body = &r->body;

	memset(r, 0, sizeof(*r));
	initStringInfo(&r->body);
	initStringInfo(&b.names);
	initStringInfo(&b.values);
	b.params = params;
	b.nparams = nparams;
	r->stmt = s;
	if (s->nparams != nparams)
		HroeValidation("Number of parameters in request and statement doesn't match.");
	t = hroe_request_table(s->table);
	ks = &t->schema;
	/* EXISTS names one item by its table's full primary key */
	if (s->kind == PQ_EXISTS && s->index)
		HroeValidation("Where clause does not contain a mandatory equality on all key attributes");
	if (s->index)
	{
		HroeIndexMeta *ix = hroe_index_lookup(t, s->index);

		if (ix == NULL)
			HroeValidation(psprintf("The table does not have the specified index: %s", s->index));
		ks = &ix->schema;
	}
	r->schema = ks;
	Conjuncts(s->where, &conj, &nconj, &cap);
	used = palloc0(sizeof(bool) * (nconj + 1));
	TextMember(body, "TableName", s->table);

	switch (s->kind)
	{
		case PQ_SELECT:
			{
				PqNode	   *hash = NULL;
				int			hi = -1;
				StringInfoData kce;
				bool		ranged;
				char	   *filter;

				if (s->index)
					TextMember(body, "IndexName", s->index);
				for (int i = 0; i < nconj && hash == NULL; i++)
				{
					if ((hash = KeyEquality(conj[i], ks->names[0])) != NULL)
						hi = i;
					else if (conj[i]->kind == PQ_IN && IsAttr(conj[i]->args[0], ks->names[0]))
					{
						bool		values = true;

						for (int k = 1; k < conj[i]->nargs; k++)
							values &= IsValue(conj[i]->args[k]);
						if (values)
						{
							hash = conj[i];
							hi = i;
						}
					}
				}
				if (get)
				{
					StringInfoData key;

					initStringInfo(&key);
					WriteKey(&b, ks, conj, nconj, used, &key);
					filter = RestCondition(&b, conj, nconj, used);
					if (s->index || filter[0])
						HroeValidation("Where clause does not contain a mandatory equality on all key attributes");
					r->op = "GetItem";
					appendStringInfo(body, ",\"Key\":%s", key.data);
					r->key = key.data;
				}
				else if (hash == NULL)
				{
					/* no partition key fixed: a Scan, as DynamoDB */
					r->op = "Scan";
					filter = RestCondition(&b, conj, nconj, used);
					if (filter[0])
						TextMember(body, "FilterExpression", filter);
				}
				else
				{
					r->op = "Query";
					used[hi] = true;
					initStringInfo(&kce);
					if (hash->kind == PQ_IN)
					{
						/*
						 * one Query per value (api_partiql_run.c): :pk is
						 * each; at most 50 of them, as DynamoDB
						 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-operators.html),
						 * and a value given twice is read once
						 */
						if (hash->nargs - 1 > HROE_PARTIQL_IN_KEYS_MAX)
							HroeValidation(psprintf("IN operator on a partition key supports at most %d values, got %d",
													HROE_PARTIQL_IN_KEYS_MAX, hash->nargs - 1));
						r->nin = 0;
						r->in = palloc(sizeof(char *) * (hash->nargs - 1));
						for (int k = 1; k < hash->nargs; k++)
						{
							StringInfoData v;
							bool		seen = false;

							/* (compared as jsonb's text: literal or parameter) */
							initStringInfo(&v);
							AttrValue(&b, hash->args[k], &v, 0);
							v.data = hroe_api_jsonb_text(hroe_api_text_jsonb(v.data));
							for (int j = 0; j < r->nin && !seen; j++)
								seen = strcmp(r->in[j], v.data) == 0;
							if (!seen)
								r->in[r->nin++] = v.data;
						}
						appendStringInfo(&kce, "%s = :pk", NameRef(&b, ks->names[0], strlen(ks->names[0])));
					}
					else
						appendStringInfo(&kce, "%s = %s", NameRef(&b, ks->names[0], strlen(ks->names[0])),
										 ValueRef(&b, hash));
					ranged = ks->nrange > 0 &&
						SortKeyRange(&b, conj, nconj, used, ks->names[ks->nhash], &kce);
					for (int i = 0; i < nconj && ks->nrange > 0 && !ranged; i++)
						if (!used[i] && SortKeyCondition(conj[i], ks->names[ks->nhash]))
						{
							StringInfoData c;

							initStringInfo(&c);
							Condition(&b, conj[i], &c);
							appendStringInfo(&kce, " AND %s", c.data);
							used[i] = true;
							break;
						}
					TextMember(body, "KeyConditionExpression", kce.data);
					filter = RestCondition(&b, conj, nconj, used);
					if (filter[0])
						TextMember(body, "FilterExpression", filter);
				}
				if (s->nproj > 0)
				{
					StringInfoData proj;

					initStringInfo(&proj);
					for (int i = 0; i < s->nproj; i++)
					{
						if (i > 0)
							appendStringInfoString(&proj, ", ");
						PathText(&b, s->proj[i], &proj);
					}
					TextMember(body, "ProjectionExpression", proj.data);
				}
				break;
			}
		case PQ_INSERT:
			r->op = "PutItem";
			appendStringInfoString(body, ",\"Item\":");
			InsertItem(&b, s->value, body);
			TextMember(body, "ConditionExpression",
					   psprintf("attribute_not_exists(%s)",
								NameRef(&b, t->schema.names[0], strlen(t->schema.names[0]))));
			break;
		case PQ_UPDATE:
		case PQ_DELETE:
		case PQ_EXISTS:
			{
				StringInfoData key;
				StringInfoData cond;
				char	   *rest;

				initStringInfo(&key);
				initStringInfo(&cond);
				WriteKey(&b, ks, conj, nconj, used, &key);
				r->key = key.data;
				appendStringInfo(body, ",\"Key\":%s", key.data);
				if (s->kind == PQ_UPDATE)
				{
					r->op = "UpdateItem";
					TextMember(body, "UpdateExpression", UpdateText(&b, s));
					/* UPDATE changes an item that exists only */
					AndText(&cond, psprintf("attribute_exists(%s)",
											NameRef(&b, ks->names[0], strlen(ks->names[0]))), false);
				}
				else if (s->kind == PQ_EXISTS)
				{
					/*
					 * TransactWriteItems' ConditionCheck: the item exists and
					 * meets the rest of the WHERE (ExecuteTransaction only)
					 */
					r->op = "ConditionCheck";
					AndText(&cond, psprintf("attribute_exists(%s)",
											NameRef(&b, ks->names[0], strlen(ks->names[0]))), false);
				}
				else
					r->op = "DeleteItem";
				rest = RestCondition(&b, conj, nconj, used);
				if (rest[0] && s->kind == PQ_DELETE)
				{
					/*
					 * DELETE of a missing item succeeds, deleting nothing; of
					 * an item failing the conditions, ConditionalCheckFailed
					 * (AWS's DELETE reference)
					 */
					appendStringInfo(&cond, "attribute_not_exists(%s) OR %s",
									 NameRef(&b, ks->names[0], strlen(ks->names[0])), rest);
				}
				else if (rest[0])
					AndText(&cond, rest, false);
				if (cond.len)
					TextMember(body, "ConditionExpression", cond.data);
				if (s->returning)
					TextMember(body, "ReturnValues", s->returning);
				break;
			}
	}
	r->names = b.names.data;
	r->values = b.values.data;
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
