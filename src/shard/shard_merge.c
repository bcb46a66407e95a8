/*-------------------------------------------------------------------------
 *
 * shard_merge.c
 *	  hroe.sharded_query: read the N shards of a write-sharded btree index
 *	  with one sort-key condition and stream their union in sort-key order.
 *
 * The index's key columns are: optional equality-prefix columns (the first
 * parts of a multi-attribute partition key, e.g. a status), the shard
 * column (smallint, integer, bigint or numeric holding 0..N-1), then the
 * sort-key column; further key and INCLUDE columns are allowed.  One index
 * scan runs per shard, each ordered by the sort key; a tournament (loser)
 * tree over the current head entry of each scan yields a k-way merge with
 * ceil(log2 N) comparisons per row.  The heads are ordered by the key
 * columns of their index entries (xs_want_itup); a head's row is fetched
 * from the table only when it wins the tournament, and an entry none of
 * whose row versions is visible is skipped there (its shard advances and
 * the tournament is replayed).  Rows are returned one per
 * call (ValuePerCall), and a shard is advanced only when its head has been
 * returned and another row is wanted, so with a limit of L the function
 * reads at most N + L - 1 index entries and fetches L rows when every entry
 * read is visible.
 *
 * Bounded first pass (with a limit L): btree's first read of a scan
 * evaluates every entry of its first leaf page (PG15's _bt_readpage stops
 * early only at an entry failing a required key), which was most of the
 * cost of starting 15 scans.  So the L-th entry on the first page a shard
 * reads gives a bound B: if the merge returns L visible rows, none sorts
 * after B.  The shards started next get the extra scan key "sort key not
 * after B" (ties at B kept), and their first read stops at B.  A bounded
 * shard that runs out stands in the tournament for "its entries past B",
 * placed just after B; if that wins (dead entries, short shards), its scan
 * is reopened with "sort key past B" and the merge goes on.
 *
 * With p_parallel_workers > 0, parallel workers merge shares of the shards
 * and the caller merges their streams with its own shards into a
 * tuplestore (see MaterializeParallel).
 *
 * The scans' memory (about 45 kB per shard: btree's scan state and its copy
 * of a leaf page's tuples) comes from a backend-lifetime Generation context
 * whose keeper block survives resets: allocated afresh each call, those
 * chunks were handed back to the kernel at the end of every call and
 * faulted in again at the next, which cost more than the scans themselves.
 *
 * Order: the sort key in its btree order, ascending when p_forward (a DESC
 * index column is scanned backwards), descending otherwise; then the key
 * columns after the sort key, in index order; then heap TID (ascending when
 * the index is scanned forwards, descending when backwards).  That is the
 * order of an unsharded btree index on the same columns without the shard.
 *
 * The scan keys are built in shard_keys.c, the parallel merge and the SQL
 * entry point are in shard_parallel.c (shard_merge.h).
 *
 * src/shard/shard_merge.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/itup.h"
#include "access/nbtree.h"
#include "access/parallel.h"
#include "access/relscan.h"
#include "access/stratnum.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "parser/parse_coerce.h"
#include "postmaster/bgworker_internals.h"
#include "storage/itemptr.h"
#include "storage/shm_mq.h"
#include "storage/shm_toc.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/rls.h"
#include "utils/snapmgr.h"
#include "utils/sortsupport.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"

#include "shard_merge.h"

/*
 * The scans' memory between calls: a Generation context under
 * TopMemoryContext whose keeper block (SCAN_POOL_SIZE) is kept by resets,
 * so its pages stay mapped.  One call at a time holds it (ScanPoolBusy);
 * a call that finds it held, e.g. a second sharded_query in the same
 * query, makes a context of its own.
 */
#define SCAN_POOL_SIZE (1024 * 1024)
static MemoryContext ScanPool = NULL;
static bool ScanPoolBusy = false;

static int	ItemPointerQsortCompare(const void *a, const void *b);
static bool AdvanceBackward(ShardedQuery *q, ShardStream *st);
static void ReadIndexKeys(ShardedQuery *q, IndexScanDesc scan, Datum *keys, bool *nulls);

/* Datum of shard number s in the shard column's type. */
static Datum
ShardDatum(Oid type, int s)
{
	switch (type)
	{
		case INT2OID:
			return Int16GetDatum((int16) s);
		case INT4OID:
			return Int32GetDatum(s);
		case INT8OID:
			return Int64GetDatum((int64) s);
		case NUMERICOID:
			return NumericGetDatum(int64_to_numeric(s));
	}
	elog(ERROR, "unexpected shard column type %u", type);
	return (Datum) 0;			/* keep compiler quiet */
}

