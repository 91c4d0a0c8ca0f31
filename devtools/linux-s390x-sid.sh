#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The s390x guest of the IBM Z user's path (tests/vm/s390x, step dpdk):
# Debian's prebuilt s390x kernel of sid (Linux >= 7.1, which has the ISM
# vfio variant driver ism_vfio_pci) with the modules it lacks built here,
# once per machine into a cache outside the tree.
#
#   linux-s390x-sid.sh prefix   build if needed, print the directory with
#                               vmlinuz, config, VERSION (the kernel
#                               release), modules/lib/modules/<release>
#                               (Debian's modules, decompressed, with ours
#                               under extra/ and depmod run), busybox
#                               (s390x, static), times (seconds per step)
#   linux-s390x-sid.sh find     that directory if it is built already
#                               (else status 1): no build, no download
#
# What is fetched, all from Debian's registry, nothing installed on the
# host: a separate apt configuration (its own sources list with
# "deb [arch=s390x] ... sid main" and its own state and cache under the
# cache) downloads linux-binary-, linux-modules-, linux-base- and
# linux-headers-<release> (the kernel, its modules, Module.symvers),
# linux-source-<major.minor> and busybox-static for s390x. Debian's s390x
# kernel has VFIO_PCI, S390_IOMMU and HUGETLBFS but neither ISM_VFIO_PCI
# nor DIBS, so the ISM modules are built from linux-source against the
# kernel's own config: dibs, ism (Linux's ism driver) and ism-vfio-pci.
# SMC cannot be added as a module: it depends on DIBS, so Debian's kernel
# is built without it, and its core then lacks what SMC needs from TCP
# (tcp_have_smc, exported by net/ipv4/tcp.c only with CONFIG_SMC; fields
# of struct tcp_sock under the same option): SMC-D needs a kernel built
# with CONFIG_SMC.
#
# The compiler is Debian 12's s390x-linux-gnu-gcc (12); Debian built the
# kernel with a newer gcc. The config stays the kernel's except for what
# only the compiler decides (code generation, never a structure layout).
# Debug info and BTF stay on (pahole from dwarves): BTF for modules
# (DEBUG_INFO_BTF_MODULES) adds fields to struct module, and modules
# built without it were seen to corrupt the kernel's module list at load
# (ism.ko after dibs.ko: list corruption in resolve_symbol()). One more
# thing would change a layout: gcc 12 lacks -mstack-protector-guard=global,
# without which Kconfig drops STACKPROTECTOR and with it a field of
# task_struct; a wrapper (cc/ below) accepts and drops the flag, so the
# option, and the layout, stay the kernel's (the modules then have no
# stack canaries). Modules are not signed: the kernel does not enforce
# signatures (MODULE_SIG_FORCE unset) and only notes the taint.
#
# LINUX_S390X_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#                    ~/.cache/dpdk-ism)
# LINUX_SID_RELEASE  the kernel release (default 7.2.13+deb14-s390x)
#
# A lock keeps two runs from building at once; each step leaves a stamp
# and is not redone. The first run takes a few minutes on 2 cores (the
# figures: doc/guides/platform/ibm_z.rst), under nice.
set -eu

if [ "$(id -u)" = 0 ]; then
	CACHE=${LINUX_S390X_CACHE:-/var/cache/dpdk-ism}
