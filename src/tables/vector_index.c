/*-------------------------------------------------------------------------
 *
 * vector_index.c
 *	  Vector indexes (DynamoDB's VectorIndexes, doc/vectors.md): an item's
 *	  vector as the f32 array a vector index's generated column stores
 *	  (hroe.item_vector), and the write-side validation its CHECK constraint
 *	  runs (hroe.check_vector), with DynamoDB's texts.  The tables and
 *	  columns are made by hroe.create_vector_index (vectors.sql).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "dynamodb_limits.h"
#include "errors.h"
#include "item.h"
#include "vector_index.h"
#include "vector_number.h"

/*
 * The last vectors parsed by hroe_vector_from_value, so that one write
 * parses each of its item's vectors once, not once for each of the
 * expressions that read it (the index's generated column, its CHECK
 * constraint, a trained index's list column, another index on the same
 * attribute), whatever the number of vector attributes.  The outcome
 * is a function of the list's payload bytes and the dimensions alone (an L
 * payload holds its elements' offsets, relative to itself, their type tags
 * and their texts; the parse of a text depends on nothing else), and a hit
 * requires the same dimensions and the same payload, compared byte for
 * byte: never a stale vector, whatever item, row or transaction the bytes
 * come from.  Payloads above VECTOR_PARSE_CACHE_MAX are not kept.
 */
#define VECTOR_PARSE_CACHE_MAX (1024 * 1024)
/*
 * parses kept: one per vector index a table may have (5), since a write
 * computes each index's vector column, then its list column, then checks
 * them, attribute after attribute, before the first is read again
 */
#define VECTOR_PARSE_CACHE_ENTRIES 5

typedef struct VectorParse
{
	bool		valid;
	int			dims;
	uint32		len;
	HroeVectorProblem problem;
	int			bad;
	HroeType	bad_type;
	char	   *bytes;			/* len bytes, in TopMemoryContext */
	uint32		bytes_cap;
	float4	   *floats;			/* dims floats when problem is VECTOR_OK */
	int			floats_cap;
} VectorParse;

static VectorParse parses[VECTOR_PARSE_CACHE_ENTRIES];
static int	next_parse;			/* the entry the next new parse replaces */

/*
 * One number of a vector as a 32-bit float: false if it is not a finite
 * float (a DynamoDB number beyond f32's range)
 */
bool
hroe_vector_number(const char *text, uint32 len, float4 *out)
{
	char		buf[64];
	char	   *copy;
	char	   *end;
	float		f;

	/* the canonical texts of most numbers, exactly as strtof rounds them */
	if (hroe_f32_from_decimal(text, len, out))
		return true;
	copy = len < sizeof(buf) ? buf : palloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	errno = 0;
	f = strtof(copy, &end);
	if (end == copy || *end != '\0' || !isfinite(f))
		return false;
	*out = f;
	return true;
}

/* Parse the L value v of dims elements into out (see hroe_vector_from_value) */
static HroeVectorProblem
ParseVector(const HroeValue *v, int dims, float4 *out, int *bad, HroeType *bad_type)
{
	for (int i = 0; i < dims; i++)
	{
		HroeValue	e;

		hroe_list_element(v, (uint32) i, &e);
		if (e.type != HROE_N || !hroe_vector_number(e.data, e.len, &out[i]))
		{
			*bad = i;
			*bad_type = e.type;
			return VECTOR_ELEMENT;
		}
	}
	return VECTOR_OK;
}

/* Keep the outcome of parsing v, in place of the oldest (nothing kept if too large) */
static void
RememberParse(const HroeValue *v, int dims, HroeVectorProblem problem, const float4 *out,
			  int bad, HroeType bad_type)
{
	VectorParse *p = &parses[next_parse];

	if (v->len > VECTOR_PARSE_CACHE_MAX)
		return;
	next_parse = (next_parse + 1) % VECTOR_PARSE_CACHE_ENTRIES;
	/* invalid until complete: an allocation failing below leaves no half entry */
	p->valid = false;
	if (p->bytes_cap < v->len || p->bytes == NULL)
	{
		uint32		cap = Max(v->len, 1024);

		if (p->bytes)
			pfree(p->bytes);
		p->bytes = NULL;
		p->bytes = MemoryContextAlloc(TopMemoryContext, cap);
		p->bytes_cap = cap;
	}
	if (p->floats_cap < dims || p->floats == NULL)
	{
		if (p->floats)
			pfree(p->floats);
		p->floats = NULL;
		p->floats = MemoryContextAlloc(TopMemoryContext, sizeof(float4) * dims);
		p->floats_cap = dims;
	}
	memcpy(p->bytes, v->data, v->len);
	p->len = v->len;
	p->dims = dims;
	p->problem = problem;
	p->bad = bad;
	p->bad_type = bad_type;
	if (problem == VECTOR_OK)
		memcpy(p->floats, out, sizeof(float4) * dims);
	p->valid = true;
}

