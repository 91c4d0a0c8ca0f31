#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""net_ism between processes: Debian's dpdk-testpmd and DPDK's l2fwd over
net_ism on ism_shm (python3 standard library only).

    net_ism_test.py --build DIR --tag TAG [--asan] [--l2fwd BIN]
                    SCENARIO [ARGS]

Scenarios:
  txrx copy|zc       A txonly -> B rxonly; after A stops, B has received
                     exactly what A sent (packets and bytes), 0 errors
  pcap copy|zc Q     io forwarding of pcaps (64-9000 B) through A's
                     net_pcap -> net_ism -> B's net_ism -> net_pcap, Q
                     queues (one pcap per queue): byte-identical, in order
  kill               kill -9 of the receiver, then of the sender, while
                     traffic flows: the survivor's link goes down (LSC
                     event), comes back when the peer is restarted, and
                     forwarding resumes; nobody else restarts
  l2fwd              A testpmd (pcap -> net_ism) -> dpdk-l2fwd with two
                     net_ism ports on one ISM device -> B testpmd
                     (net_ism -> pcap): byte-identical, in order
  detach started|stopped
                     A (txonly) -> B (rxonly) over ism_shm; A detaches its
                     ISM device (device detach ism_shm0) while its port
                     forwards, or after "port stop": A's link goes down at
                     once (LSC event), B's too, a bounded number of log
                     lines, A's port stops (no crash), refuses to start
                     (No such device), closes, and A quits cleanly
  detach-busy        A detaches its ISM device while a telemetry client
                     polls /ism/xstats,0 and /rawdev/dump,0 in a loop,
                     both cores are kept busy, and the device's reaper
                     process (dpdk-ism-shm-reaper) is stopped (SIGSTOP):
                     the detach completes anyway, the command line
                     answers, the reaper exits once continued
                     (regression: the close waited for the reaper, which
                     got no CPU on the main lcore's core: seconds; stopped,
                     for ever)
  reuse              one testpmd, net_ism0 on ism_lo0 talking to itself:
                     port stop, device detach ism_lo0, port attach ism_lo7
                     (it takes the freed ISM device id): the old port
                     refuses to start, its link stays down
  rogue rxonly|pcap  a peer that lies (dpdk-ism-ring-rogue) against B's
                     net_ism port, in rxonly or io forwarding to a pcap:
                     descriptors of lengths near 2^32, producer cursors
                     behind, beyond the credits, 2^31 ahead; each one
                     error, the link down and up again, no crash; B got
                     exactly the good packets (the pcap holds them)
  rogue-flood        the rogue breaks the ring protocol after each new
                     connection for 3 s (a descriptor of length 2^32 - 1):
                     B's restarts and its ISM log lines stay within what
                     the back-off and the rate limit allow for the time it
                     took (regression: thousands of each), its control
                     thread's CPU share too; once the rogue behaves the
                     link comes back, and B counted exactly one error per
                     bad write and received exactly the good packets;
                     then it says goodbye after each new connection, 60
                     times (no protocol broken, nothing to back off from):
                     B's link lines stay within the rate limit and it
                     says how many it held back (regression: a line for
                     each)
  l3fwd-power        the same through DPDK's l3fwd-power in interrupt-only
                     mode (Rx interrupts): routed IPv4 packets arrive, in
                     order; idle before and after the traffic its lcore
                     sleeps in epoll_wait (its CPU time, where it waits),
                     the traffic wakes it from an Rx interrupt (its log)

Every phase is ordered by what the processes print (link up lines,
counters), never by how fast a peer runs; waits have deadlines that only
stop a hang. Exit status 0 pass, 1 fail, 77 skipped (l2fwd not built).
"""

import argparse
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import ism_eal  # noqa: E402  (tests/lib)
from ism_eal import check, run_all  # noqa: E402
from ism_pcap import (compare, mixed_packets, pcap_read,  # noqa: E402
                      pcap_write)
import ism_sleep  # noqa: E402
import testpmd  # noqa: E402
from testpmd import Testpmd  # noqa: E402

GID_A, GID_B, GID_L = "0xa1", "0xb2", "0xc3"


class Env:
    def __init__(self, args, tmp):
        self.build = os.path.abspath(args.build)
        self.tag = args.tag
        self.testpmd = args.testpmd
        self.asan = args.asan
        self.l2fwd = args.l2fwd
        self.rogue = args.rogue
        self.l3fwd_power = args.l3fwd_power
        self.tmp = tmp
        self.nb_fabrics = 0

    def plugins(self):
        return ism_eal.plugin_load([
            os.path.join(self.build, "drivers", "raw", "ism",
                         "librte_raw_ism.so"),
            os.path.join(self.build, "drivers", "net", "ism",
                         "librte_net_ism.so")])

    def plugin_args(self):
        return self.plugins()[0]

    def preload_env(self):
        """The plugins' environment (a clone under /tmp), and the sanitizer
        runtimes first for an ASan build's plugins."""
        env = dict(self.plugins()[1])
        if self.asan:
            env["LD_PRELOAD"] = ism_eal.asan_preload()
        return env

    def fabric(self):
        """A fresh ism_shm rendezvous directory."""
        self.nb_fabrics += 1
        d = os.path.join(self.tmp, "fabric%d" % self.nb_fabrics)
        os.mkdir(d)
        return d


