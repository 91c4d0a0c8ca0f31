/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Host noise: how much of the wall-clock time do the lcores really run?
 * Each busy lcore spins reading the TSC; a step of more than 1 us between
 * two reads means it was not running (on a VM: the host descheduled the
 * vCPU). Run with one and with two busy lcores: the latency cases keep two
 * busy. Not a ratio: this says how far the other figures can be trusted
 * (below ~97 % they cannot).
 */

#include <rte_launch.h>
#include <rte_lcore.h>

#include "perf.h"

struct noise_job {
	uint64_t ms;
	double ran_pct;
	double max_gap_us;
};

static int
noise_spin(void *arg)
{
	struct noise_job *j = arg;
	uint64_t hz = rte_get_tsc_hz(), us = hz / 1000000;
	uint64_t start, end, prev, t, d, lost = 0, max_gap = 0;

	start = prev = rte_rdtsc();
	end = start + j->ms * hz / 1000;
	while ((t = rte_rdtsc()) < end) {
		d = t - prev;
		if (d > us) {
			lost += d;
			max_gap = RTE_MAX(max_gap, d);
		}
		prev = t;
	}
	j->ran_pct = 100.0 * (1.0 - (double)lost / (prev - start));
	j->max_gap_us = perf_ns(max_gap) / 1e3;
	return 0;
}

static int
noise_run(const struct perf_case *c)
{
	struct noise_job jobs[RTE_MAX_LCORE];
	double ran[c->reps], gap[c->reps];
	unsigned int p, r, busy, i, lcore;

	for (p = 0; p < c->nb_points; p++) {
		busy = c->points[p];
		if (busy > rte_lcore_count()) {
			printf("  %u busy lcores: only %u lcores\n", busy,
			       rte_lcore_count());
			return PERF_SKIP;
		}
		for (r = 0; r < c->reps; r++) {
			lcore = rte_get_main_lcore();
			for (i = 0; i < busy; i++) {
				jobs[i].ms = c->amount;
				if (i > 0) {
					lcore = rte_get_next_lcore(lcore, 1, 0);
					rte_eal_remote_launch(noise_spin,
							&jobs[i], lcore);
				}
			}
			noise_spin(&jobs[0]);
			rte_eal_mp_wait_lcore();
			ran[r] = 100;
			gap[r] = 0;
			for (i = 0; i < busy; i++) {
				ran[r] = RTE_MIN(ran[r], jobs[i].ran_pct);
				gap[r] = RTE_MAX(gap[r], jobs[i].max_gap_us);
			}
		}
		perf_emit(c, busy, "ran_min", "median", "%",
			  perf_median(ran, c->reps), NULL, 0, 0);
		perf_emit(c, busy, "longest_gap", "median", "us",
			  perf_median(gap, c->reps), NULL, 0, 0);
	}
	return PERF_OK;
}

const struct perf_type perf_type_noise = {
	.name = "noise",
	.title = "host noise: share of time busy lcores run",
	.param = "busy_lcores",
	.amount_key = "ms",		/* spin time per point and rep */
	.amount_default = 2000,
	.amount_smoke = 20,
	.min_lcores = 1,
	.run = noise_run,
};
