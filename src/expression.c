/*-------------------------------------------------------------------------
 *
 * expression.c
 *	  DynamoDB expressions: tokenizer, recursive-descent parser, semantic
 *	  checks with DynamoDB's error texts, and the KeyConditionExpression pass.
 *
 * Grammar (dynamodb-semantics.md §4), lowest precedence first:
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

#include "expression.h"
#include "expression_reserved.h"
#include "item.h"

typedef enum TokType
{
	T_EOF,
	T_IDENT,
	T_NAME,						/* #name */
	T_VALUE,					/* :value */
	T_NUMBER,
	T_LPAREN,
	T_RPAREN,
	T_LBRACKET,
	T_RBRACKET,
	T_DOT,
	T_COMMA,
	T_EQ,
	T_NE,
	T_LT,
	T_LE,
	T_GT,
	T_GE,
	T_AND,
	T_OR,
	T_NOT,
	T_BETWEEN,
	T_IN,
	T_INVALID,
	T_PLUS,						/* UpdateExpression arithmetic */
	T_MINUS
} TokType;

typedef struct Token
{
	TokType		type;
	int			start;
	int			len;
} Token;

typedef struct Parser
{
	HroeExprContext *cxt;
	const char *param;
	const char *src;
	int			srclen;
	Token	   *toks;
	int			ntoks;
	int			pos;
	int			err_pos;		/* furthest token at which a rule failed */
	int			noperators;
} Parser;

/* First error of each kind, reported in dynalite's priority order */
typedef struct SemErrors
{
	char	   *parens;
	char	   *unknown_function;
	char	   *misused_function;
	char	   *reserved;
	char	   *attr_name_val;
	char	   *operand;
	char	   *distinct;
	char	   *function;
} SemErrors;

static HroeExprNode *ParseOr(Parser *p);

/* Raise a ValidationException with DynamoDB's message text. */
static void
ValidationError(const char *msg)
{
	ereport(ERROR,
			(errcode(ERRCODE_HROE_VALIDATION),
			 errmsg("%s", msg),
			 errdetail("DynamoDB ValidationException.")));
}

/* Is c a character of an identifier or placeholder body? */
static inline bool
IsIdentChar(char c)
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
static void
Tokenize(Parser *p)
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
			while (i < n && IsIdentChar(s[i]))
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
			while (i < n && IsIdentChar(s[i]))
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
static void
SyntaxError(Parser *p, int i)
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
static HroeExprNode *
Fail(Parser *p)
{
	if (p->pos > p->err_pos)
		p->err_pos = p->pos;
	return NULL;
}

/* The type of the current token */
static inline TokType
Peek(Parser *p)
{
	return p->toks[p->pos].type;
}

/* Consume a token of the given type, or record a failure. */
static bool
Expect(Parser *p, TokType type)
{
	if (Peek(p) != type)
	{
		Fail(p);
		return false;
	}
	p->pos++;
	return true;
}

/* A new tree node located at token tok */
static HroeExprNode *
MakeNode(Parser *p, HroeExprKind kind, int tok)
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
		Fail(p);
		return NULL;
	}
	e = palloc0(sizeof(HroePathElem));
	if (t->type == T_NAME)
		e->placeholder = pnstrdup(p->src + t->start, t->len);
	else
		e->name = pnstrdup(p->src + t->start, t->len);
	p->pos++;
	return e;
}

/* Parse ".name" and "[n]" suffixes onto a path node. */
static HroeExprNode *
ParsePathTail(Parser *p, HroeExprNode *path)
{
	for (;;)
	{
		if (Peek(p) == T_DOT)
		{
			HroePathElem *e;

			p->pos++;
			if ((e = ParsePathName(p)) == NULL)
				return NULL;
			path->path = lappend(path->path, e);
		}
		else if (Peek(p) == T_LBRACKET)
		{
			Token	   *t;
			HroePathElem *e;
			long		index = 0;

			p->pos++;
			t = &p->toks[p->pos];
			if (t->type != T_NUMBER)
				return Fail(p);
			for (int i = 0; i < t->len; i++)
			{
				index = index * 10 + (p->src[t->start + i] - '0');
				if (index > PG_INT32_MAX)
					return Fail(p);
			}
			p->pos++;
			if (!Expect(p, T_RBRACKET))
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
		if (Peek(p) != T_COMMA)
			break;
		p->pos++;
	}
	if (!Expect(p, T_RPAREN))
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
		n = MakeNode(p, HROE_EXPR_FUNCTION, p->pos);
		n->funcname = pnstrdup(p->src + t->start, t->len);
		p->pos += 2;
		return ParseOperandList(p, n) ? n : NULL;
	}
	if (t->type == T_VALUE)
	{
		n = MakeNode(p, HROE_EXPR_VALUE, p->pos);
		n->valname = pnstrdup(p->src + t->start, t->len);
		p->pos++;
		return n;
	}
	if (t->type == T_IDENT || t->type == T_NAME)
	{
		n = MakeNode(p, HROE_EXPR_PATH, p->pos);
		n->path = list_make1(ParsePathName(p));
		return ParsePathTail(p, n);
	}
	return Fail(p);
}

