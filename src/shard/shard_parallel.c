/*-------------------------------------------------------------------------
 *
 * shard_parallel.c
 *	  hroe.sharded_query's parallel merge and its SQL entry point.
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
 * Parallel merge.  The leader starts workers (a ParallelContext: they
 * share its transaction and snapshot); worker i of W merges the shards s
 * with s % (W + 1) = i + 1 and sends its rows in order through its queue,
 * each message holding the index entry's TID and order columns (what the
 * leader compares) and the row; the leader merges those streams with its
 * own shards (s % (W + 1) = 0, and the shards of workers that could not be
 * launched).  Parallel mode forbids writes, and the outer query may write
 * between two rows of a set-returning function, so the leader does not
 * stream: it runs the whole merge in its first call, keeps the rows in a
 * tuplestore (at most p_limit of them), ends parallel mode, then returns
 * them.
 */
#define PARALLEL_KEY_SHARED		UINT64CONST(0x68726F6500000001)
#define PARALLEL_KEY_VALUES		UINT64CONST(0x68726F6500000002)
#define PARALLEL_KEY_QUEUES		UINT64CONST(0x68726F6500000003)
#define PARALLEL_QUEUE_SIZE		((Size) 256 * 1024)

/* The call's arguments in shared memory (the values follow, serialized). */
typedef struct ParallelMergeShared
{
	Oid			indexOid;
	Oid			rowtype;
	int			nshards;
	bool		forward;
	int64		limit;
	int			nprefix;
	bool		haveOp;
	Oid			valtype;
	Oid			keyType;
	int			participants;	/* workers planned + the leader */
} ParallelMergeShared;

/* Space the serialized values of a need (op, v1, v2, prefix values). */
static Size
EstimateValues(MergeArgs *a)
{
	int16		vallen;
	bool		valbyval;
	Size		size = 0;

	get_typlenbyval(a->valtype, &vallen, &valbyval);
	if (a->op != NULL)
		size = add_size(size, datumEstimateSpace(CStringGetTextDatum(a->op), false, false, -1));
	size = add_size(size, datumEstimateSpace(a->v1, a->v1null, valbyval, vallen));
	size = add_size(size, datumEstimateSpace(a->v2, a->v2null, valbyval, vallen));
	for (int i = 0; i < a->nprefix; i++)
		size = add_size(size, datumEstimateSpace(a->prefixValues[i], false, false, -1));
	return size;
}

/* Serialize a's values at p (EstimateValues bytes). */
static void
SerializeValues(MergeArgs *a, char *p)
{
	int16		vallen;
	bool		valbyval;

	get_typlenbyval(a->valtype, &vallen, &valbyval);
	if (a->op != NULL)
		datumSerialize(CStringGetTextDatum(a->op), false, false, -1, &p);
	datumSerialize(a->v1, a->v1null, valbyval, vallen, &p);
	datumSerialize(a->v2, a->v2null, valbyval, vallen, &p);
	for (int i = 0; i < a->nprefix; i++)
		datumSerialize(a->prefixValues[i], false, false, -1, &p);
}

/* A worker: the arguments the leader put in shared memory. */
static void
RestoreArgs(ParallelMergeShared *sh, char *p, MergeArgs *a)
{
	bool		isnull;

	memset(a, 0, sizeof(MergeArgs));
	a->indexOid = sh->indexOid;
	a->rowtype = sh->rowtype;
	a->nshards = sh->nshards;
	a->forward = sh->forward;
	a->limit = sh->limit;
	a->nprefix = sh->nprefix;
	a->valtype = sh->valtype;
	a->keyType = sh->keyType;
	if (sh->haveOp)
		a->op = TextDatumGetCString(datumRestore(&p, &isnull));
	a->v1 = datumRestore(&p, &a->v1null);
	a->v2 = datumRestore(&p, &a->v2null);
	a->prefixValues = palloc(sizeof(Datum) * Max(a->nprefix, 1));
	for (int i = 0; i < a->nprefix; i++)
		a->prefixValues[i] = datumRestore(&p, &isnull);
}

/*
 * A worker: send the row of stream s (in q->slot) with its entry's TID and
 * order columns; false when the leader has detached (it needs no more).
 */
