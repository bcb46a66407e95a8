/*-------------------------------------------------------------------------
 *
 * api_backup.c
 *	  The JSON API of on-demand backups: CreateBackup, DescribeBackup,
 *	  ListBackups, DeleteBackup, RestoreTableFromBackup, over the SQL
 *	  functions of backup.sql (hroe.create_backup, ...), run as the caller;
 *	  DescribeTable's RestoreSummary of a restored table.
 *
 * src/api/api_backup.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "api_internal.h"

/*
 * Run sql (one row, one jsonb column) and append its result: as the member
 * name's value, or (name NULL) its members
 */
static void
AppendResult(StringInfo out, const char *name, const char *sql, int nargs, Oid *types,
			 Datum *values, const char *nulls)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 1);
	bool		isnull;
	Datum		d;
	char	   *text;

	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		return;
	text = hroe_api_jsonb_text(DatumGetJsonbP(d));
	if (name)
		appendStringInfo(out, ",\"%s\":%s", name, text);
	else if (strcmp(text, "{}") != 0)
		/* the object's members, without its braces */
		appendStringInfo(out, ",%.*s", (int) strlen(text) - 2, text + 1);
}

/* A string member as a text Datum; nulls[i] 'n' when absent */
static void
TextArg(JsonbContainer *req, const char *name, Datum *values, char *nulls, int i)
{
	char	   *s = hroe_api_member_text(req, name, name);

	values[i] = s ? CStringGetTextDatum(s) : (Datum) 0;
	nulls[i] = s ? ' ' : 'n';
}

/* A number member as a numeric Datum; nulls[i] 'n' when absent */
static void
NumericArg(JsonbContainer *req, const char *name, Datum *values, char *nulls, int i)
{
	JsonbValue *v = hroe_api_member(req, name);

	if (v && v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	values[i] = v ? NumericGetDatum(v->val.numeric) : (Datum) 0;
	nulls[i] = v ? ' ' : 'n';
}

/* CreateBackup */
void
hroe_api_create_backup(JsonbContainer *req, StringInfo out)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2];
	char		nulls[3] = "  ";

	TextArg(req, "TableName", values, nulls, 0);
	TextArg(req, "BackupName", values, nulls, 1);
	AppendResult(out, "BackupDetails", "SELECT hroe.create_backup($1, $2)", 2, types, values, nulls);
}

/* DescribeBackup */
void
hroe_api_describe_backup(JsonbContainer *req, StringInfo out)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char		nulls[2] = " ";

	TextArg(req, "BackupArn", values, nulls, 0);
	AppendResult(out, "BackupDescription", "SELECT hroe.describe_backup($1)", 1, types, values, nulls);
}

/* DeleteBackup */
void
hroe_api_delete_backup(JsonbContainer *req, StringInfo out)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	char		nulls[2] = " ";

	TextArg(req, "BackupArn", values, nulls, 0);
	AppendResult(out, "BackupDescription", "SELECT hroe.delete_backup($1)", 1, types, values, nulls);
}

/* ListBackups */
void
hroe_api_list_backups(JsonbContainer *req, StringInfo out)
{
	Oid			types[6] = {TEXTOID, NUMERICOID, NUMERICOID, TEXTOID, NUMERICOID, TEXTOID};
	Datum		values[6];
	char		nulls[7] = "      ";

	TextArg(req, "TableName", values, nulls, 0);
	NumericArg(req, "TimeRangeLowerBound", values, nulls, 1);
	NumericArg(req, "TimeRangeUpperBound", values, nulls, 2);
	TextArg(req, "BackupType", values, nulls, 3);
	NumericArg(req, "Limit", values, nulls, 4);
	TextArg(req, "ExclusiveStartBackupArn", values, nulls, 5);
	/*
	 * (a Limit beyond an integer's range fails its constraint, 1 to
	 * HROE_LIST_BACKUPS_MAX, as the nearest integer does)
	 */
	AppendResult(out, NULL,
				 "SELECT hroe.list_backups($1, pg_catalog.to_timestamp($2::pg_catalog.float8), "
				 "pg_catalog.to_timestamp($3::pg_catalog.float8), coalesce($4, 'USER'), "
				 "CASE WHEN $5 IS NOT NULL THEN LEAST(GREATEST($5, -2147483648), 2147483647)::pg_catalog.int4 END, $6)",
				 6, types, values, nulls);
}

/* An object member as a jsonb Datum in the overrides being built */
static void
AddOverride(JsonbContainer *req, const char *name, StringInfo overrides)
{
	JsonbValue *v = hroe_api_member(req, name);

	if (v == NULL)
		return;
	if (v->type != jbvBinary && v->type != jbvString)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	appendStringInfo(overrides, "%s\"%s\":", overrides->len > 1 ? "," : "", name);
	if (v->type == jbvString)
		escape_json(overrides, hroe_api_member_text(req, name, name));
	else
		appendStringInfoString(overrides, hroe_api_container_text(v));
}

/*
 * The overrides of a restore's request (RestoreTableFromBackup,
 * RestoreTableToPointInTime) as one object
 */
Jsonb *
hroe_api_restore_overrides(JsonbContainer *req)
{
	StringInfoData overrides;

	initStringInfo(&overrides);
	appendStringInfoChar(&overrides, '{');
	AddOverride(req, "BillingModeOverride", &overrides);
	AddOverride(req, "ProvisionedThroughputOverride", &overrides);
	AddOverride(req, "GlobalSecondaryIndexOverride", &overrides);
	AddOverride(req, "LocalSecondaryIndexOverride", &overrides);
	AddOverride(req, "SSESpecificationOverride", &overrides);
	appendStringInfoChar(&overrides, '}');
	return hroe_api_text_jsonb(overrides.data);
}

/* RestoreTableFromBackup */
void
hroe_api_restore_table_from_backup(JsonbContainer *req, StringInfo out)
{
	Oid			types[3] = {TEXTOID, TEXTOID, JSONBOID};
	Datum		values[3];
	char		nulls[4] = "   ";

	TextArg(req, "TargetTableName", values, nulls, 0);
	TextArg(req, "BackupArn", values, nulls, 1);
	values[2] = JsonbPGetDatum(hroe_api_restore_overrides(req));
	AppendResult(out, "TableDescription", "SELECT hroe.restore_table_from_backup($1, $2, $3)",
				 3, types, values, nulls);
}

/*
 * A table's description desc (JSON text) with the RestoreSummary of a table
 * restored from a backup (hroe.table_restores), as DescribeTable shows it
 */
char *
hroe_api_with_restore(const char *table, char *desc)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	int			ret;
	bool		isnull;
	Datum		d;

	values[0] = CStringGetTextDatum(table);
	ret = SPI_execute_with_args("SELECT hroe.restore_summary($1)", 1, types, values, NULL, true, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "hroe.restore_summary failed: %s", SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull || desc[0] != '{' || strcmp(desc, "{}") == 0)
		return desc;
	return psprintf("%.*s,\"RestoreSummary\":%s}", (int) strlen(desc) - 1, desc,
					hroe_api_jsonb_text(DatumGetJsonbP(d)));
}
