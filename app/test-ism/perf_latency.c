/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Round-trip latency: the requester moves a message with signal into the
 * responder's DMB, the responder polls its signals and answers the same
 * way; the requester polls for the answer. References: raw cache-line
 * ping-pongs between the same two cores over the same kind of memory
 * (perf_pingpong.c): "2line", each side writes its own line and polls the
 * other (the shape of two DMBs, one per direction), "1line", both bounce
 * one line (the hardware floor), and the kinds that add one step of a
 * signalled move each. ISM and reference blocks alternate; every round
 * trip is one sample (each includes one rte_rdtsc(), whose cost is
 * reported); median, p99 and p99.9 are over all samples of all reps, and
 * every kind's median per repetition is paired with 2line's.
 *
 * The loopback case runs the responder on a second lcore of this process;
 * the shm case (perf_xproc.c) in a peer process.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <ism_compat.h>

#include "perf.h"

#define LAT_DMB_LEN	4096
#define LAT_DEADLINE_S	60

int
perf_ism_pong(const struct perf_pong *p, uint64_t deadline)
{
	uint64_t msg[LAT_DMB_LEN / 8] = { 0 }, k, seq;

	for (k = 1; k <= p->n; k++) {
		if (perf_wait_signal(p->dev, p->idx, deadline) < 0) {
			printf("  responder: no message %" PRIu64 "\n", k);
			return PERF_FAIL;
		}
		seq = *(const volatile uint64_t *)p->dmb;
		if (seq != k) {
			printf("  responder: message %" PRIu64 " carries %"
			       PRIu64 "\n", k, seq);
			return PERF_FAIL;
		}
		msg[0] = k;
		if (rte_ism_move_data(p->dev, p->token, 0, 1, 0, msg,
				      p->size) != 0) {
			printf("  responder: answer %" PRIu64 " failed\n", k);
			return PERF_FAIL;
		}
	}
	return PERF_OK;
}

/* Requester: n + 1 round trips, the first one untimed. */
static int
ism_ping(const struct perf_lat_setup *s, uint32_t size, uint64_t n,
		double *ns, uint64_t deadline)
{
	uint64_t msg[LAT_DMB_LEN / 8] = { 0 }, k, seq, prev = 0, now;

	for (k = 1; k <= n + 1; k++) {
		msg[0] = k;
		if (rte_ism_move_data(s->dev, s->token, 0, 1, 0, msg,
				      size) != 0) {
			printf("  requester: move %" PRIu64 " failed\n", k);
			return PERF_FAIL;
		}
		if (perf_wait_signal(s->dev, s->idx, deadline) < 0) {
			printf("  requester: no answer to %" PRIu64 "\n", k);
			return PERF_FAIL;
		}
		now = rte_rdtsc();
		seq = *(const volatile uint64_t *)s->dmb;
		if (seq != k) {
			printf("  requester: answer %" PRIu64 " carries %"
			       PRIu64 "\n", k, seq);
			return PERF_FAIL;
		}
		if (k > 1)
			ns[k - 2] = perf_ns(now - prev);
		prev = now;
	}
	return PERF_OK;
}

/*
 * The kinds of one round trip, measured in interleaved blocks: ISM, then
 * every raw ping-pong of perf_pingpong.c this CPU can run.
 */
#define LAT_ISM		PERF_PP_NB
#define LAT_NB		(PERF_PP_NB + 1)
/* Repetitions whose medians are reported (more are measured, not judged). */
#define LAT_MAX_REPS 64u

static const char *
lat_what(unsigned int w)
{
	return w == LAT_ISM ? "ism" : perf_pp_what(w);
}

/* One block of n timed round trips of kind w. */
static int
lat_block(const struct perf_lat_setup *s, const struct perf_lat_ops *ops,
		unsigned int w, uint32_t size, uint64_t n, double *ns)
{
	uint64_t deadline;
	int ret, ret2;

	/* The responder is idle: lines can be reset. */
	perf_pp_reset(s->lines);
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (ops->start(ops->ctx, lat_what(w), size, n + 1) < 0)
		return PERF_FAIL;
	deadline = perf_deadline(LAT_DEADLINE_S);
	if (w == LAT_ISM)
		ret = ism_ping(s, size, n, ns, deadline);
	else
		ret = perf_raw_ping(s->lines, w, n, ns, deadline);
	ret2 = ops->wait(ops->ctx);
	return ret != PERF_OK ? ret : ret2;
}

