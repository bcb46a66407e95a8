#!/usr/bin/env bash
# test/bench/shard.sh: hroe.sharded_query against the two ways of asking
# PostgreSQL for the same rows, on a write-sharded index of 1.2M items over
# 15 shards (run by test/bench/run.sh inside a throwaway cluster):
#   (a) one range scan of an unsharded index on the sort key (forced: a
#       serial index scan, whatever the planner would prefer)
#   (b) plain SQL: UNION ALL of the 15 shard queries, ORDER BY the sort key
#   (c) hroe.sharded_query (streaming k-way merge of 15 index scans)
# for a large result (~1/3 of the items) and for small limits (10, 1000),
# forward and backward. Each query runs through pgbench; the figure is the
# median latency over ROUNDS rounds that interleave the three ways. Then the
# same for (a) and (c) in the server: the executor's own time (EXPLAIN
# ANALYZE with TIMING OFF: no parse, plan or round trip). Then (c) serial
# against (c) with p_parallel_workers => 1 (one worker merges half the
# shards), both ways; and the planner's parallel plans of (a) and (b).
# Prints Markdown.
set -euo pipefail
ROWS=${HROE_BENCH_SHARD_ROWS:-1200000}
ROUNDS=${HROE_BENCH_ROUNDS:-5}
OUT=test/bench/out/shard
mkdir -p "$OUT"
rm -f "$OUT"/plans.txt
DB=hroe_bench_shard
PSQL=(psql -X -q -v ON_ERROR_STOP=1 -d "$DB")

psql -X -q -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
"${PSQL[@]}" <<SQL
CREATE EXTENSION hroe;
-- GSI2-like: sort key STATUS#DATE#ORDER (unique, so LIMIT answers are
-- well defined), ~150-byte items,
-- shard = hash of the order id into 0..14
CREATE TABLE orders (id bigint PRIMARY KEY, shard integer NOT NULL,
                     sk text COLLATE "C" NOT NULL, customer integer, payload text);
INSERT INTO orders
SELECT g, hroe.shard_of(g, 15),
       'OPEN#' || to_char(date '2024-01-01' + (g::bigint * 7919 % 730)::int, 'YYYY-MM-DD') || '#' || lpad(g::text, 8, '0'),
       g % 5000, md5(g::text) || md5((g + 1)::text) || md5((g + 2)::text)
FROM generate_series(1, $ROWS) g;
CREATE INDEX orders_sharded ON orders (shard, sk);
CREATE INDEX orders_plain ON orders (sk);
VACUUM ANALYZE orders;
SQL

# Query texts: $1 = condition on sk, $2 = ORDER direction, $3 = LIMIT clause,
# $4 = sharded_query arguments
union_all() {
	local cond=$1 dir=$2 lim=$3 i sql=""
	for i in $(seq 0 14); do
		[ -n "$sql" ] && sql+=" UNION ALL "
		sql+="SELECT * FROM orders WHERE shard = $i AND $cond"
	done
	echo "SELECT sum(id), count(*) FROM ($sql ORDER BY sk $dir $lim) s;"
}
write_queries() {
	local name=$1 cond=$2 dir=$3 lim=$4 fargs=$5
	echo "SELECT sum(id), count(*) FROM (SELECT * FROM orders WHERE $cond ORDER BY sk $dir $lim) s;" >"$OUT/$name.a.sql"
	union_all "$cond" "$dir" "$lim" >"$OUT/$name.b.sql"
	echo "SELECT sum((r).id), count(*) FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_sharded', 15, $fargs) r) s;" >"$OUT/$name.c.sql"
	echo "SELECT sum((r).id), count(*) FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_sharded', 15, $fargs, p_parallel_workers => 1) r) s;" >"$OUT/$name.p.sql"
	# untimed checks, order-sensitive: the ids in the order each way returns them
	local ordered="SELECT md5(string_agg(id::text, ',' ORDER BY n)), count(*) FROM (SELECT id, row_number() OVER () AS n FROM"
	echo "$ordered (SELECT id FROM orders WHERE $cond ORDER BY sk $dir $lim) x) s;" >"$OUT/$name.a.check.sql"
	union_all "$cond" "$dir" "$lim" | sed "s/^SELECT sum(id), count(\*) FROM (/$ordered (SELECT id FROM (/; s/) s;\$/) y) x) s;/" >"$OUT/$name.b.check.sql"
	echo "$ordered (SELECT (r).id FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_sharded', 15, $fargs) r) y) x) s;" >"$OUT/$name.c.check.sql"
	echo "$ordered (SELECT (r).id FROM (SELECT hroe.sharded_query(NULL::orders, 'orders_sharded', 15, $fargs, p_parallel_workers => 1) r) y) x) s;" >"$OUT/$name.p.check.sql"
}
LARGE="sk BETWEEN 'OPEN#2024-03-01' AND 'OPEN#2024-06-30'"
LARGEF="'between', 'OPEN#2024-03-01'::text, 'OPEN#2024-06-30'"
SMALL="sk >= 'OPEN#2024-05-01'"
SMALLF="'>=', 'OPEN#2024-05-01'::text"
write_queries large_fwd "$LARGE" ASC "" "$LARGEF"
write_queries large_bwd "$LARGE" DESC "" "$LARGEF, p_forward => false"
write_queries limit10_fwd "$SMALL" ASC "LIMIT 10" "$SMALLF, p_limit => 10"
write_queries limit10_bwd "$SMALL" DESC "LIMIT 10" "$SMALLF, p_forward => false, p_limit => 10"
write_queries limit1000_fwd "$SMALL" ASC "LIMIT 1000" "$SMALLF, p_limit => 1000"

