/*-------------------------------------------------------------------------
 *
 * item.c
 *	  SQL interface of hroe.item: I/O functions, equality and hashing,
 *	  conversions to and from jsonb (DynamoDB JSON and plain documents),
 *	  attribute access, merge and removal.
 *
 * The format and the parser live in the item core (item_node.h: item_node.c,
 * item_number.c, item_json_read.c, item_json_write.c, item_binary.c); this
 * file adds what needs the backend (fmgr, numeric, jsonb, bytea).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/detoast.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "item.h"
#include "key.h"

/* ---------------------------------------------------------------------
 * I/O
 * ---------------------------------------------------------------------
 */

/* A buffer for the text output of a varlena value of vsize bytes (item.h) */
StringInfo
hroe_text_out_buffer(Size vsize)
{
	StringInfo	buf = makeStringInfo();

	enlargeStringInfo(buf, vsize + 64);
	return buf;
}

/* The binary output of a varlena value: its bytes after the header (item.h) */
bytea *
hroe_varlena_send(const void *v, Size vsize)
{
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (const char *) v + VARHDRSZ, vsize - VARHDRSZ);
	return pq_endtypsend(&buf);
}

PG_FUNCTION_INFO_V1(hroe_item_in);
/* Text input: DynamoDB JSON */
Datum
hroe_item_in(PG_FUNCTION_ARGS)
{
	char	   *s = PG_GETARG_CSTRING(0);

	PG_RETURN_HROE_ITEM_P(hroe_item_parse(s, strlen(s)));
}

PG_FUNCTION_INFO_V1(hroe_item_out);
/* Text output: canonical DynamoDB JSON */
Datum
hroe_item_out(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	StringInfo	buf = hroe_text_out_buffer(VARSIZE(item));

	hroe_item_write(buf, item);
	PG_RETURN_CSTRING(buf->data);
}

PG_FUNCTION_INFO_V1(hroe_item_recv);
/* Binary input: the binary format, fully validated and canonical */
Datum
hroe_item_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			len = buf->len - buf->cursor;
	HroeItem   *item = hroe_item_from_binary(buf->data + buf->cursor, len);

	buf->cursor = buf->len;
	PG_RETURN_HROE_ITEM_P(item);
}

PG_FUNCTION_INFO_V1(hroe_item_send);
/* Binary output: version byte, size, attribute map */
Datum
hroe_item_send(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);

	PG_RETURN_BYTEA_P(hroe_varlena_send(item, VARSIZE(item)));
}

/* Whether two items are equal (canonical bytes) */
static bool
ItemEqual(FunctionCallInfo fcinfo)
{
	Datum		da = PG_GETARG_DATUM(0);
	Datum		db = PG_GETARG_DATUM(1);
	HroeItem   *a,
			   *b;
	bool		eq;

	if (toast_raw_datum_size(da) != toast_raw_datum_size(db))
		return false;
	a = DatumGetHroeItemP(da);
	b = DatumGetHroeItemP(db);
	eq = memcmp(a, b, VARSIZE(a)) == 0;
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return eq;
}

PG_FUNCTION_INFO_V1(hroe_item_eq);
/* item = item */
Datum
hroe_item_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(ItemEqual(fcinfo));
}

PG_FUNCTION_INFO_V1(hroe_item_ne);
/* item <> item */
Datum
hroe_item_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!ItemEqual(fcinfo));
}

PG_FUNCTION_INFO_V1(hroe_item_hash);
/* Hash of the canonical bytes (for the hash opclass) */
Datum
hroe_item_hash(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	Datum		h = hash_any((unsigned char *) item + VARHDRSZ, VARSIZE(item) - VARHDRSZ);

	PG_FREE_IF_COPY(item, 0);
	PG_RETURN_DATUM(h);
}

PG_FUNCTION_INFO_V1(hroe_item_size_of);
/* The DynamoDB size, computed on input */
Datum
hroe_item_size_of(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);

	PG_RETURN_INT32((int32) hroe_item_size(item));
}

/* ---------------------------------------------------------------------
 * Numbers
 * ---------------------------------------------------------------------
 */

