/*-------------------------------------------------------------------------
 *
 * sigv4.h
 *	  AWS Signature Version 4 (Authorization header form) verification.
 *
 * protocol/sigv4.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_SIGV4_H
#define GATEWAY_SIGV4_H

#include <stdbool.h>

#include "request.h"

typedef struct SigV4Auth
{
	char		access_key_id[ACCESS_KEY_ID_MAX + 1];
	char		scope_date[9];	/* YYYYMMDD */
	char		region[64];
	char		amz_date[17];	/* YYYYMMDDTHHMMSSZ */
	char		signed_headers[1024];	/* as given: lower-case, ';'-joined */
	char		signature[65];
	char		service[16];	/* of the credential scope: dynamodb or s3 */
} SigV4Auth;

/*
 * Parse and check the Authorization header and X-Amz-Date of req: form,
 * algorithm, credential scope, clock skew (15 minutes either way) and that
 * Host is signed.  On failure fills resp with DynamoDB's error and returns
 * false.
 */
extern bool sigv4_parse(const Request *req, SigV4Auth *auth, Response *resp);

/*
 * The same for a request of another service (its credential scope must
 * name service: "s3"); the failures as DynamoDB words them, for the
 * caller to reword in its service's protocol (resp->error_type, the
 * message).
 */
extern bool sigv4_parse_service(const Request *req, SigV4Auth *auth, Response *resp,
								const char *service);

/*
 * The signature of one chunk of an aws-chunked body
 * (STREAMING-AWS4-HMAC-SHA256-PAYLOAD): HMAC of "AWS4-HMAC-SHA256-PAYLOAD",
 * the date, the scope, the previous signature, the empty string's hash
 * and the chunk's hash, into out (65 bytes).
 */
extern void sigv4_chunk_sign(const SigV4Auth *auth, const char *secret, const char *previous,
							 const char *data, size_t len, char *out);

/* SHA-256 of data as lower-case hex, into out (65 bytes). */
extern void sigv4_sha256_hex(const void *data, size_t len, char *out);

/* true if the request's signature is the one secret gives (constant time). */
extern bool sigv4_verify(const Request *req, const SigV4Auth *auth, const char *secret);

/*
 * The signature of req under secret for the given signed headers, into
 * out (65 bytes): what a client computes, for tests and the fuzzer.
 */
extern void sigv4_sign(const Request *req, const SigV4Auth *auth, const char *secret,
					   char *out);

#endif							/* GATEWAY_SIGV4_H */
