#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""ISM devices and net_ism ports seen from DPDK secondary processes
(python3 standard library only).

    mp_test.py --build DIR --tag TAG [--asan] [--testpmd BIN]
               [--proc-info BIN] [--dumpcap BIN] [--ism-fwd BIN]
               [--mp-tool BIN] SCENARIO [ARGS]

Scenarios:
  tools            B, a dpdk-testpmd primary with hugepages, forwards what
                   its net_ism port receives from A (testpmd, net_pcap ->
                   net_ism over ism_shm, a pcap sent again and again) to
                   a net_null port. Debian's dpdk-dumpcap captures as many
                   packets as the pcap has on the net_ism port into a
                   pcapng file: byte-identical to those sent, in order;
                   Debian's dpdk-proc-info --stats --xstats shows the
                   port's counters (those testpmd shows); the test's
                   secondary (dpdk-ism-mp-tool info) reads the ISM
                   device's identity and counters and is refused every
                   change (-E_RTE_SECONDARY)
  api              every function of rte_ism.h called in a secondary
                   (dpdk-ism-mp-tool api; the list generated from the
                   header) on the ism_shm device of a testpmd primary:
                   each works read-only or returns the error rte_ism.h
                   documents (regression: the interrupt mode's functions
                   called a driver op a secondary does not have: SIGSEGV)
  fwd-detach forwarding|peer-gone
                   X, a dpdk-ism_fwd primary with hugepages, sends to Y
                   over ism_shm; a secondary asks X to remove its ISM
                   device (DPDK's hot-unplug) while traffic flows, or once
                   Y has quit: X says so, stops and exits 4 (no crash, a
                   bounded number of log lines), Y sees its peer go, and
                   the secondary no longer sees the device

The primaries that secondaries attach to need hugepages (tests/lib/
ism_huge.py: as root the test reserves and mounts them, and gives them
back); without them the test says why and exits 77. Our plugins are
loaded with LD_PRELOAD (dpdk-dumpcap takes no -d, and EAL refuses -d
paths below a world-writable directory). A secondary runs on lcores the
primary does not use (mempool caches are per lcore id, in shared memory),
and with the mempool drivers the primary links loaded first: a mempool
refers to its driver by its index in a table each process fills as its
libraries load, and Debian's dpdk-testpmd links librte_mempool_dpaa,
which dpdk-dumpcap does not (dumpcap's pool would be run by another
driver in testpmd; see doc/guides/nics/ism.rst, "Secondary processes").
Every phase is ordered by what the processes print; waits have deadlines
that only stop a hang. Exit status 0 pass, 1 fail, 77 skipped.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "net_ism"))
import ism_eal  # noqa: E402  (tests/lib)
import ism_huge  # noqa: E402
from ism_eal import check, run_all  # noqa: E402
from ism_pcap import (compare, mixed_packets, pcap_write,  # noqa: E402
                      pcapng_read)
import testpmd  # noqa: E402  (tests/net_ism)

GID_A, GID_B = "0xa1", "0xb2"
HUGE_MB = 512
BASE_VIRTADDR = "0x300000000000"
# Log lines of librte_ism, the raw PMD, net_ism and librte_ism_ring.
ISM_LOG = r"^(ISM|ISM_PMD|ISM_RAWDEV|NET_ISM|ISM_RING|ISM_SHM[A-Z_]*): "
# At most this many from a removal to the end (a few of the device, the
# ring and EAL; none per round of a loop).
DETACH_LOG_MAX = 20


class Env:
    def __init__(self, args, tmp, huge):
        self.build = os.path.abspath(args.build)
        self.tag = args.tag
        self.asan = args.asan
        self.testpmd = args.testpmd
        self.proc_info = args.proc_info
        self.dumpcap = args.dumpcap
        self.ism_fwd = args.ism_fwd
        self.mp_tool = args.mp_tool
        self.tmp = tmp
        self.huge = huge

    def plugin_args(self):
        return []

    def mempool_drivers(self):
        """The mempool drivers dpdk-testpmd links, in its load order."""
        out = subprocess.run(["ldd", self.testpmd], stdout=subprocess.PIPE,
                             text=True, check=True).stdout
        return re.findall(r"=> (\S*/librte_mempool_[a-z0-9_]+\.so\S*)",
                          out)

    def preload_env(self):
        libs = ([ism_eal.asan_preload()] if self.asan else []) + \
            self.mempool_drivers() + [
            os.path.join(self.build, "drivers", "raw", "ism",
                         "librte_raw_ism.so"),
            os.path.join(self.build, "drivers", "net", "ism",
                         "librte_net_ism.so")]
        return {"LD_PRELOAD": " ".join(libs)}

    def huge_eal(self, lcores, prefix, main=None):
        """EAL options of a primary that secondaries attach to. Its memory
        goes where a secondary can map it at the same addresses: above
        the shadow memory of AddressSanitizer (which ends at
        0x10007fff7fff on x86_64) and below its allocator (0x600000000000),
        far from where the libraries land."""
        args = ["--lcores", lcores, "--huge-dir", self.huge.dir, "-m",
                "256", "--no-pci", "--file-prefix", prefix,
                "--base-virtaddr", BASE_VIRTADDR]
        return args + (["--main-lcore", str(main)] if main is not None
                       else [])


