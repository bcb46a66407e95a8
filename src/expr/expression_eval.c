/*-------------------------------------------------------------------------
 *
 * expression_eval.c
 *	  Evaluation of DynamoDB ConditionExpression/FilterExpression trees
 *	  (parsed by expression_parse.c) against hroe.item values.
 *
 * Semantics (doc/dynamodb-rules.md#conditions-and-filters, dynalite's compare()):
 *	- a path that does not resolve, on a missing item (NULL) every path, is
 *	  absent; attribute_not_exists is then true and every comparison with an
 *	  absent operand is false, except "<>", which is true;
 *	- operands of different types are unequal, never an error; "<" "<=" ">"
 *	  ">=" and BETWEEN hold only between two S, two N or two B values;
 *	- S and B order bytewise (shorter prefix first), N numerically;
 *	- "=" on L, M and sets compares whole values (sets and maps are stored
 *	  canonically, so byte equality is value equality);
 *	- size() is the byte length of S and B, the element count of a set or L,
 *	  the entry count of M; for N, BOOL and NULL it is absent.
 *
 * Uses only palloc, ereport and the hroe.item C API, so the fuzzer
 * (test/fuzz/expression_fuzzer.c) links it outside the server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"

#include "expression.h"
#include "item.h"

/* An operand's value: present or absent, possibly computed (size()) */
typedef struct Operand
{
	bool		present;
	HroeValue	v;
	char		buf[16];		/* digits of a size() result */
} Operand;

/* Follow a parsed document path from the item's attribute map */
bool
hroe_path_resolve(const HroeItem *item, const List *path, HroeValue *val)
{
	HroeValue	cur;
	ListCell   *lc;

	if (item == NULL)
		return false;
	hroe_item_root(item, &cur);
	foreach(lc, path)
	{
		HroePathElem *e = lfirst(lc);

		if (e->is_index)
		{
			if (cur.type != HROE_L || (uint32) e->index >= hroe_value_count(&cur))
				return false;
			hroe_list_element(&cur, (uint32) e->index, &cur);
		}
		else
		{
			if (e->name == NULL || cur.type != HROE_M ||
				!hroe_map_find(&cur, e->name, e->namelen, &cur))
				return false;
		}
	}
	*val = cur;
	return true;
}

/* "a.b[2].c": a parsed path as text, for messages */
char *
hroe_path_text(const List *path)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, path)
	{
		HroePathElem *e = lfirst(lc);

		if (e->is_index)
			appendStringInfo(&buf, "[%d]", e->index);
		else
		{
			if (foreach_current_index(lc) > 0)
				appendStringInfoChar(&buf, '.');
			if (e->name)
				hroe_append_message_bytes(&buf, e->name, e->namelen);
		}
	}
	return buf.data;
}

/*
 * size() of a string: its length in UTF-16 code units, as DynamoDB counts
 * it (a character beyond U+FFFF is two), not its UTF-8 bytes; the string
 * is valid UTF-8, so every byte that does not continue a character starts
 * one, and a four-byte character is the one that needs two units
 */
static int64
Utf16Length(const char *s, uint32 len)
{
	int64		units = 0;

	for (uint32 i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if ((c & 0xC0) != 0x80)
			units += c >= 0xF0 ? 2 : 1;
	}
	return units;
}

/* Resolve one operand node: a path, a :value, or size(path) */
static void
EvalOperand(const HroeExprNode *n, const HroeItem *item, Operand *op)
{
	op->present = false;
	switch (n->kind)
	{
		case HROE_EXPR_PATH:
			op->present = hroe_path_resolve(item, n->path, &op->v);
			return;
		case HROE_EXPR_VALUE:
			Assert(n->value && n->value->hv);
			op->v = *n->value->hv;
			op->present = true;
			return;
		case HROE_EXPR_FUNCTION:
			{
				Operand		arg;
				int64		size;

				Assert(strcmp(n->funcname, "size") == 0);
				EvalOperand(linitial(n->args), item, &arg);
				if (!arg.present)
					return;
				switch (arg.v.type)
				{
					case HROE_S:
						size = Utf16Length(arg.v.data, arg.v.len);
						break;
					case HROE_B:
						size = arg.v.len;
						break;
					case HROE_L:
					case HROE_M:
					case HROE_SS:
					case HROE_NS:
					case HROE_BS:
						size = hroe_value_count(&arg.v);
						break;
					default:
						return;
				}
				snprintf(op->buf, sizeof(op->buf), INT64_FORMAT, size);
				op->v.type = HROE_N;
				op->v.data = op->buf;
				op->v.len = strlen(op->buf);
				op->present = true;
				return;
			}
		default:
			elog(ERROR, "unexpected operand node kind %d", (int) n->kind);
	}
}

