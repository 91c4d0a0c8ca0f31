#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Turn the CSV of dpdk-test-ism-perf into summary.md and PNG charts.

    bench_report.py --csv perf.csv --config perf.ini --out DIR [--seconds S]
                    [--command CMD]

The CSV has one figure per row: case,type,backend,param,x,series,stat,unit,
value,reference,ref_value,ratio (ratio = value / ref_value, measured in the
same run). The targets are the target* keys of the configuration's cases
(see perf.ini): only the cases of that configuration are judged. Charts are
drawn with gnuplot (skipped with a note if absent).
"""

import argparse
import configparser
import csv
import datetime
import fnmatch
import os
import platform
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_stats  # noqa: E402

BACKENDS = {"ism_lo": "loopback", "ism_shm": "shm", "ism_ivshm": "ivshmem"}
NOISY_PCT = 97.0
# A reference whose repetitions spread more than SPREAD_FACTOR times its
# usual spread (the median over its points in the run), and by more than
# SPREAD_MIN, moved during that point: its ratios are suspect.
SPREAD_FACTOR = 2.0
SPREAD_MIN = 0.05
# A reference whose usual spread is above this was unsteady all along.
SPREAD_UNSTEADY = 0.25


def load_all(path):
    """(figures, spreads, reps, unmeasured): apart from the figures, the
    rows with stat "spread" (how far a reference moved between
    repetitions), "rep" (one paired repetition: value, reference and their
    ratio) and "n/a" (a figure this host cannot measure)."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["x"] = int(r["x"])
        r["value"] = float(r["value"])
        r["ref_value"] = float(r["ref_value"]) if r["ref_value"] else None
        r["ratio"] = float(r["ratio"]) if r["ratio"] else None
    apart = ("spread", "rep", "n/a")
    return ([r for r in rows if r["stat"] not in apart],
            [r for r in rows if r["stat"] == "spread"],
            [r for r in rows if r["stat"] == "rep"],
            [r for r in rows if r["stat"] == "n/a"])


def load(path):
    """(figures, spreads) of load_all()."""
    return load_all(path)[:2]


def intervals(reps):
    """{(case, x, series, reference): (median ratio, interval, pairs,
    median value, median reference)} of the paired repetitions
    (bench_stats.ratio_summary)."""
    groups = {}
    for r in reps:
        key = (r["case"], r["x"], r["series"], r["reference"])
        groups.setdefault(key, []).append(r)
    return {k: bench_stats.ratio_summary([r["value"] for r in rs],
                                         [r["ref_value"] for r in rs])
            + (bench_stats.median([r["value"] for r in rs]),
               bench_stats.median([r["ref_value"] for r in rs]))
            for k, rs in groups.items()}


def spread_check(spreads):
    """([(case, reference, usual, points)], [warning]) where usual is the
    median spread of that reference over the case's points."""
    groups, seen = {}, set()
    for r in spreads:
        # A reference paired with several series is reported once per
        # point (the same figures).
        key = (r["case"], r["series"], r["x"])
        if key in seen:
            continue
        seen.add(key)
        groups.setdefault((r["case"], r["series"]), []).append(r)
    usual_rows, warnings = [], []
    for (case, ref), rs in groups.items():
        v = sorted(r["value"] for r in rs)
        usual = v[(len(v) - 1) // 2]
        usual_rows.append((case, ref, usual, len(rs), v[-1]))
        limit = max(SPREAD_FACTOR * usual, SPREAD_MIN)
        if usual > SPREAD_UNSTEADY:
            warnings.append(
                f"{case}: the reference {ref} moved by "
                f"{100 * usual:.0f} % between repetitions at most points "
                "(the host was busy?): every ratio of the case is suspect")
        for r in rs:
            if r["value"] > limit:
                at = (size_str(r["x"]) if r["param"] == "size"
                      else f"{r['param']} {r['x']}")
                warnings.append(
                    f"{case} at {at}: the reference {ref} moved by "
                    f"{100 * r['value']:.0f} % between repetitions "
                    f"(usually {100 * usual:.0f} % in this run): its "
                    "ratios there are suspect")
    return usual_rows, warnings


def pick(rows, **kw):
    return [r for r in rows if all(r[k] == v for k, v in kw.items())]


def one(rows, **kw):
    m = pick(rows, **kw)
    return m[0] if m else None


def fmt(v, nd=2):
    return "-" if v is None else f"{v:.{nd}f}"


def size_str(n):
    for unit, div in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div} {unit}"
    return f"{n} B"


