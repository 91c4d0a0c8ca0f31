#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Runs the whole benchmark suite (app/test-ism/perf.ini) on this machine and
# writes, into the results directory:
#   perf.csv    every figure with its reference and ratio
#   perf.log    what dpdk-test-ism-perf printed (the readable tables)
#   *.png       charts (gnuplot)
#   summary.md  the targets and the tables of ratios; printed at the end
#
#   devtools/bench.sh [-o DIR] [-c CONFIG] [-l LCORES]
#     -o DIR     results directory (default build/perf-results)
#     -c CONFIG  perf configuration (default app/test-ism/perf.ini)
#     -l LCORES  EAL lcore list, two lcores (default 0,1)
# Environment: BUILD (default build), the build directory; it is set up
# and built if needed (after devtools/setup.sh has run once).
#
# The host-noise cases (noise_before, noise_after) say how far the figures
# can be trusted: on a VM whose vCPUs run less than ~97 % of the time the
# cross-core figures are not meaningful; run again when the host is quiet.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
out=$BUILD/perf-results
config=$top/app/test-ism/perf.ini
lcores=0,1

while getopts o:c:l:h opt; do
	case $opt in
	o) out=$OPTARG ;;
	c) config=$OPTARG ;;
	l) lcores=$OPTARG ;;
	*) sed -n '3,20s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done

if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD" >/dev/null
fi
ninja -C "$BUILD" >/dev/null
app=$BUILD/app/test-ism/dpdk-test-ism-perf

mkdir -p "$out"
rm -f "$out"/perf.csv "$out"/*.png "$out"/summary.md
start=$(date +%s)
# Each case runs in its own process with --file-prefix PREFIX-CASE; the
# harness (tests/lib/ism_eal.py) sets PREFIX, bounds the run and removes
# the runtime directories afterwards.
status=0
python3 "$top/tests/lib/ism_eal.py" run --tag bench --name perf \
	--timeout 7200 -- "$app" -l "$lcores" --no-huge -m 1024 --no-pci \
	--no-shconf --log-level=lib.eal:warning -- \
	--config "$config" --csv "$out/perf.csv" \
	>"$out/perf.log" 2>&1 || status=$?
cat "$out/perf.log"
end=$(date +%s)
if [ "$status" != 0 ] && [ "$status" != 77 ]; then
	echo "bench: a case failed (exit $status); see $out/perf.log" >&2
fi

python3 "$top/devtools/bench_report.py" --csv "$out/perf.csv" \
	--config "$config" --out "$out" --seconds $((end - start)) \
	--command "devtools/bench.sh${*:+ $*}"
echo
cat "$out/summary.md"
echo
echo "bench: results in $out (perf.csv, perf.log, summary.md, *.png)"
exit "$status"