def shm(fabric, gid):
    return "ism_shm0,dir=%s,gid=%s" % (fabric, gid)


def ism(peer, extra=""):
    return "net_ism0,ism=ism_shm0,peer=%s%s" % (peer, extra)


# ------------------------------------------------------------------ txrx

def txrx(env, mode):
    zc = ",zero-copy=yes" if mode == "zc" else ""
    fab = env.fabric()
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), ism(GID_B, zc)],
                ["--forward-mode=txonly", "--txpkts=200"])
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A, zc)],
                ["--forward-mode=rxonly"])

    def body():
        a.wait_link(0, "up")
        b.wait_link(0, "up")
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(0, "RX-packets", lambda v: v >= 200000,
                       ">= 200000")
        a.fwd_stop()
        sent = a.port_stats(0)
        # Everything A's ring took arrives; wait for the last of it.
        b.wait_counter(0, "RX-packets", lambda v: v >= sent["TX-packets"],
                       ">= %d" % sent["TX-packets"])
        b.fwd_stop()
        got = b.port_stats(0)
        print("A sent %d packets %d bytes, B received %d packets %d bytes"
              % (sent["TX-packets"], sent["TX-bytes"], got["RX-packets"],
                 got["RX-bytes"]))
        check(got["RX-packets"] == sent["TX-packets"] and
              got["RX-bytes"] == sent["TX-bytes"], "counters differ")
        check(sent["TX-errors"] == 0 and got["RX-errors"] == 0 and
              got["RX-nombuf"] == 0, "errors: A %s B %s" % (sent, got))
        a.quit()
        b.quit()
    run_all([a, b], body)
    print("PASS txonly -> rxonly (%s): equal counters, no errors" % mode)


# ------------------------------------------------------------------ pcap

def pcap_files(env, name, nb_q, packets_per_q, seed, max_len=9000):
    """Input pcaps (one per queue) and their packets."""
    ins, packets = [], []
    for q in range(nb_q):
        pk = mixed_packets(packets_per_q, seed * 10 + q, max_len)
        path = os.path.join(env.tmp, "%s-in%d.pcap" % (name, q))
        pcap_write(path, pk)
        ins.append(path)
        packets.append(pk)
    return ins, packets


def pcap_vdev(rx, tx):
    return "net_pcap0," + ",".join(["rx_pcap=%s" % p for p in rx] +
                                   ["tx_pcap=%s" % p for p in tx])


def retry(p):
    """io forwarding that waits for the ring instead of dropping."""
    p.ask("set fwd io retry", r"Set io packet forwarding mode with retry")
    p.send("set burst tx delay 10 retry 2000000")


def pcap(env, mode, nb_q):
    nb_q = int(nb_q)
    zc = ",zero-copy=yes" if mode == "zc" else ""
    name = "pcap-%s-%d" % (mode, nb_q)
    ins, packets = pcap_files(env, name, nb_q, 600, 1)
    empty = os.path.join(env.tmp, name + "-empty.pcap")
    pcap_write(empty, [])
    outs = [os.path.join(env.tmp, "%s-out%d.pcap" % (name, q))
            for q in range(nb_q)]
    junk = [os.path.join(env.tmp, "%s-junk%d.pcap" % (name, q))
            for q in range(nb_q)]
    total = sum(len(p) for p in packets)
    fab = env.fabric()
    common = ["--rxq=%d" % nb_q, "--txq=%d" % nb_q, "--max-pkt-len=9018"]
    # A: port 0 pcap in, port 1 net_ism; B: port 0 net_ism, port 1 pcap out
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), pcap_vdev(ins, junk),
                                     ism(GID_B, zc)], common)
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A, zc),
                                     pcap_vdev([empty] * nb_q, outs)],
                common)

    def body():
        a.wait_link(1, "up")
        b.wait_link(0, "up")
        retry(a)
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(1, "TX-packets", lambda v: v >= total,
                       "%d" % total)
        a.fwd_stop()
        b.fwd_stop()
        st = b.port_stats(0)
        check(st["RX-errors"] == 0, "B: rx errors %s" % st)
        a.quit()
        b.quit()    # closes the pcap files
        for q in range(nb_q):
            compare(packets[q], pcap_read(outs[q]), "queue %d" % q)
    run_all([a, b], body)
    print("PASS pcap io forwarding (%s, %d queues): %d packets of 64-9000 "
          "B, byte-identical and in order" % (mode, nb_q, total))


