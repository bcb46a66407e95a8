/*-------------------------------------------------------------------------
 *
 * partiql_parse.c
 *	  DynamoDB's PartiQL: a recursive-descent parser of the four statements
 *	  DynamoDB runs (doc/partiql.md has the grammar):
 *
 *	  SELECT (* | path [, ...]) FROM table[."index"] [WHERE condition]
 *	  INSERT INTO table VALUE {'name': value, ...}
 *	  UPDATE table[."index"] (SET path = value [, ...] | REMOVE path [, ...]) ...
 *		  WHERE condition [RETURNING (ALL|MODIFIED) (OLD|NEW) *]
 *	  DELETE FROM table[."index"] WHERE condition [RETURNING ALL OLD *]
 *	  EXISTS(SELECT ...)	(a transaction's condition check)
 *
 * The tree (partiql.h) keeps the statement's meaning only; what the
 * statement may do with its table (keys, a Query or a Scan) is the
 * translation's (partiql_translate.c).  Every error is DynamoDB's
 * ValidationException: "Statement wasn't well formed, can't be processed",
 * or DynamoDB's own texts for a FROM path of more than two components or an
 * empty one and for DELETE's RETURNING.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "errors.h"
#include "partiql.h"

typedef struct Parser
{
	PqToken    *toks;
	int			ntoks;
	int			pos;
	int			nparams;
	int			depth;
} Parser;

static PqNode *Condition(Parser *p);
static PqNode *Value(Parser *p);
static PqNode *Operand(Parser *p);
static void Unexpected(Parser *p, const char *expected) pg_attribute_noreturn();

/* ---------- tokens ---------- */

static PqToken *
Peek(Parser *p)
{
	return &p->toks[p->pos];
}

static PqToken *
Next(Parser *p)
{
	PqToken    *t = &p->toks[p->pos];

	if (t->kind != PQT_END)
		p->pos++;
	return t;
}

/* Whether the next token is the punctuation s */
static bool
IsPunct(Parser *p, const char *s)
{
	PqToken    *t = Peek(p);

	return t->kind == PQT_PUNCT && strcmp(t->text, s) == 0;
}

/* Whether the next token is the keyword kw (any case) */
static bool
IsKeyword(Parser *p, const char *kw)
{
	PqToken    *t = Peek(p);

	return t->kind == PQT_IDENT && pg_strcasecmp(t->text, kw) == 0;
}

/* The error of an unexpected token, naming what was expected */
static void
Unexpected(Parser *p, const char *expected)
{
	PqToken    *t = Peek(p);

	if (t->kind == PQT_END)
		hroe_partiql_malformed(psprintf("unexpected end of statement, expected %s", expected));
	hroe_partiql_malformed(psprintf("unexpected token at offset %d, expected %s", t->offset, expected));
}

static bool
AcceptPunct(Parser *p, const char *s)
{
	if (!IsPunct(p, s))
		return false;
	Next(p);
	return true;
}

static void
ExpectPunct(Parser *p, const char *s)
{
	if (!AcceptPunct(p, s))
		Unexpected(p, psprintf("'%s'", s));
}

static bool
AcceptKeyword(Parser *p, const char *kw)
{
	if (!IsKeyword(p, kw))
		return false;
	Next(p);
	return true;
}

static void
ExpectKeyword(Parser *p, const char *kw)
{
	if (!AcceptKeyword(p, kw))
		Unexpected(p, kw);
}

/* Guard against nesting deeper than DynamoDB's */
static void
Enter(Parser *p)
{
	if (++p->depth > PQ_MAX_DEPTH)
		hroe_partiql_malformed("the statement nests too deeply");
}

/* ---------- nodes ---------- */

static PqNode *
MakeNode(PqKind kind, int nargs)
{
	PqNode	   *n = palloc0(sizeof(PqNode));

	n->kind = kind;
	n->nargs = nargs;
	if (nargs > 0)
		n->args = palloc0(sizeof(PqNode *) * nargs);
	return n;
}