/* operand, possibly in parentheses; "(a).b" continues the path */
static HroeExprNode *
ParseOperand(Parser *p)
{
	HroeExprNode *n;

	check_stack_depth();
	if (Peek(p) != T_LPAREN)
		return ParseBareOperand(p);
	p->pos++;
	if ((n = ParseOperand(p)) == NULL || !Expect(p, T_RPAREN))
		return NULL;
	n->parens++;
	if (n->kind == HROE_EXPR_PATH && (Peek(p) == T_DOT || Peek(p) == T_LBRACKET))
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
		if (Peek(p) == cmps[i])
		{
			HroeExprNode *y;

			n = MakeNode(p, HROE_EXPR_COMPARE, p->pos);
			n->op = (HroeCmpOp) i;
			p->pos++;
			if ((y = ParseOperand(p)) == NULL)
				return NULL;
			n->args = list_make2(x, y);
			p->noperators++;
			return n;
		}
	}
	if (Peek(p) == T_BETWEEN)
	{
		HroeExprNode *lo,
				   *hi;

		n = MakeNode(p, HROE_EXPR_BETWEEN, p->pos);
		p->pos++;
		if ((lo = ParseOperand(p)) == NULL || !Expect(p, T_AND) ||
			(hi = ParseOperand(p)) == NULL)
			return NULL;
		n->args = list_make3(x, lo, hi);
		p->noperators++;
		return n;
	}
	if (Peek(p) == T_IN)
	{
		n = MakeNode(p, HROE_EXPR_IN, p->pos);
		p->pos++;
		if (!Expect(p, T_LPAREN))
			return NULL;
		n->args = list_make1(x);
		return ParseOperandList(p, n) ? n : NULL;
	}
	/* a function call standing alone is a condition, unless parenthesised */
	if (x->kind == HROE_EXPR_FUNCTION && x->parens == 0 &&
		p->toks[start].type == T_IDENT)
		return x;
	return Fail(p);
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
	if (Peek(p) != T_LPAREN)
		return Fail(p);
	p->pos++;
	if ((n = ParseOr(p)) == NULL || !Expect(p, T_RPAREN))
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

	if (Peek(p) != T_NOT)
		return ParsePrimary(p);
	n = MakeNode(p, HROE_EXPR_NOT, p->pos);
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

	while (x != NULL && Peek(p) == T_AND)
	{
		HroeExprNode *n = MakeNode(p, HROE_EXPR_AND, p->pos),
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
static HroeExprNode *
ParseOr(Parser *p)
{
	HroeExprNode *x;

	check_stack_depth();
	x = ParseAnd(p);
	while (x != NULL && Peek(p) == T_OR)
	{
		HroeExprNode *n = MakeNode(p, HROE_EXPR_OR, p->pos),
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

/* ---------- attribute values ---------- */

/*
 * Validate a DynamoDB number and return its canonical plain-decimal text
 * (dynamodb-semantics.md §1), or NULL with *error set to DynamoDB's message.
 * Accepts what DynamoDB (and Big.js in dynalite) accepts:
 * -?(digits[.digits*] | .digits)([eE][+-]?digits)?
 */
char *
hroe_number_canonical(const char *s, int len, const char **error)
{
	int			i = 0;
	bool		neg = false;
	StringInfoData digits;
	int			nint = 0,
				nfrac = 0;
	long		exp = 0;
	long		pointpos;
	int			first,
				last;
	StringInfoData out;

	*error = NULL;
	if (len == 0)
	{
		*error = "The parameter cannot be converted to a numeric value";
		return NULL;
	}
	initStringInfo(&digits);
	if (s[i] == '-')
		neg = true, i++;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		appendStringInfoChar(&digits, s[i++]), nint++;
	if (i < len && s[i] == '.')
	{
		i++;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			appendStringInfoChar(&digits, s[i++]), nfrac++;
	}
	if (nint + nfrac == 0)
		goto bad;
	if (i < len && (s[i] == 'e' || s[i] == 'E'))
	{
		bool		eneg = false;
		int			ndig = 0;

		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			eneg = s[i++] == '-';
		while (i < len && s[i] >= '0' && s[i] <= '9')
		{
			/* saturate: anything this large over- or underflows anyway */
			if (exp < 100000000L)
				exp = exp * 10 + (s[i] - '0');
			i++, ndig++;
		}
		if (ndig == 0)
			goto bad;
		if (eneg)
			exp = -exp;
	}
	if (i != len)
		goto bad;

	/* value = 0.DIGITS x 10^pointpos; trim zeros on both sides */
	pointpos = nint + exp;
	first = 0;
	last = digits.len;
	while (first < last && digits.data[first] == '0')
		first++, pointpos--;
	while (last > first && digits.data[last - 1] == '0')
		last--;
	if (first == last)
		return pstrdup("0");
	if (pointpos - 1 > 125)
	{
		*error = "Number overflow. Attempting to store a number with magnitude larger than supported range";
		return NULL;
	}
	if (pointpos - 1 < -130)
	{
		*error = "Number underflow. Attempting to store a number with magnitude smaller than supported range";
		return NULL;
	}
	if (last - first > 38)
	{
		*error = "Attempting to store more than 38 significant digits in a Number";
		return NULL;
	}
	initStringInfo(&out);
	if (neg)
		appendStringInfoChar(&out, '-');
	if (pointpos <= 0)
	{
		appendStringInfoString(&out, "0.");
		for (long k = 0; k < -pointpos; k++)
			appendStringInfoChar(&out, '0');
		appendBinaryStringInfo(&out, digits.data + first, last - first);
	}
	else if (pointpos >= last - first)
	{
		appendBinaryStringInfo(&out, digits.data + first, last - first);
		for (long k = 0; k < pointpos - (last - first); k++)
			appendStringInfoChar(&out, '0');
	}
	else
	{
		appendBinaryStringInfo(&out, digits.data + first, pointpos);
		appendStringInfoChar(&out, '.');
		appendBinaryStringInfo(&out, digits.data + first + pointpos,
							   last - first - pointpos);
	}
	return out.data;

bad:
	*error = psprintf("The parameter cannot be converted to a numeric value: %s",
					  hroe_message_bytes(s, len));
	return NULL;
}

static const char *const AttrTypes[] = {
	"S", "N", "B", "BOOL", "NULL", "SS", "NS", "BS", "L", "M"
};

static const char *ValidateAttrValueContainer(JsonbContainer *c, const char **type_out,
											  JsonbValue *inner);

/* Validate the members of a set, list or map value (recursively). */
static const char *
ValidateNested(const char *type, JsonbValue *v)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	elem;
	int			count = 0;

	if (v->type != jbvBinary)
		return NULL;
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &elem, true)) != WJB_DONE)
	{
		const char *msg;
		const char *t;
		JsonbValue	inner;

		if (tok == WJB_ELEM || tok == WJB_VALUE)
		{
			count++;
			if (strcmp(type, "L") == 0 || strcmp(type, "M") == 0)
			{
				if (elem.type != jbvBinary || !JsonContainerIsObject(elem.val.binary.data))
					return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
				check_stack_depth();
				if ((msg = ValidateAttrValueContainer(elem.val.binary.data, &t, &inner)) != NULL)
					return msg;
			}
			else if (elem.type != jbvString)
				return psprintf("One or more parameter values were invalid: elements of a %s set must be strings", type);
			else if (strcmp(type, "NS") == 0)
			{
				const char *err;

				if (hroe_number_canonical(elem.val.string.val, elem.val.string.len, &err) == NULL)
					return err;
			}
			else if (strcmp(type, "BS") == 0 &&
					 pg_b64_decode(elem.val.string.val, elem.val.string.len,
								   palloc(pg_b64_dec_len(elem.val.string.len) + 1),
								   pg_b64_dec_len(elem.val.string.len) + 1) < 0)
				return "One or more parameter values were invalid: Invalid Binary value, it must be base64-encoded";
		}
	}
	if (count == 0)
	{
		if (strcmp(type, "SS") == 0)
			return "One or more parameter values were invalid: An string set  may not be empty";
		if (strcmp(type, "NS") == 0)
			return "One or more parameter values were invalid: An number set  may not be empty";
		if (strcmp(type, "BS") == 0)
			return "One or more parameter values were invalid: Binary sets should not be empty";
	}
	return NULL;
}

/*
 * Validate one AttributeValue object (a jsonb container); return NULL and its
 * type name and inner value, or DynamoDB's message.
 */
static const char *
ValidateAttrValueContainer(JsonbContainer *c, const char **type_out, JsonbValue *inner)
{
	JsonbIterator *it;
	JsonbIteratorToken tok;
	JsonbValue	k,
				v;
	int			nkeys = 0;
	const char *type = NULL;

	if (!JsonContainerIsObject(c))
		return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
	it = JsonbIteratorInit(c);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		if (tok != WJB_KEY)
			continue;
		tok = JsonbIteratorNext(&it, &v, true);
		Assert(tok == WJB_VALUE);
		nkeys++;
		type = NULL;
		for (int i = 0; i < lengthof(AttrTypes); i++)
			if (k.val.string.len == strlen(AttrTypes[i]) &&
				memcmp(k.val.string.val, AttrTypes[i], k.val.string.len) == 0)
				type = AttrTypes[i];
		if (type == NULL)
			return psprintf("Supplied AttributeValue has an unknown datatype: %s",
							pnstrdup(k.val.string.val, k.val.string.len));
		*inner = v;
	}
	if (nkeys == 0)
		return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
	if (nkeys > 1)
		return "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes";
	*type_out = type;
	v = *inner;
	if (strcmp(type, "S") == 0 || strcmp(type, "N") == 0 || strcmp(type, "B") == 0)
	{
		if (v.type != jbvString)
			return psprintf("One or more parameter values were invalid: the value of an %s AttributeValue must be a JSON string", type);
		if (type[0] == 'N')
		{
			const char *err;

			if (hroe_number_canonical(v.val.string.val, v.val.string.len, &err) == NULL)
				return err;
		}
		else if (type[0] == 'B' &&
				 pg_b64_decode(v.val.string.val, v.val.string.len,
							   palloc(pg_b64_dec_len(v.val.string.len) + 1),
							   pg_b64_dec_len(v.val.string.len) + 1) < 0)
			return "One or more parameter values were invalid: Invalid Binary value, it must be base64-encoded";
		return NULL;
	}
	if (strcmp(type, "BOOL") == 0)
		return v.type == jbvBool ? NULL :
			"One or more parameter values were invalid: the value of a BOOL AttributeValue must be true or false";
	if (strcmp(type, "NULL") == 0)
		return (v.type == jbvBool && v.val.boolean) ? NULL :
			"One or more parameter values were invalid: Null attribute value types must have the value of true";
	if (strcmp(type, "M") == 0)
	{
		if (v.type != jbvBinary || !JsonContainerIsObject(v.val.binary.data))
			return "One or more parameter values were invalid: the value of an M AttributeValue must be a JSON object";
	}
	else if (v.type != jbvBinary || !JsonContainerIsArray(v.val.binary.data))
		return psprintf("One or more parameter values were invalid: the value of an %s AttributeValue must be a JSON array", type);
	return ValidateNested(type, &v);
}

