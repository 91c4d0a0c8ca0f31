#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The ism bus's vfio path on a real vfio-pci device: a QEMU (TCG) guest
# with an emulated IOMMU binds an ivshmem function to vfio-pci and runs
# ism-bus-test on it, presented as an ISM function through a fake sysfs
# root (guest-init.sh). Checks set-up, BAR region info, mmap and region
# read/write (both seen by the host in the ivshmem backing file), DMA map,
# hotplug removal and re-probe, and cleanup.
#   vm_test.sh PROG TAG
# Skips (77) unless prepare.sh was run, and in sanitizer builds.
set -u

prog=$1
tag=$2
W=${ISM_VM_DIR:-/var/tmp/dpdk-ism-vm}
here=$(cd "$(dirname "$0")" && pwd)

skip() {
	echo "SKIP: $*"
	exit 77
}
[ "$tag" = rel ] || skip "runs in the release build only"
command -v qemu-system-x86_64 >/dev/null ||
	skip "no qemu-system-x86_64: run tests/bus_ism/vm/prepare.sh once (root)"
[ -f "$W/vmlinux" ] && [ -d "$W/modules" ] ||
	skip "no guest kernel in $W: run tests/bus_ism/vm/prepare.sh once (root)"
[ -x /bin/busybox ] || skip "no /bin/busybox (busybox-static)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-bus-vm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

# Initramfs: busybox, the vfio modules, the test program with its shared
# libraries at their host paths (its RUNPATH is relative to itself).
root=$tmp/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,run,tmp,var,lib/modules}
ln -s /run "$root/var/run"
cp /bin/busybox "$root/bin/busybox"
cp "$here/guest-init.sh" "$root/init"
chmod +x "$root/init"
cp -a "$W/modules/lib/modules/." "$root/lib/modules/"
progabs=$(readlink -f "$prog")
copy_abs() {
	mkdir -p "$root$(dirname "$1")"
	cp -L "$1" "$root$1"
}
copy_abs "$progabs"
# glibc dlopen()s libgcc_s for pthread_cancel (rte_eal_cleanup).
for lib in $(ldd "$progabs" | grep -oE '/[^ ]+' | sort -u) \
		$(ldconfig -p | awk '/libgcc_s.so.1 .*x86-64/ { print $NF; exit }'); do
	copy_abs "$lib"
done
(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	gzip -1 > "$tmp/initrd.gz"

# The ivshmem memory, with a marker for the guest to read.
shm=$tmp/ivshmem
truncate -s 4M "$shm"
printf 'HOST-MARKER-ism0' | dd of="$shm" conv=notrunc status=none

console=$tmp/console.log
timeout --kill-after=5 "${ISM_VM_TIMEOUT:-240}" qemu-system-x86_64 \
	-machine q35,accel=tcg -cpu max -m 512 -smp 1 \
	-nodefaults -display none -serial stdio -no-reboot \
	-device intel-iommu,aw-bits=48 \
	-object memory-backend-file,id=hmem,share=on,mem-path="$shm",size=4M \
	-device ivshmem-plain,memdev=hmem \
	-kernel "$W/vmlinux" -initrd "$tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 quiet intel_iommu=on vmtest.prog=$progabs" \
	< /dev/null 2>&1 | tr -d '\r' > "$console"
echo "qemu exit status ${PIPESTATUS[0]}"

fails=0
expect() {
	grep -qE -- "$1" "$console" || {
		echo "FAIL: no console line matching /$1/"
		fails=$((fails + 1))
	}
}
expect_count() {
	n=$(grep -cE -- "$1" "$console")
	[ "$n" = "$2" ] || {
		echo "FAIL: $n console lines match /$1/, expected $2"
		fails=$((fails + 1))
	}
}

bdf=$(awk '/^VMTEST-BDF / { print $2 }' "$console")
group=$(awk '/^VMTEST-BDF / { print $4 }' "$console")
if [ -z "$bdf" ]; then
	echo "FAIL: the guest did not get to the test"
	fails=$((fails + 1))
else
	expect "^EAL_INIT ok$"
	expect_count "^PROBE $bdf driver=ism_bus_test numa=-?[0-9]+ kdrv=vfio-pci group=$group vfio=yes " 2
	expect "^REGIONS $bdf .*bar2=0x400000:mapped"
	expect_count '^VFIO_READ map rc=0 HOST-MARKER-ism0$' 2
	expect_count '^VFIO_READ rw rc=0 HOST-MARKER-ism0$' 2
	expect_count '^VFIO_REG32 rc=0 same=1$' 2
	expect_count '^VFIO_CROSS map_sees_rw=1 rc=0$' 2
	expect_count '^VFIO_CROSS rw_sees_map=1 unaligned_same=1 rc=0$' 2
	expect_count '^VFIO_BOUNDS rc=-22$' 2
	expect "^DMAMAP $bdf rc=0 unmap=0$"
	expect "^HOTPLUG_REMOVE $bdf rc=0$"
	expect "^HOTPLUG_PROBE ism:$bdf rc=0$"
	expect_count "^REMOVE $bdf$" 2
	expect '^CLEANUP rc=0$'
	expect '^VMTEST-RC 0$'
fi
expect '^VMTEST-END done$'
# The guest's writes, through each path, reached the shared memory.
[ "$(dd if="$shm" bs=1 skip=4096 count=15 status=none | tr -d '\000')" = ism-bus-pwrite! ] ||
	{ echo "FAIL: region write not in the host's ivshmem file"; fails=$((fails + 1)); }
[ "$(dd if="$shm" bs=1 skip=8192 count=15 status=none | tr -d '\000')" = ism-bus-mmio-ok ] ||
	{ echo "FAIL: mapped write not in the host's ivshmem file"; fails=$((fails + 1)); }

if [ "$fails" -ne 0 ]; then
	echo "---- guest console:"
	cat "$console"
	echo "$fails check(s) failed"
	exit 1
fi
grep -E '^(REGIONS|VFIO_|DMAMAP)' "$console" | head -8
echo "all checks passed"