/* Append a to n's arguments */
static void
AddArg(PqNode *n, PqNode *a, int *cap)
{
	if (n->nargs >= *cap)
	{
		*cap = *cap ? *cap * 2 : 4;
		n->args = n->args ? repalloc(n->args, sizeof(PqNode *) * *cap) :
			palloc(sizeof(PqNode *) * *cap);
	}
	n->args[n->nargs++] = a;
}

/* A name: bare (not a reserved word here) or quoted */
static bool
IsName(Parser *p)
{
	PqTokKind	k = Peek(p)->kind;

	return k == PQT_IDENT || k == PQT_QIDENT;
}

/* path: name ('.' name | '[' number ']')* */
static PqNode *
Path(Parser *p)
{
	PqNode	   *n = MakeNode(PQ_PATH, 0);
	int			cap = 4;

	if (!IsName(p))
		Unexpected(p, "an attribute name");
	n->steps = palloc(sizeof(PqStep) * cap);
	for (;;)
	{
		PqStep		s = {0};

		if (n->nsteps == 0 || AcceptPunct(p, "."))
		{
			PqToken    *t;

			if (!IsName(p))
				Unexpected(p, "an attribute name");
			t = Next(p);
			s.name = t->text;
			s.namelen = t->len;
		}
		else if (AcceptPunct(p, "["))
		{
			PqToken    *t = Next(p);
			char	   *end;
			long		v;

			if (t->kind != PQT_NUMBER || strspn(t->text, "0123456789") != (size_t) t->len)
				hroe_partiql_malformed("a list index must be a non-negative integer");
			errno = 0;
			v = strtol(t->text, &end, 10);
			if (errno != 0 || v > PG_INT32_MAX)
				hroe_partiql_malformed("a list index is out of range");
			s.index = (int) v;
			ExpectPunct(p, "]");
		}
		else
			break;
		if (n->nsteps >= cap)
		{
			cap *= 2;
			n->steps = repalloc(n->steps, sizeof(PqStep) * cap);
		}
		n->steps[n->nsteps++] = s;
		if (n->nsteps > PQ_MAX_DEPTH + 1)
			hroe_partiql_malformed("the path nests too deeply");
	}
	return n;
}

/* The values of a [..] list or <<..>> set, up to close */
static PqNode *
Collection(Parser *p, PqKind kind, const char *close)
{
	PqNode	   *n = MakeNode(kind, 0);
	int			cap = 0;

	Enter(p);
	if (!AcceptPunct(p, close))
	{
		do
			AddArg(n, Value(p), &cap);
		while (AcceptPunct(p, ","));
		ExpectPunct(p, close);
	}
	p->depth--;
	return n;
}

/* {'name': value, ...} */
static PqNode *
MapLiteral(Parser *p)
{
	PqNode	   *n = MakeNode(PQ_MAP, 0);
	int			cap = 0;
	int			kcap = 0;

	Enter(p);
	ExpectPunct(p, "{");
	if (!AcceptPunct(p, "}"))
	{
		do
		{
			PqToken    *k = Next(p);

			if (k->kind != PQT_STRING)
			{
				p->pos--;
				Unexpected(p, "a string as the name of a map's member");
			}
			ExpectPunct(p, ":");
			if (n->nargs >= kcap)
			{
				kcap = kcap ? kcap * 2 : 4;
				n->keys = n->keys ? repalloc(n->keys, sizeof(char *) * kcap) : palloc(sizeof(char *) * kcap);
				n->keylens = n->keylens ? repalloc(n->keylens, sizeof(int) * kcap) : palloc(sizeof(int) * kcap);
			}
			n->keys[n->nargs] = k->text;
			n->keylens[n->nargs] = k->len;
			AddArg(n, Value(p), &cap);
		} while (AcceptPunct(p, ","));
		ExpectPunct(p, "}");
	}
	p->depth--;
	return n;
}

