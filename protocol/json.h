/*-------------------------------------------------------------------------
 *
 * json.h
 *	  The little JSON hroe-gateway needs: a strict validator (the body must
 *	  be JSON before anything else is checked, as DynamoDB does), a lookup of
 *	  one top-level string member, and string escaping for error bodies.
 *
 * protocol/json.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef GATEWAY_JSON_H
#define GATEWAY_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Deepest nesting accepted; deeper bodies are SerializationExceptions. */
#define JSON_MAX_DEPTH 1000

/* true if s[0..len) is one JSON value (RFC 8259) in valid UTF-8. */
extern bool json_validate(const char *s, size_t len);

/*
 * Copy the value of the top-level member "key" of the object s, when it is a
 * string without escapes, into out; false when absent, not a string, or
 * longer than outsize - 1.  s must be valid JSON.
 */
extern bool json_top_string(const char *s, size_t len, const char *key,
							char *out, size_t outsize);

/* Append s as a JSON string literal (quotes included). */
extern void json_append_string(StrBuf *b, const char *s);

#endif							/* GATEWAY_JSON_H */
