/*-------------------------------------------------------------------------
 *
 * shard_keys.c
 *	  hroe.sharded_query's scan keys: the index's key columns and the sort
 *	  key condition (=, <, <=, >, >=, between, begins_with) as btree scan
 *	  keys on one shard.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/itup.h"
#include "access/nbtree.h"
#include "access/parallel.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parse_coerce.h"
#include "postmaster/bgworker_internals.h"
#include "storage/itemptr.h"
#include "storage/shm_mq.h"
#include "storage/shm_toc.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "shard_merge.h"

/* Key-column type the values of index column attno must have. */
Oid
hroe_sm_index_column_type(Relation index, AttrNumber attno)
{
	Oid			opcintype = index->rd_opcintype[attno - 1];

	if (IsPolymorphicType(opcintype))
		return TupleDescAttr(RelationGetDescr(index), attno - 1)->atttypid;
	return opcintype;
}

/* Name of index column attno, for messages. */
const char *
hroe_sm_index_column_name(Relation index, AttrNumber attno)
{
	return NameStr(TupleDescAttr(RelationGetDescr(index), attno - 1)->attname);
}

/* Convert value from one type to another through their text forms. */
Datum
hroe_sm_convert_via_text(Datum value, Oid fromType, Oid toType)
{
	Oid			outfunc;
	bool		isvarlena;
	Oid			infunc;
	Oid			ioparam;
	char	   *s;

	getTypeOutputInfo(fromType, &outfunc, &isvarlena);
	s = OidOutputFunctionCall(outfunc, value);
	getTypeInputInfo(toType, &infunc, &ioparam);
	return OidInputFunctionCall(infunc, s, ioparam, -1);
}

/*
 * Fill *key with "index column attno <strategy> value".  The operator comes
 * from the column's operator family: first a cross-type member for the
 * value's type, else the value is converted to the column's type (through
 * text unless binary-coercible) and the same-type member is used.
 */
void
hroe_sm_init_column_key(ScanKey key, Relation index, AttrNumber attno, int16 strategy,
			  Datum value, Oid valtype)
{
	Oid			opfamily = index->rd_opfamily[attno - 1];
	Oid			opcintype = index->rd_opcintype[attno - 1];
	Oid			coltype = hroe_sm_index_column_type(index, attno);
	Oid			righttype = valtype;
	Oid			op;

	op = get_opfamily_member(opfamily, opcintype, valtype, strategy);
	if (!OidIsValid(op))
	{
		if (valtype != coltype && !IsBinaryCoercible(valtype, coltype))
			value = hroe_sm_convert_via_text(value, valtype, coltype);
		righttype = opcintype;
		op = get_opfamily_member(opfamily, opcintype, opcintype, strategy);
	}
	if (!OidIsValid(op))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FUNCTION),
				 errmsg("operator family of index column \"%s\" has no operator of strategy %d for type %s",
						hroe_sm_index_column_name(index, attno), strategy, format_type_be(valtype))));
	ScanKeyEntryInitialize(key, 0, attno, strategy, righttype,
						   index->rd_indcollation[attno - 1], get_opcode(op), value);
}

/* DynamoDB's one-letter type of a key value of type typid (S, N or B). */
static const char *
DynamoTypeLetter(Oid typid)
{
	char		category;
	bool		preferred;

	if (typid == BYTEAOID)
		return "B";
	get_type_category_preferred(typid, &category, &preferred);
	return category == TYPCATEGORY_NUMERIC ? "N" : "S";
}

/* Text form of a value, for messages. */
static char *
ValueText(Datum value, Oid typid)
{
	Oid			outfunc;
	bool		isvarlena;

	getTypeOutputInfo(typid, &outfunc, &isvarlena);
	return OidOutputFunctionCall(outfunc, value);
}

/*
 * Scan keys of "begins_with(sort key, prefix)": sk >= prefix AND sk <
 * succ(prefix), where succ drops trailing 0xFF bytes and adds one to the
 * last byte; exact for byte-ordered columns (bytea, text COLLATE "C", and
 * hroe.key, keyType, a varlena of UTF-8 bytes ordered bytewise).
 */
