/*-------------------------------------------------------------------------
 *
 * exchange.h
 *	  One HTTP request and its answer over libmicrohttpd, as both of hroe's
 *	  front ends read and answer it: hroe-gateway's event loops (http.c)
 *	  and the in-server HTTP workers (src/http/http_server.c).  The body is read
 *	  under the size limits, the parsed request handed to request.c, the
 *	  answer queued with DynamoDB's headers.
 *
 * protocol/exchange.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_EXCHANGE_H
#define GATEWAY_EXCHANGE_H

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include <microhttpd.h>

#include "request.h"
#include "util.h"

/* DynamoDB's request ids: 52 upper-case letters and digits */
#define REQUEST_ID_LEN 52

typedef struct Exchange
{
	StrBuf		body;
	size_t		charged;		/* its bytes counted by the charge callback */
	size_t		charged_unverified; /* of them, past the unverified allowance */
	bool		verified;		/* its signature checked before its body */
	bool		answered;		/* a response queued, or the connection refused */
	int			status;			/* of the answer (0: none) */
	size_t		bytes_out;
	double		start;			/* now_monotonic() when the headers came */
	char		request_id[REQUEST_ID_LEN + 1];
	char		remote[INET6_ADDRSTRLEN];
	/* for the access log, from request.c's Response */
	char		access_key_id[ACCESS_KEY_ID_MAX + 1];
	char		operation[OPERATION_MAX + 1];
	char		error_type[96];
	const char *content_type;	/* of the answer (static) */
} Exchange;

/* The headers have arrived: a request id, the time, the client's address. */
extern void exchange_begin(Exchange *x, struct MHD_Connection *conn);

/* Does the request's Content-Length exceed max_body? */
extern bool exchange_declared_too_large(struct MHD_Connection *conn, size_t max_body);

/*
 * Two headers that disagree on the body's length (two Content-Length values,
 * or Content-Length with Transfer-Encoding): a proxy in front may read
 * another request than this server does (request smuggling).
 */
extern bool exchange_conflicting_length(struct MHD_Connection *conn);

/* Its 400 (the connection then closed). */
extern enum MHD_Result exchange_send_bad_length(Exchange *x, struct MHD_Connection *conn);

/*
 * The bodies a front end buffers: all of them together at most
 * max_buffered bytes; the bytes of bodies whose signature could not be
 * checked before them (an anonymous client may send those) at most
 * max_unverified past the first UNVERIFIED_ALLOWANCE bytes of each body.
 */
#define UNVERIFIED_ALLOWANCE (64 * 1024)
typedef struct BodyBudget
{
	_Atomic size_t buffered;
	_Atomic size_t unverified;
} BodyBudget;

extern bool exchange_charge(BodyBudget *b, Exchange *x, size_t n, size_t max_buffered,
							size_t max_unverified);
extern void exchange_release(BodyBudget *b, Exchange *x);

/*
 * The access handler's calls after the first: a body chunk is kept (up to
 * max_body, and while charge(n) admits n more bytes: false refuses them),
 * what arrives after an answer is dropped.  Returns MHD_NO when the
 * connection must be closed (a chunked body past max_body: logged 413; or
 * charge refused: 503).  *complete is set when the whole request is here
 * and not yet answered.
 */
extern enum MHD_Result exchange_read(Exchange *x, const char *data, size_t *size,
									 size_t max_body,
									 bool (*charge) (Exchange *x, size_t n),
									 bool *complete);

/*
 * The request as request.c takes it; headers and args hold what it points
 * to until exchange_headers_free().
 */
typedef struct HeaderList
{
	Header	   *items;
	int			n;
	int			cap;
} HeaderList;

extern void exchange_request(Exchange *x, struct MHD_Connection *conn, const char *method,
							 const char *url, Request *req, HeaderList *headers,
							 HeaderList *args);
extern void exchange_headers_free(HeaderList *headers, HeaderList *args);

/* Keep resp's key id, operation, error type and content type for the log. */
extern void exchange_note(Exchange *x, const Response *resp);

/*
 * Queue an answer with DynamoDB's headers (x-amzn-RequestId, x-amz-crc32,
 * Content-Type; "Connection: close" when closing).  The body is not copied:
 * it is static (free_body NULL) or freed by free_body(owner) once sent.
 */
extern enum MHD_Result exchange_send(Exchange *x, struct MHD_Connection *conn, int status,
									 const char *body, size_t len,
									 const char *content_type, bool closing,
									 void (*free_body) (void *), void *owner);

/* Answer resp (its body handed over to libmicrohttpd). */
extern enum MHD_Result exchange_send_response(Exchange *x, struct MHD_Connection *conn,
											  Response *resp, bool closing);

/* The 413 of a declared body over the limit. */
extern enum MHD_Result exchange_send_too_large(Exchange *x, struct MHD_Connection *conn,
											   bool closing);

/* Release the body. */
extern void exchange_free(Exchange *x);

#endif							/* GATEWAY_EXCHANGE_H */
