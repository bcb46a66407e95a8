/*-------------------------------------------------------------------------
 *
 * tables_partition.c
 *	  Distributed tables (doc/partitioning.md): a DynamoDB table that is a
 *	  PostgreSQL table hash-partitioned by its partition key column pk, each
 *	  partition a postgres_fdw foreign table on another server, where it is
 *	  a hroe table of its own (primary key, GSI and LSI indexes).  The
 *	  setting hroe.partition_servers makes CreateTable distribute new tables
 *	  (src/tables/tables.sql); here, the server that holds a given partition key,
 *	  which the transactions use to refuse a write transaction spanning
 *	  servers (postgres_fdw commits each server's part on its own, with no
 *	  two-phase commit).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_class.h"
#include "executor/executor.h"
#include "foreign/foreign.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/rls.h"

#include "tables.h"

/* hroe.partition_servers: the foreign servers CreateTable distributes over */
char	   *hroe_partition_servers = NULL;

/* The index in t's partition descriptor of the partition holding pk */
static int
KeyPartitionIndex(Relation rel, HroeTableMeta *t, Datum pk, PartitionDesc *pdp)
{
	PartitionKey key;
	PartitionDesc pd;
	bool		isnull = false;
	uint64		hash;
	int			modulus;
	int			part;

	key = RelationGetPartitionKey(rel);
	if (key == NULL || key->strategy != PARTITION_STRATEGY_HASH || key->partnatts != 1)
		elog(ERROR, "distributed table %s is not hash-partitioned on one column", t->relname);
	pd = RelationGetPartitionDesc(rel, true);
	if (pd->nparts == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CHECK_VIOLATION),
				 errmsg("distributed table %s has no partition", t->relname)));
	hash = compute_partition_hash_value(1, key->partsupfunc, key->partcollation, &pk, &isnull);
	modulus = get_hash_partition_greatest_modulus(pd->boundinfo);
	part = pd->boundinfo->indexes[hash % (uint64) modulus];
	if (part < 0)
		ereport(ERROR,
				(errcode(ERRCODE_CHECK_VIOLATION),
				 errmsg("no partition of distributed table %s holds this partition key", t->relname)));
	*pdp = pd;
	return part;
}

/*
 * The foreign server holding the partition of distributed table t where an
 * item of partition key column value pk lives (t's pk column form, as the
 * key Datums of operations.h hold it); InvalidOid for a table that is not
 * distributed or a partition that is local.
 */
Oid
hroe_table_key_server(HroeTableMeta *t, Datum pk)
{
	Relation	rel;
	PartitionDesc pd;
	int			part;
	Oid			server = InvalidOid;

	if (!t->distributed)
		return InvalidOid;
	rel = table_open(t->relid, AccessShareLock);
	part = KeyPartitionIndex(rel, t, pk, &pd);
	if (get_rel_relkind(pd->oids[part]) == RELKIND_FOREIGN_TABLE)
		server = GetForeignTable(pd->oids[part])->serverid;
	table_close(rel, NoLock);
	return server;
}

/*
 * The position, among hroe_table_read_partitions' list, of the partition of
 * distributed table t holding partition key column value pk (t's pk column
 * form): the same hash PostgreSQL routes and prunes by.
 */
int
hroe_table_key_partition(HroeTableMeta *t, Datum pk)
{
	Relation	rel;
	PartitionDesc pd;
	int			part;

	rel = table_open(t->relid, AccessShareLock);
	part = KeyPartitionIndex(rel, t, pk, &pd);
	table_close(rel, NoLock);
	return part;
}

/*
 * May the current user read a distributed table's partitions pd by name:
 * each a foreign table it may SELECT from, without row-level security?
 * (the table itself checked by ReadableTable)
 */
static bool
PartitionsReadable(PartitionDesc pd)
{
	Oid			user = GetUserId();

	for (int i = 0; i < pd->nparts; i++)
	{
		Oid			part = pd->oids[i];

		if (get_rel_relkind(part) != RELKIND_FOREIGN_TABLE ||
			pg_class_aclcheck(part, user, ACL_SELECT) != ACLCHECK_OK ||
			check_enable_rls(part, InvalidOid, true) != RLS_NONE)
			return false;
	}
	return true;
}

