/*-------------------------------------------------------------------------
 *
 * backend.c
 *	  The database side of a request: access key secrets (cached) and the
 *	  call of hroe.gateway_call, its result mapped to an HTTP response.
 *
 * Both statements run asynchronously through the pool (pool.c): a request
 * whose key is not cached, or which reaches the call, queues its statement
 * and is marked pending in its BackendRequest; the HTTP side suspends it
 * and, when the pool's callback resumes it, runs the protocol's checks again
 * (the looked-up secret is then taken from the BackendRequest) or answers
 * the call's result (backend_answer()).  Everything here runs in the event loop
 * thread.
 *
 * Secrets are cached for key_cache_ttl seconds (default 5), unknown keys for
 * at most one second, so a burst of requests costs one lookup.  Revocation
 * is still immediate for calls: hroe.gateway_call looks the key up again in
 * the call's own transaction and refuses a revoked one; the cache only
 * means a revoked key's bad signatures are told InvalidSignature instead of
 * UnrecognizedClient for those few seconds.
 *
 * The body goes as text and the response comes back as text
 * (hroe.dynamodb_text's), so strings may hold \u0000 as DynamoDB's.  Its
 * status is 400 for an error body (__type present), 500 for
 * InternalServerError, else 200.  Errors hroe.dynamodb raises instead of
 * answering map as follows:
 *	42501 (insufficient privilege)	400 AccessDeniedException
 *	22P05 (a Unicode escape the engine refuses)	400 ValidationException
 *	22P02, 22021, 54001 (body that jsonb refuses)	400 SerializationException
 *	anything else, a timeout, a lost connection	500 InternalServerError,
 *									which the SDKs retry
 * A full pool answers ThrottlingException (400), which the SDKs retry with
 * backoff: DynamoDB answers it when requests come faster than it admits
 * them, independently of any table's capacity (so not
 * ProvisionedThroughputExceededException).
 *
 * gateway/backend.c
 *
 *-------------------------------------------------------------------------
 */
#include "backend.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "ddb_types.h"
#include "json.h"
#include "log.h"
#include "pool.h"
#include "replica.h"
#include "s3.h"
#include "util.h"

#define CACHE_BUCKETS 1024
#define CACHE_MAX_ENTRIES 10000

typedef struct CacheEntry
{
	struct CacheEntry *next;
	char	   *access_key_id;
	char	   *secret;			/* NULL: no such active key */
	double		expires;
} CacheEntry;

static const GatewayConfig *cfg;
static CacheEntry *cache[CACHE_BUCKETS];
static int cache_entries;
static pthread_mutex_t cache_mutex = PTHREAD_MUTEX_INITIALIZER;
static void (*resume_request) (void *request);

static unsigned int
hash_key(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h % CACHE_BUCKETS;
}

static void
free_entry(CacheEntry *e)
{
	if (e->secret)
	{
		OPENSSL_cleanse(e->secret, strlen(e->secret));
		free(e->secret);
	}
	free(e->access_key_id);
	free(e);
}

/* The answer for a request the pool could not run. */
static void
pool_failure(Response *resp, PoolStatus status)
{
	if (status == POOL_BUSY)
		response_error(resp, 400, DDB_TYPE_THROTTLING, "Rate of requests exceeds the allowed throughput.");
	else
		response_error(resp, 500, DDB_TYPE_INTERNAL, "Internal server error");
}

/* Cached lookup: 1 found, 0 unknown, -1 not cached. */
static int
cache_get(const char *akid, char *secret, size_t size)
{
	unsigned int h = hash_key(akid);
	double		now = now_monotonic();
	int			result = -1;

	pthread_mutex_lock(&cache_mutex);
	for (CacheEntry **p = &cache[h]; *p;)
	{
		CacheEntry *e = *p;

		if (e->expires <= now)
		{
			*p = e->next;
			free_entry(e);
			cache_entries--;
			continue;
		}
		if (strcmp(e->access_key_id, akid) == 0)
		{
			if (e->secret && strlen(e->secret) < size)
			{
				strcpy(secret, e->secret);
				result = 1;
			}
			else
				result = 0;
			break;
		}
		p = &e->next;
	}
	pthread_mutex_unlock(&cache_mutex);
	return result;
}

/* Forget what the cache knows of a key. */
static void
cache_drop(const char *akid)
{
	unsigned int h = hash_key(akid);

	pthread_mutex_lock(&cache_mutex);
	for (CacheEntry **p = &cache[h]; *p;)
	{
		CacheEntry *e = *p;

		if (strcmp(e->access_key_id, akid) == 0)
		{
			*p = e->next;
			free_entry(e);
			cache_entries--;
			continue;
		}
		p = &e->next;
	}
	pthread_mutex_unlock(&cache_mutex);
}

