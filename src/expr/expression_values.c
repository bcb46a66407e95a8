/*-------------------------------------------------------------------------
 *
 * expression_values.c
 *	  ExpressionAttributeValues and key values: DynamoDB numbers and
 *	  AttributeValues validated as DynamoDB validates them, and the
 *	  placeholders (#name, :value) of an expression context.
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

/* ---------- attribute values ---------- */

const char *const hroe_ex_attr_types[HROE_EX_NATTR_TYPES] = {
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
				hroe_ex_serialization_error(hroe_base64_message(elem.val.string.len));
		}
	}
	if (count == 0 && type[1] == 'S' && type[2] == '\0' &&
		(type[0] == 'S' || type[0] == 'N' || type[0] == 'B'))
		return hroe_set_empty_message(type[0]);
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
		for (int i = 0; i < lengthof(hroe_ex_attr_types); i++)
			if (k.val.string.len == strlen(hroe_ex_attr_types[i]) &&
				memcmp(k.val.string.val, hroe_ex_attr_types[i], k.val.string.len) == 0)
				type = hroe_ex_attr_types[i];
		if (type == NULL)
			return psprintf("Supplied AttributeValue has an unknown datatype: %s",
							hroe_message_bytes(k.val.string.val, k.val.string.len));
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
			hroe_ex_serialization_error(hroe_base64_message(v.val.string.len));
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
		/* by its length: it may hold U+0000 (the JSON API's text entry) */
		av->data = palloc(inner.val.string.len + 1);
		memcpy(av->data, inner.val.string.val, inner.val.string.len);
		av->data[inner.val.string.len] = '\0';
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
char *
hroe_ex_attr_value_text(const HroeAttrValue *v)
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
		return v->data ? hroe_message_bytes(v->data, v->len) : "";
	}
	key.type = jbvString;
	key.val.string.val = (char *) v->type;
	key.val.string.len = strlen(v->type);
	inner = findJsonbValueFromContainer(&v->json->root, JB_FOBJECT, &key);
	if (inner && inner->type == jbvString)
		return hroe_message_bytes(inner->val.string.val, inner->val.string.len);
	if (inner)
		return hroe_jsonb_text(&JsonbValueToJsonb(inner)->root);
	return "";
}

/* ---------- placeholders ---------- */

/*
 * One AttributeValue given as jsonb, parsed and validated once by
 * hroe.item's parser (every type, DynamoDB's rules and messages) into the
 * value's hroe.item form (for evaluation) and its key form (S, N, B); an
 * invalid value raises the item parser's message as it is (the legacy
 * parameters' values: api_legacy.c).
 */
HroeAttrValue *
hroe_attr_value_parse(Jsonb *json)
{
	HroeValue  *v = palloc(sizeof(HroeValue));
	HroeAttrValue *av;

	hroe_value_from_jsonb((struct varlena *) json, v);
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

/*
 * One ExpressionAttributeValues entry (hroe_attr_value_parse); an invalid
 * value is reported as DynamoDB does, "ExpressionAttributeValues contains
 * invalid value: <reason> for key :v".
 */
static HroeAttrValue *
ParseValue(Jsonb *json, const char *key)
{
	MemoryContext cxt = CurrentMemoryContext;
	HroeAttrValue *volatile av = NULL;

	PG_TRY();
	{
		av = hroe_attr_value_parse(json);
	}
	PG_CATCH();
	{
		ErrorData  *ed;

		/*
		 * re-raise at once, with the parameter and key around the reason;
		 * malformed base64 is the request parser's, not the value's
		 */
		MemoryContextSwitchTo(cxt);
		ed = CopyErrorData();
		FlushErrorState();
		if (ed->sqlerrcode == ERRCODE_HROE_SERIALIZATION)
			ReThrowError(ed);
		ereport(ERROR,
				(errcode(ERRCODE_HROE_VALIDATION),
				 errmsg("ExpressionAttributeValues contains invalid value: %s for key %s",
						ed->message, key),
				 ed->detail ? errdetail("%s DynamoDB ValidationException.", ed->detail)
				 : errdetail("DynamoDB ValidationException.")));
	}
	PG_END_TRY();
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
			hroe_ex_validation_error(psprintf("%s must not be empty", param));
		if (which == 0)
		{
			cxt->name_keys = palloc(sizeof(char *) * n);
			cxt->name_values = palloc(sizeof(char *) * n);
			cxt->name_lens = palloc(sizeof(int) * n);
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
			/* (U+0000 is no identifier character: quoted as \x00) */
			key = hroe_message_bytes(k.val.string.val, k.val.string.len);
			ok = k.val.string.len >= 2 && k.val.string.val[0] == sigil;
			for (int j = 1; ok && j < k.val.string.len; j++)
				ok = hroe_ex_is_ident_char(k.val.string.val[j]);
			if (!ok)
				hroe_ex_validation_error(psprintf("%s contains invalid key: Syntax error; key: \"%s\"",
										 param, key));
			if (k.val.string.len > HROE_EXPR_MAX_PLACEHOLDER)
				hroe_ex_validation_error(psprintf("%s contains invalid key: The key exceeds the maximum length of %d bytes; key: \"%s\"",
										 param, HROE_EXPR_MAX_PLACEHOLDER, key));
			total += k.val.string.len;
			if (which == 0)
			{
				if (v.type != jbvString)
					hroe_ex_validation_error(psprintf("ExpressionAttributeNames contains invalid value: the value must be a string for key %s", key));
				if (v.val.string.len == 0)
					hroe_ex_validation_error(psprintf("ExpressionAttributeNames contains invalid value: Empty attribute name for key %s", key));
				hroe_check_name_length(v.val.string.len);
				cxt->name_keys[i] = key;
				/* by its length: it may hold U+0000, as DynamoDB's names */
				cxt->name_values[i] = palloc(v.val.string.len + 1);
				memcpy(cxt->name_values[i], v.val.string.val, v.val.string.len);
				cxt->name_values[i][v.val.string.len] = '\0';
				cxt->name_lens[i] = v.val.string.len;
				total += v.val.string.len;
			}
			else
			{
				HroeAttrValue *av;

				if (v.type != jbvBinary)
					hroe_ex_validation_error(psprintf("ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes for key %s",
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
		hroe_ex_validation_error("ExpressionAttributeNames and ExpressionAttributeValues exceed the maximum size of 2 MB");
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
			hroe_ex_validation_error(psprintf("Value provided in %s unused in expressions: keys: {%s}",
									 which == 0 ? "ExpressionAttributeNames" : "ExpressionAttributeValues",
									 buf.data));
	}
}
