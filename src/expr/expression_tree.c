/*-------------------------------------------------------------------------
 *
 * expression_tree.c
 *	  The mutable item tree of expression_tree.h: making and expanding
 *	  nodes, and building the tree back into an hroe.item.
 *
 * Uses only palloc, ereport and the hroe.item C API (no fmgr), so the
 * fuzzer links it outside the server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "expression_tree.h"

/* A leaf node holding a value */
MutNode *
hroe_ex_mut_leaf(const HroeValue *v)
{
	MutNode    *n = palloc0(sizeof(MutNode));

	n->val = *v;
	return n;
}

/* Append a child */
void
hroe_ex_mut_add_kid(MutNode *n, MutNode *kid)
{
	if (n->nkids == n->cap)
	{
		n->cap = n->cap ? n->cap * 2 : 8;
		n->kids = n->kids ? repalloc(n->kids, sizeof(MutNode *) * n->cap)
			: palloc(sizeof(MutNode *) * n->cap);
	}
	n->kids[n->nkids++] = kid;
}

/* Turn an untouched M or L into children that can be changed */
void
hroe_ex_mut_expand(MutNode *n)
{
	uint32		count;

	if (n->expanded)
		return;
	Assert(n->val.type == HROE_M || n->val.type == HROE_L);
	count = hroe_value_count(&n->val);
	n->expanded = true;
	for (uint32 i = 0; i < count; i++)
	{
		HroeValue	v;
		MutNode    *k;

		CHECK_FOR_INTERRUPTS();
		if (n->val.type == HROE_M)
		{
			const char *nm;
			uint32		nl;

			hroe_map_entry(&n->val, i, &nm, &nl, &v);
			k = hroe_ex_mut_leaf(&v);
			k->name = nm;
			k->namelen = nl;
		}
		else
		{
			hroe_list_element(&n->val, i, &v);
			k = hroe_ex_mut_leaf(&v);
			k->index = (int) i;
		}
		hroe_ex_mut_add_kid(n, k);
	}
	n->norig = n->nkids;
}

/* An empty M or L node */
MutNode *
hroe_ex_mut_empty(HroeType type)
{
	MutNode    *n = palloc0(sizeof(MutNode));

	Assert(type == HROE_M || type == HROE_L);
	n->val.type = type;
	n->expanded = true;
	return n;
}

/*
 * Append kid to parent as the child a path step names: an M member by the
 * step's name, or an L element appended past the end at the step's index
 * (the list is built with the appended elements in index order)
 */
void
hroe_ex_mut_attach(MutNode *parent, const HroePathElem *e, MutNode *kid)
{
	if (e->is_index)
	{
		kid->index = e->index;
		kid->appended = true;
	}
	else
	{
		kid->name = e->name;
		kid->namelen = e->namelen;
	}
	hroe_ex_mut_add_kid(parent, kid);
}

/* qsort: appended list elements by requested index */
static int
AppendedCmp(const void *x, const void *y)
{
	const MutNode *a = *(MutNode *const *) x,
			   *b = *(MutNode *const *) y;

	return (a->index > b->index) - (a->index < b->index);
}

/* Build a tree node back into a value */
static void
MutBuild(MutNode *n, HroeValue *out)
{
	check_stack_depth();
	if (!n->expanded)
	{
		*out = n->val;
		return;
	}
	if (n->val.type == HROE_M)
	{
		HroeBuilder *b = hroe_builder_start();

		for (int i = 0; i < n->nkids; i++)
		{
			HroeValue	v;

			CHECK_FOR_INTERRUPTS();
			if (n->kids[i]->removed)
				continue;
			MutBuild(n->kids[i], &v);
			hroe_builder_add(b, n->kids[i]->name, n->kids[i]->namelen, &v);
		}
		hroe_builder_finish_map(b, out);
	}
	else
	{
		HroeValue  *elems = palloc(sizeof(HroeValue) * Max(n->nkids, 1));
		int			ne = 0;

		/* originals in order, then appended ones by requested index */
		if (n->nkids > n->norig)
			qsort(n->kids + n->norig, n->nkids - n->norig, sizeof(MutNode *), AppendedCmp);
		for (int i = 0; i < n->nkids; i++)
			if (!n->kids[i]->removed)
				MutBuild(n->kids[i], &elems[ne++]);
		hroe_make_list(elems, ne, out);
	}
}

/* Build the item from the root M node */
HroeItem *
hroe_ex_mut_build_item(MutNode *root)
{
	HroeBuilder *b = hroe_builder_start();

	hroe_ex_mut_expand(root);
	for (int i = 0; i < root->nkids; i++)
	{
		HroeValue	v;

		if (root->kids[i]->removed)
			continue;
		MutBuild(root->kids[i], &v);
		hroe_builder_add(b, root->kids[i]->name, root->kids[i]->namelen, &v);
	}
	return hroe_builder_finish(b);
}
