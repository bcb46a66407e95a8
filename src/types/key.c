/*-------------------------------------------------------------------------
 *
 * key.c
 *	  hroe.key: a DynamoDB string key, possibly composite (levels joined
 *	  by '#').
 *
 * A key is stored like text (a varlena of UTF-8 bytes) and is always valid
 * UTF-8, non-empty and at most 2048 bytes (DynamoDB's partition-key limit).
 * It orders as DynamoDB orders strings: unsigned bytewise, a proper prefix
 * first, whatever the database collation; the type is not collatable.
 *
 * This file holds the I/O functions, the comparison, hash and sort support
 * of the btree and hash operator classes, the begins_with and ancestor /
 * descendant operators, and the functions that build and take apart
 * composite keys.  Planner support (index conditions and selectivity) is in
 * key_support.c.
 *
 * src/types/key.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "lib/hyperloglog.h"
#include "libpq/pqformat.h"
#include "mb/pg_wchar.h"
#include "port/pg_bswap.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/sortsupport.h"

#include "key.h"

/* First byte of the binary (send/recv) format */
#define HROE_KEY_BINARY_VERSION 1

/* State of abbreviated-key sorting (cardinality estimates) */
typedef struct KeySortState
{
	hyperLogLogState abbr_card; /* distinct abbreviated keys */
	hyperLogLogState full_card; /* distinct full keys */
	double		prop_card;		/* required abbr_card / full_card */
} KeySortState;

static void ReportInvalidUtf8(const char *bytes, int len, int offset);
static int	KeyFastCmp(Datum x, Datum y, SortSupport ssup);
static Datum KeyAbbrevConvert(Datum original, SortSupport ssup);
static bool KeyAbbrevAbort(int memtupcount, SortSupport ssup);
static int	KeyLevelCount(const char *data, int len);
static void CheckComponent(text *component, int position, int count);

/* ---------------------------------------------------------------------
 * Validation and construction
 * ---------------------------------------------------------------------
 */

/*
 * Check that len bytes form a valid key: non-empty, at most 2048 bytes,
 * valid UTF-8 without NUL.  Errors name the first rule broken.
 */
void
hroe_key_check_bytes(const char *bytes, int len)
{
	int			valid;

	if (len <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value.")));

	if (len > HROE_KEY_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"),
				 errdetail("The key is %d bytes long; a key holds at most %d bytes of UTF-8.",
						   len, HROE_KEY_MAX_BYTES)));

	/* pg_encoding_verifymbstr stops at the first invalid byte or at a NUL */
	valid = pg_encoding_verifymbstr(PG_UTF8, bytes, len);
	if (valid != len)
		ReportInvalidUtf8(bytes, len, valid);
}

/*
 * Report the invalid UTF-8 (or NUL: a DynamoDB string's U+0000 is escaped
 * in its key, never stored) at bytes[offset], in PostgreSQL's wording for
 * invalid input bytes.
 */
static void
ReportInvalidUtf8(const char *bytes, int len, int offset)
{
	const unsigned char *p = (const unsigned char *) bytes + offset;
	int			seqlen = Min(pg_utf_mblen(p), len - offset);
	char		buf[8 * 5 + 1];
	char	   *out = buf;
	int			i;

	seqlen = Min(seqlen, 8);
	for (i = 0; i < seqlen; i++)
		out += sprintf(out, i == 0 ? "0x%02x" : " 0x%02x", p[i]);

	ereport(ERROR,
			(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
			 errmsg("invalid byte sequence for encoding \"UTF8\": %s", buf),
			 *p == '\0' ?
			 errdetail("A key holds no zero byte (a DynamoDB string's U+0000 is escaped in its key); found at byte %d.",
					   offset + 1) :
			 errdetail("A key must be valid UTF-8; the sequence starts at byte %d.",
					   offset + 1)));
}

/*
 * Build a palloc'd key from len bytes, validating them first (see key.h).
 */
struct varlena *
hroe_key_from_bytes(const char *bytes, int len)
{
	struct varlena *result;

	hroe_key_check_bytes(bytes, len);
	result = (struct varlena *) palloc(VARHDRSZ + len);
	SET_VARSIZE(result, VARHDRSZ + len);
	memcpy(VARDATA(result), bytes, len);
	return result;
}

