/*-------------------------------------------------------------------------
 *
 * shard.c
 *	  Write-sharding arithmetic and the shard hash.
 *
 * hroe.shard_count implements the shard-count formula of AWS's guide
 * ("Relational modeling example", GSI 2); hroe.shard_of hashes a value
 * into 0..n-1 with a fixed, documented function (64-bit FNV-1a over the
 * value's canonical bytes, MurmurHash3's fmix64 finaliser, modulo n), so
 * that applications in any language compute the same shard;
 * hroe.random_shard draws a shard uniformly.
 *
 * src/shard/shard.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "common/pg_prng.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

#include "capacity.h"
#include "shard.h"

PG_FUNCTION_INFO_V1(hroe_shard_count);
PG_FUNCTION_INFO_V1(hroe_shard_of_text);
PG_FUNCTION_INFO_V1(hroe_shard_of_bytea);
PG_FUNCTION_INFO_V1(hroe_shard_of_int4);
PG_FUNCTION_INFO_V1(hroe_shard_of_int8);
PG_FUNCTION_INFO_V1(hroe_shard_of_numeric);
PG_FUNCTION_INFO_V1(hroe_random_shard);

/* Reject a shard count outside 1..HROE_MAX_SHARDS. */
void
hroe_check_shard_count(int32 n)
{
	if (n < 1 || n > HROE_MAX_SHARDS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shard count must be between 1 and %d", HROE_MAX_SHARDS),
				 errdetail("The shard count given is %d.", n)));
}

/*
 * hroe.shard_count(max_required_io, avg_item_bytes, partition_max_rcu):
 * the number of write shards N so that reading max_required_io items of
 * avg_item_bytes each stays within one partition's read ceiling per shard.
 *
 * Items up to 4 KB: ItemsPerRCU = floor(4096 / size) (whole items, as the
 * guide's 4 KB / 250 B = 16), rate = ceiling * ItemsPerRCU items/s,
 * N = ceil(io / rate).  Items over 4 KB cost ceil(size / 4096) RCU each,
 * so N = ceil(io * rcu_per_item / ceiling).  Errors on non-positive input.
 */
Datum
hroe_shard_count(PG_FUNCTION_ARGS)
{
	int64		io = PG_GETARG_INT64(0);
	int32		size = PG_GETARG_INT32(1);
	int32		ceiling = PG_GETARG_INT32(2);
	int64		rate;
	int64		units;
	int64		n;

	if (io <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("required read I/O must be positive"),
				 errdetail("p_max_required_io is " INT64_FORMAT ".", io),
				 errhint("Pass the number of items one read of the whole index must return.")));
	if (size <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("average item size must be positive"),
				 errdetail("p_avg_item_bytes is %d.", size)));
	if (size > HROE_ITEM_MAX_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("Item size has exceeded the maximum allowed size"),
				 errdetail("p_avg_item_bytes is %d; a DynamoDB item holds at most %d bytes.",
						   size, HROE_ITEM_MAX_SIZE)));
	if (ceiling <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition read limit must be positive"),
				 errdetail("p_partition_max_rcu is %d.", ceiling)));

	if (size <= HROE_RCU_BYTES)
	{
		/* at most 3000 * 4096, no overflow */
		rate = (int64) ceiling * (HROE_RCU_BYTES / size);
		units = io;
	}
	else
	{
		rate = ceiling;
		if (pg_mul_s64_overflow(io, hroe_rcu_count(size), &units))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("required read capacity is out of range"),
					 errdetail("p_max_required_io is " INT64_FORMAT " items of %d bytes.",
							   io, size)));
	}
	n = units / rate + (units % rate != 0 ? 1 : 0);
	if (n > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("shard count is out of range"),
				 errdetail("The formula gives " INT64_FORMAT " shards.", n)));
	PG_RETURN_INT32((int32) n);
}

/*
 * Shard of a byte string: 64-bit FNV-1a, then MurmurHash3's fmix64
 * finaliser (FNV-1a alone leaves the last byte in few bits), then modulo n.
 * The modulo bias is below n / 2^64, negligible for n <= HROE_MAX_SHARDS.
 */
