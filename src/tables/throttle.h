/*-------------------------------------------------------------------------
 *
 * throttle.h
 *	  DynamoDB's throttling, opt-in per table (throttle.c, doc/throttling.md):
 *	  token buckets for a table's or GSI's provisioned capacity (with burst
 *	  credit), its OnDemandThroughput maximum and each partition key's
 *	  per-second limits, shared by the server's backends.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_THROTTLE_H
#define HROE_THROTTLE_H

#include "tables.h"

/*
 * Before an operation on t (index: a GSI or LSI number of t, -1 for the
 * table; pk: the partition key's column Datum, NULL when the operation has
 * none, such as a Scan): true if it may run.  A refused one raises
 * ProvisionedThroughputExceededException or ThrottlingException with
 * DynamoDB's message, unless raise is false (a batch's item, answered as
 * unprocessed).  A write also checks the table's GSIs, which it may write.
 * Nothing is checked on a table whose throttling is off.  The caller counts
 * a refused key in Contributor Insights (hroe_throttle_refuse_item).
 */
extern bool hroe_throttle_admit(HroeTableMeta *t, bool write, int index, const Datum *pk,
								bool raise);

/*
 * After it: charge the units the operation consumed (index_units: one entry
 * per index of t, may be NULL; for a read of an index, units are that
 * index's).  A bucket may go below zero: later requests wait for its refill.
 */
extern void hroe_throttle_charge(HroeTableMeta *t, bool write, int index, const Datum *pk,
								 double units, const double *index_units);

/* Whether t is throttled at all (hroe.throttling, its switch) */
extern bool hroe_throttle_active(HroeTableMeta *t);

/* Whether the last refusal was a provisioned table's (else on demand) */
extern bool hroe_throttle_last_provisioned(void);

/*
 * A refused access to item (or key) of t: counted among Contributor
 * Insights' throttled keys (where they are enabled); raise: then the
 * refusal's exception
 */
extern void hroe_throttle_refuse_item(HroeTableMeta *t, const HroeItem *item, bool write,
									  bool raise);

/* Raise the last refusal's exception (a batch none of whose items ran) */
extern void hroe_throttle_raise(void) pg_attribute_noreturn();

/* The ThrottlingReasons (JSON array text) of the last refusal, or NULL */
extern const char *hroe_throttle_reasons(void);

/* _PG_init: the setting hroe.throttling, the shared buckets when preloaded */
extern void hroe_throttle_init(void);

#endif							/* HROE_THROTTLE_H */
