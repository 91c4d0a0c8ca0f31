/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_CYCLES_S390X_H
#define RTE_CYCLES_S390X_H

#include "generic/rte_cycles.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The cycle counter is the time-of-day clock: a 64-bit binary counter in
 * which bit 51 (counting from 0 at the most significant bit) steps once per
 * microsecond, i.e. 4096 units per microsecond, the same on every CPU of
 * the machine and monotonic (z/Architecture Principles of Operation,
 * "TOD Clock"). STORE CLOCK FAST stores it without waiting for the clock
 * to step, unlike STORE CLOCK.
 */
#define RTE_S390X_TOD_HZ (4096ULL * 1000 * 1000)

static __rte_always_inline uint64_t
rte_rdtsc(void)
{
	uint64_t tod;

	asm volatile("stckf %0" : "=Q" (tod) : : "cc");
	return tod;
}

/* A serialization first: every earlier access is done. */
static inline uint64_t
rte_rdtsc_precise(void)
{
	asm volatile("bcr 14,0" : : : "memory");
	return rte_rdtsc();
}

static __rte_always_inline uint64_t
rte_get_tsc_cycles(void)
{
	return rte_rdtsc();
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_CYCLES_S390X_H */
