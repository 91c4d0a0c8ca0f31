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
rate while both vCPUs really run. A run with fewer than --min-samples
samples (the traffic started late, a process died) is run again like a
noisy one, and left out if it stays short: no figure rests on one sample.
When the samples of a size/mode fall into two groups (modes) more than
--mode-gap times apart, each with at least a fifth of them, both are
reported (rate and share of samples) instead of one median between them. A 1-s probe measures how much of the time
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
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import ism_eal  # noqa: E402  (tests/lib)

EAL_MEM = ["--no-huge", "-m", "512", "--no-pci", "--no-shconf"]

def noise_probe(args):
    """Share of 1 s both vCPUs ran while both were busy (percent)."""
    return ism_eal.noise_probe(args.perf, cpus=(0, 1), ms=1000,
                               tag="bench-fwd")


def run_pair(name, rx_cmd, tx_cmd, dur, env=None):
    """Start the receiver, then the transmitter (each [program, EAL
    options, --, ...] without --file-prefix: one is added; env: added to
    both environments); SIGINT both after dur+3 s. Returns the receiver's
    output."""
    procs = []
    for side, cmd in (("rx", rx_cmd), ("tx", tx_cmd)):
        prefix = ism_eal.file_prefix("bench", "fwd", name, side)
        cmd = cmd[:1] + ["--file-prefix", prefix] + cmd[1:]
        print("+ " + " ".join(cmd), flush=True)
        procs.append(ism_eal.Process(cmd, side, dur + 30, prefix=prefix,
                                     env=env,
                                     deadline_signal=signal.SIGINT))
        time.sleep(2 if side == "rx" else 0)
    time.sleep(dur + 3)
    for p in procs:
        p.interrupt()
    for p in procs:
        try:
            p.wait(20)
        except ism_eal.Error:
            pass
        p.cleanup()
    return "\n".join(procs[0].lines)


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
        "--vdev", "ism_shm0,dir=%s,gid=0xb2" % rv, "--",
        "--peer-gid", "0xa1", "--fwd-mode", "rxonly"] + common
    tx = [app, "-l", "1"] + EAL_MEM + [
        "--vdev", "ism_shm0,dir=%s,gid=0xa1" % rv, "--",
        "--peer-gid", "0xb2", "--fwd-mode", "txonly",
        "--pkt-size", str(size)] + common
    out = run_pair("ism-" + tag, rx, tx, args.dur)
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
        "--vdev", srv, "--"] + \
        app_args + ["--forward-mode=rxonly"]
    tx = [args.testpmd, "-l", "0,1", "--main-lcore", "0"] + mem + [
        "--vdev", cli, "--"] + \
        app_args + ["--forward-mode=txonly"]
    out = run_pair("memif-" + tag, rx, tx, args.dur)
    pps = [int(m) for m in re.findall(r"^\s+Rx-pps:\s+(\d+)", out, re.M)]
    return samples([p / 1e6 for p in pps])


def quiet(args):
    """Wait (up to --wait s) for a probe at or above --min-probe."""
    end = time.monotonic() + args.wait
    while True:
        probe = noise_probe(args)
        if probe >= args.min_probe or time.monotonic() > end:
            return probe
        time.sleep(5)


def run_probed_pair(args, size, mode, rep, tmp):
    """ISM then memif, again while a probe around them says the host was
    busy (at most --retries times). [(kind, samples, before, after)]"""
    for attempt in range(args.retries + 1):
        out = []
        for kind, fn in (("ism", ism_run), ("memif", memif_run)):
            before = quiet(args)
            tag = "%d-%d-%s-%d" % (rep, size, mode, attempt)
            s = fn(args, size, mode == "zc", tmp, tag)
            out.append((kind, s, before, noise_probe(args)))
        short = [k for k, s, _, _ in out if len(s) < args.min_samples]
        if (not short and
                all(min(b, a) >= args.min_probe for _, _, b, a in out)):
            break
        print("rep %d size %d %s: %s, again"
              % (rep + 1, size, mode, "too few samples of " +
                 ", ".join(short) if short else
                 "host busy during the runs"), flush=True)
    return out


