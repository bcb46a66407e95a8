/*-------------------------------------------------------------------------
 *
 * api_internal.h
 *	  The JSON API's files (api.c, api_items.c, api_ddl.c, api_transact.c,
 *	  api_legacy.c)
 *	  share these: reading a request's members (DynamoDB's
 *	  SerializationException for a wrong JSON type), building the response,
 *	  and each operation's translator, which api.c dispatches to.
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_API_INTERNAL_H
#define HROE_API_INTERNAL_H

#include "lib/stringinfo.h"
#include "nodes/pg_list.h"
#include "utils/jsonb.h"

#include "operations.h"

/*
 * One call of the JSON API (api.c), made for one request: the error payload
 * the operations it runs fill (operations.h), and its response when an
 * operation built it as jsonb (hroe_api_set_result)
 */
typedef struct ApiCall
{
	HroeCall	ops;			/* the operations' error payload */
	Jsonb	   *result;			/* the response, when built as jsonb (then
								 * nothing is written as text) */
	bool		refuse_nul;		/* the request holds U+0000 where hroe
								 * cannot keep it: refused once validated */
} ApiCall;

/*
 * One operation's request, as api.c hands it to the operation's translator:
 * the call it runs in, its JSON body, and what the caller (not the body)
 * says of it
 */
typedef struct ApiRequest
{
	ApiCall    *call;
	JsonbContainer *body;		/* the request: a JSON object */
	bool		partiql;		/* a PartiQL statement's (partiql_api.c): a
								 * SELECT's Query takes a lower and an upper
								 * sort key bound as a range, an UPDATE's
								 * UpdateItem measures its finished item
								 * only */
} ApiRequest;

/* Most arguments of a DDL statement (api_ddl.c) */
#define API_MAX_ARGS 13

/* A request's expression parameters, parsed (operations.h) */
typedef HroeRequestExprs ApiExprs;

/* The operations that take legacy (non-expression) parameters (api_legacy.c) */
typedef enum ApiLegacyOp
{
	API_LEGACY_GET,
	API_LEGACY_PUT,
	API_LEGACY_DELETE,
	API_LEGACY_UPDATE,
	API_LEGACY_QUERY,
	API_LEGACY_SCAN
} ApiLegacyOp;
/* A ProvisionedThroughput member of a request (api_billing.c) */
typedef struct ApiThroughput
{
	bool		given;			/* the member is present */
	int64		read;			/* ReadCapacityUnits */
	int64		write;			/* WriteCapacityUnits */
	char	   *over;			/* DynamoDB's error for a value out of bounds */
} ApiThroughput;

/* Datum of a C string, or 0 */
#define TextD(s) ((s) ? CStringGetTextDatum(s) : (Datum) 0)


extern void hroe_api_invalid(const char *msg) pg_attribute_noreturn();
extern void hroe_api_missing(const char *member) pg_attribute_noreturn();
extern JsonbValue *hroe_api_member(JsonbContainer *obj, const char *name);
extern char *hroe_api_member_text(JsonbContainer *obj, const char *name, const char *member);
extern Jsonb *hroe_api_member_jsonb(JsonbContainer *obj, const char *name);
extern bool hroe_api_member_bool(JsonbContainer *obj, const char *name, bool dflt);
extern int32 hroe_api_member_int(JsonbContainer *obj, const char *name, bool *present);
extern int hroe_api_member_array(JsonbContainer *obj, const char *name, JsonbContainer ***elems);
extern char *hroe_api_jsonb_text(Jsonb *j);
extern Jsonb *hroe_api_text_jsonb(const char *text);
extern void hroe_api_parse_exprs(JsonbContainer *req, ApiExprs *e, bool allow_condition, bool allow_update,
		   bool allow_filter, bool allow_projection, bool allow_kce);
