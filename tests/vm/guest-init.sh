#!/bin/busybox sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# /init of every VM test guest (tests/vm/vmlib.py builds the initramfs).
# Mounts what DPDK needs, then runs the plan of this guest,
# /plans/<vmtest.role>.sh, which the test wrote into the initramfs, and
# powers off. A plan calls the helpers below; the console
# carries the markers the test waits for:
#   VMTEST-BDF <address> group <n>   a function bound to vfio-pci
#   VMTEST-RUN <name>                a step starts
#   VMTEST-RC <name> <status>        a step ended
#   VMTEST-END <why>                 the guest powers off
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /run /tmp

finish() {
	echo "VMTEST-END $1"
	sync
	poweroff -f
	sleep 10
}

# bind_vfio VENDOR DEVICE: every function with these ids to vfio-pci
# (the emulated IOMMU gives each a group); their addresses in BDFS, the
# first in BDF. The vfio modules are loaded first, unless built in.
bind_vfio() {
	if [ ! -d /sys/bus/pci/drivers/vfio-pci ]; then
		modprobe vfio && modprobe vfio_iommu_type1 &&
			modprobe vfio-pci || finish "modprobe failed"
	fi
	BDFS=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = "$1" ] &&
			[ "$(cat "$d/device")" = "$2" ] || continue
		b=${d##*/}
		echo vfio-pci > "$d/driver_override"
		echo "$b" > /sys/bus/pci/drivers_probe
		case "$(readlink "$d/driver")" in
		*/vfio-pci) ;;
		*) finish "$b not bound to vfio-pci" ;;
		esac
		echo "VMTEST-BDF $b group $(basename "$(readlink "$d/iommu_group")")"
		BDFS="$BDFS $b"
	done
	[ -n "$BDFS" ] || finish "no function $1:$2"
	set -- $BDFS
	BDF=$1
	export BDF BDFS
}

# run NAME CMD...: one step, its output and exit status.
run() {
	name=$1
	shift
	echo "VMTEST-RUN $name"
	"$@" 2>&1
	echo "VMTEST-RC $name $?"
}

ROLE=
for x in $(cat /proc/cmdline); do
	case "$x" in
	vmtest.role=*) ROLE=${x#*=} ;;
	esac
done
[ -f "/plans/$ROLE.sh" ] || finish "no plan for role '$ROLE'"
. "/plans/$ROLE.sh"
finish done
