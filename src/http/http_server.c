/*-------------------------------------------------------------------------
 *
 * http_server.c
 *	  DynamoDB's HTTP endpoint inside PostgreSQL: background workers that
 *	  accept HTTP, check the request as hroe-gateway does and run it in
 *	  their own backend, with no libpq hop.
 *
 * With hroe in shared_preload_libraries and hroe.http_port set, the
 * postmaster starts hroe.http_workers workers.  Each one connects to
 * hroe.http_database as hroe.http_role (the role hroe-gateway would log in
 * as: it needs SELECT on hroe.access_keys and membership in the keys'
 * roles), opens its own listening socket on hroe.http_listen:hroe.http_port
 * with SO_REUSEPORT (the kernel spreads connections over the workers) and
 * runs libmicrohttpd in its external-epoll mode from a WaitEventSet that
 * also holds its latch.
 *
 * A request is answered in the handler's last call, in this process, as
 * request.c decides (the same protocol checks, SigV4 and error mapping as
 * hroe-gateway; its files are linked into hroe's library): the key's secret
 * from a per-worker cache (5 seconds, as the gateway's) or a lookup in a
 * transaction of its own, then the call in a transaction: the key checked
 * again with the secret the signature was verified with, SET LOCAL ROLE to
 * its role, the JSON API over the body's text.  Every PostgreSQL error is
 * caught there (PG_TRY), the transaction aborted, and the error mapped to
 * DynamoDB's response; none crosses libmicrohttpd's frames.
 *
 * A worker answers one request at a time (a backend runs one transaction at
 * a time): the others on its connections wait in the kernel's buffers, and
 * hroe.http_statement_timeout bounds each request.  SIGTERM (a shutdown, or
 * pg_terminate_backend) stops the worker accepting connections; the request
 * being run finishes and is answered, then the worker exits.  SIGHUP reloads
 * the configuration.  HTTPS (hroe.http_tls_cert/key) comes from
 * libmicrohttpd, the access log (hroe.http_log_requests) goes to the server
 * log.  hroe-gateway remains the front end for failure isolation, several
 * servers, read replicas and a request queue with ThrottlingException
 * (doc/gateway.md, "In-server HTTP workers", compares the two).
 *
 * src/http/http_server.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <netdb.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>
#include <openssl/crypto.h>

#include "access/xact.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/fd.h"
#include "storage/proc.h"
#include "storage/procsignal.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timeout.h"

#include "ddb_types.h"
#include "exchange.h"
#include "guard.h"
#include "s3.h"
#include "sigv4.h"
#include "api_internal.h"
#include "worker.h"
#include "http_server.h"

PGDLLEXPORT void hroe_http_worker_main(Datum arg);

/* settings (http_server_define_settings) */
static int	http_port = 0;
static char *http_listen = NULL;
static int	http_workers = 4;
static char *http_database = NULL;
static char *http_role = NULL;
static int	http_max_connections = 1024;
static int	http_max_body_mb = 16;
static int	http_idle_timeout = 60;
static int	http_max_buffered_mb = 256;
static char *http_tls_cert = NULL;
static char *http_tls_key = NULL;
static bool http_allow_plain_http = false;
static bool http_log_requests = false;
static int	http_statement_timeout = 10000;
static int	http_header_timeout = 10;
static int	http_body_timeout = 60;
static int	http_send_timeout = 60;
static int	http_max_unsent_mb = 256;
static int	http_max_unverified_mb = 32;
static int	http_max_per_address = 256;

/* a key's secret is kept this long, an unknown key's at most one second */
#define SECRET_TTL_S 5.0
#define UNKNOWN_TTL_S 1.0
#define SECRET_MAX (ACCESS_KEY_SECRET_MAX + 1)
#define SECRET_CACHE_MAX 10000

typedef struct SecretEntry
{
	char		access_key_id[ACCESS_KEY_ID_MAX + 1];	/* hash key */
	bool		known;
	char		secret[SECRET_MAX];
	double		expires;
} SecretEntry;

/* one request being read or answered */
typedef struct HttpRequest
{
	Exchange	x;				/* the request read, its answer (exchange.c) */
	/* the secret the signature was checked with, for the call's check */
	char		secret[SECRET_MAX];
	bool		stale;			/* the call found the key's secret changed */
	bool		cached;			/* the secret came from this worker's cache */
} HttpRequest;

static void secret_cache_init(void);
static bool port_is_free(void);

static volatile sig_atomic_t terminate_requested = false;
static HTAB *secret_cache;
static bool quiesced = false;
static MemoryContext request_cxt;	/* reset after each answer */
static BodyBudget bodies;		/* bodies being read, all connections */
static Guard guard;				/* the connections' deadlines (guard.c) */

/*
 * Requests waiting for room under hroe.http_max_unsent_mb, suspended (their
 * connections read nothing more meanwhile), resumed after the next MHD_run
 */
static struct MHD_Connection **waiting;
static int	nwaiting;
static int	max_waiting;
static GuardLimits guard_limits;

