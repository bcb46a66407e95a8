/*-------------------------------------------------------------------------
 *
 * config.c
 *	  hroe-gateway's settings: defaults, a key = value file, command line.
 *
 * Every setting has one name, used both as "--name value" (or
 * "--name=value") on the command line and as "name = value" in the file
 * given by --config; the command line wins over the file.  Booleans take
 * true/false/on/off/yes/no/1/0 in the file and need no value on the command
 * line.
 *
 * gateway/config.c
 *
 *-------------------------------------------------------------------------
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

#define GATEWAY_VERSION HROE_VERSION	/* the extension's, from the build (Makefile) */

typedef enum
{
	OPT_STRING,
	OPT_INT,
	OPT_BOOL,
	OPT_LIST					/* repeatable string: replicas, nreplicas */
} OptType;

typedef struct Option
{
	const char *name;
	OptType		type;
	size_t		offset;
	int			min;			/* OPT_INT bounds */
	int			max;
	const char *help;
} Option;

#define OFF(f) offsetof(GatewayConfig, f)

static const Option options[] = {
	{"listen", OPT_STRING, OFF(listen), 0, 0, "address to listen on (default 127.0.0.1)"},
	{"port", OPT_INT, OFF(port), 1, 65535, "TCP port (default 8000)"},
	{"dbname", OPT_STRING, OFF(conninfo), 0, 0, "libpq connection string or database name (default: libpq's PG* environment)"},
	{"pool-size", OPT_INT, OFF(pool_size), 1, 1000, "PostgreSQL connections (default 8)"},
	{"threads", OPT_INT, OFF(threads), 1, 64, "event loop threads, each with its share of the pool and the queue (default 2, at most pool-size)"},
	{"queue-size", OPT_INT, OFF(queue_size), 0, 100000, "requests that may wait for a connection; more are throttled (default: no limit of its own, each HTTP connection holds at most one request)"},
	{"queue-timeout", OPT_INT, OFF(queue_timeout_ms), 0, 600000, "milliseconds a request waits for a connection before it is throttled (default 60000)"},
	{"statement-timeout", OPT_INT, OFF(statement_timeout_ms), 0, INT_MAX, "milliseconds a request may run in PostgreSQL, 0 = none (default 10000)"},
	{"region", OPT_STRING, OFF(region), 0, 0, "region named by GET / (default us-east-1)"},
	{"access-log", OPT_STRING, OFF(access_log), 0, 0, "access log file, - for stdout, empty for none (default -)"},
	{"tls-cert", OPT_STRING, OFF(tls_cert), 0, 0, "TLS certificate chain (PEM)"},
	{"tls-key", OPT_STRING, OFF(tls_key), 0, 0, "TLS private key (PEM)"},
	{"allow-plain-http", OPT_BOOL, OFF(allow_plain_http), 0, 0, "serve plain HTTP on a non-loopback address"},
	{"key-cache-ttl", OPT_INT, OFF(key_cache_ttl), 0, 3600, "seconds a looked-up secret is reused (default 5)"},
	{"max-connections", OPT_INT, OFF(max_connections), 1, 100000, "HTTP connections (default 4096; the open-file limit is raised to fit)"},
	{"idle-timeout", OPT_INT, OFF(idle_timeout), 1, 86400, "seconds before an idle connection is closed (default 60)"},
	{"shutdown-timeout", OPT_INT, OFF(shutdown_timeout), 0, 3600, "seconds SIGTERM waits for running requests (default 30)"},
	{"max-body-mb", OPT_INT, OFF(max_body_mb), 1, 1024, "largest request body in MiB; larger gets 413 (default 16)"},
	{"max-buffered-mb", OPT_INT, OFF(max_buffered_mb), 1, 65536, "request bodies being read, all connections together, in MiB; past it a body is refused (default 256)"},
	{"max-unverified-mb", OPT_INT, OFF(max_unverified_mb), 1, 65536, "bytes of request bodies whose signature is not yet checked, past each one's first 64 KiB, all connections together, in MiB (default 32)"},
	{"max-unsent-mb", OPT_INT, OFF(max_unsent_mb), 1, 65536, "answers queued and not yet read by their clients, in MiB; past it the oldest unread ones are dropped (default 512)"},
	{"header-timeout", OPT_INT, OFF(header_timeout), 1, 3600, "seconds from a request's first byte (or a TLS handshake's) to its last header (default 10)"},
	{"body-timeout", OPT_INT, OFF(body_timeout), 1, 3600, "seconds from a request's headers to the end of its body (default 60)"},
	{"send-timeout", OPT_INT, OFF(send_timeout), 1, 3600, "seconds a client may take to read an answer (default 60)"},
	{"max-connections-per-address", OPT_INT, OFF(max_per_address), 1, 100000, "HTTP connections from one client address (default 1024)"},
	{"replica", OPT_LIST, OFF(replicas), 0, 0, "libpq connection string of a hot standby for eventually consistent reads (repeatable, at most 16)"},
	{"replica-max-lag", OPT_INT, OFF(replica_max_lag_ms), 0, 3600000, "milliseconds a standby may be behind the primary and still serve reads (default 1000)"},
	{"replica-check-interval", OPT_INT, OFF(replica_check_ms), 10, 60000, "milliseconds between measurements of the standbys' lag (default 100)"},
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))

