/*-------------------------------------------------------------------------
 *
 * catalog.c
 *	  hroe's own catalog objects by OID, invalidation-aware.
 *
 * One backend-lifetime cache of the OIDs every file needs (the hroe schema,
 * hroe.key, hroe.item).  Syscache callbacks on pg_namespace, pg_type and
 * pg_proc, registered once, forget a cached OID when its catalog entry
 * changes or goes (DROP EXTENSION hroe), and advance an epoch that the
 * other caches of extension objects compare against: the prepared function
 * calls of the JSON API (whose functions are watched) and the search path
 * of hroe's SPI statements.  A second counter advances when any function
 * changes, for caches of calls to functions that are not hroe's (the direct
 * writes' generated columns and CHECK constraints).
 *
 * Looking the OIDs up on every call instead costs two syscache probes per
 * call (get_namespace_oid + TYPENAMENSP) on paths that run once per item;
 * with the cache a call is a load and a compare.
 *
 * src/base/catalog.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

#include "catalog.h"

typedef struct CatalogCache
{
	bool		registered;		/* callbacks registered */
	Oid			schema;			/* hroe, or InvalidOid: not looked up */
	Oid			key;			/* hroe.key */
	Oid			item;			/* hroe.item */
	uint32		schema_hash;	/* syscache hash values of the above */
	uint32		key_hash;
	uint32		item_hash;
	uint64		epoch;			/* advanced on each reset */
	uint64		proc_changes;	/* advanced when any function changes */
	int			nprocs;			/* functions callers prepared: */
	uint32		proc_hash[HROE_CATALOG_MAX_PROCS];	/* their syscache hashes */
} CatalogCache;

static CatalogCache Cache;

/* Forget every cached OID, and the functions watched for the old epoch. */
static void
ResetCache(void)
{
	Cache.schema = Cache.key = Cache.item = InvalidOid;
	Cache.nprocs = 0;
	Cache.epoch++;
}

/*
 * Syscache callback: a pg_namespace, pg_type or pg_proc entry changed
 * (hashvalue 0: all of them).  Only the entries hroe cached or a caller
 * watches matter.
 */
static void
CatalogInvalidate(Datum arg, int cacheid, uint32 hashvalue)
{
	if (cacheid == PROCOID)
	{
		Cache.proc_changes++;
		for (int i = 0; i < Cache.nprocs; i++)
			if (hashvalue == 0 || hashvalue == Cache.proc_hash[i])
			{
				ResetCache();
				break;
			}
	}
	else if (hashvalue == 0)
		ResetCache();
	else if (cacheid == NAMESPACEOID)
	{
		if (OidIsValid(Cache.schema) && hashvalue == Cache.schema_hash)
			ResetCache();
	}
	else if ((OidIsValid(Cache.key) && hashvalue == Cache.key_hash) ||
			 (OidIsValid(Cache.item) && hashvalue == Cache.item_hash))
		ResetCache();
}

/* Register the callbacks, once per backend. */
static void
RegisterCallbacks(void)
{
	if (Cache.registered)
		return;
	CacheRegisterSyscacheCallback(NAMESPACEOID, CatalogInvalidate, (Datum) 0);
	CacheRegisterSyscacheCallback(TYPEOID, CatalogInvalidate, (Datum) 0);
	CacheRegisterSyscacheCallback(PROCOID, CatalogInvalidate, (Datum) 0);
	Cache.registered = true;
}

/* The OID of the hroe schema (an error if the extension is not installed) */
Oid
hroe_schema_oid(void)
{
	RegisterCallbacks();
	if (!OidIsValid(Cache.schema))
	{
		Oid			nsp = get_namespace_oid("hroe", false);

		Cache.schema_hash = GetSysCacheHashValue1(NAMESPACEOID, ObjectIdGetDatum(nsp));
		Cache.schema = nsp;
	}
	return Cache.schema;
}

/* The OID of type hroe.<name>, caching it in *oid and its hash in *hash */
static Oid
TypeOid(const char *name, Oid *oid, uint32 *hash)
{
	if (!OidIsValid(*oid))
	{
		Oid			nsp = hroe_schema_oid();
		Oid			typid = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
											CStringGetDatum(name),
											ObjectIdGetDatum(nsp));

		if (!OidIsValid(typid))
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("type hroe.%s does not exist", name)));
		*hash = GetSysCacheHashValue1(TYPEOID, ObjectIdGetDatum(typid));
		*oid = typid;
	}
	return *oid;
}

/* The OID of type hroe.key */
Oid
hroe_key_typid(void)
{
	return TypeOid("key", &Cache.key, &Cache.key_hash);
}

/* The OID of type hroe.item */
Oid
hroe_item_typid(void)
{
	return TypeOid("item", &Cache.item, &Cache.item_hash);
}

/*
 * Watch function fn, which a caller prepared (an FmgrInfo): the epoch
 * advances when it changes or goes.
 */
