#!/usr/bin/env bash
# test/main.sh: the README's main command.
#
# On a fresh Debian 12 machine as root: installs what is missing, builds and
# stages hroe, starts a throwaway cluster and runs the main job, then drops
# the cluster. The main job (test/main.sql): hroe.load at scale HROE_SCALE
# (default 1), then HR/OE as one design document (hroe_normalized against
# hroe_single, hroe_multi its variant) run by hroe.design_run over every
# pattern and model, with HROE_RUNS runs per call (default 5), printed as
# text and written as the design's page (hroe.design_html) to HROE_REPORT
# (default hroe-report.html in the directory it is run from), whose path it
# prints. The benchmark's CSV (HROE_BENCH_CSV, default
# test/bench/out/compare.csv when present) adds its growth curves to the
# page; HROE_REPORT_OPTIONS, a JSON object, passes hroe.design_html's
# options (the request mix, prices: see doc/report.md). A failing call does
# not stop the run: the page shows it as a failed verdict and the command
# exits non-zero at the end. HROE_GROWTH_CSV, a file: its curves (earlier
# runs' points) are drawn too, and this run's own point (per pattern and
# model, the median latency of its busiest argument set) is added to
# the page and appended to the file: run it at scale 1, 10, 100... to draw
# the main job's own growth curves (doc/report.md).
set -euo pipefail
start_dir=$PWD
cd "$(dirname "$0")/.."
. test/lib.sh

report=${HROE_REPORT:-$start_dir/hroe-report.html}
case $report in /*) ;; *) report=$start_dir/$report ;; esac
bench_csv=${HROE_BENCH_CSV-}
if [ -z "${HROE_BENCH_CSV+set}" ] && [ -f test/bench/out/compare.csv ]; then
	bench_csv=$PWD/test/bench/out/compare.csv
fi
case $bench_csv in /* | "") ;; *) bench_csv=$start_dir/$bench_csv ;; esac

options=${HROE_REPORT_OPTIONS-}
[ -n "$options" ] || options='{}'

growth_csv=${HROE_GROWTH_CSV-}
case $growth_csv in /* | "") ;; *) growth_csv=$start_dir/$growth_csv ;; esac
growth_vars=()
if [ -n "$growth_csv" ]; then
	growth_tmp=$(mktemp /tmp/hroe-growth.XXXXXX)
	growth_vars=(-v growth_csv="$growth_tmp")
fi
# the curves, read by psql in the page's phase: the benchmark's CSV and the
# earlier runs' points, one header. They are read when that phase begins
# (main.sql creates the file $phase3 then), not when the run starts, so that
# the points of runs that ended meanwhile (a scale 1000 run beside a long
# scale 3000 one, say) are on the page; if psql ends first, so does the wait.
marker_dir=$(mktemp -d /tmp/hroe-main.XXXXXX)
phase3=$marker_dir/phase3
curves() {
	while [ ! -e "$phase3" ]; do
		kill -0 $$ 2>/dev/null || return 0
		sleep 1
	done
	[ -z "$bench_csv" ] || cat "$bench_csv"
	[ -z "$growth_csv" ] || [ ! -s "$growth_csv" ] ||
		if [ -n "$bench_csv" ]; then tail -n +2 "$growth_csv"; else cat "$growth_csv"; fi
}

ensure_packages
echo "hroe: building ($(date +%H:%M:%S))" >&2
build_stage
rc=0
in_cluster psql -X -v ON_ERROR_STOP=1 -v scale="${HROE_SCALE:-1}" -v runs="${HROE_RUNS:-5}" \
	-v report="$report" -v options="$options" -v phase3="$phase3" "${growth_vars[@]}" -f test/main.sql < <(curves) || rc=$?
rm -rf "$marker_dir"
if [ -n "$growth_csv" ] && [ -s "$growth_tmp" ]; then
	if [ -s "$growth_csv" ]; then tail -n +2 "$growth_tmp" >>"$growth_csv"; else cat "$growth_tmp" >"$growth_csv"; fi
	echo "hroe: this run's point of the growth curves appended to $growth_csv" >&2
fi
[ -z "$growth_csv" ] || rm -f "$growth_tmp"
exit "$rc"
