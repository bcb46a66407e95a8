/*-------------------------------------------------------------------------
 *
 * tables_arn.c
 *	  DynamoDB's ARNs of hroe's tables and indexes:
 *	  arn:aws:dynamodb:<region>:<account>:table/<name>[/index/<name>], with
 *	  the region and account of the settings hroe.region and
 *	  hroe.account_id (defined in hroe.c), and the reading of a table ARN
 *	  a request names (hroe_arn_parse, the only one: tags, streams,
 *	  resource-based policies, backups, point-in-time recovery, exports).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "tables.h"

char	   *hroe_region = NULL;
char	   *hroe_account_id = NULL;

/* hroe.region: a region name, [a-z0-9-], 1 to HROE_REGION_MAX characters */
bool
hroe_check_region(char **newval, void **extra, GucSource source)
{
	size_t		n = strlen(*newval);

	if (n == 0 || n > HROE_REGION_MAX || strspn(*newval, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
	{
		GUC_check_errdetail("A region is 1 to %d characters of a-z, 0-9 and \"-\", such as us-east-1.",
							HROE_REGION_MAX);
		return false;
	}
	return true;
}

/* hroe.account_id: an AWS account id, 12 digits */
bool
hroe_check_account_id(char **newval, void **extra, GucSource source)
{
	if (strlen(*newval) != HROE_ACCOUNT_ID_LEN ||
		strspn(*newval, "0123456789") != HROE_ACCOUNT_ID_LEN)
	{
		GUC_check_errdetail("An account id is %d digits.", HROE_ACCOUNT_ID_LEN);
		return false;
	}
	return true;
}

/* The ARN of table name (palloc'd) */
char *
hroe_table_arn_cstring(const char *name)
{
	return psprintf("arn:aws:dynamodb:%s:%s:table/%s", hroe_region, hroe_account_id, name);
}

/*
 * The one reading of a table ARN (every ARN a request names: tags, streams,
 * resource-based policies, backups, point-in-time recovery, exports):
 * arn:<partition>:dynamodb:<region>:<account>:table/<a table name><rest>,
 * rest empty or from the '/' after the name on ("/index/NAME",
 * "/stream/LABEL", ...).  False if arn is not one; else *table and *rest
 * (palloc'd) and *ours: whether its partition, region and account are this
 * database's.
 */
bool
hroe_arn_parse(const char *arn, char **table, char **rest, bool *ours)
{
	const char *part[6];
	size_t		len[6];
	const char *p = arn;
	const char *name;
	size_t		nlen;

	*ours = false;
	/* six fields, separated by ':', the last holding the rest */
	for (int i = 0; i < 6; i++)
	{
		const char *colon = i < 5 ? strchr(p, ':') : NULL;

		part[i] = p;
		len[i] = colon ? (size_t) (colon - p) : strlen(p);
		if (i < 5 && colon == NULL)
			return false;
		p = colon ? colon + 1 : p + len[i];
	}
	if (len[0] != 3 || strncmp(part[0], "arn", 3) != 0 ||
		len[1] == 0 || len[2] != 8 || strncmp(part[2], "dynamodb", 8) != 0 ||
		len[3] == 0 || len[4] == 0 || len[5] <= 6 || strncmp(part[5], "table/", 6) != 0)
		return false;
	name = part[5] + 6;
	nlen = strcspn(name, "/");
	if (nlen < HROE_TABLE_NAME_MIN || nlen > HROE_TABLE_NAME_MAX ||
		strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != nlen)
		return false;
	*ours = len[1] == 3 && strncmp(part[1], "aws", 3) == 0 &&
		len[3] == strlen(hroe_region) && strncmp(part[3], hroe_region, len[3]) == 0 &&
		len[4] == strlen(hroe_account_id) && strncmp(part[4], hroe_account_id, len[4]) == 0;
	*table = pnstrdup(name, nlen);
	*rest = pstrdup(name + nlen);
	return true;
}

PG_FUNCTION_INFO_V1(hroe_arn_parse_sql);

/*
 * hroe.arn_parse(text, OUT table_name, OUT resource, OUT ours): the SQL
 * face of hroe_arn_parse, three NULLs if the text is not a table ARN
 */
Datum
hroe_arn_parse_sql(PG_FUNCTION_ARGS)
{
	TupleDesc	desc;
	Datum		values[3];
	bool		nulls[3] = {true, true, true};
	char	   *table;
	char	   *rest;
	bool		ours;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	desc = BlessTupleDesc(desc);
	if (hroe_arn_parse(text_to_cstring(PG_GETARG_TEXT_PP(0)), &table, &rest, &ours))
	{
		values[0] = CStringGetTextDatum(table);
		values[1] = CStringGetTextDatum(rest);
		values[2] = BoolGetDatum(ours);
		nulls[0] = nulls[1] = nulls[2] = false;
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

PG_FUNCTION_INFO_V1(hroe_table_arn);

/* hroe.table_arn(text): the ARN of a table */
Datum
hroe_table_arn(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(hroe_table_arn_cstring(text_to_cstring(PG_GETARG_TEXT_PP(0)))));
}
