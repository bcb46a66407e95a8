/*-------------------------------------------------------------------------
 *
 * expression.h
 *	  DynamoDB expressions: tokenizer, recursive-descent parser for the
 *	  condition grammar, placeholder resolution, and the KeyConditionExpression
 *	  validation pass used by Query.
 *
 * The parser builds a tree for the whole condition grammar (comparisons,
 * BETWEEN, IN, functions, AND/OR/NOT, parentheses, document paths); the
 * KeyCondition rules are a separate pass over that tree, so the same parser
 * serves ConditionExpression and FilterExpression.
 *
 * Errors are raised with DynamoDB's texts (doc/dynamodb-rules.md#errors), each
 * prefixed by the expression parameter's name where DynamoDB does so.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_EXPRESSION_H
#define HROE_EXPRESSION_H

#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#include "dynamodb_limits.h"
#include "errors.h"


/* A resolved ExpressionAttributeValues entry */
typedef struct HroeAttrValue
{
	char		type[5];		/* "S", "N", "B", "BOOL", "NULL", "SS", ... */
	Jsonb	   *json;			/* the AttributeValue object, as given, or
								 * NULL (hroe_attr_value_from_container) */
	char	   *data;			/* S: UTF-8 bytes; B: decoded bytes; N:
								 * canonical decimal text; else NULL */
	int			len;			/* length of data in bytes */
	struct HroeValue *hv;		/* the value in hroe.item form, for evaluation
								 * (set by hroe_expr_context_create) */
} HroeAttrValue;

/* Tree node kinds */
typedef enum HroeExprKind
{
	HROE_EXPR_AND,
	HROE_EXPR_OR,
	HROE_EXPR_NOT,
	HROE_EXPR_COMPARE,			/* args: 2 operands */
	HROE_EXPR_BETWEEN,			/* args: operand, low, high */
	HROE_EXPR_IN,				/* args: operand, candidates... */
	HROE_EXPR_FUNCTION,			/* funcname, args */
	HROE_EXPR_PATH,				/* path */
	HROE_EXPR_VALUE				/* valname, value */
} HroeExprKind;

typedef enum HroeCmpOp
{
	HROE_CMP_EQ,
	HROE_CMP_NE,
	HROE_CMP_LT,
	HROE_CMP_LE,
	HROE_CMP_GT,
	HROE_CMP_GE
} HroeCmpOp;

/* One element of a document path: an attribute/map key, or a list index */
typedef struct HroePathElem
{
	bool		is_index;
	int			index;			/* is_index */
	char	   *name;			/* !is_index: resolved name (after #subst),
								 * namelen bytes, NUL-terminated; it may hold
								 * U+0000 (ExpressionAttributeNames) */
	int			namelen;
	char	   *placeholder;	/* "#n" when written as a placeholder */
} HroePathElem;

/* Is a name of len bytes (it may hold U+0000) the C string s? */
static inline bool
hroe_name_is(const char *name, int len, const char *s)
{
	return strlen(s) == (size_t) len && memcmp(name, s, len) == 0;
}

