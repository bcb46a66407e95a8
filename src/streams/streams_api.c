/*-------------------------------------------------------------------------
 *
 * streams_api.c
 *	  The JSON API of DynamoDB Streams (ListStreams, DescribeStream,
 *	  GetShardIterator, GetRecords) and of a table's StreamSpecification
 *	  (CreateTable, UpdateTable); Time to Live's is in ttl_api.c.
 *
 * The Streams API runs hroe.streams_call (src/streams/streams.sql) as the
 * extension's owner, who alone may read hroe.stream_records, passing the
 * caller's role, whose SELECT privilege on each stream's table it checks.
 * GetRecords' keys and images come back as hroe.item, which the JSON API
 * pushes into the records as it does the items of GetItem, whole (U+0000).
 * The rest runs hroe's SQL functions as the caller.
 *
 * src/streams/streams_api.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"

#include "api_internal.h"
#include "catalog.h"
#include "streams.h"

/* Append the members of object j to out, after those already in it */
static void
AppendMembers(StringInfo out, Jsonb *j)
{
	char	   *text = hroe_api_jsonb_text(j);
	size_t		len = strlen(text);

	if (len > 2)
		appendStringInfo(out, ",%.*s", (int) (len - 2), text + 1);
}

/* Run sql (one jsonb result) with arguments; append its members to out */
void
hroe_streams_api_append_result(StringInfo out, const char *sql, int nargs, Oid *types, Datum *values,
			 const char *nulls)
{
	int			ret = SPI_execute_with_args(sql, nargs, types, values, nulls, false, 1);
	bool		isnull;
	Datum		d;

	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "\"%s\" failed: %s", sql, SPI_result_code_string(ret));
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull)
		AppendMembers(out, DatumGetJsonbP(d));
}

/* Push the members of object obj but skip (NULL: none) into a jsonb being built */
static void
PushMembers(JsonbParseState **st, JsonbContainer *obj, const char *skip)
{
	JsonbIterator *it = JsonbIteratorInit(obj);
	JsonbIteratorToken tok;
	JsonbValue	k;
	JsonbValue	v;

	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		if (tok != WJB_KEY)
			continue;
		(void) JsonbIteratorNext(&it, &v, true);
		if (skip && k.val.string.len == strlen(skip) && memcmp(k.val.string.val, skip, k.val.string.len) == 0)
			continue;
		pushJsonbValue(st, WJB_KEY, &k);
		pushJsonbValue(st, WJB_VALUE, &v);
	}
}

/*
 * GetRecords' response: hroe.streams_call's (res), each record's dynamodb
 * member given its Keys, NewImage and OldImage from images (a row of three
 * per record, NULL where none), pushed as the JSON API pushes items, whole
 * (an item may hold U+0000, which jsonb_in and jsonb's text output cannot
 * carry: hroe.dynamodb raises an error for it, the text entries write it as
 * \u0000)
 */
static void
SetRecordsResult(ApiCall *call, Jsonb *res, ArrayType *images)
{
	static const char *const members[] = {"Keys", "NewImage", "OldImage"};
	const int	per = lengthof(members);
	JsonbParseState *st = NULL;
	JsonbContainer **records;
	int			n = hroe_api_member_array(&res->root, "Records", &records);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum	   *elems;
	bool	   *nulls;
	int			nelems;

	get_typlenbyvalalign(ARR_ELEMTYPE(images), &typlen, &typbyval, &typalign);
	deconstruct_array(images, ARR_ELEMTYPE(images), typlen, typbyval, typalign,
					  &elems, &nulls, &nelems);
	if (nelems != n * per || (n > 0 && (ARR_NDIM(images) != 2 || ARR_DIMS(images)[1] != per)))
		elog(ERROR, "GetRecords returned %d records and %d images", n, nelems);
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	PushMembers(&st, &res->root, "Records");
	hroe_jsonb_push_key(&st, "Records");
	pushJsonbValue(&st, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < n; i++)
	{
		JsonbValue *dynamodb = hroe_api_member(records[i], "dynamodb");

		if (dynamodb == NULL || dynamodb->type != jbvBinary)
			elog(ERROR, "a record of GetRecords has no dynamodb member");
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		PushMembers(&st, records[i], "dynamodb");
		hroe_jsonb_push_key(&st, "dynamodb");
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		PushMembers(&st, dynamodb->val.binary.data, NULL);
		for (int m = 0; m < per; m++)
		{
			int			e = i * per + m;

			if (nulls[e])
				continue;
			hroe_jsonb_push_key(&st, members[m]);
			(void) hroe_item_push_jsonb(&st, DatumGetHroeItemP(elems[e]), true);
		}
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	}
	pushJsonbValue(&st, WJB_END_ARRAY, NULL);
	hroe_api_set_result(call, &st);
}

