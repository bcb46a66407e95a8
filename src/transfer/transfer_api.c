/*-------------------------------------------------------------------------
 *
 * transfer_api.c
 *	  The JSON API of exports and imports: ExportTableToPointInTime,
 *	  DescribeExport, ListExports, ImportTable, DescribeImport,
 *	  ListImports, over the SQL functions of transfer.sql, run as the
 *	  caller (the functions validate the members, with DynamoDB's texts).
 *
 * src/transfer/transfer_api.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"

#include "dynamodb_limits.h"
#include "transfer.h"

#include "api_internal.h"

/* Run sql ($1 the request's text), append the members of its jsonb result */
static void
Call(JsonbContainer *req, const char *sql, StringInfo out)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1];
	int			ret;
	bool		isnull;
	Datum		d;
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	k;
	JsonbValue	v;

	values[0] = CStringGetTextDatum(JsonbToCString(NULL, req, 256));
	ret = SPI_execute_with_args(sql, 1, types, values, NULL, false, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		return;
	it = JsonbIteratorInit(&DatumGetJsonbP(d)->root);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		if (tok != WJB_KEY)
			continue;
		(void) JsonbIteratorNext(&it, &v, true);
		hroe_api_append_jsonb(out, pnstrdup(k.val.string.val, k.val.string.len), JsonbValueToJsonb(&v));
	}
}

#define REQ "CAST($1 AS pg_catalog.jsonb)"

void
hroe_api_export_table(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.export_table("
		 "p_table_arn => " REQ " OPERATOR(pg_catalog.->>) 'TableArn',"
		 "p_s3_bucket => " REQ " OPERATOR(pg_catalog.->>) 'S3Bucket',"
		 "p_s3_prefix => " REQ " OPERATOR(pg_catalog.->>) 'S3Prefix',"
		 "p_export_format => COALESCE(" REQ " OPERATOR(pg_catalog.->>) 'ExportFormat', 'DYNAMODB_JSON'),"
		 "p_export_type => COALESCE(" REQ " OPERATOR(pg_catalog.->>) 'ExportType', 'FULL_EXPORT'),"
		 "p_client_token => " REQ " OPERATOR(pg_catalog.->>) 'ClientToken',"
		 "p_export_time => pg_catalog.to_timestamp(CAST(" REQ " OPERATOR(pg_catalog.->>) 'ExportTime' AS pg_catalog.float8)),"
		 "p_s3_bucket_owner => " REQ " OPERATOR(pg_catalog.->>) 'S3BucketOwner',"
		 "p_s3_sse_algorithm => " REQ " OPERATOR(pg_catalog.->>) 'S3SseAlgorithm',"
		 "p_s3_sse_kms_key_id => " REQ " OPERATOR(pg_catalog.->>) 'S3SseKmsKeyId',"
		 "p_export_from_time => pg_catalog.to_timestamp(CAST(" REQ " OPERATOR(pg_catalog.#>>) '{IncrementalExportSpecification,ExportFromTime}' AS pg_catalog.float8)),"
		 "p_export_to_time => pg_catalog.to_timestamp(CAST(" REQ " OPERATOR(pg_catalog.#>>) '{IncrementalExportSpecification,ExportToTime}' AS pg_catalog.float8)),"
		 "p_export_view_type => " REQ " OPERATOR(pg_catalog.#>>) '{IncrementalExportSpecification,ExportViewType}')", out);
}

PG_FUNCTION_INFO_V1(hroe_incremental_export_check);
/*
 * hroe.incremental_export_check(from, to): ValidationException unless from
 * is before to and the period is HROE_INCREMENTAL_EXPORT_MIN_PERIOD
 * (hroe.incremental_export_min_period) to HROE_INCREMENTAL_EXPORT_MAX_PERIOD
 * seconds
 */
Datum
hroe_incremental_export_check(PG_FUNCTION_ARGS)
{
	TimestampTz from = PG_GETARG_TIMESTAMPTZ(0);
	TimestampTz to = PG_GETARG_TIMESTAMPTZ(1);

	if (from >= to)
		HroeValidation("One or more parameter values were invalid: ExportFromTime must be earlier than ExportToTime");
	/* (the difference of two finite timestamps in microseconds fits an int64 only if checked) */
	if (TIMESTAMP_NOT_FINITE(from) || TIMESTAMP_NOT_FINITE(to) ||
		to - from < (int64) hroe_incremental_export_min_period * USECS_PER_SEC ||
		to - from > (int64) HROE_INCREMENTAL_EXPORT_MAX_PERIOD * USECS_PER_SEC)
		HroeValidation(psprintf("One or more parameter values were invalid: the period between ExportFromTime and ExportToTime "
								"must be at least %d minutes and at most %d hours",
								HROE_INCREMENTAL_EXPORT_MIN_PERIOD / 60, HROE_INCREMENTAL_EXPORT_MAX_PERIOD / 3600));
	PG_RETURN_VOID();
}

void
hroe_api_describe_export(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.describe_export(" REQ " OPERATOR(pg_catalog.->>) 'ExportArn')", out);
}

void
hroe_api_list_exports(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.list_exports(" REQ " OPERATOR(pg_catalog.->>) 'TableArn',"
		 " CAST(" REQ " OPERATOR(pg_catalog.->>) 'MaxResults' AS pg_catalog.int4),"
		 " " REQ " OPERATOR(pg_catalog.->>) 'NextToken')", out);
}

void
hroe_api_import_table(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.import_table("
		 "p_s3_bucket_source => " REQ " OPERATOR(pg_catalog.->) 'S3BucketSource',"
		 "p_input_format => " REQ " OPERATOR(pg_catalog.->>) 'InputFormat',"
		 "p_table_creation_parameters => " REQ " OPERATOR(pg_catalog.->) 'TableCreationParameters',"
		 "p_input_compression_type => COALESCE(" REQ " OPERATOR(pg_catalog.->>) 'InputCompressionType', 'NONE'),"
		 "p_input_format_options => " REQ " OPERATOR(pg_catalog.->) 'InputFormatOptions',"
		 "p_client_token => " REQ " OPERATOR(pg_catalog.->>) 'ClientToken')", out);
}

void
hroe_api_describe_import(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.describe_import(" REQ " OPERATOR(pg_catalog.->>) 'ImportArn')", out);
}

void
hroe_api_list_imports(JsonbContainer *req, StringInfo out)
{
	Call(req, "SELECT hroe.list_imports(" REQ " OPERATOR(pg_catalog.->>) 'TableArn',"
		 " CAST(" REQ " OPERATOR(pg_catalog.->>) 'PageSize' AS pg_catalog.int4),"
		 " " REQ " OPERATOR(pg_catalog.->>) 'NextToken')", out);
}
