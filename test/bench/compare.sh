#!/usr/bin/env bash
# test/bench/compare.sh: pgbench latency of every read pattern on every
# model present and of the floor, and of every write pattern, at the scales
# HROE_COMPARE_SCALES (default "1 10 100 1000").
#  - each pattern is called with the first argument set of
#    hroe.access_patterns (the busiest rep, customer, product...), as one
#    prepared statement (-M prepared), by 1 and by 2 clients, for
#    HROE_COMPARE_SECONDS (default 3) each;
#  - the floor (when hroe_single is installed): the single-table items copied
#    into a plain table of text COLLATE "C" keys and a jsonb document, with
#    hroe_single's indexes, and each lookup written by hand in plain SQL
#    (test/bench/compare_floor.sql); its answers are checked against
#    hroe_single's;  SELECT 1 gives the round trip;
#  - writes run as BEGIN; SELECT <write>; ROLLBACK, so the data stays put;
#  - buffers: shared buffers hit + read of one execution, from hroe.compare.
# Output: a Markdown table on stdout, test/bench/out/compare.csv, and the
# chart test/bench/out/compare.svg (gnuplot, when installed).
# Run with: HROE_PGPORT=5503 bash test/bench/run.sh compare
set -euo pipefail
scales=${HROE_COMPARE_SCALES:-1 10 100 1000}
secs=${HROE_COMPARE_SECONDS:-3}
dir=$(cd "$(dirname "$0")" && pwd)
out=$dir/out/compare.csv
mkdir -p "$dir/out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# HROE_COMPARE_REPORT_ONLY=1: only the table and chart, from the CSV of an earlier run
if [ -z "${HROE_COMPARE_REPORT_ONLY:-}" ]; then
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe"
	echo "scale,model,pattern,kind,clients,latency_ms,tps,buffers" >"$out"
else
	scales=
fi

# pgbench's average latency (ms) and tps of the script $1 with $2 clients
bench() {
	pgbench -n -M prepared -c "$2" -j "$2" -T "$secs" -f "$1" 2>/dev/null |
		awk '/latency average/ { l = $4 } /^tps/ { t = $3 } END { printf "%s,%.0f", l, t }'
}

