# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Plan of the ism bus's vfio test guest (vm_test.py writes it, with PROG,
# the test program, into the initramfs; tests/vm/guest-init.sh runs it).
# Binds the ivshmem function to vfio-pci, presents it to the ism bus as an
# ISM function through fake sysfs roots (vendor/device say ISM;
# iommu_group points at the real one, so rte_vfio_setup_device opens the
# real device) and runs ism-bus-test three times: bound to vfio-pci (the
# real driver link), bound to ism_vfio_pci on IBM Z (a driver link of
# that name, and zPCI's function_id), and on IBM Z but bound to vfio-pci.
bind_vfio 0x1af4 0x1110
real=/sys/bus/pci/devices/$BDF

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

# bus NAME ROOT COMMANDS...: the test program on the sysfs root ROOT.
bus() {
	name=$1
	root=$2
	shift 2
	run "$name" env ISM_BUS_SYSFS_ROOT="$root" "$PROG" -l 0 --no-huge \
		-m 64 --file-prefix "vm-$name" --log-level=bus.ism:debug -- \
		--vfio "$@"
}

mkfake /fakepci vfio-pci -
bus vfio-pci /fakepci list bus=ism vfio "$BDF" intr "$BDF" dmamap "$BDF" \
	remove "$BDF" probe "ism:$BDF" vfio "$BDF" intr "$BDF" list bus=ism
mkfake /fakezpci ism_vfio_pci zpci
bus ism_vfio_pci /fakezpci list bus=ism intr "$BDF"
mkfake /fakezpci-vfio vfio-pci zpci
bus zpci-vfio-pci /fakezpci-vfio list bus=ism
