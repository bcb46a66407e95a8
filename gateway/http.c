/*-------------------------------------------------------------------------
 *
 * http.c
 *	  hroe-gateway's HTTP/1.1 server: libmicrohttpd driven by event loop
 *	  threads, which also drive the pool's PostgreSQL connections.
 *
 * libmicrohttpd parses HTTP, keeps connections alive, answers
 * "Expect: 100-continue", bounds header memory per connection and speaks TLS
 * (through GnuTLS, as Debian builds it).  It runs in its "external epoll"
 * mode: each of --threads loop threads has a daemon of its own on the one
 * listening socket (whichever loop is free accepts a new connection), and
 * waits on one epoll set holding its daemon's epoll descriptor, its pool's
 * PostgreSQL sockets and an eventfd for the main thread's orders (quiesce,
 * stop), then calls MHD_run().  A request whose answer needs PostgreSQL
 * (its key missing from the cache, then the call) is suspended
 * (MHD_suspend_connection) while its statement waits in the loop's FIFO
 * queue and runs; the pool's callback resumes it and the access handler
 * runs again, finding the answer.  No thread ever blocks on a client or on
 * PostgreSQL, so HTTP connections cost no thread and a burst of them waits
 * in the queue in arrival order (doc/gateway.md, "Design decision: event
 * loops", has the measurements).
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
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <time.h>

#include <microhttpd.h>
#include <openssl/rand.h>
#include <zlib.h>

#include "backend.h"
#include "log.h"
#include "util.h"

typedef struct RequestCtx
{
	struct MHD_Connection *conn;
	BackendRequest br;			/* its statements in the pool */
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
	const char *content_type;	/* of the answer, decided by request.c */
} RequestCtx;

typedef struct HeaderList
{
	Header	   *items;
	int			n;
	int			cap;
} HeaderList;

static const GatewayConfig *cfg;
static char *tls_cert_pem;
static char *tls_key_pem;
static _Atomic int in_flight;

/*
 * The event loops: each thread has its libmicrohttpd daemon (all on one
 * listening socket), its epoll set, an eventfd for the main thread's orders
 * and its share of the pool.
 */
typedef struct Loop
{
	struct MHD_Daemon *daemon;
	int			epfd;
	int			order_fd;
	int			connections;	/* its share of the pool */
	int			queue;			/* and of the queue */
	pthread_t	thread;
	bool		running;
} Loop;

static Loop *loops;
static int	nloops;
static int	listen_fd = -1;
static atomic_bool quiesce_ordered;
static atomic_bool stop_ordered;
static _Atomic int nquiesced;	/* loops that stopped accepting */
static __thread bool quiesced;	/* this loop's daemon no longer accepts */

/* MHD_run()s in a row while libmicrohttpd asks for no wait (see loop()) */
#define MHD_EXTRA_ROUNDS 3

/* epoll's data.ptr for libmicrohttpd and for the orders (else a PoolConn) */
static char mhd_tag,
			order_tag;

/* body bytes buffered by every request being read, at most max_buffered_mb */
static _Atomic size_t buffered_bytes = 0;

/*
 * A request id like DynamoDB's: 52 upper-case letters and digits.  The
 * random bytes are drawn from RAND_bytes 64 ids at a time: each call costs
 * OpenSSL a getpid() system call (its fork check) besides the generator.
 */
#define REQUEST_ID_LEN 52

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

/* libmicrohttpd frees a response's body with this: a PGresult's value. */
static void
free_result(void *result)
{
	PQclear(result);
}

/*
 * Queue a response with DynamoDB's headers.  The body is not copied: it is
 * a static string (free_body NULL), or freed by free_body(owner) once sent
 * (a PGresult holding the engine's answer, or a malloc'ed buffer).
 */
