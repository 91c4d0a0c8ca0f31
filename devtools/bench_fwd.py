#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Benchmark: dpdk-ism_fwd over ISM (shm backend) against DPDK's net_memif
between two dpdk-testpmd processes, in the same run, interleaved.

    devtools/bench_fwd.py [--build DIR] [--sizes 64,1500] [--modes copy,zc]
                          [--reps 3] [--dur 10]

For each size and mode: a transmitter on CPU 1 sends to a receiver on CPU 0
that counts and drops (ISM: --fwd-mode txonly -> rxonly; memif: testpmd
--forward-mode=txonly -> rxonly). Zero copy is dpdk-ism_fwd --zero-copy on
both sides, and memif zero-copy=yes on the client (the transmitter; the
memif server always copies). Both run without hugepages (--no-huge -m 512).
The figure is the receiver's rate: the median of its 1-s samples (leading
idle seconds, 2 warm-up seconds and the last second dropped), then the
median over reps; p90 is the 90th percentile of all samples, roughly the
rate while both vCPUs really run. A 1-s probe measures how much of the time
both vCPUs ran, before and after each ISM/memif pair of runs: on a shared
host a pair is run again (--retries) unless both probes reach --min-probe
percent, after waiting up to --wait seconds for the host to calm down.
Prints one RESULT line per size/mode with the ratios ISM/memif.
"""

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EAL_MEM = ["--no-huge", "-m", "512", "--no-pci", "--no-shconf"]

NOISE_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9; }
int main(int c, char **v) { double s = c > 1 ? atof(v[1]) : 1, t0 = now(),
	last = t0, lost = 0, t; (void)c;
	while ((t = now()) - t0 < s) { if (t - last > 1e-6) lost += t - last;
		last = t; }
	printf("%.1f\n", 100 * (1 - lost / (t - t0))); return 0; }
"""


def noise_probe(tmp):
    """Share of 1 s each vCPU ran while both were busy (percent)."""
    exe = os.path.join(tmp, "cpu_noise")
    if not os.path.exists(exe):
        src = exe + ".c"
        with open(src, "w") as f:
            f.write(NOISE_C)
        subprocess.run(["cc", "-O2", "-o", exe, src], check=True)
    procs = [subprocess.Popen(["taskset", "-c", str(c), exe, "1"],
                              stdout=subprocess.PIPE, text=True)
             for c in (0, 1)]
    return [float(p.communicate()[0]) for p in procs]


def eal_runtime_dir(cmd):
    """The EAL runtime directory of a command line's --file-prefix."""
    prefix = cmd[cmd.index("--file-prefix") + 1]
    base = "/var/run" if os.getuid() == 0 else \
        os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk", prefix)


def run_pair(rx_cmd, tx_cmd, dur, log_prefix):
    """Start the receiver, then the transmitter; SIGINT both after dur+3 s.
    Returns the receiver's output."""
    logs = []
    procs = []
    for i, cmd in enumerate((rx_cmd, tx_cmd)):
        print("+ " + " ".join(cmd), flush=True)
        log = open("%s.%s.log" % (log_prefix, ("rx", "tx")[i]), "w+")
        logs.append(log)
        procs.append(subprocess.Popen(
            ["timeout", "-k", "5", "-s", "INT", str(dur + 30)] + cmd,
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True))
        time.sleep(2 if i == 0 else 0)
    time.sleep(dur + 3)
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGINT)
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    for cmd in (rx_cmd, tx_cmd):
        shutil.rmtree(eal_runtime_dir(cmd), ignore_errors=True)
    logs[0].seek(0)
    out = logs[0].read()
    for log in logs:
        log.close()
    return out


def samples(values):
    """Drop idle seconds before traffic, 2 warm-up seconds, the last one."""
    while values and values[0] == 0:
        values = values[1:]
    return values[2:-1]


def ism_run(args, size, zc, tmp, tag):
    rv = tempfile.mkdtemp(prefix="rv.", dir=tmp)
    app = os.path.join(args.build, "examples", "ism_fwd", "dpdk-ism_fwd")
    common = ["--stats-period", "1"] + (["--zero-copy"] if zc else [])
    rx = [app, "-l", "0"] + EAL_MEM + [
        "--file-prefix", "bfwd-r-%s" % tag,
        "--vdev", "ism_shm0,dir=%s,gid=0xb2" % rv, "--",
        "--peer-gid", "0xa1", "--fwd-mode", "rxonly"] + common
    tx = [app, "-l", "1"] + EAL_MEM + [
        "--file-prefix", "bfwd-t-%s" % tag,
        "--vdev", "ism_shm0,dir=%s,gid=0xa1" % rv, "--",
        "--peer-gid", "0xb2", "--fwd-mode", "txonly",
        "--pkt-size", str(size)] + common
    out = run_pair(rx, tx, args.dur, os.path.join(tmp, "ism-%s" % tag))
    shutil.rmtree(rv, ignore_errors=True)
    mpps = [float(m) for m in re.findall(r"ism-rx ([\d.]+) Mpps", out)]
    return samples(mpps)


