/*-------------------------------------------------------------------------
 *
 * api_legacy.c
 *	  DynamoDB's legacy (non-expression) parameters, as older SDKs and
 *	  mappers still send them: AttributesToGet (GetItem, BatchGetItem,
 *	  Query, Scan), KeyConditions and QueryFilter (Query), ScanFilter
 *	  (Scan), Expected (PutItem, UpdateItem, DeleteItem), ConditionalOperator
 *	  and AttributeUpdates (UpdateItem).
 *
 * Each is validated with DynamoDB's legacy messages, then turned into the
 * trees the expression parameters give (expression.h): a condition per
 * attribute, joined by ConditionalOperator; AttributeUpdates' actions as
 * SET, REMOVE, ADD and DELETE; AttributesToGet as a projection of top-level
 * names; KeyConditions as a key condition.  The operations layer then runs
 * them as it runs expressions: conditions, filters, key conditions, paging,
 * capacity and ReturnValues are implemented once.  BatchGetItem's
 * AttributesToGet, which the operations layer reads from RequestItems,
 * becomes a ProjectionExpression over placeholders that cannot clash with
 * the request's own, since a table's request may not mix the two.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/jsonb.h"

#include "api_internal.h"

/*
 * The legacy parameters each operation takes, and the expressions it allows
 * (the refusal of a request that gives both kinds is api_validate.c's)
 */
typedef struct LegacyParams
{
	const char *legacy[5];		/* non-expression parameters */
	int			allowed;		/* HROE_EXPR_* */
} LegacyParams;

static const LegacyParams params[] = {
	[API_LEGACY_GET] = {{"AttributesToGet"}, HROE_EXPR_PROJECTION},
	[API_LEGACY_PUT] = {{"Expected", "ConditionalOperator"}, HROE_EXPR_CONDITION},
	[API_LEGACY_DELETE] = {{"Expected", "ConditionalOperator"}, HROE_EXPR_CONDITION},
	[API_LEGACY_UPDATE] = {{"AttributeUpdates", "Expected", "ConditionalOperator"},
	HROE_EXPR_UPDATE | HROE_EXPR_CONDITION},
	[API_LEGACY_QUERY] = {{"AttributesToGet", "QueryFilter", "ConditionalOperator", "KeyConditions"},
	HROE_EXPR_PROJECTION | HROE_EXPR_FILTER | HROE_EXPR_KEY_CONDITION},
	[API_LEGACY_SCAN] = {{"AttributesToGet", "ScanFilter", "ConditionalOperator"},
	HROE_EXPR_PROJECTION | HROE_EXPR_FILTER},
};

/* A ComparisonOperator: its operand count and the operand types it takes */
typedef enum LegacyOperandTypes
{
	OPERANDS_ANY,				/* every type */
	OPERANDS_SCALAR,			/* S, N, B */
	OPERANDS_STRING_BINARY		/* S, B */
} LegacyOperandTypes;

typedef struct LegacyOperator
{
	const char *name;
	int			min;
	int			max;			/* -1: no maximum */
	LegacyOperandTypes types;
	bool		indexable;		/* allowed in KeyConditions */
} LegacyOperator;

static const LegacyOperator operators[] = {
	{"EQ", 1, 1, OPERANDS_ANY, true},
	{"NE", 1, 1, OPERANDS_ANY, false},
	{"LE", 1, 1, OPERANDS_SCALAR, true},
	{"LT", 1, 1, OPERANDS_SCALAR, true},
	{"GE", 1, 1, OPERANDS_SCALAR, true},
	{"GT", 1, 1, OPERANDS_SCALAR, true},
	{"NOT_NULL", 0, 0, OPERANDS_ANY, false},
	{"NULL", 0, 0, OPERANDS_ANY, false},
	{"CONTAINS", 1, 1, OPERANDS_SCALAR, false},
	{"NOT_CONTAINS", 1, 1, OPERANDS_SCALAR, false},
	{"BEGINS_WITH", 1, 1, OPERANDS_STRING_BINARY, true},
	{"IN", 1, -1, OPERANDS_SCALAR, false},
	{"BETWEEN", 2, 2, OPERANDS_SCALAR, true},
};

/* The enum as DynamoDB lists it in its messages */
#define OPERATOR_ENUM "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]"

