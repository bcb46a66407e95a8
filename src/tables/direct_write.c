/*-------------------------------------------------------------------------
 *
 * direct_write.c
 *	  Writes that replace an existing row without SPI or the executor:
 *	  PutItem's overwrite (one probe of the primary key btree) and the locked
 *	  writes (the row a conditional PutItem, an UpdateItem or a transaction
 *	  locked FOR UPDATE, by its TID); the generated key columns computed by
 *	  calling their functions directly, heap_update, and the index entries a
 *	  non-HOT update needs.
 *
 * An unconditional PutItem is an upsert (with ReturnValues ALL_OLD or
 * ReturnConsumedCapacity, one that returns the replaced item).  Through SPI
 * every call starts an executor: ModifyTable, the stored generated columns'
 * expressions read back from the catalog and planned again
 * (ExecInitStoredGenerated), the ON CONFLICT arbiter's probe and the tuple
 * lock; that start costs more than the write itself.  When the item
 * exists and nothing in the table asks for the executor, this file replaces
 * the row the way the executor's UPDATE would (the same heap_update, the
 * same index insertions through ExecInsertIndexTuples, the same WAL) and
 * returns true.  A locked write (hroe_direct_update_locked) replaces the
 * row it locked the same way, instead of UPDATE ... WHERE ctid.  Both return
 * false, having written nothing, in every other case, and the caller runs
 * its SQL statement:
 *	- hroe.direct_access is off;
 *	- the transaction is read-only (the executor raises the error), or
 *	  REPEATABLE READ or SERIALIZABLE (their serialization checks are the
 *	  executor's);
 *	- row-level security applies, or the user lacks table-level INSERT,
 *	  UPDATE or SELECT (column privileges are the executor's to check);
 *	- the table has a trigger (foreign keys and deferrable constraints are
 *	  triggers too), a rule, published updates (the replica identity checks),
 *	  a permission-checking module (sepgsql), or a generated column or
 *	  CHECK constraint that is not calls of immutable functions on plain
 *	  columns and constants (hroe's own are: the key columns, the GSI key
 *	  type checks; a function's change is seen at once);
 *	- the table is a partition (the partition constraint), its item column
 *	  is not of type hroe.item (a domain's constraints), or it changed while
 *	  the call waited for its lock;
 *	- a NOT NULL column would be null or a CHECK constraint false;
 *	- the item is absent, or another transaction changed or deleted it
 *	  between the probe and the update (heap_update waited for it first).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_publication.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "optimizer/optimizer.h"
#include "rewrite/rewriteHandler.h"
#include "utils/acl.h"
#include "utils/datum.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"

#include "catalog.h"
#include "direct_write.h"
#include "tables.h"

/* hroe.direct_access (tables_init.c): the direct reads and writes allowed */
bool		hroe_direct_access = true;

#define MAX_CALL_ARGS 8

/* A function call on plain columns and constants, evaluated without the executor */
typedef struct HroeDirectCall
{
	FmgrInfo	flinfo;
	Oid			collation;
	int			nargs;
	AttrNumber	argattno[MAX_CALL_ARGS];	/* a column, or 0: a constant */
	Datum		argvalue[MAX_CALL_ARGS];
	bool		argnull[MAX_CALL_ARGS];
} HroeDirectCall;

/*
 * What a direct write of one table needs, read once per relcache entry: why
 * the table keeps writes in the executor, or its generated columns and CHECK
 * constraints
 */
typedef struct HroeDirectWrite
{
	MemoryContext cxt;			/* holds this, a child of the table's */
	uint64		proc_changes;	/* hroe_catalog_proc_changes() when loaded */
	const char *obstacle;		/* NULL: the table allows direct writes */
	int			ngenerated;
	AttrNumber *generated_attno;
	HroeDirectCall *generated;
	int			nchecks;
	HroeDirectCall *checks;		/* each true or null, as a CHECK */
} HroeDirectWrite;

/*
 * Set up call from expression expr, a function of plain columns of desc and
 * constants returning type rettype (in the current memory context); false if
 * expr is anything else
 */
