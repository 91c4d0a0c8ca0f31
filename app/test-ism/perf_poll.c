/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Signal poll cost with N registered DMBs of which one is signalled.
 * One receiver device per point holds N DMBs; device A moves 64 B with
 * signal into the last of them (the highest index, the worst place for a
 * scanning poll) and the receiver polls. Blocks of "move+signal, poll" and
 * of "move+signal" alone alternate; the poll's cost is their difference. A
 * poll with nothing pending is timed too. Every repetition measures all
 * points back to back; the reference of every figure is the same figure
 * with the first point's number of DMBs (1) in the same repetition: flat
 * means ratio 1.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "perf.h"

#define POLL_MSG	64

struct poll_ctx {
	uint16_t a, b;			/* writer, receiver */
	uint64_t token;			/* the signalled DMB */
	uint32_t idx;
	const uint8_t *msg;
};

/* The receiver of point p, with its DMBs. */
struct poll_rx {
	char name[32];
	bool created;
	uint64_t *tokens;
	unsigned int nb;
};

static __rte_noinline int
time_raise_poll(const struct poll_ctx *x, uint64_t k, uint64_t *cycles)
{
	struct rte_ism_signal sig[8];
	uint64_t i, t0, got = 0;
	int ret = 0, n;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < k; i++) {
		ret |= rte_ism_move_data(x->a, x->token, 0, 1, 0, x->msg,
				POLL_MSG);
		n = rte_ism_signal_poll(x->b, sig, RTE_DIM(sig));
		got += n == 1 && sig[0].dmb_idx == x->idx;
	}
	*cycles = rte_rdtsc_precise() - t0;
	return ret != 0 ? ret : got == k ? 0 : -EIO;
}

static __rte_noinline int
time_raise(const struct poll_ctx *x, uint64_t k, uint64_t *cycles)
{
	struct rte_ism_signal sig[8];
	uint64_t i, t0;
	int ret = 0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < k; i++)
		ret |= rte_ism_move_data(x->a, x->token, 0, 1, 0, x->msg,
				POLL_MSG);
	*cycles = rte_rdtsc_precise() - t0;
	/* The raises coalesce into one signal. */
	if (ret == 0 && rte_ism_signal_poll(x->b, sig, RTE_DIM(sig)) != 1)
		ret = -EIO;
	return ret;
}

static __rte_noinline int
time_empty_poll(const struct poll_ctx *x, uint64_t k, uint64_t *cycles)
{
	struct rte_ism_signal sig[8];
	uint64_t i, t0;
	int got = 0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < k; i++)
		got |= rte_ism_signal_poll(x->b, sig, RTE_DIM(sig));
	*cycles = rte_rdtsc_precise() - t0;
	return got == 0 ? 0 : -EIO;
}

static int
poll_points(const struct perf_case *c, struct poll_ctx *x)
{
	double sig[c->nb_points][c->reps], emp[c->nb_points][c->reps];
	uint64_t k = c->amount, c_both, c_raise, c_empty;
	unsigned int p, r;
	int ret = 0;

	for (p = 0; p < c->nb_points; p++)
		ret |= time_raise_poll(&x[p], RTE_MIN(k, 1000u), &c_both);
	for (r = 0; r < c->reps && ret == 0; r++) {
		for (p = 0; p < c->nb_points && ret == 0; p++) {
			ret = time_raise_poll(&x[p], k, &c_both);
			ret = ret ? ret : time_raise(&x[p], k, &c_raise);
			ret = ret ? ret : time_empty_poll(&x[p], k, &c_empty);
			sig[p][r] = (perf_ns(c_both) - perf_ns(c_raise)) / k;
			emp[p][r] = perf_ns(c_empty) / k;
		}
	}
	if (ret != 0) {
		printf("  %s\n", ret == -EIO ?
		       "the poll did not return the one signal" :
		       strerror(-ret));
		return PERF_FAIL;
	}
	for (p = 0; p < c->nb_points; p++) {
		perf_emit_paired(c, c->points[p], "poll_1_signalled", "ns",
				 sig[p], "same_with_1st", sig[0], c->reps);
		perf_emit_paired(c, c->points[p], "poll_none_pending", "ns",
				 emp[p], "same_with_1st", emp[0], c->reps);
	}
	return PERF_OK;
}

/* Create the receiver of a point and register its DMBs for gid_a. */
static int
rx_setup(struct poll_rx *rx, unsigned int p, uint64_t nb,
		const struct rte_ism_gid *gid_a, struct poll_ctx *x)
{
	struct rte_ism_dev_info info;
	struct rte_ism_dmb dmb;
	char args[32];

	snprintf(rx->name, sizeof(rx->name), "ism_lo_poll_rx%u", p);
	snprintf(args, sizeof(args), "max_dmbs=%" PRIu64, nb);
	rx->tokens = calloc(nb, sizeof(*rx->tokens));
	if (rx->tokens == NULL ||
	    perf_vdev_create(rx->name, args, &x->b, &info) < 0)
		return -1;
	rx->created = true;
	for (rx->nb = 0; rx->nb < nb; rx->nb++) {
		if (perf_dmb_register(x->b, POLL_MSG, gid_a, &dmb) < 0)
			return -1;
		rx->tokens[rx->nb] = dmb.token;
		/* The first DMB is the signalled one at every point, so that
		 * only the number of unsignalled DMBs changes.
		 */
		if (rx->nb == 0) {
			x->token = dmb.token;
			x->idx = dmb.idx;
		}
	}
	return 0;
}

static int
poll_run(const struct perf_case *c)
{
	static const uint8_t msg[POLL_MSG];
	struct poll_ctx x[PERF_MAX_POINTS] = { 0 };
	struct poll_rx rx[PERF_MAX_POINTS] = { 0 };
	struct rte_ism_dev_info ia;
	unsigned int p;
	uint16_t a;
	int ret = PERF_FAIL;

	if (perf_vdev_create("ism_lo_poll_tx", NULL, &a, &ia) < 0)
		return PERF_FAIL;
	for (p = 0; p < c->nb_points; p++) {
		x[p].a = a;
		x[p].msg = msg;
		if (rx_setup(&rx[p], p, c->points[p], &ia.gid, &x[p]) < 0)
			goto out;
	}
	ret = poll_points(c, x);
out:
	for (p = 0; p < c->nb_points; p++) {
		perf_unregister_all(x[p].b, rx[p].tokens, rx[p].nb, a);
		if (rx[p].created)
			perf_vdev_remove(rx[p].name);
		free(rx[p].tokens);
	}
	perf_vdev_remove("ism_lo_poll_tx");
	return ret;
}

const struct perf_type perf_type_poll = {
	.name = "poll",
	.title = "signal poll cost vs number of registered DMBs",
	.param = "nb_dmbs",
	.amount_key = "iters",		/* polls per series, point and rep */
	.amount_default = 1000000,
	.amount_smoke = 1000,
	.min_lcores = 1,
	.run = poll_run,
};