/* Print the usage text to f. */
static void
usage(FILE *f)
{
	fprintf(f, "hroe-gateway: DynamoDB's HTTP API in front of hroe (PostgreSQL)\n\n"
			"Usage: hroe-gateway [--config FILE] [--OPTION VALUE]...\n\nOptions (also \"name = value\" lines in the config file):\n");
	for (size_t i = 0; i < NOPTIONS; i++)
		fprintf(f, "  --%-18s %s\n", options[i].name, options[i].help);
	fprintf(f, "  --%-18s %s\n  --%-18s %s\n  --%-18s %s\n", "config FILE",
			"read settings from FILE first", "help", "this text", "version",
			"the version");
}

static const Option *
find_option(const char *name)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (strcmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

/* Store value into the setting; false (with a message) if it is invalid. */
static bool
set_option(GatewayConfig *c, const Option *o, const char *value, const char *where)
{
	void	   *field = (char *) c + o->offset;

	switch (o->type)
	{
		case OPT_STRING:
			free(*(char **) field);
			*(char **) field = xstrdup(value);
			return true;
		case OPT_INT:
			{
				char	   *end;
				long		v;

				errno = 0;
				v = strtol(value, &end, 10);
				if (errno || end == value || *end || v < o->min || v > o->max)
				{
					fprintf(stderr, "hroe-gateway: %s: invalid value \"%s\" for %s (an integer from %d to %d)\n",
							where, value, o->name, o->min, o->max);
					return false;
				}
				*(int *) field = (int) v;
				return true;
			}
		case OPT_BOOL:
			if (!strcasecmp(value, "true") || !strcasecmp(value, "on") ||
				!strcasecmp(value, "yes") || !strcmp(value, "1"))
				*(bool *) field = true;
			else if (!strcasecmp(value, "false") || !strcasecmp(value, "off") ||
					 !strcasecmp(value, "no") || !strcmp(value, "0"))
				*(bool *) field = false;
			else
			{
				fprintf(stderr, "hroe-gateway: %s: invalid value \"%s\" for %s (true or false)\n",
						where, value, o->name);
				return false;
			}
			return true;
		case OPT_LIST:
			if (c->nreplicas >= GATEWAY_MAX_REPLICAS)
			{
				fprintf(stderr, "hroe-gateway: %s: more than %d values for %s\n",
						where, GATEWAY_MAX_REPLICAS, o->name);
				return false;
			}
			if (c->replicas == NULL)
				c->replicas = xmalloc(sizeof(char *) * GATEWAY_MAX_REPLICAS);
			c->replicas[c->nreplicas++] = xstrdup(value);
			return true;
	}
	return false;
}

/* Forget the file's values of a repeatable option (the command line's win). */
static void
clear_list(GatewayConfig *c)
{
	for (int i = 0; i < c->nreplicas; i++)
		free(c->replicas[i]);
	c->nreplicas = 0;
}

/* Trim whitespace at both ends, in place. */
static char *
trim(char *s)
{
	char	   *e;

	while (isspace((unsigned char) *s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char) e[-1]))
		*--e = '\0';
	return s;
}

