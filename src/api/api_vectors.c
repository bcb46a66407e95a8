/*-------------------------------------------------------------------------
 *
 * api_vectors.c
 *	  Vector indexes in the JSON API (doc/vectors.md): CreateTable's
 *	  VectorIndexes, UpdateTable's VectorIndexUpdates, DescribeTable's
 *	  VectorIndexes descriptions, and the SearchVectors operation (its
 *	  request, SearchConditionExpression, projections, scores,
 *	  ConsumedCapacity), with DynamoDB's texts.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "common/shortest_dec.h"
#include "executor/spi.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "dynamodb_limits.h"
#include "errors.h"
#include "expression.h"
#include "item.h"
#include "vector_index.h"
#include "vector_search.h"

/* ---------- control plane ---------- */

/* The request-model checks of a VectorIndex at path (e.g. vectorIndexes.1.member), into errs */
static void
CheckVectorIndexMembers(JsonbContainer *vix, const char *path, List **errs)
{
	char	   *name = hroe_api_member_text(vix, "IndexName", "IndexName");
	bool		has_dims;
	int32		dims = hroe_api_member_int(vix, "Dimensions", &has_dims);

	if (name && strlen(name) < HROE_TABLE_NAME_MIN)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s.indexName' failed to satisfy constraint: Member must have length greater than or equal to %d",
										name, path, HROE_TABLE_NAME_MIN));
	if (name && strlen(name) > HROE_TABLE_NAME_MAX)
		*errs = lappend(*errs, psprintf("Value '%s' at '%s.indexName' failed to satisfy constraint: Member must have length less than or equal to %d",
										name, path, HROE_TABLE_NAME_MAX));
	if (has_dims && dims < 1)
		*errs = lappend(*errs, psprintf("Value '%d' at '%s.dimensions' failed to satisfy constraint: Member must have value greater than or equal to 1",
										dims, path));
}

/* The checks of CreateTable's VectorIndexes members (before anything else), into errs */
void
hroe_api_vector_index_members(JsonbContainer *req, List **errs)
{
	JsonbContainer **vixs;
	int			n = hroe_api_member_array(req, "VectorIndexes", &vixs);

	for (int i = 0; i < n; i++)
		CheckVectorIndexMembers(vixs[i], psprintf("vectorIndexes.%d.member", i + 1), errs);
}

/* The attributes of a VectorIndex's SearchSchema, added to used */
static List *
SearchSchemaUsed(List *used, JsonbContainer *vix)
{
	JsonbContainer **elems;
	int			n = hroe_api_member_array(vix, "SearchSchema", &elems);

	for (int i = 0; i < n; i++)
	{
		char	   *a = hroe_api_member_text(elems[i], "AttributeName", "AttributeName");

		if (a && !list_member(used, makeString(a)))
			used = lappend(used, makeString(a));
	}
	return used;
}

/* The attributes CreateTable's VectorIndexes use (their SearchSchemas), added to used */
List *
hroe_api_vector_keys_used(List *used, JsonbContainer *req)
{
	JsonbContainer **vixs;
	int			n = hroe_api_member_array(req, "VectorIndexes", &vixs);

	for (int i = 0; i < n; i++)
		used = SearchSchemaUsed(used, vixs[i]);
	return used;
}

/*
 * CreateTable's checks of its VectorIndexes before the table is made (pay:
 * PAY_PER_REQUEST; the index's own rules are hroe.create_vector_index's)
 */
void
hroe_api_check_vector_indexes(JsonbContainer *req, bool pay)
{
	JsonbContainer **vixs;
	int			n = hroe_api_member_array(req, "VectorIndexes", &vixs);

	if (n > 0 && !pay)
		hroe_api_invalid("One or more parameter values were invalid: Vector indexes are only supported for PAY_PER_REQUEST tables");
	if (n > HROE_MAX_VECTOR_INDEXES)
		hroe_api_invalid(psprintf("One or more parameter values were invalid: VectorIndex count exceeds the per-table limit of %d",
								  HROE_MAX_VECTOR_INDEXES));
}

