#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The tree on s390x (IBM Z, big-endian) under QEMU's user-mode emulator:
# cross-built with platform/s390x/s390x-linux-gnu.ini against DPDK 25.11
# with the s390x port (devtools/dpdk-version.sh's cache), warnings as
# errors, then the suites that user-mode emulation can run (the list is in
# doc/guides/platform/ibm_z.rst with what cannot run and why). Skipped
# (77) when the cross compiler, the emulator or that DPDK is not there.
#   s390x_test.sh <source root> <build dir> [full|build]
# (build: only the cross build, for the s390x guest test of make test-emul,
# tests/vm/s390x/s390x_dpdk_test.py.)
set -eu
src=$1
out=$2
full=${3:-}
dv=$src/devtools/dpdk-version.sh
ver=25.11-s390x

for p in s390x-linux-gnu-gcc qemu-s390x-static; do
	if ! command -v $p >/dev/null; then
		echo "SKIP: no $p; 'devtools/setup.sh s390x' installs it"
		exit 77
	fi
done
if ! "$dv" find "$ver" >/dev/null; then
	echo "SKIP: DPDK $ver is not built on this machine;" \
		"'make s390x' builds it (once) and runs this test"
	exit 77
fi
eval "$("$dv" env "$ver")"
echo "DPDK $ver is $DPDK_VERSION with the port, from $DPDK_ORIGIN"
echo "DPDK $DPDK_VERSION-s390x in $DPDK_PREFIX, source $DPDK_SOURCE"

if [ ! -f "$out/build.ninja" ]; then
	meson setup "$out" "$src" \
		--cross-file "$src/platform/s390x/s390x-linux-gnu.ini" \
		-Dpkg_config_path="$DPDK_PKG_CONFIG_PATH" \
		-Ddpdk_sdk="$DPDK_SOURCE" -Dwerror=true -Dfuzz=false \
		-Denable_docs=false
fi
ninja -C "$out"
[ "$full" != build ] || exit 0

# The Python harnesses start the s390x programs through the emulator
# (tests/lib/ism_eal.py); meson itself through the cross file's
# exe_wrapper.
export ISM_EXE_WRAPPER="qemu-s390x-static -L /usr/s390x-linux-gnu"
export ISM_EXE_LINEBUF="$out/tests/s390x/libism-linebuf.so"
export QEMU_LD_PREFIX=/usr/s390x-linux-gnu

# What runs: see the guide (doc/guides/platform/ibm_z.rst). Not here:
# the VM tests, vfio, the shm and ism_fwd tests in namespaces (their
# harness enters the namespaces itself), the pcap scenarios (no s390x
# libpcap), perf-smoke, install, config, versions, docs and lint
# (build-machine checks of the tree). With "full" (make s390x-full) also
# the tests left out of make test for its time.
tests="functional-loopback functional-pcimodel functional-shm demo-smoke
sw-codec sw-self-event-lo sw-self-event-shm
bus-ism-zpci-caps bus-ism-scan bus-ism-binding bus-ism-zpci
bus-ism-malformed bus-ism-hotplug
ism-ring
shm-pair shm-trio shm-rogue shm-kill-writer shm-grants
net-ism-unit net-ism-txrx-copy net-ism-txrx-zc"
if [ "$full" = full ]; then
	tests="$tests functional-pcimodel-quirks sw-tokens-shm
bus-ism-allow-block shm-kill-receiver shm-stopped-peer shm-impostor-gid
net-ism-kill"
fi
# shellcheck disable=SC2086
meson test -C "$out" --print-errorlogs --no-rebuild $tests
