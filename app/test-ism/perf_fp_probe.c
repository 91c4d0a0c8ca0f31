/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-test-ism-fp-probe: the program the fastpath case of
 * dpdk-test-ism-perf runs under valgrind --tool=callgrind (perf_fastpath.c
 * reads the counts):
 *
 *   dpdk-test-ism-fp-probe [EAL options] -- [--iters N] [--size 1..4096]
 * Each measured loop
 * is a section: the counters are zeroed before it and dumped after it
 * (callgrind client requests), so a dump holds exactly that loop. Every
 * loop runs twice, n and 2n times; the difference divided by n is the
 * exact cost of one iteration, without the set-up around the loop.
 *
 * Loops, all moving size bytes into the same DMB of a loopback device:
 *   nop      a do-nothing function with the driver's signature, called
 *            through a register: the loop and call overhead alone;
 *   direct   the loopback driver's move_data, its address and context
 *            held in registers (read once from the table before the loop):
 *            the cheapest possible call of the driver function; an
 *            indirect call through a register is one instruction, like a
 *            direct call to a symbol (the driver exports none);
 *   wrapper  rte_ism_move_data(dev_id, ...), the inline fast path;
 *   chain    dev->ops->move_data(dev->priv, ...) through a device array,
 *            as older DPDK classes do, with the same driver function;
 *   copy     a function with the driver's signature that only copies
 *            (memcpy() into a DMB): what a move costs at the least;
 *   shm_direct  as direct, with the shm driver (one device writing its
 *            own DMB; skipped when the shm driver cannot be created);
 *   ivshm_direct  the same with the ivshmem driver (one device on a region
 *            file writing its own DMB; skipped when it cannot be created);
 *   burst    rte_ism_move_burst() of PROBE_BURST segments of size bytes,
 *            segment i from src + i * size to offset i * size;
 *   copy_burst  the same copies by PROBE_BURST memcpy() calls through a
 *            function pointer, as the reference of the rate case
 *            (perf_copy.c): per message, what a burst should cost.
 * Signal poll, with nb registered DMBs (1, 64, 1888) of which the last is
 * signalled: raise = move with signal; raise_poll = the same plus
 * rte_ism_signal_poll(). The poll costs the difference.
 *
 * This file reads rte_ism_fp_ops[] directly, which only a measurement
 * should do.
 */

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_string_fns.h>

#include "perf.h"

#ifdef PERF_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(s) RTE_SET_USED(s)
#endif

#define PROBE_MAX_DMBS	1888	/* as the ISM hardware */
#define PROBE_BURST	PERF_FP_BURST	/* segments of the burst loops */
#define PROBE_IVSHM_REGION	(16u << 20)	/* the ivshm device's file */
static const unsigned int probe_nb_dmbs[] = { 1, 64, PROBE_MAX_DMBS };

/* The dev->ops->fn chain, built for comparison. Not static and not
 * const, so that the compiler has to load every link as it would for a
 * real device array.
 */
struct cmp_ops {
	rte_ism_move_data_t move_data;
};
struct cmp_dev {
	const struct cmp_ops *ops;
	void *priv;
};
struct cmp_ops perf_probe_ops;
struct cmp_dev perf_probe_devs[RTE_ISM_MAX_DEVS];

static __rte_noinline int
nop_move(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	RTE_SET_USED(ctx);
	RTE_SET_USED(token);
	RTE_SET_USED(idx);
	RTE_SET_USED(sf);
	RTE_SET_USED(offset);
	RTE_SET_USED(data);
	RTE_SET_USED(len);
	rte_compiler_barrier();
	return 0;
}

/* The copy alone, into the DMB at ctx. */
static __rte_noinline int
copy_move(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	RTE_SET_USED(token);
	RTE_SET_USED(idx);
	RTE_SET_USED(sf);
	memcpy(RTE_PTR_ADD(ctx, offset), data, len);
	return 0;
}

static __rte_noinline int
loop_direct(rte_ism_move_data_t fn, void *ctx, uint64_t token,
		const void *src, uint32_t size, uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		ret |= fn(ctx, token, 0, 0, 0, src, size);
	return ret;
}

/* As the rate case's reference: glibc's memcpy() through a pointer. */
static void *(*volatile probe_memcpy)(void *, const void *, size_t) = memcpy;