/*
 * Is t distributed, and may the current user SELECT from it without
 * row-level security or a permission-checking module (which only the
 * executor's reads through postgres_fdw call, as hroe_direct_read_allowed
 * says for local reads)?
 */
static bool
ReadableTable(HroeTableMeta *t)
{
	return t->distributed && ExecutorCheckPerms_hook == NULL &&
		check_enable_rls(t->relid, InvalidOid, true) == RLS_NONE &&
		pg_class_aclcheck(t->relid, GetUserId(), ACL_SELECT) == ACLCHECK_OK;
}

/*
 * The partitions of distributed table t, in the order of its partition
 * descriptor (the positions hroe_table_key_partition gives), as
 * schema-qualified, quoted names, when hroe may read them by name rather
 * than through t: each is a foreign table the current user may SELECT
 * from (and t too), and row-level security applies neither to t nor to any of them
 * (reading a partition by name checks its own privileges and policies, not
 * t's).  NIL otherwise (not distributed, or the reads go through t).
 *
 * Reading a partition by name is hroe pruning by the stored key column
 * itself: the statement is then one foreign scan, which postgres_fdw ships
 * whole (conditions, ORDER BY and LIMIT), needs no partition key expression
 * (evaluated on every row found, on the item), and has a generic plan.
 * With oids, *oids gets the partitions' foreign tables too, in the same
 * order (t opened once for both).
 */
List *
hroe_table_read_partitions(HroeTableMeta *t, Oid **oids)
{
	Relation	rel;
	PartitionDesc pd;
	List	   *names = NIL;

	if (!ReadableTable(t))
		return NIL;
	rel = table_open(t->relid, AccessShareLock);
	pd = RelationGetPartitionDesc(rel, true);
	if (PartitionsReadable(pd))
	{
		for (int i = 0; i < pd->nparts; i++)
			names = lappend(names,
							quote_qualified_identifier(get_namespace_name(get_rel_namespace(pd->oids[i])),
													   get_rel_name(pd->oids[i])));
		if (oids != NULL)
		{
			*oids = palloc(pd->nparts * sizeof(Oid));
			memcpy(*oids, pd->oids, pd->nparts * sizeof(Oid));
		}
	}
	table_close(rel, NoLock);
	return names;
}

/*
 * The partition of distributed table t holding partition key column value
 * pk, when hroe may read t's partitions by name (the rules of
 * hroe_table_read_partitions: t and every partition a foreign table the
 * current user may SELECT from, no row-level security); InvalidOid
 * otherwise.  A GetItem's lookup: t opened once, no names built.
 */
Oid
hroe_table_read_key_partition(HroeTableMeta *t, Datum pk)
{
	Relation	rel;
	PartitionDesc pd;
	Oid			result = InvalidOid;
	int			part;

	if (!ReadableTable(t))
		return InvalidOid;
	rel = table_open(t->relid, AccessShareLock);
	part = KeyPartitionIndex(rel, t, pk, &pd);
	if (PartitionsReadable(pd))
		result = pd->oids[part];
	table_close(rel, NoLock);
	return result;
}

/*
 * The SQL condition "pk = $param" of t's partition key.  A distributed table
 * is partitioned by the expression its pk column is generated by (which
 * PostgreSQL requires: no generated column in a partition key), and the
 * planner prunes partitions only by a condition on that expression: it is
 * added, equal to the same parameter (pk is that expression's value), so a
 * key's statement reaches the one partition, where pk = $param finds the
 * primary key index and the other condition is rechecked on the row found.
 */
char *
hroe_table_pk_qual(HroeTableMeta *t, int param)
{
	if (!t->distributed)
		return psprintf("pk = $%d", param);
	return psprintf("pk = $%d AND %s = $%d", param, hroe_table_pk_expr(t), param);
}

/* The expression a table's pk column is generated by (its partition key) */
char *
hroe_table_pk_expr(HroeTableMeta *t)
{
	return psprintf("hroe.item_key_%c(item, %s, false)",
					t->schema.types[0] == 'S' ? 's' : t->schema.types[0] == 'N' ? 'n' : 'b',
					quote_literal_cstr(t->schema.names[0]));
}
