/*-------------------------------------------------------------------------
 *
 * tables_keys.c
 *	  The key columns of hroe tables and GSIs: key values as Datums of their
 *	  column types (partition keys over HROE_KEY_FORM_MAX bytes in their
 *	  index form), the generated key columns' functions
 *	  (hroe.item_key_s/n/b), DynamoDB's key checks of items, requests and
 *	  index entries, and the entries themselves: whether an item is in an
 *	  index, its entry's size and projection (doc/dynamodb-rules.md#keys-and-item-size).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/itup.h"
#include "access/genam.h"
#include "access/nbtree.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/plancache.h"
#include "utils/resowner.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/syscache.h"
#include "common/cryptohash.h"
#include "common/hashfn.h"
#include "common/sha2.h"
#include "miscadmin.h"
#include "rewrite/rewriteHandler.h"
#include "storage/lock.h"

#include "catalog.h"
#include "key.h"
#include "tables.h"

#define TABLE_NAME_KEYLEN 256

/* The PostgreSQL type of a key attribute type: hroe.key, numeric, bytea */
Oid
hroe_key_type_oid(char type)
{
	if (type == 'N')
		return NUMERICOID;
	if (type == 'B')
		return BYTEAOID;
	return hroe_key_typid();
}

/*
 * The index form of a partition key longer than HROE_KEY_FORM_MAX bytes:
 * its first HROE_KEY_FORM_MAX bytes (for S cut back to a UTF-8 character
 * boundary, so the form is still a valid hroe.key), then the SHA-256 of the
 * whole key, as 64 lower-case hex digits for S, as its 32 bytes for B.
 * Written to form (HROE_KEY_FORM_MAX + 64 bytes); returns its length, always
 * over HROE_KEY_FORM_MAX, so a form never equals a key stored as itself.
 */
static int
KeyForm(char type, const char *data, int len, char *form)
{
	uint8		digest[PG_SHA256_DIGEST_LENGTH];
	pg_cryptohash_ctx *ctx = pg_cryptohash_create(PG_SHA256);
	int			n = HROE_KEY_FORM_MAX;

	Assert(len > HROE_KEY_FORM_MAX);
	if (pg_cryptohash_init(ctx) < 0 ||
		pg_cryptohash_update(ctx, (const uint8 *) data, len) < 0 ||
		pg_cryptohash_final(ctx, digest, sizeof(digest)) < 0)
		elog(ERROR, "could not compute a SHA-256 digest: %s", pg_cryptohash_error(ctx));
	pg_cryptohash_free(ctx);
	/* data[n] is the first byte left out: not inside a character */
	if (type == 'S')
		while (n > 0 && ((unsigned char) data[n] & 0xC0) == 0x80)
			n--;
	memcpy(form, data, n);
	if (type == 'S')
		return n + (int) hex_encode((const char *) digest, sizeof(digest), form + n);
	memcpy(form + n, digest, sizeof(digest));
	return n + (int) sizeof(digest);
}

/*
 * An S, N or B key value as a Datum of its key column type.  form: the
 * column holds partition keys (the table's pk, a GSI's HASH key column), so
 * a key over HROE_KEY_FORM_MAX bytes becomes its index form (KeyForm).  The
 * generated key columns and every probe of them build their Datums here.
 */
