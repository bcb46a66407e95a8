/*-------------------------------------------------------------------------
 *
 * expression_fuzzer.c
 *	  libFuzzer harness for the DynamoDB expression modules: the parser
 *	  (src/expr/expression_*.c: conditions, the KeyCondition pass, updates,
 *	  projections), condition evaluation (src/expr/expression_eval.c) and update
 *	  and projection application (src/expr/expression_update.c,
 *	  expression_project.c), run outside the server on test/fuzz/shim.c.
 *
 * Input: one mode byte, the expression, then optionally a NUL byte and an
 * item in DynamoDB JSON (a fixed item otherwise).  The placeholders are a
 * fixed set covering every type (below).  Oracles: an item that an update,
 * a projection or an update's paths (ReturnValues UPDATED_*) give must be
 * canonical (its text and binary forms parse back to the same bytes) and at
 * most 400 KB; evaluation must not fail on an expression the parser
 * accepted.
 *
 * Build and run with test/fuzz/run-expression.sh.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "expression.h"
#include "item.h"
#include "shim.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ExpressionAttributeNames of every input */
static const char *const Names[][2] = {
	{"#a", "a"}, {"#b", "b"}, {"#n", "name"}, {"#d", "a.b"}, {"#l", "l"},
	{"#m", "m"}, {"#pk", "pk"}, {"#e", "é"}, {"#z", "pk\0z"}
};

/* Their lengths: "#z" is "pk", U+0000, "z" (names may hold it) */
static const int NameLens[] = {1, 1, 4, 3, 1, 1, 2, 2, 4};

/* ExpressionAttributeValues of every input, in DynamoDB JSON */
static const char *const Values[][2] = {
	{":s", "{\"S\": \"ab\"}"}, {":e", "{\"S\": \"\"}"}, {":t", "{\"S\": \"L\"}"},
	{":n", "{\"N\": \"1.5\"}"}, {":z", "{\"N\": \"0\"}"}, {":neg", "{\"N\": \"-7\"}"},
	{":big", "{\"N\": \"9.9999999999999999999999999999999999999E+125\"}"},
	{":tiny", "{\"N\": \"1E-130\"}"}, {":b", "{\"B\": \"AAE=\"}"},
	{":bool", "{\"BOOL\": true}"}, {":null", "{\"NULL\": true}"},
	{":l", "{\"L\": [{\"S\": \"ab\"}, {\"N\": \"1\"}]}"}, {":el", "{\"L\": []}"},
	{":m", "{\"M\": {\"a\": {\"N\": \"1\"}}}"}, {":ss", "{\"SS\": [\"ab\", \"c\"]}"},
	{":ns", "{\"NS\": [\"1\", \"1.5\"]}"}, {":bs", "{\"BS\": [\"AAE=\"]}"}
};

static const char DefaultItem[] =
"{\"pk\": {\"S\": \"k\"}, \"a\": {\"N\": \"1\"}, \"b\": {\"S\": \"abc\"}, "
"\"l\": {\"L\": [{\"S\": \"ab\"}, {\"N\": \"1\"}, {\"M\": {\"a\": {\"SS\": [\"c\"]}}}]}, "
"\"m\": {\"M\": {\"a\": {\"M\": {\"b\": {\"NS\": [\"1\", \"2\"]}}}, \"l\": {\"L\": []}}}, "
"\"ss\": {\"SS\": [\"ab\"]}, \"bs\": {\"BS\": [\"AAE=\", \"AAI=\"]}, \"x\": {\"B\": \"AAEC\"}, "
"\"t\": {\"BOOL\": false}, \"u\": {\"NULL\": true}}";

/* Stop with a message: an oracle failed */
static void
Fail(const char *what)
{
	fprintf(stderr, "ORACLE FAILED: %s\n", what);
	abort();
}

/* The placeholder maps, built without jsonb (values have json == NULL) */
static HroeExprContext *
MakeContext(void)
{
	HroeExprContext *cxt = palloc0(sizeof(HroeExprContext));

	cxt->nnames = lengthof(Names);
	cxt->name_keys = palloc(sizeof(char *) * cxt->nnames);
	cxt->name_values = palloc(sizeof(char *) * cxt->nnames);
	cxt->name_lens = palloc(sizeof(int) * cxt->nnames);
	cxt->name_used = palloc0(sizeof(bool) * cxt->nnames);
	StaticAssertStmt(lengthof(NameLens) == lengthof(Names), "a length per name");
	for (int i = 0; i < cxt->nnames; i++)
	{
		cxt->name_keys[i] = (char *) Names[i][0];
		cxt->name_values[i] = (char *) Names[i][1];
		cxt->name_lens[i] = NameLens[i];
	}
	cxt->nvalues = lengthof(Values);
	cxt->value_keys = palloc(sizeof(char *) * cxt->nvalues);
	cxt->values = palloc(sizeof(HroeAttrValue *) * cxt->nvalues);
	cxt->value_used = palloc0(sizeof(bool) * cxt->nvalues);
	for (int i = 0; i < cxt->nvalues; i++)
	{
		HroeAttrValue *av = palloc0(sizeof(HroeAttrValue));

		av->hv = palloc(sizeof(HroeValue));
		hroe_value_parse(Values[i][1], strlen(Values[i][1]), av->hv);
		strlcpy(av->type, hroe_type_name(av->hv->type), sizeof(av->type));
		if (av->hv->type == HROE_S || av->hv->type == HROE_N || av->hv->type == HROE_B)
		{
			/* NUL-ended, as hroe_attr_value_from_jsonb makes them */
			av->data = palloc(av->hv->len + 1);
			memcpy(av->data, av->hv->data, av->hv->len);
			av->data[av->hv->len] = '\0';
			av->len = av->hv->len;
		}
		cxt->value_keys[i] = (char *) Values[i][0];
		cxt->values[i] = av;
	}
	return cxt;
}

