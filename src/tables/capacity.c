/*-------------------------------------------------------------------------
 *
 * capacity.c
 *	  DynamoDB's capacity units (doc/dynamodb-rules.md#capacity): read units (4 KB,
 *	  halved for an eventually consistent read), write units (1 KB), the
 *	  units of each global secondary index a write touches, a transaction's
 *	  doubling, and the ConsumedCapacity objects that report them.  Used by
 *	  the operations, the transactions and hroe's SQL helpers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/spi.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "capacity.h"

/* Read units for bytes read at once: 4 KB units, at least 1, x0.5 eventual */
double
hroe_read_units(int64 bytes, bool consistent)
{
	int64		units = Max(hroe_rcu_count(bytes), 1);

	return consistent ? (double) units : units * 0.5;
}

/* Write units for one item write: 1 KB units, at least 1 */
int64
hroe_write_units(int64 bytes)
{
	return Max(hroe_wcu_count(bytes), 1);
}

/*
 * Write units per index for replacing old by new (either may be NULL):
 * entering or leaving the index 1 write, a changed index key 2 (delete and
 * put), a changed projected attribute 1, an unchanged entry 0; each write
 * sized on the index entry.
 */
void
hroe_write_index_units(HroeTableMeta *t, HroeItem *old, HroeItem *new, double *index_units)
{
	for (int i = 0; i < t->nindexes; i++)
	{
		HroeIndexMeta *ix = &t->indexes[i];
		bool		old_in = false,
					new_in = false;
		int64		old_size = old ? hroe_index_entry_size(t, ix, old, &old_in) : 0;
		int64		new_size = new ? hroe_index_entry_size(t, ix, new, &new_in) : 0;
		bool		key_changed = false,
					view_changed = false;
		HroeValue	om,
					nm,
					ov,
					nv;

		index_units[i] = 0;
		if (!old_in && !new_in)
			continue;
		if (old_in != new_in)
		{
			index_units[i] = hroe_write_units(old_in ? old_size : new_size);
			continue;
		}
		hroe_item_root(old, &om);
		hroe_item_root(new, &nm);
		for (int k = 0; k < ix->schema.nhash + ix->schema.nrange; k++)
		{
			const char *name = ix->schema.names[k];

			hroe_map_find(&om, name, strlen(name), &ov);
			hroe_map_find(&nm, name, strlen(name), &nv);
			if (!hroe_value_equal(&ov, &nv))
				key_changed = true;
		}
		if (key_changed)
		{
			index_units[i] = hroe_write_units(old_size) + hroe_write_units(new_size);
			continue;
		}
		if (ix->projection == HROE_PROJECT_ALL)
			view_changed = !hroe_value_equal(&om, &nm);
		else if (ix->projection == HROE_PROJECT_INCLUDE)
		{
			for (int k = 0; k < ix->nnonkey && !view_changed; k++)
			{
				const char *name = ix->nonkey[k];
				bool		of = hroe_map_find(&om, name, strlen(name), &ov);
				bool		nf = hroe_map_find(&nm, name, strlen(name), &nv);

				view_changed = of != nf || (of && !hroe_value_equal(&ov, &nv));
			}
		}
		if (view_changed)
			index_units[i] = hroe_write_units(new_size);
	}
}

/*
 * Write units of replacing old by new (either may be NULL: a new item, a
 * deletion): the table's max(1, ceil(max(old, new) / 1 KB)) returned, and
 * per index hroe_write_index_units' writes.
 */
/*
 * The bytes each vector index of t writes when old is replaced by new
 * (either may be NULL) into index_units after the indexes': its vector's
 * f32 copy in whole KB when the vector changes, else 0 (an identical
 * overwrite writes nothing)
 */
static void
VectorWriteBytes(HroeTableMeta *t, HroeItem *old, HroeItem *new, double *index_units)
{
	for (int v = 0; v < t->nvectors; v++)
	{
		HroeVectorMeta *vm = &t->vectors[v];
		HroeValue	m,
					ov,
					nv;
		bool		old_has = false,
					new_has = false;

		if (old)
		{
			hroe_item_root(old, &m);
			old_has = hroe_map_find(&m, vm->attribute, strlen(vm->attribute), &ov);
		}
		if (new)
		{
			hroe_item_root(new, &m);
			new_has = hroe_map_find(&m, vm->attribute, strlen(vm->attribute), &nv);
		}
		index_units[t->nindexes + v] =
			(old_has || new_has) && (old_has != new_has || !hroe_value_equal(&ov, &nv))
			? TYPEALIGN(HROE_VECTOR_BYTES_UNIT, (Size) vm->dims * sizeof(float4)) : 0;
	}
}

double
hroe_write_capacity(HroeTableMeta *t, HroeItem *old, HroeItem *new, double *index_units)
{
	VectorWriteBytes(t, old, new, index_units);
	hroe_write_index_units(t, old, new, index_units);
	return hroe_write_units(Max(old ? hroe_item_size(old) : 0, new ? hroe_item_size(new) : 0));
}