/*
 * The vector value v of a vector index with dims dimensions as floats into
 * out (dims of them): the problem, or VECTOR_OK; *bad the element at fault.
 * A list among the last ones parsed (byte for byte) is not parsed again.
 */
HroeVectorProblem
hroe_vector_from_value(const HroeValue *v, int dims, float4 *out, int *bad, HroeType *bad_type)
{
	HroeVectorProblem problem;
	int			b = 0;
	HroeType	bt = HROE_N;

	if (v->type != HROE_L)
		return VECTOR_NOT_LIST;
	if (hroe_value_count(v) != (uint32) dims)
		return VECTOR_SIZE;
	for (int i = 0; i < VECTOR_PARSE_CACHE_ENTRIES; i++)
	{
		VectorParse *p = &parses[i];

		if (p->valid && p->dims == dims && p->len == v->len &&
			memcmp(p->bytes, v->data, v->len) == 0)
		{
			if (p->problem == VECTOR_OK)
				memcpy(out, p->floats, sizeof(float4) * dims);
			*bad = p->bad;
			*bad_type = p->bad_type;
			return p->problem;
		}
	}
	problem = ParseVector(v, dims, out, &b, &bt);
	RememberParse(v, dims, problem, out, b, bt);
	*bad = b;
	*bad_type = bt;
	return problem;
}

/* The item's attribute attr, or false */
static bool
FindAttribute(HroeItem *item, text *attr, HroeValue *v)
{
	HroeValue	root;

	hroe_item_root(item, &root);
	return hroe_map_find(&root, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), v);
}

/* The dimensions argument, within DynamoDB's range */
static int
DimensionsArg(int32 dims)
{
	if (dims < 1 || dims > HROE_VECTOR_DIMENSIONS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("vector dimensions must be between 1 and %d, not %d",
						HROE_VECTOR_DIMENSIONS_MAX, dims)));
	return dims;
}

PG_FUNCTION_INFO_V1(hroe_item_vector);
/*
 * SQL: hroe.item_vector(item, attribute, dimensions): the vector as real[],
 * NULL when absent or invalid (the index's CHECK constraint rejects the
 * writes storing an invalid one; items stored before the index was made
 * stay out of it)
 */
Datum
hroe_item_vector(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	int			dims = DimensionsArg(PG_GETARG_INT32(2));
	HroeValue	v;
	float4	   *f;
	Datum	   *elems;
	int			bad;
	HroeType	bad_type;

	if (!FindAttribute(item, PG_GETARG_TEXT_PP(1), &v))
		PG_RETURN_NULL();
	f = palloc(sizeof(float4) * dims);
	if (hroe_vector_from_value(&v, dims, f, &bad, &bad_type) != VECTOR_OK)
		PG_RETURN_NULL();
	elems = palloc(sizeof(Datum) * dims);
	for (int i = 0; i < dims; i++)
		elems[i] = Float4GetDatum(f[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, dims, FLOAT4OID, sizeof(float4), true, TYPALIGN_INT));
}

PG_FUNCTION_INFO_V1(hroe_check_vector);
/*
 * SQL: hroe.check_vector(item, attribute, dimensions, index_name): true if
 * the attribute is absent or a vector of the index, else DynamoDB's
 * ValidationException naming the index
 */
Datum
hroe_check_vector(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *attr = PG_GETARG_TEXT_PP(1);
	int			dims = DimensionsArg(PG_GETARG_INT32(2));
	char	   *index = text_to_cstring(PG_GETARG_TEXT_PP(3));
	char	   *name = text_to_cstring(attr);
	HroeValue	v;
	float4	   *f;
	int			bad = 0;
	HroeType	bad_type = HROE_N;

	if (!FindAttribute(item, attr, &v))
		PG_RETURN_BOOL(true);
	f = palloc(sizeof(float4) * dims);
	switch (hroe_vector_from_value(&v, dims, f, &bad, &bad_type))
	{
		case VECTOR_OK:
			break;
		case VECTOR_NOT_LIST:
			HroeValidation(psprintf("One or more parameter values were invalid. Invalid type for parameter %s, "
									"Expected: 32-bit floating point number list IndexName: %s",
									name, index));
		case VECTOR_SIZE:
			HroeValidation(psprintf("One or more parameter values were invalid. Invalid size for parameter %s, "
									"Expected: %d, Actual: %u IndexName: %s",
									name, dims, hroe_value_count(&v), index));
		case VECTOR_ELEMENT:
			HroeValidation(psprintf("One or more parameter values were invalid. Invalid type for parameter %s[%d], "
									"Expected: 32-bit floating point number, Actual: %s. IndexName: %s",
									name, bad, hroe_type_name(bad_type), index));
	}
	PG_RETURN_BOOL(true);
}