/* One attribute's condition, validated */
typedef struct LegacyCondition
{
	char	   *attr;			/* attrlen bytes (it may hold U+0000) */
	int			attrlen;
	const LegacyOperator *op;
	int			nvalues;
	HroeAttrValue **values;
} LegacyCondition;

/* ---------- request members ---------- */

/* Whether member name is present (JSON null is absent) */
static bool
Has(JsonbContainer *obj, const char *name)
{
	return hroe_api_member(obj, name) != NULL;
}

/* An object member's container, or NULL; a SerializationException if not an object */
static JsonbContainer *
MemberObject(JsonbContainer *obj, const char *name)
{
	JsonbValue *v = hroe_api_member(obj, name);

	if (v == NULL)
		return NULL;
	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return v->val.binary.data;
}

/* A copy of a name of len bytes, NUL-terminated (it may hold U+0000) */
static char *
NameCopy(const char *s, int len)
{
	char	   *copy = palloc(len + 1);

	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

/*
 * The entries of an object container: names (their lengths in *lens, which
 * may be NULL: they may hold U+0000) and values (containers, each an object,
 * else a SerializationException naming param); returns their number
 */
static int
ObjectEntries(JsonbContainer *obj, const char *param, char ***names, int **lens,
			  JsonbContainer ***values)
{
	int			n = JsonContainerSize(obj);
	int			i = 0;
	JsonbIterator *it = JsonbIteratorInit(obj);
	JsonbIteratorToken tok;
	JsonbValue	v;

	*names = palloc(sizeof(char *) * (n + 1));
	if (lens)
		*lens = palloc(sizeof(int) * (n + 1));
	*values = palloc(sizeof(JsonbContainer *) * (n + 1));
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		if (tok == WJB_KEY)
		{
			/* (messages show a U+0000 as \x00) */
			(*names)[i] = lens ? NameCopy(v.val.string.val, v.val.string.len) :
				hroe_message_bytes(v.val.string.val, v.val.string.len);
			if (lens)
				(*lens)[i] = v.val.string.len;
		}
		else if (tok == WJB_VALUE)
		{
			if (v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data))
				HroeSerialization(psprintf("Unexpected value type in payload: %s", param));
			(*values)[i++] = v.val.binary.data;
		}
	}
	return i;
}

/* A string member of a legacy structure, or NULL */
static char *
MemberString(JsonbContainer *obj, const char *name)
{
	return hroe_api_member_text(obj, name, name);
}

/* "1 validation error detected: ..." for the value of a member */
static void
pg_attribute_noreturn()
ConstraintError(const char *value, const char *at, const char *constraint)
{
	hroe_api_invalid(psprintf("1 validation error detected: Value %s at '%s' failed to satisfy constraint: %s",
							  value ? psprintf("'%s'", value) : "null", at, constraint));
}

/* The ComparisonOperator named name, or NULL */
static const LegacyOperator *
FindOperator(const char *name)
{
	for (int i = 0; i < lengthof(operators); i++)
		if (strcmp(operators[i].name, name) == 0)
			return &operators[i];
	return NULL;
}

/* "keyConditions" for "KeyConditions" */
static char *
LowerFirst(const char *s)
{
	char	   *r = pstrdup(s);

	r[0] = pg_ascii_tolower((unsigned char) r[0]);
	return r;
}

/* ---------- the checks DynamoDB makes on the members' shapes ---------- */

/* Whether the operation takes the legacy parameter name */
static bool
Takes(ApiLegacyOp op, const char *name)
{
	for (int i = 0; i < lengthof(params[op].legacy) && params[op].legacy[i]; i++)
		if (strcmp(params[op].legacy[i], name) == 0)
			return true;
	return false;
}

/*
 * The enums and required members of the legacy parameters, checked as
 * DynamoDB checks its members' constraints, before anything else
 */
