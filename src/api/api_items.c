/*-------------------------------------------------------------------------
 *
 * api_items.c
 *	  The JSON API's item operations: GetItem, PutItem, UpdateItem,
 *	  DeleteItem, Query, Scan, BatchGetItem, BatchWriteItem, translated to
 *	  and from the operations layer's C API (operations.h).
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


/* ---------- operations ---------- */

/* GetItem */
void
hroe_api_get_item(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	char	   *table;
	ApiExprs	e;
	Jsonb	   *key;
	HroeTableMeta *t;
	bool		consistent;
	char	   *rcc;
	HroeItem   *item;
	double		units;
	Jsonb	   *cc;

	hroe_api_parse_request(req, &e, API_LEGACY_GET);
	t = hroe_api_request_table(req, &table);
	key = hroe_api_member_jsonb(req, "Key");
	if (key == NULL)
		hroe_api_missing("key");
	consistent = hroe_api_member_bool(req, "ConsistentRead", false);
	rcc = hroe_api_return_cc(req);
	hroe_check_return_cc(rcc);
	item = hroe_get(t, key, consistent, &units);
	cc = hroe_capacity_jsonb(rcc, table, units, t, NULL);
	if (item && e.projection)
		item = hroe_project(e.projection, item);
	/* as text, in one pass, its members in jsonb's order of keys */
	if (item)
	{
		hroe_api_text_member(out, "Item");
		hroe_item_write_jsonb_order(out, item);
	}
	if (cc)
		hroe_api_text_member_jsonb(out, "ConsumedCapacity", cc);
}

/* Append a write's Attributes and ConsumedCapacity */
static void
AppendWriteResult(StringInfo out, HroeWriteResult *res)
{
	if (res->attributes)
		hroe_api_append_item(out, "Attributes", res->attributes);
	if (res->capacity)
		hroe_api_append_jsonb(out, "ConsumedCapacity", res->capacity);
}

/*
 * PutItem, UpdateItem or DeleteItem: the request's members, in DynamoDB's
 * order of checks, then the operation
 */
void
hroe_api_write(const ApiRequest *ar, StringInfo out, HroeWriteKind kind)
{
	JsonbContainer *req = ar->body;
	HroeWriteRequest r = {0};
	HroeWriteResult res;
	ApiExprs	e;
	char	   *table;
	const char *rv;
	char	   *ricm;

	hroe_api_parse_request(req, &e, kind == HROE_WRITE_PUT ? API_LEGACY_PUT :
						   kind == HROE_WRITE_UPDATE ? API_LEGACY_UPDATE : API_LEGACY_DELETE);
	rv = hroe_api_member_text(req, "ReturnValues", "ReturnValues");
	r.call = &ar->call->ops;
	r.kind = kind;
	r.return_values = kind == HROE_WRITE_UPDATE ? hroe_check_update_return_values(rv) :
		hroe_check_write_return_values(rv);
	r.return_old_on_failure =
		hroe_check_return_old_on_failure(hroe_api_member_text(req, "ReturnValuesOnConditionCheckFailure",
													"ReturnValuesOnConditionCheckFailure"));
	r.t = hroe_api_request_table(req, &table);
	r.table = table;
	if (kind == HROE_WRITE_PUT)
	{
		Jsonb	   *j = hroe_api_member_jsonb(req, "Item");

		if (j == NULL)
			hroe_api_missing("item");
		r.item = HroeItemFromJsonb(j);
	}
	else
	{
		r.key = hroe_api_member_jsonb(req, "Key");
		if (r.key == NULL)
			hroe_api_missing("key");
	}
	r.condition = e.condition;
	r.update = e.update;
	/* a standalone UpdateItem measures what it writes too, PartiQL's not */
	if (r.update && !ar->partiql)
		r.update->measure_writes = true;
	r.rcc = hroe_api_return_cc(req);
	hroe_write_item(&r, &res);
	AppendWriteResult(out, &res);
	/* (ReturnItemCollectionMetrics was checked before the operation) */
	ricm = hroe_api_member_text(req, "ReturnItemCollectionMetrics", "ReturnItemCollectionMetrics");
	if (ricm && strcmp(ricm, "SIZE") == 0)
	{
		Jsonb	   *m = hroe_item_collection_metrics(r.t, r.item ? r.item : HroeItemFromJsonb(r.key));

		if (m)
			hroe_api_append_jsonb(out, "ItemCollectionMetrics", m);
	}
}

