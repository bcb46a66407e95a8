/*-------------------------------------------------------------------------
 *
 * partiql_lex.c
 *	  DynamoDB's PartiQL: the statement's tokens.  Names are bare (letters,
 *	  digits, _, $) or double-quoted ("" inside is one "); strings are
 *	  single-quoted ('' inside is one '); numbers are decimal, with an
 *	  optional fraction and exponent.  Keywords are bare names, matched by the
 *	  parser without regard to case.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "errors.h"
#include "partiql.h"

/* DynamoDB's ValidationException for a statement that does not parse */
void
hroe_partiql_malformed(const char *detail)
{
	HroeValidation(psprintf(PQ_MALFORMED "%s", detail));
}

/* Whether c may continue a bare name */
static bool
NameChar(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_' || c == '$' || c >= 0x80;
}

/* The quoted text at s[*i] (the quote q), unescaped; *i past the end */
static char *
Quoted(const char *s, int len, int *i, char q, int *outlen)
{
	char	   *buf = palloc(len - *i + 1);
	int			n = 0;
	int			j = *i + 1;

	for (;;)
	{
		if (j >= len)
			hroe_partiql_malformed(q == '\'' ? "unterminated string literal" : "unterminated quoted identifier");
		if (s[j] == q)
		{
			if (j + 1 < len && s[j + 1] == q)
			{
				buf[n++] = q;
				j += 2;
				continue;
			}
			break;
		}
		buf[n++] = s[j++];
	}
	buf[n] = '\0';
	*i = j + 1;
	*outlen = n;
	return buf;
}

/* The tokens of stmt (len bytes), ending with PQT_END */
PqToken *
hroe_partiql_lex(const char *s, int len, int *ntokens)
{
	int			cap = 16;
	int			n = 0;
	PqToken    *toks = palloc(sizeof(PqToken) * cap);
	int			i = 0;

	for (;;)
	{
		PqToken    *t;
		int			start;
		unsigned char c;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\f'))
			i++;
		if (n + 1 >= cap)
		{
			cap *= 2;
			toks = repalloc(toks, sizeof(PqToken) * cap);
		}
		t = &toks[n++];
		t->offset = i;
		if (i >= len)
		{
			t->kind = PQT_END;
			t->text = "";
			t->len = 0;
			break;
		}
		start = i;
		c = (unsigned char) s[i];
		if (c == '\'' || c == '"')
		{
			t->kind = c == '\'' ? PQT_STRING : PQT_QIDENT;
			t->text = Quoted(s, len, &i, (char) c, &t->len);
		}
		else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9'))
		{
			while (i < len && s[i] >= '0' && s[i] <= '9')
				i++;
			if (i < len && s[i] == '.')
			{
				i++;
				while (i < len && s[i] >= '0' && s[i] <= '9')
					i++;
			}
			if (i < len && (s[i] == 'e' || s[i] == 'E'))
			{
				int			e = i + 1;

				if (e < len && (s[e] == '+' || s[e] == '-'))
					e++;
				if (e < len && s[e] >= '0' && s[e] <= '9')
				{
					i = e;
					while (i < len && s[i] >= '0' && s[i] <= '9')
						i++;
				}
			}
			if (i < len && NameChar((unsigned char) s[i]))
				hroe_partiql_malformed(psprintf("unexpected character after a number at offset %d", i));
			t->kind = PQT_NUMBER;
			t->text = pnstrdup(s + start, i - start);
			t->len = i - start;
		}
		else if (NameChar(c))
		{
			while (i < len && NameChar((unsigned char) s[i]))
				i++;
			t->kind = PQT_IDENT;
			t->text = pnstrdup(s + start, i - start);
			t->len = i - start;
		}
		else
		{
			static const char *const two[] = {"<>", "!=", "<=", ">=", "<<", ">>"};
			static const char one[] = "=<>()[]{},.:?*+-;";

			t->kind = PQT_PUNCT;
			t->len = 0;
			for (int k = 0; k < lengthof(two); k++)
				if (i + 1 < len && s[i] == two[k][0] && s[i + 1] == two[k][1])
					t->len = 2;
			if (t->len == 0 && c != '\0' && strchr(one, c) != NULL)
				t->len = 1;
			if (t->len == 0)
				hroe_partiql_malformed(psprintf("unexpected character at offset %d", i));
			t->text = pnstrdup(s + i, t->len);
			i += t->len;
		}
	}
	*ntokens = n;
	return toks;
}