def split_modes(values, gap=1.5, share=0.2):
    """[(median, count)] of the samples: one entry, or two when sorting
    them leaves a jump of more than gap times between neighbours with at
    least share of the samples on each side (the widest such jump)."""
    v = sorted(x for x in values if x > 0)
    if len(v) < 2:
        return [(med(v), len(v))] if v else []
    best, cut = gap, None
    lo = max(1, int(share * len(v) + 0.999999))
    for i in range(lo, len(v) - lo + 1):
        jump = v[i] / v[i - 1]
        if jump > best:
            best, cut = jump, i
    if cut is None:
        return [(med(v), len(v))]
    return [(med(v[:cut]), cut), (med(v[cut:]), len(v) - cut)]


def describe(values, min_samples, gap):
    """A figure of the samples: "X Mpps" (median), "X or Y Mpps (bimodal:
    n1/n2 samples)", or why there is none."""
    if len(values) < min_samples:
        return "no figure (%d samples, fewer than %d)" % (len(values),
                                                          min_samples)
    m = split_modes(values, gap)
    if len(m) == 1:
        return "%.2f Mpps" % m[0][0]
    return "%.2f or %.2f Mpps (bimodal: %d/%d samples)" % (
        m[0][0], m[1][0], m[0][1], m[1][1])


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
    ap.add_argument("--perf", help="dpdk-test-ism-perf, for the noise "
                    "probe (default: the one of --build)")
    ap.add_argument("--sizes", default="64,1500")
    ap.add_argument("--modes", default="copy,zc")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dur", type=int, default=10,
                    help="seconds of traffic per run")
    ap.add_argument("--min-probe", type=float, default=95,
                    help="percent of time both vCPUs must run")
    ap.add_argument("--retries", type=int, default=3)
    ap.add_argument("--min-samples", type=int, default=5,
                    help="1-s samples a run needs to count")
    ap.add_argument("--mode-gap", type=float, default=1.5,
                    help="ratio between two groups of samples reported "
                    "as two modes")
    ap.add_argument("--wait", type=int, default=120,
                    help="seconds to wait for a quiet host per try")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.build, "build.ninja")):
        subprocess.run(["meson", "setup", args.build], cwd=ROOT, check=True)
    subprocess.run(["ninja", "-C", args.build], check=True,
                   stdout=subprocess.DEVNULL)
    if args.perf is None:
        args.perf = os.path.join(args.build, "app", "test-ism",
                                 "dpdk-test-ism-perf")
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
                        if len(s) >= args.min_samples:
                            res.setdefault((size, mode, kind),
                                           []).append(med(s))
                            every.setdefault((size, mode, kind),
                                             []).extend(s)
                        probes += [before, after]
                        print("rep %d size %d %s %s: median %.2f Mpps of %d "
                              "1-s samples %s; host probes (both CPUs) "
                              "before %.1f%% after %.1f%%"
                              % (rep + 1, size, mode, kind, med(s), len(s),
                                 ["%.2f" % x for x in s], before, after),
                              flush=True)
    print("host: both vCPUs ran %.1f%% of the time (median of probes, "
          "min %.1f%%); below ~95%% the figures are noise"
          % (med(probes), min(probes)))
    for size in sizes:
        for mode in modes:
            key_i, key_m = (size, mode, "ism"), (size, mode, "memif")
            all_i, all_m = every.get(key_i, []), every.get(key_m, [])
            bimodal = (len(split_modes(all_i, args.mode_gap)) > 1 or
                       len(split_modes(all_m, args.mode_gap)) > 1)
            if (len(all_i) < args.min_samples or
                    len(all_m) < args.min_samples or bimodal):
                # No single figure: each side as it is.
                print("RESULT size=%dB mode=%s: ISM %s, memif %s; no "
                      "ratio (%s)"
                      % (size, mode,
                         describe(all_i, args.min_samples, args.mode_gap),
                         describe(all_m, args.min_samples, args.mode_gap),
                         "two modes" if bimodal else "too few samples"))
                continue
            i, m = med(res[key_i]), med(res[key_m])
            ip, mp = p90(all_i), p90(all_m)
            print("RESULT size=%dB mode=%s: ISM %.2f Mpps (%.2f Gbit/s), "
                  "memif %.2f Mpps (%.2f Gbit/s), ISM/memif %.2f; "
                  "p90 ISM %.2f memif %.2f Mpps, ISM/memif %.2f; "
                  "%d and %d 1-s samples"
                  % (size, mode, i, i * size * 8 / 1e3, m,
                     m * size * 8 / 1e3, i / m if m else float("nan"),
                     ip, mp, ip / mp if mp else float("nan"),
                     len(all_i), len(all_m)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
