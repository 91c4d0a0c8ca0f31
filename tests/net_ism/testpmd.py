# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Debian's dpdk-testpmd in interactive mode, driven through its stdin, for
the net_ism tests (python3 standard library only). The process itself is
an ism_eal.Process (tests/lib/ism_eal.py): under a deadline that only stops
a hang, in a session of its own, its own --file-prefix and no hugepages,
stdout line-buffered, its EAL runtime directory removed once it is gone.
"""

import re
import time

import ism_eal
from ism_eal import check

DEADLINE = 120      # seconds a process may live; only stops a hang
WAIT = 60           # seconds to wait for an expected line; only stops a hang


class Testpmd(ism_eal.Process):
    """dpdk-testpmd -i, our plugins loaded with -d (env: the harness's
    settings: tag, testpmd, plugin_args(), preload_env())."""

    def __init__(self, env, name, cores, main_lcore, vdevs, args,
                 deadline=DEADLINE):
        prefix = ism_eal.file_prefix(env.tag, "net-ism", name)
        cmd = [env.testpmd] + ism_eal.eal_args(
            cores, prefix, vdevs=vdevs,
            extra=["--main-lcore", str(main_lcore)] + env.plugin_args())
        # No flush of the rx queues at start: it would drop the packets
        # a pcap port has ready (all of them).
        cmd += ["--", "-i", "--disable-link-check", "--no-flush-rx",
                "--total-num-mbufs=16384"] + args
        print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
        super().__init__(cmd, name, deadline, prefix=prefix,
                         env=env.preload_env(), stdin=True,
                         line_buffered=True)

    def ask(self, text, expect, timeout=WAIT):
        """Send a command, return the index of the line matching expect
        in its answer."""
        return self.wait_for(expect, timeout, start=self.send(text))

    def port_stats(self, port):
        """show port stats: {RX-packets: n, ...} of that port."""
        i = self.ask("show port stats %d" % port,
                     r"NIC statistics for port %d " % port)
        end = self.wait_for(r"^\s*#{20,}\s*$", WAIT, start=i + 1)
        st = {}
        for k in range(i + 1, end):
            for key, val in re.findall(r"([A-Za-z-]+):\s+(\d+)",
                                       self.line(k)):
                st[key] = int(val)
        return st

    def link(self, port):
        i = self.ask("show port info %d" % port, r"Link status: (up|down)")
        return re.search(r"Link status: (up|down)", self.line(i)).group(1)

    def wait_link(self, port, state, timeout=WAIT):
        end = time.monotonic() + timeout
        while self.link(port) != state:
            check(time.monotonic() < end, "%s: port %d link not %s"
                  % (self.name, port, state))
            time.sleep(0.05)

    def wait_counter(self, port, key, cond, what, timeout=WAIT):
        """Poll port stats until cond(value); the value."""
        end = time.monotonic() + timeout
        while True:
            v = self.port_stats(port)[key]
            if cond(v):
                return v
            check(time.monotonic() < end, "%s: port %d %s %d, want %s"
                  % (self.name, port, key, v, what))
            time.sleep(0.05)

    # Not start()/stop(): ism_eal.Process.stop() is SIGSTOP.
    def fwd_start(self):
        self.ask("start", r"packet forwarding.* - ports=")

    def fwd_stop(self):
        self.ask("stop", r"^Done\.|Packet forwarding not started")

    def quit(self, timeout=WAIT):
        self.send("quit")
        rc = self.wait(timeout)
        check(rc == 0, "%s: exit status %s" % (self.name, rc))
