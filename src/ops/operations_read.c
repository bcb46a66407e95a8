/*-------------------------------------------------------------------------
 *
 * operations_read.c
 *	  Query and Scan with paging (doc/dynamodb-rules.md#paging, #capacity): the key
 *	  condition turned into equality and range quals on the key columns of
 *	  the table's primary key or of the GSI's btree index, ordered like the
 *	  index, so PostgreSQL runs an index range scan without a sort; paging
 *	  resumes with a row comparison on (index sort key..., table key...),
 *	  which is an index condition too.  Filters, projections, Select,
 *	  Limit, the 1 MB page, parallel Scan segments, capacity.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "commands/explain.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "miscadmin.h"
#include "utils/plancache.h"
#include "utils/resowner.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "catalog.h"
#include "contributor_insights.h"
#include "direct_write.h"
#include "key.h"
#include "operations_internal.h"
#include "remote_read.h"
#include "throttle.h"
#include "vector_search.h"

/* ---------- Query and Scan ---------- */

typedef struct ReadSpec
{
	HroeTableMeta *t;
	HroeIndexMeta *ix;			/* NULL: the table */
	bool		is_query;
	HroeBoundKeyCondition bound;	/* Query */
	bool		forward;
	bool		consistent;
	int64		limit;			/* items to evaluate, 0: no limit */
	bool		paged;			/* stop at 1 MB read */
	Jsonb	   *esk;			/* ExclusiveStartKey or NULL */
	bool		count_only;		/* Select COUNT */
	bool		project;		/* return the index entry, not the item */
	int			segment;		/* parallel Scan: this segment ... */
	int			total_segments; /* ... of these (0: no segments) */
	HroeExprNode *filter;		/* FilterExpression or NULL */
	List	   *projection;		/* ProjectionExpression paths or NIL */
} ReadSpec;

typedef struct ReadOutcome
{
	int64		scanned;
	int64		count;			/* items the FilterExpression kept */
	int64		bytes;
	int64		fetch_bytes;	/* LSI: items fetched from the table, per 4 KB */
	bool		stopped;		/* by Limit or the 1 MB page */
	HroeItem   *last;
} ReadOutcome;

typedef void (*EmitItem) (void *arg, HroeItem *item);

/*
 * One item read: the GSI's projection, then the FilterExpression (Count is
 * after it, ScannedCount before), then the ProjectionExpression; emitted
 * unless Select is COUNT.
 */
static void
EmitRead(ReadSpec *s, EmitItem emit, void *arg, HroeItem *item, ReadOutcome *out)
{
	if (s->ix && s->project)
		item = hroe_index_project(s->t, s->ix, item);
	if (s->filter && !hroe_expr_eval(s->filter, item))
		return;
	out->count++;
	if (s->count_only)
		return;
	if (s->projection)
		item = hroe_project(s->projection, item);
	emit(arg, item);
}

/*
 * Count an item read: its size (the index entry's on an index); an LSI
 * returning attributes it does not project fetches the item from the table,
 * each a read of its own (rounded to 4 KB)
 */
static void
CountRead(ReadSpec *s, HroeItem *item, ReadOutcome *out)
{
	bool		present;

	out->scanned++;
	/* each item read counts its key (the index's on an index) */
	hroe_contributor_insights_item(s->t, s->ix, item, false, false);
	if (s->ix == NULL)
	{
		out->bytes += hroe_item_size(item);
		return;
	}
	out->bytes += hroe_index_entry_size(s->t, s->ix, item, &present);
	if (s->ix->local && !s->project && s->ix->projection != HROE_PROJECT_ALL && !s->count_only)
		out->fetch_bytes += hroe_rcu_count(hroe_item_size(item)) * HROE_RCU_BYTES;
}

/* A column of the ordering: its name, key attribute and type */
typedef struct OrderCol
{
	const char *column;
	const char *attr;
	char		type;
	bool		form;			/* holds partition keys' index forms */
} OrderCol;

/*
 * Does the i-th HASH key column of the table (ix NULL: pk) or of GSI ix
 * hold index forms (tables.h, HROE_KEY_FORM_MAX)?
 */
static inline bool
HashForm(HroeIndexMeta *ix, int i)
{
	return ix ? ix->forms[i] : true;
}

/*
 * The successor of a UTF-8 prefix: the smallest string above all its
 * extensions (hroe_utf8_prefix_successor, as hroe.key's begins_with)
 */
static bool
StringSuccessor(const char *p, int len, StringInfo out)
{
	unsigned char buf[4];
	int			buflen;
	int			start = hroe_utf8_prefix_successor(p, len, buf, &buflen);

	if (start < 0)
		return false;
	resetStringInfo(out);
	appendBinaryStringInfo(out, p, start);
	appendBinaryStringInfo(out, (char *) buf, buflen);
	return true;
}

/* The successor of a byte prefix: drop trailing 0xFF, increment the last byte */
static bool
BytesSuccessor(const char *p, int len, StringInfo out)
{
	while (len > 0 && (unsigned char) p[len - 1] == 0xFF)
		len--;
	if (len == 0)
		return false;
	resetStringInfo(out);
	appendBinaryStringInfo(out, p, len);
	out->data[len - 1]++;
	return true;
}

/* Does value v satisfy the range condition c (for ExclusiveStartKey)? */
static bool
RangeMatches(const HroeKeyCond *c, const HroeAttrValue *v)
{
	int			cmp = hroe_attr_value_compare(v, c->values[0]);

	switch (c->op)
	{
		case HROE_KEY_EQ:
			return cmp == 0;
		case HROE_KEY_LT:
			return cmp < 0;
		case HROE_KEY_LE:
			return cmp <= 0;
		case HROE_KEY_GT:
			return cmp > 0;
		case HROE_KEY_GE:
			return cmp >= 0;
		case HROE_KEY_BETWEEN:
			{
				int			cmp_hi = hroe_attr_value_compare(v, c->values[1]);

				return (c->exclusive[0] ? cmp > 0 : cmp >= 0) &&
					(c->exclusive[1] ? cmp_hi < 0 : cmp_hi <= 0);
			}
		case HROE_KEY_BEGINS_WITH:
			return v->len >= c->values[0]->len &&
				memcmp(v->data, c->values[0]->data, c->values[0]->len) == 0;
	}
	return false;
}

/*
 * Validate an ExclusiveStartKey: exactly the table's and the index's key
 * attributes (E24), right types, within the queried partition (E25); vals[]
 * gets the values in KeyNames order.
 */
