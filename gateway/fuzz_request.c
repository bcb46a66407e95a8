/*-------------------------------------------------------------------------
 *
 * fuzz_request.c
 *	  libFuzzer target: request parsing and SigV4 verification of
 *	  hroe-gateway (request.c, sigv4.c, json.c) and the replica router
 *	  (route.c, on every body that is JSON) without HTTP or PostgreSQL.
 *
 * The input is a request in a simple text form: the first line the method,
 * the second the path, then "Name: value" header lines up to an empty line,
 * then the body.  The protocol's steps run with a fake lookup between
 * them that knows one key ("fuzzkey", secret "fuzzsecret"), and every call
 * is answered {}.  The request time is
 * fixed so that dates in the corpus stay within the signature's skew.
 * When the Authorization header parses, the canonicalization runs too.
 *
 *   make gateway/fuzz_request && gateway/fuzz_request -max_total_time=60
 *
 * gateway/fuzz_request.c
 *
 *-------------------------------------------------------------------------
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "request.h"
#include "route.h"
#include "sigv4.h"

/* The protocol's steps with a fake key lookup and call between them. */
static void
answer(const Request *req, Response *resp)
{
	SigV4Auth	auth;
	bool		found;

	if (!request_check(req, "us-east-1", resp, &auth))
		return;
	found = strcmp(auth.access_key_id, "fuzzkey") == 0;
	if (request_authenticate(req, &auth, found ? "fuzzsecret" : "", found, resp) &&
		!request_local_answer(req, "us-east-1", resp))
	{
		resp->status = 200;
		buf_puts(&resp->body, "{}");
	}
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	   *copy = malloc(size + 1);
	char	   *lines[2] = {"", ""};
	char	   *p = copy,
			   *end = copy + size;
	Header		headers[64];
	int			nheaders = 0;
	Request		req;
	Response	resp;
	SigV4Auth	auth;

	/* the replica router walks any valid JSON body (route.c) */
	if (json_validate((const char *) data, size))
	{
		(void) route_eventual_read("GetItem", (const char *) data, size);
		(void) route_eventual_read("BatchGetItem", (const char *) data, size);
	}

	memcpy(copy, data, size);
	copy[size] = '\0';
	for (int i = 0; i < 2 && p < end; i++)
	{
		char	   *nl = memchr(p, '\n', (size_t) (end - p));

		lines[i] = p;
		if (nl == NULL)
		{
			p = end;
			break;
		}
		*nl = '\0';
		p = nl + 1;
	}
	while (p < end && nheaders < 64)
	{
		char	   *nl = memchr(p, '\n', (size_t) (end - p)),
				   *colon;

		if (nl == NULL || nl == p)
		{
			if (nl == p)
				p++;
			break;
		}
		*nl = '\0';
		colon = strchr(p, ':');
		if (colon)
		{
			*colon = '\0';
			headers[nheaders].name = p;
			headers[nheaders].value = colon + 1 + (colon[1] == ' ');
			nheaders++;
		}
		p = nl + 1;
	}
	req.method = lines[0];
	req.path = lines[1];
	req.args = NULL;
	req.nargs = 0;
	req.headers = headers;
	req.nheaders = nheaders;
	req.body = p;
	req.body_len = (size_t) (end - p);
	req.now = 1764000000;		/* 2025-11-24T16:00:00Z */
	req.payload_hash = NULL;

	response_init(&resp);
	answer(&req, &resp);
	response_free(&resp);

	/* the canonical request of whatever parses */
	response_init(&resp);
	if (sigv4_parse(&req, &auth, &resp))
	{
		char		sig[65];

		sigv4_sign(&req, &auth, "fuzzsecret", sig);
	}
	response_free(&resp);

	/* the JSON helpers on the body */
	if (json_validate(req.body, req.body_len))
	{
		char		out[64];

		json_top_string(req.body, req.body_len, "__type", out, sizeof(out));
	}
	free(copy);
	return 0;
}