/*
 * Validate a key AttributeValue given as jsonb ({"S": "x"}) and decode the
 * key types S, N, B; NULL with *error set to DynamoDB's message if invalid.
 * This is the fast path for keys and ExclusiveStartKey, whose values must be
 * S, N or B (other types are checked only structurally, and then refused by
 * the caller as not matching the key schema); ExpressionAttributeValues go
 * through hroe.item's parser instead (ParseValue).
 */
HroeAttrValue *
hroe_attr_value_from_jsonb(Jsonb *json, const char **error)
{
	HroeAttrValue *av = hroe_attr_value_from_container(&json->root, error);

	if (av)
		av->json = json;
	return av;
}

/*
 * The same for an AttributeValue inside a larger jsonb (no copy is made;
 * the result's json is NULL).
 */
HroeAttrValue *
hroe_attr_value_from_container(JsonbContainer *c, const char **error)
{
	const char *type = NULL;
	JsonbValue	inner;
	HroeAttrValue *av;

	*error = ValidateAttrValueContainer(c, &type, &inner);
	if (*error)
		return NULL;
	av = palloc0(sizeof(HroeAttrValue));
	strlcpy(av->type, type, sizeof(av->type));
	if (strcmp(type, "S") == 0)
	{
		av->data = pnstrdup(inner.val.string.val, inner.val.string.len);
		av->len = inner.val.string.len;
	}
	else if (strcmp(type, "N") == 0)
	{
		av->data = hroe_number_canonical(inner.val.string.val, inner.val.string.len, error);
		av->len = strlen(av->data);
	}
	else if (strcmp(type, "B") == 0)
	{
		int			cap = pg_b64_dec_len(inner.val.string.len) + 1;

		av->data = palloc(cap);
		av->len = pg_b64_decode(inner.val.string.val, inner.val.string.len, av->data, cap);
	}
	return av;
}

/* Compare two S, N or B values of the same type in DynamoDB order. */
int
hroe_attr_value_compare(const HroeAttrValue *a, const HroeAttrValue *b)
{
	Assert(strcmp(a->type, b->type) == 0);
	if (a->type[0] == 'N' && a->type[1] == '\0')
		return hroe_number_compare(a->data, a->len, b->data, b->len);
	if ((a->type[0] == 'S' || a->type[0] == 'B') && a->type[1] == '\0')
	{
		int			c = memcmp(a->data, b->data, Min(a->len, b->len));

		if (c != 0)
			return c < 0 ? -1 : 1;
		return a->len < b->len ? -1 : a->len > b->len ? 1 : 0;
	}
	return 0;
}

/* The text DynamoDB shows for a value in messages: {S:b} shows "b". */
static char *
AttrValueText(const HroeAttrValue *v)
{
	JsonbValue *inner;
	JsonbValue	key;

	if (v->type[0] == 'N' && v->type[1] == '\0')
		return v->data;
	if (v->json == NULL)
	{
		/* a value built without jsonb (a key, the fuzzer): from its bytes */
		if (v->hv != NULL && !(v->type[0] == 'S' && v->type[1] == '\0'))
		{
			StringInfoData buf;

			initStringInfo(&buf);
			hroe_value_write(&buf, v->hv);
			return buf.data;
		}
		return pnstrdup(v->data ? v->data : "", v->data ? v->len : 0);
	}
	key.type = jbvString;
	key.val.string.val = (char *) v->type;
	key.val.string.len = strlen(v->type);
	inner = findJsonbValueFromContainer(&v->json->root, JB_FOBJECT, &key);
	if (inner && inner->type == jbvString)
		return pnstrdup(inner->val.string.val, inner->val.string.len);
	if (inner)
		return JsonbToCString(NULL, &JsonbValueToJsonb(inner)->root, 0);
	return "";
}

/* ---------- placeholders ---------- */

/*
 * One ExpressionAttributeValues entry, parsed and validated once by
 * hroe.item's parser (every type, DynamoDB's rules and messages) into the
 * value's hroe.item form (for evaluation) and its key form (S, N, B); an
 * invalid value is reported as DynamoDB does, "ExpressionAttributeValues
 * contains invalid value: <reason> for key :v".
 */
static HroeAttrValue *
ParseValue(Jsonb *json, const char *key)
{
	MemoryContext cxt = CurrentMemoryContext;
	HroeValue  *v = palloc(sizeof(HroeValue));
	HroeAttrValue *av;

	PG_TRY();
	{
		hroe_value_from_jsonb((struct varlena *) json, v);
	}
	PG_CATCH();
	{
		ErrorData  *ed;

		/* re-raise at once, with the parameter and key around the reason */
		MemoryContextSwitchTo(cxt);
		ed = CopyErrorData();
		FlushErrorState();
		ereport(ERROR,
				(errcode(ERRCODE_HROE_VALIDATION),
				 errmsg("ExpressionAttributeValues contains invalid value: %s for key %s",
						ed->message, key),
				 ed->detail ? errdetail("%s DynamoDB ValidationException.", ed->detail)
				 : errdetail("DynamoDB ValidationException.")));
	}
	PG_END_TRY();
	av = palloc0(sizeof(HroeAttrValue));
	strlcpy(av->type, hroe_type_name(v->type), sizeof(av->type));
	av->json = json;
	av->hv = v;
	if (v->type == HROE_N)
	{
		/* the canonical decimal text the key conditions compare */
		const char *err;

		av->data = hroe_number_canonical(v->data, v->len, &err);
		if (av->data == NULL)
			av->data = pnstrdup(v->data, v->len);
		av->len = strlen(av->data);
	}
	else if (v->type == HROE_S || v->type == HROE_B)
	{
		/* S: UTF-8 bytes, B: raw bytes (which may hold zeros: no pnstrdup) */
		av->data = palloc(v->len + 1);
		memcpy(av->data, v->data, v->len);
		av->data[v->len] = '\0';
		av->len = v->len;
	}
	return av;
}

/* Parse ExpressionAttributeNames/Values (either may be NULL) of a request. */
HroeExprContext *
hroe_expr_context_create(Jsonb *names, Jsonb *values)
{
	HroeExprContext *cxt = palloc0(sizeof(HroeExprContext));
	int64		total = 0;

	for (int which = 0; which < 2; which++)
	{
		Jsonb	   *map = which == 0 ? names : values;
		const char *param = which == 0 ? "ExpressionAttributeNames" : "ExpressionAttributeValues";
		char		sigil = which == 0 ? '#' : ':';
		JsonbIterator *it;
		JsonbIteratorToken tok;
		JsonbValue	k,
					v;
		int			n,
					i = 0;

		if (map == NULL)
			continue;
		if (!JB_ROOT_IS_OBJECT(map) || JB_ROOT_IS_SCALAR(map))
			ereport(ERROR,
					(errcode(ERRCODE_HROE_VALIDATION),
					 errmsg("%s must be a JSON object", param)));
		n = JB_ROOT_COUNT(map);
		if (n == 0)
			ValidationError(psprintf("%s must not be empty", param));
		if (which == 0)
		{
			cxt->name_keys = palloc(sizeof(char *) * n);
			cxt->name_values = palloc(sizeof(char *) * n);
			cxt->name_used = palloc0(sizeof(bool) * n);
		}
		else
		{
			cxt->value_keys = palloc(sizeof(char *) * n);
			cxt->values = palloc(sizeof(HroeAttrValue *) * n);
			cxt->value_used = palloc0(sizeof(bool) * n);
		}
		it = JsonbIteratorInit(&map->root);
		while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
		{
			char	   *key;
			bool		ok;

			if (tok != WJB_KEY)
				continue;
			tok = JsonbIteratorNext(&it, &v, true);
			key = pnstrdup(k.val.string.val, k.val.string.len);
			ok = k.val.string.len >= 2 && key[0] == sigil;
			for (int j = 1; ok && j < k.val.string.len; j++)
				ok = IsIdentChar(key[j]);
			if (!ok)
				ValidationError(psprintf("%s contains invalid key: Syntax error; key: \"%s\"",
										 param, key));
			if (k.val.string.len > HROE_EXPR_MAX_PLACEHOLDER)
				ValidationError(psprintf("%s contains invalid key: The key exceeds the maximum length of %d bytes; key: \"%s\"",
										 param, HROE_EXPR_MAX_PLACEHOLDER, key));
			total += k.val.string.len;
			if (which == 0)
			{
				if (v.type != jbvString)
					ValidationError(psprintf("ExpressionAttributeNames contains invalid value: the value must be a string for key %s", key));
				if (v.val.string.len == 0)
					ValidationError(psprintf("ExpressionAttributeNames contains invalid value: Empty attribute name for key %s", key));
				hroe_check_name_length(v.val.string.len);
				cxt->name_keys[i] = key;
				cxt->name_values[i] = pnstrdup(v.val.string.val, v.val.string.len);
				total += v.val.string.len;
			}
			else
			{
				HroeAttrValue *av;

				if (v.type != jbvBinary)
					ValidationError(psprintf("ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key %s",
											 key));
				av = ParseValue(JsonbValueToJsonb(&v), key);
				cxt->value_keys[i] = key;
				cxt->values[i] = av;
				total += VARSIZE(av->json);
			}
			i++;
		}
		if (which == 0)
			cxt->nnames = i;
		else
			cxt->nvalues = i;
	}
	if (total > HROE_EXPR_MAX_SUBSTITUTIONS)
		ValidationError("ExpressionAttributeNames and ExpressionAttributeValues exceed the maximum size of 2 MB");
	cxt->bytes = total;
	return cxt;
}

