#!/usr/bin/env bash
# test/bench/tables.sh: hroe.get_item and hroe.query against hand-written SQL
# doing the same lookups on a plain table (pk, sk text COLLATE "C", doc jsonb).
#
# Run through the runner (throwaway cluster, hroe built without assertions,
# one benchmark at a time):  HROE_PGPORT=5505 bash test/bench/run.sh tables
#
# Data: 20,000 customers x 10 orders = 200,000 items of about 200 bytes, in a
# hroe table (PK, SK strings) and, as DynamoDB JSON in jsonb, in a plain table
# with PRIMARY KEY (pk, sk).  Four pgbench scripts, prepared statements, one
# client, each run REPS times for SECS seconds, alternating hroe and SQL:
#   get    one item by its full key: hroe.get_item(table, key jsonb) vs
#          SELECT doc FROM plain WHERE pk = $1 AND sk = $2
#   query  one customer's 10 orders, sort key begins_with 'ORDER#':
#          hroe.query(table, 'PK = :p AND begins_with(SK, :o)', values) vs
#          SELECT doc ... WHERE pk = $1 AND sk >= 'ORDER#' AND sk < 'ORDER$'
#          ORDER BY sk
# Prints a Markdown table of median transactions per second, latency and the
# ratio hroe time / SQL time; raw figures go to test/bench/out/tables.csv.
# The client round trip dominates those latencies and other work on a shared
# machine moves them, so a second table times the same calls inside the
# server (plpgsql loops of LOOPS calls, REPS times, alternating), where the
# difference between hroe and SQL is the whole cost.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p test/bench/out

CUSTOMERS=${HROE_BENCH_CUSTOMERS:-20000}
REPS=${HROE_BENCH_REPS:-7}
SECS=${HROE_BENCH_SECS:-5}
DB=hroe_bench_tables
LOOPS=${HROE_BENCH_LOOPS:-20000}
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
OUT=test/bench/out/tables.csv
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
run() { psql -X -q -v ON_ERROR_STOP=1 -v customers="$CUSTOMERS" -d "$DB" "$@"; }

run <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.create_table('bench', 'PK', 'S', 'SK', 'S');
CREATE TABLE plain (pk text COLLATE "C", sk text COLLATE "C", doc jsonb NOT NULL, PRIMARY KEY (pk, sk));
CREATE TABLE src AS
SELECT jsonb_build_object(
		'PK', jsonb_build_object('S', 'CUST#' || c),
		'SK', jsonb_build_object('S', 'ORDER#' || lpad(o::text, 4, '0')),
		'status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[1 + (c + o) % 3]),
		'date', jsonb_build_object('S', (date '2025-01-01' + (c * 7 + o) % 365)::text),
		'total', jsonb_build_object('N', ((c * 31 + o * 17) % 100000 / 100.0)::text),
		'lines', jsonb_build_object('L', jsonb_build_array(
			jsonb_build_object('M', jsonb_build_object('product', jsonb_build_object('S', 'P' || (c % 97)),
													   'qty', jsonb_build_object('N', (1 + o % 5)::text))))),
		'note', jsonb_build_object('S', repeat('x', 60))) AS doc, c, o
FROM generate_series(1, :customers) c, generate_series(1, 10) o;
INSERT INTO bench (item) SELECT doc::hroe.item FROM src ORDER BY c, o;
-- the plain table holds the same items, as hroe normalises them (numbers)
INSERT INTO plain SELECT doc -> 'PK' ->> 'S', doc -> 'SK' ->> 'S', doc::hroe.item::jsonb FROM src ORDER BY c, o;
DROP TABLE src;
VACUUM ANALYZE bench;
VACUUM ANALYZE plain;
SQL

# Both sides must return the same items, and the plans must be index scans.
run -At <<'SQL' >test/bench/out/tables-plans.txt
SELECT 'same get: ' || (hroe.get_item('bench', '{"PK": {"S": "CUST#77"}, "SK": {"S": "ORDER#0003"}}')::jsonb
	= (SELECT doc FROM plain WHERE pk = 'CUST#77' AND sk = 'ORDER#0003'));
SELECT 'same query: ' || (ARRAY(SELECT i::jsonb FROM hroe.query('bench', 'PK = :p AND begins_with(SK, :o)',
	'{":p": {"S": "CUST#77"}, ":o": {"S": "ORDER#"}}') i)
	= ARRAY(SELECT doc FROM plain WHERE pk = 'CUST#77' AND sk >= 'ORDER#' AND sk < 'ORDER$' ORDER BY sk));
SELECT * FROM hroe.explain_query('bench', 'PK = :p AND begins_with(SK, :o)', '{":p": {"S": "CUST#77"}, ":o": {"S": "ORDER#"}}');
PREPARE q(text) AS SELECT doc FROM plain WHERE pk = $1 AND sk >= 'ORDER#' AND sk < 'ORDER$' ORDER BY sk;
EXPLAIN (COSTS OFF) EXECUTE q('CUST#77');
SQL
cat test/bench/out/tables-plans.txt >&2
grep -q '^same get: true$' test/bench/out/tables-plans.txt
grep -q '^same query: true$' test/bench/out/tables-plans.txt

