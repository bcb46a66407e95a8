/*-------------------------------------------------------------------------
 *
 * errors.h
 *	  hroe's SQLSTATE class "HR": DynamoDB's exceptions, in one table
 *	  (errors.c) giving each code its exception name and the __type the
 *	  JSON API answers with.  errmsg carries DynamoDB's message; errdetail
 *	  names the exception ("DynamoDB ValidationException."), for people:
 *	  the __type is chosen from the SQLSTATE alone (hroe_error_type).
 *
 * The SQL side (hroe.dynamodb_error in tables.sql, mapping exception names
 * to codes) is checked against this table by the regression test
 * sql/errors.sql, through hroe.dynamodb_errors().
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_ERRORS_H
#define HROE_ERRORS_H

#define ERRCODE_HROE_VALIDATION				MAKE_SQLSTATE('H','R','0','0','0')
#define ERRCODE_HROE_RESOURCE_NOT_FOUND		MAKE_SQLSTATE('H','R','0','0','1')
#define ERRCODE_HROE_CONDITIONAL_CHECK_FAILED MAKE_SQLSTATE('H','R','0','0','2')
#define ERRCODE_HROE_RESOURCE_IN_USE		MAKE_SQLSTATE('H','R','0','0','3')
#define ERRCODE_HROE_LIMIT_EXCEEDED			MAKE_SQLSTATE('H','R','0','0','4')
#define ERRCODE_HROE_TRANSACTION_CANCELED	MAKE_SQLSTATE('H','R','0','0','5')
#define ERRCODE_HROE_IDEMPOTENT_MISMATCH	MAKE_SQLSTATE('H','R','0','0','6')
#define ERRCODE_HROE_SERIALIZATION			MAKE_SQLSTATE('H','R','0','0','7')
#define ERRCODE_HROE_DUPLICATE_ITEM			MAKE_SQLSTATE('H','R','0','0','8')
#define ERRCODE_HROE_EXPIRED_ITERATOR		MAKE_SQLSTATE('H','R','0','0','9')
#define ERRCODE_HROE_TRIMMED_DATA			MAKE_SQLSTATE('H','R','0','1','0')
#define ERRCODE_HROE_ITEM_COLLECTION_SIZE	MAKE_SQLSTATE('H','R','0','1','1')
/* on-demand backups (src/api/backup.sql) */
#define ERRCODE_HROE_BACKUP_NOT_FOUND		MAKE_SQLSTATE('H','R','0','1','2')
#define ERRCODE_HROE_BACKUP_IN_USE			MAKE_SQLSTATE('H','R','0','1','3')
#define ERRCODE_HROE_TABLE_NOT_FOUND		MAKE_SQLSTATE('H','R','0','1','4')
#define ERRCODE_HROE_TABLE_ALREADY_EXISTS	MAKE_SQLSTATE('H','R','0','1','5')
#define ERRCODE_HROE_TABLE_IN_USE			MAKE_SQLSTATE('H','R','0','1','6')
/* throttling (src/tables/throttle.c) */
#define ERRCODE_HROE_PROVISIONED_THROUGHPUT_EXCEEDED MAKE_SQLSTATE('H','R','0','1','7')
#define ERRCODE_HROE_THROTTLING				MAKE_SQLSTATE('H','R','0','1','8')
/* exports and imports' (src/transfer/transfer.sql), point-in-time recovery's (src/streams/pitr.sql) */
#define ERRCODE_HROE_PITR_UNAVAILABLE		MAKE_SQLSTATE('H','R','0','2','0')
#define ERRCODE_HROE_EXPORT_NOT_FOUND		MAKE_SQLSTATE('H','R','0','2','1')
#define ERRCODE_HROE_IMPORT_NOT_FOUND		MAKE_SQLSTATE('H','R','0','2','2')
#define ERRCODE_HROE_INVALID_EXPORT_TIME	MAKE_SQLSTATE('H','R','0','2','3')
#define ERRCODE_HROE_INVALID_RESTORE_TIME	MAKE_SQLSTATE('H','R','0','2','4')
#define ERRCODE_HROE_CONTINUOUS_BACKUPS_UNAVAILABLE	MAKE_SQLSTATE('H','R','0','2','5')

/*
 * E10 as UpdateItem words it (the update of a transaction too, where it
 * cancels the transaction instead: transactions.c knows it by this text)
 */
