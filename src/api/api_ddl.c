/*-------------------------------------------------------------------------
 *
 * api_ddl.c
 *	  The JSON API's table operations: CreateTable, DescribeTable,
 *	  DeleteTable, UpdateTable (GSIs, billing mode, provisioned throughput,
 *	  deletion protection), ListTables, run as hroe's SQL functions
 *	  (tables.sql, tables_meta.sql) through SPI plans prepared once per
 *	  backend.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/lock.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/resowner.h"
#include "utils/typcache.h"

#include "api_internal.h"


/* ---------- the SPI statements ---------- */

typedef enum ApiStmt
{
	STMT_CREATE_TABLE,
	STMT_CREATE_INDEX,
	STMT_CREATE_LOCAL_INDEX,
	STMT_DESCRIBE,
	STMT_DELETE_TABLE,
	STMT_DELETE_INDEX,
	STMT_LIST_TABLES,
	STMT_SET_SETTINGS,
	STMT_UPDATE_TABLE,
	STMT_COUNT
} ApiStmt;

typedef struct ApiStmtDef
{
	const char *sql;			/* run through SPI (DDL, plpgsql) */
	int			nargs;
	const char *types[API_MAX_ARGS];	/* of the SPI statements */
} ApiStmtDef;

static const ApiStmtDef StmtDefs[STMT_COUNT] = {
	{"SELECT hroe.create_table($1, $2, $3, $4, $5)", 5,
	{"text", "text", "text", "text", "text"}},
	{"SELECT hroe.create_index($1, $2, $3, $4, $5, $6, $7)", 7,
	{"text", "text", "text[]", "text[]", "jsonb", "text", "text[]"}},
	{"SELECT hroe.create_local_index($1, $2, $3, $4, $5, $6)", 6,
	{"text", "text", "text", "text", "text", "text[]"}},
	{"SELECT hroe.table_description($1, $2, $3, $4)", 4, {"text", "text", "text", "text"}},
	{"SELECT hroe.delete_table($1)", 1, {"text"}},
	{"SELECT hroe.delete_index($1, $2)", 2, {"text", "text"}},
	/* table names in byte order (as DynamoDB's), after $1, at most $2 */
	{"SELECT pg_catalog.array_agg(n ORDER BY n COLLATE pg_catalog.\"C\") FROM ("
		"SELECT table_name AS n FROM hroe.tables"
		" WHERE $1 IS NULL OR table_name COLLATE pg_catalog.\"C\" OPERATOR(pg_catalog.>) $1"
		" ORDER BY table_name COLLATE pg_catalog.\"C\" LIMIT $2) s", 2, {"text", "int4"}},
	{"SELECT hroe.set_table_settings($1, $2, $3, $4, $5, $6, $7)", 7,
	{"text", "text", "int8", "int8", "bool", "text[]", "jsonb"}},
	{"SELECT hroe.update_table($1, $2, $3, $4, $5, $6, $7)", 7,
	{"text", "text", "int8", "int8", "bool", "jsonb", "text"}},
};

static SPIPlanPtr StmtPlans[STMT_COUNT];

/* The result of a statement: its columns (a composite result's fields) */
typedef struct ApiRow
{
	int			ncols;
	Datum		values[8];
	bool		nulls[8];
} ApiRow;

/*
 * Run statement s (a DDL function, through SPI) with the given arguments
 * (nulls: 'n' for NULL, as SPI); returns its (first) row.
 */
static ApiRow *
RunStmt(ApiStmt s, Datum *values, const char *nulls)
{
	ApiRow	   *row = palloc0(sizeof(ApiRow));

	if (StmtPlans[s] == NULL)
	{
		Oid			types[API_MAX_ARGS];
		SPIPlanPtr	plan;
		int			ret;

		for (int i = 0; i < StmtDefs[s].nargs; i++)
			types[i] = DatumGetObjectId(DirectFunctionCall1(regtypein,
															CStringGetDatum(StmtDefs[s].types[i])));
		plan = SPI_prepare(StmtDefs[s].sql, StmtDefs[s].nargs, types);
		if (plan == NULL)
			elog(ERROR, "preparing \"%s\" failed: %s", StmtDefs[s].sql,
				 SPI_result_code_string(SPI_result));
		ret = SPI_keepplan(plan);
		if (ret != 0)
			elog(ERROR, "SPI_keepplan failed: %s", SPI_result_code_string(ret));
		StmtPlans[s] = plan;
	}
	{
		int			ret = SPI_execute_plan(StmtPlans[s], values, nulls, false, 0);

		if (ret != SPI_OK_SELECT)
			elog(ERROR, "\"%s\" failed: %s", StmtDefs[s].sql, SPI_result_code_string(ret));
		if (SPI_processed == 0)
			elog(ERROR, "\"%s\" returned no row", StmtDefs[s].sql);
		row->ncols = Min(SPI_tuptable->tupdesc->natts, 8);
		for (int i = 0; i < row->ncols; i++)
			row->values[i] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, i + 1,
										   &row->nulls[i]);
	}
	return row;
}

/* Column i (1-based) of a row RunStmt returned */
static Datum
Col(ApiRow *row, int i, bool *isnull)
{
	Assert(i >= 1 && i <= row->ncols);
	*isnull = row->nulls[i - 1];
	return row->values[i - 1];
}

