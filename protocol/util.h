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

/*
 * The encodings every user of S3's and SigV4's texts shares (the protocol
 * library, both front ends, the extension's S3 code), each here only:
 */
/* Lower-case hexadecimal of n bytes into out (2n + 1 bytes). */
extern void hex_lower(const unsigned char *in, size_t n, char *out);

/*
 * s percent-encoded as S3 and SigV4 want it (RFC 3986's unreserved
 * characters A-Z a-z 0-9 - _ . ~ kept, '/' too when keep_slash, every
 * other byte %XX) into out (URI_ENCODED_SIZE(strlen(s)) bytes); the
 * length written.  buf_uri_encode appends it.
 */
#define URI_ENCODED_SIZE(n) (3 * (n) + 1)
extern size_t uri_encode(const char *s, bool keep_slash, char *out);
extern void buf_uri_encode(StrBuf *b, const char *s, bool keep_slash);

/*
 * s as XML text (& < > " ' as entities, a control character other than
 * tab, newline, carriage return as &#xN;) into out (XML_ESCAPED_SIZE(strlen(s))
 * bytes); the length written.  buf_xml_text appends it.
 */
#define XML_ESCAPED_SIZE(n) (6 * (n) + 1)
extern size_t xml_escape(const char *s, char *out);
extern void buf_xml_text(StrBuf *b, const char *s);

/* Is the address a loopback one (127.0.0.0/8, ::1)? */
struct sockaddr;
extern bool is_loopback(const struct sockaddr *sa);

/* Monotonic seconds, for durations and cache ages. */
extern double now_monotonic(void);

/* The MD5 of n bytes (OpenSSL's EVP) into out; false if OpenSSL failed */
extern bool md5_digest(const void *data, size_t n, unsigned char out[16]);

#endif							/* GATEWAY_UTIL_H */
