/*-------------------------------------------------------------------------
 *
 * expression_project.c
 *	  Building the item a ProjectionExpression selects, on the mutable
 *	  item tree of expression_tree.h.
 *
 * Uses only palloc, ereport and the hroe.item C API (no fmgr), so the
 * fuzzer links it outside the server.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "expression.h"
#include "expression_tree.h"

/*
 * The item with only the attributes the paths select.  Nested paths keep
 * their containers; list elements keep their order and close up ("l[3]"
 * alone gives a one-element list), as DynamoDB returns them.
 */
HroeItem *
hroe_project(const List *paths, const HroeItem *item)
{
	MutNode    *out = hroe_ex_mut_empty(HROE_M);
	ListCell   *lc;

	foreach(lc, paths)
	{
		const List *path = lfirst(lc);
		HroeValue	v;
		MutNode    *n = out;
		ListCell   *pc;

		CHECK_FOR_INTERRUPTS();
		if (!hroe_path_resolve(item, path, &v))
			continue;
		foreach(pc, path)
		{
			HroePathElem *e = lfirst(pc);
			bool		last = pc == list_last_cell(path);
			MutNode    *k = NULL;

			/* find or make the child for this step in the output tree */
			for (int i = 0; i < n->nkids && k == NULL; i++)
				if (e->is_index ? n->kids[i]->index == e->index
					: hroe_names_equal(n->kids[i]->name, n->kids[i]->namelen,
									   e->name, e->namelen))
					k = n->kids[i];
			if (k == NULL)
			{
				HroePathElem *next = last ? NULL : lfirst(lnext(path, pc));

				k = last ? hroe_ex_mut_leaf(&v)
					: hroe_ex_mut_empty(next->is_index ? HROE_L : HROE_M);
				hroe_ex_mut_attach(n, e, k);
			}
			n = k;
		}
	}
	return hroe_ex_mut_build_item(out);
}
