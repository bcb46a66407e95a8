#!/usr/bin/env bash
# test/t_dump_restore.sh: a database holding the three loaded models survives
# pg_dump and pg_restore: the extension's configuration tables (the data of
# hroe_normalized, hroe_single, hroe_multi, hroe.tables, hroe.indexes) come
# back in an order their constraints accept, hroe.verify() is clean on the
# copy, every pattern answers there exactly as on the original, and the
# write patterns still work (sequences restored).
set -euo pipefail
src=hroe_t_dump_src
dst=hroe_t_dump_dst
dump=$(mktemp)
trap 'rm -f "$dump" "$dump".*; dropdb --if-exists "$src"; dropdb --if-exists "$dst"' EXIT
dropdb --if-exists "$src"
dropdb --if-exists "$dst"
createdb "$src"
createdb "$dst"
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$1" -c "$2"; }
q "$src" "SET client_min_messages = warning; CREATE EXTENSION hroe_hr CASCADE"
q "$src" "SET client_min_messages = warning; SELECT count(*) FROM hroe.load(1, 42)" >/dev/null
# every read pattern's answer on every model, one line per call
answers="SELECT string_agg(concat_ws(' ', pattern, case_label, model, result_rows, fingerprint), E'\n'
	ORDER BY pattern_no, case_label, model) FROM hroe.compare(NULL, NULL, 1) WHERE kind = 'read'"
q "$src" "$answers" >"$dump.before"
[ "$(wc -l <"$dump.before")" -ge 100 ] || { echo "too few calls on the original: $(wc -l <"$dump.before")"; exit 1; }
pg_dump -Fc -d "$src" -f "$dump"
pg_restore --single-transaction --exit-on-error -d "$dst" "$dump"
echo "restored with pg_restore --single-transaction --exit-on-error"
q "$dst" "$answers" >"$dump.after"
diff "$dump.before" "$dump.after" || { echo "answers differ after restore"; exit 1; }
echo "every read pattern answers as before: $(wc -l <"$dump.after") calls"
got=$(q "$dst" "SELECT count(*) FROM hroe.verify()")
[ "$got" = 0 ] || { echo "hroe.verify() after restore: $got problems"; q "$dst" "SELECT * FROM hroe.verify() LIMIT 10"; exit 1; }
echo "hroe.verify() clean after restore"
# the writes, on every model, answer identically (each in a rolled-back subtransaction)
got=$(q "$dst" "SELECT count(*) FILTER (WHERE identical), count(*) FROM hroe.compare(NULL, NULL, 1) WHERE kind = 'write'")
case "$got" in
	0\|*|*\|0) echo "no write call ran after restore: $got"; exit 1 ;;
esac
[ "${got%|*}" = "${got#*|}" ] || { echo "writes identical / all after restore: $got"; exit 1; }
echo "write patterns identical after restore: $got"
# a write that commits takes fresh ids from the restored sequences
q "$dst" "SELECT hroe_normalized.place_order(1, '2025-12-30', '[{\"product_id\": 1, \"quantity\": 1}]')" >/dev/null 2>"$dump.err" ||
	{ cat "$dump.err"; exit 1; }
echo "a committed write after restore: ok"