else
	CACHE=${LINUX_S390X_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
REL=${LINUX_SID_RELEASE:-7.2.13+deb14-s390x}
# 7.2.13+deb14-s390x: upstream 7.2.13, source package linux-source-7.2.
UP=${REL%%+*}
MAJMIN=$(echo "$UP" | cut -d. -f1-2)
LOCALV=${REL#"$UP"}
CROSS=s390x-linux-gnu-
MODULES="DIBS ISM ISM_VFIO_PCI"
# The recipe: a change here builds a new directory.
RECIPE="release=$REL modules=$MODULES cc=gcc-12+stackprotector-wrapper
btf busybox-static:s390x:sid"
TOOLS="gcc-s390x-linux-gnu make flex bison bc libelf-dev libssl-dev cpio
xz-utils kmod dwarves"
APTDIR=$CACHE/apt-sid-s390x
DL=$CACHE/linux-sid-dl-$REL
SRC=$CACHE/linux-source-$MAJMIN
BLD=$CACHE/linux-$MAJMIN-modbuild

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
	echo "$RECIPE" | sha256sum | cut -c1-12
}

outdir() {
	echo "$CACHE/linux-s390x-sid-$REL-$(hash)"
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
	cat > "$APTDIR/apt.conf" <<EOF
Dir::Etc::SourceList "$APTDIR/etc/sources.list";
Dir::Etc::SourceParts "$APTDIR/etc/sources.list.d";
Dir::Etc::Preferences "$APTDIR/etc/preferences";
Dir::Etc::PreferencesParts "$APTDIR/etc/preferences.d";
Dir::State "$APTDIR/state";
Dir::State::status "$APTDIR/state/status";
Dir::Cache "$APTDIR/cache";
APT::Architecture "s390x";
APT::Architectures { "s390x"; };
EOF
	sidapt apt-get update -qq >/dev/null 2>&1 ||
		die "apt-get update of sid (s390x) failed"
	touch "$APTDIR/.updated"
}

fetch() {
	[ -f "$DL/.done" ] && return 0
	apt_setup
	rm -rf "$DL"
	mkdir -p "$DL"
	log "fetching Debian's s390x kernel $REL, its modules, headers and" \
		"source (about 235 MB)"
	(cd "$DL" && sidapt apt-get download -qq "linux-binary-$REL" \
		"linux-modules-$REL" "linux-base-$REL" "linux-headers-$REL" \
		"linux-headers-${UP}${LOCALV%-s390x}-common" \
		"linux-source-$MAJMIN" busybox-static) 2>&1 |
		grep -v unsandboxed >&2 || true
	for p in linux-binary linux-modules linux-headers-$REL \
			"linux-source-$MAJMIN" busybox-static; do
		ls "$DL"/"${p}"*.deb >/dev/null 2>&1 ||
			die "apt-get download of $p (sid, s390x) failed"
	done
	touch "$DL/.done"
}

# The kernel's files unpacked into $DL/root.
unpack_kernel() {
	[ -f "$DL/root/.done" ] && return 0
	rm -rf "$DL/root"
	mkdir -p "$DL/root"
	for d in "$DL"/linux-binary-*.deb "$DL"/linux-modules-*.deb \
			"$DL"/linux-base-*.deb "$DL"/linux-headers-*.deb \
			"$DL"/busybox-static_*.deb; do
		dpkg-deb -x "$d" "$DL/root"
	done
	[ -f "$DL/root/usr/lib/modules/$REL/vmlinuz" ] ||
		die "no usr/lib/modules/$REL/vmlinuz in linux-binary-$REL"
	touch "$DL/root/.done"
}

unpack_source() {
	if [ "$(cat "$SRC/.dpdk-ism-unpacked" 2>/dev/null)" = "$REL" ]; then
		return 0
	fi
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	deb=$(ls "$DL"/linux-source-"$MAJMIN"_*.deb | head -n 1)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$MAJMIN.tar.xz" | xz -dc |
		tar -x -C "$SRC.tmp" --strip-components=1
	[ -f "$SRC.tmp/drivers/vfio/pci/ism/main.c" ] ||
		die "linux-source-$MAJMIN has no drivers/vfio/pci/ism"
	mv "$SRC.tmp" "$SRC"
	echo "$REL" > "$SRC/.dpdk-ism-unpacked"
}

# make in the source with the object tree $BLD.
kmake() {
	nice -n 5 make -C "$SRC" O="$BLD" ARCH=s390 CROSS_COMPILE=$CROSS \
		CC="$BLD/cc/${CROSS}gcc" LOCALVERSION="$LOCALV" "$@"
}

configure() {
	kconf=$DL/root/usr/lib/modules/$REL/config
	if [ "$(cat "$BLD/.dpdk-ism-config" 2>/dev/null)" = "$REL $MODULES" ]
	then
		return 0
	fi
	# The object tree stays: a new config rebuilds only what it touches.
	rm -f "$BLD/.dpdk-ism-config"
	mkdir -p "$BLD/cc"
	cat > "$BLD/cc/${CROSS}gcc" <<'EOF'
#!/bin/sh
# gcc 12 lacks -mstack-protector-guard=global: accepted and dropped, so
# that Kconfig keeps STACKPROTECTOR (a field of task_struct) as the
# kernel was built (devtools/linux-s390x-sid.sh).
for a; do
	shift
	case $a in
	-mstack-protector-guard=global|-mstack-protector-guard-record|\
	-fstack-protector*) ;;
	*) set -- "$@" "$a" ;;
	esac