def host_info():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, Linux {platform.release()}"


def git_rev(top):
    try:
        rev = subprocess.run(["git", "-C", top, "describe", "--always",
                              "--dirty"], capture_output=True, text=True,
                             check=True).stdout.strip()
        return rev
    except (OSError, subprocess.CalledProcessError):
        return "?"


def load_targets(path):
    """[(case, name, spec)] from the target* keys of the configuration."""
    cfg = configparser.ConfigParser(comment_prefixes=(";", "#"),
                                    inline_comment_prefixes=(";",),
                                    interpolation=None, strict=False)
    with open(path) as f:
        cfg.read_file(f)
    out = []
    for case in cfg.sections():
        for key, value in cfg.items(case):
            if key.startswith("target"):
                name, _, spec = value.rpartition(":")
                if not name:
                    raise SystemExit("%s [%s] %s: want \"NAME: SPEC\""
                                     % (path, case, key))
                out.append((case, name.strip(), spec.strip()))
    return out


TARGET_RX = re.compile(r"^(min|max)\s+(ratio|value)\s*(>=|<=|<|>|==)\s*"
                       r"([-\d.eE+]+)(?:\s+where\s+(.*))?$")
OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
       "<": lambda a, b: a < b, ">": lambda a, b: a > b,
       "==": lambda a, b: a == b}


def judge(rows, case, spec, ci=None):
    """(measured, met) of a target spec over the rows of case:
    "min|max ratio|value OP LIMIT [where KEY=VALUE ... x>=N x<=N]", VALUE
    a glob (fnmatch). With ci (intervals()), a ratio whose repetitions
    were paired is judged by its interval (bench_stats.verdict): "yes"
    only when every selected ratio's whole interval meets the limit, "no"
    when one interval is wholly on the wrong side, else "undecided"."""
    m = TARGET_RX.match(spec)
    if m is None:
        raise SystemExit("bad target \"%s\" of [%s]" % (spec, case))
    agg, field, op, limit, where = m.groups()
    sel = [r for r in rows if r["case"] == case]
    for cond in (where or "").split():
        xm = re.match(r"^x(>=|<=)(\d+)$", cond)
        if xm:
            n = int(xm.group(2))
            sel = [r for r in sel if (r["x"] >= n if xm.group(1) == ">="
                                      else r["x"] <= n)]
            continue
        key, _, pat = cond.partition("=")
        sel = [r for r in sel if key in r and
               fnmatch.fnmatchcase(str(r[key]), pat)]
    sel = [r for r in sel if r[field] is not None]
    if not sel:
        return ("not measured (no figure: the case was skipped or failed, "
                "see perf.log)", "n/a")
    pick_ = min if agg == "min" else max
    r = pick_(sel, key=lambda r: r[field])
    at = (" at %s %s" % (r["param"], size_str(r["x"]) if r["param"] ==
                         "size" else r["x"]))
    what = r["series"] + (" / " + r["reference"] if r["reference"] else "")

    def interval(row):
        if ci is None or field != "ratio" or op not in bench_stats.OPS:
            return None
        got = ci.get((row["case"], row["x"], row["series"],
                      row["reference"]))
        return got[1] if got else None

    iv = interval(r)
    measured = "%s %s %s%s (%s)" % (agg, field, bench_stats.fmt_ci(
        r[field], iv), at, what)
    verdicts = set()
    for row in sel:
        row_iv = interval(row)
        if row_iv is None:
            verdicts.add("yes" if OPS[op](row[field], float(limit))
                         else "no")
        else:
            verdicts.add(bench_stats.verdict(row[field], row_iv, op,
                                             float(limit)))
    for v in ("no", "undecided"):
        if v in verdicts:
            return measured, v
    return measured, "yes"