/* An N value as a numeric Datum */
Datum
hroe_value_numeric(const HroeValue *v)
{
	const char *p = v->data;
	uint32		len = v->len;
	bool		neg = (len > 0 && p[0] == '-');
	char	   *text;

	const char *dot = memchr(p, '.', len);

	Assert(v->type == HROE_N);
	/*
	 * Up to 18 digits fit an int64: skip the text parser.  A canonical number
	 * has no trailing fraction zeros, so its scale is its fraction length.
	 */
	if (len - (neg ? 1 : 0) - (dot ? 1 : 0) <= 18)
	{
		int64		r = 0;

		for (uint32 i = neg ? 1 : 0; i < len; i++)
			if (p[i] != '.')
				r = r * 10 + (p[i] - '0');
		if (neg)
			r = -r;
		if (dot == NULL)
			return NumericGetDatum(int64_to_numeric(r));
		return NumericGetDatum(int64_div_fast_to_numeric(r, (p + len) - dot - 1));
	}
	text = pnstrdup(p, len);
	return DirectFunctionCall3(numeric_in, CStringGetDatum(text),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* ---------------------------------------------------------------------
 * jsonb: DynamoDB JSON and documents
 * ---------------------------------------------------------------------
 */

/*
 * Raise an error for a string holding U+0000 that is to become PostgreSQL's
 * what (text or jsonb: neither can hold it), never cut it short
 */
static void
RefuseNul(const char *s, uint32 len, const char *what)
{
	const char *nul = len > 0 ? memchr(s, '\0', len) : NULL;

	if (nul)
		ereport(ERROR,
				(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
				 errmsg("a string holding U+0000 cannot be converted to %s", what),
				 errdetail("The string holds U+0000 at byte %d: \"%s\".",
						   (int) (nul - s) + 1, hroe_message_bytes(s, len)),
				 errhint("The JSON API's text entries (hroe.dynamodb_text, hroe-gateway) carry it as \\u0000.")));
}

/* ---------- JSON text and jsonb holding U+0000 ---------- */

/* A JSON number's text as a Numeric (hroe_json_tree_parse's numbers) */
Numeric
hroe_json_tree_numeric(const char *s, int len)
{
	return DatumGetNumeric(DirectFunctionCall3(numeric_in, CStringGetDatum(pnstrdup(s, len)),
											   ObjectIdGetDatum(InvalidOid),
											   Int32GetDatum(-1)));
}

/* Append a jsonb scalar as JSON, strings by their length */
static void
WriteJsonbScalar(StringInfo buf, const JsonbValue *v)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoString(buf, "null");
			break;
		case jbvString:
			hroe_json_string_write(buf, v->val.string.val, v->val.string.len);
			break;
		case jbvNumeric:
			appendStringInfoString(buf, DatumGetCString(DirectFunctionCall1(numeric_out,
																			NumericGetDatum(v->val.numeric))));
			break;
		case jbvBool:
			appendStringInfoString(buf, v->val.boolean ? "true" : "false");
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) v->type);
	}
}

/*
 * Append a jsonb container as JSON text, as JsonbToCString lays it out
 * ("a": 1, "b": [1, 2]) but every string written by its length, U+0000 as
 * \u0000 (JsonbToCString would cut the string at it)
 */
void
hroe_jsonb_write(StringInfo buf, JsonbContainer *c)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	v;
	bool		first = true;	/* nothing yet in the current container */
	bool		after_key = false;	/* a value follows its key */
	bool		raw = false;	/* a scalar at the top, in its pseudo-array */

	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		if (tok == WJB_BEGIN_ARRAY && v.val.array.rawScalar)
		{
			raw = true;
			continue;
		}
		if (tok == WJB_END_ARRAY && raw)
			continue;
		if (tok == WJB_END_OBJECT || tok == WJB_END_ARRAY)
		{
			appendStringInfoChar(buf, tok == WJB_END_OBJECT ? '}' : ']');
			first = false;
			continue;
		}
		/* a key, a value or a container: its separator */
		if (after_key)
			after_key = false;
		else if (!first)
			appendStringInfoString(buf, ", ");
		switch (tok)
		{
			case WJB_BEGIN_OBJECT:
			case WJB_BEGIN_ARRAY:
				appendStringInfoChar(buf, tok == WJB_BEGIN_OBJECT ? '{' : '[');
				first = true;
				break;
			case WJB_KEY:
				hroe_json_string_write(buf, v.val.string.val, v.val.string.len);
				appendStringInfoString(buf, ": ");
				after_key = true;
				break;
			default:
				WriteJsonbScalar(buf, &v);
				first = false;
				break;
		}
	}
}

