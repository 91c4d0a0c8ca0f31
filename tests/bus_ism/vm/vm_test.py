#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The ism bus's vfio path on a real vfio-pci device (python3 standard
library).

A QEMU (TCG) guest with an emulated IOMMU binds an ivshmem-doorbell
function to vfio-pci and runs ism-bus-test on it, presented as an ISM
function through fake sysfs roots (guest-init.sh). Checks set-up, BAR
region info, mmap and region read/write (both seen by the host in the
ivshmem backing file), the interrupt (MSI-X through the bus's handle: the
function interrupts itself through its doorbell), DMA map, hotplug removal
and re-probe, cleanup; and the binding rules on the real device: presented
as bound to ism_vfio_pci it is probed, presented as an IBM Z function on
plain vfio-pci it is refused. The ivshmem server is ivshmem_server.py.

    vm_test.py PROG TAG

The server and QEMU run as tests/lib/ism_eal.py processes (deadlines,
sessions of their own, cleaned up by pid). Skips (77) unless prepare.sh
was run, in sanitizer builds, and when ISM_SKIP_VM is set (make test
honours it: the guest may have been prepared before). ISM_VM_DIR: the prepared guest
(default /var/tmp/dpdk-ism-vm); ISM_VM_TIMEOUT: QEMU's deadline in s.
"""

import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "lib"))
import ism_eal  # noqa: E402  (tests/lib)


def skip(why):
    print("SKIP: %s" % why)
    sys.exit(77)


def copy_abs(root, path):
    """path into the guest's root at the same absolute path."""
    dst = root + path
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy(path, dst)      # follows links, as cp -L


def initramfs(tmp, vm_dir, prog):
    """busybox, the vfio modules, the test program with its shared
    libraries at their host paths (its RUNPATH is relative to itself)."""
    root = os.path.join(tmp, "root")
    for d in ("bin", "sbin", "proc", "sys", "dev", "run", "tmp", "var",
              "lib/modules"):
        os.makedirs(os.path.join(root, d))
    os.symlink("/run", root + "/var/run")
    shutil.copy("/bin/busybox", root + "/bin/busybox")
    shutil.copy(os.path.join(HERE, "guest-init.sh"), root + "/init")
    os.chmod(root + "/init", 0o755)
    shutil.copytree(os.path.join(vm_dir, "modules", "lib", "modules"),
                    root + "/lib/modules", symlinks=True,
                    dirs_exist_ok=True)
    copy_abs(root, prog)
    libs = set(re.findall(r"(/\S+)", subprocess.run(
        ["ldd", prog], stdout=subprocess.PIPE, text=True,
        check=True).stdout))
    # glibc dlopen()s libgcc_s for pthread_cancel (rte_eal_cleanup).
    for line in subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE,
                               text=True, check=True).stdout.splitlines():
        if re.search(r"libgcc_s\.so\.1 .*x86-64", line):
            libs.add(line.split()[-1])
            break
    for lib in sorted(libs):
        copy_abs(root, lib)
    cpio = subprocess.run("find . -print0 | cpio --null -o -H newc --quiet",
                          shell=True, cwd=root, stdout=subprocess.PIPE,
                          check=True).stdout
    initrd = os.path.join(tmp, "initrd.gz")
    with gzip.open(initrd, "wb", compresslevel=1) as f:
        f.write(cpio)
    return initrd


class Console:
    """The guest's console lines and the checks on them."""

    def __init__(self, lines):
        self.lines = [ln.replace("\r", "") for ln in lines]
        self.fails = 0

    def fail(self, what):
        print("FAIL: %s" % what)
        self.fails += 1

    def count(self, ere):
        rx = re.compile(ere)
        return sum(1 for ln in self.lines if rx.search(ln))

    def expect(self, ere):
        if not self.count(ere):
            self.fail("no console line matching /%s/" % ere)

    def expect_count(self, ere, n):
        got = self.count(ere)
        if got != n:
            self.fail("%d console lines match /%s/, expected %d"
                      % (got, ere, n))


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
    vm_dir = os.environ.get("ISM_VM_DIR", "/var/tmp/dpdk-ism-vm")
    # make test honours ISM_SKIP_VM even when the guest was prepared before.
    if os.environ.get("ISM_SKIP_VM"):
        skip("ISM_SKIP_VM is set")
    if tag != "rel":
        skip("runs in the release build only")
    if shutil.which("qemu-system-x86_64") is None:
        skip("no qemu-system-x86_64: run tests/bus_ism/vm/prepare.sh once "
             "(root)")
    if not (os.path.isfile(vm_dir + "/vmlinux") and
            os.path.isdir(vm_dir + "/modules")):
        skip("no guest kernel in %s: run tests/bus_ism/vm/prepare.sh once "
             "(root)" % vm_dir)
    if not os.access("/bin/busybox", os.X_OK):
        skip("no /bin/busybox (busybox-static)")
    # meson's timeout sends SIGTERM: unwind, so that the processes are
    # cleaned up and the directory removed.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    vm_timeout = int(os.environ.get("ISM_VM_TIMEOUT", "240"))
    procs = []
    with tempfile.TemporaryDirectory(prefix="ism-bus-vm.") as tmp:
        initrd = initramfs(tmp, vm_dir, prog)
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
            qemu = ism_eal.Process(
                ["qemu-system-x86_64", "-machine", "q35,accel=tcg",
                 "-cpu", "max", "-m", "512", "-smp", "1", "-nodefaults",
                 "-display", "none", "-serial", "stdio", "-no-reboot",
                 "-device", "intel-iommu,aw-bits=48",
                 "-chardev", "socket,path=%s,id=ivs" % sock,
                 "-device", "ivshmem-doorbell,chardev=ivs,vectors=1",
                 "-kernel", vm_dir + "/vmlinux", "-initrd", initrd,
                 "-append", "console=ttyS0 panic=-1 quiet intel_iommu=on "
                 # A starved TCG vCPU fails the IO-APIC timer check at boot
                 # ("timer doesn't work through Interrupt-remapped
                 # IO-APIC", a panic): Linux's no_timer_check skips it.
                 "no_timer_check "
                 "vmtest.prog=%s" % prog], "qemu", vm_timeout,
                deadline_signal=signal.SIGTERM)
            procs.append(qemu)
            print("qemu exit status %d"
                  % qemu.wait(vm_timeout + ism_eal.KILL_AFTER_S + 5))
            server.wait(30)
            console = Console(qemu.lines)
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
    sys.exit(main())
