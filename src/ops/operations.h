/*-------------------------------------------------------------------------
 *
 * operations.h
 *	  The operations layer's C API: every DynamoDB data-plane operation,
 *	  implemented once.  GetItem, PutItem, UpdateItem, DeleteItem with their
 *	  conditions (operations.c, operations_write.c), Query and Scan with
 *	  paging (operations_read.c), the batches (operations_batch.c), the
 *	  transactions (transactions.c), the row locks and capacity units
 *	  (capacity.h), the checks of a request (operations_request.c).  The SQL functions (hroe.get_item, hroe.put_item,
 *	  hroe.update_item, ...) and the JSON API (api*.c) both call it; the JSON
 *	  API only translates requests and responses and maps errors.
 *
 * Every call runs connected to SPI (the caller's SPI_connect) in the
 * caller's memory context, and raises DynamoDB's errors (errors.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_OPERATIONS_H
#define HROE_OPERATIONS_H

#include "storage/itemptr.h"
#include "utils/jsonb.h"

#include "capacity.h"
#include "dynamodb_limits.h"
#include "errors.h"
#include "expression.h"
#include "item.h"
#include "tables.h"

/* ---------- the call's error payload ---------- */

/*
 * What an error of the operation carries besides its message, for a caller
 * that answers with DynamoDB's error bodies: the JSON API makes one per
 * request and passes it to the operations it runs (HroeWriteRequest.call,
 * the batches' and transactions' call argument); the SQL functions pass
 * NULL, their errors' DETAIL carries the same.  The CancellationReasons of a
 * transaction, the old item of a failed condition
 * (ReturnValuesOnConditionCheckFailure ALL_OLD), the table being accessed
 * (an AccessDeniedException's resource).  Strings in outer.
 */
typedef struct HroeCall
{
	MemoryContext outer;		/* survives the request's subtransaction */
	char	   *reasons;		/* TransactionCanceled: JSON array text */
	char	   *item;			/* ConditionalCheckFailed: JSON text */
	char		resource[256];	/* the table being accessed, "" for none */
	/*
	 * The IAM action (without "dynamodb:") each table named to
	 * hroe_call_resource is checked for against its resource-based policy
	 * (policy.h), NULL for none; partiql: the request is PartiQL's, whose
	 * reads and writes are IAM's PartiQL actions
	 */
	const char *action;
	bool		partiql;
} HroeCall;

/* Name the table (len bytes, NULL: none) call (NULL: none) is about to access */
extern void hroe_call_resource(HroeCall *call, const char *table, int len);
/*
 * Refuse action on table (its index, or its stream stream_label; NULL:
 * none) if the resource's policy denies it
 */
extern void hroe_call_authorize(HroeCall *call, const char *action, const char *table,
								const char *index, const char *stream_label);
/* The IAM action of an operation (NULL: its items' own) */
extern const char *hroe_iam_action(const char *operation, bool partiql);

/* ---------- request parameters (operations_request.c) ---------- */

/* The expression parameters an operation takes (HroeRequestExprs) */
#define HROE_EXPR_CONDITION		0x01
#define HROE_EXPR_UPDATE		0x02
#define HROE_EXPR_FILTER		0x04
#define HROE_EXPR_PROJECTION	0x08
#define HROE_EXPR_KEY_CONDITION 0x10

/* The expression parameters of a request, as given (NULL: absent) */
typedef struct HroeExprParams
{
	const char *condition;		/* ConditionExpression */
	const char *update;			/* UpdateExpression */
	const char *filter;			/* FilterExpression */
	const char *projection;		/* ProjectionExpression */
	const char *key_condition;	/* KeyConditionExpression */
	Jsonb	   *names;			/* ExpressionAttributeNames */
	Jsonb	   *values;			/* ExpressionAttributeValues */
} HroeExprParams;

/* ... parsed with one set of placeholders, each of them used */
typedef struct HroeRequestExprs
{
	HroeExprContext *cxt;		/* NULL: no expression */
	HroeExprNode *condition;
	HroeUpdateExpr *update;
	HroeExprNode *filter;
	List	   *projection;
	HroeExprNode *key_condition;
} HroeRequestExprs;

