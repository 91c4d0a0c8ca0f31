# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Is a thread asleep? (python3 standard library only.)

For the tests of the interrupt mode: a thread that waits for a wake-up
must not spin. Measured on the thread itself, from /proc, never by wall
clock alone:

- its CPU time (the first field of /proc/PID/task/TID/schedstat, in ns;
  the time it waited on a run queue is the second), over a window;
- where it is, sampled through the window: its state (S: sleeping) and
  the kernel function it waits in (wchan: do_epoll_wait, ep_poll);
- its voluntary context switches (each sleep is one).

A spinning thread is never in S and uses all the CPU the machine gives
it; a sleeping one is in S nearly always and uses almost none, however
loaded the machine is (it may wait on a run queue once woken, which is
not CPU time).
"""

import os
import time

from ism_eal import check


def _read(path):
    with open(path) as f:
        return f.read()


def sample(pid, tid):
    """One look at thread tid of process pid."""
    base = "/proc/%d/task/%d/" % (pid, tid)
    run_ns, wait_ns = (int(x) for x in _read(base + "schedstat").split()[:2])
    stat = _read(base + "stat")
    state = stat[stat.rindex(")") + 2]
    vol = 0
    for line in _read(base + "status").splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            vol = int(line.split()[1])
    try:
        wchan = _read(base + "wchan").strip()
    except OSError:
        wchan = "?"
    return {"run_ns": run_ns, "wait_ns": wait_ns, "state": state,
            "vol": vol, "wchan": wchan}


def thread_ids(pid):
    return sorted(int(t) for t in os.listdir("/proc/%d/task" % pid))


def measure(pid, tid, seconds=1.0, samples=20):
    """CPU time and whereabouts of a thread over a window of seconds."""
    first = sample(pid, tid)
    t0 = time.monotonic_ns()
    where = []
    for _ in range(samples):
        time.sleep(seconds / samples)
        s = sample(pid, tid)
        where.append((s["state"], s["wchan"]))
    last = sample(pid, tid)
    window = time.monotonic_ns() - t0
    in_epoll = sum(1 for st, wc in where
                   if st == "S" and ("epoll" in wc or wc == "ep_poll"))
    return {"window_ns": window,
            "cpu_ns": last["run_ns"] - first["run_ns"],
            "queued_ns": last["wait_ns"] - first["wait_ns"],
            "sleeps": last["vol"] - first["vol"],
            "samples": samples, "in_epoll": in_epoll, "where": where}


def describe(m):
    return ("CPU %.1f ms in %.0f ms, %d of %d samples asleep in epoll_wait,"
            " %d voluntary switches (%.1f ms waiting for a CPU once woken)"
            % (m["cpu_ns"] / 1e6, m["window_ns"] / 1e6, m["in_epoll"],
               m["samples"], m["sleeps"], m["queued_ns"] / 1e6))


def check_asleep(m, what, cpu_share=0.05, epoll_share=1.0):
    """Error unless the thread used at most cpu_share of the window's time
    and was asleep in epoll_wait in at least epoll_share of the samples."""
    check(m["cpu_ns"] <= cpu_share * m["window_ns"] and
          m["in_epoll"] >= epoll_share * m["samples"],
          "%s does not sleep: %s; samples %s" % (what, describe(m),
                                                 m["where"]))
