#!/usr/bin/env bash
# test/t_design_browser.sh: designs proven and their pages in a real browser
# (doc/design.md).  For the two designs from AWS's guides
# (models/designs/adjacency.json, one_to_many.json), the NoSQL Workbench
# model imported with its patterns (saas.workbench.json, saas.patterns.json)
# and HR/OE as a design (hroe_single at scale 0.2), test/design.sql (what
# test/design.sh runs) loads the design, checks the facets reproduce its
# tables, runs every pattern on both sides and writes the page; headless
# Chromium renders it (test/design_dom.py reads the DOM):
#   - every pattern of the design has its summary row, every call of the
#     run its row, equal (pattern, case, side, answers) to the run's rows
#     embedded in the page; every answer identical;
#   - every table and index of the design has its row, and grids are drawn;
#   - the bill's totals are numbers, the request total positive when the
#     design declares a mix;
#   - no script error reached the console; a page with a deliberate script
#     error is caught, so that the check can fail.
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
scratch_db hroe_t_design hroe_hr
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROMIUM" ] || { echo "chromium is not installed (apt-get install chromium)"; exit 1; }

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
script_errors() { grep -E 'CONSOLE.*(Uncaught|Error)|Uncaught ' "$1" || true; }

printf '<!DOCTYPE html><html><body><p>x</p><script>undefined_function_of_the_control();</script></body></html>' >"$work/bad.html"
browse "$work/bad.html" "$work/bad.dom"
[ -n "$(script_errors "$work/bad.dom.log")" ] || { echo "a script error went unnoticed: the console check is blind"; exit 1; }

fail() { echo "FAIL $name: $*"; exit 1; }
# run_design NAME DESIGN PATTERNS N_PATTERNS N_TABLES_AND_INDEXES: the page
# of the design, checked
run_design() {
	name=$1
	psql -X -q -v ON_ERROR_STOP=1 -d "$db" -v design="$2" -v patterns="$3" -v runs=1 -v scale=0.2 -v load=true \
		-v report="$work/$name.html" -v options='{}' -f test/design.sql >"$work/$name.out" 2>&1 ||
		{ cat "$work/$name.out"; fail "test/design.sql failed"; }
	grep -q "^hroe: the design's page:" "$work/$name.out" || fail "no page announced"
	# the facets reproduce the tables: no missing, no extra item
	awk -F'|' '/^ *[^ ]+ *\| *[0-9]+ *\| *[0-9]+ *\| *[0-9]+ *\| *[0-9]+ *$/ { if ($4 + 0 != 0 || $5 + 0 != 0) bad = 1; n++ }
		END { exit (n > 0 && !bad) ? 0 : 1 }' "$work/$name.out" || { cat "$work/$name.out"; fail "design_verify found missing or extra items"; }
	browse "$work/$name.html" "$work/$name.dom"
	[ -z "$(script_errors "$work/$name.dom.log")" ] || { script_errors "$work/$name.dom.log"; fail "script errors"; }
	python3 test/design_dom.py "$work/$name.dom" >"$work/$name.facts"
	local summaries calls
	summaries=$(grep -c '^summary ' "$work/$name.facts" || true)
	[ "$summaries" -eq "$4" ] || fail "$summaries summary rows, not $4"
	grep '^call ' "$work/$name.facts" | sed 's/^call //' >"$work/$name.calls"
	grep '^data ' "$work/$name.facts" | sed 's/^data //' >"$work/$name.data"
	calls=$(wc -l <"$work/$name.calls")
	[ "$calls" -gt 0 ] || fail "no call rendered"
	cmp -s "$work/$name.calls" "$work/$name.data" || { diff "$work/$name.calls" "$work/$name.data" | head; fail "the rendered calls differ from the run's rows"; }
	! grep -q 'DIFFER' "$work/$name.calls" || { grep DIFFER "$work/$name.calls"; fail "answers differ"; }
	grep -q '^summary .* | identical$' "$work/$name.facts" || fail "no identical verdict"
	[ "$(grep -c '^table ' "$work/$name.facts")" -eq "$5" ] || fail "not $5 table and index rows"
	grep -q '^grid [1-9]' "$work/$name.facts" || fail "no grid drawn"
	grep -Eq '^bill [^ ]+ [0-9.]+ [0-9.]+ [0-9]+$' "$work/$name.facts" || fail "the bill's totals are not numbers"
	grep -Eq '^bill [^ ]+ ([0-9]*[1-9][0-9]*\.[0-9]+|[0-9]+\.[0-9]*[1-9][0-9]*) ' "$work/$name.facts" || fail "the mix costs nothing on demand"
	echo "ok   $name: $summaries patterns, $calls calls identical and rendered, $5 tables and indexes, $(grep '^bill ' "$work/$name.facts")"
}

run_design adjacency "$(cat models/designs/adjacency.json)" '{}' 7 2
run_design one_to_many "$(cat models/designs/one_to_many.json)" '{}' 10 2
run_design saas "$(cat models/designs/saas.workbench.json)" "$(cat models/designs/saas.patterns.json)" 4 2
run_design hroe_single hroe_single '{}' 22 5
