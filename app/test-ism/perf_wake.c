/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The interrupt mode (rte_ism.h, "Waiting without spinning"), two lcores
 * of one process over loopback devices:
 *
 * - what it costs a poller: the polling round trip (move 64 B + signal,
 *   the peer polls and answers, as the latency case) on two devices whose
 *   wake-ups were armed and disarmed before each block, against the same
 *   on two devices that never used the mode: the writers then read an
 *   armed flag that says "polling", which must cost nothing (ratio 1);
 * - what waking costs: the round trip of two sides that each sleep in
 *   epoll_wait() on their device's wake-up descriptor until the other's
 *   signal wakes them (arm, re-check, sleep, disarm, poll, answer),
 *   against a plain eventfd ping-pong between the same two cores, each
 *   side asleep in epoll_wait() on its eventfd until the other writes it.
 *
 * Blocks of the four kinds alternate within each repetition; every figure
 * is the median over repetitions of the per-repetition medians, with the
 * ratio to its reference measured in the same repetition.
 */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include <rte_launch.h>
#include <rte_lcore.h>

#include <ism_compat.h>

#include "perf.h"

#define WAKE_DMB_LEN	4096
#define WAKE_DEADLINE_S	60

/* Two devices, each with a DMB the other writes; each side's epoll set
 * holds its device's wake-up descriptor.
 */
struct wake_pair {
	char name[2][32];
	uint16_t dev[2];
	struct rte_ism_dmb dmb[2];	/* dmb[i] on dev[i], written by 1-i */
	int ep[2];
};

enum { K_POLL_NEVER, K_POLL_ARMED, K_WAKE, K_EFD, K_NB };

struct wake_ctx {
	struct wake_pair never, armed;
	int efd[2];			/* efd[i]: side i sleeps on it */
	int efd_ep[2];
	unsigned int lcore;		/* side 1 */
	/* Block of the responder (side 1). */
	unsigned int kind;
	uint32_t size;
	uint64_t n;
	RTE_ATOMIC(uint32_t) ready;
};

/* Side i of pair p waits for its signal: polls, or sleeps. */
static int
wait_poll(const struct wake_pair *p, int i, uint64_t deadline)
{
	return perf_wait_signal(p->dev[i], p->dmb[i].idx, deadline);
}

static bool
found(const struct wake_pair *p, int i)
{
	struct rte_ism_signal sig[4];
	int n, k;

	n = rte_ism_signal_poll(p->dev[i], sig, RTE_DIM(sig));
	for (k = 0; k < n; k++)
		if (sig[k].dmb_idx == p->dmb[i].idx)
			return true;
	return false;
}

/* Arm, re-check, sleep, disarm, poll; again after a spurious wake-up. */
static int
wait_sleep(const struct wake_pair *p, int i, uint64_t deadline)
{
	struct epoll_event ev;
	bool hit;

	while (rte_rdtsc() < deadline) {
		if (rte_ism_intr_enable(p->dev[i]) != 0)
			return -1;
		hit = found(p, i);
		if (!hit && epoll_wait(p->ep[i], &ev, 1,
				       WAKE_DEADLINE_S * 1000) < 0)
			return -1;
		rte_ism_intr_disable(p->dev[i]);
		if (hit || found(p, i))
			return 0;
	}
	return -1;
}

static int
efd_wait(int efd, int ep)
{
	struct epoll_event ev;
	uint64_t v;

	if (epoll_wait(ep, &ev, 1, WAKE_DEADLINE_S * 1000) != 1)
		return -1;
	return read(efd, &v, sizeof(v)) == sizeof(v) ? 0 : -1;
}

static int
efd_post(int efd)
{
	uint64_t one = 1;

	return write(efd, &one, sizeof(one)) == sizeof(one) ? 0 : -1;
}

static const struct wake_pair *
pair_of(const struct wake_ctx *x, unsigned int kind)
{
	return kind == K_POLL_NEVER ? &x->never : &x->armed;
}

/* One exchange of side `me`: send (unless it answers), then wait. */
static int
side_send(const struct wake_ctx *x, unsigned int kind, int me,
		const uint64_t *msg)
{
	const struct wake_pair *p = pair_of(x, kind);

	if (kind == K_EFD)
		return efd_post(x->efd[1 - me]);
	return rte_ism_move_data(p->dev[me], p->dmb[1 - me].token, 0, 1, 0,
			msg, x->size);
}

static int
side_wait(const struct wake_ctx *x, unsigned int kind, int me,
		uint64_t deadline)
{
	const struct wake_pair *p = pair_of(x, kind);

	switch (kind) {
	case K_EFD:
		return efd_wait(x->efd[me], x->efd_ep[me]);
	case K_WAKE:
		return wait_sleep(p, me, deadline);
	default:
		return wait_poll(p, me, deadline);
	}
}

