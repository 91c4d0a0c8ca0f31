#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The port's patch series applies to the DPDK 25.11 this machine builds
# (devtools/dpdk-version.sh's: Debian's newest 25.11, whose patch level
# follows the archive), and platform/s390x/patches, the series as
# committed, is the one its files make now (dpdk-port.sh check): a change
# of platform/s390x/dpdk, edits or series committed without the series
# made again fails here. No fetch here: make test's target s390x-setup
# fetched that source before; without it, skipped (77) saying so.
set -eu
top=$1
tar=$(DPDK_NO_FETCH=1 "$top/devtools/dpdk-version.sh" tarball 25.11) || {
	echo "SKIP: no DPDK 25.11 source on this machine yet (make" \
		"s390x-setup fetches it)"
	exit 77
}
echo "DPDK 25.11 source: $tar"
exec "$top/platform/s390x/dpdk-port.sh" check "$tar"