static bool
SendRow(ShardedQuery *q, int s, shm_mq_handle *mqh, StringInfo buf)
{
	ShardStream *st = &q->streams[s];
	bool		shouldFree;
	HeapTuple	tuple = ExecFetchSlotHeapTuple(q->slot, false, &shouldFree);
	Size		head = 1 + sizeof(ItemPointerData);
	char	   *p;
	shm_mq_result res;

	for (int i = 0; i < q->ncols; i++)
		head += datumEstimateSpace(st->keys[i], st->nulls[i], q->byval[i], q->typlen[i]);
	head = MAXALIGN(head);
	resetStringInfo(buf);
	enlargeStringInfo(buf, head + tuple->t_len);
	p = buf->data;
	*p++ = 'R';
	memcpy(p, &st->tid, sizeof(ItemPointerData));
	p += sizeof(ItemPointerData);
	for (int i = 0; i < q->ncols; i++)
		datumSerialize(st->keys[i], st->nulls[i], q->byval[i], q->typlen[i], &p);
	memcpy(buf->data + head, tuple->t_data, tuple->t_len);
	res = shm_mq_send(mqh, head + tuple->t_len, buf->data, false, false);
	if (shouldFree)
		heap_freetuple(tuple);
	return res == SHM_MQ_SUCCESS;
}

/* Parallel leader: detach from every worker's queue (a blocked sender ends). */
static void
DetachWorkers(ShardedQuery *q)
{
	for (int i = 0; i < q->nstreams; i++)
	{
		ShardStream *st = &q->streams[i];

		if (st->remote && st->mq != NULL)
		{
			shm_mq_detach(st->mq);
			st->mq = NULL;
		}
	}
}

/*
 * Parallel leader: stream st's next row from its worker; false after the
 * worker's end marker.  A worker that detaches without it failed: its
 * error, if it reported one, is raised here.
 */
bool
hroe_sm_receive_remote(ShardedQuery *q, ShardStream *st)
{
	Size		nbytes;
	void	   *data;
	char	   *p;
	MemoryContext old;

	if (st->remoteEnded)
		return false;
	if (st->mq == NULL ||
		shm_mq_receive(st->mq, &nbytes, &data, false) != SHM_MQ_SUCCESS)
	{
		DetachWorkers(q);
		WaitForParallelWorkersToFinish(q->pcxt);
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("a parallel worker of hroe.sharded_query stopped before its last row")));
	}
	p = data;
	if (nbytes == 1 && p[0] == 'E')
	{
		st->remoteEnded = true;
		return false;
	}
	if (nbytes < 1 + sizeof(ItemPointerData) || p[0] != 'R')
		elog(ERROR, "unexpected message from a parallel worker of hroe.sharded_query");
	memcpy(&st->tid, p + 1, sizeof(ItemPointerData));
	p += 1 + sizeof(ItemPointerData);
	MemoryContextReset(st->remoteCxt);
	old = MemoryContextSwitchTo(st->remoteCxt);
	for (int i = 0; i < q->ncols; i++)
		st->keys[i] = datumRestore(&p, &st->nulls[i]);
	MemoryContextSwitchTo(old);
	st->rowData = (char *) data + MAXALIGN(p - (char *) data);
	st->rowLen = nbytes - MAXALIGN(p - (char *) data);
	return true;
}

/*
 * The parallel call: run the whole merge with up to a->workers workers into
 * q->store (see above).  Runs in the SRF's multi-call memory context.
 */
