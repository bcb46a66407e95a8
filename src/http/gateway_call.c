/*-------------------------------------------------------------------------
 *
 * gateway_call.c
 *	  hroe.gateway_call(access_key_id, operation, request): one request of
 *	  hroe-gateway, run as the PostgreSQL role of its access key.
 *
 * The key is read from hroe.access_keys as the caller (the gateway's login
 * role: SELECT on the table, or on the columns read, is checked on every
 * call; the function is not SECURITY DEFINER), from the backend's cache of
 * the keys it read until the table changes (KeyEntry, below), else by an
 * index probe.  The probe is not a query, so it would not apply row-level
 * security: the table has none, and a key whose table has it enabled is
 * refused rather than read past its policies.  The
 * role switch is SET ROLE for the call, through the GUC machinery as
 * set_config('role', ...) does it: PostgreSQL checks that the caller is a
 * member of the role, and the setting is rolled back when the call returns
 * or fails, so no later statement on the pooled connection runs as this
 * role.  The call runs in a local user id change and a security-restricted
 * operation, and every setting it changed is rolled back with the role
 * (hroe_gateway_run), so no code of the key's role can switch back to the
 * login role, on to another key's, or leave a trap (a search_path, a
 * deferred trigger) for what runs after it.  Then the JSON API is called
 * directly over the body's text (U+0000 allowed in strings), and the
 * response comes back as text.  This replaces a PL/pgSQL function whose
 * lookup, role switch and call cost some 35 us of a GetItem's ~45.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "catalog/namespace.h"
#include "catalog/pg_collation.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"

#include "api_internal.h"
#include "ddb_types.h"
#include "catalog.h"
#include "policy.h"
#include "request.h"
#include "transfer.h"
#include "http_server.h"

/* hroe.access_keys's columns */
#define AK_ID		1
#define AK_SECRET	2
#define AK_ROLE		3
#define AK_REVOKED	5
/* principal_name: by name, absent from a catalog of 0.2 not yet updated */

/* the table's CHECK constraints bound these (the principal name is ASCII) */
#define AK_PRINCIPAL_MAX 64
/* keys kept at most; one more empties the cache */
#define KEY_CACHE_MAX	1024

/*
 * The active keys this backend has read, until hroe.access_keys changes.
 * Every write of the table (a key created or revoked, a secret or role
 * changed, a row deleted, TRUNCATE) fires its statement trigger
 * hroe.table_changed(), which invalidates the table's relation cache entry;
 * every backend receives that at the start of its next transaction (this one
 * at the end of the command, and again if its transaction aborts), and
 * KeysInvalidate empties the cache.  A revocation therefore takes effect
 * with the next request that starts after it commits, as when every request
 * read the table, and a request costs a hash lookup instead of an index
 * probe of the table (14,000 instructions, 7 % of a GetItem's: make bench
 * BENCH=profile).  Unknown and
 * revoked keys are not kept.
 */
typedef struct KeyEntry
{
	char		key_id[ACCESS_KEY_ID_MAX + 1];	/* the hash key */
	Oid			role;
	bool		has_principal;
	char		secret[ACCESS_KEY_SECRET_MAX + 1];
	char		principal[AK_PRINCIPAL_MAX + 1];
} KeyEntry;

static HTAB *key_cache = NULL;
static Oid	keys_relid = InvalidOid;	/* hroe.access_keys, once looked up */
static Oid	keys_index = InvalidOid;	/* its primary key */
static AttrNumber keys_principal = InvalidAttrNumber;	/* principal_name (none in 0.2) */
static uint64 key_cache_generation = 0; /* advanced by every invalidation */
static bool key_callback_registered = false;

/* Empty the cache, wiping its secrets */
static void
KeysForget(void)
{
	HASH_SEQ_STATUS seq;
	KeyEntry   *e;

	if (key_cache == NULL)
		return;
	hash_seq_init(&seq, key_cache);
	while ((e = hash_seq_search(&seq)) != NULL)
		explicit_bzero(e->secret, sizeof(e->secret));
	hash_destroy(key_cache);
	key_cache = NULL;
}

/* Relation cache callback: hroe.access_keys changed, or everything did */
static void
KeysInvalidate(Datum arg, Oid relid)
{
	if (relid == InvalidOid || relid == keys_relid)
	{
		key_cache_generation++;
		KeysForget();
		/* looked up again: the table may have been dropped, or renamed */
		keys_relid = keys_index = InvalidOid;
		keys_principal = InvalidAttrNumber;
	}
}

/*
 * Read the active key key_id from hroe.access_keys into e (false: unknown
 * or revoked), with a snapshot taken now: the table's rows as of the latest
 * commit.  The caller's privileges are checked by LookupKey.
 */
