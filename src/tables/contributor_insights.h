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
 * Count a read or write of item in table t, and in each of its indexes
 * the item is in, where Contributor Insights is enabled (THROTTLED_KEYS:
 * only when throttled): the entry point of the item operations and of
 * throttling
 */
extern void hroe_contributor_insights_item(HroeTableMeta *t, const HroeItem *item, bool write,
										   bool throttled);

#endif							/* HROE_CONTRIBUTOR_INSIGHTS_H */
