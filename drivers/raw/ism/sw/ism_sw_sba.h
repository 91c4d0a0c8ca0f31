/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_SBA_H
#define ISM_SW_SBA_H

/**
 * @file
 *
 * Software signalling bit array for backends without hardware (loopback,
 * shm): like the ISM SBA, a 16-bit element mask per DMB index, plus a
 * summary with one bit per cache line of masks ("group") that may hold a
 * raised mask. A mask is non-zero exactly when its DMB is signalled, so no
 * separate bit per index is needed.
 *
 * Layout, chosen for the latency of one signal between two cores (a
 * signal costs the cache lines it moves, one after the other): line 0 holds
 * the 128-bit summary and the masks of the first 24 DMB indices (which are
 * allocated first), each further line 32 masks. Signalling one of those
 * first DMBs therefore moves a single line besides the data, as a raw
 * flag would. A poll costs one line read when nothing is pending and
 * otherwise visits only the groups flagged in the summary, whatever the
 * number of registered DMBs.
 *
 * Ordering (lost-wakeup free, each raised element reported exactly once):
 * the writer ORs the mask, then sets the group's summary bit unless it is
 * still set; the poller exchanges a summary word with zero, then each
 * non-zero mask of the flagged groups. Data moved before a raise is visible
 * when its element is reported. A raise racing with a poll is either
 * reported by this poll or left flagged for the next one (which may then
 * find its group empty).
 *
 * The structure is position independent so it can live in shared memory,
 * where a peer may write anything into it: the poll never reports an index
 * outside [RTE_ISM_DMB_IDX_FIRST, ISM_SW_SBA_NB_IDX).
 */

#include <stdint.h>

#include <rte_bitops.h>
#include <rte_byteorder.h>
#include <rte_prefetch.h>
#include <rte_common.h>

#include <ism_compat.h>

#include "rte_ism.h"

