/*-------------------------------------------------------------------------
 *
 * expression_update.c
 *	  Applying a parsed UpdateExpression to an hroe.item; exact DynamoDB
 *	  number arithmetic.
 *
 * The update works on the mutable item tree of expression_tree.h: a node is
 * either an untouched value (pointing into the input item) or an expanded M
 * or L whose children can be replaced, added or removed.  The new item is
 * built from the tree with the hroe.item builder, so it is canonical and
 * validated (depth, sets) exactly like any other item.
 *
 * Update semantics (doc/dynamodb-rules.md#update-expressions, dynalite's updateItem):
 *	- every SET value is computed from the item as it was before the update;
 *	- list indexes refer to the list before the update: "REMOVE l[0], l[1]"
 *	  removes the first two elements, and "SET l[i]" past the end appends
 *	  (in index order, after the existing elements);
 *	- the parent of every path must exist with the right container type, or
 *	  the update fails (E21); REMOVE of a missing attribute does nothing;
 *	- ADD adds to an N (missing = 0) or unites sets (creating the set);
 *	  DELETE subtracts from a set and removes the attribute when it becomes
 *	  empty; any other existing type is E20;
 *	- the result may not exceed 400 KB (E10, UpdateItem's text); a
 *	  standalone UpdateItem also measures what it writes (WrittenBytes);
 *	- no value it writes may be at level 33 (MutDepth).
 *
 * Uses only palloc, ereport and the hroe.item C API (no fmgr), so the
 * fuzzer links it outside the server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"

#include "expression.h"
#include "expression_tree.h"
#include "item.h"

#define MSG_BAD_TYPE	"An operand in the update expression has an incorrect data type"
/* ... and in AttributeUpdates' ADD or DELETE */
#define MSG_LEGACY_BAD_TYPE "Type mismatch for attribute to update"
#define MSG_NO_ATTR		"The provided expression refers to an attribute that does not exist in the item"
#define MSG_BAD_PATH	"The document path provided in the update expression is invalid for update"

/* Raise a ValidationException with DynamoDB's text */
static void
pg_attribute_noreturn()
UpdateError(const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_HROE_VALIDATION),
			 errmsg("%s", msg),
			 errdetail("DynamoDB ValidationException.")));
}

/* E10 with UpdateItem's text, for a result or a part of one */
static void
pg_attribute_noreturn()
UpdateTooBig(int64 size)
{
	ereport(ERROR,
			(errcode(ERRCODE_HROE_VALIDATION),
			 errmsg(HROE_MSG_UPDATE_TOO_BIG),
			 errdetail("DynamoDB ValidationException: the updated item would be at least " INT64_FORMAT " bytes, the maximum is %d.",
					   size, HROE_ITEM_MAX_SIZE)));
}

/* The live child of an M node by name, or NULL */
static MutNode *
MutMember(MutNode *n, const char *name, uint32 len)
{
	hroe_ex_mut_expand(n);
	for (int i = 0; i < n->nkids; i++)
	{
		MutNode    *k = n->kids[i];

		if (!k->removed && k->namelen == len && memcmp(k->name, name, len) == 0)
			return k;
	}
	return NULL;
}

/* The live element of an L node at an index of the original list, or NULL */
static MutNode *
MutElement(MutNode *n, int index)
{
	hroe_ex_mut_expand(n);
	if (index < n->norig && !n->kids[index]->removed)
		return n->kids[index];
	return NULL;
}

/* The child a path step names, or NULL (no such child, wrong container) */
static MutNode *
MutStep(MutNode *n, const HroePathElem *e)
{
	if (e->is_index)
		return n->val.type == HROE_L ? MutElement(n, e->index) : NULL;
	return n->val.type == HROE_M ? MutMember(n, e->name, e->namelen) : NULL;
}

/* The node holding the last step of a path (E21 if it does not exist) */
static MutNode *
MutParent(MutNode *root, const List *path)
{
	MutNode    *n = root;
	int			last = list_length(path) - 1;
	HroePathElem *e;

	for (int i = 0; i < last; i++)
	{
		n = MutStep(n, list_nth(path, i));
		if (n == NULL)
			UpdateError(MSG_BAD_PATH);
	}
	e = list_nth(path, last);
	if (e->is_index ? n->val.type != HROE_L : n->val.type != HROE_M)
		UpdateError(MSG_BAD_PATH);
	hroe_ex_mut_expand(n);
	return n;
}

