/*-------------------------------------------------------------------------
 *
 * route.h
 *	  Which requests a hot standby may answer: DynamoDB's eventually
 *	  consistent reads.
 *
 * gateway/route.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_ROUTE_H
#define GATEWAY_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * true if the operation with this body (valid JSON) is an eventually
 * consistent read: GetItem, Query or Scan whose ConsistentRead is false or
 * absent, or BatchGetItem in which no table asks ConsistentRead.  Anything
 * in doubt (an escaped member name, a ConsistentRead that is not the literal
 * false) is not.
 */
extern bool route_eventual_read(const char *operation, const char *body, size_t len);

#endif							/* GATEWAY_ROUTE_H */