static void
CheckStartKey(ReadSpec *s, const char **names, int n, HroeAttrValue **vals)
{
	Jsonb	   *esk = s->esk;

	if (!JB_ROOT_IS_OBJECT(esk) || JB_ROOT_IS_SCALAR(esk) || JB_ROOT_COUNT(esk) != n)
		HroeValidation(HROE_MSG_START_KEY_INVALID);
	for (int i = 0; i < n; i++)
	{
		JsonbValue	k;
		JsonbValue *v;
		const char *err;
		char		type = 0;
		bool		sort = false;

		k.type = jbvString;
		k.val.string.val = (char *) names[i];
		k.val.string.len = strlen(names[i]);
		v = findJsonbValueFromContainer(&esk->root, JB_FOBJECT, &k);
		/* as many attributes, but not the key's: the schema's text too */
		if (v == NULL)
			HroeValidation(HROE_MSG_START_KEY_INVALID ": " HROE_MSG_KEY_SCHEMA);
		if (v->type != jbvBinary)
			HroeValidation("The provided starting key is invalid: Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
		vals[i] = hroe_attr_value_from_jsonb(JsonbValueToJsonb(v), &err);
		if (vals[i] == NULL)
			HroeValidation(psprintf("The provided starting key is invalid: %s", err));
		for (int j = 0; j < s->t->schema.nhash + s->t->schema.nrange; j++)
			if (strcmp(s->t->schema.names[j], names[i]) == 0)
				type = s->t->schema.types[j], sort = j > 0;
		if (s->ix)
			for (int j = 0; j < s->ix->schema.nhash + s->ix->schema.nrange; j++)
				if (strcmp(s->ix->schema.names[j], names[i]) == 0)
					type = s->ix->schema.types[j], sort = j >= s->ix->schema.nhash;
		if (vals[i]->type[0] != type || vals[i]->type[1] != '\0')
			HroeValidation(HROE_MSG_KEY_SCHEMA);
		if (vals[i]->len == 0 && type != 'N')
			HroeValidation(psprintf(HROE_MSG_EMPTY_START_KEY, HROE_EMPTY_KEY_TYPE(type)));
		if ((!sort && vals[i]->len > HROE_HASH_KEY_MAX) ||
			(sort && vals[i]->len > HROE_RANGE_KEY_MAX))
			HroeValidation("The provided starting key is invalid: One or more parameter values were invalid: key size exceeds the maximum size limit");
	}
	if (s->is_query)
	{
		const HroeKeySchema *ks = s->bound.schema;

		for (int k = 0; k < ks->nhash + s->bound.nrange_eq; k++)
		{
			HroeAttrValue *want = k < ks->nhash ? s->bound.hash[k] : s->bound.range_eq[k - ks->nhash];

			for (int i = 0; i < n; i++)
				if (strcmp(names[i], ks->names[k]) == 0 &&
					hroe_attr_value_compare(vals[i], want) != 0)
					HroeValidation("The provided starting key is outside query boundaries based on provided conditions");
		}
		if (s->bound.range_last)
			for (int i = 0; i < n; i++)
				if (hroe_name_is(s->bound.range_last->attr, s->bound.range_last->attrlen, names[i]) &&
					!RangeMatches(s->bound.range_last, vals[i]))
					HroeValidation("The provided starting key does not match the range key predicate");
	}
}

/* The SQL statement of a Query or Scan, its parameters and plan shape */
typedef struct ReadStatement
{
	StringInfoData sql;
	StringInfoData shape;
	Datum		values[HROE_READ_MAX_PARAMS];
	Oid			types[HROE_READ_MAX_PARAMS];
	int			np;
	List	   *parts;			/* a distributed table's partitions read by
								 * name (hroe_table_read_partitions), or NIL */
	int			pk_param;		/* the parameter of a Query's pk = $n, or 0 */
	/* partitions named: what hroe's own read path (remote_read.c) sends */
	char	   *conds;			/* the conditions, " AND ..." */
	char	   *orderby;		/* the ORDER BY list, or "" */
	int			norder;
	const char *ordercols[HROE_MAX_KEY_ATTRS + 2];
	char		ordertypes[HROE_MAX_KEY_ATTRS + 2];
	int64		pushed;			/* each partition's LIMIT */
	int			part;			/* the one partition read, or -1: all */
} ReadStatement;

/*
 * A distributed table's partitions as a read sees them, looked up once per
 * call (its table opened once, not at every chunk; BuildRead)
 */
typedef struct ReadParts
{
	bool		known;			/* looked up */
	List	   *names;			/* hroe_table_read_partitions', or NIL */
	Oid		   *oids;			/* their foreign tables, in the same order */
	int			key_part;		/* a Query's partition of its pk, -1 until
								 * looked up */
} ReadParts;

#define READ_PARTS_INIT {false, NIL, NULL, -1}

/* Add a parameter of type and value to the statement: its number */
static int
AddParam(ReadStatement *st, Oid type, Datum value)
{
	if (st->np >= HROE_READ_MAX_PARAMS)
		elog(ERROR, "a read statement of more than %d parameters", HROE_READ_MAX_PARAMS);
	st->types[st->np] = type;
	st->values[st->np] = value;
	return ++st->np;
}

/*
 * The columns of the read's order, in order[] (their number returned): an
 * index's key columns (each IS NOT NULL, for a partial index's implication)
 * then the table's, or the table's; a Query's fixed partition key left out
 */
static int
ReadOrder(ReadSpec *s, ReadStatement *st, OrderCol *order)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	int			norder = 0;

	if (ix)
	{
		int			nk = ix->schema.nhash + ix->schema.nrange;

		for (int i = 0; i < nk; i++)
		{
			appendStringInfo(&st->sql, " AND %s IS NOT NULL", quote_identifier(ix->columns[i]));
			if (!s->is_query || i >= ix->schema.nhash)
			{
				order[norder].column = quote_identifier(ix->columns[i]);
				order[norder].attr = ix->schema.names[i];
				order[norder].form = i < ix->schema.nhash && ix->forms[i];
				order[norder++].type = ix->schema.types[i];
			}
		}
	}
	for (int i = (s->is_query && !ix) ? 1 : 0; i < t->schema.nhash + t->schema.nrange; i++)
	{
		order[norder].column = i == 0 ? "pk" : "sk";
		order[norder].attr = t->schema.names[i];
		order[norder].form = i == 0;
		order[norder++].type = t->schema.types[i];
	}
	return norder;
}

/*
 * A Query's last sort key condition on column col (the key attribute c of
 * ks): a comparison, BETWEEN, or begins_with as the range of the prefix and
 * its successor
 */
static void
QueryRangeBound(ReadStatement *st, const HroeKeySchema *ks, int c, const char *col,
				HroeKeyCond *last)
{
	Oid			type = hroe_key_type_oid(ks->types[c]);
	static const char *const ops[] = {"=", "<", "<=", ">", ">="};
	int			np;

	if (last->op <= HROE_KEY_GE)
	{
		np = AddParam(st, type, hroe_attr_value_datum(last->values[0], false));
		appendStringInfo(&st->sql, " AND %s %s $%d", col, ops[last->op], np);
	}
	else if (last->op == HROE_KEY_BETWEEN)
	{
		(void) AddParam(st, type, hroe_attr_value_datum(last->values[0], false));
		np = AddParam(st, type, hroe_attr_value_datum(last->values[1], false));
		appendStringInfo(&st->sql, " AND %s %s $%d AND %s %s $%d",
						 col, last->exclusive[0] ? ">" : ">=", np - 1,
						 col, last->exclusive[1] ? "<" : "<=", np);
	}
	else
	{
		/* begins_with: the prefix and its successor bound an index range */
		StringInfoData succ;
		HroeAttrValue *p = last->values[0];

		initStringInfo(&succ);
		np = AddParam(st, type, hroe_attr_value_datum(p, false));
		appendStringInfo(&st->sql, " AND %s >= $%d", col, np);
		if (ks->types[c] == 'S' ? StringSuccessor(p->data, p->len, &succ)
			: BytesSuccessor(p->data, p->len, &succ))
		{
			HroeAttrValue hi = *p;

			hi.data = succ.data;
			hi.len = succ.len;
			np = AddParam(st, type, hroe_attr_value_datum(&hi, false));
			appendStringInfo(&st->sql, " AND %s < $%d", col, np);
			appendStringInfoString(&st->shape, ":bw+");
		}
		else
			appendStringInfoString(&st->shape, ":bw");
	}
	/* (a range's excluded bounds change the statement) */
	appendStringInfo(&st->shape, ":%d%s%s", (int) last->op,
					 last->exclusive[0] ? "x" : "", last->exclusive[1] ? "X" : "");
}

