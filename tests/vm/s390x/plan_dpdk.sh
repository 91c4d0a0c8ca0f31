# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The plan of the s390x guest of the IBM Z user's path
# (tests/vm/s390x/s390x_dpdk_test.py writes it into the initramfs after
# FID_A, FID_B, FID_C, GID_A, GID_B, TEST, FWD, SMC, PMDS, LIBS and
# ON_IBM_Z, the
# commands of the section "On an IBM Z machine" of
# doc/guides/platform/ibm_z.rst; tests/vm/guest-init.sh runs it):
#   functional         ON_IBM_Z: both functions to ism_vfio_pci, 1 MiB
#                      hugepages, dpdk-test-ism's suites on the two (fails
#                      at EAL's hugepage set-up on a CPU without EDAT-1:
#                      VMTEST-NOEDAT, below)
#   functional-nohuge  the same suites with --no-huge
#   block-a, block-b   EAL's -b with B's zPCI address: A is probed, B is
#                      not (block-a), a suite on A and B fails (block-b)
#   intr               the interrupt mode (a sleeping thread woken by the
#                      function's MSI)
#   fwd                dpdk-ism_fwd between two processes, A checking every
#                      packet it gets back from B, while SMC-D (smc_test:
#                      checked bytes between two AF_SMC sockets) runs on
#                      the third function
# The kernel has everything built in: Linux's ism driver took the three
# functions at boot; ON_IBM_Z moves the first two to ism_vfio_pci and the
# third stays with it.
echo "VMTEST-INIT role=$ROLE kernel=$(uname -r) machine=$(uname -m)"
# The s390x programs: their loader and libraries (the tree's programs and
# DPDK's, at their host paths).
ln -s /usr/s390x-linux-gnu/lib/ld64.so.1 /lib/ld64.so.1
export LD_LIBRARY_PATH="$LIBS"
ln -s "$TEST" /bin/dpdk-test-ism
ln -s "$FWD" /bin/dpdk-ism_fwd

# The functions by fid; zPCI addresses (domain = uid).
bdf_of() {
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/function_id" 2>/dev/null)" = "$1" ] &&
			echo "${d##*/}"
	done
}
A=$(bdf_of "$FID_A")
B=$(bdf_of "$FID_B")
C=$(bdf_of "$FID_C")
[ -n "$A" ] && [ -n "$B" ] && [ -n "$C" ] ||
	finish "functions of fid $FID_A, $FID_B, $FID_C: '$A' '$B' '$C'"
echo "VMTEST-FUNCS A=$A B=$B C=$C"
driver_of() {
	echo "VMTEST-DRIVER $1 $(basename "$(readlink "/sys/bus/pci/devices/$1/driver")")"
}
for b in $A $B $C; do
	driver_of "$b"
done

# 1 MiB hugepages need the CPU's EDAT-1 facility: Linux offers hugetlbfs
# on s390x only with it (hugepages_supported() in Linux's
# arch/s390/include/asm/hugetlb.h), and its hwcap "edat" says so in
# /proc/cpuinfo. QEMU's TCG CPU models have no EDAT-1 (target/s390x/
# gen-features.c in QEMU 7.2), so the guide's block fails there at EAL's
# hugepage set-up; it still binds the functions, and the steps below that
# need no hugepages run with --no-huge.
if grep -q '^features.*[[:space:]]edat\([[:space:]]\|$\)' /proc/cpuinfo; then
	MEM=
else
	MEM=--no-huge
	echo "VMTEST-NOEDAT $(grep -m1 '^features' /proc/cpuinfo)"
fi
run functional ON_IBM_Z
for b in $A $B $C; do
	driver_of "$b"
done

run functional-nohuge dpdk-test-ism -l 0 --no-huge -m 192 --iova-mode=va \
	--file-prefix nohuge -a "ism:$A" -a "ism:$B" -- functional \
	--devices "$A,$B" --suite api,dmb,move,signal,events
# EAL's -b with a zPCI address: the blocked function is not probed, the
# other one is (block-a: the bus's lines), and a suite on both fails for
# want of B (block-b).
run block-a dpdk-test-ism -l 0 --no-huge -m 64 --iova-mode=va \
	--file-prefix blka -b "ism:$B" -- list
run block-b dpdk-test-ism -l 0 --no-huge -m 64 --iova-mode=va \
	--file-prefix blkb -b "ism:$B" -- functional --devices "$A,$B" \
	--suite api
# shellcheck disable=SC2086
run intr dpdk-test-ism -l 0,1 $MEM -m 128 --iova-mode=va --file-prefix intr \
	-a "ism:$A" -a "ism:$B" -- functional --devices "$A,$B" --suite intr

# SMC-D on the third function (Linux's ism driver) while ours forward.
ip link set lo up
"$SMC" --bytes 1000000 > /tmp/smc.log 2>&1 &
smc=$!
# shellcheck disable=SC2086
dpdk-ism_fwd -l 0 $MEM -m 128 --iova-mode=va --file-prefix fwdb $PMDS \
	--vdev net_ring0 -a "ism:$B" -- --peer-gid "$GID_A" \
	--fwd-mode iofwd --stats-period 0 --on-peer-loss exit \
	> /tmp/fwdb.log 2>&1 &
fwdb=$!
# shellcheck disable=SC2086
run fwd dpdk-ism_fwd -l 1 $MEM -m 128 --iova-mode=va --file-prefix fwda $PMDS \
	-a "ism:$A" -- --peer-gid "$GID_B" --fwd-mode loopback-check \
	--nb-pkts 10000 --pkt-size 60-1500 --stats-period 0 \
	--on-peer-loss exit
wait $fwdb
echo "VMTEST-RC fwd-b $?"
sed 's/^/[fwd-b] /' /tmp/fwdb.log
wait $smc
echo "VMTEST-RC smc $?"
cat /tmp/smc.log