/* Are two names (each may hold U+0000) the same? */
static inline bool
hroe_names_equal(const char *a, int alen, const char *b, int blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

typedef struct HroeExprNode
{
	HroeExprKind kind;
	int			location;		/* byte offset in the expression */
	int			parens;			/* parentheses written directly around it */
	HroeCmpOp	op;				/* HROE_EXPR_COMPARE */
	char	   *funcname;		/* HROE_EXPR_FUNCTION */
	List	   *args;			/* children (HroeExprNode *) */
	List	   *path;			/* HROE_EXPR_PATH: HroePathElem * */
	char	   *valname;		/* HROE_EXPR_VALUE: ":v" */
	HroeAttrValue *value;		/* HROE_EXPR_VALUE: resolved value */
} HroeExprNode;

/* ExpressionAttributeNames/Values of one request, with usage tracking */
typedef struct HroeExprContext
{
	int			nnames;
	char	  **name_keys;		/* "#n" */
	char	  **name_values;	/* attribute names (NUL-terminated, but they
								 * may hold U+0000: name_lens) */
	int		   *name_lens;
	bool	   *name_used;
	int			nvalues;
	char	  **value_keys;		/* ":v" */
	HroeAttrValue **values;
	bool	   *value_used;
	int64		bytes;			/* names and values, as counted for the 2 MB */
} HroeExprContext;

/* Key condition operators (the KeyConditions ComparisonOperator names) */
typedef enum HroeKeyOp
{
	HROE_KEY_EQ,
	HROE_KEY_LT,
	HROE_KEY_LE,
	HROE_KEY_GT,
	HROE_KEY_GE,
	HROE_KEY_BETWEEN,
	HROE_KEY_BEGINS_WITH
} HroeKeyOp;

/* One condition of a KeyConditionExpression, normalised to "attr op values" */
typedef struct HroeKeyCond
{
	char	   *attr;			/* attrlen bytes (it may hold U+0000) */
	int			attrlen;
	HroeKeyOp	op;
	int			nvalues;		/* 1, or 2 for BETWEEN */
	HroeAttrValue *values[2];
	bool		exclusive[2];	/* BETWEEN merged from PartiQL's strict bounds
								 * (sk > a AND sk < b): a bound excluded */
} HroeKeyCond;

#define HROE_MAX_KEY_ATTRS 8	/* multi-attribute GSI: 4 HASH + 4 RANGE */

typedef struct HroeKeyCondition
{
	int			nconds;
	HroeKeyCond conds[HROE_MAX_KEY_ATTRS];
} HroeKeyCondition;

/* A key schema: HASH attributes, then RANGE attributes, with types */
typedef struct HroeKeySchema
{
	int			nhash;
	int			nrange;
	const char *names[HROE_MAX_KEY_ATTRS];
	char		types[HROE_MAX_KEY_ATTRS];	/* 'S', 'N' or 'B' */
} HroeKeySchema;

/*
 * A key condition bound to a key schema: an equality value for every HASH
 * attribute, equality values for a prefix of the RANGE attributes, and at most
 * one final RANGE condition (range_last, NULL if none).
 */
typedef struct HroeBoundKeyCondition
{
	const HroeKeySchema *schema;
	HroeAttrValue *hash[4];
	int			nrange_eq;
	HroeAttrValue *range_eq[4];
	HroeKeyCond *range_last;
} HroeBoundKeyCondition;

extern HroeExprContext *hroe_expr_context_create(Jsonb *names, Jsonb *values);
extern HroeExprNode *hroe_expr_parse(HroeExprContext *cxt, const char *param,
									 const char *expr);
extern void hroe_expr_check_unused(HroeExprContext *cxt);
extern void hroe_key_condition_extract(HroeExprNode *expr, HroeKeyCondition *kc, bool bounds);
extern void hroe_key_condition_bind(const HroeKeyCondition *kc,
									const HroeKeySchema *schema,
									HroeBoundKeyCondition *bound);
extern HroeAttrValue *hroe_attr_value_from_jsonb(Jsonb *json, const char **error);
extern HroeAttrValue *hroe_attr_value_from_container(JsonbContainer *c, const char **error);
extern HroeAttrValue *hroe_attr_value_parse(Jsonb *json);
extern int	hroe_attr_value_compare(const HroeAttrValue *a, const HroeAttrValue *b);
extern const char *hroe_key_op_name(HroeKeyOp op);
extern bool hroe_is_reserved_word(const char *name);

/*
 * UpdateExpression and ProjectionExpression (parsed in expression_update_parse.c; applied
 * in expression_update.c and expression_project.c).  An update's SET values are trees of
 * HROE_EXPR_PATH, HROE_EXPR_VALUE and HROE_EXPR_FUNCTION nodes, where the
 * functions are "if_not_exists", "list_append", and "+" and "-" (two
 * operands), as dynalite models them.
 */
typedef enum HroeUpdateKind
{
	HROE_UPDATE_SET,
	HROE_UPDATE_REMOVE,
	HROE_UPDATE_ADD,
	HROE_UPDATE_DELETE
} HroeUpdateKind;

typedef struct HroeUpdateAction
{
	HroeUpdateKind kind;
	List	   *path;			/* HroePathElem *, names resolved */
	HroeExprNode *value;		/* SET: value tree; ADD, DELETE: a VALUE node;
								 * REMOVE: NULL */
} HroeUpdateAction;

typedef struct HroeUpdateExpr
{
	List	   *actions;		/* HroeUpdateAction *, in written order */
	bool		legacy;			/* AttributeUpdates (api_legacy.c): ADD also
								 * appends lists, and a type mismatch of ADD
								 * or DELETE has AttributeUpdates' message */
	bool		measure_writes;	/* a standalone UpdateItem's: the attributes
								 * it writes and its actions are measured
								 * against 400 KB too (hroe_update_apply);
								 * a transaction's or PartiQL's UPDATE
								 * measures the finished item only */
} HroeUpdateExpr;

extern HroeUpdateExpr *hroe_update_parse(HroeExprContext *cxt, const char *expr);
extern List *hroe_projection_parse(HroeExprContext *cxt, const char *expr);

/* Evaluation against hroe.item values (expression_eval.c) */
struct HroeItem;
extern bool hroe_expr_eval(const HroeExprNode *cond, const struct HroeItem *item);
extern bool hroe_expr_uses_attribute(const HroeExprNode *n, const char *name);
extern bool hroe_path_resolve(const struct HroeItem *item, const List *path,
							  struct HroeValue *val);
extern char *hroe_path_text(const List *path);
extern void hroe_condition_check(const HroeExprNode *cond, const struct HroeItem *item);

/* Updates (expression_update.c) */
extern void hroe_update_check_keys(const HroeUpdateExpr *upd,
								   const char *const *keys, int nkeys);
extern struct HroeItem *hroe_update_apply(const HroeUpdateExpr *upd,
										  const struct HroeItem *item,
										  bool *too_big);
extern List *hroe_update_paths(const HroeUpdateExpr *upd);
extern void hroe_number_add(const struct HroeValue *a, const struct HroeValue *b,
							bool subtract, struct HroeValue *result);

/* Projections (expression_project.c) */
extern struct HroeItem *hroe_project(const List *paths, const struct HroeItem *item);

#endif							/* HROE_EXPRESSION_H */
