#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# `meson install` into a scratch DESTDIR, then build two programs out of tree
# with nothing but pkg-config and the installed files, and run them: one
# shared (drivers loaded with EAL -d from the installed plugin directory),
# one linked with the static librte_ism.a. The programs use the tests'
# assertions (test_assert.h, on DPDK's rte_test.h), from the source tree.
#   install_test.sh <build dir> <this directory> <test_assert.h dir>
#                   <rte_test.h dir>
set -eu
build=$(cd "$1" && pwd)
here=$2
test_inc="-I$3 -I$4"

# The staged install (stage.sh): dest, libdir, pmd_dir, PKG_CONFIG_PATH
# with libdpdk-ism.pc first; the user's install log kept.
. "$here/stage.sh"
stage_install "$build" install-test
incdir=$(pkg-config --variable=includedir libdpdk-ism)
for f in "$incdir/dpdk-ism/rte_ism.h" "$incdir/dpdk-ism/rte_ism_core.h" \
	"$libdir/librte_ism.a" "$libdir/librte_ism.so" \
	"$pmd_dir/librte_raw_ism.so"; do
	[ -e "$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# Driver-facing headers only with -Denable_driver_sdk=true, as in DPDK.
sdk=$(stage_option "$build" enable_driver_sdk)
for h in ism_driver.h ism_driver_sync.h bus_ism_driver.h; do
	if [ "$sdk" = True ]; then
		[ -e "$incdir/dpdk-ism/$h" ] ||
			{ echo "FAIL: $h not installed (driver SDK on)"; exit 1; }
	elif [ -e "$incdir/dpdk-ism/$h" ]; then
		echo "FAIL: driver header $h installed (enable_driver_sdk off)"
		exit 1
	fi
done
echo "installed: $(pkg-config --modversion libdpdk-ism) in $dest"

cc -O2 -DALLOW_EXPERIMENTAL_API $test_inc "$here/ism_client.c" \
	-o "$dest/ism_client" $(pkg-config --cflags --libs libdpdk-ism)
# Under a deadline, with a file prefix of its own, runtime directory
# removed: tests/lib/ism_eal.py.
# The ISM libraries from the install, DPDK's where the build found them
# (DPDK_LIBDIR: a DPDK outside the loader's path, tests/versions).
dpdk_ld=${DPDK_LIBDIR:+:$DPDK_LIBDIR}
LD_LIBRARY_PATH=$libdir$dpdk_ld python3 "$here/../lib/ism_eal.py" run \
	--tag install \
	--name client --timeout 60 -- "$dest/ism_client" -l 0 --no-huge \
	-m 256 --no-shconf --no-pci -d "$pmd_dir" --vdev ism_lo0 --vdev ism_lo1

cc -O2 -DALLOW_EXPERIMENTAL_API $test_inc "$here/ism_static.c" \
	-o "$dest/ism_static" \
	$(pkg-config --cflags libdpdk-ism) "$libdir/librte_ism.a" \
	$(pkg-config --libs libdpdk)
LD_LIBRARY_PATH=${DPDK_LIBDIR:-} timeout 30 "$dest/ism_static"
echo "PASS"
