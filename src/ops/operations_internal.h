/*-------------------------------------------------------------------------
 *
 * operations_internal.h
 *	  Helpers the operations layer's files share (operations.c): the read
 *	  snapshot, item copies, key columns and the plain Put and Delete.  The
 *	  rest of hroe uses operations.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_OPERATIONS_INTERNAL_H
#define HROE_OPERATIONS_INTERNAL_H

#include "fmgr.h"

#include "operations.h"

extern void hroe_op_push_read_snapshot(void);
extern char *hroe_op_arg_text(FunctionCallInfo fcinfo, int n);
extern Oid hroe_op_item_type_oid(void);
extern HroeItem *hroe_op_copy_item(MemoryContext cxt, Datum d);
extern Jsonb *hroe_op_text_to_jsonb(const char *s);
extern int hroe_op_key_names(HroeTableMeta *t, HroeIndexMeta *ix, const char **names);
extern Jsonb *hroe_op_key_jsonb(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item);
extern HroeItem *hroe_op_fetch_item(HroeTableMeta *t, Datum *keys, bool for_update, MemoryContext cxt);
extern HroeItem *hroe_op_do_put(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
	  ItemPointer locked_tid, bool need_old, MemoryContext cxt, double *units,
	  double *index_units, bool *conflict);
extern HroeItem *hroe_op_do_delete(HroeTableMeta *t, Datum *keys, MemoryContext cxt, double *units, double *index_units);

/* The SQL functions' conditional Put and Delete (operations_write.c) */
extern Datum hroe_conditional_write_call(FunctionCallInfo fcinfo, HroeWriteKind kind);

#endif							/* HROE_OPERATIONS_INTERNAL_H */