class Report:
    def __init__(self, rows, targets, spreads=(), reps=(), unmeasured=()):
        self.rows = rows
        self.spreads = list(spreads)
        self.ci = intervals(reps)
        self.unmeasured = list(unmeasured)
        self.lines = []
        self.targets = [("%s: %s" % (case, name),) +
                        judge(rows, case, spec, self.ci)
                        for case, name, spec in targets]

    def ratio(self, r):
        """A figure's ratio with the interval of its paired repetitions,
        if any ("-" for no figure)."""
        if r is None or r["ratio"] is None:
            return "-"
        got = self.ci.get((r["case"], r["x"], r["series"], r["reference"]))
        return bench_stats.fmt_ci(r["ratio"], got and got[1])

    def p(self, s=""):
        self.lines.append(s)

    def table(self, head, body):
        self.p("| " + " | ".join(head) + " |")
        self.p("|" + "---|" * len(head))
        for b in body:
            self.p("| " + " | ".join(b) + " |")
        self.p()

    # Host noise: how much the figures can be trusted.
    def noise(self):
        noisy = False
        body = []
        cases = dict.fromkeys(r["case"] for r in pick(self.rows, type="noise"))
        for case in cases:
            cells = [case]
            for busy in (1, 2):
                r = one(self.rows, case=case, x=busy, series="ran_min")
                g = one(self.rows, case=case, x=busy, series="longest_gap")
                if r is None:
                    cells.append("-")
                    continue
                noisy |= r["value"] < NOISY_PCT
                cells.append(f"{r['value']:.1f} % (longest gap "
                             f"{g['value'] / 1000:.1f} ms)" if g else
                             f"{r['value']:.1f} %")
            body.append(cells)
        if not body:
            return
        self.p("### Host noise")
        self.p("Share of wall time a spinning lcore really ran (median over "
               "reps). Below "
               f"{NOISY_PCT:.0f} % the cross-core figures are not "
               "trustworthy.")
        self.p()
        self.table(["when", "1 busy lcore", "2 busy lcores"], body)
        if noisy:
            self.p(f"**The host was noisy (below {NOISY_PCT:.0f} %): "
                   "re-run at a quiet moment before trusting the "
                   "figures.**")
            self.p()

    def copy(self):
        rows = pick(self.rows, type="copy")
        if not rows:
            return
        backends = [b for b in BACKENDS if pick(rows, backend=b)]
        sizes = sorted({r["x"] for r in rows})
        head = ["size"]
        for b in backends:
            n = BACKENDS[b]
            head += [f"{n} move_data GB/s", "memcpy GB/s", "ratio",
                     "vs rte_memcpy"]
        body = []
        for s in sizes:
            cells = [size_str(s)]
            for b in backends:
                m = one(rows, backend=b, x=s, series="move_data",
                        reference="memcpy")
                q = one(rows, backend=b, x=s, series="move_data",
                        reference="rte_memcpy")
                cells += [fmt(m and m["value"]), fmt(m and m["ref_value"]),
                          self.ratio(m), self.ratio(q)]
            body.append(cells)
        self.p("### move_data throughput (case 1)")
        self.p("One lcore; each size moved into the next offset of a DMB "
               "(a ring), memcpy and rte_memcpy copying the same way into "
               "a second DMB of the same backend. GB/s = 1e9 B/s; ratio = "
               "median of the per-repetition ratios [95 % bootstrap "
               "interval].")
        self.p()
        self.table(head, body)

    def rate(self):
        rows = pick(self.rows, type="rate")
        if not rows:
            return
        self.p("### 64 B message rate (case 2)")
        self.p("Mops/s = 1e6 messages/s, one lcore, nobody polls (the "
               "sender's cost); burst 1 is move_data, more is move_burst "
               "with one signal per burst. References: memcpy_loop, the "
               "same copies with memcpy(); line_flag_loop, the same "
               "copies and one store into a flag line of its own per "
               "call: the floor of a signalled move without ISM; "
               "line_rmw_loop, the same with one atomic OR (x86: a "
               "locked instruction) instead of the store: the floor of "
               "a signal that several writers share and nobody may miss, "
               "as a raise in the software SBA; all measured in the "
               "same run.")
        self.p()
        body = [[str(r["x"]), r["series"], fmt(r["value"]),
                 r["reference"], fmt(r["ref_value"]), self.ratio(r)]
                for r in rows]
        self.table(["burst", "series", "Mops/s", "reference",
                    "reference Mops/s", "ratio"], body)

    def latency(self):
        rows = pick(self.rows, type="latency", series="move+signal_rtt")
        body = []
        for b in BACKENDS:
            for stat in ("median", "p99", "p99.9"):
                two = one(rows, backend=b, stat=stat,
                          reference="pingpong_2line")
                one_ = one(rows, backend=b, stat=stat,
                           reference="pingpong_1line")
                if two is None:
                    continue
                body.append([BACKENDS[b], f"{two['x']} B", stat,
                             fmt(two["value"], 0), fmt(two["ref_value"], 0),
                             fmt(two["ratio"]), fmt(one_ and
                                                    one_["ref_value"], 0),
                             fmt(one_ and one_["ratio"])])
        if not body:
            return
        self.p("### Round trip (case 3)")
        self.p("Move 64 B with signal, the peer polls and answers the same "
               "way; loopback: two lcores of one process, shm: two "
               "processes. Reference: raw ping-pong between the same "
               "cores, one line per direction (2line, the shape of two "
               "DMBs) and one shared line (1line). Every round trip is a "
               "sample (including one rdtsc).")
        self.p()
        self.table(["backend", "size", "stat", "ISM ns", "2line ns",
                    "ratio", "1line ns", "ratio"], body)
        self.steps()

    # The round trip step by step (perf_pingpong.c).
    STEPS = ("pingpong_1line", "pingpong_2line_cldemote", "pingpong_2seq",
             "pingpong_line+flag", "pingpong_line+flag_cldemote",
             "move+signal_rtt")

    def steps(self):
        body = []
        cases = dict.fromkeys(r["case"] for r in
                              pick(self.rows, type="latency"))
        for case in cases:
            backend = one(self.rows, case=case)["backend"]
            for x in sorted({k[1] for k in self.ci if k[0] == case}):
                for series in self.STEPS:
                    got = self.ci.get((case, x, series, "pingpong_2line"))
                    na = one(self.unmeasured, case=case, x=x,
                             series=series)
                    if got is None and na is None:
                        continue
                    if got is None:
                        body.append([BACKENDS.get(backend, backend),
                                     f"{x} B", series, "n/a", "n/a",
                                     "n/a (no CLDEMOTE on this CPU)"])
                        continue
                    ratio, iv, n, val, ref = got
                    body.append([BACKENDS.get(backend, backend), f"{x} B",
                                 series, fmt(val, 0), fmt(ref, 0),
                                 bench_stats.fmt_ci(ratio, iv) +
                                 f" ({n} pairs)"])
        if not body:
            return
        self.p("#### Round trip step by step")
        self.p("Raw ping-pongs that each add one step of a signalled move "
               "to the 2-line ping-pong, in the same interleaved run "
               "(doc/guides/tools/testism_bench_method.rst): median ns of "
               "the per-repetition medians, and the median of the "
               "per-repetition ratios to 2line with its 95 % bootstrap "
               "interval over the repetitions.")
        self.p()
        self.table(["backend", "size", "kind", "ns", "2line ns",
                    "ratio to 2line [95 %]"], body)

    def poll(self):
        rows = pick(self.rows, type="poll")
        fp = pick(self.rows, type="fastpath")
        if not rows and not fp:
            return
        body = []
        for r in pick(rows, series="poll_1_signalled"):
            e = one(rows, x=r["x"], series="poll_none_pending")
            body.append([str(r["x"]), fmt(r["value"]), fmt(r["ratio"]),
                         fmt(e and e["value"]), fmt(e and e["ratio"])])
        instr = {}
        for r in fp:
            if r["series"].startswith("signal_poll_") and r["stat"] == "instr":
                instr[r["series"]] = r["value"]
        self.p("### Signal poll cost (case 4)")
        self.p("N DMBs registered, the last one signalled; ns per poll "
               "(median), ratio to the same figure with 1 DMB.")
        self.p()
        if body:
            self.table(["DMBs", "poll, 1 signalled (ns)", "ratio",
                        "poll, none pending (ns)", "ratio"], body)
        if instr:
            self.p("Instructions per poll (callgrind, 1 signalled): " +
                   ", ".join(f"{k.split('_')[2]}: {v:.0f}"
                             for k, v in instr.items()) + ".")
            self.p()

    def wake(self):
        rows = pick(self.rows, type="wake")
        body = []
        for series in ("poll_rtt_intr_ready", "wake_rtt"):
            for stat in ("median", "p99"):
                r = one(rows, series=series, stat=stat)
                if r is not None:
                    body.append([series, stat, fmt(r["value"], 0),
                                 r["reference"], fmt(r["ref_value"], 0),
                                 fmt(r["ratio"])])
        if not body:
            return
        self.p("### Interrupt mode (case 5)")
        self.p("Loopback, two lcores. poll_rtt_intr_ready: the polling round "
               "trip of devices whose wake-ups were armed and disarmed "
               "before, against devices that never used the mode (a poller "
               "must pay nothing: ratio 1). wake_rtt: the round trip of two "
               "sides that each sleep in epoll_wait() until the other's "
               "signal wakes them, against a plain eventfd ping-pong (each "
               "side asleep in epoll_wait()) between the same cores.")
        self.p()
        self.table(["series", "stat", "ns", "reference", "ref ns", "ratio"],
                   body)

    def fastpath(self):
        rows = pick(self.rows, type="fastpath")
        if not rows:
            return

        def v(series, stat, unit):
            r = one(rows, series=series, stat=stat, unit=unit)
            return r["value"] if r else None

        d_i = one(rows, series="rte_ism_move_data", stat="instr",
                  reference="direct_call")
        d_l = one(rows, series="rte_ism_move_data", stat="loads",
                  reference="direct_call")
        body = [
            ["direct call of the driver function", fmt(d_i["ref_value"], 0),
             "0", fmt(d_l["ref_value"], 0), "0"],
            ["rte_ism_move_data() (fp table)",
             fmt(v("rte_ism_move_data", "instr", "instr/call"), 0),
             fmt(v("rte_ism_move_data", "extra", "instr/call"), 0),
             fmt(v("rte_ism_move_data", "loads", "loads/call"), 0),
             fmt(v("rte_ism_move_data", "extra", "loads/call"), 0)],
            ["dev->ops->fn chain (comparison)",
             fmt(v("ops_chain", "instr", "instr/call"), 0),
             fmt(v("ops_chain", "extra", "instr/call"), 0),
             fmt(v("ops_chain", "loads", "loads/call"), 0),
             fmt(v("ops_chain", "extra", "loads/call"), 0)],
        ]
        self.p("### Fast-path overhead (callgrind, deterministic)")
        self.p(f"Per call of a {d_i['x']} B move, counted by valgrind "
               "--tool=callgrind --cache-sim=yes: (count of 2n calls - "
               "count of n calls) / n. The driver's own move_data runs "
               f"{v('driver_move_data', 'instr', 'instr/call'):.0f} "
               "instructions (memcpy included); __tls_get_addr is "
               f"{'called' if v('tls_get_addr_calls', 'count', 'yes=1') else 'not called'}."
               + (f" Fixed cost over a function that only copies "
                  f"({v('copy_only', 'instr', 'instr/call'):.0f} "
                  "instructions): loopback "
                  f"{v('lo_move_data', 'over_copy', 'instr/call'):+.0f}"
                  + (", shm "
                     f"{v('shm_move_data', 'over_copy', 'instr/call'):+.0f}"
                     if v('shm_move_data', 'over_copy', 'instr/call')
                     is not None else "") + "."
                  if v('lo_move_data', 'over_copy', 'instr/call')
                  is not None else ""))
        b = one(rows, series="move_burst_32", stat="instr")
        if b:
            self.p(f"rte_ism_move_burst() of 32 segments: {b['value']:.1f} "
                   "instructions per message, against "
                   f"{b['ref_value']:.1f} for 32 memcpy() calls of the "
                   "same copies (the rate case's reference): reference / "
                   f"burst {b['ref_value'] / b['value']:.2f}.")
        self.p()
        self.table(["call", "instr/call", "extra instr", "loads/call",
                    "extra loads"], body)

    # How steady each reference was between repetitions.
    def stability(self):
        usual, warnings = spread_check(self.spreads)
        if not usual:
            return
        self.p("### Stability of the references")
        self.p("Spread of a reference between repetitions: (max - min) / "
               "median of its per-repetition figures. A point whose "
               f"spread is above {SPREAD_FACTOR:g}x the usual one (the "
               f"median over the case's points) and above "
               f"{100 * SPREAD_MIN:.0f} % is flagged, and a case whose "
               f"usual spread is above {100 * SPREAD_UNSTEADY:.0f} %.")
        self.p()
        self.table(["case", "reference", "usual spread", "largest",
                    "points"],
                   [[c, ref, f"{100 * u:.1f} %", f"{100 * mx:.1f} %",
                     str(n)] for c, ref, u, n, mx in usual])
        for w in warnings:
            self.p(f"**Warning: {w}.**")
        if warnings:
            self.p()

    def render(self, header):
        self.noise()
        self.stability()
        body_start = len(self.lines)
        self.copy()
        self.rate()
        self.latency()
        self.poll()
        self.wake()
        self.fastpath()
        sections = self.lines[body_start:]
        self.lines = self.lines[:body_start]
        out = list(header)
        if self.targets:
            out += ["### Targets", "",
                    "| target | measured | met |", "|---|---|---|"]
            out += [f"| {n} | {m} | {ok} |" for n, m, ok in self.targets]
            out.append("")
        return "\n".join(out + self.lines + sections) + "\n"


