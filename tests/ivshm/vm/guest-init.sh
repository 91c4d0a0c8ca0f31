#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# /init of the ivshmem backend's test guests (vm_test.py). Binds the
# ivshmem-plain function to vfio-pci (the emulated IOMMU gives it a group)
# and runs the plan of this guest, /plans/<vmtest.role>.sh, which the host
# wrote into the initramfs: DPDK programs over the ism bus, each reaching
# the shared memory through vfio as -a ism:<address>,fabric=ivshmem.
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

ROLE=
for x in $(cat /proc/cmdline); do
	case "$x" in
	vmtest.role=*) ROLE=${x#*=} ;;
	esac
done
[ -f "/plans/$ROLE.sh" ] || finish "no plan for role '$ROLE'"

modprobe vfio && modprobe vfio_iommu_type1 && modprobe vfio-pci ||
	finish "modprobe failed"
BDF=
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor")" = 0x1af4 ] && [ "$(cat "$d/device")" = 0x1110 ] &&
		BDF=${d##*/}
done
[ -n "$BDF" ] || finish "no ivshmem function"
echo vfio-pci > "/sys/bus/pci/devices/$BDF/driver_override"
echo "$BDF" > /sys/bus/pci/drivers_probe
case "$(readlink "/sys/bus/pci/devices/$BDF/driver")" in
*/vfio-pci) ;;
*) finish "$BDF not bound to vfio-pci" ;;
esac
echo "VMTEST-BDF $BDF role $ROLE"

# run NAME CMD...: one step of the plan, its output and exit status.
run() {
	name=$1
	shift
	echo "VMTEST-RUN $name"
	"$@" 2>&1
	echo "VMTEST-RC $name $?"
}
export BDF
. "/plans/$ROLE.sh"
finish done