Datum
hroe_key_datum(char type, const char *data, int len, bool form)
{
	char		buf[HROE_KEY_FORM_MAX + 2 * PG_SHA256_DIGEST_LENGTH];

	if (form && type != 'N' && len > HROE_KEY_FORM_MAX)
	{
		len = KeyForm(type, data, len, buf);
		data = buf;
	}
	/* (the form of an S key is a string too: taken before the escapes) */
	if (type == 'S')
		return PointerGetDatum(hroe_key_from_string(data, len));
	if (type == 'N')
		return DirectFunctionCall3(numeric_in, CStringGetDatum(pnstrdup(data, len)),
								   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	else
	{
		bytea	   *b = palloc(VARHDRSZ + len);

		SET_VARSIZE(b, VARHDRSZ + len);
		memcpy(VARDATA(b), data, len);
		return PointerGetDatum(b);
	}
}

/* An ExpressionAttributeValue (S, N or B) as a key column Datum (see hroe_key_datum) */
Datum
hroe_attr_value_datum(const HroeAttrValue *v, bool form)
{
	return hroe_key_datum(v->type[0], v->data, v->len, form);
}

/* An item's S, N or B value as a key column Datum (see hroe_key_datum) */
Datum
hroe_value_datum(const HroeValue *v, bool form)
{
	return hroe_key_datum(v->type == HROE_S ? 'S' : v->type == HROE_N ? 'N' : 'B',
						  v->data, v->len, form);
}

/*
 * Does column attno of rel hold index forms of partition keys?  True exactly
 * when it is generated as hroe.item_key_s/_b(item, attribute, false, ...):
 * the table's pk and the columns added for GSI HASH keys.  (sk and the RANGE
 * key columns, generated with true, hold the keys themselves.)
 */
bool
hroe_column_holds_forms(Relation rel, AttrNumber attno)
{
	Form_pg_attribute att;
	Node	   *expr;
	FuncExpr   *f;
	char	   *fname;
	Node	   *sort;

	if (attno <= 0 || attno > RelationGetDescr(rel)->natts)
		return false;
	att = TupleDescAttr(RelationGetDescr(rel), attno - 1);
	if (att->attgenerated != ATTRIBUTE_GENERATED_STORED)
		return false;
	expr = build_column_default(rel, attno);
	if (expr == NULL || !IsA(expr, FuncExpr))
		return false;
	f = (FuncExpr *) expr;
	if (list_length(f->args) < 3 || get_func_namespace(f->funcid) != hroe_schema_oid())
		return false;
	fname = get_func_name(f->funcid);
	sort = lthird(f->args);
	return fname && (strcmp(fname, "item_key_s") == 0 || strcmp(fname, "item_key_b") == 0) &&
		IsA(sort, Const) && !((Const *) sort)->constisnull &&
		!DatumGetBool(((Const *) sort)->constvalue);
}

/* A key type letter as a string, for messages */
static inline const char *
TypeLetter(char t)
{
	return t == 'S' ? "S" : t == 'N' ? "N" : "B";
}

/* The item value type of a key type letter */
static inline HroeType
TypeOfLetter(char t)
{
	return t == 'S' ? HROE_S : t == 'N' ? HROE_N : HROE_B;
}

/* The key size limits (E5, E6) for a key value of len bytes */
static void
CheckKeySize(bool sort, int len)
{
	if (!sort && len > HROE_HASH_KEY_MAX)
		HroeValidation("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes");
	if (sort && len > HROE_RANGE_KEY_MAX)
		HroeValidation("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
}

/* How a key attribute of an item fails its key schema, if it does */
typedef enum KeyProblem
{
	KEY_OK,
	KEY_MISSING,
	KEY_TYPE,					/* not of the key's type */
	KEY_EMPTY,					/* empty S or B */
	KEY_SIZE					/* over 2048 (HASH) or 1024 (RANGE) bytes */
} KeyProblem;

/* Find one key attribute of an item and classify it, raising nothing */
static KeyProblem
ItemKeyProblem(HroeItem *item, const char *attr, int attrlen, char type, bool sort,
			   HroeValue *v)
{
	HroeValue	map;

	hroe_item_root(item, &map);
	if (!hroe_map_find(&map, attr, attrlen, v))
		return KEY_MISSING;
	if (v->type != TypeOfLetter(type))
		return KEY_TYPE;
	if (v->len == 0 && type != 'N')
		return KEY_EMPTY;
	if (v->len > (sort ? HROE_RANGE_KEY_MAX : HROE_HASH_KEY_MAX))
		return KEY_SIZE;
	return KEY_OK;
}

/*
 * The message of a key attribute v of another type than its schema's: a
 * table key's (index NULL, E2), an index key's (E11)
 */
static char *
KeyTypeMessage(const char *attr, int attrlen, char type, const HroeValue *v, const char *index)
{
	if (index)
		return psprintf("One or more parameter values were invalid: Type mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s",
						pnstrdup(attr, attrlen), TypeLetter(type), hroe_type_name(v->type), index);
	return psprintf("One or more parameter values were invalid: Type mismatch for key %s expected: %s actual: %s",
					pnstrdup(attr, attrlen), TypeLetter(type), hroe_type_name(v->type));
}

/*
 * Find and check one key attribute of an item.  Table keys (index NULL):
 * missing E1, wrong type E2, empty E4.  Index keys: missing -> false
 * (sparse), wrong type E11, empty: DynamoDB's secondary index message.
 */
static bool
FindItemKey(HroeItem *item, const char *attr, int attrlen, char type, bool sort,
			const char *index, HroeValue *v)
{
	switch (ItemKeyProblem(item, attr, attrlen, type, sort, v))
	{
		case KEY_OK:
			break;
		case KEY_MISSING:
			if (index)
				return false;
			HroeValidation(psprintf("One or more parameter values were invalid: Missing the key %s in the item",
									pnstrdup(attr, attrlen)));
		case KEY_TYPE:
			HroeValidation(KeyTypeMessage(attr, attrlen, type, v, index));
		case KEY_EMPTY:
			if (index)
				HroeValidation(psprintf(HROE_MSG_EMPTY_INDEX_KEY, HROE_EMPTY_KEY_TYPE(type),
										index, pnstrdup(attr, attrlen)));
			HroeValidation(psprintf(HROE_MSG_EMPTY_KEY, HROE_EMPTY_KEY_TYPE(type),
									pnstrdup(attr, attrlen)));
		case KEY_SIZE:
			CheckKeySize(sort, v->len);
			break;
	}
	return true;
}

/* The key type letter of a text argument: S, N or B, else an error */
static char
KeyTypeArg(text *t)
{
	char	   *s = text_to_cstring(t);

	if (strcmp(s, "S") != 0 && strcmp(s, "N") != 0 && strcmp(s, "B") != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key attribute type must be S, N or B, not \"%s\"", s)));
	return s[0];
}