/*
 * A Query's key conditions: equality on the hash key columns and the
 * leading range columns, a range on the last one
 */
static void
QueryBounds(ReadSpec *s, ReadStatement *st)
{
	HroeIndexMeta *ix = s->ix;
	const HroeKeySchema *ks = s->bound.schema;
	const char *cols[HROE_MAX_KEY_ATTRS];
	int			np;

	for (int i = 0; i < ks->nhash + ks->nrange; i++)
		cols[i] = ix ? quote_identifier(ix->columns[i]) : (i == 0 ? "pk" : "sk");
	for (int i = 0; i < ks->nhash; i++)
	{
		np = AddParam(st, hroe_key_type_oid(ks->types[i]),
					  hroe_attr_value_datum(s->bound.hash[i], HashForm(ix, i)));
		/*
		 * (the table's partition key: its partition alone, if distributed:
		 * named by the statement, or pruned by the partition key expression)
		 */
		if (strcmp(cols[i], "pk") == 0 && st->parts != NIL)
		{
			appendStringInfo(&st->sql, " AND pk = $%d", np);
			st->pk_param = np;
		}
		else if (strcmp(cols[i], "pk") == 0)
			appendStringInfo(&st->sql, " AND %s", hroe_table_pk_qual(s->t, np));
		else
			appendStringInfo(&st->sql, " AND %s = $%d", cols[i], np);
	}
	for (int i = 0; i < s->bound.nrange_eq; i++)
	{
		int			c = ks->nhash + i;

		np = AddParam(st, hroe_key_type_oid(ks->types[c]),
					  hroe_attr_value_datum(s->bound.range_eq[i], false));
		appendStringInfo(&st->sql, " AND %s = $%d", cols[c], np);
	}
	appendStringInfo(&st->shape, ":%d", s->bound.nrange_eq);
	if (s->bound.range_last)
	{
		int			c = ks->nhash + s->bound.nrange_eq;

		QueryRangeBound(st, ks, c, cols[c], s->bound.range_last);
	}
}

/*
 * ExclusiveStartKey (checked here): the row comparison that resumes after
 * it in the order of the norder columns of order[]
 */
static void
ResumeAfter(ReadSpec *s, ReadStatement *st, const OrderCol *order, int norder)
{
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			nnames = hroe_op_key_names(s->t, s->ix, names);
	HroeAttrValue *eskvals[HROE_MAX_KEY_ATTRS + 2];

	CheckStartKey(s, names, nnames, eskvals);
	if (norder > 0 && st->parts != NIL)
	{
		/*
		 * Partitions read by name: the same bound as nested comparisons,
		 * which postgres_fdw ships (it ships no row comparison), led by
		 * "first column >= its value" that starts the partition server's
		 * index scan at the bound: (a, b) > ($1, $2) is
		 * a >= $1 AND (a > $1 OR (a = $1 AND b > $2))
		 */
		int			p[HROE_MAX_KEY_ATTRS + 2];
		const char *gt = s->forward ? ">" : "<";

		for (int i = 0; i < norder; i++)
		{
			for (int k = 0; k < nnames; k++)
				if (strcmp(names[k], order[i].attr) == 0)
					st->values[st->np] = hroe_attr_value_datum(eskvals[k], order[i].form);
			st->types[st->np++] = hroe_key_type_oid(order[i].type);
			p[i] = st->np;
		}
		appendStringInfo(&st->sql, " AND %s %s= $%d AND ", order[0].column, gt, p[0]);
		for (int i = 0; i < norder; i++)
		{
			if (i == norder - 1)
				appendStringInfo(&st->sql, "%s %s $%d", order[i].column, gt, p[i]);
			else
				appendStringInfo(&st->sql, "(%s %s $%d OR (%s = $%d AND ",
								 order[i].column, gt, p[i], order[i].column, p[i]);
		}
		for (int i = 0; i < norder - 1; i++)
			appendStringInfoString(&st->sql, "))");
	}
	else if (norder > 0)
	{
		appendStringInfoString(&st->sql, " AND (");
		for (int i = 0; i < norder; i++)
			appendStringInfo(&st->sql, "%s%s", i ? ", " : "", order[i].column);
		appendStringInfo(&st->sql, ") %s (", s->forward ? ">" : "<");
		for (int i = 0; i < norder; i++)
		{
			for (int k = 0; k < nnames; k++)
				if (strcmp(names[k], order[i].attr) == 0)
					st->values[st->np] = hroe_attr_value_datum(eskvals[k], order[i].form);
			st->types[st->np++] = hroe_key_type_oid(order[i].type);
			appendStringInfo(&st->sql, "%s$%d", i ? ", " : "", st->np);
		}
		appendStringInfoChar(&st->sql, ')');
	}
	else
		appendStringInfoString(&st->sql, " AND false");	/* one-item partition, read */
	appendStringInfoString(&st->shape, ":esk");
}

/*
 * Build the statement of one Query or Scan: equality on the hash key columns
 * and the leading range columns, a range on the last one, the row comparison
 * that resumes after ExclusiveStartKey, and ORDER BY in index order.
 *
 * On a distributed table whose partitions hroe may read by name
 * (hroe_table_read_partitions), the statement names them instead, each with
 * its ORDER BY and a LIMIT of the rows wanted (limit, rounded up), so that
 * postgres_fdw ships the whole of it to each server and a page reads about a
 * page there: a Query by the table's partition key reads its one partition;
 * a Scan or a GSI Query reads each partition in order, merged in order on
 * the coordinator (a Merge Append under the LIMIT):
 *     SELECT item FROM ((SELECT item, c1 o1, c2 o2 FROM ONLY p0 WHERE ...
 *                        ORDER BY c1, c2 LIMIT n)
 *                       UNION ALL (... p1 ...)) u ORDER BY o1, o2 LIMIT n
 * With remote (hroe's own read path, RemoteChunk, which sends each
 * partition's statement itself), that statement is not built: only its
 * parts (conds, orderby, the order columns, pushed, part).  The partitions
 * are looked up into *rp at the call's first chunk, its later chunks reuse
 * them.
 */