static bool
LoadCall(Node *expr, TupleDesc desc, Oid rettype, HroeDirectCall *call)
{
	FuncExpr   *fe;
	ListCell   *lc;
	int			k = 0;

	if (expr == NULL || !IsA(expr, FuncExpr))
		return false;
	fe = (FuncExpr *) expr;
	/*
	 * An immutable function only: a stable or volatile CHECK may read the
	 * database, and the executor would run it under its own snapshot.
	 */
	if (fe->funcretset || fe->funcvariadic || fe->funcresulttype != rettype ||
		list_length(fe->args) > MAX_CALL_ARGS ||
		func_volatile(fe->funcid) != PROVOLATILE_IMMUTABLE)
		return false;
	foreach(lc, fe->args)
	{
		Node	   *arg = lfirst(lc);

		if (IsA(arg, Var))
		{
			Var		   *var = (Var *) arg;

			if (var->varlevelsup != 0 || var->varattno <= 0 || var->varattno > desc->natts ||
				TupleDescAttr(desc, var->varattno - 1)->attgenerated != '\0')
				return false;
			call->argattno[k] = var->varattno;
		}
		else if (IsA(arg, Const))
		{
			Const	   *c = (Const *) arg;

			call->argattno[k] = 0;
			call->argnull[k] = c->constisnull;
			if (!c->constisnull)
				call->argvalue[k] = datumCopy(c->constvalue, c->constbyval, c->constlen);
		}
		else
			return false;
		k++;
	}
	call->nargs = k;
	call->collation = fe->inputcollid;
	fmgr_info(fe->funcid, &call->flinfo);
	/* polymorphic functions read their argument types from the expression */
	fmgr_info_set_expr((Node *) copyObject(fe), &call->flinfo);
	return true;
}

/* Add the calls of a CHECK expression (an AND of calls) to dw; false if it is not that */
static bool
LoadCheck(Node *expr, TupleDesc desc, HroeDirectWrite *dw, int maxchecks)
{
	if (expr && IsA(expr, BoolExpr) && ((BoolExpr *) expr)->boolop == AND_EXPR)
	{
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) expr)->args)
			if (!LoadCheck(lfirst(lc), desc, dw, maxchecks))
				return false;
		return true;
	}
	if (dw->nchecks >= maxchecks)
		return false;
	if (!LoadCall(expr, desc, BOOLOID, &dw->checks[dw->nchecks]))
		return false;
	dw->nchecks++;
	return true;
}

/*
 * Why the relation keeps writes in the executor, or NULL: its kind, its
 * triggers, rules and publications (all of which invalidate its relcache
 * entry, and with it t, when they change)
 */
static const char *
RelationObstacle(HroeTableMeta *t, Relation rel)
{
	PublicationDesc pubdesc;

	if (rel->rd_rel->relkind != RELKIND_RELATION)
		return "it is not a plain table";
	/* ExecPartitionCheck is the executor's */
	if (rel->rd_rel->relispartition)
		return "it is a partition";
	/* a domain's constraints are checked by the executor's coercion */
	if (TupleDescAttr(RelationGetDescr(rel), t->item_attno - 1)->atttypid != hroe_item_typid())
		return "its item column is not of type hroe.item";
	if (rel->trigdesc != NULL)
		return "it has triggers";
	if (rel->rd_rules != NULL)
		return "it has rules";
	/* CheckCmdReplicaIdentity's checks of published updates are the executor's */
	RelationBuildPublicationDesc(rel, &pubdesc);
	if (pubdesc.pubactions.pubupdate)
		return "its updates are published";
	return NULL;
}

/*
 * Read generated columns and CHECK constraints of rel into dw, planned as the
 * executor plans them (default arguments filled in); false if one of them is
 * not an immutable function's call on plain columns and constants
 */
static bool
LoadCalls(HroeDirectWrite *dw, Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	TupleConstr *constr = desc->constr;
	int			maxchecks = 0;

	dw->generated_attno = palloc0(sizeof(AttrNumber) * Max(desc->natts, 1));
	dw->generated = palloc0(sizeof(HroeDirectCall) * Max(desc->natts, 1));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped || att->attgenerated == '\0')
			continue;
		if (att->attgenerated != ATTRIBUTE_GENERATED_STORED ||
			!LoadCall((Node *) expression_planner((Expr *) build_column_default(rel, i + 1)),
					  desc, att->atttypid, &dw->generated[dw->ngenerated]))
			return false;
		dw->generated_attno[dw->ngenerated++] = i + 1;
	}
	/* hroe's GSI key type checks: one AND of a few calls per GSI */
	if (constr)
		maxchecks = constr->num_check * 2 * HROE_MAX_KEY_ATTRS;
	dw->checks = palloc0(sizeof(HroeDirectCall) * Max(maxchecks, 1));
	for (int i = 0; constr && i < constr->num_check; i++)
		if (!LoadCheck((Node *) expression_planner(stringToNode(constr->check[i].ccbin)),
					   desc, dw, maxchecks))
			return false;
	return true;
}

/*
 * What a direct write of t's relation rel needs (see HroeDirectWrite), in a
 * context of t's: dropped with t when the relation changes, rebuilt when a
 * function changes
 */