/*
 * Move shard stream st to its next index entry (its row is not fetched);
 * false when the shard is exhausted.  Records the entry's TID and order
 * columns.
 */
bool
hroe_sm_advance_stream(ShardedQuery *q, ShardStream *st)
{
	ItemPointer tid;

	if (st->remote)
		return hroe_sm_receive_remote(q, st);
	if (ScanDirectionIsBackward(q->dir))
		return AdvanceBackward(q, st);

	CHECK_FOR_INTERRUPTS();
	tid = index_getnext_tid(st->scan, q->dir);
	if (tid == NULL)
		return false;
	st->tid = *tid;
	ReadIndexKeys(q, st->scan, st->keys, st->nulls);
	return true;
}

/*
 * Fetch the visible version of stream st's head entry into q->slot; false
 * when no version is visible.  A forward scan still stands on that entry,
 * so the index AM may mark it dead; a backward scan has read past it.
 */
static bool
FetchHead(ShardedQuery *q, ShardStream *st)
{
	IndexScanDesc scan = st->scan;

	scan->xs_heaptid = st->tid;
	for (;;)
	{
		bool		found = index_fetch_heap(scan, q->slot);

		if (ScanDirectionIsBackward(q->dir))
			scan->kill_prior_tuple = false;
		if (found)
			return true;
		if (!scan->xs_heap_continue)
			return false;
	}
}

/* The order columns of the scan's current index tuple (not copied). */
static void
ReadIndexKeys(ShardedQuery *q, IndexScanDesc scan, Datum *keys, bool *nulls)
{
	for (int i = 0; i < q->ncols; i++)
		keys[i] = index_getattr(scan->xs_itup, q->sortAttno + i, scan->xs_itupdesc, &nulls[i]);
}

/* Replace owned copies keys/nulls with copies of src/srcNulls. */
static void
CopyKeys(ShardedQuery *q, Datum *keys, bool *nulls, const Datum *src, const bool *srcNulls)
{
	MemoryContext old = MemoryContextSwitchTo(q->keyCxt);

	for (int i = 0; i < q->ncols; i++)
	{
		if (!nulls[i] && !q->byval[i])
			pfree(DatumGetPointer(keys[i]));
		nulls[i] = srcNulls[i];
		keys[i] = nulls[i] ? (Datum) 0 : datumCopy(src[i], q->byval[i], q->typlen[i]);
	}
	MemoryContextSwitchTo(old);
}

/* Order columns a against b, in index order: <0, 0, >0. */
static int
CompareKeys(ShardedQuery *q, const Datum *a, const bool *anulls, const Datum *b, const bool *bnulls)
{
	for (int i = 0; i < q->ncols; i++)
	{
		int			c = ApplySortComparator(a[i], anulls[i], b[i], bnulls[i], &q->ssup[i]);

		if (c != 0)
			return c;
	}
	return 0;
}

/*
 * Whether order columns a and b are equal; comparators may detoast, so
 * they run in a context emptied after each use (a run may be long).
 */
static bool
SameKeys(ShardedQuery *q, const Datum *a, const bool *anulls, const Datum *b, const bool *bnulls)
{
	MemoryContext old = MemoryContextSwitchTo(q->tmpCxt);
	int			c = CompareKeys(q, a, anulls, b, bnulls);

	MemoryContextSwitchTo(old);
	MemoryContextReset(q->tmpCxt);
	return c == 0;
}

/*
 * AdvanceStream for a backward index scan: returns entries with equal
 * order columns in descending TID order, reading each run of equal keys
 * from the index before returning its first entry.
 */
