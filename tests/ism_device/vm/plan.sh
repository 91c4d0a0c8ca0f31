# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Plan of the x86_64 guest with two emulated ISM functions (vm_test.py
# writes it into the initramfs after TEST, FWD, PMDS, GID_A, GID_B, SUITES
# and SUITES2; tests/vm/guest-init.sh runs it). Both functions to vfio-pci,
# hugepages for DPDK (the functions DMA into its memory), then:
#   functional  dpdk-test-ism's suites on the two functions (--devices,
#               --stores-posted: x86's vfio-pci cannot report a refused
#               store block), xstats at the end;
#   fwd         dpdk-ism_fwd between them: A generates and checks
#               (loopback-check), B forwards back through net_ring.
echo 256 > /proc/sys/vm/nr_hugepages
mkdir -p /dev/hugepages
mount -t hugetlbfs nodev /dev/hugepages
bind_vfio 0x1014 0x04ed
set -- $BDFS
A=$1
B=$2
[ -n "$B" ] || finish "two ISM functions wanted, found: $BDFS"

run functional "$TEST" -l 0 -m 192 --file-prefix func \
	--log-level=bus.ism:debug -a "ism:$A" -a "ism:$B" -- functional \
	--devices "$A,$B" --stores-posted --suite "$SUITES"
# (The rawdev suite resets xstats: a run of its own after the above's.)
run functional-2 "$TEST" -l 0 -m 192 --file-prefix func2 \
	-a "ism:$A" -a "ism:$B" -- functional \
	--devices "$A,$B" --stores-posted --suite "$SUITES2"

"$FWD" -l 0 -m 160 --file-prefix fwdb $PMDS --vdev net_ring0 \
	-a "ism:$B" -- --peer-gid "$GID_A" --fwd-mode iofwd \
	--stats-period 0 --on-peer-loss exit > /tmp/fwdb.log 2>&1 &
fwdb=$!
run fwd "$FWD" -l 0 -m 160 --file-prefix fwda $PMDS -a "ism:$A" -- \
	--peer-gid "$GID_B" --fwd-mode loopback-check --nb-pkts 3000 \
	--pkt-size 60-1500 --stats-period 0 --on-peer-loss exit
wait $fwdb
echo "VMTEST-RC fwd-b $?"
sed 's/^/[fwd-b] /' /tmp/fwdb.log