/* AttributeDefinitions as a JSON object of name to type */
static Jsonb *
DefinitionsObject(JsonbContainer **defs, int ndefs)
{
	JsonbParseState *st = NULL;
	JsonbValue	k,
				v;

	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < ndefs; i++)
	{
		char	   *name = hroe_api_member_text(defs[i], "AttributeName", "AttributeName");
		char	   *type = hroe_api_member_text(defs[i], "AttributeType", "AttributeType");

		if (name == NULL || type == NULL)
			continue;
		k.type = jbvString;
		k.val.string.val = name;
		k.val.string.len = strlen(name);
		v.type = jbvString;
		v.val.string.val = type;
		v.val.string.len = strlen(type);
		pushJsonbValue(&st, WJB_KEY, &k);
		pushJsonbValue(&st, WJB_VALUE, &v);
	}
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}

/* A text[] of a JSON array of strings member (NULL if absent) */
static Datum
StringArray(JsonbContainer *obj, const char *member, bool *isnull)
{
	JsonbContainer **elems;
	JsonbValue *m = hroe_api_member(obj, member);
	Datum	   *d;
	int			n;
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;

	*isnull = true;
	(void) elems;
	if (m == NULL || m->type != jbvBinary || !JsonContainerIsArray(m->val.binary.data))
		return (Datum) 0;
	n = JsonContainerSize(m->val.binary.data);
	d = palloc(sizeof(Datum) * Max(n, 1));
	n = 0;
	it = JsonbIteratorInit(m->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
		if (tok == WJB_ELEM)
		{
			if (v.type != jbvString)
				HroeSerialization(psprintf("Unexpected value type in payload: %s", member));
			d[n++] = PointerGetDatum(cstring_to_text_with_len(v.val.string.val, v.val.string.len));
		}
	*isnull = false;
	return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

/* Create one VectorIndex of a request on table (online: by UpdateTable) */
static void
CreateVectorIndex(const char *table, JsonbContainer *vix, JsonbContainer **defs, int ndefs, bool online)
{
	char	   *name = hroe_api_member_text(vix, "IndexName", "IndexName");
	JsonbValue *va = hroe_api_member(vix, "VectorAttribute");
	char	   *attr = NULL;
	bool		has_dims;
	int32		dims = hroe_api_member_int(vix, "Dimensions", &has_dims);
	char	   *dist = hroe_api_member_text(vix, "DistanceFunction", "DistanceFunction");
	JsonbValue *proj = hroe_api_member(vix, "Projection");
	char	   *ptype = "ALL";
	Jsonb	   *schema = hroe_api_member_jsonb(vix, "SearchSchema");
	Datum		v[10];
	char		nulls[11] = "          ";
	Oid			types[10] = {TEXTOID, TEXTOID, TEXTOID, INT4OID, TEXTOID, TEXTOID, TEXTARRAYOID,
	JSONBOID, JSONBOID, BOOLOID};
	bool		isnull;

	if (name == NULL)
		hroe_api_missing("vectorIndexes.1.member.indexName");
	if (va && va->type == jbvBinary && JsonContainerIsObject(va->val.binary.data))
		attr = hroe_api_member_text(va->val.binary.data, "AttributeName", "AttributeName");
	if (attr == NULL)
		hroe_api_missing("vectorIndexes.1.member.vectorAttribute.attributeName");
	if (!has_dims)
		hroe_api_missing("vectorIndexes.1.member.dimensions");
	if (proj && proj->type == jbvBinary && JsonContainerIsObject(proj->val.binary.data))
	{
		char	   *t = hroe_api_member_text(proj->val.binary.data, "ProjectionType", "ProjectionType");

		if (t)
			ptype = t;
		v[6] = StringArray(proj->val.binary.data, "NonKeyAttributes", &isnull);
		if (isnull)
			nulls[6] = 'n';
	}
	else
		nulls[6] = 'n';
	v[0] = CStringGetTextDatum(table);
	v[1] = CStringGetTextDatum(name);
	v[2] = CStringGetTextDatum(attr);
	v[3] = Int32GetDatum(dims);
	v[4] = dist ? CStringGetTextDatum(dist) : (nulls[4] = 'n', (Datum) 0);
	v[5] = CStringGetTextDatum(ptype);
	v[7] = schema ? JsonbPGetDatum(schema) : (nulls[7] = 'n', (Datum) 0);
	v[8] = JsonbPGetDatum(DefinitionsObject(defs, ndefs));
	v[9] = BoolGetDatum(online);
	if (SPI_execute_with_args("SELECT hroe.create_vector_index($1, $2, $3, $4, $5, $6, $7, "
							  "coalesce($8, '[]'), $9, $10)",
							  10, types, v, nulls, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "hroe.create_vector_index failed");
}

/* CreateTable: its VectorIndexes, once the table and its settings are made */
void
hroe_api_create_vector_indexes(const char *table, JsonbContainer *req, JsonbContainer **defs, int ndefs)
{
	JsonbContainer **vixs;
	int			n = hroe_api_member_array(req, "VectorIndexes", &vixs);

	for (int i = 0; i < n; i++)
		CreateVectorIndex(table, vixs[i], defs, ndefs, false);
}

/* Object member name of obj, or NULL */
static JsonbContainer *
ObjectMember(JsonbContainer *obj, const char *name)
{
	JsonbValue *m = hroe_api_member(obj, name);

	if (m == NULL || m->type == jbvNull)
		return NULL;
	if (m->type != jbvBinary || !JsonContainerIsObject(m->val.binary.data))
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return m->val.binary.data;
}

/* UpdateTable: the online index actions of its VectorIndexUpdates */
int
hroe_api_vector_index_actions(JsonbContainer *req)
{
	JsonbContainer **ups;
	int			n = hroe_api_member_array(req, "VectorIndexUpdates", &ups);
	int			actions = 0;

	for (int i = 0; i < n; i++)
	{
		JsonbContainer *c = ObjectMember(ups[i], "Create");
		JsonbContainer *d = ObjectMember(ups[i], "Delete");

		if (c == NULL && d == NULL)
			hroe_api_invalid("One or more parameter values were invalid: One of VectorIndexUpdate.Create, VectorIndexUpdate.Delete must not be null");
		actions++;
	}
	return actions;
}

/* UpdateTable: the checks of its VectorIndexUpdates' members, into errs */
void
hroe_api_vector_index_update_members(JsonbContainer *req, List **errs)
{
	JsonbContainer **ups;
	int			n = hroe_api_member_array(req, "VectorIndexUpdates", &ups);

	for (int i = 0; i < n; i++)
	{
		JsonbContainer *c = ObjectMember(ups[i], "Create");

		if (c)
			CheckVectorIndexMembers(c, psprintf("vectorIndexUpdates.%d.member.create", i + 1), errs);
	}
}

/* UpdateTable: apply its VectorIndexUpdates; the index created, or NULL */
char *
hroe_api_apply_vector_index_updates(const char *table, JsonbContainer *req, JsonbContainer **defs, int ndefs)
{
	JsonbContainer **ups;
	int			n = hroe_api_member_array(req, "VectorIndexUpdates", &ups);
	char	   *created = NULL;

	for (int i = 0; i < n; i++)
	{
		JsonbContainer *c = ObjectMember(ups[i], "Create");
		JsonbContainer *d = ObjectMember(ups[i], "Delete");

		if (c)
		{
			CreateVectorIndex(table, c, defs, ndefs, true);
			created = hroe_api_member_text(c, "IndexName", "IndexName");
		}
		else if (d)
		{
			char	   *name = hroe_api_member_text(d, "IndexName", "IndexName");
			Datum		v[2];
			Oid			types[2] = {TEXTOID, TEXTOID};

			if (name == NULL)
				hroe_api_missing(psprintf("vectorIndexUpdates.%d.member.delete.indexName", i + 1));
			v[0] = CStringGetTextDatum(table);
			v[1] = CStringGetTextDatum(name);
			if (SPI_execute_with_args("SELECT hroe.delete_vector_index($1, $2)", 2, types, v, NULL,
									  false, 0) != SPI_OK_SELECT)
				elog(ERROR, "hroe.delete_vector_index failed");
		}
	}
	return created;
}

/*
 * UpdateTable: true if one of table's vector indexes is being built (its
 * online index action not done yet)
 */
bool
hroe_api_vector_index_building(const char *table)
{
	Datum		v[1] = {CStringGetTextDatum(table)};
	Oid			types[1] = {TEXTOID};

	if (SPI_execute_with_args("SELECT FROM hroe.vector_indexes WHERE table_name OPERATOR(pg_catalog.=) $1 "
							  "AND status OPERATOR(pg_catalog.<>) 'ACTIVE'",
							  1, types, v, NULL, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "reading hroe.vector_indexes failed");
	return SPI_processed > 0;
}

/*
 * A TableDescription desc with the table's VectorIndexes: IndexStatus
 * status for them all (NULL: as described, the table UPDATING while one is
 * built), or for new_index alone, which also shows Backfilling false
 * (UpdateTable's answer)
 */
Jsonb *
hroe_api_with_vector_indexes(Jsonb *desc, const char *table, const char *status, const char *new_index)
{
	Datum		v[4];
	char		nulls[4] = "    ";
	Oid			types[4] = {JSONBOID, TEXTOID, TEXTOID, TEXTOID};
	bool		isnull;
	Datum		d;

	v[0] = JsonbPGetDatum(desc);
	v[1] = CStringGetTextDatum(table);
	v[2] = status ? CStringGetTextDatum(status) : (nulls[2] = 'n', (Datum) 0);
	v[3] = new_index ? CStringGetTextDatum(new_index) : (nulls[3] = 'n', (Datum) 0);
	/* (not read-only: the statement's snapshot misses the DDL just done) */
	/*
	 * VectorIndexes, and AttributeDefinitions with the SearchSchemas'
	 * attributes, in the order CreateTable's request gave them
	 */
	if (SPI_execute_with_args("SELECT CASE WHEN x IS NULL THEN $1 ELSE $1 OPERATOR(pg_catalog.||) "
							  "pg_catalog.jsonb_build_object('VectorIndexes', "
							  "(SELECT pg_catalog.jsonb_agg(CASE WHEN $3 IS NULL THEN e "
							  " WHEN $4 IS NULL THEN e OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('IndexStatus', $3) "
							  " WHEN e->>'IndexName' OPERATOR(pg_catalog.=) $4 THEN e OPERATOR(pg_catalog.||) "
							  "   pg_catalog.jsonb_build_object('IndexStatus', $3, 'Backfilling', false) "
							  " ELSE e END ORDER BY o) "
							  " FROM pg_catalog.jsonb_array_elements(x) WITH ORDINALITY a(e, o)), "
							  "'AttributeDefinitions', "
							  "(SELECT pg_catalog.jsonb_agg(d ORDER BY pg_catalog.array_position(t.attribute_order, d->>'AttributeName'), "
							  "   d->>'AttributeName') "
							  " FROM (SELECT d FROM pg_catalog.jsonb_array_elements($1->'AttributeDefinitions') d "
							  "       UNION SELECT pg_catalog.jsonb_build_object('AttributeName', u.a, 'AttributeType', u.ty) "
							  "       FROM hroe.vector_indexes v, ROWS FROM (pg_catalog.unnest(v.search_attributes), pg_catalog.unnest(v.search_attribute_types)) u(a, ty) "
							  "       WHERE v.table_name OPERATOR(pg_catalog.=) $2 AND NOT EXISTS "
							  "        (SELECT FROM pg_catalog.jsonb_array_elements($1->'AttributeDefinitions') e "
							  "         WHERE e->>'AttributeName' OPERATOR(pg_catalog.=) u.a)) s(d))) END "
							  /* DescribeTable: the table UPDATING while an index is built */
							  "OPERATOR(pg_catalog.||) CASE WHEN $3 IS NULL AND $1->>'TableStatus' OPERATOR(pg_catalog.=) 'ACTIVE' "
							  " AND EXISTS (SELECT FROM hroe.vector_indexes b WHERE b.table_name OPERATOR(pg_catalog.=) $2 "
							  "             AND b.status OPERATOR(pg_catalog.<>) 'ACTIVE') "
							  " THEN pg_catalog.jsonb_build_object('TableStatus', 'UPDATING') ELSE '{}'::pg_catalog.jsonb END "
							  "FROM hroe.vector_index_descriptions($2) x, hroe.tables t WHERE t.table_name OPERATOR(pg_catalog.=) $2",
							  4, types, v, nulls, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "describing the vector indexes of %s failed", table);
	d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	return isnull ? desc : DatumGetJsonbP(datumCopy(d, false, -1));
}

/* ---------- SearchVectors ---------- */

#define INVALID_SEARCH_VECTOR \
	"Search vector contains invalid values. All values in the search vector must be a 32-bit floating-point number attribute"

/* The SearchVector member as floats; *n their count */
static float4 *
SearchVector(JsonbContainer *req, int *n)
{
	JsonbContainer **elems;
	int			count;
	float4	   *q;

	if (hroe_api_member(req, "SearchVector") == NULL)
		hroe_api_missing("searchVector");
	count = hroe_api_member_array(req, "SearchVector", &elems);
	q = palloc(sizeof(float4) * Max(count, 1));
	for (int i = 0; i < count; i++)
	{
		char	   *num = hroe_api_member_text(elems[i], "N", "N");
		int			members = JsonContainerSize(elems[i]);

		if (num == NULL || members != 1 || !hroe_vector_number(num, strlen(num), &q[i]))
			hroe_api_invalid(INVALID_SEARCH_VECTOR);
	}
	*n = count;
	return q;
}

/*
 * The SearchConditionExpression's equalities as a value per SearchSchema
 * element (type 0: none), with DynamoDB's texts
 */
static void
SearchCondition(HroeExprNode *n, HroeVectorIndex *vx, HroeValue *filters)
{
	HroeExprNode *path,
			   *value;
	HroePathElem *pe;
	int			e;

	if (n->kind == HROE_EXPR_AND)
	{
		ListCell   *lc;

		foreach(lc, n->args)
			SearchCondition(lfirst(lc), vx, filters);
		return;
	}
	if (n->kind != HROE_EXPR_COMPARE || n->op != HROE_CMP_EQ)
		hroe_api_invalid("Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression");
	path = linitial(n->args);
	value = lsecond(n->args);
	if (path->kind == HROE_EXPR_VALUE && value->kind == HROE_EXPR_PATH)
	{
		HroeExprNode *t = path;

		path = value;
		value = t;
	}
	if (path->kind != HROE_EXPR_PATH || value->kind != HROE_EXPR_VALUE)
		hroe_api_invalid("Invalid SearchConditionExpression: A condition must compare an attribute of the SearchSchema with a value");
	pe = linitial(path->path);
	if (list_length(path->path) != 1 || pe->is_index)
		hroe_api_invalid(psprintf("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: %s",
								  hroe_path_text(path->path)));
	for (e = 0; e < vx->nsearch; e++)
		if (hroe_name_is(pe->name, pe->namelen, vx->search_attrs[e]))
			break;
	if (e == vx->nsearch)
		hroe_api_invalid(psprintf("SearchConditionExpression must not contain any attributes that is not in SearchSchema. Invalid attribute: %s",
								  pnstrdup(pe->name, pe->namelen)));
	if (filters[e].type != 0)
		hroe_api_invalid(psprintf("Invalid SearchConditionExpression: Attribute %s is compared more than once",
								  vx->search_attrs[e]));
	filters[e] = *value->value->hv;
}

/* The comparators of a condition, checked before its attributes */
static void
CheckComparators(HroeExprNode *n)
{
	if (n->kind == HROE_EXPR_AND)
	{
		ListCell   *lc;

		foreach(lc, n->args)
			CheckComparators(lfirst(lc));
		return;
	}
	if (n->kind != HROE_EXPR_COMPARE || n->op != HROE_CMP_EQ)
		hroe_api_invalid("Invalid SearchConditionExpression: Invalid comparator used in SearchConditionExpression");
}

/* A float as the shortest decimal naming it */
static void
AppendFloat(StringInfo out, float4 f)
{
	char		buf[32];

	float_to_shortest_decimal_buf(f, buf);
	appendStringInfoString(out, buf);
}

/* The item as the index projects it, the vector attribute left out */
static HroeItem *
IndexProjection(HroeTableMeta *t, HroeVectorIndex *vx, HroeItem *item, float4 *vec, bool with_vector)
{
	HroeValue	root;
	HroeBuilder *b = hroe_builder_start();

	hroe_item_root(item, &root);
	for (uint32 i = 0; i < hroe_value_count(&root); i++)
	{
		const char *name;
		uint32		len;
		HroeValue	v;
		bool		keep;

		hroe_map_entry(&root, i, &name, &len, &v);
		if (hroe_name_is(name, len, vx->attribute))
			continue;
		keep = strcmp(vx->projection, "ALL") == 0;
		for (int e = 0; !keep && e < t->schema.nhash + t->schema.nrange; e++)
			keep = hroe_name_is(name, len, t->schema.names[e]);
		for (int e = 0; !keep && e < vx->nsearch; e++)
			keep = hroe_name_is(name, len, vx->search_attrs[e]);
		for (int e = 0; !keep && e < vx->nnonkey; e++)
			keep = hroe_name_is(name, len, vx->nonkey[e]);
		if (keep)
			hroe_builder_add(b, name, len, &v);
	}
	if (with_vector)
	{
		/* the index's own f32 copy, each float as its shortest decimal */
		HroeValue  *elems = palloc(sizeof(HroeValue) * vx->dims);
		HroeValue	list;

		for (int i = 0; i < vx->dims; i++)
		{
			char		buf[32];

			float_to_shortest_decimal_buf(vec[i], buf);
			hroe_make_number(buf, strlen(buf), &elems[i]);
		}
		hroe_make_list(elems, vx->dims, &list);
		hroe_builder_add(b, vx->attribute, strlen(vx->attribute), &list);
	}
	return hroe_builder_finish(b);
}

/* SearchVectors */
void
hroe_api_search_vectors(const ApiRequest *r, StringInfo out)
{
	JsonbContainer *req = r->body;
	char	   *table = hroe_api_member_text(req, "TableName", "TableName");
	char	   *index = hroe_api_member_text(req, "IndexName", "IndexName");
	char	   *cond = hroe_api_member_text(req, "SearchConditionExpression", "SearchConditionExpression");
	char	   *proj = hroe_api_member_text(req, "ProjectionExpression", "ProjectionExpression");
	char	   *rcc = hroe_api_checked_return_cc(req);
	bool		has_k;
	int32		k = hroe_api_member_int(req, "TopK", &has_k);
	List	   *errs = NIL;
	HroeTableMeta *t;
	HroeVectorIndex *vx;
	float4	   *q;
	int			nq;
	HroeExprContext *cxt;
	HroeExprNode *condition = NULL;
	List	   *paths = NIL;
	HroeValue  *filters;
	HroeVectorHit *hits;
	int			n;
	bool		vector_projected = false;

	if (index && strlen(index) < HROE_TABLE_NAME_MIN)
		errs = lappend(errs, psprintf("Value '%s' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to %d",
									  index, HROE_TABLE_NAME_MIN));
	if (has_k && k < 1)
		errs = lappend(errs, psprintf("Value '%d' at 'topK' failed to satisfy constraint: Member must have value greater than or equal to 1",
									  k));
	hroe_api_raise_errors(errs);
	if (index == NULL)
		hroe_api_missing("indexName");
	if (!has_k)
		hroe_api_missing("topK");
	t = hroe_api_request_table(req, &table);
	vx = hroe_vector_index_lookup(t->name, index);
	if (vx == NULL)
		hroe_api_invalid(psprintf("The table does not have the specified index: %s", index));
	/* not yet built (UpdateTable's background build): DynamoDB's texts */
	hroe_vector_index_check_searchable(t->name, index);
	if (k > HROE_VECTOR_TOP_K_MAX)
		hroe_api_invalid(psprintf("Provided TopK value '%d' is out of valid range. The value must be between 1 and %d inclusive",
								  k, HROE_VECTOR_TOP_K_MAX));
	q = SearchVector(req, &nq);
	if (nq != vx->dims)
		hroe_api_invalid(psprintf("Input search vector dimension %d does not match vector index dimension %d",
								  nq, vx->dims));

	cxt = hroe_expr_context_create(hroe_api_member_jsonb(req, "ExpressionAttributeNames"),
								   hroe_api_member_jsonb(req, "ExpressionAttributeValues"));
	if (cond)
		condition = hroe_expr_parse(cxt, "SearchConditionExpression", cond);
	if (proj)
		paths = hroe_projection_parse(cxt, proj);
	hroe_expr_check_unused(cxt);
	filters = palloc0(sizeof(HroeValue) * Max(vx->nsearch, 1));
	if (condition)
	{
		CheckComparators(condition);
		SearchCondition(condition, vx, filters);
	}
	if (vx->nsearch > 0 && vx->search_hash[0] && filters[0].type == 0)
		hroe_api_invalid("SearchConditionExpression must be provided when SearchSchema has a HASH key");
	if (paths)
	{
		ListCell   *lc;

		foreach(lc, paths)
		{
			List	   *path = lfirst(lc);
			HroePathElem *pe = linitial(path);

			if (hroe_name_is(pe->name, pe->namelen, vx->attribute))
				vector_projected = true;
		}
	}

	hits = palloc(sizeof(HroeVectorHit) * k);
	n = hroe_vector_search(t, vx, q, k, filters, hits);
	appendStringInfoString(out, ",\"SearchResults\":[");
	for (int i = 0; i < n; i++)
	{
		HroeItem   *item;
		float4	   *vec = NULL;

		if (vector_projected)
		{
			HroeValue	root,
						v;
			int			bad;
			HroeType	bad_type;

			vec = palloc(sizeof(float4) * vx->dims);
			hroe_item_root(hits[i].item, &root);
			if (!hroe_map_find(&root, vx->attribute, strlen(vx->attribute), &v) ||
				hroe_vector_from_value(&v, vx->dims, vec, &bad, &bad_type) != VECTOR_OK)
				elog(ERROR, "an item of vector index %s has no vector", vx->name);
		}
		item = IndexProjection(t, vx, hits[i].item, vec, vector_projected);
		if (paths)
			item = hroe_project(paths, item);
		appendStringInfoString(out, i ? ",{\"Item\":" : "{\"Item\":");
		hroe_item_write(out, item);
		appendStringInfoString(out, ",\"Score\":");
		AppendFloat(out, hits[i].score);
		appendStringInfoChar(out, '}');
	}
	appendStringInfoChar(out, ']');
	if (strcmp(rcc, "NONE") != 0)
		appendStringInfo(out, ",\"ConsumedCapacity\":{\"VectorSearchRequestBytes\":%d}",
						 (int) TYPEALIGN(HROE_VECTOR_BYTES_UNIT, (Size) vx->dims * sizeof(float4)));
}