/* Push "name": units */
static void
PushNamedUnits(JsonbParseState **st, const char *name, double units)
{
	JsonbValue	v;

	hroe_jsonb_push_key(st, name);
	v.type = jbvNumeric;
	v.val.numeric = DatumGetNumeric(DirectFunctionCall1(float8_numeric, Float8GetDatum(units)));
	pushJsonbValue(st, WJB_VALUE, &v);
}

static void PushUnitsObject(JsonbParseState **st, const char *kind, double units);

/*
 * Push "LocalSecondaryIndexes" (local) or "GlobalSecondaryIndexes": {index:
 * units object} for the indexes of t with units; kind NULL: CapacityUnits
 * only, else also kind
 */
static void
PushIndexUnits(JsonbParseState **st, HroeTableMeta *t, double *units, const char *kind, bool local)
{
	bool		any = false;

	for (int i = 0; i < t->nindexes; i++)
		any |= t->indexes[i].local == local && units[i] > 0;
	if (!any)
		return;
	hroe_jsonb_push_key(st, local ? "LocalSecondaryIndexes" : "GlobalSecondaryIndexes");
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	for (int i = 0; i < t->nindexes; i++)
	{
		if (t->indexes[i].local != local || units[i] <= 0)
			continue;
		hroe_jsonb_push_key(st, t->indexes[i].name);
		if (kind)
			PushUnitsObject(st, kind, units[i]);
		else
		{
			pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
			PushNamedUnits(st, "CapacityUnits", units[i]);
			pushJsonbValue(st, WJB_END_OBJECT, NULL);
		}
	}
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/* Push "VectorIndexes": {index: {"VectorWriteRequestBytes": bytes}} for those that wrote */
static void
PushVectorBytes(JsonbParseState **st, HroeTableMeta *t, double *bytes)
{
	bool		any = false;

	for (int v = 0; v < t->nvectors; v++)
		any |= bytes[v] > 0;
	if (!any)
		return;
	hroe_jsonb_push_key(st, "VectorIndexes");
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	for (int v = 0; v < t->nvectors; v++)
	{
		if (bytes[v] <= 0)
			continue;
		hroe_jsonb_push_key(st, t->vectors[v].name);
		pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
		PushNamedUnits(st, "VectorWriteRequestBytes", bytes[v]);
		pushJsonbValue(st, WJB_END_OBJECT, NULL);
	}
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/*
 * ConsumedCapacity for ReturnConsumedCapacity NONE (NULL), TOTAL or INDEXES;
 * index_units (may be NULL) has one entry per index of t.
 */
Jsonb *
hroe_capacity_jsonb(const char *return_cc, const char *table, double table_units,
					HroeTableMeta *t, double *index_units)
{
	JsonbParseState *st = NULL;
	JsonbValue	v;
	double		total = table_units;
	bool		indexes;

	if (return_cc == NULL || strcmp(return_cc, "NONE") == 0)
		return NULL;
	indexes = strcmp(return_cc, "INDEXES") == 0;
	if (!indexes && strcmp(return_cc, "TOTAL") != 0)
		HroeValidation(psprintf("1 validation error detected: Value '%s' at 'returnConsumedCapacity' failed to satisfy constraint: Member must satisfy enum value set: [" HROE_ENUM_RETURN_CC "]",
								return_cc));
	if (index_units)
		for (int i = 0; i < t->nindexes; i++)
			total += index_units[i];
	pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
	hroe_jsonb_push_key(&st, "TableName");
	v.type = jbvString;
	v.val.string.val = (char *) table;
	v.val.string.len = strlen(table);
	pushJsonbValue(&st, WJB_VALUE, &v);
	PushNamedUnits(&st, "CapacityUnits", total);
	if (indexes)
	{
		hroe_jsonb_push_key(&st, "Table");
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		PushNamedUnits(&st, "CapacityUnits", table_units);
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
		if (index_units)
		{
			PushIndexUnits(&st, t, index_units, NULL, true);
			PushIndexUnits(&st, t, index_units, NULL, false);
			PushVectorBytes(&st, t, index_units + t->nindexes);
		}
	}
	return JsonbValueToJsonb(pushJsonbValue(&st, WJB_END_OBJECT, NULL));
}

PG_FUNCTION_INFO_V1(hroe_write_consumed_capacity);
/*
 * SQL: hroe.write_consumed_capacity(table, old, new): the ConsumedCapacity
 * (INDEXES) a PutItem replacing old by new, or a DeleteItem of old (new
 * NULL), reports
 */
Datum
hroe_write_consumed_capacity(PG_FUNCTION_ARGS)
{
	char	   *table;
	HroeItem   *old = PG_ARGISNULL(1) ? NULL : PG_GETARG_HROE_ITEM_P(1);
	HroeItem   *new = PG_ARGISNULL(2) ? NULL : PG_GETARG_HROE_ITEM_P(2);
	HroeTableMeta *t;
	Datum		keys[2];
	double		units;
	double		index_units[HROE_MAX_INDEXES];

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("table name must not be NULL")));
	table = text_to_cstring(PG_GETARG_TEXT_PP(0));
	SPI_connect();
	t = hroe_table_lookup(table, false);
	if (old)
		hroe_check_item_key(t, old, keys);
	if (new)
		hroe_check_item_key(t, new, keys);
	if (old && new &&
		strcmp(hroe_item_key_identity(t, old), hroe_item_key_identity(t, new)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the old and the new item have different keys"),
				 errhint("A write replaces the item of one key; give the old and the new version of the same item.")));
	units = hroe_write_capacity(t, old, new, index_units);
	SPI_finish();
	PG_RETURN_JSONB_P(hroe_capacity_jsonb("INDEXES", table, units, t, index_units));
}

