/*-------------------------------------------------------------------------
 *
 * replica.h
 *	  Hot standbys for eventually consistent reads: their lag measured
 *	  against the primary, and the choice of a fresh one per request.
 *
 * gateway/replica.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_REPLICA_H
#define GATEWAY_REPLICA_H

#include <stddef.h>

#include "config.h"

/* Start the thread that measures the standbys (none: nothing to do). */
extern void replica_start(const GatewayConfig *config);

/* Stop it (at shutdown). */
extern void replica_stop(void);

/*
 * Where to run the operation: a fresh standby's target (1..nreplicas, in
 * turn among the fresh ones) for an eventually consistent read, else
 * POOL_PRIMARY.
 */
extern int	replica_target(const char *operation, const char *body, size_t len);

/*
 * A standby could not answer a read (down, busy with an error, not a
 * standby any more): it is skipped for a second, and the read goes to the
 * primary.
 */
extern void replica_failed(int target, const char *why);

#endif							/* GATEWAY_REPLICA_H */
