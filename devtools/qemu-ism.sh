#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# QEMU with the emulated ISM function (device "ism", tests/ism_device),
# built once per machine from Debian's source package of the QEMU the
# machine has, into a cache outside the tree. Only qemu-system-s390x and
# qemu-system-x86_64; firmware from Debian's packages (qemu-system-data,
# seabios), as Debian's own build.
#
#   qemu-ism.sh prefix   build if needed (root: installs the build
#                        dependencies), print the install prefix: its
#                        bin/ has qemu-system-s390x and qemu-system-x86_64
#   qemu-ism.sh find     the prefix if it is built already (else status
#                        1): no build
#
# QEMU_ISM_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#                 ~/.cache/dpdk-ism); the build is
#                 qemu-ism-<Debian version>-<hash of the device's sources and
#                 of this recipe>, its log next to it
#
# Nothing of QEMU is in this tree: the device's files are copied into the
# unpacked source (hw/misc/dpdk-ism/) and added to its meson build; the
# s390x binary is linked with -Wl,--wrap=pcistb_service_call (why:
# tests/ism_device/qemu/ism_qemu_s390.c). A lock keeps two runs from
# building at once; a finished build is reused while the hash (of the
# device's sources and of the recipe: CONFIGURE, MESON_*) is the same, and the builds of
# older hashes are removed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dev=$top/tests/ism_device
if [ "$(id -u)" = 0 ]; then
	CACHE=${QEMU_ISM_CACHE:-/var/cache/dpdk-ism}
else
	CACHE=${QEMU_ISM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
# The build dependencies of this recipe (Debian 12 names).
DEPS="dpkg-dev gcc make ninja-build meson pkg-config python3 python3-venv
libglib2.0-dev libpixman-1-dev zlib1g-dev flex bison
qemu-system-data seabios"
CONFIGURE="--target-list=s390x-softmmu,x86_64-softmmu
--without-default-features --disable-docs
--disable-werror --disable-install-blobs --disable-user
--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
--extra-ldflags=-Wl,--wrap=pcistb_service_call"
# The device in QEMU's build: a meson file next to the copied sources.
MESON_ADD="# dpdk-ism's emulated ISM function (added by devtools/qemu-ism.sh)
softmmu_ss.add(when: 'CONFIG_PCI', if_true: files('ism_device.c',
    'ism_device_cmd.c', 'ism_device_store.c', 'ism_qemu.c'))"
# ... and a line for qemu-system-s390x at the end of hw/s390x/meson.build.
MESON_S390="s390x_ss.add(files('../misc/dpdk-ism/ism_qemu_s390.c'))"
SOURCES="core/ism_device.h core/ism_device_priv.h core/ism_device.c
core/ism_device_cmd.c core/ism_device_store.c qemu/ism_qemu.h
qemu/ism_qemu.c qemu/ism_qemu_s390.c"

die() {
	echo "qemu-ism: $*" >&2
	exit 1
}

# The source version of Debian's QEMU here: the installed one, else the
# newest the archive has.
debian_version() {
	v=$(dpkg-query -W -f='${source:Version}' qemu-system-common \
		2>/dev/null || true)
	if [ -z "$v" ]; then
		v=$(apt-cache showsrc qemu 2>/dev/null |
			sed -n 's/^Version: //p' | sort -V | tail -n 1)
	fi
	[ -n "$v" ] || die "no Debian QEMU installed or in apt's sources"
	echo "$v"
}

# Of the device's sources and of this script (the recipe).
sources_hash() {
	# shellcheck disable=SC2086
	(cd "$dev" && cat $SOURCES && echo "$CONFIGURE$MESON_ADD$MESON_S390") |
		sha256sum | cut -c1-12
}

dir_for() {
	v=$(debian_version)
	# 1:7.2+dfsg-7+deb12u18 -> 7.2+dfsg-7+deb12u18
	echo "$CACHE/qemu-ism-${v#*:}-$(sources_hash)"
}

install_deps() {
	missing=$(for p in $DEPS; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q ' installed$' || echo "$p"
	done)
	[ -n "$missing" ] || return 0
	[ "$(id -u)" = 0 ] || die "missing build dependencies: $missing" \
		"(install them as root)"
	# shellcheck disable=SC2086
	echo "qemu-ism: installing" $missing >&2
	# (Another apt on the machine: wait for its lock.)
	apt-get -o DPkg::Lock::Timeout=600 update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -qq \
		--no-install-recommends $missing >/dev/null
}

# Copy the device into the unpacked source and add it to QEMU's build.
add_device() {
	src=$1
	d=$src/hw/misc/dpdk-ism
	mkdir -p "$d"
	for f in $SOURCES; do
		cp "$dev/$f" "$d/"
	done
	echo "$MESON_ADD" > "$d/meson.build"
	echo "subdir('dpdk-ism')" >> "$src/hw/misc/meson.build"
	echo "$MESON_S390" >> "$src/hw/s390x/meson.build"
}

build() {
	out=$1
	log=$out.log
	[ -x "$out/bin/qemu-system-x86_64" ] &&
		[ -x "$out/bin/qemu-system-s390x" ] && return 0
	install_deps
	v=$(debian_version)
	work=$out.work
	rm -rf "$work" "$out"
	mkdir -p "$work"
	echo "qemu-ism: building QEMU $v with the ism device into $out" \
		"(once per machine; log in $log)" >&2
	start=$(date +%s)
	# shellcheck disable=SC2086
	if ! (cd "$work" &&
	      apt-get source --download-only -qq "qemu=$v" &&
	      dpkg-source -x qemu_"${v#*:}".dsc src &&
	      add_device "$work/src" &&
	      cd src && ./configure --prefix="$out" $CONFIGURE &&
	      nice make -j"$(nproc)" && make install) >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		rm -rf "$work"
		die "building QEMU failed (log: $log)"
	fi
	rm -rf "$work"
	echo "qemu-ism: built in $(($(date +%s) - start)) s on $(nproc)" \
		"CPUs" | tee -a "$log" >&2
	# Older builds of the device.
	for old in "$CACHE"/qemu-ism-*; do
		case $old in
		"$out"|"$out".*) ;;
		*) rm -rf "$old" ;;
		esac
	done
}

case "${1:-}" in
prefix)
	mkdir -p "$CACHE"
	out=$(dir_for)
	exec 9>"$CACHE/.lock-qemu-ism"
	flock 9
	build "$out"
	exec 9>&-
	echo "$out"
	;;
find)
	out=$(dir_for)
	[ -x "$out/bin/qemu-system-x86_64" ] &&
		[ -x "$out/bin/qemu-system-s390x" ] || exit 1
	echo "$out"
	;;
*)
	die "usage: $0 prefix | find"
	;;
esac
