#!/usr/bin/env bash
# test/t_main_browser.sh: the main job's page (the design page of HR/OE) in
# a real browser.
#  1. the main job's SQL (test/main.sql, scale 1, one run per call, a small
#     benchmark CSV of two scales on its standard input) runs HR/OE as one
#     design (hroe_normalized, hroe_single, hroe_multi its variant) through
#     hroe.design_run and writes the page; headless Chromium (Debian's
#     chromium) loads it and dumps the DOM it renders (test/design_dom.py
#     reads it): every access pattern of hroe.access_patterns has its
#     summary row, identical; every call of the run (all 123, every pattern
#     on each of the three models) its row, equal to the run's rows embedded
#     in the page and to the text report of the same run (model, rows,
#     median ms, buffers); the charts are drawn and the two growth curves;
#     each DynamoDB design has its bill (the given mix: 4 requests a second
#     of open_orders, its first parameter set 7.5 RCU in hroe_single and 2.5
#     in hroe_multi) and its tables and indexes with grids; no script error
#     reached the console, and a click on a header sorts its column; a page
#     with a deliberate script error is caught, so that the check can fail;
#  2. a failing pattern: the same job with one pattern broken (its
#     relational query refers to a missing table) still writes the page,
#     with every other pattern identical and the broken one a failed verdict
#     in the summary and the failures list, and psql exits non-zero;
#  3. progress: the main job names each phase as it starts; at scale 10
#     hroe.load reports its phases (rows, seconds) and hroe.design_run each
#     pattern done, as NOTICEs.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
scratch_db hroe_t_main hroe_hr
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium is not installed (apt-get install chromium)"; exit 1; }

