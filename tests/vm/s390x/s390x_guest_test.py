#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Linux's own ism driver and SMC-D against the emulated ISM function
(python3 standard library).

An s390x guest under qemu-system-s390x (TCG; tests/vm/vmlib.py, another
machine than its x86_64 default) with the emulated ISM function (QEMU
device "ism", tests/ism_device) as a zPCI function. Its kernel
(devtools/linux-s390x.sh: Debian's Linux 6.1 with the ism driver, SMC, SMC
diag and vfio-pci built in) probes the function at boot; plan.sh reports
the PCI functions and their drivers, then runs the step's test:

  --step smc   smc_test (smc_test.c, static s390x): a TCP connection
               between two processes over AF_SMC, a few MB checked byte by
               byte both ways, and the SMC sock_diag dump of both ends;
  --step vfio  a second function moved to vfio-pci, driven from user space
               by ism_vfio_test (ism_vfio_test.c): its commands, a store
               block into its own DMB, and a TESTLINK request to the SMC
               on the first function, whose response must arrive.

Checked on the console: every ISM function is 1014:04ed, bound to the ism
driver and added to SMC, the driver's debug area shows no failed command,
the kernel no warning; smc: the bytes arrived intact both ways, both ends
of the connection are in SMC-D mode (not the TCP fallback) with the
function's GID as local and peer GID, each end's DMB token is the other's
peer token, and the producer cursors went round the ring; vfio: what the
docstring of ism_vfio_test.c lists. And QEMU logged no guest error (-d
guest_errors: the device logs there what a driver did wrong).

    s390x_guest_test.py [--step smc|vfio] [--bytes N] [--conns N]
                        [--tag TAG] [--keep FILE]

