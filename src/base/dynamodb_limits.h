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
#define HROE_ITEM_MAX_DEPTH		32		/* nesting of L and M */
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

/* tags */
#define HROE_MAX_TAGS			50		/* tags of a table */
#define HROE_TAG_KEY_MAX		128		/* a tag key, in characters */
#define HROE_TAG_VALUE_MAX		256		/* a tag value, in characters */
#define HROE_ARN_MAX			1283	/* a ResourceArn, in characters */

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