/* The request as a Jsonb (the container Dispatch passes is a Jsonb's root) */
static Jsonb *
RequestJsonb(JsonbContainer *req)
{
	return (Jsonb *) ((char *) req - offsetof(Jsonb, root));
}

/* ListStreams, DescribeStream, GetShardIterator, GetRecords */
static void
StreamsCall(const char *op, const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	static const char *const members[] = {
		"StreamArn", "ShardId", "ShardIteratorType", "SequenceNumber", "ShardIterator",
		"TableName", "ExclusiveStartStreamArn", "ExclusiveStartShardId"
	};
	Oid			types[3] = {TEXTOID, JSONBOID, OIDOID};
	Datum		values[3];
	HroeIdentity saved;
	volatile int ret = 0;
	Datum		res;
	Datum		images;
	bool		isnull;
	bool		images_null;

	/* the string members are strings (SerializationException) */
	for (int i = 0; i < lengthof(members); i++)
		(void) hroe_api_member_text(req, members[i], members[i]);
	/* a stream named by its ARN: as the stream's resource-based policy allows */
	{
		char	   *arn = hroe_api_member_text(req, "StreamArn", "StreamArn");
		char	   *table;
		char	   *rest;
		bool		ours;

		if (arn && hroe_arn_parse(arn, &table, &rest, &ours) && ours &&
			strncmp(rest, "/stream/", strlen("/stream/")) == 0)
			hroe_call_authorize(&r->call->ops, op, table, NULL, rest + strlen("/stream/"));
	}
	values[0] = CStringGetTextDatum(op);
	values[1] = JsonbPGetDatum(RequestJsonb(req));
	values[2] = ObjectIdGetDatum(GetUserId());
	/*
	 * as the extension's owner (the records are its), in a
	 * security-restricted operation with search_path pinned (hroe_become)
	 */
	hroe_become(hroe_streams_owner(), &saved);
	PG_TRY();
	{
		ret = SPI_execute_with_args("SELECT response, images FROM hroe.streams_call($1, $2, $3)",
									3, types, values, NULL, false, 1);
	}
	PG_CATCH();
	{
		hroe_unbecome_on_error(&saved);
		PG_RE_THROW();
	}
	PG_END_TRY();
	hroe_unbecome(&saved);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "hroe.streams_call failed: %s", SPI_result_code_string(ret));
	res = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	images = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &images_null);
	if (isnull)
		elog(ERROR, "hroe.streams_call returned no response");
	if (images_null)
		AppendMembers(out, DatumGetJsonbP(res));
	else
		SetRecordsResult(r->call, DatumGetJsonbP(res), DatumGetArrayTypeP(images));
}

/* The Streams API's operations (operations[] in api.c) */
#define STREAMS_OPERATION(fn, op) \
	void fn(const ApiRequest *r, StringInfo out) { StreamsCall(op, r, out); }

STREAMS_OPERATION(hroe_api_list_streams, "ListStreams")
STREAMS_OPERATION(hroe_api_describe_stream, "DescribeStream")
STREAMS_OPERATION(hroe_api_get_shard_iterator, "GetShardIterator")
STREAMS_OPERATION(hroe_api_get_records, "GetRecords")

/* ---------- StreamSpecification ---------- */

/*
 * Read a CreateTable's or UpdateTable's StreamSpecification (absent: false):
 * *enabled and *view_type (NULL: none) get its members; its constraint
 * violations (StreamEnabled missing, StreamViewType outside its enum set)
 * are added to errs, which the caller reports with the request's others in
 * DynamoDB's order (the shape's: after ProvisionedThroughput and the
 * indexes)
 */
