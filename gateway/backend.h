/*-------------------------------------------------------------------------
 *
 * backend.h
 *	  The database side of a request: access key secrets (cached) and the
 *	  call of hroe.gateway_call, run asynchronously through the pool.
 *
 * gateway/backend.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_BACKEND_H
#define GATEWAY_BACKEND_H

#include <libpq-fe.h>

#include "config.h"
#include "pool.h"
#include "request.h"

#define SECRET_MAX 256

/*
 * One HTTP request's dealings with the database.  handle_request() runs
 * with a Backend bound to it (backend_bind): a key missing from the cache,
 * or the call itself, is queued in the pool and marks the request pending;
 * the HTTP side then suspends the request and, once resume(request) is
 * called back, runs handle_request() again, which finds the looked-up
 * secret here, or answers from the call's result (backend_answer).
 */
typedef struct BackendRequest
{
	void	   *request;		/* given back to resume() */
	bool		pending;		/* a statement is queued or running */
	/* a key looked up for this request (the cache may not keep it) */
	bool		looked_up;
	LookupResult lookup;
	char		lookup_key_id[ACCESS_KEY_ID_MAX + 1];
	char		secret[SECRET_MAX];
	/* the call */
	bool		called;			/* its result (or failure) is here */
	bool		rechecked;		/* the key's secret was found stale once */
	PGresult   *result;
	PoolStatus	status;
	int			target;			/* the pool the call runs on (replica.c) */
	char		key_id[ACCESS_KEY_ID_MAX + 1];
	char		operation[OPERATION_MAX + 1];
	const char *values[POOL_MAX_PARAMS];
} BackendRequest;

/* Set up the key cache; resume(request) is called when a statement is answered. */
extern void backend_init(const GatewayConfig *config, void (*resume) (void *request));

/* A Backend for handle_request() bound to br. */
extern void backend_bind(BackendRequest *br, void *request, Backend *backend);

/*
 * After the call: true if it ran nothing because the secret the request was
 * checked with is no longer the key's (the key was revoked or created
 * again).  The cached secret is then dropped and br reset, so that
 * handle_request() runs again and looks the key up afresh; true only once
 * per request.
 */
extern bool backend_stale_secret(BackendRequest *br);

/*
 * After the call: fill resp's status and error type.  Returns the result
 * whose single value is the body (the caller PQclears it), or NULL when
 * resp->body holds the body (an error mapped here).
 */
extern PGresult *backend_answer(BackendRequest *br, Response *resp);

/* Release what br holds (secret zeroed). */
extern void backend_request_free(BackendRequest *br);

#endif							/* GATEWAY_BACKEND_H */
