/*-------------------------------------------------------------------------
 *
 * fuzz_item.c
 *	  libFuzzer harness for the hroe.item and hroe.item_collection input
 *	  functions (text and binary), with round-trip oracles: whatever input
 *	  accepts must print, parse back and re-encode to the very same bytes,
 *	  and its stored size must equal the size formula over its attributes.
 *
 * The first input byte picks the target; the rest is the input: item text
 * and binary, one AttributeValue, collection text and binary, numbers and
 * paths, and the JSON API's request reader (any JSON, U+0000 kept).  Build
 * and run with test/fuzz/run.sh.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "utils/jsonb.h"

#include "collection.h"
#include "item.h"
#include "shim.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop with a message: an oracle failed */
static void
Fail(const char *what)
{
	fprintf(stderr, "ORACLE FAILED: %s\n", what);
	abort();
}

/*
 * Run fn(arg) expecting no error: an error inside means accepted output did
 * not parse back, which is a bug.
 */
static void
MustSucceed(void (*fn) (void *), void *arg, const char *what)
{
	sigjmp_buf	jb;
	sigjmp_buf *saved = shim_jmp;

	shim_jmp = &jb;
	if (sigsetjmp(jb, 0) != 0)
		Fail(what);
	fn(arg);
	shim_jmp = saved;
}

/* Checks on an accepted item: text and binary round trips, size, lookups */
typedef struct ItemCheck
{
	HroeItem   *item;
} ItemCheck;

/* The item oracles */
static void
CheckItemBody(void *arg)
{
	HroeItem   *item = ((ItemCheck *) arg)->item;
	StringInfoData buf;
	HroeItem   *again,
			   *bin;
	HroeValue	m;
	uint32		n;
	int64		size = 0;
	HroeBuilder *b;

	initStringInfo(&buf);
	hroe_item_write(&buf, item);
	again = hroe_item_parse(buf.data, buf.len);
	if (VARSIZE(again) != VARSIZE(item) || memcmp(again, item, VARSIZE(item)) != 0)
		Fail("text round trip changed the item");
	bin = hroe_item_from_binary((char *) item + VARHDRSZ, VARSIZE(item) - VARHDRSZ);
	if (VARSIZE(bin) != VARSIZE(item) || memcmp(bin, item, VARSIZE(item)) != 0)
		Fail("binary round trip changed the item");

	hroe_item_root(item, &m);
	n = hroe_value_count(&m);
	b = hroe_builder_start();
	for (uint32 i = 0; i < n; i++)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v,
					f;

		hroe_map_entry(&m, i, &nm, &nl, &v);
		size += nl + hroe_value_size(&v);
		if (!hroe_map_find(&m, nm, nl, &f) || !hroe_value_equal(&v, &f))
			Fail("binary search did not find an attribute");
		/* add twice, in reverse order: later wins, order is canonical */
		hroe_builder_add(b, nm, nl, &v);
	}
	for (uint32 i = n; i > 0; i--)
	{
		const char *nm;
		uint32		nl;
		HroeValue	v;

		hroe_map_entry(&m, i - 1, &nm, &nl, &v);
		hroe_builder_add(b, nm, nl, &v);
	}
	if (size != (int64) hroe_item_size(item))
		Fail("stored size differs from the size formula");
	again = hroe_builder_finish(b);
	if (VARSIZE(again) != VARSIZE(item) || memcmp(again, item, VARSIZE(item)) != 0)
		Fail("rebuilding the item changed it");
}

/* Run the item oracles, which must not fail */
static void
CheckItem(HroeItem *item)
{
	ItemCheck	c = {item};

	MustSucceed(CheckItemBody, &c, "an accepted item failed its round trips");
}

