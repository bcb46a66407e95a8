/*-------------------------------------------------------------------------
 *
 * item_number.c
 *	  DynamoDB numbers: normalisation to the canonical exact decimal (the
 *	  digits and exponent range of dynamodb_limits.h), their size and their
 *	  order.
 *
 * Like the rest of the item core, it uses only palloc, ereport and
 * StringInfo from the backend, so the fuzzer (test/fuzz) compiles it
 * unchanged against a tiny shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "item_node.h"

/* ---------------------------------------------------------------------
 * Numbers
 * ---------------------------------------------------------------------
 */

/*
 * A DynamoDB number's canonical text: exact decimal, plain notation, no
 * leading or trailing zeros, -0 is 0, a leading + dropped ("+.5" is 0.5)
 * (doc/dynamodb-rules.md#numbers).
 * Syntax: [+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?; at most
 * HROE_NUMBER_MAX_DIGITS significant digits, the exponent of the leading
 * digit within HROE_NUMBER_MIN_EXPONENT .. HROE_NUMBER_MAX_EXPONENT.  On a
 * number DynamoDB rejects: NULL, with *code and *error set to its E9 error
 * (the digits checked before the range).
 */
static char *
NumberCanonical(const char *s, int len, int *outlen, int *code, const char **error)
{
	const char *p = s,
			   *end = s + len;
	const char *mant,
			   *mant_end;
	bool		neg = false;
	int64		intlen = 0,
				explicit_exp = 0,
				e;
	int64		first = -1,
				last = -1,
				idx = 0;
	char		sig[HROE_NUMBER_MAX_DIGITS];
	int			d = 0;
	char	   *out,
			   *o;

	/* pass 1: syntax (one sign, which DynamoDB accepts as "+" too) */
	if (p < end && (*p == '-' || *p == '+'))
	{
		neg = *p == '-';
		p++;
	}
	mant = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	intlen = p - mant;
	if (p < end && *p == '.')
	{
		p++;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	}
	mant_end = p;
	if (mant_end - mant - (intlen < mant_end - mant ? 1 : 0) == 0)
		goto syntax;			/* no digits at all */
	if (p < end && (*p == 'e' || *p == 'E'))
	{
		bool		eneg = false;
		const char *ds;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = (*p++ == '-');
		ds = p;
		while (p < end && *p >= '0' && *p <= '9')
		{
			/* saturate: anything this large overflows or underflows anyway */
			if (explicit_exp < 1000000000)
				explicit_exp = explicit_exp * 10 + (*p - '0');
			p++;
		}
		if (p == ds)
			goto syntax;
		if (eneg)
			explicit_exp = -explicit_exp;
	}
	if (p != end)
		goto syntax;

	/* pass 2: significant digits, indexed over the mantissa digits */
	for (p = mant; p < mant_end; p++)
	{
		if (*p == '.')
			continue;
		if (*p != '0')
		{
			if (first < 0)
				first = idx;
			last = idx;
		}
		idx++;
	}
	if (first < 0)
	{
		out = palloc(2);
		out[0] = '0';
		out[1] = '\0';
		*outlen = 1;
		return out;
	}
	/* exponent of the leading significant digit */
	e = intlen - 1 - first + explicit_exp;
	*code = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
	if (last - first + 1 > HROE_NUMBER_MAX_DIGITS)
	{
		*error = MSG_NUM_DIGITS;
		return NULL;
	}
	if (e > HROE_NUMBER_MAX_EXPONENT)
	{
		*error = MSG_NUM_OVER;
		return NULL;
	}
	if (e < HROE_NUMBER_MIN_EXPONENT)
	{
		*error = MSG_NUM_UNDER;
		return NULL;
	}
	idx = 0;
	for (p = mant; p < mant_end; p++)
	{
		if (*p == '.')
			continue;
		if (idx >= first && idx <= last)
			sig[d++] = *p;
		idx++;
	}

	/* sign, "0." and the zeros before the first digit, or the zeros after it */
	out = o = palloc(d + 4 - HROE_NUMBER_MIN_EXPONENT + HROE_NUMBER_MAX_EXPONENT);
	if (neg)
		*o++ = '-';
	if (e >= d - 1)
	{
		memcpy(o, sig, d);
		o += d;
		for (int64 i = 0; i < e - (d - 1); i++)
			*o++ = '0';
	}
	else if (e >= 0)
	{
		memcpy(o, sig, e + 1);
		o += e + 1;
		*o++ = '.';
		memcpy(o, sig + e + 1, d - (e + 1));
		o += d - (e + 1);
	}
	else
	{
		*o++ = '0';
		*o++ = '.';
		for (int64 i = 0; i < -e - 1; i++)
			*o++ = '0';
		memcpy(o, sig, d);
		o += d;
	}
	*o = '\0';
	*outlen = o - out;
	return out;

syntax:
	*code = ERRCODE_INVALID_TEXT_REPRESENTATION;
	*error = psprintf(MSG_NUM_SYNTAX, hroe_message_bytes(s, len));
	return NULL;
}

