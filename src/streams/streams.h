/*-------------------------------------------------------------------------
 *
 * streams.h
 *	  DynamoDB Streams' capture trigger (streams.c) and Time to Live's
 *	  deletions and background worker (ttl.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_STREAMS_H
#define HROE_STREAMS_H

#include "postgres.h"

/* Set while Time to Live deletes: the stream records the service's deletions */
extern bool hroe_stream_service_delete;

/* Time to Live's worker (ttl.c) */
extern char *hroe_ttl_database;
extern int	hroe_ttl_naptime;
extern int	hroe_ttl_batch_size;

/* The owner of hroe.stream_records (the extension's owner) */
extern Oid	hroe_streams_owner(void);

/* Define the settings; register the worker when preloaded (from _PG_init) */
extern void hroe_streams_init(void);

/* Time to Live's background worker */
extern PGDLLEXPORT void hroe_ttl_worker_main(Datum arg);

#endif							/* HROE_STREAMS_H */