bool
hroe_api_stream_specification(JsonbContainer *req, bool *enabled, char **view_type, List **errs)
{
	Jsonb	   *spec = hroe_api_member_jsonb(req, "StreamSpecification");

	*enabled = false;
	*view_type = NULL;
	if (spec == NULL)
		return false;
	if (!JB_ROOT_IS_OBJECT(spec))
		HroeSerialization("Unexpected value type in payload: StreamSpecification");
	*view_type = hroe_api_member_text(&spec->root, "StreamViewType", "StreamViewType");
	if (hroe_api_member(&spec->root, "StreamEnabled") == NULL)
		*errs = lappend(*errs, hroe_not_null_constraint("streamSpecification.streamEnabled"));
	*enabled = hroe_api_member_bool(&spec->root, "StreamEnabled", false);
	if (*view_type && strcmp(*view_type, "KEYS_ONLY") != 0 && strcmp(*view_type, "NEW_IMAGE") != 0 &&
		strcmp(*view_type, "OLD_IMAGE") != 0 && strcmp(*view_type, "NEW_AND_OLD_IMAGES") != 0)
		*errs = lappend(*errs, psprintf("Value '%s' at 'streamSpecification.streamViewType' failed to satisfy constraint: Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]",
										*view_type));
	return true;
}

/*
 * A StreamSpecification's rules beyond its members' constraints (after
 * those were reported): a view type for an enabled stream, none for a table
 * created with its stream disabled
 */
void
hroe_api_check_stream(bool create, bool enabled, const char *view_type)
{
	if (enabled && view_type == NULL)
		hroe_api_invalid("One or more parameter values were invalid: StreamViewType is required when the stream is enabled");
	if (!enabled && view_type && create)
		hroe_api_invalid("One or more parameter values were invalid: Table is being created with a stream disabled, UpdateViewType should not be specified");
}

/*
 * A distributed table (src/tables/tables_partition.c) has neither a stream nor Time
 * to Live: its writes happen on the partition servers, which the capture
 * trigger does not see in commit order, and Time to Live's deletion walks
 * the heap of one table by ctid (doc/partitioning.md)
 */
void
hroe_api_refuse_distributed(const char *table, const char *feature)
{
	HroeValidation(psprintf("%s are not supported on a table partitioned over servers (hroe.partition_servers): %s",
							feature, table));
}

/* Refuse feature on table if it is distributed */
void
hroe_api_refuse_if_distributed(const char *table, const char *feature)
{
	HroeTableMeta *t = hroe_table_lookup(table, true);

	if (t && t->distributed)
		hroe_api_refuse_distributed(table, feature);
}

/* Enable (view_type) or disable the stream of table */
void
hroe_api_apply_stream(const char *table, bool enabled, const char *view_type)
{
	Oid			types[2] = {TEXTOID, TEXTOID};
	Datum		values[2] = {CStringGetTextDatum(table), TextD(view_type)};
	int			ret;

	if (enabled)
	{
		hroe_api_refuse_if_distributed(table, "Streams");
		ret = SPI_execute_with_args("SELECT hroe.enable_stream($1, $2)", 2, types, values, NULL, false, 1);
	}
	else
		ret = SPI_execute_with_args("SELECT hroe.disable_stream($1)", 1, types, values, NULL, false, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "changing the stream of %s failed: %s", table, SPI_result_code_string(ret));
}

/* A table description with its stream members (jsonb text, from DescribeTable) */
char *
hroe_api_with_stream(const char *table, char *desc)
{
	Oid			types[2] = {JSONBOID, TEXTOID};
	Datum		values[2];
	bool		isnull;
	int			ret;

	values[0] = DirectFunctionCall1(jsonb_in, CStringGetDatum(desc));
	values[1] = CStringGetTextDatum(table);
	ret = SPI_execute_with_args("SELECT $1 OPERATOR(pg_catalog.||) hroe.stream_specification($2)",
								2, types, values, NULL, false, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "describing the stream of %s failed: %s", table, SPI_result_code_string(ret));
	values[0] = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return isnull ? desc : hroe_api_jsonb_text(DatumGetJsonbP(values[0]));
}