/* Put a value at the last step of a path under its parent */
static void
MutSet(MutNode *parent, const HroePathElem *e, const HroeValue *v)
{
	MutNode    *old = MutStep(parent, e);

	if (old != NULL)
	{
		/* replace in place (keeps the list position) */
		old->val = *v;
		old->expanded = false;
		old->nkids = 0;
		return;
	}
	hroe_ex_mut_attach(parent, e, hroe_ex_mut_leaf(v));
}

/* Levels of values of a tree node (hroe_value_depth) */
static int
MutDepth(const MutNode *n)
{
	int			depth = 1;

	check_stack_depth();
	if (!n->expanded)
		return hroe_value_depth(&n->val);
	for (int i = 0; i < n->nkids; i++)
		if (!n->kids[i]->removed)
			depth = Max(depth, MutDepth(n->kids[i]) + 1);
	return depth;
}

/* DynamoDB size of a tree node (the item size formula, doc/dynamodb-rules.md#keys-and-item-size) */
static int64
MutSize(const MutNode *n)
{
	int64		size;

	if (!n->expanded)
		return hroe_value_size(&n->val);
	size = 3;
	for (int i = 0; i < n->nkids; i++)
	{
		const MutNode *k = n->kids[i];

		if (k->removed)
			continue;
		size += 1 + MutSize(k) + (n->val.type == HROE_M ? k->namelen : 0);
	}
	return size;
}

/* The root node of an item (a missing item is an empty map) */
static MutNode *
MutRoot(const HroeItem *item)
{
	MutNode    *root;

	if (item == NULL)
		return hroe_ex_mut_empty(HROE_M);
	root = palloc0(sizeof(MutNode));
	hroe_item_root(item, &root->val);
	hroe_ex_mut_expand(root);
	return root;
}

/* ---------------------------------------------------------------------
 * Numbers
 * ---------------------------------------------------------------------
 */

/* A canonical number as sign, integer digits and fraction digits */
typedef struct Decimal
{
	bool		neg;
	const char *intd;
	int			nint;
	const char *frac;
	int			nfrac;
} Decimal;

/* Split a canonical number text ("-12.5", "0.001", "7") */
static void
DecimalSplit(const HroeValue *v, Decimal *d)
{
	const char *p = v->data,
			   *end = v->data + v->len;
	const char *dot;

	d->neg = p < end && *p == '-';
	if (d->neg)
		p++;
	dot = memchr(p, '.', end - p);
	d->intd = p;
	d->nint = (dot ? dot : end) - p;
	d->frac = dot ? dot + 1 : end;
	d->nfrac = dot ? end - dot - 1 : 0;
	/* "0" and "0.x" have no integer digits to speak of */
	if (d->nint == 1 && d->intd[0] == '0')
		d->nint = 0;
}

/* Digit k of a decimal aligned to nfrac fraction digits (k=0: last digit) */
static int
DecimalDigit(const Decimal *d, int k, int nfrac)
{
	int			pos = nfrac - 1 - k;	/* position relative to the point */

	if (pos >= 0)
		return pos < d->nfrac ? d->frac[pos] - '0' : 0;
	pos = d->nint + pos;		/* index into the integer digits */
	return pos >= 0 ? d->intd[pos] - '0' : 0;
}

