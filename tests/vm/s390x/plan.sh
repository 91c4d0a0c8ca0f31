# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The plan of the s390x test guest (tests/vm/s390x/s390x_guest_test.py),
# sourced by tests/vm/guest-init.sh as /plans/<role>.sh. The kernel has the
# ism driver and SMC built in, so by now the driver has probed every ISM
# function. Prints what the host checks, one line per fact (VMTEST-*), then
# runs the role's test:
#   smc   smc_test: one TCP connection over SMC-D between two processes
#         (vmtest.args: its options, commas for blanks)
#   vfio  moves the function of fid vmtest.vfio_fid from the ism driver to
#         vfio-pci and runs ism_vfio_test on it, with vmtest.peer_gid, the
#         GID of the function the ism driver keeps
# then the ism driver's debug area. vmtest.bin: where the programs are.
mount -t debugfs debugfs /sys/kernel/debug

ARGS=
VFIO_FID=
PEER_GID=
BIN=/
for x in $(cat /proc/cmdline); do
	case "$x" in
	vmtest.bin=*) BIN=${x#*=} ;;
	vmtest.args=*) ARGS=$(echo "${x#*=}" | tr , ' ') ;;
	vmtest.vfio_fid=*) VFIO_FID=${x#*=} ;;
	vmtest.peer_gid=*) PEER_GID=${x#*=} ;;
	esac
done
echo "VMTEST-INIT role=$ROLE uptime=$(cut -d' ' -f1 /proc/uptime)" \
	"kernel=$(uname -r) machine=$(uname -m)"

# Every PCI function: its ids, its driver, its zPCI identity.
for d in /sys/bus/pci/devices/*; do
	[ -e "$d" ] || continue
	drv=-
	[ -e "$d/driver" ] && drv=$(basename "$(readlink "$d/driver")")
	echo "VMTEST-PCI ${d##*/} $(cat "$d/vendor"):$(cat "$d/device")" \
		"driver=$drv fid=$(cat "$d/function_id" 2>/dev/null)" \
		"uid=$(cat "$d/uid" 2>/dev/null)" \
		"pchid=$(cat "$d/pchid" 2>/dev/null)" \
		"pfgid=$(cat "$d/pfgid" 2>/dev/null)"
done
if [ -d /sys/bus/pci/drivers/ism ]; then
	for d in /sys/bus/pci/drivers/ism/*:*; do
		[ -e "$d" ] && echo "VMTEST-ISM-BOUND ${d##*/}"
	done
fi

# The interrupts of the functions (each MSI is a line named after its
# function's address).
irqs() {
	grep PCI-MSI /proc/interrupts | sed 's/^/VMTEST-IRQ /'
}

case "$ROLE" in
smc)
	ip link set lo up
	# shellcheck disable=SC2086
	run smc_test "$BIN/smc_test" $ARGS
	irqs
	# Linux's remove path while SMC still holds the link group (it keeps
	# it for minutes after the sockets closed): each DMB unregistered,
	# SMC's SHUTDOWN event to the peer (here the function itself), then
	# DEL_VLAN_ID, UNREG_IEQ, UNREG_SBA.
	for d in /sys/bus/pci/drivers/ism/*:*; do
		[ -e "$d" ] || continue
		b=${d##*/}
		echo "$b" > /sys/bus/pci/drivers/ism/unbind
		[ -e "/sys/bus/pci/devices/$b/driver" ] ||
			echo "VMTEST-UNBOUND $b"
	done
	;;
vfio)
	bdf=
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/function_id" 2>/dev/null)" = "$VFIO_FID" ] &&
			bdf=${d##*/}
	done
	[ -n "$bdf" ] || finish "no function of fid $VFIO_FID"
	dev=/sys/bus/pci/devices/$bdf
	echo "$bdf" > /sys/bus/pci/drivers/ism/unbind
	echo vfio-pci > "$dev/driver_override"
	echo "$bdf" > /sys/bus/pci/drivers_probe
	echo "VMTEST-VFIO $bdf driver=$(basename "$(readlink "$dev/driver")")" \
		"group=$(basename "$(readlink "$dev/iommu_group")")"
	run ism_vfio_test "$BIN/ism_vfio_test" "$bdf" "$PEER_GID"
	irqs
	;;
*)
	finish "unknown role $ROLE"
	;;
esac
# The ism driver's s390 debug feature (16-byte entries): the first bytes
# of QUERY_INFO's response, of every event it took from its IEQ (type,
# code, then the token), and failed commands.
if [ -r /sys/kernel/debug/s390dbf/ism/hex_ascii ]; then
	sed 's/^/VMTEST-ISMDBF /' /sys/kernel/debug/s390dbf/ism/hex_ascii
fi
