
--
-- Write sharding (src/shard/shard.c, src/shard/shard_merge.c): the shard-count formula of
-- AWS's guide, a documented shard hash, a random shard, the scatter-gather
-- query over the N shards of an index, and a hot-partition report.
--

CREATE FUNCTION hroe.shard_count(p_max_required_io bigint, p_avg_item_bytes integer,
								 p_partition_max_rcu integer DEFAULT 3000)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_count'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_count(bigint, integer, integer) IS
'Write-shard count N = ceil(MaxRequiredIO / PartitionMaxReadRate), PartitionMaxReadRate = partition RCU limit (default 3000) * ItemsPerRCU, ItemsPerRCU = floor(4096 / average item bytes) (items over 4 KB cost ceil(size/4096) RCU each)';

CREATE FUNCTION hroe.shard_count_details(p_max_required_io bigint, p_avg_item_bytes integer,
										 p_partition_max_rcu integer DEFAULT 3000,
										 p_padding_percent integer DEFAULT 15,
										 OUT items_per_rcu numeric,
										 OUT rcu_per_item integer,
										 OUT partition_max_read_rate numeric,
										 OUT required_partitions numeric,
										 OUT shard_count integer,
										 OUT padded_shard_count integer)
RETURNS record
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
	-- hroe.shard_count validates the inputs and is the authority for N
	shard_count := hroe.shard_count(p_max_required_io, p_avg_item_bytes, p_partition_max_rcu);
	IF p_padding_percent < 0 OR p_padding_percent > 1000 THEN
		RAISE EXCEPTION 'padding must be between 0 and 1000 percent'
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('p_padding_percent is %s.', p_padding_percent);
	END IF;
	rcu_per_item := (p_avg_item_bytes + 4095) / 4096;
	IF p_avg_item_bytes <= 4096 THEN
		items_per_rcu := 4096 / p_avg_item_bytes;
	ELSE
		items_per_rcu := trim_scale(round(1::numeric / rcu_per_item, 6));
	END IF;
	IF p_avg_item_bytes <= 4096 THEN
		partition_max_read_rate := p_partition_max_rcu::numeric * items_per_rcu;
		required_partitions := p_max_required_io::numeric / partition_max_read_rate;
	ELSE
		partition_max_read_rate := p_partition_max_rcu::numeric / rcu_per_item;
		required_partitions := p_max_required_io::numeric * rcu_per_item / p_partition_max_rcu;
	END IF;
	partition_max_read_rate := trim_scale(round(partition_max_read_rate, 3));
	required_partitions := trim_scale(required_partitions);
	padded_shard_count := ceil(shard_count::numeric * (100 + p_padding_percent) / 100);
END
$$;

COMMENT ON FUNCTION hroe.shard_count_details(bigint, integer, integer, integer) IS
'Every figure of the shard-count formula: items per RCU, RCU per item, the partition read rate (items/s), the exact quotient, N (rounded up) and N padded for anomalies: ceil(N * (100 + p_padding_percent) / 100), default 15 %, so 13 -> 15 as in AWS''s example';