/*
 * The key of a DynamoDB string (key.h): U+0000 as HROE_KEY_ESCAPE 0x01,
 * U+0001 as HROE_KEY_ESCAPE 0x02.  The string is checked first (non-empty,
 * at most HROE_KEY_MAX_BYTES bytes, valid UTF-8 where U+0000 is a character
 * like any other), so that errors count its own bytes; its escaped form must
 * fit HROE_KEY_MAX_BYTES too (DynamoDB's limits, 2048 bytes for a partition
 * key, 1024 for sort keys, are checked on the string before it gets here; a
 * partition key over HROE_KEY_FORM_MAX bytes comes as its shorter index form).
 */
struct varlena *
hroe_key_from_string(const char *s, int len)
{
	int			escapes = 0;
	int			off;
	struct varlena *result;
	char	   *out;

	for (off = 0; off < len; off++)
		escapes += (unsigned char) s[off] <= (unsigned char) HROE_KEY_ESCAPE;
	if (escapes == 0)
		return hroe_key_from_bytes(s, len);

	if (len > HROE_KEY_MAX_BYTES)
		hroe_key_check_bytes(s, len);	/* the size error */
	for (off = 0; off < len; off++)
	{
		off += pg_encoding_verifymbstr(PG_UTF8, s + off, len - off);
		if (off < len && s[off] != '\0')
			ReportInvalidUtf8(s, len, off);
	}
	if (len + escapes > HROE_KEY_MAX_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"),
				 errdetail("The key is %d bytes long with its %d escaped U+0000 and U+0001; a key holds at most %d bytes.",
						   len + escapes, escapes, HROE_KEY_MAX_BYTES)));

	result = (struct varlena *) palloc(VARHDRSZ + len + escapes);
	SET_VARSIZE(result, VARHDRSZ + len + escapes);
	out = VARDATA(result);
	for (off = 0; off < len; off++)
	{
		unsigned char c = (unsigned char) s[off];

		if (c <= (unsigned char) HROE_KEY_ESCAPE)
		{
			*out++ = HROE_KEY_ESCAPE;
			*out++ = (char) (c + 1);
		}
		else
			*out++ = (char) c;
	}
	return result;
}

/*
 * DynamoDB's string order over two byte strings (see key.h).
 */
int
hroe_key_compare_bytes(const char *a, int alen, const char *b, int blen)
{
	return HroeKeyCompareBytes(a, alen, b, blen);
}

/* ---------------------------------------------------------------------
 * I/O
 * ---------------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(hroe_key_in);
/* Text input: the key is the string itself. */
Datum
hroe_key_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);

	/* a C string in memory is shorter than MaxAllocSize, so it fits an int */
	PG_RETURN_HROE_KEY_P(hroe_key_from_bytes(str, (int) strlen(str)));
}

PG_FUNCTION_INFO_V1(hroe_key_out);
/* Text output: the key's bytes as a C string. */
Datum
hroe_key_out(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	int			len = HroeKeyLen(key);
	char	   *result = palloc(len + 1);

	memcpy(result, HroeKeyData(key), len);
	result[len] = '\0';
	PG_RETURN_CSTRING(result);
}

PG_FUNCTION_INFO_V1(hroe_key_recv);
/* Binary input: a version byte, then the UTF-8 bytes; validated as in key_in. */
Datum
hroe_key_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			version = pq_getmsgbyte(buf);
	int			len;

	if (version != HROE_KEY_BINARY_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("unsupported binary format version %d for type hroe.key", version),
				 errdetail("This version of hroe reads version %d.", HROE_KEY_BINARY_VERSION)));
	len = buf->len - buf->cursor;
	PG_RETURN_HROE_KEY_P(hroe_key_from_bytes(pq_getmsgbytes(buf, len), len));
}

PG_FUNCTION_INFO_V1(hroe_key_send);
/* Binary output: a version byte, then the UTF-8 bytes. */
Datum
hroe_key_send(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbyte(&buf, HROE_KEY_BINARY_VERSION);
	pq_sendbytes(&buf, HroeKeyData(key), HroeKeyLen(key));
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

PG_FUNCTION_INFO_V1(hroe_key_from_text);
/* Cast text to hroe.key: validates, and shares the bytes (same layout). */
Datum
hroe_key_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);

	hroe_key_check_bytes(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
	PG_RETURN_POINTER(t);
}

/* ---------------------------------------------------------------------
 * Comparison (btree), hashing and sort support
 * ---------------------------------------------------------------------
 */

/* Compare two key datums, detoasting and freeing copies. */
static inline int
KeyCompareDatums(FunctionCallInfo fcinfo)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);
	int			r = HroeKeyCompareBytes(HroeKeyData(a), HroeKeyLen(a),
										HroeKeyData(b), HroeKeyLen(b));

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return r;
}

