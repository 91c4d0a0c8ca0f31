#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# platform/s390x/patches, the port's patch series as committed, is the one
# its files make now (dpdk-port.sh check against the DPDK 25.11.2
# tarball): a change of platform/s390x/dpdk, edits or series committed
# without the series made again fails here. Skipped (77) without the
# tarball.
set -eu
top=$1
tar=$("$top/devtools/dpdk-version.sh" tarball 25.11.2) || {
	echo "no DPDK 25.11.2 tarball (DPDK_SRC): skipped"
	exit 77
}
exec "$top/platform/s390x/dpdk-port.sh" check "$tar"