static __rte_noinline int
loop_burst(uint16_t dev, uint64_t token, const struct rte_ism_move_seg *segs,
		uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		ret |= rte_ism_move_burst(dev, token, 0, 0, segs, PROBE_BURST);
	return ret;
}

static __rte_noinline int
loop_copy_burst(uint8_t *dst, const uint8_t *src, uint32_t size, uint64_t n)
{
	void *(*copy)(void *, const void *, size_t) = probe_memcpy;
	uint64_t i;
	uint32_t j;

	for (i = 0; i < n; i++)
		for (j = 0; j < PROBE_BURST; j++)
			copy(dst + j * size, src + j * size, size);
	return 0;
}

static __rte_noinline int
loop_wrapper(uint16_t dev, uint64_t token, const void *src, uint32_t size,
		uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		ret |= rte_ism_move_data(dev, token, 0, 0, 0, src, size);
	return ret;
}

static __rte_noinline int
loop_chain(uint16_t dev, uint64_t token, const void *src, uint32_t size,
		uint64_t n)
{
	struct cmp_dev *d = &perf_probe_devs[dev];
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		ret |= d->ops->move_data(d->priv, token, 0, 0, 0, src, size);
	return ret;
}

static __rte_noinline int
loop_raise(uint16_t a, uint64_t token, const void *src, uint32_t size,
		uint64_t n)
{
	uint64_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		ret |= rte_ism_move_data(a, token, 0, 1, 0, src, size);
	return ret;
}

static __rte_noinline int
loop_raise_poll(uint16_t a, uint16_t b, uint64_t token, const void *src,
		uint32_t size, uint64_t n)
{
	struct rte_ism_signal sig[8];
	uint64_t i, got = 0;
	int ret = 0;

	for (i = 0; i < n; i++) {
		ret |= rte_ism_move_data(a, token, 0, 1, 0, src, size);
		got += rte_ism_signal_poll(b, sig, RTE_DIM(sig));
	}
	return ret != 0 ? ret : got == n ? 0 : -EIO;
}

/* Clear the coalesced signal the raise loop left. */
static int
clear_signal(uint16_t b)
{
	struct rte_ism_signal sig[8];

	return rte_ism_signal_poll(b, sig, RTE_DIM(sig)) == 1 ? 0 : -EIO;
}

struct probe {
	uint16_t a, b;
	uint64_t token;		/* DMB on b written by a */
	const void *src;
	uint32_t size;
	rte_ism_move_data_t fn;	/* the driver's, from the table */
	void *ctx;
	void *dmb_addr;		/* of token */
	/* shm: a device writing its own DMB (fn NULL: no shm). */
	rte_ism_move_data_t shm_fn;
	void *shm_ctx;
	uint64_t shm_token;
	/* ivshm: the same (fn NULL: no ivshm). */
	rte_ism_move_data_t ivshm_fn;
	void *ivshm_ctx;
	uint64_t ivshm_token;
	/* The burst loops: a DMB of PROBE_BURST * size bytes on b. */
	uint64_t burst_token;
	void *burst_addr;
	const uint8_t *burst_src;
	struct rte_ism_move_seg segs[PROBE_BURST];
};

/* Run one loop in a section named NAME:n. */
#define SECTION(name, n, expr) do { \
	char s_[64]; \
	snprintf(s_, sizeof(s_), "%s:%" PRIu64, name, (uint64_t)(n)); \
	CALLGRIND_ZERO_STATS; \
	ret |= (expr); \
	CALLGRIND_DUMP_STATS_AT(s_); \
} while (0)

static int
probe_moves(const struct probe *p, uint64_t n)
{
	int ret = 0;

	SECTION("nop", n, loop_direct(nop_move, p->ctx, p->token, p->src,
				      p->size, n));
	SECTION("direct", n, loop_direct(p->fn, p->ctx, p->token, p->src,
					 p->size, n));
	SECTION("wrapper", n, loop_wrapper(p->a, p->token, p->src, p->size,
					   n));
	SECTION("chain", n, loop_chain(p->a, p->token, p->src, p->size, n));
	SECTION("copy", n, loop_direct(copy_move, p->dmb_addr, p->token,
				       p->src, p->size, n));
	if (p->shm_fn != NULL)
		SECTION("shm_direct", n, loop_direct(p->shm_fn, p->shm_ctx,
						     p->shm_token, p->src,
						     p->size, n));
	if (p->ivshm_fn != NULL)
		SECTION("ivshm_direct", n, loop_direct(p->ivshm_fn,
						       p->ivshm_ctx,
						       p->ivshm_token, p->src,
						       p->size, n));
	SECTION("burst", n, loop_burst(p->a, p->burst_token, p->segs, n));
	SECTION("copy_burst", n, loop_copy_burst(p->burst_addr, p->burst_src,
						 p->size, n));
	return ret;
}

