/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Copy cases.
 *
 * copy: rte_ism_move_data() throughput per size, against rte_memcpy() and
 *   libc memcpy() of the same sizes from the same source into a second DMB
 *   of the same backend (the same kind of memory, same length, same walk).
 *   Each copy goes to the next offset of the DMB, wrapping at its end, as
 *   a ring would; the source stays the same buffer.
 * rate: small messages (64 B), messages per second of move_data with and
 *   without signal and of move_burst (burst = the swept parameter, one
 *   signal per burst), against a plain memcpy loop of the same messages.
 *   The signalled moves also against the floor of a signalled move
 *   without ISM: the same memcpy loop plus one store into a flag line of
 *   its own per call (line_flag_loop), what a signal is at the least (a
 *   raise is one line of the owner's SBA), and the same loop with one
 *   atomic OR into that line instead (line_rmw_loop), what a signal that
 *   several writers share and nobody may miss costs at the least (the
 *   raise is such an OR). Nobody polls the signals: this is the sender's
 *   cost.
 *
 * GB/s are 1e9 bytes per second; Mops/s are 1e6 messages per second.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>

#include <ism_compat.h>

#include "perf.h"

#define COPY_MIN_DMB	(1u << 20)
#define COPY_MIN_OPS	16
#define RATE_MSG	64
#define RATE_WINDOW	(32u << 10)	/* a ring that stays in L1 */
#define RATE_MAX_BURST	(RATE_WINDOW / RATE_MSG)

/* libc memcpy called through a pointer, as a driver calls it (PLT). */
static void *(*volatile libc_memcpy)(void *, const void *, size_t) = memcpy;

void
perf_copy_pattern(void *buf, uint32_t len)
{
	uint8_t *b = buf;
	uint32_t i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(i * 131 + (i >> 8) + 7);
}

static inline uint32_t
next_off(uint32_t off, uint32_t size, uint32_t len)
{
	off += size;
	return off > len - size ? 0 : off;
}

static __rte_noinline int
time_move(const struct perf_copy_target *t, uint32_t size, uint64_t n,
		uint64_t *cycles)
{
	uint32_t off = 0;
	uint64_t i, t0;
	int ret = 0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++) {
		ret |= rte_ism_move_data(t->dev, t->token, 0, 0, off, t->src,
				size);
		off = next_off(off, size, t->len);
	}
	*cycles = rte_rdtsc_precise() - t0;
	return ret;
}

static __rte_noinline void
time_rte_memcpy(const struct perf_copy_target *t, uint32_t size, uint64_t n,
		uint64_t *cycles)
{
	uint8_t *dst = t->ref_dst;
	uint32_t off = 0;
	uint64_t i, t0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++) {
		rte_memcpy(dst + off, t->src, size);
		off = next_off(off, size, t->len);
	}
	*cycles = rte_rdtsc_precise() - t0;
}

static __rte_noinline void
time_libc_memcpy(const struct perf_copy_target *t, uint32_t size, uint64_t n,
		uint64_t *cycles)
{
	void *(*copy)(void *, const void *, size_t) = libc_memcpy;
	uint8_t *dst = t->ref_dst;
	uint32_t off = 0;
	uint64_t i, t0;

	t0 = rte_rdtsc_precise();
	for (i = 0; i < n; i++) {
		copy(dst + off, t->src, size);
		off = next_off(off, size, t->len);
	}
	*cycles = rte_rdtsc_precise() - t0;
}

static double
gbps(uint64_t bytes, uint64_t cycles)
{
	return bytes / perf_ns(cycles);
}