static void
CheckShapes(JsonbContainer *req, ApiLegacyOp op)
{
	static const char *const maps[] = {"KeyConditions", "QueryFilter", "ScanFilter", "Expected"};
	char	   *conditional = Takes(op, "ConditionalOperator") ? MemberString(req, "ConditionalOperator") : NULL;
	JsonbValue *attrs;
	int			nattrs;

	for (int m = 0; m < lengthof(maps); m++)
	{
		JsonbContainer *map;
		char	  **names;
		JsonbContainer **conds;
		int			n;

		if (!Takes(op, maps[m]) || (map = MemberObject(req, maps[m])) == NULL)
			continue;
		n = ObjectEntries(map, maps[m], &names, NULL, &conds);
		for (int i = 0; i < n; i++)
		{
			char	   *co = MemberString(conds[i], "ComparisonOperator");
			char	   *at = psprintf("%s.%s.member.comparisonOperator", LowerFirst(maps[m]), names[i]);

			/* Expected may omit it (Value and Exists) */
			if (co == NULL && strcmp(maps[m], "Expected") != 0)
				ConstraintError(NULL, at, HROE_MSG_NOT_NULL);
			if (co && FindOperator(co) == NULL)
				ConstraintError(co, at, "Member must satisfy enum value set: " OPERATOR_ENUM);
		}
	}
	if (conditional && strcmp(conditional, "AND") != 0 && strcmp(conditional, "OR") != 0)
		ConstraintError(conditional, "conditionalOperator", "Member must satisfy enum value set: [OR, AND]");
	attrs = Takes(op, "AttributesToGet") ? hroe_api_member(req, "AttributesToGet") : NULL;
	if (attrs && (attrs->type != jbvBinary || !JsonContainerIsArray(attrs->val.binary.data)))
		HroeSerialization("Unexpected value type in payload: AttributesToGet");
	nattrs = attrs ? JsonContainerSize(attrs->val.binary.data) : 0;
	if (attrs && nattrs < 1)
		ConstraintError("[]", "attributesToGet", "Member must have length greater than or equal to 1");
	if (nattrs > HROE_ATTRIBUTES_TO_GET_MAX)
	{
		/* DynamoDB shows the list: [a, b, ...] */
		StringInfoData list;
		JsonbIterator *it = JsonbIteratorInit(attrs->val.binary.data);
		JsonbIteratorToken tok;
		JsonbValue	e;

		initStringInfo(&list);
		appendStringInfoChar(&list, '[');
		while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
			if (tok == WJB_ELEM)
			{
				if (list.len > 1)
					appendStringInfoString(&list, ", ");
				if (e.type == jbvString)
					appendBinaryStringInfo(&list, e.val.string.val, e.val.string.len);
			}
		appendStringInfoChar(&list, ']');
		ConstraintError(list.data, "attributesToGet",
						psprintf("Member must have length less than or equal to %d", HROE_ATTRIBUTES_TO_GET_MAX));
	}
	if (op == API_LEGACY_UPDATE)
	{
		JsonbContainer *updates = MemberObject(req, "AttributeUpdates");
		char	  **names;
		JsonbContainer **acts;
		int			n = updates ? ObjectEntries(updates, "AttributeUpdates", &names, NULL, &acts) : 0;

		for (int i = 0; i < n; i++)
		{
			char	   *action = MemberString(acts[i], "Action");

			if (action && strcmp(action, "ADD") != 0 && strcmp(action, "PUT") != 0 &&
				strcmp(action, "DELETE") != 0)
				ConstraintError(action, psprintf("attributeUpdates.%s.member.action", names[i]),
								"Member must satisfy enum value set: [ADD, PUT, DELETE]");
		}
	}
}

/* ---------- values and conditions ---------- */

/* One AttributeValue of a legacy parameter, with the item parser's messages */
static HroeAttrValue *
Value(JsonbContainer *c)
{
	const char *error = NULL;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbParseState *st = NULL;
	JsonbValue	v,
			   *res = NULL;

	/* the shape first, with the messages DynamoDB gives for these values */
	(void) hroe_attr_value_from_container(c, &error);
	if (error)
		hroe_api_invalid(error);
	/* the value as a Jsonb of its own, for hroe.item's parser */
	it = JsonbIteratorInit(c);
	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
		res = pushJsonbValue(&st, tok, tok < WJB_BEGIN_ARRAY ? &v : NULL);
	return hroe_attr_value_parse(JsonbValueToJsonb(res));
}

/* The values of an AttributeValueList (each validated); returns their number */
static int
ValueList(JsonbContainer *cond, HroeAttrValue ***values)
{
	JsonbContainer **elems;
	int			n = hroe_api_member_array(cond, "AttributeValueList", &elems);

	*values = palloc(sizeof(HroeAttrValue *) * (n + 1));
	for (int i = 0; i < n; i++)
		(*values)[i] = Value(elems[i]);
	return n;
}