/* Every kind's median of every repetition, then the figures: the ISM
 * round trip's quantiles over all samples against both references (as
 * before the step kinds existed), the paired per-repetition medians of
 * each kind against 2line, and "n/a" for the kinds this CPU cannot run.
 */
static void
lat_emit(const struct perf_case *c, uint32_t size, double *const ns[],
		const bool *run, uint64_t n)
{
	static const char *const stat[] = { "median", "p99", "p99.9" };
	static const double q[] = { 0.5, 0.99, 0.999 };
	unsigned int reps = RTE_MIN(c->reps, LAT_MAX_REPS), r, w, i;
	double med[LAT_NB][LAT_MAX_REPS], v[LAT_NB][RTE_DIM(q)];
	const uint64_t total = n * c->reps;
	const unsigned int ref = PERF_PP_2LINE, one = PERF_PP_1LINE;

	/* Per repetition (sorts each block; the quantiles below sort all). */
	for (w = 0; w < LAT_NB; w++)
		for (r = 0; run[w] && r < reps; r++)
			med[w][r] = perf_quantile(ns[w] + r * n, n, 0.5);
	for (w = 0; w < PERF_PP_NB; w++) {
		if (w == ref || w == one)
			continue;
		if (!run[w]) {
			perf_emit_na(c, size, perf_pp_series(w),
				     "the CPU has no CLDEMOTE");
			continue;
		}
		perf_emit_paired(c, size, perf_pp_series(w), "ns", med[w],
				 perf_pp_series(ref), med[ref], reps);
	}
	perf_emit_spread(c, size, perf_pp_series(one), med[one], reps);
	perf_emit_reps(c, size, perf_pp_series(one), "ns", med[one],
		       perf_pp_series(ref), med[ref], reps);
	perf_emit_reps(c, size, "move+signal_rtt", "ns", med[LAT_ISM],
		       perf_pp_series(ref), med[ref], reps);
	for (w = 0; w < LAT_NB; w++)
		for (i = 0; run[w] && i < RTE_DIM(q); i++)
			v[w][i] = perf_quantile(ns[w], total, q[i]);
	for (i = 0; i < RTE_DIM(q); i++)
		perf_emit(c, size, "move+signal_rtt", stat[i], "ns",
			  v[LAT_ISM][i], perf_pp_series(ref), v[ref][i],
			  v[LAT_ISM][i] / v[ref][i]);
	for (i = 0; i < RTE_DIM(q); i++)
		perf_emit(c, size, "move+signal_rtt", stat[i], "ns",
			  v[LAT_ISM][i], perf_pp_series(one), v[one][i],
			  v[LAT_ISM][i] / v[one][i]);
}

int
perf_latency_run(const struct perf_case *c, const struct perf_lat_setup *s,
		const struct perf_lat_ops *ops)
{
	uint64_t n = c->amount, total = n * c->reps;
	double *ns[LAT_NB] = { NULL };
	bool run[LAT_NB];
	unsigned int p, r, w;
	int ret = PERF_OK;
	uint32_t size;

	for (w = 0; w < LAT_NB; w++) {
		run[w] = w == LAT_ISM || perf_pp_supported(w);
		ns[w] = run[w] ? malloc(sizeof(double) * total) : NULL;
		if (run[w] && ns[w] == NULL) {
			printf("  no memory for %" PRIu64 " samples\n", total);
			ret = PERF_FAIL;
			goto out;
		}
	}
	perf_emit(c, 0, "rdtsc", "median", "ns", perf_rdtsc_ns(), NULL, 0, 0);
	for (p = 0; p < c->nb_points && ret == PERF_OK; p++) {
		size = c->points[p];
		if (size > LAT_DMB_LEN) {
			printf("  message size %u above %u\n", size,
			       LAT_DMB_LEN);
			ret = PERF_FAIL;
			break;
		}
		/* Warm up each kind, then alternate them: every repetition
		 * runs one block of each, so a change of the host's load
		 * moves the ratios of a repetition less than its values.
		 */
		for (w = 0; w < LAT_NB && ret == PERF_OK; w++)
			if (run[w])
				ret = lat_block(s, ops, w, size,
						RTE_MIN(n, 1000u), ns[w]);
		for (r = 0; r < c->reps && ret == PERF_OK; r++)
			for (w = 0; w < LAT_NB && ret == PERF_OK; w++)
				if (run[w])
					ret = lat_block(s, ops, w, size, n,
							ns[w] + r * n);
		if (ret == PERF_OK)
			lat_emit(c, size, ns, run, n);
	}
out:
	for (w = 0; w < LAT_NB; w++)
		free(ns[w]);
	return ret;
}