static int
probe_poll(const struct probe *p, uint64_t token, unsigned int nb, uint64_t n)
{
	char name[32];
	int ret = 0;

	snprintf(name, sizeof(name), "raise_%u", nb);
	SECTION(name, n, loop_raise(p->a, token, p->src, p->size, n));
	ret |= clear_signal(p->b);
	snprintf(name, sizeof(name), "raise_poll_%u", nb);
	SECTION(name, n, loop_raise_poll(p->a, p->b, token, p->src, p->size,
					 n));
	return ret;
}

static int
probe_run(struct probe *p, uint64_t n, const struct rte_ism_gid *gid_a)
{
	static uint64_t tokens[PROBE_MAX_DMBS];
	struct rte_ism_dmb dmb;
	unsigned int i, nb = 0;
	uint64_t token = 0;
	int ret;

	/* Warm-up (lazy binding, first touch), then n and 2n. */
	ret = probe_moves(p, n);
	ret |= probe_moves(p, n);
	ret |= probe_moves(p, 2 * n);
	for (i = 0; i < RTE_DIM(probe_nb_dmbs) && ret == 0; i++) {
		for (; nb < probe_nb_dmbs[i] && ret == 0; nb++) {
			ret = perf_dmb_register(p->b, p->size, gid_a, &dmb);
			tokens[nb] = dmb.token;
		}
		/* Always the same DMB (the first) is signalled, so that only
		 * the number of unsignalled ones changes between points.
		 */
		token = tokens[0];
		ret |= probe_poll(p, token, nb, n);
		ret |= probe_poll(p, token, nb, n);
		ret |= probe_poll(p, token, nb, 2 * n);
	}
	perf_unregister_all(p->b, tokens, nb, p->a);
	return ret;
}

/* The shm device of the shm_direct loop and its rendezvous directory. */
struct probe_shm {
	char dir[32];
	uint16_t dev;
	bool created;
	struct rte_ism_dmb dmb;
};

/* Best effort: without it the shm loop is not run (and reported so). */
static void
probe_shm_open(struct probe *p, struct probe_shm *s)
{
	struct rte_ism_dev_info info;
	char args[96];

	strlcpy(s->dir, "/tmp/ism-fp-probe-XXXXXX", sizeof(s->dir));
	if (mkdtemp(s->dir) == NULL) {
		s->dir[0] = '\0';
		return;
	}
	snprintf(args, sizeof(args), "dir=%s", s->dir);
	if (perf_vdev_create("ism_shm_probe", args, &s->dev, &info) < 0)
		return;
	s->created = true;
	if (perf_dmb_register(s->dev, p->size, &info.gid, &s->dmb) < 0)
		return;
	p->shm_token = s->dmb.token;
	p->shm_fn = rte_ism_fp_ops[s->dev].move_data;
	p->shm_ctx = rte_ism_fp_ops[s->dev].dev_private;
}

static void
probe_shm_close(struct probe_shm *s, const char *name)
{
	char region[64];

	if (s->dmb.token != 0)
		rte_ism_dmb_unregister(s->dev, s->dmb.token);
	if (s->created)
		perf_vdev_remove(name);
	if (s->dir[0] != '\0') {
		/* The ivshmem region outlives its members. */
		snprintf(region, sizeof(region), "%s/region", s->dir);
		unlink(region);
		rmdir(s->dir);
	}
}

/* The ivshmem device of the ivshm_direct loop, on a region file of its
 * own; best effort, as shm.
 */