static void
BuildRead(ReadSpec *s, ReadStatement *st, int64 limit, bool remote, ReadParts *rp)
{
	OrderCol	order[HROE_MAX_KEY_ATTRS + 2];
	int			norder;
	StringInfoData conds;
	StringInfoData orderby;
	int64		pushed;
	int			part;
	int			i;
	ListCell   *lc;

	initStringInfo(&st->sql);
	initStringInfo(&st->shape);
	st->np = 0;
	st->pk_param = 0;
	if (!rp->known)
	{
		rp->names = hroe_table_read_partitions(s->t, &rp->oids);
		rp->known = true;
	}
	st->parts = rp->names;
	appendStringInfo(&st->shape, "%c:%s:%c", s->is_query ? 'Q' : 'S', s->ix ? s->ix->name : "",
					 s->forward ? 'f' : 'b');
	if (st->parts == NIL)
		appendStringInfo(&st->sql, "SELECT item FROM %s WHERE true", s->t->relname);
	/* index key columns: partial index implication, and the scan order */
	norder = ReadOrder(s, st, order);
	if (s->is_query)
		QueryBounds(s, st);
	/* ExclusiveStartKey: resume after it in index order */
	if (s->esk)
		ResumeAfter(s, st, order, norder);
	initStringInfo(&orderby);
	for (i = 0; i < norder; i++)
		appendStringInfo(&orderby, "%s%s%s", i ? ", " : "", order[i].column,
						 s->forward ? "" : " DESC");
	if (st->parts == NIL)
	{
		if (norder > 0)
			appendStringInfo(&st->sql, " ORDER BY %s", orderby.data);
		return;
	}

	/*
	 * The partitions named: the conditions built so far are each one's.  The
	 * LIMIT is a constant (postgres_fdw ships no LIMIT of a generic plan's
	 * parameter: it cannot cost it), the rows wanted rounded up to a power of
	 * two, so a shape has a few plans (at most 12 for chunks up to
	 * 1600 rows) and a server sends at most twice the rows wanted
	 */
	conds = st->sql;
	initStringInfo(&st->sql);
	pushed = 1;
	while (pushed < limit)
		pushed *= 2;
	st->conds = conds.data;
	st->orderby = orderby.data;
	st->norder = norder;
	for (i = 0; i < norder; i++)
	{
		st->ordercols[i] = order[i].column;
		st->ordertypes[i] = order[i].type;
	}
	st->pushed = pushed;
	st->part = -1;
	appendStringInfo(&st->shape, ":l" INT64_FORMAT, pushed);
	if (st->pk_param > 0)
	{
		/* a Query by the partition key: its one partition (the same in every chunk) */
		if (rp->key_part < 0)
			rp->key_part = hroe_table_key_partition(s->t, st->values[st->pk_param - 1]);
		part = rp->key_part;
		st->part = part;
		if (remote)
			return;
		appendStringInfo(&st->sql, "SELECT item FROM ONLY %s WHERE true%s",
						 (char *) list_nth(st->parts, part), conds.data);
		if (norder > 0)
			appendStringInfo(&st->sql, " ORDER BY %s", orderby.data);
		appendStringInfo(&st->sql, " LIMIT " INT64_FORMAT, pushed);
		appendStringInfo(&st->shape, ":p%d", part);
		return;
	}
	if (remote)
		return;
	appendStringInfoString(&st->sql, "SELECT item FROM (");
	foreach(lc, st->parts)
	{
		appendStringInfo(&st->sql, "%s(SELECT item", foreach_current_index(lc) ? " UNION ALL " : "");
		for (i = 0; i < norder; i++)
			appendStringInfo(&st->sql, ", %s AS o%d", order[i].column, i + 1);
		appendStringInfo(&st->sql, " FROM ONLY %s WHERE true%s", (char *) lfirst(lc), conds.data);
		if (norder > 0)
			appendStringInfo(&st->sql, " ORDER BY %s", orderby.data);
		appendStringInfo(&st->sql, " LIMIT " INT64_FORMAT ")", pushed);
	}
	appendStringInfoString(&st->sql, ") u");
	for (i = 0; i < norder; i++)
		appendStringInfo(&st->sql, "%so%d%s", i ? ", " : " ORDER BY ", i + 1,
						 s->forward ? "" : " DESC");
	appendStringInfo(&st->sql, " LIMIT " INT64_FORMAT, pushed);
	appendStringInfoString(&st->shape, ":parts");
}

/*
 * The parallel-Scan segment of an item: its partition key (the index's HASH
 * attributes on a GSI) hashed, the hash range split evenly into segments.
 */
static int
ItemSegment(ReadSpec *s, HroeItem *item)
{
	const HroeKeySchema *ks = s->ix ? &s->ix->schema : &s->t->schema;
	HroeValue	map,
				v;
	uint32		h = 0;

	hroe_item_root(item, &map);
	for (int i = 0; i < ks->nhash; i++)
		if (hroe_map_find(&map, ks->names[i], strlen(ks->names[i]), &v))
			h = hash_combine(h, hash_bytes((const unsigned char *) v.data, v.len));
	return (int) (((uint64) h * (uint64) s->total_segments) >> 32);
}

/* A row of a read by hroe's own path: its read and position */
typedef struct RemoteRow
{
	HroeRemoteRead *read;
	int			row;
} RemoteRow;

/*
 * The rows of one chunk of st read by hroe's own path (remote_read.c): each
 * partition's statement (its conditions, ORDER BY and LIMIT) sent to every
 * server at once, the sorted streams merged here by the order columns'
 * btree comparison; at most want rows in *rows (each item received only
 * when used, hroe_remote_read_item), their count returned
 */
static uint64
RemoteChunk(ReadSpec *s, ReadStatement *st, ReadParts *rp, int64 want, RemoteRow **rows)
{
	int			nparts = st->part >= 0 ? 1 : list_length(st->parts);
	bool		merge = nparts > 1 && st->norder > 0;
	HroeRemoteRead *reads = palloc0(nparts * sizeof(HroeRemoteRead));
	StringInfoData sql;
	Oid			keytypes[HROE_MAX_KEY_ATTRS + 2];
	TypeCacheEntry *cmp[HROE_MAX_KEY_ATTRS + 2];
	RemoteRow  *src;
	uint64		n = 0;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT item");
	for (int i = 0; i < st->norder; i++)
	{
		keytypes[i] = hroe_key_type_oid(st->ordertypes[i]);
		cmp[i] = lookup_type_cache(keytypes[i], TYPECACHE_CMP_PROC_FINFO);
		if (merge)
			appendStringInfo(&sql, ", %s", st->ordercols[i]);
	}
	/* (the statement is a format: %s the remote table) */
	appendStringInfoString(&sql, " FROM %s WHERE true");
	for (const char *c = st->conds; *c; c++)
	{
		if (*c == '%')
			appendStringInfoChar(&sql, '%');
		appendStringInfoChar(&sql, *c);
	}
	if (st->norder > 0)
		appendStringInfo(&sql, " ORDER BY %s", st->orderby);
	appendStringInfo(&sql, " LIMIT " INT64_FORMAT, st->pushed);
	for (int j = 0; j < nparts; j++)
	{
		reads[j].partition = rp->oids[st->part >= 0 ? st->part : j];
		reads[j].sql = sql.data;
		reads[j].nparams = st->np;
		reads[j].types = st->types;
		reads[j].values = st->values;
		reads[j].nkeys = merge ? st->norder : 0;
		reads[j].keytypes = keytypes;
	}
	hroe_remote_read_run(reads, nparts);
	*rows = palloc(Max(want, 1) * sizeof(RemoteRow));
	if (!merge)
	{
		for (int j = 0; j < nparts; j++)
			for (int r = 0; r < reads[j].nrows && n < (uint64) want; r++)
			{
				(*rows)[n].read = &reads[j];
				(*rows)[n++].row = r;
			}
		return n;
	}
	src = palloc0(nparts * sizeof(RemoteRow));
	for (int j = 0; j < nparts; j++)
		src[j].read = &reads[j];
	while (n < (uint64) want)
	{
		int			best = -1;

		for (int j = 0; j < nparts; j++)
		{
			int			c = 0;

			if (src[j].row >= src[j].read->nrows)
				continue;
			if (best >= 0)
			{
				Datum	   *a = hroe_remote_read_keys(src[j].read, src[j].row);
				Datum	   *b = hroe_remote_read_keys(src[best].read, src[best].row);

				for (int i = 0; i < st->norder && c == 0; i++)
					c = DatumGetInt32(FunctionCall2Coll(&cmp[i]->cmp_proc_finfo,
														cmp[i]->typcollation, a[i], b[i]));
				if (!s->forward)
					c = -c;
			}
			if (best < 0 || c < 0)
				best = j;
		}
		if (best < 0)
			break;
		(*rows)[n++] = src[best];
		src[best].row++;
	}
	return n;
}

/*
 * Run one Query or Scan: emit items in order, stop at Limit or 1 MB.  Rows
 * are read in chunks, each a plain execution of the cached plan bounded by
 * its row count (no cursor); a full chunk is followed by the next one,
 * resumed after its last item as an ExclusiveStartKey would be.  So memory
 * stays bounded and the common small Query is one index scan.
 */
