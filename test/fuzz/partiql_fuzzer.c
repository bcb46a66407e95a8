/*-------------------------------------------------------------------------
 *
 * partiql_fuzzer.c
 *	  libFuzzer harness for hroe's PartiQL front end (src/partiql/partiql_lex.c,
 *	  src/partiql/partiql_parse.c), run outside the server on test/fuzz/shim.c.
 *
 * Input: a statement's text.  Oracles: a statement the parser accepts is
 * printed back as PartiQL (below), which must parse again and print the same
 * text (the tree keeps everything the statement said); the count of ?s must
 * be the number of parameter nodes, numbered 0..n-1 in order.  Rejections
 * must be DynamoDB's ValidationException (class HR000), never a crash.
 *
 * Build and run with test/fuzz/run-partiql.sh.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "errors.h"
#include "lib/stringinfo.h"
#include "partiql.h"
#include "shim.h"

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* errors.c's, without its SQL function: DynamoDB's exception */
void
hroe_ddb_error(int code, const char *exception, const char *msg)
{
	ereport(ERROR, (errcode(code), errmsg("%s", msg), errdetail("DynamoDB %s.", exception)));
	pg_unreachable();
}

/* Stop with a message: an oracle failed */
static void
Fail(const char *what, const char *text)
{
	fprintf(stderr, "ORACLE FAILED: %s\n%s\n", what, text ? text : "");
	abort();
}

/* A quoted name or string, doubling the quote */
static void
Quote(StringInfo out, const char *s, int len, char q)
{
	appendStringInfoChar(out, q);
	for (int i = 0; i < len; i++)
	{
		if (s[i] == q)
			appendStringInfoChar(out, q);
		appendStringInfoChar(out, s[i]);
	}
	appendStringInfoChar(out, q);
}

/* A statement's FROM path: "table" or "table"."index" */
static void
FromPath(StringInfo out, PqStatement *s)
{
	Quote(out, s->table, strlen(s->table), '"');
	if (s->index)
	{
		appendStringInfoChar(out, '.');
		Quote(out, s->index, strlen(s->index), '"');
	}
}

static void Node(StringInfo out, PqNode *n, int *param);

static void
Args(StringInfo out, PqNode *n, int from, int *param)
{
	for (int i = from; i < n->nargs; i++)
	{
		if (i > from)
			appendStringInfoString(out, ", ");
		Node(out, n->args[i], param);
	}
}

/* A node as PartiQL; checks the ?s' numbers */
static void
Node(StringInfo out, PqNode *n, int *param)
{
	switch (n->kind)
	{
		case PQ_PATH:
			for (int i = 0; i < n->nsteps; i++)
			{
				if (n->steps[i].name)
				{
					if (i > 0)
						appendStringInfoChar(out, '.');
					Quote(out, n->steps[i].name, n->steps[i].namelen, '"');
				}
				else
					appendStringInfo(out, "[%d]", n->steps[i].index);
			}
			break;
		case PQ_STRING:
			Quote(out, n->str, n->len, '\'');
			break;
		case PQ_NUMBER:
			appendStringInfoString(out, n->str);
			break;
		case PQ_BOOL:
			appendStringInfoString(out, n->ival ? "TRUE" : "FALSE");
			break;
		case PQ_NULL:
			appendStringInfoString(out, "NULL");
			break;
		case PQ_PARAM:
			if (n->ival != (*param)++)
				Fail("parameters out of order", NULL);
			appendStringInfoChar(out, '?');
			break;
		case PQ_LIST:
			appendStringInfoChar(out, '[');
			Args(out, n, 0, param);
			appendStringInfoChar(out, ']');
			break;
		case PQ_BAG:
			appendStringInfoString(out, "<<");
			Args(out, n, 0, param);
			appendStringInfoString(out, ">>");
			break;
		case PQ_MAP:
			appendStringInfoChar(out, '{');
			for (int i = 0; i < n->nargs; i++)
			{
				if (i > 0)
					appendStringInfoString(out, ", ");
				Quote(out, n->keys[i], n->keylens[i], '\'');
				appendStringInfoString(out, ": ");
				Node(out, n->args[i], param);
			}
			appendStringInfoChar(out, '}');
			break;
		case PQ_CMP:
		case PQ_ARITH:
			Node(out, n->args[0], param);
			appendStringInfo(out, " %s ", n->op);
			Node(out, n->args[1], param);
			break;
		case PQ_BETWEEN:
			Node(out, n->args[0], param);
			appendStringInfoString(out, " BETWEEN ");
			Node(out, n->args[1], param);
			appendStringInfoString(out, " AND ");
			Node(out, n->args[2], param);
			break;
		case PQ_IN:
			Node(out, n->args[0], param);
			appendStringInfoString(out, " IN [");
			Args(out, n, 1, param);
			appendStringInfoChar(out, ']');
			break;
		case PQ_AND:
		case PQ_OR:
			/*
			 * parentheses only where the tree needs them (no deeper nesting
			 * than the input had): an OR under an AND, a right operand of the
			 * chain's own kind
			 */
			for (int i = 0; i < 2; i++)
			{
				PqKind		k = n->args[i]->kind;
				bool		paren = (n->kind == PQ_AND && k == PQ_OR) ||
					(i == 1 && (k == PQ_AND || k == PQ_OR));

				if (i == 1)
					appendStringInfoString(out, n->kind == PQ_AND ? " AND " : " OR ");
				if (paren)
					appendStringInfoChar(out, '(');
				Node(out, n->args[i], param);
				if (paren)
					appendStringInfoChar(out, ')');
			}
			break;
		case PQ_NOT:
			{
				bool		paren = n->args[0]->kind == PQ_AND || n->args[0]->kind == PQ_OR;

				appendStringInfoString(out, paren ? "NOT (" : "NOT ");
				Node(out, n->args[0], param);
				if (paren)
					appendStringInfoChar(out, ')');
				break;
			}
		case PQ_IS:
			Node(out, n->args[0], param);
			appendStringInfo(out, " IS %s%s", n->negated ? "NOT " : "", n->op);
			break;
		case PQ_FUNC:
			appendStringInfo(out, "%s(", n->str);
			Args(out, n, 0, param);
			appendStringInfoChar(out, ')');
			break;
	}
}