extern void hroe_api_parse_request(JsonbContainer *req, ApiExprs *e, ApiLegacyOp op);
extern Jsonb *hroe_api_legacy_batch_get(Jsonb *items);
extern HroeTableMeta *hroe_api_request_table(JsonbContainer *req, char **name);
extern void hroe_api_append_jsonb(StringInfo out, const char *name, Jsonb *j);
extern void hroe_api_append_item(StringInfo out, const char *name, const HroeItem *item);
extern void hroe_api_text_member(StringInfo out, const char *name);
extern void hroe_api_text_int(StringInfo out, const char *name, int64 n);
extern void hroe_api_text_member_jsonb(StringInfo out, const char *name, Jsonb *j);
extern void hroe_api_push_jsonb(JsonbParseState **st, Jsonb *j);
extern void hroe_api_set_result(ApiCall *call, JsonbParseState **st);
extern char *hroe_api_return_cc(JsonbContainer *req);
extern char *hroe_api_checked_return_cc(JsonbContainer *req);
extern void hroe_api_check_item_collection_metrics(JsonbContainer *req);
extern Jsonb *hroe_api_call_operation(const char *op, Jsonb *req);
extern text *hroe_api_call_text(const char *op, const char *body, int len);
extern text *hroe_gateway_run(text *key_id, const char *secret, const char *op,
							  const char *body, int len);
extern char *hroe_access_key_secret(text *key_id);
extern Jsonb *hroe_api_request_from_arg(FunctionCallInfo fcinfo, const char *member);
extern Jsonb *hroe_api_response_member(Jsonb *res, const char *name);
extern void hroe_api_create_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_delete_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_update_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_list_tables(JsonbContainer *req, StringInfo out);
extern void hroe_api_get_item(const ApiRequest *r, StringInfo out);
extern void hroe_api_write(const ApiRequest *r, StringInfo out, HroeWriteKind kind);
extern void hroe_api_read(const ApiRequest *r, StringInfo out, bool query);
extern char *hroe_api_container_text(JsonbValue *v);
extern void hroe_api_batch(const ApiRequest *r, StringInfo out, bool write);
extern void hroe_api_transact_write(const ApiRequest *r, StringInfo out);
extern void hroe_api_transact_get(const ApiRequest *r, StringInfo out);
extern void hroe_api_raise_errors(List *errs);
extern void hroe_api_throughput(JsonbContainer *obj, const char *path, ApiThroughput *tp, List **errs);
extern char *hroe_api_billing_mode(JsonbContainer *req, List **errs);
extern void hroe_api_push_throughput(JsonbParseState **st, const char *index, const ApiThroughput *tp);
/* OnDemandThroughput (api_on_demand.c) */
extern bool hroe_api_has_on_demand(JsonbContainer *obj);
extern void hroe_api_apply_on_demand(JsonbContainer *req, const char *table, bool create);
extern void hroe_api_tag_resource(const ApiRequest *r, StringInfo out);
extern void hroe_api_untag_resource(const ApiRequest *r, StringInfo out);
extern void hroe_api_list_tags_of_resource(const ApiRequest *r, StringInfo out);
extern void hroe_api_put_resource_policy(const ApiRequest *r, StringInfo out);
extern void hroe_api_get_resource_policy(const ApiRequest *r, StringInfo out);
extern void hroe_api_delete_resource_policy(const ApiRequest *r, StringInfo out);
extern void hroe_api_create_table_policy(JsonbContainer *req, const char *table);
extern void hroe_api_validate(const char *op, JsonbContainer *req);
extern Jsonb *hroe_api_run(ApiCall *call, const char *op, Jsonb *req, bool partiql);
extern char *hroe_api_access_denied(const char *op, const char *table);
extern void hroe_api_execute_statement(const ApiRequest *r, StringInfo out);
extern void hroe_api_batch_execute_statement(const ApiRequest *r, StringInfo out);
extern void hroe_api_execute_transaction(const ApiRequest *r, StringInfo out);
extern void hroe_api_list_streams(const ApiRequest *r, StringInfo out);
/* vector indexes and SearchVectors (api_vectors.c) */
extern void hroe_api_vector_index_members(JsonbContainer *req, List **errs);
extern List *hroe_api_vector_keys_used(List *used, JsonbContainer *req);
extern void hroe_api_check_vector_indexes(JsonbContainer *req, bool pay);
extern void hroe_api_create_vector_indexes(const char *table, JsonbContainer *req,
										   JsonbContainer **defs, int ndefs);
