/*-------------------------------------------------------------------------
 *
 * api_settings.c
 *	  The JSON API's table options and account operations: TableClass,
 *	  SSESpecification and WarmThroughput of CreateTable and UpdateTable
 *	  (kept by hroe.set_table_options, src/tables/table_options.sql),
 *	  DescribeLimits, DescribeEndpoints, and Contributor Insights
 *	  (UpdateContributorInsights, DescribeContributorInsights,
 *	  ListContributorInsights; the counts are kept by
 *	  src/tables/contributor_insights.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "api_internal.h"
#include "ddb_types.h"


/* ---------- TableClass, SSESpecification, WarmThroughput ---------- */

/*
 * One member of a WarmThroughput object (ReadUnitsPerSecond,
 * WriteUnitsPerSecond): 0 if absent; a value below 1 adds DynamoDB's
 * constraint error, one beyond HROE_THROUGHPUT_MAX is kept in *over
 */
static int64
WarmUnits(JsonbContainer *obj, const char *member, const char *path, List **errs, char **over)
{
	JsonbValue *v = hroe_api_member(obj, member);
	Datum		n;
	char	   *text;

	if (v == NULL)
		return 0;
	if (v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
	n = NumericGetDatum(v->val.numeric);
	text = DatumGetCString(DirectFunctionCall1(numeric_out, n));
	if (DatumGetBool(DirectFunctionCall2(numeric_lt, n, NumericGetDatum(int64_to_numeric(1)))))
	{
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have value greater than or equal to 1",
										text, path));
		return 0;
	}
	if (DatumGetBool(DirectFunctionCall2(numeric_gt, n, NumericGetDatum(int64_to_numeric(HROE_THROUGHPUT_MAX)))))
	{
		if (*over == NULL)
			*over = psprintf("Given value %s for %s is out of bounds", text, member);
		return HROE_THROUGHPUT_MAX;
	}
	return DatumGetInt64(DirectFunctionCall1(numeric_int8, DirectFunctionCall2(numeric_round, n, Int32GetDatum(0))));
}

/* The WarmThroughput member of obj into *read, *write (0: not given); false if absent */
static bool
WarmThroughput(JsonbContainer *obj, const char *path, int64 *read, int64 *write,
			   List **errs, char **over)
{
	JsonbValue *v = hroe_api_member(obj, "WarmThroughput");
	JsonbContainer *c;

	*read = *write = 0;
	if (v == NULL)
		return false;
	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		HroeSerialization("Unexpected value type in payload: WarmThroughput");
	c = v->val.binary.data;
	*read = WarmUnits(c, "ReadUnitsPerSecond", psprintf("%s.readUnitsPerSecond", path), errs, over);
	*write = WarmUnits(c, "WriteUnitsPerSecond", psprintf("%s.writeUnitsPerSecond", path), errs, over);
	return true;
}

/*
 * The table options of a CreateTable or UpdateTable request: TableClass,
 * SSESpecification, WarmThroughput; their members' constraint errors are
 * added to errs (the caller raises them with the request's others)
 */
void
hroe_api_table_options(JsonbContainer *req, ApiTableOptions *o, List **errs)
{
	JsonbValue *sse = hroe_api_member(req, "SSESpecification");

	memset(o, 0, sizeof(*o));
	o->table_class = hroe_api_member_text(req, "TableClass", "TableClass");
	if (o->table_class &&
		strcmp(o->table_class, "STANDARD") != 0 &&
		strcmp(o->table_class, "STANDARD_INFREQUENT_ACCESS") != 0)
		*errs = lappend(*errs, psprintf("Value '%s' at 'tableClass' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_TABLE_CLASS "]",
										o->table_class));
	if (sse)
	{
		JsonbContainer *c;

		if (sse->type != jbvBinary || !JsonContainerIsObject(sse->val.binary.data))
			HroeSerialization("Unexpected value type in payload: SSESpecification");
		c = sse->val.binary.data;
		o->sse_given = true;
		o->sse_enabled = hroe_api_member_bool(c, "Enabled", false);
		o->sse_type = hroe_api_member_text(c, "SSEType", "SSEType");
		o->kms_key = hroe_api_member_text(c, "KMSMasterKeyId", "KMSMasterKeyId");
		if (o->sse_type && strcmp(o->sse_type, "AES256") != 0 && strcmp(o->sse_type, "KMS") != 0)
			*errs = lappend(*errs, psprintf("Value '%s' at 'sSESpecification.sSEType' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_SSE_TYPE "]",
											o->sse_type));
	}
	o->warm_given = WarmThroughput(req, "warmThroughput", &o->warm_read, &o->warm_write,
								   errs, &o->over);
}

