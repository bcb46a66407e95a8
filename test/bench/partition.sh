#!/usr/bin/env bash
# test/bench/partition.sh: the per-request cost of a remote partition
# (doc/partitioning.md): GetItem, Query (10 items), a Scan page (1 MB, from a
# random ExclusiveStartKey) and PutItem through hroe.dynamodb on a local table
# and on the same table partitioned over two partition servers
# (test/lib_partition.sh; three clusters of test/lib_cluster.sh on this
# machine, Unix sockets), one pgbench client, each for HROE_BENCH_SECONDS
# (default 15), on tables of HROE_BENCH_ITEMS items of about 250 bytes
# (default 10000; 10 items per partition key), loaded by INSERT ... SELECT
# (the distributed table's through postgres_fdw with batch_size 1000).
#
# With HROE_BENCH_BEFORE=<commit>, the same requests also run on that
# commit's hroe (exported with git archive, built without assertions into a
# stage of its own), first, on clusters of their own: one table, before and
# after, side by side.
#
# With HROE_BENCH_TRACE=1, also where a remote GetItem's time goes: the
# statements postgres_fdw runs on the partition servers for it, with their
# durations (log_min_duration_statement = 0), and the remote statement on a
# partition server planned at every call against prepared once.
#
# With HROE_BENCH_PERF=1, also perf's profile of the coordinator's and the
# partition servers' backends during remote GetItems (perf_getitem below).
#
# Prints a Markdown table: the median and mean latency of each cell and the
# distributed table's median over the local one's.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. test/lib_cluster.sh
. test/lib_partition.sh
seconds=${HROE_BENCH_SECONDS:-15}
items=${HROE_BENCH_ITEMS:-10000}
base=${HROE_PARTITION_PORT:-5835}
opts=(-c shared_buffers=512MB -c jit=off -c max_wal_size=4GB)
out=$(mktemp -d /tmp/hroe-bench-partition.XXXXXX)
chmod 755 "$out"
trap 'rm -rf "$out"' EXIT

