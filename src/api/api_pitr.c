/*-------------------------------------------------------------------------
 *
 * api_pitr.c
 *	  The JSON API of point-in-time recovery: UpdateContinuousBackups,
 *	  DescribeContinuousBackups, RestoreTableToPointInTime, over the SQL
 *	  functions of src/streams/pitr.sql (hroe.update_continuous_backups,
 *	  ...), run as the caller.
 *
 * src/api/api_pitr.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "api_internal.h"

/* Run sql (one row, one jsonb column) and append its result as member name */
static void
AppendResult(StringInfo out, const char *name, const char *sql, int nargs, Oid *types,
			 Datum *values, const char *nulls)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 1);
	bool		isnull;
	Datum		d;

	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		appendStringInfo(out, ",\"%s\":%s", name, hroe_api_jsonb_text(DatumGetJsonbP(d)));
}

/* A string member of obj as a text Datum; nulls[i] 'n' when absent */
static void
TextArg(JsonbContainer *obj, const char *name, Datum *values, char *nulls, int i)
{
	char	   *s = hroe_api_member_text(obj, name, name);

	values[i] = s ? CStringGetTextDatum(s) : (Datum) 0;
	nulls[i] = s ? ' ' : 'n';
}

/* A boolean member of obj as a bool Datum; nulls[i] 'n' when absent */
static void
BoolArg(JsonbContainer *obj, const char *name, Datum *values, char *nulls, int i)
{
	JsonbValue *v = obj ? hroe_api_member(obj, name) : NULL;

	if (v && v->type != jbvBool)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	values[i] = v ? BoolGetDatum(v->val.boolean) : (Datum) 0;
	nulls[i] = v ? ' ' : 'n';
}

/* A number member of obj as a numeric Datum; nulls[i] 'n' when absent */
static void
NumericArg(JsonbContainer *obj, const char *name, Datum *values, char *nulls, int i)
{
	JsonbValue *v = obj ? hroe_api_member(obj, name) : NULL;

	if (v && v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	values[i] = v ? NumericGetDatum(v->val.numeric) : (Datum) 0;
	nulls[i] = v ? ' ' : 'n';
}

/* DescribeContinuousBackups */
void
hroe_api_describe_continuous_backups(JsonbContainer *req, StringInfo out)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char		nulls[2] = " ";

	TextArg(req, "TableName", values, nulls, 0);
	AppendResult(out, "ContinuousBackupsDescription", "SELECT hroe.describe_continuous_backups($1)",
				 1, types, values, nulls);
}

/* UpdateContinuousBackups */
void
hroe_api_update_continuous_backups(JsonbContainer *req, StringInfo out)
{
	Oid			types[3] = {TEXTOID, BOOLOID, NUMERICOID};
	Datum		values[3];
	char		nulls[4] = "   ";
	JsonbValue *spec = hroe_api_member(req, "PointInTimeRecoverySpecification");
	JsonbContainer *s = NULL;

	if (spec && (spec->type != jbvBinary || !JsonContainerIsObject(spec->val.binary.data)))
		HroeSerialization("Unexpected value type in payload: PointInTimeRecoverySpecification");
	if (spec == NULL)
		HroeValidation("1 validation error detected: Value null at 'pointInTimeRecoverySpecification' "
					   "failed to satisfy constraint: Member must not be null");
	s = spec->val.binary.data;
	TextArg(req, "TableName", values, nulls, 0);
	BoolArg(s, "PointInTimeRecoveryEnabled", values, nulls, 1);
	NumericArg(s, "RecoveryPeriodInDays", values, nulls, 2);
	/* (a period beyond an integer's range fails its constraint as the nearest integer does) */
	AppendResult(out, "ContinuousBackupsDescription",
				 "SELECT hroe.update_continuous_backups($1, $2, "
				 "CASE WHEN $3 IS NOT NULL THEN LEAST(GREATEST($3, -2147483648), 2147483647)::pg_catalog.int4 END)",
				 3, types, values, nulls);
}

/* RestoreTableToPointInTime */
void
hroe_api_restore_table_to_point_in_time(JsonbContainer *req, StringInfo out)
{
	Oid			types[6] = {TEXTOID, TEXTOID, NUMERICOID, BOOLOID, JSONBOID, TEXTOID};
	Datum		values[6];
	char		nulls[7] = "      ";

	TextArg(req, "TargetTableName", values, nulls, 0);
	TextArg(req, "SourceTableName", values, nulls, 1);
	NumericArg(req, "RestoreDateTime", values, nulls, 2);
	BoolArg(req, "UseLatestRestorableTime", values, nulls, 3);
	values[4] = JsonbPGetDatum(hroe_api_restore_overrides(req));
	TextArg(req, "SourceTableArn", values, nulls, 5);
	AppendResult(out, "TableDescription",
				 "SELECT hroe.restore_table_to_point_in_time($1, $2, "
				 "pg_catalog.to_timestamp($3::pg_catalog.float8), $4, $5, $6)",
				 6, types, values, nulls);
}
