/*-------------------------------------------------------------------------
 *
 * replica.c
 *	  Hot standbys for eventually consistent reads: a thread measures how
 *	  far each standby is behind the primary; the event loops send an
 *	  eventually consistent read (route.c) to a fresh standby, in turn, and
 *	  everything else to the primary.
 *
 * The lag rule.  Every replica_check_ms the monitor thread reads the
 * primary's WAL insert position, pg_current_wal_insert_lsn(), noting the
 * time it sent the query: a sample (t, L) says that every transaction
 * acknowledged before t ended at or before L.  It then reads each standby's
 * replay position R, pg_last_wal_replay_lsn().  The latest sample with
 * L <= R says the standby holds everything the primary acknowledged before
 * t, so until t + replica_max_lag the standby is at most replica_max_lag
 * behind: that is its "fresh until" time, which the event loops compare
 * with the clock for each read.  An idle primary does not fool it (L stops
 * moving, so a standby that replayed everything stays fresh, and one that
 * did not stays behind), nor does a standby whose replay is paused (its R
 * stops while L moves on, and its last good sample ages past the bound).
 * Samples with the same L keep only the latest time.  Without a primary
 * answer no sample is taken, so every standby ages out within the bound
 * and the reads go to the primary.  A server that is not in recovery (a
 * promoted standby) or another cluster (its system identifier is not the
 * primary's) is never fresh.
 *
 * A standby that fails a read (pool.c's POOL_DOWN or POOL_LOST, an SQL
 * error such as a conflict with recovery, an InternalServerError) is
 * avoided for a second, and the read is sent again to the primary: reads
 * change nothing, so running one twice is harmless.  Strongly consistent
 * reads, writes, transactions, DDL and Streams never leave the primary, so
 * a strongly consistent read after an acknowledged write always sees it.
 *
 * The monitor's connections are its own (libpq, 2 s connect and statement
 * timeouts), never the pool's.  Its queries wait at most 2 s for their
 * answer on its own clock too: a server that stops answering (stopped,
 * hung) never fires its own statement_timeout, and a monitor waiting on it
 * would take no more samples, so that every standby, the silent one and the
 * healthy ones alike, would age out.
 *
 * gateway/replica.c
 *
 *-------------------------------------------------------------------------
 */
#include "replica.h"

#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <libpq-fe.h>

#include "log.h"
#include "pool.h"
#include "route.h"
#include "util.h"

/* seconds a monitor query waits for its answer before the server counts as down */
#define MONITOR_QUERY_TIMEOUT_S 2.0

/* primary samples kept (distinct positions within the lag bound) */
#define NSAMPLES 8192
/* how long a standby that failed a read is avoided, seconds */
#define AVOID_SECONDS 1.0

typedef struct Sample
{
	double		t;				/* when the query was sent */
	uint64_t	lsn;			/* the primary's insert position then */
} Sample;

typedef struct Standby
{
	/* set by the monitor, read by the event loops (microseconds) */
	_Atomic int64_t fresh_until;
	/* set by the event loops after a failed read */
	_Atomic int64_t avoid_until;
	/* the monitor's own */
	PGconn	   *conn;
	bool		was_fresh;		/* for the log: only changes are told */
} Standby;

static const GatewayConfig *cfg;
static Standby standbys[GATEWAY_MAX_REPLICAS];
static int	nstandbys;
static pthread_t monitor;
static bool monitor_running;
static atomic_bool monitor_stop;

/* the monitor thread's */
static PGconn *primary;
static char primary_sysid[32];
static Sample samples[NSAMPLES];
static int	first_sample,
			nsamples;

static int64_t
to_us(double seconds)
{
	return (int64_t) (seconds * 1e6);
}

/* "X/Y" to a position; false if it is not one */
static bool
parse_lsn(const char *s, uint64_t *lsn)
{
	unsigned int hi,
				lo;
	char		tail;

	if (sscanf(s, "%X/%X%c", &hi, &lo, &tail) != 2)
		return false;
	*lsn = ((uint64_t) hi << 32) | lo;
	return true;
}

