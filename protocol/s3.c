/*-------------------------------------------------------------------------
 *
 * s3.c
 *	  S3's REST API on hroe's endpoint: the requests' recognition, SigV4
 *	  with the service s3 and S3's payload forms, S3's XML errors, and the
 *	  answer of hroe.s3_gateway_call (s3.h).
 *
 * S3 signs the payload as the header x-amz-content-sha256 says
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html):
 * the body's SHA-256 in hex, UNSIGNED-PAYLOAD, or an aws-chunked body
 * (Content-Encoding aws-chunked; x-amz-decoded-content-length the data's
 * size): STREAMING-AWS4-HMAC-SHA256-PAYLOAD, each chunk
 * "<hex size>;chunk-signature=<sig>\r\n<data>\r\n" signed in a chain
 * that starts with the headers' signature
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html),
 * or STREAMING-UNSIGNED-PAYLOAD-TRAILER, chunks "<hex size>\r\n<data>\r\n"
 * then trailing headers (a checksum: x-amz-checksum-crc32 is checked,
 * others refused) as the AWS SDKs send an object of unknown length.  No
 * library of Debian decodes aws-chunked; the decoder below is bounded by
 * the body (already in memory, at most the front end's max body) and by
 * S3_OBJECT_MAX, and refuses anything but exactly that grammar.
 *
 * protocol/s3.c
 *
 *-------------------------------------------------------------------------
 */
#include "s3.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <zlib.h>

#define MSG_SIGNATURE "The request signature we calculated does not match the signature you provided. Check your key and signing method."

bool
s3_is_request(const char *authorization, const char *target)
{
	const char *cred;

	if (target != NULL || authorization == NULL)
		return false;
	cred = strstr(authorization, "Credential=");
	if (cred == NULL)
		return false;
	cred += strlen("Credential=");
	{
		size_t		n = strcspn(cred, " ,");
		const char *hit = strstr(cred, "/s3/aws4_request");

		return hit != NULL && (size_t) (hit - cred) + strlen("/s3/aws4_request") == n;
	}
}

