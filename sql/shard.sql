--
-- Write sharding arithmetic and hashing: hroe.shard_count,
-- hroe.shard_count_details, hroe.shard_of, hroe.random_shard.
--
-- error contexts name plpgsql line numbers: leave them out
\set SHOW_CONTEXT never

-- AWS's example: 3M orders, 20 % OPEN, 250-byte items.
-- ItemsPerRCU = 4096 / 250 = 16.384 -> 16 whole items; rate = 3000 * 16 = 48,000
-- items/s; N = 600,000 / 48,000 = 12.5 -> 13; padded by 15 % -> 15.
SELECT hroe.shard_count(600000, 250);
SELECT * FROM hroe.shard_count_details(600000, 250);
-- the partition read limit is an argument (e.g. a share of a partition)
SELECT hroe.shard_count(600000, 250, 1500);
SELECT * FROM hroe.shard_count_details(600000, 250, p_padding_percent => 0);
SELECT * FROM hroe.shard_count_details(600000, 250, p_padding_percent => 50);

-- edges: tiny items, exactly 4 KB, just over 4 KB, 400 KB items, one item
SELECT size, hroe.shard_count(600000, size) AS n, d.*
FROM unnest(ARRAY[1, 2, 1000, 4095, 4096, 4097, 8192, 8193, 409600]) AS size,
	 LATERAL hroe.shard_count_details(600000, size) AS d;
SELECT hroe.shard_count(1, 1), hroe.shard_count(1, 409600),
	   hroe.shard_count(48000, 250), hroe.shard_count(48001, 250);
-- the result equals ceil(required_partitions) over a grid of inputs
SELECT count(*) AS checked,
	   count(*) FILTER (WHERE d.shard_count <> ceil(d.required_partitions)) AS mismatches
FROM generate_series(1, 2000001, 99999) AS io,
	 unnest(ARRAY[1, 7, 100, 250, 999, 4096, 4097, 10000, 123456]) AS size,
	 LATERAL hroe.shard_count_details(io, size) AS d;
-- huge inputs: an error, never an overflow
SELECT hroe.shard_count(9223372036854775807, 4096);
SELECT hroe.shard_count(9223372036854775807, 1);
SELECT hroe.shard_count(9223372036854775807, 409600);  -- error: out of range
SELECT hroe.shard_count(9223372036854775807, 5000);    -- error: more than 2^31 shards

-- zero, negative and impossible inputs are rejected
SELECT hroe.shard_count(0, 250);
SELECT hroe.shard_count(-1, 250);
SELECT hroe.shard_count(600000, 0);
SELECT hroe.shard_count(600000, -250);
SELECT hroe.shard_count(600000, 409601);
SELECT hroe.shard_count(600000, 250, 0);
SELECT hroe.shard_count(600000, 250, -3000);
SELECT * FROM hroe.shard_count_details(600000, 250, p_padding_percent => -1);
SELECT hroe.shard_count(NULL, 250) IS NULL AS strict;

--
-- shard_of: 64-bit FNV-1a over the canonical bytes, MurmurHash3 fmix64,
-- modulo n. Fixed expected values: a change of the function fails here.
--
SELECT left(v, 16) AS v, octet_length(v) AS bytes,
	   hroe.shard_of(v, 15) AS s15, hroe.shard_of(v, 1024) AS s1024, hroe.shard_of(v, 1) AS s1
FROM unnest(ARRAY['', 'a', 'abc', '42', 'ORDER#1', 'ORDER#2', 'CUSTOMER#1001',
				  'OPEN#2025-01-01', 'Ä€😀', repeat('x', 10000)]) AS v;
SELECT v, hroe.shard_of(v, 15) AS s15, hroe.shard_of(v, 7) AS s7
FROM unnest(ARRAY[0, 1, -1, 42, 2147483647, -2147483648]) AS v;
SELECT v, hroe.shard_of(v, 15) AS s15
FROM unnest(ARRAY[9223372036854775807, -9223372036854775808, 1234567890123]::bigint[]) AS v;
SELECT v, hroe.shard_of(v, 15) AS s15
FROM unnest(ARRAY[0, 0.000, 42, 42.0, 42.50, -1.5, 1e20, 0.001, 12345678901234567890.123]::numeric[]) AS v;
SELECT hroe.shard_of('\x00ff10'::bytea, 15) AS bytea_s15,
	   hroe.shard_of(convert_to('Ä€😀', 'UTF8'), 15) = hroe.shard_of('Ä€😀', 15) AS bytea_is_utf8;
-- hroe.key hashes its UTF-8 bytes, as text does
SELECT hroe.shard_of('ORDER#1'::hroe.key, 15) AS key_s15,
	   hroe.shard_of('ORDER#1'::hroe.key, 15) = hroe.shard_of('ORDER#1'::text, 15) AS key_is_text,
	   hroe.shard_of('Ä€😀'::hroe.key, 1024) = hroe.shard_of('Ä€😀'::text, 1024) AS key_is_text_utf8;
-- numbers hash as their canonical decimal text, whatever the type or scale
SELECT hroe.shard_of(42, 15) = hroe.shard_of('42', 15) AS int_text,
	   hroe.shard_of(42::bigint, 15) = hroe.shard_of('42', 15) AS bigint_text,
	   hroe.shard_of(42.000, 15) = hroe.shard_of('42', 15) AS numeric_text,
	   hroe.shard_of(-1.50, 15) = hroe.shard_of('-1.5', 15) AS trailing_zeros;
-- even spread: every shard within 5 % of the mean over 100,000 keys
SELECT count(*) AS shards, min(c), max(c),
	   bool_and(abs(c - 100000 / 15.0) <= 0.05 * 100000 / 15.0) AS within_5_percent
FROM (SELECT hroe.shard_of('ORDER#' || g, 15) AS s, count(*) AS c
	  FROM generate_series(1, 100000) g GROUP BY 1) x;
SELECT count(*) AS shards, min(c), max(c),
	   bool_and(abs(c - 100000 / 15.0) <= 0.05 * 100000 / 15.0) AS within_5_percent
FROM (SELECT hroe.shard_of(g, 15) AS s, count(*) AS c
	  FROM generate_series(1, 100000) g GROUP BY 1) x;
SELECT count(*) AS shards, min(c), max(c),
	   bool_and(abs(c - 100000 / 16.0) <= 0.05 * 100000 / 16.0) AS within_5_percent
FROM (SELECT hroe.shard_of('2025-01-01#' || g, 16) AS s, count(*) AS c
	  FROM generate_series(1, 100000) g GROUP BY 1) x;
-- bad shard counts and values
SELECT hroe.shard_of('a', 0);
SELECT hroe.shard_of('a', -15);
SELECT hroe.shard_of('a', 1025);
SELECT hroe.shard_of(1, 1024) BETWEEN 0 AND 1023 AS max_ok;
SELECT hroe.shard_of('NaN'::numeric, 15);
SELECT hroe.shard_of('Infinity'::numeric, 15);
SELECT hroe.shard_of(NULL::text, 15) IS NULL AS strict;

--
-- random_shard: uniform over 0..n-1
--
SELECT count(DISTINCT s) AS distinct_shards, min(s), max(s)
FROM (SELECT hroe.random_shard(15) AS s FROM generate_series(1, 10000)) x;
SELECT bool_and(c BETWEEN 500 AND 850) AS roughly_even
FROM (SELECT hroe.random_shard(15) AS s, count(*) AS c FROM generate_series(1, 10000) GROUP BY 1) x;
SELECT hroe.random_shard(1) AS only_shard;
SELECT hroe.random_shard(0);
SELECT hroe.random_shard(1025);