static bool
FetchKey(Oid relid, Oid index, AttrNumber ak_principal, text *key_id, KeyEntry *e)
{
	Relation	rel;
	ScanKeyData sk;
	SysScanDesc scan;
	HeapTuple	tup;
	Snapshot	snapshot;
	bool		found = false;

	rel = table_open(relid, AccessShareLock);
	if (rel->rd_rel->relrowsecurity)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hroe does not read hroe.access_keys under row-level security"),
				 errhint("Disable row-level security on hroe.access_keys; grant SELECT on it to the gateway's login role only.")));
	/* in the column's collation, the index's (ScanKeyInit would use "C") */
	ScanKeyEntryInitialize(&sk, 0, AK_ID, BTEqualStrategyNumber, InvalidOid,
						   DEFAULT_COLLATION_OID, F_TEXTEQ, PointerGetDatum(key_id));
	snapshot = RegisterSnapshot(GetLatestSnapshot());
	scan = systable_beginscan(rel, index, true, snapshot, 1, &sk);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		TupleDesc	desc = RelationGetDescr(rel);
		bool		null_role,
					null_revoked,
					null_secret,
					null_principal = true;
		Datum		r = heap_getattr(tup, AK_ROLE, desc, &null_role);
		Datum		sv = heap_getattr(tup, AK_SECRET, desc, &null_secret);
		Datum		p = (Datum) 0;

		(void) heap_getattr(tup, AK_REVOKED, desc, &null_revoked);
		/* (a table of a release before the column: none) */
		if (ak_principal != InvalidAttrNumber)
			p = heap_getattr(tup, ak_principal, desc, &null_principal);
		found = !null_role && null_revoked && !null_secret;
		if (found)
		{
			char	   *secret = TextDatumGetCString(sv);

			/* the CHECK constraints hold, unless they were dropped */
			if (strlen(secret) > ACCESS_KEY_SECRET_MAX ||
				(!null_principal && VARSIZE_ANY_EXHDR(DatumGetPointer(p)) > AK_PRINCIPAL_MAX))
				ereport(ERROR,
						(errcode(ERRCODE_CHECK_VIOLATION),
						 errmsg("access key \"%s\" has a secret or principal name longer than hroe.access_keys allows",
								text_to_cstring(key_id))));
			e->role = DatumGetObjectId(r);
			strlcpy(e->secret, secret, sizeof(e->secret));
			explicit_bzero(secret, strlen(secret));
			e->has_principal = !null_principal;
			if (e->has_principal)
				text_to_cstring_buffer((text *) DatumGetPointer(p), e->principal,
									   sizeof(e->principal));
		}
	}
	systable_endscan(scan);
	UnregisterSnapshot(snapshot);
	table_close(rel, AccessShareLock);
	return found;
}

/*
 * The active access key key_id into out (false: unknown or revoked), from
 * the cache or hroe.access_keys, once the caller's privileges on the
 * columns it reads (the secret only when want_secret, the principal only
 * when want_principal) are checked, as a query of those columns would
 * check them: SELECT on the table, or on the columns.
 */
