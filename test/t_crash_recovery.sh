#!/usr/bin/env bash
# test/t_crash_recovery.sh: acknowledged writes survive a crash.  Starts its
# own throwaway cluster (fsync on, hroe loaded from the stage the suite's
# cluster uses), never touching the suite's, and runs two rounds of: four
# psql clients writing for a few seconds (PutItem of new keys through
# hroe.put_item and hroe.dynamodb, UpdateItem ADD on eight shared counters
# through hroe.update_item and hroe.dynamodb, each write also moving the
# item in a GSI), each acknowledged write logged client-side as its result
# arrives; then kill -9 of the postmaster and its children mid-load, and a
# restart (crash recovery).  After each restart: every acknowledged put is
# present, every counter is at least its acknowledged increments and at most
# the in-flight ones (one per killed client) above, every btree index of the
# database (the table's key and GSI indexes, the catalogs) matches its heap
# (amcheck bt_index_check heapallindexed), and the GSI's Scan and Queries
# answer what a scan of the table finds (test/gsi_check.sql).  Runs inside
# the test cluster (PG* variables set).
set -uo pipefail
cd "$(dirname "$0")/.."
. test/lib.sh
bindir=/usr/lib/postgresql/15/bin
SECS=${HROE_CRASH_SECS:-4}
CLIENTS=4

# the staged install the suite's cluster loads hroe from (empty: the system's)
stage=$(psql -XAtq -c "SHOW extension_destdir" 2>/dev/null || echo "${HROE_STAGE:-}")
work=$(mktemp -d /tmp/hroe-crash.XXXXXX)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	as_owner "$bindir/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT

# the server refuses to run as root: as root, the cluster belongs to postgres
# (run from $work, which it can enter, wherever the checkout is)
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then (cd "$work" && runuser -u postgres -- "$@"); else "$@"; fi
}
[ "$(id -u)" -eq 0 ] && chown postgres "$work"
chmod 755 "$work"

# this script's cluster: a socket in $work only, on a port no one listens on
port=$(free_port $((${PGPORT:-5631} + 1)))
export PGHOST=$work PGPORT=$port PGUSER=postgres PGDATABASE=hroe_crash
unset PGPASSWORD PGSERVICE PGSYSCONFDIR
q() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -At "$@"; }

start() {
	as_owner "$bindir/pg_ctl" -D "$work/data" -l "$work/server.log" -w -t 60 -o \
		"-c port=$port -c listen_addresses='' -c unix_socket_directories='$work' -c fsync=on \
		 -c synchronous_commit=on -c full_page_writes=on -c extension_destdir='$stage'" start \
		>>"$work/pg_ctl.log" 2>&1
}

echo "cluster: port $port, fsync on, hroe from ${stage:-the system install}"
as_owner "$bindir/initdb" -D "$work/data" -A trust -U postgres --encoding=UTF8 --locale=C.UTF-8 \
	>"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; exit 1; }
start || { cat "$work/server.log"; exit 1; }
q -d postgres -c "CREATE DATABASE hroe_crash" || exit 1
q >/dev/null <<'SQL' || exit 1
CREATE EXTENSION hroe;
CREATE EXTENSION amcheck;
SELECT hroe.create_table('crash', 'PK', 'S', 'SK', 'N');
SELECT hroe.create_index('crash', 'byStatus', '{status}', '{date}', '{"status": "S", "date": "S"}');
-- item i of client c: a status (none for one in four: out of the sparse
-- GSI), a date, now and then a long note (a TOASTed item)
CREATE FUNCTION cr_item(c text, i int) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('PK', jsonb_build_object('S', c), 'SK', jsonb_build_object('N', i::text),
		'date', jsonb_build_object('S', '2026-' || i))
	|| CASE WHEN i % 4 < 3 THEN jsonb_build_object('status', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[i % 4 + 1])) ELSE '{}' END
	|| CASE WHEN i % 50 = 0 THEN jsonb_build_object('note', jsonb_build_object('S', repeat(md5(i::text), 200))) ELSE '{}' END;
