/*-------------------------------------------------------------------------
 *
 * tables_policy.c
 *	  Resource-based policies enforced (policy.h): a request's action on a
 *	  table, an index or a stream is refused with DynamoDB's
 *	  AccessDeniedException when the resource's policy explicitly denies it
 *	  to the request's principal.
 *
 * The policies (hroe.resource_policies, policy.sql) are cached per backend:
 * every table that has one, with its documents parsed.  Any write of the
 * table fires a statement trigger (hroe.table_changed(), catalog.c) that
 * invalidates the table's relation cache entry, which every backend
 * receives at commit (and this one at once): the cache is then reloaded on
 * the next check.  A table without a policy costs one hash lookup, and no
 * lookup at all when no table has one.  The evaluation itself is
 * hroe.resource_policy_denies (policy.sql), called only for a table that
 * has a policy, once per principal, action and resource: its decision is
 * kept with the cache.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "catalog.h"
#include "policy.h"
#include "tables.h"

const char *hroe_policy_principal_name = NULL;

/* A StreamLabel (a time to the millisecond) is shorter */
#define HROE_STREAM_LABEL_MAX 64

/* One policy of a table: its own ('' label) or its stream's */
typedef struct PolicyEntry
{
	char		stream_label[HROE_STREAM_LABEL_MAX + 1];
	Jsonb	   *policy;
} PolicyEntry;

/* The policies of one table */
typedef struct TablePolicies
{
	char		table[HROE_TABLE_NAME_MAX + 1];	/* the hash key */
	int			n;
	PolicyEntry *entries;
} TablePolicies;

/*
 * A decision already made: whether the policies deny "principal action
 * resource" (the key).  The policies do not change until the cache is
 * reloaded, so neither do their decisions; at most DECISIONS_MAX are kept.
 */
#define DECISION_KEY_MAX 1024
#define DECISIONS_MAX 10000
typedef struct PolicyDecision
{
	char		key[DECISION_KEY_MAX];
	bool		denies;
} PolicyDecision;

static MemoryContext policy_cxt = NULL;
static HTAB *policy_tables = NULL;	/* NULL: no table has a policy */
static HTAB *policy_decisions = NULL;
static bool policy_valid = false;
static bool callback_registered = false;
static Oid	policy_relid = InvalidOid;
static Oid	policy_evaluator = InvalidOid;

/* hroe.resource_policies changed (or everything did): reload */
static void
PolicyCacheInvalidate(Datum arg, Oid relid)
{
	if (relid == InvalidOid || relid == policy_relid)
		policy_valid = false;
}

