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

#include <stdbool.h>
#include <string.h>

#include <rte_prefetch.h>

#include "ism_compat.h"
#include "ism_pmd.h"
#include "ism_sw_copy_wide.h"
#include "ism_sw_sba.h"
#include "ism_wake.h"

_Static_assert(ISM_SW_MAX_DMBS == (ISM_SW_SBA_NB_IDX - RTE_ISM_DMB_IDX_FIRST),
	       "a software SBA covers every DMB index of a software backend");

/* Where a move lands once its token is resolved. */
struct ism_sw_target {
	void *addr;			/* DMB base */
	uint64_t len;			/* DMB length */
	uint32_t dmb_idx;		/* the DMB's index in sba */
	struct ism_sw_sba *sba;	/* where the owner polls this writer */
	/* The owner's wake-up (interrupt mode), NULL if it has none; only
	 * the paths that raise signals read it.
	 */
	const struct ism_wake_peer *wake;
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

/*
 * The copy of the fast path. Up to ISM_SW_COPY_INLINE bytes inline, as
 * two or four possibly overlapping chunks of 16, 8 or 4 bytes (one
 * unaligned load and store each), the way memcpy() itself copies these
 * sizes: its call, size dispatch and the registers saved around the call
 * would cost more than the copy. memcpy() for the rest. Chunks are
 * packed structures (alignment 1) rather than fixed-size memcpy()
 * calls, about which GCC warns wrongly (-Wstringop-overflow).
 */
#define ISM_SW_COPY_INLINE 64

typedef struct __rte_packed_begin {
	uint64_t w[2];
} __rte_packed_end __rte_may_alias ism_sw_u128;
typedef struct __rte_packed_begin {
	uint64_t w;
} __rte_packed_end __rte_may_alias ism_sw_u64;
typedef struct __rte_packed_begin {
	uint32_t w;
} __rte_packed_end __rte_may_alias ism_sw_u32;

#define ism_sw_copy_chunk(dst, src, off, type) \
	(*(type *)RTE_PTR_ADD(dst, off) = *(const type *)RTE_PTR_ADD(src, off))

/* The other sizes, and the end of the move's bracket: a tail call, so
 * that the fast path keeps nothing across a call (no register to save).
 */
static __rte_noinline int
ism_sw_copy_call(void *dst, const void *src, uint32_t len, uint64_t *seq)
{
	memcpy(dst, src, len);
	rte_atomic_thread_fence(rte_memory_order_release);
	(*seq)++;
	return 0;
}

/* Copy len bytes if 4 <= len <= ISM_SW_COPY_INLINE, inline: true if done. */
static __rte_always_inline bool
ism_sw_copy_small(void *dst, const void *src, uint32_t len)
{
	/* One subtraction for the size test and both tail chunks. */
	uint64_t o = len - 33;

	/* (32, 64] first: a cache line, the common small message. */
	if (likely(o < ISM_SW_COPY_INLINE - 32)) {
		/* [0, 32) and [len - 32, len) */
		ism_sw_copy_chunk(dst, src, 0, ism_sw_u128);
		ism_sw_copy_chunk(dst, src, 16, ism_sw_u128);
		ism_sw_copy_chunk(dst, src, o + 1, ism_sw_u128);
		ism_sw_copy_chunk(dst, src, o + 17, ism_sw_u128);
	} else if (len - 16 <= 16) {
		ism_sw_copy_chunk(dst, src, 0, ism_sw_u128);
		ism_sw_copy_chunk(dst, src, len - 16, ism_sw_u128);
	} else if (len - 8 < 8) {
		ism_sw_copy_chunk(dst, src, 0, ism_sw_u64);
		ism_sw_copy_chunk(dst, src, len - 8, ism_sw_u64);
	} else if (len - 4 < 4) {
		ism_sw_copy_chunk(dst, src, 0, ism_sw_u32);
		ism_sw_copy_chunk(dst, src, len - 4, ism_sw_u32);
	} else {
		return false;
	}
	return true;
}

/* Copy, end the bracket seq (ism_sw_move_data_fast) and return 0. */
static __rte_always_inline int
ism_sw_copy_exit(void *dst, const void *src, uint32_t len, uint64_t *seq)
{
	if (unlikely(!ism_sw_copy_small(dst, src, len)))
		return ism_sw_copy_call(dst, src, len, seq);
	rte_atomic_thread_fence(rte_memory_order_release);
	(*seq)++;
	return 0;
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

	t.wake = NULL;
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
					       RTE_BIT32(idx))) {
			if (len <= ISM_SW_DEMOTE_MAX)
				ism_sw_demote(t.addr, offset, len);
			ism_wake_raised(t.wake);
		}
	}
	rte_ism_pmd_move_exit(slot);
	if (unlikely(ret != 0))
		return ism_count_error(d, slot, ret);
	ism_count_move(d, slot, len, 1, sf);
	return 0;
}

/*
 * Fast resolution of token for the writer ctx, for the common case only:
 * true and t->addr, t->len (0 if the DMB is gone) when token names a DMB
 * that ctx may write; false in every other case. No side effect: the full
 * path (ism_sw_move_data) runs next and finds out why, so the fast one
 * returns no errno and counts nothing. Runs inside the move bracket.
 */
