#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The interrupt mode across processes (python3 standard library only):
a receiver armed and asleep wakes on a move with signal, and when its peer
goes away.

    intr_test.py --peer BIN --tag TAG lo|shm|ivshm

Two dpdk-ism-intr-peer processes (shm: one rendezvous directory; ivshm:
one region file), rx and tx; lo: one process with two loopback devices,
rx on the main thread and tx on a worker lcore (a loopback peer is in the
same process by definition). Phases, each ordered by a line of a process:

1. rx sent tx its token, tx has it; rx prints "ARMED tid=T" and sleeps in
   epoll_wait(): over a second its thread T uses almost no CPU and is
   asleep in epoll_wait in every sample (/proc, tests/lib/ism_sleep.py);
2. tx moves 8 bytes with a signal: rx wakes ("WOKE signal ... data=ok"),
   polls and sleeps again ("ARMED");
3. tx is killed (SIGKILL; lo: its device removed): rx wakes with the
   event RTE_ISM_DEV_DISABLED and exits 0.

Waits have deadlines that only stop a hang; no figure of speed is judged
(the wake-up times are printed for information). Exit status 0 pass, 1
fail.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import ism_eal  # noqa: E402
from ism_eal import check, run_all  # noqa: E402
import ism_sleep  # noqa: E402

GID_RX, GID_TX = "0x1a1", "0x1a2"
DEADLINE = 120      # seconds a process may live; only stops a hang
WAIT = 60           # seconds to wait for a line; only stops a hang


def start(args, name, lcores, vdevs, role, peer=None):
    prefix = ism_eal.file_prefix(args.tag, "intr", args.backend, name)
    cmd = [args.peer] + ism_eal.eal_args(lcores, prefix, mem_mb=256,
                                         vdevs=vdevs) + ["--", "--role",
                                                         role]
    if peer:
        cmd += ["--peer", peer]
    print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
    return ism_eal.Process(cmd, name, DEADLINE, prefix=prefix, stdin=True,
                           echo=True)


def asleep(rx, mark, what):
    """rx's thread, once it says ARMED after line mark, is asleep."""
    i = rx.wait_for(r"^ARMED tid=\d+", WAIT, start=mark)
    tid = int(rx.line(i).split("=")[1])
    m = ism_sleep.measure(rx.pid, tid)
    print("rx armed, %s: %s" % (what, ism_sleep.describe(m)), flush=True)
    ism_sleep.check_asleep(m, "the armed receiver (%s)" % what)
    return i


def scenario(args, tmp):
    lo = args.backend == "lo"
    if lo:
        rx = start(args, "rx", "0,1", ["ism_lo0,gid=%s" % GID_RX,
                                       "ism_lo1,gid=%s" % GID_TX], "pair")
        tx = rx
    elif args.backend == "shm":
        fab = os.path.join(tmp, "fabric")
        os.mkdir(fab, 0o700)
        vdev = "ism_shm0,dir=%s,gid=%%s" % fab
        rx = start(args, "rx", 0, [vdev % GID_RX], "rx", GID_TX)
        tx = start(args, "tx", 1, [vdev % GID_TX], "tx", GID_RX)
    else:
        # A liveness timeout a loaded machine's control threads meet.
        vdev = ("ism_ivshm0,path=%s,size=%d,gid=%%s,liveness_ms=1000"
                % (os.path.join(tmp, "region"), 64 << 20))
        rx = start(args, "rx", 0, [vdev % GID_RX], "rx", GID_TX)
        tx = start(args, "tx", 1, [vdev % GID_TX], "tx", GID_RX)
    procs = [rx] if lo else [rx, tx]

    def body():
        rx.wait_for(r"^TOKEN SENT", WAIT)
        tx.wait_for(r"^TOKEN 0x", WAIT)
        i = asleep(rx, 0, "waiting for a signal")
        t0 = ism_eal.now_ns()
        tx.send("move")
        j = rx.wait_for(r"^WOKE signal idx=\d+ data=ok", WAIT, start=i)
        print("rx woke %.3f ms after the move was asked for "
              "(information)" % ((rx.stamp(j) - t0) / 1e6), flush=True)
        asleep(rx, j, "waiting for its peer to go")
        t0 = ism_eal.now_ns()
        if lo:
            tx.send("kill")
        else:
            tx.kill()
        k = rx.wait_for(r"^WOKE event type=1 code=0x7 gone", WAIT,
                        start=j)
        print("rx woke %.3f ms after its peer was %s (information)"
              % ((rx.stamp(k) - t0) / 1e6, "removed" if lo else "killed"),
              flush=True)
        rx.wait_for(r"^DONE", WAIT, start=k)
        check(rx.wait(WAIT) == 0, "rx: exit status %s" % rx.proc.returncode)
    run_all(procs, body)
    print("PASS %s: an armed receiver asleep in epoll_wait woke on a move "
          "with signal and when its peer went away" % args.backend)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("backend", choices=["lo", "shm", "ivshm"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="intr-test.") as tmp:
        try:
            return scenario(args, tmp)
        except ism_eal.Error as e:
            print("FAIL %s: %s" % (args.backend, e))
            return 1


if __name__ == "__main__":
    sys.exit(main())