/* A jsonb container as JSON text (hroe_jsonb_write), palloc'd */
char *
hroe_jsonb_text(JsonbContainer *c)
{
	StringInfoData buf;

	initStringInfo(&buf);
	hroe_jsonb_write(&buf, c);
	return buf.data;
}

/*
 * Raise an error if a string (or a key) of a jsonb holds U+0000: what is
 * about to leave as jsonb, which cannot carry it (what names it)
 */
void
hroe_jsonb_check_no_nul(JsonbContainer *c, const char *what)
{
	JsonbIterator *it = JsonbIteratorInit(c);
	JsonbIteratorToken tok;
	JsonbValue	v;

	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
		if ((tok == WJB_KEY || tok == WJB_VALUE || tok == WJB_ELEM) &&
			v.type == jbvString && v.val.string.len > 0 &&
			memchr(v.val.string.val, '\0', v.val.string.len) != NULL)
			ereport(ERROR,
					(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
					 errmsg("%s holds a string with U+0000, which jsonb cannot carry", what),
					 errdetail("The string: \"%s\".",
							   hroe_message_bytes(v.val.string.val, v.val.string.len)),
					 errhint("The JSON API's text entries (hroe.dynamodb_text, hroe-gateway) carry it as \\u0000.")));
}

/* Push a jsonb string */
static void
PushString(JsonbParseState **st, JsonbIteratorToken tok, const char *s, uint32 len,
		   bool nul_ok)
{
	JsonbValue	v;

	if (!nul_ok)
		RefuseNul(s, len, "jsonb");

	v.type = jbvString;
	v.val.string.val = (char *) s;
	v.val.string.len = len;
	pushJsonbValue(st, tok, &v);
}

/* Push a base64 jsonb string of bytes */
static void
PushBase64(JsonbParseState **st, JsonbIteratorToken tok, const char *s, uint32 len)
{
	HroeValue	b;
	StringInfoData buf;

	/* "{\"B\": \"...\"}": reuse the writer's base64, then strip the frame */
	b.type = HROE_B;
	b.data = s;
	b.len = len;
	initStringInfo(&buf);
	hroe_value_write(&buf, &b);
	PushString(st, tok, buf.data + 7, buf.len - 9, true);
}

/*
 * Push one value: DynamoDB JSON ({"S": "x"}) or, for documents, the plain
 * JSON value (S string, N number, B base64 string, sets arrays).
 */