# ------------------------------------------------------------------ kill

def kill(env):
    fab = env.fabric()

    def start(name, main, mode, gid, peer):
        p = Testpmd(env, name, "0,1", main, [shm(fab, gid), ism(peer)],
                    ["--forward-mode=" + mode])
        return p

    procs = []

    def flowing(rx, base):
        return rx.wait_counter(0, "RX-packets", lambda v: v > base + 1000,
                               "> %d" % (base + 1000))

    def survive(victim_name, victim_mode, victim_main, victim_gid, other):
        """Kill the victim; the other port goes down and comes back up
        with a restarted victim. Returns the restarted process."""
        victim = next(p for p in procs if p.name.startswith(victim_name)
                      and p.alive())
        mark = other.count()
        killed = time.monotonic_ns()
        victim.cleanup()
        i = other.wait_for(r"Port 0: link state change event", start=mark)
        other.wait_link(0, "down")
        why = other.line(other.wait_for(r"NET_ISM: .*link down",
                                        start=mark))
        print("%s: LSC event read %.3f ms after the kill (informational; "
              "%s)" % (other.name, (other.stamp(i) - killed) / 1e6,
                       why.split("link down: ")[-1]))
        mark = other.count()
        peer = GID_B if victim_gid == GID_A else GID_A
        again = start(victim_name + "2", victim_main, victim_mode,
                      victim_gid, peer)
        procs.append(again)
        other.wait_for(r"Port 0: link state change event", start=mark)
        other.wait_link(0, "up")
        again.wait_link(0, "up")
        again.fwd_start()
        return again

    def body():
        a = start("A", 0, "txonly", GID_A, GID_B)
        procs.append(a)
        b = start("B", 1, "rxonly", GID_B, GID_A)
        procs.append(b)
        a.wait_link(0, "up")
        b.wait_link(0, "up")
        b.fwd_start()
        a.fwd_start()
        flowing(b, 0)
        # The receiver dies: the sender goes down, then up again.
        b = survive("B", "rxonly", 1, GID_B, a)
        flowing(b, 0)
        # The sender dies: the receiver goes down, then up again.
        before = b.port_stats(0)["RX-packets"]
        a = survive("A", "txonly", 0, GID_A, b)
        flowing(b, before)
        for p in (a, b):
            p.fwd_stop()
            p.quit()
    run_all(procs, body)
    print("PASS kill -9 of the receiver, then of the sender: link down, "
          "up again after the restart, forwarding resumed")


# ------------------------------------------------------------------ l2fwd

def l2fwd(env):
    if not env.l2fwd or not os.path.exists(env.l2fwd):
        print("SKIP: dpdk-l2fwd was not built: DPDK's examples "
              "(/usr/share/dpdk/examples/l2fwd, package dpdk-doc) are not "
              "installed; run devtools/setup.sh")
        return 77
    ins, packets = pcap_files(env, "l2fwd", 1, 400, 3, max_len=1500)
    empty = os.path.join(env.tmp, "l2fwd-empty.pcap")
    pcap_write(empty, [])
    out = os.path.join(env.tmp, "l2fwd-out.pcap")
    junk = os.path.join(env.tmp, "l2fwd-junk.pcap")
    fab = env.fabric()
    # B's ring holds all the packets: l2fwd drops what its port does not
    # take, and must not have to.
    big = ",slot-size=256,ring-slots=2048"
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), pcap_vdev(ins, [junk]),
                                     ism(GID_L)], [])
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_L, big),
                                     pcap_vdev([empty], [out])], [])
    prefix = ism_eal.file_prefix(env.tag, "net-ism", "L")
    argv = [env.l2fwd] + ism_eal.eal_args(
        1, prefix, vdevs=[shm(fab, GID_L),
                          "net_ism0,ism=ism_shm0,peer=%s" % GID_A,
                          "net_ism1,ism=ism_shm0,peer=%s" % GID_B],
        extra=env.plugin_args()) + [
        "--", "-p", "0x3", "-q", "2", "--no-mac-updating", "-T", "0"]
    procs = [a, b]

    def body():
        a.link(1)                   # A answers: it is set up
        # (ASan: its runtime before stdbuf's preload library.)
        print("+ [L] %s" % " ".join(argv), flush=True)
        ell = ism_eal.Process(argv, "L", testpmd.DEADLINE, prefix=prefix,
                              env=env.preload_env(), line_buffered=True)
        procs.append(ell)
        ell.wait_for(r"Port 0 Link up")
        ell.wait_for(r"Port 1 Link up")
        a.wait_link(1, "up")
        b.wait_link(0, "up")
        retry(a)
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(1, "TX-packets", lambda v: v >= len(packets[0]),
                       "%d" % len(packets[0]))
        a.fwd_stop()
        b.fwd_stop()
        ell.signal(signal.SIGINT)
        check(ell.wait(testpmd.WAIT) == 0, "l2fwd: exit status %s"
              % ell.proc.returncode)
        ell.wait_for(r"Bye")
        a.quit()
        b.quit()
        compare(packets[0], pcap_read(out), "through l2fwd")
    run_all(procs, body)
    print("PASS l2fwd between two net_ism ports: %d packets byte-identical "
          "and in order" % len(packets[0]))


