/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The copy pass of a burst in 32-byte vectors, for CPUs with AVX2: built
 * with -mavx2 (this file only, as DPDK builds its *_avx2.c files), run
 * only where cpuid says AVX2 is there (ism_sw_copy_wide, set at start-up).
 *
 * Why: the build's baseline is SSE, so the inline copy of
 * ism_sw_copy_small() moves a 64-byte segment as four 16-byte loads and
 * stores, while glibc's memcpy(), which the benchmarks' reference calls,
 * picks its AVX2 or EVEX variant at run time and moves it as two 32-byte
 * ones (sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S). On CPUs
 * that retire few stores per cycle the burst then costs more than the 32
 * memcpy() calls it replaces. Here a segment of 33..64 bytes is two
 * possibly overlapping 32-byte chunks, one unaligned load and store each,
 * as glibc does; the other sizes take the same way as the SSE pass.
 */

#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cpuflags.h>
#include <rte_vect.h>

#include "ism_compat.h"
#include "ism_sw_copy_wide.h"
#include "ism_sw_move.h"

bool ism_sw_copy_wide;

RTE_INIT(ism_sw_copy_wide_init)
{
	ism_sw_copy_wide = rte_cpu_get_flag_enabled(RTE_CPUFLAG_AVX2) > 0;
}

void
ism_sw_burst_copy_wide(void *base, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs)
{
	__m256i head, tail;
	const void *src;
	uint32_t len;
	uint16_t i;
	void *dst;

	for (i = 0; i < nb_segs; i++) {
		/* Into locals first: the stores below may alias segs. */
		src = segs[i].data;
		len = segs[i].len;
		dst = RTE_PTR_ADD(base, segs[i].offset);
		if (likely(len - 33 < 32)) {
			head = _mm256_loadu_si256(src);
			tail = _mm256_loadu_si256(RTE_PTR_ADD(src, len - 32));
			_mm256_storeu_si256(dst, head);
			_mm256_storeu_si256(RTE_PTR_ADD(dst, len - 32), tail);
		} else if (!ism_sw_copy_small(dst, src, len)) {
			memcpy(dst, src, len);
		}
		/* Segments become visible in order. */
		rte_atomic_thread_fence(rte_memory_order_release);
	}
}
