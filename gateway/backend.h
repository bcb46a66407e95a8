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

#define SECRET_MAX (ACCESS_KEY_SECRET_MAX + 1)

/*
 * One HTTP request's dealings with the database, between the protocol's
 * steps (request.h): a key missing from the cache (backend_lookup), or the
 * call itself (backend_call), is queued in the pool and marks the request
 * pending; the HTTP side then suspends the request and, once
 * resume(request) is called back, runs the protocol's checks again, whose
 * backend_lookup finds the looked-up secret here, or answers from the
 * call's result (backend_answer).
 */
typedef struct BackendRequest
{
	void	   *request;		/* given back to resume() */
	const char *client;			/* the client's address (the queue's turns) */
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
	/* an S3 call: its method, path, query and hex body, kept until the answer */
	bool		s3;
	char	   *s3_args;
} BackendRequest;

/* Set up the key cache; resume(request) is called when a statement is answered. */
extern void backend_init(const GatewayConfig *config, void (*resume) (void *request));

/* br belongs to request, which resume() is given back, from address client. */
extern void backend_bind(BackendRequest *br, void *request, const char *client);

/*
 * The secret of the active key akid into secret (size bytes): from br's own
 * lookup, the cache, or else a lookup queued in the pool.  LOOKUP_FAILED:
 * resp is the answer, or br->pending (the request is resumed once the
 * lookup is answered, and runs the checks again).
 */
extern LookupResult backend_lookup(BackendRequest *br, const char *akid, char *secret,
								   size_t size, Response *resp);

/*
 * Queue the call of op as akid with body (kept by the caller until the
 * answer) on the pool: br->pending, else resp answers a full or lost pool.
 */
extern void backend_call(BackendRequest *br, const char *akid, const char *op,
						 const char *body, size_t body_len, Response *resp);

/*
 * After the call: true if it ran nothing because the secret the request was
 * checked with is no longer the key's (the key was revoked or created
 * again).  The cached secret is then dropped and br reset, so that
 * the protocol's checks run again and look the key up afresh; true only once
 * per request.
 */
extern bool backend_stale_secret(BackendRequest *br);

/*
 * S3's call (s3.h): hroe.s3_gateway_call(key, method, path, query, body)
 * queued on the primary; backend_answer then fills resp with its answer
 */
extern void backend_call_s3(BackendRequest *br, const char *akid, const char *method,
							const char *path, const char *query, const char *body,
							size_t len, Response *resp);

/*
 * After the call: fill resp's status and error type.  Returns the result
 * whose single value is the body (the caller PQclears it), or NULL when
 * resp->body holds the body (an error mapped here).
 */
extern PGresult *backend_answer(BackendRequest *br, Response *resp);

/* Release what br holds (secret zeroed). */
extern void backend_request_free(BackendRequest *br);

#endif							/* GATEWAY_BACKEND_H */
