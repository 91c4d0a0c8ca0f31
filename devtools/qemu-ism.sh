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
#   qemu-ism.sh prefix [PROGRAM ...]
#                        build if needed (root: installs the build
#                        dependencies), print the install prefix: its
#                        bin/ has the programs, by default both
#                        qemu-system-s390x and qemu-system-x86_64 (the
#                        s390x guests need only the first: a tenth of
#                        the build)
#   qemu-ism.sh find [PROGRAM ...]
#                        the prefix if those programs are built already
#                        and up to date (else status 1): no build
#
# QEMU_ISM_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#                 ~/.cache/dpdk-ism): the prefix qemu-ism-<Debian version>,
#                 the configured source and build tree next to it (.src,
#                 about 1 GB) and the build's log (.log)
#
# Which QEMU: Debian 12's (7.2), the machine's own, not sid's 11.1. The
# device's QEMU side (tests/ism_device/qemu) is written against 7.2's
# interfaces (its meson source sets, the s390 PCI host bridge's internals,
# pcistb_service_call()), and there it is faithful to the transport: each
# PCI Store Block reaches the device as one call (ism_qemu_s390.c), the
# firmware comes from the machine's own qemu-system-data, and nothing is
# installed from another suite. A later QEMU needs that glue ported.
#
# Nothing of QEMU is in this tree: the device's files are copied into the
# unpacked source (hw/misc/dpdk-ism/) and added to its meson build; the
# s390x binary is linked with -Wl,--wrap=pcistb_service_call (why:
# tests/ism_device/qemu/ism_qemu_s390.c). The prefix holds the hash of
# the device's sources and of the recipe (CONFIGURE, MESON_*) it was
# built from: while it is the same, the build is reused; when only the
# sources changed, the kept tree is rebuilt (a minute or two); when the
# recipe or Debian's version changed, everything is built again (the
# first build: most of an hour on 2 busy cores, see
# doc/guides/rawdevs/ism_pci_emul.rst). A lock keeps two runs from
# building at once.
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
ALL_PROGRAMS="qemu-system-s390x qemu-system-x86_64"
PROGRAMS=$ALL_PROGRAMS
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

recipe() {
	echo "$CONFIGURE$MESON_ADD$MESON_S390"
}

# Of the device's sources and of the recipe.
build_hash() {
	# shellcheck disable=SC2086
	(cd "$dev" && cat $SOURCES && recipe) | sha256sum | cut -c1-16
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
		install -y -qq --no-install-recommends $missing >/dev/null
}

copy_device() {
	mkdir -p "$1/hw/misc/dpdk-ism"
	for f in $SOURCES; do
		cp "$dev/$f" "$1/hw/misc/dpdk-ism/"
	done
}

# Debian's source, unpacked (its patches applied), the device added,
# configured for the prefix.
unpack() {
	src=$1
	v=$2
	out=$3
	work=$src.tmp
	rm -rf "$src" "$work"
	mkdir -p "$work"
	(cd "$work" && apt-get source --download-only -qq "qemu=$v" &&
	 dpkg-source -x "qemu_${v#*:}.dsc" src) || return 1
	mv "$work/src" "$src"
	rm -rf "$work"
	copy_device "$src"
	echo "$MESON_ADD" > "$src/hw/misc/dpdk-ism/meson.build"
	echo "subdir('dpdk-ism')" >> "$src/hw/misc/meson.build"
	echo "$MESON_S390" >> "$src/hw/s390x/meson.build"
	# shellcheck disable=SC2086
	(cd "$src" && ./configure --prefix="$out" $CONFIGURE) || return 1
	recipe > "$src/.dpdk-ism-recipe"
}

# Each program has its stamp: the hash it was built from.
built() {
	for p in $PROGRAMS; do
		[ "$(cat "$1/.dpdk-ism-hash-$p" 2>/dev/null)" = "$2" ] ||
			return 1
	done
}

build() {
	out=$1
	src=$out.src
	log=$out.log
	hash=$(build_hash)
	built "$out" "$hash" && return 0
	install_deps
	v=$(debian_version)
	start=$(date +%s)
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	if [ "$(cat "$src/.dpdk-ism-recipe" 2>/dev/null)" = "$(recipe)" ]; then
		echo "qemu-ism: rebuilding QEMU $v with the changed device into" \
			"$out (log in $log)" >&2
	else
		echo "qemu-ism: building QEMU $v with the ism device into $out" \
			"(once per machine, about an hour; log in $log)" >&2
		unpack "$src" "$v" "$out" > "$log" 2>&1 || {
			tail -n 30 "$log" >&2
			rm -rf "$src"
			die "unpacking or configuring QEMU failed (log: $log)"
		}
	fi
	copy_device "$src"
	for p in $PROGRAMS; do
		rm -f "$out/.dpdk-ism-hash-$p"
	done
	# The programs only (QEMU's own tests are a third of its build); they
	# run from the prefix with Debian's firmware (--firmwarepath).
	# (The CPU time says what an idle machine would take: /usr/bin/time.)
	timer=
	[ -x /usr/bin/time ] && timer="/usr/bin/time -f %es_elapsed_%Us_user_%Ss_system"
	# shellcheck disable=SC2086
	if ! (cd "$src/build" &&
	      nice $timer ninja -j"$(nproc)" $PROGRAMS) >> "$log" 2>&1; then
		tail -n 30 "$log" >&2
		die "building QEMU failed (log: $log)"
	fi
	mkdir -p "$out/bin"
	for p in $PROGRAMS; do
		cp "$src/build/$p" "$out/bin/$p.tmp"
		mv "$out/bin/$p.tmp" "$out/bin/$p"
		echo "$hash" > "$out/.dpdk-ism-hash-$p"
	done
	echo "qemu-ism: built in $(($(date +%s) - start)) s on $(nproc)" \
		"CPUs (load average at the start: $load, at the end:" \
		"$(cut -d' ' -f1-3 /proc/loadavg))" |
		tee -a "$log" >&2
	# Builds for other Debian versions.
	for old in "$CACHE"/qemu-ism-*; do
		case $old in
		"$out"|"$out".*) ;;
		*) rm -rf "$old" ;;
		esac
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
for p in "$@"; do
	case " $ALL_PROGRAMS " in
	*" $p "*) ;;
	*) die "no program $p here (one of: $ALL_PROGRAMS)" ;;
	esac
done
[ $# -eq 0 ] || PROGRAMS="$*"
case $cmd in
prefix)
	mkdir -p "$CACHE"
	v=$(debian_version)
	out=$CACHE/qemu-ism-${v#*:}
	exec 9>"$CACHE/.lock-qemu-ism"
	flock 9
	build "$out"
	exec 9>&-
	echo "$out"
	;;
find)
	v=$(debian_version)
	out=$CACHE/qemu-ism-${v#*:}
	built "$out" "$(build_hash)" || exit 1
	echo "$out"
	;;
*)
	die "usage: $0 prefix|find [PROGRAM ...]"
	;;
esac