/*
 * SQL: hroe.item_key_{s,n,b}(item, attribute, sort, index_name).  A table key
 * (index_name NULL) must be valid (E1, E2, E4-E6); an index key is NULL when
 * absent or violating its key schema, so the item stays out of the sparse
 * index: the index's CHECK constraint (hroe.check_index_key) rejects the
 * writes that would violate it, and items already stored when the index was
 * created are skipped, as DynamoDB's backfill skips index key violations.
 */
static Datum
ItemKey(FunctionCallInfo fcinfo, char type)
{
	HroeItem   *item;
	text	   *attr;
	HroeValue	v;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	item = PG_GETARG_HROE_ITEM_P(0);
	attr = PG_GETARG_TEXT_PP(1);
	if (!PG_ARGISNULL(3))
	{
		if (ItemKeyProblem(item, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), type,
						   PG_GETARG_BOOL(2), &v) != KEY_OK)
			PG_RETURN_NULL();
	}
	else
		(void) FindItemKey(item, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), type,
						   PG_GETARG_BOOL(2), NULL, &v);
	/* a partition key (HASH, p_sort false) is stored in its index form */
	return hroe_value_datum(&v, !PG_GETARG_BOOL(2));
}

PG_FUNCTION_INFO_V1(hroe_item_key_s);
/* The S key attribute of an item as hroe.key */
Datum
hroe_item_key_s(PG_FUNCTION_ARGS)
{
	return ItemKey(fcinfo, 'S');
}

PG_FUNCTION_INFO_V1(hroe_item_key_n);
/* The N key attribute of an item as numeric */
Datum
hroe_item_key_n(PG_FUNCTION_ARGS)
{
	return ItemKey(fcinfo, 'N');
}

