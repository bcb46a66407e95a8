#!/usr/bin/env bash
# test/bench/run.sh [NAME ...]: runs the benchmarks test/bench/NAME.sh (all of
# them by default), each on a throwaway cluster, with hroe built without
# assertions. Every benchmark prints a Markdown table of its figures and may
# write CSV files under test/bench/out/. Benchmarks are not tests: they assert
# nothing about timings. One benchmark runs at a time on a machine (a lock
# file), because these machines are small and noisy.
set -euo pipefail
cd "$(dirname "$0")/../.."
. test/lib.sh

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for f in test/bench/*.sh; do
		[ "$(basename "$f")" = run.sh ] && continue
		# the conformance comparison needs a checkout of the suite
		[ "$(basename "$f")" = conformance.sh ] && [ -z "${SUITE:-}" ] && continue
		names+=("$(basename "$f" .sh)")
	done
fi

ensure_packages
HROE_EXTRA_PACKAGES="postgresql-contrib" ensure_packages
# perf, for test/bench/partition.sh's HROE_BENCH_PERF=1
[ "${HROE_BENCH_PERF:-}" = 1 ] && HROE_EXTRA_PACKAGES="linux-perf" ensure_packages
build_stage
mkdir -p test/bench/out
exec 9>/tmp/hroe-bench.lock
flock 9
export HROE_CLUSTER_OPTS="-o shared_buffers=2GB -o max_wal_size=8GB -o maintenance_work_mem=1GB -o work_mem=64MB -o jit=off"
for name in "${names[@]}"; do
	echo "## benchmark: $name ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
	if [ "$name" = conformance ]; then
		# its servers start clusters of their own (test/serve.sh)
		bash test/bench/conformance.sh
		continue
	fi
	if [ "$name" = profile ]; then
		# its server runs under valgrind: a cluster of its own
		HROE_STAGE=$HROE_STAGE bash test/bench/profile.sh
		continue
	fi
	if [ "$name" = gateway ] || [ "$name" = ycsb ] || [ "$name" = bigtable ]; then
		# its cluster also serves hroe's in-server HTTP endpoint (on the
		# database it creates: the workers connect once it exists), on
		# HROE_BENCH_HTTP_PORT if set, else a free port; HROE_BENCH_HTTP_WORKERS
		# in-server HTTP workers (4; for ycsb, whose tables fit in memory, one
		# a core: a worker runs each request itself, and more workers than
		# cores only switch between them)
		HROE_BENCH_HTTP_PORT=${HROE_BENCH_HTTP_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
		export HROE_BENCH_HTTP_PORT
		opts=$HROE_CLUSTER_OPTS
		# bigtable's bulk load writes its table without WAL (created in the
		# loading transaction): wal_level minimal, so no WAL sender
		[ "$name" = bigtable ] && opts="$opts -o wal_level=minimal -o max_wal_senders=0"
		workers=${HROE_BENCH_HTTP_WORKERS:-4}
		[ "$name" = ycsb ] && workers=${HROE_BENCH_HTTP_WORKERS:-$(nproc)}
		HROE_CLUSTER_OPTS="$opts -o hroe.http_port=$HROE_BENCH_HTTP_PORT -o hroe.http_workers=$workers -o hroe.http_role=postgres -o hroe.http_database=hroe_bench_$name" \
			in_cluster bash "test/bench/$name.sh"
		continue
	fi
	in_cluster bash "test/bench/$name.sh"
done