static JsonbValue *
PushValue(JsonbParseState **st, JsonbIteratorToken tok, const HroeValue *v, bool document,
		  bool nul_ok)
{
	JsonbValue *res = NULL;
	JsonbIteratorToken inner = document ? tok : WJB_VALUE;
	JsonbValue	jv;
	uint32		n,
				i;
	HroeValue	e;

	check_stack_depth();
	if (!document)
	{
		const char *tn = hroe_type_name(v->type);

		pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
		PushString(st, WJB_KEY, tn, strlen(tn), true);
	}
	switch (v->type)
	{
		case HROE_S:
			PushString(st, inner, v->data, v->len, nul_ok);
			break;
		case HROE_N:
			if (document)
			{
				jv.type = jbvNumeric;
				jv.val.numeric = DatumGetNumeric(hroe_value_numeric(v));
				pushJsonbValue(st, inner, &jv);
			}
			else
				PushString(st, inner, v->data, v->len, nul_ok);
			break;
		case HROE_B:
			PushBase64(st, inner, v->data, v->len);
			break;
		case HROE_BOOL:
			jv.type = jbvBool;
			jv.val.boolean = v->data[0] != 0;
			pushJsonbValue(st, inner, &jv);
			break;
		case HROE_NULL:
			if (document)
				jv.type = jbvNull;
			else
			{
				jv.type = jbvBool;
				jv.val.boolean = true;
			}
			pushJsonbValue(st, inner, &jv);
			break;
		case HROE_M:
			n = hroe_value_count(v);
			pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
			for (i = 0; i < n; i++)
			{
				const char *nm;
				uint32		nl;

				hroe_map_entry(v, i, &nm, &nl, &e);
				PushString(st, WJB_KEY, nm, nl, nul_ok);
				PushValue(st, WJB_VALUE, &e, document, nul_ok);
			}
			pushJsonbValue(st, WJB_END_OBJECT, NULL);
			break;
		case HROE_L:
		case HROE_SS:
		case HROE_NS:
		case HROE_BS:
			n = hroe_value_count(v);
			pushJsonbValue(st, WJB_BEGIN_ARRAY, NULL);
			for (i = 0; i < n; i++)
			{
				hroe_list_element(v, i, &e);
				if (v->type == HROE_L)
					PushValue(st, WJB_ELEM, &e, document, nul_ok);
				else if (v->type == HROE_NS && !document)
					PushString(st, WJB_ELEM, e.data, e.len, true);
				else
				{
					/* set members are plain values in both forms */
					PushValue(st, WJB_ELEM, &e, true, nul_ok);
				}
			}
			pushJsonbValue(st, WJB_END_ARRAY, NULL);
			break;
	}
	if (!document)
		res = pushJsonbValue(st, WJB_END_OBJECT, NULL);
	return res;
}

/* A value as a DynamoDB-JSON jsonb datum ({"S": "x"}) */
static Datum
ValueToJsonb(const HroeValue *v)
{
	JsonbParseState *st = NULL;

	return JsonbPGetDatum(JsonbValueToJsonb(PushValue(&st, WJB_VALUE, v, false, false)));
}

/* One AttributeValue as DynamoDB-JSON jsonb */
struct varlena *
hroe_value_to_jsonb(const HroeValue *v)
{
	return (struct varlena *) DatumGetPointer(ValueToJsonb(v));
}

/* One AttributeValue from DynamoDB-JSON jsonb, validated like text input */
void
hroe_value_from_jsonb(struct varlena *jbv, HroeValue *v)
{
	Jsonb	   *jb = (Jsonb *) jbv;
	StringInfoData s;

	/* by the text's length: a string may hold U+0000 */
	initStringInfo(&s);
	hroe_jsonb_write(&s, &jb->root);
	hroe_value_parse(s.data, s.len, v);
}

/*
 * An item from a DynamoDB-JSON jsonb container (len: its size in bytes),
 * validated like text input: the one jsonb-to-item conversion
 */
HroeItem *
hroe_item_from_jsonb(JsonbContainer *c, int len)
{
	StringInfoData s;

	/* by the text's length: a string may hold U+0000 */
	initStringInfo(&s);
	hroe_jsonb_write(&s, c);
	return hroe_item_parse(s.data, s.len);
}

/*
 * Push an item as DynamoDB-JSON (an object of AttributeValues) into a jsonb
 * being built, as its next value or element; returns what pushJsonbValue
 * returns (the whole value when it is the top level)
 */
JsonbValue *
hroe_item_push_jsonb(JsonbParseState **st, const HroeItem *item, bool nul_ok)
{
	HroeValue	m;
	uint32		n;

	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	e;

		hroe_map_entry(&m, i, &nm, &nl, &e);
		PushString(st, WJB_KEY, nm, nl, nul_ok);
		PushValue(st, WJB_VALUE, &e, false, nul_ok);
	}
	return pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

PG_FUNCTION_INFO_V1(hroe_item_to_jsonb);
/* Whole item as DynamoDB-JSON jsonb */
Datum
hroe_item_to_jsonb(PG_FUNCTION_ARGS)
{
	JsonbParseState *st = NULL;

	PG_RETURN_JSONB_P(JsonbValueToJsonb(hroe_item_push_jsonb(&st, PG_GETARG_HROE_ITEM_P(0), false)));
}

