#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The s390x test guest's kernel and busybox, built once per machine into a
# cache outside the tree (the tests under tests/vm/s390x boot them under
# qemu-system-s390x).
#
#   linux-s390x.sh prefix   build if needed, print the directory with
#                           image (the kernel), busybox (s390x, static),
#                           config, System.map, VERSION, build-seconds
#   linux-s390x.sh find     that directory if it is built already (else
#                           status 1): no build, no download
#
# The kernel is Debian's: the linux-source-6.1 package (Linux 6.1 with
# Debian's patches), cross-compiled with gcc-s390x-linux-gnu from
# tinyconfig plus our fragment tests/vm/s390x/kernel.config (built in, no
# modules: zPCI, vfio-pci, SMC, SMC diag, the ism driver); Debian's own
# s390x kernel has neither ISM nor vfio. Nothing of Linux is kept in the
# tree. busybox is Debian's busybox-static for s390x (multiarch download,
# unpacked, not installed).
#
# LINUX_S390X_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#                    ~/.cache/dpdk-ism)
#
# The directory's name carries the source version and a hash of the
# fragment and of this recipe: a change builds a new one, in the object
# tree of that source version, which stays (linux-s390x-build-<version>,
# about 110 MB): a change of the fragment recompiles only what it touches.
# A lock keeps two runs from building at once. The first build takes about
# 15 minutes of CPU (the guide doc/guides/rawdevs/ism_s390x_guest.rst has
# the figures); it runs under nice.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
FRAGMENT=$top/tests/vm/s390x/kernel.config
SRCPKG=linux-source-6.1
CROSS=s390x-linux-gnu-
if [ "$(id -u)" = 0 ]; then
	CACHE=${LINUX_S390X_CACHE:-/var/cache/dpdk-ism}
else
	CACHE=${LINUX_S390X_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
# The recipe: a change here or in the fragment builds a new kernel.
RECIPE="tinyconfig+fragment ARCH=s390 CROSS_COMPILE=$CROSS image=bzImage
busybox=busybox-static:s390x"
TOOLS="gcc-s390x-linux-gnu make flex bison bc libelf-dev libssl-dev cpio
xz-utils"

die() {
	echo "linux-s390x: $*" >&2
	exit 1
}

log() {
	echo "linux-s390x: $*" >&2
}

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'
}

# The version apt would fetch, e.g. 6.1.192-3.
src_version() {
	apt-cache policy "$SRCPKG" 2>/dev/null |
		awk '/Candidate:/ { print $2; exit }'
}

hash() {
	{ echo "$RECIPE"; cat "$FRAGMENT"; } | sha256sum | cut -c1-12
}

outdir() {
	v=$(src_version)
	[ -n "$v" ] && [ "$v" != "(none)" ] ||
		die "apt knows no $SRCPKG (Debian 12's Linux source package)"
	echo "$CACHE/linux-s390x-$v-$(hash)"
}

need_tools() {
	missing=
	for p in $TOOLS; do
		installed "$p" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (install as root)"
	log "installing$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
}

# The unpacked source of version $1, shared by every config.
source_tree() {
	src=$CACHE/linux-source-$1
	if [ -f "$src/.dpdk-ism-unpacked" ]; then
		echo "$src"
		return 0
	fi
	rm -rf "$src" "$CACHE/dl-$1"
	mkdir -p "$CACHE/dl-$1"
	log "fetching $SRCPKG $1 (about 140 MB)"
	(cd "$CACHE/dl-$1" && apt-get download -qq "$SRCPKG=$1") 2>&1 |
		grep -v unsandboxed >&2 || true
	deb=$(ls "$CACHE/dl-$1"/"$SRCPKG"_*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "apt-get download $SRCPKG=$1 failed"
	mkdir -p "$src.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$SRCPKG.tar.xz" | xz -dc |
		tar -x -C "$src.tmp" --strip-components=1
	[ -f "$src.tmp/Makefile" ] || die "$deb holds no Linux source"
	mv "$src.tmp" "$src"
	rm -rf "$CACHE/dl-$1"
	touch "$src/.dpdk-ism-unpacked"
	echo "$src"
}

# busybox-static for s390x, unpacked into $1.
fetch_busybox() {
	if ! dpkg --print-foreign-architectures | grep -qx s390x; then
		[ "$(id -u)" = 0 ] ||
			die "the s390x architecture is not enabled in dpkg (as root: dpkg --add-architecture s390x; apt-get update)"
		log "enabling the s390x architecture in dpkg (multiarch)"
		dpkg --add-architecture s390x
		apt-get update -qq
	fi
	tmp=$1/bb.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	(cd "$tmp" && apt-get download -qq busybox-static:s390x) 2>&1 |
		grep -v unsandboxed >&2 || true
	deb=$(ls "$tmp"/busybox-static_*_s390x.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || die "apt-get download busybox-static:s390x failed"
	dpkg-deb -x "$deb" "$tmp/x"
	cp "$tmp/x/bin/busybox" "$1/busybox"
	rm -rf "$tmp"
}

build() {
	out=$1
	v=$2
	stamp=$out/.dpdk-ism-recipe
	if [ "$(cat "$stamp" 2>/dev/null)" = "$RECIPE" ]; then
		return 0
	fi
	need_tools
	src=$(source_tree "$v")
	rm -rf "$out"
	mkdir -p "$out"
	b=$CACHE/linux-s390x-build-$v
	blog=$out/build.log
	log "building Linux $v for s390x into $out (once per machine;" \
		"log in $blog)"
	start=$(date +%s)
	mk="make -C $src O=$b ARCH=s390 CROSS_COMPILE=$CROSS"
	if ! { $mk tinyconfig &&
	       "$src/scripts/kconfig/merge_config.sh" -m -O "$b" \
			"$b/.config" "$FRAGMENT" &&
	       $mk olddefconfig; } >"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "configuring failed (log: $blog)"
	fi
	# Every line of the fragment must have survived olddefconfig (a
	# dependency we did not satisfy drops an option silently).
	bad=$(grep -E '^(CONFIG_|# CONFIG_)' "$FRAGMENT" | while read -r l; do
		grep -qxF "$l" "$b/.config" || echo "$l"
	done)
	[ -z "$bad" ] || die "the kernel config lacks: $bad"
	if ! nice -n 10 $mk -j"$(nproc)" >>"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "building failed (log: $blog)"
	fi
	cp "$b/arch/s390/boot/bzImage" "$out/image"
	cp "$b/.config" "$out/config"
	cp "$b/System.map" "$out/System.map"
	fetch_busybox "$out"
	echo "$v" > "$out/VERSION"
	echo $(($(date +%s) - start)) > "$out/build-seconds"
	log "built in $(cat "$out/build-seconds") s"
	echo "$RECIPE" > "$stamp"
	# The kernels of older fragments (and failed builds) go.
	for d in "$CACHE"/linux-s390x-"$v"-*; do
		[ "$d" = "$out" ] || [ ! -d "$d" ] || rm -rf "$d"
	done
}

case "${1:-}" in
prefix)
	out=$(outdir)
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock-linux-s390x"
	flock 9
	build "$out" "$(src_version)"
	exec 9>&-
	echo "$out"
	;;
find)
	out=$(outdir)
	[ "$(cat "$out/.dpdk-ism-recipe" 2>/dev/null)" = "$RECIPE" ] || exit 1
	echo "$out"
	;;
*)
	die "usage: $0 prefix | find"
	;;
esac