/* Raise E16 if a placeholder was defined but no expression used it. */
void
hroe_expr_check_unused(HroeExprContext *cxt)
{
	for (int which = 0; which < 2; which++)
	{
		StringInfoData buf;
		int			n = which == 0 ? cxt->nnames : cxt->nvalues;
		bool		any = false;

		initStringInfo(&buf);
		for (int i = 0; i < n; i++)
		{
			bool		used = which == 0 ? cxt->name_used[i] : cxt->value_used[i];

			if (used)
				continue;
			appendStringInfo(&buf, "%s%s", any ? ", " : "",
							 which == 0 ? cxt->name_keys[i] : cxt->value_keys[i]);
			any = true;
		}
		if (any)
			ValidationError(psprintf("Value provided in %s unused in expressions: keys: {%s}",
									 which == 0 ? "ExpressionAttributeNames" : "ExpressionAttributeValues",
									 buf.data));
	}
}

/* ---------- semantic checks ---------- */

static const char *const CmpSymbols[] = {"=", "<>", "<", "<=", ">", ">="};

/* "[a, b, [2]]": a path as DynamoDB prints it in messages */
static char *
PathText(List *path)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	foreach(lc, path)
	{
		HroePathElem *e = lfirst(lc);

		if (foreach_current_index(lc) > 0)
			appendStringInfoString(&buf, ", ");
		if (e->is_index)
			appendStringInfo(&buf, "[%d]", e->index);
		else
			appendStringInfoString(&buf, e->name ? e->name : "");
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/* Are two nodes the same document path (after substitution)? */
static bool
SamePath(HroeExprNode *a, HroeExprNode *b)
{
	ListCell   *la,
			   *lb;

	if (a->kind != HROE_EXPR_PATH || b->kind != HROE_EXPR_PATH ||
		list_length(a->path) != list_length(b->path))
		return false;
	forboth(la, a->path, lb, b->path)
	{
		HroePathElem *x = lfirst(la),
				   *y = lfirst(lb);

		if (x->is_index != y->is_index)
			return false;
		if (x->is_index ? x->index != y->index
			: (x->name == NULL || y->name == NULL || strcmp(x->name, y->name) != 0))
			return false;
	}
	return true;
}

/* Two operands that are the same path are an error (a = a) */
static void
CheckDistinct(SemErrors *e, const char *name, HroeExprNode *x, HroeExprNode *y)
{
	if (e->distinct == NULL && SamePath(x, y))
		e->distinct = psprintf("The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s",
							   name, PathText(x->path));
}

/* A function other than size() used as an operand is misplaced. */
static void
CheckMisusedFunction(SemErrors *e, List *args)
{
	ListCell   *lc;

	foreach(lc, args)
	{
		HroeExprNode *a = lfirst(lc);

		if (e->misused_function == NULL && a->kind == HROE_EXPR_FUNCTION &&
			strcmp(a->funcname, "size") != 0)
			e->misused_function = psprintf("The function is not allowed to be used this way in an expression; function: %s",
										   a->funcname);
	}
}

/* size() used where a condition is expected is misplaced. */
static void
CheckMisusedSize(SemErrors *e, HroeExprNode *n)
{
	if (e->misused_function == NULL && n->kind == HROE_EXPR_FUNCTION &&
		strcmp(n->funcname, "size") == 0)
		e->misused_function = "The function is not allowed to be used this way in an expression; function: size";
}

/* The type a node is known to have: a value's type or a function's result. */
static const char *
NodeType(HroeExprNode *n, const char *functype)
{
	if (n->kind == HROE_EXPR_VALUE && n->value)
		return n->value->type;
	if (n->kind == HROE_EXPR_FUNCTION)
		return functype;
	return NULL;
}

static const char *CheckNode(HroeExprContext *cxt, SemErrors *e, HroeExprNode *n);

/* checkFunction of dynalite: arity, distinct operands, operand types. */
static const char *
CheckFunction(SemErrors *e, HroeExprNode *n, const char **argtypes)
{
	static const struct
	{
		const char *name;
		int			nargs;
	}			funcs[] = {
		{"attribute_exists", 1}, {"attribute_not_exists", 1},
		{"attribute_type", 2}, {"begins_with", 2}, {"contains", 2}, {"size", 1}
	};
	int			nargs = -1;
	int			given = list_length(n->args);
	const char *name = n->funcname;

	for (int i = 0; i < lengthof(funcs); i++)
		if (strcmp(name, funcs[i].name) == 0)
			nargs = funcs[i].nargs;
	if (nargs < 0)
	{
		if (e->unknown_function == NULL)
			e->unknown_function = psprintf("Invalid function name; function: %s", name);
		return NULL;
	}
	if (e->operand)
		return NULL;
	if (nargs != given)
	{
		e->operand = psprintf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d",
							  name, given);
		return NULL;
	}
	if (given == 2)
		CheckDistinct(e, name, linitial(n->args), lsecond(n->args));
	if (e->function)
		return NULL;
	if (strcmp(name, "attribute_exists") == 0 || strcmp(name, "attribute_not_exists") == 0)
	{
		if (((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
			e->function = psprintf("Operator or function requires a document path; operator or function: %s", name);
		return "BOOL";
	}
	if (strcmp(name, "begins_with") == 0)
	{
		for (int i = 0; i < given; i++)
		{
			const char *t = argtypes[i];

			if (t && strcmp(t, "S") != 0 && strcmp(t, "B") != 0)
			{
				e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
									   name, t);
				return NULL;
			}
		}
		return "BOOL";
	}
	if (strcmp(name, "attribute_type") == 0)
	{
		const char *t = argtypes[1];
		HroeExprNode *arg = lsecond(n->args);
		bool		valid = false;

		if (t == NULL || strcmp(t, "S") != 0)
		{
			e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
								   name, t ? t : "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}");
			return NULL;
		}
		for (int i = 0; i < lengthof(AttrTypes); i++)
			if (strcmp(arg->value->data, AttrTypes[i]) == 0)
				valid = true;
		if (!valid)
		{
			e->function = psprintf("Invalid attribute type name found; type: %s, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
								   arg->value->data);
			return NULL;
		}
		return "BOOL";
	}
	if (strcmp(name, "size") == 0)
	{
		const char *t = argtypes[0];

		if (t && (strcmp(t, "N") == 0 || strcmp(t, "BOOL") == 0 || strcmp(t, "NULL") == 0))
		{
			e->function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
								   name, t);
			return NULL;
		}
		return "N";
	}
	return "BOOL";				/* contains */
}

/* Check the operands of a comparison, BETWEEN, IN or function call. */
static const char **
CheckOperands(HroeExprContext *cxt, SemErrors *e, List *args)
{
	const char **types = palloc0(sizeof(char *) * Max(list_length(args), 1));
	ListCell   *lc;

	foreach(lc, args)
	{
		HroeExprNode *a = lfirst(lc);
		const char *ft = CheckNode(cxt, e, a);

		types[foreach_current_index(lc)] = NodeType(a, ft);
	}
	CheckMisusedFunction(e, args);
	return types;
}

