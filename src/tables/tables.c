/*-------------------------------------------------------------------------
 *
 * tables.c
 *	  DynamoDB tables on PostgreSQL storage: the metadata cache with each
 *	  table's prepared plans, the search path of hroe's statements, the
 *	  primary key index, item key identities and their advisory locks,
 *	  table sizes.  The key columns, key checks and index entries are in
 *	  tables_keys.c, capacity units in capacity.c.
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
#include "catalog/pg_class.h"
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
#include "contributor_insights.h"
#include "tables.h"

#define TABLE_NAME_KEYLEN 256

typedef struct TableCacheEntry
{
	char		name[TABLE_NAME_KEYLEN];
	HroeTableMeta *meta;
} TableCacheEntry;

static HTAB *TableCache = NULL;
static SPIPlanPtr TableQueryPlan = NULL;
static SPIPlanPtr IndexQueryPlan = NULL;


/* Relcache invalidation: forget the metadata of the table concerned. */
static void
TableCacheInvalidate(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	TableCacheEntry *e;

	if (TableCache == NULL)
		return;
	hash_seq_init(&status, TableCache);
	while ((e = hash_seq_search(&status)) != NULL)
		if (e->meta && (relid == InvalidOid || e->meta->relid == relid))
			e->meta->valid = false;
}

/* Free a stale metadata entry and its prepared plans. */
static void
FreeTableMeta(HroeTableMeta *m)
{
	for (HroePlan *p = m->plans; p; p = p->next)
		SPI_freeplan(p->plan);
	MemoryContextDelete(m->cxt);
}

/*
 * Stale metadata replaced during a transaction: a caller earlier in the
 * same statement (a TransactWriteItems action, a plan still executing) may
 * still hold it, so it is freed only when the transaction ends.
 */
static List *RetiredMetas = NIL;

/* Free the metadata retired during the transaction that ends. */
static void
FreeRetiredMetas(XactEvent event, void *arg)
{
	ListCell   *lc;

	if (event != XACT_EVENT_COMMIT && event != XACT_EVENT_ABORT &&
		event != XACT_EVENT_PARALLEL_COMMIT && event != XACT_EVENT_PARALLEL_ABORT &&
		event != XACT_EVENT_PREPARE)
		return;
	foreach(lc, RetiredMetas)
		FreeTableMeta((HroeTableMeta *) lfirst(lc));
	list_free(RetiredMetas);
	RetiredMetas = NIL;
}

/* Retire replaced metadata until the end of the transaction. */
static void
RetireTableMeta(HroeTableMeta *m)
{
	MemoryContext old = MemoryContextSwitchTo(CacheMemoryContext);

	RetiredMetas = lappend(RetiredMetas, m);
	MemoryContextSwitchTo(old);
}

/* text[] Datum to a palloc'd C string array */
static char **
TextArray(Datum d, int *n)
{
	ArrayType  *arr = DatumGetArrayTypeP(d);
	Datum	   *elems;
	bool	   *nulls;
	char	  **out;

	deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT, &elems, &nulls, n);
	out = palloc(sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
		out[i] = nulls[i] ? pstrdup("") : TextDatumGetCString(elems[i]);
	return out;
}

/* Column value of the current SPI row as a C string (NULL if SQL NULL) */
static char *
SpiText(int row, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}

/* Column value of the current SPI row as a Datum */
static Datum
SpiDatum(int row, int col, bool *isnull)
{
	return SPI_getbinval(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col, isnull);
}

static HroeTableMeta *LoadTableMetaSPI(const char *name);

/* Read a table's metadata from hroe.tables/hroe.indexes. */
static HroeTableMeta *
LoadTableMeta(const char *name)
{
	HroeTableMeta *m;

	/* a level of its own: callers need not be connected to SPI */
	SPI_connect();
	m = LoadTableMetaSPI(name);
	SPI_finish();
	return m;
}

