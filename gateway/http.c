/*-------------------------------------------------------------------------
 *
 * http.c
 *	  hroe-gateway's HTTP/1.1 server: libmicrohttpd, one thread per
 *	  connection.
 *
 * libmicrohttpd parses HTTP, keeps connections alive, answers
 * "Expect: 100-continue", bounds header memory per connection and speaks TLS
 * (through GnuTLS, as Debian builds it).  A thread per connection suits the
 * blocking libpq calls: a request waiting for PostgreSQL holds only its own
 * connection, and max_connections bounds the threads.
 *
 * The body is read into memory up to max_body_mb (a larger Content-Length is
 * refused before reading, a larger chunked body as soon as it passes the
 * limit: 413 with an empty body, as DynamoDB answers), then handed to
 * request.c.  The bodies being read, all connections together, hold at most
 * max_buffered_mb: past it a body is refused (the connection closed, logged
 * as a 503), so no client, signed or not, can make the gateway buffer more.  Every response carries x-amzn-RequestId and x-amz-crc32 (the
 * CRC32 of the body, which botocore checks).
 *
 * gateway/http.c
 *
 *-------------------------------------------------------------------------
 */
#include "http.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include <time.h>

#include <microhttpd.h>
#include <openssl/rand.h>
#include <zlib.h>

#include "log.h"
#include "util.h"

typedef struct RequestCtx
{
	StrBuf		body;
	size_t		charged;		/* its bytes counted in buffered_bytes */
	bool		too_big;
	bool		answered;
	double		start;
	int			status;
	size_t		bytes_out;
	char		request_id[53];
	char		remote[INET6_ADDRSTRLEN];
	char		access_key_id[ACCESS_KEY_ID_MAX + 1];
	char		operation[OPERATION_MAX + 1];
	char		error_type[96];
} RequestCtx;

typedef struct HeaderList
{
	Header	   *items;
	int			n;
	int			cap;
} HeaderList;

static const GatewayConfig *cfg;
static const Backend *backend;
static struct MHD_Daemon *daemon_handle;
static char *tls_cert_pem;
static char *tls_key_pem;
static int in_flight;
static pthread_mutex_t flight_mutex = PTHREAD_MUTEX_INITIALIZER;

/* body bytes buffered by every request being read, at most max_buffered_mb */
static _Atomic size_t buffered_bytes = 0;

/* A request id like DynamoDB's: 52 upper-case letters and digits. */
static void
new_request_id(char *out)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char raw[52];

	if (RAND_bytes(raw, sizeof(raw)) != 1)
		memset(raw, 0, sizeof(raw));
	for (int i = 0; i < 52; i++)
		out[i] = alphabet[raw[i] % 36];
	out[52] = '\0';
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

