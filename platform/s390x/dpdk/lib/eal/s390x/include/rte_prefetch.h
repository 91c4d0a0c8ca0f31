/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_PREFETCH_S390X_H
#define RTE_PREFETCH_S390X_H

#include <rte_compat.h>
#include <rte_common.h>
#include "generic/rte_prefetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * PREFETCH DATA (z10 and later): code 1 prefetches for fetch, code 2 for
 * store. The cache level cannot be chosen: every level gets the same hint.
 */
static inline void
rte_prefetch0(const volatile void *p)
{
	asm volatile("pfd 1,0(%0)" : : "a" (p));
}

static inline void
rte_prefetch1(const volatile void *p)
{
	asm volatile("pfd 1,0(%0)" : : "a" (p));
}

static inline void
rte_prefetch2(const volatile void *p)
{
	asm volatile("pfd 1,0(%0)" : : "a" (p));
}

static inline void
rte_prefetch_non_temporal(const volatile void *p)
{
	asm volatile("pfd 1,0(%0)" : : "a" (p));
}

/* No instruction moves a line to a farther cache level. */
__rte_experimental
static inline void
rte_cldemote(const volatile void *p)
{
	RTE_SET_USED(p);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_PREFETCH_S390X_H */
