/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Helpers of the perf cases: the result rows (CSV into the pipe to the perf
 * mode, a table on stdout), statistics, timing and device set-up.
 */

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>

#include "perf.h"

FILE *perf_results;

void
perf_begin(const struct perf_case *c)
{
	printf("  %10s  %-20s %-6s %10s %-10s %-16s %10s %7s\n",
	       c->type->param, "series", "stat", "value", "unit", "reference",
	       "ref value", "ratio");
}

void
perf_emit(const struct perf_case *c, uint64_t x, const char *series,
		const char *stat, const char *unit, double value,
		const char *reference, double ref_value, double ratio)
{
	char ref[32] = "", rv[32] = "", ra[32] = "";

	if (reference != NULL) {
		snprintf(ref, sizeof(ref), "%s", reference);
		snprintf(rv, sizeof(rv), "%.6g", ref_value);
		snprintf(ra, sizeof(ra), "%.4f", ratio);
	}
	if (perf_results != NULL)
		fprintf(perf_results, "%s,%s,%s,%s,%" PRIu64 ",%s,%s,%s,%.6g,"
			"%s,%s,%s\n", c->name, c->type->name, c->backend,
			c->type->param, x, series, stat, unit, value, ref, rv,
			ra);
	if (reference != NULL)
		printf("  %10" PRIu64 "  %-20s %-6s %10.2f %-10s %-16s %10.2f "
		       "%7.3f\n", x, series, stat, value, unit, reference,
		       ref_value, ratio);
	else
		printf("  %10" PRIu64 "  %-20s %-6s %10.2f %-10s\n", x, series,
		       stat, value, unit);
	fflush(stdout);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double
perf_quantile(double *v, size_t n, double q)
{
	size_t i;

	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	/* Nearest rank: the smallest value with at least q of all at or
	 * below it.
	 */
	i = (size_t)ceil(q * n);
	return v[i > 0 ? i - 1 : 0];
}

double
perf_median(const double *v, unsigned int n)
{
	double tmp[n > 0 ? n : 1];

	if (n == 0)
		return NAN;
	memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
}

void
perf_emit_paired(const struct perf_case *c, uint64_t x, const char *series,
		const char *unit, const double *val, const char *reference,
		const double *ref, unsigned int n)
{
	double ratio[n > 0 ? n : 1];
	unsigned int r;

	for (r = 0; r < n; r++)
		ratio[r] = val[r] / ref[r];
	perf_emit(c, x, series, "median", unit, perf_median(val, n),
		  reference, perf_median(ref, n), perf_median(ratio, n));
	perf_emit_reps(c, x, series, unit, val, reference, ref, n);
	perf_emit_spread(c, x, reference, ref, n);
}

void
perf_emit_na(const struct perf_case *c, uint64_t x, const char *series,
		const char *why)
{
	if (perf_results != NULL)
		fprintf(perf_results, "%s,%s,%s,%s,%" PRIu64 ",%s,n/a,-,nan,,,"
			"\n", c->name, c->type->name, c->backend,
			c->type->param, x, series);
	printf("  %10" PRIu64 "  %-28s n/a (%s)\n", x, series, why);
	fflush(stdout);
}

void
perf_emit_reps(const struct perf_case *c, uint64_t x, const char *series,
		const char *unit, const double *val, const char *reference,
		const double *ref, unsigned int n)
{
	unsigned int r;

	/* Into the CSV only: the table shows the medians. */
	if (perf_results == NULL)
		return;
	for (r = 0; r < n; r++)
		fprintf(perf_results, "%s,%s,%s,%s,%" PRIu64 ",%s,rep,%s,%.6g,"
			"%s,%.6g,%.6g\n", c->name, c->type->name, c->backend,
			c->type->param, x, series, unit, val[r], reference,
			ref[r], ref[r] > 0 ? val[r] / ref[r] : 0.0);
}

void
perf_emit_spread(const struct perf_case *c, uint64_t x, const char *reference,
		const double *ref, unsigned int n)
{
	double lo, hi, med;
	unsigned int r;

	if (n < 2)
		return;
	lo = hi = ref[0];
	for (r = 1; r < n; r++) {
		lo = RTE_MIN(lo, ref[r]);
		hi = RTE_MAX(hi, ref[r]);
	}
	med = perf_median(ref, n);
	if (med > 0)
		perf_emit(c, x, reference, "spread", "rel", (hi - lo) / med,
			  NULL, 0, 0);
}

double
perf_ns(uint64_t cycles)
{
	return (double)cycles * 1e9 / rte_get_tsc_hz();
}

double
perf_rdtsc_ns(void)
{
	double trial[9];
	uint64_t t0, sink = 0;
	unsigned int t, i;

	for (t = 0; t < RTE_DIM(trial); t++) {
		t0 = rte_rdtsc_precise();
		for (i = 0; i < 1000; i++)
			sink += rte_rdtsc();
		trial[t] = perf_ns(rte_rdtsc_precise() - t0) / 1000;
	}
	RTE_SET_USED(sink);
	return perf_median(trial, RTE_DIM(trial));
}

uint64_t
perf_deadline(unsigned int seconds)
{
	return rte_rdtsc() + (uint64_t)seconds * rte_get_tsc_hz();
}

int
perf_vdev_create(const char *name, const char *args, uint16_t *dev_id,
		struct rte_ism_dev_info *info)
{
	int ret = rte_vdev_init(name, args);

	if (ret == -1) {
		/* What rte_vdev_init() returns (22.11) when no driver
		 * matches the name; our drivers' probes return -errno.
		 */
		return -ENOTSUP;
	}
	if (ret < 0) {
		printf("  cannot create %s,%s: %s\n", name,
		       args != NULL ? args : "", strerror(-ret));
		return ret;
	}
	ret = rte_ism_get_dev_id(name);
	if (ret < 0 || rte_ism_info_get(ret, info) < 0) {
		printf("  %s is not an ISM device\n", name);
		rte_vdev_uninit(name);
		return -ENODEV;
	}
	*dev_id = ret;
	return 0;
}

void
perf_vdev_remove(const char *name)
{
	rte_vdev_uninit(name);
}

int
perf_dmb_register(uint16_t dev, uint32_t len, const struct rte_ism_gid *rgid,
		struct rte_ism_dmb *dmb)
{
	int ret;

	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	dmb->rgid = *rgid;
	ret = rte_ism_dmb_register(dev, dmb);
	if (ret < 0)
		printf("  cannot register a DMB of %u bytes on device %u: %s\n",
		       len, dev, strerror(-ret));
	return ret;
}

int
perf_connect(uint16_t dev, uint64_t token, unsigned int seconds)
{
	uint64_t deadline = perf_deadline(seconds);
	const uint8_t byte = 0;
	int ret;

	while ((ret = rte_ism_move_data(dev, token, 0, 0, 0, &byte, 1)) != 0 &&
	       rte_rdtsc() < deadline)
		rte_delay_ms(1);
	if (ret != 0)
		printf("  DMB 0x%" PRIx64 " not reachable from device %u after "
		       "%u s: %s\n", token, dev, seconds, strerror(-ret));
	return ret;
}

int
perf_wait_signal(uint16_t dev, uint32_t idx, uint64_t deadline)
{
	struct rte_ism_signal sig[4];
	uint64_t spins = 0;
	int n, i;

	for (;;) {
		n = rte_ism_signal_poll(dev, sig, RTE_DIM(sig));
		for (i = 0; i < n; i++)
			if (sig[i].dmb_idx == idx)
				return 0;
		if (unlikely(n < 0 || perf_expired(deadline, &spins)))
			return -1;
	}
}

void
perf_unregister_all(uint16_t owner, const uint64_t *tokens, unsigned int n,
		uint16_t writer)
{
	struct rte_ism_event ev[32];
	unsigned int i;

	for (i = 0; i < n; i++) {
		rte_ism_dmb_unregister(owner, tokens[i]);
		/* The writer is told about each one: keep its queue empty. */
		while (rte_ism_event_poll(writer, ev, RTE_DIM(ev)) > 0)
			;
	}
}

int
perf_lo_pair_open(struct perf_lo_pair *p, const char *tag, const char *args,
		uint32_t len)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->tx_name, sizeof(p->tx_name), "ism_lo_%s_tx", tag);
	snprintf(p->rx_name, sizeof(p->rx_name), "ism_lo_%s_rx", tag);
	if (perf_vdev_create(p->tx_name, args, &p->tx, &p->itx) < 0) {
		p->tx_name[0] = '\0';
		return -1;
	}
	if (perf_vdev_create(p->rx_name, args, &p->rx, &p->irx) < 0) {
		p->rx_name[0] = '\0';
		return -1;
	}
	if (perf_dmb_register(p->rx, len, &p->itx.gid, &p->dst) < 0 ||
	    perf_dmb_register(p->rx, len, &p->itx.gid, &p->ref) < 0)
		return -1;
	return 0;
}

void
perf_lo_pair_close(struct perf_lo_pair *p)
{
	if (p->dst.token != 0)
		rte_ism_dmb_unregister(p->rx, p->dst.token);
	if (p->ref.token != 0)
		rte_ism_dmb_unregister(p->rx, p->ref.token);
	if (p->rx_name[0] != '\0')
		perf_vdev_remove(p->rx_name);
	if (p->tx_name[0] != '\0')
		perf_vdev_remove(p->tx_name);
}
