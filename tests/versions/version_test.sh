#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The tree built against DPDK <version> (from devtools/dpdk-version.sh's
# cache), then its suites run in that build: functional, shm, bus, install,
# and those of lib/ism_ring, net_ism, rawdev; the patch level of that DPDK
# and where its source came from first. Skipped (77) when that DPDK is not
# built on this machine (make test builds it before meson test).
#   version_test.sh <version> <source root> <build dir>
set -eu
ver=$1
src=$2
out=$3
dv=$src/devtools/dpdk-version.sh

if ! "$dv" find "$ver" >/dev/null; then
	echo "SKIP: DPDK $ver is not built on this machine;" \
		"'make test DPDK=$ver' builds it (once) and runs this test"
	exit 77
fi
eval "$("$dv" env "$ver")"
echo "DPDK $ver is $DPDK_VERSION, from $DPDK_ORIGIN"
echo "DPDK $DPDK_VERSION in $DPDK_PREFIX, source $DPDK_SOURCE"

# The DPDK's own driver-SDK headers (it is built with enable_driver_sdk),
# pmdinfogen and l2fwd from its source. pkg_config_path is kept by meson
# for every later reconfiguration.
if [ ! -f "$out/build.ninja" ]; then
	meson setup "$out" "$src" -Dpkg_config_path="$DPDK_PKG_CONFIG_PATH" \
		-Ddpdk_sdk="$DPDK_SOURCE" -Dfuzz=false
fi
ninja -C "$out"
meson test -C "$out" --print-errorlogs --suite functional --suite shm \
	--suite bus --suite install --suite ism_ring --suite net_ism \
	--suite rawdev --suite ism_fwd --no-suite vm