static HroeDirectWrite *
LoadDirectWrite(HroeTableMeta *t, Relation rel)
{
	HroeDirectWrite *dw = t->direct_write;
	uint64		proc_changes = hroe_catalog_proc_changes();
	MemoryContext cxt,
				oldcxt;

	if (dw != NULL && dw->proc_changes == proc_changes)
		return dw;
	t->direct_write = NULL;
	if (dw != NULL)
		MemoryContextDelete(dw->cxt);
	cxt = AllocSetContextCreate(t->cxt, "hroe direct write", ALLOCSET_SMALL_SIZES);
	/* the planner's garbage too goes with the context */
	oldcxt = MemoryContextSwitchTo(cxt);
	dw = palloc0(sizeof(HroeDirectWrite));
	dw->cxt = cxt;
	dw->proc_changes = proc_changes;
	dw->obstacle = RelationObstacle(t, rel);
	if (dw->obstacle == NULL && !LoadCalls(dw, rel))
		dw->obstacle = "a generated column or CHECK constraint is not calls of immutable functions on plain columns and constants";
	MemoryContextSwitchTo(oldcxt);
	t->direct_write = dw;
	return dw;
}

/* Evaluate call on the row values/nulls (plain columns set) */
static Datum
EvalCall(HroeDirectCall *call, Datum *values, bool *nulls, bool *isnull)
{
	LOCAL_FCINFO(fcinfo, MAX_CALL_ARGS);
	bool		anynull = false;
	Datum		result;

	InitFunctionCallInfoData(*fcinfo, &call->flinfo, call->nargs, call->collation, NULL, NULL);
	for (int k = 0; k < call->nargs; k++)
	{
		AttrNumber	a = call->argattno[k];

		fcinfo->args[k].value = a ? values[a - 1] : call->argvalue[k];
		fcinfo->args[k].isnull = a ? nulls[a - 1] : call->argnull[k];
		anynull |= fcinfo->args[k].isnull;
	}
	if (anynull && call->flinfo.fn_strict)
	{
		*isnull = true;
		return (Datum) 0;
	}
	result = FunctionCallInvoke(fcinfo);
	*isnull = fcinfo->isnull;
	return result;
}

/* Why the table keeps the write in the executor for this user, or NULL */
static const char *
DirectWriteObstacle(HroeTableMeta *t, Relation rel)
{
	AclMode		need = ACL_INSERT | ACL_UPDATE | ACL_SELECT;

	/* invalidated while this call waited for the table's lock (ALTER TABLE) */
	if (!t->valid)
		return "the table changed during the call";
	if (ExecutorCheckPerms_hook != NULL)
		return "a permission-checking module is loaded";
	if (pg_class_aclmask(t->relid, GetUserId(), need, ACLMASK_ALL) != need)
		return "the user lacks table-level INSERT, UPDATE or SELECT";
	return LoadDirectWrite(t, rel)->obstacle;
}

/*
 * May the current user read table relid without the executor (a key's btree
 * probe, hroe.direct_access)?  Only when nothing the executor alone applies
 * is in play: table-level SELECT, no row-level security, no
 * permission-checking module.  Otherwise the caller runs its SQL statement,
 * which applies column privileges, policies and the module, and refuses as
 * the executor refuses (one rule for every direct read).
 */
bool
hroe_direct_read_allowed(Oid relid)
{
	return hroe_direct_access &&
		ExecutorCheckPerms_hook == NULL &&
		check_enable_rls(relid, InvalidOid, true) != RLS_ENABLED &&
		pg_class_aclcheck(relid, GetUserId(), ACL_SELECT) == ACLCHECK_OK;
}

/* Why the session keeps a write in the executor, or NULL if it does not */
static const char *
SessionObstacle(HroeTableMeta *t)
{
	if (XactReadOnly || IsInParallelMode())
		return "the transaction is read-only";
	if (IsolationUsesXactSnapshot())
		return "the transaction is REPEATABLE READ or SERIALIZABLE";
	if (check_enable_rls(t->relid, InvalidOid, true) == RLS_ENABLED)
		return "row-level security applies";
	return NULL;
}

/*
 * Open t's table (and, with idx, its primary key index) for a direct write
 * of operation op (the names in the DEBUG1 messages), with a slot for the
 * old row, the write's command *cid and its registered snapshot; NULL,
 * nothing open, when the session or the table keeps the write in the executor
 */