static void
RunRead(ReadSpec *s, EmitItem emit, void *arg, MemoryContext cxt, ReadOutcome *out)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	int64		chunk = 100;
	MemoryContext rowcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe read row",
												 ALLOCSET_DEFAULT_SIZES);
	MemoryContext chunkcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe remote read chunk",
												   ALLOCSET_DEFAULT_SIZES);
	MemoryContext oldcxt;
	ReadParts	parts = READ_PARTS_INIT;

	memset(out, 0, sizeof(*out));
	for (;;)
	{
		ReadStatement st;
		SPIPlanPtr	plan;
		int64		want = chunk;
		int			ret;
		uint64		n;
		SPITupleTable *tuptable;
		RemoteRow  *remote;
		bool		use_remote;
		HroeItem   *item = NULL;

		if (s->limit > 0)
			want = Min(want, s->limit - out->scanned);
		use_remote = hroe_remote_read_usable(t);
		BuildRead(s, &st, want, use_remote, &parts);
		tuptable = NULL;
		remote = NULL;
		if (st.parts != NIL && use_remote)
		{
			/* hroe's own read path: every server at once, in binary */
			MemoryContextReset(chunkcxt);
			oldcxt = MemoryContextSwitchTo(chunkcxt);
			n = RemoteChunk(s, &st, &parts, want, &remote);
			MemoryContextSwitchTo(oldcxt);
		}
		else
		{
			plan = st.parts != NIL
				? hroe_table_plan_partitions(t, st.shape.data, st.sql.data, st.np, st.types)
				: hroe_table_plan(t, st.shape.data, st.sql.data, st.np, st.types);
			hroe_push_search_path();
			ret = SPI_execute_plan(plan, st.values, NULL, true, want);
			hroe_pop_search_path();
			if (ret != SPI_OK_SELECT)
				elog(ERROR, "reading %s failed: %s", t->relname, SPI_result_code_string(ret));
			n = SPI_processed;
			tuptable = SPI_tuptable;
		}
		for (uint64 r = 0; r < n; r++)
		{
			bool		isnull;

			/* per-row memory: the emitters copy what they keep */
			MemoryContextReset(rowcxt);
			oldcxt = MemoryContextSwitchTo(rowcxt);
			item = remote ? hroe_remote_read_item(remote[r].read, remote[r].row)
				: DatumGetHroeItemP(SPI_getbinval(tuptable->vals[r], tuptable->tupdesc, 1, &isnull));
			if (s->total_segments > 0 && ItemSegment(s, item) != s->segment)
			{
				MemoryContextSwitchTo(oldcxt);
				continue;		/* another segment's item: not read by this one */
			}
			CountRead(s, item, out);
			EmitRead(s, emit, arg, item, out);
			MemoryContextSwitchTo(oldcxt);
			if ((s->limit > 0 && out->scanned >= s->limit) ||
				(s->paged && out->bytes >= HROE_PAGE_BYTES))
			{
				out->stopped = true;
				out->last = hroe_op_copy_item(cxt, PointerGetDatum(item));
				break;
			}
		}
		if (out->stopped || n < (uint64) want)
			break;
		/* a full chunk: continue after its last item */
		s->esk = hroe_op_key_jsonb(t, ix, item);
		if (tuptable)
			SPI_freetuptable(tuptable);
		chunk = Min(chunk * 4, 1600);
	}
	MemoryContextDelete(rowcxt);
	MemoryContextDelete(chunkcxt);
}

/* Add one scan key on index column attno comparing with strategy */
static void
AddScanKey(Relation idx, ScanKeyData *keys, int *n, int attno, StrategyNumber strategy,
		   Datum value)
{
	Oid			type = idx->rd_opcintype[attno - 1];
	Oid			op = get_opfamily_member(idx->rd_opfamily[attno - 1], type, type, strategy);

	if (!OidIsValid(op))
		elog(ERROR, "no btree operator of strategy %d for index column %d", strategy, attno);
	ScanKeyEntryInitialize(&keys[(*n)++], 0, attno, strategy, type,
						   idx->rd_indcollation[attno - 1], get_opcode(op), value);
}

/*
 * A Query without ExclusiveStartKey, straight on the btree: equality keys on
 * the HASH columns and the leading RANGE columns, the range on the last, read
 * forward or backward, no SPI and no executor.  Returns false (nothing read)
 * when row-level security applies to the table: the SQL path handles that.
 */
static bool
DirectQuery(ReadSpec *s, EmitItem emit, void *arg, MemoryContext cxt, ReadOutcome *out)
{
	HroeTableMeta *t = s->t;
	HroeIndexMeta *ix = s->ix;
	const HroeKeySchema *ks = s->bound.schema;
	HroeKeyCond *last = s->bound.range_last;
	Relation	rel,
				idx;
	ScanKeyData keys[HROE_MAX_KEY_ATTRS + 2];
	int			nkeys = 0;
	int			attno = 1;
	IndexScanDesc scan;
	TupleTableSlot *slot;
	AttrNumber	item_attno;
	MemoryContext rowcxt,
				oldcxt;

	if (t->distributed || !hroe_direct_read_allowed(t->relid))
		return false;
	rel = table_open(t->relid, AccessShareLock);
	if (ix)
		idx = index_open(ix->indexrelid, AccessShareLock);
	else
	{
		Oid			pkey = OidIsValid(t->pkey_index) ? t->pkey_index : RelationGetPrimaryKeyIndex(rel);

		idx = index_open(pkey, AccessShareLock);
	}
	item_attno = get_attnum(t->relid, "item");
	for (int i = 0; i < ks->nhash; i++)
		AddScanKey(idx, keys, &nkeys, attno++, BTEqualStrategyNumber,
				   hroe_attr_value_datum(s->bound.hash[i], HashForm(ix, i)));
	for (int i = 0; i < s->bound.nrange_eq; i++)
		AddScanKey(idx, keys, &nkeys, attno++, BTEqualStrategyNumber,
				   hroe_attr_value_datum(s->bound.range_eq[i], false));
	if (last)
	{
		static const StrategyNumber strategies[] = {
			BTEqualStrategyNumber, BTLessStrategyNumber, BTLessEqualStrategyNumber,
			BTGreaterStrategyNumber, BTGreaterEqualStrategyNumber
		};

		if (last->op <= HROE_KEY_GE)
			AddScanKey(idx, keys, &nkeys, attno, strategies[last->op],
					   hroe_attr_value_datum(last->values[0], false));
		else if (last->op == HROE_KEY_BETWEEN)
		{
			AddScanKey(idx, keys, &nkeys, attno,
					   last->exclusive[0] ? BTGreaterStrategyNumber : BTGreaterEqualStrategyNumber,
					   hroe_attr_value_datum(last->values[0], false));
			AddScanKey(idx, keys, &nkeys, attno,
					   last->exclusive[1] ? BTLessStrategyNumber : BTLessEqualStrategyNumber,
					   hroe_attr_value_datum(last->values[1], false));
		}
		else
		{
			StringInfoData succ;
			HroeAttrValue *p = last->values[0];

			initStringInfo(&succ);
			AddScanKey(idx, keys, &nkeys, attno, BTGreaterEqualStrategyNumber,
					   hroe_attr_value_datum(p, false));
			if (ks->types[attno - 1] == 'S' ? StringSuccessor(p->data, p->len, &succ)
				: BytesSuccessor(p->data, p->len, &succ))
			{
				HroeAttrValue hi = *p;

				hi.data = succ.data;
				hi.len = succ.len;
				AddScanKey(idx, keys, &nkeys, attno, BTLessStrategyNumber,
						   hroe_attr_value_datum(&hi, false));
			}
		}
	}

	memset(out, 0, sizeof(*out));
	rowcxt = AllocSetContextCreate(CurrentMemoryContext, "hroe read row", ALLOCSET_DEFAULT_SIZES);
	scan = index_beginscan(rel, idx, GetActiveSnapshot(), nkeys, 0);
	index_rescan(scan, keys, nkeys, NULL, 0);
	slot = table_slot_create(rel, NULL);
	while (index_getnext_slot(scan, s->forward ? ForwardScanDirection : BackwardScanDirection, slot))
	{
		bool		isnull;
		HroeItem   *item;

		CHECK_FOR_INTERRUPTS();
		MemoryContextReset(rowcxt);
		oldcxt = MemoryContextSwitchTo(rowcxt);
		item = DatumGetHroeItemP(slot_getattr(slot, item_attno, &isnull));
		CountRead(s, item, out);
		EmitRead(s, emit, arg, item, out);
		MemoryContextSwitchTo(oldcxt);
		if ((s->limit > 0 && out->scanned >= s->limit) ||
			(s->paged && out->bytes >= HROE_PAGE_BYTES))
		{
			out->stopped = true;
			out->last = hroe_op_copy_item(cxt, PointerGetDatum(item));
			break;
		}
	}
	ExecDropSingleTupleTableSlot(slot);
	index_endscan(scan);
	index_close(idx, NoLock);
	table_close(rel, NoLock);
	MemoryContextDelete(rowcxt);
	return true;
}

