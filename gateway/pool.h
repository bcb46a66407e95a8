/*-------------------------------------------------------------------------
 *
 * pool.h
 *	  A bounded pool of libpq connections with a bounded wait queue.
 *
 * gateway/pool.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_POOL_H
#define GATEWAY_POOL_H

#include <stdbool.h>
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
	STMT_CALL,					/* $1 key id, $2 operation, $3 body -> jsonb */
	STMT_COUNT
} PoolStatement;

typedef struct PoolConn PoolConn;

extern void pool_init(const GatewayConfig *config);
extern void pool_close_all(void);

/* A connection, or NULL with *status POOL_BUSY (queue full or timed out). */
extern PoolConn *pool_acquire(PoolStatus *status);
extern void pool_release(PoolConn *pc);

/*
 * Run a prepared statement with text parameters.  Returns the last result
 * (the caller PQclears it), or NULL with *status POOL_DOWN (never reached
 * PostgreSQL) or POOL_LOST (outcome unknown).
 */
extern PGresult *pool_exec(PoolConn *pc, PoolStatement stmt, int nparams,
						   const char *const *values, PoolStatus *status);

#endif							/* GATEWAY_POOL_H */