/* A condition's single Value as its operand list */
static int
SingleValue(JsonbContainer *cond, HroeAttrValue ***values)
{
	*values = palloc(sizeof(HroeAttrValue *));
	(*values)[0] = Value(MemberObject(cond, "Value"));
	return 1;
}

/*
 * DynamoDB's checks of a condition's operands: their number, one type,
 * a type the operator takes, BETWEEN's order
 */
static void
CheckOperands(const LegacyCondition *c)
{
	const LegacyOperator *op = c->op;

	if (c->nvalues < op->min || (op->max >= 0 && c->nvalues > op->max))
		hroe_api_invalid(psprintf("One or more parameter values were invalid: Invalid number of argument(s) for the %s ComparisonOperator",
								  op->name));
	for (int i = 1; i < c->nvalues; i++)
		if (strcmp(c->values[i]->type, c->values[0]->type) != 0)
			hroe_api_invalid("One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type");
	for (int i = 0; i < c->nvalues; i++)
	{
		const char *t = c->values[i]->type;
		bool		ok = op->types == OPERANDS_ANY ||
			strcmp(t, "S") == 0 || strcmp(t, "B") == 0 ||
			(op->types == OPERANDS_SCALAR && strcmp(t, "N") == 0);

		if (!ok)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: ComparisonOperator %s is not valid for %s AttributeValue type",
									  op->name, t));
	}
	if (strcmp(op->name, "BETWEEN") == 0 &&
		hroe_attr_value_compare(c->values[0], c->values[1]) > 0)
		hroe_api_invalid("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
}

/*
 * The conditions of KeyConditions, QueryFilter or ScanFilter (map), each
 * validated; returns their number
 */
static int
Conditions(JsonbContainer *map, const char *param, LegacyCondition **conds)
{
	char	  **names;
	int		   *lens;
	JsonbContainer **objs;
	int			n = ObjectEntries(map, param, &names, &lens, &objs);

	*conds = palloc0(sizeof(LegacyCondition) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		LegacyCondition *c = &(*conds)[i];

		c->attr = names[i];
		c->attrlen = lens[i];
		c->op = FindOperator(MemberString(objs[i], "ComparisonOperator"));
		Assert(c->op);			/* CheckShapes */
		c->nvalues = ValueList(objs[i], &c->values);
		CheckOperands(c);
	}
	return n;
}

/* The conditions of Expected, with its Value and Exists forms; their number */
static int
ExpectedConditions(JsonbContainer *map, LegacyCondition **conds)
{
	char	  **names;
	int		   *lens;
	JsonbContainer **objs;
	int			n = ObjectEntries(map, "Expected", &names, &lens, &objs);
	const char *bad = "One or more parameter values were invalid: ";

	*conds = palloc0(sizeof(LegacyCondition) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		LegacyCondition *c = &(*conds)[i];
		JsonbContainer *o = objs[i];
		char	   *co = MemberString(o, "ComparisonOperator");
		bool		has_list = Has(o, "AttributeValueList");
		bool		has_value = Has(o, "Value");
		bool		has_exists = Has(o, "Exists");

		c->attr = names[i];
		c->attrlen = lens[i];
		if (has_list && has_value)
			hroe_api_invalid(psprintf("%sValue and AttributeValueList cannot be used together for Attribute: %s",
									  bad, hroe_message_bytes(c->attr, c->attrlen)));
		if (co)
		{
			c->op = FindOperator(co);
			Assert(c->op);		/* CheckShapes */
			if (has_exists)
				hroe_api_invalid(psprintf("%sExists and ComparisonOperator cannot be used together for Attribute: %s",
										  bad, hroe_message_bytes(c->attr, c->attrlen)));
			if (c->op->max != 0 && !has_list && !has_value)
				hroe_api_invalid(psprintf("%sValue or AttributeValueList must be used with ComparisonOperator: %s for Attribute: %s",
										  bad, co, hroe_message_bytes(c->attr, c->attrlen)));
			c->nvalues = has_value ? SingleValue(o, &c->values) : ValueList(o, &c->values);
			CheckOperands(c);
		}
		else if (has_list)
			hroe_api_invalid(psprintf("%sAttributeValueList can only be used with a ComparisonOperator for Attribute: %s",
									  bad, hroe_message_bytes(c->attr, c->attrlen)));
		else
		{
			bool		exists = hroe_api_member_bool(o, "Exists", true);

			if (exists && !has_value)
				hroe_api_invalid(psprintf("%sValue must be provided when Exists is %s for Attribute: %s",
										  bad, has_exists ? "true" : "null", hroe_message_bytes(c->attr, c->attrlen)));
			if (!exists && has_value)
				hroe_api_invalid(psprintf("%sValue cannot be used when Exists is false for Attribute: %s",
										  bad, hroe_message_bytes(c->attr, c->attrlen)));
			/* Value alone is EQ; Exists false is NULL */
			c->op = FindOperator(exists ? "EQ" : "NULL");
			if (exists)
				c->nvalues = SingleValue(o, &c->values);
		}
	}
	return n;
}

