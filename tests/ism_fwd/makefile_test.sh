#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Build examples/ism_fwd out of tree with its Makefile (pkg-config only)
# against a scratch `meson install`, then run it once.
#   makefile_test.sh <build dir> <examples/ism_fwd dir>
set -eu
build=$(cd "$1" && pwd)
src=$2
eal_py=$(cd "$(dirname "$0")/../lib" && pwd)/ism_eal.py

# The staged install (tests/install/stage.sh): dest, pc_dir, libdir,
# PKG_CONFIG_PATH with libdpdk-ism.pc first; the user's install log kept.
here=$(cd "$(dirname "$0")/../install" && pwd)
. "$here/stage.sh"
stage_install "$build" ism-fwd-make
cp -r "$src" "$dest/ism_fwd"
rm -rf "$dest/ism_fwd/build"
make -s -C "$dest/ism_fwd"

# The binary finds the PMD, librte_ism and librte_ism_ring through its run
# paths alone, as a user's program in a prefix of its own must
# (LD_LIBRARY_PATH hid a missing one). A DPDK outside the loader's paths
# (DPDK_LIBDIR: the tests of other DPDK versions) is found as for any DPDK
# program, through LD_LIBRARY_PATH naming its libdir and nothing else.
# tests/lib/ism_eal.py adds a --file-prefix of its own, bounds the run and
# removes the runtime directory.
env -u LD_LIBRARY_PATH ${DPDK_LIBDIR:+LD_LIBRARY_PATH="$DPDK_LIBDIR"} \
	python3 "$eal_py" run \
	--quiet --tag rel --name fwd-make --timeout 60 -- \
	"$dest/ism_fwd/build/dpdk-ism_fwd" -l 0 --no-huge -m 256 --no-shconf \
	--no-pci --vdev ism_lo0,gid=0x1 -- \
	--peer-gid 0x1 --fwd-mode loopback-check --nb-pkts 10000 \
	--stats-period 0 > "$dest/run.log" 2>&1 && rc=0 || rc=$?
[ "$rc" = 0 ] &&
grep -q 'loopback-check ok 10000 lost 0 corrupt 0' "$dest/run.log" || {
	cat "$dest/run.log"
	echo "FAIL: the Makefile-built binary did not pass loopback-check" \
		"(exit status $rc)"
	exit 1
}
echo "PASS"
