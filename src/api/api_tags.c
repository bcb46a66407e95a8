/*-------------------------------------------------------------------------
 *
 * api_tags.c
 *	  The JSON API's tag operations: TagResource, UntagResource,
 *	  ListTagsOfResource.  A request names its table by ARN
 *	  (tables_arn.c); the tags are kept by hroe's SQL functions
 *	  (tables_meta.sql, hroe.table_tags), where only a member of the role
 *	  owning a table may change its tags.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api_internal.h"


/*
 * The table a tag request names by its ResourceArn; an ARN of another
 * account or region is refused as IAM refuses it (AccessDeniedException)
 */
static char *
ResourceTable(HroeCall *call, JsonbContainer *req)
{
	char	   *arn = hroe_api_member_text(req, "ResourceArn", "ResourceArn");
	char	   *name;
	char	   *rest;
	bool		ours;

	if (arn == NULL || arn[0] == '\0')
		hroe_api_invalid("Invalid TableArn");
	if (pg_mbstrlen(arn) > HROE_ARN_MAX)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'resourceArn' failed to satisfy constraint: Member must have length less than or equal to %d",
								  arn, HROE_ARN_MAX));
	/* a table's ARN, nothing after the name */
	if (!hroe_arn_parse(arn, &name, &rest, &ours) || rest[0] != '\0')
		hroe_api_invalid(psprintf("Invalid TableArn: Invalid ResourceArn provided as input %s", arn));
	hroe_call_resource(call, name, strlen(name));
	if (!ours)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("table ARN \"%s\" is not one of this database's (hroe.region %s, hroe.account_id %s)",
						arn, hroe_region, hroe_account_id)));
	return name;
}

/* A length error of a tag key or value ("tags.1.member.key") */
static void
CheckLength(const char *s, const char *path, int min, int max, List **errs)
{
	int			n = pg_mbstrlen(s);

	if (n < min)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have length greater than or equal to %d",
										s, path, min));
	else if (n > max)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d",
										s, path, max));
}

/*
 * Run one statement of hroe's SQL functions on the table and its argument
 * (not read-only: a new snapshot sees what earlier calls of the same
 * statement wrote, as the DDL statements' do)
 */
static void
RunTagStatement(const char *sql, const char *table, Oid argtype, Datum arg)
{
	Oid			types[2] = {TEXTOID, argtype};
	Datum		values[2] = {CStringGetTextDatum(table), arg};
	int			ret = SPI_execute_with_args(sql, argtype ? 2 : 1, types, values, NULL, false, 0);

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
}

/* TagResource */
void
hroe_api_tag_resource(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	char	   *table = ResourceTable(&r->call->ops, req);
	JsonbContainer **tags;
	int			n = hroe_api_member_array(req, "Tags", &tags);
	List	   *errs = NIL;
	JsonbParseState *st = NULL;
	JsonbValue *res;

	if (hroe_api_member(req, "Tags") == NULL)
		hroe_api_missing("tags");
	if (n == 0)
		hroe_api_invalid("Atleast one Tag needs to be provided as Input.");
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < n; i++)
	{
		char	   *key = hroe_api_member_text(tags[i], "Key", "Key");
		char	   *value = hroe_api_member_text(tags[i], "Value", "Value");
		JsonbValue	v;

		if (key == NULL)
			errs = lappend(errs, hroe_not_null_constraint(psprintf("tags.%d.member.key", i + 1)));
		else
			CheckLength(key, psprintf("tags.%d.member.key", i + 1), 1, HROE_TAG_KEY_MAX, &errs);
		if (value == NULL)
			errs = lappend(errs, hroe_not_null_constraint(psprintf("tags.%d.member.value", i + 1)));
		else
			CheckLength(value, psprintf("tags.%d.member.value", i + 1), 0, HROE_TAG_VALUE_MAX, &errs);
		if (key == NULL || value == NULL)
			continue;
		hroe_jsonb_push_key(&st, key);
		v.type = jbvString;
		v.val.string.val = value;
		v.val.string.len = strlen(value);
		pushJsonbValue(&st, WJB_VALUE, &v);
	}
	res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	hroe_api_raise_errors(errs);
	RunTagStatement("SELECT hroe.tag_resource($1, $2)", table, JSONBOID,
					JsonbPGetDatum(JsonbValueToJsonb(res)));
}

/* UntagResource */
void
hroe_api_untag_resource(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	char	   *table = ResourceTable(&r->call->ops, req);
	JsonbValue *keys = hroe_api_member(req, "TagKeys");
	List	   *errs = NIL;
	Datum	   *d;
	int			n = 0;

	if (keys == NULL)
		hroe_api_missing("tagKeys");
	if (keys->type != jbvBinary || !JsonContainerIsArray(keys->val.binary.data))
		HroeSerialization("Unexpected value type in payload: TagKeys");
	d = palloc(sizeof(Datum) * (JsonContainerSize(keys->val.binary.data) + 1));
	{
		JsonbIterator *it = JsonbIteratorInit(keys->val.binary.data);
		JsonbIteratorToken tok;
		JsonbValue	e;

		while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
		{
			char	   *key;

			if (tok != WJB_ELEM)
				continue;
			if (e.type != jbvString)
				HroeSerialization("Unexpected value type in payload: TagKeys");
			key = pnstrdup(e.val.string.val, e.val.string.len);
			CheckLength(key, psprintf("tagKeys.%d.member", n + 1), 1, HROE_TAG_KEY_MAX, &errs);
			d[n++] = CStringGetTextDatum(key);
		}
	}
	if (n == 0)
		hroe_api_invalid("Atleast one Tag Key needs to be provided as Input.");
	hroe_api_raise_errors(errs);
	RunTagStatement("SELECT hroe.untag_resource($1, $2)", table, TEXTARRAYOID,
					PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT)));
}

/* ListTagsOfResource: every tag of the table, by key (one page) */
void
hroe_api_list_tags_of_resource(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	char	   *table = ResourceTable(&r->call->ops, req);
	bool		isnull;
	Datum		d;

	RunTagStatement("SELECT pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object('Key', key, 'Value', value)"
					" ORDER BY key COLLATE pg_catalog.\"C\")"
					" FROM hroe.list_tags_of_resource($1)", table, InvalidOid, (Datum) 0);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	appendStringInfo(out, ",\"Tags\":%s", isnull ? "[]" : hroe_api_jsonb_text(DatumGetJsonbP(d)));
}
