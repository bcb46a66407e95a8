/*-------------------------------------------------------------------------
 *
 * dynamodb_limits.h
 *	  DynamoDB's limits, in one place (doc/dynamodb-rules.md#limits): item
 *	  and key sizes, the capacity unit sizes, page, batch and transaction
 *	  sizes, the number of indexes and of expression parts.  Every module
 *	  takes its limits from here; none is written as a literal elsewhere.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_LIMITS_H
#define HROE_LIMITS_H

/* items and attributes */
#define HROE_ITEM_MAX_SIZE		409600	/* an item: 400 KB, inclusive */
#define HROE_ITEM_MAX_DEPTH		32		/* levels of values in an attribute,
										 * the attribute's own value level 1,
										 * an L's or M's members one deeper */
/*
 * UpdateItem's own 400 KB measure (doc/dynamodb-rules.md#keys-and-item-size):
 * besides the finished item, the top-level attributes the update writes
 * plus these bytes for the update and for each of its actions may not pass
 * HROE_ITEM_MAX_SIZE
 */
#define HROE_UPDATE_COST		3		/* the update itself */
#define HROE_UPDATE_SET_COST	19		/* a SET or ADD */
#define HROE_UPDATE_INDEX_COST	20		/* a SET or ADD of a list element */
#define HROE_UPDATE_REMOVE_COST	2		/* a REMOVE or DELETE */
#define HROE_ITEM_MAX_NAME		65535	/* an attribute name, in bytes */
#define HROE_JSON_MAX_DEPTH		1000	/* nesting of a request body's JSON
										 * (hroe-gateway's bound too) */

/* numbers: significant digits, the exponent of the leading digit */
#define HROE_NUMBER_MAX_DIGITS		38
#define HROE_NUMBER_MAX_EXPONENT	125		/* 9.99...E+125 */
#define HROE_NUMBER_MIN_EXPONENT	(-130)	/* 1E-130 */

/* keys */
#define HROE_HASH_KEY_MAX		2048	/* a partition key, in bytes */
#define HROE_RANGE_KEY_MAX		1024	/* a sort key, in bytes */
#define HROE_KEY_MAX_BYTES		HROE_HASH_KEY_MAX	/* any hroe.key */
#define HROE_SORT_KEY_MAX		HROE_RANGE_KEY_MAX	/* a collection's sort key */

/* capacity units: a read unit reads 4 KB, a write unit writes 1 KB */
#define HROE_RCU_BYTES			4096
#define HROE_WCU_BYTES			1024
#define HROE_PARTITION_MAX_RCU	3000	/* one partition's reads per second */
#define HROE_PARTITION_MAX_WCU	1000	/* ... and writes */
#define HROE_BURST_SECONDS		300		/* unused capacity a table or GSI banks */

/* tables and indexes */
#define HROE_MAX_GSIS			20		/* global secondary indexes of a table */
#define HROE_MAX_LSIS			5		/* local secondary indexes of a table */
#define HROE_MAX_VECTOR_INDEXES	5		/* vector indexes of a table */
/* a table's indexes, its vector indexes too (a write's units per index) */
#define HROE_MAX_INDEXES		(HROE_MAX_GSIS + HROE_MAX_LSIS + HROE_MAX_VECTOR_INDEXES)
#define HROE_ITEM_COLLECTION_MAX	(INT64CONST(10) * 1024 * 1024 * 1024)	/* an item
																	 * collection of a
																	 * table with LSIs */
/* vector indexes (doc/vectors.md) */
#define HROE_VECTOR_DIMENSIONS_MAX	4096	/* a vector index's Dimensions */
#define HROE_VECTOR_TOP_K_MAX	100		/* SearchVectors' TopK */
#define HROE_VECTOR_BYTES_UNIT	1024	/* VectorSearchRequestBytes and
										 * VectorWriteRequestBytes: whole KB */
#define HROE_LIST_TABLES_MAX	100		/* table names in a ListTables page */
#define HROE_TABLE_NAME_MIN		3		/* a table or index name, [a-zA-Z0-9_.-] */
#define HROE_TABLE_NAME_MAX		255
#define HROE_TABLE_ARN_MAX		1024	/* an item operation's TableName (name or ARN) */
#define HROE_SCAN_SEGMENTS_MAX	1000000	/* TotalSegments of a parallel Scan */
#define HROE_THROUGHPUT_MAX		INT64CONST(1000000000000)	/* read or write
															 * capacity units */

/*
 * DescribeLimits: an account's default quotas of an on-demand account
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html)
 */
#define HROE_ACCOUNT_MAX_READ_UNITS		80000
#define HROE_ACCOUNT_MAX_WRITE_UNITS	80000
#define HROE_TABLE_MAX_READ_UNITS		40000
#define HROE_TABLE_MAX_WRITE_UNITS		40000
/* (DescribeEndpoints' cache period: DDB_ENDPOINT_CACHE_MINUTES, protocol/ddb_types.h) */
/* ListContributorInsights: MaxResults' bound and default */
#define HROE_CONTRIBUTOR_INSIGHTS_PAGE_MAX	100
#define HROE_CONTRIBUTOR_INSIGHTS_PAGE_DEFAULT	100
/* the enum value sets of the table options */
#define HROE_ENUM_TABLE_CLASS	"STANDARD, STANDARD_INFREQUENT_ACCESS"
#define HROE_ENUM_SSE_TYPE		"AES256, KMS"
#define HROE_ENUM_CI_ACTION		"ENABLE, DISABLE"
#define HROE_ENUM_CI_MODE		"ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS"

/* tags */
#define HROE_MAX_TAGS			50		/* tags of a table */
#define HROE_TAG_KEY_MAX		128		/* a tag key, in characters */
#define HROE_TAG_VALUE_MAX		256		/* a tag value, in characters */
#define HROE_ARN_MAX			1283	/* a ResourceArn, in characters */
/*
 * A resource-based policy document, in bytes, whitespace counted (checked
 * in SQL, by hroe.check_resource_policy in src/tables/policy.sql)
 */
#define HROE_RESOURCE_POLICY_MAX	20480

/*
 * on-demand backups: a BackupName as a table name (HROE_TABLE_NAME_MIN/MAX),
 * a BackupArn of 37 to 1024 characters, a ListBackups page; the SQL
 * functions of src/api/backup.sql check them (as hroe.tables' CHECK does
 * the table name's), the JSON API bounds a Limit with them
 */
#define HROE_BACKUP_ARN_MIN		37
#define HROE_BACKUP_ARN_MAX		1024
#define HROE_LIST_BACKUPS_MAX	100		/* backups in a ListBackups page */

/*
 * an incremental export's period, ExportFromTime to ExportToTime, in
 * seconds: 15 minutes to 24 hours (the minimum lowered only by the
 * superuser-only test setting hroe.incremental_export_min_period)
 */
#define HROE_INCREMENTAL_EXPORT_MIN_PERIOD	(15 * 60)
#define HROE_INCREMENTAL_EXPORT_MAX_PERIOD	(24 * 60 * 60)

/* reads */
#define HROE_PAGE_BYTES			(1024 * 1024)	/* a Query or Scan page */

/* batches */
#define HROE_BATCH_GET_MAX		100		/* keys of a BatchGetItem */
#define HROE_BATCH_WRITE_MAX	25		/* requests of a BatchWriteItem */
#define HROE_BATCH_GET_BYTES	(16 * 1024 * 1024)	/* a BatchGetItem response */

/* transactions */
#define HROE_TRANSACT_MAX		100		/* actions of a transaction */
#define HROE_TRANSACTION_BYTES	(4 * 1024 * 1024)	/* TransactWriteItems request,
													 * TransactGetItems items */
#define HROE_TOKEN_MAX			36		/* a ClientRequestToken, in bytes */
#define HROE_PARTIQL_STATEMENT_MAX	8192	/* a PartiQL statement, in characters */
#define HROE_PARTIQL_BATCH_MAX	25		/* statements of a BatchExecuteStatement */
#define HROE_PARTIQL_IN_KEYS_MAX	50	/* partition key values of a SELECT's
										 * IN (other IN: the expressions' 100) */

/* expressions */
#define HROE_EXPR_MAX_BYTES			4096	/* one expression string */
#define HROE_EXPR_MAX_PLACEHOLDER	255		/* one #name or :value, in bytes */
#define HROE_EXPR_MAX_SUBSTITUTIONS (2 * 1024 * 1024)	/* names + values, bytes */
#define HROE_EXPR_MAX_OPERATORS		300
#define HROE_EXPR_MAX_IN_OPERANDS	100
#define HROE_ATTRIBUTES_TO_GET_MAX	255		/* names of a legacy AttributesToGet */

/*
 * DynamoDB's enum value sets, as its validation messages list them (the JSON
 * API's validation pass, api_validate.c, and the checks of the layers below)
 */
#define HROE_ENUM_RETURN_VALUES	"ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW"
#define HROE_ENUM_RETURN_CC		"INDEXES, TOTAL, NONE"
#define HROE_ENUM_RICM			"SIZE, NONE"
#define HROE_ENUM_RETURN_OLD	"ALL_OLD, NONE"
#define HROE_ENUM_SELECT		"SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES"

#endif							/* HROE_LIMITS_H */
