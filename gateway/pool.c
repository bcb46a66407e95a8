/*-------------------------------------------------------------------------
 *
 * pool.c
 *	  A bounded pool of libpq connections with a bounded queue, fair among
 *	  client addresses and FIFO for each, driven
 *	  asynchronously by the gateway's event loop (http.c).
 *
 * Each event loop thread drives a pool of its own per target (the primary,
 * then each --replica standby): its share of pool_size connections to each,
 * opened on demand and kept, and of queue_size if one is set.  A statement takes
 * an idle one, is sent with PQsendQueryPrepared and its result is collected
 * when epoll reports the socket readable (PQconsumeInput, PQisBusy,
 * PQgetResult): a loop thread drives all its connections, and no thread
 * waits for PostgreSQL.  When all are busy the statement waits in a FIFO queue, at
 * most queue_timeout_ms and, if a queue_size is set, only if fewer wait
 * already, else it is throttled at once.  By default there is no queue_size:
 * a burst waits, as DynamoDB throttles no burst for want of servers.  The
 * queue is still bounded: a request waits there only while its HTTP
 * connection is suspended, and libmicrohttpd reads a connection's next
 * request only once its answer is sent, so it holds at most max_connections
 * requests (fewer from one client address: max_per_address), whose bodies
 * stay charged to max_buffered_mb until answered (past it a new body is
 * refused with 503, http.c).  The gateway never queues without bound and
 * never hangs a client.  The queue serves its client addresses in turn, each
 * address's requests first come, first served: a client that sends many
 * requests (or expensive ones) lengthens its own wait, and another address's
 * request waits for at most one request of each address ahead of it, not for
 * all of them (the per-address fairness of doc/gateway.md, "Denial of
 * service").  Queue timeouts expire in arrival order.
 *
 * Connections are opened when the loop starts and, after a failure, when
 * next needed, with the blocking PQconnectdbParams, in the loop: a local
 * connection takes a few milliseconds, during which that loop waits; while
 * PostgreSQL is down attempts are spaced by half a second and fail at once
 * in between.
 * Statements are sent in libpq's blocking mode, so a large body is flushed
 * whole before the loop goes on.
 *
 * Exactly-once: a statement is sent again only when it certainly never
 * reached PostgreSQL.  An idle connection with input is dropped (a server
 * that restarted or terminated the backend has sent an error and closed
 * it), both when epoll reports it and just before a statement is sent; and
 * when libpq cannot send the statement at all it is retried once on a new
 * connection (a backend that got part of a message, or Execute without
 * Sync, commits nothing).  Once sent, a broken connection makes the outcome
 * unknown: POOL_LOST, which the caller answers 500, as DynamoDB answers an
 * InternalServerError whose outcome is unknown.
 *
 * Each connection runs with the login role's settings plus statement_timeout;
 * role switches are local to each call's transaction (hroe.gateway_call), so
 * a connection goes back to the pool as it came.
 *
 * A server that stops answering (a standby or partition server stopped with
 * SIGSTOP, a backend stuck where statement_timeout cannot reach it, a host
 * gone without a reset) would hold its connection and the client's request
 * for ever: statement_timeout is the server's own and fires only in a
 * server that runs.  So while a statement runs, a connection that has
 * received nothing for statement_timeout plus ANSWER_GRACE_S is dropped and
 * its request answered POOL_LOST (for a standby's read: sent again to the
 * primary, backend.c), and the slot reconnects when next needed.
 *
 * gateway/pool.c
 *
 *-------------------------------------------------------------------------
 */
#include "pool.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "log.h"
#include "util.h"

typedef struct PoolClient PoolClient;

typedef struct PoolJob
{
	/* while queued: in arrival order, and in its client's queue */
	struct PoolJob *next,
			   *prev;
	struct PoolJob *client_next;
	PoolClient *client;
	PoolStatement stmt;
	int			nparams;
	const char *values[POOL_MAX_PARAMS];
	PoolCallback callback;
	void	   *arg;
	double		deadline;		/* while queued: when it is throttled; while
								 * running: when its silent server is given
								 * up (0: never) */
} PoolJob;

typedef struct Pool Pool;

/* A client address with requests waiting: its own FIFO queue, its turn */
struct PoolClient
{
	PoolClient *ring_next;		/* the next address to serve (circular) */
	PoolClient *hash_next;
	unsigned int hash;
	char		addr[64];
	PoolJob    *head,
			   *tail;
};

#define CLIENT_BUCKETS 256

