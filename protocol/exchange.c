/*-------------------------------------------------------------------------
 *
 * exchange.c
 *	  One HTTP request and its answer over libmicrohttpd, shared by
 *	  hroe-gateway (http.c) and the in-server HTTP workers
 *	  (src/http/http_server.c).
 *
 * The body is read into memory up to max_body (a larger Content-Length is
 * refused before reading with 413 and an empty body, as DynamoDB answers; a
 * larger chunked body as soon as it passes the limit, by closing the
 * connection, since libmicrohttpd cannot answer in the middle of an
 * upload), and only while the front end's charge callback admits the bytes
 * (its bound on the bodies all connections buffer together).  Every answer
 * carries x-amzn-RequestId and x-amz-crc32 (the CRC32 of the body, which
 * botocore checks).  Nothing here allocates with anything but xmalloc and
 * StrBuf, so a host that must not abort sets xmalloc_failed.
 *
 * protocol/exchange.c
 *
 *-------------------------------------------------------------------------
 */
#include "exchange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/rand.h>
#include <zlib.h>

#include "guard.h"
#include "s3.h"

/*
 * A request id like DynamoDB's.  The random bytes are drawn from RAND_bytes
 * 64 ids at a time: each call costs OpenSSL a getpid() system call (its fork
 * check) besides the generator.
 */
static __thread unsigned char id_random[REQUEST_ID_LEN * 64];
static __thread size_t id_random_used = sizeof(id_random);

static void
new_request_id(char *out)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const unsigned char *raw;

	if (id_random_used + REQUEST_ID_LEN > sizeof(id_random))
	{
		if (RAND_bytes(id_random, sizeof(id_random)) != 1)
			memset(id_random, 0, sizeof(id_random));
		id_random_used = 0;
	}
	raw = id_random + id_random_used;
	id_random_used += REQUEST_ID_LEN;
	for (int i = 0; i < REQUEST_ID_LEN; i++)
		out[i] = alphabet[raw[i] % 36];
	out[REQUEST_ID_LEN] = '\0';
}

/* The headers have arrived. */
void
exchange_begin(Exchange *x, struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

	memset(x, 0, sizeof(*x));
	buf_init(&x->body);
	x->start = now_monotonic();
	new_request_id(x->request_id);
	if (info && info->client_addr)
	{
		const struct sockaddr *sa = info->client_addr;

		if (sa->sa_family == AF_INET)
			inet_ntop(AF_INET, &((const struct sockaddr_in *) sa)->sin_addr, x->remote, sizeof(x->remote));
		else if (sa->sa_family == AF_INET6)
			inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) sa)->sin6_addr, x->remote, sizeof(x->remote));
	}
}

/* Does the request's Content-Length exceed max_body? */
bool
exchange_declared_too_large(struct MHD_Connection *conn, size_t max_body)
{
	const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
													 MHD_HTTP_HEADER_CONTENT_LENGTH);

	return length && strtoull(length, NULL, 10) > max_body;
}

/* A body chunk, or the end of the request (see exchange.h). */
enum MHD_Result
exchange_read(Exchange *x, const char *data, size_t *size, size_t max_body,
			  bool (*charge) (Exchange *x, size_t n), bool *complete)
{
	*complete = false;
	if (x->answered)
	{
		/* a refused body (413 queued): discard what still arrives */
		*size = 0;
		return MHD_YES;
	}
	if (*size == 0)
	{
		*complete = true;
		return MHD_YES;
	}
	if (x->body.len + *size > max_body)
	{
		/* reading on would cost the bandwidth: closed, logged as 413 */
		x->answered = true;
		x->status = 413;
		snprintf(x->error_type, sizeof(x->error_type), "RequestEntityTooLarge");
		return MHD_NO;
	}
	if (!charge(x, *size))
	{
		/* the front end's memory for bodies is spent: refused, retryable */
		x->answered = true;
		x->status = 503;
		snprintf(x->error_type, sizeof(x->error_type), "BufferedBodiesLimit");
		return MHD_NO;
	}
	buf_append(&x->body, data, *size);
	*size = 0;
	return MHD_YES;
}