PG_FUNCTION_INFO_V1(hroe_item_key_b);
/* The B key attribute of an item as bytea */
Datum
hroe_item_key_b(PG_FUNCTION_ARGS)
{
	return ItemKey(fcinfo, 'B');
}

PG_FUNCTION_INFO_V1(hroe_check_index_key);
/*
 * SQL: hroe.check_index_key(item, attribute, type, sort, index_name): true if
 * the attribute is absent or a valid index key, else DynamoDB's error (E11,
 * the empty index key message, E5, E6) -- raised, so that a write rejected by
 * the CHECK constraint fails with DynamoDB's text.
 */
Datum
hroe_check_index_key(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *attr = PG_GETARG_TEXT_PP(1);
	char		type = KeyTypeArg(PG_GETARG_TEXT_PP(2));
	char	   *index = text_to_cstring(PG_GETARG_TEXT_PP(4));
	HroeValue	v;

	(void) FindItemKey(item, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), type,
					   PG_GETARG_BOOL(3), index, &v);
	PG_RETURN_BOOL(true);
}

PG_FUNCTION_INFO_V1(hroe_index_key_violation);
/*
 * SQL: hroe.index_key_violation(item, attribute, type, sort): how the
 * attribute violates an index key schema, NULL if it is absent or valid.
 */
Datum
hroe_index_key_violation(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	text	   *attr = PG_GETARG_TEXT_PP(1);
	char		type = KeyTypeArg(PG_GETARG_TEXT_PP(2));
	bool		sort = PG_GETARG_BOOL(3);
	HroeValue	v;
	char	   *msg = NULL;

	switch (ItemKeyProblem(item, VARDATA_ANY(attr), VARSIZE_ANY_EXHDR(attr), type,
						   sort, &v))
	{
		case KEY_OK:
		case KEY_MISSING:
			PG_RETURN_NULL();
		case KEY_TYPE:
			msg = psprintf("Type Violation: Expected: %s Found: %s", TypeLetter(type),
						   hroe_type_name(v.type));
			break;
		case KEY_EMPTY:
			msg = psprintf("Empty Value Violation: an empty %s value",
						   type == 'S' ? "string" : "binary");
			break;
		case KEY_SIZE:
			msg = psprintf("Size Violation: Max Bytes Allowed: %d Found: %d",
						   sort ? HROE_RANGE_KEY_MAX : HROE_HASH_KEY_MAX, v.len);
			break;
	}
	PG_RETURN_TEXT_P(cstring_to_text(msg));
}

/* The largest btree entry (PostgreSQL's BTMaxItemSize of a BLCKSZ page) */
#define HROE_BTREE_MAX_ENTRY \
	(MAXALIGN_DOWN((BLCKSZ - MAXALIGN(SizeOfPageHeaderData + 3 * sizeof(ItemIdData)) - \
					MAXALIGN(sizeof(BTPageOpaqueData))) / 3) - MAXALIGN(sizeof(ItemPointerData)))

PG_FUNCTION_INFO_V1(hroe_check_index_entry);
/*
 * SQL: hroe.check_index_entry(index_name, VARIADIC "any"): true if the key
 * columns given (a GSI's, in index order) make an index entry that fits a
 * btree, built as the index builds it (index_form_tuple compresses what it
 * can); else a ValidationException naming the index, instead of btree's
 * error.  NULL keys: the item is not in the (partial) index.  Part of the
 * CHECK constraint of a multi-attribute GSI whose widest entry might not
 * fit (hroe.create_index).
 */
