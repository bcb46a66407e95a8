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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include <openssl/evp.h>

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

/* s percent-encoded as S3 and SigV4 want it into out (util.h) */
size_t
uri_encode(const char *s, bool keep_slash, char *out)
{
	static const char digits[] = "0123456789ABCDEF";
	size_t		k = 0;

	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/'))
			out[k++] = (char) c;
		else
		{
			out[k++] = '%';
			out[k++] = digits[c >> 4];
			out[k++] = digits[c & 15];
		}
	}
	out[k] = '\0';
	return k;
}

/* s as XML text into out (util.h) */
size_t
xml_escape(const char *s, char *out)
{
	size_t		k = 0;

	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;
		const char *entity = c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" :
			c == '"' ? "&quot;" : c == '\'' ? "&apos;" : NULL;

		if (entity)
		{
			size_t		el = strlen(entity);

			memcpy(out + k, entity, el);
			k += el;
		}
		else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			k += (size_t) sprintf(out + k, "&#x%X;", c);
		else
			out[k++] = (char) c;
	}
	out[k] = '\0';
	return k;
}

/* Room in b for n bytes encoded in at most per_byte bytes each, and the terminator */
static void
buf_reserve_encoded(StrBuf *b, size_t n, size_t per_byte)
{
	if (n > (SIZE_MAX - 1) / per_byte)
		abort();
	buf_reserve(b, per_byte * n);
}

void
buf_uri_encode(StrBuf *b, const char *s, bool keep_slash)
{
	buf_reserve_encoded(b, strlen(s), URI_ENCODED_SIZE(1) - 1);
	b->len += uri_encode(s, keep_slash, b->data + b->len);
}

void
buf_xml_text(StrBuf *b, const char *s)
{
	buf_reserve_encoded(b, strlen(s), XML_ESCAPED_SIZE(1) - 1);
	b->len += xml_escape(s, b->data + b->len);
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

/* The MD5 of n bytes (util.h) */
bool
md5_digest(const void *data, size_t n, unsigned char out[16])
{
	unsigned int len = 0;

	return EVP_Digest(data, n, out, &len, EVP_md5(), NULL) == 1 && len == 16;
}
