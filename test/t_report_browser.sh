#!/usr/bin/env bash
# test/t_report_browser.sh: the HTML report in a real browser.
#  1. the main job's SQL (test/main.sql, scale 1, one run per call, a small
#     benchmark CSV on its standard input) writes the report; headless
#     Chromium (Debian's chromium) loads it and dumps the DOM it renders
#     (test/report_dom.py reads it): every access pattern of
#     hroe.access_patterns has its summary rows, every call of the run its
#     row of figures, equal to the text report of the same run; the grids
#     start with the expected partition keys (the sample employee, order and
#     product, GSI2's shards 0-3, hroe_multi's tables); the charts have bars,
#     the growth curves are drawn; no script error reached the console, and
#     the sorting script ran (a header clicked by a script appended to a
#     copy sorts its column); a page with a deliberate script error is
#     caught, so that the check can fail;
#  2. the figures are hroe.compare()'s: one run kept in a table, rendered
#     by hroe.compare_html, each rendered row equal, field by field, to the
#     run's row (pattern, case, model, answers, request, capacity, rows,
#     items, bytes, buffers, median ms, plan shape); hroe.compare_report_html
#     renders a row per call of the run it makes;
#  3. progress: the main job names each phase as it starts; at scale 10
#     hroe.load reports its phases (rows, seconds) and hroe.compare each
#     pattern done (calls, seconds), as NOTICEs.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
scratch_db hroe_t_report hroe_hr
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

# 1. the main job's report
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
	-v options='{"mix": {"open_orders": 4000000}}' \
	-f test/main.sql <"$work/bench.csv" >"$work/main.out" 2>"$work/main.err" ||
	{ echo "test/main.sql failed:"; tail -20 "$work/main.err"; exit 1; }
grep -q "hroe: the HTML report: $work/report.html" "$work/main.out" || { echo "main.sql did not name the report"; exit 1; }
for phase in "phase 1/3, load at scale 1" "phase 2/3, compare with 1 run(s) per call" "phase 3/3, the HTML report"; do
	grep -q "^hroe: $phase (" "$work/main.out" || { echo "main.sql did not announce: $phase"; exit 1; }
done
browse "$work/report.html" "$work/report.dom"
errors=$(script_errors "$work/report.dom.log")
[ -z "$errors" ] || { echo "script errors in the report:"; echo "$errors"; exit 1; }
python3 test/report_dom.py "$work/report.dom" >"$work/report.facts"
echo "the report: $(wc -c <"$work/report.html") bytes, $(grep -c '^details' "$work/report.facts") calls, $(grep -c '^grid' "$work/report.facts") grids"

# every pattern present in the summary
missing=$(q "SELECT string_agg(pattern_no || ' ' || pattern, ', ' ORDER BY pattern_no) FROM hroe.access_patterns")
for p in $(q "SELECT pattern_no || ':' || pattern FROM hroe.access_patterns ORDER BY 1"); do
	grep -q "^summary ${p%%:*} ${p#*:}" "$work/report.facts" || { echo "pattern $p missing from the summary (of: $missing)"; exit 1; }
done
echo "every pattern in the summary: $(q "SELECT count(*) FROM hroe.access_patterns") patterns, $(grep -c '^summary' "$work/report.facts") argument sets"
# every call's figures equal the text report of the same run: model, rows,
# median ms, buffers (the text report prints them from the same rows)
awk '/^  hroe_/ { print $1, $2, $4, $7, $9 }' "$work/main.out" >"$work/text.figures"
awk -F'\t' '/^details/ { print $4, $8, $13, $11, $12 }' "$work/report.facts" >"$work/html.figures"
[ "$(wc -l <"$work/text.figures")" -gt 100 ] || { echo "too few calls in the text report"; exit 1; }
diff "$work/text.figures" "$work/html.figures" || { echo "the page's figures differ from the text report of the same run"; exit 1; }
echo "the page's figures equal the text report's: $(wc -l <"$work/text.figures") calls"
grep -q "^summary.*DIFFER" "$work/report.facts" && { echo "answers differ in the summary"; exit 1; }

# the grids' first keys: the samples hroe.compare_html picks by default
emp=$(q "SELECT lpad(min(j.employee_id)::text, 10, '0') FROM hroe_normalized.job_history j WHERE EXISTS (SELECT FROM hroe_normalized.customers c WHERE c.account_mgr_id = j.employee_id)")
ord=$(q "SELECT lpad(max(order_id)::text, 19, '0') FROM hroe_normalized.orders WHERE order_status = 'OPEN' AND sales_rep_id IS NOT NULL")
prod=$(q "SELECT lpad(min(product_id)::text, 10, '0') FROM hroe_normalized.inventories")
expect_grid() {
	grep -q "^grid $1 $2 | [^|]* | $3 |" "$work/report.facts" ||
		{ echo "no grid of $1 $2 starting with $3:"; grep '^grid' "$work/report.facts"; exit 1; }
}
expect_grid hroe_single - "HR-EMPLOYEE#$emp"
expect_grid hroe_single - "OE-ORDER#$ord"
expect_grid hroe_single - "OE-PRODUCT#$prod"
expect_grid hroe_single GSI1 "PRODUCT#$prod"
expect_grid hroe_single GSI1 "EMPLOYEE#$emp"
for s in 0 1 2 3; do expect_grid hroe_single GSI2 "$s"; done
expect_grid Employee - "emp_$emp"
expect_grid Order - "ord_$ord"
expect_grid Product - "prod_$prod"
# entity types coloured: the employee's collection holds several
grep "^grid hroe_single - | [^|]* | HR-EMPLOYEE#$emp |" "$work/report.facts" | grep -q ',.*,' ||
	{ echo "the employee's collection shows fewer than three entity types"; exit 1; }