struct PoolConn
{
	Pool	   *pool;
	PGconn	   *conn;
	int			index;
	PoolJob    *job;			/* the statement running, or NULL */
	PGresult   *last;			/* its last result so far */
	double		idle_since;		/* when its last statement ended */
};

/*
 * A connection idle for less than this is sent to without check_idle's
 * poll(): under load each statement would pay a system call for it, and a
 * termination within this window is no likelier than during the statement
 * itself, which is answered as lost anyway.
 */
#define CHECK_IDLE_AFTER_S 0.1

/*
 * Seconds past statement_timeout a running statement's server may stay
 * silent before its connection is given up (see the head comment): enough
 * for the server to notice its timeout, roll back and answer.
 */
#define ANSWER_GRACE_S 2.0

static const char *const statement_sql[STMT_COUNT] = {
	"SELECT secret FROM hroe.access_keys WHERE access_key_id = $1 AND revoked_at IS NULL",
	/*
	 * text in, text out: the body reaches the engine as sent (\u0000 too).
	 * The EXISTS is a one-time filter, evaluated before the call: a key
	 * whose secret changed since the gateway cached it (revoked, deleted
	 * and created again) runs nothing, and the gateway checks the request
	 * again against the secret of the day
	 */
	"SELECT hroe.gateway_call($1::pg_catalog.text, $2::pg_catalog.text, $3::pg_catalog.text) "
	"WHERE EXISTS (SELECT FROM hroe.access_keys WHERE access_key_id OPERATOR(pg_catalog.=) $1 "
	"AND secret OPERATOR(pg_catalog.=) $4::pg_catalog.text AND revoked_at IS NULL)",
	/* S3's API (s3.h): the same, the body as bytea */
	"SELECT hroe.s3_gateway_call($1::pg_catalog.text, $2::pg_catalog.text, $3::pg_catalog.text, "
	"$4::pg_catalog.text, $5::pg_catalog.bytea) "
	"WHERE EXISTS (SELECT FROM hroe.access_keys WHERE access_key_id OPERATOR(pg_catalog.=) $1 "
	"AND secret OPERATOR(pg_catalog.=) $6::pg_catalog.text AND revoked_at IS NULL)",
};
static const char *const statement_name[STMT_COUNT] = {"hroe_secret", "hroe_call", "hroe_s3"};

/*
 * Each event loop thread has a pool of its own per target (pool_init in that
 * thread): its share of the connections and of the queue, its epoll set.
 * Target 0 is the primary (conninfo), 1..nreplicas the hot standbys
 * (replica.c decides which requests go there).
 */
struct Pool
{
	const char *conninfo;
	int			size;
	int			queue_size;		/* -1: no limit of its own */
	PoolConn   *slots;
	int		   *free_stack;		/* indexes of idle slots */
	int			nfree;
	PoolJob    *queue_head,		/* every queued job, in arrival order */
			   *queue_tail;
	int			nwaiting;
	/* the addresses with jobs waiting: served in turn from turn on */
	PoolClient *turn,
			   *turn_prev;		/* the one before turn in the ring */
	PoolClient *clients[CLIENT_BUCKETS];
	/* after a failed connection attempt, others fail fast until this time */
	double		down_until;
};

static const GatewayConfig *cfg;
static __thread int epfd = -1;
static __thread Pool *pools;
static __thread int npools;

static bool connect_slot(PoolConn *pc);
static void dispatch(Pool *p);

/* Set up this thread's slots for every target. */
void
pool_init(const GatewayConfig *config, int epoll_fd, int connections, int queue)
{
	cfg = config;
	epfd = epoll_fd;
	npools = 1 + config->nreplicas;
	pools = xmalloc(sizeof(Pool) * (size_t) npools);
	memset(pools, 0, sizeof(Pool) * (size_t) npools);
	for (int t = 0; t < npools; t++)
	{
		Pool	   *p = &pools[t];

		p->conninfo = t == 0 ? config->conninfo : config->replicas[t - 1];
		p->size = connections;
		p->queue_size = queue;
		p->slots = xmalloc(sizeof(PoolConn) * (size_t) p->size);
		p->free_stack = xmalloc(sizeof(int) * (size_t) p->size);
		for (int i = 0; i < p->size; i++)
		{
			p->slots[i].pool = p;
			p->slots[i].conn = NULL;
			p->slots[i].index = i;
			p->slots[i].job = NULL;
			p->slots[i].last = NULL;
			p->slots[i].idle_since = 0;
			p->free_stack[i] = i;
		}
		p->nfree = p->size;

		/*
		 * Open them now, so that a loop does not stall on connecting while
		 * it serves (a connection that fails now is opened when first
		 * needed)
		 */
		for (int i = 0; i < p->size && now_monotonic() >= p->down_until; i++)
			(void) connect_slot(&p->slots[i]);
	}
}