static bool
AdvanceBackward(ShardedQuery *q, ShardStream *st)
{
	IndexScanDesc scan = st->scan;

	for (;;)
	{
		ItemPointer tid;

		CHECK_FOR_INTERRUPTS();
		if (st->nrun > 0)
		{
			st->tid = st->run[--st->nrun];
			memcpy(st->keys, st->runKeys, sizeof(Datum) * q->ncols);
			memcpy(st->nulls, st->runNulls, sizeof(bool) * q->ncols);
			return true;
		}

		/* load the next run, starting with the entry read ahead */
		if (!st->haveNext)
		{
			if (st->scanDone || (tid = index_getnext_tid(scan, q->dir)) == NULL)
			{
				st->scanDone = true;
				return false;
			}
			st->nextTid = *tid;
			ReadIndexKeys(q, scan, q->tmpKeys, q->tmpNulls);
			CopyKeys(q, st->nextKeys, st->nextNulls, q->tmpKeys, q->tmpNulls);
		}
		/* the read-ahead entry's keys become the run's; the old run's go */
		{
			Datum	   *k = st->runKeys;
			bool	   *n = st->runNulls;

			st->runKeys = st->nextKeys;
			st->runNulls = st->nextNulls;
			st->nextKeys = k;
			st->nextNulls = n;
		}
		st->haveNext = false;
		st->run[0] = st->nextTid;
		st->nrun = 1;
		while (!st->scanDone)
		{
			if ((tid = index_getnext_tid(scan, q->dir)) == NULL)
			{
				st->scanDone = true;
				break;
			}
			ReadIndexKeys(q, scan, q->tmpKeys, q->tmpNulls);
			if (!SameKeys(q, q->tmpKeys, q->tmpNulls, st->runKeys, st->runNulls))
			{
				st->nextTid = *tid;
				CopyKeys(q, st->nextKeys, st->nextNulls, q->tmpKeys, q->tmpNulls);
				st->haveNext = true;
				break;
			}
			if (st->nrun == st->runcap)
			{
				st->runcap *= 2;
				st->run = repalloc(st->run, sizeof(ItemPointerData) * st->runcap);
			}
			st->run[st->nrun++] = *tid;
		}
		qsort(st->run, st->nrun, sizeof(ItemPointerData), ItemPointerQsortCompare);
	}
}

