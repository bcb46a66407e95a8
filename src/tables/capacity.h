/*-------------------------------------------------------------------------
 *
 * capacity.h
 *	  DynamoDB's capacity units (capacity.c): the unit arithmetic, the units
 *	  of a table's writes and of its indexes, a transaction's, and the
 *	  ConsumedCapacity objects reporting them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_CAPACITY_H
#define HROE_CAPACITY_H

#include "utils/jsonb.h"

#include "dynamodb_limits.h"
#include "item.h"
#include "tables.h"

/* 4 KB read units in bytes (0 for none): the size rounded up */
static inline int64
hroe_rcu_count(int64 bytes)
{
	return (bytes + HROE_RCU_BYTES - 1) / HROE_RCU_BYTES;
}

/* 1 KB write units in bytes (0 for none): the size rounded up */
static inline int64
hroe_wcu_count(int64 bytes)
{
	return (bytes + HROE_WCU_BYTES - 1) / HROE_WCU_BYTES;
}

/* A read of bytes at once: 4 KB units, at least 1, halved when eventual */
extern double hroe_read_units(int64 bytes, bool consistent);

/* One item write: 1 KB units, at least 1 */
extern int64 hroe_write_units(int64 bytes);

/* Units per index of t of replacing old by new (either may be NULL) */
extern void hroe_write_index_units(HroeTableMeta *t, HroeItem *old, HroeItem *new,
								   double *index_units);

/* Units of replacing old by new: the table's, returned, and index_units */
extern double hroe_write_capacity(HroeTableMeta *t, HroeItem *old, HroeItem *new,
								  double *index_units);

/* ConsumedCapacity for ReturnConsumedCapacity NONE (NULL), TOTAL, INDEXES */
extern Jsonb *hroe_capacity_jsonb(const char *return_cc, const char *table,
								  double table_units, HroeTableMeta *t,
								  double *index_units);

/*
 * What a transaction consumed on one table: its units and each index's,
 * transactional (twice a plain read or write)
 */
typedef struct HroeTableCapacity
{
	const char *table;
	HroeTableMeta *t;
	double		units;
	double		index_units[HROE_MAX_INDEXES];
} HroeTableCapacity;

/* A transactional write of old replaced by new (check: a ConditionCheck) */
extern void hroe_tx_write_capacity(HroeTableCapacity *c, HroeItem *old, HroeItem *new,
								   bool check);

/*
 * A transaction's ConsumedCapacity (NULL for NONE): one entry per table,
 * kind "ReadCapacityUnits" or "WriteCapacityUnits"
 */
extern Jsonb *hroe_tx_capacity_jsonb(const char *rcc, HroeTableCapacity *caps, int ncaps,
									 const char *kind);

#endif							/* HROE_CAPACITY_H */