static Relation
OpenForWrite(HroeTableMeta *t, const char *op, Relation *idx, TupleTableSlot **oldslot,
			 CommandId *cid, Snapshot *snapshot)
{
	Relation	rel;
	const char *obstacle;

	if (!hroe_direct_access)
		return NULL;
	/* (a partitioned table, without a primary key index of its own) */
	if (t->distributed)
	{
		elog(DEBUG1, "hroe: %s on %s runs as SQL: it is distributed", op, t->relname);
		return NULL;
	}
	obstacle = SessionObstacle(t);
	if (obstacle)
	{
		elog(DEBUG1, "hroe: %s on %s runs as SQL: %s", op, t->relname, obstacle);
		return NULL;
	}
	rel = table_open(t->relid, RowExclusiveLock);
	/* the first call also sets up t's item column */
	if (idx)
		*idx = hroe_pkey_index_open(t, rel, RowExclusiveLock);
	else if (!OidIsValid(t->pkey_index))
		index_close(hroe_pkey_index_open(t, rel, RowExclusiveLock), NoLock);
	obstacle = DirectWriteObstacle(t, rel);
	if (obstacle)
	{
		elog(DEBUG1, "hroe: %s on %s runs as SQL: %s", op, t->relname, obstacle);
		if (idx)
			index_close(*idx, NoLock);
		table_close(rel, NoLock);
		return NULL;
	}
	/* as SPI before a statement that writes: earlier writes become visible */
	CommandCounterIncrement();
	*cid = GetCurrentCommandId(true);
	*snapshot = RegisterSnapshot(GetLatestSnapshot());
	*oldslot = table_slot_create(rel, NULL);
	return rel;
}

/* Close what OpenForWrite opened */
static void
CloseForWrite(Relation rel, Relation idx, TupleTableSlot *oldslot, Snapshot snapshot)
{
	ExecDropSingleTupleTableSlot(oldslot);
	UnregisterSnapshot(snapshot);
	if (idx)
		index_close(idx, NoLock);
	table_close(rel, NoLock);
}

/*
 * Replace the row in oldslot (a row of rel, opened by OpenForWrite) by one
 * holding item, as the executor's UPDATE would: with command cid, waiting
 * for a concurrent writer under snapshot; with old, *old gets the replaced
 * item, copied into cxt.  False, nothing written, when a constraint would
 * fail or the row changed since it was read (the caller then runs SQL).
 */
static bool
ReplaceRow(HroeTableMeta *t, Relation rel, TupleTableSlot *oldslot, HroeItem *item,
		   CommandId cid, Snapshot snapshot, const char *op, MemoryContext cxt, HroeItem **old)
{
	TupleDesc	desc = RelationGetDescr(rel);
	TupleTableSlot *newslot = MakeSingleTupleTableSlot(desc, &TTSOpsVirtual);
	Datum	   *values = newslot->tts_values;
	bool	   *nulls = newslot->tts_isnull;
	HroeDirectWrite *dw = t->direct_write;
	const char *obstacle = NULL;
	bool		written = false;

	/* the old row's other columns point into its page, pinned by oldslot */
	slot_getallattrs(oldslot);
	for (int i = 0; i < desc->natts; i++)
	{
		/* as the executor's UPDATE: a dropped column's old value goes */
		bool		dropped = TupleDescAttr(desc, i)->attisdropped;

		values[i] = dropped ? (Datum) 0 : oldslot->tts_values[i];
		nulls[i] = dropped || oldslot->tts_isnull[i];
	}
	values[t->item_attno - 1] = PointerGetDatum(item);
	nulls[t->item_attno - 1] = false;
	for (int g = 0; g < dw->ngenerated; g++)
	{
		AttrNumber	a = dw->generated_attno[g];

		values[a - 1] = EvalCall(&dw->generated[g], values, nulls, &nulls[a - 1]);
	}
	/* a violated constraint: the executor raises its error */
	for (int i = 0; i < desc->natts; i++)
		if (nulls[i] && TupleDescAttr(desc, i)->attnotnull)
			obstacle = "a NOT NULL column would be null";
	for (int c = 0; c < dw->nchecks && obstacle == NULL; c++)
	{
		bool		isnull;
		Datum		ok = EvalCall(&dw->checks[c], values, nulls, &isnull);

		if (!isnull && !DatumGetBool(ok))
			obstacle = "a CHECK constraint would fail";
	}
	if (obstacle == NULL)
	{
		ItemPointerData tid = oldslot->tts_tid;
		TM_FailureData tmfd;
		LockTupleMode lockmode;
		bool		update_indexes;
		TM_Result	result;

		ExecStoreVirtualTuple(newslot);
		result = table_tuple_update(rel, &tid, newslot, cid, snapshot, InvalidSnapshot, true,
									&tmfd, &lockmode, &update_indexes);

		/*
		 * TM_Updated, TM_Deleted: changed by a transaction that committed
		 * since the row was read (heap_update waited for it);
		 * TM_SelfModified: by this command.  The SQL statement then decides
		 * on the newest version.
		 */
		written = result == TM_Ok;
		if (!written)
			obstacle = "the item changed since it was read";
		/* the old version stays on its page, pinned by oldslot */
		if (written && old)
		{
			MemoryContext oldcxt = MemoryContextSwitchTo(cxt);

			*old = (HroeItem *) PG_DETOAST_DATUM_COPY(oldslot->tts_values[t->item_attno - 1]);
			MemoryContextSwitchTo(oldcxt);
		}
		if (written && update_indexes)
		{
			EState	   *estate = CreateExecutorState();
			MemoryContext oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);
			ResultRelInfo *rri = makeNode(ResultRelInfo);
			List	   *recheck PG_USED_FOR_ASSERTS_ONLY;

			InitResultRelInfo(rri, rel, 0, NULL, 0);
			ExecOpenIndices(rri, false);
			recheck = ExecInsertIndexTuples(rri, newslot, estate, true, false, NULL, NIL);
			/* only deferrable constraints ask for a recheck: they are triggers */
			Assert(recheck == NIL);
			ExecCloseIndices(rri);
			MemoryContextSwitchTo(oldcxt);
			FreeExecutorState(estate);
		}
		if (written)
			elog(DEBUG1, "hroe: %s replaced the item in %s directly%s", op, t->relname,
				 update_indexes ? ", index entries added" : " (HOT)");
	}
	if (!written)
		elog(DEBUG1, "hroe: %s on %s runs as SQL: %s", op, t->relname, obstacle);
	ExecDropSingleTupleTableSlot(newslot);
	return written;
}

