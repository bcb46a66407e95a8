/*-------------------------------------------------------------------------
 *
 * api_billing.c
 *	  The JSON API's billing modes and provisioned throughput: reading
 *	  BillingMode and ProvisionedThroughput members (a table's, a GSI's)
 *	  with DynamoDB's validation errors, which DynamoDB reports together
 *	  ("2 validation errors detected: ...; ...").  hroe keeps and describes
 *	  the throughput (tables_meta.sql); it does not enforce it.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "api_internal.h"


/* DynamoDB's message of the validation errors errs (a List of char *) */
void
hroe_api_raise_errors(List *errs)
{
	StringInfoData s;
	ListCell   *lc;

	if (errs == NIL)
		return;
	initStringInfo(&s);
	appendStringInfo(&s, "%d validation error%s detected: ", list_length(errs),
					 list_length(errs) > 1 ? "s" : "");
	foreach(lc, errs)
		appendStringInfo(&s, "%s%s", foreach_current_index(lc) > 0 ? "; " : "",
						 (char *) lfirst(lc));
	hroe_api_invalid(s.data);
}

/* A numeric Datum of the C integer n */
static Datum
NumericOf(int64 n)
{
	return NumericGetDatum(int64_to_numeric(n));
}

/*
 * One capacity member (ReadCapacityUnits, WriteCapacityUnits: member, its
 * path in messages: path) of a ProvisionedThroughput object; 0 and an
 * error in errs if it is missing or below 1; its text in *over if it
 * exceeds DynamoDB's bound (the caller reports that after the other checks)
 */
static int64
Capacity(JsonbContainer *tp, const char *member, const char *path, List **errs, char **over)
{
	JsonbValue *v = hroe_api_member(tp, member);
	Datum		n;
	char	   *text;

	if (v == NULL)
	{
		*errs = lappend(*errs, hroe_not_null_constraint(path));
		return 0;
	}
	if (v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
	n = NumericGetDatum(v->val.numeric);
	text = DatumGetCString(DirectFunctionCall1(numeric_out, n));
	if (DatumGetBool(DirectFunctionCall2(numeric_lt, n, NumericOf(1))))
	{
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have value greater than or equal to 1",
										text, path));
		return 0;
	}
	if (DatumGetBool(DirectFunctionCall2(numeric_gt, n, NumericOf(HROE_THROUGHPUT_MAX))))
	{
		if (*over == NULL)
			*over = psprintf("Given value %s for %s is out of bounds", text, member);
		return HROE_THROUGHPUT_MAX;
	}
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, n));
}

/*
 * The ProvisionedThroughput member of obj (path: its name in DynamoDB's
 * messages, e.g. "provisionedThroughput"), into *tp; its members' errors
 * are added to errs, in DynamoDB's order (WriteCapacityUnits first); an
 * out-of-bounds value is kept in tp->over
 */
void
hroe_api_throughput(JsonbContainer *obj, const char *path, ApiThroughput *tp, List **errs)
{
	JsonbValue *v = hroe_api_member(obj, "ProvisionedThroughput");
	JsonbContainer *c;

	memset(tp, 0, sizeof(*tp));
	if (v == NULL)
		return;
	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		HroeSerialization("Unexpected value type in payload: ProvisionedThroughput");
	c = v->val.binary.data;
	tp->given = true;
	tp->write = Capacity(c, "WriteCapacityUnits", psprintf("%s.writeCapacityUnits", path), errs, &tp->over);
	tp->read = Capacity(c, "ReadCapacityUnits", psprintf("%s.readCapacityUnits", path), errs, &tp->over);
}

/* The BillingMode member of req (NULL if absent); an invalid one's error added to errs */
char *
hroe_api_billing_mode(JsonbContainer *req, List **errs)
{
	char	   *mode = hroe_api_member_text(req, "BillingMode", "BillingMode");

	if (mode && strcmp(mode, "PROVISIONED") != 0 && strcmp(mode, "PAY_PER_REQUEST") != 0)
		*errs = lappend(*errs, psprintf("Value '%s' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
										mode));
	return mode;
}

/* {"index": [read, write]}: the throughput of GSIs, for tables_meta.sql */
void
hroe_api_push_throughput(JsonbParseState **st, const char *index, const ApiThroughput *tp)
{
	hroe_jsonb_push_key(st, index);
	pushJsonbValue(st, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < 2; i++)
	{
		JsonbValue	n;

		n.type = jbvNumeric;
		n.val.numeric = int64_to_numeric(i == 0 ? tp->read : tp->write);
		pushJsonbValue(st, WJB_ELEM, &n);
	}
	pushJsonbValue(st, WJB_END_ARRAY, NULL);
}
