/*-------------------------------------------------------------------------
 *
 * json.c
 *	  A strict JSON validator, a top-level member lookup and string escaping.
 *
 * The validator is iterative (an explicit stack of open containers, at most
 * JSON_MAX_DEPTH deep), so no input can exhaust the C stack; it reads every
 * byte once.  It also checks UTF-8, because PostgreSQL would refuse invalid
 * UTF-8 later with an error that is not DynamoDB's.
 *
 * protocol/json.c
 *
 *-------------------------------------------------------------------------
 */
#include "json.h"

#include <string.h>

typedef struct Scanner
{
	const unsigned char *p;
	const unsigned char *end;
} Scanner;

/* Skip JSON whitespace. */
static void
skip_ws(Scanner *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* Length of the valid UTF-8 sequence at p (0 if invalid or truncated). */
static int
utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = p[0];
	int			n;
	unsigned int cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (end - p < n)
		return 0;
	for (int i = 1; i < n; i++)
	{
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		(cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return n;
}

static bool
is_hex(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A string literal at s->p (the opening quote); advance past it. */
static bool
scan_string(Scanner *s)
{
	s->p++;
	while (s->p < s->end)
	{
		unsigned char c = *s->p;

		if (c == '"')
		{
			s->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\')
		{
			if (s->end - s->p < 2)
				return false;
			c = s->p[1];
			if (c == 'u')
			{
				if (s->end - s->p < 6 || !is_hex(s->p[2]) || !is_hex(s->p[3]) ||
					!is_hex(s->p[4]) || !is_hex(s->p[5]))
					return false;
				s->p += 6;
			}
			else if (strchr("\"\\/bfnrt", c) != NULL && c != '\0')
				s->p += 2;
			else
				return false;
			continue;
		}
		{
			int			n = utf8_len(s->p, s->end);

			if (n == 0)
				return false;
			s->p += n;
		}
	}
	return false;
}

/* A number at s->p; advance past it. */
static bool
scan_number(Scanner *s)
{
	if (s->p < s->end && *s->p == '-')
		s->p++;
	if (s->p >= s->end)
		return false;
	if (*s->p == '0')
		s->p++;
	else if (*s->p >= '1' && *s->p <= '9')
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	else
		return false;
	if (s->p < s->end && *s->p == '.')
	{
		s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return false;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
	{
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return false;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	return true;
}

/* A literal word (true, false, null) at s->p; advance past it. */
static bool
scan_word(Scanner *s, const char *w)
{
	size_t		n = strlen(w);

	if ((size_t) (s->end - s->p) < n || memcmp(s->p, w, n) != 0)
		return false;
	s->p += n;
	return true;
}

/* true if s[0..len) is one JSON value (RFC 8259) in valid UTF-8. */
bool
json_validate(const char *str, size_t len)
{
	Scanner		s = {(const unsigned char *) str, (const unsigned char *) str + len};
	char		stack[JSON_MAX_DEPTH];	/* '{' or '[' per open container */
	int			depth = 0;

	for (;;)
	{
		/* a value */
		skip_ws(&s);
		if (s.p >= s.end)
			return false;
		switch (*s.p)
		{
			case '{':
			case '[':
				if (depth == JSON_MAX_DEPTH)
					return false;
				stack[depth++] = (char) *s.p++;
				skip_ws(&s);
				if (s.p < s.end && *s.p == (stack[depth - 1] == '{' ? '}' : ']'))
				{
					s.p++;
					depth--;
					goto after_value;
				}
				if (stack[depth - 1] == '{')
					goto member_name;
				continue;
			case '"':
				if (!scan_string(&s))
					return false;
				break;
			case 't':
				if (!scan_word(&s, "true"))
					return false;
				break;
			case 'f':
				if (!scan_word(&s, "false"))
					return false;
				break;
			case 'n':
				if (!scan_word(&s, "null"))
					return false;
				break;
			default:
				if (!scan_number(&s))
					return false;
				break;
		}
after_value:
		/* after a value: a separator, a closing bracket, or the end */
		for (;;)
		{
			skip_ws(&s);
			if (depth == 0)
				return s.p == s.end;
			if (s.p >= s.end)
				return false;
			if (*s.p == ',')
			{
				s.p++;
				if (stack[depth - 1] == '{')
					goto member_name;
				break;
			}
			if (*s.p != (stack[depth - 1] == '{' ? '}' : ']'))
				return false;
			s.p++;
			depth--;
		}
		continue;
member_name:
		skip_ws(&s);
		if (s.p >= s.end || *s.p != '"' || !scan_string(&s))
			return false;
		skip_ws(&s);
		if (s.p >= s.end || *s.p != ':')
			return false;
		s.p++;
	}
}

/* Skip one value of valid JSON at s->p (containers by bracket counting). */
static void
skip_value(Scanner *s)
{
	int			depth = 0;

	do
	{
		skip_ws(s);
		if (s->p >= s->end)
			return;
		if (*s->p == '"')
			scan_string(s);
		else if (*s->p == '{' || *s->p == '[')
			depth++, s->p++;
		else if (*s->p == '}' || *s->p == ']')
			depth--, s->p++;
		else if (*s->p == ',' || *s->p == ':')
			s->p++;
		else
			while (s->p < s->end && strchr(",:]} \t\r\n", *s->p) == NULL)
				s->p++;
	} while (depth > 0);
}

/* The top-level string member "key" of valid JSON s, copied into out. */
bool
json_top_string(const char *str, size_t len, const char *key, char *out, size_t outsize)
{
	Scanner		s = {(const unsigned char *) str, (const unsigned char *) str + len};
	size_t		klen = strlen(key);

	skip_ws(&s);
	if (s.p >= s.end || *s.p != '{')
		return false;
	s.p++;
	for (;;)
	{
		const unsigned char *name;
		bool		match;

		skip_ws(&s);
		if (s.p >= s.end || *s.p != '"')
			return false;
		name = s.p + 1;
		scan_string(&s);
		match = (size_t) (s.p - name - 1) == klen && memcmp(name, key, klen) == 0;
		skip_ws(&s);
		if (s.p >= s.end || *s.p != ':')
			return false;
		s.p++;
		skip_ws(&s);
		if (match)
		{
			const unsigned char *v;
			size_t		n;

			if (s.p >= s.end || *s.p != '"')
				return false;
			v = s.p + 1;
			scan_string(&s);
			n = (size_t) (s.p - v - 1);
			if (n >= outsize || memchr(v, '\\', n) != NULL)
				return false;
			memcpy(out, v, n);
			out[n] = '\0';
			return true;
		}
		skip_value(&s);
		skip_ws(&s);
		if (s.p >= s.end || *s.p != ',')
			return false;
		s.p++;
	}
}

/* Append s as a JSON string literal (quotes included). */
void
json_append_string(StrBuf *b, const char *s)
{
	const unsigned char *end = (const unsigned char *) s + strlen(s);

	buf_putc(b, '"');
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c >= 0x80)
		{
			/* echoed header text may be anything: keep the body valid UTF-8 */
			int			n = utf8_len((const unsigned char *) s, end);

			if (n == 0)
				buf_puts(b, "\\ufffd");
			else
			{
				buf_append(b, s, (size_t) n);
				s += n - 1;
			}
		}
		else if (c == '"' || c == '\\')
		{
			buf_putc(b, '\\');
			buf_putc(b, (char) c);
		}
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\u%04x", c);
		else
			buf_putc(b, (char) c);
	}
	buf_putc(b, '"');
}