/* the longest the worker waits without calling MHD_run (ms) */
#define MAX_WAIT_MS 500
/* libmicrohttpd's messages: at most this many lines per interval (s) */
#define MHD_LOG_BURST 5
#define MHD_LOG_INTERVAL 10.0

/* Register the workers when hroe.http_port is set. */
static void
register_workers(void)
{
	BackgroundWorker worker;

	if (http_port == 0 || !port_is_free())
		return;
	hroe_worker_prepare(&worker, "hroe_http_worker_main", "hroe http");
	for (int i = 0; i < http_workers; i++)
	{
		snprintf(worker.bgw_name, BGW_MAXLEN, "hroe http worker %d", i + 1);
		worker.bgw_main_arg = Int32GetDatum(i);
		RegisterBackgroundWorker(&worker);
	}
}

/*
 * From _PG_init, when hroe is preloaded (the settings are PGC_POSTMASTER,
 * which a library loaded later may not define): the settings, and the
 * workers when hroe.http_port is set.  Loaded by CREATE EXTENSION or LOAD,
 * hroe has no hroe.http_* settings and starts no worker.
 */
void
hroe_http_init(void)
{
	if (!process_shared_preload_libraries_in_progress)
		return;
	DefineCustomIntVariable("hroe.http_port",
							"TCP port of hroe's in-server HTTP endpoint (0: none).",
							"With hroe in shared_preload_libraries, the postmaster starts "
							"hroe.http_workers background workers that answer DynamoDB's HTTP "
							"API on this port.",
							&http_port, 0, 0, 65535, PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.http_listen",
							   "Address hroe's in-server HTTP endpoint listens on.",
							   "A numeric IPv4 or IPv6 address.  Plain HTTP: keep it on "
							   "loopback, or put a TLS-terminating proxy or hroe-gateway in front.",
							   &http_listen, "127.0.0.1", PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_workers",
							"Background workers serving hroe's in-server HTTP endpoint.",
							"Each answers one request at a time; the kernel spreads the "
							"connections over them (SO_REUSEPORT).",
							&http_workers, 4, 1, 64, PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.http_database",
							   "Database the in-server HTTP workers serve.",
							   NULL, &http_database, "postgres", PGC_POSTMASTER, 0,
							   NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.http_role",
							   "Login role the in-server HTTP workers connect as.",
							   "It needs SELECT on hroe.access_keys and membership in the roles of "
							   "the access keys; each request runs as its key's role (SET LOCAL ROLE). "
							   "Required: the workers do not start without it.",
							   &http_role, "", PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_connections",
							"HTTP connections each in-server HTTP worker keeps at most.",
							NULL, &http_max_connections, 1024, 1, 65536, PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_body_mb",
							"Largest request body the in-server HTTP endpoint reads, in MiB.",
							"A larger one is answered 413, as DynamoDB does.",
							&http_max_body_mb, 16, 1, 1024, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_idle_timeout",
							"Seconds before an idle HTTP connection of the in-server endpoint is closed.",
							NULL, &http_idle_timeout, 60, 1, 86400, PGC_POSTMASTER,
							GUC_UNIT_S, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_buffered_mb",
							"Request body bytes each in-server HTTP worker buffers at most, all connections together, in MiB.",
							"Past it a body being read is refused and its connection closed, so no "
							"client, signed or not, can make a worker hold more.",
							&http_max_buffered_mb, 256, 1, 65536, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.http_tls_cert",
							   "PEM certificate (chain) file of the in-server HTTP endpoint: HTTPS when set.",
							   NULL, &http_tls_cert, "", PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("hroe.http_tls_key",
							   "PEM private key file of hroe.http_tls_cert.",
							   NULL, &http_tls_key, "", PGC_POSTMASTER, GUC_SUPERUSER_ONLY,
							   NULL, NULL, NULL);
	DefineCustomBoolVariable("hroe.http_allow_plain_http",
							 "Lets the in-server HTTP endpoint speak plain HTTP on an address that is not loopback.",
							 "Off (the default): without hroe.http_tls_cert the workers refuse to "
							 "listen anywhere but 127.0.0.0/8 or ::1.",
							 &http_allow_plain_http, false, PGC_POSTMASTER, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_statement_timeout",
							"Time a request of the in-server HTTP endpoint may run.",
							"Past it the request is canceled and answered 500 InternalServerError, "
							"which the SDKs retry. 0: statement_timeout as set for the workers' "
							"role or database.",
							&http_statement_timeout, 10000, 0, INT_MAX, PGC_SIGHUP, GUC_UNIT_MS,
							NULL, NULL, NULL);
	DefineCustomBoolVariable("hroe.http_log_requests",
							 "Logs each request of the in-server HTTP endpoint (the access log).",
							 "One LOG line per request: client address, access key id, operation, "
							 "status, error type, duration, bytes in and out, request id. Never a "
							 "secret or a body.",
							 &http_log_requests, false, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_header_timeout",
							"Time from a request's first byte (or a TLS handshake's) to its last header.",
							"Past it the connection is closed: a client sending its headers a byte "
							"at a time (slowloris) does not keep a connection.",
							&http_header_timeout, 10, 1, 3600, PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_body_timeout",
							"Time from a request's headers to the end of its body.",
							"Past it the connection is closed.",
							&http_body_timeout, 60, 1, 3600, PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_send_timeout",
							"Time a client may take to read an answer of the in-server HTTP endpoint.",
							"Past it the connection is closed and the answer's memory freed.",
							&http_send_timeout, 60, 1, 3600, PGC_SIGHUP, GUC_UNIT_S,
							NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_unsent_mb",
							"Answers each in-server HTTP worker keeps queued for clients that have not read them, in MiB.",
							"Past it the connections with the oldest unread answers are closed.",
							&http_max_unsent_mb, 256, 1, 65536, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_unverified_mb",
							"Request body bytes each in-server HTTP worker buffers before their signature can be checked, past each body's first 64 KiB, in MiB.",
							"Past it such a body is refused and its connection closed, so anonymous "
							"clients cannot spend hroe.http_max_buffered_mb.",
							&http_max_unverified_mb, 32, 1, 65536, PGC_SIGHUP, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("hroe.http_max_connections_per_address",
							"HTTP connections each in-server HTTP worker keeps at most from one client address.",
							NULL, &http_max_per_address, 256, 1, 65536, PGC_POSTMASTER, 0,
							NULL, NULL, NULL);
	register_workers();
}

static void
handle_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	terminate_requested = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/*
 * Recover from the PostgreSQL error just caught, as PostgreSQL's main loop
 * does: no interrupt while the transaction is aborted (a statement timeout's
 * cancel still pending would raise again inside the abort), timeouts off and
 * a pending cancel dropped.  The error, copied into cxt (the request's
 * context, which outlives the transaction), for the caller to answer and free.
 */
static ErrorData *
recover_caught_error(MemoryContext cxt)
{
	ErrorData  *edata;

	MemoryContextSwitchTo(cxt);
	HOLD_INTERRUPTS();
	disable_all_timeouts(false);
	QueryCancelPending = false;
	edata = CopyErrorData();
	FlushErrorState();
	AbortCurrentTransaction();
	RESUME_INTERRUPTS();
	return edata;
}

/*
 * The PostgreSQL error just caught, as DynamoDB's response: the transaction
 * aborted, the error logged when it is the server's fault.
 */
static void
answer_caught_error(MemoryContext cxt, Response *resp, const char *akid, const char *op)
{
	ErrorData  *edata = recover_caught_error(cxt);

	if (!response_sql_error(resp, unpack_sql_state(edata->sqlerrcode), edata->message,
							akid, op))
		ereport(LOG,
				(errmsg("hroe http: %s by %s failed: %s", op, akid, edata->message)));
	FreeErrorData(edata);
}

/* The time a request may run (ms, 0: none). */
static int
request_timeout(void)
{
	return http_statement_timeout > 0 ? http_statement_timeout : StatementTimeout;
}

/* Start a request's transaction, as a statement would. */
static void
begin_request(const char *what)
{
	/*
	 * A cancel that arrived between requests (pg_cancel_backend, or a
	 * statement timeout that fired after the last interrupt check of the
	 * previous request) is dropped, as PostgreSQL's main loop drops one that
	 * arrives while it reads the next command: it must not fail this request
	 */
	disable_all_timeouts(false);
	QueryCancelPending = false;
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	pgstat_report_activity(STATE_RUNNING, what);
	if (request_timeout() > 0)
		enable_timeout_after(STATEMENT_TIMEOUT, request_timeout());
}

static void
end_request(void)
{
	disable_timeout(STATEMENT_TIMEOUT, false);
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_activity(STATE_IDLE, NULL);
}

/* The key's secret: the cache, else hroe.access_keys (hroe_access_key_secret). */
static LookupResult
lookup_secret(HttpRequest *hr, const char *akid, char *secret, size_t size, Response *resp)
{
	SecretEntry *e;
	bool		found;
	double		now = now_monotonic();
	MemoryContext cxt = MemoryContextSwitchTo(request_cxt);
	volatile bool failed = false;

	if (strlen(akid) > ACCESS_KEY_ID_MAX)
	{
		MemoryContextSwitchTo(cxt);
		return LOOKUP_UNKNOWN;
	}
	e = hash_search(secret_cache, akid, HASH_FIND, NULL);
	hr->cached = e != NULL && e->expires >= now;
	if (hr->cached)
		MemoryContextSwitchTo(cxt);
	else
	{
		volatile bool known = false;
		char		value[SECRET_MAX] = "";

		PG_TRY();
		{
			char	   *s;

			begin_request("hroe http: access key lookup");
			s = hroe_access_key_secret(cstring_to_text(akid));
			if (s != NULL)
			{
				known = strlen(s) < sizeof(value);
				strlcpy(value, s, sizeof(value));
				explicit_bzero(s, strlen(s));
			}
			end_request();
		}
		PG_CATCH();
		{
			answer_caught_error(request_cxt, resp, akid, resp->operation);
			failed = true;
		}
		PG_END_TRY();
		MemoryContextSwitchTo(cxt);
		if (failed)
			return LOOKUP_FAILED;
		if (e == NULL && hash_get_num_entries(secret_cache) >= SECRET_CACHE_MAX)
		{
			hash_destroy(secret_cache);
			secret_cache_init();
		}
		e = hash_search(secret_cache, akid, HASH_ENTER, &found);
		e->known = known;
		strlcpy(e->secret, value, sizeof(e->secret));
		e->expires = now + (known ? SECRET_TTL_S : UNKNOWN_TTL_S);
		OPENSSL_cleanse(value, sizeof(value));
	}
	if (!e->known)
		return LOOKUP_UNKNOWN;
	strlcpy(secret, e->secret, size);
	strlcpy(hr->secret, e->secret, sizeof(hr->secret));
	return LOOKUP_FOUND;
}

/* The call: the operation, as the key's role, in a transaction. */
static void
call(HttpRequest *hr, const char *akid, const char *op, const char *body, size_t body_len,
	 Response *resp)
{
	MemoryContext cxt = MemoryContextSwitchTo(request_cxt);

	PG_TRY();
	{
		text	   *out;

		begin_request(op);
		out = hroe_gateway_run(cstring_to_text(akid), hr->secret, op, body, (int) body_len);
		if (out == NULL)
		{
			/*
			 * The key was revoked or its secret changed since the lookup: the
			 * request is checked again against the key of the day
			 * (handle()), once; answered UnrecognizedClient if it is again
			 */
			hr->stale = true;
			response_error(resp, 400, DDB_TYPE_UNRECOGNIZED_CLIENT, DDB_MSG_UNRECOGNIZED_CLIENT);
		}
		else
		{
			buf_append(&resp->body, VARDATA_ANY(out), VARSIZE_ANY_EXHDR(out));
			response_classify(resp, resp->body.data, resp->body.len);
		}
		end_request();
	}
	PG_CATCH();
	{
		answer_caught_error(request_cxt, resp, akid, op);
	}
	PG_END_TRY();
	MemoryContextSwitchTo(cxt);
	OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
}

/* Charge n more body bytes to hroe.http_max_buffered_mb and hroe.http_max_unverified_mb. */
static bool
charge_body(Exchange *x, size_t n)
{
	return exchange_charge(&bodies, x, n, (size_t) http_max_buffered_mb * 1024 * 1024,
						   (size_t) http_max_unverified_mb * 1024 * 1024);
}

/*
 * A body larger than the unverified allowance whose signature the headers
 * already prove: its hash signed as x-amz-content-sha256 (SigV4 lets a
 * client sign the payload's hash as a header), the headers' signature
 * checked with it.  The body is then charged to hroe.http_max_buffered_mb
 * only; its hash is checked with the whole request at the end (a body that
 * is not the one signed fails the signature there).
 */
static bool
headers_verified(HttpRequest *hr, struct MHD_Connection *conn, const char *method,
				 const char *url)
{
	const char *hash = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "x-amz-content-sha256");
	HeaderList	headers,
				args;
	Request		req;
	Response	resp;
	SigV4Auth	auth;
	char		secret[SECRET_MAX];
	bool		ok = false;
	MemoryContext old;

	if (hash == NULL || strlen(hash) != 64 || strspn(hash, "0123456789abcdef") != 64)
		return false;
	old = MemoryContextSwitchTo(request_cxt);
	exchange_request(&hr->x, conn, method, url, &req, &headers, &args);
	req.payload_hash = hash;
	response_init(&resp);
	if (sigv4_parse(&req, &auth, &resp))
	{
		char		list[sizeof(auth.signed_headers) + 2];
		bool		hash_signed;

		snprintf(list, sizeof(list), ";%s;", auth.signed_headers);
		hash_signed = strstr(list, ";x-amz-content-sha256;") != NULL;
		if (hash_signed &&
			lookup_secret(hr, auth.access_key_id, secret, sizeof(secret), &resp) == LOOKUP_FOUND)
			ok = sigv4_verify(&req, &auth, secret);
	}
	OPENSSL_cleanse(secret, sizeof(secret));
	OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
	response_free(&resp);
	exchange_headers_free(&headers, &args);
	MemoryContextSwitchTo(old);
	MemoryContextReset(request_cxt);
	return ok;
}

/* S3's call: the request as the key's role, in a transaction (call()'s twin) */
static void
call_s3(HttpRequest *hr, const char *akid, const Request *req, const StrBuf *payload,
		Response *resp)
{
	MemoryContext cxt = MemoryContextSwitchTo(request_cxt);
	StrBuf		query;

	buf_init(&query);
	s3_query(req, &query);
	PG_TRY();
	{
		bytea	   *out;

		begin_request(resp->operation);
		out = hroe_s3_gateway_run(cstring_to_text(akid), hr->secret, req->method, req->path,
								  query.data, payload->data, payload->len);
		if (out == NULL)
		{
			hr->stale = true;
			s3_error(resp, 403, "InvalidAccessKeyId",
					 "The AWS Access Key Id you provided does not exist in our records.", req->path);
		}
		else if (!s3_answer(resp, VARDATA_ANY(out), VARSIZE_ANY_EXHDR(out)))
			ereport(LOG, (errmsg("hroe http: S3 %s by %s: an answer of no form", req->method, akid)));
		end_request();
	}
	PG_CATCH();
	{
		ErrorData  *edata = recover_caught_error(request_cxt);

		if (!s3_sql_error(resp, unpack_sql_state(edata->sqlerrcode), edata->message))
			ereport(LOG,
					(errmsg("hroe http: S3 %s by %s failed: %s", req->method, akid, edata->message)));
		FreeErrorData(edata);
	}
	PG_END_TRY();
	buf_free(&query);
	MemoryContextSwitchTo(cxt);
	OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
}

/*
 * Answer one whole request: the protocol's checks, the key's secret, the
 * checks with it, the call.
 */
static void
answer(HttpRequest *hr, const Request *req, Response *resp)
{
	SigV4Auth	auth;
	char		secret[SECRET_MAX] = "";
	LookupResult found;

	/* S3's API beside DynamoDB's (s3.h) */
	if (s3_is_request(request_header(req, "Authorization"), request_header(req, "X-Amz-Target")))
	{
		StrBuf		payload;

		if (!s3_check(req, resp, &auth))
			return;
		buf_init(&payload);
		found = lookup_secret(hr, auth.access_key_id, secret, sizeof(secret), resp);
		if (found != LOOKUP_FAILED &&
			s3_authenticate(req, &auth, secret, found == LOOKUP_FOUND, resp, &payload))
			call_s3(hr, auth.access_key_id, req, &payload, resp);
		buf_free(&payload);
		OPENSSL_cleanse(secret, sizeof(secret));
		OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
		return;
	}
	if (!request_check(req, hroe_region, resp, &auth))
		return;
	found = lookup_secret(hr, auth.access_key_id, secret, sizeof(secret), resp);
	if (found != LOOKUP_FAILED &&
		request_authenticate(req, &auth, secret, found == LOOKUP_FOUND, resp) &&
		!request_local_answer(req, hroe_region, resp))
		call(hr, auth.access_key_id, resp->operation, req->body, req->body_len, resp);
	OPENSSL_cleanse(secret, sizeof(secret));
	OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
}

/* MHD's access handler: the headers, each body chunk, then the answer. */
static enum MHD_Result
handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
	   const char *version, const char *upload_data, size_t *upload_data_size,
	   void **con_cls)
{
	HttpRequest *hr = *con_cls;
	size_t		max_body = (size_t) http_max_body_mb * 1024 * 1024;
	bool		complete;
	enum MHD_Result ret;
	HeaderList	headers,
				args;
	Request		req;
	Response	resp;
	MemoryContext old;

	if (hr == NULL)
	{
		hr = MemoryContextAllocZero(TopMemoryContext, sizeof(HttpRequest));
		exchange_begin(&hr->x, conn);
		*con_cls = hr;
		guard_phase(conn, GUARD_BODY);
		if (exchange_conflicting_length(conn))
			return exchange_send_bad_length(&hr->x, conn);
		if (exchange_declared_too_large(conn, max_body))
			return exchange_send_too_large(&hr->x, conn, quiesced);
		if (!exchange_declared_too_large(conn, UNVERIFIED_ALLOWANCE))
			return MHD_YES;
		hr->x.verified = headers_verified(hr, conn, method, url);
		return MHD_YES;
	}
	ret = exchange_read(&hr->x, upload_data, upload_data_size, max_body, charge_body, &complete);
	if (!complete)
		return ret;
	guard_phase(conn, GUARD_RUNNING);

	/*
	 * Answers unread by their clients hold the worker's memory: past
	 * hroe.http_max_unsent_mb the oldest are dropped, and this request waits
	 * until their memory is freed
	 */
	if (!quiesced && !guard_unsent_room(&guard))
	{
		if (nwaiting == max_waiting)
		{
			max_waiting = max_waiting ? max_waiting * 2 : 16;
			waiting = waiting ? repalloc(waiting, sizeof(*waiting) * max_waiting) :
				MemoryContextAlloc(TopMemoryContext, sizeof(*waiting) * max_waiting);
		}
		waiting[nwaiting++] = conn;
		MHD_suspend_connection(conn);
		return MHD_YES;
	}

	/* the whole request is here: answer it now */
	old = MemoryContextSwitchTo(request_cxt);
	exchange_request(&hr->x, conn, method, url, &req, &headers, &args);
	response_init(&resp);
	answer(hr, &req, &resp);

	/*
	 * Checked with a secret that is no longer the key's: the call found it
	 * changed, or the signature failed against this worker's cached copy
	 * (another worker may have seen the key created again).  The request is
	 * checked once more against the key of the day.
	 */
	if (hr->stale ||
		(hr->cached && (strcmp(resp.error_type, "InvalidSignatureException") == 0 ||
						strcmp(resp.error_type, "SignatureDoesNotMatch") == 0)))
	{
		hash_search(secret_cache, resp.access_key_id, HASH_REMOVE, NULL);
		hr->stale = hr->cached = false;
		response_free(&resp);
		response_init(&resp);
		answer(hr, &req, &resp);
	}
	exchange_headers_free(&headers, &args);
	MemoryContextSwitchTo(old);
	MemoryContextReset(request_cxt);
	ret = exchange_send_response(&hr->x, conn, &resp, quiesced);
	response_free(&resp);
	return ret;
}

