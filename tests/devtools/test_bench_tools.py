#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The benchmark tools' judgement, on made-up figures (no benchmark runs):
devtools/bench_report.py names the CPU and flags references that moved
more than usual between repetitions; devtools/bench_fwd.py gives no figure
from too few 1-s samples and reports two modes apart."""

import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "devtools"))
import bench_fwd  # noqa: E402
import bench_report  # noqa: E402
import bench_testpmd  # noqa: E402

HEAD = "case,type,backend,param,x,series,stat,unit,value,reference," \
    "ref_value,ratio\n"


def spread_row(case, x, ref, v):
    return f"{case},copy,ism_lo,size,{x},{ref},spread,rel,{v},,,\n"


def figure_row(case, x, ref):
    return (f"{case},copy,ism_lo,size,{x},move_data,median,GB/s,9,"
            f"{ref},10,0.9\n")


class Report(unittest.TestCase):
    def write(self, d, body):
        path = os.path.join(d, "perf.csv")
        with open(path, "w") as f:
            f.write(HEAD + body)
        return path

    def test_spread_rows_apart(self):
        with tempfile.TemporaryDirectory() as d:
            rows, spreads = bench_report.load(self.write(
                d, figure_row("c", 64, "memcpy") +
                spread_row("c", 64, "memcpy", 0.02)))
        self.assertEqual([r["stat"] for r in rows], ["median"])
        self.assertEqual([r["stat"] for r in spreads], ["spread"])

    def test_outlier_flagged_once(self):
        body = "".join(spread_row("c", x, "memcpy", 0.03)
                       for x in (64, 256, 1024, 4096))
        # The same point emitted twice (two series share the reference).
        body += spread_row("c", 1500, "memcpy", 0.40) * 2
        with tempfile.TemporaryDirectory() as d:
            _, spreads = bench_report.load(self.write(d, body))
        usual, warnings = bench_report.spread_check(spreads)
        self.assertEqual(len(usual), 1)
        self.assertAlmostEqual(usual[0][2], 0.03)
        self.assertEqual(usual[0][3], 5)
        self.assertEqual(len(warnings), 1)
        self.assertIn("1500 B", warnings[0])

    def test_steady_not_flagged(self):
        body = "".join(spread_row("c", x, "memcpy", v) for x, v in
                       ((64, 0.01), (256, 0.04), (1024, 0.02)))
        with tempfile.TemporaryDirectory() as d:
            _, spreads = bench_report.load(self.write(d, body))
        self.assertEqual(bench_report.spread_check(spreads)[1], [])

    def test_unsteady_case_flagged(self):
        body = "".join(spread_row("c", x, "memcpy", 0.6)
                       for x in (64, 256, 1024))
        with tempfile.TemporaryDirectory() as d:
            _, spreads = bench_report.load(self.write(d, body))
        warnings = bench_report.spread_check(spreads)[1]
        self.assertEqual(len(warnings), 1)
        self.assertIn("every ratio of the case", warnings[0])

    def test_summary(self):
        body = figure_row("copy_lo", 64, "memcpy") + "".join(
            spread_row("copy_lo", x, "memcpy", v)
            for x, v in ((64, 0.5), (256, 0.02), (1024, 0.02)))
        with tempfile.TemporaryDirectory() as d:
            csv_path = self.write(d, body)
            ini = os.path.join(d, "perf.ini")
            with open(ini, "w") as f:
                f.write("[copy_lo]\ntype = copy\n")
            subprocess.run([sys.executable, os.path.join(
                ROOT, "devtools", "bench_report.py"), "--csv", csv_path,
                "--config", ini, "--out", d], check=True)
            with open(os.path.join(d, "summary.md")) as f:
                text = f.read()
        self.assertIn("CPU: " + bench_report.host_info(), text)
        self.assertIn("Stability of the references", text)
        self.assertIn("copy_lo at 64 B: the reference memcpy moved by 50 %",
                      text)

    def test_wake_section(self):
        body = ("wake_lo,wake,ism_lo,size,64,poll_rtt_intr_ready,median,ns,"
                "500,poll_rtt_never_armed,500,1.0\n"
                "wake_lo,wake,ism_lo,size,64,wake_rtt,median,ns,"
                "30000,eventfd_rtt,20000,1.5\n")
        with tempfile.TemporaryDirectory() as d:
            csv_path = self.write(d, body)
            ini = os.path.join(d, "perf.ini")
            with open(ini, "w") as f:
                f.write("[wake_lo]\ntype = wake\ntarget = t: max ratio "
                        "<= 2 where series=wake_rtt stat=median\n")
            subprocess.run([sys.executable, os.path.join(
                ROOT, "devtools", "bench_report.py"), "--csv", csv_path,
                "--config", ini, "--out", d], check=True)
            with open(os.path.join(d, "summary.md")) as f:
                text = f.read()
        self.assertIn("### Interrupt mode (case 5)", text)
        self.assertIn("| wake_rtt | median | 30000 | eventfd_rtt | 20000 | "
                      "1.50 |", text)


class Fwd(unittest.TestCase):
    def test_one_mode(self):
        self.assertEqual(bench_fwd.split_modes([4.4, 4.5, 4.6, 4.5]),
                         [(4.5, 4)])

    def test_two_modes(self):
        # The AMD host of issue 17: 1.3 or 4.5 Mpps across repetitions.
        m = bench_fwd.split_modes([1.3, 1.2, 1.4, 4.5, 4.4, 4.6, 1.3])
        self.assertEqual(m, [(1.3, 4), (4.5, 3)])
        self.assertIn("bimodal", bench_fwd.describe(
            [1.3] * 5 + [4.5] * 5, 5, 1.5))

    def test_lone_outlier_is_not_a_mode(self):
        self.assertEqual(len(bench_fwd.split_modes([1.0] * 9 + [5.0])), 1)

    def test_no_figure_from_one_sample(self):
        self.assertTrue(bench_fwd.describe([4.5], 5, 1.5).startswith(
            "no figure"))
        self.assertEqual(bench_fwd.describe([4.5] * 5, 5, 1.5), "4.50 Mpps")


class MeasuredNothing(unittest.TestCase):
    """bench_testpmd fails a case without a single Rx-pps sample (net_ism
    that did not load: it printed "median nan Mpps" and exited 0)."""

    def test_empty_case_named(self):
        every = {("txrx", 64, "copy", "nohuge", "ism"): [],
                 ("txrx", 64, "copy", "nohuge", "memif"): [17.0, 18.0]}
        self.assertEqual(bench_testpmd.measured_nothing(every),
                         ["ism txrx 64B copy nohuge"])

    def test_all_measured(self):
        every = {("txrx", 64, "copy", "nohuge", "ism"): [20.0],
                 ("txrx", 64, "copy", "nohuge", "memif"): [17.0]}
        self.assertEqual(bench_testpmd.measured_nothing(every), [])


if __name__ == "__main__":
    unittest.main()