/* Charge n more bytes of x's body to the budget b (exchange.h). */
bool
exchange_charge(BodyBudget *b, Exchange *x, size_t n, size_t max_buffered, size_t max_unverified)
{
	size_t		extra = 0;

	if (!x->verified && x->charged + n > UNVERIFIED_ALLOWANCE)
		extra = x->charged + n - UNVERIFIED_ALLOWANCE - x->charged_unverified;
	if (atomic_fetch_add(&b->buffered, n) + n > max_buffered)
	{
		atomic_fetch_sub(&b->buffered, n);
		return false;
	}
	if (extra > 0 && atomic_fetch_add(&b->unverified, extra) + extra > max_unverified)
	{
		atomic_fetch_sub(&b->unverified, extra);
		atomic_fetch_sub(&b->buffered, n);
		return false;
	}
	x->charged += n;
	x->charged_unverified += extra;
	return true;
}

/* Give back what x's body was charged. */
void
exchange_release(BodyBudget *b, Exchange *x)
{
	atomic_fetch_sub(&b->buffered, x->charged);
	atomic_fetch_sub(&b->unverified, x->charged_unverified);
	x->charged = x->charged_unverified = 0;
}

/* MHD iterator: count the Content-Length headers, note their values' disagreement. */
typedef struct LengthCheck
{
	int			n;
	const char *first;
	bool		differ;
} LengthCheck;

static enum MHD_Result
check_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	LengthCheck *lc = cls;

	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) != 0)
		return MHD_YES;
	value = value ? value : "";
	if (lc->n++ == 0)
		lc->first = value;
	else if (strcmp(lc->first, value) != 0)
		lc->differ = true;
	return MHD_YES;
}

bool
exchange_conflicting_length(struct MHD_Connection *conn)
{
	LengthCheck lc = {0};

	MHD_get_connection_values(conn, MHD_HEADER_KIND, check_length, &lc);
	return lc.differ ||
		(lc.n > 0 && MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
												 MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL);
}

enum MHD_Result
exchange_send_bad_length(Exchange *x, struct MHD_Connection *conn)
{
	snprintf(x->error_type, sizeof(x->error_type), "ConflictingContentLength");
	return exchange_send(x, conn, 400, "", 0, NULL, true, NULL, NULL);
}

/* MHD iterator: collect headers or query arguments. */
static enum MHD_Result
collect(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
	HeaderList *list = cls;

	if (list->n == list->cap)
	{
		Header	   *bigger;

		list->cap = list->cap ? list->cap * 2 : 32;
		bigger = xmalloc(sizeof(Header) * (size_t) list->cap);
		if (list->n)
			memcpy(bigger, list->items, sizeof(Header) * (size_t) list->n);
		free(list->items);
		list->items = bigger;
	}
	list->items[list->n].name = key;
	list->items[list->n].value = value ? value : "";
	list->n++;
	return MHD_YES;
}

/* The request as request.c takes it. */
void
exchange_request(Exchange *x, struct MHD_Connection *conn, const char *method,
				 const char *url, Request *req, HeaderList *headers, HeaderList *args)
{
	memset(headers, 0, sizeof(*headers));
	memset(args, 0, sizeof(*args));
	MHD_get_connection_values(conn, MHD_HEADER_KIND, collect, headers);
	MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect, args);
	req->method = method;
	req->path = url;
	req->args = args->items;
	req->nargs = args->n;
	req->headers = headers->items;
	req->nheaders = headers->n;
	req->body = x->body.data;
	req->body_len = x->body.len;
	req->now = time(NULL);
	req->payload_hash = NULL;
}

void
exchange_headers_free(HeaderList *headers, HeaderList *args)
{
	free(headers->items);
	free(args->items);
	headers->items = args->items = NULL;
}

/* Keep what the log needs of the response. */
void
exchange_note(Exchange *x, const Response *resp)
{
	memcpy(x->access_key_id, resp->access_key_id, sizeof(x->access_key_id));
	memcpy(x->operation, resp->operation, sizeof(x->operation));
	memcpy(x->error_type, resp->error_type, sizeof(x->error_type));
	x->content_type = resp->content_type;
}