CREATE FUNCTION hroe.shard_of(p_value text, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(text, integer) IS
'Shard 0..p_shards-1 of a string: 64-bit FNV-1a of its UTF-8 bytes, MurmurHash3 fmix64, modulo p_shards (1..1024); stable across platforms and PostgreSQL versions';

CREATE FUNCTION hroe.shard_of(p_value bytea, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(bytea, integer) IS
'Shard 0..p_shards-1 of binary data: 64-bit FNV-1a of the bytes, MurmurHash3 fmix64, modulo p_shards (1..1024)';

CREATE FUNCTION hroe.shard_of(p_value integer, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_int4'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(integer, integer) IS
'Shard 0..p_shards-1 of an integer: the hash of its decimal text, so shard_of(42, n) = shard_of(''42'', n)';

CREATE FUNCTION hroe.shard_of(p_value bigint, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_int8'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(bigint, integer) IS
'Shard 0..p_shards-1 of a bigint: the hash of its decimal text, so shard_of(42::bigint, n) = shard_of(''42'', n)';

CREATE FUNCTION hroe.shard_of(p_value numeric, p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_shard_of_numeric'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.shard_of(numeric, integer) IS
'Shard 0..p_shards-1 of a number: the hash of its canonical decimal text (DynamoDB''s form, trailing fractional zeros dropped: 1.50 -> 1.5); NaN and infinities are rejected';

-- hroe.key (src/types/key.sql, when it precedes this file in the install script)
-- is stored exactly like text: its shard is that of its UTF-8 bytes.
DO $$
BEGIN
	IF pg_catalog.to_regtype('hroe.key') IS NOT NULL THEN
		CREATE FUNCTION hroe.shard_of(p_value hroe.key, p_shards integer)
		RETURNS integer
		AS 'MODULE_PATHNAME', 'hroe_shard_of_text'
		LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
		COMMENT ON FUNCTION hroe.shard_of(hroe.key, integer) IS
		'Shard 0..p_shards-1 of a key: the hash of its UTF-8 bytes, as hroe.shard_of(text, integer)';
	END IF;
END
$$;

CREATE FUNCTION hroe.random_shard(p_shards integer)
RETURNS integer
AS 'MODULE_PATHNAME', 'hroe_random_shard'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.random_shard(integer) IS
'A uniformly drawn shard 0..p_shards-1 (1..1024), the random write-sharding suffix of AWS''s GSI 2 pattern';

CREATE FUNCTION hroe.sharded_query(p_rowtype anyelement, p_index regclass, p_shards integer,
								   p_op text DEFAULT NULL,
								   p_value1 anycompatible DEFAULT NULL,
								   p_value2 anycompatible DEFAULT NULL,
								   p_forward boolean DEFAULT true,
								   p_limit bigint DEFAULT NULL,
								   p_prefix text[] DEFAULT NULL,
								   p_parallel_workers integer DEFAULT 0)
RETURNS SETOF anyelement
AS 'MODULE_PATHNAME', 'hroe_sharded_query'
LANGUAGE C STABLE PARALLEL SAFE ROWS 100;

COMMENT ON FUNCTION hroe.sharded_query(anyelement, regclass, integer, text, anycompatible, anycompatible, boolean, bigint, text[], integer) IS
'Rows of the shards 0..p_shards-1 of a write-sharded btree index (key columns: p_prefix equality columns, shard, sort key) matching one sort-key condition (=, <, <=, >, >=, between, begins_with), merged in sort-key order by a streaming k-way merge (tournament tree over one index scan per shard), ascending or descending, stopping at p_limit. p_parallel_workers > 0: up to that many parallel workers each merge a share of the shards and the leader merges their streams; such a call runs to its end (or p_limit) in its first row and returns the rows from a tuplestore; no workers when already in parallel mode (then it runs serially, as in a parallel worker), for temporary tables, or when no worker slot is free';

CREATE FUNCTION hroe.hot_partitions(p_index regclass, p_key_columns integer DEFAULT NULL,
									p_reads_per_second double precision DEFAULT 1,
									p_writes_per_second double precision DEFAULT 0,
									p_size_column name DEFAULT NULL)
RETURNS TABLE (partition_key text, items bigint, bytes bigint, read_rcu bigint,
			   read_seconds numeric, read_share numeric, write_share numeric,
			   imbalance numeric)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
	v_table regclass;
	v_nkeys integer;
	v_pred text;
	v_k integer;
	v_keys text[] := '{}';
	v_size text;
	v_type regtype;
	v_item regtype := to_regtype('hroe.item');
	v_where text;
BEGIN
	SELECT i.indrelid, i.indnkeyatts, pg_get_expr(i.indpred, i.indrelid)
	  INTO v_table, v_nkeys, v_pred
	  FROM pg_index i WHERE i.indexrelid = p_index;
	IF v_table IS NULL THEN
		RAISE EXCEPTION '"%" is not an index', p_index
			USING ERRCODE = 'wrong_object_type';
	END IF;
	v_k := coalesce(p_key_columns, greatest(v_nkeys - 1, 1));
	IF v_k < 1 OR v_k > v_nkeys THEN
		RAISE EXCEPTION 'p_key_columns must be between 1 and %', v_nkeys
			USING ERRCODE = 'invalid_parameter_value',
				  DETAIL = format('Index %s has %s key columns; p_key_columns is %s.', p_index, v_nkeys, v_k);
	END IF;
	IF p_reads_per_second < 0 OR p_writes_per_second < 0 THEN
		RAISE EXCEPTION 'request rates must not be negative'
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	FOR i IN 1 .. v_k LOOP
		v_keys := v_keys || ('(' || pg_get_indexdef(p_index, i, false) || ')');
	END LOOP;

	-- item size: a named column (hroe.item or a byte count), else an
	-- hroe.item column "item", else the stored row size
	IF p_size_column IS NULL AND v_item IS NOT NULL AND EXISTS
		(SELECT FROM pg_attribute a WHERE a.attrelid = v_table AND a.attname = 'item'
		   AND a.atttypid = v_item AND NOT a.attisdropped) THEN
		p_size_column := 'item';
	END IF;
	IF p_size_column IS NULL THEN
		v_size := 'pg_catalog.pg_column_size(t.*)';
	ELSE
		SELECT a.atttypid INTO v_type FROM pg_attribute a
		 WHERE a.attrelid = v_table AND a.attname = p_size_column AND a.attnum > 0 AND NOT a.attisdropped;
		IF v_type IS NULL THEN
			RAISE EXCEPTION 'column "%" of table % does not exist', p_size_column, v_table
				USING ERRCODE = 'undefined_column';
		ELSIF v_type = v_item THEN
			-- (to_regprocedure only runs once the type exists)
			IF to_regprocedure('hroe.item_size(hroe.item)') IS NOT NULL THEN
				v_size := format('hroe.item_size(t.%I)', p_size_column);
			ELSE
				v_size := format('pg_catalog.pg_column_size(t.%I)', p_size_column);
			END IF;
		ELSIF v_type IN ('smallint'::regtype, 'integer'::regtype, 'bigint'::regtype, 'numeric'::regtype) THEN
			v_size := format('t.%I', p_size_column);
		ELSE
			RAISE EXCEPTION 'size column "%" has type %', p_size_column, v_type
				USING ERRCODE = 'datatype_mismatch',
					  HINT = 'Name an hroe.item column or a column holding the item size in bytes.';
		END IF;
	END IF;

	-- rows with a null key attribute (partition key, or the sort key that
	-- follows it) are not in a DynamoDB index (sparse)
	SELECT string_agg(k || ' IS NOT NULL', ' AND ') INTO v_where FROM unnest(v_keys) AS k;
	IF v_k < v_nkeys THEN
		v_where := v_where || ' AND (' || pg_get_indexdef(p_index, v_k + 1, false) || ') IS NOT NULL';
	END IF;
	IF v_pred IS NOT NULL THEN
		v_where := v_where || ' AND (' || v_pred || ')';
	END IF;

	RETURN QUERY EXECUTE format(
		'WITH p AS (SELECT pg_catalog.concat_ws(''#'', %1$s) AS partition_key,'
		'                  pg_catalog.count(*) AS items, pg_catalog.sum(%2$s)::bigint AS bytes'
		'             FROM %3$s t WHERE %4$s GROUP BY %1$s)'
		' SELECT p.partition_key, p.items, p.bytes, r.rcu,'
		'        pg_catalog.round(r.rcu / 3000.0, 3),'
		'        pg_catalog.round((r.rcu * $1 / 3000)::numeric, 4),'
		'        pg_catalog.round(($2 * p.items / pg_catalog.sum(p.items) OVER ()'
		'                          * pg_catalog.ceil(p.bytes / p.items / 1024.0) / 1000)::numeric, 4),'
		'        pg_catalog.round(p.items / pg_catalog.avg(p.items) OVER (), 3)'
		'   FROM p, LATERAL (SELECT pg_catalog.ceil(p.bytes / 4096.0)::bigint AS rcu) r'
		'  ORDER BY p.items DESC, p.partition_key',
		array_to_string(v_keys, ', '), v_size, v_table, v_where)
	USING p_reads_per_second, p_writes_per_second;
END
$$;

COMMENT ON FUNCTION hroe.hot_partitions(regclass, integer, double precision, double precision, name) IS
'Per partition-key value of an index (its first p_key_columns key columns, default all but the last): items, bytes, RCU to read the partition once (bytes / 4 KB rounded up), seconds at 3,000 RCU/s, share of the 3,000 RCU/s read limit at p_reads_per_second full reads and of the 1,000 WCU/s write limit at p_writes_per_second item writes spread by item count, and items / mean (imbalance)';