# ------------------------------------------------------------------ detach

# Log lines of librte_ism, the raw PMD, net_ism and librte_ism_ring.
ISM_LOG = r"^(ISM|ISM_PMD|ISM_RAWDEV|NET_ISM|ISM_RING|ISM_SHM[A-Z_]*): "
# At most this many of them from a detach to the end of the checks: a few
# of the port, the device and EAL, not one per control round (there were
# about one a millisecond, for ever).
DETACH_LOG_MAX = 20


def ism_lines(p, start):
    return [ln for ln in p.lines[start:] if re.search(ISM_LOG, ln)]


def detach(env, order):
    fab = env.fabric()
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), ism(GID_B)],
                ["--forward-mode=txonly", "--txpkts=200"])
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A)],
                ["--forward-mode=rxonly"])

    def body():
        a.wait_link(0, "up")
        b.wait_link(0, "up")
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(0, "RX-packets", lambda v: v >= 1000, ">= 1000")
        if order == "stopped":
            a.fwd_stop()
            a.ask("port stop 0", r"^Done")
            b.wait_link(0, "down")
        mark = a.count()
        a.ask("device detach ism_shm0", r"Device (\S+ )?is detached")
        if order == "started":
            # The LSC event comes from the detach itself.
            a.wait_for(r"Port 0: link state change event", start=mark)
        check(a.link(0) == "down", "A: link up after the detach")
        b.wait_link(0, "down")
        # A window in which a flood (a line per control round) would
        # show; the bound does not depend on its length.
        time.sleep(1)
        if order == "started":
            a.fwd_stop()
            a.ask("port stop 0", r"^Done")
        a.ask("port start 0", r"Fail to start port 0: No such device")
        check(a.link(0) == "down", "A: link up")
        lines = ism_lines(a, mark)
        print("A: %d log lines of ISM from the detach on:\n  %s"
              % (len(lines), "\n  ".join(lines)))
        check(len(lines) <= DETACH_LOG_MAX, "A: %d log lines (at most %d)"
              % (len(lines), DETACH_LOG_MAX))
        a.ask("port close 0", r"^Done")
        a.quit()
        b.fwd_stop()
        b.quit()
    run_all([a, b], body)
    print("PASS device detach under a %s net_ism port: link down, peer "
          "down, port stopped, start refused, closed, quit" % order)


