/*-------------------------------------------------------------------------
 *
 * route.c
 *	  Which requests a hot standby may answer: DynamoDB's eventually
 *	  consistent reads (GetItem, Query, Scan, BatchGetItem without
 *	  ConsistentRead true); everything else runs on the primary.
 *
 * The body has been validated (json.c) before a request reaches the
 * database, so the scanner here only walks valid JSON: it looks at the
 * members of the top-level object (and, for BatchGetItem, of each table's
 * entry in RequestItems) and skips every other value without looking inside,
 * iteratively (no recursion however deep the body).  It errs towards the
 * primary: a member name written with escapes (which the engine's jsonb
 * would decode, say "Consistent\u0052ead") or a ConsistentRead that is
 * anything but the literal false sends the request to the primary, which
 * answers it (or its validation error) exactly as before.  Duplicate
 * members: any one not false counts.
 *
 * gateway/route.c
 *
 *-------------------------------------------------------------------------
 */
#include "route.h"

#include <string.h>

typedef struct Walker
{
	const char *p;
	const char *end;
} Walker;

static void
skip_ws(Walker *w)
{
	while (w->p < w->end && (*w->p == ' ' || *w->p == '\t' || *w->p == '\n' || *w->p == '\r'))
		w->p++;
}

/*
 * At a string's opening quote: move past its closing quote; *start and *len
 * give its raw contents, *escaped whether it holds a backslash.
 */
static void
skip_string(Walker *w, const char **start, size_t *len, bool *escaped)
{
	const char *s = ++w->p;

	*escaped = false;
	while (w->p < w->end && *w->p != '"')
	{
		if (*w->p == '\\')
		{
			*escaped = true;
			w->p++;
		}
		w->p++;
	}
	if (start)
		*start = s;
	if (len)
		*len = (size_t) ((w->p < w->end ? w->p : w->end) - s);
	if (w->p < w->end)
		w->p++;
}

/* Move past one value of any kind. */
static void
skip_value(Walker *w)
{
	long		depth = 0;
	bool		escaped;

	skip_ws(w);
	do
	{
		if (w->p >= w->end)
			return;
		switch (*w->p)
		{
			case '"':
				skip_string(w, NULL, NULL, &escaped);
				break;
			case '{':
			case '[':
				depth++;
				w->p++;
				break;
			case '}':
			case ']':
				depth--;
				w->p++;
				break;
			default:
				/* a literal, a number, a comma, a colon or white space */
				w->p++;
				while (depth == 0 && w->p < w->end && strchr(",}] \t\r\n", *w->p) == NULL)
					w->p++;
				break;
		}
	} while (depth > 0);
}

/* Is the next value exactly the literal false? (the walker moves past it) */
static bool
value_is_false(Walker *w)
{
	skip_ws(w);
	if (w->end - w->p >= 5 && memcmp(w->p, "false", 5) == 0)
	{
		w->p += 5;
		return true;
	}
	skip_value(w);
	return false;
}

typedef enum MemberAction
{
	MEMBER_SKIP,
	MEMBER_MUST_BE_FALSE,		/* ConsistentRead */
	MEMBER_TABLES				/* BatchGetItem's RequestItems */
} MemberAction;

static bool walk_object(Walker *w, bool batch_level);

/*
 * Walk the members of the object at w->p: false as soon as one makes the
 * request a strongly consistent (or doubtful) one.  batch_level: the
 * top-level object of a BatchGetItem, whose RequestItems is walked too.
 */
static bool
walk_members(Walker *w, bool batch_level, bool tables)
{
	skip_ws(w);
	if (w->p >= w->end || *w->p != '{')
		return false;		/* not an object: the primary answers its error */
	w->p++;
	for (;;)
	{
		const char *name;
		size_t		len;
		bool		escaped;
		MemberAction action = MEMBER_SKIP;

		skip_ws(w);
		if (w->p >= w->end)
			return false;
		if (*w->p == '}')
		{
			w->p++;
			return true;
		}
		if (*w->p == ',')
		{
			w->p++;
			continue;
		}
		if (*w->p != '"')
			return false;
		skip_string(w, &name, &len, &escaped);
		skip_ws(w);
		if (w->p < w->end && *w->p == ':')
			w->p++;
		if (tables)
		{
			/* a table's entry of RequestItems: its own members */
			if (!walk_object(w, false))
				return false;
			continue;
		}
		if (escaped)
			return false;
		if (len == 14 && memcmp(name, "ConsistentRead", 14) == 0)
			action = MEMBER_MUST_BE_FALSE;
		else if (batch_level && len == 12 && memcmp(name, "RequestItems", 12) == 0)
			action = MEMBER_TABLES;
		if (action == MEMBER_MUST_BE_FALSE)
		{
			if (!value_is_false(w))
				return false;
		}
		else if (action == MEMBER_TABLES)
		{
			if (!walk_members(w, false, true))
				return false;
		}
		else
			skip_value(w);
	}
}

/* An object whose ConsistentRead members must all be false. */
static bool
walk_object(Walker *w, bool batch_level)
{
	return walk_members(w, batch_level, false);
}

/* Is this request an eventually consistent read? (see route.h) */
bool
route_eventual_read(const char *operation, const char *body, size_t len)
{
	Walker		w = {body, body + len};

	if (strcmp(operation, "GetItem") == 0 || strcmp(operation, "Query") == 0 ||
		strcmp(operation, "Scan") == 0)
		return walk_object(&w, false);
	if (strcmp(operation, "BatchGetItem") == 0)
		return walk_object(&w, true);
	return false;
}
