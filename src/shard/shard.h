/*-------------------------------------------------------------------------
 *
 * shard.h
 *	  Write sharding: shard-count arithmetic, the shard hash, and the
 *	  scatter-gather merge over the shards of an index.
 *
 * src/shard/shard.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef HROE_SHARD_H
#define HROE_SHARD_H

/* Largest shard count hroe.shard_of, hroe.random_shard and
 * hroe.sharded_query accept: one open index scan per shard. */
#define HROE_MAX_SHARDS 1024

/* DynamoDB's per-partition ceilings and unit sizes */
#include "dynamodb_limits.h"

extern void hroe_check_shard_count(int32 n);

#endif							/* HROE_SHARD_H */