#define HROE_MSG_UPDATE_TOO_BIG "Item size to update has exceeded the maximum allowed size"
/* resource-based policies (src/tables/policy.sql, tables_policy.c) */
#define ERRCODE_HROE_POLICY_NOT_FOUND		MAKE_SQLSTATE('H','R','0','3','0')
#define ERRCODE_HROE_POLICY_DENIED			MAKE_SQLSTATE('H','R','0','3','1')

/* One code of the class */
typedef struct HroeErrorDef
{
	int			sqlstate;		/* ERRCODE_HROE_* */
	const char *exception;		/* DynamoDB's exception name */
	const char *type;			/* the JSON API's __type */
} HroeErrorDef;

extern const HroeErrorDef hroe_error_defs[];
extern const int hroe_error_ndefs;

/* Raise DynamoDB's exception: code, msg as errmsg, the name in errdetail */
extern void hroe_ddb_error(int code, const char *exception, const char *msg) pg_attribute_noreturn();
#define HroeValidation(msg) \
	hroe_ddb_error(ERRCODE_HROE_VALIDATION, "ValidationException", (msg))
#define HroeSerialization(msg) \
	hroe_ddb_error(ERRCODE_HROE_SERIALIZATION, "SerializationException", (msg))
#define HroeResourceNotFound() \
	hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException", \
				   "Requested resource not found")

/*
 * A request's string (len bytes) as a C string, which would end at a U+0000:
 * one holding it is refused with a ValidationException naming what it is
 * (a table name, an expression, an attribute name of an expression), never
 * cut.  Strings that may hold it (AttributeValues) keep their lengths.
 */
extern char *hroe_request_cstring(const char *s, int len, const char *what);

/*
 * A required request member left out (or JSON null): DynamoDB's constraint
 * text, one constraint of a validation error naming the member's path, and
 * the ValidationException of that one constraint
 */
#define HROE_MSG_NOT_NULL "Member must not be null"
extern char *hroe_not_null_constraint(const char *path);
extern void hroe_missing_member(const char *path) pg_attribute_noreturn();

/* Throttling's messages (src/tables/throttle.c) */
#define HROE_MSG_PROVISIONED_THROUGHPUT_EXCEEDED \
	"The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API."
#define HROE_MSG_THROTTLING \
	"Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html"
/*
 * An empty S or B key value (the first %s "string" or "binary"), in one
 * text wherever a key is given: an item's table key (PutItem, a batch's
 * PutRequest) as a lookup Key (GetItem, UpdateItem, DeleteItem, a batch's
 * Keys and DeleteRequests); an item's secondary index key (%s the type, the
 * index's name, the attribute); an update that sets one (its own text, which
 * names neither); an ExclusiveStartKey's (the starting key's prefix)
 */
#define HROE_MSG_EMPTY_KEY \
	"One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty %s value. Key: %s"
#define HROE_MSG_EMPTY_INDEX_KEY \
	"One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s"
#define HROE_MSG_EMPTY_INDEX_KEY_UPDATE \
	"One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty %s value."
#define HROE_MSG_EMPTY_START_KEY \
	"The provided starting key is invalid: One or more parameter values were invalid: The AttributeValue for a key attribute cannot contain an empty %s value."
/* The word of an empty key value's type letter (S or B) */
#define HROE_EMPTY_KEY_TYPE(letter) ((letter) == 'B' ? "binary" : "string")

/*
 * A key that is not the table's (or index's) key: DynamoDB's text, and its
 * prefixed form for an ExclusiveStartKey
 */
#define HROE_MSG_KEY_SCHEMA "The provided key element does not match the schema"
#define HROE_MSG_START_KEY_INVALID "The provided starting key is invalid"

/*
 * Query's and Scan's Select beside a projection: the projection given
 * (ProjectionExpression or AttributesToGet) with any Select but
 * SPECIFIC_ATTRIBUTES, which DynamoDB words by HROE_SELECT_WORDS; and
 * SPECIFIC_ATTRIBUTES without one (Query puts it as one validation error,
 * Scan as it is)
 */
#define HROE_MSG_SELECT_PROJECTION "Cannot specify the %s when choosing to get %s"
#define HROE_SELECT_WORDS(select) \
	(strcmp((select), "COUNT") == 0 ? "only the Count" : (select))
#define HROE_MSG_SELECT_NO_PROJECTION \
	"Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES"

/* DynamoDB's __type of an error's SQLSTATE, or NULL (not DynamoDB's) */
extern const char *hroe_error_type(int sqlerrcode);

#endif							/* HROE_ERRORS_H */