/* Number of targets: the primary and the standbys. */
int
pool_targets(void)
{
	return npools;
}

/* Drop the slot's connection. */
static void
disconnect(PoolConn *pc)
{
	if (pc->conn)
	{
		if (PQsocket(pc->conn) >= 0)
			(void) epoll_ctl(epfd, EPOLL_CTL_DEL, PQsocket(pc->conn), NULL);
		PQfinish(pc->conn);
	}
	pc->conn = NULL;
}

/* Open, configure and prepare the slot's connection; false if impossible. */
static bool
connect_slot(PoolConn *pc)
{
	const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *values[] = {"5", "hroe-gateway", pc->pool->conninfo, NULL};
	char		sql[128];
	PGresult   *res;
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = pc};

	if (now_monotonic() < pc->pool->down_until)
		return false;

	/* the conninfo's own settings win over the defaults before it */
	pc->conn = PQconnectdbParams(keywords, values, 1);
	if (PQstatus(pc->conn) != CONNECTION_OK)
	{
		log_error("could not connect to PostgreSQL%s: %s",
				  pc->pool == pools ? "" : " (a replica)", PQerrorMessage(pc->conn));
		PQfinish(pc->conn);
		pc->conn = NULL;
		goto fail;
	}
	snprintf(sql, sizeof(sql), "SET statement_timeout = %d", cfg->statement_timeout_ms);
	res = PQexec(pc->conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		log_error("could not set statement_timeout: %s", PQerrorMessage(pc->conn));
		PQclear(res);
		PQfinish(pc->conn);
		pc->conn = NULL;
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
			PQfinish(pc->conn);
			pc->conn = NULL;
			goto fail;
		}
		PQclear(res);
	}
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, PQsocket(pc->conn), &ev) != 0)
	{
		log_error("could not watch a PostgreSQL connection: %m");
		PQfinish(pc->conn);
		pc->conn = NULL;
		goto fail;
	}
	return true;

fail:
	/* spare PostgreSQL (and the log) a storm of attempts while it is down */
	pc->pool->down_until = now_monotonic() + 0.5;
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

/* When a running statement's server, silent from now on, is given up (0: never) */
static double
answer_deadline(void)
{
	if (cfg->statement_timeout_ms <= 0)
		return 0;
	return now_monotonic() + cfg->statement_timeout_ms / 1000.0 + ANSWER_GRACE_S;
}

/* Send the job's statement on pc; false (status set) if it could not be. */
static bool
send_job(PoolConn *pc, PoolJob *job, PoolStatus *status)
{
	for (int attempt = 0;; attempt++)
	{
		if (pc->conn && now_monotonic() - pc->idle_since >= CHECK_IDLE_AFTER_S)
			check_idle(pc);
		if (pc->conn == NULL && !connect_slot(pc))
		{
			*status = POOL_DOWN;
			return false;
		}
		if (PQsendQueryPrepared(pc->conn, statement_name[job->stmt], job->nparams,
								job->values, NULL, NULL, 0))
		{
			pc->job = job;
			pc->last = NULL;
			job->deadline = answer_deadline();
			return true;
		}
		/* not sent: certainly not run; once more on a new connection */
		log_error("could not send a request to PostgreSQL: %s", PQerrorMessage(pc->conn));
		disconnect(pc);
		if (attempt == 1)
		{
			*status = POOL_DOWN;
			return false;
		}
	}
}

/* FNV-1a of a client address */
static unsigned int
hash_addr(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h;
}

/* Queue job for client address addr: its address's queue, the arrival order */
static void
enqueue(Pool *p, PoolJob *job, const char *addr)
{
	unsigned int h = hash_addr(addr);
	PoolClient *c;

	for (c = p->clients[h % CLIENT_BUCKETS]; c; c = c->hash_next)
		if (c->hash == h && strcmp(c->addr, addr) == 0)
			break;
	if (c == NULL)
	{
		c = xmalloc(sizeof(PoolClient));
		memset(c, 0, sizeof(*c));
		c->hash = h;
		snprintf(c->addr, sizeof(c->addr), "%s", addr);
		c->hash_next = p->clients[h % CLIENT_BUCKETS];
		p->clients[h % CLIENT_BUCKETS] = c;
		/* its first turn: after the addresses waiting already */
		if (p->turn == NULL)
		{
			c->ring_next = c;
			p->turn = p->turn_prev = c;
		}
		else
		{
			c->ring_next = p->turn;
			p->turn_prev->ring_next = c;
			p->turn_prev = c;
		}
	}
	job->client = c;
	job->client_next = NULL;
	if (c->tail)
		c->tail->client_next = job;
	else
		c->head = job;
	c->tail = job;
	job->next = NULL;
	job->prev = p->queue_tail;
	if (p->queue_tail)
		p->queue_tail->next = job;
	else
		p->queue_head = job;
	p->queue_tail = job;
	p->nwaiting++;
}