/* Resolve a #name placeholder, marking it used. */
static char *
ResolveName(HroeExprContext *cxt, SemErrors *e, const char *ph)
{
	if (e->attr_name_val)
		return NULL;
	for (int i = 0; i < cxt->nnames; i++)
		if (strcmp(cxt->name_keys[i], ph) == 0)
		{
			cxt->name_used[i] = true;
			return cxt->name_values[i];
		}
	e->attr_name_val = psprintf("An expression attribute name used in the document path is not defined; attribute name: %s", ph);
	return NULL;
}

/* Resolve a :value placeholder, marking it used. */
static HroeAttrValue *
ResolveValue(HroeExprContext *cxt, SemErrors *e, const char *ph)
{
	if (e->attr_name_val)
		return NULL;
	for (int i = 0; i < cxt->nvalues; i++)
		if (strcmp(cxt->value_keys[i], ph) == 0)
		{
			cxt->value_used[i] = true;
			return cxt->values[i];
		}
	e->attr_name_val = psprintf("An expression attribute value used in expression is not defined; attribute value: %s", ph);
	return NULL;
}

/*
 * Check one node (children first, as dynalite's parser actions run), resolve
 * its placeholders; return a function node's result type.
 */
static const char *
CheckNode(HroeExprContext *cxt, SemErrors *e, HroeExprNode *n)
{
	ListCell   *lc;
	const char **types;

	check_stack_depth();
	if (n->parens >= 2 && e->parens == NULL)
		e->parens = "The expression has redundant parentheses;";
	switch (n->kind)
	{
		case HROE_EXPR_AND:
		case HROE_EXPR_OR:
		case HROE_EXPR_NOT:
			foreach(lc, n->args)
			{
				CheckNode(cxt, e, lfirst(lc));
				CheckMisusedSize(e, lfirst(lc));
			}
			return NULL;
		case HROE_EXPR_COMPARE:
			CheckOperands(cxt, e, n->args);
			CheckDistinct(e, CmpSymbols[n->op], linitial(n->args), lsecond(n->args));
			return NULL;
		case HROE_EXPR_BETWEEN:
			{
				HroeExprNode *lo = lsecond(n->args),
						   *hi = lthird(n->args);

				CheckOperands(cxt, e, n->args);
				if (e->function == NULL &&
					lo->kind == HROE_EXPR_VALUE && lo->value &&
					hi->kind == HROE_EXPR_VALUE && hi->value)
				{
					if (strcmp(lo->value->type, hi->value->type) != 0)
						e->function = psprintf("The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
											   lo->value->type, AttrValueText(lo->value),
											   hi->value->type, AttrValueText(hi->value));
					else if (hroe_attr_value_compare(lo->value, hi->value) > 0)
						e->function = psprintf("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
											   lo->value->type, AttrValueText(lo->value),
											   hi->value->type, AttrValueText(hi->value));
				}
				return NULL;
			}
		case HROE_EXPR_IN:
			CheckOperands(cxt, e, n->args);
			if (list_length(n->args) - 1 > HROE_EXPR_MAX_IN_OPERANDS && e->operand == NULL)
				e->operand = psprintf("Too many operands for operator or function; operator or function: IN, number of operands: %d, maximum: %d",
									  list_length(n->args) - 1, HROE_EXPR_MAX_IN_OPERANDS);
			return NULL;
		case HROE_EXPR_FUNCTION:
			types = CheckOperands(cxt, e, n->args);
			return CheckFunction(e, n, types);
		case HROE_EXPR_PATH:
			foreach(lc, n->path)
			{
				HroePathElem *pe = lfirst(lc);

				if (pe->is_index)
					continue;
				if (pe->placeholder)
					pe->name = ResolveName(cxt, e, pe->placeholder);
				else if (e->reserved == NULL && hroe_is_reserved_word(pe->name))
					e->reserved = psprintf("Attribute name is a reserved keyword; reserved keyword: %s", pe->name);
			}
			return NULL;
		case HROE_EXPR_VALUE:
			n->value = ResolveValue(cxt, e, n->valname);
			return NULL;
	}
	return NULL;
}

/*
 * Parse and check one expression parameter (param names it in messages,
 * e.g. "KeyConditionExpression").  Placeholders used are marked in cxt.
 */
HroeExprNode *
hroe_expr_parse(HroeExprContext *cxt, const char *param, const char *expr)
{
	Parser		p;
	HroeExprNode *root;
	SemErrors	e;
	const char *first = NULL;
	const char *order[8];

	memset(&p, 0, sizeof(p));
	p.cxt = cxt;
	p.param = param;
	p.src = expr;
	p.srclen = strlen(expr);
	p.err_pos = -1;
	if (p.srclen == 0)
		ValidationError(psprintf("Invalid %s: The expression can not be empty;", param));
	if (p.srclen > HROE_EXPR_MAX_BYTES)
		ValidationError(psprintf("Invalid %s: Expression size has exceeded the maximum allowed size; expression size: %d",
								 param, p.srclen));
	Tokenize(&p);
	root = ParseOr(&p);
	if (root == NULL || Peek(&p) != T_EOF)
	{
		Fail(&p);
		SyntaxError(&p, p.err_pos);
	}
	if (p.noperators > HROE_EXPR_MAX_OPERATORS)
		ValidationError(psprintf("Invalid %s: The expression contains too many operators; operator count: %d",
								 param, p.noperators));

	memset(&e, 0, sizeof(e));
	CheckNode(cxt, &e, root);
	CheckMisusedSize(&e, root);
	order[0] = e.parens;
	order[1] = e.unknown_function;
	order[2] = e.misused_function;
	order[3] = e.reserved;
	order[4] = e.attr_name_val;
	order[5] = e.operand;
	order[6] = e.distinct;
	order[7] = e.function;
	for (int i = 0; i < lengthof(order) && first == NULL; i++)
		first = order[i];
	if (first)
		ValidationError(psprintf("Invalid %s: %s", param, first));
	return root;
}

/* ---------- KeyConditionExpression ---------- */

/* The operator's name as DynamoDB writes it in an expression */
const char *
hroe_key_op_name(HroeKeyOp op)
{
	static const char *const names[] = {"=", "<", "<=", ">", ">=", "BETWEEN", "begins_with"};

	return names[op];
}

