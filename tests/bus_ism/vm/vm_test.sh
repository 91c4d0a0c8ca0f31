#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The ism bus's vfio path on a real vfio-pci device: a QEMU (TCG) guest
# with an emulated IOMMU binds an ivshmem-doorbell function to vfio-pci
# and runs ism-bus-test on it, presented as an ISM function through fake
# sysfs roots (guest-init.sh). Checks set-up, BAR region info, mmap and
# region read/write (both seen by the host in the ivshmem backing file),
# the interrupt (MSI-X through the bus's handle: the function interrupts
# itself through its doorbell), DMA map, hotplug removal and re-probe,
# cleanup; and the binding rules on the real device: presented as bound to
# ism_vfio_pci it is probed, presented as an IBM Z function on plain
# vfio-pci it is refused. The ivshmem server is ivshmem_server.py.
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
command -v python3 >/dev/null || skip "no python3 (for the ivshmem server)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-bus-vm.XXXXXX") || exit 1
server_pid=
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
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

# The server hands QEMU the memory and the eventfd of vector 0; it stays
# until QEMU closes the connection (bounded like QEMU).
vm_timeout=${ISM_VM_TIMEOUT:-240}
sock=$tmp/ivshmem.sock
timeout --kill-after=5 $((vm_timeout + 10)) python3 "$here/ivshmem_server.py" \
	"$sock" "$shm" "$((vm_timeout + 5))" &
server_pid=$!
for _ in $(seq 300); do
	[ -S "$sock" ] && break
	sleep 0.1
done
[ -S "$sock" ] || { echo "FAIL: the ivshmem server did not start"; exit 1; }

console=$tmp/console.log
timeout --kill-after=5 "$vm_timeout" qemu-system-x86_64 \
	-machine q35,accel=tcg -cpu max -m 512 -smp 1 \
	-nodefaults -display none -serial stdio -no-reboot \
	-device intel-iommu,aw-bits=48 \
	-chardev socket,path="$sock",id=ivs \
	-device ivshmem-doorbell,chardev=ivs,vectors=1 \
	-kernel "$W/vmlinux" -initrd "$tmp/initrd.gz" \
	-append "console=ttyS0 panic=-1 quiet intel_iommu=on no_timer_check vmtest.prog=$progabs" \
	< /dev/null 2>&1 | tr -d '\r' > "$console"
echo "qemu exit status ${PIPESTATUS[0]}"
wait "$server_pid"
server_pid=

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
	# Vector 0 of the MSI-X, twice, then off.
	expect_count "^INTR $bdf type=msix pos=1 rc=0 seen=2$" 3
	expect_count "^INTR_OFF $bdf rc=0 unregister=1$" 3
	expect "^DMAMAP $bdf rc=0 unmap=0$"
	expect "^HOTPLUG_REMOVE $bdf rc=0$"
	expect "^HOTPLUG_PROBE ism:$bdf rc=0$"
	expect_count "^REMOVE $bdf$" 3
	expect_count '^CLEANUP rc=0$' 3
	expect '^VMTEST-RC vfio-pci 0$'
	# Bound to ism_vfio_pci (as IBM Z): taken, set up, probed.
	expect_count "^PROBE $bdf driver=ism_bus_test numa=-?[0-9]+ kdrv=ism_vfio_pci group=$group vfio=yes " 1
	expect "ISM_BUS: $bdf: ISM function \\(IBM Z\\), .*kernel driver ism_vfio_pci"
	expect '^VMTEST-RC ism_vfio_pci 0$'
	# IBM Z on plain vfio-pci: refused before vfio, with the commands.
	expect "ISM_BUS: $bdf: bound to vfio-pci, which cannot do ISM I/O on IBM Z .*; skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci > /sys/bus/pci/devices/$bdf/driver_override;"
	expect '^VMTEST-RC zpci-vfio-pci 0$'
	expect_count "^PROBE $bdf " 3
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
grep -E '^(REGIONS|VFIO_|INTR|DMAMAP)' "$console" | head -10
echo "all checks passed"