def memif_run(args, size, zc, tmp, tag):
    sock = os.path.join(tmp, "memif-%s.sock" % tag)
    srv = "net_memif0,role=server,id=0,socket=%s,socket-abstract=no" % sock
    cli = "net_memif0,role=client,id=0,socket=%s,socket-abstract=no" % sock
    mem = list(EAL_MEM)
    if zc:
        cli += ",zero-copy=yes"
        mem.append("--single-file-segments")
    app_args = ["--total-num-mbufs=16384", "--txpkts=%d" % size,
                "--stats-period", "1"]
    rx = [args.testpmd, "-l", "0,1", "--main-lcore", "1"] + mem + [
        "--file-prefix", "bfwd-ms-%s" % tag, "--vdev", srv, "--"] + \
        app_args + ["--forward-mode=rxonly"]
    tx = [args.testpmd, "-l", "0,1", "--main-lcore", "0"] + mem + [
        "--file-prefix", "bfwd-mc-%s" % tag, "--vdev", cli, "--"] + \
        app_args + ["--forward-mode=txonly"]
    out = run_pair(rx, tx, args.dur, os.path.join(tmp, "memif-%s" % tag))
    pps = [int(m) for m in re.findall(r"^\s+Rx-pps:\s+(\d+)", out, re.M)]
    return samples([p / 1e6 for p in pps])


def quiet(args, tmp):
    """Wait (up to --wait s) for a probe at or above --min-probe."""
    end = time.monotonic() + args.wait
    while True:
        probe = noise_probe(tmp)
        if min(probe) >= args.min_probe or time.monotonic() > end:
            return probe
        time.sleep(5)


def run_probed_pair(args, size, mode, rep, tmp):
    """ISM then memif, again while a probe around them says the host was
    busy (at most --retries times). [(kind, samples, before, after)]"""
    for attempt in range(args.retries + 1):
        out = []
        for kind, fn in (("ism", ism_run), ("memif", memif_run)):
            before = quiet(args, tmp)
            tag = "%d-%d-%s-%s-%d-%d" % (rep, size, mode, kind, attempt,
                                         os.getpid())
            s = fn(args, size, mode == "zc", tmp, tag)
            out.append((kind, s, before, noise_probe(tmp)))
        if all(min(b + a) >= args.min_probe for _, _, b, a in out):
            break
        print("rep %d size %d %s: host busy during the runs, again"
              % (rep + 1, size, mode), flush=True)
    return out


def med(values):
    return statistics.median(values) if values else float("nan")


def p90(values):
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(0.9 * len(v) + 0.999999) - 1)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--testpmd", default="dpdk-testpmd")
    ap.add_argument("--sizes", default="64,1500")
    ap.add_argument("--modes", default="copy,zc")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dur", type=int, default=10,
                    help="seconds of traffic per run")
    ap.add_argument("--min-probe", type=float, default=95,
                    help="percent of time both vCPUs must run")
    ap.add_argument("--retries", type=int, default=3)
    ap.add_argument("--wait", type=int, default=120,
                    help="seconds to wait for a quiet host per try")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.build, "build.ninja")):
        subprocess.run(["meson", "setup", args.build], cwd=ROOT, check=True)
    subprocess.run(["ninja", "-C", args.build], check=True,
                   stdout=subprocess.DEVNULL)
    sizes = [int(s) for s in args.sizes.split(",")]
    modes = args.modes.split(",")
    res = {}       # (size, mode, "ism"|"memif") -> [rep medians]
    every = {}     # (size, mode, "ism"|"memif") -> [all 1-s samples]
    probes = []
    with tempfile.TemporaryDirectory(prefix="bench-fwd.") as tmp:
        for rep in range(args.reps):
            for size in sizes:
                for mode in modes:
                    pair = run_probed_pair(args, size, mode, rep, tmp)
                    for kind, s, before, after in pair:
                        res.setdefault((size, mode, kind), []).append(med(s))
                        every.setdefault((size, mode, kind), []).extend(s)
                        probes += before + after
                        print("rep %d size %d %s %s: median %.2f Mpps of %d "
                              "1-s samples %s; host probes (CPU0/CPU1) "
                              "before %.1f/%.1f%% after %.1f/%.1f%%"
                              % (rep + 1, size, mode, kind, med(s), len(s),
                                 ["%.2f" % x for x in s], before[0],
                                 before[1], after[0], after[1]), flush=True)
    print("host: both vCPUs ran %.1f%% of the time (median of probes, "
          "min %.1f%%); below ~95%% the figures are noise"
          % (med(probes), min(probes)))
    for size in sizes:
        for mode in modes:
            i = med(res[(size, mode, "ism")])
            m = med(res[(size, mode, "memif")])
            ip = p90(every[(size, mode, "ism")])
            mp = p90(every[(size, mode, "memif")])
            print("RESULT size=%dB mode=%s: ISM %.2f Mpps (%.2f Gbit/s), "
                  "memif %.2f Mpps (%.2f Gbit/s), ISM/memif %.2f; "
                  "p90 ISM %.2f memif %.2f Mpps, ISM/memif %.2f"
                  % (size, mode, i, i * size * 8 / 1e3, m,
                     m * size * 8 / 1e3, i / m if m else float("nan"),
                     ip, mp, ip / mp if mp else float("nan")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
