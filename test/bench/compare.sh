#!/usr/bin/env bash
# test/bench/compare.sh: pgbench latency of every read pattern on every model
# present and of the floor, and of every write pattern, at the scales
# HROE_COMPARE_SCALES (default "1 10 100 1000").
#  - arguments (test/bench/compare_sweep_args.sql): "busiest", the first
#    argument set of hroe.access_patterns (the busiest rep, customer,
#    product...: the worst case, whose answer grows with the data), and
#    "constant", chosen per scale so that the answer keeps the same size as
#    far as the data allows (the growth goal); writes: their first set;
#  - every call is one prepared statement (-M prepared), run by 1 client
#    (busiest, constant, writes) and 2 clients (busiest, writes), in
#    HROE_COMPARE_ROUNDS rounds (default 5) of about HROE_COMPARE_SECONDS
#    (default 1, may be fractional) / rounds each: pgbench -t, the transactions sized from one
#    warm execution; the rounds of a pattern's cells (floor and models)
#    interleave, in a rotating order, so that their ratios come from the
#    same seconds of the same run; the figure is the median of the rounds'
#    latencies (pgbench's latency of a run: its duration per transaction),
#    with the lowest and highest round beside it for the machine's noise
#    (pgbench 15's per-transaction log, -l, is no use here: it logs a
#    latency of 0 us for up to half of sub-0.1 ms transactions);
#  - the floor (when hroe_single is installed): the single-table items copied
#    into a plain table of text COLLATE "C" keys and a jsonb document, with
#    hroe_single's indexes, each lookup written by hand in plain SQL
#    (test/bench/compare_floor.sql); its answer is checked against
#    hroe_single's for every argument set; SELECT 1 gives the round trip;
#  - writes run as BEGIN; SELECT <write>; ROLLBACK, so the data stays put;
#  - rows and buffers (shared hit + read) of one warm execution
#    (test/bench/compare_cells.sql).
# Output: Markdown tables on stdout (test/bench/out/compare.md),
# test/bench/out/compare.csv, and the charts doc/compare.svg (latency per
# pattern and model) and doc/compare_growth.svg (latency against scale),
# drawn by gnuplot (installed on demand as root: gnuplot-nox). Elapsed time
# per scale goes to stderr.
# Run with: HROE_PGPORT=5503 bash test/bench/run.sh compare
# HROE_COMPARE_REPORT_ONLY=1: only the tables and charts, from the CSV of an
# earlier run.
set -euo pipefail
scales=${HROE_COMPARE_SCALES:-1 10 100 1000}
secs=${HROE_COMPARE_SECONDS:-1}
rounds=${HROE_COMPARE_ROUNDS:-5}
dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$dir/../.." && pwd)
out=$dir/out/compare.csv
mkdir -p "$dir/out" "$root/doc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
started=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
date_start=$(date -u +%Y-%m-%dT%H:%MZ)

# gnuplot for the charts, installed on demand (Debian 12: gnuplot-nox)
if ! command -v gnuplot >/dev/null; then
	if [ "$(id -u)" -eq 0 ]; then
		echo "compare: installing gnuplot-nox" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -qq --no-install-recommends gnuplot-nox >&2 ||
			{ apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends gnuplot-nox >&2; } ||
			echo "compare: gnuplot-nox could not be installed: no charts" >&2
	else
		echo "compare: gnuplot is missing (run as root to install gnuplot-nox): no charts" >&2
	fi
fi