for s in $scales; do
	t0=$(date +%s)
	psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "SELECT count(*) FROM hroe.load($s, 42)" >/dev/null
	psql -X -q -v ON_ERROR_STOP=1 -c "VACUUM ANALYZE" >/dev/null
	echo "scale $s: loaded in $(($(date +%s) - t0)) s" >&2
	# model, pattern, kind, call, buffers of one run (first argument set)
	# (reads through hroe.compare, for their buffers; writes from the catalogue,
	# as hroe.compare would copy the tables of each model for them)
	psql -X -q -A -t -F $'\t' -v ON_ERROR_STOP=1 -c "
		SELECT c.model, c.pattern, c.kind, 'SELECT * FROM ' || c.call || ';',
			   COALESCE(c.shared_hit, 0) + COALESCE(c.shared_read, 0)
		FROM hroe.compare(ARRAY(SELECT pattern FROM hroe.access_patterns WHERE kind = 'read'), NULL, 1) c
		WHERE c.case_label = (SELECT x.case_label FROM hroe.compare_args(c.pattern) x LIMIT 1)
		UNION ALL
		SELECT m, p.pattern, p.kind, 'BEGIN; SELECT ' || hroe.compare_call(m, p.pattern, a.args) || '; ROLLBACK;', NULL
		FROM hroe.access_patterns p
		CROSS JOIN LATERAL (SELECT x.args FROM hroe.compare_args(p.pattern) x LIMIT 1) a
		CROSS JOIN hroe.compare_models() m
		WHERE p.kind = 'write'" >"$tmp/calls.tsv"
	echo "SELECT 1;" >"$tmp/q.sql"
	for c in 1 2; do echo "$s,round trip,select_1,read,$c,$(bench "$tmp/q.sql" $c)," >>"$out"; done
	if psql -X -q -A -t -c "SELECT to_regnamespace('hroe_single') IS NOT NULL" | grep -q t; then
		psql -X -q -v ON_ERROR_STOP=1 -c "
			CREATE OR REPLACE FUNCTION bench_buffers(q text) RETURNS bigint LANGUAGE plpgsql AS \$f\$
			DECLARE j jsonb;
			BEGIN
				EXECUTE 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' || q INTO j;
				RETURN (j #>> '{0,Plan,Shared Hit Blocks}')::bigint + (j #>> '{0,Plan,Shared Read Blocks}')::bigint;
			END \$f\$"
		psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -f "$dir/compare_floor.sql" >/dev/null
		psql -X -q -A -t -F $'\t' -v ON_ERROR_STOP=1 -c "SELECT pattern, sql FROM floor_calls" >"$tmp/floor.tsv"
		while IFS=$'\t' read -r pattern sql; do
			same=$(psql -X -q -A -t -c "
				SELECT (SELECT md5(COALESCE(string_agg(r::text, E'\n' ORDER BY n), '')) FROM (SELECT r, row_number() OVER () AS n FROM ($sql) r) s)
					 = (SELECT c.fingerprint FROM hroe.compare(ARRAY['$pattern'], '{hroe_single}', 1) c
						WHERE c.case_label = (SELECT x.case_label FROM hroe.compare_args('$pattern') x LIMIT 1))")
			[ "$same" = t ] || echo "scale $s: the floor of $pattern answers differently from hroe_single" >&2
			buf=$(psql -X -q -A -t -v ON_ERROR_STOP=1 -c "SELECT bench_buffers(\$q\$$sql\$q\$)")
			echo "$sql;" >"$tmp/q.sql"
			for c in 1 2; do echo "$s,floor,$pattern,read,$c,$(bench "$tmp/q.sql" $c),$buf" >>"$out"; done
		done <"$tmp/floor.tsv"
	fi
	while IFS=$'\t' read -r model pattern kind sql buf; do
		echo "$sql" >"$tmp/q.sql"
		for c in 1 2; do echo "$s,$model,$pattern,$kind,$c,$(bench "$tmp/q.sql" $c),$buf" >>"$out"; done
	done <"$tmp/calls.tsv"
done

# Markdown: per scale and pattern, 1-client latency of each model and the floor
python3 - "$out" "$dir/out/compare.md" <<'PY'
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
lat = collections.defaultdict(dict)
buf = collections.defaultdict(dict)
order = []
for r in rows:
    k = (r['scale'], r['kind'], r['pattern'])
    if k not in lat: order.append(k)
    lat[k][(r['model'], r['clients'])] = r['latency_ms']
    buf[k][r['model']] = r['buffers']
models = [m for m in ('hroe_normalized', 'hroe_single', 'hroe_multi', 'floor', 'round trip') if any(r['model'] == m for r in rows)]
short = {'hroe_normalized': 'normalized', 'hroe_single': 'single', 'hroe_multi': 'multi', 'floor': 'floor', 'round trip': 'SELECT 1'}
head = '| scale | pattern | ' + ' | '.join(f'{short[m]} ms (1 / 2 clients)' for m in models) + ' | buffers ' + ' / '.join(short[m] for m in models if m != 'round trip') + (' | single ÷ floor |' if 'floor' in models else ' |')
lines = [head, '|' + '---:|---|' + '---:|' * (len(models) + 1 + ('floor' in models))]
for k in order:
    s, kind, p = k
    cells = []
    for m in models:
        a, b = lat[k].get((m, '1'), ''), lat[k].get((m, '2'), '')
        cells.append(f'{a} / {b}' if a else '')
    bufs = ' / '.join(buf[k].get(m, '') or '-' for m in models if m != 'round trip')
    ratio = ''
    if 'floor' in models and lat[k].get(('floor', '1')) and lat[k].get(('hroe_single', '1')):
        ratio = '%.2f' % (float(lat[k][('hroe_single', '1')]) / float(lat[k][('floor', '1')]))
    lines.append(f'| {s} | {p}{" (write)" if kind == "write" else ""} | ' + ' | '.join(cells) + f' | {bufs} |' + (f' {ratio} |' if 'floor' in models else ''))
open(sys.argv[2], 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
PY
echo
echo "pgbench -M prepared, -T ${HROE_COMPARE_SECONDS:-3} per cell; latency = pgbench's latency average, client side (includes the round trip: see SELECT 1)."
echo "buffers: shared buffers hit + read of one execution (EXPLAIN ANALYZE BUFFERS). Writes: BEGIN; write; ROLLBACK."

# Chart: 1-client latency of each read pattern per model at each scale
if command -v gnuplot >/dev/null; then
	python3 - "$out" "$tmp/chart.dat" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r['clients'] == '1' and r['kind'] == 'read' and r['pattern'] != 'select_1']
scales = sorted({r['scale'] for r in rows}, key=float)
models = [m for m in ('hroe_normalized', 'hroe_single', 'hroe_multi', 'floor') if any(r['model'] == m for r in rows)]
pats = []
for r in rows:
    if r['pattern'] not in pats: pats.append(r['pattern'])
v = {(r['scale'], r['model'], r['pattern']): r['latency_ms'] for r in rows}
with open(sys.argv[2], 'w') as f:
    f.write('pattern ' + ' '.join(f'{m.replace("hroe_", "")}@{s}' for s in scales for m in models) + '\n')
    for p in pats:
        f.write(p + ' ' + ' '.join(v.get((s, m, p), '?') or '?' for s in scales for m in models) + '\n')
PY
	ncols=$(head -1 "$tmp/chart.dat" | wc -w)
	gnuplot <<GP
set terminal svg size 1200,600 dynamic font "sans,10"
set termoption noenhanced
set output "$dir/out/compare.svg"
set title "hroe: read pattern latency, 1 client, pgbench -M prepared (ms, log scale)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set ylabel "ms"
set xtics rotate by -45 font ",8"
set key outside right top
set datafile missing "?"
plot for [i=2:$ncols] "$tmp/chart.dat" using i:xtic(1) title columnheader(i)
GP
	echo "chart: test/bench/out/compare.svg" >&2
fi
