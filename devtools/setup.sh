#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Prepares a Debian 12 machine to build and test dpdk-ism:
#  1. installs the Debian packages the project needs (only missing ones);
#  2. provides the DPDK driver-SDK headers that Debian does not ship
#     (dev_driver.h, bus_driver.h, bus_vdev_driver.h, bus_pci_driver.h,
#     ethdev_driver.h, ethdev_vdev.h),
#     taken from the source package of exactly the installed DPDK version.
# Nothing from DPDK is committed: the headers land in $SDK_DIR (default
# .deps/dpdk-sdk, ignored by git). A second run finds nothing to do.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
SDK_DIR=${SDK_DIR:-$top/.deps/dpdk-sdk}

PKGS="meson ninja-build pkg-config gcc make libc6-dev libdpdk-dev dpdk-dev
libbsd-dev libnuma-dev libpcap-dev python3-pyelftools dpkg-dev xz-utils
valgrind gnuplot-nox clang libclang-rt-14-dev dpdk-doc"

log() { echo "setup: $*"; }

need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "setup: $1 needs root; run 'sudo $0'" >&2
		exit 1
	fi
}

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done
if [ -n "$missing" ]; then
	need_root "installing$missing"
	log "installing$missing"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing
fi

# The SDK headers we take; a header added here is fetched on the next run.
SDK_HDRS="lib/eal/include/bus_driver.h lib/eal/include/dev_driver.h
drivers/bus/vdev/bus_vdev_driver.h drivers/bus/pci/bus_pci_driver.h
lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h"

debver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
have_all=yes
for h in $SDK_HDRS; do
	[ -f "$SDK_DIR/include/$(basename "$h")" ] || have_all=no
done
if [ "$(cat "$SDK_DIR/VERSION" 2>/dev/null || true)" = "$debver" ] &&
	[ "$have_all" = yes ]; then
	exit 0
fi

need_root "fetching the DPDK $debver source package"
if ! apt-cache showsrc "dpdk=$debver" 2>/dev/null | grep -q '^Files:'; then
	# No deb-src entry for this version yet: add one mirroring the
	# machine's binary sources (deb822 format, Debian 12 default).
	src=/etc/apt/sources.list.d/dpdk-ism-deb-src.sources
	log "enabling deb-src in $src"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && [ "$f" != "$src" ] || continue
		sed -n 's/^Types:.*deb\b.*/Types: deb-src/p;
			/^\(URIs\|Suites\|Components\|Signed-By\):/p;
			/^$/p' "$f"
		echo
	done > "$src"
	if ! grep -q '^URIs:' "$src"; then
		# one-line sources.list format
		sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list \
			> /etc/apt/sources.list.d/dpdk-ism-deb-src.list
		rm -f "$src"
	fi
	apt-get update -qq
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log "fetching dpdk=$debver source to extract the driver-SDK headers"
(cd "$work" && apt-get source -qq --download-only "dpdk=$debver" >/dev/null 2>&1) || {
	echo "setup: 'apt-get source dpdk=$debver' failed" >&2
	exit 1
}
(cd "$work" && dpkg-source --no-check -x dpdk_*.dsc src >/dev/null)
mkdir -p "$SDK_DIR/include"
for h in $SDK_HDRS; do
	cp "$work/src/$h" "$SDK_DIR/include/"
done
echo "$debver" > "$SDK_DIR/VERSION"
log "driver-SDK headers of DPDK $debver in $SDK_DIR/include"
