#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Run multi-process test suites again and again on a loaded machine: one
# CPU burner per core competes with the test processes, so a test that
# relies on how fast a peer runs shows up as a failure.
#
#   devtools/stress-mp.sh [-n RUNS] [-C BUILD] [SUITE ...]
#
# Default: 20 runs of the suites shm and ism_fwd in build/. Prints one line
# per run and the pass count of each test; exit status 1 if any run failed.
set -u
runs=20
build=build
while getopts n:C: o; do
	case $o in
	n) runs=$OPTARG ;;
	C) build=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- shm ism_fwd

burners=""
cleanup() {
	[ -n "$burners" ] && kill $burners 2>/dev/null
}
trap cleanup EXIT INT TERM
for _ in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	burners="$burners $!"
done

log=$(mktemp -d /tmp/stress-mp.XXXXXX)
for i in $(seq "$runs"); do
	for s in "$@"; do
		meson test -C "$build" --suite "$s" --print-errorlogs \
			>"$log/run-$i-$s.log" 2>&1
		# Up to meson's "Summary of Failures", which lists each
		# failed test a second time.
		sed '/^Summary of Failures/q' "$log/run-$i-$s.log" |
			grep -E '^ *[0-9]+/[0-9]+ ' |
			sed "s/^/run $i: /"
	done
done | tee "$log/all"
echo "--- pass counts over $runs runs, $(nproc) CPU burners ($log)"
awk '{ name = $6; ok = ($7 == "OK"); total[name]++; pass[name] += ok }
	END { for (n in total) printf "%-40s %d/%d\n", n, pass[n], total[n] }' \
	"$log/all" | sort
! awk '$7 != "OK" && $7 != "SKIP" { bad = 1 } END { exit !bad }' "$log/all"
