/*-------------------------------------------------------------------------
 *
 * key_support.c
 *	  Planner support for hroe.key's begins_with (^@) and ancestor /
 *	  descendant (@>, <@) operators: exact btree index ranges and
 *	  selectivity estimates.
 *
 * "sk ^@ p" is exactly the range p <= sk < succ(p), where succ(p) is p with
 * its last code point incremented (trailing U+10FFFF dropped first).  When
 * p has no successor (it is all U+10FFFF), every key >= p begins with p, so
 * the range is open above.  "sk <@ a" (sk begins with a || '#') is exactly
 * a||'#' <= sk < a||'$'.  Because key order is memcmp order, both ranges are
 * exact, and the index conditions replace the operator (lossy = false): no
 * Filter is left over.
 *
 * Every bound the planner builds is itself a valid key (valid UTF-8 of at
 * most 2048 bytes), so EXPLAIN never prints an invalid string.  When the
 * operand is not a constant (a parameter of a generic plan, a column of the
 * outer side of a join), the bounds are computed at run time by the helper
 * functions key_prefix_max, key_descendant_lower and key_descendant_upper,
 * which are total: they never return NULL, so no row can be lost.
 *
 * src/types/key_support.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/stratnum.h"
#include "catalog/pg_am.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_statistic.h"
#include "catalog/pg_type.h"
#include "commands/defrem.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/selfuncs.h"
#include "utils/syscache.h"

#include "key.h"

/* Which matching function a clause calls */
typedef enum KeyMatchKind
{
	KEY_MATCH_NONE,
	KEY_MATCH_BEGINS_WITH,		/* key_begins_with(a, b): a ^@ b */
	KEY_MATCH_ANCESTOR,			/* key_is_ancestor(a, b): a @> b */
	KEY_MATCH_DESCENDANT		/* key_is_descendant(a, b): a <@ b */
} KeyMatchKind;

/* A range of keys: lower <= k, and k < upper (or k <= upper) */
typedef struct KeyRange
{
	struct varlena *lower;		/* never NULL */
	struct varlena *upper;		/* NULL: no upper bound */
	bool		upper_inclusive;
} KeyRange;

/* The btree operators of a key opfamily that a range needs */
typedef struct KeyRangeOps
{
	Oid			ge;
	Oid			lt;
	Oid			le;
} KeyRangeOps;

/* ---------------------------------------------------------------------
 * Bounds
 * ---------------------------------------------------------------------
 */

/* A palloc'd key of len bytes followed by extra bytes (no validation). */
static struct varlena *
MakeKeyBytes(const char *data, int len, const char *extra, int extralen)
{
	struct varlena *result = palloc(VARHDRSZ + len + extralen);

	SET_VARSIZE(result, VARHDRSZ + len + extralen);
	memcpy(VARDATA(result), data, len);
	if (extralen > 0)
		memcpy(VARDATA(result) + len, extra, extralen);
	return result;
}

/*
 * The least key above every string that begins with p
 * (hroe_utf8_prefix_successor), NULL when p is all U+10FFFF.  The
 * result is valid UTF-8 but may exceed 2048 bytes by up to one byte per
 * code-point length step.
 */
static struct varlena *
KeyPrefixSuccessor(const char *p, int len)
{
	unsigned char buf[4];
	int			buflen;
	int			start = hroe_utf8_prefix_successor(p, len, buf, &buflen);

	if (start < 0)
		return NULL;
	return MakeKeyBytes(p, start, (const char *) buf, buflen);
}

/*
 * The greatest valid key that begins with p (len <= 2048): p padded to 2048
 * bytes with the greatest UTF-8 sequences that fit (U+10FFFF, then U+FFFF,
 * U+07FF or U+007F for the last 3, 2 or 1 bytes).  Every valid key that
 * begins with p is <= it, and every valid key in [p, it] begins with p.
 */