static void
probe_ivshm_open(struct probe *p, struct probe_shm *s)
{
	struct rte_ism_dev_info info;
	char args[128];

	strlcpy(s->dir, "/tmp/ism-fp-ivshm-XXXXXX", sizeof(s->dir));
	if (mkdtemp(s->dir) == NULL) {
		s->dir[0] = '\0';
		return;
	}
	snprintf(args, sizeof(args), "path=%s/region,size=%u", s->dir,
		 PROBE_IVSHM_REGION);
	if (perf_vdev_create("ism_ivshm_probe", args, &s->dev, &info) < 0)
		return;
	s->created = true;
	if (perf_dmb_register(s->dev, p->size, &info.gid, &s->dmb) < 0)
		return;
	p->ivshm_token = s->dmb.token;
	p->ivshm_fn = rte_ism_fp_ops[s->dev].move_data;
	p->ivshm_ctx = rte_ism_fp_ops[s->dev].dev_private;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iters", required_argument, NULL, 'i' },
		{ "size", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct rte_ism_dev_info ia, ib;
	struct rte_ism_dmb dmb = { 0 }, bdmb = { 0 };
	struct probe p = { 0 };
	uint8_t *bsrc = NULL;
	unsigned int i;
	struct probe_shm shm = { .dir = "" }, ivshm = { .dir = "" };
	uint64_t n = 10000;
	void *src = NULL;
	char args[32];
	int c, ret = 1;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	ret = 1;
	p.size = 64;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'i')
			n = strtoull(optarg, NULL, 0);
		else if (c == 's')
			p.size = strtoul(optarg, NULL, 0);
		else
			n = 0;
	}
	if (n == 0 || p.size == 0 || p.size > 4096 || optind != argc) {
		printf("usage: dpdk-test-ism-fp-probe [EAL options] -- "
		       "[--iters N] [--size 1..4096]\n");
		ret = 2;
		goto out_eal;
	}
	if (perf_vdev_create("ism_lo_probe_a", NULL, &p.a, &ia) < 0)
		goto out_eal;
	/* Two DMBs for the moves (one, burst), then PROBE_MAX_DMBS for the
	 * poll.
	 */
	snprintf(args, sizeof(args), "max_dmbs=%u", PROBE_MAX_DMBS + 2);
	if (perf_vdev_create("ism_lo_probe_b", args, &p.b, &ib) < 0)
		goto out_a;
	if (perf_dmb_register(p.b, p.size, &ia.gid, &dmb) < 0)
		goto out;
	src = rte_zmalloc(NULL, p.size, RTE_CACHE_LINE_SIZE);
	if (src == NULL)
		goto out;
	p.src = src;
	p.token = dmb.token;
	p.fn = rte_ism_fp_ops[p.a].move_data;
	p.ctx = rte_ism_fp_ops[p.a].dev_private;
	perf_probe_ops.move_data = p.fn;
	perf_probe_devs[p.a].ops = &perf_probe_ops;
	perf_probe_devs[p.a].priv = p.ctx;

	p.dmb_addr = dmb.addr;
	if (perf_dmb_register(p.b, PROBE_BURST * p.size, &ia.gid, &bdmb) < 0)
		goto out;
	bsrc = rte_zmalloc(NULL, PROBE_BURST * p.size, RTE_CACHE_LINE_SIZE);
	if (bsrc == NULL)
		goto out;
	p.burst_token = bdmb.token;
	p.burst_addr = bdmb.addr;
	p.burst_src = bsrc;
	for (i = 0; i < PROBE_BURST; i++) {
		p.segs[i].offset = i * p.size;
		p.segs[i].data = bsrc + i * p.size;
		p.segs[i].len = p.size;
	}
	probe_shm_open(&p, &shm);
	probe_ivshm_open(&p, &ivshm);

	ret = probe_run(&p, n, &ia.gid) == 0 ? 0 : 1;
	printf("dpdk-test-ism-fp-probe: %s\n",
	       ret == 0 ? "done" : "a move failed");
	probe_shm_close(&ivshm, "ism_ivshm_probe");
	probe_shm_close(&shm, "ism_shm_probe");
out:
	rte_free(src);
	rte_free(bsrc);
	if (bdmb.token != 0)
		rte_ism_dmb_unregister(p.b, bdmb.token);
	if (dmb.token != 0)
		rte_ism_dmb_unregister(p.b, dmb.token);
	perf_vdev_remove("ism_lo_probe_b");
out_a:
	perf_vdev_remove("ism_lo_probe_a");
out_eal:
	rte_eal_cleanup();
	return ret;
}
