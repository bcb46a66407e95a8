/*-------------------------------------------------------------------------
 *
 * api_ddl.c
 *	  The JSON API's table operations: CreateTable, DescribeTable,
 *	  DeleteTable, UpdateTable (GSIs), ListTables, run as hroe's SQL
 *	  functions (tables.sql) through SPI plans prepared once per backend.
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
	{"SELECT hroe.describe_table($1)", 1, {"text"}},
	{"SELECT hroe.delete_table($1)", 1, {"text"}},
	{"SELECT hroe.delete_index($1, $2)", 2, {"text", "text"}},
	/* table names in byte order (as DynamoDB's), after $1, at most $2 */
	{"SELECT pg_catalog.array_agg(n ORDER BY n COLLATE pg_catalog.\"C\") FROM ("
		"SELECT table_name AS n FROM hroe.tables"
		" WHERE $1 IS NULL OR table_name COLLATE pg_catalog.\"C\" OPERATOR(pg_catalog.>) $1"
		" ORDER BY table_name COLLATE pg_catalog.\"C\" LIMIT $2) s", 2, {"text", "int4"}},
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

/* DescribeTable's Table, without hroe's PostgreSQL names */
static char *
TableDescription(const char *table, const char *status)
{
	Datum		v[1];
	ApiRow	   *row;
	bool		isnull;
	Jsonb	   *res;
	Datum		d;

	v[0] = TextD(table);
	row = RunStmt(STMT_DESCRIBE, v, " ");
	res = DatumGetJsonbP(Col(row, 1, &isnull));
	d = DirectFunctionCall2(jsonb_object_field, JsonbPGetDatum(res), CStringGetTextDatum("Table"));
	if (status)
	{
		Datum		path = CStringGetTextDatum("TableStatus");

		d = DirectFunctionCall4(jsonb_set, d,
								PointerGetDatum(construct_array(&path, 1, TEXTOID, -1, false, TYPALIGN_INT)),
								DirectFunctionCall1(jsonb_in, CStringGetDatum(psprintf("\"%s\"", status))),
								BoolGetDatum(true));
	}
	return hroe_api_with_stream(table, hroe_api_jsonb_text(WithoutPostgresNames(DatumGetJsonbP(d))));
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
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	foreach(lc, list_concat_copy(ih, ir))
	{
		JsonbValue	k,
					tv;
		char	   *ty = AttributeType(defs, ndefs, lfirst(lc));

		if (ty == NULL)
			continue;
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
		ListCell   *lc;

		if (iname == NULL)
			hroe_api_missing(psprintf("localSecondaryIndexes.%d.member.indexName", i + 1));
		KeySchema(lsis[i], &ih, &ir);
		foreach(lc, list_concat_copy(ih, ir))
			if (AttributeType(defs, ndefs, lfirst(lc)) == NULL)
			{
				StringInfoData keys;
				ListCell   *k;

				initStringInfo(&keys);
				foreach(k, list_concat_copy(ih, ir))
					appendStringInfo(&keys, "%s%s", keys.len ? ", " : "", (char *) lfirst(k));
				hroe_api_invalid(psprintf("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [%s], AttributeDefinitions: [%s]",
										  keys.data, DefinitionNames(defs, ndefs)));
			}
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
	List	   *hash,
			   *range;
	Datum		v[7];
	char		nulls[7] = "       ";
	int			nused = 0;
	bool		stream_enabled = false;
	char	   *view_type = NULL;
	bool		stream;

	if (table == NULL)
		hroe_api_missing("tableName");
	if (hroe_api_member(req, "AttributeDefinitions") == NULL)
		hroe_api_missing("attributeDefinitions");
	KeySchema(req, &hash, &range);
	stream = hroe_api_stream_specification(req, true, &stream_enabled, &view_type);
	if (list_length(hash) != 1 || list_length(range) > 1)
		hroe_api_invalid("1 validation error detected: Value at 'keySchema' failed to satisfy constraint: Member must have length less than or equal to 2");
	if (hroe_api_member(req, "LocalSecondaryIndexes"))
	{
		CheckLsis(lsis, nlsis, gsis, ngsis, linitial(hash), range, defs, ndefs);
		CheckDefinitionsUsed(defs, ndefs,
							 IndexKeysUsed(IndexKeysUsed(IndexKeysUsed(NIL, &req, 1), lsis, nlsis),
										   gsis, ngsis));
	}
	v[0] = TextD(table);
	v[1] = TextD(linitial(hash));
	v[2] = TextD(AttributeType(defs, ndefs, linitial(hash)));
	if (DatumGetPointer(v[2]) == NULL)
		hroe_api_invalid("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions.");
	nused++;
	if (range)
	{
		v[3] = TextD(linitial(range));
		v[4] = TextD(AttributeType(defs, ndefs, linitial(range)));
		if (DatumGetPointer(v[4]) == NULL)
			hroe_api_invalid("One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions.");
		nused++;
	}
	else
	{
		nulls[3] = 'n';
		v[4] = TextD("S");
	}
	(void) RunStmt(STMT_CREATE_TABLE, v, nulls);

	for (int l = 0; l < nlsis; l++)
		CreateLsi(table, lsis[l], defs, ndefs);
	for (int g = 0; g < ngsis; g++)
		CreateGsi(table, gsis[g], defs, ndefs,
				  psprintf("globalSecondaryIndexes.%d.member.projection", g + 1));
	if (stream && stream_enabled)
		hroe_api_apply_stream(table, true, view_type);
	appendStringInfo(out, ",\"TableDescription\":%s", TableDescription(table, NULL));
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
	appendStringInfo(out, ",\"Table\":%s", TableDescription(table, NULL));
}

/* DeleteTable */
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
	desc = TableDescription(table, "DELETING");
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

/* UpdateTable: creates or deletes one GSI (hroe tables are on-demand) */
void
hroe_api_update_table(JsonbContainer *req, StringInfo out)
{
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	char	   *billing = hroe_api_member_text(req, "BillingMode", "BillingMode");
	bool		throughput = hroe_api_member(req, "ProvisionedThroughput") != NULL;
	JsonbContainer **updates;
	int			nupdates = hroe_api_member_array(req, "GlobalSecondaryIndexUpdates", &updates);
	JsonbContainer **defs;
	int			ndefs = hroe_api_member_array(req, "AttributeDefinitions", &defs);
	int			nonline = 0;
	bool		stream_enabled = false;
	char	   *view_type = NULL;
	bool		stream;

	if (table == NULL)
		hroe_api_missing("tableName");
	stream = hroe_api_stream_specification(req, false, &stream_enabled, &view_type);
	if (billing && strcmp(billing, "PROVISIONED") != 0 && strcmp(billing, "PAY_PER_REQUEST") != 0)
		hroe_api_invalid(psprintf("1 validation error detected: Value '%s' at 'billingMode' failed to satisfy constraint: Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]",
						 billing));
	if (!throughput && billing == NULL && nupdates == 0 && !stream)
		hroe_api_invalid("At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
	for (int i = 0; i < nupdates; i++)
	{
		bool		create = MemberObject(updates[i], "Create") != NULL;
		bool		delete = MemberObject(updates[i], "Delete") != NULL;

		if (!create && !delete && MemberObject(updates[i], "Update") == NULL)
			hroe_api_invalid("One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null");
		nonline += create + delete;
	}
	if (hroe_table_lookup(table, true) == NULL)
		hroe_ddb_error(ERRCODE_HROE_RESOURCE_NOT_FOUND, "ResourceNotFoundException",
					   psprintf("Requested resource not found: Table: %s not found", table));
	/* an hroe table is on demand: it has no throughput to provision */
	if (throughput || (billing && strcmp(billing, "PROVISIONED") == 0) || nupdates > nonline)
		hroe_ddb_error(ERRCODE_FEATURE_NOT_SUPPORTED, "ValidationException",
					   "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
	if (nonline > 1)
		hroe_ddb_error(ERRCODE_HROE_LIMIT_EXCEEDED, "LimitExceededException",
					   "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
	for (int i = 0; i < nupdates; i++)
	{
		JsonbContainer *c = MemberObject(updates[i], "Create");
		JsonbContainer *d = MemberObject(updates[i], "Delete");

		if (c)
			CreateGsi(table, c, defs, ndefs,
					  psprintf("globalSecondaryIndexUpdates.%d.member.create.projection", i + 1));
		else if (d)
		{
			char	   *iname = hroe_api_member_text(d, "IndexName", "IndexName");
			Datum		v[2];

			if (iname == NULL)
				hroe_api_missing(psprintf("globalSecondaryIndexUpdates.%d.member.delete.indexName", i + 1));
			v[0] = TextD(table);
			v[1] = TextD(iname);
			(void) RunStmt(STMT_DELETE_INDEX, v, "  ");
		}
	}
	if (stream)
		hroe_api_apply_stream(table, stream_enabled, view_type);
	appendStringInfo(out, ",\"TableDescription\":%s", TableDescription(table, NULL));
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