static struct varlena *
KeyPrefixMax(const char *p, int len)
{
	/* HROE_KEY_MAX_BYTES bytes of U+10FFFF (F4 8F BF BF), built once */
	static unsigned char maxchars[HROE_KEY_MAX_BYTES];
	static const unsigned char tails[4][3] = {
		{0}, {0x7F}, {0xDF, 0xBF}, {0xEF, 0xBF, 0xBF}
	};
	struct varlena *result = palloc(VARHDRSZ + HROE_KEY_MAX_BYTES);
	unsigned char *out = (unsigned char *) VARDATA(result);
	int			rest = HROE_KEY_MAX_BYTES - len;
	int			whole = rest - rest % 4;

	Assert(len >= 0 && len <= HROE_KEY_MAX_BYTES);
	if (maxchars[0] == 0)
	{
		for (int i = 0; i < HROE_KEY_MAX_BYTES; i += 4)
		{
			maxchars[i] = 0xF4;
			maxchars[i + 1] = 0x8F;
			maxchars[i + 2] = 0xBF;
			maxchars[i + 3] = 0xBF;
		}
	}
	SET_VARSIZE(result, VARHDRSZ + HROE_KEY_MAX_BYTES);
	memcpy(out, p, len);
	memcpy(out + len, maxchars, whole);
	memcpy(out + len + whole, tails[rest % 4], rest % 4);
	return result;
}

/* The range of keys that begin with p; its bounds are valid keys. */
static void
PrefixRange(const char *p, int len, KeyRange *range)
{
	struct varlena *succ = KeyPrefixSuccessor(p, len);

	range->lower = MakeKeyBytes(p, len, NULL, 0);
	range->upper_inclusive = false;
	if (succ == NULL)
		range->upper = NULL;	/* every key >= p begins with p */
	else if (VARSIZE(succ) - VARHDRSZ <= HROE_KEY_MAX_BYTES)
		range->upper = succ;
	else
	{
		/* a successor past the limit is no valid key: use the greatest one */
		range->upper = KeyPrefixMax(p, len);
		range->upper_inclusive = true;
	}
}

/*
 * The range of the strict descendants of a (keys beginning with a || '#'):
 * [a#, a$).  When a is 2048 bytes long it has no descendants, and the range
 * is the empty [a, a).
 */
static void
DescendantRange(const char *a, int len, KeyRange *range)
{
	range->upper_inclusive = false;
	if (len < HROE_KEY_MAX_BYTES)
	{
		range->lower = MakeKeyBytes(a, len, "#", 1);
		range->upper = MakeKeyBytes(a, len, "$", 1);
	}
	else
	{
		range->lower = MakeKeyBytes(a, len, NULL, 0);
		range->upper = range->lower;
	}
}

PG_FUNCTION_INFO_V1(hroe_key_prefix_max);
/* hroe.key_prefix_max(p): the greatest valid key that begins with p. */
Datum
hroe_key_prefix_max(PG_FUNCTION_ARGS)
{
	struct varlena *p = PG_GETARG_HROE_KEY_P(0);

	PG_RETURN_HROE_KEY_P(KeyPrefixMax(HroeKeyData(p), HroeKeyLen(p)));
}

PG_FUNCTION_INFO_V1(hroe_key_descendant_lower);
/* hroe.key_descendant_lower(a): lower bound of a's descendants, a || '#'. */
Datum
hroe_key_descendant_lower(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	KeyRange	range;

	DescendantRange(HroeKeyData(a), HroeKeyLen(a), &range);
	PG_RETURN_HROE_KEY_P(range.lower);
}

PG_FUNCTION_INFO_V1(hroe_key_descendant_upper);
/* hroe.key_descendant_upper(a): exclusive upper bound, a || '$'. */
Datum
hroe_key_descendant_upper(PG_FUNCTION_ARGS)
{
	struct varlena *a = PG_GETARG_HROE_KEY_P(0);
	KeyRange	range;

	DescendantRange(HroeKeyData(a), HroeKeyLen(a), &range);
	PG_RETURN_HROE_KEY_P(range.upper);
}

/* ---------------------------------------------------------------------
 * Catalog lookups
 * ---------------------------------------------------------------------
 */