/* LoadTableMeta, connected */
static HroeTableMeta *
LoadTableMetaSPI(const char *name)
{
	Datum		arg = CStringGetTextDatum(name);
	Oid			argtype = TEXTOID;
	HroeTableMeta *m;
	MemoryContext cxt,
				old;
	int			ret;
	char	   *sk;

	if (TableQueryPlan == NULL)
	{
		TableQueryPlan = SPI_prepare(
			"SELECT t.relid::pg_catalog.oid, t.partition_key, t.partition_key_type, "
			"t.sort_key, t.sort_key_type, "
			"pg_catalog.format('%I.%I', n.nspname, c.relname) "
			"FROM hroe.tables t "
			"JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.relid::pg_catalog.oid "
			"JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace "
			"WHERE t.table_name OPERATOR(pg_catalog.=) $1", 1, &argtype);
		if (TableQueryPlan == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(TableQueryPlan);
		IndexQueryPlan = SPI_prepare(
			"SELECT x.index_name, i.oid, x.partition_key, x.partition_key_types, "
			"x.partition_key_columns::pg_catalog.text[], x.sort_key, x.sort_key_types, "
			"x.sort_key_columns::pg_catalog.text[], x.projection, x.non_key_attributes, "
			"x.index_relname, "
			/* (0.1's hroe.indexes has no column local: no LSIs) */
			"COALESCE((pg_catalog.to_jsonb(x) OPERATOR(pg_catalog.->>) 'local')::pg_catalog.bool, false) "
			"FROM hroe.indexes x "
			"JOIN hroe.tables t ON t.table_name OPERATOR(pg_catalog.=) x.table_name "
			"JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.relid::pg_catalog.oid "
			"LEFT JOIN pg_catalog.pg_class i ON i.relname OPERATOR(pg_catalog.=) x.index_relname "
			"AND i.relnamespace OPERATOR(pg_catalog.=) c.relnamespace "
			/* (a distributed table's index is a partitioned index) */
			"AND i.relkind OPERATOR(pg_catalog.=) ANY ('{i,I}'::pg_catalog.\"char\"[]) "
			"WHERE x.table_name OPERATOR(pg_catalog.=) $1 "
			"ORDER BY x.index_name", 1, &argtype);
		if (IndexQueryPlan == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		SPI_keepplan(IndexQueryPlan);
	}
	ret = SPI_execute_plan(TableQueryPlan, &arg, NULL, true, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.tables failed: %s", SPI_result_code_string(ret));
	if (SPI_processed == 0)
		return NULL;

	/* under the caller's context until complete, so an error frees it */
	cxt = AllocSetContextCreate(CurrentMemoryContext, "hroe table metadata",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	m = palloc0(sizeof(HroeTableMeta));
	m->cxt = cxt;
	m->name = pstrdup(name);
	m->relid = (Oid) strtoul(SpiText(0, 1), NULL, 10);
	m->schema.nhash = 1;
	m->schema.names[0] = pstrdup(SpiText(0, 2));
	m->schema.types[0] = SpiText(0, 3)[0];
	sk = SpiText(0, 4);
	if (sk)
	{
		m->schema.nrange = 1;
		m->schema.names[1] = pstrdup(sk);
		m->schema.types[1] = SpiText(0, 5)[0];
	}
	m->relname = pstrdup(SpiText(0, 6));
	m->distributed = get_rel_relkind(m->relid) == RELKIND_PARTITIONED_TABLE;
	MemoryContextSwitchTo(old);

	ret = SPI_execute_plan(IndexQueryPlan, &arg, NULL, true, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.indexes failed: %s", SPI_result_code_string(ret));
	/* an index is registered by name: if it was dropped, fail here */
	for (uint64 i = 0; i < SPI_processed; i++)
		if (SpiText(i, 2) == NULL)
		{
			MemoryContextDelete(cxt);
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("index \"%s\" of DynamoDB table \"%s\" does not exist",
							SpiText(i, 11), name),
					 errdetail("hroe.indexes registers GSI %s under that PostgreSQL index name.",
							   SpiText(i, 1)),
					 errhint("Recreate the index, or delete the GSI with hroe.delete_index.")));
		}
	old = MemoryContextSwitchTo(cxt);
	m->nindexes = SPI_processed;
	m->indexes = palloc0(sizeof(HroeIndexMeta) * Max(m->nindexes, 1));
	for (int i = 0; i < m->nindexes; i++)
	{
		HroeIndexMeta *ix = &m->indexes[i];
		bool		isnull;
		int			n1,
					n2,
					n3,
					n4,
					n5,
					n6;
		char	  **pk = TextArray(SpiDatum(i, 3, &isnull), &n1);
		char	  **pkt = TextArray(SpiDatum(i, 4, &isnull), &n2);
		char	  **pkc = TextArray(SpiDatum(i, 5, &isnull), &n3);
		char	  **sk2 = TextArray(SpiDatum(i, 6, &isnull), &n4);
		char	  **skt = TextArray(SpiDatum(i, 7, &isnull), &n5);
		char	  **skc = TextArray(SpiDatum(i, 8, &isnull), &n6);
		char	   *proj = SpiText(i, 9);

		ix->name = pstrdup(SpiText(i, 1));
		ix->indexrelid = (Oid) strtoul(SpiText(i, 2), NULL, 10);
		if (n1 < 1 || n1 > 4 || n4 > 4 || n1 != n2 || n1 != n3 || n4 != n5 || n4 != n6)
			elog(ERROR, "hroe.indexes row for %s.%s is inconsistent", name, ix->name);
		ix->schema.nhash = n1;
		ix->schema.nrange = n4;
		for (int k = 0; k < n1; k++)
		{
			ix->schema.names[k] = pk[k];
			ix->schema.types[k] = pkt[k][0];
			ix->columns[k] = pkc[k];
		}
		for (int k = 0; k < n4; k++)
		{
			ix->schema.names[n1 + k] = sk2[k];
			ix->schema.types[n1 + k] = skt[k][0];
			ix->columns[n1 + k] = skc[k];
		}
		ix->projection = strcmp(proj, "ALL") == 0 ? HROE_PROJECT_ALL :
			strcmp(proj, "KEYS_ONLY") == 0 ? HROE_PROJECT_KEYS_ONLY : HROE_PROJECT_INCLUDE;
		ix->nonkey = TextArray(SpiDatum(i, 10, &isnull), &ix->nnonkey);
		ix->local = DatumGetBool(SpiDatum(i, 12, &isnull));
	}
	MemoryContextSwitchTo(old);
	if (m->nindexes > 0)
	{
		Relation	rel = table_open(m->relid, AccessShareLock);

		for (int i = 0; i < m->nindexes; i++)
		{
			HroeIndexMeta *ix = &m->indexes[i];

			for (int k = 0; k < ix->schema.nhash; k++)
				ix->forms[k] = hroe_column_holds_forms(rel, get_attnum(m->relid, ix->columns[k]));
		}
		table_close(rel, NoLock);
	}
	hroe_contributor_insights_load(m);
	MemoryContextSetParent(cxt, CacheMemoryContext);
	m->valid = true;
	return m;
}

/*
 * The metadata of a DynamoDB table; NULL if there is no such table and
 * missing_ok, else ResourceNotFoundException.
 */
HroeTableMeta *
hroe_table_lookup(const char *name, bool missing_ok)
{
	TableCacheEntry *e;
	bool		found;
	HroeTableMeta *m;

	if (strlen(name) >= TABLE_NAME_KEYLEN)
	{
		if (missing_ok)
			return NULL;
		HroeResourceNotFound();
	}
	if (TableCache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = TABLE_NAME_KEYLEN;
		ctl.entrysize = sizeof(TableCacheEntry);
		ctl.hcxt = CacheMemoryContext;
		TableCache = hash_create("hroe tables", 16, &ctl,
								 HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		CacheRegisterRelcacheCallback(TableCacheInvalidate, (Datum) 0);
		RegisterXactCallback(FreeRetiredMetas, NULL);
	}
	e = hash_search(TableCache, name, HASH_ENTER, &found);
	if (!found)
		e->meta = NULL;
	if (e->meta && !e->meta->valid)
	{
		RetireTableMeta(e->meta);
		e->meta = NULL;
	}
	if (e->meta == NULL)
	{
		m = LoadTableMeta(name);
		/* the entry may have moved while SPI ran: look it up again */
		e = hash_search(TableCache, name, HASH_ENTER, &found);
		if (found && e->meta)
			RetireTableMeta(e->meta);
		e->meta = m;
	}
	if (e->meta == NULL)
	{
		hash_search(TableCache, name, HASH_REMOVE, NULL);
		if (missing_ok)
			return NULL;
		HroeResourceNotFound();
	}
	return e->meta;
}

/* A table's GSI by name, or NULL */
HroeIndexMeta *
hroe_index_lookup(HroeTableMeta *t, const char *name)
{
	for (int i = 0; i < t->nindexes; i++)
		if (strcmp(t->indexes[i].name, name) == 0)
			return &t->indexes[i];
	return NULL;
}

/*
 * hroe's statements are parsed, and re-parsed by the plan cache, under the
 * search path pg_catalog, hroe (no temporary schema): hroe.key's operators
 * live in schema hroe, the others in pg_catalog, and a row comparison's
 * operator cannot be schema-qualified per column.  Relations are always
 * qualified.  The plan cache re-parses a plan whenever the active search
 * path differs from the one it was parsed under, so every execution of a
 * hroe plan pushes the same path.
 */
void
hroe_push_search_path(void)
{
	static OverrideSearchPath *path = NULL;
	static uint64 epoch;

	/* rebuilt when the hroe schema may have been dropped and recreated */
	if (path == NULL || epoch != hroe_catalog_epoch())
	{
		Oid			nsp = hroe_schema_oid();
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);
		OverrideSearchPath *p = palloc0(sizeof(OverrideSearchPath));

		p->schemas = list_make2_oid(PG_CATALOG_NAMESPACE, nsp);
		p->addCatalog = false;
		p->addTemp = false;
		MemoryContextSwitchTo(old);
		if (path)
		{
			list_free(path->schemas);
			pfree(path);
		}
		path = p;
		epoch = hroe_catalog_epoch();
	}
	PushOverrideSearchPath(path);
}

/* Undo hroe_push_search_path */
void
hroe_pop_search_path(void)
{
	PopOverrideSearchPath();
}

/*
 * Plan a statement once, generically, as an index range scan in index order:
 * the statement shapes are built for the table's and GSIs' btree indexes, and
 * a small or freshly loaded table must not turn a Query into a sequential
 * scan and a sort.  The generic plan is then reused by every execution.
 */
static void
BuildGenericPlan(SPIPlanPtr plan)
{
	int			nestlevel = NewGUCNestLevel();
	CachedPlan *cplan;

	(void) set_config_option("enable_seqscan", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("enable_bitmapscan", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	(void) set_config_option("enable_sort", "off", PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	cplan = SPI_plan_get_cached_plan(plan);
	if (cplan)
		ReleaseCachedPlan(cplan, CurrentResourceOwner);
	AtEOXact_GUC(true, nestlevel);
}

/* The prepared plan of a statement shape, or NULL if not prepared yet */
SPIPlanPtr
hroe_table_plan_find(HroeTableMeta *t, const char *shape)
{
	for (HroePlan *p = t->plans; p; p = p->next)
		if (strcmp(p->shape, shape) == 0)
			return p->plan;
	return NULL;
}

/*
 * A prepared plan for one statement shape on a table, prepared on first use;
 * custom: planned for its parameters at each execution, else generic.
 */
static SPIPlanPtr
TablePlan(HroeTableMeta *t, const char *shape, const char *sql,
		  int nargs, Oid *argtypes, bool custom)
{
	HroePlan   *p;
	SPIPlanPtr	plan;

	for (p = t->plans; p; p = p->next)
		if (strcmp(p->shape, shape) == 0)
			return p->plan;
	hroe_push_search_path();

	/*
	 * A distributed table's statements naming the table (custom) are planned
	 * for their parameters each time: the plan then holds the one partition of the key (pruned
	 * while planning), where a generic plan's UPDATE or DELETE would open a
	 * connection to every partition's server (PostgreSQL 15 initializes
	 * every result relation of a ModifyTable, pruned or not)
	 */
	plan = SPI_prepare_cursor(sql, nargs, argtypes,
							  custom ? CURSOR_OPT_CUSTOM_PLAN : CURSOR_OPT_GENERIC_PLAN);
	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql,
			 SPI_result_code_string(SPI_result));
	SPI_keepplan(plan);
	if (!custom)
		BuildGenericPlan(plan);
	hroe_pop_search_path();
	p = MemoryContextAlloc(t->cxt, sizeof(HroePlan));
	p->shape = MemoryContextStrdup(t->cxt, shape);
	p->plan = plan;
	p->next = t->plans;
	t->plans = p;
	return plan;
}

/*
 * A prepared plan for one statement shape on a table: generic, except a
 * distributed table's (see TablePlan's comment above)
 */
SPIPlanPtr
hroe_table_plan(HroeTableMeta *t, const char *shape, const char *sql,
				int nargs, Oid *argtypes)
{
	return TablePlan(t, shape, sql, nargs, argtypes, t->distributed);
}

/*
 * A prepared generic plan for a statement on a distributed table's
 * partitions named directly (hroe_table_read_partitions), which need no
 * pruning: planned once, like a local table's
 */
SPIPlanPtr
hroe_table_plan_partitions(HroeTableMeta *t, const char *shape, const char *sql,
						   int nargs, Oid *argtypes)
{
	return TablePlan(t, shape, sql, nargs, argtypes, false);
}


/* Push an object key into a jsonb being built */
void
hroe_jsonb_push_key(JsonbParseState **st, const char *key)
{
	JsonbValue	k;

	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	pushJsonbValue(st, WJB_KEY, &k);
}

PG_FUNCTION_INFO_V1(hroe_index_entry_size_sql);
/* SQL: hroe.index_entry_size(item, table, index): size of the entry, or NULL */
Datum
hroe_index_entry_size_sql(PG_FUNCTION_ARGS)
{
	HroeItem   *item = PG_GETARG_HROE_ITEM_P(0);
	char	   *table = text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *index = text_to_cstring(PG_GETARG_TEXT_PP(2));
	HroeTableMeta *t;
	HroeIndexMeta *ix;
	bool		present;
	int64		size;

	SPI_connect();
	t = hroe_table_lookup(table, false);
	ix = hroe_index_lookup(t, index);
	if (ix == NULL)
		HroeValidation(psprintf("The table does not have the specified index: %s", index));
	size = hroe_index_entry_size(t, ix, item, &present);
	SPI_finish();
	if (!present)
		PG_RETURN_NULL();
	PG_RETURN_INT64(size);
}

PG_FUNCTION_INFO_V1(hroe_table_sizes);
/*
 * SQL: hroe.table_sizes(table): the item count and DynamoDB size of the
 * table and of each GSI's entries, in one pass over the table (DescribeTable)
 */
Datum
hroe_table_sizes(PG_FUNCTION_ARGS)
{
	char	   *table = text_to_cstring(PG_GETARG_TEXT_PP(0));
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HroeTableMeta *t;
	int64	   *counts;
	int64	   *sizes;
	char	  **names;
	int			n;
	Portal		portal;
	MemoryContext rowcxt;

	InitMaterializedSRF(fcinfo, 0);
	SPI_connect();
	t = hroe_table_lookup(table, false);
	/* [0]: the table, [1 + i]: index i */
	n = t->nindexes + 1;
	counts = palloc0(sizeof(int64) * n);
	sizes = palloc0(sizeof(int64) * n);
	names = palloc(sizeof(char *) * n);
	names[0] = NULL;
	for (int i = 0; i < t->nindexes; i++)
		names[i + 1] = pstrdup(t->indexes[i].name);
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe table sizes",
								   ALLOCSET_DEFAULT_SIZES);
	portal = SPI_cursor_open_with_args(NULL, psprintf("SELECT item FROM %s", t->relname),
									   0, NULL, NULL, NULL, true, 0);
	for (;;)
	{
		SPI_cursor_fetch(portal, true, 1000);
		if (SPI_processed == 0)
			break;
		for (uint64 r = 0; r < SPI_processed; r++)
		{
			MemoryContext old = MemoryContextSwitchTo(rowcxt);
			bool		isnull;
			Datum		d = SPI_getbinval(SPI_tuptable->vals[r], SPI_tuptable->tupdesc, 1, &isnull);
			HroeItem   *item;

			/* (the item column is NOT NULL) */
			if (!isnull)
			{
				item = DatumGetHroeItemP(d);
				counts[0]++;
				sizes[0] += hroe_item_size(item);
				for (int i = 0; i < t->nindexes; i++)
				{
					bool		present;
					int64		size = hroe_index_entry_size(t, &t->indexes[i], item, &present);

					if (present)
					{
						counts[i + 1]++;
						sizes[i + 1] += size;
					}
				}
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(rowcxt);
		}
		SPI_freetuptable(SPI_tuptable);
		CHECK_FOR_INTERRUPTS();
	}
	SPI_cursor_close(portal);
	for (int i = 0; i < n; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {names[i] == NULL, false, false};

		values[0] = names[i] ? CStringGetTextDatum(names[i]) : (Datum) 0;
		values[1] = Int64GetDatum(counts[i]);
		values[2] = Int64GetDatum(sizes[i]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	SPI_finish();
	return (Datum) 0;
}

/* Identity of an item's key: the table, then each key value as JSON */
char *
hroe_item_key_identity(HroeTableMeta *t, const HroeItem *item)
{
	StringInfoData buf;
	HroeValue	root;
	int			n = t->schema.nhash + t->schema.nrange;

	initStringInfo(&buf);
	hroe_json_string_write(&buf, t->name, strlen(t->name));
	hroe_item_root(item, &root);
	for (int i = 0; i < n; i++)
	{
		HroeValue	v;

		appendStringInfoChar(&buf, ',');
		if (hroe_map_find(&root, t->schema.names[i], strlen(t->schema.names[i]), &v))
			hroe_value_write(&buf, &v);
	}
	return buf.data;
}

/*
 * The canonical order in which writes of several items take their locks
 * (TransactWriteItems, TransactGetItems, BatchWriteItem): by key identity,
 * bytewise.  Writers that lock rows, and insert absent items, in one order
 * cannot wait for each other in a cycle.
 */
int
hroe_key_identity_cmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

/*
 * Lock an item's key (absent or present) until the end of the transaction:
 * an advisory lock on the hash of its identity in hroe's lock space
 * (database, relation, key hash, 0x4852).  Conditional writes take it
 * before they evaluate their condition, so two of them on one key are
 * serialized even while the item is absent.  Plain writes do not take it (a
 * transaction may write any number of items): a conditional write whose
 * insert meets an item inserted since evaluates its condition again.
 */
void
hroe_lock_item_key(HroeTableMeta *t, const char *identity)
{
	LOCKTAG		tag;
	uint32		h = hash_bytes((const unsigned char *) identity, strlen(identity));

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, t->relid, h, 0x4852);
	(void) LockAcquire(&tag, ExclusiveLock, false, false);
}

/*
 * The primary key index of t's relation rel, opened with lockmode; the first
 * call sets up t's equality procedures and item column for the direct probes
 */
Relation
hroe_pkey_index_open(HroeTableMeta *t, Relation rel, LOCKMODE lockmode)
{
	int			nkeys = t->schema.nhash + t->schema.nrange;
	Oid			pkey;
	Relation	idx;

	if (OidIsValid(t->pkey_index))
		return index_open(t->pkey_index, lockmode);
	pkey = RelationGetPrimaryKeyIndex(rel);
	if (!OidIsValid(pkey))
		elog(ERROR, "table %s has no primary key", t->relname);
	idx = index_open(pkey, lockmode);
	for (int i = 0; i < nkeys; i++)
	{
		Oid			op = get_opfamily_member(idx->rd_opfamily[i], idx->rd_opcintype[i],
											 idx->rd_opcintype[i], BTEqualStrategyNumber);

		if (!OidIsValid(op))
			elog(ERROR, "no equality operator for key column %d of %s", i + 1, t->relname);
		t->eqproc[i] = get_opcode(op);
	}
	t->item_attno = get_attnum(t->relid, "item");
	if (t->item_attno == InvalidAttrNumber)
		elog(ERROR, "table %s has no item column", t->relname);
	t->pkey_index = pkey;
	return idx;
}

/* Equality scan keys on every column of t's primary key index idx */
void
hroe_pkey_scankeys(HroeTableMeta *t, Relation idx, Datum *keys, ScanKey skey)
{
	for (int i = 0; i < t->schema.nhash + t->schema.nrange; i++)
		ScanKeyEntryInitialize(&skey[i], 0, i + 1, BTEqualStrategyNumber,
							   idx->rd_opcintype[i], idx->rd_indcollation[i],
							   t->eqproc[i], keys[i]);
}