/* ---------- the trees ---------- */

static HroeExprNode *
ExprNode(HroeExprKind kind, List *args)
{
	HroeExprNode *n = palloc0(sizeof(HroeExprNode));

	n->kind = kind;
	n->args = args;
	return n;
}

/* The path of a top-level attribute */
static List *
TopPath(const char *attr, int len)
{
	HroePathElem *e = palloc0(sizeof(HroePathElem));

	e->name = NameCopy(attr, len);
	e->namelen = len;
	return list_make1(e);
}

static HroeExprNode *
PathNode(const char *attr, int len)
{
	HroeExprNode *n = ExprNode(HROE_EXPR_PATH, NIL);

	n->path = TopPath(attr, len);
	return n;
}

static HroeExprNode *
ValueNode(HroeAttrValue *v)
{
	HroeExprNode *n = ExprNode(HROE_EXPR_VALUE, NIL);

	n->valname = ":legacy";
	n->value = v;
	return n;
}

static HroeExprNode *
Function(const char *name, List *args)
{
	HroeExprNode *n = ExprNode(HROE_EXPR_FUNCTION, args);

	n->funcname = pstrdup(name);
	return n;
}

/* One condition as the expression that means the same */
static HroeExprNode *
ConditionNode(const LegacyCondition *c)
{
	static const struct
	{
		const char *name;
		HroeCmpOp	cmp;
	}			cmps[] = {
		{"EQ", HROE_CMP_EQ}, {"NE", HROE_CMP_NE}, {"LE", HROE_CMP_LE},
		{"LT", HROE_CMP_LT}, {"GE", HROE_CMP_GE}, {"GT", HROE_CMP_GT}
	};
	const char *op = c->op->name;
	HroeExprNode *path = PathNode(c->attr, c->attrlen);
	List	   *args = list_make1(path);

	for (int i = 0; i < c->nvalues; i++)
		args = lappend(args, ValueNode(c->values[i]));
	for (int i = 0; i < lengthof(cmps); i++)
		if (strcmp(op, cmps[i].name) == 0)
		{
			HroeExprNode *n = ExprNode(HROE_EXPR_COMPARE, args);

			n->op = cmps[i].cmp;
			return n;
		}
	if (strcmp(op, "NOT_NULL") == 0)
		return Function("attribute_exists", args);
	if (strcmp(op, "NULL") == 0)
		return Function("attribute_not_exists", args);
	if (strcmp(op, "CONTAINS") == 0)
		return Function("contains", args);
	if (strcmp(op, "NOT_CONTAINS") == 0)
		return ExprNode(HROE_EXPR_NOT, list_make1(Function("contains", args)));
	if (strcmp(op, "BEGINS_WITH") == 0)
		return Function("begins_with", args);
	if (strcmp(op, "IN") == 0)
		return ExprNode(HROE_EXPR_IN, args);
	Assert(strcmp(op, "BETWEEN") == 0);
	return ExprNode(HROE_EXPR_BETWEEN, args);
}

/* conds[lo..hi) joined by kind, as a balanced tree (NULL when empty) */
static HroeExprNode *
JoinConditions(const LegacyCondition *conds, int lo, int hi, HroeExprKind kind)
{
	int			mid = lo + (hi - lo) / 2;

	if (hi <= lo)
		return NULL;
	if (hi - lo == 1)
		return ConditionNode(&conds[lo]);
	return ExprNode(kind, list_make2(JoinConditions(conds, lo, mid, kind), JoinConditions(conds, mid, hi, kind)));
}

