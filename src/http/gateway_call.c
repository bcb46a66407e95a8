/*-------------------------------------------------------------------------
 *
 * gateway_call.c
 *	  hroe.gateway_call(access_key_id, operation, request): one request of
 *	  hroe-gateway, run as the PostgreSQL role of its access key.
 *
 * The key is read from hroe.access_keys as the caller (the gateway's login
 * role: SELECT on the table, or on the columns read, is checked; the function
 * is not SECURITY DEFINER).  The read is an index probe, not a query, so it
 * would not apply row-level security: the table has none, and a key whose
 * table has it enabled is refused rather than read past its policies.  The
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
#include "utils/snapmgr.h"

#include "api_internal.h"
#include "ddb_types.h"
#include "catalog.h"
#include "policy.h"
#include "transfer.h"
#include "http_server.h"

/* hroe.access_keys's columns */
#define AK_ID		1
#define AK_SECRET	2
#define AK_ROLE		3
#define AK_REVOKED	5
/* principal_name: by name, absent from a catalog of 0.2 not yet updated */

/*
 * The active access key key_id: true and its role (and, with secret not
 * NULL, its secret, palloc'd) if there is one, false for an unknown or
 * revoked key; read with the caller's privileges and snapshot, as a query
 * of the columns read would; with principal not NULL, the IAM user name of
 * its requests (palloc'd; NULL for its role's name)
 */
static bool
ReadKey(text *key_id, Oid *role, char **secret, char **principal)
{
	Oid			nsp = hroe_schema_oid();
	Oid			relid = get_relname_relid("access_keys", nsp);
	Oid			index = get_relname_relid("access_keys_pkey", nsp);
	Relation	rel;
	AclResult	acl;
	ScanKeyData sk;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found = false;
	AttrNumber	ak_principal = OidIsValid(relid) ? get_attnum(relid, "principal_name") : InvalidAttrNumber;

	if (!OidIsValid(relid) || !OidIsValid(index))
		elog(ERROR, "hroe.access_keys or its primary key is missing");
	/* SELECT on the table, or on the columns read */
	acl = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (acl != ACLCHECK_OK &&
		(pg_attribute_aclcheck(relid, AK_ID, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 (secret != NULL &&
		  pg_attribute_aclcheck(relid, AK_SECRET, GetUserId(), ACL_SELECT) != ACLCHECK_OK) ||
		 pg_attribute_aclcheck(relid, AK_ROLE, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 pg_attribute_aclcheck(relid, AK_REVOKED, GetUserId(), ACL_SELECT) != ACLCHECK_OK ||
		 (principal != NULL && ak_principal != InvalidAttrNumber &&
		  pg_attribute_aclcheck(relid, ak_principal, GetUserId(), ACL_SELECT) != ACLCHECK_OK)))
		aclcheck_error(acl, OBJECT_TABLE, "access_keys");
	rel = table_open(relid, AccessShareLock);
	if (rel->rd_rel->relrowsecurity)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hroe does not read hroe.access_keys under row-level security"),
				 errhint("Disable row-level security on hroe.access_keys; grant SELECT on it to the gateway's login role only.")));
	/* in the column's collation, the index's (ScanKeyInit would use "C") */
	ScanKeyEntryInitialize(&sk, 0, AK_ID, BTEqualStrategyNumber, InvalidOid,
						   DEFAULT_COLLATION_OID, F_TEXTEQ, PointerGetDatum(key_id));
	scan = systable_beginscan(rel, index, true, GetActiveSnapshot(), 1, &sk);
	tup = systable_getnext(scan);
	if (HeapTupleIsValid(tup))
	{
		TupleDesc	desc = RelationGetDescr(rel);
		bool		null_role;
		bool		null_revoked;
		bool		null_secret = true;
		Datum		r = heap_getattr(tup, AK_ROLE, desc, &null_role);
		Datum		sv = (Datum) 0;

		(void) heap_getattr(tup, AK_REVOKED, desc, &null_revoked);
		if (secret != NULL)
			sv = heap_getattr(tup, AK_SECRET, desc, &null_secret);
		found = !null_role && null_revoked && (secret == NULL || !null_secret);
		if (found)
		{
			*role = DatumGetObjectId(r);
			if (secret != NULL)
				*secret = TextDatumGetCString(sv);
			if (principal != NULL)
			{
				bool		null_principal = true;
				Datum		p = (Datum) 0;

				/* (a table of a release before the column: none) */
				if (ak_principal != InvalidAttrNumber)
					p = heap_getattr(tup, ak_principal, desc, &null_principal);
				*principal = null_principal ? NULL : TextDatumGetCString(p);
			}
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
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