static enum MHD_Result
send_response(struct MHD_Connection *conn, RequestCtx *ctx, int status,
			  const char *body, size_t len, const char *content_type,
			  void (*free_body) (void *), void *owner)
{
	struct MHD_Response *r;
	enum MHD_Result ret;
	char		crc[16];

	snprintf(crc, sizeof(crc), "%lu", crc32(crc32(0L, Z_NULL, 0), (const Bytef *) body, (uInt) len));
	r = MHD_create_response_from_buffer_with_free_callback_cls(len, (void *) body, free_body, owner);
	if (r == NULL)
	{
		if (free_body)
			free_body(owner);
		return MHD_NO;
	}
	MHD_add_response_header(r, "x-amzn-RequestId", ctx->request_id);
	MHD_add_response_header(r, "x-amz-crc32", crc);
	if (content_type)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	/* during shutdown, tell keep-alive clients to take their next request elsewhere */
	if (quiesced)
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
	ret = MHD_queue_response(conn, (unsigned int) status, r);
	MHD_destroy_response(r);
	ctx->answered = true;
	ctx->status = status;
	ctx->bytes_out = len;
	return ret;
}

/* Send resp (its body handed over to libmicrohttpd). */
static enum MHD_Result
send_built(struct MHD_Connection *conn, RequestCtx *ctx, Response *resp)
{
	char	   *body = resp->body.data;
	size_t		len = resp->body.len;

	memcpy(ctx->error_type, resp->error_type, sizeof(ctx->error_type));
	/* the buffer is libmicrohttpd's now: resp has no body left to free */
	resp->body.data = NULL;
	resp->body.len = resp->body.cap = 0;
	return send_response(conn, ctx, resp->status, body, len, resp->content_type, free, body);
}

/* The pool answered one of the request's statements: resume it. */
static void
resume(void *request)
{
	RequestCtx *ctx = request;

	MHD_resume_connection(ctx->conn);
}