/* qsort comparator of item pointers. */
static int
ItemPointerQsortCompare(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/*
 * Whether shard a's head comes before shard b's: sort key and further key
 * columns in index order, then index TID, the whole reversed for a
 * backward scan; an exhausted shard comes after every other.
 */
static bool
HeadBefore(ShardedQuery *q, int a, int b)
{
	ShardStream *sa = &q->streams[a];
	ShardStream *sb = &q->streams[b];
	int			c;

	if (sa->exhausted && !sa->bounded)
		return false;
	if (sb->exhausted && !sb->bounded)
		return true;
	if (sa->exhausted || sb->exhausted)
	{
		/*
		 * A bounded shard's unread rest comes just after its bound: after
		 * every entry whose sort key equals the bound, before every entry
		 * whose sort key is past it.
		 */
		Datum		ka = sa->exhausted ? sa->bound : sa->keys[0];
		Datum		kb = sb->exhausted ? sb->bound : sb->keys[0];
		bool		na = sa->exhausted ? false : sa->nulls[0];
		bool		nb = sb->exhausted ? false : sb->nulls[0];

		c = ApplySortComparator(ka, na, kb, nb, &q->ssup[0]);
		if (ScanDirectionIsBackward(q->dir))
			c = -c;
		if (sa->exhausted && sb->exhausted)
			return c < 0;
		return sa->exhausted ? c < 0 : c <= 0;
	}
	c = CompareKeys(q, sa->keys, sa->nulls, sb->keys, sb->nulls);
	if (c == 0)
		c = ItemPointerCompare(&sa->tid, &sb->tid);
	if (ScanDirectionIsBackward(q->dir))
		c = -c;
	return c < 0;
}

/*
 * The sort key of the entry limit - 1 places after stream st's scan
 * position on the leaf page btree has read (its matching entries are in
 * the scan's item array), copied into *bound; false when the page does not
 * hold that many.  A bound from a backward stream's read-ahead position is
 * further than needed, which is safe.
 */
static bool
PageBound(ShardedQuery *q, ShardStream *st, Datum *bound)
{
	BTScanOpaque so = (BTScanOpaque) st->scan->opaque;
	BTScanPos	pos = &so->currPos;
	int64		ahead = q->limit - 1;
	int			i;
	IndexTuple	itup;
	bool		isnull;
	Datum		d;

	if (!BTScanPosIsValid(*pos) || so->currTuples == NULL)
		return false;
	if (ScanDirectionIsForward(q->dir))
	{
		if (ahead > pos->lastItem - pos->itemIndex)
			return false;
		i = pos->itemIndex + (int) ahead;
	}
	else
	{
		if (ahead > pos->itemIndex - pos->firstItem)
			return false;
		i = pos->itemIndex - (int) ahead;
	}
	itup = (IndexTuple) (so->currTuples + pos->items[i].tupleOffset);
	d = index_getattr(itup, q->sortAttno, RelationGetDescr(q->indexRel), &isnull);
	if (isnull)
		return false;
	*bound = datumCopy(d, q->byval[0], q->typlen[0]);
	return true;
}

/*
 * The bound keys' templates: "sort key not after the bound" and "sort key
 * past the bound" in scan order, on the sort-key column's own type.
 */
static void
InitBoundKeys(ShardedQuery *q)
{
	bool		desc = (q->indexRel->rd_indoption[q->sortAttno - 1] & INDOPTION_DESC) != 0;
	bool		rising = ScanDirectionIsForward(q->dir) != desc;
	Oid			coltype = hroe_sm_index_column_type(q->indexRel, q->sortAttno);

	hroe_sm_init_column_key(&q->boundKey, q->indexRel, q->sortAttno,
				  rising ? BTLessEqualStrategyNumber : BTGreaterEqualStrategyNumber,
				  (Datum) 0, coltype);
	hroe_sm_init_column_key(&q->pastKey, q->indexRel, q->sortAttno,
				  rising ? BTGreaterStrategyNumber : BTLessStrategyNumber,
				  (Datum) 0, coltype);
}

/*
 * Start the scan of stream st (shard s) with the query's keys, plus "sort
 * key not after bound" when bounded, or "sort key past bound" when past,
 * and read its first entry.
 */
static void
StartStream(ShardedQuery *q, ShardStream *st, bool bounded, bool past)
{
	int			nkeys = q->nkeys;

	q->keys[q->shardKey].sk_argument = ShardDatum(q->shardType, st->shard);
	if (bounded || past)
	{
		q->keys[nkeys] = bounded ? q->boundKey : q->pastKey;
		q->keys[nkeys].sk_argument = st->bound;
		nkeys++;
	}
	st->bounded = bounded;
	st->nrun = 0;
	st->haveNext = false;
	st->scanDone = false;

	/*
	 * btrescan copies scan->numberOfKeys keys; the scan was begun with room
	 * for the bound key (its key arrays are that long), so the count may
	 * change from one rescan to the next.
	 */
	st->scan->numberOfKeys = nkeys;
	index_rescan(st->scan, q->keys, nkeys, NULL, 0);
	st->exhausted = !hroe_sm_advance_stream(q, st);
}

/* Play the whole tournament over the shards' first heads. */
static void
BuildTournament(ShardedQuery *q)
{
	int			n = q->nstreams;
	int		   *winner = palloc(sizeof(int) * 2 * n);

	for (int s = 0; s < n; s++)
		winner[n + s] = s;
	for (int p = n - 1; p >= 1; p--)
	{
		int			l = winner[2 * p];
		int			r = winner[2 * p + 1];

		if (HeadBefore(q, r, l))
		{
			winner[p] = r;
			q->tree[p] = l;
		}
		else
		{
			winner[p] = l;
			q->tree[p] = r;
		}
	}
	q->tree[0] = n > 1 ? winner[1] : 0;
	pfree(winner);
}

/*
 * Replay the matches of shard s, the last winner, after its head changed:
 * one comparison per level from its leaf to the root.
 */
static void
ReplayTournament(ShardedQuery *q, int s)
{
	/* comparators may detoast: in the context emptied after each replay */
	MemoryContext old = MemoryContextSwitchTo(q->tmpCxt);

	for (int p = (q->nstreams + s) / 2; p >= 1; p /= 2)
	{
		if (HeadBefore(q, q->tree[p], s))
		{
			int			t = q->tree[p];

			q->tree[p] = s;
			s = t;
		}
	}
	q->tree[0] = s;
	MemoryContextSwitchTo(old);
	MemoryContextReset(q->tmpCxt);
}

/* Give the scans' memory back: empty ScanPool, or drop a context of our own. */
static void
ReleaseScanMemory(ShardedQuery *q)
{
	if (q->pooled)
	{
		q->pooled = false;
		MemoryContextReset(ScanPool);
		ScanPoolBusy = false;
	}
	else if (q->scanCxt != NULL)
		MemoryContextDelete(q->scanCxt);
	q->scanCxt = NULL;
}

/*
 * Reset callback of the call's multi-call context: after an error no close
 * ran, and the aborted scans' memory is garbage (buffer pins and relation
 * references are the resource owner's).
 */
static void
ReleaseScanMemoryCallback(void *arg)
{
	ShardedQuery *q = (ShardedQuery *) arg;

	if (q->pooled)
	{
		q->pooled = false;
		MemoryContextReset(ScanPool);
		ScanPoolBusy = false;
	}
}

/* End every scan, release the relations' references and the snapshot. */
void
hroe_sm_close_sharded_query(ShardedQuery *q)
{
	if (!q->open)
		return;
	q->open = false;
	ExecDropSingleTupleTableSlot(q->slot);
	for (int i = 0; i < q->nstreams; i++)
	{
		if (q->streams[i].scan)
			index_endscan(q->streams[i].scan);
	}
	ReleaseScanMemory(q);
	index_close(q->indexRel, NoLock);
	table_close(q->heapRel, NoLock);
	UnregisterSnapshot(q->snapshot);
}

/*
 * Close the merge and drop a parallel call's rows; also the executor
 * shutdown callback, when the caller stops before the last row.
 */
void
hroe_sm_shutdown_sharded_query(Datum arg)
{
	ShardedQuery *q = (ShardedQuery *) DatumGetPointer(arg);

	hroe_sm_close_sharded_query(q);
	if (q->store != NULL)
	{
		tuplestore_end(q->store);
		q->store = NULL;
		ExecDropSingleTupleTableSlot(q->storeSlot);
	}
}

/* Open and check the index and its table; fills q->heapRel, q->indexRel. */
static void
OpenRelations(ShardedQuery *q, Oid indexOid, Oid rowtype)
{
	Oid			heapOid;
	AclResult	aclresult;

	if (get_rel_relkind(indexOid) != RELKIND_INDEX)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not an index", get_rel_name(indexOid) ? get_rel_name(indexOid) : "?"),
				 errhint("Pass the btree index of a table (a partitioned index is not supported).")));
	heapOid = IndexGetRelation(indexOid, false);

	/* privileges first: the caller must be able to read every column */
	aclresult = pg_class_aclcheck(heapOid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK &&
		pg_attribute_aclcheck_all(heapOid, GetUserId(), ACL_SELECT, ACLMASK_ALL) != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(get_rel_relkind(heapOid)),
					   get_rel_name(heapOid));
	if (check_enable_rls(heapOid, InvalidOid, false) == RLS_ENABLED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("hroe.sharded_query does not support tables with row-level security"),
				 errdetail("Row-level security is enabled on table \"%s\" for the current user.",
						   get_rel_name(heapOid))));

	q->heapRel = table_open(heapOid, AccessShareLock);
	q->indexRel = index_open(indexOid, AccessShareLock);
	if (q->indexRel->rd_index->indrelid != heapOid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" changed its table concurrently",
						RelationGetRelationName(q->indexRel))));
	if (q->indexRel->rd_rel->relam != BTREE_AM_OID)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("index \"%s\" is not a btree index", RelationGetRelationName(q->indexRel)),
				 errdetail("A sharded query merges ordered scans, which only btree provides.")));
	if (!q->indexRel->rd_index->indisvalid)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("index \"%s\" is not valid", RelationGetRelationName(q->indexRel)),
				 errhint("REINDEX it, or wait for CREATE INDEX CONCURRENTLY to finish.")));
	if (rowtype != q->heapRel->rd_rel->reltype)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("p_rowtype has type %s, not the row type of table \"%s\"",
						format_type_be(rowtype), RelationGetRelationName(q->heapRel)),
				 errhint("Pass NULL::%s.",
						 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(q->heapRel)),
													RelationGetRelationName(q->heapRel)))));
}