/* Equality of two key datums; different lengths need no detoasting. */
static inline bool
KeyEqualDatums(FunctionCallInfo fcinfo)
{
	Datum		x = PG_GETARG_DATUM(0);
	Datum		y = PG_GETARG_DATUM(1);
	struct varlena *a;
	struct varlena *b;
	bool		result;

	if (toast_raw_datum_size(x) != toast_raw_datum_size(y))
		return false;
	a = PG_GETARG_HROE_KEY_P(0);
	b = PG_GETARG_HROE_KEY_P(1);
	result = memcmp(HroeKeyData(a), HroeKeyData(b), HroeKeyLen(a)) == 0;
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return result;
}

PG_FUNCTION_INFO_V1(hroe_key_cmp);
/* btree support function 1: -1, 0 or 1 in DynamoDB's order. */
Datum
hroe_key_cmp(PG_FUNCTION_ARGS)
{
	int			r = KeyCompareDatums(fcinfo);

	PG_RETURN_INT32((r > 0) - (r < 0));
}

PG_FUNCTION_INFO_V1(hroe_key_eq);
/* a = b */
Datum
hroe_key_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(KeyEqualDatums(fcinfo));
}

PG_FUNCTION_INFO_V1(hroe_key_ne);
/* a <> b */
Datum
hroe_key_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!KeyEqualDatums(fcinfo));
}

