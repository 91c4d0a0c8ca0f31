/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_DRIVER_SYNC_H
#define ISM_DRIVER_SYNC_H

/**
 * @file
 *
 * Safe retirement of memory that the fast path may be using.
 *
 * A software backend's move_data looks a token up and copies into the DMB
 * it finds. When a DMB is unregistered (or a peer's mapping retired) the
 * control path must not free the memory while a move that passed the token
 * check before the change is still copying. The fast path brackets each move
 * with rte_ism_pmd_move_enter()/rte_ism_pmd_move_exit(): plain stores to a
 * per-lcore counter, no lock, no atomic read-modify-write. The control path
 * first makes the memory unreachable (clears the token), then calls
 * rte_ism_pmd_synchronize(), which issues membarrier(2) so that every
 * thread's counter store is visible, and waits until every lcore that was
 * inside a move has left it. Then the memory can be freed.
 *
 * Threads without an EAL lcore id share one slot with an atomic counter;
 * synchronize waits until it is zero at one instant, so such threads that
 * move without pause can delay it indefinitely (it logs a warning after
 * a second). Threads that move data should have an lcore id (EAL lcores,
 * or rte_thread_register()).
 */

#include <stdint.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_lcore.h>

#include <ism_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** @internal Per-lcore move bracket; odd seq = inside a move. */
struct __rte_cache_aligned rte_ism_pmd_inflight {
	RTE_ATOMIC(uint64_t) seq;	/**< EAL lcores: odd while moving */
	RTE_ATOMIC(uint64_t) count;	/**< shared slot: moves in progress */
};

/** @internal One slot per EAL lcore plus one shared slot. */
extern struct rte_ism_pmd_inflight rte_ism_pmd_inflight[RTE_MAX_LCORE + 1];

/** @internal Set when membarrier(2) is unavailable: fence on every move. */
extern RTE_ATOMIC(int) rte_ism_pmd_need_fence;

/** @return the in-flight/statistics slot of the calling thread. */
static inline unsigned int
rte_ism_pmd_lcore_slot(void)
{
	unsigned int id = rte_lcore_id();

	return id < RTE_MAX_LCORE ? id : RTE_MAX_LCORE;
}

/** Mark the calling thread as inside a move (fast path). */
static inline void
rte_ism_pmd_move_enter(unsigned int slot)
{
	struct rte_ism_pmd_inflight *f = &rte_ism_pmd_inflight[slot];

	if (likely(slot < RTE_MAX_LCORE)) {
		rte_atomic_store_explicit(&f->seq,
			rte_atomic_load_explicit(&f->seq, rte_memory_order_relaxed) + 1,
			rte_memory_order_relaxed);
		if (unlikely(rte_atomic_load_explicit(&rte_ism_pmd_need_fence,
				rte_memory_order_relaxed)))
			rte_atomic_thread_fence(rte_memory_order_seq_cst);
		else
			rte_compiler_barrier();
	} else {
		rte_atomic_fetch_add_explicit(&f->count, 1, rte_memory_order_seq_cst);
	}
}

/** Mark the calling thread as outside any move (fast path). */
static inline void
rte_ism_pmd_move_exit(unsigned int slot)
{
	struct rte_ism_pmd_inflight *f = &rte_ism_pmd_inflight[slot];

	if (likely(slot < RTE_MAX_LCORE))
		rte_atomic_store_explicit(&f->seq,
			rte_atomic_load_explicit(&f->seq, rte_memory_order_relaxed) + 1,
			rte_memory_order_release);
	else
		rte_atomic_fetch_sub_explicit(&f->count, 1, rte_memory_order_release);
}

/**
 * Wait until no move that may have seen memory made unreachable before
 * this call is still running. Control path only; must not be called from
 * inside a move.
 */
__rte_internal
void rte_ism_pmd_synchronize(void);

#ifdef __cplusplus
}
#endif

#endif /* ISM_DRIVER_SYNC_H */