/* A table description without hroe's members naming PostgreSQL objects */
static Jsonb *
WithoutPostgresNames(Jsonb *j)
{
	JsonbParseState *st = NULL;
	JsonbIterator *it = JsonbIteratorInit(&j->root);
	JsonbIteratorToken tok;
	JsonbValue	v;
	JsonbValue *res = NULL;

	while ((tok = JsonbIteratorNext(&it, &v, false)) != WJB_DONE)
	{
		if (tok == WJB_KEY &&
			((v.val.string.len == 13 && memcmp(v.val.string.val, "PostgresTable", 13) == 0) ||
			 (v.val.string.len == 13 && memcmp(v.val.string.val, "PostgresIndex", 13) == 0)))
		{
			/* skip the value: hroe writes both as strings */
			tok = JsonbIteratorNext(&it, &v, false);
			Assert(tok == WJB_VALUE);
			continue;
		}
		res = pushJsonbValue(&st, tok, tok < WJB_BEGIN_ARRAY ? &v : NULL);
	}
	return JsonbValueToJsonb(res);
}

/*
 * The TableDescription of a table, without hroe's PostgreSQL names:
 * TableStatus status, IndexStatus index_status for GSI index (NULL: all)
 * if index_status is given, else ACTIVE
 */
static Jsonb *
TableDescriptionJsonb(const char *table, const char *status, const char *index_status,
					  const char *index)
{
	Datum		v[4];
	char		nulls[4] = "    ";
	ApiRow	   *row;
	bool		isnull;

	v[0] = TextD(table);
	v[1] = TextD(status);
	v[2] = index_status ? TextD(index_status) : (nulls[2] = 'n', (Datum) 0);
	v[3] = index ? TextD(index) : (nulls[3] = 'n', (Datum) 0);
	row = RunStmt(STMT_DESCRIBE, v, nulls);
	/* the vector indexes: all CREATING with the table, else index's status */
	return hroe_api_with_vector_indexes(WithoutPostgresNames(DatumGetJsonbP(Col(row, 1, &isnull))), table,
										strcmp(status, "CREATING") == 0 ? status : index ? index_status : NULL,
										index);
}

/* The same, as JSON text, with the table's stream (Streams) */
static char *
TableDescription(const char *table, const char *status, const char *index_status,
				 const char *index)
{
	return hroe_api_with_stream(table, hroe_api_jsonb_text(TableDescriptionJsonb(table, status, index_status, index)));
}

/* Attribute type of name in AttributeDefinitions, or NULL */
static char *
AttributeType(JsonbContainer **defs, int ndefs, const char *name)
{
	for (int i = 0; i < ndefs; i++)
	{
		char	   *n = hroe_api_member_text(defs[i], "AttributeName", "AttributeName");

		if (n && strcmp(n, name) == 0)
			return hroe_api_member_text(defs[i], "AttributeType", "AttributeType");
	}
	return NULL;
}

/* KeySchema: HASH names and RANGE names */
static void
KeySchema(JsonbContainer *obj, List **hash, List **range)
{
	JsonbContainer **ks;
	int			n = hroe_api_member_array(obj, "KeySchema", &ks);

	*hash = *range = NIL;
	if (n == 0)
		hroe_api_missing("keySchema");
	for (int i = 0; i < n; i++)
	{
		char	   *name = hroe_api_member_text(ks[i], "AttributeName", "AttributeName");
		char	   *type = hroe_api_member_text(ks[i], "KeyType", "KeyType");

		if (name == NULL)
			hroe_api_missing(psprintf("keySchema.%d.member.attributeName", i + 1));
		if (type == NULL)
			hroe_api_missing(psprintf("keySchema.%d.member.keyType", i + 1));
		if (strcmp(type, "HASH") == 0)
		{
			if (*range != NIL)
				hroe_api_invalid("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
			*hash = lappend(*hash, name);
		}
		else if (strcmp(type, "RANGE") == 0)
		{
			if (*hash == NIL)
				hroe_api_invalid("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
			*range = lappend(*range, name);
		}
		else
			hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'keySchema.%d.member.keyType' failed to satisfy constraint: Member must satisfy enum value set: [HASH, RANGE]",
							 type, i + 1));
	}
}

/* A text[] of names */
static Datum
NameArray(List *names)
{
	Datum	   *d = palloc(sizeof(Datum) * (list_length(names) + 1));
	int			i = 0;
	ListCell   *lc;

	foreach(lc, names)
		d[i++] = CStringGetTextDatum(lfirst(lc));
	return PointerGetDatum(construct_array(d, i, TEXTOID, -1, false, TYPALIGN_INT));
}

/*
 * The Projection of an index in a request: its ProjectionType (NULL if
 * absent) and NonKeyAttributes (NIL if absent); projection_member names it in
 * DynamoDB's error when it is missing
 */