static int
responder(void *arg)
{
	struct wake_ctx *x = arg;
	uint64_t msg[WAKE_DMB_LEN / 8] = { 0 }, k;
	uint64_t deadline = perf_deadline(WAKE_DEADLINE_S);

	rte_atomic_store_explicit(&x->ready, 1, rte_memory_order_release);
	for (k = 0; k < x->n; k++) {
		if (side_wait(x, x->kind, 1, deadline) < 0) {
			printf("  %s: nothing for round trip %" PRIu64 "\n",
			       __func__, k);
			return PERF_FAIL;
		}
		msg[0] = k;
		if (side_send(x, x->kind, 1, msg) < 0)
			return PERF_FAIL;
	}
	return PERF_OK;
}

/* n + 1 round trips of kind, the first untimed. */
static int
block(struct wake_ctx *x, unsigned int kind, uint32_t size, uint64_t n,
		double *ns)
{
	uint64_t msg[WAKE_DMB_LEN / 8] = { 0 }, k, prev = 0, now, spins = 0;
	uint64_t deadline = perf_deadline(WAKE_DEADLINE_S);
	int ret = PERF_OK, i;

	if (kind == K_POLL_ARMED)
		/* The mode used before: flags written, descriptors there. */
		for (i = 0; i < 2; i++)
			if (rte_ism_intr_enable(x->armed.dev[i]) != 0 ||
			    rte_ism_intr_disable(x->armed.dev[i]) != 0)
				return PERF_FAIL;
	x->kind = kind;
	x->size = size;
	x->n = n + 1;
	x->ready = 0;
	if (rte_eal_remote_launch(responder, x, x->lcore) < 0) {
		printf("  cannot launch the responder on lcore %u\n",
		       x->lcore);
		return PERF_FAIL;
	}
	while (!rte_atomic_load_explicit(&x->ready, rte_memory_order_acquire))
		if (perf_expired(deadline, &spins))
			break;
	for (k = 0; k <= n && ret == PERF_OK; k++) {
		msg[0] = k;
		if (side_send(x, kind, 0, msg) < 0 ||
		    side_wait(x, kind, 0, deadline) < 0) {
			printf("  requester: round trip %" PRIu64 " failed\n",
			       k);
			ret = PERF_FAIL;
			break;
		}
		now = rte_rdtsc();
		if (k > 0)
			ns[k - 1] = perf_ns(now - prev);
		prev = now;
	}
	if (rte_eal_wait_lcore(x->lcore) != PERF_OK)
		ret = PERF_FAIL;
	return ret;
}

/* intr: the wake-up descriptors in epoll sets (never: untouched). */
static int
pair_open(struct wake_pair *p, const char *tag, bool intr)
{
	struct rte_ism_dev_info info[2];
	struct epoll_event ev = { .events = EPOLLIN };
	int i, fd;

	for (i = 0; i < 2; i++) {
		p->ep[i] = -1;
		snprintf(p->name[i], sizeof(p->name[i]), "ism_lo_wake_%s%d",
			 tag, i);
		if (perf_vdev_create(p->name[i], NULL, &p->dev[i],
				     &info[i]) < 0) {
			p->name[i][0] = '\0';
			return -1;
		}
	}
	for (i = 0; i < 2; i++) {
		if (perf_dmb_register(p->dev[i], WAKE_DMB_LEN,
				      &info[1 - i].gid, &p->dmb[i]) < 0)
			return -1;
		if (!intr)
			continue;
		fd = rte_ism_intr_fd_get(p->dev[i]);
		p->ep[i] = epoll_create1(EPOLL_CLOEXEC);
		if (fd < 0 || p->ep[i] < 0 ||
		    epoll_ctl(p->ep[i], EPOLL_CTL_ADD, fd, &ev) < 0) {
			printf("  no wake-up descriptor on %s\n", p->name[i]);
			return -1;
		}
	}
	return 0;
}

static void
pair_close(struct wake_pair *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (p->ep[i] >= 0)
			close(p->ep[i]);
		if (p->dmb[i].token != 0)
			rte_ism_dmb_unregister(p->dev[i], p->dmb[i].token);
	}
	for (i = 0; i < 2; i++)
		if (p->name[i][0] != '\0')
			perf_vdev_remove(p->name[i]);
}