done
exec s390x-linux-gnu-gcc "$@"
EOF
	chmod +x "$BLD/cc/${CROSS}gcc"
	cp "$kconf" "$BLD/.config"
	set --
	for m in $MODULES; do
		set -- "$@" -m "$m"
	done
	"$SRC/scripts/config" --file "$BLD/.config" "$@" -d SMC -d SMC_DIAG \
		-d MODULE_SIG_ALL
	kmake olddefconfig
	for m in $MODULES STACKPROTECTOR STACKPROTECTOR_STRONG \
			DEBUG_INFO_BTF DEBUG_INFO_BTF_MODULES; do
		want=$(grep "^CONFIG_$m=" "$BLD/.config" || true)
		case $m in
		STACKPROTECTOR*|DEBUG_INFO_BTF*)
			grep -qx "CONFIG_$m=y" "$kconf" || continue
			[ "$want" = "CONFIG_$m=y" ] ||
				die "the config lost CONFIG_$m" ;;
		*) [ "$want" = "CONFIG_$m=m" ] ||
				die "CONFIG_$m=m did not survive olddefconfig" ;;
		esac
	done
	# Nothing else that is not the compiler's or debug info may differ.
	grep '^CONFIG_' "$kconf" | sort > "$BLD/config.kernel"
	grep '^CONFIG_' "$BLD/.config" | sort > "$BLD/config.ours"
	bad=$(diff "$BLD/config.kernel" "$BLD/config.ours" |
		grep '^[<>]' | grep -Ev "CONFIG_($(echo "$MODULES" | tr ' ' '|'))=|CONFIG_(CC_|GCC_|AS_|LD_|PAHOLE_|RUSTC_|BUILD_SALT|MODULE_SIG_KEY|SYSTEM_TRUSTED_KEYS|FUNCTION_TRACE_ARGS|PROBE_EVENTS_BTF_ARGS|OPENSSL_SUPPORTS)" || true)
	[ -z "$bad" ] || die "the config differs from the kernel's: $bad"
	kmake modules_prepare
	cp "$DL/root/usr/src/linux-headers-$REL/Module.symvers" "$BLD/"
	echo "$REL $MODULES" > "$BLD/.dpdk-ism-config"
}

# One module directory: its source (in the tree, or copied into an
# external directory), objects under $BLD/ext/<name>.
build_modules() {
	ext=$BLD/ext
	rm -rf "$ext"
	mkdir -p "$ext/ism-src"
	# Linux's ism driver shares its directory with qeth, lcs and ctcm:
	# built alone from a copy.
	cp "$SRC/drivers/s390/net/ism_drv.c" "$SRC/drivers/s390/net/ism.h" \
		"$ext/ism-src/"
	echo "obj-m := ism.o
ism-y := ism_drv.o" > "$ext/ism-src/Kbuild"
	kmake M="$SRC/drivers/dibs" MO="$ext/dibs" modules || return 1
	kmake M="$SRC/drivers/vfio/pci/ism" MO="$ext/ism-vfio-pci" modules ||
		return 1
	kmake M="$ext/ism-src" MO="$ext/ism" \
		KBUILD_EXTRA_SYMBOLS="$ext/dibs/Module.symvers" modules
}

install_tree() {
	out=$1
	m=$out/modules/lib/modules/$REL
	mkdir -p "$m/extra"
	cp -a "$DL/root/usr/lib/modules/$REL/kernel" \
		"$DL/root/usr/lib/modules/$REL/modules.order" \
		"$DL/root/usr/lib/modules/$REL/modules.builtin" \
		"$DL/root/usr/lib/modules/$REL/modules.builtin.modinfo" "$m/"
	# Decompressed: busybox's modprobe loads plain .ko files.
	find "$m/kernel" -name '*.ko.xz' -exec xz -d {} + || return 1
	for k in "$BLD"/ext/dibs/dibs.ko "$BLD"/ext/ism/ism.ko \
			"$BLD"/ext/ism-vfio-pci/ism-vfio-pci.ko; do
		[ -f "$k" ] || die "no $k after the build"
		cp "$k" "$m/extra/"
	done
	depmod -b "$out/modules" "$REL" ||
		die "depmod failed"
	cp "$DL/root/usr/lib/modules/$REL/vmlinuz" "$out/vmlinuz"
	cp "$DL/root/usr/lib/modules/$REL/config" "$out/config"
	cp "$DL/root/usr/bin/busybox" "$out/busybox"
	echo "$REL" > "$out/VERSION"
}

# step NAME CMD...: run, time it into $out/times.
step() {
	name=$1
	shift
	t=$(date +%s)
	"$@"
	echo "$name $(($(date +%s) - t))" >> "$out/times"
}

build() {
	out=$1
	stamp=$out/.dpdk-ism-recipe
	[ "$(cat "$stamp" 2>/dev/null)" = "$RECIPE" ] && return 0
	need_tools
	rm -rf "$out"
	mkdir -p "$out"
	blog=$out/build.log
	log "preparing Debian's s390x kernel $REL with the ISM modules into" \
		"$out (once per machine; log in $blog)"
	start=$(date +%s)
	if ! { step fetch fetch && step unpack-kernel unpack_kernel &&
	       step unpack-source unpack_source &&
	       step configure configure && step modules build_modules &&
	       step install install_tree "$out"; } >"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "failed (log: $blog)"
	fi
	echo "total $(($(date +%s) - start))" >> "$out/times"
	log "done in $(($(date +%s) - start)) s"
	echo "$RECIPE" > "$stamp"
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