/* Queue a response with DynamoDB's headers. */
static enum MHD_Result
send_response(struct MHD_Connection *conn, RequestCtx *ctx, int status,
			  const char *body, size_t len, const char *content_type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	char		crc[16];

	r = MHD_create_response_from_buffer(len, (void *) body, MHD_RESPMEM_MUST_COPY);
	if (r == NULL)
		return MHD_NO;
	snprintf(crc, sizeof(crc), "%lu", crc32(crc32(0L, Z_NULL, 0), (const Bytef *) body, (uInt) len));
	MHD_add_response_header(r, "x-amzn-RequestId", ctx->request_id);
	MHD_add_response_header(r, "x-amz-crc32", crc);
	if (content_type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	ret = MHD_queue_response(conn, (unsigned int) status, r);
	MHD_destroy_response(r);
	ctx->answered = true;
	ctx->status = status;
	ctx->bytes_out = len;
	return ret;
}

/* The 413 for a body over the limit (the connection is then closed). */
static enum MHD_Result
send_too_large(struct MHD_Connection *conn, RequestCtx *ctx)
{
	snprintf(ctx->error_type, sizeof(ctx->error_type), "RequestEntityTooLarge");
	return send_response(conn, ctx, 413, "", 0, NULL);
}

/* MHD's access handler: called with the headers, each body chunk, the end. */
static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	   const char *version, const char *upload_data, size_t *upload_data_size,
	   void **con_cls)
{
	RequestCtx *ctx = *con_cls;
	size_t		max_body = (size_t) cfg->max_body_mb * 1024 * 1024;

	if (ctx == NULL)
	{
		/* the headers have arrived */
		const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
														 MHD_HTTP_HEADER_CONTENT_LENGTH);
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

		ctx = xmalloc(sizeof(RequestCtx));
		memset(ctx, 0, sizeof(*ctx));
		buf_init(&ctx->body);
		ctx->start = now_monotonic();
		new_request_id(ctx->request_id);
		if (info && info->client_addr)
		{
			const struct sockaddr *sa = info->client_addr;

			if (sa->sa_family == AF_INET)
				inet_ntop(AF_INET, &((const struct sockaddr_in *) sa)->sin_addr, ctx->remote, sizeof(ctx->remote));
			else if (sa->sa_family == AF_INET6)
				inet_ntop(AF_INET6, &((const struct sockaddr_in6 *) sa)->sin6_addr, ctx->remote, sizeof(ctx->remote));
		}
		*con_cls = ctx;
		pthread_mutex_lock(&flight_mutex);
		in_flight++;
		pthread_mutex_unlock(&flight_mutex);
		if (length && strtoull(length, NULL, 10) > max_body)
			return send_too_large(conn, ctx);
		return MHD_YES;
	}
	if (ctx->answered)
	{
		/* a refused body (413 queued): discard what still arrives */
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (*upload_data_size > 0)
	{
		if (ctx->body.len + *upload_data_size > max_body)
		{
			/*
			 * A chunked body past the limit: libmicrohttpd cannot send a
			 * response in the middle of an upload, so the connection is
			 * closed (logged as 413); reading on would cost the bandwidth.
			 */
			ctx->answered = true;
			ctx->status = 413;
			snprintf(ctx->error_type, sizeof(ctx->error_type), "RequestEntityTooLarge");
			return MHD_NO;
		}
		if (atomic_fetch_add(&buffered_bytes, *upload_data_size) + *upload_data_size >
			(size_t) cfg->max_buffered_mb * 1024 * 1024)
		{
			/* the gateway's memory for bodies is spent: refused, retryable */
			atomic_fetch_sub(&buffered_bytes, *upload_data_size);
			ctx->answered = true;
			ctx->status = 503;
			snprintf(ctx->error_type, sizeof(ctx->error_type), "BufferedBodiesLimit");
			return MHD_NO;
		}
		ctx->charged += *upload_data_size;
		buf_append(&ctx->body, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return MHD_YES;
	}

	/* the whole request is here */
	{
		HeaderList	headers = {0},
					args = {0};
		Request		req;
		Response	resp;
		enum MHD_Result ret;

		MHD_get_connection_values(conn, MHD_HEADER_KIND, collect, &headers);
		MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect, &args);
		req.method = method;
		req.path = url;
		req.args = args.items;
		req.nargs = args.n;
		req.headers = headers.items;
		req.nheaders = headers.n;
		req.body = ctx->body.data;
		req.body_len = ctx->body.len;
		req.now = time(NULL);
		response_init(&resp);
		handle_request(&req, backend, cfg->region, &resp);
		memcpy(ctx->access_key_id, resp.access_key_id, sizeof(ctx->access_key_id));
		memcpy(ctx->operation, resp.operation, sizeof(ctx->operation));
		memcpy(ctx->error_type, resp.error_type, sizeof(ctx->error_type));
		ret = send_response(conn, ctx, resp.status, resp.body.data, resp.body.len, resp.content_type);
		response_free(&resp);
		free(headers.items);
		free(args.items);
		return ret;
	}
}

/* MHD's completion callback: the access log line, then free the request. */
static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		  enum MHD_RequestTerminationCode toe)
{
	RequestCtx *ctx = *con_cls;

	if (ctx == NULL)
		return;
	log_access(ctx->remote, ctx->access_key_id, ctx->operation,
			   ctx->answered ? ctx->status : 0,
			   ctx->answered ? ctx->error_type : "ClientGone",
			   now_monotonic() - ctx->start, ctx->body.len, ctx->bytes_out, ctx->request_id);
	atomic_fetch_sub(&buffered_bytes, ctx->charged);
	buf_free(&ctx->body);
	free(ctx);
	*con_cls = NULL;
	pthread_mutex_lock(&flight_mutex);
	in_flight--;
	pthread_mutex_unlock(&flight_mutex);
}

