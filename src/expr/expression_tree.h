/*-------------------------------------------------------------------------
 *
 * expression_tree.h
 *	  A small mutable tree over an hroe.item, on which UpdateExpression
 *	  (expression_update.c) and ProjectionExpression (expression_project.c)
 *	  build their results (expression_tree.c).
 *
 * A node is either an untouched value (pointing into the input item) or an
 * expanded M or L whose children can be replaced, added or removed.  The
 * new item is built from the tree with the hroe.item builder, so it is
 * canonical and validated (depth, sets) exactly like any other item.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_EXPRESSION_TREE_H
#define HROE_EXPRESSION_TREE_H

#include "expression.h"
#include "item.h"

/* A node of the mutable tree */
typedef struct MutNode
{
	HroeValue	val;			/* !expanded: the value */
	bool		expanded;		/* an M or L with children below */
	bool		removed;		/* REMOVEd (kept for list index stability) */
	bool		appended;		/* L element added past the end */
	int			index;			/* L element: original or requested index */
	const char *name;			/* M member name */
	uint32		namelen;
	int			nkids;
	int			cap;
	int			norig;			/* L: elements before the update */
	struct MutNode **kids;
} MutNode;

extern MutNode *hroe_ex_mut_leaf(const HroeValue *v);
extern void hroe_ex_mut_add_kid(MutNode *n, MutNode *kid);
extern void hroe_ex_mut_expand(MutNode *n);
extern MutNode *hroe_ex_mut_empty(HroeType type);
extern void hroe_ex_mut_attach(MutNode *parent, const HroePathElem *e, MutNode *kid);
extern HroeItem *hroe_ex_mut_build_item(MutNode *root);

#endif							/* HROE_EXPRESSION_TREE_H */
