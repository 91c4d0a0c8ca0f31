#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The s390x guest kernel of the IBM Z user's path (tests/vm/s390x, step
# dpdk): Linux >= 7.1 (it has the ISM vfio variant driver ism_vfio_pci)
# built here from Debian's linux-source of sid, once per machine into a
# cache outside the tree.
#
#   linux-s390x-sid.sh prefix   build if needed, print the directory with
#                               vmlinuz (the kernel image), config, VERSION
#                               (the kernel release), modules/lib/modules/
#                               <release>/modules.builtin (what is built
#                               in, for modprobe), busybox (s390x, static),
#                               times (seconds per step, and the load)
#   linux-s390x-sid.sh find     that directory if it is built already
#                               (else status 1): no build, no download
#
# What is fetched, all from Debian's registry, nothing installed on the
# host from sid: a separate apt configuration (its own sources list with
# "deb [arch=s390x] ... sid main" and its own state and cache under the
# cache) downloads linux-source-<major.minor> and busybox-static for
# s390x.
#
# The kernel is tinyconfig plus tests/vm/s390x/kernel-7.config, built in
# with no modules: vfio, ism_vfio_pci, dibs, Linux's ism driver, SMC
# (SMC-D) and hugetlbfs. Debian's prebuilt s390x kernel was tried first:
# it lacks ISM_VFIO_PCI and DIBS, modules built apart for it broke its
# module list (ism.ko after dibs.ko: list corruption in resolve_symbol()),
# and SMC cannot be added to it as a module (its TCP is built without
# CONFIG_SMC: no tcp_have_smc). A small kernel of our own has none of
# that and builds in a fraction of Debian's config's time.
#
# LINUX_S390X_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#                    ~/.cache/dpdk-ism)
# LINUX_SID_SERIES   the source package's series (default 7.2:
#                    linux-source-7.2)
#
# A lock keeps two runs from building at once; the object tree stays, so
# a changed fragment rebuilds only what it touches. The first build's
# time on 2 cores: doc/guides/platform/ibm_z.rst. Builds run under nice.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
FRAGMENT=$top/tests/vm/s390x/kernel-7.config
if [ "$(id -u)" = 0 ]; then
	CACHE=${LINUX_S390X_CACHE:-/var/cache/dpdk-ism}
