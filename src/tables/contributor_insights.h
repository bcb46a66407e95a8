/*-------------------------------------------------------------------------
 *
 * contributor_insights.h
 *	  Contributor Insights' counts of accessed and throttled keys
 *	  (contributor_insights.c), in shared memory.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_CONTRIBUTOR_INSIGHTS_H
#define HROE_CONTRIBUTOR_INSIGHTS_H

#include "tables.h"

/* HroeTableMeta's and HroeIndexMeta's contributor_insights */
#define HROE_CI_OFF				0
#define HROE_CI_ACCESSED		1	/* ACCESSED_AND_THROTTLED_KEYS */
#define HROE_CI_THROTTLED		2	/* THROTTLED_KEYS */

extern void hroe_contributor_insights_init(void);

/* Read the modes of a table and its indexes into m (SPI connected) */
extern void hroe_contributor_insights_load(HroeTableMeta *m);

/*
 * Count one access of a key (DynamoDB JSON) of table relid, or of its
 * index index_name; kind 0: the partition key, 1: partition and sort key
 */
extern void hroe_contributor_insights_record(Oid relid, const char *index_name, int kind,
											 const char *key, int keylen, bool write,
											 bool throttled);

/*
 * Count an access of item where Contributor Insights is enabled
 * (THROTTLED_KEYS: only when throttled): a read of table t (ix NULL) or of
 * its index ix counts the key of what was read; a write counts the item's
 * key in the table and in each index the item is in.  The entry point of
 * every item operation (GetItem, PutItem, UpdateItem, DeleteItem, their
 * batches and transactions, Query, Scan, PartiQL) and of throttling; a
 * flag test when no Contributor Insights of the table is enabled.
 */
extern void hroe_contributor_insights_item(HroeTableMeta *t, HroeIndexMeta *ix,
										   const HroeItem *item, bool write, bool throttled);

#endif							/* HROE_CONTRIBUTOR_INSIGHTS_H */
