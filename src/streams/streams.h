/*-------------------------------------------------------------------------
 *
 * streams.h
 *	  DynamoDB Streams' capture trigger (streams.c); Time to Live is in
 *	  ttl.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_STREAMS_H
#define HROE_STREAMS_H

#include "postgres.h"

/* Set while Time to Live deletes: the stream records the service's deletions */
extern bool hroe_stream_service_delete;

/* The owner of hroe.stream_records (the extension's owner) */
extern Oid	hroe_streams_owner(void);

/* The JSON API's helpers (streams_api.c), shared with ttl_api.c */
struct StringInfoData;
extern void hroe_streams_api_append_result(struct StringInfoData *out, const char *sql, int nargs,
										   Oid *types, Datum *values, const char *nulls);
extern void hroe_api_refuse_if_distributed(const char *table, const char *feature);

#endif							/* HROE_STREAMS_H */