/*
 * A GSI's WarmThroughput (gsi: its Create or Update object, or an element
 * of CreateTable's GlobalSecondaryIndexes; path: its name in messages)
 */
void
hroe_api_index_warm_throughput(ApiTableOptions *o, JsonbContainer *gsi, const char *path,
							   List **errs)
{
	int64		read,
				write;
	char	   *name = hroe_api_member_text(gsi, "IndexName", "IndexName");
	JsonbValue	n;

	if (!WarmThroughput(gsi, path, &read, &write, errs, &o->over) || name == NULL)
		return;
	if (o->index_warm == NULL)
		pushJsonbValue(&o->index_warm, WJB_BEGIN_OBJECT, NULL);
	hroe_jsonb_push_key(&o->index_warm, name);
	pushJsonbValue(&o->index_warm, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < 2; i++)
	{
		int64		units = i == 0 ? read : write;

		if (units == 0)
			n.type = jbvNull;
		else
		{
			n.type = jbvNumeric;
			n.val.numeric = int64_to_numeric(units);
		}
		pushJsonbValue(&o->index_warm, WJB_ELEM, &n);
	}
	pushJsonbValue(&o->index_warm, WJB_END_ARRAY, NULL);
	o->nindex_warm++;
}

/* Is any table option given? (UpdateTable needs one member to change) */
bool
hroe_api_table_options_given(const ApiTableOptions *o)
{
	return o->table_class || o->sse_given || o->warm_given || o->nindex_warm > 0;
}

/*
 * DynamoDB's rules of the options that need no table (after the members'
 * constraints): encryption with a KMS key needs SSE enabled and SSEType
 * KMS; a value out of bounds
 */
void
hroe_api_check_table_options(const ApiTableOptions *o)
{
	if (o->over)
		hroe_api_invalid(o->over);
	if (!o->sse_given)
		return;
	if (o->sse_enabled && o->sse_type && strcmp(o->sse_type, "AES256") == 0)
		hroe_api_invalid("One or more parameter values were invalid: SSEType AES256 is not supported");
	if (o->kms_key && (o->sse_type == NULL || strcmp(o->sse_type, "KMS") != 0))
		hroe_api_invalid("One or more parameter values were invalid: SSEType KMS is required if KMSMasterKeyId is specified");
	if (!o->sse_enabled && o->sse_type && strcmp(o->sse_type, "KMS") == 0)
		hroe_api_invalid("One or more parameter values were invalid: SSEType KMS requires SSESpecification.Enabled to be true");
}