/* An item an update or projection produced must be canonical and fit */
static void
CheckResult(HroeItem *item)
{
	StringInfoData buf;
	HroeItem   *again;

	if (hroe_item_size(item) > HROE_ITEM_MAX_SIZE)
		Fail("a result exceeds 400 KB");
	initStringInfo(&buf);
	hroe_item_write(&buf, item);
	again = hroe_item_parse(buf.data, buf.len);
	if (VARSIZE(again) != VARSIZE(item) || memcmp(again, item, VARSIZE(item)) != 0)
		Fail("a result changed on its text round trip");
	again = hroe_item_from_binary((char *) item + VARHDRSZ, VARSIZE(item) - VARHDRSZ);
	if (VARSIZE(again) != VARSIZE(item) || memcmp(again, item, VARSIZE(item)) != 0)
		Fail("a result is not in canonical binary form");
}

/* Run one step; false if it raised an error (expected for bad input) */
#define TRY(stmt) \
	do { \
		sigjmp_buf	jb_; \
		shim_jmp = &jb_; \
		ok = sigsetjmp(jb_, 0) == 0; \
		if (ok) { stmt; } \
		shim_jmp = &outer; \
	} while (0)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool started = false;
	sigjmp_buf	outer;
	volatile bool ok;
	uint8_t		mode;
	const char *sep;
	char	   *expr;
	HroeItem   *volatile item = NULL;
	HroeExprContext *volatile cxt = NULL;

	if (!started)
	{
		ShimSetStackBase();
		started = true;
	}
	if (size < 1 || size > 65536)
		return 0;
	mode = data[0];
	shim_jmp = &outer;
	if (sigsetjmp(outer, 0) != 0)
		Fail("an error escaped a step");
	/* palloc'd copies, so ASan sees reads past their ends */
	sep = memchr(data + 1, '\0', size - 1);
	expr = pnstrdup((const char *) data + 1, sep ? (size_t) (sep - (const char *) data - 1) : size - 1);
	TRY(cxt = MakeContext());
	if (!ok)
		Fail("the fixed placeholders do not parse");
	if (sep)
	{
		int			len = (int) (size - (sep + 1 - (const char *) data));
		char	   *json = pnstrdup(sep + 1, len);

		TRY(item = hroe_item_parse(json, strlen(json)));
	}
	if (item == NULL)
	{
		TRY(item = hroe_item_parse(DefaultItem, strlen(DefaultItem)));
		if (!ok)
			Fail("the default item does not parse");
	}

	switch (mode % 4)
	{
		case 0:					/* ConditionExpression, evaluated */
		case 1:					/* ... and the KeyConditionExpression pass */
			{
				HroeExprNode *volatile root = NULL;

				TRY(root = hroe_expr_parse(cxt, "ConditionExpression", expr));
				if (!ok)
					break;
				TRY((void) hroe_expr_eval(root, item));
				if (!ok)
					Fail("evaluating an accepted condition raised an error");
				TRY((void) hroe_expr_eval(root, NULL));
				if (!ok)
					Fail("evaluating an accepted condition on no item raised an error");
				if (mode % 4 == 1)
				{
					HroeKeyCondition kc;

					/* as a Query's, then as a PartiQL SELECT's (bounds merged) */
					TRY(hroe_key_condition_extract(root, &kc, false));
					TRY(hroe_key_condition_extract(root, &kc, true));
				}
				TRY(hroe_expr_check_unused(cxt));
				break;
			}
		case 2:					/* UpdateExpression, applied */
			{
				HroeUpdateExpr *volatile upd = NULL;
				HroeItem   *volatile result = NULL;
				static const char *const keys[] = {"pk"};

				TRY(upd = hroe_update_parse(cxt, expr));
				if (!ok)
					break;
				TRY(hroe_update_check_keys(upd, keys, mode & 4 ? 1 : 0));
				if (!ok)
					break;
				TRY(result = hroe_update_apply(upd, item, NULL));
				if (ok)
				{
					CheckResult(result);
					/* ReturnValues UPDATED_OLD / UPDATED_NEW */
					TRY(CheckResult(hroe_project(hroe_update_paths(upd), item)));
					if (!ok)
						Fail("projecting an update's paths on the old item raised an error");
					TRY(CheckResult(hroe_project(hroe_update_paths(upd), result)));
					if (!ok)
						Fail("projecting an update's paths on the new item raised an error");
				}
				TRY(result = hroe_update_apply(upd, NULL, NULL));
				if (ok)
					CheckResult(result);
				break;
			}
		case 3:					/* ProjectionExpression */
			{
				List	   *volatile paths = NIL;
				HroeItem   *volatile result = NULL;

				TRY(paths = hroe_projection_parse(cxt, expr));
				if (!ok)
					break;
				TRY(result = hroe_project(paths, item));
				if (!ok)
					Fail("projecting with an accepted projection raised an error");
				CheckResult(result);
				if (hroe_item_size(result) > hroe_item_size(item))
					Fail("a projection is larger than its item");
				break;
			}
	}
	shim_jmp = NULL;
	ShimReset();
	return 0;
}