PG_FUNCTION_INFO_V1(hroe_key_lt);
/* a < b */
Datum
hroe_key_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(KeyCompareDatums(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(hroe_key_le);
/* a <= b */
Datum
hroe_key_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(KeyCompareDatums(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(hroe_key_gt);
/* a > b */
Datum
hroe_key_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(KeyCompareDatums(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(hroe_key_ge);
/* a >= b */
Datum
hroe_key_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(KeyCompareDatums(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(hroe_key_larger);
/* The greater of two keys (max aggregate). */
Datum
hroe_key_larger(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);

	PG_RETURN_HROE_KEY_P(HroeKeyCompareBytes(HroeKeyData(a), HroeKeyLen(a),
											 HroeKeyData(b), HroeKeyLen(b)) >= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(hroe_key_smaller);
/* The lesser of two keys (min aggregate). */
Datum
hroe_key_smaller(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);

	PG_RETURN_HROE_KEY_P(HroeKeyCompareBytes(HroeKeyData(a), HroeKeyLen(a),
											 HroeKeyData(b), HroeKeyLen(b)) <= 0 ? a : b);
}

PG_FUNCTION_INFO_V1(hroe_key_hash);
/* hash support function 1: 32-bit hash of the bytes. */
Datum
hroe_key_hash(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	Datum		result = hash_any((unsigned char *) HroeKeyData(key), HroeKeyLen(key));

	PG_FREE_IF_COPY(key, 0);
	return result;
}

PG_FUNCTION_INFO_V1(hroe_key_hash_extended);
/* hash support function 2: seeded 64-bit hash (hash partitioning). */
Datum
hroe_key_hash_extended(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	Datum		result = hash_any_extended((unsigned char *) HroeKeyData(key),
										   HroeKeyLen(key), PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(key, 0);
	return result;
}

PG_FUNCTION_INFO_V1(hroe_key_sortsupport);
/*
 * btree support function 2: a memcmp comparator, and abbreviated keys (the
 * first 8 bytes, compared as an unsigned integer) when the sort asks for
 * them.
 */
Datum
hroe_key_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = KeyFastCmp;

	/*
	 * Abbreviation pays only when 8 bytes tell most keys apart; the abort
	 * callback watches that, as varlena.c does for text.  It needs 8-byte
	 * Datums to hold enough of the key.
	 */
	if (ssup->abbreviate && SIZEOF_DATUM == 8)
	{
		KeySortState *state = palloc(sizeof(KeySortState));

		initHyperLogLog(&state->abbr_card, 10);
		initHyperLogLog(&state->full_card, 10);
		state->prop_card = 0.20;
		ssup->ssup_extra = state;
		ssup->comparator = ssup_datum_unsigned_cmp;
		ssup->abbrev_converter = KeyAbbrevConvert;
		ssup->abbrev_abort = KeyAbbrevAbort;
		ssup->abbrev_full_comparator = KeyFastCmp;
	}
	PG_RETURN_VOID();
}

/* Full comparison of two key datums for sorting. */
static int
KeyFastCmp(Datum x, Datum y, SortSupport ssup)
{
	struct varlena *a = DatumGetHroeKeyP(x);
	struct varlena *b = DatumGetHroeKeyP(y);
	int			r = HroeKeyCompareBytes(HroeKeyData(a), HroeKeyLen(a),
										HroeKeyData(b), HroeKeyLen(b));

	if ((Pointer) a != DatumGetPointer(x))
		pfree(a);
	if ((Pointer) b != DatumGetPointer(y))
		pfree(b);
	return r;
}

/*
 * Abbreviated key: the first 8 bytes, zero-padded, as a big-endian unsigned
 * integer, so that integer order is byte order.  Keys hold no NUL bytes, so
 * the padding cannot make two different keys look alike beyond what the
 * full comparator resolves.
 */
static Datum
KeyAbbrevConvert(Datum original, SortSupport ssup)
{
	KeySortState *state = (KeySortState *) ssup->ssup_extra;
	struct varlena *key = DatumGetHroeKeyP(original);
	const char *data = HroeKeyData(key);
	int			len = HroeKeyLen(key);
	Datum		res = (Datum) 0;
	uint32		hash;
	uint32		tmp;

	memcpy(&res, data, Min(len, (int) sizeof(Datum)));

	/* cardinality of full keys: hash at most a cache line, plus the length */
	hash = DatumGetUInt32(hash_any((const unsigned char *) data,
								   Min(len, PG_CACHE_LINE_SIZE)));
	if (len > PG_CACHE_LINE_SIZE)
		hash ^= DatumGetUInt32(hash_uint32((uint32) len));
	addHyperLogLog(&state->full_card, hash);

	/* cardinality of abbreviated keys */
	tmp = (uint32) res ^ (uint32) ((uint64) res >> 32);
	addHyperLogLog(&state->abbr_card, DatumGetUInt32(hash_uint32(tmp)));

	res = DatumBigEndianToNative(res);

	if ((Pointer) key != DatumGetPointer(original))
		pfree(key);
	return res;
}

/*
 * Give up abbreviation when the abbreviated keys are much less distinct
 * than the full keys (long common prefixes such as "CUSTOMER#"); the rule
 * is varlena.c's for text.
 */
static bool
KeyAbbrevAbort(int memtupcount, SortSupport ssup)
{
	KeySortState *state = (KeySortState *) ssup->ssup_extra;
	double		abbrev_distinct;
	double		key_distinct;

	if (memtupcount < 100)
		return false;

	abbrev_distinct = Max(estimateHyperLogLog(&state->abbr_card), 1.0);
	key_distinct = Max(estimateHyperLogLog(&state->full_card), 1.0);

	if (abbrev_distinct > key_distinct * state->prop_card)
	{
		/* past 10,000 tuples, demand less and less of later calls */
		if (memtupcount > 10000)
			state->prop_card *= 0.65;
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------------
 * begins_with and the ancestor / descendant operators
 * ---------------------------------------------------------------------
 */

/* Does data[0..len) begin with prefix[0..plen)? */
static inline bool
BytesBeginWith(const char *data, int len, const char *prefix, int plen)
{
	return len >= plen && memcmp(data, prefix, plen) == 0;
}

/* Does data begin with ancestor followed by the separator? */
static inline bool
BytesAreDescendant(const char *data, int len, const char *ancestor, int alen)
{
	return len > alen && data[alen] == HROE_KEY_SEPARATOR &&
		memcmp(data, ancestor, alen) == 0;
}

PG_FUNCTION_INFO_V1(hroe_key_begins_with);
/* a ^@ b: DynamoDB's begins_with(a, b), a byte prefix. */
Datum
hroe_key_begins_with(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);
	bool		result = BytesBeginWith(HroeKeyData(a), HroeKeyLen(a),
										HroeKeyData(b), HroeKeyLen(b));

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	PG_RETURN_BOOL(result);
}

PG_FUNCTION_INFO_V1(hroe_key_is_ancestor);
/* a @> b: a is a strict ancestor of b (b begins with a || '#'). */
Datum
hroe_key_is_ancestor(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);
	bool		result = BytesAreDescendant(HroeKeyData(b), HroeKeyLen(b),
											HroeKeyData(a), HroeKeyLen(a));

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	PG_RETURN_BOOL(result);
}

PG_FUNCTION_INFO_V1(hroe_key_is_descendant);
/* a <@ b: a is a strict descendant of b (a begins with b || '#'). */
Datum
hroe_key_is_descendant(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	struct varlena *b = PG_GETARG_HROE_KEY_P(1);
	bool		result = BytesAreDescendant(HroeKeyData(a), HroeKeyLen(a),
											HroeKeyData(b), HroeKeyLen(b));

	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	PG_RETURN_BOOL(result);
}

/* ---------------------------------------------------------------------
 * Composite keys: build, split, take apart
 * ---------------------------------------------------------------------
 */

/* Number of levels (components) of a key: one more than its separators. */
static int
KeyLevelCount(const char *data, int len)
{
	int			count = 1;
	const char *p = data;
	const char *end = data + len;

	while ((p = memchr(p, HROE_KEY_SEPARATOR, end - p)) != NULL)
	{
		count++;
		p++;
	}
	return count;
}

/*
 * Byte length of the first n levels of a key (1 <= n <= levels), without
 * the separator that follows them.
 */
static int
KeyLevelsLength(const char *data, int len, int n)
{
	const char *p = data;
	const char *end = data + len;

	while (n-- > 0)
	{
		const char *sep = memchr(p, HROE_KEY_SEPARATOR, end - p);

		if (sep == NULL)
			return len;
		if (n == 0)
			return sep - data;
		p = sep + 1;
	}
	return len;
}

/* Reject a key component that contains the separator. */
static void
CheckComponent(text *component, int position, int count)
{
	const char *data = VARDATA_ANY(component);
	int			len = VARSIZE_ANY_EXHDR(component);
	const char *sep = memchr(data, HROE_KEY_SEPARATOR, len);

	if (sep != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key component cannot contain \"#\""),
				 count > 1 ?
				 errdetail("Component %d of %d has \"#\" at byte %d.",
						   position, count, (int) (sep - data) + 1) :
				 errdetail("The component has \"#\" at byte %d.",
						   (int) (sep - data) + 1),
				 errhint("\"#\" separates the levels of a key: pass each level as a separate component.")));
}

/* Report a key that would grow past the size limit while being built. */
static void
ReportKeyTooLong(int64 len)
{
	ereport(ERROR,
			(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			 errmsg("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes"),
			 errdetail("The key would be " INT64_FORMAT " bytes long; a key holds at most %d bytes of UTF-8.",
					   len, HROE_KEY_MAX_BYTES)));
}

PG_FUNCTION_INFO_V1(hroe_key_build);
/*
 * hroe.key(VARIADIC text[]): the components joined by '#'.  NULL components
 * and components holding '#' are errors; empty components are empty levels.
 */
Datum
hroe_key_build(PG_FUNCTION_ARGS)
{
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(0);
	Datum	   *elems;
	bool	   *nulls;
	int			count;
	int64		total = 0;
	int			i;
	struct varlena *result;
	char	   *out;

	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("key components must be a one-dimensional array")));
	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
					  &elems, &nulls, &count);

	for (i = 0; i < count; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("key component cannot be null"),
					 errdetail("Component %d of %d is null.", i + 1, count)));
		CheckComponent(DatumGetTextPP(elems[i]), i + 1, count);
		total += VARSIZE_ANY_EXHDR(DatumGetPointer(elems[i])) + (i > 0 ? 1 : 0);
	}
	if (total > HROE_KEY_MAX_BYTES)
		ReportKeyTooLong(total);

	result = palloc(VARHDRSZ + total);
	SET_VARSIZE(result, VARHDRSZ + total);
	out = VARDATA(result);
	for (i = 0; i < count; i++)
	{
		text	   *component = DatumGetTextPP(elems[i]);

		if (i > 0)
			*out++ = HROE_KEY_SEPARATOR;
		memcpy(out, VARDATA_ANY(component), VARSIZE_ANY_EXHDR(component));
		out += VARSIZE_ANY_EXHDR(component);
	}

	/* components are text, hence UTF-8 already: this checks emptiness */
	hroe_key_check_bytes(VARDATA(result), total);
	PG_RETURN_HROE_KEY_P(result);
}

PG_FUNCTION_INFO_V1(hroe_key_split);
/* hroe.key_split(key): the key's components as text[] (empty ones kept). */
Datum
hroe_key_split(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	const char *data = HroeKeyData(key);
	int			len = HroeKeyLen(key);
	int			count = KeyLevelCount(data, len);
	Datum	   *elems = palloc(sizeof(Datum) * count);
	const char *p = data;
	const char *end = data + len;
	int			i;

	for (i = 0; i < count; i++)
	{
		const char *sep = memchr(p, HROE_KEY_SEPARATOR, end - p);
		const char *stop = sep ? sep : end;

		elems[i] = PointerGetDatum(cstring_to_text_with_len(p, stop - p));
		p = stop + 1;
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, count, TEXTOID, -1, false,
										  TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(hroe_key_component);
/*
 * hroe.key_component(key, n): the n-th level, counting from 1; a negative n
 * counts from the end (-1 is the last).  NULL when there is no such level.
 */
Datum
hroe_key_component(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	int32		n = PG_GETARG_INT32(1);
	const char *data = HroeKeyData(key);
	int			len = HroeKeyLen(key);
	int			count = KeyLevelCount(data, len);
	int			start;
	int			stop;

	if (n < 0)
		n = count + n + 1;
	if (n < 1 || n > count)
		PG_RETURN_NULL();
	start = n == 1 ? 0 : KeyLevelsLength(data, len, n - 1) + 1;
	stop = KeyLevelsLength(data, len, n);
	PG_RETURN_TEXT_P(cstring_to_text_with_len(data + start, stop - start));
}

PG_FUNCTION_INFO_V1(hroe_key_levels);
/* hroe.key_levels(key): the number of levels (separators + 1). */
Datum
hroe_key_levels(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);

	PG_RETURN_INT32(KeyLevelCount(HroeKeyData(key), HroeKeyLen(key)));
}

PG_FUNCTION_INFO_V1(hroe_key_prefix);
/*
 * hroe.key_prefix(key, n): the first n levels (the whole key when n is at
 * least the number of levels); a negative n drops the last -n levels.  At
 * least one level must remain, and it must not be empty.
 */
Datum
hroe_key_prefix(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	int32		n = PG_GETARG_INT32(1);
	const char *data = HroeKeyData(key);
	int			len = HroeKeyLen(key);
	int			count = KeyLevelCount(data, len);
	int			keep = n;
	int			plen;

	if (n < 0)
		keep = count + n;
	if (n == 0 || keep < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a key prefix must keep at least one level"),
				 errdetail("The key has %d levels and %d levels were asked for.",
						   count, n)));
	if (keep >= count)
		PG_RETURN_HROE_KEY_P(key);
	plen = KeyLevelsLength(data, len, keep);
	if (plen == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value."),
				 errdetail("The first level of the key is empty, so its first %d level(s) form an empty key.",
						   keep)));
	PG_RETURN_HROE_KEY_P(hroe_key_from_bytes(data, plen));
}

