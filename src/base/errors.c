/*-------------------------------------------------------------------------
 *
 * errors.c
 *	  hroe's SQLSTATE class "HR" and the DynamoDB __type of every error the
 *	  JSON API answers with a body (errors.h).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "ddb_types.h"
#include "errors.h"

#define DDB DDB_TYPE_PREFIX

/* The class, by code */
const HroeErrorDef hroe_error_defs[] = {
	{ERRCODE_HROE_VALIDATION, "ValidationException", DDB_TYPE_VALIDATION},
	{ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException", DDB "ResourceNotFoundException"},
	{ERRCODE_HROE_CONDITIONAL_CHECK_FAILED, "ConditionalCheckFailedException", DDB "ConditionalCheckFailedException"},
	{ERRCODE_HROE_RESOURCE_IN_USE, "ResourceInUseException", DDB "ResourceInUseException"},
	{ERRCODE_HROE_LIMIT_EXCEEDED, "LimitExceededException", DDB "LimitExceededException"},
	{ERRCODE_HROE_TRANSACTION_CANCELED, "TransactionCanceledException", DDB "TransactionCanceledException"},
	{ERRCODE_HROE_IDEMPOTENT_MISMATCH, "IdempotentParameterMismatchException", DDB "IdempotentParameterMismatchException"},
	{ERRCODE_HROE_SERIALIZATION, "SerializationException", DDB_TYPE_SERIALIZATION},
	{ERRCODE_HROE_DUPLICATE_ITEM, "DuplicateItemException", DDB "DuplicateItemException"},
	{ERRCODE_HROE_ITEM_COLLECTION_SIZE, "ItemCollectionSizeLimitExceededException",
	DDB "ItemCollectionSizeLimitExceededException"},
	/* throttling (src/tables/throttle.c) */
	{ERRCODE_HROE_PROVISIONED_THROUGHPUT_EXCEEDED, "ProvisionedThroughputExceededException",
	DDB "ProvisionedThroughputExceededException"},
	{ERRCODE_HROE_THROTTLING, "ThrottlingException", DDB "ThrottlingException"},
	/* resource-based policies: a policy missing, a request a policy denies */
	{ERRCODE_HROE_POLICY_NOT_FOUND, "PolicyNotFoundException", DDB "PolicyNotFoundException"},
	{ERRCODE_HROE_POLICY_DENIED, "AccessDeniedException", DDB_TYPE_ACCESS_DENIED},
	/* DynamoDB Streams' own */
	{ERRCODE_HROE_EXPIRED_ITERATOR, "ExpiredIteratorException", DDB "ExpiredIteratorException"},
	{ERRCODE_HROE_TRIMMED_DATA, "TrimmedDataAccessException", DDB "TrimmedDataAccessException"},
	/* on-demand backups' */
	{ERRCODE_HROE_BACKUP_NOT_FOUND, "BackupNotFoundException", DDB "BackupNotFoundException"},
	{ERRCODE_HROE_BACKUP_IN_USE, "BackupInUseException", DDB "BackupInUseException"},
	{ERRCODE_HROE_TABLE_NOT_FOUND, "TableNotFoundException", DDB "TableNotFoundException"},
	{ERRCODE_HROE_TABLE_ALREADY_EXISTS, "TableAlreadyExistsException", DDB "TableAlreadyExistsException"},
	{ERRCODE_HROE_TABLE_IN_USE, "TableInUseException", DDB "TableInUseException"},
	/* exports and imports' */
	{ERRCODE_HROE_PITR_UNAVAILABLE, "PointInTimeRecoveryUnavailableException", DDB "PointInTimeRecoveryUnavailableException"},
	{ERRCODE_HROE_EXPORT_NOT_FOUND, "ExportNotFoundException", DDB "ExportNotFoundException"},
	{ERRCODE_HROE_IMPORT_NOT_FOUND, "ImportNotFoundException", DDB "ImportNotFoundException"},
	{ERRCODE_HROE_INVALID_EXPORT_TIME, "InvalidExportTimeException", DDB "InvalidExportTimeException"},
	/* point-in-time recovery's (and PointInTimeRecoveryUnavailableException above) */
	{ERRCODE_HROE_INVALID_RESTORE_TIME, "InvalidRestoreTimeException", DDB "InvalidRestoreTimeException"},
	{ERRCODE_HROE_CONTINUOUS_BACKUPS_UNAVAILABLE, "ContinuousBackupsUnavailableException",
	DDB "ContinuousBackupsUnavailableException"},
};
const int	hroe_error_ndefs = lengthof(hroe_error_defs);

/* Raise DynamoDB's exception (errors.h) */
void
hroe_ddb_error(int code, const char *exception, const char *msg)
{
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s", msg),
			 errdetail("DynamoDB %s.", exception)));
	pg_unreachable();
}

/*
 * DynamoDB's __type of an error: the class's own codes by the table; then
 * PostgreSQL's that DynamoDB has an exception for; NULL for any other (the
 * JSON API raises those again)
 */
const char *
hroe_error_type(int code)
{
	for (int i = 0; i < hroe_error_ndefs; i++)
		if (hroe_error_defs[i].sqlstate == code)
			return hroe_error_defs[i].type;
	if (code == ERRCODE_T_R_SERIALIZATION_FAILURE || code == ERRCODE_T_R_DEADLOCK_DETECTED)
		return DDB "TransactionConflictException";
	/*
	 * a missing privilege, or a row-level security policy's refusal: IAM's
	 * refusal, whose __type DynamoDB takes from its service framework
	 */
	if (code == ERRCODE_INSUFFICIENT_PRIVILEGE)
		return DDB_TYPE_ACCESS_DENIED;
	/* invalid values in the request (the item module's DynamoDB texts) */
	if (ERRCODE_TO_CATEGORY(code) == ERRCODE_DATA_EXCEPTION ||
		code == ERRCODE_PROGRAM_LIMIT_EXCEEDED || code == ERRCODE_FEATURE_NOT_SUPPORTED)
		return hroe_error_defs[0].type;
	return NULL;
}

/* A request's string as a C string, U+0000 refused (errors.h) */
char *
hroe_request_cstring(const char *s, int len, const char *what)
{
	if (len > 0 && memchr(s, '\0', len) != NULL)
		HroeValidation(psprintf("One or more parameter values were invalid: hroe does not support U+0000 in %s",
								what));
	return pnstrdup(s, len);
}

/* "Value null at 'path' failed to satisfy constraint: ..." (errors.h) */
char *
hroe_not_null_constraint(const char *path)
{
	return psprintf("Value null at '%s' failed to satisfy constraint: " HROE_MSG_NOT_NULL, path);
}

/* The ValidationException of a missing required member (errors.h) */
void
hroe_missing_member(const char *path)
{
	HroeValidation(psprintf("1 validation error detected: %s", hroe_not_null_constraint(path)));
}

PG_FUNCTION_INFO_V1(hroe_dynamodb_errors);
/*
 * SQL: hroe.dynamodb_errors(): the class's table (sqlstate, exception,
 * type), from which hroe.dynamodb_error takes the code it raises
 */
Datum
hroe_dynamodb_errors(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < hroe_error_ndefs; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		values[0] = CStringGetTextDatum(unpack_sql_state(hroe_error_defs[i].sqlstate));
		values[1] = CStringGetTextDatum(hroe_error_defs[i].exception);
		values[2] = CStringGetTextDatum(hroe_error_defs[i].type);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