typedef bool (*ism_sw_find_t)(const void *ctx, uint64_t token,
		struct ism_sw_target *t);

/* The bounds check of the fast path folds len == 0 in (below). */
_Static_assert(ISM_SW_MAX_DMB_LEN < UINT32_MAX,
	       "a software DMB is shorter than 4 GiB - 1");

/*
 * The fast paths' bracket (the per-lcore sequence of ism_driver_sync.h):
 * only this lcore writes its sequence, so plain increments (one
 * instruction each), ordered by compiler barriers (x86: a store is a
 * release). The readers load it atomically; the writer's plain view of
 * the same 8 bytes (lock-free, so of the same representation with C11
 * atomics too, enable_stdatomic). The empty asm keeps the address in a
 * register the compiler does not fold back into each access.
 */
static __rte_always_inline uint64_t *
ism_sw_bracket_open(unsigned int lcore)
{
	uint64_t *seq;

	seq = (uint64_t *)(uintptr_t)&rte_ism_pmd_inflight[lcore].seq;
	__asm__("" : "+r" (seq));
	(*seq)++;
	rte_compiler_barrier();
	return seq;
}

/* The end of a bracket on a path that does not end in a copy. */
static __rte_always_inline void
ism_sw_bracket_close(uint64_t *seq)
{
	rte_atomic_thread_fence(rte_memory_order_release);
	(*seq)++;
}

/*
 * rte_ism_move_data() of the software backends: the common case (an EAL
 * lcore, a move that passes every check) in as few instructions as
 * possible; a signalled move goes to sig, the backend's instance of
 * ism_sw_move_signal_fast() (the same, plus the raise); anything else
 * goes to full, the backend's instance of ism_sw_move_data(), which
 * checks everything again, returns the errno and counts it by reason.
 * The checks are the same on every path: the token (the whole 64 bits
 * against the DMB's current one, so a stale token fails), the writer
 * (find), idx, len and bounds.
 *
 *   - The bracket is the per-lcore sequence of ism_driver_sync.h. The
 *     backend installs this function only where membarrier(2) works
 *     (rte_ism_pmd_need_fence unset), so no fence and no test of that
 *     flag.
 *   - The arguments alone are checked first (sf, lcore, idx), each
 *     with a return of its own: GCC merges one condition of several
 *     tests into set/or instructions, which cost more.
 *   - Bounds in 64 bits: offset + (len - 1), with len - 1 wrapping to
 *     2^32 - 1 for len 0, is below dmb_len (at most 2^30) exactly when
 *     1 <= len and offset + len <= dmb_len: one compare covers len 0,
 *     offset and end.
 *   - The counters are incremented before the copy, which cannot fail;
 *     copies up to ISM_SW_COPY_INLINE bytes are inline, longer ones a
 *     tail call that also ends the bracket: nothing lives across a call,
 *     so no register is saved.
 */
static __rte_always_inline int
ism_sw_move_data_fast(void *ctx, ism_sw_find_t find, rte_ism_move_data_t sig,
		rte_ism_move_data_t full, uint64_t token, uint32_t idx,
		uint32_t sf, uint32_t offset, const void *data, uint32_t len)
{
	struct ism_pmd_dev *d = ctx;
	unsigned int lcore = rte_lcore_id();
	struct ism_lcore_stats *s;
	struct ism_sw_target t;
	uint64_t *seq;

	if (unlikely(sf != 0))
		return sig(ctx, token, idx, sf, offset, data, len);
	if (unlikely(lcore >= RTE_MAX_LCORE))
		return full(ctx, token, idx, 0, offset, data, len);
	if (unlikely(idx >= RTE_ISM_DMBE_MAX))
		return full(ctx, token, idx, 0, offset, data, len);
	seq = ism_sw_bracket_open(lcore);
	if (unlikely(!find(ctx, token, &t) ||
		     (uint64_t)offset + (uint32_t)(len - 1) >= t.len)) {
		ism_sw_bracket_close(seq);
		return full(ctx, token, idx, sf, offset, data, len);
	}
	s = &d->stats[lcore];
	s->moves++;
	/* Two adds, not one vector add (more instructions). */
	rte_compiler_barrier();
	s->bytes += len;
	return ism_sw_copy_exit(RTE_PTR_ADD(t.addr, offset), data, len, seq);
}

/*
 * A signalled rte_ism_move_data() of the software backends (sig of
 * ism_sw_move_data_fast()): the move of the fast path, with the backend's
 * full resolution (lookup: the SBA and the wake-up come from the same
 * view as the DMB) and the raise of ism_sw_move_data(), without what only
 * the full path needs (the fence fallback, the non-EAL slot, the errno):
 * a copy up to ISM_SW_COPY_INLINE bytes is inline, the counters plain
 * adds. Anything unusual goes to full, which checks everything again.
 * What a raise costs beyond one store is the SBA's protocol
 * (ism_sw_sba_raise()): one sequentially consistent read-modify-write,
 * which the interrupt mode's guarantee needs too (ism_wake.h).
 */
