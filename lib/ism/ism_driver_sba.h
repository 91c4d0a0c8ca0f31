/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_DRIVER_SBA_H
#define ISM_DRIVER_SBA_H

/**
 * @file
 *
 * Software signalling bit array for backends without hardware (loopback,
 * shm): the same idea as the ISM SBA (a bit per DMB index plus a 16-bit
 * element mask per index) with one more level, a summary word whose bit w
 * says "word w of the bit array may have bits set". A poll therefore costs
 * one load when nothing is pending and otherwise touches only the words and
 * masks that were signalled, whatever the number of registered DMBs.
 *
 * Ordering (lost-wakeup free, each raised element reported exactly once):
 * the writer sets mask, then bit, then summary, with release semantics after
 * the data; the poller exchanges summary, then each flagged word, then each
 * flagged mask with zero (acquire), so data moved before a raise is visible
 * when its element is reported. A raise racing with a poll is either
 * reported by this poll or left flagged for the next one; an index whose
 * mask turns out empty (already reported) is skipped.
 *
 * Cost: writer and poller are on different cores, so a signal costs the
 * cache lines it moves between them, one after the other. The summary
 * shares its line with the first words of the bit array (the low indices
 * are allocated first), and a writer calls rte_ism_sw_sba_prepare() before
 * copying the data so that the mask's line is fetched during the copy.
 *
 * The structure is position independent so it can live in shared memory.
 */

#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include "rte_ism.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Number of DMB indices a software SBA covers (64 words of 64 bits). */
#define RTE_ISM_SW_SBA_NB_IDX 4096

/** Software signalling bit array. */
struct rte_ism_sw_sba {
	uint64_t summary;	/**< bit w: bits[w] may be non-zero */
	/** Bit per index. bits[0..6] share the summary's line, so a raise
	 * and a poll of indices below 448 move one line less. */
	uint64_t bits[RTE_ISM_SW_SBA_NB_IDX / 64];
	/** Element mask per index. */
	uint16_t mask[RTE_ISM_SW_SBA_NB_IDX] __rte_cache_aligned;
} __rte_cache_aligned;

/**
 * Writer side, before copying the data of a move that will raise idx:
 * start fetching the line of its mask for writing (it is usually in the
 * poller's cache), so that the fetch overlaps the copy instead of
 * following it. Only a hint.
 */
static inline void
rte_ism_sw_sba_prepare(const struct rte_ism_sw_sba *sba, uint32_t idx)
{
	const void *p = &sba->mask[idx];

#if defined(RTE_ARCH_X86)
	/* PREFETCHW whatever -march says (__builtin_prefetch(p, 1) falls
	 * back to a read prefetch without -mprfchw); a no-op where absent. */
	asm volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
#else
	__builtin_prefetch(p, 1, 3);
#endif
}

/** Raise elements elem_mask of DMB index idx (writer side). */
static inline void
rte_ism_sw_sba_raise(struct rte_ism_sw_sba *sba, uint32_t idx,
		uint16_t elem_mask)
{
	uint32_t w = idx / 64;

	__atomic_fetch_or(&sba->mask[idx], elem_mask, __ATOMIC_RELEASE);
	__atomic_fetch_or(&sba->bits[w], RTE_BIT64(idx % 64),
			__ATOMIC_RELEASE);
	__atomic_fetch_or(&sba->summary, RTE_BIT64(w), __ATOMIC_RELEASE);
}

/** @return true if something may be pending (cheap, no write). */
static inline bool
rte_ism_sw_sba_pending(const struct rte_ism_sw_sba *sba)
{
	return __atomic_load_n(&sba->summary, __ATOMIC_RELAXED) != 0;
}

/**
 * Report up to nb signalled indices into sigs, clearing them. What does not
 * fit stays flagged for the next poll.
 * @return number of entries filled.
 */
static inline uint16_t
rte_ism_sw_sba_poll(struct rte_ism_sw_sba *sba, struct rte_ism_signal *sigs,
		uint16_t nb)
{
	uint64_t sum, bits;
	uint16_t n = 0;
	uint32_t w, idx;
	uint16_t mask;

	if (!rte_ism_sw_sba_pending(sba) || nb == 0)
		return 0;
	sum = __atomic_exchange_n(&sba->summary, 0, __ATOMIC_ACQUIRE);
	while (sum != 0) {
		w = rte_bsf64(sum);
		sum &= sum - 1;
		bits = __atomic_exchange_n(&sba->bits[w], 0, __ATOMIC_ACQUIRE);
		while (bits != 0) {
			if (n == nb) {
				/* No room: give back what is left of this
				 * word, then the unvisited words. */
				__atomic_fetch_or(&sba->bits[w], bits,
						__ATOMIC_RELAXED);
				sum |= RTE_BIT64(w);
				__atomic_fetch_or(&sba->summary, sum,
						__ATOMIC_RELEASE);
				return n;
			}
			idx = w * 64 + rte_bsf64(bits);
			bits &= bits - 1;
			mask = __atomic_exchange_n(&sba->mask[idx], 0,
					__ATOMIC_ACQUIRE);
			if (mask == 0)
				continue;
			sigs[n].dmb_idx = idx;
			sigs[n].mask = mask;
			sigs[n].reserved = 0;
			n++;
		}
	}
	return n;
}

/**
 * Drop anything pending for index idx (when a DMB is unregistered, so a
 * late signal is not reported for the next DMB using the index).
 */
static inline void
rte_ism_sw_sba_clear(struct rte_ism_sw_sba *sba, uint32_t idx)
{
	__atomic_store_n(&sba->mask[idx], 0, __ATOMIC_RELAXED);
}

#ifdef __cplusplus
}
#endif

#endif /* ISM_DRIVER_SBA_H */