/* A literal or ?, or NULL if the next token starts neither */
static PqNode *
Literal(Parser *p)
{
	PqToken    *t = Peek(p);
	PqNode	   *n;

	if (t->kind == PQT_STRING)
	{
		n = MakeNode(PQ_STRING, 0);
		n->str = t->text;
		n->len = t->len;
		Next(p);
		return n;
	}
	if (t->kind == PQT_NUMBER || (IsPunct(p, "-") && p->toks[p->pos + 1].kind == PQT_NUMBER))
	{
		bool		neg = AcceptPunct(p, "-");

		t = Next(p);
		n = MakeNode(PQ_NUMBER, 0);
		n->str = neg ? psprintf("-%s", t->text) : t->text;
		n->len = strlen(n->str);
		return n;
	}
	if (IsKeyword(p, "TRUE") || IsKeyword(p, "FALSE"))
	{
		n = MakeNode(PQ_BOOL, 0);
		n->ival = IsKeyword(p, "TRUE");
		Next(p);
		return n;
	}
	if (AcceptKeyword(p, "NULL"))
		return MakeNode(PQ_NULL, 0);
	if (AcceptPunct(p, "?"))
	{
		n = MakeNode(PQ_PARAM, 0);
		n->ival = p->nparams++;
		return n;
	}
	if (AcceptPunct(p, "["))
		return Collection(p, PQ_LIST, "]");
	if (AcceptPunct(p, "<<"))
		return Collection(p, PQ_BAG, ">>");
	if (IsPunct(p, "{"))
		return MapLiteral(p);
	return NULL;
}

/* A value: a literal, or a ? */
static PqNode *
Value(Parser *p)
{
	PqNode	   *n = Literal(p);

	if (n == NULL)
		Unexpected(p, "a value");
	return n;
}

/* name( args ): a function call (the name lower-cased) */
static PqNode *
Function(Parser *p)
{
	PqToken    *t = Next(p);
	PqNode	   *n = MakeNode(PQ_FUNC, 0);
	int			cap = 0;

	n->str = pstrdup(t->text);
	for (char *c = n->str; *c; c++)
		*c = pg_tolower((unsigned char) *c);
	n->len = t->len;
	Enter(p);
	ExpectPunct(p, "(");
	if (!AcceptPunct(p, ")"))
	{
		do
			AddArg(n, Operand(p), &cap);
		while (AcceptPunct(p, ","));
		ExpectPunct(p, ")");
	}
	p->depth--;
	return n;
}

/* An operand: a literal, ?, path or function call */
static PqNode *
Operand(Parser *p)
{
	PqNode	   *n = Literal(p);

	if (n)
		return n;
	if (Peek(p)->kind == PQT_IDENT && p->toks[p->pos + 1].kind == PQT_PUNCT &&
		strcmp(p->toks[p->pos + 1].text, "(") == 0)
		return Function(p);
	if (IsName(p))
		return Path(p);
	Unexpected(p, "an operand");
}

/* A predicate: ( condition ), a function, or a comparison of operands */
static PqNode *
Predicate(Parser *p)
{
	PqNode	   *left;
	PqNode	   *n;
	static const char *const cmps[] = {"=", "<>", "!=", "<", "<=", ">", ">="};

	if (AcceptPunct(p, "("))
	{
		Enter(p);
		n = Condition(p);
		ExpectPunct(p, ")");
		p->depth--;
		return n;
	}
	left = Operand(p);
	for (int i = 0; i < lengthof(cmps); i++)
		if (AcceptPunct(p, cmps[i]))
		{
			n = MakeNode(PQ_CMP, 2);
			n->op = i == 2 ? "<>" : cmps[i];
			n->args[0] = left;
			n->args[1] = Operand(p);
			return n;
		}
	if (AcceptKeyword(p, "BETWEEN"))
	{
		n = MakeNode(PQ_BETWEEN, 3);
		n->args[0] = left;
		n->args[1] = Operand(p);
		ExpectKeyword(p, "AND");
		n->args[2] = Operand(p);
		return n;
	}
	if (AcceptKeyword(p, "IN"))
	{
		const char *close = AcceptPunct(p, "[") ? "]" : (ExpectPunct(p, "("), ")");
		int			cap = 0;

		n = MakeNode(PQ_IN, 0);
		AddArg(n, left, &cap);
		do
			AddArg(n, Operand(p), &cap);
		while (AcceptPunct(p, ","));
		ExpectPunct(p, close);
		return n;
	}
	if (AcceptKeyword(p, "IS"))
	{
		n = MakeNode(PQ_IS, 1);
		n->args[0] = left;
		n->negated = AcceptKeyword(p, "NOT");
		if (AcceptKeyword(p, "MISSING"))
			n->op = "MISSING";
		else if (AcceptKeyword(p, "NULL"))
			n->op = "NULL";
		else
			Unexpected(p, "MISSING or NULL");
		return n;
	}
	if (left->kind == PQ_FUNC)
		return left;
	Unexpected(p, "a comparison");
}