/* MHD's completion callback: the access log line, then free the request. */
static void
completed(void *cls, struct MHD_Connection *conn, void **con_cls,
		  enum MHD_RequestTerminationCode toe)
{
	HttpRequest *hr = *con_cls;
	Exchange   *x;

	if (hr == NULL)
		return;
	x = &hr->x;
	if (http_log_requests)
		ereport(LOG,
				(errmsg("hroe http: %s %s %s %d %s %.3fms %zu %zu %s",
						*x->remote ? x->remote : "-",
						*x->access_key_id ? x->access_key_id : "-",
						*x->operation ? x->operation : "-", x->answered ? x->status : 0,
						!x->answered ? "ClientGone" : *x->error_type ? x->error_type : "-",
						(now_monotonic() - x->start) * 1000.0, x->body.len, x->bytes_out,
						x->request_id),
				 errhidestmt(true)));
	exchange_release(&bodies, x);
	guard_done(conn);
	exchange_free(x);
	OPENSSL_cleanse(hr->secret, sizeof(hr->secret));
	pfree(hr);
	*con_cls = NULL;
}

/*
 * libmicrohttpd's messages (a client gone mid-request, a failed TLS
 * handshake) to the server log, at most MHD_LOG_BURST lines every
 * MHD_LOG_INTERVAL seconds: past them one line counts those left out, so a
 * flood of abandoned connections cannot flood the log.
 */
