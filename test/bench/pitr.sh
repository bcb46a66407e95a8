#!/usr/bin/env bash
# test/bench/pitr.sh: what point-in-time recovery costs a write (doc/backups.md).
#
#   HROE_PGPORT=5845 bash test/bench/run.sh pitr
#
# CLIENTS pgbench clients (2) for SECS seconds (5), each transaction one
# PutItem through hroe.dynamodb (about 130-byte items), REPS runs (5)
# alternating between a table without and with point-in-time recovery:
# new items (random keys) and overwrites of 1,000 items.  A table with
# point-in-time recovery has a trigger (its capture), so it writes through
# the executor even with hroe.direct_access on; the third row, a table with
# a KEYS_ONLY stream, is another trigger's cost for comparison.  Prints the
# median transactions per second; the cluster runs with
# track_commit_timestamp = on (test/lib.sh), whose own cost (a few bytes
# of the commit timestamp's SLRU per transaction) is in every row.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${HROE_BENCH_CLIENTS:-2}
SECS=${HROE_BENCH_SECS:-5}
REPS=${HROE_BENCH_REPS:-5}
DB=hroe_bench_pitr
PGBENCH=$(command -v pgbench || echo /usr/lib/postgresql/15/bin/pgbench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB" 2>/dev/null
psql -X -q -o /dev/null -v ON_ERROR_STOP=1 -d "$DB" <<'SQL'
CREATE EXTENSION hroe;
SELECT hroe.create_table('bench_off', 'pk');
SELECT hroe.create_table('bench_pitr', 'pk');
SELECT hroe.create_table('bench_stream', 'pk');
SELECT hroe.enable_stream('bench_stream', 'KEYS_ONLY');
SELECT count(*) FROM unnest(ARRAY['bench_off', 'bench_pitr', 'bench_stream']) t, generate_series(1, 1000) i,
	hroe.put_item(t, hroe.item_from_document(jsonb_build_object('pk', 'k' || i, 'v', 0, 'pad', repeat('x', 100))));
SELECT hroe.update_continuous_backups('bench_pitr', true);
SQL
echo "track_commit_timestamp = $(psql -X -At -d "$DB" -c 'SHOW track_commit_timestamp')"

tps() { sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$1" | head -1; }
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

for t in bench_off bench_pitr bench_stream; do
	cat >"$work/new_$t.sql" <<EOF
\\set k random(1, 1000000000)
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', '$t', 'Item', jsonb_build_object('pk', jsonb_build_object('S', 'n' || :k), 'v', jsonb_build_object('N', '1'), 'pad', jsonb_build_object('S', repeat('x', 100)))));
EOF
	cat >"$work/over_$t.sql" <<EOF
\\set k random(1, 1000)
\\set v random(1, 1000000000)
SELECT hroe.dynamodb('PutItem', jsonb_build_object('TableName', '$t', 'Item', jsonb_build_object('pk', jsonb_build_object('S', 'k' || :k), 'v', jsonb_build_object('N', :v::text), 'pad', jsonb_build_object('S', repeat('x', 100)))));
EOF
done
for r in $(seq 1 "$REPS"); do
	for t in bench_off bench_pitr bench_stream; do
		for kind in new over; do
			"$PGBENCH" -n -c "$CLIENTS" -j "$CLIENTS" -T "$SECS" -f "$work/${kind}_$t.sql" "$DB" >"$work/run.log" 2>&1
			tps "$work/run.log" >>"$work/$kind.$t"
		done
	done
done
echo "| table | new items, tx/s | overwrites, tx/s |"
echo "|---|---:|---:|"
for t in bench_off bench_pitr bench_stream; do
	echo "| $t | $(median <"$work/new.$t") | $(median <"$work/over.$t") |"
done
echo "history: $(psql -X -At -d "$DB" -c "SELECT count(*) || ' versions, ' || pg_size_pretty(pg_total_relation_size('hroe.pitr_history')) FROM hroe.pitr_history")"
psql -X -q -d postgres -c "DROP DATABASE $DB" 2>/dev/null
