#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""End-to-end tests of dpdk-ism_fwd (python3 standard library only).

    ism_fwd_test.py APP TAG SCENARIO [ROGUE]

APP is the dpdk-ism_fwd binary, TAG makes the EAL file prefixes unique per
build, ROGUE the lying ring peer of tests/ism_ring (scenario rogue).
Scenarios:

  pcap-loopback  one process, loopback ISM device writing to itself: a pcap
                 of mixed sizes through net_pcap -> ISM -> net_pcap comes
                 out byte-identical and in order (copy and zero-copy)
  pcap           the same between two processes over ism_shm
  pcap-ns        the same with each process in PID, mount and network
                 namespaces of its own, the rendezvous directory
                 bind-mounted at a path of its own (as containers;
                 tests/shm/shm_ns_test.py's init; needs root)
  check          loopback-check of 1,000,000 packets: A generates, B
                 forwards them back through a net_ring loop port (iofwd);
                 zero loss, zero corruption
  kill           kill -9 of one side mid-stream: the survivor reports it
                 (from its own output: how long after the event, and after
                 the kill, printed for information); with --on-peer-loss
                 wait it resumes when the peer restarts, and while it waits
                 its HELLOs do not log a line each; with --on-peer-loss
                 exit it exits (status 3)
  rogue          a peer that lies (dpdk-ism-ring-rogue) against iofwd to
                 a pcap: descriptors of lengths near 2^32, producer
                 cursors behind, beyond the credits, 2^31 ahead; each one
                 protocol error, the link down and up again; the totals
                 and the pcap hold exactly the good packets

Every process runs under a deadline (timeout), with its own --file-prefix
and rendezvous directory, without hugepages. Exit status 0 pass, 1 fail.
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
from ism_eal import check  # noqa: E402
from ism_pcap import (compare, mixed_packets, pcap_read,  # noqa: E402
                      pcap_write)

DEADLINE = 60  # seconds; only stops a hang


# ----------------------------------------------------------------- processes

def run_all(apps, body):
    """ism_eal.run_all: SIGINT first, so that dpdk-ism_fwd writes its
    pcap files and totals on the way out."""
    ism_eal.run_all(apps, body, interrupt=True)


class App(ism_eal.Process):
    """One dpdk-ism_fwd process (tests/lib/ism_eal.py: under a deadline,
    SIGINT at the deadline, its own file prefix, output collected line by
    line with the time each line arrived)."""

    def __init__(self, name, app, core, vdevs, args, tag, deadline=DEADLINE,
                 wrap=()):
        prefix = ism_eal.file_prefix(tag, "fwd", name)
        cmd = list(wrap) + [app] + ism_eal.eal_args(core, prefix,
                                                    vdevs=vdevs) + \
            ["--"] + args
        print("+ " + " ".join(cmd), flush=True)
        super().__init__(cmd, name, deadline, prefix=prefix,
                         deadline_signal=signal.SIGINT)

    def wait(self, timeout=DEADLINE):
        return super().wait(timeout)


class Shm:
    """Two GIDs on one fabric in a fresh rendezvous directory."""

    GID_A, GID_B = "0xa1", "0xb2"

    def __init__(self, tmp):
        self.dir = tempfile.mkdtemp(prefix="rv.", dir=tmp)

    def vdev(self, gid, path=None):
        return "ism_shm0,dir=%s,gid=%s" % (path or self.dir, gid)


def shm_probe(app, tag, tmp):
    """Can the application start with an ism_shm device? The driver is
    always built, so a failure here (a driver registration regression,
    say) fails the scenario with the output that says why."""
    shm = Shm(tmp)
    prefix = ism_eal.file_prefix(tag, "fwd", "probe")
    r = ism_eal.run([app] + ism_eal.eal_args(
        0, prefix, mem_mb=256, vdevs=[shm.vdev(Shm.GID_A)]) + ["--", "--help"],
        "probe", 30, prefix=prefix)
    if r.proc.returncode == 0:
        return
    r.dump()
    raise ism_eal.Error("dpdk-ism_fwd --help with an ism_shm device: "
                        "status %d" % r.proc.returncode)


# ----------------------------------------------------------------- scenarios

def totals(app, key):
    """(pkts, bytes) from a totals line like '  ism rx   N pkts B bytes'."""
    i = app.wait_for(r"^\s+%s\s+\d+ pkts" % key)
    m = re.search(r"(\d+) pkts (\d+) bytes", app.line(i))
    return int(m.group(1)), int(m.group(2))


def pcap_loopback(app, tag, tmp):
    packets = mixed_packets(3000)
    src = os.path.join(tmp, "in.pcap")
    pcap_write(src, packets)
    for zc in ([], ["--zero-copy"]):
        dst = os.path.join(tmp, "out%s.pcap" % ("-zc" if zc else ""))
        a = App("lo", app, 0,
                ["ism_lo0,gid=0x1",
                 "net_pcap0,rx_pcap=%s,tx_pcap=%s" % (src, dst)],
                ["--peer-gid", "0x1", "--stats-period", "0",
                 "--stop-after-rx", str(len(packets))] + zc, tag)

        def body():
            check(a.wait() == 0, "exit status %s" % a.proc.returncode)
            compare(packets, pcap_read(dst))
        run_all([a], body)
        print("PASS pcap through a loopback device%s: %d packets"
              % (" (zero copy)" if zc else "", len(packets)))


def ns_wrap(tmp, shm, name):
    """Run in namespaces of its own, the rendezvous directory seen at
    another path: (command prefix, that path)."""
    inner = tempfile.mkdtemp(prefix="in-%s." % name, dir=tmp)
    init = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "shm", "shm_ns_test.py")
    return (["unshare", "--pid", "--mount", "--net", "--fork", "--",
             sys.executable, init, "init", shm.dir, inner, "--"], inner)


