/*-------------------------------------------------------------------------
 *
 * request.h
 *	  DynamoDB's JSON 1.0 protocol, independent of the HTTP library: one
 *	  parsed HTTP request in, one response out, with the checks in DynamoDB's
 *	  order (method and content type, JSON body, target, signature).
 *
 * protocol/request.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_REQUEST_H
#define GATEWAY_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util.h"

typedef struct Header
{
	const char *name;
	const char *value;
} Header;

typedef struct Request
{
	const char *method;
	const char *path;			/* decoded, without the query string */
	const Header *args;			/* decoded query arguments */
	int			nargs;
	const Header *headers;		/* in arrival order; names in any case */
	int			nheaders;
	const char *body;
	size_t		body_len;
	time_t		now;			/* for the signature's clock skew */
	/*
	 * NULL, or the body's SHA-256 (lower-case hex) as its
	 * x-amz-content-sha256 header signs it: the headers' signature is then
	 * checked with it, before the body has arrived
	 */
	const char *payload_hash;
} Request;

/* The longest access key id and operation name kept for the log. */
#define ACCESS_KEY_ID_MAX 128
/* The longest access key secret, in bytes: hroe.access_keys allows 128 characters of UTF-8 */
#define ACCESS_KEY_SECRET_MAX (128 * 4)
#define OPERATION_MAX 64

typedef struct Response
{
	int			status;
	StrBuf		body;
	const char *content_type;	/* static string or NULL */
	char		access_key_id[ACCESS_KEY_ID_MAX + 1];	/* "" until known */
	char		operation[OPERATION_MAX + 1];	/* "" until known */
	char		error_type[96];	/* short __type of an error, for the log */
	char		headers[1024];	/* more headers, "Name: value\n" lines (S3's) */
} Response;

/*
 * The outcome of a front end's lookup of the key's secret (it runs between
 * request_check and request_authenticate).
 */
typedef enum LookupResult
{
	LOOKUP_FOUND,
	LOOKUP_UNKNOWN,				/* no active key of that id */
	LOOKUP_FAILED				/* response already filled (throttled, down) */
} LookupResult;

struct SigV4Auth;				/* sigv4.h */

/* Value of the first header named name (case-insensitive), or NULL. */
extern const char *request_header(const Request *req, const char *name);

/* Initialize resp (empty body, status 500) and release it. */
extern void response_init(Response *resp);
extern void response_free(Response *resp);

/* Fill resp with DynamoDB's error body {"__type", "message"?}. */
extern void response_error(Response *resp, int status, const char *type, const char *message);

/*
 * An error hroe.dynamodb raised instead of answering (SQLSTATE state,
 * message) as DynamoDB's response: AccessDenied, Validation or
 * Serialization for the request's own faults, else InternalServerError;
 * false in that last case, which the caller logs.
 */
extern bool response_sql_error(Response *resp, const char *state, const char *message,
							   const char *akid, const char *op);

/* Is the SQLSTATE the request's own fault (a 400, not the server's)? */
extern bool response_request_fault(const char *state);

/*
 * The status (200, 400 or 500) and error type of a body hroe.dynamodb
 * answered (an error body has a top-level "__type").
 */
extern void response_classify(Response *resp, const char *body, size_t len);

/*
 * A request is answered in steps the front end calls in order, with its own
 * work between them (no callback from here into the front end):
 *
 *	if (request_check(req, region, resp, &auth))
 *	{
 *		found = <the front end looks up auth.access_key_id's secret>;
 *		if (found != LOOKUP_FAILED &&
 *			request_authenticate(req, &auth, secret, found == LOOKUP_FOUND, resp))
 *			<the front end runs resp->operation as auth.access_key_id, fills resp>;
 *	}
 *	<send resp>
 */

/*
 * The checks that need no secret: the health check, method and content
 * type, the JSON body, the target (resp->operation) and the Authorization
 * header's form (auth, resp->access_key_id).  false: resp is the answer;
 * true: the key's secret is needed.
 */
extern bool request_check(const Request *req, const char *region, Response *resp,
						  struct SigV4Auth *auth);

/*
 * The checks with the key's secret (found false: no active key of that id):
 * the key, the signature, no security token, a body.  false: resp is the
 * answer; true: the front end runs the call.  The caller wipes secret.
 */
extern bool request_authenticate(const Request *req, const struct SigV4Auth *auth,
								 const char *secret, bool found, Response *resp);

/*
 * The address a client reached, as DescribeEndpoints answers it: the Host
 * header (with its port when the client named one: DynamoDB's clients
 * reach the default port and name none), or DynamoDB's regional endpoint
 * of region when the request has no Host or one that is not a host name,
 * an IPv4 or bracketed IPv6 address and an optional port.
 */
extern void request_endpoint_address(const Request *req, const char *region, char *out,
									 size_t size);

/*
 * After request_authenticate: answer an operation that needs no database
 * (DescribeEndpoints: the address the client reached, request_endpoint_address).
 * true: resp is the answer and the front end makes no call.
 */
extern bool request_local_answer(const Request *req, const char *region, Response *resp);

#endif							/* GATEWAY_REQUEST_H */