PG_FUNCTION_INFO_V1(hroe_item_cast_from_jsonb);
/* DynamoDB-JSON jsonb to an item (same validation as text input) */
Datum
hroe_item_cast_from_jsonb(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);

	PG_RETURN_HROE_ITEM_P(hroe_item_from_jsonb(&jb->root, VARSIZE(jb)));
}

PG_FUNCTION_INFO_V1(hroe_item_to_document);
/* Whole item as a plain JSON document */
Datum
hroe_item_to_document(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	HroeValue	m;
	JsonbParseState *st = NULL;
	JsonbValue *res;
	uint32		n;

	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	e;

		hroe_map_entry(&m, i, &nm, &nl, &e);
		PushString(&st, WJB_KEY, nm, nl, false);
		PushValue(&st, WJB_VALUE, &e, true, false);
	}
	res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	PG_RETURN_JSONB_P(JsonbValueToJsonb(res));
}

static void DocValue(JsonbIterator **it, JsonbIteratorToken tok, JsonbValue *jv,
					 HroeValue *out, int depth);

/* Convert a document object (BEGIN_OBJECT already read) into an M value */
static void
DocObject(JsonbIterator **it, HroeValue *out, int depth)
{
	HroeBuilder *b = hroe_builder_start();
	JsonbValue	jv;
	JsonbIteratorToken tok;

	while ((tok = JsonbIteratorNext(it, &jv, false)) == WJB_KEY)
	{
		char	   *name = jv.val.string.val;
		int			namelen = jv.val.string.len;
		HroeValue	v;

		tok = JsonbIteratorNext(it, &jv, false);
		DocValue(it, tok, &jv, &v, depth);
		hroe_builder_add(b, name, namelen, &v);
	}
	Assert(tok == WJB_END_OBJECT);
	hroe_builder_finish_map(b, out);
}

/* Convert one document value (the token just read) */
static void
DocValue(JsonbIterator **it, JsonbIteratorToken tok, JsonbValue *jv,
		 HroeValue *out, int depth)
{
	check_stack_depth();
	/* a value at most at level 32 (an attribute's value is level 1) */
	if (depth > HROE_ITEM_MAX_DEPTH)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("One or more parameter values were invalid: Nesting Levels have exceeded supported limits")));
	if (tok == WJB_BEGIN_OBJECT || tok == WJB_BEGIN_ARRAY)
	{
		if (tok == WJB_BEGIN_OBJECT)
			DocObject(it, out, depth + 1);
		else
		{
			HroeValue  *elems = NULL;
			int			n = 0,
						cap = 0;
			JsonbValue	ev;

			while ((tok = JsonbIteratorNext(it, &ev, false)) != WJB_END_ARRAY)
			{
				if (n == cap)
				{
					cap = cap ? cap * 2 : 8;
					elems = elems ? repalloc(elems, sizeof(HroeValue) * cap) :
						palloc(sizeof(HroeValue) * cap);
				}
				DocValue(it, tok, &ev, &elems[n++], depth + 1);
			}
			hroe_make_list(elems, n, out);
		}
		return;
	}
	switch (jv->type)
	{
		case jbvString:
			hroe_make_string(jv->val.string.val, jv->val.string.len, out);
			break;
		case jbvNumeric:
			{
				char	   *t = DatumGetCString(DirectFunctionCall1(numeric_out,
																	NumericGetDatum(jv->val.numeric)));

				hroe_make_number(t, strlen(t), out);
				break;
			}
		case jbvBool:
			hroe_make_bool(jv->val.boolean, out);
			break;
		case jbvNull:
			hroe_make_null(out);
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", jv->type);
	}
}

PG_FUNCTION_INFO_V1(hroe_item_from_document);
/* A plain JSON document (string, number, boolean, null, array, object) to an item */
Datum
hroe_item_from_document(PG_FUNCTION_ARGS)
{
	Jsonb	   *jb = PG_GETARG_JSONB_P(0);
	JsonbIterator *it;
	JsonbValue	jv;
	HroeValue	m;

	if (!JB_ROOT_IS_OBJECT(jb))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a document must be a JSON object"),
				 errdetail("An item is a map of attribute names to values.")));
	it = JsonbIteratorInit(&jb->root);
	(void) JsonbIteratorNext(&it, &jv, false);	/* WJB_BEGIN_OBJECT */
	DocObject(&it, &m, 1);
	PG_RETURN_HROE_ITEM_P(hroe_item_from_map(&m));
}

