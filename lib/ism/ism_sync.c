/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Control-path half of the move tracking described in ism_driver_sync.h.
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every running thread of
 * the process execute a full barrier, which pairs with the plain stores of
 * rte_ism_pmd_move_enter(). Without membarrier the fast path falls back to a
 * fence per move.
 */

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_pause.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_private.h"
#include "ism_driver_sync.h"

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_inflight)
struct rte_ism_pmd_inflight rte_ism_pmd_inflight[RTE_MAX_LCORE + 1];
RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_need_fence)
RTE_ATOMIC(int) rte_ism_pmd_need_fence;

static int membarrier_ok;

static long
membarrier(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0);
}

void
ism_sync_init(void)
{
	long cmds;

	if (membarrier_ok ||
	    rte_atomic_load_explicit(&rte_ism_pmd_need_fence, rte_memory_order_relaxed))
		return;
	cmds = membarrier(MEMBARRIER_CMD_QUERY);
	if (cmds >= 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0) {
		membarrier_ok = 1;
		return;
	}
	ISM_LOG(WARNING, "membarrier(2) unavailable: moves will use a fence");
	rte_atomic_store_explicit(&rte_ism_pmd_need_fence, 1, rte_memory_order_seq_cst);
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_synchronize)
void
rte_ism_pmd_synchronize(void)
{
	struct rte_ism_pmd_inflight *f;
	uint64_t seq, start;
	bool warned = false;
	unsigned int i;

	if (membarrier_ok)
		membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
	else
		rte_atomic_thread_fence(rte_memory_order_seq_cst);

	for (i = 0; i < RTE_MAX_LCORE; i++) {
		f = &rte_ism_pmd_inflight[i];
		seq = rte_atomic_load_explicit(&f->seq, rte_memory_order_acquire);
		if ((seq & 1) == 0)
			continue;
		while (rte_atomic_load_explicit(&f->seq, rte_memory_order_acquire) == seq)
			rte_pause();
	}
	/* Threads without an lcore id share one counter: wait until it is
	 * zero at one instant, which moves of such threads that never pause
	 * can put off. Say so rather than hang silently.
	 */
	f = &rte_ism_pmd_inflight[RTE_MAX_LCORE];
	start = rte_get_timer_cycles();
	while (rte_atomic_load_explicit(&f->count, rte_memory_order_acquire) != 0) {
		if (!warned && rte_get_timer_cycles() - start >
		    rte_get_timer_hz()) {
			warned = true;
			ISM_LOG(WARNING, "waiting for moves of threads without "
				"an lcore id for more than 1 s; give them one "
				"(rte_thread_register())");
		}
		rte_pause();
	}
}