/* Keep the options of table (hroe.set_table_options); true if the table changes */
bool
hroe_api_apply_table_options(const char *table, ApiTableOptions *o)
{
	Oid			types[7] = {TEXTOID, TEXTOID, BOOLOID, TEXTOID, INT8OID, INT8OID, JSONBOID};
	Datum		v[7];
	char		nulls[8] = "       ";
	int			ret;
	bool		isnull;
	Datum		d;

	if (!hroe_api_table_options_given(o))
		return false;
	v[0] = CStringGetTextDatum(table);
	v[1] = o->table_class ? CStringGetTextDatum(o->table_class) : (nulls[1] = 'n', (Datum) 0);
	v[2] = o->sse_given ? BoolGetDatum(o->sse_enabled) : (nulls[2] = 'n', (Datum) 0);
	v[3] = o->kms_key ? CStringGetTextDatum(o->kms_key) : (nulls[3] = 'n', (Datum) 0);
	v[4] = o->warm_read ? Int64GetDatum(o->warm_read) : (nulls[4] = 'n', (Datum) 0);
	v[5] = o->warm_write ? Int64GetDatum(o->warm_write) : (nulls[5] = 'n', (Datum) 0);
	v[6] = o->index_warm ?
		JsonbPGetDatum(JsonbValueToJsonb(pushJsonbValue(&o->index_warm, WJB_END_OBJECT, NULL))) :
		(nulls[6] = 'n', (Datum) 0);
	ret = SPI_execute_with_args("SELECT hroe.set_table_options($1, $2, $3, $4, $5, $6, $7)",
								7, types, v, nulls, false, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "hroe.set_table_options failed: %s", SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return !isnull && DatumGetBool(d);
}

/* ---------- DescribeLimits, DescribeEndpoints ---------- */

/* DescribeLimits: the quotas of an on-demand account (dynamodb_limits.h) */
void
hroe_api_describe_limits(JsonbContainer *req, StringInfo out)
{
	appendStringInfo(out, ",\"AccountMaxReadCapacityUnits\":%d,\"AccountMaxWriteCapacityUnits\":%d"
					 ",\"TableMaxReadCapacityUnits\":%d,\"TableMaxWriteCapacityUnits\":%d",
					 HROE_ACCOUNT_MAX_READ_UNITS, HROE_ACCOUNT_MAX_WRITE_UNITS,
					 HROE_TABLE_MAX_READ_UNITS, HROE_TABLE_MAX_WRITE_UNITS);
}

/*
 * DescribeEndpoints through SQL (hroe.dynamodb): DynamoDB's regional
 * endpoint of hroe.region, the address SQL has no Host to tell.  The HTTP
 * front ends answer it themselves with the host the client reached
 * (protocol/request.c, request_local_answer).
 */
void
hroe_api_describe_endpoints(JsonbContainer *req, StringInfo out)
{
	appendStringInfo(out, ",\"Endpoints\":[{\"Address\":\"dynamodb.%s.amazonaws.com\",\"CachePeriodInMinutes\":%d}]",
					 hroe_region, DDB_ENDPOINT_CACHE_MINUTES);
}

/* ---------- Contributor Insights ---------- */

/* Run a Contributor Insights statement (SQL, its arguments); its jsonb answer's members */
static void
RunInsights(const char *sql, int nargs, Oid *types, Datum *values, const char *nulls,
			StringInfo out)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 1);
	bool		isnull;
	Datum		d;
	char	   *text;

	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		elog(ERROR, "\"%s\" returned NULL", sql);
	text = hroe_api_jsonb_text(DatumGetJsonbP(d));
	/* the object's members, after the comma of the response's */
	if (strlen(text) > 2)
		appendStringInfo(out, ",%.*s", (int) strlen(text) - 2, text + 1);
}

/* TableName and IndexName of a Contributor Insights request, checked */
static void
InsightsTarget(JsonbContainer *req, char **table, char **index, List **errs)
{
	*table = hroe_api_member_text(req, "TableName", "TableName");
	*index = hroe_api_member_text(req, "IndexName", "IndexName");
	if (*table == NULL)
		*errs = lappend(*errs, hroe_not_null_constraint("tableName"));
	else if (strlen(*table) < HROE_TABLE_NAME_MIN || strlen(*table) > HROE_TABLE_NAME_MAX)
		*errs = lappend(*errs, psprintf("Value '%s' at 'tableName' failed to satisfy constraint: Member must have length %s %d",
										*table, strlen(*table) < HROE_TABLE_NAME_MIN ? "greater than or equal to" : "less than or equal to",
										strlen(*table) < HROE_TABLE_NAME_MIN ? HROE_TABLE_NAME_MIN : HROE_TABLE_NAME_MAX));
	if (*index && (strlen(*index) < HROE_TABLE_NAME_MIN || strlen(*index) > HROE_TABLE_NAME_MAX))
		*errs = lappend(*errs, psprintf("Value '%s' at 'indexName' failed to satisfy constraint: Member must have length %s %d",
										*index, strlen(*index) < HROE_TABLE_NAME_MIN ? "greater than or equal to" : "less than or equal to",
										strlen(*index) < HROE_TABLE_NAME_MIN ? HROE_TABLE_NAME_MIN : HROE_TABLE_NAME_MAX));
}