/* MHD's own errors (bad TLS handshakes, allocation) go to our stderr. */
static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char		msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_error("http: %s", msg);
}

/* The whole file at path, NUL-terminated, or NULL. */
static char *
read_file(const char *path)
{
	FILE	   *f = fopen(path, "rb");
	StrBuf		b;
	char		chunk[4096];
	size_t		n;

	if (f == NULL)
		return NULL;
	buf_init(&b);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	return b.data;
}

/* Is the address a loopback one (127.0.0.0/8, ::1)? */
static bool
is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *) sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *) sa)->sin6_addr, &in6addr_loopback,
					  sizeof(struct in6_addr)) == 0;
	return false;
}

/* Start serving. */
bool
http_start(const GatewayConfig *config, const Backend *be)
{
	struct addrinfo hints = {0},
			   *ai;
	char		port[16];
	unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
		MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG;
	bool		tls = config->tls_cert && *config->tls_cert;
	int			rc;

	cfg = config;
	backend = be;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", cfg->port);
	rc = getaddrinfo(*cfg->listen ? cfg->listen : NULL, port, &hints, &ai);
	if (rc != 0)
	{
		log_error("invalid listen address \"%s\": %s (a numeric IPv4 or IPv6 address)",
				  cfg->listen, gai_strerror(rc));
		return false;
	}
	if (!tls && !cfg->allow_plain_http && !is_loopback(ai->ai_addr))
	{
		log_error("refusing plain HTTP on %s, which is not a loopback address: give --tls-cert and --tls-key, or --allow-plain-http",
				  cfg->listen);
		freeaddrinfo(ai);
		return false;
	}
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	if (tls)
	{
		tls_cert_pem = read_file(cfg->tls_cert);
		tls_key_pem = read_file(cfg->tls_key);
		if (tls_cert_pem == NULL || tls_key_pem == NULL)
		{
			log_error("could not read TLS %s \"%s\"", tls_cert_pem ? "key" : "certificate",
					  tls_cert_pem ? cfg->tls_key : cfg->tls_cert);
			freeaddrinfo(ai);
			return false;
		}
		flags |= MHD_USE_TLS;
	}
	/* the logger first: MHD uses its own for options before it */
	daemon_handle = MHD_start_daemon(flags, (uint16_t) cfg->port, NULL, NULL, handle, NULL,
									 MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
									 MHD_OPTION_SOCK_ADDR, ai->ai_addr,
									 MHD_OPTION_CONNECTION_LIMIT, (unsigned int) cfg->max_connections,
									 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) cfg->idle_timeout,
									 MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
									 MHD_OPTION_THREAD_STACK_SIZE, (size_t) (512 * 1024),
									 tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, tls_cert_pem,
									 MHD_OPTION_HTTPS_MEM_KEY, tls_key_pem,
									 MHD_OPTION_END);
	freeaddrinfo(ai);
	if (daemon_handle == NULL)
	{
		log_error("could not listen on %s port %d (in use? bad TLS files?)", cfg->listen, cfg->port);
		return false;
	}
	return true;
}

/* Stop accepting connections. */
void
http_quiesce(void)
{
	MHD_socket	s = MHD_quiesce_daemon(daemon_handle);

	if (s != MHD_INVALID_SOCKET)
		close(s);
}

/* Requests being answered now. */
int
http_in_flight(void)
{
	int			n;

	pthread_mutex_lock(&flight_mutex);
	n = in_flight;
	pthread_mutex_unlock(&flight_mutex);
	return n;
}

/* Close every connection and stop. */
void
http_stop(void)
{
	MHD_stop_daemon(daemon_handle);
	daemon_handle = NULL;
	free(tls_cert_pem);
	free(tls_key_pem);
}
