#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The benchmark tools' judgement, on made-up figures (no benchmark runs):
devtools/bench_report.py names the CPU and flags references that moved
more than usual between repetitions; devtools/bench_fwd.py gives no figure
from too few 1-s samples and reports two modes apart; devtools/bench_stats.py
gives each ratio of paired repetitions its bootstrap interval, and a target
is met only when the whole interval is on its side."""

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
import bench_stats  # noqa: E402
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


def rep_row(case, x, series, ref, v, rv, typ="latency"):
    return (f"{case},{typ},ism_lo,size,{x},{series},rep,ns,{v},{ref},{rv},"
            f"{v / rv}\n")


class Stats(unittest.TestCase):
    def test_median(self):
        self.assertEqual(bench_stats.median([3, 1, 2]), 2)
        self.assertEqual(bench_stats.median([4, 1, 2, 3]), 2.5)
        self.assertTrue(bench_stats.median([]) != bench_stats.median([]))

    def test_pair_ratios_skip_missing_reference(self):
        self.assertEqual(bench_stats.pair_ratios([2, 3, 4], [1, 0, None]),
                         [2.0])

    def test_interval_holds_the_median_and_is_repeatable(self):
        v = [1.0, 1.1, 0.9, 1.05, 0.95, 1.2, 0.8, 1.0, 1.02, 0.98, 1.01]
        lo, hi = bench_stats.bootstrap_ci(v)
        self.assertLessEqual(lo, bench_stats.median(v))
        self.assertGreaterEqual(hi, bench_stats.median(v))
        self.assertGreaterEqual(lo, min(v))
        self.assertLessEqual(hi, max(v))
        self.assertEqual(bench_stats.bootstrap_ci(v), (lo, hi))

    def test_interval_narrows_with_steady_pairs(self):
        noisy = [0.6, 1.7, 1.0, 0.7, 1.5, 1.1, 0.9, 1.6, 0.65]
        steady = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01, 0.99]
        nlo, nhi = bench_stats.bootstrap_ci(noisy)
        slo, shi = bench_stats.bootstrap_ci(steady)
        self.assertLess(shi - slo, (nhi - nlo) / 10)

    def test_no_interval_from_two_pairs(self):
        self.assertIsNone(bench_stats.bootstrap_ci([1.0, 2.0]))
        self.assertEqual(bench_stats.fmt_ci(1.5, None), "1.50")

    def test_ratio_summary_of_pairs(self):
        med, iv, n = bench_stats.ratio_summary([2, 4, 6], [1, 2, 3])
        self.assertEqual((med, iv, n), (2.0, (2.0, 2.0), 3))

    def test_verdict(self):
        v = bench_stats.verdict
        self.assertEqual(v(1.2, (1.1, 1.3), "<=", 1.5), "yes")
        self.assertEqual(v(1.4, (1.3, 1.6), "<=", 1.5), "undecided")
        self.assertEqual(v(1.7, (1.6, 1.8), "<=", 1.5), "no")
        self.assertEqual(v(0.97, (0.93, 0.99), ">=", 0.95), "undecided")
        self.assertEqual(v(0.97, None, ">=", 0.95), "yes")


class Intervals(unittest.TestCase):
    SPEC = ("max ratio <= 1.5 where series=move+signal_rtt stat=median "
            "reference=pingpong_2line")

    def rows(self, ratios):
        fig = ("lat,latency,ism_lo,size,64,move+signal_rtt,median,ns,140,"
               "pingpong_2line,100,1.4\n")
        reps = "".join(rep_row("lat", 64, "move+signal_rtt",
                               "pingpong_2line", 100 * r, 100)
                       for r in ratios)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "perf.csv")
            with open(path, "w") as f:
                f.write(HEAD + fig + reps)
            return bench_report.load_all(path)

    def test_rep_rows_apart(self):
        rows, spreads, reps, na = self.rows([1.4] * 5)
        self.assertEqual([r["stat"] for r in rows], ["median"])
        self.assertEqual(len(reps), 5)
        self.assertEqual((spreads, na), ([], []))

    def test_met_only_when_the_interval_is_inside(self):
        # The median alone (1.4) meets <= 1.5; the pairs straddle it.
        rows, _, reps, _ = self.rows([1.1, 1.4, 1.9, 1.3, 1.7, 1.45, 1.6])
        ci = bench_report.intervals(reps)
        measured, met = bench_report.judge(rows, "lat", self.SPEC, ci)
        self.assertEqual(met, "undecided")
        self.assertIn("[", measured)
        self.assertEqual(bench_report.judge(rows, "lat", self.SPEC)[1],
                         "yes")
        rows, _, reps, _ = self.rows([1.38, 1.4, 1.41, 1.39, 1.4, 1.42])
        self.assertEqual(bench_report.judge(
            rows, "lat", self.SPEC, bench_report.intervals(reps))[1], "yes")

    def test_steps_table_says_na(self):
        body = "".join(rep_row("lat", 64, s, "pingpong_2line", v, 100)
                       for s, v in (("pingpong_2seq", 110),
                                    ("pingpong_2seq", 112),
                                    ("pingpong_2seq", 108)))
        body += ("lat,latency,ism_lo,size,64,pingpong_line+flag_cldemote,"
                 "n/a,-,nan,,,\n")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "perf.csv")
            with open(path, "w") as f:
                f.write(HEAD + body)
            rows, spreads, reps, na = bench_report.load_all(path)
        rep = bench_report.Report(rows + [dict(reps[0], stat="median")],
                                  [], spreads, reps, na)
        rep.steps()
        text = "\n".join(rep.lines)
        self.assertIn("| pingpong_2seq | 110 | 100 | 1.10 [1.08, 1.12] "
                      "(3 pairs) |", text)
        self.assertIn("pingpong_line+flag_cldemote | n/a", text)


class Fwd(unittest.TestCase):
    def test_one_mode(self):
        self.assertEqual(bench_fwd.split_modes([4.4, 4.5, 4.6, 4.5]),
                         [(4.5, 4)])

    def test_two_modes(self):
        # A loaded AMD host seen here: 1.3 or 4.5 Mpps across repetitions.
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


class TestpmdPairs(unittest.TestCase):
    """bench_testpmd's ratio is the median of the interleaved pairs'
    ratios with an interval, and net_ism is "ahead" only when the whole
    interval is above 1.0."""

    def run_report(self, pairs):
        case = ("txrx", 64, "copy", "nohuge")
        res = {case + ("ism",): [p[0] for p in pairs],
               case + ("memif",): [p[1] for p in pairs]}
        args = type("A", (), {"reps": len(pairs), "dur": 3,
                              "min_probe": 90})()
        with tempfile.TemporaryDirectory() as d, \
                open(os.devnull, "w") as null:
            out = sys.stdout
            sys.stdout = null
            try:
                bench_testpmd.report(args, [case], res, res, [99.0], d, 60,
                                     {case: pairs})
            finally:
                sys.stdout = out
            with open(os.path.join(d, "testpmd.md")) as f:
                return f.read()

    def test_bimodal_pairs_undecided(self):
        # net_ism at half its speed in some pairs, as on the Intel host
        # (11-15 or 24-31 Mpps against memif's 16-21).
        text = self.run_report([(12, 18), (28, 18), (13, 19), (30, 17),
                                (26, 20), (14, 18), (29, 19)])
        self.assertIn("| 7 | undecided |", text)

    def test_budget(self):
        self.assertFalse(bench_testpmd.over_budget(0, 10 ** 6, 100))
        self.assertFalse(bench_testpmd.over_budget(450, 330, 110))
        self.assertTrue(bench_testpmd.over_budget(450, 341, 110))

    def test_steady_pairs_ahead(self):
        text = self.run_report([(30, 18), (31, 19), (29, 18), (30, 17),
                                (31, 18)])
        self.assertIn("| 5 | yes |", text)


if __name__ == "__main__":
    unittest.main()
