/*-------------------------------------------------------------------------
 *
 * partiql_api.h
 *	  DynamoDB's PartiQL in the JSON API: a statement's translation
 *	  (partiql_translate.c) into the request of the operation DynamoDB runs for it,
 *	  and the operations ExecuteStatement, BatchExecuteStatement and
 *	  ExecuteTransaction (partiql_api.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_API_PARTIQL_H
#define HROE_API_PARTIQL_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"

#include "partiql.h"

/* One statement as the JSON API's request */
typedef struct PqRequest
{
	PqStatement *stmt;
	const char *op;				/* GetItem, Query, Scan, PutItem, ... */
	StringInfoData body;		/* the members, each after a comma */
	char	   *names;			/* ExpressionAttributeNames' members, or "" */
	char	   *values;			/* ExpressionAttributeValues' members, or "" */
	const HroeKeySchema *schema;	/* the table's or the index's */
	struct HroeIndexMeta *index;	/* a SELECT's "table"."index", or NULL */
	char	   *key;			/* the Key of a single-item request */
	int			nin;			/* partition key IN: a Query per value */
	char	  **in;				/* ... each value's AttributeValue text */
} PqRequest;

/* How a SELECT may read */
typedef enum PqReadMode
{
	PQ_READ_ANY,				/* ExecuteStatement's: Query or Scan */
	PQ_READ_BATCH,				/* BatchExecuteStatement's: one item by its key */
	PQ_READ_TRANSACTION			/* ExecuteTransaction's: one item by its key */
} PqReadMode;

extern void hroe_partiql_translate(PqStatement *s, JsonbContainer **params, int nparams,
								   PqReadMode mode, PqRequest *r);
extern Jsonb *hroe_partiql_request(PqRequest *r, const char *in_value, const char *extra);
extern bool hroe_partiql_is_read(PqStatement *s);

#endif							/* HROE_API_PARTIQL_H */
