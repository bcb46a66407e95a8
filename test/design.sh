#!/usr/bin/env bash
# test/design.sh: a design, proven on its data (README "Designs",
# doc/design.md).
#
#   bash test/design.sh DESIGN.json [PATTERNS.json]
#   bash test/design.sh hroe               # HR/OE as a design: hroe_single, hroe_multi its variant
#                                          # (or hroe_single, hroe_multi alone)
#
# On a fresh Debian 12 machine as root: installs what is missing, builds and
# stages hroe, starts a throwaway cluster, loads the user's dump if
# HROE_DESIGN_DUMP names one (a plain SQL file), then makes the design's
# tables, loads its facets (its setup_sql first: the design's own sample
# data), runs every pattern on both sides (HROE_RUNS runs per call, default
# 5), prints the comparison as text and writes the page to HROE_REPORT
# (default design-NAME.html in the directory it is run from), whose path it
# prints last.  DESIGN.json may be a NoSQL Workbench model file: it is
# imported (hroe.design_import) and PATTERNS.json (a JSON object: patterns,
# mix, setup_sql, relational_schemas) merged in.  HROE_SCALE sets HR/OE's
# scale (default 1); HROE_REPORT_OPTIONS passes hroe.design_html's options.
# A failing call does not stop the run: it is on the page as a failed
# verdict, and the command exits non-zero at the end.
# Against an existing database instead of a throwaway cluster:
#   psql -d mydb -v design="$(cat DESIGN.json)" -v patterns='{}' -v runs=5 \
#        -v load=true -v report=page.html -v options='{}' -f test/design.sql
set -euo pipefail
start_dir=$PWD
[ $# -ge 1 ] || { echo "usage: bash test/design.sh DESIGN.json [PATTERNS.json] | hroe | hroe_single | hroe_multi" >&2; exit 2; }
design_arg=$1
patterns_arg=${2-}
cd "$(dirname "$0")/.."
. test/lib.sh

case $design_arg in
hroe | hroe_single | hroe_multi)
	design=$design_arg
	name=$design_arg
	;;
*)
	case $design_arg in /*) ;; *) design_arg=$start_dir/$design_arg ;; esac
	[ -r "$design_arg" ] || { echo "cannot read $design_arg" >&2; exit 2; }
	design=$(cat "$design_arg")
	name=$(basename "$design_arg" .json)
	;;
esac
patterns='{}'
if [ -n "$patterns_arg" ]; then
	case $patterns_arg in /*) ;; *) patterns_arg=$start_dir/$patterns_arg ;; esac
	patterns=$(cat "$patterns_arg")
fi
report=${HROE_REPORT:-$start_dir/design-$name.html}
case $report in /*) ;; *) report=$start_dir/$report ;; esac
dump=${HROE_DESIGN_DUMP-}
case $dump in /* | "") ;; *) dump=$start_dir/$dump ;; esac
options=${HROE_REPORT_OPTIONS-}
[ -n "$options" ] || options='{}'

ensure_packages
echo "hroe: building ($(date +%H:%M:%S))" >&2
build_stage
export design patterns report options dump
in_cluster bash -c '
	set -euo pipefail
	if [ -n "$dump" ]; then psql -X -q -v ON_ERROR_STOP=1 -f "$dump" >/dev/null; fi
	psql -X -v ON_ERROR_STOP=1 -v design="$design" -v patterns="$patterns" -v runs="${HROE_RUNS:-5}" \
		-v scale="${HROE_SCALE:-1}" -v load=true -v report="$report" -v options="$options" -f test/design.sql'
