/*-------------------------------------------------------------------------
 *
 * shim.c
 *	  The few backend functions that src/item_*.c (the item core), src/types/collection_io.c and
 *	  the expression modules (src/expression*.c) call, for running them
 *	  outside the server under libFuzzer.
 *
 * palloc allocations are tracked and all freed by ShimReset() after each
 * input, as a memory context reset would; ereport(ERROR) longjmps back to
 * the harness, as the backend's error recovery would.  Any allocation that
 * escapes this (a malloc) would show up as a LeakSanitizer report.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/memutils.h"
#include "utils/jsonb.h"

#include "item.h"
#include "shim.h"

typedef struct Chunk
{
	struct Chunk *prev;
	struct Chunk *next;
	size_t		size;
	max_align_t align[];
} Chunk;

static Chunk *chunks = NULL;
sigjmp_buf *shim_jmp = NULL;
int			shim_errcode = 0;

/* Link a new chunk */
static void *
Track(Chunk *c, size_t size)
{
	if (c == NULL)
		abort();
	c->size = size;
	c->prev = NULL;
	c->next = chunks;
	if (chunks)
		chunks->prev = c;
	chunks = c;
	return c->align;
}

/* Allocate tracked memory */
void *
palloc(Size size)
{
	if (size > MaxAllocSize)
		abort();				/* the backend would elog(ERROR): a bug either way */
	return Track(malloc(sizeof(Chunk) + size), size);
}

/* Allocate tracked zeroed memory */
void *
palloc0(Size size)
{
	void	   *p = palloc(size);

	memset(p, 0, size);
	return p;
}

/* Unlink a chunk */
static Chunk *
Untrack(void *p)
{
	Chunk	   *c = (Chunk *) ((char *) p - offsetof(Chunk, align));

	if (c->prev)
		c->prev->next = c->next;
	else
		chunks = c->next;
	if (c->next)
		c->next->prev = c->prev;
	return c;
}

/* Resize tracked memory */
void *
repalloc(void *p, Size size)
{
	Chunk	   *c;

	if (size > MaxAllocSize)
		abort();
	c = Untrack(p);
	return Track(realloc(c, sizeof(Chunk) + size), size);
}

/* Free tracked memory */
void
pfree(void *p)
{
	free(Untrack(p));
}

/* Free everything palloc'd since the last reset */
void
ShimReset(void)
{
	while (chunks)
	{
		Chunk	   *c = chunks;

		chunks = c->next;
		free(c);
	}
}

/* ---- StringInfo ---- */

/* StringInfo, as in the backend */
void
initStringInfo(StringInfo str)
{
	str->maxlen = 1024;
	str->data = palloc(str->maxlen);
	str->len = 0;
	str->data[0] = '\0';
	str->cursor = 0;
}

/* Make room for needed more bytes */
void
enlargeStringInfo(StringInfo str, int needed)
{
	int			newlen;

	if (needed < 0 || (Size) needed >= MaxAllocSize - (Size) str->len)
		abort();
	needed += str->len + 1;
	if (needed <= str->maxlen)
		return;
	newlen = 2 * str->maxlen;
	while (needed > newlen)
		newlen = 2 * newlen;
	if (newlen > (int) MaxAllocSize)
		newlen = (int) MaxAllocSize;
	str->data = repalloc(str->data, newlen);
	str->maxlen = newlen;
}

/* Append bytes */
void
appendBinaryStringInfo(StringInfo str, const char *data, int datalen)
{
	enlargeStringInfo(str, datalen);
	memcpy(str->data + str->len, data, datalen);
	str->len += datalen;
	str->data[str->len] = '\0';
}

/* Append a C string */
void
appendStringInfoString(StringInfo str, const char *s)
{
	appendBinaryStringInfo(str, s, strlen(s));
}

/* Append one character */
void
appendStringInfoChar(StringInfo str, char ch)
{
	enlargeStringInfo(str, 1);
	str->data[str->len++] = ch;
	str->data[str->len] = '\0';
}

/* Append printf-style */
void
appendStringInfo(StringInfo str, const char *fmt,...)
{
	for (;;)
	{
		va_list		args;
		int			avail = str->maxlen - str->len,
					n;

		va_start(args, fmt);
		n = vsnprintf(str->data + str->len, avail, fmt, args);
		va_end(args);
		if (n < 0)
			abort();
		if (n < avail)
		{
			str->len += n;
			return;
		}
		enlargeStringInfo(str, n);
	}
}

/* ---- errors ---- */

/* Format a message the way the backend would, to exercise the arguments */
static int
Format(const char *fmt, va_list args)
{
	char		buf[256];

	return vsnprintf(buf, sizeof(buf), fmt, args);
}

/* Every report is handled */
bool
errstart(int elevel, const char *domain)
{
	return true;
}