Datum
hroe_check_index_entry(PG_FUNCTION_ARGS)
{
	int			n = PG_NARGS() - 1;
	TupleDesc	desc;
	Datum	   *values;
	bool	   *nulls;
	IndexTuple	itup;
	Size		size;

	if (PG_ARGISNULL(0) || n < 1 || get_fn_expr_variadic(fcinfo->flinfo))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("hroe.check_index_entry takes an index name and the key columns")));
	desc = CreateTemplateTupleDesc(n);
	values = palloc(sizeof(Datum) * n);
	nulls = palloc0(sizeof(bool) * n);
	for (int i = 0; i < n; i++)
	{
		if (PG_ARGISNULL(i + 1))
			PG_RETURN_BOOL(true);
		TupleDescInitEntry(desc, i + 1, NULL, get_fn_expr_argtype(fcinfo->flinfo, i + 1), -1, 0);
		values[i] = PG_GETARG_DATUM(i + 1);
	}
	itup = index_form_tuple(desc, values, nulls);
	size = MAXALIGN(IndexTupleSize(itup));
	if (size > HROE_BTREE_MAX_ENTRY)
		HroeValidation(psprintf("One or more parameter values were invalid: Aggregated size of the index keys exceeds the size limit of an hroe index entry; IndexName: %s, entry size: %zu bytes, limit: %zu bytes",
								text_to_cstring(PG_GETARG_TEXT_PP(0)), size,
								(Size) HROE_BTREE_MAX_ENTRY));
	PG_RETURN_BOOL(true);
}

/*
 * Check a PutItem item's table key (E1, E2, E4-E6); keys[] get the Datums of
 * its primary key columns (pk in its index form).
 */
void
hroe_check_item_key(HroeTableMeta *t, HroeItem *item, Datum *keys)
{
	int			n = t->schema.nhash + t->schema.nrange;

	for (int i = 0; i < n; i++)
	{
		HroeValue	v;

		FindItemKey(item, t->schema.names[i], strlen(t->schema.names[i]),
					t->schema.types[i], i > 0, NULL, &v);
		keys[i] = hroe_value_datum(&v, i == 0);
	}
}

/*
 * Check an item's table key as a transactional write does: a key attribute
 * missing, empty or too long raised (E1, E4-E6: DynamoDB's input validation
 * finds them), one of another type than its schema's returned as its
 * message (E2: found as the transaction runs, the action's ValidationError).
 * NULL when the key is valid; keys[] then get its Datums (as
 * hroe_check_item_key).
 */
char *
hroe_item_key_mismatch(HroeTableMeta *t, HroeItem *item, Datum *keys)
{
	int			n = t->schema.nhash + t->schema.nrange;
	char	   *msg = NULL;

	for (int i = 0; i < n; i++)
	{
		const char *name = t->schema.names[i];
		HroeValue	v;

		if (ItemKeyProblem(item, name, strlen(name), t->schema.types[i], i > 0, &v) != KEY_TYPE)
			(void) FindItemKey(item, name, strlen(name), t->schema.types[i], i > 0, NULL, &v);
		else if (msg == NULL)
			msg = KeyTypeMessage(name, strlen(name), t->schema.types[i], &v, NULL);
	}
	if (msg == NULL)
		hroe_check_item_key(t, item, keys);
	return msg;
}

/*
 * Check an item's secondary index keys as a transactional write does: an
 * empty one raised (input validation; the item an update makes:
 * hroe_check_update_index_keys first), the first of another type than its
 * index's (in index name order) returned as its message (E11, the action's
 * ValidationError), else NULL.  Absent keys are valid (sparse indexes); too
 * long ones are left to the index's constraint.
 */
char *
hroe_item_index_keys_mismatch(HroeTableMeta *t, HroeItem *item)
{
	char	   *msg = NULL;

	for (int x = 0; x < t->nindexes; x++)
	{
		HroeIndexMeta *ix = &t->indexes[x];

		for (int i = 0; i < ix->schema.nhash + ix->schema.nrange; i++)
		{
			const char *name = ix->schema.names[i];
			char		type = ix->schema.types[i];
			bool		sort = i >= ix->schema.nhash;
			HroeValue	v;

			switch (ItemKeyProblem(item, name, strlen(name), type, sort, &v))
			{
				case KEY_EMPTY:
					(void) FindItemKey(item, name, strlen(name), type, sort, ix->name, &v);
					break;
				case KEY_TYPE:
					if (msg == NULL)
						msg = KeyTypeMessage(name, strlen(name), type, &v, ix->name);
					break;
				default:
					break;
			}
		}
	}
	return msg;
}