/* UpdateContributorInsights */
void
hroe_api_update_contributor_insights(JsonbContainer *req, StringInfo out)
{
	char	   *table,
			   *index;
	char	   *action = hroe_api_member_text(req, "ContributorInsightsAction", "ContributorInsightsAction");
	char	   *mode = hroe_api_member_text(req, "ContributorInsightsMode", "ContributorInsightsMode");
	List	   *errs = NIL;
	Oid			types[4] = {TEXTOID, TEXTOID, TEXTOID, TEXTOID};
	Datum		v[4];
	char		nulls[5] = "    ";
	HroeTableMeta *t;

	InsightsTarget(req, &table, &index, &errs);
	if (action == NULL)
		errs = lappend(errs, hroe_not_null_constraint("contributorInsightsAction"));
	else if (strcmp(action, "ENABLE") != 0 && strcmp(action, "DISABLE") != 0)
		errs = lappend(errs, psprintf("Value '%s' at 'contributorInsightsAction' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_CI_ACTION "]",
									  action));
	if (mode && strcmp(mode, "ACCESSED_AND_THROTTLED_KEYS") != 0 && strcmp(mode, "THROTTLED_KEYS") != 0)
		errs = lappend(errs, psprintf("Value '%s' at 'contributorInsightsMode' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_CI_MODE "]",
									  mode));
	hroe_api_raise_errors(errs);
	v[0] = CStringGetTextDatum(table);
	v[1] = index ? CStringGetTextDatum(index) : (nulls[1] = 'n', (Datum) 0);
	v[2] = CStringGetTextDatum(action);
	v[3] = mode ? CStringGetTextDatum(mode) : (nulls[3] = 'n', (Datum) 0);
	RunInsights("SELECT hroe.update_contributor_insights($1, $2, $3, $4)", 4, types, v, nulls, out);
	/* every backend's cached metadata of the table learns the change */
	t = hroe_table_lookup(table, true);
	if (t)
		CacheInvalidateRelcacheByRelid(t->relid);
}

/* DescribeContributorInsights */
void
hroe_api_describe_contributor_insights(JsonbContainer *req, StringInfo out)
{
	char	   *table,
			   *index;
	List	   *errs = NIL;
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		v[2];
	char		nulls[3] = "  ";

	InsightsTarget(req, &table, &index, &errs);
	hroe_api_raise_errors(errs);
	v[0] = CStringGetTextDatum(table);
	v[1] = index ? CStringGetTextDatum(index) : (nulls[1] = 'n', (Datum) 0);
	RunInsights("SELECT hroe.describe_contributor_insights($1, $2)", 2, types, v, nulls, out);
}

/* ListContributorInsights: paged by NextToken, at most MaxResults (default 100) */
void
hroe_api_list_contributor_insights(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	char	   *token = hroe_api_member_text(req, "NextToken", "NextToken");
	bool		has_max;
	int32		max = hroe_api_member_int(req, "MaxResults", &has_max);
	List	   *errs = NIL;
	Oid			types[3] = {TEXTOID, INT4OID, TEXTOID};
	Datum		v[3];
	char		nulls[4] = "   ";

	if (table && (strlen(table) < HROE_TABLE_NAME_MIN || strlen(table) > HROE_TABLE_NAME_MAX))
		errs = lappend(errs, psprintf("Value '%s' at 'tableName' failed to satisfy constraint: Member must have length %s %d",
									  table, strlen(table) < HROE_TABLE_NAME_MIN ? "greater than or equal to" : "less than or equal to",
									  strlen(table) < HROE_TABLE_NAME_MIN ? HROE_TABLE_NAME_MIN : HROE_TABLE_NAME_MAX));
	if (has_max && max > HROE_CONTRIBUTOR_INSIGHTS_PAGE_MAX)
		errs = lappend(errs, psprintf("Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to %d",
									  max, HROE_CONTRIBUTOR_INSIGHTS_PAGE_MAX));
	if (has_max && max < 0)
		errs = lappend(errs, psprintf("Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 0",
									  max));
	hroe_api_raise_errors(errs);
	if (!has_max || max == 0)
		max = HROE_CONTRIBUTOR_INSIGHTS_PAGE_DEFAULT;
	v[0] = table ? CStringGetTextDatum(table) : (nulls[0] = 'n', (Datum) 0);
	v[1] = Int32GetDatum(max);
	v[2] = token ? CStringGetTextDatum(token) : (nulls[2] = 'n', (Datum) 0);
	RunInsights("SELECT hroe.list_contributor_insights($1, $2, $3)", 3, types, v, nulls, out);
}
