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
 * The body is read into memory up to max_body_mb and the answer queued with
 * DynamoDB's headers by exchange.c (shared with the in-server HTTP
 * workers); the bodies being read, all connections together, hold at most
 * max_buffered_mb: past it a body is refused (the connection closed, logged
 * as a 503), so no client, signed or not, can make the gateway buffer more.
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
#include <openssl/crypto.h>

#include "backend.h"
#include "exchange.h"
#include "guard.h"
#include "log.h"
#include "s3.h"
#include "sigv4.h"
#include "util.h"

typedef struct RequestCtx
{
	struct MHD_Connection *conn;
	Exchange	x;				/* the request read, its answer (exchange.c) */
	BackendRequest br;			/* its statements in the pool */
} RequestCtx;

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
	Guard		guard;			/* its connections' deadlines (guard.c) */
	/* requests waiting for room under max_unsent_mb, suspended */
	struct MHD_Connection **waiting;
	int			nwaiting;
	int			max_waiting;
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

/* body bytes buffered by every request being read (max_buffered_mb, max_unverified_mb) */
static BodyBudget bodies;
static GuardLimits guard_limits;

/* the longest a loop waits without calling MHD_run (ms) */
#define MAX_WAIT_MS 500

/* libmicrohttpd frees a response's body with this: a PGresult's value. */
static void
free_result(void *result)
{
	PQclear(result);
}

/* The pool answered one of the request's statements: resume it. */
static void
resume(void *request)
{
	RequestCtx *ctx = request;

	MHD_resume_connection(ctx->conn);
}

/* Charge n more body bytes to max_buffered_mb and max_unverified_mb. */
static bool
charge(Exchange *x, size_t n)
{
	return exchange_charge(&bodies, x, n, (size_t) cfg->max_buffered_mb * 1024 * 1024,
						   (size_t) cfg->max_unverified_mb * 1024 * 1024);
}

/* MHD's access handler: called with the headers, each body chunk, the end. */
static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	   const char *version, const char *upload_data, size_t *upload_data_size,
	   void **con_cls)
{
	RequestCtx *ctx = *con_cls;
	Loop	   *lp = cls;
	size_t		max_body = (size_t) cfg->max_body_mb * 1024 * 1024;
	bool		complete;
	enum MHD_Result ret;

	if (ctx == NULL)
	{
		/* the headers have arrived */
		ctx = xmalloc(sizeof(RequestCtx));
		memset(ctx, 0, sizeof(*ctx));
		ctx->conn = conn;
		exchange_begin(&ctx->x, conn);
		*con_cls = ctx;
		in_flight++;
		guard_phase(conn, GUARD_BODY);
		if (exchange_conflicting_length(conn))
			return exchange_send_bad_length(&ctx->x, conn);
		if (exchange_declared_too_large(conn, max_body))
			return exchange_send_too_large(&ctx->x, conn, quiesced);
		return MHD_YES;
	}
	ret = exchange_read(&ctx->x, upload_data, upload_data_size, max_body, charge, &complete);
	if (!complete)
		return ret;
	guard_phase(conn, GUARD_RUNNING);

	/*
	 * the whole request is here; the call answered (second or third pass),
	 * unless the key's secret changed meanwhile: then the checks run again
	 */
	if (ctx->br.called && !backend_stale_secret(&ctx->br))
	{
		Response	resp;
		PGresult   *res;
		int			status;

		response_init(&resp);
		resp.content_type = ctx->x.content_type;
		res = backend_answer(&ctx->br, &resp);
		if (res == NULL)
			return exchange_send_response(&ctx->x, conn, &resp, quiesced);
		memcpy(ctx->x.error_type, resp.error_type, sizeof(ctx->x.error_type));
		status = resp.status;
		response_free(&resp);
		/* the engine's text goes out as PostgreSQL sent it, freed with the result */
		return exchange_send(&ctx->x, conn, status, PQgetvalue(res, 0, 0),
							 (size_t) PQgetlength(res, 0, 0), ctx->x.content_type, quiesced,
							 free_result, res);
	}

	/*
	 * Answers unread by their clients hold memory: past max_unsent_mb the
	 * oldest are dropped, and this request waits (suspended, its connection
	 * read no further) until their memory is freed
	 */
	if (!ctx->br.called && !quiesced && !atomic_load(&stop_ordered) &&
		!guard_unsent_room(&lp->guard))
	{
		if (lp->nwaiting == lp->max_waiting)
		{
			struct MHD_Connection **bigger;

			lp->max_waiting = lp->max_waiting ? lp->max_waiting * 2 : 16;
			bigger = xmalloc(sizeof(*bigger) * (size_t) lp->max_waiting);
			if (lp->nwaiting)
				memcpy(bigger, lp->waiting, sizeof(*bigger) * (size_t) lp->nwaiting);
			free(lp->waiting);
			lp->waiting = bigger;
		}
		lp->waiting[lp->nwaiting++] = conn;
		MHD_suspend_connection(conn);
		return MHD_YES;
	}

	/*
	 * the protocol's checks, the key's lookup, the checks with its secret,
	 * the call; a lookup or call queued in the pool suspends the request
	 */
	{
		HeaderList	headers,
					args;
		Request		req;
		Response	resp;
		SigV4Auth	auth;

		exchange_request(&ctx->x, conn, method, url, &req, &headers, &args);
		response_init(&resp);
		backend_bind(&ctx->br, ctx, ctx->x.remote);
		if (s3_is_request(request_header(&req, "Authorization"),
						  request_header(&req, "X-Amz-Target")))
		{
			/* S3's API beside DynamoDB's (s3.h) */
			if (s3_check(&req, &resp, &auth))
			{
				char		secret[SECRET_MAX] = "";
				LookupResult found;
				StrBuf		payload,
							query;

				buf_init(&payload);
				buf_init(&query);
				found = backend_lookup(&ctx->br, auth.access_key_id, secret, sizeof(secret), &resp);
				if (found == LOOKUP_FAILED && !ctx->br.pending)
					s3_error(&resp, 503, "SlowDown", "Please reduce your request rate.", NULL);
				else if (found != LOOKUP_FAILED &&
						 s3_authenticate(&req, &auth, secret, found == LOOKUP_FOUND, &resp, &payload))
				{
					s3_query(&req, &query);
					backend_call_s3(&ctx->br, auth.access_key_id, method, req.path, query.data,
									payload.data, payload.len, &resp);
				}
				OPENSSL_cleanse(secret, sizeof(secret));
				buf_free(&payload);
				buf_free(&query);
			}
		}
		else if (request_check(&req, cfg->region, &resp, &auth))
		{
			char		secret[SECRET_MAX] = "";
			LookupResult found;

			found = backend_lookup(&ctx->br, auth.access_key_id, secret, sizeof(secret), &resp);
			if (found != LOOKUP_FAILED &&
				request_authenticate(&req, &auth, secret, found == LOOKUP_FOUND, &resp) &&
				!request_local_answer(&req, cfg->region, &resp))
				backend_call(&ctx->br, auth.access_key_id, resp.operation, req.body,
							 req.body_len, &resp);
			OPENSSL_cleanse(secret, sizeof(secret));
		}
		exchange_headers_free(&headers, &args);
		exchange_note(&ctx->x, &resp);
		if (ctx->br.pending)
		{
			/* the pool resumes it; this handler then runs again */
			response_free(&resp);
			MHD_suspend_connection(conn);
			return MHD_YES;
		}
		ret = exchange_send_response(&ctx->x, conn, &resp, quiesced);
		response_free(&resp);
		return ret;
	}
}

