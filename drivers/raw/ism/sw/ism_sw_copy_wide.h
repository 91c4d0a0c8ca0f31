/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_COPY_WIDE_H
#define ISM_SW_COPY_WIDE_H

/*
 * The copy pass of a burst in 32-byte vectors (ism_sw_copy_wide.c), on
 * x86 builds whose compiler has -mavx2; elsewhere the flag is a false
 * constant and the SSE pass of ism_sw_move_burst() is the only one.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ism.h>

#ifdef ISM_SW_HAVE_COPY_WIDE
/* Set at start-up: the CPU has AVX2. */
extern bool ism_sw_copy_wide;
/* Copy every segment to base + offset, in order; the segments are
 * checked.
 */
void ism_sw_burst_copy_wide(void *base, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs);
#else
#define ism_sw_copy_wide false
static inline void
ism_sw_burst_copy_wide(void *base, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs)
{
	(void)base;
	(void)segs;
	(void)nb_segs;
}
#endif

#endif /* ISM_SW_COPY_WIDE_H */