/* The conditions joined by the request's ConditionalOperator (AND by default) */
static HroeExprNode *
Combine(JsonbContainer *req, const LegacyCondition *conds, int n)
{
	char	   *co = MemberString(req, "ConditionalOperator");

	return JoinConditions(conds, 0, n, co && strcmp(co, "OR") == 0 ? HROE_EXPR_OR : HROE_EXPR_AND);
}

/* AttributesToGet: its names (strings, no duplicates) as a projection */
static List *
Projection(JsonbContainer *spec)
{
	JsonbValue *v = hroe_api_member(spec, "AttributesToGet");
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	e;
	List	   *paths = NIL;

	if (v == NULL)
		return NIL;
	if (v->type != jbvBinary || !JsonContainerIsArray(v->val.binary.data))
		HroeSerialization("Unexpected value type in payload: AttributesToGet");
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
	{
		ListCell   *lc;

		if (tok != WJB_ELEM)
			continue;
		if (e.type != jbvString)
			HroeSerialization("Unexpected value type in payload: AttributesToGet");
		foreach(lc, paths)
		{
			HroePathElem *other = linitial((List *) lfirst(lc));

			if (hroe_names_equal(other->name, other->namelen, e.val.string.val, e.val.string.len))
				hroe_api_invalid(psprintf("One or more parameter values were invalid: Duplicate value in attribute name: %s",
										  hroe_message_bytes(e.val.string.val, e.val.string.len)));
		}
		paths = lappend(paths, TopPath(e.val.string.val, e.val.string.len));
	}
	return paths;
}

/* AttributeUpdates as an update: PUT is SET, DELETE without a value REMOVE */
static HroeUpdateExpr *
Updates(JsonbContainer *map)
{
	char	  **names;
	int		   *lens;
	JsonbContainer **objs;
	int			n = ObjectEntries(map, "AttributeUpdates", &names, &lens, &objs);
	HroeUpdateExpr *upd = palloc0(sizeof(HroeUpdateExpr));
	const char *bad = "One or more parameter values were invalid: ";

	upd->legacy = true;
	for (int i = 0; i < n; i++)
	{
		HroeUpdateAction *a = palloc0(sizeof(HroeUpdateAction));
		char	   *action = MemberString(objs[i], "Action");
		JsonbContainer *jv = MemberObject(objs[i], "Value");
		HroeAttrValue *v = jv ? Value(jv) : NULL;

		if (action == NULL)
			action = "PUT";
		if (v == NULL && strcmp(action, "DELETE") != 0)
			hroe_api_invalid(psprintf("%sOnly DELETE action is allowed when no attribute value is specified", bad));
		if (v && strcmp(action, "DELETE") == 0 && strcmp(v->type, "SS") != 0 &&
			strcmp(v->type, "NS") != 0 && strcmp(v->type, "BS") != 0)
			hroe_api_invalid(psprintf("%sDELETE action with value is not supported for the type %s", bad, v->type));
		if (v && strcmp(action, "ADD") == 0 && strcmp(v->type, "N") != 0 && strcmp(v->type, "L") != 0 &&
			strcmp(v->type, "SS") != 0 && strcmp(v->type, "NS") != 0 && strcmp(v->type, "BS") != 0)
			hroe_api_invalid(psprintf("%sADD action is not supported for the type %s", bad, v->type));
		a->path = TopPath(names[i], lens[i]);
		a->kind = strcmp(action, "PUT") == 0 ? HROE_UPDATE_SET :
			strcmp(action, "ADD") == 0 ? HROE_UPDATE_ADD :
			v ? HROE_UPDATE_DELETE : HROE_UPDATE_REMOVE;
		a->value = v ? ValueNode(v) : NULL;
		upd->actions = lappend(upd->actions, a);
	}
	return upd->actions ? upd : NULL;
}

/* ---------- Query's key conditions ---------- */

/*
 * KeyConditions checked against the key schema of the table or index
 * queried, as DynamoDB checks them (the rest, as for a
 * KeyConditionExpression, when the operation binds them), and QueryFilter
 * kept off its key attributes.  Without the table or the index, the
 * operation's own error follows.
 */
