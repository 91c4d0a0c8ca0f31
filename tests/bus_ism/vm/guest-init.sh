#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# /init of the vfio test guest. Binds the ivshmem function to vfio-pci,
# presents it to the ism bus as an ISM function through fake sysfs roots
# (vendor/device say ISM; iommu_group points at the real one, so
# rte_vfio_setup_device opens the real device) and runs ism-bus-test
# three times: bound to vfio-pci (the real driver link), bound to
# ism_vfio_pci on IBM Z (a driver link of that name, and zPCI's
# function_id), and on IBM Z but bound to vfio-pci.
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

echo "VMTEST-BDF $BDF group $(basename "$(readlink "$real/iommu_group")")"

# mkfake ROOT DRIVER zpci|-: the function as the bus should see it.
mkfake() {
	fake=$1/$BDF
	mkdir -p "$fake"
	echo 0x1014 > "$fake/vendor"
	echo 0x04ed > "$fake/device"
	cat "$real/numa_node" > "$fake/numa_node"
	if [ "$2" = vfio-pci ]; then
		ln -s "$(readlink -f "$real/driver")" "$fake/driver"
	else
		mkdir -p "/fakedrivers/$2"
		ln -s "/fakedrivers/$2" "$fake/driver"
	fi
	ln -s "$(readlink -f "$real/iommu_group")" "$fake/iommu_group"
	[ "$3" = zpci ] && echo 0x00000011 > "$fake/function_id"
}

# run NAME ROOT COMMANDS...
run() {
	name=$1
	root=$2
	shift 2
	ISM_BUS_SYSFS_ROOT=$root "$PROG" -l 0 --no-huge -m 64 \
		--file-prefix "vm-$name" --log-level=bus.ism:debug -- --vfio \
		"$@" 2>&1
	echo "VMTEST-RC $name $?"
}

mkfake /fakepci vfio-pci -
run vfio-pci /fakepci list bus=ism vfio "$BDF" intr "$BDF" dmamap "$BDF" \
	remove "$BDF" probe "ism:$BDF" vfio "$BDF" intr "$BDF" list bus=ism
mkfake /fakezpci ism_vfio_pci zpci
run ism_vfio_pci /fakezpci list bus=ism intr "$BDF"
mkfake /fakezpci-vfio vfio-pci zpci
run zpci-vfio-pci /fakezpci-vfio list bus=ism
finish done