extern void hroe_exprs_parse(const HroeExprParams *p, int allowed, HroeRequestExprs *e);

/* A request's table, or ResourceNotFoundException (NULL name: missing) */
extern HroeTableMeta *hroe_request_table(const char *name);

/* DynamoDB's checks of ReturnValues, ReturnConsumedCapacity and others */
extern void hroe_check_return_cc(const char *rcc);
extern bool hroe_check_return_old(const char *rv);
extern const char *hroe_check_write_return_values(const char *rv);
extern const char *hroe_check_update_return_values(const char *rv);
extern bool hroe_check_return_old_on_failure(const char *v);
extern void hroe_check_item_collection_metrics(const char *ricm);

/* The request key as an item, validated against t's key schema (keys set) */
extern HroeItem *hroe_request_key(HroeTableMeta *t, Jsonb *key, Datum *keys);

/* ItemCollectionMetrics (operations_write.c) */
extern Jsonb *hroe_item_collection_metrics(HroeTableMeta *t, HroeItem *item);
extern char *hroe_item_collection_metrics_map(int n, HroeTableMeta **tables, const char **names,
											   HroeItem **items);

/* ---------- GetItem ---------- */

extern HroeItem *hroe_get(HroeTableMeta *t, Jsonb *key, bool consistent, double *units);

/* ---------- PutItem, UpdateItem, DeleteItem ---------- */

typedef enum HroeWriteKind
{
	HROE_WRITE_PUT,
	HROE_WRITE_UPDATE,
	HROE_WRITE_DELETE
} HroeWriteKind;

typedef struct HroeWriteRequest
{
	HroeCall   *call;			/* the error payload, or NULL */
	HroeWriteKind kind;
	const char *table;			/* TableName, as given */
	HroeTableMeta *t;			/* ... looked up */
	HroeItem   *item;			/* Put: the item */
	Jsonb	   *key;			/* Update, Delete: the key */
	HroeExprNode *condition;	/* ConditionExpression or NULL */
	HroeUpdateExpr *update;		/* Update: UpdateExpression or NULL */
	const char *return_values;	/* ReturnValues, checked (NULL: NONE) */
	const char *rcc;			/* ReturnConsumedCapacity (NULL: NONE) */
	bool		return_old_on_failure;	/* ...OnConditionCheckFailure ALL_OLD */
} HroeWriteRequest;

typedef struct HroeWriteResult
{
	HroeItem   *attributes;		/* Attributes (ReturnValues) or NULL */
	Jsonb	   *capacity;		/* ConsumedCapacity or NULL */
} HroeWriteResult;

/*
 * A write: a condition is checked on the old item under its key's lock and
 * its row lock (ConditionalCheckFailedException); an update applied to the
 * old item, or to the key alone (an upsert)
 */
extern void hroe_write_item(const HroeWriteRequest *r, HroeWriteResult *res);

/* The plain (unconditional) Put and Delete underneath */
extern HroeItem *hroe_put(HroeTableMeta *t, HroeItem *item, bool locked, HroeItem *locked_old,
						  ItemPointer locked_tid, bool need_old, double *units,
						  double *index_units, bool *conflict);
extern HroeItem *hroe_delete(HroeTableMeta *t, Jsonb *key, double *units, double *index_units);

/* ---------- row locks ---------- */

/*
 * The row of keys locked FOR UPDATE: its item (copied into cxt) or NULL
 * when absent, and its TID in *tid (when given)
 */
extern HroeItem *hroe_lock_row(HroeTableMeta *t, Datum *keys, ItemPointer tid,
							   MemoryContext cxt);

/* The key's advisory lock (identity: hroe_item_key_identity), then its row */
extern HroeItem *hroe_lock_item(HroeTableMeta *t, Datum *keys, const char *identity,
								ItemPointer tid);

/* ---------- Query, Scan ---------- */