/* Load every policy into the cache */
static void
LoadPolicies(void)
{
	Oid			nsp = hroe_schema_oid();
	Oid			argtypes[4] = {JSONBOID, TEXTOID, TEXTOID, TEXTOID};
	MemoryContext old;
	volatile int ret;

	if (!callback_registered)
	{
		CacheRegisterRelcacheCallback(PolicyCacheInvalidate, (Datum) 0);
		callback_registered = true;
	}
	if (policy_cxt == NULL)
		policy_cxt = AllocSetContextCreate(CacheMemoryContext, "hroe resource policies",
										   ALLOCSET_SMALL_SIZES);
	MemoryContextReset(policy_cxt);
	policy_tables = NULL;
	policy_decisions = NULL;
	policy_evaluator = InvalidOid;
	/*
	 * Valid from here: an invalidation while loading reloads next time.
	 * Those already sent are taken first and the table is read with a
	 * snapshot taken after them: the statement's own snapshot, older, could
	 * miss a policy whose invalidation this backend took since.
	 */
	AcceptInvalidationMessages();
	policy_valid = true;
	policy_relid = OidIsValid(nsp) ? get_relname_relid("resource_policies", nsp) : InvalidOid;
	/* a catalog of a release before policies (not yet updated): none */
	if (!OidIsValid(policy_relid))
		return;
	policy_evaluator = LookupFuncName(list_make2(makeString("hroe"),
												 makeString("resource_policy_denies")),
									  4, argtypes, true);
	if (!OidIsValid(policy_evaluator))
		return;

	PG_TRY();
	{
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* (no name but the qualified relation's: nothing for a search_path to shadow) */
	{
		SPIPlanPtr	plan = SPI_prepare("SELECT table_name, stream_label, policy FROM hroe.resource_policies",
									   0, NULL);

		if (plan == NULL)
			elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
		ret = SPI_execute_snapshot(plan, NULL, NULL, GetLatestSnapshot(), InvalidSnapshot,
								   true, false, 0);
	}
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.resource_policies failed: %s", SPI_result_code_string(ret));
	if (SPI_processed > 0)
	{
		HASHCTL		ctl;
		TablePolicies *tp = NULL;

		old = MemoryContextSwitchTo(policy_cxt);
		ctl.keysize = HROE_TABLE_NAME_MAX + 1;
		ctl.entrysize = sizeof(TablePolicies);
		ctl.hcxt = policy_cxt;
		policy_tables = hash_create("hroe resource policies", 16, &ctl,
									HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		ctl.keysize = DECISION_KEY_MAX;
		ctl.entrysize = sizeof(PolicyDecision);
		policy_decisions = hash_create("hroe resource policy decisions", 64, &ctl,
									   HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
		for (uint64 i = 0; i < SPI_processed; i++)
		{
			HeapTuple	tup = SPI_tuptable->vals[i];
			TupleDesc	desc = SPI_tuptable->tupdesc;
			char	   *table = SPI_getvalue(tup, desc, 1);
			char	   *label = SPI_getvalue(tup, desc, 2);
			char	   *doc = SPI_getvalue(tup, desc, 3);
			bool		found;
			PolicyEntry *e;

			if (table == NULL || label == NULL || doc == NULL ||
				strlen(table) > HROE_TABLE_NAME_MAX || strlen(label) > HROE_STREAM_LABEL_MAX)
				continue;		/* (the table's constraints keep these out) */
			tp = hash_search(policy_tables, table, HASH_ENTER, &found);
			if (!found)
			{
				tp->n = 0;
				/* at most one policy for the table and one per stream label */
				tp->entries = palloc(sizeof(PolicyEntry) * (SPI_processed - i));
			}
			e = &tp->entries[tp->n++];
			strlcpy(e->stream_label, label, sizeof(e->stream_label));
			e->policy = DatumGetJsonbPCopy(DirectFunctionCall1(jsonb_in, CStringGetDatum(doc)));
		}
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	}
	PG_CATCH();
	{
		/* never half a cache: reloaded by the next check */
		policy_valid = false;
		policy_tables = NULL;
		policy_decisions = NULL;
		PG_RE_THROW();
	}
	PG_END_TRY();
}

/*
 * The resource's policy denies the action: DynamoDB's AccessDeniedException
 * (its text names the principal's and the resource's ARNs)
 */
void
hroe_policy_check(const char *action, const char *table, const char *index,
				  const char *stream_label)
{
	TablePolicies *tp;
	const char *principal_name;
	char	   *principal;
	char	   *resource;
	char	   *iam_action;
	char	   *key;
	PolicyDecision *decision;
	bool		denies;

	if (table == NULL || table[0] == '\0' || action == NULL)
		return;
	if (!policy_valid)
		LoadPolicies();
	if (policy_tables == NULL || strlen(table) > HROE_TABLE_NAME_MAX)
		return;
	tp = hash_search(policy_tables, table, HASH_FIND, NULL);
	if (tp == NULL)
		return;
	for (int i = 0; i < tp->n; i++)
	{
		PolicyEntry *e = &tp->entries[i];
		Jsonb	   *policy = e->policy;

		/* a stream's policy, or the table's for the table and its indexes */
		if (strcmp(e->stream_label, stream_label ? stream_label : "") != 0)
			continue;
		principal_name = hroe_policy_principal_name ? hroe_policy_principal_name
			: GetUserNameFromId(GetUserId(), false);
		principal = psprintf("arn:aws:iam::%s:user/%s", hroe_account_id, principal_name);
		resource = hroe_table_arn_cstring(table);
		if (stream_label)
			resource = psprintf("%s/stream/%s", resource, stream_label);
		else if (index)
			resource = psprintf("%s/index/%s", resource, index);
		iam_action = psprintf("dynamodb:%s", action);
		key = psprintf("%s %s %s", principal, iam_action, resource);
		decision = strlen(key) < DECISION_KEY_MAX && policy_decisions != NULL ?
			hash_search(policy_decisions, key, HASH_FIND, NULL) : NULL;
		if (decision != NULL)
			denies = decision->denies;
		else
		{
			denies = DatumGetBool(OidFunctionCall4(policy_evaluator, JsonbPGetDatum(policy),
												   CStringGetTextDatum(principal),
												   CStringGetTextDatum(iam_action),
												   CStringGetTextDatum(resource)));
			/* (kept only while the cache the decision came from is) */
			if (policy_valid && policy_decisions != NULL && strlen(key) < DECISION_KEY_MAX &&
				hash_get_num_entries(policy_decisions) < DECISIONS_MAX)
			{
				decision = hash_search(policy_decisions, key, HASH_ENTER, NULL);
				decision->denies = denies;
			}
		}
		if (denies)
			hroe_ddb_error(ERRCODE_HROE_POLICY_DENIED, "AccessDeniedException",
						   psprintf("User: %s is not authorized to perform: %s on resource: %s "
									"with an explicit deny in a resource-based policy",
									principal, iam_action, resource));
		return;
	}
}
