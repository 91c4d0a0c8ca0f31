/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_VECT_S390X_H
#define RTE_VECT_S390X_H

#include <stdint.h>
#include <string.h>

#include "generic/rte_vect.h"
#include "rte_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * DPDK has no s390x vector code paths: the scalar ones run. The 128-bit
 * type below is the compiler's generic vector, which it maps onto the
 * vector facility's registers (z13 and later).
 */
#define RTE_VECT_DEFAULT_SIMD_BITWIDTH RTE_VECT_SIMD_DISABLED

typedef int32_t xmm_t __attribute__((vector_size(16)));

#define XMM_SIZE (sizeof(xmm_t))
#define XMM_MASK (XMM_SIZE - 1)

typedef union __rte_aligned(16) rte_xmm {
	xmm_t x;
	uint8_t u8[XMM_SIZE / sizeof(uint8_t)];
	uint16_t u16[XMM_SIZE / sizeof(uint16_t)];
	uint32_t u32[XMM_SIZE / sizeof(uint32_t)];
	uint64_t u64[XMM_SIZE / sizeof(uint64_t)];
	double pd[XMM_SIZE / sizeof(double)];
} rte_xmm_t;

static inline xmm_t
vect_load_128(void *p)
{
	xmm_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline xmm_t
vect_and(xmm_t data, xmm_t mask)
{
	return data & mask;
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_VECT_S390X_H */