# headless Chromium, a fresh profile, no network: dump the DOM of $1 into $2
# and the console into $2.log
browse() {
	local profile
	profile=$(mktemp -d "$work/profile.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --virtual-time-budget=5000 \
		--dump-dom "file://$1" >"$2" 2>"$2.log"
	rm -rf "$profile"
	[ -s "$2" ] || { echo "chromium rendered nothing for $1:"; tail -5 "$2.log"; exit 1; }
}
# console errors: uncaught exceptions and console.error in the page
script_errors() { grep -E 'CONSOLE.*(Uncaught|Error)|Uncaught ' "$1" || true; }

# the control: a page whose script fails must be caught
printf '<!DOCTYPE html><html><body><p>x</p><script>undefined_function_of_the_control();</script></body></html>' >"$work/bad.html"
browse "$work/bad.html" "$work/bad.dom"
[ -n "$(script_errors "$work/bad.dom.log")" ] || { echo "a script error went unnoticed: the console check is blind"; exit 1; }

# 1. the main job's page
dropdb "$db" && createdb "$db"
cat >"$work/bench.csv" <<'EOF'
scale,pattern_no,pattern,kind,args_set,label,args,model,clients,rows,median_ms,min_ms,max_ms,rounds,transactions,tps,buffers,same_as_single
1,1,employee_by_id,read,busiest,busiest rep,"{101}",hroe_normalized,1,1,0.179,0.173,0.194,5,100,5000,12,t
1,1,employee_by_id,read,busiest,busiest rep,"{101}",hroe_single,1,1,0.126,0.118,0.140,5,100,5000,3,t
10,1,employee_by_id,read,busiest,busiest rep,"{101}",hroe_normalized,1,1,0.149,0.121,0.176,5,100,5000,10,t
10,1,employee_by_id,read,busiest,busiest rep,"{101}",hroe_single,1,1,0.141,0.118,0.144,5,100,5000,4,t
1,4,customer_orders,read,busiest,"busiest customer, all dates","{1,2020-01-01}",hroe_multi,1,30,0.265,0.195,0.283,5,100,5000,27,t
10,4,customer_orders,read,busiest,"busiest customer, all dates","{1,2020-01-01}",hroe_multi,1,270,0.993,0.870,1.184,5,100,5000,242,t
1,4,customer_orders,read,busiest,"busiest customer, all dates","{1,2020-01-01}",floor,1,30,0.253,0.234,0.375,5,100,5000,31,t
EOF
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -v scale=1 -v runs=1 -v report="$work/report.html" \
	-v options='{"mix": {"open_orders": 4}}' \
	-f test/main.sql <"$work/bench.csv" >"$work/main.out" 2>"$work/main.err" ||
	{ echo "test/main.sql failed:"; tail -20 "$work/main.err"; exit 1; }
grep -q "hroe: the design's page: $work/report.html" "$work/main.out" || { echo "main.sql did not name the page"; exit 1; }
for phase in "phase 1/3, load at scale 1" "phase 2/3, every pattern on every model, 1 run(s) per call" "phase 3/3, the design's page"; do
	grep -q "^hroe: $phase (" "$work/main.out" || { echo "main.sql did not announce: $phase"; exit 1; }
done
browse "$work/report.html" "$work/report.dom"
errors=$(script_errors "$work/report.dom.log")
[ -z "$errors" ] || { echo "script errors in the page:"; echo "$errors"; exit 1; }
python3 test/design_dom.py "$work/report.dom" >"$work/report.facts"
echo "the page: $(wc -c <"$work/report.html") bytes, $(grep -c '^call ' "$work/report.facts") calls, $(grep '^grid ' "$work/report.facts")"

# every pattern in the summary, identical
for p in $(q "SELECT pattern FROM hroe.access_patterns ORDER BY pattern_no"); do
	grep -qx "summary $p | identical" "$work/report.facts" || { echo "pattern $p not identical in the summary:"; grep "^summary $p " "$work/report.facts"; exit 1; }
done
[ "$(grep -c '^summary ' "$work/report.facts")" -eq "$(q "SELECT count(*) FROM hroe.access_patterns")" ] || { echo "not a summary row per pattern"; exit 1; }
# every call rendered, equal to the run's rows; every pattern on every model
grep '^call ' "$work/report.facts" | sed 's/^call //' >"$work/calls"
grep '^data ' "$work/report.facts" | sed 's/^data //' >"$work/data"
cmp -s "$work/calls" "$work/data" || { diff "$work/calls" "$work/data" | head; echo "the rendered calls differ from the run's rows"; exit 1; }
[ "$(wc -l <"$work/calls")" -eq 123 ] || { echo "$(wc -l <"$work/calls") calls rendered, hroe.compare makes 123"; exit 1; }
for m in hroe_normalized hroe_single hroe_multi; do
	n=$(awk -F' [|] ' -v m="$m" '$3 == m { print $1 }' "$work/calls" | sort -u | wc -l)
	[ "$n" -eq 22 ] || { echo "$m: $n patterns rendered, not 22"; exit 1; }
done
! grep -v ' | identical$' "$work/calls" | grep . || { echo "calls not identical"; exit 1; }
echo "every call rendered and identical: $(wc -l <"$work/calls") calls, 22 patterns on each of 3 models"
# the figures equal the text report of the same run: model, rows, median
# ms, buffers, call by call
awk '/^  hroe_/ { print $1, $2, $4, $7 }' "$work/main.out" >"$work/text.figures"
python3 - "$work/report.html" >"$work/html.figures" <<'PY'
import json, re, sys
h = open(sys.argv[1], encoding='utf-8').read()
for x in json.loads(re.search(r'<script type="application/json" id="hroe-design-data">(.*?)</script>', h, re.S).group(1), parse_float=str):
    print(x['model'], x['result_rows'], x['median_ms'], x['shared_hit'])
PY
[ "$(wc -l <"$work/text.figures")" -eq 123 ] || { echo "not 123 calls in the text report"; exit 1; }
diff "$work/text.figures" "$work/html.figures" || { echo "the page's figures differ from the text report of the same run"; exit 1; }
echo "the page's figures equal the text report's"
# the charts and the growth curves (employee_by_id and customer_orders)
grep -qx 'chart chart-latency' "$work/report.facts" && grep -qx 'chart chart-capacity' "$work/report.facts" ||
	{ echo "the charts are missing:"; grep '^chart' "$work/report.facts"; exit 1; }
bars=$(grep -o '<rect x="[0-9.]*" y="[0-9.]*" width="[0-9.]*" height="[0-9]*" fill="#[0-9a-f]*"><title>' "$work/report.dom" | wc -l)
[ "$bars" -ge 100 ] || { echo "the charts have $bars bars"; exit 1; }
grep -qx 'growth 2' "$work/report.facts" || { echo "expected 2 growth charts:"; grep '^growth' "$work/report.facts"; exit 1; }
# the bill of each DynamoDB design: 4 open_orders a second, 730 hours a
# month, 7.5 RCU (hroe_single) or 2.5 RCU (hroe_multi) averaged with the
# pattern's other cases; on demand at $0.125 per million read units
for m in hroe_single hroe_multi; do
	grep -Eq "^bill $m [0-9]+\.[0-9]+ [0-9]+\.[0-9]+ [0-9]+$" "$work/report.facts" || { echo "no bill for $m"; grep '^bill' "$work/report.facts"; exit 1; }
	[ "$(grep -c "^table $m " "$work/report.facts")" -ge 3 ] || { echo "no tables of $m"; exit 1; }
done
single=$(awk '$1 == "bill" && $2 == "hroe_single" { print $3 }' "$work/report.facts")
multi=$(awk '$1 == "bill" && $2 == "hroe_multi" { print $3 }' "$work/report.facts")
awk -v s="$single" -v m="$multi" 'BEGIN { exit !(s > 0 && m > 0 && s > m) }' || { echo "the mix's bill: hroe_single $single, hroe_multi $multi"; exit 1; }
echo "bills of the mix on demand: hroe_single \$$single, hroe_multi \$$multi a month; charts and 2 growth curves drawn"

# the sorting script: a copy with a click on the summary's first side
# column; the rows must then be in ascending order of that column
sed 's|</body>|<script>var h=document.querySelector("#summary thead th:nth-child(6)");h.click();document.body.setAttribute("data-sorted",Array.prototype.map.call(document.querySelectorAll("#summary tbody tr"),function(r){return r.cells[5].getAttribute("data-v")}).join(" "));</script></body>|' \
	"$work/report.html" >"$work/sorted.html"
browse "$work/sorted.html" "$work/sorted.dom"
errors=$(script_errors "$work/sorted.dom.log")
[ -z "$errors" ] || { echo "script errors while sorting:"; echo "$errors"; exit 1; }
grep -o 'data-sorted="[^"]*"' "$work/sorted.dom" | sed 's/^data-sorted="//; s/"$//' | tr ' ' '\n' | grep . >"$work/sorted.col"
[ "$(wc -l <"$work/sorted.col")" -eq 22 ] || { echo "the sorting script did not run"; exit 1; }
sort -g -c "$work/sorted.col" || { echo "a click did not sort the column"; exit 1; }
echo "a click on a header sorts its column ($(wc -l <"$work/sorted.col") rows)"

# 2. a failing pattern does not stop the job: the page is written, the
# pattern is a failed verdict, psql exits non-zero at the end
# (employee_phones' relational function made to read a missing table; the
# check of hire_employee reads it too)
dropdb "$db" && createdb "$db"
cat >"$work/break.sql" <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION hroe_hr CASCADE;
SELECT count(*) FROM hroe.load(0.2, 42);
SET check_function_bodies = off;
DO $do$ BEGIN
	EXECUTE regexp_replace(pg_get_functiondef('hroe_normalized.employee_phones'::regproc),
		'\$function\$.*\$function\$', '$function$SELECT 1, x FROM hroe_t_main_missing$function$');
END $do$;
SQL
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$work/break.sql" >/dev/null
rc=0
sed 's/^CREATE EXTENSION hroe_hr CASCADE;$/CREATE EXTENSION IF NOT EXISTS hroe_hr CASCADE;/; s/^SELECT \* FROM hroe.load(:scale, 42);$//' test/main.sql >"$work/main_broken.sql"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -v scale=0.2 -v runs=1 -v report="$work/broken.html" -v growth_csv="$work/growth.csv" \
	-f "$work/main_broken.sql" </dev/null >"$work/broken.out" 2>"$work/broken.err" || rc=$?
[ "$rc" -ne 0 ] || { echo "a failing pattern did not fail the job"; exit 1; }
grep -q "some access pattern calls failed" "$work/broken.err" || { echo "the job did not say why it failed:"; tail "$work/broken.err"; exit 1; }
browse "$work/broken.html" "$work/broken.dom"
python3 test/design_dom.py "$work/broken.dom" >"$work/broken.facts"
grep -qx 'summary employee_phones | FAILED' "$work/broken.facts" || { echo "no failed verdict:"; grep '^summary' "$work/broken.facts"; exit 1; }
grep -Eq '^failure employee_phones \| [^|]+ \| hroe_normalized \| 42P01$' "$work/broken.facts" || { echo "the failure is not listed:"; grep '^failure' "$work/broken.facts"; exit 1; }
# (hire_employee's check reads the employee's phones too: it fails with it)
grep -qx 'summary hire_employee | FAILED' "$work/broken.facts" || { echo "hire_employee, checked by employee_phones, did not fail"; exit 1; }
[ "$(grep -c '^summary .* | identical$' "$work/broken.facts")" -eq 20 ] || { echo "the other patterns did not all run identical:"; grep '^summary' "$work/broken.facts"; exit 1; }
echo "a failing pattern: the job went on (20 patterns identical), the page shows it failed ($(grep -c '^failure' "$work/broken.facts") calls), psql exited $rc"
# the run's own point of the growth curves (growth_csv, HROE_GROWTH_CSV):
# each pattern on each model but the 2 failed calls, at the run's scale,
# its busiest argument set; every pattern's (22) drawn in the page
[ "$(tail -n +2 "$work/growth.csv" | wc -l)" -eq 64 ] || { echo "growth_csv: $(tail -n +2 "$work/growth.csv" | wc -l) points, not 22 patterns x 3 models - 2 failed"; exit 1; }
python3 - "$work/growth.csv" <<'PY' || { echo "growth_csv: points not at scale 0.2, busiest, one client, or the failed call's"; exit 1; }
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r['scale'] != '0.2' or r['args_set'] != 'busiest' or r['clients'] != '1'
       or not re.fullmatch(r'[0-9.]+', r['median_ms'])
       or (r['pattern'] == 'employee_phones' and r['model'] == 'hroe_normalized')]
