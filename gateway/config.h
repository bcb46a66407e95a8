/*-------------------------------------------------------------------------
 *
 * config.h
 *	  hroe-gateway's settings: defaults, a key = value file, command line.
 *
 * gateway/config.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_CONFIG_H
#define GATEWAY_CONFIG_H

#include <stdbool.h>

typedef struct GatewayConfig
{
	char	   *listen;			/* address to listen on */
	int			port;
	char	   *conninfo;		/* libpq connection string ("" = libpq's
								 * environment defaults) */
	int			pool_size;		/* PostgreSQL connections */
	int			threads;		/* event loop threads (each its share of
								 * the pool and the queue) */
	int			queue_size;		/* requests that may wait for one (-1: no
								 * limit but the HTTP connections) */
	int			queue_timeout_ms;	/* longest wait before throttling */
	int			statement_timeout_ms;	/* per request, in PostgreSQL */
	char	   *region;			/* for GET / and logs */
	char	   *access_log;		/* file, "-" = stdout, "" = none */
	char	   *tls_cert;		/* PEM files; both or neither */
	char	   *tls_key;
	bool		allow_plain_http;	/* plain HTTP beyond loopback */
	int			key_cache_ttl;	/* seconds a looked-up secret is reused */
	int			max_connections;	/* HTTP connections */
	int			idle_timeout;	/* seconds before an idle keep-alive
								 * connection is closed */
	int			shutdown_timeout;	/* seconds SIGTERM waits for requests */
	int			max_body_mb;	/* largest request body, MiB */
	int			max_buffered_mb;	/* bodies being read, all together, MiB */
	int			max_unverified_mb;	/* of them, bodies not yet authenticated */
	int			max_unsent_mb;	/* answers queued, not yet sent, MiB */
	int			header_timeout; /* seconds from a request's first byte to its headers */
	int			body_timeout;	/* seconds from the headers to the whole body */
	int			send_timeout;	/* seconds an answer may wait to be read */
	int			max_per_address;	/* connections from one client address */
	/* hot standbys for eventually consistent reads (replica.c) */
	char	  **replicas;		/* libpq connection strings */
	int			nreplicas;
	int			replica_max_lag_ms; /* staleness a standby may have */
	int			replica_check_ms;	/* how often standbys are measured */
} GatewayConfig;

/* The most standbys one gateway routes to. */
#define GATEWAY_MAX_REPLICAS 16

/*
 * Fill *c from defaults, then the --config file if any, then the command
 * line (which wins).  Prints the problem and returns false on a bad option
 * or file; exits after --help or --version.
 */
extern bool config_load(GatewayConfig *c, int argc, char **argv);

/* Release the settings' strings. */
extern void config_free(GatewayConfig *c);

#endif							/* GATEWAY_CONFIG_H */