else
	CACHE=${LINUX_S390X_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
MAJMIN=${LINUX_SID_SERIES:-7.2}
CROSS=s390x-linux-gnu-
# The recipe: a change here (or in the fragment) builds a new directory.
RECIPE="linux-source-$MAJMIN:sid tinyconfig+kernel-7.config ARCH=s390
CROSS_COMPILE=$CROSS image=bzImage busybox-static:s390x:sid"
TOOLS="gcc-s390x-linux-gnu make flex bison bc libelf-dev libssl-dev cpio
xz-utils"
APTDIR=$CACHE/apt-sid-s390x
DL=$CACHE/linux-$MAJMIN-dl
SRC=$CACHE/linux-source-$MAJMIN
BLD=$CACHE/linux-$MAJMIN-build

die() {
	echo "linux-s390x-sid: $*" >&2
	exit 1
}

log() {
	echo "linux-s390x-sid: $*" >&2
}

installed() {
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'
}

hash() {
	{ echo "$RECIPE"; cat "$FRAGMENT"; } | sha256sum | cut -c1-12
}

outdir() {
	echo "$CACHE/linux-s390x-sid-$MAJMIN-$(hash)"
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
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		install -y -qq --no-install-recommends $missing >/dev/null
}

# apt with the separate configuration: sid, s390x, own state.
sidapt() {
	APT_CONFIG=$APTDIR/apt.conf "$@"
}

apt_setup() {
	[ -f "$APTDIR/.updated" ] && return 0
	mkdir -p "$APTDIR/etc/sources.list.d" "$APTDIR/etc/preferences.d" \
		"$APTDIR/state/lists/partial" "$APTDIR/cache/archives/partial"
	: > "$APTDIR/state/status"
	echo "deb [arch=s390x signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main" \
		> "$APTDIR/etc/sources.list"
	cat > "$APTDIR/apt.conf" <<EOC
Dir::Etc::SourceList "$APTDIR/etc/sources.list";
Dir::Etc::SourceParts "$APTDIR/etc/sources.list.d";
Dir::Etc::Preferences "$APTDIR/etc/preferences";
Dir::Etc::PreferencesParts "$APTDIR/etc/preferences.d";
Dir::State "$APTDIR/state";
Dir::State::status "$APTDIR/state/status";
Dir::Cache "$APTDIR/cache";
APT::Architecture "s390x";
APT::Architectures { "s390x"; };
EOC
	sidapt apt-get update -qq >/dev/null 2>&1 ||
		die "apt-get update of sid (s390x) failed"
	touch "$APTDIR/.updated"
}

fetch() {
	if ls "$DL"/linux-source-"$MAJMIN"_*.deb "$DL"/busybox-static_*.deb \
			>/dev/null 2>&1; then
		return 0
	fi
	apt_setup
	mkdir -p "$DL"
	log "fetching linux-source-$MAJMIN and busybox-static (s390x) of sid" \
		"(about 165 MB)"
	(cd "$DL" && sidapt apt-get download -qq "linux-source-$MAJMIN" \
		busybox-static) 2>&1 | grep -v unsandboxed >&2 || true
	for p in "linux-source-$MAJMIN" busybox-static; do
		ls "$DL"/"${p}"_*.deb >/dev/null 2>&1 ||
			die "apt-get download of $p (sid, s390x) failed"
	done
}

unpack_source() {
	deb=$(ls "$DL"/linux-source-"$MAJMIN"_*.deb | tail -n 1)
	if [ "$(cat "$SRC/.dpdk-ism-unpacked" 2>/dev/null)" = "${deb##*/}" ]
	then
		return 0
	fi
	rm -rf "$SRC" "$SRC.tmp" "$BLD"
	mkdir -p "$SRC.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$MAJMIN.tar.xz" | xz -dc |
		tar -x -C "$SRC.tmp" --strip-components=1
	[ -f "$SRC.tmp/drivers/vfio/pci/ism/main.c" ] ||
		die "linux-source-$MAJMIN has no drivers/vfio/pci/ism"
	mv "$SRC.tmp" "$SRC"
	echo "${deb##*/}" > "$SRC/.dpdk-ism-unpacked"
}

kmake() {
	make -C "$SRC" O="$BLD" ARCH=s390 CROSS_COMPILE=$CROSS "$@"
}

configure() {
	mkdir -p "$BLD"
	kmake tinyconfig
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$BLD" "$BLD/.config" \
		"$FRAGMENT"
	kmake olddefconfig
	# Every line of the fragment must have survived olddefconfig (a
	# dependency we did not satisfy drops an option silently).
	bad=$(grep -E '^(CONFIG_|# CONFIG_)' "$FRAGMENT" | while read -r l; do
		grep -qxF "$l" "$BLD/.config" || echo "$l"
	done)
	[ -z "$bad" ] || die "the kernel config lacks: $bad"
}

compile() {
	nice -n 10 make -C "$SRC" O="$BLD" ARCH=s390 CROSS_COMPILE=$CROSS \
		-j"$(nproc)" bzImage
}

install_tree() {
	out=$1
	rel=$(kmake -s kernelrelease)
	[ -n "$rel" ] || die "no kernel release"
	cp "$BLD/arch/s390/boot/bzImage" "$out/vmlinuz"
	cp "$BLD/.config" "$out/config"
	echo "$rel" > "$out/VERSION"
	# modprobe of a built-in driver (the guide's steps) finds it here.
	m=$out/modules/lib/modules/$rel
	mkdir -p "$m"
	cp "$BLD/modules.builtin" "$BLD/modules.builtin.modinfo" "$m/"
	# (busybox's modprobe needs a modules.dep: empty, no modules.)
	: > "$m/modules.dep"
	tmp=$out/bb.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb -x "$(ls "$DL"/busybox-static_*.deb | tail -n 1)" "$tmp"
	cp "$tmp/usr/bin/busybox" "$out/busybox" 2>/dev/null ||
		cp "$tmp/bin/busybox" "$out/busybox"
	rm -rf "$tmp"
}

# step NAME CMD...: run, time it (and the load average) into $out/times.
step() {
	name=$1
	shift
	t=$(date +%s)
	"$@"
	echo "$name $(($(date +%s) - t)) s, load $(cut -d' ' -f1-3 \
		/proc/loadavg)" >> "$out/times"
}

build() {
	out=$1
	stamp=$out/.dpdk-ism-recipe
	[ "$(cat "$stamp" 2>/dev/null)" = "$RECIPE" ] && return 0
	need_tools
	rm -rf "$out"
	mkdir -p "$out"
	blog=$out/build.log
	log "building Linux $MAJMIN for s390x from sid's linux-source into" \
		"$out (once per machine; log in $blog)"
	start=$(date +%s)
	echo "start: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)" \
		> "$out/times"
	if ! { step fetch fetch && step unpack-source unpack_source &&
	       step configure configure && step compile compile &&
	       step install install_tree "$out"; } >"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "failed (log: $blog)"
	fi
	echo "total $(($(date +%s) - start)) s" >> "$out/times"
	log "done in $(($(date +%s) - start)) s"
	echo "$RECIPE" > "$stamp"
	# Older recipes (and the module builds of earlier versions of this
	# script) go.
	for d in "$CACHE"/linux-s390x-sid-*; do
		[ "$d" = "$out" ] || [ ! -d "$d" ] || rm -rf "$d"
	done
}

case "${1:-}" in
prefix)
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock-linux-s390x-sid"
	flock 9
	build "$(outdir)"
	exec 9>&-
	outdir
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