static void
IndexProjection(JsonbContainer *index, const char *projection_member, char **ptype, List **nonkey)
{
	JsonbValue *proj = hroe_api_member(index, "Projection");

	*ptype = NULL;
	*nonkey = NIL;
	if (proj && proj->type == jbvBinary)
	{
		JsonbValue *nkv = hroe_api_member(proj->val.binary.data, "NonKeyAttributes");

		*ptype = hroe_api_member_text(proj->val.binary.data, "ProjectionType", "ProjectionType");
		if (nkv && nkv->type == jbvBinary)
		{
			JsonbIterator *it = JsonbIteratorInit(nkv->val.binary.data);
			JsonbValue	e;
			JsonbIteratorToken tok;

			while ((tok = JsonbIteratorNext(&it, &e, true)) != WJB_DONE)
				if (tok == WJB_ELEM && e.type == jbvString)
					*nonkey = lappend(*nonkey, pnstrdup(e.val.string.val, e.val.string.len));
		}
	}
	if (proj == NULL)
		hroe_api_missing(projection_member);
}

/* "a, b, c": the names of the AttributeDefinitions, in request order */
static char *
DefinitionNames(JsonbContainer **defs, int ndefs)
{
	StringInfoData s;

	initStringInfo(&s);
	for (int i = 0; i < ndefs; i++)
		appendStringInfo(&s, "%s%s", i ? ", " : "",
						 hroe_api_member_text(defs[i], "AttributeName", "AttributeName"));
	return s.data;
}

/*
 * Every key attribute of a table or index (keys) must be defined in the
 * request's own AttributeDefinitions: an UpdateTable's new GSI too, even
 * keyed on an attribute the table defines already
 */
static void
CheckKeysDefined(List *keys, JsonbContainer **defs, int ndefs)
{
	ListCell   *lc;

	foreach(lc, keys)
		if (AttributeType(defs, ndefs, lfirst(lc)) == NULL)
		{
			StringInfoData k;
			ListCell   *c;

			initStringInfo(&k);
			foreach(c, keys)
				appendStringInfo(&k, "%s%s", k.len ? ", " : "", (char *) lfirst(c));
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]",
									  k.data, DefinitionNames(defs, ndefs)));
		}
}

/*
 * Create the GSI a CreateTable or UpdateTable request describes (gsi), with
 * the key types of AttributeDefinitions; projection_member names its
 * Projection in DynamoDB's error when it is missing
 */
static void
CreateGsi(const char *table, JsonbContainer *gsi, JsonbContainer **defs, int ndefs,
		  const char *projection_member)
{
	Datum		v[7];
	char	   *iname = hroe_api_member_text(gsi, "IndexName", "IndexName");
	List	   *ih,
			   *ir;
	JsonbParseState *st = NULL;
	JsonbValue *res;
	char	   *ptype;
	List	   *nonkey;
	ListCell   *lc;
	char		inulls[7] = "       ";

	KeySchema(gsi, &ih, &ir);
	CheckKeysDefined(list_concat_copy(ih, ir), defs, ndefs);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	foreach(lc, list_concat_copy(ih, ir))
	{
		JsonbValue	k,
					tv;
		char	   *ty = AttributeType(defs, ndefs, lfirst(lc));

		k.type = jbvString;
		k.val.string.val = lfirst(lc);
		k.val.string.len = strlen(lfirst(lc));
		tv.type = jbvString;
		tv.val.string.val = ty;
		tv.val.string.len = strlen(ty);
		pushJsonbValue(&st, WJB_KEY, &k);
		pushJsonbValue(&st, WJB_VALUE, &tv);
	}
	res = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	IndexProjection(gsi, projection_member, &ptype, &nonkey);
	v[0] = TextD(table);
	v[1] = iname ? TextD(iname) : (inulls[1] = 'n', (Datum) 0);
	v[2] = NameArray(ih);
	v[3] = NameArray(ir);
	v[4] = JsonbPGetDatum(JsonbValueToJsonb(res));
	v[5] = TextD(ptype ? ptype : "ALL");
	v[6] = nonkey ? NameArray(nonkey) : (inulls[6] = 'n', (Datum) 0);
	(void) RunStmt(STMT_CREATE_INDEX, v, inulls);
}

/*
 * Check the LocalSecondaryIndexes of a CreateTable request (lsis, n of
 * them) as DynamoDB does, before anything is created (table_range: the
 * table's sort key or NIL); their names must be distinct from each other's
 * and the GSIs' (gsis, ngsis)
 */