/* A monitor connection (NULL if it fails; logged once per outage). */
static PGconn *
monitor_connect(const char *conninfo, const char *what, bool *logged)
{
	const char *keywords[] = {"connect_timeout", "options", "fallback_application_name",
	"dbname", NULL};
	const char *values[] = {"2", "-c statement_timeout=2000", "hroe-gateway-monitor",
	conninfo, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, 1);

	if (PQstatus(conn) != CONNECTION_OK)
	{
		if (!*logged)
			log_error("monitor: could not connect to %s: %s", what, PQerrorMessage(conn));
		*logged = true;
		PQfinish(conn);
		return NULL;
	}
	*logged = false;
	return conn;
}

/*
 * The first value of a one-row query, into out; false on any failure,
 * including no whole answer within MONITOR_QUERY_TIMEOUT_S (the connection
 * is then still busy: the callers drop it).
 */
static bool
query_value(PGconn *conn, const char *sql, int column, char *out, size_t size)
{
	double		deadline = now_monotonic() + MONITOR_QUERY_TIMEOUT_S;
	PGresult   *res = NULL;
	bool		ok;

	if (!PQsendQuery(conn, sql))
		return false;
	for (;;)
	{
		struct pollfd p = {.fd = PQsocket(conn), .events = POLLIN};
		double		left;

		while (!PQisBusy(conn))
		{
			PGresult   *next = PQgetResult(conn);

			if (next == NULL)
				goto done;
			PQclear(res);
			res = next;
		}
		left = deadline - now_monotonic();
		if (left <= 0 || p.fd < 0 || poll(&p, 1, (int) (left * 1000.0) + 1) < 0 ||
			!PQconsumeInput(conn))
		{
			PQclear(res);
			return false;
		}
	}
done:
	ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		PQnfields(res) > column && !PQgetisnull(res, 0, column) &&
		(size_t) PQgetlength(res, 0, column) < size;

	if (ok)
		strcpy(out, PQgetvalue(res, 0, column));
	PQclear(res);
	return ok;
}

/* The cluster's system identifier ("" if it cannot be read). */
static void
system_identifier(PGconn *conn, char *out, size_t size)
{
	if (!query_value(conn, "SELECT system_identifier FROM pg_catalog.pg_control_system()", 0,
					 out, size))
		out[0] = '\0';
}

/* Take a sample of the primary's position (false: none this round). */
static bool
sample_primary(void)
{
	static bool logged;
	char		value[64];
	uint64_t	lsn;
	double		t;

	if (primary == NULL)
	{
		primary = monitor_connect(cfg->conninfo, "the primary", &logged);
		if (primary == NULL)
			return false;
		system_identifier(primary, primary_sysid, sizeof(primary_sysid));
		/* another server (after a failover): its positions start afresh */
		nsamples = 0;
	}
	t = now_monotonic();
	if (!query_value(primary, "SELECT pg_catalog.pg_current_wal_insert_lsn()", 0, value,
					 sizeof(value)) || !parse_lsn(value, &lsn))
	{
		/* down, or in recovery: reconnect next round */
		if (!logged)
			log_error("monitor: could not read the primary's WAL position: %s",
					  PQerrorMessage(primary));
		logged = true;
		PQfinish(primary);
		primary = NULL;
		return false;
	}
	logged = false;
	if (nsamples > 0 && samples[(first_sample + nsamples - 1) % NSAMPLES].lsn >= lsn)
		samples[(first_sample + nsamples - 1) % NSAMPLES].t = t;
	else
	{
		if (nsamples == NSAMPLES)
		{
			first_sample = (first_sample + 1) % NSAMPLES;
			nsamples--;
		}
		samples[(first_sample + nsamples) % NSAMPLES] = (Sample)
		{
			t, lsn
		};
		nsamples++;
	}
	/* samples older than the bound can no longer make a standby fresh */
	while (nsamples > 1 &&
		   samples[(first_sample + 1) % NSAMPLES].t + cfg->replica_max_lag_ms / 1000.0 < t)
	{
		first_sample = (first_sample + 1) % NSAMPLES;
		nsamples--;
	}
	return true;
}

