# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""DPDK processes for the net_ism tests (python3 standard library only):
dpdk-testpmd driven interactively through its stdin, any other DPDK
program with its output collected, and pcap files.

Every process runs under `timeout` (a deadline that only stops a hang), in
its own session (killed as a group, by pid), with stdout line-buffered
(stdbuf), its own --file-prefix and no hugepages. The EAL runtime
directory a killed process leaves behind is removed.
"""

import os
import random
import re
import shutil
import signal
import struct
import subprocess
import threading
import time

DEADLINE = 120      # seconds a process may live; only stops a hang
WAIT = 60           # seconds to wait for an expected line; only stops a hang

PCAP_MAGIC_US = 0xA1B2C3D4
PCAP_MAGIC_NS = 0xA1B23C4D


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def eal_runtime_dir(prefix):
    """Where EAL keeps the runtime files of --file-prefix prefix."""
    if os.getuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def asan_preload():
    """LD_PRELOAD for an uninstrumented program (Debian's testpmd) that
    loads plugins built with ASan/UBSan: the runtimes must come first."""
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run(["cc", "-print-file-name=" + name],
                              stdout=subprocess.PIPE, text=True).stdout
        libs.append(os.path.realpath(path.strip()))
    return " ".join(libs)


class Proc:
    """A DPDK program; its output is collected line by line with the
    CLOCK_MONOTONIC time each line arrived."""

    def __init__(self, name, argv, prefix, deadline=DEADLINE, env=None):
        self.name = name
        self.prefix = prefix
        self.lines = []
        self.lock = threading.Lock()
        cmd = ["timeout", "-k", "5", str(deadline), "stdbuf", "-oL"] + argv
        print("+ [%s] %s" % (name, " ".join(cmd)), flush=True)
        full_env = dict(os.environ)
        full_env.update(env or {})
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True, env=full_env)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        buf = b""
        while True:
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                break
            buf += data
            *done, buf = buf.split(b"\n")
            now = time.monotonic_ns()
            with self.lock:
                for line in done:
                    self.lines.append((now, line.decode(errors="replace")))
        if buf:
            with self.lock:
                self.lines.append((time.monotonic_ns(),
                                   buf.decode(errors="replace")))

    def count(self):
        with self.lock:
            return len(self.lines)

    def line(self, i):
        with self.lock:
            return self.lines[i][1]

    def stamp(self, i):
        with self.lock:
            return self.lines[i][0]

    def alive(self):
        return self.proc.poll() is None

    def wait_for(self, pattern, start=0, timeout=WAIT):
        """Index of the first line from `start` matching pattern."""
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while True:
            with self.lock:
                for i in range(start, len(self.lines)):
                    if rx.search(self.lines[i][1]):
                        return i
            if not self.alive() and not self.reader.is_alive():
                break
            if time.monotonic() > end:
                break
            time.sleep(0.01)
        raise Fail("%s: no line matching %r (exit status %s)"
                   % (self.name, pattern, self.proc.poll()))

    def send(self, text):
        """Write a line to its stdin; the line count before, to look for
        the answer after it."""
        mark = self.count()
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()
        return mark

    def signal(self, sig):
        """SIGKILL to the group; another signal to the program only: sent
        to `timeout` it would also arm its kill-after timer."""
        if not self.alive():
            return
        if sig == signal.SIGKILL:
            os.killpg(self.proc.pid, sig)
            return
        try:
            with open("/proc/%d/task/%d/children" % (self.proc.pid,
                                                      self.proc.pid)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        for k in kids or [self.proc.pid]:
            try:
                os.kill(k, sig)
            except ProcessLookupError:
                pass

    def wait(self, timeout=WAIT):
        """Exit status; on a hang, kill it and fail."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.signal(signal.SIGKILL)
            self.proc.wait()
            self.reap()
            raise Fail("%s did not exit" % self.name)
        self.reap()
        return rc

    def reap(self):
        self.reader.join(5)
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        shutil.rmtree(eal_runtime_dir(self.prefix), ignore_errors=True)

    def kill9(self):
        """SIGKILL the whole group: the timeout wrapper and the program."""
        self.signal(signal.SIGKILL)
        self.proc.wait()
        self.reap()

    def dump(self):
        with self.lock:
            for _, line in self.lines:
                print("  %s| %s" % (self.name, line))


class Testpmd(Proc):
    """dpdk-testpmd in interactive mode (-i), our plugins loaded with -d."""

    def __init__(self, env, name, cores, main_lcore, vdevs, args,
                 deadline=DEADLINE):
        prefix = "net-ism-%s-%s-%d" % (env.tag, name, os.getpid())
        argv = [env.testpmd, "-l", cores, "--main-lcore", str(main_lcore),
                "--no-huge", "-m", "512", "--no-pci", "--no-shconf",
                "--file-prefix", prefix] + env.plugin_args()
        for v in vdevs:
            argv += ["--vdev", v]
        # No flush of the rx queues at start: it would drop the packets
        # a pcap port has ready (all of them).
        argv += ["--", "-i", "--disable-link-check", "--no-flush-rx",
                 "--total-num-mbufs=16384"] + args
        super().__init__(name, argv, prefix, deadline, env.preload_env())

    def cmd(self, text, expect, timeout=WAIT):
        """Send a command, return the index of the line matching expect
        in its answer."""
        return self.wait_for(expect, self.send(text), timeout)

    def port_stats(self, port):
        """show port stats: {RX-packets: n, ...} of that port."""
        i = self.cmd("show port stats %d" % port,
                     r"NIC statistics for port %d " % port)
        end = self.wait_for(r"^\s*#{20,}\s*$", i + 1)
        st = {}
        for k in range(i + 1, end):
            for key, val in re.findall(r"([A-Za-z-]+):\s+(\d+)",
                                       self.line(k)):
                st[key] = int(val)
        return st

    def link(self, port):
        i = self.cmd("show port info %d" % port, r"Link status: (up|down)")
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

    def start(self):
        self.cmd("start", r"packet forwarding.* - ports=")

    def stop(self):
        self.cmd("stop", r"^Done\.|Packet forwarding not started")

    def quit(self):
        self.send("quit")
        rc = self.wait()
        check(rc == 0, "%s: exit status %s" % (self.name, rc))


def run_all(procs, body):
    """Run body(); on failure print every process' output. Always reap."""
    ok = False
    try:
        body()
        ok = True
    finally:
        for p in procs:
            if p.alive():
                p.signal(signal.SIGKILL)
            p.proc.wait()
            p.reap()
        if not ok:
            for p in procs:
                p.dump()


# ---------------------------------------------------------------- pcap files

def pcap_write(path, packets):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", PCAP_MAGIC_US, 2, 4, 0, 0, 65535, 1))
        for i, data in enumerate(packets):
            f.write(struct.pack("<IIII", i // 1000, i % 1000, len(data),
                                len(data)))
            f.write(data)


def pcap_read(path):
    with open(path, "rb") as f:
        blob = f.read()
    check(len(blob) >= 24, "%s: no pcap header" % path)
    for endian in "<>":
        if struct.unpack(endian + "I", blob[:4])[0] in (PCAP_MAGIC_US,
                                                        PCAP_MAGIC_NS):
            break
    else:
        raise Fail("%s: not a pcap file" % path)
    packets, off = [], 24
    while off < len(blob):
        check(off + 16 <= len(blob), "%s: truncated record header" % path)
        _, _, incl, orig = struct.unpack(endian + "IIII", blob[off:off + 16])
        check(incl == orig, "%s: record %d cut (%d of %d bytes)"
              % (path, len(packets), incl, orig))
        packets.append(blob[off + 16:off + 16 + incl])
        off += 16 + incl
    return packets


def mixed_packets(n, seed, max_len=9000):
    """n Ethernet frames, 64..max_len bytes: the edges around the mbuf
    and slot sizes first, then random sizes; each numbered."""
    rnd = random.Random(seed)
    edges = [s for s in (64, 65, 127, 128, 129, 1500, 1514, 2047, 2048,
                         2049, 2176, 4095, 4096, 4097, 8191, 8192, 9000)
             if s <= max_len]
    sizes = edges + [rnd.randint(64, max_len) for _ in range(n - len(edges))]
    eth = bytes([0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5])
    return [eth + struct.pack(">I", i) + rnd.randbytes(size - len(eth) - 4)
            for i, size in enumerate(sizes)]


def compare(sent, got, what):
    check(len(got) == len(sent), "%s: %d packets sent, %d arrived"
          % (what, len(sent), len(got)))
    for i, (a, b) in enumerate(zip(sent, got)):
        if a != b:
            where = next((j for j in range(min(len(a), len(b)))
                          if a[j] != b[j]), min(len(a), len(b)))
            raise Fail("%s: packet %d differs (%d vs %d bytes, first at "
                       "byte %d)" % (what, i, len(a), len(b), where))