static void
CheckLsis(JsonbContainer **lsis, int n, JsonbContainer **gsis, int ngsis,
		  const char *table_hash, List *table_range, JsonbContainer **defs, int ndefs)
{
	List	   *names = NIL;

	if (n == 0)
		hroe_api_invalid("One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
	if (table_range == NIL)
		hroe_api_invalid("One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex");
	for (int i = 0; i < n; i++)
	{
		char	   *iname = hroe_api_member_text(lsis[i], "IndexName", "IndexName");
		List	   *ih,
				   *ir;
		char	   *ptype;
		List	   *nonkey;

		if (iname == NULL)
			hroe_api_missing(psprintf("localSecondaryIndexes.%d.member.indexName", i + 1));
		KeySchema(lsis[i], &ih, &ir);
		CheckKeysDefined(list_concat_copy(ih, ir), defs, ndefs);
		if (ih && ir && strcmp(linitial(ih), linitial(ir)) == 0)
			hroe_api_invalid("Both the Hash Key and the Range Key element in the KeySchema have the same name");
		if (list_length(ih) != 1 || list_length(ir) != 1)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Index KeySchema does not have a range key for index: %s",
									  iname));
		if (strcmp(linitial(ih), table_hash) != 0)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: %s. index hash key: %s, table hash key: %s",
									  iname, (char *) linitial(ih), table_hash));
		IndexProjection(lsis[i], psprintf("localSecondaryIndexes.%d.member.projection", i + 1),
						&ptype, &nonkey);
		if (ptype == NULL)
			hroe_api_invalid("One or more parameter values were invalid: Unknown ProjectionType: null");
		if (nonkey && strcmp(ptype, "INCLUDE") != 0)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: ProjectionType is %s, but NonKeyAttributes is specified",
									  ptype));
		if (list_member(names, makeString(iname)))
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Duplicate index name: %s", iname));
		names = lappend(names, makeString(iname));
	}
	if (n > HROE_MAX_LSIS)
		hroe_api_invalid("One or more parameter values were invalid: Number of LocalSecondaryIndexes exceeds per-table limit of 5");
	for (int g = 0; g < ngsis; g++)
	{
		char	   *gname = hroe_api_member_text(gsis[g], "IndexName", "IndexName");

		if (gname && list_member(names, makeString(gname)))
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Duplicate index name: %s", gname));
	}
}

/* Create the LSI a CreateTable request describes (checked by CheckLsis) */
static void
CreateLsi(const char *table, JsonbContainer *lsi, JsonbContainer **defs, int ndefs)
{
	Datum		v[6];
	char		nulls[6] = "      ";
	List	   *ih,
			   *ir;
	char	   *ptype;
	List	   *nonkey;

	KeySchema(lsi, &ih, &ir);
	IndexProjection(lsi, "projection", &ptype, &nonkey);
	v[0] = TextD(table);
	v[1] = TextD(hroe_api_member_text(lsi, "IndexName", "IndexName"));
	v[2] = TextD(linitial(ir));
	v[3] = TextD(AttributeType(defs, ndefs, linitial(ir)));
	v[4] = TextD(ptype);
	v[5] = nonkey ? NameArray(nonkey) : (nulls[5] = 'n', (Datum) 0);
	(void) RunStmt(STMT_CREATE_LOCAL_INDEX, v, nulls);
}

/*
 * DynamoDB's error when AttributeDefinitions defines an attribute no key
 * schema (the table's, an LSI's, a GSI's) uses; used: the names the key
 * schemas use
 */
static void
CheckDefinitionsUsed(JsonbContainer **defs, int ndefs, List *used)
{
	for (int i = 0; i < ndefs; i++)
	{
		char	   *n = hroe_api_member_text(defs[i], "AttributeName", "AttributeName");

		if (n && !list_member(used, makeString(n)))
		{
			StringInfoData u;
			ListCell   *lc;

			initStringInfo(&u);
			foreach(lc, used)
				appendStringInfo(&u, "%s%s", u.len ? ", " : "", strVal(lfirst(lc)));
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [%s], keys used: [%s]",
									  DefinitionNames(defs, ndefs), u.data));
		}
	}
}

/* The key attribute names of the indexes (n) of a request, added to used */
static List *
IndexKeysUsed(List *used, JsonbContainer **indexes, int n)
{
	for (int i = 0; i < n; i++)
	{
		List	   *ih,
				   *ir;
		ListCell   *lc;

		KeySchema(indexes[i], &ih, &ir);
		foreach(lc, list_concat_copy(ih, ir))
			if (!list_member(used, makeString(lfirst(lc))))
				used = lappend(used, makeString(lfirst(lc)));
	}
	return used;
}

/* A GSI's throughput, for hroe.set_table_settings and hroe.update_table */
static void
PushIndexThroughput(JsonbParseState **st, JsonbContainer *index, const ApiThroughput *tp)
{
	char	   *name = hroe_api_member_text(index, "IndexName", "IndexName");

	if (name && tp->given)
		hroe_api_push_throughput(st, name, tp);
}

/* The names of the AttributeDefinitions, in request order, as text[] */
static Datum
DefinitionOrder(JsonbContainer **defs, int ndefs)
{
	List	   *names = NIL;

	for (int i = 0; i < ndefs; i++)
	{
		char	   *n = hroe_api_member_text(defs[i], "AttributeName", "AttributeName");

		if (n)
			names = lappend(names, n);
	}
	return NameArray(names);
}

/*
 * CreateTable's checks of the table's key schema (hash, range) against
 * AttributeDefinitions, in DynamoDB's order; indexes: the request has LSIs
 * or GSIs
 */
static void
CheckTableKeys(List *hash, List *range, JsonbContainer **defs, int ndefs, bool indexes)
{
	List	   *keys = list_concat_copy(hash, range);

	if (list_length(keys) > ndefs)
		hroe_api_invalid("Invalid KeySchema: Some index key attribute have no definition");
	CheckKeysDefined(keys, defs, ndefs);
	if (!indexes && list_length(keys) != ndefs)
		hroe_api_invalid("One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions");
}

/*
 * CreateTable's checks of its GSIs (gsis, n; their throughput gtp) before
 * anything is created: distinct names, throughput as the billing mode
 * (pay: PAY_PER_REQUEST) wants it
 */