class Spinner:
    """A process that keeps one CPU busy (pure Python), ended by pid."""

    def __init__(self, cpu):
        self.proc = subprocess.Popen(
            ["taskset", "-c", str(cpu), sys.executable, "-c",
             "while True: pass"])

    def end(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class TelemetryLoop(threading.Thread):
    """Polls the given telemetry commands of a process in a loop until
    stopped (DPDK's telemetry socket, protocol v2)."""

    def __init__(self, prefix, cmds):
        super().__init__(daemon=True)
        self.path = os.path.join(ism_eal.runtime_dir(prefix),
                                 "dpdk_telemetry.v2")
        self.cmds = cmds
        self.halt = threading.Event()
        self.replies = 0

    def run(self):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as so:
                so.settimeout(testpmd.WAIT)
                so.connect(self.path)
                so.recv(65536)                  # its greeting
                while not self.halt.is_set():
                    for c in self.cmds:
                        so.send(c.encode())
                        if so.recv(1 << 20):
                            self.replies += 1
        except OSError:
            pass                                # the process quit

    def stop(self):
        self.halt.set()
        self.join(testpmd.WAIT)


def reaper_of(pid):
    """The pid of pid's dpdk-ism-shm-reaper child."""
    for k in ism_eal._children(pid):
        try:
            with open("/proc/%d/comm" % k) as f:
                if f.read().startswith("dpdk-ism-shm-re"):
                    return k
        except OSError:
            pass
    raise ism_eal.Error("no dpdk-ism-shm-reaper child of %d" % pid)


def running(pid):
    """Whether pid exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def detach_busy(env):
    fab = env.fabric()
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), ism(GID_B)],
                ["--forward-mode=txonly", "--txpkts=200"])
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A)],
                ["--forward-mode=rxonly"])
    spin = []
    tel = [None]

    def body():
        a.wait_link(0, "up")
        b.wait_link(0, "up")
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(0, "RX-packets", lambda v: v >= 1000, ">= 1000")
        reaper = reaper_of(a.pid)
        spin.extend([Spinner(0), Spinner(1)])
        tel[0] = TelemetryLoop(a.prefix, ["/ism/xstats,0",
                                          "/rawdev/dump,0"])
        tel[0].start()
        end = time.monotonic() + testpmd.WAIT
        while tel[0].replies < 10:
            check(tel[0].is_alive() and time.monotonic() < end,
                  "no telemetry replies from A")
            time.sleep(0.01)
        os.kill(reaper, signal.SIGSTOP)
        try:
            a.ask("device detach ism_shm0", r"Device (\S+ )?is detached")
            # The command line answers.
            check(a.link(0) == "down", "A: link up after the detach")
        finally:
            os.kill(reaper, signal.SIGCONT)
        tel[0].stop()
        print("telemetry: %d replies from A" % tel[0].replies)
        for sp in spin:
            sp.end()
        # Told to exit, it does once it runs.
        end = time.monotonic() + testpmd.WAIT
        while running(reaper):
            check(time.monotonic() < end, "A's reaper %d did not exit"
                  % reaper)
            time.sleep(0.01)
        mine = "%032x.sock" % int(GID_A, 16)
        check(not [n for n in os.listdir(fab) if n.endswith(mine)],
              "A's socket left behind: %s" % os.listdir(fab))
        b.wait_link(0, "down")
        a.fwd_stop()
        a.ask("port stop 0", r"^Done")
        a.ask("port close 0", r"^Done")
        a.quit()
        b.fwd_stop()
        b.quit()

    try:
        run_all([a, b], body)
    finally:
        if tel[0] is not None:
            tel[0].stop()
        for sp in spin:
            sp.end()
    print("PASS device detach with the reaper stopped, a telemetry loop "
          "and both cores busy: done at once, the reaper exited later")


def reuse(env):
    a = Testpmd(env, "A", "0,1", 0, ["ism_lo0,gid=0xa",
                                     "net_ism0,ism=ism_lo0,peer=0xa"], [])

    def body():
        a.wait_link(0, "up")
        a.ask("port stop 0", r"^Done")
        a.ask("device detach ism_lo0", r"Device (\S+ )?is detached")
        # ISM device id 0 is free: ism_lo7 takes it.
        a.send("port attach ism_lo7,gid=0xa")
        a.wait_for(r"ism_lo7: loopback ISM device 0,")
        i = a.ask("port start 0", r"Fail to start port 0: No such device|"
                  r"Port 0: ")
        check("No such device" in a.line(i), "A: the old port started on "
              "the new device: %s" % a.line(i))
        check(a.link(0) == "down", "A: link up")
        a.quit()
    run_all([a], body)
    print("PASS a new ISM device at the freed id: the old port refuses to "
          "start")


# ------------------------------------------------------------------ rogue

ROGUE_CASES = ["len", "len-slot", "behind", "beyond", "ahead31"]


def rogue_packets(n):
    """What dpdk-ism-ring-rogue sends: 64 bytes, byte i of packet k is
    k + i."""
    return [bytes((k + i) & 0xff for i in range(64)) for k in range(n)]


class Rogue:
    """dpdk-ism-ring-rogue on ism_shm of fabric fab, the peer of B's port
    (b); its good packets counted where B counts them (port, key)."""

    def __init__(self, env, fab, b, procs, counted):
        prefix = ism_eal.file_prefix(env.tag, "net-ism", "R")
        self.argv = [env.rogue] + ism_eal.eal_args(
            1, prefix, vdevs=[shm(fab, GID_A)]) + ["--", "--peer", GID_B]
        self.prefix = prefix
        self.b = b
        self.procs = procs
        self.counted = counted
        self.good = 0
        self.r = None

    def start(self):
        """Start it; once both links are up, B forwards."""
        print("+ [R] %s" % " ".join(self.argv), flush=True)
        # Not under stdbuf: an ASan build's runtime must come first (the
        # rogue flushes each line itself).
        self.r = ism_eal.Process(self.argv, "R", testpmd.DEADLINE,
                                 prefix=self.prefix, stdin=True)
        self.procs.append(self.r)
        self.r.wait_for(r"rogue: link up 1$")
        self.b.wait_link(0, "up")
        self.b.fwd_start()
        return self.r

    def send_good(self, n):
        """n good packets, until B counted them."""
        self.r.wait_for(r"rogue: sent %d$" % n,
                        start=self.r.send("good %d" % n))
        self.good += n
        self.b.wait_counter(self.counted[0], self.counted[1],
                            lambda v: v >= self.good, "%d" % self.good)

    def quit(self):
        self.r.send("quit")
        check(self.r.wait(testpmd.WAIT) == 0, "rogue: exit status %s"
              % self.r.proc.returncode)


def rogue(env, fwd):
    cases = ROGUE_CASES if fwd == "rxonly" else ["len", "len-slot"]
    fab = env.fabric()
    out = os.path.join(env.tmp, "rogue-out.pcap")
    if fwd == "rxonly":
        b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A)],
                    ["--forward-mode=rxonly"])
        counted = (0, "RX-packets")
    else:
        empty = os.path.join(env.tmp, "rogue-empty.pcap")
        pcap_write(empty, [])
        b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A),
                                         pcap_vdev([empty], [out])], [])
        counted = (1, "TX-packets")
    procs = [b]
    rg = Rogue(env, fab, b, procs, counted)

    def body():
        r = rg.start()
        for k, case in enumerate(cases):
            rg.send_good(100)
            mark = b.count()
            r.wait_for(r"rogue: wrote %s$" % case,
                       start=r.send("bad " + case))
            b.wait_for(r"NET_ISM: .*link down: .*it broke the ring "
                       r"protocol", start=mark)
            r.wait_for(r"rogue: link up %d$" % (k + 2))
            b.wait_link(0, "up")
        rg.send_good(100)
        rx_exact(b, rg.good, len(cases))
        b.fwd_stop()
        b.quit()
        rg.quit()
        if fwd == "pcap":
            compare(rogue_packets(rg.good), pcap_read(out), "to the pcap")
    run_all(procs, body)
    print("PASS a lying peer (%s; %s): one error each, link down and up, "
          "exactly the %d good packets" % (fwd, ", ".join(cases), rg.good))


def rx_exact(b, good, bad):
    """B's port 0 received exactly good packets of 64 bytes and counted
    bad errors."""
    st = b.port_stats(0)
    print("B: %s" % st)
    check(st["RX-packets"] == good and st["RX-bytes"] == 64 * good,
          "B received %d packets %d bytes, the rogue sent %d good ones"
          % (st["RX-packets"], st["RX-bytes"], good))
    check(st["RX-errors"] == bad, "B counted %d errors for %d bad writes"
          % (st["RX-errors"], bad))


def thread_cpu(pid, name):
    """CPU seconds (user and system) of the threads of pid whose name
    contains name."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                if name not in f.read():
                    continue
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


# Restarts a peer that breaks the protocol after each connection gets in
# s seconds: the free ones (RTE_ISM_RING_LINK_FREE_RESTARTS), then one per
# period of 50 ms, 100 ms, ... at most 1 s (rte_ism_ring.h).
def flood_restarts_max(s):
    n, t, quiet = 3, 0.0, 0.05
    while t <= s:
        n += 1
        t += quiet
        quiet = min(quiet * 2, 1.0)
    return n + 1


# ISM lines a port may log in s seconds: net_ism's link lines (10 per 5 s
# and a count of those held back), a line a second of librte_ism_ring's
# warnings, a few more.
def flood_lines_max(s):
    windows = int(s // 5) + 2
    return windows * 11 + int(s) + 2 + 6


# A peer that says goodbye after each new connection breaks no protocol:
# nothing to back off from, so only net_ism's rate limit bounds B's link
# lines (ISM_ETH_LINK_LOG_BURST per ISM_ETH_LINK_LOG_WINDOW_S, the number
# held back logged when a window ends).
BOUNCES = 60
LINK_LINE = r"NET_ISM: net_ism0: link (up|down): "
HELD_BACK = r"NET_ISM: net_ism0: (\d+) more link lines not logged"


def link_lines_max(s):
    return 10 * (int(s // 5) + 2)


def rogue_flood(env):
    fab = env.fabric()
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_A)],
                ["--forward-mode=rxonly"])
    procs = [b]
    rg = Rogue(env, fab, b, procs, (0, "RX-packets"))

    def body():
        r = rg.start()
        rg.send_good(100)
        mark = b.count()
        cpu0 = thread_cpu(b.pid, "ism-eth")
        t0 = time.monotonic()
        i = r.wait_for(r"rogue: flooded (\d+)$", start=r.send("flood 3000"))
        took = time.monotonic() - t0
        cpu = thread_cpu(b.pid, "ism-eth") - cpu0
        k = int(re.search(r"flooded (\d+)", r.line(i)).group(1))
        b.wait_link(0, "up")
        lines = ism_lines(b, mark)
        print("B: %d restarts in %.1f s (at most %d), %d ISM log lines (at "
              "most %d), its control thread used %.2f s of CPU:\n  %s"
              % (k, took, flood_restarts_max(took), len(lines),
                 flood_lines_max(took), cpu, "\n  ".join(lines)))
        check(k >= 1, "the rogue wrote nothing")
        check(k <= flood_restarts_max(took), "B restarted %d times in "
              "%.1f s" % (k, took))
        check(len(lines) <= flood_lines_max(took), "B logged %d ISM lines "
              "in %.1f s" % (len(lines), took))
        check(cpu <= took / 2, "B's control thread used %.2f s of CPU in "
              "%.1f s" % (cpu, took))
        rg.send_good(100)
        # BOUNCES goodbyes: at least as many link changes of B, far more
        # than the rate limit lets through in the time they take; the
        # lines held back are counted once their window ends.
        mark = b.count()
        t0 = time.monotonic()
        r.wait_for(r"rogue: bounced %d$" % BOUNCES,
                   start=r.send("bounce %d" % BOUNCES))
        b.wait_link(0, "up")
        links = [ln for ln in b.lines[mark:] if re.search(LINK_LINE, ln)]
        took = time.monotonic() - t0
        print("B: %d goodbyes in %.1f s: %d link lines (at most %d)"
              % (BOUNCES, took, len(links), link_lines_max(took)))
        check(len(links) <= link_lines_max(took), "B logged %d link lines "
              "in %.1f s" % (len(links), took))
        i = b.wait_for(HELD_BACK, start=mark)
        print("B: %s" % b.line(i))
        rg.send_good(100)
        rx_exact(b, rg.good, k)
        b.fwd_stop()
        b.quit()
        rg.quit()
    run_all(procs, body)
    print("PASS a peer breaking the protocol after each connection, then "
          "saying goodbye after each: restarts and log lines bounded, the "
          "link back once it behaves, exact counters")


# ------------------------------------------------------------ l3fwd-power

def ipv4_packets(n, seed, max_len):
    """n IPv4/UDP frames to 2.1.1.x (l3fwd-power's route to port 1),
    valid header checksums, numbered payloads, 64..max_len bytes."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        size = rnd.randint(64, max_len)
        payload = struct.pack(">I", i) + rnd.randbytes(size - 14 - 20 - 8 - 4)
        udp = struct.pack(">HHHH", 1024, 1025, 8 + len(payload), 0)
        hdr = struct.pack(">BBHHHBBH4s4s", 0x45, 0, 20 + len(udp) +
                          len(payload), i & 0xffff, 0, 64, 17, 0,
                          bytes([10, 0, 0, 1]), bytes([2, 1, 1, 1 + i % 200]))
        words = struct.unpack(">10H", hdr)
        c = sum(words)
        c = (c & 0xffff) + (c >> 16)
        c = (c & 0xffff) + (c >> 16)
        hdr = hdr[:10] + struct.pack(">H", ~c & 0xffff) + hdr[12:]
        eth = bytes([0x02, 0, 0, 0, 0, 9, 0x02, 0, 0, 0, 0, 1, 0x08, 0x00])
        out.append(eth + hdr + udp + payload)
    return out


def routed(sent, got):
    """got is sent as l3fwd-power forwards it: same length, TTL one
    less, the same from the IPv4 header's protocol field on but for the
    header checksum (RFC 1812 update); in order."""
    check(len(got) == len(sent), "%d packets sent, %d arrived"
          % (len(sent), len(got)))
    for i, (a, b) in enumerate(zip(sent, got)):
        check(len(a) == len(b) and a[12:22] == b[12:22] and
              b[22] == a[22] - 1 and a[23] == b[23] and a[26:] == b[26:],
              "packet %d not routed as sent (%d vs %d bytes)"
              % (i, len(a), len(b)))


def l3fwd_power(env):
    if not env.l3fwd_power or not os.path.exists(env.l3fwd_power):
        print("SKIP: dpdk-l3fwd-power was not built: DPDK's examples "
              "(/usr/share/dpdk/examples/l3fwd-power, package dpdk-doc) "
              "are not installed; run devtools/setup.sh")
        return 77
    packets = ipv4_packets(300, 5, 1500)
    ins = os.path.join(env.tmp, "l3fwd-power-in.pcap")
    pcap_write(ins, packets)
    empty = os.path.join(env.tmp, "l3fwd-power-empty.pcap")
    pcap_write(empty, [])
    out = os.path.join(env.tmp, "l3fwd-power-out.pcap")
    junk = os.path.join(env.tmp, "l3fwd-power-junk.pcap")
    fab = env.fabric()
    big = ",slot-size=256,ring-slots=2048"
    a = Testpmd(env, "A", "0,1", 0, [shm(fab, GID_A), pcap_vdev([ins], [junk]),
                                     ism(GID_L)], [])
    b = Testpmd(env, "B", "0,1", 1, [shm(fab, GID_B), ism(GID_L, big),
                                     pcap_vdev([empty], [out])], [])
    prefix = ism_eal.file_prefix(env.tag, "net-ism", "P")
    # One lcore, the main thread, polls both ports' Rx queue.
    argv = [env.l3fwd_power] + ism_eal.eal_args(
        1, prefix, vdevs=[shm(fab, GID_L),
                          "net_ism0,ism=ism_shm0,peer=%s" % GID_A,
                          "net_ism1,ism=ism_shm0,peer=%s%s" % (GID_B, big)],
        extra=env.plugin_args()) + [
        "--", "-p", "0x3", "--config", "(0,0,1),(1,0,1)",
        "--interrupt-only", "--parse-ptype"]
    procs = [a, b]

    def idle(ell, when):
        m = ism_sleep.measure(ell.pid, ell.pid)
        print("l3fwd-power's lcore idle %s: %s" % (when,
                                                   ism_sleep.describe(m)))
        # It wakes every 10 ms (its epoll timeout) and may then wait for
        # a CPU on a busy machine: most samples, not all, find it asleep.
        ism_sleep.check_asleep(m, "l3fwd-power's lcore (%s)" % when,
                               cpu_share=0.25, epoll_share=0.5)
        check(m["sleeps"] > 0, "l3fwd-power's lcore never slept (%s)"
              % when)

    def body():
        a.link(1)
        print("+ [P] %s" % " ".join(argv), flush=True)
        ell = ism_eal.Process(argv, "P", testpmd.DEADLINE, prefix=prefix,
                              env=env.preload_env(), line_buffered=True)
        procs.append(ell)
        ell.wait_for(r"Port 0 Link up")
        ell.wait_for(r"Port 1 Link up")
        ell.wait_for(r"entering main interrupt loop on lcore 1")
        a.wait_link(1, "up")
        b.wait_link(0, "up")
        idle(ell, "before the traffic")
        mark = ell.count()
        retry(a)
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(1, "TX-packets", lambda v: v >= len(packets),
                       "%d" % len(packets))
        a.fwd_stop()
        b.fwd_stop()
        ell.wait_for(r"lcore 1 is waked up from rx interrupt on port 0 "
                     r"queue 0", start=mark)
        # Back to sleep once the traffic is over.
        ell.wait_for(r"lcore 1 sleeps until interrupt triggers",
                     start=mark)
        idle(ell, "after the traffic")
        ell.signal(signal.SIGINT)
        check(ell.wait(testpmd.WAIT) == 0, "l3fwd-power: exit status %s"
              % ell.proc.returncode)
        a.quit()
        b.quit()
        routed(packets, pcap_read(out))
    run_all(procs, body)
    print("PASS l3fwd-power between two net_ism ports: %d packets routed "
          "in order; its lcore sleeps when idle and an Rx interrupt wakes "
          "it" % len(packets))


SCENARIOS = {"txrx": txrx, "pcap": pcap, "kill": kill, "l2fwd": l2fwd,
             "detach": detach, "reuse": reuse, "rogue": rogue,
             "rogue-flood": rogue_flood, "detach-busy": detach_busy,
             "l3fwd-power": l3fwd_power}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--testpmd", default="/usr/bin/dpdk-testpmd")
    ap.add_argument("--asan", action="store_true")
    ap.add_argument("--l2fwd", default="")
    ap.add_argument("--rogue", default="")
    ap.add_argument("--l3fwd-power", default="")
    ap.add_argument("scenario", choices=SCENARIOS)
    ap.add_argument("args", nargs="*")
    args = ap.parse_args()
    # Pcaps and ism_shm rendezvous directories; the plugins stay in the
    # build tree (Env.plugins(): loaded from wherever that is).
    with tempfile.TemporaryDirectory(prefix="net-ism-test.") as tmp:
        try:
            ret = SCENARIOS[args.scenario](Env(args, tmp), *args.args)
        except ism_eal.Error as e:
            print("FAIL %s: %s" % (args.scenario, e))
            return 1
    return ret or 0


if __name__ == "__main__":
    sys.exit(main())