/* Forget client c, whose queue is empty: out of the ring and the hash */
static void
drop_client(Pool *p, PoolClient *c, PoolClient *prev)
{
	PoolClient **hp;

	if (c->ring_next == c)
		p->turn = p->turn_prev = NULL;
	else
	{
		prev->ring_next = c->ring_next;
		if (p->turn == c)
			p->turn = c->ring_next;
		if (p->turn_prev == c)
			p->turn_prev = prev;
	}
	for (hp = &p->clients[c->hash % CLIENT_BUCKETS]; *hp != c; hp = &(*hp)->hash_next)
		;
	*hp = c->hash_next;
	free(c);
}

/*
 * Take job, the head of its client's queue, out of the queue.  turn: it is
 * taken for the client whose turn it is (the turn moves on), else for its
 * deadline.
 */
static void
dequeue(Pool *p, PoolJob *job, bool turn)
{
	PoolClient *c = job->client;

	c->head = job->client_next;
	if (c->head == NULL)
		c->tail = NULL;
	if (job->prev)
		job->prev->next = job->next;
	else
		p->queue_head = job->next;
	if (job->next)
		job->next->prev = job->prev;
	else
		p->queue_tail = job->prev;
	job->next = job->prev = job->client_next = NULL;
	job->client = NULL;
	p->nwaiting--;
	if (c->head == NULL)
	{
		PoolClient *prev = p->turn_prev;

		/* (a deadline's client: its predecessor in the ring, looked for) */
		if (c != p->turn)
			for (prev = p->turn; prev->ring_next != c; prev = prev->ring_next)
				;
		drop_client(p, c, prev);
	}
	else if (turn && c == p->turn)
	{
		p->turn_prev = c;
		p->turn = c->ring_next;
	}
}

/*
 * Give queued jobs the idle connections, each client address in turn, each
 * address's first come first served.  A job that cannot be sent (PostgreSQL
 * down) is answered at once.
 */
static void
dispatch(Pool *p)
{
	while (p->nfree > 0 && p->turn)
	{
		PoolJob    *job = p->turn->head;
		PoolConn   *pc = &p->slots[p->free_stack[p->nfree - 1]];
		PoolStatus	status;

		dequeue(p, job, true);
		if (send_job(pc, job, &status))
			p->nfree--;
		else
		{
			job->callback(job->arg, NULL, status);
			free(job);
		}
	}
}

/* Run a prepared statement (see pool.h). */
bool
pool_submit(int target, PoolStatement stmt, int nparams, const char *const *values,
			const char *client, PoolCallback callback, void *arg, PoolStatus *status)
{
	Pool	   *p = &pools[target];
	PoolJob    *job;

	if (p->nfree == 0 &&
		((p->queue_size >= 0 && p->nwaiting >= p->queue_size) || cfg->queue_timeout_ms == 0))
	{
		*status = POOL_BUSY;
		return false;
	}
	job = xmalloc(sizeof(PoolJob));
	memset(job, 0, sizeof(*job));
	job->stmt = stmt;
	job->nparams = nparams;
	for (int i = 0; i < nparams && i < POOL_MAX_PARAMS; i++)
		job->values[i] = values[i];
	job->callback = callback;
	job->arg = arg;
	if (p->nfree > 0)
	{
		PoolConn   *pc = &p->slots[p->free_stack[p->nfree - 1]];

		if (!send_job(pc, job, status))
		{
			free(job);
			return false;
		}
		p->nfree--;
		return true;
	}
	job->deadline = now_monotonic() + cfg->queue_timeout_ms / 1000.0;
	enqueue(p, job, client ? client : "");
	return true;
}

/* The running statement of pc is over: answer it, free the connection. */
static void
finish(PoolConn *pc, PGresult *res, PoolStatus status)
{
	PoolJob    *job = pc->job;

	pc->job = NULL;
	pc->last = NULL;
	pc->idle_since = now_monotonic();
	pc->pool->free_stack[pc->pool->nfree++] = pc->index;
	job->callback(job->arg, res, status);
	free(job);
}