/* MHD's completion callback: the access log line, then free the request. */
static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		  enum MHD_RequestTerminationCode toe)
{
	RequestCtx *ctx = *con_cls;
	Exchange   *x;

	if (ctx == NULL)
		return;
	x = &ctx->x;
	log_access(x->remote, x->access_key_id, x->operation,
			   x->answered ? x->status : 0,
			   x->answered ? x->error_type : "ClientGone",
			   now_monotonic() - x->start, x->body.len, x->bytes_out, x->request_id);
	exchange_release(&bodies, x);
	guard_done(conn);
	backend_request_free(&ctx->br);
	exchange_free(x);
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

		unsigned int before;

		/*
		 * Never an endless wait: libmicrohttpd may need MHD_run to take its
		 * listening socket back into its epoll set (after the connection
		 * limit, or a descriptor shortage) with no event to wake us, and
		 * the guard's deadlines need sweeps
		 */
		timeout = MAX_WAIT_MS;
		if (MHD_get_timeout(lp->daemon, &mhd_ms) == MHD_YES && mhd_ms < (MHD_UNSIGNED_LONG_LONG) timeout)
			timeout = (int) mhd_ms;
		if (pool_ms >= 0 && pool_ms < timeout)
			timeout = pool_ms;
		if (guard_timeout_ms(&lp->guard) >= 0 && guard_timeout_ms(&lp->guard) < timeout)
			timeout = guard_timeout_ms(&lp->guard);
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
			for (int i = 0; i < lp->nwaiting; i++)
				MHD_resume_connection(lp->waiting[i]);
			lp->nwaiting = 0;
			pool_close_all();
			MHD_run(lp->daemon);
			break;
		}
		before = (unsigned int) lp->guard.count;
		MHD_run(lp->daemon);

		/*
		 * a connection closed: libmicrohttpd re-arms its listening socket (if
		 * it had let go of it at the limit) only in its next round
		 */
		if ((unsigned int) lp->guard.count < before)
			MHD_run(lp->daemon);
		guard_sweep(&lp->guard, now_monotonic());
		if (lp->nwaiting > 0)
		{
			/* the dropped answers' memory is freed: the waiting requests go on */
			int			n = lp->nwaiting;

			lp->nwaiting = 0;
			for (int i = 0; i < n; i++)
				MHD_resume_connection(lp->waiting[i]);
		}

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
	guard_init(&lp->guard, &guard_limits, (int) max_conns);
	/* the logger first: MHD uses its own for options before it */
	lp->daemon = MHD_start_daemon(flags, (uint16_t) cfg->port, NULL, NULL, handle, lp,
								  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
								  MHD_OPTION_LISTEN_SOCKET, listen_fd,
								  MHD_OPTION_CONNECTION_LIMIT, max_conns,
								  MHD_OPTION_PER_IP_CONNECTION_LIMIT,
								  (unsigned int) ((cfg->max_per_address + nloops - 1) / nloops),
								  MHD_OPTION_NOTIFY_CONNECTION, guard_notify, &lp->guard,
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
	guard_limits.header_timeout = cfg->header_timeout;
	guard_limits.body_timeout = cfg->body_timeout;
	guard_limits.send_timeout = cfg->send_timeout;
	guard_limits.max_unsent = (size_t) cfg->max_unsent_mb * 1024 * 1024;
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
		lp->queue = cfg->queue_size < 0 ? -1 :
			cfg->queue_size / nloops + (i < cfg->queue_size % nloops);
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
		free(lp->waiting);
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