static int
efd_open(struct wake_ctx *x)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int i;

	for (i = 0; i < 2; i++) {
		x->efd[i] = eventfd(0, EFD_CLOEXEC);
		x->efd_ep[i] = epoll_create1(EPOLL_CLOEXEC);
		if (x->efd[i] < 0 || x->efd_ep[i] < 0 ||
		    epoll_ctl(x->efd_ep[i], EPOLL_CTL_ADD, x->efd[i], &ev) < 0)
			return -1;
	}
	return 0;
}

static void
efd_close(struct wake_ctx *x)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (x->efd[i] >= 0)
			close(x->efd[i]);
		if (x->efd_ep[i] >= 0)
			close(x->efd_ep[i]);
	}
}

#define WAKE_MAX_REPS 64u

static int
measure(const struct perf_case *c, struct wake_ctx *x)
{
	uint64_t n = c->amount;
	unsigned int reps = RTE_MIN(c->reps, WAKE_MAX_REPS), p, r, k;
	double med[K_NB][WAKE_MAX_REPS], p99[K_NB];
	double *ns[K_NB] = { NULL };
	int ret = PERF_OK;
	uint32_t size;

	for (k = 0; k < K_NB; k++) {
		ns[k] = malloc(sizeof(double) * n * reps);
		if (ns[k] == NULL)
			ret = PERF_FAIL;
	}
	for (p = 0; p < c->nb_points && ret == PERF_OK; p++) {
		size = c->points[p];
		if (size == 0 || size > WAKE_DMB_LEN) {
			printf("  message size %u: 1 to %u\n", size,
			       WAKE_DMB_LEN);
			ret = PERF_FAIL;
			break;
		}
		for (k = 0; k < K_NB && ret == PERF_OK; k++)	/* warm-up */
			ret = block(x, k, size, RTE_MIN(n, 200u), ns[k]);
		for (r = 0; r < reps && ret == PERF_OK; r++)
			for (k = 0; k < K_NB && ret == PERF_OK; k++) {
				ret = block(x, k, size, n, ns[k] + r * n);
				if (ret == PERF_OK)
					med[k][r] = perf_quantile(ns[k] + r * n,
							n, 0.5);
			}
		if (ret != PERF_OK)
			break;
		for (k = 0; k < K_NB; k++)
			p99[k] = perf_quantile(ns[k], n * reps, 0.99);
		perf_emit_paired(c, size, "poll_rtt_intr_ready", "ns",
				 med[K_POLL_ARMED], "poll_rtt_never_armed",
				 med[K_POLL_NEVER], reps);
		perf_emit(c, size, "poll_rtt_intr_ready", "p99", "ns",
			  p99[K_POLL_ARMED], "poll_rtt_never_armed",
			  p99[K_POLL_NEVER], p99[K_POLL_ARMED] /
			  p99[K_POLL_NEVER]);
		perf_emit_paired(c, size, "wake_rtt", "ns", med[K_WAKE],
				 "eventfd_rtt", med[K_EFD], reps);
		perf_emit(c, size, "wake_rtt", "p99", "ns", p99[K_WAKE],
			  "eventfd_rtt", p99[K_EFD], p99[K_WAKE] / p99[K_EFD]);
	}
	for (k = 0; k < K_NB; k++)
		free(ns[k]);
	return ret;
}

static int
wake_run(const struct perf_case *c)
{
	struct wake_ctx *x;
	int ret = PERF_FAIL;

	if (strcmp(c->backend, "ism_lo") != 0) {
		printf("  backend %s: this case runs on ism_lo only\n",
		       c->backend);
		return PERF_FAIL;
	}
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return PERF_FAIL;
	x->efd[0] = x->efd[1] = x->efd_ep[0] = x->efd_ep[1] = -1;
	x->lcore = rte_get_next_lcore(-1, 1, 0);
	if (pair_open(&x->never, "n", false) < 0 ||
	    pair_open(&x->armed, "a", true) < 0 ||
	    efd_open(x) < 0)
		goto out;
	printf("  requester: lcore %u (cpu %u), responder: lcore %u (cpu %u)"
	       "\n", rte_lcore_id(), rte_lcore_to_cpu_id(rte_lcore_id()),
	       x->lcore, rte_lcore_to_cpu_id(x->lcore));
	ret = measure(c, x);
out:
	efd_close(x);
	pair_close(&x->armed);
	pair_close(&x->never);
	free(x);
	return ret;
}

const struct perf_type perf_type_wake = {
	.name = "wake",
	.title = "interrupt mode: polling round trip, wake-up round trip vs "
		 "eventfd ping-pong",
	.param = "size",
	.amount_key = "rtts",		/* timed round trips per kind and rep */
	.amount_default = 20000,
	.amount_smoke = 100,
	.min_lcores = 2,
	.run = wake_run,
};