/*
 * Check the secondary index keys of the item an update makes: an empty S or
 * B value of one is refused with DynamoDB's update text, which names neither
 * index nor attribute (the index's CHECK constraint gives the other
 * violations, and PutItem's empty ones, their texts)
 */
void
hroe_check_update_index_keys(HroeTableMeta *t, HroeItem *item)
{
	for (int i = 0; i < t->nindexes; i++)
	{
		HroeIndexMeta *ix = &t->indexes[i];

		for (int j = 0; j < ix->schema.nhash + ix->schema.nrange; j++)
		{
			HroeValue	v;

			if (ItemKeyProblem(item, ix->schema.names[j], strlen(ix->schema.names[j]),
							   ix->schema.types[j], j >= ix->schema.nhash, &v) == KEY_EMPTY)
				HroeValidation(psprintf(HROE_MSG_EMPTY_INDEX_KEY_UPDATE,
										HROE_EMPTY_KEY_TYPE(ix->schema.types[j])));
		}
	}
}

/*
 * Whether a key given as DynamoDB JSON has the shape of t's key: exactly its
 * key attributes, each of its type (the E3 that hroe_check_request_key
 * raises; the values themselves are not checked)
 */
bool
hroe_request_key_matches(HroeTableMeta *t, Jsonb *key)
{
	int			n = t->schema.nhash + t->schema.nrange;

	if (!JB_ROOT_IS_OBJECT(key) || JB_ROOT_IS_SCALAR(key) || JB_ROOT_COUNT(key) != n)
		return false;
	for (int i = 0; i < n; i++)
	{
		JsonbValue	k;
		JsonbValue *v;
		char		type[2] = {t->schema.types[i], '\0'};

		k.type = jbvString;
		k.val.string.val = (char *) t->schema.names[i];
		k.val.string.len = strlen(t->schema.names[i]);
		v = findJsonbValueFromContainer(&key->root, JB_FOBJECT, &k);
		if (v == NULL)
			return false;
		if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data) ||
			JsonContainerSize(v->val.binary.data) != 1)
			continue;			/* not an AttributeValue: the check's own error */
		k.val.string.val = type;
		k.val.string.len = 1;
		if (findJsonbValueFromContainer(v->val.binary.data, JB_FOBJECT, &k) == NULL)
			return false;
	}
	return true;
}

/*
 * Check a Get/Delete key given as DynamoDB JSON: exactly the table's key
 * attributes (E3), of the right types (E3), not empty, not too long (E5, E6).
 * keys[] get the Datums of the primary key columns (pk in its index form).
 */
void
hroe_check_request_key(HroeTableMeta *t, Jsonb *key, Datum *keys, HroeAttrValue **vals)
{
	int			n = t->schema.nhash + t->schema.nrange;

	if (!JB_ROOT_IS_OBJECT(key) || JB_ROOT_IS_SCALAR(key) || JB_ROOT_COUNT(key) != n)
		HroeValidation("The provided key element does not match the schema");
	for (int i = 0; i < n; i++)
	{
		JsonbValue	k;
		JsonbValue *v;
		const char *err;
		HroeAttrValue *av;

		k.type = jbvString;
		k.val.string.val = (char *) t->schema.names[i];
		k.val.string.len = strlen(t->schema.names[i]);
		v = findJsonbValueFromContainer(&key->root, JB_FOBJECT, &k);
		if (v == NULL)
			HroeValidation("The provided key element does not match the schema");
		if (v->type != jbvBinary)
			HroeValidation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
		av = hroe_attr_value_from_container(v->val.binary.data, &err);
		if (av == NULL)
			HroeValidation(err);
		if (av->type[0] != t->schema.types[i] || av->type[1] != '\0')
			HroeValidation("The provided key element does not match the schema");
		if (av->len == 0 && av->type[0] != 'N')
			HroeValidation(psprintf(HROE_MSG_EMPTY_KEY, HROE_EMPTY_KEY_TYPE(av->type[0]),
									t->schema.names[i]));
		CheckKeySize(i > 0, av->len);
		keys[i] = hroe_attr_value_datum(av, i == 0);
		if (vals)
			vals[i] = av;
	}
}

