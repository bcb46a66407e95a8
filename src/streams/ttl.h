/*-------------------------------------------------------------------------
 *
 * ttl.h
 *	  DynamoDB's Time to Live (ttl.c): its settings, its start-up and hroe's
 *	  maintenance worker (expired items, stream trimming, DescribeTable's
 *	  figures of large tables).
 *
 * src/streams/ttl.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_TTL_H
#define HROE_TTL_H

#include "postgres.h"

extern char *hroe_ttl_database;
extern int	hroe_ttl_naptime;
extern int	hroe_ttl_batch_size;

/* Define the settings; register the worker when preloaded (from _PG_init) */
extern void hroe_ttl_init(void);

/* the maintenance worker's entry point */
extern PGDLLEXPORT void hroe_ttl_worker_main(Datum arg);

#endif							/* HROE_TTL_H */
