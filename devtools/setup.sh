#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Prepares a Debian 12 machine to build and test dpdk-ism:
#  1. installs the Debian packages the project needs (only missing ones);
#  2. provides what Debian's DPDK packages do not ship, taken from the
#     source package of exactly the installed DPDK version: the driver-SDK
#     headers (dev_driver.h, bus_driver.h, bus_vdev_driver.h,
#     bus_pci_driver.h, ethdev_driver.h, ethdev_vdev.h), rte_test.h (the assertions of the tests),
#     devtools/check-forbidden-tokens.awk (DPDK's lint, run by make test)
#     and buildtools/pmdinfogen.py (the PMD info of the drivers, which
#     dpdk-pmdinfo.py prints).
# Other DPDK versions (24.11, 25.11) are built from source by
# devtools/dpdk-version.sh, on demand.
# 'setup.sh s390x' installs only what the s390x build and its emulated
# tests need (doc/guides/platform/ibm_z.rst): Debian's cross compiler and
# C library for s390x-linux-gnu and QEMU's user-mode emulator. No s390x
# package of the multiarch kind is needed (DPDK is built without libnuma
# there), so the machine's package architectures stay as they are.
# Nothing from DPDK is committed: the files land in $SDK_DIR (default
# .deps/dpdk-sdk, ignored by git; include/, devtools/, buildtools/). Files
# are only ever added there (the directory may be shared by several work
# trees); the source is fetched again when the version differs or a file is
# missing. A second run finds nothing to do.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
SDK_DIR=${SDK_DIR:-$top/.deps/dpdk-sdk}

PKGS="meson ninja-build pkg-config gcc make libc6-dev libdpdk-dev dpdk-dev
libbsd-dev libnuma-dev libpcap-dev python3-pyelftools dpkg-dev xz-utils
valgrind gnuplot-nox clang libclang-rt-14-dev gawk python3-sphinx doxygen
dpdk-doc dpdk libsystemd-dev g++"
# clang (14 in Debian 12), g++: the in-tree builds (devtools/dpdk-intree.sh:
# DPDK's check_includes compiles each header as C++ too, with g++ or
# clang++). dpdk: dpdk-pmdinfo.py and dpdk-test (tests); libsystemd-dev: a static link
# of Debian's DPDK (pkg-config --static libdpdk names -lsystemd).

# What is copied from the DPDK source package: path in the source, then
# the directory under $SDK_DIR.
SDK_FILES="lib/eal/include/bus_driver.h:include
lib/eal/include/dev_driver.h:include
drivers/bus/vdev/bus_vdev_driver.h:include
drivers/bus/pci/bus_pci_driver.h:include
lib/ethdev/ethdev_driver.h:include
lib/ethdev/ethdev_vdev.h:include
lib/eal/include/rte_test.h:include
devtools/check-forbidden-tokens.awk:devtools
buildtools/pmdinfogen.py:buildtools
buildtools/coff.py:buildtools"

log() { echo "setup: $*"; }

need_root() {
	if [ "$(id -u)" != 0 ]; then
		echo "setup: $1 needs root; run 'sudo $0'" >&2
		exit 1
	fi
}

# Installs the packages of the list $1 that are missing.
install_missing() {
	missing=""
	for p in $1; do
		st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case "$st" in
		*" installed") ;;
		*) missing="$missing $p" ;;
		esac
	done
	[ -n "$missing" ] || return 0
	need_root "installing$missing"
	log "installing$missing"
	apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing
}

# The s390x parts: their packages, nothing else.
if [ "${1:-}" = s390x ]; then
	install_missing "gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user-static"
	exit 0
fi

install_missing "$PKGS"

debver=$(dpkg-query -W -f='${Version}' libdpdk-dev)
sdk_complete() {
	[ "$(cat "$SDK_DIR/VERSION" 2>/dev/null || true)" = "$debver" ] ||
		return 1
	for f in $SDK_FILES; do
		[ -f "$SDK_DIR/${f#*:}/$(basename "${f%:*}")" ] || return 1
	done
}
if sdk_complete; then
	exit 0
fi

# Whether apt already knows the source package of this version (from any
# deb-src entry, ours or the machine's). apt-cache showsrc takes a package
# name, not "name=version": look for the version among its records.
src_known() {
	apt-cache showsrc dpdk 2>/dev/null | awk -v want="$debver" '
		/^Version:/ { v = $2 }
		/^Files:/ && v == want { found = 1 }
		END { exit !found }'
}

need_root "fetching the DPDK $debver source package"
if ! src_known; then
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
for f in $SDK_FILES; do
	mkdir -p "$SDK_DIR/${f#*:}"
	cp "$work/src/${f%:*}" "$SDK_DIR/${f#*:}/"
done
echo "$debver" > "$SDK_DIR/VERSION"
log "files of DPDK $debver in $SDK_DIR (include/, devtools/, buildtools/)"