/* Remember a lookup's answer (secret NULL: unknown key). */
static void
cache_put(const char *akid, const char *secret)
{
	unsigned int h = hash_key(akid);
	CacheEntry *e;
	double		ttl = secret ? cfg->key_cache_ttl : (cfg->key_cache_ttl < 1 ? cfg->key_cache_ttl : 1);

	if (ttl <= 0)
		return;
	e = xmalloc(sizeof(CacheEntry));
	e->access_key_id = xstrdup(akid);
	e->secret = secret ? xstrdup(secret) : NULL;
	e->expires = now_monotonic() + ttl;
	pthread_mutex_lock(&cache_mutex);
	/*
	 * Bounded.  When full, the expired entries go first; a made-up key id
	 * (a negative entry, before any signature is checked) never evicts a
	 * real key's secret: it is simply not cached, so a flood of them cannot
	 * empty the cache of the keys in use
	 */
	if (cache_entries >= CACHE_MAX_ENTRIES)
	{
		double		now = now_monotonic();

		for (int i = 0; i < CACHE_BUCKETS; i++)
			for (CacheEntry **p = &cache[i]; *p;)
			{
				CacheEntry *x = *p;

				if (x->expires <= now)
				{
					*p = x->next;
					free_entry(x);
					cache_entries--;
				}
				else
					p = &x->next;
			}
	}
	if (cache_entries >= CACHE_MAX_ENTRIES && secret == NULL)
	{
		pthread_mutex_unlock(&cache_mutex);
		free_entry(e);
		return;
	}
	if (cache_entries >= CACHE_MAX_ENTRIES)
	{
		for (int i = 0; i < CACHE_BUCKETS; i++)
			while (cache[i])
			{
				CacheEntry *x = cache[i];

				cache[i] = x->next;
				free_entry(x);
			}
		cache_entries = 0;
	}
	e->next = cache[h];
	cache[h] = e;
	cache_entries++;
	pthread_mutex_unlock(&cache_mutex);
}

/* The pool's answer to a key lookup: remember it, resume the request. */
static void
lookup_done(void *arg, PGresult *res, PoolStatus status)
{
	BackendRequest *br = arg;

	br->pending = false;
	br->looked_up = true;
	if (res == NULL)
	{
		br->lookup = LOOKUP_FAILED;
		br->status = status;
	}
	else if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		log_error("could not look up access key \"%s\": %s", br->lookup_key_id,
				  PQresultErrorMessage(res));
		br->lookup = LOOKUP_FAILED;
		br->status = POOL_LOST;
	}
	else if (PQntuples(res) == 1 && strlen(PQgetvalue(res, 0, 0)) < sizeof(br->secret))
	{
		strcpy(br->secret, PQgetvalue(res, 0, 0));
		cache_put(br->lookup_key_id, br->secret);
		br->lookup = LOOKUP_FOUND;
	}
	else
	{
		cache_put(br->lookup_key_id, NULL);
		br->lookup = LOOKUP_UNKNOWN;
	}
	/* the result held the secret */
	if (res && PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		OPENSSL_cleanse(PQgetvalue(res, 0, 0), strlen(PQgetvalue(res, 0, 0)));
	PQclear(res);
	resume_request(br->request);
}

/*
 * The secret of an active key, from this request's own lookup, the cache,
 * or else a lookup queued (LOOKUP_FAILED with br->pending: the request is
 * run again once it is answered).
 */
LookupResult
backend_lookup(BackendRequest *br, const char *akid, char *secret, size_t size, Response *resp)
{
	int			cached;
	PoolStatus	status;

	if (br->looked_up && strcmp(br->lookup_key_id, akid) == 0)
	{
		if (br->lookup == LOOKUP_FAILED)
		{
			pool_failure(resp, br->status);
			return LOOKUP_FAILED;
		}
		if (br->lookup == LOOKUP_FOUND && strlen(br->secret) < size)
		{
			strcpy(secret, br->secret);
			return LOOKUP_FOUND;
		}
		return LOOKUP_UNKNOWN;
	}
	cached = cache_get(akid, secret, size);
	if (cached > 0 && strlen(secret) < sizeof(br->secret))
	{
		/* the call checks that it is still the key's secret */
		strcpy(br->secret, secret);
		return LOOKUP_FOUND;
	}
	if (cached == 0)
		return LOOKUP_UNKNOWN;
	snprintf(br->lookup_key_id, sizeof(br->lookup_key_id), "%s", akid);
	br->values[0] = br->lookup_key_id;
	if (!pool_submit(POOL_PRIMARY, STMT_SECRET, 1, br->values, br->client, lookup_done, br, &status))
	{
		pool_failure(resp, status);
		return LOOKUP_FAILED;
	}
	br->pending = true;
	return LOOKUP_FAILED;
}