# Same answers from the three ways (checked in order), and the plans
echo
echo "Load average before the timed runs: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Table: $ROWS items, 15 shards, $(psql -X -Atd "$DB" -c "SELECT pg_size_pretty(pg_table_size('orders'))"); indexes: sharded $(psql -X -Atd "$DB" -c "SELECT pg_size_pretty(pg_relation_size('orders_sharded'))"), unsharded $(psql -X -Atd "$DB" -c "SELECT pg_size_pretty(pg_relation_size('orders_plain'))")."
echo
echo "| query | (a) answer | (b) answer | (c) answer |"
echo "|---|---|---|---|"
for q in large_fwd large_bwd limit10_fwd limit10_bwd limit1000_fwd; do
	echo "| $q | $(psql -X -Atd "$DB" -f "$OUT/$q.a.sql") | $(psql -X -Atd "$DB" -f "$OUT/$q.b.sql") | $(psql -X -Atd "$DB" -f "$OUT/$q.c.sql") |"
	# the rows and their order must be the same three ways, or the timings mean nothing
	a=$(psql -X -Atd "$DB" -v ON_ERROR_STOP=1 -f "$OUT/$q.a.check.sql")
	b=$(psql -X -Atd "$DB" -v ON_ERROR_STOP=1 -f "$OUT/$q.b.check.sql")
	c=$(psql -X -Atd "$DB" -v ON_ERROR_STOP=1 -f "$OUT/$q.c.check.sql")
	p=$(psql -X -Atd "$DB" -v ON_ERROR_STOP=1 -f "$OUT/$q.p.check.sql")
	if [ "$a" != "$b" ] || [ "$a" != "$c" ] || [ "$a" != "$p" ]; then
		echo "$q: the ways return different rows or orders (md5|count of ids in order): (a) $a, (b) $b, (c) $c, (c) with a worker $p" >&2
		exit 1
	fi
done
echo
echo "Every query returns the same ids in the same order the three ways, and (c) with one parallel worker too (md5 of the ids in order)."
for q in large_fwd limit10_fwd; do
	for v in a b c; do
		{
			echo "-- $q ($v)"
			psql -X -Atd "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) $(cat "$OUT/$q.$v.sql")"
		} >>"$OUT/plans.txt"
	done
done