/* NOT* predicate */
static PqNode *
Negation(Parser *p)
{
	PqNode	   *n;

	if (!AcceptKeyword(p, "NOT"))
		return Predicate(p);
	Enter(p);
	n = MakeNode(PQ_NOT, 1);
	n->args[0] = Negation(p);
	p->depth--;
	return n;
}

/* sub {kw sub}: a left-deep chain of kind (AND, OR) */
static PqNode *
Chain(Parser *p, const char *kw, PqKind kind, PqNode *(*sub) (Parser *p))
{
	PqNode	   *n = sub(p);

	while (AcceptKeyword(p, kw))
	{
		PqNode	   *c = MakeNode(kind, 2);

		c->args[0] = n;
		c->args[1] = sub(p);
		n = c;
	}
	return n;
}

/* a AND b AND ... */
static PqNode *
Conjunction(Parser *p)
{
	return Chain(p, "AND", PQ_AND, Negation);
}

/* a OR b OR ... */
static PqNode *
Condition(Parser *p)
{
	return Chain(p, "OR", PQ_OR, Conjunction);
}

/*
 * A table's name (and SELECT's ."index"): a component of the FROM path,
 * never empty (DynamoDB's check, made before the table is looked up)
 */
static char *
TableName(Parser *p)
{
	if (!IsName(p))
		Unexpected(p, "a table name");
	if (Peek(p)->len == 0)
		HroeValidation("Path component cannot be an empty string");
	/* (the tree holds names as C strings: none is cut short at a U+0000) */
	if (memchr(Peek(p)->text, '\0', Peek(p)->len) != NULL)
		Unexpected(p, "a table or index name");
	return Next(p)->text;
}

/*
 * The FROM path of SELECT, UPDATE and DELETE: a table and optionally an index
 * ("table"."index"), as DynamoDB at most two components, none empty; what a
 * statement may do with an index is the translation's
 */
static void
FromPath(Parser *p, PqStatement *s)
{
	s->table = TableName(p);
	if (AcceptPunct(p, "."))
	{
		s->index = TableName(p);
		if (IsPunct(p, "."))
			HroeValidation("A path may contain at most 2 components in the FROM clause");
	}
}

/*
 * RETURNING (ALL|MODIFIED) (OLD|NEW) *: the ReturnValues it stands for;
 * delete: DELETE's, ALL OLD only
 */
static const char *
Returning(Parser *p, bool delete)
{
	bool		all;
	bool		old;

	if (!AcceptKeyword(p, "RETURNING"))
		return NULL;
	if (AcceptKeyword(p, "ALL"))
		all = true;
	else if (AcceptKeyword(p, "MODIFIED"))
		all = false;
	else
		Unexpected(p, "ALL or MODIFIED");
	if (AcceptKeyword(p, "OLD"))
		old = true;
	else if (AcceptKeyword(p, "NEW"))
		old = false;
	else
		Unexpected(p, "OLD or NEW");
	ExpectPunct(p, "*");
	/* DELETE returns the item it deleted, if any, and nothing else */
	if (delete && !(all && old))
		HroeValidation(psprintf("Invalid returning clause: RETURNING %s %s *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
								all ? "ALL" : "MODIFIED", old ? "OLD" : "NEW"));
	return all ? (old ? "ALL_OLD" : "ALL_NEW") : (old ? "UPDATED_OLD" : "UPDATED_NEW");
}