class HugeTestpmd(testpmd.Testpmd):
    """dpdk-testpmd -i as a primary with hugepages and a shared
    configuration (testpmd.Testpmd's commands)."""

    def __init__(self, env, name, lcores, main, vdevs, args):
        self.mp_prefix = ism_eal.file_prefix(env.tag, "mp", name)
        cmd = [env.testpmd] + env.huge_eal(lcores, self.mp_prefix, main)
        for v in vdevs:
            cmd += ["--vdev", v]
        cmd += ["--", "-i", "--disable-link-check", "--no-flush-rx",
                "--total-num-mbufs=16384"] + args
        print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
        ism_eal.Process.__init__(self, cmd, name, testpmd.DEADLINE,
                                 prefix=self.mp_prefix,
                                 env=env.preload_env(), stdin=True,
                                 line_buffered=True)


def secondary(env, name, cmd, preload=True):
    """A secondary process of the primary whose file prefix cmd names: it
    never removes the runtime directory (the primary's). preload: a
    program of DPDK's, which gets our plugins with LD_PRELOAD (ours link
    them, and print to a pipe only what is read once they exit). Under
    ASan, leaks of DPDK's own at exit are suppressed (lsan.supp)."""
    print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
    penv = env.preload_env() if preload else {}
    if env.asan:
        penv["LSAN_OPTIONS"] = "suppressions=" + os.path.join(HERE,
                                                              "lsan.supp")
    return ism_eal.Process(cmd, name, testpmd.DEADLINE, env=penv,
                           line_buffered=preload)


def shm(fabric, gid):
    return "ism_shm0,dir=%s,gid=%s" % (fabric, gid)


def ism(peer):
    return "net_ism0,ism=ism_shm0,peer=%s" % peer


def fabric(env, name):
    d = os.path.join(env.tmp, name)
    os.mkdir(d)
    return d


def ism_lines(p, start):
    return [ln for ln in p.lines[start:] if re.search(ISM_LOG, ln)]


# ------------------------------------------------------------------ tools

def proc_info(env, procs, prefix, args):
    """dpdk-proc-info -- args, to its end; the Process."""
    pi = secondary(env, "proc-info", [
        env.proc_info, "--file-prefix", prefix, "--no-pci", "--"] + args)
    procs.append(pi)
    check(pi.wait(testpmd.WAIT) == 0, "proc-info: exit status %s"
          % pi.proc.returncode)
    return pi


def proc_info_counters(env, procs, prefix):
    """RX-packets of port 0 and its xstats, from dpdk-proc-info: --stats
    --xstats (which shows the stats only: proc-info takes one of them),
    then --xstats."""
    p = proc_info(env, procs, prefix, ["--stats", "--xstats"])
    i = p.wait_for(r"NIC statistics for port 0\b")
    rx = int(re.search(r"RX-packets:\s*(\d+)",
                       p.line(p.wait_for(r"RX-packets:", start=i))).group(1))
    p = proc_info(env, procs, prefix, ["--xstats"])
    i = p.wait_for(r"NIC extended statistics for port 0\b")
    xs = {}
    for ln in p.lines[i + 1:]:
        if "statistics for port" in ln:
            break
        m = re.match(r"^\s*([A-Za-z0-9_]+):\s+(\d+)\s*$", ln)
        if m:
            xs[m.group(1)] = int(m.group(2))
    return rx, xs


def window(sent, got, what):
    """got is len(got) consecutive packets of the endless repetition of
    sent (from wherever the capture began), byte for byte."""
    check(len(got) > 0, "%s: nothing" % what)
    starts = [k for k, p in enumerate(sent) if p == got[0]]
    check(len(starts) == 1, "%s: its first packet is %s of those sent"
          % (what, "none" if not starts else "several"))
    compare([sent[(starts[0] + i) % len(sent)] for i in range(len(got))],
            got, what)
    return starts[0]