static void
CheckGsis(JsonbContainer **gsis, int n, ApiThroughput *gtp, bool pay)
{
	List	   *names = NIL;

	if (n == 0)
		hroe_api_invalid("One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");
	for (int g = 0; g < n; g++)
	{
		char	   *iname = hroe_api_member_text(gsis[g], "IndexName", "IndexName");

		if (iname == NULL)
			hroe_api_missing(psprintf("globalSecondaryIndexes.%d.member.indexName", g + 1));
		if (pay && gtp[g].given)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: %s when BillingMode is PAY_PER_REQUEST",
									  iname));
		if (!pay && !gtp[g].given)
			hroe_api_invalid(psprintf("One or more parameter values were invalid: ProvisionedThroughput must be specified for index: %s",
									  iname));
		if (gtp[g].over)
			hroe_api_invalid(gtp[g].over);
		if (list_member(names, makeString(iname)))
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Duplicate index name: %s", iname));
		names = lappend(names, makeString(iname));
	}
	if (n > HROE_MAX_GSIS)
		hroe_api_invalid("One or more parameter values were invalid: GlobalSecondaryIndex count exceeds the per-table limit of 20");
}

/*
 * CreateTable's member checks that DynamoDB reports together, before its
 * other rules: the table name's length and pattern, a KeySchema of more
 * than two elements (shown as DynamoDB's service prints them)
 */