def pcap_shm(app, tag, tmp, ns=False):
    if ns and (os.geteuid() != 0 or shutil.which("unshare") is None):
        print("SKIP: namespaces need root and unshare(1)")
        sys.exit(77)
    packets = mixed_packets(3000)
    src = os.path.join(tmp, "in.pcap")
    pcap_write(src, packets)
    for zc in ([], ["--zero-copy"]):
        shm = Shm(tmp)
        wa, wb = (ns_wrap(tmp, shm, n) for n in "ab") if ns else \
            (((), shm.dir), ((), shm.dir))
        dst = os.path.join(tmp, "out%s.pcap" % ("-zc" if zc else ""))
        # A: pcap -> ISM; B: ISM -> pcap, exits after all, says BYE.
        a = App("A", app, 0,
                [shm.vdev(Shm.GID_A, wa[1]), "net_pcap0,rx_pcap=%s" % src],
                ["--peer-gid", Shm.GID_B, "--stats-period", "0",
                 "--on-peer-loss", "exit"] + zc, tag, wrap=wa[0])
        b = App("B", app, 1,
                [shm.vdev(Shm.GID_B, wb[1]), "net_pcap0,tx_pcap=%s" % dst],
                ["--peer-gid", Shm.GID_A, "--stats-period", "0",
                 "--stop-after-rx", str(len(packets))] + zc, tag,
                wrap=wb[0])

        def body():
            check(b.wait() == 0, "B: exit status %s" % b.proc.returncode)
            check(a.wait() == 0, "A: exit status %s" % a.proc.returncode)
            compare(packets, pcap_read(dst))
        run_all([a, b], body)
        print("PASS pcap between two processes%s%s: %d packets"
              % (" in namespaces" if ns else "",
                 " (zero copy)" if zc else "", len(packets)))


def loopback_check(app, tag, tmp):
    n = 1000000
    for zc in ([], ["--zero-copy"]):
        shm = Shm(tmp)
        a = App("A", app, 0, [shm.vdev(Shm.GID_A)],
                ["--peer-gid", Shm.GID_B, "--fwd-mode", "loopback-check",
                 "--nb-pkts", str(n), "--pkt-size", "60-200",
                 "--stats-period", "0", "--on-peer-loss", "exit"] + zc,
                tag, deadline=120)
        b = App("B", app, 1, [shm.vdev(Shm.GID_B), "net_ring0"],
                ["--peer-gid", Shm.GID_A, "--fwd-mode", "iofwd",
                 "--stats-period", "0", "--on-peer-loss", "exit"] + zc,
                tag, deadline=120)

        def body():
            i = a.wait_for(r"loopback-check ok", timeout=120)
            check(a.wait() == 0, "A: exit status %s" % a.proc.returncode)
            m = re.search(r"ok (\d+) lost (\d+) corrupt (\d+) reordered (\d+)",
                          a.line(i))
            ok, lost, bad, late = map(int, m.groups())
            check(ok == n and lost == 0 and bad == 0 and late == 0,
                  "A: %s" % a.line(i))
            check(b.wait() == 0, "B: exit status %s" % b.proc.returncode)
        run_all([a, b], body)
        print("PASS loopback-check%s: %d packets, no loss, no corruption"
              % (" (zero copy)" if zc else "", n))