/* Normalise a number of an item being read; E9 errors name the attribute */
char *
hroe_io_number_normalize(Reader *r, const char *s, int len, int *outlen)
{
	int			code;
	const char *error;
	char	   *out = NumberCanonical(s, len, outlen, &code, &error);

	if (out == NULL)
		hroe_io_value_error(r, code, error);
	return out;
}

/* Normalise a DynamoDB number text (E9 errors without an attribute path) */
char *
hroe_number_normalize(const char *s, int len, int *outlen)
{
	return hroe_io_number_normalize(NULL, s, len, outlen);
}

/* The canonical text of a number, or NULL with *error set to DynamoDB's E9 */
char *
hroe_number_canonical(const char *s, int len, const char **error)
{
	int			code;
	int			outlen;

	*error = NULL;
	return NumberCanonical(s, len, &outlen, &code, error);
}

/* DynamoDB size of a canonical number: base-100 digits + exponent + sign */
int64
hroe_io_number_size(const char *s, uint32 len)
{
	bool		neg = (len > 0 && s[0] == '-');
	const char *p = s + (neg ? 1 : 0),
			   *end = s + len;
	uint32		intlen = 0;
	int64		d,
				e;

	while (p + intlen < end && p[intlen] != '.')
		intlen++;
	if (intlen == 1 && p[0] == '0')
	{
		const char *f = p + 2;
		int64		z = 0;

		if (p + 1 >= end)
			return 1;			/* zero */
		while (f + z < end && f[z] == '0')
			z++;
		e = -(z + 1);
		d = (end - f) - z;
	}
	else
	{
		e = intlen - 1;
		if (p + intlen < end)
			d = (end - p) - 1;	/* digits of both parts, no trailing zeros */
		else
		{
			d = intlen;
			while (d > 1 && p[d - 1] == '0')
				d--;
		}
	}
	return 1 + (d + (e % 2 == 0 ? 1 : 0) + 1) / 2 + (neg ? 1 : 0);
}

/* Compare canonical number texts numerically */
int
hroe_number_compare(const char *a, uint32 alen, const char *b, uint32 blen)
{
	bool		na = (alen > 0 && a[0] == '-');
	bool		nb = (blen > 0 && b[0] == '-');
	uint32		ia = 0,
				ib = 0,
				fa,
				fb,
				m;
	int			c;

	if (na != nb)
		return na ? -1 : 1;
	if (na)
	{
		a++, alen--, b++, blen--;
	}
	while (ia < alen && a[ia] != '.')
		ia++;
	while (ib < blen && b[ib] != '.')
		ib++;
	if (ia != ib)
		c = ia < ib ? -1 : 1;
	else if ((c = memcmp(a, b, ia)) != 0)
		c = c < 0 ? -1 : 1;
	else
	{
		fa = alen > ia ? alen - ia - 1 : 0;
		fb = blen > ib ? blen - ib - 1 : 0;
		m = Min(fa, fb);
		c = m ? memcmp(a + ia + 1, b + ib + 1, m) : 0;
		if (c != 0)
			c = c < 0 ? -1 : 1;
		else
			c = fa == fb ? 0 : (fa < fb ? -1 : 1);
	}
	return na ? -c : c;
}
