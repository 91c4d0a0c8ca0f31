#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Instructions per packet of net_ism against net_memif, counted with
callgrind: deterministic whatever else runs on the machine, so it is what
to optimise with while others share it.

    devtools/callgrind_testpmd.py [--build DIR] [--sizes 64,1500]
        [--modes copy,zc] [--pmds ism,memif] [--secs 20] [--top 12]

Each case is one dpdk-testpmd under valgrind --tool=callgrind: two ports
of the PMD connected to each other in the same process (net_ism over two
ism_lo devices, whose data path is the one of ism_shm but for the token
lookup; net_memif server and client on one socket), io forwarding on one
lcore with --tx-first, so every forwarded packet costs one receive and one
transmit. valgrind cannot run ism_shm between processes (its watchdog is a
clone(CLONE_VM) valgrind refuses), hence one process. The forwarding
lcore's instructions are divided by the packets it received. Zero copy:
net_ism zero-copy=yes on both ports; memif zero-copy=yes on the client
(the server always copies), with --single-file-segments.

Prints per case: instructions per packet, and where they go: the self
instructions per packet of each shared object, and of the heaviest
functions (Debian's DPDK is stripped: its functions show as addresses).
"""

import argparse
import collections
import os
import re
import shutil
import signal
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import ism_eal  # noqa: E402  (tests/lib)


def parse_callgrind(path):
    """Self Ir per (object, function), and inclusive Ir per function."""
    names = {"ob": {}, "fl": {}, "fn": {}}
    space = {"ob": "ob", "cob": "ob", "fl": "fl", "fi": "fl", "fe": "fl",
             "cfi": "fl", "cfl": "fl", "fn": "fn", "cfn": "fn"}
    self_ir = collections.Counter()
    incl = collections.Counter()
    ob = fn = "?"
    in_call = False
    rx = re.compile(r"^(\w+)=(?:\((\d+)\))?\s*(.*)$")
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                ir = int(parts[1]) if len(parts) > 1 else 0
                if in_call:
                    incl[(ob, fn)] += ir
                    in_call = False
                else:
                    self_ir[(ob, fn)] += ir
                    incl[(ob, fn)] += ir
                continue
            if line.startswith("calls="):
                in_call = True
                continue
            m = rx.match(line)
            if not m or m.group(1) not in space:
                continue
            key, num, name = m.groups()
            table = names[space[key]]
            if num is not None:
                if name:
                    table[num] = name
                name = table.get(num, name)
            if key == "ob":
                ob = os.path.basename(name)
            elif key == "fn":
                fn = name
    return self_ir, incl


def run_case(args, pmd, mode, size, tmp):
    tag = "%s-%s-%d" % (pmd, mode, size)
    out = os.path.join(tmp, "cg-%s.out" % tag)
    prefix = ism_eal.file_prefix("cg", tag)
    eal = ism_eal.eal_args("0,1", prefix)
    env = {}
    if pmd == "ism":
        zc = ",zero-copy=yes" if mode == "zc" else ""
        b = args.build
        plug, env = ism_eal.plugin_load([
            os.path.join(b, "drivers/raw/ism/librte_raw_ism.so"),
            os.path.join(b, "drivers/net/ism/librte_net_ism.so")])
        eal += plug + [
                "--vdev", "ism_lo0,gid=0xa", "--vdev", "ism_lo1,gid=0xb",
                "--vdev", "net_ism0,ism=ism_lo0,peer=0xb" + zc,
                "--vdev", "net_ism1,ism=ism_lo1,peer=0xa" + zc]
    else:
        sock = os.path.join(tmp, "memif-%s.sock" % tag)
        zc = ",zero-copy=yes" if mode == "zc" else ""
        if zc:
            eal.append("--single-file-segments")
        eal += ["--vdev", "net_memif0,role=server,id=0,socket=%s,"
                "socket-abstract=no" % sock,
                "--vdev", "net_memif1,role=client,id=0,socket=%s,"
                "socket-abstract=no%s" % (sock, zc)]
    cmd = ["valgrind", "--tool=callgrind", "--separate-threads=yes",
           "--callgrind-out-file=" + out, args.testpmd] + eal + [
           "--", "--forward-mode=io", "--tx-first", "--stats-period", "5",
           "--total-num-mbufs=16384", "--txpkts=%d" % size]
    print("+ " + " ".join(cmd), flush=True)
    # SIGINT goes to valgrind itself (Process.signal), not to timeout(1),
    # which would arm its kill-after timer and cut valgrind's exit (and
    # its output) short.
    p = ism_eal.Process(cmd, tag, 120 + args.secs + 600, prefix=prefix,
                        env=env)
    # Forwarding starts once both links are up; then count for secs.
    try:
        p.wait_for(r"packet forwarding.* - ports=", 120)
    except ism_eal.Error:
        pass
    time.sleep(args.secs)
    p.signal(signal.SIGINT)
    t0 = time.monotonic()
    try:
        p.wait(600)
    except ism_eal.Error:
        pass
    p.cleanup()
    print("   (%s: exit took %.0f s under valgrind)" % (tag, time.monotonic() - t0),
          flush=True)
    text = "\n".join(p.lines)
    log = os.path.join(tmp, "cg-%s.log" % tag)
    with open(log, "w") as f:
        f.write(text + "\n")
    m = re.findall(r"Accumulated forward statistics.*?\n\s*RX-packets:\s+(\d+)",
                   text, re.S)
    if not m:
        print("%s: no forward statistics; see %s" % (tag, log))
        return None
    pkts = int(m[-1])
    # The forwarding lcore: the thread with the most instructions besides
    # the main one (thread 1 runs EAL init and the stats loop).
    best = None
    for f in os.listdir(tmp):
        if f.startswith(os.path.basename(out) + "-") and \
                not f.endswith("-01"):
            s, i = parse_callgrind(os.path.join(tmp, f))
            total = sum(s.values())
            if best is None or total > best[0]:
                best = (total, s, i)
    return pkts, best


def report(tag, pkts, best, top):
    total, self_ir, incl = best
    print("\n== %s: %.1f instructions per forwarded packet (%d packets, "
          "%d instructions on the forwarding lcore)"
          % (tag, total / pkts, pkts, total))
    by_ob = collections.Counter()
    for (ob, _), ir in self_ir.items():
        by_ob[ob] += ir
    print("   self instructions per packet, by object:")
    for ob, ir in by_ob.most_common(top):
        print("   %8.1f  %s" % (ir / pkts, ob))
    print("   heaviest functions (self, inclusive per packet):")
    for (ob, fn), ir in self_ir.most_common(top):
        print("   %8.1f %8.1f  %s [%s]" % (ir / pkts, incl[(ob, fn)] / pkts,
                                          fn, ob))
    sys.stdout.flush()
    return total / pkts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--testpmd", default="/usr/bin/dpdk-testpmd")
    ap.add_argument("--sizes", default="64,1500")
    ap.add_argument("--modes", default="copy,zc")
    ap.add_argument("--pmds", default="ism,memif")
    ap.add_argument("--secs", type=int, default=20,
                    help="seconds of forwarding under valgrind per case")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--keep", help="keep the callgrind files in this dir")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (devtools/setup.sh installs it)")
        return 77
    args.build = os.path.abspath(args.build)
    results, missing = {}, []
    with tempfile.TemporaryDirectory(prefix="cg-testpmd.") as tmp:
        for size in [int(s) for s in args.sizes.split(",")]:
            for mode in args.modes.split(","):
                for pmd in args.pmds.split(","):
                    r = run_case(args, pmd, mode, size, tmp)
                    tag = "%s %s %dB" % (pmd, mode, size)
                    if r is None:
                        missing.append(tag)
                        continue
                    if r[1] is None or r[0] == 0:
                        print("%s: %s; see the log in --keep" % (tag,
                              "no callgrind output" if r[1] is None else
                              "no packet forwarded"), flush=True)
                        missing.append(tag)
                        continue
                    results[(pmd, mode, size)] = report(tag, r[0], r[1],
                                                        args.top)
        if args.keep:
            shutil.copytree(tmp, args.keep, dirs_exist_ok=True)
    print("\nRESULT instructions per forwarded packet (receive + transmit "
          "+ testpmd io), callgrind:")
    for (pmd, mode, size), v in sorted(results.items()):
        other = results.get(("memif", mode, size))
        ratio = " memif/ism %.2f" % (other / v) \
            if pmd == "ism" and other else ""
        print("  %-5s %-4s %5dB %8.1f%s" % (pmd, mode, size, v, ratio))
    # A case that measured nothing fails the tool: no figure is not a
    # figure.
    for tag in missing:
        print("callgrind_testpmd: FAILED: %s measured nothing" % tag)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