/* The C symbol of a C-language function (palloc'd), or NULL. */
static char *
CSymbolOf(Oid funcid)
{
	HeapTuple	tup;
	char	   *result = NULL;

	if (!OidIsValid(funcid))
		return NULL;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		return NULL;
	if (((Form_pg_proc) GETSTRUCT(tup))->prolang == ClanguageId)
	{
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc,
										  &isnull);

		if (!isnull)
			result = TextDatumGetCString(src);
	}
	ReleaseSysCache(tup);
	return result;
}

/* Is funcid the C function named symbol? */
static bool
IsCSymbol(Oid funcid, const char *symbol)
{
	char	   *src = CSymbolOf(funcid);

	return src != NULL && strcmp(src, symbol) == 0;
}

/* Which of the matching functions funcid is. */
static KeyMatchKind
KeyMatchKindOf(Oid funcid)
{
	char	   *src = CSymbolOf(funcid);

	if (src == NULL)
		return KEY_MATCH_NONE;
	if (strcmp(src, "hroe_key_begins_with") == 0)
		return KEY_MATCH_BEGINS_WITH;
	if (strcmp(src, "hroe_key_is_ancestor") == 0)
		return KEY_MATCH_ANCESTOR;
	if (strcmp(src, "hroe_key_is_descendant") == 0)
		return KEY_MATCH_DESCENDANT;
	return KEY_MATCH_NONE;
}

/*
 * Find >=, < and <= for keytype in a btree opfamily, which must order keys
 * with hroe's key_cmp (a family with another order cannot hold the range).
 */
static bool
FindRangeOps(Oid opfamily, Oid keytype, KeyRangeOps *ops)
{
	if (!IsCSymbol(get_opfamily_proc(opfamily, keytype, keytype, BTORDER_PROC),
				   "hroe_key_cmp"))
		return false;
	ops->ge = get_opfamily_member(opfamily, keytype, keytype,
								  BTGreaterEqualStrategyNumber);
	ops->lt = get_opfamily_member(opfamily, keytype, keytype,
								  BTLessStrategyNumber);
	ops->le = get_opfamily_member(opfamily, keytype, keytype,
								  BTLessEqualStrategyNumber);
	return OidIsValid(ops->ge) && OidIsValid(ops->lt) && OidIsValid(ops->le);
}

/*
 * A run-time bound: helper(operand), the helper being found by name in the
 * schema of the matching function (hroe) and checked to be hroe's (its C
 * symbol is hroe_ and its name).
 */