static double mhd_log_window = 0;
static int	mhd_log_lines = 0;
static unsigned long mhd_log_dropped = 0;

static void
mhd_log_summary(double now)
{
	if (now - mhd_log_window < MHD_LOG_INTERVAL)
		return;
	if (mhd_log_dropped > 0)
		ereport(LOG,
				(errmsg("hroe http: %lu more messages of the HTTP server in the last %.0f seconds were not logged",
						mhd_log_dropped, now - mhd_log_window)));
	mhd_log_window = now;
	mhd_log_lines = 0;
	mhd_log_dropped = 0;
}

static void
mhd_log(void *cls, const char *fmt, va_list ap)
{
	char		msg[1024];

	mhd_log_summary(now_monotonic());
	if (mhd_log_lines >= MHD_LOG_BURST)
	{
		mhd_log_dropped++;
		return;
	}
	mhd_log_lines++;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	ereport(LOG, (errmsg("hroe http: %s", msg)));
}

/*
 * MHD_OPTION_NOTIFY_CONNECTION: the guard's list, and each client socket
 * counted by fd.c (ReserveExternalFD), which then keeps that many fewer
 * files of its own open.
 */
static void
notify_connection(void *cls, struct MHD_Connection *conn, void **socket_context,
				  enum MHD_ConnectionNotificationCode code)
{
	if (code == MHD_CONNECTION_NOTIFY_STARTED)
		ReserveExternalFD();
	else
		ReleaseExternalFD();
	guard_notify(cls, conn, socket_context, code);
}

