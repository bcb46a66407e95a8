-- hroe_hr 0.2 -> 0.3 (ALTER EXTENSION hroe_hr UPDATE TO '0.3')
--
-- Each change to the install script's pieces in models/ is repeated here,
-- so that an updated database has the catalog of a fresh 0.3 installation
-- (test/t_upgrade.sh compares them).

\echo Use "ALTER EXTENSION hroe_hr UPDATE TO '0.3'" to load this file. \quit

-- The generator's C functions are in hroe_hr's own library (models/generate.c),
-- no longer in hroe's
CREATE OR REPLACE FUNCTION hroe.prng(seed bigint, stream integer, i bigint)
RETURNS double precision
AS 'MODULE_PATHNAME', 'hroe_prng'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.prng_int(seed bigint, stream integer, i bigint, lo bigint, hi bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_int'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.prng_zipf(seed bigint, stream integer, i bigint, n bigint)
RETURNS bigint
AS 'MODULE_PATHNAME', 'hroe_prng_zipf'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION hroe.order_line_draws(seed bigint, order_id bigint, products bigint)
RETURNS bigint[]
AS 'MODULE_PATHNAME', 'hroe_order_line_draws'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
