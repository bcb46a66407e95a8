/*-------------------------------------------------------------------------
 *
 * expression_parse.c
 *	  DynamoDB condition expressions (ConditionExpression,
 *	  FilterExpression, KeyConditionExpression): the tokenizer and the
 *	  recursive-descent parser.
 *
 * Grammar (doc/dynamodb-rules.md#conditions-and-filters), lowest precedence first:
 *
 *	  or	  := and { OR and }
 *	  and	  := not { AND not }
 *	  not	  := NOT primary | primary
 *	  primary := simple | '(' or ')'
 *	  simple  := operand cmp operand
 *			   | operand BETWEEN operand AND operand
 *			   | operand IN '(' operand { ',' operand } ')'
 *			   | function
 *	  operand := '(' operand ')' | function | :value | path
 *	  function:= identifier '(' operand { ',' operand } ')'
 *	  path	  := (identifier | #name) { '.' (identifier | #name) | '[' digits ']' }
 *
 * "primary" is ambiguous at '(' (a parenthesised operand or a parenthesised
 * condition), so it tries "simple" first and backtracks; parse functions
 * therefore return NULL on failure instead of raising, and the syntax error
 * is reported at the furthest token any alternative reached, as a PEG parser
 * (dynalite's) does.  Syntax errors read "Syntax error; token: "x", near:
 * "..."" as DynamoDB's do.  Semantic errors are collected in one walk over
 * the tree and reported in dynalite's priority order.

 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/base64.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "expression_internal.h"

/* Raise a ValidationException with DynamoDB's message text. */
void
hroe_ex_validation_error(const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_HROE_VALIDATION),
			 errmsg("%s", msg),
			 errdetail("DynamoDB ValidationException.")));
}

/* Raise a SerializationException (malformed input DynamoDB cannot parse) */
void
hroe_ex_serialization_error(const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_HROE_SERIALIZATION),
			 errmsg("%s", msg),
			 errdetail("DynamoDB SerializationException.")));
}

/* Is c a character of an identifier or placeholder body? */
bool
hroe_ex_is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_';
}

