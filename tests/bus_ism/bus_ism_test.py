#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""ism bus tests against fake PCI sysfs trees (python3 standard library).

    bus_ism_test.py CASE PROG PROG_PCIFIRST TAG

CASE: scan | allow-block | pci-coexist | pci-first | binding | zpci |
malformed | hotplug | ivshmem. PROG is ism-bus-test; PROG_PCIFIRST the
same program with the pci bus registered before the ism bus; TAG keeps
the --file-prefix of the release and ASan builds apart. Each EAL process runs
through tests/lib/ism_eal.py: under a deadline, with its own --file-prefix
(its runtime directory removed afterwards), without hugepages. Every check
of a case runs; the output of each run with a failed check is printed at
the end. Exit status 0 if all checks pass, 1 otherwise. KEEP_TMP=1 keeps
the fake trees and says where.
"""

import os
import re
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import ism_eal  # noqa: E402  (tests/lib)

RUN_TIMEOUT_S = 60      # per EAL process; only stops a hang

ISM_V = "0x1014"
ISM_D = "0x04ed"


def write(path, text, mode="w"):
    with open(path, mode) as f:
        f.write(text)


def mkfn(root, bdf, vendor, device, driver=None, group=None, numa=None):
    """A PCI function directory with what the pci and ism buses read;
    None: no driver link, no IOMMU group link, no numa_node file."""
    d = os.path.join(root, bdf)
    os.makedirs(d, exist_ok=True)
    write(d + "/vendor", vendor + "\n")
    write(d + "/device", device + "\n")
    write(d + "/subsystem_vendor", "0x0000\n")
    write(d + "/subsystem_device", "0x0000\n")
    write(d + "/class", "0x088000\n")
    write(d + "/resource", "0x0000000000000000 0x0000000000000000 "
          "0x0000000000000000\n" * 6)
    if driver is not None:
        os.symlink("../../../../bus/pci/drivers/" + driver, d + "/driver")
    # Group numbers no real /dev/vfio has: set-up must stop at "not VFIO".
    if group is not None:
        os.symlink("../../../../kernel/iommu_groups/" + group,
                   d + "/iommu_group")
    if numa is not None:
        write(d + "/numa_node", numa + "\n")


def mk_basic_tree(root):
    """Three ISM functions and three look-alikes that are not ISM."""
    mkfn(root, "0000:00:02.0", ISM_V, ISM_D, "vfio-pci", "987650", "0")
    mkfn(root, "0000:00:02.1", ISM_V, ISM_D)
    mkfn(root, "0001:00:05.0", ISM_V, ISM_D, "ism", "987651", "1")
    mkfn(root, "0000:00:03.0", "0x1af4", "0x1110", "vfio-pci", "987652", "0")
    mkfn(root, "0000:00:04.0", ISM_V, "0x04ee", "vfio-pci", "987653", "0")
    mkfn(root, "0000:00:05.0", "0x8086", ISM_D, "vfio-pci", "987654", "0")
    # Not a PCI address: ignored even with ISM ids.
    mkfn(root, "not-a-bdf", ISM_V, ISM_D, "vfio-pci", "987655", "0")


class Bus:
    """One case: its fake trees, its runs and the checks that failed."""

    def __init__(self, case, prog, prog_pcifirst, tag, tmp):
        self.case = case
        self.prog = prog
        self.prog_pcifirst = prog_pcifirst
        self.tag = tag
        self.tmp = tmp
        self.root = os.path.join(tmp, "sys")
        self.runs = {}          # name -> ism_eal.Process
        self.fails = []         # (run name, what)

    def run(self, name, env, eal, app=(), prog=None):
        """ism-bus-test (or prog) -l 0 --no-huge -m 64 --log-level=
        bus.ism:debug EAL -- APP, with env added to an environment without
        the fake sysfs roots of the harness's own. Its output and exit
        status stay in self.runs[name]."""
        prefix = ism_eal.file_prefix(self.tag, "bus", self.case, name)
        cmd = [prog or self.prog, "-l", "0", "--no-huge", "-m", "64",
               "--file-prefix", prefix, "--log-level=bus.ism:debug"] + \
            list(eal) + (["--"] + list(app) if app else [])
        self.runs[name] = ism_eal.run(
            cmd, name, RUN_TIMEOUT_S, prefix=prefix, env=env,
            unset=("ISM_BUS_SYSFS_ROOT", "SYSFS_PCI_DEVICES"),
            deadline_signal=signal.SIGTERM)

    def sysfs(self, root=None):
        return {"ISM_BUS_SYSFS_ROOT": root or self.root}

    # Checks: each records a failure and goes on.

    def fail(self, name, what):
        print("FAIL [%s]: %s" % (name, what), flush=True)
        self.fails.append((name, what))

    def lines(self, name):
        return self.runs[name].lines

    def matching(self, name, ere):
        rx = re.compile(ere)
        return [ln for ln in self.lines(name) if rx.search(ln)]

    def expect_rc(self, name, rc):
        got = self.runs[name].proc.returncode
        if got != rc:
            self.fail(name, "exit status %d, expected %d" % (got, rc))

    def expect(self, name, ere, why=""):
        """Some output line matches ere."""
        if not self.matching(name, ere):
            self.fail(name, "no line matching /%s/ %s" % (ere, why))

    def expect_none(self, name, ere, why=""):
        if self.matching(name, ere):
            self.fail(name, "unexpected line matching /%s/ %s" % (ere, why))

    def expect_count(self, name, ere, n):
        got = len(self.matching(name, ere))
        if got != n:
            self.fail(name, "%d lines match /%s/, expected %d" %
                      (got, ere, n))

    def expect_seq(self, name, *eres):
        """Lines matching each ere appear in this order."""
        k = 0
        for ln in self.lines(name):
            if k < len(eres) and re.search(eres[k], ln):
                k += 1
        if k < len(eres):
            self.fail(name, "sequence broken at /%s/" % eres[k])

    def probed(self, name):
        """The addresses of the PROBE lines of a run, in order."""
        return " ".join(ln.split()[1] for ln in self.lines(name)
                        if ln.startswith("PROBE "))

    def expect_probed(self, name, bdfs):
        got = self.probed(name)
        if got != bdfs:
            self.fail(name, "probed [%s], expected [%s]" % (got, bdfs))

    def expect_clean_exit(self, name):
        """Every run must end with a clean EAL cleanup."""
        self.expect_rc(name, 0)
        self.expect(name, r"^EAL_INIT ok$")
        self.expect(name, r"^CLEANUP rc=0$")
        self.expect_none(name, r"AddressSanitizer|runtime error|"
                         r"Segmentation")


# ------------------------------------------------------------------ cases

def case_scan(t):
    mk_basic_tree(t.root)
    # As s390's zPCI writes it; the driver's CHID.
    write(t.root + "/0000:00:02.0/pchid", "0x0123\n")
    t.run("scan", t.sysfs(), ["--no-pci"],
          ["list", "bus=ism", "list", "bus=ism,addr=0000:00:02.1",
           "list", "bus=ism,addr=00:02.1", "list", "bus=ism,bogus=1",
           "region", "0000:00:02.0", "dmamap", "0000:00:02.0", "api"])
    t.expect_clean_exit("scan")
    t.expect_probed("scan", "0000:00:02.0 0000:00:02.1 0001:00:05.0")
    t.expect("scan", r"^PROBE 0000:00:02.0 driver=ism_bus_test numa=0 "
             r"kdrv=vfio-pci group=987650 vfio=no args=-$")
    t.expect("scan", r"^PROBE 0000:00:02.1 driver=ism_bus_test numa=-1 "
             r"kdrv=none group=-1 vfio=no args=-$")
    t.expect("scan", r"^PROBE 0001:00:05.0 driver=ism_bus_test numa=1 "
             r"kdrv=ism group=987651 vfio=no args=-$")
    t.expect("scan", r"ISM_BUS: 0000:00:02.0: ISM function, NUMA node 0, "
             r"kernel driver vfio-pci, IOMMU group 987650")
    # The PCHID is optional: without one it is 0, and nothing is said.
    t.expect("scan", r"^PCHID 0000:00:02.0 0x0123$")
    t.expect("scan", r"^PCHID 0000:00:02.1 0x0000$")
    t.expect_none("scan", r"sysfs pchid")
    t.expect_seq("scan", r"^LIST bus=ism ism 0000:00:02.0$",
                 r"^LIST bus=ism ism 0000:00:02.1$",
                 r"^LIST bus=ism ism 0001:00:05.0$",
                 r"^LIST_END bus=ism rte_errno=0$")
    t.expect_count("scan", r"^LIST bus=ism ", 3)
    t.expect_count("scan", r"^LIST bus=ism,addr=0000:00:02.1 ism "
                   r"0000:00:02.1$", 1)
    t.expect_count("scan", r"^LIST bus=ism,addr=0000:00:02.1 ", 1)
    t.expect_count("scan", r"^LIST bus=ism,addr=00:02.1 ism 0000:00:02.1$",
                   1)
    t.expect("scan", r"^LIST_END bus=ism,bogus=1 rte_errno=22$")
    # Refused by the bus layer parser (EAL parses the filter first).
    t.expect("scan", r'the bus layer takes addr= and fabric= only, not "bogus"')
    # Not set up through vfio: no BARs, no DMA mapping.
    t.expect("scan", r"^REGION 0000:00:02.0 read=-22 write=-22$")
    t.expect("scan", r"^DMAMAP 0000:00:02.0 rc=-1 rte_errno=ENOTSUP$")
    for c in ("read_null_dev", "read_null_buf", "read_bad_bar",
              "read_absent_bar", "read_beyond", "write_wrap"):
        t.expect("scan", r"^API %s=-22$" % c)
    # Failed accesses are logged at most once a second: a peer can make
    # every move fail.
    t.expect("scan", r"BAR2: read of 4 bytes at 0xe failed: beyond the end "
             r"of the BAR \(0 earlier failures not logged\)")
    t.expect_none("scan", r"write of 4 bytes at 0xffffffffffffffff")
    t.expect("scan", r"never_registered without a probe function")
    t.expect("scan", r"unregister: driver never_registered is not "
             r"registered")
    # rte_eal_cleanup removes every probed device, after the last command.
    t.expect_seq("scan", r"^API done$", r"^REMOVE 0000:00:02.0$",
                 r"^REMOVE 0000:00:02.1$", r"^REMOVE 0001:00:05.0$",
                 r"^CLEANUP rc=0$")
    t.expect_count("scan", r"^REMOVE ", 3)


def case_allow_block(t):
    mk_basic_tree(t.root)
    e = t.sysfs()

    t.run("a_prefix", e, ["--no-pci", "-a", "ism:0000:00:02.0"], ["devargs"])
    t.expect_clean_exit("a_prefix")
    t.expect_probed("a_prefix", "0000:00:02.0")
    t.expect("a_prefix", r"^DEVARGS ism 0000:00:02.0 allowed$")
    t.expect("a_prefix", r"0000:00:02.1: ISM function excluded by -a/-b")

    t.run("a_plain", e, ["--no-pci", "-a", "0000:00:02.1"], ["devargs"])
    t.expect_clean_exit("a_plain")
    t.expect_probed("a_plain", "0000:00:02.1")
    t.expect("a_plain", r"^DEVARGS ism 0000:00:02.1 allowed$")

    # Short form: the bus compares addresses, and normalises the name.
    t.run("a_short", e, ["--no-pci", "-a", "00:02.1"], ["devargs"])
    t.expect_clean_exit("a_short")
    t.expect_probed("a_short", "0000:00:02.1")
    t.expect("a_short", r"^DEVARGS ism 0000:00:02.1 allowed$")

    t.run("a_layered", e, ["--no-pci", "-a", "bus=ism,addr=0001:00:05.0"],
          ["devargs"])
    t.expect_clean_exit("a_layered")
    t.expect_probed("a_layered", "0001:00:05.0")
    t.expect("a_layered", r"^DEVARGS ism 0001:00:05.0 allowed$")

    t.run("a_args", e, ["--no-pci", "-a", "ism:0000:00:02.0,key=val"],
          ["devargs"])
    t.expect_clean_exit("a_args")
    t.expect("a_args", r"^PROBE 0000:00:02.0 .* args=key=val$")
    t.expect_probed("a_args", "0000:00:02.0")

    t.run("a_absent", e, ["--no-pci", "-a", "ism:0000:00:09.0"])
    t.expect_clean_exit("a_absent")
    t.expect_probed("a_absent", "")
    t.expect("a_absent", r"0000:00:09.0: allowed, but there is no ISM "
             r"function at this address")

    t.run("a_bad_layered", e, ["--no-pci", "-a", "bus=ism,addr=zz:zz"])
    t.expect_rc("a_bad_layered", 1)
    t.expect("a_bad_layered", r"addr is not a PCI address")
    t.expect("a_bad_layered", r"^EAL_INIT failed")

    # A device argument in the bus layer would never reach the driver
    # (EAL passes it the driver layer only): refused, not dropped.
    t.run("a_layered_args", e, ["--no-pci", "-a",
                                "bus=ism,addr=0001:00:05.0,max_dmbs=10"],
          ["devargs"])
    t.expect_rc("a_layered_args", 1)
    t.expect("a_layered_args",
             r'the bus layer takes addr= and fabric= only, not "max_dmbs"')
    t.expect("a_layered_args", r"ism:<PCI address>,max_dmbs=\.\.\.")
    t.expect("a_layered_args", r"^EAL_INIT failed")
    t.expect_none("a_layered_args", r"^PROBE ")

    # The layered form without an address allows nothing on the ism bus.
    t.run("a_none", e, ["--no-pci", "-a", "bus=ism"], ["devargs"])
    t.expect_clean_exit("a_none")
    t.expect_probed("a_none", "")
    t.expect("a_none", r"^DEVARGS ism  allowed$")

    t.run("b_one", e, ["--no-pci", "-b", "0000:00:02.0"])
    t.expect_clean_exit("b_one")
    t.expect_probed("b_one", "0000:00:02.1 0001:00:05.0")
    t.expect("b_one", r"0000:00:02.0: ISM function excluded by -a/-b")

    t.run("b_two", e, ["--no-pci", "-b", "ism:0000:00:02.0",
                       "-b", "bus=ism,addr=0000:00:02.1"])
    t.expect_clean_exit("b_two")
    t.expect_probed("b_two", "0001:00:05.0")

    # A non-ISM address is the pci bus's, and does not put the ism bus
    # into allowlist mode.
    t.run("a_non_ism", e, ["--no-pci", "-a", "0000:00:03.0"], ["devargs"])
    t.expect_clean_exit("a_non_ism")
    t.expect("a_non_ism", r"^DEVARGS pci 0000:00:03.0 allowed$")
    t.expect_none("a_non_ism", r"^DEVARGS ism ")
    t.expect_probed("a_non_ism", "0000:00:02.0 0000:00:02.1 0001:00:05.0")

    # Same with the ISM vendor but another device id.
    t.run("a_other_ibm", e, ["--no-pci", "-a", "0000:00:04.0"], ["devargs"])
    t.expect_clean_exit("a_other_ibm")
    t.expect("a_other_ibm", r"^DEVARGS pci 0000:00:04.0 allowed$")

    # vdev names starting with "ism" stay with the vdev bus.
    t.run("vdev", e, ["--no-pci", "--vdev", "ism_bustest0,x=1"],
          ["devargs"])
    t.expect_clean_exit("vdev")
    t.expect("vdev", r"^VDEV_PROBE ism_bustest0$")
    t.expect("vdev", r"^DEVARGS vdev ism_bustest0 allowed$")
    t.expect_probed("vdev", "0000:00:02.0 0000:00:02.1 0001:00:05.0")


def case_pci_coexist(t):
    """The pci bus scans the same tree (SYSFS_PCI_DEVICES, which the ism
    bus falls back to) and gets the non-ISM address given to -a."""
    mk_basic_tree(t.root)
    e = {"SYSFS_PCI_DEVICES": t.root}
    t.run("coexist", e, ["-a", "0000:00:03.0", "-a", "ism:0000:00:02.0"],
          ["devargs", "list", "bus=pci", "list", "bus=ism"])
    t.expect_clean_exit("coexist")
    t.expect("coexist", r"^DEVARGS pci 0000:00:03.0 allowed$")
    t.expect("coexist", r"^DEVARGS ism 0000:00:02.0 allowed$")
    t.expect_count("coexist", r"^LIST bus=pci ", 1)
    t.expect("coexist", r"^LIST bus=pci pci 0000:00:03.0$")
    t.expect_count("coexist", r"^LIST bus=ism ", 1)
    t.expect("coexist", r"^LIST bus=ism ism 0000:00:02.0$")
    t.expect_probed("coexist", "0000:00:02.0")

    # No -a at all: the pci bus lists every bound function, the ism bus
    # probes all ISM functions.
    t.run("coexist_all", e, [], ["list", "bus=pci"])
    t.expect_clean_exit("coexist_all")
    t.expect("coexist_all", r"^LIST bus=pci pci 0000:00:03.0$")
    t.expect_probed("coexist_all", "0000:00:02.0 0000:00:02.1 0001:00:05.0")


def case_pci_first(t):
    """With the pci bus registered first, a plain ISM address goes to the
    pci bus (EAL's rule), but "ism:" and bus=ism still reach the ism bus,
    also through hotplug."""
    mk_basic_tree(t.root)
    t.run("order", t.sysfs(), ["--no-pci"], ["buses"],
          prog=t.prog_pcifirst)
    t.expect_clean_exit("order")
    t.expect_seq("order", r"^BUS pci$", r"^BUS ism$")

    t.run("pcifirst", t.sysfs(), ["--no-pci", "-a", "ism:0000:00:02.0"],
          ["devargs", "probe", "ism:0000:00:02.1", "list", "bus=ism",
           "remove", "0000:00:02.1", "probe", "bus=ism,addr=0001:00:05.0"],
          prog=t.prog_pcifirst)
    t.expect_clean_exit("pcifirst")
    t.expect("pcifirst", r"^DEVARGS ism 0000:00:02.0 allowed$")
    t.expect("pcifirst", r"^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$")
    t.expect("pcifirst", r"^HOTPLUG_REMOVE 0000:00:02.1 rc=0$")
    t.expect("pcifirst", r"^HOTPLUG_PROBE bus=ism,addr=0001:00:05.0 rc=0$")
    t.expect_probed("pcifirst", "0000:00:02.0 0000:00:02.1 0001:00:05.0")
    t.expect_count("pcifirst", r"^REMOVE ", 3)


def case_binding(t):
    """A driver that needs vfio gets nothing from a tree without /dev/vfio,
    and each function says why, with the sysfs commands that bind it (off
    IBM Z: vfio-pci; ism_vfio_pci is taken too)."""
    root = t.root
    mk_basic_tree(root)
    mkfn(root, "0000:00:02.2", ISM_V, ISM_D, "vfio-pci", None, "0")
    mkfn(root, "0000:00:02.3", ISM_V, ISM_D, "vfio-pci", "notanumber", "0")
    mkfn(root, "0000:00:02.4", ISM_V, ISM_D, "ism_vfio_pci", "987656", "0")
    t.run("binding", t.sysfs(), ["--no-pci"], ["--vfio", "list", "bus=ism"])
    t.expect_clean_exit("binding")
    t.expect_probed("binding", "")
    t.expect_count("binding", r"^LIST bus=ism ", 6)
    t.expect("binding", r"0000:00:02.1: not bound to any kernel driver; "
             r"skipped. To use it: modprobe vfio-pci; echo vfio-pci > "
             r"/sys/bus/pci/devices/0000:00:02.1/driver_override; echo "
             r"0000:00:02.1 > /sys/bus/pci/drivers_probe$")
    t.expect("binding", r"0001:00:05.0: bound to kernel driver ism, not "
             r"vfio-pci; skipped. To use it: modprobe vfio-pci; echo "
             r"vfio-pci > /sys/bus/pci/devices/0001:00:05.0/driver_override;"
             r" echo 0001:00:05.0 > /sys/bus/pci/devices/0001:00:05.0/driver"
             r"/unbind; echo 0001:00:05.0 > /sys/bus/pci/drivers_probe$")
    # rte_vfio_setup_device() finds no /dev/vfio/<group>.
    t.expect("binding", r"0000:00:02.0: bound to vfio-pci but not "
             r"VFIO-managed \(no /dev/vfio/987650\); skipped")
    t.expect("binding", r"0000:00:02.2: bound to vfio-pci but in no IOMMU "
             r"group")
    t.expect("binding", r'0000:00:02.3: sysfs iommu_group: not a number: '
             r'"notanumber"')
    t.expect("binding", r"0000:00:02.3: bound to vfio-pci but in no IOMMU "
             r"group")
    # The ISM variant of vfio-pci is taken everywhere.
    t.expect("binding", r"0000:00:02.4: bound to ism_vfio_pci but not "
             r"VFIO-managed \(no /dev/vfio/987656\); skipped")
    t.expect_none("binding", r"ism_vfio_pci.*To use it")
    t.expect_count("binding", r"^REMOVE ", 0)

    # Bound to vfio-pci after start: hotplug reads the binding again.
    t.run("rebind", t.sysfs(), ["--no-pci"],
          ["--vfio", "shell",
           "ln -sfn ../vfio-pci '%s/0001:00:05.0/driver'" % root,
           "probe", "ism:0001:00:05.0"])
    t.expect_clean_exit("rebind")
    t.expect_seq("rebind", r"bound to kernel driver ism, not vfio-pci",
                 r"^SHELL rc=0$",
                 r"0001:00:05.0: bound to vfio-pci but not VFIO-managed "
                 r"\(no /dev/vfio/987651\)",
                 r"^HOTPLUG_PROBE ism:0001:00:05.0 rc=-95$")

    # The same tree without --vfio: the driver takes every function.
    t.run("nobinding", t.sysfs(), ["--no-pci"])
    t.expect_clean_exit("nobinding")
    t.expect_probed("nobinding", "0000:00:02.0 0000:00:02.1 0000:00:02.2 "
                    "0000:00:02.3 0000:00:02.4 0001:00:05.0")
    t.expect_none("nobinding", r"To use it")


def case_zpci(t):
    """An IBM Z tree (the functions have zPCI's function_id attribute):
    only ism_vfio_pci reaches ISM there. A function on plain vfio-pci is
    refused, and every message names ism_vfio_pci and how to bind it."""
    root = t.root
    mkfn(root, "0000:00:02.0", ISM_V, ISM_D, "ism_vfio_pci", "987660", "0")
    mkfn(root, "0000:00:02.1", ISM_V, ISM_D, "vfio-pci", "987661", "0")
    mkfn(root, "0000:00:02.2", ISM_V, ISM_D, "ism", "987662", "0")
    mkfn(root, "0000:00:02.3", ISM_V, ISM_D, None, None, "0")
    for f in ("0000:00:02.0", "0000:00:02.1", "0000:00:02.2",
              "0000:00:02.3"):
        write("%s/%s/function_id" % (root, f), "0x00000011\n")
        write("%s/%s/pchid" % (root, f), "0x0042\n")
    # The same ids off IBM Z: vfio-pci is fine there.
    mkfn(root, "0000:00:03.0", ISM_V, ISM_D, "vfio-pci", "987663", "0")
    t.run("zpci", t.sysfs(), ["--no-pci"], ["--vfio", "list", "bus=ism"])
    t.expect_clean_exit("zpci")
    t.expect_probed("zpci", "")
    t.expect_count("zpci", r"^LIST bus=ism ", 5)
    t.expect("zpci", r"0000:00:02.0: ISM function \(IBM Z\), NUMA node 0, "
             r"kernel driver ism_vfio_pci")
    t.expect("zpci", r"0000:00:03.0: ISM function, NUMA node 0, kernel "
             r"driver vfio-pci")
    # Accepted: set-up goes on to vfio, which the fake tree lacks.
    t.expect("zpci", r"0000:00:02.0: bound to ism_vfio_pci but not "
             r"VFIO-managed \(no /dev/vfio/987660\); skipped")
    t.expect("zpci", r"0000:00:02.1: bound to vfio-pci, which cannot do ISM "
             r"I/O on IBM Z \(no PCI store blocks\): it needs ism_vfio_pci; "
             r"skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci "
             r"> /sys/bus/pci/devices/0000:00:02.1/driver_override; echo "
             r"0000:00:02.1 > /sys/bus/pci/devices/0000:00:02.1/driver/"
             r"unbind; echo 0000:00:02.1 > /sys/bus/pci/drivers_probe$")
    t.expect_none("zpci", r"0000:00:02.1: bound to vfio-pci but not "
                  r"VFIO-managed")
    t.expect("zpci", r"0000:00:02.2: bound to kernel driver ism, not "
             r"ism_vfio_pci; skipped. To use it: modprobe ism-vfio-pci; echo "
             r"ism_vfio_pci > /sys/bus/pci/devices/0000:00:02.2/"
             r"driver_override; echo 0000:00:02.2 > /sys/bus/pci/devices/"
             r"0000:00:02.2/driver/unbind; echo 0000:00:02.2 > "
             r"/sys/bus/pci/drivers_probe$")
    t.expect("zpci", r"0000:00:02.3: not bound to any kernel driver; "
             r"skipped. To use it: modprobe ism-vfio-pci; echo ism_vfio_pci "
             r"> /sys/bus/pci/devices/0000:00:02.3/driver_override; echo "
             r"0000:00:02.3 > /sys/bus/pci/drivers_probe$")
    t.expect("zpci", r"0000:00:03.0: bound to vfio-pci but not VFIO-managed "
             r"\(no /dev/vfio/987663\); skipped")
    # Without a driver that needs vfio, IBM Z changes nothing.
    t.run("zpci_novfio", t.sysfs(), ["--no-pci"])
    t.expect_clean_exit("zpci_novfio")
    t.expect_probed("zpci_novfio", "0000:00:02.0 0000:00:02.1 0000:00:02.2 "
                    "0000:00:02.3 0000:00:03.0")
    t.expect("zpci_novfio", r"^PCHID 0000:00:02.1 0x0042$")


def case_malformed(t):
    root = t.root

    def fn(bdf, vendor=ISM_V, device=ISM_D, driver="vfio-pci", numa="0"):
        mkfn(root, bdf, vendor, device, driver, None, numa)
        return os.path.join(root, bdf)

    mkfn(root, "0000:00:02.0", ISM_V, ISM_D, "vfio-pci", "987650", "0")
    os.remove(fn("0000:00:03.0") + "/vendor")
    write(fn("0000:00:03.1") + "/vendor", "")
    fn("0000:00:03.2", vendor="0xzz14")
    write(fn("0000:00:03.3") + "/vendor", "1" * 1048576)
    fn("0000:00:03.4", device="0x104ed0")
    fn("0000:00:03.5", numa="garbage")
    write(fn("0000:00:03.6", numa=None) + "/numa_node", "7" * 1048576)
    write(fn("0000:00:03.7") + "/numa_node", "")
    d = fn("0000:00:04.0")
    os.remove(d + "/vendor")
    os.mkdir(d + "/vendor")
    write(fn("0000:00:04.1", driver=None) + "/driver", "vfio-pci\n")
    d = fn("0000:00:04.2")
    os.remove(d + "/vendor")
    os.mkfifo(d + "/vendor")
    write(fn("0000:00:04.3") + "/vendor", "0x1014\0garbage")
    fn("0000:00:04.4", numa="99999")
    fn("0000:00:04.5", vendor=" " + ISM_V)
    # Valid: no trailing newline.
    write(fn("0000:00:04.6") + "/vendor", "0x1014")
    # A regular file where a function directory should be.
    write(root + "/0000:00:05.0", "junk\n")
    # Bad PCHIDs (a FIFO must not hang the scan): PCHID 0, still probed.
    os.mkfifo(root + "/0000:00:03.6/pchid")
    write(root + "/0000:00:03.7/pchid", "garbage\n")
    write(root + "/0000:00:04.4/pchid", "0x10000\n")

    m = "malformed"
    t.run(m, t.sysfs(), ["--no-pci"])
    t.expect_clean_exit(m)
    t.expect_probed(m, "0000:00:02.0 0000:00:03.5 0000:00:03.6 0000:00:03.7 "
                    "0000:00:04.1 0000:00:04.4 0000:00:04.6")
    t.expect(m, r"0000:00:03.0: sysfs vendor: missing; skipped")
    t.expect(m, r"0000:00:03.1: sysfs vendor: empty; skipped")
    t.expect(m, r'0000:00:03.2: sysfs vendor: not a number: "0xzz14"; '
             r'skipped')
    t.expect(m, r"0000:00:03.3: sysfs vendor: longer than 63 bytes; skipped")
    t.expect(m, r'0000:00:03.4: sysfs device: out of range: "0x104ed0"; '
             r'skipped')
    t.expect(m, r'0000:00:03.5: sysfs numa_node: not a number: "garbage"; '
             r'NUMA node unknown')
    t.expect(m, r"^PROBE 0000:00:03.5 .*numa=-1 ")
    t.expect(m, r"0000:00:03.6: sysfs numa_node: longer than 63 bytes; NUMA "
             r"node unknown")
    t.expect(m, r"0000:00:03.7: sysfs numa_node: empty; NUMA node unknown")
    t.expect(m, r"0000:00:04.0: sysfs vendor: Is a directory; skipped")
    t.expect(m, r"0000:00:04.1: sysfs driver: not a symlink; kernel driver "
             r"unknown")
    t.expect(m, r"^PROBE 0000:00:04.1 .*kdrv=\? ")
    t.expect(m, r"0000:00:04.2: sysfs vendor: empty; skipped")
    t.expect(m, r"0000:00:04.3: sysfs vendor: contains a NUL byte; skipped")
    t.expect(m, r'0000:00:04.4: sysfs numa_node: out of range: "99999"')
    t.expect(m, r"0000:00:04.5: sysfs vendor: not a number")
    t.expect(m, r"0000:00:05.0: sysfs vendor: Not a directory; skipped")
    t.expect(m, r"0000:00:03.6: sysfs pchid: empty; PCHID 0")
    t.expect(m, r'0000:00:03.7: sysfs pchid: not a number: "garbage"; '
             r'PCHID 0')
    t.expect(m, r'0000:00:04.4: sysfs pchid: out of range: "0x10000"; '
             r'PCHID 0')
    for f in ("0000:00:03.6", "0000:00:03.7", "0000:00:04.4"):
        t.expect(m, r"^PCHID %s 0x0000$" % f)

    nonexistent = os.path.join(t.tmp, "nonexistent")
    t.run("noroot", t.sysfs(nonexistent), ["--no-pci"])
    t.expect_clean_exit("noroot")
    t.expect("noroot", r"no PCI sysfs tree at %s" % re.escape(nonexistent))
    t.expect_probed("noroot", "")

    t.run("fileroot", t.sysfs(root + "/0000:00:05.0"), ["--no-pci"])
    t.expect_clean_exit("fileroot")
    t.expect("fileroot", r"cannot open the PCI sysfs tree .*: Not a "
             r"directory")
    t.expect_probed("fileroot", "")


def case_hotplug(t):
    mk_basic_tree(t.root)
    h = "hotplug"
    t.run(h, t.sysfs(), ["--no-pci", "-a", "ism:0000:00:02.0"],
          ["--fail", "0001:00:05.0",
           "probe", "ism:0000:00:02.1", "probe", "ism:0000:00:02.1",
           "list", "bus=ism",
           "remove", "0000:00:02.1", "list", "bus=ism",
           "probe", "0000:00:02.1", "remove", "0000:00:02.1",
           "probe", "bus=ism,addr=0000:00:02.1",
           "probe", "ism:0000:00:09.0", "remove", "0000:00:09.0",
           "probe", "ism:0001:00:05.0", "list", "bus=ism"])
    t.expect_clean_exit(h)
    t.expect_seq(h,
                 r"^PROBE 0000:00:02.0 ", r"^EAL_INIT ok$",
                 r"^PROBE 0000:00:02.1 ",
                 r"^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$",
                 r"^HOTPLUG_PROBE ism:0000:00:02.1 rc=0$",
                 r"^LIST bus=ism ism 0000:00:02.1$",
                 r"^REMOVE 0000:00:02.1$",
                 r"^HOTPLUG_REMOVE 0000:00:02.1 rc=0$",
                 r"^LIST bus=ism ism 0000:00:02.0$", r"^LIST_END",
                 r"^PROBE 0000:00:02.1 ",
                 r"^HOTPLUG_PROBE 0000:00:02.1 rc=0$",
                 r"^REMOVE 0000:00:02.1$",
                 r"^HOTPLUG_REMOVE 0000:00:02.1 rc=0$",
                 r"^PROBE 0000:00:02.1 ",
                 r"^HOTPLUG_PROBE bus=ism,addr=0000:00:02.1 rc=0$",
                 r"^HOTPLUG_PROBE ism:0000:00:09.0 rc=-19$",
                 r"^HOTPLUG_REMOVE 0000:00:09.0 rc=nodev$",
                 r"^FAILPROBE 0001:00:05.0$",
                 r"^HOTPLUG_PROBE ism:0001:00:05.0 rc=-5$",
                 r"^LIST_END", r"^REMOVE 0000:00:02.0$",
                 r"^REMOVE 0000:00:02.1$", r"^CLEANUP rc=0$")
    # Between the first removal and the re-probe only 02.0 is listed.
    between, on = [], False
    for ln in t.lines(h):
        if not on:
            on = re.search(r"^HOTPLUG_REMOVE 0000:00:02.1 rc=0$", ln)
        elif ln.startswith("LIST_END"):
            break
        elif ln.startswith("LIST "):
            between.append(ln)
    if between != ["LIST bus=ism ism 0000:00:02.0"]:
        t.fail(h, "list after removal: %s" % between)
    t.expect(h, r"0001:00:05.0: driver ism_bus_test failed: Input/output "
             r"error")
    # A failed probe leaves the function listed but unprobed.
    t.expect_count(h, r"^LIST bus=ism ism 0001:00:05.0$", 1)
    # Devargs given at hotplug reach a function the bus already listed
    # without any (its first probe failed).
    t.run("hotplug_args", t.sysfs(), ["--no-pci"],
          ["--fail", "0001:00:05.0", "probe", "ism:0001:00:05.0,key=val"])
    t.expect_clean_exit("hotplug_args")
    t.expect_seq("hotplug_args", r"^FAILPROBE 0001:00:05.0$",
                 r"^EAL_INIT ok$", r"^PROBE 0001:00:05.0 .* args=key=val$",
                 r"^HOTPLUG_PROBE ism:0001:00:05.0,key=val rc=0$")

    # Probing a probed function again is no error and calls no driver.
    t.expect_count(h, r"^PROBE 0000:00:02.1 ", 3)
    t.expect_count(h, r"^REMOVE ", 4)


def case_ivshmem(t):
    """An ivshmem function (1af4:1110) is used by other software: the bus
    takes one only when -a (or hotplug) names it for this bus with
    fabric=ivshmem, and gives it only to a driver of ivshmem functions. A
    bare address stays the pci bus's."""
    mk_basic_tree(t.root)       # 0000:00:03.0: ivshmem on vfio-pci
    mkfn(t.root, "0000:00:06.0", "0x1af4", "0x1110", None, None, "0")
    e = t.sysfs()
    isms = "0000:00:02.0 0000:00:02.1 0001:00:05.0"

    t.run("iv_none", e, ["--no-pci"], ["list", "bus=ism"])
    t.expect_clean_exit("iv_none")
    t.expect_probed("iv_none", isms)
    t.expect_none("iv_none", r"0000:00:0[36]\.0")

    t.run("iv_nofabric", e, ["--no-pci", "-a", "ism:0000:00:03.0"],
          ["devargs", "list", "bus=ism"])
    t.expect_clean_exit("iv_nofabric")
    t.expect_probed("iv_nofabric", "")
    t.expect("iv_nofabric", r"0000:00:03.0: an ivshmem function, not an "
             r"ISM function; skipped. To hold an ISM fabric in its shared "
             r"memory: -a ism:0000:00:03.0,fabric=ivshmem$")
    t.expect_count("iv_nofabric", r"^LIST bus=ism ", 0)

    t.run("iv_named", e, ["--no-pci", "-a",
                          "ism:0000:00:03.0,fabric=ivshmem,gid=0x5"],
          ["devargs", "list", "bus=ism"])
    t.expect_clean_exit("iv_named")
    t.expect_probed("iv_named", "0000:00:03.0")
    t.expect("iv_named", r"^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem "
             r"numa=0 kdrv=vfio-pci group=987652 vfio=no "
             r"args=fabric=ivshmem,gid=0x5$")
    t.expect("iv_named", r"ISM_BUS: 0000:00:03.0: ivshmem function \(named "
             r"with fabric=ivshmem\), NUMA node 0, kernel driver vfio-pci, "
             r"IOMMU group 987652")
    t.expect("iv_named", r"^DEVARGS ism 0000:00:03.0 allowed$")
    t.expect_count("iv_named", r"^LIST bus=ism ", 1)

    # Each kind goes to its own driver.
    t.run("iv_mixed", e, ["--no-pci", "-a", "ism:0000:00:03.0,fabric=ivshmem",
                          "-a", "0000:00:02.0"], ["list", "bus=ism"])
    t.expect_clean_exit("iv_mixed")
    t.expect_probed("iv_mixed", "0000:00:02.0 0000:00:03.0")
    t.expect("iv_mixed", r"^PROBE 0000:00:02.0 driver=ism_bus_test ")
    t.expect("iv_mixed", r"^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem ")

    # fabric= is the bus's own key: the layered form takes it.
    t.run("iv_layered", e, ["--no-pci", "-a",
                            "bus=ism,addr=0000:00:03.0,fabric=ivshmem"],
          ["devargs"])
    t.expect_clean_exit("iv_layered")
    t.expect_probed("iv_layered", "0000:00:03.0")

    # The bare address is the pci bus's, whichever bus registered first.
    t.run("iv_bare", e, ["--no-pci", "-a", "0000:00:03.0,fabric=ivshmem"],
          ["devargs"])
    t.expect_clean_exit("iv_bare")
    t.expect("iv_bare", r"^DEVARGS pci 0000:00:03.0 allowed$")
    t.expect_none("iv_bare", r"^DEVARGS ism ")
    t.expect_probed("iv_bare", isms)
    t.run("iv_pcifirst", e, ["--no-pci", "-a", "0000:00:03.0,fabric=ivshmem",
                             "-a", "ism:0000:00:06.0,fabric=ivshmem"],
          ["devargs"], prog=t.prog_pcifirst)
    t.expect_clean_exit("iv_pcifirst")
    t.expect("iv_pcifirst", r"^DEVARGS pci 0000:00:03.0 allowed$")
    t.expect("iv_pcifirst", r"^DEVARGS ism 0000:00:06.0 allowed$")
    t.expect_probed("iv_pcifirst", "0000:00:06.0")

    t.run("iv_blocked", e, ["--no-pci", "-b",
                            "ism:0000:00:03.0,fabric=ivshmem"],
          ["list", "bus=ism"])
    t.expect_clean_exit("iv_blocked")
    t.expect_probed("iv_blocked", isms)

    t.run("iv_bad", e, ["--no-pci", "-a", "ism:0000:00:03.0,fabric=ism",
                        "-a", "ism:0000:00:02.0,fabric=ivshmem"],
          ["list", "bus=ism"])
    t.expect_clean_exit("iv_bad")
    t.expect_probed("iv_bad", "")
    t.expect("iv_bad", r"0000:00:03.0: fabric=ism: unknown \(only "
             r"fabric=ivshmem\); skipped")
    t.expect("iv_bad", r"0000:00:02.0: an ISM function named with "
             r"fabric=ivshmem, which is for ivshmem functions only; skipped")

    # Hotplug: taken only once named with the fabric.
    t.run("iv_hotplug", e, ["--no-pci", "-a", "ism:0000:00:02.0"],
          ["probe", "ism:0000:00:03.0",
           "probe", "ism:0000:00:03.0,fabric=ivshmem",
           "list", "bus=ism", "remove", "0000:00:03.0"])
    t.expect_clean_exit("iv_hotplug")
    t.expect_seq("iv_hotplug", r"^HOTPLUG_PROBE ism:0000:00:03.0 rc=-19$",
                 r"^PROBE 0000:00:03.0 driver=ism_bus_test_ivshmem ",
                 r"^HOTPLUG_PROBE ism:0000:00:03.0,fabric=ivshmem rc=0$",
                 r"^LIST bus=ism ism 0000:00:03.0$", r"^REMOVE 0000:00:03.0$",
                 r"^HOTPLUG_REMOVE 0000:00:03.0 rc=0$")

    # The binding rules apply: vfio-pci, with the commands that bind it.
    t.run("iv_vfio", e, ["--no-pci", "-a", "ism:0000:00:03.0,fabric=ivshmem",
                         "-a", "ism:0000:00:06.0,fabric=ivshmem"], ["--vfio"])
    t.expect_clean_exit("iv_vfio")
    t.expect_probed("iv_vfio", "")
    t.expect("iv_vfio", r"0000:00:03.0: bound to vfio-pci but not "
             r"VFIO-managed \(no /dev/vfio/987652\); skipped")
    t.expect("iv_vfio", r"0000:00:06.0: not bound to any kernel driver; "
             r"skipped. To use it: modprobe vfio-pci; echo vfio-pci > "
             r"/sys/bus/pci/devices/0000:00:06.0/driver_override; echo "
             r"0000:00:06.0 > /sys/bus/pci/drivers_probe$")


CASES = {
    "scan": case_scan,
    "allow-block": case_allow_block,
    "pci-coexist": case_pci_coexist,
    "pci-first": case_pci_first,
    "binding": case_binding,
    "zpci": case_zpci,
    "malformed": case_malformed,
    "hotplug": case_hotplug,
    "ivshmem": case_ivshmem,
}


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    case, prog, prog_pcifirst, tag = sys.argv[1:]
    # meson's timeout sends SIGTERM: unwind, so that every process is
    # cleaned up and the fake trees removed.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    tmp = tempfile.mkdtemp(prefix="ism-bus-test.")
    try:
        t = Bus(case, prog, prog_pcifirst, tag, tmp)
        os.mkdir(t.root)
        CASES[case](t)
    finally:
        if os.environ.get("KEEP_TMP"):
            print("kept %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if t.fails:
        for name in sorted({n for n, _ in t.fails}):
            r = t.runs[name]
            print("---- output of run '%s' (exit %s):"
                  % (name, r.proc.returncode))
            for ln in r.lines:
                print(ln)
        print("%d check(s) failed" % len(t.fails))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