/* Whether two operands are both present and equal */
static bool
OperandsEqual(const Operand *a, const Operand *b)
{
	return a->present && b->present && hroe_value_equal(&a->v, &b->v);
}

/*
 * Order of two present operands of the same type S, N or B (<0, 0, >0);
 * false if they are not comparable.
 */
static bool
OperandsOrder(const Operand *a, const Operand *b, int *cmp)
{
	if (!a->present || !b->present || a->v.type != b->v.type)
		return false;
	switch (a->v.type)
	{
		case HROE_N:
			*cmp = hroe_number_compare(a->v.data, a->v.len, b->v.data, b->v.len);
			return true;
		case HROE_S:
		case HROE_B:
			{
				int			c = memcmp(a->v.data, b->v.data, Min(a->v.len, b->v.len));

				*cmp = c != 0 ? c : (a->v.len > b->v.len) - (a->v.len < b->v.len);
				return true;
			}
		default:
			return false;
	}
}

/*
 * Whether bytes of needle occur in haystack: glibc's memmem, the two-way
 * algorithm, linear in haylen + nlen (a naive scan is quadratic: a 200 KB
 * needle almost matching everywhere in a 400 KB string takes seconds)
 */
static bool
BytesContain(const char *hay, uint32 haylen, const char *needle, uint32 nlen)
{
	if (nlen == 0)
		return true;
	if (nlen > haylen)
		return false;
	return memmem(hay, haylen, needle, nlen) != NULL;
}

/* contains(a, b): substring of S/B, member of a set, element of an L */
static bool
EvalContains(const Operand *a, const Operand *b)
{
	uint32		n;
	HroeValue	e;

	if (!a->present || !b->present)
		return false;
	switch (a->v.type)
	{
		case HROE_S:
		case HROE_B:
			return b->v.type == a->v.type &&
				BytesContain(a->v.data, a->v.len, b->v.data, b->v.len);
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			if (b->v.type != (a->v.type == HROE_SS ? HROE_S :
							  a->v.type == HROE_NS ? HROE_N : HROE_B))
				return false;
			/* sets are stored sorted; a linear scan keeps this simple */
			n = hroe_value_count(&a->v);
			for (uint32 i = 0; i < n; i++)
			{
				CHECK_FOR_INTERRUPTS();
				hroe_list_element(&a->v, i, &e);
				if (hroe_value_equal(&e, &b->v))
					return true;
			}
			return false;
		case HROE_L:
			n = hroe_value_count(&a->v);
			for (uint32 i = 0; i < n; i++)
			{
				CHECK_FOR_INTERRUPTS();
				hroe_list_element(&a->v, i, &e);
				if (hroe_value_equal(&e, &b->v))
					return true;
			}
			return false;
		default:
			return false;
	}
}

/* Evaluate a condition function (not size(), which is an operand) */
static bool
EvalFunction(const HroeExprNode *n, const HroeItem *item)
{
	Operand		a,
				b;
	const char *name = n->funcname;

	EvalOperand(linitial(n->args), item, &a);
	if (strcmp(name, "attribute_exists") == 0)
		return a.present;
	if (strcmp(name, "attribute_not_exists") == 0)
		return !a.present;
	EvalOperand(lsecond(n->args), item, &b);
	if (strcmp(name, "attribute_type") == 0)
	{
		const char *t;

		if (!a.present || !b.present || b.v.type != HROE_S)
			return false;
		t = hroe_type_name(a.v.type);
		return strlen(t) == b.v.len && memcmp(t, b.v.data, b.v.len) == 0;
	}
	if (strcmp(name, "begins_with") == 0)
	{
		if (!a.present || !b.present || a.v.type != b.v.type ||
			(a.v.type != HROE_S && a.v.type != HROE_B))
			return false;
		return b.v.len <= a.v.len && memcmp(a.v.data, b.v.data, b.v.len) == 0;
	}
	if (strcmp(name, "contains") == 0)
		return EvalContains(&a, &b);
	elog(ERROR, "unexpected condition function \"%s\"", name);
	return false;
}