extern int	hroe_api_vector_index_actions(JsonbContainer *req);
extern void hroe_api_vector_index_update_members(JsonbContainer *req, List **errs);
extern char *hroe_api_apply_vector_index_updates(const char *table, JsonbContainer *req,
												 JsonbContainer **defs, int ndefs);
extern bool hroe_api_vector_index_building(const char *table);
extern Jsonb *hroe_api_with_vector_indexes(Jsonb *desc, const char *table, const char *status,
										   const char *new_index);
extern void hroe_api_search_vectors(const ApiRequest *r, StringInfo out);
extern void hroe_api_describe_stream(const ApiRequest *r, StringInfo out);
extern void hroe_api_get_shard_iterator(const ApiRequest *r, StringInfo out);
extern void hroe_api_get_records(const ApiRequest *r, StringInfo out);
extern bool hroe_api_stream_specification(JsonbContainer *req, bool *enabled, char **view_type,
										  List **errs);
extern void hroe_api_check_stream(bool create, bool enabled, const char *view_type);
extern void hroe_api_apply_stream(const char *table, bool enabled, const char *view_type);
/* Streams and Time to Live are refused on distributed tables (ValidationException) */
extern void hroe_api_refuse_distributed(const char *table, const char *feature) pg_attribute_noreturn();
extern char *hroe_api_with_stream(const char *table, char *desc);
extern void hroe_api_update_time_to_live(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_time_to_live(JsonbContainer *req, StringInfo out);
/* on-demand backups (api_backup.c) */
extern void hroe_api_create_backup(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_backup(JsonbContainer *req, StringInfo out);
extern void hroe_api_list_backups(JsonbContainer *req, StringInfo out);
extern void hroe_api_delete_backup(JsonbContainer *req, StringInfo out);
extern void hroe_api_restore_table_from_backup(JsonbContainer *req, StringInfo out);
extern Jsonb *hroe_api_restore_overrides(JsonbContainer *req);
extern char *hroe_api_with_restore(const char *table, char *desc);
/* point-in-time recovery (api_pitr.c) */
extern void hroe_api_update_continuous_backups(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_continuous_backups(JsonbContainer *req, StringInfo out);
extern void hroe_api_restore_table_to_point_in_time(JsonbContainer *req, StringInfo out);

/* The table options of CreateTable and UpdateTable (api_settings.c) */
typedef struct ApiTableOptions
{
	char	   *table_class;	/* TableClass, or NULL */
	bool		sse_given;		/* SSESpecification */
	bool		sse_enabled;
	char	   *sse_type;
	char	   *kms_key;		/* KMSMasterKeyId, or NULL */
	bool		warm_given;		/* the table's WarmThroughput */
	int64		warm_read;		/* 0: not given */
	int64		warm_write;
	JsonbParseState *index_warm;	/* {"index": [read, write]} being built */
	int			nindex_warm;
	char	   *over;			/* DynamoDB's error of a value out of bounds */
} ApiTableOptions;
extern void hroe_api_table_options(JsonbContainer *req, ApiTableOptions *o, List **errs);
extern void hroe_api_index_warm_throughput(ApiTableOptions *o, JsonbContainer *gsi,
										   const char *path, List **errs);
extern bool hroe_api_table_options_given(const ApiTableOptions *o);
extern void hroe_api_check_table_options(const ApiTableOptions *o);
extern bool hroe_api_apply_table_options(const char *table, ApiTableOptions *o);
extern void hroe_api_describe_limits(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_endpoints(JsonbContainer *req, StringInfo out);
extern void hroe_api_update_contributor_insights(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_contributor_insights(JsonbContainer *req, StringInfo out);
extern void hroe_api_list_contributor_insights(JsonbContainer *req, StringInfo out);

/* exports and imports (src/transfer/transfer_api.c) */
extern void hroe_api_export_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_export(JsonbContainer *req, StringInfo out);
extern void hroe_api_list_exports(JsonbContainer *req, StringInfo out);
extern void hroe_api_import_table(JsonbContainer *req, StringInfo out);
extern void hroe_api_describe_import(JsonbContainer *req, StringInfo out);
extern void hroe_api_list_imports(JsonbContainer *req, StringInfo out);

#endif							/* HROE_API_INTERNAL_H */
