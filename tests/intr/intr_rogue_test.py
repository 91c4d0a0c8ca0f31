#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The interrupt mode of shm against a peer that abuses the descriptors it
was given (python3 standard library only):

    intr_rogue_test.py --peer BIN --rogue BIN --tag TAG SCENARIO

One rendezvous directory; dpdk-ism-intr-rogue (the rogue, tests/intr/
intr_rogue.c) joins first, then dpdk-ism-intr-peer processes (rx: an armed
receiver, tx: a writer). Phases are ordered by the lines they print. A
wait on what the victim must do is bounded (WAIT_ATTACK s): a victim
asleep for good in a system call fails there, nothing else is timed.

datapath  the rogue gives tx a DMB, arms its wake-up, and makes what it
          sent tx for it block (an eventfd: O_NONBLOCK cleared, counter
          full); tx's signalled move to the rogue must return, and tx then
          streams with an honest rx that joins.
leaves    as datapath, but the rogue is killed right after tx was asked to
          move: tx's control thread must see it go and greet an honest rx
          that joins (their exchange as above).
control   rx arms and never reads its descriptor (--idle); the rogue
          poisons every fd of its peers (eventfds: made blocking and full);
          tx is killed: rx's control thread must post the events of its
          departure (rx sees RTE_ISM_DEV_DISABLED).
disable   rx asleep in epoll_wait(); the rogue poisons every fd of its
          peers (a blocking eventfd woken: the reader that empties it
          sleeps in read(2)); rx must disarm, sleep again and wake on tx's
          next signalled move.
steal     rx asleep in epoll_wait() without a timeout; the rogue reads
          every fd of its peers without end; tx moves with a signal
          ROUNDS times, waiting each time for rx to wake with it and
          sleep again: a stolen wake-up leaves rx asleep for good.

Exit status 0 pass, 1 fail.
"""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import ism_eal  # noqa: E402
from ism_eal import run_all  # noqa: E402

GID_RX, GID_TX, GID_ROGUE = "0x1b1", "0x1b2", "0x1b3"
DEADLINE = 150      # seconds a process may live; only stops a hang
WAIT = 60           # seconds to wait for a set-up line; only stops a hang
WAIT_ATTACK = 30    # seconds for the victim to do what it must: a hang
ROUNDS = 20


def start(args, tmp, name, lcore, gid, cmd_args, rogue=False):
    prefix = ism_eal.file_prefix(args.tag, "intr-rogue", args.scenario,
                                 name)
    vdev = "ism_shm0,dir=%s,gid=%s" % (os.path.join(tmp, "fabric"), gid)
    cmd = ([args.rogue if rogue else args.peer] +
           ism_eal.eal_args(lcore, prefix, mem_mb=256, vdevs=[vdev]) +
           ["--"] + cmd_args)
    print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
    return ism_eal.Process(cmd, name, DEADLINE, prefix=prefix, stdin=True,
                           echo=True)


def ask(p, line, answer, timeout=WAIT):
    """line to p's stdin, then p's answer: its index."""
    return p.wait_for(answer, timeout, start=p.send(line))


def exchange(rx, tx):
    """tx takes rx's token and moves with a signal: rx wakes with it."""
    rx.wait_for(r"^TOKEN SENT", WAIT_ATTACK)
    ask(tx, "token", r"^TOKEN 0x", WAIT_ATTACK)
    mark = rx.count()
    ask(tx, "move", r"^MOVED")
    rx.wait_for(r"^WOKE signal idx=\d+ data=ok", WAIT_ATTACK, start=mark)


def datapath(args, tmp, procs, leave):
    rogue = start(args, tmp, "rogue", 1, GID_ROGUE, ["--peer", GID_TX],
                  rogue=True)
    procs.append(rogue)
    rogue.wait_for(r"^READY", WAIT)
    tx = start(args, tmp, "tx", 0, GID_TX, ["--role", "tx", "--peer",
                                            GID_ROGUE])
    procs.append(tx)
    ask(rogue, "token", r"^TOKEN SENT")
    tx.wait_for(r"^TOKEN 0x", WAIT)
    ask(rogue, "arm", r"^ARMED")
    ask(rogue, "poison-own", r"^POISONED own")
    mark = tx.send("move")
    if leave:
        rogue.kill()
        rogue.wait(WAIT)
    else:
        tx.wait_for(r"^MOVED", WAIT_ATTACK, start=mark)
    rx = start(args, tmp, "rx", 1, GID_RX, ["--role", "rx", "--peer",
                                            GID_TX])
    procs.append(rx)
    exchange(rx, tx)


def victim_pair(args, tmp, procs, rx_opts):
    """The rogue, then rx (armed) and tx with their tokens exchanged and
    the rogue holding what both sent it."""
    rogue = start(args, tmp, "rogue", 1, GID_ROGUE, [], rogue=True)
    procs.append(rogue)
    rogue.wait_for(r"^READY", WAIT)
    rx = start(args, tmp, "rx", 0, GID_RX, ["--role", "rx", "--peer",
                                            GID_TX] + rx_opts)
    tx = start(args, tmp, "tx", 1, GID_TX, ["--role", "tx", "--peer",
                                            GID_RX])
    procs += [rx, tx]
    rx.wait_for(r"^TOKEN SENT", WAIT)
    tx.wait_for(r"^TOKEN 0x", WAIT)
    ask(rogue, "peers 2", r"^PEERS 2")
    rx.wait_for(r"^ARMED", WAIT)
    return rogue, rx, tx


def control(args, tmp, procs):
    rogue, rx, tx = victim_pair(args, tmp, procs, ["--idle"])
    ask(rogue, "poison", r"^POISONED")
    tx.kill()
    rx.wait_for(r"^WOKE event type=1 code=0x7 gone", WAIT_ATTACK)
    rx.wait_for(r"^DONE", WAIT)


def disable(args, tmp, procs):
    rogue, rx, tx = victim_pair(args, tmp, procs, [])
    ask(rogue, "poison", r"^POISONED")
    for _ in range(3):
        mark = rx.count()
        ask(tx, "move", r"^MOVED")
        j = rx.wait_for(r"^WOKE signal idx=\d+ data=ok", WAIT_ATTACK,
                        start=mark)
        rx.wait_for(r"^ARMED", WAIT_ATTACK, start=j)


def steal(args, tmp, procs):
    rogue, rx, tx = victim_pair(args, tmp, procs, ["--no-timeout"])
    ask(rogue, "steal", r"^STEALING")
    for _ in range(ROUNDS):
        mark = rx.count()
        ask(tx, "move", r"^MOVED")
        j = rx.wait_for(r"^WOKE signal idx=\d+ data=ok", WAIT_ATTACK,
                        start=mark)
        rx.wait_for(r"^ARMED", WAIT_ATTACK, start=j)


SCENARIOS = {
    "datapath": lambda a, t, p: datapath(a, t, p, False),
    "leaves": lambda a, t, p: datapath(a, t, p, True),
    "control": control,
    "disable": disable,
    "steal": steal,
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--peer", required=True)
    ap.add_argument("--rogue", required=True)
    ap.add_argument("--tag", required=True)
    ap.add_argument("scenario", choices=sorted(SCENARIOS))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="intr-rogue.") as tmp:
        os.mkdir(os.path.join(tmp, "fabric"), 0o700)
        procs = []
        try:
            run_all(procs, lambda: SCENARIOS[args.scenario](args, tmp,
                                                            procs))
        except ism_eal.Error as e:
            print("FAIL %s: %s" % (args.scenario, e))
            return 1
    print("PASS %s" % args.scenario)
    return 0


if __name__ == "__main__":
    sys.exit(main())