def dat(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def plots(rows, out):
    """Charts with gnuplot; returns the PNG names written."""
    gp = shutil.which("gnuplot")
    if gp is None:
        print("bench_report: gnuplot not found, no charts", file=sys.stderr)
        return []
    terms = subprocess.run([gp, "-e", "set terminal"], capture_output=True,
                           text=True)
    term = "pngcairo" if "pngcairo" in terms.stdout + terms.stderr else "png"
    script = [f"set terminal {term} size 900,560 noenhanced",
              "set grid", "set key left top"]
    pngs = []
    for b, name in BACKENDS.items():
        rs = pick(rows, type="copy", backend=b, series="move_data",
                  reference="memcpy")
        if not rs:
            continue
        lines = []
        for r in sorted(rs, key=lambda r: r["x"]):
            q = one(rows, type="copy", backend=b, x=r["x"],
                    series="rte_memcpy")
            lines.append(f"{r['x']} {r['value']} {r['ref_value']} "
                         f"{q['value'] if q else 'NaN'}")
        d = os.path.join(out, f"throughput_{name}.dat")
        dat(d, lines)
        png = f"throughput_{name}.png"
        script += [f"set output '{os.path.join(out, png)}'",
                   f"set title 'move_data throughput, {name}, vs memcpy "
                   "in the same run'",
                   "set logscale x 2", "set xlabel 'size (bytes)'",
                   "set ylabel 'GB/s'", "set yrange [0:*]",
                   "set format x '%.0b%BB'",
                   f"plot '{d}' u 1:2 w lp lw 2 t 'rte_ism_move_data', "
                   f"'' u 1:3 w lp t 'memcpy (libc)', "
                   f"'' u 1:4 w lp t 'rte_memcpy'",
                   "unset logscale x", "set format x '% h'"]
        pngs.append(png)

    lat = pick(rows, type="latency", series="move+signal_rtt",
               reference="pingpong_2line")
    if lat:
        lines = []
        for r in lat:
            r1 = one(rows, type="latency", backend=r["backend"],
                     series="move+signal_rtt", stat=r["stat"],
                     reference="pingpong_1line")
            label = f"{BACKENDS[r['backend']]}-{r['stat']}"
            lines.append(f"{label} {r['value']} {r['ref_value']} "
                         f"{r1['ref_value'] if r1 else 'NaN'}")
        d = os.path.join(out, "latency.dat")
        dat(d, lines)
        png = "latency.png"
        script += [f"set output '{os.path.join(out, png)}'",
                   "set title 'round trip, 64 B + signal, vs raw "
                   "ping-pong between the same cores'",
                   "set style data histograms",
                   "set style histogram clustered gap 1",
                   "set style fill solid 0.8 border -1",
                   "set logscale y", "set ylabel 'ns (log)'",
                   "set xlabel ''", "set yrange [*:*]",
                   f"plot '{d}' u 2:xtic(1) t 'ISM move+signal, poll', "
                   "'' u 3 t 'ping-pong, line per direction', "
                   "'' u 4 t 'ping-pong, one line'",
                   "unset logscale y", "set style data linespoints"]
        pngs.append(png)

    poll = pick(rows, type="poll", series="poll_1_signalled")
    if poll:
        lines = []
        for r in poll:
            e = one(rows, type="poll", x=r["x"], series="poll_none_pending")
            lines.append(f"{r['x']} {r['value']} "
                         f"{e['value'] if e else 'NaN'}")
        d = os.path.join(out, "poll.dat")
        dat(d, lines)
        png = "poll.png"
        script += [f"set output '{os.path.join(out, png)}'",
                   "set title 'signal poll cost vs registered DMBs'",
                   "set logscale x", "set xlabel 'registered DMBs'",
                   "set ylabel 'ns per poll'", "set yrange [0:*]",
                   f"plot '{d}' u 1:2 w lp lw 2 t 'one signalled', "
                   "'' u 1:3 w lp t 'none pending'", "unset logscale x"]
        pngs.append(png)

    if not pngs:
        return []
    res = subprocess.run([gp], input="\n".join(script) + "\n", text=True,
                         capture_output=True)
    if res.returncode != 0:
        print("bench_report: gnuplot failed:\n" + res.stderr,
              file=sys.stderr)
        return []
    return pngs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--csv", required=True)
    ap.add_argument("--config", required=True,
                    help="the perf configuration (its target* keys)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=int)
    ap.add_argument("--command", default="devtools/bench.sh")
    a = ap.parse_args()

    rows, spreads, reps, unmeasured = load_all(a.csv)
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    pngs = plots(rows, a.out)
    header = [
        "## Benchmark summary",
        "",
        f"CPU: {host_info()}.",
        "",
        f"{datetime.date.today().isoformat()}, "
        f"dpdk-ism {git_rev(top)}. Command: `{a.command}`"
        + (f" ({a.seconds} s)." if a.seconds is not None else "."),
        "Every figure is the median over repetitions, measured next to its "
        "reference in the same run; ratio = ISM / reference, with the 95 % "
        "bootstrap interval over the paired repetitions in brackets; a "
        "target is met only when its whole interval is on the right side "
        "(doc/guides/tools/testism_bench_method.rst).",
        "",
    ]
    if pngs:
        header += ["Charts: " + ", ".join(pngs) + ".", ""]
    report = Report(rows, load_targets(a.config), spreads, reps,
                    unmeasured)
    _, warnings = spread_check(spreads)
    if warnings:
        header += [f"**{len(warnings)} reference(s) moved more than "
                   "usual between repetitions: see \"Stability of the "
                   "references\".**", ""]
    text = report.render(header)
    with open(os.path.join(a.out, "summary.md"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