Skips (77, with the reason) when QEMU with the device
(devtools/qemu-ism.sh prefix) or the kernel (devtools/linux-s390x.sh
prefix) is not built, without the cross compiler, and in sanitizer builds:
make test-emul builds both. ISM_VM_TIMEOUT: QEMU's deadline in s;
ISM_QEMU_PREFIX: a QEMU with the device other than the one qemu-ism.sh
finds for this tree's device sources (its bin/qemu-system-s390x).
"""

import argparse
import gzip
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import vmlib  # noqa: E402  (tests/vm)
from vmlib import ism_eal  # noqa: E402

CROSS_CC = "s390x-linux-gnu-gcc"
# The functions' identities on the command line; the guest sees the same.
ISM_FID = 0x10
ISM_UID = 0x1
ISM_GID = 0x1234_5678_9abc_def0
# The second function of step vfio, moved to vfio-pci in the guest.
VFIO_FID = 0x11
VFIO_UID = 0x2
VFIO_GID = 0x0fed_cba9_8765_4321
FABRIC = 0x2c
S390X_MACHINE = ["-machine", "s390-ccw-virtio,accel=tcg", "-cpu", "qemu",
                 "-m", "512", "-smp", "1,maxcpus=2", "-nodefaults",
                 "-display", "none", "-serial", "stdio", "-no-reboot"]
TIMEOUT_S = 600


def cached(script, *args):
    """The directory a devtools cache script's 'find' prints, or None."""
    r = subprocess.run([os.path.join(TOP, "devtools", script), "find"]
                       + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    out = r.stdout.strip()
    return out if r.returncode == 0 and out else None


def programs(tmp):
    """smc_test and ism_vfio_test, static s390x, in tmp/bin."""
    out = []
    os.makedirs(os.path.join(tmp, "bin"))
    for prog in ("smc_test", "ism_vfio_test"):
        dst = os.path.join(tmp, "bin", prog)
        subprocess.run([CROSS_CC, "-static", "-O2", "-Wall", "-Werror",
                        "-o", dst, os.path.join(HERE, prog + ".c")],
                       check=True)
        out.append(dst)
    return out


class Console(vmlib.Console):
    """vmlib's checks, and: the matches themselves, lines refused."""

    def find(self, ere):
        rx = re.compile(ere)
        return [m for m in (rx.search(ln) for ln in self.lines) if m]

    def refuse(self, ere, what):
        for m in self.find(ere):
            self.fail("%s: %s" % (what, m.string))


def check_probe(c, fids):
    """Every function (fids) bound to the ism driver, added to SMC."""
    pci = c.find(r"^VMTEST-PCI (\S+) 0x1014:0x04ed driver=(\S+) fid=(\S+)")
    bdfs = {}
    got = sorted(int(m.group(3), 16) for m in pci)
    if got != sorted(fids):
        c.fail("ISM functions of fids %s, expected %s"
               % ([hex(x) for x in got], [hex(x) for x in fids]))
    for m in pci:
        bdf, drv = m.group(1), m.group(2)
        if drv != "ism":
            c.fail("function %s bound to %s, not ism" % (bdf, drv))
        c.expect(r"^VMTEST-ISM-BOUND %s$" % re.escape(bdf))
        c.expect(r"smc: adding smcd device %s" % re.escape(bdf))
        bdfs[int(m.group(3), 16)] = bdf
    # The driver's debug area records "cmd failure" for a failed command
    # (ism_cmd()); ADD_VLAN_ID's failure would mean no SMC-Dv2.
    c.refuse(r"cmd failure", "the ism driver saw a command fail")
    c.refuse(r"Kernel panic|Oops|BUG:|WARNING:|Call Trace",
             "the guest kernel complained")
    return bdfs


def dbf_records(c):
    """The ism driver's debug area: [bytes] of its 16-byte records."""
    rx = re.compile(r"^VMTEST-ISMDBF \d+ \S+ \d \S \d+ [0-9a-f]+\s+"
                    r"((?:[0-9a-f]{2} ?)+)\|")
    return [bytes.fromhex(m.group(1)) for m in
            (rx.match(ln) for ln in c.lines) if m]


def check_query_info(c, gids):
    """QUERY_INFO's response, which the driver logs in its debug area
    after probe (query_info() in drivers/s390/net/ism_drv.c): one per
    function, each with the function's GID, the SBA and IEQ registered,
    and VLAN 0x1fff (ADD_VLAN_ID at probe: SMC-Dv2) in its VLAN list."""
    recs = dbf_records(c)
    seen = []
    for i, r in enumerate(recs):
        if not r.startswith(b"query info"):
            continue
        resp = b"".join(recs[i + 1:i + 14])[:200]
        if len(resp) < 200:
            c.fail("QUERY_INFO's response cut short in the debug area")
            continue
        cmd, ret, ln = struct.unpack_from(">IHH", resp, 0)
        gid, sba, ieq, ieq_len = struct.unpack_from(">QQQI", resp, 24)
        nvlan, = struct.unpack_from(">I", resp, 68)
        vlans = struct.unpack_from(">%dH" % min(nvlan, 64), resp, 72)
        print("QUERY_INFO cmd=0x%x ret=0x%x len=%d gid=0x%016x sba=0x%x "
              "ieq=0x%x ieq_len=%d vlans=%s" % (cmd, ret, ln, gid, sba, ieq,
                                               ieq_len,
                                               [hex(v) for v in vlans]))
        if (cmd, ret, ln) != (0x08, 0, 200):
            c.fail("QUERY_INFO response header 0x%x/0x%x/%d" % (cmd, ret,
                                                                ln))
        if sba == 0 or ieq == 0 or ieq_len != 512:
            c.fail("QUERY_INFO: SBA 0x%x, IEQ 0x%x of %d bytes registered"
                   % (sba, ieq, ieq_len))
        if 0x1fff not in vlans:
            c.fail("QUERY_INFO: no VLAN 0x1fff (%s)" % list(vlans))
        seen.append(gid)
    if sorted(seen) != sorted(gids):
        c.fail("QUERY_INFO of GIDs %s, expected %s"
               % ([hex(g) for g in seen], [hex(g) for g in gids]))


def check_irqs(c, bdfs, least):
    """The MSI of each function (bdfs) came at least least times."""
    for bdf in bdfs:
        m = c.find(r"^VMTEST-IRQ\s+\d+:\s+(\d+)\s+PCI-MSI\s+%s$"
                   % re.escape(bdf))
        if not m:
            c.fail("no MSI line of %s in /proc/interrupts" % bdf)
        elif int(m[0].group(1)) < least:
            c.fail("%s: %s MSIs, expected %d or more"
                   % (bdf, m[0].group(1), least))


def check_smc(c, nbytes, nconns):
    for i in range(nconns):
        for d in ("c2s", "s2c"):
            c.expect(r"^SMC_TEST %s#%d bytes=%d fnv=([0-9a-f]+) expect=\1 "
                     r"bad=0 first_bad=-1 secs=\S+ ok$" % (d, i, nbytes))
    socks = c.find(r"^SMC_DIAG sock \S+:(\d+)-\S+:(\d+) state=\d+ "
                   r"mode=(\S+) fallback_reason=(\S+) .*")
    conns = [m for m in socks if m.group(2) != "0"]
    if len(conns) != 2 * nconns:
        c.fail("%d connected SMC sockets in the diag dump, expected %d"
               % (len(conns), 2 * nconns))
    ends = {}
    for m in conns:
        if m.group(3) != "smcd":
            c.fail("a socket in mode %s (fallback reason %s), not smcd: %s"
                   % (m.group(3), m.group(4), m.string))
            continue
        d = re.search(r"my_gid=0x([0-9a-f]+) peer_gid=0x([0-9a-f]+) "
                      r"dmb_token=0x([0-9a-f]+) peer_dmb_token=0x([0-9a-f]+)"
                      r" rmbe_size=(\d+) peer_rmbe_size=(\d+) "
                      r"rx_prod=(\d+):(\d+) tx_prod=(\d+):(\d+)", m.string)
        if not d:
            c.fail("no DMB or connection info: %s" % m.string)
            continue
        my_gid, peer_gid, tok, peer_tok = (int(x, 16) for x in d.groups()[:4])
        rmbe, prmbe, rw, rc, tw, tc = (int(x) for x in d.groups()[4:])
        ends[(int(m.group(1)), int(m.group(2)))] = (tok, peer_tok)
        if my_gid != ISM_GID or peer_gid != ISM_GID:
            c.fail("GIDs my 0x%x peer 0x%x, expected 0x%x (the function's)"
                   % (my_gid, peer_gid, ISM_GID))
        if rmbe == 0 or prmbe == 0:
            c.fail("a DMB of size 0")
        # More than a ring went each way: the producer cursors wrapped.
        if nbytes > 2 * max(rmbe, prmbe) and (rw == 0 or tw == 0):
            c.fail("producer cursors did not wrap (rx %d:%d tx %d:%d)"
                   % (rw, rc, tw, tc))
    # The two ends of each connection: each one's DMB is the other's peer
    # DMB; no two ends share one.
    for (lport, rport), (tok, peer_tok) in ends.items():
        other = ends.get((rport, lport))
        if other is None:
            c.fail("no other end of %d-%d in the dump" % (lport, rport))
        elif other != (peer_tok, tok):
            c.fail("DMB tokens of %d-%d do not pair up: %x/%x and %x/%x"
                   % (lport, rport, tok, peer_tok, other[0], other[1]))
    toks = [t for t, _ in ends.values()]
    if len(set(toks)) != len(toks):
        c.fail("two ends have the same DMB token: %s"
               % sorted(hex(t) for t in toks))
    c.expect(r"^SMC_TEST PASS$")
    c.expect(r"^VMTEST-RC smc_test 0$")
    # Then the ism driver let go of the function (its remove path with
    # SMC's link group still up); a failed command would be in its debug
    # area, which check_probe() refuses.
    c.expect(r"smc: removing smcd device ")
    c.expect(r"^VMTEST-UNBOUND ")
    # Terminating its link groups SMC signalled SHUTDOWN (software event
    # 0x80, SIGNAL_IEQ) to the peer, the function itself, whose driver
    # logged it when it took it from its IEQ.
    if struct.pack(">IIQ", 2, 0x80, ISM_GID) not in dbf_records(c):
        c.fail("no SHUTDOWN event in the ism driver's debug area")


def check_vfio(c):
    """The second function on vfio-pci, driven by ism_vfio_test; Linux's
    SMC on the first answered its TESTLINK request."""
    c.expect(r"^VMTEST-VFIO \S+ driver=vfio-pci group=\d+$")
    c.expect(r"^ISM_VFIO READ_GID rc=0x0 gid=0x%016x$" % VFIO_GID)
    c.expect(r"^ISM_VFIO QUERY_RGID peer=0x%016x rc=0x0$" % ISM_GID)
    c.expect(r"^ISM_VFIO move irq=[1-9]\d* dmb_same=1 sba_bit=1 ")
    c.expect(r"^ISM_VFIO event type=2 code=0x83 tok=0x%016x "
             r"info=0x5a5a000100000002 irq=[1-9]" % ISM_GID)
    # Linux's driver logged the request it took from its IEQ
    # (ism_handle_event(): type SWR, code TESTLINK, token = sender's GID).
    req = struct.pack(">IIQ", 2, 0x83, VFIO_GID)
    if req not in dbf_records(c):
        c.fail("the ism driver's debug area has no TESTLINK request from "
               "0x%x" % VFIO_GID)
    c.refuse(r"^ISM_VFIO FAIL", "ism_vfio_test failed")
    c.expect(r"^ISM_VFIO PASS$")
    c.expect(r"^VMTEST-RC ism_vfio_test 0$")


def ism_device(gid, dev_id, fid, uid, extra=""):
    return ["-device", "zpci,uid=%d,fid=%d,target=%s" % (uid, fid, dev_id),
            "-device", "ism,id=%s,fabric=%d,gid=0x%x%s"
            % (dev_id, FABRIC, gid, extra)]


def ready(tag):
    """(qemu-system-s390x, kernel directory), or vmlib.Skip."""
    if os.environ.get("ISM_SKIP_VM"):
        raise vmlib.Skip("ISM_SKIP_VM is set")
    if tag != "rel":
        raise vmlib.Skip("runs in the release build only (it uses nothing "
                         "of the build)")
    prefix = os.environ.get("ISM_QEMU_PREFIX") or cached("qemu-ism.sh",
                                                       "qemu-system-s390x")
    if not prefix:
        raise vmlib.Skip("no QEMU with the ism device: run "
                         "devtools/qemu-ism.sh prefix qemu-system-s390x "
                         "(make test-emul)")
    qemu = os.path.join(prefix, "bin", "qemu-system-s390x")
    if not os.access(qemu, os.X_OK):
        raise vmlib.Skip("no %s" % qemu)
    kdir = cached("linux-s390x.sh")
    if not kdir:
        raise vmlib.Skip("no s390x guest kernel: run devtools/linux-s390x.sh "
                         "prefix (make test-emul)")
    if shutil.which(CROSS_CC) is None:
        raise vmlib.Skip("no %s (gcc-s390x-linux-gnu)" % CROSS_CC)
    return qemu, kdir


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--step", choices=("smc", "vfio"), default="smc")
    ap.add_argument("--bytes", type=int, default=4 << 20,
                    help="each way, per connection (step smc)")
    ap.add_argument("--conns", type=int, default=3,
                    help="connections at once (step smc)")
    ap.add_argument("--tag", default="rel",
                    help="the meson build's tag: runs in 'rel' only")
    ap.add_argument("--keep", help="copy the console log here")
    a = ap.parse_args()
    qemu, kdir = ready(a.tag)
    # meson's timeout sends SIGTERM: unwind, so that QEMU is cleaned up
    # and the directory removed.
    signal.signal(signal.SIGTERM, lambda *x: sys.exit(1))
    devices = ism_device(ISM_GID, "ism0", ISM_FID, ISM_UID)
    append = "console=ttysclp0 panic=-1"
    if a.step == "smc":
        append += " vmtest.args=--bytes,%d,--conns,%d" % (a.bytes, a.conns)
    else:
        # vfio-pci's region offsets have 40 bits: BAR 0 (the tokens are in
        # it) of 1 TiB, the same in the whole fabric. Plain vfio-pci writes
        # a pwrite() as 4-byte PCI Stores, which ISM refuses: the function
        # it drives takes them in the device's test mode (store-pieces).
        devices = (ism_device(ISM_GID, "ism0", ISM_FID, ISM_UID,
                              ",bar0-size=1T") +
                   ism_device(VFIO_GID, "ism1", VFIO_FID, VFIO_UID,
                              ",bar0-size=1T,store-pieces=on"))
        append += " vmtest.vfio_fid=0x%08x vmtest.peer_gid=0x%x" % (
            VFIO_FID, ISM_GID)
    procs = []
    result = {}
    with tempfile.TemporaryDirectory(prefix="ism-s390x-vm.") as tmp:
        progs = programs(tmp)
        with open(os.path.join(HERE, "plan.sh")) as f:
            plan = f.read()
        initrd = vmlib.initramfs(tmp, files=progs, plans={a.step: plan},
                                 busybox=os.path.join(kdir, "busybox"),
                                 modules=False)
        qlog = os.path.join(tmp, "qemu.log")
        append += " vmtest.bin=%s" % os.path.dirname(progs[0])

        def body():
            g = vmlib.Guest("s390x", a.step, initrd, devices=devices,
                            timeout=TIMEOUT_S, qemu=qemu,
                            args=S390X_MACHINE + ["-d", "guest_errors",
                                                  "-D", qlog],
                            kernel=os.path.join(kdir, "image"),
                            append=append, echo=False)
            procs.append(g.proc)
            result["rc"], result["secs"] = g.finish()
            result["lines"] = g.lines

        try:
            ism_eal.run_all(procs, body)
        except ism_eal.Error as e:
            print("FAIL: %s" % e)
            return 1
        console = Console(result["lines"])
        if a.keep:
            with open(a.keep, "w") as f:
                f.write("\n".join(console.lines) + "\n")
        # What the device logged as the guest's errors (QEMU's -d
        # guest_errors): Linux's driver must cause none.
        if os.path.exists(qlog):
            with open(qlog) as f:
                for ln in f:
                    if ln.strip():
                        console.fail("QEMU logged a guest error: %s"
                                     % ln.rstrip())
    print("qemu exit status %d, the guest ran %.1f s"
          % (result["rc"], result["secs"]))
    bdfs = check_probe(console, [ISM_FID, VFIO_FID] if a.step == "vfio"
                       else [ISM_FID])
    if a.step == "smc":
        check_query_info(console, [ISM_GID])
        check_smc(console, a.bytes, a.conns)
    else:
        check_query_info(console, [ISM_GID, VFIO_GID])
        check_vfio(console)
    # The function Linux's driver keeps interrupted it (the signals of
    # SMC-D's moves; the TESTLINK request).
    if ISM_FID in bdfs:
        check_irqs(console, [bdfs[ISM_FID]], 1)
    console.expect(r"^VMTEST-END done$")
    if console.fails:
        print("---- guest console:")
        print("\n".join(console.lines))
        print("%d check(s) failed" % console.fails)
        return 1
    for ln in console.lines:
        if re.match(r"^(VMTEST-PCI|VMTEST-VFIO|VMTEST-IRQ|SMC_TEST|SMC_DIAG|"
                    r"ISM_VFIO)|.*smc: adding", ln):
            print(ln)
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(vmlib.skip_main(main))