echo "the grids start with the sample keys: employee $emp, order $ord, product $prod, GSI2 shards 0-3"
# the charts and the growth curves (employee_by_id and customer_orders)
for c in chart-latency chart-capacity; do
	bars=$(awk -v c="$c" '$1 == "chart" && $2 == c { print $3 }' "$work/report.facts")
	[ "${bars:-0}" -ge 40 ] || { echo "chart $c has ${bars:-no} bars"; exit 1; }
done
grep -qx 'growth 2' "$work/report.facts" || { echo "expected 2 growth charts:"; grep '^growth' "$work/report.facts"; exit 1; }
# the request mix given: 4 million open_orders a month, nothing else; at
# scale 1 its first argument set costs 7.5 RCU in hroe_single, 2.5 in
# hroe_multi, at $0.125 per million read request units
grep -q '^cost cost-total-hroe_single	\$3\.75$' "$work/report.facts" &&
	grep -q '^cost cost-total-hroe_multi	\$1\.25$' "$work/report.facts" ||
	{ echo "the month's cost of the mix is not 3.75 and 1.25 dollars:"; grep '^cost' "$work/report.facts"; exit 1; }
echo "charts drawn: $(grep '^chart' "$work/report.facts" | tr '\n' ' ')"

# the sorting script: a copy with a click on the summary's first design
# column; the rows must then be in ascending order of that column
sed 's|</body>|<script>var h=document.querySelector("#summary thead th:nth-child(5)");h.click();document.body.setAttribute("data-sorted",Array.prototype.map.call(document.querySelectorAll("#summary tbody tr"),function(r){return r.cells[4].getAttribute("data-v")}).join(" "));</script></body>|' \
	"$work/report.html" >"$work/sorted.html"
browse "$work/sorted.html" "$work/sorted.dom"
errors=$(script_errors "$work/sorted.dom.log")
[ -z "$errors" ] || { echo "script errors while sorting:"; echo "$errors"; exit 1; }
python3 test/report_dom.py "$work/sorted.dom" | sed -n 's/^attr data-sorted //p' | tr ' ' '\n' | grep . >"$work/sorted.col"
[ "$(wc -l <"$work/sorted.col")" -gt 40 ] || { echo "the sorting script did not run"; exit 1; }
sort -g -c "$work/sorted.col" || { echo "a click did not sort the column"; exit 1; }
echo "a click on a header sorts its column ($(wc -l <"$work/sorted.col") rows)"

# 2. the figures are hroe.compare()'s for the same run
q "CREATE TABLE report_run AS SELECT * FROM hroe.compare(NULL, NULL, 1) WITH ORDINALITY"
q "SELECT hroe.compare_html((SELECT jsonb_agg(to_jsonb(r) - 'ordinality' ORDER BY r.ordinality) FROM report_run r))" >"$work/run.html"
browse "$work/run.html" "$work/run.dom"
python3 test/report_dom.py "$work/run.dom" | sed -n 's/^details //p' |
	awk -F'\t' -v OFS='\t' '{ print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }' >"$work/run.rendered"
q "SELECT concat_ws(E'\t', pattern_no, pattern, case_label, model, CASE WHEN identical THEN 'identical' ELSE 'DIFFER' END,
		COALESCE(request, ''), COALESCE(capacity || ' ' || capacity_unit, ''), COALESCE(result_rows::text, ''),
		COALESCE(items::text, ''), COALESCE(item_bytes::text, ''), COALESCE(shared_hit::text, ''),
		COALESCE(shared_read::text, ''), COALESCE(median_ms::text, ''), COALESCE(plan_shape, ''))
	FROM report_run ORDER BY ordinality" >"$work/run.sql"
[ "$(wc -l <"$work/run.sql")" -gt 100 ] || { echo "too few calls in the run"; exit 1; }
diff "$work/run.sql" "$work/run.rendered" || { echo "the rendered figures differ from hroe.compare()'s"; exit 1; }
echo "every rendered call equals hroe.compare()'s row, field by field: $(wc -l <"$work/run.sql") calls"
calls=$(q "SELECT count(*) FROM report_run")
q "SELECT hroe.compare_report_html(p_runs => 1)" >"$work/one.html"
rows=$(grep -o '<tr data-n=' "$work/one.html" | wc -l)
[ "$rows" -eq "$calls" ] || { echo "hroe.compare_report_html rendered $rows calls, hroe.compare makes $calls"; exit 1; }
echo "hroe.compare_report_html: a row per call ($rows)"

# 3. progress at a large scale
dropdb "$db" && createdb "$db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" -c "CREATE EXTENSION hroe_hr CASCADE" \
	-c "SET client_min_messages = notice" -c "SELECT count(*) FROM hroe.load(10, 42)" \
	-c "SELECT count(*) FROM hroe.compare('{1,21}', NULL, 1)" >"$work/progress.out" 2>&1
for n in "hroe.load: HR, customers and products done (" "hroe.load: 10000 orders with [0-9]* lines (" \
		"hroe.load: hroe_single mapped (" "hroe.compare: pattern 1 employee_by_id, 6 calls so far (" \
		"hroe.compare: pattern 21 place_order, 9 calls so far ("; do
	grep -q "NOTICE:  $n" "$work/progress.out" || { echo "no progress notice like: $n"; cat "$work/progress.out"; exit 1; }
done
echo "progress at scale 10: $(grep -c NOTICE "$work/progress.out") notices from hroe.load and hroe.compare"
