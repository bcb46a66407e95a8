/*-------------------------------------------------------------------------
 *
 * main.c
 *	  hroe-gateway: DynamoDB's HTTP API (JSON 1.0 protocol, SigV4) in front
 *	  of hroe's hroe.dynamodb, through a pool of libpq connections.
 *
 * Startup: settings, access log, pool, listener, the replicas' monitor
 * (replica.c).  Then the main thread only
 * waits for signals (blocked in every thread, taken with sigwait, so no
 * handler runs inside a request): SIGHUP reopens the access log (for
 * logrotate); SIGTERM or SIGINT shuts down gracefully: it stops
 * accepting connections, lets running requests finish (at most
 * shutdown_timeout seconds), closes the connections and exits 0.
 *
 * gateway/main.c
 *
 *-------------------------------------------------------------------------
 */
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "log.h"
#include "pool.h"
#include "replica.h"
#include "util.h"

/*
 * Raise the soft open-file limit towards the hard one, so that max_connections
 * client sockets, the pool's connections and the logs fit: an SDK keeps many
 * idle keep-alive connections open, and a test runner many SDK clients.  A
 * lower hard limit lowers max_connections, with a line in the error log.
 */
static void
fit_open_files(GatewayConfig *config)
{
	struct rlimit rl;
	int			pg = config->pool_size * (1 + config->nreplicas) + 1 + config->nreplicas;
	rlim_t		need = (rlim_t) config->max_connections + pg + 64;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur < need)
	{
		rl.rlim_cur = (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need) ? need : rl.rlim_max;
		(void) setrlimit(RLIMIT_NOFILE, &rl);
		(void) getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur < need)
	{
		int			fit = (int) rl.rlim_cur - pg - 64;

		config->max_connections = fit > 16 ? fit : 16;
		log_error("open-file limit %llu: at most %d HTTP connections",
				  (unsigned long long) rl.rlim_cur, config->max_connections);
	}
}

int
main(int argc, char **argv)
{
	GatewayConfig config;
	sigset_t	signals;
	int			sig = 0;
	double		deadline;

	if (!config_load(&config, argc, argv))
	{
		config_free(&config);
		return 2;
	}
	if (!log_open_access(config.access_log))
	{
		config_free(&config);
		return 1;
	}

	/*
	 * Large buffers (bodies, answers, PostgreSQL's results) from mmap, given
	 * back on free: glibc's adaptive threshold would otherwise rise to the
	 * largest answer freed and keep such buffers in its arenas after their
	 * connections close
	 */
	(void) mallopt(M_MMAP_THRESHOLD, 256 * 1024);

	/* blocked before any thread starts, so every thread inherits the mask */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);

	fit_open_files(&config);
	if (!http_start(&config))
	{
		log_close();
		config_free(&config);
		return 1;
	}
	replica_start(&config);
	/* never the conninfo: it may hold a password */
	log_error("listening on %s port %d (%s), pool of %d PostgreSQL connections%s",
			  config.listen, config.port, config.tls_cert && *config.tls_cert ? "https" : "http",
			  config.pool_size, config.nreplicas > 0 ? " to the primary and to each replica" : "");

	/* SIGHUP reopens the access log (logrotate); the others stop */
	while (sigwait(&signals, &sig) == 0 && sig == SIGHUP)
		if (log_reopen())
			log_error("received SIGHUP: access log reopened");
	log_error("received %s: no new connections, finishing %d running requests",
			  sig == SIGTERM ? "SIGTERM" : "SIGINT", http_in_flight());
	http_quiesce();
	deadline = now_monotonic() + config.shutdown_timeout;
	while (http_in_flight() > 0 && now_monotonic() < deadline)
		usleep(20 * 1000);
	if (http_in_flight() > 0)
		log_error("shutdown timeout: closing %d running requests", http_in_flight());
	http_stop();
	replica_stop();
	pool_close_all();
	log_error("stopped");
	log_close();
	config_free(&config);
	return 0;
}