def lost_report(app, start):
    """(mono_ns of the report, ms after the event or 0) of a 'peer lost'
    line. Without an event the loss was found by a failed move, at once."""
    i = app.wait_for(r"peer lost: .*mono_ns=", start=start)
    line = app.line(i)
    m = re.search(r"mono_ns=(\d+)(?:, ([\d.]+) ms after the event)?", line)
    return i, int(m.group(1)), float(m.group(2) or 0)


# What a send to an absent peer may log (lib/ism's signal_event failure,
# the ring link's own warning).
SEND_FAIL_RX = re.compile(r"cannot (signal event|send to the peer)")
STATS_RX = r"^\[\s*[\d.]+s\] ism-rx"


def no_send_flood(app, start, what):
    """While app waits alone for its peer, its HELLO (every 100 ms) must
    not log a line each time: at most one line about a failed send over
    5 of its stats periods (0.2 s each: 10 HELLOs), counted by its own
    output, not by our clock."""
    i = start
    for _ in range(5):
        i = app.wait_for(STATS_RX, start=i) + 1
    n = sum(1 for k in range(start, app.count())
            if SEND_FAIL_RX.search(app.line(k)))
    check(n <= 1, "%s: %d lines about failed sends while waiting for the "
          "peer (log once, then rate-limit)" % (what, n))


def kill_peer(app, tag, tmp):
    shm = Shm(tmp)
    # A sends; B receives. Kill B mid-stream, restart it; A resumes.
    a = App("A", app, 0, [shm.vdev(Shm.GID_A)],
            ["--peer-gid", Shm.GID_B, "--fwd-mode", "txonly",
             "--stats-period", "0.2", "--on-peer-loss", "wait"], tag)
    b = App("B", app, 1, [shm.vdev(Shm.GID_B)],
            ["--peer-gid", Shm.GID_A, "--fwd-mode", "rxonly",
             "--stats-period", "0.2"], tag)
    apps = [a, b]

    def moving(p, start):
        """Wait for a stats line with traffic."""
        return p.wait_for(r"ism-rx [1-9][\d.]* Mpps|ism-rx 0\.[0-9]*[1-9]",
                          start=start)

    def body():
        nonlocal b
        a.wait_for(r"link up")
        moving(b, 0)
        mark = a.count()
        killed = b.kill()
        _, reported, after_event = lost_report(a, mark)
        # Delays for information only: a threshold would fail on slow
        # (or sanitized) builds.
        print("A reported the loss %.3f ms after the kill, %.3f ms after "
              "the event (informational)"
              % ((reported - killed) / 1e6, after_event))
        b.wait()
        no_send_flood(a, mark, "A after the peer's kill")
        b = App("B2", app, 1, [shm.vdev(Shm.GID_B)],
                ["--peer-gid", Shm.GID_A, "--fwd-mode", "rxonly",
                 "--stats-period", "0.2"], tag)
        apps.append(b)
        a.wait_for(r"link up", start=mark)
        moving(b, 0)
        # Clean exit of both: status 0, nothing left behind.
        b.interrupt()
        check(b.wait() == 0, "B2: exit status %s" % b.proc.returncode)
        a.wait_for(r"peer left: it said goodbye", start=mark)
        a.interrupt()
        check(a.wait() == 0, "A: exit status %s" % a.proc.returncode)
    run_all(apps, body)
    print("PASS kill -9 of the receiver: reported, resumed after restart")

    # The other way round, and the survivor exits.
    shm = Shm(tmp)
    a = App("A", app, 0, [shm.vdev(Shm.GID_A)],
            ["--peer-gid", Shm.GID_B, "--fwd-mode", "txonly",
             "--stats-period", "0.2"], tag)
    b = App("B", app, 1, [shm.vdev(Shm.GID_B)],
            ["--peer-gid", Shm.GID_A, "--fwd-mode", "rxonly",
             "--stats-period", "0.2", "--on-peer-loss", "exit"], tag)

    def body2():
        moving(b, 0)
        killed = a.kill()
        _, reported, after_event = lost_report(b, 0)
        print("B reported the loss %.3f ms after the kill, %.3f ms after "
              "the event (informational)"
              % ((reported - killed) / 1e6, after_event))
        check(b.wait() == 3, "B: exit status %s, want 3" % b.proc.returncode)
        b.wait_for(r"ism_fwd totals")
    run_all([a, b], body2)
    print("PASS kill -9 of the sender: reported, survivor exited cleanly")


