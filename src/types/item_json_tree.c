/*-------------------------------------------------------------------------
 *
 * item_json_tree.c
 *	  Any JSON text as an in-memory JsonbValue tree, every string kept whole
 *	  by its length: the JSON API's request reader (hroe.dynamodb_text,
 *	  hroe.gateway_call).
 *
 * DynamoDB's strings may hold U+0000, which PostgreSQL's jsonb_in refuses
 * (its lexer de-escapes into C strings).  This reader uses the item core's
 * strict JSON string reader (item_json_read.c: escapes, surrogate pairs,
 * UTF-8), under which \u0000 is a character like any other, and builds the
 * JsonbValue tree jsonb_in would build (objects' keys in jsonb's order,
 * length first; of duplicated keys the last one wins, as in jsonb), which
 * JsonbValueToJsonb turns into the Jsonb the API's dispatch walks.  Strings
 * without escapes point into the text, which must outlive the tree.
 *
 * Like the rest of the item core it uses only palloc and ereport from the
 * backend (numbers excepted: hroe_json_tree_numeric, in item.c), so the
 * fuzzer (test/fuzz) compiles it against its shim.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/jsonb.h"

#include "item_node.h"

static void ReadJsonValue(Reader *r, JsonbValue *v, int depth, bool *has_nul);

/* jsonb's order of object keys: shorter first, then bytewise */
static int
CompareKeys(const JsonbValue *a, const JsonbValue *b)
{
	if (a->val.string.len != b->val.string.len)
		return a->val.string.len > b->val.string.len ? 1 : -1;
	return memcmp(a->val.string.val, b->val.string.val, a->val.string.len);
}

/* Pairs by key; of equal keys, the later one first (it is the one kept) */
static int
ComparePairs(const void *a, const void *b)
{
	const JsonbPair *pa = (const JsonbPair *) a;
	const JsonbPair *pb = (const JsonbPair *) b;
	int			c = CompareKeys(&pa->key, &pb->key);

	if (c != 0)
		return c;
	return pa->order > pb->order ? -1 : 1;
}

/* Sort an object's pairs as jsonb stores them and drop duplicated keys */
static void
SortPairs(JsonbValue *obj)
{
	JsonbPair  *pairs = obj->val.object.pairs;
	int			n = obj->val.object.nPairs;
	int			kept = 0;

	if (n < 2)
		return;
	qsort(pairs, n, sizeof(JsonbPair), ComparePairs);
	for (int i = 0; i < n; i++)
		if (kept == 0 || CompareKeys(&pairs[kept - 1].key, &pairs[i].key) != 0)
			pairs[kept++] = pairs[i];
	obj->val.object.nPairs = kept;
}

/* A JSON string as a jbvString, by its length (U+0000 noted) */
static void
ReadString(Reader *r, JsonbValue *v, bool *has_nul)
{
	const char *s;
	uint32		len;

	hroe_io_read_string(r, &s, &len);
	v->type = jbvString;
	v->val.string.val = (char *) s;
	v->val.string.len = len;
	if (len > 0 && memchr(s, '\0', len) != NULL)
		*has_nul = true;
}

/* A JSON number, checked against JSON's grammar, as a jbvNumeric */
static void
ReadNumber(Reader *r, JsonbValue *v)
{
	const char *s = r->p;

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;
	else if (r->p < r->end && *r->p >= '1' && *r->p <= '9')
		while (r->p < r->end && isdigit((unsigned char) *r->p))
			r->p++;
	else
		hroe_io_syntax_error(r, "Invalid number");
	if (r->p < r->end && *r->p == '.')
	{
		r->p++;
		if (r->p >= r->end || !isdigit((unsigned char) *r->p))
			hroe_io_syntax_error(r, "Invalid number");
		while (r->p < r->end && isdigit((unsigned char) *r->p))
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E'))
	{
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || !isdigit((unsigned char) *r->p))
			hroe_io_syntax_error(r, "Invalid number");
		while (r->p < r->end && isdigit((unsigned char) *r->p))
			r->p++;
	}
	v->type = jbvNumeric;
	v->val.numeric = hroe_json_tree_numeric(s, r->p - s);
}

