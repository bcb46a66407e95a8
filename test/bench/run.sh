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
		names+=("$(basename "$f" .sh)")
	done
fi

ensure_packages
HROE_EXTRA_PACKAGES="postgresql-contrib" ensure_packages
build_stage
mkdir -p test/bench/out
exec 9>/tmp/hroe-bench.lock
flock 9
export HROE_CLUSTER_OPTS="-o shared_buffers=2GB -o max_wal_size=8GB -o maintenance_work_mem=1GB -o work_mem=64MB -o jit=off"
for name in "${names[@]}"; do
	echo "## benchmark: $name ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
	in_cluster bash "test/bench/$name.sh"
done