static Expr *
RuntimeBound(Oid matchfunc, const char *helper, Oid keytype, Expr *operand)
{
	Oid			argtypes[1] = {keytype};
	char	   *nspname = get_namespace_name(get_func_namespace(matchfunc));
	Oid			funcid;

	funcid = LookupFuncName(list_make2(makeString(nspname),
									   makeString(pstrdup(helper))),
							1, argtypes, true);
	if (!IsCSymbol(funcid, psprintf("hroe_%s", helper)))
		return NULL;
	return (Expr *) makeFuncExpr(funcid, keytype, list_make1(copyObject(operand)),
								 InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

/* A key constant. */
static Expr *
KeyConst(Oid keytype, struct varlena *value)
{
	return (Expr *) makeConst(keytype, -1, InvalidOid, -1,
							  PointerGetDatum(value), false, false);
}

/* ---------------------------------------------------------------------
 * Index conditions
 * ---------------------------------------------------------------------
 */

/*
 * SupportRequestIndexCondition: turn "sk ^@ p", "sk <@ a" or "a @> sk" on
 * an indexed sk into the exact btree range described above.
 */
static List *
KeyIndexCondition(SupportRequestIndexCondition *req)
{
	Node	   *clause = req->node;
	List	   *args;
	KeyMatchKind kind;
	Expr	   *indexkey;
	Expr	   *operand;
	Oid			keytype;
	KeyRangeOps ops;
	Expr	   *lower;
	Expr	   *upper = NULL;
	Oid			upperop;
	List	   *result;

	if (is_opclause(clause))
		args = ((OpExpr *) clause)->args;
	else if (is_funcclause(clause))
		args = ((FuncExpr *) clause)->args;
	else
		return NIL;
	if (list_length(args) != 2 || req->index->relam != BTREE_AM_OID)
		return NIL;

	/* only the side that ranges over descendants / prefixed keys is indexable */
	kind = KeyMatchKindOf(req->funcid);
	if (!((kind == KEY_MATCH_BEGINS_WITH && req->indexarg == 0) ||
		  (kind == KEY_MATCH_DESCENDANT && req->indexarg == 0) ||
		  (kind == KEY_MATCH_ANCESTOR && req->indexarg == 1)))
		return NIL;

	indexkey = (Expr *) list_nth(args, req->indexarg);
	operand = (Expr *) list_nth(args, 1 - req->indexarg);
	keytype = exprType((Node *) operand);
	if (exprType((Node *) indexkey) != keytype ||
		!FindRangeOps(req->opfamily, keytype, &ops))
		return NIL;

	if (IsA(operand, Const))
	{
		Const	   *c = (Const *) operand;
		struct varlena *value;
		KeyRange	range;

		if (c->constisnull)
			return NIL;
		value = DatumGetHroeKeyP(c->constvalue);
		if (kind == KEY_MATCH_BEGINS_WITH)
			PrefixRange(HroeKeyData(value), HroeKeyLen(value), &range);
		else
			DescendantRange(HroeKeyData(value), HroeKeyLen(value), &range);
		lower = KeyConst(keytype, range.lower);
		if (range.upper != NULL)
			upper = KeyConst(keytype, range.upper);
		upperop = range.upper_inclusive ? ops.le : ops.lt;
	}
	else if (kind == KEY_MATCH_BEGINS_WITH)
	{
		/* sk >= p AND sk <= key_prefix_max(p), computed at run time */
		lower = operand;
		upper = RuntimeBound(req->funcid, "key_prefix_max", keytype, operand);
		upperop = ops.le;
		if (upper == NULL)
			return NIL;
	}
	else
	{
		/* sk >= key_descendant_lower(a) AND sk < key_descendant_upper(a) */
		lower = RuntimeBound(req->funcid, "key_descendant_lower", keytype, operand);
		upper = RuntimeBound(req->funcid, "key_descendant_upper", keytype, operand);
		upperop = ops.lt;
		if (lower == NULL || upper == NULL)
			return NIL;
	}

	result = list_make1(make_opclause(ops.ge, BOOLOID, false, indexkey, lower,
									  InvalidOid, InvalidOid));
	if (upper != NULL)
		result = lappend(result,
						 make_opclause(upperop, BOOLOID, false, indexkey, upper,
									   InvalidOid, InvalidOid));
	req->lossy = false;
	return result;
}

/* ---------------------------------------------------------------------
 * Selectivity
 * ---------------------------------------------------------------------
 */

/*
 * Restriction selectivity of a matching clause: the MCVs are tested
 * directly; for the rest, a clause that is a key range is estimated from
 * the histogram as that range (as PostgreSQL does for LIKE prefixes), and
 * any other shape (the variable is the prefix or the ancestor) by testing
 * the histogram entries.
 */
static Selectivity
KeyMatchSelectivity(PlannerInfo *root, KeyMatchKind kind, Oid funcid,
					List *args, int varRelid)
{
	VariableStatData vardata;
	Node	   *other;
	bool		varonleft;
	Const	   *c;
	FmgrInfo	opproc;
	double		nullfrac;
	double		sumcommon = 0.0;
	double		mcvsel;
	double		histsel = -1.0;
	Selectivity selec;

	if (!get_restriction_variable(root, args, varRelid,
								  &vardata, &other, &varonleft))
		return DEFAULT_MATCH_SEL;
	if (!IsA(other, Const) || !HeapTupleIsValid(vardata.statsTuple))
	{
		ReleaseVariableStats(vardata);
		return DEFAULT_MATCH_SEL;
	}
	c = (Const *) other;
	if (c->constisnull)
	{
		ReleaseVariableStats(vardata);
		return 0.0;
	}

	nullfrac = ((Form_pg_statistic) GETSTRUCT(vardata.statsTuple))->stanullfrac;
	fmgr_info(funcid, &opproc);
	mcvsel = mcv_selectivity(&vardata, &opproc, InvalidOid, c->constvalue,
							 varonleft, &sumcommon);

	if ((kind == KEY_MATCH_BEGINS_WITH && varonleft) ||
		(kind == KEY_MATCH_DESCENDANT && varonleft) ||
		(kind == KEY_MATCH_ANCESTOR && !varonleft))
	{
		Oid			keytype = c->consttype;
		Oid			opclass = GetDefaultOpClass(keytype, BTREE_AM_OID);
		struct varlena *value = DatumGetHroeKeyP(c->constvalue);
		KeyRangeOps ops;
		KeyRange	range;

		if (OidIsValid(opclass) &&
			FindRangeOps(get_opclass_family(opclass), keytype, &ops))
		{
			FmgrInfo	cmpproc;

			if (kind == KEY_MATCH_BEGINS_WITH)
				PrefixRange(HroeKeyData(value), HroeKeyLen(value), &range);
			else
				DescendantRange(HroeKeyData(value), HroeKeyLen(value), &range);

			fmgr_info(get_opcode(ops.ge), &cmpproc);
			histsel = ineq_histogram_selectivity(root, &vardata, ops.ge, &cmpproc,
												 true, true, InvalidOid,
												 PointerGetDatum(range.lower),
												 keytype);
			if (histsel >= 0.0 && range.upper != NULL)
			{
				Oid			upperop = range.upper_inclusive ? ops.le : ops.lt;
				double		topsel;

				fmgr_info(get_opcode(upperop), &cmpproc);
				topsel = ineq_histogram_selectivity(root, &vardata, upperop,
													&cmpproc, false,
													range.upper_inclusive,
													InvalidOid,
													PointerGetDatum(range.upper),
													keytype);
				histsel = topsel + histsel - 1.0;
			}
			if (histsel >= 0.0)
				CLAMP_PROBABILITY(histsel);
		}
	}
	else
	{
		int			hist_size;

		histsel = histogram_selectivity(&vardata, &opproc, InvalidOid,
										c->constvalue, varonleft, 10, 1,
										&hist_size);
	}

	if (histsel < 0.0)
		histsel = DEFAULT_MATCH_SEL;	/* no usable histogram */

	selec = mcvsel + histsel * (1.0 - nullfrac - sumcommon);
	CLAMP_PROBABILITY(selec);
	ReleaseVariableStats(vardata);
	return selec;
}

PG_FUNCTION_INFO_V1(hroe_key_match_sel);
/* Restriction estimator of ^@, @> and <@. */
Datum
hroe_key_match_sel(PG_FUNCTION_ARGS)
{
	PlannerInfo *root = (PlannerInfo *) PG_GETARG_POINTER(0);
	Oid			oproid = PG_GETARG_OID(1);
	List	   *args = (List *) PG_GETARG_POINTER(2);
	int			varRelid = PG_GETARG_INT32(3);
	Oid			funcid = get_opcode(oproid);
	KeyMatchKind kind = KeyMatchKindOf(funcid);

	if (kind == KEY_MATCH_NONE)
		PG_RETURN_FLOAT8(DEFAULT_MATCH_SEL);
	PG_RETURN_FLOAT8(KeyMatchSelectivity(root, kind, funcid, args, varRelid));
}

PG_FUNCTION_INFO_V1(hroe_key_support);
/*
 * Planner support function of key_begins_with, key_is_ancestor and
 * key_is_descendant: index conditions, and selectivity when they are
 * called as functions rather than through their operators.
 */
Datum
hroe_key_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);

	if (IsA(rawreq, SupportRequestIndexCondition))
		PG_RETURN_POINTER(KeyIndexCondition((SupportRequestIndexCondition *) rawreq));

	if (IsA(rawreq, SupportRequestSelectivity))
	{
		SupportRequestSelectivity *req = (SupportRequestSelectivity *) rawreq;
		KeyMatchKind kind = KeyMatchKindOf(req->funcid);

		if (req->is_join || kind == KEY_MATCH_NONE)
			PG_RETURN_POINTER(NULL);
		req->selectivity = KeyMatchSelectivity(req->root, kind, req->funcid,
											   req->args, req->varRelid);
		PG_RETURN_POINTER(req);
	}

	PG_RETURN_POINTER(NULL);
}