/* Queue an answer with DynamoDB's headers, and extra ("Name: value\n" lines) */
/* A HEAD answer's body: never read (libmicrohttpd sends none to HEAD) */
static ssize_t
no_body(void *cls, uint64_t pos, char *buf, size_t max)
{
	return MHD_CONTENT_READER_END_WITH_ERROR;
}

static enum MHD_Result
send_with(Exchange *x, struct MHD_Connection *conn, int status, const char *body,
		  size_t len, const char *content_type, bool closing,
		  void (*free_body) (void *), void *owner, const char *extra)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	char		crc[16];

	const char *declared = extra && len == 0 ? strstr(extra, "Content-Length: ") : NULL;

	snprintf(crc, sizeof(crc), "%lu", crc32(crc32(0L, Z_NULL, 0), (const Bytef *) body, (uInt) len));
	/* (S3's HeadObject: the object's length declared, no body) */
	if (declared && (declared == extra || declared[-1] == '\n'))
	{
		if (free_body)
			free_body(owner);
		r = MHD_create_response_from_callback((uint64_t) strtoull(declared + 16, NULL, 10), 4096,
											  no_body, NULL, NULL);
		if (r == NULL)
			return MHD_NO;
	}
	else
		r = MHD_create_response_from_buffer_with_free_callback_cls(len, (void *) body, free_body, owner);
	if (r == NULL)
	{
		if (free_body)
			free_body(owner);
		return MHD_NO;
	}
	MHD_add_response_header(r, "x-amzn-RequestId", x->request_id);
	MHD_add_response_header(r, "x-amz-crc32", crc);
	if (content_type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	for (const char *line = extra; line && *line;)
	{
		const char *eol = strchr(line, '\n');
		const char *colon = strchr(line, ':');
		char		name[128],
					value[512];

		if (eol == NULL || colon == NULL || colon > eol || colon - line >= (long) sizeof(name) ||
			eol - colon >= (long) sizeof(value))
			break;
		snprintf(name, sizeof(name), "%.*s", (int) (colon - line), line);
		if (strcasecmp(name, "Content-Length") == 0)
		{
			line = eol + 1;
			continue;
		}
		colon++;
		while (*colon == ' ' && colon < eol)
			colon++;
		snprintf(value, sizeof(value), "%.*s", (int) (eol - colon), colon);
		MHD_add_response_header(r, name, value);
		line = eol + 1;
	}
	/* during shutdown, tell keep-alive clients to take their next request elsewhere */
	if (closing)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(conn, (unsigned int) status, r);
	MHD_destroy_response(r);
	guard_sending(conn, len);
	x->answered = true;
	x->status = status;
	x->bytes_out = len;
	return ret;
}

enum MHD_Result
exchange_send(Exchange *x, struct MHD_Connection *conn, int status, const char *body,
			  size_t len, const char *content_type, bool closing,
			  void (*free_body) (void *), void *owner)
{
	return send_with(x, conn, status, body, len, content_type, closing, free_body, owner, NULL);
}

/* Answer resp; its body is libmicrohttpd's from here on. */
enum MHD_Result
exchange_send_response(Exchange *x, struct MHD_Connection *conn, Response *resp, bool closing)
{
	char	   *body = resp->body.data;
	size_t		len = resp->body.len;

	exchange_note(x, resp);
	resp->body.data = NULL;
	resp->body.len = resp->body.cap = 0;
	return send_with(x, conn, resp->status, body, len, resp->content_type, closing,
					 free, body, resp->headers);
}

/* The 413 of a declared body over the limit (the connection is then closed). */
enum MHD_Result
exchange_send_too_large(Exchange *x, struct MHD_Connection *conn, bool closing)
{
	/* an S3 request: S3's EntityTooLarge */
	if (s3_is_request(MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Authorization"),
					  MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "X-Amz-Target")))
	{
		Response	resp;

		response_init(&resp);
		s3_error(&resp, 400, "EntityTooLarge",
				 "Your proposed upload exceeds the maximum allowed object size.", NULL);
		return exchange_send_response(x, conn, &resp, true);
	}
	snprintf(x->error_type, sizeof(x->error_type), "RequestEntityTooLarge");
	return exchange_send(x, conn, 413, "", 0, NULL, closing, NULL, NULL);
}

/* Release the body. */
void
exchange_free(Exchange *x)
{
	buf_free(&x->body);
}