int
perf_copy_sweep(const struct perf_case *c, const struct perf_copy_target *t)
{
	double mv[c->reps], rc[c->reps], lc[c->reps];
	uint64_t n, cyc;
	unsigned int p, r;
	uint32_t size;
	int ret;

	perf_copy_pattern(t->src, t->len);
	for (p = 0; p < c->nb_points; p++) {
		size = c->points[p];
		if (size > t->len) {
			printf("  size %u is larger than the DMB (%u)\n", size,
			       t->len);
			return PERF_FAIL;
		}
		n = RTE_MAX((c->amount << 20) / size, (uint64_t)COPY_MIN_OPS);
		/* Warm up: page faults, caches, branch predictors. */
		ret = time_move(t, size, RTE_MIN(n, 1000u), &cyc);
		time_rte_memcpy(t, size, RTE_MIN(n, 1000u), &cyc);
		time_libc_memcpy(t, size, RTE_MIN(n, 1000u), &cyc);
		for (r = 0; r < c->reps && ret == 0; r++) {
			ret = time_move(t, size, n, &cyc);
			mv[r] = gbps(n * size, cyc);
			time_rte_memcpy(t, size, n, &cyc);
			rc[r] = gbps(n * size, cyc);
			time_libc_memcpy(t, size, n, &cyc);
			lc[r] = gbps(n * size, cyc);
		}
		if (ret != 0) {
			printf("  move_data of %u bytes failed: %s\n", size,
			       strerror(-ret));
			return PERF_FAIL;
		}
		perf_emit_paired(c, size, "move_data", "GB/s", mv, "memcpy",
				 lc, c->reps);
		perf_emit_paired(c, size, "move_data", "GB/s", mv,
				 "rte_memcpy", rc, c->reps);
		perf_emit_paired(c, size, "rte_memcpy", "GB/s", rc, "memcpy",
				 lc, c->reps);
	}
	/* Last, the whole pattern: the caller checks it arrived. */
	ret = rte_ism_move_data(t->dev, t->token, 0, 1, 0, t->src, t->len);
	if (ret != 0) {
		printf("  final move failed: %s\n", strerror(-ret));
		return PERF_FAIL;
	}
	return PERF_OK;
}

/* Loopback: both devices in this process. */
static int
copy_run(const struct perf_case *c)
{
	struct perf_copy_target t = { 0 };
	struct perf_lo_pair lp;
	uint64_t max = 0;
	char args[64];
	unsigned int p;
	int ret = PERF_FAIL;

	if (strcmp(c->backend, "ism_shm") == 0 ||
	    strcmp(c->backend, "ism_ivshm") == 0)
		return perf_copy_shm(c);
	for (p = 0; p < c->nb_points; p++)
		max = RTE_MAX(max, c->points[p]);
	t.len = RTE_MAX((uint32_t)max, COPY_MIN_DMB);
	snprintf(args, sizeof(args), "max_dmb_len=%u", t.len);
	t.src = rte_malloc(NULL, t.len, RTE_CACHE_LINE_SIZE);
	if (t.src == NULL) {
		printf("  no memory for the source\n");
		return PERF_FAIL;
	}
	if (perf_lo_pair_open(&lp, "copy", args, t.len) == 0) {
		t.dev = lp.tx;
		t.token = lp.dst.token;
		t.ref_dst = lp.ref.addr;
		ret = perf_copy_sweep(c, &t);
		if (ret == PERF_OK && memcmp(lp.dst.addr, t.src, t.len) != 0) {
			printf("  the DMB does not hold what was moved\n");
			ret = PERF_FAIL;
		}
	}
	perf_lo_pair_close(&lp);
	rte_free(t.src);
	return ret;
}

const struct perf_type perf_type_copy = {
	.name = "copy",
	.title = "move_data throughput vs rte_memcpy and memcpy",
	.param = "size",
	.amount_key = "mib",		/* MiB per series, point and rep */
	.amount_default = 256,
	.amount_smoke = 1,
	.min_lcores = 1,
	.pre_eal = perf_xproc_pre_eal,
	.run = copy_run,
};

/* Rate: burst messages of RATE_MSG bytes per call. */
struct rate_ctx {
	uint16_t dev;
	uint64_t token;
	uint8_t *ref_dst;
	const uint8_t *src;		/* RATE_MAX_BURST messages */
	uint64_t *flag;			/* a line of its own, no ISM */
	struct rte_ism_move_seg segs[RATE_MAX_BURST];
};