static int32
ShardOfBytes(const unsigned char *bytes, size_t len, int32 n)
{
	uint64		h = UINT64CONST(0xcbf29ce484222325);

	for (size_t i = 0; i < len; i++)
	{
		h ^= bytes[i];
		h *= UINT64CONST(0x100000001b3);
	}
	h ^= h >> 33;
	h *= UINT64CONST(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64CONST(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return (int32) (h % (uint64) n);
}

/* hroe.shard_of(text, n): shard of the string's UTF-8 bytes. */
Datum
hroe_shard_of_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	int32		n = PG_GETARG_INT32(1);
	int32		shard;

	hroe_check_shard_count(n);
	shard = ShardOfBytes((unsigned char *) VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), n);
	PG_FREE_IF_COPY(t, 0);
	PG_RETURN_INT32(shard);
}

/* hroe.shard_of(bytea, n): shard of the raw bytes. */
Datum
hroe_shard_of_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	int32		n = PG_GETARG_INT32(1);
	int32		shard;

	hroe_check_shard_count(n);
	shard = ShardOfBytes((unsigned char *) VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b), n);
	PG_FREE_IF_COPY(b, 0);
	PG_RETURN_INT32(shard);
}

/* hroe.shard_of(bigint, n): shard of the canonical decimal text ("-42"). */
Datum
hroe_shard_of_int8(PG_FUNCTION_ARGS)
{
	int64		v = PG_GETARG_INT64(0);
	int32		n = PG_GETARG_INT32(1);
	char		buf[MAXINT8LEN + 1];
	int			len;

	hroe_check_shard_count(n);
	len = pg_lltoa(v, buf);
	PG_RETURN_INT32(ShardOfBytes((unsigned char *) buf, len, n));
}

/* hroe.shard_of(integer, n): same as the bigint form of the value. */
Datum
hroe_shard_of_int4(PG_FUNCTION_ARGS)
{
	int32		v = PG_GETARG_INT32(0);
	int32		n = PG_GETARG_INT32(1);
	char		buf[MAXINT8LEN + 1];
	int			len;

	hroe_check_shard_count(n);
	len = pg_lltoa((int64) v, buf);
	PG_RETURN_INT32(ShardOfBytes((unsigned char *) buf, len, n));
}

/*
 * hroe.shard_of(numeric, n): shard of the canonical decimal text, DynamoDB's
 * number form (no exponent, no trailing fractional zeros: 1.50 -> "1.5"),
 * so 42, 42.0 and '42' all land on the same shard.  NaN and infinities,
 * which DynamoDB numbers cannot hold, are rejected.
 */
Datum
hroe_shard_of_numeric(PG_FUNCTION_ARGS)
{
	Numeric		num = PG_GETARG_NUMERIC(0);
	int32		n = PG_GETARG_INT32(1);
	Datum		trimmed;
	char	   *s;
	int32		shard;

	hroe_check_shard_count(n);
	if (numeric_is_nan(num) || numeric_is_inf(num))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot compute the shard of %s",
						numeric_is_nan(num) ? "NaN" : "an infinite number"),
				 errdetail("DynamoDB numbers are finite.")));
	trimmed = DirectFunctionCall1(numeric_trim_scale, NumericGetDatum(num));
	s = DatumGetCString(DirectFunctionCall1(numeric_out, trimmed));
	shard = ShardOfBytes((unsigned char *) s, strlen(s), n);
	pfree(s);
	PG_RETURN_INT32(shard);
}

/* hroe.random_shard(n): a uniformly drawn shard in 0..n-1. */
Datum
hroe_random_shard(PG_FUNCTION_ARGS)
{
	int32		n = PG_GETARG_INT32(0);

	hroe_check_shard_count(n);
	PG_RETURN_INT32((int32) pg_prng_uint64_range(&pg_global_prng_state, 0, (uint64) n - 1));
}
