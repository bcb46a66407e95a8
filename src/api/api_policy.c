/*-------------------------------------------------------------------------
 *
 * api_policy.c
 *	  The JSON API's resource-based policy operations: PutResourcePolicy,
 *	  GetResourcePolicy, DeleteResourcePolicy, and CreateTable's
 *	  ResourcePolicy.  A request names a table or its stream by ARN; the
 *	  policies are kept by hroe's SQL functions (src/tables/policy.sql),
 *	  where only a member of the role owning a table may change them, and
 *	  enforced by src/tables/tables_policy.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "policy.h"

/*
 * Run one statement of hroe's policy functions (its arguments text, NULL
 * for a NULL): its single row (not read-only: a new snapshot sees what
 * earlier statements of the call wrote)
 */
static HeapTuple
RunPolicyStatement(const char *sql, int nargs, const char *const *args)
{
	Oid			types[3] = {TEXTOID, TEXTOID, TEXTOID};
	Datum		values[3];
	char		nulls[3];
	int			ret;

	for (int i = 0; i < nargs; i++)
	{
		values[i] = args[i] ? CStringGetTextDatum(args[i]) : (Datum) 0;
		nulls[i] = args[i] ? ' ' : 'n';
	}
	ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	return SPI_tuptable->vals[0];
}

/* A column of the statement's row, as a C string (NULL for a NULL) */
static char *
Column(HeapTuple tup, int col)
{
	return SPI_getvalue(tup, SPI_tuptable->tupdesc, col);
}

/* A string member's length error (DynamoDB's constraint text), or NULL */
static void
CheckLength(const char *value, const char *path, int min, int max, List **errs)
{
	int			n;

	if (value == NULL)
		return;
	n = pg_mbstrlen(value);
	if (n < min)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have length greater than or equal to %d",
										value, path, min));
	else if (n > max)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d",
										value, path, max));
}

/*
 * The request's ResourceArn, checked; the call may run action on it as its
 * policy says (a table's for the table, a stream's for its stream)
 */
static char *
PolicyResource(const ApiRequest *r, const char *action, List **errs)
{
	JsonbContainer *req = r->body;
	char	   *arn = hroe_api_member_text(req, "ResourceArn", "ResourceArn");

	if (arn == NULL)
		*errs = lappend(*errs, hroe_not_null_constraint("resourceArn"));
	CheckLength(arn, "resourceArn", 1, HROE_ARN_MAX, errs);
	return arn;
}

/* The table and stream of a ResourceArn; the principal may run action on it */
static void
Authorize(const ApiRequest *r, const char *arn, const char *action)
{
	const char *args[1] = {arn};
	HeapTuple	tup = RunPolicyStatement("SELECT table_name, stream_label FROM hroe.resource_policy_target($1)",
										 1, args);
	char	   *table = Column(tup, 1);
	char	   *label = Column(tup, 2);

	r->call->ops.action = NULL;
	hroe_call_resource(&r->call->ops, table, strlen(table));
	hroe_call_authorize(&r->call->ops, action, table, NULL, label[0] ? label : NULL);
}

/* ,"RevisionId":"..." */
static void
AppendString(StringInfo out, const char *name, const char *value)
{
	appendStringInfo(out, ",\"%s\":", name);
	hroe_json_string_write(out, value, strlen(value));
}

/* PutResourcePolicy */
void
hroe_api_put_resource_policy(const ApiRequest *r, StringInfo out)
{
	List	   *errs = NIL;
	char	   *arn = PolicyResource(r, "PutResourcePolicy", &errs);
	char	   *policy = hroe_api_member_text(r->body, "Policy", "Policy");
	char	   *expected = hroe_api_member_text(r->body, "ExpectedRevisionId", "ExpectedRevisionId");
	const char *args[3];

	/* (ConfirmRemoveSelfResourceAccess: hroe's owner may always change it) */
	(void) hroe_api_member_bool(r->body, "ConfirmRemoveSelfResourceAccess", false);
	if (policy == NULL)
		errs = lappend(errs, hroe_not_null_constraint("policy"));
	CheckLength(expected, "expectedRevisionId", 1, 255, &errs);
	hroe_api_raise_errors(errs);
	Authorize(r, arn, "PutResourcePolicy");
	args[0] = arn;
	args[1] = policy;
	args[2] = expected;
	AppendString(out, "RevisionId",
				 Column(RunPolicyStatement("SELECT hroe.put_resource_policy($1, $2, $3)", 3, args), 1));
}

/* GetResourcePolicy */
void
hroe_api_get_resource_policy(const ApiRequest *r, StringInfo out)
{
	List	   *errs = NIL;
	char	   *arn = PolicyResource(r, "GetResourcePolicy", &errs);
	const char *args[1] = {arn};
	HeapTuple	tup;

	hroe_api_raise_errors(errs);
	Authorize(r, arn, "GetResourcePolicy");
	tup = RunPolicyStatement("SELECT policy, revision_id FROM hroe.get_resource_policy($1)", 1, args);
	AppendString(out, "Policy", Column(tup, 1));
	AppendString(out, "RevisionId", Column(tup, 2));
}

/* DeleteResourcePolicy */
void
hroe_api_delete_resource_policy(const ApiRequest *r, StringInfo out)
{
	List	   *errs = NIL;
	char	   *arn = PolicyResource(r, "DeleteResourcePolicy", &errs);
	char	   *expected = hroe_api_member_text(r->body, "ExpectedRevisionId", "ExpectedRevisionId");
	const char *args[2] = {arn, expected};

	CheckLength(expected, "expectedRevisionId", 1, 255, &errs);
	hroe_api_raise_errors(errs);
	Authorize(r, arn, "DeleteResourcePolicy");
	AppendString(out, "RevisionId",
				 Column(RunPolicyStatement("SELECT hroe.delete_resource_policy($1, $2)", 2, args), 1));
}

/* CreateTable's ResourcePolicy: attached to the table just created */
void
hroe_api_create_table_policy(JsonbContainer *req, const char *table)
{
	char	   *policy = hroe_api_member_text(req, "ResourcePolicy", "ResourcePolicy");
	const char *args[2];

	if (policy == NULL)
		return;
	args[0] = table;
	args[1] = policy;
	(void) RunPolicyStatement("SELECT hroe.put_resource_policy(hroe.table_arn($1), $2)", 2, args);
}