cat >"$WORK/get_hroe.sql" <<'EOF'
\set c random(1, :customers)
\set o random(1, 10)
SELECT hroe.get_item('bench', ('{"PK": {"S": "CUST#' || :c || '"}, "SK": {"S": "ORDER#' || lpad(:o::text, 4, '0') || '"}}')::jsonb);
EOF
cat >"$WORK/get_sql.sql" <<'EOF'
\set c random(1, :customers)
\set o random(1, 10)
SELECT doc FROM plain WHERE pk = 'CUST#' || :c AND sk = 'ORDER#' || lpad(:o::text, 4, '0');
EOF
# (pgbench would take the expression's :p and :o for its own variables, so
# the expression and the values' constant parts come in as variables)
cat >"$WORK/query_hroe.sql" <<'EOF'
\set c random(1, :customers)
SELECT * FROM hroe.query('bench', :kce, (:v1 || :c || :v2)::jsonb);
EOF
cat >"$WORK/query_sql.sql" <<'EOF'
\set c random(1, :customers)
SELECT doc FROM plain WHERE pk = 'CUST#' || :c AND sk >= 'ORDER#' AND sk < 'ORDER$' ORDER BY sk;
EOF

echo "op,impl,rep,tps,latency_us" >"$OUT"
for rep in $(seq 1 "$REPS"); do
	for op in get query; do
		for impl in hroe sql; do
			tps=$("$PGBENCH" -n -M prepared -c 1 -j 1 -T "$SECS" -D customers="$CUSTOMERS" \
				-D kce='PK = :p AND begins_with(SK, :o)' -D v1='{":p": {"S": "CUST#' \
				-D v2='"}, ":o": {"S": "ORDER#"}}' \
				-f "$WORK/${op}_${impl}.sql" "$DB" 2>/dev/null |
				sed -n 's/^tps = \([0-9.]*\) .*/\1/p')
			echo "$op,$impl,$rep,$tps,$(echo "$tps" | awk '{printf "%.1f", 1e6 / $1}')" >>"$OUT"
		done
	done
done

# medians and ratios
run -At <<SQL
CREATE TEMP TABLE r (op text, impl text, rep int, tps float8, latency_us float8);
\copy r FROM '$OUT' WITH (FORMAT csv, HEADER)
SELECT '| operation | hroe tps | SQL tps | hroe µs | SQL µs | hroe / SQL time |';
SELECT '|---|---:|---:|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s | %s | %s |', op,
	round(h::numeric), round(s::numeric), round(1e6 / h), round(1e6 / s), round((s / h)::numeric, 2))
FROM (SELECT op,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) FILTER (WHERE impl = 'hroe') AS h,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY tps) FILTER (WHERE impl = 'sql') AS s
	  FROM r GROUP BY op) m
ORDER BY op;
SQL
echo
echo "$CUSTOMERS customers x 10 items, pgbench -M prepared -c 1, ${REPS} x ${SECS} s each, alternating, medians; $(nproc) cores"
echo

# The same lookups inside the server: µs per call over LOOPS calls
PGOPTIONS="-c hroe_bench.loops=$LOOPS -c hroe_bench.reps=$REPS" run -At <<'SQL'
CREATE TEMP TABLE t (op text, impl text, us float8);
CREATE FUNCTION pg_temp.time_us(stmt text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE stmt USING n;
	RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END $$;
DO $outer$
DECLARE
	n int := current_setting('hroe_bench.loops')::int;
BEGIN
	FOR rep IN 1 .. current_setting('hroe_bench.reps')::int LOOP
		INSERT INTO t SELECT 'get', 'hroe', pg_temp.time_us($q$DO $d$ DECLARE x hroe.item; BEGIN FOR i IN 1 .. $q$ || n || $q$ LOOP
			x := hroe.get_item('bench', ('{"PK": {"S": "CUST#' || (i % 20000 + 1) || '"}, "SK": {"S": "ORDER#' || lpad((i % 10 + 1)::text, 4, '0') || '"}}')::jsonb); END LOOP; END $d$$q$, n);
		INSERT INTO t SELECT 'get', 'sql', pg_temp.time_us($q$DO $d$ DECLARE x jsonb; BEGIN FOR i IN 1 .. $q$ || n || $q$ LOOP
			SELECT doc INTO x FROM plain WHERE pk = 'CUST#' || (i % 20000 + 1) AND sk = 'ORDER#' || lpad((i % 10 + 1)::text, 4, '0'); END LOOP; END $d$$q$, n);
		INSERT INTO t SELECT 'query', 'hroe', pg_temp.time_us($q$DO $d$ DECLARE x int; BEGIN FOR i IN 1 .. $q$ || n || $q$ LOOP
			SELECT count(*) INTO x FROM hroe.query('bench', 'PK = :p AND begins_with(SK, :o)',
				('{":p": {"S": "CUST#' || (i % 20000 + 1) || '"}, ":o": {"S": "ORDER#"}}')::jsonb); END LOOP; END $d$$q$, n);
		INSERT INTO t SELECT 'query', 'sql', pg_temp.time_us($q$DO $d$ DECLARE x int; BEGIN FOR i IN 1 .. $q$ || n || $q$ LOOP
			SELECT count(*) INTO x FROM (SELECT doc FROM plain WHERE pk = 'CUST#' || (i % 20000 + 1) AND sk >= 'ORDER#' AND sk < 'ORDER$' ORDER BY sk) s; END LOOP; END $d$$q$, n);
	END LOOP;
END $outer$;
SELECT '| operation, in the server | hroe µs/call | SQL µs/call | hroe / SQL |';
SELECT '|---|---:|---:|---:|';
SELECT format('| %s | %s | %s | %s |', op, round(h::numeric, 1), round(s::numeric, 1), round((h / s)::numeric, 2))
FROM (SELECT op,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY us) FILTER (WHERE impl = 'hroe') AS h,
		percentile_cont(0.5) WITHIN GROUP (ORDER BY us) FILTER (WHERE impl = 'sql') AS s
	  FROM t GROUP BY op) m ORDER BY op;
SQL
echo
echo "plpgsql loops of $LOOPS calls (hroe's calls build their key/values jsonb from text, as a client sends them), ${REPS} runs, medians"
psql -X -q -d postgres -c "DROP DATABASE $DB"