/* The 413 for a body over the limit (the connection is then closed). */
static enum MHD_Result
send_too_large(struct MHD_Connection *conn, RequestCtx *ctx)
{
	snprintf(ctx->error_type, sizeof(ctx->error_type), "RequestEntityTooLarge");
	return send_response(conn, ctx, 413, "", 0, NULL, NULL, NULL);
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
		ctx->conn = conn;
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
		in_flight++;
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

	/*
	 * the whole request is here; the call answered (second or third pass),
	 * unless the key's secret changed meanwhile: then the checks run again
	 */
	if (ctx->br.called && !backend_stale_secret(&ctx->br))
	{
		Response	resp;
		PGresult   *res;
		enum MHD_Result ret;
		int			status;

		response_init(&resp);
		resp.content_type = ctx->content_type;
		res = backend_answer(&ctx->br, &resp);
		if (res == NULL)
			return send_built(conn, ctx, &resp);
		memcpy(ctx->error_type, resp.error_type, sizeof(ctx->error_type));
		status = resp.status;
		response_free(&resp);
		/* the engine's text goes out as PostgreSQL sent it, freed with the result */
		ret = send_response(conn, ctx, status, PQgetvalue(res, 0, 0),
							(size_t) PQgetlength(res, 0, 0), ctx->content_type,
							free_result, res);
		return ret;
	}

	/* the protocol's checks, then the key's lookup or the call, or an answer */
	{
		HeaderList	headers = {0},
					args = {0};
		Request		req;
		Response	resp;
		Backend		be;

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
		backend_bind(&ctx->br, ctx, &be);
		handle_request(&req, &be, cfg->region, &resp);
		free(headers.items);
		free(args.items);
		memcpy(ctx->access_key_id, resp.access_key_id, sizeof(ctx->access_key_id));
		memcpy(ctx->operation, resp.operation, sizeof(ctx->operation));
		ctx->content_type = resp.content_type;
		if (ctx->br.pending)
		{
			/* the pool resumes it; this handler then runs again */
			response_free(&resp);
			MHD_suspend_connection(conn);
			return MHD_YES;
		}
		return send_built(conn, ctx, &resp);
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
	backend_request_free(&ctx->br);
	buf_free(&ctx->body);
	free(ctx);
	*con_cls = NULL;
	in_flight--;
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

/*
 * An event loop: wait for libmicrohttpd's sockets, PostgreSQL's and the
 * orders, then let each make progress.  MHD_run() runs after every wakeup:
 * it also serves the connections the pool's callbacks resumed and closes
 * idle ones.  The access log is flushed once per round, not once per line.
 */
static void *
loop(void *arg)
{
	Loop	   *lp = arg;
	struct epoll_event events[64];

	pool_init(cfg, lp->epfd, lp->connections, lp->queue);
	for (;;)
	{
		MHD_UNSIGNED_LONG_LONG mhd_ms;
		int			timeout = -1,
					pool_ms = pool_timeout_ms(),
					n;

		if (MHD_get_timeout(lp->daemon, &mhd_ms) == MHD_YES)
			timeout = mhd_ms > 60000 ? 60000 : (int) mhd_ms;
		if (pool_ms >= 0 && (timeout < 0 || pool_ms < timeout))
			timeout = pool_ms;
		log_flush();
		n = epoll_wait(lp->epfd, events, 64, timeout);
		if (n < 0 && errno != EINTR)
		{
			log_error("epoll_wait failed: %s", strerror(errno));
			break;
		}
		for (int i = 0; i < n; i++)
		{
			void	   *tag = events[i].data.ptr;

			if (tag == &order_tag)
			{
				uint64_t	count;

				if (read(lp->order_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
					log_error("could not read the loop's orders: %s", strerror(errno));
			}
			else if (tag != &mhd_tag)
				pool_event(tag, events[i].events);
		}
		pool_expire();
		if (atomic_load(&quiesce_ordered) && !quiesced)
		{
			/* the socket is shared: the main thread closes it once all let go */
			(void) MHD_quiesce_daemon(lp->daemon);
			quiesced = true;
			nquiesced++;
		}
		if (atomic_load(&stop_ordered))
		{
			/* what still waits or runs is answered (500 or throttled) */
			pool_close_all();
			MHD_run(lp->daemon);
			break;
		}
		MHD_run(lp->daemon);

		/*
		 * libmicrohttpd takes a few rounds to take a connection from an answer
		 * sent to its next request, asking for a timeout of 0 meanwhile: run
		 * those rounds here, up to MHD_EXTRA_ROUNDS, without an epoll_wait of
		 * our own before each (PostgreSQL's answers wait that long)
		 */
		for (int round = 0; round < MHD_EXTRA_ROUNDS; round++)
		{
			if (MHD_get_timeout(lp->daemon, &mhd_ms) != MHD_YES || mhd_ms != 0)
				break;
			MHD_run(lp->daemon);
		}
	}
	log_flush();
	return NULL;
}

/* The listening socket, bound and listening, or -1 (with a message). */
static int
open_listener(const struct addrinfo *ai)
{
	int			fd = socket(ai->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int			on = 1;

	if (fd < 0)
	{
		log_error("could not create a socket: %s", strerror(errno));
		return -1;
	}
	(void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (ai->ai_family == AF_INET6)
		(void) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, 1024) != 0)
	{
		log_error("could not listen on %s port %d: %s", cfg->listen, cfg->port, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* Start one loop's daemon and epoll set (not its thread). */
static bool
start_loop(Loop *lp, unsigned int flags, bool tls, unsigned int max_conns)
{
	const union MHD_DaemonInfo *info;
	struct epoll_event ev = {.events = EPOLLIN};

	lp->epfd = lp->order_fd = -1;
	/* the logger first: MHD uses its own for options before it */
	lp->daemon = MHD_start_daemon(flags, (uint16_t) cfg->port, NULL, NULL, handle, NULL,
								  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
								  MHD_OPTION_LISTEN_SOCKET, listen_fd,
								  MHD_OPTION_CONNECTION_LIMIT, max_conns,
								  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) cfg->idle_timeout,
								  MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
								  tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, tls_cert_pem,
								  MHD_OPTION_HTTPS_MEM_KEY, tls_key_pem,
								  MHD_OPTION_END);
	if (lp->daemon == NULL)
	{
		log_error("could not start the HTTP server on %s port %d (bad TLS files?)", cfg->listen, cfg->port);
		return false;
	}
	info = MHD_get_daemon_info(lp->daemon, MHD_DAEMON_INFO_EPOLL_FD);
	lp->epfd = epoll_create1(EPOLL_CLOEXEC);
	lp->order_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (info == NULL || lp->epfd < 0 || lp->order_fd < 0)
	{
		log_error("could not set up the event loop: %s", strerror(errno));
		return false;
	}
	ev.data.ptr = &mhd_tag;
	if (epoll_ctl(lp->epfd, EPOLL_CTL_ADD, info->epoll_fd, &ev) != 0)
	{
		log_error("could not set up the event loop: %s", strerror(errno));
		return false;
	}
	ev.data.ptr = &order_tag;
	if (epoll_ctl(lp->epfd, EPOLL_CTL_ADD, lp->order_fd, &ev) != 0)
	{
		log_error("could not set up the event loop: %s", strerror(errno));
		return false;
	}
	return true;
}

/* Start serving. */
bool
http_start(const GatewayConfig *config)
{
	struct addrinfo hints = {0},
			   *ai;
	char		port[16];
	unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
	bool		tls = config->tls_cert && *config->tls_cert;
	int			rc;

	cfg = config;
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
	listen_fd = open_listener(ai);
	freeaddrinfo(ai);
	if (listen_fd < 0)
		return false;

	/* each loop needs a connection of its own */
	nloops = cfg->threads < cfg->pool_size ? cfg->threads : cfg->pool_size;
	loops = xmalloc(sizeof(Loop) * (size_t) nloops);
	memset(loops, 0, sizeof(Loop) * (size_t) nloops);
	backend_init(cfg, resume);
	for (int i = 0; i < nloops; i++)
	{
		Loop	   *lp = &loops[i];
		unsigned int max_conns = (unsigned int) ((cfg->max_connections + nloops - 1) / nloops);

		lp->connections = cfg->pool_size / nloops + (i < cfg->pool_size % nloops);
		lp->queue = cfg->queue_size / nloops + (i < cfg->queue_size % nloops);
		if (!start_loop(lp, flags, tls, max_conns))
			return false;
		if (pthread_create(&lp->thread, NULL, loop, lp) != 0)
		{
			log_error("could not start an event loop thread");
			return false;
		}
		lp->running = true;
	}
	return true;
}

/* Tell every loop to look at the orders. */
static void
order(atomic_bool *flag)
{
	uint64_t	one = 1;

	atomic_store(flag, true);
	for (int i = 0; i < nloops; i++)
		if (loops[i].order_fd >= 0 && write(loops[i].order_fd, &one, sizeof(one)) != sizeof(one))
			log_error("could not wake an event loop: %s", strerror(errno));
}

/*
 * Stop accepting connections: every loop lets go of the listening socket,
 * then it is closed (connections then get refused, not left waiting).
 */
void
http_quiesce(void)
{
	int			running = 0;
	double		deadline = now_monotonic() + 2.0;

	order(&quiesce_ordered);
	for (int i = 0; i < nloops; i++)
		running += loops[i].running;
	while (atomic_load(&nquiesced) < running && now_monotonic() < deadline)
		usleep(1000);
	if (listen_fd >= 0 && atomic_load(&nquiesced) == running)
	{
		close(listen_fd);
		listen_fd = -1;
	}
}

/* Requests being answered now. */
int
http_in_flight(void)
{
	return atomic_load(&in_flight);
}

/* Close every connection and stop. */
void
http_stop(void)
{
	if (loops)
		order(&stop_ordered);
	for (int i = 0; i < nloops; i++)
	{
		Loop	   *lp = &loops[i];

		if (lp->running)
			pthread_join(lp->thread, NULL);
		lp->running = false;
		if (lp->daemon)
		{
			/* the listening socket is ours, closed once below */
			(void) MHD_quiesce_daemon(lp->daemon);
			MHD_stop_daemon(lp->daemon);
		}
		if (lp->epfd >= 0)
			close(lp->epfd);
		if (lp->order_fd >= 0)
			close(lp->order_fd);
	}
	free(loops);
	loops = NULL;
	nloops = 0;
	if (listen_fd >= 0)
		close(listen_fd);
	listen_fd = -1;
	free(tls_cert_pem);
	free(tls_key_pem);
}