/* Query and Scan: the operation filters, projects and counts */
void
hroe_api_read(const ApiRequest *ar, StringInfo out, bool query)
{
	JsonbContainer *req = ar->body;
	char	   *table;
	ApiExprs	e;
	HroeReadRequest r = {0};
	HroeReadPage page;
	bool		has_limit;
	int32		limit;

	hroe_api_parse_request(req, &e, query ? API_LEGACY_QUERY : API_LEGACY_SCAN);
	(void) hroe_api_request_table(req, &table);
	r.table = table;
	r.query = query;
	r.index = hroe_api_member_text(req, "IndexName", "IndexName");
	/* (Limit >= 1: hroe_api_validate) */
	limit = hroe_api_member_int(req, "Limit", &has_limit);
	r.limit = has_limit ? limit : 0;
	r.select = hroe_api_member_text(req, "Select", "Select");
	if (query && e.key_condition == NULL)
		hroe_api_invalid("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	r.esk = hroe_api_member_jsonb(req, "ExclusiveStartKey");
	/* PartiQL's WHERE sk > a AND sk < b: one range */
	r.key_bounds = query && ar->partiql;
	if (query)
	{
		r.forward = hroe_api_member_bool(req, "ScanIndexForward", true);
		r.consistent = hroe_api_member_bool(req, "ConsistentRead", false);
	}
	else
		r.consistent = hroe_api_member_bool(req, "ConsistentRead", false);
	r.rcc = hroe_api_return_cc(req);
	if (!query)
	{
		r.segment = hroe_api_member_int(req, "Segment", &r.has_segment);
		r.total_segments = hroe_api_member_int(req, "TotalSegments", &r.has_total);
	}
	/* the expressions parsed once, above */
	r.kce = e.key_condition;
	r.filter = e.filter;
	r.projection = e.projection;
	hroe_read_page(&r, &page);

	/*
	 * As text, in one pass, its members in jsonb's order of keys; Items,
	 * already filtered and projected, unless Select is COUNT
	 */
	hroe_api_text_int(out, "Count", page.count);
	if (!page.count_only)
	{
		hroe_api_text_member(out, "Items");
		appendStringInfoChar(out, '[');
		for (int i = 0; i < page.nitems; i++)
		{
			if (i > 0)
				appendStringInfoString(out, ", ");
			hroe_item_write_jsonb_order(out, DatumGetHroeItemP(page.items[i]));
		}
		appendStringInfoChar(out, ']');
	}
	hroe_api_text_int(out, "ScannedCount", page.scanned);
	if (page.capacity)
		hroe_api_text_member_jsonb(out, "ConsumedCapacity", page.capacity);
	if (page.last_key)
		hroe_api_text_member_jsonb(out, "LastEvaluatedKey", page.last_key);
}

/* A container as JSON text */
char *
hroe_api_container_text(JsonbValue *v)
{
	/* (strings whole: U+0000 as \u0000, where JsonbToCString cuts them) */
	return hroe_jsonb_text(v->val.binary.data);
}

/*
 * BatchGetItem or BatchWriteItem of RequestItems: splice the members of the
 * body the operation returns into the response
 */
void
hroe_api_batch(const ApiRequest *ar, StringInfo out, bool write)
{
	JsonbContainer *req = ar->body;
	Jsonb	   *items = hroe_api_member_jsonb(req, "RequestItems");
	char	   *s;
	char	   *ricm;

	if (items == NULL)
		hroe_api_missing("requestItems");
	if (!write)
		items = hroe_api_legacy_batch_get(items);
	if (!write && !JB_ROOT_IS_OBJECT(items))
		HroeSerialization("Unexpected value type in payload: RequestItems");
	/* (ReturnItemCollectionMetrics was checked before the operation) */
	ricm = hroe_api_member_text(req, "ReturnItemCollectionMetrics", "ReturnItemCollectionMetrics");
	/* the operation's response text, spliced as it is */
	s = write ? hroe_batch_write(&ar->call->ops, items, hroe_api_return_cc(req),
								 ricm && strcmp(ricm, "SIZE") == 0) :
		hroe_batch_get(&ar->call->ops, items, hroe_api_return_cc(req));
	if (strlen(s) > 2)
	{
		appendStringInfoChar(out, ',');
		appendBinaryStringInfo(out, s + 1, strlen(s) - 2);
	}
}