/* The doubled capacity of a growing object or array (jsonb's count limit) */
static int
Grow(int cap, const char *what)
{
	if (cap > JB_CMASK / 2)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("number of jsonb %s exceeds the maximum allowed (%d)", what, JB_CMASK)));
	return cap * 2;
}

/* A literal (true, false, null) */
static bool
ReadLiteral(Reader *r, const char *word)
{
	size_t		n = strlen(word);

	if ((size_t) (r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

/* An object's members, after its '{' */
static void
ReadObject(Reader *r, JsonbValue *v, int depth, bool *has_nul)
{
	int			cap = 4;

	v->type = jbvObject;
	v->val.object.nPairs = 0;
	v->val.object.pairs = palloc(sizeof(JsonbPair) * cap);
	if (hroe_io_peek(r, '}'))
		return;
	do
	{
		JsonbPair  *pair;

		if (v->val.object.nPairs == cap)
		{
			cap = Grow(cap, "object pairs");
			v->val.object.pairs = repalloc(v->val.object.pairs, sizeof(JsonbPair) * cap);
		}
		pair = &v->val.object.pairs[v->val.object.nPairs];
		pair->order = v->val.object.nPairs++;
		ReadString(r, &pair->key, has_nul);
		hroe_io_expect(r, ':', "Expected ':'");
		ReadJsonValue(r, &pair->value, depth + 1, has_nul);
	} while (hroe_io_peek(r, ','));
	hroe_io_expect(r, '}', "Expected ',' or '}'");
	SortPairs(v);
}

/* An array's elements, after its '[' */
static void
ReadArray(Reader *r, JsonbValue *v, int depth, bool *has_nul)
{
	int			cap = 4;

	v->type = jbvArray;
	v->val.array.nElems = 0;
	v->val.array.rawScalar = false;
	v->val.array.elems = palloc(sizeof(JsonbValue) * cap);
	if (hroe_io_peek(r, ']'))
		return;
	do
	{
		if (v->val.array.nElems == cap)
		{
			cap = Grow(cap, "array elements");
			v->val.array.elems = repalloc(v->val.array.elems, sizeof(JsonbValue) * cap);
		}
		ReadJsonValue(r, &v->val.array.elems[v->val.array.nElems++], depth + 1, has_nul);
	} while (hroe_io_peek(r, ','));
	hroe_io_expect(r, ']', "Expected ',' or ']'");
}

/* One JSON value */
static void
ReadJsonValue(Reader *r, JsonbValue *v, int depth, bool *has_nul)
{
	if (depth > HROE_JSON_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("JSON nesting exceeds %d levels", HROE_JSON_MAX_DEPTH)));
	hroe_io_skip_ws(r);
	if (r->p >= r->end)
		hroe_io_syntax_error(r, "Expected a JSON value");
	switch (*r->p)
	{
		case '{':
			r->p++;
			ReadObject(r, v, depth, has_nul);
			return;
		case '[':
			r->p++;
			ReadArray(r, v, depth, has_nul);
			return;
		case '"':
			ReadString(r, v, has_nul);
			return;
		case 't':
		case 'f':
			v->type = jbvBool;
			v->val.boolean = *r->p == 't';
			if (!ReadLiteral(r, v->val.boolean ? "true" : "false"))
				hroe_io_syntax_error(r, "Invalid literal");
			return;
		case 'n':
			v->type = jbvNull;
			if (!ReadLiteral(r, "null"))
				hroe_io_syntax_error(r, "Invalid literal");
			return;
		default:
			ReadNumber(r, v);
			return;
	}
}

/*
 * Parse JSON text (len bytes, no terminator needed) into a JsonbValue tree;
 * *has_nul tells whether a string (or a key) of the text held U+0000: every
 * one the tree holds, and conservatively one in the value of a duplicated
 * key that the tree dropped.  Malformed JSON
 * raises invalid_text_representation, as jsonb_in does.
 */
JsonbValue *
hroe_json_tree_parse(const char *json, int len, bool *has_nul)
{
	Reader		r;
	JsonbValue *v = palloc(sizeof(JsonbValue));

	hroe_io_init_reader(&r, json, len);
	r.type = "json";
	*has_nul = false;
	ReadJsonValue(&r, v, 1, has_nul);
	hroe_io_skip_ws(&r);
	if (r.p != r.end)
		hroe_io_syntax_error(&r, "Unexpected text after the JSON value");
	return v;
}
