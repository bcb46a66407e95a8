/*-------------------------------------------------------------------------
 *
 * log.c
 *	  hroe-gateway's access log (one line per request) and error messages.
 *
 * Access log lines are written by the event loop thread, whole, and flushed
 * by log_flush() once per round of the loop (a write per round, not per
 * line), before it waits: tail -f shows them as they come, and a crash or
 * SIGKILL loses at most the lines of the round it was in.  Messages to
 * stderr are written whole under a mutex (the main thread writes too) and
 * flushed at once.
 * Nothing here ever receives a secret or a body: callers pass the access key
 * id, which AWS treats as public (it appears in CloudTrail).
 *
 * gateway/log.c
 *
 *-------------------------------------------------------------------------
 */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static FILE *access_file = NULL;
static char *access_path = NULL;	/* a file's path, for log_reopen */
static _Atomic bool access_pending = false; /* lines written since the last flush */

/* Now as 2026-11-25T16:01:02.345Z into out (25 bytes). */
static void
timestamp(char *out, size_t size)
{
	struct timeval tv;
	struct tm	tm;
	char		sec[24];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%s.%03dZ", sec, (int) (tv.tv_usec / 1000));
}

/* Open the access log: a file (appended), "-" for stdout, "" for none. */
bool
log_open_access(const char *path)
{
	if (path == NULL || *path == '\0')
		access_file = NULL;
	else if (strcmp(path, "-") == 0)
		access_file = stdout;
	else if ((access_file = fopen(path, "a")) == NULL)
	{
		log_error("could not open access log \"%s\": %s", path, strerror(errno));
		return false;
	}
	else
		access_path = strdup(path);
	return true;
}

/* Reopen the access log file (after logrotate moved it: SIGHUP). */
bool
log_reopen(void)
{
	FILE	   *f;

	if (access_path == NULL)
		return true;
	f = fopen(access_path, "a");
	if (f == NULL)
	{
		/* keep writing to the old file rather than lose lines */
		log_error("could not reopen access log \"%s\": %s", access_path, strerror(errno));
		return false;
	}
	pthread_mutex_lock(&log_mutex);
	if (access_file && access_file != stdout)
		fclose(access_file);
	access_file = f;
	access_pending = false;
	pthread_mutex_unlock(&log_mutex);
	return true;
}

/* Close the access log file. */
void
log_close(void)
{
	pthread_mutex_lock(&log_mutex);
	if (access_file && access_file != stdout)
		fclose(access_file);
	else if (access_file)
		fflush(access_file);
	access_file = NULL;
	free(access_path);
	access_path = NULL;
	pthread_mutex_unlock(&log_mutex);
}

/* One access log line. */
void
log_access(const char *remote, const char *access_key_id, const char *operation,
		   int status, const char *error_type, double seconds,
		   size_t bytes_in, size_t bytes_out, const char *request_id)
{
	char		ts[40];

	if (access_file == NULL)
		return;
	timestamp(ts, sizeof(ts));
	pthread_mutex_lock(&log_mutex);
	if (access_file)
	{
		fprintf(access_file, "%s %s %s %s %d %s %.3fms %zu %zu %s\n", ts,
				remote && *remote ? remote : "-",
				access_key_id && *access_key_id ? access_key_id : "-",
				operation && *operation ? operation : "-", status,
				error_type && *error_type ? error_type : "-", seconds * 1000.0,
				bytes_in, bytes_out, request_id && *request_id ? request_id : "-");
		access_pending = true;
	}
	pthread_mutex_unlock(&log_mutex);
}

/* Write out the access log lines buffered since the last call. */
void
log_flush(void)
{
	if (!access_pending)
		return;
	pthread_mutex_lock(&log_mutex);
	if (access_file)
		fflush(access_file);
	access_pending = false;
	pthread_mutex_unlock(&log_mutex);
}

/* A message to stderr, prefixed with the time and "hroe-gateway: ". */
void
log_error(const char *fmt,...)
{
	char		ts[40],
				msg[2048];
	va_list		ap;

	timestamp(ts, sizeof(ts));
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* one line per message: libpq's messages end in newlines */
	for (char *p = msg; *p; p++)
		if (*p == '\n' && p[1] != '\0')
			*p = ' ';
		else if (*p == '\n')
			*p = '\0';
	pthread_mutex_lock(&log_mutex);
	fprintf(stderr, "%s hroe-gateway: %s\n", ts, msg);
	fflush(stderr);
	pthread_mutex_unlock(&log_mutex);
}