/*
 * Check and copy the call's arguments into *a (in the current memory
 * context: the scans keep pointing at the values).
 */
void
hroe_sm_parse_args(FunctionCallInfo fcinfo, MergeArgs *a)
{
	int16		vallen;
	bool		valbyval;

	memset(a, 0, sizeof(MergeArgs));
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("p_index and p_shards must not be null")));
	a->indexOid = PG_GETARG_OID(1);
	a->rowtype = get_fn_expr_argtype(fcinfo->flinfo, 0);
	a->nshards = PG_GETARG_INT32(2);
	hroe_check_shard_count(a->nshards);
	a->forward = PG_ARGISNULL(6) ? true : PG_GETARG_BOOL(6);
	a->limit = -1;
	if (!PG_ARGISNULL(7))
	{
		a->limit = PG_GETARG_INT64(7);
		if (a->limit < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("1 validation error detected: Value '" INT64_FORMAT "' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1",
							a->limit)));
	}
	if (!PG_ARGISNULL(8))
	{
		ArrayType  *arr = PG_GETARG_ARRAYTYPE_P(8);
		bool	   *prefixNulls;

		if (ARR_NDIM(arr) > 1)
			ereport(ERROR,
					(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					 errmsg("p_prefix must be a one-dimensional array")));
		deconstruct_array(arr, TEXTOID, -1, false, TYPALIGN_INT,
						  &a->prefixValues, &prefixNulls, &a->nprefix);
		for (int i = 0; i < a->nprefix; i++)
			if (prefixNulls[i])
				ereport(ERROR,
						(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						 errmsg("p_prefix must not contain nulls"),
						 errdetail("Element %d is null; a key attribute cannot be null.", i + 1)));
	}
	if (PG_NARGS() > 9 && !PG_ARGISNULL(9))
	{
		a->workers = PG_GETARG_INT32(9);
		if (a->workers < 0 || a->workers > MAX_PARALLEL_WORKER_LIMIT)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("p_parallel_workers must be between 0 and %d", MAX_PARALLEL_WORKER_LIMIT)));
	}
	a->op = PG_ARGISNULL(3) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(3));
	a->valtype = get_fn_expr_argtype(fcinfo->flinfo, 4);
	if (!OidIsValid(a->valtype))
		a->valtype = TEXTOID;
	get_typlenbyval(a->valtype, &vallen, &valbyval);
	a->v1null = PG_ARGISNULL(4);
	a->v1 = a->v1null ? (Datum) 0 : datumCopy(PG_GETARG_DATUM(4), valbyval, vallen);
	a->v2null = PG_ARGISNULL(5);
	a->v2 = a->v2null ? (Datum) 0 : datumCopy(PG_GETARG_DATUM(5), valbyval, vallen);
	a->keyType = hroe_key_typid();
}