# median (ms, $2 decimals, default 2) of the latencies in us in file $1
median_ms() {
	sort -n "$1" | awk -v d="${2:-2}" '{a[NR]=$1} END {m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.*f", d, m / 1000}'
}
# (a) is one serial range scan of the unsharded index, whatever the planner prefers
A_OPTS="-c enable_seqscan=off -c enable_bitmapscan=off -c enable_sort=off -c max_parallel_workers_per_gather=0"
# run file $1 N=$2 times through pgbench with PGOPTIONS $4, appending per-run latencies (us) to $3
run_pgbench() {
	local pfx="$OUT/log.$$"
	rm -f "$pfx".*
	PGOPTIONS="${4:-}" pgbench -n -d "$DB" -f "$1" -t "$2" -l --log-prefix="$pfx" >/dev/null 2>&1
	# field 3 is the latency in us; pgbench 15 sometimes logs 0 for a transaction
	# that took as long as the others (its timestamps show it): not a measurement
	awk '$3 > 0 {print $3}' "$pfx".* >>"$3"
	rm -f "$pfx".*
}
{
	echo "-- large_fwd (a), forced: $A_OPTS"
	PGOPTIONS="$A_OPTS" psql -X -Atd "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) $(cat "$OUT/large_fwd.a.sql")"
	echo "-- limit10_fwd (a), forced: $A_OPTS"
	PGOPTIONS="$A_OPTS" psql -X -Atd "$DB" -c "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, COSTS OFF) $(cat "$OUT/limit10_fwd.a.sql")"
} >>"$OUT/plans.txt"

echo
echo "Median latency in ms (pgbench, one client, including parse, plan and round trip) over $ROUNDS rounds that interleave the three ways; large results: one run per round; limits: 50 runs per round for (a) and (c), 3 for (b). (a) is forced to a serial index scan; (b) is the planner's choice."
echo
echo "| query | rows | (a) unsharded range scan | (b) UNION ALL ... ORDER BY | (c) hroe.sharded_query | (c)/(a) | (c)/(b) |"
echo "|---|---|---|---|---|---|---|"
for q in large_fwd large_bwd limit10_fwd limit10_bwd limit1000_fwd; do
	case $q in large*) n=1; nb=1 ;; *) n=50; nb=3 ;; esac
	rm -f "$OUT/$q".*.lat
	for v in a b c; do psql -X -Atd "$DB" -f "$OUT/$q.$v.sql" >/dev/null; done	# warm
	for r in $(seq "$ROUNDS"); do
		run_pgbench "$OUT/$q.a.sql" "$n" "$OUT/$q.a.lat" "$A_OPTS"
		run_pgbench "$OUT/$q.b.sql" "$nb" "$OUT/$q.b.lat"
		run_pgbench "$OUT/$q.c.sql" "$n" "$OUT/$q.c.lat"
	done
	rows=$(psql -X -Atd "$DB" -f "$OUT/$q.c.sql" | cut -d'|' -f2)
	ma=$(median_ms "$OUT/$q.a.lat" 3); mb=$(median_ms "$OUT/$q.b.lat" 3); mc=$(median_ms "$OUT/$q.c.lat" 3)
	echo "| $q | $rows | $ma | $mb | $mc | $(awk "BEGIN {printf \"%.2f\", $mc / $ma}") | $(awk "BEGIN {printf \"%.2f\", $mc / $mb}") |"
done

# In the server: the executor's time of (a) and (c), without parse, plan,
# protocol and client (EXPLAIN ANALYZE, TIMING OFF: no per-node clock reads)
"${PSQL[@]}" <<'SQL'
CREATE FUNCTION exec_us(p_query text, p_runs integer) RETURNS SETOF float8
LANGUAGE plpgsql AS $f$
DECLARE
	l text;
BEGIN
	FOR i IN 1..p_runs LOOP
		FOR l IN EXECUTE 'EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) ' || rtrim(p_query, E'; \n') LOOP
			IF l LIKE 'Execution Time:%' THEN
				RETURN NEXT substring(l FROM '([0-9.]+) ms')::float8 * 1000;
			END IF;
		END LOOP;
	END LOOP;