static void
CheckCreateMembers(const char *table, JsonbContainer *req, List **errs)
{
	size_t		n = strlen(table);
	JsonbContainer **ks;
	int			nks = hroe_api_member_array(req, "KeySchema", &ks);

	if (strspn(table, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != n || n == 0)
		*errs = lappend(*errs, psprintf("Value '%s' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
										table));
	if (n < HROE_TABLE_NAME_MIN)
		*errs = lappend(*errs, psprintf("Value '%s' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to %d",
										table, HROE_TABLE_NAME_MIN));
	else if (pg_mbstrlen(table) > HROE_TABLE_NAME_MAX)
		*errs = lappend(*errs, psprintf("Value '%s' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to %d",
										table, HROE_TABLE_NAME_MAX));
	if (nks > 2)
	{
		StringInfoData v;

		initStringInfo(&v);
		for (int i = 0; i < nks; i++)
		{
			char	   *name = hroe_api_member_text(ks[i], "AttributeName", "AttributeName");
			char	   *type = hroe_api_member_text(ks[i], "KeyType", "KeyType");

			appendStringInfo(&v, "%sKeySchemaElement(attributeName=%s, keyType=%s)", i ? ", " : "",
							 name ? name : "null", type ? type : "null");
		}
		*errs = lappend(*errs, psprintf("Value '[%s]' at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2",
										v.data));
	}
}

/* CreateTable */
void
hroe_api_create_table(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	JsonbContainer **defs;
	int			ndefs = hroe_api_member_array(req, "AttributeDefinitions", &defs);
	JsonbContainer **gsis;
	int			ngsis = hroe_api_member_array(req, "GlobalSecondaryIndexes", &gsis);
	JsonbContainer **lsis;
	int			nlsis = hroe_api_member_array(req, "LocalSecondaryIndexes", &lsis);
	bool		has_lsis = hroe_api_member(req, "LocalSecondaryIndexes") != NULL;
	bool		has_gsis = hroe_api_member(req, "GlobalSecondaryIndexes") != NULL;
	bool		has_vix = hroe_api_member(req, "VectorIndexes") != NULL;
	bool		protection = hroe_api_member_bool(req, "DeletionProtectionEnabled", false);
	List	   *hash,
			   *range;
	List	   *errs = NIL;
	char	   *billing;
	bool		pay;
	ApiThroughput tp;
	ApiThroughput *gtp = palloc0(sizeof(ApiThroughput) * (ngsis + 1));
	JsonbParseState *st = NULL;
	JsonbValue *index_throughput;
	Datum		v[7];
	char		nulls[7] = "       ";
	bool		stream_enabled = false;
	char	   *view_type = NULL;
	bool		stream;
	ApiTableOptions opts;

	if (table == NULL)
		hroe_api_invalid("The parameter 'TableName' is required but was not present in the request");
	if (hroe_api_member(req, "AttributeDefinitions") == NULL)
		hroe_api_missing("attributeDefinitions");
	/* the members' own constraints, reported together; then the rules */
	CheckCreateMembers(table, req, &errs);
	hroe_api_vector_index_members(req, &errs);
	billing = hroe_api_billing_mode(req, &errs);
	hroe_api_throughput(req, "provisionedThroughput", &tp, &errs);
	for (int g = 0; g < ngsis; g++)
		hroe_api_throughput(gsis[g], psprintf("globalSecondaryIndexes.%d.member.provisionedThroughput", g + 1),
							&gtp[g], &errs);
	stream = hroe_api_stream_specification(req, &stream_enabled, &view_type, &errs);
	/* TableClass, SSESpecification, WarmThroughput (api_settings.c) */
	hroe_api_table_options(req, &opts, &errs);
	for (int g = 0; g < ngsis; g++)
		hroe_api_index_warm_throughput(&opts, gsis[g],
									   psprintf("globalSecondaryIndexes.%d.member.warmThroughput", g + 1),
									   &errs);
	hroe_api_raise_errors(errs);
	hroe_api_check_table_options(&opts);
	pay = billing && strcmp(billing, "PAY_PER_REQUEST") == 0;
	if (pay && tp.given)
		hroe_api_invalid("One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
	if (!pay && !tp.given)
		hroe_api_invalid("One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
	if (tp.over)
		hroe_api_invalid(tp.over);

	KeySchema(req, &hash, &range);
	if (stream)
		hroe_api_check_stream(true, stream_enabled, view_type);
	if (list_length(hash) != 1 || list_length(range) > 1)
		hroe_api_invalid("1 validation error detected: Value at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2");
	CheckTableKeys(hash, range, defs, ndefs, has_lsis || has_gsis || has_vix);
	if (has_lsis)
		CheckLsis(lsis, nlsis, gsis, ngsis, linitial(hash), range, defs, ndefs);
	if (has_gsis)
		CheckGsis(gsis, ngsis, gtp, pay);
	if (has_vix)
		hroe_api_check_vector_indexes(req, pay);
	if (has_lsis || has_gsis || has_vix)
		CheckDefinitionsUsed(defs, ndefs,
							 hroe_api_vector_keys_used(IndexKeysUsed(IndexKeysUsed(IndexKeysUsed(NIL, &req, 1), lsis, nlsis),
																	 gsis, ngsis), req));
	/* (before the partition servers' tables are made: they commit at once) */
	if (stream && stream_enabled && hroe_partition_servers && hroe_partition_servers[0] != '\0')
		hroe_api_refuse_distributed(table, "Streams");
	v[0] = TextD(table);
	v[1] = TextD(linitial(hash));
	v[2] = TextD(AttributeType(defs, ndefs, linitial(hash)));
	if (range)
	{
		v[3] = TextD(linitial(range));
		v[4] = TextD(AttributeType(defs, ndefs, linitial(range)));
	}
	else
	{
		nulls[3] = 'n';
		v[4] = TextD("S");
	}
	(void) RunStmt(STMT_CREATE_TABLE, v, nulls);

	for (int l = 0; l < nlsis; l++)
		CreateLsi(table, lsis[l], defs, ndefs);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (int g = 0; g < ngsis; g++)
	{
		CreateGsi(table, gsis[g], defs, ndefs,
				  psprintf("globalSecondaryIndexes.%d.member.projection", g + 1));
		PushIndexThroughput(&st, gsis[g], &gtp[g]);
	}
	index_throughput = pushJsonbValue(&st, WJB_END_OBJECT, NULL);

	/* the billing mode, throughput, deletion protection, definitions' order */
	memset(nulls, ' ', sizeof(nulls));
	v[0] = TextD(table);
	v[1] = TextD(pay ? "PAY_PER_REQUEST" : "PROVISIONED");
	v[2] = pay ? (nulls[2] = 'n', (Datum) 0) : Int64GetDatum(tp.read);
	v[3] = pay ? (nulls[3] = 'n', (Datum) 0) : Int64GetDatum(tp.write);
	v[4] = BoolGetDatum(protection);
	v[5] = DefinitionOrder(defs, ndefs);
	v[6] = JsonbPGetDatum(JsonbValueToJsonb(index_throughput));
	(void) RunStmt(STMT_SET_SETTINGS, v, nulls);
	(void) hroe_api_apply_table_options(table, &opts);
	/* OnDemandThroughput (api_on_demand.c) */
	hroe_api_apply_on_demand(req, table, true);
	if (has_vix)
		hroe_api_create_vector_indexes(table, req, defs, ndefs);
	if (stream && stream_enabled)
		hroe_api_apply_stream(table, true, view_type);
	/* ResourcePolicy: the table's resource-based policy (api_policy.c) */
	hroe_api_create_table_policy(req, table);
	appendStringInfo(out, ",\"TableDescription\":%s",
					 TableDescription(table, "CREATING", ngsis ? "CREATING" : NULL, NULL));
}

/* DescribeTable */
void
hroe_api_describe_table(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");

	if (table == NULL)
		hroe_api_missing("tableName");
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	appendStringInfo(out, ",\"Table\":%s",
					 hroe_api_with_restore(table, TableDescription(table, "ACTIVE", NULL, NULL)));
}

/* DeleteTable (refused while deletion protection is enabled: hroe.delete_table) */
void
hroe_api_delete_table(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	char	   *desc;
	Datum		v[1];

	if (table == NULL)
		hroe_api_missing("tableName");
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	/* (without the GSIs, as DynamoDB answers: dynalite's recorded answer) */
	desc = hroe_api_with_stream(table,
								hroe_api_jsonb_text(DatumGetJsonbP(DirectFunctionCall2(jsonb_delete,
																					   JsonbPGetDatum(TableDescriptionJsonb(table, "DELETING", NULL, NULL)),
																					   CStringGetTextDatum("GlobalSecondaryIndexes")))));
	v[0] = TextD(table);
	(void) RunStmt(STMT_DELETE_TABLE, v, " ");
	appendStringInfo(out, ",\"TableDescription\":%s", desc);
}

/* Object member name (NULL if absent); SerializationException if not an object */
static JsonbContainer *
MemberObject(JsonbContainer *obj, const char *name)
{
	Jsonb	   *j = hroe_api_member_jsonb(obj, name);

	if (j == NULL)
		return NULL;
	if (!JB_ROOT_IS_OBJECT(j))
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return &j->root;
}

/*
 * UpdateTable: creates or deletes one GSI, changes the billing mode, the
 * table's and GSIs' provisioned throughput, deletion protection
 */
void
hroe_api_update_table(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	JsonbValue *protection = hroe_api_member(req, "DeletionProtectionEnabled");
	JsonbContainer **updates;
	int			nupdates = hroe_api_member_array(req, "GlobalSecondaryIndexUpdates", &updates);
	JsonbContainer **defs;
	int			ndefs = hroe_api_member_array(req, "AttributeDefinitions", &defs);
	ApiThroughput *utp = palloc0(sizeof(ApiThroughput) * (nupdates + 1));
	List	   *errs = NIL;
	List	   *names = NIL;
	char	   *billing;
	ApiThroughput tp;
	int			nonline = 0;
	int			nvector;
	char	   *new_index = NULL;
	char	   *updated_index = NULL;
	int			nupdated = 0;
	bool		deleted = false;
	JsonbParseState *st = NULL;
	JsonbValue *index_throughput;
	Datum		v[7];
	char		nulls[7] = "       ";
	ApiRow	   *row;
	bool		isnull;
	bool		changed;
	bool		stream_enabled = false;
	char	   *view_type = NULL;
	bool		stream;
	ApiTableOptions opts;

	if (table == NULL)
		hroe_api_missing("tableName");
	billing = hroe_api_billing_mode(req, &errs);
	hroe_api_throughput(req, "provisionedThroughput", &tp, &errs);
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *u = MemberObject(updates[i], "Update");
		JsonbContainer *c = MemberObject(updates[i], "Create");

		/* (a GSI's warm throughput or OnDemandThroughput alone may be updated) */
		if (u && hroe_api_member(u, "ProvisionedThroughput") == NULL &&
			hroe_api_member(u, "WarmThroughput") == NULL && !hroe_api_has_on_demand(u))
			errs = lappend(errs, hroe_not_null_constraint(psprintf("globalSecondaryIndexUpdates.%d.member.update.provisionedThroughput",
																 i + 1)));
		else if (u && hroe_api_member(u, "ProvisionedThroughput") != NULL)
			hroe_api_throughput(u, psprintf("globalSecondaryIndexUpdates.%d.member.update.provisionedThroughput", i + 1),
								&utp[i], &errs);
		else if (c)
			hroe_api_throughput(c, psprintf("globalSecondaryIndexUpdates.%d.member.create.provisionedThroughput", i + 1),
								&utp[i], &errs);
	}
	stream = hroe_api_stream_specification(req, &stream_enabled, &view_type, &errs);
	/* TableClass, SSESpecification, WarmThroughput (api_settings.c) */
	hroe_api_table_options(req, &opts, &errs);
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *u = MemberObject(updates[i], "Update");
		JsonbContainer *c = MemberObject(updates[i], "Create");

		if (u || c)
			hroe_api_index_warm_throughput(&opts, u ? u : c,
										   psprintf("globalSecondaryIndexUpdates.%d.member.%s.warmThroughput",
													i + 1, u ? "update" : "create"),
										   &errs);
	}
	hroe_api_vector_index_update_members(req, &errs);
	hroe_api_raise_errors(errs);
	if (stream)
		hroe_api_check_stream(false, stream_enabled, view_type);
	nvector = hroe_api_vector_index_actions(req);
	if (!tp.given && billing == NULL && nupdates == 0 && protection == NULL && !stream &&
		!hroe_api_table_options_given(&opts) && !hroe_api_has_on_demand(req) && nvector == 0)
		hroe_api_invalid("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
	if (billing && strcmp(billing, "PROVISIONED") == 0 && !tp.given)
		hroe_api_invalid("One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED");
	if (tp.over)
		hroe_api_invalid(tp.over);
	hroe_api_check_table_options(&opts);
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *u = MemberObject(updates[i], "Update");
		JsonbContainer *c = MemberObject(updates[i], "Create");
		JsonbContainer *d = MemberObject(updates[i], "Delete");
		JsonbContainer *action = u ? u : c ? c : d;
		char	   *iname;

		if (action == NULL)
			hroe_api_invalid("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
		iname = hroe_api_member_text(action, "IndexName", "IndexName");
		if (iname && list_member(names, makeString(iname)))
			hroe_api_invalid(psprintf("One or more parameter values were invalid: Only one global secondary index update per index is allowed simultaneously. Index: %s",
									  iname));
		if (iname)
			names = lappend(names, makeString(iname));
		if (u && utp[i].over)
			hroe_api_invalid("This operation cannot be performed with given input values. Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate");
		if (c && utp[i].over)
			hroe_api_invalid(utp[i].over);
		nonline += (c != NULL) + (d != NULL);
	}
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	nonline += nvector;
	/* (a vector index still being built is an online action under way) */
	if (nonline > 1 || (nonline == 1 && hroe_api_vector_index_building(table)))
		hroe_ddb_error(ERRCODE_HROE_LIMIT_EXCEEDED, "LimitExceededException",
					   "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *u = MemberObject(updates[i], "Update");
		JsonbContainer *c = MemberObject(updates[i], "Create");
		JsonbContainer *d = MemberObject(updates[i], "Delete");

		if (c)
		{
			CreateGsi(table, c, defs, ndefs,
					  psprintf("globalSecondaryIndexUpdates.%d.member.create.projection", i + 1));
			new_index = hroe_api_member_text(c, "IndexName", "IndexName");
			PushIndexThroughput(&st, c, &utp[i]);
		}
		else if (u)
		{
			updated_index = hroe_api_member_text(u, "IndexName", "IndexName");
			if (updated_index == NULL)
				hroe_api_missing(psprintf("globalSecondaryIndexUpdates.%d.member.update.indexName", i + 1));
			nupdated++;
			PushIndexThroughput(&st, u, &utp[i]);
		}
		else if (d)
		{
			char	   *iname = hroe_api_member_text(d, "IndexName", "IndexName");
			Datum		dv[2];

			if (iname == NULL)
				hroe_api_missing(psprintf("globalSecondaryIndexUpdates.%d.member.delete.indexName", i + 1));
			dv[0] = TextD(table);
			dv[1] = TextD(iname);
			(void) RunStmt(STMT_DELETE_INDEX, dv, "  ");
			deleted = true;
		}
	}
	index_throughput = pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	/* the vector indexes' one online action */
	if (nvector)
	{
		new_index = hroe_api_apply_vector_index_updates(table, req, defs, ndefs);
		deleted = new_index == NULL;
	}

	/* the billing mode, throughput and deletion protection, with DynamoDB's rules */
	v[0] = TextD(table);
	v[1] = billing ? TextD(billing) : (nulls[1] = 'n', (Datum) 0);
	v[2] = tp.given ? Int64GetDatum(tp.read) : (nulls[2] = 'n', (Datum) 0);
	v[3] = tp.given ? Int64GetDatum(tp.write) : (nulls[3] = 'n', (Datum) 0);
	v[4] = protection ? BoolGetDatum(hroe_api_member_bool(req, "DeletionProtectionEnabled", false))
		: (nulls[4] = 'n', (Datum) 0);
	v[5] = JsonbPGetDatum(JsonbValueToJsonb(index_throughput));
	v[6] = new_index ? TextD(new_index) : (nulls[6] = 'n', (Datum) 0);
	row = RunStmt(STMT_UPDATE_TABLE, v, nulls);
	changed = DatumGetBool(Col(row, 1, &isnull));
	if (hroe_api_apply_table_options(table, &opts))
		changed = true;
	/* OnDemandThroughput (api_on_demand.c) */
	hroe_api_apply_on_demand(req, table, false);
	if (stream)
		hroe_api_apply_stream(table, stream_enabled, view_type);
	/* the table UPDATING while its own settings or GSIs change, the GSIs changing */
	if (new_index)
		appendStringInfo(out, ",\"TableDescription\":%s",
						 TableDescription(table, "UPDATING", "CREATING", new_index));
	else
		appendStringInfo(out, ",\"TableDescription\":%s",
						 TableDescription(table, changed || deleted || stream ? "UPDATING" : "ACTIVE",
										  nupdated ? "UPDATING" : NULL, nupdated == 1 ? updated_index : NULL));
}

/* ListTables: table names in byte order, paged by ExclusiveStartTableName */
void
hroe_api_list_tables(JsonbContainer *req, StringInfo out)
{
	bool		has_limit;
	int32		limit = hroe_api_member_int(req, "Limit", &has_limit);
	char	   *start = hroe_api_member_text(req, "ExclusiveStartTableName", "ExclusiveStartTableName");
	Datum		v[2];
	ApiRow	   *row;
	bool		isnull;
	Datum		d;
	int			n = 0;

	if (has_limit && limit < 1)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
						 limit));
	if (has_limit && limit > HROE_LIST_TABLES_MAX)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100",
						 limit));
	if (start && strlen(start) < 3)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
						 start));
	if (start && strlen(start) > 255)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'exclusiveStartTableName' failed to satisfy constraint: Member must have length less than or equal to 255",
						 start));
	if (!has_limit)
		limit = HROE_LIST_TABLES_MAX;
	v[0] = start ? TextD(start) : (Datum) 0;
	/* one more than asked: whether there is a next page */
	v[1] = Int32GetDatum(limit + 1);
	row = RunStmt(STMT_LIST_TABLES, v, start ? "  " : "n ");
	d = Col(row, 1, &isnull);
	appendStringInfoString(out, ",\"TableNames\":[");
	if (!isnull)
	{
		Datum	   *names;
		bool	   *nnulls;

		deconstruct_array(DatumGetArrayTypeP(d), TEXTOID, -1, false, TYPALIGN_INT,
						  &names, &nnulls, &n);
		for (int i = 0; i < Min(n, limit); i++)
		{
			char	   *name = TextDatumGetCString(names[i]);

			if (i > 0)
				appendStringInfoChar(out, ',');
			hroe_json_string_write(out, name, strlen(name));
		}
		appendStringInfoChar(out, ']');
		if (n > limit)
		{
			char	   *last = TextDatumGetCString(names[limit - 1]);

			appendStringInfoString(out, ",\"LastEvaluatedTableName\":");
			hroe_json_string_write(out, last, strlen(last));
		}
	}
	else
		appendStringInfoChar(out, ']');
}
