#!/usr/bin/env bash
# test/bench/write_capture.sh: the write phase of the main job (hroe.design_run
# over HR/OE's write patterns, hroe_single against hroe_multi, HROE_RUNS runs
# per call, default 5) at scale HROE_WRITE_CAPTURE_SCALE (default 100), timed
# with the write capacity measured two ways in one cluster, alternating
# (before, after, before, after): before, as the revision HROE_OLD_REV did it
# (default: the one before hroe.compare_capture), a copy of every table of
# the model before each write call and a full comparison after it; after,
# as the working tree does it (the changed items recorded by hroe.compare_capture's
# statement triggers). Prints the seconds of each round and whether the two
# ways give the same items and WCU for every call. Run with:
#   HROE_PGPORT=5914 bash test/bench/run.sh write_capture
set -euo pipefail
cd "$(dirname "$0")/../.."
scale=${HROE_WRITE_CAPTURE_SCALE:-100}
runs=${HROE_RUNS:-5}
old_rev=${HROE_OLD_REV:-$(git log -1 --format=%H --grep='hroe.compare_capture' -- models/compare.sql)^}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the functions NAME... of a models/*.sql text on stdin, as CREATE OR REPLACE
extract() {
	python3 -c '
import sys
s = sys.stdin.read()
for name in sys.argv[1:]:
    a = s.index("CREATE FUNCTION hroe.%s(" % name)
    c = s.index("COMMENT ON FUNCTION hroe.%s(" % name, a)
    e = s.index("'"'"';\n", c) + 3
    sys.stdout.write(s[a:e].replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1) + "\n")
' "$@"
}
{
	git show "$old_rev:models/compare.sql" | extract compare_drop_snapshot compare_snapshot compare_write_capacity
	git show "$old_rev:models/design.sql" | extract design_run
} >"$work/before.sql"
{
	extract compare_capture_changes compare_capture_guard compare_capture compare_write_capacity <models/compare.sql
	extract design_run <models/design.sql
} >"$work/after.sql"

psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE"
psql -X -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" -c "SELECT count(*) FROM hroe.load($scale, 42)" >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE TABLE write_capture_rows (way text, round integer, seconds numeric, rows jsonb)"
for round in 1 2; do
	for way in before after; do
		psql -X -q -v ON_ERROR_STOP=1 -f "$work/$way.sql"
		psql -X -q -v ON_ERROR_STOP=1 -v way="$way" -v round="$round" -v runs="$runs" <<'SQL'
SET client_min_messages = warning;
CREATE TEMP TABLE d AS
SELECT hroe.design_hroe('hroe_single') || jsonb_build_object('name', 'hroe', 'variants', jsonb_build_array(hroe.design_hroe('hroe_multi'))) AS doc;
SELECT clock_timestamp() AS t0 \gset
CREATE TEMP TABLE r AS
SELECT w.* FROM d, hroe.design_run(d.doc, :runs, false,
	ARRAY(SELECT p ->> 'name' FROM jsonb_array_elements(d.doc -> 'patterns') p WHERE p ->> 'kind' = 'write')) w;
INSERT INTO write_capture_rows
SELECT :'way', :round, round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz)::numeric, 1),
	   jsonb_agg(jsonb_build_object('pattern', pattern, 'case', case_label, 'model', model, 'items', items,
									'capacity', capacity, 'index_capacity', index_capacity, 'error', error)
			 ORDER BY pattern_no, case_label, model)
FROM r;
SQL
	done
done
echo
echo "write phase (hroe.design_run, write patterns, $runs runs per call) at scale $scale, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
psql -X -q -A -F ' | ' -v ON_ERROR_STOP=1 <<'SQL'
\pset tuples_only on
SELECT '| way | round | seconds | same items and WCU as before |' AS h UNION ALL SELECT '|---|---|---|---|';
SELECT '| ' || w.way, w.round, w.seconds,
	   (w.rows = (SELECT b.rows FROM write_capture_rows b WHERE b.way = 'before' AND b.round = 1)) || ' |'
FROM write_capture_rows w ORDER BY w.round, w.way DESC;
SELECT format('calls: %s, with an error: %s', jsonb_array_length(rows),
			  (SELECT count(*) FROM jsonb_array_elements(rows) x WHERE x ->> 'error' IS NOT NULL))
FROM write_capture_rows WHERE way = 'after' AND round = 1;
SQL
