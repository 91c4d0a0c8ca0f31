#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# One-time preparation of the x86_64 QEMU guests of the VM tests
# (tests/vm/vmlib.py): installs QEMU and busybox, and unpacks (does not
# install) Debian's kernel image into $ISM_VM_DIR (default
# /var/tmp/dpdk-ism-vm), with the vfio modules. Needs root and Debian's
# apt. A second run finds nothing to do. Undo: rm -rf "$ISM_VM_DIR".
set -euo pipefail

W=${ISM_VM_DIR:-/var/tmp/dpdk-ism-vm}
log() { echo "vm-prepare: $*"; }

pkgs="qemu-system-x86 busybox-static cpio kmod xz-utils"
missing=$(for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' ||
		echo "$p"
done)
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || { echo "vm-prepare: installing $missing needs root" >&2; exit 1; }
	log "installing" $missing
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing >/dev/null
fi

# The kernel the linux-image-amd64 metapackage points at.
kpkg=$(apt-cache depends linux-image-amd64 |
	awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
kver=${kpkg#linux-image-}
if [ "$(cat "$W/KVER" 2>/dev/null || true)" = "$kver" ] &&
		[ -f "$W/vmlinux" ] && [ -d "$W/modules" ]; then
	exit 0
fi
rm -rf "$W"
mkdir -p "$W/debs"
log "fetching $kpkg"
(cd "$W/debs" && apt-get download -qq "$kpkg" 2>&1 | grep -v unsandboxed || true)
dpkg-deb -x "$W/debs/${kpkg}"_*.deb "$W/kernel"
/sbin/depmod -b "$W/kernel" "$kver"

# Keep only the vfio modules and what they need.
kmods=$W/kernel/lib/modules/$kver
mods=$W/modules/lib/modules/$kver
for m in vfio vfio_iommu_type1 vfio-pci; do
	/sbin/modprobe -d "$W/kernel" -S "$kver" --show-depends "$m" |
		awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r f; do
	rel=${f#"$kmods"/}
	mkdir -p "$mods/$(dirname "$rel")"
	cp "$f" "$mods/$rel"
done
cp "$kmods"/modules.order "$kmods"/modules.builtin \
	"$kmods"/modules.builtin.modinfo "$mods/"
/sbin/depmod -b "$W/modules" "$kver"

# The ELF vmlinux boots through QEMU's PVH entry, about twice as fast under
# TCG as the compressed image through the firmware.
img=$W/kernel/boot/vmlinuz-$kver
rm -f "$W/vmlinux"
for off in $(grep -abo $'\xfd7zXZ\x00' "$img" | cut -d: -f1); do
	tail -c +$((off + 1)) "$img" | xz -dc > "$W/vmlinux.tmp" 2>/dev/null || true
	if [ "$(head -c 4 "$W/vmlinux.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
		mv "$W/vmlinux.tmp" "$W/vmlinux"
		break
	fi
done
rm -f "$W/vmlinux.tmp"
[ -f "$W/vmlinux" ] || { echo "vm-prepare: no ELF kernel found in $img" >&2; exit 1; }
rm -rf "$W/debs" "$W/kernel"
echo "$kver" > "$W/KVER"
log "guest kernel $kver ready in $W"
