/*-------------------------------------------------------------------------
 *
 * key.h
 *	  C API of hroe.key, a DynamoDB string key (see src/types/key.c).
 *
 * A key is a plain varlena whose payload is the key's UTF-8 bytes, without
 * a terminator: byte-identical to text.  Every key value is valid UTF-8,
 * non-empty, at most HROE_KEY_MAX_BYTES bytes, and holds no NUL byte.  Keys
 * order as DynamoDB orders strings: unsigned bytewise over the UTF-8 bytes,
 * a shorter prefix first.
 *
 * A DynamoDB string (an S key value, which may hold U+0000) becomes a key
 * through hroe_key_from_string and nowhere else (a response takes its key
 * values from the item, never from a key): U+0000 is stored as HROE_KEY_ESCAPE 0x01 and U+0001 as
 * HROE_KEY_ESCAPE 0x02, every other byte as itself.  The code is prefix-free
 * and keeps the order of the bytes (0x01 0x01 < 0x01 0x02 < 0x02), so keys
 * compare, sort and begin_with one another exactly as the strings do.
 *
 * DatumGetHroeKeyP and PG_GETARG_HROE_KEY_P detoast but may return a value
 * with a short (1-byte) header: always read it through HroeKeyData and
 * HroeKeyLen, never VARDATA/VARSIZE.
 *
 * src/types/key.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_KEY_H
#define HROE_KEY_H

#include "fmgr.h"

#include "dynamodb_limits.h"	/* HROE_KEY_MAX_BYTES */

/* The separator between the components (levels) of a composite key */
#define HROE_KEY_SEPARATOR	'#'

#define DatumGetHroeKeyP(d)		((struct varlena *) PG_DETOAST_DATUM_PACKED(d))
#define PG_GETARG_HROE_KEY_P(n) DatumGetHroeKeyP(PG_GETARG_DATUM(n))
#define PG_RETURN_HROE_KEY_P(k) PG_RETURN_POINTER(k)
#define HroeKeyData(k)			(VARDATA_ANY(k))
#define HroeKeyLen(k)			((int) VARSIZE_ANY_EXHDR(k))

/*
 * Build a key (palloc'd, 4-byte header) from len bytes.  Validates like the
 * input function: non-empty, at most HROE_KEY_MAX_BYTES bytes, valid UTF-8
 * without NUL; ereports ERROR otherwise, with the input function's messages.
 */
extern struct varlena *hroe_key_from_bytes(const char *bytes, int len);

/* The escape byte of a DynamoDB string in a key (see above) */
#define HROE_KEY_ESCAPE		'\x01'

/*
 * The key of a DynamoDB string s (len bytes, U+0000 allowed): escaped as
 * above, then validated as by hroe_key_from_bytes (errors name the string's
 * bytes, not the escaped ones).
 */
extern struct varlena *hroe_key_from_string(const char *s, int len);

/*
 * Check len bytes against the rules of hroe_key_from_bytes without building
 * a key; ereports ERROR on the first rule broken.
 */
extern void hroe_key_check_bytes(const char *bytes, int len);

/*
 * DynamoDB's string order: <0, 0, >0 as a sorts before, equal to or after b
 * (unsigned bytes, a proper prefix first).
 */
extern int	hroe_key_compare_bytes(const char *a, int alen,
								   const char *b, int blen);

/*
 * The least UTF-8 string above every string that begins with p (len bytes,
 * valid UTF-8): p with its last code point incremented, after dropping
 * trailing U+10FFFF; a successor in the surrogates (not UTF-8: U+D800 is
 * U+D7FF's) becomes U+E000, the next code point, whose encoding sorts after
 * theirs.  Returns the length of p kept, the new last code point in buf (4
 * bytes) and its length in *buflen; -1 when p is all U+10FFFF (or empty):
 * there is no successor.
 */
extern int	hroe_utf8_prefix_successor(const char *p, int len, unsigned char *buf,
									   int *buflen);

/* Inline form of hroe_key_compare_bytes, for hot paths */
static inline int
HroeKeyCompareBytes(const char *a, int alen, const char *b, int blen)
{
	int			r = memcmp(a, b, Min(alen, blen));

	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

#endif							/* HROE_KEY_H */