static __rte_noinline int
time_rate_move(struct rate_ctx *x, uint32_t burst, uint32_t sf, uint64_t n,
		uint64_t *cycles)
{
	uint32_t base = 0, i, step = burst * RATE_MSG;
	uint64_t k, t0;
	int ret = 0;

	t0 = rte_rdtsc_precise();
	for (k = 0; k < n; k++) {
		if (burst == 1) {
			ret |= rte_ism_move_data(x->dev, x->token, 0, sf, base,
					x->src, RATE_MSG);
		} else {
			for (i = 0; i < burst; i++)
				x->segs[i].offset = base + i * RATE_MSG;
			ret |= rte_ism_move_burst(x->dev, x->token, 0, sf,
					x->segs, burst);
		}
		base = next_off(base, step, RATE_WINDOW);
	}
	*cycles = rte_rdtsc_precise() - t0;
	return ret;
}

/* What the reference loops store into the flag line after each call's
 * copies.
 */
enum rate_flag {
	RATE_FLAG_NONE,		/* nothing: the copies alone */
	RATE_FLAG_STORE,	/* one release store */
	RATE_FLAG_RMW,		/* one sequentially consistent OR */
};

/* The references' loop: the copies of a call with memcpy(), then the
 * flag; flag is a constant in each caller below.
 */
static __rte_always_inline void
time_rate_ref(struct rate_ctx *x, uint32_t burst, uint64_t n,
		uint64_t *cycles, enum rate_flag flag)
{
	void *(*copy)(void *, const void *, size_t) = libc_memcpy;
	uint32_t base = 0, i, step = burst * RATE_MSG;
	uint64_t k, t0;

	t0 = rte_rdtsc_precise();
	for (k = 0; k < n; k++) {
		for (i = 0; i < burst; i++)
			copy(x->ref_dst + base + i * RATE_MSG,
			     x->src + i * RATE_MSG, RATE_MSG);
		if (flag == RATE_FLAG_STORE)
			rte_atomic_store_explicit(x->flag, k + 1,
					rte_memory_order_release);
		else if (flag == RATE_FLAG_RMW)
			rte_atomic_fetch_or_explicit(x->flag, 1,
					rte_memory_order_seq_cst);
		base = next_off(base, step, RATE_WINDOW);
	}
	*cycles = rte_rdtsc_precise() - t0;
}

static __rte_noinline void
time_rate_memcpy(struct rate_ctx *x, uint32_t burst, uint64_t n,
		uint64_t *cycles)
{
	time_rate_ref(x, burst, n, cycles, RATE_FLAG_NONE);
}

/* The floor of a signalled move: the copies of time_rate_memcpy(), then
 * one release store into another line per call, as a writer that tells a
 * poller "new data" with a flag.
 */
static __rte_noinline void
time_rate_line_flag(struct rate_ctx *x, uint32_t burst, uint64_t n,
		uint64_t *cycles)
{
	time_rate_ref(x, burst, n, cycles, RATE_FLAG_STORE);
}

/* The floor of a signal that several writers share and that nobody may
 * miss, as a raise in the software SBA (ism_sw_sba_raise()): the same
 * copies, then one sequentially consistent atomic OR into that line
 * (x86: a locked instruction, which waits for the copies' stores).
 */
static __rte_noinline void
time_rate_line_rmw(struct rate_ctx *x, uint32_t burst, uint64_t n,
		uint64_t *cycles)
{
	time_rate_ref(x, burst, n, cycles, RATE_FLAG_RMW);
}