static void
MaterializeParallel(ShardedQuery *q, MergeArgs *a)
{
	int			asked = Min(a->workers, q->nshards - 1);

	/* no more queues in shared memory than workers could ever start */
	int			nworkers = Min(asked, max_parallel_workers);
	int			participants = nworkers + 1;
	int			launched = 0;
	Size		valuesSize = EstimateValues(a);
	char	   *queues = NULL;
	int		   *local;
	int			nlocal = 0;
	ParallelContext *pcxt;
	TupleDesc	desc;
	int			s;

	EnterParallelMode();
	pcxt = CreateParallelContext("$libdir/hroe", "hroe_sharded_query_worker", nworkers);
	shm_toc_estimate_chunk(&pcxt->estimator, sizeof(ParallelMergeShared));
	shm_toc_estimate_chunk(&pcxt->estimator, valuesSize);
	shm_toc_estimate_chunk(&pcxt->estimator, mul_size(PARALLEL_QUEUE_SIZE, nworkers));
	shm_toc_estimate_keys(&pcxt->estimator, 3);
	InitializeParallelDSM(pcxt);
	q->pcxt = pcxt;

	/* without dynamic shared memory there are no workers */
	if (pcxt->seg != NULL && pcxt->nworkers > 0)
	{
		ParallelMergeShared *sh = shm_toc_allocate(pcxt->toc, sizeof(ParallelMergeShared));
		char	   *values = shm_toc_allocate(pcxt->toc, valuesSize);

		sh->indexOid = a->indexOid;
		sh->rowtype = a->rowtype;
		sh->nshards = a->nshards;
		sh->forward = a->forward;
		sh->limit = a->limit;
		sh->nprefix = a->nprefix;
		sh->haveOp = a->op != NULL;
		sh->valtype = a->valtype;
		sh->keyType = a->keyType;
		sh->participants = participants;
		shm_toc_insert(pcxt->toc, PARALLEL_KEY_SHARED, sh);
		SerializeValues(a, values);
		shm_toc_insert(pcxt->toc, PARALLEL_KEY_VALUES, values);
		queues = shm_toc_allocate(pcxt->toc, mul_size(PARALLEL_QUEUE_SIZE, nworkers));
		for (int i = 0; i < nworkers; i++)
		{
			shm_mq	   *mq = shm_mq_create(queues + i * PARALLEL_QUEUE_SIZE, PARALLEL_QUEUE_SIZE);

			shm_mq_set_receiver(mq, MyProc);
		}
		shm_toc_insert(pcxt->toc, PARALLEL_KEY_QUEUES, queues);
		LaunchParallelWorkers(pcxt);
		launched = pcxt->nworkers_launched;
	}
	ereport(DEBUG1,
			(errmsg_internal("hroe.sharded_query: %d of %d parallel workers launched",
							 launched, asked)));

	/* the leader's shards, with those of the workers not launched */
	local = palloc(sizeof(int) * q->nshards);
	for (s = 0; s < q->nshards; s++)
	{
		int			w = s % participants;

		if (w == 0 || w - 1 >= launched)
			local[nlocal++] = s;
	}
	hroe_sm_start_streams(q, local, nlocal, launched);
	for (int i = 0; i < launched; i++)
	{
		ShardStream *st = &q->streams[nlocal + i];
		MemoryContext old = MemoryContextSwitchTo(q->keyCxt);

		st->mq = shm_mq_attach((shm_mq *) (queues + i * PARALLEL_QUEUE_SIZE), pcxt->seg, NULL);
		shm_mq_set_handle(st->mq, pcxt->worker[i].bgwhandle);
		MemoryContextSwitchTo(old);
		st->exhausted = !hroe_sm_advance_stream(q, st);
	}
	hroe_sm_play_tournament(q);

	desc = CreateTupleDescCopy(RelationGetDescr(q->heapRel));
	q->store = tuplestore_begin_heap(false, false, work_mem);
	q->storeSlot = MakeSingleTupleTableSlot(desc, &TTSOpsMinimalTuple);
	while ((s = hroe_sm_next_row(q)) >= 0)
	{
		ShardStream *st = &q->streams[s];

		if (st->remote)
		{
			HeapTupleData tuple;

			tuple.t_len = st->rowLen;
			tuple.t_data = (HeapTupleHeader) st->rowData;
			ItemPointerSetInvalid(&tuple.t_self);
			tuple.t_tableOid = RelationGetRelid(q->heapRel);
			tuplestore_puttuple(q->store, &tuple);
		}
		else
			tuplestore_puttupleslot(q->store, q->slot);
		MemoryContextReset(q->callCxt);
	}

	/* the workers may still be sending: they stop when their queue goes */
	DetachWorkers(q);
	if (launched > 0)
		WaitForParallelWorkersToFinish(pcxt);
	hroe_sm_close_sharded_query(q);
	DestroyParallelContext(pcxt);
	q->pcxt = NULL;
	ExitParallelMode();
}

/*
 * Parallel worker entry point (CreateParallelContext): merge this worker's
 * shards and send their rows in order to the leader, then an end marker.
 */
void
hroe_sharded_query_worker(dsm_segment *seg, shm_toc *toc)
{
	ParallelMergeShared *sh = shm_toc_lookup(toc, PARALLEL_KEY_SHARED, false);
	char	   *values = shm_toc_lookup(toc, PARALLEL_KEY_VALUES, false);
	char	   *queues = shm_toc_lookup(toc, PARALLEL_KEY_QUEUES, false);
	shm_mq	   *mq = (shm_mq *) (queues + ParallelWorkerNumber * PARALLEL_QUEUE_SIZE);
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "hroe sharded_query worker",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	shm_mq_handle *mqh;
	MergeArgs	a;
	ShardedQuery *q;
	StringInfoData buf;
	int		   *shards;
	int			n = 0;
	bool		detached = false;
	int			s;

	shm_mq_set_sender(mq, MyProc);
	mqh = shm_mq_attach(mq, seg, NULL);
	RestoreArgs(sh, values, &a);
	q = hroe_sm_setup_merge(&a);
	shards = palloc(sizeof(int) * q->nshards);
	for (s = 0; s < q->nshards; s++)
		if (s % sh->participants == ParallelWorkerNumber + 1)
			shards[n++] = s;
	hroe_sm_start_streams(q, shards, n, 0);
	hroe_sm_play_tournament(q);
	initStringInfo(&buf);
	while ((s = hroe_sm_next_row(q)) >= 0)
	{
		if (!SendRow(q, s, mqh, &buf))
		{
			detached = true;
			break;
		}
		MemoryContextReset(q->callCxt);
	}
	if (!detached)
		(void) shm_mq_send(mqh, 1, "E", false, true);
	hroe_sm_close_sharded_query(q);
	shm_mq_detach(mqh);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
}

