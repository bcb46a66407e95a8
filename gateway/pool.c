/*-------------------------------------------------------------------------
 *
 * pool.c
 *	  A bounded pool of libpq connections with a bounded wait queue.
 *
 * pool_size connections are opened on demand and kept.  A request takes one
 * for the duration of one statement; when all are busy it waits, at most
 * queue_timeout_ms and only if fewer than queue_size requests already wait,
 * else it is throttled at once: the gateway never queues without bound and
 * never hangs a client.
 *
 * Exactly-once: a statement is sent again only when it certainly never
 * reached PostgreSQL.  Before a statement is sent, an idle connection is
 * checked for input: a server that restarted or terminated the backend has
 * sent an error and closed it, and the pool reconnects; and when libpq cannot send the statement at all
 * it is retried once on a new connection (a backend that got part of a
 * message, or Execute without Sync, commits nothing).  Once sent, a broken
 * connection makes the outcome unknown: the caller answers 500, as DynamoDB
 * answers an InternalServerError whose outcome is unknown, and the SDK's
 * retry meets the request's own conditions.
 *
 * Each connection runs with the login role's settings plus statement_timeout;
 * role switches are local to each call's transaction (hroe.gateway_call), so
 * a connection goes back to the pool as it came.
 *
 * gateway/pool.c
 *
 *-------------------------------------------------------------------------
 */
#include "pool.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "util.h"

struct PoolConn
{
	PGconn	   *conn;
	int			index;
};

static const char *const statement_sql[STMT_COUNT] = {
	"SELECT secret FROM hroe.access_keys WHERE access_key_id = $1 AND revoked_at IS NULL",
	/* text in, text out: the body reaches the engine as sent (\u0000 too) */
	"SELECT hroe.gateway_call($1::pg_catalog.text, $2::pg_catalog.text, $3::pg_catalog.text)",
};
static const char *const statement_name[STMT_COUNT] = {"hroe_secret", "hroe_call"};

static const GatewayConfig *cfg;
static PoolConn *slots;
static int *free_stack;			/* indexes of idle slots */
static int nfree;
static int nwaiting;
static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond;

/* After a failed connection attempt, others fail fast until this time. */
static double down_until;

/* Set up the slots (no connection is opened yet). */
void
pool_init(const GatewayConfig *config)
{
	pthread_condattr_t attr;

	cfg = config;
	slots = xmalloc(sizeof(PoolConn) * (size_t) cfg->pool_size);
	free_stack = xmalloc(sizeof(int) * (size_t) cfg->pool_size);
	for (int i = 0; i < cfg->pool_size; i++)
	{
		slots[i].conn = NULL;
		slots[i].index = i;
		free_stack[i] = i;
	}
	nfree = cfg->pool_size;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&pool_cond, &attr);
	pthread_condattr_destroy(&attr);
}

/* Close every connection (at shutdown, when no request runs). */
void
pool_close_all(void)
{
	for (int i = 0; i < cfg->pool_size; i++)
		if (slots[i].conn)
		{
			PQfinish(slots[i].conn);
			slots[i].conn = NULL;
		}
}

/* A connection, or NULL with *status POOL_BUSY. */
PoolConn *
pool_acquire(PoolStatus *status)
{
	PoolConn   *pc;
	struct timespec deadline;

	pthread_mutex_lock(&pool_mutex);
	if (nfree == 0)
	{
		if (nwaiting >= cfg->queue_size || cfg->queue_timeout_ms == 0)
		{
			pthread_mutex_unlock(&pool_mutex);
			*status = POOL_BUSY;
			return NULL;
		}
		clock_gettime(CLOCK_MONOTONIC, &deadline);
		deadline.tv_sec += cfg->queue_timeout_ms / 1000;
		deadline.tv_nsec += (long) (cfg->queue_timeout_ms % 1000) * 1000000L;
		if (deadline.tv_nsec >= 1000000000L)
		{
			deadline.tv_sec++;
			deadline.tv_nsec -= 1000000000L;
		}
		nwaiting++;
		while (nfree == 0)
		{
			if (pthread_cond_timedwait(&pool_cond, &pool_mutex, &deadline) == ETIMEDOUT &&
				nfree == 0)
			{
				nwaiting--;
				pthread_mutex_unlock(&pool_mutex);
				*status = POOL_BUSY;
				return NULL;
			}
		}
		nwaiting--;
	}
	pc = &slots[free_stack[--nfree]];
	pthread_mutex_unlock(&pool_mutex);
	*status = POOL_OK;
	return pc;
}

