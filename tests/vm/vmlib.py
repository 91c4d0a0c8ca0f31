# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The QEMU guests of the VM tests (python3 standard library), one harness
for all of them (tests/bus_ism/vm, tests/ivshm/vm, tests/ism_device/vm):

  - the guest kernel and its vfio modules, prepared once per machine by
    tests/vm/prepare.sh into ISM_VM_DIR (default /var/tmp/dpdk-ism-vm);
  - an initramfs per test: busybox, /init (tests/vm/guest-init.sh), the
    modules, the test's programs with their shared libraries at their host
    paths (their run paths are relative to themselves), and the test's
    plans, /plans/<role>.sh, the shell steps a guest of that role runs;
  - QEMU runs (x86_64 q35, TCG, emulated intel-iommu, the PVH vmlinux),
    each a tests/lib/ism_eal.py process: under a deadline, its console
    lines back one by one, killed and reaped whatever happens;
  - the markers of guest-init.sh on the console.

Guests run with -smp 1,maxcpus=2: with maxcpus 1 QEMU's TCG runs without
its parallel mode and a guest's atomic instructions are not atomic for
other threads of QEMU (measured with the ivshmem backend: 1.3 million of
33 million shared increments lost)."""

import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import ism_eal  # noqa: E402  (tests/lib)

VM_DIR = os.environ.get("ISM_VM_DIR", "/var/tmp/dpdk-ism-vm")
BUSYBOX = "/bin/busybox"
# QEMU's deadline, s (ISM_VM_TIMEOUT overrides the test's own).
TIMEOUT_S = int(os.environ.get("ISM_VM_TIMEOUT", "0")) or None


class Skip(Exception):
    """The test cannot run here: print SKIP and exit 77."""


def check_ready(tag, qemu="qemu-system-x86_64"):
    """Raise Skip unless a guest can run: release build (tag "rel"), QEMU,
    the prepared kernel, busybox; ISM_SKIP_VM unset (make test honours it
    even when the guest was prepared before)."""
    if os.environ.get("ISM_SKIP_VM"):
        raise Skip("ISM_SKIP_VM is set")
    if tag != "rel":
        raise Skip("runs in the release build only")
    if shutil.which(qemu) is None:
        raise Skip("no %s: run tests/vm/prepare.sh once (root)" % qemu)
    if not (os.path.isfile(os.path.join(VM_DIR, "vmlinux")) and
            os.path.isdir(os.path.join(VM_DIR, "modules"))):
        raise Skip("no guest kernel in %s: run tests/vm/prepare.sh once "
                   "(root)" % VM_DIR)
    if not os.access(BUSYBOX, os.X_OK):
        raise Skip("no %s (busybox-static)" % BUSYBOX)


def skip_main(fn):
    """Run fn() (the test's main); a Skip it raises becomes exit 77."""
    try:
        return fn()
    except Skip as e:
        print("SKIP: %s" % e)
        return 77


def _libraries(path):
    """path's shared libraries (ldd), absolute."""
    out = subprocess.run(["ldd", path], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    return set(re.findall(r"(/\S+)", out))


def initramfs(tmp, programs=(), plans=None, files=(), busybox=BUSYBOX,
              modules=True, libraries=None, module_tree=None):
    """Build tmp/initrd.gz: busybox (another architecture's: its path),
    /init, the vfio modules of prepare.sh (modules=False: none, for a
    kernel with vfio built in; module_tree: that lib/modules tree
    instead), programs (and the shared libraries they and files need,
    found with ldd, or with libraries(path) for another architecture's)
    at their host paths, files as they are, plans ({role: shell text}) as
    /plans/<role>.sh. Returns its path."""
    root = os.path.join(tmp, "root")
    for d in ("bin", "sbin", "proc", "sys", "dev", "run", "tmp", "var",
              "lib/modules", "plans"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.symlink("/run", os.path.join(root, "var/run"))
    shutil.copy(busybox, os.path.join(root, "bin/busybox"))
    shutil.copy(os.path.join(HERE, "guest-init.sh"),
                os.path.join(root, "init"))
    os.chmod(os.path.join(root, "init"), 0o755)
    if module_tree or modules:
        shutil.copytree(module_tree or
                        os.path.join(VM_DIR, "modules", "lib", "modules"),
                        os.path.join(root, "lib/modules"), symlinks=True,
                        dirs_exist_ok=True)
    want = set()
    for f in list(programs) + list(files):
        want.add(f)                     # under the name the plan uses
        want.add(os.path.realpath(f))
        if f in programs or f.endswith(".so") or ".so." in f:
            want.update((libraries or _libraries)(f))
    if libraries is None:
        # glibc dlopen()s libgcc_s for pthread_cancel (rte_eal_cleanup).
        out = subprocess.run(["ldconfig", "-p"], stdout=subprocess.PIPE,
                             text=True, check=True).stdout
        want.update(ln.split()[-1] for ln in out.splitlines()
                    if "libgcc_s.so.1" in ln and "x86-64" in ln)
    for f in sorted(want):
        dst = root + f
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(f, dst)             # follows links, as cp -L
    for role, text in (plans or {}).items():
        with open(os.path.join(root, "plans", role + ".sh"), "w") as f:
            f.write(text + "\n")
    cpio = subprocess.run("find . -print0 | cpio --null -o -H newc --quiet",
                          shell=True, cwd=root, stdout=subprocess.PIPE,
                          check=True).stdout
    initrd = os.path.join(tmp, "initrd.gz")
    with gzip.open(initrd, "wb", compresslevel=1) as f:
        f.write(cpio)
    return initrd


# The machine every x86_64 guest gets; intel-iommu before the devices.
X86_MACHINE = ["-machine", "q35,accel=tcg", "-cpu", "max", "-m", "512",
               "-smp", "1,maxcpus=2", "-nodefaults", "-display", "none",
               "-serial", "stdio", "-no-reboot",
               "-device", "intel-iommu,aw-bits=48"]
# no_timer_check: on a loaded host the kernel's timer check under TCG can
# fail and, with interrupt remapping, panic ("timer doesn't work through
# Interrupt-remapped IO-APIC").
X86_APPEND = "console=ttyS0 panic=-1 quiet intel_iommu=on no_timer_check"


class Guest:
    """One QEMU guest of role role, its console lines; devices: the QEMU
    arguments of its functions; machine: replaces X86_MACHINE's options
    where given as a dict {option: value}. Another machine (an s390x
    guest): args instead of X86_MACHINE, its kernel, and append instead of
    X86_APPEND."""

    def __init__(self, name, role, initrd, devices=(), timeout=240,
                 qemu="qemu-system-x86_64", machine=None, echo=True,
                 args=None, kernel=None, append=X86_APPEND):
        self.name = name
        self.timeout = TIMEOUT_S or timeout
        args = list(X86_MACHINE if args is None else args)
        for opt, val in (machine or {}).items():
            args[args.index(opt) + 1] = val
        cmd = [qemu] + args + list(devices) + [
            "-kernel", kernel or os.path.join(VM_DIR, "vmlinux"),
            "-initrd", initrd,
            "-append", "%s vmtest.role=%s" % (append, role)]
        self.t0 = time.monotonic()
        self.proc = ism_eal.Process(cmd, name, self.timeout, echo=echo,
                                    deadline_signal=signal.SIGTERM)

    @property
    def lines(self):
        """The console lines so far, without carriage returns."""
        return [ln.replace("\r", "") for ln in self.proc.lines]

    def count(self):
        return self.proc.count()

    def wait_line(self, prefix, timeout=None, pred=None, start=0):
        """(index, line) of the first console line from start that starts
        with prefix and satisfies pred(line); ism_eal.Error at the
        deadline or when the guest ended without one."""
        i = self.proc.wait_for(r"^\r*" + re.escape(prefix),
                               timeout or self.timeout, start,
                               None if pred is None else
                               lambda ln: pred(ln.replace("\r", "")))
        return i, self.proc.line(i).replace("\r", "")

    def kill(self):
        self.proc.kill()

    def finish(self):
        """Wait until the guest powered itself off: (exit status, s)."""
        rc = self.proc.wait(self.timeout + ism_eal.KILL_AFTER_S + 5)
        return rc, time.monotonic() - self.t0

    def cleanup(self):
        self.proc.cleanup()

    def check_clean(self):
        """No FAIL line on its console."""
        bad = [ln for ln in self.lines if ln.startswith("FAIL")]
        ism_eal.check(not bad, "%s: %s" % (self.name, bad[0] if bad
                                           else ""))


class Console:
    """Checks on console lines: failures counted and printed."""

    def __init__(self, lines):
        self.lines = lines
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