/* Every report is handled */
bool
errstart_cold(int elevel, const char *domain)
{
	return true;
}

/* Remember the SQLSTATE */
int
errcode(int sqlerrcode)
{
	shim_errcode = sqlerrcode;
	return 0;
}

#define SHIM_FORMAT(name) \
int \
name(const char *fmt,...) \
{ \
	va_list		args; \
	va_start(args, fmt); \
	Format(fmt, args); \
	va_end(args); \
	return 0; \
}
SHIM_FORMAT(errmsg)
SHIM_FORMAT(errmsg_internal)
SHIM_FORMAT(errdetail)
SHIM_FORMAT(errhint)

/* End of an ereport(ERROR): back to the harness */
void
errfinish(const char *filename, int lineno, const char *funcname)
{
	if (shim_jmp == NULL)
		abort();
	siglongjmp(*shim_jmp, 1);
}

/* A failed Assert: crash, so the fuzzer reports it */
void
ExceptionalCondition(const char *conditionName, const char *errorType,
					 const char *fileName, int lineNumber)
{
	fprintf(stderr, "TRAP: %s(\"%s\", File: \"%s\", Line: %d)\n",
			errorType, conditionName, fileName, lineNumber);
	abort();
}

/* ---- strings ---- */

char *
pstrdup(const char *in)
{
	return pnstrdup(in, strlen(in));
}

char *
pnstrdup(const char *in, Size len)
{
	char	   *out;

	len = strnlen(in, len);
	out = palloc(len + 1);
	memcpy(out, in, len);
	out[len] = '\0';
	return out;
}

char *
psprintf(const char *fmt,...)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			avail = buf.maxlen - buf.len,
					n;

		va_start(args, fmt);
		n = vsnprintf(buf.data + buf.len, avail, fmt, args);
		va_end(args);
		if (n < 0)
			abort();
		if (n < avail)
			return buf.data;
		enlargeStringInfo(&buf, n);
	}
}

/* ---- lists (the pg_list.h calls the expression modules make) ---- */

/* A new list of n cells; the cells live in a separate chunk */
static List *
NewList(NodeTag t, int n)
{
	List	   *l = palloc(offsetof(List, initial_elements));

	l->type = t;
	l->length = n;
	l->max_length = Max(n, 4);
	l->elements = palloc(sizeof(ListCell) * l->max_length);
	return l;
}

List *
list_make1_impl(NodeTag t, ListCell datum1)
{
	List	   *l = NewList(t, 1);

	l->elements[0] = datum1;
	return l;
}

List *
list_make2_impl(NodeTag t, ListCell datum1, ListCell datum2)
{
	List	   *l = NewList(t, 2);

	l->elements[0] = datum1;
	l->elements[1] = datum2;
	return l;
}

List *
list_make3_impl(NodeTag t, ListCell datum1, ListCell datum2, ListCell datum3)
{
	List	   *l = NewList(t, 3);

	l->elements[0] = datum1;
	l->elements[1] = datum2;
	l->elements[2] = datum3;
	return l;
}

List *
lappend(List *list, void *datum)
{
	if (list == NIL)
		list = NewList(T_List, 0);
	if (list->length == list->max_length)
	{
		list->max_length *= 2;
		list->elements = repalloc(list->elements, sizeof(ListCell) * list->max_length);
	}
	list->elements[list->length++].ptr_value = datum;
	return list;
}

List *
list_concat(List *list1, const List *list2)
{
	if (list2 == NIL)
		return list1;
	for (int i = 0; i < list2->length; i++)
		list1 = lappend(list1, list2->elements[i].ptr_value);
	return list1;
}

/*
 * ---- interrupts: CHECK_FOR_INTERRUPTS() in the item and expression loops;
 * nothing here ever sets InterruptPending ----
 */

volatile sig_atomic_t InterruptPending = false;

void
ProcessInterrupts(void)
{
}

/* ---- stack depth, as the backend's max_stack_depth check ---- */

static char *stack_base = NULL;

void
ShimSetStackBase(void)
{
	char		here;

	stack_base = &here;
}

void
check_stack_depth(void)
{
	char		here;

	if (stack_base && (stack_base - &here > 2 * 1024 * 1024 ||
					   &here - stack_base > 2 * 1024 * 1024))
		ereport(ERROR,
				(errcode(ERRCODE_STATEMENT_TOO_COMPLEX),
				 errmsg("stack depth limit exceeded")));
}

/* ---- the request reader's numbers (src/types/item_json_tree.c) ---- */

/*
 * The backend makes a Numeric with numeric_in; here the "Numeric" is a copy
 * of the number's text, which fuzz_item.c prints back
 */
Numeric
hroe_json_tree_numeric(const char *s, int len)
{
	return (Numeric) pnstrdup(s, len);
}