/* Give a connection back. */
void
pool_release(PoolConn *pc)
{
	pthread_mutex_lock(&pool_mutex);
	free_stack[nfree++] = pc->index;
	pthread_cond_signal(&pool_cond);
	pthread_mutex_unlock(&pool_mutex);
}

/* Drop the slot's connection. */
static void
disconnect(PoolConn *pc)
{
	if (pc->conn)
		PQfinish(pc->conn);
	pc->conn = NULL;
}

/* Open, configure and prepare the slot's connection; false if impossible. */
static bool
connect_slot(PoolConn *pc)
{
	const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *values[] = {"5", "hroe-gateway", cfg->conninfo, NULL};
	char		sql[128];
	PGresult   *res;

	pthread_mutex_lock(&pool_mutex);
	if (now_monotonic() < down_until)
	{
		pthread_mutex_unlock(&pool_mutex);
		return false;
	}
	pthread_mutex_unlock(&pool_mutex);

	/* the conninfo's own settings win over the defaults before it */
	pc->conn = PQconnectdbParams(keywords, values, 1);
	if (PQstatus(pc->conn) != CONNECTION_OK)
	{
		log_error("could not connect to PostgreSQL: %s", PQerrorMessage(pc->conn));
		goto fail;
	}
	snprintf(sql, sizeof(sql), "SET statement_timeout = %d", cfg->statement_timeout_ms);
	res = PQexec(pc->conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		log_error("could not set statement_timeout: %s", PQerrorMessage(pc->conn));
		PQclear(res);
		goto fail;
	}
	PQclear(res);
	for (int i = 0; i < STMT_COUNT; i++)
	{
		res = PQprepare(pc->conn, statement_name[i], statement_sql[i], 0, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK)
		{
			/* e.g. hroe not installed in that database, or too old */
			log_error("could not prepare \"%s\": %s", statement_sql[i], PQerrorMessage(pc->conn));
			PQclear(res);
			goto fail;
		}
		PQclear(res);
	}
	return true;

fail:
	disconnect(pc);
	/* spare PostgreSQL (and the log) a storm of attempts while it is down */
	pthread_mutex_lock(&pool_mutex);
	down_until = now_monotonic() + 0.5;
	pthread_mutex_unlock(&pool_mutex);
	return false;
}

/*
 * An idle connection with input waiting has been told something, and the
 * gateway never LISTENs nor leaves a command running, so in practice it is
 * being terminated (server shutdown or restart, pg_terminate_backend): its
 * FATAL message may arrive before the close, so libpq may not call it bad
 * yet.  Drop it; a new one costs a connection, a dead one a failed request.
 */
static void
check_idle(PoolConn *pc)
{
	struct pollfd p = {.fd = PQsocket(pc->conn), .events = POLLIN};

	if (PQstatus(pc->conn) != CONNECTION_OK || p.fd < 0 || poll(&p, 1, 0) != 0)
		disconnect(pc);
}

/* Run a prepared statement with text parameters (see pool.h). */
PGresult *
pool_exec(PoolConn *pc, PoolStatement stmt, int nparams, const char *const *values,
		  PoolStatus *status)
{
	PGresult   *res,
			   *last = NULL;

	for (int attempt = 0;; attempt++)
	{
		if (pc->conn)
			check_idle(pc);
		if (pc->conn == NULL && !connect_slot(pc))
		{
			*status = POOL_DOWN;
			return NULL;
		}
		if (PQsendQueryPrepared(pc->conn, statement_name[stmt], nparams, values, NULL, NULL, 0))
			break;
		/* not sent: certainly not run; once more on a new connection */
		log_error("could not send a request to PostgreSQL: %s", PQerrorMessage(pc->conn));
		disconnect(pc);
		if (attempt == 1)
		{
			*status = POOL_DOWN;
			return NULL;
		}
	}
	while ((res = PQgetResult(pc->conn)) != NULL)
	{
		if (last)
			PQclear(last);
		last = res;
	}
	if (PQstatus(pc->conn) != CONNECTION_OK || last == NULL)
	{
		/* sent, then lost: it may have run; never sent again */
		log_error("connection to PostgreSQL lost during a request: %s", PQerrorMessage(pc->conn));
		if (last)
			PQclear(last);
		disconnect(pc);
		*status = POOL_LOST;
		return NULL;
	}
	*status = POOL_OK;
	return last;
}