# bench_tree LABEL: the cells on hroe from $HROE_STAGE, as lines
# "LABEL op table median_ms mean_ms tps" in $out/results
bench_tree() (
	label=$1
	cluster_setup
	cluster_init coord "$base"
	cluster_start coord "${opts[@]}"
	cluster_init part1 $((base + 1))
	cluster_start part1 "${opts[@]}"
	cluster_init part2 $((base + 2))
	cluster_start part2 "${opts[@]}"
	db=hroe_bench
	partition_setup coord "$db" part1 part2
	C() { cluster_psql coord -d "$db" "$@"; }
	create='{"TableName": "%s", "BillingMode": "PAY_PER_REQUEST",
	 "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"}, {"AttributeName": "s", "AttributeType": "N"}],
	 "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}]}'
	# the local table: created with hroe.partition_servers empty
	C -c "SET hroe.partition_servers = ''" -c "SELECT hroe.dynamodb('CreateTable', format('$create', 'Local')::jsonb)" >/dev/null
	C -c "SELECT hroe.dynamodb('CreateTable', format('$create', 'Dist')::jsonb)" >/dev/null
	t0=$(date +%s)
	C -c "INSERT INTO public.\"Local\" (item) SELECT jsonb_build_object(
		'p', jsonb_build_object('S', 'p' || i / 10), 's', jsonb_build_object('N', (i % 10)::text),
		'payload', jsonb_build_object('S', repeat('x', 200)))::hroe.item
		FROM generate_series(0, $items - 1) i"
	t1=$(date +%s)
	for p in part1 part2; do
		C -c "ALTER SERVER $p OPTIONS (ADD batch_size '1000')"
	done
	C -c 'INSERT INTO public."Dist" (item) SELECT item FROM public."Local"'
	for p in part1 part2; do
		C -c "ALTER SERVER $p OPTIONS (DROP batch_size)"
	done
	t2=$(date +%s)
	# (every item there: on the servers, where the partitions are)
	[ "$(C -c 'SELECT count(*) FROM public."Local"')" = "$items" ] &&
		[ $(($(cluster_psql part1 -d "$db" -c 'SELECT count(*) FROM public."Dist"') +
			$(cluster_psql part2 -d "$db" -c 'SELECT count(*) FROM public."Dist"'))) = "$items" ] ||
		{ echo "$label: the tables do not hold $items items each" >&2; exit 1; }
	C -c "VACUUM ANALYZE"
	cluster_psql part1 -d "$db" -c "VACUUM ANALYZE"
	cluster_psql part2 -d "$db" -c "VACUUM ANALYZE"
	# (postgres_fdw's estimates of the partitions: a database-wide ANALYZE
	# skips foreign tables, doc/partitioning.md)
	C -c 'ANALYZE public."Dist#0", public."Dist#1"'
	echo "$label: $items items loaded in $((t1 - t0)) s (local), $((t2 - t1)) s (distributed)" >&2
	echo "$label: cells begin, load average $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load"
	for op in GetItem Query Scan PutItem; do
		for t in Local Dist; do
			case $op in
			GetItem) body="{\"TableName\": \"$t\", \"Key\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}}}" ;;
			Query) body="{\"TableName\": \"$t\", \"KeyConditionExpression\": \"p = :p\", \"ExpressionAttributeValues\": {\":p\": {\"S\": \"p' || :k || '\"}}}" ;;
			Scan) body="{\"TableName\": \"$t\", \"ExclusiveStartKey\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}}}" ;;
			PutItem) body="{\"TableName\": \"$t\", \"Item\": {\"p\": {\"S\": \"p' || :k || '\"}, \"s\": {\"N\": \"3\"}, \"payload\": {\"S\": \"y\"}}}" ;;
			esac
			printf '\\set k random(0, %d)\nSELECT hroe.dynamodb(%s, (%s)::jsonb);\n' $((items / 10 - 1)) "'$op'" "'$body'" >"$CLUSTER_WORK/$op-$t.sql"
			rm -f "$CLUSTER_WORK"/log.*
			res=$(cd "$CLUSTER_WORK" && cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir coord)" -p "$(cluster_port coord)" -U postgres \
				-M simple -c 1 -T "$seconds" -l --log-prefix=log -f "$CLUSTER_WORK/$op-$t.sql" "$db" 2>&1) ||
				{ echo "$res" >&2; exit 1; }
			tps=$(echo "$res" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
			mean=$(echo "$res" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
			[ -n "$tps" ] || { echo "$res" >&2; exit 1; }
			# the median of the per-request latencies (microseconds, field 3)
			median=$(cat "$CLUSTER_WORK"/log.* | awk '{ print $3 }' | sort -n |
				awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / 1000 }')
			echo "$label $op $t $median $mean $tps" >>"$out/results"
		done
	done
	echo "$label: cells end, load average $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load"
	[ -n "${HROE_BENCH_PERF:-}" ] && perf_remote
	[ "${2:-}" = trace ] || exit 0
	# Where a remote GetItem's time goes: every statement the partition
	# servers run, with its duration (log_min_duration_statement = 0, for the
	# new connections of the next pgbench run), per GetItem
	for p in part1 part2; do
		cluster_psql $p -d "$db" -c "ALTER DATABASE \"$db\" SET log_min_duration_statement = 0"
		wc -c <"$CLUSTER_WORK/$p/server.log" >"$CLUSTER_WORK/$p.offset"
	done
	n=2000
	res=$(cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir coord)" -p "$(cluster_port coord)" -U postgres \
		-M simple -c 1 -t $n -f "$CLUSTER_WORK/GetItem-Dist.sql" "$db" 2>&1) || { echo "$res" >&2; exit 1; }
	mean=$(echo "$res" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p')
	for p in part1 part2; do
		cluster_psql $p -d "$db" -c "ALTER DATABASE \"$db\" RESET log_min_duration_statement"
		tail -c +$(($(cat "$CLUSTER_WORK/$p.offset") + 1)) "$CLUSTER_WORK/$p/server.log"
	done | awk -v n=$n -v mean="$mean" -v label="$label" '
		/duration: [0-9.]+ ms/ {
			match($0, /duration: [0-9.]+ ms/)
			d = substr($0, RSTART + 10, RLENGTH - 13)
			if (/statement: START TRANSACTION/) k = "START TRANSACTION ISOLATION LEVEL REPEATABLE READ"
			else if (/parse <unnamed>: DECLARE/) k = "DECLARE c1 CURSOR FOR SELECT ...: parse (and plan)"
			else if (/bind <unnamed>: DECLARE/) k = "DECLARE: bind"
			else if (/execute <unnamed>: DECLARE/) k = "DECLARE: execute"
			else if (/statement: FETCH/) k = "FETCH 1000 FROM c1"
			else if (/statement: CLOSE/) k = "CLOSE c1"
			else if (/statement: COMMIT/) k = "COMMIT TRANSACTION"
			else if (/statement: SET search_path/) k = "SET search_path (once per connection)"
			else if (/parse hroe_r[0-9]+: /) k = "hroe'"'"'s statement: parse and plan (once per connection)"
			else if (/bind hroe_r[0-9]+: /) k = "hroe'"'"'s statement: bind"
			else if (/execute hroe_r[0-9]+: /) k = "hroe'"'"'s statement: execute"
			else if (/statement: ALTER DATABASE/) next
			else { k = substr($0, RSTART + RLENGTH + 2, 60); gsub(/\|/, "\\|", k); k = "other: " k }
			if (!(k in cnt)) order[++m] = k
			cnt[k]++; sum[k] += d; total += d
		}
		END {
			printf "\nWhere a remote GetItem goes (%s): %d GetItems (one client, mean %s ms); each statement the partition servers ran (log_min_duration_statement = 0)\n\n", label, n, mean
			print "| statement on the partition server | count | server time per GetItem (ms) |"
			print "|---|---:|---:|"
			for (i = 1; i <= m; i++) printf "| %s | %d | %.4f |\n", order[i], cnt[order[i]], sum[order[i]] / n
			printf "| all | | %.4f |\n", total / n
		}' >>"$out/trace"
	# the remote statement planned at every call (as postgres_fdw sends it)
	# and prepared once, on a partition server, one key of its own
	cluster_psql part1 -d "$db" -c "SELECT format('SELECT item FROM public.\"Dist\" WHERE ((pk OPERATOR(hroe.=) %L::hroe.key)) AND ((sk = %L::numeric));', pk, sk)
		FROM public.\"Dist\" LIMIT 1" >"$CLUSTER_WORK/remote.sql"
	{
		echo
		echo "The remote GetItem statement of postgres_fdw on a partition server ($label), one client, $seconds s each (and hroe.item_by_key's, where the hroe has it):"
		echo
		echo "| protocol | mean latency (ms) |"
		echo "|---|---:|"
	} >>"$out/trace"
	for mode in simple prepared; do
		res=$(cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir part1)" -p "$(cluster_port part1)" -U postgres \
			-M $mode -c 1 -T "$seconds" -f "$CLUSTER_WORK/remote.sql" "$db" 2>&1) || { echo "$res" >&2; exit 1; }
		echo "| $([ $mode = simple ] && echo 'planned at every call (-M simple)' || echo 'prepared once (-M prepared)') | $(echo "$res" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p') |"
	done >>"$out/trace"
	# and the own path's GetItem statement, hroe.item_by_key, for the same key
	# (a hroe that has it, by the table's name)
	if [ "$(cluster_psql part1 -d "$db" -c "SELECT to_regprocedure('hroe.item_by_key(text,\"any\")') IS NOT NULL")" = t ]; then
		cluster_psql part1 -d "$db" -c "SELECT format('SELECT hroe.item_by_key(%L, %L::hroe.key, %L::numeric);', 'Dist', pk, sk)
			FROM public.\"Dist\" LIMIT 1" >"$CLUSTER_WORK/remote_fn.sql"
		res=$(cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir part1)" -p "$(cluster_port part1)" -U postgres \
			-M prepared -c 1 -T "$seconds" -f "$CLUSTER_WORK/remote_fn.sql" "$db" 2>&1) || { echo "$res" >&2; exit 1; }
		echo "| hroe.item_by_key, the own path's statement: prepared once (-M prepared) | $(echo "$res" | sed -n 's/^latency average = \([0-9.]*\) ms/\1/p') |" >>"$out/trace"
	fi
)

# With HROE_BENCH_PERF=1 (or =Query, =Scan; inside bench_tree): where a
# remote GetItem's (Query's, Scan page's) CPU time goes, on the coordinator's
# backend and on the partition servers' backends answering it: perf record
# of them during a pgbench run of the distributed table's cell ($seconds s),
# the samples by process and shared object, then by function (self time, the
# top entries)
perf_remote() {
	local pgb cpid spid srv op=GetItem
	[ "$HROE_BENCH_PERF" = 1 ] || op=$HROE_BENCH_PERF
	cluster_as_owner "$CLUSTER_BIN/pgbench" -n -h "$(cluster_dir coord)" -p "$(cluster_port coord)" -U postgres \
		-M simple -c 1 -T $((seconds + 2)) -f "$CLUSTER_WORK/$op-Dist.sql" "$db" >/dev/null 2>&1 &
	pgb=$!
	sleep 1
	cpid=$(C -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench'")
	# (the busier of the two servers' hroe_remote_read backends)
	spid=""
	for srv in part1 part2; do
		spid="$spid $(cluster_psql $srv -d "$db" -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'hroe_remote_read'")"
	done
	spid=$(echo $spid | tr ' ' ',')
	perf record -q -g -o "$out/perf.data" -p "$cpid,$spid" -- sleep "$seconds" >/dev/null 2>&1 ||
		{ echo "perf record failed" >&2; wait $pgb; return 0; }
	wait $pgb || true
	{
		echo
		echo "Where a remote $op's CPU time goes ($label; perf record -g, $seconds s of one pgbench client's ${op}s of the distributed table; process $cpid the coordinator's backend, the others the partition servers'; self time by process and shared object, entries of 0.5 % and more, then by function, 1 % and more):"
		echo
		echo '```'
		perf report -i "$out/perf.data" --no-children --sort pid,dso --percent-limit 0.5 --stdio 2>/dev/null |
			grep -E '^ +[0-9.]+%' | sed 's/  */ /g'
		echo
		perf report -i "$out/perf.data" --no-children --sort pid,dso,sym --percent-limit 1 --stdio 2>/dev/null |
			grep -E '^ +[0-9.]+%' | sed 's/  */ /g'
		echo '```'
	} >>"$out/perf"
}

labels=()
if [ -n "${HROE_BENCH_BEFORE:-}" ]; then
	rev=$(git rev-parse --short "$HROE_BENCH_BEFORE")
	src=$out/src-$rev
	mkdir -p "$src" "$out/stage-$rev"
	git archive "$rev" | tar -x -C "$src"
	(cd "$src" && make -s -j2 >/dev/null && make -s install DESTDIR="$out/stage-$rev" >/dev/null)
	chmod -R a+rX "$out"
	HROE_STAGE=$out/stage-$rev bench_tree "$rev" $([ "${HROE_BENCH_TRACE:-}" = 1 ] && echo trace)
	labels+=("$rev")
fi
now=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo +)
bench_tree "$now" $([ "${HROE_BENCH_TRACE:-}" = 1 ] && echo trace)
labels+=("$now")

cell() { awk -v l="$1" -v o="$2" -v t="$3" -v f="$4" '$1 == l && $2 == o && $3 == t { print $f }' "$out/results"; }
name() { case $1 in Scan) echo 'Scan page (1 MB)' ;; Query) echo 'Query (10 items)' ;; *) echo "$1" ;; esac; }
echo "$items items, $seconds s per cell, one client; latencies in ms"
echo
printf '| request |'
for l in "${labels[@]}"; do printf ' %s: local median (mean) | %s: 2 servers median (mean) | %s: ratio |' "$l" "$l" "$l"; done
echo
printf '|---|'
for l in "${labels[@]}"; do printf -- '---:|---:|---:|'; done
echo
for op in GetItem Query Scan PutItem; do
	printf '| %s |' "$(name $op)"
	for l in "${labels[@]}"; do
		lm=$(cell "$l" $op Local 4)
		dm=$(cell "$l" $op Dist 4)
		printf ' %s (%s) | %s (%s) | %s |' "$lm" "$(cell "$l" $op Local 5)" "$dm" "$(cell "$l" $op Dist 5)" \
			"$(awk -v a="$dm" -v b="$lm" 'BEGIN { printf "%.2f", a / b }')"
	done
	echo
done
echo
sed 's/^/- /' "$out/load"
[ -f "$out/trace" ] && cat "$out/trace"
[ -f "$out/perf" ] && cat "$out/perf"
exit 0