/* The guard's limits from the settings (at start, after a reload). */
static void
set_guard_limits(void)
{
	guard_limits.header_timeout = http_header_timeout;
	guard_limits.body_timeout = http_body_timeout;
	guard_limits.send_timeout = http_send_timeout;
	guard_limits.max_unsent = (size_t) http_max_unsent_mb * 1024 * 1024;
}

/*
 * A TCP socket bound to hroe.http_listen:hroe.http_port, SO_REUSEPORT if
 * shared (each worker has one: the kernel spreads connections over them);
 * -1 with *why set if the address is invalid or the bind fails.  *addr
 * gets the address (for the loopback check), freed by the caller.
 */
static int
bind_port(bool shared, struct addrinfo **addr, const char **why)
{
	struct addrinfo hints = {0};
	char		port[16];
	int			fd,
				on = 1,
				rc;

	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(port, sizeof(port), "%d", http_port);
	rc = getaddrinfo(http_listen, port, &hints, addr);
	if (rc != 0)
	{
		*addr = NULL;
		*why = gai_strerror(rc);
		return -1;
	}
	fd = socket((*addr)->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
	{
		*why = strerror(errno);
		return -1;
	}
	(void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	if (shared)
		(void) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
	if ((*addr)->ai_family == AF_INET6)
		(void) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
	if (bind(fd, (*addr)->ai_addr, (*addr)->ai_addrlen) != 0)
	{
		*why = strerror(errno);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * At server start: is the port free?  Bound once without SO_REUSEPORT, so
 * that another server's workers on it (whose sockets have the option, and
 * would otherwise share the port with ours, each answering a share of the
 * connections from its own database) make it fail.
 */
static bool
port_is_free(void)
{
	struct addrinfo *addr;
	const char *why = NULL;
	int			fd = bind_port(false, &addr, &why);

	if (addr)
		freeaddrinfo(addr);
	if (fd < 0)
	{
		ereport(LOG,
				(errmsg("hroe http: not starting the HTTP workers: could not bind %s port %d: %s",
						http_listen, http_port, why),
				 errhint("Another server may be using the port: choose another hroe.http_port, or a numeric hroe.http_listen.")));
		return false;
	}
	close(fd);
	return true;
}

/* The worker's listening socket. */
static int
open_listener(bool tls, bool *ipv6)
{
	struct addrinfo *addr;
	const char *why = NULL;
	int			fd = bind_port(true, &addr, &why);

	if (fd < 0)
		ereport(FATAL,
				(errcode_for_socket_access(),
				 errmsg("hroe http: could not listen on %s port %d: %s", http_listen, http_port, why)));
	if (!tls && !http_allow_plain_http && !is_loopback(addr->ai_addr))
		ereport(FATAL,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hroe http: refusing plain HTTP on %s, which is not a loopback address", http_listen),
				 errhint("Set hroe.http_tls_cert and hroe.http_tls_key, or hroe.http_allow_plain_http.")));
	*ipv6 = addr->ai_family == AF_INET6;
	freeaddrinfo(addr);
	if (listen(fd, 1024) != 0)
		ereport(FATAL,
				(errcode_for_socket_access(),
				 errmsg("hroe http: could not listen on %s port %d: %m", http_listen, http_port)));
	return fd;
}

/* The key cache, empty. */
static void
secret_cache_init(void)
{
	HASHCTL		ctl;

	ctl.keysize = ACCESS_KEY_ID_MAX + 1;
	ctl.entrysize = sizeof(SecretEntry);
	secret_cache = hash_create("hroe http secrets", 64, &ctl, HASH_ELEM | HASH_STRINGS);
}

/* The whole of a TLS file (PEM), NUL-terminated, in TopMemoryContext. */
static char *
read_pem(const char *path, const char *what)
{
	FILE	   *f = AllocateFile(path, "rb");
	StringInfoData buf;
	char		chunk[4096];
	size_t		n;

	if (f == NULL)
		ereport(FATAL,
				(errcode_for_file_access(),
				 errmsg("hroe http: could not read the TLS %s \"%s\": %m", what, path)));
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		appendBinaryStringInfo(&buf, chunk, (int) n);
	FreeFile(f);
	return buf.data;
}

/* A failed allocation in the protocol's code: end this worker, not the server. */
static void
protocol_out_of_memory(void)
{
	ereport(FATAL, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
}

/* A worker's life. */
void
hroe_http_worker_main(Datum arg)
{
	struct MHD_Daemon *daemon;
	const union MHD_DaemonInfo *info;
	WaitEventSet *wes;
	int			listen_fd;
	double		stop_at = 0;
	TimestampTz stats_due = 0;		/* when unsent statistics are forced out */
	bool		tls = http_tls_cert && *http_tls_cert;
	bool		ipv6 = false;
	unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
	char	   *cert = NULL;
	char	   *key = NULL;
	int			max_conns;

	pqsignal(SIGTERM, handle_sigterm);
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
	BackgroundWorkerUnblockSignals();
	if (http_role == NULL || *http_role == '\0')
		ereport(FATAL,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hroe.http_role is not set"),
				 errhint("Set it to the login role the HTTP workers connect as.")));
	if (tls && (http_tls_key == NULL || *http_tls_key == '\0'))
		ereport(FATAL,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hroe.http_tls_cert is set but hroe.http_tls_key is not")));
	xmalloc_failed = protocol_out_of_memory;
	BackgroundWorkerInitializeConnection(http_database, http_role, 0);
	pgstat_report_appname("hroe http");
	secret_cache_init();
	request_cxt = AllocSetContextCreate(TopMemoryContext, "hroe http request",
										ALLOCSET_DEFAULT_SIZES);
	if (tls)
	{
		cert = read_pem(http_tls_cert, "certificate");
		key = read_pem(http_tls_key, "key");
		flags |= MHD_USE_TLS;
	}
	/* large buffers from mmap, given back when freed (see gateway/main.c) */
	(void) mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	listen_fd = open_listener(tls, &ipv6);

	/*
	 * Client sockets are descriptors fd.c does not open: each is reserved
	 * from its budget (max_safe_fds, from the open-file limit and
	 * max_files_per_process), which keeps some for the files a request opens
	 */
	ReserveExternalFD();		/* the listening socket */
	ReserveExternalFD();		/* libmicrohttpd's epoll set */
	max_conns = Min(http_max_connections, Max(16, max_safe_fds - 64));
	set_guard_limits();
	guard_init(&guard, &guard_limits, max_conns);
	if (ipv6)
		flags |= MHD_USE_IPv6;
	daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle, NULL,
							  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
							  MHD_OPTION_LISTEN_SOCKET, listen_fd,
							  MHD_OPTION_CONNECTION_LIMIT, (unsigned int) max_conns,
							  MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int) http_max_per_address,
							  MHD_OPTION_NOTIFY_CONNECTION, notify_connection, &guard,
							  MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) http_idle_timeout,
							  MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
							  tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert,
							  MHD_OPTION_HTTPS_MEM_KEY, key,
							  MHD_OPTION_END);
	if (daemon == NULL)
		ereport(FATAL,
				(errmsg("hroe http: could not start the HTTP server on %s port %d",
						http_listen, http_port),
				 tls ? errhint("Check hroe.http_tls_cert and hroe.http_tls_key.") : 0));
	if (key)
	{
		/* libmicrohttpd keeps its own copy */
		explicit_bzero(key, strlen(key));
		pfree(key);
	}
	info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
	wes = CreateWaitEventSet(TopMemoryContext, 3);
	AddWaitEventToSet(wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	AddWaitEventToSet(wes, WL_SOCKET_READABLE, info->epoll_fd, NULL, NULL);
	ereport(LOG, (errmsg("hroe http worker listening on %s port %d (%s)",
						 http_listen, http_port, tls ? "HTTPS" : "HTTP")));

	for (;;)
	{
		MHD_UNSIGNED_LONG_LONG mhd_ms;
		long		timeout = MAX_WAIT_MS;
		WaitEvent	events[3];
		int			before;

		/*
		 * Never an endless wait: libmicrohttpd takes its listening socket
		 * back into its epoll set (after the connection limit, or a
		 * descriptor shortage) only in MHD_run, and no event may come to
		 * call it; the guard's deadlines need sweeps too
		 */
		if (MHD_get_timeout(daemon, &mhd_ms) == MHD_YES && mhd_ms < (MHD_UNSIGNED_LONG_LONG) timeout)
			timeout = (long) mhd_ms;
		if (guard_timeout_ms(&guard) >= 0 && guard_timeout_ms(&guard) < timeout)
			timeout = guard_timeout_ms(&guard);
		if (terminate_requested)
			timeout = timeout < 0 || timeout > 50 ? 50 : timeout;

		/*
		 * the requests' table and function statistics to the cumulative
		 * statistics system (autovacuum sees the writes made through the
		 * workers), as PostgreSQL's main loop sends a backend's: at most
		 * once a second while requests come, and what is left forced out
		 * when the worker has been idle a second (its idle-stats timeout,
		 * shortened: an unforced report while idle never flushes, its clock
		 * being the last transaction's end)
		 */
		{
			TimestampTz now = GetCurrentTimestamp();
			long		stats_ms;

			if (stats_due != 0 && now >= stats_due)
			{
				(void) pgstat_report_stat(true);
				stats_due = 0;
			}
			stats_ms = pgstat_report_stat(false);
			if (stats_ms == 0)
				stats_due = 0;	/* all sent */
			else if (stats_due == 0)
				stats_due = TimestampTzPlusMilliseconds(now, Min(stats_ms, 1000));
			if (stats_due != 0)
			{
				long		due_ms = (long) ((stats_due - now) / 1000) + 1;

				if (timeout < 0 || due_ms < timeout)
					timeout = due_ms;
			}
		}
		(void) WaitEventSetWait(wes, timeout, events, 3, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);

		/*
		 * A barrier (DROP DATABASE, ALTER DATABASE SET TABLESPACE, ...) waits
		 * for every process: absorbed here as CHECK_FOR_INTERRUPTS would (a
		 * request's queries absorb it too, an idle worker only here)
		 */
		if (ProcSignalBarrierPending)
			ProcessProcSignalBarrier();
		if (ConfigReloadPending)
		{
			ConfigReloadPending = false;
			ProcessConfigFile(PGC_SIGHUP);
			set_guard_limits();
		}
		if (terminate_requested && !quiesced)
		{
			/*
			 * No new connections (the kernel refuses them once the socket is
			 * closed); a request arriving on an open one within a second is
			 * answered with "Connection: close"
			 */
			(void) MHD_quiesce_daemon(daemon);
			close(listen_fd);
			quiesced = true;
			stop_at = now_monotonic() + 1.0;
		}
		before = guard.count;
		MHD_run(daemon);

		/*
		 * a connection closed: libmicrohttpd re-arms its listening socket (if
		 * it had let go of it at the limit) only in its next round
		 */
		if (guard.count < before)
			MHD_run(daemon);
		guard_sweep(&guard, now_monotonic());
		if (nwaiting > 0)
		{
			/* the dropped answers' memory is freed: the waiting requests run */
			int			n = nwaiting;

			nwaiting = 0;
			for (int i = 0; i < n; i++)
				MHD_resume_connection(waiting[i]);
			MHD_run(daemon);
		}
		mhd_log_summary(now_monotonic());

		/*
		 * libmicrohttpd takes a few rounds to go from an answer sent to the
		 * connection's next request, asking for a timeout of 0 meanwhile
		 */
		for (int round = 0; round < 3; round++)
		{
			if (MHD_get_timeout(daemon, &mhd_ms) != MHD_YES || mhd_ms != 0)
				break;
			MHD_run(daemon);
		}
		if (quiesced && now_monotonic() >= stop_at)
			break;
	}
	/* libmicrohttpd must not be stopped with a connection suspended */
	for (int i = 0; i < nwaiting; i++)
		MHD_resume_connection(waiting[i]);
	nwaiting = 0;
	MHD_stop_daemon(daemon);
	proc_exit(0);
}