static int
rate_points(const struct perf_case *c, struct rate_ctx *x)
{
	double mv[c->reps], ms[c->reps], ref[c->reps], lf[c->reps];
	double lr[c->reps];
	uint64_t n, cyc, msgs;
	unsigned int p, r;
	uint32_t burst;
	int ret = 0;

	for (p = 0; p < c->nb_points; p++) {
		burst = c->points[p];
		if (burst > RATE_MAX_BURST) {
			printf("  burst %u above %u\n", burst, RATE_MAX_BURST);
			return PERF_FAIL;
		}
		for (r = 0; r < burst; r++) {
			x->segs[r].data = x->src + r * RATE_MSG;
			x->segs[r].len = RATE_MSG;
		}
		n = RTE_MAX(c->amount / burst, (uint64_t)COPY_MIN_OPS);
		msgs = n * burst;
		ret |= time_rate_move(x, burst, 0, RTE_MIN(n, 1000u), &cyc);
		time_rate_memcpy(x, burst, RTE_MIN(n, 1000u), &cyc);
		time_rate_line_flag(x, burst, RTE_MIN(n, 1000u), &cyc);
		time_rate_line_rmw(x, burst, RTE_MIN(n, 1000u), &cyc);
		for (r = 0; r < c->reps && ret == 0; r++) {
			ret |= time_rate_move(x, burst, 0, n, &cyc);
			mv[r] = msgs / perf_ns(cyc) * 1e3;
			ret |= time_rate_move(x, burst, 1, n, &cyc);
			ms[r] = msgs / perf_ns(cyc) * 1e3;
			time_rate_memcpy(x, burst, n, &cyc);
			ref[r] = msgs / perf_ns(cyc) * 1e3;
			time_rate_line_flag(x, burst, n, &cyc);
			lf[r] = msgs / perf_ns(cyc) * 1e3;
			time_rate_line_rmw(x, burst, n, &cyc);
			lr[r] = msgs / perf_ns(cyc) * 1e3;
		}
		if (ret != 0) {
			printf("  moves of burst %u failed: %s\n", burst,
			       strerror(-ret));
			return PERF_FAIL;
		}
		perf_emit_paired(c, burst, burst == 1 ? "move_data" :
				 "move_burst", "Mops/s", mv, "memcpy_loop",
				 ref, c->reps);
		perf_emit_paired(c, burst, burst == 1 ? "move_data+signal" :
				 "move_burst+signal", "Mops/s", ms,
				 "memcpy_loop", ref, c->reps);
		perf_emit_paired(c, burst, burst == 1 ? "move_data+signal" :
				 "move_burst+signal", "Mops/s", ms,
				 "line_flag_loop", lf, c->reps);
		perf_emit_paired(c, burst, burst == 1 ? "move_data+signal" :
				 "move_burst+signal", "Mops/s", ms,
				 "line_rmw_loop", lr, c->reps);
		perf_emit_paired(c, burst, "line_flag_loop", "Mops/s", lf,
				 "memcpy_loop", ref, c->reps);
		perf_emit_paired(c, burst, "line_rmw_loop", "Mops/s", lr,
				 "memcpy_loop", ref, c->reps);
	}
	return PERF_OK;
}

static int
rate_run(const struct perf_case *c)
{
	struct rte_ism_signal sig[4];
	struct perf_lo_pair lp;
	struct rate_ctx *x;
	int ret = PERF_FAIL;

	/* The window, then the flag's line (two: the window may end
	 * anywhere in one).
	 */
	x = rte_zmalloc(NULL, sizeof(*x) + RATE_WINDOW +
			2 * RTE_CACHE_LINE_SIZE, RTE_CACHE_LINE_SIZE);
	if (x == NULL) {
		printf("  no memory\n");
		return PERF_FAIL;
	}
	x->src = (uint8_t *)(x + 1);
	x->flag = RTE_PTR_ALIGN_CEIL(RTE_PTR_ADD(x->src, RATE_WINDOW),
			RTE_CACHE_LINE_SIZE);
	perf_copy_pattern((void *)(uintptr_t)x->src, RATE_WINDOW);
	if (perf_lo_pair_open(&lp, "rate", NULL, RATE_WINDOW) == 0) {
		x->dev = lp.tx;
		x->token = lp.dst.token;
		x->ref_dst = lp.ref.addr;
		ret = rate_points(c, x);
	}
	/* The signalled moves raised element 0 of the DMB. */
	if (ret == PERF_OK &&
	    (rte_ism_signal_poll(lp.rx, sig, RTE_DIM(sig)) != 1 ||
	     sig[0].dmb_idx != lp.dst.idx || sig[0].mask != 1)) {
		printf("  the receiver did not see the signal\n");
		ret = PERF_FAIL;
	}
	perf_lo_pair_close(&lp);
	rte_free(x);
	return ret;
}

const struct perf_type perf_type_rate = {
	.name = "rate",
	.title = "64 B message rate, move_data/move_burst vs a memcpy loop",
	.param = "burst",
	.amount_key = "msgs",		/* messages per series, point and rep */
	.amount_default = 4000000,
	.amount_smoke = 2000,
	.min_lcores = 1,
	.run = rate_run,
};