PG_FUNCTION_INFO_V1(hroe_key_append);
/* hroe.key_append(key, component): key || '#' || component. */
Datum
hroe_key_append(PG_FUNCTION_ARGS)
{
	struct varlena *key = PG_GETARG_HROE_KEY_P(0);
	text	   *component = PG_GETARG_TEXT_PP(1);
	int			klen = HroeKeyLen(key);
	int			clen = VARSIZE_ANY_EXHDR(component);
	int64		total = (int64) klen + 1 + clen;
	struct varlena *result;

	CheckComponent(component, 1, 1);
	if (total > HROE_KEY_MAX_BYTES)
		ReportKeyTooLong(total);
	result = palloc(VARHDRSZ + total);
	SET_VARSIZE(result, VARHDRSZ + total);
	memcpy(VARDATA(result), HroeKeyData(key), klen);
	VARDATA(result)[klen] = HROE_KEY_SEPARATOR;
	memcpy(VARDATA(result) + klen + 1, VARDATA_ANY(component), clen);
	PG_RETURN_HROE_KEY_P(result);
}

/* The successor of a UTF-8 prefix (key.h) */
int
hroe_utf8_prefix_successor(const char *p, int len, unsigned char *buf, int *buflen)
{
	int			n = len;

	while (n > 0)
	{
		int			start = n - 1;
		pg_wchar	cp;

		while (start > 0 && ((unsigned char) p[start] & 0xC0) == 0x80)
			start--;
		cp = utf8_to_unicode((const unsigned char *) p + start);
		if (cp >= 0x10FFFF)
		{
			n = start;
			continue;
		}
		cp++;
		if (cp >= 0xD800 && cp <= 0xDFFF)
			cp = 0xE000;
		unicode_to_utf8(cp, buf);
		*buflen = pg_utf_mblen(buf);
		return start;
	}
	return -1;
}