/* One Query or Scan call, its expressions parsed */
typedef struct HroeReadRequest
{
	const char *table;
	const char *index;			/* IndexName or NULL */
	bool		query;			/* Query, else Scan */
	HroeExprNode *kce;			/* Query: the KeyConditionExpression */
	HroeExprNode *filter;		/* FilterExpression or NULL */
	List	   *projection;		/* ProjectionExpression paths or NIL */
	bool		forward;		/* ScanIndexForward */
	bool		consistent;		/* ConsistentRead */
	int64		limit;			/* Limit (checked >= 1), 0: none */
	Jsonb	   *esk;			/* ExclusiveStartKey or NULL */
	const char *select;			/* Select or NULL */
	const char *rcc;			/* ReturnConsumedCapacity or NULL */
	bool		has_segment;	/* Scan: Segment given */
	bool		has_total;		/* Scan: TotalSegments given */
	int32		segment;
	int32		total_segments;
	bool		key_bounds;		/* PartiQL's Query: a lower and an upper sort
								 * key bound (sk > a AND sk < b) make a range */
} HroeReadRequest;

/* The page a read returns */
typedef struct HroeReadPage
{
	bool		count_only;		/* Select COUNT: no items */
	int			nitems;
	Datum	   *items;			/* hroe.item Datums (filtered, projected) */
	int32		count;
	int32		scanned;
	Jsonb	   *last_key;		/* LastEvaluatedKey or NULL */
	Jsonb	   *capacity;		/* ConsumedCapacity or NULL */
} HroeReadPage;

extern void hroe_read_page(HroeReadRequest *r, HroeReadPage *page);

/* ---------- BatchGetItem, BatchWriteItem ---------- */

/*
 * The batches of DynamoDB JSON RequestItems (as the SQL functions take
 * them): DynamoDB's response body
 */
extern char *hroe_batch_get(HroeCall *call, Jsonb *request_items, const char *rcc);
extern char *hroe_batch_write(HroeCall *call, Jsonb *request_items, const char *rcc, bool ricm);

/* ---------- TransactWriteItems, TransactGetItems ---------- */

typedef enum HroeTxKind
{
	HROE_TX_PUT,
	HROE_TX_UPDATE,
	HROE_TX_DELETE,
	HROE_TX_CHECK,
	HROE_TX_GET
} HroeTxKind;

/* One action of a transaction */
typedef struct HroeTxAction
{
	int			index;			/* its place in TransactItems */
	HroeTxKind	kind;
	char	   *table;
	HroeTableMeta *t;
	HroeRequestExprs e;
	Jsonb	   *key;			/* all but Put: the key */
	HroeItem   *item;			/* Put: the item; else the key as an item */
	bool		return_old;		/* ReturnValuesOnConditionCheckFailure ALL_OLD */
	/* set by hroe_tx_action_prepare and the transaction */
	char	   *invalid;		/* its key's ValidationError, or NULL */
	Datum		keys[2];
	char	   *identity;		/* (NULL when invalid) */
	HroeItem   *old;			/* the item read under the lock, or NULL */
	ItemPointerData tid;		/* old's row, locked FOR UPDATE (writes) */
	HroeItem   *updated;		/* Update: the item it makes */
} HroeTxAction;

/*
 * Validate an action's key (a Put's item) against its table: what
 * DynamoDB's input validation finds raised, a key of another type or shape
 * than the table's left in invalid (the transaction, run, cancels with a
 * ValidationError for it); returns its request bytes
 */
extern int64 hroe_tx_action_prepare(HroeTxAction *a);

/*
 * TransactWriteItems of n actions, all or nothing; token (NULL: none) its
 * ClientRequestToken, items_text the TransactItems' text (the token's
 * request hash).  Returns the ConsumedCapacity (NULL for NONE); *icm (icm
 * NULL: not wanted) the ItemCollectionMetrics as JSON text, NULL if no table
 * has an LSI.
 */
extern Jsonb *hroe_transact_write(HroeCall *call, HroeTxAction *acts, int n, const char *token,
								  const char *items_text, const char *rcc, char **icm);

/* TransactGetItems: each action's old set; returns the ConsumedCapacity */
extern Jsonb *hroe_transact_get(HroeCall *call, HroeTxAction *acts, int n, const char *rcc);

#endif							/* HROE_OPERATIONS_H */