/* Measure standby i: its new "fresh until" time (0: not fresh). */
static int64_t
measure_standby(int i)
{
	static bool logged[GATEWAY_MAX_REPLICAS];
	Standby    *s = &standbys[i];
	char		value[64];
	uint64_t	replay;

	if (s->conn == NULL)
	{
		char		what[64],
					sysid[32];

		snprintf(what, sizeof(what), "replica %d", i + 1);
		s->conn = monitor_connect(cfg->replicas[i], what, &logged[i]);
		if (s->conn == NULL)
			return 0;
		system_identifier(s->conn, sysid, sizeof(sysid));
		if (sysid[0] && primary_sysid[0] && strcmp(sysid, primary_sysid) != 0)
		{
			log_error("monitor: replica %d is not a copy of the primary (system identifier %s, not %s)",
					  i + 1, sysid, primary_sysid);
			PQfinish(s->conn);
			s->conn = NULL;
			return 0;
		}
	}
	/* a promoted standby keeps its last replay position: not in recovery, not fresh */
	if (!query_value(s->conn, "SELECT pg_catalog.pg_last_wal_replay_lsn() WHERE pg_catalog.pg_is_in_recovery()",
					 0, value, sizeof(value)) || !parse_lsn(value, &replay))
	{
		/* down, or not in recovery */
		PQfinish(s->conn);
		s->conn = NULL;
		return 0;
	}
	/* the latest sample the standby has replayed */
	for (int k = nsamples - 1; k >= 0; k--)
	{
		const Sample *x = &samples[(first_sample + k) % NSAMPLES];

		if (x->lsn <= replay)
			return to_us(x->t + cfg->replica_max_lag_ms / 1000.0);
	}
	return 0;
}

static void *
monitor_main(void *arg)
{
	(void) arg;
	while (!atomic_load(&monitor_stop))
	{
		double		start = now_monotonic(),
					left;

		/* without a sample this round, the older ones still hold */
		(void) sample_primary();
		for (int i = 0; i < nstandbys; i++)
		{
			Standby    *s = &standbys[i];
			int64_t		until = measure_standby(i);
			bool		fresh = until > to_us(now_monotonic());

			atomic_store(&s->fresh_until, until);
			if (fresh != s->was_fresh)
				log_error("replica %d %s", i + 1, fresh ? "serves eventually consistent reads" :
						  "is skipped (behind the lag bound, down, or not a standby)");
			s->was_fresh = fresh;
		}
		left = cfg->replica_check_ms / 1000.0 - (now_monotonic() - start);
		if (left > 0)
		{
			struct timespec ts = {(time_t) left, (long) ((left - (time_t) left) * 1e9)};

			nanosleep(&ts, NULL);
		}
	}
	for (int i = 0; i < nstandbys; i++)
		if (standbys[i].conn)
			PQfinish(standbys[i].conn);
	if (primary)
		PQfinish(primary);
	return NULL;
}

/* Start the monitor thread (see replica.h). */
void
replica_start(const GatewayConfig *config)
{
	cfg = config;
	nstandbys = config->nreplicas;
	for (int i = 0; i < nstandbys; i++)
	{
		atomic_store(&standbys[i].fresh_until, 0);
		atomic_store(&standbys[i].avoid_until, 0);
	}
	if (nstandbys == 0)
		return;
	if (pthread_create(&monitor, NULL, monitor_main, NULL) != 0)
	{
		log_error("could not start the replica monitor: reads all go to the primary");
		return;
	}
	monitor_running = true;
}

/* Stop the monitor thread. */
void
replica_stop(void)
{
	if (!monitor_running)
		return;
	atomic_store(&monitor_stop, true);
	pthread_join(monitor, NULL);
	monitor_running = false;
}

/* Where to run the operation (see replica.h). */
int
replica_target(const char *operation, const char *body, size_t len)
{
	static __thread unsigned int next;
	int64_t		now;

	if (nstandbys == 0 || !route_eventual_read(operation, body, len))
		return POOL_PRIMARY;
	now = to_us(now_monotonic());
	for (int k = 0; k < nstandbys; k++)
	{
		int			i = (int) ((next + (unsigned int) k) % (unsigned int) nstandbys);

		if (now < atomic_load(&standbys[i].fresh_until) &&
			now >= atomic_load(&standbys[i].avoid_until))
		{
			next = (unsigned int) i + 1;
			return i + 1;
		}
	}
	return POOL_PRIMARY;
}

/* A standby failed a read: skip it for a while (see replica.h). */
void
replica_failed(int target, const char *why)
{
	Standby    *s;

	if (target <= 0 || target > nstandbys)
		return;
	s = &standbys[target - 1];
	if (atomic_exchange(&s->avoid_until, to_us(now_monotonic() + AVOID_SECONDS)) <
		to_us(now_monotonic()))
		log_error("replica %d failed a read (%s): skipped for a second, its reads go to the primary",
				  target, why);
}
