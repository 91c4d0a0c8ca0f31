#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# DPDK's own rawdev_autotest (dpdk-test, Debian package dpdk-dev) on small
# but valid ISM devices: it runs rte_rawdev_selftest() on every rawdev, so
# the selftest must fit any configuration (1-byte DMBs, a single DMB).
#   rawdev_autotest.sh <PMD plugin> <file-prefix tag>
# Exit 77 (skipped) when dpdk-test is not installed.
set -u
pmd=$1
tag=$2

dpdk_test=$(command -v dpdk-test) || {
	echo "SKIP: dpdk-test not found (Debian package dpdk-dev)"
	exit 77
}
dir=$(mktemp -d /tmp/ism-rawdev-autotest.XXXXXX) || exit 1
log=$dir/log
prefix=ism-rawdev-$tag-$$
# EAL's runtime directory, which dpdk-test leaves behind (--no-shconf
# still makes it, for the telemetry socket).
if [ "$(id -u)" = 0 ]; then
	rundir=/var/run/dpdk/$prefix
else
	rundir=${XDG_RUNTIME_DIR:-/tmp}/dpdk/$prefix
fi
trap 'rm -rf "$dir" "$rundir"' EXIT

# Each device name must appear with "Passed": a plugin that did not load
# would make the test pass on the skeleton rawdev alone.
devs="ism_lo0 ism_lo1 ism_lo2 ism_shm0"
DPDK_TEST=rawdev_autotest timeout 120 "$dpdk_test" -l 0 --no-huge -m 512 \
	--no-pci --no-shconf --file-prefix "$prefix" -d "$pmd" \
	--vdev=ism_lo0,max_dmb_len=64 \
	--vdev=ism_lo1,max_dmb_len=1,max_dmbs=1 \
	--vdev=ism_lo2 \
	--vdev="ism_shm0,dir=$dir/fabric,max_dmb_len=1,max_dmbs=1" \
	</dev/null >"$log" 2>&1
rc=$?
cat "$log"
if [ $rc -ne 0 ]; then
	echo "FAIL: rawdev_autotest exited with $rc"
	exit 1
fi
for d in $devs; do
	grep -q "($d) selftest: Passed" "$log" || {
		echo "FAIL: no passed selftest of $d"
		exit 1
	}
done
echo "PASS: rawdev_autotest on $devs"