/* Emit into an array being built in a memory context */
typedef struct ItemArray
{
	MemoryContext cxt;
	Datum	   *items;
	int			n;
	int			cap;
} ItemArray;

/* Emitter: append a copy of the item to an ItemArray */
static void
EmitToArray(void *arg, HroeItem *item)
{
	ItemArray  *a = arg;

	if (a->n == a->cap)
	{
		a->cap = a->cap ? a->cap * 2 : 64;
		a->items = a->items ? repalloc(a->items, sizeof(Datum) * a->cap)
			: MemoryContextAlloc(a->cxt, sizeof(Datum) * a->cap);
	}
	a->items[a->n++] = PointerGetDatum(hroe_op_copy_item(a->cxt, PointerGetDatum(item)));
}

/* Emitter: one result row of a set-returning function */
static void
EmitToTuplestore(void *arg, HroeItem *item)
{
	ReturnSetInfo *rsinfo = arg;
	Datum		d = PointerGetDatum(item);
	bool		isnull = false;

	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &d, &isnull);
}

/* Whether the ProjectionExpression names an attribute the index does not hold */
static bool
ProjectsBeyondIndex(ReadSpec *s)
{
	ListCell   *lc;

	foreach(lc, s->projection)
	{
		HroePathElem *first = linitial((List *) lfirst(lc));

		if (!first->is_index && !hroe_index_projects(s->t, s->ix, first->name, first->namelen))
			return true;
	}
	return false;
}

/*
 * Select: ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, COUNT, or
 * SPECIFIC_ATTRIBUTES with a ProjectionExpression (E27 checked here)
 */
static void
ApplySelect(ReadSpec *s, const char *select, const char *index_name)
{
	s->project = s->ix != NULL;
	/*
	 * an LSI fetches the attributes it does not project from the table, when
	 * the ProjectionExpression names one
	 */
	if (s->ix && s->ix->local && ProjectsBeyondIndex(s))
		s->project = false;
	if (select == NULL)
		return;
	if (strcmp(select, "SPECIFIC_ATTRIBUTES") == 0)
	{
		if (s->projection == NIL)
			HroeValidation(s->is_query ? "1 validation error detected: " HROE_MSG_SELECT_NO_PROJECTION :
						   HROE_MSG_SELECT_NO_PROJECTION);
		return;
	}
	if (s->projection != NIL)
		HroeValidation(psprintf(HROE_MSG_SELECT_PROJECTION, "ProjectionExpression",
								HROE_SELECT_WORDS(select)));
	if (strcmp(select, "COUNT") == 0)
		s->count_only = true;
	else if (strcmp(select, "ALL_ATTRIBUTES") == 0)
	{
		if (s->ix && s->ix->projection != HROE_PROJECT_ALL && !s->ix->local)
			HroeValidation(psprintf("One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index %s because its projection type is not ALL",
									index_name));
		s->project = false;
	}
	else if (strcmp(select, "ALL_PROJECTED_ATTRIBUTES") == 0)
	{
		if (s->ix == NULL)
			HroeValidation("One or more parameter values were invalid: ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
	}
	else
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'select' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_SELECT "]",
								select));
}

/* The table and index of a read request: E28, E26 */
static void
ResolveTarget(ReadSpec *s, const char *table, const char *index, bool consistent)
{
	s->t = hroe_table_lookup(table, false);
	s->ix = NULL;
	if (index)
	{
		s->ix = hroe_index_lookup(s->t, index);
		/* a vector index is read by SearchVectors only */
		if (s->ix == NULL && hroe_vector_index_lookup(s->t->name, index) != NULL)
			HroeValidation(psprintf("%s operation not supported on this index type",
									s->is_query ? "Query" : "Scan"));
		if (s->ix == NULL)
			HroeValidation(psprintf("The table does not have the specified index: %s", index));
		if (consistent && !s->ix->local)
			HroeValidation("Consistent reads are not supported on global secondary indexes");
	}
	s->consistent = consistent;
}

/*
 * Parse the FilterExpression and ProjectionExpression of a read into s, with
 * the placeholders the KeyConditionExpression (already parsed in ecxt) shares
 */
static void
ParseReadExprs(ReadSpec *s, HroeExprContext *ecxt, const char *filter, const char *projection)
{
	if (filter)
		s->filter = hroe_expr_parse(ecxt, "FilterExpression", filter);
	if (projection)
		s->projection = hroe_projection_parse(ecxt, projection);
	hroe_expr_check_unused(ecxt);
}

/* E14: a Query's FilterExpression may not use the queried key attributes */
static void
CheckFilterKeys(ReadSpec *s)
{
	const HroeKeySchema *ks = s->ix ? &s->ix->schema : &s->t->schema;

	if (s->filter == NULL)
		return;
	for (int i = 0; i < ks->nhash + ks->nrange; i++)
		if (hroe_expr_uses_attribute(s->filter, ks->names[i]))
			HroeValidation(psprintf("Filter Expression can only contain non-primary key attributes: Primary key attribute: %s",
									ks->names[i]));
}

/*
 * Parse a Query's KeyConditionExpression (returned), FilterExpression and
 * ProjectionExpression (into s; NULL: none) with one set of placeholders
 */
static HroeExprNode *
ParseQueryExprs(ReadSpec *s, const char *kce, Jsonb *names, Jsonb *values,
				const char *filter, const char *projection)
{
	HroeExprContext *ecxt;
	HroeExprNode *root;

	if (kce == NULL)
		HroeValidation("Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.");
	ecxt = hroe_expr_context_create(names, values);
	root = hroe_expr_parse(ecxt, "KeyConditionExpression", kce);
	ParseReadExprs(s, ecxt, filter, projection);
	return root;
}

/*
 * Resolve a Query's table and index and bind its parsed key condition
 * (bounds: PartiQL's, where a lower and an upper sort key bound make a range)
 */