PG_FUNCTION_INFO_V1(hroe_read_capacity_units);
/* SQL: hroe.read_capacity_units(bytes, consistent) */
Datum
hroe_read_capacity_units(PG_FUNCTION_ARGS)
{
	int64		bytes = PG_GETARG_INT64(0);

	if (bytes < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bytes read must not be negative")));
	PG_RETURN_FLOAT8(hroe_read_units(bytes, PG_GETARG_BOOL(1)));
}

PG_FUNCTION_INFO_V1(hroe_write_capacity_units);
/* SQL: hroe.write_capacity_units(bytes) */
Datum
hroe_write_capacity_units(PG_FUNCTION_ARGS)
{
	int64		bytes = PG_GETARG_INT64(0);

	if (bytes < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bytes written must not be negative")));
	PG_RETURN_INT64(hroe_write_units(bytes));
}

/*
 * Charge a transactional write of old (NULL: absent) replaced by new (NULL:
 * deleted, or unchanged for a ConditionCheck): the larger item in 1 KB
 * units, at least 1, and the index writes, all doubled
 */
void
hroe_tx_write_capacity(HroeTableCapacity *c, HroeItem *old, HroeItem *new, bool check)
{
	int64		size = Max(old ? hroe_item_size(old) : 0, new ? hroe_item_size(new) : 0);
	double		iu[HROE_MAX_INDEXES];

	c->units += 2 * hroe_write_units(size);
	if (check)
		return;
	hroe_write_index_units(c->t, old, new, iu);
	for (int i = 0; i < c->t->nindexes; i++)
		c->index_units[i] += 2 * iu[i];
}

/* Push {"CapacityUnits": units, kind: units} */
static void
PushUnitsObject(JsonbParseState **st, const char *kind, double units)
{
	pushJsonbValue(st, WJB_BEGIN_OBJECT, NULL);
	PushNamedUnits(st, "CapacityUnits", units);
	PushNamedUnits(st, kind, units);
	pushJsonbValue(st, WJB_END_OBJECT, NULL);
}

/*
 * A transaction's ConsumedCapacity (rcc TOTAL or INDEXES; NULL for NONE):
 * one entry per table, CapacityUnits and ReadCapacityUnits or
 * WriteCapacityUnits (kind)
 */
Jsonb *
hroe_tx_capacity_jsonb(const char *rcc, HroeTableCapacity *caps, int ncaps, const char *kind)
{
	JsonbParseState *st = NULL;
	JsonbValue *res;
	bool		indexes;

	if (rcc == NULL || strcmp(rcc, "NONE") == 0)
		return NULL;
	indexes = strcmp(rcc, "INDEXES") == 0;
	pushJsonbValue(&st, WJB_BEGIN_ARRAY, NULL);
	for (int i = 0; i < ncaps; i++)
	{
		HroeTableCapacity *c = &caps[i];
		double		total = c->units;
		JsonbValue	v;

		for (int x = 0; x < c->t->nindexes; x++)
			total += c->index_units[x];
		pushJsonbValue(&st, WJB_BEGIN_OBJECT, NULL);
		hroe_jsonb_push_key(&st, "TableName");
		v.type = jbvString;
		v.val.string.val = (char *) c->table;
		v.val.string.len = strlen(c->table);
		pushJsonbValue(&st, WJB_VALUE, &v);
		PushNamedUnits(&st, "CapacityUnits", total);
		PushNamedUnits(&st, kind, total);
		if (indexes)
		{
			hroe_jsonb_push_key(&st, "Table");
			PushUnitsObject(&st, kind, c->units);
			PushIndexUnits(&st, c->t, c->index_units, kind, true);
			PushIndexUnits(&st, c->t, c->index_units, kind, false);
		}
		pushJsonbValue(&st, WJB_END_OBJECT, NULL);
	}
	res = pushJsonbValue(&st, WJB_END_ARRAY, NULL);
	return JsonbValueToJsonb(res);
}
