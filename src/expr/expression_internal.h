/*-------------------------------------------------------------------------
 *
 * expression_internal.h
 *	  The expression module's internals, shared by its parser files
 *	  (expression_parse.c, expression_values.c, expression_check.c,
 *	  expression_key.c, expression_update_parse.c): tokens, the parser's
 *	  state, the semantic errors being collected.  The rest of hroe uses
 *	  expression.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_EXPRESSION_INTERNAL_H
#define HROE_EXPRESSION_INTERNAL_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"

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

extern char *hroe_ex_path_text(List *path);
extern void hroe_ex_validation_error(const char *msg);
extern void hroe_ex_serialization_error(const char *msg) pg_attribute_noreturn();
extern bool hroe_ex_is_ident_char(char c);
extern void hroe_ex_tokenize(Parser *p);
extern void hroe_ex_syntax_error(Parser *p, int i);
extern HroeExprNode *hroe_ex_fail(Parser *p);
extern TokType hroe_ex_peek(Parser *p);
extern bool hroe_ex_expect(Parser *p, TokType type);
extern HroeExprNode *hroe_ex_make_node(Parser *p, HroeExprKind kind, int tok);
extern HroeExprNode *hroe_ex_parse_or(Parser *p);
extern char *hroe_ex_attr_value_text(const HroeAttrValue *v);
/* The AttributeValue type names (expression_values.c) */
#define HROE_EX_NATTR_TYPES 10
extern const char *const hroe_ex_attr_types[HROE_EX_NATTR_TYPES];

#endif							/* HROE_EXPRESSION_INTERNAL_H */