/* Read "name = value" lines ('#' starts a comment line). */
static bool
load_file(GatewayConfig *c, const char *path)
{
	FILE	   *f = fopen(path, "r");
	char		line[4096];
	int			lineno = 0;
	bool		ok = true;

	if (f == NULL)
	{
		fprintf(stderr, "hroe-gateway: could not open config file \"%s\": %s\n", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f))
	{
		char	   *s = trim(line),
				   *eq,
				   *name,
				   *value;
		const Option *o;
		char		where[300];

		lineno++;
		if (*s == '\0' || *s == '#')
			continue;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		eq = strchr(s, '=');
		if (eq == NULL)
		{
			fprintf(stderr, "hroe-gateway: %s: expected \"name = value\"\n", where);
			ok = false;
			continue;
		}
		*eq = '\0';
		name = trim(s);
		value = trim(eq + 1);
		/* optional quotes around the value */
		if (strlen(value) >= 2 && value[0] == '"' && value[strlen(value) - 1] == '"')
		{
			value[strlen(value) - 1] = '\0';
			value++;
		}
		o = find_option(name);
		if (o == NULL)
		{
			fprintf(stderr, "hroe-gateway: %s: unknown setting \"%s\"\n", where, name);
			ok = false;
		}
		else if (!set_option(c, o, value, where))
			ok = false;
	}
	fclose(f);
	return ok;
}

/* Fill *c from defaults, the --config file, then the command line. */
bool
config_load(GatewayConfig *c, int argc, char **argv)
{
	const char *config_file = NULL;
	bool		listed = false;	/* --replica seen on the command line */

	memset(c, 0, sizeof(*c));
	c->listen = xstrdup("127.0.0.1");
	c->port = 8000;
	c->conninfo = xstrdup("");
	c->pool_size = 8;
	c->threads = 2;
	c->queue_size = -1;			/* no limit of its own (see pool.c) */
	c->queue_timeout_ms = 60000;
	c->statement_timeout_ms = 10000;
	c->region = xstrdup("us-east-1");
	c->access_log = xstrdup("-");
	c->key_cache_ttl = 5;
	c->max_connections = 4096;
	c->idle_timeout = 60;
	c->shutdown_timeout = 30;
	c->max_body_mb = 16;
	c->max_buffered_mb = 256;
	c->max_unverified_mb = 32;
	c->max_unsent_mb = 512;
	c->header_timeout = 10;
	c->body_timeout = 60;
	c->send_timeout = 60;
	c->max_per_address = 1024;
	c->replica_max_lag_ms = 1000;
	c->replica_check_ms = 100;

	/* first pass: --help, --version, --config */
	for (int i = 1; i < argc; i++)
	{
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
		{
			usage(stdout);
			exit(0);
		}
		if (!strcmp(argv[i], "--version"))
		{
			printf("hroe-gateway %s\n", GATEWAY_VERSION);
			exit(0);
		}
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config_file = argv[++i];
		else if (!strncmp(argv[i], "--config=", 9))
			config_file = argv[i] + 9;
	}
	if (config_file && !load_file(c, config_file))
		return false;

	for (int i = 1; i < argc; i++)
	{
		char		name[64];
		const char *arg = argv[i],
				   *value = NULL,
				   *eq;
		const Option *o;

		if (strncmp(arg, "--", 2) != 0)
		{
			fprintf(stderr, "hroe-gateway: unexpected argument \"%s\" (try --help)\n", arg);
			return false;
		}
		arg += 2;
		eq = strchr(arg, '=');
		snprintf(name, sizeof(name), "%.*s", (int) (eq ? eq - arg : (long) strlen(arg)), arg);
		if (!strcmp(name, "config"))
		{
			if (!eq)
				i++;
			continue;
		}
		o = find_option(name);
		if (o == NULL)
		{
			fprintf(stderr, "hroe-gateway: unknown option \"--%s\" (try --help)\n", name);
			return false;
		}
		if (eq)
			value = eq + 1;
		else if (o->type == OPT_BOOL)
			value = "true";
		else if (i + 1 < argc)
			value = argv[++i];
		else
		{
			fprintf(stderr, "hroe-gateway: option \"--%s\" needs a value\n", name);
			return false;
		}
		if (o->type == OPT_LIST && !listed)
		{
			clear_list(c);
			listed = true;
		}
		if (!set_option(c, o, value, "command line"))
			return false;
	}
	if ((c->tls_cert && *c->tls_cert) != (c->tls_key && *c->tls_key))
	{
		fprintf(stderr, "hroe-gateway: --tls-cert and --tls-key go together\n");
		return false;
	}
	return true;
}

/* Release the settings' strings. */
void
config_free(GatewayConfig *c)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].type == OPT_STRING)
		{
			char	  **field = (char **) ((char *) c + options[i].offset);

			free(*field);
			*field = NULL;
		}
	clear_list(c);
	free(c->replicas);
	c->replicas = NULL;
}
