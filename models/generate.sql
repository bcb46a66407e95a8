-- hroe_hr--<version>.sql: assembled by models/Makefile from the models/ pieces
-- listed in SCRIPT_PARTS; edit those

\echo Use "CREATE EXTENSION hroe_hr CASCADE" to load this file. \quit

-- Deterministic pseudo-random numbers for hroe.load (models/generate.c).
-- Each value is a pure function of (seed, stream, index): set-based
-- generators get identical rows whatever the plan or parallelism.

CREATE FUNCTION hroe.prng(seed bigint, stream integer, i bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'hroe_prng'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng(bigint, integer, bigint) IS
'internal: uniform pseudo-random float8 in [0, 1) for (seed, stream, index): splitmix64, stateless, the same on every call';

CREATE FUNCTION hroe.prng_int(seed bigint, stream integer, i bigint, lo bigint, hi bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_int'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng_int(bigint, integer, bigint, bigint, bigint) IS
'internal: uniform pseudo-random integer in [lo, hi] for (seed, stream, index); an error if lo > hi';

CREATE FUNCTION hroe.prng_zipf(seed bigint, stream integer, i bigint, n bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_zipf'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.prng_zipf(bigint, integer, bigint, bigint) IS
'internal: skewed pseudo-random rank in [1, n] for (seed, stream, index): P(k) = log(1 + 1/k) / log(n + 1), Zipf-like with exponent 1';

CREATE FUNCTION hroe.order_line_draws(seed bigint, order_id bigint, products bigint)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'hroe_order_line_draws'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION hroe.order_line_draws(bigint, bigint, bigint) IS
'internal: for hroe.load: the distinct products of generated order order_id (1 to 5 candidate lines, each product half Zipf-skewed), ascending, encoded product * 8 + the candidate line that drew it';
