/*-------------------------------------------------------------------------
 *
 * ttl_api.c
 *	  The JSON API of DynamoDB's Time to Live: UpdateTimeToLive and
 *	  DescribeTimeToLive, over hroe.update_time_to_live and
 *	  hroe.describe_time_to_live (ttl.sql), run as the caller.
 *
 * src/streams/ttl_api.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "streams.h"

/* UpdateTimeToLive */
void
hroe_api_update_time_to_live(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	Jsonb	   *spec = hroe_api_member_jsonb(req, "TimeToLiveSpecification");
	char	   *attribute;
	JsonbValue *enabled;
	Oid			types[3] = {TEXTOID, TEXTOID, BOOLOID};
	Datum		values[3];

	if (spec && !JB_ROOT_IS_OBJECT(spec))
		HroeSerialization("Unexpected value type in payload: TimeToLiveSpecification");
	if (table == NULL)
		hroe_api_missing("tableName");
	if (spec == NULL)
		hroe_api_missing("timeToLiveSpecification");
	attribute = hroe_api_member_text(&spec->root, "AttributeName", "AttributeName");
	enabled = hroe_api_member(&spec->root, "Enabled");
	if (attribute == NULL)
		hroe_api_missing("timeToLiveSpecification.attributeName");
	if (enabled == NULL)
		hroe_api_missing("timeToLiveSpecification.enabled");
	if (strlen(attribute) < 1 || strlen(attribute) > 255)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'timeToLiveSpecification.attributeName' failed to satisfy constraint: Member must have length %s",
								  attribute, strlen(attribute) < 1 ? "greater than or equal to 1" : "less than or equal to 255"));
	values[0] = CStringGetTextDatum(table);
	values[1] = CStringGetTextDatum(attribute);
	values[2] = BoolGetDatum(hroe_api_member_bool(&spec->root, "Enabled", false));
	if (DatumGetBool(values[2]))
		hroe_api_refuse_if_distributed(table, "Time to Live deletions");
	hroe_streams_api_append_result(out, "SELECT hroe.update_time_to_live($1, $2, $3)", 3, types, values, NULL);
}

/* DescribeTimeToLive */
void
hroe_api_describe_time_to_live(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	Oid			types[1] = {TEXTOID};
	Datum		values[1];

	if (table == NULL)
		hroe_api_missing("tableName");
	values[0] = CStringGetTextDatum(table);
	hroe_streams_api_append_result(out, "SELECT hroe.describe_time_to_live($1)", 1, types, values, NULL);
}
