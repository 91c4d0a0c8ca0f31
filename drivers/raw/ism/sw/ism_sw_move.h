/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_MOVE_H
#define ISM_SW_MOVE_H

/*
 * The fast path of the software backends (loopback, shm): a move is a
 * memcpy into the DMB the token names plus, with sf, a raise in the owner's
 * software SBA. The backends differ only in how a token is resolved, which
 * they pass as an inlined lookup function.
 */

#include <string.h>

#include <rte_prefetch.h>

#include "ism_pmd.h"
#include "ism_sw_sba.h"

_Static_assert(ISM_SW_MAX_DMBS == ISM_SW_SBA_NB_IDX - RTE_ISM_DMB_IDX_FIRST,
	       "a software SBA covers every DMB index of a software backend");

/* Where a move lands once its token is resolved. */
struct ism_sw_target {
	void *addr;			/* DMB base */
	uint32_t len;			/* DMB length */
	uint32_t dmb_idx;		/* the DMB's index in sba */
	struct ism_sw_sba *sba;	/* where the owner polls this writer */
};

/*
 * Resolve token for the writer ctx: 0 and *t, or -ENOENT / -EACCES. Runs
 * between rte_ism_pmd_move_enter() and _exit(), so what it finds stays
 * mapped until the move is done.
 */
typedef int (*ism_sw_lookup_t)(const void *ctx, uint64_t token,
		struct ism_sw_target *t);

/*
 * A small signalled message that a waiting poller (its raise found the
 * group cleared) is about to read on its core: push its lines out of this
 * core's private caches (CLDEMOTE, a no-op where unsupported), so the
 * poller's miss is served by the shared cache rather than by a snoop of
 * this core. Larger moves are left alone: demoting costs an instruction per
 * line and a bulk reader streams anyway.
 */
#define ISM_SW_DEMOTE_MAX 256

static __rte_always_inline void
ism_sw_demote(void *base, uint32_t offset, uint32_t len)
{
	uint32_t o;

	for (o = offset & ~(RTE_CACHE_LINE_SIZE - 1); o < offset + len;
	     o += RTE_CACHE_LINE_SIZE)
		rte_cldemote(RTE_PTR_ADD(base, o));
}

static __rte_always_inline int
ism_sw_move_data(void *ctx, ism_sw_lookup_t lookup, uint64_t token,
		uint32_t idx, uint32_t sf, uint32_t offset, const void *data,
		uint32_t len)
{
	struct ism_pmd_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	struct ism_sw_target t;
	int ret;

	rte_ism_pmd_move_enter(slot);
	ret = lookup(ctx, token, &t);
	if (likely(ret == 0))
		ret = ism_check_move(idx, offset, len, t.len);
	if (likely(ret == 0)) {
		/* The signal's line is fetched during the copy. */
		if (sf)
			ism_sw_sba_prepare(t.sba, t.dmb_idx);
		memcpy(RTE_PTR_ADD(t.addr, offset), data, len);
		if (sf && ism_sw_sba_raise(t.sba, t.dmb_idx,
					       RTE_BIT32(idx)) &&
		    len <= ISM_SW_DEMOTE_MAX)
			ism_sw_demote(t.addr, offset, len);
	}
	rte_ism_pmd_move_exit(slot);
	if (unlikely(ret != 0))
		return ism_count_error(d, slot, ret);
	ism_count_move(d, slot, len, 1, sf);
	return 0;
}

static __rte_always_inline int
ism_sw_move_burst(void *ctx, ism_sw_lookup_t lookup, uint64_t token,
		uint32_t idx, uint32_t sf, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs)
{
	struct ism_pmd_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	struct ism_sw_target t;
	uint32_t bytes = 0;
	uint16_t i;
	int ret;

	rte_ism_pmd_move_enter(slot);
	ret = lookup(ctx, token, &t);
	if (unlikely(nb_segs == 0 && ret == 0))
		ret = -EINVAL;
	/* Check every segment first: a failed burst writes nothing. */
	for (i = 0; ret == 0 && i < nb_segs; i++) {
		ret = ism_check_move(idx, segs[i].offset, segs[i].len, t.len);
		bytes += segs[i].len;
	}
	if (likely(ret == 0)) {
		if (sf)
			ism_sw_sba_prepare(t.sba, t.dmb_idx);
		for (i = 0; i < nb_segs; i++) {
			memcpy(RTE_PTR_ADD(t.addr, segs[i].offset),
			       segs[i].data, segs[i].len);
			/* Segments become visible in order. */
			rte_atomic_thread_fence(__ATOMIC_RELEASE);
		}
		if (sf)
			ism_sw_sba_raise(t.sba, t.dmb_idx, RTE_BIT32(idx));
	}
	rte_ism_pmd_move_exit(slot);
	if (unlikely(ret != 0))
		return ism_count_error(d, slot, ret);
	ism_count_move(d, slot, bytes, nb_segs, sf);
	return 0;
}

#endif /* ISM_SW_MOVE_H */
