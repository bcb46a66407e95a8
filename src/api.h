/*-------------------------------------------------------------------------
 *
 * api.h
 *	  DynamoDB's JSON API (api.c): the write operations as SQL functions.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_API_H
#define HROE_API_H

#include "fmgr.h"

/* How a SQL argument becomes a request member */
typedef enum HroeArgKind
{
	HROE_ARG_TEXT,				/* a string */
	HROE_ARG_JSONB,				/* JSON as given */
	HROE_ARG_ITEM				/* a hroe.item, as DynamoDB JSON */
} HroeArgKind;

typedef struct HroeRequestArg
{
	const char *member;			/* the request member, e.g. "TableName" */
	HroeArgKind kind;
} HroeRequestArg;

extern Datum hroe_api_write_call(FunctionCallInfo fcinfo, const char *op,
								 const HroeRequestArg *args, int nargs);

#endif							/* HROE_API_H */
