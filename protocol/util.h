/*-------------------------------------------------------------------------
 *
 * util.h
 *	  A growable byte buffer and small helpers shared by hroe-gateway's files.
 *
 * protocol/util.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_UTIL_H
#define GATEWAY_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* A NUL-terminated growable buffer; allocation failure aborts the process. */
typedef struct StrBuf
{
	char	   *data;
	size_t		len;
	size_t		cap;
} StrBuf;

extern void buf_init(StrBuf *b);
extern void buf_free(StrBuf *b);
extern void buf_append(StrBuf *b, const char *s, size_t n);
extern void buf_puts(StrBuf *b, const char *s);
extern void buf_putc(StrBuf *b, char c);
extern void buf_printf(StrBuf *b, const char *fmt,...)
			__attribute__((format(printf, 2, 3)));

extern void *xmalloc(size_t n);

/*
 * Called before the process aborts on a failed allocation, if set: a host
 * that must not abort (hroe's in-server HTTP workers) ends the process its
 * own way here.
 */
extern void (*xmalloc_failed) (void);
extern char *xstrdup(const char *s);

/* Lower-case hexadecimal of n bytes into out (2n + 1 bytes). */
extern void hex_lower(const unsigned char *in, size_t n, char *out);

/* Is the address a loopback one (127.0.0.0/8, ::1)? */
struct sockaddr;
extern bool is_loopback(const struct sockaddr *sa);

/* Monotonic seconds, for durations and cache ages. */
extern double now_monotonic(void);

#endif							/* GATEWAY_UTIL_H */
