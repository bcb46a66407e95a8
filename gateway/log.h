/*-------------------------------------------------------------------------
 *
 * log.h
 *	  hroe-gateway's access log (one line per request) and error messages.
 *
 * gateway/log.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_LOG_H
#define GATEWAY_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* Open the access log: a file (appended), "-" for stdout, "" for none. */
extern bool log_open_access(const char *path);
extern void log_close(void);

/* Reopen the access log file (after logrotate moved it: SIGHUP). */
extern bool log_reopen(void);

/*
 * One access log line: time (UTC, ms), client address, access key id, operation,
 * HTTP status, error type, duration, body sizes, request id.  Never a secret
 * or a body.
 */
extern void log_access(const char *remote, const char *access_key_id, const char *operation,
					   int status, const char *error_type, double seconds,
					   size_t bytes_in, size_t bytes_out, const char *request_id);

/* Write out the access log lines written since the last call. */
extern void log_flush(void);

/* A message to stderr, prefixed with the time and "hroe-gateway: ". */
extern void log_error(const char *fmt,...) __attribute__((format(printf, 1, 2)));

#endif							/* GATEWAY_LOG_H */