static __rte_always_inline int
ism_sw_move_signal_fast(void *ctx, ism_sw_lookup_t lookup,
		rte_ism_move_data_t full, uint64_t token, uint32_t idx,
		uint32_t sf, uint32_t offset, const void *data, uint32_t len)
{
	struct ism_pmd_dev *d = ctx;
	unsigned int lcore = rte_lcore_id();
	struct ism_sw_target t;
	uint64_t *seq;
	void *dst;

	if (unlikely(lcore >= RTE_MAX_LCORE))
		return full(ctx, token, idx, sf, offset, data, len);
	if (unlikely(idx >= RTE_ISM_DMBE_MAX))
		return full(ctx, token, idx, sf, offset, data, len);
	seq = ism_sw_bracket_open(lcore);
	t.wake = NULL;
	if (unlikely(lookup(ctx, token, &t) != 0 ||
		     (uint64_t)offset + (uint32_t)(len - 1) >= t.len)) {
		ism_sw_bracket_close(seq);
		return full(ctx, token, idx, sf, offset, data, len);
	}
	/* The signal's line is fetched during the copy. */
	ism_sw_sba_prepare(t.sba, t.dmb_idx);
	dst = RTE_PTR_ADD(t.addr, offset);
	if (!ism_sw_copy_small(dst, data, len))
		memcpy(dst, data, len);
	if (ism_sw_sba_raise(t.sba, t.dmb_idx, RTE_BIT32(idx))) {
		if (len <= ISM_SW_DEMOTE_MAX)
			ism_sw_demote(t.addr, offset, len);
		ism_wake_raised(t.wake);
	}
	ism_count_move(d, lcore, len, 1, sf);
	ism_sw_bracket_close(seq);
	return 0;
}

/*
 * The checks of a burst one segment after the other, as ism_check_move():
 * the errno of the first segment that fails (nb_segs 0: -EINVAL). Only
 * when the quick check of ism_sw_move_burst() found one.
 */
static __rte_noinline int
ism_sw_burst_check(uint32_t idx, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs, uint32_t dmb_len)
{
	uint16_t i;
	int ret;

	if (nb_segs == 0)
		return -EINVAL;
	for (i = 0; i < nb_segs; i++) {
		ret = ism_check_move(idx, segs[i].offset, segs[i].len,
				dmb_len);
		if (ret != 0)
			return ret;
	}
	return 0;
}

/*
 * rte_ism_move_burst() of the software backends. Per segment: the bounds
 * as one 64-bit compare, accumulated without a branch (the errno, if any,
 * comes from ism_sw_burst_check()), and the copy inline up to
 * ISM_SW_COPY_INLINE bytes, as move_data: no call per small segment; on
 * a CPU with AVX2 the copy pass is one call that copies in 32-byte
 * vectors (ism_sw_copy_wide.h).
 */
static __rte_always_inline int
ism_sw_move_burst(void *ctx, ism_sw_lookup_t lookup, uint64_t token,
		uint32_t idx, uint32_t sf, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs)
{
	struct ism_pmd_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	struct ism_sw_target t;
	uint32_t bytes = 0;
	bool bad = false;
	uint16_t i;
	void *dst;
	int ret;

	t.wake = NULL;
	rte_ism_pmd_move_enter(slot);
	ret = lookup(ctx, token, &t);
	if (likely(ret == 0)) {
		/* Check every segment first: a failed burst writes nothing.
		 * len - 1 wraps for len 0 (ism_sw_move_data_fast).
		 */
		for (i = 0; i < nb_segs; i++) {
			bad |= (uint64_t)segs[i].offset +
				(uint32_t)(segs[i].len - 1) >= t.len;
			bytes += segs[i].len;
		}
		if (unlikely(bad || nb_segs == 0 || idx >= RTE_ISM_DMBE_MAX))
			ret = ism_sw_burst_check(idx, segs, nb_segs, t.len);
	}
	if (likely(ret == 0)) {
		if (sf)
			ism_sw_sba_prepare(t.sba, t.dmb_idx);
		/* 32-byte vectors where the CPU has them, as glibc's
		 * memcpy() (ism_sw_copy_wide.c).
		 */
		if (ism_sw_copy_wide)
			ism_sw_burst_copy_wide(t.addr, segs, nb_segs);
		else
			for (i = 0; i < nb_segs; i++) {
				dst = RTE_PTR_ADD(t.addr, segs[i].offset);
				if (!ism_sw_copy_small(dst, segs[i].data,
						       segs[i].len))
					memcpy(dst, segs[i].data,
					       segs[i].len);
				/* Segments become visible in order. */
				rte_atomic_thread_fence(
					rte_memory_order_release);
			}
		if (sf && ism_sw_sba_raise(t.sba, t.dmb_idx, RTE_BIT32(idx)))
			ism_wake_raised(t.wake);
	}
	rte_ism_pmd_move_exit(slot);
	if (unlikely(ret != 0))
		return ism_count_error(d, slot, ret);
	ism_count_move(d, slot, bytes, nb_segs, sf);
	return 0;
}

#endif /* ISM_SW_MOVE_H */