/* A statement as PartiQL (names and strings may hold NULs: *len) */
static char *
Statement(PqStatement *s, int *len)
{
	StringInfoData out;
	int			param = 0;

	initStringInfo(&out);
	switch (s->kind)
	{
		case PQ_SELECT:
		case PQ_EXISTS:
			appendStringInfoString(&out, s->kind == PQ_EXISTS ? "EXISTS(SELECT " : "SELECT ");
			if (s->nproj == 0)
				appendStringInfoChar(&out, '*');
			for (int i = 0; i < s->nproj; i++)
			{
				if (i > 0)
					appendStringInfoString(&out, ", ");
				Node(&out, s->proj[i], &param);
			}
			appendStringInfoString(&out, " FROM ");
			FromPath(&out, s);
			break;
		case PQ_INSERT:
			appendStringInfoString(&out, "INSERT INTO ");
			Quote(&out, s->table, strlen(s->table), '"');
			appendStringInfoString(&out, " VALUE ");
			Node(&out, s->value, &param);
			break;
		case PQ_UPDATE:
			appendStringInfoString(&out, "UPDATE ");
			FromPath(&out, s);
			for (int i = 0; i < s->nactions; i++)
			{
				appendStringInfoString(&out, s->actions[i].remove ? " REMOVE " : " SET ");
				Node(&out, s->actions[i].path, &param);
				if (!s->actions[i].remove)
				{
					appendStringInfoString(&out, " = ");
					Node(&out, s->actions[i].value, &param);
				}
			}
			break;
		case PQ_DELETE:
			appendStringInfoString(&out, "DELETE FROM ");
			FromPath(&out, s);
			break;
	}
	if (s->where)
	{
		appendStringInfoString(&out, " WHERE ");
		Node(&out, s->where, &param);
	}
	if (s->kind == PQ_EXISTS)
		appendStringInfoChar(&out, ')');
	if (s->returning)
		appendStringInfo(&out, " RETURNING %s %s *",
						 strncmp(s->returning, "ALL", 3) == 0 ? "ALL" : "MODIFIED",
						 strstr(s->returning, "OLD") ? "OLD" : "NEW");
	if (param != s->nparams)
		Fail("the count of parameters differs from the ?s", out.data);
	*len = out.len;
	return out.data;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sigjmp_buf	jb;
	char	   *input;
	char	   *volatile printed = NULL;
	int			len;
	volatile int stage = 0;

	if (size > 65536)
		return 0;
	shim_jmp = &jb;
	if (sigsetjmp(jb, 0) == 0)
	{
		PqStatement *s;

		/* a palloc'd copy without a terminator, so ASan sees reads past its end */
		input = palloc(size ? size : 1);
		memcpy(input, data, size);
		s = hroe_partiql_parse(input, (int) size);
		printed = Statement(s, &len);
		stage = 1;
		s = hroe_partiql_parse(printed, len);
		{
			int			len2;
			char	   *again = Statement(s, &len2);

			if (len2 != len || memcmp(again, printed, len) != 0)
				Fail("a printed statement printed differently once parsed again", printed);
		}
	}
	else
	{
		if (shim_errcode != ERRCODE_HROE_VALIDATION)
			Fail("a rejection that is not a ValidationException", NULL);
		if (stage == 1)
			Fail("a printed statement did not parse again", printed);
	}
	shim_jmp = NULL;
	ShimReset();
	return 0;
}
