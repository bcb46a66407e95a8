/*-------------------------------------------------------------------------
 *
 * shard_merge.h
 *	  hroe.sharded_query's internals, shared by its files: the scan keys
 *	  (shard_keys.c), the k-way merge of the shards' streams
 *	  (shard_merge.c) and the parallel merge with the SQL entry point
 *	  (shard_parallel.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_SHARD_MERGE_H
#define HROE_SHARD_MERGE_H

#include "access/genam.h"
#include "access/parallel.h"
#include "access/skey.h"
#include "executor/tuptable.h"
#include "nodes/execnodes.h"
#include "storage/shm_mq.h"
#include "utils/sortsupport.h"
#include "utils/tuplestore.h"

#include "catalog.h"
#include "shard.h"
#include "tables.h"

PGDLLEXPORT void hroe_sharded_query_worker(dsm_segment *seg, shm_toc *toc);

/* The arguments of one call, as checked before the relations are opened. */
typedef struct MergeArgs
{
	Oid			indexOid;
	Oid			rowtype;
	int			nshards;
	bool		forward;
	int64		limit;			/* -1 when none */
	int			nprefix;
	Datum	   *prefixValues;	/* text */
	char	   *op;				/* NULL: no sort-key condition */
	Oid			valtype;
	Datum		v1;
	bool		v1null;
	Datum		v2;
	bool		v2null;
	Oid			keyType;		/* hroe.key, or InvalidOid */
	int			workers;		/* parallel workers asked for */
} MergeArgs;

/*
 * One stream of the merge: a shard's index scan and its current head
 * entry, or (parallel leader) the rows a worker sends through its queue.
 */
typedef struct ShardStream
{
	int			shard;			/* shard number (local streams) */
	IndexScanDesc scan;
	ItemPointerData tid;		/* head's index TID, the last tie-breaker */
	bool		exhausted;		/* no head: the shard has no more entries */
	Datum	   *keys;			/* head's order columns, in its index tuple
								 * (forwards) or in runKeys (backwards) */
	bool	   *nulls;

	/*
	 * Backward scans only: the current run of equal sort keys (TIDs sorted
	 * ascending, consumed from the end) and the first entry after it.  A
	 * btree returns the TIDs of a deduplicated posting list in ascending
	 * order even when scanning backwards, so each run is reordered.
	 */
	ItemPointerData *run;
	int			nrun;
	int			runcap;
	Datum	   *runKeys;		/* copies, owned */
	bool	   *runNulls;
	bool		haveNext;
	ItemPointerData nextTid;
	Datum	   *nextKeys;		/* copies, owned */
	bool	   *nextNulls;
	bool		scanDone;

	/*
	 * Bounded first pass (with a limit): the scan also has the key "sort key
	 * not after bound", so btree stops reading its first leaf page there.
	 * An exhausted bounded shard stands for "its entries after bound, not
	 * read yet" and is reopened past bound if the merge reaches that point.
	 */
	bool		bounded;
	Datum		bound;			/* copy in keyCxt, referenced by the scan */

	/*
	 * A worker's stream (parallel leader): its queue (NULL once detached),
	 * the head's row in the last message, keys restored in remoteCxt.
	 */
	bool		remote;
	shm_mq_handle *mq;
	bool		remoteEnded;	/* the worker's end marker came */
	char	   *rowData;
	Size		rowLen;
	MemoryContext remoteCxt;
} ShardStream;

/* State of one sharded_query call, kept across its rows. */
typedef struct ShardedQuery
{
	Relation	heapRel;
	Relation	indexRel;
	Snapshot	snapshot;
	int			nshards;
	int			nstreams;		/* streams merged here (shards, workers) */
	ShardStream *streams;

	/*
	 * Tournament over the shards' heads: tree[0] is the shard whose head
	 * comes first, tree[p] for 1 <= p < nstreams the loser of the match at
	 * node p; stream s plays from leaf nstreams + s, whose parent is p / 2.
	 */
	int		   *tree;
	AttrNumber	sortAttno;		/* index column of the sort key */
	ScanKey		keys;			/* the scans' keys, room for a bound key */
	int			nkeys;			/* without the bound key */
	int			shardKey;		/* keys[shardKey] is the shard equality */
	Oid			shardType;
	ScanKeyData boundKey;		/* sort key not after a bound, in scan order */
	ScanKeyData pastKey;		/* sort key strictly past a bound */

	/*
	 * Order columns: the sort key and the key columns after it, compared in
	 * index order, read from the index tuples.
	 */
	int			ncols;
	SortSupport ssup;
	int16	   *typlen;
	bool	   *byval;
	Datum	   *tmpKeys;		/* scratch for one index tuple's columns */
	bool	   *tmpNulls;
	ScanDirection dir;
	int64		limit;			/* -1 when none */
	int64		emitted;
	int			pending;		/* shard whose head was returned last, or -1 */
	TupleTableSlot *slot;		/* the row being returned */
	MemoryContext scanCxt;		/* the scans' context: they allocate in it */
	bool		pooled;			/* scanCxt is ScanPool, held by this call */
	MemoryContext keyCxt;		/* owned copies of keys (backward runs) */
	MemoryContext callCxt;		/* reset at every call: comparisons, the row */
	MemoryContext tmpCxt;		/* reset after each comparison of a run */
	ExprContext *econtext;
	bool		open;
	ParallelContext *pcxt;		/* parallel leader: the workers */
	Tuplestorestate *store;		/* parallel call: its rows, materialized */
	TupleTableSlot *storeSlot;
} ShardedQuery;

extern Oid hroe_sm_index_column_type(Relation index, AttrNumber attno);
extern const char *hroe_sm_index_column_name(Relation index, AttrNumber attno);
extern Datum hroe_sm_convert_via_text(Datum value, Oid fromType, Oid toType);
extern void hroe_sm_init_column_key(ScanKey key, Relation index, AttrNumber attno, int16 strategy,
			  Datum value, Oid valtype);
extern int hroe_sm_sort_condition_keys(ScanKey keys, Relation index, AttrNumber attno, const char *op,
				  Datum v1, bool v1null, Datum v2, bool v2null, Oid valtype, Oid keyType);
extern bool hroe_sm_advance_stream(ShardedQuery *q, ShardStream *st);
extern void hroe_sm_close_sharded_query(ShardedQuery *q);
extern void hroe_sm_shutdown_sharded_query(Datum arg);
extern void hroe_sm_parse_args(FunctionCallInfo fcinfo, MergeArgs *a);
extern ShardedQuery *hroe_sm_setup_merge(MergeArgs *a);
extern void hroe_sm_start_streams(ShardedQuery *q, const int *shards, int nlocal, int nremote);
extern void hroe_sm_play_tournament(ShardedQuery *q);
extern int hroe_sm_next_row(ShardedQuery *q);
extern bool hroe_sm_receive_remote(ShardedQuery *q, ShardStream *st);

#endif							/* HROE_SHARD_MERGE_H */
