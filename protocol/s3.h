/*-------------------------------------------------------------------------
 *
 * s3.h
 *	  S3's REST API (path-style) on hroe's endpoint, beside DynamoDB's, as
 *	  LocalStack serves both on one port: which requests are S3's, their
 *	  SigV4 (service s3) with the payload forms the AWS SDKs and CLI send
 *	  (a signed hash, UNSIGNED-PAYLOAD, aws-chunked bodies with chunk
 *	  signatures or a trailing checksum), S3's XML errors, and the answer
 *	  hroe.s3_gateway_call gives back (the operations themselves run in
 *	  PostgreSQL: src/transfer/s3_api.c).
 *
 * protocol/s3.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_S3_H
#define GATEWAY_S3_H

#include <stdbool.h>
#include <stddef.h>

#include "request.h"
#include "sigv4.h"

/*
 * The largest object hroe stores (PutObject's body, decoded): larger gets
 * S3's EntityTooLarge.  The extension's SQL functions check it too.
 */
#define S3_OBJECT_MAX (16 * 1024 * 1024)

/*
 * Is this an S3 request: no X-Amz-Target, and an Authorization header
 * whose credential scope names the service s3?  (authorization: the
 * header's value, or NULL)
 */
extern bool s3_is_request(const char *authorization, const char *target);

/* Fill resp with S3's XML error (code, message, resource: the path). */
extern void s3_error(Response *resp, int status, const char *code, const char *message,
					 const char *resource);

/* The signature's form (service s3); false: resp is S3's error. */
extern bool s3_check(const Request *req, Response *resp, SigV4Auth *auth);

/*
 * With the key's secret (found false: no active key of that id): the
 * signature over the payload form x-amz-content-sha256 names, then the
 * body decoded into payload (aws-chunked: every chunk's signature, or the
 * trailing CRC32, checked), its Content-MD5 or x-amz-checksum-crc32, and
 * its size (at most S3_OBJECT_MAX).  false: resp is S3's error.
 */
extern bool s3_authenticate(const Request *req, const SigV4Auth *auth, const char *secret,
							bool found, Response *resp, StrBuf *payload);

/* The query as name=value pairs, percent-encoded, joined with '&'. */
extern void s3_query(const Request *req, StrBuf *out);

/*
 * The answer hroe.s3_gateway_call gave (its status line, headers, an empty
 * line, the body) into resp; false if it is not one (resp: InternalError).
 */
extern bool s3_answer(Response *resp, const char *data, size_t len);

/*
 * An error PostgreSQL raised instead of answering, as S3's: AccessDenied
 * (403) for a privilege, else InternalError (500; false: the caller logs it).
 */
extern bool s3_sql_error(Response *resp, const char *state, const char *message);

#endif							/* GATEWAY_S3_H */