def tools(env):
    packets = mixed_packets(300, 7, max_len=1500)
    src = os.path.join(env.tmp, "in.pcap")
    pcap_write(src, packets)
    junk = os.path.join(env.tmp, "junk.pcap")
    cap = os.path.join(env.tmp, "net_ism0.pcapng")
    fab = fabric(env, "fabric")
    # A: port 0 pcap in (its packets again and again), port 1 net_ism (no
    # hugepages: nothing attaches to A).
    a = testpmd.Testpmd(env, "A", "0,1", 0,
                        [shm(fab, GID_A),
                         "net_pcap0,rx_pcap=%s,tx_pcap=%s,infinite_rx=1"
                         % (src, junk), ism(GID_B)], ["--max-pkt-len=1518"])
    # B: port 0 net_ism, port 1 net_null (Debian's 22.11 net_pcap crashes
    # when a secondary process removes it at its end); forwarding on
    # lcore 2, so that the secondaries (lcore 0) share no mempool cache
    # with it.
    b = HugeTestpmd(env, "B", "1@0,2@1", 1,
                    [shm(fab, GID_B), ism(GID_A), "net_null0,no-rx=1"],
                    ["--max-pkt-len=1518"])
    procs = [a, b]

    def body():
        a.wait_link(1, "up")
        b.wait_link(0, "up")
        a.ask("set fwd io retry", r"Set io packet forwarding mode")
        a.send("set burst tx delay 10 retry 2000000")
        b.fwd_start()
        a.fwd_start()
        b.wait_counter(0, "RX-packets", lambda v: v >= 1000, ">= 1000")
        # dpdk-dumpcap on B's forwarding net_ism port: as many packets as
        # there are in the pcap, from wherever it begins.
        d = secondary(env, "dumpcap", [
            env.dumpcap, "--file-prefix=" + b.mp_prefix, "-i", "net_ism0",
            "-c", str(len(packets)), "-w", cap])
        procs.append(d)
        check(d.wait(testpmd.WAIT) == 0, "dumpcap: exit status %s"
              % d.proc.returncode)
        k = window(packets, pcapng_read(cap), "dumpcap's capture")
        print("dumpcap: %d packets of B's net_ism0, byte-identical to "
              "those sent, in order (from packet %d of the pcap on)"
              % (len(packets), k))
        a.fwd_stop()
        sent = a.port_stats(1)["TX-packets"]
        b.wait_counter(0, "RX-packets", lambda v: v >= sent, "%d" % sent)
        b.fwd_stop()
        rx = b.port_stats(0)["RX-packets"]
        check(rx == sent, "B received %d, A sent %d" % (rx, sent))
        # dpdk-proc-info: B's counters (it runs on lcore 0: -c1).
        prx, xs = proc_info_counters(env, procs, b.mp_prefix)
        print("proc-info: port 0 RX-packets %d, xstats rx_q0_packets %s "
              "link_up_count %s (testpmd: %d)"
              % (prx, xs.get("rx_q0_packets"), xs.get("link_up_count"), rx))
        check(prx == rx, "proc-info: RX-packets %d, testpmd says %d"
              % (prx, rx))
        check(xs.get("rx_q0_packets") == rx and
              xs.get("link_up_count") == 1 and "rx_q0_bursts" in xs,
              "proc-info: xstats %s" % xs)
        # The ISM device, through rte_ism_* in a secondary.
        t = secondary(env, "mp-tool", [
            env.mp_tool, "-l", "0", "--file-prefix", b.mp_prefix,
            "--no-pci", "--", "info"], preload=False)
        procs.append(t)
        check(t.wait(testpmd.WAIT) == 0, "mp-tool: exit status %s"
              % t.proc.returncode)
        t.wait_for(r"MP-TOOL: PASS info \(1 devices\)")
        line = t.line(t.wait_for(r"MP-TOOL: device \d+ ism_shm0 "))
        moves = int(re.search(r" moves (\d+)", line).group(1))
        check(moves > 0, "mp-tool: no moves of B's ism_shm0: %s" % line)
        a.quit()
        b.quit()
    run_all(procs, body)
    print("PASS dpdk-dumpcap and dpdk-proc-info on a testpmd primary's "
          "net_ism port, rte_ism_* in a secondary")


# ------------------------------------------------------------------ api

def api(env):
    fab = fabric(env, "fabric")
    b = HugeTestpmd(env, "B", "1@0,2@1", 1,
                    [shm(fab, GID_B), "net_null0,no-rx=1"], [])
    procs = [b]

    def body():
        # Answered once its devices are probed.
        b.ask("show port summary all", r"Number of available ports")
        t = secondary(env, "mp-tool", [
            env.mp_tool, "-l", "0", "--file-prefix", b.mp_prefix,
            "--no-pci", "--", "api"], preload=False)
        procs.append(t)
        rc = t.wait(testpmd.WAIT)
        check(rc == 0, "mp-tool api: exit status %s" % rc)
        line = t.line(t.wait_for(r"MP-TOOL: PASS api \((\d+) functions"))
        n = int(re.search(r"\((\d+) functions", line).group(1))
        check(n >= 30, "mp-tool api: only %d functions" % n)
        # The primary is unharmed: its device still answers.
        b.ask("show port summary all", r"Number of available ports")
        b.quit()
    run_all(procs, body)
    print("PASS every function of rte_ism.h in a secondary: read-only or "
          "the documented error")


