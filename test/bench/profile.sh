#!/usr/bin/env bash
# test/bench/profile.sh: where a request's time goes in hroe's in-server HTTP
# workers (src/http/http_server.c), in instructions counted by valgrind's
# callgrind (this machine's kernel gives perf no hardware counters, and an
# instruction count, unlike a time, does not move with the machine's load).
#
#   HROE_PGPORT=5896 make bench BENCH=profile
#   (or: bash test/bench/run.sh profile; HROE_BENCH_BEFORE=<commit>: that
#   commit's hroe too, built without assertions from git archive into a stage
#   of its own, profiled first, in the same run; HROE_BENCH_HTTP_PORT: the
#   workers' port, default a free one; HROE_BENCH_N: requests counted, 300;
#   HROE_BENCH_OPS: the kinds profiled, "DescribeEndpoints GetItem PutItem")
#
# A cluster of its own (initdb, fsync on, autovacuum off) loads the table
# "bench" of test/bench/api_data.sql (200 customers x 10 orders) and a key,
# then runs under valgrind --tool=callgrind with one in-server HTTP worker
# (hroe.http_workers = 1).  test/bench/profile_client.py sends requests of
# one kind, one at a time over one keep-alive connection, every one signed
# afresh and its answer checked: 50 on one start of the server, 50 + N on
# another; the worker's count (written when it exits) over the second run
# less that over the first, over N, is a request's (the server's start and
# the first requests' cache fills cancel).  Left out (--toggle-collect): the
# throttle's settings, read again once a second (src/tables/throttle.c,
# LoadSettings), which under valgrind's slowdown would come every few dozen
# requests instead of every few thousand.  The kinds:
#   DescribeEndpoints  answered by the worker itself once the signature is
#                      checked: the HTTP and SigV4 floor of any request
#   GetItem, PutItem   one item (random key) of "bench"
#   UpdateItem         one attribute of one item, as YCSB updates (PUT)
#   Query              one customer's orders (10 items)
# and the ceiling of a libpq request: pgbench -M prepared "SELECT 1", its
# backend's count over 1100 transactions less that over 100 (the connection's
# own cost cancels).  Instructions are user-space only (callgrind does not see
# the kernel: the syscalls' own cost is not in the figures).
# test/bench/profile_report.py sorts each function's own instructions
# ("self") into categories and prints a Markdown table of instructions per
# request.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
N=${HROE_BENCH_N:-300}
OPS=${HROE_BENCH_OPS:-DescribeEndpoints GetItem PutItem}
export HROE_BENCH_OPS=$OPS
WARM=50
CUSTOMERS=200
BIN=/usr/lib/postgresql/15/bin
command -v valgrind >/dev/null || apt-get install -y -qq valgrind >/dev/null
out=$root/test/bench/out/profile
rm -rf "$out"
mkdir -p "$out"
chmod 777 "$out"
free() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
HTTP_PORT=${HROE_BENCH_HTTP_PORT:-$(free)}
PGPORT_BASE=${HROE_PGPORT:-5432}
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

# (--collect-atstart after --toggle-collect: the latter sets it to no)
# vg_start DIR OPTION...: DIR's server under callgrind (every process of it:
# forks are followed, each writes DIR/cg/cg.PID when it exits); wpid: its
# HTTP worker
vg_start() {
	local dir=$1
	shift
	(cd "$dir" && as_pg valgrind --tool=callgrind --callgrind-out-file="$dir/cg/cg.%p" --dump-instr=no --toggle-collect=LoadSettings --collect-atstart=yes \
		--log-file="$dir/valgrind.%p.log" "$BIN/postgres" -D "$dir/data" "$@" >>"$dir/server.log" 2>&1) &
	vg_pid=$!
	vg_dir=$dir
	for _ in $(seq 600); do (echo >/dev/tcp/127.0.0.1/"$HTTP_PORT") 2>/dev/null && break; sleep 0.5; done
	wpid=$(psql -XAt -d hroe_bench_profile -c "SELECT pid FROM pg_stat_activity WHERE backend_type LIKE 'hroe http%'")
	[ -n "$wpid" ] || { echo "no HTTP worker" >&2; tail "$dir/server.log" >&2; exit 1; }
}
trap '[ -n "${vg_dir:-}" ] && as_pg "$BIN/pg_ctl" -D "$vg_dir/data" -m immediate stop >/dev/null 2>&1 || true' EXIT
vg_stop() {
	as_pg "$BIN/pg_ctl" -D "$1/data" -w -t 300 -m fast stop >/dev/null
	wait "$vg_pid" 2>/dev/null || true
}

