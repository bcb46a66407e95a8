/*-------------------------------------------------------------------------
 *
 * partiql.h
 *	  DynamoDB's PartiQL: the statement tree the parser (partiql_lex.c,
 *	  partiql_parse.c) builds and the translation (partiql_translate.c) turns into
 *	  the JSON API's requests.
 *
 * The parser needs palloc and ereport only (the fuzzer runs it outside the
 * server, test/fuzz/run-partiql.sh); every error it raises is DynamoDB's
 * ValidationException.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_PARTIQL_H
#define HROE_PARTIQL_H

#include "dynamodb_limits.h"

/* The prefix of DynamoDB's message for a statement that does not parse */
#define PQ_MALFORMED "Statement wasn't well formed, can't be processed: "

/*
 * Deepest nesting of parentheses, NOT, functions and literals: an item's
 * (a literal nests no deeper than the item it may become)
 */
#define PQ_MAX_DEPTH HROE_ITEM_MAX_DEPTH

typedef enum PqKind
{
	PQ_PATH,					/* an attribute path */
	PQ_STRING,					/* 'text' (str, len) */
	PQ_NUMBER,					/* a number's text (str) */
	PQ_BOOL,					/* TRUE/FALSE (ival) */
	PQ_NULL,					/* NULL */
	PQ_PARAM,					/* ? (ival: its position, from 0) */
	PQ_LIST,					/* [a, b] (args) */
	PQ_MAP,						/* {'k': v} (keys, keylens, args) */
	PQ_BAG,						/* <<a, b>>: a set (args) */
	PQ_CMP,						/* args[0] op args[1] (op: "=", "<>", ...) */
	PQ_BETWEEN,					/* args[0] BETWEEN args[1] AND args[2] */
	PQ_IN,						/* args[0] IN (args[1..]) */
	PQ_AND,						/* args[0] AND args[1] */
	PQ_OR,						/* args[0] OR args[1] */
	PQ_NOT,						/* NOT args[0] */
	PQ_IS,						/* args[0] IS [NOT] MISSING|NULL (op, negated) */
	PQ_FUNC,					/* str(args...): begins_with, size, ... */
	PQ_ARITH					/* args[0] op args[1], op "+" or "-" */
} PqKind;

/* One step of a path: a name, or a list index */
typedef struct PqStep
{
	char	   *name;			/* NULL for an index */
	int			namelen;
	int			index;
} PqStep;

typedef struct PqNode
{
	PqKind		kind;
	const char *op;				/* PQ_CMP, PQ_ARITH; PQ_IS: "MISSING"/"NULL" */
	bool		negated;		/* PQ_IS NOT */
	char	   *str;			/* PQ_STRING, PQ_NUMBER, PQ_FUNC (lower case) */
	int			len;
	int			ival;			/* PQ_BOOL, PQ_PARAM */
	int			nargs;
	struct PqNode **args;
	char	  **keys;			/* PQ_MAP */
	int		   *keylens;
	int			nsteps;			/* PQ_PATH */
	PqStep	   *steps;
} PqNode;

typedef enum PqStmtKind
{
	PQ_SELECT,
	PQ_INSERT,
	PQ_UPDATE,
	PQ_DELETE,
	PQ_EXISTS					/* EXISTS(SELECT ...): a transaction's
								 * condition check (SELECT's members) */
} PqStmtKind;

/* One SET path = value or REMOVE path of an UPDATE */
typedef struct PqAction
{
	bool		remove;
	PqNode	   *path;
	PqNode	   *value;
} PqAction;

typedef struct PqStatement
{
	PqStmtKind	kind;
	char	   *table;
	char	   *index;			/* SELECT FROM "table"."index" */
	int			nproj;			/* 0: SELECT * */
	PqNode	  **proj;
	PqNode	   *where;
	PqNode	   *value;			/* INSERT's VALUE */
	int			nactions;
	PqAction   *actions;
	const char *returning;		/* ReturnValues of RETURNING, or NULL */
	int			nparams;		/* the ?s */
} PqStatement;

/* partiql_lex.c: the tokens */
typedef enum PqTokKind
{
	PQT_END,
	PQT_IDENT,					/* a bare name (keywords too) */
	PQT_QIDENT,					/* a "quoted" name */
	PQT_STRING,					/* 'text' */
	PQT_NUMBER,
	PQT_PUNCT					/* = <> != < <= > >= ( ) [ ] { } , . : ? * + -
								 * << >> ; */
} PqTokKind;

typedef struct PqToken
{
	PqTokKind	kind;
	char	   *text;			/* unescaped, NUL-terminated */
	int			len;
	int			offset;			/* in the statement */
} PqToken;

extern PqToken *hroe_partiql_lex(const char *stmt, int len, int *ntokens);
extern void hroe_partiql_malformed(const char *detail) pg_attribute_noreturn();

/* partiql_parse.c */
extern PqStatement *hroe_partiql_parse(const char *stmt, int len);

#endif							/* HROE_PARTIQL_H */
