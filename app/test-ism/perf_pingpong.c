/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The raw references of the round trip: ping-pongs between two cores over
 * plain shared lines, each built like one step of a signalled move (the
 * data line, then the line the poller spins on, then CLDEMOTE of both), so
 * that the ratio of each to the 2-line ping-pong says what that step costs
 * on this CPU:
 *
 *   1line          both sides bounce one word of one line (the floor)
 *   2line          one word per direction, each side polls the other's line
 *                  (the shape of two DMBs; the reference of every ratio)
 *   2line_cldemote the same, the writer demotes its line after the store
 *   2seq           per direction a word in a data line, then the flag in a
 *                  second line; the poller spins on the flag, then loads
 *                  the data word: two lines in sequence
 *   line+flag      per direction a whole 64 B line copied (as a 64 B move
 *                  copies it), then the flag in a second line; the poller
 *                  reads the whole line after the flag: a move + signal
 *                  without the library
 *   line+flag_cldemote  the same, the writer demotes both lines after the
 *                  flag, as the software backends do for a small signalled
 *                  move (drivers/raw/ism/sw/ism_sw_move.h)
 *
 * The demoting kinds run only on a CPU with CLDEMOTE (cpuid, at run time):
 * elsewhere they are reported "n/a" rather than measured as a NOP.
 */

#include <string.h>

#include <rte_cpuflags.h>
#include <rte_prefetch.h>

#include <ism_compat.h>

#include "perf.h"

static const struct {
	const char *what;	/* command word (the peer's protocol) */
	const char *series;	/* name in the results */
} pp_kinds[PERF_PP_NB] = {
	[PERF_PP_1LINE] = { "raw1", "pingpong_1line" },
	[PERF_PP_2LINE] = { "raw2", "pingpong_2line" },
	[PERF_PP_2LINE_DEMOTE] = { "raw2d", "pingpong_2line_cldemote" },
	[PERF_PP_2SEQ] = { "seq2", "pingpong_2seq" },
	[PERF_PP_LINE_FLAG] = { "lflag", "pingpong_line+flag" },
	[PERF_PP_LINE_FLAG_DEMOTE] = { "lflagd",
		"pingpong_line+flag_cldemote" },
};

const char *
perf_pp_what(enum perf_pp_kind k)
{
	return pp_kinds[k].what;
}

const char *
perf_pp_series(enum perf_pp_kind k)
{
	return pp_kinds[k].series;
}

int
perf_pp_kind_of(const char *what)
{
	unsigned int k;

	for (k = 0; k < PERF_PP_NB; k++)
		if (strcmp(what, pp_kinds[k].what) == 0)
			return k;
	return -1;
}

static bool
pp_demotes(enum perf_pp_kind k)
{
	return k == PERF_PP_2LINE_DEMOTE || k == PERF_PP_LINE_FLAG_DEMOTE;
}

static bool
pp_whole_line(enum perf_pp_kind k)
{
	return k == PERF_PP_LINE_FLAG || k == PERF_PP_LINE_FLAG_DEMOTE;
}

bool
perf_pp_supported(enum perf_pp_kind k)
{
#ifdef RTE_ARCH_X86
	return !pp_demotes(k) ||
		rte_cpu_get_flag_enabled(RTE_CPUFLAG_CLDEMOTE) > 0;
#else
	/* CLDEMOTE is an x86 instruction. */
	return !pp_demotes(k);
#endif
}

/* One direction: its flag word and its data line. */
struct pp_dir {
	__rte_atomic uint64_t *flag;
	__rte_atomic uint64_t *data;
};

static struct pp_dir
pp_dir(struct perf_pp_lines *l, enum perf_pp_kind k, bool requester)
{
	struct pp_dir d;

	if (k == PERF_PP_1LINE)
		d.flag = &l->a;
	else
		d.flag = requester ? &l->a : &l->b;
	d.data = requester ? l->da : l->db;
	return d;
}

/* Write value v in direction d, the way kind k does. */
static __rte_always_inline void
pp_put(const struct pp_dir *d, enum perf_pp_kind k, uint64_t v)
{
	uint64_t line[PERF_PP_LINE_WORDS];
	unsigned int i;

	if (k == PERF_PP_2SEQ) {
		rte_atomic_store_explicit(d->data, v, rte_memory_order_relaxed);
	} else if (pp_whole_line(k)) {
		for (i = 0; i < PERF_PP_LINE_WORDS; i++)
			line[i] = v;
		/* A fixed 64 B copy: what a 64 B move does inline. */
		memcpy(d->data, line, sizeof(line));
	}
	rte_atomic_store_explicit(d->flag, v, rte_memory_order_release);
	if (pp_demotes(k)) {
		if (pp_whole_line(k))
			rte_cldemote(d->data);
		rte_cldemote(d->flag);
	}
}

/* Wait for value v in direction d and read what kind k reads with it:
 * PERF_OK, or PERF_FAIL at the deadline or when the data is not v.
 */
static __rte_always_inline int
pp_get(const struct pp_dir *d, enum perf_pp_kind k, uint64_t v,
		uint64_t deadline, uint64_t *spins)
{
	uint64_t line[PERF_PP_LINE_WORDS];

	while (rte_atomic_load_explicit(d->flag, rte_memory_order_acquire) != v)
		if (unlikely(perf_expired(deadline, spins)))
			return PERF_FAIL;
	if (k == PERF_PP_2SEQ)
		return rte_atomic_load_explicit(d->data,
				rte_memory_order_relaxed) == v ?
			PERF_OK : PERF_FAIL;
	if (pp_whole_line(k)) {
		memcpy(line, d->data, sizeof(line));
		return line[0] == v && line[PERF_PP_LINE_WORDS - 1] == v ?
			PERF_OK : PERF_FAIL;
	}
	return PERF_OK;
}

void
perf_pp_reset(struct perf_pp_lines *l)
{
	memset(l, 0, sizeof(*l));
}

int
perf_raw_pong(struct perf_pp_lines *l, enum perf_pp_kind k, uint64_t n,
		uint64_t deadline)
{
	struct pp_dir in = pp_dir(l, k, true), out = pp_dir(l, k, false);
	uint64_t i, spins = 0;

	for (i = 0; i < n; i++) {
		if (pp_get(&in, k, 2 * i + 1, deadline, &spins) != PERF_OK)
			return PERF_FAIL;
		pp_put(&out, k, 2 * i + 2);
	}
	return PERF_OK;
}

int
perf_raw_ping(struct perf_pp_lines *l, enum perf_pp_kind k, uint64_t n,
		double *ns, uint64_t deadline)
{
	struct pp_dir out = pp_dir(l, k, true), in = pp_dir(l, k, false);
	uint64_t i, spins = 0, prev = 0, now;

	for (i = 0; i < n + 1; i++) {
		pp_put(&out, k, 2 * i + 1);
		if (pp_get(&in, k, 2 * i + 2, deadline, &spins) != PERF_OK) {
			printf("  %s: no answer to %" PRIu64 "\n",
			       pp_kinds[k].series, i);
			return PERF_FAIL;
		}
		now = rte_rdtsc();
		if (i > 0)
			ns[i - 1] = perf_ns(now - prev);
		prev = now;
	}
	return PERF_OK;
}