/* Checks on an accepted collection */
static void
CheckCollectionBody(void *arg)
{
	HroeCollection *c = (HroeCollection *) arg;
	StringInfoData buf;
	HroeCollection *again;
	uint32		n = hroe_collection_count(c);
	uint64		size = 0;

	initStringInfo(&buf);
	hroe_collection_write(&buf, c);
	again = hroe_collection_parse(buf.data, buf.len);
	if (VARSIZE(again) != VARSIZE(c) || memcmp(again, c, VARSIZE(c)) != 0)
		Fail("collection text round trip changed it");
	again = hroe_collection_from_binary((char *) c + VARHDRSZ, VARSIZE(c) - VARHDRSZ);
	if (VARSIZE(again) != VARSIZE(c) || memcmp(again, c, VARSIZE(c)) != 0)
		Fail("collection binary round trip changed it");
	for (uint32 i = 0; i < n; i++)
	{
		HroeCollectionEntry e;
		HroeItem   *item;

		hroe_collection_entry(c, i, &e);
		if (hroe_collection_lower_bound(c, e.key, e.keylen, false) != i ||
			hroe_collection_lower_bound(c, e.key, e.keylen, true) != i + 1)
			Fail("binary search did not find a sort key");
		item = hroe_collection_item(&e);
		size += hroe_item_size(item);
		CheckItem(item);
	}
	if (size != hroe_collection_size(c))
		Fail("collection size differs from the sum of its items");
	if (n > 0)
	{
		again = hroe_collection_slice(c, n / 3, n);
		if (hroe_collection_count(again) != n - n / 3)
			Fail("slice has the wrong count");
	}
}

/* Checks on an accepted number */
typedef struct NumCheck
{
	const char *canon;
	int			len;
} NumCheck;

/* The number oracles */
static void
CheckNumberBody(void *arg)
{
	NumCheck   *nc = arg;
	int			l;
	char	   *again = hroe_number_normalize(nc->canon, nc->len, &l);

	if (l != nc->len || memcmp(again, nc->canon, l) != 0)
		Fail("normalising a canonical number changed it");
	if (hroe_number_compare(nc->canon, nc->len, again, l) != 0)
		Fail("a number does not compare equal to itself");
}

/* Checks on an accepted AttributeValue */
static void
CheckValueBody(void *arg)
{
	HroeValue  *v = arg;
	StringInfoData buf;
	HroeValue	again;

	initStringInfo(&buf);
	hroe_value_write(&buf, v);
	hroe_value_parse(buf.data, buf.len, &again);
	if (!hroe_value_equal(v, &again))
		Fail("value text round trip changed it");
}

/* Write a request reader's tree back as JSON (strings by their lengths) */
static void
WriteTree(StringInfo buf, const JsonbValue *v, bool *has_nul)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoString(buf, "null");
			break;
		case jbvBool:
			appendStringInfoString(buf, v->val.boolean ? "true" : "false");
			break;
		case jbvNumeric:
			/* the shim's "Numeric" is the number's text (shim.c) */
			appendStringInfoString(buf, (const char *) v->val.numeric);
			break;
		case jbvString:
			if (v->val.string.len > 0 && memchr(v->val.string.val, '\0', v->val.string.len))
				*has_nul = true;
			hroe_json_string_write(buf, v->val.string.val, v->val.string.len);
			break;
		case jbvArray:
			appendStringInfoChar(buf, '[');
			for (int i = 0; i < v->val.array.nElems; i++)
			{
				if (i > 0)
					appendStringInfoChar(buf, ',');
				WriteTree(buf, &v->val.array.elems[i], has_nul);
			}
			appendStringInfoChar(buf, ']');
			break;
		case jbvObject:
			appendStringInfoChar(buf, '{');
			for (int i = 0; i < v->val.object.nPairs; i++)
			{
				const JsonbValue *k = &v->val.object.pairs[i].key;

				/* keys in jsonb's order (length, then bytes), each once */
				if (i > 0)
				{
					const JsonbValue *p = &v->val.object.pairs[i - 1].key;

					if (p->val.string.len > k->val.string.len ||
						(p->val.string.len == k->val.string.len &&
						 memcmp(p->val.string.val, k->val.string.val, k->val.string.len) >= 0))
						Fail("object keys out of jsonb's order or duplicated");
					appendStringInfoChar(buf, ',');
				}
				WriteTree(buf, k, has_nul);
				appendStringInfoChar(buf, ':');
				WriteTree(buf, &v->val.object.pairs[i].value, has_nul);
			}
			appendStringInfoChar(buf, '}');
			break;
		default:
			Fail("unexpected value type in the request reader's tree");
	}
}