static void
BindQuery(ReadSpec *s, HroeExprNode *kce, const char *table, const char *index, bool consistent,
		  bool bounds)
{
	HroeKeyCondition *kc = palloc(sizeof(HroeKeyCondition));

	hroe_key_condition_extract(kce, kc, bounds);
	s->is_query = true;
	ResolveTarget(s, table, index, consistent);
	CheckFilterKeys(s);
	hroe_key_condition_bind(kc, s->ix ? &s->ix->schema : &s->t->schema, &s->bound);
}

/*
 * Parse and bind a KeyConditionExpression for a Query, with its
 * FilterExpression and ProjectionExpression (NULL: none)
 */
static void
PrepareQuery(ReadSpec *s, const char *table, const char *kce, Jsonb *names, Jsonb *values,
			 const char *index, bool consistent, const char *filter, const char *projection)
{
	HroeExprNode *root = ParseQueryExprs(s, kce, names, values, filter, projection);

	BindQuery(s, root, table, index, consistent, false);
}

/* The FilterExpression and ProjectionExpression of a Scan (NULL: none) */
static void
PrepareScan(ReadSpec *s, Jsonb *names, Jsonb *values, const char *filter, const char *projection)
{
	if (names && !filter && !projection)
		HroeValidation("ExpressionAttributeNames can only be specified when using expressions");
	if (values && !filter)
		HroeValidation("ExpressionAttributeValues can only be specified when using expressions: FilterExpression is null");
	if (filter || projection)
		ParseReadExprs(s, hroe_expr_context_create(names, values), filter, projection);
}

/* Segment and TotalSegments of a parallel Scan, validated as DynamoDB does */
static void
CheckSegments(ReadSpec *s, bool has_seg, int32 seg, bool has_total, int32 total)
{
	if (has_seg && seg < 0)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0", seg));
	if (has_total && total < 1)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1", total));
	if (has_total && total > 1000000)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000", total));
	if (has_seg && !has_total)
		HroeValidation("The TotalSegments parameter is required but was not present in the request when Segment parameter is present");
	if (has_total && !has_seg)
		HroeValidation("The Segment parameter is required but was not present in the request when parameter TotalSegments is present");
	if (has_total && seg >= total)
		HroeValidation(psprintf("The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: %d is not less than TotalSegments: %d", seg, total));
	s->segment = has_seg ? seg : 0;
	s->total_segments = has_total ? total : 0;
}

/* An ExclusiveStartKey must lie in the requested segment */
static void
CheckStartKeySegment(ReadSpec *s)
{
	HroeItem   *esk_item;
	const char *names[HROE_MAX_KEY_ATTRS + 2];
	int			n = hroe_op_key_names(s->t, s->ix, names);
	HroeAttrValue *vals[HROE_MAX_KEY_ATTRS + 2];

	CheckStartKey(s, names, n, vals);
	esk_item = HroeItemFromJsonb(s->esk);
	if (ItemSegment(s, esk_item) != s->segment)
		HroeValidation(psprintf("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: %d Segment: %d",
								s->total_segments, s->segment));
}

/*
 * One Query or Scan call (a page: Limit, ExclusiveStartKey, the 1 MB page,
 * Select, ConsumedCapacity), its expressions already parsed: the code of
 * hroe.query_page and hroe.scan_page, and of the JSON API's Query and Scan
 */
void
hroe_read_page(HroeReadRequest *r, HroeReadPage *page)
{
	MemoryContext cxt = CurrentMemoryContext;
	ItemArray	items = {cxt, NULL, 0, 0};
	ReadSpec	s;
	ReadOutcome out;
	double		units;
	double		index_units[HROE_MAX_INDEXES] = {0};

	memset(&s, 0, sizeof(s));
	s.forward = !r->query || r->forward;
	s.limit = r->limit;
	s.paged = true;
	s.esk = r->esk;
	s.filter = r->filter;
	s.projection = r->projection;
	hroe_check_return_cc(r->rcc);
	if (r->query)
	{
		BindQuery(&s, r->kce, r->table, r->index, r->consistent, r->key_bounds);
		ApplySelect(&s, r->select, r->index);
		/* DynamoDB's throttling (throttle.c) */
		(void) hroe_throttle_admit(s.t, false, s.ix ? (int) (s.ix - s.t->indexes) : -1, NULL, true);
		hroe_op_push_read_snapshot();
		if (s.esk != NULL || !DirectQuery(&s, EmitToArray, &items, cxt, &out))
		{
			SPI_connect();
			RunRead(&s, EmitToArray, &items, cxt, &out);
			SPI_finish();
		}
	}
	else
	{
		CheckSegments(&s, r->has_segment, r->segment, r->has_total, r->total_segments);
		SPI_connect();
		ResolveTarget(&s, r->table, r->index, r->consistent);
		ApplySelect(&s, r->select, r->index);
		if (s.esk && s.total_segments > 1)
			CheckStartKeySegment(&s);
		/* DynamoDB's throttling (throttle.c) */
		(void) hroe_throttle_admit(s.t, false, s.ix ? (int) (s.ix - s.t->indexes) : -1, NULL, true);
		hroe_op_push_read_snapshot();
		RunRead(&s, EmitToArray, &items, cxt, &out);
		SPI_finish();
	}
	PopActiveSnapshot();
	units = hroe_read_units(out.bytes, s.consistent);
	hroe_throttle_charge(s.t, false, s.ix ? (int) (s.ix - s.t->indexes) : -1, NULL,
						 units + (out.fetch_bytes ? hroe_read_units(out.fetch_bytes, s.consistent) : 0), NULL);
	if (s.ix)
	{
		/* an LSI's fetches from the table are the table's reads */
		double		fetched = out.fetch_bytes ? hroe_read_units(out.fetch_bytes, s.consistent) : 0;

		index_units[s.ix - s.t->indexes] = units;
		page->capacity = hroe_capacity_jsonb(r->rcc, r->table, fetched, s.t, index_units);
	}
	else
		page->capacity = hroe_capacity_jsonb(r->rcc, r->table, units, s.t, NULL);
	page->count_only = s.count_only;
	page->nitems = items.n;
	page->items = items.items;
	page->count = (int32) out.count;
	page->scanned = (int32) out.scanned;
	page->last_key = out.stopped ? hroe_op_key_jsonb(s.t, s.ix, out.last) : NULL;
}

/* The page composite: (items, count, scanned_count, lek, consumed_capacity) */
static Datum
PageResult(FunctionCallInfo fcinfo, HroeReadPage *page)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	if (page->count_only)
		nulls[0] = true;
	else
	{
		get_typlenbyvalalign(hroe_op_item_type_oid(), &typlen, &typbyval, &typalign);
		values[0] = PointerGetDatum(construct_array(page->items, page->nitems, hroe_op_item_type_oid(),
													typlen, typbyval, typalign));
	}
	values[1] = Int32GetDatum(page->count);
	values[2] = Int32GetDatum(page->scanned);
	values[3] = PointerGetDatum(page->last_key);
	nulls[3] = page->last_key == NULL;
	values[4] = PointerGetDatum(page->capacity);
	nulls[4] = page->capacity == NULL;
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

/* Limit >= 1 (E23) */
static int64
CheckLimit(FunctionCallInfo fcinfo, int n)
{
	int32		limit;

	if (PG_ARGISNULL(n))
		return 0;
	limit = PG_GETARG_INT32(n);
	if (limit < 1)
		HroeValidation(psprintf("1 validation error detected: Value '%d' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
								limit));
	return limit;
}

/*
 * The prologue of the read functions: the table (argument 0, required) and
 * an empty ReadSpec
 */
