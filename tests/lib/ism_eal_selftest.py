#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""ism_eal.py run, stopped by a signal as meson's timeout and timeout(1)
stop it: it must end soon with 128 + the signal (or 0 when its program
had ended first) and its program must be gone, whatever it was doing when
the signal came (waiting for the program, or cleaning up after a program
that was just exiting). Its handler used to clean up inside the handler,
which can wait for ever on a lock the interrupted code holds. The fake
program is no EAL program: the removal of EAL's runtime directories is
not checked here.

    ism_eal_selftest.py <rounds>
"""

import os
import random
import signal
import subprocess
import sys
import tempfile
import time

import ism_eal

HERE = os.path.dirname(os.path.abspath(__file__))
ISM_EAL = os.path.join(HERE, "ism_eal.py")
END_S = 15


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def one(tmp, i, life_s, delay_s):
    """A fake EAL program that lives life_s, SIGTERM to the wrapper
    delay_s after its first line: the wrapper's status."""
    marker = os.path.join(tmp, "prog-%d" % i)
    with open(marker, "w") as f:
        f.write("#!/bin/sh\necho started\nexec sleep %s\n" % life_s)
    os.chmod(marker, 0o755)
    w = subprocess.Popen([sys.executable, ISM_EAL, "run", "--quiet",
                          "--tag", "selftest", "--name", "sig-%d" % i,
                          "--timeout", "60", "--", marker],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    first = w.stdout.readline()
    if "started" not in first:
        w.kill()
        fail("round %d: the program did not start: %r" % (i, first))
    time.sleep(delay_s)
    w.send_signal(signal.SIGTERM)
    try:
        out, _ = w.communicate(timeout=END_S)
    except subprocess.TimeoutExpired:
        w.kill()
        w.communicate()
        fail("round %d: ism_eal.py run did not end within %d s of "
             "SIGTERM (life %s s, signal after %.3f s)" %
             (i, END_S, life_s, delay_s))
    left = ism_eal.pids_with(marker)
    if left:
        fail("round %d: its program is still running: %s" % (i, left))
    return w.returncode, out


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rng = random.Random(int(os.environ.get("ISM_SELFTEST_SEED", "1")))
    with tempfile.TemporaryDirectory(prefix="ism-eal-selftest.") as tmp:
        # Plain: the program runs on; the status is SIGTERM's.
        rc, out = one(tmp, 0, 60, 0.2)
        if rc != 128 + signal.SIGTERM:
            fail("stopped wrapper: status %d, expected %d\n%s" %
                 (rc, 128 + signal.SIGTERM, out))
        # Races: the program exits about when the signal comes, so the
        # signal lands in the wait, in the clean-up or after it.
        for i in range(1, rounds):
            life = rng.choice([0.05, 0.1, 0.2])
            rc, out = one(tmp, i, life, rng.uniform(0, 0.25))
            if rc not in (0, 128 + signal.SIGTERM):
                fail("round %d: status %d\n%s" % (i, rc, out))
    print("ok: %d rounds, each ended within %d s of SIGTERM, nothing "
          "left running" % (rounds, END_S))
    return 0


if __name__ == "__main__":
    sys.exit(main())