/* dynalite's checkExpr: one "key op values" condition per attribute, AND only. */
static void
KeyCheckExpr(HroeExprNode *n, HroeKeyCondition *kc)
{
	const char *attr = NULL;
	int			attr_ix = 0;
	ListCell   *lc;
	HroeKeyCond *c;

	check_stack_depth();
	if (n->kind == HROE_EXPR_OR || n->kind == HROE_EXPR_NOT || n->kind == HROE_EXPR_IN ||
		(n->kind == HROE_EXPR_COMPARE && n->op == HROE_CMP_NE))
		ValidationError(psprintf("Invalid operator used in KeyConditionExpression: %s",
								 n->kind == HROE_EXPR_OR ? "OR" :
								 n->kind == HROE_EXPR_NOT ? "NOT" :
								 n->kind == HROE_EXPR_IN ? "IN" : "<>"));
	if (n->kind == HROE_EXPR_FUNCTION && strcmp(n->funcname, "begins_with") != 0 &&
		strcmp(n->funcname, "size") != 0)
		ValidationError(psprintf("Invalid operator used in KeyConditionExpression: %s", n->funcname));
	if (n->kind == HROE_EXPR_FUNCTION && strcmp(n->funcname, "size") == 0)
		ValidationError("KeyConditionExpressions cannot contain nested operations");
	if ((n->kind == HROE_EXPR_BETWEEN || n->kind == HROE_EXPR_FUNCTION) &&
		((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
		ValidationError(psprintf("Invalid condition in KeyConditionExpression: %s operator must have the key attribute as its first operand",
								 n->kind == HROE_EXPR_BETWEEN ? "BETWEEN" : n->funcname));
	foreach(lc, n->args)
	{
		HroeExprNode *a = lfirst(lc);

		if (a->kind == HROE_EXPR_PATH)
		{
			HroePathElem *head = linitial(a->path);

			if (attr)
				ValidationError("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
			if (list_length(a->path) > 1)
				ValidationError("KeyConditionExpressions cannot have conditions on nested attributes");
			attr = head->name;
			attr_ix = foreach_current_index(lc);
		}
		else if (a->kind != HROE_EXPR_VALUE)
			KeyCheckExpr(a, kc);
	}
	if (n->kind == HROE_EXPR_AND)
		return;
	if (attr == NULL)
		ValidationError("Invalid condition in KeyConditionExpression: No key attribute specified");
	for (int i = 0; i < kc->nconds; i++)
		if (strcmp(kc->conds[i].attr, attr) == 0)
			ValidationError("KeyConditionExpressions must only contain one condition per key");
	if (kc->nconds == HROE_MAX_KEY_ATTRS)
		ValidationError("Query key condition not supported");
	c = &kc->conds[kc->nconds++];
	c->attr = pstrdup(attr);
	c->nvalues = 0;
	foreach(lc, n->args)
	{
		HroeExprNode *a = lfirst(lc);

		if (a->kind == HROE_EXPR_VALUE)
			c->values[c->nvalues++] = a->value;
	}
	if (n->kind == HROE_EXPR_BETWEEN)
		c->op = HROE_KEY_BETWEEN;
	else if (n->kind == HROE_EXPR_FUNCTION)
		c->op = HROE_KEY_BEGINS_WITH;
	else
	{
		/* ":v < sk" is "sk > :v" */
		static const HroeKeyOp direct[] = {HROE_KEY_EQ, HROE_KEY_EQ, HROE_KEY_LT, HROE_KEY_LE, HROE_KEY_GT, HROE_KEY_GE};
		static const HroeKeyOp flipped[] = {HROE_KEY_EQ, HROE_KEY_EQ, HROE_KEY_GT, HROE_KEY_GE, HROE_KEY_LT, HROE_KEY_LE};

		c->op = attr_ix == 0 ? direct[n->op] : flipped[n->op];
	}
}

/* Turn a parsed KeyConditionExpression into per-attribute conditions. */
void
hroe_key_condition_extract(HroeExprNode *expr, HroeKeyCondition *kc)
{
	memset(kc, 0, sizeof(*kc));
	KeyCheckExpr(expr, kc);
}

/*
 * Match key conditions to a key schema (a table's, or an index's with up to
 * 4 HASH and 4 RANGE attributes): "=" on every HASH attribute, then a prefix
 * of the RANGE attributes where only the last may be a range condition.
 * Raises E12/E13 with DynamoDB's texts.
 */
void
hroe_key_condition_bind(const HroeKeyCondition *kc, const HroeKeySchema *schema,
						HroeBoundKeyCondition *bound)
{
	int			nmatched = 0;
	int			nkeys = schema->nhash + schema->nrange;

	memset(bound, 0, sizeof(*bound));
	bound->schema = schema;
	for (int i = 0; i < nkeys; i++)
	{
		bool		is_hash = i < schema->nhash;
		const HroeKeyCond *c = NULL;

		if (is_hash && schema->nrange == 0 && kc->nconds > schema->nhash)
			ValidationError("Query key condition not supported");
		for (int j = 0; j < kc->nconds; j++)
			if (strcmp(kc->conds[j].attr, schema->names[i]) == 0)
				c = &kc->conds[j];
		if (c == NULL)
		{
			if (is_hash || kc->nconds > nmatched)
				ValidationError(psprintf("Query condition missed key schema element: %s",
										 schema->names[i]));
			break;
		}
		nmatched++;
		for (int v = 0; v < c->nvalues; v++)
			if (c->values[v]->type[0] != schema->types[i] || c->values[v]->type[1] != '\0')
				ValidationError("One or more parameter values were invalid: Condition parameter type does not match schema type");
		if (c->op != HROE_KEY_EQ && (is_hash || nmatched < kc->nconds))
			ValidationError("Query key condition not supported");
		if (is_hash)
			bound->hash[i] = c->values[0];
		else if (c->op == HROE_KEY_EQ && nmatched < kc->nconds)
			bound->range_eq[bound->nrange_eq++] = c->values[0];
		else
			bound->range_last = (HroeKeyCond *) c;
	}
	if (nmatched < kc->nconds)
	{
		/* a condition on an attribute outside the key schema */
		for (int j = 0; j < kc->nconds; j++)
		{
			bool		found = false;

			for (int i = 0; i < nkeys; i++)
				if (strcmp(kc->conds[j].attr, schema->names[i]) == 0)
					found = true;
			if (!found)
				ValidationError(schema->nrange > 0
								? psprintf("Query condition missed key schema element: %s",
										   schema->names[schema->nhash + Min(nmatched - schema->nhash, schema->nrange - 1)])
								: "Query key condition not supported");
		}
	}
}

/* ---------- SQL interface ---------- */

PG_FUNCTION_INFO_V1(hroe_explain_key_condition);

/*
 * hroe.explain_key_condition(expression, names, values): parse and validate
 * a KeyConditionExpression without a table; one row per key condition.
 */
Datum
hroe_explain_key_condition(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HroeExprContext *cxt;
	HroeExprNode *root;
	HroeKeyCondition kc;

	if (PG_ARGISNULL(0))
		ValidationError("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	cxt = hroe_expr_context_create(PG_ARGISNULL(1) ? NULL : PG_GETARG_JSONB_P(1),
								   PG_ARGISNULL(2) ? NULL : PG_GETARG_JSONB_P(2));
	root = hroe_expr_parse(cxt, "KeyConditionExpression", text_to_cstring(PG_GETARG_TEXT_PP(0)));
	hroe_expr_check_unused(cxt);
	hroe_key_condition_extract(root, &kc);

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < kc.nconds; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};
		JsonbParseState *state = NULL;
		JsonbValue *res;

		pushJsonbValue(&state, WJB_BEGIN_ARRAY, NULL);
		for (int v = 0; v < kc.conds[i].nvalues; v++)
		{
			HroeAttrValue *av = kc.conds[i].values[v];
			JsonbValue	jv;

			if (strcmp(av->type, "N") == 0)
			{
				/* numbers are shown normalised, as they will be compared */
				pushJsonbValue(&state, WJB_BEGIN_OBJECT, NULL);
				jv.type = jbvString;
				jv.val.string.val = "N";
				jv.val.string.len = 1;
				pushJsonbValue(&state, WJB_KEY, &jv);
				jv.val.string.val = av->data;
				jv.val.string.len = av->len;
				pushJsonbValue(&state, WJB_VALUE, &jv);
				pushJsonbValue(&state, WJB_END_OBJECT, NULL);
				continue;
			}
			jv.type = jbvBinary;
			jv.val.binary.data = &av->json->root;
			jv.val.binary.len = VARSIZE(av->json) - VARHDRSZ;
			pushJsonbValue(&state, WJB_ELEM, &jv);
		}
		res = pushJsonbValue(&state, WJB_END_ARRAY, NULL);
		values[0] = CStringGetTextDatum(kc.conds[i].attr);
		values[1] = CStringGetTextDatum(hroe_key_op_name(kc.conds[i].op));
		values[2] = JsonbPGetDatum(JsonbValueToJsonb(res));
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/* ---------- UpdateExpression and ProjectionExpression ---------- */

/*
 * The grammars of dynalite's updateParser.pegjs and projectionParser.pegjs:
 *
 *	  update	 := section { section }
 *	  section	 := SET set { ',' set } | REMOVE path { ',' path }
 *				  | ADD path :value { ',' path :value }
 *				  | DELETE path :value { ',' path :value }
 *	  set		 := path '=' ( '(' setvalue ')' | setvalue )
 *	  setvalue	 := oparens '+' oparens | oparens '-' oparens | oparens
 *	  oparens	 := '(' operand ')' | operand
 *	  operand	 := identifier '(' oparens { ',' oparens } ')' | :value | path
 *	  projection := path { ',' path }
 *
 * SET, REMOVE, ADD and DELETE are case-insensitive and cannot name an
 * attribute.  Semantic errors are collected and reported in dynalite's
 * priority order, as for conditions.
 */

/* First error of each kind of an update or projection expression */
typedef struct UpdErrors
{
	char	   *reserved;
	char	   *unknown_function;
	char	   *section;
	char	   *attr_name;
	char	   *attr_val;
	char	   *path_overlap;
	char	   *path_conflict;
	char	   *operand;
	char	   *function;
} UpdErrors;

typedef struct UpdParser
{
	Parser		p;
	UpdErrors	e;
	bool		update;			/* UpdateExpression (else projection) */
	List	   *paths;			/* paths seen, for the overlap check */
	bool		sections[4];
} UpdParser;

static const char *const UpdSectionNames[] = {"SET", "REMOVE", "ADD", "DELETE"};

/* The update section keyword at token i (HroeUpdateKind), or -1 */
static int
UpdKeyword(UpdParser *u, int i)
{
	Token	   *t = &u->p.toks[i];
	int			end = t->start + t->len;

	if (!u->update || t->type != T_IDENT)
		return -1;
	/* "SET:v" and "SET#n" are not the keyword (dynalite: !AttributePart) */
	if (end < u->p.srclen && (u->p.src[end] == '#' || u->p.src[end] == ':'))
		return -1;
	for (int k = 0; k < lengthof(UpdSectionNames); k++)
		if (strlen(UpdSectionNames[k]) == t->len &&
			pg_strncasecmp(u->p.src + t->start, UpdSectionNames[k], t->len) == 0)
			return k;
	return -1;
}

/* One name of a path: identifier (reserved words refused) or #name */
static HroePathElem *
UpdPathName(UpdParser *u)
{
	Parser	   *p = &u->p;
	Token	   *t = &p->toks[p->pos];
	HroePathElem *e;

	/* AND, OR, NOT, BETWEEN, IN are plain identifiers here (all reserved) */
	if (!(t->type == T_IDENT || t->type == T_NAME || t->type == T_AND ||
		  t->type == T_OR || t->type == T_NOT || t->type == T_BETWEEN ||
		  t->type == T_IN) || UpdKeyword(u, p->pos) >= 0)
	{
		Fail(p);
		return NULL;
	}
	e = palloc0(sizeof(HroePathElem));
	if (t->type == T_NAME)
	{
		HroeExprContext *cxt = p->cxt;

		e->placeholder = pnstrdup(p->src + t->start, t->len);
		for (int i = 0; i < cxt->nnames && e->name == NULL; i++)
			if (strcmp(cxt->name_keys[i], e->placeholder) == 0)
			{
				cxt->name_used[i] = true;
				e->name = cxt->name_values[i];
			}
		if (e->name == NULL && u->e.attr_name == NULL)
			u->e.attr_name = psprintf("An expression attribute name used in the document path is not defined; attribute name: %s",
									  e->placeholder);
	}
	else
	{
		e->name = pnstrdup(p->src + t->start, t->len);
		if (u->e.reserved == NULL && hroe_is_reserved_word(e->name))
			u->e.reserved = psprintf("Attribute name is a reserved keyword; reserved keyword: %s", e->name);
	}
	p->pos++;
	return e;
}

/* A document path: name { '.' name | '[' digits ']' } */
static List *
UpdPath(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroePathElem *e = UpdPathName(u);
	List	   *path;

	if (e == NULL)
		return NIL;
	path = list_make1(e);
	for (;;)
	{
		if (Peek(p) == T_DOT)
		{
			p->pos++;
			if ((e = UpdPathName(u)) == NULL)
				return NIL;
			path = lappend(path, e);
		}
		else if (Peek(p) == T_LBRACKET)
		{
			Token	   *t;
			long		index = 0;

			p->pos++;
			t = &p->toks[p->pos];
			if (t->type != T_NUMBER)
			{
				Fail(p);
				return NIL;
			}
			for (int i = 0; i < t->len; i++)
			{
				index = index * 10 + (p->src[t->start + i] - '0');
				if (index > PG_INT32_MAX)
				{
					Fail(p);
					return NIL;
				}
			}
			p->pos++;
			if (!Expect(p, T_RBRACKET))
				return NIL;
			e = palloc0(sizeof(HroePathElem));
			e->is_index = true;
			e->index = (int) index;
			path = lappend(path, e);
		}
		else
			return path;
	}
}

/* A :value operand, resolved (the node's value stays NULL if undefined) */
static HroeExprNode *
UpdValue(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprContext *cxt = p->cxt;
	HroeExprNode *n;

	if (Peek(p) != T_VALUE)
		return Fail(p);
	n = MakeNode(p, HROE_EXPR_VALUE, p->pos);
	n->valname = pnstrdup(p->src + p->toks[p->pos].start, p->toks[p->pos].len);
	for (int i = 0; i < cxt->nvalues && n->value == NULL; i++)
		if (strcmp(cxt->value_keys[i], n->valname) == 0)
		{
			cxt->value_used[i] = true;
			n->value = cxt->values[i];
		}
	if (n->value == NULL && u->e.attr_val == NULL)
		u->e.attr_val = psprintf("An expression attribute value used in expression is not defined; attribute value: %s",
								 n->valname);
	p->pos++;
	return n;
}

/* The type of a :value operand written directly, else NULL */
static const char *
UpdImmediateType(HroeExprNode *n)
{
	return (n->kind == HROE_EXPR_VALUE && n->value) ? n->value->type : NULL;
}

/* dynalite's checkFunction for update functions and + - */
static void
UpdCheckFunction(UpdParser *u, HroeExprNode *n)
{
	static const char *const names[] = {"if_not_exists", "list_append", "+", "-"};
	bool		known = false;
	ListCell   *lc;

	if (u->e.unknown_function)
		return;
	for (int i = 0; i < lengthof(names); i++)
		if (strcmp(n->funcname, names[i]) == 0)
			known = true;
	if (!known)
	{
		u->e.unknown_function = psprintf("Invalid function name; function: %s", n->funcname);
		return;
	}
	if (u->e.function)
		return;
	if (list_length(n->args) != 2)
	{
		u->e.function = psprintf("Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d",
								 n->funcname, list_length(n->args));
		return;
	}
	if (strcmp(n->funcname, "if_not_exists") == 0)
	{
		if (((HroeExprNode *) linitial(n->args))->kind != HROE_EXPR_PATH)
			u->e.function = psprintf("Operator or function requires a document path; operator or function: %s",
									 n->funcname);
		return;
	}
	foreach(lc, n->args)
	{
		const char *t = UpdImmediateType(lfirst(lc));
		const char *want = strcmp(n->funcname, "list_append") == 0 ? "L" : "N";

		if (t && strcmp(t, want) != 0)
		{
			u->e.function = psprintf("Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
									 n->funcname, t);
			return;
		}
	}
}

static HroeExprNode *UpdOperandParens(UpdParser *u);

/* function call, :value or path */
static HroeExprNode *
UpdOperand(UpdParser *u)
{
	Parser	   *p = &u->p;
	Token	   *t = &p->toks[p->pos];
	HroeExprNode *n;
	List	   *path;

	check_stack_depth();
	if (t->type == T_IDENT && p->toks[p->pos + 1].type == T_LPAREN &&
		UpdKeyword(u, p->pos) < 0)
	{
		n = MakeNode(p, HROE_EXPR_FUNCTION, p->pos);
		n->funcname = pnstrdup(p->src + t->start, t->len);
		p->pos += 2;
		for (;;)
		{
			HroeExprNode *arg = UpdOperandParens(u);

			if (arg == NULL)
				return NULL;
			n->args = lappend(n->args, arg);
			if (Peek(p) != T_COMMA)
				break;
			p->pos++;
		}
		if (!Expect(p, T_RPAREN))
			return NULL;
		p->noperators++;
		UpdCheckFunction(u, n);
		return n;
	}
	if (t->type == T_VALUE)
		return UpdValue(u);
	n = MakeNode(p, HROE_EXPR_PATH, p->pos);
	if ((path = UpdPath(u)) == NIL)
		return NULL;
	n->path = path;
	return n;
}

/* operand, optionally in one pair of parentheses */
static HroeExprNode *
UpdOperandParens(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprNode *n;

	if (Peek(p) != T_LPAREN)
		return UpdOperand(u);
	p->pos++;
	if ((n = UpdOperand(u)) == NULL || !Expect(p, T_RPAREN))
		return NULL;
	return n;
}

/* operand, or operand + operand, or operand - operand */
static HroeExprNode *
UpdSetValue(UpdParser *u)
{
	Parser	   *p = &u->p;
	HroeExprNode *x = UpdOperandParens(u),
			   *y,
			   *n;

	if (x == NULL)
		return NULL;
	if (Peek(p) != T_PLUS && Peek(p) != T_MINUS)
		return x;
	n = MakeNode(p, HROE_EXPR_FUNCTION, p->pos);
	n->funcname = Peek(p) == T_PLUS ? "+" : "-";
	p->pos++;
	if ((y = UpdOperandParens(u)) == NULL)
		return NULL;
	n->args = list_make2(x, y);
	p->noperators++;
	UpdCheckFunction(u, n);
	return n;
}

/* dynalite's checkPaths: overlap (a prefix) or conflict (map vs list step) */
static void
UpdCheckPathPair(UpdErrors *e, List *p1, List *p2)
{
	int			n = Min(list_length(p1), list_length(p2));

	for (int i = 0; i < n; i++)
	{
		HroePathElem *x = list_nth(p1, i),
				   *y = list_nth(p2, i);

		if (x->is_index != y->is_index)
		{
			if (e->path_conflict == NULL)
				e->path_conflict = psprintf("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
											PathText(p1), PathText(p2));
			return;
		}
		if (x->is_index ? x->index != y->index
			: (x->name == NULL || y->name == NULL || strcmp(x->name, y->name) != 0))
			return;
	}
	if (e->path_overlap == NULL)
		e->path_overlap = psprintf("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
								   PathText(p1), PathText(p2));
}

/* Record a path, checking it against those recorded before */
static void
UpdCheckPath(UpdParser *u, List *path)
{
	ListCell   *lc;

	if (u->e.path_overlap)
		return;
	foreach(lc, u->paths)
	{
		UpdCheckPathPair(&u->e, lfirst(lc), path);
		if (u->e.path_overlap)
			return;
	}
	u->paths = lappend(u->paths, path);
}

/* dynalite's checkOperator: ADD takes N or a set, DELETE a set */
static void
UpdCheckOperator(UpdParser *u, const char *op, HroeExprNode *val)
{
	static const char *const types[][2] = {
		{"S", "STRING"}, {"N", "NUMBER"}, {"B", "BINARY"}, {"NULL", "NULL"},
		{"BOOL", "BOOLEAN"}, {"L", "LIST"}, {"M", "MAP"}
	};
	const char *t = UpdImmediateType(val);

	if (u->e.operand || t == NULL)
		return;
	for (int i = 0; i < lengthof(types); i++)
		if (strcmp(t, types[i][0]) == 0 && !(strcmp(op, "ADD") == 0 && strcmp(t, "N") == 0))
			u->e.operand = psprintf("Incorrect operand type for operator or function; operator: %s, operand type: %s",
									op, types[i][1]);
}

/* One action of a section */
static HroeUpdateAction *
UpdAction(UpdParser *u, HroeUpdateKind kind)
{
	Parser	   *p = &u->p;
	HroeUpdateAction *a = palloc0(sizeof(HroeUpdateAction));

	a->kind = kind;
	if ((a->path = UpdPath(u)) == NIL)
		return NULL;
	switch (kind)
	{
		case HROE_UPDATE_SET:
			{
				int			start = p->pos;

				if (!Expect(p, T_EQ))
					return NULL;
				start = p->pos;
				/* '(' setvalue ')', else setvalue (PEG ordered choice) */
				if (Peek(p) == T_LPAREN)
				{
					p->pos++;
					if ((a->value = UpdSetValue(u)) != NULL && Expect(p, T_RPAREN))
						break;
					p->pos = start;
				}
				if ((a->value = UpdSetValue(u)) == NULL)
					return NULL;
				break;
			}
		case HROE_UPDATE_REMOVE:
			break;
		case HROE_UPDATE_ADD:
		case HROE_UPDATE_DELETE:
			if ((a->value = UpdValue(u)) == NULL)
				return NULL;
			UpdCheckOperator(u, UpdSectionNames[kind], a->value);
			break;
	}
	p->noperators++;
	UpdCheckPath(u, a->path);
	return a;
}

/* Start a parser over one expression, with the common length checks */
static void
UpdStart(UpdParser *u, HroeExprContext *cxt, const char *param, const char *expr,
		 bool update)
{
	memset(u, 0, sizeof(*u));
	u->update = update;
	u->p.cxt = cxt;
	u->p.param = param;
	u->p.src = expr;
	u->p.srclen = strlen(expr);
	u->p.err_pos = -1;
	if (u->p.srclen == 0)
		ValidationError(psprintf("Invalid %s: The expression can not be empty;", param));
	if (u->p.srclen > HROE_EXPR_MAX_BYTES)
		ValidationError(psprintf("Invalid %s: Expression size has exceeded the maximum allowed size; expression size: %d",
								 param, u->p.srclen));
	Tokenize(&u->p);
}

/* Raise the first semantic error in dynalite's priority order, if any */
static void
UpdReport(UpdParser *u)
{
	const char *order[] = {
		u->e.reserved, u->e.unknown_function, u->e.section, u->e.attr_name,
		u->e.attr_val, u->e.path_overlap, u->e.path_conflict, u->e.operand,
		u->e.function
	};

	for (int i = 0; i < lengthof(order); i++)
		if (order[i])
			ValidationError(psprintf("Invalid %s: %s", u->p.param, order[i]));
}

/*
 * Parse and check an UpdateExpression; placeholders used are marked in cxt.
 * Raises DynamoDB's errors (syntax, E15, E19, E20's operand types).
 */
HroeUpdateExpr *
hroe_update_parse(HroeExprContext *cxt, const char *expr)
{
	UpdParser	u;
	Parser	   *p = &u.p;
	HroeUpdateExpr *upd = palloc0(sizeof(HroeUpdateExpr));

	UpdStart(&u, cxt, "UpdateExpression", expr, true);
	for (;;)
	{
		int			kind = UpdKeyword(&u, p->pos);
		List	   *actions = NIL;

		if (kind < 0)
		{
			Fail(p);
			if (upd->actions == NIL || Peek(p) != T_EOF)
				SyntaxError(p, p->err_pos);
			break;
		}
		p->pos++;
		for (;;)
		{
			HroeUpdateAction *a = UpdAction(&u, (HroeUpdateKind) kind);

			if (a == NULL)
			{
				Fail(p);
				SyntaxError(p, p->err_pos);
			}
			actions = lappend(actions, a);
			if (Peek(p) != T_COMMA)
				break;
			p->pos++;
		}
		if (u.e.section == NULL && u.sections[kind])
			u.e.section = psprintf("The \"%s\" section can only be used once in an update expression;",
								   UpdSectionNames[kind]);
		u.sections[kind] = true;
		upd->actions = list_concat(upd->actions, actions);
	}
	if (p->noperators > HROE_EXPR_MAX_OPERATORS)
		ValidationError(psprintf("Invalid UpdateExpression: The expression contains too many operators; operator count: %d",
								 p->noperators));
	UpdReport(&u);
	return upd;
}

/*
 * Parse and check a ProjectionExpression: a list of document paths (List of
 * Lists of HroePathElem), names resolved and marked used in cxt.
 */
List *
hroe_projection_parse(HroeExprContext *cxt, const char *expr)
{
	UpdParser	u;
	Parser	   *p = &u.p;
	List	   *paths = NIL;
	ListCell   *lc;

	UpdStart(&u, cxt, "ProjectionExpression", expr, false);
	for (;;)
	{
		List	   *path = UpdPath(&u);

		if (path == NIL)
		{
			Fail(p);
			SyntaxError(p, p->err_pos);
		}
		paths = lappend(paths, path);
		if (Peek(p) != T_COMMA)
			break;
		p->pos++;
	}
	if (Peek(p) != T_EOF)
	{
		Fail(p);
		SyntaxError(p, p->err_pos);
	}
	foreach(lc, paths)
		UpdCheckPath(&u, lfirst(lc));
	/* projection: undefined names are the "attrNameVal" error, no others */
	UpdReport(&u);
	return paths;
}