/* Loopback: the responder on a worker lcore of this process. */
struct lo_resp {
	unsigned int lcore;
	struct perf_pong pong;
	struct perf_pp_lines *lines;
	const char *what;
	RTE_ATOMIC(uint32_t) ready;
};

static int
lo_resp_main(void *arg)
{
	struct lo_resp *x = arg;
	uint64_t deadline = perf_deadline(LAT_DEADLINE_S);

	rte_atomic_store_explicit(&x->ready, 1, rte_memory_order_release);
	if (strcmp(x->what, "ism") == 0)
		return perf_ism_pong(&x->pong, deadline);
	return perf_raw_pong(x->lines, perf_pp_kind_of(x->what), x->pong.n,
			     deadline);
}

static int
lo_start(void *ctx, const char *what, uint32_t size, uint64_t n)
{
	struct lo_resp *x = ctx;
	uint64_t spins = 0, deadline = perf_deadline(LAT_DEADLINE_S);

	x->what = what;
	x->pong.size = size;
	x->pong.n = n;
	x->ready = 0;
	if (rte_eal_remote_launch(lo_resp_main, x, x->lcore) < 0) {
		printf("  cannot launch the responder on lcore %u\n",
		       x->lcore);
		return -1;
	}
	while (!rte_atomic_load_explicit(&x->ready, rte_memory_order_acquire))
		if (perf_expired(deadline, &spins))
			return -1;
	return 0;
}

static int
lo_wait(void *ctx)
{
	struct lo_resp *x = ctx;

	return rte_eal_wait_lcore(x->lcore);
}

static int
latency_run(const struct perf_case *c)
{
	struct rte_ism_dev_info ia, ib;
	struct rte_ism_dmb da = { 0 }, db = { 0 };
	struct perf_lat_setup s = { 0 };
	struct lo_resp x = { 0 };
	struct perf_lat_ops ops = { .ctx = &x, .start = lo_start,
		.wait = lo_wait };
	uint16_t a, b;
	int ret = PERF_FAIL;

	if (strcmp(c->backend, "ism_shm") == 0 ||
	    strcmp(c->backend, "ism_ivshm") == 0)
		return perf_latency_shm(c);
	x.lcore = rte_get_next_lcore(-1, 1, 0);
	s.lines = rte_zmalloc(NULL, sizeof(*s.lines), RTE_CACHE_LINE_SIZE);
	if (s.lines == NULL) {
		printf("  no memory\n");
		return PERF_FAIL;
	}
	if (perf_vdev_create("ism_lo_lat_a", NULL, &a, &ia) < 0)
		goto out_free;
	if (perf_vdev_create("ism_lo_lat_b", NULL, &b, &ib) < 0)
		goto out_a;
	if (perf_dmb_register(a, LAT_DMB_LEN, &ib.gid, &da) < 0 ||
	    perf_dmb_register(b, LAT_DMB_LEN, &ia.gid, &db) < 0)
		goto out;
	printf("  requester: lcore %u (cpu %u), responder: lcore %u (cpu %u)"
	       "\n", rte_lcore_id(), rte_lcore_to_cpu_id(rte_lcore_id()),
	       x.lcore, rte_lcore_to_cpu_id(x.lcore));
	s.dev = a;
	s.token = db.token;
	s.idx = da.idx;
	s.dmb = da.addr;
	x.lines = s.lines;
	x.pong.dev = b;
	x.pong.token = da.token;
	x.pong.idx = db.idx;
	x.pong.dmb = db.addr;
	ret = perf_latency_run(c, &s, &ops);
out:
	if (da.token != 0)
		rte_ism_dmb_unregister(a, da.token);
	if (db.token != 0)
		rte_ism_dmb_unregister(b, db.token);
	perf_vdev_remove("ism_lo_lat_b");
out_a:
	perf_vdev_remove("ism_lo_lat_a");
out_free:
	rte_free(s.lines);
	return ret;
}

const struct perf_type perf_type_latency = {
	.name = "latency",
	.title = "round trip, move+signal and poll vs raw ping-pong",
	.param = "size",
	.amount_key = "rtts",		/* timed round trips per kind and rep */
	.amount_default = 100000,
	.amount_smoke = 200,
	.min_lcores = 2,
	.pre_eal = perf_xproc_pre_eal,
	.run = latency_run,
};