# profile LABEL STAGE: one tree's figures into $out/LABEL/
profile() {
	local stage=$2 dir=$out/$1 pkglib sock
	pkglib=$(pg_config --pkglibdir)
	mkdir -p "$dir/cg"
	chmod -R 777 "$dir"
	sock=$dir
	as_pg "$BIN/initdb" -D "$dir/data" -A trust -U postgres --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1
	local opts=(-c port="$PGPORT_BASE" -c listen_addresses= -c unix_socket_directories="$sock"
		-c extension_destdir="$stage" -c shared_preload_libraries="$stage$pkglib/hroe.so"
		-c fsync=on -c autovacuum=off -c jit=off -c huge_pages=off
		-c hroe.http_port="$HTTP_PORT" -c hroe.http_workers=1 -c hroe.http_role=postgres
		-c hroe.http_database=hroe_bench_profile)
	export PGHOST=$sock PGPORT=$PGPORT_BASE PGUSER=postgres
	# the data and the key, on the server run natively
	as_pg "$BIN/pg_ctl" -D "$dir/data" -l "$dir/load.log" -w -t 120 -o "${opts[*]}" start >/dev/null
	psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "CREATE DATABASE hroe_bench_profile"
	psql -X -q -v ON_ERROR_STOP=1 -v customers=$CUSTOMERS -d hroe_bench_profile -f test/bench/api_data.sql >/dev/null
	psql -X -q -v ON_ERROR_STOP=1 -d hroe_bench_profile -c "SELECT hroe.create_access_key(current_user::regrole, 'profkey', 'profsecret')" >/dev/null
	psql -X -q -d hroe_bench_profile -c CHECKPOINT
	as_pg "$BIN/pg_ctl" -D "$dir/data" -w -m fast stop >/dev/null
	local op k
	for op in $OPS; do
		for k in $WARM $((WARM + N)); do
			vg_start "$dir" "${opts[@]}"
			python3 test/bench/profile_client.py "127.0.0.1:$HTTP_PORT" profkey profsecret "$op" "$k" "$CUSTOMERS"
			vg_stop "$dir"
			cp "$dir/cg/cg.$wpid" "$dir/$op-$k.cg"
		done
	done
	# SELECT 1 over libpq: pgbench's backend, the largest of the new dumps
	echo 'SELECT 1;' >"$dir/select1.sql"
	vg_start "$dir" "${opts[@]}"
	for k in 100 1100; do
		ls "$dir/cg" >"$dir/cg.before"
		pgbench -n -M prepared -c 1 -t $k -f "$dir/select1.sql" hroe_bench_profile >/dev/null
		sleep 3
		best='' max=-1
		for f in "$dir"/cg/cg.*; do
			grep -qxF "${f##*/}" "$dir/cg.before" && continue
			t=$(sed -n 's/^totals: //p' "$f")
			[ "${t:-0}" -gt "$max" ] && { max=${t:-0}; best=$f; }
		done
		cp "$best" "$dir/select1-$k.cg"
	done
	vg_stop "$dir"
	# with the names the file was written with (hroe.so from its stage)
	for f in "$dir"/*.cg; do
		callgrind_annotate --threshold=100 --inclusive=no "$f" >"${f%.cg}.txt"
	done
}

labels=()
if [ -n "${HROE_BENCH_BEFORE:-}" ]; then
	rev=$(git rev-parse --short "$HROE_BENCH_BEFORE")
	src=$out/src-$rev
	mkdir -p "$src" "$out/stage-$rev"
	git archive "$rev" | tar -x -C "$src"
	(cd "$src" && make -s -j2 >/dev/null && make -s install DESTDIR="$out/stage-$rev" >/dev/null)
	chmod -R a+rX "$out"
	profile "$rev" "$out/stage-$rev"
	labels+=("$rev")
fi
now=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src protocol || echo +)
profile "$now" "${HROE_STAGE:?test/bench/run.sh sets it}"
labels+=("$now")
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 test/bench/profile_report.py "$out" "$WARM" "$N" "${labels[@]}"