/* Compare magnitudes of two aligned decimals */
static int
DecimalCmpAbs(const Decimal *a, const Decimal *b, int width, int nfrac)
{
	for (int k = width - 1; k >= 0; k--)
	{
		int			x = DecimalDigit(a, k, nfrac),
					y = DecimalDigit(b, k, nfrac);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/*
 * a + b or a - b, exactly; the result is normalised by the item module,
 * which raises DynamoDB's E9 errors (38 digits, overflow, underflow).
 */
void
hroe_number_add(const HroeValue *av, const HroeValue *bv, bool subtract,
				HroeValue *result)
{
	Decimal		a,
				b;
	int			nfrac,
				width;
	char	   *digits,
			   *text,
			   *o;
	bool		neg;
	const Decimal *x,
			   *y;
	int			carry = 0;

	Assert(av->type == HROE_N && bv->type == HROE_N);
	DecimalSplit(av, &a);
	DecimalSplit(bv, &b);
	if (subtract)
		b.neg = !b.neg;
	nfrac = Max(a.nfrac, b.nfrac);
	width = nfrac + Max(a.nint, b.nint) + 1;
	digits = palloc(width);		/* digits[k]: k-th digit from the right */
	if (a.neg == b.neg)
	{
		neg = a.neg;
		for (int k = 0; k < width; k++)
		{
			int			s = DecimalDigit(&a, k, nfrac) + DecimalDigit(&b, k, nfrac) + carry;

			digits[k] = s % 10;
			carry = s / 10;
		}
	}
	else
	{
		/* subtract the smaller magnitude from the larger */
		int			c = DecimalCmpAbs(&a, &b, width, nfrac);

		x = c >= 0 ? &a : &b;
		y = c >= 0 ? &b : &a;
		neg = x->neg && c != 0;
		for (int k = 0; k < width; k++)
		{
			int			s = DecimalDigit(x, k, nfrac) - DecimalDigit(y, k, nfrac) - carry;

			carry = s < 0;
			digits[k] = s < 0 ? s + 10 : s;
		}
	}
	text = o = palloc(width + 4);
	if (neg)
		*o++ = '-';
	for (int k = width - 1; k >= nfrac; k--)
		*o++ = '0' + digits[k];
	if (nfrac > 0)
	{
		*o++ = '.';
		for (int k = nfrac - 1; k >= 0; k--)
			*o++ = '0' + digits[k];
	}
	*o = '\0';
	hroe_make_number(text, o - text, result);
}

/* ---------------------------------------------------------------------
 * Sets
 * ---------------------------------------------------------------------
 */

/* Order of two members of a set of the given type */
static int
MemberCmp(HroeType settype, const HroeValue *a, const HroeValue *b)
{
	int			c;

	if (settype == HROE_NS)
		return hroe_number_compare(a->data, a->len, b->data, b->len);
	c = memcmp(a->data, b->data, Min(a->len, b->len));
	if (c != 0)
		return c;
	return (a->len > b->len) - (a->len < b->len);
}

/*
 * Union (or difference) of two sets of the same type, by merging their
 * sorted members; false if a difference leaves nothing.
 */
static bool
SetMerge(const HroeValue *a, const HroeValue *b, bool difference, HroeValue *out)
{
	uint32		na = hroe_value_count(a),
				nb = hroe_value_count(b),
				i = 0,
				j = 0,
				n = 0;
	HroeValue  *members = palloc(sizeof(HroeValue) * (na + nb + 1));
	int64		size = 0;

	while (i < na || j < nb)
	{
		HroeValue	x,
					y;
		int			c;

		CHECK_FOR_INTERRUPTS();
		if (i < na)
			hroe_list_element(a, i, &x);
		if (j < nb)
			hroe_list_element(b, j, &y);
		c = i >= na ? 1 : j >= nb ? -1 : MemberCmp(a->type, &x, &y);
		if (c < 0)
		{
			members[n++] = x;
			i++;
		}
		else if (c > 0)
		{
			if (!difference)
				members[n++] = y;
			j++;
		}
		else
		{
			if (!difference)
				members[n++] = x;
			i++, j++;
		}
	}
	if (n == 0)
		return false;
	for (uint32 k = 0; k < n; k++)
		size += hroe_value_size(&members[k]);
	/* before the set builder's own check, for UpdateItem's text */
	if (size > HROE_ITEM_MAX_SIZE)
		UpdateTooBig(size);
	hroe_make_set(a->type, members, n, out);
	return true;
}

/* ---------------------------------------------------------------------
 * UpdateExpression
 * ---------------------------------------------------------------------
 */

/* The list a followed by the elements of the list b (list_append) */
static void
ListAppend(const HroeValue *a, const HroeValue *b, HroeValue *out)
{
	uint32		na = hroe_value_count(a),
				nb = hroe_value_count(b);
	HroeValue  *elems;
	int64		size = hroe_value_size(a) + hroe_value_size(b) - 3;

	/* before the list builder's own check, for UpdateItem's text */
	if (size > HROE_ITEM_MAX_SIZE)
		UpdateTooBig(size);
	elems = palloc(sizeof(HroeValue) * (na + nb + 1));
	CHECK_FOR_INTERRUPTS();
	for (uint32 i = 0; i < na; i++)
		hroe_list_element(a, i, &elems[i]);
	for (uint32 i = 0; i < nb; i++)
		hroe_list_element(b, i, &elems[na + i]);
	hroe_make_list(elems, na + nb, out);
}

/* Compute a SET value from the item before the update */
static void
SetValue(const HroeExprNode *n, const HroeItem *item, HroeValue *out)
{
	check_stack_depth();
	switch (n->kind)
	{
		case HROE_EXPR_VALUE:
			*out = *n->value->hv;
			return;
		case HROE_EXPR_PATH:
			if (!hroe_path_resolve(item, n->path, out))
				UpdateError(MSG_NO_ATTR);
			return;
		case HROE_EXPR_FUNCTION:
			{
				HroeValue	a,
							b;

				if (strcmp(n->funcname, "if_not_exists") == 0)
				{
					if (!hroe_path_resolve(item, ((HroeExprNode *) linitial(n->args))->path, out))
						SetValue(lsecond(n->args), item, out);
					return;
				}
				SetValue(linitial(n->args), item, &a);
				if (a.type != (n->funcname[0] == 'l' ? HROE_L : HROE_N))
					UpdateError(MSG_BAD_TYPE);
				SetValue(lsecond(n->args), item, &b);
				if (b.type != a.type)
					UpdateError(MSG_BAD_TYPE);
				if (a.type == HROE_N)
				{
					hroe_number_add(&a, &b, n->funcname[0] == '-', out);
					return;
				}
				ListAppend(&a, &b, out);
				return;
			}
		default:
			elog(ERROR, "unexpected update value node kind %d", (int) n->kind);
	}
}

/* E18: an update may not touch a key attribute */
void
hroe_update_check_keys(const HroeUpdateExpr *upd, const char *const *keys, int nkeys)
{
	ListCell   *lc;

	for (int k = 0; k < nkeys; k++)
		foreach(lc, upd->actions)
		{
			HroeUpdateAction *a = lfirst(lc);
			HroePathElem *head = linitial(a->path);

			if (head->name && hroe_name_is(head->name, head->namelen, keys[k]))
				ereport(ERROR,
						(errcode(ERRCODE_HROE_VALIDATION),
						 errmsg("One or more parameter values were invalid: Cannot update attribute %s. This attribute is part of the key",
								keys[k]),
						 errdetail("DynamoDB ValidationException.")));
		}
}

/*
 * Whether the top-level attribute k is one the update writes: the first
 * element of an action's path names it
 */
static bool
Written(const HroeUpdateExpr *upd, const MutNode *k)
{
	ListCell   *lc;

	foreach(lc, upd->actions)
	{
		HroePathElem *head = linitial(((HroeUpdateAction *) lfirst(lc))->path);

		if (head->name && head->namelen == k->namelen &&
			memcmp(head->name, k->name, k->namelen) == 0)
			return true;
	}
	return false;
}

/*
 * What a standalone UpdateItem measures against 400 KB besides the finished
 * item (doc/dynamodb-rules.md#keys-and-item-size): every top-level
 * attribute the update writes, name and finished value, plus a cost for the
 * update and for each action (dynamodb_limits.h).  The key and the
 * attributes the update leaves alone are not counted, so at a short key the
 * ceiling is below 400 KB.
 */
static int64
WrittenBytes(const HroeUpdateExpr *upd, const MutNode *root)
{
	int64		bytes = HROE_UPDATE_COST;
	ListCell   *lc;

	foreach(lc, upd->actions)
	{
		HroeUpdateAction *a = lfirst(lc);

		if (a->kind == HROE_UPDATE_SET || a->kind == HROE_UPDATE_ADD)
			bytes += ((HroePathElem *) llast(a->path))->is_index ?
				HROE_UPDATE_INDEX_COST : HROE_UPDATE_SET_COST;
		else
			bytes += HROE_UPDATE_REMOVE_COST;
	}
	for (int i = 0; i < root->nkids; i++)
	{
		const MutNode *k = root->kids[i];

		if (!k->removed && Written(upd, k))
			bytes += k->namelen + MutSize(k);
	}
	return bytes;
}

/*
 * Apply a checked UpdateExpression to an item (NULL: a missing item, as
 * UpdateItem's upsert starts from); returns the new item.  A new item past
 * 400 KB raises UpdateItem's ValidationException, unless too_big is given:
 * then *too_big is set and NULL returned (a transaction's Update, which
 * cancels the transaction instead); *too_big is false otherwise.
 */
HroeItem *
hroe_update_apply(const HroeUpdateExpr *upd, const HroeItem *item, bool *too_big)
{
	int			nactions = list_length(upd->actions);
	HroeValue  *setvals = palloc(sizeof(HroeValue) * Max(nactions, 1));
	MutNode    *root = MutRoot(item);
	ListCell   *lc;
	int64		size = 0;
	const char *bad_type = upd->legacy ? MSG_LEGACY_BAD_TYPE : MSG_BAD_TYPE;

	if (too_big)
		*too_big = false;
	/* every SET value from the item as it was */
	foreach(lc, upd->actions)
	{
		HroeUpdateAction *a = lfirst(lc);

		if (a->kind == HROE_UPDATE_SET)
			SetValue(a->value, item, &setvals[foreach_current_index(lc)]);
	}
	foreach(lc, upd->actions)
	{
		HroeUpdateAction *a = lfirst(lc);
		HroePathElem *last = llast(a->path);
		MutNode    *parent = MutParent(root, a->path);
		MutNode    *cur = MutStep(parent, last);
		HroeValue	newval;
		HroeValue  *arg = (a->kind == HROE_UPDATE_ADD || a->kind == HROE_UPDATE_DELETE)
			? a->value->value->hv : NULL;

		switch (a->kind)
		{
			case HROE_UPDATE_SET:
				MutSet(parent, last, &setvals[foreach_current_index(lc)]);
				break;
			case HROE_UPDATE_REMOVE:
				if (cur)
					cur->removed = true;
				break;
			case HROE_UPDATE_ADD:
				if (cur && (cur->expanded || cur->val.type != arg->type))
					UpdateError(bad_type);
				if (arg->type == HROE_N)
				{
					HroeValue	zero = {HROE_N, "0", 1};

					hroe_number_add(cur ? &cur->val : &zero, arg, false, &newval);
				}
				else if (cur == NULL)
					newval = *arg;
				else if (arg->type == HROE_L)
					ListAppend(&cur->val, arg, &newval);	/* legacy only */
				else
					SetMerge(&cur->val, arg, false, &newval);
				MutSet(parent, last, &newval);
				break;
			case HROE_UPDATE_DELETE:
				if (cur == NULL)
					break;
				if (cur->expanded || cur->val.type != arg->type)
					UpdateError(bad_type);
				if (SetMerge(&cur->val, arg, true, &newval))
					MutSet(parent, last, &newval);
				else
					cur->removed = true;
				break;
		}
	}
	/* E10 with UpdateItem's text, before the builder's own check */
	for (int i = 0; i < root->nkids; i++)
		if (!root->kids[i]->removed)
			size += root->kids[i]->namelen + MutSize(root->kids[i]);
	if (size > HROE_ITEM_MAX_SIZE)
	{
		if (too_big)
		{
			*too_big = true;
			return NULL;
		}
		UpdateTooBig(size);
	}
	if (upd->measure_writes)
	{
		size = WrittenBytes(upd, root);
		if (size > HROE_ITEM_MAX_SIZE && too_big)
		{
			*too_big = true;
			return NULL;
		}
		if (size > HROE_ITEM_MAX_SIZE)
			ereport(ERROR,
					(errcode(ERRCODE_HROE_VALIDATION),
					 errmsg(HROE_MSG_UPDATE_TOO_BIG),
					 errdetail("DynamoDB ValidationException: the attributes the update writes and its actions measure " INT64_FORMAT " bytes, the maximum is %d.",
							   size, HROE_ITEM_MAX_SIZE)));
	}
	/*
	 * No value the update writes at level 33 (the attribute's value is level
	 * 1): each attribute it writes, in its finished form.  The attributes it
	 * leaves alone are not checked again, so an item stored before the rule
	 * counted the attribute's own value (a string in 32 maps) can still be
	 * updated elsewhere, and a write into that attribute must bring it
	 * within 32 levels.
	 */
	for (int i = 0; i < root->nkids; i++)
		if (!root->kids[i]->removed && Written(upd, root->kids[i]) &&
			MutDepth(root->kids[i]) > HROE_ITEM_MAX_DEPTH)
			hroe_nesting_error();
	return hroe_ex_mut_build_item(root);
}

/*
 * The document paths an update touches, in written order: projected on the
 * old or the new item they give ReturnValues UPDATED_OLD / UPDATED_NEW.
 */
List *
hroe_update_paths(const HroeUpdateExpr *upd)
{
	List	   *paths = NIL;
	ListCell   *lc;

	foreach(lc, upd->actions)
		paths = lappend(paths, ((HroeUpdateAction *) lfirst(lc))->path);
	return paths;
}