CREATE FUNCTION cr_key(j int) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object('PK', jsonb_build_object('S', 'counter'), 'SK', jsonb_build_object('N', j::text));
CREATE FUNCTION cr_values(i int) RETURNS jsonb LANGUAGE sql IMMUTABLE RETURN
	jsonb_build_object(':one', jsonb_build_object('N', '1'),
		':s', jsonb_build_object('S', (ARRAY['OPEN', 'SHIPPED', 'CLOSED'])[i % 3 + 1]),
		':d', jsonb_build_object('S', '2027-' || i));
-- a response that is an error body is no acknowledgement
CREATE FUNCTION cr_ok(r jsonb) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	-- an error body is a failure the client's log shows (an ERROR line)
	IF r ? '__type' THEN
		RAISE EXCEPTION 'request failed: %', r;
	END IF;
	RETURN true;
END $$;
\i test/gsi_check.sql
SQL

# client $1's statements in this round, endless (psql stops at the crash):
# each prints its acknowledgement, "put <PK> <SK>" or "add <counter>", once it has committed
client_sql() {
	awk -v c="r${round}c$1" -v k="$1" 'BEGIN {
		upd = "ADD n :one SET #s = :s, #d = :d"
		names = "{\"#s\": \"status\", \"#d\": \"date\"}"
		for (i = 1; ; i++) {
			if (i % 3) {
				if (i % 2)
					printf "SELECT %s FROM hroe.put_item(%s, cr_item(%s, %d)::hroe.item);\n",
						"'\''put " c " " i "'\''", "'\''crash'\''", "'\''" c "'\''", i
				else
					printf "SELECT %s WHERE cr_ok(hroe.dynamodb(%s, jsonb_build_object(%s, %s, %s, cr_item(%s, %d))));\n",
						"'\''put " c " " i "'\''", "'\''PutItem'\''", "'\''TableName'\''", "'\''crash'\''", "'\''Item'\''", "'\''" c "'\''", i
			} else {
				j = (i * 7 + k) % 8
				if (i % 2)
					printf "SELECT %s FROM hroe.update_item(%s, cr_key(%d), %s, NULL, %s, cr_values(%d));\n",
						"'\''add " j "'\''", "'\''crash'\''", j, "'\''" upd "'\''", "'\''" names "'\''", i
				else
					printf "SELECT %s WHERE cr_ok(hroe.dynamodb(%s, jsonb_build_object(%s, %s, %s, cr_key(%d), %s, %s, %s, %s::jsonb, %s, cr_values(%d))));\n",
						"'\''add " j "'\''", "'\''UpdateItem'\''", "'\''TableName'\''", "'\''crash'\''", "'\''Key'\''", j,
						"'\''UpdateExpression'\''", "'\''" upd "'\''", "'\''ExpressionAttributeNames'\''", "'\''" names "'\''",
						"'\''ExpressionAttributeValues'\''", i
			}
		}
	}'
}