/* Is c a character that may start a bare identifier? */
static inline bool
IsIdentStart(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Is name one of DynamoDB's 573 reserved words (case-insensitive)? */
bool
hroe_is_reserved_word(const char *name)
{
	char		upper[32];
	size_t		len = strlen(name);
	int			lo = 0,
				hi = HROE_NUM_RESERVED_WORDS - 1;

	if (len == 0 || len >= sizeof(upper))
		return false;			/* the longest reserved word is 18 bytes */
	for (size_t i = 0; i <= len; i++)
		upper[i] = pg_ascii_toupper((unsigned char) name[i]);
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;
		int			c = strcmp(upper, HroeReservedWords[mid]);

		if (c == 0)
			return true;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return false;
}

/* Map a case-insensitive keyword to its token type, T_IDENT otherwise. */
static TokType
KeywordType(const char *s, int len)
{
	static const struct
	{
		const char *word;
		TokType		type;
	}			keywords[] = {
		{"AND", T_AND}, {"OR", T_OR}, {"NOT", T_NOT},
		{"BETWEEN", T_BETWEEN}, {"IN", T_IN}
	};

	for (int i = 0; i < lengthof(keywords); i++)
		if (strlen(keywords[i].word) == len &&
			pg_strncasecmp(s, keywords[i].word, len) == 0)
			return keywords[i].type;
	return T_IDENT;
}

/* Split the expression into tokens; the last token is always T_EOF. */
void
hroe_ex_tokenize(Parser *p)
{
	const char *s = p->src;
	int			n = p->srclen;
	int			i = 0;
	int			cap = 16;

	p->toks = palloc(sizeof(Token) * cap);
	p->ntoks = 0;
	for (;;)
	{
		Token		t;

		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
			i++;
		t.start = i;
		if (i >= n)
			t.type = T_EOF;
		else if (IsIdentStart(s[i]))
		{
			while (i < n && hroe_ex_is_ident_char(s[i]))
				i++;
			t.type = KeywordType(s + t.start, i - t.start);
			/* "AND:v" is not the keyword AND (dynalite: !AttributePart) */
			if (t.type != T_IDENT && i < n && (s[i] == '#' || s[i] == ':'))
				t.type = T_IDENT;
		}
		else if (s[i] >= '0' && s[i] <= '9')
		{
			while (i < n && s[i] >= '0' && s[i] <= '9')
				i++;
			t.type = T_NUMBER;
		}
		else if (s[i] == '#' || s[i] == ':')
		{
			i++;
			while (i < n && hroe_ex_is_ident_char(s[i]))
				i++;
			if (i - t.start == 1)
				t.type = T_INVALID;
			else
				t.type = s[t.start] == '#' ? T_NAME : T_VALUE;
		}
		else
		{
			char		c = s[i++];

			switch (c)
			{
				case '(':
					t.type = T_LPAREN;
					break;
				case ')':
					t.type = T_RPAREN;
					break;
				case '[':
					t.type = T_LBRACKET;
					break;
				case ']':
					t.type = T_RBRACKET;
					break;
				case '.':
					t.type = T_DOT;
					break;
				case ',':
					t.type = T_COMMA;
					break;
				case '+':
					t.type = T_PLUS;
					break;
				case '-':
					t.type = T_MINUS;
					break;
				case '=':
					t.type = T_EQ;
					break;
				case '<':
					if (i < n && s[i] == '=')
						i++, t.type = T_LE;
					else if (i < n && s[i] == '>')
						i++, t.type = T_NE;
					else
						t.type = T_LT;
					break;
				case '>':
					if (i < n && s[i] == '=')
						i++, t.type = T_GE;
					else
						t.type = T_GT;
					break;
				default:
					t.type = T_INVALID;
					/* report a whole UTF-8 character, not one byte */
					while (i < n && ((unsigned char) s[i] & 0xC0) == 0x80)
						i++;
					break;
			}
		}
		t.len = i - t.start;
		if (p->ntoks == cap)
		{
			cap *= 2;
			p->toks = repalloc(p->toks, sizeof(Token) * cap);
		}
		p->toks[p->ntoks++] = t;
		if (t.type == T_EOF)
			break;
	}
}

/* Raise DynamoDB's syntax error at token index i. */
void
hroe_ex_syntax_error(Parser *p, int i)
{
	Token	   *t = &p->toks[i];
	int			from = i > 0 ? p->toks[i - 1].start : t->start;
	int			to = i + 1 < p->ntoks ? p->toks[i + 1].start + p->toks[i + 1].len
		: t->start + t->len;
	char	   *token = t->type == T_EOF ? pstrdup("<EOF>") : pnstrdup(p->src + t->start, t->len);

	ereport(ERROR,
			(errcode(ERRCODE_HROE_VALIDATION),
			 errmsg("Invalid %s: Syntax error; token: \"%s\", near: \"%s\"",
					p->param, token, pnstrdup(p->src + from, to - from)),
			 errdetail("DynamoDB ValidationException.")));
}

/* Record a failure at the current token and return NULL. */
HroeExprNode *
hroe_ex_fail(Parser *p)
{
	if (p->pos > p->err_pos)
		p->err_pos = p->pos;
	return NULL;
}

/* The type of the current token */
TokType
hroe_ex_peek(Parser *p)
{
	return p->toks[p->pos].type;
}

/* Consume a token of the given type, or record a failure. */
bool
hroe_ex_expect(Parser *p, TokType type)
{
	if (hroe_ex_peek(p) != type)
	{
		hroe_ex_fail(p);
		return false;
	}
	p->pos++;
	return true;
}

/* A new tree node located at token tok */
HroeExprNode *
hroe_ex_make_node(Parser *p, HroeExprKind kind, int tok)
{
	HroeExprNode *n = palloc0(sizeof(HroeExprNode));

	n->kind = kind;
	n->location = p->toks[tok].start;
	return n;
}

/* Parse one path element (identifier or #name) at the current token. */
static HroePathElem *
ParsePathName(Parser *p)
{
	Token	   *t = &p->toks[p->pos];
	HroePathElem *e;

	if (t->type != T_IDENT && t->type != T_NAME)
	{
		hroe_ex_fail(p);
		return NULL;
	}
	e = palloc0(sizeof(HroePathElem));
	if (t->type == T_NAME)
		e->placeholder = pnstrdup(p->src + t->start, t->len);
	else
	{
		e->name = pnstrdup(p->src + t->start, t->len);
		e->namelen = t->len;
	}
	p->pos++;
	return e;
}

/* Parse ".name" and "[n]" suffixes onto a path node. */
static HroeExprNode *
ParsePathTail(Parser *p, HroeExprNode *path)
{
	for (;;)
	{
		if (hroe_ex_peek(p) == T_DOT)
		{
			HroePathElem *e;

			p->pos++;
			if ((e = ParsePathName(p)) == NULL)
				return NULL;
			path->path = lappend(path->path, e);
		}
		else if (hroe_ex_peek(p) == T_LBRACKET)
		{
			Token	   *t;
			HroePathElem *e;
			long		index = 0;

			p->pos++;
			t = &p->toks[p->pos];
			if (t->type != T_NUMBER)
				return hroe_ex_fail(p);
			for (int i = 0; i < t->len; i++)
			{
				index = index * 10 + (p->src[t->start + i] - '0');
				if (index > PG_INT32_MAX)
					return hroe_ex_fail(p);
			}
			p->pos++;
			if (!hroe_ex_expect(p, T_RBRACKET))
				return NULL;
			e = palloc0(sizeof(HroePathElem));
			e->is_index = true;
			e->index = (int) index;
			path->path = lappend(path->path, e);
		}
		else
			return path;
	}
}

static HroeExprNode *ParseOperand(Parser *p);

/*
 * "operand, operand, ...)" appended to n's args (a function call's arguments,
 * IN's candidates): the closing parenthesis ends it; false on a syntax error
 */
static bool
ParseOperandList(Parser *p, HroeExprNode *n)
{
	for (;;)
	{
		HroeExprNode *arg = ParseOperand(p);

		if (arg == NULL)
			return false;
		n->args = lappend(n->args, arg);
		if (hroe_ex_peek(p) != T_COMMA)
			break;
		p->pos++;
	}
	if (!hroe_ex_expect(p, T_RPAREN))
		return false;
	p->noperators++;
	return true;
}

/* operand without surrounding parentheses: function call, :value or path */
static HroeExprNode *
ParseBareOperand(Parser *p)
{
	Token	   *t = &p->toks[p->pos];
	HroeExprNode *n;

	if (t->type == T_IDENT && p->toks[p->pos + 1].type == T_LPAREN)
	{
		n = hroe_ex_make_node(p, HROE_EXPR_FUNCTION, p->pos);
		n->funcname = pnstrdup(p->src + t->start, t->len);
		p->pos += 2;
		return ParseOperandList(p, n) ? n : NULL;
	}
	if (t->type == T_VALUE)
	{
		n = hroe_ex_make_node(p, HROE_EXPR_VALUE, p->pos);
		n->valname = pnstrdup(p->src + t->start, t->len);
		p->pos++;
		return n;
	}
	if (t->type == T_IDENT || t->type == T_NAME)
	{
		n = hroe_ex_make_node(p, HROE_EXPR_PATH, p->pos);
		n->path = list_make1(ParsePathName(p));
		return ParsePathTail(p, n);
	}
	return hroe_ex_fail(p);
}

/* operand, possibly in parentheses; "(a).b" continues the path */
static HroeExprNode *
ParseOperand(Parser *p)
{
	HroeExprNode *n;

	check_stack_depth();
	if (hroe_ex_peek(p) != T_LPAREN)
		return ParseBareOperand(p);
	p->pos++;
	if ((n = ParseOperand(p)) == NULL || !hroe_ex_expect(p, T_RPAREN))
		return NULL;
	n->parens++;
	if (n->kind == HROE_EXPR_PATH && (hroe_ex_peek(p) == T_DOT || hroe_ex_peek(p) == T_LBRACKET))
		return ParsePathTail(p, n);
	return n;
}

/* comparison, BETWEEN, IN, or a bare function call used as a condition */
static HroeExprNode *
ParseSimple(Parser *p)
{
	int			start = p->pos;
	HroeExprNode *x,
			   *n;
	static const TokType cmps[] = {T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE};

	if ((x = ParseOperand(p)) == NULL)
		return NULL;
	for (int i = 0; i < lengthof(cmps); i++)
	{
		if (hroe_ex_peek(p) == cmps[i])
		{
			HroeExprNode *y;

			n = hroe_ex_make_node(p, HROE_EXPR_COMPARE, p->pos);
			n->op = (HroeCmpOp) i;
			p->pos++;
			if ((y = ParseOperand(p)) == NULL)
				return NULL;
			n->args = list_make2(x, y);
			p->noperators++;
			return n;
		}
	}
	if (hroe_ex_peek(p) == T_BETWEEN)
	{
		HroeExprNode *lo,
				   *hi;

		n = hroe_ex_make_node(p, HROE_EXPR_BETWEEN, p->pos);
		p->pos++;
		if ((lo = ParseOperand(p)) == NULL || !hroe_ex_expect(p, T_AND) ||
			(hi = ParseOperand(p)) == NULL)
			return NULL;
		n->args = list_make3(x, lo, hi);
		p->noperators++;
		return n;
	}
	if (hroe_ex_peek(p) == T_IN)
	{
		n = hroe_ex_make_node(p, HROE_EXPR_IN, p->pos);
		p->pos++;
		if (!hroe_ex_expect(p, T_LPAREN))
			return NULL;
		n->args = list_make1(x);
		return ParseOperandList(p, n) ? n : NULL;
	}
	/* a function call standing alone is a condition, unless parenthesised */
	if (x->kind == HROE_EXPR_FUNCTION && x->parens == 0 &&
		p->toks[start].type == T_IDENT)
		return x;
	return hroe_ex_fail(p);
}

/* simple condition, or a parenthesised condition */
static HroeExprNode *
ParsePrimary(Parser *p)
{
	int			start = p->pos;
	HroeExprNode *n;

	if ((n = ParseSimple(p)) != NULL)
		return n;
	p->pos = start;
	if (hroe_ex_peek(p) != T_LPAREN)
		return hroe_ex_fail(p);
	p->pos++;
	if ((n = hroe_ex_parse_or(p)) == NULL || !hroe_ex_expect(p, T_RPAREN))
		return NULL;
	n->parens++;
	return n;
}

/* NOT applies to one primary condition */
static HroeExprNode *
ParseNot(Parser *p)
{
	HroeExprNode *n,
			   *arg;

	if (hroe_ex_peek(p) != T_NOT)
		return ParsePrimary(p);
	n = hroe_ex_make_node(p, HROE_EXPR_NOT, p->pos);
	p->pos++;
	if ((arg = ParsePrimary(p)) == NULL)
		return NULL;
	n->args = list_make1(arg);
	p->noperators++;
	return n;
}

/* conjunction of NOT-level conditions, left-associative */
static HroeExprNode *
ParseAnd(Parser *p)
{
	HroeExprNode *x = ParseNot(p);

	while (x != NULL && hroe_ex_peek(p) == T_AND)
	{
		HroeExprNode *n = hroe_ex_make_node(p, HROE_EXPR_AND, p->pos),
				   *y;

		p->pos++;
		if ((y = ParseNot(p)) == NULL)
			return NULL;
		n->args = list_make2(x, y);
		p->noperators++;
		x = n;
	}
	return x;
}

/* disjunction, the lowest precedence */
HroeExprNode *
hroe_ex_parse_or(Parser *p)
{
	HroeExprNode *x;

	check_stack_depth();
	x = ParseAnd(p);
	while (x != NULL && hroe_ex_peek(p) == T_OR)
	{
		HroeExprNode *n = hroe_ex_make_node(p, HROE_EXPR_OR, p->pos),
				   *y;

		p->pos++;
		if ((y = ParseAnd(p)) == NULL)
			return NULL;
		n->args = list_make2(x, y);
		p->noperators++;
		x = n;
	}
	return x;
}
