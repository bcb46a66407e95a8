/*-------------------------------------------------------------------------
 *
 * direct_write.h
 *	  Writes that replace an existing row without SPI or the executor
 *	  (direct_write.c): a PutItem's overwrite and the locked writes.  Each
 *	  returns false, having written nothing, when the caller must run its
 *	  SQL statement instead.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_DIRECT_WRITE_H
#define HROE_DIRECT_WRITE_H

#include "storage/itemptr.h"

#include "item.h"
#include "tables.h"

/* Replace the item of keys by item; *old (when given) gets the old item */
extern bool hroe_direct_overwrite(HroeTableMeta *t, HroeItem *item, Datum *keys,
								  MemoryContext cxt, HroeItem **old);

/* Replace the row this transaction locked at tid by item */
extern bool hroe_direct_update_locked(HroeTableMeta *t, ItemPointer tid, HroeItem *item);

#endif							/* HROE_DIRECT_WRITE_H */