/* SET's value: an operand, or operand + operand, operand - operand */
static PqNode *
SetValue(Parser *p)
{
	PqNode	   *n = Operand(p);

	if (IsPunct(p, "+") || IsPunct(p, "-"))
	{
		PqNode	   *a = MakeNode(PQ_ARITH, 2);

		a->op = Next(p)->text;
		a->args[0] = n;
		a->args[1] = Operand(p);
		return a;
	}
	return n;
}

/* UPDATE's SET and REMOVE clauses */
static void
UpdateActions(Parser *p, PqStatement *s)
{
	int			cap = 4;

	s->actions = palloc(sizeof(PqAction) * cap);
	while (IsKeyword(p, "SET") || IsKeyword(p, "REMOVE"))
	{
		bool		remove = IsKeyword(p, "REMOVE");

		Next(p);
		do
		{
			PqAction	a = {0};

			a.remove = remove;
			a.path = Path(p);
			if (!remove)
			{
				ExpectPunct(p, "=");
				a.value = SetValue(p);
			}
			if (s->nactions >= cap)
			{
				cap *= 2;
				s->actions = repalloc(s->actions, sizeof(PqAction) * cap);
			}
			s->actions[s->nactions++] = a;
		} while (AcceptPunct(p, ","));
	}
	if (s->nactions == 0)
		Unexpected(p, "SET or REMOVE");
}

/* A SELECT's projection, table and WHERE (after the keyword SELECT) */
static void
Select(Parser *p, PqStatement *s)
{
	if (!AcceptPunct(p, "*"))
	{
		int			cap = 4;

		s->proj = palloc(sizeof(PqNode *) * cap);
		do
		{
			if (s->nproj >= cap)
			{
				cap *= 2;
				s->proj = repalloc(s->proj, sizeof(PqNode *) * cap);
			}
			s->proj[s->nproj++] = Path(p);
		} while (AcceptPunct(p, ","));
	}
	ExpectKeyword(p, "FROM");
	FromPath(p, s);
	if (AcceptKeyword(p, "WHERE"))
		s->where = Condition(p);
}

/* One statement of stmt (len bytes) */
PqStatement *
hroe_partiql_parse(const char *stmt, int len)
{
	Parser		p = {0};
	PqStatement *s = palloc0(sizeof(PqStatement));

	p.toks = hroe_partiql_lex(stmt, len, &p.ntoks);
	if (AcceptKeyword(&p, "SELECT"))
	{
		s->kind = PQ_SELECT;
		Select(&p, s);
	}
	else if (AcceptKeyword(&p, "EXISTS"))
	{
		s->kind = PQ_EXISTS;
		ExpectPunct(&p, "(");
		ExpectKeyword(&p, "SELECT");
		Select(&p, s);
		ExpectPunct(&p, ")");
	}
	else if (AcceptKeyword(&p, "INSERT"))
	{
		s->kind = PQ_INSERT;
		ExpectKeyword(&p, "INTO");
		s->table = TableName(&p);
		/* (DynamoDB's grammar has no index here) */
		if (IsPunct(&p, "."))
			hroe_partiql_malformed("FROM clause may only contain a single table name");
		ExpectKeyword(&p, "VALUE");
		s->value = IsPunct(&p, "?") ? Value(&p) : MapLiteral(&p);
	}
	else if (AcceptKeyword(&p, "UPDATE"))
	{
		s->kind = PQ_UPDATE;
		FromPath(&p, s);
		UpdateActions(&p, s);
		ExpectKeyword(&p, "WHERE");
		s->where = Condition(&p);
		s->returning = Returning(&p, false);
	}
	else if (AcceptKeyword(&p, "DELETE"))
	{
		s->kind = PQ_DELETE;
		ExpectKeyword(&p, "FROM");
		FromPath(&p, s);
		ExpectKeyword(&p, "WHERE");
		s->where = Condition(&p);
		s->returning = Returning(&p, true);
	}
	else
		hroe_partiql_malformed("Expected data manipulation");
	(void) AcceptPunct(&p, ";");
	if (Peek(&p)->kind != PQT_END)
		Unexpected(&p, "the end of the statement");
	s->nparams = p.nparams;
	return s;
}