/* Add name to names[] unless present; returns the new count */
static int
AddName(const char **names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return n;
	names[n] = name;
	return n + 1;
}

/* The attributes an index entry holds (KEYS_ONLY/INCLUDE); count returned */
static int
ProjectedNames(HroeTableMeta *t, HroeIndexMeta *ix, const char ***out)
{
	int			max = t->schema.nhash + t->schema.nrange +
		ix->schema.nhash + ix->schema.nrange + ix->nnonkey;
	const char **names = palloc(sizeof(char *) * max);
	int			n = 0;

	for (int i = 0; i < t->schema.nhash + t->schema.nrange; i++)
		n = AddName(names, n, t->schema.names[i]);
	for (int i = 0; i < ix->schema.nhash + ix->schema.nrange; i++)
		n = AddName(names, n, ix->schema.names[i]);
	if (ix->projection == HROE_PROJECT_INCLUDE)
		for (int i = 0; i < ix->nnonkey; i++)
			n = AddName(names, n, ix->nonkey[i]);
	*out = names;
	return n;
}

/*
 * Whether the item is in the index: it has every key attribute of the index
 * (sparse rule), each a valid key (an item stored before the index was
 * created may violate the key schema: it was left out, as the index key
 * columns are then NULL)
 */
static bool
InIndex(HroeIndexMeta *ix, HroeItem *item)
{
	HroeValue	v;

	for (int i = 0; i < ix->schema.nhash + ix->schema.nrange; i++)
		if (ItemKeyProblem(item, ix->schema.names[i], strlen(ix->schema.names[i]),
						   ix->schema.types[i], i >= ix->schema.nhash, &v) != KEY_OK)
			return false;
	return true;
}

/*
 * The DynamoDB size of the item's entry in the index (index keys + table keys
 * + projected attributes); *present false (size 0) if the item is not in it.
 */
int64
hroe_index_entry_size(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item, bool *present)
{
	const char **names;
	int			n;
	int64		size = 0;
	HroeValue	map,
				v;

	*present = InIndex(ix, item);
	if (!*present)
		return 0;
	if (ix->projection == HROE_PROJECT_ALL)
		return hroe_item_size(item);
	hroe_item_root(item, &map);
	n = ProjectedNames(t, ix, &names);
	for (int i = 0; i < n; i++)
		if (hroe_map_find(&map, names[i], strlen(names[i]), &v))
			size += strlen(names[i]) + hroe_value_size(&v);
	return size;
}

/* The item as the index returns it: only the projected attributes */
HroeItem *
hroe_index_project(HroeTableMeta *t, HroeIndexMeta *ix, HroeItem *item)
{
	const char **names;
	int			n;
	HroeBuilder *b;
	HroeValue	map,
				v;

	if (ix->projection == HROE_PROJECT_ALL)
		return item;
	hroe_item_root(item, &map);
	n = ProjectedNames(t, ix, &names);
	b = hroe_builder_start();
	for (int i = 0; i < n; i++)
		if (hroe_map_find(&map, names[i], strlen(names[i]), &v))
			hroe_builder_add(b, names[i], strlen(names[i]), &v);
	return hroe_builder_finish(b);
}

/* Whether the index's entries hold the attribute name (len bytes) */
bool
hroe_index_projects(HroeTableMeta *t, HroeIndexMeta *ix, const char *name, int len)
{
	const char **names;
	int			n;

	if (ix->projection == HROE_PROJECT_ALL)
		return true;
	n = ProjectedNames(t, ix, &names);
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == (size_t) len && memcmp(names[i], name, len) == 0)
			return true;
	return false;
}
