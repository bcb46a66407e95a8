/*-------------------------------------------------------------------------
 *
 * backend.c
 *	  The database side of a request: access key secrets (cached) and the
 *	  call of hroe.gateway_call, its result mapped to an HTTP response.
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

#include "json.h"
#include "log.h"
#include "pool.h"
#include "util.h"

#define T_INTERNAL "com.amazonaws.dynamodb.v20120810#InternalServerError"
#define T_THROTTLING "com.amazonaws.dynamodb.v20120810#ThrottlingException"

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
		response_error(resp, 400, T_THROTTLING, "Rate of requests exceeds the allowed throughput.");
	else
		response_error(resp, 500, T_INTERNAL, "Internal server error");
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

/* Backend.lookup_secret: the secret of an active key. */
static LookupResult
lookup_secret(void *arg, const char *akid, char *secret, size_t size, Response *resp)
{
	int			cached = cache_get(akid, secret, size);
	PoolConn   *pc;
	PoolStatus	status;
	PGresult   *res;
	const char *values[1] = {akid};
	LookupResult result;

	if (cached >= 0)
		return cached ? LOOKUP_FOUND : LOOKUP_UNKNOWN;
	pc = pool_acquire(&status);
	if (pc == NULL)
	{
		pool_failure(resp, status);
		return LOOKUP_FAILED;
	}
	res = pool_exec(pc, STMT_SECRET, 1, values, &status);
	pool_release(pc);
	if (res == NULL)
	{
		pool_failure(resp, status);
		return LOOKUP_FAILED;
	}
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		log_error("could not look up access key \"%s\": %s", akid, PQresultErrorMessage(res));
		PQclear(res);
		response_error(resp, 500, T_INTERNAL, "Internal server error");
		return LOOKUP_FAILED;
	}
	if (PQntuples(res) == 1 && strlen(PQgetvalue(res, 0, 0)) < size)
	{
		strcpy(secret, PQgetvalue(res, 0, 0));
		cache_put(akid, secret);
		result = LOOKUP_FOUND;
	}
	else
	{
		cache_put(akid, NULL);
		result = LOOKUP_UNKNOWN;
	}
	/* the result held the secret */
	if (PQntuples(res) == 1)
		OPENSSL_cleanse(PQgetvalue(res, 0, 0), strlen(PQgetvalue(res, 0, 0)));
	PQclear(res);
	return result;
}

/* An error hroe.dynamodb raised (not answered) as DynamoDB's response. */
static void
map_sql_error(PGresult *res, const char *akid, const char *op, Response *resp)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
	const char *message = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	StrBuf		msg;

	if (state == NULL)
		state = "";
	if (message == NULL)
		message = "";
	buf_init(&msg);
	if (strcmp(state, "42501") == 0)
	{
		buf_printf(&msg, "User: %s is not authorized to perform: dynamodb:%s (%s)", akid, op, message);
		response_error(resp, 400, "com.amazon.coral.service#AccessDeniedException", msg.data);
	}
	else if (strcmp(state, "22P05") == 0)
	{
		buf_printf(&msg, "hroe cannot take this request: %s", message);
		response_error(resp, 400, "com.amazon.coral.validate#ValidationException", msg.data);
	}
	else if (strcmp(state, "22P02") == 0 || strcmp(state, "22021") == 0 ||
			 strcmp(state, "54001") == 0)
		response_error(resp, 400, "com.amazon.coral.service#SerializationException", NULL);
	else
	{
		log_error("%s by %s failed: SQLSTATE %s: %s", op, akid, state, message);
		response_error(resp, 500, T_INTERNAL, "Internal server error");
	}
	buf_free(&msg);
}

/* Backend.call: hroe.gateway_call(key, operation, body). */
static void
call(void *arg, const char *akid, const char *op, const char *body, size_t body_len,
	 Response *resp)
{
	PoolConn   *pc;
	PoolStatus	status;
	PGresult   *res;
	const char *values[3] = {akid, op, body};
	char		type[128];

	pc = pool_acquire(&status);
	if (pc == NULL)
	{
		pool_failure(resp, status);
		return;
	}
	res = pool_exec(pc, STMT_CALL, 3, values, &status);
	pool_release(pc);
	if (res == NULL)
	{
		pool_failure(resp, status);
		return;
	}
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
	{
		const char *v = PQgetvalue(res, 0, 0);
		size_t		n = (size_t) PQgetlength(res, 0, 0);

		resp->body.len = 0;
		buf_append(&resp->body, v, n);
		if (json_top_string(v, n, "__type", type, sizeof(type)))
		{
			const char *hash = strchr(type, '#');

			resp->status = strstr(type, "InternalServerError") ? 500 : 400;
			snprintf(resp->error_type, sizeof(resp->error_type), "%s", hash ? hash + 1 : type);
		}
		else
			resp->status = 200;
	}
	else
		map_sql_error(res, akid, op, resp);
	PQclear(res);
}

/* Fill *backend with the database side. */
void
backend_init(const GatewayConfig *config, Backend *backend)
{
	cfg = config;
	pool_init(config);
	backend->lookup_secret = lookup_secret;
	backend->call = call;
	backend->arg = NULL;
}