/*
 * Could a standby answer this read?  Anything but one value that is not an
 * InternalServerError body, or an error of the request's own (a lost
 * connection, another SQL error such as a conflict with recovery, no row
 * because the key is not there yet) sends the read to the primary; why says
 * why, for the log.
 */
static bool
replica_answered(PGresult *res, PoolStatus status, const char **why)
{
	char		type[128];

	if (res == NULL)
	{
		*why = status == POOL_BUSY ? "busy" : "connection failed";
		return false;
	}
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		/*
		 * The request's own fault (map_sql_error answers it 400) is the
		 * answer the primary would give too: not the standby's failure
		 */
		if (response_request_fault(state))
			return true;
		*why = "error";
		return false;
	}
	if (PQntuples(res) != 1 || PQgetisnull(res, 0, 0))
	{
		*why = "the access key is not there";
		return false;
	}
	if (memmem(PQgetvalue(res, 0, 0), (size_t) PQgetlength(res, 0, 0), "InternalServerError", 19) &&
		json_top_string(PQgetvalue(res, 0, 0), (size_t) PQgetlength(res, 0, 0), "__type", type,
						sizeof(type)) && strstr(type, "InternalServerError"))
	{
		*why = "InternalServerError";
		return false;
	}
	return true;
}

/* Queue the call on br->target, else on the primary; false: status set. */
static bool submit_call(BackendRequest *br, PoolStatus *status);

/*
 * The pool's answer to a call: keep it, resume the request.  A standby that
 * could not answer a read is skipped for a while and the read goes to the
 * primary (it changes nothing: running it twice is harmless).
 */
static void
call_done(void *arg, PGresult *res, PoolStatus status)
{
	BackendRequest *br = arg;
	const char *why;

	if (br->target != POOL_PRIMARY && !replica_answered(res, status, &why))
	{
		if (status != POOL_BUSY)
			replica_failed(br->target, why);
		if (res)
			PQclear(res);
		br->target = POOL_PRIMARY;
		if (submit_call(br, &status))
			return;
		res = NULL;
	}
	br->pending = false;
	br->called = true;
	br->result = res;
	br->status = status;
	resume_request(br->request);
}

static bool
submit_call(BackendRequest *br, PoolStatus *status)
{
	if (br->target != POOL_PRIMARY)
	{
		if (pool_submit(br->target, STMT_CALL, 4, br->values, br->client, call_done, br, status))
			return true;
		if (*status != POOL_BUSY)
			replica_failed(br->target, "connection failed");
		br->target = POOL_PRIMARY;
	}
	return pool_submit(POOL_PRIMARY, STMT_CALL, 4, br->values, br->client, call_done, br, status);
}

/*
 * hroe.gateway_call(key, operation, body), queued on the primary, or on a
 * fresh standby for an eventually consistent read.
 */
void
backend_call(BackendRequest *br, const char *akid, const char *op, const char *body,
			 size_t body_len, Response *resp)
{
	PoolStatus	status;

	snprintf(br->key_id, sizeof(br->key_id), "%s", akid);
	snprintf(br->operation, sizeof(br->operation), "%s", op);
	br->values[0] = br->key_id;
	br->values[1] = br->operation;
	/* the body is the HTTP side's, NUL-terminated, kept until the answer */
	br->values[2] = body;
	/* the secret the signature was checked with (backend_lookup kept it) */
	br->values[3] = br->secret;
	br->target = replica_target(op, body, body_len);
	if (!submit_call(br, &status))
	{
		pool_failure(resp, status);
		return;
	}
	br->pending = true;
}

/* S3's call: the arguments copied (the body as bytea's hex), queued on the primary */
void
backend_call_s3(BackendRequest *br, const char *akid, const char *method, const char *path,
				const char *query, const char *body, size_t len, Response *resp)
{
	PoolStatus	status;
	size_t		m = strlen(method) + 1,
				p = strlen(path) + 1,
				q = strlen(query) + 1;
	char	   *a;

	free(br->s3_args);
	br->s3_args = a = xmalloc(m + p + q + 2 + 2 * len + 1);
	snprintf(br->key_id, sizeof(br->key_id), "%s", akid);
	snprintf(br->operation, sizeof(br->operation), "S3:%s", method);
	br->values[0] = br->key_id;
	memcpy(a, method, m);
	br->values[1] = a;
	a += m;
	memcpy(a, path, p);
	br->values[2] = a;
	a += p;
	memcpy(a, query, q);
	br->values[3] = a;
	a += q;
	br->values[4] = a;
	a[0] = '\\';
	a[1] = 'x';
	hex_lower((const unsigned char *) body, len, a + 2);
	br->values[5] = br->secret;
	br->s3 = true;
	br->target = POOL_PRIMARY;
	if (!pool_submit(POOL_PRIMARY, STMT_S3, 6, br->values, br->client, call_done, br, &status))
	{
		pool_failure(resp, status);
		s3_error(resp, 503, "SlowDown", "Please reduce your request rate.", NULL);
		return;
	}
	br->pending = true;
}