def rogue(app, tag, tmp, rogue_bin):
    cases = ["len", "len-slot", "behind", "beyond", "ahead31"]
    shm = Shm(tmp)
    dst = os.path.join(tmp, "rogue-out.pcap")
    b = App("B", app, 1, [shm.vdev(Shm.GID_B), "net_pcap0,tx_pcap=%s" % dst],
            ["--peer-gid", Shm.GID_A, "--stats-period", "0"], tag)
    prefix = ism_eal.file_prefix(tag, "fwd", "R")
    argv = [rogue_bin] + ism_eal.eal_args(0, prefix, vdevs=[
        shm.vdev(Shm.GID_A)]) + ["--", "--peer", Shm.GID_B]
    print("+ " + " ".join(argv), flush=True)
    r = ism_eal.Process(argv, "R", DEADLINE, prefix=prefix, stdin=True)
    good = 0

    def send_good(n):
        r.wait_for(r"rogue: sent %d$" % n, start=r.send("good %d" % n))
        return n

    def body():
        nonlocal good
        r.wait_for(r"rogue: link up 1$")
        b.wait_for(r"ism_fwd: link up")
        for k, case in enumerate(cases):
            good += send_good(100)
            mark = b.count()
            r.wait_for(r"rogue: wrote %s$" % case,
                       start=r.send("bad " + case))
            b.wait_for(r"peer lost: it broke the ring protocol", start=mark)
            r.wait_for(r"rogue: link up %d$" % (k + 2))
        good += send_good(100)
        b.interrupt()
        check(b.wait() == 0, "B: exit status %s" % b.proc.returncode)
        pkts, nbytes = totals(b, "ism rx")
        i = b.wait_for(r"protocol errors \d+")
        errors = int(re.search(r"protocol errors (\d+)",
                               b.line(i)).group(1))
        check(pkts == good and nbytes == 64 * good,
              "B received %d packets %d bytes, the rogue sent %d good ones"
              % (pkts, nbytes, good))
        check(errors == len(cases), "B counted %d protocol errors for %d "
              "bad writes" % (errors, len(cases)))
        r.send("quit")
        check(r.wait(DEADLINE) == 0, "rogue: exit status %s"
              % r.proc.returncode)
        compare([bytes((k + i) & 0xff for i in range(64))
                 for k in range(good)], pcap_read(dst), "to the pcap")
    run_all([b, r], body)
    print("PASS a lying peer (%s): one protocol error each, link down and "
          "up, exactly the %d good packets" % (", ".join(cases), good))


SCENARIOS = {
    "pcap-loopback": (pcap_loopback, False),
    "pcap": (pcap_shm, True),
    "pcap-ns": (lambda app, tag, tmp: pcap_shm(app, tag, tmp, ns=True), True),
    "check": (loopback_check, True),
    "kill": (kill_peer, True),
    "rogue": (rogue, True),
}


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[3] not in SCENARIOS:
        print(__doc__)
        return 2
    app, tag, name = sys.argv[1:4]
    fn, needs_shm = SCENARIOS[name]
    if name == "rogue":
        rogue_bin = sys.argv[4]
        fn = lambda app, tag, tmp: rogue(app, tag, tmp, rogue_bin)  # noqa
    with tempfile.TemporaryDirectory(prefix="ism-fwd-test.") as tmp:
        try:
            if needs_shm:
                shm_probe(app, tag, tmp)
            fn(app, tag, tmp)
        except ism_eal.Error as e:
            print("FAIL %s: %s" % (name, e))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
