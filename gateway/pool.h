/*-------------------------------------------------------------------------
 *
 * pool.h
 *	  A bounded pool of libpq connections with a bounded FIFO queue, driven
 *	  asynchronously by the gateway's event loop.
 *
 * gateway/pool.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_POOL_H
#define GATEWAY_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include <libpq-fe.h>

#include "config.h"

typedef enum PoolStatus
{
	POOL_OK,
	POOL_BUSY,					/* no connection within the queue's bounds */
	POOL_DOWN,					/* PostgreSQL unreachable; nothing was sent */
	POOL_LOST					/* the connection broke after the request was
								 * sent: it may or may not have run */
} PoolStatus;

typedef enum PoolStatement
{
	STMT_SECRET,				/* $1 access key id -> secret */
	STMT_CALL,					/* $1 key id, $2 operation, $3 body, $4 the
								 * secret the signature was checked with ->
								 * text, or no row if that is not the key's
								 * active secret any more */
	STMT_S3,					/* $1 key id, $2 method, $3 path, $4 query,
								 * $5 body (bytea, hex), $6 the secret ->
								 * bytea (hroe.s3_gateway_call), or no row */
	STMT_COUNT
} PoolStatement;

#define POOL_MAX_PARAMS 6

/*
 * Called once per submitted statement, from the event loop: the last result
 * (the callee owns it: PQclear) with POOL_OK, or NULL with POOL_BUSY (waited
 * past queue_timeout_ms), POOL_DOWN or POOL_LOST.
 */
typedef void (*PoolCallback) (void *arg, PGresult *res, PoolStatus status);

typedef struct PoolConn PoolConn;

/* The primary's target; the standbys are 1..config->nreplicas. */
#define POOL_PRIMARY 0

/*
 * Set up the calling thread's pools, one per target (the primary, then each
 * --replica): connections slots each (opened now, or when first needed
 * after a failure) and a queue of at most queue requests each (-1: no limit
 * of its own, see pool.c).  The
 * connections' sockets are registered in epoll_fd with the PoolConn as
 * data.ptr.  Every function below acts on the calling thread's pools.
 */
extern void pool_init(const GatewayConfig *config, int epoll_fd, int connections, int queue);

/* The number of targets (1 + the standbys). */
extern int	pool_targets(void);

/*
 * Run a prepared statement with text parameters (which must stay valid until
 * the callback) on the target's pool, for the HTTP client at address client
 * (NULL: none; the queue serves its client addresses in turn).  true: the
 * callback will come.  false: refused at once with *status POOL_BUSY (the
 * queue is full) or POOL_DOWN (PostgreSQL unreachable); no callback.
 */
extern bool pool_submit(int target, PoolStatement stmt, int nparams, const char *const *values,
						const char *client, PoolCallback callback, void *arg,
						PoolStatus *status);

/* epoll reported events on a connection's socket. */
extern void pool_event(PoolConn *pc, uint32_t events);

/* Milliseconds until the first queued request's deadline (-1: none). */
extern int	pool_timeout_ms(void);

/* Throttle the queued requests past their deadline. */
extern void pool_expire(void);

/*
 * At shutdown: every queued request gets POOL_BUSY and every running one
 * POOL_LOST, the standbys' before the primary's (a callback may still send
 * a read to the primary), then the connections are closed.
 */
extern void pool_close_all(void);

#endif							/* GATEWAY_POOL_H */