#ifdef __cplusplus
extern "C" {
#endif

/** DMB indices a software SBA covers: [RTE_ISM_DMB_IDX_FIRST, this). */
#define ISM_SW_SBA_NB_IDX 4096

/** @internal Masks per cache line, and in line 0 after the summary. */
#define ISM_SW_SBA_LINE_MASKS	32
#define ISM_SW_SBA_HEAD_MASKS	24
/** @internal Number of groups (lines): one summary bit each. */
#define ISM_SW_SBA_NB_GROUPS	128
/** @internal Bits of an element mask, and masks per 64-bit word. */
#define ISM_SW_SBA_MASK_BITS	16
#define ISM_SW_SBA_WORD_MASKS	(64 / ISM_SW_SBA_MASK_BITS)
/** @internal 64-bit words per line, and of the summary (line 0). */
#define ISM_SW_SBA_LINE_WORDS	(ISM_SW_SBA_LINE_MASKS / ISM_SW_SBA_WORD_MASKS)
#define ISM_SW_SBA_SUM_WORDS	(ISM_SW_SBA_NB_GROUPS / 64)

/** Software signalling bit array: 128 cache lines. */
struct __rte_cache_aligned ism_sw_sba {
	/** Bit g: group (line) g may hold a non-zero mask. */
	RTE_ATOMIC(uint64_t) summary[ISM_SW_SBA_SUM_WORDS];
	union {
		/** Element mask of DMB index i at mask[i - FIRST]. */
		RTE_ATOMIC(uint16_t) mask[ISM_SW_SBA_NB_GROUPS * ISM_SW_SBA_LINE_MASKS -
			      (ISM_SW_SBA_LINE_MASKS - ISM_SW_SBA_HEAD_MASKS)];
		/** The same masks, four at a time, for scanning. */
		RTE_ATOMIC(uint64_t) mask4[(ISM_SW_SBA_NB_GROUPS * ISM_SW_SBA_LINE_MASKS -
				(ISM_SW_SBA_LINE_MASKS -
				 ISM_SW_SBA_HEAD_MASKS)) /
			       ISM_SW_SBA_WORD_MASKS];
	};
};

_Static_assert(sizeof(struct ism_sw_sba) ==
	       ISM_SW_SBA_NB_GROUPS * RTE_CACHE_LINE_MIN_SIZE,
	       "one summary bit per cache line of the software SBA");
_Static_assert(ISM_SW_SBA_HEAD_MASKS == (ISM_SW_SBA_LINE_MASKS -
	       ISM_SW_SBA_SUM_WORDS * ISM_SW_SBA_WORD_MASKS),
	       "line 0: the summary, then masks");

/** @internal Start fetching the cache line of p for writing. */
static inline void
ism_sw_sba_prefetchw(const void *p)
{
#if defined(RTE_ARCH_X86)
	/* PREFETCHW whatever -march says (rte_prefetch0_write(), the
	 * compiler's write prefetch, falls back to a read prefetch without
	 * -mprfchw); a no-op where absent.
	 */
	asm volatile("prefetchw %0" : : "m" (*(const volatile char *)p));
#else
	rte_prefetch0_write(p);
#endif
}

/** @internal Position of the mask of DMB index idx. */
static inline uint32_t
ism_sw_sba_slot(uint32_t idx)
{
	return idx - RTE_ISM_DMB_IDX_FIRST;
}

/** @internal Group (cache line) of mask slot k. */
static inline uint32_t
ism_sw_sba_group(uint32_t k)
{
	return (k + ISM_SW_SBA_LINE_MASKS - ISM_SW_SBA_HEAD_MASKS) /
		ISM_SW_SBA_LINE_MASKS;
}

/**
 * Writer side, before copying the data of a move that will raise idx:
 * start fetching the line of its mask for writing (it is usually in the
 * poller's cache), so that the fetch overlaps the copy instead of
 * following it. Only a hint.
 */
static inline void
ism_sw_sba_prepare(const struct ism_sw_sba *sba, uint32_t idx)
{
	ism_sw_sba_prefetchw(&sba->mask[ism_sw_sba_slot(idx)]);
}

/**
 * Raise elements elem_mask of DMB index idx (writer side). idx must be in
 * [RTE_ISM_DMB_IDX_FIRST, ISM_SW_SBA_NB_IDX).
 * @return true if the poller had cleared the group since the last raise,
 *   i.e. it is probably waiting: then the caller may hand the data over too
 *   (see ism_sw_demote() in the PMD).
 */
static inline bool
ism_sw_sba_raise(struct ism_sw_sba *sba, uint32_t idx,
		uint16_t elem_mask)
{
	uint32_t k = ism_sw_sba_slot(idx), g = ism_sw_sba_group(k);
	__rte_atomic uint64_t *sum = &sba->summary[g / 64];
	uint64_t bit = RTE_BIT64(g % 64);

	rte_atomic_fetch_or_explicit(&sba->mask[k], elem_mask, rte_memory_order_seq_cst);
	/* Group still flagged: the poller has not exchanged the summary
	 * since, and when it does it will see the mask set above (both sides
	 * are sequentially consistent). No second locked operation, and the
	 * lines stay here for the writer's next raise.
	 */
	if (rte_atomic_load_explicit(sum, rte_memory_order_seq_cst) & bit)
		return false;
	rte_atomic_fetch_or_explicit(sum, bit, rte_memory_order_seq_cst);
	/* The poller's core reads these lines next: push them out of this
	 * core's private caches (a hint, a no-op where unsupported), so its
	 * miss is served by the shared cache instead of a snoop.
	 */
	rte_cldemote(&sba->mask[k]);
	if (g > 0)
		rte_cldemote(&sba->summary[g / 64]);
	return true;
}

/** @return true if something may be pending (cheap, no write). */
static inline bool
ism_sw_sba_pending(const struct ism_sw_sba *sba)
{
	return (rte_atomic_load_explicit(&sba->summary[0], rte_memory_order_relaxed) |
		rte_atomic_load_explicit(&sba->summary[1], rte_memory_order_relaxed)) != 0;
}

/**
 * @internal Report the raised masks of group g into sigs[*n..nb). Returns
 * false if sigs filled up before the group was done (the rest of the group
 * stays raised).
 */
static inline bool
ism_sw_sba_poll_group(struct ism_sw_sba *sba, uint32_t g,
		struct rte_ism_signal *sigs, uint16_t *n, uint16_t nb)
{
	/* The group's masks as 64-bit words of mask4[]: line g, which
	 * mask4[] starts after the summary.
	 */
	uint32_t w = g == 0 ? 0 : g * ISM_SW_SBA_LINE_WORDS -
		ISM_SW_SBA_SUM_WORDS;
	uint32_t wend = (g + 1) * ISM_SW_SBA_LINE_WORDS - ISM_SW_SBA_SUM_WORDS;
	uint32_t k;
	uint32_t lane;
	uint64_t four;
	uint16_t mask;

	for (; w < wend; w++) {
		four = rte_atomic_load_explicit(&sba->mask4[w], rte_memory_order_relaxed);
		while (four != 0) {
			lane = rte_bsf64(four) / ISM_SW_SBA_MASK_BITS;
			four &= ~((uint64_t)UINT16_MAX <<
				  (lane * ISM_SW_SBA_MASK_BITS));
#if RTE_BYTE_ORDER == RTE_BIG_ENDIAN
			lane = ISM_SW_SBA_WORD_MASKS - 1 - lane;
#endif
			k = w * ISM_SW_SBA_WORD_MASKS + lane;
			if (k >= ISM_SW_SBA_NB_IDX - RTE_ISM_DMB_IDX_FIRST)
				continue;	/* written by a stranger */
			if (*n == nb)
				return false;
			mask = rte_atomic_exchange_explicit(&sba->mask[k], 0,
					rte_memory_order_acquire);
			if (mask == 0)
				continue;
			sigs[*n].dmb_idx = k + RTE_ISM_DMB_IDX_FIRST;
			sigs[*n].mask = mask;
			sigs[*n].reserved = 0;
			(*n)++;
		}
	}
	return true;
}

/**
 * Report up to nb signalled indices into sigs, clearing them. What does not
 * fit stays flagged for the next poll.
 * @return number of entries filled.
 */
static inline uint16_t
ism_sw_sba_poll(struct ism_sw_sba *sba, struct rte_ism_signal *sigs,
		uint16_t nb)
{
	uint64_t sum;
	uint16_t n = 0;
	uint32_t i, g;

	if (nb == 0)
		return 0;
	/* Ask for the summary's line for writing: when a writer has raised
	 * something, the line comes over once, ready for the exchanges,
	 * instead of once to be read and again to be written.
	 */
	ism_sw_sba_prefetchw(sba->summary);
	for (i = 0; i < RTE_DIM(sba->summary); i++) {
		if (rte_atomic_load_explicit(&sba->summary[i], rte_memory_order_relaxed) == 0)
			continue;
		sum = rte_atomic_exchange_explicit(&sba->summary[i], 0,
				rte_memory_order_seq_cst);
		while (sum != 0) {
			g = i * 64 + rte_bsf64(sum);
			if (!ism_sw_sba_poll_group(sba, g, sigs, &n, nb)) {
				/* No room: flag this group and the unvisited
				 * ones again.
				 */
				rte_atomic_fetch_or_explicit(&sba->summary[i], sum,
						rte_memory_order_release);
				return n;
			}
			sum &= sum - 1;
		}
	}
	return n;
}

/** @internal Mask slot of the armed flag: past the last DMB index. */
#define ISM_SW_SBA_ARMED_SLOT	(ISM_SW_SBA_NB_IDX - RTE_ISM_DMB_IDX_FIRST)

_Static_assert(ISM_SW_SBA_ARMED_SLOT + 2 <= RTE_DIM(((struct ism_sw_sba *)0)->mask),
	       "two unused mask slots at the end of the SBA");
_Static_assert(ISM_SW_SBA_ARMED_SLOT % 2 == 0, "the armed flag is aligned");

/**
 * The receiver's armed flag of the interrupt mode (ism_wake.h): the
 * first two mask slots past the last DMB index, which no poll reports and
 * no raise writes, so that a writer finds the flag with the SBA it raises
 * in, also across processes. Only the receiver writes it.
 */
static inline __rte_atomic uint32_t *
ism_sw_sba_armed(struct ism_sw_sba *sba)
{
	return (__rte_atomic uint32_t *)&sba->mask[ISM_SW_SBA_ARMED_SLOT];
}

/**
 * Drop anything pending for index idx (when a DMB is unregistered, so a
 * late signal is not reported for the next DMB using the index).
 */
static inline void
ism_sw_sba_clear(struct ism_sw_sba *sba, uint32_t idx)
{
	rte_atomic_store_explicit(&sba->mask[ism_sw_sba_slot(idx)], 0,
			rte_memory_order_relaxed);
}

#ifdef __cplusplus
}
#endif

#endif /* ISM_SW_SBA_H */