/* ---------------------------------------------------------------------
 * Access
 * ---------------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(hroe_item_exists);
/* item ? name: whether a top-level attribute exists */
Datum
hroe_item_exists(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *name = PG_GETARG_TEXT_PP(1);
	HroeValue	m,
				v;

	hroe_item_root(item, &m);
	PG_RETURN_BOOL(hroe_map_find(&m, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &v));
}

PG_FUNCTION_INFO_V1(hroe_item_path_exists);
/* Whether a document path exists */
Datum
hroe_item_path_exists(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *path = PG_GETARG_TEXT_PP(1);
	HroeValue	v;

	PG_RETURN_BOOL(hroe_item_path(item, VARDATA_ANY(path), VARSIZE_ANY_EXHDR(path), &v));
}

PG_FUNCTION_INFO_V1(hroe_item_get_attribute);
/* item -> name: a top-level attribute as DynamoDB JSON, NULL if missing */
Datum
hroe_item_get_attribute(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *name = PG_GETARG_TEXT_PP(1);
	HroeValue	m,
				v;

	hroe_item_root(item, &m);
	if (!hroe_map_find(&m, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &v))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(ValueToJsonb(&v));
}

/* Look up a path argument; false if missing */
static bool
GetPath(FunctionCallInfo fcinfo, HroeValue *v)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *path = PG_GETARG_TEXT_PP(1);

	return hroe_item_path(item, VARDATA_ANY(path), VARSIZE_ANY_EXHDR(path), v);
}

PG_FUNCTION_INFO_V1(hroe_item_get);
/* item #> path: a value as DynamoDB JSON, NULL if missing */
Datum
hroe_item_get(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetPath(fcinfo, &v))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(ValueToJsonb(&v));
}

PG_FUNCTION_INFO_V1(hroe_item_get_type);
/* The DynamoDB type name of a value ("S", "NS", ...), NULL if missing */
Datum
hroe_item_get_type(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetPath(fcinfo, &v))
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(cstring_to_text(hroe_type_name(v.type)));
}

/*
 * A typed getter's value: false when the path is absent, an error when the
 * value has another type than want
 */
static bool
GetTyped(FunctionCallInfo fcinfo, HroeValue *v, HroeType want)
{
	if (!GetPath(fcinfo, v))
		return false;
	if (v->type != want)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("attribute \"%s\" is of type %s, not %s",
						text_to_cstring(PG_GETARG_TEXT_PP(1)),
						hroe_type_name(v->type), hroe_type_name(want))));
	return true;
}

PG_FUNCTION_INFO_V1(hroe_item_get_text);
/* An S value as text */
Datum
hroe_item_get_text(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetTyped(fcinfo, &v, HROE_S))
		PG_RETURN_NULL();
	RefuseNul(v.data, v.len, "text");
	PG_RETURN_TEXT_P(cstring_to_text_with_len(v.data, v.len));
}

PG_FUNCTION_INFO_V1(hroe_item_get_key);
/* An S value as hroe.key (errors if it is not a valid key: empty, too long) */
Datum
hroe_item_get_key(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetTyped(fcinfo, &v, HROE_S))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(hroe_key_from_string(v.data, v.len));
}

PG_FUNCTION_INFO_V1(hroe_item_get_number);
/* An N value as numeric */
Datum
hroe_item_get_number(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetTyped(fcinfo, &v, HROE_N))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(hroe_value_numeric(&v));
}

PG_FUNCTION_INFO_V1(hroe_item_get_binary);
/* A B value as bytea */
Datum
hroe_item_get_binary(PG_FUNCTION_ARGS)
{
	HroeValue	v;
	bytea	   *b;

	if (!GetTyped(fcinfo, &v, HROE_B))
		PG_RETURN_NULL();
	b = palloc(VARHDRSZ + v.len);
	SET_VARSIZE(b, VARHDRSZ + v.len);
	memcpy(VARDATA(b), v.data, v.len);
	PG_RETURN_BYTEA_P(b);
}