/*
 * The equality scan key of prefix value (text) on index column attno.  A
 * column of partition keys in their index form (an hroe GSI's HASH key
 * column: tables.h, HROE_KEY_FORM_MAX) is probed with the value's form.
 */
static void
PrefixKey(ShardedQuery *q, ScanKey key, AttrNumber attno, Datum value)
{
	AttrNumber	heapAttno = q->indexRel->rd_index->indkey.values[attno - 1];
	Oid			coltype = hroe_sm_index_column_type(q->indexRel, attno);

	if (heapAttno != 0 && (coltype == hroe_key_typid() || coltype == BYTEAOID) &&
		hroe_column_holds_forms(q->heapRel, heapAttno))
	{
		struct varlena *v = PG_DETOAST_DATUM_PACKED(hroe_sm_convert_via_text(value, TEXTOID, coltype));

		hroe_sm_init_column_key(key, q->indexRel, attno, BTEqualStrategyNumber,
					  hroe_key_datum(coltype == BYTEAOID ? 'B' : 'S', VARDATA_ANY(v),
									 VARSIZE_ANY_EXHDR(v), true),
					  coltype);
	}
	else
		hroe_sm_init_column_key(key, q->indexRel, attno, BTEqualStrategyNumber, value, TEXTOID);
}

/*
 * Set up a merge: relations, scan keys, comparators, snapshot, memory; no
 * scan yet (StartStreams).  Runs in a context that lives as long as the
 * merge.
 */
