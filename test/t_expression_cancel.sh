#!/usr/bin/env bash
# test/t_expression_cancel.sh: a statement whose expressions an attacker
# makes long (issue #29, item 3) ends promptly when cancelled.  Runs inside
# the test cluster (PG* variables set).  A Query over three items of 360 KB
# with 16 contains(d, :s) per item, :s 200,000 'x' then 'y' (a naive search
# spent about 0.5 s per call, with no interrupt check inside one item's
# evaluation), run a thousand times over by one statement; pg_cancel_backend
# after 1 s must end it within 2 s, with PostgreSQL's cancel error.  Fails
# only when grossly late: no timing assertion beyond that bound.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
scratch_db hroe_expression_cancel
failures=0

q "SELECT hroe.create_table('dos', 'PK', 'S', 'SK', 'S')" >/dev/null || exit 1
q "SELECT count(*) FROM (SELECT hroe.put_item('dos', jsonb_build_object('PK', '{\"S\": \"p\"}'::jsonb,
	'SK', jsonb_build_object('S', s), 'd', jsonb_build_object('S', repeat('x', 360000)),
	'l', jsonb_build_object('L', (SELECT jsonb_agg('{\"S\": \"x\"}'::jsonb) FROM generate_series(1, 20000))))::text::hroe.item)
	FROM unnest(ARRAY['a', 'b', 'c']) s) p" >/dev/null || exit 1

# $1 label, $2 the filter, $3 its values (besides :p); the statement (a
# Query per row of generate_series: :p is not a constant) runs
# until cancelled, then how late its end was is checked
cancel_check() {
	local label=$1 filter=$2 values=$3 pid cancelled ended late
	psql -XAtq -d "$db" -v ON_ERROR_STOP=1 >"$work/out" 2>&1 <<SQL &
\\o $work/pid
SELECT pg_backend_pid();
\\o
SELECT count(*) FROM generate_series(1, 1000) g, LATERAL hroe.query('dos', 'PK = :p',
	jsonb_build_object(':p', jsonb_build_object('S', left('p', g * 0 + 1))) || $values,
	NULL, NULL, true, false, '$filter') q;
SQL
	local bg=$!
	for _ in $(seq 50); do [ -s "$work/pid" ] && break; sleep 0.1; done
	pid=$(cat "$work/pid" 2>/dev/null)
	sleep 1
	cancelled=$(date +%s%N)
	q "SELECT pg_cancel_backend($pid)" >/dev/null
	# wait for the statement's end, at most 60 s
	for _ in $(seq 600); do kill -0 "$bg" 2>/dev/null || break; sleep 0.05; done
	ended=$(date +%s%N)
	wait "$bg" 2>/dev/null
	late=$(((ended - cancelled) / 1000000))
	rm -f "$work/pid"
	if ! grep -q "canceling statement due to user request" "$work/out"; then
		echo "FAIL $label: not cancelled: $(head -c 200 "$work/out")"
		failures=$((failures + 1))
	elif [ "$late" -gt 2000 ]; then
		echo "FAIL $label: ended $late ms after pg_cancel_backend (bound 2000 ms)"
		failures=$((failures + 1))
	else
		echo "ok   $label: ended $late ms after pg_cancel_backend"
	fi
}

cancel_check "16 x contains(d, :s) per item" \
	"$(for i in $(seq 16); do printf 'contains(d, :s) OR '; done)contains(d, :y)" \
	"jsonb_build_object(':s', jsonb_build_object('S', repeat('x', 200000) || 'y'), ':y', '{\"S\": \"y\"}'::jsonb)"
cancel_check "40 list walks per item" \
	"$(for i in $(seq 40); do printf 'contains(l, :y) OR size(l) = :n OR '; done)contains(l, :y)" \
	"'{\":y\": {\"S\": \"y\"}, \":n\": {\"N\": \"1\"}}'::jsonb"

[ "$failures" -eq 0 ] || { echo "t_expression_cancel: $failures failure(s)"; exit 1; }
echo "t_expression_cancel: ok"