/* epoll reported events on a connection's socket. */
void
pool_event(PoolConn *pc, uint32_t events)
{
	PGresult   *res;

	if (pc->conn == NULL)
		return;
	if (pc->job == NULL)
	{
		/* idle with input: being terminated (see check_idle) */
		disconnect(pc);
		return;
	}
	if (!PQconsumeInput(pc->conn))
		goto lost;
	/* the server is alive: its silence is counted from now */
	pc->job->deadline = answer_deadline();
	while (!PQisBusy(pc->conn))
	{
		res = PQgetResult(pc->conn);
		if (res == NULL)
		{
			/* the statement is over */
			if (PQstatus(pc->conn) != CONNECTION_OK || pc->last == NULL)
				goto lost;
			res = pc->last;
			finish(pc, res, POOL_OK);
			dispatch(pc->pool);
			return;
		}
		if (pc->last)
			PQclear(pc->last);
		pc->last = res;
	}
	if (PQstatus(pc->conn) == CONNECTION_OK)
		return;

lost:
	/* sent, then lost: it may have run; never sent again */
	log_error("connection to PostgreSQL lost during a request: %s", PQerrorMessage(pc->conn));
	if (pc->last)
		PQclear(pc->last);
	pc->last = NULL;
	disconnect(pc);
	finish(pc, NULL, POOL_LOST);
	dispatch(pc->pool);
}

/*
 * Milliseconds until the first deadline: a queued request's, or a running
 * statement's whose server has been silent (-1: none).
 */
int
pool_timeout_ms(void)
{
	double		first = -1;

	for (int t = 0; t < npools; t++)
	{
		if (pools[t].queue_head && (first < 0 || pools[t].queue_head->deadline < first))
			first = pools[t].queue_head->deadline;
		for (int i = 0; i < pools[t].size; i++)
		{
			PoolJob    *job = pools[t].slots[i].job;

			if (job && job->deadline > 0 && (first < 0 || job->deadline < first))
				first = job->deadline;
		}
	}
	if (first < 0)
		return -1;
	first -= now_monotonic();
	return first <= 0 ? 0 : (int) (first * 1000.0) + 1;
}

/*
 * Throttle the queued requests past their deadline (each queue is FIFO), and
 * give up the running statements whose server has been silent past theirs.
 */
void
pool_expire(void)
{
	double		now = now_monotonic();

	for (int t = 0; t < npools; t++)
	{
		Pool	   *p = &pools[t];
		bool		freed = false;

		for (int i = 0; i < p->size; i++)
		{
			PoolConn   *pc = &p->slots[i];

			if (pc->job == NULL || pc->job->deadline <= 0 || pc->job->deadline > now)
				continue;
			/* sent, and the server went silent: it may have run; never sent again */
			log_error("PostgreSQL%s sent nothing for %.0f s while a request ran (statement_timeout %d ms): its connection is dropped",
					  t == POOL_PRIMARY ? "" : " (a replica)",
					  cfg->statement_timeout_ms / 1000.0 + ANSWER_GRACE_S, cfg->statement_timeout_ms);
			if (pc->last)
				PQclear(pc->last);
			pc->last = NULL;
			disconnect(pc);
			finish(pc, NULL, POOL_LOST);
			freed = true;
		}
		if (freed)
			dispatch(p);
		/* (the oldest job is also the head of its client's queue) */
		while (p->queue_head && p->queue_head->deadline <= now)
		{
			PoolJob    *job = p->queue_head;

			dequeue(p, job, false);
			job->callback(job->arg, NULL, POOL_BUSY);
			free(job);
		}
	}
}

/* At shutdown: answer what waits or runs, close every connection. */
void
pool_close_all(void)
{
	if (pools == NULL)
		return;
	/*
	 * Standbys first: a read that fails there may be sent to the primary,
	 * whose queue and connections are answered last
	 */
	for (int t = npools - 1; t >= 0; t--)
	{
		Pool	   *p = &pools[t];

		while (p->queue_head)
		{
			PoolJob    *job = p->queue_head;

			dequeue(p, job, false);
			job->callback(job->arg, NULL, POOL_BUSY);
			free(job);
		}
		for (int i = 0; i < p->size; i++)
		{
			PoolConn   *pc = &p->slots[i];

			if (pc->job)
			{
				if (pc->last)
					PQclear(pc->last);
				pc->last = NULL;
				disconnect(pc);
				finish(pc, NULL, POOL_LOST);
			}
			disconnect(pc);
		}
	}
	for (int t = 0; t < npools; t++)
	{
		free(pools[t].slots);
		free(pools[t].free_stack);
	}
	free(pools);
	pools = NULL;
	npools = 0;
}
