# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Intervals of the benchmark ratios (devtools/bench_report.py,
devtools/bench_testpmd.py).

A ratio comes from paired repetitions: each repetition measures the ISM
path and its reference back to back (one interleaved pair), and its ratio
is ISM / reference of that pair. The figure is the median of the pairs'
ratios; its interval is a percentile bootstrap of that median over the
pairs: draw as many pairs as were measured, with replacement, take the
median, many times; the interval holds the middle LEVEL of those medians.
Pairs are resampled whole, so what moved both sides of a pair (the host's
load) stays out of the ratio. The random draws are seeded: the same pairs
give the same interval.

A target is met only when the whole interval is on its side of the limit,
not met when the whole interval is on the other side, and undecided when
the interval straddles the limit.
"""

import math
import random

LEVEL = 0.95
RESAMPLES = 2000
SEED = 1


def median(values):
    """Median of values (the mean of the two middle ones for an even
    count); nan for none."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return float("nan")
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def pair_ratios(values, refs):
    """value / ref of each pair; pairs with a missing or non-positive
    reference are left out."""
    return [v / r for v, r in zip(values, refs)
            if v is not None and r is not None and r > 0]


def bootstrap_ci(values, level=LEVEL, resamples=RESAMPLES, seed=SEED,
                 stat=median):
    """(low, high): percentile bootstrap interval of stat over values, or
    None with fewer than 3 values (no interval worth the name)."""
    n = len(values)
    if n < 3:
        return None
    rng = random.Random(seed)
    est = sorted(stat([values[rng.randrange(n)] for _ in range(n)])
                 for _ in range(resamples))
    tail = (1.0 - level) / 2
    lo = est[max(0, math.floor(tail * resamples))]
    hi = est[min(resamples - 1, math.ceil((1.0 - tail) * resamples) - 1)]
    return lo, hi


def ratio_summary(values, refs=None, **kw):
    """(median ratio, interval or None, number of pairs) of paired
    repetitions; refs None: values are the ratios already."""
    ratios = list(values) if refs is None else pair_ratios(values, refs)
    return median(ratios), bootstrap_ci(ratios, **kw), len(ratios)


OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
       ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def verdict(estimate, interval, op, limit):
    """"yes" when the whole interval meets "OP limit", "no" when none of
    it does, "undecided" when it straddles the limit; without an interval,
    the estimate alone decides ("yes"/"no")."""
    test = OPS[op]
    if interval is None:
        return "yes" if test(estimate, limit) else "no"
    lo, hi = interval
    if test(lo, limit) and test(hi, limit):
        return "yes"
    if not test(lo, limit) and not test(hi, limit):
        return "no"
    return "undecided"


def fmt_ci(estimate, interval, nd=2):
    """"1.23 [1.10, 1.31]", or the estimate alone without an interval."""
    if estimate is None or math.isnan(estimate):
        return "-"
    if interval is None:
        return f"{estimate:.{nd}f}"
    return (f"{estimate:.{nd}f} [{interval[0]:.{nd}f}, "
            f"{interval[1]:.{nd}f}]")