/* The request reader's oracles: its tree printed reads back to the same */
static void
CheckTreeBody(void *arg)
{
	const JsonbValue *tree = arg;
	StringInfoData a,
				b;
	bool		nul_a = false,
				nul_b = false,
				reported;

	initStringInfo(&a);
	WriteTree(&a, tree, &nul_a);
	initStringInfo(&b);
	WriteTree(&b, hroe_json_tree_parse(a.data, a.len, &reported), &nul_b);
	if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
		Fail("the request reader's tree changed in a round trip");
	if (reported != nul_a || nul_a != nul_b)
		Fail("the request reader misreported U+0000");
}

/* The fuzz target: first byte picks the input function */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sigjmp_buf	jb;
	uint8_t		mode;
	char	   *input;
	int			len;

	if (size < 1 || size > (1 << 22))
		return 0;
	mode = data[0];
	len = (int) size - 1;
	shim_jmp = &jb;
	if (sigsetjmp(jb, 0) == 0)
	{
		/* a palloc'd copy, so ASan sees reads past its end */
		input = palloc(len + 1);
		memcpy(input, data + 1, len);
		input[len] = '\0';
		switch (mode % 7)
		{
			case 0:				/* item text input */
				CheckItem(hroe_item_parse(input, len));
				break;
			case 1:				/* item binary input */
				CheckItem(hroe_item_from_binary(input, len));
				break;
			case 2:				/* one AttributeValue */
				{
					HroeValue	v;

					hroe_value_parse(input, len, &v);
					MustSucceed(CheckValueBody, &v, "an accepted value failed its round trip");
					break;
				}
			case 3:				/* collection text input */
				MustSucceed(CheckCollectionBody, hroe_collection_parse(input, len),
							"an accepted collection failed its round trips");
				break;
			case 4:				/* collection binary input */
				MustSucceed(CheckCollectionBody, hroe_collection_from_binary(input, len),
							"an accepted binary collection failed its round trips");
				break;
			case 5:				/* numbers, and document paths on a fixed item */
				{
					NumCheck	nc;
					HroeItem   *it;
					HroeValue	v;

					if (len > 0 && input[0] == '.')
					{
						it = hroe_item_parse("{\"a\": {\"M\": {\"b\": {\"L\": [{\"N\": \"1\"}, {\"M\": {\"c\": {\"S\": \"x\"}}}]}}}}", 49);
						(void) hroe_item_path(it, input + 1, len - 1, &v);
						break;
					}
					nc.canon = hroe_number_normalize(input, len, &nc.len);
					MustSucceed(CheckNumberBody, &nc, "an accepted number failed its checks");
					break;
				}
			case 6:				/* the JSON API's request reader */
				{
					bool		has_nul;
					JsonbValue *tree = hroe_json_tree_parse(input, len, &has_nul);
					bool		seen = false;
					StringInfoData buf;

					/*
					 * never under-reported (a duplicated key's dropped value
					 * may have held the only U+0000: reported, conservatively)
					 */
					initStringInfo(&buf);
					WriteTree(&buf, tree, &seen);
					if (seen && !has_nul)
						Fail("the request reader missed a U+0000");
					MustSucceed(CheckTreeBody, tree, "an accepted request failed its round trip");
					break;
				}
		}
	}
	shim_jmp = NULL;
	ShimReset();
	return 0;
}