static char *
ReadTable(FunctionCallInfo fcinfo, ReadSpec *s)
{
	char	   *table = hroe_op_arg_text(fcinfo, 0);

	if (table == NULL)
		hroe_missing_member("tableName");
	memset(s, 0, sizeof(*s));
	return table;
}

/* Optional jsonb argument n, or NULL */
#define ArgJsonb(fcinfo, n) (PG_ARGISNULL(n) ? NULL : PG_GETARG_JSONB_P(n))

PG_FUNCTION_INFO_V1(hroe_query);
/*
 * hroe.query(table, kce, values, names, index, forward, consistent, filter,
 * projection): every item the key condition matches (and the filter keeps),
 * in key order (all pages).
 */
Datum
hroe_query(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext cxt = CurrentMemoryContext;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	ReadOutcome out;

	s.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	PrepareQuery(&s, table, hroe_op_arg_text(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
				 hroe_op_arg_text(fcinfo, 4), !PG_ARGISNULL(6) && PG_GETARG_BOOL(6),
				 hroe_op_arg_text(fcinfo, 7), hroe_op_arg_text(fcinfo, 8));
	ApplySelect(&s, NULL, hroe_op_arg_text(fcinfo, 4));
	hroe_op_push_read_snapshot();
	if (!DirectQuery(&s, EmitToTuplestore, rsinfo, cxt, &out))
	{
		SPI_connect();
		RunRead(&s, EmitToTuplestore, rsinfo, cxt, &out);
		SPI_finish();
	}
	PopActiveSnapshot();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(hroe_query_page);
/*
 * hroe.query_page(table, kce, values, names, index, forward, consistent,
 * limit, esk, select, rcc, filter, projection): one Query call, with Limit,
 * ExclusiveStartKey, the 1 MB page, Select and ConsumedCapacity.
 */
Datum
hroe_query_page(PG_FUNCTION_ARGS)
{
	ReadSpec	s;
	HroeReadRequest r = {0};
	HroeReadPage page;

	r.table = ReadTable(fcinfo, &s);
	r.query = true;
	r.index = hroe_op_arg_text(fcinfo, 4);
	r.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	r.consistent = !PG_ARGISNULL(6) && PG_GETARG_BOOL(6);
	r.limit = CheckLimit(fcinfo, 7);
	r.esk = ArgJsonb(fcinfo, 8);
	r.select = hroe_op_arg_text(fcinfo, 9);
	r.rcc = hroe_op_arg_text(fcinfo, 10);
	hroe_check_return_cc(r.rcc);
	r.kce = ParseQueryExprs(&s, hroe_op_arg_text(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
							hroe_op_arg_text(fcinfo, 11), hroe_op_arg_text(fcinfo, 12));
	r.filter = s.filter;
	r.projection = s.projection;
	hroe_read_page(&r, &page);
	return PageResult(fcinfo, &page);
}

PG_FUNCTION_INFO_V1(hroe_scan);
/*
 * hroe.scan(table, index, consistent, filter, projection, values, names):
 * every item of the table or index (that the filter keeps)
 */
Datum
hroe_scan(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext cxt = CurrentMemoryContext;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	char	   *index = hroe_op_arg_text(fcinfo, 1);
	ReadOutcome out;

	s.forward = true;
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	PrepareScan(&s, ArgJsonb(fcinfo, 6), ArgJsonb(fcinfo, 5), hroe_op_arg_text(fcinfo, 3), hroe_op_arg_text(fcinfo, 4));
	SPI_connect();
	ResolveTarget(&s, table, index, !PG_ARGISNULL(2) && PG_GETARG_BOOL(2));
	ApplySelect(&s, NULL, index);
	hroe_op_push_read_snapshot();
	RunRead(&s, EmitToTuplestore, rsinfo, cxt, &out);
	PopActiveSnapshot();
	SPI_finish();
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(hroe_scan_page);
/*
 * hroe.scan_page(table, index, consistent, limit, esk, select, rcc, segment,
 * total_segments, filter, projection, values, names): one Scan call
 */
Datum
hroe_scan_page(PG_FUNCTION_ARGS)
{
	ReadSpec	s;
	HroeReadRequest r = {0};
	HroeReadPage page;

	r.table = ReadTable(fcinfo, &s);
	r.index = hroe_op_arg_text(fcinfo, 1);
	r.consistent = !PG_ARGISNULL(2) && PG_GETARG_BOOL(2);
	r.limit = CheckLimit(fcinfo, 3);
	r.esk = ArgJsonb(fcinfo, 4);
	r.select = hroe_op_arg_text(fcinfo, 5);
	r.rcc = hroe_op_arg_text(fcinfo, 6);
	r.has_segment = !PG_ARGISNULL(7);
	r.segment = r.has_segment ? PG_GETARG_INT32(7) : 0;
	r.has_total = !PG_ARGISNULL(8);
	r.total_segments = r.has_total ? PG_GETARG_INT32(8) : 0;
	hroe_check_return_cc(r.rcc);
	CheckSegments(&s, r.has_segment, r.segment, r.has_total, r.total_segments);
	PrepareScan(&s, ArgJsonb(fcinfo, 12), ArgJsonb(fcinfo, 11), hroe_op_arg_text(fcinfo, 9), hroe_op_arg_text(fcinfo, 10));
	r.filter = s.filter;
	r.projection = s.projection;
	hroe_read_page(&r, &page);
	return PageResult(fcinfo, &page);
}

PG_FUNCTION_INFO_V1(hroe_explain_query);
/*
 * hroe.explain_query(...): the PostgreSQL plan (EXPLAIN, COSTS OFF) of the
 * statement hroe.query/hroe.query_page runs for these arguments: the cached
 * generic plan itself, so the key values show as parameters $1, $2, ...
 */
Datum
hroe_explain_query(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ReadSpec	s;
	char	   *table = ReadTable(fcinfo, &s);
	ReadStatement st;
	ReadParts	parts = READ_PARTS_INIT;
	SPIPlanPtr	plan;
	CachedPlan *cplan;
	ExplainState *es;

	s.forward = PG_ARGISNULL(5) || PG_GETARG_BOOL(5);
	s.esk = PG_ARGISNULL(6) ? NULL : PG_GETARG_JSONB_P(6);
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	SPI_connect();
	PrepareQuery(&s, table, hroe_op_arg_text(fcinfo, 1), ArgJsonb(fcinfo, 3), ArgJsonb(fcinfo, 2),
				 hroe_op_arg_text(fcinfo, 4), false, NULL, NULL);
	BuildRead(&s, &st, 100, false, &parts);
	plan = st.parts != NIL
		? hroe_table_plan_partitions(s.t, st.shape.data, st.sql.data, st.np, st.types)
		: hroe_table_plan(s.t, st.shape.data, st.sql.data, st.np, st.types);
	hroe_push_search_path();
	cplan = SPI_plan_get_cached_plan(plan);
	hroe_pop_search_path();
	if (cplan == NULL || list_length(cplan->stmt_list) != 1)
		elog(ERROR, "no cached plan for \"%s\"", st.sql.data);
	es = NewExplainState();
	es->costs = false;
	ExplainBeginOutput(es);
	ExplainOnePlan(linitial_node(PlannedStmt, cplan->stmt_list), NULL, es, st.sql.data,
				   NULL, NULL, NULL, NULL);
	ExplainEndOutput(es);
	ReleaseCachedPlan(cplan, CurrentResourceOwner);
	/* one row per line */
	for (char *line = es->str->data, *nl; line && *line; line = nl ? nl + 1 : NULL)
	{
		Datum		d;
		bool		isnull = false;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		d = CStringGetTextDatum(line);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &d, &isnull);
	}
	SPI_finish();
	return (Datum) 0;
}