# the checks on the restarted cluster over every round's acknowledgements;
# prints what it found, returns non-zero on a failure
check() {
	local rc=0 missing counters problems indexes
	cat "$work"/acks.* | awk '$1 == "put" { print $2 "\t" $3 }' >"$work/puts.tsv"
	cat "$work"/acks.* | awk '$1 == "add" { n[$2]++ } END { for (j = 0; j < 8; j++) print j "\t" n[j] + 0 }' >"$work/adds.tsv"
	missing=$(q <<SQL
CREATE TEMP TABLE puts (pk text, sk int);
\copy puts FROM '$work/puts.tsv'
SELECT count(*) || ' of ' || (SELECT count(*) FROM puts) FROM puts
WHERE hroe.get_item('crash', jsonb_build_object('PK', jsonb_build_object('S', pk),
	'SK', jsonb_build_object('N', sk::text)), true)::jsonb IS DISTINCT FROM cr_item(pk, sk);
SQL
	) || return 1
	# acknowledged increments, stored value: below is lost, above is in flight
	counters=$(q <<SQL
CREATE TEMP TABLE adds (j int, n int);
\copy adds FROM '$work/adds.tsv'
SELECT sum(n) || ' ' || sum(v) || ' ' || count(*) FILTER (WHERE v < n)
FROM (SELECT n, coalesce((hroe.get_item('crash', cr_key(j), true)::jsonb -> 'n' ->> 'N')::int, 0) AS v
	  FROM adds) a;
SQL
	) || return 1
	read -r acked stored lost <<<"$counters"
	echo "  puts: $(wc -l <"$work/puts.tsv") acknowledged, ${missing% of*} missing or different"
	echo "  counters: $acked increments acknowledged, $stored stored, $lost counters below their acknowledged count (at most $inflight in flight)"
	if [ "${missing% of*}" != 0 ] || [ "$lost" != 0 ] || [ "$stored" -gt $((acked + inflight)) ]; then
		echo "FAIL acknowledged writes lost (or more increments than were in flight)"
		rc=1
	fi
	# amcheck raises an error on an index entry missing or extra
	if indexes=$(q -c "SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			JOIN pg_am a ON a.oid = c.relam, LATERAL (SELECT bt_index_check(i.indexrelid, true)) k
			WHERE a.amname = 'btree'" 2>&1); then
		echo "  amcheck: $indexes btree indexes match their heap ($(q -c "SELECT string_agg(indexrelid::regclass::text, ', ') FROM pg_index WHERE indrelid = 'crash'::regclass"))"
	else
		echo "FAIL amcheck: $indexes"
		rc=1
	fi
	problems=$(q -c "SELECT string_agg(m, '; ') FROM gsi_mismatches('crash') m") || return 1
	if [ -n "$problems" ]; then
		echo "FAIL GSI: $problems"
		rc=1
	else
		echo "  GSI byStatus: its Scan and Queries answer what a scan of the table finds ($(q -c "SELECT count(*) FROM hroe.scan('crash', p_index_name => 'byStatus')") entries)"
	fi
	return $rc
}

# the processes whose parent is $1 (no procps on a minimal machine)
children() {
	local f stat
	for f in /proc/[0-9]*/stat; do
		{ read -r stat <"$f"; } 2>/dev/null || continue	# gone meanwhile
		stat=${stat##*) }		# after the command name: state, parent, ...
		stat=${stat#* }
		[ "${stat%% *}" = "$1" ] && { f=${f#/proc/}; echo "${f%/stat}"; }
	done
}

failures=0
inflight=0
for round in 1 2; do
	pids=()
	for c in $(seq 1 $CLIENTS); do
		client_sql "$c" | q -v ON_ERROR_STOP=1 >"$work/acks.$round.$c" 2>"$work/err.$round.$c" &
		pids+=($!)
	done
	sleep "$SECS"
	running=0
	for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && running=$((running + 1)); done
	# the crash: the postmaster and every child at once
	pm=$(head -1 "$work/data/postmaster.pid")
	victims="$pm $(children "$pm")"
	kill -9 $victims
	for p in $victims; do while kill -0 "$p" 2>/dev/null; do sleep 0.05; done; done
	wait "${pids[@]}" 2>/dev/null
	inflight=$((inflight + CLIENTS))
	acks=$(cat "$work"/acks.$round.* | wc -l)
	echo "round $round: $CLIENTS clients for ${SECS}s, $running still writing at the kill -9 of the postmaster and its $(($(wc -w <<<"$victims") - 1)) children; $acks writes acknowledged"
	if grep -h "ERROR" "$work"/err.$round.*; then
		echo "FAIL a client met an error before the crash"
		failures=$((failures + 1))
	fi
	if [ "$running" -ne "$CLIENTS" ] || [ "$acks" -lt $((CLIENTS * 20)) ]; then
		echo "FAIL the load was not running at the crash"
		failures=$((failures + 1))
	fi
	if ! start; then
		echo "FAIL no restart after the crash:"
		tail -20 "$work/server.log"
		exit 1
	fi
	grep -E "redo (starts|done)" "$work/server.log" | tail -2 | sed 's/^.*LOG: */  recovery: /'
	check || failures=$((failures + 1))
done
[ "$failures" -eq 0 ]
