/*-------------------------------------------------------------------------
 *
 * operations.h
 *	  The data-plane operations of operations.c as C calls, for the JSON
 *	  API (api.c): the same code as the SQL functions hroe.get_item_result,
 *	  hroe.put_item, hroe.delete_item, hroe.query_page and hroe.scan_page,
 *	  without passing through fmgr, and with the request's expressions
 *	  already parsed (once per request).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_OPERATIONS_H
#define HROE_OPERATIONS_H

#include "access/skey.h"
#include "storage/itemptr.h"
#include "storage/lockdefs.h"
#include "utils/jsonb.h"
#include "utils/relcache.h"

#include "expression.h"
#include "item.h"
#include "tables.h"

/* One Query or Scan call, its expressions parsed */
typedef struct HroeReadRequest
{
	const char *table;
	const char *index;			/* IndexName or NULL */
	bool		query;			/* Query, else Scan */
	HroeExprNode *kce;			/* Query: the KeyConditionExpression */
	HroeExprNode *filter;		/* FilterExpression or NULL */
	List	   *projection;		/* ProjectionExpression paths or NIL */
	bool		forward;		/* ScanIndexForward */
	bool		consistent;		/* ConsistentRead */
	int64		limit;			/* Limit (checked >= 1), 0: none */
	Jsonb	   *esk;			/* ExclusiveStartKey or NULL */
	const char *select;			/* Select or NULL */
	const char *rcc;			/* ReturnConsumedCapacity or NULL */
	bool		has_segment;	/* Scan: Segment given */
	bool		has_total;		/* Scan: TotalSegments given */
	int32		segment;
	int32		total_segments;
} HroeReadRequest;

/* The page a read returns */
typedef struct HroeReadPage
{
	bool		count_only;		/* Select COUNT: no items */
	int			nitems;
	Datum	   *items;			/* hroe.item Datums (filtered, projected) */
	int32		count;
	int32		scanned;
	Jsonb	   *last_key;		/* LastEvaluatedKey or NULL */
	Jsonb	   *capacity;		/* ConsumedCapacity or NULL */
} HroeReadPage;

extern void hroe_check_return_cc(const char *rcc);
extern bool hroe_check_return_old(const char *rv);
extern void hroe_read_page(HroeReadRequest *r, HroeReadPage *page);
extern HroeItem *hroe_get(HroeTableMeta *t, Jsonb *key, bool consistent, double *units);
extern HroeItem *hroe_put(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
						  ItemPointer locked_tid, bool need_old, double *units,
						  double *index_units, bool *conflict);
extern Relation hroe_pkey_index_open(HroeTableMeta *t, Relation rel, LOCKMODE lockmode);
extern void hroe_pkey_scankeys(HroeTableMeta *t, Relation idx, Datum *keys, ScanKey skey);
extern bool hroe_direct_overwrite(HroeTableMeta *t, HroeItem *item, Datum *keys,
								  MemoryContext cxt, HroeItem **old);
extern bool hroe_direct_update_locked(HroeTableMeta *t, ItemPointer tid, HroeItem *item);
extern HroeItem *hroe_delete(HroeTableMeta *t, Jsonb *key, double *units, double *index_units);

#endif							/* HROE_OPERATIONS_H */
