#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The ism bus's vfio path on a real vfio-pci device (python3 standard
library).

A QEMU (TCG) guest with an emulated IOMMU (tests/vm/vmlib.py) binds an
ivshmem-doorbell function to vfio-pci and runs ism-bus-test on it,
presented as an ISM function through fake sysfs roots (plan.sh). Checks
set-up, BAR region info, mmap and region read/write (both seen by the host
in the ivshmem backing file), the interrupt (MSI-X through the bus's
handle: the function interrupts itself through its doorbell), DMA map,
hotplug removal and re-probe, cleanup; and the binding rules on the real
device: presented as bound to ism_vfio_pci it is probed, presented as an
IBM Z function on plain vfio-pci it is refused. The ivshmem server is
ivshmem_server.py.

    vm_test.py PROG TAG

The server and QEMU run as tests/lib/ism_eal.py processes (deadlines,
sessions of their own, cleaned up by pid). Skips (77) unless
tests/vm/prepare.sh was run, in sanitizer builds, and when ISM_SKIP_VM is
set. ISM_VM_DIR: the prepared guest (default /var/tmp/dpdk-ism-vm);
ISM_VM_TIMEOUT: QEMU's deadline in s.
"""

import os
import re
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "vm"))
import vmlib  # noqa: E402  (tests/vm)
from vmlib import ism_eal  # noqa: E402


def check_console(c, shm):
    bdf = group = None
    for ln in c.lines:
        m = re.match(r"^VMTEST-BDF (\S+) \S+ (\S+)", ln)
        if m:
            bdf, group = m.groups()
            break
    if bdf is None:
        c.fail("the guest did not get to the test")
    else:
        b = re.escape(bdf)
        c.expect(r"^EAL_INIT ok$")
        c.expect_count(r"^PROBE %s driver=ism_bus_test numa=-?[0-9]+ "
                       r"kdrv=vfio-pci group=%s vfio=yes " % (b, group), 2)
        c.expect(r"^REGIONS %s .*bar2=0x400000:mapped" % b)
        c.expect_count(r"^VFIO_READ map rc=0 HOST-MARKER-ism0$", 2)
        c.expect_count(r"^VFIO_READ rw rc=0 HOST-MARKER-ism0$", 2)
        c.expect_count(r"^VFIO_REG32 rc=0 same=1$", 2)
        c.expect_count(r"^VFIO_CROSS map_sees_rw=1 rc=0$", 2)
        c.expect_count(r"^VFIO_CROSS rw_sees_map=1 unaligned_same=1 rc=0$",
                       2)
        c.expect_count(r"^VFIO_BOUNDS rc=-22$", 2)
        # Vector 0 of the MSI-X, twice, then off.
        c.expect_count(r"^INTR %s type=msix pos=1 rc=0 seen=2$" % b, 3)
        c.expect_count(r"^INTR_OFF %s rc=0 unregister=1$" % b, 3)
        c.expect(r"^DMAMAP %s rc=0 unmap=0$" % b)
        c.expect(r"^HOTPLUG_REMOVE %s rc=0$" % b)
        c.expect(r"^HOTPLUG_PROBE ism:%s rc=0$" % b)
        c.expect_count(r"^REMOVE %s$" % b, 3)
        c.expect_count(r"^CLEANUP rc=0$", 3)
        c.expect(r"^VMTEST-RC vfio-pci 0$")
        # Bound to ism_vfio_pci (as IBM Z): taken, set up, probed.
        c.expect_count(r"^PROBE %s driver=ism_bus_test numa=-?[0-9]+ "
                       r"kdrv=ism_vfio_pci group=%s vfio=yes " % (b, group),
                       1)
        c.expect(r"ISM_BUS: %s: ISM function \(IBM Z\), .*kernel driver "
                 r"ism_vfio_pci" % b)
        c.expect(r"^VMTEST-RC ism_vfio_pci 0$")
        # IBM Z on plain vfio-pci: refused before vfio, with the commands.
        c.expect(r"ISM_BUS: %s: bound to vfio-pci, which cannot do ISM I/O "
                 r"on IBM Z .*; skipped. To use it: modprobe ism-vfio-pci; "
                 r"echo ism_vfio_pci > /sys/bus/pci/devices/%s/"
                 r"driver_override;" % (b, b))
        c.expect(r"^VMTEST-RC zpci-vfio-pci 0$")
        c.expect_count(r"^PROBE %s " % b, 3)
    c.expect(r"^VMTEST-END done$")
    # The guest's writes, through each path, reached the shared memory.
    with open(shm, "rb") as f:
        mem = f.read()
    if mem[4096:4096 + 15].replace(b"\0", b"") != b"ism-bus-pwrite!":
        c.fail("region write not in the host's ivshmem file")
    if mem[8192:8192 + 15].replace(b"\0", b"") != b"ism-bus-mmio-ok":
        c.fail("mapped write not in the host's ivshmem file")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    prog, tag = os.path.realpath(sys.argv[1]), sys.argv[2]
    vmlib.check_ready(tag)
    # meson's timeout sends SIGTERM: unwind, so that the processes are
    # cleaned up and the directory removed.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    vm_timeout = vmlib.TIMEOUT_S or 240
    procs = []
    with tempfile.TemporaryDirectory(prefix="ism-bus-vm.") as tmp:
        with open(os.path.join(HERE, "plan.sh")) as f:
            plan = "PROG=%s\n%s" % (prog, f.read())
        initrd = vmlib.initramfs(tmp, programs=[prog],
                                 plans={"bus": plan})
        # The ivshmem memory, with a marker for the guest to read.
        shm = os.path.join(tmp, "ivshmem")
        with open(shm, "wb") as f:
            f.write(b"HOST-MARKER-ism0")
            f.truncate(4 << 20)
        console = None

        def body():
            nonlocal console
            # The server hands QEMU the memory and the eventfd of vector
            # 0; it stays until QEMU closes the connection (bounded like
            # QEMU).
            sock = os.path.join(tmp, "ivshmem.sock")
            server = ism_eal.Process(
                ["python3", os.path.join(HERE, "ivshmem_server.py"), sock,
                 shm, vm_timeout + 5], "ivshmem", vm_timeout + 10,
                deadline_signal=signal.SIGTERM)
            procs.append(server)
            end = time.monotonic() + 30
            while not os.path.exists(sock):
                ism_eal.check(server.alive() and time.monotonic() < end,
                              "the ivshmem server did not start")
                time.sleep(0.1)
            guest = vmlib.Guest(
                "qemu", "bus", initrd, timeout=vm_timeout, echo=False,
                machine={"-smp": "1"},
                devices=["-chardev", "socket,path=%s,id=ivs" % sock,
                         "-device", "ivshmem-doorbell,chardev=ivs,"
                         "vectors=1"])
            procs.append(guest.proc)
            print("qemu exit status %d" % guest.finish()[0])
            server.wait(30)
            console = vmlib.Console(guest.lines)
            check_console(console, shm)

        try:
            ism_eal.run_all(procs, body)
        except ism_eal.Error as e:
            print("FAIL: %s" % e)
            return 1
    if console.fails:
        print("---- guest console:")
        print("\n".join(console.lines))
        print("%d check(s) failed" % console.fails)
        return 1
    for ln in [ln for ln in console.lines
               if re.match(r"^(REGIONS|VFIO_|INTR|DMAMAP)", ln)][:10]:
        print(ln)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(vmlib.skip_main(main))