static int
BeginsWithKeys(ScanKey keys, Relation index, AttrNumber attno, Datum value, Oid valtype,
			   Oid keyType)
{
	Oid			coltype = hroe_sm_index_column_type(index, attno);
	Oid			collation = index->rd_indcollation[attno - 1];
	struct varlena *prefix;
	struct varlena *upper;
	int			len;

	if (!((coltype == TEXTOID && OidIsValid(collation) && lc_collate_is_c(collation)) ||
		  coltype == BYTEAOID || (OidIsValid(keyType) && coltype == keyType)))
	{
		if (coltype != TEXTOID && coltype != BYTEAOID)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: %s",
							strcmp(DynamoTypeLetter(coltype), "N") == 0 ? "N" : format_type_be(coltype)),
					 errdetail("Sort-key column \"%s\" has type %s; begins_with needs hroe.key, text or bytea.",
							   hroe_sm_index_column_name(index, attno), format_type_be(coltype))));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("begins_with needs a byte-ordered sort key"),
				 errdetail("Sort-key column \"%s\" of index \"%s\" has collation \"%s\", under which strings with a common prefix are not contiguous.",
						   hroe_sm_index_column_name(index, attno), RelationGetRelationName(index),
						   OidIsValid(collation) ? get_collation_name(collation) : "none"),
				 errhint("Index the column with COLLATE \"C\", as DynamoDB orders strings by their UTF-8 bytes.")));
	}
	if (valtype != coltype && !IsBinaryCoercible(valtype, coltype))
		value = hroe_sm_convert_via_text(value, valtype, coltype);
	prefix = PG_DETOAST_DATUM_COPY(value);
	hroe_sm_init_column_key(&keys[0], index, attno, BTGreaterEqualStrategyNumber,
				  PointerGetDatum(prefix), coltype);

	len = VARSIZE_ANY_EXHDR(prefix);
	while (len > 0 && ((unsigned char *) VARDATA_ANY(prefix))[len - 1] == 0xFF)
		len--;
	if (len == 0)
		return 1;				/* every value has this prefix */
	upper = (struct varlena *) palloc(VARHDRSZ + len);
	SET_VARSIZE(upper, VARHDRSZ + len);
	memcpy(VARDATA(upper), VARDATA_ANY(prefix), len);
	((unsigned char *) VARDATA(upper))[len - 1]++;
	hroe_sm_init_column_key(&keys[1], index, attno, BTLessStrategyNumber,
				  PointerGetDatum(upper), coltype);
	return 2;
}

/*
 * Build the scan keys of the sort-key condition into keys; returns their
 * number.  Without an operator the condition is "sort key IS NOT NULL".
 */
int
hroe_sm_sort_condition_keys(ScanKey keys, Relation index, AttrNumber attno, const char *op,
				  Datum v1, bool v1null, Datum v2, bool v2null, Oid valtype, Oid keyType)
{
	int16		strategy;

	if (op == NULL)
	{
		if (!v1null || !v2null)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("sort-key values given without an operator"),
					 errhint("Pass p_op ('=', '<', '<=', '>', '>=', 'between' or 'begins_with').")));
		/* an item without the sort key is not in a DynamoDB index */
		ScanKeyEntryInitialize(&keys[0], SK_ISNULL | SK_SEARCHNOTNULL, attno,
							   InvalidStrategy, InvalidOid, InvalidOid, InvalidOid, (Datum) 0);
		return 1;
	}
	if (v1null)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("sort-key condition \"%s\" needs a non-null p_value1", op)));
	if (pg_strcasecmp(op, "between") == 0)
	{
		Oid			opfamily = index->rd_opfamily[attno - 1];
		Oid			cmpproc;

		if (v2null)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("sort-key condition BETWEEN needs a non-null p_value2")));
		hroe_sm_init_column_key(&keys[0], index, attno, BTGreaterEqualStrategyNumber, v1, valtype);
		hroe_sm_init_column_key(&keys[1], index, attno, BTLessEqualStrategyNumber, v2, valtype);
		/* both bounds now have the same type: keys[0]'s right-hand type */
		cmpproc = get_opfamily_proc(opfamily, keys[0].sk_subtype, keys[0].sk_subtype,
									BTORDER_PROC);
		if (OidIsValid(cmpproc) &&
			DatumGetInt32(OidFunctionCall2Coll(cmpproc, index->rd_indcollation[attno - 1],
											   keys[0].sk_argument, keys[1].sk_argument)) > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}",
							DynamoTypeLetter(valtype), ValueText(v1, valtype),
							DynamoTypeLetter(valtype), ValueText(v2, valtype))));
		return 2;
	}
	if (!v2null)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("p_value2 is used only with BETWEEN"),
				 errdetail("The sort-key operator is \"%s\".", op)));
	if (strcmp(op, "begins_with") == 0)
		return BeginsWithKeys(keys, index, attno, v1, valtype, keyType);
	if (strcmp(op, "=") == 0)
		strategy = BTEqualStrategyNumber;
	else if (strcmp(op, "<") == 0)
		strategy = BTLessStrategyNumber;
	else if (strcmp(op, "<=") == 0)
		strategy = BTLessEqualStrategyNumber;
	else if (strcmp(op, ">") == 0)
		strategy = BTGreaterStrategyNumber;
	else if (strcmp(op, ">=") == 0)
		strategy = BTGreaterEqualStrategyNumber;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Invalid operator used in KeyConditionExpression: %s", op),
				 errhint("Use '=', '<', '<=', '>', '>=', 'between' or 'begins_with'.")));
	hroe_sm_init_column_key(&keys[0], index, attno, strategy, v1, valtype);
	return 1;
}
