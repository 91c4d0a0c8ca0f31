/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Round-trip latency: the requester moves a message with signal into the
 * responder's DMB, the responder polls its signals and answers the same
 * way; the requester polls for the answer. Reference: a raw cache-line
 * ping-pong between the same two cores over the same kind of memory, in
 * two layouts: "2line", each side writes its own line and polls the other
 * (the shape of two DMBs, one per direction), and "1line", both bounce one
 * line (the hardware floor). ISM and reference blocks alternate; every
 * round trip is one sample (each includes one rte_rdtsc(), whose cost is
 * reported); median, p99 and p99.9 are over all samples of all reps.
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

int
perf_raw_pong(struct perf_pp_lines *l, bool two_lines, uint64_t n,
		uint64_t deadline)
{
	uint64_t *in = &l->a, *out = two_lines ? &l->b : &l->a;
	uint64_t k, spins = 0;

	for (k = 0; k < n; k++) {
		while (rte_atomic_load_explicit(in, rte_memory_order_acquire) != 2 * k + 1)
			if (unlikely(perf_expired(deadline, &spins)))
				return PERF_FAIL;
		rte_atomic_store_explicit(out, 2 * k + 2, rte_memory_order_release);
	}
	return PERF_OK;
}

static int
raw_ping(struct perf_pp_lines *l, bool two_lines, uint64_t n, double *ns,
		uint64_t deadline)
{
	uint64_t *out = &l->a, *in = two_lines ? &l->b : &l->a;
	uint64_t k, spins = 0, prev = 0, now;

	for (k = 0; k < n + 1; k++) {
		rte_atomic_store_explicit(out, 2 * k + 1, rte_memory_order_release);
		while (rte_atomic_load_explicit(in, rte_memory_order_acquire) != 2 * k + 2)
			if (unlikely(perf_expired(deadline, &spins))) {
				printf("  raw ping-pong: no answer\n");
				return PERF_FAIL;
			}
		now = rte_rdtsc();
		if (k > 0)
			ns[k - 1] = perf_ns(now - prev);
		prev = now;
	}
	return PERF_OK;
}

enum { LAT_ISM, LAT_RAW2, LAT_RAW1, LAT_NB };
/* Repetitions whose spread is reported (more are measured, not judged). */
#define LAT_MAX_REPS 64u
static const char *const lat_what[LAT_NB] = { "ism", "raw2", "raw1" };

/* One block of n timed round trips of kind w. */
static int
lat_block(const struct perf_lat_setup *s, const struct perf_lat_ops *ops,
		unsigned int w, uint32_t size, uint64_t n, double *ns)
{
	uint64_t deadline;
	int ret, ret2;

	/* The responder is idle: lines can be reset. */
	s->lines->a = 0;
	s->lines->b = 0;
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (ops->start(ops->ctx, lat_what[w], size, n + 1) < 0)
		return PERF_FAIL;
	deadline = perf_deadline(LAT_DEADLINE_S);
	if (w == LAT_ISM)
		ret = ism_ping(s, size, n, ns, deadline);
	else
		ret = raw_ping(s->lines, w == LAT_RAW2, n, ns, deadline);
	ret2 = ops->wait(ops->ctx);
	return ret != PERF_OK ? ret : ret2;
}

int
perf_latency_run(const struct perf_case *c, const struct perf_lat_setup *s,
		const struct perf_lat_ops *ops)
{
	static const char *const stat[] = { "median", "p99", "p99.9" };
	static const double q[] = { 0.5, 0.99, 0.999 };
	uint64_t n = c->amount, total = n * c->reps;
	double *ns[LAT_NB], v[LAT_NB][RTE_DIM(q)], rep_med[LAT_MAX_REPS];
	unsigned int p, r, w, i;
	int ret = PERF_OK;
	uint32_t size;

	for (w = 0; w < LAT_NB; w++)
		ns[w] = malloc(sizeof(double) * total);
	if (ns[0] == NULL || ns[1] == NULL || ns[2] == NULL) {
		printf("  no memory for %" PRIu64 " samples\n", total);
		ret = PERF_FAIL;
		goto out;
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
		/* Warm up each kind, then alternate them. */
		for (w = 0; w < LAT_NB && ret == PERF_OK; w++)
			ret = lat_block(s, ops, w, size, RTE_MIN(n, 1000u),
					ns[w]);
		for (r = 0; r < c->reps && ret == PERF_OK; r++)
			for (w = 0; w < LAT_NB && ret == PERF_OK; w++)
				ret = lat_block(s, ops, w, size, n,
						ns[w] + r * n);
		if (ret != PERF_OK)
			break;
		/* The references' medians per repetition: how far they
		 * moved (sorts each block; the quantiles below sort all). */
		for (w = LAT_RAW2; w <= LAT_RAW1; w++) {
			for (r = 0; r < c->reps && r < LAT_MAX_REPS; r++)
				rep_med[r] = perf_quantile(ns[w] + r * n, n,
							   0.5);
			perf_emit_spread(c, size, w == LAT_RAW2 ?
					 "pingpong_2line" : "pingpong_1line",
					 rep_med, RTE_MIN(c->reps,
							  LAT_MAX_REPS));
		}
		for (w = 0; w < LAT_NB; w++)
			for (i = 0; i < RTE_DIM(q); i++)
				v[w][i] = perf_quantile(ns[w], total, q[i]);
		for (i = 0; i < RTE_DIM(q); i++)
			perf_emit(c, size, "move+signal_rtt", stat[i], "ns",
				  v[LAT_ISM][i], "pingpong_2line",
				  v[LAT_RAW2][i], v[LAT_ISM][i] /
				  v[LAT_RAW2][i]);
		for (i = 0; i < RTE_DIM(q); i++)
			perf_emit(c, size, "move+signal_rtt", stat[i], "ns",
				  v[LAT_ISM][i], "pingpong_1line",
				  v[LAT_RAW1][i], v[LAT_ISM][i] /
				  v[LAT_RAW1][i]);
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
	uint32_t ready;
};

static int
lo_resp_main(void *arg)
{
	struct lo_resp *x = arg;
	uint64_t deadline = perf_deadline(LAT_DEADLINE_S);

	rte_atomic_store_explicit(&x->ready, 1, rte_memory_order_release);
	if (strcmp(x->what, "ism") == 0)
		return perf_ism_pong(&x->pong, deadline);
	return perf_raw_pong(x->lines, strcmp(x->what, "raw2") == 0,
			     x->pong.n, deadline);
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