/* An error hroe.dynamodb raised (not answered) as DynamoDB's response. */
static void
map_sql_error(PGresult *res, const char *akid, const char *op, Response *resp)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

	if (!response_sql_error(resp, state, message, akid, op))
		log_error("%s by %s failed: SQLSTATE %s: %s", op, akid, state ? state : "",
				  message ? message : "");
}

/* Did the call run nothing because the key's secret changed? (see backend.h) */
bool
backend_stale_secret(BackendRequest *br)
{
	PGresult   *res = br->result;

	if (br->rechecked || res == NULL || PQresultStatus(res) != PGRES_TUPLES_OK ||
		PQntuples(res) != 0)
		return false;
	PQclear(res);
	br->result = NULL;
	cache_drop(br->key_id);
	br->rechecked = true;
	br->called = false;
	br->looked_up = false;
	OPENSSL_cleanse(br->secret, sizeof(br->secret));
	return true;
}

/* S3's answer (the bytea hroe.s3_gateway_call returned) into resp */
static void
answer_s3(BackendRequest *br, PGresult *res, Response *resp)
{
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
	{
		size_t		n = 0;
		unsigned char *raw = PQunescapeBytea((const unsigned char *) PQgetvalue(res, 0, 0), &n);

		if (raw == NULL || !s3_answer(resp, (const char *) raw, n))
			log_error("%s by %s: hroe.s3_gateway_call answered no S3 answer", br->operation, br->key_id);
		PQfreemem(raw);
	}
	else if (PQresultStatus(res) == PGRES_TUPLES_OK)
		s3_error(resp, 403, "InvalidAccessKeyId",
				 "The AWS Access Key Id you provided does not exist in our records.", NULL);
	else
	{
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

		if (!s3_sql_error(resp, state, message))
			log_error("%s by %s failed: SQLSTATE %s: %s", br->operation, br->key_id,
					  state ? state : "", message ? message : "");
	}
}

/* After the call: resp's status and error type; the result if it is the body. */
PGresult *
backend_answer(BackendRequest *br, Response *resp)
{
	PGresult   *res = br->result;

	br->result = NULL;
	if (res == NULL)
	{
		pool_failure(resp, br->status);
		if (br->s3)
			s3_error(resp, resp->status == 400 ? 503 : 500,
					 resp->status == 400 ? "SlowDown" : "InternalError",
					 resp->status == 400 ? "Please reduce your request rate." :
					 "We encountered an internal error. Please try again.", NULL);
		return NULL;
	}
	if (br->s3)
	{
		answer_s3(br, res, resp);
		PQclear(res);
		return NULL;
	}
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0))
	{
		const char *v = PQgetvalue(res, 0, 0);
		size_t		n = (size_t) PQgetlength(res, 0, 0);

		response_classify(resp, v, n);
		return res;
	}
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 0)
	{
		/* the key changed again between the second lookup and the call */
		response_error(resp, 400, DDB_TYPE_UNRECOGNIZED_CLIENT, DDB_MSG_UNRECOGNIZED_CLIENT);
	}
	else if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		log_error("%s by %s: hroe.gateway_call answered no value", br->operation, br->key_id);
		response_error(resp, 500, DDB_TYPE_INTERNAL, "Internal server error");
	}
	else
		map_sql_error(res, br->key_id, br->operation, resp);
	PQclear(res);
	return NULL;
}

/* br belongs to request, which resume() is given back. */
void
backend_bind(BackendRequest *br, void *request, const char *client)
{
	br->request = request;
	br->client = client;
}

/* Release what br holds. */
void
backend_request_free(BackendRequest *br)
{
	OPENSSL_cleanse(br->secret, sizeof(br->secret));
	if (br->result)
		PQclear(br->result);
	br->result = NULL;
	free(br->s3_args);
	br->s3_args = NULL;
}

/* Set up the key cache (each loop thread sets up its pool: pool_init). */
void
backend_init(const GatewayConfig *config, void (*resume) (void *request))
{
	cfg = config;
	resume_request = resume;
}