/*
 * Evaluate a checked condition tree against an item (NULL: a missing item,
 * every path absent).
 */
bool
hroe_expr_eval(const HroeExprNode *n, const HroeItem *item)
{
	Operand		a,
				b,
				c;
	int			cmp,
				cmp2;
	ListCell   *lc;

	check_stack_depth();
	CHECK_FOR_INTERRUPTS();
	switch (n->kind)
	{
		case HROE_EXPR_AND:
			return hroe_expr_eval(linitial(n->args), item) &&
				hroe_expr_eval(lsecond(n->args), item);
		case HROE_EXPR_OR:
			return hroe_expr_eval(linitial(n->args), item) ||
				hroe_expr_eval(lsecond(n->args), item);
		case HROE_EXPR_NOT:
			return !hroe_expr_eval(linitial(n->args), item);
		case HROE_EXPR_COMPARE:
			EvalOperand(linitial(n->args), item, &a);
			EvalOperand(lsecond(n->args), item, &b);
			switch (n->op)
			{
				case HROE_CMP_EQ:
					return OperandsEqual(&a, &b);
				case HROE_CMP_NE:
					return !OperandsEqual(&a, &b);
				case HROE_CMP_LT:
					return OperandsOrder(&a, &b, &cmp) && cmp < 0;
				case HROE_CMP_LE:
					return OperandsOrder(&a, &b, &cmp) && cmp <= 0;
				case HROE_CMP_GT:
					return OperandsOrder(&a, &b, &cmp) && cmp > 0;
				case HROE_CMP_GE:
					return OperandsOrder(&a, &b, &cmp) && cmp >= 0;
			}
			return false;
		case HROE_EXPR_BETWEEN:
			EvalOperand(linitial(n->args), item, &a);
			EvalOperand(lsecond(n->args), item, &b);
			EvalOperand(lthird(n->args), item, &c);
			return OperandsOrder(&a, &b, &cmp) && OperandsOrder(&a, &c, &cmp2) &&
				cmp >= 0 && cmp2 <= 0;
		case HROE_EXPR_IN:
			EvalOperand(linitial(n->args), item, &a);
			if (!a.present)
				return false;
			for_each_from(lc, n->args, 1)
			{
				CHECK_FOR_INTERRUPTS();
				EvalOperand(lfirst(lc), item, &b);
				if (OperandsEqual(&a, &b))
					return true;
			}
			return false;
		case HROE_EXPR_FUNCTION:
			return EvalFunction(n, item);
		case HROE_EXPR_PATH:
		case HROE_EXPR_VALUE:
			break;
	}
	elog(ERROR, "unexpected condition node kind %d", (int) n->kind);
	return false;
}

/*
 * A ConditionExpression guarding a write: raise DynamoDB's
 * ConditionalCheckFailedException (E22) unless the condition holds for the
 * item (NULL: the item does not exist).
 */
void
hroe_condition_check(const HroeExprNode *cond, const HroeItem *item)
{
	if (!hroe_expr_eval(cond, item))
		ereport(ERROR,
				(errcode(ERRCODE_HROE_CONDITIONAL_CHECK_FAILED),
				 errmsg("The conditional request failed"),
				 errdetail("DynamoDB ConditionalCheckFailedException.")));
}

/* Whether a condition tree has a path whose first attribute is name */
bool
hroe_expr_uses_attribute(const HroeExprNode *n, const char *name)
{
	ListCell   *lc;

	if (n->kind == HROE_EXPR_PATH)
	{
		HroePathElem *first = linitial(n->path);

		return !first->is_index && hroe_name_is(first->name, first->namelen, name);
	}
	foreach(lc, n->args)
		if (hroe_expr_uses_attribute(lfirst(lc), name))
			return true;
	return false;
}
