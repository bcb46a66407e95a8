/*-------------------------------------------------------------------------
 *
 * api_transact.c
 *	  The JSON API's transactions: TransactWriteItems and TransactGetItems
 *	  translated to the operations layer's (transactions.c), and their SQL
 *	  functions hroe.transact_write_items and hroe.transact_get_items (JSON
 *	  in and out, errors raised).
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


/* ---------- transactions ---------- */

/*
 * Parse the TransactItems of a request into actions, checking DynamoDB's
 * limits (an action's invalid key left for the transaction to cancel)
 */
static HroeTxAction *
ParseActions(JsonbContainer *req, bool write, int *nactions)
{
	JsonbContainer **elems;
	int			n = hroe_api_member_array(req, "TransactItems", &elems);
	HroeTxAction *acts;
	int64		bytes = 0;
	static const char *const wnames[] = {"Put", "Update", "Delete", "ConditionCheck"};

	/* (1 to 100 of them: hroe_api_validate) */
	Assert(n >= 1 && n <= HROE_TRANSACT_MAX);
	acts = palloc0(sizeof(HroeTxAction) * n);
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = &acts[i];
		JsonbContainer *body = NULL;
		int			found = 0;
		int64		size;

		a->index = i;
		if (write)
		{
			for (int k = 0; k < 4; k++)
			{
				JsonbValue *v = hroe_api_member(elems[i], wnames[k]);

				if (v && v->type == jbvBinary)
				{
					found++;
					a->kind = (HroeTxKind) k;
					body = v->val.binary.data;
				}
			}
		}
		else
		{
			JsonbValue *v = hroe_api_member(elems[i], "Get");

			if (v && v->type == jbvBinary)
			{
				found = 1;
				a->kind = HROE_TX_GET;
				body = v->val.binary.data;
			}
		}
		if (found != 1)
			hroe_api_invalid("TransactItems can only contain one of Check, Put, Update or Delete");
		a->t = hroe_api_request_table(body, &a->table);
		hroe_api_parse_exprs(body, &a->e, a->kind != HROE_TX_GET, a->kind == HROE_TX_UPDATE, false,
				   a->kind == HROE_TX_GET, false);
		if (a->kind != HROE_TX_GET)
			a->return_old =
				hroe_check_return_old_on_failure(hroe_api_member_text(body, "ReturnValuesOnConditionCheckFailure",
															"ReturnValuesOnConditionCheckFailure"));
		if (a->kind == HROE_TX_CHECK && a->e.condition == NULL)
			hroe_api_missing(psprintf("transactItems.%d.member.conditionCheck.conditionExpression", i + 1));
		if (a->kind == HROE_TX_UPDATE && a->e.update == NULL)
			hroe_api_missing(psprintf("transactItems.%d.member.update.updateExpression", i + 1));
		if (a->kind == HROE_TX_PUT)
		{
			Jsonb	   *j = hroe_api_member_jsonb(body, "Item");

			if (j == NULL)
				hroe_api_missing(psprintf("transactItems.%d.member.put.item", i + 1));
			a->item = HroeItemFromJsonb(j);
		}
		else
		{
			a->key = hroe_api_member_jsonb(body, "Key");
			if (a->key == NULL)
				hroe_api_missing(psprintf("transactItems.%d.member.key", i + 1));
		}
		size = hroe_tx_action_prepare(a);

		/*
		 * a TransactWriteItems of more than 4 MB (its items or keys and
		 * expression values): refused as soon as the actions parsed so far
		 * pass it, before the rest is built in memory
		 */
		if (write)
		{
			bytes += size;
			if (bytes > HROE_TRANSACTION_BYTES)
				hroe_api_invalid("Transaction request cannot be larger than 4 MB");
		}
	}
	*nactions = n;
	return acts;
}

/* TransactWriteItems: all or nothing */
void
hroe_api_transact_write(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	int			n;
	HroeTxAction *acts = ParseActions(req, true, &n);
	char	   *token = hroe_api_member_text(req, "ClientRequestToken", "ClientRequestToken");
	char	   *rcc = hroe_api_checked_return_cc(req);
	Jsonb	   *cc;
	char	   *icm = NULL;
	char	   *ricm;

	hroe_api_check_item_collection_metrics(req);
	ricm = hroe_api_member_text(req, "ReturnItemCollectionMetrics", "ReturnItemCollectionMetrics");
	cc = hroe_transact_write(&r->call->ops, acts, n, token,
							 token ? hroe_api_container_text(hroe_api_member(req, "TransactItems")) : NULL, rcc,
							 ricm && strcmp(ricm, "SIZE") == 0 ? &icm : NULL);
	if (cc)
		hroe_api_append_jsonb(out, "ConsumedCapacity", cc);
	if (icm)
		appendStringInfo(out, ",\"ItemCollectionMetrics\":%s", icm);
}

/* TransactGetItems: every item read in one snapshot, without locks */
void
hroe_api_transact_get(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	int			n;
	HroeTxAction *acts = ParseActions(req, false, &n);
	char	   *rcc;
	Jsonb	   *cc;

	/* (checked after the actions' duplicates, by the operation) */
	rcc = hroe_api_return_cc(req);
	cc = hroe_transact_get(&r->call->ops, acts, n, rcc);
	appendStringInfoString(out, ",\"Responses\":[");
	for (int i = 0; i < n; i++)
	{
		HroeTxAction *a = &acts[i];

		appendStringInfoString(out, i ? ",{" : "{");
		if (a->old)
		{
			HroeItem   *item = a->e.projection ? hroe_project(a->e.projection, a->old) : a->old;
			HroeValue	root;

			/* a projection matching none of its attributes: no Item */
			hroe_item_root(item, &root);
			if (hroe_value_count(&root) > 0)
			{
				appendStringInfoString(out, "\"Item\":");
				hroe_item_write(out, item);
			}
		}
		appendStringInfoChar(out, '}');
	}
	appendStringInfoChar(out, ']');
	if (cc)
		hroe_api_append_jsonb(out, "ConsumedCapacity", cc);
}

PG_FUNCTION_INFO_V1(hroe_transact_write_items);
/*
 * hroe.transact_write_items(transact_items): TransactWriteItems as a SQL
 * function; a cancelled transaction raises HR005 with the reasons in DETAIL.
 */
Datum
hroe_transact_write_items(PG_FUNCTION_ARGS)
{
	PG_RETURN_JSONB_P(hroe_api_call_operation("TransactWriteItems", hroe_api_request_from_arg(fcinfo, "TransactItems")));
}

PG_FUNCTION_INFO_V1(hroe_transact_get_items);
/* hroe.transact_get_items(transact_items): the Responses array of TransactGetItems */
Datum
hroe_transact_get_items(PG_FUNCTION_ARGS)
{
	Jsonb	   *res = hroe_api_call_operation("TransactGetItems", hroe_api_request_from_arg(fcinfo, "TransactItems"));

	PG_RETURN_JSONB_P(hroe_api_response_member(res, "Responses"));
}
