/*-------------------------------------------------------------------------
 *
 * util.c
 *	  A growable byte buffer and small helpers shared by hroe-gateway's files.
 *
 * Allocation failure is not recoverable in a request handler that has
 * already half-built a response, so it ends the process with a message (a
 * supervisor restarts it; no request is half-applied by that).
 *
 * protocol/util.c
 *
 *-------------------------------------------------------------------------
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <netinet/in.h>

/* Called before abort() when an allocation fails (set by a host process). */
void		(*xmalloc_failed) (void) = NULL;

/* Allocate or die. */
void *
xmalloc(size_t n)
{
	void	   *p = malloc(n ? n : 1);

	if (p == NULL)
	{
		if (xmalloc_failed)
			xmalloc_failed();
		fprintf(stderr, "hroe-gateway: out of memory\n");
		abort();
	}
	return p;
}

/* strdup or die. */
char *
xstrdup(const char *s)
{
	size_t		n = strlen(s) + 1;
	char	   *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

/* An empty buffer (data is a valid empty string). */
void
buf_init(StrBuf *b)
{
	b->cap = 256;
	b->len = 0;
	b->data = xmalloc(b->cap);
	b->data[0] = '\0';
}

/* Release the buffer's memory; the buffer must be initialized again. */
void
buf_free(StrBuf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Make room for n more bytes and the terminator. */
static void
buf_reserve(StrBuf *b, size_t n)
{
	size_t		need = b->len + n + 1;

	if (need <= b->cap)
		return;
	while (b->cap < need)
		b->cap *= 2;
	b->data = realloc(b->data, b->cap);
	if (b->data == NULL)
	{
		if (xmalloc_failed)
			xmalloc_failed();
		fprintf(stderr, "hroe-gateway: out of memory\n");
		abort();
	}
}

/* Append n bytes (which may contain NULs). */
void
buf_append(StrBuf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Append a string. */
void
buf_puts(StrBuf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

/* Append one byte. */
void
buf_putc(StrBuf *b, char c)
{
	buf_append(b, &c, 1);
}

/* Append printf-formatted text (formatted once when it fits the room left). */
void
buf_printf(StrBuf *b, const char *fmt,...)
{
	va_list		ap;
	size_t		room = b->cap - b->len;
	int			n;

	va_start(ap, fmt);
	n = vsnprintf(b->data + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
	{
		b->data[b->len] = '\0';
		return;
	}
	if ((size_t) n >= room)
	{
		buf_reserve(b, (size_t) n);
		va_start(ap, fmt);
		vsnprintf(b->data + b->len, (size_t) n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t) n;
}

/* Lower-case hexadecimal of n bytes into out (2n + 1 bytes). */
void
hex_lower(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++)
	{
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Monotonic seconds, for durations and cache ages. */
double
now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Is the address a loopback one (127.0.0.0/8, ::1)? */
bool
is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (ntohl(((const struct sockaddr_in *) sa)->sin_addr.s_addr) >> 24) == 127;
	if (sa->sa_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *) sa)->sin6_addr, &in6addr_loopback,
					  sizeof(struct in6_addr)) == 0;
	return false;
}