# CSV field, quoted
q() { local s=${1//\"/\"\"}; printf '"%s"' "$s"; }

# pgbench: output prefix $1, clients $2, transactions per client $3, script
# $4; keeps its "latency average" (from the run's duration: per transaction,
# per client), transactions and tps in $1.lat
run_pgbench() {
	if ! pgbench -n -M prepared -c "$2" -j "$2" -t "$3" -f "$4" >"$1.out" 2>&1; then
		echo "compare: pgbench failed on $(cat "$4"):" >&2
		tail -3 "$1.out" >&2
	fi
	awk '/^latency average/ { l = $4 } /^number of transactions actually processed/ { split($6, a, "/"); n = a[1] }
		/^tps/ { t = $3 } END { if (l != "") printf "%s %s %.0f\n", l, n, t }' "$1.out" >"$1.lat"
}

# "median_ms,min_ms,max_ms,rounds,transactions,tps" of cell $1 over its
# rounds ($1_r*.lat): the median, lowest and highest of the rounds' latencies
cell_stats() {
	cat "$1"_r*.lat 2>/dev/null | sort -g | awk '{ v[NR] = $1; n += $2; t += $3 }
		END {
			if (NR == 0) { printf ",,,0,0,"; exit }
			m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.3f,%.3f,%.3f,%d,%d,%.0f", m, v[1], v[NR], NR, n, t / NR
		}'
}

if [ -z "${HROE_COMPARE_REPORT_ONLY:-}" ]; then
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE"
	echo "scale,pattern_no,pattern,kind,args_set,label,args,model,clients,rows,median_ms,min_ms,max_ms,rounds,transactions,tps,buffers,same_as_single" >"$out"
	floor=$(psql -X -q -A -t -c "SELECT to_regnamespace('hroe_single') IS NOT NULL")
	for s in $scales; do
		t0=$(date +%s)
		psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "SELECT count(*) FROM hroe.load($s, 42)" >/dev/null
		psql -X -q -v ON_ERROR_STOP=1 -c "VACUUM ANALYZE" >/dev/null
		t1=$(date +%s)
		psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -f "$dir/compare_sweep_args.sql" >/dev/null
		if [ "$floor" = t ]; then
			psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -f "$dir/compare_floor.sql" >/dev/null
		else
			psql -X -q -v ON_ERROR_STOP=1 -c "DROP TABLE IF EXISTS floor_calls" -c "CREATE TABLE floor_calls (pattern text, args_set text, sql text)"
		fi
		psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -f "$dir/compare_cells.sql" >/dev/null
		psql -X -q -A -t -v ON_ERROR_STOP=1 -c "
			SELECT format('scale %s: the floor of %s (%s) answers differently from hroe_single', $s, f.pattern, f.args_set)
			FROM bench_cells f JOIN bench_cells s ON s.pattern = f.pattern AND s.args_set = f.args_set AND s.model = 'hroe_single'
			WHERE f.model = 'floor' AND f.fingerprint IS DISTINCT FROM s.fingerprint" >&2
		t2=$(date +%s)
		rm -rf "$tmp/logs" && mkdir "$tmp/logs"
		echo "SELECT 1;" >"$tmp/q.sql"
		for c in 1 2; do
			for r in $(seq "$rounds"); do
				run_pgbench "$tmp/logs/s1_${c}_r$r" $c "$(awk -v s="$secs" -v r="$rounds" 'BEGIN { printf "%d", s * 5000 / r + 1 }')" "$tmp/q.sql"
			done
			echo "$s,0,select_1,read,round trip,$(q 'SELECT 1'),,round trip,$c,1,$(cell_stats "$tmp/logs/s1_$c"),," >>"$out"
		done
		# the runs: per pattern and argument set, 1 client then 2, the rounds
		# of the floor and the models interleaved in a rotating order; each
		# run about secs / rounds, sized from the fastest execution time (x1.5
		# + 0.05 ms for the round trip): each run is a new connection whose
		# first call pays cold caches, so a run must be long enough to hide it
		psql -X -q -A -t -F $'\x1f' -v ON_ERROR_STOP=1 -c "
			SELECT c.cell_id, k.clients, r.round,
				   greatest(1, least(50000, ceil($secs * 1000.0 / $rounds / (1.5 * COALESCE(c.est_ms, 1) + 0.05))))::bigint,
				   c.sql
			FROM bench_cells c
			CROSS JOIN LATERAL (SELECT 1 AS clients UNION ALL SELECT 2 WHERE c.args_set <> 'constant') k
			CROSS JOIN generate_series(1, $rounds) r (round)
			ORDER BY c.pattern_no, c.args_set, k.clients, r.round, (c.model_no + r.round) % 4" >"$tmp/runs"
		while IFS=$'\x1f' read -r id clients round ntx sql; do
			echo "$sql" >"$tmp/q.sql"
			run_pgbench "$tmp/logs/c${id}_${clients}_r$round" "$clients" "$ntx" "$tmp/q.sql"
		done <"$tmp/runs"
		psql -X -q -A -t -F $'\x1f' -v ON_ERROR_STOP=1 -c "
			SELECT c.cell_id, k.clients, c.pattern_no, c.pattern, c.kind, c.args_set, c.label, c.args::text, c.model,
				   COALESCE(c.result_rows::text, ''), COALESCE(c.buffers::text, ''),
				   CASE WHEN c.model = 'floor' THEN (c.fingerprint IS NOT DISTINCT FROM s.fingerprint)::text ELSE '' END
			FROM bench_cells c
			LEFT JOIN bench_cells s ON s.pattern = c.pattern AND s.args_set = c.args_set AND s.model = 'hroe_single'
			CROSS JOIN LATERAL (SELECT 1 AS clients UNION ALL SELECT 2 WHERE c.args_set <> 'constant') k
			ORDER BY c.pattern_no, c.args_set, k.clients, c.model_no" >"$tmp/cells"
		while IFS=$'\x1f' read -r id clients no pattern kind set label args model nrows buf same; do
			echo "$s,$no,$pattern,$kind,$set,$(q "$label"),$(q "$args"),$model,$clients,$nrows,$(cell_stats "$tmp/logs/c${id}_$clients"),$buf,$same" >>"$out"
		done <"$tmp/cells"
		t3=$(date +%s)
		echo "scale $s: load $((t1 - t0)) s, arguments + floor + checks $((t2 - t1)) s, pgbench $((t3 - t2)) s ($(($(wc -l <"$tmp/cells") + 2)) cells, $(($(wc -l <"$tmp/runs") + 2 * rounds)) runs); $((t3 - t0)) s for the scale, $((t3 - started)) s so far" >&2
	done
fi

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit with uncommitted changes"
csv_scales=$(tail -n +2 "$out" | cut -d, -f1 | sort -nu | tr '\n' ' ')
echo "scales ${csv_scales% }${HROE_COMPARE_REPORT_ONLY:+ (report only)}${HROE_COMPARE_REPORT_ONLY:-, pgbench ~$secs s per cell in $rounds rounds}, $(nproc) cores, $date_start, commit $commit" >"$tmp/run_info"
echo "$dir/out/compare.svg" >"$tmp/svg_main"
echo "$dir/out/compare_growth.svg" >"$tmp/svg_growth"
python3 "$dir/compare_report.py" "$out" "$dir/out/compare.md" "$tmp"
if command -v gnuplot >/dev/null; then
	gnuplot "$tmp/compare.gp" 2>/dev/null && gnuplot "$tmp/compare_growth.gp" 2>/dev/null &&
		cp "$dir/out/compare.svg" "$dir/out/compare_growth.svg" "$root/doc/" &&
		echo "charts: doc/compare.svg, doc/compare_growth.svg (copies of test/bench/out/)" >&2
fi
echo
if [ -n "${HROE_COMPARE_REPORT_ONLY:-}" ]; then
	echo "Report of test/bench/out/compare.csv (scales ${csv_scales% }), redrawn $date_start; commit $commit."
else
	echo "Command: \`HROE_COMPARE_SCALES=\"$(echo $scales)\" HROE_COMPARE_SECONDS=$secs HROE_COMPARE_ROUNDS=$rounds bash test/bench/run.sh compare\`; $date_start, $(($(date +%s) - started)) s; $(nproc) cores; load average $load_start at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; commit $commit."
fi
