#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Our PCI backend against the emulated ISM function in an x86_64 guest
(python3 standard library).

QEMU with the device "ism" (devtools/qemu-ism.sh) runs an x86_64 guest
(tests/vm/vmlib.py: q35, TCG, emulated intel-iommu) with two functions of
one fabric (BAR 0 of 1 TiB, what vfio-pci's 40-bit region offsets reach;
MSI, as the hardware, no MSI-X). plan.sh binds both to vfio-pci; the ism
bus sets them up and the PCI backend drives them:
  - dpdk-test-ism's functional suites on the two (commands through the
    command window, store blocks through BAR 0 written with write(2),
    signals in the SBA, events and SIGNAL_IEQ through the IEQ and the MSI);
  - dpdk-ism_fwd between them, checking every packet (loopback-check).
Checks on the console: both functions up with the GIDs QEMU was given and
their interrupt on, BAR 0 not mapped (written with write(2)), the suites
without a failure, interrupts and IEQ events counted, no failed command,
the forwarded packets without loss, corruption or reordering.

    vm_test.py --test BIN --fwd BIN --tag TAG

ISM_EMUL_SUITES, ISM_EMUL_SUITES2: the dpdk-test-ism suites of its two
runs (default: those that run on two given devices in a reasonable time;
the second run's suites reset xstats).

Skips (77) unless devtools/qemu-ism.sh has built QEMU (make test-emul
does) and tests/vm/prepare.sh was run, and in sanitizer builds.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..", "..")
sys.path.insert(0, os.path.join(HERE, "..", "..", "vm"))
import vmlib  # noqa: E402  (tests/vm)
from vmlib import ism_eal  # noqa: E402

PMDS = "/usr/lib/x86_64-linux-gnu/dpdk/pmds-23.0"
RING_PMD = PMDS + "/librte_net_ring.so.23"
MEMPOOL_PMD = PMDS + "/librte_mempool_ring.so.23"
GID_A, GID_B = "0x15a0000000000a01", "0x15a0000000000b02"
FABRIC = 0x15a
# Suites that run on two given devices; devargs creates devices, nocopy
# and twolcore need what ISM or a one-CPU guest has not, and data moves
# hundreds of MiB (4-byte MMIO writes under TCG: hours; it runs in
# process, and dpdk-ism_fwd checks every byte it forwards here).
SUITES = os.environ.get("ISM_EMUL_SUITES", "api,dmb,move,signal,events")
SUITES2 = os.environ.get("ISM_EMUL_SUITES2", "fp,rawdev")
TIMEOUT_S = 1500


def qemu_ism():
    """qemu-system-x86_64 of devtools/qemu-ism.sh, or Skip."""
    r = subprocess.run([os.path.join(TOP, "devtools", "qemu-ism.sh"),
                        "find"], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise vmlib.Skip("no QEMU with the ism device: run "
                         "devtools/qemu-ism.sh prefix (make test-emul)")
    return os.path.join(r.stdout.strip(), "bin", "qemu-system-x86_64")


def devices():
    out = []
    for i, gid in enumerate((GID_A, GID_B)):
        # x86 has no store block instruction: the device's test mode
        # takes the CPU's MMIO pieces (store-pieces).
        out += ["-device", "ism,id=ism%d,fabric=%d,gid=%s,bar0-size=1T,"
                "msix=off,store-pieces=on" % (i, FABRIC, gid)]
    return out


def xstats(lines, run):
    """{(device, name): value} of the XSTAT lines of step run."""
    out, inside = {}, False
    for ln in lines:
        if ln.startswith("VMTEST-RUN "):
            inside = ln.split()[1] == run
        m = re.match(r"^XSTAT (\S+) (\w+) (\d+)$", ln)
        if inside and m:
            out[(m.group(1), m.group(2))] = int(m.group(3))
    return out


def check(c, lines):
    """The console checks of the docstring, on vmlib.Console c."""
    bdfs = [m.group(1) for m in (re.match(r"^VMTEST-BDF (\S+) ", ln)
                                 for ln in lines) if m]
    if len(bdfs) != 2:
        c.fail("ISM functions bound to vfio-pci: %s" % bdfs)
        return
    x = xstats(lines, "functional")
    for bdf, gid in zip(bdfs, (GID_A, GID_B)):
        b = re.escape(bdf)
        c.expect(r"%s: ISM PCI function, .*gid %s, .*interrupt on"
                 % (b, gid))
        # Store blocks through write(2): BAR 0 not mapped.
        c.expect(r"%s: BAR0: 0x10000000000 bytes at region offset "
                 r"\S+, region read/write" % b)
        # Interrupts (signals, events) through the MSI, on both.
        for name, least in (("pci_commands", 1), ("pci_interrupts", 1),
                            ("pci_command_io_errors", 0),
                            ("pci_command_device_errors", 0),
                            ("pci_ieq_bad_index", 0)):
            v = x.get((bdf, name))
            if v is None or (v < least if least else v != 0):
                c.fail("%s: xstat %s is %s" % (bdf, name, v))
    # SIGNAL_IEQ's events reached B through its IEQ.
    if x.get((bdfs[1], "pci_ieq_events"), 0) == 0:
        c.fail("no IEQ event reached %s" % bdfs[1])
    c.expect_count(r"^summary: [1-9][0-9]* passed, 0 failed", 2)
    c.expect_count(r"^\s+\[FAIL\]", 0)
    c.expect(r"^VMTEST-RC functional 0$")
    c.expect(r"^VMTEST-RC functional-2 0$")
    c.expect(r"loopback-check ok [1-9][0-9]* lost 0 corrupt 0 "
             r"reordered 0")
    c.expect(r"^VMTEST-RC fwd 0$")
    c.expect(r"^VMTEST-RC fwd-b 0$")
    c.expect(r"^VMTEST-END done$")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--test", required=True)
    ap.add_argument("--fwd", required=True)
    ap.add_argument("--tag", default="dev")
    args = ap.parse_args()
    vmlib.check_ready(args.tag)
    qemu = qemu_ism()
    for f in (RING_PMD, MEMPOOL_PMD):
        if not os.path.isfile(f):
            raise vmlib.Skip("no %s" % f)
    test, fwd = os.path.realpath(args.test), os.path.realpath(args.fwd)
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    with open(os.path.join(HERE, "plan.sh")) as f:
        plan = ('TEST=%s\nFWD=%s\nPMDS="-d %s -d %s"\nGID_A=%s\nGID_B=%s\n'
                'SUITES=%s\nSUITES2=%s\n%s'
                % (test, fwd, RING_PMD, MEMPOOL_PMD, GID_A, GID_B, SUITES,
                   SUITES2, f.read()))
    procs = []
    with tempfile.TemporaryDirectory(prefix="ism-emul-vm.") as tmp:
        initrd = vmlib.initramfs(tmp, programs=[test, fwd],
                                 files=[RING_PMD, MEMPOOL_PMD],
                                 plans={"ism": plan})
        console = None

        def body():
            nonlocal console
            guest = vmlib.Guest("guest", "ism", initrd, devices=devices(),
                                timeout=TIMEOUT_S, qemu=qemu,
                                machine={"-m": "1536",
                                         "-cpu": "max,phys-bits=48"})
            procs.append(guest.proc)
            rc, secs = guest.finish()
            print("qemu exit status %d after %.0f s (informational)"
                  % (rc, secs))
            console = vmlib.Console(guest.lines)
            check(console, console.lines)

        try:
            ism_eal.run_all(procs, body)
        except ism_eal.Error as e:
            print("FAIL: %s" % e)
            return 1
    if console.fails:
        print("%d check(s) failed" % console.fails)
        return 1
    for ln in console.lines:
        if re.match(r"^(summary|XSTAT \S+ pci_|.*loopback-check ok)", ln):
            print(ln)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(vmlib.skip_main(main))
