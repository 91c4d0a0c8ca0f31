# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The plan of the s390x guest of the IBM Z user's path
# (tests/vm/s390x/s390x_dpdk_test.py writes it into the initramfs after
# FID_A, FID_B, GID_A, GID_B, TEST, FWD, PMDS, LIBS and ON_IBM_Z, the
# commands of the section "On an IBM Z machine" of
# doc/guides/platform/ibm_z.rst; tests/vm/guest-init.sh runs it):
#   functional         ON_IBM_Z: both functions to ism_vfio_pci, 1 MiB
#                      hugepages, dpdk-test-ism's suites on the two
#   functional-nohuge  the same suites with --no-huge
#   intr               the interrupt mode (a sleeping thread woken by the
#                      function's MSI)
#   fwd                dpdk-ism_fwd between two processes, A checking every
#                      packet it gets back from B
# The third function stays with Linux's ism driver.
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
[ -n "$A" ] && [ -n "$B" ] || finish "functions of fid $FID_A, $FID_B: '$A' '$B'"
echo "VMTEST-FUNCS A=$A B=$B"

run functional ON_IBM_Z
for b in $A $B; do
	echo "VMTEST-DRIVER $b $(basename "$(readlink "/sys/bus/pci/devices/$b/driver")")"
done
# The third function: Linux's own driver.
modprobe ism && echo "VMTEST-ISM loaded"

run functional-nohuge dpdk-test-ism -l 0 --no-huge -m 192 --iova-mode=va \
	--file-prefix nohuge -a "ism:$A" -a "ism:$B" -- functional \
	--devices "$A,$B" --suite api,dmb,move,signal,events
run intr dpdk-test-ism -l 0,1 -m 128 --iova-mode=va --file-prefix intr \
	-a "ism:$A" -a "ism:$B" -- functional --devices "$A,$B" --suite intr

# shellcheck disable=SC2086
dpdk-ism_fwd -l 0 -m 128 --iova-mode=va --file-prefix fwdb $PMDS \
	--vdev net_ring0 -a "ism:$B" -- --peer-gid "$GID_A" \
	--fwd-mode iofwd --stats-period 0 --on-peer-loss exit \
	> /tmp/fwdb.log 2>&1 &
fwdb=$!
# shellcheck disable=SC2086
run fwd dpdk-ism_fwd -l 1 -m 128 --iova-mode=va --file-prefix fwda $PMDS \
	-a "ism:$A" -- --peer-gid "$GID_B" --fwd-mode loopback-check \
	--nb-pkts 10000 --pkt-size 60-1500 --stats-period 0 \
	--on-peer-loss exit
wait $fwdb
echo "VMTEST-RC fwd-b $?"
sed 's/^/[fwd-b] /' /tmp/fwdb.log