static void
CheckKeyConditions(JsonbContainer *req, LegacyCondition *conds, int n,
				   const LegacyCondition *filter, int nfilter)
{
	char	   *table = MemberString(req, "TableName");
	char	   *index = MemberString(req, "IndexName");
	HroeTableMeta *t = table ? hroe_table_lookup(table, true) : NULL;
	HroeIndexMeta *ix = t && index ? hroe_index_lookup(t, index) : NULL;
	const HroeKeySchema *ks;

	if (t == NULL || (index && ix == NULL))
	{
		/* the operation refuses the request: only the tree's shape matters */
		for (int i = 0; i < n; i++)
			if (!conds[i].op->indexable)
				conds[i].op = FindOperator("EQ");
		return;
	}
	ks = ix ? &ix->schema : &t->schema;
	for (int k = 0; k < ks->nhash + ks->nrange; k++)
	{
		bool		is_hash = k < ks->nhash;
		LegacyCondition *c = NULL;

		if (is_hash && ks->nrange == 0 && n > ks->nhash)
			hroe_api_invalid("Query key condition not supported");
		for (int i = 0; i < n; i++)
			if (hroe_name_is(conds[i].attr, conds[i].attrlen, ks->names[k]))
				c = &conds[i];
		if (c == NULL)
		{
			if (is_hash || n > 1)
				hroe_api_invalid(psprintf("Query condition missed key schema element: %s", ks->names[k]));
			break;
		}
		if (!c->op->indexable)
			hroe_api_invalid("Attempted conditional constraint is not an indexable operation");
		for (int v = 0; v < c->nvalues; v++)
			if (c->values[v]->type[0] != ks->types[k] || c->values[v]->type[1] != '\0')
				hroe_api_invalid("One or more parameter values were invalid: Condition parameter type does not match schema type");
		if (is_hash && strcmp(c->op->name, "EQ") != 0)
			hroe_api_invalid("Query key condition not supported");
	}
	/* a condition outside the key schema (a multi-attribute key's) */
	for (int i = 0; i < n; i++)
		if (!conds[i].op->indexable)
			hroe_api_invalid("Attempted conditional constraint is not an indexable operation");
	if (n > Max(2, ks->nhash + ks->nrange))
		hroe_api_invalid("Conditions can be of length 1 or 2 only");
	for (int k = 0; k < ks->nhash + ks->nrange; k++)
		for (int i = 0; i < nfilter; i++)
			if (hroe_name_is(filter[i].attr, filter[i].attrlen, ks->names[k]))
				hroe_api_invalid(psprintf("QueryFilter can only contain non-primary key attributes: Primary key attribute: %s",
										  ks->names[k]));
}

/* ---------- entry points ---------- */

/*
 * Parse a request's expression and legacy parameters into e: DynamoDB's
 * checks of the legacy parameters' shapes (api_validate.c has refused a
 * request that mixes the two kinds), then
 * the expressions (api.c), then the legacy parameters, validated and
 * turned into the expressions' trees.
 */
void
hroe_api_parse_request(JsonbContainer *req, ApiExprs *e, ApiLegacyOp op)
{
	int			allowed = params[op].allowed;
	JsonbContainer *map;
	LegacyCondition *conds;
	LegacyCondition *filter = NULL;
	int			n,
				nfilter = 0;

	CheckShapes(req, op);
	hroe_api_parse_exprs(req, e, (allowed & HROE_EXPR_CONDITION) != 0, (allowed & HROE_EXPR_UPDATE) != 0,
						 (allowed & HROE_EXPR_FILTER) != 0, (allowed & HROE_EXPR_PROJECTION) != 0,
						 (allowed & HROE_EXPR_KEY_CONDITION) != 0);
	if (op == API_LEGACY_QUERY || op == API_LEGACY_SCAN)
	{
		const char *fname = op == API_LEGACY_QUERY ? "QueryFilter" : "ScanFilter";

		if ((map = MemberObject(req, fname)) != NULL)
		{
			nfilter = Conditions(map, fname, &filter);
			e->filter = Combine(req, filter, nfilter);
		}
	}
	if (allowed & HROE_EXPR_PROJECTION)
	{
		List	   *paths = Projection(req);

		if (paths)
		{
			char	   *select = MemberString(req, "Select");

			if (select && (strcmp(select, "ALL_ATTRIBUTES") == 0 || strcmp(select, "COUNT") == 0 ||
						   strcmp(select, "ALL_PROJECTED_ATTRIBUTES") == 0))
				hroe_api_invalid(psprintf(HROE_MSG_SELECT_PROJECTION, "AttributesToGet",
										  HROE_SELECT_WORDS(select)));
			e->projection = paths;
		}
	}
	if ((allowed & HROE_EXPR_UPDATE) && (map = MemberObject(req, "AttributeUpdates")) != NULL)
		e->update = Updates(map);
	if ((allowed & HROE_EXPR_CONDITION) && (map = MemberObject(req, "Expected")) != NULL)
	{
		n = ExpectedConditions(map, &conds);
		e->condition = Combine(req, conds, n);
	}
	if (op == API_LEGACY_QUERY && !Has(req, "KeyConditionExpression") &&
		(map = MemberObject(req, "KeyConditions")) != NULL)
	{
		n = Conditions(map, "KeyConditions", &conds);
		if (n == 0 || n > HROE_MAX_KEY_ATTRS)
			hroe_api_invalid("Conditions can be of length 1 or 2 only");
		CheckKeyConditions(req, conds, n, filter, nfilter);
		e->key_condition = JoinConditions(conds, 0, n, HROE_EXPR_AND);
	}
}