void
hroe_catalog_watch_proc(Oid fn)
{
	uint32		hash = GetSysCacheHashValue1(PROCOID, ObjectIdGetDatum(fn));

	RegisterCallbacks();
	for (int i = 0; i < Cache.nprocs; i++)
		if (Cache.proc_hash[i] == hash)
			return;
	if (Cache.nprocs == HROE_CATALOG_MAX_PROCS)
		elog(ERROR, "hroe watches at most %d functions", HROE_CATALOG_MAX_PROCS);
	Cache.proc_hash[Cache.nprocs++] = hash;
}

/*
 * The current epoch: a cache of extension objects built in an earlier epoch
 * may name dropped ones.  Registers the callbacks, so the epoch a caller
 * remembers is always watched.
 */
uint64
hroe_catalog_epoch(void)
{
	RegisterCallbacks();
	return Cache.epoch;
}

/*
 * A count of the changes of any function (pg_proc entry) seen by this
 * backend: a cache of calls built under another count may call a function
 * whose definition (strictness, volatility, body) has changed since.
 */
uint64
hroe_catalog_proc_changes(void)
{
	RegisterCallbacks();
	return Cache.proc_changes;
}

/*
 * The owner of the extension's relation hroe.<relname> (the extension's
 * owner): the role its private tables are read and written as
 */
Oid
hroe_relation_owner(const char *relname)
{
	Oid			rel = get_relname_relid(relname, hroe_schema_oid());
	HeapTuple	tp;
	Oid			owner;

	if (!OidIsValid(rel))
		elog(ERROR, "hroe.%s does not exist", relname);
	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(rel));
	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for relation %u", rel);
	owner = ((Form_pg_class) GETSTRUCT(tp))->relowner;
	ReleaseSysCache(tp);
	return owner;
}

/* The owner of relation relid (an error if there is none) */
Oid
hroe_rel_owner(Oid relid)
{
	HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
	Oid			owner;

	if (!HeapTupleIsValid(tp))
		elog(ERROR, "cache lookup failed for relation %u", relid);
	owner = ((Form_pg_class) GETSTRUCT(tp))->relowner;
	ReleaseSysCache(tp);
	return owner;
}

/*
 * Pin search_path to pg_catalog, pg_temp (the GUC: functions of other roles
 * that operators, triggers or defaults call read it, not an override search
 * path) until hroe_unpin_search_path(the level returned), or the
 * (sub)transaction's abort, as PostgreSQL 17's RestrictSearchPath does for
 * maintenance commands.  Returns 0, and sets nothing, when the path is that
 * already (the SQL functions of hroe pin it themselves).
 */
int
hroe_pin_search_path(void)
{
	int			nestlevel;

	if (namespace_search_path != NULL &&
		strcmp(namespace_search_path, HROE_PINNED_SEARCH_PATH) == 0)
		return 0;
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("search_path", HROE_PINNED_SEARCH_PATH, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

/* Undo hroe_pin_search_path (not on error: the abort undoes it) */
void
hroe_unpin_search_path(int nestlevel)
{
	if (nestlevel > 0)
		AtEOXact_GUC(true, nestlevel);
}

/*
 * Run what follows with role's privileges, as PostgreSQL's maintenance
 * commands run as a table's owner (vacuum_rel, index_build): in a
 * security-restricted operation (no SET ROLE, no temporary objects, no
 * PREPARE, no deferred work outliving it), with search_path pinned
 * (hroe_pin_search_path), until hroe_unbecome(saved), or, in a PG_CATCH
 * before the error is thrown on, hroe_unbecome_on_error(saved).
 */
void
hroe_become(Oid role, HroeIdentity *saved)
{
	GetUserIdAndSecContext(&saved->save_user, &saved->save_sec);
	saved->nestlevel = hroe_pin_search_path();
	SetUserIdAndSecContext(role, saved->save_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

/* Undo hroe_become */
void
hroe_unbecome(const HroeIdentity *saved)
{
	hroe_unpin_search_path(saved->nestlevel);
	SetUserIdAndSecContext(saved->save_user, saved->save_sec);
}

/*
 * Undo hroe_become while an error is thrown (the (sub)transaction's abort
 * would too, but a caller may catch the error without one)
 */
void
hroe_unbecome_on_error(const HroeIdentity *saved)
{
	if (saved->nestlevel > 0)
		AtEOXact_GUC(false, saved->nestlevel);
	SetUserIdAndSecContext(saved->save_user, saved->save_sec);
}

PG_FUNCTION_INFO_V1(hroe_table_changed);
/*
 * hroe.table_changed(): the statement trigger of the extension's tables that
 * backends cache (hroe.resource_policies, hroe.access_keys).  It
 * invalidates the table's relation cache entry: every backend receives that
 * at the start of its next transaction once this one commits (this backend
 * at the end of the command, and again if the transaction aborts), and its
 * relation cache callback forgets what it read from the table.
 */
Datum
hroe_table_changed(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				(errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				 errmsg("hroe.table_changed() must be called as a trigger")));
	CacheInvalidateRelcache(trigdata->tg_relation);
	return PointerGetDatum(NULL);
}