print(*bad, sep='\n')
sys.exit(1 if bad else 0)
PY
grep -qx 'growth 22' "$work/broken.facts" || { echo "the run's own points not drawn:"; grep '^growth' "$work/broken.facts"; exit 1; }
echo "the run's own point of the growth curves: $(tail -n +2 "$work/growth.csv" | wc -l) points written and 22 curves drawn"

# 3. progress at a large scale
dropdb "$db" && createdb "$db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION hroe_hr CASCADE" \
	-c "SET client_min_messages = notice" -c "SELECT count(*) FROM hroe.load(10, 42)" \
	-c "SELECT count(*) FROM hroe.design_run(hroe.design_hroe('hroe_single'), 1, false, '{1,21}')" >"$work/progress.out" 2>&1
for n in "hroe.load: HR, customers and products done (" "hroe.load: 10000 orders with [0-9]* lines (" \
		"hroe.load: hroe_single mapped (" "hroe.design_run: pattern 1 employee_by_id done" \
		"hroe.design_run: pattern 21 place_order done"; do
	grep -q "NOTICE:  $n" "$work/progress.out" || { echo "no progress notice like: $n"; cat "$work/progress.out"; exit 1; }
done
echo "progress at scale 10: $(grep -c NOTICE "$work/progress.out") notices from hroe.load and hroe.design_run"