/*
 * BatchGetItem's RequestItems with each table's AttributesToGet made a
 * ProjectionExpression over placeholders #0, #1, ... (with
 * ExpressionAttributeNames), which the operations layer parses as any
 * other; a table's request with both kinds is refused first
 */
Jsonb *
hroe_api_legacy_batch_get(Jsonb *items)
{
	JsonbParseState *st = NULL;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	k,
				v;
	bool		changed = false;

	if (!JB_ROOT_IS_OBJECT(items) || JB_ROOT_IS_SCALAR(items))
		return items;
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	it = JsonbIteratorInit(&items->root);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		JsonbContainer *spec;
		List	   *paths;
		JsonbIterator *sit;
		JsonbValue	sk,
					sv;
		JsonbIteratorToken stok;
		StringInfoData proj;
		ListCell   *lc;

		if (tok != WJB_KEY)
			continue;
		pushJsonbValue(&st, WJB_KEY, &k);
		tok = JsonbIteratorNext(&it, &v, true);
		if (v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data) ||
			!Has(v.val.binary.data, "AttributesToGet"))
		{
			pushJsonbValue(&st, WJB_VALUE, &v);
			continue;
		}
		spec = v.val.binary.data;
		CheckShapes(spec, API_LEGACY_GET);
		paths = Projection(spec);
		changed = true;
		/* the table's request without AttributesToGet, then the expression */
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		sit = JsonbIteratorInit(spec);
		while ((stok = JsonbIteratorNext(&sit, &sk, true)) != WJB_DONE)
		{
			if (stok != WJB_KEY)
				continue;
			stok = JsonbIteratorNext(&sit, &sv, true);
			if (sk.val.string.len == strlen("AttributesToGet") &&
				memcmp(sk.val.string.val, "AttributesToGet", sk.val.string.len) == 0)
				continue;
			pushJsonbValue(&st, WJB_KEY, &sk);
			pushJsonbValue(&st, WJB_VALUE, &sv);
		}
		/* names given without an expression: the operation refuses them */
		if (!Has(spec, "ExpressionAttributeNames"))
		{
			initStringInfo(&proj);
			hroe_jsonb_push_key(&st, "ExpressionAttributeNames");
			pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
			foreach(lc, paths)
			{
				HroePathElem *name = linitial((List *) lfirst(lc));
				JsonbValue	nv;

				appendStringInfo(&proj, "%s#%d", proj.len ? ", " : "", foreach_current_index(lc));
				hroe_jsonb_push_key(&st, psprintf("#%d", foreach_current_index(lc)));
				nv.type = jbvString;
				nv.val.string.val = name->name;
				nv.val.string.len = name->namelen;
				pushJsonbValue(&st, WJB_VALUE, &nv);
			}
			pushJsonbValue(&st, WJB_END_OBJECT, NULL);
			hroe_jsonb_push_key(&st, "ProjectionExpression");
			v.type = jbvString;
			v.val.string.val = proj.data;
			v.val.string.len = proj.len;
			pushJsonbValue(&st, WJB_VALUE, &v);
		}
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	}
	if (!changed)
		return items;
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}