END
$f$;
SQL
# run query file $1 N=$2 times in the server with PGOPTIONS $4, appending executor times (us) to $3
run_exec() {
	echo "SELECT exec_us(:'q', $2);" | PGOPTIONS="${4:-}" psql -X -Atd "$DB" -v q="$(cat "$1")" >>"$3"
}
echo
echo "Executor time in ms in the server (EXPLAIN ANALYZE, TIMING OFF: no parse, plan or round trip), median over $ROUNDS rounds interleaving (a) and (c); runs per round as above."
echo
echo "| query | (a) unsharded range scan | (c) hroe.sharded_query | (c)/(a) |"
echo "|---|---|---|---|"
for q in large_fwd large_bwd limit10_fwd limit10_bwd limit1000_fwd; do
	case $q in large*) n=1 ;; *) n=50 ;; esac
	rm -f "$OUT/$q".*.exec
	for r in $(seq "$ROUNDS"); do
		run_exec "$OUT/$q.a.sql" "$n" "$OUT/$q.a.exec" "$A_OPTS"
		run_exec "$OUT/$q.c.sql" "$n" "$OUT/$q.c.exec"
	done
	ma=$(median_ms "$OUT/$q.a.exec" 3); mc=$(median_ms "$OUT/$q.c.exec" 3)
	echo "| $q | $ma | $mc | $(awk "BEGIN {printf \"%.2f\", $mc / $ma}") |"
done

# hroe.sharded_query's parallel option: serial against one worker
echo
echo "hroe.sharded_query serial against p_parallel_workers => 1 ($(nproc) cores; the worker merges 7 shards, the leader 8 and the worker's stream; the call materializes its rows): median ms over $ROUNDS rounds interleaving the two, runs per round as above; through pgbench, and the executor's time in the server."
echo
echo "| query | serial, pgbench | 1 worker, pgbench | ratio | serial, in server | 1 worker, in server | ratio |"
echo "|---|---|---|---|---|---|---|"
for q in large_fwd large_bwd limit10_fwd limit10_bwd limit1000_fwd; do
	case $q in large*) n=1 ;; *) n=50 ;; esac
	rm -f "$OUT/$q".[cp].plat "$OUT/$q".[cp].pexec
	for r in $(seq "$ROUNDS"); do
		run_pgbench "$OUT/$q.c.sql" "$n" "$OUT/$q.c.plat"
		run_pgbench "$OUT/$q.p.sql" "$n" "$OUT/$q.p.plat"
		run_exec "$OUT/$q.c.sql" "$n" "$OUT/$q.c.pexec"
		run_exec "$OUT/$q.p.sql" "$n" "$OUT/$q.p.pexec"
	done
	sc=$(median_ms "$OUT/$q.c.plat" 3); sp=$(median_ms "$OUT/$q.p.plat" 3)
	ec=$(median_ms "$OUT/$q.c.pexec" 3); ep=$(median_ms "$OUT/$q.p.pexec" 3)
	echo "| $q | $sc | $sp | $(awk "BEGIN {printf \"%.2f\", $sp / $sc}") | $ec | $ep | $(awk "BEGIN {printf \"%.2f\", $ep / $ec}") |"
done

# The planner's parallelism for (a) and (b): the large query
echo
echo "The planner's parallel plans ($(nproc) cores): the large forward query, median ms over $ROUNDS runs; the planner's own plan with max_parallel_workers_per_gather = 0 and = 2 ((c) does not depend on it; for reference)."
echo
echo "| way | 0 workers | 2 workers |"
echo "|---|---|---|"
for v in a b c; do
	rm -f "$OUT/par.$v".*.lat
	for r in $(seq "$ROUNDS"); do
		run_pgbench "$OUT/large_fwd.$v.sql" 1 "$OUT/par.$v.0.lat" "-c max_parallel_workers_per_gather=0"
		run_pgbench "$OUT/large_fwd.$v.sql" 1 "$OUT/par.$v.2.lat" "-c max_parallel_workers_per_gather=2"
	done
	echo "| ($v) | $(median_ms "$OUT/par.$v.0.lat") | $(median_ms "$OUT/par.$v.2.lat") |"
done
{
	for v in a b; do
		for w in 0 2; do
			echo "-- large_fwd ($v), planner's choice, max_parallel_workers_per_gather=$w"
			PGOPTIONS="-c max_parallel_workers_per_gather=$w" \
				psql -X -Atd "$DB" -c "EXPLAIN (ANALYZE, TIMING OFF, COSTS OFF) $(cat "$OUT/large_fwd.$v.sql")"
		done
	done
} >>"$OUT/plans.txt"
echo
echo "Load average after the timed runs: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "Plans (EXPLAIN ANALYZE, BUFFERS) of each way: test/bench/out/shard/plans.txt"
psql -X -q -c "DROP DATABASE $DB"
