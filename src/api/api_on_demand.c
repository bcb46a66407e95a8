/*-------------------------------------------------------------------------
 *
 * api_on_demand.c
 *	  OnDemandThroughput in CreateTable and UpdateTable: the most read and
 *	  write request units per second of an on-demand table and of each of
 *	  its GSIs, stored by hroe.set_on_demand_throughput (throttle.sql) and
 *	  described by hroe.table_description.  Enforced only on the tables
 *	  whose throttling is on (src/tables/throttle.c, doc/throttling.md).
 *	  See https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <stdlib.h>

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "api_internal.h"
#include "errors.h"

/* A Long member of an OnDemandThroughput: *present false if absent */
static int64
LongMember(JsonbContainer *obj, const char *name, bool *present)
{
	JsonbValue *v = hroe_api_member(obj, name);
	char	   *text;
	char	   *end;
	long long	n;

	*present = v != NULL;
	if (v == NULL)
		return 0;
	if (v->type != jbvNumeric)
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	/* a Long: a fraction or a number past its range is not one */
	text = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
	errno = 0;
	n = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0')
		HroeSerialization(psprintf("Unexpected value type in payload: %s", name));
	return (int64) n;
}

/* The OnDemandThroughput object of obj, or NULL */
static JsonbContainer *
OnDemandMember(JsonbContainer *obj)
{
	Jsonb	   *j = hroe_api_member_jsonb(obj, "OnDemandThroughput");

	if (j == NULL)
		return NULL;
	if (!JB_ROOT_IS_OBJECT(j))
		HroeSerialization("Unexpected value type in payload: OnDemandThroughput");
	return &j->root;
}

/* Whether obj (a request, a GSI, a GSI update) has an OnDemandThroughput */
bool
hroe_api_has_on_demand(JsonbContainer *obj)
{
	return obj != NULL && OnDemandMember(obj) != NULL;
}

/* Store obj's OnDemandThroughput (if any) for table, or its GSI index */
static void
SetOnDemand(JsonbContainer *obj, const char *table, const char *index)
{
	static SPIPlanPtr plan;
	JsonbContainer *odt = obj ? OnDemandMember(obj) : NULL;
	Datum		v[4];
	char		nulls[5] = "    ";
	bool		read_given,
				write_given;
	int64		read,
				write;
	int			ret;

	if (odt == NULL)
		return;
	read = LongMember(odt, "MaxReadRequestUnits", &read_given);
	write = LongMember(odt, "MaxWriteRequestUnits", &write_given);
	if (plan == NULL)
	{
		Oid			types[4] = {TEXTOID, TEXTOID, INT8OID, INT8OID};
		SPIPlanPtr	p = SPI_prepare("SELECT hroe.set_on_demand_throughput($1, $2, $3, $4)", 4, types);

		if (p == NULL || SPI_keepplan(p) != 0)
			elog(ERROR, "preparing hroe.set_on_demand_throughput failed: %s",
				 SPI_result_code_string(SPI_result));
		plan = p;
	}
	v[0] = CStringGetTextDatum(table);
	v[1] = index ? CStringGetTextDatum(index) : (nulls[1] = 'n', (Datum) 0);
	v[2] = read_given ? Int64GetDatum(read) : (nulls[2] = 'n', (Datum) 0);
	v[3] = write_given ? Int64GetDatum(write) : (nulls[3] = 'n', (Datum) 0);
	ret = SPI_execute_plan(plan, v, nulls, false, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "hroe.set_on_demand_throughput failed: %s", SPI_result_code_string(ret));
}

/*
 * The OnDemandThroughput of a CreateTable (create: the table's and each
 * GlobalSecondaryIndexes member's) or an UpdateTable (the table's and each
 * GlobalSecondaryIndexUpdates Create's or Update's), once the table's
 * other settings are applied (the billing mode decides whether it may be
 * given).
 */
void
hroe_api_apply_on_demand(JsonbContainer *req, const char *table, bool create)
{
	JsonbContainer **gsis;
	int			ngsis;

	SetOnDemand(req, table, NULL);
	ngsis = hroe_api_member_array(req, create ? "GlobalSecondaryIndexes" : "GlobalSecondaryIndexUpdates",
								  &gsis);
	for (int g = 0; g < ngsis; g++)
	{
		JsonbContainer *index = gsis[g];

		if (!create)
		{
			Jsonb	   *c = hroe_api_member_jsonb(gsis[g], "Create");
			Jsonb	   *u = hroe_api_member_jsonb(gsis[g], "Update");

			index = c && JB_ROOT_IS_OBJECT(c) ? &c->root : u && JB_ROOT_IS_OBJECT(u) ? &u->root : NULL;
		}
		if (index && hroe_api_has_on_demand(index))
			SetOnDemand(index, table, hroe_api_member_text(index, "IndexName", "IndexName"));
	}
}