PG_FUNCTION_INFO_V1(hroe_sharded_query);
/*
 * hroe.sharded_query(p_rowtype, p_index, p_shards, p_op, p_value1,
 * p_value2, p_forward, p_limit, p_prefix, p_parallel_workers): the rows of
 * the N shards of a write-sharded index matching one sort-key condition,
 * merged in sort-key order; see the file header.  One row per call.
 */
Datum
hroe_sharded_query(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	ShardedQuery *q;
	MemoryContext oldcxt;
	int			s;
	Datum		row;

	if (SRF_IS_FIRSTCALL())
	{
		ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
		MergeArgs	a;

		if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) || rsinfo->econtext == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("set-valued function called in context that cannot accept a set")));
		funcctx = SRF_FIRSTCALL_INIT();
		oldcxt = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		hroe_sm_parse_args(fcinfo, &a);

		/*
		 * Workers only from outside parallel mode (not in a worker, nor in a
		 * parallel plan's leader), and not for a temporary table, whose
		 * buffers are the backend's own.
		 */
		if (a.workers > 0 && (a.nshards == 1 || IsInParallelMode()))
		{
			if (a.nshards > 1)
				ereport(DEBUG1,
						(errmsg_internal("hroe.sharded_query: in parallel mode, no parallel workers")));
			a.workers = 0;
		}
		q = hroe_sm_setup_merge(&a);
		if (a.workers > 0 && RelationUsesLocalBuffers(q->heapRel))
		{
			ereport(DEBUG1,
					(errmsg_internal("hroe.sharded_query: temporary table, no parallel workers")));
			a.workers = 0;
		}
		q->econtext = rsinfo->econtext;
		RegisterExprContextCallback(rsinfo->econtext, hroe_sm_shutdown_sharded_query, PointerGetDatum(q));
		if (a.workers > 0)
			MaterializeParallel(q, &a);
		else
		{
			int		   *shards = palloc(sizeof(int) * a.nshards);

			for (s = 0; s < a.nshards; s++)
				shards[s] = s;
			hroe_sm_start_streams(q, shards, a.nshards, 0);
			hroe_sm_play_tournament(q);
		}
		funcctx->user_fctx = q;
		MemoryContextSwitchTo(oldcxt);
	}
	funcctx = SRF_PERCALL_SETUP();
	q = (ShardedQuery *) funcctx->user_fctx;
	MemoryContextReset(q->callCxt);

	if (q->store != NULL)
	{
		bool		more;

		/*
		 * A parallel call: its rows are in the tuplestore.  A row read back
		 * from a file is allocated in the current context and owned by the
		 * slot, which frees it at the next row: read in the call's context.
		 */
		oldcxt = MemoryContextSwitchTo(q->keyCxt);
		more = tuplestore_gettupleslot(q->store, true, false, q->storeSlot);
		MemoryContextSwitchTo(oldcxt);
		if (!more)
		{
			UnregisterExprContextCallback(q->econtext, hroe_sm_shutdown_sharded_query, PointerGetDatum(q));
			hroe_sm_shutdown_sharded_query(PointerGetDatum(q));
			SRF_RETURN_DONE(funcctx);
		}
		oldcxt = MemoryContextSwitchTo(q->callCxt);
		row = ExecFetchSlotHeapTupleDatum(q->storeSlot);
		MemoryContextSwitchTo(oldcxt);
		SRF_RETURN_NEXT(funcctx, row);
	}

	s = hroe_sm_next_row(q);
	if (s < 0)
	{
		UnregisterExprContextCallback(q->econtext, hroe_sm_shutdown_sharded_query, PointerGetDatum(q));
		hroe_sm_close_sharded_query(q);
		SRF_RETURN_DONE(funcctx);
	}
	oldcxt = MemoryContextSwitchTo(q->callCxt);
	row = ExecFetchSlotHeapTupleDatum(q->slot);
	MemoryContextSwitchTo(oldcxt);
	SRF_RETURN_NEXT(funcctx, row);
}
