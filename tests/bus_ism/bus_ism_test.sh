#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# ism bus tests against fake PCI sysfs trees.
#   bus_ism_test.sh CASE PROG PROG_PCIFIRST TAG
# CASE: scan | allow-block | pci-coexist | pci-first | binding | zpci |
#       malformed | hotplug | ivshmem. PROG is ism-bus-test; PROG_PCIFIRST the same program with
# the pci bus registered before the ism bus; TAG keeps the --file-prefix of
# the release and ASan builds apart. Each EAL process runs under timeout,
# with its own --file-prefix, without hugepages.
set -u

case_name=$1
prog=$2
prog_pcifirst=$3
tag=$4

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-bus-test.XXXXXX") || exit 1
prefix_base="ism-bus-$tag-$case_name-$$"
fails=0

cleanup() {
	[ -n "${KEEP_TMP:-}" ] && echo "kept $tmp" || rm -rf "$tmp"
	# EAL's runtime directories of our prefixes (root and non-root).
	for d in /var/run/dpdk "${XDG_RUNTIME_DIR:-/nonexistent}/dpdk"; do
		rm -rf "$d/$prefix_base"-* 2>/dev/null
	done
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# mkfn ROOT BDF VENDOR DEVICE DRIVER|- IOMMU_GROUP|- NUMA|-
# A PCI function directory with what the pci and ism buses read.
mkfn() {
	d=$1/$2
	mkdir -p "$d"
	printf '%s\n' "$3" > "$d/vendor"
	printf '%s\n' "$4" > "$d/device"
	printf '0x0000\n' > "$d/subsystem_vendor"
	printf '0x0000\n' > "$d/subsystem_device"
	printf '0x088000\n' > "$d/class"
	for i in 0 1 2 3 4 5; do
		echo "0x0000000000000000 0x0000000000000000 0x0000000000000000"
	done > "$d/resource"
	[ "$5" = - ] || ln -s "../../../../bus/pci/drivers/$5" "$d/driver"
	# Group numbers no real /dev/vfio has: set-up must stop at "not VFIO".
	[ "$6" = - ] || ln -s "../../../../kernel/iommu_groups/$6" \
		"$d/iommu_group"
	[ "$7" = - ] || printf '%s\n' "$7" > "$d/numa_node"
}

ISM_V=0x1014
ISM_D=0x04ed

# Three ISM functions and three look-alikes that are not ISM.
mk_basic_tree() {
	mkfn "$1" 0000:00:02.0 $ISM_V $ISM_D vfio-pci 987650 0
	mkfn "$1" 0000:00:02.1 $ISM_V $ISM_D - - -
	mkfn "$1" 0001:00:05.0 $ISM_V $ISM_D ism 987651 1
	mkfn "$1" 0000:00:03.0 0x1af4 0x1110 vfio-pci 987652 0
	mkfn "$1" 0000:00:04.0 $ISM_V 0x04ee vfio-pci 987653 0
	mkfn "$1" 0000:00:05.0 0x8086 $ISM_D vfio-pci 987654 0
	# Not a PCI address: ignored even with ISM ids.
	mkfn "$1" not-a-bdf $ISM_V $ISM_D vfio-pci 987655 0
}

# run NAME [VAR=value...] -- EAL-and-test-args...
# Output (stdout and stderr) in $tmp/NAME.out, exit status in $tmp/NAME.rc.
run_with() {
	bin=$1
	name=$2
	shift 2
	envs=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env -u ISM_BUS_SYSFS_ROOT -u SYSFS_PCI_DEVICES $envs \
		timeout --kill-after=5 60 "$bin" -l 0 --no-huge -m 64 \
		--file-prefix "$prefix_base-$name" --log-level=bus.ism:debug \
		"$@" > "$tmp/$name.out" 2>&1
	echo $? > "$tmp/$name.rc"
}
run() {
	run_with "$prog" "$@"
}

fail() {
	echo "FAIL [$1]: $2"
	fails=$((fails + 1))
	failed_runs="${failed_runs:-} $1"
}

expect_rc() {
	rc=$(cat "$tmp/$1.rc")
	[ "$rc" = "$2" ] || fail "$1" "exit status $rc, expected $2"
}

# expect NAME ERE [WHY]: some output line matches.
expect() {
	grep -qE -- "$2" "$tmp/$1.out" || fail "$1" "no line matching /$2/ ${3:-}"
}

expect_none() {
	grep -qE -- "$2" "$tmp/$1.out" && fail "$1" "unexpected line matching /$2/ ${3:-}"
	return 0
}

# expect_count NAME ERE N
expect_count() {
	n=$(grep -cE -- "$2" "$tmp/$1.out")
	[ "$n" = "$3" ] || fail "$1" "$n lines match /$2/, expected $3"
}

# expect_seq NAME ERE...: lines matching each ERE appear in this order.
expect_seq() {
	name=$1
	shift
	missing=$(awk -v n=$# 'BEGIN { for (i = 1; i <= n; i++) pat[i] = ARGV[i]; ARGC = 1; k = 1 }
		k <= n && $0 ~ pat[k] { k++ }
		END { if (k <= n) print pat[k] }' "$@" < "$tmp/$name.out")
	[ -z "$missing" ] || fail "$name" "sequence broken at /$missing/"
}

# The PROBE lines of a run, as "bdf bdf ...".
probed() {
	grep -E '^PROBE ' "$tmp/$1.out" | awk '{ print $2 }' | tr '\n' ' ' |
		sed 's/ $//'
}

expect_probed() {
	got=$(probed "$1")
	[ "$got" = "$2" ] || fail "$1" "probed [$got], expected [$2]"
}

# Every run must end with a clean EAL cleanup.
expect_clean_exit() {
	expect_rc "$1" 0
	expect "$1" '^EAL_INIT ok$'
	expect "$1" '^CLEANUP rc=0$'
	expect_none "$1" 'AddressSanitizer|runtime error|Segmentation'
}

case_scan() {
	root=$tmp/sys
	mk_basic_tree "$root"
	# As s390's zPCI writes it; the driver's CHID.
	printf '0x0123\n' > "$root/0000:00:02.0/pchid"
	run scan ISM_BUS_SYSFS_ROOT="$root" -- --no-pci -- \
		list bus=ism list bus=ism,addr=0000:00:02.1 \
		list bus=ism,addr=00:02.1 list bus=ism,bogus=1 \
		region 0000:00:02.0 dmamap 0000:00:02.0 api
	expect_clean_exit scan
	expect_probed scan "0000:00:02.0 0000:00:02.1 0001:00:05.0"
	expect scan '^PROBE 0000:00:02.0 driver=ism_bus_test numa=0 kdrv=vfio-pci group=987650 vfio=no args=-$'
	expect scan '^PROBE 0000:00:02.1 driver=ism_bus_test numa=-1 kdrv=none group=-1 vfio=no args=-$'
	expect scan '^PROBE 0001:00:05.0 driver=ism_bus_test numa=1 kdrv=ism group=987651 vfio=no args=-$'
	expect scan 'ISM_BUS: 0000:00:02.0: ISM function, NUMA node 0, kernel driver vfio-pci, IOMMU group 987650'
	# The PCHID is optional: without one it is 0, and nothing is said.
	expect scan '^PCHID 0000:00:02.0 0x0123$'
	expect scan '^PCHID 0000:00:02.1 0x0000$'
	expect_none scan 'sysfs pchid'
	expect_seq scan '^LIST bus=ism ism 0000:00:02.0$' \
		'^LIST bus=ism ism 0000:00:02.1$' \
		'^LIST bus=ism ism 0001:00:05.0$' '^LIST_END bus=ism rte_errno=0$'
	expect_count scan '^LIST bus=ism ' 3
	expect_count scan '^LIST bus=ism,addr=0000:00:02.1 ism 0000:00:02.1$' 1
	expect_count scan '^LIST bus=ism,addr=0000:00:02.1 ' 1
	expect_count scan '^LIST bus=ism,addr=00:02.1 ism 0000:00:02.1$' 1
	expect scan '^LIST_END bus=ism,bogus=1 rte_errno=22$'
	expect scan 'only addr=<PCI address> filters ISM devices'
	# Not set up through vfio: no BARs, no DMA mapping.
	expect scan '^REGION 0000:00:02.0 read=-22 write=-22$'
	expect scan '^DMAMAP 0000:00:02.0 rc=-1 rte_errno=ENOTSUP$'
	for c in read_null_dev read_null_buf read_bad_bar read_absent_bar \
			read_beyond write_wrap; do
		expect scan "^API $c=-22\$"
	done
	# Failed accesses are logged at most once a second: a peer can make
	# every move fail.
	expect scan 'BAR2: read of 4 bytes at 0xe failed: beyond the end of the BAR \(0 earlier failures not logged\)'
	expect_none scan 'write of 4 bytes at 0xffffffffffffffff'
	expect scan 'never_registered without a probe function'
	expect scan 'unregister: driver never_registered is not registered'
	# rte_eal_cleanup removes every probed device, after the last command.
	expect_seq scan '^API done$' '^REMOVE 0000:00:02.0$' \
		'^REMOVE 0000:00:02.1$' '^REMOVE 0001:00:05.0$' '^CLEANUP rc=0$'
	expect_count scan '^REMOVE ' 3
}

case_allow_block() {
	root=$tmp/sys
	mk_basic_tree "$root"
	e="ISM_BUS_SYSFS_ROOT=$root"

	run a_prefix $e -- --no-pci -a ism:0000:00:02.0 -- devargs
	expect_clean_exit a_prefix
	expect_probed a_prefix "0000:00:02.0"
	expect a_prefix '^DEVARGS ism 0000:00:02.0 allowed$'
	expect a_prefix '0000:00:02.1: ISM function excluded by -a/-b'

	run a_plain $e -- --no-pci -a 0000:00:02.1 -- devargs
	expect_clean_exit a_plain
	expect_probed a_plain "0000:00:02.1"
	expect a_plain '^DEVARGS ism 0000:00:02.1 allowed$'

	# Short form: the bus compares addresses, and normalises the name.
	run a_short $e -- --no-pci -a 00:02.1 -- devargs
	expect_clean_exit a_short
	expect_probed a_short "0000:00:02.1"
	expect a_short '^DEVARGS ism 0000:00:02.1 allowed$'

	run a_layered $e -- --no-pci -a bus=ism,addr=0001:00:05.0 -- devargs
	expect_clean_exit a_layered
	expect_probed a_layered "0001:00:05.0"
	expect a_layered '^DEVARGS ism 0001:00:05.0 allowed$'

	run a_args $e -- --no-pci -a ism:0000:00:02.0,key=val -- devargs
	expect_clean_exit a_args
	expect a_args '^PROBE 0000:00:02.0 .* args=key=val$'
	expect_probed a_args "0000:00:02.0"

	run a_absent $e -- --no-pci -a ism:0000:00:09.0
	expect_clean_exit a_absent
	expect_probed a_absent ""
	expect a_absent '0000:00:09.0: allowed, but there is no ISM function at this address'

	run a_bad_layered $e -- --no-pci -a bus=ism,addr=zz:zz
	expect_rc a_bad_layered 1
	expect a_bad_layered 'addr is not a PCI address'
	expect a_bad_layered '^EAL_INIT failed'

	# The layered form without an address allows nothing on the ism bus.
	run a_none $e -- --no-pci -a bus=ism -- devargs
	expect_clean_exit a_none
	expect_probed a_none ""
	expect a_none '^DEVARGS ism  allowed$'

	run b_one $e -- --no-pci -b 0000:00:02.0
	expect_clean_exit b_one
	expect_probed b_one "0000:00:02.1 0001:00:05.0"
	expect b_one '0000:00:02.0: ISM function excluded by -a/-b'

	run b_two $e -- --no-pci -b ism:0000:00:02.0 -b bus=ism,addr=0000:00:02.1
	expect_clean_exit b_two
	expect_probed b_two "0001:00:05.0"

	# A non-ISM address is the pci bus's, and does not put the ism bus
	# into allowlist mode.
	run a_non_ism $e -- --no-pci -a 0000:00:03.0 -- devargs
	expect_clean_exit a_non_ism
	expect a_non_ism '^DEVARGS pci 0000:00:03.0 allowed$'
	expect_none a_non_ism '^DEVARGS ism '
	expect_probed a_non_ism "0000:00:02.0 0000:00:02.1 0001:00:05.0"

	# Same with the ISM vendor but another device id.
	run a_other_ibm $e -- --no-pci -a 0000:00:04.0 -- devargs
	expect_clean_exit a_other_ibm
	expect a_other_ibm '^DEVARGS pci 0000:00:04.0 allowed$'

	# vdev names starting with "ism" stay with the vdev bus.
	run vdev $e -- --no-pci --vdev ism_bustest0,x=1 -- devargs
	expect_clean_exit vdev
	expect vdev '^VDEV_PROBE ism_bustest0$'
	expect vdev '^DEVARGS vdev ism_bustest0 allowed$'
	expect_probed vdev "0000:00:02.0 0000:00:02.1 0001:00:05.0"
}

# The pci bus scans the same tree (SYSFS_PCI_DEVICES, which the ism bus
# falls back to) and gets the non-ISM address given to -a.
case_pci_coexist() {
	root=$tmp/sys
	mk_basic_tree "$root"
	run coexist SYSFS_PCI_DEVICES="$root" -- -a 0000:00:03.0 \
		-a ism:0000:00:02.0 -- devargs list bus=pci list bus=ism
	expect_clean_exit coexist
	expect coexist '^DEVARGS pci 0000:00:03.0 allowed$'
	expect coexist '^DEVARGS ism 0000:00:02.0 allowed$'
	expect_count coexist '^LIST bus=pci ' 1
	expect coexist '^LIST bus=pci pci 0000:00:03.0$'
	expect_count coexist '^LIST bus=ism ' 1
	expect coexist '^LIST bus=ism ism 0000:00:02.0$'
	expect_probed coexist "0000:00:02.0"

	# No -a at all: the pci bus lists every bound function, the ism bus
	# probes all ISM functions.
	run coexist_all SYSFS_PCI_DEVICES="$root" -- -- list bus=pci
	expect_clean_exit coexist_all
	expect coexist_all '^LIST bus=pci pci 0000:00:03.0$'
	expect_probed coexist_all "0000:00:02.0 0000:00:02.1 0001:00:05.0"
}

# With the pci bus registered first, a plain ISM address goes to the pci
# bus (EAL's rule), but "ism:" and bus=ism still reach the ism bus, also
# through hotplug.
case_pci_first() {
	root=$tmp/sys
	mk_basic_tree "$root"
	run_with "$prog_pcifirst" order ISM_BUS_SYSFS_ROOT="$root" -- \
		--no-pci -- buses
	expect_clean_exit order
	expect_seq order '^BUS pci$' '^BUS ism$'

	run_with "$prog_pcifirst" pcifirst ISM_BUS_SYSFS_ROOT="$root" -- \
		--no-pci -a ism:0000:00:02.0 -- devargs \
		probe ism:0000:00:02.1 list bus=ism remove 0000:00:02.1 \
		probe bus=ism,addr=0001:00:05.0
	expect_clean_exit pcifirst
	expect pcifirst '^DEVARGS ism 0000:00:02.0 allowed$'
	expect pcifirst '^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$'
	expect pcifirst '^HOTPLUG_REMOVE 0000:00:02.1 rc=0$'
	expect pcifirst '^HOTPLUG_PROBE bus=ism,addr=0001:00:05.0 rc=0$'
	expect_probed pcifirst "0000:00:02.0 0000:00:02.1 0001:00:05.0"
	expect_count pcifirst '^REMOVE ' 3
}

# A driver that needs vfio gets nothing from a tree without /dev/vfio, and
# each function says why, with the sysfs commands that bind it (off IBM Z:
# vfio-pci; ism_vfio_pci is taken too).
case_binding() {
	root=$tmp/sys
	mk_basic_tree "$root"
	mkfn "$root" 0000:00:02.2 $ISM_V $ISM_D vfio-pci - 0
	mkfn "$root" 0000:00:02.3 $ISM_V $ISM_D vfio-pci notanumber 0
	mkfn "$root" 0000:00:02.4 $ISM_V $ISM_D ism_vfio_pci 987656 0
	run binding ISM_BUS_SYSFS_ROOT="$root" -- --no-pci -- --vfio \
		list bus=ism
	expect_clean_exit binding
	expect_probed binding ""
	expect_count binding '^LIST bus=ism ' 6
	expect binding '0000:00:02.1: not bound to any kernel driver; skipped. To use it: modprobe vfio-pci; echo vfio-pci > /sys/bus/pci/devices/0000:00:02.1/driver_override; echo 0000:00:02.1 > /sys/bus/pci/drivers_probe$'
	expect binding '0001:00:05.0: bound to kernel driver ism, not vfio-pci; skipped. To use it: modprobe vfio-pci; echo vfio-pci > /sys/bus/pci/devices/0001:00:05.0/driver_override; echo 0001:00:05.0 > /sys/bus/pci/devices/0001:00:05.0/driver/unbind; echo 0001:00:05.0 > /sys/bus/pci/drivers_probe$'
	# rte_vfio_setup_device() finds no /dev/vfio/<group>.
	expect binding '0000:00:02.0: bound to vfio-pci but not VFIO-managed \(no /dev/vfio/987650\); skipped'
	expect binding '0000:00:02.2: bound to vfio-pci but in no IOMMU group'
	expect binding '0000:00:02.3: sysfs iommu_group: not a number: "notanumber"'
	expect binding '0000:00:02.3: bound to vfio-pci but in no IOMMU group'
	# The ISM variant of vfio-pci is taken everywhere.
	expect binding '0000:00:02.4: bound to ism_vfio_pci but not VFIO-managed \(no /dev/vfio/987656\); skipped'
	expect_none binding 'ism_vfio_pci.*To use it'
	expect_count binding '^REMOVE ' 0

	# Bound to vfio-pci after start: hotplug reads the binding again.
	run rebind ISM_BUS_SYSFS_ROOT="$root" -- --no-pci -- --vfio \
		shell "ln -sfn ../vfio-pci '$root/0001:00:05.0/driver'" \
		probe ism:0001:00:05.0
	expect_clean_exit rebind
	expect_seq rebind 'bound to kernel driver ism, not vfio-pci' \
		'^SHELL rc=0$' \
		'0001:00:05.0: bound to vfio-pci but not VFIO-managed \(no /dev/vfio/987651\)' \
		'^HOTPLUG_PROBE ism:0001:00:05.0 rc=-95$'

	# The same tree without --vfio: the driver takes every function.
	run nobinding ISM_BUS_SYSFS_ROOT="$root" -- --no-pci
	expect_clean_exit nobinding
	expect_probed nobinding "0000:00:02.0 0000:00:02.1 0000:00:02.2 0000:00:02.3 0000:00:02.4 0001:00:05.0"
	expect_none nobinding 'To use it'
}

# An IBM Z tree (the functions have zPCI's function_id attribute): only
# ism_vfio_pci reaches ISM there. A function on plain vfio-pci is refused,
# and every message names ism_vfio_pci and how to bind it.
case_zpci() {
	root=$tmp/sys
	mkfn "$root" 0000:00:02.0 $ISM_V $ISM_D ism_vfio_pci 987660 0
	mkfn "$root" 0000:00:02.1 $ISM_V $ISM_D vfio-pci 987661 0
	mkfn "$root" 0000:00:02.2 $ISM_V $ISM_D ism 987662 0
	mkfn "$root" 0000:00:02.3 $ISM_V $ISM_D - - 0
	for f in 0000:00:02.0 0000:00:02.1 0000:00:02.2 0000:00:02.3; do
		printf '0x00000011\n' > "$root/$f/function_id"
		printf '0x0042\n' > "$root/$f/pchid"
	done
	# The same ids off IBM Z: vfio-pci is fine there.
	mkfn "$root" 0000:00:03.0 $ISM_V $ISM_D vfio-pci 987663 0
	run zpci ISM_BUS_SYSFS_ROOT="$root" -- --no-pci -- --vfio \
		list bus=ism
	expect_clean_exit zpci
	expect_probed zpci ""
	expect_count zpci '^LIST bus=ism ' 5
	expect zpci '0000:00:02.0: ISM function \(IBM Z\), NUMA node 0, kernel driver ism_vfio_pci'
	expect zpci '0000:00:03.0: ISM function, NUMA node 0, kernel driver vfio-pci'
	# Accepted: set-up goes on to vfio, which the fake tree lacks.
	expect zpci '0000:00:02.0: bound to ism_vfio_pci but not VFIO-managed \(no /dev/vfio/987660\); skipped'
	expect zpci '0000:00:02.1: bound to vfio-pci, which cannot do ISM I/O on IBM Z \(no PCI store blocks\): it needs ism_vfio_pci; skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci > /sys/bus/pci/devices/0000:00:02.1/driver_override; echo 0000:00:02.1 > /sys/bus/pci/devices/0000:00:02.1/driver/unbind; echo 0000:00:02.1 > /sys/bus/pci/drivers_probe$'
	expect_none zpci '0000:00:02.1: bound to vfio-pci but not VFIO-managed'
	expect zpci '0000:00:02.2: bound to kernel driver ism, not ism_vfio_pci; skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci > /sys/bus/pci/devices/0000:00:02.2/driver_override; echo 0000:00:02.2 > /sys/bus/pci/devices/0000:00:02.2/driver/unbind; echo 0000:00:02.2 > /sys/bus/pci/drivers_probe$'
	expect zpci '0000:00:02.3: not bound to any kernel driver; skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci > /sys/bus/pci/devices/0000:00:02.3/driver_override; echo 0000:00:02.3 > /sys/bus/pci/drivers_probe$'
	expect zpci '0000:00:03.0: bound to vfio-pci but not VFIO-managed \(no /dev/vfio/987663\); skipped'
	# Without a driver that needs vfio, IBM Z changes nothing.
	run zpci_novfio ISM_BUS_SYSFS_ROOT="$root" -- --no-pci
	expect_clean_exit zpci_novfio
	expect_probed zpci_novfio "0000:00:02.0 0000:00:02.1 0000:00:02.2 0000:00:02.3 0000:00:03.0"
	expect zpci_novfio '^PCHID 0000:00:02.1 0x0042$'
}

case_malformed() {
	root=$tmp/sys
	mkfn "$root" 0000:00:02.0 $ISM_V $ISM_D vfio-pci 987650 0
	mkfn "$root" 0000:00:03.0 $ISM_V $ISM_D vfio-pci - 0
	rm "$root/0000:00:03.0/vendor"
	mkfn "$root" 0000:00:03.1 $ISM_V $ISM_D vfio-pci - 0
	: > "$root/0000:00:03.1/vendor"
	mkfn "$root" 0000:00:03.2 0xzz14 $ISM_D vfio-pci - 0
	mkfn "$root" 0000:00:03.3 $ISM_V $ISM_D vfio-pci - 0
	head -c 1048576 /dev/zero | tr '\0' '1' > "$root/0000:00:03.3/vendor"
	mkfn "$root" 0000:00:03.4 $ISM_V 0x104ed0 vfio-pci - 0
	mkfn "$root" 0000:00:03.5 $ISM_V $ISM_D vfio-pci - garbage
	mkfn "$root" 0000:00:03.6 $ISM_V $ISM_D vfio-pci - -
	head -c 1048576 /dev/zero | tr '\0' '7' > "$root/0000:00:03.6/numa_node"
	mkfn "$root" 0000:00:03.7 $ISM_V $ISM_D vfio-pci - 0
	: > "$root/0000:00:03.7/numa_node"
	mkfn "$root" 0000:00:04.0 $ISM_V $ISM_D vfio-pci - 0
	rm "$root/0000:00:04.0/vendor"
	mkdir "$root/0000:00:04.0/vendor"
	mkfn "$root" 0000:00:04.1 $ISM_V $ISM_D - - 0
	echo vfio-pci > "$root/0000:00:04.1/driver"
	mkfn "$root" 0000:00:04.2 $ISM_V $ISM_D vfio-pci - 0
	rm "$root/0000:00:04.2/vendor"
	mkfifo "$root/0000:00:04.2/vendor"
	mkfn "$root" 0000:00:04.3 $ISM_V $ISM_D vfio-pci - 0
	printf '0x1014\0garbage' > "$root/0000:00:04.3/vendor"
	mkfn "$root" 0000:00:04.4 $ISM_V $ISM_D vfio-pci - 99999
	mkfn "$root" 0000:00:04.5 " $ISM_V" $ISM_D vfio-pci - 0
	# Valid: no trailing newline.
	mkfn "$root" 0000:00:04.6 $ISM_V $ISM_D vfio-pci - 0
	printf '0x1014' > "$root/0000:00:04.6/vendor"
	# A regular file where a function directory should be.
	echo junk > "$root/0000:00:05.0"
	# Bad PCHIDs (a FIFO must not hang the scan): PCHID 0, still probed.
	mkfifo "$root/0000:00:03.6/pchid"
	printf 'garbage\n' > "$root/0000:00:03.7/pchid"
	printf '0x10000\n' > "$root/0000:00:04.4/pchid"

	run malformed ISM_BUS_SYSFS_ROOT="$root" -- --no-pci
	expect_clean_exit malformed
	expect_probed malformed "0000:00:02.0 0000:00:03.5 0000:00:03.6 0000:00:03.7 0000:00:04.1 0000:00:04.4 0000:00:04.6"
	expect malformed '0000:00:03.0: sysfs vendor: missing; skipped'
	expect malformed '0000:00:03.1: sysfs vendor: empty; skipped'
	expect malformed '0000:00:03.2: sysfs vendor: not a number: "0xzz14"; skipped'
	expect malformed '0000:00:03.3: sysfs vendor: longer than 63 bytes; skipped'
	expect malformed '0000:00:03.4: sysfs device: out of range: "0x104ed0"; skipped'
	expect malformed '0000:00:03.5: sysfs numa_node: not a number: "garbage"; NUMA node unknown'
	expect malformed '^PROBE 0000:00:03.5 .*numa=-1 '
	expect malformed '0000:00:03.6: sysfs numa_node: longer than 63 bytes; NUMA node unknown'
	expect malformed '0000:00:03.7: sysfs numa_node: empty; NUMA node unknown'
	expect malformed '0000:00:04.0: sysfs vendor: Is a directory; skipped'
	expect malformed '0000:00:04.1: sysfs driver: not a symlink; kernel driver unknown'
	expect malformed '^PROBE 0000:00:04.1 .*kdrv=\? '
	expect malformed '0000:00:04.2: sysfs vendor: empty; skipped'
	expect malformed '0000:00:04.3: sysfs vendor: contains a NUL byte; skipped'
	expect malformed '0000:00:04.4: sysfs numa_node: out of range: "99999"'
	expect malformed '0000:00:04.5: sysfs vendor: not a number'
	expect malformed '0000:00:05.0: sysfs vendor: Not a directory; skipped'
	expect malformed '0000:00:03.6: sysfs pchid: empty; PCHID 0'
	expect malformed '0000:00:03.7: sysfs pchid: not a number: "garbage"; PCHID 0'
	expect malformed '0000:00:04.4: sysfs pchid: out of range: "0x10000"; PCHID 0'
	for f in 0000:00:03.6 0000:00:03.7 0000:00:04.4; do
		expect malformed "^PCHID $f 0x0000\$"
	done

	run noroot ISM_BUS_SYSFS_ROOT="$tmp/nonexistent" -- --no-pci
	expect_clean_exit noroot
	expect noroot "no PCI sysfs tree at $tmp/nonexistent"
	expect_probed noroot ""

	run fileroot ISM_BUS_SYSFS_ROOT="$root/0000:00:05.0" -- --no-pci
	expect_clean_exit fileroot
	expect fileroot 'cannot open the PCI sysfs tree .*: Not a directory'
	expect_probed fileroot ""
}

case_hotplug() {
	root=$tmp/sys
	mk_basic_tree "$root"
	run hotplug ISM_BUS_SYSFS_ROOT="$root" -- --no-pci \
		-a ism:0000:00:02.0 -- --fail 0001:00:05.0 \
		probe ism:0000:00:02.1 probe ism:0000:00:02.1 list bus=ism \
		remove 0000:00:02.1 list bus=ism \
		probe 0000:00:02.1 remove 0000:00:02.1 \
		probe bus=ism,addr=0000:00:02.1 \
		probe ism:0000:00:09.0 remove 0000:00:09.0 \
		probe ism:0001:00:05.0 list bus=ism
	expect_clean_exit hotplug
	expect_seq hotplug \
		'^PROBE 0000:00:02.0 ' '^EAL_INIT ok$' \
		'^PROBE 0000:00:02.1 ' '^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$' \
		'^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$' \
		'^LIST bus=ism ism 0000:00:02.1$' \
		'^REMOVE 0000:00:02.1$' '^HOTPLUG_REMOVE 0000:00:02.1 rc=0$' \
		'^LIST bus=ism ism 0000:00:02.0$' '^LIST_END' \
		'^PROBE 0000:00:02.1 ' '^HOTPLUG_PROBE 0000:00:02.1 rc=0$' \
		'^REMOVE 0000:00:02.1$' '^HOTPLUG_REMOVE 0000:00:02.1 rc=0$' \
		'^PROBE 0000:00:02.1 ' \
		'^HOTPLUG_PROBE bus=ism,addr=0000:00:02.1 rc=0$' \
		'^HOTPLUG_PROBE ism:0000:00:09.0 rc=-19$' \
		'^HOTPLUG_REMOVE 0000:00:09.0 rc=nodev$' \
		'^FAILPROBE 0001:00:05.0$' \
		'^HOTPLUG_PROBE ism:0001:00:05.0 rc=-5$' \
		'^LIST_END' '^REMOVE 0000:00:02.0$' '^REMOVE 0000:00:02.1$' \
		'^CLEANUP rc=0$'
	# Between the first removal and the re-probe only 02.0 is listed.
	awk '/^HOTPLUG_REMOVE 0000:00:02.1 rc=0$/ { on = 1; next }
		on && /^LIST_END/ { exit } on && /^LIST /' "$tmp/hotplug.out" \
		> "$tmp/between"
	[ "$(cat "$tmp/between")" = "LIST bus=ism ism 0000:00:02.0" ] ||
		fail hotplug "list after removal: $(cat "$tmp/between")"
	expect hotplug '0001:00:05.0: driver ism_bus_test failed: Input/output error'
	# A failed probe leaves the function listed but unprobed.
	expect_count hotplug '^LIST bus=ism ism 0001:00:05.0$' 1
	# Devargs given at hotplug reach a function the bus already listed
	# without any (its first probe failed).
	run hotplug_args ISM_BUS_SYSFS_ROOT="$root" -- --no-pci -- \
		--fail 0001:00:05.0 probe ism:0001:00:05.0,key=val
	expect_clean_exit hotplug_args
	expect_seq hotplug_args '^FAILPROBE 0001:00:05.0$' '^EAL_INIT ok$' \
		'^PROBE 0001:00:05.0 .* args=key=val$' \
		'^HOTPLUG_PROBE ism:0001:00:05.0,key=val rc=0$'

	# Probing a probed function again is no error and calls no driver.
	expect_count hotplug '^PROBE 0000:00:02.1 ' 3
	expect_count hotplug '^REMOVE ' 4
}

# An ivshmem function (1af4:1110) is used by other software: the bus takes
# one only when -a (or hotplug) names it for this bus with fabric=ivshmem,
# and gives it only to a driver of ivshmem functions. A bare address stays
# the pci bus's.
case_ivshmem() {
	root=$tmp/sys
	mk_basic_tree "$root"	# 0000:00:03.0: ivshmem on vfio-pci
	mkfn "$root" 0000:00:06.0 0x1af4 0x1110 - - 0
	e="ISM_BUS_SYSFS_ROOT=$root"
	isms="0000:00:02.0 0000:00:02.1 0001:00:05.0"

	run iv_none $e -- --no-pci -- list bus=ism
	expect_clean_exit iv_none
	expect_probed iv_none "$isms"
	expect_none iv_none '0000:00:0[36]\.0'

	run iv_nofabric $e -- --no-pci -a ism:0000:00:03.0 -- devargs \
		list bus=ism
	expect_clean_exit iv_nofabric
	expect_probed iv_nofabric ""
	expect iv_nofabric '0000:00:03.0: an ivshmem function, not an ISM function; skipped. To hold an ISM fabric in its shared memory: -a ism:0000:00:03.0,fabric=ivshmem$'
	expect_count iv_nofabric '^LIST bus=ism ' 0

	run iv_named $e -- --no-pci -a ism:0000:00:03.0,fabric=ivshmem,gid=0x5 \
		-- devargs list bus=ism
	expect_clean_exit iv_named
	expect_probed iv_named "0000:00:03.0"
	expect iv_named '^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem numa=0 kdrv=vfio-pci group=987652 vfio=no args=fabric=ivshmem,gid=0x5$'
	expect iv_named 'ISM_BUS: 0000:00:03.0: ivshmem function \(named with fabric=ivshmem\), NUMA node 0, kernel driver vfio-pci, IOMMU group 987652'
	expect iv_named '^DEVARGS ism 0000:00:03.0 allowed$'
	expect_count iv_named '^LIST bus=ism ' 1

	# Each kind goes to its own driver.
	run iv_mixed $e -- --no-pci -a ism:0000:00:03.0,fabric=ivshmem \
		-a 0000:00:02.0 -- list bus=ism
	expect_clean_exit iv_mixed
	expect_probed iv_mixed "0000:00:02.0 0000:00:03.0"
	expect iv_mixed '^PROBE 0000:00:02.0 driver=ism_bus_test '
	expect iv_mixed '^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem '

	run iv_layered $e -- --no-pci \
		-a bus=ism,addr=0000:00:03.0,fabric=ivshmem -- devargs
	expect_clean_exit iv_layered
	expect_probed iv_layered "0000:00:03.0"

	# The bare address is the pci bus's, whichever bus registered first.
	run iv_bare $e -- --no-pci -a 0000:00:03.0,fabric=ivshmem -- devargs
	expect_clean_exit iv_bare
	expect iv_bare '^DEVARGS pci 0000:00:03.0 allowed$'
	expect_none iv_bare '^DEVARGS ism '
	expect_probed iv_bare "$isms"
	run_with "$prog_pcifirst" iv_pcifirst $e -- --no-pci \
		-a 0000:00:03.0,fabric=ivshmem -a ism:0000:00:06.0,fabric=ivshmem \
		-- devargs
	expect_clean_exit iv_pcifirst
	expect iv_pcifirst '^DEVARGS pci 0000:00:03.0 allowed$'
	expect iv_pcifirst '^DEVARGS ism 0000:00:06.0 allowed$'
	expect_probed iv_pcifirst "0000:00:06.0"

	run iv_blocked $e -- --no-pci -b ism:0000:00:03.0,fabric=ivshmem -- \
		list bus=ism
	expect_clean_exit iv_blocked
	expect_probed iv_blocked "$isms"

	run iv_bad $e -- --no-pci -a ism:0000:00:03.0,fabric=ism \
		-a ism:0000:00:02.0,fabric=ivshmem -- list bus=ism
	expect_clean_exit iv_bad
	expect_probed iv_bad ""
	expect iv_bad '0000:00:03.0: fabric=ism: unknown \(only fabric=ivshmem\); skipped'
	expect iv_bad '0000:00:02.0: an ISM function named with fabric=ivshmem, which is for ivshmem functions only; skipped'

	# Hotplug: taken only once named with the fabric.
	run iv_hotplug $e -- --no-pci -a ism:0000:00:02.0 -- \
		probe ism:0000:00:03.0 probe ism:0000:00:03.0,fabric=ivshmem \
		list bus=ism remove 0000:00:03.0
	expect_clean_exit iv_hotplug
	expect_seq iv_hotplug '^HOTPLUG_PROBE ism:0000:00:03.0 rc=-19$' \
		'^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem ' \
		'^HOTPLUG_PROBE ism:0000:00:03.0,fabric=ivshmem rc=0$' \
		'^LIST bus=ism ism 0000:00:03.0$' '^REMOVE 0000:00:03.0$' \
		'^HOTPLUG_REMOVE 0000:00:03.0 rc=0$'

	# The binding rules apply: vfio-pci, with the commands that bind it.
	run iv_vfio $e -- --no-pci -a ism:0000:00:03.0,fabric=ivshmem \
		-a ism:0000:00:06.0,fabric=ivshmem -- --vfio
	expect_clean_exit iv_vfio
	expect_probed iv_vfio ""
	expect iv_vfio '0000:00:03.0: bound to vfio-pci but not VFIO-managed \(no /dev/vfio/987652\); skipped'
	expect iv_vfio '0000:00:06.0: not bound to any kernel driver; skipped. To use it: modprobe vfio-pci; echo vfio-pci > /sys/bus/pci/devices/0000:00:06.0/driver_override; echo 0000:00:06.0 > /sys/bus/pci/drivers_probe$'
}

case "$case_name" in
scan) case_scan ;;
allow-block) case_allow_block ;;
pci-coexist) case_pci_coexist ;;
pci-first) case_pci_first ;;
binding) case_binding ;;
zpci) case_zpci ;;
malformed) case_malformed ;;
hotplug) case_hotplug ;;
ivshmem) case_ivshmem ;;
*)
	echo "unknown case $case_name" >&2
	exit 2
	;;
esac

if [ "$fails" -ne 0 ]; then
	for r in $(echo "$failed_runs" | tr ' ' '\n' | sort -u); do
		echo "---- output of run '$r' (exit $(cat "$tmp/$r.rc")):"
		cat "$tmp/$r.out"
	done
	echo "$fails check(s) failed"
	exit 1
fi
echo "all checks passed"