/*
 * PutItem of item (whose table key Datums are keys) over the existing item
 * of that key, without the executor; with old, *old gets the replaced item,
 * copied into cxt.  False, nothing written, when the item is absent or the
 * direct way does not apply (see the file's header).
 */
bool
hroe_direct_overwrite(HroeTableMeta *t, HroeItem *item, Datum *keys, MemoryContext cxt,
					  HroeItem **old)
{
	int			nkeys = t->schema.nhash + t->schema.nrange;
	Relation	rel,
				idx;
	ScanKeyData skey[2];
	Snapshot	snapshot;
	IndexScanDesc scan;
	TupleTableSlot *oldslot;
	bool		written = false;
	CommandId	cid;

	rel = OpenForWrite(t, "PutItem", &idx, &oldslot, &cid, &snapshot);
	if (rel == NULL)
		return false;
	hroe_pkey_scankeys(t, idx, keys, skey);
	scan = index_beginscan(rel, idx, snapshot, nkeys, 0);
	index_rescan(scan, skey, nkeys, NULL, 0);
	if (index_getnext_slot(scan, ForwardScanDirection, oldslot))
		written = ReplaceRow(t, rel, oldslot, item, cid, snapshot, "PutItem", cxt, old);
	else
		elog(DEBUG1, "hroe: PutItem on %s runs as SQL: the item is absent", t->relname);
	index_endscan(scan);
	CloseForWrite(rel, idx, oldslot, snapshot);
	return written;
}

/*
 * A locked write (a conditional PutItem, an UpdateItem, a transaction's Put
 * or Update): replace by item the row at tid, which this transaction has
 * locked FOR UPDATE, without the executor.  False, nothing written, when the
 * direct way does not apply (the caller then runs its UPDATE).
 */
bool
hroe_direct_update_locked(HroeTableMeta *t, ItemPointer tid, HroeItem *item)
{
	Relation	rel;
	Snapshot	snapshot;
	TupleTableSlot *oldslot;
	bool		written = false;
	CommandId	cid;

	/* no probe: the row is found by its TID */
	rel = OpenForWrite(t, "a locked write", NULL, &oldslot, &cid, &snapshot);
	if (rel == NULL)
		return false;
	/* the version locked, if still the visible one (as UPDATE ... WHERE ctid) */
	if (table_tuple_fetch_row_version(rel, tid, snapshot, oldslot))
		written = ReplaceRow(t, rel, oldslot, item, cid, snapshot, "a locked write", NULL, NULL);
	else
		elog(DEBUG1, "hroe: a locked write on %s runs as SQL: the locked row is not visible",
			 t->relname);
	CloseForWrite(rel, NULL, oldslot, snapshot);
	return written;
}