ShardedQuery *
hroe_sm_setup_merge(MergeArgs *a)
{
	ShardedQuery *q = palloc0(sizeof(ShardedQuery));
	int			nprefix = a->nprefix;
	AttrNumber	shardAttno;
	Oid			shardType;
	int			nkeys;
	ScanKey		keys;
	int16		indoption;

	q->nshards = a->nshards;
	q->limit = a->limit;
	OpenRelations(q, a->indexOid, a->rowtype);
	if (IndexRelationGetNumberOfKeyAttributes(q->indexRel) < nprefix + 2)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("index \"%s\" has %d key columns, too few for %d prefix values",
						RelationGetRelationName(q->indexRel),
						IndexRelationGetNumberOfKeyAttributes(q->indexRel), nprefix),
				 errdetail("A sharded index has the prefix columns, then the shard column, then the sort-key column.")));
	shardAttno = nprefix + 1;
	q->sortAttno = nprefix + 2;
	shardType = q->indexRel->rd_opcintype[shardAttno - 1];
	if (shardType != INT2OID && shardType != INT4OID && shardType != INT8OID &&
		shardType != NUMERICOID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("shard column \"%s\" of index \"%s\" has type %s",
						hroe_sm_index_column_name(q->indexRel, shardAttno),
						RelationGetRelationName(q->indexRel), format_type_be(shardType)),
				 errdetail("Index column %d must hold the shard number: smallint, integer, bigint or numeric.",
						   shardAttno),
				 errhint("Pass the prefix values in p_prefix when the index starts with other columns.")));

	/*
	 * Scan keys: prefix equalities, the shard equality, the sort condition,
	 * and room for the bound key of the first pass.
	 */
	keys = palloc0(sizeof(ScanKeyData) * (nprefix + 4));
	for (int i = 0; i < nprefix; i++)
		PrefixKey(q, &keys[i], i + 1, a->prefixValues[i]);
	hroe_sm_init_column_key(&keys[nprefix], q->indexRel, shardAttno, BTEqualStrategyNumber,
				  ShardDatum(shardType, 0), shardType);
	nkeys = nprefix + 1 + hroe_sm_sort_condition_keys(&keys[nprefix + 1], q->indexRel, q->sortAttno,
											a->op, a->v1, a->v1null, a->v2, a->v2null,
											a->valtype, a->keyType);
	q->keys = keys;
	q->nkeys = nkeys;
	q->shardKey = nprefix;
	q->shardType = shardType;

	/* the order columns' order in the index, and the scan direction */
	q->ncols = IndexRelationGetNumberOfKeyAttributes(q->indexRel) - q->sortAttno + 1;
	q->ssup = palloc0(sizeof(SortSupportData) * q->ncols);
	q->typlen = palloc(sizeof(int16) * q->ncols);
	q->byval = palloc(sizeof(bool) * q->ncols);
	q->tmpKeys = palloc(sizeof(Datum) * q->ncols);
	q->tmpNulls = palloc(sizeof(bool) * q->ncols);
	for (int i = 0; i < q->ncols; i++)
	{
		AttrNumber	attno = q->sortAttno + i;
		int16		option = q->indexRel->rd_indoption[attno - 1];

		q->ssup[i].ssup_cxt = CurrentMemoryContext;
		q->ssup[i].ssup_collation = q->indexRel->rd_indcollation[attno - 1];
		q->ssup[i].ssup_nulls_first = (option & INDOPTION_NULLS_FIRST) != 0;
		q->ssup[i].ssup_attno = attno;
		q->ssup[i].abbreviate = false;
		PrepareSortSupportFromIndexRel(q->indexRel,
									   (option & INDOPTION_DESC) ? BTGreaterStrategyNumber : BTLessStrategyNumber,
									   &q->ssup[i]);
		get_typlenbyval(TupleDescAttr(RelationGetDescr(q->indexRel), attno - 1)->atttypid,
						&q->typlen[i], &q->byval[i]);
	}
	indoption = q->indexRel->rd_indoption[q->sortAttno - 1];
	q->dir = (a->forward != ((indoption & INDOPTION_DESC) != 0)) ?
		ForwardScanDirection : BackwardScanDirection;

	if (!ActiveSnapshotSet())
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("hroe.sharded_query needs an active snapshot")));
	q->snapshot = RegisterSnapshot(GetActiveSnapshot());
	q->pending = -1;
	q->keyCxt = CurrentMemoryContext;
	q->callCxt = AllocSetContextCreate(CurrentMemoryContext, "hroe sharded_query row",
									   ALLOCSET_DEFAULT_SIZES);
	q->tmpCxt = AllocSetContextCreate(CurrentMemoryContext, "hroe sharded_query comparison",
									  ALLOCSET_SMALL_SIZES);

	/* the scans' memory: ScanPool when free, else a context of our own */
	if (ScanPool == NULL)
		ScanPool = GenerationContextCreate(TopMemoryContext, "hroe sharded_query scans",
										   SCAN_POOL_SIZE, SCAN_POOL_SIZE, 8 * SCAN_POOL_SIZE);
	if (!ScanPoolBusy)
	{
		MemoryContextCallback *cb = palloc(sizeof(MemoryContextCallback));

		ScanPoolBusy = true;
		q->pooled = true;
		q->scanCxt = ScanPool;
		cb->func = ReleaseScanMemoryCallback;
		cb->arg = q;
		MemoryContextRegisterResetCallback(CurrentMemoryContext, cb);
	}
	else
		q->scanCxt = GenerationContextCreate(CurrentMemoryContext, "hroe sharded_query scans",
											 0, SCAN_POOL_SIZE, 8 * SCAN_POOL_SIZE);
	q->open = true;
	MemoryContextSwitchTo(q->scanCxt);
	q->slot = table_slot_create(q->heapRel, NULL);
	MemoryContextSwitchTo(q->keyCxt);
	return q;
}

/*
 * Start the merge's streams: one index scan with its first entry for each
 * of the nlocal shards in shards[], then nremote worker streams (set up by
 * the caller, who plays the tournament once they have their first rows).
 */
