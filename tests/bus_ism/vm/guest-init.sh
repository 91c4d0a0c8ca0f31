#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# /init of the vfio test guest. Binds the ivshmem function to vfio-pci,
# presents it to the ism bus as an ISM function through a fake sysfs root
# (vendor/device say ISM; driver and iommu_group point at the real ones, so
# rte_vfio_setup_device opens the real device), and runs ism-bus-test.
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /run /tmp

finish() {
	echo "VMTEST-END $1"
	sync
	poweroff -f
	sleep 10
}

PROG=
for x in $(cat /proc/cmdline); do
	case "$x" in
	vmtest.prog=*) PROG=${x#*=} ;;
	esac
done

modprobe vfio && modprobe vfio_iommu_type1 && modprobe vfio-pci ||
	finish "modprobe failed"
BDF=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1110 ] &&
		BDF=${d##*/}
done
[ -n "$BDF" ] || finish "no ivshmem function"
real=/sys/bus/pci/devices/$BDF
echo vfio-pci > "$real/driver_override"
echo "$BDF" > /sys/bus/pci/drivers_probe
case "$(readlink "$real/driver")" in
*/vfio-pci) ;;
*) finish "$BDF not bound to vfio-pci" ;;
esac

fake=/fakepci/$BDF
mkdir -p "$fake"
echo 0x1014 > "$fake/vendor"
echo 0x04ed > "$fake/device"
cat "$real/numa_node" > "$fake/numa_node"
ln -s "$(readlink -f "$real/driver")" "$fake/driver"
ln -s "$(readlink -f "$real/iommu_group")" "$fake/iommu_group"
echo "VMTEST-BDF $BDF group $(basename "$(readlink "$real/iommu_group")")"

ISM_BUS_SYSFS_ROOT=/fakepci "$PROG" -l 0 --no-huge -m 64 --file-prefix vm \
	--log-level=bus.ism:debug -- --vfio \
	list bus=ism vfio "$BDF" dmamap "$BDF" remove "$BDF" \
	probe "ism:$BDF" vfio "$BDF" list bus=ism 2>&1
echo "VMTEST-RC $?"
finish done