void
s3_error(Response *resp, int status, const char *code, const char *message,
		 const char *resource)
{
	resp->status = status;
	resp->body.len = 0;
	resp->body.data[0] = '\0';
	resp->content_type = "application/xml";
	buf_puts(&resp->body, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>");
	buf_xml_text(&resp->body, code);
	buf_puts(&resp->body, "</Code><Message>");
	buf_xml_text(&resp->body, message);
	buf_puts(&resp->body, "</Message>");
	if (resource)
	{
		buf_puts(&resp->body, "<Resource>");
		buf_xml_text(&resp->body, resource);
		buf_puts(&resp->body, "</Resource>");
	}
	buf_puts(&resp->body, "</Error>");
	snprintf(resp->error_type, sizeof(resp->error_type), "%s", code);
}

bool
s3_check(const Request *req, Response *resp, SigV4Auth *auth)
{
	snprintf(resp->operation, sizeof(resp->operation), "S3:%s", req->method);
	if (!sigv4_parse_service(req, auth, resp, "s3"))
	{
		/* DynamoDB's words for the form's faults, as S3's error */
		char		message[512];
		const char *json = resp->body.data;
		const char *m = strstr(json, "\"message\"");
		const char *code = strstr(resp->error_type, "Expired") || strstr(json, "Signature expired") ?
			"RequestTimeTooSkewed" :
			strstr(resp->error_type, "MissingAuthenticationToken") ? "AccessDenied" :
			"AuthorizationHeaderMalformed";

		snprintf(message, sizeof(message), "the authorization header is malformed");
		if (m && (m = strchr(m + 9, '"')) != NULL)
		{
			size_t		n = strcspn(m + 1, "\"");

			snprintf(message, sizeof(message), "%.*s", (int) (n < 500 ? n : 500), m + 1);
		}
		s3_error(resp, strcmp(code, "AuthorizationHeaderMalformed") == 0 ? 400 : 403, code,
				 message, req->path);
		return false;
	}
	snprintf(resp->access_key_id, sizeof(resp->access_key_id), "%s", auth->access_key_id);
	return true;
}

/* Base64 of the 4 bytes of a CRC32, big-endian, into out (9 bytes) */
static void
crc32_base64(const unsigned char *data, size_t len, char *out)
{
	uLong		c = crc32(0L, Z_NULL, 0);
	unsigned char be[4];

	/* zlib takes uInt lengths: feed it in pieces */
	while (len > 0)
	{
		uInt		n = len > (1u << 30) ? (1u << 30) : (uInt) len;

		c = crc32(c, data, n);
		data += n;
		len -= n;
	}
	be[0] = (unsigned char) (c >> 24);
	be[1] = (unsigned char) (c >> 16);
	be[2] = (unsigned char) (c >> 8);
	be[3] = (unsigned char) c;
	EVP_EncodeBlock((unsigned char *) out, be, 4);
}

/* Base64 of the body's MD5 into out (25 bytes) */
static void
md5_base64(const char *data, size_t len, char *out)
{
	unsigned char md[16];

	if (!md5_digest(data, len, md))
		abort();
	EVP_EncodeBlock((unsigned char *) out, md, 16);
}

/* A chunk's size line: hex digits, then the extension (or none) up to CRLF */
static bool
chunk_header(const char **p, const char *end, size_t *size, char *signature, bool signed_chunks)
{
	const char *s = *p;
	size_t		v = 0;
	int			digits = 0;
	const char *eol;

	while (s < end && digits < 16 &&
		   ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
	{
		v = v * 16 + (size_t) (*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
		s++;
		digits++;
	}
	if (digits == 0 || digits == 16)
		return false;
	eol = s;
	while (eol + 1 < end && !(eol[0] == '\r' && eol[1] == '\n'))
		eol++;
	if (eol + 1 >= end)
		return false;
	if (signed_chunks)
	{
		static const char tag[] = ";chunk-signature=";

		if ((size_t) (eol - s) != strlen(tag) + 64 || strncmp(s, tag, strlen(tag)) != 0)
			return false;
		memcpy(signature, s + strlen(tag), 64);
		signature[64] = '\0';
	}
	else if (eol != s)
		return false;
	*size = v;
	*p = eol + 2;
	return true;
}

/*
 * Decode an aws-chunked body into out; false with *code and *message set.
 * signed_chunks: each chunk's signature checked in a chain from the
 * headers' signature; else the trailing headers read (trailer).
 */
static bool
decode_chunked(const Request *req, const SigV4Auth *auth, const char *secret,
			   bool signed_chunks, StrBuf *out, const char **code, const char **message,
			   int *status)
{
	const char *p = req->body;
	const char *end = req->body + req->body_len;
	char		previous[65],
				signature[65],
				expected[65];

	snprintf(previous, sizeof(previous), "%s", auth->signature);
	*status = 400;
	for (;;)
	{
		size_t		size;

		if (!chunk_header(&p, end, &size, signature, signed_chunks))
		{
			*code = "IncompleteBody";
			*message = "the aws-chunked body is malformed or incomplete";
			return false;
		}
		if (size > (size_t) (end - p) || out->len + size > S3_OBJECT_MAX)
		{
			*code = size > (size_t) (end - p) ? "IncompleteBody" : "EntityTooLarge";
			*message = size > (size_t) (end - p) ?
				"a chunk of the aws-chunked body is incomplete" :
				"Your proposed upload exceeds the maximum allowed object size.";
			return false;
		}
		if (signed_chunks)
		{
			sigv4_chunk_sign(auth, secret, previous, p, size, expected);
			if (CRYPTO_memcmp(expected, signature, 64) != 0)
			{
				*status = 403;
				*code = "SignatureDoesNotMatch";
				*message = MSG_SIGNATURE;
				return false;
			}
			memcpy(previous, signature, sizeof(previous));
		}
		buf_append(out, p, size);
		p += size;
		if (size == 0)
			break;
		if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
		{
			*code = "IncompleteBody";
			*message = "a chunk of the aws-chunked body is not followed by CRLF";
			return false;
		}
		p += 2;
	}
	if (signed_chunks)
	{
		/* the last (empty) chunk, then CRLF */
		if (end - p == 2 && p[0] == '\r' && p[1] == '\n')
			return true;
		*code = "IncompleteBody";
		*message = "the aws-chunked body does not end after its last chunk";
		return false;
	}
	/* the trailing headers, each "name:value\r\n", then "\r\n" */
	while (p < end)
	{
		const char *eol = p;
		char		crc[16];

		while (eol + 1 < end && !(eol[0] == '\r' && eol[1] == '\n'))
			eol++;
		if (eol + 1 >= end)
			break;
		if (eol == p)
		{
			p = eol + 2;
			if (p == end)
				return true;
			break;
		}
		if ((size_t) (eol - p) > 22 && strncasecmp(p, "x-amz-checksum-crc32:", 21) == 0)
		{
			const char *v = p + 21;

			while (*v == ' ')
				v++;
			crc32_base64((const unsigned char *) out->data, out->len, crc);
			if ((size_t) (eol - v) != strlen(crc) || strncmp(v, crc, strlen(crc)) != 0)
			{
				*code = "BadDigest";
				*message = "The CRC32 you specified did not match the calculated checksum.";
				return false;
			}
		}
		else
		{
			*code = "InvalidRequest";
			*message = "hroe checks the trailing checksum x-amz-checksum-crc32 only";
			return false;
		}
		p = eol + 2;
	}
	*code = "IncompleteBody";
	*message = "the trailing headers of the aws-chunked body are malformed";
	return false;
}

bool
s3_authenticate(const Request *req, const SigV4Auth *auth, const char *secret, bool found,
				Response *resp, StrBuf *payload)
{
	const char *mode = request_header(req, "x-amz-content-sha256");
	const char *decoded = request_header(req, "x-amz-decoded-content-length");
	const char *md5 = request_header(req, "Content-MD5");
	const char *crc = request_header(req, "x-amz-checksum-crc32");
	Request		signed_req = *req;
	char		hex[65];
	const char *code = NULL,
			   *message = NULL;
	int			status = 400;

	if (!found)
	{
		s3_error(resp, 403, "InvalidAccessKeyId",
				 "The AWS Access Key Id you provided does not exist in our records.", req->path);
		return false;
	}
	if (mode == NULL)
	{
		s3_error(resp, 400, "InvalidRequest",
				 "Missing required header for this request: x-amz-content-sha256", req->path);
		return false;
	}
	signed_req.payload_hash = mode;
	if (!sigv4_verify(&signed_req, auth, secret))
	{
		s3_error(resp, 403, "SignatureDoesNotMatch", MSG_SIGNATURE, req->path);
		return false;
	}
	if (request_header(req, "X-Amz-Security-Token") != NULL)
	{
		s3_error(resp, 403, "InvalidToken", "The provided token is malformed or otherwise invalid.",
				 req->path);
		return false;
	}

	payload->len = 0;
	if (strcmp(mode, "UNSIGNED-PAYLOAD") == 0)
		buf_append(payload, req->body, req->body_len);
	else if (strlen(mode) == 64 && strspn(mode, "0123456789abcdef") == 64)
	{
		sigv4_sha256_hex(req->body ? req->body : "", req->body_len, hex);
		if (strcmp(hex, mode) != 0)
		{
			s3_error(resp, 400, "XAmzContentSHA256Mismatch",
					 "The provided 'x-amz-content-sha256' header does not match what was computed.",
					 req->path);
			return false;
		}
		buf_append(payload, req->body, req->body_len);
	}
	else if (strcmp(mode, "STREAMING-AWS4-HMAC-SHA256-PAYLOAD") == 0 ||
			 strcmp(mode, "STREAMING-UNSIGNED-PAYLOAD-TRAILER") == 0)
	{
		bool		signed_chunks = mode[10] == 'A';

		if (!decode_chunked(req, auth, secret, signed_chunks, payload, &code, &message, &status))
		{
			s3_error(resp, status, code, message, req->path);
			return false;
		}
		if (decoded == NULL || strspn(decoded, "0123456789") != strlen(decoded) ||
			strlen(decoded) > 15 || (size_t) strtoull(decoded, NULL, 10) != payload->len)
		{
			s3_error(resp, 400, "IncompleteBody",
					 "x-amz-decoded-content-length is missing or not the decoded body's length",
					 req->path);
			return false;
		}
	}
	else
	{
		s3_error(resp, 400, "InvalidArgument",
				 "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER or the payload's SHA-256 in hex",
				 req->path);
		return false;
	}
	if (payload->len > S3_OBJECT_MAX)
	{
		s3_error(resp, 400, "EntityTooLarge",
				 "Your proposed upload exceeds the maximum allowed object size.", req->path);
		return false;
	}
	if (md5 != NULL)
	{
		char		mine[32];

		md5_base64(payload->data, payload->len, mine);
		if (strcmp(mine, md5) != 0)
		{
			s3_error(resp, 400, "BadDigest",
					 "The Content-MD5 you specified did not match what we received.", req->path);
			return false;
		}
	}
	if (crc != NULL)
	{
		char		mine[16];

		crc32_base64((const unsigned char *) payload->data, payload->len, mine);
		if (strcmp(mine, crc) != 0)
		{
			s3_error(resp, 400, "BadDigest",
					 "The CRC32 you specified did not match the calculated checksum.", req->path);
			return false;
		}
	}
	return true;
}

void
s3_query(const Request *req, StrBuf *out)
{
	for (int i = 0; i < req->nargs; i++)
	{
		if (i)
			buf_putc(out, '&');
		buf_uri_encode(out, req->args[i].name, false);
		buf_putc(out, '=');
		buf_uri_encode(out, req->args[i].value ? req->args[i].value : "", false);
	}
}

bool
s3_answer(Response *resp, const char *data, size_t len)
{
	const char *p = data;
	const char *end = data + len;
	const char *eol;
	char		line[512];
	long		status;

	resp->headers[0] = '\0';
	resp->content_type = "application/xml";
	eol = memchr(p, '\n', (size_t) (end - p));
	if (eol == NULL || eol - p > 3)
		goto bad;
	snprintf(line, sizeof(line), "%.*s", (int) (eol - p), p);
	status = strtol(line, NULL, 10);
	if (status < 200 || status > 599)
		goto bad;
	p = eol + 1;
	for (;;)
	{
		size_t		used = strlen(resp->headers);

		eol = memchr(p, '\n', (size_t) (end - p));
		if (eol == NULL || eol - p >= (long) sizeof(line))
			goto bad;
		if (eol == p)
		{
			p++;
			break;
		}
		snprintf(line, sizeof(line), "%.*s", (int) (eol - p), p);
		if (strncasecmp(line, "Content-Type: ", 14) == 0)
			resp->content_type = strcmp(line + 14, "application/xml") == 0 ?
				"application/xml" : "binary/octet-stream";
		else if (used + strlen(line) + 2 < sizeof(resp->headers))
			snprintf(resp->headers + used, sizeof(resp->headers) - used, "%s\n", line);
		else
			goto bad;
		p = eol + 1;
	}
	resp->status = (int) status;
	resp->body.len = 0;
	resp->body.data[0] = '\0';
	buf_append(&resp->body, p, (size_t) (end - p));
	if (status >= 300)
	{
		/* the error's code, for the log */
		const char *c = strstr(resp->body.data, "<Code>");

		if (c)
			snprintf(resp->error_type, sizeof(resp->error_type), "%.*s",
					 (int) strcspn(c + 6, "<"), c + 6);
	}
	return true;
bad:
	resp->headers[0] = '\0';
	s3_error(resp, 500, "InternalError", "We encountered an internal error. Please try again.", NULL);
	return false;
}

bool
s3_sql_error(Response *resp, const char *state, const char *message)
{
	if (state && strcmp(state, "42501") == 0)
	{
		s3_error(resp, 403, "AccessDenied", message ? message : "Access Denied", NULL);
		return true;
	}
	if (state && strcmp(state, "57014") == 0)
	{
		s3_error(resp, 503, "SlowDown", "the request ran past its statement timeout", NULL);
		return true;
	}
	s3_error(resp, 500, "InternalError", "We encountered an internal error. Please try again.", NULL);
	return false;
}