static bool
LookupKey(text *key_id, bool want_secret, bool want_principal, KeyEntry *out)
{
	AclResult	acl;
	char		id[ACCESS_KEY_ID_MAX + 1];
	KeyEntry   *e;
	uint64		generation;

	if (!key_callback_registered)
	{
		CacheRegisterRelcacheCallback(KeysInvalidate, (Datum) 0);
		key_callback_registered = true;
	}
	if (!OidIsValid(keys_relid) || !OidIsValid(keys_index))
	{
		Oid			nsp = hroe_schema_oid();

		keys_relid = get_relname_relid("access_keys", nsp);
		keys_index = get_relname_relid("access_keys_pkey", nsp);
		if (!OidIsValid(keys_relid) || !OidIsValid(keys_index))
			elog(ERROR, "hroe.access_keys or its primary key is missing");
		keys_principal = get_attnum(keys_relid, "principal_name");
	}
	acl = pg_class_aclcheck(keys_relid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK)
	{
		AttrNumber	ak_principal = want_principal ? keys_principal : InvalidAttrNumber;

		if (pg_attribute_aclcheck(keys_relid, AK_ID, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
			(want_secret &&
			 pg_attribute_aclcheck(keys_relid, AK_SECRET, GetUserId(), ACL_SELECT) != ACLCHECK_OK) ||
			pg_attribute_aclcheck(keys_relid, AK_ROLE, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
			pg_attribute_aclcheck(keys_relid, AK_REVOKED, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
			(ak_principal != InvalidAttrNumber &&
			 pg_attribute_aclcheck(keys_relid, ak_principal, GetUserId(), ACL_SELECT) != ACLCHECK_OK))
			aclcheck_error(acl, OBJECT_TABLE, "access_keys");
	}
	/* longer than the table allows: not a key */
	if (VARSIZE_ANY_EXHDR(key_id) > ACCESS_KEY_ID_MAX)
		return false;
	text_to_cstring_buffer(key_id, id, sizeof(id));

	if (key_cache != NULL && (e = hash_search(key_cache, id, HASH_FIND, NULL)) != NULL)
	{
		*out = *e;
		return true;
	}

	/*
	 * Not cached: read the row.  Invalidations already sent are taken first,
	 * and the row is read with a snapshot taken after them, so that an entry
	 * is kept only if no invalidation arrived since: one that arrives during
	 * the read (any lock taken processes them) advances the generation, and
	 * one sent later empties the cache when it is received.  The transaction's
	 * own snapshot, older, could show a key revoked since, after that
	 * revocation's invalidation was taken.
	 */
	AcceptInvalidationMessages();
	if (!OidIsValid(keys_relid))	/* the table changed meanwhile */
		return LookupKey(key_id, want_secret, want_principal, out);
	generation = key_cache_generation;
	memset(out, 0, sizeof(*out));
	if (!FetchKey(keys_relid, keys_index, keys_principal, key_id, out))
		return false;
	/* changed meanwhile: this request uses what it read, uncached */
	if (generation != key_cache_generation)
		return true;
	if (key_cache != NULL && hash_get_num_entries(key_cache) >= KEY_CACHE_MAX)
		KeysForget();
	if (key_cache == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = ACCESS_KEY_ID_MAX + 1;
		ctl.entrysize = sizeof(KeyEntry);
		ctl.hcxt = TopMemoryContext;
		key_cache = hash_create("hroe access keys", 64, &ctl,
								HASH_ELEM | HASH_STRINGS | HASH_CONTEXT);
	}
	e = hash_search(key_cache, id, HASH_ENTER, NULL);
	memcpy(((char *) e) + offsetof(KeyEntry, role), ((char *) out) + offsetof(KeyEntry, role),
		   sizeof(KeyEntry) - offsetof(KeyEntry, role));
	return true;
}

/*
 * The active access key key_id: true and its role (and, with secret not
 * NULL, its secret, palloc'd) if there is one, false for an unknown or
 * revoked key; read with the caller's privileges (LookupKey); with
 * principal not NULL, the IAM user name of its requests (palloc'd; NULL
 * for its role's name)
 */
static bool
ReadKey(text *key_id, Oid *role, char **secret, char **principal)
{
	KeyEntry	e;

	if (!LookupKey(key_id, secret != NULL, principal != NULL, &e))
		return false;
	*role = e.role;
	if (secret != NULL)
		*secret = pstrdup(e.secret);
	if (principal != NULL)
		*principal = e.has_principal ? pstrdup(e.principal) : NULL;
	explicit_bzero(e.secret, sizeof(e.secret));
	return true;
}

/*
 * The secret of the active access key key_id (palloc'd), or NULL for an
 * unknown or revoked key; read with the caller's privileges.  The in-server
 * HTTP workers' lookup (http_server.c); hroe-gateway runs the same read as
 * a query of its pool.
 */
char *
hroe_access_key_secret(text *key_id)
{
	Oid			role;
	char	   *secret;

	return ReadKey(key_id, &role, &secret, NULL) ? secret : NULL;
}

/*
 * The response body of hroe.dynamodb_text(op, body) run as the role of the
 * active access key key_id (SET ROLE for the call: the membership check is
 * the GUC's, check_role; rolled back when the call returns), or NULL for an
 * unknown or revoked key, one whose role was dropped, or (secret not NULL)
 * one whose secret is no longer secret.  Used by hroe.gateway_call and by
 * the in-server HTTP workers (http_server.c).
 */
/* What runs as the key's role: the JSON API, or S3's (run_s3) */
typedef struct KeyCall
{
	bool		s3;
	const char *op;				/* the JSON API's operation, or the method */
	const char *path;			/* S3: the decoded path */
	const char *query;			/* S3: the query, percent-encoded */
	const char *body;
	size_t		len;
} KeyCall;

static struct varlena *RunAs(text *key_id, const char *secret, const KeyCall *call);

text *
hroe_gateway_run(text *key_id, const char *secret, const char *op,
				 const char *body, int len)
{
	KeyCall		call = {false, op, NULL, NULL, body, (size_t) len};

	return (text *) RunAs(key_id, secret, &call);
}

/*
 * S3's request (method, decoded path, percent-encoded query, body) run as
 * the key's role by hroe_s3_dispatch (src/transfer/s3_api.c), as
 * hroe_gateway_run runs the JSON API: its framed answer, or NULL as there
 */
bytea *
hroe_s3_gateway_run(text *key_id, const char *secret, const char *method, const char *path,
					const char *query, const char *body, size_t len)
{
	KeyCall		call = {true, method, path, query, body, len};

	return (bytea *) RunAs(key_id, secret, &call);
}

static struct varlena *
RunAs(text *key_id, const char *secret, const KeyCall *call)
{
	Oid			role;
	char	   *current = NULL;
	char	   *rolname;
	Oid			save_user;
	int			save_sec;
	int			nestlevel;
	struct varlena *volatile out = NULL;
	char	   *principal = NULL;
	const char *save_principal = hroe_policy_principal_name;
	bool		valid = ReadKey(key_id, &role, secret != NULL ? &current : NULL, &principal);

	if (valid && current != NULL)
	{
		valid = strcmp(current, secret) == 0;
		explicit_bzero(current, strlen(current));
	}
	if (!valid)
		return NULL;
	rolname = GetUserNameFromId(role, true);
	if (rolname == NULL)
		return NULL;
	GetUserIdAndSecContext(&save_user, &save_sec);
	nestlevel = NewGUCNestLevel();
	(void) set_config_option("role", rolname, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);

	/*
	 * No way back, and nothing left behind.  Code of the key's role (its
	 * tables' triggers, the functions they call) runs in a local user id
	 * change and a security-restricted operation, as PostgreSQL runs a
	 * table owner's code in maintenance commands: it cannot RESET ROLE or
	 * SET ROLE to the login role or, through the login role's memberships,
	 * to another key's role; it cannot queue a deferred trigger, which would
	 * fire at commit, after the call, or create temporary objects that
	 * outlive it.  The settings it changed, even with a session-level SET
	 * (search_path: the next statement of a pooled connection, or the next
	 * request of an in-server worker, would look its names up there), are
	 * rolled back with the role when the call returns, as index_build rolls
	 * back those of index functions.
	 */
	SetUserIdAndSecContext(role, save_sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
	/* the key's principal in resource-based policies (policy.h), for the call */
	hroe_policy_principal_name = principal ? principal : rolname;
	PG_TRY();
	{
		if (call->s3)
			out = (struct varlena *) hroe_s3_dispatch(call->op, call->path, call->query,
													  call->body, call->len);
		else
			out = (struct varlena *) hroe_api_call_text(call->op, call->body, (int) call->len);
	}
	PG_CATCH();
	{
		hroe_policy_principal_name = save_principal;
		/* the user id first: the role's reset asserts no restriction */
		SetUserIdAndSecContext(save_user, save_sec);
		AtEOXact_GUC(false, nestlevel);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_policy_principal_name = save_principal;
	SetUserIdAndSecContext(save_user, save_sec);
	AtEOXact_GUC(false, nestlevel);
	return out;
}

PG_FUNCTION_INFO_V1(hroe_gateway_call);
/*
 * hroe.gateway_call(access_key_id, operation, request text): the response
 * body of hroe.dynamodb_text(operation, request) run as the key's role, or
 * DynamoDB's UnrecognizedClientException body for an unknown or revoked key
 */
Datum
hroe_gateway_call(PG_FUNCTION_ARGS)
{
	text	   *body = PG_GETARG_TEXT_PP(2);
	text	   *out = hroe_gateway_run(PG_GETARG_TEXT_PP(0), NULL,
									   text_to_cstring(PG_GETARG_TEXT_PP(1)),
									   VARDATA_ANY(body), VARSIZE_ANY_EXHDR(body));

	if (out == NULL)			/* unknown, revoked, or its role dropped */
		PG_RETURN_TEXT_P(cstring_to_text("{\"__type\": \"" DDB_TYPE_UNRECOGNIZED_CLIENT "\", \"message\": \"" DDB_MSG_UNRECOGNIZED_CLIENT "\"}"));
	PG_RETURN_TEXT_P(out);
}

PG_FUNCTION_INFO_V1(hroe_s3_gateway_call);
/*
 * hroe.s3_gateway_call(access_key_id, method, path, query, body): S3's
 * request run as the key's role (hroe_s3_dispatch), its answer framed for
 * the front end; NULL for an unknown or revoked key
 */
Datum
hroe_s3_gateway_call(PG_FUNCTION_ARGS)
{
	bytea	   *body = PG_GETARG_BYTEA_PP(4);
	bytea	   *out = hroe_s3_gateway_run(PG_GETARG_TEXT_PP(0), NULL,
										  text_to_cstring(PG_GETARG_TEXT_PP(1)),
										  text_to_cstring(PG_GETARG_TEXT_PP(2)),
										  text_to_cstring(PG_GETARG_TEXT_PP(3)),
										  VARDATA_ANY(body), VARSIZE_ANY_EXHDR(body));

	if (out == NULL)
		PG_RETURN_NULL();
	PG_RETURN_BYTEA_P(out);
}