void
hroe_sm_start_streams(ShardedQuery *q, const int *shards, int nlocal, int nremote)
{
	MemoryContext old = MemoryContextSwitchTo(q->keyCxt);
	bool		haveBound = false;
	Datum		bound = (Datum) 0;

	q->nstreams = nlocal + nremote;
	q->streams = palloc0(sizeof(ShardStream) * Max(q->nstreams, 1));
	q->tree = palloc(sizeof(int) * Max(q->nstreams, 1));
	for (int i = nlocal; i < q->nstreams; i++)
	{
		ShardStream *st = &q->streams[i];

		st->remote = true;
		st->exhausted = true;
		st->keys = palloc(sizeof(Datum) * q->ncols);
		st->nulls = palloc(sizeof(bool) * q->ncols);
		st->remoteCxt = AllocSetContextCreate(q->keyCxt, "hroe sharded_query worker row",
											  ALLOCSET_SMALL_SIZES);
	}

	MemoryContextSwitchTo(q->scanCxt);
	for (int i = 0; i < nlocal; i++)
	{
		ShardStream *st = &q->streams[i];
		Datum		candidate;

		st->shard = shards[i];
		st->scan = index_beginscan(q->heapRel, q->indexRel, q->snapshot, q->nkeys + 1, 0);
		st->scan->xs_want_itup = true;	/* the heads are ordered by their entries */
		st->keys = palloc(sizeof(Datum) * q->ncols);
		st->nulls = palloc(sizeof(bool) * q->ncols);
		if (ScanDirectionIsBackward(q->dir))
		{
			st->runcap = 64;
			st->run = palloc(sizeof(ItemPointerData) * st->runcap);
			st->runKeys = palloc(sizeof(Datum) * q->ncols);
			st->runNulls = palloc(sizeof(bool) * q->ncols);
			st->nextKeys = palloc(sizeof(Datum) * q->ncols);
			st->nextNulls = palloc(sizeof(bool) * q->ncols);
			for (int k = 0; k < q->ncols; k++)
				st->runNulls[k] = st->nextNulls[k] = true;	/* nothing owned yet */
		}
		st->bound = bound;
		StartStream(q, st, haveBound, false);

		/*
		 * With a limit L, the L-th entry of a shard's first leaf page bounds
		 * the answer (if the merge returns L rows, none comes after it), so
		 * the shards started next stop reading their first page there
		 * instead of evaluating all of it; a later bound is tighter.
		 */
		if (q->limit > 0 && i < nlocal - 1 && !st->exhausted)
		{
			MemoryContextSwitchTo(q->keyCxt);
			if (PageBound(q, st, &candidate))
			{
				int			c = 0;

				if (haveBound)
				{
					MemoryContextSwitchTo(q->tmpCxt);
					c = ApplySortComparator(candidate, false, bound, false, &q->ssup[0]);
					MemoryContextReset(q->tmpCxt);
					if (ScanDirectionIsBackward(q->dir))
						c = -c;
				}
				if (!haveBound || c < 0)
					bound = candidate;
				else if (!q->byval[0])
					pfree(DatumGetPointer(candidate));
				if (!haveBound)
					InitBoundKeys(q);
				haveBound = true;
			}
			MemoryContextSwitchTo(q->scanCxt);
		}
	}
	MemoryContextSwitchTo(old);
}

/* Play the first tournament; comparisons may detoast, in the per-call context. */
void
hroe_sm_play_tournament(ShardedQuery *q)
{
	MemoryContext old = MemoryContextSwitchTo(q->callCxt);

	BuildTournament(q);
	MemoryContextSwitchTo(old);
}

/*
 * The merge's next row: returns the stream whose head it is (a local
 * stream's row is in q->slot, a worker's in its message), or -1 at the end.
 * The stream whose head went out last is advanced only now, when needed;
 * entries none of whose row versions is visible are skipped.  Index AMs
 * keep state allocated during a scan, so the scans run in their context;
 * comparisons may detoast, so the tournament is replayed in another.
 */
int
hroe_sm_next_row(ShardedQuery *q)
{
	MemoryContext old = CurrentMemoryContext;
	ShardStream *st;
	int			s;

	if ((q->limit >= 0 && q->emitted >= q->limit) || q->nstreams == 0)
		return -1;
	s = q->pending;
	q->pending = -1;
	for (;;)
	{
		bool		visible;

		if (s >= 0)
		{
			bool		more;

			MemoryContextSwitchTo(q->scanCxt);
			more = hroe_sm_advance_stream(q, &q->streams[s]);
			MemoryContextSwitchTo(q->callCxt);
			q->streams[s].exhausted = !more;
			ReplayTournament(q, s);
		}
		s = q->tree[0];
		st = &q->streams[s];
		if (st->exhausted)
		{
			if (!st->bounded)
			{
				MemoryContextSwitchTo(old);
				return -1;
			}
			/* the merge reached a bounded shard's unread rest: read it */
			MemoryContextSwitchTo(q->scanCxt);
			StartStream(q, st, false, true);
			MemoryContextSwitchTo(q->callCxt);
			ReplayTournament(q, s);
			s = -1;
			continue;
		}
		if (st->remote)
			break;				/* the worker sends visible rows only */
		MemoryContextSwitchTo(q->scanCxt);
		visible = FetchHead(q, st);
		MemoryContextSwitchTo(q->callCxt);
		if (visible)
			break;
	}
	q->emitted++;
	q->pending = s;
	MemoryContextSwitchTo(old);
	return s;
}