# ------------------------------------------------------------- fwd-detach

def fwd_detach(env, order):
    fab = fabric(env, "fabric")
    prefix = ism_eal.file_prefix(env.tag, "mp", "X")
    cmd = [env.ism_fwd] + env.huge_eal("0", prefix) + [
        "--vdev", shm(fab, GID_A), "--", "--peer-gid", GID_B,
        "--fwd-mode", "txonly", "--stats-period", "0.2",
        "--on-peer-loss", "wait"]
    print("+ [X] %s" % " ".join(cmd), flush=True)
    x = ism_eal.Process(cmd, "X", testpmd.DEADLINE, prefix=prefix,
                        deadline_signal=signal.SIGINT)
    yp = ism_eal.file_prefix(env.tag, "mp", "Y")
    y = ism_eal.Process([env.ism_fwd] + ism_eal.eal_args(
        1, yp, vdevs=[shm(fab, GID_B)]) + [
        "--", "--peer-gid", GID_A, "--fwd-mode", "rxonly",
        "--stats-period", "0.2"], "Y", testpmd.DEADLINE, prefix=yp,
        deadline_signal=signal.SIGINT)
    procs = [x, y]

    def body():
        x.wait_for(r"ism_fwd: link up")
        y.wait_for(r"ism-rx [1-9][\d.]* Mpps|ism-rx 0\.[0-9]*[1-9]")
        if order == "peer-gone":
            y.interrupt()
            check(y.wait(testpmd.WAIT) == 0, "Y: exit status %s"
                  % y.proc.returncode)
            x.wait_for(r"peer left: it said goodbye")
        mark = x.count()
        # The removal runs in X (its interrupt thread) while its loop
        # runs: X's holder callback makes the loop let the device go.
        t = secondary(env, "mp-tool", [
            env.mp_tool, "-l", "1", "--file-prefix", prefix, "--no-pci",
            "--", "detach", "ism_shm0"], preload=False)
        procs.append(t)
        x.wait_for(r"ism_fwd: the ISM device is being removed: stopping",
                   start=mark)
        check(x.wait(testpmd.WAIT) == 4, "X: exit status %s, want 4"
              % x.proc.returncode)
        check(t.wait(testpmd.WAIT) == 0, "mp-tool: exit status %s"
              % t.proc.returncode)
        t.wait_for(r"MP-TOOL: detach ism_shm0: 0 ")
        if order == "forwarding":
            y.wait_for(r"ism_fwd: peer (left|lost)")
            y.interrupt()
            check(y.wait(testpmd.WAIT) == 0, "Y: exit status %s"
                  % y.proc.returncode)
        lines = ism_lines(x, mark)
        print("X: %d log lines of ISM from the removal on:\n  %s"
              % (len(lines), "\n  ".join(lines)))
        check(len(lines) <= DETACH_LOG_MAX, "X: %d log lines (at most %d)"
              % (len(lines), DETACH_LOG_MAX))
    run_all(procs, body)
    print("PASS the ISM device of dpdk-ism_fwd removed (%s): it stopped "
          "and exited 4, its peer saw it go" % order)


SCENARIOS = {"tools": tools, "api": api, "fwd-detach": fwd_detach}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("--asan", action="store_true")
    ap.add_argument("--testpmd", default="/usr/bin/dpdk-testpmd")
    ap.add_argument("--proc-info", default="/usr/bin/dpdk-proc-info")
    ap.add_argument("--dumpcap", default="/usr/bin/dpdk-dumpcap")
    ap.add_argument("--ism-fwd", default="")
    ap.add_argument("--mp-tool", required=True)
    ap.add_argument("scenario", choices=SCENARIOS)
    ap.add_argument("args", nargs="*")
    args = ap.parse_args()
    for tool in (args.testpmd, args.proc_info, args.dumpcap):
        if not os.access(tool, os.X_OK):
            print("SKIP: %s is not there (Debian's dpdk package)" % tool)
            return 77
    if args.scenario == "fwd-detach" and not args.ism_fwd:
        print("SKIP: dpdk-ism_fwd was not built (meson option examples)")
        return 77
    with tempfile.TemporaryDirectory(prefix="ism-mp-test.") as tmp:
        try:
            with ism_huge.Hugepages(HUGE_MB, tmp) as huge:
                return SCENARIOS[args.scenario](
                    Env(args, tmp, huge), *args.args) or 0
        except ism_huge.Skip as e:
            print("SKIP: %s" % e)
            return 77
        except ism_eal.Error as e:
            print("FAIL %s: %s" % (args.scenario, e))
            return 1


if __name__ == "__main__":
    sys.exit(main())