PG_FUNCTION_INFO_V1(hroe_item_get_bool);
/* A BOOL value as boolean */
Datum
hroe_item_get_bool(PG_FUNCTION_ARGS)
{
	HroeValue	v;

	if (!GetTyped(fcinfo, &v, HROE_BOOL))
		PG_RETURN_NULL();
	PG_RETURN_BOOL(v.data[0] != 0);
}

/* ---------------------------------------------------------------------
 * Merge and remove
 * ---------------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(hroe_item_merge);
/* a || b: all attributes of both; b's value wins for a name in both */
Datum
hroe_item_merge(PG_FUNCTION_ARGS)
{
	HroeItem   *a = PG_GETARG_HROE_ITEM_P(0);
	HroeItem   *b = PG_GETARG_HROE_ITEM_P(1);
	HroeBuilder *bld = hroe_builder_start();
	HroeItem   *items[2] = {a, b};

	for (int k = 0; k < 2; k++)
	{
		HroeValue	m;
		uint32		n;

		hroe_item_root(items[k], &m);
		n = hroe_value_count(&m);
		for (uint32 i = 0; i < n; i++)
		{
			const char *nm;
			uint32		nl;
			HroeValue	v;

			hroe_map_entry(&m, i, &nm, &nl, &v);
			hroe_builder_add(bld, nm, nl, &v);
		}
	}
	PG_RETURN_HROE_ITEM_P(hroe_builder_finish(bld));
}

PG_FUNCTION_INFO_V1(hroe_item_set);
/* The item with one attribute set from a DynamoDB-JSON AttributeValue */
Datum
hroe_item_set(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *name = PG_GETARG_TEXT_PP(1);
	HroeValue	m,
				val;
	HroeBuilder *bld = hroe_builder_start();
	uint32		n;

	hroe_value_from_jsonb((struct varlena *) PG_GETARG_JSONB_P(2), &val);
	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		hroe_map_entry(&m, i, &nm, &nl, &v);
		hroe_builder_add(bld, nm, nl, &v);
	}
	hroe_builder_add(bld, VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), &val);
	PG_RETURN_HROE_ITEM_P(hroe_builder_finish(bld));
}

/* Copy an item without the named top-level attributes */
static HroeItem *
RemoveNames(HroeItem *item, text **names, int nnames)
{
	HroeBuilder *bld = hroe_builder_start();
	HroeValue	m;
	uint32		n;

	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;
		bool		drop = false;

		hroe_map_entry(&m, i, &nm, &nl, &v);
		for (int j = 0; j < nnames && !drop; j++)
			drop = (VARSIZE_ANY_EXHDR(names[j]) == nl &&
					memcmp(VARDATA_ANY(names[j]), nm, nl) == 0);
		if (!drop)
			hroe_builder_add(bld, nm, nl, &v);
	}
	return hroe_builder_finish(bld);
}

PG_FUNCTION_INFO_V1(hroe_item_remove);
/* item - text[] (and the VARIADIC function): without those attributes */
Datum
hroe_item_remove(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(1);
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				k = 0;
	text	  **names;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, &n);
	names = palloc(sizeof(text *) * (n + 1));
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			names[k++] = DatumGetTextPP(elems[i]);
	PG_RETURN_HROE_ITEM_P(RemoveNames(item, names, k));
}

PG_FUNCTION_INFO_V1(hroe_item_remove_one);
/* item - text: without that attribute */
Datum
hroe_item_remove_one(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *name = PG_GETARG_TEXT_PP(1);

	PG_RETURN_HROE_ITEM_P(RemoveNames(item, &name, 1));
}

PG_FUNCTION_INFO_V1(hroe_item_attributes);
/* The top-level attribute names, in canonical order */
Datum
hroe_item_attributes(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	HroeValue	m;
	uint32		n;
	Datum	   *names;

	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	names = palloc(sizeof(Datum) * (n + 1));
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		hroe_map_entry(&m, i, &nm, &nl, &v);
		RefuseNul(nm, nl, "text");
		names[i] = PointerGetDatum(cstring_to_text_with_len(nm, nl));
	}
	PG_RETURN_ARRAYTYPE_P(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
}
